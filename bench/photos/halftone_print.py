"""The printer simulated (laser halftone or inkjet dither), then a phone photo or a flatbed scan.

Written apart from the reader's tuning. The page is rasterised by poppler (pdftoppm) at a
random dpi and printed: a laser AM screen at 150-200 lpi with per-ink angles, drawn
band-limited, or inkjet dither with banding; CMY planes misregistered 0.1-0.3 mm; low-toner
streaks; fit-to-page 94-100% and a 1-4 mm offset; white, cream or recycled paper with fibres
and flecks. It is marked with its own pens (HB/2B/mechanical pencils, blue/black ballpoints,
felt-tips, highlighter fills, orange/green/red colour pencils in the garden, sometimes
graphite there too) as pressure-varying jittered strokes (ticks, crosses, slashes, fills,
scribbles, dots, corner ticks, circles, strays into the next box, light strokes, erased
ghosts, graphite smears, crossed-out-and-rewritten garden cells), then photographed with a
phone (up to 20 degree tilt, any roll, table texture, curl and waves, vignetting, hand
shadow, glare, white balance, defocus, motion blur, noise, noise reduction, HDR, sharpening,
JPEG 40-95, messaging downscale) or scanned on a flatbed (150-600 dpi, 1-3 degree skew,
auto-levels).

`photo(layout, page_id, rng)` gives (img RGB uint8, truth, kinds).
"""

from __future__ import annotations

import io
import math
import subprocess

import cv2
import numpy as np
from PIL import Image

from bench.photos.pages import random_page
from sheetgen.scan.blank import grid_cells

A4 = (210.0, 297.0)  # mm, w x h
LAST: dict = {}  # debugging aid: the last photo's page-mm -> image-px mapping

# ---------------------------------------------------------------------------------------
# pens: ink colour (RGB reflectance at full cover), width mm, opacity range, pencil grain
PENS = {
    "hb-pencil": ((0.36, 0.36, 0.38), (0.35, 0.5), (0.66, 0.85), 0.55),
    "2b-pencil": ((0.22, 0.22, 0.24), (0.5, 0.7), (0.7, 0.88), 0.45),
    "mech-pencil": ((0.4, 0.4, 0.43), (0.3, 0.4), (0.66, 0.84), 0.35),
    "blue-ballpoint": ((0.12, 0.22, 0.62), (0.3, 0.42), (0.8, 0.95), 0.12),
    "black-ballpoint": ((0.1, 0.1, 0.14), (0.3, 0.42), (0.8, 0.95), 0.12),
    "felt-tip": ((0.06, 0.06, 0.1), (0.7, 1.1), (0.9, 1.0), 0.0),
    "purple-felt": ((0.42, 0.12, 0.5), (0.7, 1.0), (0.9, 1.0), 0.0),
    "yellow-highlighter": ((1.0, 0.93, 0.18), (3.5, 5.0), (0.75, 0.9), 0.0),
    "green-highlighter": ((0.5, 1.0, 0.42), (3.5, 5.0), (0.7, 0.85), 0.0),
    "orange-pencil": ((0.98, 0.48, 0.08), (0.5, 0.8), (0.7, 0.9), 0.45),
    "green-pencil": ((0.18, 0.62, 0.2), (0.5, 0.8), (0.7, 0.9), 0.45),
    "red-pencil": ((0.86, 0.1, 0.12), (0.5, 0.8), (0.7, 0.9), 0.45),
    "smear": ((0.38, 0.38, 0.4), (6.0, 12.0), (0.05, 0.1), 0.0),
}
VEG_PEN = {"C": "orange-pencil", "S": "green-pencil", "T": "red-pencil"}
CHECK_PENS = ["hb-pencil", "2b-pencil", "mech-pencil", "blue-ballpoint", "black-ballpoint", "felt-tip", "purple-felt"]
CHECK_STYLES = ["tick", "tick", "cross", "cross", "slash", "fill", "scribble", "dot", "corner", "circle"]


def _pick(rng, seq, p=None):
    return seq[int(rng.choice(len(seq), p=p))]


# ---------------------------------------------------------------------------------------
# the printed page


def _raster(data, dpi):
    out = subprocess.run(["pdftoppm", "-r", str(dpi), "-singlefile", "-"], input=data, capture_output=True)
    img = cv2.imdecode(np.frombuffer(out.stdout, np.uint8), cv2.IMREAD_COLOR)
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def _seed(rng):
    cv2.setRNGSeed(int(rng.integers(1, 2**31 - 1)))


def _randn(shape, rng):
    z = np.empty(shape, np.float32)
    _seed(rng)
    cv2.randn(z, 0.0, 1.0)
    return z


def _clip01(a):
    return cv2.min(cv2.max(a, (0.0,) * 4), (1.0,) * 4)  # a Python float would be Scalar(v, 0, 0, 0)


def _blue_tile(rng, n=256):
    """A tile of uniformly ranked high-pass noise: the threshold map of an error-diffusion-like dither."""
    z = rng.standard_normal((n, n)).astype(np.float32)
    z = z - cv2.GaussianBlur(np.pad(z, 8, mode="wrap"), (0, 0), 1.3)[8:-8, 8:-8]
    r = np.empty(n * n, np.float32)
    r[np.argsort(z, axis=None)] = (np.arange(n * n) + 0.5) / (n * n)
    return r.reshape(n, n)


def _print(rgb8, rng, dpi, desc):
    """Returns the inks (c, m, y, k coverage planes, float32) as laid down by the printer."""
    ppm = dpi / 25.4
    rgb = rgb8.astype(np.float32) * (1 / 255)
    r, g, b = cv2.split(rgb)
    mx = cv2.max(cv2.max(r, g), b)
    k = 1.0 - mx
    inv = 1.0 / cv2.max(mx, 1e-3)
    planes = [cv2.multiply(mx - ch, inv) for ch in (r, g, b)] + [k]
    h, w = k.shape
    if rng.random() < 0.6:
        lpi = rng.uniform(150, 200)
        f = 2 * math.pi * lpi / dpi
        # A 150-200 lpi dot is smaller than a raster pixel here, so the screen is drawn band-limited:
        # its fundamental (the two cosines along the screen's axes at the ink's angle), with the
        # amplitude a dot pattern of that coverage has, attenuated by the pixel aperture.  Sampled
        # at this raster it leaves the moire a real screen leaves, not fake 0.4 mm dots.
        amp = rng.uniform(0.08, 0.18)
        xs = np.arange(w, dtype=np.float64)
        ys = np.arange(h, dtype=np.float64)
        for i, a in enumerate([15, 75, 0, 45]):
            p = planes[i]
            if float(p.max()) < 0.02:
                continue
            t = math.radians(a + rng.uniform(-2, 2))
            # cos(u) + cos(v), u, v the screen's rotated axes, as one rank-4 product
            ax, ay = xs * f * math.cos(t), ys * f * math.sin(t)
            bx, by = -xs * f * math.sin(t), ys * f * math.cos(t)
            left = np.stack([np.cos(ay), -np.sin(ay), np.cos(by), -np.sin(by)], 1).astype(np.float32)
            right = np.stack([np.cos(ax), np.sin(ax), np.cos(bx), np.sin(bx)], 0).astype(np.float32)
            fund = left @ right  # -2..2
            env = cv2.multiply(p, 1.0 - p, scale=4.0 * amp / 2)  # ~ sin(pi p): none on paper or solids
            planes[i] = _clip01(cv2.add(p, cv2.multiply(env, fund)))
        desc.append(f"laser {lpi:.0f}lpi")
    else:
        for i in range(4):
            p = planes[i]
            if float(p.max()) < 0.02:
                continue
            tile = np.roll(_blue_tile(rng), tuple(rng.integers(0, 256, 2)), (0, 1))
            thr = np.tile(tile, (h // 256 + 1, w // 256 + 1))[:h, :w]
            dots = cv2.threshold(cv2.subtract(p, thr), 0.0, 1.0, cv2.THRESH_BINARY)[1]
            planes[i] = cv2.GaussianBlur(dots, (0, 0), 0.6)
        period = rng.uniform(4, 12) * ppm
        yy = np.arange(h, dtype=np.float32)
        band = 1.0 - rng.uniform(0.04, 0.12) * (np.mod(yy, period) < rng.uniform(0.2, 0.5) * ppm)
        band *= 1.0 + rng.uniform(0.01, 0.04) * np.sin(yy / period * 2 * math.pi)
        band = np.repeat(band.astype(np.float32)[:, None], w, 1)
        planes = [cv2.multiply(p, band) for p in planes]
        desc.append("inkjet dither+banding")
    mis = []
    for i in range(3):  # the colour planes misregistered against black
        d = rng.uniform(0.1, 0.3) * ppm
        a = rng.uniform(0, 2 * math.pi)
        m = np.float32([[1, 0, d * math.cos(a)], [0, 1, d * math.sin(a)]])
        planes[i] = cv2.warpAffine(planes[i], m, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
        mis.append(d / ppm)
    desc.append(f"misreg<={max(mis):.2f}mm")
    if rng.random() < 0.45:  # low toner: streaks along the feed direction
        xx = np.arange(w, dtype=np.float32)
        fade = np.ones(w, np.float32)
        for _ in range(int(rng.integers(1, 4))):
            c = rng.uniform(0, w)
            half = rng.uniform(1, 5) * ppm
            fade *= 1.0 - rng.uniform(0.2, 0.45) * np.exp(-(((xx - c) / half) ** 4))
        fade = np.repeat(fade[None, :], h, 0)
        planes = [cv2.multiply(p, fade) for p in planes]
        desc.append("toner-streak")
    return planes


def _paper(h, w, ppm, rng, desc):
    kind = _pick(rng, ["white", "cream", "recycled"], [0.5, 0.2, 0.3])
    tint = {"white": (0.97, 0.97, 0.97), "cream": (0.97, 0.95, 0.89), "recycled": (0.9, 0.88, 0.83)}[kind]
    low = cv2.resize(rng.standard_normal((8, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    tooth = cv2.GaussianBlur(_randn((h, w), rng), (0, 0), 0.08 * ppm)
    tooth *= 1.0 / (float(tooth[::7, ::7].std()) + 1e-6)
    lum = cv2.addWeighted(low, 0.008, tooth, 0.008, 1.0)
    base = cv2.merge([lum * t for t in tint])
    flecks = []
    if kind == "recycled":
        for _ in range(int(rng.integers(150, 500))):  # fibres
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            ln = rng.uniform(1, 4) * ppm
            a = rng.uniform(0, math.pi)
            col = rng.uniform(0.75, 0.92)
            p1 = (int(x), int(y))
            p2 = (int(x + ln * math.cos(a)), int(y + ln * math.sin(a)))
            cv2.line(base, p1, p2, (col * tint[0], col * tint[1], col * tint[2] * 1.02), 1, cv2.LINE_AA)
        for _ in range(int(rng.integers(30, 120))):  # flecks
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = rng.uniform(0.05, 0.15) * ppm
            col = rng.uniform(0.35, 0.7)
            cv2.circle(
                base, (int(x * 16), int(y * 16)), max(1, int(r * 16)), (col, col, col * 0.95), -1, cv2.LINE_AA, 4
            )
            flecks.append((x / ppm, y / ppm))
    desc.append(f"{kind} paper")
    return base, _clip01(tooth * 0.3 + 0.5), flecks


# ---------------------------------------------------------------------------------------
# strokes


def _path(rng, ctrl, step=0.08, jitter=0.08):
    """A jittered, smoothly resampled path (mm) through control points."""
    ctrl = np.asarray(ctrl, np.float64)
    seg = np.diff(ctrl, axis=0)
    lens = np.hypot(seg[:, 0], seg[:, 1])
    total = float(lens.sum())
    if total < 1e-6:
        return ctrl[:1].copy(), 0.0
    n = max(2, int(total / step))
    s = np.linspace(0, total, n)
    cum = np.concatenate([[0], np.cumsum(lens)])
    x = np.interp(s, cum, ctrl[:, 0])
    y = np.interp(s, cum, ctrl[:, 1])
    # smooth corners a little (hand motion), then jitter perpendicular
    k = max(1, int(0.35 / step))
    if n > 2 * k + 2:
        ker = np.ones(2 * k + 1) / (2 * k + 1)
        xs = np.convolve(np.pad(x, k, mode="edge"), ker, mode="valid")
        ys = np.convolve(np.pad(y, k, mode="edge"), ker, mode="valid")
        x, y = 0.5 * x + 0.5 * xs, 0.5 * y + 0.5 * ys
    dx, dy = np.gradient(x), np.gradient(y)
    nn = np.hypot(dx, dy) + 1e-9
    off = np.zeros(n)
    for _ in range(3):
        lam = rng.uniform(1.0, 6.0)
        off += rng.uniform(0.3, 1.0) * np.sin(2 * math.pi * s / lam + rng.uniform(0, 6.3))
    off *= jitter / 1.5
    return np.stack([x - dy / nn * off, y + dx / nn * off], 1), total


def _pressure(rng, n, flat=False):
    t = np.linspace(0, 1, n)
    if flat:
        return np.full(n, rng.uniform(0.9, 1.0))
    a = rng.uniform(0.06, 0.18)
    b = rng.uniform(0.08, 0.25)
    p = np.minimum(1.0, 0.45 + 0.55 * t / a) * np.minimum(1.0, 0.35 + 0.65 * (1 - t) / b)
    p *= 0.85 + 0.15 * np.sin(2 * math.pi * (t * rng.uniform(1, 3) + rng.uniform(0, 1)))
    return np.clip(p, 0.2, 1.0)


class Sheet:
    """The paper (RGB float, mm -> px via ppm) that pens draw on."""

    def __init__(self, img, tooth, ppm):
        self.img, self.tooth, self.ppm = img, tooth, ppm
        self.samples = []  # (owner field, points mm) for stray checks

    def stroke(self, rng, pen, ctrl, owner=None, light=1.0, width=None, opacity=None, flat=False, streak=None):
        ink, (w0, w1), (o0, o1), grain = PENS[pen]
        wmm = width if width is not None else rng.uniform(w0, w1)
        op = (opacity if opacity is not None else rng.uniform(o0, o1)) * light
        jit = 0.03 if "highlighter" in pen or pen == "smear" else rng.uniform(0.04, 0.12)
        pts, _ = _path(rng, ctrl, step=max(0.05, min(0.25, wmm / 5)), jitter=jit)
        pres = _pressure(rng, len(pts), flat=flat or "highlighter" in pen or pen == "smear")
        self.samples.append((owner, pts, wmm))
        ppm = self.ppm
        h, w = self.img.shape[:2]
        r_px = wmm * ppm / 2
        pad = int(r_px + 3)
        x0 = max(0, int(pts[:, 0].min() * ppm) - pad)
        y0 = max(0, int(pts[:, 1].min() * ppm) - pad)
        x1 = min(w, int(pts[:, 0].max() * ppm) + pad + 1)
        y1 = min(h, int(pts[:, 1].max() * ppm) + pad + 1)
        if x1 <= x0 or y1 <= y0:
            return
        can = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for (px, py), p in zip(pts, pres):
            rr = r_px * (0.55 + 0.45 * p) if "highlighter" not in pen else r_px
            cv2.circle(
                can,
                (int((px * ppm - x0) * 16), int((py * ppm - y0) * 16)),
                max(8, int(rr * 16)),
                int(40 + 215 * p),
                -1,
                cv2.LINE_AA,
                4,
            )
        cov = can.astype(np.float32) / 255.0
        if grain > 0:
            tooth = self.tooth[y0:y1, x0:x1]
            cov = cov * np.clip(1.0 - 0.7 * grain * (0.9 - tooth) * (2.0 - cov * 0.5), 0.2, 1.0)  # paper tooth skips
        if pen == "blue-ballpoint" or pen == "black-ballpoint":
            cov = cov * np.clip(1.15 - 0.35 * (1.0 - self.tooth[y0:y1, x0:x1]) ** 3, 0, 1)
        if streak is not None:
            cov = cov * streak(cov.shape)
        a = (cov * op)[..., None]
        self.img[y0:y1, x0:x1] *= 1.0 - a * (1.0 - np.asarray(ink, np.float32))


# ---------------------------------------------------------------------------------------
# mark shapes, in mm relative to the box centre (s = box side)


def _rot(pts, ang, scale=1.0):
    c, s = math.cos(ang), math.sin(ang)
    pts = np.asarray(pts, np.float64) * scale
    return pts @ np.array([[c, s], [-s, c]])


def _tick(rng, s):
    return [[[-0.28 * s, -0.02 * s], [-0.06 * s, 0.24 * s], [0.32 * s, -0.36 * s + rng.uniform(-0.05, 0.05) * s]]]


def _shape(rng, style, w, h, gap=9.0):
    s = min(w, h)
    if style == "tick":
        return [_rot(p, rng.uniform(-0.25, 0.2), rng.uniform(0.75, 1.1)) for p in _tick(rng, s)]
    if style == "corner":
        sc = rng.uniform(0.4, 0.5)
        cx, cy = rng.choice([-1, 1]) * rng.uniform(0.14, 0.2) * w, rng.choice([-1, 1]) * rng.uniform(0.14, 0.2) * h
        return [_rot(p, rng.uniform(-0.2, 0.2), sc) + [cx, cy] for p in _tick(rng, s)]
    if style == "cross":
        e = rng.uniform(0.26, 0.4) * s
        return [
            _rot([[-e, -e], [e * rng.uniform(0.85, 1.1), e]], rng.uniform(-0.15, 0.15)),
            _rot([[e, -e * rng.uniform(0.85, 1.1)], [-e, e]], rng.uniform(-0.15, 0.15)),
        ]
    if style == "slash":
        e = rng.uniform(0.28, 0.42) * s
        sg = rng.choice([-1, 1])
        return [_rot([[-e * sg, e], [e * sg, -e]], rng.uniform(-0.2, 0.2))]
    if style == "fill":
        n = int(rng.integers(5, 9))
        iw, ih = 0.36 * w, 0.36 * h
        ys = np.linspace(-ih, ih, n)
        pts = []
        for i, y in enumerate(ys):
            pts.append([(-iw if i % 2 == 0 else iw) + rng.uniform(-0.05, 0.05) * w, y])
            pts.append([(iw if i % 2 == 0 else -iw) + rng.uniform(-0.05, 0.05) * w, y + (ys[1] - ys[0]) * 0.5])
        return [_rot(pts, rng.uniform(-0.4, 0.4))]
    if style == "scribble":
        n = int(rng.integers(7, 14))
        ang = np.cumsum(rng.uniform(1.2, 2.6, n))
        rad = rng.uniform(0.12, 0.34, n) * s
        return [np.stack([rad * np.cos(ang), rad * np.sin(ang)], 1)]
    if style == "dot":
        r = rng.uniform(0.7, 1.0)
        t = np.linspace(0, 4 * math.pi, 30)
        rr = r * (1 - t / (4.5 * math.pi))
        c = rng.uniform(-0.12, 0.12, 2) * s
        return [np.stack([rr * np.cos(t), rr * np.sin(t)], 1) + c]
    if style == "circle":
        # clear of the printed outline (a pen line on top of it would not show): around the box, or an O in it
        # (around only where there is room: in a packed grid a ring round a cell would circle its neighbours too)
        if gap > 0.6 and rng.random() < 0.6:
            r = s / 2 + rng.uniform(0.5, min(1.5, gap + 0.5))
        else:
            r = rng.uniform(0.28, 0.36) * s
        t0 = rng.uniform(0, 2 * math.pi)
        t = np.linspace(t0, t0 + rng.uniform(2.1, 2.3) * math.pi, 50)
        ex = rng.uniform(0.92, 1.1)
        c = rng.uniform(-0.04, 0.04, 2) * s
        return [np.stack([r * ex * np.cos(t), r / ex * np.sin(t)], 1) + c]
    raise ValueError(style)


def _veg_shape(rng, style, veg, s):
    """A garden cell's drawing (mm, box centre)."""
    if style == "hatch":
        n = int(rng.integers(6, 11))
        e = rng.uniform(0.3, 0.4) * s
        ys = np.linspace(-e, e, n)
        pts = []
        for i, y in enumerate(ys):
            pts.append([(-e if i % 2 == 0 else e) + rng.uniform(-0.04, 0.04) * s, y])
        return [_rot(pts, rng.uniform(-0.7, 0.7))]
    if style == "blob":
        t = np.linspace(0, rng.uniform(5, 7) * math.pi, 90)
        rr = rng.uniform(0.28, 0.38) * s * (1 - t / (t[-1] * 1.15)) * rng.uniform(0.85, 1.15, 90)
        return [np.stack([rr * np.cos(t), rr * np.sin(t)], 1)]
    if style == "outline":  # a little picture of the vegetable
        if veg == "C":
            body = [[-0.1 * s, -0.3 * s], [0.12 * s, -0.3 * s], [0.0, 0.36 * s], [-0.1 * s, -0.3 * s]]
            leaves = [[0.0, -0.3 * s], [-0.12 * s, -0.42 * s]], [[0.02 * s, -0.3 * s], [0.12 * s, -0.42 * s]]
            hatch = [[-0.05 * s, -0.22 * s], [0.07 * s, -0.2 * s], [-0.03 * s, 0.0], [0.04 * s, 0.05 * s]]
            return [_rot(p, rng.uniform(-0.5, 0.5)) for p in [body, *leaves, hatch]]
        t = np.linspace(0, 2.1 * math.pi, 60)
        r = 0.32 * s
        circ = np.stack([r * np.cos(t), r * np.sin(t)], 1)
        if veg == "S":
            inner = np.stack([0.18 * s * np.cos(t[:45] * 1.5), 0.18 * s * np.sin(t[:45])], 1)
            return [circ, inner, [[-0.2 * s, 0.05 * s], [0.2 * s, -0.05 * s]]]
        star = [[-0.1 * s, -0.34 * s], [0.0, -0.26 * s], [0.1 * s, -0.34 * s]]
        fill = [[-0.2 * s, -0.1 * s], [0.2 * s, -0.05 * s], [-0.2 * s, 0.08 * s], [0.18 * s, 0.14 * s]]
        return [circ, star, fill]
    if style == "letter":
        e = rng.uniform(0.25, 0.35) * s
        if veg == "C":
            t = np.linspace(0.25 * math.pi, 1.8 * math.pi, 40)
            return [np.stack([e * np.cos(t), e * np.sin(t)], 1)]
        if veg == "S":
            t1 = np.linspace(-0.1 * math.pi, -1.5 * math.pi, 30)
            t2 = np.linspace(-0.5 * math.pi, 0.9 * math.pi, 30)
            up = np.stack([0.5 * e * np.cos(t1), 0.5 * e * np.sin(t1) - 0.5 * e], 1)
            dn = np.stack([0.5 * e * np.cos(t2), 0.5 * e * np.sin(t2) + 0.5 * e], 1)
            return [np.concatenate([up, dn])]
        return [[[-e, -e], [e, -e * 1.05]], [[0.0, -e], [0.02 * s, e]]]
    raise ValueError(style)


# ---------------------------------------------------------------------------------------
# marking one page


def _mark_page(rng, sheet, boxes, grid, flecks):
    """boxes: list of (field, kind, x, y, w, h) in paper mm. Returns truth and kinds."""
    truth, kinds = {}, {}
    main_pen = _pick(rng, CHECK_PENS, [0.2, 0.12, 0.12, 0.2, 0.14, 0.12, 0.1])
    rate = rng.uniform(0.3, 0.65)
    hl_rate = 0.15 if rng.random() < 0.25 else 0.0
    garden_graphite = rng.random() < 0.25
    rects = np.array([[b[2], b[3], b[2] + b[4], b[3] + b[5]] for b in boxes])
    centres = np.stack([(rects[:, 0] + rects[:, 2]) / 2, (rects[:, 1] + rects[:, 3]) / 2], 1)
    tags: dict = {b[0]: [] for b in boxes}
    half = (rects[:, 2:] - rects[:, :2]) / 2
    gaps = np.full(len(boxes), 1e9)
    for i in range(len(boxes)):  # the free space between a box and its nearest neighbour, mm
        d = np.abs(centres - centres[i]) - half - half[i]
        g = d.max(1)
        g[i] = 1e9
        gaps[i] = g.min()

    def neighbour(i):
        d = centres - centres[i]
        dist = np.hypot(d[:, 0], d[:, 1])
        dist[i] = 1e9
        j = int(np.argmin(dist))
        return j if dist[j] < 1.8 * max(boxes[i][4], boxes[i][5]) else None

    for i, (field, kind, x, y, w, h) in enumerate(boxes):
        cx, cy = x + w / 2, y + h / 2
        s = min(w, h)
        words = tags[field]
        if field in grid:
            if rng.random() < 0.35:
                truth[field] = ""
                kinds.setdefault(field, "none/empty")
                continue
            veg = _pick(rng, ["C", "S", "T"])
            truth[field] = veg
            pen = VEG_PEN[veg]
            if garden_graphite and rng.random() < 0.6:
                pen = _pick(rng, ["hb-pencil", "2b-pencil", "black-ballpoint"])
                words.append("+graphite")
            elif rng.random() < 0.12:
                words.append("+light")
            style = _pick(rng, ["hatch", "hatch", "blob", "outline", "letter"])
            if style in ("outline", "letter"):
                words.append("+sparse")
            if rng.random() < 0.1 and "+graphite" not in words:  # crossed out and rewritten
                wrong = _pick(rng, [v for v in "CST" if v != veg])
                c0 = np.array([cx - 0.25 * s, cy - 0.25 * s])
                sheet.stroke(rng, VEG_PEN[wrong], _rot([[-1.2, -1], [1.2, 0.2], [-1, 1]], 0) + c0, owner=field)
                sheet.stroke(rng, "hb-pencil", [[c0[0] - 1.6, c0[1] - 1.4], [c0[0] + 1.6, c0[1] + 1.4]], owner=field)
                sheet.stroke(rng, "hb-pencil", [[c0[0] + 1.6, c0[1] - 1.4], [c0[0] - 1.6, c0[1] + 1.4]], owner=field)
                style = "hatch"
                words.append("+rewritten")
                if "+sparse" in words:
                    words.remove("+sparse")
            light = rng.uniform(0.65, 0.75) if "+light" in words else 1.0
            for ctrl in _veg_shape(rng, style, veg, s):
                sheet.stroke(rng, pen, np.asarray(ctrl) + [cx, cy], owner=field, light=light)
            kinds[field] = f"{pen}/{style}"
            continue
        if rng.random() > rate:
            truth[field] = False
            if main_pen.endswith("pencil") and rng.random() < 0.05:  # erased mark: a faint ghost
                for ctrl in _shape(rng, "tick", w, h):
                    sheet.stroke(
                        rng, main_pen, np.asarray(ctrl) + [cx, cy], owner=None, opacity=rng.uniform(0.07, 0.12)
                    )
                words.append("+erased")
            kinds[field] = "none/empty"
            continue
        truth[field] = True
        pen = main_pen if rng.random() < 0.8 else _pick(rng, CHECK_PENS)
        if hl_rate and rng.random() < hl_rate:
            pen = _pick(rng, ["yellow-highlighter", "green-highlighter"])
            sw = rng.uniform(*PENS[pen][1])
            n = max(1, int(math.ceil(h / (sw * 0.9))))
            ys = np.linspace(-h / 2 + h / (2 * n), h / 2 - h / (2 * n), n)
            ov = rng.uniform(0.3, 1.5) - sw / 2  # the round tip's half width runs on too
            for yy in ys:
                sheet.stroke(
                    rng,
                    pen,
                    [[cx - w / 2 - ov, cy + yy], [cx + w / 2 + ov, cy + yy + rng.uniform(-0.5, 0.5)]],
                    field,
                    width=sw,
                )
            kinds[field] = f"{pen}/fill"
            continue
        style = _pick(rng, CHECK_STYLES)
        if kind == "round":  # printed numbers: circled or struck, no tiny marks on top of the digits
            style = "circle" if rng.random() < 0.5 else _pick(rng, ["tick", "cross", "slash", "fill", "scribble"])
        light = 1.0
        if rng.random() < 0.12 and style not in ("corner", "dot", "circle"):  # light, but plainly visible
            light = rng.uniform(0.7, 0.8)
            words.append("+light")
        shapes = _shape(rng, style, w, h, gap=gaps[i])
        if style in ("tick", "slash", "cross") and rng.random() < 0.12:
            j = neighbour(i)
            if j is not None:
                d = centres[j] - centres[i]
                dn = d / (np.hypot(*d) + 1e-9)
                # the long arm runs on over the border, 1-3 mm into the next box
                gap = (
                    abs(d[0]) - w / 2 - boxes[j][4] / 2
                    if abs(d[0]) > abs(d[1])
                    else abs(d[1]) - h / 2 - boxes[j][5] / 2
                )
                reach = (max(w, h) / 2 + max(gap, 0) + rng.uniform(0.15, 0.3) * min(w, h)) * dn
                if style == "tick":  # the short arm stays, the long one runs on
                    shapes = [[shapes[0][0], shapes[0][1], reach]]
                else:
                    shapes = [[-0.3 * reach + rng.uniform(-0.8, 0.8, 2), reach]] + shapes[1:]
                words.append("+stray")
        if style in ("circle",):
            words.append("+circle")
        if style in ("corner", "dot"):
            words.append("+small")
        for ctrl in shapes:
            sheet.stroke(rng, pen, np.asarray(ctrl) + [cx, cy], owner=field, light=light)
        kinds[field] = f"{pen}/{style}"

    # a hand dragged over graphite: a grey smear across a few boxes (they stay as they are)
    smear_band = None
    if main_pen.endswith("pencil") and rng.random() < 0.45:
        i = int(rng.integers(len(boxes)))
        a = rng.uniform(0, 2 * math.pi)
        ln = rng.uniform(25, 60)
        p0 = centres[i]
        p1 = p0 + ln * np.array([math.cos(a), math.sin(a)])
        wmm = rng.uniform(6, 11)

        def streak(shape, a=a):
            z = rng.standard_normal(shape).astype(np.float32)
            k = np.zeros((31, 31), np.float32)
            cv2.line(
                k,
                (15 - int(14 * math.cos(a)), 15 - int(14 * math.sin(a))),
                (15 + int(14 * math.cos(a)), 15 + int(14 * math.sin(a))),
                1.0,
            )
            z = cv2.filter2D(z, -1, k / k.sum())
            z = cv2.GaussianBlur(z, (0, 0), 1.0)
            return np.clip(0.65 + 0.9 * z / (z.std() + 1e-6) * 0.35, 0.2, 1.2) * 0.7

        sheet.stroke(
            rng, "smear", [p0, (p0 + p1) / 2 + rng.uniform(-2, 2, 2), p1], owner=None, width=wmm, streak=streak
        )
        smear_band = (p0, p1, wmm)

    # foreign ink (strays, highlighter run-over), smears, flecks: tag the boxes
    wh = np.concatenate([rects[:, 2:] - rects[:, :2]] * 2, 1) * 0.12
    inset = rects + wh * np.array([1, 1, -1, -1])
    for owner, pts, wmm in sheet.samples:
        if owner is None:
            continue
        p = pts[::3]
        r = wmm / 2  # the ink's edge, not its centre line
        inside = (
            (p[:, None, 0] > inset[None, :, 0] - r)
            & (p[:, None, 0] < inset[None, :, 2] + r)
            & (p[:, None, 1] > inset[None, :, 1] - r)
            & (p[:, None, 1] < inset[None, :, 3] + r)
        )
        hits = inside.sum(0)
        for j in np.nonzero(hits >= 3)[0]:
            f = boxes[j][0]
            if f != owner and "+stray-in" not in tags[f]:
                tags[f].append("+stray-in")
    if smear_band is not None:
        p0, p1, wmm = smear_band
        d = p1 - p0
        t = np.clip(((centres - p0) @ d) / (d @ d), 0, 1)
        dist = np.hypot(*(centres - (p0 + t[:, None] * d)).T)
        for j in np.nonzero(dist < wmm / 2 + 1.5)[0]:
            tags[boxes[j][0]].append("+smudge")
    for fx, fy in flecks:
        for j in np.nonzero((fx > rects[:, 0]) & (fx < rects[:, 2]) & (fy > rects[:, 1]) & (fy < rects[:, 3]))[0]:
            tags[boxes[j][0]].append("+fleck")
    for f, words in tags.items():
        if words:
            kinds[f] = " ".join([kinds[f], *dict.fromkeys(words)])
    return truth, kinds


# ---------------------------------------------------------------------------------------
# the table under the sheet


def _table(rng, sh, sw, desc):
    """The table under the sheet, at low resolution (float32 RGB)."""
    kind = _pick(rng, ["wood", "cloth", "laminate", "dark"], [0.4, 0.25, 0.2, 0.15])
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    if kind == "wood":
        warp = cv2.resize(rng.standard_normal((6, 6)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC)
        ring = np.sin(v / rng.uniform(6, 20) + 3 * warp) * 0.5 + 0.5
        fine = cv2.resize(rng.standard_normal((sh, 8)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_LINEAR)
        rot = cv2.getRotationMatrix2D((sw / 2, sh / 2), math.degrees(a), 1.2)
        fine = cv2.warpAffine(fine, rot, (sw, sh), borderMode=cv2.BORDER_REFLECT)
        base = np.array(_pick(rng, [(0.55, 0.36, 0.2), (0.72, 0.55, 0.36), (0.4, 0.25, 0.15)]), np.float32)
        lum = 0.85 + 0.2 * ring + 0.05 * fine
    elif kind == "cloth":
        per = rng.uniform(12, 40)
        s1 = (np.mod(u, per) < per / 2).astype(np.float32)
        s2 = (np.mod(v, per) < per / 2).astype(np.float32)
        lum = 0.75 + 0.25 * (1 - 0.5 * (s1 + s2)) + 0.04 * np.sin(u * 1.7) * np.sin(v * 1.7)
        base = np.array(
            _pick(rng, [(0.8, 0.2, 0.2), (0.25, 0.35, 0.75), (0.3, 0.6, 0.35), (0.85, 0.85, 0.8)]), np.float32
        )
    elif kind == "laminate":
        lum = 1.0 + 0.02 * cv2.GaussianBlur(rng.standard_normal((sh, sw)).astype(np.float32), (0, 0), 2)
        base = np.array(_pick(rng, [(0.82, 0.82, 0.8), (0.9, 0.88, 0.84), (0.7, 0.72, 0.74)]), np.float32)
    else:
        lum = 1.0 + 0.08 * cv2.GaussianBlur(rng.standard_normal((sh, sw)).astype(np.float32), (0, 0), 1.5)
        base = np.array(_pick(rng, [(0.15, 0.15, 0.17), (0.25, 0.18, 0.12)]), np.float32)
    lum = lum * (1.0 + 0.04 * rng.standard_normal((sh, sw)).astype(np.float32))
    desc.append(f"{kind} table")
    return (lum[..., None] * base).astype(np.float32)


def _jpeg(img, q, sub):
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=int(q), subsampling=sub)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def _to8(img, gamma=1.0):
    out = cv2.convertScaleAbs(cv2.max(img, (0.0,) * 4), alpha=255.0)
    if abs(gamma - 1.0) > 1e-3:
        lut = np.clip(((np.arange(256) / 255.0) ** gamma) * 255 + 0.5, 0, 255).astype(np.uint8)
        out = cv2.LUT(out, lut)
    return out


def _up(a, ww, hh, g):
    """A coarse grid (cell centres every g px) back to full size."""
    gh, gw = a.shape[:2]
    return cv2.resize(a, (gw * g, gh * g), interpolation=cv2.INTER_LINEAR)[:hh, :ww]


def _camera(rng, paper, ppm, desc):
    """paper: uint8 RGB at ppm px/mm, the whole A4 sheet."""
    mp = rng.uniform(3, 14)
    aspect = _pick(rng, [4 / 3, 16 / 9, 3 / 2])
    # 3D pose: tilt up to 20 degrees about a random axis, any roll
    tilt = math.radians(rng.uniform(0, 20))
    phi = rng.uniform(0, 2 * math.pi)
    if rng.random() < 0.25:
        roll = rng.uniform(0, 2 * math.pi)
    else:
        roll = float(rng.choice([0, 0.5, 1, 1.5])) * math.pi + rng.normal(0, 0.12)
    rt, _ = cv2.Rodrigues(np.array([math.cos(phi), math.sin(phi), 0.0]) * tilt)
    rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    dist = rng.uniform(280, 480)
    corners = np.array([[0, 0], [A4[0], 0], [A4[0], A4[1]], [0, A4[1]]], np.float64)
    p3 = np.concatenate([corners - np.array(A4) / 2, np.zeros((4, 1))], 1) @ (rt @ rz).T + [0, 0, dist]
    proj = p3[:, :2] / p3[:, 2:3]
    bw, bh = np.ptp(proj[:, 0]), np.ptp(proj[:, 1])
    long_, short = int(math.sqrt(mp * 1e6 * aspect)), int(math.sqrt(mp * 1e6 / aspect))
    ww, hh = (long_, short) if bw > bh else (short, long_)
    fill = rng.uniform(0.6, 0.95)
    sc = fill * min(ww / bw, hh / bh)
    # at least 3.6 px/mm along the sheet's shortest edge: more fill, else more pixels
    unit = min(np.hypot(*(proj[(i + 1) % 4] - proj[i])) / A4[i % 2] for i in range(4))
    if sc * unit < 3.6:
        fill = min(0.95, fill * 3.6 / (sc * unit))
        sc = fill * min(ww / bw, hh / bh)
        if sc * unit < 3.6:
            grow = 3.6 / (sc * unit)
            ww, hh = int(ww * grow) + 1, int(hh * grow) + 1
            sc = fill * min(ww / bw, hh / bh)
    proj = (proj - proj.min(0)) * sc
    proj += [rng.uniform(0, ww - np.ptp(proj[:, 0])), rng.uniform(0, hh - np.ptp(proj[:, 1]))]
    # shrink the paper first to about the size it has in the frame (no aliasing in the warp)
    edge = max(np.hypot(*(proj[1] - proj[0])) / A4[0], np.hypot(*(proj[3] - proj[0])) / A4[1])
    res = min(np.hypot(*(proj[(i + 1) % 4] - proj[i])) / A4[i % 2] for i in range(4))  # px/mm, the least
    pp = min(ppm, edge * 1.3)
    if pp < ppm:
        paper = cv2.resize(paper, (int(A4[0] * pp), int(A4[1] * pp)), interpolation=cv2.INTER_AREA)
    ph, pw = paper.shape[:2]
    hm = cv2.getPerspectiveTransform((corners * pp).astype(np.float32), proj.astype(np.float32))
    hinv = np.linalg.inv(hm)
    LAST.update(kind="camera", h=hm, pp=pp, f=1.0)
    g = 8  # maps and light on a coarse grid, then upsampled
    gw, gh = ww // g + 2, hh // g + 2
    gx, gy = np.meshgrid((np.arange(gw) + 0.5) * g - 0.5, (np.arange(gh) + 0.5) * g - 0.5)
    den = hinv[2, 0] * gx + hinv[2, 1] * gy + hinv[2, 2]
    u = (hinv[0, 0] * gx + hinv[0, 1] * gy + hinv[0, 2]) / den
    v = (hinv[1, 0] * gx + hinv[1, 1] * gy + hinv[1, 2]) / den
    um, vm = u / pp, v / pp  # mm on the paper
    # curl and waviness: a height field (mm) seen at an angle shifts the paper sideways
    curl = rng.uniform(0, 6)
    side = int(rng.integers(4))
    t = [um / A4[0], 1 - um / A4[0], vm / A4[1], 1 - vm / A4[1]][side]
    hgt = curl * np.clip(1 - t / 0.35, 0, 1) ** 2
    wav = rng.uniform(0, 1.5)
    lam = rng.uniform(80, 200)
    ang = rng.uniform(0, math.pi)
    hgt = hgt + wav * np.sin((um * math.cos(ang) + vm * math.sin(ang)) / lam * 2 * math.pi + rng.uniform(0, 6.3))
    shift = rng.uniform(0.15, 0.4)
    sa = rng.uniform(0, 2 * math.pi)
    u = u - hgt * shift * math.cos(sa) * pp
    v = v - hgt * shift * math.sin(sa) * pp
    gyh, gxh = np.gradient(hgt)
    la = rng.uniform(0, 2 * math.pi)
    shade = np.clip(1.0 + 0.8 * (gxh * math.cos(la) + gyh * math.sin(la)) / (g / edge), 0.85, 1.15)
    mapx, mapy = _up(u.astype(np.float32), ww, hh, g), _up(v.astype(np.float32), ww, hh, g)
    rgba = np.dstack([paper, np.full((ph, pw), 255, np.uint8)])
    warped = cv2.remap(rgba, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    del mapx, mapy, rgba
    *chans, a8 = cv2.split(warped)
    sheet = cv2.merge(chans)
    # the table and the sheet's own shadow on it, at low resolution
    small_a = cv2.resize(a8, (gw, gh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    bg = _table(rng, gh, gw, desc)
    sm = cv2.GaussianBlur(small_a, (0, 0), 1.5)
    sm = np.roll(sm, tuple(int(x) for x in rng.integers(-2, 3, 2)), (0, 1))
    bg = bg * (1 - 0.35 * sm)[..., None]
    bg8 = _to8(_up(bg, ww, hh, g))
    bg8 = cv2.add(
        bg8,
        (rng.integers(0, 7, (hh // 2 + 1, ww // 2 + 1), dtype=np.uint8))
        .repeat(2, 0)
        .repeat(2, 1)[:hh, :ww, None]
        .repeat(3, 2),
    )
    af = a8.astype(np.float32) * (1 / 255)
    scene = cv2.blendLinear(sheet, bg8, af, 1.0 - af)
    del sheet, bg8, af, warped
    # light: vignetting, curl shading, hand/phone shadow, white balance, exposure, glare
    lx, ly = np.meshgrid(np.linspace(-1, 1, gw), np.linspace(-1, 1, gh))
    light = (1 - rng.uniform(0.08, 0.35) * (lx**2 + ly**2) / 2) * shade
    extra = []
    if rng.random() < 0.45:
        shd = np.zeros((gh, gw), np.float32)
        c = (int(rng.uniform(0, gw)), int(rng.uniform(0, gh)))
        ax = (int(rng.uniform(0.15, 0.4) * gw), int(rng.uniform(0.2, 0.5) * gh))
        cv2.ellipse(shd, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
        shd = cv2.GaussianBlur(shd, (0, 0), rng.uniform(0.04, 0.1) * gw)
        light = light * (1 - rng.uniform(0.15, 0.4) * shd)
        extra.append("hand-shadow")
    glare = np.zeros((gh, gw), np.float32)
    if rng.random() < 0.35:
        gxc, gyc = rng.uniform(-0.8, 0.8, 2)
        r = rng.uniform(0.06, 0.18)
        glare = rng.uniform(0.2, 0.45) * np.exp(-((lx - gxc) ** 2 + (ly - gyc) ** 2) / (2 * r * r))
        extra.append("glare")
    wb = _pick(rng, ["tungsten", "daylight", "shade", "neutral"])
    cast = {
        "tungsten": (1.0 + rng.uniform(0.06, 0.18), 1.0, 1.0 - rng.uniform(0.12, 0.28)),
        "daylight": (1.0, 1.0, 1.0 + rng.uniform(0.0, 0.05)),
        "shade": (0.93, 1.0, 1.07),
        "neutral": (1.0, 1.0, 1.0),
    }[wb]
    expo = rng.uniform(0.8, 1.15)
    gain = ((light * expo * (1 - glare))[..., None] * np.asarray(cast)).astype(np.float32)
    img = cv2.multiply(scene, _up(gain, ww, hh, g), dtype=cv2.CV_32F, scale=1 / 255)
    del scene
    if glare.max() > 0:
        img = cv2.add(img, _up(np.repeat((1.05 * glare)[..., None], 3, 2).astype(np.float32), ww, hh, g))
    # optics: defocus and motion blur
    sdim = max(hh, ww)
    # blur capped against the sheet's scale (px/mm) so that a 0.3 mm stroke stays plainly visible
    defo = min(rng.uniform(0, 1.6) * sdim / 4000, 0.2 * res)
    if defo > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), defo)
    mlen = min(rng.uniform(0, 7) * sdim / 4000, 0.6 * res)
    if mlen > 1.2:
        k = int(math.ceil(mlen / 2)) * 2 + 1
        ker = np.zeros((k, k), np.float32)
        a = rng.uniform(0, math.pi)
        c = k // 2
        dx, dy = mlen / 2 * math.cos(a), mlen / 2 * math.sin(a)
        cv2.line(ker, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
        img = cv2.filter2D(img, -1, ker / ker.sum())
    # sensor noise: shot noise on luminance, coarser chroma noise
    iso = rng.uniform(0.005, 0.03)
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    lumn = cv2.multiply(cv2.sqrt(cv2.max(gray, 0.01)), _randn((hh, ww), rng), scale=iso)
    cn = cv2.resize(_randn((hh // 2, ww // 2, 3), rng), (ww, hh))
    img = cv2.add(img, cv2.merge([lumn, lumn, lumn]))
    img = cv2.scaleAdd(cn, iso * 0.6, img)
    del gray, lumn, cn
    # ISP: noise reduction, local tone mapping, sharpening
    img = _clip01(img)
    isp = []
    if rng.random() < 0.6:
        y, cr, cb = cv2.split(cv2.cvtColor(img, cv2.COLOR_RGB2YCrCb))
        sig = rng.uniform(1.0, 3.0)
        cr, cb = cv2.GaussianBlur(cr, (0, 0), sig), cv2.GaussianBlur(cb, (0, 0), sig)
        ysm = cv2.GaussianBlur(y, (0, 0), rng.uniform(0.8, 1.5))
        flat = cv2.threshold(cv2.absdiff(y, ysm), rng.uniform(0.02, 0.05), 1.0, cv2.THRESH_BINARY_INV)[1]
        y = cv2.add(y, cv2.multiply(flat, cv2.subtract(ysm, y)))
        img = cv2.cvtColor(cv2.merge([y, cr, cb]), cv2.COLOR_YCrCb2RGB)
        isp.append("NR")
    if rng.random() < 0.5:
        small = cv2.resize(cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), (gw, gh), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), 3)
        tm = ((0.55 / np.clip(small, 0.05, 1)) ** rng.uniform(0.2, 0.5)).astype(np.float32)
        img = cv2.multiply(img, _up(np.repeat(tm[..., None], 3, 2), ww, hh, g))
        isp.append("HDR")
    amt = rng.uniform(0.3, 2.0)
    rad = max(0.5, rng.uniform(0.8, 2.5) * sdim / 4000)
    img = cv2.addWeighted(img, 1 + amt, cv2.GaussianBlur(img, (0, 0), rad), -amt, 0)
    isp.append(f"sharpen{amt:.1f}")
    out = _to8(img, rng.uniform(0.9, 1.1))
    del img
    q = int(rng.integers(40, 96))
    sub = 2 if rng.random() < 0.6 else 0
    out = _jpeg(out, q, sub)
    msg = ""
    if rng.random() < 0.25 and max(out.shape[:2]) > 1600 and res * 1600 / max(out.shape[:2]) > 3.6:
        f = 1600 / max(out.shape[:2])
        out = cv2.resize(out, (int(out.shape[1] * f), int(out.shape[0] * f)), interpolation=cv2.INTER_AREA)
        out = _jpeg(out, int(rng.integers(65, 86)), 2)
        msg = " msg-1600"
        LAST["f"] = f
    desc.append(
        f"phone {ww}x{hh} fill{fill:.2f} tilt{math.degrees(tilt):.0f} roll{math.degrees(roll) % 360:.0f} "
        f"curl{curl:.1f} wave{wav:.1f} defocus{defo:.1f} motion{mlen:.1f} iso{iso:.3f} {wb} "
        f"{' '.join(extra + isp)} jpeg{q}{'/420' if sub == 2 else '/444'}{msg}"
    )
    return out


def _scanner(rng, paper, ppm, desc):
    dpi = int(_pick(rng, [150, 200, 300, 400, 600], [0.2, 0.3, 0.3, 0.12, 0.08]))
    sp = dpi / 25.4
    ww, hh = int(216.0 * sp), int(297.0 * sp)  # the glass
    skew = rng.uniform(1, 3) * float(rng.choice([-1, 1]))
    flip = rng.random() < 0.2
    ang = math.radians(skew + (180 if flip else 0))
    ph, pw = paper.shape[:2]
    if sp < ppm:
        paper = cv2.resize(paper, (int(A4[0] * sp * 1.2), int(A4[1] * sp * 1.2)), interpolation=cv2.INTER_AREA)
        ph, pw = paper.shape[:2]
    s = sp * A4[0] / pw
    c, si = math.cos(ang) * s, math.sin(ang) * s
    tx = ww / 2 + rng.uniform(-3, 3) * sp
    ty = hh / 2 + rng.uniform(-2, 2) * sp
    m = np.float32([[c, -si, tx - (c * pw / 2 - si * ph / 2)], [si, c, ty - (si * pw / 2 + c * ph / 2)]])
    lid = int(rng.uniform(215, 250))
    LAST.update(kind="scanner", h=np.vstack([m, [0, 0, 1]]), pp=pw / A4[0], f=1.0)
    img = cv2.warpAffine(
        paper, m, (ww, hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(lid, lid, lid)
    )
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 0.9))
    noise = (_randn((hh, ww), rng) * rng.uniform(0.8, 3.0)).astype(np.float32)
    imgf = img.astype(np.float32) + noise[..., None]
    lum = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)[::4, ::4]
    lo, hi = np.percentile(lum, [0.5, 99.5])
    imgf = (imgf - lo) * (1.0 / max(hi - lo, 25.0))
    out = _to8(imgf, rng.uniform(0.85, 1.1))
    q = None
    if rng.random() < 0.75:
        q = int(rng.integers(60, 96))
        out = _jpeg(out, q, 2 if rng.random() < 0.5 else 0)
    desc.append(f"flatbed {dpi}dpi skew{skew:.1f}{' upside-down' if flip else ''} autolevels jpeg{q or '-'}")
    return out


# ---------------------------------------------------------------------------------------


def photo(layout, page_id: str, rng: np.random.Generator):
    desc = []
    lang, players, data, at, boxes = random_page(layout, page_id, rng, french=0.3)
    dpi = int(rng.integers(200, 281))
    ppm = dpi / 25.4
    rgb = _raster(data, dpi)
    h, w = rgb.shape[:2]
    desc.append(f"{lang} players={players} raster{dpi}")
    planes = _print(rgb, rng, dpi, desc)
    del rgb
    # fit-to-page scaling and the paper's offset in the printer
    scale = rng.uniform(0.94, 1.0)
    off = rng.uniform(1, 4) * np.array([rng.choice([-1, 1]), rng.choice([-1, 1])]) * rng.uniform(0.3, 1, 2)
    m = np.float32([[scale, 0, (1 - scale) * w / 2 + off[0] * ppm], [0, scale, (1 - scale) * h / 2 + off[1] * ppm]])
    planes = [cv2.warpAffine(p, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=0) for p in planes]
    desc.append(f"fit{scale * 100:.1f}% off{off[0]:+.1f},{off[1]:+.1f}mm")
    paper, tooth, flecks = _paper(h, w, ppm, rng, desc)
    cc, mg, yl, kk = planes
    kf = 1.0 - 0.96 * kk
    ink = cv2.merge([cv2.multiply(1.0 - cc, kf), cv2.multiply(1.0 - mg, kf), cv2.multiply(1.0 - yl, kf)])
    paper = cv2.multiply(paper, ink)
    del planes, ink, cc, mg, yl, kk, kf

    def to_paper(x, y):  # page mm -> paper mm
        px, py = at.left + x, at.top + y
        return (scale * (px - A4[0] / 2) + A4[0] / 2 + off[0], scale * (py - A4[1] / 2) + A4[1] / 2 + off[1])

    grid = grid_cells(layout, page_id)
    read = []
    for b in boxes:
        if b.kind == "write" and b.field not in grid:
            continue
        x, y = to_paper(b.x, b.y)
        read.append((b.field, b.kind, x, y, b.w * scale, b.h * scale))
    sheet = Sheet(paper, tooth, ppm)
    truth, kinds = _mark_page(rng, sheet, read, grid, flecks)
    out8 = _to8(sheet.img)
    del paper, sheet, tooth
    if rng.random() < 0.2:
        img = _scanner(rng, out8, ppm, desc)
    else:
        img = _camera(rng, out8, ppm, desc)
    kinds["_photo"] = ", ".join(desc)
    LAST["to_paper"] = to_paper
    return img, truth, kinds
