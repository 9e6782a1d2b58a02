"""What the page prints, as the photo shows it: the rectified photo aligned to the blank page
square by square, a box's print shifted or shown darker than on the blank page, light icons
and their blur, and a box unlike its siblings printed alike.
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM, inside
from sheetgen.scan.strokes import despeckled
from sheetgen.scan.tuning import ALIGN, ICON, INK, PRINT, SHIFT, SIBLINGS


def unlike_siblings(cv2, np, ink, plain, boxes: list, shifts: dict, pad: int, faint: float = INK.faint) -> dict:
    """field -> the share of a box's inside darker than the same place in the boxes
    printed like it (its siblings: the same icon or text, `Siblings.least` of them at least).
    A mark drawn over a printed icon is hidden when the photo is compared with the
    blank page (the icon's own darkness is taken away, and a coloured icon photographs
    lighter or darker than its grey on the blank page), but not when it is compared
    with the same icon in the other boxes of the same photo: their per-pixel median is
    the icon as this photo shows it, marks and all left out (a mark is in few boxes,
    and seldom at the same place)."""
    patches, groups = {}, []
    for box in boxes:
        x, y, w, h = (round(v * PPMM) for v in inside(box))
        tpl = plain[y : y + h, x : x + w]
        if tpl.size == 0 or tpl.std() < SIBLINGS.plain:
            continue
        dx, dy = shifts[box.field]
        patches[box.field] = ink[y + pad + dy : y + pad + dy + h, x + pad + dx : x + pad + dx + w]
        for group in groups:
            first = group[0]
            if (
                first[1].shape == tpl.shape
                and float(cv2.matchTemplate(tpl, first[1], cv2.TM_CCOEFF_NORMED)[0, 0]) > SIBLINGS.alike
            ):
                group.append((box.field, tpl))
                break
        else:
            groups.append([(box.field, tpl)])
    out = {}
    for group in groups:
        if len(group) < SIBLINGS.least:
            continue
        fields = [f for f, _ in group]
        seen = np.median(np.stack([patches[f] for f in fields]), axis=0).astype(np.float32)
        seen = cv2.dilate(seen, np.ones((3, 3), np.uint8))
        for f in fields:
            out[f] = float((despeckled(cv2, np, patches[f] - seen) > faint * 255).mean())
    return out


def icon_fit(cv2, np, ink, plain, light, sl):
    """How the photo (`ink`, a box's window) shows the light print in the box's inside
    (`sl`; `light`, an icon in dropout colours, see `sight.see`), away from its edges:
    (spread, lines, near) with the photo's darkness there a + b times the blank page's
    (`plain`) for each (a, b, blank) of `lines`: the blank page as it is, and blurred as
    the photo is (of `Icon.blurs`, the blur that fits best), each over `near` (the inside
    and `Icon.near` px around it, slices of the window); `spread` is the median distance of
    the photo from the line that fits best. A mark's pixels (darker than a line by
    `Icon.mark` spreads) are left out of its fit. None with too little of the print
    (`Icon.pixels`)."""
    core = cv2.erode(light[sl].astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    if int(core.sum()) < ICON.pixels:
        return None
    grow = ICON.near
    (y0, y1), (x0, x1) = ((max(0, s.start - grow), s.stop + grow) for s in sl)
    near = slice(y0, y1), slice(x0, x1)
    inner = slice(sl[0].start - y0, sl[0].stop - y0), slice(sl[1].start - x0, sl[1].stop - x0)
    y = ink[sl][core].astype(np.float64)
    fits = []
    for blur in (0, *ICON.blurs):
        blank = cv2.GaussianBlur(plain[near], (0, 0), blur) if blur else plain[near]
        x = blank[inner][core].astype(np.float64)
        keep = np.ones(x.size, bool)
        for _ in range(2):
            a, b = _line(np, x[keep], y[keep])
            res = y - (a + b * x)
            spread = max(float(np.median(np.abs(res))), 0.002)
            keep = res < ICON.mark * spread
        fits.append((spread, a, b, blank))
    best = min(fits, key=lambda f: f[0])
    return best[0], [fits[0][1:], best[1:]], near


def _line(np, x, y) -> tuple:
    """(a, b): the least-squares line y = a + b x (b = 0 where x does not vary)."""
    mx, my = float(x.mean()), float(y.mean())
    vx = float(((x - mx) ** 2).mean())
    b = float(((x - mx) * (y - my)).mean()) / vx if vx > 1e-8 else 0.0
    return my - b * mx, b


def seen_print(cv2, np, plain, printed, light, fit, spread: float, page_lines: list | tuple = ()):
    """The print of a box's window as the photo shows it, grown 2 px (as `printed`, the
    blank page's darkness `plain` grown, to take from the photo's): its light print
    (`light`) as the photo shows it (`fit`, see `icon_fit`: the darker of its two lines,
    the blank page's blurred one fitting a blurred photo's icon, its sharp one the icon's
    outline on a sharp photo), `spread` over that (the photo's own spread: see
    `sight.see`), never darker than on the blank page, or than the page's `page_lines`
    say (the median lines of its boxes' fits, where they show the icons darker: a fill
    in one box is not taken for its icon). A photo that shows an icon
    lighter than the blank page does hides a light stroke drawn over it, were the blank
    page's icon taken from it. (Grown, the print covers a blurred photo's icon spreading
    beyond its edges, as the blank page's does.)"""
    if fit is None:
        return printed
    _, lines, near = fit
    seen = np.maximum.reduce([a + b * blank for a, b, blank in lines])
    most = np.maximum.reduce([plain[near], *(a + b * plain[near] for a, b in page_lines)])
    seen = np.where(light[near], np.clip(seen + spread, 0.0, most), plain[near])
    # grown as `printed` is, over `near` and 2 px round it (the blank page's print there)
    (y0, y1), (x0, x1) = ((max(0, s.start - 2), min(n, s.stop + 2)) for s, n in zip(near, plain.shape, strict=True))
    part = plain[y0:y1, x0:x1].copy()
    oy, ox = near[0].start - y0, near[1].start - x0
    part[oy : oy + seen.shape[0], ox : ox + seen.shape[1]] = seen
    out = printed.copy()
    out[near] = print_halo(cv2, np, part)[oy : oy + seen.shape[0], ox : ox + seen.shape[1]]
    return out


def print_halo(cv2, np, plain):
    """The print's darkness (`plain`, 0-1) grown 2 px every way: where a photo's print may
    show, a little off or blurred (`sight.Sight.printed`, and an icon as the photo shows it)."""
    return cv2.dilate(plain, np.ones((5, 5), np.uint8))


def looks_printed(np, ink, on, off) -> bool:
    """Whether a box's ink (a mask of its inside) is its print looking darker than on the
    blank page (a coloured glyph, sharpened) rather than a mark: it covers `Print.covered` of
    what is printed there (`on`), and the paper around (`off`) `Print.beside` times less."""
    if not on.any():
        return False
    over = (ink & on).sum() / on.sum()
    beside = (ink & off).sum() / max(int(off.sum()), 1)
    return bool(over >= PRINT.covered and beside < over / PRINT.beside)


def box_shift(cv2, np, ink, printed, box) -> tuple:
    """(dx, dy) px: where a box's print is in the photo (`ink`, padded by `Shift.px` on
    every side) against the blank page (`printed`), within `Shift.px`: the page is moved
    onto the blank one tile at a time (`align`), which can leave a box near the edge of
    the page or of a curl a little off, and its printed icon or text then reads as ink.
    No shift unless the box's print (its border and what is printed in it, 1 mm around)
    clearly matches better elsewhere."""
    x0, y0 = max(0, round((box.x - 1) * PPMM)), max(0, round((box.y - 1) * PPMM))
    x1, y1 = round((box.x + box.w + 1) * PPMM), round((box.y + box.h + 1) * PPMM)
    tpl = printed[y0:y1, x0:x1]
    if tpl.size == 0 or tpl.std() < SHIFT.plain:
        return 0, 0
    area = ink[y0 : y1 + 2 * SHIFT.px, x0 : x1 + 2 * SHIFT.px]
    if area.shape[0] < tpl.shape[0] or area.shape[1] < tpl.shape[1]:
        return 0, 0
    res = cv2.matchTemplate(area, tpl, cv2.TM_CCOEFF_NORMED)
    _, peak, _, (px, py) = cv2.minMaxLoc(res)
    if peak < SHIFT.match or peak < res[SHIFT.px, SHIFT.px] + SHIFT.clearer:
        return 0, 0
    return px - SHIFT.px, py - SHIFT.px


def align(cv2, np, around, blank):
    """The rectified photo moved onto the blank page piece by piece (see `tuning.Align`): each
    square of the blank page that holds print is matched in the photo within `Align.reach`
    (normalised cross-correlation, at half resolution, the peak refined to a
    fraction of a pixel); a shift is kept only when the match is clear and inside the
    reach. The shifts, without those far from their neighbours' (`_outliers`: a wrong
    match), filled in from their neighbours where a square holds no print, and
    median-filtered, make a smooth field the photo is remapped by. `around`: the
    rectified photo with `Align.reach` of what lies around the page (`warp`), so that a
    square at the page's edge is looked for on both sides too; the page returned is the
    blank page's size."""
    H, W = blank.shape[:2]
    m = (around.shape[0] - H) // 2  # the margin around the page, px
    half = cv2.resize(cv2.cvtColor(around, cv2.COLOR_RGB2GRAY), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    plain = cv2.resize(blank, (round(W / 2), round(H / 2)), interpolation=cv2.INTER_AREA)
    t, r, e = round(ALIGN.tile * PPMM / 2), round(ALIGN.reach * PPMM / 2), m // 2
    rows, cols = plain.shape[0] // t, plain.shape[1] // t
    shift = np.full((rows, cols, 2), np.nan, np.float32)
    for i in range(rows):
        for j in range(cols):
            y0, x0 = i * t, j * t
            tpl = plain[y0 : y0 + t, x0 : x0 + t]
            if tpl.std() < ALIGN.plain:  # plain paper, nothing to match
                continue
            wy, wx = max(0, y0 + e - r), max(0, x0 + e - r)  # the window, in `half`
            res = cv2.matchTemplate(half[wy : y0 + e + t + r, wx : x0 + e + t + r], tpl, cv2.TM_CCOEFF_NORMED)
            _, peak, _, (px, py) = cv2.minMaxLoc(res)
            at = (x0 + e - wx, y0 + e - wy)  # where the page says the square is, in `res`
            if peak < res[at[1], at[0]] + ALIGN.clearer:  # as good where the page says (a band): kept there
                px, py = at
            if peak < ALIGN.match or not (0 < px < res.shape[1] - 1 and 0 < py < res.shape[0] - 1):
                continue
            shift[i, j] = (
                px + _vertex(res[py, px - 1 : px + 2]) - at[0],
                py + _vertex(res[py - 1 : py + 2, px]) - at[1],
            )
    if np.isnan(shift).all():
        return around[m : m + H, m : m + W]
    shift = _fill(cv2, np, _outliers(np, shift, ALIGN.odd * PPMM / 2))
    shift = cv2.medianBlur(shift, 3) if rows >= 3 and cols >= 3 else shift
    # the shifts hold at the squares' centres, in half-resolution pixels
    field = cv2.resize(shift * 2, (cols * t * 2, rows * t * 2), interpolation=cv2.INTER_LINEAR)
    field = cv2.copyMakeBorder(
        field, 0, max(0, H - field.shape[0]), 0, max(0, W - field.shape[1]), cv2.BORDER_REPLICATE
    )
    field = field[:H, :W]
    field[..., 0] += np.arange(m, m + W, dtype=np.float32)[None, :]
    field[..., 1] += np.arange(m, m + H, dtype=np.float32)[:, None]
    return cv2.remap(around, field, None, cv2.INTER_LINEAR, borderValue=(255, 255, 255))


def _outliers(np, shift, limit: float):
    """The shifts (NaN where unknown) without those `limit` or more from the median of
    their known neighbours (`Align.neighbours` at least; among the next ring of squares too
    where the nearest hold fewer): a square matched a period off on a board of like cells,
    or along a line of text. Dropped before the gaps are filled, as the gaps are filled
    from the neighbours: a wrong match among squares with nothing to match (a board's
    blurred cells) would spread its shift over them, and move a board's columns off their
    boxes."""
    rows, cols = shift.shape[:2]
    out = shift.copy()
    for i in range(rows):
        for j in range(cols):
            if np.isnan(shift[i, j, 0]):
                continue
            for ring in (1, 2):
                known = [
                    shift[y, x]
                    for y in range(max(0, i - ring), min(rows, i + ring + 1))
                    for x in range(max(0, j - ring), min(cols, j + ring + 1))
                    if (y, x) != (i, j) and not np.isnan(shift[y, x, 0])
                ]
                if len(known) >= ALIGN.neighbours:
                    break
            else:
                continue
            middle = np.median(np.array(known), axis=0)
            if float(np.hypot(*(shift[i, j] - middle))) >= limit:
                out[i, j] = np.nan
    return out


def _vertex(three) -> float:
    """Where the parabola through three values peaks, from the middle one (-0.5 to 0.5)."""
    a, b, c = (float(v) for v in three)
    d = a - 2 * b + c
    return 0.0 if d >= 0 else max(-0.5, min(0.5, (a - c) / (2 * d)))


def _fill(cv2, np, shift):
    """Missing shifts (NaN) from the mean of their known neighbours, growing outwards;
    none at all known: no shift (0)."""
    if np.isnan(shift[..., 0]).all():
        return np.zeros_like(shift)
    shift = shift.copy()
    while np.isnan(shift[..., 0]).any():
        known = (~np.isnan(shift[..., 0])).astype(np.float32)
        total = cv2.boxFilter(np.nan_to_num(shift), -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
        count = cv2.boxFilter(known, -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
        grow = (known == 0) & (count > 0)
        shift[grow] = total[grow] / count[grow][:, None]
    return shift
