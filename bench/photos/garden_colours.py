"""The garden's colours: many inks for each vegetable, and other colours, under many lights.

Written apart from the reader's tuning and the other generators, from the feature's description,
the bench's runner and the printed page. A Harvest Dice sheet is played by one player with one or two sets of
colouring tools (colour pencils light to heavy, felt-tips, wax crayons, gel pens, highlighters,
watercolour pencils), each set an orange, a green and a red of its own brand; some cells are coloured
in another colour (blue, purple, black, grey pencil, brown, pink, yellow) and are '?'. The pig and
market boxes are ticked with a pencil or a pen. The ink is modelled as what it is on white paper in
daylight (a reflectance a channel, linear), the pencils and crayons deposited on the paper's tooth;
the photo is then the sheet lit by a light (tungsten 2700 K, warm LED 3000 K, daylight 5500 K,
shade 7000-8000 K, fluorescent with a green tint, or mixed: a window on one side and a lamp on the
other), taken by a phone over a table (tilt up to 15 degrees, any roll, 120-300 dpi on the sheet,
under 12 MP) with a partial or fooled white balance, exposure, vignette, tone curve, saturation or
a "warm"/"vivid" filter, noise and JPEG 60-92.

Inks (HSV of the ink on white paper in daylight, sRGB): orange hue 24-36 degrees (red-orange to
yellow-orange), S 0.85-1, V 0.9-1; green hue 100-155, S 0.6-1, V 0.45-0.85; red hue 350-6, S 0.8-1,
V 0.7-0.95. Not dice colours ('?'): blue 205-235, light blue 195-210, purple 265-290, pink 320-335
(light), brown 15-30 (V 0.28-0.42), lemon yellow 54-62, black, grey graphite.

`photo(layout, page_id, rng) -> (RGB uint8, truth, kinds)`; kinds: field -> "ink/style +light:NAME"
and "_photo" -> what the camera did.
"""

from __future__ import annotations

import colorsys
import io
import math

import cv2
import numpy as np
from PIL import Image

from bench.photos import pages
from sheetgen.scan.blank import grid_cells

A4 = (210.0, 297.0)
LAST: dict = {}  # what the last photo's camera did (its homography), for looking at crops
LIGHTS = ["daylight", "shade", "tungsten", "warm-led", "fluorescent", "mixed"]

# ---------------------------------------------------------------- colours


def _srgb_lin(c):
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lin_srgb(x):
    x = np.clip(x, 0, None)
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def _hsv(h, s, v):
    return colorsys.hsv_to_rgb((h % 360) / 360.0, s, v)


# (hue range, sat range, value range) of the ink on white paper in daylight
DICE = {
    "C": ("orange", (24, 36), (0.85, 1.0), (0.9, 1.0)),
    "S": ("green", (100, 155), (0.6, 1.0), (0.45, 0.85)),
    "T": ("red", (-10, 6), (0.8, 1.0), (0.7, 0.95)),
}
OTHER = {
    "blue": ((205, 235), (0.6, 0.95), (0.5, 0.9)),
    "lightblue": ((195, 210), (0.5, 0.8), (0.85, 0.95)),
    "purple": ((265, 290), (0.5, 0.8), (0.45, 0.75)),
    "pink": ((320, 335), (0.3, 0.55), (0.95, 1.0)),
    "brown": ((15, 30), (0.55, 0.75), (0.28, 0.42)),
    "yellow": ((54, 62), (0.8, 1.0), (0.95, 1.0)),
    "black": ((0, 360), (0.0, 0.1), (0.1, 0.2)),
    "graphite": ((0, 360), (0.0, 0.03), (0.35, 0.55)),
}
# which non-dice colours each tool comes in
TOOL_OTHER = {
    "cpencil": ["blue", "lightblue", "purple", "pink", "brown", "yellow", "black", "graphite"],
    "crayon": ["blue", "purple", "pink", "brown", "yellow", "black"],
    "felt": ["blue", "lightblue", "purple", "pink", "brown", "black"],
    "gel": ["blue", "purple", "black"],
    "highlighter": ["yellow", "pink", "lightblue"],
    "watercolour": ["blue", "purple", "brown", "pink"],
}


class Ink:
    def __init__(self, tool: str, colour: str, hsv, rng):
        self.tool, self.colour = tool, colour
        h, s, v = hsv
        if tool == "highlighter" and colour != "graphite":
            v = max(v, 0.95)  # a highlighter is light and transparent
        self.name = f"{tool}-{colour}-h{round(h) % 360}s{round(s * 100)}v{round(v * 100)}"
        self.refl = _srgb_lin(_hsv(h, s, v)).astype(np.float32)
        self.width = {
            "cpencil": (0.45, 0.8),
            "crayon": (1.0, 1.8),
            "felt": (0.8, 1.5),
            "gel": (0.35, 0.6),
            "highlighter": (3.0, 4.8),
            "watercolour": (0.5, 0.9),
            "graphite": (0.4, 0.7),
            "ballpoint": (0.3, 0.5),
        }[tool]
        self.pressure = float(rng.uniform(0.5, 1.0)) if tool in ("cpencil", "watercolour") else 1.0
        if tool == "crayon":
            self.pressure = float(rng.uniform(0.65, 1.0))
        if tool == "graphite":
            self.pressure = float(rng.uniform(0.6, 1.0))


def _pick(rng, ranges):
    (h0, h1), (s0, s1), (v0, v1) = ranges
    return float(rng.uniform(h0, h1)), float(rng.uniform(s0, s1)), float(rng.uniform(v0, v1))


def dice_set(rng, tool: str) -> dict:
    """An orange, a green and a red of one brand of `tool`."""
    out = {}
    for letter, (name, *ranges) in DICE.items():
        h, s, v = _pick(rng, ranges)
        if tool == "highlighter":  # bright fluorescent colours: light, never dark
            s = min(s, 0.9) if letter != "S" else float(rng.uniform(0.55, 0.85))
            v = 1.0
            if letter == "S":
                h = float(rng.uniform(100, 140))
            if letter == "T":
                h, s = float(rng.uniform(-4, 6)), float(rng.uniform(0.82, 0.92))
        if tool in ("cpencil", "crayon", "watercolour") and letter == "T":
            # a red pencil drawn lightly looks pink: its pressure is kept up in _ink_for
            pass
        out[letter] = Ink(tool, name, (h, s, v), rng)
    return out


def other_ink(rng, tool: str) -> Ink:
    colour = str(rng.choice(TOOL_OTHER[tool]))
    if colour == "graphite":
        return Ink("graphite", "graphite", _pick(rng, OTHER["graphite"]), rng)
    return Ink(tool, colour, _pick(rng, OTHER[colour]), rng)


# ---------------------------------------------------------------- strokes (mm, relative to a centre)


def _clip_line(p, d, hw, hh):
    """The part of the line p + t d inside the rectangle |x| <= hw, |y| <= hh (Liang-Barsky)."""
    t0, t1 = -1e9, 1e9
    for pi, di, lim in ((p[0], d[0], hw), (p[1], d[1], hh)):
        if abs(di) < 1e-9:
            if abs(pi) > lim:
                return None
            continue
        a, b = (-lim - pi) / di, (lim - pi) / di
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    if t1 - t0 < 0.3:
        return None
    return p + t0 * d, p + t1 * d


def hatch(rng, hw, hh, angle, spacing, zigzag=True, wobble=0.15):
    d = np.array([math.cos(angle), math.sin(angle)])
    n = np.array([-d[1], d[0]])
    reach = math.hypot(hw, hh)
    segs = []
    off = -reach + rng.uniform(0, spacing)
    while off < reach:
        seg = _clip_line(off * n, d, hw, hh)
        if seg is not None:
            a, b = seg
            a = a - d * rng.uniform(-0.5, 0.4)
            b = b + d * rng.uniform(-0.5, 0.4)
            segs.append((a, b))
        off += spacing * rng.uniform(0.8, 1.2)
    if not segs:  # a region narrower than the spacing: one stroke through its middle
        seg = _clip_line(np.zeros(2), d, hw, hh)
        segs = [seg] if seg is not None else [(np.array([-hw, 0.0]), np.array([hw, 0.0]))]
    strokes = []
    if zigzag:
        line = []
        for i, (a, b) in enumerate(segs):
            if i % 2:
                a, b = b, a
            line += [a, b]
        if line:
            strokes.append(_wobble(rng, np.array(line), wobble))
    else:
        strokes = [_wobble(rng, np.array([a, (a + b) / 2, b]), wobble) for a, b in segs]
    return strokes


def _wobble(rng, pts, amount):
    return pts + rng.normal(0, amount, pts.shape)


def loops(rng, rx, ry, r, hw, hh):
    """Rows of small loops (radius r) sweeping the rectangle rx, ry: colouring in circles."""
    rows = max(2, int(round(2 * ry / (1.4 * r))) + 1)
    per_row = max(3, int(round(2 * rx / (0.8 * r))))
    out = []
    for k in range(rows):
        n = per_row * 12
        t = np.linspace(0, per_row * 2 * math.pi, n) + rng.uniform(0, 6)
        sweep = np.linspace(-rx, rx, n)
        if k % 2:
            sweep = sweep[::-1]
        yc = -ry + 2 * ry * k / (rows - 1)
        rr = r * rng.uniform(0.8, 1.15, n)
        x = sweep + rr * np.cos(t) + rng.normal(0, 0.06, n)
        y = yc + rr * np.sin(t) * rng.uniform(0.75, 1.0) + rng.normal(0, 0.06, n)
        out.append(np.clip(np.stack([x, y], 1), [-hw, -hh], [hw, hh]))
    return [np.concatenate(out)]


def scribble(rng, hw, hh):
    """A random walk with momentum, bouncing off the edges."""
    n = int(rng.integers(80, 220))
    p = np.array([rng.uniform(-hw, hw), rng.uniform(-hh, hh)])
    ang = rng.uniform(0, 2 * math.pi)
    pts = [p.copy()]
    for _ in range(n):
        ang += rng.normal(0, 0.9)
        p = p + 0.7 * np.array([math.cos(ang), math.sin(ang)])
        for k, lim in ((0, hw), (1, hh)):
            if abs(p[k]) > lim:
                p[k] = math.copysign(lim, p[k])
                ang = math.pi - ang if k == 0 else -ang
        pts.append(p.copy())
    return [np.array(pts)]


def _rot(pts, a):
    c, s = math.cos(a), math.sin(a)
    return pts @ np.array([[c, s], [-s, c]])


def veg_shape(rng, letter, hw):
    """(outline polygon, extra strokes: stalks/leaves) of a drawn vegetable, in mm around 0."""
    if letter == "C":
        h, w = rng.uniform(0.75, 0.92) * 2 * hw, rng.uniform(3.2, 5.0)
        poly = np.array(
            [[-w / 2, -h / 2], [w / 2, -h / 2], [w * 0.15, h / 2 - 0.6], [0, h / 2], [-w * 0.15, h / 2 - 0.6]]
        )
        tops = [
            np.array([[x, -h / 2], [x + rng.uniform(-0.8, 0.8), -h / 2 - rng.uniform(1.0, 1.8)]]) for x in (-1, 0, 1)
        ]
        a = rng.uniform(-0.6, 0.6)
        poly = _rot(poly * 0.9 + [0, 0.6], a)
        tops = [_rot(t * 0.9 + [0, 0.6], a) for t in tops]
        return poly, tops
    t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
    r = rng.uniform(0.6, 0.85) * hw
    if letter == "S":
        rr = r * (1 + 0.12 * np.sin(7 * t + rng.uniform(0, 6)))
        poly = np.stack([rr * np.cos(t), rr * np.sin(t)], 1)
        veins = [np.array([[0, 0], [r * 0.6 * math.cos(a), r * 0.6 * math.sin(a)]]) for a in rng.uniform(0, 6.3, 3)]
        return poly, veins
    poly = np.stack([r * np.cos(t), r * 0.92 * np.sin(t) + 0.5], 1)
    star = [
        np.array([[0, -r * 0.92 + 0.5], [1.2 * math.cos(a), -r * 0.92 + 0.5 + 1.2 * math.sin(a)]])
        for a in (3.6, 4.7, 5.8)
    ]
    return poly, star


def letter_strokes(letter, size):
    s = size / 2
    t = np.linspace(0, 1, 24)
    if letter == "C":
        a = 0.7 + t * (2 * math.pi - 1.4)
        return [np.stack([s * 0.8 * np.cos(a), s * np.sin(a)], 1)]
    if letter == "T":
        return [np.array([[-s * 0.8, -s], [s * 0.8, -s]]), np.array([[0, -s], [0, s]])]
    a1 = math.pi * 0.1 + t * math.pi * 1.4
    a2 = math.pi * 1.5 - t * math.pi * 1.4
    up = np.stack([s * 0.6 * np.cos(-a1), -s / 2 + s / 2 * np.sin(-a1)], 1)
    down = np.stack([s * 0.6 * np.cos(a2 + math.pi), s / 2 + s / 2 * np.sin(a2 + math.pi)], 1)
    return [np.concatenate([up, down])]


# ---------------------------------------------------------------- laying ink on the page


def _tooth(rng, shape, px_mm, scale_mm):
    z = rng.normal(0, 1, shape).astype(np.float32)
    z = cv2.GaussianBlur(z, (0, 0), max(0.5, scale_mm * px_mm))
    z /= z.std() + 1e-6
    return np.clip(0.5 + 0.3 * z, 0, 1)


def _layer(strokes, shape, origin, px_mm, width_mm):
    lay = np.zeros(shape, np.uint8)
    th = max(1, int(round(width_mm * px_mm)))
    for st in strokes:
        pts = np.round((st * px_mm - origin) * 16).astype(np.int32)
        cv2.polylines(lay, [pts], False, 255, th, cv2.LINE_AA, shift=4)
    return lay.astype(np.float32) / 255


def lay_ink(refl, ink: Ink, strokes, centre_px, px_mm, rng, mask_poly=None, fill_poly=None):
    """Put `strokes` (mm around the centre) in `ink` on the page `refl` (linear, float32, in place)."""
    half = int(12 * px_mm)
    cx, cy = int(centre_px[0]), int(centre_px[1])
    y0, x0 = max(cy - half, 0), max(cx - half, 0)
    y1, x1 = min(cy + half, refl.shape[0]), min(cx + half, refl.shape[1])
    shape = (y1 - y0, x1 - x0)
    origin = np.array([x0 - centre_px[0], y0 - centre_px[1]])
    w = float(rng.uniform(*ink.width))
    clip = None
    if mask_poly is not None:
        clip = np.zeros(shape, np.uint8)
        pts = np.round((mask_poly * px_mm - origin) * 16).astype(np.int32)
        cv2.fillPoly(clip, [pts], 255, cv2.LINE_AA, shift=4)
        clip = cv2.GaussianBlur(clip.astype(np.float32) / 255, (0, 0), 0.3 * px_mm)
    patch = refl[y0:y1, x0:x1]
    tool = ink.tool
    if tool in ("cpencil", "crayon", "graphite", "watercolour"):
        dep = np.zeros(shape, np.float32)
        for st in strokes:
            dep += _layer([st], shape, origin, px_mm, w) * float(rng.uniform(0.85, 1.1))
        if fill_poly is not None:
            dep += fill_poly
        if clip is not None:
            dep *= clip
        dep = np.minimum(dep, 1.6)
        # pressure varies along the hand's movement
        dep *= 0.85 + 0.3 * _tooth(rng, shape, px_mm, 1.5)
        grain = {"cpencil": 0.7, "crayon": 1.0, "graphite": 0.6, "watercolour": 0.7}[tool] * (1.25 - ink.pressure)
        scale = 0.25 if tool == "crayon" else 0.07
        tooth = _tooth(rng, shape, px_mm, scale)
        cov = np.clip(dep * ink.pressure * (1 + grain) - grain * tooth, 0, 1)
        if tool == "watercolour":
            wash = cv2.GaussianBlur(cov, (0, 0), float(rng.uniform(0.6, 1.4)) * px_mm)
            wet = float(rng.uniform(0.4, 0.9))
            blot = 0.7 + 0.6 * _tooth(rng, shape, px_mm, 1.0)
            area = (wash > 0.12).astype(np.float32)
            rim = np.clip(area - cv2.GaussianBlur(area, (0, 0), 0.35 * px_mm), 0, 1)
            cov = np.clip((1 - wet) * cov + wet * np.clip(wash * 1.6, 0, 1) * blot + 0.5 * rim * wet, 0, 1)
        patch *= 1 - cov[..., None] * (1 - ink.refl)
        return float(cov.mean())
    # felt, gel, highlighter, ballpoint: transparent ink, darker where strokes cross (the dye's
    # density adds up, to at most 1.4 layers: a dye does not go on darkening on paper)
    dens = np.zeros(shape, np.float32)
    bleed = {"felt": 0.12, "gel": 0.03, "highlighter": 0.1, "ballpoint": 0.02}[tool]
    layers = [_layer([st], shape, origin, px_mm, w) for st in strokes]
    if fill_poly is not None:
        layers.append(fill_poly)
    for lay in layers:
        if bleed:
            lay = cv2.GaussianBlur(lay, (0, 0), bleed * px_mm)
        if clip is not None:
            lay = lay * clip
        if tool == "ballpoint":
            lay = lay * (0.75 + 0.25 * _tooth(rng, shape, px_mm, 0.5))
        dens += lay
    dens = np.minimum(dens, 1.4)[..., None]
    refl_ink = ink.refl.astype(np.float32)
    factor = np.where(dens <= 1, 1 - dens * (1 - refl_ink), np.power(refl_ink, dens))
    patch *= factor
    return float(np.minimum(dens, 1).mean())


def colour_cell(refl, ink: Ink, letter: str, style: str, box, place, px_mm, rng, tops=None):
    """Colour one garden cell (`box` in mm on the sheet) in `ink` with `style`."""
    cx = (box.x + box.w / 2 + place.left) * px_mm
    cy = (box.y + box.h / 2 + place.top) * px_mm
    # the strokes' middles keep off the border by a margin, their edges by a little less (wide
    # highlighter strokes run at most ~0.5 mm over the border line, never into the next cell)
    m = float(rng.uniform(0.5, 1.5)) + 0.4 * ink.width[1]
    hw, hh = box.w / 2 - m, box.h / 2 - m
    spacing_k = {"cpencil": 1.3, "graphite": 1.3, "watercolour": 1.3, "crayon": 1.0, "felt": 1.0}.get(ink.tool, 1.2)
    if ink.tool == "highlighter":  # highlighter strokes overlap a little
        spacing_k = 0.75 / 1.25
    wmid = sum(ink.width) / 2
    if ink.tool == "highlighter":
        style = style if style in ("hatch", "solid", "blob") else "hatch"
    strokes, mask = [], None
    if style == "hatch":
        strokes = hatch(rng, hw, hh, rng.uniform(0, math.pi), wmid * spacing_k * rng.uniform(0.9, 1.6))
    elif style == "solid":
        a = rng.uniform(0, math.pi)
        strokes = hatch(rng, hw, hh, a, wmid * 0.8) + hatch(rng, hw, hh, a + rng.uniform(1.2, 1.9), wmid * 0.9)
    elif style == "partial":  # only part of the cell coloured
        f = rng.uniform(0.45, 0.75)
        dx = (1 - f) * hw * rng.choice([-1, 1])
        sub = hatch(rng, hw * f, hh, rng.uniform(0, math.pi), wmid * spacing_k)
        strokes = [s + [dx, 0] for s in sub]
    elif style == "scribble":
        strokes = scribble(rng, hw, hh)
        if ink.tool in ("gel",):
            strokes += scribble(rng, hw, hh)
    elif style == "loops":
        r = rng.uniform(0.9, 1.6)
        strokes = loops(rng, hw - r, hh - r, r, hw, hh)
    elif style == "blob":
        r = rng.uniform(1.8, 3.0)
        c = rng.uniform(-1, 1, 2) * (hw - r)
        t = np.linspace(0, 2 * math.pi * rng.uniform(5, 8), 200)
        rr = r * np.sqrt(np.linspace(0.05, 1, 200)) * (1 + 0.15 * np.sin(3 * t / 7 + rng.uniform(0, 6)))
        strokes = [np.stack([c[0] + rr * np.cos(t), c[1] + rr * np.sin(t)], 1)]
        if ink.tool == "highlighter":
            strokes = hatch(rng, r, r, rng.uniform(0, 3), wmid * 0.6, zigzag=True)
            strokes = [s + c for s in strokes]
    elif style in ("drawn", "drawn+tops"):
        poly, extra = veg_shape(rng, letter if letter in "CST" else str(rng.choice(list("CST"))), min(hw, hh))
        fill = hatch(rng, hw, hh, rng.uniform(0, math.pi), wmid * spacing_k * 0.9)
        lay_ink(refl, ink, fill, (cx, cy), px_mm, rng, mask_poly=poly)
        strokes = [np.vstack([poly, poly[:1]])]
        if style == "drawn+tops" and tops is not None:
            lay_ink(refl, tops, extra, (cx, cy), px_mm, rng)
        else:
            strokes += extra
    elif style == "letter":
        size = rng.uniform(6, 9)
        strokes = [_rot(s, rng.uniform(-0.2, 0.2)) for s in letter_strokes(letter if letter in "CST" else "C", size)]
    return lay_ink(refl, ink, strokes, (cx, cy), px_mm, rng, mask_poly=mask)


def tick_box(refl, ink: Ink, style: str, box, place, px_mm, rng):
    cx = (box.x + box.w / 2 + place.left) * px_mm
    cy = (box.y + box.h / 2 + place.top) * px_mm
    hw, hh = box.w / 2 - rng.uniform(0.6, 1.2), box.h / 2 - rng.uniform(0.6, 1.2)
    if style == "cross":
        strokes = [np.array([[-hw, -hh], [0, 0], [hw, hh]]), np.array([[hw, -hh], [0, 0], [-hw, hh]])]
    elif style == "tick":
        strokes = [np.array([[-hw, 0], [-hw * 0.2, hh], [hw, -hh]])]
    elif style == "slash":
        strokes = [np.array([[-hw, hh], [0, 0], [hw, -hh]])]
    else:  # fill
        strokes = hatch(rng, hw * 0.85, hh * 0.85, rng.uniform(0, 3), 0.6)
    strokes = [_wobble(rng, s, 0.15) for s in strokes]
    lay_ink(refl, ink, strokes, (cx, cy), px_mm, rng)


# ---------------------------------------------------------------- light and camera


def _planck_xy(t):
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    return x, y


def _daylight_xy(t):
    if t <= 7000:
        x = -4.6070e9 / t**3 + 2.9678e6 / t**2 + 0.09911e3 / t + 0.244063
    else:
        x = -2.0064e9 / t**3 + 1.9018e6 / t**2 + 0.24748e3 / t + 0.237040
    return x, -3.0 * x * x + 2.87 * x - 0.275


def light_rgb(t, daylight=False, green=1.0):
    """The light's colour in linear sRGB, white (D65) = (1, 1, 1), green = 1."""
    x, y = _daylight_xy(t) if daylight else _planck_xy(t)
    xyz = np.array([x / y, 1.0, (1 - x - y) / y])
    m = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]])
    rgb = m @ xyz
    rgb = rgb / rgb[1]
    rgb[1] *= green
    return rgb / rgb[1]


def choose_light(rng):
    name = LIGHTS[int(rng.integers(len(LIGHTS)))]
    if name == "daylight":
        t = rng.uniform(5000, 6000)
        return name, f"{t:.0f}K", light_rgb(t, True), None, rng.uniform(0.85, 1.0)
    if name == "shade":
        t = rng.uniform(7000, 8000)
        return name, f"{t:.0f}K", light_rgb(t, True), None, rng.uniform(0.5, 0.95)
    if name == "tungsten":
        t = rng.uniform(2600, 2850)
        return name, f"{t:.0f}K", light_rgb(t), None, rng.uniform(0.55, 0.85)
    if name == "warm-led":
        t = rng.uniform(2900, 3200)
        return name, f"{t:.0f}K", light_rgb(t, green=rng.uniform(0.98, 1.04)), None, rng.uniform(0.55, 0.9)
    if name == "fluorescent":
        t, g = rng.uniform(3500, 4500), rng.uniform(1.06, 1.16)
        return name, f"{t:.0f}K g{g:.2f}", light_rgb(t, green=g), None, rng.uniform(0.5, 0.9)
    tw, tl = rng.uniform(5500, 7000), rng.uniform(2700, 3200)
    return name, f"window {tw:.0f}K + lamp {tl:.0f}K", light_rgb(tw, True), light_rgb(tl), rng.uniform(0.6, 0.95)


def _table(rng, h, w):
    kind = str(rng.choice(["wood", "wood", "white", "grey", "dark"]))
    sh, sw = max(8, h // 4), max(8, w // 4)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    if kind == "wood":
        base = _srgb_lin([rng.uniform(0.5, 0.7), rng.uniform(0.3, 0.45), rng.uniform(0.15, 0.25)])
        a = rng.uniform(0, math.pi)
        warp = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), sw / 20)
        warp /= warp.std() + 1e-6
        u = (xx * math.cos(a) + yy * math.sin(a)) / (sw / rng.uniform(30, 60))
        v = 0.5 + 0.5 * np.sin(2 * math.pi * (u + 0.3 * warp))
        tex = (0.8 + 0.35 * v)[..., None] * base
    else:
        g = {"white": 0.75, "grey": 0.3, "dark": 0.04}[kind]
        tint = rng.uniform(0.95, 1.05, 3)
        n = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 3)
        tex = (g * (1 + 0.03 * n))[..., None] * tint
    return kind, cv2.resize(tex.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def camera(refl, dpi_r, dpi, rng, light):
    """The page `refl` (linear reflectance at dpi_r) photographed at about `dpi` on the sheet;
    (RGB uint8, description)."""
    name, ldesc, l1, l2, k = light
    roll = rng.uniform(0, 2 * math.pi)
    tilt, tdir = math.radians(rng.uniform(0, 15)), rng.uniform(0, 2 * math.pi)
    tx, ty = tilt * math.cos(tdir), tilt * math.sin(tdir)
    rx = np.array([[1, 0, 0], [0, math.cos(tx), -math.sin(tx)], [0, math.sin(tx), math.cos(tx)]])
    ry = np.array([[math.cos(ty), 0, math.sin(ty)], [0, 1, 0], [-math.sin(ty), 0, math.cos(ty)]])
    rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    rot = rz @ rx @ ry
    dist = 450.0
    corners_mm = np.array([[0, 0], [A4[0], 0], [A4[0], A4[1]], [0, A4[1]]], float)
    fill = rng.uniform(0.72, 0.9)
    for _ in range(20):
        f = dist * dpi / 25.4
        pc = (rot @ np.c_[corners_mm - [A4[0] / 2, A4[1] / 2], np.zeros(4)].T).T + [0, 0, dist]
        uv = f * pc[:, :2] / pc[:, 2:3]
        lo, hi = uv.min(0), uv.max(0)
        bw, bh = hi - lo
        long_, short_ = max(bw, bh) / fill, min(bw, bh) / fill
        big = max(long_, short_ * 4 / 3)
        wl, ws = int(big), int(big * 3 / 4)
        if wl * ws <= 12e6:
            break
        dpi *= math.sqrt(12e6 / (wl * ws)) * 0.98
    w, h = (wl, ws) if bw >= bh else (ws, wl)
    slack = np.array([w, h]) - (hi - lo)
    shift = -lo + slack * rng.uniform(0.25, 0.75, 2)
    img_corners = (uv + shift).astype(np.float32)
    # the page at about the photo's scale, then warped
    scale = min(1.0, dpi * 1.2 / dpi_r)
    src = cv2.resize(refl, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else refl
    sh_, sw_ = src.shape[:2]
    src_corners = np.array([[0, 0], [sw_, 0], [sw_, sh_], [0, sh_]], np.float32)
    hom = cv2.getPerspectiveTransform(src_corners, img_corners)
    # A4 mm -> photo pixels, to crop a part of the photo to look at
    LAST["mm_to_photo"] = hom @ np.diag([sw_ / A4[0], sh_ / A4[1], 1.0])
    scene = cv2.warpPerspective(src, hom, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(img_corners * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    maskf = mask.astype(np.float32) / 255
    table_kind, table = _table(rng, h, w)
    shadow = cv2.GaussianBlur(maskf, (0, 0), dpi / 25.4 * 2)
    shadow = np.roll(shadow, (int(rng.integers(-8, 9)), int(rng.integers(-8, 9))), (0, 1))
    table *= (1 - 0.35 * shadow)[..., None]
    scene = scene * maskf[..., None] + table * (1 - maskf)[..., None]
    del table
    # the light: colour (a gradient across the picture for mixed light), slope, vignette
    lh, lw = h // 16 + 1, w // 16 + 1
    vv, uu = np.mgrid[0:lh, 0:lw].astype(np.float32)
    uu, vv = uu / (lw - 1) * 2 - 1, vv / (lh - 1) * 2 - 1
    a = rng.uniform(0, 2 * math.pi)
    along = uu * math.cos(a) + vv * math.sin(a)
    inten = 1 + rng.uniform(0, 0.15) * along
    inten *= 1 - rng.uniform(0.08, 0.25) * (uu**2 + vv**2) / 2
    if l2 is None:
        field = inten[..., None] * l1.astype(np.float32)
    else:
        # lights of equal luminance, the lamp on one side, the window on the other
        lum = np.array([0.2126, 0.7152, 0.0722])
        c1, c2 = l1 / (l1 @ lum), l2 / (l2 @ lum)
        sharp = rng.uniform(1.2, 3.0)
        tmix = 1 / (1 + np.exp(-sharp * (along + rng.uniform(-0.3, 0.3))))
        bal = rng.uniform(0.7, 1.4)
        field = inten[..., None] * ((1 - tmix)[..., None] * c1 + bal * tmix[..., None] * c2)
    # the phone's white balance: the light seen on the sheet, corrected partly
    sheet_px = cv2.resize(maskf, (lw, lh), interpolation=cv2.INTER_AREA) > 0.5
    est = field[sheet_px].mean(0)
    est = est / est[1]
    awb = f"k{k:.2f}"
    if table_kind == "wood" and rng.random() < 0.5:
        fool = np.array([rng.uniform(1.1, 1.3), 1.0, rng.uniform(0.72, 0.88)])
        est = est * fool
        awb += f" fooled-by-wood({fool[0]:.2f},{fool[2]:.2f})"
    gains = np.power(est, -k).astype(np.float32)
    field = cv2.resize((field * gains).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    raw = scene * field
    del scene, field
    # exposure: the paper's level (its brightest channel) set with an error
    sample = raw[::8, ::8][mask[::8, ::8] > 128]
    paper = np.percentile(sample.max(1), 95)
    ev = rng.uniform(-0.6, 0.3)
    target = float(rng.uniform(0.8, 0.95)) ** 2.2 * 2**ev
    raw *= target / paper
    # lens blur, sensor noise (more in dim light), tone curve, saturation, filter
    blur = rng.uniform(0.3, 1.0)
    raw = cv2.GaussianBlur(raw, (0, 0), blur)
    iso = rng.uniform(1, 3) * (2.0 if name in ("tungsten", "warm-led") else 1.0) * 2 ** (-min(ev, 0))
    shot = 0.00008 * iso
    noise = rng.standard_normal(raw.shape, dtype=np.float32)
    raw += noise * np.sqrt(np.clip(raw, 0, None) * shot + 1e-6)
    chroma = cv2.GaussianBlur(rng.standard_normal(raw.shape, dtype=np.float32), (0, 0), 1.5)
    raw += chroma * (0.004 * math.sqrt(iso))
    del noise, chroma
    y = _lin_srgb(raw).astype(np.float32)
    del raw
    con = rng.uniform(0, 0.45)
    y = np.clip(y, 0, 1)
    y = (1 - con) * y + con * y * y * (3 - 2 * y)
    filt = str(rng.choice(["none", "none", "none", "warm", "vivid", "vibrance"]))
    sat = rng.uniform(0.9, 1.25)
    luma = y @ np.array([0.299, 0.587, 0.114], np.float32)
    if filt == "vivid":
        sat = rng.uniform(1.25, 1.45)
    if filt == "vibrance":
        chrom = y.max(2) - y.min(2)
        sat_px = 1 + rng.uniform(0.4, 0.9) * np.clip(1 - chrom / 0.5, 0, 1)
        y = luma[..., None] + sat_px[..., None] * (y - luma[..., None])
    else:
        y = luma[..., None] + sat * (y - luma[..., None])
    if filt == "warm":
        y *= np.array([rng.uniform(1.04, 1.1), 1.0, rng.uniform(0.84, 0.93)], np.float32)
    out = np.clip(y * 255 + 0.5, 0, 255).astype(np.uint8)
    del y, luma
    q = int(rng.integers(60, 93))
    buf = io.BytesIO()
    Image.fromarray(out).save(buf, "JPEG", quality=q)
    out = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")).copy()
    desc = (
        f"light {name} ({ldesc}), awb {awb}, {dpi:.0f} dpi {w}x{h}, tilt {math.degrees(tilt):.1f}, "
        f"roll {math.degrees(roll):.0f}, table {table_kind}, ev {ev:+.2f}, blur {blur:.2f}, iso x{iso:.1f}, "
        f"contrast {con:.2f}, sat {sat:.2f}, filter {filt}, jpeg {q}"
    )
    return out, desc


# ---------------------------------------------------------------- the sheet


TOOLS = ["cpencil", "cpencil", "felt", "crayon", "gel", "highlighter", "watercolour"]
STYLES = {
    "cpencil": ["hatch", "hatch", "solid", "scribble", "loops", "drawn", "drawn+tops", "blob", "partial", "letter"],
    "crayon": ["hatch", "solid", "scribble", "loops", "drawn", "blob"],
    "felt": ["hatch", "solid", "scribble", "loops", "drawn", "drawn+tops", "blob", "letter"],
    "gel": ["scribble", "loops", "drawn", "solid", "blob"],
    "highlighter": ["hatch", "solid", "blob"],
    "watercolour": ["hatch", "solid", "loops", "drawn"],
    "graphite": ["hatch", "scribble", "letter", "letter", "solid"],
}


def _neighbours(field):
    r, c = (int(p[1:]) for p in field.split("_")[-2:])
    base = field.rsplit("_", 2)[0]
    return [f"{base}_r{r + dr}_c{c + dc}" for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))]


def photo(layout, page_id: str, rng):
    lang, _players, pdf, place, boxes = pages.random_page(layout, page_id, rng, 0.4)
    light = choose_light(rng)
    dpi = float(rng.uniform(120, 300))
    dpi_r = 200 if dpi < 165 else 250 if dpi < 205 else 300
    px_mm = dpi_r / 25.4
    page = pages.render(pdf, dpi_r)
    lut = _srgb_lin(np.arange(256) / 255).astype(np.float32)
    refl = cv2.LUT(page, lut)
    paper = np.array([rng.uniform(0.86, 0.92), rng.uniform(0.86, 0.91), rng.uniform(0.82, 0.92)], np.float32)
    refl *= paper
    tag = f"+light:{light[0]}"
    truth, kinds = {}, {}
    cells = grid_cells(layout, page_id)
    by_field = {b.field: b for b in boxes}
    # the garden
    sets = [dice_set(rng, str(rng.choice(TOOLS)))]
    if rng.random() < 0.35:
        sets.append(dice_set(rng, str(rng.choice(TOOLS))))
    others = [other_ink(rng, sets[0]["C"].tool)]
    if rng.random() < 0.4:
        others.append(other_ink(rng, str(rng.choice(TOOLS))))
    share_other = 0.0 if rng.random() < 0.25 else rng.uniform(0.05, 0.3)
    order = sorted(cells)
    n_col = int(round(len(order) * rng.uniform(0.2, 0.9)))
    coloured = set(rng.choice(order, n_col, replace=False).tolist())
    letters: dict = {}
    for field in order:
        box = by_field[field]
        if field not in coloured:
            truth[field], kinds[field] = "", f"none/empty {tag}"
            continue
        near = [letters[n] for n in _neighbours(field) if n in letters]
        letter = str(rng.choice(near)) if near and rng.random() < 0.6 else str(rng.choice(list("CST")))
        letters[field] = letter
        if rng.random() < share_other:
            ink = others[int(rng.integers(len(others)))]
            want = "?"
        else:
            ink = sets[int(rng.integers(len(sets)))][letter]
            want = letter
        style = str(rng.choice(STYLES[ink.tool]))
        tops = None
        if style == "drawn+tops":
            if want != "?" and letter in "CT" and ink.tool in ("cpencil", "felt"):
                tops = next(s["S"] for s in sets if s["S"].tool == ink.tool)
            else:
                style = "drawn"
        if want == "T" and ink.tool in ("cpencil", "watercolour", "crayon"):
            # red drawn lightly reads pink: a red pencil here is pressed firmly
            ink.pressure = max(ink.pressure, 0.75)
        if ink.colour == "yellow" and style in ("letter", "partial"):
            style = "solid"
        if ink.colour == "graphite" and style == "letter":
            want = "?"
        colour_cell(refl, ink, letter, style, box, place, px_mm, rng, tops=tops)
        truth[field] = want
        kinds[field] = f"{ink.name}/{style}{'' if tops is None else '+' + tops.name} {tag}"
    # the pig and the market, ticked with a pencil or a pen
    tick_fields = [b.field for b in boxes if b.kind in ("check", "round")]
    groups: dict = {}
    for f in tick_fields:
        groups.setdefault(f.rstrip("0123456789").rstrip("_") if not f.startswith("pig_bonus") else "bonus", []).append(
            f
        )
    if rng.random() < 0.5:
        tick_ink = Ink("graphite", "graphite", _pick(rng, OTHER["graphite"]), rng)
    else:
        c = str(rng.choice(["blue", "black"]))
        tick_ink = Ink("ballpoint", c, _pick(rng, OTHER[c]), rng)
    tick_style = str(rng.choice(["cross", "tick", "slash", "fill"]))
    for g, fs in groups.items():
        fs = sorted(fs, key=lambda f: int("".join(ch for ch in f if ch.isdigit()) or 0))
        n = int(rng.integers(0, len(fs) * (0.8 if g == "pig" else 0.7) + 1))
        if g == "bonus":
            n = int(rng.integers(0, 3))
        for i, f in enumerate(fs):
            if i < n:
                tick_box(refl, tick_ink, tick_style, by_field[f], place, px_mm, rng)
                truth[f], kinds[f] = True, f"{tick_ink.name}/{tick_style} {tag}"
            else:
                truth[f], kinds[f] = False, f"none/empty {tag}"
    img, desc = camera(refl, dpi_r, dpi, rng, light)
    kinds["_photo"] = f"{lang}, page {dpi_r} dpi, paper {paper.round(2).tolist()}, {desc}"
    kinds["_light"] = light[0]
    return img, truth, kinds
