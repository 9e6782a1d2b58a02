"""The page as the reader sees it, before any box is looked at (`see`): the photo's darkness
over its paper, the print as the photo shows it in each box's window, the photo's own levels
of ink (its bare paper's noise, its contrast, a washed-out or a noisy photo) and the masks every
box is measured through. Each box's window (`Place`) holds its darkness over the print.
"""

from __future__ import annotations

from dataclasses import dataclass

from sheetgen.scan.blank import PPMM, inside
from sheetgen.scan.colour import white_balanced
from sheetgen.scan.levels import (
    bare_paper,
    box_floor,
    contrast,
    creases,
    paper_boxes,
    paper_floor,
    washed_out,
)
from sheetgen.scan.printed import box_shift, icon_fit, print_halo, seen_print, unlike_siblings
from sheetgen.scan.strokes import grown_mask, padded_mask, page_darkness
from sheetgen.scan.tuning import ICON, INK, NOISY, PENCIL, PRINT, RING, SHIFT


@dataclass
class Place:
    """A box's window on the page: the box and a box's size round it (`window`, slices of the
    page), the same on the padded photo, moved by the box's shift (`photo`), its inside within
    the window (`inside`), how the photo shows its light print (`fit`, see `printed.icon_fit`)
    and the window's darkness over the print as the photo shows it (`dark`, 0-1)."""

    box: object
    photo: tuple
    window: tuple
    inside: tuple
    fit: object
    dark: object = None

    @property
    def origin(self) -> tuple:
        """The window's top-left (x, y) on the page, px."""
        return self.window[1].start, self.window[0].start


@dataclass
class Sight:
    """What every box is looked at through: the photo's levels of ink and the page's masks.
    Masks said to be padded are `Shift.px` larger on every side than the page, as the photo's
    darkness is, so that a box's window is taken where its print shows."""

    ink_t: float  # darkness of ink (`Ink.ink`, or the photo's noise when darker)
    trace_t: float  # ...of a light trace round a box (`Ring.light`)
    core_t: float  # ...of a mark's dark core (`Ink.core` by the photo's contrast)
    faint_t: float  # ...of a faint trace (`Ink.faint` by the photo's contrast)
    noisy: bool  # a dark, noisy photo: its paper or its empty boxes as dark as ink
    washed: bool  # a washed-out photo (`levels.washed_out`)
    cells: set  # the grid cells' fields
    unlike: dict  # field -> share unlike the boxes printed like it (`printed.unlike_siblings`)
    page_gray: object  # the page in grey
    page_ink: object  # the page's darkness over its paper (0-1)
    plain: object  # the blank page's darkness (0-1)
    printed: object  # ...grown by 2 px
    paper: object  # the page's bare paper (`levels.bare_paper`)
    paper_light: float | None  # how bright the bare paper shows, white balanced (HSV value)
    bridge: object  # where the print hides a stroke crossing it
    on_print: object  # the print itself
    far: object  # the bare paper 0.5 mm from any print
    insides: object  # every box's inside
    coloured: object  # (padded) coloured as a colour pencil
    vivid: object  # (padded) ...plainly
    crease: object  # (padded) the page's creases
    hsv: object  # the page, white balanced, in hsv
    gray: object  # (padded) the page in grey, specks smoothed out
    blank: object  # the blank page, grey
    sat: object  # (padded) the page's saturation, white balanced (0-255)
    print_sat: object  # the blank page's, the most within 3 px (0-255); None: not known


def see(cv2, np, page, blank, all_boxes, cells: set, colours=None) -> tuple[Sight, list[Place]]:
    """The `Sight` of a rectified page (RGB, PPMM) against its blank page (grey; its `colours`,
    RGB, when known), and the `Place` of each box read (every markable one but the write boxes
    that are not grid cells, `cells`)."""
    gray = cv2.cvtColor(page, cv2.COLOR_RGB2GRAY)
    pad = SHIFT.px
    ink = cv2.copyMakeBorder(page_darkness(cv2, np, gray), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    plain = 1.0 - blank.astype(np.float32) / 255.0
    printed = print_halo(cv2, np, plain)
    page_ink = ink[pad:-pad, pad:-pad]  # (a view: the page's pixels, unpadded)
    paper = bare_paper(cv2, np, plain, all_boxes)
    # a blurred or over-exposed photo shows every stroke lighter (see `tuning.Ink`)
    gain = contrast(cv2, np, page_ink, plain)
    core_t, faint_t = INK.core * gain, INK.faint * gain
    read = [box for box in all_boxes if box.kind != "write" or box.field in cells]
    shifts = {box.field: box_shift(cv2, np, ink, plain, box) for box in read}
    unlike = unlike_siblings(cv2, np, ink, plain, read, shifts, pad, faint_t)
    insides = np.zeros(printed.shape, bool)  # every box's inside (its marks), on the page
    for box in all_boxes:
        x, y, w, hh = (round(v * PPMM) for v in inside(box))
        insides[max(0, y) : y + hh, max(0, x) : x + w] = True
    # light print (an icon in dropout colours) away from the dark print (see `seen_print`)
    light = (plain > ICON.light) & (plain < PRINT.dark) & ~grown_mask(cv2, np, plain >= PRINT.dark, ICON.away)
    places = _places(cv2, np, ink, plain, light, read, shifts)
    # the photo's own spread of its icons from their fits (a noisy, sharpened photo's is wide)
    fitted = [p.fit for p in places if p.fit is not None]
    spread = ICON.spread * 1.4826 * float(np.median([fit[0] for fit in fitted])) if fitted else 0.0
    paper_ink = paper_floor(np, page_ink, paper)
    # (not where the bare paper itself is as dark as ink: a dark, noisy photo is read with care)
    page_lines = _page_lines(np, fitted, plain, light, insides) if fitted and paper_ink <= INK.ink else []
    for p in places:
        seen = seen_print(cv2, np, *(m[p.window] for m in (plain, printed, light)), p.fit, spread, page_lines)
        p.dark = ink[p.photo] - seen
    # a dark, noisy photo shows the bare paper itself as dark as a stroke, and a JPEG's blocks
    # and ringing show darkest beside the print, in every box: ink is only what is darker than
    # most of the bare paper, and than what the photo shows in an empty box (`levels.box_floor`)
    shown = box_floor(np, [p.dark[p.inside] for p in places], paper_boxes(np, page_ink, paper))
    ink_floor = max(paper_ink, NOISY.noise * shown)
    hsv = cv2.cvtColor(white_balanced(cv2, np, page, blank), cv2.COLOR_RGB2HSV)
    sight = Sight(
        ink_t=max(INK.ink, ink_floor),
        trace_t=RING.light * max(INK.ink, ink_floor),
        core_t=max(core_t, ink_floor),
        faint_t=faint_t,
        noisy=ink_floor > INK.ink,
        washed=washed_out(np, gray, plain, paper),
        cells=cells,
        unlike=unlike,
        page_gray=gray,
        page_ink=page_ink,
        plain=plain,
        printed=printed,
        paper=paper,
        # (how bright the bare paper shows, white balanced: a brown ink is told from an orange by it)
        paper_light=float(np.percentile(hsv[..., 2][paper], 90)) if paper.any() else None,
        insides=insides,
        hsv=hsv,
        blank=blank,
        **_masks(cv2, np, gray, hsv, plain, printed, page_ink, paper, faint_t, colours),
    )
    return sight, places


def _places(cv2, np, ink, plain, light, read: list, shifts: dict) -> list[Place]:
    """Each box's `Place` (its darkness still to be taken): its window on the page and on the
    padded photo (`ink`), moved by its shift, and how the photo shows its light print."""
    pad, (H, W) = SHIFT.px, plain.shape
    places = []
    for box in read:
        dx, dy = shifts[box.field]
        # the box and a box's size around it, in page pixels (the photo's: moved by dx, dy)
        wx0, wy0 = max(0, round((box.x - box.w) * PPMM)), max(0, round((box.y - box.h) * PPMM))
        wx1, wy1 = min(W, round((box.x + 2 * box.w) * PPMM)), min(H, round((box.y + 2 * box.h) * PPMM))
        photo = (slice(wy0 + pad + dy, wy1 + pad + dy), slice(wx0 + pad + dx, wx1 + pad + dx))
        window = (slice(wy0, wy1), slice(wx0, wx1))
        x, y, w, hh = (round(v * PPMM) for v in inside(box))
        sl = slice(y - wy0, y - wy0 + hh), slice(x - wx0, x - wx0 + w)
        places.append(Place(box, photo, window, sl, icon_fit(cv2, np, ink[photo], plain[window], light[window], sl)))
    return places


def _page_lines(np, fitted: list, plain, light, insides) -> list:
    """How the photo shows its light print over the page: the median line of its boxes' fits (as
    printed, and blurred as the photo is, each box's best), when it shows the icons darker than
    the blank page does, at their median darkness in the boxes, by `Print.darker` (a phone's
    local contrast and sharpening): the icons are then taken as dark as that (`seen_print`),
    their excess print, not a noisy photo's ink in every box (`levels.box_floor`). [] else."""
    lines = [tuple(float(np.median([fit[1][k][i] for fit in fitted])) for i in (0, 1)) for k in (0, 1)]
    middle = float(np.median(plain[light & insides]))
    a, b = lines[0]
    return lines if a + b * middle - middle >= PRINT.darker else []


def _masks(cv2, np, gray, hsv, plain, printed, page_ink, paper, faint_t: float, colours) -> dict:
    """The page's masks of print, bare paper, colour and creases, padded as the photo's
    darkness where a box's window is taken from the photo (see `Sight`)."""
    pad = SHIFT.px
    # a dark, noisy photo shows the bare paper itself as coloured as a stroke: colour is only
    # what is more coloured than most of the bare paper is (see `tuning.Pencil`)
    saturation_floor = paper_floor(np, hsv[..., 1], paper)
    grown = np.ones((round(PPMM) + 1,) * 2, np.uint8)  # (0.5 mm every way)
    return dict(
        bridge=printed > PRINT.hides,
        on_print=plain > PRINT.hides,
        far=cv2.dilate((plain > PRINT.some).astype(np.uint8), grown) == 0,
        coloured=padded_mask(cv2, np, hsv[..., 1] > max(PENCIL.ink * 255, saturation_floor), pad),
        vivid=padded_mask(cv2, np, hsv[..., 1] > max(PENCIL.ink * 255, PENCIL.vivid * saturation_floor), pad),
        crease=padded_mask(cv2, np, creases(cv2, np, page_ink - printed, faint_t), pad),
        gray=cv2.copyMakeBorder(cv2.medianBlur(gray, 3), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255),
        sat=cv2.copyMakeBorder(hsv[..., 1], pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0),
        print_sat=None
        if colours is None
        else cv2.dilate(cv2.cvtColor(colours, cv2.COLOR_RGB2HSV)[..., 1], np.ones((7, 7), np.uint8)).astype(np.int16),
    )
