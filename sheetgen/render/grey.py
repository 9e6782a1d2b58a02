"""Toner saving (`--grey`): the display list's colours mapped to greys.

Two steps, both in the backend (the layout and its display list do not change):

- `greyed(prims)` maps each primitive by what it is for: text and lines dark,
  tints and box fills light, and large dark areas (the banners' fills) pale and
  outlined, so no page prints a solid block; the scan marks stay black, and the QR
  code says the page is printed grey (`sheetgen scan` compares it with the grey page);
- `GreyCanvas` turns every colour that still reaches reportlab (the icons' own
  colours) into its grey (luminance), so the PDF uses the DeviceGray colour space only.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from sheetgen.layout.display import DROPOUT_GREY, QR, Box, Circle, Line, Rect, Text
from sheetgen.layout.scanmarks import BLACK as SCAN_BLACK
from sheetgen.layout.scanmarks import toner_saving
from sheetgen.values import replace

SOLID_AREA = 300.0  # mm²: a dark fill larger than this becomes a pale, outlined one
PALE = 0.9  # the grey of a large fill that was dark
DARK_FILL = 0.7  # luminance under which a fill counts as dark
OUTLINE = 0.25  # grey of the outline that replaces a dark fill
OUTLINE_WIDTH = 1.0  # pt


def luminance(color) -> float:
    """0 (black) to 1 (white): Rec. 601 luma of an RGB colour (a hex string or a Color)."""
    c = color if isinstance(color, Color) else HexColor(color)
    return 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue


def _hex(grey: float) -> str:
    v = round(max(0.0, min(1.0, grey)) * 255)
    return f"#{v:02x}{v:02x}{v:02x}"


def ink(color: str | None) -> str | None:
    """A line or a box edge: darker than it was (white stays white, it separates)."""
    if color is None:
        return None
    lum = luminance(color)
    return color if lum >= 0.95 else _hex(0.6 * lum)


def tint(color: str | None) -> str | None:
    """A fill: light, so that it is written on and spares toner."""
    return None if color is None else _hex(0.85 + 0.15 * luminance(color))


def text_ink(color: str) -> str:
    """Text: dark enough to read on white or on a light tint (white text on a banner
    is drawn on an outline now, so it turns dark too)."""
    return _hex(min(0.2, 0.5 * luminance(color)))


def _area_fill(p, area: float):
    """A filled Rect or Circle: a large dark fill (a banner, a frame's header) becomes a
    pale tint, outlined when it is a shape of its own (rounded, no edge of its own);
    square pieces that complete a rounded header stay unoutlined, so no line crosses it."""
    if p.fill is not None and luminance(p.fill) < DARK_FILL and area > SOLID_AREA:
        if p.stroke is None and getattr(p, "radius", 1.0) > 0:
            return replace(p, fill=_hex(PALE), stroke=_hex(OUTLINE), width=max(p.width, OUTLINE_WIDTH))
        return replace(p, fill=_hex(PALE), stroke=ink(p.stroke))
    return replace(p, fill=tint(p.fill), stroke=ink(p.stroke))


def grey_prim(p):
    if isinstance(p, Rect) and p.fill == SCAN_BLACK:
        return p  # the scan marks (layout.scanmarks): small, and `sheetgen scan` needs them black
    if isinstance(p, QR):
        return replace(p, data=toner_saving(p.data))
    # (the dropout grey stays: a pen must show over a box's edge and caption, see DROPOUT_GREY)
    if isinstance(p, Text):
        return p if p.color == DROPOUT_GREY else replace(p, color=text_ink(p.color))
    if isinstance(p, Box):
        return replace(p, stroke=p.stroke if p.stroke == DROPOUT_GREY else ink(p.stroke), fill=tint(p.fill))
    if isinstance(p, Rect):
        return _area_fill(p, p.w * p.h)
    if isinstance(p, Circle):
        return _area_fill(p, 3.1416 * p.r * p.r)
    if isinstance(p, Line):
        return replace(p, stroke=ink(p.stroke))
    return p  # icons keep their colours: GreyCanvas greys them


def greyed(prims) -> tuple:
    return tuple(grey_prim(p) for p in prims)


class GreyCanvas(Canvas):
    """A Canvas that sets every colour as a grey (DeviceGray `g`/`G`, never `rg`/`k`)."""

    def setFillColor(self, aColor, alpha=None):  # noqa: N802 - reportlab's name
        self.setFillGray(luminance(_as_color(aColor)), alpha)

    def setStrokeColor(self, aColor, alpha=None):  # noqa: N802
        self.setStrokeGray(luminance(_as_color(aColor)), alpha)


def _as_color(value) -> Color:
    from reportlab.lib.colors import toColor

    if isinstance(value, Color):
        return value
    if isinstance(value, (tuple, list)) and len(value) == 3:
        return Color(*value)
    return toColor(value)
