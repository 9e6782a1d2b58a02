"""Read a photographed or scanned sheet, box by box.

`read_photo` finds the sheet's scan marks (sheetgen.scan.markers) and its QR code
(sheetgen.scan.qr), maps the photo onto the page in millimetres and aligns it with the blank
page rendered from the same display list (sheetgen.scan.blank, sheetgen.scan.printed), so
what is printed inside a box is never taken for a mark. `read_boxes` measures every box
(`look_at`: its ink, strokes, rings and colour) against the photo's own levels
(sheetgen.scan.levels) and gives each a verdict (sheetgen.scan.verdict): marked, empty or
unsure. Unsure boxes are never guessed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from sheetgen.scan.blank import PPMM, blank_colours, blank_page, grid_cells, inside
from sheetgen.scan.colour import bilevel, bilevel_blank, ink_colour, shaded, spilled, white_balanced
from sheetgen.scan.levels import (
    BARE_TRACE,
    PRINT,
    bare_paper,
    box_floor,
    contrast,
    creases,
    lying_on,
    near_alike,
    pale_level,
    paper_boxes,
    paper_floor,
    paper_traces,
    photo_trace,
    standing_out,
    wash,
    washed_out,
)
from sheetgen.scan.markers import Unreadable, find_markers, homography, warp
from sheetgen.scan.photos import Photo, need_cv
from sheetgen.scan.printed import (
    ICON,
    REACH,
    SHIFT,
    align,
    box_shift,
    icon_fit,
    looks_printed,
    print_halo,
    seen_print,
    unlike_siblings,
)
from sheetgen.scan.qr import check_print, read_qr, recognise, sheet_layout
from sheetgen.scan.rings import RING, part_ringed, round_about, round_inside, round_outside, traced
from sheetgen.scan.strokes import (
    CORE,
    FAINT,
    INK,
    LOW,
    PALE,
    PALE_CELL,
    despeckled,
    faint_trace,
    grown_mask,
    held,
    longest,
    padded_mask,
    page_darkness,
    pale_blurred,
    pale_darkness,
    pale_stroke,
    spread,
)
from sheetgen.scan.verdict import MARKED, NOISE, decide

COLOUR_INK = 0.1  # HSV saturation above which a grid cell's pixel is pencil (read_photo)
# ...and its colour is a mark's core where more than VIVID times as coloured as the bare
# paper (see `paper_floor`): a colour pencil rubbed out leaves a tint as coloured as a
# phone's chroma blotches on the paper and a little more, a stroke is far more coloured
VIVID = 2.0
# ...and there, a box is not read empty where the bare paper round it or inside it shows
# CLIPPED grey or lighter (the lighter median, of 255), or where there is too little of it to
# tell (a grid's cells): a light stroke is lost where the paper is clipped white, not where it
# is grey, and a photo lit unevenly has both. On the 14 washed-out photos cached from the
# probe, the seventh and the eighth generators, the 55 marks that show nothing (all but one on
# the probe's four; the eighth's seed 1 photo 21 a light fill, its inside 243, round it 254)
# have paper 253-255, or none; 300 empty boxes on grey paper read empty, not unsure
CLIPPED = 250
# ...and where the page's boxes show it DARKER than the blank page at its median darkness in the
# boxes (their median line, as printed), it is taken as dark as that line says: a phone's local
# contrast (HDR) and sharpening show every icon darker (the ninth generator's seed 1 photos 2 and
# 9: 0.13 and 0.12 darker, 13 empty boxes read marked; the seventh's 30 photos of seed 2 at most
# 0.033, a blurred photo's icons spread wider than printed)
DARKER = 0.06
# ...but never over more than the round box showing least when that is over RING_FLOOR: a
# sheet at the end of a game has every pig bonus box, every colony step circled, and all read
# empty (the page's least a circle); of 418 photos of nine generators, no empty round box's
# ink went over 0.45 of the way round. A box whose ink goes RING[0] round, or AROUND[0] round
# a square one, standing out or not, is unsure, never empty (a player who circles every box)
RING_FLOOR = 0.3
# a square box is marked when a mark's dark core goes AROUND[0] of the way round it, outside it
# (see `round_outside`, `traced`), AROUND[1] more than round the page's square boxes' median: a
# circle drawn round the box (a circle round a group of boxes, the Imperial Settlers rules' for a
# finished bridge or a colony's sections, goes round those boxes once all are ticked). On 170
# photos (the fourth generator's seeds 1-2, the third's seed 3) 63 circles a person sees read
# unsure before, and no empty box's dark ink went 0.8 of the way round (three went 0.72-0.75:
# empty pig boxes between ticked ones on a third generator's photo); lighter ink: `circled`
AROUND = (0.8, 0.5)
# ...and a box is unsure, never empty, when a trace LIGHT_RING as dark as ink goes RING round it
# (a round box: along its printed ring, `ringed`, `traced`; a square box: `round_outside`,
# `traced`): a light pencil circle, blurred or drawn with a hard lead, shows as ink 0.47 of the
# way round (the fourth generator's seed 3 photo 16) and as a trace all the way. Of 405 photos
# (the fourth generator's seeds 1-3, the third's 3, the probe's 5), two empty boxes' traces
# went 0.81 of the way round, 0.56 over their page's median, and three light circles read
# empty went 0.72-1.0 round, their pages' median 0.04-0.06
LIGHT_RING = 0.5
# a square box is marked when a stroke goes ROUND[0] of the way round inside it (a circle
# drawn in the box, along its border: its middle is bare; see `round_inside`), ROUND[1]
# more than inside the page's square boxes (their median: a border every box shows as ink)
ROUND = (0.75, 0.5)
# a box (not a grid cell) is unsure, never empty, when TINT[0] of the bare part of its inside
# (0.5 mm from any print) is coloured (over the paper's floor, `paper_floor`), TINT[1] more than
# the page's boxes' median: a highlighter's fill, as light as the paper in grey
TINT = (0.5, 0.4)
# ...the median counting up to TINT_FLOOR: a player who colours every box with a highlighter
# (more than half the page's boxes: its median a fill) had them all read empty; of 480 photos
# of ten generators, no empty box's inside was over 0.48 coloured
TINT_FLOOR = 0.1
# ...and marked when FILL of that bare part is plainly coloured (`vivid`: a highlighter's fill)
# while at most SPILL of the bare paper round the box is (see `spilled`): a stain or a cast of
# light colours the paper round the box as much as its inside, a highlighter runs over its
# border on a side or two (the fourth generator's: 0 to 0.59 of the paper round the box)
FILL, SPILL = 0.9, 0.5
# a box (not a grid cell) is unsure, never empty, when OVER[1] of its inside is coloured (as
# `coloured`) and more saturated than the blank page prints it there by OVER[0] (0-1): a red
# dry-erase dot right on the pale icon printed in the box, which its print's darkness hides
# (the eleventh generator's seed 9 photo 9: nine dots read empty, ink scores 0-0.004); the print's
# own colour (its saturation, the most within 3 px) is no ink, nor a pale icon a phone shows vivid.
# Tick boxes only: a colony step's printed number and a pig bonus box's ring, thin and coloured,
# show more saturated than the blank page draws them (on 600 cached photos of eleven generators,
# 37 such empty boxes 0.04-0.15, and a board cell a neighbour's colour strays into; the tick boxes:
# 4 empty ones 0.04-0.07, one photo of the probe, and none of 14,896 marks newly unsure). A
# dot under glare shows less saturated: at OVER[0] 0.25 five of that photo's dots still read
# empty (0.0-0.04 of the inside); at 0.2, four of them are unsure, and no empty tick box of
# 541 cached photos of twelve generators newly is (at 0.15, 16 would be)
OVER = (0.2, 0.04)
# ...and for a mark (AROUND), no piece under SPECK pixels shows it round the box: a photo's salt
# noise round an empty box, a check's arm from the next box and the print a curl shifted went
# 0.8 of the way round (probe seed 3 photo 58, seed 5 photo 34); a circle's pieces hidden all
# but a few pixels by the print leave the box unsure (fourth seed 2 photo 5)
SPECK = 6


@dataclass
class PageRead:
    """What one photo says: its layout, page, the value of every box, and how sure."""

    photo: Photo
    layout: object
    page_id: str
    values: dict  # field -> True/False (tick boxes), a letter or '?' (garden cells), '' (write)
    readings: dict  # field -> MARKED / EMPTY / UNSURE
    scores: dict = field(default_factory=dict)  # field -> the ink score of its inside
    spreads: dict = field(default_factory=dict)  # field -> how far its ink spreads (0-1)
    rectified: object = None  # the photo mapped onto the page, PPMM pixels a mm
    boxes: list = field(default_factory=list)
    note: str = ""  # how the page was known when its QR code could not be read (see `recognise`), a noisy photo
    sheet: dict = field(default_factory=dict)  # how the page was printed (its QR code): players, lang, grey
    numbers: dict = field(default_factory=dict)  # the numbers written by hand, as read (scan.written.NumberRead)


def read_photo(photo: Photo, layout_ref: str | None = None, markers: dict | None = None) -> PageRead:
    """One photo's page and box readings: of the sheet whose scan `markers` are given
    (see `find_sheets`), else of the photo's one sheet."""
    cv2, np = need_cv()
    markers = find_markers(photo) if markers is None else markers
    note = ""
    try:
        qr = read_qr(photo, markers)
    except Unreadable as unread:  # (a code read but not one of ours is refused as it is)
        qr, note = recognise(photo, markers, layout_ref, unread)
    else:
        if layout_ref is None:  # (a layout given is checked against the code's: sheet_layout)
            check_print(photo, markers, qr)
    layout = sheet_layout(photo, qr, layout_ref)
    h = homography(markers, layout.width, layout.height)
    lang = qr["lang"] if qr["lang"] in layout.title else "en"
    display, blank = blank_page(layout, qr["page"], qr["players"], lang, qr["grey"])
    page = align(cv2, np, warp(photo, h, layout.width, layout.height, REACH), blank)
    cells = grid_cells(layout, qr["page"])
    two_tone = bilevel(cv2, np, photo.rgb)
    if two_tone:
        blank = bilevel_blank(np, blank)
    # (a black-and-white image has no colour to tell from the print's)
    colours = None if two_tone else blank_colours(layout, qr["page"], qr["players"], lang, qr["grey"])
    values, readings, scores, spreads, boxes, troubles = read_boxes(page, blank, display.boxes(), cells, colours)
    troubles = ("bilevel", *troubles) if two_tone else troubles
    said = [f"{photo.name}: {TROUBLES[t]}" for t in troubles]
    note = "; ".join([note, *said] if note else said)
    sheet = {"players": qr["players"], "lang": lang, "grey": qr["grey"]}
    return PageRead(photo, layout, qr["page"], values, readings, scores, spreads, page, boxes, note, sheet)


# what a photo read with trouble (see `read_boxes`) is told
TROUBLES = {
    "bilevel": "a black-and-white image (a scanner's or an app's B&W mode): a light pencil stroke may "
    "have turned white; scan or photograph the sheet in colour or grey",
    "noisy": "a dark, noisy photo (its paper shows as dark as pencil): only clear marks were read; "
    "photograph the sheet again in better light",
    "washed": "a washed-out photo (its print shows light grey): a light pencil stroke may not show "
    "where the paper is white, so no box there is read empty; photograph the sheet again in less light",
    "covered": "something lies on the sheet over some boxes (a die, a pencil, a meeple?): they are "
    "unsure; take it off and photograph the sheet again",
}


@dataclass
class Look:
    """What a box shows in the photo: its `decide` measures (see there), its inside's
    darkness over the blank page's (`dark`, creases left out: a faint trace is looked for
    in it), and the measures a box is compared in with the page's others of its kind
    (None when not taken for the box): how far round it ink goes along its printed ring
    (`ring`, a round box: `ringed`, `traced`) or a mark's dark core does (`dark_ring`), how
    far round inside it a dark stroke goes (`round_in`, a square box: `round_inside`) and
    round it outside (`around`: `round_outside`, `traced`) or a mark's dark core does
    (`dark_around`), or a light trace does round either kind (`light_ring`, see
    LIGHT_RING), how much of the bare part of its inside is coloured (`tint`, see TINT),
    plainly (`fill`), and how much of the bare paper round it is (`spill`, see `spilled`;
    only for a box filled FILL at least), how much of it is shaded grey (`shade`, see
    `shaded`) and how light the bare paper round it or in it shows (`paper`, 0-255: see
    CLIPPED); a grid cell's hsv and ink (`colour`)."""

    box: object
    dark: object
    score: float
    reach: float
    core: float
    hold: float
    like_print: bool
    long: float
    ring: float | None = None
    dark_ring: float | None = None
    round_in: float | None = None
    around: float | None = None
    dark_around: float | None = None
    light_ring: float | None = None
    tint: float | None = None
    fill: float | None = None
    shade: float | None = None
    paper: float | None = None
    spill: float | None = None
    over: float | None = None
    colour: tuple | None = None


@dataclass
class _Sight:
    """What `look_at` needs of the whole page: the masks and the levels of ink (see `read_boxes`)."""

    ink_t: float  # darkness of ink
    trace_t: float  # ...of a light trace (LIGHT_RING)
    core_t: float  # ...of a mark's dark core
    cells: set  # the grid cells' fields
    printed: object  # the blank page's darkness, grown by 2 px
    bridge: object  # where the print hides a stroke
    on_print: object  # the print itself
    far: object  # the bare paper 0.5 mm from any print
    insides: object  # every box's inside
    coloured: object  # (padded) coloured as a colour pencil
    vivid: object  # (padded) ...plainly
    crease: object  # (padded) the page's creases
    hsv: object  # the page, white balanced, in hsv
    gray: object  # (padded) the page in grey, specks smoothed out
    blank: object  # the blank page, grey
    sat: object = None  # (padded) the page's saturation, white balanced (0-255)
    print_sat: object = None  # the blank page's, the most within 3 px (0-255); None: not known


def over_print(np, sat, print_sat, coloured) -> float:
    """The share of a box's inside coloured (`coloured`, a mask) and more saturated than the
    blank page prints it there (`print_sat`; `sat` the photo's, both 0-255) by OVER[0]:
    coloured ink over the print (see OVER)."""
    over = sat.astype(np.int16) - print_sat > OVER[0] * 255
    return float((over & coloured).mean()) if over.size else 0.0


def look_at(cv2, np, sight: _Sight, box, photo, window, sl, dark) -> Look:
    """What `box` shows: its window of the photo (`photo`, padded; `window` on the page, its
    inside `sl` there) and that window's darkness over the blank page's (`dark`)."""
    extra, core, trace = dark > sight.ink_t, dark > sight.core_t, dark > sight.trace_t
    origin = (window[1].start, window[0].start)
    cell = box.field in sight.cells
    part, strong = extra[sl], core[sl]
    if cell:
        part, strong = part | sight.coloured[photo][sl], strong | sight.vivid[photo][sl]
    score = float(part.mean()) if part.size else 0.0
    hold = long = 0.0
    if score > LOW and not cell:
        hold = held(cv2, np, extra, core, sight.bridge[window], box, origin)
        long = longest(cv2, np, extra, core, box, origin)
    got = Look(
        box,
        np.where(sight.crease[photo][sl], 0.0, dark[sl]),
        score,
        spread(np, part),
        float(strong.mean()) if part.size else 0.0,
        hold,
        looks_printed(np, part, sight.on_print[window][sl], sight.printed[window][sl] < 0.1),
        long,
    )
    insides, bridge = sight.insides[window], sight.bridge[window]
    if box.kind == "round":
        # ink and a mark's dark core off the print itself (a light trace: see LIGHT_RING)
        got.ring, got.dark_ring = (
            round_about(cv2, np, m, insides, bridge, box, origin, sight.on_print[window]) for m in (extra, core)
        )
        got.light_ring = round_about(cv2, np, trace, insides, bridge, box, origin)
    elif not cell:
        got.round_in = round_inside(np, core, box, origin)
        if box.kind != "mini":
            span = np.hypot(box.w, box.h) / 2 + 2.5
            # ink round it, off the print (a sharpened photo shows the print round a box darker
            # than the blank page: the ninth generator's seed 1 photo 9, a group's frame and the
            # text under it 0.86 of the way round an empty box); ink dark through, no speck
            # (SPECK) counted; a light trace (LIGHT_RING)
            got.around, got.dark_around, got.light_ring = (
                max(
                    round_outside(np, m & ~insides & ~bridge, box, origin),
                    traced(cv2, np, m, insides, bridge, box, origin, span, n),
                )
                for m, n in ((extra, 0), (extra & core, SPECK), (trace, SPECK))
            )
    if cell:
        dx, dy = photo[1].start - SHIFT - origin[0], photo[0].start - SHIFT - origin[1]  # the box's shift
        x, y, w, h = (round(v * PPMM) for v in inside(box))
        got.colour = (sight.hsv[max(0, y + dy) : y + dy + h, max(0, x + dx) : x + dx + w], part)
    else:
        bare = sight.far[window][sl]
        if sight.print_sat is not None and box.kind == "check":
            got.over = over_print(np, sight.sat[photo][sl], sight.print_sat[window][sl], sight.coloured[photo][sl])
        if bare.sum() >= 2 * PPMM**2:  # 2 mm² of bare paper at least (a ladder step's is mostly print)
            got.tint = float((sight.coloured[photo][sl] & bare).sum() / bare.sum())
            got.fill = float((sight.vivid[photo][sl] & bare).sum() / bare.sum())
            got.shade, got.paper = shaded(
                np, sight.gray[photo], sight.blank[window], sight.far[window], insides, box, origin, sl
            )
            if got.fill >= FILL:
                got.spill = spilled(np, sight.vivid[photo], sight.far[window], insides, box, origin)
    return got


def read_boxes(page, blank, all_boxes, cells: set, colours=None):
    """(values, readings, scores, spreads, boxes read, troubles) of the markable boxes of a
    rectified page (RGB, PPMM) against its blank page (grey; its `colours`, RGB, when known:
    see OVER); `cells` are the grid cells;
    `troubles` (see TROUBLES): "noisy" when the photo's paper shows as dark as ink (see
    `paper_floor`, `box_floor`), "washed" when its print shows too light (see `washed_out`),
    "covered" when something lying on the sheet covers boxes (see `levels.lying_on`).
    A washed-out photo's boxes on paper clipped white (CLIPPED) are marked or unsure, none empty."""
    cv2, np = need_cv()
    gray = cv2.cvtColor(page, cv2.COLOR_RGB2GRAY)
    pad = SHIFT
    ink = cv2.copyMakeBorder(page_darkness(cv2, np, gray), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    plain = 1.0 - blank.astype(np.float32) / 255.0
    printed = print_halo(cv2, np, plain)
    hsv = cv2.cvtColor(white_balanced(cv2, np, page, blank), cv2.COLOR_RGB2HSV)
    # a dark, noisy photo shows the bare paper itself as coloured as a stroke: colour
    # is only what is more coloured than most of the bare paper is (ink: below)
    page_ink = ink[pad:-pad, pad:-pad]  # (a view: the page's pixels, unpadded)
    paper = bare_paper(cv2, np, plain, all_boxes)
    # (how bright the bare paper shows, white balanced: a brown ink is told from an orange by it)
    paper_light = float(np.percentile(hsv[..., 2][paper], 90)) if paper.any() else None
    washed = washed_out(np, gray, plain, paper)
    saturation_floor = paper_floor(np, hsv[..., 1], paper)
    # a blurred or over-exposed photo shows every stroke lighter, the print and a pencil
    # alike: a mark's core and a faint trace are looked for at darkness scaled by how dark
    # it shows the print (`contrast`); ink itself (INK) is not, or a mistake rubbed out and
    # crossed by a crease reads marked
    gain = contrast(cv2, np, page_ink, plain)
    core_t, faint_t = CORE * gain, FAINT * gain
    insides = np.zeros(printed.shape, bool)  # every box's inside (its marks), on the page
    for box in all_boxes:
        x, y, w, hh = (round(v * PPMM) for v in inside(box))
        insides[max(0, y) : y + hh, max(0, x) : x + w] = True
    H, W = printed.shape
    # light print (an icon in dropout colours) away from the dark print (see `seen_print`)
    light = (plain > ICON[0]) & (plain < PRINT) & ~grown_mask(cv2, np, plain >= PRINT, 4)
    read = [box for box in all_boxes if box.kind != "write" or box.field in cells]
    shifts = {box.field: box_shift(cv2, np, ink, plain, box) for box in read}
    unlike = unlike_siblings(cv2, np, ink, plain, read, shifts, pad, faint_t)
    # (box, its window on the photo and on the page, its inside there, its icon's fit: `icon_fit`)
    fits = []
    for box in read:
        dx, dy = shifts[box.field]
        # the box and a box's size around it, in page pixels (the photo's: moved by dx, dy)
        wx0, wy0 = max(0, round((box.x - box.w) * PPMM)), max(0, round((box.y - box.h) * PPMM))
        wx1, wy1 = min(W, round((box.x + 2 * box.w) * PPMM)), min(H, round((box.y + 2 * box.h) * PPMM))
        photo = (slice(wy0 + pad + dy, wy1 + pad + dy), slice(wx0 + pad + dx, wx1 + pad + dx))
        window = (slice(wy0, wy1), slice(wx0, wx1))
        x, y, w, hh = (round(v * PPMM) for v in inside(box))
        sl = slice(y - wy0, y - wy0 + hh), slice(x - wx0, x - wx0 + w)
        fits.append((box, photo, window, sl, icon_fit(cv2, np, ink[photo], plain[window], light[window], sl)))
    # the photo's own spread of its icons from their fits (a noisy, sharpened photo's is wide)
    fitted = [fit for *_, fit in fits if fit is not None]
    over = ICON[2] * 1.4826 * float(np.median([fit[0] for fit in fitted])) if fitted else 0.0

    def seen(page_lines=()):
        """Each box as in `fits`, with its window's darkness over the print as the photo shows it
        (see `seen_print`) in place of its fit."""
        return [
            (
                box,
                photo,
                window,
                sl,
                ink[photo] - seen_print(cv2, np, *(m[window] for m in (plain, printed, light)), fit, over, page_lines),
            )
            for box, photo, window, sl, fit in fits
        ]

    # ...and how the photo shows its light print, over the page (the median line of its boxes', as
    # printed): where it shows it DARKER than the blank page does (at its median darkness), a
    # phone's local contrast and sharpening, the icons are taken as dark as that (see `seen_print`):
    # their excess is print, not a noisy photo's ink in every box (`box_floor`); not where the bare
    # paper itself is as dark as ink (a dark, noisy photo read with care: the probe's seed 3 photo
    # 19 read 15 more boxes unsure)
    paper_ink = paper_floor(np, page_ink, paper)
    page_lines = []
    if fitted and paper_ink <= INK:
        # (a line of each kind: as printed, and blurred as the photo is, its blur each box's best)
        lines = [tuple(float(np.median([fit[1][k][i] for fit in fitted])) for i in (0, 1)) for k in (0, 1)]
        middle = float(np.median(plain[light & insides]))
        a, b = lines[0]
        if a + b * middle - middle >= DARKER:
            page_lines = lines
    placed = seen(page_lines)
    # a dark, noisy photo shows the bare paper itself as dark as a stroke, and a JPEG's
    # blocks and ringing show darkest beside the print, in every box: ink is only what
    # is darker than most of the bare paper, and NOISE times what a box shows (`box_floor`)
    ink_floor = max(paper_ink, NOISE * box_floor(np, [d[sl] for *_, sl, d in placed], paper_boxes(np, page_ink, paper)))
    noisy = ink_floor > INK
    sight = _Sight(
        ink_t=max(INK, ink_floor),
        trace_t=LIGHT_RING * max(INK, ink_floor),
        core_t=max(core_t, ink_floor),
        cells=cells,
        printed=printed,
        bridge=printed > 0.3,
        on_print=plain > 0.3,
        far=cv2.dilate((plain > 0.1).astype(np.uint8), np.ones((round(PPMM) + 1,) * 2, np.uint8)) == 0,
        insides=insides,
        # in a grid cell (colour pencils) colour counts as ink too: a light orange stroke is
        # barely darker than the paper, but plainly coloured; the paper and the empty cells are not
        coloured=padded_mask(cv2, np, hsv[..., 1] > max(COLOUR_INK * 255, saturation_floor), pad),
        vivid=padded_mask(cv2, np, hsv[..., 1] > max(COLOUR_INK * 255, VIVID * saturation_floor), pad),
        crease=padded_mask(cv2, np, creases(cv2, np, page_ink - printed, faint_t), pad),
        hsv=hsv,
        gray=cv2.copyMakeBorder(cv2.medianBlur(gray, 3), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255),
        blank=blank,
        sat=cv2.copyMakeBorder(hsv[..., 1], pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0),
        print_sat=None
        if colours is None
        else cv2.dilate(cv2.cvtColor(colours, cv2.COLOR_RGB2HSV)[..., 1], np.ones((7, 7), np.uint8)).astype(np.int16),
    )
    looks = [look_at(cv2, np, sight, *where) for where in placed]
    # (boxes with something lying on them, seen at a quarter of PPMM: see LYING; not on a dark,
    # noisy photo, whose paper's light nearby is its brightest noise, and where only clear marks count)
    lying, covered = lying_on(cv2, np, gray, plain, all_boxes) if not noisy else None, set()
    for k in looks if lying is not None and lying.any() else ():
        x, y, w, hh = (round(v * PPMM / 4) for v in inside(k.box))
        if lying[max(0, y) : y + hh, max(0, x) : x + w].any():
            covered.add(k.box.field)
    base = wash(np, [k.score for k in looks], [k.dark for k in looks])

    def measures(name):
        return {k.box.field: getattr(k, name) for k in looks if getattr(k, name) is not None}

    # a photo that shows the printed rings darker than on the blank page shows them all so: a
    # page has a few round boxes, often most of them marked, and their rings are measured
    # against the one showing least (the lower quartile was one of five pig bonus boxes circled
    # of seven, and four read empty on the fifth generator's seed 2 photo 0); but against the
    # lower quartile when a light trace goes round every one of them (RING[0]: the photo shows
    # their print; on the probe's seed 5 photo 41 the empty ones' dark cores went 0.17-0.86 of
    # the way round). Of 126 pages of five generators, three showed a trace round every one
    rounds = {k.box.field for k in looks if k.box.kind == "round"}
    light, on_ring = measures("light_ring"), measures("ring")
    light_round = {k: v for k, v in light.items() if k in rounds}
    light_square = {k: v for k, v in light.items() if k not in rounds}
    shows_print = light_round and min(light_round.values()) >= RING[0]
    least = functools.partial(np.percentile, q=25) if shows_print else min
    circled = (
        standing_out(np, on_ring, RING, least, most=RING_FLOOR)
        | standing_out(np, measures("around"), RING)
        | standing_out(np, light_square, RING)
        | standing_out(np, light_round, RING, least)
    )
    circled |= {f for f, v in on_ring.items() if v >= RING[0]} | part_ringed(on_ring, light)
    circled |= {f for name in ("around", "dark_around") for f, v in measures(name).items() if v >= AROUND[0]}
    # (a mark: standing out from the boxes printed alike round it too; a box that does only from
    # the page's is circled, unsure: a photo blurred in one part, or a player circling every box)
    alike = near_alike(np, [k.box for k in looks])
    round_in = (
        standing_out(np, measures("round_in"), ROUND, near=alike)
        | standing_out(np, measures("dark_ring"), RING, least, most=RING_FLOOR)
        | standing_out(np, measures("dark_around"), AROUND, near=alike)
    )
    tinted = standing_out(np, measures("tint"), TINT, most=TINT_FLOOR)
    # (not on a dark, noisy photo: its noise is as saturated as a pen, and only clear marks count)
    tinted |= {f for f, v in measures("over").items() if v >= OVER[1]} if not noisy else set()
    filled = {k.box.field for k in looks if k.box.field in tinted and k.spill is not None and k.spill <= SPILL}
    filled |= {k.box.field for k in looks if k.shade is not None and k.shade >= FILL}
    middles = [faint_trace(cv2, np, k.dark - base, faint_t) for k in looks]
    # (both the photo's own, but never more than the bare paper shows, BARE_TRACE: see `paper_traces`)
    bare_trace, bare_pale = paper_traces(cv2, np, page_ink, paper, base, faint_t)
    noise = min(photo_trace(np, [k.score for k in looks], middles), max(BARE_TRACE[0] * bare_trace, BARE_TRACE[1]))
    # a paler trace, off the print, over the photo's own level (see PALE)
    hiddens = [sight.bridge[window][sl] for _, _, window, sl, _ in placed]
    pales = [
        pale_darkness(cv2, np, k.dark - base, hidden) if k.score <= LOW else None
        for k, hidden in zip(looks, hiddens, strict=True)
    ]
    pale_top = min(pale_level(np, pales, hiddens), max(BARE_TRACE[0] * bare_pale, BARE_TRACE[2]))
    level = max(PALE[0] * faint_t * 255, PALE[1] * pale_top)
    # ...and a grid cell's, blurred, over the level of the page's cells (see PALE_CELL)
    # ...and in a board's cell (a "mini" box: no print in it, its middle half looked at), as in a
    # grid cell: the seventh generator's light pencil scribbles, crosses and ticks in Glassworks
    # board cells, 0.03-0.06 darker than the paper on noisy photos, read empty (4 on its seeds
    # 1-4); in every box with no print in it (pig and market boxes too) it made 28 more of them
    # unsure on 330 cached photos of six generators, and found no mark
    fine = [
        pale_blurred(cv2, np, k.dark - base, hidden, specks=k.box.kind == "mini")
        if pale is not None and (k.box.field in cells or k.box.kind == "mini")
        else None
        for k, pale, hidden in zip(looks, pales, hiddens, strict=True)
    ]
    # (the grid cells' level and the board cells' each their own)
    fine_levels = {
        group: max(
            PALE_CELL[1] * faint_t * 255,
            PALE[1]
            * pale_level(np, [f if (k.box.field in cells) == group else None for k, f in zip(looks, fine)], hiddens),
        )
        for group in (True, False)
    }
    # ...its creases (a fold as pale as that), and how far round a round box with no ink it goes:
    # a circle drawn lightly round it, standing out from the page's other round boxes as LIGHT_RING
    smooth = despeckled(cv2, np, page_ink - printed).astype(np.float32) / 255
    folds = padded_mask(cv2, np, creases(cv2, np, smooth, level / 255), pad)
    pale_rings = {
        k.box.field: round_about(
            cv2,
            np,
            (despeckled(cv2, np, d) > level) & ~folds[photo],
            sight.insides[window],
            sight.bridge[window],
            k.box,
            (window[1].start, window[0].start),
        )
        for k, (_, photo, window, _, d) in zip(looks, placed, strict=True)
        if k.box.kind == "round" and k.score <= LOW
    }
    circled |= standing_out(np, pale_rings, RING, least)
    values = {box.field: "" for box in all_boxes if box.kind == "write" and box.field not in cells}  # not read
    readings, scores, spreads = {}, {}, {}
    for k, faint, pale, cell, (_, photo, _, sl, _) in zip(looks, middles, pales, fine, placed, strict=True):
        field = k.box.field
        if cell is not None:
            pale = cell
        reading = decide(
            k.score,
            k.reach,
            k.core,
            max(faint, unlike.get(field, 0.0)),
            k.hold,
            k.like_print,
            middle=faint,
            noise=noise,
            long=k.long,
            noisy=noisy,
            circled=field in circled,
            touching=k.box.kind == "mini",
            covered=field in covered,
            washed=washed and (k.paper is None or k.paper >= CLIPPED),
            round_in=field in round_in,
            tinted=field in tinted,
            filled=field in filled,
            unlike=unlike.get(field, 0.0),
            pale=(
                pale_stroke(
                    cv2, np, np.where(folds[photo][sl], 0, pale), level if cell is None else fine_levels[field in cells]
                )
                if pale is not None
                else 0.0
            ),
        )
        scores[field], spreads[field], readings[field] = k.score, k.reach, reading
        if k.colour is not None:
            hsv_box, part = k.colour
            same = hsv_box.shape[:2] == part.shape
            values[field] = (ink_colour(np, hsv_box, part, paper_light) if same else "?") if reading == MARKED else ""
        else:
            values[field] = reading == MARKED
    troubles = tuple(name for name, seen in (("noisy", noisy), ("washed", washed), ("covered", covered)) if seen)
    return values, readings, scores, spreads, [k.box for k in looks], troubles
