"""Graphite marks, light ones too, kept plainly visible; a phone over a table.

Written from the feature's specification alone, apart from the reader's tuning. The page is
rendered by poppler (pdftoppm) at the dpi the sheet is seen at in the photo (100-300, capped
so a photo stays under 11-14 megapixels), the paper tinted, then a random 20-60% of the
readable boxes is marked with supersampled, anti-aliased polylines multiplied onto the page:
graphite (grey 60-170 in the stroke's core, paper-tooth grain, pressure varying along the
stroke) or now and then a blue ballpoint, as ticks, crosses, scribbled fills, light ticks and
slashes (grey 150-188, 0.3-0.42 mm), ticks and crosses that stray 1-3 mm over the border (at
most a quarter of a box into the next one, which stays plainly empty), and circles round the
round boxes; a stroke the photo's blur would wash out is drawn wider, then darker, so every
mark stays plainly a mark; the Harvest Dice garden cells are hatched, blotted or crossed with
the orange, green or red colour pencil of a random vegetable. Handwritten numbers go in half
the write boxes (not read). The sheet is then photographed lying on a table (wood, grey,
slate, white or a cutting mat, with the sheet's soft shadow): any roll, a camera tilted up to
20 degrees through a wide to normal lens, a 4:3 frame with small margins, uneven light
(gradient and vignette, 0.6-1.0), a slight colour cast, Gaussian blur up to 1.5 px, noise up
to sigma 8 and JPEG quality 40-90.

`photo(layout, page_id, rng)` gives (img RGB uint8, truth, kinds).
"""

from __future__ import annotations

import math
import subprocess
from types import SimpleNamespace

import cv2
import numpy as np

from bench.photos.pages import random_page
from sheetgen.scan.blank import grid_cells

A4 = (210.0, 297.0)  # mm
LAST: dict = {}  # debugging aid: the last photo's page mm -> photo px mapping

# colour pencils of the dice's vegetables: RGB reflectance at full cover
VEG = {"C": ("orange-pencil", (0.95, 0.47, 0.12)), "S": ("green-pencil", (0.26, 0.62, 0.26)),
       "T": ("red-pencil", (0.84, 0.16, 0.18))}  # fmt: skip
BALLPOINT = (0.14, 0.22, 0.63)


# ---------------------------------------------------------------------------------------
# the page


def _raster(data: bytes, dpi: float) -> np.ndarray:
    """The A4 page as RGB float32 reflectance (0-1) at `dpi` (poppler takes a fractional one)."""
    out = subprocess.run(
        ["pdftoppm", "-r", f"{dpi:.3f}", "-singlefile", "-"], input=data, capture_output=True, check=True
    )
    img = cv2.imdecode(np.frombuffer(out.stdout, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0


# ---------------------------------------------------------------------------------------
# strokes: polylines in page mm


def _wobble(pts: np.ndarray, rng, amp: float) -> np.ndarray:
    """A hand's low-frequency tremble across a polyline (amp mm)."""
    n = len(pts)
    t = np.linspace(0, 1, n)
    d = np.zeros_like(pts)
    for axis in (0, 1):
        for _ in range(2):
            f, ph = rng.uniform(0.5, 2.5), rng.uniform(0, 2 * math.pi)
            d[:, axis] += amp * rng.uniform(0.3, 1) * np.sin(2 * math.pi * f * t + ph)
    return pts + d / 2


def _arc(p0, p1, rng, bow: float = 0.0, n: int = 18, amp: float = 0.12) -> np.ndarray:
    """A stroke from p0 to p1 (mm), bowed sideways by `bow` (a share of its length) and trembling."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    mid = (p0 + p1) / 2
    d = p1 - p0
    normal = np.array([-d[1], d[0]])
    ctrl = mid + normal * bow
    t = np.linspace(0, 1, n)[:, None]
    pts = (1 - t) ** 2 * p0 + 2 * t * (1 - t) * ctrl + t**2 * p1
    return _wobble(pts, rng, amp)


def _box_xy(b, u, v):
    return np.array([b.x + u * b.w, b.y + v * b.h])


def _jit(rng, v, s=0.06):
    return v + rng.uniform(-s, s)


def _tick(b, rng, size: float) -> list:
    """A check mark: a short arm down to the left, a long one up to the right."""
    k = size
    a = _box_xy(b, 0.5 + k * (_jit(rng, 0.2) - 0.5), 0.5 + k * (_jit(rng, 0.55) - 0.5))
    m = _box_xy(b, 0.5 + k * (_jit(rng, 0.42) - 0.5), 0.5 + k * (_jit(rng, 0.82) - 0.5))
    c = _box_xy(b, 0.5 + k * (_jit(rng, 0.86) - 0.5), 0.5 + k * (_jit(rng, 0.14) - 0.5))
    short = _arc(a, m, rng, rng.uniform(-0.08, 0.08), 8)
    long = _arc(m, c, rng, rng.uniform(-0.1, 0.1), 16)
    return [np.vstack([short, long[1:]])]


def _cross(b, rng, size: float) -> list:
    k = size
    lo, hi = 0.5 - k / 2, 0.5 + k / 2
    a1 = _box_xy(b, _jit(rng, lo), _jit(rng, lo))
    a2 = _box_xy(b, _jit(rng, hi), _jit(rng, hi))
    b1 = _box_xy(b, _jit(rng, hi), _jit(rng, lo))
    b2 = _box_xy(b, _jit(rng, lo), _jit(rng, hi))
    return [_arc(a1, a2, rng, rng.uniform(-0.06, 0.06)), _arc(b1, b2, rng, rng.uniform(-0.06, 0.06))]


def _slash(b, rng, size: float) -> list:
    k = size
    a = _box_xy(b, 0.5 - k / 2 + rng.uniform(-0.05, 0.05), 0.5 + k / 2 + rng.uniform(-0.05, 0.05))
    c = _box_xy(b, 0.5 + k / 2 + rng.uniform(-0.05, 0.05), 0.5 - k / 2 + rng.uniform(-0.05, 0.05))
    return [_arc(a, c, rng, rng.uniform(-0.08, 0.08))]


def _stray(b, rng, gap: float) -> tuple[list, str]:
    """A tick or a cross one end of which overshoots the box's border by 1-3 mm: no further
    than a quarter of a box into the next one (`gap` mm away), which stays plainly empty."""
    over = rng.uniform(1.0, min(3.0, max(1.2, gap + 0.25 * min(b.w, b.h))))
    if rng.random() < 0.5:
        strokes = _tick(b, rng, rng.uniform(0.75, 0.95))
        pts = strokes[0]
        # push the long arm's end out past the top or the right border
        end = pts[-1].copy()
        if rng.random() < 0.5:
            target = np.array([end[0], b.y - over])
        else:
            target = np.array([b.x + b.w + over, end[1]])
        if rng.random() < 0.4:  # past the corner
            target = np.array([b.x + b.w + over * 0.75, b.y - over * 0.75])
        j = 7  # the tick's vertex (its short arm has 8 points)
        start = pts[j]
        pts[j:] = _arc(start, target, rng, rng.uniform(-0.05, 0.05), len(pts) - j, 0.08)
        return [pts], "tick"
    strokes = _cross(b, rng, rng.uniform(0.7, 0.9))
    arm = int(rng.integers(0, 2))
    end = int(rng.integers(0, 2))
    pts = strokes[arm]
    p, q = (pts[-1], pts[0]) if end else (pts[0], pts[-1])
    # the corner nearest to that end, and beyond it by `over` along the arm
    d = p - q
    d /= np.linalg.norm(d)
    cx = b.x + (b.w if d[0] > 0 else 0)
    cy = b.y + (b.h if d[1] > 0 else 0)
    target = np.array([cx, cy]) + d * over * 1.3  # ~`over` past each border it crosses
    strokes[arm] = _arc(q, target, rng, rng.uniform(-0.04, 0.04), len(pts), 0.08)
    return strokes, "cross"


def _fill(b, rng, width: float, shape: str, inset: float, share: float = 1.0, angle=None) -> list:
    """A scribbled fill: one zigzag polyline of back-and-forth strokes, `width` mm apart or so,
    across the box (a rectangle or, for "round", its disc) `inset` mm inside its border;
    `share` < 1 leaves the far rows out (a partly coloured cell)."""
    cx, cy = b.x + b.w / 2, b.y + b.h / 2
    a = math.radians(angle if angle is not None else rng.uniform(20, 70) * rng.choice([-1, 1]))
    d = np.array([math.cos(a), math.sin(a)])
    n = np.array([-d[1], d[0]])
    hw, hh = b.w / 2 - inset, b.h / 2 - inset
    r = min(hw, hh)
    reach = math.hypot(hw, hh)
    step = width * rng.uniform(0.8, 1.4)
    ts = np.arange(-reach + step / 2, reach, step)
    ts = ts[: max(2, int(math.ceil(len(ts) * share)))]
    pts = []
    for i, t in enumerate(ts):
        t = t + rng.uniform(-0.15, 0.15) * step
        if shape == "round":
            if abs(t) >= r:
                continue
            s = math.sqrt(r * r - t * t)
            s0, s1 = -s, s
        else:  # the slab of the rectangle along d
            lo, hi = -1e9, 1e9
            for k, h in ((0, hw), (1, hh)):
                o = n[k] * t
                if abs(d[k]) < 1e-9:
                    if abs(o) > h:
                        lo, hi = 1, 0
                    continue
                e0, e1 = (-h - o) / d[k], (h - o) / d[k]
                lo, hi = max(lo, min(e0, e1)), min(hi, max(e0, e1))
            if hi <= lo:
                continue
            s0, s1 = lo, hi
        s0 += rng.uniform(-0.3, 0.5)
        s1 -= rng.uniform(-0.3, 0.5)
        if s1 - s0 < 0.3:
            continue
        ends = [s0, s1] if i % 2 == 0 else [s1, s0]
        for s in ends:
            pts.append([cx + n[0] * t + d[0] * s, cy + n[1] * t + d[1] * s])
    pts = np.array(pts, float)
    if len(pts) < 2:
        return _cross(b, rng, 0.7)
    # round the zigzag's turns a little: a hand does not turn on a point
    fine = []
    for p, q in zip(pts[:-1], pts[1:]):
        fine.append(np.linspace(p, q, max(2, int(np.linalg.norm(q - p) / 0.8)), endpoint=False))
    fine.append(pts[-1:])
    return [_wobble(np.vstack(fine), rng, 0.1)]


def _circle(b, rng) -> list:
    """A loop drawn round a round box, over or just outside its printed ring."""
    cx, cy = b.x + b.w / 2 + rng.uniform(-0.3, 0.3), b.y + b.h / 2 + rng.uniform(-0.3, 0.3)
    rx = b.w / 2 * rng.uniform(0.95, 1.12)
    ry = b.h / 2 * rng.uniform(0.95, 1.12)
    a0 = rng.uniform(0, 2 * math.pi)
    sweep = 2 * math.pi * rng.uniform(1.02, 1.15)
    t = np.linspace(a0, a0 + sweep, 48)
    grow = np.linspace(0, rng.uniform(-0.5, 0.5), len(t))
    pts = np.stack([cx + (rx + grow) * np.cos(t), cy + (ry + grow) * np.sin(t)], 1)
    return [_wobble(pts, rng, 0.15)]


# ---------------------------------------------------------------------------------------
# the pens, drawn supersampled into a box's patch and multiplied onto the page


class Page:
    def __init__(self, img: np.ndarray, dpi: float, at, rng, soft: float):
        self.img, self.ppm, self.at, self.rng = img, dpi / 25.4, at, rng
        self.soft = soft  # the photo's blur, page px (lens, sensor, JPEG; the far side smaller)
        self.widened = 0

    def legible(self, width: float, dark: float, floor: float, wmax: float) -> tuple[float, float]:
        """A stroke `width` mm wide of core darkness `dark` (1 - grey), made wider (up to
        `wmax`) then darker if the photo's blur would leave its middle lighter than `floor`:
        every mark drawn must still be plainly a mark in the photo."""

        def peak(w, d):
            return d * math.erf(w * self.ppm / (2 * math.sqrt(2) * self.soft))

        if peak(width, dark) >= floor:
            return width, dark
        self.widened += 1
        while width < wmax and peak(width, dark) < floor:
            width += 0.02
        if peak(width, dark) < floor:
            dark = min(0.8, floor / max(peak(width, 1.0), 1e-3))
        return width, dark

    def px(self, pts_mm: np.ndarray) -> np.ndarray:
        return (pts_mm + [self.at.left, self.at.top]) * self.ppm

    def draw(self, strokes: list, width: float, colour, tone: float | None, grain: float, opacity: float = 1.0):
        """Draw `strokes` (page mm) `width` mm wide. A pencil (grain > 0) is a textured
        stroke (the paper's tooth, pressure varying along it); `tone`, when given, is the
        grey (0-1 reflectance) the core of the stroke averages on white paper, the colour's
        depth scaled to it."""
        all_px = np.vstack([self.px(s) for s in strokes])
        got = self._patch(all_px, width)
        if got is None:
            return
        x0, y0, k, cov = got
        th = max(1, int(round(width * self.ppm * k)))
        shift = 4
        for s in strokes:
            p = (self.px(s) - [x0, y0]) * k
            p = np.round(p * (1 << shift)).astype(np.int32)
            cv2.polylines(cov, [p], False, 1.0, th, cv2.LINE_AA, shift)
        self._ink(x0, y0, k, np.minimum(cov, 1.0), colour, tone, grain, opacity)

    def digits(self, b, text: str, width: float, tone: float):
        """A handwritten number in a write box (not read: it only has to be ignored)."""
        rng = self.rng
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX
        (tw, tht), _ = cv2.getTextSize(text, font, 1.0, 1)
        hmm = min(b.h * rng.uniform(0.45, 0.65), 8.0)
        mm_a_unit = hmm / tht
        if tw * mm_a_unit > b.w * 0.8:
            mm_a_unit = b.w * 0.8 / tw
        wmm, hmm = tw * mm_a_unit, tht * mm_a_unit
        x = b.x + b.w - wmm - rng.uniform(0.8, max(0.9, b.w - wmm - 1.0))
        y = b.y + b.h / 2 + hmm / 2 + rng.uniform(-0.5, 0.5)  # the baseline
        corners = self.px(np.array([[x, y - hmm * 1.2], [x + wmm, y + hmm * 0.4]]))
        got = self._patch(corners, width)
        if got is None:
            return
        x0, y0, k, cov = got
        scale = mm_a_unit * self.ppm * k
        org = (self.px(np.array([[x, y]]))[0] - [x0, y0]) * k
        th = max(1, int(round(width * self.ppm * k)))
        canvas = np.zeros(cov.shape, np.uint8)  # putText draws on 8-bit pictures only
        cv2.putText(canvas, text, (int(org[0]), int(org[1])), font, scale, 255, th, cv2.LINE_AA)
        self._ink(x0, y0, k, canvas.astype(np.float32) / 255, (0.33, 0.33, 0.35), tone, 0.5, 1.0)

    def _patch(self, pts_px: np.ndarray, width: float):
        """The page pixels round `pts_px` and an empty coverage canvas ~720 dpi over them."""
        pad = width * self.ppm + 3
        h, w = self.img.shape[:2]
        x0, y0 = max(int(pts_px[:, 0].min() - pad), 0), max(int(pts_px[:, 1].min() - pad), 0)
        x1, y1 = min(int(pts_px[:, 0].max() + pad) + 1, w), min(int(pts_px[:, 1].max() + pad) + 1, h)
        if x1 <= x0 or y1 <= y0:
            return None
        k = max(2, int(math.ceil(720 / (self.ppm * 25.4))))
        return x0, y0, k, np.zeros(((y1 - y0) * k, (x1 - x0) * k), np.float32)

    def _ink(self, x0, y0, k, cov, colour, tone, grain, opacity):
        rng = self.rng
        ph, pw = cov.shape
        mmk = self.ppm * k  # patch px a mm
        if grain > 0:
            # paper tooth: fine grain (~0.03 mm) the graphite skips, and pressure (~1.5 mm)
            z = rng.standard_normal((ph, pw), dtype=np.float32)
            z = cv2.GaussianBlur(z, (0, 0), max(0.6, 0.03 * mmk))
            z /= z.std() + 1e-6
            tex = np.clip(1.0 - grain * 0.5 + grain * 0.35 * z, 0.35, 1.0)
            small = rng.standard_normal((max(2, ph // 24), max(2, pw // 24)), dtype=np.float32)
            small = cv2.GaussianBlur(small, (0, 0), max(0.5, 1.5 * mmk / 24))
            small /= small.std() + 1e-6
            press = np.clip(0.9 + 0.07 * cv2.resize(small, (pw, ph), interpolation=cv2.INTER_LINEAR), 0.75, 1.0)
            ink = cov * tex * press
        else:
            ink = cov * np.float32(rng.uniform(0.9, 1.0))
        colour = np.asarray(colour, np.float32)
        depth = 1.0 - colour  # how much of the light a full cover takes, per channel
        if tone is not None:
            core = ink[cov > 0.9]
            mean = float(core.mean()) if core.size else 1.0
            want = 1.0 - tone  # the core's grey
            depth = np.minimum(depth * (want / max(float(depth.mean()) * mean, 1e-3)), 0.97)
        ink = cv2.resize(ink, (pw // k, ph // k), interpolation=cv2.INTER_AREA) * opacity
        patch = self.img[y0 : y0 + ph // k, x0 : x0 + pw // k]
        patch *= 1.0 - ink[:, :, None] * depth[None, None, :]


# ---------------------------------------------------------------------------------------
# marking


def _graphite(rng, light=False):
    if light:
        return rng.uniform(150, 188) / 255, rng.uniform(0.3, 0.42), "pencil"
    g = rng.uniform(60, 170)
    return g / 255, rng.uniform(0.35, 0.65), ("soft-pencil" if g < 110 else "pencil")


def _mark_box(page: Page, b, rng, kinds: dict, gap: float):
    kind = b.kind
    size = min(b.w, b.h)
    small = kind == "mini"
    r = rng.random()
    ballpoint = rng.random() < 0.15
    if kind == "round" and r < 0.25:
        style = "circle"
    elif r < 0.3:
        style = "tick"
    elif r < 0.52:
        style = "cross"
    elif r < 0.7:
        style = "fill"
    elif r < 0.85:
        style = "light"
    else:
        style = "stray"
    extra = []
    if style == "light":
        ballpoint = False
    if ballpoint:
        pen, tone, width = "ballpoint", None, rng.uniform(0.3, 0.45)
        colour, grain = BALLPOINT, 0.0
        width, _ = page.legible(width, 0.6, 0.3, 0.7)
    else:
        tone, width, pen = _graphite(rng, light=style == "light")
        colour, grain = (0.33, 0.33, 0.35), rng.uniform(0.35, 0.6)
        if small:
            width = min(width, 0.5)
        if style == "light":
            width, dark = page.legible(width, 1 - tone, 0.2, 0.6)
        else:
            width, dark = page.legible(width, 1 - tone, 0.3, 0.8)
        tone = 1 - dark
    if style == "tick":
        strokes = _tick(b, rng, rng.uniform(0.6, 0.95))
    elif style == "cross":
        strokes = _cross(b, rng, rng.uniform(0.55, 0.85))
    elif style == "fill":
        inset = rng.uniform(0.15, 0.12 * size)
        shape = "round" if kind == "round" else "rect"
        strokes = _fill(b, rng, max(width, 0.45), shape, inset, rng.uniform(0.85, 1.0))
    elif style == "circle":
        strokes = _circle(b, rng)
    elif style == "light":
        extra.append("+light")
        if rng.random() < 0.5:
            strokes, style = _tick(b, rng, rng.uniform(0.6, 0.9)), "light-tick"
        else:
            strokes, style = _slash(b, rng, rng.uniform(0.6, 0.9)), "light-slash"
    else:
        strokes, what = _stray(b, rng, gap)
        style = f"stray-{what}"
        extra.append("+stray")
    if kind in ("mini", "round"):
        extra.append(f"+{kind}")
    page.draw(strokes, width, colour, tone, grain)
    kinds[b.field] = " ".join([f"{pen}/{style}", *extra])


def _gap(b, boxes: list) -> float:
    """How far (mm) the nearest other box is from `b`'s border (3 when none is that near)."""
    gap = 3.0
    for o in boxes:
        if o is b:
            continue
        dx = max(o.x - (b.x + b.w), b.x - (o.x + o.w), 0.0)
        dy = max(o.y - (b.y + b.h), b.y - (o.y + o.h), 0.0)
        gap = min(gap, max(dx, dy))
    return gap


def _mark_cell(page: Page, b, rng, kinds: dict) -> str:
    """A garden cell drawn in the colour pencil of a random vegetable; its letter."""
    letter = "CST"[int(rng.integers(0, 3))]
    pen, colour = VEG[letter]
    width = rng.uniform(0.5, 0.9)
    r = rng.random()
    opacity = rng.uniform(0.8, 1.0)
    if r < 0.45:
        style = "fill"
        strokes = _fill(b, rng, width, "rect", rng.uniform(0.4, 1.6), rng.uniform(0.8, 1.0))
        if rng.random() < 0.3:  # cross-hatched
            strokes += _fill(b, rng, width, "rect", rng.uniform(0.6, 1.8), 1.0, rng.uniform(-70, -20))
    elif r < 0.75:
        style = "blob"  # a vegetable drawn as a coloured patch in the cell
        s = min(b.w, b.h) * rng.uniform(0.5, 0.75)
        x = b.x + (b.w - s) / 2 + rng.uniform(-0.1, 0.1) * b.w
        y = b.y + (b.h - s) / 2 + rng.uniform(-0.1, 0.1) * b.h
        inner = SimpleNamespace(x=x, y=y, w=s, h=s)
        strokes = _fill(inner, rng, width, "round", 0.0, 1.0)
        if rng.random() < 0.5:
            strokes += _circle(inner, rng)
    else:
        style = "cross"
        strokes = _cross(b, rng, rng.uniform(0.6, 0.85))
        width = max(width, 0.6)
    page.draw(strokes, width, colour, None, rng.uniform(0.3, 0.55), opacity)
    kinds[b.field] = f"{pen}/{style}"
    return letter


# ---------------------------------------------------------------------------------------
# the photo


def _camera_quad(rng, desc: list):
    """The A4 sheet's corners (mm, from its top-left) as the camera sees them, in "photo mm"
    (the scale at the sheet's centre is 1): rolled any angle, tilted up to 20 degrees."""
    roll = rng.uniform(0, 360)
    tilt = math.radians(rng.uniform(0, 20))
    axis = rng.uniform(0, 2 * math.pi)
    diag = math.hypot(*A4)
    f = diag * rng.uniform(0.8, 1.5)  # the lens: wide (strong perspective) to normal
    u = np.array([math.cos(axis), math.sin(axis), 0.0])
    kx = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    rt = np.eye(3) + math.sin(tilt) * kx + (1 - math.cos(tilt)) * kx @ kx
    c, s = math.cos(math.radians(roll)), math.sin(math.radians(roll))
    rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    corners = np.array([[0, 0], [A4[0], 0], [A4[0], A4[1]], [0, A4[1]]], float)
    p3 = np.c_[corners - np.array(A4) / 2, np.zeros(4)] @ (rz @ rt).T
    p3[:, 2] += f
    quad = f * p3[:, :2] / p3[:, 2:3]
    desc.append(f"roll {roll:.0f} tilt {math.degrees(tilt):.1f} (axis {math.degrees(axis):.0f}) f {f / diag:.2f}diag")
    return corners, quad


def _table(rng, fh: int, fw: int, desc: list) -> np.ndarray:
    kinds = {
        "oak": (0.62, 0.45, 0.3),
        "pine": (0.8, 0.66, 0.48),
        "walnut": (0.36, 0.24, 0.16),
        "grey": (0.5, 0.5, 0.52),
        "slate": (0.2, 0.21, 0.23),
        "white": (0.86, 0.85, 0.82),
        "green-mat": (0.2, 0.42, 0.3),
    }
    name = list(kinds)[int(rng.integers(0, len(kinds)))]
    base = np.array(kinds[name], np.float32) * rng.uniform(0.85, 1.1)
    sh, sw = max(8, fh // 8), max(8, fw // 8)
    z = rng.standard_normal((sh, sw), dtype=np.float32)
    if name in ("oak", "pine", "walnut"):  # grain: streaks along one direction
        z = cv2.GaussianBlur(z, (0, 0), sigmaX=sw / 6, sigmaY=0.8)
        z /= z.std() + 1e-6
        amp = 0.08
    else:
        z = cv2.GaussianBlur(z, (0, 0), 3)
        z /= z.std() + 1e-6
        amp = 0.04
    z = cv2.resize(z, (fw, fh), interpolation=cv2.INTER_LINEAR)
    desc.append(f"table {name}")
    return np.clip(base[None, None, :] * (1 + amp * z[:, :, None]), 0, 1).astype(np.float32)


def photo(layout, page_id: str, rng: np.random.Generator):
    desc = []
    lang, players, data, at, boxes = random_page(layout, page_id, rng, french=0.25)

    # the camera first: how big the sheet is in the frame decides the dpi it is seen at
    corners, quad = _camera_quad(rng, desc)
    lo, hi = quad.min(0), quad.max(0)
    margins = rng.uniform(0.02, 0.1, 4) * (hi - lo)[[0, 0, 1, 1]]
    fw_mm = (hi - lo)[0] + margins[0] + margins[1]
    fh_mm = (hi - lo)[1] + margins[2] + margins[3]
    # the sensor is 4:3, landscape or portrait as the sheet lies; the spare room goes to the sides
    aspect = 4 / 3 if fw_mm >= fh_mm else 3 / 4  # width / height
    if fw_mm / fh_mm < aspect:
        grow = fh_mm * aspect - fw_mm
        left = rng.uniform(0.2, 0.8)
        margins[0] += grow * left
        margins[1] += grow * (1 - left)
        fw_mm += grow
    else:
        grow = fw_mm / aspect - fh_mm
        top = rng.uniform(0.2, 0.8)
        margins[2] += grow * top
        margins[3] += grow * (1 - top)
        fh_mm += grow
    want_dpi = rng.uniform(100, 300)
    max_mp = rng.uniform(11, 14)
    dpi = min(want_dpi, 25.4 * math.sqrt(max_mp * 1e6 / (fw_mm * fh_mm)))
    ppm = dpi / 25.4
    fw, fh = int(round(fw_mm * ppm)), int(round(fh_mm * ppm))

    # the printed page, marked
    img = _raster(data, dpi)
    paper = np.array([rng.uniform(0.93, 1.0), rng.uniform(0.93, 1.0), rng.uniform(0.9, 1.0)], np.float32)
    paper /= paper.max()
    img *= paper
    blur = rng.uniform(0, 1.5)  # chosen now: the marks are drawn to stay legible through it
    soft = math.hypot(blur, 0.6) * 1.2
    page = Page(img, dpi, at, rng, soft)
    grid = grid_cells(layout, page_id)
    readable = [b for b in boxes if b.kind != "write" or b.field in grid]
    share = rng.uniform(0.2, 0.6)
    truth, kinds = {}, {}
    for b in readable:
        marked = rng.random() < share
        if b.field in grid:
            truth[b.field] = _mark_cell(page, b, rng, kinds) if marked else ""
        else:
            if marked:
                _mark_box(page, b, rng, kinds, _gap(b, readable))
            truth[b.field] = bool(marked)
    numbers = 0
    for b in boxes:
        if b.kind == "write" and b.field not in grid and rng.random() < 0.5:
            text = str(int(rng.integers(0, 10 ** int(rng.integers(1, 3)))))
            page.digits(b, text, rng.uniform(0.35, 0.55), rng.uniform(70, 140) / 255)
            numbers += 1
    desc.append(
        f"{lang} players={players} dpi {dpi:.0f} (wanted {want_dpi:.0f}) marked {share:.0%} "
        f"({page.widened} strokes widened to stay legible) numbers {numbers}"
    )

    # onto the table, through the lens
    src = (corners * ppm).astype(np.float32)
    dst = ((quad - lo + margins[[0, 2]]) * ppm).astype(np.float32)
    hmat = cv2.getPerspectiveTransform(src, dst)
    LAST["to_photo"] = lambda pts_mm: cv2.perspectiveTransform(
        ((np.asarray(pts_mm, np.float64) + [at.left, at.top]) * ppm).reshape(-1, 1, 2), hmat
    ).reshape(-1, 2)
    table = _table(rng, fh, fw, desc)
    cover = cv2.warpPerspective(np.ones(img.shape[:2], np.float32), hmat, (fw, fh), flags=cv2.INTER_LINEAR)
    sheet = cv2.warpPerspective(img, hmat, (fw, fh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    del img, page
    # a soft shadow of the sheet on the table
    sd = rng.uniform(1, 4) * ppm
    shadow = cv2.GaussianBlur(cover, (0, 0), max(1.0, sd))
    shadow = np.roll(shadow, (int(sd * rng.uniform(-0.5, 1)), int(sd * rng.uniform(-0.5, 1))), (0, 1))
    table *= (1 - rng.uniform(0.15, 0.35) * shadow)[:, :, None]
    out = table * (1 - cover[:, :, None]) + sheet * cover[:, :, None]
    del table, sheet, cover, shadow

    # uneven light: a gradient and a vignette, brightness from `low` to 1
    low = rng.uniform(0.6, 1.0)
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    xx = xx / fw - 0.5
    yy = yy / fh - 0.5
    a = rng.uniform(0, 2 * math.pi)
    grad = xx * math.cos(a) + yy * math.sin(a)
    cx, cy = rng.uniform(-0.2, 0.2, 2)
    vig = (xx - cx) ** 2 + (yy - cy) ** 2
    w = rng.uniform(0, 1)
    field = w * grad + (1 - w) * vig
    field = (field - field.min()) / max(float(field.max() - field.min()), 1e-6)
    light = 1 - (1 - low) * field
    del xx, yy, grad, vig, field
    tint = np.array([rng.uniform(0.96, 1.04), 1.0, rng.uniform(0.94, 1.04)], np.float32)
    exposure = rng.uniform(0.92, 1.02)
    out *= (light * exposure)[:, :, None] * tint
    del light
    desc.append(f"light {low:.2f}-1 exposure {exposure:.2f}")

    if blur > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    sigma = rng.uniform(0, 8)
    if sigma > 0.3:
        out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(sigma / 255)
    out8 = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
    del out
    quality = int(rng.integers(40, 91))
    ok, enc = cv2.imencode(".jpg", cv2.cvtColor(out8, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    img = cv2.cvtColor(cv2.imdecode(enc, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    desc.append(f"blur {blur:.2f} noise {sigma:.1f} jpeg {quality} {fw}x{fh}")
    kinds["_photo"] = ", ".join(desc)
    return img, truth, kinds
