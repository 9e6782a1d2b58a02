"""What every element type shares: the label and icon specs, the keys common to all
elements, the building environment (`Env`: language, constants, theme, player count),
`ElementType`, the drawing helpers several types use, and the label checks.

Every element has `id` (unique in the layout), `type`, `at: [x, y]` (top-left,
from the sheet's top-left corner, or from the inside of the frame named by
`in:`) and optionally `verified: false`. Each type (one module of this package)
adds its own keys. Adding a type means adding one module with its `TYPE` and
listing it in `sheetgen.layout.elements.TYPES`; validation, rendering and the
docs' key lists follow from it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable

from sheetgen.errors import LayoutError, Problem
from sheetgen.layout.display import HOUSE_MARK, MIN_TEXT, Circle, Icon, Text
from sheetgen.schema import INVALID, Bool, Field, Int, Length, ListOf, Map, Pair, Spec, Str, describe
from sheetgen.text import typeset
from sheetgen.values import field, valueclass

ID_PATTERN = r"[a-z][a-z0-9_-]*"
IdStr = lambda: Str(ID_PATTERN, what="an id (lower case letters, digits, - and _)")  # noqa: E731
LANGS = ("fr", "en")
_HAS_LETTER = re.compile(r"[^\W\d_]")


def _printable(value):
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


MAX_LABEL = 2000  # characters: more cannot fit a sheet, and would only slow the fit check


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
        return (
            f"right-to-left text ({ch!r}, U+{ord(ch):04X}) is not supported: the sheet would print "
            "it reversed and unshaped; write the label in French and English"
        )
    return None


class Label(Spec):
    """Text shown to players: {fr: ..., en: ...}; a plain string only without letters."""

    def check(self, value, ctx, at):
        for text in value.values() if isinstance(value, dict) else [value]:
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
                return ctx.error(
                    at, f"unknown constant '{value}'; whole-number constants: {', '.join(sorted(constants)) or 'none'}"
                )
            value = got
        return super().check(value, ctx, at)


POINT = Pair(Length(-1000, 1000), "a position [x, y]")
SIZE = Pair(Length(0.5, 1000), "a size [width, height]")
FONT = Str(choices=("sans", "sans-bold", "condensed", "condensed-bold"))


class OneOrMany(Spec):
    """One value of `item`, or a list of `lo` to `hi` of them: always checked into a list.
    `wrong(n)` says what is wrong with a list of n items."""

    def __init__(self, item: Spec, lo: int, hi: int | None, wrong: Callable[[int], str]):
        self.item, self.lo, self.hi, self.wrong = item, lo, hi, wrong

    def check(self, value, ctx, at):
        items = value if isinstance(value, list) else [value]
        if not self.lo <= len(items) <= (self.hi if self.hi is not None else len(items)):
            return ctx.error(at, self.wrong(len(items)))
        out = []
        for n, item in enumerate(items):
            got = self.item.check(item, ctx, at.child(value, n) if isinstance(value, list) else at)
            if got is INVALID:
                return INVALID
            out.append(got)
        return out


def IdOrIds() -> OneOrMany:  # noqa: N802 (a spec, named like the others)
    """An element id, or a non-empty list of them (`below: [pig_frame, market_frame]`)."""
    return OneOrMany(IdStr(), 1, None, lambda n: "expected an element id or a list of them, got an empty list")


# the house space between two zones placed one after the other (below:, right_of:)
FLOW_SPACE = 3.0

COMMON_FIELDS = {
    "id": Field(IdStr(), required=True),
    "type": Field(Str(), required=True),
    # required unless `below` or `right_of` places the element (then an offset, default [0, 0])
    "at": Field(POINT),
    "in": Field(IdStr()),
    "below": Field(IdOrIds()),
    "right_of": Field(IdStr()),
    "space": Field(Length(-100, 1000), default=FLOW_SPACE),
    "verified": Field(Bool(), default=True),
    "remove": Field(Bool()),
}


def _parts(text: str) -> list[tuple[str, str | None]]:
    """(literal text, placeholder name or None) pieces of a label's text; ValueError
    when its braces do not parse."""
    if "{" not in text and "}" not in text:
        return [(text, None)]
    return [(literal, name) for literal, name, _spec, _conv in string.Formatter().parse(text)]


def placeholders(text: str) -> list[str]:
    """The `{names}` a label's text reads (none when its braces do not parse)."""
    try:
        return [name for _literal, name in _parts(text) if name is not None]
    except ValueError:
        return []


@valueclass(frozen=False)
class Env:
    """What building a display list needs besides the element."""

    lang: str
    constants: dict
    theme: dict
    players: int = 1
    elements: dict = field(default_factory=dict)
    unverified: frozenset = frozenset()  # Layout.unverified: `constants.x`, `pig`, `walls.sections[0]`
    marks: list = field(default_factory=list)  # key paths of the house values printed so far
    smallest_text: float = MIN_TEXT  # pt: the layout's `smallest_text` (display.raise_text)

    def t(self, label: dict | None, path: str = "", house: bool = False) -> str:
        """A label in this language, with `{name}` placeholders filled in and set as the
        language's typography wants it (sheetgen.text.typeset); with the house mark after
        it when the label says `house: true` or `house` is true."""
        if label is None:
            return ""
        text = typeset(self._fill(label[self.lang], path), self.lang)
        return self.mark(text, path) if house or label.get("house") else text

    def plain(self, label: dict | None) -> str:
        """A label as t() prints it, for a tooltip: without the house mark, and not counted
        as a house value printed (a tooltip gives the page no house note)."""
        kept = list(self.marks)
        try:
            return self.t(label).replace(HOUSE_MARK, "")
        finally:
            self.marks[:] = kept

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

    def problems(self, label: dict | None, path: str = "") -> list[tuple[str, str]]:
        """(path, message) for each `{placeholder}` of the label, in this language, that
        names nothing (t shows it as `?`), or for braces that do not parse."""
        if label is None:
            return []
        try:
            parts = _parts(label[self.lang])
        except ValueError as exc:
            return [(path, f"bad braces in text: {exc}")]
        known = ", ".join(sorted(self.constants)) or "none"
        return [
            (
                path,
                f"unknown constant '{{{name}}}' in text; constants: {known} "
                f"(or an element key path like garden.row_value)",
            )
            for _literal, name in parts
            if name is not None and self.lookup(name) is None
        ]

    def _fill(self, text: str, path: str) -> str:
        try:
            parts = _parts(text)
        except ValueError:
            return text
        out = []
        for literal, name in parts:
            out.append(literal)
            if name is not None:
                found = self.lookup(name)
                if found is None:
                    out.append("?")
                    continue
                head = re.match(r"[^.\[]*", name).group()
                in_element = name not in self.constants and head in self.elements
                ref = name if in_element else "constants." + name
                out.append(self.value(found, ref, path))
        return "".join(out)

    def lookup(self, name: str):
        """`{name}` in a label: a constant, an item of a list constant (`row_values[0]`), or a
        key path into an element (`garden.row_value`); None when it names nothing."""
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
        return None

    @property
    def accent(self):
        return self.theme["accent"]

    @property
    def tint(self):
        return self.theme["tint"]


def _no_cells(el: dict) -> list:
    return []


@valueclass(frozen=False)
class ElementType:
    """An element type, and every fact about it that the rest of sheetgen asks: its keys, its
    size, its display list, how its marks read, and what it is (ticked, markable, a frame...).
    Each type's module sets them; code elsewhere asks the type, never a list of type names."""

    name: str
    fields: dict[str, Field]
    size: Callable[[dict], tuple[float, float]]
    build: Callable[[dict, Env], list]
    container: bool = False  # other elements may sit inside it (`in:`)
    doc: str = ""
    post: Callable | None = None  # (element, ctx, at) -> element or INVALID, after the keys are checked
    # (element, {field: value}, warnings) -> marks: a filled sheet's marks (pdfread, scan), read
    # with the same field-naming functions the builder uses
    read: Callable | None = None
    # (element, env) -> [(key path, message)]: what makes the placed element impossible to
    # draw as written (in env's language, with env's players); the build assumes none
    check: Callable | None = None
    # its boxes stand in player columns (player_field): one sheet for the whole table (a pad)
    player_columns: bool = False
    # players tick its boxes (or fill a board's cells) rather than write numbers in them: a
    # scorer that does not read it leaves its marks counting for nothing (`validate` says so)
    ticked: bool = False
    # it prints boxes players mark: `sheetgen new` shows the keys that size and value them
    # (rows, boxes, sections...), the ones a variant changes most
    markable: bool = False
    # it names the sheet (the title banner): `sheetgen new` shows its labels
    names_sheet: bool = False
    # (element) -> the fields of its boxes that are a board's cells, each holding one thing
    # drawn in it (a vegetable), not a number: a screen offers the game's `cell_choices` for
    # them, a photo tells what one holds by the ink's colour
    cells: Callable[[dict], list] = _no_cells
    # (element, its display list) -> (x, y, w, h) of what it prints when that is less than its
    # place (a text's lines as fitted), else None: the house note may sit in the rest
    covers: Callable | None = None
    # the key that sets the size of its text (a text's `font_size`): a text too small is
    # blamed there when the element gives it
    size_key: str | None = None
    # its lists whose items may say `verified: false` (a track's sections, a score table's rows)
    verified_items: tuple = ()
    # the key of its list of boxes whose ids are field names of their own (number_boxes'
    # boxes): unique among the layout's element ids and the other such boxes' ids
    box_ids: str | None = None
    # the key of its list of rows whose ids are unique within it (a score table's rows)
    row_ids: str | None = None


# ----------------------------------------------------------------------------- field names

# A markable box's field name is made by one of these, in the element module that draws
# it and in the same module's `read`: the names are written once, never re-derived.


def box_field(eid: str, n: int) -> str:
    """The n-th box (1-based) of a track or a building card."""
    return f"{eid}_{n}"


def cell_field(prefix: str, r: int, c: int) -> str:
    """Cell (row r, column c; 1-based) of a grid or a table; `prefix` is the element id
    (or a score table's row and player, see player_field)."""
    return f"{prefix}_r{r}_c{c}"


def player_field(rid: str, i: int) -> str:
    """Player column i (1-based) of a score table's row, or of a tally."""
    return f"{rid}_p{i}"


_PLAYER_PART = re.compile(r"_p([1-9][0-9]?)(?=_|$)")


def field_player(field: str) -> int | None:
    """The player column (1-based) of a box of an element with player columns: the last
    `_p<i>` part of its name (player_field's; what follows it, `_count`, `_r1_c2`, `_name`,
    `_3`, never looks like one); None when the name has none."""
    found = _PLAYER_PART.findall(field)
    return int(found[-1]) if found else None


def _spans(numbers: list[int]) -> str:
    """[1, 2, 3, 7] -> '1-3 and 7'."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = [f"{a}-{b}" if a != b else str(a) for a, b in runs]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def read_checked(eid: str, boxes: int, pre: int, values: dict, warnings: list | None, in_order: bool = True) -> int:
    """Boxes checked (the `pre` pre-printed ones included). Boxes checked `in_order` are
    checked from the left: a gap is read as the first boxes, with a warning; otherwise
    (boxes the rules let a player check in any order) only how many counts."""
    checked = [n for n in range(pre + 1, boxes + 1) if values.get(box_field(eid, n)) is True]
    n = pre + len(checked)
    if in_order and warnings is not None and checked and checked[-1] != n:
        first = "the first box" if n == 1 else f"the first {n} boxes"
        warnings.append(f"{eid}: boxes {_spans(checked)} are checked, with a gap; read as {first}")
    return n


# ----------------------------------------------------------------------------- tooltips

# the words of a box's tooltip (display.Box.tip), in the sheet's language
WORDS = {
    "row": {"fr": "ligne", "en": "row"},
    "column": {"fr": "colonne", "en": "column"},
    "box": {"fr": "case", "en": "box"},
    "player": {"fr": "joueur·euse", "en": "player"},
    "name": {"fr": "nom", "en": "name"},
    "bonus": {"fr": "bonus", "en": "bonus"},
    "colony": {"fr": "colonie", "en": "colony"},
    "colour": {"fr": "couleur", "en": "colour"},
    "points": {"fr": "points", "en": "points"},
    "total": {"fr": "total", "en": "total"},
}


def word(env, key: str, n: int | None = None) -> str:
    """A tooltip word in env's language, with a number after it when given ("row 2")."""
    text = WORDS[key][env.lang]
    return text if n is None else f"{text} {n}"


def title_of(el: dict, env) -> str:
    """What a box's tooltip calls its element: the element's label, else the title of the
    frame it sits in (the pig track: "Pig"), else its id."""
    for key in ("label", "name"):
        if isinstance(el.get(key), dict):
            return env.plain(el[key])
    frame = env.elements.get(el.get("in") or "")
    if frame is not None and frame.get("title"):
        return env.plain(frame["title"])
    return el["id"]


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
        out.append(
            Text(
                tx,
                y,
                max(x + w - tx, 1),
                h,
                env.t(el["label"], path + ".label"),
                "condensed-bold" if bold else "condensed",
                size,
                path=path + ".label",
            )
        )
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


BADGE_SIZE = 9.0  # pt: a value in a circle
# how far a line of figures is set below the middle of its em square, so that the figures'
# ink (from 0.05 to 0.76 of the size under its top) sits in the middle of a circle
OPTICAL_DROP = 0.095


def _badge(cx, cy, r, value, env, path, ref, fill=None):
    """A value in a circle, its figures in the circle's middle; `ref` is the value's key
    path (marked when unverified)."""
    size = max(BADGE_SIZE, env.smallest_text)
    drop = OPTICAL_DROP * size * 25.4 / 72
    return [
        Circle(cx, cy, r, env.accent, fill or "#ffffff", 1.0),
        Text(
            cx - r,
            cy - r + drop,
            2 * r,
            2 * r,
            env.value(value, ref, path),
            "sans-bold",
            BADGE_SIZE,
            "center",
            path=path,
        ),  # fmt: skip
    ]


def _box_marks(out, bx, by, b, icons, tinted):
    if not icons:
        return
    n = len(icons)
    s = min(b * 0.62, (b - 1.2) / n) if n > 1 else b * 0.62
    total = n * s
    for i, name in enumerate(icons):
        out.append(Icon(bx + (b - total) / 2 + i * s, by + (b - s) / 2, s, name))


# ----------------------------------------------------------------------------- checks


def labels(spec, value, path: str):
    """(key path, label) of every label in a checked value of `spec` (an element's
    fields: a Map's, or {name: Field}), in the order of the spec's keys."""
    if isinstance(spec, Label):
        if value is not None:
            yield path, value
    elif isinstance(spec, ListOf):
        for n, item in enumerate(value or []):
            yield from labels(spec.item, item, f"{path}[{n}]")
    elif isinstance(spec, (Map, dict)) and isinstance(value, dict):
        for name, fld in (spec.fields if isinstance(spec, Map) else spec).items():
            if name in value:
                yield from labels(fld.spec, value[name], f"{path}.{name}")


def label_problems(fields: dict, el: dict, env: Env) -> list[tuple[str, str]]:
    """The placeholder problems of every label of an element, in env's language."""
    return [problem for path, label in labels(fields, el, el["_path"]) for problem in env.problems(label, path)]


def line_of_path(node, subpath: str) -> tuple[str, int]:
    """Best (file, line) for `subpath` (like `label` or `sections[2].value`) under a raw node."""
    file, line = getattr(node, "file", "<string>"), getattr(node, "line", 0)
    cur = node
    for part in subpath.replace("]", "").replace("[", ".").split("."):
        if not part:
            continue
        key = int(part) if part.isdigit() else part
        try:
            nxt = cur[key]
        except (KeyError, IndexError, TypeError):
            break
        if hasattr(cur, "line_of"):
            file, line = cur.file_of(key), cur.line_of(key)
        cur = nxt
    return file, line


def problem_at(el: dict, subpath: str, message: str) -> Problem:
    """A problem of a placed element at the key path `subpath` (the element's own path
    followed by keys, or anything else for the element itself), with its file and line."""
    rel = subpath[len(el["_path"]) :].lstrip(".") if subpath.startswith(el["_path"]) else ""
    file, line = line_of_path(el["_node"], rel)
    path = el["_path"] + ("." + rel if rel and not rel.startswith("[") else rel)
    return Problem(message, file, line, path)


def cannot_build(el: dict, problems: list[tuple[str, str]]) -> LayoutError:
    """What a builder raises when it meets what its type's check refuses (a layout that
    was not checked, or a player count it was not checked for)."""
    return LayoutError([problem_at(el, path, message) for path, message in problems])
