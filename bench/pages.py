"""The printed page the bench's photo generators start from (bench/gen_fourth.py, gen_fifth.py,
gen_seventh.py, gen_eighth.py)."""

from __future__ import annotations

import subprocess
import tempfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
from PIL import Image

from sheetgen.render.pdf import pdf_bytes, placement

_PDF: dict = {}


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
