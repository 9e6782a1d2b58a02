"""The display list: what a page is made of, in drawing primitives.

Elements turn into these (sheetgen.layout.elements), the validator checks them
(text fits, glyphs exist) and the backends draw them (sheetgen.render.pdf).
Coordinates are millimetres from the top-left corner of the sheet, y down.
"""

from __future__ import annotations

from sheetgen.values import replace, valueclass

INK = "#222222"
MIN_TEXT = 7.0  # pt: the smallest text a player reads (rules, labels, captions)
MIN_HINT = 5.5  # pt: the smallest hint printed inside a box to write in ('run', 'leaves')
MIN_BOX = 7.0  # mm: a box a pencil can mark
HOUSE_MARK = "\u2020"  # †: after a value the rules leave open (a house value)
# the print a pen shows over, a form's "dropout" grey (as the icons in tick boxes, `dropout`):
# the edge of a box to write in and a caption inside one. A digit written over the edge or
# the caption stays whole, to the players and to `sheetgen scan`, which cannot see a stroke
# over darker print (a 7's bar along a black edge reads 1)
DROPOUT_GREY = "#999999"


@valueclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    stroke: str | None = INK
    fill: str | None = None
    width: float = 0.5  # pt
    radius: float = 0.0  # mm
    dash: tuple = ()


@valueclass
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = INK
    width: float = 0.5
    dash: tuple = ()


@valueclass
class Box:
    """A box a player marks: `check` (tick or cross), `round` (a tick circle), `mini` (a
    board copy's cell, for a dot) or `write` (a number or a name)."""

    x: float
    y: float
    w: float
    h: float
    kind: str = "check"
    checked: bool = False  # pre-printed cross
    field: str | None = None  # stable field name (element id based)
    stroke: str = INK
    fill: str | None = "#ffffff"
    tip: str = ""  # what the box is for, in the sheet's language ("Pig, row 2, box 3"): a form field's tooltip
    multiline: bool = False  # a write box for a list (several lines in a form field)


def write_box(x: float, y: float, w: float, h: float, field: str, stroke: str | None = DROPOUT_GREY, **more) -> Box:
    """A box to write a number or a name in: its edge in the dropout grey (`DROPOUT_GREY`;
    None: the box is its fill, inside a cell drawn round it)."""
    return Box(x, y, w, h, "write", False, field, stroke=stroke, **more)


CHECK_INSET = 0.45  # mm: a tick box's rounded square is drawn this far inside its box
ROUND_INSET = 0.4  # mm: a tick circle's radius is half the box's smaller side less this


def drawn(box: Box) -> tuple[float, float, float, float]:
    """(x, y, w, h) of what the renderer draws for a box, the place a pencil goes in: a tick
    box's rounded square inside it, the square round a tick circle, a write box or a board
    cell whole (and a box drawn as nothing, a ladder step over its printed value, whole)."""
    if box.stroke is None and box.fill is None:
        return box.x, box.y, box.w, box.h
    if box.kind == "check":
        inset = CHECK_INSET
    elif box.kind == "round":
        side = min(box.w, box.h) - 2 * ROUND_INSET
        return box.x + (box.w - side) / 2, box.y + (box.h - side) / 2, side, side
    else:
        return box.x, box.y, box.w, box.h
    return box.x + inset, box.y + inset, box.w - 2 * inset, box.h - 2 * inset


def tip(*parts: str) -> str:
    """A tooltip from a label and its place ("Pig", "row 2", "box 3" -> "Pig, row 2, box 3"):
    each part without the house mark, a soft hyphen, a trailing colon or blank lines; its
    first letter a capital."""
    cleaned = []
    for part in parts:
        words = part.replace(HOUSE_MARK, "").replace("\u00ad", "").split()
        cleaned.append(" ".join(words).rstrip(" :"))
    text = ", ".join(p for p in cleaned if p)
    return text[:1].upper() + text[1:]


@valueclass
class Text:
    x: float
    y: float
    w: float
    h: float
    text: str
    font: str = "sans"
    size: float = 9.0
    align: str = "left"  # left, center, right
    valign: str = "middle"  # top, middle, bottom
    color: str = INK
    wrap: bool = True
    path: str = ""  # key path, for validation messages
    hint: bool = False  # a tiny hint inside a box: may shrink to MIN_HINT, not MIN_TEXT
    least: float = MIN_TEXT  # the layout's `smallest_text` (see raise_text): text never shrinks below

    @property
    def min_size(self) -> float:
        """The smallest size this text may be printed at (fitting never shrinks it below)."""
        return MIN_HINT if self.hint else self.least


def raise_text(prims: list, least: float) -> list:
    """The primitives with every text (not a hint) printed at `least` pt or more, and
    never shrunk below it to fit: a layout's `smallest_text`, for a sheet drawn to print
    scaled down (2 a page). Nothing changes at the default, MIN_TEXT."""
    if least <= MIN_TEXT:
        return prims
    return [
        replace(p, size=max(p.size, least), least=least) if isinstance(p, Text) and not p.hint else p for p in prims
    ]


@valueclass
class Icon:
    x: float
    y: float
    size: float
    name: str
    color: str | None = None
    tint: float = 0.0  # how far every colour of the icon is mixed towards white (dropout)


# An icon printed inside a tick box (a cost, a yield) is printed in "dropout" colours, as
# forms read by machines are: every colour mixed DROPOUT of the way towards white, so that
# a pencil mark over it stays clearly darker than the print (sheetgen scan), and the icon
# still reads at a glance, in colour and in --grey
DROPOUT = 0.7
TICK_KINDS = ("check", "round")  # the boxes marked with a tick or a cross


def dropout(prims: list) -> list:
    """The primitives with every icon inside a tick box (its centre within the box, and
    no larger than it) tinted DROPOUT: the one place a sheet's tick boxes get their light
    print, whatever element drew the icon."""
    boxes = [b for b in prims if isinstance(b, Box) and b.kind in TICK_KINDS]
    ticks = [(b.x, b.y, b.x + b.w, b.y + b.h, min(b.w, b.h)) for b in boxes]
    if not ticks:
        return prims
    return [replace(p, tint=DROPOUT) if isinstance(p, Icon) and _in_tick(p, ticks) else p for p in prims]


def _in_tick(icon: Icon, ticks: list) -> bool:
    """Whether an icon lies in one of `ticks` (left, top, right, bottom, smaller side)."""
    half = icon.size / 2
    cx, cy = icon.x + half, icon.y + half
    return any(x0 <= cx <= x1 and y0 <= cy <= y1 and icon.size <= side for x0, y0, x1, y1, side in ticks)


@valueclass
class Circle:
    x: float  # centre
    y: float
    r: float
    stroke: str | None = INK
    fill: str | None = None
    width: float = 0.5


@valueclass
class QR:
    """A QR code `size` mm square (its quiet zone included) saying `data`: the scan mark
    that names the sheet (sheetgen.layout.scanmarks)."""

    x: float
    y: float
    size: float
    data: str


COPY_SEPARATOR = "__"  # the field `pig_3` of a pad's 2nd copy is `pig_3__2`


def field_name(field: str, copy: int) -> str:
    """A markable box's form-field name on copy `copy` (1-based): unique in a document."""
    return field if copy == 1 else f"{field}{COPY_SEPARATOR}{copy}"


@valueclass
class PageDisplay:
    """One page of a layout, built for one language and player count: the sheet's
    size (mm) and its primitives, in drawing order."""

    id: str
    width: float
    height: float
    prims: tuple

    def boxes(self) -> list[Box]:
        """The boxes a player marks that have a stable id (pre-printed ones excluded)."""
        return [p for p in self.prims if isinstance(p, Box) and p.field and not p.checked]


@valueclass
class Document:
    """What a renderer draws: the pages' display lists and what the file says of itself."""

    title: str
    layout_id: str
    game: str
    lang: str
    pages: tuple
