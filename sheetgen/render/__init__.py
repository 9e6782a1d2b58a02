"""Backends over the display list (sheetgen.layout.display): PDF, and PNG from it.

A backend draws a `Document` (the pages' display lists); it never reads a
layout. `render_pdf` is the one-call convenience: build the document of a
layout, then draw it.
"""

from __future__ import annotations


def render_pdf(
    layout,
    *,
    lang: str = "en",
    paper: str = "a4",
    copies: int = 1,
    players: int | None = None,
    pages: list[str] | None = None,
    fillable: bool = False,
    scan_marks: bool = True,
    **options,
) -> bytes:
    """The PDF bytes of `copies` sets of the layout's pages (all, or those named);
    a scannable layout's pages carry their scan marks unless `scan_marks` is False;
    `options` are pdf_bytes' (per_page, duplex, flip, marks, grey, progress)."""
    from sheetgen.render.pdf import pdf_bytes

    doc = layout.document(lang, players, pages, scan_marks=scan_marks)
    return pdf_bytes(doc, paper=paper, copies=copies, fillable=fillable, **options)
