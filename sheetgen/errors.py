"""Domain errors: plain exceptions carrying problems as data.

A `Problem` is (file, line, key path, message). Library code collects them and
raises one `SheetgenError` holding all of them; only the command line
(sheetgen.cli) turns them into text and an exit code. Nothing below the CLI
imports Click, and nothing parses a formatted problem back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
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
        super().__init__("\n".join(self.lines))

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
