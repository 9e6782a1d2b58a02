"""The reportlab backend: draw a document's display lists into a PDF.

Each page of the layout is drawn once into a Form XObject and placed on as many
pages as copies are asked for, so a pad of 1000 sheets costs little more than
one. `invariant=1` makes the output byte-identical for identical input.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import PDFPage
from reportlab.pdfgen.canvas import Canvas

from sheetgen import __version__
from sheetgen import text as fonts
from sheetgen.icons import draw_icon
from sheetgen.layout.display import QR, Box, Circle, Document, Icon, Line, Rect, Text, field_name
from sheetgen.paper import PAPERS

PT = 72 / 25.4


@cache
def _color(hexstr: str):
    return HexColor(hexstr)


@dataclass(frozen=True)
class Placement:
    """Where the sheet sits on the paper: its top-left corner, in mm from the paper's."""

    paper_h: float
    left: float
    top: float

    def x(self, v: float) -> float:
        return (self.left + v) * mm

    def y(self, v: float) -> float:
        """PDF y (points, up) of a layout y (mm, down)."""
        return (self.paper_h - self.top - v) * mm


def _stroke_fill(c: Canvas, stroke, fill, width):
    if stroke:
        c.setStrokeColor(_color(stroke))
        c.setLineWidth(width)
    if fill:
        c.setFillColor(_color(fill))
    return (1 if stroke else 0), (1 if fill else 0)


def draw_text(c: Canvas, t: Text, at: Placement) -> None:
    fit = fonts.fit_text(t.text, t.font, t.size, t.w * PT, t.h * PT, t.wrap, t.min_size)
    size, lead, n = fit.size, fit.leading, len(fit.lines)
    block = size + (n - 1) * lead
    top = t.y * PT
    if t.valign == "middle":
        top += (t.h * PT - block) / 2
    elif t.valign == "bottom":
        top += t.h * PT - block
    c.setFont(fonts.font_name(t.font), size)
    c.setFillColor(_color(t.color))
    for i, line in enumerate(fit.lines):
        base = at.y(0) - top - size * 0.76 - i * lead
        if t.align == "center":
            c.drawCentredString(at.x(t.x + t.w / 2), base, line)
        elif t.align == "right":
            c.drawRightString(at.x(t.x + t.w), base, line)
        else:
            c.drawString(at.x(t.x), base, line)


def draw_prims(c: Canvas, prims: list, at: Placement) -> None:
    for p in prims:
        if isinstance(p, Text):
            draw_text(c, p, at)
        elif isinstance(p, Box):
            x, y, w, h = at.x(p.x), at.y(p.y + p.h), p.w * mm, p.h * mm
            if p.kind == "round":
                s, f = _stroke_fill(c, p.stroke, p.fill, 0.9)
                c.circle(x + w / 2, y + h / 2, min(w, h) / 2 - 0.4 * mm, stroke=s, fill=f)
                continue
            width = {"check": 0.9, "write": 0.6, "mini": 0.35}[p.kind]
            s, f = _stroke_fill(c, p.stroke, p.fill, width)
            if p.kind == "check":
                inset = 0.45 * mm
                c.roundRect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, 1.0 * mm, stroke=s, fill=f)
                if p.checked:
                    c.setStrokeColor(_color("#555555"))
                    c.setLineWidth(1.4)
                    k = 1.9 * mm
                    c.line(x + k, y + k, x + w - k, y + h - k)
                    c.line(x + k, y + h - k, x + w - k, y + k)
            else:
                c.rect(x, y, w, h, stroke=s, fill=f)
        elif isinstance(p, Rect):
            s, f = _stroke_fill(c, p.stroke, p.fill, p.width)
            if p.dash:
                c.setDash(*p.dash)
            x, y, w, h = at.x(p.x), at.y(p.y + p.h), p.w * mm, p.h * mm
            if p.radius:
                c.roundRect(x, y, w, h, p.radius * mm, stroke=s, fill=f)
            else:
                c.rect(x, y, w, h, stroke=s, fill=f)
            if p.dash:
                c.setDash()
        elif isinstance(p, Icon):
            draw_icon(c, p.name, at.x(p.x), at.y(p.y + p.size), p.size * mm, p.color)
        elif isinstance(p, Line):
            c.setStrokeColor(_color(p.stroke))
            c.setLineWidth(p.width)
            if p.dash:
                c.setDash(*p.dash)
            c.line(at.x(p.x1), at.y(p.y1), at.x(p.x2), at.y(p.y2))
            if p.dash:
                c.setDash()
        elif isinstance(p, Circle):
            s, f = _stroke_fill(c, p.stroke, p.fill, p.width)
            c.circle(at.x(p.x), at.y(p.y), p.r * mm, stroke=s, fill=f)
        elif isinstance(p, QR):
            draw_qr(c, p, at)


def draw_qr(c: Canvas, q: QR, at: Placement) -> None:
    """A QR code as black squares (reportlab's encoder), a 1-module quiet zone inside `size`
    (the sheet keeps white room around it); low error correction, for the largest modules."""
    from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

    code = QRCode(None, QRErrorCorrectLevel.L)
    code.addData(q.data)
    code.make()
    n = code.getModuleCount()
    cell = q.size * mm / (n + 2)
    left, top = at.x(q.x) + cell, at.y(q.y) - cell
    c.setFillColor(_color("#000000"))
    path = c.beginPath()
    for r in range(n):
        for col in range(n):
            if code.isDark(r, col):
                path.rect(left + col * cell, top - (r + 1) * cell, cell * 1.01, cell * 1.01)
    c.drawPath(path, stroke=0, fill=1)


def placement(sheet, paper: str) -> Placement:
    """Where a sheet (anything with a width and height in mm) sits, centred on the paper."""
    pw, ph = PAPERS[paper]
    return Placement(ph, (pw - sheet.width) / 2, (ph - sheet.height) / 2)


FIELD_FONT = "Helvetica"  # AcroForm text fields need one of the 14 standard fonts


def add_fields(c: Canvas, boxes: list, at: Placement, copy: int) -> None:
    """Form fields over the page's markable boxes: check boxes for boxes to tick, text
    fields for boxes to write in, named from the boxes' ids so a filled PDF reads back."""
    form = c.acroForm
    for p in boxes:
        name = field_name(p.field, copy)
        x, y, w, h = at.x(p.x), at.y(p.y + p.h), p.w * mm, p.h * mm
        if p.kind in ("check", "round", "mini"):
            size = min(w, h) - (0.9 * mm if p.kind == "check" else 0)
            form.checkbox(
                name=name,
                x=x + (w - size) / 2,
                y=y + (h - size) / 2,
                size=size,
                checked=False,
                buttonStyle="cross",
                borderWidth=0,
                fillColor=None,
                borderColor=None,
                textColor=_color("#333333"),
                fieldFlags="",
                annotationFlags="print",
                tooltip=p.field,
            )
        else:
            form.textfield(
                name=name,
                x=x + 0.5,
                y=y + 0.5,
                width=w - 1,
                height=h - 1,
                value="",
                borderWidth=0,
                fillColor=None,
                borderColor=None,
                textColor=_color("#1a1a1a"),
                fieldFlags="",
                annotationFlags="print",
                tooltip=p.field,
                fontName=FIELD_FONT,
                fontSize=min(14, max(6, h * 0.55)),
                maxlen=200,
            )


def pdf_bytes(doc: Document, *, paper: str = "a4", copies: int = 1, fillable: bool = False) -> bytes:
    """The PDF bytes of `copies` sets of the document's pages.

    With `fillable`, every box a player marks is also a form field (see add_fields);
    each copy then gets its own fields, so each page is drawn on its own."""
    pw, ph = PAPERS[paper]
    buf = io.BytesIO()
    # initialFontName: reportlab otherwise declares Helvetica (not embedded) on every
    # page, which print preflight checks flag; use a bundled font instead.
    c = Canvas(
        buf, pagesize=(pw * mm, ph * mm), invariant=1, pageCompression=1, initialFontName=fonts.font_name("sans")
    )
    c.setTitle(doc.title)
    c.setSubject(doc.layout_id)
    c.setCreator(f"sheetgen {__version__}")
    c.setAuthor("sheetgen")
    c.setKeywords(f"{doc.game} lang={doc.lang} paper={paper} pages={','.join(p.id for p in doc.pages)}")
    names = []
    for page in doc.pages:
        name = f"sheet_{page.id}"
        c.beginForm(name, 0, 0, pw * mm, ph * mm)
        draw_prims(c, page.prims, placement(page, paper))
        c.endForm()
        names.append(name)
    for copy in range(1, (copies if fillable else 1) + 1):
        for name, page in zip(names, doc.pages):
            c.doForm(name)
            if fillable:
                add_fields(c, page.boxes(), placement(page, paper), copy)
            c.showPage()
    if copies > 1 and not fillable:
        _repeat_pages(c, names, copies - 1)
    c.save()
    return buf.getvalue()


def _repeat_pages(c: Canvas, names: list[str], extra: int) -> None:
    """Append `extra` more copies of the last pages, one per form in `names`.

    The copies share the first copy's content stream and resource dictionary
    (one indirect object each), so every extra page is only a small page
    dictionary: ~0.15 KiB instead of ~0.45 KiB for a redrawn `doForm` page, and
    a 1000-copy pad is formatted ~2x faster. Pages with annotations (form
    fields, links) are drawn the plain way, since those must differ per page.
    """
    doc = c._doc
    firsts = doc.Pages.pages[-len(names) :]
    if any(page.Annots for page in firsts):
        for _ in range(extra):
            for name in names:
                c.doForm(name)
                c.showPage()
        return
    for page in firsts:
        page.check_format(doc)  # builds its content stream and resources now, once
        page.Resources = doc.Reference(page.Resources)
    for _ in range(extra):
        for first in firsts:
            page = PDFPage()
            page.pagewidth, page.pageheight = first.pagewidth, first.pageheight
            page.MediaBox, page.Contents, page.Resources = first.MediaBox, first.Contents, first.Resources
            page.Parent = first.Parent
            if first.Rotate:
                page.Rotate = first.Rotate
            doc.addPage(page)
