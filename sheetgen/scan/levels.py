"""The photo's own levels, from its bare paper and its blank boxes: what an empty box shows,
the photo's faint trace and pale level, its wash, creases and contrast, and how far a box
stands out from the boxes printed alike near it. Each level a page of marks cannot move has
a floor or a cap taken from the bare paper.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM
from sheetgen.scan.strokes import despeckled, faint_trace, middle_part
from sheetgen.scan.tuning import CAPS, CREASE, INK, LYING, MARK, NEAR, PAPER, PRINT, WASHED


def photo_trace(np, scores: list, middles: list) -> float:
    """A photo's own faint trace: the median share of the middle holding a trace (see
    `verdict.Look`'s `middle`) over the boxes with no ink (a score up to `Mark.empty`), most of them
    empty. A noisy, sharpened photo draws a faint trace in every box; a pencil mark is
    a trace over what the blank boxes of its own photo show."""
    blank = [m for s, m in zip(scores, middles, strict=True) if s <= MARK.empty]
    return float(np.median(blank)) if blank else 0.0


def wash(np, scores: list, darks: list) -> float:
    """A photo's own grey wash: the median, over the boxes with no ink (a score up to `Mark.empty`),
    of how much darker than the paper the middle of their inside is (`darks`: each box's
    inside, darkness over the blank page's). A phone's sharpening draws a bright halo along
    every printed line, and the paper beside it (the inside of every small box) then looks
    a little darker than the paper: a wash all over the box, which a faint trace is
    measured above (`faint_trace`), as a pencil stroke is darker than the paper around it."""
    blank = [max(0.0, float(np.median(d))) for s, d in zip(scores, darks, strict=True) if s <= MARK.empty and d.size]
    return float(np.median(blank)) if blank else 0.0


def pale_level(np, pales: list, hiddens: list) -> float:
    """A photo's own level of pale darkness (0-255): the median, over its boxes with no ink
    (`pales`, see `pale_darkness`; None for a box with ink; with where the print is, `hiddens`), of
    the 99th percentile of the middle of each off the print. A noisy photo's speckle reaches
    it in every box; a clean photo's paper stays a few levels under the blank page's."""
    tops = []
    for pale, hidden in zip(pales, hiddens, strict=True):
        if pale is None:
            continue
        seen = middle_part(pale)[~middle_part(hidden)]
        if seen.size:
            tops.append(float(np.percentile(seen, 99)))
    return float(np.median(tops)) if tops else 0.0


def paper_traces(cv2, np, values, bare, base: float, faint: float) -> tuple:
    """What the bare paper (`bare`, see `bare_paper`; `values` the page's darkness) shows as a
    blank box would: the medians, over the page's squares of `Caps.square` all bare paper,
    of the share of each one's middle holding a faint trace (`faint_trace`, over the photo's
    wash `base`) and of the 99th percentile of its pale darkness (`pale_level`); 64 squares
    at most (see `_bare_squares`); (0, 0) with no such square. A box's own are the photo's
    (`photo_trace`, `pale_level`), but a sheet whose boxes nearly all hold a light stroke (a
    player's light hand, to the end of a game) shows a stroke in the median box, and those
    strokes read empty."""
    side = round(CAPS.square * PPMM)
    traces, pales = [], []
    for y, x in _bare_squares(np, bare, side, CAPS.square_bare):
        dark = values[y : y + side, x : x + side] - base
        traces.append(faint_trace(cv2, np, dark, faint))
        pales.append(float(np.percentile(middle_part(despeckled(cv2, np, dark)), 99)))
    return (float(np.median(traces)), float(np.median(pales))) if traces else (0.0, 0.0)


def _bare_squares(np, bare, side: int, share: float, most: int = 64) -> list:
    """The top-left corners (y, x) of the page's squares of `side` px (a grid from the
    top-left) whose `share` at least is bare paper (`bare`, a mask), at most `most` of them
    taken evenly over the page (their medians as well told, at a fraction of the cost)."""
    ny, nx = bare.shape[0] // side, bare.shape[1] // side
    if not ny or not nx:
        return []
    counts = bare[: ny * side, : nx * side].reshape(ny, side, nx, side).sum(axis=(1, 3))
    ys, xs = np.nonzero(counts >= share * side * side)
    pick = np.unique(np.linspace(0, len(ys) - 1, min(most, len(ys))).round().astype(int)) if len(ys) else []
    return [(int(ys[i]) * side, int(xs[i]) * side) for i in pick]


def standing_out(
    np,
    measures: dict,
    least: float,
    over: float,
    floor=None,
    near: dict | None = None,
    most: float | None = None,
) -> set:
    """The fields whose measure (a box's field: how far round it ink goes, how much of it is
    coloured...) is `least` at least and `over` more than the page's `floor` of them (the
    median, unless given; counted up to `most` when given, so that a page whose boxes are
    nearly all marked does not hide its marks: see `Ring.floor`, `Tint.floor`): what the photo
    shows in every box of the kind (a printed ring or border darker than on the blank page, a
    tint all over) is no mark. Given `near` (a field's boxes printed alike round it, see
    `near_alike`), over their median too where there are `Near.least` of them: a photo blurred
    in one part (a phone's portrait mode) shows every border there thick."""
    if not measures:
        return set()
    base = float((floor or np.median)(list(measures.values())))
    if most is not None:
        base = min(base, most)
    out = set()
    for key, v in measures.items():
        around = [measures[f] for f in (near or {}).get(key, ()) if f in measures]
        local = float(np.median(around)) if len(around) >= NEAR.least else base
        if v >= least and v - max(base, local) >= over:
            out.add(key)
    return out


def near_alike(np, boxes: list) -> dict:
    """Each box's field -> the fields of the boxes of its size (to `Near.size`) within `Near.reach` of
    it, centre to centre."""
    at = np.array([(b.x + b.w / 2, b.y + b.h / 2, b.w, b.h) for b in boxes], np.float64).reshape(-1, 4)
    out = {}
    for i, b in enumerate(boxes):
        close = np.hypot(at[:, 0] - at[i, 0], at[:, 1] - at[i, 1]) <= NEAR.reach
        alike = (np.abs(at[:, 2] - b.w) <= NEAR.size * b.w) & (np.abs(at[:, 3] - b.h) <= NEAR.size * b.h)
        out[b.field] = [boxes[j].field for j in np.flatnonzero(close & alike) if j != i]
    return out


def creases(cv2, np, dark, faint: float):
    """A mask of the page's creases: faint straight lines (darker than `faint`, lighter than
    `Ink.ink`) `Crease.length` long at least, 1 mm wide. A sheet folded for the pocket shows its fold
    as a thin grey line across the page, a faint trace in every box it crosses; no pencil
    mark is a straight line that long. None when the faint part of the page is too large
    (over 5%: a noisy photo) to look for lines in."""
    faint_line = ((dark > faint) & (dark < INK.ink)).astype(np.uint8)
    mask = np.zeros(dark.shape, np.uint8)
    if faint_line.mean() > CREASE.noisy:
        return mask.astype(bool)
    # looked for at half the resolution (4 pixels a mm): a quarter of the work
    h, w = faint_line.shape
    half = cv2.resize(
        cv2.dilate(faint_line, np.ones((2, 2), np.uint8)), (w // 2, h // 2), interpolation=cv2.INTER_NEAREST
    )
    long = round(CREASE.length * PPMM / 2)
    gap = round(CREASE.gap * PPMM)
    found = cv2.HoughLinesP(half, 1, np.pi / 360, threshold=long // 2, minLineLength=long, maxLineGap=gap)
    for x1, y1, x2, y2 in found.reshape(-1, 4) if found is not None else []:
        cv2.line(mask, (int(x1) * 2, int(y1) * 2), (int(x2) * 2, int(y2) * 2), 1, thickness=round(PPMM))
    return mask.astype(bool)


def lying_on(cv2, np, gray, plain, boxes):
    """A mask, at a quarter of PPMM, of the things lying on the sheet (see `tuning.Lying`): a grey page,
    its print (`plain`, the blank page's darkness 0-1) and its boxes (every markable one). What
    is that dark and solid, its pieces reaching out in the open, and its thin parts."""
    small = cv2.resize(gray, (gray.shape[1] // 4, gray.shape[0] // 4), interpolation=cv2.INTER_AREA)
    mm = PPMM / 4
    light = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(6 * mm) + 1,) * 2))
    light = cv2.GaussianBlur(light.astype(np.float32), (0, 0), 2 * mm)
    # (where the blank page prints something, the photo's light there is as light as its print)
    blank = 1.0 - cv2.resize(plain.astype(np.float32), small.shape[::-1], interpolation=cv2.INTER_AREA)
    dark = (small < LYING.dark * light * blank).astype(np.uint8)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(LYING.solid * mm) + 1,) * 2)
    solid = cv2.morphologyEx(dark, cv2.MORPH_OPEN, disc)
    # (every box whole: a board's cells are looked at in their middle only)
    seeds = (solid > 0) & ~around_boxes(np, small.shape, boxes, LYING.away, mm)
    if not seeds.any():
        return seeds
    n, labels = cv2.connectedComponents(solid, connectivity=8)
    out = np.bincount(labels[seeds], minlength=n)  # (each piece's solid part out in the open)
    lying = out >= LYING.area * mm**2
    lying[0] = False
    body = lying[labels].astype(np.uint8)
    # ...and the dark pieces joined to it (a meeple's arm, a pencil's tip)
    reach = cv2.dilate(body, np.ones((2 * round(LYING.joined * mm) + 1,) * 2, np.uint8))
    # (joined across the print: a box's border under a meeple is as dark as the blank page prints it)
    _, labels = cv2.connectedComponents((dark | (blank < LYING.printed)) & reach | body, connectivity=8)
    lying = np.zeros(labels.max() + 1, bool)
    lying[labels[body > 0]] = True
    lying = (lying[labels] & (dark > 0)).astype(np.uint8)
    return cv2.dilate(lying, np.ones((2 * round(mm) + 1,) * 2, np.uint8)) > 0


def around_boxes(np, shape: tuple, boxes, margin: float, ppmm: float = PPMM):
    """A mask (of `shape`, `ppmm` pixels a millimetre) of every box grown by `margin` mm."""
    mask = np.zeros(shape, bool)
    for box in boxes:
        x0, y0 = max(0, round((box.x - margin) * ppmm)), max(0, round((box.y - margin) * ppmm))
        mask[y0 : round((box.y + box.h + margin) * ppmm), x0 : round((box.x + box.w + margin) * ppmm)] = True
    return mask


def bare_paper(cv2, np, plain, boxes):
    """A mask of the page's bare paper: `Paper.away` at least from anything printed (`plain`, the
    blank page's darkness) and from every box (where the marks are), and `Paper.edge` within
    the page's edge."""
    far = round(2 * PAPER.away * PPMM) + 1
    bare = cv2.dilate((plain > PAPER.printed).astype(np.uint8), np.ones((far, far), np.uint8)) == 0
    bare &= ~around_boxes(np, bare.shape, boxes, PAPER.away)
    edge = round(PAPER.edge * PPMM)
    bare[:edge], bare[-edge:], bare[:, :edge], bare[:, -edge:] = False, False, False, False
    return bare


def box_floor(np, insides: list, paper: float | None = None) -> float:
    """How dark the inside of an empty box shows on this photo: its darkest twentieth (the
    95th percentile of its darkness over the blank page), in the box that shows it the
    10th lightest of all the page's boxes (`insides`: their darkness arrays). A clean photo
    shows an empty box's inside under 0.06, an under-exposed, JPEG-blocked one 0.1 and more:
    blocks and ringing beside the printed border as dark as a pencil stroke. But never more
    than `Caps.box_times` what the bare paper shows in squares of a box's size (`paper`, see
    `paper_boxes`), when told: a sheet whose boxes are nearly all marked (at the end of a
    game) shows a mark in that tenth box, and a clean photo would be read as a noisy one,
    most of its marks empty, where an empty box shows a few times what the bare paper does.
    0 with no box."""
    tops = [float(np.percentile(d, 95)) for d in insides if d.size]
    floor = float(np.percentile(tops, 10)) if tops else 0.0
    return floor if paper is None else min(floor, CAPS.box_times * paper)


def paper_boxes(np, values, bare) -> float | None:
    """How dark the bare paper shows in a box's stead (darkness 0-1, `values`; `bare`: the
    bare paper, see `bare_paper`): the median, over the page's squares of `Caps.box_square`
    that are mostly bare paper, of each one's darkest twentieth there (its 95th percentile,
    as `box_floor` takes a box's; every second pixel of every second row; 64 squares at
    most, see `_bare_squares`). None with fewer than `Caps.box_squares` such squares."""
    side = round(CAPS.box_square * PPMM)
    tops = [
        float(np.percentile(values[y : y + side : 2, x : x + side : 2][bare[y : y + side : 2, x : x + side : 2]], 95))
        for y, x in _bare_squares(np, bare, side, CAPS.box_square_bare)
    ]
    return float(np.median(tops)) if len(tops) >= CAPS.box_squares else None


def paper_floor(np, values, bare) -> float:
    """How dark (or coloured) the bare paper shows in all but its darkest share
    (`Paper.darkest`): a stroke must be more than that to be ink. A clean photo's bare paper
    stays far under `Ink.ink`; an under-exposed, sharpened, JPEG-blocked one shows noise as
    dark as pencil all over. In the units of `values` (darkness 0-1, or a saturation 0-255);
    0 when there is too little bare paper (`Paper.pixels`) to tell. The squares of the page
    (`Paper.tile`) whose own darkest share stands out from the others' (`Paper.off` spreads
    over their median) are left out: a finger, a die or a pencil lying on the sheet is in a
    few squares, a photo's noise all over it, and unevenly (more in its shadows)."""
    if int(bare.sum()) < PAPER.pixels:
        return 0.0
    # (each square's darkest share looked for in every fourth pixel of it, every fourth row: as
    # well told, at a sixteenth of the cost)
    side, few, bare2 = round(PAPER.tile * PPMM / 4), values[::4, ::4], bare[::4, ::4]
    tops = {}
    for y in range(0, bare2.shape[0], side):
        for x in range(0, bare2.shape[1], side):
            here = bare2[y : y + side, x : x + side]
            if int(here.sum()) >= PAPER.tile_pixels / 16:
                tops[y, x] = float(np.percentile(few[y : y + side, x : x + side][here], 100 * (1 - PAPER.darkest)))
    if len(tops) >= PAPER.tiles:
        middle = float(np.median(list(tops.values())))
        spread = 1.4826 * float(np.median(np.abs(np.array(list(tops.values())) - middle)))
        limit = middle + PAPER.off * max(spread, PAPER.least_spread * max(tops.values()))
        out = [at for at, top in tops.items() if top > limit]
        if out:  # (the whole page's bare paper, without the squares standing out)
            bare = bare.copy()
            for y, x in out:
                bare[4 * y : 4 * (y + side), 4 * x : 4 * (x + side)] = False
            if int(bare.sum()) < PAPER.pixels:
                return 0.0
    return float(np.percentile(values[bare], 100 * (1 - PAPER.darkest)))


def washed_out(np, gray, plain, bare) -> bool:
    """Whether a photo (`gray`, rectified) shows its print (where the blank page's darkness
    `plain` is over `Print.dark`: text, lines, icons) lighter than `Washed.printed` of its
    `bare` paper's brightness, medians, its paper `Washed.paper` or lighter: an over-exposed
    photo, its paper clipped white, shows a soft pencil's light strokes white too. False with
    too little bare paper or print to tell."""
    print_ = plain > PRINT.dark
    if int(bare.sum()) < PAPER.pixels or not print_.any():
        return False
    paper = float(np.median(gray[bare]))
    return paper >= WASHED.paper and float(np.median(gray[print_])) > WASHED.printed * paper


def contrast(cv2, np, ink, plain) -> float:
    """How dark a photo shows the page's print against the blank page: 1 as dark (or
    darker), less when the photo is blurred or over-exposed, `Ink.contrast` at least. The median
    darkness of the photo (`ink`, at its darkest within a pixel, so that the print's lines
    need not be exactly in place) where the blank page (`plain`) is dark, over the blank
    page's own there."""
    mask = plain > PRINT.dark
    if not mask.any():
        return 1.0
    seen = float(np.median(cv2.dilate(ink, np.ones((3, 3), np.uint8))[mask]))
    return min(max(seen / float(np.median(plain[mask])), INK.contrast), 1.0)
