"""A camera model: hand and phone shadows, depth of field, shake, sensor noise, sharpening.

Written from the feature's specification alone, apart from the reader's tuning. The camera is
chosen first (so that a mark a person could not see in that photo is never drawn): an A4
sheet lying flat, seen through a pinhole camera (24-52 mm equivalent lens) tilted up to 20
degrees about a random axis, any roll (mostly about square to the sheet), the sheet's middle
at 100-300 dpi (log-uniform; less when the sheet would not fit), in a 4:3 frame of 8-16
megapixels. The page is rendered by poppler at 300 dpi and marked there: a player's main pen
(HB, 2B or mechanical pencil, blue or black ballpoint, felt-tip) and now and then another,
strokes drawn supersampled with pressure varying along them, tapered ends, a hand's tremor
and paper-tooth grain, multiplied onto the paper; ticks (some small), crosses, slashes,
scribbled and hatched fills, dots, an "o" in the box, circles round the round boxes (and round
isolated boxes), light strokes of a hard pencil (+light), ticks, crosses and slashes whose
last stroke runs 1-3.5 mm past the border (+stray, at most a fifth of a box into a
neighbour), a ballpoint that skips (+skip); every stroke is kept visible in the photo (its
contrast after that photo's blur at that box's scale is at least 0.35, 0.2 for light ones).
Garden cells are filled, hatched, crossed or blotted with an orange, green or red colour
pencil. Half the other write boxes get a handwritten number. The photo: a table (wood, grey,
slate, white, cutting mat) with the sheet's soft shadow, a slightly tinted paper, light in
linear RGB (gradient up to 45%, vignette up to 35%, a hand's or phone's shadow down to
45-80% in 45% of photos, +shadow on the boxes under it), auto exposure, a colour cast
(warm lamp, cool shade, fluorescent), lens blur 0.3-1.4 px with up to 0.8 px more across the
frame (depth of field), hand shake now and then, shot and read noise with colour noise,
the phone's sharpening, JPEG quality 40-90.

`photo(layout, page_id, rng)` gives (RGB photo, truth, kinds).

    python -m bench.photos.phone_shadow DIR 3   # save 3 photos and crops of their marks to look at
"""

from __future__ import annotations

import math
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from bench.photos.pages import random_page
from sheetgen.scan.blank import grid_cells

RENDER_DPI = 300
MM = RENDER_DPI / 25.4  # render pixels a millimetre
A4 = (210.0, 297.0)
SS = 2  # supersampling of the strokes

# pens: reflectance of a fully covered spot (RGB), density range, line width (mm), grain
PENS = {
    "hb-pencil": dict(col=(0.30, 0.30, 0.33), d=(0.55, 0.80), w=(0.35, 0.55), grain=0.55),
    "2b-pencil": dict(col=(0.22, 0.22, 0.25), d=(0.70, 0.92), w=(0.45, 0.75), grain=0.40),
    "mech-pencil": dict(col=(0.30, 0.30, 0.33), d=(0.50, 0.75), w=(0.30, 0.42), grain=0.35),
    "blue-ballpoint": dict(col=(0.16, 0.24, 0.62), d=(0.75, 0.95), w=(0.30, 0.45), grain=0.08),
    "black-ballpoint": dict(col=(0.13, 0.13, 0.16), d=(0.75, 0.95), w=(0.30, 0.45), grain=0.08),
    "felt-tip": dict(col=(0.10, 0.11, 0.16), d=(0.85, 0.97), w=(0.60, 1.00), grain=0.05),
}
LIGHT = dict(col=(0.34, 0.34, 0.37), d=(0.20, 0.36), w=(0.28, 0.40), grain=0.65)  # hard pencil, light hand
COLOURS = {  # garden colour pencils: letter, reflectance
    "orange-pencil": ("C", (0.98, 0.52, 0.12)),
    "green-pencil": ("S", (0.33, 0.68, 0.28)),
    "red-pencil": ("T", (0.88, 0.17, 0.17)),
}
_PAGES: dict = {}


# ---------------------------------------------------------------- the printed page


def _render(pdf: bytes):
    """The page at RENDER_DPI (RGB uint8), kept for the next photo of the same page."""
    key = hash(pdf)
    if key not in _PAGES:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "page.pdf"
            src.write_bytes(pdf)
            subprocess.run(
                ["pdftoppm", "-r", str(RENDER_DPI), "-singlefile", "-png", str(src), str(Path(tmp) / "out")],
                check=True,
            )
            img = cv2.imread(str(Path(tmp) / "out.png"), cv2.IMREAD_COLOR)
        if len(_PAGES) > 8:
            _PAGES.pop(next(iter(_PAGES)))
        _PAGES[key] = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    return _PAGES[key].copy()


# ---------------------------------------------------------------- the camera


def _rot(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def _camera(rng):
    """The photo's geometry: frame size, homography from page render pixels to photo
    pixels, and a description."""
    tilt = math.radians(20 * math.sqrt(rng.random()))
    azim = rng.uniform(0, 2 * math.pi)
    if rng.random() < 0.65:  # the phone held about square to the sheet
        roll = math.radians(rng.choice([0, 0, 0, 90, 180, 270]) + rng.normal(0, 6))
    else:
        roll = rng.uniform(0, 2 * math.pi)
    dpi = rng.uniform(100, 300)
    fill = rng.uniform(0.55, 0.95)  # of the frame's long side the sheet's long side would take, untilted
    mp = float(np.clip((A4[1] / 25.4 * dpi / fill) ** 2 * 3 / 4 * rng.uniform(0.9, 1.1), 8.05e6, 16e6))
    sideways = abs(math.sin(roll)) > 0.707
    landscape = sideways if rng.random() < 0.85 else not sideways
    long_, short = math.sqrt(mp * 4 / 3), math.sqrt(mp * 3 / 4)
    w, h = (int(long_), int(short)) if landscape else (int(short), int(long_))
    f35 = rng.uniform(24, 52)
    f = f35 * math.hypot(w, h) / 43.3
    rmat = _rot((0, 0, 1), roll) @ _rot((math.cos(azim), math.sin(azim), 0), tilt)
    corners = np.array([[0, 0], [A4[0], 0], [A4[0], A4[1]], [0, A4[1]]])
    centred = np.c_[corners - np.array(A4) / 2, np.zeros(4)]
    dist = f * 25.4 / dpi
    off = np.array([rng.uniform(-0.15, 0.15) * w, rng.uniform(-0.15, 0.15) * h])
    margin = 0.025 * min(w, h)
    for _ in range(200):
        p = centred @ rmat.T + np.array([off[0] * dist / f, off[1] * dist / f, dist])
        uv = f * p[:, :2] / p[:, 2:] + np.array([w / 2, h / 2])
        if uv.min() >= margin and (uv[:, 0] <= w - margin).all() and (uv[:, 1] <= h - margin).all():
            break
        if np.abs(off).max() > 20:
            off *= 0.8  # first bring the sheet towards the middle of the frame
        else:
            off[:] = 0
            dist *= 1.02
    hom = cv2.getPerspectiveTransform((corners * MM).astype(np.float32), uv.astype(np.float32))
    seen = f / dist * 25.4
    what = (
        f"{w}x{h} ({w * h / 1e6:.1f} MP), sheet at {seen:.0f} dpi, tilt {math.degrees(tilt):.0f} deg, "
        f"roll {math.degrees(roll) % 360:.0f} deg, {f35:.0f} mm lens"
    )
    return (w, h), hom, what


def _scales(hom, pts):
    """Smallest and largest stretch (photo px a render px) of the homography at points."""
    out = []
    for x, y in pts:
        den = hom[2, 0] * x + hom[2, 1] * y + hom[2, 2]
        u = (hom[0, 0] * x + hom[0, 1] * y + hom[0, 2]) / den
        v = (hom[1, 0] * x + hom[1, 1] * y + hom[1, 2]) / den
        jac = np.array(
            [
                [(hom[0, 0] - u * hom[2, 0]) / den, (hom[0, 1] - u * hom[2, 1]) / den],
                [(hom[1, 0] - v * hom[2, 0]) / den, (hom[1, 1] - v * hom[2, 1]) / den],
            ]
        )
        sv = np.linalg.svd(jac, compute_uv=False)
        out.append((sv.min(), sv.max()))
    return out


def _project(hom, x, y):
    p = hom @ np.array([x, y, 1.0])
    return p[0] / p[2], p[1] / p[2]


# ---------------------------------------------------------------- strokes


def _bezier(pts, n):
    """A smooth curve through a few control points (Catmull-Rom), n points."""
    pts = np.asarray(pts, float)
    if len(pts) == 2:
        t = np.linspace(0, 1, n)[:, None]
        return pts[0] * (1 - t) + pts[1] * t
    ext = np.vstack([2 * pts[0] - pts[1], pts, 2 * pts[-1] - pts[-2]])
    out = []
    per = max(2, n // (len(pts) - 1))
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        for t in np.linspace(0, 1, per, endpoint=False):
            t2, t3 = t * t, t * t * t
            out.append(
                0.5
                * (2 * p1 + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 + (-p0 + 3 * p1 - 3 * p2 + p3) * t3)
            )
    out.append(pts[-1])
    return np.array(out)


def _polyline(pts, step=0.12):
    """Points along straight segments every `step` mm (keeps sharp corners, e.g. a tick's)."""
    pts = np.asarray(pts, float)
    out = [pts[0]]
    for a, b in zip(pts[:-1], pts[1:]):
        n = max(1, int(np.linalg.norm(b - a) / step))
        t = np.linspace(0, 1, n + 1)[1:, None]
        out.extend(a + (b - a) * t)
    return np.array(out)


def _tremor(rng, pts, amp):
    """A hand's small wobble: a smooth random displacement along the stroke."""
    n = len(pts)
    k = max(2, n // 25)
    knots = rng.normal(0, amp, (k, 2))
    t = np.linspace(0, k - 1, n)
    return pts + np.c_[np.interp(t, np.arange(k), knots[:, 0]), np.interp(t, np.arange(k), knots[:, 1])]


def _tick(rng, cx, cy, size):
    a = np.array([-0.38, -0.02]) + rng.normal(0, 0.05, 2)
    b = np.array([-0.12, 0.34]) + rng.normal(0, 0.04, 2)
    c = np.array([0.42, -0.48]) + rng.normal(0, 0.06, 2)
    ang = rng.normal(0, 0.2)
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    pts = np.array([a, b, c]) @ rot.T * size + [cx, cy]
    first = _polyline([pts[0], pts[1]])
    second = _bezier([pts[1], (pts[1] + pts[2]) / 2 + rng.normal(0, 0.04 * size, 2), pts[2]], 40)
    return [np.vstack([first, second])]


def _line(rng, a, b, bow=0.03):
    a, b = np.asarray(a, float), np.asarray(b, float)
    mid = (a + b) / 2 + np.array([-(b - a)[1], (b - a)[0]]) * rng.normal(0, bow)
    return _bezier([a, mid, b], 40)


def _cross(rng, cx, cy, sw, sh):
    ang = rng.normal(0, 0.12)
    out = []
    for sx in (1, -1):
        a = np.array([-sx * sw / 2, -sh / 2]) + rng.normal(0, 0.04, 2) * [sw, sh]
        b = np.array([sx * sw / 2, sh / 2]) + rng.normal(0, 0.04, 2) * [sw, sh]
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        out.append(_line(rng, a @ rot.T + [cx, cy], b @ rot.T + [cx, cy]))
    return out


def _scribble(rng, x, y, w, h, cover):
    """Back and forth zigzag filling the box's middle `cover` fraction."""
    iw, ih = w * cover, h * cover
    x0, y0 = x + (w - iw) / 2, y + (h - ih) / 2
    n = int(rng.integers(5, 11))
    pts = []
    vertical = rng.random() < 0.5
    for i in range(n + 1):
        t = i / n
        lo, hi = rng.uniform(-0.06, 0.05), rng.uniform(0.95, 1.06)
        if vertical:
            pts += [(x0 + iw * t, y0 + ih * lo), (x0 + iw * (t + 0.5 / n), y0 + ih * hi)]
        else:
            pts += [(x0 + iw * lo, y0 + ih * t), (x0 + iw * hi, y0 + ih * (t + 0.5 / n))]
    pts = np.clip(np.array(pts), [x0 - 0.05 * iw, y0 - 0.05 * ih], [x0 + 1.05 * iw, y0 + 1.05 * ih])
    return [_polyline(pts, 0.1)]


def _hatch(rng, x, y, w, h, cover, gap, round_=False):
    """Parallel strokes at an angle, clipped to the box's middle (an ellipse for round boxes)."""
    iw, ih = w * cover, h * cover
    cx, cy = x + w / 2, y + h / 2
    ang = rng.uniform(0.5, 1.1) * rng.choice([1, -1])
    d = np.array([math.cos(ang), math.sin(ang)])
    nrm = np.array([-d[1], d[0]])
    reach = math.hypot(iw, ih) / 2
    out = []
    for off in np.arange(-reach, reach, gap):
        ts = np.linspace(-reach, reach, 200)
        pts = np.array([cx, cy]) + off * nrm + ts[:, None] * d
        if round_:
            ok = ((pts[:, 0] - cx) / (iw / 2)) ** 2 + ((pts[:, 1] - cy) / (ih / 2)) ** 2 <= 1
        else:
            ok = (abs(pts[:, 0] - cx) <= iw / 2) & (abs(pts[:, 1] - cy) <= ih / 2)
        if ok.sum() > 3:
            seg = pts[ok]
            out.append(_line(rng, seg[0], seg[-1], 0.01))
    if rng.random() < 0.5:  # strokes of a hatch are often drawn as one zigzag
        joined = []
        for i, s in enumerate(out):
            joined.append(s if i % 2 == 0 else s[::-1])
        out = [np.vstack(joined)]
    return out


def _ring(rng, cx, cy, rx, ry, overlap=0.3):
    start = rng.uniform(0, 2 * math.pi)
    sweep = 2 * math.pi * (1 + rng.uniform(0.02, overlap))
    t = np.linspace(start, start + sweep, 120)
    wob = 1 + 0.06 * np.sin(t * rng.integers(2, 4) + rng.uniform(0, 6)) + np.linspace(0, rng.normal(0, 0.06), len(t))
    return [np.c_[cx + rx * wob * np.cos(t), cy + ry * wob * np.sin(t)]]


def _dot(rng, cx, cy, r):
    turns = 3 + r / 0.45
    t = np.linspace(0, 2 * math.pi * turns, int(30 * turns))
    rad = r * (0.25 + 0.75 * t / t[-1])
    return [np.c_[cx + rad * np.cos(t), cy + rad * np.sin(t)]]


# ---------------------------------------------------------------- ink on paper


def _strokes_alpha(rng, strokes, width, density, grain, x0, y0, shape, skip=False):
    """Coverage (0-1) of the strokes (mm, page) on a patch starting at (x0, y0) render px."""
    h, w = shape
    total = np.zeros(shape, np.float32)
    for s in strokes:
        layer = np.zeros((h * SS, w * SS), np.uint8)
        n = len(s)
        press = np.clip(1 + np.cumsum(rng.normal(0, 0.04, n)) * 0.6, 0.65, 1.2)
        taper = np.minimum(1, np.minimum(np.arange(n) + 1, n - np.arange(n)) / max(3, n * 0.06))
        press = press * (0.55 + 0.45 * taper)
        if skip:  # a ballpoint that skips now and then
            gaps = rng.random(n) < 0.015
            press = press * np.where(np.convolve(gaps, np.ones(6), "same") > 0, 0.25, 1)
        px = (s * MM - [x0, y0]) * SS
        for i in range(n - 1):
            thick = max(1, int(round(width * MM * SS * (0.75 + 0.25 * min(press[i], 1.1)))))
            val = int(np.clip(255 * density * min(press[i], 1.0), 0, 255))
            a = tuple(int(v) for v in np.round(px[i] * 16))
            b = tuple(int(v) for v in np.round(px[i + 1] * 16))
            cv2.line(layer, a, b, val, thick, cv2.LINE_AA, 4)
        small = cv2.resize(layer, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        total = 1 - (1 - total) * (1 - small)
    if grain > 0:
        tooth = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.8)
        tooth /= tooth.std() + 1e-6
        streak = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 3.0)
        streak /= streak.std() + 1e-6
        total *= np.clip(1 + grain * (0.55 * tooth + 0.25 * streak) - 0.15 * grain, 0, 1.15)
    return np.clip(total, 0, 1)


def _ink(page, rng, strokes, pen, width, density, skip=False):
    """Multiply the strokes onto the page (RGB uint8, in place)."""
    allp = np.vstack(strokes) * MM
    pad = width * MM * 2 + 4
    x0 = int(max(0, allp[:, 0].min() - pad))
    y0 = int(max(0, allp[:, 1].min() - pad))
    x1 = int(min(page.shape[1], allp[:, 0].max() + pad))
    y1 = int(min(page.shape[0], allp[:, 1].max() + pad))
    alpha = _strokes_alpha(rng, strokes, width, density, pen["grain"], x0, y0, (y1 - y0, x1 - x0), skip)
    col = np.array(pen["col"], np.float32)
    patch = page[y0:y1, x0:x1].astype(np.float32)
    patch *= 1 - alpha[..., None] * (1 - col)
    page[y0:y1, x0:x1] = np.clip(patch + 0.5, 0, 255).astype(np.uint8)


def _digits(page, rng, box, at, pen, width, density):
    """A handwritten number inside a write box (not read)."""
    text = str(int(rng.integers(0, 60 if rng.random() < 0.7 else 200)))
    x, y = (at.left + box.x) * MM, (at.top + box.y) * MM
    w, h = box.w * MM, box.h * MM
    font = rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN])
    thick = max(2, int(round(width * MM * SS)))
    (tw, th), base = cv2.getTextSize(text, font, 1.0, thick)
    scale = min((w - 2.5 * MM) * SS / tw, (h - 2.5 * MM) * SS / (th + base)) * rng.uniform(0.6, 0.95)
    if scale <= 0.05:
        return
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pw, ph = int(w), int(h)
    layer = np.zeros((ph * SS, pw * SS), np.uint8)
    ox = (pw * SS - tw) / 2 + rng.uniform(-0.15, 0.15) * (pw * SS - tw)
    oy = (ph * SS + th) / 2
    cv2.putText(layer, text, (int(ox), int(oy)), font, scale, int(255 * density), thick, cv2.LINE_AA)
    shear = np.float32([[1, rng.uniform(-0.25, 0.05), 0], [0, 1, 0]])
    shear[0, 2] = -shear[0, 1] * ph * SS / 2
    layer = cv2.warpAffine(layer, shear, (pw * SS, ph * SS))
    alpha = cv2.resize(layer, (pw, ph), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    x0, y0 = int(x), int(y)
    col = np.array(pen["col"], np.float32)
    patch = page[y0 : y0 + ph, x0 : x0 + pw].astype(np.float32)
    patch *= 1 - alpha[: patch.shape[0], : patch.shape[1], None] * (1 - col)
    page[y0 : y0 + ph, x0 : x0 + pw] = np.clip(patch + 0.5, 0, 255).astype(np.uint8)


def _intrusion(strokes, half, rects):
    """How deep (mm) the strokes (with half their width) go into any of `rects` (x, y, w, h)."""
    pts = np.vstack(strokes)
    worst = 0.0
    for x, y, w, h in rects:
        d = np.minimum.reduce([pts[:, 0] - x, x + w - pts[:, 0], pts[:, 1] - y, y + h - pts[:, 1]]) + half
        worst = max(worst, float(d.max()))
    return worst


# ---------------------------------------------------------------- marks


def _mark(rng, box, at, kind_round, pens, isolated, busy=False):
    """The strokes of one mark on a tick box: (strokes, style, hard cases, pen name)."""
    x, y, w, h = at.left + box.x, at.top + box.y, box.w, box.h
    cx, cy, s = x + w / 2, y + h / 2, min(w, h)
    pen = pens[0] if rng.random() < 0.8 else pens[int(rng.integers(len(pens)))]
    hard = []
    styles = ["tick", "tick", "tick", "cross", "cross", "scribble", "hatch", "dot", "slash", "ring", "light", "stray"]
    if kind_round or isolated:
        styles += ["circle", "circle"] if kind_round else ["circle"]
    style = str(rng.choice(styles))
    jx, jy = rng.normal(0, 0.06 * s, 2)
    if style == "light" and busy:  # a light stroke over a printed icon is lost in it: a normal one
        style = "tick"
    if style == "light":
        hard.append("+light")
        pen = "h-pencil"
        style = str(rng.choice(["tick", "slash", "cross"]))
    if style == "stray":
        hard.append("+stray")
        style = str(rng.choice(["tick", "cross", "slash"]))
    if style == "tick":
        size = s * rng.uniform(0.7 if "+light" in hard or busy else 0.45, 1.0)
        if size < 0.55 * s:
            hard.append("+small")
        strokes = _tick(rng, cx + jx, cy + jy, size)
    elif style == "cross":
        f = rng.uniform(0.6, 1.0)
        strokes = _cross(rng, cx + jx * 0.5, cy + jy * 0.5, w * f * rng.uniform(0.85, 1.1), h * f)
    elif style == "slash":
        f = rng.uniform(0.6, 1.0) / 2
        sx = rng.choice([1, -1])
        strokes = [_line(rng, (cx - sx * w * f, cy + h * f), (cx + sx * w * f, cy - h * f))]
    elif style == "scribble":
        strokes = _scribble(rng, x, y, w, h, rng.uniform(0.6, 0.95))
    elif style == "hatch":
        strokes = _hatch(rng, x, y, w, h, rng.uniform(0.7, 0.92), rng.uniform(0.7, 1.4), kind_round)
    elif style == "dot":
        strokes = _dot(rng, cx + jx, cy + jy, max(0.6, s * rng.uniform(0.1, 0.18)))
    elif style == "ring":  # an "o" inside the box
        r = s * rng.uniform(0.26, 0.4)
        strokes = _ring(rng, cx + jx * 0.5, cy + jy * 0.5, r * rng.uniform(0.9, 1.1), r)
    else:  # circle around the box
        strokes = _ring(rng, cx, cy, w / 2 + rng.uniform(0.5, 1.5), h / 2 + rng.uniform(0.4, 1.3))
    if "+stray" in hard:  # the last stroke's end runs on past the border
        last = strokes[-1]
        d = last[-1] - last[-8]
        d /= np.linalg.norm(d) + 1e-9
        # how far to the border along d, then 1-3.5 mm beyond
        tx = ((x + w if d[0] > 0 else x) - last[-1][0]) / d[0] if abs(d[0]) > 1e-6 else 1e9
        ty = ((y + h if d[1] > 0 else y) - last[-1][1]) / d[1] if abs(d[1]) > 1e-6 else 1e9
        go = max(0.0, min(tx, ty)) + rng.uniform(1.0, 3.5)
        ext = last[-1] + np.linspace(0, go, max(2, int(go / 0.12)))[1:, None] * d
        strokes[-1] = np.vstack([last, ext])
    return strokes, style, hard, pen


def _garden(rng, box, at):
    """A garden cell coloured with one pencil: (strokes, style, pen name, letter)."""
    x, y, w, h = at.left + box.x, at.top + box.y, box.w, box.h
    name = str(rng.choice(list(COLOURS)))
    style = str(rng.choice(["fill", "fill", "hatch", "hatch", "cross", "blot"]))
    if style == "fill":
        strokes = _scribble(rng, x, y, w, h, rng.uniform(0.7, 0.92))
    elif style == "hatch":
        strokes = _hatch(rng, x, y, w, h, rng.uniform(0.75, 0.92), rng.uniform(0.8, 1.6))
    elif style == "cross":
        f = rng.uniform(0.65, 0.9)
        strokes = _cross(rng, x + w / 2, y + h / 2, w * f, h * f)
    else:  # a round blot in the middle
        r = min(w, h) * rng.uniform(0.22, 0.36)
        strokes = _dot(rng, x + w / 2 + rng.normal(0, 0.5), y + h / 2 + rng.normal(0, 0.5), r)
    return strokes, style, name, COLOURS[name][0]


def _visible(width, density, grain, sigma_mm, floor):
    """Width and density raised so the stroke's peak contrast after the photo's blur
    (Gaussian, sigma_mm) is at least `floor` of the paper's brightness."""
    for _ in range(30):
        c = 0.8 * density * (1 - 0.15 * grain) * math.erf(width / (2 * math.sqrt(2) * sigma_mm))
        if c >= floor:
            break
        if width < 0.5:
            width *= 1.08
        density = min(0.97, density * 1.07)
    return width, density


# ---------------------------------------------------------------- the photo


def _background(rng, w, h, hom):
    """A table top in the sheet's plane, seen through the same camera: linear RGB float32
    at the photo's size, and its name."""
    # the part of the table the frame sees, in mm of the sheet's plane
    to_mm = np.linalg.inv(hom @ np.diag([MM, MM, 1.0]))
    seen = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), to_mm)[0]
    lo, hi = seen.min(0) - 20, seen.max(0) + 20
    res = min(2.0, 1600 / max(hi - lo))  # texture pixels a mm
    sw, sh = int((hi - lo)[0] * res) + 1, int((hi - lo)[1] * res) + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) / res  # mm
    kind = str(rng.choice(["wood", "wood", "grey", "slate", "white", "mat"]))
    if kind == "wood":
        base = np.array([0.35, 0.2, 0.09]) * rng.uniform(0.6, 1.4)
        ang = rng.uniform(0, math.pi)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        bend = cv2.resize(rng.standard_normal((5, 5)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC)
        v = v + 12 * bend
        n = int(v.max() - v.min()) + 8
        line = cv2.GaussianBlur(rng.standard_normal((n, 1)).astype(np.float32), (0, 0), 1.2)[:, 0]
        line = line / (line.std() + 1e-6)
        tex = 1 + 0.12 * line[np.clip((v - v.min()).astype(int), 0, n - 1)]
        img = base[None, None, :] * tex[..., None]
    elif kind == "mat":
        img = np.ones((sh, sw, 3), np.float32) * np.array([0.03, 0.12, 0.07]) * rng.uniform(0.7, 1.3)
        lines = ((xx % 10) < 0.5) | ((yy % 10) < 0.5)
        img[lines] = img[lines] * 0.3 + 0.35 * np.array([0.5, 0.6, 0.5])
    else:
        lvl = {"grey": rng.uniform(0.12, 0.3), "slate": rng.uniform(0.02, 0.06), "white": rng.uniform(0.5, 0.75)}[kind]
        tint = 1 + rng.normal(0, 0.06, 3)
        img = np.ones((sh, sw, 3), np.float32) * (lvl * tint)
    img = (img * (1 + 0.05 * rng.standard_normal((sh, sw, 1)))).astype(np.float32)
    tex_to_photo = hom @ np.diag([MM, MM, 1.0]) @ np.array([[1 / res, 0, lo[0]], [0, 1 / res, lo[1]], [0, 0, 1]])
    out = cv2.warpPerspective(img, tex_to_photo, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return out, kind


_TO_LIN = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)
_TO_SRGB = np.clip(np.round(255 * (np.arange(4096) / 4095.0) ** (1 / 2.2)), 0, 255).astype(np.uint8)


def _light(rng, w, h, hom):
    """Illumination over the frame (float32, 1 = full light) and its description."""
    sw, sh = max(8, w // 8), max(8, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx, yy = xx / sw - 0.5, yy / sh - 0.5
    ang = rng.uniform(0, 2 * math.pi)
    grad = rng.uniform(0, 0.45)
    light = 1 + grad * (xx * math.cos(ang) + yy * math.sin(ang))
    vig = rng.uniform(0, 0.35)
    light *= 1 - vig * (xx**2 + yy**2) * 2
    what = [f"gradient {grad:.2f}", f"vignette {vig:.2f}"]
    shadow = np.ones_like(light)
    if rng.random() < 0.45:  # the shadow of a hand, an arm or the phone
        depth = rng.uniform(0.45, 0.8)
        cx, cy = rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)
        rx, ry = rng.uniform(0.15, 0.45), rng.uniform(0.08, 0.3)
        a = rng.uniform(0, math.pi)
        u = (xx - cx) * math.cos(a) + (yy - cy) * math.sin(a)
        v = -(xx - cx) * math.sin(a) + (yy - cy) * math.cos(a)
        blob = ((u / rx) ** 2 + (v / ry) ** 2 <= 1).astype(np.float32)
        soft = rng.uniform(0.01, 0.05) * max(sw, sh)
        blob = cv2.GaussianBlur(blob, (0, 0), soft)
        shadow = 1 - (1 - depth) * blob
        what.append(f"hand shadow to {depth:.2f}")
    light = light * shadow
    return (
        cv2.resize(light.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR),
        cv2.resize(shadow.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR),
        ", ".join(what),
    )


def _photograph(rng, page, size, hom, blur):
    """The marked page (RGB uint8, RENDER_DPI) on a table, through the camera: RGB uint8,
    the shadow map, and a description."""
    w, h = size
    scales = _scales(hom, [(x * page.shape[1] / 4, y * page.shape[0] / 4) for x in range(5) for y in range(5)])
    k = min(1.0, 1.2 * max(s[1] for s in scales))
    small = cv2.resize(page, None, fx=k, fy=k, interpolation=cv2.INTER_AREA) if k < 1 else page
    hk = hom @ np.diag([1 / k, 1 / k, 1.0])
    sheet = cv2.warpPerspective(small, hk, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    corners = np.array([[0, 0], [page.shape[1], 0], [page.shape[1], page.shape[0]], [0, page.shape[0]]], float)
    uv = cv2.perspectiveTransform(corners[None].astype(np.float32), hom)[0]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(uv * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    m = mask.astype(np.float32) / 255
    bg, table = _background(rng, w, h, hom)
    # the sheet's soft shadow on the table
    sm = cv2.resize(m, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    shift = np.float32([[1, 0, rng.uniform(-6, 6)], [0, 1, rng.uniform(-6, 6)]])
    sm = cv2.GaussianBlur(cv2.warpAffine(sm, shift, sm.shape[::-1]), (0, 0), rng.uniform(2, 6))
    bg *= (1 - 0.4 * cv2.resize(sm, (w, h), interpolation=cv2.INTER_LINEAR))[..., None]
    paper = np.array([1.0, 1.0, 1.0]) - np.abs(rng.normal(0, 0.02, 3)) * np.array([0.3, 0.6, 1.2])
    lin = _TO_LIN[sheet] * paper.astype(np.float32)
    lin -= bg
    lin *= m[..., None]
    lin += bg
    del sheet, bg
    light, shadow, lit = _light(rng, w, h, hom)
    cast = np.array(
        [
            [1.0, 1.0, 1.0],
            [1.05, 1.0, 0.88],  # warm lamp, white balance half corrected
            [0.92, 1.0, 1.1],  # cool daylight in shade
            [1.0, 1.04, 0.94],  # fluorescent green-ish
        ][int(rng.integers(4))]
    ) * (1 + rng.normal(0, 0.02, 3))
    # auto exposure: the lit paper's bright end to a target grey
    pick = rng.integers(0, w * h, 40000)
    inside = m.reshape(-1)[pick] > 0.99
    bright = float(np.percentile((lin.reshape(-1, 3)[pick][inside]).mean(1) * light.reshape(-1)[pick][inside], 90))
    target = rng.uniform(0.55, 0.85)  # linear: about 195-238 in the photo
    lin *= (light * (target / max(bright, 1e-3)))[..., None]
    lin *= cast.astype(np.float32)
    # optics: lens blur, more at one side (depth of field), maybe a little hand shake
    s1, s2 = blur
    b1 = cv2.GaussianBlur(lin, (0, 0), s1)
    if s2 > s1 + 0.1:
        b2 = cv2.GaussianBlur(lin, (0, 0), s2)
        a = rng.uniform(0, 2 * math.pi)
        ramp = np.clip(
            (np.arange(w)[None, :] * math.cos(a) + np.arange(h)[:, None] * math.sin(a)) / math.hypot(w, h) + 0.5, 0, 1
        ).astype(np.float32)
        b2 -= b1
        b2 *= ramp[..., None]
        b1 += b2
        del b2
    lin = b1
    shake = ""
    if rng.random() < 0.15:
        n = int(rng.integers(1, 3))
        ker = np.zeros((n * 2 + 1, n * 2 + 1), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(
            ker,
            (n - int(n * math.cos(a)), n - int(n * math.sin(a))),
            (n + int(n * math.cos(a)), n + int(n * math.sin(a))),
            1,
            1,
        )
        lin = cv2.filter2D(lin, -1, ker / ker.sum())
        shake = f", shake {n * 2} px"
    # sensor: shot and read noise (linear), part of it colour noise
    iso = rng.uniform(0.0002, 0.0025)
    sd = np.sqrt(iso * np.clip(lin.mean(2), 0, 1) + 2e-6).astype(np.float32)
    luma = rng.standard_normal((h, w), dtype=np.float32)
    lin += (0.8 * sd * luma)[..., None]
    del luma
    chroma = rng.standard_normal((h // 2, w // 2, 3), dtype=np.float32)
    chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    lin += 0.5 * sd[..., None] * chroma
    del chroma, sd
    np.clip(lin, 0, 1, out=lin)
    lin *= 4095
    img = _TO_SRGB[lin.astype(np.uint16)]
    del lin
    # phone processing: sharpening, then JPEG
    amt = rng.uniform(0.2, 1.0)
    soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 2.0))
    img = cv2.addWeighted(img, 1 + amt, soft, -amt, 0)
    q = int(rng.integers(40, 91))
    ok, enc = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    img = cv2.cvtColor(cv2.imdecode(enc, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    what = (
        f"{table} table, {lit}, blur {s1:.1f}-{s2:.1f} px{shake}, noise {math.sqrt(iso * 0.5) * 255:.1f}, "
        f"sharpen {amt:.1f}, JPEG {q}"
    )
    return img, shadow, what


def make(layout, page_id: str, rng):
    """The photo, its truth, its kinds, and (homography, boxes, placement) to look at it."""
    lang, players, pdf, at, boxes = random_page(layout, page_id, rng, 0.3)
    cells = grid_cells(layout, page_id)
    size, hom, cam = _camera(rng)
    s1 = rng.uniform(0.3, 1.4)
    blur = (s1, s1 + (rng.uniform(0, 0.8) if rng.random() < 0.5 else 0))
    page = _render(pdf)
    readable = [b for b in boxes if b.kind != "write" or b.field in cells]
    rects = {b.field: (at.left + b.x, at.top + b.y, b.w, b.h) for b in readable}
    frac = rng.uniform(0.15, 0.6)
    marked = {readable[i].field for i in rng.permutation(len(readable))[: max(1, round(frac * len(readable)))]}
    # the player's pens: a main one and one or two others
    names = list(PENS)
    main = str(rng.choice(names, p=[0.3, 0.15, 0.15, 0.15, 0.1, 0.15]))
    pens = [main, *[str(p) for p in rng.choice(names, 2)]]
    truth, kinds = {}, {}
    centres = {}
    for b in boxes:
        if b.field in rects:
            centres[b.field] = (at.left + b.x + b.w / 2, at.top + b.y + b.h / 2)
    scale_at = dict(zip(centres, _scales(hom, [(x * MM, y * MM) for x, y in centres.values()])))
    order = list(readable)
    rng.shuffle(order)
    for b in order:
        f = b.field
        if f in cells:
            truth[f] = ""
        else:
            truth[f] = False
        if f not in marked:
            continue
        sigma_px = math.hypot(blur[1], 0.6)
        sigma_mm = sigma_px / (scale_at[f][0] * MM)
        others = [r for g, r in rects.items() if g != f]
        if f in cells:
            strokes, style, name, letter = _garden(rng, b, at)
            pen = {"col": COLOURS[name][1], "grain": 0.5}
            width, density = _visible(rng.uniform(0.5, 0.9), rng.uniform(0.5, 0.85), 0.5, sigma_mm, 0.3)
            if _intrusion(strokes, width / 2, others) > 0.3:
                continue
            _ink(page, rng, strokes, pen, width, density)
            truth[f] = letter
            kinds[f] = f"{name}/{style}"
            continue
        gaps = [_gap(rects[f], r) for r in others]
        isolated = min(gaps, default=99) > 3.0
        # a box with a printed icon or number in it
        x0, y0 = int((at.left + b.x + 1) * MM), int((at.top + b.y + 1) * MM)
        inner = page[y0 : y0 + int((b.h - 2) * MM), x0 : x0 + int((b.w - 2) * MM)]
        busy = inner.size > 0 and 1 - inner.mean() / 255 > 0.04
        strokes, style, hard, pname = _mark(rng, b, at, b.kind == "round", pens, isolated, busy)
        spec = LIGHT if pname == "h-pencil" else PENS[pname]
        width, density = rng.uniform(*spec["w"]), rng.uniform(*spec["d"])
        floor = 0.2 if "+light" in hard else 0.35
        width, density = _visible(width, density, spec["grain"], sigma_mm, floor)
        # a mark may touch a neighbour's border; a stray one goes in at most a fifth of it
        allow = min(1.5, 0.2 * min(b.w, b.h)) if "+stray" in hard else 0.35
        cx, cy = centres[f]
        for _ in range(12):
            if _intrusion(strokes, width / 2, others) <= allow:
                break
            strokes = [(s - [cx, cy]) * 0.9 + [cx, cy] for s in strokes]
        else:
            continue  # no room for this mark: the box stays empty
        skip = pname.endswith("ballpoint") and rng.random() < 0.3
        _ink(page, rng, strokes, spec, width, density, skip)
        if skip:
            hard.append("+skip")
        truth[f] = True
        kinds[f] = " ".join([f"{pname}/{style}", *hard])
    # handwritten numbers in half the write boxes that are not read
    for b in boxes:
        if b.kind == "write" and b.field not in cells and rng.random() < 0.5 and b.w > 6 and b.h > 6:
            spec = PENS[pens[0]]
            _digits(page, rng, b, at, spec, spec["w"][1], spec["d"][1])
    img, shadow, what = _photograph(rng, page, size, hom, blur)
    for f in kinds:
        u, v = _project(hom, centres[f][0] * MM, centres[f][1] * MM)
        if shadow[int(np.clip(v, 0, size[1] - 1)), int(np.clip(u, 0, size[0] - 1))] < 0.8:
            kinds[f] += " +shadow"
    kinds["_photo"] = f"{layout.id} {page_id} {lang}: {cam}; {what}; {len(kinds)} of {len(truth)} boxes marked"
    return img, truth, kinds, (hom, rects, at)


def _gap(a, b):
    """Distance (mm) between two rectangles (0 when they touch or overlap)."""
    dx = max(0.0, max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))
    return math.hypot(dx, dy)


def photo(layout, page_id: str, rng):
    """(RGB uint8 photo, truth {field: bool or letter}, kinds {field: "pen/style +hard"})."""
    img, truth, kinds, _ = make(layout, page_id, rng)
    return img, truth, kinds


def _look(folder: str, count: int, seed: int = 1) -> None:
    """Save `count` photos (downscaled) and crops of their marked boxes, to look at."""
    from bench.photos import WITH_ADVANCED as LAYOUTS
    from sheetgen.games import load_layout

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        key = LAYOUTS[n % len(LAYOUTS)]
        img, truth, kinds, (hom, rects, at) = make(load_layout(key[0]), key[1], np.random.default_rng([seed, n]))
        print(n, kinds["_photo"])
        bgr = cv2.cvtColor(img, cv2.COLOR_RGB2BGR)
        cv2.imwrite(str(out / f"p{n}.png"), cv2.resize(bgr, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA))
        tiles = []
        shown = [f for f in rects if f in kinds][:32] + [f for f in rects if f not in kinds][:8]
        for f in shown:
            x, y, w, h = rects[f]
            pts = [_project(hom, (x + dx) * MM, (y + dy) * MM) for dx in (-w / 2, 1.5 * w) for dy in (-h / 2, 1.5 * h)]
            pts = np.array(pts)
            x0, y0 = np.maximum(0, pts.min(0).astype(int))
            x1, y1 = pts.max(0).astype(int)
            crop = cv2.resize(bgr[y0:y1, x0:x1], (150, 150), interpolation=cv2.INTER_CUBIC)
            label = kinds.get(f, "empty")
            cv2.putText(crop, label[:26], (2, 10), cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 255), 1)
            tiles.append(crop)
        while len(tiles) % 8:
            tiles.append(np.zeros_like(tiles[0]))
        grid = np.vstack([np.hstack(tiles[i : i + 8]) for i in range(0, len(tiles), 8)])
        cv2.imwrite(str(out / f"c{n}.png"), grid)


if __name__ == "__main__":
    _look(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)
