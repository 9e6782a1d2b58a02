"""Pencil marks photographed by a phone: the generator the reader is tuned on, and the tests'.

The sheet is rendered at 100-300 dpi (pdfium), a random 20-60% of its boxes marked in pencil
(ticks, crosses, scribbled fills, light strokes, strokes straying over the border; garden
cells in the dice's colour pencils), then the paper is photographed: on a table, turned to
any angle, in perspective (up to about 20 degrees of tilt), blurred, unevenly lit, noisy and
JPEG-compressed (quality 40-90).

`photo(layout, page_id, rng)` gives (RGB image, truth): truth maps every box read by
`sheetgen scan` to True/False (a tick box) or the cell's letter ('' when empty).
"""

from __future__ import annotations

import math

from bench.photos import pages

PENCIL = (70, 70, 78)
INKS = {"C": (235, 120, 20), "S": (40, 150, 50), "T": (210, 30, 30)}  # colour pencils of the dice


def draw_mark(cv2, img, box, ppmm: float, origin, rng, colour) -> None:
    """One pencil mark in `box`: a tick, a cross, a scribble fill, a light stroke, or one
    that strays over the border."""
    ox, oy = origin
    x0, y0 = ox + box.x * ppmm, oy + box.y * ppmm
    w, h = box.w * ppmm, box.h * ppmm
    kind = rng.choice(["tick", "cross", "cross", "fill", "light", "stray"])
    thick = max(1, round(rng.uniform(0.35, 0.6) * ppmm))
    col = colour
    if kind == "light":
        col = tuple(int(c + (255 - c) * 0.45) for c in colour)

    def p(fx, fy):
        return (round(x0 + fx * w + rng.normal(0, 0.03) * w), round(y0 + fy * h + rng.normal(0, 0.03) * h))

    lines = []
    if kind == "tick":
        lines = [(p(0.2, 0.55), p(0.42, 0.8)), (p(0.42, 0.8), p(0.82, 0.2))]
    elif kind in ("cross", "light"):
        lines = [(p(0.2, 0.2), p(0.8, 0.8)), (p(0.2, 0.8), p(0.8, 0.2))]
    elif kind == "stray":
        lines = [(p(0.15, 0.25), p(1.25, 0.9)), (p(0.2, 0.8), p(0.8, 0.2))]
    else:
        n = 6
        for i in range(n):
            fy = 0.2 + 0.6 * i / (n - 1)
            lines.append((p(0.18, fy), p(0.82, fy + 0.05)))
    for a, b in lines:
        cv2.line(img, a, b, col, thick, cv2.LINE_AA)


def degrade(cv2, np, img, rng, dpi: float):
    """The paper photographed: on a table, turned, in perspective, blurred, unevenly lit,
    noisy, JPEG-compressed. Returns the JPEG bytes decoded (RGB)."""
    h, w = img.shape[:2]
    pad = round(0.12 * max(w, h))
    table = tuple(int(v) for v in rng.integers(40, 140, 3))
    canvas = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=table)
    H, W = canvas.shape[:2]
    src = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
    tilt = rng.uniform(0, 0.12)  # perspective: up to ~20 degrees of camera tilt
    dst = src.copy()
    side = rng.integers(4)
    a, b = side, (side + 1) % 4
    centre = src.mean(axis=0)
    for k in (a, b):
        dst[k] = centre + (src[k] - centre) * (1 - tilt)
    dst += rng.normal(0, 0.01 * w, dst.shape).astype(np.float32)
    angle = math.radians(rng.uniform(0, 360))
    rot = np.float32([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    dst = (dst - centre) @ rot.T + centre
    size = math.ceil(math.hypot(W, H))
    dst += (size - np.array([W, H])) / 2
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    out = cv2.warpPerspective(canvas, m, (size, size), flags=cv2.INTER_LINEAR, borderValue=table)
    # uneven light: a gradient across the picture, and a soft shadow
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = 1.0 - np.clip(0.5 * (gx * (xx - 0.5) + gy * (yy - 0.5)) + rng.uniform(0, 0.2), 0, 0.55)
    out = out.astype(np.float32) * light[..., None]
    sigma = rng.uniform(0, 1.2) * dpi / 150
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += rng.normal(0, rng.uniform(1, 6), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 91))]
    ok, jpg = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), quality)
    return cv2.cvtColor(cv2.imdecode(jpg, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def photo(
    layout,
    page_id: str,
    rng,
    *,
    dpi: float | None = None,
    share: float | None = None,
    colours: bool = True,
    lang: str | None = None,
    players: int | None = None,
    photographed: bool = True,
):
    """(RGB photo, truth) of one page with a random set of boxes marked. A pad for
    several players (Glassworks) is printed for a random count unless `players` says.
    Not `photographed`: the marked paper itself (A4 at `dpi`), to photograph with others."""
    import cv2
    import numpy as np

    from sheetgen.scan.blank import grid_cells

    dpi = dpi or float(rng.uniform(100, 300))
    low, high = layout.players["min"], layout.players["max"]
    if players is None and low < high:
        players = int(rng.integers(low, high + 1))
    img, display, origin = pages.blank_paper(layout, page_id, dpi, lang or str(rng.choice(["en", "fr"])), players)
    ppmm = dpi / 25.4
    cells = grid_cells(layout, page_id)
    share = rng.uniform(0.2, 0.6) if share is None else share
    truth = mark_boxes(cv2, img, display, cells, ppmm, origin, rng, share, colours)
    return (degrade(cv2, np, img, rng, dpi) if photographed else img), truth


def mark_boxes(cv2, img, display, cells: set, ppmm: float, origin, rng, share: float | None, colours: bool = True):
    """Pencil marks on a random `share` of a page's markable boxes (`display`'s, drawn on
    `img` at `ppmm` from `origin` px), a grid cell's (`cells`) in a dice colour (or
    pencil, its letter '?', when not `colours`): the truth, a field's letter or True.
    `share` None: no box marked (and no draw of `rng` for it)."""
    truth = {}
    for box in display.boxes():
        if box.kind == "write" and box.field not in cells:
            continue
        marked = share is not None and bool(rng.random() < share)
        if box.field in cells:
            letter = str(rng.choice(list(INKS))) if colours else "?"
            truth[box.field] = letter if marked else ""
            colour = INKS.get(letter, PENCIL)
        else:
            truth[box.field] = marked
            colour = PENCIL
        if marked:
            draw_mark(cv2, img, box, ppmm, origin, rng, colour)
    return truth
