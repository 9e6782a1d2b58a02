"""Which ink round a number box is the box's own writing, and which its neighbours': a stroke
is the box's when most of its ink lies in it; a stroke crossing a printed line (the box's
border) is one stroke, joined through the print; a neighbour's digit touching the border
where the box's writing crosses it is the neighbour's all the same (`foreign`), and writing
run through the box, whose it is cannot be told, leaves the box to type (`owned`).
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM
from sheetgen.scan.tuning import WRITING


def owned(cv2, np, ink, printed, inside, halo, box: tuple, side: tuple):
    """(the ink's strokes joined through the print: labels, ink of each, the box's kept), or
    why the box is left to type: `ink` (uint8) the ink round the box, `printed` the print,
    `inside` the box, `halo` the printed lines' halo, `box` its edges (x0, y0, x1, y1) and
    `side` its width and height (px)."""
    far, cut = foreign(cv2, np, ink, printed, inside, halo, box, side)
    own_ink = ink & ~(far | cut)
    grown = cv2.dilate(own_ink, np.ones((2 * WRITING.print_grow + 3,) * 2, np.uint8))
    n, labels = cv2.connectedComponents(own_ink | (grown & printed), connectivity=8)
    inked = ink > 0
    ink_of = np.bincount(labels[inked], minlength=n)
    in_box = np.bincount(labels[inked & inside], minlength=n)
    on_print = np.bincount(labels[inked & halo], minlength=n)
    speck = WRITING.speck * PPMM * PPMM
    # most of its ink in the box (one running over from the next box is the next box's), and
    # not all along the print (the print's own halo)
    mine = [k for k in range(1, n) if ink_of[k] >= speck and in_box[k] >= WRITING.own * ink_of[k]]
    keep = [k for k in mine if on_print[k] < WRITING.hug * ink_of[k]]
    if run_through(cv2, np, labels, inked, inside, ink_of, in_box, [k for k in range(1, n) if k not in mine]):
        return "ink running through from another box"
    if far.any():  # (the neighbours' digits, each judged as a stroke of its own)
        f_n, f_labels = cv2.connectedComponents(far.astype(np.uint8), connectivity=8)
        f_of, f_in = np.bincount(f_labels.ravel(), minlength=f_n), np.bincount(f_labels[inside], minlength=f_n)
        if run_through(cv2, np, f_labels, far, inside, f_of, f_in, range(1, f_n)):
            return "ink running through from another box"
    if len(keep) < len(mine):  # (a stroke along a border, or the border shown thicker: cannot tell)
        return "ink along the print"
    if not keep and (cut & inside).sum() >= speck:  # (a neighbour's stroke alone: the box's number may be under it)
        return "only another box's stroke in it"
    return labels, ink_of, keep


def foreign(cv2, np, ink, printed, inside, halo, box: tuple, side: tuple) -> tuple:
    """(the neighbours' digits, the pieces they leave in the box) as masks: the ink's pieces
    (the ink alone, not joined through the print) mostly out of the box, not all along the
    print (`halo`: a printed line shown thicker), and reaching further from it than
    `WRITING.tail` of its side (the box's own writing run over its border ends close to it;
    a neighbour's digit fills the neighbour's box); and the pieces such a digit's stroke
    leaves on the box's side of the line it crosses: joined to it through the print, and no
    further from that line than `tail` of the box's smaller side."""
    none = np.zeros(ink.shape, bool)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    of = np.bincount(labels.ravel(), minlength=n)
    in_box = np.bincount(labels[inside], minlength=n)
    on_print = np.bincount(labels[halo], minlength=n)
    x0, y0, x1, y1 = box
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    # how far each piece reaches out of the box past each edge (right, left, below, above),
    # of the box's side it crosses
    out = np.array([(right - x1) / side[0], (x0 - left) / side[0], (bottom - y1) / side[1], (y0 - top) / side[1]])
    far = [
        k
        for k in range(1, n)
        if in_box[k] < WRITING.own * of[k] and out[:, k].max() > WRITING.tail and on_print[k] < WRITING.hug * of[k]
    ]
    if not far:
        return none, none
    grown = cv2.dilate(ink, np.ones((2 * WRITING.print_grow + 3,) * 2, np.uint8))
    _, joined = cv2.connectedComponents(ink | (grown & printed), connectivity=8)
    # each piece within `tail` of the box's smaller side of its right, left, bottom or top edge
    t = WRITING.tail * min(side)
    by_edge = (left >= x1 - t, right <= x0 + t, top >= y1 - t, bottom <= y0 + t)
    cut: set = set()
    for k in far:
        chain = np.unique(joined[labels == k])
        near = np.unique(labels[np.isin(joined, chain) & (labels > 0)])
        edge = int(np.argmax(out[:, k]))
        cut.update(int(j) for j in near if j not in far and by_edge[edge][j])
    inked = ink > 0
    return np.isin(labels, far) & inked, np.isin(labels, sorted(cut)) & inked


def run_through(cv2, np, labels, ink, inside, ink_of, in_box, others) -> bool:
    """Whether a stroke not the box's (`others`) runs into it: mostly elsewhere but well into
    the box (writing too large for its box, run through it: which box's number it is cannot
    be told), or so little of a long chain of writing that the share says nothing, but deep
    in the box (past its border's halo: the box may hold a number of its own under it)."""
    deep = cv2.erode(inside.astype(np.uint8), np.ones((2 * (WRITING.halo + WRITING.print_grow) + 1,) * 2, np.uint8))
    in_deep = np.bincount(labels[ink & (deep > 0)], minlength=len(ink_of))
    speck, through = WRITING.speck * PPMM * PPMM, WRITING.through * PPMM * PPMM
    return any(
        ink_of[k] >= speck and (in_box[k] >= WRITING.across * ink_of[k] or in_deep[k] >= through) for k in others
    )
