"""Every value the scan reader compares a measure with, in one place: small frozen records grouped
by what they measure, each field with its unit (in brackets) and one line saying what it
separates; each record's docstring says why its values sit where they do.

Pixels (px) are the rectified page's, `blank.PPMM` to a millimetre, unless a field says another
image's. Shares are 0-1. Left in the functions that use them: the statistics a measure is made
of (a median, a percentile), the kernels that smooth or grow a mask, the sizes of caches, and the
bounds on a file's size (`photos`: a limit on a stranger's input, not a threshold of reading).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Inside:
    """Where in a box a mark is looked for: the box without its printed border, which a photo
    shows a little off or blurred. A board copy's cells touch their neighbours: only their
    middle is looked at, where a stroke straying in from the next cell does not reach."""

    # [mm] border left out of a tick box
    check: float = 1.3
    # [mm] border left out of a round box (its printed ring)
    round: float = 1.6
    # [share of the shorter side] border left out of a board copy's cell, on each side
    mini: float = 0.25
    # [share of the shorter side] border left out of any other box (a grid cell)
    other: float = 0.14
    # [mm] ...at least
    least: float = 1.0


@dataclass(frozen=True)
class Ink:
    """What a pixel of a box is, by its darkness over the paper round it (0-1, the blank page's
    print taken away: `strokes.page_darkness`): ink, a mark's dark core or a faint trace. A
    mistake rubbed out leaves a grey wash with no dark core; a light pencil stroke blurred at a
    low resolution stays under the ink's darkness but leaves a faint trace. A blurred or
    over-exposed photo shows every stroke lighter, the print and a pencil alike: the core and
    the trace are looked for at darkness scaled by how dark it shows the print (`contrast`);
    ink itself is not, or a mistake rubbed out and crossed by a crease would read marked."""

    # [darkness 0-1] darker is ink; the paper's grain, a crease and a shadow's edge are lighter
    ink: float = 0.16
    # [darkness 0-1] darker is a mark's dark core, which a grey wash (a mistake rubbed out) lacks
    core: float = 0.2
    # [darkness 0-1] darker is a faint trace: a light stroke blurred under `ink`
    faint: float = 0.08
    # [times] the least contrast `core` and `faint` are scaled by (`levels.contrast`)
    contrast: float = 0.6
    # [px] a stroke's dark core at least, to count as a stroke: a crease or a shadow's edge has none
    core_px: int = 4
    # [px] ink a row or column of the inside holds to count in its spread: a speck holds less
    spread_px: int = 2


@dataclass(frozen=True)
class Pencil:
    """In a grid cell (a garden's), colour counts as ink too: a light orange stroke is barely
    darker than the paper, but plainly coloured. A dark, noisy photo shows its bare paper as
    coloured as a stroke: colour is only what is more saturated than most of the bare paper
    (`levels.paper_floor`); a colour pencil rubbed out leaves a tint a little more coloured
    than the paper's chroma blotches, a stroke is far more coloured."""

    # [saturation 0-1] a grid cell's pixel more saturated is a colour pencil's, not the paper's
    ink: float = 0.1
    # [times the bare paper's saturation] more is a mark's core; a rubbed-out colour's tint is less
    vivid: float = 2.0


@dataclass(frozen=True)
class Mark:
    """How much ink, and placed how, marks a box (`verdict.decide`): ink that spreads over the
    inside, that a stroke the box holds makes, that is too much to stray in, that is a long piece
    of stroke, or that crosses the middle; with a dark core. A stroke straying in from the next
    box stays in a corner or along an edge; a soft shadow (a die's beside the box) or a wide grey
    smudge darkens a box as much as ink, but hardly anywhere as dark as a stroke's core."""

    # [share of the inside] ink up to this is none: the box is empty, or holds a trace
    empty: float = 0.012
    # [share of the inside] ink from this can mark the box by its amount
    marked: float = 0.035
    # [share of width and height] ink reaching this far across is a mark, not a stray on an edge
    spread: float = 0.6
    # [share of the inside] this much ink is no stroke straying in from the next box
    sure: float = 0.3
    # [share of the inside] inked by strokes the box holds (`strokes.held`): a small mark in it
    held: float = 0.05
    # [share of the box's diagonal] a piece of stroke this long inside the border: a big check's arm
    long: float = 0.5
    # [share of the ink] a dark core over this is a mark's; a soft shadow's or a smudge's is less
    grey: float = 0.1
    # [share of the middle] a trace over this is a stroke across the box, not one along its edge
    middle: float = 0.15
    # [share of the middle] a faint trace over this leaves no box empty: unsure
    faint: float = 0.02


@dataclass(frozen=True)
class Held:
    """Which strokes a box holds (`strokes.held`): those whose middle is in its inside, reaching
    little beyond the box. A small cross, a dot or a tick in a corner is held by its box, a big
    check overshooting two sides by the box its middle is in, a stroke straying in from the next
    box by that one; a thin line crossing the whole inside is a crease or a ruled line."""

    # [share of the box's size] a held stroke reaches at most this far beyond the box
    reach: float = 0.5
    # [share of the inside] a line crossing the inside thinner than this is a crease, held by no box
    thin: float = 0.35


@dataclass(frozen=True)
class Light:
    """Ink with a dark core that does not mark the box by its amount (`Mark`) marks it when it is
    a light stroke, its whole width a trace across the middle (a light pencil stroke on a blurred
    photo, only its centre line ink); with less ink than `Mark.marked`, also a stroke corner to
    corner over a printed icon that hides its middle, or one darker than the same icon in the
    boxes printed like it (the icon hides a stroke from the blank page, not from its siblings:
    `printed.unlike_siblings`). A mistake rubbed out has a trace but no dark core, a speck of
    noise a core but no trace, and a stroke straying in from the next box stays along an edge;
    with more ink, a neighbour's dark stroke straying in is unlike its siblings too."""

    # [share of the inside] a dark core over this: a light stroke's centre line, not a ghost
    core: float = 0.02
    # [share of width and height] a light stroke reaches this far across...
    spread: float = 0.35
    # [share of the middle] ...with a trace over this in the middle
    middle: float = 0.1
    # [share of width and height] a stroke from corner to corner reaches this far both ways...
    across: float = 0.8
    # [share of the middle] ...with a trace over this where an icon hides the rest
    across_middle: float = 0.04
    # [share of the inside] darker than its siblings over this: a light stroke over a printed icon
    unlike: float = 0.08


@dataclass(frozen=True)
class Wash:
    """A trace filling the middle round ink that does not spread, held by no stroke and none
    long, is a fold's dark line in a hand's soft shadow, no light stroke: a light stroke whose
    trace fills the middle is a scribble or a fill, and its ink spreads."""

    # [share of the middle] a trace over this fills the middle...
    middle: float = 0.5
    # [share of width and height] ...round ink reaching under this across the box: a shadow's band
    spread: float = 0.1


@dataclass(frozen=True)
class Dot:
    """A pencil pressed down in the box: all its ink in strokes the box holds, dark through, and
    a trace in the middle. A stroke straying in from the next box is not held; a mistake rubbed
    out is lighter than its ink; a board copy's cell, touching its neighbours, cannot tell a dot
    from a neighbour's stroke."""

    # [share of the inside] ink from this may be a dot...
    ink: float = 0.02
    # [share of the middle] ...with a trace over this in the middle...
    middle: float = 0.06
    # [share of the ink] ...held by the box and dark through, this much of it at least
    through: float = 0.9


@dataclass(frozen=True)
class Noisy:
    """A dark, noisy photo (its bare paper, or its empty boxes, as dark as ink) reads only clear
    marks: twice the ink, dark through; a mistake rubbed out leaves a grey smear that the raised
    ink level still takes for ink, little of it dark. A sharpened, noisy photo shows a faint
    trace in every box, and a JPEG's blocks and ringing show darkest beside the print: up to
    `noise` times what the photo shows in its empty boxes is its noise."""

    # [times Mark.marked] ink a mark shows at least on a noisy photo
    ink: float = 2.0
    # [share of the ink] dark through: a mark's core is over this, a rubbed-out smear's under
    through: float = 0.55
    # [times the photo's own] a faint trace or a darkness up to this is the photo's noise
    noise: float = 2.0


@dataclass(frozen=True)
class Pale:
    """A box with no ink is no empty box either when a paler trace off the print is a stroke: a
    hard pencil's tick pressed lightly, whose faint trace is a few pixels, or a light circle
    drawn wide of a round box's ring. A noisy photo's speckle joins into pieces as long, but its
    own level is high (`levels.pale_level`). A piece that long in an empty box is a stroke
    straying in, an icon's print shifted or a mistake rubbed out: unsure is no wrong read. In a
    grid cell or a board's cell (no print in it) the trace is looked for blurred: a light colour
    pencil's letter shows as little darker than the paper as a speckled photo's grain, but it is
    a stroke, and the grain blurs away; in boxes with print, strokes straying in reach too far."""

    # [times Ink.faint] a pale trace is darker than this...
    darkness: float = 0.6
    # [times the photo's own pale level] ...and than this
    over: float = 3.0
    # [share of the inside's diagonal] a pale piece this long is a stroke, not grain or ringing
    length: float = 0.15
    # [px] a pale piece this large at least counts
    pixels: int = 20
    # [px] a cell's darkness is blurred by a Gaussian this wide before its pale trace is looked for
    cell_blur: float = 1.5
    # [times Ink.faint] a cell's blurred trace darker than this is pale ink
    cell_darkness: float = 0.3


@dataclass(frozen=True)
class Caps:
    """The photo's own levels, taken from its boxes, capped by what its bare paper shows where a
    box would be: a sheet whose boxes nearly all hold a light stroke (a light hand, to the end of
    a game) shows a stroke in its median box, and those strokes would read empty; a clean photo
    whose boxes are nearly all marked shows a mark in its tenth lightest box, and would be read
    as a noisy one. A sharpened photo's boxes show a halo its bare paper does not: the caps
    apply only over a floor."""

    # [times the bare paper's] the photo's faint trace and pale level are at most this...
    times: float = 3.0
    # [share of the middle] ...where its faint trace is over this
    trace: float = 0.04
    # [darkness 0-255] ...and its pale level over this
    pale: float = 12.0
    # [mm] side of the squares of bare paper taken as blank boxes...
    square: float = 6.0
    # [share of the square] ...bare paper all over it, this much of it
    square_bare: float = 1.0
    # [times the bare paper's] an empty box's darkest twentieth is at most this (`levels.box_floor`)
    box_times: float = 3.0
    # [mm] side of the squares of bare paper that stand for a box there...
    box_square: float = 8.0
    # [share of the square] ...mostly bare paper, this much of it
    box_square_bare: float = 0.5
    # [count] such squares needed to tell
    box_squares: int = 5


@dataclass(frozen=True)
class Paper:
    """The bare paper, away from the print and the boxes, tells the photo's noise: an
    under-exposed, sharpened, JPEG-blocked photo shows noise as dark as pencil all over it, and
    ink is only what is darker than most of it. The squares whose own darkest share stands out
    from the others' are left out: a finger, a die or a pencil lying on the sheet is in a few
    squares, a photo's noise all over it, and unevenly (more in its shadows)."""

    # [mm] bare paper is this far at least from anything printed and from every box
    away: float = 1.0
    # [darkness 0-1] the blank page darker than this is print the bare paper keeps away from
    printed: float = 0.05
    # [mm] bare paper is this far within the page's edge
    edge: float = 5.0
    # [share] the bare paper's darkest share, left out of its floor: ink is darker than the rest
    darkest: float = 0.01
    # [px] bare paper needed to judge the photo by it
    pixels: int = 10_000
    # [mm] side of the squares the bare paper is judged in
    tile: float = 30.0
    # [px] bare paper a square holds, at least, to count
    tile_pixels: int = 2_000
    # [spreads] a square whose darkest share is this far over the others' median: something lies there
    off: float = 4.0
    # [share of the darkest square's] the least spread the squares are judged with
    least_spread: float = 0.01
    # [count] squares needed to tell one standing out
    tiles: int = 5


@dataclass(frozen=True)
class Washed:
    """A washed-out photo (over-exposed, or its print faded) shows its paper clipped white and its
    print mid-grey, and a soft pencil's light strokes as white as the paper: a box there is never
    read empty. A light stroke is lost only where the paper is clipped, not where it is grey, and
    a photo lit unevenly has both; a phone's local tone mapping (HDR) lifts the print as much, but
    leaves the paper grey and every mark plain to see."""

    # [share of the paper's brightness] print shown lighter than this (medians): washed out...
    printed: float = 0.49
    # [grey 0-255] ...where the bare paper shows this light or lighter
    paper: int = 230
    # [grey 0-255] a box whose paper shows this light or lighter (or too little of it) is not read empty
    clipped: int = 250


@dataclass(frozen=True)
class Print:
    """The blank page's print as the reader takes it: its darkness (0-1) tells print from paper,
    and where a stroke crossing it is hidden. A phone's local contrast (HDR) and sharpening show
    every icon darker than printed: that excess is print, not a noisy photo's ink in every box;
    a blurred photo's icons spread wider than printed, but no darker."""

    # [darkness 0-1] the blank page darker than this is print: text, lines, icons
    dark: float = 0.6
    # [darkness 0-1] the blank page (grown 2 px) darker than this hides a stroke crossing it
    hides: float = 0.3
    # [darkness 0-1] the blank page darker than this is some print: bare paper is 0.5 mm from it
    some: float = 0.1
    # [share of the print in the box] ink covering this much of it is the print shown darker...
    covered: float = 0.25
    # [times] ...when the paper round it holds this many times less
    beside: int = 4
    # [darkness 0-1] the page's icons shown this much darker than printed are taken as dark as shown
    darker: float = 0.06


@dataclass(frozen=True)
class Icon:
    """Light print in a box (an icon in dropout colours) as the photo shows it: fitted against
    the blank page, sharp and blurred as the photo is, so that a stroke over it is ink and the
    icon is not. A photo that shows an icon lighter than the blank page hides a light stroke
    over it, were the blank page's icon taken from it."""

    # [darkness 0-1] the blank page darker than this (and lighter than Print.dark) is light print
    light: float = 0.05
    # [px] light print at least this far from the dark print
    away: int = 4
    # [px] light print, away from its edges, needed to fit it
    pixels: int = 40
    # [px] how the photo shows it is fitted over the inside and this far round it
    near: int = 12
    # [px] the blank page blurred by each of these, the one the photo fits best taken
    blurs: tuple = (1.0, 2.0, 3.0)
    # [spreads] a pixel darker than the fit by this much is a mark's, left out of the fit
    mark: float = 2.5
    # [times] the photo's spread over its icons' fits that is still the icon
    spread: float = 2.0


@dataclass(frozen=True)
class Siblings:
    """A box compared with the boxes printed like it (`printed.unlike_siblings`): their per-pixel
    median is the icon as this photo shows it, marks and all left out (a mark is in few boxes,
    and seldom at the same place)."""

    # [count] boxes printed alike needed to compare with
    least: int = 4
    # [correlation -1..1] print matching better than this is the same icon
    alike: float = 0.9
    # [darkness 0-1] print varying less than this (its standard deviation) is too plain to match
    plain: float = 0.05


@dataclass(frozen=True)
class Shift:
    """Where a box's print is in the photo (`printed.box_shift`): the page is moved onto the blank
    page square by square (`Align`), which can leave a box near the page's edge or a curl a little
    off, its printed icon or text then read as ink."""

    # [px] a box's print is looked for this far from where the page says (0.75 mm)
    px: int = 6
    # [correlation -1..1] a match under this is none
    match: float = 0.5
    # [correlation] ...and it must beat where the page says by this
    clearer: float = 0.02
    # [darkness 0-1] print varying less than this (its standard deviation) is too plain to match
    plain: float = 0.05


@dataclass(frozen=True)
class Align:
    """A sheet is never quite flat (curled, creased, lifted at a corner) and the markers' corners
    are found to a pixel or so: the homography can leave the middle of the page a millimetre or
    two off. Each square of the blank page that holds print is looked for in the photo, and the
    photo moved by those shifts; a square matched a period off on a board of like cells, or along
    a line of text, would spread its wrong shift over its neighbours with nothing to match."""

    # [mm] side of the squares matched
    tile: float = 20.0
    # [mm] how far each is looked for
    reach: float = 3.0
    # [correlation] a square is moved only when it matches this much better than where the page says
    clearer: float = 0.01
    # [correlation -1..1] a match under this is none
    match: float = 0.5
    # [grey 0-255] a square of the blank page varying less than this is plain paper
    plain: int = 12
    # [mm] a square's shift this far from its neighbours' is a wrong match
    odd: float = 2.0
    # [count] neighbours a shift is judged against, at least
    neighbours: int = 4


@dataclass(frozen=True)
class Ring:
    """A round box (a pig bonus box, a colony step) circled: ink going round its centre along its
    printed ring, against the page's other round boxes, as a photo that shows a printed ring
    darker than the blank page shows them all so. A sheet at the end of a game has them all
    circled, so the page's floor counts up to `floor`. A box a mark goes round partly, or a light
    trace all the way, is circled: unsure, never empty. A thin pen circle drawn on the printed
    ring shows off it in runs, hidden by the print between them; a tick or a stroke straying in
    leaves one gap round the rest of the ring, and an arc round the box beside it bends round
    that box and leaves the ring."""

    # [share of the way round] ink going this far round: a mark's core marks, other ink leaves unsure
    round: float = 0.7
    # [share of the way round] ...this much more than round the page's round box showing least
    over: float = 0.5
    # [share of the way round] the page's floor counts up to this: a sheet of circled boxes
    floor: float = 0.3
    # [share of the way round] a mark off the print this far round, a trace `round`: a circle off-centre
    part: float = 0.5
    # [times the ink's darkness] a light trace round a box is this dark
    light: float = 0.5
    # [mm] the ring's band reaches this far inside the printed ring...
    inside: float = 1.0
    # [mm] ...and this far outside it
    outside: float = 1.5
    # [sectors of 36] a stroke along the ring is followed under its print this far at most...
    under: int = 6
    # [mm] ...from where it comes this near the printed line, on both sides
    under_near: float = 1.0


@dataclass(frozen=True)
class Trace:
    """A stroke round a box followed where the print hides it (`rings.traced`): a pencil circle
    drawn tight round a box runs over its printed border and over the next box's. A stroke
    straying in from the next box shows in a few sectors or on one side; the print round a box
    in a grid is everywhere; a photo's specks and a halftone's dots shifted off the print are
    smaller than a stroke's pieces; a felt-tip circle drawn wide crosses the next boxes' rings,
    but not deep into their insides, where their own marks are."""

    # [share of the way round] a stroke shows off the print this far round, at least, to be followed
    round: float = 0.25
    # [sectors of 36] ...never more than this many apart
    gap: int = 18
    # [mm] a stroke round the box crosses a sector within this; one pointing at the box runs along it
    width: float = 1.2
    # [mm²] one piece of it this large at least: specks are smaller
    stroke: float = 0.5
    # [px] a stroke reaching this far into another box's inside is that box's mark
    deep: int = 6
    # [px] pieces of a mark's dark ink under this do not count round a box: salt noise, a shifted print
    speck: int = 6
    # [mm] the box's own print grown by this is not a stroke round it
    own: float = 0.25
    # [mm] a gap between two sectors is hidden where the way between them passes this near the print
    hidden: float = 0.4
    # [mm] a run of sectors bends round a centre this near the box's edge: a circle round the next box does not
    bend: float = 1.0
    # [px] a sector holds a stroke with this many of its pixels
    sector_px: int = 2
    # [sectors] a run shorter than this is too short to tell its bend
    short_run: int = 3


@dataclass(frozen=True)
class Around:
    """A square box circled: a mark's dark core round it outside (a circle round the box; a
    circle round a group of boxes goes round those boxes once all are ticked), or a stroke round
    inside it along its border, its middle bare. Ink round a box that does not stand out from the
    page's square boxes is their printed border, which a sharpened photo shows darker."""

    # [share of the way round] a dark stroke going this far round it outside marks the box
    round: float = 0.8
    # [share of the way round] ...this much more than round the page's square boxes (their median)
    over: float = 0.5
    # [mm] round a box is looked for up to this far beyond its corners
    reach: float = 2.5
    # [share of the way round] a stroke inside the border going this far round marks the box...
    inside: float = 0.75
    # [share of the way round] ...this much more than inside the page's square boxes
    inside_over: float = 0.5
    # [mm] inside is within the printed border by this...
    border: float = 0.3
    # [share of the half-side] ...and this far out from the centre: a tick reaches a few directions
    hollow: float = 0.3


@dataclass(frozen=True)
class Tint:
    """Colour in a box's bare inside (0.5 mm from any print): a highlighter's fill is as light as
    the paper in grey, but coloured, and a pencil's even shading grey; a player who colours every
    box leaves the page's median a fill, so the floor counts up to `floor`. A stain or a cast of
    light colours the paper round the box as much as its inside, and a shadow falls on it as
    well; a highlighter runs over the border on a side or two. A coloured dot on a pale printed
    icon is hidden by the print's darkness, not by its saturation; a printed number's or ring's
    thin coloured lines show more saturated than the blank page draws them, a tick box's icon not."""

    # [share of the bare inside] coloured over this (and `over` over the page's median): not empty
    coloured: float = 0.5
    # [share of the bare inside] ...this much more than the page's boxes' median
    over: float = 0.4
    # [share of the bare inside] the page's median counts up to this: a sheet of highlighted boxes
    floor: float = 0.1
    # [share of the bare inside] plainly coloured, or shaded, over this is a fill: marked...
    fill: float = 0.9
    # [share of the paper round it] ...when this much at most of the paper round the box is coloured
    spill: float = 0.5
    # [darkness 0-1] a pixel darker than the paper round it by this (both against the blank page) is shaded
    shade: float = 0.15
    # [saturation 0-1] more saturated than the blank page prints it by this is coloured ink over the print...
    over_print: float = 0.2
    # [share of the inside] ...and over this much of a tick box's inside leaves it not empty
    over_share: float = 0.04
    # [mm²] bare inside needed to judge a box's colour: a ladder step's is mostly print
    bare: float = 2.0
    # [mm] the paper round a box starts this far out...
    near: float = 0.5
    # [mm] ...and reaches this far
    reach: float = 2.5
    # [mm²] such paper needed to judge (a board copy's cells touch)
    paper: float = 1.0


@dataclass(frozen=True)
class Hue:
    """A garden cell's vegetable from its ink's hue (OpenCV's, 0-180); a hue between two ranges is
    '?', never guessed. Red and orange lie close: a red pencil shows 178-2 and an orange one 12,
    but under a warm lamp and a phone's tone mapping red shows up to 9 and orange 18-27, so 5-9
    is between them. Pink is no red (161-167, a crimson 174), and brown no orange: an orange
    pencil, felt-tip or crayon shows nearly as bright as the paper."""

    # [hue 0-180] the ranges of each vegetable's ink: tomato, carrot, salad
    ranges: tuple = (("T", ((0, 5), (169, 180))), ("C", ((9, 25),)), ("S", ((35, 90),)))
    # [share of the paper's brightness] a carrot's hue this dark or darker is a brown: '?'
    brown: float = 0.6
    # [length 0-1] the ink's hues agree this closely (their mean direction's length), or '?'
    agree: float = 0.85
    # [px] pixels of ink needed to tell a colour
    pixels: int = 10
    # [saturation 0-255] a pixel more saturated than this is coloured...
    saturation: int = 45
    # [value 0-255] ...when brighter than this
    value: int = 50
    # [share of the ink] coloured pixels needed, or '?'
    coloured: float = 0.35


@dataclass(frozen=True)
class Bilevel:
    """An image in black and white only (a scanner's or an app's B&W mode): its print is black
    wherever the blank page was darker than the mode's threshold, which is not known, so the
    blank page is taken with all its print black, where no mark is looked for. A dark photo in
    colour is black or white far less, a washed-out one black far less."""

    # [share of the pixels] black or white over this...
    share: float = 0.85
    # [share of those not white] ...and black over this: a black-and-white image
    black: float = 0.5
    # [grey 0-255] a pixel this dark or darker is black
    black_level: int = 10
    # [grey 0-255] a pixel this light or lighter is white
    white_level: int = 245
    # [grey 0-255] the blank page darker than this is black in such an image
    printed: int = 248


@dataclass(frozen=True)
class Balance:
    """The light's colour divided out (a warm lamp, the blue of a shade) by the paper nearby,
    where the blank page is white, so that a pencil's hue is its own."""

    # [grey 0-255] the blank page lighter than this is white paper
    white: int = 245
    # [grey 0-255] paper seen darker than this tells no colour of the light
    dark: int = 20


@dataclass(frozen=True)
class Lying:
    """Something lying on the sheet (a meeple, a pencil, a finger; not a mark): dark against the
    paper's light round it, solid, out in the open away from every box, with what is as dark and
    joined to it (a meeple's arm, a pencil's tip). No stroke is that wide, and a fill or a mark
    straying over a border stays by its box. A box's darkness is measured against the paper
    within 1.5 mm, and shows only such a thing's edge: its boxes are unsure."""

    # [share of the paper's light] darker than this
    dark: float = 0.7
    # [mm] solid: this far from anything lighter
    solid: float = 1.5
    # [mm] ...over `area`, this far at least from every box
    away: float = 1.5
    # [mm²] ...this large at least
    area: float = 20.0
    # [mm] with the dark pieces joined to it within this
    joined: float = 4.0
    # [share of white] the blank page darker than this joins them across the print
    printed: float = 0.9


@dataclass(frozen=True)
class Near:
    """A box stands out from the page's others of its kind, and from the boxes printed alike round
    it too: a phone's portrait mode blurs one part of the page, and every border there shows as
    thick ink inside it."""

    # [mm] boxes printed alike within this, centre to centre, are its neighbours
    reach: float = 25.0
    # [count] neighbours needed to compare with
    least: int = 2
    # [share of its size] a box this near its size is printed alike
    size: float = 0.1


@dataclass(frozen=True)
class Crease:
    """A sheet folded for the pocket shows its fold as a thin grey line across the page, a faint
    trace in every box it crosses; no pencil mark is a straight line that long."""

    # [mm] a faint straight line this long is a crease...
    length: float = 40.0
    # [mm] ...its pieces joined over gaps up to this
    gap: float = 1.5
    # [share of the page] a faint part larger than this is a noisy photo's: no crease looked for
    noisy: float = 0.05


@dataclass(frozen=True)
class Markers:
    """The four ArUco scan marks (1 mm cells, small and often blurred) read tolerantly: only ids
    0-3 are taken, all four must be there, and the QR code must agree. A marker the detector
    misses is looked for where the others say it is, enlarged; then as a dark square of the size
    and slant they say, its cells matched with its bits when the others fix it only roughly (two
    markers on one edge of a tilted photo, three blurred ones). A photo of several sheets makes
    one sheet of each four markers that fall where a sheet prints them."""

    # [px of the photo] photos are searched for the markers at most this large
    max_side: int = 2000
    # [times] ...then, while some are missing, enlarged by each of these in turn...
    zooms: tuple = (1.5, 2.5, 3.0)
    # [px of the photo] ...to this large at most
    max_zoomed: int = 5000
    # [share of the image's perimeter] the detector takes markers this small
    perimeter: float = 0.01
    # [px] the detector reads each cell at this size
    cell_px: int = 8
    # [share of the border's bits] the detector lets this many be wrong
    border_bits: float = 0.5
    # [share] the detector's error correction
    correction: float = 0.8
    # [px of the photo] a missed marker's piece is enlarged to this many pixels a side...
    zoom_side: float = 48.0
    # [times] ...this many times at most
    zoom_most: float = 6.0
    # [times the others' side] a marker found enlarged is at least this large...
    size_least: float = 0.6
    # [times the others' side] ...and at most this
    size_most: float = 1.6
    # [marker sides] a dark square is looked for up to this far from where the others say
    reach: float = 5.0
    # [marker sides] ...taken without its cells within this of where three markers say
    near: float = 0.5
    # [marker sides] ...each corner within this of where they say
    corner: float = 0.25
    # [side²] ...its area from this...
    area_least: float = 0.5
    # [side²] ...to this
    area_most: float = 1.8
    # [share of its outline] its outline straightened into a square by this
    outline: float = 0.08
    # [correlation -1..1] its cells match the marker's bits over this, better than any other's
    cells: float = 0.7
    # [grey 0-255] cells varying less than this show no bits
    plain: float = 1.0
    # [share of a marker's side] four markers make a sheet when each falls where it prints them to this
    group: float = 0.3
    # [mm] width of the usual sheet, where the QR code is looked for before the layout is known
    sheet_width: float = 194.0
    # [mm] ...and its height
    sheet_height: float = 263.0


@dataclass(frozen=True)
class ByPrint:
    """A page known by its print when its QR code cannot be read, or checked against it: the photo,
    small and smoothed, against every page it could be. A layout's variant matches its page almost
    as well, and the two are told apart where their print differs; a box moved by a millimetre is
    no difference, as a photo mapped by its scan marks only can be that far off."""

    # [correlation -1..1] the best page matches this well at least (a page in shadow, out of focus: 0.7)
    like: float = 0.6
    # [correlation] pages within this of the best are told apart where their print differs...
    close: float = 0.1
    # [-1..1] ...the page taken beating each of them there by this (`markers.better_match`)
    apart: float = 0.2
    # [correlation] a page of another size is beaten by this over the whole page
    by: float = 0.015
    # [mm] print one page has and the other has nothing of within this is where they differ
    unique: float = 2.0
    # [darkness 0-1] darker than this on the small page is print
    printed: float = 1 / 3


@dataclass(frozen=True)
class QrCode:
    """The QR code, read module by module when no decoder reads it (a shaken phone smears its
    modules into each other): its three finder patterns give the grid."""

    # [modules] the sizes tried in turn: versions 3, 4, 2 and 5, what 20 to 100 characters need
    modules: tuple = (29, 33, 25, 37)
    # [mm] its finder patterns are looked for this far from where the page puts them
    reach: float = 1.0
    # [correlation -1..1] a finder pattern matches this well at least
    finder: float = 0.3


@dataclass(frozen=True)
class BlankSide:
    """A page of bare paper (the back of a one-sided sheet in a duplex scan): a sheet's print is a
    few percent of it."""

    # [share of the page] dark pixels under this: bare paper
    dark: float = 0.001
    # [share of each side] the page's edge left out: a scanner's dark edge, a lid's shadow
    edge: float = 0.05
    # [grey 0-255] a pixel this much darker than the paper (its 95th percentile) is dark
    levels: int = 60


@dataclass(frozen=True)
class PdfPages:
    """A scanner's PDF page drawn at its image's resolution, within bounds; a page holding no
    image (a sheet marked in a PDF app) at its own."""

    # [dpi] a page's image drawn at this at least...
    least: int = 150
    # [dpi] ...and at most this
    most: int = 250
    # [dpi] a page holding no image
    plain: int = 200


@dataclass(frozen=True)
class Numbers:
    """When a number written by hand is kept (sheetgen.scan.written): a wrong number kept costs
    a player points unseen, a '?' only a moment's typing, so a reading is kept only when the
    recogniser is sure of its least sure character; surer still when the writing runs across
    the box's border (what the print hides of it may change a digit). A page holds a bounded
    number of boxes, each of a bounded size: a stranger's layout cannot make the reader work
    without end. `sure` is chosen on the bench (python -m bench.numbers)."""

    # [share 0-1] a number is kept when the recogniser's least sure character (sheetgen.scan.ocr) is this sure
    sure: float = 0.9
    # [share 0-1] the least sure a number written across its box's border (a 0 over its caption) is kept
    across_sure: float = 0.998
    # [share 0-1] the recogniser's 1 this sure, its ink one straight upright stroke: a 1
    one_sure: float = 0.4
    # [share 0-1] the recogniser this sure of a number the digit classifier reads alike: kept
    agreed_sure: float = 0.7
    # [share 0-1] ...this sure, of a number the classifier reads alike `GLYPHS.surest`: kept
    agreed_least: float = 0.4
    # [numbers] off a number the sheet's sums settle, each of which the sheet must disagree with
    pins: tuple = (-1, 1, 10)
    # [count] number boxes read on one page at most (a 12-player pad has ~100)
    max_boxes: int = 600
    # [mm] a box longer than this on a side is not read (its number is to type)
    max_box: float = 60.0


@dataclass(frozen=True)
class Glyphs:
    """How the writing of a number is cut into its digits and each drawn for the digit
    classifier (sheetgen.scan.digits): a speck of noise is no piece, a stroke above another
    (a 5's flag, a 4 in two strokes) is the same digit's, and every digit is drawn with
    strokes of one thickness, as the classifier learnt them, whatever the pen."""

    # [share of the writing's height] a piece of ink smaller on both sides is a speck
    speck: float = 0.25
    # [share of the narrower's width] pieces sharing this much of their width are one digit's
    overlap: float = 0.5
    # [share of a digit's height] the thickness its strokes are drawn at, at least
    stroke: float = 0.14
    # [probability 0-1] the classifier this sure of each digit the recogniser read: they agree
    sure: float = 0.8
    # [probability 0-1] the classifier this sure of each: they agree where the recogniser is far less sure
    surest: float = 0.98
    # [probability 0-1] the classifier this sure of a 6 where the recogniser read 5, or of a 5: a doubt
    five_six: float = 0.5
    # [share of the writing's height] a piece this low at most, twice as wide as high or more, is a minus
    minus: float = 0.4
    # [share of the tallest's height] a number's shortest digit at least: digits are written alike (not 15 for 5)
    even: float = 0.4
    # [share 0-1] the classifier this sure of another digit than the recogniser's, not all but certain: '?'
    differ: float = 0.9
    # [times the thinnest's stroke] a number's boldest digit at most: a pen writes its digits alike (not a blot)
    bold: float = 2.0


@dataclass(frozen=True)
class Digits:
    """What the ink of a number must look like for the recogniser's reading to be kept: as wide
    as its digits written, as many pieces, the loops its digits close (a 0 misread for an 8
    whose loop the print hides, a 6 or a 9 leaves its loop at one end), and a 1 one straight
    upright stroke (the recogniser hesitates between a 1, an l, an I and a bracket)."""

    # [share of its height] a written digit's width at least
    narrow: float = 0.3
    # [share of its height] a written digit's width at most (with the space after it)
    wide: float = 1.4
    # [share of its height] a written 1's width at least (a stroke)
    one_narrow: float = 0.05
    # [share of its height] a lone 1 this wide at most where a minus may go before it (wider: a minus joined to it?)
    one_signed: float = 0.5
    # [share of the box's height] a 1 written across the border this tall at least (else a stroke poking in)
    one_tall: float = 0.4
    # [count] pieces of ink a character at most (a 4 or a 5 in two strokes, a dot of noise)
    pieces: int = 3
    # [share of the writing's area] a hole smaller is a pencil's grain, not a loop
    loop: float = 0.01
    # [share of the writing's height] a break in a loop's stroke this wide at most closes it (a pen skipping)
    skip: float = 0.1
    # [share of a lone 0's height] its loop at least
    zero_loop: float = 0.45
    # [share of a lone 0's loop's widest] its middle at least (an 8 whose waist is open is narrower there)
    zero_waist: float = 0.6
    # [share of a lone 0's height] the ink above its loop and below differ at most (a 6's tail, a 9's)
    zero_even: float = 0.12
    # [degrees] from upright a 1's stroke leans at most
    upright: float = 30.0
    # [times its thickness] a 1's stroke this many times longer than thick
    stroke_aspect: float = 4.0
    # [px] how far a straight stroke's pixels stray from its line, past half its thickness
    straight: float = 1.5


@dataclass(frozen=True)
class Writing:
    """Which ink of a page is the writing in a number box (sheetgen.scan.inked): darker than
    the paper round it by more than its noise, not the print (the blank page says where it is,
    a photo maps it within a pixel or two and blurs it), not a speck, and the box's own: most
    of a stroke's ink in the box, not all along a printed line (the line's halo in a blurred
    photo). A neighbour's number may run into a box, and a box's writing run over its border:
    the box is looked at with a margin round it, and ink well into it but mostly elsewhere
    leaves the box to type. A trace too faint to read leaves an empty box to type, not empty."""

    # [share of the box's smaller side] round it: where its strokes may run over, and a neighbour's is seen whole
    reach: float = 0.6
    # [share of a stroke's ink] in the box: the box's stroke (else a neighbour's, running over)
    own: float = 0.5
    # [share of a stroke's ink] in the box, the rest elsewhere: writing run through it, whose is unknown
    across: float = 0.25
    # [share of the box's side] a piece of ink mostly out of the box reaching further out is another box's digit
    tail: float = 0.3
    # [mm²] of another box's stroke deep in the box (past its border's halo): run through it
    through: float = 1.5
    # [share of a stroke's ink] within `halo` of a printed line: the line's halo, not a stroke
    hug: float = 0.8
    # [mm] print this long and straight is a line (a box's border), not a caption
    line: float = 3.0
    # [px] round a printed line where a blurred photo shows it still (no faint trace is looked for there)
    halo: int = 3
    # [grey level 0-255] a blank page's pixel darker than this is print (lighter: paper, or a box's light fill)
    print: int = 200
    # [px] round the print taken as dark as it (the page mapped within a pixel or two, blur)
    print_grow: int = 2
    # [share of the writing's height] its top, where a stroke run into the print may be a digit's bar or stem
    top: float = 0.25
    # [px] of such print next to the writing at least: a stroke may run under it
    hidden_px: int = 3
    # [px] ...this much: a stroke of any digit may run under it (a 3's top under a caption reads 5)
    hidden_much: int = 80
    # [share of its ink] out of the box and its border at most: further, a stroke of the next box's may join it
    spill: float = 0.15
    # [grey levels] under the paper's: ink (`ink_noise` times the paper's noise, if more)
    ink: int = 30
    # [times the paper's noise] under the paper's: ink, when more than `ink` (a noisy photo's grain is not)
    ink_noise: float = 5.0
    # [share of `ink`] a trace this dark, over `faint_area`, leaves an empty box to type
    faint: float = 0.5
    # [mm²] of faint traces in a box that says something may be written
    faint_area: float = 1.0
    # [mm²] of faint traces away from a lone 1 in its box: the rest of another digit may be too faint to see
    faint_part: float = 0.5
    # [mm²] of faint traces or specks before the writing, level with its middle: a light pencil's minus, or 1?
    faint_before: float = 0.3
    # [mm²] a piece of ink smaller than this is a speck of dust or noise
    speck: float = 0.35
    # [mm] of bare paper between two lines of writing (a box of several numbers)
    line_gap: float = 0.8


@dataclass(frozen=True)
class Struck:
    """When a number is crossed out (a number struck through, scribbled over or blotted out, the
    right one beside it): a straight stroke across the writing, longer than a digit's own bar (a
    7's, a 4's joins its diagonal); a row of strokes closer than a digit's; ink thicker than a
    digit's stroke. A number crossed out is never read; the one written after it is, when clearly
    apart from it (bare paper between, none before it), else the box is left to type."""

    # [share of the writing's height] a stroke across it at least this long
    long: float = 0.8
    # [share of the writing's height] how far past a stroke it runs
    past: float = 0.12
    # [degrees] the slants a strike is looked for at besides level (a hand strikes a number aslant)
    slants: tuple = (-18.0, -12.0, -6.0, 6.0, 12.0, 18.0)
    # [share of the writing's height] a strike crossing one stroke starts this far before the rest of the writing
    lead: float = 0.15
    # [share of the writing's height] ink this near above or below a strike's end touches it (a 4's bar)
    ends: float = 0.3
    # [share of the height of the writing it joins] a level stroke this long over, under or through it
    over: float = 1.2
    # [count] strokes across one row, within the writing's height: a scribble
    zigzag: int = 5
    # [share of the writing's height] ink this thick (from its inside to its edge) is a blot
    blot: float = 0.2
    # [times the pen's stroke] ...and this many times it thick (small writing's strokes are thick for its height)
    piled: float = 2.0
    # [times the pen's stroke, the middle of its strokes] ink this thick is a blot too (a felt-tip's 1 blotted out)
    thick: float = 3.0
    # [share of the writing's height] a blot this wide and `thick` at least is a number blotted out (narrower: a 1?)
    blot_wide: float = 0.25
    # [share of its bounding box] ...and covering this much of it (a digit's loop filled in, a 4's, far less)
    blot_fill: float = 0.5
    # [share of the crossed-out writing's height] what a strike or a scribble crosses out runs out of it at most
    covers: float = 0.06
    # [share of the crossed-out writing's height] bare paper between it and the number written after it, at least
    apart: float = 0.05
    # [share of the crossed-out writing's height] the number written after it this tall at least
    rest: float = 0.5
    # [share 0-1] of what it crosses out, ink at least, for the number after it to be read (a scribble covers it)
    covered: float = 0.25


INSIDE = Inside()
INK = Ink()
PENCIL = Pencil()
MARK = Mark()
HELD = Held()
LIGHT = Light()
WASH = Wash()
DOT = Dot()
NOISY = Noisy()
PALE = Pale()
CAPS = Caps()
PAPER = Paper()
WASHED = Washed()
PRINT = Print()
ICON = Icon()
SIBLINGS = Siblings()
SHIFT = Shift()
ALIGN = Align()
RING = Ring()
TRACE = Trace()
AROUND = Around()
TINT = Tint()
HUE = Hue()
BILEVEL = Bilevel()
BALANCE = Balance()
LYING = Lying()
NEAR = Near()
CREASE = Crease()
MARKERS = Markers()
BY_PRINT = ByPrint()
QR = QrCode()
BLANK_SIDE = BlankSide()
PDF_PAGES = PdfPages()
NUMBERS = Numbers()
DIGITS = Digits()
GLYPHS = Glyphs()
WRITING = Writing()
STRUCK = Struck()
