"""Worn prints and handled paper, through a phone, a document-scanner app or a sheet feeder.

Written apart from the reader's tuning, from the feature's specification and from how phones,
printers, scanners and players treat paper. The page is rendered by poppler at 300 dpi and
printed: a laser print, a low-toner one (faded grey blacks, white streaks down the page,
mottled toner) or an inkjet one (banding at the head's pass, a clogged nozzle's light line,
bled ink, a tinted black); 30% "fit to page" (95-97%, the boxes and the markers scaled with
it), a slightly skewed and offset feed. The back side's print shows through, mirrored
(another page of the layout, or the same page; played too, sometimes), faintly, or strongly
when the sheet is held up to a window. The player marks a random 12-65% of the readable
boxes with one habit: HB, 2B or mechanical pencil (graphite on the paper's tooth, grainier
when light), blue or black ballpoint (skips), gel, felt-tip; firm ticks and crosses, boxes
filled solid, a tiny dot, a short dash, a small x in a corner, or a mix; hard cases: ticks
and crosses whose tail runs 1-3 mm over the border (never into a neighbour's inner part),
boxes crossed out and marked again, round boxes circled, a light hand. Garden cells: orange,
green or red colour pencil (or a dice-coloured felt pen) hatched, scribbled, the letter, a
little drawing of the vegetable (a carrot with green leaves, a tomato with a green stalk, a
frilly salad) or a blob. Every mark is checked to stay plainly visible in the final picture
(blur, glare, exposure, the app's white push and B&W threshold, noise reduction) and drawn
firmer until it is ("+firmed"), or left off when nothing could show there. Pencil players rub
out a few mistakes (a faint ghost: truth False). Numbers go in the write boxes, a scrawl in
the name. Then the paper: a row smudged by the side of the hand, fingerprints, a coffee ring
or a dried drip, a fold in half or in quarters (crease lines, a tent and a twist in the
sheet). Then one of: a phone photo (45%: a pinhole camera in 3D over a table of wood, a light
or dark desk, a checked cloth or a felt mat, dice and a pencil about; tilt up to 20 degrees,
any roll, 24-28 or 46-52 mm lens, 8-14 MP, 100-300 dpi; the sheet bent and folded in 3D, lit
by two sources of different colour, a lamp's hot spot, vignetting, shaded by its folds;
sometimes a glossy glare spot kept off the markers, a phone's or a hand's hard shadow, low
light with high-ISO noise and the phone's noise reduction, HDR local tone mapping, a sheet
held up against a window by thumbs on its margins; defocus, shake, white balance, tone curve,
sharpening, JPEG 40-90), a document-scanner app (35%: such a photo cropped to the paper's
edge, give or take 1.5 mm, flattened to a 150-300 dpi page, "enhanced": white paper pushed to
white, a black point from the darkest print, colour, grey or near-binarised B&W (colour kept
for Harvest Dice), sometimes sharpened, sometimes its flash's glare, turned, JPEG 45-90), or
a sheet feeder (20%: 150/200/300 dpi, skewed, stretched by the feed, colour fringes of a CIS
sensor, a fold out of focus with its shadow, a dust or calibration streak down the page, a
white, grey or black backing, colour, grey or B&W (not for Harvest Dice), sometimes fed
upside down, JPEG 40-90). Hard cases per box: +smudge, +fingerprint, +stain, +crease, +glare,
+shadowedge, +showthrough, +streak.

`photo(layout, page_id, rng)` gives (RGB uint8 image, truth, kinds).
"""

from __future__ import annotations

import io

import cv2
import numpy as np
from PIL import Image

from bench.photos.pages import page_pdf, random_page, render
from sheetgen.layout import scanmarks
from sheetgen.scan.blank import grid_cells

A4 = (210.0, 297.0)
RDPI = 300  # the page is rendered, printed and marked at this resolution
PP = RDPI / 25.4  # page pixels a mm
SS = 3  # strokes are drawn at SS x the page's resolution, then averaged down
LUMW = np.array([0.2126, 0.7152, 0.0722], np.float32)
_LIN = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)
_TONE_N = 4096

# ---------------------------------------------------------------------------------------------
# small helpers


def smoothstep(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def field(rng, h, w, cell):
    """Smooth noise of about unit deviation, varying over `cell` pixels."""
    sh, sw = max(2, int(h / max(cell, 1)) + 3), max(2, int(w / max(cell, 1)) + 3)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (max(w, 1), max(h, 1)), interpolation=cv2.INTER_CUBIC)
    return (big - big.mean()) / max(float(big.std()), 1e-6)


def noise1d(rng, n, cell):
    k = max(2, int(n / max(cell, 1)) + 3)
    x = np.linspace(0, k - 1, n)
    return np.interp(x, np.arange(k), rng.standard_normal(k)).astype(np.float32)


def lum(img):
    return img @ LUMW


def remap_any(img, mx, my, value=None):
    """cv2.remap at points of any shape (maps of a 1-d or scalar shape made 2-d); outside the
    image `value`, or the nearest edge's when None."""
    mx, my = np.asarray(mx, np.float32), np.asarray(my, np.float32)
    shape = mx.shape
    flat = mx.ndim != 2
    if flat:
        mx, my = mx.reshape(1, -1), my.reshape(1, -1)
    if value is None:
        out = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        out = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=value)
    return out.reshape(shape) if flat else out


def lut_apply(x, fn):
    """fn (vectorised on [0, 1]) applied to x through a table (much faster than pow on 12 MP)."""
    table = fn(np.linspace(0, 1, _TONE_N)).astype(np.float32)
    idx = np.clip(x * (_TONE_N - 1) + 0.5, 0, _TONE_N - 1).astype(np.int16)
    return table[idx]


def encode(img8, q, subsampling=2):
    buf = io.BytesIO()
    Image.fromarray(img8).save(buf, "JPEG", quality=int(q), subsampling=subsampling)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")).copy()


def to8(x):
    return (np.clip(x, 0, 1) * 255 + 0.5).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# the printed page


def affine(scale, rot_deg, off):
    """A 2x3 map of A4 mm (the PDF) to the paper's mm: scaled and turned about the centre, moved."""
    c, s = np.cos(np.radians(rot_deg)), np.sin(np.radians(rot_deg))
    m = scale * np.array([[c, -s], [s, c]])
    mid = np.array(A4) / 2
    return np.hstack([m, (mid + np.asarray(off) - m @ mid)[:, None]])


def to_paper(pts, T):
    return np.asarray(pts, float) @ T[:, :2].T + T[:, 2]


def px_affine(T, pp):
    """T (mm -> mm) as a pixel map at `pp` pixels a mm (pixel i's centre at (i + 0.5) / pp mm)."""
    m = T[:, :2]
    t = m @ np.array([0.5, 0.5]) + pp * T[:, 2] - 0.5
    return np.hstack([m, t[:, None]]).astype(np.float64)


def print_sheet(pdf, rng):
    """(linear reflectance of the printed A4 sheet at RDPI, the PDF mm -> paper mm map, words)."""
    raster = render(pdf, RDPI)
    H, W = raster.shape[:2]
    ink = 1.0 - _LIN[raster]
    fit = rng.random() < 0.3
    T = affine(rng.uniform(0.95, 0.97) if fit else 1.0, rng.normal(0, 0.12), rng.normal(0, 0.5, 2))
    ink = cv2.warpAffine(ink, px_affine(T, PP), (W, H), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    kind = str(rng.choice(["laser", "low toner", "inkjet"], p=[0.5, 0.25, 0.25]))
    words = [kind]
    gaps = []
    if fit:
        words.append(f"fit to page {T[0, 0] * 100 / np.cos(np.arctan2(T[1, 0], T[0, 0])):.1f}%")
    if kind == "laser":
        ink *= rng.uniform(0.9, 0.97)
        ink = cv2.GaussianBlur(ink, (0, 0), 0.45)
    elif kind == "low toner":
        fade = rng.uniform(0.5, 0.72)
        xs = np.arange(W) / PP
        prof = 1 + 0.1 * noise1d(rng, W, PP * rng.uniform(5, 20))
        for _ in range(int(rng.integers(1, 5))):
            cx, wd, dp = rng.uniform(10, 200), rng.uniform(0.8, 4), rng.uniform(0.3, 0.65)
            prof *= 1 - dp * np.exp(-(((xs - cx) / wd) ** 2))
            gaps.append((cx, wd))
        yprof = 1 - rng.uniform(0, 0.15) * np.linspace(0, 1, H, dtype=np.float32)
        grain = np.clip(0.85 + 0.2 * field(rng, H, W, 1.5), 0.45, 1.0)
        ink *= (fade * grain * prof[None, :] * yprof[:, None])[..., None]
        words.append(f"fade {fade:.2f}")
    else:
        ph = rng.uniform(1.5, 6.0)
        ys = np.arange(H) / PP
        dens = 1 + rng.normal(0, 0.06, int(A4[1] / ph) + 3)
        band = dens[(ys / ph).astype(int)] * (
            1 + rng.uniform(0.03, 0.1) * np.sin(2 * np.pi * ys / ph + rng.uniform(0, 6))
        )
        clog = rng.uniform(0, ph)
        band *= 1 - rng.uniform(0.3, 0.6) * (np.abs(ys % ph - clog) < 0.05)
        tint = np.array([[1.0, 0.98, 0.95], [0.96, 0.98, 1.0], [1.0, 1.0, 1.0]])[int(rng.integers(3))]
        ink = cv2.GaussianBlur(ink, (0, 0), rng.uniform(0.6, 1.0)) * band[:, None, None].astype(np.float32)
        ink *= tint.astype(np.float32)
        words.append(f"bands {ph:.1f} mm")
    np.clip(ink, 0, 0.985, out=ink)
    white = rng.uniform(0.88, 0.97) * np.array([1.0, rng.uniform(0.985, 1.0), rng.uniform(0.94, 1.0)], np.float32)
    mott = 1 + 0.006 * field(rng, H // 8, W // 8, 4)
    mott = cv2.resize(mott, (W, H), interpolation=cv2.INTER_LINEAR)
    page = (1.0 - ink) * (white * mott[..., None])
    if kind == "laser":  # stray toner specks, tenth of a mm
        n = int(rng.integers(0, 150))
        ys, xs = rng.integers(0, H - 2, n), rng.integers(0, W - 2, n)
        page[ys, xs] *= (1 - rng.uniform(0.1, 0.35, n))[:, None].astype(np.float32)
    return page.astype(np.float32), T, words, gaps


def show_through(page, layout, page_id, lang, players, rng, backlit, hz):
    """The back side's print (another page of the layout, or the same page again) seen through
    the paper, mirrored; sometimes the back was played too."""
    others = [p.id for p in layout.pages if p.id != page_id]
    back_id = str(rng.choice(others)) if others and rng.random() < 0.7 else page_id
    bpdf, bat, bboxes = page_pdf(layout, back_id, lang, players)
    low = 100 / 25.4
    dens = 1.0 - lum(_LIN[render(bpdf, 100)])
    if rng.random() < 0.5:  # the back's marks (ticks in a pencil grey)
        for b in bboxes:
            if b.kind == "write" or rng.random() > 0.4:
                continue
            x, y = (bat.left + b.x) * low, (bat.top + b.y) * low
            pts = np.array([[0.2, 0.55], [0.45, 0.8], [0.85, 0.2]]) * [b.w * low, b.h * low] + [x, y]
            cv2.polylines(dens, [np.round(pts * 16).astype(np.int32)], False, 0.55, 2, cv2.LINE_AA, 4)
    dens = np.ascontiguousarray(dens[:, ::-1])  # long-edge duplex: seen from the front, mirrored
    T = affine(1.0, rng.normal(0, 0.3), rng.normal(0, 1.5, 2))
    dens = cv2.warpAffine(dens, px_affine(T, low), (dens.shape[1], dens.shape[0]))
    dens = cv2.GaussianBlur(dens, (0, 0), rng.uniform(0.35, 0.7) * low)
    k = rng.uniform(0.1, 0.2) if backlit else rng.uniform(0.03, 0.07)
    hz["showthrough"] = cv2.resize(dens * k, (210, 297), interpolation=cv2.INTER_AREA) > 0.025
    H, W = page.shape[:2]
    page *= (1 - k * cv2.resize(dens, (W, H), interpolation=cv2.INTER_LINEAR))[..., None]
    return f"show-through {k:.2f} ({'same page' if back_id == page_id else back_id})"


# ---------------------------------------------------------------------------------------------
# pens and the stroke model

# name: (kind, transmittance of a full layer (linear RGB), nib width mm, pressure)
PENS = {
    "hb-pencil": ("graphite", (0.15, 0.15, 0.16), (0.35, 0.55), (0.5, 0.85)),
    "2b-pencil": ("graphite", (0.09, 0.09, 0.1), (0.45, 0.7), (0.6, 0.95)),
    "mech-pencil": ("graphite", (0.17, 0.17, 0.18), (0.28, 0.4), (0.55, 0.9)),
    "blue-ballpoint": ("ballpoint", (0.05, 0.09, 0.38), (0.28, 0.42), (0.85, 1.0)),
    "black-ballpoint": ("ballpoint", (0.07, 0.07, 0.1), (0.28, 0.42), (0.85, 1.0)),
    "black-gel": ("gel", (0.03, 0.03, 0.04), (0.4, 0.6), (0.95, 1.0)),
    "black-felt": ("felt", (0.05, 0.05, 0.06), (0.8, 1.3), (0.95, 1.0)),
    "orange-pencil": ("colour", (0.92, 0.33, 0.06), (0.6, 1.0), (0.55, 0.9)),
    "green-pencil": ("colour", (0.14, 0.42, 0.12), (0.6, 1.0), (0.55, 0.9)),
    "red-pencil": ("colour", (0.74, 0.08, 0.09), (0.6, 1.0), (0.55, 0.9)),
    "orange-felt": ("felt", (0.98, 0.22, 0.02), (0.9, 1.5), (0.9, 1.0)),
    "green-felt": ("felt", (0.03, 0.33, 0.08), (0.9, 1.5), (0.9, 1.0)),
    "red-felt": ("felt", (0.78, 0.03, 0.04), (0.9, 1.5), (0.9, 1.0)),
}
PLAYER_PENS = ["hb-pencil", "2b-pencil", "mech-pencil", "blue-ballpoint", "black-ballpoint", "black-gel", "black-felt"]
PLAYER_ODDS = [0.22, 0.1, 0.1, 0.22, 0.14, 0.12, 0.1]
VEG = {"C": "orange", "S": "green", "T": "red"}


def catmull(P, k=10):
    P = np.asarray(P, float)
    if len(P) < 3:
        return P
    Q = np.vstack([2 * P[0] - P[1], P, 2 * P[-1] - P[-2]])
    t = np.linspace(0, 1, k, endpoint=False)[:, None]
    out = []
    for i in range(1, len(Q) - 2):
        p0, p1, p2, p3 = Q[i - 1], Q[i], Q[i + 1], Q[i + 2]
        out.append(
            0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t**2 + (3 * p1 - p0 - 3 * p2 + p3) * t**3)
        )
    out.append(Q[-2][None])
    return np.vstack(out)


def resample(P, step=0.3):
    P = np.asarray(P, float)
    seg = np.hypot(*np.diff(P, axis=0).T)
    L = np.concatenate([[0.0], np.cumsum(seg)])
    if L[-1] < 1e-6:
        return P[:1].repeat(2, 0)
    n = max(2, int(L[-1] / step) + 1)
    t = np.linspace(0, L[-1], n)
    return np.stack([np.interp(t, L, P[:, 0]), np.interp(t, L, P[:, 1])], 1)


def tremor(P, g, amp):
    if len(P) < 3 or amp <= 0:
        return P
    d = np.gradient(P, axis=0)
    nrm = np.stack([-d[:, 1], d[:, 0]], 1) / (np.hypot(d[:, 0], d[:, 1])[:, None] + 1e-9)
    L = float(np.hypot(*np.diff(P, axis=0).T).sum())
    return P + nrm * (amp * noise1d(g, len(P), len(P) / max(L / 3.0, 1.0)))[:, None]


def ellipse(cx, cy, rx, ry, a0, a1, n=40):
    a = np.linspace(a0, a1, n)
    return np.stack([cx + rx * np.cos(a), cy - ry * np.sin(a)], 1)


def zigzag(g, inset, spacing, angle, round_box=False, r=0.5):
    """A back-and-forth fill of the unit box kept `inset` from its edges (or of a disc of
    radius r) at `angle`: each sweep runs from edge to edge, give or take the hand's slop."""
    d = np.array([np.cos(angle), np.sin(angle)])
    nrm = np.array([-d[1], d[0]])
    half = r if round_box else 0.5 - inset
    reach = half if round_box else half * (abs(d[0]) + abs(d[1]))
    n = max(2, int(2 * reach / spacing))
    pts = []
    for k in range(n + 1):
        v = -reach + 2 * reach * k / n
        if round_box:
            if abs(v) >= half:
                continue
            lo, hi = -np.sqrt(half * half - v * v), np.sqrt(half * half - v * v)
        else:
            lo, hi = -9.0, 9.0
            for i in range(2):
                if abs(d[i]) > 1e-6:
                    a, b = (-half - v * nrm[i]) / d[i], (half - v * nrm[i]) / d[i]
                    lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
                elif abs(v * nrm[i]) > half:
                    lo, hi = 1.0, 0.0
            if hi <= lo:
                continue
        lo, hi = lo + (hi - lo) * g.uniform(0, 0.06), hi - (hi - lo) * g.uniform(0, 0.06)
        ends = (lo, hi) if len(pts) % 4 == 0 else (hi, lo)
        for sv in ends:
            pts.append(0.5 + v * nrm + sv * d)
    return np.array(pts) if pts else np.array([[0.5, 0.5], [0.5, 0.5]])


LETTERS = {
    "C": [([ellipse(0.5, 0.5, 0.32, 0.42, np.radians(50), np.radians(310))], True)],
    "S": [
        (
            [
                [
                    (0.76, 0.2),
                    (0.5, 0.08),
                    (0.25, 0.22),
                    (0.33, 0.44),
                    (0.66, 0.56),
                    (0.76, 0.78),
                    (0.5, 0.93),
                    (0.22, 0.8),
                ]
            ],
            True,
        )
    ],
    "T": [([[(0.14, 0.12), (0.86, 0.12)]], False), ([[(0.5, 0.12), (0.5, 0.92)]], False)],
}
DIGITS = {
    "0": ([ellipse(0.5, 0.5, 0.3, 0.42, np.radians(100), np.radians(470))], True),
    "1": ([[(0.32, 0.3), (0.55, 0.08), (0.55, 0.92)]], False),
    "2": ([[(0.22, 0.3), (0.45, 0.1), (0.75, 0.25), (0.6, 0.55), (0.2, 0.9), (0.82, 0.9)]], True),
    "3": ([[(0.2, 0.15), (0.75, 0.15), (0.45, 0.45), (0.76, 0.66), (0.58, 0.9), (0.2, 0.84)]], True),
    "4": ([[(0.62, 0.92), (0.62, 0.08), (0.15, 0.66), (0.86, 0.66)]], False),
    "5": ([[(0.76, 0.1), (0.3, 0.1), (0.26, 0.45), (0.6, 0.42), (0.78, 0.66), (0.6, 0.9), (0.2, 0.85)]], True),
    "6": ([[(0.7, 0.1), (0.36, 0.35), (0.25, 0.7), (0.5, 0.92), (0.75, 0.7), (0.55, 0.5), (0.27, 0.62)]], True),
    "7": ([[(0.18, 0.1), (0.82, 0.1), (0.4, 0.92)]], False),
    "8": (
        [
            [
                (0.5, 0.5),
                (0.27, 0.3),
                (0.5, 0.09),
                (0.73, 0.3),
                (0.5, 0.5),
                (0.25, 0.72),
                (0.5, 0.92),
                (0.75, 0.72),
                (0.5, 0.5),
            ]
        ],
        True,
    ),
    "9": ([[(0.75, 0.35), (0.5, 0.1), (0.26, 0.3), (0.45, 0.52), (0.75, 0.35), (0.68, 0.92)]], True),
}


def unit_shape(style, g, grow, size, wu, value, round_box):
    """The strokes of a mark in unit box coordinates (y down): a list of (pieces, smooth,
    accent), each stroke drawn through its pieces' control points; `wu` the nib in box units."""
    u = g.uniform

    def pt(a, b, c, d):
        return np.array([u(a, b), u(c, d)])

    if style in ("tick", "stray-tick"):
        a, b, c = pt(0.14, 0.3, 0.4, 0.6), pt(0.36, 0.5, 0.7, 0.88), pt(0.7, 0.93, 0.06, 0.26)
        return [
            (
                [[a, (a + b) / 2 + g.normal(0, 0.02, 2), b], [b, b + (c - b) * 0.55 + g.normal(0, 0.03, 2), c]],
                True,
                False,
            )
        ]
    if style in ("cross", "stray-cross"):
        a, b = pt(0.1, 0.3, 0.1, 0.3), pt(0.7, 0.9, 0.7, 0.9)
        c, d = pt(0.7, 0.9, 0.1, 0.3), pt(0.1, 0.3, 0.7, 0.9)
        return [
            ([[a, (a + b) / 2 + g.normal(0, 0.025, 2), b]], True, False),
            ([[c, (c + d) / 2 + g.normal(0, 0.025, 2), d]], True, False),
        ]
    if style == "fill":
        inset = u(0.04, 0.12) + wu / 2
        sp = max(wu * u(0.5, 0.7), 0.02)
        ang = u(-1.1, 1.1)
        out = [([zigzag(g, inset, sp, ang, round_box, 0.5 - inset)], False, False)]
        if g.random() < 0.5:
            out.append(([zigzag(g, inset, sp * 1.3, ang + np.pi / 2, round_box, 0.5 - inset)], False, False))
        return out
    if style == "dot":
        r = grow * u(0.3, 0.55) / size
        cx, cy = 0.5 + g.normal(0, 0.07), 0.5 + g.normal(0, 0.07)
        a = np.linspace(0, u(4, 6) * np.pi, 30)
        rr = r * np.linspace(1, 0.15, 30)
        return [([np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1)], False, False)]
    if style == "dash":
        L = min(0.85, grow * u(0.3, 0.55))
        a = np.radians(g.normal(0, 8))
        cx, cy = 0.5 + g.normal(0, 0.05), 0.5 + g.normal(0, 0.07)
        d = np.array([np.cos(a), -np.sin(a)]) * L / 2
        return [
            (
                [[np.array([cx, cy]) - d, np.array([cx, cy]) + g.normal(0, 0.015, 2), np.array([cx, cy]) + d]],
                True,
                False,
            )
        ]
    if style == "cornerx":
        s = min(0.48, grow * u(0.26, 0.38))
        cx = 0.5 + g.choice([-1, 1]) * u(0.2, 0.26)
        cy = 0.5 + g.choice([-1, 1]) * u(0.2, 0.26)
        h = s / 2
        return [
            ([[(cx - h, cy - h), (cx + h, cy + h)]], False, False),
            ([[(cx + h, cy - h), (cx - h, cy + h)]], False, False),
        ]
    if style == "circle":
        r = u(0.56, 0.7)
        a0 = u(0, 2 * np.pi)
        return [
            (
                [ellipse(0.5 + g.normal(0, 0.03), 0.5 + g.normal(0, 0.03), r, r * u(0.9, 1.1), a0, a0 + u(6.6, 7.2))],
                True,
                False,
            )
        ]
    if style == "redo":  # crossed out, then marked again: a cross, a scrawl over it, a tick
        out = unit_shape("cross", g, 1, size, wu, value, round_box)
        out.append(([zigzag(g, 0.1 + wu / 2, u(0.08, 0.14), u(-0.8, 0.8))], False, False))
        out += unit_shape("tick", g, 1, size, wu, value, round_box)
        return out
    # garden cells
    if style == "hatch":
        inset, ang = u(0.1, 0.2), u(0.6, 1.0) * g.choice([-1, 1])
        return [([zigzag(g, inset + wu / 2, u(0.1, 0.16), ang)], False, False)]
    if style == "scribble":
        inset = u(0.12, 0.22)
        k = int(g.integers(9, 16))
        xs = np.clip(np.linspace(inset, 1 - inset, k) + g.normal(0, 0.08, k), inset, 1 - inset)
        ys = np.where(np.arange(k) % 2 == 0, u(inset, 0.35, k), u(0.65, 1 - inset, k))
        return [([np.stack([xs, ys], 1)], True, False)]
    if style == "blob":
        r = u(0.22, 0.33)
        return [([zigzag(g, 0.0, max(wu * 0.6, 0.04), u(0, 3), True, r)], False, False)]
    if style == "letter":
        sc = u(0.55, 0.8)
        out = []
        for pieces, smooth in LETTERS[value]:
            out.append(([0.5 + (np.asarray(p, float) - 0.5) * sc for p in pieces], smooth, False))
        return out
    if style == "drawing":
        if value == "C":  # a carrot: an orange cone, hatched, green leaves on top
            body = [(0.37, 0.3), (0.5, 0.9), (0.63, 0.3), (0.37, 0.3)]
            hatch = [
                (0.4 + 0.1 * (y - 0.35) / 0.45, y) if k % 2 == 0 else (0.6 - 0.1 * (y - 0.35) / 0.45, y)
                for k, y in enumerate(np.linspace(0.35, 0.75, 6))
            ]
            out = [([body], False, False), ([hatch], False, False)]
            for tip in [(0.38, 0.08), (0.5, 0.05), (0.62, 0.1)]:
                out.append(([[(0.5, 0.3), np.array(tip) + g.normal(0, 0.02, 2)]], False, True))
            return out
        if value == "T":  # a tomato: a red ball, coloured in, a green star of a stalk
            ring = ellipse(0.5, 0.57, 0.3, 0.28, 0, 2.1 * np.pi)
            out = [([ring], True, False), ([zigzag(g, 0.0, 0.09, u(0, 3), True, 0.25) + [0, 0.07]], False, False)]
            for a in (-0.6, 0.0, 0.6):
                out.append(([[(0.5, 0.3), (0.5 + 0.14 * np.sin(a), 0.3 - 0.12 * np.cos(a))]], False, True))
            return out
        a = np.linspace(0, 2.05 * np.pi, 60)  # a salad: a frilly green head, curls inside
        r = 0.32 + 0.04 * np.sin(a * 7)
        out = [([np.stack([0.5 + r * np.cos(a), 0.52 + r * np.sin(a)], 1)], True, False)]
        out.append(([ellipse(0.45, 0.5, 0.12, 0.1, 0, 4.5)], True, False))
        out.append(([ellipse(0.6, 0.6, 0.08, 0.08, 1, 5.5)], True, False))
        return out
    raise ValueError(style)


def mark_paths(style, rect, seed, grow, width, reach, value, round_box):
    """A mark's strokes as polylines in the PDF's mm, with whether each is the accent colour."""
    g = np.random.default_rng(seed)
    x, y, w, h = rect
    size = min(w, h)
    shapes = unit_shape(style, g, grow, size, width / size, value, round_box)
    rot = g.normal(0, 0.07)
    c, s = np.cos(rot), np.sin(rot)
    amp = g.uniform(0.03, 0.09)
    out = []
    for pieces, smooth, accent in shapes:
        parts = []
        for p in pieces:
            q = (np.asarray(p, float) - 0.5) * [w, h]
            q = q @ np.array([[c, s], [-s, c]]) + [x + w / 2, y + h / 2]
            parts.append(resample(catmull(q) if smooth else q))
        P = np.vstack(parts)
        out.append((tremor(P, g, amp), accent))
    if reach > 0:  # the tail runs on over the border
        k = 0 if style == "stray-tick" else int(g.integers(len(out)))
        P = out[k][0] if g.random() < 0.6 or style == "stray-tick" else out[k][0][::-1]
        p, q = P[-1], P[max(0, len(P) - 6)]
        d = (p - q) / (np.hypot(*(p - q)) + 1e-9)
        ts = []
        for axis, lo, hi in ((0, x, x + w), (1, y, y + h)):
            if abs(d[axis]) > 0.2:
                edge = hi if d[axis] > 0 else lo
                ts.append((max(0.0, (edge - p[axis]) / d[axis]), axis))
        t_exit, axis = min(ts) if ts else (0.0, 0)
        t = min(t_exit + reach / max(abs(d[axis]), 0.2), reach * 2.5 + size)
        tail = p + d[None, :] * np.linspace(0, t, max(2, int(t / 0.3)))[:, None]
        out[k] = (np.vstack([P, tail[1:]]), out[k][1])
    return out


def intrudes(paths, me, rects):
    """Whether a mark reaches into the inner part of another readable box."""
    pts = np.vstack([p for p, _ in paths])
    inset = 0.25 * np.minimum(rects[:, 2], rects[:, 3])
    x0, y0 = rects[:, 0] + inset, rects[:, 1] + inset
    x1, y1 = rects[:, 0] + rects[:, 2] - inset, rects[:, 1] + rects[:, 3] - inset
    inside = (pts[:, None, 0] > x0) & (pts[:, None, 0] < x1) & (pts[:, None, 1] > y0) & (pts[:, None, 1] < y1)
    if me is not None:
        inside[:, me] = False
    return bool(inside.any())


def strokes_for(paths, T, pen, accent_pen, level, width, seed):
    """The polylines (PDF mm) as strokes on the paper: (points in paper mm, pressure, width, pen)."""
    g = np.random.default_rng(seed + 7)
    out = []
    for P, accent in paths:
        name = accent_pen if accent and accent_pen else pen
        kind = PENS[name][0]
        Q = to_paper(P, T)
        n = len(Q)
        t = np.linspace(0, 1, n)
        if kind in ("graphite", "colour"):
            env = 0.4 + 0.6 * smoothstep(t / 0.1) * (1 - 0.45 * smoothstep((t - 0.75) / 0.25))
            press = level * env * (1 + 0.08 * noise1d(g, n, 8))
            wid = width * (0.8 + 0.3 * env)
        elif kind == "ballpoint":
            env = 0.8 + 0.2 * smoothstep(t / 0.06)
            if g.random() < 0.3:  # the ball skips for a moment
                c = g.uniform(0.2, 0.8)
                env = env * (1 - 0.6 * np.exp(-(((t - c) / 0.04) ** 2)))
            press = level * env
            wid = np.full(n, width)
        else:
            press = np.full(n, level)
            wid = width * (1 + 0.12 * np.exp(-t / 0.03))
        out.append((Q, np.clip(press, 0.03, 1.0), wid, name))
    return out


def tooth(g, h, w, coarse):
    """The paper's grain as a pencil feels it: 0 in the valleys, 1 on the hills."""
    z = cv2.GaussianBlur(g.standard_normal((h, w)).astype(np.float32), (0, 0), 1.1 if coarse else 0.8)
    z += 0.4 * field(g, h, w, 6) * float(z.std())
    z /= max(float(z.std()), 1e-6)
    return 0.5 + 0.5 * np.tanh(0.9 * z)


def draw(shape, strokes, seed):
    """Render strokes into a transmittance patch: (y0, x0, trans HxWx3), not yet on the page."""
    H, W = shape[:2]
    allp = np.vstack([s[0] for s in strokes])
    wmax = max(float(s[2].max()) for s in strokes)
    x0 = max(0, int(np.floor((allp[:, 0].min() - wmax) * PP)) - 3)
    y0 = max(0, int(np.floor((allp[:, 1].min() - wmax) * PP)) - 3)
    x1 = min(W, int(np.ceil((allp[:, 0].max() + wmax) * PP)) + 3)
    y1 = min(H, int(np.ceil((allp[:, 1].max() + wmax) * PP)) + 3)
    h, w = y1 - y0, x1 - x0
    trans = np.ones((h, w, 3), np.float32)
    g = np.random.default_rng(seed + 11)
    teeth = {}
    for Q, press, wid, name in strokes:
        kind, T, _, _ = PENS[name]
        canvas = np.zeros((h * SS, w * SS), np.uint8)
        q = np.round((Q * PP - [x0, y0]) * SS * 16).astype(np.int64)
        th = np.maximum(1, np.round(wid * PP * SS)).astype(int)
        v = np.round(press * 255).astype(int)
        for i in range(len(q) - 1):
            cv2.line(
                canvas,
                (int(q[i, 0]), int(q[i, 1])),
                (int(q[i + 1, 0]), int(q[i + 1, 1])),
                int(v[i]),
                int(th[i]),
                cv2.LINE_AA,
                4,
            )
        c = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        if kind in ("graphite", "colour"):
            if kind not in teeth:
                teeth[kind] = tooth(g, h, w, kind == "colour")
            t = teeth[kind]
            grain = 0.15 + 0.65 * (1 - np.minimum(c * 1.3, 1)) ** 1.5  # a light hand leaves the valleys white
            a = np.minimum(1, c * 1.4) * (1 - grain * (1 - t)) * (0.88 if kind == "colour" else 0.97)
        elif kind == "ballpoint":
            a = np.minimum(1, c) * 0.95
        elif kind == "felt":
            a = cv2.GaussianBlur(np.minimum(1, c * 1.15), (0, 0), 0.6) * 0.95
        else:
            a = np.minimum(1, c * 1.1)
        trans *= 1 - a[..., None] * (1 - np.array(T, np.float32))
    return y0, x0, trans


NEAR = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(0.5 * PP) + 1, 2 * int(0.5 * PP) + 1))


def patch_vis(trans, y0, x0, inner, sigma, under):
    """How dark the mark looks over the box: the luminance it takes from what is there (paper,
    or print, which hides a mark drawn on it), after the photo's blur, as a share of the paper."""
    dl = (1 - lum(trans)) * under
    if sigma > 0.3:
        dl = cv2.GaussianBlur(dl, (0, 0), sigma)
    ix0, iy0, ix1, iy1 = inner
    h, w = dl.shape
    a, b = max(0, iy0 - y0), min(h, iy1 - y0)
    c, d = max(0, ix0 - x0), min(w, ix1 - x0)
    if b <= a or d <= c:
        return 0.0
    return float(dl[a:b, c:d].max())


def apply(page, y0, x0, trans):
    h, w = trans.shape[:2]
    page[y0 : y0 + h, x0 : x0 + w] *= trans


# ---------------------------------------------------------------------------------------------
# the player


def box_quad(b, at, T):
    x, y = at.left + b.x, at.top + b.y
    return to_paper([[x, y], [x + b.w, y], [x + b.w, y + b.h], [x, y + b.h]], T)


def mark_sheet(page, at, T, boxes, garden, rng, cap, hz):
    """Mark a random share of the readable boxes; (truth, kinds, graphite patches, words)."""
    readable = [b for b in boxes if b.kind != "write" or b.field in garden]
    rects = np.array([[at.left + b.x, at.top + b.y, b.w, b.h] for b in readable])
    truth = {b.field: ("" if b.field in garden else False) for b in readable}
    kinds: dict = {}
    pen = str(rng.choice(PLAYER_PENS, p=PLAYER_ODDS))
    habit = str(
        rng.choice(
            ["tick", "cross", "fill", "dot", "dash", "cornerx", "mixed"], p=[0.25, 0.2, 0.12, 0.07, 0.08, 0.06, 0.22]
        )
    )
    pencil = PENS[pen][0] == "graphite"
    light_player = pencil and rng.random() < 0.25
    share = rng.uniform(0.12, 0.65)
    felt_garden = rng.random() < 0.25
    garden_habit = str(rng.choice(["hatch", "scribble", "letter", "drawing", "blob" if felt_garden else "hatch"]))
    patches, empty, firmed = [], 0, 0
    white = float(np.median(lum(page[::16, ::16])))
    for i, b in enumerate(readable):
        if rng.random() >= share:
            continue
        hard = []
        if b.field in garden:
            value = str(rng.choice(["C", "S", "T"]))
            bpen = f"{VEG[value]}-{'felt' if felt_garden else 'pencil'}"
            accent = f"green-{'felt' if felt_garden else 'pencil'}"
            style = garden_habit if rng.random() < 0.75 else str(rng.choice(["hatch", "scribble", "letter", "drawing"]))
        else:
            value, accent = True, None
            bpen = pen if rng.random() < 0.92 else str(rng.choice(PLAYER_PENS))
            style = habit
            if habit == "mixed":
                style = str(
                    rng.choice(["tick", "cross", "fill", "dot", "dash", "cornerx"], p=[0.3, 0.3, 0.15, 0.08, 0.1, 0.07])
                )
            if b.kind == "round" and rng.random() < 0.3:
                style = "circle"
            if rng.random() < 0.03:
                style = "redo"
            if style in ("tick", "cross") and rng.random() < 0.12:
                style = "stray-" + style
        kind, _, wr, pr = PENS[bpen]
        light = kind == "graphite" and ((light_player and rng.random() < 0.6) or rng.random() < 0.04)
        quad = box_quad(b, at, T)
        centre = quad.mean(0)
        need = cap.need(centre, 0.1 if light else 0.14)
        if need is None:  # no mark a person could see there (washed out by glare): left empty
            empty += 1
            continue
        width, level = rng.uniform(*wr), rng.uniform(*pr)
        if light:
            level *= rng.uniform(0.35, 0.55)
            hard.append("+light")
        seed = int(rng.integers(2**31))
        reach = rng.uniform(1.0, 3.0) if style.startswith("stray") else 0.0
        grow = 1.0
        for _ in range(6):
            paths = mark_paths(style, rects[i], seed, grow, width, reach, value, b.kind == "round")
            if not intrudes(paths, i, rects):
                break
            if reach > 0:
                reach = reach * 0.7 if reach * 0.7 >= 1.0 else 0.0
            else:
                grow *= 0.88
        else:
            empty += 1
            continue
        if reach > 0:
            hard.append("+stray")
        sigma = cap.sigma_page(centre)
        lo, hi = quad.min(0), quad.max(0)
        m = 0.12 * (hi - lo) if style != "circle" else -0.15 * (hi - lo)
        inner = [int((lo[0] + m[0]) * PP), int((lo[1] + m[1]) * PP), int((hi[0] - m[0]) * PP), int((hi[1] - m[1]) * PP)]
        for attempt in range(8):
            strokes = strokes_for(paths, T, bpen, accent, level, width, seed)
            y0, x0, trans = draw(page.shape, strokes, seed)
            h, w = trans.shape[:2]
            # a mark counts where it is on paper (or pale print), not on dark print or next to it,
            # where it would pass for part of the printing
            under = np.clip(lum(page[y0 : y0 + h, x0 : x0 + w]) / white, 0, 1)
            near_print = cv2.dilate((under < 0.6).astype(np.uint8), NEAR)
            under = under * (1 - near_print)
            if patch_vis(trans, y0, x0, inner, sigma, under) >= need:
                break
            level, width = min(1.0, level * 1.3 + 0.05), width * 1.15
            if style in ("dot", "dash", "cornerx"):
                bigger = mark_paths(style, rects[i], seed, grow * 1.2, width, reach, value, b.kind == "round")
                if not intrudes(bigger, i, rects):
                    grow, paths = grow * 1.2, bigger
            if "+firmed" not in hard and attempt == 0:
                hard.append("+firmed")
        else:
            empty += 1
            continue
        firmed += "+firmed" in hard
        apply(page, y0, x0, trans)
        if kind == "graphite":
            patches.append((y0, x0, 1 - lum(trans)))
        truth[b.field] = value
        kinds[b.field] = " ".join([f"{bpen}/{style.replace('stray-', '')}", *hard])
    # mistakes rubbed out: a faint ghost of graphite, no clear mark
    if pencil:
        free = [i for i, b in enumerate(readable) if b.field not in kinds and b.field not in garden]
        for i in rng.permutation(free)[: int(rng.integers(0, 4))]:
            b = readable[i]
            seed = int(rng.integers(2**31))
            paths = mark_paths(str(rng.choice(["tick", "cross"])), rects[i], seed, 1.0, 0.5, 0.0, True, False)
            y0, x0, trans = draw(page.shape, strokes_for(paths, T, pen, None, 0.7, 0.5, seed), seed)
            dark = cv2.GaussianBlur(1 - trans, (0, 0), 1.5)
            dark *= (0.6 + 0.4 * np.clip(0.5 + 0.5 * field(rng, *dark.shape[:2], 20), 0, 1))[..., None]
            capv = rng.uniform(0.06, 0.13)
            dl = float(lum(dark).max())
            if dl > capv:
                dark *= capv / dl
            apply(page, y0, x0, 1 - dark)
            kinds[b.field] = f"{pen}/erased"
    # numbers in the write boxes, a name (not read)
    for b in boxes:
        if b.kind != "write" or b.field in garden or rng.random() < 0.4:
            continue
        seed = int(rng.integers(2**31))
        g = np.random.default_rng(seed)
        x, y = at.left + b.x, at.top + b.y
        paths = []
        if "name" in b.field or "player" in b.field:  # a name: a scrawl
            k = int(g.integers(8, 14))
            xs = np.linspace(0.1, g.uniform(0.4, 0.8), k)
            ys = 0.5 + g.uniform(-0.25, 0.25, k)
            paths.append(resample(catmull(np.stack([x + xs * b.w, y + ys * b.h], 1))))
        else:
            digits = str(int(g.integers(0, 100 if b.w > 12 else 10)))
            dw = min(0.38, 0.75 / len(digits)) * min(b.h / b.w * 1.4, 1.5)
            for k, ch in enumerate(digits):
                pieces, smooth = DIGITS[ch]
                cx = 0.5 + (k - (len(digits) - 1) / 2) * dw * 1.15
                for p in pieces:
                    q = np.asarray(p, float)
                    q = np.stack([x + (cx + (q[:, 0] - 0.5) * dw) * b.w, y + (0.5 + (q[:, 1] - 0.5) * 0.62) * b.h], 1)
                    paths.append(resample(catmull(q) if smooth else q))
        paths = [(tremor(P, g, 0.05), False) for P in paths]
        if intrudes(paths, None, rects):
            continue
        lv = rng.uniform(*PENS[pen][3])
        y0, x0, trans = draw(page.shape, strokes_for(paths, T, pen, None, lv, rng.uniform(*PENS[pen][2]), seed), seed)
        apply(page, y0, x0, trans)
    words = [f"player {pen} {habit}"]
    if light_player:
        words.append("light hand")
    if firmed:
        words.append(f"{firmed} firmed")
    if empty:
        words.append(f"{empty} left empty (not visible there)")
    return truth, kinds, patches, words


# ---------------------------------------------------------------------------------------------
# what happens to the paper: smudges, fingerprints, stains, folds


def smudge(page, at, T, readable, patches, rng, hz):
    """The side of the hand drags graphite along a row of boxes."""
    rows: dict = {}
    for b in readable:
        if b.kind != "write":
            rows.setdefault(round(b.y), []).append(b)
    rows = [r for r in rows.values() if len(r) >= 3]
    if not rows:
        return None
    row = rows[int(rng.integers(len(rows)))]
    xa = min(b.x for b in row) + at.left - 4
    xb = max(b.x + b.w for b in row) + at.left + 8
    length = rng.uniform(40, 130)
    if xb - xa > length:
        xa = rng.uniform(xa, xb - length)
        xb = xa + length
    yc = np.mean([b.y + b.h / 2 for b in row]) + at.top + rng.normal(0, 2)
    (xa, yc), (xb, _) = to_paper([[xa, yc], [xb, yc]], T)
    H, W = page.shape[:2]
    X0, X1 = int(max(0, xa * PP)), int(min(W, xb * PP))
    Y0, Y1 = int(max(0, (yc - 14) * PP)), int(min(H, (yc + 14) * PP))
    h, w = Y1 - Y0, X1 - X0
    src = np.zeros((h, w), np.float32)
    for y0, x0, dl in patches:
        ph, pw = dl.shape
        a, b_ = max(y0, Y0), min(y0 + ph, Y1)
        c, d = max(x0, X0), min(x0 + pw, X1)
        if a < b_ and c < d:
            src[a - Y0 : b_ - Y0, c - X0 : d - X0] = np.maximum(
                src[a - Y0 : b_ - Y0, c - X0 : d - X0], dl[a - y0 : b_ - y0, c - x0 : d - x0]
            )
    half = cv2.resize(src, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    klen = int(rng.uniform(5, 14) * PP / 2)
    ang = np.radians(rng.normal(0, 12))
    k = np.zeros((2 * klen + 1, 2 * klen + 1), np.float32)
    end = (int(klen + klen * np.cos(ang)), int(klen + klen * np.sin(ang)))
    cv2.line(k, (klen, klen), end, 1.0, 1)
    k /= k.sum()
    k = k[::-1, ::-1].copy()  # the graphite trails after the mark, in the hand's direction
    drag = cv2.filter2D(half, -1, k) * rng.uniform(0.12, 0.25)
    yy = (np.arange(h // 2 if h >= 2 else 1) * 2 + Y0) / PP
    xx = (np.arange(w // 2 if w >= 2 else 1) * 2 + X0) / PP
    across = np.exp(-0.5 * ((yy - yc) / rng.uniform(2.5, 5)) ** 2)
    along = smoothstep((xx - xa) / 12) * smoothstep((xb - xx) / 12)
    streak = cv2.GaussianBlur(rng.standard_normal(half.shape).astype(np.float32), (0, 0), sigmaX=8, sigmaY=0.8)
    streak = np.clip(0.6 + 0.5 * streak / max(float(streak.std()), 1e-6), 0, 1.3)
    base = rng.uniform(0.025, 0.055) * across[:, None] * along[None, :] * streak
    total = np.minimum(drag + base, 0.1)
    total = cv2.resize(total, (w, h), interpolation=cv2.INTER_LINEAR)
    page[Y0:Y1, X0:X1] *= (1 - total)[..., None]
    mark_hz(hz, "smudge", total > 0.02, X0, Y0)
    return "smudged row"


def mark_hz(hz, name, mask, X0, Y0):
    """Record where a hazard lies, on a 1 px/mm map of the paper."""
    m = hz.setdefault(name, np.zeros((297, 210), bool))
    ys, xs = np.nonzero(mask[::4, ::4])
    m[np.clip((ys * 4 + Y0) / PP, 0, 296).astype(int), np.clip((xs * 4 + X0) / PP, 0, 209).astype(int)] = True


def fingerprint(page, rng, hz):
    cx, cy = rng.uniform(15, 195), rng.uniform(25, 280)
    a, b = rng.uniform(5.5, 7.5), rng.uniform(7.5, 10)
    R = int(b * PP) + 4
    H, W = page.shape[:2]
    X0, Y0 = max(0, int(cx * PP) - R), max(0, int(cy * PP) - R)
    X1, Y1 = min(W, int(cx * PP) + R), min(H, int(cy * PP) + R)
    yy, xx = np.mgrid[Y0:Y1, X0:X1].astype(np.float32) / PP
    th = rng.uniform(0, np.pi)
    u = (xx - cx) * np.cos(th) + (yy - cy) * np.sin(th)
    v = -(xx - cx) * np.sin(th) + (yy - cy) * np.cos(th)
    r = np.sqrt((u / a) ** 2 + (v / b) ** 2)
    h, w = r.shape
    warp = field(rng, h, w, 3 * PP) * 0.6
    core = np.sqrt((u - rng.normal(0, 1)) ** 2 + ((v - rng.normal(0, 2)) * 0.8) ** 2)
    ridges = 0.5 + 0.5 * np.cos(2 * np.pi * core / rng.uniform(0.45, 0.55) + warp * 2)
    mask = np.clip(1 - r, 0, 1) ** 0.4 * np.clip(0.6 + 0.5 * field(rng, h, w, 4 * PP), 0, 1)
    dark = rng.uniform(0.03, 0.08) * ridges**2 * mask
    page[Y0:Y1, X0:X1] *= (1 - dark)[..., None]
    mark_hz(hz, "fingerprint", dark > 0.01, X0, Y0)


def stain(page, rng, hz):
    """A coffee ring (the mug's foot, 70-90 mm, darker at its rim), or a dried drip."""
    H, W = page.shape[:2]
    ring = rng.random() < 0.65
    R = rng.uniform(35, 45) if ring else rng.uniform(4, 11)
    cx, cy = rng.uniform(-R * 0.5, 210 + R * 0.5), rng.uniform(-R * 0.5, 297 + R * 0.5)
    X0, Y0 = max(0, int((cx - R - 3) * PP)), max(0, int((cy - R - 3) * PP))
    X1, Y1 = min(W, int((cx + R + 3) * PP)), min(H, int((cy + R + 3) * PP))
    if X1 - X0 < 4 or Y1 - Y0 < 4:
        return None
    yy, xx = np.mgrid[Y0:Y1, X0:X1].astype(np.float32) / PP
    rho = np.hypot(xx - cx, yy - cy)
    ang = np.arctan2(yy - cy, xx - cx)
    h, w = rho.shape
    k = 48
    knots = rng.standard_normal(k + 1)
    knots[-1] = knots[0]
    wob = np.interp((ang + np.pi) / (2 * np.pi) * k, np.arange(k + 1), knots).astype(np.float32)
    edge = R + wob * (0.4 if ring else R * 0.12)
    inside = edge - rho
    rim = np.exp(-np.maximum(inside, 0) / rng.uniform(0.5, 1.4)) * smoothstep((inside + 0.15) / 0.3)
    if ring:
        knots2 = np.clip(rng.uniform(0.2, 1.0, k + 1), 0, 1)
        knots2[-1] = knots2[0]
        arc = np.interp((ang + np.pi) / (2 * np.pi) * k, np.arange(k + 1), knots2).astype(np.float32)
        alpha = rng.uniform(0.25, 0.55) * rim * arc + rng.uniform(0.02, 0.07) * (inside > 0)
        tcol = np.array([0.78, 0.58, 0.36], np.float32)
    else:
        alpha = rng.uniform(0.08, 0.18) * rim + rng.uniform(0.04, 0.1) * (inside > 0)
        tcol = np.array([0.9, 0.78, 0.55], np.float32)
    alpha = alpha * np.clip(0.85 + 0.25 * field(rng, h, w, 3 * PP), 0.5, 1.2)
    page[Y0:Y1, X0:X1] *= 1 - alpha[..., None] * (1 - tcol)
    mark_hz(hz, "stain", alpha > 0.03, X0, Y0)
    return "coffee ring" if ring else "dried drip"


class Paper:
    """The sheet's shape: folds (lines in paper mm, with the tent each leaves) and a bend, as a
    height field (mm towards the camera) on a 2 px/mm grid."""

    def __init__(self, rng, folded, bend):
        self.lines = []
        self.h = np.zeros((594, 420), np.float32)
        yy, xx = np.mgrid[0:594, 0:420].astype(np.float32) / 2 + 0.25
        if folded:
            quarters = rng.random() < 0.7
            y0, a1 = 148.5 + rng.normal(0, 3), np.radians(rng.normal(0, 0.8))
            dy = yy - (y0 + (xx - 105) * np.tan(a1))
            self.lines.append(("h", y0, a1))
            self.h += rng.choice([-1, 1]) * rng.uniform(0.8, 3.5) * np.exp(-np.abs(dy) / rng.uniform(25, 70))
            if quarters:  # the second fold went through both halves: mountain on one, valley on the other
                x0, a2 = 105 + rng.normal(0, 2.5), np.radians(rng.normal(0, 0.8))
                dx = xx - (x0 + (yy - 148.5) * np.tan(a2))
                self.lines.append(("v", x0, a2))
                self.h += np.tanh(dy / 40) * rng.uniform(0.8, 3.0) * np.exp(-np.abs(dx) / rng.uniform(25, 60))
        if bend:
            k = rng.uniform(1, 5) * rng.choice([-1, 1])
            self.h += k * (((xx - 105) / 105) ** 2 if rng.random() < 0.5 else ((yy - 148.5) / 148.5) ** 2)
        self.flat = not folded and not bend
        self._shade = None

    def creases(self, page, rng, hz):
        """Each fold's line: broken fibres, a little dirt, a thin dark line."""
        H, W = page.shape[:2]
        for kind, c, a in self.lines:
            n = W if kind == "h" else H
            t = (np.arange(n) + 0.5) / PP
            pos = c + ((t - 105) if kind == "h" else (t - 148.5)) * np.tan(a)
            band = int(1.2 * PP)
            lo = np.clip((pos * PP).astype(int) - band, 0, (H if kind == "h" else W) - 2 * band - 1)
            off = np.arange(2 * band)
            idx = lo[:, None] + off[None, :]
            d = (idx + 0.5) / PP - pos[:, None]
            wd, dk = rng.uniform(0.12, 0.3), rng.uniform(0.05, 0.14)
            var = np.clip(0.75 + 0.4 * noise1d(rng, n, 3 * PP), 0.2, 1.3)[:, None]
            dark = (dk * var * np.exp(-0.5 * (d / wd) ** 2)).astype(np.float32)
            if kind == "h":
                cols = np.arange(n)[:, None].repeat(2 * band, 1)
                page[idx, cols] *= (1 - dark)[..., None]
            else:
                rows = np.arange(n)[:, None].repeat(2 * band, 1)
                page[rows, idx] *= (1 - dark)[..., None]
            m = hz.setdefault("crease", np.zeros((297, 210), bool))
            ts = np.arange(0, 210 if kind == "h" else 297)
            ps = np.clip(c + ((ts - 105) if kind == "h" else (ts - 148.5)) * np.tan(a), 0, 296 if kind == "h" else 209)
            for dd in (-0.6, 0.0, 0.6):
                if kind == "h":
                    m[np.clip((ps + dd).astype(int), 0, 296), ts] = True
                else:
                    m[ts, np.clip((ps + dd).astype(int), 0, 209)] = True

    def sample(self, X, Y):
        return remap_any(self.h, np.asarray(X) * 2 - 0.5, np.asarray(Y) * 2 - 0.5)

    def shading(self, X, Y, light, ambient):
        """Lambert shading of the bent and folded sheet relative to a flat one."""
        if self._shade is None:
            gy, gx = np.gradient(self.h, 0.5)
            lx, ly, lz = light
            ratio = (-gx * lx - gy * ly + lz) / (lz * np.sqrt(1 + gx * gx + gy * gy))
            self._shade = (ambient + (1 - ambient) * ratio).astype(np.float32)
        s = self._shade
        return remap_any(s, np.asarray(X) * 2 - 0.5, np.asarray(Y) * 2 - 0.5, 1.0)


# ---------------------------------------------------------------------------------------------
# tone curves and the need of a mark


def make_tone(shoulder, s_curve, gamma=1 / 2.2):
    def tone(x):
        x = np.clip(x, 0, 1)
        x = x * (1 + shoulder) / (1 + shoulder * x)
        y = x**gamma
        return (1 - s_curve) * y + s_curve * smoothstep(y)

    return tone


def bisect_need(resp, floor):
    """The smallest darkening d (linear luminance, of the paper) whose spot the final image
    shows at least `floor` darker than the paper around it; None when no ink gets there."""

    def diff(d):
        v = resp(np.array([1.0, 1.0 - d]))
        return float(v[0] - v[1])

    if diff(0.93) < floor:
        return None
    lo, hi = 0.0, 0.93
    for _ in range(22):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if diff(mid) >= floor else (mid, hi)
    return hi


def rot_matrix(axis, angle):
    axis = np.asarray(axis, float) / (np.linalg.norm(axis) + 1e-12)
    R, _ = cv2.Rodrigues((axis * angle).reshape(3, 1))
    return R


# ---------------------------------------------------------------------------------------------
# the phone (and the document-scanner app built on it)


class Phone:
    def __init__(self, rng, paper: Paper, app=False, backlit=False, fiducials=()):
        self.rng, self.paper, self.app, self.backlit = rng, paper, app, backlit
        mp = rng.uniform(8, 14)
        asp = float(rng.choice([4 / 3, 3 / 2, 16 / 9], p=[0.7, 0.1, 0.2]))
        L = int(np.sqrt(mp * 1e6 * asp))
        S = int(L / asp)
        self.W, self.H = (L, S) if rng.random() < 0.5 else (S, L)
        self.f35 = rng.uniform(24, 28) if rng.random() < 0.8 else rng.uniform(46, 52)
        self.f = self.f35 / 43.27 * np.hypot(self.W, self.H)
        self.cx, self.cy = self.W / 2 + rng.normal(0, 5), self.H / 2 + rng.normal(0, 5)
        self.k1 = rng.normal(0, 0.012)
        self.tilt = (12 if app else 20) * np.sqrt(rng.random())
        self._pose(rng, rng.uniform(150, 320) if app else rng.uniform(100, 300))
        # light
        self.low = not app and not backlit and rng.random() < 0.22
        el, az = np.radians(rng.uniform(30, 75)), rng.uniform(0, 2 * np.pi)
        self.light = (np.cos(az) * np.cos(el), np.sin(az) * np.cos(el), np.sin(el))
        self.ambient = rng.uniform(0.45, 0.75)
        self.grad = (rng.uniform(0, 2 * np.pi), rng.uniform(0, 0.35))
        self.lamp = (
            (rng.uniform(-100, 310), rng.uniform(-100, 400), rng.uniform(120, 300), rng.uniform(0, 0.6))
            if rng.random() < 0.5
            else None
        )
        temps = {
            "daylight": (0.92, 0.98, 1.05),
            "tungsten": (1.0, 0.8, 0.55),
            "led": (1.0, 0.94, 0.84),
            "shade": (0.85, 0.95, 1.1),
        }
        ka, kb = rng.choice(list(temps), 2)
        self.cols = (np.array(temps[ka], np.float32), np.array(temps[kb], np.float32), rng.uniform(0, 1))
        self.words = [
            f"{'app ' if app else ''}photo {self.W * self.H / 1e6:.1f}MP {self.dpi:.0f}dpi tilt {self.tilt:.0f}",
            f"roll {np.degrees(self.roll) % 360:.0f}",
            f"f{self.f35:.0f}",
            f"{ka}/{kb} light",
        ]
        self.shadow_img = None
        if not backlit and rng.random() < (0.35 if not app else 0.2):
            self._shadow(rng)
        self.glare = None
        if not backlit and rng.random() < (0.3 if not app else 0.35):
            self._glare(rng, fiducials, flash=app and rng.random() < 0.5)
        self.vignette = rng.uniform(0.05, 0.3)
        # the sensor and the phone's processing
        self.E = rng.uniform(0.62, 0.9) if not backlit else rng.uniform(0.45, 0.65)
        self.noise = rng.uniform(0.028, 0.06) if self.low else rng.uniform(0.004, 0.012)
        self.defocus = rng.uniform(0, 1.2) if rng.random() < 0.7 else rng.uniform(1.2, 2.2)
        self.motion = (
            rng.uniform(0.5, 3.5 if not self.low else 5) if rng.random() < (0.3 if not self.low else 0.6) else 0.0
        )
        self.optics = rng.uniform(0.45, 0.8)
        self.shoulder, self.scurve = rng.uniform(0, 0.6), rng.uniform(0, 0.45)
        self.tone = make_tone(self.shoulder, self.scurve)
        self.hdr = (not app) and rng.random() < 0.35
        self.nr = (
            (rng.uniform(1.5, 2.6), rng.uniform(1.5, 2.5))
            if self.low
            else (rng.uniform(0.8, 1.2), rng.uniform(0.5, 1.0))
        )
        self.sharpen = (rng.uniform(0.3, 1.2), rng.uniform(0.8, 1.6))
        self.sat = rng.uniform(1.0, 1.3)
        self.wb = rng.uniform(0.6, 1.0)
        self.q = int(rng.uniform(40, 90))
        self.sub = 2 if rng.random() < 0.8 else 0
        if self.low:
            self.words.append(f"low light (noise {self.noise:.3f}, NR)")
        if self.hdr:
            self.words.append("HDR tone mapping")
        if backlit:
            self.words.append("held up against a window")
        if app:
            self._app_settings(rng)
        self.Lref = self._lref()

    # -- geometry
    def _pose(self, rng, dpi):
        self.roll = rng.uniform(0, 2 * np.pi)
        for _ in range(400):
            phi = rng.uniform(0, 2 * np.pi)
            R = rot_matrix([0, 0, 1], self.roll) @ rot_matrix([np.cos(phi), np.sin(phi), 0], np.radians(self.tilt))
            target = np.array([105 + rng.normal(0, 10), 148.5 + rng.normal(0, 12), 0.0])
            dist = self.f / (dpi / 25.4)
            C = target - dist * R.T[:, 2]
            self.R, self.C, self.dpi = R, C, dpi
            u, v = self.project(np.array([0, 210, 210, 0.0]), np.array([0, 0, 297, 297.0]))
            m = 0.03 * min(self.W, self.H)
            if u.min() > m and v.min() > m and u.max() < self.W - m and v.max() < self.H - m:
                return
            dpi *= 0.97
            if dpi < 95:
                dpi = rng.uniform(100, 300)
                self.roll = rng.uniform(0, 2 * np.pi)
        raise RuntimeError("no pose")

    def project(self, X, Y, h=None):
        P = np.stack([X, Y, -(h if h is not None else np.zeros_like(X))], -1) - self.C
        p = P @ self.R.T
        xn, yn = p[..., 0] / p[..., 2], p[..., 1] / p[..., 2]
        xd, yd = xn.copy(), yn.copy()
        for _ in range(6):
            k = 1 + self.k1 * (xd * xd + yd * yd)
            xd, yd = xn / k, yn / k
        return self.f * xd + self.cx, self.f * yd + self.cy

    def unproject(self, u, v):
        xn, yn = (u - self.cx) / self.f, (v - self.cy) / self.f
        k = 1 + self.k1 * (xn * xn + yn * yn)
        d = np.stack([xn * k, yn * k, np.ones_like(xn)], -1) @ self.R  # R.T applied to each ray
        t = -self.C[2] / d[..., 2]
        X0, Y0 = self.C[0] + t * d[..., 0], self.C[1] + t * d[..., 1]
        X, Y = X0, Y0
        if not self.paper.flat:
            for _ in range(3):
                h = self.paper.sample(X, Y)
                s = (self.C[2] + h) / self.C[2]
                X, Y = self.C[0] + (X0 - self.C[0]) * s, self.C[1] + (Y0 - self.C[1]) * s
        return X.astype(np.float32), Y.astype(np.float32)

    def ppmm(self, X, Y):
        """Photo pixels a mm of paper around (X, Y)."""
        u, v = self.project(np.array([X, X + 1.0, X]), np.array([Y, Y, Y + 1.0]))
        a, b = (u[1] - u[0], v[1] - v[0]), (u[2] - u[0], v[2] - v[0])
        return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))

    # -- light
    def _shadow(self, rng):
        """A hard shadow on the sheet: the phone's or a hand's (page mm canvas, 2 px/mm)."""
        self.sh_org = (-200.0, -200.0)
        img = np.zeros((1400, 1220), np.float32)
        what = str(rng.choice(["phone", "hand"]))
        side = int(rng.integers(4))
        along = rng.uniform(0.2, 0.8)
        edge = [(along * 210, 0), (210, along * 297), (along * 210, 297), (0, along * 297)][side]
        inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][side], float)
        depth = rng.uniform(15, 70)
        c = np.array(edge) + inward * depth
        ang = np.arctan2(inward[1], inward[0]) + rng.normal(0, 0.4)

        def pts(poly):
            q = np.asarray(poly, float)
            cs, sn = np.cos(ang), np.sin(ang)
            q = q @ np.array([[cs, sn], [-sn, cs]]) + c
            return np.round((q - self.sh_org) * 2 * 16).astype(np.int32)

        if what == "phone":  # the phone's outline, its long side along `ang`
            cv2.fillPoly(img, [pts([(-160, -38), (0, -38), (0, 38), (-160, 38)])], 1.0, cv2.LINE_AA, 4)
        else:
            cv2.ellipse(
                img,
                tuple(int(v) for v in ((c - inward * 45 - self.sh_org) * 2)),
                (95, 85),
                float(np.degrees(ang)),
                0,
                360,
                1.0,
                -1,
                cv2.LINE_AA,
            )
            for k, (spread, ln) in enumerate([(-0.5, 60), (-0.18, 75), (0.12, 78), (0.42, 68), (0.95, 50)]):
                a = spread + rng.normal(0, 0.05)
                tip = np.array([np.cos(a), np.sin(a)]) * ln
                q = pts([(-20, 0), tip])
                cv2.line(img, tuple(q[0]), tuple(q[1]), 1.0, int(2 * (16 if k else 20)), cv2.LINE_AA, 4)
        pen = rng.uniform(0.6, 3.0)
        self.shadow_img = cv2.GaussianBlur(img, (0, 0), pen * 2)
        self.shadow_level = rng.uniform(0.35, 0.6)
        self.words.append(f"{what}'s hard shadow ({self.shadow_level:.2f})")

    def shadow_at(self, X, Y):
        if self.shadow_img is None:
            return np.ones_like(X, dtype=np.float32)
        m = remap_any(self.shadow_img, (np.asarray(X) - self.sh_org[0]) * 2, (np.asarray(Y) - self.sh_org[1]) * 2, 0)
        return 1 - (1 - self.shadow_level) * m

    def _glare(self, rng, fiducials, flash):
        for _ in range(200):
            rx, ry = rng.uniform(20, 55), rng.uniform(20, 55)
            if flash:
                cx, cy = 105 + rng.normal(0, 25), 148.5 + rng.normal(0, 35)
            else:
                cx, cy = rng.uniform(20, 190), rng.uniform(30, 270)
            if all(np.hypot(cx - fx, cy - fy) > 1.9 * max(rx, ry) + 5 for fx, fy in fiducials):
                break
        else:
            return
        self.glare = (cx, cy, rx, ry, rng.uniform(0, np.pi), rng.uniform(0.25, 0.5), rng.uniform(0.9, 1.2))
        self.words.append(f"{'flash ' if flash else ''}glare {self.glare[5]:.2f} r{max(rx, ry):.0f}mm")

    def glare_at(self, X, Y):
        if self.glare is None:
            return np.zeros_like(X, dtype=np.float32)
        cx, cy, rx, ry, th, g0, _ = self.glare
        u = (X - cx) * np.cos(th) + (Y - cy) * np.sin(th)
        v = -(X - cx) * np.sin(th) + (Y - cy) * np.cos(th)
        q2 = (u / rx) ** 2 + (v / ry) ** 2
        return (g0 * np.exp(-0.5 * q2 * q2)).astype(np.float32)

    def light_at(self, X, Y, with_colour=True):
        a, s = self.grad
        d = ((X - 105) * np.cos(a) + (Y - 148.5) * np.sin(a)) / 150
        L = 1 + s * d
        if self.lamp is not None:
            lx, ly, ls, lk = self.lamp
            L = L + lk * np.exp(-((X - lx) ** 2 + (Y - ly) ** 2) / (2 * ls * ls))
        L = L * self.shadow_at(X, Y)
        if not self.paper.flat:
            L = L * self.paper.shading(X, Y, self.light, self.ambient)
        u, v = self.project(X, Y)
        r2 = ((u - self.cx) ** 2 + (v - self.cy) ** 2) / (self.cx**2 + self.cy**2)
        L = (L * (1 - self.vignette * r2)).astype(np.float32)
        if not with_colour:
            return L
        ca, cb, mixk = self.cols
        mix = np.clip(0.5 + d * mixk, 0, 1)[..., None]
        return (L[..., None] * (ca * (1 - mix) + cb * mix)).astype(np.float32)

    def _lref(self):
        xs, ys = np.meshgrid(np.linspace(20, 190, 9), np.linspace(25, 272, 12))
        return float(np.median(self.light_at(xs.astype(np.float32), ys.astype(np.float32), False)))

    # -- what a mark needs to show
    def resp(self, X, Y):
        Lrel = float(self.light_at(np.array([[X]], np.float32), np.array([[Y]], np.float32), False)[0, 0]) / self.Lref
        g = float(self.glare_at(np.array([[X]]), np.array([[Y]]))[0, 0])
        S = self.glare[6] if self.glare else 1.0

        def cam(r):
            return self.tone(np.clip(self.E * Lrel * ((1 - g) * r + g * S), 0, 1))

        if not self.app:
            return cam
        return lambda r: self.enhance_curve(cam(r) / max(float(cam(np.array([1.0]))[0]), 1e-3))

    def need(self, centre, floor):
        if self.low:
            floor += self.nr[1] * self.noise * 0.65 + 0.02  # noise reduction cores away faint detail
        if self.app and self.mode == "bw":
            floor = 0.5
        return bisect_need(self.resp(*centre), floor)

    def sigma_page(self, centre):
        s = np.hypot(0.5, np.hypot(self.optics, self.defocus * 0.55))
        s = np.hypot(s, self.motion / 3.5)
        s = np.hypot(s, self.nr[0] * (0.6 if self.low else 0.3))
        pp = self.ppmm(*centre)
        mm = s / pp
        if self.app:
            mm = np.hypot(mm, 0.5 / (self.out_dpi / 25.4))
        return float(mm * PP)

    # -- the picture
    def capture(self, page, rng):
        """The camera's linear RGB frame (before the phone's processing), float32."""
        W, H = self.W, self.H
        step = 8
        Wc, Hc = W // step + 1, H // step + 1
        uc = ((np.arange(Wc) + 0.5) * W / Wc - 0.5).astype(np.float32)
        vc = ((np.arange(Hc) + 0.5) * H / Hc - 0.5).astype(np.float32)
        U, V = np.meshgrid(uc, vc)
        Xc, Yc = self.unproject(U, V)
        # local scale, for the page's resolution and the paper's edge
        dxu = np.gradient(Xc, axis=1) / (W / Wc)
        dyu = np.gradient(Yc, axis=1) / (W / Wc)
        dxv = np.gradient(Xc, axis=0) / (H / Hc)
        dyv = np.gradient(Yc, axis=0) / (H / Hc)
        ppc = 1 / np.sqrt(np.abs(dxu * dyv - dyu * dxv) + 1e-12)
        inside = (Xc > 0) & (Xc < 210) & (Yc > 0) & (Yc < 297)
        pmax = float(ppc[inside].max()) if inside.any() else 5.0
        pp = min(PP, 1.5 * pmax)
        small = page if pp > PP * 0.85 else cv2.resize(page, None, fx=pp / PP, fy=pp / PP, interpolation=cv2.INTER_AREA)
        pp = small.shape[1] / A4[0]
        X = cv2.resize(Xc, (W, H), interpolation=cv2.INTER_LINEAR)
        Y = cv2.resize(Yc, (W, H), interpolation=cv2.INTER_LINEAR)
        img = cv2.remap(
            small, X * pp - 0.5, Y * pp - 0.5, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
        )
        pl = cv2.resize(ppc.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
        dist = np.minimum(np.minimum(X, 210 - X), np.minimum(Y, 297 - Y))
        mask = np.clip(dist * pl + 0.5, 0, 1)
        del pl, dist
        # the table (or the window behind a held-up sheet)
        if self.backlit:
            bg = window(rng, H, W)
        else:
            bg, words = table(rng, Xc, Yc, min(3.0, pmax))
            self.words.append(words)
            bg = bg_remap(bg, X, Y)
        m3 = mask[..., None]
        img = img * m3 + bg * (1 - m3)
        del bg
        # light on the scene (the window is its own light)
        light = self.light_at(Xc, Yc)
        light = cv2.resize(light, (W, H), interpolation=cv2.INTER_LINEAR)
        if self.backlit:
            img = img * (m3 * light + (1 - m3))
            self._thumbs(img, X, Y, rng)
        else:
            img *= light
        if self.glare is not None:
            g = cv2.resize(self.glare_at(Xc, Yc), (W, H), interpolation=cv2.INTER_LINEAR)[..., None] * m3
            img = img * (1 - g) + g * self.glare[6] * light
        del light, X, Y
        # exposure on the paper's white
        white = float(np.median(lum(img[::16, ::16])[mask[::16, ::16] > 0.99]))
        img *= self.E / max(white, 1e-4)
        # optics: lens softness, defocus, shake
        k = disc(self.defocus)
        if self.motion > 0:
            k = cv2.filter2D(np.pad(k, int(self.motion) + 1), -1, line_kernel(self.motion, rng.uniform(0, np.pi)))
        img = cv2.filter2D(img, -1, k / k.sum())
        img = cv2.GaussianBlur(img, (0, 0), self.optics)
        # the sensor: shot and read noise, demosaiced (so a little correlated)
        sig = np.sqrt(np.clip(img, 0, 1.5) * self.noise**2 * 2 + (self.noise * 0.25) ** 2)
        n = rng.standard_normal((H // 2 + 1, W // 2 + 1, 3), dtype=np.float32)
        n = cv2.resize(n, (W, H), interpolation=cv2.INTER_LINEAR) * 1.6
        img += sig * n
        del sig, n
        np.clip(img, 0, 1, out=img)
        return img.astype(np.float32, copy=False)

    def _thumbs(self, img, X, Y, rng):
        """Thumbs holding the sheet, on its side margins (off the marks and the markers)."""
        for side in rng.choice([0, 1], int(rng.integers(1, 3)), replace=False):
            cx = -4 if side == 0 else 214
            cy = rng.uniform(110, 190)
            d = ((X - cx) / 11) ** 2 + ((Y - cy) / 17) ** 2
            m = np.clip((1 - d) * 6, 0, 1)[..., None]
            skin = np.array([0.45, 0.25, 0.17], np.float32) * rng.uniform(0.3, 0.7)
            img *= 1 - m
            img += m * skin
        self.words.append("thumbs on the margins")

    def develop(self, img, rng):
        """The phone's processing of the linear frame: white balance, HDR, tone, noise reduction,
        sharpening, saturation; float sRGB-ish in [0, 1]."""
        W, H = self.W, self.H
        sub = img[::16, ::16]
        Ls = lum(sub)
        bright = sub[Ls >= np.percentile(Ls, 95)]  # white patch: the brightest part is taken for white
        gains = (1 / np.maximum(np.median(bright, 0), 1e-4)) ** self.wb
        gains = (gains / gains[1]).astype(np.float32)
        img *= gains
        if self.hdr:
            Y = np.maximum(lum(img), 1e-4)
            logY = np.log(Y)
            sm = cv2.resize(logY.astype(np.float32), (W // 8, H // 8), interpolation=cv2.INTER_AREA)
            base = cv2.bilateralFilter(sm, 0, 0.5, 12)
            base = cv2.resize(base, (W, H), interpolation=cv2.INTER_LINEAR)
            ref = float(np.percentile(base, 90))
            alpha = rng.uniform(0.4, 0.7)
            img *= np.exp((alpha - 1) * (base - ref) + rng.uniform(0, 0.2) * (logY - base))[..., None]
            del Y, logY, base
        img = lut_apply(np.clip(img, 0, 1), self.tone)
        # noise reduction: luma coring (faint detail goes with the noise), chroma blur
        ycc = cv2.cvtColor(img, cv2.COLOR_RGB2YCrCb)
        Yc = ycc[..., 0]
        base = cv2.GaussianBlur(Yc, (0, 0), self.nr[0])
        det = Yc - base
        thr = self.nr[1] * self.noise * 0.65
        ycc[..., 0] = base + np.sign(det) * np.maximum(np.abs(det) - thr, 0)
        cs = 4.0 if self.low else 1.5
        ycc[..., 1] = cv2.GaussianBlur(ycc[..., 1], (0, 0), cs)
        ycc[..., 2] = cv2.GaussianBlur(ycc[..., 2], (0, 0), cs)
        # sharpening, saturation
        amt, rad = self.sharpen
        Y2 = ycc[..., 0]
        ycc[..., 0] = Y2 + amt * (Y2 - cv2.GaussianBlur(Y2, (0, 0), rad))
        ycc[..., 1:] = 0.5 + (ycc[..., 1:] - 0.5) * self.sat
        return np.clip(cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB), 0, 1)

    def shoot(self, page, rng):
        img = self.develop(self.capture(page, rng), rng)
        if self.app:
            return self.scan_app(img, rng)
        self.words.append(f"JPEG {self.q}{'' if self.sub else ' 4:4:4'}")
        return encode(to8(img), self.q, self.sub), "; ".join(self.words)

    # -- the document-scanner app
    def _app_settings(self, rng):
        self.out_dpi = rng.uniform(150, 300)
        self.mode = str(rng.choice(["colour", "grey", "bw"], p=[0.55, 0.2, 0.25]))
        self.kwhite = rng.uniform(1.03, 1.12)
        self.bp_jitter = rng.uniform(0.9, 1.0)
        self.bp = 0.1
        self.gam = rng.uniform(0.95, 1.35)
        self.thr = (rng.uniform(0.7, 0.85), rng.uniform(0.015, 0.04))
        self.app_sharp = rng.uniform(0.4, 1.5) if rng.random() < 0.5 else 0.0
        self.crop_err = (rng.uniform(-1.5, 1.0), rng.uniform(0.2, 0.8))
        self.turn = int(rng.choice([0, 1, 2, 3], p=[0.7, 0.12, 0.06, 0.12]))
        self.app_q = int(rng.uniform(45, 90))

    def setup(self, garden, page):
        """The app's choices that depend on the sheet: colour kept for a garden; the black
        point the app's auto-levels will find (the darkest print, as the camera saw it)."""
        if not self.app:
            return
        if garden and self.mode != "colour":
            self.mode = "colour"
        # the app takes its black point from the picture's darkest pixels (scan_app); a mark is
        # checked against the weakest stretch it could get: the blackest ink, the lowest white
        rel = self.tone(np.array([self.E * 0.02, self.E]))
        self.bp, self.wp = float(rel[0] / rel[1]), 1 / self.kwhite

    def enhance_curve(self, x):
        out = np.clip((x - self.bp) / (self.wp - self.bp), 0, 1) ** self.gam
        if self.mode == "bw":
            t, w = self.thr
            out = 1 / (1 + np.exp(-(out - t) / w))
        return out

    def scan_app(self, img, rng):
        """Find the sheet's edge, flatten it to a page, 'enhance', save."""
        h = self.paper.sample(np.array([0.5, 209.5, 209.5, 0.5]), np.array([0.5, 0.5, 296.5, 296.5]))
        u, v = self.project(np.array([0, 210, 210, 0.0]), np.array([0, 0, 297, 297.0]), h.astype(float))
        src = np.stack([u, v], 1)
        bias, jit = self.crop_err
        mid = src.mean(0)
        pp = np.array([self.ppmm(x, y) for x, y in [(1, 1), (209, 1), (209, 296), (1, 296)]])
        out = (src - mid) / np.linalg.norm(src - mid, axis=1)[:, None]
        src = src + out * (bias * pp)[:, None] + rng.normal(0, 1, (4, 2)) * (jit * pp)[:, None]
        sp = self.out_dpi / 25.4
        Wo, Ho = int(round(210 * sp)), int(round(297 * sp))
        dst = np.array([[0, 0], [Wo, 0], [Wo, Ho], [0, Ho]], np.float32)
        M = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
        ratio = float(pp.mean()) / sp
        if ratio > 1.3:
            img = cv2.GaussianBlur(img, (0, 0), 0.45 * ratio)
        flat = cv2.warpPerspective(img, M, (Wo, Ho), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # enhancement: the paper's white estimated (max filter over ~12 mm), divided out
        sc = 8
        small = cv2.resize(flat, (Wo // sc, Ho // sc), interpolation=cv2.INTER_AREA)
        k = int(12 * sp / sc) | 1
        bg = cv2.dilate(small, np.ones((k, k), np.uint8))
        bg = cv2.GaussianBlur(bg, (0, 0), 6 * sp / sc)
        bg = cv2.resize(bg, (Wo, Ho), interpolation=cv2.INTER_LINEAR)
        norm = flat / np.maximum(bg, 0.04)
        self.bp = float(min(np.percentile(lum(norm[::4, ::4]), 0.5) * self.bp_jitter, 0.8))
        self.wp = float(min(1.0, max(1 / self.kwhite, self.bp + 0.25)))
        words = [f"app {self.mode} {self.out_dpi:.0f}dpi crop {bias:+.1f}mm"]
        if self.mode == "colour":
            out = self.enhance_curve(norm)
            Y = lum(out)[..., None]
            out = np.clip(Y + (out - Y) * rng.uniform(1.15, 1.5), 0, 1)
        else:
            out = self.enhance_curve(lum(norm))
            if self.mode == "bw":
                out = cv2.medianBlur(to8(out), 3).astype(np.float32) / 255
                words.append(f"B&W at {self.thr[0]:.2f}")
            out = np.repeat(out[..., None], 3, 2)
        if self.app_sharp:
            out = np.clip(out + self.app_sharp * (out - cv2.GaussianBlur(out, (0, 0), 1.0)), 0, 1)
            words.append("sharpened")
        out = np.rot90(out, self.turn)
        words.append(f"JPEG {self.app_q}")
        self.words += words
        return encode(to8(np.ascontiguousarray(out)), self.app_q, 2), "; ".join(self.words)


def disc(r):
    if r < 0.3:
        return np.ones((1, 1), np.float32)
    n = int(np.ceil(r)) + 1
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    k = np.clip(r + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    return k / k.sum()


def line_kernel(length, ang):
    n = int(np.ceil(length / 2)) + 1
    k = np.zeros((2 * n + 1, 2 * n + 1), np.float32)
    d = np.array([np.cos(ang), np.sin(ang)]) * length / 2
    p0, p1 = np.round((n - d) * 16).astype(int), np.round((n + d) * 16).astype(int)
    cv2.line(k, tuple(int(v) for v in p0), tuple(int(v) for v in p1), 1.0, 1, cv2.LINE_AA, 4)
    return k / max(k.sum(), 1e-6)


def bg_remap(tex, X, Y):
    img, (x0, y0, tpp) = tex
    return cv2.remap(img, (X - x0) * tpp - 0.5, (Y - y0) * tpp - 0.5, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def window(rng, H, W):
    """A bright window behind the held-up sheet: sky, a frame's bars (photo space)."""
    sky = rng.uniform(1.6, 3.0) * np.array([0.95, 1.0, 1.08], np.float32)
    img = np.empty((H // 8 + 1, W // 8 + 1, 3), np.float32)
    img[:] = sky
    img *= (1 + 0.05 * field(rng, *img.shape[:2], 30))[..., None]
    for _ in range(int(rng.integers(1, 4))):
        if rng.random() < 0.5:
            x = int(rng.integers(0, img.shape[1]))
            img[:, max(0, x - 4) : x + 4] = 0.15
        else:
            y = int(rng.integers(0, img.shape[0]))
            img[max(0, y - 4) : y + 4] = 0.15
    return cv2.resize(img, (W, H), interpolation=cv2.INTER_LINEAR)


def table(rng, Xc, Yc, tpp):
    """The table the sheet lies on, in the paper's plane (mm), with the sheet's soft shadow and
    a few dice and a pencil beside it: ((image, (x0, y0, px a mm)), words)."""
    x0, x1 = max(float(Xc.min()), -1500.0) - 5, min(float(Xc.max()), 1710.0) + 5
    y0, y1 = max(float(Yc.min()), -1500.0) - 5, min(float(Yc.max()), 1800.0) + 5
    tpp = max(0.8, min(tpp, 2600 / max(x1 - x0, y1 - y0)))
    w, h = int((x1 - x0) * tpp) + 2, int((y1 - y0) * tpp) + 2
    xs = (x0 + (np.arange(w) + 0.5) / tpp).astype(np.float32)
    ys = (y0 + (np.arange(h) + 0.5) / tpp).astype(np.float32)
    kind = str(
        rng.choice(["wood", "light desk", "dark desk", "checked cloth", "felt mat"], p=[0.35, 0.2, 0.15, 0.15, 0.15])
    )
    if kind == "wood":  # planks: late-wood lines bending round knots, each plank its own shade
        th = rng.uniform(0, np.pi)
        sl = xs[None, :] * np.cos(th) + ys[:, None] * np.sin(th)
        t = -xs[None, :] * np.sin(th) + ys[:, None] * np.cos(th)
        plank = rng.uniform(90, 160)
        pid = np.floor(t / plank)
        shade = (1 + 0.12 * np.sin(pid * 12.9898 + rng.uniform(0, 6))).astype(np.float32)
        warp = field(rng, h, w, 50 * tpp) * rng.uniform(6, 14) + 40 * np.sin(pid * 7.3)
        ring = 0.5 + 0.5 * np.sin(2 * np.pi * (t + warp + 0.02 * sl) / rng.uniform(3, 9))
        fibre = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.6)
        base = np.array([[0.35, 0.16, 0.06], [0.5, 0.3, 0.14], [0.2, 0.09, 0.035]], np.float32)[int(rng.integers(3))]
        tone = shade * (1 - 0.14 * ring**4 + 0.03 * fibre) * (1 + 0.05 * field(rng, h, w, 30 * tpp))
        tone *= 1 - 0.55 * (np.abs((t % plank) - plank / 2) > plank / 2 - 0.5)
        img = tone[..., None] * base
    elif kind == "light desk":
        img = (
            np.ones((h, w, 3), np.float32)
            * rng.uniform(0.45, 0.65)
            * np.array([1, 0.97, rng.uniform(0.85, 1)], np.float32)
        )
        img *= (1 + 0.03 * field(rng, h, w, 2 * tpp))[..., None]
    elif kind == "dark desk":
        img = np.ones((h, w, 3), np.float32) * rng.uniform(0.02, 0.06)
        img *= (1 + 0.2 * field(rng, h, w, 1.5 * tpp))[..., None]
    elif kind == "checked cloth":
        sq = rng.uniform(10, 25)
        stripe = ((np.floor(xs[None, :] / sq) % 2) + (np.floor(ys[:, None] / sq) % 2)) / 2
        c1 = np.array([[0.55, 0.04, 0.04], [0.05, 0.1, 0.4], [0.05, 0.25, 0.06]], np.float32)[int(rng.integers(3))]
        img = np.array([0.7, 0.7, 0.68], np.float32) * (1 - stripe[..., None]) + c1 * stripe[..., None]
        img *= (1 + 0.04 * np.sin(xs[None, :] * 2 * np.pi) * np.sin(ys[:, None] * 2 * np.pi))[..., None]
        img *= (1 + 0.1 * field(rng, h, w, 40 * tpp))[..., None]
    else:
        img = (
            np.ones((h, w, 3), np.float32)
            * np.array([[0.04, 0.15, 0.06], [0.03, 0.06, 0.18]], np.float32)[int(rng.integers(2))]
        )
        img *= (1 + 0.08 * field(rng, h, w, 1.2 * tpp))[..., None]
    # the sheet's shadow on the table, and things lying about
    sh = np.zeros((h, w), np.float32)
    off = rng.normal(0, 1.5, 2)
    p = np.array([[0, 0], [210, 0], [210, 297], [0, 297]]) + off
    cv2.fillPoly(sh, [np.round(((p - [x0, y0]) * tpp) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    sh = cv2.GaussianBlur(sh, (0, 0), max(0.5, rng.uniform(1, 4) * tpp))
    img *= (1 - rng.uniform(0.2, 0.45) * sh)[..., None]
    things = []
    for _ in range(int(rng.integers(0, 5))):
        for _try in range(20):
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            if not (-25 < cx < 235 and -25 < cy < 322):
                break
        else:
            continue
        c = np.array([cx, cy])
        if rng.random() < 0.75:  # a die
            s, a = 8.0, rng.uniform(0, np.pi / 2)
            col = np.array([[0.9, 0.25, 0.02], [0.05, 0.35, 0.08], [0.7, 0.03, 0.03], [0.8, 0.8, 0.78]], np.float32)[
                int(rng.integers(4))
            ]
            sq = (
                np.array([[-s, -s], [s, -s], [s, s], [-s, s]])
                @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
                + c
            )
            q = np.round((sq - [x0, y0]) * tpp * 16).astype(np.int32)
            cv2.fillPoly(img, [q + int(2 * tpp * 16)], (0.02, 0.02, 0.02), cv2.LINE_AA, 4)
            cv2.fillPoly(img, [q], tuple(float(v) for v in col), cv2.LINE_AA, 4)
            for _k in range(int(rng.integers(1, 7))):
                pc = c + rng.uniform(-5, 5, 2)
                cv2.circle(
                    img,
                    tuple(int(v) for v in ((pc - [x0, y0]) * tpp)),
                    max(1, int(1.2 * tpp)),
                    (0.85, 0.85, 0.85),
                    -1,
                    cv2.LINE_AA,
                )
            things.append("die")
        else:  # a pencil
            a = rng.uniform(0, np.pi)
            d = np.array([np.cos(a), np.sin(a)]) * 85
            q = np.round((np.array([c - d, c + d]) - [x0, y0]) * tpp * 16).astype(np.int32)
            cv2.line(
                img,
                tuple(int(v) for v in q[0]),
                tuple(int(v) for v in q[1]),
                (0.7, 0.45, 0.02),
                max(1, int(7 * tpp)),
                cv2.LINE_AA,
                4,
            )
            things.append("pencil")
    words = kind + (f" with {', '.join(things)}" if things else "")
    return (img.astype(np.float32), (x0, y0, tpp)), words


# ---------------------------------------------------------------------------------------------
# the sheet-fed scanner


class Feeder:
    """A multifunction printer's sheet feeder: a CIS line sensor, the paper pulled past it."""

    def __init__(self, rng, paper: Paper, colour_ok: bool, white: float, dark: float):
        self.paper, self.white, self.dark = paper, white, dark
        self.dpi = int(rng.choice([150, 200, 300], p=[0.3, 0.4, 0.3]))
        modes = ["colour", "grey", "bw"] if colour_ok else ["colour"]
        self.mode = str(rng.choice(modes, p=[0.6, 0.25, 0.15] if colour_ok else [1.0]))
        self.skew = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5))
        self.off = np.clip(rng.normal(0, [0.8, 1.0]), -2, 2)
        self.feed = 1 + rng.normal(0, 0.006)
        self.wob = (rng.uniform(0, 0.3), rng.uniform(20, 80), rng.uniform(0, 6))
        self.flip = rng.random() < 0.15
        self.blur = rng.uniform(0.5, 0.9)
        self.fringe = rng.uniform(0.15, 0.5)
        self.streaks = [
            (rng.uniform(5, 205), rng.uniform(1, 3), rng.choice([-1, 1]) * rng.uniform(0.1, 0.4))
            for _ in range(int(rng.integers(1, 3)) if rng.random() < 0.4 else 0)
        ]
        self.backing = rng.choice([0.88, 0.45, 0.05])
        self.gain = rng.uniform(1.0, 1.1)
        self.gamma = rng.uniform(1 / 2.4, 1 / 1.8)
        self.thr = (rng.uniform(0.5, 0.7), rng.uniform(0.01, 0.04))
        self.noise = rng.uniform(0.003, 0.01)
        self.q = int(rng.uniform(40, 90))

    def curve(self, x):
        y = np.clip(x * self.gain / self.white, 0, 1) ** self.gamma
        if self.mode == "bw":  # the threshold set between the print's black and the paper
            t, w = self.thr
            yb = min(1.0, self.dark * self.gain) ** self.gamma
            y = 1 / (1 + np.exp(-(y - (yb + (1 - yb) * t)) / w))
        return y

    def need(self, centre, floor):
        if self.mode == "bw":
            floor = 0.5
        return bisect_need(lambda r: self.curve(r * self.white), floor)

    def sigma_page(self, centre):
        return float(np.hypot(self.blur, 0.5) / (self.dpi / 25.4) * PP)

    def shoot(self, page, rng, hz):
        sp = self.dpi / 25.4
        Wo, Ho = int(round(210 * sp)), int(round(297 * sp))
        pp = min(PP, sp * 1.3)
        small = page if pp > PP * 0.9 else cv2.resize(page, None, fx=pp / PP, fy=pp / PP, interpolation=cv2.INTER_AREA)
        pp = small.shape[1] / A4[0]
        v, u = np.mgrid[0:Ho, 0:Wo].astype(np.float32)
        xs, ys = (u + 0.5) / sp, (v + 0.5) / sp
        a, per, ph = self.wob
        yf = (ys - a * np.sin(2 * np.pi * ys / per + ph)) / self.feed
        th = np.radians(self.skew)
        cx, cy = 105 + self.off[0], 148.5 + self.off[1]
        X = np.cos(th) * (xs - cx) + np.sin(th) * (yf - cy) + 105
        Y = -np.sin(th) * (xs - cx) + np.cos(th) * (yf - cy) + 148.5
        X, Y = X.astype(np.float32), Y.astype(np.float32)
        del u, v, xs, ys, yf
        chans = []
        for c, dy in enumerate((self.fringe, 0.0, -self.fringe)):  # R, G, B lit at slightly different times
            chans.append(
                cv2.remap(
                    np.ascontiguousarray(small[..., c]),
                    X * pp - 0.5,
                    (Y + dy / sp) * pp - 0.5,
                    cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT,
                    borderValue=-1,
                )
            )
        img = np.stack(chans, -1)
        out = img[..., 1] < 0
        img[out] = self.backing
        # the paper's edge throws a thin shadow on the backing
        edge = np.abs(np.minimum(np.minimum(X, 210 - X), np.minimum(Y, 297 - Y)))
        img *= (1 - 0.5 * np.exp(-edge * sp / 1.5) * out)[..., None]
        words = [f"sheet feeder {self.mode} {self.dpi}dpi skew {self.skew:.1f}"]
        if self.paper.lines:  # a fold lifts off the glass: out of focus there, a shadow line beside it
            near = np.zeros((Ho, Wo), np.float32)
            crease = cv2.resize(hz["crease"].astype(np.float32), (Wo, Ho), interpolation=cv2.INTER_LINEAR)
            near = cv2.GaussianBlur(crease, (0, 0), 3 * sp)
            near = np.clip(near / max(float(near.max()), 1e-6) * 1.5, 0, 1)[..., None]
            img = img * (1 - near) + cv2.GaussianBlur(img, (0, 0), 2.0) * near
            shift = cv2.warpAffine(crease, np.float32([[1, 0, 0.5 * sp], [0, 1, 0.5 * sp]]), (Wo, Ho))
            img *= (1 - 0.15 * np.clip(shift, 0, 1))[..., None]
        img = cv2.GaussianBlur(img, (0, 0), self.blur)
        for x, wd, k in self.streaks:  # dust on the glass (dark) or a dirty calibration strip (light)
            c0 = int(x * sp)
            w = max(1, int(wd))
            img[:, c0 : c0 + w] = np.minimum(1.1, img[:, c0 : c0 + w] * (1 - k))
            words.append(f"{'dark' if k > 0 else 'light'} streak at {x:.0f}mm")
            m = hz.setdefault("streak", np.zeros((297, 210), bool))
            m[:, int(np.clip(x, 0, 209))] = True
        img += rng.standard_normal(img.shape, dtype=np.float32) * self.noise
        img = np.clip(img, 0, 1.2)
        if self.mode == "colour":
            img = self.curve(img)
        else:
            img = np.repeat(self.curve(lum(img))[..., None], 3, 2)
        if self.flip:
            img = img[::-1, ::-1]
            words.append("fed upside down")
        words.append(f"JPEG {self.q}")
        return encode(to8(np.ascontiguousarray(img)), self.q, 2), "; ".join(words)


# ---------------------------------------------------------------------------------------------
# a photo


def fiducial_centres(at, T):
    """The scan markers' centres on the paper (mm), where `sheetgen.layout.scanmarks` prints them."""
    w, h = A4[0] - 2 * at.left, A4[1] - 2 * at.top
    half = scanmarks.MARKER / 2
    pts = [[at.left + x + half, at.top + y + half] for x, y in scanmarks.marker_corners(w, h)]
    return [tuple(p) for p in to_paper(pts, T)]


def photo(layout, page_id, rng):
    """(RGB uint8 photo, truth, kinds) of a marked page of `layout`."""
    garden = grid_cells(layout, page_id)
    lang, players, pdf, at, boxes = random_page(layout, page_id, rng, 0.3)
    how = str(rng.choice(["phone", "app", "feeder"], p=[0.45, 0.35, 0.2]))
    backlit = how == "phone" and rng.random() < 0.12
    folded = rng.random() < 0.25
    paper = Paper(rng, folded, bend=how != "feeder" and rng.random() < 0.5)
    page, T, pwords, gaps = print_sheet(pdf, rng)
    hz: dict = {}
    for cx, wd in gaps:  # a white streak down the page, where the toner ran short
        hz.setdefault("tonergap", np.zeros((297, 210), bool))[:, int(max(0, cx - wd)) : int(min(210, cx + wd)) + 1] = (
            True
        )
    words = ["print: " + ", ".join(pwords)]
    if rng.random() < (0.9 if backlit else 0.35):
        words.append(show_through(page, layout, page_id, lang, players, rng, backlit, hz))
    if how == "feeder":
        Ls = lum(page[::8, ::8])
        white = float(np.median(Ls))
        cap = Feeder(rng, paper, colour_ok=not garden, white=white, dark=float(np.percentile(Ls, 0.3)) / white)
    else:
        cap = Phone(rng, paper, app=how == "app", backlit=backlit, fiducials=fiducial_centres(at, T))
        cap.setup(bool(garden), page)
    truth, kinds, patches, mwords = mark_sheet(page, at, T, boxes, garden, rng, cap, hz)
    words += mwords
    readable = [b for b in boxes if b.kind != "write" or b.field in garden]
    if patches and rng.random() < 0.5:
        w = smudge(page, at, T, readable, patches, rng, hz)
        if w:
            words.append(w)
    nf = int(rng.integers(1, 4)) if rng.random() < 0.35 else 0
    for _ in range(nf):
        fingerprint(page, rng, hz)
    if nf:
        words.append(f"{nf} fingerprint{'s' if nf > 1 else ''}")
    if rng.random() < 0.2:
        w = stain(page, rng, hz)
        if w:
            words.append(w)
    if folded:
        paper.creases(page, rng, hz)
        words.append("folded in " + ("quarters" if len(paper.lines) == 2 else "half"))
    if how == "feeder":
        img, desc = cap.shoot(page, rng, hz)
    else:
        if cap.glare is not None:
            yy, xx = np.mgrid[0:297, 0:210].astype(np.float32) + 0.5
            hz["glare"] = cap.glare_at(xx, yy) > 0.15
        if cap.shadow_img is not None:
            yy, xx = np.mgrid[0:297, 0:210].astype(np.float32) + 0.5
            s = cap.shadow_at(xx, yy)
            lvl = cap.shadow_level
            hz["shadowedge"] = (s > lvl + 0.1 * (1 - lvl)) & (s < 1 - 0.1 * (1 - lvl))
        img, desc = cap.shoot(page, rng)
    # the hazards each box lies under
    for b in readable:
        q = box_quad(b, at, T)
        x0, y0 = np.clip(np.floor(q.min(0)).astype(int), 0, [209, 296])
        x1, y1 = np.clip(np.ceil(q.max(0)).astype(int), 0, [209, 296])
        extra = [f"+{name}" for name, m in sorted(hz.items()) if m[y0 : y1 + 1, x0 : x1 + 1].any()]
        if extra:
            kinds[b.field] = " ".join([kinds.get(b.field, "none/empty"), *extra])
    kinds["_photo"] = desc + " | " + "; ".join(words)
    return img, truth, kinds
