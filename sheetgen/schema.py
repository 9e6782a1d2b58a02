"""A small schema language that validates YAML trees and collects every error.

Each spec's `check(value, ctx, at)` returns the normalised value, or `INVALID`
after recording an error. `at` is a `Where`: the node holding the value, its key
there, and the breadcrumb path shown to the user. Errors read
`file:line: path: message` (cfgv / mkdocs style); the caller raises once.
Used for layouts (sheetgen.layout) and game records (sheetgen.scoring).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sheetgen.errors import Problem
from sheetgen.numbers import MAX_DIGITS, parse_number
from sheetgen.srctree import where as _where

INVALID = object()
MISSING = object()


class Where:
    """Where a value sits: its holder `node`, its `key` there, and its key path for
    messages (`pages[0].elements[3].at`). A child's path is only spelled out when
    asked for (an error), since valid input never needs it."""

    __slots__ = ("node", "key", "_path", "_parent", "_part")

    def __init__(self, node: Any, key: Any, path: str):
        self.node, self.key, self._path, self._parent, self._part = node, key, path, None, None

    def child(self, node, key, name: str | None = None) -> Where:
        w = Where(node, key, None)
        w._parent, w._part = self, name if name is not None else (f"[{key}]" if isinstance(key, int) else str(key))
        return w

    @property
    def path(self) -> str:
        if self._path is None:
            base, part = self._parent.path, self._part
            if not base:
                self._path = part.lstrip(".")
            elif base.endswith(":"):
                self._path = f"{base} {part}"
            elif part.startswith("["):
                self._path = base + part
            else:
                self._path = f"{base}.{part}"
        return self._path

    def __eq__(self, other) -> bool:
        if not isinstance(other, Where):
            return NotImplemented
        return (self.node, self.key, self.path) == (other.node, other.key, other.path)

    __hash__ = None  # like the frozen dataclass it was: its node is a mapping or a list

    def __repr__(self) -> str:
        return f"Where(node=..., key={self.key!r}, path={self.path!r})"

    def location(self) -> tuple[str, int]:
        if self.node is None:
            return "<string>", 0
        return _where(self.node, self.key)


@dataclass  # not a sheetgen.values class: the batch scorer makes one a record, and a dataclass's is quicker
class Ctx:
    errors: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    source: str = "<string>"  # the file name for values that do not carry one
    constants: dict = field(default_factory=dict)  # a layout's whole-number constants, for specs that name one

    def error(self, at: Where, message: str) -> object:
        file, line = at.location()
        if file == "<string>":
            file = self.source
        self.errors.append(Problem(message, file, line, at.path.rstrip(":")))
        return INVALID


_NOWHERE = Where(None, None, "")


def describe(value) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def did_you_mean(word, choices) -> str:
    """`; did you mean 'x'?` for the closest of `choices` to a mistyped `word`, or ''."""
    if not isinstance(word, str) or len(word) > 100:
        return ""
    import difflib  # only when a message is written: not on every start

    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.8)
    return f"; did you mean '{close[0]}'?" if close else ""


class Slow(Exception):
    """Raised by a quick checker (Spec.quick) for a value it does not pass: check() it."""


class Spec:
    description = "a value"

    def check(self, value, ctx: Ctx, at: Where):  # pragma: no cover - abstract
        raise NotImplementedError

    def quick(self) -> Callable:
        """A function of a value giving what check() gives for a valid value, faster (no
        places, no messages), and raising Slow for any other: then check() says what is
        wrong. Scoring many records uses it; this default is check() itself."""

        def run(value):
            ctx = Ctx()
            got = self.check(value, ctx, _NOWHERE)
            if got is INVALID or ctx.errors or ctx.warnings:
                raise Slow
            return got

        return run

    def quick_inline(self, var: str, env: dict) -> list[str]:
        """Lines of a compiled Map's function (schema.Map.quick) that do what quick() does to
        the local `var` (leave what it gives in `var`, or raise Slow), names they read put in
        `env` under `var`'s prefix. This default calls quick(); a spec whose usual case is a
        few tests writes them inline (a call costs as much as they do)."""
        env[f"{var}q"] = self.quick()
        return [f"{var} = {var}q({var})"]

    def quick_each(self) -> Callable:
        """quick() of every item of a list at once (a list in, a list out): ListOf uses it.
        A spec may check a whole list faster than item by item."""
        item = self.quick()
        return lambda values: [item(v) for v in values]


class Any_(Spec):
    def check(self, value, ctx, at):
        return value

    def quick(self):
        return lambda value: value


class Bool(Spec):
    description = "true or false"

    def check(self, value, ctx, at):
        if isinstance(value, bool):
            return value
        return ctx.error(at, f"expected true or false, got {describe(value)}")


class Int(Spec):
    """A whole number in [lo, hi] (either bound optional): the one ranged-integer spec,
    for layouts and records alike.

    - `sums`: a count a person types may be a sum ("10+20-5", sheetgen.numbers);
    - `why_lo`: why the lower bound is there ("1 box is pre-printed on this sheet");
    - `holder`: what bounds it from above, with {n} for the bound ("the walls track has {n} boxes").
    """

    def __init__(
        self, lo: int | None = None, hi: int | None = None, *, sums: bool = False, why_lo: str = "", holder: str = ""
    ):
        self.lo, self.hi, self.sums, self.why_lo, self.holder = lo, hi, sums, why_lo, holder

    @property
    def description(self) -> str:
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            return f"{lo}-{hi}" if lo != hi else str(lo)
        if lo is not None:
            return f"{lo} or more"
        if hi is not None:
            return f"{hi} or less"
        return "a whole number (sums like 10+20-5 allowed)" if self.sums else "a whole number"

    def check(self, value, ctx, at):
        if self.sums:
            n = parse_number(value)
            if n is None:
                return ctx.error(at, f"expected a whole number or a sum like 10+20-5, got {describe(value)}")
        elif isinstance(value, bool) or not isinstance(value, int):
            return ctx.error(at, f"expected a whole number, got {describe(value)}")
        else:
            n = value
        if self.lo is not None and n < self.lo:
            if self.sums and n < 0 <= self.lo:
                return ctx.error(at, f"expected {self.description}, got a negative count {n}")
            why = f" ({self.why_lo})" if self.why_lo else ""
            return ctx.error(at, f"expected {self.description}{why}, got {n}")
        if self.hi is not None and n > self.hi:
            why = f" ({self.holder.format(n=self.hi)})" if self.holder else ""
            return ctx.error(at, f"expected {self.description}{why}, got {n}")
        return n

    def _int_bounds(self) -> tuple:
        """(lo, hi): quick() takes a whole number (int) in [lo, hi] as it is, and no other int."""
        lo = -math.inf if self.lo is None else self.lo
        hi = math.inf if self.hi is None else self.hi
        small = 10**MAX_DIGITS - 1  # parse_number's own size limit, for a count
        return (max(lo, -small), min(hi, small)) if self.sums else (lo, hi)

    def quick_inline(self, var, env):
        if type(self).check is not Int.check:
            return Spec.quick_inline(self, var, env)
        # a whole number in range as it is; anything else (a sum, out of range) by quick()
        env[f"{var}q"], (env[f"{var}lo"], env[f"{var}hi"]) = self.quick(), self._int_bounds()
        return [f"if type({var}) is not int or not {var}lo <= {var} <= {var}hi:", f"    {var} = {var}q({var})"]

    def quick(self):
        if type(self).check is not Int.check:
            return Spec.quick(self)
        lo = -math.inf if self.lo is None else self.lo
        hi = math.inf if self.hi is None else self.hi
        int_lo, int_hi = self._int_bounds()
        sums = self.sums

        def run(value):
            if type(value) is int:
                if int_lo <= value <= int_hi:
                    return value
                raise Slow
            n = parse_number(value) if sums else None
            if n is None or not lo <= n <= hi:
                raise Slow
            return n

        return run


class Num(Spec):
    def __init__(self, lo: float | None = None, hi: float | None = None):
        self.lo, self.hi = lo, hi

    def check(self, value, ctx, at):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return ctx.error(at, f"expected a number, got {describe(value)}")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            return ctx.error(at, f"expected a number from {self.lo:g} to {self.hi:g}, got {value:g}")
        return value


class Str(Spec):
    def __init__(self, pattern: str | None = None, choices=None, what: str | None = None):
        self.pattern = re.compile(pattern) if pattern else None
        self.choices = tuple(choices) if choices else None
        self.what = what

    def check(self, value, ctx, at):
        if not isinstance(value, str):
            return ctx.error(at, f"expected {self.what or 'a string'}, got {describe(value)}")
        if self.choices is not None and value not in self.choices:
            return ctx.error(at, f"expected one of {', '.join(self.choices)}, got {describe(value)}")
        if self.pattern is not None and not self.pattern.fullmatch(value):
            return ctx.error(at, f"expected {self.what or 'a string'}, got {describe(value)}")
        return value

    def quick(self):
        if type(self).check is not Str.check:
            return Spec.quick(self)
        pattern, choices = self.pattern, self.choices

        def run(value):
            if (
                not isinstance(value, str)
                or (choices is not None and value not in choices)
                or (pattern is not None and not pattern.fullmatch(value))
            ):
                raise Slow
            return value

        return run


class ListOf(Spec):
    def __init__(self, item: Spec, lo: int = 0, hi: int | None = None):
        self.item, self.lo, self.hi = item, lo, hi

    def check(self, value, ctx, at):
        if not isinstance(value, list):
            return ctx.error(at, f"expected a list, got {describe(value)}")
        if len(value) < self.lo or (self.hi is not None and len(value) > self.hi):
            if self.hi is None:
                want = f"at least {self.lo}"
            elif self.lo == self.hi:
                want = f"exactly {self.lo}"
            else:
                want = f"{self.lo}-{self.hi}"
            return ctx.error(at, f"expected {want} items, got {len(value)}")
        out = []
        ok = True
        for i, item in enumerate(value):
            got = self.item.check(item, ctx, at.child(value, i))
            ok = ok and got is not INVALID
            out.append(got)
        return out if ok else INVALID

    def quick(self):
        if type(self).check is not ListOf.check:
            return Spec.quick(self)
        each, lo, hi = self.item.quick_each(), self.lo, math.inf if self.hi is None else self.hi

        def run(value):
            if not isinstance(value, list) or not lo <= len(value) <= hi:
                raise Slow
            return each(value)

        return run

    def quick_inline(self, var, env):
        if type(self).check is not ListOf.check:
            return Spec.quick_inline(self, var, env)
        env[f"{var}each"], env[f"{var}lo"] = self.item.quick_each(), self.lo
        env[f"{var}hi"] = math.inf if self.hi is None else self.hi
        return [
            f"if not isinstance({var}, list) or not {var}lo <= len({var}) <= {var}hi:",
            "    raise Slow",
            f"{var} = {var}each({var})",
        ]


class Field:
    """One key of a Map: its spec, whether it is required, and its default."""

    def __init__(self, spec: Spec, required: bool = False, default=MISSING, doc: str = ""):
        self.spec, self.required, self.default, self.doc = spec, required, default, doc


class Map(Spec):
    """A mapping with known keys. Unknown keys are errors that list the accepted ones."""

    def __init__(
        self, fields: dict[str, Field], what: str = "a mapping", post: Callable[[dict, Ctx, Where], Any] | None = None
    ):
        self.fields, self.what, self.post = fields, what, post

    def check(self, value, ctx, at):
        if not isinstance(value, dict):
            return ctx.error(at, f"expected {self.what}, got {describe(value)}")
        out: dict = {}
        ok = True
        for key in value:
            if key not in self.fields:
                accepted = ", ".join(sorted(self.fields))
                hint = did_you_mean(key, self.fields).lstrip("; ")
                ctx.error(at.child(value, key), f"unknown key{'; ' + hint if hint else ''}; accepted keys: {accepted}")
                ok = False
        for name, fld in self.fields.items():
            if name in value:
                got = fld.spec.check(value[name], ctx, at.child(value, name))
                if got is INVALID:
                    ok = False
                else:
                    out[name] = got
            elif fld.required:
                ctx.error(at, f"missing key '{name}'")
                ok = False
            elif fld.default is not MISSING:
                out[name] = fld.default() if callable(fld.default) else fld.default
        if not ok:
            return INVALID
        if self.post is not None:
            return self.post(out, ctx, at)
        return out

    def quick(self):
        """Compiled for this Map's own fields: one function whose body reads each key and
        checks it by its spec's quick_inline lines (a whole number in range, a nested
        mapping..., without a call), the way a hand-written check would."""
        if self.post is not None or type(self).check is not Map.check:  # a subclass checks its own way
            return Spec.quick(self)
        env: dict = {"Slow": Slow}
        lines = ["def run(value):", *(f"    {line}" for line in self._every("value", env)), "    return value"]
        exec("\n".join(lines), env)
        return env["run"]

    def quick_inline(self, var, env):
        if self.post is not None or type(self).check is not Map.check:
            return Spec.quick_inline(self, var, env)
        return self._every(var, env)

    def _every(self, var: str, env: dict) -> list[str]:
        """The lines for a mapping holding every field (the usual record): each checked
        inline, into a new dict left in `var`; any other mapping goes to `some`."""
        env[f"{var}names"], env[f"{var}some"] = frozenset(self.fields), self._some_function(env)
        lines = [
            f"if not isinstance({var}, dict) or len({var}) != {len(self.fields)} or not {var}names.issuperset({var}):",
            f"    {var} = {var}some({var})",
            "else:",
        ]
        for i, (name, fld) in enumerate(self.fields.items()):
            lines.append(f"    {var}_{i} = {var}[{name!r}]")
            lines += [f"    {line}" for line in fld.spec.quick_inline(f"{var}_{i}", env)]
        lines.append(f"    {var} = {{" + ", ".join(f"{name!r}: {var}_{i}" for i, name in enumerate(self.fields)) + "}")
        return lines

    def _some_function(self, env: dict) -> Callable:
        """The quick checker of a mapping that lacks some fields (optional ones, or a
        required one: Slow), each field by its spec's quick()."""
        local = {"names": frozenset(self.fields), "Slow": Slow}
        lines = [
            "def some(value):",
            "    if not isinstance(value, dict) or not names.issuperset(value):",
            "        raise Slow",
            "    out = {}",
        ]
        for i, (name, fld) in enumerate(self.fields.items()):
            local[f"q{i}"] = fld.spec.quick()
            lines += [f"    if {name!r} in value:", f"        out[{name!r}] = q{i}(value[{name!r}])"]
            if fld.required:
                lines += ["    else:", "        raise Slow"]
            elif fld.default is not MISSING:
                local[f"d{i}"] = fld.default
                lines += ["    else:", f"        out[{name!r}] = d{i}() if callable(d{i}) else d{i}"]
        lines.append("    return out")
        exec("\n".join(lines), local)
        return local["some"]


# --------------------------------------------------------------------------- lengths

_UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)?\s*", re.ASCII)


def parse_length(value) -> float | None:
    """A length in mm: numbers are mm; strings take a unit (mm, cm, in, pt)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        m = _LENGTH.fullmatch(value)
        if m:
            return float(m.group(1)) * _UNITS[m.group(2) or "mm"]
    return None


class Length(Spec):
    description = "a length"

    def __init__(self, lo: float = 0.0, hi: float = 1000.0):
        self.lo, self.hi = lo, hi

    def check(self, value, ctx, at):
        mm = parse_length(value)
        if mm is None:
            return ctx.error(at, f"expected a length like 12mm, 0.5in, 10pt or 12, got {describe(value)}")
        if mm < self.lo or mm > self.hi:
            return ctx.error(at, f"expected a length from {self.lo:g}mm to {self.hi:g}mm, got {mm:g}mm")
        return mm


class Pair(Spec):
    """[a, b] of another spec (a position or a size)."""

    def __init__(self, item: Spec, what: str):
        self.item, self.what = item, what

    def check(self, value, ctx, at):
        if not isinstance(value, list) or len(value) != 2:
            return ctx.error(at, f"expected {self.what}, got {describe(value)}")
        a = self.item.check(value[0], ctx, at.child(value, 0))
        b = self.item.check(value[1], ctx, at.child(value, 1))
        if a is INVALID or b is INVALID:
            return INVALID
        return (a, b)


class Color(Spec):
    _RE = re.compile(r"#[0-9a-fA-F]{6}")

    def check(self, value, ctx, at):
        if isinstance(value, str) and self._RE.fullmatch(value):
            return value.lower()
        return ctx.error(at, f"expected a colour like '#4a7c2f', got {describe(value)}")
