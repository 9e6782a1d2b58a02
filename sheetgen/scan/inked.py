"""The writing in one box of a page: its picture cut from the page as the reader mapped it,
the print taken out (the blank page says where it is: the box's border, a caption), and the
ink that belongs to the box kept: the strokes whose middle lies in it, not a neighbour's
running over (`ink_in`), a number crossed out left out (the right one written after it
kept); its closed loops, whether it is one upright stroke, whether it is crossed out, and
its lines (a box of several numbers). What the writing says is
sheetgen.scan.written's.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from sheetgen.scan.blank import PPMM
from sheetgen.scan.borders import runs_through, straight
from sheetgen.scan.neighbours import owned
from sheetgen.scan.tuning import DIGITS, STRUCK, WRITING


class Shape(NamedTuple):
    """What the writing in a box looks like, beside its picture (px of the page)."""

    height: int
    width: int
    pieces: int  # separate strokes
    upright: bool  # one straight upright stroke (`upright`)
    across: bool  # it runs across the box's border
    loops: list  # its closed loops (`_loops`)
    captioned: bool  # it runs over a caption printed in the box
    hidden: int  # px of print by its top too dark to see a stroke over (`_shown`)
    touches: int  # px of such print next to it anywhere (a 2's base along the border: a 7 left)
    outside: float  # the share of its ink out of the box and its border
    faint: int  # px of a trace too faint to be ink in the box, away from it: part of a digit?
    faint_before: int  # px of such a trace before it, level with its middle: a minus?
    through: bool = True  # it touches such print only running through a printed line (`borders.runs_through`)
    closed: list = []  # where it closes none: its loops, a break in a stroke closed (a pen skipping)


def ink_in(cv2, np, grey, blank, rect):
    """The writing in a box: (its picture, grey on paper white, cut to the ink; its `Shape`),
    None when the box is empty, or why it is left to type (a trace too faint, a number
    crossed out). A number crossed out and the right one written after it: the writing is
    the right one (`past_crossing`)."""
    x, y, w, h = rect
    m = WRITING.reach * min(w, h)
    rows, cols = grey.shape
    x0, y0 = max(0, round((x - m) * PPMM)), max(0, round((y - m) * PPMM))
    x1, y1 = min(cols, round((x + w + m) * PPMM)), min(rows, round((y + h + m) * PPMM))
    photo = grey[y0:y1, x0:x1].astype(np.float32)
    # the print as dark as the darkest within `WRITING.print_grow` px: the page is mapped
    # within a pixel or two, and a photo's blur spreads the print
    near = cv2.erode(blank[y0:y1, x0:x1], np.ones((2 * WRITING.print_grow + 1,) * 2, np.uint8)).astype(np.float32)
    printed = near < WRITING.print  # (a box's light fill is no print: paper of another shade)
    bare = photo[~printed] * (255.0 / near[~printed])  # (the paper, its fills' shade taken out)
    if bare.size < 16:
        return "no paper seen in the box"
    paper = float(np.percentile(bare, 75))
    noise = float(np.percentile(np.abs(bare - np.median(bare)), 50)) * 1.48
    level = max(WRITING.ink, WRITING.ink_noise * noise)
    # ink: darker than the page as printed there (a stroke over a light caption shows;
    # over a box's black border it cannot)
    dark = paper * (near / 255.0) - photo
    ink = (dark > level).astype(np.uint8)
    inside = np.zeros(ink.shape, bool)
    bx0, by0 = max(0, round(x * PPMM) - x0), max(0, round(y * PPMM) - y0)
    bx1, by1 = round((x + w) * PPMM) - x0, round((y + h) * PPMM) - y0
    inside[by0:by1, bx0:bx1] = True
    # the halo of the printed lines (a box's border): a blurred photo shows them wider than
    # the blank page draws them, and a stroke along one is that
    across, down = straight(cv2, np, blank[y0:y1, x0:x1] < WRITING.print)
    halo = cv2.dilate((across | down).astype(np.uint8), np.ones((2 * WRITING.halo + 1,) * 2, np.uint8)) > 0
    mine = owned(cv2, np, ink, printed, inside, halo, (bx0, by0, bx1, by1), (w * PPMM, h * PPMM))
    if isinstance(mine, str):
        return mine
    labels, ink_of, keep = mine
    speck = WRITING.speck * PPMM * PPMM
    # a trace too faint to be ink, away from the strokes: an empty box is no empty box; by
    # writing, it may be the rest of a digit (`Shape.faint`)
    strong = cv2.dilate((ink_of[labels] >= speck).astype(np.uint8) & ink, np.ones((5, 5), np.uint8)) > 0
    faint = (dark > WRITING.faint * level) & inside & ~strong & ~halo
    if not keep:
        return "a faint trace" if faint.sum() > WRITING.faint_area * PPMM * PPMM else None
    written = np.isin(labels, keep)
    # writing across the box's border: what the print hides of it may change a digit (an 8's
    # loop under the line, a 0 left)
    box = inside.astype(np.uint8)
    near_box = cv2.dilate(box, np.ones((2 * WRITING.halo + 1,) * 2, np.uint8)) > 0
    band = cv2.dilate(box, np.ones((2 * (WRITING.halo + WRITING.print_grow) + 3,) * 2, np.uint8)) > 0
    spilt = bool(((ink > 0) & ~written & band & ~inside).any())  # (another's ink over the border by the box)
    seen = partial(_shown, cv2, np, ink=ink > 0, dark=dark, level=level, near_box=near_box, spilt=spilt)
    seen = partial(seen, caption=printed & ~halo, near=near, paper=paper)  # (the print in the box: a caption)
    seen = partial(seen, faint=faint & ~printed)
    picture, size, origin = seen(written)
    why, after = past_crossing(cv2, np, picture)
    if after is None:
        return why or (picture, size)
    # the number written after the crossing-out, read as the box's (unless crossed out too):
    # its part of the picture put back where the picture was cut from
    place = np.zeros(written.shape, bool)
    (y, x), (h, w) = origin, after.shape
    top, left = max(0, y), max(0, x)
    place[top : y + h, left : x + w] = after[top - y : place.shape[0] - y, left - x : place.shape[1] - x]
    rest = written & place
    if not (rest & (ink > 0)).any():
        return why
    picture, size, _ = seen(rest)
    return why if crossed_out(cv2, np, picture)[0] else (picture, size)


def _shown(cv2, np, part, ink, dark, level, near_box, spilt, caption, near, paper, faint) -> tuple:
    """(picture, Shape, the picture's first row and column in the box's) of the strokes `part` (the
    box's kept strokes, or some of them), as `ink_in`'s: `ink` the box's ink, `dark` how
    much darker than paper, `level` the least ink is, `near_box` the box and its border,
    `spilt` another's ink over the border by the box, `caption` the print in the box, `near`
    the blank page's print grown, `paper` the paper's grey level, `faint` the faint traces
    in the box away from the ink."""
    mask = part & ink
    ys, xs = np.nonzero(mask)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    pad = max(4, round(0.2 * (bottom - top)))
    # the picture: the ink as the photo shows it, everything else paper white
    around = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    stroke = np.where(around, np.clip(dark, 0, None), 0)
    darkest = max(float(np.percentile(dark[mask], 90)), level)
    picture = 255 - np.clip(stroke * (225 / darkest), 0, 255)
    picture = np.pad(picture[top:bottom, left:right], pad, constant_values=255).astype(np.uint8)
    across = bool((mask & ~near_box).any()) or spilt
    # ...or over a caption printed in the box (a stroke over it may not show: an 8's loop)
    captioned = bool((part & caption).any())
    # ...or up into print it cannot be seen over (a black border; a caption, for a pencil as
    # light as it): what its top does there is unknown (a 7's bar along the border reads 1,
    # a 6's stem under a caption 0); the print by the top `WRITING.top` of the writing
    seen_over = 255.0 * (paper - darkest + level) / max(paper, 1.0)
    hides = near < min(seen_over, WRITING.print)
    reach = cv2.dilate(mask.astype(np.uint8), np.ones((2 * WRITING.print_grow + 3,) * 2, np.uint8)) > 0
    touches = int((reach & hides).sum())
    reach[top + max(1, round(WRITING.top * (bottom - top))) :] = False
    hidden = int((reach & hides).sum())
    pieces = cv2.connectedComponents(part.astype(np.uint8), connectivity=8)[0] - 1
    one_stroke = pieces == 1 and upright(np, mask)
    loops = _loops(cv2, np, mask[top:bottom, left:right])
    # (only where it closes none, as only a loop missing asks for them; none where a faint
    # trace lies in the box: a break may be where a stroke too light to see leaves it, a 6's stem)
    few = faint.sum() <= WRITING.faint_part * PPMM * PPMM
    closed = _loops(cv2, np, mask[top:bottom, left:right], DIGITS.skip) if few and not loops else []
    outside = float((mask & ~near_box).sum()) / float(mask.sum())
    # a trace before the writing, level with its middle half (where a minus is written)
    middle = slice(top + (bottom - top) // 4, bottom - (bottom - top) // 4)
    before = int(faint[middle, :left].sum())
    shape = Shape(
        bottom - top, right - left, pieces, one_stroke, across, loops, captioned, hidden, touches, outside,
        int(faint.sum()), before, touches < WRITING.hidden_px or runs_through(cv2, np, mask, hides), closed,
    )  # fmt: skip
    return picture, shape, (top - pad, left - pad)


def past_crossing(cv2, np, picture) -> tuple:
    """(why the writing in `picture` is crossed out or "", the part of the picture that is the
    number written after the crossing-out, a mask, or None): the number to read when one is
    crossed out and the right one written after it. The picture's pieces in the columns the
    strike or the scribble spans are what it crosses out, all within them (a strike runs
    past the number's ends: `STRUCK.covers` of its height over at most); the pieces after
    them, clearly apart (`STRUCK.apart` of its height of bare paper between, though the
    first may start `covers` under their end: a digit written after a blot, the blot's edge
    over its own) and `STRUCK.rest` of its height tall, are the number, where the
    crossing-out's ink covers `STRUCK.covered` of what it crosses out (a scribble does; a
    line through two digits in a thin pen does not, and may end in the next number's first
    digit); ink before it, touching it or too close leaves the box to type, as does a blot
    (what it covers cannot be told)."""
    why, span = crossed_out(cv2, np, picture)
    if not why or span is None:
        return why, None
    ink = (picture < 128).astype(np.uint8)
    crossed = ink[:, span[0] : span[1]]
    if crossed.sum() < STRUCK.covered * crossed.shape[1] * crossed.any(axis=1).sum():
        return why, None  # (a line through digits, not a scribble over them: where it ends is no border)
    n, parts, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    # (a speck of noise, or of ink left by the print, is neither: it stays with the nearer)
    pieces = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= WRITING.speck * PPMM * PPMM]
    edge = max(2, round(STRUCK.covers * max((bottom[k] - top[k] for k in pieces), default=0)))
    # what it crosses out: the pieces in the columns it spans, but one starting under its
    # last `edge` px (the first digit of the number after a blot, its edge under the blot's)
    struck = [k for k in pieces if right[k] > span[0] and left[k] < span[1] - edge]
    others = [k for k in pieces if k not in struck]
    if not struck or not others:
        return why, None  # (nothing written after it)
    a, b = left[struck].min(), right[struck].max()
    tall = bottom[struck].max() - top[struck].min()
    over = max(2, round(STRUCK.covers * tall))
    crossing, number = np.isin(parts, struck), np.isin(parts, others)
    from_crossing = _distance(cv2, np, crossing)
    apart = from_crossing[number].min() - 1  # (px of bare paper between the two)
    if (
        a < span[0] - over
        or b > span[1] + over  # (what it covers runs out of it: writing touching it)
        or left[others].min() < b - over  # (ink before it, or under it)
        or apart < max(2, STRUCK.apart * tall)  # (touching it, or too close)
        or bottom[others].max() - top[others].min() < STRUCK.rest * tall
    ):
        return why, None
    # the number's part of the picture: the paper nearer its ink than the crossing-out's
    return why, _distance(cv2, np, number) < from_crossing


def _distance(cv2, np, ink):
    """Each pixel's distance (px) to the nearest of `ink` (a mask)."""
    return cv2.distanceTransform((~ink).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)


def _loops(cv2, np, mask, skip: float = 0.0) -> list[tuple]:
    """The closed loops of the writing (the holes of its ink, bare paper it surrounds, of
    `DIGITS.loop` of its area at least): each one's height, and the ink above and below it, of the
    writing's height, and its waist (`_waist`); with a break in a stroke `skip` of the writing's
    height wide at most closed first."""
    h, w = mask.shape
    if skip:
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(1, round(skip * h)) | 1,) * 2)
        mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, disk) > 0
    paper = np.pad((~mask).astype(np.uint8), 1, constant_values=1)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=4)
    outside = labels[0, 0]
    least = DIGITS.loop * h * w
    return [
        (stats[k, cv2.CC_STAT_HEIGHT] / h, (stats[k, cv2.CC_STAT_TOP] - 1) / h,
         (h + 1 - stats[k, cv2.CC_STAT_TOP] - stats[k, cv2.CC_STAT_HEIGHT]) / h, _waist(np, labels == k))
        for k in range(1, n) if k != outside and stats[k, cv2.CC_STAT_AREA] >= least
    ]  # fmt: skip


def _waist(np, hole) -> float:
    """How wide a loop is across its middle (its middle fifth's narrowest row), of its widest
    row: about 1 for a 0's, less for the loop an 8 makes when its waist is left open."""
    widths = hole.sum(axis=1)
    rows = np.flatnonzero(widths)
    top, tall = rows[0], len(rows)
    middle = widths[top + round(0.4 * tall) : top + max(round(0.6 * tall), round(0.4 * tall) + 1)]
    return float(middle.min() / widths.max())


def upright(np, mask) -> bool:
    """The ink is one straight stroke within `DIGITS.upright` degrees of upright: a 1 (the
    recogniser hesitates between a 1, an l, an I and a bracket; a 7's bar, a 1's long flag bend it)."""
    ys, xs = np.nonzero(mask)
    if len(ys) < 10:
        return False
    pts = np.stack([xs, ys], 1).astype(np.float32)
    pts -= pts.mean(axis=0)
    _, spread, axes = np.linalg.svd(pts, full_matrices=False)
    along, across = pts @ axes[0], pts @ axes[1]
    length = float(along.max() - along.min())
    thick = len(ys) / max(length, 1.0)
    tilt = np.degrees(np.arctan2(abs(axes[0][0]), abs(axes[0][1])))
    return (
        tilt <= DIGITS.upright
        and length >= DIGITS.stroke_aspect * thick
        and float(np.percentile(np.abs(across), 98)) <= 0.5 * thick + DIGITS.straight
    )


def crossed_out(cv2, np, picture) -> tuple:
    """Why the writing looks crossed out (a number struck through, scribbled over or
    blotted out, the right one beside it), or "", and the columns of the picture the
    strike or the scribble spans (None for a blot, for a strike not past both ends of what
    it crosses, or none): a straight stroke `STRUCK.long` of the writing's height long,
    level within its middle, that crosses two strokes, or one and runs `STRUCK.past` past
    it both sides, no ink within `STRUCK.ends` above or below its ends (a digit's own bar
    is shorter: a 7's; a 4's joins its diagonal); one, level or aslant (`STRUCK.slants`),
    that crosses a stroke from `STRUCK.lead` before the rest of the writing (its span
    None); a level stroke `STRUCK.over` as long as the writing it joins is tall, over,
    under or through it (a line over two digits; its span None); a row of `STRUCK.zigzag`
    strokes or more within the writing's height (a scribble); ink `STRUCK.thick` times as
    thick as the pen's stroke, or `STRUCK.blot` of its height and `STRUCK.piled` times the
    pen's stroke thick (a blot; a digit's stroke, crossing itself, is thinner, and small
    writing's strokes are thick for its height)."""
    mask = (picture < 128).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    tall = max((stats[k, cv2.CC_STAT_HEIGHT] for k in range(1, n)), default=0)
    if tall < 8:
        return "", None
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    ridge = (inside >= cv2.dilate(inside, np.ones((3, 3), np.uint8))) & (inside > 0)  # (the strokes' middles)
    pen = max(float(np.median(inside[ridge])), 1.0)  # (half the pen's stroke)
    thickest = float(inside.max())
    if thickest >= STRUCK.thick * pen or thickest >= max(STRUCK.blot * tall, STRUCK.piled * pen):
        # a blot as wide as a digit, far thicker than the pen, filling most of its place: a
        # number blotted out, the one after it to read (a narrower bar may be a digit's own
        # bold stroke, the 1 of an 18; a digit's loop filled in, a 4's, leaves far more paper)
        k = labels.flat[int(inside.argmax())]
        x, w, h = stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        filled = stats[k, cv2.CC_STAT_AREA] >= STRUCK.blot_fill * w * h
        wide = thickest >= STRUCK.thick * pen and w >= STRUCK.blot_wide * tall and filled
        return "blotted out", (int(x), int(x + w)) if wide else None
    for k in range(1, n):
        x, y, w, h = stats[k, :4]
        piece = labels[y : y + h, x : x + w] == k
        for r in range(round(0.25 * h), round(0.75 * h)):
            starts = np.flatnonzero(np.diff(np.concatenate([[0], piece[r].astype(np.int8)])) == 1)
            if (
                len(starts) >= STRUCK.zigzag
                and (starts[STRUCK.zigzag - 1 :] - starts[: len(starts) - STRUCK.zigzag + 1]).min() <= tall
            ):
                return "scribbled over", (x, x + w)
    why, span = _struck(cv2, np, mask, labels, stats, tall)
    for degrees in STRUCK.slants if not why else ():
        # a strike drawn aslant: the writing turned till it lies level
        turned = _turned(cv2, np, mask, degrees)
        _, t_labels, t_stats, _ = cv2.connectedComponentsWithStats(turned, connectivity=8)
        if _struck(cv2, np, turned, t_labels, t_stats, tall, aslant=True)[0]:
            return "struck through", None
    return why, span


def _struck(cv2, np, mask, labels, stats, tall: int, aslant: bool = False) -> tuple:
    """`crossed_out`'s strike (why, span) along the rows of `mask` (its pieces `labels`,
    `stats`; `tall` the writing's height), or ("", None). `aslant`: the writing turned,
    where a digit's own straight strokes lie level at one slant or another (a 4's bar, a
    0's side): only a strike that crosses a stroke from `STRUCK.lead` before the rest of the
    writing counts."""
    level = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, max(3, round(0.5 * tall))), np.uint8))
    m, in_bar, bars, _ = cv2.connectedComponentsWithStats(level, connectivity=8)
    reach, gap, free = round(0.5 * tall), max(2, round(0.06 * tall)), max(1, round(STRUCK.past * tall))
    bar = 0.35 * tall  # (a level stroke this thick at most is a bar)
    over = False
    for k in range(1, m):
        x, y, w, h = bars[k, :4]
        if h > bar:
            continue
        if not aslant:
            # longer than the writing it is part of is tall: a line over, under or through digits
            # (no digit's own bar is as long; a minus is no taller than a bar)
            part = stats[np.bincount(labels[in_bar == k]).argmax(), cv2.CC_STAT_HEIGHT]
            over = over or (part > bar and w >= STRUCK.over * part)
        if w < STRUCK.long * tall:
            continue
        above, below = _by_bar(mask, x, y, w, h, gap, reach)
        both = (above & below).astype(np.int8)
        crossings = int((np.diff(np.concatenate([[0], both])) == 1).sum())
        # its ends free: no ink just above or below them (a 4's bar joins its diagonal; the open
        # ends of a struck 3 lie further off)
        touch = np.logical_or(*_by_bar(mask, x, y, w, h, gap, round(STRUCK.ends * tall)))
        ends = not touch[:free].any() and not touch[-free:].any()
        if not aslant and (crossings >= 2 or (crossings and ends)):
            return "struck through", (x, x + w) if ends else None
        # from well before the rest of the writing into it: a line through a number's first
        # digit, its end in it (what it crosses out is not told apart: its span None)
        if crossings:
            bar_ink = cv2.dilate((in_bar == k).astype(np.uint8), np.ones((2 * gap + 1, 3), np.uint8))
            rest = (mask & ~bar_ink.astype(bool)).any(axis=0)
            if rest.any() and x <= int(np.argmax(rest)) - STRUCK.lead * tall:
                return "struck through", None
    return ("struck through", None) if over else ("", None)


def _turned(cv2, np, mask, degrees: float):
    """`mask` turned by `degrees` (counterclockwise), on a canvas that holds all of it."""
    h, w = mask.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    side_w, side_h = int(h * sin + w * cos) + 2, int(h * cos + w * sin) + 2
    turn[0, 2] += side_w / 2 - w / 2
    turn[1, 2] += side_h / 2 - h / 2
    return cv2.warpAffine(mask, turn, (side_w, side_h), flags=cv2.INTER_NEAREST, borderValue=0)


def _by_bar(mask, x, y, w, h, gap, reach) -> tuple:
    """(ink above, ink below) a level bar at (x, y, w, h) of `mask`, column by column: from
    `gap` px off it to `reach` px."""
    return (
        mask[max(0, y - reach) : max(0, y - gap), x : x + w].any(axis=0),
        mask[y + h + gap : y + h + reach, x : x + w].any(axis=0),
    )


def lines_of(np, picture) -> list:
    """The lines of writing in a picture of several (a box of several numbers): split
    where a band of bare paper `WRITING.line_gap` tall runs across it."""
    inked = (picture < 200).any(axis=1)
    gap = max(2, round(WRITING.line_gap * PPMM))
    out, start, bare = [], None, 0
    for r, has in enumerate(inked):
        if has:
            if start is None:
                start = r
            bare = 0
        elif start is not None:
            bare += 1
            if bare >= gap:
                out.append((start, r - bare + 1))
                start, bare = None, 0
    if start is not None:
        out.append((start, len(inked) - bare))
    pad = 4
    return [np.pad(picture[a:b], ((pad, pad), (0, 0)), constant_values=255) for a, b in out] or [picture]
