"""Reading a layout: a built-in id, a file or standard input, its `extends` resolved
(sheetgen.layout.resolve), then checked and built into a `Layout` by the passes, in order:
its keys (spec), its names (ids), its places (place), where they sit (geometry), then
what it prints (printcheck). Each pass hands the next what it found; the problems of all
of them are collected and raised once, as a LayoutError.
"""

from __future__ import annotations

from pathlib import Path

from sheetgen.errors import LayoutError, Problem
from sheetgen.layout import elements as E
from sheetgen.layout import printcheck
from sheetgen.layout.geometry import check_places
from sheetgen.layout.ids import check_ids
from sheetgen.layout.model import Constants, Layout, Page
from sheetgen.layout.place import place
from sheetgen.layout.resolve import builtin_ids, is_builtin_ref, load_layout_file, locate, resolve
from sheetgen.layout.spec import LAYOUT, whole_constants
from sheetgen.schema import INVALID, Ctx, Where, did_you_mean
from sheetgen.srctree import tree_hash

_CACHE: dict = {}


def read_layout(ref: str, relative_to: Path | None = None) -> Layout:
    """A Layout checked as a layout (its keys, names, places and print), from a built-in id or
    a path (relative to `relative_to`'s folder); `-` reads it from standard input (its
    `extends` paths relative to the current folder). Whether its `game:` is one sheetgen
    has is the games registry's to say: sheetgen.games.load_layout reads a layout and
    checks that too, and is what the rest of sheetgen calls."""
    if ref == "-":
        return _load_stdin()
    path = locate(ref, relative_to)
    if path is None:
        if is_builtin_ref(ref):
            hint = did_you_mean(ref, builtin_ids()) or f"; built-in layouts: {', '.join(builtin_ids())}"
            raise LayoutError(f"no built-in layout '{ref}'{hint}")
        raise LayoutError(Problem("no such file", ref))
    # by the path as given too: the layout and its problems name the file as the caller wrote it
    key = (path.resolve(), str(path))
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


def build_layout(raw: dict, source: str) -> Layout:
    """Validate a resolved layout tree into a Layout, or raise every problem at once."""
    ctx = Ctx()
    ctx.constants = whole_constants(raw)
    data = LAYOUT.check(raw, ctx, Where(raw, None, ""))
    if data is INVALID:
        raise LayoutError(ctx.errors)
    ids = check_ids(data, raw, ctx)
    w, h = data["sheet"]["width"], data["sheet"]["height"]
    placement = place(data["pages"], ctx, (w, h))
    if ctx.errors:
        raise LayoutError(ctx.errors)
    problems, full = check_places(data["pages"], w, h, placement, getattr(raw, "file", source), data["scan_marks"])
    ctx.errors += problems
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
    _check_print_once(layout, raw, full, ctx)
    if ctx.errors:
        raise LayoutError(ctx.errors)
    return layout


def _check_print_once(layout: Layout, raw: dict, full: set, ctx: Ctx) -> None:
    """printcheck.check_print (`full`: what left a full page, see geometry.check_places),
    which builds every page in both languages at both player counts (~70% of loading a
    layout), unless this very tree already passed it with this very code: the user cache
    (sheetgen.cache) remembers the trees that did, by the hash of the resolved tree and of
    sheetgen's code and fonts. Only a pass is remembered."""
    from sheetgen import cache

    key = cache.key("layout-ok", layout.digest, cache.code_stamp())
    if not ctx.errors and cache.get("layout-ok", key) is True:
        return
    printcheck.check_print(layout, raw, full, ctx)
    if not ctx.errors:
        cache.put("layout-ok", key, True)


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


def _unverified(data: dict) -> list[str]:
    """Key paths of the values marked `verified: false`: constants, elements, and the items
    of an element's lists that may say it (its type's `verified_items`)."""
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
