"""An outside tester's photos: written from the README and the docs alone, apart from the reader.

The page is rendered to a PDF by the library (the print a printer gets: scan marks and
QR code included), rasterised by poppler's pdftoppm at 150-300 dpi, marked by hand-like
strokes (pencils HB / 2B / mechanical, black and blue ballpoint, felt-tips; ticks,
crosses, slashes, fills, scribbles, dots, rings round round boxes, strays over a box's
border that never reach a neighbour's inside; Harvest Dice garden cells in orange, green,
red colour pencil or felt-tip, or grey pencil / ballpoint for '?'), then photographed:
a pinhole camera at any roll and up to 20 degrees of tilt, the sheet at 100-300 dpi on
a table, lens blur, uneven light (gradient, vignetting, a soft shadow), a colour cast,
sensor noise and JPEG 40-90.

photo(layout, page_id, rng) -> (RGB uint8 image, truth {field: value}, kinds {field: str})
"""

from __future__ import annotations

import math
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

PAPER = (210.0, 297.0)  # A4: the sheet is centred on it by the renderer
TICK = ("check", "round", "mini")
DICE = {"C": "orange", "S": "green", "T": "red"}

_RASTER: dict = {}  # (layout id, page, dpi) -> RGB uint8 page raster
_PAGE: dict = {}  # (layout id, page) -> PageDisplay
LAST: dict = {}  # the last photo's homography, paper mm -> photo px (to crop a box to look at)


def _page(layout, page_id):
    key = (layout.id, page_id)
    if key not in _PAGE:
        _PAGE[key] = layout.document("en", None, [page_id], scan_marks=True).pages[0]
    return _PAGE[key]


def _raster(layout, page_id, dpi):
    key = (layout.id, page_id, dpi)
    if key not in _RASTER:
        from sheetgen.render import render_pdf

        pdf = render_pdf(layout, pages=[page_id], paper="a4")
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "p.pdf").write_bytes(pdf)
            subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", f"{d}/p.pdf", f"{d}/p"], check=True)
            img = cv2.cvtColor(cv2.imread(f"{d}/p.png"), cv2.COLOR_BGR2RGB)
        if len(_RASTER) > 12:
            _RASTER.pop(next(iter(_RASTER)))
        _RASTER[key] = img
    return _RASTER[key].copy()


# ----------------------------------------------------------------- pens

PENS = {
    # name: (RGB, opacity range, width mm range, grain 0..1)
    "hb": ((72, 72, 78), (0.55, 0.8), (0.35, 0.6), 0.55),
    "2b": ((45, 45, 52), (0.7, 0.92), (0.5, 0.8), 0.45),
    "mech": ((80, 80, 88), (0.5, 0.75), (0.28, 0.4), 0.4),
    "ballblack": ((28, 28, 38), (0.85, 0.97), (0.3, 0.45), 0.12),
    "ballblue": ((28, 48, 150), (0.85, 0.97), (0.3, 0.45), 0.12),
    "felt": (None, (0.88, 0.97), (0.8, 1.4), 0.05),
}
FELT_COLOURS = [(22, 22, 22), (25, 45, 165), (20, 95, 45), (95, 30, 120)]
COLOUR_PENCIL = {
    "orange": [(238, 128, 28), (245, 110, 20), (230, 140, 40)],
    "green": [(60, 160, 55), (40, 140, 60), (85, 170, 40)],
    "red": [(212, 35, 35), (200, 25, 45), (225, 50, 30)],
}
COLOUR_FELT = {"orange": (250, 120, 10), "green": (30, 150, 50), "red": (220, 20, 30)}


class Pen:
    def __init__(self, name, rng, colour=None, grain=None, alpha=None, width=None):
        col, (a0, a1), (w0, w1), gr = PENS.get(name, PENS["hb"])
        if name == "felt" and colour is None:
            colour = FELT_COLOURS[rng.integers(len(FELT_COLOURS))]
        self.name = name
        self.colour = np.array(colour if colour is not None else col, np.float32)
        self.alpha = alpha if alpha is not None else rng.uniform(a0, a1)
        self.width = width if width is not None else rng.uniform(w0, w1)
        self.grain = grain if grain is not None else gr


# ----------------------------------------------------------------- strokes (mm, box-local)


def _jitter(pts, rng, amount):
    """Points resampled every ~0.25 mm with a smooth wobble of `amount` mm."""
    pts = np.asarray(pts, float)
    out = [pts[0]]
    for a, b in zip(pts[:-1], pts[1:]):
        n = max(2, int(np.hypot(*(b - a)) / 0.25))
        t = np.linspace(0, 1, n)[1:, None]
        out.extend(a + (b - a) * t)
    out = np.array(out)
    if amount > 0 and len(out) > 3:
        w = rng.normal(0, amount, (len(out), 2))
        k = np.ones(7) / 7
        w = np.stack([np.convolve(w[:, i], k, mode="same") for i in range(2)], 1) * 2.0
        out = out + w
    return out


def _curve(a, b, bow, n=12):
    """A slightly bowed line from a to b."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    t = np.linspace(0, 1, n)[:, None]
    d = b - a
    nrm = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
    return a + d * t + nrm * bow * np.sin(np.pi * t) * np.hypot(*d)


def _strokes(style, w, h, rng, rnd=False):
    """The strokes (list of (N,2) mm arrays, box top-left origin) of a mark of `style`
    in a w x h box, and whether it strays outside (wanted overshoot, clipped later)."""
    s = min(w, h)
    cx, cy = w / 2, h / 2
    out = []
    over = rng.uniform(1.0, 2.0) if rng.random() < 0.3 else 0.0  # mm past the border
    if style == "tick":
        # short down-right stroke then a long one up-right, one motion
        a = (cx - s * rng.uniform(0.25, 0.35), cy + s * rng.uniform(-0.05, 0.1))
        b = (cx - s * rng.uniform(0.0, 0.12), cy + s * rng.uniform(0.25, 0.35))
        c = (cx + s * rng.uniform(0.3, 0.42) + over * 0.7, cy - s * rng.uniform(0.3, 0.42) - over * 0.7)
        out.append(
            np.vstack([_curve(a, b, rng.uniform(-0.05, 0.05), 6), _curve(b, c, rng.uniform(-0.08, 0.08), 14)[1:]])
        )
    elif style == "cross":
        e = s * rng.uniform(0.28, 0.4)
        o = over * 0.7
        out.append(
            _curve(
                (cx - e - o, cy - e - o),
                (cx + e + o * rng.random(), cy + e + o * rng.random()),
                rng.uniform(-0.06, 0.06),
            )
        )
        out.append(
            _curve(
                (cx + e + o * rng.random(), cy - e - o * rng.random()),
                (cx - e - o, cy + e + o),
                rng.uniform(-0.06, 0.06),
            )
        )
    elif style == "slash":
        e = s * rng.uniform(0.3, 0.42)
        o = over * 0.7
        if rng.random() < 0.7:
            out.append(_curve((cx - e - o, cy + e + o), (cx + e + o, cy - e - o), rng.uniform(-0.06, 0.06)))
        else:
            out.append(_curve((cx - e - o, cy - e - o), (cx + e + o, cy + e + o), rng.uniform(-0.06, 0.06)))
    elif style == "fill":
        m = s * rng.uniform(0.08, 0.16) - over * 0.5
        pts = []
        n = int(rng.uniform(6, 11) * s / 8)
        vertical = rng.random() < 0.5
        for i in range(n + 1):
            f = i / n
            p = m + f * (s - 2 * m)
            if vertical:
                pts += [(p, m), (p + (s - 2 * m) / n / 2, s - m)]
            else:
                pts += [(m, p), (s - m, p + (s - 2 * m) / n / 2)]
        pts = np.array(pts) + [(w - s) / 2, (h - s) / 2]
        out.append(np.array(pts))
    elif style == "scribble":
        n = int(rng.integers(3, 6))
        t = np.linspace(0, n * 2 * np.pi, n * 14)
        rx, ry = s * rng.uniform(0.22, 0.32), s * rng.uniform(0.22, 0.32)
        drift = np.linspace(-s * 0.15, s * 0.15, len(t))
        pts = np.stack(
            [cx + rx * np.cos(t) * rng.uniform(0.8, 1) + drift, cy + ry * np.sin(t * rng.uniform(0.9, 1.1))], 1
        )
        out.append(pts)
    elif style == "dot":
        r = s * rng.uniform(0.12, 0.2)
        pts = []
        for k in range(4):
            rr = r * (1 - k / 4)
            t = np.linspace(0, 2 * np.pi, 14)
            pts.append(np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t)], 1))
        out.append(np.vstack(pts) + rng.normal(0, s * 0.04, 2))
    elif style == "ring":  # a circle drawn round a round box
        r = s / 2 + rng.uniform(0.5, 1.6)
        t0 = rng.uniform(0, 2 * np.pi)
        t = t0 + np.linspace(0, 2 * np.pi * rng.uniform(1.05, 1.25), 40)
        rr = r * (1 + 0.05 * np.sin(t * 2 + rng.uniform(0, 6)))
        out.append(np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t) * rng.uniform(0.92, 1.05)], 1))
    elif style == "hatch":  # garden colour fill, diagonal back-and-forth
        m = s * rng.uniform(0.06, 0.14)
        n = int(rng.uniform(8, 14))
        pts = []
        for i in range(n + 1):
            f = i / n
            a = (m + f * (w - 2 * m), m)
            b = (m, m + f * (h - 2 * m))
            pts += [a, b] if i % 2 == 0 else [b, a]
        for i in range(1, n + 1):
            f = i / n
            a = (w - m, m + f * (h - 2 * m))
            b = (m + f * (w - 2 * m), h - m)
            pts += [a, b] if i % 2 == 0 else [b, a]
        out.append(np.array(pts))
    elif style == "bigx":  # garden: a big cross
        e = s * 0.36
        out.append(_curve((cx - e, cy - e), (cx + e, cy + e), rng.uniform(-0.05, 0.05)))
        out.append(_curve((cx + e, cy - e), (cx - e, cy + e), rng.uniform(-0.05, 0.05)))
    return out, over > 0


# ----------------------------------------------------------------- drawing


def _clip_points(pts, box, others, pad):
    """Pull each point towards the box centre until it is `pad` mm clear of every other box."""
    x, y, w, h = box
    c = np.array([x + w / 2, y + h / 2])
    out = pts.copy()
    for i, p in enumerate(out):
        q = p
        for _ in range(40):
            inside = np.any(
                (q[0] > others[:, 0] - pad)
                & (q[0] < others[:, 2] + pad)
                & (q[1] > others[:, 1] - pad)
                & (q[1] < others[:, 3] + pad)
            )
            if not inside:
                break
            q = c + (q - c) * 0.93
        out[i] = q
    return out


def _draw(img, strokes_mm, pen, ppmm, rng):
    """Draw the strokes (page mm) on the RGB page raster `img` (float32, in place)."""
    allp = np.vstack(strokes_mm)
    marg = pen.width + 1.0
    x0 = max(int((allp[:, 0].min() - marg) * ppmm), 0)
    y0 = max(int((allp[:, 1].min() - marg) * ppmm), 0)
    x1 = min(int((allp[:, 0].max() + marg) * ppmm) + 1, img.shape[1])
    y1 = min(int((allp[:, 1].max() + marg) * ppmm) + 1, img.shape[0])
    ss = 3  # supersampling
    H, W = (y1 - y0) * ss, (x1 - x0) * ss
    grain = None
    if pen.grain > 0:
        g = rng.random((H // ss + 2, W // ss + 2)).astype(np.float32)
        g = cv2.resize(g, (W, H), interpolation=cv2.INTER_NEAREST)
        grain = 1 - pen.grain * g**1.5
    patch = img[y0:y1, x0:x1]
    for pts in strokes_mm:
        cov = np.zeros((H, W), np.uint8)
        p = (pts - [x0 / ppmm, y0 / ppmm]) * ppmm * ss
        n = len(p)
        # pressure: light at the ends, wavering in between
        t = np.linspace(0, 1, n)
        press = np.clip(0.75 + 0.25 * np.sin(np.pi * t) + rng.normal(0, 0.06, n).cumsum() * 0.3, 0.55, 1.0)
        for i in range(n - 1):
            th = max(1, int(round(pen.width * ppmm * ss * (0.75 + 0.35 * press[i]))))
            lo = np.floor(np.minimum(p[i], p[i + 1]) - th - 2).astype(int)
            hi = np.ceil(np.maximum(p[i], p[i + 1]) + th + 2).astype(int)
            lo = np.maximum(lo, 0)
            hi = np.minimum(hi, [W, H])
            if np.any(hi <= lo):
                continue
            seg = np.zeros((hi[1] - lo[1], hi[0] - lo[0]), np.uint8)
            a = tuple(int(v * 16) for v in p[i] - lo)
            b = tuple(int(v * 16) for v in p[i + 1] - lo)
            cv2.line(seg, a, b, int(255 * press[i]), th, cv2.LINE_AA, 4)
            sub = cov[lo[1] : hi[1], lo[0] : hi[0]]
            np.maximum(sub, seg, out=sub)
        c = cov.astype(np.float32) / 255
        if grain is not None:
            c = c * grain
        c = cv2.resize(c, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        a = (c * pen.alpha)[..., None]
        patch[:] = patch * (1 - a) + pen.colour * a


# ----------------------------------------------------------------- the page's marks


def _mark_page(layout, page_id, img, ppmm, rng):
    page = _page(layout, page_id)
    boxes = page.boxes()
    ox, oy = (PAPER[0] - page.width) / 2, (PAPER[1] - page.height) / 2
    rects = np.array([[b.x + ox, b.y + oy, b.x + ox + b.w, b.y + oy + b.h] for b in boxes])
    readable = [i for i, b in enumerate(boxes) if b.kind in TICK or (b.field or "").startswith("garden_r")]
    truth, kinds = {}, {}
    share = rng.uniform(0.2, 0.7)
    chosen = set(rng.choice(readable, size=max(1, int(round(share * len(readable)))), replace=False).tolist())
    habit = rng.choice(["hb", "2b", "mech", "ballblack", "ballblue", "felt"])  # the player's usual pen
    habit_styles = list(rng.choice(["tick", "cross", "slash", "fill", "scribble", "dot"], size=2, replace=False))
    for i in readable:
        b = boxes[i]
        garden = b.kind not in TICK
        if i not in chosen:
            truth[b.field] = "" if garden else False
            kinds[b.field] = "none/empty"
            continue
        box = (b.x + ox, b.y + oy, b.w, b.h)
        others = np.delete(rects, i, axis=0)
        hard = []
        if garden:
            r = rng.random()
            if r < 0.8:
                letter = rng.choice(list(DICE))
                hue = DICE[letter]
                if rng.random() < 0.8:
                    cols = COLOUR_PENCIL[hue]
                    pen = Pen(
                        "hb",
                        rng,
                        colour=cols[rng.integers(len(cols))],
                        grain=rng.uniform(0.3, 0.6),
                        alpha=rng.uniform(0.65, 0.9),
                        width=rng.uniform(0.6, 1.0),
                    )
                    pname = f"cpencil-{hue}"
                else:
                    pen = Pen("felt", rng, colour=COLOUR_FELT[hue], alpha=rng.uniform(0.85, 0.95))
                    pname = f"cfelt-{hue}"
                truth[b.field] = str(letter)
            else:
                pname = rng.choice(["hb", "2b", "mech", "ballblack"])
                pen = Pen(pname, rng)
                pname = f"grey-{pname}"
                truth[b.field] = "?"
            style = rng.choice(["hatch", "hatch", "scribble", "fill", "bigx"])
            strokes, _ = _strokes(style, b.w, b.h, rng)
        else:
            pname = habit if rng.random() < 0.7 else rng.choice(["hb", "2b", "mech", "ballblack", "ballblue", "felt"])
            pen = Pen(pname, rng)
            if pen.alpha < 0.62:
                hard.append("+light")
            styles = ["tick", "cross", "slash", "fill", "scribble", "dot"] + habit_styles * 2
            if b.kind == "round":
                styles += ["ring", "ring"]
            style = rng.choice(styles)
            strokes, over = _strokes(style, b.w, b.h, rng)
            if over and style in ("tick", "cross", "slash", "fill"):
                hard.append("+stray")
            if style == "ring":
                hard.append("+ring")
            truth[b.field] = True
        if pen.width > 1.0 and style == "dot":
            hard.append("+bigpen")
        wob = rng.uniform(0.03, 0.09)
        pts = [_jitter(s, rng, wob) + [box[0], box[1]] for s in strokes]
        pad = 0.3 + pen.width / 2
        pts = [_clip_points(p, box, others, pad) for p in pts]
        _draw(img, pts, pen, ppmm, rng)
        kinds[b.field] = " ".join([f"{pname}/{style}", *hard, f"w{pen.width:.2f}a{pen.alpha:.2f}"])
    return truth, kinds


# ----------------------------------------------------------------- the camera


def _table(h, w, rng):
    kind = rng.choice(["wood", "plain", "cloth", "dark"])
    if kind == "wood":
        base = np.array([rng.uniform(110, 170), rng.uniform(70, 110), rng.uniform(40, 70)], np.float32)
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.01, 0.04)
        grain = np.sin(y * f + 6 * np.sin(x * 0.003 + rng.uniform(0, 6)) + rng.uniform(0, 6))
        bg = base[None, None] * (0.85 + 0.15 * grain[..., None])
    elif kind == "plain":
        bg = np.full((h, w, 3), rng.uniform(150, 220), np.float32) * np.array(rng.uniform(0.9, 1.1, 3), np.float32)
    elif kind == "cloth":
        col = np.array([rng.uniform(30, 200) for _ in range(3)], np.float32)
        bg = np.broadcast_to(col, (h, w, 3)).copy()
    else:
        bg = np.full((h, w, 3), rng.uniform(25, 60), np.float32)
    n = cv2.resize(rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32), (w, h))
    return np.clip(bg + 8 * n[..., None], 0, 255), kind


def _camera(paper, ppmm_src, rng, dpi):
    """The paper raster photographed, the sheet at about `dpi`: (RGB uint8, description)."""
    ph, pw = paper.shape[:2]
    # pre-shrink with area averaging to about the target scale
    k = dpi / 25.4 / ppmm_src
    if k < 0.95:
        paper = cv2.resize(paper, (int(pw * k), int(ph * k)), interpolation=cv2.INTER_AREA)
    ph2, pw2 = paper.shape[:2]
    sx, sy = pw2 / pw, ph2 / ph
    W, H = PAPER[0], PAPER[1]  # mm
    # 3-D: the sheet in its plane, tilted, rolled, seen by a pinhole camera
    tilt = rng.uniform(0, 20)
    tdir = rng.uniform(0, 2 * np.pi)
    roll = rng.uniform(0, 360)
    ax, ay = math.radians(tilt) * math.cos(tdir), math.radians(tilt) * math.sin(tdir)
    Rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    Ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rr = math.radians(roll)
    Rz = np.array([[math.cos(rr), -math.sin(rr), 0], [math.sin(rr), math.cos(rr), 0], [0, 0, 1]])
    R = Rz @ Ry @ Rx
    dist = rng.uniform(350, 600)  # mm, camera to sheet centre
    corners = np.array([[0, 0], [W, 0], [W, H], [0, H]], float)
    P = np.c_[corners - [W / 2, H / 2], np.zeros(4)] @ R.T + [0, 0, dist]
    f = dpi / 25.4 * dist  # px: the sheet centre at `dpi`
    q = P[:, :2] / P[:, 2:3] * f
    margin = rng.uniform(0.03, 0.12) * max(np.ptp(q[:, 0]), np.ptp(q[:, 1]))
    q -= q.min(0) - margin * rng.uniform(0.6, 1.4, 2)
    outw = int(q[:, 0].max() + margin * rng.uniform(0.6, 1.4))
    outh = int(q[:, 1].max() + margin * rng.uniform(0.6, 1.4))
    src = np.array([[0, 0], [pw2, 0], [pw2, ph2], [0, ph2]], np.float32)
    Hm = cv2.getPerspectiveTransform(src, q.astype(np.float32))
    LAST["H"] = Hm @ np.diag([sx * ppmm_src, sy * ppmm_src, 1.0])  # paper mm -> photo px
    bg, table = _table(outh, outw, rng)
    warped = cv2.warpPerspective(paper.astype(np.float32), Hm, (outw, outh), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones((ph2, pw2), np.float32), Hm, (outw, outh), flags=cv2.INTER_LINEAR)[..., None]
    img = warped * mask + bg * (1 - mask)
    # paper a little off-white
    desc = [f"dpi {dpi:.0f}", f"roll {roll:.0f}", f"tilt {tilt:.1f}", f"table {table}"]
    # light: gradient, vignette, soft shadow
    lh, lw = outh // 8 + 1, outw // 8 + 1
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    yy, xx = yy * outh / lh, xx * outw / lw
    ga = rng.uniform(0, 2 * np.pi)
    gs = rng.uniform(0.0, 0.3)
    g = ((xx / outw - 0.5) * math.cos(ga) + (yy / outh - 0.5) * math.sin(ga)) * gs
    light = 1.0 - gs / 2 + g
    vig = rng.uniform(0.0, 0.35)
    rr2 = ((xx / outw - 0.5) ** 2 + (yy / outh - 0.5) ** 2) / 0.5
    light *= 1 - vig * rr2
    desc.append(f"gradient {gs:.2f} vignette {vig:.2f}")
    if rng.random() < 0.5:
        sh = np.zeros((lh, lw), np.float32)
        c = (rng.uniform(0, sh.shape[1]), rng.uniform(0, sh.shape[0]))
        pts = np.array(
            [
                [c[0] + rng.uniform(-1, 1) * sh.shape[1] * 0.6, c[1] + rng.uniform(-1, 1) * sh.shape[0] * 0.6]
                for _ in range(5)
            ],
            np.int32,
        )
        cv2.fillPoly(sh, [cv2.convexHull(pts)], 1.0)
        blur = max(3, int(min(sh.shape) * rng.uniform(0.05, 0.15)) | 1)
        sh = cv2.GaussianBlur(sh, (0, 0), blur)
        sh = cv2.resize(sh, (lw, lh))
        depth = rng.uniform(0.2, 0.45)
        light *= 1 - depth * sh
        desc.append(f"shadow {depth:.2f}")
    expo = rng.uniform(0.85, 1.12)
    cast = np.array(rng.uniform(0.9, 1.08, 3), np.float32)
    light = cv2.resize((light * expo).astype(np.float32), (outw, outh), interpolation=cv2.INTER_LINEAR)
    img = img * light[..., None] * cast
    desc.append(f"exposure {expo:.2f} cast {'/'.join(f'{c:.2f}' for c in cast)}")
    # blur
    sig = rng.uniform(0.3, 1.6) * dpi / 200
    img = cv2.GaussianBlur(img, (0, 0), sig)
    desc.append(f"blur {sig:.2f}px")
    # noise: shot-like plus read noise, a little chroma
    ns = rng.uniform(1.5, 7)
    noise = rng.standard_normal(img.shape, dtype=np.float32) * (ns * np.sqrt(np.clip(img, 1, 255) / 128))
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    desc.append(f"noise {ns:.1f}")
    q = int(rng.integers(40, 91))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    img = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    desc.append(f"jpeg {q}")
    return img, " ".join(desc)


def photo(layout, page_id, rng):
    # the raster at least as fine as the photo will be, where it can
    target = rng.uniform(100, 300)
    dpi = int(rng.choice([d for d in (150, 200, 250, 300) if d >= min(target, 300) - 30]))
    ppmm = dpi / 25.4
    page = _raster(layout, page_id, dpi).astype(np.float32)
    truth, kinds = _mark_page(layout, page_id, page, ppmm, rng)
    img, desc = _camera(np.clip(page, 0, 255).astype(np.uint8), ppmm, rng, target)
    kinds["_photo"] = f"raster {dpi}dpi pdftoppm; " + desc
    return img, truth, kinds
