"""Numbers drawn stroke by stroke, as a hand moves a pen: held out from the recogniser's
tuning, and sharing no drawing code with the other generators.

Each digit is a few strokes (polylines: arcs and lines through a unit box, y down), and each
hand draws them its own way: its control points moved, its slant, its width, a tremor along
every stroke, a pressure that swells and thins it, a 7 or a 1 with a bar or a flag, a 4 open
or closed. The pen is a felt-tip (thick, dark), a gel pen (blue or black), a fine ballpoint
or a pencil (grey, grainy). The size goes from cramped to large and over the border. Now and
then a number is struck through or scribbled over and the right one written after it.

The ink darkens the paper as ink does (it multiplies), and the page is then as a phone
shows it after the reader maps it: a slight perspective, focus or shake blur, uneven light
in broad patches, sensor noise, JPEG at a quality a phone picks.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from bench.handwriting import sheets
from sheetgen.scan.blank import PPMM

FINE = 4  # the strokes are drawn this many times finer, then averaged down to the page
STRUCK = 0.05  # of the numbers: struck through or scribbled over, the right one after it


def _arc(cx, cy, rx, ry, a0, a1, n=14):
    """Points of an ellipse's arc from a0 to a1 degrees (y down: increasing turns clockwise)."""
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a))) for a in np.linspace(a0, a1, n)]


def _shapes(style: dict) -> dict:
    """Each character's strokes in a unit box, in the hand's style."""
    one = [[(0.5, 0.0), (0.5, 1.0)]]
    if style["flag"]:
        one = [[(0.22, 0.25), (0.52, 0.0), (0.52, 1.0)]]
    seven = [[(0.05, 0.02), (0.95, 0.0), (0.38, 1.0)]]
    if style["barred"]:
        seven.append([(0.35, 0.5), (0.8, 0.5)])
    four = [[(0.72, 1.0), (0.72, 0.0), (0.05, 0.68), (0.95, 0.68)]]
    if style["open_four"]:
        four = [[(0.3, 0.0), (0.1, 0.62), (0.92, 0.62)], [(0.7, 0.22), (0.7, 1.0)]]
    return {
        "0": [_arc(0.5, 0.5, 0.42, 0.5, -100, 265, 24)],
        "1": one,
        "2": [_arc(0.5, 0.3, 0.4, 0.3, 205, 400) + [(0.06, 1.0), (0.94, 0.98)]],
        "3": [_arc(0.46, 0.26, 0.36, 0.26, 200, 450), _arc(0.46, 0.73, 0.42, 0.27, 270, 520)],
        "4": four,
        "5": [[(0.88, 0.0), (0.2, 0.02), (0.14, 0.46)] + _arc(0.48, 0.68, 0.4, 0.32, 215, 510)],
        "6": [[(0.78, 0.0), (0.35, 0.3)] + _arc(0.5, 0.7, 0.38, 0.3, 200, 560, 22)],
        "7": seven,
        "8": [_arc(0.5, 0.25, 0.32, 0.25, 90, 450, 18), _arc(0.5, 0.72, 0.4, 0.28, -90, 270, 18)],
        "9": [_arc(0.52, 0.3, 0.38, 0.3, 0, 360, 18) + [(0.86, 0.55), (0.78, 1.0)]],
        "-": [[(0.1, 0.52), (0.9, 0.5)]],
        "+": [[(0.1, 0.52), (0.9, 0.5)], [(0.5, 0.15), (0.5, 0.88)]],
        ",": [[(0.55, 0.86), (0.38, 1.12)]],
    }


TALLEST = 10.0  # mm: a hand's largest writing (its size's share of it), however tall the box
WIDTHS = {"1": 0.35, "-": 0.6, "+": 0.7, ",": 0.25, " ": 0.45}  # a character's width, of a digit's


def _hand(rng) -> dict:
    pen = str(rng.choice(["felt-tip", "gel blue", "gel black", "fine ballpoint", "pencil"]))
    size = str(rng.choice(["cramped", "small", "medium", "large", "over the border"]))
    return {
        "pen": pen,
        "size": size,
        "tall": {"cramped": 0.42, "small": 0.55, "medium": 0.66, "large": 0.8, "over the border": 1.08}[size],
        "width": {"felt-tip": 0.5, "gel blue": 0.32, "gel black": 0.32, "fine ballpoint": 0.2, "pencil": 0.28}[pen],
        # how much of the light each colour channel lets through where the ink is full
        "tint": {
            "felt-tip": (0.12, 0.12, 0.14),
            "gel blue": (0.2, 0.25, 0.7),
            "gel black": (0.1, 0.1, 0.1),
            "fine ballpoint": (0.25, 0.28, 0.55),
            "pencil": (0.5, 0.5, 0.52),
        }[pen],
        "slant": rng.normal(0.12, 0.12),  # shear: x moves by slant * (1 - y)
        "aspect": rng.uniform(0.5, 0.75),  # a digit's width, of its height
        "wobble": rng.uniform(0.0, 0.04),  # a control point moved this much (of the height)
        "tremor": rng.uniform(0.0, 0.015),
        "spacing": rng.uniform(0.1, 0.35),
        "style": {"flag": rng.random() < 0.6, "barred": rng.random() < 0.3, "open_four": rng.random() < 0.4},
    }


def _text_strokes(text: str, hand: dict, rng) -> tuple[list, float]:
    """`text`'s strokes in units of its height (x right, y down), and its width."""
    shapes = _shapes(hand["style"])
    out, x = [], 0.0
    for ch in text:
        w = WIDTHS.get(ch, 1.0) * hand["aspect"]
        if ch in shapes:
            size = rng.uniform(0.9, 1.08)
            lift = rng.normal(0, 0.04)
            for stroke in shapes[ch]:
                pts = np.array(stroke, np.float64)
                pts += rng.normal(0, hand["wobble"], pts.shape)
                pts[:, 0] = pts[:, 0] * w * size + x + hand["slant"] * (1 - pts[:, 1])
                pts[:, 1] = pts[:, 1] * size + lift + (1 - size)
                out.append(_tremble(pts, hand["tremor"], rng))
        x += w + hand["spacing"] * hand["aspect"]
    return out, max(x - hand["spacing"] * hand["aspect"], 0.1)


def _tremble(pts, amount: float, rng):
    """The stroke resampled finely, each point moved by a slow random walk (a hand's tremor)."""
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    along = np.concatenate([[0], np.cumsum(seg)])
    n = max(2, int(along[-1] * 40))
    t = np.linspace(0, along[-1], n)
    fine = np.stack([np.interp(t, along, pts[:, 0]), np.interp(t, along, pts[:, 1])], 1)
    walk = np.cumsum(rng.normal(0, amount, (n, 2)), axis=0)
    walk -= np.linspace(0, 1, n)[:, None] * walk[-1]  # (the stroke ends where it meant to)
    return fine + walk


def _draw(cover, strokes, x0: float, y0: float, height: float, hand: dict, rng) -> None:
    """The strokes (units of `height` fine px) laid on `cover` (fine px) at (x0, y0): each
    segment as thick as the pen and the pressure there."""
    base = hand["width"] * PPMM * FINE
    for stroke in strokes:
        pts = np.column_stack([x0 + stroke[:, 0] * height, y0 + stroke[:, 1] * height])
        n = len(pts)
        press = 0.75 + 0.35 * np.sin(np.linspace(0, math.pi, n) + rng.uniform(-0.5, 0.5))
        for k in range(n - 1):
            a = tuple(int(round(v * 8)) for v in pts[k])
            b = tuple(int(round(v * 8)) for v in pts[k + 1])
            cv2.line(cover, a, b, 1.0, max(1, int(round(base * press[k]))), cv2.LINE_AA, shift=3)


def _write(cover, box, lines: list[str], hand: dict, rng, struck: bool) -> None:
    """The lines written in the box, in the hand's size, smaller when they would not fit."""
    bw, bh = box.w * PPMM * FINE, box.h * PPMM * FINE
    n = len(lines)
    tall = bh * hand["tall"] * rng.uniform(0.88, 1.1) / (1 if n == 1 else 0.8 * n)
    tall = min(tall, TALLEST * hand["tall"] * PPMM * FINE)  # (a tall box gets no taller writing)
    if n > 1:  # (lines of a list keep within their box)
        tall = min(tall, bh / (1.2 * n))
    drawn = [_text_strokes(t, hand, rng) for t in lines]
    step = tall * 1.2
    top = box.y * PPMM * FINE + (bh - (n - 1) * step - tall) / 2 + rng.normal(0, 0.06) * bh
    for (strokes, width), _text in zip(drawn, lines):
        h = tall
        room = bw * (0.45 if struck else 0.92)
        if width * h > room:  # (a hand writes smaller where it must)
            h = room / width
        y = top + (tall - h) * rng.uniform(0.3, 0.8)
        free = bw - width * h * (2.2 if struck else 1)
        x = box.x * PPMM * FINE + max(0.0, free) * rng.uniform(0.15, 0.85) + min(0.0, free) / 2
        if struck:
            wrong = str(int(rng.integers(0, 30)))
            w_strokes, w_width = _text_strokes(wrong, hand, rng)
            wh = min(h, width * h / w_width)
            _draw(cover, w_strokes, x, y + (h - wh), wh, hand, rng)
            _strike(cover, x, y, w_width * wh, h, hand, rng)
            x += w_width * wh * 1.15  # (past the wrong number as drawn: no wider than the right one)
        _draw(cover, strokes, x, y, h, hand, rng)
        top += step


def _strike(cover, x, y, w, h, hand, rng) -> None:
    """A number struck out: a line across it, past both ends, or a scribble over it."""
    thick = max(1, int(round(hand["width"] * PPMM * FINE)))
    if rng.random() < 0.5:
        over = rng.uniform(0.15, 0.35) * h
        a = (x - over, y + h * rng.uniform(0.35, 0.6))
        b = (x + w + over, y + h * rng.uniform(0.35, 0.6))
        pts = [a, b]
    else:
        pts = [(x + w * k / 9 + rng.normal(0, 0.03 * w), y + h * (0.1 if k % 2 else 0.9)) for k in range(10)]
    arr = (np.array(pts) * 8).round().astype(np.int32)
    cv2.polylines(cover, [arr], False, 1.0, thick, cv2.LINE_AA, shift=3)


def _tick(cover, box, hand, rng) -> None:
    """A board copy's cell ticked: a slash or a cross."""
    x, y, w, h = (v * PPMM * FINE for v in (box.x, box.y, box.w, box.h))
    thick = max(1, int(round(hand["width"] * PPMM * FINE)))

    def corner(right: bool, low: bool) -> tuple:
        fx, fy = rng.uniform(0.15, 0.3), rng.uniform(0.15, 0.3)
        return int(x + w * (1 - fx if right else fx)), int(y + h * (1 - fy if low else fy))

    cv2.line(cover, corner(False, False), corner(True, True), 1.0, thick)
    if rng.random() < 0.6:
        cv2.line(cover, corner(False, True), corner(True, False), 1.0, thick)


def page(layout, page_id: str, players: int, lang: str, rng):
    """(the page as the reader maps a photo of it, the sheet played, kinds)."""
    played = sheets.played(layout, page_id, players, rng)
    boxes, img = sheets.clean_page(layout, page_id, players, lang)
    rows, cols = img.shape[:2]
    shade = np.ones(img.shape, np.float32)  # the light let through, each channel
    hands, kinds = {}, {}
    for f, box in boxes.items():
        lines = played.lines.get(f) or ([played.others[f]] if f in played.others else [])
        if not lines and not played.ticks.get(f):
            continue
        who = _player(f)
        hand = hands.setdefault(who, _hand(rng))
        # one box at a time, drawn fine in a window round it, then averaged down
        m = 0.6 * max(box.h, 2.0)
        x0, y0 = max(0, int((box.x - m) * PPMM)), max(0, int((box.y - m) * PPMM))
        x1, y1 = min(cols, int((box.x + box.w + 2 * m) * PPMM)), min(rows, int((box.y + box.h + m) * PPMM))
        cover = np.zeros(((y1 - y0) * FINE, (x1 - x0) * FINE), np.float32)
        shifted = _Shifted(box, x0, y0)
        if played.ticks.get(f):
            _tick(cover, shifted, hand, rng)
        else:
            struck = f in played.truth and len(lines) == 1 and rng.random() < STRUCK
            kinds[f] = f"{hand['pen']}, {hand['size']}" + (", struck out" if struck else "")
            _write(cover, shifted, lines, hand, rng, struck)
        small = cv2.resize(cover, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        if hand["pen"] == "pencil":  # (graphite leaves the paper's grain showing)
            small *= np.clip(rng.normal(0.85, 0.3, small.shape), 0.2, 1.0).astype(np.float32)
        small = np.clip(small, 0, 1)[..., None]
        tint = np.array(hand["tint"], np.float32)
        shade[y0:y1, x0:x1] *= 1 - small * (1 - tint)
    return _phone(img.astype(np.float32) * shade, rng), played, kinds


class _Shifted:
    """A box's rectangle moved into a window whose corner is (x0, y0) px of the page."""

    def __init__(self, box, x0: int, y0: int):
        self.x, self.y, self.w, self.h = box.x - x0 / PPMM, box.y - y0 / PPMM, box.w, box.h


def _player(f: str) -> str:
    """A pad's player column in a field name (`_p3` in `row_2_p3_count`); '' for a sheet's one."""
    for part in reversed(f.split("_")):
        if len(part) > 1 and part[0] == "p" and part[1:].isdigit():
            return part
    return ""


def _phone(img, rng):
    """The page as a phone shows it, mapped back: a slight perspective, blur (focus or
    shake), light in broad patches, noise, JPEG."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.normal(0, 0.8, (4, 2)).astype(np.float32)
    img = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (w, h), borderValue=(255, 255, 255))
    if rng.random() < 0.5:  # shake: a short line of blur
        n = int(rng.integers(1, 3))
        k = np.zeros((n * 2 + 1, n * 2 + 1), np.float32)
        a = rng.uniform(0, math.pi)
        dx, dy = n * math.cos(a), n * math.sin(a)
        cv2.line(k, (int(n - dx), int(n - dy)), (int(n + dx), int(n + dy)), 1.0)
        img = cv2.filter2D(img, -1, k / k.sum())
    else:  # out of focus: a disc
        r = int(rng.integers(1, 3))
        k = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(k, (r, r), r, 1.0, -1)
        img = cv2.filter2D(img, -1, k / k.sum())
    patches = rng.uniform(0.72, 1.0, (3, 4)).astype(np.float32)
    light = cv2.resize(patches, (w, h), interpolation=cv2.INTER_CUBIC)
    img = img * np.clip(light, 0.6, 1.05)[..., None] * rng.uniform(0.88, 1.0, 3).astype(np.float32)
    img = img + rng.normal(0, 1, img.shape).astype(np.float32) * np.sqrt(np.clip(img, 1, 255)) * rng.uniform(0.1, 0.4)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 92))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
