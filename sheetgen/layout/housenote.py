"""The house note: the line that says what the house mark (HOUSE_MARK) means, on a page
that prints a house value. It goes in the lowest free place of the sheet, or of the frame
`house_note_in` names: what each element covers (`taken_by`), and the free strip found
among them (`free_strip`).
"""

from __future__ import annotations

from sheetgen.layout import elements as E
from sheetgen.layout.display import HOUSE_MARK, Text

# what the house mark means, said for the players at the table
HOUSE_NOTE = {
    "fr": f"{HOUSE_MARK} valeur maison\u00a0: la règle ne la fixe pas",
    "en": f"{HOUSE_MARK} house value: the rules leave it open",
}


NOTE_SIZE = 7.5  # pt: the house note's font size (pdfminer measures 7.0 as 6.999999999999993 at places)
NOTE_H = 3.2  # mm: the height of its line
NOTE_FONT = "condensed"
NOTE_COLOR = "#555555"
NOTE_PAD = 1.1  # mm: the least room between the house note and anything else (its text 1 mm from any line)


def taken_by(el: dict, prims: list) -> tuple:
    """(x, y, w, h, body) of what an element covers: its place, or less when its type says
    (`covers`: a text element only its lines of text as fitted); a frame its rectangle with
    `body` = (top, bottom) of its inside, which is free."""
    kind = E.TYPES[el["type"]]
    covered = kind.covers(el, prims) if kind.covers is not None else None
    if covered is not None:
        return (*covered, None)
    body = None
    if kind.container:
        body = (el["y"] + (el["header"] if el.get("title") else 0), el["y"] + el["h"])
    return el["x"], el["y"], el["w"], el["h"], body


def free_strip(
    taken: list, width: float, height: float, need: float, h: float, within: tuple | None = None
) -> tuple | None:
    """(x, y, w) of the lowest place `need` x `h` mm on the sheet (or `within` the rectangle
    x0, y0, x1, y1: a frame's inside) that overlaps nothing `taken` (see taken_by; inside a
    frame is free), rightmost first; None if there is none. The place keeps NOTE_PAD from
    everything, so that the note's text is that far from any line."""
    pad = NOTE_PAD
    x0, top, x1, bottom = within or (0.0, 0.0, width, height)
    y = bottom - h - (pad if within else 0.0)
    while y >= top + (pad if within else 0.0) - 1e-9:
        blocked = []
        for ex, ey, ew, eh, body in taken:
            if y >= ey + eh + pad or y + h <= ey - pad:
                continue
            if body is not None and y >= body[0] + pad and y + h <= body[1] - pad:  # inside: only the borders
                blocked += [(ex - pad, ex + 1.5), (ex + ew - 1.5, ex + ew + pad)]
                continue
            blocked.append((ex - pad, ex + ew + pad))
        if within:  # the frame's own borders
            blocked += [(x0 - pad, x0 + 1.5), (x1 - 1.5, x1 + pad)]
        gaps, x = [], x0
        for a, b in sorted(blocked):
            if a > x:
                gaps.append((x, a))
            x = max(x, b)
        gaps.append((x, x1))
        for a, b in reversed(gaps):
            if b - a >= need:
                return b - need, y, need
        y = round(y - 0.5, 3)
    return None


def note_width(text: str, size: float) -> float:
    """mm: the house note's width on one line, at `size` pt."""
    from sheetgen import text as fonts

    return fonts.width(text, NOTE_FONT, size) * 25.4 / 72 + 1.0


def note_prims(
    text: str, size: float, line_h: float, frame: dict | None, taken: list, width: float, height: float
) -> list | None:
    """The house note `text` at `size` pt (lines `line_h` mm high) where it overlaps nothing
    `taken`: one line in the lowest free strip (of `frame`, else of the `width` x `height`
    sheet), else two or three lines in a narrower place; None when there is no room."""
    from sheetgen import text as fonts

    one = note_width(text, size)
    within = None
    if frame is not None:
        top = frame["y"] + (frame["header"] if frame.get("title") else 0)
        within = (frame["x"], top, frame["x"] + frame["w"], frame["y"] + frame["h"])
    best = None
    for lines in (1, 2, 3):
        w = one if lines == 1 else one / lines + 12.0
        h = line_h * lines
        fit = fonts.fit_text(text, NOTE_FONT, size, w * 72 / 25.4, h * 72 / 25.4, True, size)
        if not fit.fits:
            continue
        spot = free_strip(taken, width, height, w, h, within)
        if spot and (best is None or spot[1] + h > best[1] + best[3] + 0.01):
            best = (*spot, h)
    if best is None:
        return None
    x, y, w, h = best
    return [Text(x, y, w, h, text, NOTE_FONT, size, "right", "bottom", NOTE_COLOR, path="house_note", least=size)]
