"""What each box shows on its own (`look_at`): its ink, the strokes it holds, the ink going round
it, its colour; the box's `Look` before it is compared with the page's other boxes
(sheetgen.scan.compared). And a grid cell's vegetable, from its ink's colour (`cell_value`).
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM, inside
from sheetgen.scan.colour import ink_colour, shaded, spilled
from sheetgen.scan.printed import looks_printed
from sheetgen.scan.rings import round_about, round_inside, round_outside, traced
from sheetgen.scan.sight import Place, Sight
from sheetgen.scan.strokes import held, longest, spread
from sheetgen.scan.tuning import AROUND, MARK, PRINT, SHIFT, TINT, TRACE
from sheetgen.scan.verdict import Look


def look_at(cv2, np, sight: Sight, place: Place) -> Look:
    """What a box shows on its own, in its window (`place`) of the page seen as `sight`."""
    box = place.box
    extra, core, part, strong = _ink(sight, place)
    score = float(part.mean()) if part.size else 0.0
    hold = long = 0.0
    cell = box.field in sight.cells
    if score > MARK.empty and not cell:
        hold = held(cv2, np, extra, core, sight.bridge[place.window], box, place.origin)
        long = longest(cv2, np, extra, core, box, place.origin)
    on, off = sight.on_print[place.window][place.inside], sight.printed[place.window][place.inside] < PRINT.some
    return Look(
        box.field,
        box.kind,
        cell=cell,
        score=score,
        spread=spread(np, part),
        core=float(strong.mean()) if part.size else 0.0,
        held=hold,
        long=long,
        like_print=looks_printed(np, part, on, off),
        **(_round(cv2, np, sight, place, extra, core) if not cell else {}),
        **(_colour(np, sight, place) if not cell else {}),
    )


def _ink(sight: Sight, place: Place) -> tuple:
    """A box's window as ink, a mark's dark core (masks of the window) and the same in its
    inside (in a grid cell, colour counts as ink too: see `tuning.Pencil`)."""
    extra, core = place.dark > sight.ink_t, place.dark > sight.core_t
    part, strong = extra[place.inside], core[place.inside]
    if place.box.field in sight.cells:
        part = part | sight.coloured[place.photo][place.inside]
        strong = strong | sight.vivid[place.photo][place.inside]
    return extra, core, part, strong


def _round(cv2, np, sight: Sight, place: Place, extra, core) -> dict:
    """How far round a box ink, a mark's dark core and a light trace go (see `verdict.Look`)."""
    box, origin, window = place.box, place.origin, place.window
    insides, bridge = sight.insides[window], sight.bridge[window]
    trace = place.dark > sight.trace_t
    if box.kind == "round":
        # ink and a mark's dark core off the print itself, a light trace along it
        ring, dark_ring = (
            round_about(cv2, np, m, insides, bridge, box, origin, sight.on_print[window]) for m in (extra, core)
        )
        light_ring = round_about(cv2, np, trace, insides, bridge, box, origin)
        return dict(ring=ring, dark_ring=dark_ring, light_ring=light_ring)
    got = dict(round_in=round_inside(np, core, box, origin))
    if box.kind != "mini":
        span = np.hypot(box.w, box.h) / 2 + AROUND.reach
        # ink round it, off the print (a sharpened photo shows the print round a box, a group's
        # frame and the text under it, darker than the blank page); ink dark through, with no
        # speck (`Trace.speck`); a light trace
        got["around"], got["dark_around"], got["light_ring"] = (
            max(
                round_outside(np, m & ~insides & ~bridge, box, origin),
                traced(cv2, np, m, insides, bridge, box, origin, span, n),
            )
            for m, n in ((extra, 0), (extra & core, TRACE.speck), (trace, TRACE.speck))
        )
    return got


def over_print(np, sat, print_sat, coloured) -> float:
    """The share of a box's inside coloured (`coloured`, a mask) and more saturated than the
    blank page prints it there (`print_sat`; `sat` the photo's, both 0-255) by
    `Tint.over_print`: coloured ink over the print (see `tuning.Tint`)."""
    over = sat.astype(np.int16) - print_sat > TINT.over_print * 255
    return float((over & coloured).mean()) if over.size else 0.0


def _colour(np, sight: Sight, place: Place) -> dict:
    """How much of a box's bare inside is coloured, plainly, shaded, how light its paper shows,
    how much colour spills round it, how much is coloured over its print (see `verdict.Look`)."""
    box, window, sl, photo = place.box, place.window, place.inside, place.photo
    insides, bare, got = sight.insides[window], sight.far[window][sl], {}
    if sight.print_sat is not None and box.kind == "check":
        got["over"] = over_print(np, sight.sat[photo][sl], sight.print_sat[window][sl], sight.coloured[photo][sl])
    if bare.sum() >= TINT.bare * PPMM**2:
        got["tint"] = float((sight.coloured[photo][sl] & bare).sum() / bare.sum())
        got["fill"] = float((sight.vivid[photo][sl] & bare).sum() / bare.sum())
        got["shade"], got["paper"] = shaded(
            np, sight.gray[photo], sight.blank[window], sight.far[window], insides, box, place.origin, sl
        )
        if got["fill"] >= TINT.fill:
            got["spill"] = spilled(np, sight.vivid[photo], sight.far[window], insides, box, place.origin)
    return got


def cell_value(np, sight: Sight, place: Place) -> str:
    """A marked grid cell's letter from its ink's colour (`colour.ink_colour`), or '?'."""
    _, _, part, _ = _ink(sight, place)
    box, (wy, wx) = place.box, place.window
    dx, dy = place.photo[1].start - SHIFT.px - wx.start, place.photo[0].start - SHIFT.px - wy.start  # its shift
    x, y, w, h = (round(v * PPMM) for v in inside(box))
    hsv = sight.hsv[max(0, y + dy) : y + dy + h, max(0, x + dx) : x + dx + w]
    return ink_colour(np, hsv, part, sight.paper_light) if hsv.shape[:2] == part.shape else "?"
