"""The reportlab backend: draw a document's display lists into a PDF.

Each page of the layout is drawn once into a Form XObject and placed on as many
pages as copies are asked for, so a pad of 1000 sheets costs little more than
one. `invariant=1` makes the output byte-identical for identical input.
"""

from __future__ import annotations

import io
from functools import cache

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFObject, PDFObjectReference, PDFPage, PDFString
from reportlab.pdfgen.canvas import Canvas

from sheetgen import __version__
from sheetgen import text as fonts
from sheetgen.icons import draw_icon
from sheetgen.layout.display import (
    CHECK_INSET,
    QR,
    ROUND_INSET,
    Box,
    Circle,
    Document,
    Icon,
    Line,
    Rect,
    Text,
    drawn,
    field_name,
)
from sheetgen.paper import PAPERS
from sheetgen.values import valueclass

PT = 72 / 25.4


def _fast_pdfdoc_encoding() -> None:
    """Make reportlab's pdfdoc.pdfdocEnc quick for plain ASCII text, giving the same bytes.

    reportlab encodes each page's and form's content stream (some 100-300 KB for a sheet)
    with its `extpdfdoc` charmap codec, a dictionary look-up per character: ~15-40 ms a
    sheet. The operators sheetgen writes are ASCII, which that encoding maps to the same
    bytes (but for control characters 0x18-0x1f, which it lacks); such text is encoded as
    ASCII, anything else by reportlab's own function, errors included. Checked here on
    every ASCII character against the installed reportlab, else left alone."""
    import re

    from reportlab.pdfbase import pdfdoc

    slow = pdfdoc.pdfdocEnc
    if getattr(slow, "sheetgen_fast", False):
        return
    lacking = re.compile("[\x18-\x1f]")
    sample = "".join(chr(i) for i in range(128) if not lacking.match(chr(i)))
    try:
        if slow(sample) != sample.encode("ascii"):
            return
    except (UnicodeError, LookupError):
        return

    def pdfdoc_enc(x):
        if isinstance(x, str) and x.isascii() and not lacking.search(x):
            return x.encode("ascii")
        return slow(x)

    pdfdoc_enc.sheetgen_fast = True
    pdfdoc_enc.reportlab_own = slow
    pdfdoc.pdfdocEnc = pdfdoc_enc


_fast_pdfdoc_encoding()


@cache
def _color(hexstr: str):
    return HexColor(hexstr)


@valueclass
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
            if not p.stroke and not p.fill:
                continue  # a markable area over printed art (a ladder step): nothing to draw
            if p.kind == "round":
                s, f = _stroke_fill(c, p.stroke, p.fill, 0.9)
                c.circle(x + w / 2, y + h / 2, min(w, h) / 2 - ROUND_INSET * mm, stroke=s, fill=f)
                continue
            width = {"check": 0.9, "write": 0.6, "mini": 0.35}[p.kind]
            s, f = _stroke_fill(c, p.stroke, p.fill, width)
            if p.kind == "check":
                inset = CHECK_INSET * mm
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
            draw_icon(c, p.name, at.x(p.x), at.y(p.y + p.size), p.size * mm, p.color, p.tint)
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
    rows = qr_modules(q.data)
    n = len(rows)
    cell = q.size * mm / (n + 2)
    left, top = at.x(q.x) + cell, at.y(q.y) - cell
    c.setFillColor(_color("#000000"))
    path = c.beginPath()
    for r, row in enumerate(rows):
        for col, dark in enumerate(row):
            if dark == "1":
                path.rect(left + col * cell, top - (r + 1) * cell, cell * 1.01, cell * 1.01)
    c.drawPath(path, stroke=0, fill=1)


@cache
def qr_modules(data: str) -> tuple[str, ...]:
    """The QR code of `data` (error correction L) as rows of "0"/"1" (1 = dark), from
    reportlab's encoder. Importing the encoder imports reportlab.graphics.barcode's
    widgets, platypus and its regular expressions (~0.1 s), and choosing the mask costs
    ~30 ms: the rows are kept in the user cache (sheetgen.cache), keyed by the text and
    reportlab's version, so a later process draws the same code without either."""
    import reportlab

    from sheetgen import cache as user_cache

    key = user_cache.key("qr", reportlab.Version, data)
    got = user_cache.get("qr", key)
    if isinstance(got, tuple) and got and all(isinstance(r, str) and len(r) == len(got) for r in got):
        return got
    from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

    code = QRCode(None, QRErrorCorrectLevel.L)
    code.addData(data)
    code.make()
    n = code.getModuleCount()
    rows = tuple("".join("1" if code.isDark(r, col) else "0" for col in range(n)) for r in range(n))
    user_cache.put("qr", key, rows)
    return rows


def placement(sheet, paper: str) -> Placement:
    """Where a sheet (anything with a width and height in mm) sits, centred on the paper."""
    pw, ph = PAPERS[paper]
    return Placement(ph, (pw - sheet.width) / 2, (ph - sheet.height) / 2)


FIELD_FONT = "Helvetica"  # AcroForm text fields need one of the 14 standard fonts
CHECK_COLOR = "#333333"
TEXT_COLOR = "#1a1a1a"


FIELD_MAX = 12.0  # pt: a text field's font in a roomy box
FIELD_MIN = 6.0  # pt: and in the narrowest
LIST_FONT = 9.0  # pt: a multi-line field's font (several lines of a list)


def field_font(w: float, h: float, multiline: bool = False) -> float:
    """The font size (pt, whole) of a text field `w` x `h` points: as large as the box's
    height allows, and small enough that a narrow box still shows a short name or a
    three-digit number (about five characters); a list's box a fixed size for its lines."""
    if multiline:
        return float(int(min(LIST_FONT, max(FIELD_MIN, h * 0.5))))
    return float(int(min(FIELD_MAX, max(FIELD_MIN, min(h * 0.6, w / 3.3)))))


def add_fields(c: Canvas, boxes: list, at: Placement, copy: int) -> None:
    """Form fields over the page's markable boxes: check boxes for boxes to tick, over the
    square or circle drawn for them (display.drawn), text fields for boxes to write in
    (multi-line for a list, the font sized to the box: field_font), named from the boxes'
    ids so a filled PDF reads back, each with its tooltip: what the box is for, in the
    sheet's language (Box.tip; the name when a box has none).

    Only a field's rectangle, name and tooltip are its own: its appearance streams
    (reportlab's, made once per kind and size) are one indirect object shared by every
    field that looks the same, so a pad of 100 fillable copies stays small and fast."""
    shared = _shared_fields(c)
    page = c._doc.thisPageRef()
    for p in boxes:
        if p.kind in ("check", "round", "mini"):
            bx, by, bw, bh = drawn(p)
            size = min(bw, bh) * mm
            x, y = at.x(bx + bw / 2) - size / 2, at.y(by + bh / 2) - size / 2
            head = shared.checkbox(size)
            rect = (x, y, x + size, y + size)
        else:
            x, y, w, h = at.x(p.x), at.y(p.y + p.h), p.w * mm, p.h * mm
            head = shared.textfield(w - 1, h - 1, field_font(w - 1, h - 1, p.multiline), p.multiline)
            rect = (x + 0.5, y + 0.5, x + w - 0.5, y + h - 0.5)
        widget = _Widget(head, page, rect, field_name(p.field, copy), p.tip or p.field)
        c._addAnnotation(widget)
        c.acroForm.fields.append(c._doc.Reference(widget))


class _SharedFields:
    """The parts of the form fields that many fields share, made once per document:
    each kind and size of field has one appearance dictionary (an indirect object)
    and one run of fixed entries; see _Widget."""

    def __init__(self, c: Canvas):
        self.c, self.form, self.done = c, c.acroForm, {}

    def _ap(self, streams: dict) -> PDFDictionary:
        refs = {}
        for key, value in streams.items():
            if isinstance(value, dict):
                refs[key] = self._ap(value)
            else:
                ref = self.form._refMap.get(value._af_refstr)
                if ref is None:
                    ref = self.form._refMap[value._af_refstr] = self.form.getRef(value)
                refs[key] = ref
        return PDFDictionary(refs)

    def checkbox(self, size: float) -> tuple:
        """(entries before /P, empty value) of a check box `size` points wide
        (as reportlab's acroForm.checkbox draws it: a cross, no border, no fill)."""
        got = self.done.get(("check", size))
        if got is None:
            form, text = self.form, _color(CHECK_COLOR)
            streams = {}
            for key in "NDR":
                tc, bc, fc = form.varyColors(key, text, None, None)
                streams[key] = {
                    v: form.checkboxAP(
                        key,
                        v,
                        buttonStyle="cross",
                        shape="square",
                        fillColor=fc,
                        borderColor=bc,
                        textColor=tc,
                        borderWidth=0,
                        borderStyle="solid",
                        size=size,
                        dashLen=3,
                    )  # fmt: skip
                    for v in ("Yes", "Off")
                }
            ap = self.c._doc.Reference(self._ap(streams))
            got = self.done[("check", size)] = (
                [b"/AP ", ap, b"\n /AS /Off\n /F 4\n /FT /Btn\n /Ff 0\n /H /N\n /MK <<\n/CA (8)\n>>\n /P "],
                b"/Off",
            )
        return got

    def textfield(self, width: float, height: float, font_size: float, multiline: bool = False) -> tuple:
        """The same for a text field (as reportlab's acroForm.textfield draws it, empty);
        `multiline`: its text may hold several lines (the field flag 4096)."""
        got = self.done.get(("text", width, height, font_size, multiline))
        if got is None:
            form, text = self.form, _color(TEXT_COLOR)
            r_font, i_font = form.makeFont(FIELD_FONT)
            tc, bc, fc = form.varyColors("N", text, None, None)
            stream = form.txAP(
                "N", "", i_font, f"<</{i_font} {r_font}>>", font_size, fillColor=fc, borderColor=bc, textColor=tc,
                borderWidth=0, borderStyle="solid", width=width, height=height, dashLen=3,
            )  # fmt: skip
            doc = self.c._doc
            ap = doc.Reference(self._ap({"N": stream}))
            da = PDFString(f"/{i_font} {int(font_size)} Tf {form.streamFillColor(text)}").format(doc)
            flags = b"4096" if multiline else b"0"
            got = self.done[("text", width, height, font_size, multiline)] = (
                [b"/AP ", ap, b"\n /DA " + da + b"\n /DV ()\n /F 4\n /FT /Tx\n /Ff " + flags + b"\n /MaxLen 200\n /P "],
                b"()",
            )
        return got


def _shared_fields(c: Canvas) -> _SharedFields:
    shared = getattr(c, "_sheetgen_fields", None)
    if shared is None:
        shared = c._sheetgen_fields = _SharedFields(c)
    return shared


class _Widget(PDFObject):
    """One field's widget annotation, written directly (its keys in reportlab's sorted
    order): the entries its kind shares (see _SharedFields), its page, rectangle, name
    and tooltip, then its empty value."""

    def __init__(self, head: tuple, page, rect: tuple, name: str, tooltip: str):
        self.head, self.page, self.rect, self.name, self.tooltip = head, page, rect, name, tooltip

    def format(self, doc) -> bytes:
        before, value = self.head
        return b"".join(
            [b"<<\n"]
            + [part if isinstance(part, bytes) else part.format(doc) for part in before]
            + [
                self.page.format(doc),
                b"\n /Rect [ " + fp_str(*self.rect).encode("ascii") + b" ]\n /Subtype /Widget\n /T ",
                PDFString(self.name).format(doc),
                b"\n /TU ",
                PDFString(self.tooltip).format(doc),
                b"\n /Type /Annot\n /V " + value + b"\n>>",
            ]
        )


CUT_MARK = 5.0  # mm: the length of a cut mark at each end of a cut line
CUT_CROSS = 3.0  # mm: the half-size of the cross where two cut lines meet
CUT_WIDTH = 0.3  # pt
CUT_INK = "#444444"


def _canvas(buf, size_mm: tuple[float, float], doc: Document, paper: str, grey: bool) -> Canvas:
    from sheetgen.render.grey import GreyCanvas

    # initialFontName: reportlab otherwise declares Helvetica (not embedded) on every
    # page, which print preflight checks flag; use a bundled font instead.
    c = (GreyCanvas if grey else Canvas)(
        buf,
        pagesize=(size_mm[0] * mm, size_mm[1] * mm),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.font_name("sans"),
    )
    c.setTitle(doc.title)
    c.setSubject(doc.layout_id)
    c.setCreator(f"sheetgen {__version__}")
    c.setAuthor("sheetgen")
    c.setKeywords(f"{doc.game} lang={doc.lang} paper={paper} pages={','.join(p.id for p in doc.pages)}")
    return c


def _prims(page, grey: bool) -> tuple:
    if not grey:
        return page.prims
    from sheetgen.render.grey import greyed

    return greyed(page.prims)


def pdf_bytes(
    doc: Document,
    *,
    paper: str = "a4",
    copies: int = 1,
    fillable: bool = False,
    per_page: int = 1,
    duplex: bool = False,
    flip: str = "long",
    marks: bool = True,
    grey: bool = False,
    progress=None,
    sides=None,
) -> bytes:
    """The PDF bytes of `copies` sets of the document's pages.

    With `fillable`, every box a player marks is also a form field (see add_fields);
    each copy then gets its own fields, so each page is drawn on its own.
    `per_page` sheets share a page (sheetgen.render.impose), with cut marks unless
    not `marks`; `duplex` orders them front and back for a printer that turns the
    paper over its `flip` edge; `grey` maps every colour to a grey (render.grey).
    `progress(n)`, when given, is called with the number of pages drawn so far; `sides`,
    the printed sides when the caller has them already (render.impose.sequence)."""
    from sheetgen.render import impose

    g = impose.grid(paper, per_page)
    w, h = max(p.width for p in doc.pages), max(p.height for p in doc.pages)
    plain = (
        per_page == 1
        and g.scale(w, h) >= 1.0
        and (not duplex or (len(doc.pages) % 2 == 0 and g.turns_vertically(flip)))
    )
    if fillable and not plain:
        from sheetgen.errors import UsageError

        raise UsageError(
            "--fillable prints one full-size sheet a page, front side up: not with this --per-page, --paper or --duplex"
        )
    if not plain:
        return _imposed(doc, g, copies, duplex, flip, marks, grey, paper, progress, sides)
    pw, ph = PAPERS[paper]
    buf = io.BytesIO()
    c = _canvas(buf, (pw, ph), doc, paper, grey)
    names = []
    for page in doc.pages:
        name = f"sheet_{page.id}"
        c.beginForm(name, 0, 0, pw * mm, ph * mm)
        draw_prims(c, _prims(page, grey), placement(page, paper))
        c.endForm()
        names.append(name)
    for copy in range(1, (copies if fillable else 1) + 1):
        for name, page in zip(names, doc.pages):
            c.doForm(name)
            if fillable:
                add_fields(c, page.boxes(), placement(page, paper), copy)
            c.showPage()
        if progress:
            progress(copy * len(names))
    if copies > 1 and not fillable:
        _repeat_pages(c, names, copies - 1)
    c.save()
    return buf.getvalue()


def _imposed(
    doc: Document, g, copies: int, duplex: bool, flip: str, marks: bool, grey: bool, paper: str, progress, sides=None
):
    """`pdf_bytes` when sheets are scaled, several a page, or turned: each sheet page
    drawn once as a form at its own size, placed in the cells of every printed page;
    printed pages that show the same share one content stream (see _repeat_pages)."""
    from sheetgen.render import impose

    buf = io.BytesIO()
    c = _canvas(buf, (g.width, g.height), doc, paper, grey)
    names = []
    for page in doc.pages:
        name = f"sheet_{page.id}"
        c.beginForm(name, 0, 0, page.width * mm, page.height * mm)
        draw_prims(c, _prims(page, grey), Placement(page.height, 0, 0))
        c.endForm()
        names.append(name)
    if sides is None:
        sides = impose.sequence(g, len(doc.pages), copies, duplex, flip)
    drawn: dict = {}
    for n, side in enumerate(sides, 1):
        key = side.key()
        if key in drawn:
            _share_page(c, *drawn[key])
        else:
            for cell, what in enumerate(side.cells):
                if what is not None:
                    page = doc.pages[what.page]
                    _place(c, g, cell, page, names[what.page], what.turned)
            if marks and g.per_page > 1:
                _cut_marks(c, g)
            c.showPage()
            drawn[key] = c._doc.Pages.pages[-1], {}
        if progress and (n % 50 == 0 or n == len(sides)):
            progress(n)
    c.save()
    return buf.getvalue()


def _place(c: Canvas, g, cell: int, page, name: str, turned: bool) -> None:
    x, y, s = g.place(cell, page.width, page.height)
    c.saveState()
    c.translate(x * mm, (g.height - y - page.height * s) * mm)
    if turned:
        c.translate(page.width * s * mm, page.height * s * mm)
        c.rotate(180)
    c.scale(s, s)
    c.doForm(name)
    c.restoreState()


def _cut_marks(c: Canvas, g) -> None:
    """Short marks at both ends of each cut line, and a cross where two meet: in the
    gutter between the sheets, never on a drawing, never in the printer's margin."""
    c.setStrokeColor(_color(CUT_INK))
    c.setLineWidth(CUT_WIDTH)
    at = Placement(g.height, 0, 0)
    lines = g.cut_lines()
    for x1, y1, x2, y2 in lines:
        dx, dy = (x2 - x1), (y2 - y1)
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length * CUT_MARK, dy / length * CUT_MARK
        c.line(at.x(x1), at.y(y1), at.x(x1 + ux), at.y(y1 + uy))
        c.line(at.x(x2 - ux), at.y(y2 - uy), at.x(x2), at.y(y2))
    verticals = [ln[0] for ln in lines if ln[0] == ln[2]]
    horizontals = [ln[1] for ln in lines if ln[1] == ln[3]]
    for x in verticals:
        for y in horizontals:
            c.line(at.x(x - CUT_CROSS), at.y(y), at.x(x + CUT_CROSS), at.y(y))
            c.line(at.x(x), at.y(y - CUT_CROSS), at.x(x), at.y(y + CUT_CROSS))


def _share_page(c: Canvas, first, formatted: dict) -> None:
    """A page that shows what `first` (a page already shown) shows: one more small page
    dictionary sharing its content stream and resources. Every page sharing `first`
    writes the same bytes, formatted once and kept in `formatted` (see _PageCopy)."""
    doc = c._doc
    if not isinstance(first.Resources, PDFObjectReference):
        first.check_format(doc)  # builds its content stream and resources now, once
        first.Resources = doc.Reference(first.Resources)
    page = _PageCopy(formatted)
    page.pagewidth, page.pageheight = first.pagewidth, first.pageheight
    page.MediaBox, page.Contents, page.Resources = first.MediaBox, first.Contents, first.Resources
    page.Parent = first.Parent
    if first.Rotate:
        page.Rotate = first.Rotate
    doc.addPage(page)


def _repeat_pages(c: Canvas, names: list[str], extra: int) -> None:
    """Append `extra` more copies of the last pages, one per form in `names`.

    The copies share the first copy's content stream and resource dictionary
    (one indirect object each), so every extra page is only a small page
    dictionary: ~0.15 KiB instead of ~0.45 KiB for a redrawn `doForm` page, and
    a 1000-copy pad is formatted ~2x faster. Pages with annotations (form
    fields, links) are drawn the plain way, since those must differ per page.
    """
    firsts = c._doc.Pages.pages[-len(names) :]
    if any(page.Annots for page in firsts):
        for _ in range(extra):
            for name in names:
                c.doForm(name)
                c.showPage()
        return
    formatted = [{} for _ in firsts]
    for _ in range(extra):
        for first, once in zip(firsts, formatted):
            _share_page(c, first, once)


_UNSET = dict.fromkeys(PDFPage.__NoDefault__)


class _PageCopy(PDFPage):
    """A page dictionary that only refers to what an earlier page holds (its content
    stream, resources, media box and parent): every copy of the same page writes the
    same bytes, so they are formatted once, by the first copy, and kept in `formatted`."""

    def __init__(self, formatted: dict):
        self.__dict__.update(_UNSET)  # what PDFPage.__init__ does with 25 setattr calls
        self._formatted = formatted

    def format(self, document) -> bytes:
        out = self._formatted.get("bytes")
        if out is None:
            out = self._formatted["bytes"] = super().format(document)
        return out
