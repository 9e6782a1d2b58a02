"""Load a layout: resolve `extends`, validate every key, place the elements and
check the page (inside the sheet, no overlaps, text that fits, glyphs the font
has, boxes big enough for a pencil). All problems are collected, then raised
once as a LayoutError.
"""

from __future__ import annotations

import re
from pathlib import Path

from sheetgen.errors import LayoutError, Problem
from sheetgen.layout import elements as E
from sheetgen.layout import scanmarks
from sheetgen.layout.display import HOUSE_MARK, MIN_HINT, MIN_TEXT, Box, Document, PageDisplay, Text, dropout
from sheetgen.layout.resolve import builtin_ids, is_builtin_ref, load_layout_file, locate, resolve
from sheetgen.paper import MAX_SHEET
from sheetgen.schema import (
    INVALID,
    Any_,
    Bool,
    Color,
    Ctx,
    Field,
    Length,
    ListOf,
    Map,
    Num,
    Spec,
    Str,
    Where,
    describe,
    did_you_mean,
)
from sheetgen.srctree import tree_hash
from sheetgen.values import field, valueclass

MIN_BOX = 7.0  # mm: a box a pencil can mark
MIN_MINI_BOX = 3.5  # mm: cells of a small copy of a board (dots, not numbers)


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
MAX_OVERLAPS = 20  # overlap errors reported per page, the rest counted


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


# what the house mark means, said for the players at the table
HOUSE_NOTE = {
    "fr": f"{HOUSE_MARK} valeur maison\u00a0: la règle ne la fixe pas",
    "en": f"{HOUSE_MARK} house value: the rules leave it open",
}
NOTE_SIZE = 7.5  # pt: the house note's font size (pdfminer measures 7.0 as 6.999999999999993 at places)
NOTE_H = 3.2  # mm: the height of its line
NOTE_FONT = "condensed"
NOTE_COLOR = "#555555"
NOTE_PAD = 1.1  # mm: the least room between the house note and anything else (its text 1 mm from any line)

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


class Constants(dict):
    """The layout's constants; reading one the layout lacks is a LayoutError."""

    source = "<layout>"

    def __missing__(self, name):
        raise LayoutError(Problem(f"the layout has no constant '{name}', which the scorer reads", self.source))


@valueclass(frozen=False)
class Page:
    id: str
    title: dict
    elements: list
    house_note: dict | None = None  # the page's own house note, else the layout's
    house_note_in: str | None = None  # the frame the page's house note goes in, else the layout's


@valueclass(frozen=False)
class Layout:
    id: str
    game: str
    title: dict
    description: dict | None
    width: float
    height: float
    players: dict
    theme: dict
    constants: dict  # name -> value
    unverified: list  # key paths of values marked verified: false
    pages: list
    source: str
    by_id: dict = field(default_factory=dict)
    origin: dict = field(default_factory=dict)  # top-level key -> (file, line)
    house_note: dict = field(default_factory=lambda: dict(HOUSE_NOTE))
    house_note_in: str | None = None  # the frame the house note goes in (on a page that has it)
    house: list = field(default_factory=list)  # key paths of the labels marked `house: true`
    digest: str = ""  # tree_hash of the resolved layout tree (what a kept game was scored with)
    # the resolved tree, with the file and line of every key (for `sheetgen show`)
    tree: dict = field(default_factory=dict, repr=False, compare=False)
    scan_marks: bool = False  # its sheets carry the marks `sheetgen scan` reads (layout.scanmarks)
    smallest_text: float = MIN_TEXT  # pt: no text printed smaller (display.raise_text)

    def element(self, eid: str) -> dict:
        try:
            return self.by_id[eid]
        except KeyError:
            raise LayoutError(
                Problem(f"layout '{self.id}' has no element '{eid}', which the {self.game} scorer reads", self.source)
            ) from None

    def has(self, eid: str) -> bool:
        return eid in self.by_id

    def page(self, pid: str) -> Page:
        for p in self.pages:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def env(self, lang: str, players: int | None = None) -> E.Env:
        return E.Env(
            lang,
            self.constants,
            self.theme,
            players or self.players["default"],
            elements=self.by_id,
            unverified=frozenset(self.unverified),
            smallest_text=self.smallest_text,
        )

    def display(self, page: Page, lang: str, players: int | None = None) -> list:
        """The page's display list; when it prints a house value (marked), the house note
        goes in the lowest free place of the sheet (see house_note_prims). Icons printed
        inside tick boxes are tinted (display.dropout)."""
        return dropout(self.build(page, lang, players)[0])

    def document(
        self, lang: str = "en", players: int | None = None, pages: list[str] | None = None, scan_marks: bool = True
    ) -> Document:
        """The display lists of the pages asked for (all by default): what every
        backend (PDF, form fields, reading filled PDFs) consumes. A scannable layout's
        pages carry their scan marks unless `scan_marks` is False."""
        chosen = [p for p in self.pages if pages is None or p.id in pages]
        return Document(
            title=self.title[lang],
            layout_id=self.id,
            game=self.game,
            lang=lang,
            pages=tuple(
                PageDisplay(
                    p.id,
                    self.width,
                    self.height,
                    tuple(self.display(p, lang, players) + (self.scan_prims(p, lang, players) if scan_marks else [])),
                )
                for p in chosen
            ),
        )

    def scan_prims(self, page: Page, lang: str, players: int | None = None) -> list:
        """The page's scan marks (none when the layout is not scannable)."""
        if not self.scan_marks:
            return []
        data = scanmarks.payload(self.id, page.id, players or self.players["default"], lang, self.digest)
        return scanmarks.scan_prims(self.width, self.height, data)

    def build(self, page: Page, lang: str, players: int | None = None) -> tuple[list, list, bool]:
        """(display list, key paths of the house values it prints, whether the house note
        found room: False only when there are marks and no room)."""
        env = self.env(lang, players)
        out, taken = [], self.scan_taken()
        for el in page.elements:
            prims = E.build(el, env)
            taken.append(_taken(el, prims))
            out += prims
        if not env.marks:
            return out, [], True
        note = self.house_note_prims(page, lang, taken)
        return out + (note or []), list(env.marks), note is not None

    def scan_taken(self) -> list:
        """The places the scan marks keep free, as `_taken` entries (the house note avoids them)."""
        if not self.scan_marks:
            return []
        return [(x, y, w, h, None) for _, x, y, w, h in scanmarks.reserved(self.width, self.height)]

    def house_note_text(self, page: Page, lang: str) -> str:
        return self.env(lang).t(page.house_note or self.house_note)

    def note_size(self) -> tuple[float, float]:
        """The house note's font size (pt) and line height (mm): NOTE_SIZE, or the
        layout's `smallest_text` when that is larger."""
        size = max(NOTE_SIZE, self.smallest_text)
        return size, NOTE_H * size / NOTE_SIZE

    def note_frame(self, page: Page) -> dict | None:
        """The frame the page's house note goes in (`house_note_in`, the page's or the
        layout's), or None: anywhere on the sheet."""
        fid = page.house_note_in or self.house_note_in
        return next((el for el in page.elements if el["id"] == fid and E.TYPES[el["type"]].container), None)

    def house_note_prims(self, page: Page, lang: str, taken: list) -> list | None:
        """The house note of a page where it overlaps nothing `taken`: one line in the lowest
        free strip (of the frame `house_note_in` names, else of the sheet), else two or three
        lines in a narrower place; None when there is no room."""
        from sheetgen import text as fonts

        text = self.house_note_text(page, lang)
        size, line_h = self.note_size()
        one = fonts.width(text, NOTE_FONT, size) * 25.4 / 72 + 1.0
        frame = self.note_frame(page)
        within = None
        if frame is not None:
            top = frame["y"] + (frame["header"] if frame.get("title") else 0)
            within = (frame["x"], top, frame["x"] + frame["w"], frame["y"] + frame["h"])
        best = None
        for lines in (1, 2, 3):
            w = one if lines == 1 else one / lines + 12.0
            h = line_h * lines
            fit = fonts.fit_text(text, NOTE_FONT, size, w * 72 / 25.4, h * 72 / 25.4, True, size)
            if not fit.fits:
                continue
            spot = free_strip(taken, self.width, self.height, w, h, within)
            if spot and (best is None or spot[1] + h > best[1] + best[3] + 0.01):
                best = (*spot, h)
        if best is None:
            return None
        x, y, w, h = best
        return [Text(x, y, w, h, text, NOTE_FONT, size, "right", "bottom", NOTE_COLOR, path="house_note", least=size)]


def _taken(el: dict, prims: list) -> tuple:
    """(x, y, w, h, body) of what an element covers: its place, or less when its type says
    (`covers`: a text element only its lines of text as fitted); a frame its rectangle with
    `body` = (top, bottom) of its inside, which is free."""
    kind = E.TYPES[el["type"]]
    covered = kind.covers(el, prims) if kind.covers is not None else None
    if covered is not None:
        return (*covered, None)
    body = None
    if kind.container:
        body = (el["y"] + (el["header"] if el.get("title") else 0), el["y"] + el["h"])
    return el["x"], el["y"], el["w"], el["h"], body


def free_strip(
    taken: list, width: float, height: float, need: float, h: float, within: tuple | None = None
) -> tuple | None:
    """(x, y, w) of the lowest place `need` x `h` mm on the sheet (or `within` the rectangle
    x0, y0, x1, y1: a frame's inside) that overlaps nothing `taken` (see _taken; inside a
    frame is free), rightmost first; None if there is none. The place keeps NOTE_PAD from
    everything, so that the note's text is that far from any line."""
    pad = NOTE_PAD
    x0, top, x1, bottom = within or (0.0, 0.0, width, height)
    y = bottom - h - (pad if within else 0.0)
    while y >= top + (pad if within else 0.0) - 1e-9:
        blocked = []
        for ex, ey, ew, eh, body in taken:
            if y >= ey + eh + pad or y + h <= ey - pad:
                continue
            if body is not None and y >= body[0] + pad and y + h <= body[1] - pad:  # inside: only the borders
                blocked += [(ex - pad, ex + 1.5), (ex + ew - 1.5, ex + ew + pad)]
                continue
            blocked.append((ex - pad, ex + ew + pad))
        if within:  # the frame's own borders
            blocked += [(x0 - pad, x0 + 1.5), (x1 - 1.5, x1 + pad)]
        gaps, x = [], x0
        for a, b in sorted(blocked):
            if a > x:
                gaps.append((x, a))
            x = max(x, b)
        gaps.append((x, x1))
        for a, b in reversed(gaps):
            if b - a >= need:
                return b - need, y, need
        y = round(y - 0.5, 3)
    return None


def _place(pages: list, ctx: Ctx, sheet: tuple = (MAX_SHEET[0], MAX_SHEET[1])) -> None:
    """Absolute x, y, w, h for every element, in list order: `at` from the sheet's corner or
    from the inside of its `in:` frame, or an offset from where `below:` / `right_of:` put
    it; a frame with an `auto` side grows around what sits in it, one with a `fill` side
    reaches the sheet's edge (`sheet`: its width and height) and grows like `auto` past it."""
    for page in pages:
        placed: dict = {}
        for el in page["elements"]:
            _place_one(el, placed, ctx, sheet)
            placed[el["id"]] = el


def _place_one(el: dict, placed: dict, ctx: Ctx, sheet: tuple) -> None:
    node, path = el["_node"], el["_path"]
    el["w"], el["h"] = E.TYPES[el["type"]].size(el)
    frame = None
    if "in" in el:
        frame = placed.get(el["in"])
        if frame is None or not E.TYPES[frame["type"]].container:
            ctx.error(Where(node, "in", path + ".in"), f"no frame '{el['in']}' earlier on this page")
            frame = None
    key = "below" if "below" in el else "right_of"
    if "below" in el and "right_of" in el:
        ctx.error(Where(node, "right_of", path + ".right_of"), "give either below or right_of, not both")
    refs = el.get("below") or ([el["right_of"]] if "right_of" in el else [])
    if refs and _own_at(node, key):
        refs = []  # a child's own `at` over a parent's below/right_of: that position, as written
    anchors = []
    for ref in refs:
        if ref not in placed:
            ctx.error(Where(node, key, f"{path}.{key}"), f"no element '{ref}' earlier on this page")
        else:
            anchors.append(placed[ref])
    x = y = 0.0
    if anchors:
        if key == "below":
            x, y = anchors[0]["x"], max(a["y"] + a["h"] for a in anchors) + el["space"]
        else:
            x, y = anchors[0]["x"] + anchors[0]["w"] + el["space"], anchors[0]["y"]
        for a in anchors:
            a.setdefault("_followed", []).append(el["id"])
    elif not refs and "at" not in el:
        ctx.error(Where(node, None, path), "missing key 'at' (or place it with below: or right_of:)")
    elif frame is not None and not refs:
        x, y = frame["x"], frame["y"] + (frame["header"] if frame.get("title") else 0)
    dx, dy = el.get("at") or (0.0, 0.0)
    el["x"], el["y"] = x + dx, y + dy
    for n, side in enumerate(el.get("size") or () if E.TYPES[el["type"]].container else ()):
        if side == "fill":
            least = el["h" if n else "w"]
            el["h" if n else "w"] = max(least, sheet[n] - (el["y"] if n else el["x"]))
    el["_after"] = [a["id"] for a in anchors] + ([frame["id"]] if frame is not None else [])
    if frame is not None:
        _grow(frame, el, placed, ctx)


def _own_at(node, key: str) -> bool:
    """Whether `at` was written in a later file than `key` (below/right_of), as a position
    (not `+=` offsets): a variant of a layout that places the element relatively puts it
    where its `at` says, as it did when the parent used positions."""
    if "at" not in node or not hasattr(node, "file_of") or getattr(node["at"], "offset", False):
        return False
    return node.file_of("at") != node.file_of(key)


def _grow(frame: dict, el: dict, placed: dict, ctx: Ctx) -> None:
    """Grow a frame with an `auto` side around `el` (one of its contents), and its own
    frame in turn; a frame something was already placed after cannot grow any more."""
    auto_w, auto_h = (side in ("auto", "fill") for side in frame["size"])
    if not (auto_w or auto_h):
        return
    frame.setdefault("_sized_by", []).append(el["id"])
    right, bottom = frame["padding"]
    w = max(frame["w"], el["x"] + el["w"] + right - frame["x"]) if auto_w else frame["w"]
    h = max(frame["h"], el["y"] + el["h"] + bottom - frame["y"]) if auto_h else frame["h"]
    if (w, h) == (frame["w"], frame["h"]):
        return
    if frame.get("_followed"):
        ctx.error(
            Where(el["_node"], "in", el["_path"] + ".in"),
            f"frame '{frame['id']}' sizes to its contents, but '{frame['_followed'][0]}' is placed "
            f"after it earlier in the list; list '{el['id']}' before '{frame['_followed'][0]}'",
        )
        return
    frame["w"], frame["h"] = w, h
    outer = placed.get(frame.get("in"))
    if outer is not None and E.TYPES[outer["type"]].container:
        _grow(outer, frame, placed, ctx)


# keys that never move or size an element: not blamed for a geometry problem
_NOT_GEOMETRY = frozenset(
    ("id", "type", "text", "title", "subtitle", "label", "icon", "icons", "color", "fill", "verified", "note")
)


def _influences(el: dict, by_id: dict) -> list:
    """`el`, then the elements its place or size follows, nearest first: what it is placed
    below, right of or in, and what sizes a frame with an `auto` side."""
    out, seen, todo = [], set(), [el["id"]]
    while todo:
        eid = todo.pop(0)
        if eid in seen or eid not in by_id:
            continue
        seen.add(eid)
        cur = by_id[eid]
        out.append(cur)
        todo += cur.get("_after", []) + cur.get("_sized_by", [])
    return out


def _child_key(node, root: str, path: str) -> tuple | None:
    """(file, line, key path) of the first geometry key under `node` set in the file `root`."""
    keys = node.keys() if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ()
    for key in keys:
        if key in _NOT_GEOMETRY or not hasattr(node, "file_of"):
            continue
        sub = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"
        if node.file_of(key) == root:
            return root, node.line_of(key), sub
        found = _child_key(node[key], root, sub)
        if found:
            return found
    return None


def geometry_problem(el: dict, message: str, by_id: dict, root: str) -> Problem:
    """A problem with where `el` sits, located where the designer can fix it: at its own
    `at` (or `below`, `right_of`); but when `el` comes from a parent layout and a key of the
    child's file `root` moved or sized it, at that key first, with `el`'s place as context."""
    node = el["_node"]
    key = next((k for k in ("at", "below", "right_of") if k in node), None)
    file, line = getattr(node, "file", "<layout>"), getattr(node, "line", 0)
    if key is not None:
        file, line = node.file_of(key), node.line_of(key)
    if file != root:
        for other in _influences(el, by_id):
            node = other["_node"]
            if hasattr(node, "file_of") and "type" in node and node.file_of("type") == root:  # the child's own
                found = root, node.line, other["_path"]
            else:
                found = _child_key(node, root, other["_path"])
            if found:
                kfile, kline, kpath = found
                head = "" if other is el else f"moves '{el['id']}': "
                return Problem(f"{head}{message} ('{el['id']}' is at {file}:{line})", kfile, kline, kpath)
    return Problem(message, file, line, el["_path"])


def _overlap(a, b) -> bool:
    eps = 0.01
    return (
        a["x"] < b["x"] + b["w"] - eps
        and b["x"] < a["x"] + a["w"] - eps
        and a["y"] < b["y"] + b["h"] - eps
        and b["y"] < a["y"] + a["h"] - eps
    )


def _inside(inner, outer) -> bool:
    eps = 0.01
    return (
        inner["x"] >= outer["x"] - eps
        and inner["y"] >= outer["y"] - eps
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + eps
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + eps
    )


def _quoted(text: str, most: int = 80) -> str:
    """A label quoted in a message, cut to `most` characters (a label may be 2,000)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _check_geometry(pages: list, width: float, height: float, ctx: Ctx, root: str = "") -> None:
    """Every element inside the sheet and inside its frame, and no overlaps; each problem at
    the key that caused it (geometry_problem)."""
    for page in pages:
        els = page["elements"]
        by_id = {el["id"]: el for el in els}

        def report(el, message, by_id=by_id):
            ctx.errors.append(geometry_problem(el, message, by_id, root))

        outside: set = set()  # an element in a frame already reported outside is not reported again
        for el in els:
            if (
                el["x"] < -0.01
                or el["y"] < -0.01
                or el["x"] + el["w"] > width + 0.01
                or el["y"] + el["h"] > height + 0.01
            ):
                outside.add(el["id"])
                if el.get("in") in outside:
                    continue
                full = _full(el, width, height)
                report(
                    el,
                    f"outside the printable area: spans x {_fmt(el['x'])}-{_fmt(el['x'] + el['w'])}mm, "
                    f"y {_fmt(el['y'])}-{_fmt(el['y'] + el['h'])}mm; the sheet is "
                    f"{_fmt(width)} x {_fmt(height)}mm{full}",
                )
                # the page is full: its house note is not looked for; a scan mark may say more
                el["_page_full"] = ctx.errors[-1] if full else None
        frames = {el["id"]: el for el in els if E.TYPES[el["type"]].container}
        for el in els:
            frame = frames.get(el.get("in"))
            if frame is not None and not _inside(el, frame):
                report(
                    el,
                    f"sticks out of frame '{frame['id']}': spans x {_fmt(el['x'])}-{_fmt(el['x'] + el['w'])}mm, "
                    f"y {_fmt(el['y'])}-{_fmt(el['y'] + el['h'])}mm; the frame spans x {_fmt(frame['x'])}-"
                    f"{_fmt(frame['x'] + frame['w'])}mm, y {_fmt(frame['y'])}-{_fmt(frame['y'] + frame['h'])}mm",
                )
        overlaps = 0
        for i, j in _overlapping_pairs(els):
            a, b = els[i], els[j]
            fa, fb = E.TYPES[a["type"]].container, E.TYPES[b["type"]].container
            if fa or fb:
                frame, other = (a, b) if fa else (b, a)
                if other.get("in") == frame["id"] and not _inside(other, frame):
                    continue  # reported above
                if _inside(other, frame):
                    head = dict(frame, h=frame["header"]) if frame.get("title") else None
                    if head is None or not _overlap(other, head):
                        continue
                    report(other, f"overlaps the title of frame '{frame['id']}'")
                    continue
                if fa and fb and _inside(frame, other):
                    continue
            overlaps += 1
            if overlaps <= MAX_OVERLAPS:
                report(b, f"overlaps '{a['id']}'")
        if overlaps > MAX_OVERLAPS:
            file = getattr(els[0]["_node"], "file", "<layout>")
            ctx.errors.append(f"{file}: ... and {overlaps - MAX_OVERLAPS:,} more overlaps on page '{page['id']}'")


def _full(el: dict, width: float, height: float) -> str:
    """Why an element that follows another (below:, right_of:) left the sheet: the page is full."""
    over_y, over_x = el["y"] + el["h"] - height, el["x"] + el["w"] - width
    if el.get("below") and over_y > 0.01:
        return f"; the page is full: what is above '{el['id']}' is {_fmt(over_y)}mm too tall"
    if el.get("right_of") and over_x > 0.01:
        return f"; the page is full: what is left of '{el['id']}' is {_fmt(over_x)}mm too wide"
    return ""


def _check_scan_room(pages: list, width: float, height: float, ctx: Ctx, root: str = "") -> None:
    """A scannable layout keeps the corners and the QR code's place free (scanmarks.reserved);
    each problem at the key that caused it (geometry_problem)."""
    for page in pages:
        by_id = {el["id"]: el for el in page["elements"]}
        reported: set = set()  # once per element, and not again for what sits in it
        for what, x, y, w, h in scanmarks.reserved(width, height):
            area = {"x": x, "y": y, "w": w, "h": h}
            for el in page["elements"]:
                if _overlap(el, area) and el["id"] not in reported and el.get("in") not in reported:
                    reported.add(el["id"])
                    # a zone pushed down (or right) onto a mark: the page is full above it
                    full = _full(el, x if x > el["x"] else width, y if y > el["y"] else height)
                    message = (
                        f"overlaps the {what} (x {_fmt(x)}-{_fmt(x + w)}mm, y {_fmt(y)}-{_fmt(y + h)}mm), "
                        f"which `scan_marks: true` keeps free{full}"
                    )
                    if full and el.get("_page_full") in ctx.errors:  # it says the same, with the mark
                        ctx.errors.remove(el["_page_full"])
                    ctx.errors.append(geometry_problem(el, message, by_id, root))
                    el["_page_full"] = ctx.errors[-1] if full else el.get("_page_full")


def _overlapping_pairs(els: list) -> list[tuple[int, int]]:
    """Index pairs (i < j, in that order) of elements whose rectangles overlap: a sweep
    over x (sorted by left edge), so that apart pages cost n log n, not n squared."""
    order = sorted(range(len(els)), key=lambda n: els[n]["x"])
    pairs = []
    for pos, i in enumerate(order):
        right = els[i]["x"] + els[i]["w"]
        for j in order[pos + 1 :]:
            if els[j]["x"] >= right:
                break
            if _overlap(els[i], els[j]):
                pairs.append((min(i, j), max(i, j)))
    return sorted(pairs)


def _check_display(layout: Layout, raw: dict, ctx: Ctx) -> None:
    """Check every element as placed, in both languages and with the fewest and the most
    players: first its own check (E.check), then, if it can be built, the text and boxes
    of its display list; then, on a page printing house values, the room for the note."""
    from sheetgen import text as fonts

    counts = sorted({layout.players["min"], layout.players["max"]})
    causes = _player_causes(raw)
    root = getattr(raw, "file", layout.source)
    seen = set()
    raw_pages = raw.get("pages") if isinstance(raw.get("pages"), list) else []
    for n, page in enumerate(layout.pages):
        for lang in E.LANGS:
            for players in counts:
                marked = False
                taken = layout.scan_taken()
                for el in page.elements:
                    labels, refused = E.check(el, layout.env(lang, players))
                    for path, message in labels + refused:
                        _report(ctx, el, path, message, seen, _own_cause(el, path, root))
                    if refused:  # it cannot be drawn as written: its place only
                        taken.append(_taken(el, []))
                        continue
                    env = layout.env(lang, players)
                    prims = E.build(el, env)
                    taken.append(_taken(el, prims))
                    marked = marked or bool(env.marks)
                    for prim in prims:
                        if isinstance(prim, Text):
                            missing = fonts.missing_glyphs(prim.text, prim.font)
                            if missing:
                                _report(
                                    ctx,
                                    el,
                                    prim.path,
                                    f"the font has no glyph for {missing!r} ({lang})",
                                    seen,
                                    _text_cause(el, prim.path, lang, raw, layout.by_id, root),
                                )
                                continue
                            if prim.size < prim.min_size - 1e-9:
                                key = E.TYPES[el["type"]].size_key  # where the size is set
                                own = key is not None and key in el["_node"]
                                _report(
                                    ctx,
                                    el,
                                    f"{el['_path']}.{key}" if own else prim.path,
                                    _too_small(prim.size, prim.hint),
                                    seen,
                                )
                                continue
                            fit = fonts.fit_text(
                                prim.text,
                                prim.font,
                                prim.size,
                                prim.w * 72 / 25.4,
                                prim.h * 72 / 25.4,
                                prim.wrap,
                                prim.min_size,
                            )
                            if not fit.fits:
                                who = f" with {players} players" if len(counts) > 1 else ""
                                _report(
                                    ctx,
                                    el,
                                    prim.path,
                                    f"text does not fit in {_fmt(prim.w)} x {_fmt(prim.h)}mm"
                                    f"{who} ({lang}): {_quoted(prim.text)}",
                                    seen,
                                    (causes.get(players) if who else None)
                                    or _text_cause(el, prim.path, lang, raw, layout.by_id, root),
                                )
                        elif isinstance(prim, Box):
                            least = MIN_MINI_BOX if prim.kind == "mini" else MIN_BOX
                            if min(prim.w, prim.h) < least - 0.01:
                                who = f" with {players} players" if len(counts) > 1 else ""
                                _report(
                                    ctx,
                                    el,
                                    "",
                                    f"boxes of {_fmt(prim.w)} x {_fmt(prim.h)}mm{who} are too "
                                    f"small to mark; at least {_fmt(least)}mm",
                                    seen,
                                    (causes.get(players) if who else None) or _own_cause(el, "", root),
                                )
                if marked and not any(el.get("_page_full") for el in page.elements):  # the full page says it
                    _check_house_note(
                        layout, page, lang, taken, raw_pages[n] if n < len(raw_pages) else raw, f"pages[{n}]", ctx, seen
                    )


def _too_small(size: float, hint: bool) -> str:
    if hint:
        return f"a hint of {_fmt(size)}pt is too small to read; at least {_fmt(MIN_HINT)}pt"
    return (
        f"text of {_fmt(size)}pt is too small to read; at least {_fmt(MIN_TEXT)}pt "
        f"(only a hint inside a box, style: hint, may go down to {_fmt(MIN_HINT)}pt)"
    )


def _check_house_note(layout: Layout, page: Page, lang: str, taken: list, node, path: str, ctx: Ctx, seen: set) -> None:
    """A page that prints a house value needs room for the house note (`taken`: what its
    elements cover, see _taken)."""
    from sheetgen import text as fonts

    text = layout.house_note_text(page, lang)
    size, line_h = layout.note_size()
    missing = fonts.missing_glyphs(text, NOTE_FONT)
    if missing:
        message = f"house_note: the font has no glyph for {missing!r} ({lang})"
    elif layout.house_note_prims(page, lang, taken) is None:
        frame = layout.note_frame(page)
        where = f" in frame '{frame['id']}' (house_note_in)" if frame else ""
        room = "leave room at the bottom of the frame" if frame else "leave room at the bottom of the sheet"
        message = (
            f"prints house values ({HOUSE_MARK}) but has no free place for the house note{where} ({lang}: one "
            f"line of {_fmt(fonts.width(text, NOTE_FONT, size) * 25.4 / 72 + 1)} x {_fmt(line_h)}mm "
            f"or 2-3 shorter lines); {room}"
        )
    else:
        return
    line = f"{getattr(node, 'file', layout.source)}:{getattr(node, 'line', 0)}: {path}: {message}"
    if line not in seen:
        seen.add(line)
        ctx.errors.append(line)


def _expand_titles(layout: Layout, raw: dict, ctx: Ctx) -> None:
    """Fill the `{placeholders}` of the layout's title, description and page titles
    once, so that every use (PDF metadata, `list`, score tables) shows the values."""

    def expand(label, node, key, path):
        out = {}
        for lang in E.LANGS:
            env = layout.env(lang)
            for _, message in env.problems(label, path):
                ctx.error(Where(node, key, path), message)
            out[lang] = env.t(label, path)
        return out

    for key in ("title", "description"):
        if getattr(layout, key):
            setattr(layout, key, expand(getattr(layout, key), raw, key, key))
    raw_pages = raw.get("pages") if isinstance(raw.get("pages"), list) else []
    for n, page in enumerate(layout.pages):
        node = raw_pages[n] if n < len(raw_pages) else raw
        page.title = expand(page.title, node, "title", f"pages[{n}].title")


def _player_causes(raw: dict) -> dict:
    """{player count: (file, line, key path)} of `players.min` / `players.max` when the
    layout's own file (not a parent) set them, directly or through the constant they name."""
    root, node = getattr(raw, "file", ""), raw.get("players")
    out = {}
    for key in ("min", "max"):
        if not isinstance(node, dict) or key not in node or not hasattr(node, "file_of"):
            continue
        value, where = node[key], (node.file_of(key), node.line_of(key), f"players.{key}")
        consts = raw.get("constants")
        name = value[1:-1] if isinstance(value, str) and value.startswith("{") and value.endswith("}") else None
        if name and isinstance(consts, dict) and name in consts and hasattr(consts, "file_of"):
            where = (consts.file_of(name), consts.line_of(name), f"constants.{name}")
            value = _whole_constants(raw).get(name)
        if where[0] == root and isinstance(value, int):
            out[value] = where
    return out


def _text_cause(el: dict, subpath: str, lang: str, raw: dict, by_id: dict, root: str) -> tuple | None:
    """(file, line, key path) of the key of the child file `root` that made a text of an
    inherited element go wrong: its size or font (a geometry key, _child_key), else a
    constant or an element key that a `{placeholder}` of the label reads; None if none."""
    found = _child_key(el["_node"], root, el["_path"])
    if found and found[2].rsplit(".", 1)[-1] not in ("at", "in", "below", "right_of", "space"):
        return found  # a place is no reason for a text not to fit
    label = el
    rel = subpath[len(el["_path"]) :] if subpath.startswith(el["_path"]) else ""
    for part in filter(None, rel.replace("]", "").replace("[", ".").split(".")):
        try:
            label = label[int(part) if part.isdigit() else part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(label, dict) or not isinstance(label.get(lang), str):
        return None
    consts = raw.get("constants")
    for name in E.placeholders(label[lang]):
        head, rest = re.match(r"([^.\[]*)\.?(.*)", name).groups()
        if isinstance(consts, dict) and head in consts and hasattr(consts, "file_of"):
            if consts.file_of(head) == root:
                return root, consts.line_of(head), f"constants.{head}"
        elif head in by_id and rest:
            file, line = E.line_of_path(by_id[head]["_node"], rest)
            if file == root:
                return file, line, f"{head}.{rest}"
    return None


def _own_cause(el, subpath, root: str) -> tuple | None:
    """(file, line, key path) of the first key of `el` that the file `root` sets (a child's
    change to an element it inherits), when the problem at `subpath` lies in another file:
    the parent alone is valid, so the child's key made it (a building card's bigger `box`
    leaves no room under its `size`, written in the parent)."""
    if E.problem_at(el, subpath, "").file == root:
        return None
    return _child_key(el["_node"], root, el["_path"])


def _report(ctx, el, subpath, message, seen, cause=None):
    """Report a problem of an element; with `cause` (file, line, key path: the child's key that
    set the player count it appears with), at that key first, the element's place after it."""
    problem = E.problem_at(el, subpath, message)
    if cause is not None and problem.file != cause[0]:
        problem = Problem(
            f"{problem.path}: {message} ('{el['id']}' is at {problem.file}:{problem.line})", *cause[:2], cause[2]
        )
    if problem not in seen:
        seen.add(problem)
        ctx.errors.append(problem)


def _unverified(data: dict) -> list[str]:
    out = [f"constants.{k}" for k, c in data["constants"].items() if not c["verified"]]
    for page in data["pages"]:
        for el in page["elements"]:
            if not el["verified"]:
                out.append(el["id"])
            for key in E.TYPES[el["type"]].verified_items:
                for n, item in enumerate(el.get(key) or []):
                    if not item["verified"]:
                        out.append(f"{el['id']}.{key}[{n}]")
    return out


def _house_labels(data: dict) -> list[str]:
    """Key paths of the labels marked `house: true` (house rule texts), element by element."""
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            if node.get("house") is True and "fr" in node:
                out.append(path)
                return
            for key, value in node.items():
                if not key.startswith("_"):
                    walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for n, value in enumerate(node):
                walk(value, f"{path}[{n}]")

    for page in data["pages"]:
        for el in page["elements"]:
            walk(el, el["id"])
    return out


def _check_item_ids(pages: list, elements: dict, ctx: Ctx) -> None:
    """A number box's id is a field name of its own (the scorer's, a fillable PDF's): unique
    among the elements and the other boxes. A score table's row ids are unique in the table."""
    boxes: dict[str, str] = {}
    for page in pages:
        for el in page["elements"]:
            kind = E.TYPES[el["type"]]
            for key in filter(None, (kind.box_ids, kind.row_ids)):
                raw = el["_node"].get(key)
                rows: set = set()
                for n, item in enumerate(el[key]):
                    iid = item["id"]
                    node = raw[n] if isinstance(raw, list) and n < len(raw) else el["_node"]
                    at = Where(node, "id", f"{el['_path']}.{key}[{n}].id")
                    if key == kind.row_ids:
                        if iid in rows:
                            ctx.error(at, f"duplicate row id '{iid}' in this table")
                        rows.add(iid)
                    elif iid in elements:
                        ctx.error(at, f"duplicate id '{iid}': already the id of element '{iid}'")
                    elif iid in boxes:
                        ctx.error(at, f"duplicate id '{iid}': already the id of a box of '{boxes[iid]}'")
                    else:
                        boxes[iid] = el["id"]


def _check_note_frames(data: dict, raw: dict, ctx: Ctx) -> None:
    """`house_note_in` names a frame: a page's, a frame of that page; the layout's, a frame of
    at least one page (the others put their note anywhere on the sheet)."""

    def frames(page) -> list[str]:
        return [el["id"] for el in page["elements"] if E.TYPES[el["type"]].container]

    raw_pages = raw.get("pages") if isinstance(raw.get("pages"), list) else []
    for n, page in enumerate(data["pages"]):
        fid = page.get("house_note_in")
        if fid is not None and fid not in frames(page):
            node = raw_pages[n] if n < len(raw_pages) else raw
            ctx.error(
                Where(node, "house_note_in", f"pages[{n}].house_note_in"),
                f"no frame '{fid}' on this page; frames: {', '.join(frames(page)) or 'none'}",
            )
    fid = data.get("house_note_in")
    if fid is not None and not any(fid in frames(page) for page in data["pages"]):
        every = sorted({f for page in data["pages"] for f in frames(page)})
        ctx.error(
            Where(raw, "house_note_in", "house_note_in"), f"no frame '{fid}'; frames: {', '.join(every) or 'none'}"
        )


def _whole_constants(raw: dict) -> dict:
    """The constants that are whole numbers, for the keys that may name one (`{name}`);
    a bad constant is reported by the layout's own check."""
    consts = raw.get("constants")
    out = {}
    for name, item in consts.items() if isinstance(consts, dict) else ():
        got = Constant().check(item, Ctx(), Where(consts, name, ""))
        if got is not INVALID and isinstance(got["value"], int) and not isinstance(got["value"], bool):
            out[name] = got["value"]
    return out


def build_layout(raw: dict, source: str) -> Layout:
    """Validate a resolved layout tree into a Layout, or raise every problem at once."""
    ctx = Ctx()
    ctx.constants = _whole_constants(raw)
    data = LAYOUT.check(raw, ctx, Where(raw, None, ""))
    if data is INVALID:
        raise LayoutError(ctx.errors)
    ids: dict[str, dict] = {}
    for page in data["pages"]:
        for el in page["elements"]:
            if el["id"] in ids:
                ctx.error(Where(el["_node"], "id", el["_path"] + ".id"), "duplicate element id")
            ids[el["id"]] = el
    _check_item_ids(data["pages"], ids, ctx)
    _check_note_frames(data, raw, ctx)
    w, h = data["sheet"]["width"], data["sheet"]["height"]
    _place(data["pages"], ctx, (w, h))
    if ctx.errors:
        raise LayoutError(ctx.errors)
    _check_geometry(data["pages"], w, h, ctx, getattr(raw, "file", source))
    if data["scan_marks"]:
        _check_scan_room(data["pages"], w, h, ctx, getattr(raw, "file", source))
    layout = Layout(
        id=data["id"],
        game=data["game"],
        title=data["title"],
        description=data.get("description"),
        width=w,
        height=h,
        players=data["players"],
        theme=data["theme"],
        constants=Constants({k: c["value"] for k, c in data["constants"].items()}),
        unverified=_unverified(data),
        pages=[
            Page(p["id"], p["title"], p["elements"], p.get("house_note"), p.get("house_note_in")) for p in data["pages"]
        ],
        source=source,
        by_id=ids,
        origin={k: (raw.file_of(k), raw.line_of(k)) for k in raw} if hasattr(raw, "line_of") else {},
        house_note=data["house_note"],
        house_note_in=data.get("house_note_in"),
        house=_house_labels(data),
        digest=tree_hash(raw),
        tree=raw,
        scan_marks=data["scan_marks"],
        smallest_text=data["smallest_text"],
    )
    layout.constants.source = source
    _expand_titles(layout, raw, ctx)
    _check_display_once(layout, raw, ctx)
    if ctx.errors:
        raise LayoutError(ctx.errors)
    return layout


def _check_display_once(layout: Layout, raw: dict, ctx: Ctx) -> None:
    """_check_display, which builds every page in both languages at both player counts
    (~70% of loading a layout), unless this very tree already passed it with this very
    code: the user cache (sheetgen.cache) remembers the trees that did, by the hash of
    the resolved tree and of sheetgen's code and fonts. Only a pass is remembered."""
    from sheetgen import cache

    key = cache.key("layout-ok", layout.digest, cache.code_stamp())
    if not ctx.errors and cache.get("layout-ok", key) is True:
        return
    _check_display(layout, raw, ctx)
    if not ctx.errors:
        cache.put("layout-ok", key, True)


_CACHE: dict = {}


def load_layout(ref: str, relative_to: Path | None = None) -> Layout:
    """A validated Layout from a built-in id or a path (relative to `relative_to`'s folder);
    `-` reads it from standard input (its `extends` paths relative to the current folder)."""
    if ref == "-":
        return _load_stdin()
    path = locate(ref, relative_to)
    if path is None:
        if is_builtin_ref(ref):
            hint = did_you_mean(ref, builtin_ids()) or f"; built-in layouts: {', '.join(builtin_ids())}"
            raise LayoutError(f"no built-in layout '{ref}'{hint}")
        raise LayoutError(Problem("no such file", ref))
    key = path.resolve()
    hit = _CACHE.get(key)
    if hit and hit[1] == _stamps(hit[0]):
        return hit[2]
    files: list[Path] = []

    def load(p: Path):
        files.append(p.resolve())
        return load_layout_file(p)

    raw = resolve(path, load)
    layout = build_layout(raw, str(path))
    # cached until the file or any of its parents changes
    _CACHE[key] = (tuple(files), _stamps(files), layout)
    return layout


def _load_stdin() -> Layout:
    from sheetgen.errors import SheetgenError
    from sheetgen.yamlsrc import load_file

    stdin = Path.cwd() / "<stdin>"
    try:
        data = load_file("-")
    except SheetgenError as exc:
        raise LayoutError(exc.problems) from None
    raw = resolve(stdin, lambda p: data if Path(p) == stdin else load_layout_file(p))
    return build_layout(raw, "<stdin>")


def _stamps(files) -> tuple:
    """Size and modification time of each file (None when it is gone)."""
    out = []
    for f in files:
        try:
            st = f.stat()
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)
