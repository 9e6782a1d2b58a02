"""Numbers written in Debian's handwriting fonts (fonts-bwht, fonts-dkg-handwriting,
fonts-breip, fonts-humor-sans): the set the recogniser's threshold is chosen on.
(fonts-femkeklaver draws its digits hollow, outlined, as no pen writes: it is left out.)

Each player (a pad's column) writes in one face, with one pen (a pencil, grainy, or a
ballpoint, blue or black) and one habit of size, from cramped to large and running over the
border, each character turned, raised and spaced a little its own way. Now and then a
number is crossed out (a stroke or a scribble) and the right one written beside it. The page
is then as a phone's photo maps onto it: a pixel or two off, blurred, unevenly lit, noisy,
JPEG-compressed.
"""

from __future__ import annotations

import glob
import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from bench.handwriting import sheets
from sheetgen.scan.blank import PPMM

FACES = (
    "/usr/share/fonts/opentype/bwht/*.otf",
    "/usr/share/fonts/truetype/fifthhorseman/*.ttf",
    "/usr/share/fonts/truetype/breip/Breip.ttf",
    "/usr/share/fonts/truetype/humor-sans/*.ttf",
)
UP = 3  # the writing is drawn this many times finer, then brought to the page's resolution
CROSSED = 0.04  # of the numbers, crossed out and written again beside


def faces() -> list[str]:
    found = sorted(f for pattern in FACES for f in glob.glob(pattern))
    if not found:
        raise SystemExit("no handwriting fonts: apt-get install fonts-bwht fonts-dkg-handwriting fonts-breip ...")
    return found


def page(layout, page_id: str, players: int, lang: str, rng):
    """(the page as the reader maps a photo of it, the sheet played, kinds)."""
    played = sheets.played(layout, page_id, players, rng)
    boxes, img = sheets.clean_page(layout, page_id, players, lang)
    ink = np.zeros(img.shape[:2], np.float32)  # how much ink covers each pixel (0-1)
    colour = np.zeros(img.shape, np.float32)
    hands: dict = {}
    kinds = {}
    for f, box in boxes.items():
        lines = played.lines.get(f) or ([played.others[f]] if f in played.others else [])
        if not lines and not played.ticks.get(f):
            continue
        hand = hands.setdefault(_column(f), _hand(rng))
        if played.ticks.get(f):
            _cross(ink, colour, box, hand, rng)
            continue
        crossed = f in played.truth and rng.random() < CROSSED and len(lines) == 1
        kinds[f] = f"{hand['pen']}, {hand['size']}" + (", crossed out" if crossed else "")
        _write(ink, colour, box, lines, hand, rng, crossed)
    shown = img.astype(np.float32) * (1 - ink[..., None]) + colour
    return _camera(np.clip(shown, 0, 255).astype(np.uint8), rng), played, kinds


def _column(f: str) -> str:
    """Whose hand writes in a box: a pad's column (its `_p<i>` part), else the sheet's one."""
    parts = [p for p in f.split("_") if p[:1] == "p" and p[1:].isdigit()]
    return parts[-1] if parts else ""


def _hand(rng) -> dict:
    pen = str(rng.choice(["pencil", "pencil", "ballpoint blue", "ballpoint black", "soft pencil"]))
    size = str(rng.choice(["cramped", "small", "medium", "large", "over the border"]))
    return {
        "face": str(rng.choice(faces())),
        "pen": pen,
        "size": size,
        "height": {"cramped": 0.45, "small": 0.55, "medium": 0.68, "large": 0.82, "over the border": 1.05}[size],
        "rgb": {
            "pencil": (85, 85, 92),
            "soft pencil": (60, 60, 66),
            "ballpoint blue": (30, 45, 150),
            "ballpoint black": (25, 25, 30),
        }[pen],
        "alpha": {"pencil": 0.75, "soft pencil": 0.9, "ballpoint blue": 0.95, "ballpoint black": 0.95}[pen]
        * rng.uniform(0.75, 1.0),
        "slant": rng.uniform(-8, 8),
        "bold": int(rng.integers(0, 2)),
    }


def _glyphs(text: str, hand: dict, px: float, rng) -> Image.Image:
    """`text` in the hand's face, `px` tall, each character turned and raised its own way: a
    coverage picture (L, 0-255)."""
    font = ImageFont.truetype(hand["face"], max(8, round(px)))
    pieces = []
    for ch in text:
        if ch == " ":
            pieces.append(Image.new("L", (round(px * 0.35), round(px * 1.6)), 0))
            continue
        left, _, r, _ = font.getbbox(ch)
        ascent, descent = font.getmetrics()
        tile = Image.new("L", (r - left + round(px * 0.6), ascent + descent + round(px * 0.6)), 0)
        ImageDraw.Draw(tile).text(
            (round(px * 0.3) - left, round(px * 0.3) + rng.normal(0, 0.05) * px),
            ch,
            font=font,
            fill=255,
            stroke_width=hand["bold"],
            stroke_fill=255,
        )
        pieces.append(tile.rotate(rng.normal(hand["slant"], 4), resample=Image.BICUBIC))
    gap = [round(px * rng.uniform(-0.5, -0.25)) for _ in pieces]
    width = sum(p.width for p in pieces) + sum(gap[1:])
    tall = max(p.height for p in pieces)
    out = Image.new("L", (max(1, width), tall), 0)
    x = 0
    for k, p in enumerate(pieces):
        x += gap[k] if k else 0
        y = 0  # (every tile has the font's height: the characters stand on its baseline)
        under = np.asarray(out.crop((x, y, x + p.width, y + p.height)))
        out.paste(Image.fromarray(np.maximum(under, np.asarray(p))), (x, y))
        x += p.width
    box = out.getbbox()
    return out.crop(box) if box else out


def _write(ink, colour, box, lines: list[str], hand: dict, rng, crossed: bool) -> None:
    """The box's lines written in it, in the hand's size (squeezed to fit the box's width,
    as a hand writes smaller when it must)."""
    bw, bh = box.w * PPMM * UP, box.h * PPMM * UP
    n = len(lines)
    px = bh * hand["height"] * rng.uniform(0.85, 1.1) / max(1, n * 0.75)
    shown = []
    for text in lines:
        glyphs = _glyphs(text, hand, px, rng)
        squeeze = min(1.0, bw * 0.92 / max(1, glyphs.width * (2.2 if crossed else 1)))
        shown.append(glyphs.resize((max(1, round(glyphs.width * squeeze)), max(1, round(glyphs.height * squeeze)))))
    total = sum(g.height for g in shown) * 1.15
    y = box.y * PPMM * UP + (bh - total) / 2 + rng.normal(0, 0.08) * bh / n
    for g in shown:
        free = bw - g.width * (2.1 if crossed else 1)
        x = box.x * PPMM * UP + max(0, free) * rng.uniform(0.2, 0.8) + min(0, free) / 2
        if crossed:
            wrong = _glyphs(str(int(rng.integers(0, 20))), hand, px, rng).resize(g.size)
            _paint(ink, colour, wrong, x, y, hand)
            _strike(ink, colour, x, y, g.width, g.height, hand, rng)
            x += g.width * 1.1
        _paint(ink, colour, g, x, y, hand)
        y += g.height * 1.15


def _paint(ink, colour, glyphs: Image.Image, x: float, y: float, hand: dict) -> None:
    """Coverage (at UP times the page's resolution) laid on the page at (x, y) in fine px."""
    w, h = max(1, round(glyphs.width / UP)), max(1, round(glyphs.height / UP))
    cover = np.asarray(glyphs.resize((w, h), Image.LANCZOS), np.float32) / 255 * hand["alpha"]
    if "pencil" in hand["pen"]:
        cover *= np.clip(np.random.default_rng(int(x * 7 + y)).normal(1.0, 0.25, cover.shape), 0.3, 1.2)
    x0, y0 = round(x / UP), round(y / UP)
    rows, cols = ink.shape
    ys, xs = slice(max(0, y0), min(rows, y0 + h)), slice(max(0, x0), min(cols, x0 + w))
    part = cover[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0]
    over = np.maximum(ink[ys, xs], part)
    colour[ys, xs] = np.asarray(hand["rgb"], np.float32) * over[..., None]
    ink[ys, xs] = over


def _strike(ink, colour, x, y, w, h, hand, rng) -> None:
    """A crossing-out over (x, y, w, h) in fine px: a stroke across, or a scribble."""
    over = rng.uniform(0.15, 0.4) * h  # (a stroke across runs past the number)
    cover = Image.new("L", (max(1, round(w + 2 * over)), max(1, round(h))), 0)
    d = ImageDraw.Draw(cover)
    thick = max(2, round(h * rng.uniform(0.06, 0.12)))
    if rng.random() < 0.5:
        d.line([(0, h * rng.uniform(0.35, 0.65)), (w + 2 * over, h * rng.uniform(0.35, 0.65))], fill=255, width=thick)
    else:
        pts = [(over + w * k / 8, h * (0.2 if k % 2 else 0.8)) for k in range(9)]
        d.line(pts, fill=255, width=thick)
    _paint(ink, colour, cover, x - over, y, hand)


def _cross(ink, colour, box, hand, rng) -> None:
    """A cross in a board copy's cell."""
    w, h = box.w * PPMM * UP, box.h * PPMM * UP
    cover = Image.new("L", (round(w), round(h)), 0)
    d = ImageDraw.Draw(cover)
    thick = max(2, round(0.35 * PPMM * UP))
    d.line([(w * 0.2, h * 0.2), (w * 0.8, h * 0.8)], fill=255, width=thick)
    d.line([(w * 0.2, h * 0.8), (w * 0.8, h * 0.2)], fill=255, width=thick)
    _paint(ink, colour, cover, box.x * PPMM * UP, box.y * PPMM * UP, hand)


def _camera(img, rng):
    """The page as a phone's photo maps onto it: off by a pixel or two (turned, scaled a
    little), blurred, unevenly lit, noisy, JPEG-compressed."""
    import cv2

    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.normal(0, 0.02), 1 + rng.normal(0, 0.0003))
    m[:, 2] += rng.normal(0, 0.5, 2)
    img = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    sigma = rng.uniform(0.3, 1.3)
    img = cv2.GaussianBlur(img, (0, 0), sigma).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 - rng.uniform(0, 0.25) * np.abs((xx / w) * rng.uniform(-1, 1) + (yy / h) * rng.uniform(-1, 1))
    tint = rng.uniform(0.85, 1.0, 3).astype(np.float32)
    img = img * light[..., None] * tint + rng.normal(0, rng.uniform(1, 6), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=int(rng.integers(55, 95)))
    return np.asarray(Image.open(buf).convert("RGB"))
