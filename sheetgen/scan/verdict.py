"""A box's verdict, marked, empty or unsure, from what was measured of it (`decide`). Each
threshold says what it separates and the photos it was measured on.
"""

from __future__ import annotations

from sheetgen.scan.strokes import FAINT_LOW, HELD, HIGH, LOW, PALE

MARKED, EMPTY, UNSURE = "marked", "empty", "unsure"
# a box with ink over HIGH (`strokes.LOW`) is marked only if that ink spreads over the box
# (SPREAD of the inside's width and of its height), or there is so much of it (SURE) that it
# cannot be a stroke straying in from a neighbouring box: ink in a corner or along one edge is
# unsure, never marked
SPREAD, SURE = 0.6, 0.3
# ...or a piece of stroke inside the box's printed border (which cuts strokes: the print is
# taken away) reaching the middle of the inside, with a dark core, as long (its extent's
# diagonal) as LONG of the box's diagonal: the arm of a big check crossing its box, whose
# strokes join those of the checks in the next cells; the tip of a neighbour's check that
# strays in from a corner is shorter
LONG = 0.5
# ...and its ink has a dark core over GREY of it: a soft shadow (a die's, beside the box) or a
# wide grey smudge darkens a box as much as ink does but hardly anywhere as dark as a stroke (the
# ninth generator's seed 3 photo 22: a die's shadow over 0.34 of an empty pig box, 0.05 of that
# dark); of 12,444 marks read marked on 600 photos of eleven generators, the least was 0.165 (a
# light ballpoint scribble in a board cell)
GREY = 0.1
# ...and a box whose middle (the inside without its outer sixth on every side) holds a trace
# over MIDDLE of it is marked, with ink over HIGH and a dark core, however little the ink
# spreads: a short dash or a letter across the middle, the corner of a big check; a stroke
# straying in from the next box (an overshooting check, a slip) stays along an edge or in a
# corner (under 0.13 of the middle), and a crease is no trace (see `creases`)
MIDDLE = 0.15
# ...and a box with less ink than HIGH (or more: more ink is no less a mark) is marked when
# that ink has a dark core (over LIGHT[0] of the inside), spreads over LIGHT[1] of it, and the
# middle holds a trace over LIGHT[2]: a light pencil stroke on a blurred photo, only its
# centre line over INK but its whole width a trace; an erased mistake has a trace but no dark
# core, a speck of noise a core but no trace, a stroke straying in from the next box stays
# along an edge. However little it spreads, the middle holding a trace over MIDDLE (as with
# more ink) is a stroke across it: a light check or cross whose ink shows only where its
# strokes meet (with more ink than HIGH as well: of 805 photos of eight generators, 58 marks
# unsure before read marked, no box wrong)
LIGHT = (0.02, 0.35, 0.1)
# ...or, with that dark core, spreads ACROSS[0] of it both ways (a stroke corner to corner, not
# along an edge) and the middle holds a trace over ACROSS[1]: a light slash across a box whose
# printed icon hides it in the middle (the fifth generator's light slashes over the Imperial
# Settlers icons, 0.045-0.093 of the middle: 11 read unsure on its seed 1); a stroke straying
# in from the next box does not cross the box, an erased mistake has no dark core
ACROSS = (0.8, 0.04)
# ...but a trace over WASH[0] of the middle while the ink spreads under WASH[1] of the box, no
# stroke held and none long, is no light stroke (unsure): a fold's dark line in a hand's soft
# shadow (the eighth generator's seed 2 photo 29: two empty garden cells read filled, a trace
# over 0.68 and 0.87 of the middle, ink across 0.04-0.07); a light stroke whose trace fills the
# middle is a scribble or a fill, and its ink spreads
WASH = (0.5, 0.1)
# ...or, with that dark core, is darker than the same place in the boxes printed like it (see
# `unlike_siblings`) over UNLIKE of the inside: a light stroke over a printed icon, which the
# icon hides when the photo is compared with the blank page (the ink taken for the print) but
# not when compared with the same icon in the other boxes of the photo. Of 600 photos of four
# generators, the light ticks, crosses and dashes over the Imperial Settlers icons read unsure
# were unlike their siblings over 0.08-0.29 of the inside (50 of them), the boxes with ink in
# them and no mark at most 0.019 (a neighbour's stroke straying in, an erased mistake). ACROSS
# and UNLIKE mark only less ink than HIGH: with more, a neighbour's dark stroke straying in is
# unlike its siblings too (a felt-tip cross's, 0.084 of the inside: fourth seed 3 photo 5)
UNLIKE = 0.08
# ...and a box with ink over DOT[0] of its inside is marked when it is a dot: all of the ink
# (DOT[2] of it) in strokes the box holds and dark through (its core DOT[2] of it), and the
# middle holding a trace over DOT[1]: a pencil pressed down in the box. A stroke straying in
# from the next box is not held; a mistake rubbed out is lighter than its ink (its core less);
# a cell touching its neighbours (a board copy's) cannot tell a dot from a neighbour's stroke
DOT = (0.02, 0.06, 0.9)
# on a noisy photo (see `decide`) a mark's ink is dark through: its dark core THROUGH of it at
# least. A mistake rubbed out leaves a grey smear that the raised ink threshold still takes
# for ink, but little of it dark (probe seed 5 photo 57: 0.16-0.48 of it; the 244 marks of
# the probe's noisy photos 0.59-1.0, the lowest colour pencils in garden cells)
THROUGH = 0.55
# ...and a faint trace up to NOISE times the photo's own (see `photo_trace`) is the photo's
# noise (a sharpened, noisy photo): that box reads empty as its blank boxes do; so is a
# darkness up to NOISE times what the photo shows in an empty box (see `box_floor`)
NOISE = 2.0


def decide(
    score: float,
    spread: float,
    core: float = 1.0,
    faint: float = 0.0,
    held: float = 0.0,
    like_print: bool = False,
    middle: float = 0.0,
    noise: float = 0.0,
    long: float = 0.0,
    noisy: bool = False,
    circled: bool = False,
    touching: bool = False,
    washed: bool = False,
    round_in: bool = False,
    tinted: bool = False,
    filled: bool = False,
    unlike: float = 0.0,
    pale: float = 0.0,
    covered: bool = False,
) -> str:
    """MARKED, EMPTY or UNSURE from the ink score of a box's inside, its spread, the
    share of it clearly dark (CORE: ink over HIGH marks the box by its amount only with a dark
    core over GREY of it, which a soft shadow has not), the share holding a faint trace (FAINT, or unlike
    the boxes printed like it), the share inked by strokes the box holds (see `held`),
    and whether the ink covers much of what is printed in the box (`like_print`: the
    print itself looking darker than on the blank page, never a mark for sure). Ink that
    does not spread over the box is marked when the box holds it (`held`), when a piece of
    it is as long as LONG of the box (`long`, see `longest`), or when the middle of the
    inside holds a trace over MIDDLE of it (`middle`). Ink with a dark core is marked when
    it is a light stroke (see LIGHT, MIDDLE), less ink than HIGH also when it crosses the box
    (ACROSS) or is `unlike` the boxes printed like it (see UNLIKE, `unlike_siblings`); a
    trace filling the middle round ink that does not spread is a shadow's (WASH). A
    faint trace is judged against the photo's own (`noise`, see `photo_trace`): up to NOISE
    times it, the box is as empty as the photo's blank boxes. On a `noisy` photo (its bare
    paper, or the inside of its empty boxes, as dark as ink: see `paper_floor`, `box_floor`;
    ink is what is darker still) only a mark with twice HIGH of ink, dark through (THROUGH),
    spread, held or long, is marked. A box `circled` (a round box along its printed ring,
    see `ringed`; a square one round it, see `round_outside`; by ink, or a light trace, see
    LIGHT_RING) with no ink in it is unsure: no mark in it, but no empty box. A dot (see
    DOT) is marked, unless the box is `touching` its neighbours. A box with no ink holding a
    `pale` stroke (its longest piece, see PALE, `pale_stroke`) is unsure, not empty. A box
    `washed` out (on a washed-out photo, see `washed_out`, where its paper is white: CLIPPED)
    is not empty: unsure. A box with a dark stroke
    going `round_in` it (a square box, see `round_inside`), round it (a square box, see
    AROUND) or round its printed ring (a round box, `ringed`) is marked, unless the ink is
    like its print (on a noisy photo, only as a mark is there); a box `tinted` (see TINT) is
    not empty, and one `filled` with colour or shaded grey (see FILL, SHADE) is marked. A box
    partly `covered` by something lying on the sheet (see `levels.lying_on`) is unsure."""
    if covered:
        return UNSURE
    if filled and not like_print:
        return MARKED
    marks = spread >= SPREAD or score >= SURE or held >= HELD or long >= LONG or middle >= MIDDLE
    if noisy and score > LOW:
        dark = core >= max(LOW, THROUGH * score)
        return MARKED if score >= 2 * HIGH and marks and dark and not like_print else UNSURE
    if round_in and not like_print:
        return MARKED
    if score <= LOW:
        quiet = faint <= max(FAINT_LOW, NOISE * noise) and pale < PALE[2]
        return EMPTY if quiet and not (circled or washed or tinted) else UNSURE
    if score >= HIGH and marks and core >= max(LOW, GREY * score) and not like_print:
        return MARKED
    across = spread >= ACROSS[0] and middle >= ACROSS[1]
    # (a trace over WASH[0] of the middle round ink reaching under WASH[1] across the box, held
    # by no stroke and none long, is a soft shadow or a fold's band with a line in it: no stroke)
    wash = middle >= WASH[0] and spread < WASH[1] and held < HELD and long < LONG
    stroke = (spread >= LIGHT[1] and middle >= LIGHT[2]) or (middle >= MIDDLE and not wash)
    light = core >= LIGHT[0] and (stroke or score < HIGH and (across or unlike >= UNLIKE))
    dot = score >= DOT[0] and min(held, core) >= DOT[2] * score and middle >= DOT[1] and not touching
    if (light or dot) and not like_print:
        return MARKED
    # ink without a dark core is a grey wash (a mistake rubbed out, a smudge), or too faint to be sure
    return UNSURE
