"""Where a box's writing meets print too dark to see a pen stroke over (a table's black
frame; for a light pencil, the grey lines too): whether it only runs through the printed
lines it touches (`runs_through`). A stroke that runs through a line shows on both sides of
it, so the line hides no more of it than its own width; a stroke that ends in a line, or
runs along it, may hide there what tells one digit from another (a 2's base along the
border leaves a 7, a 7's bar a 1).
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM
from sheetgen.scan.tuning import WRITING


def runs_through(cv2, np, mask, hides) -> bool:
    """Whether the writing (`mask`) touches the print that hides a stroke (`hides`) only
    where it runs through a straight printed line: along each line it touches, its ink
    next to one side of the line lies over the same stretch as its ink next to the other
    (within a stroke's reach), and it touches no other print (an icon, a caption)."""
    reach = WRITING.print_grow + 1  # (as `touches` measures: the writing grown this much)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((2 * reach + 1,) * 2, np.uint8)) > 0
    touched = near & hides
    if not touched.any():
        return True
    across, down = straight(cv2, np, hides)
    if (touched & ~(across | down)).any():
        return False
    return _through(cv2, np, mask, across, touched, reach) and _through(cv2, np, mask.T, down.T, touched.T, reach)


def straight(cv2, np, printed) -> tuple:
    """(the lines across, the lines down) of the print (`printed`, a mask): its runs
    `WRITING.line` long and straight (a box's border, a table's rule; no caption), as masks."""
    long = round(WRITING.line * PPMM)
    drawn = printed.astype(np.uint8)
    across = cv2.morphologyEx(drawn, cv2.MORPH_OPEN, np.ones((1, long), np.uint8)) > 0
    down = cv2.morphologyEx(drawn, cv2.MORPH_OPEN, np.ones((long, 1), np.uint8)) > 0
    return across, down


def _through(cv2, np, mask, lines, touched, reach: int) -> bool:
    """`runs_through` for the lines that run across (`lines`: each a band of rows): each
    stretch of the band the writing touches from above is matched by one it touches from
    below, and the other way round."""
    _, labels = cv2.connectedComponents(lines.astype(np.uint8), connectivity=8)
    for k in set(np.unique(labels[touched & lines]).tolist()) - {0}:
        band = labels == k
        cols = np.nonzero(band.any(axis=0))[0]
        top = band[:, cols].argmax(axis=0)
        bottom = band.shape[0] - 1 - band[::-1, cols].argmax(axis=0)
        above = _runs(np, cols, [mask[max(0, t - reach) : t, c].any() for c, t in zip(cols, top)])
        below = _runs(np, cols, [mask[b + 1 : b + 1 + reach, c].any() for c, b in zip(cols, bottom)])
        # a stroke through the line at a slant shows on its far side shifted along it by up to
        # twice the line's width (at 27 degrees to it, or steeper)
        wide = int(np.median(bottom - top)) + 1
        if not _paired(above, below, 2 * wide + reach, wide + 2 * reach):
            return False
    return True


def _runs(np, cols, flags) -> list:
    """The stretches (first, last column) where `flags` hold, along the line's columns."""
    flags = np.asarray(flags, bool)
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return [(int(cols[a]), int(cols[b - 1])) for a, b in zip(np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0])]


def _paired(above: list, below: list, shift: int, longer: int) -> bool:
    """Whether every stretch on each side has one on the other side as long (within
    `longer`) and shifted along the line by at most `shift`: one stroke through the line."""

    def matched(a, b) -> bool:
        return abs((a[1] - a[0]) - (b[1] - b[0])) <= longer and abs((a[0] + a[1]) - (b[0] + b[1])) <= 2 * shift

    return all(any(matched(a, b) for b in below) for a in above) and all(
        any(matched(b, a) for a in above) for b in below
    )
