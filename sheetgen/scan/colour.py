"""Colour: the photo's white balance against the blank page, a black-and-white scan, a colour
pencil's hue in a grid cell (the vegetable), and a box shaded, highlighted or spilled into.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM
from sheetgen.scan.rings import near_centre

# a box whose inside is mostly bare paper (`reader.FILL`) is marked when FILL of it shows SHADE
# darker than the bare paper round the box (0.5-2.5 mm out, off every box's inside; each against
# the blank page's, see `shaded`): a box shaded evenly grey with a pencil. Its inside is mostly
# far from the paper, and ink is measured against the brightest paper nearby (see
# `page_darkness`): the shading is that paper, and shows no ink (the fifth generator's: a score
# of 0.003-0.025, 11 read unsure on its seeds 1-2). A shadow or a stain falls on the paper round
# the box as well
SHADE = 0.15
# ink colours of the Harvest Dice dice, as hue ranges (OpenCV hue, 0-180); a hue between two
# ranges is '?'. Red and orange lie close (an orange pencil at 12, a red one at 178-2): under
# a warm lamp and a phone's tone mapping the fourth generator's red pencils showed 6-8.6 and
# its orange ones 18-27, and two red cells were read carrots: 5-9 is between them
# Pink is no red: a pink crayon or highlighter showed 161-167 (the thirteenth generator: read
# tomatoes), a crimson pencil 174; red starts at 169 (338 degrees)
COLOURS = {"T": ((0, 5), (169, 180)), "C": ((9, 25),), "S": ((35, 90),)}
# ...and brown is no orange: an ink of a carrot's hue as dark as BROWN of the paper's brightness
# or darker (the median of its coloured pixels' value, HSV) is '?' (the thirteenth generator's
# brown pencils, felt-tips and crayons, 0.28-0.42 of the paper's, were read carrots); an orange
# pencil, felt-tip or crayon shows nearly as bright as the paper
BROWN = 0.6
AGREE = 0.85  # how closely the ink's hues must agree (the length of their mean direction)
# an image in black and white only (a scanner's or a phone app's B&W mode): BILEVEL[0] of its
# pixels black or white (10 grey levels from either end) and BILEVEL[1] of those not white
# black. Its print is black wherever the blank page was darker than the mode's threshold, which
# is not known: the pale icons in the boxes turn black, or partly so at 150 dpi. The blank page
# is taken with all its print black (BILEVEL_PRINT grey levels or darker: see `bilevel_blank`):
# no mark is looked for on it. (Matching the mode's threshold on the paper round the boxes took
# a 150 dpi scan's half-black icons for marks.) Of 277 photos of six generators, the most black
# or white was 0.90 with a black share of 0.03 (a washed-out probe photo), the largest black
# share 0.46 with 0.46 black or white (a dark one); the eighth generator's B&W images 0.91 and
# 0.96 black or white, shares 0.62 and 0.82; its other 14 photos at most 0.78, shares 0.03
BILEVEL = (0.85, 0.5)
BILEVEL_PRINT = 248


def _paper_round(np, bare, insides, box, origin, *more):
    """The bare paper round a box (`bare` 0.5 to 2.5 mm out of it, off every box's
    `insides`; masks round the box, their top-left at `origin` px on the page) and the same
    part of each of `more` (arrays as `bare`); None with less than a square millimetre of
    such paper (a board copy's cells touch)."""
    half_w, half_h = box.w / 2 * PPMM, box.h / 2 * PPMM
    reach = 2.5 * PPMM
    bare, dx, dy, insides, *more = near_centre(np, bare, box, origin, half_w + reach, half_h + reach, insides, *more)
    out = (np.abs(dx) > half_w + 0.5 * PPMM) | (np.abs(dy) > half_h + 0.5 * PPMM)
    band = bare & ~insides & out
    return (band, *more) if band.sum() >= PPMM**2 else None


def spilled(np, vivid, bare, insides, box, origin) -> float | None:
    """How much of the bare paper round a box (see `_paper_round`) is plainly coloured
    (`vivid`, a mask as `bare`): a highlighter's fill stays in its box, a stain or a coloured
    light does not. None with too little such paper."""
    around = _paper_round(np, bare, insides, box, origin, vivid)
    if around is None:
        return None
    band, vivid = around
    return float((vivid & band).sum() / band.sum())


def shaded(np, gray, blank, bare, insides, box, origin, sl) -> tuple:
    """How much of the bare part of a box's inside (`bare`, 0.5 mm from any print; `sl` the
    inside in these masks round the box, their top-left at `origin` px on the page) shows SHADE
    darker than the bare paper round it (see `_paper_round`), in the photo (`gray`) against
    the blank page (`blank`): a box shaded evenly with a pencil; and how light the paper
    shows, round it or inside it, whichever is lighter (their median grey, 0-255: see
    CLIPPED; a light tint printed round a box shows grey where its inside is white). Each
    None with too little such paper."""
    around = _paper_round(np, bare, insides, box, origin, gray, blank)
    if around is None:
        return None, None
    band, g, b = around
    seen, printed = _median_u8(np, g[band]), _median_u8(np, b[band])
    inner = bare[sl]
    paper = max(seen, _median_u8(np, gray[sl][inner])) if inner.any() else None
    if seen <= 0 or printed <= 0:
        return None, paper
    darker = gray[sl][inner] / seen < blank[sl][inner] / printed - SHADE
    return (float(darker.mean()) if darker.size else None), paper


def _median_u8(np, values) -> float:
    """The median of 8-bit values, as np.median gives it, by counting them (quicker for a
    box's few thousand)."""
    n = values.size
    if not n:
        return float("nan")
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    low, high = np.searchsorted(counts, [(n - 1) // 2, n // 2], side="right")  # the middle one or two
    return (int(low) + int(high)) / 2


def bilevel(cv2, np, rgb) -> bool:
    """Whether an image is in black and white only (see BILEVEL)."""
    gray = cv2.cvtColor(np.ascontiguousarray(rgb[::4, ::4]), cv2.COLOR_RGB2GRAY)
    black, white = float((gray <= 10).mean()), float((gray >= 245).mean())
    return black + white >= BILEVEL[0] and black >= BILEVEL[1] * max(1.0 - white, 1e-6)


def bilevel_blank(np, blank):
    """The blank page (grey) as a black-and-white image may show it: every grey level of its
    print black (see BILEVEL), the paper white."""
    return np.where(blank < BILEVEL_PRINT, 0, 255).astype(np.uint8)


def white_balanced(cv2, np, page, blank):
    """The page with the light's colour divided out (a warm lamp, the blue of a shade),
    so that white paper has no colour and a pencil's hue is its own: each channel over
    the same channel of the paper nearby (where the blank page is white; the brightest
    within about 7 mm, so that pencil is not taken for paper)."""
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32)
    white = cv2.resize(blank, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA) > 245
    paper = cv2.dilate(small * white[..., None], cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15)))
    paper = cv2.GaussianBlur(paper, (0, 0), 4)
    grey = paper.mean(axis=2, keepdims=True)
    tint = np.where(grey > 20, paper / np.maximum(grey, 1), 1.0).astype(np.float32)
    tint = cv2.resize(tint, (page.shape[1], page.shape[0]), interpolation=cv2.INTER_LINEAR)
    out = np.divide(page, np.maximum(tint, np.float32(0.2)), dtype=np.float32)
    return np.minimum(out, 255, out=out).astype(np.uint8)  # (never under 0)


def ink_colour(np, hsv, mask, paper: float | None = None) -> str:
    """C, S or T from the ink's hue when the mark is clearly coloured; else '?'. `paper`: the
    bare paper's brightness (HSV value, 0-255), against which a brown is told from an orange."""
    pix = hsv[mask]
    if len(pix) < 10:
        return "?"
    coloured = pix[(pix[:, 1] > 45) & (pix[:, 2] > 50)]
    if len(coloured) < 0.35 * len(pix):
        return "?"
    angle = coloured[:, 0].astype(np.float32) * (np.pi / 90)  # OpenCV hue is 0-180: a circle
    sin, cos = float(np.sin(angle).mean()), float(np.cos(angle).mean())
    if sin * sin + cos * cos < AGREE**2:
        return "?"  # hues that disagree (two pencils, a smudge): not guessed
    hue = float(np.degrees(np.arctan2(sin, cos)) / 2) % 180
    for letter, ranges in COLOURS.items():
        if any(a <= hue <= b for a, b in ranges):
            if letter == "C" and paper and float(np.median(coloured[:, 2])) <= BROWN * paper:
                return "?"  # a brown
            return letter
    return "?"
