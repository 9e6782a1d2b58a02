"""The keys of a layout file: its top-level keys, its pages and their elements (each
element's own keys are its type's, sheetgen.layout.elements), and its constants. A tree
checked against LAYOUT is the plain data the other passes read (sheetgen.layout.load).
"""

from __future__ import annotations

from sheetgen.layout import elements as E
from sheetgen.layout.display import MIN_TEXT
from sheetgen.layout.housenote import HOUSE_NOTE
from sheetgen.paper import MAX_SHEET
from sheetgen.schema import INVALID, Any_, Bool, Color, Ctx, Field, Length, ListOf, Map, Num, Spec, Str, Where, describe


class Constant(Spec):
    """A game constant: a plain value, or {value, verified, note}."""

    def __init__(self):
        self.spec = Map(
            {"value": Field(_Value(), required=True), "verified": Field(Bool(), default=True), "note": Field(Str())},
            what="a constant",
        )

    def check(self, value, ctx, at):
        if isinstance(value, dict):
            return self.spec.check(value, ctx, at)
        got = _Value().check(value, ctx, at)
        return got if got is INVALID else {"value": got, "verified": True}


class _Value(Spec):
    def check(self, value, ctx, at):
        ok = lambda v: isinstance(v, (int, float, str)) and not isinstance(v, bool)  # noqa: E731
        for text in value if isinstance(value, list) else [value]:
            problem = E.text_problem(text) if isinstance(text, str) else None
            if problem:
                return ctx.error(at, problem)
        if ok(value) or (isinstance(value, list) and value and all(ok(v) for v in value)):
            return list(value) if isinstance(value, list) else value
        return ctx.error(at, f"expected a number, a text or a list of them, got {describe(value)}")


class DictOf(Spec):
    def __init__(self, value: Spec, what: str):
        self.value, self.what = value, what

    def check(self, value, ctx, at):
        if not isinstance(value, dict):
            return ctx.error(at, f"expected {self.what}, got {describe(value)}")
        out, ok = {}, True
        key_spec = E.IdStr()
        for key, item in value.items():
            where = at.child(value, key)
            if key_spec.check(key, ctx, where) is INVALID:
                ok = False
                continue
            got = self.value.check(item, ctx, where)
            ok = ok and got is not INVALID
            out[key] = got
        return out if ok else INVALID


MAX_ELEMENTS = 400  # per page (the built-in pages have at most ~50)


class Elements(Spec):
    def check(self, value, ctx, at):
        if not isinstance(value, list):
            return ctx.error(at, f"expected a list of elements, got {describe(value)}")
        if len(value) > MAX_ELEMENTS:
            return ctx.error(at, f"{len(value):,} elements on one page; the limit is {MAX_ELEMENTS}")
        out, ok = [], True
        for n, item in enumerate(value):
            name = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None
            where = Where(value, n, name or f"{at.path}[{n}]")
            got = E.check_element(item, ctx, where)
            if got is INVALID:
                ok = False
            else:
                got["_node"] = item
                got["_path"] = where.path
                out.append(got)
        return out if ok else INVALID


def _players_post(p, ctx, at):
    if not p["min"] <= p["default"] <= p["max"]:
        return ctx.error(at, f"expected min <= default <= max, got {p['min']}, {p['default']}, {p['max']}")
    return p


PAGE = Map(
    {
        "id": Field(E.IdStr(), required=True),
        "title": Field(E.Label(), required=True),
        "house_note": Field(E.Label()),
        "house_note_in": Field(E.IdStr()),
        "elements": Field(Elements(), required=True),
    },
    what="a page mapping",
)


LAYOUT = Map(
    {
        # resolve() consumes `extends`; listed so that "accepted keys" messages name it
        "extends": Field(Any_()),
        "id": Field(Str(r"[a-z0-9][a-z0-9_.-]*", what="a layout id"), required=True),
        # which games exist is the games registry's to say (sheetgen.games.game_for)
        "game": Field(Str(r"[a-z0-9][a-z0-9_-]*", what="a game id"), required=True),
        "title": Field(E.Label(), required=True),
        "description": Field(E.Label()),
        "sheet": Field(
            Map(
                {
                    "width": Field(Length(20, MAX_SHEET[0]), required=True),
                    "height": Field(Length(20, MAX_SHEET[1]), required=True),
                }
            ),
            default=lambda: {"width": 194.0, "height": 263.0},
        ),
        "players": Field(
            Map(
                {
                    "min": Field(E.IntRef(1, 12), default=1),
                    "max": Field(E.IntRef(1, 12), default=1),
                    "default": Field(E.IntRef(1, 12), default=1),
                },
                post=_players_post,
            ),
            default=lambda: {"min": 1, "max": 1, "default": 1},
        ),
        "theme": Field(
            Map({"accent": Field(Color(), default="#2f6b3a"), "tint": Field(Color(), default="#eef4ea")}),
            default=lambda: {"accent": "#2f6b3a", "tint": "#eef4ea"},
        ),
        "constants": Field(DictOf(Constant(), "a mapping of constants"), default=dict),
        "house_note": Field(E.Label(), default=lambda: dict(HOUSE_NOTE)),
        # the frame the house note goes in, on each page that has it (a page may name its own)
        "house_note_in": Field(E.IdStr()),
        # the sheet carries scan marks (corner fiducials, a QR code) for `sheetgen scan`:
        # only pads whose marks are boxes to tick, not numbers to write
        "scan_marks": Field(Bool(), default=False),
        # pt: every text of the sheet (not the in-box hints) is printed at this size or more,
        # and never shrunk below it to fit: a full-size sheet drawn to print 2 a page (9.25)
        "smallest_text": Field(Num(MIN_TEXT, 14), default=MIN_TEXT),
        "pages": Field(ListOf(PAGE, 1, 12), required=True),
    }
)


def whole_constants(raw: dict) -> dict:
    """The constants that are whole numbers, for the keys that may name one (`{name}`);
    a bad constant is reported by the layout's own check."""
    consts = raw.get("constants")
    out = {}
    for name, item in consts.items() if isinstance(consts, dict) else ():
        got = Constant().check(item, Ctx(), Where(consts, name, ""))
        if got is not INVALID and isinstance(got["value"], int) and not isinstance(got["value"], bool):
            out[name] = got["value"]
    return out
