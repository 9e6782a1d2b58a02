"""The printed page the photo generators start from: the page as sheetgen renders it (a PDF on
A4 and where the sheet sits on it, or the whole paper drawn by pdfium), and poppler's raster of
that PDF (`pdftoppm`, from poppler-utils). Only the clean page is shared: every generator marks
and photographs it its own way."""

from __future__ import annotations

import subprocess
import tempfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
from PIL import Image

from sheetgen.render.pdf import pdf_bytes, placement

_PDF: dict = {}


def blank_paper(layout, page_id: str, dpi: float, lang: str = "en", players: int | None = None):
    """The whole A4 paper with the sheet on it, RGB at `dpi` (drawn by pdfium), the sheet's
    display list, and the sheet's top-left on the paper (px)."""
    import pypdfium2

    doc = layout.document(lang, players, [page_id])
    pdf = pypdfium2.PdfDocument(pdf_bytes(doc, paper="a4"))
    try:
        img = np.asarray(pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")).copy()
    finally:
        pdf.close()
    at = placement(doc.pages[0], "a4")
    return img, doc.pages[0], (at.left * dpi / 25.4, at.top * dpi / 25.4)


def page_pdf(layout, page_id: str, lang: str, players):
    """(the page's PDF on A4, its placement there, its boxes), kept for the next photo of the page."""
    key = (layout.id, layout.digest, page_id, lang, players)
    if key not in _PDF:
        doc = layout.document(lang, players, [page_id])
        page = doc.pages[0]
        _PDF[key] = (pdf_bytes(doc, paper="a4"), placement(page, "a4"), page.boxes())
    return _PDF[key]


def random_page(layout, page_id: str, rng, french: float):
    """(lang, players, then `page_pdf`'s three) for a photo: French at the odds `french`, a
    player count drawn from the layout's range when it has one."""
    lang = "fr" if rng.random() < french else "en"
    pl = layout.players
    players = int(rng.integers(pl["min"], pl["max"] + 1)) if pl["min"] < pl["max"] else None
    return (lang, players, *page_pdf(layout, page_id, lang, players))


_RASTER: OrderedDict = OrderedDict()


def render(pdf: bytes, dpi: int):
    """The A4 page as RGB uint8 at `dpi` (poppler), a few kept."""
    key = (hash(pdf), dpi)
    if key in _RASTER:
        _RASTER.move_to_end(key)
        return _RASTER[key]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "p.pdf"
        src.write_bytes(pdf)
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                str(dpi),
                "-singlefile",
                "-aa",
                "yes",
                "-aaVector",
                "yes",
                str(src),
                str(Path(tmp) / "o"),
            ],
            check=True,
        )
        img = np.asarray(Image.open(Path(tmp) / "o.ppm").convert("RGB")).copy()
    _RASTER[key] = img
    while len(_RASTER) > 4:
        _RASTER.popitem(last=False)
    return img
