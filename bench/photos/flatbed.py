"""A pen model on paper; 75% phone photos through a Bayer sensor, 25% flatbed scans.

Written from the feature's specification alone, apart from the reader's tuning. Each page is
rendered by poppler at 300 or 400 dpi and printed (toner black, tinted paper). A random
15-60% of the readable boxes is marked with a stroke model: a round nib of varying width and
pressure swept along wobbly Bezier paths, supersampled, pigment layered where strokes cross,
graphite and colour-pencil grain from the paper's tooth. Pens: HB, 2B and mechanical pencils,
blue and black ballpoints, black gel, black and red felt-tips; per player a habit (one style
for every box, or mixed): ticks, crosses, slashes, dashes, dots, scribbled or hatched fills,
circles round the round boxes; hard cases light strokes, small ticks, off-centre marks,
strays 1-2.5 mm over the border (never into the inner part of a neighbouring box). Garden
cells get the orange, green or red colour pencil of a random vegetable (hatched, scribbled,
crossed, its letter, or a small coloured-in drawing). Every mark is checked at the photo's
scale and blur and drawn firmer until plainly visible ("+firmed"). Handwritten numbers go in
half the write boxes. Then 75% are phone photos: a pinhole camera in 3D, tilted up to 20
degrees, any roll, 23-50 mm equivalent lens with barrel or pincushion distortion, the paper
sometimes curled at one edge, lying on a table with its soft shadow, 8-14 MP, the sheet at
100-300 dpi; a window's gradient, a lamp's warm hot spot, vignetting, sometimes a phone's
shadow; white balance error; defocus disc and motion blur; an RGGB Bayer sensor with shot
and read noise, 12 bits, bilinear or edge-aware demosaicing; a tone curve with highlight
shoulder and S-curve; chroma noise blotches; unsharp masking; JPEG 40-90 with 4:2:0 chroma.
25% are flatbed scans: 150-300 dpi on a 216 x 297 mm bed, skew up to 3 degrees (sometimes
upside down), offset on the glass, the paper edge's dark line, the lid's shadow from one
edge, lamp falloff, optics blur, sensor column pattern and noise, sometimes greyscale (not
for Harvest Dice), auto-levels, JPEG 70-92.

`photo(layout, page_id, rng)` gives (RGB uint8 image, truth, kinds).
"""

from __future__ import annotations

import io

import cv2
import numpy as np
from PIL import Image

from bench.photos.pages import random_page, render
from sheetgen.scan.blank import grid_cells

A4 = (210.0, 297.0)
DEBUG: dict = {}  # the last phone photo's maps (photo pixel -> A4 mm), to look at crops

# ---------------------------------------------------------------------------------------------
# colour helpers (sRGB <-> linear light)

_TO_LIN = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)


def to_lin(img8):
    return _TO_LIN[img8]


def to_srgb8(lin):
    return (np.clip(lin, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# the printed page


def print_page(img, rng):
    """Laser/inkjet print on office paper: blacks not quite black, paper off-white and tinted,
    a little toner grain. Works in place on a copy."""
    paper = (
        np.array([1.0, 1.0, 1.0]) - rng.uniform(0.02, 0.08) - np.array([0, rng.uniform(0, 0.02), rng.uniform(0, 0.05)])
    )
    black = rng.uniform(0.015, 0.05)  # linear reflectance of toner black
    lut = np.stack(
        [
            np.clip((black + (paper[c] - black) * (np.arange(256) / 255.0) ** 2.2) ** (1 / 2.2) * 255, 0, 255)
            for c in range(3)
        ],
        1,
    ).astype(np.uint8)
    out = np.empty_like(img)
    for c in range(3):
        out[..., c] = lut[img[..., c], c]
    return out


# ---------------------------------------------------------------------------------------------
# pens and the stroke model

# name: (colour as linear reflectance at full pressure, nib width mm range, pressure range, grain)
PENS = {
    "hb-pencil": ((0.20, 0.20, 0.22), (0.30, 0.50), (0.55, 0.85), 0.55),
    "2b-pencil": ((0.12, 0.12, 0.13), (0.40, 0.70), (0.65, 0.95), 0.45),
    "mech-pencil": ((0.22, 0.22, 0.24), (0.25, 0.35), (0.55, 0.85), 0.45),
    "blue-ballpoint": ((0.04, 0.07, 0.35), (0.28, 0.40), (0.75, 0.95), 0.15),
    "black-ballpoint": ((0.04, 0.04, 0.05), (0.28, 0.40), (0.75, 0.95), 0.15),
    "black-gel": ((0.02, 0.02, 0.03), (0.35, 0.50), (0.9, 1.0), 0.05),
    "felt-tip": ((0.03, 0.03, 0.06), (0.55, 0.95), (0.9, 1.0), 0.05),
    "red-felt-tip": ((0.65, 0.04, 0.06), (0.55, 0.90), (0.9, 1.0), 0.05),
}
COLOUR_PENCILS = {
    "C": ("orange-pencil", (0.92, 0.30, 0.03)),
    "S": ("green-pencil", (0.10, 0.40, 0.07)),
    "T": ("red-pencil", (0.72, 0.04, 0.05)),
}


def bezier(p0, p1, p2, p3, n=24):
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3


def wobbly(points, rng, wob):
    """A hand's path through `points` (mm): a smooth curve with a little wobble."""
    pts = [np.asarray(p, float) for p in points]
    out = []
    for a, b in zip(pts[:-1], pts[1:]):
        d = b - a
        n = np.array([-d[1], d[0]]) / max(np.hypot(*d), 1e-6)
        c1 = a + d / 3 + n * rng.normal(0, wob) + rng.normal(0, wob / 2, 2)
        c2 = a + 2 * d / 3 + n * rng.normal(0, wob) + rng.normal(0, wob / 2, 2)
        seg = bezier(a, c1, c2, b, max(8, int(np.hypot(*d) * 6)))
        out.append(seg if not out else seg[1:])
    return np.concatenate(out)


class Stroke:
    """A path (mm, A4 coordinates), a pressure profile along it and the pen."""

    def __init__(self, path, pressure, width):
        self.path = path
        self.pressure = pressure  # per point, 0-1
        self.width = width  # per point, mm


def profile(n, rng, level, taper=True):
    """Pressure along a stroke: a hand presses, slowly varies and lifts at the end."""
    t = np.linspace(0, 1, n)
    p = level * (1 + 0.15 * np.sin(2 * np.pi * (t * rng.uniform(0.5, 2) + rng.random())))
    if taper:
        p *= np.clip(np.minimum(t / rng.uniform(0.04, 0.15), (1 - t) / rng.uniform(0.08, 0.3)), 0.25, 1) ** 0.6
    return np.clip(p, 0, 1)


def draw_strokes(page, strokes, colour, grain, dpi, rng):
    """Sweep a round nib along each stroke on `page` (uint8 RGB, A4 at `dpi`), multiplying the
    paper's reflectance by the pen's colour where it lays pigment. Returns the darkening map of
    the patch (linear luminance, 0-1) and the patch's origin, for the visibility check."""
    ppmm = dpi / 25.4
    allp = np.concatenate([s.path for s in strokes])
    pad = 2.0
    x0 = max(int((allp[:, 0].min() - pad) * ppmm), 0)
    y0 = max(int((allp[:, 1].min() - pad) * ppmm), 0)
    x1 = min(int((allp[:, 0].max() + pad) * ppmm) + 1, page.shape[1])
    y1 = min(int((allp[:, 1].max() + pad) * ppmm) + 1, page.shape[0])
    h, w = y1 - y0, x1 - x0
    ss = 2  # supersampling
    alpha = np.zeros((h, w), np.float32)
    for s in strokes:
        buf = np.zeros((h * ss, w * ss), np.uint8)
        pts = (s.path * ppmm - [x0, y0]) * ss
        for i in range(len(pts) - 1):
            th = max(1, int(round(s.width[i] * ppmm * ss)))
            v = int(round(255 * s.pressure[i]))
            a = (pts[i] * 16).astype(int)
            b = (pts[i + 1] * 16).astype(int)
            cv2.line(buf, tuple(a), tuple(b), v, th, cv2.LINE_AA, shift=4)
        one = cv2.resize(buf, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        # layers of pigment: a second pass over the same place darkens further
        alpha = 1 - (1 - alpha) * (1 - one)
    if grain > 0:
        # the paper's tooth: graphite and wax catch on the fibres' peaks, skip the valleys
        tooth = rng.normal(0, 1, (h, w)).astype(np.float32)
        tooth = cv2.GaussianBlur(tooth, (0, 0), max(0.5, ppmm * 0.03))
        tooth /= tooth.std() + 1e-6
        streak = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), ppmm * 0.12)
        streak /= streak.std() + 1e-6
        alpha = alpha * np.clip(1 + grain * (0.45 * tooth + 0.25 * streak) - grain * 0.2, 0.05, 1.2)
        alpha = np.clip(alpha, 0, 1)
    col = np.asarray(colour, np.float32)
    patch = to_lin(page[y0:y1, x0:x1])
    mult = 1 - alpha[..., None] * (1 - col)
    page[y0:y1, x0:x1] = to_srgb8(patch * mult)
    dark = 1 - (mult @ np.array([0.2126, 0.7152, 0.0722], np.float32))
    return dark, (x0, y0)


# ---------------------------------------------------------------------------------------------
# mark shapes (paths in box-relative unit coordinates, then placed on the box in mm)


def shape(style, rng, small=False):
    """Paths (lists of points, unit box: 0..1 both ways, y down) of a mark style."""
    s = rng.uniform(0.35, 0.5) if small else rng.uniform(0.6, 1.0)
    cx, cy = 0.5 + rng.normal(0, 0.06), 0.5 + rng.normal(0, 0.06)
    if style == "tick":
        a = np.array([cx - 0.4 * s, cy + rng.uniform(-0.05, 0.1) * s])
        b = np.array([cx - 0.1 * s, cy + 0.4 * s])
        c = np.array([cx + 0.45 * s + rng.normal(0, 0.05), cy - 0.5 * s])
        return [[a, b, c]]
    if style == "cross":
        d = s / 2
        j = lambda: rng.normal(0, 0.04)
        return [
            [(cx - d + j(), cy - d + j()), (cx + d + j(), cy + d + j())],
            [(cx + d + j(), cy - d + j()), (cx - d + j(), cy + d + j())],
        ]
    if style == "slash":
        d = s / 2
        return [[(cx + d, cy - d), (cx - d, cy + d)]]
    if style == "dash":
        d = s * rng.uniform(0.3, 0.45)
        tilt = rng.normal(0, 0.06)
        return [[(cx - d, cy + tilt), (cx + d, cy - tilt)]]
    if style == "dot":
        r = rng.uniform(0.08, 0.14)
        t = np.linspace(0, 2 * np.pi * rng.uniform(2, 3.5), 30)
        rr = r * np.linspace(0.2, 1, 30)
        return [list(zip(cx + rr * np.cos(t), cy + rr * np.sin(t)))]
    if style == "scribble":
        # back-and-forth zigzag filling most of the box
        m = rng.uniform(0.08, 0.2)
        n = int(rng.integers(5, 10))
        ys = np.linspace(m, 1 - m, n)
        pts = []
        for i, y in enumerate(ys):
            x = m + rng.normal(0, 0.03) if i % 2 == 0 else 1 - m + rng.normal(0, 0.03)
            pts.append((x, y + rng.normal(0, 0.02)))
        if rng.random() < 0.5:
            pts = [(y, x) for x, y in pts]
        return [pts]
    if style == "hatch":
        m = rng.uniform(0.08, 0.18)
        n = int(rng.integers(4, 8))
        paths = []
        for k in np.linspace(-0.8, 0.8, n):
            # lines x - y = k, clipped to [m, 1-m]
            lo = max(m, m + k)
            hi = min(1 - m, 1 - m + k)
            if hi - lo > 0.05:
                paths.append([(lo, lo - k), (hi, hi - k)])
        return paths
    if style == "circle":
        r = rng.uniform(0.55, 0.7)
        a0 = rng.uniform(0, 2 * np.pi)
        t = np.linspace(a0, a0 + 2 * np.pi * rng.uniform(1.0, 1.15), 40)
        rx, ry = r * rng.uniform(0.9, 1.1), r * rng.uniform(0.9, 1.1)
        return [list(zip(0.5 + rx * np.cos(t), 0.5 + ry * np.sin(t)))]
    if style == "letter":  # in a garden cell: the vegetable's initial (chosen by caller)
        raise ValueError
    raise ValueError(style)


LETTERS = {
    "C": [[(0.75, 0.25), (0.5, 0.12), (0.25, 0.3), (0.22, 0.6), (0.45, 0.88), (0.78, 0.75)]],
    "S": [[(0.75, 0.2), (0.45, 0.12), (0.25, 0.3), (0.5, 0.5), (0.75, 0.68), (0.55, 0.88), (0.22, 0.8)]],
    "T": [[(0.2, 0.18), (0.8, 0.18)], [(0.5, 0.18), (0.5, 0.88)]],
}
DIGITS = {
    "0": [[(0.5, 0.1), (0.25, 0.3), (0.25, 0.7), (0.5, 0.9), (0.75, 0.7), (0.75, 0.3), (0.5, 0.1)]],
    "1": [[(0.35, 0.25), (0.55, 0.1), (0.55, 0.9)]],
    "2": [[(0.25, 0.25), (0.5, 0.1), (0.75, 0.3), (0.25, 0.9), (0.8, 0.9)]],
    "3": [[(0.25, 0.15), (0.7, 0.2), (0.45, 0.5), (0.75, 0.7), (0.25, 0.88)]],
    "4": [[(0.6, 0.1), (0.2, 0.65), (0.8, 0.65)], [(0.62, 0.35), (0.62, 0.9)]],
    "5": [[(0.75, 0.1), (0.3, 0.1), (0.28, 0.45), (0.7, 0.55), (0.6, 0.88), (0.25, 0.85)]],
    "6": [[(0.7, 0.12), (0.3, 0.45), (0.3, 0.8), (0.6, 0.88), (0.7, 0.6), (0.3, 0.6)]],
    "7": [[(0.2, 0.12), (0.8, 0.12), (0.4, 0.9)]],
    "8": [
        [
            (0.5, 0.5),
            (0.28, 0.28),
            (0.5, 0.1),
            (0.72, 0.28),
            (0.5, 0.5),
            (0.25, 0.72),
            (0.5, 0.9),
            (0.75, 0.72),
            (0.5, 0.5),
        ]
    ],
    "9": [[(0.7, 0.4), (0.35, 0.45), (0.32, 0.15), (0.7, 0.15), (0.7, 0.4), (0.6, 0.9)]],
}


def place(paths, box, at, scale=1.0, rot=0.0, shift=(0.0, 0.0)):
    """Unit-box paths onto a box (mm on the sheet) -> A4 mm."""
    c, s = np.cos(rot), np.sin(rot)
    out = []
    for p in paths:
        p = (np.asarray(p, float) - 0.5) * scale
        p = p @ np.array([[c, s], [-s, c]])
        p = p * [box.w, box.h] + [box.x + box.w / 2 + shift[0], box.y + box.h / 2 + shift[1]]
        out.append(p + [at.left, at.top])
    return out


def intrudes(paths, me, others, at):
    """Whether any point of the mark reaches into the inner part of another readable box
    (where a person would take it for that box's mark)."""
    pts = np.concatenate(paths) - [at.left, at.top]
    for b in others:
        if b is me:
            continue
        inset = 0.3 * min(b.w, b.h)
        inside = (
            (pts[:, 0] > b.x + inset)
            & (pts[:, 0] < b.x + b.w - inset)
            & (pts[:, 1] > b.y + inset)
            & (pts[:, 1] < b.y + b.h - inset)
        )
        if inside.any():
            return True
    return False


# ---------------------------------------------------------------------------------------------
# marking the sheet


def mark_page(page, dpi, boxes, at, garden, rng, seen_dpi, blur_px, floor):
    """Mark a random set of boxes on `page`; (truth, kinds). `seen_dpi` and `blur_px` (photo
    pixels) say how the photo will see the page: every mark is checked to stay plainly visible
    there (its darkening after that blur at least `floor`), and made firmer if it would not."""
    readable = [b for b in boxes if b.kind != "write" or b.field in garden]
    truth, kinds = {}, {}
    share = rng.uniform(0.15, 0.6)
    chosen = set(np.flatnonzero(rng.random(len(readable)) < share))
    # the player's habits
    pen = rng.choice(list(PENS), p=[0.3, 0.12, 0.08, 0.17, 0.1, 0.08, 0.1, 0.05])
    second = rng.choice(list(PENS)) if rng.random() < 0.2 else pen
    uniform = rng.random() < 0.45
    habit = rng.choice(
        ["tick", "cross", "scribble", "hatch", "dot", "slash", "dash"], p=[0.3, 0.3, 0.12, 0.08, 0.06, 0.08, 0.06]
    )
    light_player = rng.random() < 0.15
    round_habit = rng.choice(["circle", "same"], p=[0.6, 0.4])
    garden_habit = rng.choice(["hatch", "scribble", "letter", "cross", "blob"])
    ppmm = dpi / 25.4
    sigma = (dpi / seen_dpi) * np.hypot(0.45, blur_px)

    for i, b in enumerate(readable):
        if b.field in garden:
            truth[b.field] = ""
        else:
            truth[b.field] = False
        if i not in chosen:
            continue
        hard = []
        if b.field in garden:
            letter = str(rng.choice(["C", "S", "T"]))
            pname, colour = COLOUR_PENCILS[letter]
            style = (
                garden_habit
                if rng.random() < 0.7
                else str(rng.choice(["hatch", "scribble", "letter", "cross", "blob"]))
            )
            widths, press, grain = (0.5, 0.9), (0.55, 0.9), 0.6
            truth[b.field] = letter
        else:
            pname = str(pen if rng.random() < 0.85 else second)
            colour, widths, press, grain = PENS[pname]
            if b.kind == "round" and round_habit == "circle":
                style = "circle"
            elif uniform:
                style = str(habit)
            else:
                style = str(
                    rng.choice(
                        ["tick", "cross", "scribble", "hatch", "dot", "slash", "dash", "circle"],
                        p=[0.3, 0.25, 0.1, 0.07, 0.06, 0.1, 0.05, 0.07],
                    )
                )
            if style == "circle" and b.kind != "round":
                style = "tick"
            truth[b.field] = True
        small = style in ("tick", "cross") and rng.random() < 0.1
        light = (light_player and rng.random() < 0.5) or rng.random() < 0.06
        stray = style in ("tick", "cross", "slash", "dash") and rng.random() < 0.1
        offc = not stray and rng.random() < 0.06
        if small:
            hard.append("+small")
        if light:
            hard.append("+light")
        width = rng.uniform(*widths)
        level = rng.uniform(*press)
        if light:
            level *= rng.uniform(0.3, 0.5)
        # geometry
        for attempt in range(6):
            if style == "letter":
                paths = [np.asarray(p, float) for p in LETTERS[truth[b.field]]]
                scale = rng.uniform(0.6, 0.85)
            elif style == "blob":  # a little drawing of the vegetable, coloured in: a filled oval
                paths = shape("scribble", rng)
                scale = rng.uniform(0.4, 0.7)
            else:
                paths = shape(style, rng, small)
                scale = 1.0
            rot = rng.normal(0, 0.12)
            shift = (0.0, 0.0)
            if offc:
                shift = tuple(rng.uniform(-0.18, 0.18, 2) * [b.w, b.h])
            if stray and attempt < 4:
                # the hand carries on past the border: one end of the mark 1-2.5 mm outside
                reach = rng.uniform(1.0, 2.5) * (0.5 if b.kind == "mini" else 1) * (1 - attempt / 4)
                scale = (min(b.w, b.h) + 2 * reach) / min(b.w, b.h)
            mm = place(paths, b, at, scale, rot, shift)
            wob = 0.04 * min(b.w, b.h) if pname.endswith("pencil") or "felt" in pname else 0.025 * min(b.w, b.h)
            mm = [wobbly(p, rng, wob) for p in mm]
            if not intrudes(mm, b, readable, at):
                break
            stray = stray and attempt < 3
            offc = False
        else:
            continue  # cannot place it without reaching into a neighbour: leave the box empty
        if stray and scale > 1:
            hard.append("+stray")
        if offc:
            hard.append("+offcentre")
        # draw it, firmer until a person can plainly see it in the photo
        y0 = int(max(0, (at.top + b.y - 4) * ppmm))
        x0 = int(max(0, (at.left + b.x - 4) * ppmm))
        y1 = int((at.top + b.y + b.h + 4) * ppmm)
        x1 = int((at.left + b.x + b.w + 4) * ppmm)
        keep = page[y0:y1, x0:x1].copy()
        for _tries in range(5):
            strokes = []
            for p in mm:
                n = len(p)
                pr = profile(n, rng, level, taper=style not in ("dot",))
                wd = width * (0.85 + 0.3 * pr / max(level, 1e-3)) if pname.endswith("pencil") else np.full(n, width)
                strokes.append(Stroke(p, pr, wd))
            dark, (ox, oy) = draw_strokes(page, strokes, colour, grain, dpi, rng)
            seen = cv2.GaussianBlur(dark, (0, 0), sigma)
            # where it counts: over the box itself (a stray tail alone does not count)
            bx0, by0 = int((at.left + b.x) * ppmm) - ox, int((at.top + b.y) * ppmm) - oy
            bx1, by1 = bx0 + int(b.w * ppmm), by0 + int(b.h * ppmm)
            inner = seen[max(by0, 0) : max(by1, 0), max(bx0, 0) : max(bx1, 0)]
            if style == "circle":
                inner = seen
            vis = float(inner.max()) if inner.size else 0.0
            want = floor * (0.7 if light else 1.0)
            if vis >= want:
                break
            page[y0:y1, x0:x1] = keep
            level = min(1.0, level * 1.35)
            width *= 1.2
            hard = [h for h in hard if h != "+firmed"] + ["+firmed"]
        kinds[b.field] = " ".join([f"{pname}/{style}", *hard])

    # handwritten numbers in half the other write boxes (not read)
    for b in boxes:
        if b.kind != "write" or b.field in garden or rng.random() < 0.5:
            continue
        digits = str(int(rng.integers(0, 100 if b.w > 9 else 10)))
        colour, widths, press, grain = PENS[str(pen)]
        n = len(digits)
        dw = min(0.8 / n, 0.5 * b.h / max(b.w, 1e-3))
        paths = []
        for k, ch in enumerate(digits):
            for p in DIGITS[ch]:
                p = np.asarray(p, float)
                q = np.stack(
                    [0.5 + (k - (n - 1) / 2) * dw * 1.1 + (p[:, 0] - 0.5) * dw, 0.5 + (p[:, 1] - 0.5) * 0.6], 1
                )
                paths.append(q)
        mm = [wobbly(p, rng, 0.02 * b.h) for p in place(paths, b, at, 1.0, rng.normal(0, 0.05))]
        if intrudes(mm, b, readable, at):
            continue
        strokes = [
            Stroke(p, profile(len(p), rng, rng.uniform(*press)), np.full(len(p), rng.uniform(*widths))) for p in mm
        ]
        draw_strokes(page, strokes, colour, grain, dpi, rng)
    return truth, kinds


# ---------------------------------------------------------------------------------------------
# the phone camera


def smooth_noise(rng, shape, scale):
    small = rng.normal(0, 1, (max(2, int(shape[0] / scale)), max(2, int(shape[1] / scale)))).astype(np.float32)
    big = cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return big / (big.std() + 1e-6)


def table(rng, h, w):
    """The surface the sheet lies on, linear RGB."""
    kind = rng.choice(["wood", "grey", "dark", "white", "mat", "cloth"])
    base = {
        "wood": (0.35, 0.18, 0.08),
        "grey": (0.25, 0.25, 0.25),
        "dark": (0.04, 0.04, 0.045),
        "white": (0.7, 0.7, 0.68),
        "mat": (0.05, 0.18, 0.10),
        "cloth": (0.3, 0.08, 0.06),
    }[kind]
    base = np.array(base, np.float32) * rng.uniform(0.7, 1.2)
    hh, ww = h // 4, w // 4
    if kind == "wood":
        # stretched grain along a direction
        g = rng.normal(0, 1, (hh, max(2, ww // 40))).astype(np.float32)
        g = cv2.resize(g, (ww, hh), interpolation=cv2.INTER_CUBIC)
        g = cv2.GaussianBlur(g, (0, 0), 1.5)
        tex = 1 + 0.25 * g / (g.std() + 1e-6) + 0.08 * smooth_noise(rng, (hh, ww), 30)
    else:
        tex = 1 + 0.04 * smooth_noise(rng, (hh, ww), 40) + 0.03 * rng.normal(0, 1, (hh, ww)).astype(np.float32)
    tex = cv2.resize(np.clip(tex, 0.3, 2).astype(np.float32), (w, h))
    return tex[..., None] * base, str(kind)


def camera_maps(rng, paper_mm, frame, dpi_target, tilt, f35):
    """Where each photo pixel looks on the paper (mm), through a camera tilted `tilt` degrees,
    rolled any way, a lens of `f35` mm equivalent with mild radial distortion, the paper
    perhaps curled. Computed on a coarse grid and interpolated. Returns (map_x_mm, map_y_mm,
    actual centre dpi, description)."""
    W, H = frame
    pw, ph = paper_mm
    diag = np.hypot(W, H)
    f = diag * f35 / 43.27
    phi = rng.uniform(0, 2 * np.pi)
    th = np.radians(tilt)
    if rng.random() < 0.7:
        roll = rng.integers(0, 4) * 90 + rng.normal(0, 7)
    else:
        roll = rng.uniform(0, 360)
    # curl: one edge of the sheet lifts off the table (mm up, toward the camera)
    curl = rng.uniform(1, 6) if rng.random() < 0.35 else 0.0
    cedge = rng.integers(0, 4)
    k1 = rng.uniform(-0.05, 0.03)

    def lift(x, y):
        if not curl:
            return np.zeros_like(x)
        t = [x / pw, 1 - x / pw, y / ph, 1 - y / ph][cedge]
        return curl * np.clip(1 - t / 0.35, 0, 1) ** 2

    target = np.array([pw / 2 + rng.normal(0, 8), ph / 2 + rng.normal(0, 8), 0])
    dirv = np.array(
        [np.sin(th) * np.cos(phi), np.sin(th) * np.sin(phi), np.cos(th)]
    )  # camera -> target (paper: x right, y down, z away)
    for _ in range(8):
        Z = f * 25.4 / dpi_target
        C = target - dirv * Z
        fwd = dirv
        r = np.array([np.cos(np.radians(roll)), np.sin(np.radians(roll)), 0])
        xc = r - r.dot(fwd) * fwd
        xc /= np.linalg.norm(xc)
        yc = np.cross(fwd, xc)
        R = np.stack([xc, yc, fwd])  # world -> camera
        corners = np.array([[0, 0, 0], [pw, 0, 0], [pw, ph, 0], [0, ph, 0]], float)
        cam = (corners - C) @ R.T
        uv = f * cam[:, :2] / cam[:, 2:3]
        lo, hi = uv.min(0), uv.max(0)
        span = hi - lo
        if span[0] < W * 0.94 and span[1] < H * 0.94:
            break
        dpi_target *= 0.92 * min(W / span[0], H / span[1])
    # place the sheet's projection in the frame (principal point where it leaves a margin)
    room = np.array([W, H]) - span
    off = lo - room * rng.uniform(0.3, 0.7, 2)  # image point of the optical axis minus this
    cx, cy = -off
    # coarse grid of photo pixels -> rays -> the paper surface
    st = 8
    gu, gv = np.meshgrid(np.arange(0, W + st, st, dtype=np.float64), np.arange(0, H + st, st, dtype=np.float64))
    nx, ny = (gu - W / 2) / (diag / 2), (gv - H / 2) / (diag / 2)
    r2 = nx * nx + ny * ny
    fac = 1 + k1 * r2
    uu = W / 2 + (gu - W / 2) * fac - cx
    vv = H / 2 + (gv - H / 2) * fac - cy
    d = np.stack([uu / f, vv / f, np.ones_like(uu)], -1) @ R  # camera -> world direction
    z = np.zeros_like(uu)
    for _ in range(4):
        t = (-z - C[2]) / d[..., 2]
        px, py = C[0] + t * d[..., 0], C[1] + t * d[..., 1]
        z = lift(px, py)
    mx = cv2.resize(px.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    my = cv2.resize(py.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    # resize maps grid node k to pixel (k + 0.5) * scale - 0.5; close enough at st=8 with linear shape
    desc = f"tilt {tilt:.0f}deg roll {roll % 360:.0f}deg f{f35:.0f}mm k1 {k1:+.2f}" + (
        f" curl {curl:.1f}mm" if curl else ""
    )
    return mx, my, dpi_target, desc


def disc(r):
    n = int(np.ceil(r)) + 1
    y, x = np.mgrid[-n : n + 1, -n : n + 1]
    k = np.clip(r + 0.5 - np.hypot(x, y), 0, 1).astype(np.float32)
    return k / k.sum()


def motion(length, angle):
    n = int(np.ceil(length / 2)) + 1
    k = np.zeros((2 * n + 1, 2 * n + 1), np.float32)
    dx, dy = np.cos(angle) * length / 2, np.sin(angle) * length / 2
    cv2.line(
        k, (int((n - dx) * 16), int((n - dy) * 16)), (int((n + dx) * 16), int((n + dy) * 16)), 1.0, 1, cv2.LINE_AA, 4
    )
    if k.sum() == 0:
        k[n, n] = 1
    return k / k.sum()


def tone(x, rng):
    """The phone's rendering: gamma, an S-curve of contrast, a soft shoulder for highlights."""
    g = rng.uniform(2.0, 2.5)
    y = np.clip(x, 0, None) ** (1 / g)
    knee = rng.uniform(0.75, 0.9)
    over = y > knee
    y = np.where(over, knee + (1 - knee) * (1 - np.exp(-(y - knee) / (1 - knee))), y)
    c = rng.uniform(0.0, 0.6)
    y = y + c * (y - 0.5) * y * (1 - y) * 2
    return np.clip(y, 0, 1)


def photo(layout, page_id, rng):
    """(RGB uint8 photo, truth, kinds) of a marked page of `layout`."""
    garden = grid_cells(layout, page_id)
    lang, players, pdf, at, boxes = random_page(layout, page_id, rng, 0.3)
    scan = rng.random() < 0.25
    if scan:
        sdpi = int(rng.choice([150, 200, 240, 300], p=[0.3, 0.3, 0.1, 0.3]))
        blur = rng.uniform(0.4, 0.9)
        seen, rdpi = sdpi, 300 if sdpi <= 200 else 400
    else:
        mp = rng.uniform(8, 14)
        aspect = 4 / 3 if rng.random() < 0.8 else 16 / 9
        long = int(np.sqrt(mp * 1e6 * aspect))
        short = int(long / aspect)
        frame = (short, long) if rng.random() < 0.7 else (long, short)
        dpi = rng.uniform(100, 300)
        tilt = rng.uniform(0, 20)
        f35 = rng.uniform(23, 50) if rng.random() < 0.7 else rng.uniform(23, 28)
        rdpi = 300 if dpi < 160 else 400
        defocus = rng.uniform(0, 1.6) if rng.random() < 0.6 else rng.uniform(0, 0.5)
        mlen = rng.uniform(0, 4) if rng.random() < 0.4 else 0.0
        blur = np.hypot(defocus / 2, mlen / 3.5)
        seen = dpi * (1 - np.sin(np.radians(tilt)) * 0.4)
    page = print_page(render(pdf, rdpi), rng)
    truth, kinds = mark_page(page, rdpi, boxes, at, garden, rng, seen, blur, floor=0.3)
    if scan:
        img, desc = flatbed(page, rdpi, sdpi, blur, rng, colour=bool(garden) or rng.random() < 0.85)
    else:
        img, desc = camera(page, rdpi, rng, frame, dpi, tilt, f35, defocus, mlen)
    kinds["_photo"] = desc
    return img, truth, kinds


def camera(page, rdpi, rng, frame, dpi, tilt, f35, defocus, mlen):
    W, H = frame
    mx, my, dpi, geo = camera_maps(rng, A4, frame, dpi, tilt, f35)
    DEBUG["maps"] = (mx, my)
    # the page at a little more than the photo's resolution, then looked up through the maps
    idpi = min(rdpi, dpi * 1.6)
    s = idpi / rdpi
    src = cv2.resize(page, (int(page.shape[1] * s), int(page.shape[0] * s)), interpolation=cv2.INTER_AREA)
    k = idpi / 25.4
    mxp, myp = (mx * k).astype(np.float32), (my * k).astype(np.float32)
    img8 = cv2.remap(src, mxp, myp, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    ones = np.full(src.shape[:2], 255, np.uint8)
    mask = cv2.remap(ones, mxp, myp, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    del mxp, myp
    m = mask.astype(np.float32)[..., None] / 255
    lin = to_lin(img8)
    del img8
    bg, tname = table(rng, H, W)
    # the sheet's soft shadow on the table
    sh = cv2.GaussianBlur(mask, (0, 0), W / 300).astype(np.float32) / 255
    shift = np.float32([[1, 0, rng.normal(0, W / 400)], [0, 1, rng.normal(0, W / 400)]])
    sh = cv2.warpAffine(sh, shift, (W, H))
    bg *= (1 - 0.4 * sh)[..., None]
    lin = lin * m + bg * (1 - m)
    del bg, sh
    # the light: a window's gradient, a lamp's hot spot, vignetting, sometimes a phone's shadow
    yy, xx = np.mgrid[0:H:8, 0:W:8].astype(np.float32)
    xx /= W
    yy /= H
    light = np.ones_like(xx)
    words = []
    a = rng.uniform(0, 2 * np.pi)
    g = rng.uniform(0, 0.55)
    light *= 1 - g * np.clip(0.5 + (np.cos(a) * (xx - 0.5) + np.sin(a) * (yy - 0.5)), 0, 1)
    words.append(f"gradient {g:.2f}")
    warm = np.ones(3, np.float32)
    if rng.random() < 0.5:
        hx, hy, hs, hh = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.15, 0.5), rng.uniform(0.2, 0.9)
        light += hh * np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * hs * hs))
        warm = np.array([1.0, 0.93, 0.8], np.float32) ** rng.uniform(0, 1)
        words.append(f"lamp {hh:.2f}")
    v = rng.uniform(0.1, 0.4)
    light *= 1 - v * (((xx - 0.5) ** 2 + (yy - 0.5) ** 2) / 0.5)
    if rng.random() < 0.25:
        a2 = rng.uniform(0, 2 * np.pi)
        edge = np.cos(a2) * (xx - 0.5) + np.sin(a2) * (yy - 0.5) - rng.uniform(0.15, 0.4)
        depth = rng.uniform(0.2, 0.5)
        light *= 1 - depth / (1 + np.exp(-edge / rng.uniform(0.01, 0.04)))
        words.append(f"shadow {depth:.2f}")
    light = cv2.resize(light, (W, H), interpolation=cv2.INTER_LINEAR)
    expo = rng.uniform(0.75, 1.1) / np.percentile(light[m[..., 0] > 0.5], 90)
    wb = np.exp(rng.normal(0, 0.07, 3)).astype(np.float32) * warm
    wb /= wb[1]
    lin *= (light * expo)[..., None]
    lin *= wb
    del light
    # optics: defocus disc (more on the far side when tilted) and motion blur
    kern = disc(defocus) if defocus > 0.3 else np.ones((1, 1), np.float32)
    if mlen > 0.5:
        kern = cv2.filter2D(np.pad(kern, int(mlen) + 2), -1, motion(mlen, rng.uniform(0, np.pi)))
    if kern.size > 1:
        lin = cv2.filter2D(lin, -1, kern)
    # the sensor: an RGGB mosaic with shot and read noise, 12 bits, demosaiced
    iso = rng.uniform(0, 1)
    shot, read = 0.0003 + 0.003 * iso, 0.001 + 0.006 * iso
    ph, pw2 = rng.integers(0, 2), rng.integers(0, 2)
    raw = np.empty((H, W), np.float32)
    ch = np.zeros((H, W), np.uint8)
    ch[ph::2, pw2::2] = 0
    ch[ph::2, 1 - pw2 :: 2] = 1
    ch[1 - ph :: 2, pw2::2] = 1
    ch[1 - ph :: 2, 1 - pw2 :: 2] = 2
    for c in range(3):
        sel = ch == c
        raw[sel] = lin[..., c][sel]
    del lin
    raw += rng.standard_normal(raw.shape, dtype=np.float32) * np.sqrt(shot * np.clip(raw, 0, None) + read * read)
    raw16 = (np.clip(raw, 0, 1) * 4095).astype(np.uint16)
    del raw
    # which OpenCV code turns this phase back into RGB (OpenCV names by the 2nd row's pair)
    code = {
        (0, 0): cv2.COLOR_BayerBG2RGB,
        (0, 1): cv2.COLOR_BayerGB2RGB,
        (1, 0): cv2.COLOR_BayerGR2RGB,
        (1, 1): cv2.COLOR_BayerRG2RGB,
    }[(int(ph), int(pw2))]
    if rng.random() < 0.5:
        code = {
            cv2.COLOR_BayerBG2RGB: cv2.COLOR_BayerBG2RGB_EA,
            cv2.COLOR_BayerGB2RGB: cv2.COLOR_BayerGB2RGB_EA,
            cv2.COLOR_BayerGR2RGB: cv2.COLOR_BayerGR2RGB_EA,
            cv2.COLOR_BayerRG2RGB: cv2.COLOR_BayerRG2RGB_EA,
        }[code]
    rgb = cv2.cvtColor(raw16, code).astype(np.float32) / 4095
    del raw16
    # the phone's processing: tone curve, chroma noise blotches, sharpening
    out = tone(rgb, rng)
    del rgb
    ycc = cv2.cvtColor(out, cv2.COLOR_RGB2YCrCb)
    cn = rng.uniform(0, 0.012)
    for c in (1, 2):
        ycc[..., c] += cn * smooth_noise(rng, (H, W), rng.uniform(3, 8))
    amount = rng.uniform(0.2, 1.0)
    yb = cv2.GaussianBlur(ycc[..., 0], (0, 0), rng.uniform(0.8, 2.0))
    ycc[..., 0] += amount * (ycc[..., 0] - yb)
    out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
    del ycc
    q = int(rng.integers(40, 91))
    img = jpeg(to8(out), q)
    desc = (
        f"phone {W}x{H} ~{dpi:.0f}dpi {geo}, {tname} table, {', '.join(words)}, vignette {v:.2f}, "
        f"defocus {defocus:.1f}px motion {mlen:.1f}px, iso {iso:.2f}, sharpen {amount:.1f}, jpeg {q}"
    )
    return img, desc


def to8(x):
    return (np.clip(x, 0, 1) * 255 + 0.5).astype(np.uint8)


def jpeg(img, q):
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=q, subsampling=2)
    buf.seek(0)
    return np.asarray(Image.open(buf).convert("RGB")).copy()


# ---------------------------------------------------------------------------------------------
# the flatbed scanner


def flatbed(page, rdpi, sdpi, blur, rng, colour=True):
    """A flatbed scan of the page: 216 x 297 mm bed at `sdpi`, the sheet skewed and offset on
    the glass, a lid shadow at one edge, the scanner's optics and noise, auto-levels, JPEG."""
    s = sdpi / rdpi
    small = cv2.resize(page, (int(page.shape[1] * s), int(page.shape[0] * s)), interpolation=cv2.INTER_AREA)
    lin = to_lin(small)
    bw, bh = int(216 / 25.4 * sdpi), int(297 / 25.4 * sdpi)
    skew = rng.uniform(-3, 3)
    if rng.random() < 0.3:
        skew += 180
    ox, oy = rng.uniform(0, 6) / 25.4 * sdpi, rng.uniform(-1, 4) / 25.4 * sdpi
    c = (small.shape[1] / 2, small.shape[0] / 2)
    M = cv2.getRotationMatrix2D(c, skew, 1.0)
    M[0, 2] += ox + (bw - small.shape[1]) / 2 - rng.uniform(0, 3) / 25.4 * sdpi
    M[1, 2] += oy
    lid = np.array([0.93, 0.93, 0.91], np.float32) * rng.uniform(0.9, 1.02)
    lin = cv2.warpAffine(
        lin,
        M,
        (bw, bh),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(float(x) for x in lid),
    )
    mask = cv2.warpAffine(np.ones(small.shape[:2], np.float32), M, (bw, bh), flags=cv2.INTER_LINEAR)
    # the paper's edge stands a hair above the glass: a thin dark line where the lamp meets it
    edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    lin *= (1 - 0.5 * cv2.GaussianBlur(edge, (0, 0), 1.0))[..., None]
    # the lid does not close on one side: a shadow creeping in from that edge
    side = rng.integers(0, 4)
    width = rng.uniform(4, 15) / 25.4 * sdpi
    n = bh if side < 2 else bw
    ramp = np.clip(np.arange(n, dtype=np.float32) / width, 0, 1) ** 0.7
    if side % 2:
        ramp = ramp[::-1]
    depth = rng.uniform(0.3, 0.8)
    fall = 1 - depth * (1 - ramp)
    lin *= fall[:, None, None] if side < 2 else fall[None, :, None]
    # the lamp is a little brighter in the middle of its bar
    xx = np.linspace(-1, 1, bw, dtype=np.float32)
    lin *= (1 - rng.uniform(0, 0.06) * xx**2)[None, :, None]
    lin *= np.exp(rng.normal(0, 0.03, 3)).astype(np.float32)
    lin = cv2.GaussianBlur(lin, (0, 0), blur)
    lin += rng.normal(0, rng.uniform(0.002, 0.008), lin.shape).astype(np.float32)
    # column pattern of the sensor line
    lin *= (1 + rng.normal(0, 0.004, bw).astype(np.float32))[None, :, None]
    out = np.clip(lin, 0, 1) ** (1 / 2.2)
    if not colour:
        out = np.repeat((out @ np.array([0.299, 0.587, 0.114], np.float32))[..., None], 3, 2)
    # auto-levels: the darkest 0.3% to black, the brightest 1% to white
    lo, hi = np.percentile(out[::4, ::4], [0.3, 99.0])
    out = (out - lo) / max(hi - lo, 0.1)
    q = int(rng.integers(70, 93))
    img = jpeg(to8(out), q)
    desc = (
        f"flatbed {sdpi}dpi {'colour' if colour else 'grey'}, skew {skew:.1f}deg, lid shadow side {side} "
        f"{depth:.2f}, blur {blur:.2f}px, jpeg {q}"
    )
    return img, desc
