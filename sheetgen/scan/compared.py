"""Each box against the page's other boxes (`against_page`): what a photo shows in every box of a
kind (a printed ring or border darker than on the blank page, a tint all over, a noisy photo's
faint trace or speckle) is no mark, and only what stands out from it is. The photo's own levels
are taken from its boxes, capped by what its bare paper shows (`tuning.Caps`); something lying on
the sheet leaves the boxes it covers unsure.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from sheetgen.scan.blank import PPMM, inside
from sheetgen.scan.levels import (
    creases,
    lying_on,
    near_alike,
    pale_level,
    paper_traces,
    photo_trace,
    standing_out,
    wash,
)
from sheetgen.scan.rings import part_ringed, round_about
from sheetgen.scan.sight import Place, Sight
from sheetgen.scan.strokes import despeckled, faint_trace, padded_mask, pale_blurred, pale_darkness, pale_stroke
from sheetgen.scan.tuning import AROUND, CAPS, MARK, PALE, RING, SHIFT, TINT
from sheetgen.scan.verdict import Levels, Look


def against_page(cv2, np, sight: Sight, places: list[Place], looks: list[Look], all_boxes) -> tuple:
    """The boxes' looks (`looks`, what each shows on its own, in the order of `places`)
    completed with what each shows against the page's others, and the page's `Levels`."""
    # each box's inside, darkness over the print, the page's creases left out
    insides = [np.where(sight.crease[p.photo][p.inside], 0.0, p.dark[p.inside]) for p in places]
    base = wash(np, [k.score for k in looks], insides)  # the photo's own grey wash
    # (what its bare paper shows as a blank box would: a cap on the photo's own levels)
    bare_trace, bare_pale = paper_traces(cv2, np, sight.page_ink, sight.paper, base, sight.faint_t)
    middles, noise = _faint(cv2, np, sight, looks, insides, base, bare_trace)
    pales, pale_rings = _pale(cv2, np, sight, places, looks, insides, base, bare_pale)
    circled, drawn_round = _circles(np, places, looks, pale_rings)
    tinted, filled = _colours(np, looks, sight.noisy)
    covered = set() if sight.noisy else _covered(cv2, np, sight, all_boxes, looks)
    done = [
        replace(
            k,
            middle=middle,
            unlike=sight.unlike.get(k.field, 0.0),
            pale=pale,
            pale_ring=pale_rings.get(k.field),
            circled=k.field in circled,
            drawn_round=k.field in drawn_round,
            tinted=k.field in tinted,
            filled=k.field in filled,
            covered=k.field in covered,
        )
        for k, middle, pale in zip(looks, middles, pales, strict=True)
    ]
    return done, Levels(noise=noise, noisy=sight.noisy, washed=sight.washed)


def _covered(cv2, np, sight: Sight, all_boxes, looks: list[Look]) -> set:
    """The boxes something lying on the sheet covers (`levels.lying_on`, seen at a quarter of
    PPMM). Not on a dark, noisy photo, whose paper's light nearby is its brightest noise, and
    where only clear marks count."""
    lying = lying_on(cv2, np, sight.page_gray, sight.plain, all_boxes)
    if not lying.any():
        return set()
    boxes = {box.field: box for box in all_boxes}
    covered = set()
    for k in looks:
        x, y, w, hh = (round(v * PPMM / 4) for v in inside(boxes[k.field]))
        if lying[max(0, y) : y + hh, max(0, x) : x + w].any():
            covered.add(k.field)
    return covered


def _faint(cv2, np, sight: Sight, looks: list[Look], insides: list, base: float, bare_trace: float) -> tuple:
    """Each box's share of its middle holding a faint trace over the photo's wash `base`, and the
    photo's own faint trace (`levels.photo_trace`, capped by its bare paper's, `bare_trace`)."""
    middles = [faint_trace(cv2, np, dark - base, sight.faint_t) for dark in insides]
    own = photo_trace(np, [k.score for k in looks], middles)
    return middles, min(own, max(CAPS.times * bare_trace, CAPS.trace))


def _pale(cv2, np, sight: Sight, places: list, looks: list, insides: list, base: float, bare_pale: float) -> tuple:
    """Each box's longest pale piece (`strokes.pale_stroke`: 0 for a box with ink, or none)
    over the photo's own pale level (capped by its bare paper's, `bare_pale`), off the print
    and the page's creases as pale (a grid
    cell's and a board cell's blurred, over their own kind's level: see `tuning.Pale`); and how
    far round each round box with no ink a pale trace goes (field -> share)."""
    cells = sight.cells
    hiddens = [sight.bridge[p.window][p.inside] for p in places]
    pales = [
        pale_darkness(cv2, np, dark - base, hidden) if k.score <= MARK.empty else None
        for k, dark, hidden in zip(looks, insides, hiddens, strict=True)
    ]
    top = min(pale_level(np, pales, hiddens), max(CAPS.times * bare_pale, CAPS.pale))
    level = max(PALE.darkness * sight.faint_t * 255, PALE.over * top)
    fine = [
        pale_blurred(cv2, np, dark - base, hidden, specks=k.kind == "mini")
        if pale is not None and (k.field in cells or k.kind == "mini")
        else None
        for k, dark, pale, hidden in zip(looks, insides, pales, hiddens, strict=True)
    ]
    # (the grid cells' level and the board cells' each their own)
    fine_levels = {}
    for group in (True, False):
        mine = [f if (k.field in cells) == group else None for k, f in zip(looks, fine, strict=True)]
        fine_levels[group] = max(PALE.cell_darkness * sight.faint_t * 255, PALE.over * pale_level(np, mine, hiddens))
    # ...its creases (a fold as pale as that), and how far round a round box with no ink it goes
    smooth = despeckled(cv2, np, sight.page_ink - sight.printed).astype(np.float32) / 255
    folds = padded_mask(cv2, np, creases(cv2, np, smooth, level / 255), SHIFT.px)
    rings = {
        k.field: round_about(
            cv2,
            np,
            (despeckled(cv2, np, p.dark) > level) & ~folds[p.photo],
            sight.insides[p.window],
            sight.bridge[p.window],
            p.box,
            p.origin,
        )
        for k, p in zip(looks, places, strict=True)
        if k.kind == "round" and k.score <= MARK.empty
    }
    out = []
    for k, p, pale, cell in zip(looks, places, pales, fine, strict=True):
        if pale is None:
            out.append(0.0)
            continue
        seen = cell if cell is not None else pale
        at = level if cell is None else fine_levels[k.field in cells]
        out.append(pale_stroke(cv2, np, np.where(folds[p.photo][p.inside], 0, seen), at))
    return out, rings


def _circles(np, places: list[Place], looks: list[Look], pale_rings: dict) -> tuple:
    """The boxes circled (ink or a light trace round them standing out from the page's: unsure,
    never empty) and those a mark's dark stroke goes round (marked): see `tuning.Ring`,
    `tuning.Around`. A photo that shows the printed rings darker shows them all so: a page has a
    few round boxes, often most of them circled, and their rings are measured against the one
    showing least; against the lower quartile when a light trace goes round every one (the
    photo shows their print)."""

    def measures(name: str) -> dict:
        return {k.field: getattr(k, name) for k in looks if getattr(k, name) is not None}

    rounds = {k.field for k in looks if k.kind == "round"}
    light, on_ring = measures("light_ring"), measures("ring")
    light_round = {f: v for f, v in light.items() if f in rounds}
    light_square = {f: v for f, v in light.items() if f not in rounds}
    shows_print = light_round and min(light_round.values()) >= RING.round
    least = functools.partial(np.percentile, q=25) if shows_print else min
    circled = (
        standing_out(np, on_ring, RING.round, RING.over, least, most=RING.floor)
        | standing_out(np, measures("around"), RING.round, RING.over)
        | standing_out(np, light_square, RING.round, RING.over)
        | standing_out(np, light_round, RING.round, RING.over, least)
        | standing_out(np, pale_rings, RING.round, RING.over, least)
    )
    circled |= {f for f, v in on_ring.items() if v >= RING.round} | part_ringed(on_ring, light)
    circled |= {f for name in ("around", "dark_around") for f, v in measures(name).items() if v >= AROUND.round}
    # (a mark: standing out from the boxes printed alike round it too; a box that does only from
    # the page's is circled, unsure: a photo blurred in one part, or a player circling every box)
    alike = near_alike(np, [p.box for p in places])
    drawn_round = (
        standing_out(np, measures("round_in"), AROUND.inside, AROUND.inside_over, near=alike)
        | standing_out(np, measures("dark_ring"), RING.round, RING.over, least, most=RING.floor)
        | standing_out(np, measures("dark_around"), AROUND.round, AROUND.over, near=alike)
    )
    return circled, drawn_round


def _colours(np, looks: list[Look], noisy: bool) -> tuple:
    """The boxes tinted (coloured, standing out from the page's, or coloured over their print:
    not empty) and those filled (a fill staying in the box, or shaded grey: marked); see
    `tuning.Tint`. No ink over the print on a dark, noisy photo: its noise is as saturated as a
    pen, and only clear marks count."""
    tints = {k.field: k.tint for k in looks if k.tint is not None}
    tinted = standing_out(np, tints, TINT.coloured, TINT.over, most=TINT.floor)
    if not noisy:
        tinted |= {k.field for k in looks if k.over is not None and k.over >= TINT.over_share}
    filled = {k.field for k in looks if k.field in tinted and k.spill is not None and k.spill <= TINT.spill}
    filled |= {k.field for k in looks if k.shade is not None and k.shade >= TINT.fill}
    return tinted, filled
