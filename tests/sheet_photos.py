"""Photos of played sheets for the table server's tests and bench: the sheet rendered as
printed (its scan marks and QR code), clear pencil crosses drawn into chosen boxes with the
display list's geometry, cells coloured in, a short stroke in a box's corner (a stroke run
on from the next box: the reader leaves such a box unsure), then the picture turned a
little and blurred as a phone's is.

Nothing here reads a photo: what each box shows is what the caller asked for."""

from __future__ import annotations

import io

PENCIL = (62, 62, 72)
INK = (30, 40, 120)  # a number written in pen
LIGHT_PENCIL = (120, 120, 126)  # a thin stroke in a box's corner: unsure
GREY_PENCIL = (95, 95, 100)  # a cell filled in no dice's colour: the reader leaves it '?'
COLOURS = {"C": (235, 120, 20), "S": (40, 150, 50), "T": (210, 30, 30)}  # the dice's colour pencils
TABLE = (228, 224, 214)  # what shows round the paper


def sheet_photo(
    layout_id: str,
    page_id: str | None = None,
    *,
    crosses=(),
    unsure=(),
    cells: dict | None = None,
    written: dict | None = None,
    players: int | None = None,
    lang: str = "en",
    dpi: float = 150,
    angle: float = 1.5,
    blur: float = 0.7,
    canvas: tuple | None = None,
    fmt: str = "JPEG",
) -> bytes:
    """A photo of one page of `layout_id` (its first page by default): `crosses` (box field
    names) crossed, `unsure` given a short stroke in a corner, `cells` {field: letter, or
    '?' for grey pencil} filled in, `written` {field: text} written in its box (in pen, a
    plain upright hand); the whole A4 paper at `dpi`, turned by `angle` degrees,
    blurred by `blur` pixels, on a table of `canvas` (width, height) pixels when given."""
    import pypdfium2
    from PIL import Image, ImageDraw, ImageFilter

    from sheetgen import api
    from sheetgen.render.pdf import pdf_bytes, placement

    layout = api.load(layout_id)
    page_id = page_id or layout.pages[0].id
    doc = layout.document(lang, players, [page_id])
    pdf = pypdfium2.PdfDocument(pdf_bytes(doc, paper="a4"))
    try:
        img = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    at = placement(doc.pages[0], "a4")
    k = dpi / 25.4
    boxes = {b.field: b for b in doc.pages[0].boxes()}
    draw = ImageDraw.Draw(img)

    def inner(field: str, inset: float) -> tuple:
        b = boxes[field]
        return (
            (at.left + b.x + inset) * k,
            (at.top + b.y + inset) * k,
            (at.left + b.x + b.w - inset) * k,
            (at.top + b.y + b.h - inset) * k,
        )

    width = max(2, round(0.5 * k))
    for field in crosses:
        x0, y0, x1, y1 = inner(field, 1.3)
        draw.line((x0, y0, x1, y1), fill=PENCIL, width=width)
        draw.line((x0, y1, x1, y0), fill=PENCIL, width=width)
    for field in unsure:
        x0, y0, x1, y1 = inner(field, 1.2)
        stroke = (x0, y0, x0 + (x1 - x0) * 0.3, y0 + (y1 - y0) * 0.3)
        draw.line(stroke, fill=LIGHT_PENCIL, width=max(1, round(0.3 * k)))
    for field, letter in (cells or {}).items():
        x0, y0, x1, y1 = inner(field, 2.0)
        colour = COLOURS.get(letter, GREY_PENCIL)
        for i in range(8):
            y = y0 + (y1 - y0) * i / 7
            draw.line((x0, y, x1, y), fill=colour, width=max(2, round(0.6 * k)))
    for field, text in (written or {}).items():
        from PIL import ImageFont

        from sheetgen.fileio import data_folder

        x0, y0, x1, y1 = inner(field, 0.0)
        face = data_folder("sheetgen.fonts", "fonts") / "DejaVuSans.ttf"
        font = ImageFont.truetype(str(face), round(0.6 * (y1 - y0)))
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, fill=INK, font=font, anchor="mm")
    img = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=TABLE)
    if canvas is not None:
        table = Image.new("RGB", canvas, TABLE)
        table.paste(img, ((canvas[0] - img.width) // 2, (canvas[1] - img.height) // 2))
        img = table
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    out = io.BytesIO()
    img.save(out, fmt, **({"quality": 88} if fmt == "JPEG" else {}))
    return out.getvalue()
