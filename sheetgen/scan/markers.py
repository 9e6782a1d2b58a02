"""The sheet's four scan marks (ArUco corners: sheetgen.layout.scanmarks) in a photo, at any
rotation, blurred, small or partly hidden; the sheets of a photo that holds several; the
homography that maps a photo onto its page in millimetres, and the page warped by it.
"""

from __future__ import annotations

import itertools

from sheetgen.errors import RecordError
from sheetgen.layout import scanmarks
from sheetgen.scan.blank import PPMM
from sheetgen.scan.photos import Photo, need_cv
from sheetgen.scan.tuning import BY_PRINT, MARKERS

CORNERS = ("top left", "top right", "bottom right", "bottom left")


class Unreadable(RecordError):
    """A sheet's QR code that no decoder reads (`recognise` may still know the page)."""


def _aruco(cv2):
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # small markers (1 mm cells), blurred: their bits read tolerantly (see `tuning.Markers`)
    params.minMarkerPerimeterRate = MARKERS.perimeter
    params.perspectiveRemovePixelPerCell = MARKERS.cell_px
    params.maxErroneousBitsInBorderRate = MARKERS.border_bits
    params.errorCorrectionRate = MARKERS.correction
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _detect(detector, gray, scale: float, found: dict, wanted=range(4), shift=(0.0, 0.0)) -> None:
    """Add the `wanted` markers seen in `gray` (a piece of the photo `scale` times its
    size, whose top-left is `shift` in the photo) to `found`, in photo pixels."""
    corners, ids, _ = detector.detectMarkers(gray)
    for c, i in zip(corners, [] if ids is None else ids.flatten()):
        if int(i) in wanted and int(i) not in found:
            found[int(i)] = c.reshape(4, 2) / scale + shift


def detect_all(detector, gray, scale: float, seen: dict) -> None:
    """Add every scan marker seen in `gray` (the photo `scale` times its size) to `seen`
    (marker id -> a list of its corners, in photo pixels): a photo may hold several
    sheets (printed two or four a page). A marker already in the list (its centre
    within half a marker of one there, found again on the photo enlarged) is not added."""
    corners, ids, _ = detector.detectMarkers(gray)
    for c, i in zip(corners, [] if ids is None else ids.flatten()):
        if int(i) not in seen:
            continue
        quad = c.reshape(4, 2) / scale
        side = float(((quad[0] - quad[2]) ** 2).sum() ** 0.5) / 1.414
        if all(float(((q.mean(axis=0) - quad.mean(axis=0)) ** 2).sum() ** 0.5) > side / 2 for q in seen[int(i)]):
            seen[int(i)].append(quad)


def _look_closer(cv2, np, detector, gray, found: dict) -> None:
    """The markers the first look missed, searched for again where the ones found say
    they are: that piece of the photo enlarged (about 8 pixels a marker cell), where
    a small or blurred marker is read much more readily."""
    src = np.float32([c for n in sorted(found) for c in found[n]])
    s, where = scanmarks.MARKER, scanmarks.marker_corners(MARKERS.sheet_width, MARKERS.sheet_height)
    square = [(0, 0), (s, 0), (s, s), (0, s)]
    dst = np.float32([(where[n][0] + dx, where[n][1] + dy) for n in sorted(found) for dx, dy in square])
    h, _ = cv2.findHomography(dst, src)
    if h is None:
        return
    for n in [n for n in range(4) if n not in found]:
        x, y = where[n]
        centre = cv2.perspectiveTransform(np.float32([[[x + s / 2, y + s / 2]]]), h)[0, 0]
        want = cv2.perspectiveTransform(np.float32([[(x + dx, y + dy) for dx, dy in square]]), h)[0]
        # the marker's side in pixels where the others say it is: a tilted photo's far
        # corner shows it smaller than the others
        side = float(np.linalg.norm(want[0] - want[2])) / 1.414
        half = (4 + MARKERS.reach) * side
        x0, y0 = (max(0, int(v - half)) for v in centre)
        piece = gray[y0 : int(centre[1] + half), x0 : int(centre[0] + half)]
        if piece.size == 0:
            continue
        zoom = min(MARKERS.zoom_most, MARKERS.zoom_side / max(side, 1.0))
        big = cv2.resize(piece, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        seen: dict = {}
        _detect(detector, big, zoom, seen, (n,), (x0, y0))
        # taken only where the others say, and about their size: never a stray square
        if n in seen and np.linalg.norm(seen[n].mean(axis=0) - centre) < side:
            if MARKERS.size_least < np.linalg.norm(seen[n][0] - seen[n][2]) / 1.414 / side < MARKERS.size_most:
                found[n] = seen[n]
        if n not in found:
            square_at = _dark_square(cv2, np, big, (want - (x0, y0)) * zoom, side * zoom, n, len(found) == 3)
            if square_at is not None:
                found[n] = square_at / zoom + (x0, y0)


def _dark_square(cv2, np, piece, want, side: float, n: int, near_enough: bool = True):
    """The corners (in the order of `want`) of a dark square in `piece` (grey) of the shape
    `want`'s corners say (each corner within `Markers.corner` of the side once moved there),
    the size and the slant they say: scan marker `n` too small or blurred for the detector to
    read, where the others say it is. Taken within `Markers.near` of its `side` of where they
    say when `near_enough` (three markers found fix the perspective to a cell or two; a finger,
    a shadow or a stray stroke is no such square, and nothing else is printed near a marker),
    or up to `Markers.reach` sides off when its cells are marker `n`'s (see `_marker_cells`):
    two markers, or three blurred ones, fix the perspective only roughly (a low-resolution
    photo's can be sides off). None if there is none."""
    _, dark = cv2.threshold(cv2.GaussianBlur(piece, (3, 3), 0), 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    # a white line across it (an inkjet's clogged nozzle) is bridged: a tenth of its side
    gap = max(3, round(side / 10)) | 1
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((gap, gap), np.uint8))
    contours, _ = cv2.findContours(dark, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        if not MARKERS.area_least * side**2 < cv2.contourArea(contour) < MARKERS.area_most * side**2:
            continue
        quad = cv2.approxPolyDP(contour, MARKERS.outline * cv2.arcLength(contour, True), True).reshape(-1, 2)
        if len(quad) != 4 or not cv2.isContourConvex(quad):
            continue
        off = quad.mean(axis=0) - want.mean(axis=0)
        if np.linalg.norm(off) > MARKERS.reach * side:
            continue
        moved = want + off
        near = [int(np.argmin(np.linalg.norm(quad - corner, axis=1))) for corner in moved]
        corners = quad[near].astype(np.float32)
        if len(set(near)) < 4 or np.linalg.norm(corners - moved, axis=1).max() >= side * MARKERS.corner:
            continue
        if near_enough and np.linalg.norm(off) <= side * MARKERS.near or _marker_cells(cv2, np, piece, corners, n):
            return corners
    return None


def _marker_cells(cv2, np, piece, corners, n: int) -> bool:
    """Whether the square with these `corners` in `piece` (grey; the marker's top left
    first, clockwise) carries scan marker `n`: the greys in the middle of its 4 x 4 inner
    cells correlate with marker n's bits upright over `Markers.cells`, better than with any
    other scan marker's, any way round (a blurred marker's cells still show)."""
    flat = cv2.warpPerspective(
        piece, cv2.getPerspectiveTransform(corners, np.float32([(0, 0), (60, 0), (60, 60), (0, 60)])), (60, 60)
    )
    greys = np.float32(
        [[flat[10 * r + 3 : 10 * r + 7, 10 * c + 3 : 10 * c + 7].mean() for c in range(1, 5)] for r in range(1, 5)]
    )
    if greys.std() < MARKERS.plain:
        return False
    markers = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    fits = {}
    for k in range(4):
        bits = markers.generateImageMarker(k, 6)[1:5, 1:5].astype(np.float32)
        for turn in range(4):
            fits[k, turn] = float(np.corrcoef(greys.ravel(), np.rot90(bits, turn).ravel())[0, 1])
    best = max(fits, key=fits.get)
    return best == (n, 0) and fits[best] >= MARKERS.cells


def find_markers(photo: Photo) -> dict:
    """{marker id: its 4 corners in photo pixels} of the four scan markers of the photo's
    (first) sheet, or a RecordError."""
    return find_sheets(photo)[0][0]


def find_sheets(photo: Photo) -> tuple[list[dict], str]:
    """The scan markers ({marker id: its 4 corners in photo pixels}) of every sheet in a
    photo, in reading order (see `_sheets`), and a note when marks of a sheet that is not
    whole are seen too (that sheet is not read); or a RecordError."""
    cv2, np = need_cv()
    gray = cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2GRAY)
    scale = min(1.0, MARKERS.max_side / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    detector = _aruco(cv2)
    seen: dict = {n: [] for n in range(4)}
    detect_all(detector, small, scale, seen)
    # markers too small or blurred to be read (a low-resolution photo): the photo enlarged,
    # each enlargement adding the markers it reads (each reads some others miss), while
    # some sheet's markers are missing
    for zoom in MARKERS.zooms:
        if len({len(v) for v in seen.values()} - {0}) == 1 and all(seen.values()):
            break
        if max(small.shape) * zoom > MARKERS.max_zoomed:
            break
        detect_all(
            detector, cv2.resize(small, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC), scale * zoom, seen
        )
    if max(len(v) for v in seen.values()) > 1:
        sheets, left = _sheets(cv2, np, seen)
        if not sheets:
            raise RecordError(
                f"{photo.name}: scan marks of several sheets are seen, but no sheet's four: photograph each sheet whole"
            )
        note = (
            f"{photo.name}: {left} scan mark{'s' if left > 1 else ''} of another sheet seen, but not all "
            "four: that sheet is not read; photograph it whole"
            if left
            else ""
        )
        return sheets, note
    found = {n: v[0] for n, v in seen.items() if v}
    if 2 <= len(found) < 4:
        _look_closer(cv2, np, detector, gray, found)
    if not found:
        raise RecordError(f"{photo.name}: no scan marks found: this is not a sheetgen sheet, or too blurred or small")
    missing = [n for n in range(4) if n not in found]
    if missing:
        where = ", ".join(CORNERS[n] for n in missing)
        raise RecordError(
            f"{photo.name}: the scan mark{'s' if len(missing) > 1 else ''} in the {where} "
            f"corner{'s' if len(missing) > 1 else ''} cannot be seen (covered, in shadow or out of the picture); "
            "photograph the whole sheet"
        )
    return [found], ""


def _sheets(cv2, np, seen: dict) -> tuple[list[dict], int]:
    """The sheets that the markers `seen` (id -> a list of corners) make, in reading
    order, and how many markers are left over. A sheet is one marker of each id whose
    centres, mapped onto the usual sheet's, leave each marker a MARKER-mm square where the
    sheet prints it, upright, to `Markers.group` of its side: four markers taken from two sheets
    make a sheet twice as wide or high, whose markers map to half their size. The best
    fitting sheets are taken first, each marker in one sheet only. Reading order: the
    sheets' rows as the first sheet is upright, top to bottom, each left to right (the
    order `render --per-page` fills a page)."""
    s, where = scanmarks.MARKER, scanmarks.marker_corners(MARKERS.sheet_width, MARKERS.sheet_height)
    centres = np.float32([(x + s / 2, y + s / 2) for x, y in where])
    square = np.float32([(0, 0), (s, 0), (s, s), (0, s)])
    fits = []
    for combo in itertools.product(*(range(len(seen[n])) for n in range(4))):
        quads = [seen[n][i].astype(np.float32) for n, i in enumerate(combo)]
        h = cv2.getPerspectiveTransform(np.float32([q.mean(axis=0) for q in quads]), centres)
        off = max(
            float(np.abs(cv2.perspectiveTransform(q.reshape(1, 4, 2), h)[0] - square - where[n]).max())
            for n, q in enumerate(quads)
        )
        fits.append((off / s, combo, h))
    sheets, used = [], set()
    for off, combo, h in sorted(fits, key=lambda t: t[0]):
        if off > MARKERS.group:
            break
        if not used.isdisjoint(enumerate(combo)):
            continue
        used.update(enumerate(combo))
        sheets.append(({n: seen[n][i] for n, i in enumerate(combo)}, h))
    if not sheets:
        return [], 0
    first = sheets[0][1]  # photo pixels -> the first sheet's millimetres: its rows and columns
    at = [
        cv2.perspectiveTransform(np.float32([[m.mean(axis=0) for m in markers.values()]]), first)[0].mean(axis=0)
        for markers, _ in sheets
    ]
    rows: list = []
    for k in sorted(range(len(sheets)), key=lambda k: at[k][1]):
        if rows and at[k][1] - at[rows[-1][0]][1] < MARKERS.sheet_height / 2:
            rows[-1].append(k)
        else:
            rows.append([k])
    order = [k for row in rows for k in sorted(row, key=lambda k: at[k][0])]
    left = sum(len(v) for v in seen.values()) - 4 * len(sheets)
    return [sheets[k][0] for k in order], left


def homography(markers: dict, width: float, height: float):
    """The 3x3 map from photo pixels to rectified-page pixels (PPMM a mm)."""
    cv2, np = need_cv()
    src, dst = [], []
    s = scanmarks.MARKER
    for n, (x, y) in enumerate(scanmarks.marker_corners(width, height)):
        src += list(markers[n])
        dst += [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
    h, _ = cv2.findHomography(np.float32(src), np.float32(dst) * PPMM)
    if h is None:
        raise RecordError("the scan marks do not make a sheet")
    return h


def warp(photo: Photo, h, width: float, height: float, margin: float = 0.0):
    """The photo mapped onto the page (`h`: photo to page pixels), with `margin` mm of
    what lies around the page on every side."""
    cv2, np = need_cv()
    m = round(margin * PPMM)
    size = (round(width * PPMM) + 2 * m, round(height * PPMM) + 2 * m)
    h = np.array([[1, 0, m], [0, 1, m], [0, 0, 1]], np.float64) @ h
    return cv2.warpPerspective(photo.rgb, h, size, flags=cv2.INTER_AREA, borderValue=(255, 255, 255))


def better_match(cv2, np, photo, a, b) -> float:
    """How much better a photo (`thumbnail`) matches page `a` than page `b` (both `thumbnail`)
    where their print differs: on the print one page has and the other has nothing of
    within `ByPrint.unique` mm, how far the photo's darkness (over its paper nearby) is from each
    page's (scaled by how dark the photo shows the print), as (off b - off a) / (off a +
    off b): 1 when the photo is page `a` there, -1 when it is `b`. A box moved by a
    millimetre from one page to the other is no difference: the photo, mapped by its
    scan marks only, can be that far off."""
    small = PPMM / 4  # pixels per mm of the small pages
    near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(BY_PRINT.unique * small) + 1,) * 2)
    dark = 255 * (1 - BY_PRINT.printed)
    ink_a, ink_b = (a < dark).astype(np.uint8), (b < dark).astype(np.uint8)
    only = ((ink_a & (1 - cv2.dilate(ink_b, near))) | (ink_b & (1 - cv2.dilate(ink_a, near)))).astype(bool)
    if not only.any():
        return 0.0
    reach = 2 * round(2.5 * small) + 1
    paper = cv2.dilate(photo, np.ones((reach, reach), np.uint8))  # the brightest within 2.5 mm
    seen = np.clip(1.0 - photo / np.maximum(paper, 1.0), 0.0, 1.0)

    def off(page) -> float:
        dark = 1.0 - page / 255.0
        gain = float((seen * dark).sum() / max(float((dark * dark).sum()), 1e-9))
        return float(np.abs(seen - gain * dark)[only].mean())

    off_a, off_b = off(a), off(b)
    return (off_b - off_a) / max(off_a + off_b, 1e-9)


def thumbnail(cv2, np, gray):
    """A page's grey levels at a quarter of PPMM, smoothed: what `recognise` compares."""
    small = cv2.resize(gray, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), 1.0).astype(np.float32)
