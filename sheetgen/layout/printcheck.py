"""What a layout prints, checked page by page in both languages with the fewest and the
most players: each element's own check (its type's `check`, its labels' placeholders),
then its display list (glyphs the font has, text that fits and is big enough to read,
boxes big enough to mark), then the room for the house note. It builds every page, so it
is the costly part of loading a layout (sheetgen.layout.load remembers the layouts that
passed it).
"""

from __future__ import annotations

from sheetgen.layout import elements as E
from sheetgen.layout.blame import own_cause, player_causes, report, text_cause
from sheetgen.layout.display import HOUSE_MARK, MIN_BOX, MIN_HINT, MIN_TEXT, Box, Text
from sheetgen.layout.geometry import fmt
from sheetgen.layout.housenote import NOTE_FONT, note_width, taken_by
from sheetgen.layout.model import Layout, Page
from sheetgen.schema import Ctx
from sheetgen.values import valueclass

MIN_MINI_BOX = 3.5  # mm: cells of a small copy of a board (dots, not numbers)


@valueclass(frozen=False)
class _Check:
    """What checking one layout's print carries from page to page."""

    layout: Layout
    raw: dict  # its resolved tree
    ctx: Ctx
    root: str  # the layout's own file (blame)
    counts: list  # the player counts it is checked with: the fewest and the most
    causes: dict  # player count -> (file, line, key path) of the key that set it (blame.player_causes)
    seen: set  # the problems reported, each once


def check_print(layout: Layout, raw: dict, full: set, ctx: Ctx) -> None:
    """Check every element as placed, in both languages and with the fewest and the most
    players; then, on a page printing house values, the room for the note, unless the
    page holds an element of `full` (one that left the page because it is full: that
    problem says more). Problems go to `ctx`."""
    run = _Check(
        layout,
        raw,
        ctx,
        getattr(raw, "file", layout.source),
        sorted({layout.players["min"], layout.players["max"]}),
        player_causes(raw),
        set(),
    )
    raw_pages = raw.get("pages") if isinstance(raw.get("pages"), list) else []
    for n, page in enumerate(layout.pages):
        for lang in E.LANGS:
            for players in run.counts:
                taken, marked = _check_page(run, page, lang, players)
                if marked and not any(el["id"] in full for el in page.elements):  # the full page says it
                    node = raw_pages[n] if n < len(raw_pages) else raw
                    _check_house_note(run, page, lang, taken, node, f"pages[{n}]")


def _check_page(run: _Check, page: Page, lang: str, players: int) -> tuple[list, bool]:
    """Each element of the page: first its own check (E.check), then, if it can be built,
    the text and boxes of its display list. (What the elements cover, see
    housenote.taken_by; whether they print a house value.)"""
    layout = run.layout
    marked = False
    taken = layout.scan_taken()
    for el in page.elements:
        labels, refused = E.check(el, layout.env(lang, players))
        for path, message in labels + refused:
            report(run.ctx, el, path, message, run.seen, own_cause(el, path, run.root))
        if refused:  # it cannot be drawn as written: its place only
            taken.append(taken_by(el, []))
            continue
        env = layout.env(lang, players)
        prims = E.build(el, env)
        taken.append(taken_by(el, prims))
        marked = marked or bool(env.marks)
        for prim in prims:
            if isinstance(prim, Text):
                _check_text(run, el, prim, lang, players)
            elif isinstance(prim, Box):
                _check_box(run, el, prim, players)
    return taken, marked


def _check_text(run: _Check, el: dict, prim: Text, lang: str, players: int) -> None:
    """A text of an element's display list: glyphs the font has, a size a player reads, and
    room enough for it."""
    from sheetgen import text as fonts

    missing = fonts.missing_glyphs(prim.text, prim.font)
    if missing:
        cause = text_cause(el, prim.path, lang, run.raw, run.layout.by_id, run.root)
        report(run.ctx, el, prim.path, f"the font has no glyph for {missing!r} ({lang})", run.seen, cause)
        return
    if prim.size < prim.min_size - 1e-9:
        key = E.TYPES[el["type"]].size_key  # where the size is set
        own = key is not None and key in el["_node"]
        report(run.ctx, el, f"{el['_path']}.{key}" if own else prim.path, _too_small(prim.size, prim.hint), run.seen)
        return
    w, h = prim.w * 72 / 25.4, prim.h * 72 / 25.4  # pt
    fit = fonts.fit_text(prim.text, prim.font, prim.size, w, h, prim.wrap, prim.min_size)
    if not fit.fits:
        who = f" with {players} players" if len(run.counts) > 1 else ""
        report(
            run.ctx,
            el,
            prim.path,
            f"text does not fit in {fmt(prim.w)} x {fmt(prim.h)}mm{who} ({lang}): {_quoted(prim.text)}",
            run.seen,
            (run.causes.get(players) if who else None)
            or text_cause(el, prim.path, lang, run.raw, run.layout.by_id, run.root),
        )


def _check_box(run: _Check, el: dict, prim: Box, players: int) -> None:
    """A box of an element's display list: big enough to mark."""
    least = MIN_MINI_BOX if prim.kind == "mini" else MIN_BOX
    if min(prim.w, prim.h) < least - 0.01:
        who = f" with {players} players" if len(run.counts) > 1 else ""
        report(
            run.ctx,
            el,
            "",
            f"boxes of {fmt(prim.w)} x {fmt(prim.h)}mm{who} are too small to mark; at least {fmt(least)}mm",
            run.seen,
            (run.causes.get(players) if who else None) or own_cause(el, "", run.root),
        )


def _too_small(size: float, hint: bool) -> str:
    if hint:
        return f"a hint of {fmt(size)}pt is too small to read; at least {fmt(MIN_HINT)}pt"
    return (
        f"text of {fmt(size)}pt is too small to read; at least {fmt(MIN_TEXT)}pt "
        f"(only a hint inside a box, style: hint, may go down to {fmt(MIN_HINT)}pt)"
    )


def _quoted(text: str, most: int = 80) -> str:
    """A label quoted in a message, cut to `most` characters (a label may be 2,000)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def _check_house_note(run: _Check, page: Page, lang: str, taken: list, node, path: str) -> None:
    """A page that prints a house value needs room for the house note (`taken`: what its
    elements cover, see housenote.taken_by); `node` and `path`: the page's, in the tree."""
    from sheetgen import text as fonts

    layout = run.layout
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
            f"line of {fmt(note_width(text, size))} x {fmt(line_h)}mm or 2-3 shorter lines); {room}"
        )
    else:
        return
    line = f"{getattr(node, 'file', layout.source)}:{getattr(node, 'line', 0)}: {path}: {message}"
    if line not in run.seen:
        run.seen.add(line)
        run.ctx.errors.append(line)
