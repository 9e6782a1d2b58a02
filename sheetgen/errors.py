"""Domain errors. They subclass ClickException so the CLI prints them and exits
1, with no traceback: `Error: ` and the first problem, then one line per further
problem (each `file:line: key.path: message`)."""

from __future__ import annotations

import re

import click

MAX_SHOWN = 50   # problems printed; the rest are counted ("... and 1,234 more")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with control characters (terminal escapes, newlines, bidi overrides) shown
    escaped, e.g. `\\x1b`, so that a name or a file's text cannot drive the terminal."""
    def esc(m):
        ch = m.group()
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch) or (
            f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
    return _CONTROL.sub(esc, text)


def shown_problems(problems: list[str]) -> list[str]:
    """The problems as printed: escaped, and at most MAX_SHOWN of them."""
    out = [printable(p) for p in problems[:MAX_SHOWN]]
    if len(problems) > MAX_SHOWN:
        out.append(f"... and {len(problems) - MAX_SHOWN:,} more")
    return out


class SheetgenError(click.ClickException):
    """Base class: `problems` is a list of `file:line: key.path: message` lines."""

    exit_code = 1

    def __init__(self, problems: str | list[str]):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(shown_problems(self.problems)))


class LayoutError(SheetgenError):
    """A layout file that cannot be loaded, resolved or validated."""


class RecordError(SheetgenError):
    """A game record that the sheet makes impossible."""


class RenderError(SheetgenError):
    """A rendering request that cannot be honoured."""
