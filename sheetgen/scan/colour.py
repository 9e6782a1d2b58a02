"""Colour: the photo's white balance against the blank page, a black-and-white scan, a colour
pencil's hue in a grid cell (the vegetable), and a box shaded, highlighted or spilled into.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM
from sheetgen.scan.rings import near_centre
from sheetgen.scan.tuning import BALANCE, BILEVEL, HUE, TINT


def _paper_round(np, bare, insides, box, origin, *more):
    """The bare paper round a box (`bare` from `Tint.near` to `Tint.reach` out of it, off
    every box's `insides`; masks round the box, their top-left at `origin` px on the page)
    and the same part of each of `more` (arrays as `bare`); None with less than `Tint.paper`
    of such paper (a board copy's cells touch)."""
    half_w, half_h = box.w / 2 * PPMM, box.h / 2 * PPMM
    reach = TINT.reach * PPMM
    bare, dx, dy, insides, *more = near_centre(np, bare, box, origin, half_w + reach, half_h + reach, insides, *more)
    out = (np.abs(dx) > half_w + TINT.near * PPMM) | (np.abs(dy) > half_h + TINT.near * PPMM)
    band = bare & ~insides & out
    return (band, *more) if band.sum() >= TINT.paper * PPMM**2 else None


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
    inside in these masks round the box, their top-left at `origin` px on the page) shows
    `Tint.shade` darker than the bare paper round it (see `_paper_round`), in the photo (`gray`) against
    the blank page (`blank`): a box shaded evenly with a pencil; and how light the paper
    shows, round it or inside it, whichever is lighter (their median grey, 0-255: see
    `Washed.clipped`; a light tint printed round a box shows grey where its inside is white). Each
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
    darker = gray[sl][inner] / seen < blank[sl][inner] / printed - TINT.shade
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
    """Whether an image is in black and white only (see `tuning.Bilevel`)."""
    gray = cv2.cvtColor(np.ascontiguousarray(rgb[::4, ::4]), cv2.COLOR_RGB2GRAY)
    black, white = float((gray <= BILEVEL.black_level).mean()), float((gray >= BILEVEL.white_level).mean())
    return black + white >= BILEVEL.share and black >= BILEVEL.black * max(1.0 - white, 1e-6)


def bilevel_blank(np, blank):
    """The blank page (grey) as a black-and-white image may show it: every grey level of its
    print black (see `tuning.Bilevel`), the paper white."""
    return np.where(blank < BILEVEL.printed, 0, 255).astype(np.uint8)


def white_balanced(cv2, np, page, blank):
    """The page with the light's colour divided out (a warm lamp, the blue of a shade),
    so that white paper has no colour and a pencil's hue is its own: each channel over
    the same channel of the paper nearby (where the blank page is white, `Balance.white`;
    the brightest within about 7 mm, so that pencil is not taken for paper)."""
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32)
    white = cv2.resize(blank, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA) > BALANCE.white
    paper = cv2.dilate(small * white[..., None], cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15)))
    paper = cv2.GaussianBlur(paper, (0, 0), 4)
    grey = paper.mean(axis=2, keepdims=True)
    tint = np.where(grey > BALANCE.dark, paper / np.maximum(grey, 1), 1.0).astype(np.float32)
    tint = cv2.resize(tint, (page.shape[1], page.shape[0]), interpolation=cv2.INTER_LINEAR)
    out = np.divide(page, np.maximum(tint, np.float32(0.2)), dtype=np.float32)
    return np.minimum(out, 255, out=out).astype(np.uint8)  # (never under 0)


def ink_colour(np, hsv, mask, paper: float | None = None) -> str:
    """C, S or T from the ink's hue when the mark is clearly coloured (see `tuning.Hue`); else
    '?'. `paper`: the bare paper's brightness (HSV value, 0-255), against which a brown is told
    from an orange."""
    pix = hsv[mask]
    if len(pix) < HUE.pixels:
        return "?"
    coloured = pix[(pix[:, 1] > HUE.saturation) & (pix[:, 2] > HUE.value)]
    if len(coloured) < HUE.coloured * len(pix):
        return "?"
    angle = coloured[:, 0].astype(np.float32) * (np.pi / 90)  # OpenCV hue is 0-180: a circle
    sin, cos = float(np.sin(angle).mean()), float(np.cos(angle).mean())
    if sin * sin + cos * cos < HUE.agree**2:
        return "?"  # hues that disagree (two pencils, a smudge): not guessed
    hue = float(np.degrees(np.arctan2(sin, cos)) / 2) % 180
    for letter, ranges in HUE.ranges:
        if any(a <= hue <= b for a, b in ranges):
            if letter == "C" and paper and float(np.median(coloured[:, 2])) <= HUE.brown * paper:
                return "?"  # a brown
            return letter
    return "?"
