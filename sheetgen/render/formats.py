"""The output formats of `render`, in one registry: each draws a `Document` (the display
lists of a layout's pages) into the files' bytes, and says where the files go.

- `pdf`: the print-ready PDF (render/pdf.py): copies, several sheets a page, duplex,
  fillable, grey.
- `png`: that PDF rasterised, a picture a page (render/png.py): it is the PDF itself.
- `svg`: each page of the sheet as SVG (render/svg.py: the drawing `sheetgen serve` shows),
  one file a page, at the sheet's size: no paper, copies or imposition.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sheetgen.values import valueclass


@valueclass
class Format:
    """An output format: its name (`--format`), the file suffix, `draw(doc, pdf_options,
    dpi, progress) -> [bytes, ...]` (one file's bytes each), whether it takes the PDF's
    options of paper (copies, imposition, fillable, grey), and the progress units a page."""

    name: str
    suffix: str
    draw: Callable
    paged: bool  # takes copies, --per-page, --duplex, --fillable, --grey
    work: int  # progress units per printed side


def _pdf(doc, pdf_options: dict, dpi: int, progress) -> list[bytes]:
    from sheetgen.render.pdf import pdf_bytes

    return [pdf_bytes(doc, progress=progress, **pdf_options)]


def _png(doc, pdf_options: dict, dpi: int, progress) -> list[bytes]:
    from sheetgen.render.pdf import pdf_bytes
    from sheetgen.render.png import png_pages

    data = pdf_bytes(doc, progress=progress, **pdf_options)
    sides = len(pdf_options.get("sides") or ())
    return png_pages(data, dpi, pdf_options.get("grey", False), progress=progress and (lambda k: progress(sides + k)))


def _svg(doc, pdf_options: dict, dpi: int, progress) -> list[bytes]:
    from sheetgen.render.svg import standalone_svg

    return [standalone_svg(page).encode("utf-8") for page in doc.pages]


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("pdf", ".pdf", _pdf, True, 1),
        Format("png", ".png", _png, True, 2),
        Format("svg", ".svg", _svg, False, 1),
    )
}


def file_paths(output: str, suffix: str, count: int) -> list[str]:
    """Where `count` files go: `output` itself for one, else `NAME-1.png`, `NAME-2.png`..."""
    if count == 1:
        return [output]
    path = Path(output)
    stem, ext = (path.stem, path.suffix) if path.suffix.lower() == suffix else (path.name, suffix)
    return [str(path.with_name(f"{stem}-{n}{ext}")) for n in range(1, count + 1)]
