"""Load a layout: resolve `extends`, validate every key, place the elements and
check the page (inside the sheet, no overlaps, text that fits, glyphs the font
has, boxes big enough for a pencil). All problems are collected, then raised
once as a LayoutError.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sheetgen.errors import LayoutError
from sheetgen.layout import elements as E
from sheetgen.layout.display import Box, Text
from sheetgen.layout.resolve import builtin_ids, is_builtin_ref, load_layout_file, locate, resolve
from sheetgen.schema import (
    INVALID, Any_, Bool, Color, Ctx, Field, Int, Length, ListOf, Map, Spec, Str, Where, describe, did_you_mean,
)

GAMES = ("harvest-dice", "imperial-settlers", "river-valley-glassworks", "bosk", "plante-bataille")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 8.0  # mm that home printers keep blank
MAX_SHEET = (min(w for w, _ in PAPERS.values()) - 2 * MARGIN, min(h for _, h in PAPERS.values()) - 2 * MARGIN)
MIN_BOX = 7.0       # mm: a box a pencil can mark
MIN_MINI_BOX = 3.5  # mm: cells of a small copy of a board (dots, not numbers)


class Constant(Spec):
    """A game constant: a plain value, or {value, verified, note}."""

    SCALAR = (int, float, str)

    def check(self, value, ctx, at):
        if isinstance(value, dict):
            got = Map({"value": Field(_Value(), required=True), "verified": Field(Bool(), default=True),
                       "note": Field(Str())}, what="a constant").check(value, ctx, at)
            return got
        got = _Value().check(value, ctx, at)
        return got if got is INVALID else {"value": got, "verified": True}


class _Value(Spec):
    def check(self, value, ctx, at):
        ok = lambda v: isinstance(v, (int, float, str)) and not isinstance(v, bool)  # noqa: E731
        for text in (value if isinstance(value, list) else [value]):
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


MAX_ELEMENTS = 400     # per page (the built-in pages have at most ~50)
MAX_OVERLAPS = 20      # overlap errors reported per page, the rest counted


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


PAGE = Map({
    "id": Field(E.IdStr(), required=True),
    "title": Field(E.Label(), required=True),
    "elements": Field(Elements(), required=True),
}, what="a page mapping")

LAYOUT = Map({
    # resolve() consumes `extends`; listed so that "accepted keys" messages name it
    "extends": Field(Any_()),
    "id": Field(Str(r"[a-z0-9][a-z0-9_.-]*", what="a layout id"), required=True),
    "game": Field(Str(choices=GAMES), required=True),
    "title": Field(E.Label(), required=True),
    "description": Field(E.Label()),
    "sheet": Field(Map({"width": Field(Length(20, MAX_SHEET[0]), required=True),
                        "height": Field(Length(20, MAX_SHEET[1]), required=True)}),
                   default=lambda: {"width": 194.0, "height": 263.0}),
    "players": Field(Map({"min": Field(Int(1, 12), default=1), "max": Field(Int(1, 12), default=1),
                          "default": Field(Int(1, 12), default=1)}, post=_players_post),
                     default=lambda: {"min": 1, "max": 1, "default": 1}),
    "theme": Field(Map({"accent": Field(Color(), default="#2f6b3a"), "tint": Field(Color(), default="#eef4ea")}),
                   default=lambda: {"accent": "#2f6b3a", "tint": "#eef4ea"}),
    "constants": Field(DictOf(Constant(), "a mapping of constants"), default=dict),
    "pages": Field(ListOf(PAGE, 1, 12), required=True),
})


class Constants(dict):
    """The layout's constants; reading one the layout lacks is a LayoutError."""

    source = "<layout>"

    def __missing__(self, name):
        raise LayoutError(f"{self.source}: the layout has no constant '{name}', which the scorer reads")


@dataclass
class Page:
    id: str
    title: dict
    elements: list


@dataclass
class Layout:
    id: str
    game: str
    title: dict
    description: dict | None
    width: float
    height: float
    players: dict
    theme: dict
    constants: dict            # name -> value
    unverified: list           # key paths of values marked verified: false
    pages: list
    source: str
    by_id: dict = field(default_factory=dict)

    def element(self, eid: str) -> dict:
        try:
            return self.by_id[eid]
        except KeyError:
            raise LayoutError(f"{self.source}: layout '{self.id}' has no element '{eid}', which the "
                              f"{self.game} scorer reads") from None

    def has(self, eid: str) -> bool:
        return eid in self.by_id

    def page(self, pid: str) -> Page:
        for p in self.pages:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def env(self, lang: str, players: int | None = None) -> E.Env:
        return E.Env(lang, self.constants, self.theme, players or self.players["default"], elements=self.by_id)

    def display(self, page: Page, lang: str, players: int | None = None) -> list:
        env = self.env(lang, players)
        out = []
        for el in page.elements:
            out += E.TYPES[el["type"]].build(el, env)
        return out


def _line_of_path(node, subpath: str) -> tuple[str, int]:
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


def _place(pages: list, ctx: Ctx) -> None:
    """Absolute x, y, w, h for every element (resolving `in:` frames)."""
    for page in pages:
        frames = {}
        for el in page["elements"]:
            x, y = el["at"]
            if "in" in el:
                frame = frames.get(el["in"])
                if frame is None:
                    ctx.error(Where(el["_node"], "in", el["_path"] + ".in"),
                              f"no frame '{el['in']}' earlier on this page")
                else:
                    x += frame["x"]
                    y += frame["y"] + (frame["header"] if frame.get("title") else 0)
            el["x"], el["y"] = x, y
            el["w"], el["h"] = E.TYPES[el["type"]].size(el)
            if E.TYPES[el["type"]].container:
                frames[el["id"]] = el


def _overlap(a, b) -> bool:
    eps = 0.01
    return (a["x"] < b["x"] + b["w"] - eps and b["x"] < a["x"] + a["w"] - eps and
            a["y"] < b["y"] + b["h"] - eps and b["y"] < a["y"] + a["h"] - eps)


def _inside(inner, outer) -> bool:
    eps = 0.01
    return (inner["x"] >= outer["x"] - eps and inner["y"] >= outer["y"] - eps and
            inner["x"] + inner["w"] <= outer["x"] + outer["w"] + eps and
            inner["y"] + inner["h"] <= outer["y"] + outer["h"] + eps)


def _quoted(text: str, most: int = 80) -> str:
    """A label quoted in a message, cut to `most` characters (a label may be 2,000)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _check_geometry(pages: list, width: float, height: float, ctx: Ctx) -> None:
    for page in pages:
        els = page["elements"]
        for el in els:
            at = Where(el["_node"], "at", el["_path"])
            if el["x"] < -0.01 or el["y"] < -0.01 or el["x"] + el["w"] > width + 0.01 or \
                    el["y"] + el["h"] > height + 0.01:
                ctx.error(at, f"outside the printable area: spans x {_fmt(el['x'])}-{_fmt(el['x'] + el['w'])}mm, "
                              f"y {_fmt(el['y'])}-{_fmt(el['y'] + el['h'])}mm; the sheet is "
                              f"{_fmt(width)} x {_fmt(height)}mm")
        frames = {el["id"]: el for el in els if E.TYPES[el["type"]].container}
        for el in els:
            frame = frames.get(el.get("in"))
            if frame is not None and not _inside(el, frame):
                ctx.error(Where(el["_node"], "at", el["_path"]),
                          f"sticks out of frame '{frame['id']}': spans x {_fmt(el['x'])}-{_fmt(el['x'] + el['w'])}mm, "
                          f"y {_fmt(el['y'])}-{_fmt(el['y'] + el['h'])}mm; the frame spans x {_fmt(frame['x'])}-"
                          f"{_fmt(frame['x'] + frame['w'])}mm, y {_fmt(frame['y'])}-{_fmt(frame['y'] + frame['h'])}mm")
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
                    ctx.error(Where(other["_node"], "at", other["_path"]),
                              f"overlaps the title of frame '{frame['id']}'")
                    continue
                if fa and fb and _inside(frame, other):
                    continue
            overlaps += 1
            if overlaps <= MAX_OVERLAPS:
                ctx.error(Where(b["_node"], "at", b["_path"]), f"overlaps '{a['id']}'")
        if overlaps > MAX_OVERLAPS:
            file = getattr(els[0]["_node"], "file", "<layout>")
            ctx.errors.append(f"{file}: ... and {overlaps - MAX_OVERLAPS:,} more overlaps on page '{page['id']}'")


def _overlapping_pairs(els: list) -> list[tuple[int, int]]:
    """Index pairs (i < j, in that order) of elements whose rectangles overlap: a sweep
    over x (sorted by left edge), so that apart pages cost n log n, not n squared."""
    order = sorted(range(len(els)), key=lambda n: els[n]["x"])
    pairs = []
    for pos, i in enumerate(order):
        right = els[i]["x"] + els[i]["w"]
        for j in order[pos + 1:]:
            if els[j]["x"] >= right:
                break
            if _overlap(els[i], els[j]):
                pairs.append((min(i, j), max(i, j)))
    return sorted(pairs)


def _check_display(layout: Layout, ctx: Ctx) -> None:
    from sheetgen.render import fonts

    counts = sorted({layout.players["min"], layout.players["max"]})
    seen = set()
    for page in layout.pages:
        for lang in E.LANGS:
            for players in counts:
                for el in page.elements:
                    env = layout.env(lang, players)
                    prims = E.TYPES[el["type"]].build(el, env)
                    for path, message in env.errors:
                        _report(ctx, el, path, message, seen)
                    for prim in prims:
                        if isinstance(prim, Text):
                            missing = fonts.missing_glyphs(prim.text, prim.font)
                            if missing:
                                _report(ctx, el, prim.path, f"the font has no glyph for {missing!r} ({lang})", seen)
                                continue
                            fit = fonts.fit_text(prim.text, prim.font, prim.size, prim.w * 72 / 25.4,
                                                 prim.h * 72 / 25.4, prim.wrap)
                            if not fit.fits:
                                who = f" with {players} players" if len(counts) > 1 else ""
                                _report(ctx, el, prim.path, f"text does not fit in {_fmt(prim.w)} x {_fmt(prim.h)}mm"
                                        f"{who} ({lang}): {_quoted(prim.text)}", seen)
                        elif isinstance(prim, Box):
                            least = MIN_MINI_BOX if prim.kind == "mini" else MIN_BOX
                            if min(prim.w, prim.h) < least - 0.01:
                                who = f" with {players} players" if len(counts) > 1 else ""
                                _report(ctx, el, "", f"boxes of {_fmt(prim.w)} x {_fmt(prim.h)}mm{who} are too "
                                        f"small to mark; at least {_fmt(least)}mm", seen)


def _expand_titles(layout: Layout, raw: dict, ctx: Ctx) -> None:
    """Fill the `{placeholders}` of the layout's title, description and page titles
    once, so that every use (PDF metadata, `list`, score tables) shows the values."""
    def expand(label, node, key, path):
        out = {}
        for lang in E.LANGS:
            env = layout.env(lang)
            out[lang] = env.t(label, path)
            for _, message in env.errors:
                ctx.error(Where(node, key, path), message)
        return out

    for key in ("title", "description"):
        if getattr(layout, key):
            setattr(layout, key, expand(getattr(layout, key), raw, key, key))
    raw_pages = raw.get("pages") if isinstance(raw.get("pages"), list) else []
    for n, page in enumerate(layout.pages):
        node = raw_pages[n] if n < len(raw_pages) else raw
        page.title = expand(page.title, node, "title", f"pages[{n}].title")


def _report(ctx, el, subpath, message, seen):
    rel = subpath[len(el["_path"]):].lstrip(".") if subpath.startswith(el["_path"]) else ""
    file, line = _line_of_path(el["_node"], rel)
    path = el["_path"] + ("." + rel if rel and not rel.startswith("[") else rel)
    text = f"{file}:{line}: {path}: {message}"
    if text not in seen:
        seen.add(text)
        ctx.errors.append(text)


def _unverified(data: dict) -> list[str]:
    out = [f"constants.{k}" for k, c in data["constants"].items() if not c["verified"]]
    for page in data["pages"]:
        for el in page["elements"]:
            if not el["verified"]:
                out.append(el["id"])
            for n, s in enumerate(el.get("sections") or []):
                if not s["verified"]:
                    out.append(f"{el['id']}.sections[{n}]")
            for n, r in enumerate(el.get("rows") or [] if el["type"] == "score_table" else []):
                if not r["verified"]:
                    out.append(f"{el['id']}.rows[{n}]")
    return out


def _check_item_ids(pages: list, elements: dict, ctx: Ctx) -> None:
    """A number box's id is a field name of its own (the scorer's, a fillable PDF's): unique
    among the elements and the other boxes. A score table's row ids are unique in the table."""
    boxes: dict[str, str] = {}
    for page in pages:
        for el in page["elements"]:
            key = {"number_boxes": "boxes", "score_table": "rows"}.get(el["type"])
            if key is None:
                continue
            raw = el["_node"].get(key)
            rows: set = set()
            for n, item in enumerate(el[key]):
                iid = item["id"]
                node = raw[n] if isinstance(raw, list) and n < len(raw) else el["_node"]
                at = Where(node, "id", f"{el['_path']}.{key}[{n}].id")
                if key == "rows":
                    if iid in rows:
                        ctx.error(at, f"duplicate row id '{iid}' in this table")
                    rows.add(iid)
                elif iid in elements:
                    ctx.error(at, f"duplicate id '{iid}': already the id of element '{iid}'")
                elif iid in boxes:
                    ctx.error(at, f"duplicate id '{iid}': already the id of a box of '{boxes[iid]}'")
                else:
                    boxes[iid] = el["id"]


def build_layout(raw: dict, source: str) -> Layout:
    """Validate a resolved layout tree into a Layout, or raise every problem at once."""
    ctx = Ctx()
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
    _place(data["pages"], ctx)
    if ctx.errors:
        raise LayoutError(ctx.errors)
    w, h = data["sheet"]["width"], data["sheet"]["height"]
    _check_geometry(data["pages"], w, h, ctx)
    layout = Layout(
        id=data["id"], game=data["game"], title=data["title"], description=data.get("description"),
        width=w, height=h, players=data["players"], theme=data["theme"],
        constants=Constants({k: c["value"] for k, c in data["constants"].items()}),
        unverified=_unverified(data),
        pages=[Page(p["id"], p["title"], p["elements"]) for p in data["pages"]],
        source=source, by_id=ids,
    )
    layout.constants.source = source
    _expand_titles(layout, raw, ctx)
    _check_display(layout, ctx)
    if ctx.errors:
        raise LayoutError(ctx.errors)
    return layout


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
        raise LayoutError(f"{ref}: no such file")
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
