"""Backends over the display list (sheetgen.layout.display): PDF today.

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
    progress=None,
) -> bytes:
    """The PDF bytes of `copies` sets of the layout's pages (all, or those named);
    `progress`: see sheetgen.render.pdf.pdf_bytes."""
    from sheetgen.render.pdf import pdf_bytes

    return pdf_bytes(
        layout.document(lang, players, pages), paper=paper, copies=copies, fillable=fillable, progress=progress
    )
