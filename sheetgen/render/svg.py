"""The SVG backend: a page's display list as an SVG drawing (the sheet in a browser).

The geometry is the PDF backend's (render/pdf.py), primitive by primitive, in millimetres
(the drawing's user unit); text is fitted by the same `text.fit_text` and set in the same
bundled faces (served as web fonts); icons are the PDF's own: `icons.draw_icon` paints
into a reportlab canvas, and the PDF operators it writes (paths, colours, line widths,
transforms and clips) are translated into SVG, once per icon, size, colour and tint, as a
`<symbol>` the sheet `<use>`s. Scan marks (a `QR`) are left out.

Every markable box (a `Box` with a field, not pre-printed) is a group carrying the hooks
that tests and assistive tools use: `data-box` (the box's `--fillable` field name),
`data-player` (1-based), `data-kind`, `tabindex`, and `role="checkbox"` with
`aria-checked` for the boxes ticked (check, round, mini). Its `.mark` group is empty: the
page draws the marks into it.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape, quoteattr

from sheetgen import text as fonts
from sheetgen.icons import draw_icon
from sheetgen.layout.display import Box, Circle, Icon, Line, PageDisplay, Rect, Text, field_name

PT = 72 / 25.4  # points a millimetre
MM = 25.4 / 72  # millimetres a point
TICKED = ("check", "round", "mini")  # the kinds a tap ticks (the rest are written in)
# the families the page's @font-face rules declare, by sheetgen.text's font names
FAMILY = {
    "sans": ("sg-sans, 'DejaVu Sans', sans-serif", 400),
    "sans-bold": ("sg-sans, 'DejaVu Sans', sans-serif", 700),
    "condensed": ("sg-condensed, 'DejaVu Sans Condensed', sans-serif-condensed, sans-serif", 400),
    "condensed-bold": ("sg-condensed, 'DejaVu Sans Condensed', sans-serif-condensed, sans-serif", 700),
}


def _n(v: float) -> str:
    """A number, short: 3 decimals at most, no trailing zeros."""
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _paint(stroke, fill, width_pt: float) -> str:
    parts = [f'fill="{fill}"' if fill else 'fill="none"']
    if stroke:
        parts.append(f'stroke="{stroke}" stroke-width="{_n(width_pt * MM)}"')
    return " ".join(parts)


def _dash(dash: tuple) -> str:
    """A reportlab dash (lengths in points, then an optional phase) as an SVG attribute."""
    if not dash:
        return ""
    lengths = dash[0] if isinstance(dash[0], list | tuple) else dash
    phase = dash[1] if isinstance(dash[0], list | tuple) and len(dash) > 1 else 0
    text = f' stroke-dasharray="{" ".join(_n(v * MM) for v in lengths)}"'
    return text + (f' stroke-dashoffset="{_n(phase * MM)}"' if phase else "")


class Defs:
    """The icon symbols the sheets of one page use, each made once (see module doc)."""

    def __init__(self, prefix: str = "i"):
        self.prefix = prefix
        self.symbols: dict[tuple, tuple[str, str]] = {}

    def icon(self, name: str, size_pt: float, color, tint: float) -> str:
        key = (name, round(size_pt, 3), color, round(tint, 3))
        got = self.symbols.get(key)
        if got is None:
            sid = f"{self.prefix}{len(self.symbols)}-{name}"
            got = self.symbols[key] = (sid, _icon_symbol(sid, name, size_pt, color, tint))
        return got[0]

    def svg(self) -> str:
        return "<defs>" + "".join(body for _, body in self.symbols.values()) + "</defs>"


def _icon_symbol(sid: str, name: str, size_pt: float, color, tint: float) -> str:
    """The icon as draw_icon paints it into a PDF, as an SVG symbol in points, y up."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(io.BytesIO(), invariant=1)
    start = len(canvas._code)
    draw_icon(canvas, name, 0, 0, size_pt, color, tint)
    body = pdf_ops_svg(canvas._code[start:], sid)
    return f'<symbol id="{sid}" overflow="visible">{body}</symbol>'


def pdf_ops_svg(code: list[str], prefix: str) -> str:
    """PDF content-stream operators (as reportlab writes them for vector art: paths, `re`,
    colours in RGB, widths, caps, joins, `cm`, `q`/`Q`, clips) as SVG elements, in the
    PDF's own coordinates (y up). `prefix` makes the clip paths' ids unique."""
    out: list[str] = []
    stack: list[dict] = []
    state = {"fill": "#000000", "stroke": "#000000", "w": 1.0, "cap": 0, "join": 0, "groups": 0}
    path: list[str] = []
    clip_rule, clips = None, 0
    operands: list[str] = []
    for token in " ".join(code).split():
        if token[0].isdigit() or token[0] in "-.":
            operands.append(token)
            continue
        a = [float(v) for v in operands]
        operands = []
        if token == "q":
            stack.append(dict(state))
            state["groups"] = 0
        elif token == "Q":
            out.append("</g>" * state["groups"])
            state = stack.pop() if stack else state
        elif token == "cm":
            out.append(f'<g transform="matrix({" ".join(_n(v) for v in a)})">')
            state["groups"] += 1
        elif token in ("rg", "RG"):
            colour = "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in a[:3])
            state["fill" if token == "rg" else "stroke"] = colour
        elif token in ("g", "G"):
            colour = "#" + f"{round(max(0.0, min(1.0, a[0])) * 255):02x}" * 3
            state["fill" if token == "g" else "stroke"] = colour
        elif token == "w":
            state["w"] = a[0]
        elif token == "J":
            state["cap"] = int(a[0])
        elif token == "j":
            state["join"] = int(a[0])
        elif token == "m":
            path.append(f"M{_n(a[0])} {_n(a[1])}")
        elif token == "l":
            path.append(f"L{_n(a[0])} {_n(a[1])}")
        elif token == "c":
            path.append("C" + " ".join(_n(v) for v in a[:6]))
        elif token == "h":
            path.append("Z")
        elif token == "re":
            x, y, w, h = a[:4]
            path.append(f"M{_n(x)} {_n(y)}h{_n(w)}v{_n(h)}h{_n(-w)}Z")
        elif token in ("W", "W*"):
            clip_rule = "evenodd" if token == "W*" else "nonzero"
        elif token in ("S", "s", "f", "f*", "F", "B", "B*", "b", "b*", "n"):
            d = "".join(path) + ("Z" if token in ("s", "b", "b*") else "")
            if clip_rule is not None and d:
                clips += 1
                cid = f"{prefix}-c{clips}"
                out.append(
                    f'<clipPath id="{cid}"><path d="{d}" clip-rule="{clip_rule}"/></clipPath>'
                    f'<g clip-path="url(#{cid})">'
                )
                state["groups"] += 1
            if token != "n" and d:
                fill = token[0] in "fFBb"
                stroke = token[0] in "SsBb"
                attrs = [f'd="{d}"', f'fill="{state["fill"]}"' if fill else 'fill="none"']
                if fill and "*" in token:
                    attrs.append('fill-rule="evenodd"')
                if stroke:
                    attrs.append(f'stroke="{state["stroke"]}" stroke-width="{_n(state["w"])}"')
                    attrs += [
                        f'stroke-linecap="{("butt", "round", "square")[state["cap"]]}"' if state["cap"] else "",
                        f'stroke-linejoin="{("miter", "round", "bevel")[state["join"]]}"' if state["join"] else "",
                    ]
                out.append("<path " + " ".join(x for x in attrs if x) + "/>")
            path, clip_rule = [], None
    return "".join(out) + "</g>" * state["groups"] + "".join("</g>" * s["groups"] for s in stack)


def _text(t: Text) -> str:
    """A Text primitive's lines, placed as render.pdf.draw_text places them."""
    fit = fonts.fit_text(t.text, t.font, t.size, t.w * PT, t.h * PT, t.wrap, t.min_size)
    size, lead, n = fit.size, fit.leading, len(fit.lines)
    block = size + (n - 1) * lead
    top = t.y * PT
    if t.valign == "middle":
        top += (t.h * PT - block) / 2
    elif t.valign == "bottom":
        top += t.h * PT - block
    family, weight = FAMILY.get(t.font, FAMILY["sans"])
    if t.align == "center":
        x, anchor = t.x + t.w / 2, ' text-anchor="middle"'
    elif t.align == "right":
        x, anchor = t.x + t.w, ' text-anchor="end"'
    else:
        x, anchor = t.x, ""
    bold = ' font-weight="700"' if weight == 700 else ""
    out = []
    for i, line in enumerate(fit.lines):
        base = (top + size * 0.76 + i * lead) * MM
        width = fonts.width(line, t.font, size) * MM
        out.append(
            f'<text x="{_n(x)}" y="{_n(base)}"{anchor} textLength="{_n(width)}" lengthAdjust="spacingAndGlyphs">'
            f"{escape(line)}</text>"
        )
    return (
        f'<g font-family="{family}"{bold} font-size="{_n(size * MM)}" fill="{t.color}">' + "".join(out) + "</g>"
        if out
        else ""
    )


def _box_shape(p: Box) -> str:
    """A box's printed shape, as render.pdf draws it."""
    if not p.stroke and not p.fill:
        return ""
    if p.kind == "round":
        cx, cy, r = p.x + p.w / 2, p.y + p.h / 2, min(p.w, p.h) / 2 - 0.4
        return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" {_paint(p.stroke, p.fill, 0.9)}/>'
    width = {"check": 0.9, "write": 0.6, "mini": 0.35}[p.kind]
    if p.kind == "check":
        i = 0.45
        out = (
            f'<rect x="{_n(p.x + i)}" y="{_n(p.y + i)}" width="{_n(p.w - 2 * i)}" height="{_n(p.h - 2 * i)}" '
            f'rx="1" {_paint(p.stroke, p.fill, width)}/>'
        )
        if p.checked:
            k = 1.9  # mm, as the PDF's pre-printed cross
            x0, y0, x1, y1 = p.x + k, p.y + k, p.x + p.w - k, p.y + p.h - k
            out += (
                f'<path d="M{_n(x0)} {_n(y0)}L{_n(x1)} {_n(y1)}M{_n(x0)} {_n(y1)}L{_n(x1)} {_n(y0)}" '
                f'stroke="#555555" stroke-width="{_n(1.4 * MM)}" fill="none"/>'
            )
        return out
    return f'<rect x="{_n(p.x)}" y="{_n(p.y)}" width="{_n(p.w)}" height="{_n(p.h)}" {_paint(p.stroke, p.fill, width)}/>'


def _markable(p: Box, player: int, copy: int, label: str, data: dict | None) -> str:
    """A box a player marks: its shape, a hit area (the box itself) and an empty mark
    layer, in a group carrying the hooks (module doc); `data`: more data-* attributes."""
    name = field_name(p.field, copy)
    ticked = p.kind in TICKED
    role = ' role="checkbox" aria-checked="false"' if ticked else ' role="button"'
    more = "".join(f" data-{k}={quoteattr(str(v))}" for k, v in (data or {}).items())
    return (
        f'<g class="box" data-box={quoteattr(name)} data-player="{player}" data-kind="{p.kind}"'
        f' data-rect="{_n(p.x)} {_n(p.y)} {_n(p.w)} {_n(p.h)}" tabindex="0"{role}{more}'
        f" aria-label={quoteattr(label)}>"
        + _box_shape(p)
        + f'<rect class="hit" x="{_n(p.x)}" y="{_n(p.y)}" width="{_n(p.w)}" height="{_n(p.h)}" fill="transparent"/>'
        + '<g class="mark"></g></g>'
    )


def prims_svg(
    prims, defs: Defs, player: int = 1, copy: int = 1, labels: dict | None = None, data: dict | None = None
) -> str:
    """The SVG elements of a list of primitives (millimetres, y down). A markable box's
    player is `player`, or, in `data` (by field name: {attribute: value} added as data-*
    attributes), its `player` item; `labels` name the boxes for assistive tools."""
    out = []
    labels, data = labels or {}, data or {}
    for p in prims:
        if isinstance(p, Text):
            out.append(_text(p))
        elif isinstance(p, Box):
            if p.field and not p.checked:
                more = dict(data.get(p.field) or {})
                owner = more.pop("player", player)
                out.append(_markable(p, owner, copy, labels.get(p.field, p.field), more))
            else:
                out.append(_box_shape(p))
        elif isinstance(p, Rect):
            radius = f' rx="{_n(p.radius)}"' if p.radius else ""
            out.append(
                f'<rect x="{_n(p.x)}" y="{_n(p.y)}" width="{_n(p.w)}" height="{_n(p.h)}"{radius} '
                f"{_paint(p.stroke, p.fill, p.width)}{_dash(p.dash)}/>"
            )
        elif isinstance(p, Icon):
            if p.size <= 0:
                continue
            sid = defs.icon(p.name, p.size * PT, p.color, p.tint)
            out.append(
                f'<use href="#{sid}" transform="translate({_n(p.x)} {_n(p.y + p.size)}) scale({_n(MM)} {_n(-MM)})"/>'
            )
        elif isinstance(p, Line):
            out.append(
                f'<line x1="{_n(p.x1)}" y1="{_n(p.y1)}" x2="{_n(p.x2)}" y2="{_n(p.y2)}" '
                f'stroke="{p.stroke}" stroke-width="{_n(p.width * MM)}"{_dash(p.dash)}/>'
            )
        elif isinstance(p, Circle):
            out.append(f'<circle cx="{_n(p.x)}" cy="{_n(p.y)}" r="{_n(p.r)}" {_paint(p.stroke, p.fill, p.width)}/>')
        # a QR (scan mark) is left out: a screen is not photographed
    return "".join(out)


PAPER = 1.5  # mm of paper drawn round a sheet on screen


def page_svg(
    page: PageDisplay,
    defs: Defs,
    player: int = 1,
    labels: dict | None = None,
    data: dict | None = None,
    attrs: str = "",
) -> str:
    """One page as an `<svg>` element (its icons in `defs`, which the caller writes once),
    with a margin of PAPER mm round the sheet: a box on the sheet's edge keeps its whole
    stroke, as the PDF's paper margin keeps it."""
    box = f"{_n(-PAPER)} {_n(-PAPER)} {_n(page.width + 2 * PAPER)} {_n(page.height + 2 * PAPER)}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}"'
        f" data-page={quoteattr(page.id)}{attrs}>"
        f'<rect x="{_n(-PAPER)}" y="{_n(-PAPER)}" width="{_n(page.width + 2 * PAPER)}" '
        f'height="{_n(page.height + 2 * PAPER)}" fill="#ffffff"/>'
        + prims_svg(page.prims, defs, player, 1, labels, data)
        + "</svg>"
    )


def standalone_svg(page: PageDisplay, player: int = 1) -> str:
    """One page as a whole SVG file, its icon symbols inside it."""
    defs = Defs()
    body = prims_svg(page.prims, defs, player)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(page.width)} {_n(page.height)}"'
        f' width="{_n(page.width)}mm" height="{_n(page.height)}mm">'
        f'<rect width="{_n(page.width)}" height="{_n(page.height)}" fill="#ffffff"/>{defs.svg()}{body}</svg>'
    )
