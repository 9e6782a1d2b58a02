"""Read a photographed or scanned sheet, box by box.

`read_photo` finds the sheet's scan marks (sheetgen.scan.markers) and its QR code
(sheetgen.scan.qr), maps the photo onto the page in millimetres and aligns it with the blank
page rendered from the same display list (sheetgen.scan.blank, sheetgen.scan.printed), so
what is printed inside a box is never taken for a mark (`align_photo`). `read_boxes` sees the
page (sheetgen.scan.sight), looks at every box on its own (sheetgen.scan.looks) and against the
page's others (sheetgen.scan.compared), which makes its `Look`, and gives each a verdict from
its look and the page's levels (sheetgen.scan.verdict): marked, empty or unsure. Unsure boxes
are never guessed. Every box's look comes back with its reading (`PageRead.looks`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetgen.scan.blank import blank_colours, blank_page, grid_cells
from sheetgen.scan.colour import bilevel, bilevel_blank
from sheetgen.scan.compared import against_page
from sheetgen.scan.looks import cell_value, look_at
from sheetgen.scan.markers import Unreadable, find_markers, homography, warp
from sheetgen.scan.photos import Photo, need_cv
from sheetgen.scan.printed import align
from sheetgen.scan.qr import check_print, read_qr, recognise, sheet_layout
from sheetgen.scan.sight import see
from sheetgen.scan.tuning import ALIGN
from sheetgen.scan.verdict import MARKED, Levels, decide

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
    looks: dict = field(default_factory=dict)  # field -> its `verdict.Look`: every measure its reading is drawn from
    levels: Levels | None = None  # the page's levels each box was judged against
    sheet: dict = field(default_factory=dict)  # how the page was printed (its QR code): players, lang, grey
    numbers: dict = field(default_factory=dict)  # the numbers written by hand, as read (scan.written.NumberRead)


@dataclass
class Aligned:
    """A photo's page found, mapped and aligned onto its blank page: what `read_boxes` reads."""

    photo: Photo
    layout: object
    page_id: str
    page: object  # the photo mapped onto the page and aligned with the blank page (RGB, PPMM)
    blank: object  # the blank page, grey (its print black for a black-and-white image)
    boxes: list  # every markable box of the page
    cells: set  # the grid cells' fields
    colours: object  # the blank page in colour, RGB (None for a black-and-white image)
    two_tone: bool  # a black-and-white image
    note: str  # how the page was known when its QR code could not be read (see `recognise`)
    sheet: dict  # how the page was printed (its QR code): players, lang, grey


def align_photo(photo: Photo, layout_ref: str | None = None, markers: dict | None = None) -> Aligned:
    """One photo's page, aligned: of the sheet whose scan `markers` are given (see
    `find_sheets`), else of the photo's one sheet."""
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
    page = align(cv2, np, warp(photo, h, layout.width, layout.height, ALIGN.reach), blank)
    two_tone = bilevel(cv2, np, photo.rgb)
    if two_tone:
        blank = bilevel_blank(np, blank)
    # (a black-and-white image has no colour to tell from the print's)
    colours = None if two_tone else blank_colours(layout, qr["page"], qr["players"], lang, qr["grey"])
    cells = grid_cells(layout, qr["page"])
    sheet = {"players": qr["players"], "lang": lang, "grey": qr["grey"]}
    return Aligned(photo, layout, qr["page"], page, blank, display.boxes(), cells, colours, two_tone, note, sheet)


def read_photo(photo: Photo, layout_ref: str | None = None, markers: dict | None = None) -> PageRead:
    """One photo's page and box readings: of the sheet whose scan `markers` are given
    (see `find_sheets`), else of the photo's one sheet."""
    got = align_photo(photo, layout_ref, markers)
    boxes = read_boxes(got.page, got.blank, got.boxes, got.cells, got.colours)
    troubles = ("bilevel", *boxes.troubles) if got.two_tone else boxes.troubles
    said = [f"{photo.name}: {TROUBLES[t]}" for t in troubles]
    note = "; ".join([got.note, *said] if got.note else said)
    return PageRead(
        photo,
        got.layout,
        got.page_id,
        boxes.values,
        boxes.readings,
        boxes.scores,
        boxes.spreads,
        rectified=got.page,
        boxes=boxes.boxes,
        note=note,
        looks={k.field: k for k in boxes.looks},
        levels=boxes.levels,
        sheet=got.sheet,
    )


@dataclass
class BoxReads:
    """What `read_boxes` reads of a page."""

    values: dict  # field -> True/False (tick boxes), a letter or '?' (grid cells), '' (write boxes not read)
    readings: dict  # field -> MARKED / EMPTY / UNSURE, of the boxes read
    looks: list  # the boxes' `verdict.Look`, in the order of `boxes`
    levels: Levels  # the page's levels they were judged against
    boxes: list  # the boxes read
    troubles: tuple  # what made the photo hard to read (see TROUBLES)

    @property
    def scores(self) -> dict:
        """field -> the ink score of its inside (see `verdict.Look`)."""
        return {k.field: k.score for k in self.looks}

    @property
    def spreads(self) -> dict:
        """field -> how far its ink spreads (0-1)."""
        return {k.field: k.spread for k in self.looks}


def read_boxes(page, blank, all_boxes, cells: set, colours=None) -> BoxReads:
    """The markable boxes of a rectified page (RGB, PPMM) read against its blank page (grey; its
    `colours`, RGB, when known: see `tuning.Tint`); `cells` are the grid cells, read by their
    ink's colour too. Troubles (see TROUBLES): "noisy" when the photo's paper, or its empty
    boxes, show as dark as ink (see `levels.paper_floor`, `levels.box_floor`), "washed" when its
    print shows too light (`levels.washed_out`: its boxes on paper clipped white are marked or
    unsure, none empty), "covered" when something lying on the sheet covers boxes."""
    cv2, np = need_cv()
    sight, places = see(cv2, np, page, blank, all_boxes, cells, colours)
    own = [look_at(cv2, np, sight, place) for place in places]
    looks, levels = against_page(cv2, np, sight, places, own, all_boxes)
    values = {box.field: "" for box in all_boxes if box.kind == "write" and box.field not in cells}  # not read
    readings = {}
    for look, place in zip(looks, places, strict=True):
        readings[look.field] = reading = decide(look, levels)
        if look.cell:
            values[look.field] = cell_value(np, sight, place) if reading == MARKED else ""
        else:
            values[look.field] = reading == MARKED
    seen = {"noisy": levels.noisy, "washed": levels.washed, "covered": any(k.covered for k in looks)}
    troubles = tuple(name for name, trouble in seen.items() if trouble)
    return BoxReads(values, readings, looks, levels, [p.box for p in places], troubles)
