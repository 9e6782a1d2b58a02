"""Sheets reused and dressed: sheet protectors and dry-erase markers, coloured paper, things on
the sheet, children's crayons.

Written apart from the reader's tuning and the other generators, from the feature's
description, the bench's runner and the printed page (`pages`). Each photo is one of four
settings, a quarter each:
- film: the print in a sheet protector (or laminated), played with dry-erase markers (black, blue,
  red, green; orange/green/red in the garden): the film lowers the contrast and casts a faint
  grey-blue, one or two specular glare patches (a soft blob, a window, a streak) kept off the corner
  markers and the QR code (a box under glare is marked only if its mark stays plain), and 10-40% of
  the empty boxes carry the wiped-off ghost of a previous game's mark (5-15% darkening, blurred and
  smeared: empty for a careful reader);
- paper: printed on pastel yellow, blue, green, pink, salmon or recycled grey paper, pencil and
  pen marks, the Harvest Dice garden in orange/green/red colour pencils (or the player's pen: '?');
- table: dice with pips, a pencil or pen, wooden meeples and tokens on the sheet (never over a
  corner marker, the QR code, more than 22% of a box's inside or more than a third of a mark's
  ink), each with its soft shadow, and maybe a phone's or a hand's shadow crossing the sheet;
- kids: wax crayons (grainy, bright: yellow, pink, purple, light blue too) and felt-tips in any
  box, big sloppy marks running up to 2.5 mm over the border (never into a neighbour's inside),
  scribbles, and small marks (a dot, a dash) in the darker colours.
Marks cover 5-90% of the boxes in runs (tracks from the left, glass columns from the bottom, the
garden in clumps); one habit a player (cross, tick, fill, dot, slash, circles round round boxes)
with variation; write boxes get Hershey handwriting (not read). Garden truth: the vegetable's
letter when drawn in a dice colour, '?' otherwise, '' when empty. A phone photographs it: tilt up to
18 degrees, any roll, 120-300 dpi on the sheet, under 12 MP, on a wood, white, grey or dark table,
gentle light slope and spot, vignetting, white balance, mild blur and noise, JPEG 60-92.
Kinds: "pen/style" (pens: hb, 2b, mech, ballpoint-*, gel-black, felt-*, crayon-*, dryerase-*,
cpencil-*) with +ghost, +glare, +paper:<colour>, +object, +shadow, +crayon, +felt, +overshoot.
"""

from __future__ import annotations

import math
import re

import cv2
import numpy as np

from bench.photos.pages import random_page, render
from sheetgen.layout.scanmarks import reserved

A4 = (210.0, 297.0)
VEG = {"orange": "C", "green": "S", "red": "T"}  # the dice's colours in the garden
# pen name -> (RGB 0-1, stroke width mm, opacity, texture)
PENS = {
    "hb": ((0.38, 0.38, 0.41), 0.45, 0.75, "graphite"),
    "2b": ((0.27, 0.27, 0.30), 0.6, 0.85, "graphite"),
    "mech": ((0.35, 0.35, 0.38), 0.35, 0.8, "graphite"),
    "ballpoint-blue": ((0.15, 0.2, 0.6), 0.4, 0.9, "ball"),
    "ballpoint-black": ((0.12, 0.12, 0.15), 0.4, 0.9, "ball"),
    "gel-black": ((0.08, 0.08, 0.1), 0.5, 0.95, "felt"),
    "felt-black": ((0.1, 0.1, 0.12), 0.8, 0.95, "felt"),
}
BRIGHT = {
    "red": (0.85, 0.12, 0.12),
    "orange": (0.98, 0.5, 0.08),
    "yellow": (0.98, 0.86, 0.1),
    "green": (0.15, 0.62, 0.2),
    "blue": (0.12, 0.3, 0.85),
    "lightblue": (0.35, 0.7, 0.95),
    "purple": (0.5, 0.2, 0.7),
    "pink": (0.97, 0.4, 0.7),
    "brown": (0.5, 0.3, 0.15),
    "black": (0.12, 0.12, 0.14),
}
for _c, _rgb in BRIGHT.items():
    PENS[f"crayon-{_c}"] = (_rgb, 2.0, 0.8, "crayon")
    PENS[f"felt-{_c}"] = (_rgb, 1.3, 0.9, "felt")
for _c in ("black", "blue", "red", "green", "orange"):
    PENS[f"dryerase-{_c}"] = (BRIGHT[_c], 1.7, 0.85, "dry")
for _c in ("orange", "green", "red"):
    PENS[f"cpencil-{_c}"] = (BRIGHT[_c], 0.7, 0.75, "graphite")
PAPERS = {
    "yellow": (1.0, 0.96, 0.68),
    "blue": (0.8, 0.9, 1.0),
    "green": (0.82, 0.96, 0.78),
    "pink": (1.0, 0.84, 0.9),
    "salmon": (1.0, 0.8, 0.68),
    "grey": (0.84, 0.83, 0.8),
}
SETTINGS = ("film", "paper", "table", "kids")


def _lab(rgb) -> np.ndarray:
    px = np.clip(np.array(rgb, np.float32).reshape(1, 1, 3), 0, 1)
    return cv2.cvtColor(px, cv2.COLOR_RGB2LAB)[0, 0]


def _visible(pen: str, paper, haze: float = 0.0) -> bool:
    """Does the pen's full-strength ink stand out plainly from the paper (delta E), even washed by `haze`?"""
    rgb, _, a, _ = PENS[pen]
    ink = np.array(paper) * (1 - a * (1 - np.array(rgb)))
    ink, bg = ink + haze * (1 - ink), np.array(paper) + haze * (1 - np.array(paper))
    return float(np.linalg.norm(_lab(ink) - _lab(bg))) > 28


# ---------------------------------------------------------------- marking plan


def _group(field: str) -> str:
    return re.sub(r"(_r\d+_c\d+|_?\d+)$", "", field)


def _plan(layout_id, boxes, truth_fields, rng, setting):
    """{field: (pen, style)} of the marked boxes and their truth."""
    share = rng.uniform(0.05, 0.9)
    groups: dict = {}
    for b in boxes:
        if b.field in truth_fields:
            groups.setdefault(_group(b.field), []).append(b)
    chosen = []
    for name, bs in groups.items():
        frac = float(np.clip(share + rng.normal(0, 0.25), 0, 1)) if rng.random() > 0.12 else float(rng.random() < 0.5)
        k = int(round(frac * len(bs)))
        if name.startswith("winner"):
            chosen += [bs[int(rng.integers(len(bs)))]] if share > 0.6 and rng.random() < 0.6 else []
        elif name == "garden":  # clumps: grow from a seed cell
            cells = {(int(m[0]), int(m[1])): b for b in bs for m in [re.findall(r"\d+", b.field)]}
            order = [list(cells)[int(rng.integers(len(cells)))]]
            while len(order) < len(cells):
                near = [
                    c for c in cells if c not in order and any(abs(c[0] - o[0]) + abs(c[1] - o[1]) == 1 for o in order)
                ]
                pool = near if near and rng.random() < 0.85 else [c for c in cells if c not in order]
                order.append(pool[int(rng.integers(len(pool)))])
            chosen += [cells[c] for c in order[:k]]
        elif "_r" in bs[0].field and "_c" in bs[0].field:  # glass columns from the bottom
            for col in sorted({b.field.rsplit("_c", 1)[1] for b in bs}):
                cb = sorted((b for b in bs if b.field.rsplit("_c", 1)[1] == col), key=lambda b: -b.y)
                chosen += cb[: int(np.clip(round(rng.normal(frac, 0.2) * len(cb)), 0, len(cb)))]
        elif len(bs) > 1 and (bs[0].kind != "round" or "colony" in name):  # tracks in their order
            chosen += sorted(bs, key=lambda b: int(re.findall(r"\d+", b.field)[-1]))[:k]
        else:
            chosen += [b for b in bs if rng.random() < frac]
    players = _players(rng, setting, layout_id)
    plan = {}
    for b in chosen:
        who = re.search(r"_p(\d)", b.field)
        hand = players[(int(who[1]) - 1) % len(players)] if who else players[0]
        pen = _box_pen(hand, b, rng)
        plan[b.field] = (pen, _box_style(hand, pen, b, rng), hand["big"])
    return plan


def _players(rng, setting, layout_id):
    n = int(rng.integers(1, 4)) if "glass" in layout_id else 1
    out = []
    for _ in range(n):
        habit = str(rng.choice(["cross", "tick", "fill", "dot", "slash", "cross", "tick"]))
        hand = dict(habit=habit, circles=rng.random() < 0.5, big=rng.uniform(0.7, 1.05), garden=None)
        if setting == "film":
            hand["pens"] = [f"dryerase-{rng.choice(['black', 'blue', 'red', 'green'])}"]
            hand["garden"] = "dice" if rng.random() < 0.6 else hand["pens"][0]
        elif setting == "kids":
            kind = "crayon" if rng.random() < 0.55 else "felt"
            cols = list(rng.choice(list(BRIGHT), size=int(rng.integers(1, 4)), replace=False))
            hand["pens"] = [f"{kind}-{c}" for c in cols]
            hand["habit"] = str(rng.choice(["cross", "scribble", "fill", "cross", "tick"]))
            hand["big"] = rng.uniform(0.95, 1.35)
            hand["garden"] = "dice" if rng.random() < 0.6 else f"{kind}-{rng.choice(['blue', 'purple', 'black'])}"
        else:
            hand["pens"] = [str(rng.choice(list(PENS)[:7]))]
            hand["garden"] = "dice" if rng.random() < 0.65 else hand["pens"][0]
        hand["kind"], hand["kids"] = hand["pens"][0].split("-")[0], setting == "kids"
        out.append(hand)
    return out


def _box_pen(hand, b, rng) -> str:
    if b.field.startswith("garden"):
        if hand["garden"] != "dice":
            return hand["garden"]
        col = str(rng.choice(list(VEG)))
        kind = hand["kind"] if hand["kind"] in ("crayon", "felt", "dryerase") else "cpencil"
        return f"{kind}-{col}"
    return hand["pens"][int(rng.integers(len(hand["pens"])))]


def _box_style(hand, pen, b, rng) -> str:
    if b.kind == "round" and hand["circles"]:
        return "circle"
    if b.field.startswith("garden"):
        return str(rng.choice(["fill", "scribble", "cross", "fill"]))
    if hand["kids"] and pen.split("-")[1] not in ("yellow", "lightblue", "pink") and rng.random() < 0.15:
        return str(rng.choice(["dot", "dash"]))
    if rng.random() < 0.08:
        return str(rng.choice(["cross", "tick", "slash", "fill"]))
    return hand["habit"]


# ---------------------------------------------------------------- drawing marks


def _line(a, b, rng, bow=0.05) -> np.ndarray:
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    n = max(6, int(np.linalg.norm(d) * 4))
    t = np.linspace(0, 1, n)[:, None]
    perp = np.array([-d[1], d[0]])
    wob = rng.normal(0, bow) * np.sin(np.pi * t) + rng.normal(0, 0.01) * np.sin(3 * np.pi * t + rng.uniform(0, 6))
    return a + t * d + wob * perp


def _shape(style, hw, hh, rng, big) -> list:
    """The strokes (mm, box-centred, y down) of one mark."""
    s = min(hw, hh) * big
    j = lambda: rng.normal(0, 0.08 * s)  # noqa: E731
    if style == "cross":
        return [
            _line((-s + j(), -s + j()), (s + j(), s + j()), rng),
            _line((s + j(), -s + j()), (-s + j(), s + j()), rng),
        ]
    if style == "slash":
        return [_line((-s * 0.8 + j(), s * 0.85 + j()), (s * 0.8 + j(), -s * 0.85 + j()), rng)]
    if style == "tick":
        a, m, e = (-0.7 * s + j(), 0.05 * s + j()), (-0.2 * s + j(), 0.7 * s + j()), (0.8 * s + j(), -0.85 * s + j())
        return [np.vstack([_line(a, m, rng, 0.02), _line(m, e, rng)])]
    if style == "dash":
        return [_line((-0.3 * s, j() * 0.5), (0.35 * s, j() * 0.5), rng, 0.02)]
    if style == "dot":
        r = rng.uniform(0.35, 0.7)
        t = np.linspace(0, rng.uniform(3, 5) * np.pi, 40)
        c = np.array([j(), j()]) * 0.8
        return [c + np.c_[np.cos(t), np.sin(t)] * (r * t / t[-1])[:, None]]
    if style == "circle":
        r = np.hypot(hw, hh) * 0.75 + rng.uniform(0.4, 1.0)
        a0 = rng.uniform(0, 2 * np.pi)
        t = a0 + np.linspace(0, rng.uniform(2.0, 2.25) * np.pi, 80)
        rr = r * (1 + 0.06 * np.sin(2 * t + rng.uniform(0, 6)) + 0.04 * np.linspace(0, 1, 80))
        return [np.c_[np.cos(t) * rr * rng.uniform(0.9, 1.1), np.sin(t) * rr] + rng.normal(0, 0.2, 2)]
    if style in ("fill", "scribble"):
        n = int(rng.integers(4, 8)) if style == "fill" else int(rng.integers(5, 10))
        ang = rng.uniform(-0.6, 0.6) + (np.pi / 4 if rng.random() < 0.5 else 0)
        pts = []
        for i in range(n + 1):
            y = -s + 2 * s * i / n + rng.normal(0, 0.06 * s)
            x = (s if i % 2 else -s) * rng.uniform(0.8, 1.0) if style == "fill" else rng.uniform(-s, s)
            pts.append((x, y))
        pts = np.array(pts) @ np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]]).T
        out = []
        for a, b in zip(pts[:-1], pts[1:]):
            out.append(_line(a, b, rng, 0.03))
        return [np.vstack(out)]
    raise ValueError(style)


def _fit(strokes, room, width) -> list:
    """The strokes scaled about the box centre so that they stay in `room` (x0, y0, x1, y1, mm)."""
    p = np.vstack(strokes)
    lo, hi = p.min(0) - width / 2, p.max(0) + width / 2
    k = 1.0
    for v, lim in ((lo[0], room[0]), (lo[1], room[1]), (hi[0], room[2]), (hi[1], room[3])):
        if v * lim > 0 and abs(v) > abs(lim):
            k = min(k, (abs(lim) - width / 2) / max(abs(v) - width / 2, 1e-6))
    return [s * max(k, 0.2) for s in strokes]


def _brush(mask, pts, width, alpha, tex, rng) -> None:
    """Stamp one stroke (pixel points) into `mask` (float 0-1, opacity). Dry-erase and crayon streak
    (bristles), dry-erase ends go translucent, ballpoint skips."""
    seg = np.diff(pts, axis=0)
    dist = np.r_[0, np.cumsum(np.hypot(seg[:, 0], seg[:, 1]))]
    if dist[-1] < 1:
        pts, dist = np.vstack([pts[:1], pts[:1] + 1.0]), np.array([0.0, 1.0])
    step = max(0.5, width / 5)
    t = np.arange(0, dist[-1] + step, step)
    p = np.c_[np.interp(t, dist, pts[:, 0]), np.interp(t, dist, pts[:, 1])]
    d = np.gradient(p, axis=0)
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)[:, None]
    u = t / max(t[-1], 1e-6)
    a = alpha * np.ones_like(u)
    if tex == "dry":
        a *= 0.6 + 0.4 * np.clip(np.minimum(u, 1 - u) * 8, 0, 1)
    if tex == "ball":
        a *= np.where(np.sin(t / width * rng.uniform(0.3, 0.6) + rng.uniform(0, 6)) > 0.93, 0.35, 1)
    w = width * (1 + 0.15 * np.sin(u * rng.uniform(2, 6) + rng.uniform(0, 6)))
    layer = np.zeros_like(mask)
    if tex in ("dry", "crayon"):
        k = 5
        offs, gain = np.linspace(-0.4, 0.4, k), rng.uniform(0.45 if tex == "dry" else 0.8, 1.0, k)
        spread = 1.1 if tex == "dry" else 1.6
        for o, g in zip(offs, gain):
            for (x, y), (dx, dy), ww, aa in zip(p, d, w, a):
                at = (int((x - dy * o * ww) * 4), int((y + dx * o * ww) * 4))
                cv2.circle(layer, at, int(ww / k * 4 * spread + 2), float(aa * g), -1, cv2.LINE_AA, 2)
    else:
        for (x, y), ww, aa in zip(p, w, a):
            cv2.circle(layer, (int(x * 4), int(y * 4)), int(ww * 2 + 1), float(aa), -1, cv2.LINE_AA, 2)
    np.maximum(mask, layer, out=mask)


def _grain(shape, rng, tex) -> np.ndarray:
    n = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 0.8)
    n /= n.std() + 1e-6
    if tex == "crayon":
        return np.clip((n + 1.5) / 0.8, 0, 1) * (0.85 + 0.15 * np.clip(n, -1, 1))
    if tex == "graphite":
        return np.clip(0.62 + 0.3 * n, 0.2, 1)
    return np.clip(1 + 0.04 * n, 0, 1)


def _room(b, boxes, over) -> tuple:
    """How far (mm) a mark may reach past each side of box b: `over`, short of any neighbour's inside."""
    cx, cy = b.x + b.w / 2, b.y + b.h / 2
    room = [-b.w / 2 - over, -b.h / 2 - over, b.w / 2 + over, b.h / 2 + over]
    for o in boxes:
        if o is b:
            continue
        if o.y < b.y + b.h + over and o.y + o.h > b.y - over:
            if o.x >= b.x + b.w - 0.01:
                room[2] = min(room[2], o.x - cx - 0.6)
            elif o.x + o.w <= b.x + 0.01:
                room[0] = max(room[0], o.x + o.w - cx + 0.6)
        if o.x < b.x + b.w + over and o.x + o.w > b.x - over:
            if o.y >= b.y + b.h - 0.01:
                room[3] = min(room[3], o.y - cy - 0.6)
            elif o.y + o.h <= b.y + 0.01:
                room[1] = max(room[1], o.y + o.h - cy + 0.6)
    return tuple(room)


def _draw_strokes(img, ink, strokes, at_mm, pen, k, rng, clip=None, gain=1.0):
    """Composite strokes (mm, relative to at_mm on the paper) onto img (float RGB) in a local patch;
    ink (float) keeps the opacity, for the object checks."""
    rgb, width, alpha, tex = PENS[pen]
    width *= rng.uniform(0.85, 1.2)
    pts = [(s + at_mm) * k for s in strokes]
    allp = np.vstack(pts)
    pad = width * k + 4
    x0, y0 = np.maximum(np.floor(allp.min(0) - pad).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(allp.max(0) + pad).astype(int), (img.shape[1], img.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    for s in pts:
        m = np.zeros((y1 - y0, x1 - x0), np.float32)
        _brush(m, s - (x0, y0), width * k, alpha * gain, tex, rng)
        m *= _grain(m.shape, rng, tex)
        if clip is not None:
            m *= clip[y0:y1, x0:x1]
        patch = img[y0:y1, x0:x1]
        patch *= 1 - m[..., None] * (1 - np.array(rgb, np.float32))
        ink[y0:y1, x0:x1] = np.maximum(ink[y0:y1, x0:x1], m)


def _handwriting(img, b, at_mm, pen, k, rng):
    """A name or a number in a write box (not read by scan)."""
    text = str(rng.choice(["Ana", "Tom", "Lea", "Max", "Zoe", "Jo"])) if b.w > 30 else str(int(rng.integers(0, 60)))
    rgb, width, alpha, _ = PENS[pen]
    font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_SIMPLEX
    scale, thick = min(b.h * 0.6, 7) * k / 22, max(1, int(round(min(width, 0.55) * k)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    x0 = int((at_mm[0] + b.x + b.w * 0.1) * k + rng.uniform(0, max(1, b.w * k * 0.75 - tw)))
    y0 = int((at_mm[1] + b.y + b.h * 0.5) * k - th / 2 - 8)
    sub = np.zeros((th + 24, tw + 16), np.uint8)
    cv2.putText(sub, text, (8, th + 8), font, scale, 255, thick, cv2.LINE_AA)
    a = sub.astype(np.float32)[..., None] / 255 * alpha
    img[y0 : y0 + sub.shape[0], x0 : x0 + sub.shape[1]] *= 1 - a * (1 - np.array(rgb, np.float32))


def _ghost(img, b, at_mm, k, rng):
    """A wiped-off mark of a previous game: a faint, blurred, smeared haze."""
    strokes = _shape(
        str(rng.choice(["cross", "tick", "fill", "slash", "circle"])), b.w / 2 * 0.8, b.h / 2 * 0.8, rng, 1
    )
    c = np.array([at_mm[0] + b.x + b.w / 2, at_mm[1] + b.y + b.h / 2])
    pts = [(s + c) * k for s in strokes]
    r = int(6 * k + 0.8 * b.w * k)
    cx, cy = int(c[0] * k), int(c[1] * k)
    x0, y0 = max(cx - r, 0), max(cy - r, 0)
    m = np.zeros((2 * r, 2 * r), np.float32)[: img.shape[0] - y0, : img.shape[1] - x0]
    for s in pts:
        _brush(m, s - (x0, y0), rng.uniform(1.5, 2.8) * k, 1.0, "felt", rng)
    ang, ln = rng.uniform(0, np.pi), rng.uniform(2, 5) * k
    ker = np.zeros((int(ln) | 1, int(ln) | 1), np.float32)
    cv2.line(ker, (0, int(ln) // 2), (int(ln) - 1, int(ln) // 2), 1.0, 1)
    ker = cv2.warpAffine(ker, cv2.getRotationMatrix2D((ln / 2, ln / 2), math.degrees(ang), 1), ker.shape[::-1])
    m = cv2.filter2D(m, -1, ker / max(ker.sum(), 1e-6))
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(0.5, 1.1) * k)
    m *= rng.uniform(0.05, 0.15) / max(float(m.max()), 1e-6)
    tint = np.array(BRIGHT[str(rng.choice(["black", "blue", "red", "green"]))]) * 0.5 + 0.25
    img[y0 : y0 + m.shape[0], x0 : x0 + m.shape[1]] *= 1 - m[..., None] * (1 - tint.astype(np.float32))


# ---------------------------------------------------------------- the film, the objects


def _glare(zones, rng, sheet) -> np.ndarray:
    """A glare map (1 px a mm over A4, 0-1) kept off the scan marks' zones."""
    yy, xx = np.mgrid[0:297, 0:210].astype(np.float32)
    total = np.zeros((297, 210), np.float32)
    for _ in range(int(rng.integers(1, 3))):
        for _try in range(40):
            cx, cy = rng.uniform(sheet[0], sheet[2]), rng.uniform(sheet[1] + 20, sheet[3])
            kind = rng.choice(["blob", "window", "streak"])
            g = np.zeros_like(total)
            if kind == "blob":
                sx, sy, ang = rng.uniform(8, 25), rng.uniform(8, 25), rng.uniform(0, np.pi)
                u = (xx - cx) * math.cos(ang) + (yy - cy) * math.sin(ang)
                v = -(xx - cx) * math.sin(ang) + (yy - cy) * math.cos(ang)
                g = np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2))
            else:
                w, h = (rng.uniform(30, 60), rng.uniform(25, 45)) if kind == "window" else (rng.uniform(60, 120), 6)
                box = cv2.boxPoints(((cx, cy), (w, h), rng.uniform(-30, 30))).astype(np.int32)
                cv2.fillPoly(g, [box], 1.0)
                if kind == "window":
                    cv2.line(g, (int(cx - w), int(cy)), (int(cx + w), int(cy)), 0.45, 2)
                    cv2.line(g, (int(cx), int(cy - h)), (int(cx), int(cy + h)), 0.45, 2)
                g = cv2.GaussianBlur(g, (0, 0), rng.uniform(2.5, 6))
            g = g / max(float(g.max()), 1e-6) * rng.uniform(0.35, 0.8)
            if all(g[int(y) : int(y + h) + 1, int(x) : int(x + w) + 1].max() < 0.03 for x, y, w, h in zones):
                total = 1 - (1 - total) * (1 - g)
                break
    return total


def _object_shapes(kind, rng) -> tuple:
    """(polygon mm around the origin, size) of one object on the table."""
    if kind == "die":
        s = rng.uniform(11, 16)
        return np.array([[-s, -s], [s, -s], [s, s], [-s, s]]) / 2 * 1.15, s
    if kind == "pencil":
        L, w = rng.uniform(130, 175), rng.uniform(6.5, 8.5)
        return np.array([[-L / 2, -w / 2], [L / 2 - 18, -w / 2], [L / 2, 0], [L / 2 - 18, w / 2], [-L / 2, w / 2]]), L
    if kind == "meeple":
        s = rng.uniform(14, 19)
        return np.array([[-0.5, 0.5], [-0.5, 0.1], [-0.2, -0.15], [-0.15, -0.5], [0.15, -0.5], [0.2, -0.15],
                         [0.5, 0.1], [0.5, 0.5], [0.1, 0.5], [0, 0.3], [-0.1, 0.5]]) * s, s  # fmt: skip
    s = rng.uniform(9, 14)  # a token disc
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    return np.c_[np.cos(t), np.sin(t)] * s / 2, s


def _place(poly_mm, boxes_mm, ink_lo, zones, rng, taken, on_sheet):
    """A pose (poly moved, mm on A4) where the object keeps off the scan marks, covers at most 22%
    of any box's inside and a third of a mark's ink; None after 80 tries."""
    for _ in range(80):
        ang = rng.uniform(0, 2 * np.pi)
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        c = rng.uniform(on_sheet[:2], on_sheet[2:])
        poly = poly_mm @ rot.T + c
        if poly.min() < -26 or (poly.max(0) > (A4[0] + 26, A4[1] + 26)).any():
            continue
        occ = np.zeros_like(taken)
        cv2.fillPoly(occ, [np.round(poly * 2).astype(np.int32)], 1)
        occ = np.maximum(occ, taken)
        if any(occ[int(y * 2) : int((y + h) * 2), int(x * 2) : int((x + w) * 2)].any() for x, y, w, h in zones):
            continue
        ok = True
        for x, y, w, h in boxes_mm:
            sl = np.s_[int(y * 2 + 1) : int((y + h) * 2 - 1), int(x * 2 + 1) : int((x + w) * 2 - 1)]
            if occ[sl].mean() > 0.22:
                ok = False
                break
            inked = ink_lo[sl] > 0.3
            if inked.sum() and (occ[sl] & inked).sum() > inked.sum() / 3:
                ok = False
                break
        if ok:
            return poly, ang, c, occ
    return None


def _draw_object(rgb, alpha, shade, kind, poly, ang, c, size, k, off, rng):
    """Paint one object (and its soft shadow) into the scene layers (off: the paper's offset in mm)."""
    x0, y0 = np.maximum((poly.min(0) + off) * k - 9 * k, 0).astype(int)
    x1, y1 = np.minimum((poly.max(0) + off) * k + 9 * k, shade.shape[::-1]).astype(int)
    pts = np.round(((poly + off) * k - (x0, y0)) * 4).astype(np.int32)
    sh = np.zeros((y1 - y0, x1 - x0), np.float32)
    height = {"die": size, "pencil": 7.0}.get(kind, 4.0)  # mm above the sheet
    drop = np.round(np.array([0.12, 0.2]) * height * k * 4).astype(np.int32)
    cv2.fillPoly(sh, [pts + drop], 1.0, cv2.LINE_AA, 2)
    shade[y0:y1, x0:x1] *= 1 - 0.4 * cv2.GaussianBlur(sh, (0, 0), (0.4 + 0.08 * height) * k)
    m = np.zeros_like(sh)
    cv2.fillPoly(m, [pts], 1.0, cv2.LINE_AA, 2)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    u = (xx / k - off[0] - c[0]) * math.cos(ang) + (yy / k - off[1] - c[1]) * math.sin(ang)
    v = -(xx / k - off[0] - c[0]) * math.sin(ang) + (yy / k - off[1] - c[1]) * math.cos(ang)
    if kind == "pencil":
        L = size
        body = np.array(rng.choice([(0.95, 0.75, 0.1), (0.2, 0.35, 0.7), (0.15, 0.15, 0.15), (0.8, 0.1, 0.1)]))
        col = np.where((u > L / 2 - 18)[..., None], (0.85, 0.68, 0.48), body)
        col = np.where((u > L / 2 - 4)[..., None], (0.25, 0.25, 0.27), col)
        col = np.where((u < -L / 2 + 8)[..., None], (0.95, 0.55, 0.55), col)
        col = np.where(((u > -L / 2 + 8) & (u < -L / 2 + 14))[..., None], (0.75, 0.75, 0.72), col)
        col = col * (0.72 + 0.28 * np.cos(np.clip(v / 4.5, -1.4, 1.4)) ** 2)[..., None]
    elif kind == "die":
        base = np.array(rng.choice([(0.96, 0.95, 0.9), (0.95, 0.5, 0.1), (0.2, 0.6, 0.25), (0.85, 0.15, 0.15)]))
        s = size / 2
        top = (np.abs(u + 1) < s - 0.5) & (np.abs(v + 1) < s - 0.5)
        col = np.where(top[..., None], base, base * 0.7)
        pip = (0.1, 0.1, 0.1) if base.sum() > 2.5 else (0.97, 0.97, 0.95)
        n = int(rng.integers(1, 7))
        spots = {
            1: [(0, 0)],
            2: [(-1, -1), (1, 1)],
            3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
        }
        spots[5] = spots[4] + [(0, 0)]
        spots[6] = spots[4] + [(-1, 0), (1, 0)]
        for a, b in spots[n]:
            d = np.hypot(u + 1 - a * s * 0.5, v + 1 - b * s * 0.5)
            col = np.where((d < s * 0.16)[..., None] & top[..., None], pip, col)
    else:
        base = np.array(rng.choice([(0.82, 0.62, 0.38), (0.75, 0.15, 0.12), (0.15, 0.3, 0.65), (0.9, 0.75, 0.15)]))
        r = np.hypot(u, v) / size
        col = base * (1.05 - 0.35 * np.clip(r, 0, 0.6))[..., None]
        col = col * (0.9 + 0.1 * np.sin(u * 3 + rng.uniform(0, 6)))[..., None]
    rgb[y0:y1, x0:x1] = rgb[y0:y1, x0:x1] * (1 - m[..., None]) + col.astype(np.float32) * m[..., None]
    alpha[y0:y1, x0:x1] = np.maximum(alpha[y0:y1, x0:x1], m)


def _cast_shadow(shade, k, off, rng) -> None:
    """A phone's or a hand's soft shadow over part of the sheet."""
    sh = np.zeros(shade.shape, np.float32)
    side = rng.uniform(0, 2 * np.pi)
    c = np.array([105, 148]) + np.array([math.cos(side), math.sin(side)]) * rng.uniform(70, 130)
    if rng.random() < 0.5:
        box = cv2.boxPoints((((c[0] + off[0]) * k, (c[1] + off[1]) * k), (75 * k, 150 * k), rng.uniform(0, 180)))
        cv2.fillPoly(sh, [box.astype(np.int32)], 1.0)
    else:
        cc = ((c + off) * k).astype(int)
        cv2.ellipse(sh, tuple(cc), (int(45 * k), int(55 * k)), rng.uniform(0, 180), 0, 360, 1.0, -1)
        for f in range(4):
            a = side + np.pi + (f - 1.5) * 0.28
            tip = cc + (np.array([math.cos(a), math.sin(a)]) * 105 * k).astype(int)
            cv2.line(sh, tuple(cc), tuple(tip), 1.0, int(17 * k))
    sh = cv2.GaussianBlur(cv2.resize(sh, None, fx=0.25, fy=0.25), (0, 0), rng.uniform(2.5, 6) * k)
    shade *= 1 - rng.uniform(0.18, 0.38) * cv2.resize(sh, shade.shape[::-1])


# ---------------------------------------------------------------- the photo


def _table(rng, w, h) -> tuple:
    kind = str(rng.choice(["wood", "white", "grey", "dark"]))
    base = {
        "wood": (0.55, 0.38, 0.22),
        "white": (0.88, 0.87, 0.85),
        "grey": (0.5, 0.5, 0.52),
        "dark": (0.16, 0.15, 0.15),
    }
    sw, sh = w // 4 + 1, h // 4 + 1
    low = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC)
    t = 1 + 0.05 * low
    if kind == "wood":
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        a = rng.uniform(0, np.pi)
        fine = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 6)
        t *= 1 + 0.04 * np.sin((xx * math.cos(a) + yy * math.sin(a)) / rng.uniform(4, 9) + 1.5 * low + 8 * fine)
    t = cv2.resize(t, (w, h), interpolation=cv2.INTER_LINEAR)[..., None] * np.array(base[kind], np.float32)
    return t, kind


def _camera(rng, k_out) -> tuple:
    """(3x3 map from paper mm, centred, to the image; image w, h; tilt, roll)."""
    tilt, roll, phi = abs(rng.normal(0, 8)) % 18, rng.uniform(0, 360), rng.uniform(0, 2 * np.pi)
    ax = np.array([math.cos(phi), math.sin(phi), 0.0])
    R = cv2.Rodrigues(ax * math.radians(tilt))[0] @ cv2.Rodrigues(np.array([0, 0, math.radians(roll)]))[0]
    D = rng.uniform(380, 600)
    while True:
        f = k_out * D
        M = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1.0]]) @ np.c_[R[:, 0], R[:, 1], [0, 0, D]]
        m = rng.uniform(4, 14)
        corners = np.array(
            [[-105 - m, -148.5 - m, 1], [105 + m, -148.5 - m, 1], [105 + m, 148.5 + m, 1], [-105 - m, 148.5 + m, 1]]
        )
        p = corners @ M.T
        p = p[:, :2] / p[:, 2:]
        lo, hi = p.min(0), p.max(0)
        w, h = hi - lo
        if w > h:
            w = max(w, h * 4 / 3)
            h = w * 0.75
        else:
            h = max(h, w * 4 / 3)
            w = h * 0.75
        if w * h < 11.8e6:
            break
        k_out *= 0.95
    shift = lo - ((w, h) - (hi - lo)) * rng.uniform(0.3, 0.7, 2)
    M = np.array([[1, 0, -shift[0]], [0, 1, -shift[1]], [0, 0, 1]]) @ M
    return M, int(w), int(h), tilt, roll, k_out * 25.4


def photo(layout, page_id, rng):
    """(RGB uint8 photo, truth {field: bool or garden letter/'?'/''}, kinds {field: "pen/style +case"})."""
    setting = SETTINGS[int(rng.integers(len(SETTINGS)))]
    lang, players, pdf, at, boxes = random_page(layout, page_id, rng, 0.3)
    sw, sh = A4[0] - 2 * at.left, A4[1] - 2 * at.top
    off = np.array([at.left, at.top])
    zones = [(x + at.left - 1.5, y + at.top - 1.5, w + 3, h + 3) for _, x, y, w, h in reserved(sw, sh)]
    truth_fields = [b.field for b in boxes if b.kind != "write" or b.field.startswith("garden")]
    plan = _plan(layout.id, boxes, truth_fields, rng, setting)
    cam_dpi = rng.uniform(120, 300)
    dpi = next(d for d in (150, 200, 250, 300) if d >= min(cam_dpi * 1.15, 300))
    k = dpi / 25.4
    page = render(pdf, dpi).astype(np.float32) / 255
    paper_name, paper = "white", np.array([1.0, 1.0, rng.uniform(0.96, 1.0)])
    if setting == "paper":
        paper_name = str(rng.choice(list(PAPERS)))
        paper = np.array(PAPERS[paper_name]) * rng.uniform(0.97, 1.0)
    page *= paper.astype(np.float32)
    sheet = (at.left, at.top, at.left + sw, at.top + sh)
    glare = _glare(zones, rng, sheet) if setting == "film" else np.zeros((297, 210), np.float32)
    kinds, truth = {}, {}
    ink = np.zeros(page.shape[:2], np.float32)
    by_field = {b.field: b for b in boxes}
    for f in truth_fields:
        b = by_field[f]
        box_glare = float(
            glare[
                int(b.y + at.top) : int(b.y + b.h + at.top) + 1, int(b.x + at.left) : int(b.x + b.w + at.left) + 1
            ].max()
        )
        extra = [f"+paper:{paper_name}"] if setting == "paper" else []
        extra += ["+glare"] if box_glare > 0.1 else []
        if f in plan:
            pen, style, big = plan[f]
            if not _visible(pen, paper, box_glare):
                plan.pop(f)
        if f not in plan:
            truth[f] = "" if f.startswith("garden") else False
            kinds[f] = " ".join(["none/empty", *extra])
            continue
        col = pen.split("-", 1)[-1]
        truth[f] = VEG.get(col, "?") if f.startswith("garden") else True
        over = 2.5 if setting == "kids" else (1.0 if style in ("cross", "circle") else 0.4)
        room = _room(b, boxes, over)
        hw = b.w / 2 - (0.9 if b.kind == "check" else 0.6)
        strokes = _shape(style, hw, hw * b.h / b.w, rng, big * rng.uniform(0.85, 1.05))
        strokes = [s + rng.normal(0, 0.25, 2) for s in strokes]
        strokes = _fit(strokes, room, PENS[pen][1])
        big = np.vstack(strokes)
        reach = max(
            -big[:, 0].min() - b.w / 2, -big[:, 1].min() - b.h / 2, big[:, 0].max() - b.w / 2, big[:, 1].max() - b.h / 2
        )
        _draw_strokes(page, ink, strokes, off + (b.x + b.w / 2, b.y + b.h / 2), pen, k, rng)
        tags = [f"+{pen.split('-')[0]}"] if setting == "kids" else []
        tags += ["+overshoot"] if reach > 0.8 else []
        kinds[f] = " ".join([f"{pen}/{style}", *tags, *extra])
    hands = sorted({p.split("-")[0] for p, _, _ in plan.values()}) or ["hb"]
    wpen = hands[0] if setting != "kids" else "felt"
    wpen = {"dryerase": "dryerase-black", "crayon": "crayon-blue", "felt": "felt-black", "cpencil": "hb"}.get(
        wpen, wpen
    )
    for b in boxes:
        if (
            b.kind == "write"
            and not b.field.startswith("garden")
            and rng.random() < 0.5 * len(plan) / max(len(truth), 1) + 0.1
        ):
            _handwriting(page, b, off, wpen if wpen in PENS else "hb", k, rng)
    ghosts = 0
    if setting == "film":
        share = rng.uniform(0.1, 0.4)
        for f in truth_fields:
            if f not in plan and rng.random() < share:
                _ghost(page, by_field[f], off, k, rng)
                kinds[f] += " +ghost"
                ghosts += 1
        trans = np.array([rng.uniform(0.9, 0.95), rng.uniform(0.92, 0.96), rng.uniform(0.94, 0.98)], np.float32)
        page = page * trans + rng.uniform(0.03, 0.07)
        g = cv2.resize(glare, (page.shape[1], page.shape[0]), interpolation=cv2.INTER_LINEAR)[..., None]
        page = 1 - (1 - page) * (1 - g)
    # the scene: the page and what lies on it (table objects may hang over its edge)
    margin = 30.0 if setting == "table" else 0.0
    moff = np.array([margin, margin])
    if margin:
        pad = int(margin * k)
        rgb = cv2.copyMakeBorder(page, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0))
        alpha = cv2.copyMakeBorder(
            np.ones(page.shape[:2], np.float32), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0
        )
    else:
        rgb, alpha = page, np.ones(page.shape[:2], np.float32)
    shade = np.ones(alpha.shape, np.float32)
    objs = []
    if setting == "table":
        boxes_mm = [(b.x + at.left, b.y + at.top, b.w, b.h) for b in boxes if b.field in truth]
        ink_lo = cv2.resize(ink, (420, 594), interpolation=cv2.INTER_AREA)
        taken = np.zeros((594, 420), np.uint8)
        on_sheet = np.array([sheet[0] - 15, sheet[1] - 15, sheet[2] + 15, sheet[3] + 15])
        want = (
            ["pencil"] * (rng.random() < 0.6) + ["die"] * int(rng.integers(0, 4)) + ["meeple"] * int(rng.integers(0, 3))
        )
        want += ["token"] * int(rng.integers(0, 3))
        for kind in want:
            poly0, size = _object_shapes(kind, rng)
            pose = _place(poly0, boxes_mm, ink_lo, zones, rng, taken, on_sheet)
            if pose is None:
                continue
            poly, ang, c, occ = pose
            _draw_object(rgb, alpha, shade, kind, poly, ang, c, size, k, moff, rng)
            for f, (x, y, w, h) in zip([b.field for b in boxes if b.field in truth], boxes_mm):
                if occ[int(y * 2) : int((y + h) * 2), int(x * 2) : int((x + w) * 2)].mean() > (
                    taken[int(y * 2) : int((y + h) * 2), int(x * 2) : int((x + w) * 2)].mean() + 0.01
                ):
                    kinds[f] += " +object"
            taken = occ
            objs.append(kind)
        if rng.random() < 0.6:
            _cast_shadow(shade, k, moff, rng)
            objs.append("hand/phone shadow")
        for f in truth:
            b = by_field[f]
            cy, cx = int((b.y + at.top + b.h / 2 + margin) * k), int((b.x + at.left + b.w / 2 + margin) * k)
            if shade[cy, cx] < 0.93 and "+shadow" not in kinds[f]:
                kinds[f] += " +shadow"
    # the camera
    M, w, h, tilt, roll, out_dpi = _camera(rng, cam_dpi / 25.4)
    S = np.array([[1 / k, 0, -margin - 105], [0, 1 / k, -margin - 148.5], [0, 0, 1]])
    H = M @ S
    img = cv2.warpPerspective(rgb, H, (w, h), flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, H, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    sh_img = cv2.warpPerspective(shade, H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    table, tname = _table(rng, w, h)
    drop = cv2.GaussianBlur(a[..., 0], (0, 0), 4 + out_dpi / 60)
    drop = np.roll(drop, (int(rng.integers(2, 8)), int(rng.integers(-4, 5))), (0, 1))
    table *= (1 - 0.3 * drop)[..., None]
    img = table * (1 - a) + img * a
    img *= sh_img[..., None]
    yy, xx = np.mgrid[0 : h // 8 + 1, 0 : w // 8 + 1].astype(np.float32)
    yy, xx = yy / yy.max() - 0.5, xx / xx.max() - 0.5
    ang = rng.uniform(0, 2 * np.pi)
    light = 1 + rng.uniform(0.03, 0.12) * (xx * math.cos(ang) + yy * math.sin(ang)) * 2
    sx, sy = rng.uniform(-0.4, 0.4, 2)
    light += rng.uniform(0, 0.08) * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / 0.08)
    light *= 1 - rng.uniform(0.05, 0.2) * (xx**2 + yy**2) * 2
    light = cv2.resize(light.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    wb = np.array([rng.uniform(0.93, 1.05), 1.0, rng.uniform(0.9, 1.06)], np.float32)
    img = img * (light / light.max())[..., None] * wb * rng.uniform(0.88, 1.0)
    blur = rng.uniform(0.5, 1.3)
    img = cv2.GaussianBlur(img, (0, 0), blur)
    noise = rng.uniform(0.004, 0.012)
    img += rng.standard_normal(img.shape, dtype=np.float32) * noise * np.sqrt(np.clip(img, 0.05, 1))
    q = int(rng.integers(60, 93))
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, jpg = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    out = cv2.cvtColor(cv2.imdecode(jpg, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    what = {
        "film": f"sheet protector, {ghosts} ghosts, glare peak {glare.max():.2f}",
        "paper": f"{paper_name} paper",
        "table": "objects: " + (", ".join(objs) or "none placed"),
        "kids": "crayons and felt-tips",
    }[setting]
    kinds["_photo"] = (
        f"{layout.id}/{page_id} {lang}: {setting} ({what}), {len(plan)} marks of {len(truth)}; {tname} table, "
        f"{out_dpi:.0f} dpi, tilt {tilt:.1f}, roll {roll:.0f}, blur {blur:.2f}, noise {noise * 255:.1f}, "
        f"jpeg {q}, {w}x{h}"
    )
    return out, truth, kinds
