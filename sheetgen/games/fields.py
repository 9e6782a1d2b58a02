"""Specs for the marks players enter in a record (see sheetgen.schema).

Every spec here knows how to describe itself (for `template` and the
interactive prompts) and how to parse what a person types.
"""

from __future__ import annotations

from sheetgen.schema import Int, Slow, Spec, describe


def Count(lo: int | None = 0, hi: int | None = None, why_lo: str = "", holder: str = "") -> Int:  # noqa: N802
    """Boxes or points a player counts on a sheet: a whole number in [lo, hi], which
    may be typed as a sum ("3+4")."""
    return Int(lo, hi, sums=True, why_lo=why_lo, holder=holder)


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

    def quick(self):
        def run(value):
            name = value.strip() if type(value) is str else ""
            if not name or len(value) > 60:
                raise Slow
            return name

        return run

    def quick_inline(self, var, env):
        if type(self).check is not Name.check:
            return Spec.quick_inline(self, var, env)
        return [
            f"{var}_s = {var}.strip() if type({var}) is str else ''",
            f"if not {var}_s or len({var}) > 60:",
            "    raise Slow",
            f"{var} = {var}_s",
        ]
