"""Hand-drawn strokes with grain and tremor, photographed by a phone or scanned on a flatbed.

Written apart from the reader's tuning (its own pens, strokes and camera):

- pens: HB, 2B and 0.5 mm mechanical pencils (graphite on a paper tooth: grainy and
  broken under light pressure), blue and black ballpoints (ink skips, a blob at the
  start), a black fine-liner (a little bleed), wax colour pencils of four hues each
  for the garden cells (orange, green, red), light to heavy pressure;
- strokes: splines through a few points, hand jitter (slow wander and tremor), width
  and darkness following the pressure, tapering in and flicking out;
- marks: small tick, big check overshooting the box, small and big cross, slash, dash,
  dot, hatching, scribbled fill, circle round the box's content, a letter or digit;
  garden cells coloured in, hatched, a vegetable drawn (sometimes with a green leaf or
  stem), a blob or an outline; one main pen and style per player, the rest at random;
- hard cases: a mark straying over its box's border, an erased mistake in an empty box
  (ghost strokes and a smudge), a light stroke, doodles and smudges in the margins,
  digits and names written in the number boxes (not read);
- camera: a pinhole over a table (any rotation, tilt up to 20 degrees), barrel
  distortion, a curled edge or a fold, a textured table and the paper's shadow, uneven
  light, vignetting, a soft shadow, a hot spot, a colour cast half corrected, exposure,
  defocus, gaussian or motion blur, shot and read noise with chroma blotches, the
  phone's denoising, tone curve and sharpening, a messaging app's downscale, JPEG
  (4:2:0 or 4:4:4); or (about 10%) a flatbed scanner.

    photo(layout, page_id, rng) -> (RGB uint8 image, truth, kinds)
"""

from __future__ import annotations

import io
import math
import re

import cv2
import numpy as np
from PIL import Image

from bench.photos.pages import blank_paper
from sheetgen.scan.blank import grid_cells

GRAPHITE = np.array([1.0, 0.97, 0.92], np.float32)  # graphite absorbs a little less blue: a grey with a sheen

# name: kind, line width (mm), graphite darkness or ink colours, paper tooth, grain
PENS = {
    "hb-pencil": dict(kind="graphite", width=(0.30, 0.50), dens=(0.85, 1.2), tooth=0.45, grain=0.22),
    "2b-pencil": dict(kind="graphite", width=(0.45, 0.80), dens=(1.35, 1.9), tooth=0.72, grain=0.45),
    "mech-pencil": dict(kind="graphite", width=(0.22, 0.34), dens=(0.8, 1.15), tooth=0.35, grain=0.18),
    "blue-ballpoint": dict(
        kind="ink", width=(0.24, 0.36), rgb=[(28, 45, 140), (40, 62, 170), (22, 32, 105), (50, 72, 160)]
    ),
    "black-ballpoint": dict(kind="ink", width=(0.24, 0.36), rgb=[(38, 38, 48), (52, 50, 62), (30, 32, 40)]),
    "fineliner": dict(kind="liner", width=(0.30, 0.50), rgb=[(18, 18, 24), (32, 30, 38)]),
}
PEN_WEIGHTS = {
    "hb-pencil": 0.28,
    "2b-pencil": 0.12,
    "mech-pencil": 0.14,
    "blue-ballpoint": 0.2,
    "black-ballpoint": 0.12,
    "fineliner": 0.14,
}
# garden letter: the colour pencil and some of its hues (sRGB at full cover)
COLOURS = {
    "C": ("orange-pencil", [(242, 122, 36), (250, 150, 52), (232, 100, 28), (246, 136, 72)]),
    "S": ("green-pencil", [(52, 150, 62), (104, 176, 62), (30, 118, 72), (74, 160, 104)]),
    "T": ("red-pencil", [(214, 36, 42), (190, 26, 58), (230, 62, 46), (168, 30, 36)]),
}
LEAF = [(60, 150, 50), (40, 120, 60), (100, 170, 60)]
STYLES = {
    "tick": 0.17,
    "check": 0.11,
    "cross": 0.15,
    "bigcross": 0.07,
    "slash": 0.12,
    "dash": 0.06,
    "dot": 0.04,
    "hatch": 0.06,
    "fill": 0.08,
    "circle": 0.06,
    "letter": 0.08,
}
# a printed value in a ring is circled, crossed or ticked; not dotted, dashed or written over
RING_STYLES = {k: v for k, v in STYLES.items() if k not in ("dot", "dash", "letter")}
CELL_STYLES = {"colour-in": 0.35, "hatch": 0.2, "doodle": 0.25, "blob": 0.1, "outline": 0.1}

# single-stroke glyphs in a unit box (x right, y down)
GLYPHS = {
    "0": [[(0.5, 0.04), (0.15, 0.3), (0.2, 0.8), (0.55, 0.96), (0.85, 0.65), (0.8, 0.2), (0.45, 0.06)]],
    "1": [[(0.28, 0.25), (0.56, 0.04), (0.55, 0.96)]],
    "2": [[(0.15, 0.25), (0.38, 0.04), (0.72, 0.08), (0.82, 0.3), (0.6, 0.55), (0.15, 0.95), (0.9, 0.93)]],
    "3": [[(0.15, 0.1), (0.7, 0.05), (0.82, 0.25), (0.45, 0.46), (0.85, 0.65), (0.75, 0.92), (0.15, 0.9)]],
    "4": [[(0.62, 0.96), (0.64, 0.04), (0.1, 0.66), (0.92, 0.64)]],
    "5": [[(0.85, 0.05), (0.28, 0.06), (0.22, 0.45), (0.7, 0.42), (0.85, 0.7), (0.68, 0.95), (0.15, 0.88)]],
    "6": [[(0.75, 0.05), (0.3, 0.35), (0.18, 0.72), (0.42, 0.96), (0.78, 0.82), (0.72, 0.55), (0.4, 0.52), (0.2, 0.7)]],
    "7": [[(0.1, 0.06), (0.9, 0.05), (0.4, 0.96)]],
    "8": [
        [
            (0.52, 0.48),
            (0.2, 0.26),
            (0.5, 0.04),
            (0.8, 0.24),
            (0.5, 0.5),
            (0.15, 0.75),
            (0.5, 0.96),
            (0.85, 0.74),
            (0.52, 0.48),
        ]
    ],
    "9": [[(0.8, 0.3), (0.5, 0.05), (0.2, 0.25), (0.45, 0.5), (0.8, 0.32), (0.76, 0.96)]],
    "X": [[(0.1, 0.06), (0.9, 0.94)], [(0.88, 0.05), (0.12, 0.95)]],
    "V": [[(0.08, 0.05), (0.5, 0.95), (0.92, 0.04)]],
    "+": [[(0.5, 0.2), (0.5, 0.8)], [(0.2, 0.5), (0.8, 0.5)]],
}
LETTERS = "XV12345789"

_LIN = (np.arange(256, dtype=np.float32) / 255) ** 2.2  # sRGB (as a 2.2 power) to linear


def _weighted(rng, table: dict):
    names = list(table)
    p = np.array([table[n] for n in names], float)
    return names[int(rng.choice(len(names), p=p / p.sum()))]


# ---------------------------------------------------------------- pens and strokes


def _pen(name: str, rng, rgb=None) -> dict:
    """One pen in hand: its kind, line width (mm) and absorbance per channel."""
    if name in PENS:
        spec = PENS[name]
        pen = dict(name=name, kind=spec["kind"], width=float(rng.uniform(*spec["width"])))
        if spec["kind"] == "graphite":
            pen.update(absorb=GRAPHITE * float(rng.uniform(*spec["dens"])), tooth=spec["tooth"], grain=spec["grain"])
        else:
            rgb = spec["rgb"][int(rng.integers(len(spec["rgb"])))]
    else:  # a colour pencil
        pen = dict(name=name, kind="colour", width=float(rng.uniform(0.7, 1.2)), tooth=0.55, grain=0.3)
    if rgb is not None:
        pen["absorb"] = -np.log(np.clip(np.array(rgb, np.float32) / 255, 0.02, 1.0))
    return pen


def _spline(points, step: float = 0.08) -> np.ndarray:
    """A Catmull-Rom curve through `points` (mm), sampled about every `step` mm."""
    p = np.asarray(points, np.float64)
    if len(p) < 2:
        return p
    q = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
    out = []
    for i in range(1, len(q) - 2):
        p0, p1, p2, p3 = q[i - 1], q[i], q[i + 1], q[i + 2]
        n = max(2, int(np.linalg.norm(p2 - p1) / step))
        t = np.linspace(0, 1, n, endpoint=False)[:, None]
        out.append(
            0.5
            * (2 * p1 + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2 + (-p0 + 3 * p1 - 3 * p2 + p3) * t**3)
        )
    out.append(p[-1:])
    return np.vstack(out)


def _chaikin(points, rounds: int = 3) -> np.ndarray:
    """Corner cutting: a long zigzag rounded at its turns, never past them."""
    p = np.asarray(points, np.float64)
    for _ in range(rounds):
        q = np.empty((2 * len(p) - 2, 2))
        q[0::2] = 0.75 * p[:-1] + 0.25 * p[1:]
        q[1::2] = 0.25 * p[:-1] + 0.75 * p[1:]
        p = np.vstack([p[:1], q, p[-1:]])
    return p


def _resample(poly: np.ndarray, step: float):
    """The polyline at even arc-length steps; (points, arc length at each)."""
    seg = np.linalg.norm(np.diff(poly, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    total = float(s[-1])
    if total < 1e-6:
        return poly[:1].copy(), np.zeros(1)
    ss = np.arange(0.0, total, step)
    ss = np.append(ss, total)
    return np.column_stack([np.interp(ss, s, poly[:, 0]), np.interp(ss, s, poly[:, 1])]), ss


def _wander(s: np.ndarray, rng, amp: float, lengths) -> np.ndarray:
    """A smooth random offset along arc length `s` (sum of sines)."""
    out = np.zeros_like(s)
    for lam in lengths:
        lam = float(rng.uniform(*lam))
        out += rng.uniform(0.4, 1.0) * np.sin(2 * np.pi * s / lam + rng.uniform(0, 2 * np.pi))
    return amp * out / len(lengths)


def _profile(s: np.ndarray, pen: dict, pressure: float, rng):
    """Width factor and darkness (0-1) along a stroke of arc lengths `s` (mm)."""
    total = max(float(s[-1]), 1e-3)
    kind = pen["kind"]
    if kind in ("graphite", "colour"):
        t_in, t_out = rng.uniform(0.15, 0.7), rng.uniform(0.3, 2.0)
    elif kind == "ink":
        t_in, t_out = rng.uniform(0.05, 0.25), rng.uniform(0.1, 0.6)
    else:
        t_in, t_out = 0.05, 0.05
    t_in, t_out = min(t_in, 0.35 * total), min(t_out, 0.45 * total)
    taper = np.clip(s / max(t_in, 1e-3), 0, 1) ** 0.6 * np.clip((total - s) / max(t_out, 1e-3), 0, 1) ** 0.8
    p = pressure * (1 + _wander(s, rng, 0.22, [(2, 6), (0.8, 2)])) * (0.2 + 0.8 * taper)
    if kind in ("graphite", "colour"):
        return 0.55 + 0.45 * np.clip(p, 0, 1.2), np.clip(p, 0, 1)
    if kind == "liner":
        return 0.9 + 0.1 * taper, np.clip(0.5 + taper, 0, 1)
    # ballpoint: ink or no ink; skips where the ball runs dry, sometimes a blob at the start
    dark = np.clip(0.3 + 1.2 * taper, 0, 1)
    width = 0.75 + 0.25 * taper
    for _ in range(rng.poisson(total * 0.06)):
        at, length = rng.uniform(0, total), rng.uniform(0.15, 0.6)
        dark = np.where(np.abs(s - at) < length / 2, dark * rng.uniform(0.1, 0.45), dark)
    if rng.random() < 0.3:
        width = np.where(s < 0.3, width * 1.4, width)
    return width, dark


def _deposit(cover: np.ndarray, pen: dict, ppmm: float, rng) -> np.ndarray:
    """How much of the pen's colour each pixel holds, from the pressure-weighted cover."""
    kind = pen["kind"]
    if kind in ("graphite", "colour"):
        tooth = rng.standard_normal(cover.shape, np.float32)
        tooth = cv2.GaussianBlur(tooth, (0, 0), max(0.45, 0.035 * ppmm))
        tooth /= tooth.std() + 1e-6
        tooth = 1 / (1 + np.exp(-1.7 * tooth))  # about uniform in 0-1: the paper's tooth heights
        d = np.clip((cover - pen["tooth"] * tooth) / (1 - pen["tooth"] * tooth + 1e-3), 0, 1)
        return d * (1 - pen["grain"] * rng.random(cover.shape, np.float32))
    if kind == "ink":
        return np.clip(cover * 1.15, 0, 1.6) * (0.88 + 0.12 * rng.random(cover.shape, np.float32))
    d = np.clip(cover * 1.2, 0, 1.5)
    return cv2.GaussianBlur(d, (0, 0), max(0.3, 0.04 * ppmm))  # the fine-liner bleeds a little


def _strokes_cover(strokes, pen: dict, pressure: float, ppmm: float, x0: int, y0: int, shape, rng) -> np.ndarray:
    """The cover (0-1, pressure included) of `strokes` (polylines in paper mm) in a patch."""
    cover = np.zeros(shape, np.float32)
    width = pen["width"] * float(rng.uniform(0.9, 1.1))
    for poly in strokes:
        dense = _chaikin(poly) if len(poly) >= 6 else _spline(poly)
        pts, s = _resample(dense, 0.05)
        if len(pts) > 2:  # hand jitter: a slow wander across the stroke and a tremor
            d = np.gradient(pts, axis=0)
            d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-9
            normal = np.column_stack([-d[:, 1], d[:, 0]])
            off = _wander(s, rng, rng.uniform(0.04, 0.14), [(3, 9), (1.5, 4)])
            off += _wander(s, rng, rng.uniform(0.005, 0.025), [(0.3, 0.8)])
            pts = pts + normal * off[:, None]
        wf, dark = _profile(s, pen, pressure, rng)
        px = (pts * ppmm - (x0, y0)) * 8
        rad = np.maximum(width * wf * ppmm / 2, 0.5) * 8
        # circles closer than a third of the radius: a smooth line whatever the scale
        keep = np.unique(np.round(s / max(0.3 * width * wf.min() / 2, 0.35 / ppmm)).astype(int), return_index=True)[1]
        canvas = np.zeros(shape, np.uint8)
        for (x, y), r, v in zip(
            np.round(px[keep]).astype(int).tolist(),
            np.round(rad[keep]).astype(int).tolist(),
            np.round(255 * dark[keep]).astype(int).tolist(),
        ):
            cv2.circle(canvas, (x, y), r, v, -1, cv2.LINE_AA, 3)
        c = canvas.astype(np.float32) / 255
        if pen["kind"] in ("ink", "liner"):
            cover += c  # ink over ink: darker
        else:
            cover = 1 - (1 - cover) * (1 - c)
    return cover


def _patch(paper, strokes, ppmm: float, pad_mm: float):
    pts = np.vstack(strokes)
    h, w = paper.shape[:2]
    x0 = max(0, int((pts[:, 0].min() - pad_mm) * ppmm))
    y0 = max(0, int((pts[:, 1].min() - pad_mm) * ppmm))
    x1 = min(w, int((pts[:, 0].max() + pad_mm) * ppmm) + 2)
    y1 = min(h, int((pts[:, 1].max() + pad_mm) * ppmm) + 2)
    return x0, y0, x1, y1


def _lay(paper, x0, y0, d: np.ndarray, absorb) -> None:
    """Lay pigment `d` (times `absorb` per channel) on the paper at (x0, y0): light is absorbed."""
    y1, x1 = y0 + d.shape[0], x0 + d.shape[1]
    part = paper[y0:y1, x0:x1].astype(np.float32)
    part *= np.exp(-d[..., None] * np.asarray(absorb, np.float32)[None, None, :])
    paper[y0:y1, x0:x1] = np.clip(part + 0.5, 0, 255).astype(np.uint8)


def _ink(paper, strokes, pen: dict, pressure: float, ppmm: float, rng, erase: bool = False) -> None:
    """Draw `strokes` (polylines in paper mm) with `pen`; `erase`: then rub them out."""
    if not strokes:
        return
    x0, y0, x1, y1 = _patch(paper, strokes, ppmm, pen["width"] + (5.0 if erase else 2.5))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return
    cover = _strokes_cover(strokes, pen, pressure, ppmm, x0, y0, (y1 - y0, x1 - x0), rng)
    d = _deposit(cover, pen, ppmm, rng)
    if erase:
        d = _erased(d, ppmm, rng, 0.45 if pen["kind"] == "colour" else min(1.0, 1.1 / float(pen["absorb"].mean())))
    _lay(paper, x0, y0, d, pen["absorb"])


def _erased(d: np.ndarray, ppmm: float, rng, keep: float) -> np.ndarray:
    """What an eraser leaves of a mark: a blurred ghost of its strokes, a smear round it
    (`keep` less of a strong pigment: a colour pencil, a soft pencil)."""
    ghost = cv2.GaussianBlur(d, (0, 0), rng.uniform(0.08, 0.3) * ppmm) * rng.uniform(0.07, 0.16) * keep
    ghost *= rng.random(d.shape, np.float32) < rng.uniform(0.6, 0.95)  # rubbed unevenly
    ghost = cv2.GaussianBlur(ghost, (0, 0), 0.6)
    ys, xs = np.nonzero(d > 0.05)
    if len(xs) == 0:
        return ghost
    smear = np.zeros_like(d)
    cx, cy = xs.mean(), ys.mean()
    ax = (xs.max() - xs.min()) / 2 + rng.uniform(0.5, 2) * ppmm
    ay = (ys.max() - ys.min()) / 2 + rng.uniform(0.5, 2) * ppmm
    cv2.ellipse(smear, (int(cx), int(cy)), (int(ax), int(ay)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    streak = cv2.GaussianBlur(rng.standard_normal(d.shape, np.float32), (0, 0), 0.4 * ppmm, sigmaY=0.08 * ppmm)
    smear = cv2.GaussianBlur(smear, (0, 0), 0.8 * ppmm) * (1 + 0.5 * streak / (streak.std() + 1e-6))
    return ghost + np.clip(smear, 0, 2) * rng.uniform(0.012, 0.035) * keep * keep


# ---------------------------------------------------------------- shapes (mm, about the box's centre)


def _clip_line(o: float, angle: float, hx: float, hy: float):
    """The part inside [-hx, hx] x [-hy, hy] of the line at offset `o` across direction `angle`."""
    d = np.array([math.cos(angle), math.sin(angle)])
    n = np.array([-d[1], d[0]])
    base = n * o
    lo, hi = -1e9, 1e9
    for k, half in ((0, hx), (1, hy)):
        if abs(d[k]) < 1e-9:
            if abs(base[k]) > half:
                return None
            continue
        a, b = (-half - base[k]) / d[k], (half - base[k]) / d[k]
        lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    if hi - lo < 0.3:
        return None
    return base + d * lo, base + d * hi


def _lines(hx: float, hy: float, spacing: float, angle: float, rng, zigzag: bool):
    """Parallel lines `spacing` apart filling the rectangle; one back-and-forth stroke if `zigzag`."""
    reach = math.hypot(hx, hy)
    segs = []
    for i, o in enumerate(np.arange(-reach + spacing * rng.uniform(0.2, 0.8), reach, spacing)):
        seg = _clip_line(o + rng.normal(0, 0.08 * spacing), angle + rng.normal(0, 0.03), hx, hy)
        if seg is not None:
            a, b = seg
            segs.append([a, b] if i % 2 == 0 or not zigzag else [b, a])
    if not zigzag:
        return [np.array(s) for s in segs]
    if not segs:
        return []
    return [np.vstack([np.array(s) for s in segs])]


def _loop(rx: float, ry: float, turns: float, rng, wobble: float = 0.06, start=None):
    a0 = rng.uniform(0, 2 * np.pi) if start is None else start
    t = np.linspace(0, 2 * np.pi * turns, max(12, int(36 * turns)))
    r = 1 + wobble * np.sin(2 * t + rng.uniform(0, 6)) + 0.5 * wobble * np.sin(3 * t + rng.uniform(0, 6))
    return np.column_stack([rx * r * np.cos(a0 + t), ry * r * np.sin(a0 + t)])


def _glyph(ch: str, height: float, rng):
    w = height * rng.uniform(0.5, 0.7)
    out = []
    for stroke in GLYPHS[ch]:
        p = np.array(stroke, float) * (w, height) - (w / 2, height / 2)
        out.append(p + rng.normal(0, 0.03 * height, p.shape))
    return out


def _text(text: str, height: float, rng):
    out, x = [], 0.0
    for ch in text:
        g = _glyph(ch, height, rng)
        out += [p + (x, 0) for p in g]
        x += height * rng.uniform(0.62, 0.8)
    shift = np.array([x / 2 - height * 0.35, 0])
    return [p - shift for p in out]


def _rotate(strokes, angle: float):
    c, s = math.cos(angle), math.sin(angle)
    m = np.array([[c, -s], [s, c]])
    return [p @ m.T for p in strokes]


def _box_shape(style: str, w: float, h: float, pen: dict, rng, ring: bool = False):
    """The strokes (mm about the box's centre) of one mark of `style` in a w x h box;
    `ring`: the box is a printed circle round a value (circled round it, not inside)."""
    size = min(w, h)
    u = rng.uniform
    if style in ("tick", "check"):
        s = size * (u(0.42, 0.68) if style == "tick" else u(0.95, 1.4))
        bend = u(-0.07, 0.07)
        p = [(-0.42, u(-0.1, 0.05)), (-0.13, 0.3), (0.15 + bend, -0.12 + bend), (0.5, -0.52)]
        if rng.random() < 0.25:  # a little hook before the tick
            p.insert(0, (-0.5, -0.12))
        p = np.array(p) * s
        if style == "check":  # the long arm overshoots the box's top right
            p += (-0.05 * size, 0.12 * size)
        return [p]
    if style in ("cross", "bigcross"):
        a = size * (u(0.16, 0.3) if style == "cross" else u(0.38, 0.56))
        out = []
        for sx in (1, -1):
            bow = u(-0.08, 0.08) * a
            out.append(np.array([(-a * sx, -a), (bow * sx, bow), (a * sx, a * u(0.85, 1.1))]))
        return out
    if style == "slash":
        a = size * u(0.25, 0.48)
        sign = 1 if rng.random() < 0.75 else -1
        return [np.array([(-a * sign, a), (u(-0.05, 0.05) * a, u(-0.05, 0.05) * a), (a * sign, -a)])]
    if style == "dash":
        a = w * u(0.16, 0.32)
        return _rotate([np.array([(-a, 0), (0, u(-0.05, 0.05) * a), (a, 0)])], u(-0.15, 0.15))
    if style == "dot":
        r = u(0.35, 0.7)
        t = np.linspace(0, 2 * np.pi * u(1.5, 2.5), 30)
        rr = r * (1 - 0.85 * t / t[-1])
        return [np.column_stack([rr * np.cos(t), rr * np.sin(t)])]
    if style == "hatch":
        return _lines(
            0.36 * w, 0.36 * h, size * u(0.14, 0.24), u(0.6, 1.0) * rng.choice([-1, 1]), rng, rng.random() < 0.5
        )
    if style == "fill":
        out = _lines(0.36 * w, 0.36 * h, max(pen["width"] * u(1.2, 2.4), 0.45), u(0, np.pi), rng, True)
        if rng.random() < 0.3:
            out += _lines(0.34 * w, 0.34 * h, max(pen["width"] * u(1.5, 3), 0.6), u(0, np.pi), rng, True)
        return out
    if style == "circle":
        lo, hi = (0.36, 0.52) if ring else (0.24, 0.42)
        return [_loop(w * u(lo, hi), h * u(lo, hi), u(1.02, 1.25), rng)]
    return _glyph(str(rng.choice(list(LETTERS))), h * u(0.5, 0.78), rng)


def _cell_shape(style: str, letter: str, w: float, h: float, pen: dict, rng):
    """(strokes of the colour, strokes of a green leaf or stem) for a garden cell."""
    u = rng.uniform
    wide = max(pen["width"], 0.5)
    if style == "colour-in":
        f = u(0.3, 0.42)
        out = _lines(f * w, f * h, wide * u(0.45, 1.0), u(0, np.pi), rng, True)
        if rng.random() < 0.35:
            out += _lines(f * w, f * h, wide * u(0.8, 1.5), u(0, np.pi), rng, True)
        return out, []
    if style == "hatch":
        return _lines(u(0.3, 0.42) * w, u(0.3, 0.42) * h, u(1.1, 2.0), u(0, np.pi), rng, rng.random() < 0.5), []
    if style == "blob":
        r = u(0.22, 0.36) * min(w, h)
        n = int(u(4, 8))
        return [_loop(r * (1 - i / (n + 1)), r * (1 - i / (n + 1)) * u(0.8, 1.1), 1.0, rng, 0.12) for i in range(n)], []
    size = min(w, h) * u(0.55, 0.8)
    leaf = []
    if letter == "C":  # a carrot: a long triangle, leaves on top
        outline = np.array([(-0.22, -0.45), (0.22, -0.45), (0.03, 0.48), (-0.22, -0.45)]) * size
        ys = np.arange(-0.42 * size, 0.4 * size, u(0.8, 1.4))
        half = 0.2 * size * (0.48 - ys / size) / 0.93
        sides = np.where(np.arange(len(ys)) % 2 == 0, 1.0, -1.0) * half
        inside = [np.column_stack([np.column_stack([-sides, sides]).ravel(), np.repeat(ys, 2)])]
        if rng.random() < 0.3:
            leaf = [np.array([(0, -0.45), (d * 0.12, -0.62)]) * size for d in (-1, 0, 1)]
    else:  # a salad (wavy) or a tomato (round, a stem)
        outline = _loop(0.42 * size, 0.4 * size, 1.05, rng, 0.12 if letter == "S" else 0.04)
        inside = _lines(0.28 * size, 0.26 * size, u(0.7, 1.4), u(0, np.pi), rng, True)
        if letter == "T" and rng.random() < 0.3:
            leaf = [np.array([(0, -0.38), (0.03, -0.55), (0.12, -0.6)]) * size]
    inside = [p for p in inside if len(p) > 1]
    strokes = [outline] + ([] if style == "outline" else inside)
    turn = u(-0.7, 0.7) if letter == "C" else 0.0
    return _rotate(strokes, turn), _rotate(leaf, turn)


def _place(strokes, cx: float, cy: float, angle: float, shift=(0.0, 0.0)):
    """Strokes about a box's centre moved onto the paper (mm), turned by `angle` and shifted."""
    out = _rotate(strokes, angle)
    return [p + (cx + shift[0], cy + shift[1]) for p in out]


def _stray_shift(strokes, w: float, h: float, rng):
    """A shift that takes the mark up to 2 mm over one side of its box (its middle well inside)."""
    pts = np.vstack(strokes)
    side = int(rng.integers(4))
    axis, sign = side % 2, (1 if side < 2 else -1)
    half = (w, h)[axis] / 2
    reach = float((pts[:, axis] * sign).max())
    move = min(half + rng.uniform(0.8, 2.0) - reach, 0.25 * (w, h)[axis])
    shift = [0.0, 0.0]
    shift[axis] = sign * max(move, 0.0)
    return shift


def _cursive(length: float, height: float, rng):
    n = max(3, int(length / (height * 0.45)))
    t = np.linspace(0, n, n * 16)
    tall = np.repeat(rng.choice([0.5, 0.5, 1.0, 1.4], n), 16)[: len(t)]
    x = t * length / n - 0.3 * (length / n) * np.sin(2 * np.pi * t)
    y = -0.5 * height * tall * (1 - np.cos(2 * np.pi * t)) / 2
    return [np.column_stack([x - length / 2, y + height * 0.3])]


# ---------------------------------------------------------------- the page's marks


def _player(field: str) -> int:
    m = re.search(r"_p(\d+)(?:_|$)", field)
    return int(m.group(1)) if m else 1


def _free_spots(paper, boxes, ppmm: float, origin_mm):
    """A mask (1 px a mm) of the paper away from print and boxes, for doodles."""
    gray = cv2.cvtColor(paper, cv2.COLOR_RGB2GRAY)
    hmm, wmm = int(paper.shape[0] / ppmm), int(paper.shape[1] / ppmm)
    small = cv2.resize(cv2.erode(gray, np.ones((3, 3), np.uint8)), (wmm, hmm), interpolation=cv2.INTER_AREA)
    busy = (small < 246).astype(np.uint8)
    for b in boxes:
        x, y = int(origin_mm[0] + b.x), int(origin_mm[1] + b.y)
        busy[max(0, y) : y + int(b.h) + 2, max(0, x) : x + int(b.w) + 2] = 1
    busy = cv2.dilate(busy, np.ones((9, 9), np.uint8))
    busy[:8], busy[-8:], busy[:, :8], busy[:, -8:] = 1, 1, 1, 1
    return busy == 0


def _doodle(paper, free, pen: dict, ppmm: float, rng) -> str:
    """A doodle or a graphite smudge in a free margin; its name, or '' if there is no room."""
    kind = str(rng.choice(["spiral", "tally", "sum", "star", "arrow", "wave", "smudge", "smudge"]))
    w, h = (rng.uniform(8, 20), rng.uniform(5, 12)) if kind != "spiral" else (rng.uniform(6, 12),) * 2
    room = cv2.erode(free.astype(np.uint8), np.ones((int(h) + 2, int(w) + 2), np.uint8))
    ys, xs = np.nonzero(room)
    if len(xs) == 0:
        return ""
    i = int(rng.integers(len(xs)))
    cx, cy = float(xs[i]), float(ys[i])
    u = rng.uniform
    if kind == "smudge":
        x0, y0 = int((cx - w / 2) * ppmm), int((cy - h / 2) * ppmm)
        shape = (int(h * ppmm), int(w * ppmm))
        blob = np.zeros(shape, np.float32)
        cv2.ellipse(blob, (shape[1] // 2, shape[0] // 2), (shape[1] // 3, shape[0] // 3), u(0, 180), 0, 360, 1.0, -1)
        streak = cv2.GaussianBlur(rng.standard_normal(shape, np.float32), (0, 0), 1.2 * ppmm, sigmaY=0.15 * ppmm)
        blob = cv2.GaussianBlur(blob, (0, 0), 1.5 * ppmm) * np.clip(1 + 0.8 * streak / (streak.std() + 1e-6), 0, 3)
        _lay(paper, x0, y0, blob * u(0.05, 0.16), GRAPHITE)
        return kind
    if kind == "spiral":
        t = np.linspace(0, 2 * np.pi * u(2, 3.5), 120)
        r = w / 2 * t / t[-1]
        strokes = [np.column_stack([r * np.cos(t), r * np.sin(t)])]
    elif kind == "tally":
        n = int(rng.integers(2, 6))
        strokes = [np.array([(i * 1.6 - 3, -h / 3), (i * 1.6 - 3 + u(-0.3, 0.3), h / 3)]) for i in range(min(n, 4))]
        if n == 5:
            strokes.append(np.array([(-4, h / 4), (3.5, -h / 4)]))
    elif kind == "sum":
        strokes = _text(f"{rng.integers(1, 40)}+{rng.integers(1, 20)}", h * 0.8, rng)
    elif kind == "star":
        a = np.linspace(-np.pi / 2, -np.pi / 2 + 4 * np.pi, 6)
        strokes = [np.column_stack([np.cos(a), np.sin(a)]) * h / 2]
    elif kind == "arrow":
        strokes = [
            np.array([(-w / 2, 0), (0, u(-1, 1)), (w / 2, 0)]),
            np.array([(w / 2 - 2, -1.5), (w / 2, 0), (w / 2 - 2, 1.5)]),
        ]
    else:
        x = np.linspace(-w / 2, w / 2, 60)
        strokes = [np.column_stack([x, h / 4 * np.sin(x * u(0.6, 1.2))])]
    _ink(paper, [p + (cx, cy) for p in strokes], pen, u(0.6, 1.0), ppmm, rng)
    return kind


def _mark_page(paper, boxes, cells: set, ppmm: float, origin_mm, rng):
    """Mark the page; (truth, kinds) of every box read."""
    u = rng.uniform
    share = u(0.15, 0.6)
    people = {}
    for b in boxes:
        p = _player(b.field)
        if p not in people:
            main = _weighted(rng, PEN_WEIGHTS)
            people[p] = dict(
                pen=main,
                style=_weighted(rng, STYLES),
                cell=_weighted(rng, CELL_STYLES),
                hue={k: int(rng.integers(len(v[1]))) for k, v in COLOURS.items()},
                pressure=u(0.75, 1.05),
                pens={},
            )

    def pen_of(person, name, rgb=None):
        key = (name, rgb)
        if key not in person["pens"]:  # the same pen for a player's marks: one width, one ink
            person["pens"][key] = _pen(name, rng, rgb)
        return person["pens"][key]

    truth, kinds = {}, {}
    for b in boxes:
        if b.kind == "write" and b.field not in cells:
            continue
        person = people[_player(b.field)]
        cx, cy = origin_mm[0] + b.x + b.w / 2, origin_mm[1] + b.y + b.h / 2
        cell = b.field in cells
        marked = rng.random() < share
        if not marked:
            truth[b.field] = "" if cell else False
            kinds[b.field] = "none/empty"
            if rng.random() < 0.06:  # a mistake, rubbed out
                if cell:
                    letter = str(rng.choice(list(COLOURS)))
                    name, hues = COLOURS[letter]
                    pen = pen_of(person, name, hues[person["hue"][letter]])
                    strokes, _ = _cell_shape(_weighted(rng, CELL_STYLES), letter, b.w, b.h, pen, rng)
                else:
                    name = person["pen"] if PENS[person["pen"]]["kind"] == "graphite" else "hb-pencil"
                    pen = pen_of(person, name)
                    table = RING_STYLES if b.kind == "round" else STYLES
                    strokes = _box_shape(_weighted(rng, table), b.w, b.h, pen, rng, b.kind == "round")
                _ink(
                    paper, _place(strokes, cx, cy, rng.normal(0, 0.08)), pen, person["pressure"], ppmm, rng, erase=True
                )
                kinds[b.field] = "erased/erased"
            continue
        extra = []
        pressure = person["pressure"] * u(0.9, 1.1)
        if cell:
            letter = str(rng.choice(list(COLOURS)))
            truth[b.field] = letter
            name, hues = COLOURS[letter]
            hue = person["hue"][letter] if rng.random() < 0.8 else int(rng.integers(len(hues)))
            pen = pen_of(person, name, hues[hue])
            style = person["cell"] if rng.random() < 0.8 else _weighted(rng, CELL_STYLES)
            strokes, leaf = _cell_shape(style, letter, b.w, b.h, pen, rng)
            if rng.random() < 0.12:  # light, still plain to see
                pressure = u(0.45, 0.6)
                extra.append("+light")
        else:
            truth[b.field] = True
            name = person["pen"] if rng.random() < 0.8 else _weighted(rng, PEN_WEIGHTS)
            pen = pen_of(person, name)
            style = person["style"] if rng.random() < 0.8 else _weighted(rng, STYLES)
            if b.kind == "round" and style not in RING_STYLES:
                style = _weighted(rng, RING_STYLES)
            strokes, leaf = _box_shape(style, b.w, b.h, pen, rng, b.kind == "round"), []
            if style == "dot":  # a dot is pressed
                pressure = max(pressure, u(0.95, 1.1))
            elif pen["kind"] == "graphite" and rng.random() < 0.08:  # light, still plain to see
                pressure = u(0.5, 0.62)
                extra.append("+light")
        off = 0.04 if cell else 0.06
        shift = (u(-off, off) * b.w, u(-off, off) * b.h)
        if rng.random() < 0.05:
            shift = _stray_shift(strokes, b.w, b.h, rng)
            extra.append("+stray")
        turn = rng.normal(0, 0.08)
        _ink(paper, _place(strokes, cx, cy, turn, shift), pen, pressure, ppmm, rng)
        if leaf:
            green = pen_of(person, "green-pencil", LEAF[int(rng.integers(len(LEAF)))])
            _ink(paper, _place(leaf, cx, cy, turn, shift), green, pressure, ppmm, rng)
            extra.append("+leaf")
        kinds[b.field] = " ".join([f"{pen['name']}/{style}", *extra])

    # numbers and names in the write boxes (not read), doodles and smudges in the margins
    for b in boxes:
        if b.kind != "write" or b.field in cells or rng.random() < 0.35:
            continue
        person = people[_player(b.field)]
        pen = pen_of(person, person["pen"])
        cx, cy = origin_mm[0] + b.x + b.w / 2, origin_mm[1] + b.y + b.h / 2
        height = min(b.h * u(0.5, 0.72), 7.0)
        if re.search(r"name|player", b.field):
            strokes = _cursive(min(b.w * u(0.3, 0.7), 40), height * 0.8, rng)
        else:
            strokes = _text(str(rng.integers(0, 10 ** int(rng.integers(1, 3)))), height, rng)
        pts = np.vstack(strokes)
        room = np.array([b.w / 2, b.h / 2]) - np.abs(pts).max(axis=0) - 0.8
        shift = [u(-r, r) if r > 0 else 0.0 for r in room]
        _ink(paper, _place(strokes, cx, cy, rng.normal(0, 0.05), shift), pen, person["pressure"], ppmm, rng)
    doodles = []
    if rng.random() < 0.5:
        free = _free_spots(paper, boxes, ppmm, origin_mm)
        person = people[min(people)]
        for _ in range(int(rng.integers(1, 4))):
            name = person["pen"] if rng.random() < 0.6 else str(rng.choice(["hb-pencil", "2b-pencil"]))
            done = _doodle(paper, free, pen_of(person, name), ppmm, rng)
            if done:
                doodles.append(done)
    return truth, kinds, doodles


# ---------------------------------------------------------------- the camera


def _noise_field(shape, cell: float, rng) -> np.ndarray:
    """Smooth noise (about unit spread) varying over `cell` pixels."""
    h, w = shape
    sh, sw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    n = rng.standard_normal((sh, sw)).astype(np.float32)
    n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
    return n / (n.std() + 1e-6)


def _table(shape, rng):
    """A table or other background under the paper (RGB 0-255 float); its name."""
    h, w = shape
    kind = str(rng.choice(["wood", "wood", "desk", "dark", "cloth", "stone", "white"]))
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array([(150, 100, 60), (190, 150, 100), (110, 70, 45), (200, 170, 130)][int(rng.integers(4))])
        across = y if rng.random() < 0.5 else x
        warp = _noise_field(shape, w / 4, rng)
        rings = np.sin(2 * np.pi * (across / rng.uniform(0.02, 0.06) / w + 0.6 * warp))
        sx, sy = (6, 0.6) if across is y else (0.6, 6)
        streaks = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), sigmaX=sx, sigmaY=sy)
        tone = 1 + 0.08 * rings + 0.35 * streaks / (streaks.std() + 1e-6) * 0.15
    elif kind == "cloth":
        base = np.array([(200, 60, 60), (60, 90, 150), (220, 210, 190), (90, 130, 90)][int(rng.integers(4))])
        f = rng.uniform(0.8, 2.0)
        tone = 1 + 0.06 * np.sin(x * f) * np.sin(y * f) + 0.05 * _noise_field(shape, w / 6, rng)
        if rng.random() < 0.5:  # a checked tablecloth
            sq = rng.uniform(0.06, 0.12) * w
            tone *= np.where(((x // sq + y // sq) % 2) == 0, 1.0, 0.55)
    elif kind == "stone":
        base = np.array([(150, 150, 145), (190, 180, 170), (90, 90, 95)][int(rng.integers(3))])
        tone = 1 + 0.07 * _noise_field(shape, w / 10, rng) + 0.08 * rng.standard_normal(shape).astype(np.float32)
    else:
        base = {
            "desk": np.array([(170, 175, 180), (120, 130, 140), (210, 200, 185)][int(rng.integers(3))]),
            "dark": np.array([(40, 40, 45), (55, 45, 40), (30, 35, 50)][int(rng.integers(3))]),
            "white": np.array([(225, 225, 222), (235, 232, 228)][int(rng.integers(2))]),
        }[kind]
        tone = 1 + 0.04 * _noise_field(shape, w / 3, rng)
    return np.clip(tone[..., None] * base[None, None, :].astype(np.float32), 0, 255), kind


def _plan(rng) -> dict:
    """What the camera will do, chosen before the page is drawn (the drawing's dpi follows it)."""
    if rng.random() < 0.1:
        dpi = float(rng.choice([150, 200, 240, 300]) if rng.random() < 0.6 else rng.uniform(150, 300))
        return dict(flatbed=True, dpi=dpi, render=dpi)
    dpi = float(np.exp(rng.uniform(np.log(100), np.log(300))))
    return dict(flatbed=False, dpi=dpi, render=float(np.clip(dpi * 1.15, 170, 320)))


def _homography(Wp, Hp, R, plan, rng, desc):
    """The paper -> frame homography, the frame size and the effective dpi."""
    wmm, hmm = Wp * 25.4 / R, Hp * 25.4 / R
    corners_mm = np.array([(-wmm / 2, -hmm / 2), (wmm / 2, -hmm / 2), (wmm / 2, hmm / 2), (-wmm / 2, hmm / 2)])
    dpi = plan["dpi"]
    if plan["flatbed"]:
        theta = math.radians(rng.uniform(-3, 3))
        c, s = math.cos(theta), math.sin(theta)
        dst = corners_mm @ np.array([[c, -s], [s, c]]).T * dpi / 25.4
        desc.append(f"flatbed {dpi:.0f}dpi rot {math.degrees(theta):.1f}°")
        margins = rng.uniform(1, 6, 4) * dpi / 25.4
    else:
        r = rng.random()
        if r < 0.5:
            theta = rng.normal(0, 4)
        elif r < 0.75:
            theta = float(rng.choice([90, 180, 270])) + rng.normal(0, 4)
        else:
            theta = rng.uniform(0, 360)
        tilt = 20 * math.sqrt(rng.random())
        psi = rng.uniform(0, 2 * np.pi)
        ax, ay = math.radians(tilt * math.cos(psi)), math.radians(tilt * math.sin(psi))
        z = rng.uniform(230, 450)
        f = dpi / 25.4 * z
        t = math.radians(theta)
        rz = np.array([[math.cos(t), -math.sin(t), 0], [math.sin(t), math.cos(t), 0], [0, 0, 1]])
        rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
        ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
        p3 = np.column_stack([corners_mm, np.zeros(4)]) @ (rx @ ry @ rz).T + (rng.normal(0, 10), rng.normal(0, 10), z)
        dst = f * p3[:, :2] / p3[:, 2:3]
        desc.append(f"phone rot {theta % 360:.0f}° tilt {tilt:.1f}° dist {z:.0f}mm")
        margins = rng.uniform(0.02, 0.12, 4) * np.ptp(dst, axis=0).max()
    lo = dst.min(axis=0)
    dst = dst - lo + (margins[0], margins[1])
    W = np.ptp(dst, axis=0)[0] + margins[0] + margins[2]
    H = np.ptp(dst, axis=0)[1] + margins[1] + margins[3]
    if not plan["flatbed"]:  # a 4:3 frame
        if H >= W:
            grow = (max(W, H * 0.75) - W, max(H, W * 4 / 3) - H)
        else:
            grow = (max(W, H * 4 / 3) - W, max(H, W * 0.75) - H)
        part = rng.uniform(0.2, 0.8, 2)
        dst += (grow[0] * part[0], grow[1] * part[1])
        W, H = W + grow[0], H + grow[1]
        cap = min(1.0, math.sqrt(12.2e6 / (W * H)), 4032 / max(W, H))
        dst, W, H, dpi = dst * cap, W * cap, H * cap, dpi * cap
    src = np.array([(0, 0), (Wp, 0), (Wp, Hp), (0, Hp)], np.float32)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32)), int(math.ceil(W)), int(math.ceil(H)), dpi


def _shoot(paper, R: float, plan: dict, rng):
    """The photo (RGB uint8) of the marked paper, and a line saying what the camera did."""
    u = rng.uniform
    desc = []
    Hp, Wp = paper.shape[:2]
    flat = plan["flatbed"]
    hom, W, H, dpi = _homography(Wp, Hp, R, plan, rng, desc)
    desc.append(f"{W}x{H} {dpi:.0f}dpi")

    # where each frame pixel looks on the paper: on a coarse grid, then interpolated
    step = 4
    gw, gh = -(-W // step), -(-H // step)
    gx, gy = np.meshgrid((np.arange(gw) + 0.5) * step - 0.5, (np.arange(gh) + 0.5) * step - 0.5)
    cx, cy = W / 2 * (1 + u(-0.03, 0.03)), H / 2 * (1 + u(-0.03, 0.03))
    if not flat and rng.random() < 0.8:
        k = u(0.005, 0.05)
        r2 = ((gx - cx) ** 2 + (gy - cy) ** 2) / (W**2 + H**2) * 4
        gx, gy = cx + (gx - cx) * (1 + k * r2), cy + (gy - cy) * (1 + k * r2)
        desc.append(f"barrel {k:.3f}")
    inv = np.linalg.inv(hom)
    zz = inv[2, 0] * gx + inv[2, 1] * gy + inv[2, 2]
    px = (inv[0, 0] * gx + inv[0, 1] * gy + inv[0, 2]) / zz
    py = (inv[1, 0] * gx + inv[1, 1] * gy + inv[1, 2]) / zz
    shade = np.ones_like(px)  # the paper's own shading (curl, fold), multiplied into the light
    ppmm = R / 25.4
    if not flat and rng.random() < 0.2:  # an edge curls up: seen foreshortened, lit differently
        edge = int(rng.integers(4))
        length, phi = u(15, 35) * ppmm, math.radians(u(15, 35))
        radius = length / phi
        coord, size = (px, Wp) if edge % 2 == 0 else (py, Hp)
        a = (coord - (size - length)) if edge < 2 else (length - coord)
        bent = a > 0
        ang = np.arcsin(np.clip(a / radius, -1, 1))
        true = np.where(a >= radius, 1e6, (size - length) + radius * ang if edge < 2 else length - radius * ang)
        coord[bent] = true[bent]
        light = u(-0.3, 0.15)
        shade = np.where(bent, 1 + light * np.sin(np.clip(ang, 0, None)), shade)
        desc.append(f"curl {'right bottom left top'.split()[edge]} {length / ppmm:.0f}mm {math.degrees(phi):.0f}°")
    fold = None
    if not flat and rng.random() < 0.15:  # a fold: the halves shifted and tilted a little
        horizontal = rng.random() < 0.75
        at = (Hp if horizontal else Wp) * float(rng.choice([0.5, 1 / 3, 2 / 3]))
        tilt = math.radians(u(-1.5, 1.5))
        nrm = (math.sin(tilt), math.cos(tilt)) if horizontal else (math.cos(tilt), math.sin(tilt))
        dist = px * nrm[0] + py * nrm[1] - at
        kink = u(0.1, 0.4) * ppmm
        px, py = px + nrm[0] * kink * np.tanh(dist / (1.5 * ppmm)), py + nrm[1] * kink * np.tanh(dist / (1.5 * ppmm))
        shade = shade * (1 + u(0.03, 0.08) * rng.choice([-1, 1]) * np.tanh(dist / (u(3, 10) * ppmm)))
        fold = (nrm, at, u(0.25, 0.6) * ppmm, u(-0.08, 0.14))
        desc.append(f"fold {'across' if horizontal else 'down'} at {at / Hp if horizontal else at / Wp:.2f}")
    inside = ((px >= 0) & (px < Wp) & (py >= 0) & (py < Hp)).astype(np.float32)

    # fewer paper pixels first if the frame sees the paper much smaller
    q = min(1.0, 1.25 * dpi / R)
    if q < 0.9:
        paper = cv2.resize(paper, (round(Wp * q), round(Hp * q)), interpolation=cv2.INTER_AREA)
        qx, qy = paper.shape[1] / Wp, paper.shape[0] / Hp
        px, py = (px + 0.5) * qx - 0.5, (py + 0.5) * qy - 0.5
    full = (gw * step, gh * step)
    mapx = cv2.resize(px.astype(np.float32), full, interpolation=cv2.INTER_LINEAR)[:H, :W]
    mapy = cv2.resize(py.astype(np.float32), full, interpolation=cv2.INTER_LINEAR)[:H, :W]
    # the table, the paper's shadow on it, the paper laid over them
    if flat:
        bg = np.full((gh, gw, 3), u(232, 250), np.float32) * (1 + 0.01 * _noise_field((gh, gw), 20, rng))[..., None]
        bgname, drop = "lid", (u(0.3, 1.0), u(0.1, 0.3))
    else:
        bg, bgname = _table((gh, gw), rng)
        drop = (u(1, 6), u(0.15, 0.45))
    sigma = drop[0] * dpi / 25.4 / step
    off = rng.normal(0, sigma, 2)
    cast = cv2.GaussianBlur(
        cv2.warpAffine(inside, np.float32([[1, 0, off[0]], [0, 1, off[1]]]), (gw, gh)), (0, 0), max(sigma, 0.5)
    )
    bg *= (1 - drop[1] * cast)[..., None]
    img = cv2.resize(np.clip(bg + 0.5, 0, 255).astype(np.uint8), full, interpolation=cv2.INTER_LINEAR)[:H, :W].copy()
    cv2.remap(paper, mapx, mapy, cv2.INTER_LINEAR, dst=img, borderMode=cv2.BORDER_TRANSPARENT)
    desc.append(f"on {bgname}")

    # light: gradient, vignetting, a soft shadow, a hot spot, the paper's shading
    ly, lx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    lx, ly = lx / gw, ly / gh
    light = shade.astype(np.float32)
    ang = u(0, 2 * np.pi)
    ramp = (lx - 0.5) * math.cos(ang) + (ly - 0.5) * math.sin(ang)
    grad = u(0, 0.05) if flat else u(0, 0.45)
    light *= 1 + grad * ramp
    parts = [f"grad {grad:.2f}"]
    if not flat:
        vig = u(0.05, 0.45)
        light *= 1 - vig * (((lx - 0.5) ** 2 + (ly - 0.5) ** 2) * 2)
        parts.append(f"vignette {vig:.2f}")
        if rng.random() < 0.35:  # a phone's or a hand's soft shadow coming in from one side
            sh = np.zeros((gh, gw), np.float32)
            side = int(rng.integers(4))
            ex = [u(0.1, 0.9), 1.1, u(0.1, 0.9), -0.1][side] * gw
            ey = [-0.1, u(0.1, 0.9), 1.1, u(0.1, 0.9)][side] * gh
            axes = (int(u(0.15, 0.4) * gw), int(u(0.15, 0.4) * gh))
            cv2.ellipse(sh, (int(ex), int(ey)), axes, u(0, 180), 0, 360, 1.0, -1)
            depth = u(0.2, 0.45)
            light *= 1 - depth * cv2.GaussianBlur(sh, (0, 0), u(0.04, 0.1) * max(gw, gh))
            parts.append(f"shadow {depth:.2f}")
        if rng.random() < 0.15:
            hot = u(0.1, 0.3)
            bx, by, br = u(0.2, 0.8), u(0.2, 0.8), u(0.1, 0.3)
            light *= 1 + hot * np.exp(-((lx - bx) ** 2 + (ly - by) ** 2) / (2 * br**2))
            parts.append(f"hot spot {hot:.2f}")
    desc.append(" ".join(parts))
    light = cv2.resize(light, full, interpolation=cv2.INTER_LINEAR)[:H, :W]
    if fold is not None:  # the crease's own line: a dark or bright hair across the sheet
        nrm, at, width, depth = fold
        qq = q if q < 0.9 else 1.0
        near = np.abs(mapx * nrm[0] + mapy * nrm[1] - at * qq) < 4 * width * qq
        rows = np.nonzero(near.any(axis=1))[0]
        if len(rows):
            a, b = rows[0], rows[-1] + 1
            dist = mapx[a:b] * nrm[0] + mapy[a:b] * nrm[1] - at * qq
            light[a:b] *= 1 - depth * np.exp(-((dist / (width * qq)) ** 2))

    # the illuminant's colour (partly undone by the white balance) and the exposure
    if flat:
        illum, wb, ev, name = np.array([u(0.97, 1.03), 1.0, u(0.97, 1.03)]), 1.0, u(-0.15, 0.25), "scanner lamp"
    else:
        name, illum = [
            ("daylight", (1.0, 1.0, 1.0)),
            ("tungsten", (1.0, 0.78, 0.52)),
            ("warm led", (1.0, 0.9, 0.74)),
            ("shade", (0.86, 0.96, 1.12)),
            ("fluorescent", (0.95, 1.05, 0.86)),
        ][int(rng.integers(5))]
        illum, wb, ev = np.array(illum) * u(0.95, 1.05, 3), u(0.4, 1.0), u(-1.2, 0.7)
    gain = (1 / illum) ** wb
    gain /= gain[1]
    total = illum * gain * 0.82 * 2**ev
    desc.append(f"{name} cast, balance {wb:.2f}, ev {ev:+.2f}")

    # the optics' blur (in linear light)
    r = rng.random()
    kernel = None
    if flat or r < 0.3:
        s = u(0.3, 0.8) if flat else u(0.4, 1.2)
        n = int(math.ceil(3 * s)) * 2 + 1
        g = cv2.getGaussianKernel(n, s, cv2.CV_32F)
        kernel = g @ g.T
        desc.append(f"blur {s:.1f}px")
    elif r < 0.55:
        rad = max(0.7, u(1.0, 2.5) * float(np.clip(dpi / 220, 0.5, 1.2)))  # (a small frame: a smaller blur)
        n = int(math.ceil(rad)) * 2 + 1
        yy, xx = np.mgrid[:n, :n] - n // 2
        kernel = np.clip(rad + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
        desc.append(f"defocus {rad:.1f}px")
    elif r < 0.7:
        length, a = max(1.5, u(2, 7) * float(np.clip(dpi / 220, 0.5, 1.2))), u(0, np.pi)
        n = int(math.ceil(length)) | 1
        kernel = np.zeros((n, n), np.float32)
        c0, dx, dy = n // 2, math.cos(a) * (length - 1) / 2, math.sin(a) * (length - 1) / 2
        ends = [(round((c0 - dx) * 8), round((c0 - dy) * 8)), (round((c0 + dx) * 8), round((c0 + dy) * 8))]
        cv2.line(kernel, ends[0], ends[1], 1.0, 1, cv2.LINE_AA, 3)
        desc.append(f"motion {length:.1f}px")
    else:
        desc.append("sharp lens")
    if kernel is not None:
        kernel = kernel / kernel.sum()

    # the sensor: shot noise (grows with the light), read noise, chroma blotches
    iso = u(0.3, 0.7) if flat else u(1, 3) * 2 ** (-min(ev, 0) * 0.7)
    shot, read = 0.0006 * iso, (0.0025 * iso) ** 2
    desc.append(f"iso {iso:.1f}")
    # the phone's tone curve (a soft shoulder): raw values up to 1.3 gamma-coded on 8 bits, then a table
    x = (np.arange(256, dtype=np.float32) / 255) ** 2.2 * 1.3
    knee = np.where(x < 0.8, x, 0.8 + 0.2 * np.tanh((x - 0.8) / 0.2))
    y = np.clip(knee, 0, 1) ** (1 / 2.2)
    s_curve = 0 if flat else u(0, 0.35)
    y = (1 - s_curve) * y + s_curve * y * y * (3 - 2 * y)
    tone = np.clip(y * 255 + 0.5, 0, 255).astype(np.uint8)

    # develop in strips of rows (the float work stays in the cache)
    out = np.empty_like(img)
    pad = 0 if kernel is None else kernel.shape[0] // 2 + 1
    band = 64
    for r0 in range(0, H, band):
        r1 = min(H, r0 + band)
        a0, a1 = max(0, r0 - pad), min(H, r1 + pad)
        lin = cv2.LUT(img[a0:a1], _LIN)
        li = light[a0:a1]
        lin = cv2.multiply(lin, cv2.merge([li * float(t) for t in total]))
        if kernel is not None:
            lin = cv2.filter2D(lin, -1, kernel, borderType=cv2.BORDER_REFLECT)
        lin = lin[r0 - a0 : r1 - a0]
        luma = cv2.cvtColor(lin, cv2.COLOR_RGB2GRAY)
        sig = cv2.sqrt(cv2.max(luma, 0.0) * shot + read)
        noise = rng.standard_normal((r1 - r0, W), np.float32)
        chroma = rng.standard_normal(((r1 - r0 + 1) // 2, (W + 1) // 2, 3), np.float32)
        chroma = cv2.resize(chroma, (chroma.shape[1] * 2, chroma.shape[0] * 2))[: r1 - r0, :W]
        grain = cv2.addWeighted(cv2.merge([noise, noise, noise]), 0.8, chroma, 0.6, 0)
        lin = cv2.add(lin, cv2.multiply(grain, cv2.merge([sig, sig, sig])))
        coded = cv2.pow(cv2.max(lin, 0.0) * (1 / 1.3), 1 / 2.2)
        out[r0:r1] = cv2.LUT(cv2.convertScaleAbs(coded, alpha=255), tone)
    del img, light
    if not flat and rng.random() < 0.5:
        ycc = cv2.cvtColor(out, cv2.COLOR_RGB2YCrCb)
        ycc[..., 1:] = cv2.GaussianBlur(ycc[..., 1:], (0, 0), u(1, 2.5))
        if rng.random() < 0.4:
            ycc[..., 0] = cv2.GaussianBlur(ycc[..., 0], (0, 0), u(0.4, 0.7))
        out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB)
        desc.append("denoise")
    if rng.random() < (0.3 if flat else 0.5):
        amount, s = u(0.2, 0.6) if flat else u(0.3, 1.5), u(0.7, 2.0)
        out = cv2.addWeighted(out, 1 + amount, cv2.GaussianBlur(out, (0, 0), s), -amount, 0)
        desc.append(f"sharpen {amount:.1f}/{s:.1f}")
    messaging = not flat and rng.random() < 0.3
    if messaging and max(W, H) > 1600 and dpi > 100:  # a messaging app: long side 1600 (not under 100 dpi)
        f = max(1600 / max(W, H), 100 / dpi)
        out = cv2.resize(out, (round(W * f), round(H * f)), interpolation=cv2.INTER_AREA)
        desc.append(f"app resize {out.shape[1]}x{out.shape[0]} ({dpi * f:.0f}dpi)")
    quality = int(u(75, 95) if flat else (u(40, 80) if messaging else u(60, 95)))
    sub = 2 if rng.random() < 0.6 else 0
    buf = io.BytesIO()
    Image.fromarray(out).save(buf, format="JPEG", quality=quality, subsampling=sub)
    desc.append(f"jpeg q{quality} {'4:2:0' if sub else '4:4:4'}")
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")), ", ".join(desc)


# ---------------------------------------------------------------- the photo


def photo(layout, page_id: str, rng):
    """(RGB photo, truth, kinds) of one played page; see the module's docstring."""
    plan = _plan(rng)
    R = plan["render"]
    lang = "fr" if rng.random() < 0.4 else "en"
    low, high = layout.players["min"], layout.players["max"]
    players = int(rng.integers(low, high + 1)) if low < high else None
    paper, display, origin = blank_paper(layout, page_id, R, lang, players)
    # the printer's toner and the paper's tint
    toner, tint = rng.uniform(0.88, 1.04), rng.uniform(0.94, 1.0, 3) * (1, 1, rng.uniform(0.96, 1.01))
    v = np.arange(256, dtype=np.float32)
    lut = np.stack([np.clip((255 - (255 - v) * toner) * t, 0, 255) for t in tint], axis=1)
    paper = cv2.LUT(paper, lut.reshape(256, 1, 3).astype(np.uint8))
    ppmm = R / 25.4
    origin_mm = (origin[0] / ppmm, origin[1] / ppmm)
    boxes = display.boxes()
    truth, kinds, doodles = _mark_page(paper, boxes, grid_cells(layout, page_id), ppmm, origin_mm, rng)
    img, desc = _shoot(paper, R, plan, rng)
    extra = f", {lang}" + (f", {players} players" if players else "")
    extra += f", toner {toner:.2f}" + (f", margin: {' '.join(doodles)}" if doodles else "")
    kinds["_photo"] = desc + extra
    return img, truth, kinds
