"""A box's verdict, marked, empty or unsure, from what was measured of it: `Look`, every measure
of one box, and `Levels`, what the photo shows everywhere. `decide` runs them down `RULES`, a
table of named conditions each giving a reading; the first that holds decides. Unsure boxes
are never guessed: a box is empty only when nothing in it or round it says otherwise. The
values compared with are `sheetgen.scan.tuning`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sheetgen.scan.tuning import DOT, LIGHT, MARK, NOISY, PALE, WASH, WASHED

MARKED, EMPTY, UNSURE = "marked", "empty", "unsure"


@dataclass(frozen=True)
class Look:
    """What one box shows: every measure its verdict is drawn from, taken once. Its own
    (`looks.look_at`), then against the page's other boxes (`compared`). Shares are of the
    box's inside unless said; None: not taken for this box (a round box has no `around`, a
    grid cell no `tint`)."""

    field: str
    kind: str  # the box's kind: check, round, mini (a board copy's cell), write (a grid cell)
    cell: bool = False  # a grid cell, whose ink is read by its colour too
    # what the box shows on its own
    score: float = 0.0  # share of the inside that is ink (in a grid cell, coloured too)
    spread: float = 0.0  # how far that ink reaches across the inside (the less of width and height)
    core: float = 0.0  # share of the inside that is a mark's dark core
    held: float = 0.0  # share inked by strokes the box holds (`strokes.held`)
    long: float = 0.0  # its longest piece of stroke with a dark core, over the box's diagonal
    like_print: bool = False  # its ink is its print shown darker (`printed.looks_printed`)
    ring: float | None = None  # a round box: how far round its printed ring ink goes (`rings.round_about`)
    dark_ring: float | None = None  # ...a mark's dark core
    round_in: float | None = None  # a square box: how far round inside it a dark core goes (`rings.round_inside`)
    around: float | None = None  # ...how far round it outside ink goes (`rings.round_outside`, `rings.traced`)
    dark_around: float | None = None  # ...a mark's dark core
    light_ring: float | None = None  # how far round it a light trace goes (`Ring.light`)
    pale_ring: float | None = None  # a round box with no ink: how far round it a pale trace goes
    tint: float | None = None  # share of its bare inside that is coloured
    fill: float | None = None  # ...plainly coloured
    spill: float | None = None  # share of the paper round it plainly coloured (taken for a fill only)
    shade: float | None = None  # share of its bare inside shaded grey (`colour.shaded`)
    paper: float | None = None  # how light its paper shows, round it or in it (grey 0-255)
    over: float | None = None  # a tick box: share of its inside coloured over its print (`looks.over_print`)
    # what it shows against the page's other boxes
    middle: float = 0.0  # share of the middle of its inside holding a faint trace over the photo's wash
    unlike: float = 0.0  # share darker than the boxes printed like it (`printed.unlike_siblings`)
    pale: float = 0.0  # extent of its longest pale piece, over the inside's diagonal (a box with no ink)
    circled: bool = False  # ink or a light trace round it, standing out from the page's
    drawn_round: bool = False  # a mark's dark stroke round it, or round inside it, standing out
    tinted: bool = False  # coloured, standing out from the page's, or coloured over its print
    filled: bool = False  # filled with colour that stays in the box, or shaded grey
    covered: bool = False  # something lying on the sheet covers it (`levels.lying_on`)


@dataclass(frozen=True)
class Levels:
    """What the photo shows everywhere, which each box is judged against."""

    noise: float = 0.0  # the photo's own faint trace (`levels.photo_trace`, capped by its bare paper's)
    noisy: bool = False  # a dark, noisy photo: its bare paper or its empty boxes as dark as ink (`Noisy`)
    washed: bool = False  # a washed-out photo (`levels.washed_out`)


@dataclass(frozen=True)
class Rule:
    """A row of the verdict's table: when `holds` (of a box's look and the page's levels) is true
    and no rule above it holds, the box reads `reading`."""

    name: str
    reading: str
    holds: Callable[[Look, Levels], bool]


def inked(k: Look) -> bool:
    """Ink over `Mark.empty` of the inside: the box is not empty by its ink."""
    return k.score > MARK.empty


def reaching(k: Look) -> bool:
    """The ink is placed as a mark's, not a stroke's straying in from the next box (which stays
    in a corner or along an edge): it spreads over the box, is too much to stray in, is held by
    the box, is a long piece of stroke, or crosses the middle."""
    return (
        k.spread >= MARK.spread
        or k.score >= MARK.sure
        or k.held >= MARK.held
        or k.long >= MARK.long
        or k.middle >= MARK.middle
    )


def clear_on_noisy(k: Look) -> bool:
    """A mark a noisy photo shows plainly: twice the ink, placed as a mark's, dark through."""
    dark = k.core >= max(MARK.empty, NOISY.through * k.score)
    return k.score >= NOISY.ink * MARK.marked and reaching(k) and dark and not k.like_print


def quiet(k: Look, page: Levels) -> bool:
    """No trace either: its middle's faint trace (or its unlikeness to its siblings) within the
    photo's own noise, and no pale stroke."""
    return max(k.middle, k.unlike) <= max(MARK.faint, NOISY.noise * page.noise) and k.pale < PALE.length


def washed(k: Look, page: Levels) -> bool:
    """On a washed-out photo, its paper clipped white (or too little of it to tell)."""
    return page.washed and (k.paper is None or k.paper >= WASHED.clipped)


def ink_mark(k: Look) -> bool:
    """Ink enough to mark the box, placed as a mark's, with a dark core a shadow has not."""
    dark = k.core >= max(MARK.empty, MARK.grey * k.score)
    return k.score >= MARK.marked and reaching(k) and dark and not k.like_print


def light_stroke(k: Look) -> bool:
    """A light stroke with a dark core: its trace across the middle as it spreads, or crossing
    the middle (unless it is a soft shadow's band, `Wash`); with less ink than `Mark.marked`,
    also corner to corner over a printed icon, or unlike the boxes printed like it."""
    across = k.spread >= LIGHT.across and k.middle >= LIGHT.across_middle
    shadow = k.middle >= WASH.middle and k.spread < WASH.spread and k.held < MARK.held and k.long < MARK.long
    stroke = (k.spread >= LIGHT.spread and k.middle >= LIGHT.middle) or (k.middle >= MARK.middle and not shadow)
    little = k.score < MARK.marked and (across or k.unlike >= LIGHT.unlike)
    return k.core >= LIGHT.core and (stroke or little) and not k.like_print


def dot(k: Look) -> bool:
    """A pencil pressed down in the box: held by it and dark through, a trace in its middle; not
    in a board copy's cell, which touches its neighbours."""
    through = min(k.held, k.core) >= DOT.through * k.score
    return k.score >= DOT.ink and through and k.middle >= DOT.middle and k.kind != "mini" and not k.like_print


# the verdict's table, read from the top: the first rule that holds gives the box's reading
RULES = (
    Rule("covered by something lying on it", UNSURE, lambda k, page: k.covered),
    Rule("filled with colour or shaded", MARKED, lambda k, page: k.filled and not k.like_print),
    Rule("a clear mark on a noisy photo", MARKED, lambda k, page: page.noisy and inked(k) and clear_on_noisy(k)),
    Rule("ink on a noisy photo, not clear", UNSURE, lambda k, page: page.noisy and inked(k)),
    Rule("a dark stroke drawn round it", MARKED, lambda k, page: k.drawn_round and not k.like_print),
    Rule(
        "no ink, no trace, nothing round it",
        EMPTY,
        lambda k, page: not inked(k) and quiet(k, page) and not (k.circled or washed(k, page) or k.tinted),
    ),
    Rule("no ink, but a trace, a circle, a tint or white paper", UNSURE, lambda k, page: not inked(k)),
    Rule("ink placed as a mark, with a dark core", MARKED, lambda k, page: ink_mark(k)),
    Rule("a light stroke", MARKED, lambda k, page: light_stroke(k)),
    Rule("a dot", MARKED, lambda k, page: dot(k)),
    Rule("ink without a dark core, or astray", UNSURE, lambda k, page: True),
)


def rule_for(look: Look, page: Levels) -> Rule:
    """The rule of `RULES` that decides a box."""
    return next(rule for rule in RULES if rule.holds(look, page))


def decide(look: Look, page: Levels) -> str:
    """MARKED, EMPTY or UNSURE: a box's reading, from its look and the page's levels (`RULES`).
    A mistake rubbed out (a grey wash with no dark core), a stroke straying in from the next box,
    a circle round a box with nothing in it, a tint, something lying on the sheet, or a box on a
    washed-out photo's white paper is unsure, never empty nor marked."""
    return rule_for(look, page).reading
