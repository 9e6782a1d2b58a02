"""The blank page a photo is compared with: the page's display list drawn at PPMM pixels a
millimetre (kept for the next photo of the same page), a box's inside, and the grid cells
whose ink is read by its colour.
"""

from __future__ import annotations

from sheetgen.scan.tuning import INSIDE

PPMM = 8.0  # pixels per millimetre of the rectified page (~200 dpi)


_BLANKS: dict = {}


def _kept(key, make):
    """What `make()` gives for `key`, kept for the next photo (some 24 pages' PDFs and drawings)."""
    if key not in _BLANKS:
        _BLANKS.clear() if len(_BLANKS) > 48 else None
        _BLANKS[key] = make()
    return _BLANKS[key]


def blank_page(layout, page_id: str, players: int, lang: str, grey: bool = False):
    """(page display, the blank page's grey levels at PPMM), rendered from the display
    list; `grey`: as printed toner-saving (`render --grey`)."""
    key = (layout.id, layout.digest, page_id, players, lang, grey)
    return _kept(key, lambda: _render_blank(layout, page_id, players, lang, grey, colour=False))


def blank_colours(layout, page_id: str, players: int, lang: str, grey: bool = False):
    """The blank page's colours (RGB) at PPMM, as `blank_page`'s grey levels (drawn alike)."""
    key = (layout.id, layout.digest, page_id, players, lang, grey, "rgb")
    return _kept(key, lambda: _render_blank(layout, page_id, players, lang, grey, colour=True)[1])


def _printed(layout, page_id: str, players: int, lang: str, grey: bool):
    """(page display, its PDF on A4, where the page sits on it): made once for both drawings."""
    from sheetgen.render.pdf import pdf_bytes, placement

    def make():
        doc = layout.document(lang, players, [page_id], scan_marks=True)
        return doc.pages[0], pdf_bytes(doc, paper="a4", grey=grey), placement(doc.pages[0], "a4")

    return _kept((layout.id, layout.digest, page_id, players, lang, grey, "pdf"), make)


def _render_blank(layout, page_id: str, players: int, lang: str, grey: bool, colour: bool):
    import numpy as np
    import pypdfium2

    page, data, at = _printed(layout, page_id, players, lang, grey)
    pdf = pypdfium2.PdfDocument(data)
    try:
        scale = PPMM * 25.4 / 72
        drawn = pdf[0].render(scale=scale, grayscale=not colour).to_pil()
        img = np.asarray(drawn.convert("RGB" if colour else "L"))
    finally:
        pdf.close()
    x0, y0 = round(at.left * PPMM), round(at.top * PPMM)
    w, h = round(layout.width * PPMM), round(layout.height * PPMM)
    return page, img[y0 : y0 + h, x0 : x0 + w]


def inside(box) -> tuple:
    """(x, y, w, h) in mm of the part of a box a mark is looked for in: its border left out."""
    # (a board-copy cell touches its neighbours: only its middle, see `tuning.Inside`)
    inset = {"check": INSIDE.check, "round": INSIDE.round, "mini": INSIDE.mini * min(box.w, box.h)}.get(
        box.kind, max(INSIDE.least, INSIDE.other * min(box.w, box.h))
    )
    return box.x + inset, box.y + inset, box.w - 2 * inset, box.h - 2 * inset


def grid_cells(layout, page_id: str) -> set:
    """The fields of the page's grid cells (its element types' `cells`: Harvest Dice's
    garden): a cell is read as filled or empty, and what it holds from the ink's colour."""
    from sheetgen.layout.elements import TYPES

    return {f for el in layout.page(page_id).elements for f in TYPES[el["type"]].cells(el)}
