"""Domain errors. They subclass ClickException so the CLI prints them and exits
1, with no traceback: `Error: ` and the first problem, then one line per further
problem (each `file:line: key.path: message`)."""

from __future__ import annotations

import click


class SheetgenError(click.ClickException):
    """Base class: `problems` is a list of `file:line: key.path: message` lines."""

    exit_code = 1

    def __init__(self, problems: str | list[str]):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class LayoutError(SheetgenError):
    """A layout file that cannot be loaded, resolved or validated."""


class RecordError(SheetgenError):
    """A game record that the sheet makes impossible."""


class RenderError(SheetgenError):
    """A rendering request that cannot be honoured."""


class HistoryError(SheetgenError):
    """The history of kept games cannot be read or written (a newer or corrupt file,
    a game already kept, an unknown game id, a bad filter)."""
