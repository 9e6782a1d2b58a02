"""Element types: their keys (schema), their size, and their display list.

Every element has `id` (unique in the layout), `type`, `at: [x, y]` (top-left,
from the sheet's top-left corner, or from the inside of the frame named by
`in:`) and optionally `verified: false`. Each type below adds its own keys.
Adding a type means adding one `ElementType` here; validation, rendering and
the docs' key lists follow from it.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Callable

from sheetgen.layout.display import HOUSE_MARK, INK, Box, Circle, Icon, Rect, Text
from sheetgen.schema import (
    INVALID, Bool, Color, Ctx, Field, Int, Length, ListOf, Map, Num, Pair, Spec, Str, Where,
    describe,
)

ID_PATTERN = r"[a-z][a-z0-9_-]*"
IdStr = lambda: Str(ID_PATTERN, what="an id (lower case letters, digits, - and _)")  # noqa: E731
LANGS = ("fr", "en")
_HAS_LETTER = re.compile(r"[^\W\d_]")


def _printable(value):
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


MAX_LABEL = 2000   # characters: more cannot fit a sheet, and would only slow the fit check


def _rtl(text: str) -> str | None:
    """The first right-to-left letter (Hebrew, Arabic...) in `text`, if any."""
    import unicodedata

    return next((ch for ch in text if unicodedata.bidirectional(ch) in ("R", "AL")), None)


def text_problem(text: str) -> str | None:
    """Why `text` cannot be printed on a sheet: too long, or in a right-to-left script
    (the PDF would show it reversed and unshaped; refused rather than printed wrong)."""
    if len(text) > MAX_LABEL:
        return f"a label is at most {MAX_LABEL} characters (the limit), got {len(text):,}"
    ch = _rtl(text)
    if ch is not None:
        return (f"right-to-left text ({ch!r}, U+{ord(ch):04X}) is not supported: the sheet would print "
                "it reversed and unshaped; write the label in French and English")
    return None


class Label(Spec):
    """Text shown to players: {fr: ..., en: ...}; a plain string only without letters."""

    def check(self, value, ctx, at):
        for text in (value.values() if isinstance(value, dict) else [value]):
            problem = text_problem(text) if isinstance(text, str) else None
            if problem:
                return ctx.error(at, problem)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str):
            if _HAS_LETTER.search(value):
                return ctx.error(at, f"expected a label with 'fr' and 'en', got {describe(value)}")
            return {"fr": value, "en": value}
        if isinstance(value, dict):
            ok = True
            for key in value:
                if key not in LANGS + ("house",):
                    ctx.error(at.child(value, key), "unknown key; accepted keys: en, fr, house")
                    ok = False
            house = value.get("house", False)
            if not isinstance(house, bool):
                ctx.error(at.child(value, "house"), f"expected true or false, got {describe(house)}")
                ok = False
            for lang in LANGS:
                if lang not in value:
                    ctx.error(at, f"missing key '{lang}' (every label exists in French and English)")
                    ok = False
                elif not isinstance(value[lang], str):
                    ctx.error(at.child(value, lang), f"expected text, got {describe(value[lang])}")
                    ok = False
            if not ok:
                return INVALID
            out = {lang: value[lang] for lang in LANGS}
            if house:  # a house rule text: printed with the house mark
                out["house"] = True
            return out
        return ctx.error(at, f"expected a label with 'fr' and 'en', got {describe(value)}")


class IconName(Str):
    def __init__(self):
        super().__init__(what="an icon name")

    def check(self, value, ctx, at):
        value = super().check(value, ctx, at)
        if value is INVALID:
            return value
        from sheetgen.icons import ICON_NAMES

        if value not in ICON_NAMES:
            return ctx.error(at, f"unknown icon '{value}'; icons: {', '.join(ICON_NAMES)}")
        return value


class IntRef(Int):
    """A whole number, or `{name}`: the layout's whole-number constant `name` (so that a
    house reading, such as a board's height, is written once, among the constants)."""

    def check(self, value, ctx, at):
        if isinstance(value, str) and re.fullmatch(r"\{\w+\}", value):
            constants = ctx.constants
            got = constants.get(value[1:-1])
            if got is None:
                return ctx.error(at, f"unknown constant '{value}'; whole-number constants: "
                                     f"{', '.join(sorted(constants)) or 'none'}")
            value = got
        return super().check(value, ctx, at)


POINT = Pair(Length(-1000, 1000), "a position [x, y]")
SIZE = Pair(Length(0.5, 1000), "a size [width, height]")
FONT = Str(choices=("sans", "sans-bold", "condensed", "condensed-bold"))


@dataclass
class Env:
    """What building a display list needs besides the element."""
    lang: str
    constants: dict
    theme: dict
    players: int = 1
    errors: list = field(default_factory=list)
    elements: dict = field(default_factory=dict)
    unverified: frozenset = frozenset()   # Layout.unverified: `constants.x`, `pig`, `walls.sections[0]`
    marks: list = field(default_factory=list)  # key paths of the house values printed so far

    def t(self, label: dict | None, path: str = "", house: bool = False) -> str:
        """A label in this language, with `{name}` placeholders filled in; with the house
        mark after it when the label says `house: true` or `house` is true."""
        if label is None:
            return ""
        text = self._fill(label[self.lang], path)
        return self.mark(text, path) if house or label.get("house") else text

    def mark(self, text: str, path: str) -> str:
        """`text` with the house mark after it (and the page gets the house note)."""
        self.marks.append(path)
        return text + HOUSE_MARK

    def is_house(self, ref: str) -> bool:
        """Whether a key path (`pig.sections[2].value`, `constants.row_values[0]`) lies
        in a value marked `verified: false`."""
        return any(ref == u or ref.startswith((u + ".", u + "[")) for u in self.unverified)

    def value(self, value, ref: str, path: str) -> str:
        """A printed number or text taken from the layout at `ref`, marked when unverified."""
        text = str(value)
        return self.mark(text, path) if self.is_house(ref) else text

    def _fill(self, text: str, path: str) -> str:
        if "{" not in text and "}" not in text:
            return text
        try:
            parts = list(string.Formatter().parse(text))
        except ValueError as exc:
            self.errors.append((path, f"bad braces in text: {exc}"))
            return text
        out = []
        for literal, name, _spec, _conv in parts:
            out.append(literal)
            if name is not None:
                found = self.lookup(name, path)
                head = re.match(r"[^.\[]*", name).group()
                in_element = name not in self.constants and head in self.elements
                ref = name if in_element else "constants." + name
                out.append(self.value(found, ref, path) if found != "?" else found)
        return "".join(out)

    def lookup(self, name: str, path: str):
        """`{name}` in a label: a constant, an item of a list constant (`row_values[0]`), or a
        key path into an element (`garden.row_value`)."""
        if name in self.constants:
            return _printable(self.constants[name])
        head, rest = re.match(r"([^.\[]*)\.?(.*)", name).groups()
        node = self.elements[head] if head in self.elements else self.constants.get(head)
        if node is not None and rest:
            for part in filter(None, rest.replace("]", "").replace("[", ".").split(".")):
                key = int(part) if part.isdigit() else part
                try:
                    node = node[key]
                except (KeyError, IndexError, TypeError):
                    node = None
                    break
            if node is not None and not isinstance(node, (dict, list)):
                return node
        known = ", ".join(sorted(self.constants)) or "none"
        self.errors.append((path, f"unknown constant '{{{name}}}' in text; constants: {known} "
                                  f"(or an element key path like garden.row_value)"))
        return "?"

    @property
    def accent(self):
        return self.theme["accent"]

    @property
    def tint(self):
        return self.theme["tint"]


@dataclass
class ElementType:
    name: str
    fields: dict[str, Field]
    size: Callable[[dict], tuple[float, float]]
    build: Callable[[dict, Env], list]
    container: bool = False   # other elements may sit inside it (`in:`)
    doc: str = ""
    post: Callable | None = None   # (element, ctx, at) -> element or INVALID, after the keys are checked
    read: Callable | None = None   # (element, {field: value}) -> marks, for reading a filled PDF (pdfread)


# ----------------------------------------------------------------------------- helpers


def _label_block(x, y, w, h, el, env, path, size=8.0, bold=True, icon_size=None):
    """An optional icon then a label, vertically centred in the box."""
    out = []
    tx = x
    if el.get("icon"):
        s = icon_size or min(h - 1, 8.0)
        out.append(Icon(x, y + (h - s) / 2, s, el["icon"], el.get("icon_color")))
        tx = x + s + (1.0 if s <= 5 else 1.5)
    if el.get("label"):
        out.append(Text(tx, y, max(x + w - tx, 1), h, env.t(el["label"], path + ".label"),
                        "condensed-bold" if bold else "condensed", size, path=path + ".label"))
    return out


def _label_fits(el, env, path, w, h, size, icon_size) -> bool:
    """Whether _label_block's label fits in w x h mm at `size` pt (never shrunk)."""
    from sheetgen import text as fonts

    if not el.get("label"):
        return True
    if el.get("icon"):
        w -= icon_size + (1.0 if icon_size <= 5 else 1.5)
    pt = 72 / 25.4
    text = env.t(el["label"], path + ".label")
    return fonts.fit_text(text, "condensed-bold", size, w * pt, h * pt, True, size).fits


def _badge(cx, cy, r, value, env, path, ref, fill=None):
    """A value in a circle; `ref` is the value's key path (marked when unverified)."""
    return [Circle(cx, cy, r, env.accent, fill or "#ffffff", 1.0),
            Text(cx - r, cy - r, 2 * r, 2 * r, env.value(value, ref, path), "sans-bold", 9.0, "center", path=path)]


# ----------------------------------------------------------------------------- frame

FRAME_FIELDS = {
    "size": Field(SIZE, required=True),
    "title": Field(Label()),
    "icon": Field(IconName()),
    "header": Field(Length(3, 30), default=7.0),
    "color": Field(Color()),
    "fill": Field(Color()),
}


def _frame_build(el, env):
    x, y, (w, h) = el["x"], el["y"], el["size"]
    color = el.get("color") or env.accent
    out = [Rect(x, y, w, h, color, el.get("fill", "#ffffff"), 1.4, 2.5)]
    if el.get("title"):
        hh = el["header"]
        out += [Rect(x, y, w, hh, None, color, 0, 2.5), Rect(x, y + hh / 2, w, hh / 2, None, color, 0)]
        tx = x + 3
        if el.get("icon"):
            out.append(Icon(tx, y + 0.6, hh - 1.2, el["icon"]))
            tx += hh + 0.5
        out.append(Text(tx, y, w - (tx - x) - 2, hh, env.t(el["title"], el["_path"] + ".title"),
                        "sans-bold", min(11.0, hh * 1.5), color="#ffffff", path=el["_path"] + ".title"))
    return out


# ----------------------------------------------------------------------------- banner

BANNER_FIELDS = {
    "size": Field(SIZE, required=True),
    "text": Field(Label(), required=True),
    "subtitle": Field(Label()),
    "icons": Field(ListOf(IconName(), 0, 8), default=list),
    "font_size": Field(Num(6, 48), default=22.0),
    "color": Field(Color()),
}


def _banner_build(el, env):
    x, y, (w, h) = el["x"], el["y"], el["size"]
    color = el.get("color") or env.accent
    out = [Rect(x, y, w, h, None, color, 0, 3.0),
           Rect(x + 1.2, y + 1.2, w - 2.4, h - 2.4, "#ffffff", None, 0.6, 2.2)]
    s = h * 0.62
    icons_w = len(el["icons"]) * (s + 1.5)
    for n, name in enumerate(el["icons"]):
        out.append(Icon(x + w - 3 - icons_w + n * (s + 1.5), y + (h - s) / 2, s, name))
    text_w = w - 8 - icons_w
    p = el["_path"]
    if el.get("subtitle"):
        out.append(Text(x + 5, y + 1.5, text_w, h * 0.58, env.t(el["text"], p + ".text"),
                        "sans-bold", el["font_size"], color="#ffffff", wrap=False, path=p + ".text"))
        out.append(Text(x + 5, y + h * 0.58, text_w, h * 0.36, env.t(el["subtitle"], p + ".subtitle"),
                        "condensed", 9.0, color="#ffffff", valign="top", path=p + ".subtitle"))
    else:
        out.append(Text(x + 5, y, text_w, h, env.t(el["text"], p + ".text"), "sans-bold",
                        el["font_size"], color="#ffffff", wrap=False, path=p + ".text"))
    return out


# ----------------------------------------------------------------------------- text

TEXT_FIELDS = {
    "size": Field(SIZE, required=True),
    "text": Field(Label(), required=True),
    "font": Field(FONT, default="sans"),
    "font_size": Field(Num(5.5, 48), default=8.5),
    "align": Field(Str(choices=("left", "center", "right")), default="left"),
    "valign": Field(Str(choices=("top", "middle", "bottom")), default="top"),
    "color": Field(Color(), default=INK),
    "style": Field(Str(choices=("normal", "hint")), default="normal"),
}


def _text_build(el, env):
    (w, h) = el["size"]
    p = el["_path"] + ".text"
    return [Text(el["x"], el["y"], w, h, env.t(el["text"], p, house=env.is_house(el["id"])), el["font"],
                 el["font_size"], el["align"], el["valign"], el["color"], path=p, hint=el["style"] == "hint")]


# ----------------------------------------------------------------------------- icon

ICON_FIELDS = {
    "name": Field(IconName(), required=True),
    "size": Field(Length(2, 200), required=True),
    "color": Field(Color()),
}


def _icon_build(el, env):
    return [Icon(el["x"], el["y"], el["size"], el["name"], el.get("color"))]


# ----------------------------------------------------------------------------- grid

GRID_HEADER = 6.0
GRID_VALUE = 10.0

GRID_FIELDS = {
    "rows": Field(Int(1, 30), required=True),
    "cols": Field(Int(1, 30), required=True),
    "cell": Field(Length(3, 60), default=12.0),
    "col_labels": Field(ListOf(Label())),
    "row_value": Field(Int(-999, 999)),
}


def _grid_size(el):
    w = el["cols"] * el["cell"] + (GRID_VALUE if el.get("row_value") is not None else 0)
    h = el["rows"] * el["cell"] + (GRID_HEADER if el.get("col_labels") else 0)
    return w, h


def _grid_build(el, env):
    x, y, c = el["x"], el["y"], el["cell"]
    out = []
    p = el["_path"]
    if el.get("col_labels"):
        for i, lab in enumerate(el["col_labels"][: el["cols"]]):
            out.append(Rect(x + i * c + 0.6, y + 0.4, c - 1.2, GRID_HEADER - 1.2, None, env.tint, 0, 1.2))
            out.append(Text(x + i * c, y, c, GRID_HEADER - 0.4, env.t(lab, f"{p}.col_labels[{i}]"),
                            "sans-bold", 9.0, "center", path=f"{p}.col_labels[{i}]"))
        y += GRID_HEADER
    for r in range(el["rows"]):
        for col in range(el["cols"]):
            out.append(Box(x + col * c, y + r * c, c, c, "write", field=f"{el['id']}_r{r + 1}_c{col + 1}"))
        if el.get("row_value") is not None:
            cx = x + el["cols"] * c + GRID_VALUE / 2 + 0.5
            out += _badge(cx, y + r * c + c / 2, 3.6, el["row_value"], env, p + ".row_value",
                          el["id"] + ".row_value")
    out.append(Rect(x, y, el["cols"] * c, el["rows"] * c, INK, None, 1.2))
    return out


# ----------------------------------------------------------------------------- track

SECTION = Map({
    "boxes": Field(Int(1, 40), required=True),
    "value": Field(Int(-999, 999)),
    "costs": Field(ListOf(ListOf(IconName(), 0, 4))),
    "yields": Field(ListOf(ListOf(IconName(), 0, 4))),
    "badge": Field(Label()),
    "bonus": Field(Bool(), default=False),
    "verified": Field(Bool(), default=True),
}, what="a section mapping")

TRACK_BADGE = 4.5
SECTION_GAP = 3.0


def _track_post(el, ctx, at):
    if ("boxes" in el) == ("sections" in el):
        return ctx.error(at, "give either 'boxes' or 'sections'")
    if "boxes" in el:
        el["sections"] = [{"boxes": el.pop("boxes"), "bonus": False, "verified": True}]
    total = sum(s["boxes"] for s in el["sections"])
    if el["prechecked"] > total:
        return ctx.error(at, f"prechecked: {el['prechecked']} is more than the {total} boxes")
    for n, s in enumerate(el["sections"]):
        for key in ("costs", "yields"):
            if key in s and len(s[key]) != s["boxes"]:
                return ctx.error(at, f"sections[{n}].{key}: expected one list per box ({s['boxes']}), "
                                     f"got {len(s[key])}")
    return el


TRACK_FIELDS = {
    "label": Field(Label()),
    "icon": Field(IconName()),
    "label_width": Field(Length(0, 200)),
    "box": Field(Length(3, 40), default=8.0),
    "gap": Field(Length(0, 20), default=1.2),
    "boxes": Field(Int(1, 60)),
    "sections": Field(ListOf(SECTION, 1, 40)),
    "prechecked": Field(Int(0, 60), default=0),
    "arrange": Field(Str(choices=("line", "rows")), default="line"),
    "bonus_mark": Field(Label(), default=lambda: {"fr": "±1", "en": "±1"}),
}


def _label_width(el):
    if el.get("label_width") is not None:
        return el["label_width"]
    return 30.0 if el.get("label") else (10.0 if el.get("icon") else 0.0)


def _track_size(el):
    b, g, secs = el["box"], el["gap"], el["sections"]
    lw = _label_width(el)
    has_value = any(s.get("value") is not None for s in secs)
    if el["arrange"] == "rows":
        most = max(s["boxes"] for s in secs)
        bonus = (g + 2 + b) if any(s["bonus"] for s in secs) else 0
        w = lw + most * b + (most - 1) * g + bonus + (2 + 2 * TRACK_BADGE if has_value else 0)
        return w, len(secs) * b + (len(secs) - 1) * g
    w = lw
    for n, s in enumerate(secs):
        w += s["boxes"] * b + (s["boxes"] - 1) * g
        if s.get("value") is not None:
            w += 1 + 2 * TRACK_BADGE
        if n < len(secs) - 1:
            w += SECTION_GAP
    badges = any(s.get("badge") for s in secs)
    return w, b + (4.0 if badges else 0)


def _box_marks(out, bx, by, b, icons, tinted):
    if not icons:
        return
    n = len(icons)
    s = min(b * 0.62, (b - 1.2) / n) if n > 1 else b * 0.62
    total = n * s
    for i, name in enumerate(icons):
        out.append(Icon(bx + (b - total) / 2 + i * s, by + (b - s) / 2, s, name))


def _track_build(el, env):
    x, y, b, g = el["x"], el["y"], el["box"], el["gap"]
    p, eid = el["_path"], el["id"]
    secs = el["sections"]
    lw = _label_width(el)
    w, h = _track_size(el)
    out = []
    if lw:
        lh = b if el["arrange"] == "line" else h
        ly = y + (h - b if el["arrange"] == "line" else 0)
        out += _label_block(x, ly, lw - 1.5, lh, el, env, p, icon_size=min(b, 9.0))
    n_box = 0
    if el["arrange"] == "rows":
        for r, s in enumerate(secs):
            by = y + r * (b + g)
            for i in range(s["boxes"]):
                bx = x + lw + i * (b + g)
                checked = n_box < el["prechecked"]
                n_box += 1
                out.append(Box(bx, by, b, b, "check", checked, f"{eid}_{n_box}"))
                _box_marks(out, bx, by, b, (s.get("costs") or [[]] * s["boxes"])[i], False)
            cx = x + lw + max(t["boxes"] for t in secs) * (b + g) - g
            if s["bonus"]:
                out.append(Box(cx + g + 2, by, b, b, "round", False, f"{eid}_bonus{r + 1}", stroke=env.accent))
                out.append(Text(cx + g + 2.8, by, b - 1.6, b, env.t(el["bonus_mark"], p + ".bonus_mark"),
                                "condensed", 7.0, "center", color="#6a6a6a", path=p + ".bonus_mark"))
                cx += g + 2 + b
            if s.get("value") is not None:
                out += _badge(cx + 2 + TRACK_BADGE, by + b / 2, min(TRACK_BADGE, b / 2 + 0.4), s["value"],
                              env, f"{p}.sections[{r}].value", f"{eid}.sections[{r}].value")
        return out
    cx = x + lw
    top = y + (4.0 if any(s.get("badge") for s in secs) else 0)
    for n, s in enumerate(secs):
        sw = s["boxes"] * b + (s["boxes"] - 1) * g
        if len(secs) > 1:
            out.append(Rect(cx - 0.8, top - 0.8, sw + 1.6, b + 1.6, env.accent, env.tint, 0.8, 1.5))
        if s.get("badge"):
            out.append(Text(cx, y, sw, 3.8, env.t(s["badge"], f"{p}.sections[{n}].badge"), "condensed-bold",
                            7.0, "center", color=env.accent, path=f"{p}.sections[{n}].badge"))
        for i in range(s["boxes"]):
            bx = cx + i * (b + g)
            checked = n_box < el["prechecked"]
            n_box += 1
            out.append(Box(bx, top, b, b, "check", checked, f"{eid}_{n_box}"))
            _box_marks(out, bx, top, b, (s.get("costs") or [[]] * s["boxes"])[i], False)
            _box_marks(out, bx, top, b, (s.get("yields") or [[]] * s["boxes"])[i], True)
        cx += sw
        if s.get("value") is not None:
            out += _badge(cx + 1 + TRACK_BADGE, top + b / 2, min(TRACK_BADGE, b / 2 + 0.4), s["value"],
                          env, f"{p}.sections[{n}].value", f"{eid}.sections[{n}].value")
            cx += 1 + 2 * TRACK_BADGE
        cx += SECTION_GAP
    return out


# ----------------------------------------------------------------------------- number boxes

NB_ITEM = Map({
    "id": Field(IdStr(), required=True),
    "label": Field(Label(), required=True),
    "icon": Field(IconName()),
    "op": Field(Str(choices=("", "+", "-", "×", "=")), default=""),
    "total": Field(Bool(), default=False),
}, what="a box mapping")

NB_OP = 6.0
NB_LABEL = 7.0

NUMBER_BOXES_FIELDS = {
    "boxes": Field(ListOf(NB_ITEM, 1, 30), required=True),
    "box": Field(SIZE, default=(16.0, 11.0)),
    "arrange": Field(Str(choices=("row", "column")), default="row"),
    "label_width": Field(Length(0, 200), default=35.0),
    "gap": Field(Length(0, 20), default=1.5),
}


def _nb_size(el):
    (bw, bh), n = el["box"], len(el["boxes"])
    if el["arrange"] == "row":
        return n * bw + (n - 1) * NB_OP, bh + NB_LABEL
    return el["label_width"] + NB_OP + bw, n * bh + (n - 1) * el["gap"]


def _nb_build(el, env):
    x, y, (bw, bh) = el["x"], el["y"], el["box"]
    out = []
    for n, item in enumerate(el["boxes"]):
        p = f"{el['_path']}.boxes[{n}]"
        if el["arrange"] == "row":
            bx, by = x + n * (bw + NB_OP), y
            if item["op"] and n:
                out.append(Text(bx - NB_OP, by, NB_OP, bh, item["op"], "sans-bold", 12, "center", path=p))
            lx, ly, lw, lh = bx - 1, by + bh + 0.5, bw + 2, NB_LABEL - 0.5
            if not _label_fits(item, env, p, lw, lh, 7.0, 4.5):
                # spread under half of the gaps beside the box (the op signs sit higher)
                left = NB_OP / 2 - 0.5 if n else 1.0
                right = NB_OP / 2 - 0.5 if n < len(el["boxes"]) - 1 else 1.0
                lx, lw = bx - left, bw + left + right
            out += _label_block(lx, ly, lw, lh, item, env, p, size=7.0, icon_size=4.5)
        else:
            bx, by = x + el["label_width"] + NB_OP, y + n * (bh + el["gap"])
            out += _label_block(x, by, el["label_width"] - 1, bh, item, env, p, size=8.0, icon_size=min(bh - 2, 7))
            if item["op"]:
                out.append(Text(bx - NB_OP, by, NB_OP, bh, item["op"], "sans-bold", 12, "center", path=p))
        out.append(Box(bx, by, bw, bh, "write", False, item["id"], fill=env.tint if item["total"] else "#ffffff"))
        if item["total"]:
            out.append(Rect(bx, by, bw, bh, INK, None, 1.6))
    return out


# ----------------------------------------------------------------------------- table

TABLE_COLUMN = Map({"label": Field(Label(), default=None), "width": Field(Length(3, 300), required=True),
                    "icon": Field(IconName())}, what="a column mapping")

TABLE_FIELDS = {
    "columns": Field(ListOf(TABLE_COLUMN, 1, 30), required=True),
    "rows": Field(Int(1, 60), required=True),
    "row_labels": Field(ListOf(Label())),
    "row_height": Field(Length(3, 60), default=8.0),
    "header_height": Field(Length(3, 30), default=7.0),
}


def _table_size(el):
    return sum(c["width"] for c in el["columns"]), el["header_height"] + el["rows"] * el["row_height"]


def _table_build(el, env):
    x, y, rh, hh = el["x"], el["y"], el["row_height"], el["header_height"]
    w, h = _table_size(el)
    p = el["_path"]
    out = [Rect(x, y, w, hh, None, env.tint, 0)]
    labels = el.get("row_labels") or []
    cx = x
    for c, col in enumerate(el["columns"]):
        cw = col["width"]
        tx = cx + 1
        if col.get("icon"):
            out.append(Icon(cx + 1, y + 1, hh - 2, col["icon"]))
            tx += hh - 1
        if col.get("label"):
            out.append(Text(tx, y, cx + cw - tx - 0.5, hh, env.t(col["label"], f"{p}.columns[{c}].label"),
                            "condensed-bold", 7.5, "center", path=f"{p}.columns[{c}].label"))
        for r in range(el["rows"]):
            ry = y + hh + r * rh
            if c == 0 and labels:
                out.append(Rect(cx, ry, cw, rh, INK, env.tint, 0.5))  # under its label
                if r < len(labels):
                    out.append(Text(cx, ry, cw, rh, env.t(labels[r], f"{p}.row_labels[{r}]"), "sans-bold", 8.5,
                                    "center", path=f"{p}.row_labels[{r}]"))
            else:
                out.append(Box(cx, ry, cw, rh, "write", False, f"{el['id']}_r{r + 1}_c{c + 1}"))
        cx += cw
    out.append(Rect(x, y, w, h, INK, None, 1.2))
    return out


# ----------------------------------------------------------------------------- score table

ST_ROW = Map({
    "id": Field(IdStr(), required=True),
    "label": Field(Label(), default=None),
    "icon": Field(IconName()),
    "hint": Field(Label()),
    "height": Field(Length(4, 80), default=10.0),
    "kind": Field(Str(choices=("write", "names", "total", "winner", "grid", "heading")), default="write"),
    "grid": Field(Pair(IntRef(1, 12), "[columns, rows]")),
    # grid rows: `wide` spreads the copies over the label column too when the player
    # columns are too narrow for cells of 5 mm (the label on a strip above, each
    # player's copy numbered like the names row's `numbered` cells); `col_labels` are
    # printed under each copy's columns; `from_bottom` numbers the cells' rows from the
    # bottom (r1 the lowest, as a board counts them)
    "wide": Field(Bool(), default=False),
    "col_labels": Field(ListOf(Label())),
    "from_bottom": Field(Bool(), default=False),
    "numbered": Field(Bool(), default=False),  # names rows: each player's number in a corner
    "count": Field(Label()),  # a small box, captioned so, before the points in each cell (leaves, tokens...)
    "verified": Field(Bool(), default=True),
}, what="a row mapping")


def _st_post(el, ctx, at):
    for n, row in enumerate(el["rows"]):
        if row["kind"] == "grid" and "grid" not in row:
            return ctx.error(at, f"rows[{n}]: a 'grid' row needs grid: [columns, rows]")
        if row.get("count") and row["kind"] != "write":
            return ctx.error(at, f"rows[{n}]: 'count' goes on write rows only")
        for key in ("wide", "col_labels", "from_bottom"):
            if row.get(key) and row["kind"] != "grid":
                return ctx.error(at, f"rows[{n}]: '{key}' goes on grid rows only")
        if row["numbered"] and row["kind"] != "names":
            return ctx.error(at, f"rows[{n}]: 'numbered' goes on names rows only")
    return el


SCORE_TABLE_FIELDS = {
    "width": Field(Length(20, 300), required=True),
    "label_width": Field(Length(10, 200), default=50.0),
    "rows": Field(ListOf(ST_ROW, 1, 60), required=True),
}


def _st_size(el):
    return el["width"], sum(r["height"] for r in el["rows"])


ST_STRIP = 6.0     # a wide row's strip for its label and hint
ST_BADGE = 2.2     # radius of a player's number badge
ST_COL_LABEL = 3.4  # height of the labels under a grid's columns
ST_MAX_CELL = 7.0
ST_MIN_CELL = 5.0  # a wide grid row spreads its copies over the whole table below this cell size


def _st_cell(row, cw) -> float:
    """The cell size of a grid row's copy in a player column `cw` wide."""
    cols, rows = row["grid"]
    labels = ST_COL_LABEL if row.get("col_labels") else 0.0
    return min((cw - 2) / cols, (row["height"] - 2 - labels) / rows)


def _st_grid(gx, gy, cell, row, fname, env, p) -> list:
    """One player's copy of a board: mini boxes, then the column labels under them."""
    cols, rows = row["grid"]
    out = []
    for gr in range(rows):
        r = rows - gr if row["from_bottom"] else gr + 1
        for gc in range(cols):
            out.append(Box(gx + gc * cell, gy + gr * cell, cell, cell, "mini", False, f"{fname}_r{r}_c{gc + 1}"))
    for c, lab in enumerate((row.get("col_labels") or [])[:cols]):
        out.append(Text(gx + c * cell, gy + rows * cell, cell, ST_COL_LABEL, env.t(lab, f"{p}.col_labels[{c}]"),
                        "sans-bold", 7.0, "center", color="#444444", path=f"{p}.col_labels[{c}]"))
    return out


def _st_wide_grid(x, ry, width, row, n, env, p, house=False) -> list:
    """A grid row across the whole table: its label (marked when `house`, an unverified
    row) and hint on a strip, then one numbered copy per player, side by side (wider cells
    than the player columns allow)."""
    h = row["height"]
    cols, rows = row["grid"]
    lw = min(width * 0.3, 46.0)
    out = [Rect(x, ry, width, h, INK, "#ffffff", 0.5), Rect(x, ry, width, ST_STRIP, INK, env.tint, 0.5)]
    ix = x + 1.5
    if row.get("icon"):
        out.append(Icon(ix, ry + 0.75, ST_STRIP - 1.5, row["icon"]))
        ix += ST_STRIP
    if row.get("label"):
        out.append(Text(ix, ry, x + lw - ix, ST_STRIP, env.t(row["label"], p + ".label", house), "condensed-bold", 8.5,
                        path=p + ".label"))
    if row.get("hint"):
        out.append(Text(x + lw, ry, width - lw - 1.5, ST_STRIP, env.t(row["hint"], p + ".hint"), "condensed", 7.5,
                        color="#444444", path=p + ".hint"))
    sw = width / n
    labels = ST_COL_LABEL if row.get("col_labels") else 0.0
    top = ry + ST_STRIP + 2 * ST_BADGE + 1.0
    cell = min(ST_MAX_CELL, (sw - 2) / cols, (ry + h - top - labels - 1.0) / rows)
    for i in range(n):
        sx = x + i * sw
        if i:
            out.append(Rect(sx, ry + ST_STRIP, 0, h - ST_STRIP, INK, None, 0.5))
        gx = sx + (sw - cell * cols) / 2
        out += _badge(gx + ST_BADGE, ry + ST_STRIP + ST_BADGE + 0.5, ST_BADGE, i + 1, env, p, "", env.tint)
        out += _st_grid(gx, top, cell, row, f"{row['id']}_p{i + 1}", env, p)
    return out


def _st_build(el, env):
    x, y = el["x"], el["y"]
    lw = el["label_width"]
    n = max(env.players, 1)
    cw = (el["width"] - lw) / n
    out = []
    ry = y
    for r, row in enumerate(el["rows"]):
        h = row["height"]
        p = f"{el['_path']}.rows[{r}]"
        kind = row["kind"]
        fill = env.tint if kind in ("total", "names", "heading") else None
        if kind == "heading":
            out.append(Rect(x, ry, el["width"], h, INK, env.accent, 0.5))
            out += [Text(x + 2, ry, el["width"] - 4, h, env.t(row["label"], p + ".label"), "sans-bold", 9,
                         color="#ffffff", path=p + ".label")] if row.get("label") else []
            ry += h
            continue
        if row.get("wide") and _st_cell(row, cw) < ST_MIN_CELL - 1e-9:
            out += _st_wide_grid(x, ry, el["width"], row, n, env, p, env.is_house(f"{el['id']}.rows[{r}]"))
            ry += h
            continue
        out.append(Rect(x, ry, lw, h, INK, fill or "#ffffff", 0.5))
        ix = x + 1.5
        if row.get("icon"):
            s = min(h - 2, 8.0)
            out.append(Icon(ix, ry + (h - s) / 2, s, row["icon"]))
            ix += s + 1.5
        label_h = h if not row.get("hint") else min(h * 0.5, 4.6)
        if row.get("label"):
            house = env.is_house(f"{el['id']}.rows[{r}]")
            out.append(Text(ix, ry + (0.5 if row.get("hint") else 0), x + lw - ix - 1, label_h,
                            env.t(row["label"], p + ".label", house), "condensed-bold", 8.5, path=p + ".label"))
        if row.get("hint"):
            out.append(Text(ix, ry + label_h, x + lw - ix - 1, h - label_h - 0.5, env.t(row["hint"], p + ".hint"),
                            "condensed", 7.0, valign="top", color="#444444", path=p + ".hint"))
        for i in range(n):
            bx = x + lw + i * cw
            fname = f"{row['id']}_p{i + 1}"
            if kind == "grid":
                cols, rows = row["grid"]
                labels = ST_COL_LABEL if row.get("col_labels") else 0.0
                cell = _st_cell(row, cw)
                gx, gy = bx + (cw - cell * cols) / 2, ry + (h - cell * rows - labels) / 2
                out.append(Rect(bx, ry, cw, h, INK, "#ffffff", 0.5))
                out += _st_grid(gx, gy, cell, row, fname, env, p)
            elif kind == "winner":
                out.append(Rect(bx, ry, cw, h, INK, "#ffffff", 0.5))
                s = min(h - 2, 8.0)
                out.append(Box(bx + (cw - s) / 2, ry + (h - s) / 2, s, s, "check", False, fname))
            else:
                pw = cw
                if row.get("count"):  # the count the points come from, in a small tinted box
                    sw = min(cw * 0.4, 14.0)
                    out.append(Box(bx, ry, sw, h, "write", False, fname + "_count", fill=env.tint))
                    out.append(Text(bx + 0.5, ry + 0.4, sw - 1.0, 2.4, env.t(row["count"], p + ".count"),
                                    "condensed", 5.6, "center", "top", "#666666", path=p + ".count", hint=True))
                    bx, pw = bx + sw, cw - sw
                out.append(Box(bx, ry, pw, h, "write", False, fname, fill=fill or "#ffffff"))
                if row["numbered"]:
                    out += _badge(bx + ST_BADGE + 0.8, ry + ST_BADGE + 0.8, ST_BADGE, i + 1, env, p, "", env.tint)
        if kind == "total":
            out.append(Rect(x, ry, el["width"], h, INK, None, 1.6))
        ry += h
    out.append(Rect(x, y, el["width"], ry - y, INK, None, 1.2))
    return out


# ----------------------------------------------------------------------------- registry

TYPES: dict[str, ElementType] = {}


def register(t: ElementType) -> ElementType:
    TYPES[t.name] = t
    return t


register(ElementType("frame", FRAME_FIELDS, lambda el: el["size"], _frame_build, container=True,
                     doc="a bordered zone with an optional header title and icon"))
register(ElementType("banner", BANNER_FIELDS, lambda el: el["size"], _banner_build,
                     doc="the title banner"))
register(ElementType("text", TEXT_FIELDS, lambda el: el["size"], _text_build,
                     doc="a block of wrapped text (rules reminders)"))
register(ElementType("icon", ICON_FIELDS, lambda el: (el["size"], el["size"]), _icon_build,
                     doc="one of the built-in icons"))
register(ElementType("grid", GRID_FIELDS, _grid_size, _grid_build,
                     doc="rows x columns of cells to draw in, with column labels and a row value"))
register(ElementType("track", TRACK_FIELDS, _track_size, _track_build,
                     doc="check boxes in sections, each section with an optional printed value"))
register(ElementType("number_boxes", NUMBER_BOXES_FIELDS, _nb_size, _nb_build,
                     doc="labelled boxes to write numbers in (score areas)"))
register(ElementType("table", TABLE_FIELDS, _table_size, _table_build,
                     doc="a table of write-in cells with column headers and row labels"))
register(ElementType("score_table", SCORE_TABLE_FIELDS, _st_size, _st_build,
                     doc="a score pad: one row per category, one column per player"))

COMMON_FIELDS = {
    "id": Field(IdStr(), required=True),
    "type": Field(Str(), required=True),
    "at": Field(POINT, required=True),
    "in": Field(IdStr()),
    "verified": Field(Bool(), default=True),
    "remove": Field(Bool()),
}


def element_spec(type_name: str) -> Map:
    t = TYPES[type_name]
    post = t.post or {"track": _track_post, "score_table": _st_post}.get(type_name)
    return Map({**COMMON_FIELDS, **t.fields}, what="an element mapping", post=post)


_SPECS: dict[str, Map] = {}


def check_element(value, ctx: Ctx, at: Where):
    """Validate one element mapping, dispatching on its `type`."""
    if not isinstance(value, dict):
        return ctx.error(at, f"expected an element mapping, got {describe(value)}")
    if value.get("remove") is True:  # before the type: a removal names no type
        return ctx.error(at.child(value, "remove"), f"no element '{value.get('id')}' in the parents to remove")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        where = at.child(value, "type") if "type" in value else at
        return ctx.error(where, f"unknown element type {describe(kind)}; types: {', '.join(sorted(TYPES))}"
                         if "type" in value else "missing key 'type'")
    spec = _SPECS.get(kind) or _SPECS.setdefault(kind, element_spec(kind))
    return spec.check(value, ctx, at)


from sheetgen.layout import buildings, tally  # noqa: E402,F401
