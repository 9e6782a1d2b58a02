"""Domain errors: plain exceptions carrying problems as data.

A `Problem` is (file, line, key path, message). Library code collects them and
raises one `SheetgenError` holding all of them; only the command line
(sheetgen.cli) turns them into text and an exit code. Nothing below the CLI
imports Click, and nothing parses a formatted problem back.
"""

from __future__ import annotations

import re

from sheetgen.values import valueclass

MAX_SHOWN = 50  # problems printed; the rest are counted ("... and 1,234 more")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


# what a CSV cell may hold as it is (quoted): its line breaks and tabs are data
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str, keep_lines: bool = False) -> str:
    """`text` with control characters (terminal escapes, newlines, bidi overrides) shown
    escaped, e.g. `\\x1b`, so that a name or a file's text cannot drive the terminal;
    `keep_lines`: tabs and line breaks kept (a CSV cell's, quoted)."""

    def esc(m):
        ch = m.group()
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch) or (
            f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
        )

    return (_CONTROL_BUT_LINES if keep_lines else _CONTROL).sub(esc, text)


def shown_problems(lines: list[str]) -> list[str]:
    """Problems as printed: escaped, and at most MAX_SHOWN of them."""
    out = [printable(p) for p in lines[:MAX_SHOWN]]
    if len(lines) > MAX_SHOWN:
        out.append(f"... and {len(lines) - MAX_SHOWN:,} more")
    return out


@valueclass
class Problem:
    """One thing wrong with an input: `file:line: path: message` when shown."""

    message: str
    file: str = ""
    line: int = 0
    path: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file and self.line else (f"{self.file}: " if self.file else "")
        return f"{where}{self.path}: {self.message}" if self.path else f"{where}{self.message}"

    def located(self) -> bool:
        """Whether the problem points into a file (not only at a whole input)."""
        return bool(self.file and self.line)


def as_problems(problems) -> list[Problem]:
    """Problems from a Problem, a plain message, or a list of either."""
    if isinstance(problems, (str, Problem)):
        problems = [problems]
    return [p if isinstance(p, Problem) else Problem(str(p)) for p in problems]


class SheetgenError(Exception):
    """Base class: `problems` is a list of Problem; `exit_code` is what the CLI exits with."""

    exit_code = 1

    def __init__(self, problems):
        self.problems = as_problems(problems)
        super().__init__("\n".join(shown_problems(self.lines)))

    @property
    def lines(self) -> list[str]:
        """Each problem as the user sees it."""
        return [str(p) for p in self.problems]


class LayoutError(SheetgenError):
    """A layout file that cannot be loaded, resolved or validated."""


class RecordError(SheetgenError):
    """A game record that the sheet makes impossible."""


class UsageError(SheetgenError):
    """A request (an option, a combination of arguments) that cannot be honoured."""

    exit_code = 2


class HistoryError(SheetgenError):
    """The history of kept games cannot be read or written (a newer or corrupt file,
    a game already kept, an unknown game id, a bad filter)."""
