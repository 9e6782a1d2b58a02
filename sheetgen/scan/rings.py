"""Round boxes and circles: ink going round a box's centre (a pig bonus box or a colony step
circled), along its printed ring, inside or outside it, followed where the print hides it.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM, inside
from sheetgen.scan.strokes import grown_mask
from sheetgen.scan.tuning import AROUND, RING, TRACE


def round_about(cv2, np, mask, insides, hidden, box, origin, line=None) -> float:
    """How far round a round box a stroke (`mask`, round the box: see `look_at`) goes, off
    the print itself (`line`, a mask as `mask`, if given): along its printed ring (`ringed`),
    or round it where the print hides it (`traced`). A photo can show a grey printed ring
    darker than the blank page does (sharpened, its contrast raised), all the way round; a
    circle drawn by hand leaves the printed line somewhere round the box. (A light trace on
    the printed ring tells that the photo shows the print: see `compared.circles`.)"""
    span = np.hypot(box.w, box.h) / 2 + RING.outside
    if line is not None:
        mask = mask & ~line
    return max(ringed(np, mask, box, origin, line), traced(cv2, np, mask, insides, hidden, box, origin, span))


def part_ringed(rings: dict, lights: dict) -> set:
    """The round boxes a circle goes round partly over their printed ring: a mark's ink off the
    print `Ring.part` of the way round (`rings`, see `round_about`) and a trace `Ring.round`
    round along the ring (`lights`, field -> share): unsure, never empty."""
    return {f for f, v in rings.items() if v >= RING.part and lights.get(f, 0.0) >= RING.round}


def ringed(np, extra, box, origin, line=None) -> float:
    """How much of the way round a round box a stroke goes along its printed ring: the
    share of the 36 sectors (10 degrees each) around its centre holding ink (`extra`, a
    mask around the box, its top-left at `origin` px on the page; `Trace.sector_px` at least)
    in the band from `Ring.inside` inside the ring to `Ring.outside` outside it, and, given
    the print itself (`line`, a mask as `extra`, which then holds no ink on it), of those
    where the stroke runs under it (`_under_print`) when it then goes `Ring.round` of the way
    round: a box stands out from the page's other round boxes, and a stroke round those goes
    under their print too. A circle drawn round the box goes all the way round, out of its
    inside; a stroke straying in from the next box crosses a few sectors."""
    edge = min(box.w, box.h) / 2
    side = (edge + RING.outside) * PPMM
    extra, dx, dy, *lines = near_centre(np, extra, box, origin, side, side, *([] if line is None else [line]))
    dist, sector = _polar(np, dx, dy)  # (the window's: the same for the box's three masks)
    r = dist / PPMM
    band = (r > edge - RING.inside) & (r < edge + RING.outside)
    stroke = extra & band
    seen = _sectors(np, dx[stroke], dy[stroke], np.inf)
    if lines:
        printed = lines[0] & band
        # where the stroke may go under the print: near it, on an arc round this box
        near = np.abs(_radii(np, stroke, sector, r) - _radii(np, printed, sector, r)) <= RING.under_near
        ends = near & _bending(np, seen, stroke, sector, dx, dy, (max(box.w, box.h) / 2 + TRACE.bend) * PPMM)
        hidden = seen | _under_print(np, seen, ends, _sectors(np, dx[printed], dy[printed], np.inf))
        if hidden.mean() >= RING.round:  # (the page's other round boxes are the floor)
            seen = hidden
    return float(seen.mean())


def _radii(np, mask, sector, r):
    """The mean distance (`r`) from a centre of the pixels of `mask` in each of the 36 sectors
    round it (`sector`: each pixel's, see `_sector`); NaN in a sector with none."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.bincount(sector[mask], weights=r[mask], minlength=36) / np.bincount(sector[mask], minlength=36)


def _bending(np, seen, stroke, sector, dx, dy, near: float):
    """The sectors (of 36) of each run of `seen` ones that bends round a centre within `near`
    px of the box's (the pixels of `stroke` in it; `sector` each pixel's, `dx`, `dy` its place
    from the box's centre), and of each run too short to tell (under `Trace.short_run`)."""
    out = np.zeros(36, bool)
    for run in _runs(np, seen):
        pick = stroke & np.isin(sector, run)
        out[run] = len(run) < TRACE.short_run or _centre_off(np, dx[pick], dy[pick]) <= near
    return out


def _under_print(np, seen, ends, printed):
    """The sectors (of 36, round a round box) where a stroke along its ring runs under the
    print: each gap of `Ring.under` sectors at most between two of the stroke's runs of 2
    `seen` sectors at least, the print in every sector of it (`printed`), from where the
    stroke may go under it on both sides (`ends`: it comes within `Ring.under_near` of the
    print there, on an arc round the box). A thin pen circle drawn on a colony step's
    printed border shows off it in runs of a few sectors, near the printed line where it
    goes under it, hidden a few sectors at a time. A tick or a stroke straying in from the
    next box leaves one gap round the rest of the ring, or lies in single sectors; an arc of
    a circle round the box beside it bends round that box, and leaves the ring a millimetre
    or two from its print, or many sectors from another arc."""
    out = np.zeros(36, bool)
    for gap in _runs(np, ~seen):
        before, after = gap[0] - 1, (gap[-1] + 1) % 36  # (seen: the runs of ~seen are whole)
        runs = seen[before - 1] and seen[(after + 1) % 36]
        if len(gap) <= RING.under and runs and ends[before] and ends[after] and printed[gap].all():
            out[gap] = True
    return out


def traced(cv2, np, ink, insides, hidden, box, origin, reach: float, speck: int = 0) -> float:
    """How much of the way round a box a stroke goes, counting where the print hides it:
    the share of the 36 sectors round its centre where a stroke round it shows (see
    `_showing`, `_round_sectors`; `ink` a mask round the box, its top-left at `origin` px on
    the page; `insides` every box's inside, `hidden` the print, masks as `ink`; up to
    `reach` mm from the centre), and of those between two such sectors where the print lies
    on the way a stroke between them would go (`_hidden_gaps`). A pencil circle drawn tight
    round a box runs over its printed border, and over the next box's: the sectors where it
    shows are not all the way round, but the print covers the gaps. Counted only when the
    stroke shows `Trace.round` of the way round, never more than `Trace.gap` sectors apart
    (else 0): a stroke straying in from the next box shows in a few sectors, or on one side,
    and the print round a box in a grid is everywhere; nor when no piece of it is a
    stroke's (`Trace.stroke`). Pieces under `speck` pixels are not counted (`Trace.speck`)."""
    side = reach * PPMM
    ink, dx, dy, insides, hidden = near_centre(np, ink, box, origin, side, side, insides, hidden)
    rough = ink & ~insides & ~hidden  # (`_showing` only takes away from it)
    few = rough.sum() < TRACE.sector_px * TRACE.round * 36
    if few or _sectors(np, dx[rough], dy[rough], side).mean() < TRACE.round:
        return 0.0
    r, sector = _polar(np, dx, dy)
    shows = _showing(cv2, np, ink, insides, hidden, box, dx, dy, speck) & (r <= side)
    areas = cv2.connectedComponentsWithStats(shows.astype(np.uint8), connectivity=8)[2][1:, cv2.CC_STAT_AREA]
    if not len(areas) or areas.max() < TRACE.stroke * PPMM**2:
        return 0.0
    seen = _round_sectors(np, shows, sector, r, dx, dy, (max(box.w, box.h) / 2 + TRACE.bend) * PPMM)
    if seen.mean() < TRACE.round or _longest_gap(np, seen) > TRACE.gap:
        return 0.0
    return float((seen.sum() + _hidden_gaps(cv2, np, seen, shows, sector, r, hidden, dx, dy)) / 36)


_POLAR: dict = {}  # the last few boxes' `_polar`, by their window's row and column


def _polar(np, dx, dy):
    """Each pixel's distance from a box's centre and its sector (`_sector`), given each
    pixel's place from it (`near_centre`, a row and a column broadcast): the same for the three
    masks `look_at` measures round one box (`traced`, `ringed`), so worked out once (read-only)."""
    key = (dx[0].tobytes(), dy[:, 0].tobytes())
    if key not in _POLAR:
        if len(_POLAR) >= 4:
            _POLAR.clear()
        r, sector = np.hypot(dx, dy), _sector(np, dx, dy)
        r.flags.writeable = sector.flags.writeable = False
        _POLAR[key] = r, sector
    return _POLAR[key]


def _showing(cv2, np, ink, insides, hidden, box, dx, dy, speck: int = 0):
    """The ink that may be a stroke round a box (masks round it; `dx`, `dy` each pixel's
    place from its centre): off the print (`hidden`) and `Trace.own` beyond the box's own,
    out of every box's inside (`insides`), and not a stroke reaching into another box's
    inside (that box's mark, a check overshooting it; joined across the print it crosses);
    no piece under `speck` pixels, if given."""
    x, y, w, h = ((v - c) * PPMM for v, c in zip(inside(box), (box.x + box.w / 2, box.y + box.h / 2, 0, 0)))
    mine = (dx >= x) & (dx < x + w) & (dy >= y) & (dy < y + h)
    closed = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)).astype(bool)
    _, labels = cv2.connectedComponents((ink | (closed & hidden)).astype(np.uint8), connectivity=8)
    # (a piece reaching `Trace.deep` into another box's inside: one grazing its edge is a circle round
    # this box drawn wide, over the next box's border)
    deep = cv2.erode((insides & ~mine).astype(np.uint8), np.ones((2 * TRACE.deep + 1,) * 2, np.uint8)).astype(bool)
    reaching = np.zeros(labels.max() + 1, bool)  # (a table of the pieces: quicker than np.isin)
    reaching[labels[deep & ink]] = True
    theirs = reaching[labels]
    near = (np.abs(dx) <= (box.w / 2 + 0.5) * PPMM) & (np.abs(dy) <= (box.h / 2 + 0.5) * PPMM)
    own = grown_mask(cv2, np, hidden & near, round(TRACE.own * PPMM))
    shows = ink & ~theirs & ~insides & ~own & ~hidden
    if speck:  # ...and no piece under `speck` pixels
        _, labels, stats, _ = cv2.connectedComponentsWithStats(shows.astype(np.uint8), connectivity=8)
        shows &= (stats[:, cv2.CC_STAT_AREA] >= speck)[labels]
    return shows


def _round_sectors(np, shows, sector, r, dx, dy, near: float):
    """The sectors (of 36) a stroke round the box shows in: `Trace.sector_px` of `shows` at least,
    within `Trace.width` of one another from the centre (a stroke round the box crosses a
    sector; one pointing at it, a check's tail, runs along it), and, for a run of 3 such
    sectors or more, bending round a centre within `near` px of the box's (a circle round
    the next box passes by this one bending away from it; a straight stroke bends round
    nothing)."""
    counts = np.bincount(sector[shows], minlength=36)
    inner, outer = np.full(36, np.inf), np.zeros(36)
    np.minimum.at(inner, sector[shows], r[shows])
    np.maximum.at(outer, sector[shows], r[shows])
    seen = (counts >= TRACE.sector_px) & (outer - inner <= TRACE.width * PPMM)
    for run in _runs(np, seen):
        if TRACE.short_run <= len(run) < 36:
            pick = shows & np.isin(sector, run)
            seen[run] = _centre_off(np, dx[pick], dy[pick]) <= near
    return seen


def _centre_off(np, x, y) -> float:
    """How far from (0, 0) the centre of the circle nearest the points (`x`, `y`) lies."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    # the circle x² + y² + a x + b y + c = 0 nearest the points: its centre at -a/2, -b/2
    a, b, _ = np.linalg.lstsq(np.column_stack([x, y, np.ones_like(x)]), -(x * x + y * y), rcond=None)[0]
    return float(np.hypot(a / 2, b / 2))


def _hidden_gaps(cv2, np, seen, shows, sector, r, hidden, dx, dy) -> int:
    """How many sectors between two `seen` (of 36) a stroke going from one to the other
    would be hidden in: its distance from the centre drawn straight between theirs (the
    mean of the `shows` pixels' `r` in each), within `Trace.hidden` of the print (`hidden`)."""
    counts = np.bincount(sector[shows], minlength=36)
    radius = np.bincount(sector[shows], weights=r[shows], minlength=36) / np.maximum(counts, 1)
    near = grown_mask(cv2, np, hidden, round(TRACE.hidden * PPMM))
    h, w = hidden.shape
    cx, cy = -dx[0, 0], -dy[0, 0]  # the centre, in the window's pixels
    marks, covered = np.flatnonzero(seen), 0
    for s in np.flatnonzero(~seen):
        before, after = marks[marks < s], marks[marks > s]
        a = before[-1] if len(before) else marks[-1] - 36
        b = after[0] if len(after) else marks[0] + 36
        rs = radius[a % 36] + (radius[b % 36] - radius[a % 36]) * (s - a) / (b - a)
        angle = (s + 0.5) / 36 * 2 * np.pi - np.pi
        x, y = round(cx + rs * np.cos(angle)), round(cy + rs * np.sin(angle))
        covered += 0 <= x < w and 0 <= y < h and bool(near[y, x])
    return covered


def _runs(np, flags) -> list:
    """The runs of True in a circular array of booleans, each the list of its indices in
    order (one run the whole way round when all are True)."""
    if flags.all():
        return [list(range(len(flags)))]
    start = int(np.argmin(flags))  # a False: the runs from there round
    runs, run = [], []
    for k in [*range(start, len(flags)), *range(start), start]:
        if flags[k]:
            run.append(k)
        elif run:
            runs.append(run)
            run = []
    return runs


def _longest_gap(np, seen) -> int:
    """The longest run of False in a circular array of booleans."""
    return max((len(run) for run in _runs(np, ~seen)), default=0)


def _round(np, band, dx, dy) -> float:
    """The share of the 36 sectors (10 degrees each) round a centre holding `Trace.sector_px` of
    `band` at least (`dx`, `dy`: each pixel's place from the centre)."""
    return float(_sectors(np, dx[band], dy[band], np.inf).mean())


def _sector(np, dx, dy):
    """Which of the 36 sectors (10 degrees each) round a centre each point (`dx`, `dy` from it) lies in."""
    return ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * 36).astype(int) % 36


def _sectors(np, dx, dy, side: float):
    """Which of the 36 sectors round a centre hold 2 of the points (`dx`, `dy` from it) at
    least, `side` px from it at most."""
    near = np.hypot(dx, dy) <= side
    return np.bincount(_sector(np, dx[near], dy[near]), minlength=36) >= TRACE.sector_px


def round_inside(np, mask, box, origin) -> float:
    """How much of the way round inside a square box a stroke goes: the share of the 36
    sectors (10 degrees each) around its centre holding ink (`mask`, around the box, its
    top-left at `origin` px on the page: a mark's dark core, as a grey smear rubbed out is
    not; `Trace.sector_px` at least) within its printed border (`Around.border` in from it),
    `Around.hollow` of the way out from the centre at least. A circle drawn in the box along
    its border goes all the way round, and leaves the middle bare; a tick or a cross
    reaches a few directions."""
    hx, hy = (box.w / 2 - AROUND.border) * PPMM, (box.h / 2 - AROUND.border) * PPMM
    mask, dx, dy = near_centre(np, mask, box, origin, hx, hy)
    band = mask & (np.abs(dx) < hx) & (np.abs(dy) < hy) & (np.hypot(dx, dy) >= AROUND.hollow * min(hx, hy))
    return _round(np, band, dx, dy)


def round_outside(np, mask, box, origin) -> float:
    """How much of the way round a square box a stroke goes outside it: the share of the 36
    sectors around its centre holding ink (`mask`, as `round_inside` takes it, without
    any box's inside: its own and the others', where their marks are) up to `Around.reach`
    beyond its corners. A circle drawn round the box goes all the way round (over its printed
    border at the corners); a stroke straying in from the next box crosses a few sectors."""
    reach = (np.hypot(box.w, box.h) / 2 + AROUND.reach) * PPMM
    mask, dx, dy = near_centre(np, mask, box, origin, reach, reach)
    return float(_sectors(np, dx[mask], dy[mask], reach).mean())


def near_centre(np, mask, box, origin, hx: float, hy: float, *more):
    """The part of `mask` (its top-left at `origin` px on the page) within `hx`, `hy` px of
    the box's centre (a pixel more), and each of its pixels' place from the centre; then
    the same part of each of `more` (masks as `mask`)."""
    cx, cy = (box.x + box.w / 2) * PPMM - origin[0], (box.y + box.h / 2) * PPMM - origin[1]
    h, w = mask.shape
    x0, x1 = max(0, int(cx - hx) - 1), min(w, int(cx + hx) + 2)
    y0, y1 = max(0, int(cy - hy) - 1), min(h, int(cy + hy) + 2)
    # (read-only views of a row and a column: the same values as a grid, at no cost)
    shape = (max(0, y1 - y0), max(0, x1 - x0))
    xx = np.broadcast_to(np.arange(x0, x1, dtype=np.float32) - np.float32(cx), shape)
    yy = np.broadcast_to((np.arange(y0, y1, dtype=np.float32) - np.float32(cy))[:, None], shape)
    return (mask[y0:y1, x0:x1], xx, yy, *(m[y0:y1, x0:x1] for m in more))
