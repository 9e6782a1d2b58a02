"""Specs for the marks players enter in a record (see sheetgen.schema).

Every spec here knows how to describe itself (for `template` and the
interactive prompts) and how to parse what a person types.
"""

from __future__ import annotations

from sheetgen.schema import Spec, describe
from sheetgen.scoring.numbers import parse_number


class Count(Spec):
    """A whole number in [lo, hi]; may be typed as a sum ("3+4")."""

    def __init__(self, lo: int | None = 0, hi: int | None = None, why_lo: str = ""):
        self.lo, self.hi, self.why_lo = lo, hi, why_lo

    @property
    def description(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"{self.lo}-{self.hi}"
        if self.lo is not None:
            return f"{self.lo} or more"
        return "a whole number (sums like 10+20-5 allowed)"

    def check(self, value, ctx, at):
        n = parse_number(value)
        if n is None:
            return ctx.error(at, f"expected a whole number or a sum like 10+20-5, got {describe(value)}")
        if (self.lo is not None and n < self.lo) or (self.hi is not None and n > self.hi):
            if self.lo is not None and n < 0 <= self.lo:
                return ctx.error(at, f"expected {self.description}, got a negative count {n}")
            if self.why_lo and n < self.lo:
                return ctx.error(at, f"expected {self.description} ({self.why_lo}), got {n}")
            return ctx.error(at, f"expected {self.description}, got {n}")
        return n


class Choice(Spec):
    def __init__(self, choices):
        self.choices = tuple(choices)

    @property
    def description(self):
        return "one of " + ", ".join(map(str, self.choices))

    def check(self, value, ctx, at):
        if value not in self.choices:
            return ctx.error(at, f"expected {self.description}, got {describe(value)}")
        return value


class Name(Spec):
    description = "a player name"

    def check(self, value, ctx, at):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            return ctx.error(at, f"expected a player name, got {describe(value)}")
        if len(value) > 60:
            return ctx.error(at, "a player name is at most 60 characters")
        return value.strip()

