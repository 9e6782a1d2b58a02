"""PNG output: our own PDF rasterised (pypdfium2), each page written by Pillow.

Rasterising the PDF, rather than drawing the display list a second time with
Pillow, makes the picture the PDF itself: the same fonts (TrueType hinting and
kerning as reportlab embeds them), the same vector icons, the same imposition,
grey mapping and cut marks, with no second backend to keep in step.
"""

from __future__ import annotations

import io
import math

DEFAULT_DPI = 150
MAX_PIXELS = 80_000_000  # per page (Legal at 600 dpi is ~40 million)


def png_pages(pdf: bytes, dpi: int = DEFAULT_DPI, grey: bool = False, progress=None) -> list[bytes]:
    """One PNG per page of `pdf` at `dpi` (greyscale PNGs when `grey`)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for n in range(len(doc)):
            page = doc[n]
            try:
                image = page.render(scale=dpi / 72, grayscale=grey).to_pil()
            finally:
                page.close()
            if grey and image.mode != "L":
                image = image.convert("L")
            buf = io.BytesIO()
            image.save(buf, "PNG", dpi=(dpi, dpi), optimize=False)
            out.append(buf.getvalue())
            if progress:
                progress(n + 1)
    finally:
        doc.close()
    return out


def pixels(paper_mm: tuple[float, float], dpi: int) -> tuple[int, int]:
    """The size in pixels of a page of `paper_mm` (width, height) at `dpi`: rounded up
    to whole pixels, as pdfium renders it."""
    return tuple(math.ceil(round(v / 25.4 * dpi, 6)) for v in paper_mm)
