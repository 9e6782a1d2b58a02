"""Original vector pictograms for roll-and-write sheets.

Every icon is drawn with reportlab canvas primitives only, in a private unit
coordinate system of 0..100 on both axes (y up), then scaled to the requested
size.  All artwork here is original: simple, friendly shapes with a dark
outline so they stay legible when a colour sheet is printed in greyscale, at
sizes from about 4 mm to 20 mm.

Public API::

    ICON_NAMES                      # every supported name, sorted
    draw_icon(canvas, name, x, y, size, color=None)
    icon_exists(name)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.lib.colors import Color
# reportlab is imported where an icon is drawn, not here: checking a layout's icon names
# (ICON_NAMES) must not cost `sheetgen score` the import of reportlab

__all__ = ["ICON_NAMES", "draw_icon", "icon_exists"]

Point = tuple[float, float]

# --------------------------------------------------------------------------
# Palette.  Fills are chosen so that neighbouring parts of one icon differ in
# lightness, not only in hue, and read apart in greyscale.
# --------------------------------------------------------------------------
INK = "#2b2420"  # outline and dark details
WHITE = "#fffdf6"
CREAM = "#f6e7c8"
PAPER = "#fbf5e6"
RED = "#e0452f"
BRICK = "#c8623a"
BARN_RED = "#c23b2c"
ORANGE = "#f28b26"
PEACH = "#f7b267"
YELLOW = "#ffd43b"
GOLD = "#f2bf2c"
GOLD_LIGHT = "#fbdc6a"
GOLD_DARK = "#d49417"
WHEAT = "#e8b44a"
GREEN = "#4f9d34"
GREEN_DARK = "#2f7433"
GREEN_LIGHT = "#a3d36a"
GREEN_PALE = "#d3ecaa"
LEAF = "#67ad3f"
BLUE = "#3a87c8"
BLUE_DARK = "#245f9c"
BLUE_LIGHT = "#bfe2f4"
SKY = "#8fcdf0"
AQUA = "#9fe3d8"
PURPLE = "#7a58b0"
PURPLE_LIGHT = "#a889d8"
PINK = "#f6abbd"
PINK_DARK = "#e07f98"
SKIN = "#f1c79b"
BROWN = "#8e5530"
BROWN_DARK = "#5e3520"
TAN = "#d8a76a"
TAN_LIGHT = "#eed1a0"
GREY = "#9aa3ab"
GREY_DARK = "#6c757d"
GREY_LIGHT = "#cdd3d8"
STONE = "#a7a39c"
STONE_LIGHT = "#cbc7bf"


# --------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------
def _colour(value) -> Color:
    from reportlab.lib.colors import Color, HexColor

    return value if isinstance(value, Color) else HexColor(value)


def _mix(a, b, t: float) -> Color:
    """Blend colour `a` towards `b` by fraction t (0 = a, 1 = b)."""
    from reportlab.lib.colors import Color

    ca, cb = _colour(a), _colour(b)
    return Color(
        ca.red + (cb.red - ca.red) * t, ca.green + (cb.green - ca.green) * t, ca.blue + (cb.blue - ca.blue) * t
    )


def _outline_width_pt(size: float) -> float:
    """Outline width in points: about 0.55 pt at 4 mm, 1 pt at 20 mm."""
    return min(1.15, max(0.5, 0.45 + 0.0097 * size))


class _Pen:
    """Wraps the canvas while an icon draws in its 0..100 unit square.

    `lw` is the standard outline width in unit coordinates; every width passed
    to the helpers is a multiple of it, so outlines keep the same printed
    weight whatever the icon size.
    """

    def __init__(self, canvas, size: float, color: str | None, tint: float = 0.0):
        self.c = canvas
        self.lw = _outline_width_pt(size) * 100.0 / size
        self.color = color
        self.tint = tint

    def ink(self, value) -> Color:
        """A colour as this icon prints it: mixed towards white by `tint` (see draw_icon)."""
        return _mix(value, "#ffffff", self.tint) if self.tint else _colour(value)

    # -- state -------------------------------------------------------------
    def paint(self, fill=None, stroke=INK, w: float = 1.0) -> tuple[int, int]:
        """Set fill/stroke colours and line width; return (fill, stroke) flags."""
        if fill is not None:
            self.c.setFillColor(self.ink(fill))
        if stroke is not None:
            self.c.setStrokeColor(self.ink(stroke))
            self.c.setLineWidth(self.lw * w)
        return int(fill is not None), int(stroke is not None)

    def path(self):
        return self.c.beginPath()

    def draw(self, path, fill=None, stroke=INK, w: float = 1.0, even_odd=False):
        f, s = self.paint(fill, stroke, w)
        if f or s:
            from reportlab.pdfgen.canvas import FILL_EVEN_ODD

            kw = {"fillMode": FILL_EVEN_ODD} if even_odd else {}
            self.c.drawPath(path, fill=f, stroke=s, **kw)

    # -- primitives --------------------------------------------------------
    def poly(self, pts: Sequence[Point], fill=None, stroke=INK, w=1.0, close=True):
        p = self.path()
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        if close:
            p.close()
        self.draw(p, fill if close else None, stroke, w)

    def line(self, pts: Sequence[Point], w=1.0, stroke=INK):
        self.poly(pts, None, stroke, w, close=False)

    def circle(self, cx, cy, r, fill=None, stroke=INK, w=1.0):
        f, s = self.paint(fill, stroke, w)
        self.c.circle(cx, cy, r, stroke=s, fill=f)

    def ellipse(self, x1, y1, x2, y2, fill=None, stroke=INK, w=1.0):
        f, s = self.paint(fill, stroke, w)
        self.c.ellipse(x1, y1, x2, y2, stroke=s, fill=f)

    def rect(self, x, y, wd, ht, fill=None, stroke=INK, w=1.0, r=0.0):
        f, s = self.paint(fill, stroke, w)
        if r:
            self.c.roundRect(x, y, wd, ht, r, stroke=s, fill=f)
        else:
            self.c.rect(x, y, wd, ht, stroke=s, fill=f)

    def smooth(self, pts: Sequence[Point], fill=None, stroke=INK, w=1.0, tension=1.0):
        """Closed smooth (Catmull-Rom) outline through `pts`."""
        self.draw(_smooth_path(self.path(), pts, tension), fill, stroke, w)

    def leaf(self, base: Point, tip: Point, width: float, fill=None, stroke=INK, w=1.0, vein=False):
        """A pointed leaf (two curved sides) from `base` to `tip`."""
        (bx, by), (tx, ty) = base, tip
        dx, dy = tx - bx, ty - by
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln * width, dx / ln * width
        p = self.path()
        p.moveTo(bx, by)
        p.curveTo(bx + dx * 0.25 + nx, by + dy * 0.25 + ny, bx + dx * 0.7 + nx * 0.8, by + dy * 0.7 + ny * 0.8, tx, ty)
        p.curveTo(bx + dx * 0.7 - nx * 0.8, by + dy * 0.7 - ny * 0.8, bx + dx * 0.25 - nx, by + dy * 0.25 - ny, bx, by)
        p.close()
        self.draw(p, fill, stroke, w)
        if vein:
            self.line([(bx + dx * 0.08, by + dy * 0.08), (bx + dx * 0.8, by + dy * 0.8)], w * 0.6)

    def tube(self, build: Callable, width: float, fill, w=1.0, cap=1):
        """A thick outlined stroke: `build(path)` adds the centre line."""
        c = self.c
        c.saveState()
        c.setLineCap(cap)
        c.setLineJoin(1)
        p = build(self.path())
        c.setStrokeColor(self.ink(INK))
        c.setLineWidth(width + 2 * self.lw * w)
        c.drawPath(p, stroke=1, fill=0)
        c.setStrokeColor(self.ink(fill))
        c.setLineWidth(width)
        c.drawPath(p, stroke=1, fill=0)
        c.restoreState()

    def tubes(self, segments: Iterable[Sequence[Point]], width, fill, w=1.0):
        """Several joined thick strokes: all outlines first, then all fills."""
        segments = list(segments)

        def build(p):
            for seg in segments:
                p.moveTo(*seg[0])
                for pt in seg[1:]:
                    p.lineTo(*pt)
            return p

        self.tube(build, width, fill, w)

    def blob(self, circles: Iterable[tuple[float, float, float]], fill, w=1.0):
        """Union of circles with one outline around the whole silhouette."""
        circles = list(circles)
        for cx, cy, r in circles:
            self.circle(cx, cy, r, fill, INK, w)
        for cx, cy, r in circles:
            self.circle(cx, cy, r, fill, None)

    def star(self, cx, cy, r_out, r_in, n=5, rot=90.0, fill=None, stroke=INK, w=1.0, sy=1.0):
        self.poly(_star_points(cx, cy, r_out, r_in, n, rot, sy), fill, stroke, w)

    def clip(self, path):
        self.c.clipPath(path, stroke=0, fill=0)


def _smooth_path(p, pts: Sequence[Point], tension=1.0):
    n = len(pts)
    p.moveTo(*pts[0])
    for i in range(n):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[(i + 1) % n], pts[(i + 2) % n]
        k = tension / 6.0
        p.curveTo(
            p1[0] + (p2[0] - p0[0]) * k,
            p1[1] + (p2[1] - p0[1]) * k,
            p2[0] - (p3[0] - p1[0]) * k,
            p2[1] - (p3[1] - p1[1]) * k,
            p2[0],
            p2[1],
        )
    p.close()
    return p


def _star_points(cx, cy, r_out, r_in, n=5, rot=90.0, sy=1.0) -> list[Point]:
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + i * 180.0 / n)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a) * sy))
    return pts


def _scallop_path(p, cx, cy, r, n, bump, phase=0.0, sy=1.0):
    """Circle-ish outline made of `n` outward bumps (a frilly leaf edge)."""
    step = 2 * math.pi / n

    def at(a, rr):
        return cx + rr * math.cos(a), cy + rr * math.sin(a) * sy

    a0 = math.radians(phase)
    p.moveTo(*at(a0, r))
    for i in range(n):
        a = a0 + i * step
        c1 = at(a + step * 0.2, r * (1 + bump))
        c2 = at(a + step * 0.8, r * (1 + bump))
        p.curveTo(*c1, *c2, *at(a + step, r))
    p.close()
    return p


# --------------------------------------------------------------------------
# Harvest Dice
# --------------------------------------------------------------------------
def _carrot(d: _Pen):
    c = d.c
    c.saveState()
    c.translate(13, 13)
    c.rotate(45)
    # leaves (drawn first, the body covers their bases)
    for ang, ln in ((-32, 30), (0, 36), (32, 30)):
        a = math.radians(ang)
        d.leaf((66, 0), (66 + ln * math.cos(a), ln * math.sin(a)), 7.5, GREEN if ang else GREEN_DARK)
    p = d.path()
    p.moveTo(72, 15)
    p.curveTo(50, 16, 20, 9, 0, 0)
    p.curveTo(20, -9, 50, -16, 72, -15)
    p.curveTo(79, -9, 79, 9, 72, 15)
    p.close()
    d.draw(p, ORANGE)
    for x, y0, y1 in ((52, 6, 13.5), (38, -10.5, -4), (24, 3, 8), (60, -13, -7)):
        d.line([(x, y0), (x + 2, y1)], 0.7)
    c.restoreState()


def _salad(d: _Pen):
    # outer frilly leaves, then the paler heart
    d.draw(_scallop_path(d.path(), 50, 50, 40, 11, 0.16, phase=-90), GREEN)
    d.draw(_scallop_path(d.path(), 50, 53, 28, 8, 0.2, phase=-70), GREEN_LIGHT)
    d.draw(_scallop_path(d.path(), 50, 57, 14, 6, 0.25, phase=-90), GREEN_PALE, w=0.8)
    # veins fanning out from the base of the heart
    for ex, ey in ((24, 50), (34, 70), (66, 70), (76, 50)):
        p = d.path()
        p.moveTo(50, 30)
        p.curveTo(50 + (ex - 50) * 0.2, 40, ex - (ex - 50) * 0.3, ey - 6, ex, ey)
        d.draw(p, None, INK, 0.6)
    d.line([(50, 18), (50, 42)], 0.6)


def _tomato(d: _Pen):
    d.ellipse(8, 6, 92, 80, RED)
    d.ellipse(22, 48, 36, 62, _mix(RED, WHITE, 0.65), None)
    d.star(50, 76, 24, 8, 5, 90, "#7cc142", sy=0.55)
    d.tube(lambda p: (p.moveTo(50, 78), p.curveTo(50, 84, 52, 87, 56, 89), p)[-1], 6, GREEN_DARK)


def _pig(d: _Pen):
    # ears behind the head
    for sx in (1, -1):

        def ex(x, sx=sx):
            return 50 + sx * (x - 50)

        d.poly([(ex(18), 58), (ex(14), 92), (ex(44), 74)], PINK)
        d.poly([(ex(21), 66), (ex(19), 84), (ex(35), 74)], PINK_DARK, None)
    d.ellipse(10, 8, 90, 82, PINK)
    d.ellipse(32, 16, 68, 42, PINK_DARK)
    d.ellipse(39, 24, 46, 34, INK, None)
    d.ellipse(54, 24, 61, 34, INK, None)
    for cx in (33, 67):
        d.circle(cx, 57, 5.5, INK, None)
        d.circle(cx + 1.8, 58.8, 1.8, WHITE, None)
    d.ellipse(16, 36, 28, 44, _mix(PINK_DARK, PINK, 0.3), None)
    d.ellipse(72, 36, 84, 44, _mix(PINK_DARK, PINK, 0.3), None)


def _die(d: _Pen):
    d.rect(10, 6, 84, 84, GREY_LIGHT, r=15)  # side shading
    d.rect(6, 10, 84, 84, WHITE, r=15)
    for cx, cy in ((27, 73), (69, 73), (48, 52), (27, 31), (69, 31)):
        d.circle(cx, cy, 8, INK, None)


# --------------------------------------------------------------------------
# Imperial Settlers
# --------------------------------------------------------------------------
# The four resources are told apart by their outline, not only their colour (they print
# pale, in dropout tint, inside the boxes that cost them, and grey with --grey): the stone
# an angular block with flat facets, the wood one long log lying across with its rings,
# the food an upright sheaf, the gold a round coin.


def _stone(d: _Pen):
    outline = [(6, 12), (94, 12), (84, 46), (60, 88), (38, 70), (16, 50)]  # a rock: flat base, a peak
    d.poly(outline, STONE)
    d.poly([(16, 50), (38, 70), (60, 88), (52, 48), (30, 40)], STONE_LIGHT, INK, 0.8)  # the lit face
    d.poly([(60, 88), (84, 46), (94, 12), (66, 26), (52, 48)], _mix(STONE, INK, 0.15), INK, 0.8)  # the shaded one
    d.line([(30, 40), (6, 12)], 0.8)
    d.line([(30, 40), (38, 12)], 0.8)
    d.line([(52, 48), (66, 26)], 0.8)


def _wood(d: _Pen):
    fx, fy, r = 68, 66, 21  # the log's cut end, seen at the top right
    dx, dy = -40, -34  # along the log, to its far end at the bottom left
    ln = math.hypot(dx, dy)
    nx, ny = -dy / ln * r, dx / ln * r
    bx, by = fx + dx, fy + dy
    ang = math.degrees(math.atan2(ny, nx))
    p = d.path()
    p.moveTo(fx + nx, fy + ny)
    p.lineTo(bx + nx, by + ny)
    p.arcTo(bx - r, by - r, bx + r, by + r, startAng=ang, extent=-180)
    p.lineTo(fx - nx, fy - ny)
    p.close()
    d.draw(p, BROWN)
    for t, k in ((0.35, 0.45), (0.62, -0.35), (0.85, 0.2)):  # bark
        sx, sy = fx + dx * t + nx * k, fy + dy * t + ny * k
        d.line([(sx, sy), (sx + dx * 0.16, sy + dy * 0.16)], 0.7)
    d.circle(fx, fy, r, TAN_LIGHT)
    ring = _mix(TAN, BROWN, 0.4)
    d.circle(fx, fy, r * 0.64, None, ring, 0.7)
    d.circle(fx, fy, r * 0.3, None, ring, 0.7)


def _wheat_ear(d: _Pen, base: Point, ang: float, ln: float):
    c = d.c
    c.saveState()
    c.translate(*base)
    c.rotate(ang)
    d.line([(0, 0), (0, ln * 0.3)], 0.9)
    step = ln * 0.17
    for i in range(4):
        y = ln * 0.28 + i * step
        d.leaf((0, y), (-6.5, y + step * 1.5), 3.6, WHEAT, w=0.8)
        d.leaf((0, y), (6.5, y + step * 1.5), 3.6, WHEAT, w=0.8)
    d.leaf((0, ln * 0.28 + 4 * step - 2), (0, ln * 0.28 + 5.2 * step + 2), 3.6, WHEAT, w=0.8)
    c.restoreState()


def _food(d: _Pen):
    # stalks below the tie
    d.poly([(42, 44), (58, 44), (72, 7), (28, 7)], _mix(WHEAT, WHITE, 0.25))
    for x0, x1 in ((46, 38), (50, 50), (54, 62)):
        d.line([(x0, 44), (x1, 9)], 0.6)
    _wheat_ear(d, (50, 46), 30, 40)
    _wheat_ear(d, (50, 46), -30, 40)
    _wheat_ear(d, (50, 46), 0, 41)
    d.rect(39, 39, 22, 10, BROWN, r=3)


def _gold(d: _Pen):
    d.ellipse(8, 4, 92, 84, GOLD_DARK)  # coin edge
    d.circle(50, 52, 42, GOLD)
    d.circle(50, 52, 31, GOLD_LIGHT, INK, 0.7)
    d.star(50, 52, 19, 8, 5, 90, GOLD, INK, 0.7)
    p = d.path()
    p.arc(16, 18, 84, 86, 115, 60)
    d.draw(p, None, WHITE, 1.3)


def _worker(d: _Pen):
    blue = "#4d7fc0"
    # legs
    d.rect(33, 6, 14, 34, BROWN_DARK, r=5)
    d.rect(53, 6, 14, 34, BROWN_DARK, r=5)
    # arms
    d.tube(lambda p: (p.moveTo(32, 58), p.lineTo(20, 34), p)[-1], 10, blue)
    d.tube(lambda p: (p.moveTo(68, 58), p.lineTo(80, 34), p)[-1], 10, blue)
    d.circle(19, 30, 6.5, SKIN)
    d.circle(81, 30, 6.5, SKIN)
    # tunic
    p = d.path()
    p.moveTo(30, 28)
    p.lineTo(27, 56)
    p.curveTo(27, 63, 32, 67, 40, 67)
    p.lineTo(60, 67)
    p.curveTo(68, 67, 73, 63, 73, 56)
    p.lineTo(70, 28)
    p.close()
    d.draw(p, blue)
    d.line([(31, 36), (69, 36)], 0.8)
    d.circle(50, 78, 13, SKIN)
    # wide-brimmed work hat
    d.ellipse(26, 82, 74, 92, TAN)
    hat = d.path()
    hat.moveTo(38, 87)
    hat.curveTo(38, 99, 62, 99, 62, 87)
    hat.close()
    d.draw(hat, TAN)
    d.line([(39, 89), (61, 89)], 1.6, BROWN)


def _favor(d: _Pen):
    d.rect(10, 6, 84, 84, _mix(PURPLE, INK, 0.35), r=13)  # tile thickness
    d.rect(6, 10, 84, 84, PURPLE, r=13)
    d.rect(13, 17, 70, 70, None, PURPLE_LIGHT, 1.2, r=8)
    d.star(48, 51, 31, 12.5, 5, 90, YELLOW)


def _wall(d: _Pen):
    top, notch = 90, 72
    pts = [
        (6, 8),
        (94, 8),
        (94, top),
        (76, top),
        (76, notch),
        (59, notch),
        (59, top),
        (41, top),
        (41, notch),
        (24, notch),
        (24, top),
        (6, top),
    ]
    d.poly(pts, BRICK)
    m = 0.7
    rows = (8, 24, 40, 56, 72)
    for y in rows[1:]:
        d.line([(6, y), (94, y)], m)
    for i, (y0, y1) in enumerate(zip(rows, rows[1:])):
        xs = (28, 50, 72) if i % 2 == 0 else (17, 39, 61, 83)
        for x in xs:
            d.line([(x, y0), (x, y1)], m)
    for x in (15, 50, 85):
        d.line([(x, notch), (x, top)], m)


def _house(d: _Pen):
    d.rect(64, 62, 11, 26, BRICK)  # chimney
    d.rect(18, 8, 64, 50, CREAM, r=1.5)  # (rounded a little: a picture, never taken for a box)
    d.poly([(8, 54), (50, 90), (92, 54)], RED)
    d.rect(42, 8, 16, 28, BROWN, r=2)
    d.circle(54.5, 21, 1.5, INK, None)
    for x in (24, 64):
        d.rect(x, 26, 12, 14, SKY)
        d.line([(x + 6, 26), (x + 6, 40)], 0.6)
    d.circle(50, 68, 6, SKY)


def _granary(d: _Pen):
    silver = "#b9c3cb"
    # silo
    p = d.path()
    p.moveTo(6, 6)
    p.lineTo(6, 70)
    p.curveTo(6, 92, 34, 92, 34, 70)
    p.lineTo(34, 6)
    p.close()
    d.draw(p, silver)
    for y in (24, 42, 60):
        d.line([(6, y), (34, y)], 0.6)
    d.line([(6, 70), (34, 70)], 0.8)
    # barn with a gambrel roof
    roof = [(26, 50), (40, 75), (63, 90), (86, 75), (100 - 4, 50)]
    d.poly([(30, 6), (30, 52), (42, 72), (63, 85), (84, 72), (92, 52), (92, 6)], BARN_RED)
    d.poly(roof + [(92, 47), (84, 67), (63, 80), (42, 67), (30, 47)], _mix(BARN_RED, INK, 0.35), INK, 0.8)
    d.rect(47, 6, 30, 34, WHITE, r=1.5)
    d.line([(47, 6), (77, 40)], 1.0)
    d.line([(47, 40), (77, 6)], 1.0)
    d.rect(55, 52, 14, 12, WHITE)


def _bridge(d: _Pen):
    water = "#7cc0ea"
    d.rect(5, 5, 90, 21, water, r=4)
    for x in (30, 58):
        p = d.path()
        p.moveTo(x, 12)
        p.curveTo(x + 4, 16, x + 8, 8, x + 12, 12)
        d.draw(p, None, WHITE, 1.0)
    # railing following the hump of the deck
    rail = d.path()
    rail.moveTo(10, 65)
    rail.curveTo(32, 80, 68, 80, 90, 65)
    d.draw(rail, None, INK, 3.2)
    d.draw(rail, None, TAN_LIGHT, 1.4)
    for x in (15, 32.5, 50, 67.5, 85):
        top = 65 + 11.5 * (1 - ((x - 50) / 40) ** 2)
        d.line([(x, top - 12), (x, top)], 1.6)
    # the arch itself
    p = d.path()
    p.moveTo(6, 14)
    p.lineTo(6, 52)
    p.curveTo(31, 68, 69, 68, 94, 52)
    p.lineTo(94, 14)
    p.lineTo(82, 14)
    p.curveTo(80, 50, 20, 50, 18, 14)
    p.close()
    d.draw(p, TAN)
    deck = d.path()
    deck.moveTo(6, 46)
    deck.curveTo(31, 61, 69, 61, 94, 46)
    d.draw(deck, None, INK, 0.6)
    # voussoir joints: short strokes normal to the arch curve
    for t in (0.1, 0.3, 0.5, 0.7, 0.9):
        u = 1 - t
        bx = u**3 * 82 + 3 * u * u * t * 80 + 3 * u * t * t * 20 + t**3 * 18
        by = u**3 * 14 + 3 * u * u * t * 50 + 3 * u * t * t * 50 + t**3 * 14
        tx = 3 * u * u * -2 + 6 * u * t * -60 + 3 * t * t * -2
        ty = 3 * u * u * 36 + 6 * u * t * 0 + 3 * t * t * -36
        ln = math.hypot(tx, ty)
        nx, ny = ty / ln, -tx / ln  # away from the opening
        d.line([(bx, by), (bx + nx * 7, by + ny * 7)], 0.7)


def _field(d: _Pen):
    # hill/horizon behind the parcel
    p = d.path()
    p.moveTo(4, 60)
    p.curveTo(16, 84, 42, 84, 56, 72)
    p.curveTo(70, 82, 90, 80, 96, 62)
    p.lineTo(96, 60)
    p.close()
    d.draw(p, GREEN_LIGHT)
    n = 7
    top_y, bot_y = 66, 6
    for i in range(n):
        b0, b1 = 4 + 92 * i / n, 4 + 92 * (i + 1) / n
        t0, t1 = 22 + 56 * i / n, 22 + 56 * (i + 1) / n
        d.poly([(b0, bot_y), (b1, bot_y), (t1, top_y), (t0, top_y)], "#a86f3f" if i % 2 else "#7f4e2b", None)
        if i % 2:
            for t in (0.2, 0.5, 0.8):
                cx = b0 + (t0 - b0) * t + ((b1 - b0) + ((t1 - t0) - (b1 - b0)) * t) / 2
                cy = bot_y + (top_y - bot_y) * t
                s = 5 * (1 - t * 0.45)
                d.leaf((cx, cy), (cx - s, cy + s * 1.2), s * 0.35, GREEN, None)
                d.leaf((cx, cy), (cx + s, cy + s * 1.2), s * 0.35, GREEN, None)
    d.poly([(4, bot_y), (96, bot_y), (78, top_y), (22, top_y)], None)


def _points(d: _Pen):
    cx, cy, r = 50, 50, 35
    for side in (-1, 1):
        arc = d.path()
        arc.arc(cx - r, cy - r, cx + r, cy + r, startAng=-90 + side * 14, extent=side * 150)
        d.draw(arc, None, INK, 1.6)
        d.draw(arc, None, GREEN_DARK, 0.6)
        for k in range(7):
            deg = -90 + side * (22 + k * 22)
            ang = math.radians(deg)
            px, py = cx + r * math.cos(ang), cy + r * math.sin(ang)
            tx, ty = -math.sin(ang) * side, math.cos(ang) * side  # along the arc
            ox, oy = math.cos(ang), math.sin(ang)  # outward
            ln = 15 - k * 0.6
            for o in (0.62, -0.55):
                d.leaf((px, py), (px + (tx * 0.8 + ox * o) * ln, py + (ty * 0.8 + oy * o) * ln), 4.6, LEAF, INK, 0.75)
        # leaf at the tip of the branch
        ang = math.radians(-90 + side * 170)
        px, py = cx + r * math.cos(ang), cy + r * math.sin(ang)
        d.leaf((px, py), (px - math.sin(ang) * side * 14, py + math.cos(ang) * side * 14), 4.6, LEAF, INK, 0.75)
    d.star(cx, cy + 1, 19, 7.6, 5, 90, GOLD)


def _architect(d: _Pen):
    # set square (a right triangle with a triangular window)
    p = d.path()
    p.moveTo(6, 8)
    p.lineTo(6, 86)
    p.lineTo(70, 8)
    p.close()
    p.moveTo(16, 20)
    p.lineTo(16, 56)
    p.lineTo(45, 20)
    p.close()
    d.draw(p, GOLD_LIGHT, even_odd=True)
    for i in range(1, 7):
        y = 8 + i * 10.5
        d.line([(6, y), (10 if i % 2 else 12, y)], 0.6)
    # compass: two legs from a hinge, with a pencil tip on one
    hx, hy = 64, 82
    d.tube(lambda p: (p.moveTo(hx, hy), p.lineTo(44, 14), p)[-1], 6.5, GREY, cap=0)
    d.tube(lambda p: (p.moveTo(hx, hy), p.lineTo(86, 16), p)[-1], 6.5, GREY, cap=0)
    d.poly([(41.5, 16), (46.5, 13), (42, 5)], GREY_DARK)
    d.poly([(83.5, 17), (88.5, 15), (88, 5)], INK, None)
    d.rect(hx - 3, hy + 4, 6, 10, GREY_DARK, r=2)
    d.circle(hx, hy, 7, GREY_LIGHT)
    d.circle(hx, hy, 2, INK, None)


def _building(d: _Pen):
    wall = "#e8d6b5"
    roof = "#4f6f94"
    d.line([(50, 78), (50, 95)], 1.0)  # flag pole
    d.poly([(50, 95), (64, 91), (50, 86)], RED, INK, 0.8)
    d.rect(14, 6, 72, 54, wall)
    d.poly([(8, 58), (24, 80), (76, 80), (92, 58)], roof)
    door = d.path()
    door.moveTo(41, 6)
    door.lineTo(41, 24)
    door.curveTo(41, 36, 59, 36, 59, 24)
    door.lineTo(59, 6)
    door.close()
    d.draw(door, BROWN)
    d.rect(38, 40, 24, 12, SKY)  # upper windows
    d.line([(50, 40), (50, 52)], 0.6)
    for x in (20, 68):
        d.rect(x, 16, 12, 14, SKY)
        d.rect(x, 40, 12, 12, SKY)


def _blueprint(d: _Pen):
    sheet = "#2f6db3"
    grid = "#6d9fd6"
    p = d.path()
    p.moveTo(8, 6)
    p.lineTo(8, 94)
    p.lineTo(74, 94)
    p.lineTo(92, 76)
    p.lineTo(92, 6)
    p.close()
    d.draw(p, sheet)
    d.c.saveState()
    d.clip(p)
    for v in range(18, 94, 10):
        d.line([(v, 6), (v, 94)], 0.45, grid)
        d.line([(8, v - 2), (92, v - 2)], 0.45, grid)
    d.c.restoreState()
    d.poly([(74, 94), (74, 76), (92, 76)], _mix(sheet, WHITE, 0.45))
    # floor plan in white
    d.line([(40, 20), (20, 20), (20, 66), (56, 66)], 1.5, WHITE)
    d.line([(52, 20), (76, 20), (76, 56)], 1.5, WHITE)
    d.line([(48, 20), (48, 44), (30, 44)], 1.2, WHITE)
    d.line([(48, 52), (48, 66)], 1.2, WHITE)


# --------------------------------------------------------------------------
# River Valley Glassworks
# --------------------------------------------------------------------------
def _glass(d: _Pen):
    base = d.color or AQUA
    outline = [(26, 90), (64, 94), (93, 62), (80, 14), (42, 6), (8, 34)]
    centre = (54, 56)
    shades = (0.55, 0.25, 0, -0.15, -0.05, 0.35)  # + lighter, - darker
    for i, t in enumerate(shades):
        a, b = outline[i], outline[(i + 1) % len(outline)]
        fill = _mix(base, WHITE, t) if t >= 0 else _mix(base, INK, -t)
        d.poly([centre, a, b], fill, None)
    for v in outline:
        d.line([centre, v], 0.55, _mix(base, INK, 0.45))
    d.poly(outline, None)
    d.line([(27, 81), (16, 44)], 1.6, WHITE)


def _overflow(d: _Pen):
    body = GREY
    d.poly([(16, 70), (84, 70), (76, 6), (24, 6)], body)
    for x0, x1 in ((36, 38), (50, 50), (64, 62)):
        d.line([(x0, 62), (x1, 14)], 0.9)
    d.rect(40, 80, 20, 10, None, INK, 1.0, r=4)
    d.rect(40, 82, 20, 6, None, GREY_DARK, 1.0, r=3)
    d.rect(9, 70, 82, 12, GREY_LIGHT, r=3)


def _river(d: _Pen):
    def wave(y, x0=12, x1=88, amp=6, n=3):
        def build(p):
            seg = (x1 - x0) / n
            p.moveTo(x0, y)
            for i in range(n):
                xa = x0 + i * seg
                p.curveTo(xa + seg * 0.3, y + amp * 1.35, xa + seg * 0.7, y - amp * 1.35, xa + seg, y)
            return p

        return build

    d.tube(wave(74), 10, SKY)
    d.tube(wave(50), 10, BLUE)
    d.tube(wave(26), 10, SKY)


# --------------------------------------------------------------------------
# Bosk
# --------------------------------------------------------------------------
def _tree(d: _Pen):
    p = d.path()
    p.moveTo(36, 6)
    p.curveTo(42, 12, 44, 20, 44, 40)
    p.lineTo(56, 40)
    p.curveTo(56, 20, 58, 12, 64, 6)
    p.close()
    d.draw(p, BROWN)
    d.blob([(50, 70, 24), (28, 56, 18), (72, 56, 18), (34, 78, 16), (66, 78, 16), (50, 48, 16)], GREEN)
    d.circle(40, 74, 8, _mix(GREEN, WHITE, 0.3), None)
    d.circle(30, 60, 5, _mix(GREEN, WHITE, 0.3), None)


def _leaf(d: _Pen):
    d.tube(lambda p: (p.moveTo(10, 10), p.curveTo(14, 18, 18, 20, 26, 26), p)[-1], 4, GREEN_DARK)
    base, tip = (24, 24), (90, 90)
    d.leaf(base, tip, 30, LEAF)
    d.line([(24, 24), (82, 82)], 0.8)
    for t, ln in ((0.25, 15), (0.45, 16), (0.65, 13)):
        x, y = 24 + 66 * t, 24 + 66 * t
        d.line([(x, y), (x - ln * 0.35, y + ln)], 0.6)
        d.line([(x, y), (x + ln, y - ln * 0.35)], 0.6)


def _squirrel(d: _Pen):
    fur = "#c4692f"
    tail = "#b05a27"
    belly = "#f4d9b3"
    # bushy curled tail behind the body
    d.smooth(
        [
            (56, 10),
            (80, 16),
            (94, 38),
            (94, 64),
            (82, 86),
            (60, 94),
            (46, 86),
            (54, 76),
            (70, 70),
            (76, 52),
            (68, 32),
            (54, 24),
        ],
        tail,
    )
    p = d.path()
    p.moveTo(82, 30)
    p.curveTo(90, 48, 88, 70, 72, 84)
    d.draw(p, None, _mix(tail, WHITE, 0.4), 1.3)
    # body
    d.smooth([(24, 10), (58, 10), (66, 28), (58, 48), (42, 58), (26, 50), (20, 30)], fur)
    d.smooth([(26, 14), (40, 14), (44, 34), (36, 50), (27, 44), (24, 28)], belly, None)
    d.ellipse(42, 12, 66, 38, None, INK, 0.7)  # haunch
    d.ellipse(26, 8, 50, 16, fur, INK, 0.9)  # foot
    # ear, head
    d.poly([(34, 72), (42, 92), (48, 70)], fur)
    d.smooth([(12, 62), (20, 76), (38, 80), (50, 70), (46, 54), (30, 50), (16, 54)], fur)
    d.circle(31, 68, 3.4, INK, None)
    d.circle(32, 69.2, 1.1, WHITE, None)
    d.circle(12.5, 60, 2.6, INK, None)
    # acorn held in the front paws
    d.ellipse(12, 28, 26, 44, TAN)
    d.ellipse(10, 40, 28, 48, BROWN)
    d.ellipse(22, 36, 32, 44, fur, INK, 0.8)


def _sun(d: _Pen):
    rays = _star_points(50, 50, 46, 30, 12, 90)
    d.poly(rays, ORANGE)
    d.circle(50, 50, 28, YELLOW)
    d.circle(42, 58, 7, _mix(YELLOW, WHITE, 0.6), None)


def _snowflake(d: _Pen):
    segs = []
    for k in range(6):
        a = math.radians(90 + 60 * k)
        ux, uy = math.cos(a), math.sin(a)
        segs.append([(50, 50), (50 + 40 * ux, 50 + 40 * uy)])
        for t, ln in ((0.5, 13), (0.78, 9)):
            px, py = 50 + 40 * t * ux, 50 + 40 * t * uy
            for s in (-1, 1):
                b = a + s * math.radians(50)
                segs.append([(px, py), (px + ln * math.cos(b), py + ln * math.sin(b))])
    d.tubes(segs, 5.5, "#9ed5f3")
    d.circle(50, 50, 7, WHITE, INK, 0.8)


def _wind(d: _Pen):
    def gust(y, x0, x1, r, up):
        s = 1 if up else -1

        def build(p):
            p.moveTo(x0, y)
            p.lineTo(x1, y)
            # curl: half turn then inwards
            p.curveTo(x1 + r * 1.3, y, x1 + r * 1.3, y + s * 2 * r, x1, y + s * 2 * r)
            p.curveTo(x1 - r * 0.7, y + s * 2 * r, x1 - r * 0.7, y + s * r, x1 - r * 0.1, y + s * r)
            return p

        return build

    fill = "#d6ecf7"
    d.tube(gust(64, 12, 62, 11, True), 7, fill)
    d.tube(gust(44, 18, 74, 8, False), 7, fill)
    d.tube(lambda p: (p.moveTo(12, 24), p.lineTo(44, 24), p)[-1], 7, fill)
    d.tube(lambda p: (p.moveTo(56, 24), p.lineTo(64, 24), p)[-1], 7, fill)


# --------------------------------------------------------------------------
# Plante Bataille
# --------------------------------------------------------------------------
def _cabbage(d: _Pen):
    outer = "#6ea956"
    head = "#cfe6b0"
    # two wrapping outer leaves
    for sx in (1, -1):

        def X(x, sx=sx):
            return 50 + sx * (x - 50)

        p = d.path()
        p.moveTo(X(50), 6)
        p.curveTo(X(20), 6, X(4), 30, X(8), 58)
        p.curveTo(X(12), 70, X(16), 64, X(22), 70)
        p.curveTo(X(26), 62, X(30), 50, X(50), 30)
        p.close()
        d.draw(p, outer)
    d.circle(50, 50, 34, head)
    # veins from the base of the head
    for ex, ey in ((28, 74), (72, 74), (50, 84)):
        p = d.path()
        p.moveTo(50, 18)
        p.curveTo(50 + (ex - 50) * 0.1, 40, ex, ey - 14, ex, ey)
        d.draw(p, None, INK, 0.6)
    p = d.path()
    p.moveTo(20, 58)
    p.curveTo(34, 70, 66, 70, 80, 58)
    d.draw(p, None, INK, 0.6)
    # front leaf wrapping the bottom
    p = d.path()
    p.moveTo(16, 30)
    p.curveTo(28, 14, 72, 14, 84, 30)
    p.curveTo(80, 12, 64, 4, 50, 4)
    p.curveTo(36, 4, 20, 12, 16, 30)
    p.close()
    d.draw(p, outer)


def _corn(d: _Pen):
    c = d.c
    c.saveState()
    c.translate(50, 50)
    c.rotate(-18)
    cob = d.path()
    cob.moveTo(-15, -26)
    cob.curveTo(-19, 4, -14, 34, 0, 46)
    cob.curveTo(14, 34, 19, 4, 15, -26)
    cob.close()
    d.draw(cob, YELLOW)
    c.saveState()
    d.clip(cob)
    for row in range(10):
        y = -26 + row * 7.5
        off = 3.5 if row % 2 else 0
        for col in range(-3, 3):
            x = col * 7 + off
            d.rect(x - 2.8, y + 0.6, 5.6, 6.2, GOLD, _mix(GOLD_DARK, INK, 0.2), 0.5, r=2.4)
    c.restoreState()
    d.draw(cob, None)
    # husk leaves
    for sx in (-1, 1):
        p = d.path()
        p.moveTo(0, -42)
        p.curveTo(sx * 16, -40, sx * 30, -20, sx * 26, 14)
        p.curveTo(sx * 18, -6, sx * 10, -18, sx * 2, -22)
        p.close()
        d.draw(p, GREEN if sx < 0 else LEAF)
    d.tube(lambda p: (p.moveTo(0, -42), p.lineTo(0, -36), p)[-1], 5, GREEN_DARK)
    c.restoreState()


def _card(d: _Pen):
    c = d.c
    c.saveState()
    c.translate(50, 50)
    c.rotate(12)
    d.rect(-26, -38, 52, 76, _mix(PAPER, TAN, 0.45), r=6)
    c.restoreState()
    d.rect(20, 8, 52, 78, PAPER, r=6)
    d.rect(25, 13, 42, 68, None, _mix(TAN, PAPER, 0.2), 0.9, r=3)
    # soil mound and sprout
    p = d.path()
    p.moveTo(28, 26)
    p.curveTo(34, 38, 58, 38, 64, 26)
    p.close()
    d.draw(p, BROWN)
    d.tube(lambda p: (p.moveTo(46, 32), p.curveTo(46, 44, 47, 52, 46, 60), p)[-1], 3.5, GREEN_DARK)
    d.leaf((46, 54), (28, 66), 6, LEAF)
    d.leaf((46, 58), (64, 74), 6.5, GREEN)


def _wheelbarrow(d: _Pen):
    tray = "#3f8f5b"
    # handles and leg (behind the tray)
    d.tubes([[(36, 40), (90, 54)], [(64, 40), (70, 12)]], 4.5, BROWN)
    d.poly([(8, 66), (78, 66), (66, 36), (30, 36)], tray)
    d.poly([(8, 66), (78, 66), (74, 58), (12, 58)], _mix(tray, WHITE, 0.3), INK, 0.8)
    d.tube(lambda p: (p.moveTo(28, 22), p.lineTo(40, 38), p)[-1], 4.5, BROWN)
    d.circle(26, 21, 15, GREY_DARK)
    d.circle(26, 21, 8.5, GREY_LIGHT)
    d.circle(26, 21, 2.5, INK, None)


def _basket(d: _Pen):
    wicker = TAN
    d.tube(lambda p: (p.moveTo(22, 60), p.curveTo(22, 100, 78, 100, 78, 60), p)[-1], 6.5, BROWN)
    p = d.path()
    p.moveTo(12, 60)
    p.lineTo(22, 14)
    p.curveTo(23, 8, 26, 6, 32, 6)
    p.lineTo(68, 6)
    p.curveTo(74, 6, 77, 8, 78, 14)
    p.lineTo(88, 60)
    p.close()
    d.draw(p, wicker)
    d.c.saveState()
    d.clip(p)
    for i, y in enumerate((16, 27, 38, 49)):
        d.line([(4, y), (96, y)], 0.6)
        off = 7 if i % 2 else 0
        for x in range(12 + off, 92, 14):
            d.line([(x, y + 1.5), (x, y + 9.5)], 0.6)
    d.c.restoreState()
    d.rect(6, 56, 88, 11, _mix(wicker, BROWN, 0.55), r=5)


def _storm(d: _Pen):
    p = d.path()
    p.moveTo(28, 36)
    p.lineTo(80, 36)
    p.arcTo(66, 36, 94, 64, startAng=-90, extent=180)
    p.arcTo(32, 40, 76, 84, startAng=20, extent=130)
    p.arcTo(12, 36, 44, 68, startAng=70, extent=200)
    p.close()
    d.draw(p, GREY)
    d.poly([(56, 42), (40, 22), (52, 22), (44, 5), (68, 30), (56, 30), (66, 42)], YELLOW)


# --------------------------------------------------------------------------
# Generic
# --------------------------------------------------------------------------
def _trophy(d: _Pen):
    # handles
    for sx in (-1, 1):

        def build(p, sx=sx):
            p.moveTo(50 + sx * 22, 82)
            p.curveTo(50 + sx * 46, 84, 50 + sx * 44, 56, 50 + sx * 14, 52)
            return p

        d.tube(build, 5.5, GOLD)
    d.rect(24, 6, 52, 10, BROWN_DARK, r=2)
    d.poly([(32, 16), (68, 16), (60, 26), (40, 26)], GOLD_DARK)
    d.rect(44, 26, 12, 16, GOLD_DARK)
    p = d.path()
    p.moveTo(22, 92)
    p.lineTo(78, 92)
    p.curveTo(78, 62, 66, 42, 50, 42)
    p.curveTo(34, 42, 22, 62, 22, 92)
    p.close()
    d.draw(p, GOLD)
    d.star(50, 68, 12, 5, 5, 90, GOLD_LIGHT, INK, 0.7)
    d.line([(30, 86), (32, 66)], 1.2, GOLD_LIGHT)


def _crown(d: _Pen):
    pts = [(16, 26), (11, 74), (32, 50), (50, 84), (68, 50), (89, 74), (84, 26)]
    d.poly(pts, GOLD)
    for x, y in ((11, 76), (50, 87), (89, 76)):
        d.circle(x, y, 5, GOLD_LIGHT)
    d.rect(12, 12, 76, 18, GOLD_DARK, r=3)
    d.circle(50, 21, 5, RED)
    d.circle(29, 21, 4, BLUE)
    d.circle(71, 21, 4, BLUE)


def _pencil(d: _Pen):
    c = d.c
    c.saveState()
    c.translate(12, 12)
    c.rotate(45)
    h = 10.5
    d.rect(96, -h, 12, 2 * h, PINK, r=4)  # eraser
    d.rect(32, -h, 64, 2 * h, YELLOW)  # painted body
    d.rect(32, -h / 3, 64, 2 * h / 3, _mix(YELLOW, ORANGE, 0.35), None)
    d.rect(32, -h, 64, 2 * h, None)
    d.rect(84, -h - 1, 14, 2 * h + 2, GREY_LIGHT)  # ferrule
    d.line([(89, -h - 1), (89, h + 1)], 0.7)
    d.line([(93, -h - 1), (93, h + 1)], 0.7)
    d.poly([(32, -h), (32, h), (2, 0)], TAN_LIGHT)  # sharpened wood
    d.poly([(12, -h / 3), (12, h / 3), (2, 0)], INK)  # graphite
    c.restoreState()


# --------------------------------------------------------------------------
# Registry and public API
# --------------------------------------------------------------------------
_ICONS: dict[str, Callable[[_Pen], None]] = {
    # Harvest Dice
    "carrot": _carrot,
    "salad": _salad,
    "tomato": _tomato,
    "pig": _pig,
    "die": _die,
    # Imperial Settlers
    "stone": _stone,
    "wood": _wood,
    "food": _food,
    "gold": _gold,
    "worker": _worker,
    "favor": _favor,
    "wall": _wall,
    "house": _house,
    "granary": _granary,
    "bridge": _bridge,
    "field": _field,
    "points": _points,
    "architect": _architect,
    "building": _building,
    "blueprint": _blueprint,
    # River Valley Glassworks
    "glass": _glass,
    "overflow": _overflow,
    "river": _river,
    # Bosk
    "tree": _tree,
    "leaf": _leaf,
    "squirrel": _squirrel,
    "sun": _sun,
    "snowflake": _snowflake,
    "wind": _wind,
    # Plante Bataille
    "cabbage": _cabbage,
    "corn": _corn,
    "card": _card,
    "wheelbarrow": _wheelbarrow,
    "basket": _basket,
    "storm": _storm,
    # Generic
    "trophy": _trophy,
    "crown": _crown,
    "pencil": _pencil,
}

ICON_NAMES: tuple[str, ...] = tuple(sorted(_ICONS))

# Icons whose main fill follows the `color` argument of draw_icon.
COLORABLE: frozenset[str] = frozenset({"glass"})


def icon_exists(name: str) -> bool:
    """True if `name` is a supported icon."""
    return name in _ICONS


def draw_icon(canvas, name: str, x: float, y: float, size: float, color: str | None = None, tint: float = 0.0) -> None:
    """Draw icon `name` inside the square whose bottom-left corner is (x, y)
    in PDF points (reportlab's native coordinates, y up), side `size` points.

    The canvas graphics state is saved and restored, and drawing is clipped to
    the square.  `color` (a hex string such as '#7b3fa0') overrides the main
    fill colour of icons where that makes sense (see COLORABLE: the glass
    shard); other icons ignore it.  `tint` (0 to 1) mixes every colour of the
    icon, its outline included, that far towards white: a lighter icon (a
    "dropout" print a pencil mark stands out on). Raises KeyError(name) for an
    unknown name.
    """
    try:
        painter = _ICONS[name]
    except (KeyError, TypeError):
        raise KeyError(name) from None
    if size <= 0:
        return
    if color is not None and name in COLORABLE:
        from reportlab.lib.colors import HexColor

        color = HexColor(color)  # validate early; raises ValueError
    canvas.saveState()
    try:
        canvas.translate(x, y)
        canvas.scale(size / 100.0, size / 100.0)  # reportlab merges the two into one `cm`
        drawn, key = _drawn(canvas, name, size, color, tint)
        kept = None  # this icon's key in the user cache, when the canvas has not drawn it yet
        if key is not None and key not in drawn:
            kept = _cache_key(canvas, key)
            stored = _stored(kept)
            if stored is not None:
                drawn[key] = stored
        if key is not None and key in drawn:
            canvas._code.extend(drawn[key])
            return
        start = len(canvas._code)
        clip = canvas.beginPath()
        clip.rect(0, 0, 100, 100)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.setLineJoin(1)
        canvas.setLineCap(1)
        painter(_Pen(canvas, size, color, tint))
        if key is not None:
            code = canvas._code[start:]
            if _replayable(code):
                drawn[key] = code
                _store(kept, code)
    finally:
        canvas.restoreState()


def _replayable(code) -> bool:
    return isinstance(code, list) and all(isinstance(op, str) and "/" not in op for op in code)


def _cache_key(canvas, key: tuple) -> str:
    """The user cache's key of an icon's operators (see _drawn): the icon and canvas state,
    the kind of canvas (a GreyCanvas writes other colours), sheetgen's code and reportlab's
    version (which formats the numbers)."""
    import reportlab

    from sheetgen import cache

    kind = f"{type(canvas).__module__}.{type(canvas).__qualname__}"
    return cache.key("icon", cache.code_stamp(), reportlab.Version, kind, repr(key))


def _stored(kept: str) -> list | None:
    """The operators an earlier process painted for this icon (sheetgen.cache), so that a
    new process replays them too instead of painting (a third of the time of an Imperial
    Settlers render); None when there are none, or they are not plain operators."""
    from sheetgen import cache

    code = cache.get("icon", kept)
    return code if _replayable(code) else None


def _store(kept: str, code: list) -> None:
    from sheetgen import cache

    cache.put("icon", kept, list(code))


def _drawn(canvas, name: str, size: float, color, tint: float = 0.0) -> tuple[dict, tuple | None]:
    """The icons this canvas already drew (their PDF operators after the move to their
    corner and the scaling, which do not depend on where the icon is) and this icon's
    key among them.

    An icon is drawn in its own unit square, so the same icon at the same size,
    colour and tint is the same operators wherever it is: drawing it again appends them (~20x
    faster than painting it again, and the same bytes). The key also holds the canvas
    state that can change what painting writes (the fill rule, the transparency
    state); operators naming a resource (a `/Name`: fonts, graphics states, images)
    are never replayed, as a form drawn later would not declare it. None: a canvas
    that is not reportlab's (no operator list), always painted."""
    code = getattr(canvas, "_code", None)
    state = getattr(canvas, "_extgstate", None)
    if not isinstance(code, list) or not isinstance(getattr(state, "_d", None), dict):
        return {}, None
    drawn = canvas.__dict__.setdefault("_sheetgen_icons", {})
    colour = color if isinstance(color, str) or color is None else tuple(color.rgba())
    return drawn, (name, size, colour, tint, getattr(canvas, "_fillMode", None), tuple(sorted(state._d.items())))
