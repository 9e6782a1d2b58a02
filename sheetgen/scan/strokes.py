"""Ink in one box: the page's darkness over its paper, what counts as ink, a faint or a pale
trace, and the strokes a box holds or that only stray into it. Pure functions over arrays.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM, inside

# a box's ink score (the share of its inside darker than the blank page by a clear
# margin): above HIGH it is marked, below LOW empty, between unsure
LOW, HIGH = 0.012, 0.035
# a box is marked (`verdict.decide`) when strokes the box holds (see `held`: their middle in the
# inside, reaching at most HOLD of the box's size out of it, not a THIN line crossing it) ink
# HELD of its inside
HOLD, THIN, HELD = 0.5, 0.35, 0.05
# darkness over the paper: ink above INK; a mark has a core darker than CORE (or, in a
# grid cell, coloured: a colour pencil is not a smudge), which a grey wash (a mistake
# rubbed out) has not
INK, CORE = 0.16, 0.2
# a box is only read empty when it also holds no faint trace: a light pencil stroke blurred
# at a low resolution can stay under INK, but over FAINT on more than FAINT_LOW of the box it
# is no empty box (clean empty boxes stay under 0.01): it reads unsure, never empty
FAINT, FAINT_LOW = 0.08, 0.02
# ...nor when a paler trace (PALE[0] of FAINT's darkness, and over PALE[1] times the photo's own
# level: see `pale_level`) off the print is a stroke: a piece of PALE[3] pixels at least whose
# extent is PALE[2] of the inside's diagonal (see `pale_stroke`): a hard pencil's tick pressed
# lightly, on a clean photo, whose faint trace is a few pixels; a round box is no empty box
# either when that pale trace goes round it (RING, `round_about`: a light circle drawn wide of
# its ring). The seventh generator's seeds 1-2 (30 photos each) read 21 and 13 marks empty,
# 7 and 4 since; on 735 photos of six other generators no wrong read more, 3 fewer, and 0-30
# more boxes unsure a hundred photos, most of them a mistake rubbed out (its ghost is rightly
# unsure). A noisy photo's speckle joins into pieces as long, but its own level is high: the
# 99th percentile of the middle of its blank boxes (their median). PALE[2] was 0.25 at first:
# light ticks and crosses mostly hidden by an icon or blurred away still showed pieces 0.155-0.221
# long (10 marks read empty on the seventh generator's seeds 1-3 and the third's seed 3); an
# empty box's pieces that long are a stroke straying in from the next box, an icon's print shifted
# or a mistake rubbed out: unsure is no wrong read (of 805 photos of eight generators, 53,811
# boxes: 13 marks read empty now unsure, and 56 mistakes rubbed out and 28 empty boxes)
PALE = (0.6, 3.0, 0.15, 20)
# ...in a grid cell (no print in it), that paler trace is looked for blurred (a Gaussian of
# PALE_CELL[0] px) at PALE_CELL[1] of FAINT's darkness, over its page's cells' own level: a light
# colour pencil's letter or blob in a garden cell shows as little darker than the paper as a
# speckled photo's grain (the seventh generator's seed 4 photo 15: 0.02-0.04 where its bare
# paper's speckle reaches 0.03, four marks read empty), but it is a stroke, and the speckle
# blurs away. On 293 photos of six generators: those four unsure, and one empty cell and 13
# mistakes rubbed out (a ghost is rightly unsure). The same in every box made 88 blank boxes
# unsure for 4 more marks found (96 for 3 with the print's mask grown 3 px): boxes with print
# are smaller, and strokes straying in from the next box reach them
PALE_CELL = (1.5, 0.3)


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
    """As `pale_darkness`, the darkness blurred (a Gaussian of PALE_CELL[0] px) rather than its
    specks smoothed out: a pale stroke stays, a photo's speckle fades; with `specks`, its
    specks smoothed out first (a board cell's pencil: blurred alone, a sharpened photo's
    pepper specks spread into a grey as dark as a stroke, and the probe's seed [1, 6]
    photo, salted, read six more empty board cells unsure; a light colour pencil's grainy
    stroke in a garden cell is smoothed out with them: the seventh generator's seed 4
    photo 15, two pale orange marks read empty)."""
    out = despeckled(cv2, np, dark).astype(np.float32) / 255 if specks else dark.astype(np.float32)
    out = np.clip(cv2.GaussianBlur(out, (0, 0), PALE_CELL[0]) * 255, 0, 255).astype(np.uint8)
    out[hidden] = 0
    return out


def pale_stroke(cv2, np, pale, level: float) -> float:
    """The extent of the longest piece of a pale trace in a box's inside (`pale`, see `pale_darkness`):
    darker than `level` (0-255), in a piece of PALE[3] pixels at least; its bounding box's
    diagonal over the inside's. A light stroke crosses the box; the paper's grain, a JPEG's
    ringing and a noisy photo's speckle leave specks."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((pale > level).astype(np.uint8), connectivity=8)
    h, w = pale.shape[:2]
    pieces = [
        np.hypot(s[cv2.CC_STAT_WIDTH], s[cv2.CC_STAT_HEIGHT]) for s in stats[1:n] if s[cv2.CC_STAT_AREA] >= PALE[3]
    ]
    return float(max(pieces) / np.hypot(w, h)) if pieces and h and w else 0.0


def spread(np, part) -> float:
    """How far the ink of a box's inside reaches across it: the smaller of the share of
    its width and of its height between the first and the last column (row) holding
    ink (2 pixels at least, so a speck of noise does not count). A mark made in the box
    crosses it; a stroke straying in over the border stays in a corner or along an edge.
    A printed icon in the middle does not matter: only the ends count."""
    if part.size == 0:
        return 0.0
    out = 1.0
    for axis in (0, 1):
        hits = np.flatnonzero(part.sum(axis=axis) >= 2)
        size = part.shape[1 - axis]
        out = min(out, (hits[-1] - hits[0] + 1) / size if len(hits) else 0.0)
    return float(out)


def held(cv2, np, ink, strong, bridge, box, origin) -> float:
    """The share of a box's inside inked by strokes the box holds. A stroke is a connected
    part of `ink` (an ink mask around the box, its top-left at `origin` px on the page),
    joined across print (`bridge`, where a stroke crossing a printed line is hidden), with
    a dark core (`strong`: a crease or a shadow's edge has none); the box holds it when it
    reaches the middle of the box's inside (the inside without its outer sixth on every side,
    as `read_boxes` takes it for `decide`), the middle of its extent lies in the inside
    and it reaches at most HOLD of the box's size beyond the box. A small cross, a dot or
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
        inbox = ix <= left + w / 2 <= ix + iw and iy <= top + h / 2 <= iy + ih and cores[k] >= 4
        small = left >= bx - HOLD * bw and top >= by - HOLD * bh
        small = small and left + w <= bx + (1 + HOLD) * bw and top + h <= by + (1 + HOLD) * bh
        mine[k] = inbox and small and not _crosses(np, part == k)
    return float(mine[part].mean())


def longest(cv2, np, ink, strong, box, origin) -> float:
    """The longest piece of stroke inside a box's printed border (see LONG): connected parts
    of `ink` (an ink mask around the box, its top-left at `origin` px on the page; the print
    is not ink, so the box's border cuts strokes) within the box, reaching the middle of its
    inside (as `held` takes it), with a dark core (`strong`, 4 pixels at least): the
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
    mine = [k for k in np.unique(middle[middle > 0]) if cores[k] >= 4]
    if not mine:
        return 0.0
    return float(max(np.hypot(stats[k, 2], stats[k, 3]) for k in mine) / np.hypot(bw, bh))


def _crosses(np, stroke) -> bool:
    """Whether a stroke (a mask of a box's inside) is a line crossing the inside from one
    side to the other, thin across (a crease, a ruled line, a long stroke passing by)."""
    rows, cols = np.flatnonzero(stroke.any(axis=1)), np.flatnonzero(stroke.any(axis=0))
    h, w = stroke.shape
    across = cols[0] == 0 and cols[-1] == w - 1 and rows[-1] - rows[0] < THIN * h
    down = rows[0] == 0 and rows[-1] == h - 1 and cols[-1] - cols[0] < THIN * w
    return bool(across or down)


def grown_mask(cv2, np, mask, px: int):
    """`mask` grown by `px` pixels every way (a square)."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * px + 1,) * 2, np.uint8)).astype(bool)


def padded_mask(cv2, np, mask, pad: int):
    """A mask of the page with `pad` pixels of nothing around it, as `read_boxes` pads the ink."""
    return cv2.copyMakeBorder(mask.astype(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0).astype(bool)
