"""Ink in one box: the page's darkness over its paper, what counts as ink, a faint or a pale
trace, and the strokes a box holds or that only stray into it. Pure functions over arrays.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM, inside
from sheetgen.scan.tuning import HELD, INK, PALE


def page_darkness(cv2, np, gray):
    """Darkness 0-1 of a grey page, with the paper's uneven light divided out. The paper's
    brightness is that of the brightest square millimetre within 1.5 mm (the page averaged
    over 1 mm squares): the brightest single pixel nearby would be noise, a
    white speck of salt noise or the bright halo a phone's sharpening draws along every
    stroke, and would make every box look a little inked."""
    g = gray.astype(np.float32)
    h, w = g.shape
    mm = round(PPMM)
    block = cv2.resize(g, (w // mm, h // mm), interpolation=cv2.INTER_AREA)
    bg = cv2.dilate(block, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    bg = np.maximum(bg, cv2.GaussianBlur(bg, (0, 0), 4))
    out = np.divide(g, np.maximum(bg, 1.0, out=bg), out=g)  # (in place: a page of floats is large)
    return np.clip(np.subtract(1.0, out, out=out), 0.0, 1.0, out=out)


def middle_part(inner):
    """The middle of a box's inside (an array over it): without its outer sixth on every side."""
    h, w = inner.shape[:2]
    return inner[h // 6 : h - h // 6, w // 6 : w - w // 6]


def faint_trace(cv2, np, dark, faint: float) -> float:
    """The share of the middle of a box's inside (without its outer sixth on every side,
    away from its printed border, where a phone's sharpening draws its dark rim) holding a
    trace: darker than `faint` once specks of salt-and-pepper noise are smoothed out (a
    trace is a stroke)."""
    middle = middle_part(despeckled(cv2, np, dark) > faint * 255)
    return float(middle.mean()) if middle.size else 0.0


def despeckled(cv2, np, dark):
    """Darkness (0-1 over the blank page's) in 0-255, specks of salt-and-pepper noise smoothed out."""
    return cv2.medianBlur(np.clip(dark * 255, 0, 255).astype(np.uint8), 3)


def pale_darkness(cv2, np, dark, hidden):
    """A box's inside's darkness (over the blank page's, `dark`) in 0-255, specks smoothed
    out, and 0 where the print may hide or shift it (`hidden`)."""
    out = despeckled(cv2, np, dark)
    out[hidden] = 0
    return out


def pale_blurred(cv2, np, dark, hidden, specks: bool = False):
    """As `pale_darkness`, the darkness blurred (a Gaussian of `Pale.cell_blur` px) rather than
    its specks smoothed out: a pale stroke stays, a photo's speckle fades; with `specks`, its
    specks smoothed out first (a board cell's pencil: blurred alone, a sharpened photo's pepper
    specks spread into a grey as dark as a stroke; a light colour pencil's grainy stroke in a
    garden cell would be smoothed out with them)."""
    out = despeckled(cv2, np, dark).astype(np.float32) / 255 if specks else dark.astype(np.float32)
    out = np.clip(cv2.GaussianBlur(out, (0, 0), PALE.cell_blur) * 255, 0, 255).astype(np.uint8)
    out[hidden] = 0
    return out


def pale_stroke(cv2, np, pale, level: float) -> float:
    """The extent of the longest piece of a pale trace in a box's inside (`pale`, see `pale_darkness`):
    darker than `level` (0-255), in a piece of `Pale.pixels` at least; its bounding box's
    diagonal over the inside's. A light stroke crosses the box; the paper's grain, a JPEG's
    ringing and a noisy photo's speckle leave specks."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((pale > level).astype(np.uint8), connectivity=8)
    h, w = pale.shape[:2]
    pieces = [
        np.hypot(s[cv2.CC_STAT_WIDTH], s[cv2.CC_STAT_HEIGHT]) for s in stats[1:n] if s[cv2.CC_STAT_AREA] >= PALE.pixels
    ]
    return float(max(pieces) / np.hypot(w, h)) if pieces and h and w else 0.0


def spread(np, part) -> float:
    """How far the ink of a box's inside reaches across it: the smaller of the share of
    its width and of its height between the first and the last column (row) holding
    ink (`Ink.spread_px` at least, so a speck of noise does not count). A mark made in the box
    crosses it; a stroke straying in over the border stays in a corner or along an edge.
    A printed icon in the middle does not matter: only the ends count."""
    if part.size == 0:
        return 0.0
    out = 1.0
    for axis in (0, 1):
        hits = np.flatnonzero(part.sum(axis=axis) >= INK.spread_px)
        size = part.shape[1 - axis]
        out = min(out, (hits[-1] - hits[0] + 1) / size if len(hits) else 0.0)
    return float(out)


def held(cv2, np, ink, strong, bridge, box, origin) -> float:
    """The share of a box's inside inked by strokes the box holds. A stroke is a connected
    part of `ink` (an ink mask around the box, its top-left at `origin` px on the page),
    joined across print (`bridge`, where a stroke crossing a printed line is hidden), with
    a dark core (`strong`: a crease or a shadow's edge has none); the box holds it when it
    reaches the middle of the box's inside (the inside without its outer sixth on every side,
    as `verdict.Look`'s `middle` takes it), the middle of its extent lies in the inside
    and it reaches at most `Held.reach` of the box's size beyond the box. A small cross, a dot or
    a tick in a corner reaching the middle is held by its box without spreading over it;
    a big check overshooting two sides is held by the box its middle is in; a stroke
    straying in from the next box is held by that one."""
    x0, y0 = origin
    bx, by, bw, bh = (v * PPMM for v in (box.x, box.y, box.w, box.h))
    closed = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    joined = (ink | (closed.astype(bool) & bridge)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    ix, iy, iw, ih = (round(v * PPMM) for v in inside(box))
    sl = slice(iy - y0, iy - y0 + ih), slice(ix - x0, ix - x0 + iw)
    part = labels[sl] * ink[sl]
    if part.size == 0:
        return 0.0
    middle = middle_part(part)
    mine = np.zeros(n, bool)
    cores = np.bincount(labels[strong], minlength=n)
    for k in np.unique(middle[middle > 0]):
        left, top, w, h = stats[k, :4] + (x0, y0, 0, 0)
        inbox = ix <= left + w / 2 <= ix + iw and iy <= top + h / 2 <= iy + ih and cores[k] >= INK.core_px
        small = left >= bx - HELD.reach * bw and top >= by - HELD.reach * bh
        small = small and left + w <= bx + (1 + HELD.reach) * bw and top + h <= by + (1 + HELD.reach) * bh
        mine[k] = inbox and small and not _crosses(np, part == k)
    return float(mine[part].mean())


def longest(cv2, np, ink, strong, box, origin) -> float:
    """The longest piece of stroke inside a box's printed border (see `Mark.long`): connected parts
    of `ink` (an ink mask around the box, its top-left at `origin` px on the page; the print
    is not ink, so the box's border cuts strokes) within the box, reaching the middle of its
    inside (as `held` takes it), with a dark core (`strong`, `Ink.core_px` at least): the
    diagonal of its extent over the box's."""
    x0, y0 = origin
    bx, by, bw, bh = (round(v * PPMM) for v in (box.x, box.y, box.w, box.h))
    within = slice(by - y0, by - y0 + bh), slice(bx - x0, bx - x0 + bw)
    piece = ink[within].astype(np.uint8)
    if piece.size == 0 or not piece.any():
        return 0.0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(piece, connectivity=8)
    ix, iy, iw, ih = (round(v * PPMM) for v in inside(box))
    middle = middle_part(labels[iy - by : iy - by + ih, ix - bx : ix - bx + iw])
    cores = np.bincount(labels[strong[within]], minlength=n)
    mine = [k for k in np.unique(middle[middle > 0]) if cores[k] >= INK.core_px]
    if not mine:
        return 0.0
    return float(max(np.hypot(stats[k, 2], stats[k, 3]) for k in mine) / np.hypot(bw, bh))


def _crosses(np, stroke) -> bool:
    """Whether a stroke (a mask of a box's inside) is a line crossing the inside from one
    side to the other, thin across (`Held.thin`: a crease, a ruled line, a long stroke passing by)."""
    rows, cols = np.flatnonzero(stroke.any(axis=1)), np.flatnonzero(stroke.any(axis=0))
    h, w = stroke.shape
    across = cols[0] == 0 and cols[-1] == w - 1 and rows[-1] - rows[0] < HELD.thin * h
    down = rows[0] == 0 and rows[-1] == h - 1 and cols[-1] - cols[0] < HELD.thin * w
    return bool(across or down)


def grown_mask(cv2, np, mask, px: int):
    """`mask` grown by `px` pixels every way (a square)."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * px + 1,) * 2, np.uint8)).astype(bool)


def padded_mask(cv2, np, mask, pad: int):
    """A mask of the page with `pad` pixels of nothing around it, as `sight.see` pads the ink."""
    return cv2.copyMakeBorder(mask.astype(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0).astype(bool)
