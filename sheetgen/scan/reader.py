"""Read a photographed or scanned sheet: fiducials, QR code, homography, box by box.

The sheet's scan marks (sheetgen.layout.scanmarks) are found with OpenCV's ArUco
detector; the QR code names the layout; the photo is mapped onto the page in
millimetres and every markable box is compared with the blank page rendered from
the same display list, so what is printed inside a box is never taken for a mark.
Each box reads marked, empty or unsure; unsure boxes are never guessed.

OpenCV and numpy are the optional extra `sheetgen[scan]`: they are imported here,
and only when a sheet is read.
"""

from __future__ import annotations

import functools
import io
import itertools
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from sheetgen.errors import RecordError, UsageError
from sheetgen.layout import scanmarks

PPMM = 8.0  # pixels per millimetre of the rectified page (~200 dpi)
MARKED, EMPTY, UNSURE = "marked", "empty", "unsure"
# a box's ink score (the share of its inside darker than the blank page by a clear
# margin): above HIGH it is marked, below LOW empty, between unsure
LOW, HIGH = 0.012, 0.035
COLOUR_INK = 0.1  # HSV saturation above which a grid cell's pixel is pencil (read_photo)
# ...and its colour is a mark's core where more than VIVID times as coloured as the bare
# paper (see `paper_floor`): a colour pencil rubbed out leaves a tint as coloured as a
# phone's chroma blotches on the paper and a little more, a stroke is far more coloured
VIVID = 2.0
# ...marked only if that ink spreads over the box (SPREAD of the inside's width and of
# its height), or there is so much of it (SURE) that it cannot be a stroke straying in
# from a neighbouring box: ink in a corner or along one edge is unsure, never marked
SPREAD, SURE = 0.6, 0.3
# ...or strokes the box holds (see `held`: their middle in the inside, reaching at most HOLD
# of the box's size out of it, not a THIN line crossing it) ink HELD of its inside
HOLD, THIN, HELD = 0.5, 0.35, 0.05
# ...or a piece of stroke inside the box's printed border (which cuts strokes: the print is
# taken away) reaching the middle of the inside, with a dark core, as long (its extent's
# diagonal) as LONG of the box's diagonal: the arm of a big check crossing its box, whose
# strokes join those of the checks in the next cells; the tip of a neighbour's check that
# strays in from a corner is shorter
LONG = 0.5
# ink over PRINTED_INK of what is printed in a box is the print itself, darker than on the blank page
PRINTED_INK = 0.25
SHIFT = 6  # px (0.75 mm): how far from where the page says a box's print is looked for (box_shift)
SIBLINGS = 4  # boxes printed alike, at least, to compare a box with (unlike_siblings)
# darkness over the paper: ink above INK; a mark has a core darker than CORE (or, in a
# grid cell, coloured: a colour pencil is not a smudge), which a grey wash (a mistake
# rubbed out) has not
INK, CORE = 0.16, 0.2
# the photo's own faint trace and pale level (see `photo_trace`, `pale_level`), from its boxes,
# are never more than BARE_TRACE[0] times the bare paper's (squares of BARE_TRACE[3] mm, see
# `paper_traces`) where that is over BARE_TRACE[1] (a trace's share), BARE_TRACE[2] (pale,
# 0-255): the tenth generator's seed 2 photo 24, a village nearly all built in light HB ticks,
# nine of them over icons, read empty (its boxes' pale level 30, its bare paper's 2). Of 480
# photos of ten generators, 9 marks read empty then read unsure, and 7 empty boxes too; a
# trace's share capped at 0.01 made 59 empty boxes unsure (sharpened photos whose boxes show a
# halo the bare paper does not), for the one more mark
BARE_TRACE = (3.0, 0.04, 12.0, 6.0)
# a box is only read empty when it also holds no faint trace: a light pencil stroke blurred
# at a low resolution can stay under INK, but over FAINT on more than FAINT_LOW of the box it
# is no empty box (clean empty boxes stay under 0.01): it reads unsure, never empty
FAINT, FAINT_LOW = 0.08, 0.02
# ...nor when a paler trace (PALE[0] of FAINT's darkness, and over PALE[1] times the photo's own
# level: see `pale_level`) off the print is a stroke: a piece of PALE[3] pixels at least whose
# extent is PALE[2] of the inside's diagonal (see `pale_stroke`): a hard pencil's tick pressed
# lightly, on a clean photo, whose faint trace is a few pixels; a round box is no empty box
# either when that pale trace goes round it (RING, `round_about`: a light circle drawn wide of
# its ring). The seventh generator's seeds 1-2 (30 photos each) read 21 and 13 marks empty,
# 7 and 4 since; on 735 photos of six other generators no wrong read more, 3 fewer, and 0-30
# more boxes unsure a hundred photos, most of them a mistake rubbed out (its ghost is rightly
# unsure). A noisy photo's speckle joins into pieces as long, but its own level is high: the
# 99th percentile of the middle of its blank boxes (their median). PALE[2] was 0.25 at first:
# light ticks and crosses mostly hidden by an icon or blurred away still showed pieces 0.155-0.221
# long (10 marks read empty on the seventh generator's seeds 1-3 and the third's seed 3); an
# empty box's pieces that long are a stroke straying in from the next box, an icon's print shifted
# or a mistake rubbed out: unsure is no wrong read (of 805 photos of eight generators, 53,811
# boxes: 13 marks read empty now unsure, and 56 mistakes rubbed out and 28 empty boxes)
PALE = (0.6, 3.0, 0.15, 20)
# ...in a grid cell (no print in it), that paler trace is looked for blurred (a Gaussian of
# PALE_CELL[0] px) at PALE_CELL[1] of FAINT's darkness, over its page's cells' own level: a light
# colour pencil's letter or blob in a garden cell shows as little darker than the paper as a
# speckled photo's grain (the seventh generator's seed 4 photo 15: 0.02-0.04 where its bare
# paper's speckle reaches 0.03, four marks read empty), but it is a stroke, and the speckle
# blurs away. On 293 photos of six generators: those four unsure, and one empty cell and 13
# mistakes rubbed out (a ghost is rightly unsure). The same in every box made 88 blank boxes
# unsure for 4 more marks found (96 for 3 with the print's mask grown 3 px): boxes with print
# are smaller, and strokes straying in from the next box reach them
PALE_CELL = (1.5, 0.3)
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
# CORE and FAINT are scaled by the photo's contrast (see `contrast`), CONTRAST at least
CONTRAST = 0.6
# a photo whose print shows lighter than WASHED of its bare paper's brightness (the medians)
# is washed out (over-exposed, or its print faded): its paper is white and its print mid-grey,
# and a soft pencil's light strokes are as white as the paper. Its empty boxes are unsure, not
# empty (see `washed_out`). Of 700 photos of three generators, those that lost no mark show
# their print at most 0.46 of their paper (one at 0.48 lost one); the four over 0.49 (0.50 to
# 0.54) lost 2, 6, 22 and 24 marks
WASHED = 0.49
# ...and only when its bare paper shows WASHED_PAPER grey or lighter (of 255): a light stroke
# is lost only where the paper is at the top of the range, clipped white. A phone's local
# tone mapping (HDR) lifts the print as much, but leaves the paper grey (171-201 on three
# photos of the fourth generator, every mark plain to see; the washed-out ones 254-255)
WASHED_PAPER = 230
# ...and there, a box is not read empty where the bare paper round it or inside it shows
# CLIPPED grey or lighter (the lighter median, of 255), or where there is too little of it to
# tell (a grid's cells): a light stroke is lost where the paper is clipped white, not where it
# is grey, and a photo lit unevenly has both. On the 14 washed-out photos cached from the
# probe, the seventh and the eighth generators, the 55 marks that show nothing (all but one on
# the probe's four; the eighth's seed 1 photo 21 a light fill, its inside 243, round it 254)
# have paper 253-255, or none; 300 empty boxes on grey paper read empty, not unsure
CLIPPED = 250
# on a noisy photo (see `decide`) a mark's ink is dark through: its dark core THROUGH of it at
# least. A mistake rubbed out leaves a grey smear that the raised ink threshold still takes
# for ink, but little of it dark (probe seed 5 photo 57: 0.16-0.48 of it; the 244 marks of
# the probe's noisy photos 0.59-1.0, the lowest colour pencils in garden cells)
THROUGH = 0.55
# ...and a faint trace up to NOISE times the photo's own (see `photo_trace`) is the photo's
# noise (a sharpened, noisy photo): that box reads empty as its blank boxes do; so is a
# darkness up to NOISE times what the photo shows in an empty box (see `box_floor`)
NOISE = 2.0
# the bare paper (BARE mm from any print or box) shows darker (or more coloured) than
# INK (COLOUR_INK) in more than PAPER of it: the photo's noise, and ink is only darker than that
BARE, PAPER = 1.0, 0.01
BARE_PIXELS = 10_000  # ...judged only on this much bare paper at least
# ...without the squares this large (mm, holding this much of it) whose own darkest share stands
# out FLOOR_OFF spreads over the others' median (see `paper_floor`): a finger, a die or an eraser
# lying on the sheet (the ninth generator's seed 1 photo 15: the photo taken for a dark, noisy
# one, a light colour pencil hatch read empty). The squares' median itself was too low a floor
# where the noise is uneven (the probe's dark seed 5 photo 57: a mistake rubbed out read marked;
# the fourth's seed 3 photo 29 under a tungsten lamp: three empty garden cells unsure)
FLOOR_TILE, FLOOR_PIXELS, FLOOR_OFF = 30.0, 2_000, 4.0
# an empty box's darkest twentieth shows at most this many times what the bare paper's does in
# squares of a box's size, this many mm (see `box_floor`, `paper_boxes`)
BOX_PAPER = (3.0, 8.0)
# the blank page's print: where its darkness is over PRINT (text, lines, icons; see `contrast`)
PRINT = 0.6
# light print (an icon in dropout colours): darker than ICON[0], under PRINT, ICON[1] pixels of
# it at least away from its edges in a box; the photo's spread over how it shows it, ICON[2]
# times; how it shows it taken over the box's inside and ICON[3] px round it (see `icon_fit`)
ICON = (0.05, 40, 2.0, 12)
# ...and where the page's boxes show it DARKER than the blank page at its median darkness in the
# boxes (their median line, as printed), it is taken as dark as that line says: a phone's local
# contrast (HDR) and sharpening show every icon darker (the ninth generator's seed 1 photos 2 and
# 9: 0.13 and 0.12 darker, 13 empty boxes read marked; the seventh's 30 photos of seed 2 at most
# 0.033, a blurred photo's icons spread wider than printed)
DARKER = 0.06
ICON_BLUR = (1.0, 2.0, 3.0)  # px: the blank page blurred as the photo is, the best of these (see `icon_fit`)
# a round box is unsure, never empty, when ink goes RING[0] of the way round it along its
# printed ring (see `ringed`), RING[1] more than round the page's round box showing least (see
# `read_boxes`); marked when a mark's dark core does (a step circled on an Imperial Settlers
# colony ladder, a pig bonus box circled on a Harvest Dice sheet)
RING = (0.7, 0.5)
# ...but never over more than the round box showing least when that is over RING_FLOOR: a
# sheet at the end of a game has every pig bonus box, every colony step circled, and all read
# empty (the page's least a circle); of 418 photos of nine generators, no empty round box's
# ink went over 0.45 of the way round. A box whose ink goes RING[0] round, or AROUND[0] round
# a square one, standing out or not, is unsure, never empty (a player who circles every box)
RING_FLOOR = 0.3
# a square box is marked when a mark's dark core goes AROUND[0] of the way round it, outside it
# (see `round_outside`, `traced`), AROUND[1] more than round the page's square boxes' median: a
# circle drawn round the box (a circle round a group of boxes, the Imperial Settlers rules' for a
# finished bridge or a colony's sections, goes round those boxes once all are ticked). On 170
# photos (the fourth generator's seeds 1-2, the third's seed 3) 63 circles a person sees read
# unsure before, and no empty box's dark ink went 0.8 of the way round (three went 0.72-0.75:
# empty pig boxes between ticked ones on a third generator's photo); lighter ink: `circled`
AROUND = (0.8, 0.5)
# ...and a box is unsure, never empty, when a trace LIGHT_RING as dark as ink goes RING round it
# (a round box: along its printed ring, `ringed`, `traced`; a square box: `round_outside`,
# `traced`): a light pencil circle, blurred or drawn with a hard lead, shows as ink 0.47 of the
# way round (the fourth generator's seed 3 photo 16) and as a trace all the way. Of 405 photos
# (the fourth generator's seeds 1-3, the third's 3, the probe's 5), two empty boxes' traces
# went 0.81 of the way round, 0.56 over their page's median, and three light circles read
# empty went 0.72-1.0 round, their pages' median 0.04-0.06
LIGHT_RING = 0.5
# a square box is marked when a stroke goes ROUND[0] of the way round inside it (a circle
# drawn in the box, along its border: its middle is bare; see `round_inside`), ROUND[1]
# more than inside the page's square boxes (their median: a border every box shows as ink)
ROUND = (0.75, 0.5)
# ...and more than round the median of the boxes printed alike within NEAR[0] mm, NEAR[1] of them at
# least (see `standing_out`): a phone's portrait mode blurs one part of the page, and every border
# there shows as thick ink inside it (the ninth generator's seed 2 photo 8: three empty market
# boxes read marked, the page's median far under theirs)
NEAR = (25.0, 2)
# a box (not a grid cell) is unsure, never empty, when TINT[0] of the bare part of its inside
# (0.5 mm from any print) is coloured (over the paper's floor, `paper_floor`), TINT[1] more than
# the page's boxes' median: a highlighter's fill, as light as the paper in grey
TINT = (0.5, 0.4)
# ...the median counting up to TINT_FLOOR: a player who colours every box with a highlighter
# (more than half the page's boxes: its median a fill) had them all read empty; of 480 photos
# of ten generators, no empty box's inside was over 0.48 coloured
TINT_FLOOR = 0.1
# ...and marked when FILL of that bare part is plainly coloured (`vivid`: a highlighter's fill)
# while at most SPILL of the bare paper round the box is (see `spilled`): a stain or a cast of
# light colours the paper round the box as much as its inside, a highlighter runs over its
# border on a side or two (the fourth generator's: 0 to 0.59 of the paper round the box)
FILL, SPILL = 0.9, 0.5
# ...and marked when FILL of that bare part shows SHADE darker than the bare paper round the box
# (0.5-2.5 mm out, off every box's inside; each against the blank page's, see `shaded`): a box
# shaded evenly grey with a pencil. Its inside is mostly far from the paper, and ink is measured
# against the brightest paper nearby (see `_ink`): the shading is that paper, and shows no ink
# (the fifth generator's: a score of 0.003-0.025, 11 read unsure on its seeds 1-2). A shadow or a
# stain falls on the paper round the box as well
SHADE = 0.15
# a stroke round a box is followed where the print hides it (see `traced`) when it shows
# off the print TRACE of the way round at least, with no gap of over GAP sectors (of 36)
# between where it shows; a stroke round it shows in a sector within ROUND_WIDTH mm
TRACE, GAP, ROUND_WIDTH = 0.25, 18, 1.2
# a stroke along a round box's printed ring is followed under its print for HIDDEN_ARC[0] sectors
# (of 36) at most, from where it comes within HIDDEN_ARC[1] mm of it (see `_under_print`)
HIDDEN_ARC = (6, 1.0)
# ...and a piece of it STROKE mm² at least shows (a circle's arc between two printed lines;
# a photo's specks, the dots of a halftone shifted off the print, are smaller: the fourth
# generator's seed 1 photo 19, specks round an empty box, 17 px (0.27 mm²) the largest)
STROKE = 0.5
# ...and for a mark (AROUND), no piece under SPECK pixels shows it round the box: a photo's salt
# noise round an empty box, a check's arm from the next box and the print a curl shifted went
# 0.8 of the way round (probe seed 3 photo 58, seed 5 photo 34); a circle's pieces hidden all
# but a few pixels by the print leave the box unsure (fourth seed 2 photo 5)
SPECK = 6
# ...and a stroke is another box's mark when it reaches DEEP px (0.75 mm) into that box's inside
# (see `_showing`): a felt-tip circle drawn wide round a pig bonus box crosses the rings of the
# boxes above and below it, 0.5-0.6 mm into their insides (the seventh generator's seed 2 photo
# 22, read empty); a check in the next box is drawn across its middle
DEEP = 6
CREASE = 40.0  # mm: a faint straight line this long is a crease (see `creases`)
MAX_PDF_PAGES = 24  # pages read from one PDF at most: a game's sheets (12 players, 2 pages each)
PDF_DPI = (150, 250, 200)  # a PDF page is drawn at its image's resolution within these (or the last)
MAX_PDF_PIXELS = 16e6  # ...and never larger than this
MAX_PDF_TOTAL = 200e6  # pixels of all the pages of one PDF (24 A4 pages at 250 dpi: 146e6)
MAX_PHOTO_PIXELS = 110e6  # an image's pixels at most (a 108-megapixel phone's full-size photo), known before decoding
# a photo whose QR code cannot be read is recognised by its print (`recognise`): its best page
# must match LIKE at least (normalised cross-correlation, see `_small`; a photo in shadow and
# out of focus matched its page at 0.698, the game's other page at 0.44). Pages within CLOSE of
# it (a layout and its variant: the same page with a few things added or moved) are told
# apart where their print differs: the page taken beats each of them there by APART (see
# `_apart`, -1 to 1). Pages of another size are told apart by BY of the whole page.
LIKE, CLOSE, APART, BY = 0.6, 0.1, 0.2, 0.015
# ...where one page prints something (darker than SMALL_PRINT on the small page) that the
# other prints nothing of within UNIQUE mm: the variant's added boxes, a pre-checked box, a
# subtitle; not a box moved by a millimetre
UNIQUE, SMALL_PRINT = 2.0, 1 / 3
MAX_SIDE = 2000  # pixels: photos are searched for the markers at most this large
ZOOMS, MAX_ZOOMED = (1.5, 2.5, 3.0), 5000  # ...then, while some are missing, enlarged (to this many pixels at most)
ROUGH_SHEET = (194.0, 263.0)  # mm: the usual sheet, to find the QR code before the layout is known
QR_MODULES = (29, 33, 25, 37)  # versions 3, 4, 2, 5: what a payload of 20 to 100 characters needs
REACH_QR = 1.0  # mm: how far from where the page puts them a blurred QR code's finders are looked for
CORNERS = ("top left", "top right", "bottom right", "bottom left")
# a scan marker the detector cannot read is looked for as a dark square up to REACH_MARKER of its
# sides from where the others say, its cells correlating with its bits over CELLS (`_dark_square`):
# two markers on one edge of a tilted photo fix the far corners roughly (the eighth generator's
# seed 2 photos 15 and 26: 3.4 to 4.1 sides off; the sixth's seed 1 photo 26: 1.5)
REACH_MARKER, CELLS = 5.0, 0.7
# a photo of several sheets (printed two or four a page): four markers make one sheet when
# each maps onto where the sheet prints it, to GROUP of its side (see `_sheets`)
GROUP = 0.3
# ink colours of the Harvest Dice dice, as hue ranges (OpenCV hue, 0-180); a hue between two
# ranges is '?'. Red and orange lie close (an orange pencil at 12, a red one at 178-2): under
# a warm lamp and a phone's tone mapping the fourth generator's red pencils showed 6-8.6 and
# its orange ones 18-27, and two red cells were read carrots: 5-9 is between them
COLOURS = {"T": ((0, 5), (160, 180)), "C": ((9, 25),), "S": ((35, 90),)}
AGREE = 0.85  # how closely the ink's hues must agree (the length of their mean direction)
# a sheet is never quite flat (curled, creased, lifted at a corner) and the markers' corners
# are found to a pixel or so: the homography of the corners can leave the middle of the page
# a millimetre or two off. Each TILE mm square of the blank page that holds print is looked
# for within REACH mm in the photo, and the photo is moved onto the blank page by those shifts
TILE, REACH = 20.0, 3.0
CLEARER = 0.01  # ...a square is moved only when it matches that much better than where the page says
# ...and a square's shift ODD mm or more from its neighbours' is a wrong match, dropped (see `_outliers`)
ODD = 2.0
# an image in black and white only (a scanner's or a phone app's B&W mode): BILEVEL[0] of its
# pixels black or white (10 grey levels from either end) and BILEVEL[1] of those not white
# black. Its print is black wherever the blank page was darker than the mode's threshold, which
# is not known: the pale icons in the boxes turn black, or partly so at 150 dpi. The blank page
# is taken with all its print black (BILEVEL_PRINT grey levels or darker: see `bilevel_blank`):
# no mark is looked for on it. (Matching the mode's threshold on the paper round the boxes took
# a 150 dpi scan's half-black icons for marks.) Of 277 photos of six generators, the most black
# or white was 0.90 with a black share of 0.03 (a washed-out probe photo), the largest black
# share 0.46 with 0.46 black or white (a dark one); the eighth generator's B&W images 0.91 and
# 0.96 black or white, shares 0.62 and 0.82; its other 14 photos at most 0.78, shares 0.03
BILEVEL = (0.85, 0.5)
BILEVEL_PRINT = 248


def need_cv():
    """(cv2, numpy), or the UsageError that names the extra to install."""
    try:
        import cv2
        import numpy
    except ImportError:
        raise UsageError("sheetgen scan needs OpenCV and numpy: pip install 'sheetgen[scan]'") from None
    return cv2, numpy


class Unreadable(RecordError):
    """A sheet's QR code that no decoder reads (`recognise` may still know the page)."""


@dataclass
class Photo:
    name: str  # the file name, and the page number of a scanned PDF
    stem: str  # the player's name by default
    rgb: object  # numpy array, H x W x 3
    pdf: str = ""  # a PDF's page: the PDF's file name without its suffix (its pages are paired in turn)


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


def load_photos(path: str) -> list[Photo]:
    """The images in a file: a photo (EXIF orientation applied) or every page image of a PDF."""
    cv2, np = need_cv()
    from PIL import Image, ImageOps, UnidentifiedImageError

    from sheetgen.fileio import MAX_PDF_INPUT, read_input

    try:
        data = read_input(path, MAX_PDF_INPUT)
    except Exception as exc:  # noqa: BLE001 - a missing or unreadable file: one line
        raise RecordError(getattr(exc, "problems", None) or f"{path}: cannot read the file ({exc})") from None
    stem = Path(path).stem
    if data[:1024].lstrip().startswith(b"%PDF-"):
        return _pdf_photos(path, stem, data)
    too_large = (
        f"{path}: an image of over {MAX_PHOTO_PIXELS / 1e6:.0f} megapixels; sheetgen reads no larger: make it smaller"
    )
    try:
        with warnings.catch_warnings():  # Pillow's warning over 89 megapixels: MAX_PHOTO_PIXELS is ours
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))
        with im:
            if im.width * im.height > MAX_PHOTO_PIXELS:  # (the header's size: nothing decoded yet)
                raise RecordError(too_large)
            im = ImageOps.exif_transpose(im)
            if "A" in im.getbands() or "transparency" in im.info:  # transparent: on white paper
                im = Image.alpha_composite(Image.new("RGBA", im.size, "white"), im.convert("RGBA"))
            return [Photo(Path(path).name, stem, np.asarray(_eight_bits(np, im).convert("RGB")))]
    except Image.DecompressionBombError:  # (Pillow's own, over twice its limit, on opening)
        raise RecordError(too_large) from None
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise RecordError(f"{path}: not an image or a PDF that sheetgen can read ({exc.__class__.__name__})") from None


def _eight_bits(np, im):
    """An image of 16-bit (or 32-bit, or float) grey levels as 8-bit ones: a scanner's
    16-bit PNG. (Pillow's own conversion clips every level over 255 to white.)"""
    from PIL import Image

    if im.mode not in ("F", "I") and not im.mode.startswith("I;16"):
        return im
    levels = np.asarray(im, dtype=np.float64)
    top = 1.0 if im.mode == "F" and levels.max() <= 1.0 else 255.0 if levels.max() <= 255 else 65535.0
    return Image.fromarray(np.clip(levels * (255.0 / top), 0, 255).astype(np.uint8), "L")


def _pdf_photos(path: str, stem: str, data: bytes) -> list[Photo]:
    """Every page of a PDF as a picture, rendered by pdfium as a viewer shows it: a
    scanner's page image (at its own resolution, PDF_DPI at most; whether it is stored whole,
    in strips or as a fax or JBIG2 image, turned or not), or a sheet marked in a PDF app (its
    drawings and ticked form fields; PDF_DPI[2] when the page holds no image); MAX_PDF_TOTAL
    pixels in all."""
    import math

    import numpy as np
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    try:
        pdf = pypdfium2.PdfDocument(data)
        pdf.init_forms()  # ticked form fields are drawn too
    except Exception as exc:  # noqa: BLE001 - pdfium refuses a damaged file in several ways
        raise RecordError(f"{path}: not a readable PDF ({exc.__class__.__name__})") from None
    out = []
    try:
        if len(pdf) > MAX_PDF_PAGES:
            raise RecordError(f"{path}: {len(pdf)} pages; sheetgen reads at most {MAX_PDF_PAGES} sheets from one PDF")
        low, high, plain = PDF_DPI
        total = 0.0
        for n in range(len(pdf)):
            page = pdf[n]
            dpi = plain
            seen = []
            for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=3):
                left, bottom, right, top = image.get_bounds()
                seen.append(max(image.get_px_size()) / max(right - left, top - bottom, 1.0) * 72)
            if seen:
                dpi = min(max(max(seen), low), high)
            width, height = page.get_size()
            scale = min(dpi / 72, math.sqrt(MAX_PDF_PIXELS / max(width * height, 1.0)))
            total += width * height * scale * scale
            if total > MAX_PDF_TOTAL:
                raise RecordError(
                    f"{path}: its pages are too large to read ({MAX_PDF_TOTAL / 1e6:.0f} megapixels at most)"
                )
            picture = page.render(scale=scale, may_draw_forms=True).to_pil().convert("RGB")
            out.append(Photo(f"{Path(path).name} page {n + 1}", f"{stem}-{n + 1}", np.asarray(picture), stem))
    except RecordError:
        raise
    except Exception as exc:  # noqa: BLE001 - a page pdfium cannot draw
        raise RecordError(f"{path}: not a readable PDF ({exc.__class__.__name__})") from None
    finally:
        pdf.close()
    return out


def _aruco(cv2):
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # small markers (1 mm cells), blurred: read their bits more tolerantly; only ids
    # 0-3 are taken, all four must be there, and the QR code must agree
    params.minMarkerPerimeterRate = 0.01
    params.perspectiveRemovePixelPerCell = 8
    params.maxErroneousBitsInBorderRate = 0.5
    params.errorCorrectionRate = 0.8
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _detect(detector, gray, scale: float, found: dict, wanted=range(4), shift=(0.0, 0.0)) -> None:
    """Add the `wanted` markers seen in `gray` (a piece of the photo `scale` times its
    size, whose top-left is `shift` in the photo) to `found`, in photo pixels."""
    corners, ids, _ = detector.detectMarkers(gray)
    for c, i in zip(corners, [] if ids is None else ids.flatten()):
        if int(i) in wanted and int(i) not in found:
            found[int(i)] = c.reshape(4, 2) / scale + shift


def _detect_all(detector, gray, scale: float, seen: dict) -> None:
    """Add every scan marker seen in `gray` (the photo `scale` times its size) to `seen`
    (marker id -> a list of its corners, in photo pixels): a photo may hold several
    sheets (printed two or four a page). A marker already in the list (its centre
    within half a marker of one there, found again on the photo enlarged) is not added."""
    corners, ids, _ = detector.detectMarkers(gray)
    for c, i in zip(corners, [] if ids is None else ids.flatten()):
        if int(i) not in seen:
            continue
        quad = c.reshape(4, 2) / scale
        side = float(((quad[0] - quad[2]) ** 2).sum() ** 0.5) / 1.414
        if all(float(((q.mean(axis=0) - quad.mean(axis=0)) ** 2).sum() ** 0.5) > side / 2 for q in seen[int(i)]):
            seen[int(i)].append(quad)


def _look_closer(cv2, np, detector, gray, found: dict) -> None:
    """The markers the first look missed, searched for again where the ones found say
    they are: that piece of the photo enlarged (about 8 pixels a marker cell), where
    a small or blurred marker is read much more readily."""
    src = np.float32([c for n in sorted(found) for c in found[n]])
    s, where = scanmarks.MARKER, scanmarks.marker_corners(*ROUGH_SHEET)
    square = [(0, 0), (s, 0), (s, s), (0, s)]
    dst = np.float32([(where[n][0] + dx, where[n][1] + dy) for n in sorted(found) for dx, dy in square])
    h, _ = cv2.findHomography(dst, src)
    if h is None:
        return
    for n in [n for n in range(4) if n not in found]:
        x, y = where[n]
        centre = cv2.perspectiveTransform(np.float32([[[x + s / 2, y + s / 2]]]), h)[0, 0]
        want = cv2.perspectiveTransform(np.float32([[(x + dx, y + dy) for dx, dy in square]]), h)[0]
        # the marker's side in pixels where the others say it is: a tilted photo's far
        # corner shows it smaller (the eighth generator's seed 2 photo 15: 0.6 of theirs)
        side = float(np.linalg.norm(want[0] - want[2])) / 1.414
        half = (4 + REACH_MARKER) * side
        x0, y0 = (max(0, int(v - half)) for v in centre)
        piece = gray[y0 : int(centre[1] + half), x0 : int(centre[0] + half)]
        if piece.size == 0:
            continue
        zoom = min(6.0, 48.0 / max(side, 1.0))
        big = cv2.resize(piece, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        seen: dict = {}
        _detect(detector, big, zoom, seen, (n,), (x0, y0))
        # taken only where the others say, and about their size: never a stray square
        if n in seen and np.linalg.norm(seen[n].mean(axis=0) - centre) < side:
            if 0.6 < np.linalg.norm(seen[n][0] - seen[n][2]) / 1.414 / side < 1.6:
                found[n] = seen[n]
        if n not in found:
            square_at = _dark_square(cv2, np, big, (want - (x0, y0)) * zoom, side * zoom, n, len(found) == 3)
            if square_at is not None:
                found[n] = square_at / zoom + (x0, y0)


def _dark_square(cv2, np, piece, want, side: float, n: int, near_enough: bool = True):
    """The corners (in the order of `want`) of a dark square in `piece` (grey) of the shape
    `want`'s corners say (each corner within a quarter of the side once moved there), the
    size and the slant they say: scan marker `n` too small or blurred for the detector to
    read, where the others say it is. Taken within half its `side` of where they say when
    `near_enough` (three markers found fix the perspective to a cell or two; a finger, a
    shadow or a stray stroke is no such square, and nothing else is printed near a marker),
    or up to REACH_MARKER sides off when its cells are marker `n`'s (see `_marker_cells`): two
    markers, or three blurred ones, fix the perspective only roughly (the sixth generator's
    seed 1 photo 26, 123 dpi: 1.5 sides off). None if there is none."""
    _, dark = cv2.threshold(cv2.GaussianBlur(piece, (3, 3), 0), 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    # a white line across it (an inkjet's clogged nozzle) is bridged: a tenth of its side
    gap = max(3, round(side / 10)) | 1
    dark = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, np.ones((gap, gap), np.uint8))
    contours, _ = cv2.findContours(dark, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        if not 0.5 * side**2 < cv2.contourArea(contour) < 1.8 * side**2:
            continue
        quad = cv2.approxPolyDP(contour, 0.08 * cv2.arcLength(contour, True), True).reshape(-1, 2)
        if len(quad) != 4 or not cv2.isContourConvex(quad):
            continue
        off = quad.mean(axis=0) - want.mean(axis=0)
        if np.linalg.norm(off) > REACH_MARKER * side:
            continue
        moved = want + off
        near = [int(np.argmin(np.linalg.norm(quad - corner, axis=1))) for corner in moved]
        corners = quad[near].astype(np.float32)
        if len(set(near)) < 4 or np.linalg.norm(corners - moved, axis=1).max() >= side / 4:
            continue
        if near_enough and np.linalg.norm(off) <= side / 2 or _marker_cells(cv2, np, piece, corners, n):
            return corners
    return None


def _marker_cells(cv2, np, piece, corners, n: int) -> bool:
    """Whether the square with these `corners` in `piece` (grey; the marker's top left
    first, clockwise) carries scan marker `n`: the greys in the middle of its 4 x 4 inner
    cells correlate with marker n's bits upright over CELLS, better than with any other
    scan marker's, any way round (a blurred marker's cells still show: 0.93 on the photo
    above, the others at most 0.22)."""
    flat = cv2.warpPerspective(
        piece, cv2.getPerspectiveTransform(corners, np.float32([(0, 0), (60, 0), (60, 60), (0, 60)])), (60, 60)
    )
    greys = np.float32(
        [[flat[10 * r + 3 : 10 * r + 7, 10 * c + 3 : 10 * c + 7].mean() for c in range(1, 5)] for r in range(1, 5)]
    )
    if greys.std() < 1.0:
        return False
    markers = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    fits = {}
    for k in range(4):
        bits = markers.generateImageMarker(k, 6)[1:5, 1:5].astype(np.float32)
        for turn in range(4):
            fits[k, turn] = float(np.corrcoef(greys.ravel(), np.rot90(bits, turn).ravel())[0, 1])
    best = max(fits, key=fits.get)
    return best == (n, 0) and fits[best] >= CELLS


def find_markers(photo: Photo) -> dict:
    """{marker id: its 4 corners in photo pixels} of the four scan markers of the photo's
    (first) sheet, or a RecordError."""
    return find_sheets(photo)[0][0]


def find_sheets(photo: Photo) -> tuple[list[dict], str]:
    """The scan markers ({marker id: its 4 corners in photo pixels}) of every sheet in a
    photo, in reading order (see `_sheets`), and a note when marks of a sheet that is not
    whole are seen too (that sheet is not read); or a RecordError."""
    cv2, np = need_cv()
    gray = cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2GRAY)
    scale = min(1.0, MAX_SIDE / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    detector = _aruco(cv2)
    seen: dict = {n: [] for n in range(4)}
    _detect_all(detector, small, scale, seen)
    # markers too small or blurred to be read (a low-resolution photo): the photo enlarged,
    # each enlargement adding the markers it reads (each reads some others miss), while
    # some sheet's markers are missing
    for zoom in ZOOMS:
        if len({len(v) for v in seen.values()} - {0}) == 1 and all(seen.values()):
            break
        if max(small.shape) * zoom > MAX_ZOOMED:
            break
        _detect_all(
            detector, cv2.resize(small, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC), scale * zoom, seen
        )
    if max(len(v) for v in seen.values()) > 1:
        sheets, left = _sheets(cv2, np, seen)
        if not sheets:
            raise RecordError(
                f"{photo.name}: scan marks of several sheets are seen, but no sheet's four: photograph each sheet whole"
            )
        note = (
            f"{photo.name}: {left} scan mark{'s' if left > 1 else ''} of another sheet seen, but not all "
            "four: that sheet is not read; photograph it whole"
            if left
            else ""
        )
        return sheets, note
    found = {n: v[0] for n, v in seen.items() if v}
    if 2 <= len(found) < 4:
        _look_closer(cv2, np, detector, gray, found)
    if not found:
        raise RecordError(f"{photo.name}: no scan marks found: this is not a sheetgen sheet, or too blurred or small")
    missing = [n for n in range(4) if n not in found]
    if missing:
        where = ", ".join(CORNERS[n] for n in missing)
        raise RecordError(
            f"{photo.name}: the scan mark{'s' if len(missing) > 1 else ''} in the {where} "
            f"corner{'s' if len(missing) > 1 else ''} cannot be seen (covered, in shadow or out of the picture); "
            "photograph the whole sheet"
        )
    return [found], ""


def _sheets(cv2, np, seen: dict) -> tuple[list[dict], int]:
    """The sheets that the markers `seen` (id -> a list of corners) make, in reading
    order, and how many markers are left over. A sheet is one marker of each id whose
    centres, mapped onto the usual sheet's, leave each marker a MARKER-mm square where the
    sheet prints it, upright, to GROUP of its side: four markers taken from two sheets
    make a sheet twice as wide or high, whose markers map to half their size. The best
    fitting sheets are taken first, each marker in one sheet only. Reading order: the
    sheets' rows as the first sheet is upright, top to bottom, each left to right (the
    order `render --per-page` fills a page)."""
    s, where = scanmarks.MARKER, scanmarks.marker_corners(*ROUGH_SHEET)
    centres = np.float32([(x + s / 2, y + s / 2) for x, y in where])
    square = np.float32([(0, 0), (s, 0), (s, s), (0, s)])
    fits = []
    for combo in itertools.product(*(range(len(seen[n])) for n in range(4))):
        quads = [seen[n][i].astype(np.float32) for n, i in enumerate(combo)]
        h = cv2.getPerspectiveTransform(np.float32([q.mean(axis=0) for q in quads]), centres)
        off = max(
            float(np.abs(cv2.perspectiveTransform(q.reshape(1, 4, 2), h)[0] - square - where[n]).max())
            for n, q in enumerate(quads)
        )
        fits.append((off / s, combo, h))
    sheets, used = [], set()
    for off, combo, h in sorted(fits, key=lambda t: t[0]):
        if off > GROUP:
            break
        if not used.isdisjoint(enumerate(combo)):
            continue
        used.update(enumerate(combo))
        sheets.append(({n: seen[n][i] for n, i in enumerate(combo)}, h))
    if not sheets:
        return [], 0
    first = sheets[0][1]  # photo pixels -> the first sheet's millimetres: its rows and columns
    at = [
        cv2.perspectiveTransform(np.float32([[m.mean(axis=0) for m in markers.values()]]), first)[0].mean(axis=0)
        for markers, _ in sheets
    ]
    rows: list = []
    for k in sorted(range(len(sheets)), key=lambda k: at[k][1]):
        if rows and at[k][1] - at[rows[-1][0]][1] < ROUGH_SHEET[1] / 2:
            rows[-1].append(k)
        else:
            rows.append([k])
    order = [k for row in rows for k in sorted(row, key=lambda k: at[k][0])]
    left = sum(len(v) for v in seen.values()) - 4 * len(sheets)
    return [sheets[k][0] for k in order], left


def homography(markers: dict, width: float, height: float):
    """The 3x3 map from photo pixels to rectified-page pixels (PPMM a mm)."""
    cv2, np = need_cv()
    src, dst = [], []
    s = scanmarks.MARKER
    for n, (x, y) in enumerate(scanmarks.marker_corners(width, height)):
        src += list(markers[n])
        dst += [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
    h, _ = cv2.findHomography(np.float32(src), np.float32(dst) * PPMM)
    if h is None:
        raise RecordError("the scan marks do not make a sheet")
    return h


def warp(photo: Photo, h, width: float, height: float, margin: float = 0.0):
    """The photo mapped onto the page (`h`: photo to page pixels), with `margin` mm of
    what lies around the page on every side."""
    cv2, np = need_cv()
    m = round(margin * PPMM)
    size = (round(width * PPMM) + 2 * m, round(height * PPMM) + 2 * m)
    h = np.array([[1, 0, m], [0, 1, m], [0, 0, 1]], np.float64) @ h
    return cv2.warpPerspective(photo.rgb, h, size, flags=cv2.INTER_AREA, borderValue=(255, 255, 255))


def read_qr(photo: Photo, markers: dict) -> dict:
    """The QR code's fields, read on its corner of the page mapped at 16 px a mm with the
    usual sheet size (the code sits next to a marker, so the exact size does not matter).
    When OpenCV cannot find it (blurred, small), it is decoded where the markers say its
    corners are, sharpened."""
    cv2, np = need_cv()
    w, h = ROUGH_SHEET
    x, y, size = scanmarks.qr_spot(w)
    pad = 4.0
    detector = cv2.QRCodeDetector()
    crops = []
    for ppmm in (16.0, 10.0, 24.0):
        zoom = ppmm / PPMM
        shift = np.array([[zoom, 0, -(x - pad) * ppmm], [0, zoom, -(y - pad) * ppmm], [0, 0, 1]])
        side = round((size + 2 * pad) * ppmm)
        m = shift @ homography(markers, w, h)
        crop = cv2.warpPerspective(photo.rgb, m, (side, side), flags=cv2.INTER_CUBIC, borderValue=(255, 255, 255))
        gray = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
        crops.append((ppmm, gray))
        otsu = cv2.threshold(cv2.GaussianBlur(gray, (0, 0), 1.0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]
        for img in (gray, otsu):
            text = detector.detectAndDecode(img)[0]
            if text:
                return _qr_fields(photo, text)
    for ppmm, gray in crops:
        sharp = cv2.addWeighted(gray, 2.0, cv2.GaussianBlur(gray, (0, 0), 0.4 * ppmm), -1.0, 0)
        for modules in QR_MODULES:  # the code is drawn `modules` + 2 cells wide (sheetgen.render.pdf)
            cell = size / (modules + 2)
            a, b = (pad + cell) * ppmm, (pad + size - cell) * ppmm
            corners = np.float32([[a, a], [b, a], [b, b], [a, b]]).reshape(1, 4, 2)
            for img in (sharp, gray):
                text = detector.decode(img, corners)[0]
                if text:
                    return _qr_fields(photo, text)
    for ppmm, gray in crops:
        text = _qr_grid(cv2, np, detector, gray, ppmm, pad, size)
        if text:
            return _qr_fields(photo, text)
    raise Unreadable(f"{photo.name}: the sheet's QR code cannot be read (blurred, in shadow or too small)")


def _qr_grid(cv2, np, detector, gray, ppmm: float, pad: float, size: float) -> str:
    """The text of a QR code too blurred for OpenCV's own decoder (a shaken phone smears
    its modules into each other), read module by module: the code's three finder
    patterns are looked for within REACH_QR mm of where the page puts them (the code is
    `modules` + 2 cells wide, see QR_MODULES); they give the grid, each module is dark
    when darker than the mean of the modules around it and of the whole code, and the
    modules read are drawn again as a clean code for the decoder (whose error correction
    mends a few wrong ones). '' when nothing decodes."""
    g = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
    lightly = cv2.GaussianBlur(gray, (0, 0), 0.5).astype(np.float32)
    reach = REACH_QR * ppmm
    for modules in QR_MODULES:
        cell = size / (modules + 2) * ppmm
        res = cv2.matchTemplate(g, _finder(cv2, np, cell), cv2.TM_CCOEFF_NORMED)
        found = []
        for mx, my in ((0, 0), (modules - 7, 0), (0, modules - 7)):
            # the finder with its white separator: its top-left corner where the page puts it
            ex, ey = pad * ppmm + mx * cell, pad * ppmm + my * cell
            x0, y0 = max(0, round(ex - reach)), max(0, round(ey - reach))
            window = res[y0 : round(ey + reach) + 1, x0 : round(ex + reach) + 1]
            if window.size == 0:
                break
            _, peak, _, (px, py) = cv2.minMaxLoc(window)
            if peak < 0.3:
                break
            found.append((x0 + px + 4.5 * cell, y0 + py + 4.5 * cell))
        if len(found) < 3:
            continue
        # the finders' centres, in modules from the code's edge (its one-module margin included)
        where = np.float32([[4.5, 4.5], [modules - 2.5, 4.5], [4.5, modules - 2.5]])
        a = cv2.getAffineTransform(where, np.float32(found))
        mx, my = np.meshgrid(*(np.arange(modules, dtype=np.float32) + 1.5,) * 2)
        xs = (a[0, 0] * mx + a[0, 1] * my + a[0, 2]).astype(np.float32)
        ys = (a[1, 0] * mx + a[1, 1] * my + a[1, 2]).astype(np.float32)
        for sharp, k in itertools.product((g, lightly), (3, 7)):
            # each module against the modules around: the next ones (which undoes some of the
            # blur), or more; on the page smoothed, or hardly
            seen = cv2.remap(sharp, xs, ys, cv2.INTER_LINEAR)
            around = cv2.blur(seen, (k, k), borderType=cv2.BORDER_REFLECT)
            clean = np.full((modules + 8, modules + 8), 255, np.uint8)
            clean[4:-4, 4:-4][seen < (around + seen.mean()) / 2] = 0
            text = detector.detectAndDecode(cv2.resize(clean, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST))[0]
            if text:
                return text
    return ""


def _finder(cv2, np, cell: float):
    """A QR finder pattern with its white separator (9 x 9 modules), `cell` px a module."""
    m = np.ones((9, 9), np.float32)
    m[1:8, 1:8], m[2:7, 2:7], m[3:6, 3:6] = 0, 1, 0
    return cv2.resize(m * 255, (round(9 * cell), round(9 * cell)), interpolation=cv2.INTER_AREA)


def _qr_fields(photo: Photo, text: str) -> dict:
    fields = scanmarks.parse_payload(text)
    if fields is None:
        raise RecordError(
            f"{photo.name}: the QR code is not one sheetgen prints "
            "(or one an older version printed: print the sheet again)"
        )
    return fields


def recognise(photo: Photo, markers: dict, layout_ref: str | None, unread: Unreadable) -> tuple[dict, str]:
    """The QR code's fields for a photo whose code cannot be read (a shaken phone, a
    shadow), from the print itself: the photo, mapped by its scan marks, is compared
    with the blank page of every page the code could name (the built-in layouts, or the
    one given), small and smoothed (normalised cross-correlation). The best page must
    match well (LIKE); a layout's variant matches its page almost as well (the advanced
    Harvest Dice sheet the normal one's, better at times when the photo is off by a
    millimetre), so the pages that match nearly as well (CLOSE) are told apart where their
    print differs (`_apart`): the page taken beats each of them clearly (APART). Then its
    language and, for a pad, its player count by the whole page. Each page is compared as
    printed in colour and toner-saving (`render --grey`), and taken as it matches best.
    Else `unread` is raised.
    (the fields, a warning saying what the page was taken for)"""
    cv2, np = need_cv()
    from sheetgen.games import load_layout
    from sheetgen.layout.resolve import builtin_ids

    if layout_ref is None:
        layouts = [lay for lay in map(load_layout, builtin_ids()) if lay.scan_marks]
    else:
        layouts = [load_layout(layout_ref)]
    seen, blanks = {}, {}  # the photo mapped for each layout, the blank pages compared (both `_small`)

    def blank(layout, page_id: str, lang: str, players: int, grey: bool = False):
        key = (layout.id, page_id, lang, players, grey)
        if key not in blanks:
            blanks[key] = _small(cv2, np, blank_page(layout, page_id, players, lang, grey)[1])
        return blanks[key]

    def like(layout, page_id: str, lang: str, players: int, grey: bool = False) -> float:
        key = (layout.id, layout.width, layout.height)
        if key not in seen:
            page = warp(photo, homography(markers, layout.width, layout.height), layout.width, layout.height)
            seen[key] = _small(cv2, np, cv2.cvtColor(page, cv2.COLOR_RGB2GRAY))
        a, b = seen[key], blank(layout, page_id, lang, players, grey)
        a, b = a - a.mean(), b - b.mean()
        return float((a * b).sum() / max(float(np.sqrt((a * a).sum() * (b * b).sum())), 1e-9))

    pages = []
    for layout in layouts:
        langs = sorted(layout.title) or ["en"]
        for page in layout.pages:
            lang, players = ("en" if "en" in langs else langs[0]), layout.players["default"]
            # printed in colour or toner-saving (`render --grey`: pale banners)
            score, grey = max((like(layout, page.id, lang, players, grey), grey) for grey in (False, True))
            pages.append((score, layout, page.id, langs, lang, grey))
    pages.sort(key=lambda t: -t[0])
    if pages[0][0] < LIKE:
        raise unread
    near = [t for t in pages if t[0] >= pages[0][0] - CLOSE]

    def beats(one, other) -> bool:
        (_, la, pa, _, lang_a, grey_a), (_, lb, pb, _, lang_b, grey_b) = one, other
        if (la.width, la.height) != (lb.width, lb.height):
            return one[0] - other[0] >= BY
        a = blank(la, pa, lang_a, la.players["default"], grey_a)
        b = blank(lb, pb, lang_b, lb.players["default"], grey_b)
        return _apart(cv2, np, seen[(la.id, la.width, la.height)], a, b) >= APART

    winners = [t for t in near if all(t is u or beats(t, u) for u in near)]
    if len(winners) != 1:
        raise unread
    _, layout, page_id, langs, _, grey = winners[0]
    players = layout.players["default"]
    lang = max(langs, key=lambda la: like(layout, page_id, la, players, grey))
    low, high = layout.players["min"], min(layout.players["max"], layout.players["min"] + 11)
    if low < high:
        players = max(range(low, high + 1), key=lambda n: like(layout, page_id, lang, n, grey))
    fields = {"layout": layout.id, "page": page_id, "players": players, "lang": lang, "digest": layout.digest[:8]}
    count = f", {players} players" if low < high else ""
    toner = ", printed toner-saving" if grey else ""
    note = (
        f"{photo.name}: its QR code cannot be read; by its print it is the '{page_id}' page of "
        f"'{layout.id}' ({lang}{count}{toner}), whose version could not be checked: make sure it is"
    )
    return {**fields, "grey": grey}, note


def _apart(cv2, np, photo, a, b) -> float:
    """How much better a photo (`_small`) matches page `a` than page `b` (both `_small`)
    where their print differs: on the print one page has and the other has nothing of
    within UNIQUE mm, how far the photo's darkness (over its paper nearby) is from each
    page's (scaled by how dark the photo shows the print), as (off b - off a) / (off a +
    off b): 1 when the photo is page `a` there, -1 when it is `b`. A box moved by a
    millimetre from one page to the other is no difference: the photo, mapped by its
    scan marks only, can be that far off."""
    small = PPMM / 4  # pixels per mm of the small pages
    near = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(UNIQUE * small) + 1,) * 2)
    ink_a, ink_b = (a < 255 * (1 - SMALL_PRINT)).astype(np.uint8), (b < 255 * (1 - SMALL_PRINT)).astype(np.uint8)
    only = ((ink_a & (1 - cv2.dilate(ink_b, near))) | (ink_b & (1 - cv2.dilate(ink_a, near)))).astype(bool)
    if not only.any():
        return 0.0
    reach = 2 * round(2.5 * small) + 1
    paper = cv2.dilate(photo, np.ones((reach, reach), np.uint8))  # the brightest within 2.5 mm
    seen = np.clip(1.0 - photo / np.maximum(paper, 1.0), 0.0, 1.0)

    def off(page) -> float:
        dark = 1.0 - page / 255.0
        gain = float((seen * dark).sum() / max(float((dark * dark).sum()), 1e-9))
        return float(np.abs(seen - gain * dark)[only].mean())

    off_a, off_b = off(a), off(b)
    return (off_b - off_a) / max(off_a + off_b, 1e-9)


def _small(cv2, np, gray):
    """A page's grey levels at a quarter of PPMM, smoothed: what `recognise` compares."""
    small = cv2.resize(gray, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), 1.0).astype(np.float32)


def sheet_layout(photo: Photo, qr: dict, layout_ref: str | None):
    """The layout a photo was printed from. The QR code is data from a picture: it may
    only name a built-in layout; a variant needs `layout_ref`, whose id and hash must match."""
    from sheetgen.errors import printable
    from sheetgen.games import load_layout
    from sheetgen.layout.resolve import builtin_ids, is_builtin_ref

    shown = printable(qr["layout"][:60])
    if layout_ref is None:
        if not is_builtin_ref(qr["layout"]) or qr["layout"] not in builtin_ids():
            raise RecordError(
                f"{photo.name}: the sheet names the layout '{shown}', which is not a built-in layout; "
                "give --layout with the layout file it was printed from"
            )
        layout = load_layout(qr["layout"])
    else:
        layout = load_layout(layout_ref)
        if layout.id != qr["layout"]:
            raise RecordError(
                f"{photo.name}: the sheet was printed from layout '{shown}', not from '{layout.id}'; "
                "give the --layout it was printed from"
            )
    if layout.digest[:8] != qr["digest"]:
        raise RecordError(
            f"{photo.name}: the sheet was printed from another version of layout '{layout.id}' "
            f"(hash {printable(qr['digest'][:8])}, this one is {layout.digest[:8]}); "
            "give the --layout it was printed from"
        )
    if not any(p.id == qr["page"] for p in layout.pages):
        raise RecordError(f"{photo.name}: layout '{layout.id}' has no page '{printable(qr['page'][:40])}'")
    return layout


_BLANKS: dict = {}


def blank_page(layout, page_id: str, players: int, lang: str, grey: bool = False):
    """(page display, the blank page's grey levels at PPMM), rendered from the display
    list; `grey`: as printed toner-saving (`render --grey`)."""
    key = (layout.id, layout.digest, page_id, players, lang, grey)
    if key not in _BLANKS:
        _BLANKS.clear() if len(_BLANKS) > 24 else None
        _BLANKS[key] = _render_blank(layout, page_id, players, lang, grey)
    return _BLANKS[key]


def _render_blank(layout, page_id: str, players: int, lang: str, grey: bool):
    import numpy as np
    import pypdfium2

    from sheetgen.render.pdf import pdf_bytes, placement

    doc = layout.document(lang, players, [page_id], scan_marks=True)
    pdf = pypdfium2.PdfDocument(pdf_bytes(doc, paper="a4", grey=grey))
    try:
        scale = PPMM * 25.4 / 72
        img = np.asarray(pdf[0].render(scale=scale, grayscale=True).to_pil().convert("L"))
    finally:
        pdf.close()
    at = placement(doc.pages[0], "a4")
    x0, y0 = round(at.left * PPMM), round(at.top * PPMM)
    w, h = round(layout.width * PPMM), round(layout.height * PPMM)
    return doc.pages[0], img[y0 : y0 + h, x0 : x0 + w]


def _ink(cv2, np, gray):
    """Darkness 0-1 of a grey page, with the paper's uneven light divided out. The paper's
    brightness is that of the brightest square millimetre within 1.5 mm (the page averaged
    over 1 mm squares): the brightest single pixel nearby would be noise, a
    white speck of salt noise or the bright halo a phone's sharpening draws along every
    stroke, and would make every box look a little inked."""
    g = gray.astype(np.float32)
    h, w = g.shape
    mm = round(PPMM)
    block = cv2.resize(g, (w // mm, h // mm), interpolation=cv2.INTER_AREA)
    bg = cv2.dilate(block, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    bg = np.maximum(bg, cv2.GaussianBlur(bg, (0, 0), 4))
    out = np.divide(g, np.maximum(bg, 1.0, out=bg), out=g)  # (in place: a page of floats is large)
    return np.clip(np.subtract(1.0, out, out=out), 0.0, 1.0, out=out)


def inside(box) -> tuple:
    """(x, y, w, h) in mm of the part of a box a mark is looked for in: its border left out."""
    # a board-copy cell touches its neighbours: only its middle, where a stroke that
    # strays in from the next cell does not reach
    inset = {"check": 1.3, "round": 1.6, "mini": 0.25 * min(box.w, box.h)}.get(
        box.kind, max(1.0, 0.14 * min(box.w, box.h))
    )
    return box.x + inset, box.y + inset, box.w - 2 * inset, box.h - 2 * inset


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
) -> str:
    """MARKED, EMPTY or UNSURE from the ink score of a box's inside, its spread, the
    share of it clearly dark (CORE), the share holding a faint trace (FAINT, or unlike
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
    not empty, and one `filled` with colour or shaded grey (see FILL, SHADE) is marked."""
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
    if score >= HIGH and marks and core >= LOW and not like_print:
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


def photo_trace(np, scores: list, middles: list) -> float:
    """A photo's own faint trace: the median share of the middle holding a trace (see
    `decide`'s `middle`) over the boxes with no ink (a score up to LOW), most of them
    empty. A noisy, sharpened photo draws a faint trace in every box; a pencil mark is
    a trace over what the blank boxes of its own photo show."""
    blank = [m for s, m in zip(scores, middles, strict=True) if s <= LOW]
    return float(np.median(blank)) if blank else 0.0


def wash(np, scores: list, darks: list) -> float:
    """A photo's own grey wash: the median, over the boxes with no ink (a score up to LOW),
    of how much darker than the paper the middle of their inside is (`darks`: each box's
    inside, darkness over the blank page's). A phone's sharpening draws a bright halo along
    every printed line, and the paper beside it (the inside of every small box) then looks
    a little darker than the paper: a wash all over the box, which a faint trace is
    measured above (`faint_trace`), as a pencil stroke is darker than the paper around it."""
    blank = [max(0.0, float(np.median(d))) for s, d in zip(scores, darks, strict=True) if s <= LOW and d.size]
    return float(np.median(blank)) if blank else 0.0


def _middle(inner):
    """The middle of a box's inside (an array over it): without its outer sixth on every side."""
    h, w = inner.shape[:2]
    return inner[h // 6 : h - h // 6, w // 6 : w - w // 6]


def faint_trace(cv2, np, dark, faint: float) -> float:
    """The share of the middle of a box's inside (without its outer sixth on every side,
    away from its printed border, where a phone's sharpening draws its dark rim) holding a
    trace: darker than `faint` once specks of salt-and-pepper noise are smoothed out (a
    trace is a stroke)."""
    middle = _middle(_smoothed(cv2, np, dark) > faint * 255)
    return float(middle.mean()) if middle.size else 0.0


def _smoothed(cv2, np, dark):
    """Darkness (0-1 over the blank page's) in 0-255, specks of salt-and-pepper noise smoothed out."""
    return cv2.medianBlur(np.clip(dark * 255, 0, 255).astype(np.uint8), 3)


def _pale(cv2, np, dark, hidden):
    """A box's inside's darkness (over the blank page's, `dark`) in 0-255, specks smoothed
    out, and 0 where the print may hide or shift it (`hidden`)."""
    out = _smoothed(cv2, np, dark)
    out[hidden] = 0
    return out


def _blurred(cv2, np, dark, hidden, specks: bool = False):
    """As `_pale`, the darkness blurred (a Gaussian of PALE_CELL[0] px) rather than its
    specks smoothed out: a pale stroke stays, a photo's speckle fades; with `specks`, its
    specks smoothed out first (a board cell's pencil: blurred alone, a sharpened photo's
    pepper specks spread into a grey as dark as a stroke, and the probe's seed [1, 6]
    photo, salted, read six more empty board cells unsure; a light colour pencil's grainy
    stroke in a garden cell is smoothed out with them: the seventh generator's seed 4
    photo 15, two pale orange marks read empty)."""
    out = _smoothed(cv2, np, dark).astype(np.float32) / 255 if specks else dark.astype(np.float32)
    out = np.clip(cv2.GaussianBlur(out, (0, 0), PALE_CELL[0]) * 255, 0, 255).astype(np.uint8)
    out[hidden] = 0
    return out


def pale_level(np, pales: list, hiddens: list) -> float:
    """A photo's own level of pale darkness (0-255): the median, over its boxes with no ink
    (`pales`, see `_pale`; None for a box with ink; with where the print is, `hiddens`), of
    the 99th percentile of the middle of each off the print. A noisy photo's speckle reaches
    it in every box; a clean photo's paper stays a few levels under the blank page's."""
    tops = []
    for pale, hidden in zip(pales, hiddens, strict=True):
        if pale is None:
            continue
        seen = _middle(pale)[~_middle(hidden)]
        if seen.size:
            tops.append(float(np.percentile(seen, 99)))
    return float(np.median(tops)) if tops else 0.0


def paper_traces(cv2, np, values, bare, base: float, faint: float) -> tuple:
    """What the bare paper (`bare`, see `bare_paper`; `values` the page's darkness) shows as a
    blank box would: the medians, over the page's squares of BARE_TRACE[3] mm all bare paper,
    of the share of each one's middle holding a faint trace (`faint_trace`, over the photo's
    wash `base`) and of the 99th percentile of its pale darkness (`pale_level`); 64 squares
    at most (see `_bare_squares`); (0, 0) with no such square. A box's own are the photo's
    (`photo_trace`, `pale_level`), but a sheet whose boxes nearly all hold a light stroke (a
    player's light hand, to the end of a game) shows a stroke in the median box, and those
    strokes read empty."""
    side = round(BARE_TRACE[3] * PPMM)
    traces, pales = [], []
    for y, x in _bare_squares(np, bare, side, 1.0):
        dark = values[y : y + side, x : x + side] - base
        traces.append(faint_trace(cv2, np, dark, faint))
        pales.append(float(np.percentile(_middle(_smoothed(cv2, np, dark)), 99)))
    return (float(np.median(traces)), float(np.median(pales))) if traces else (0.0, 0.0)


def _bare_squares(np, bare, side: int, share: float, most: int = 64) -> list:
    """The top-left corners (y, x) of the page's squares of `side` px (a grid from the
    top-left) whose `share` at least is bare paper (`bare`, a mask), at most `most` of them
    taken evenly over the page (their medians as well told, at a fraction of the cost)."""
    ny, nx = bare.shape[0] // side, bare.shape[1] // side
    if not ny or not nx:
        return []
    counts = bare[: ny * side, : nx * side].reshape(ny, side, nx, side).sum(axis=(1, 3))
    ys, xs = np.nonzero(counts >= share * side * side)
    pick = np.unique(np.linspace(0, len(ys) - 1, min(most, len(ys))).round().astype(int)) if len(ys) else []
    return [(int(ys[i]) * side, int(xs[i]) * side) for i in pick]


def pale_stroke(cv2, np, pale, level: float) -> float:
    """The extent of the longest piece of a pale trace in a box's inside (`pale`, see `_pale`):
    darker than `level` (0-255), in a piece of PALE[3] pixels at least; its bounding box's
    diagonal over the inside's. A light stroke crosses the box; the paper's grain, a JPEG's
    ringing and a noisy photo's speckle leave specks."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((pale > level).astype(np.uint8), connectivity=8)
    h, w = pale.shape[:2]
    pieces = [
        np.hypot(s[cv2.CC_STAT_WIDTH], s[cv2.CC_STAT_HEIGHT]) for s in stats[1:n] if s[cv2.CC_STAT_AREA] >= PALE[3]
    ]
    return float(max(pieces) / np.hypot(w, h)) if pieces and h and w else 0.0


def spread(np, part) -> float:
    """How far the ink of a box's inside reaches across it: the smaller of the share of
    its width and of its height between the first and the last column (row) holding
    ink (2 pixels at least, so a speck of noise does not count). A mark made in the box
    crosses it; a stroke straying in over the border stays in a corner or along an edge.
    A printed icon in the middle does not matter: only the ends count."""
    if part.size == 0:
        return 0.0
    out = 1.0
    for axis in (0, 1):
        hits = np.flatnonzero(part.sum(axis=axis) >= 2)
        size = part.shape[1 - axis]
        out = min(out, (hits[-1] - hits[0] + 1) / size if len(hits) else 0.0)
    return float(out)


def held(cv2, np, ink, strong, bridge, box, origin) -> float:
    """The share of a box's inside inked by strokes the box holds. A stroke is a connected
    part of `ink` (an ink mask around the box, its top-left at `origin` px on the page),
    joined across print (`bridge`, where a stroke crossing a printed line is hidden), with
    a dark core (`strong`: a crease or a shadow's edge has none); the box holds it when it
    reaches the middle of the box's inside (the inside without its outer sixth on every side,
    as `read_boxes` takes it for `decide`), the middle of its extent lies in the inside
    and it reaches at most HOLD of the box's size beyond the box. A small cross, a dot or
    a tick in a corner reaching the middle is held by its box without spreading over it;
    a big check overshooting two sides is held by the box its middle is in; a stroke
    straying in from the next box is held by that one."""
    x0, y0 = origin
    bx, by, bw, bh = (v * PPMM for v in (box.x, box.y, box.w, box.h))
    closed = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    joined = (ink | (closed.astype(bool) & bridge)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    ix, iy, iw, ih = (round(v * PPMM) for v in inside(box))
    sl = slice(iy - y0, iy - y0 + ih), slice(ix - x0, ix - x0 + iw)
    part = labels[sl] * ink[sl]
    if part.size == 0:
        return 0.0
    middle = _middle(part)
    mine = np.zeros(n, bool)
    cores = np.bincount(labels[strong], minlength=n)
    for k in np.unique(middle[middle > 0]):
        left, top, w, h = stats[k, :4] + (x0, y0, 0, 0)
        inbox = ix <= left + w / 2 <= ix + iw and iy <= top + h / 2 <= iy + ih and cores[k] >= 4
        small = left >= bx - HOLD * bw and top >= by - HOLD * bh
        small = small and left + w <= bx + (1 + HOLD) * bw and top + h <= by + (1 + HOLD) * bh
        mine[k] = inbox and small and not _crosses(np, part == k)
    return float(mine[part].mean())


def longest(cv2, np, ink, strong, box, origin) -> float:
    """The longest piece of stroke inside a box's printed border (see LONG): connected parts
    of `ink` (an ink mask around the box, its top-left at `origin` px on the page; the print
    is not ink, so the box's border cuts strokes) within the box, reaching the middle of its
    inside (as `held` takes it), with a dark core (`strong`, 4 pixels at least): the
    diagonal of its extent over the box's."""
    x0, y0 = origin
    bx, by, bw, bh = (round(v * PPMM) for v in (box.x, box.y, box.w, box.h))
    within = slice(by - y0, by - y0 + bh), slice(bx - x0, bx - x0 + bw)
    piece = ink[within].astype(np.uint8)
    if piece.size == 0 or not piece.any():
        return 0.0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(piece, connectivity=8)
    ix, iy, iw, ih = (round(v * PPMM) for v in inside(box))
    middle = _middle(labels[iy - by : iy - by + ih, ix - bx : ix - bx + iw])
    cores = np.bincount(labels[strong[within]], minlength=n)
    mine = [k for k in np.unique(middle[middle > 0]) if cores[k] >= 4]
    if not mine:
        return 0.0
    return float(max(np.hypot(stats[k, 2], stats[k, 3]) for k in mine) / np.hypot(bw, bh))


def unlike_siblings(cv2, np, ink, plain, boxes: list, shifts: dict, pad: int, faint: float = FAINT) -> dict:
    """field -> the share of a box's inside darker than the same place in the boxes
    printed like it (its siblings: the same icon or text, SIBLINGS of them at least).
    A mark drawn over a printed icon is hidden when the photo is compared with the
    blank page (the icon's own darkness is taken away, and a coloured icon photographs
    lighter or darker than its grey on the blank page), but not when it is compared
    with the same icon in the other boxes of the same photo: their per-pixel median is
    the icon as this photo shows it, marks and all left out (a mark is in few boxes,
    and seldom at the same place)."""
    patches, groups = {}, []
    for box in boxes:
        x, y, w, h = (round(v * PPMM) for v in inside(box))
        tpl = plain[y : y + h, x : x + w]
        if tpl.size == 0 or tpl.std() < 0.05:
            continue
        dx, dy = shifts[box.field]
        patches[box.field] = ink[y + pad + dy : y + pad + dy + h, x + pad + dx : x + pad + dx + w]
        for group in groups:
            first = group[0]
            if (
                first[1].shape == tpl.shape
                and float(cv2.matchTemplate(tpl, first[1], cv2.TM_CCOEFF_NORMED)[0, 0]) > 0.9
            ):
                group.append((box.field, tpl))
                break
        else:
            groups.append([(box.field, tpl)])
    out = {}
    for group in groups:
        if len(group) < SIBLINGS:
            continue
        fields = [f for f, _ in group]
        seen = np.median(np.stack([patches[f] for f in fields]), axis=0).astype(np.float32)
        seen = cv2.dilate(seen, np.ones((3, 3), np.uint8))
        for f in fields:
            out[f] = float((_smoothed(cv2, np, patches[f] - seen) > faint * 255).mean())
    return out


def icon_fit(cv2, np, ink, plain, light, sl):
    """How the photo (`ink`, a box's window) shows the light print in the box's inside
    (`sl`; `light`, an icon in dropout colours, see `read_boxes`), away from its edges:
    (spread, lines, near) with the photo's darkness there a + b times the blank page's
    (`plain`) for each (a, b, blank) of `lines`: the blank page as it is, and blurred as
    the photo is (of ICON_BLUR, the blur that fits best), each over `near` (the inside
    and ICON[3] px around it, slices of the window); `spread` is the median distance of
    the photo from the line that fits best. A mark's pixels (darker than a line by 2.5
    spreads) are left out of its fit. None with too little of the print (ICON[1] pixels)."""
    core = cv2.erode(light[sl].astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    if int(core.sum()) < ICON[1]:
        return None
    grow = ICON[3]
    (y0, y1), (x0, x1) = ((max(0, s.start - grow), s.stop + grow) for s in sl)
    near = slice(y0, y1), slice(x0, x1)
    inner = slice(sl[0].start - y0, sl[0].stop - y0), slice(sl[1].start - x0, sl[1].stop - x0)
    y = ink[sl][core].astype(np.float64)
    fits = []
    for blur in (0, *ICON_BLUR):
        blank = cv2.GaussianBlur(plain[near], (0, 0), blur) if blur else plain[near]
        x = blank[inner][core].astype(np.float64)
        keep = np.ones(x.size, bool)
        for _ in range(2):
            a, b = _line(np, x[keep], y[keep])
            res = y - (a + b * x)
            spread = max(float(np.median(np.abs(res))), 0.002)
            keep = res < 2.5 * spread
        fits.append((spread, a, b, blank))
    best = min(fits, key=lambda f: f[0])
    return best[0], [fits[0][1:], best[1:]], near


def _line(np, x, y) -> tuple:
    """(a, b): the least-squares line y = a + b x (b = 0 where x does not vary)."""
    mx, my = float(x.mean()), float(y.mean())
    vx = float(((x - mx) ** 2).mean())
    b = float(((x - mx) * (y - my)).mean()) / vx if vx > 1e-8 else 0.0
    return my - b * mx, b


def seen_print(cv2, np, plain, printed, light, fit, spread: float, page_lines: list | tuple = ()):
    """The print of a box's window as the photo shows it, grown 2 px (as `printed`, the
    blank page's darkness `plain` grown, to take from the photo's): its light print
    (`light`) as the photo shows it (`fit`, see `icon_fit`: the darker of its two lines,
    the blank page's blurred one fitting a blurred photo's icon, its sharp one the icon's
    outline on a sharp photo), `spread` over that (the photo's own spread: see
    `read_boxes`), never darker than on the blank page, or than the page's `page_lines`
    say (the median lines of its boxes' fits, where they show the icons DARKER: a fill
    in one box is not taken for its icon). A photo that shows an icon
    lighter than the blank page does hides a light stroke drawn over it, were the blank
    page's icon taken from it. (Grown, the print covers a blurred photo's icon spreading
    beyond its edges, as the blank page's does.)"""
    if fit is None:
        return printed
    _, lines, near = fit
    seen = np.maximum.reduce([a + b * blank for a, b, blank in lines])
    most = np.maximum.reduce([plain[near], *(a + b * plain[near] for a, b in page_lines)])
    seen = np.where(light[near], np.clip(seen + spread, 0.0, most), plain[near])
    # grown as `printed` is, over `near` and 2 px round it (the blank page's print there)
    (y0, y1), (x0, x1) = ((max(0, s.start - 2), min(n, s.stop + 2)) for s, n in zip(near, plain.shape, strict=True))
    part = plain[y0:y1, x0:x1].copy()
    oy, ox = near[0].start - y0, near[1].start - x0
    part[oy : oy + seen.shape[0], ox : ox + seen.shape[1]] = seen
    out = printed.copy()
    out[near] = _print_grown(cv2, np, part)[oy : oy + seen.shape[0], ox : ox + seen.shape[1]]
    return out


def _print_grown(cv2, np, plain):
    """The print's darkness (`plain`, 0-1) grown 2 px every way: where a photo's print may
    show, a little off or blurred (`read_boxes`' `printed`, and an icon as the photo shows it)."""
    return cv2.dilate(plain, np.ones((5, 5), np.uint8))


def _like_print(np, ink, on, off) -> bool:
    """Whether a box's ink (a mask of its inside) is its print looking darker than on the
    blank page (a coloured glyph, sharpened) rather than a mark: it covers PRINTED_INK of
    what is printed there (`on`), and the paper around (`off`) four times less."""
    if not on.any():
        return False
    over = (ink & on).sum() / on.sum()
    beside = (ink & off).sum() / max(int(off.sum()), 1)
    return bool(over >= PRINTED_INK and beside < over / 4)


def _crosses(np, stroke) -> bool:
    """Whether a stroke (a mask of a box's inside) is a line crossing the inside from one
    side to the other, thin across (a crease, a ruled line, a long stroke passing by)."""
    rows, cols = np.flatnonzero(stroke.any(axis=1)), np.flatnonzero(stroke.any(axis=0))
    h, w = stroke.shape
    across = cols[0] == 0 and cols[-1] == w - 1 and rows[-1] - rows[0] < THIN * h
    down = rows[0] == 0 and rows[-1] == h - 1 and cols[-1] - cols[0] < THIN * w
    return bool(across or down)


def box_shift(cv2, np, ink, printed, box) -> tuple:
    """(dx, dy) px: where a box's print is in the photo (`ink`, padded by SHIFT px on
    every side) against the blank page (`printed`), within SHIFT px: the page is moved
    onto the blank one tile at a time (`align`), which can leave a box near the edge of
    the page or of a curl a little off, and its printed icon or text then reads as ink.
    No shift unless the box's print (its border and what is printed in it, 1 mm around)
    clearly matches better elsewhere."""
    x0, y0 = max(0, round((box.x - 1) * PPMM)), max(0, round((box.y - 1) * PPMM))
    x1, y1 = round((box.x + box.w + 1) * PPMM), round((box.y + box.h + 1) * PPMM)
    tpl = printed[y0:y1, x0:x1]
    if tpl.size == 0 or tpl.std() < 0.05:
        return 0, 0
    area = ink[y0 : y1 + 2 * SHIFT, x0 : x1 + 2 * SHIFT]
    if area.shape[0] < tpl.shape[0] or area.shape[1] < tpl.shape[1]:
        return 0, 0
    res = cv2.matchTemplate(area, tpl, cv2.TM_CCOEFF_NORMED)
    _, peak, _, (px, py) = cv2.minMaxLoc(res)
    if peak < 0.5 or peak < res[SHIFT, SHIFT] + 0.02:
        return 0, 0
    return px - SHIFT, py - SHIFT


def read_photo(photo: Photo, layout_ref: str | None = None, markers: dict | None = None) -> PageRead:
    """One photo's page and box readings: of the sheet whose scan `markers` are given
    (see `find_sheets`), else of the photo's one sheet."""
    cv2, np = need_cv()
    markers = find_markers(photo) if markers is None else markers
    note = ""
    try:
        qr = read_qr(photo, markers)
    except Unreadable as unread:  # (a code read but not one of ours is refused as it is)
        qr, note = recognise(photo, markers, layout_ref, unread)
    layout = sheet_layout(photo, qr, layout_ref)
    h = homography(markers, layout.width, layout.height)
    lang = qr["lang"] if qr["lang"] in layout.title else "en"
    display, blank = blank_page(layout, qr["page"], qr["players"], lang, qr["grey"])
    page = align(cv2, np, warp(photo, h, layout.width, layout.height, REACH), blank)
    cells = grid_cells(layout, qr["page"])
    two_tone = bilevel(cv2, np, photo.rgb)
    if two_tone:
        blank = bilevel_blank(np, blank)
    values, readings, scores, spreads, boxes, troubles = read_boxes(page, blank, display.boxes(), cells)
    troubles = ("bilevel", *troubles) if two_tone else troubles
    said = [f"{photo.name}: {TROUBLES[t]}" for t in troubles]
    note = "; ".join([note, *said] if note else said)
    return PageRead(photo, layout, qr["page"], values, readings, scores, spreads, page, boxes, note)


# what a photo read with trouble (see `read_boxes`) is told
TROUBLES = {
    "bilevel": "a black-and-white image (a scanner's or an app's B&W mode): a light pencil stroke may "
    "have turned white; scan or photograph the sheet in colour or grey",
    "noisy": "a dark, noisy photo (its paper shows as dark as pencil): only clear marks were read; "
    "photograph the sheet again in better light",
    "washed": "a washed-out photo (its print shows light grey): a light pencil stroke may not show "
    "where the paper is white, so no box there is read empty; photograph the sheet again in less light",
}


@dataclass
class Look:
    """What a box shows in the photo: its `decide` measures (see there), its inside's
    darkness over the blank page's (`dark`, creases left out: a faint trace is looked for
    in it), and the measures a box is compared in with the page's others of its kind
    (None when not taken for the box): how far round it ink goes along its printed ring
    (`ring`, a round box: `ringed`, `traced`) or a mark's dark core does (`dark_ring`), how
    far round inside it a dark stroke goes (`round_in`, a square box: `round_inside`) and
    round it outside (`around`: `round_outside`, `traced`) or a mark's dark core does
    (`dark_around`), or a light trace does round either kind (`light_ring`, see
    LIGHT_RING), how much of the bare part of its inside is coloured (`tint`, see TINT),
    plainly (`fill`), and how much of the bare paper round it is (`spill`, see `spilled`;
    only for a box filled FILL at least), how much of it is shaded grey (`shade`, see
    `shaded`) and how light the bare paper round it or in it shows (`paper`, 0-255: see
    CLIPPED); a grid cell's hsv and ink (`colour`)."""

    box: object
    dark: object
    score: float
    reach: float
    core: float
    hold: float
    like_print: bool
    long: float
    ring: float | None = None
    dark_ring: float | None = None
    round_in: float | None = None
    around: float | None = None
    dark_around: float | None = None
    light_ring: float | None = None
    tint: float | None = None
    fill: float | None = None
    shade: float | None = None
    paper: float | None = None
    spill: float | None = None
    colour: tuple | None = None


@dataclass
class _Sight:
    """What `look_at` needs of the whole page: the masks and the levels of ink (see `read_boxes`)."""

    ink_t: float  # darkness of ink
    trace_t: float  # ...of a light trace (LIGHT_RING)
    core_t: float  # ...of a mark's dark core
    cells: set  # the grid cells' fields
    printed: object  # the blank page's darkness, grown by 2 px
    bridge: object  # where the print hides a stroke
    on_print: object  # the print itself
    far: object  # the bare paper 0.5 mm from any print
    insides: object  # every box's inside
    coloured: object  # (padded) coloured as a colour pencil
    vivid: object  # (padded) ...plainly
    crease: object  # (padded) the page's creases
    hsv: object  # the page, white balanced, in hsv
    gray: object  # (padded) the page in grey, specks smoothed out
    blank: object  # the blank page, grey


def look_at(cv2, np, sight: _Sight, box, photo, window, sl, dark) -> Look:
    """What `box` shows: its window of the photo (`photo`, padded; `window` on the page, its
    inside `sl` there) and that window's darkness over the blank page's (`dark`)."""
    extra, core, trace = dark > sight.ink_t, dark > sight.core_t, dark > sight.trace_t
    origin = (window[1].start, window[0].start)
    cell = box.field in sight.cells
    part, strong = extra[sl], core[sl]
    if cell:
        part, strong = part | sight.coloured[photo][sl], strong | sight.vivid[photo][sl]
    score = float(part.mean()) if part.size else 0.0
    hold = long = 0.0
    if score > LOW and not cell:
        hold = held(cv2, np, extra, core, sight.bridge[window], box, origin)
        long = longest(cv2, np, extra, core, box, origin)
    got = Look(
        box,
        np.where(sight.crease[photo][sl], 0.0, dark[sl]),
        score,
        spread(np, part),
        float(strong.mean()) if part.size else 0.0,
        hold,
        _like_print(np, part, sight.on_print[window][sl], sight.printed[window][sl] < 0.1),
        long,
    )
    insides, bridge = sight.insides[window], sight.bridge[window]
    if box.kind == "round":
        # ink and a mark's dark core off the print itself (a light trace: see LIGHT_RING)
        got.ring, got.dark_ring = (
            round_about(cv2, np, m, insides, bridge, box, origin, sight.on_print[window]) for m in (extra, core)
        )
        got.light_ring = round_about(cv2, np, trace, insides, bridge, box, origin)
    elif not cell:
        got.round_in = round_inside(np, core, box, origin)
        if box.kind != "mini":
            span = np.hypot(box.w, box.h) / 2 + 2.5
            # ink round it, off the print (a sharpened photo shows the print round a box darker
            # than the blank page: the ninth generator's seed 1 photo 9, a group's frame and the
            # text under it 0.86 of the way round an empty box); ink dark through, no speck
            # (SPECK) counted; a light trace (LIGHT_RING)
            got.around, got.dark_around, got.light_ring = (
                max(
                    round_outside(np, m & ~insides & ~bridge, box, origin),
                    traced(cv2, np, m, insides, bridge, box, origin, span, n),
                )
                for m, n in ((extra, 0), (extra & core, SPECK), (trace, SPECK))
            )
    if cell:
        dx, dy = photo[1].start - SHIFT - origin[0], photo[0].start - SHIFT - origin[1]  # the box's shift
        x, y, w, h = (round(v * PPMM) for v in inside(box))
        got.colour = (sight.hsv[max(0, y + dy) : y + dy + h, max(0, x + dx) : x + dx + w], part)
    else:
        bare = sight.far[window][sl]
        if bare.sum() >= 2 * PPMM**2:  # 2 mm² of bare paper at least (a ladder step's is mostly print)
            got.tint = float((sight.coloured[photo][sl] & bare).sum() / bare.sum())
            got.fill = float((sight.vivid[photo][sl] & bare).sum() / bare.sum())
            got.shade, got.paper = shaded(
                np, sight.gray[photo], sight.blank[window], sight.far[window], insides, box, origin, sl
            )
            if got.fill >= FILL:
                got.spill = spilled(np, sight.vivid[photo], sight.far[window], insides, box, origin)
    return got


def read_boxes(page, blank, all_boxes, cells: set):
    """(values, readings, scores, spreads, boxes read, troubles) of the markable boxes of a
    rectified page (RGB, PPMM) against its blank page (grey); `cells` are the grid cells;
    `troubles` (see TROUBLES): "noisy" when the photo's paper shows as dark as ink (see
    `paper_floor`, `box_floor`), "washed" when its print shows too light (see `washed_out`).
    A washed-out photo's boxes on paper clipped white (CLIPPED) are marked or unsure, none empty."""
    cv2, np = need_cv()
    gray = cv2.cvtColor(page, cv2.COLOR_RGB2GRAY)
    pad = SHIFT
    ink = cv2.copyMakeBorder(_ink(cv2, np, gray), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    plain = 1.0 - blank.astype(np.float32) / 255.0
    printed = _print_grown(cv2, np, plain)
    hsv = cv2.cvtColor(white_balanced(cv2, np, page, blank), cv2.COLOR_RGB2HSV)
    # a dark, noisy photo shows the bare paper itself as coloured as a stroke: colour
    # is only what is more coloured than most of the bare paper is (ink: below)
    page_ink = ink[pad:-pad, pad:-pad]  # (a view: the page's pixels, unpadded)
    paper = bare_paper(cv2, np, plain, all_boxes)
    washed = washed_out(np, gray, plain, paper)
    saturation_floor = paper_floor(np, hsv[..., 1], paper)
    # a blurred or over-exposed photo shows every stroke lighter, the print and a pencil
    # alike: a mark's core and a faint trace are looked for at darkness scaled by how dark
    # it shows the print (`contrast`); ink itself (INK) is not, or a mistake rubbed out and
    # crossed by a crease reads marked
    gain = contrast(cv2, np, page_ink, plain)
    core_t, faint_t = CORE * gain, FAINT * gain
    insides = np.zeros(printed.shape, bool)  # every box's inside (its marks), on the page
    for box in all_boxes:
        x, y, w, hh = (round(v * PPMM) for v in inside(box))
        insides[max(0, y) : y + hh, max(0, x) : x + w] = True
    H, W = printed.shape
    # light print (an icon in dropout colours) away from the dark print (see `seen_print`)
    light = (plain > ICON[0]) & (plain < PRINT) & ~_grown(cv2, np, plain >= PRINT, 4)
    read = [box for box in all_boxes if box.kind != "write" or box.field in cells]
    shifts = {box.field: box_shift(cv2, np, ink, plain, box) for box in read}
    unlike = unlike_siblings(cv2, np, ink, plain, read, shifts, pad, faint_t)
    # (box, its window on the photo and on the page, its inside there, its icon's fit: `icon_fit`)
    fits = []
    for box in read:
        dx, dy = shifts[box.field]
        # the box and a box's size around it, in page pixels (the photo's: moved by dx, dy)
        wx0, wy0 = max(0, round((box.x - box.w) * PPMM)), max(0, round((box.y - box.h) * PPMM))
        wx1, wy1 = min(W, round((box.x + 2 * box.w) * PPMM)), min(H, round((box.y + 2 * box.h) * PPMM))
        photo = (slice(wy0 + pad + dy, wy1 + pad + dy), slice(wx0 + pad + dx, wx1 + pad + dx))
        window = (slice(wy0, wy1), slice(wx0, wx1))
        x, y, w, hh = (round(v * PPMM) for v in inside(box))
        sl = slice(y - wy0, y - wy0 + hh), slice(x - wx0, x - wx0 + w)
        fits.append((box, photo, window, sl, icon_fit(cv2, np, ink[photo], plain[window], light[window], sl)))
    # the photo's own spread of its icons from their fits (a noisy, sharpened photo's is wide)
    fitted = [fit for *_, fit in fits if fit is not None]
    over = ICON[2] * 1.4826 * float(np.median([fit[0] for fit in fitted])) if fitted else 0.0

    def seen(page_lines=()):
        """Each box as in `fits`, with its window's darkness over the print as the photo shows it
        (see `seen_print`) in place of its fit."""
        return [
            (
                box,
                photo,
                window,
                sl,
                ink[photo] - seen_print(cv2, np, *(m[window] for m in (plain, printed, light)), fit, over, page_lines),
            )
            for box, photo, window, sl, fit in fits
        ]

    # ...and how the photo shows its light print, over the page (the median line of its boxes', as
    # printed): where it shows it DARKER than the blank page does (at its median darkness), a
    # phone's local contrast and sharpening, the icons are taken as dark as that (see `seen_print`):
    # their excess is print, not a noisy photo's ink in every box (`box_floor`); not where the bare
    # paper itself is as dark as ink (a dark, noisy photo read with care: the probe's seed 3 photo
    # 19 read 15 more boxes unsure)
    paper_ink = paper_floor(np, page_ink, paper)
    page_lines = []
    if fitted and paper_ink <= INK:
        # (a line of each kind: as printed, and blurred as the photo is, its blur each box's best)
        lines = [tuple(float(np.median([fit[1][k][i] for fit in fitted])) for i in (0, 1)) for k in (0, 1)]
        middle = float(np.median(plain[light & insides]))
        a, b = lines[0]
        if a + b * middle - middle >= DARKER:
            page_lines = lines
    placed = seen(page_lines)
    # a dark, noisy photo shows the bare paper itself as dark as a stroke, and a JPEG's
    # blocks and ringing show darkest beside the print, in every box: ink is only what
    # is darker than most of the bare paper, and NOISE times what a box shows (`box_floor`)
    ink_floor = max(paper_ink, NOISE * box_floor(np, [d[sl] for *_, sl, d in placed], paper_boxes(np, page_ink, paper)))
    noisy = ink_floor > INK
    sight = _Sight(
        ink_t=max(INK, ink_floor),
        trace_t=LIGHT_RING * max(INK, ink_floor),
        core_t=max(core_t, ink_floor),
        cells=cells,
        printed=printed,
        bridge=printed > 0.3,
        on_print=plain > 0.3,
        far=cv2.dilate((plain > 0.1).astype(np.uint8), np.ones((round(PPMM) + 1,) * 2, np.uint8)) == 0,
        insides=insides,
        # in a grid cell (colour pencils) colour counts as ink too: a light orange stroke is
        # barely darker than the paper, but plainly coloured; the paper and the empty cells are not
        coloured=_padded(cv2, np, hsv[..., 1] > max(COLOUR_INK * 255, saturation_floor), pad),
        vivid=_padded(cv2, np, hsv[..., 1] > max(COLOUR_INK * 255, VIVID * saturation_floor), pad),
        crease=_padded(cv2, np, creases(cv2, np, page_ink - printed, faint_t), pad),
        hsv=hsv,
        gray=cv2.copyMakeBorder(cv2.medianBlur(gray, 3), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255),
        blank=blank,
    )
    looks = [look_at(cv2, np, sight, *where) for where in placed]
    base = wash(np, [k.score for k in looks], [k.dark for k in looks])

    def measures(name):
        return {k.box.field: getattr(k, name) for k in looks if getattr(k, name) is not None}

    # a photo that shows the printed rings darker than on the blank page shows them all so: a
    # page has a few round boxes, often most of them marked, and their rings are measured
    # against the one showing least (the lower quartile was one of five pig bonus boxes circled
    # of seven, and four read empty on the fifth generator's seed 2 photo 0); but against the
    # lower quartile when a light trace goes round every one of them (RING[0]: the photo shows
    # their print; on the probe's seed 5 photo 41 the empty ones' dark cores went 0.17-0.86 of
    # the way round). Of 126 pages of five generators, three showed a trace round every one
    rounds = {k.box.field for k in looks if k.box.kind == "round"}
    light = measures("light_ring")
    light_round = {k: v for k, v in light.items() if k in rounds}
    light_square = {k: v for k, v in light.items() if k not in rounds}
    shows_print = light_round and min(light_round.values()) >= RING[0]
    least = functools.partial(np.percentile, q=25) if shows_print else min
    circled = (
        standing_out(np, measures("ring"), RING, least, most=RING_FLOOR)
        | standing_out(np, measures("around"), RING)
        | standing_out(np, light_square, RING)
        | standing_out(np, light_round, RING, least)
    )
    circled |= {f for f, v in measures("ring").items() if v >= RING[0]}
    circled |= {f for name in ("around", "dark_around") for f, v in measures(name).items() if v >= AROUND[0]}
    # (a mark: standing out from the boxes printed alike round it too; a box that does only from
    # the page's is circled, unsure: a photo blurred in one part, or a player circling every box)
    alike = _near_alike(np, [k.box for k in looks])
    round_in = (
        standing_out(np, measures("round_in"), ROUND, near=alike)
        | standing_out(np, measures("dark_ring"), RING, least, most=RING_FLOOR)
        | standing_out(np, measures("dark_around"), AROUND, near=alike)
    )
    tinted = standing_out(np, measures("tint"), TINT, most=TINT_FLOOR)
    filled = {k.box.field for k in looks if k.box.field in tinted and k.spill is not None and k.spill <= SPILL}
    filled |= {k.box.field for k in looks if k.shade is not None and k.shade >= FILL}
    middles = [faint_trace(cv2, np, k.dark - base, faint_t) for k in looks]
    # (both the photo's own, but never more than the bare paper shows, BARE_TRACE: see `paper_traces`)
    bare_trace, bare_pale = paper_traces(cv2, np, page_ink, paper, base, faint_t)
    noise = min(photo_trace(np, [k.score for k in looks], middles), max(BARE_TRACE[0] * bare_trace, BARE_TRACE[1]))
    # a paler trace, off the print, over the photo's own level (see PALE)
    hiddens = [sight.bridge[window][sl] for _, _, window, sl, _ in placed]
    pales = [
        _pale(cv2, np, k.dark - base, hidden) if k.score <= LOW else None
        for k, hidden in zip(looks, hiddens, strict=True)
    ]
    pale_top = min(pale_level(np, pales, hiddens), max(BARE_TRACE[0] * bare_pale, BARE_TRACE[2]))
    level = max(PALE[0] * faint_t * 255, PALE[1] * pale_top)
    # ...and a grid cell's, blurred, over the level of the page's cells (see PALE_CELL)
    # ...and in a board's cell (a "mini" box: no print in it, its middle half looked at), as in a
    # grid cell: the seventh generator's light pencil scribbles, crosses and ticks in Glassworks
    # board cells, 0.03-0.06 darker than the paper on noisy photos, read empty (4 on its seeds
    # 1-4); in every box with no print in it (pig and market boxes too) it made 28 more of them
    # unsure on 330 cached photos of six generators, and found no mark
    fine = [
        _blurred(cv2, np, k.dark - base, hidden, specks=k.box.kind == "mini")
        if pale is not None and (k.box.field in cells or k.box.kind == "mini")
        else None
        for k, pale, hidden in zip(looks, pales, hiddens, strict=True)
    ]
    # (the grid cells' level and the board cells' each their own)
    fine_levels = {
        group: max(
            PALE_CELL[1] * faint_t * 255,
            PALE[1]
            * pale_level(np, [f if (k.box.field in cells) == group else None for k, f in zip(looks, fine)], hiddens),
        )
        for group in (True, False)
    }
    # ...its creases (a fold as pale as that), and how far round a round box with no ink it goes:
    # a circle drawn lightly round it, standing out from the page's other round boxes as LIGHT_RING
    smooth = _smoothed(cv2, np, page_ink - printed).astype(np.float32) / 255
    folds = _padded(cv2, np, creases(cv2, np, smooth, level / 255), pad)
    pale_rings = {
        k.box.field: round_about(
            cv2,
            np,
            (_smoothed(cv2, np, d) > level) & ~folds[photo],
            sight.insides[window],
            sight.bridge[window],
            k.box,
            (window[1].start, window[0].start),
        )
        for k, (_, photo, window, _, d) in zip(looks, placed, strict=True)
        if k.box.kind == "round" and k.score <= LOW
    }
    circled |= standing_out(np, pale_rings, RING, least)
    values = {box.field: "" for box in all_boxes if box.kind == "write" and box.field not in cells}  # not read
    readings, scores, spreads = {}, {}, {}
    for k, faint, pale, cell, (_, photo, _, sl, _) in zip(looks, middles, pales, fine, placed, strict=True):
        field = k.box.field
        if cell is not None:
            pale = cell
        reading = decide(
            k.score,
            k.reach,
            k.core,
            max(faint, unlike.get(field, 0.0)),
            k.hold,
            k.like_print,
            middle=faint,
            noise=noise,
            long=k.long,
            noisy=noisy,
            circled=field in circled,
            touching=k.box.kind == "mini",
            washed=washed and (k.paper is None or k.paper >= CLIPPED),
            round_in=field in round_in,
            tinted=field in tinted,
            filled=field in filled,
            unlike=unlike.get(field, 0.0),
            pale=(
                pale_stroke(
                    cv2, np, np.where(folds[photo][sl], 0, pale), level if cell is None else fine_levels[field in cells]
                )
                if pale is not None
                else 0.0
            ),
        )
        scores[field], spreads[field], readings[field] = k.score, k.reach, reading
        if k.colour is not None:
            hsv_box, part = k.colour
            same = hsv_box.shape[:2] == part.shape
            values[field] = (_colour(np, hsv_box, part) if same else "?") if reading == MARKED else ""
        else:
            values[field] = reading == MARKED
    troubles = tuple(name for name, seen in (("noisy", noisy), ("washed", washed)) if seen)
    return values, readings, scores, spreads, [k.box for k in looks], troubles


def round_about(cv2, np, mask, insides, hidden, box, origin, line=None) -> float:
    """How far round a round box a stroke (`mask`, round the box: see `look_at`) goes, off
    the print itself (`line`, a mask as `mask`, if given): along its printed ring (`ringed`),
    or round it where the print hides it (`traced`). A photo can show a grey printed ring
    darker than the blank page does (sharpened, its contrast raised: the probe's seed 5 photo
    41 showed an empty colony step's at 0.93, the blank page 0.70), all the way round; a
    circle drawn by hand leaves the printed line somewhere round the box. (A light trace on
    the printed ring tells that the photo shows the print: see `read_boxes`.)"""
    span = np.hypot(box.w, box.h) / 2 + 1.5
    if line is not None:
        mask = mask & ~line
    return max(ringed(np, mask, box, origin, line), traced(cv2, np, mask, insides, hidden, box, origin, span))


def ringed(np, extra, box, origin, line=None) -> float:
    """How much of the way round a round box a stroke goes along its printed ring: the
    share of the 36 sectors (10 degrees each) around its centre holding ink (`extra`, a
    mask around the box, its top-left at `origin` px on the page; 2 pixels at least) in
    the band from 1 mm inside the ring to 1.5 mm outside it, and, given the print itself
    (`line`, a mask as `extra`, which then holds no ink on it), of those where the stroke
    runs under it (`_under_print`) when it then goes RING[0] of the way round: a box stands
    out from the page's other round boxes (see `read_boxes`), and a stroke round those goes
    under their print too. A circle drawn round the box goes all the way round, out of its
    inside; a stroke straying in from the next box crosses a few sectors."""
    edge = min(box.w, box.h) / 2
    side = (edge + 1.5) * PPMM
    extra, dx, dy, *lines = _about(np, extra, box, origin, side, side, *([] if line is None else [line]))
    dist, sector = _polar(np, dx, dy)  # (the window's: the same for the box's three masks)
    r = dist / PPMM
    band = (r > edge - 1.0) & (r < edge + 1.5)
    stroke = extra & band
    seen = _sectors(np, dx[stroke], dy[stroke], np.inf)
    if lines:
        printed = lines[0] & band
        # where the stroke may go under the print: near it, on an arc round this box
        near = np.abs(_radii(np, stroke, sector, r) - _radii(np, printed, sector, r)) <= HIDDEN_ARC[1]
        ends = near & _bending(np, seen, stroke, sector, dx, dy, (max(box.w, box.h) / 2 + 1.0) * PPMM)
        hidden = seen | _under_print(np, seen, ends, _sectors(np, dx[printed], dy[printed], np.inf))
        if hidden.mean() >= RING[0]:  # (the page's other round boxes are the floor: see `read_boxes`)
            seen = hidden
    return float(seen.mean())


def _radii(np, mask, sector, r):
    """The mean distance (`r`) from a centre of the pixels of `mask` in each of the 36 sectors
    round it (`sector`: each pixel's, see `_sector`); NaN in a sector with none."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.bincount(sector[mask], weights=r[mask], minlength=36) / np.bincount(sector[mask], minlength=36)


def _bending(np, seen, stroke, sector, dx, dy, near: float):
    """The sectors (of 36) of each run of `seen` ones that bends round a centre within `near`
    px of the box's (the pixels of `stroke` in it; `sector` each pixel's, `dx`, `dy` its place
    from the box's centre), and of each run too short to tell (under 3 sectors)."""
    out = np.zeros(36, bool)
    for run in _runs(np, seen):
        pick = stroke & np.isin(sector, run)
        out[run] = len(run) < 3 or _centre_off(np, dx[pick], dy[pick]) <= near
    return out


def _under_print(np, seen, ends, printed):
    """The sectors (of 36, round a round box) where a stroke along its ring runs under the
    print: each gap of HIDDEN_ARC[0] sectors at most between two of the stroke's runs of 2
    `seen` sectors at least, the print in every sector of it (`printed`), from where the
    stroke may go under it on both sides (`ends`: it comes within HIDDEN_ARC[1] mm of the
    print there, on an arc round the box). A thin pen circle drawn on a colony step's
    printed border (the eighth generator's seed 2 photo 13) shows off it in runs of 2-6
    sectors, within 0.6 mm of the printed line where it goes under it, hidden 2-6 sectors
    at a time. A tick or a stroke straying in from the next box leaves one gap round the rest
    of the ring, or lies in single sectors; an arc of a circle round the box beside it
    bends round that box, and leaves the ring 1-2 mm from its print, or 10 sectors from
    another arc. On 285 photos of six generators with round boxes, no empty one's measure
    rose (gaps of 10 would have made 5 of them marked), and 126 measures of circled ones
    did: 4 boxes read marked now, none wrong (one was read empty, three unsure)."""
    out = np.zeros(36, bool)
    for gap in _runs(np, ~seen):
        before, after = gap[0] - 1, (gap[-1] + 1) % 36  # (seen: the runs of ~seen are whole)
        runs = seen[before - 1] and seen[(after + 1) % 36]
        if len(gap) <= HIDDEN_ARC[0] and runs and ends[before] and ends[after] and printed[gap].all():
            out[gap] = True
    return out


def _paper_round(np, bare, insides, box, origin, *more):
    """The bare paper round a box (`bare` 0.5 to 2.5 mm out of it, off every box's
    `insides`; masks round the box, their top-left at `origin` px on the page) and the same
    part of each of `more` (arrays as `bare`); None with less than a square millimetre of
    such paper (a board copy's cells touch)."""
    half_w, half_h = box.w / 2 * PPMM, box.h / 2 * PPMM
    reach = 2.5 * PPMM
    bare, dx, dy, insides, *more = _about(np, bare, box, origin, half_w + reach, half_h + reach, insides, *more)
    out = (np.abs(dx) > half_w + 0.5 * PPMM) | (np.abs(dy) > half_h + 0.5 * PPMM)
    band = bare & ~insides & out
    return (band, *more) if band.sum() >= PPMM**2 else None


def spilled(np, vivid, bare, insides, box, origin) -> float | None:
    """How much of the bare paper round a box (see `_paper_round`) is plainly coloured
    (`vivid`, a mask as `bare`): a highlighter's fill stays in its box, a stain or a coloured
    light does not. None with too little such paper."""
    around = _paper_round(np, bare, insides, box, origin, vivid)
    if around is None:
        return None
    band, vivid = around
    return float((vivid & band).sum() / band.sum())


def shaded(np, gray, blank, bare, insides, box, origin, sl) -> tuple:
    """How much of the bare part of a box's inside (`bare`, 0.5 mm from any print; `sl` the
    inside in these masks round the box, their top-left at `origin` px on the page) shows SHADE
    darker than the bare paper round it (see `_paper_round`), in the photo (`gray`) against
    the blank page (`blank`): a box shaded evenly with a pencil; and how light the paper
    shows, round it or inside it, whichever is lighter (their median grey, 0-255: see
    CLIPPED; a light tint printed round a box shows grey where its inside is white). Each
    None with too little such paper."""
    around = _paper_round(np, bare, insides, box, origin, gray, blank)
    if around is None:
        return None, None
    band, g, b = around
    seen, printed = _median_u8(np, g[band]), _median_u8(np, b[band])
    inner = bare[sl]
    paper = max(seen, _median_u8(np, gray[sl][inner])) if inner.any() else None
    if seen <= 0 or printed <= 0:
        return None, paper
    darker = gray[sl][inner] / seen < blank[sl][inner] / printed - SHADE
    return (float(darker.mean()) if darker.size else None), paper


def _median_u8(np, values) -> float:
    """The median of 8-bit values, as np.median gives it, by counting them (quicker for a
    box's few thousand)."""
    n = values.size
    if not n:
        return float("nan")
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    low, high = np.searchsorted(counts, [(n - 1) // 2, n // 2], side="right")  # the middle one or two
    return (int(low) + int(high)) / 2


def traced(cv2, np, ink, insides, hidden, box, origin, reach: float, speck: int = 0) -> float:
    """How much of the way round a box a stroke goes, counting where the print hides it:
    the share of the 36 sectors round its centre where a stroke round it shows (see
    `_showing`, `_round_sectors`; `ink` a mask round the box, its top-left at `origin` px on
    the page; `insides` every box's inside, `hidden` the print, masks as `ink`; up to
    `reach` mm from the centre), and of those between two such sectors where the print lies
    on the way a stroke between them would go (`_hidden_gaps`). A pencil circle drawn tight
    round a box runs over its printed border, and over the next box's: the sectors where it
    shows are not all the way round, but the print covers the gaps. Counted only when the
    stroke shows TRACE of the way round, never more than GAP sectors apart (else 0): a
    stroke straying in from the next box shows in a few sectors, or on one side, and the
    print round a box in a grid is everywhere; nor when no piece of it is a stroke's (see
    STROKE). Pieces under `speck` pixels are not counted (see SPECK)."""
    side = reach * PPMM
    ink, dx, dy, insides, hidden = _about(np, ink, box, origin, side, side, insides, hidden)
    rough = ink & ~insides & ~hidden  # (`_showing` only takes away from it)
    if rough.sum() < 2 * TRACE * 36 or _sectors(np, dx[rough], dy[rough], side).mean() < TRACE:
        return 0.0
    r, sector = _polar(np, dx, dy)
    shows = _showing(cv2, np, ink, insides, hidden, box, dx, dy, speck) & (r <= side)
    areas = cv2.connectedComponentsWithStats(shows.astype(np.uint8), connectivity=8)[2][1:, cv2.CC_STAT_AREA]
    if not len(areas) or areas.max() < STROKE * PPMM**2:
        return 0.0
    seen = _round_sectors(np, shows, sector, r, dx, dy, (max(box.w, box.h) / 2 + 1.0) * PPMM)
    if seen.mean() < TRACE or _longest_gap(np, seen) > GAP:
        return 0.0
    return float((seen.sum() + _hidden_gaps(cv2, np, seen, shows, sector, r, hidden, dx, dy)) / 36)


_POLAR: dict = {}  # the last few boxes' `_polar`, by their window's row and column


def _polar(np, dx, dy):
    """Each pixel's distance from a box's centre and its sector (`_sector`), given each
    pixel's place from it (`_about`, a row and a column broadcast): the same for the three
    masks `look_at` measures round one box (`traced`, `ringed`), so worked out once (read-only)."""
    key = (dx[0].tobytes(), dy[:, 0].tobytes())
    if key not in _POLAR:
        if len(_POLAR) >= 4:
            _POLAR.clear()
        r, sector = np.hypot(dx, dy), _sector(np, dx, dy)
        r.flags.writeable = sector.flags.writeable = False
        _POLAR[key] = r, sector
    return _POLAR[key]


def _showing(cv2, np, ink, insides, hidden, box, dx, dy, speck: int = 0):
    """The ink that may be a stroke round a box (masks round it; `dx`, `dy` each pixel's
    place from its centre): off the print (`hidden`) and 0.25 mm beyond the box's own,
    out of every box's inside (`insides`), and not a stroke reaching into another box's
    inside (that box's mark, a check overshooting it; joined across the print it crosses);
    no piece under `speck` pixels, if given."""
    x, y, w, h = ((v - c) * PPMM for v, c in zip(inside(box), (box.x + box.w / 2, box.y + box.h / 2, 0, 0)))
    mine = (dx >= x) & (dx < x + w) & (dy >= y) & (dy < y + h)
    closed = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)).astype(bool)
    _, labels = cv2.connectedComponents((ink | (closed & hidden)).astype(np.uint8), connectivity=8)
    # (a piece reaching DEEP into another box's inside: one grazing its edge is a circle round
    # this box drawn wide, over the next box's border)
    deep = cv2.erode((insides & ~mine).astype(np.uint8), np.ones((2 * DEEP + 1,) * 2, np.uint8)).astype(bool)
    reaching = np.zeros(labels.max() + 1, bool)  # (a table of the pieces: quicker than np.isin)
    reaching[labels[deep & ink]] = True
    theirs = reaching[labels]
    near = (np.abs(dx) <= (box.w / 2 + 0.5) * PPMM) & (np.abs(dy) <= (box.h / 2 + 0.5) * PPMM)
    own = _grown(cv2, np, hidden & near, round(0.25 * PPMM))
    shows = ink & ~theirs & ~insides & ~own & ~hidden
    if speck:  # ...and no piece under `speck` pixels
        _, labels, stats, _ = cv2.connectedComponentsWithStats(shows.astype(np.uint8), connectivity=8)
        shows &= (stats[:, cv2.CC_STAT_AREA] >= speck)[labels]
    return shows


def _round_sectors(np, shows, sector, r, dx, dy, near: float):
    """The sectors (of 36) a stroke round the box shows in: 2 pixels of `shows` at least,
    within ROUND_WIDTH mm of one another from the centre (a stroke round the box crosses a
    sector; one pointing at it, a check's tail, runs along it), and, for a run of 3 such
    sectors or more, bending round a centre within `near` px of the box's (a circle round
    the next box passes by this one bending away from it; a straight stroke bends round
    nothing)."""
    counts = np.bincount(sector[shows], minlength=36)
    inner, outer = np.full(36, np.inf), np.zeros(36)
    np.minimum.at(inner, sector[shows], r[shows])
    np.maximum.at(outer, sector[shows], r[shows])
    seen = (counts >= 2) & (outer - inner <= ROUND_WIDTH * PPMM)
    for run in _runs(np, seen):
        if 3 <= len(run) < 36:
            pick = shows & np.isin(sector, run)
            seen[run] = _centre_off(np, dx[pick], dy[pick]) <= near
    return seen


def _centre_off(np, x, y) -> float:
    """How far from (0, 0) the centre of the circle nearest the points (`x`, `y`) lies."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    # the circle x² + y² + a x + b y + c = 0 nearest the points: its centre at -a/2, -b/2
    a, b, _ = np.linalg.lstsq(np.column_stack([x, y, np.ones_like(x)]), -(x * x + y * y), rcond=None)[0]
    return float(np.hypot(a / 2, b / 2))


def _hidden_gaps(cv2, np, seen, shows, sector, r, hidden, dx, dy) -> int:
    """How many sectors between two `seen` (of 36) a stroke going from one to the other
    would be hidden in: its distance from the centre drawn straight between theirs (the
    mean of the `shows` pixels' `r` in each), within 0.4 mm of the print (`hidden`)."""
    counts = np.bincount(sector[shows], minlength=36)
    radius = np.bincount(sector[shows], weights=r[shows], minlength=36) / np.maximum(counts, 1)
    near = _grown(cv2, np, hidden, round(0.4 * PPMM))
    h, w = hidden.shape
    cx, cy = -dx[0, 0], -dy[0, 0]  # the centre, in the window's pixels
    marks, covered = np.flatnonzero(seen), 0
    for s in np.flatnonzero(~seen):
        before, after = marks[marks < s], marks[marks > s]
        a = before[-1] if len(before) else marks[-1] - 36
        b = after[0] if len(after) else marks[0] + 36
        rs = radius[a % 36] + (radius[b % 36] - radius[a % 36]) * (s - a) / (b - a)
        angle = (s + 0.5) / 36 * 2 * np.pi - np.pi
        x, y = round(cx + rs * np.cos(angle)), round(cy + rs * np.sin(angle))
        covered += 0 <= x < w and 0 <= y < h and bool(near[y, x])
    return covered


def _runs(np, flags) -> list:
    """The runs of True in a circular array of booleans, each the list of its indices in
    order (one run the whole way round when all are True)."""
    if flags.all():
        return [list(range(len(flags)))]
    start = int(np.argmin(flags))  # a False: the runs from there round
    runs, run = [], []
    for k in [*range(start, len(flags)), *range(start), start]:
        if flags[k]:
            run.append(k)
        elif run:
            runs.append(run)
            run = []
    return runs


def _longest_gap(np, seen) -> int:
    """The longest run of False in a circular array of booleans."""
    return max((len(run) for run in _runs(np, ~seen)), default=0)


def _grown(cv2, np, mask, px: int):
    """`mask` grown by `px` pixels every way (a square)."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * px + 1,) * 2, np.uint8)).astype(bool)


def standing_out(
    np, measures: dict, limits: tuple, floor=None, near: dict | None = None, most: float | None = None
) -> set:
    """The fields whose measure (a box's field: how far round it ink goes, how much of it
    is coloured...) is limits[0] at least and limits[1] over the page's `floor` of them
    (the median, unless given; counted up to `most` when given, so that a page whose boxes
    are nearly all marked does not hide its marks: see RING_FLOOR, TINT_FLOOR): what the
    photo shows in every box of the kind (a printed ring or border darker than on the blank
    page, a tint all over) is no mark. Given
    `near` (a field's boxes printed alike round it, see `_near_alike`), over their median
    too where there are NEAR[1] of them: a photo blurred in one part (a phone's portrait
    mode) shows every border there thick."""
    if not measures:
        return set()
    base = float((floor or np.median)(list(measures.values())))
    if most is not None:
        base = min(base, most)
    out = set()
    for key, v in measures.items():
        around = [measures[f] for f in (near or {}).get(key, ()) if f in measures]
        local = float(np.median(around)) if len(around) >= NEAR[1] else base
        if v >= limits[0] and v - max(base, local) >= limits[1]:
            out.add(key)
    return out


def _near_alike(np, boxes: list) -> dict:
    """Each box's field -> the fields of the boxes of its size (to 10%) within NEAR[0] mm of
    it, centre to centre."""
    at = np.array([(b.x + b.w / 2, b.y + b.h / 2, b.w, b.h) for b in boxes], np.float64).reshape(-1, 4)
    out = {}
    for i, b in enumerate(boxes):
        close = np.hypot(at[:, 0] - at[i, 0], at[:, 1] - at[i, 1]) <= NEAR[0]
        alike = (np.abs(at[:, 2] - b.w) <= 0.1 * b.w) & (np.abs(at[:, 3] - b.h) <= 0.1 * b.h)
        out[b.field] = [boxes[j].field for j in np.flatnonzero(close & alike) if j != i]
    return out


def _round(np, band, dx, dy) -> float:
    """The share of the 36 sectors (10 degrees each) round a centre holding 2 pixels of
    `band` at least (`dx`, `dy`: each pixel's place from the centre)."""
    return float(_sectors(np, dx[band], dy[band], np.inf).mean())


def _sector(np, dx, dy):
    """Which of the 36 sectors (10 degrees each) round a centre each point (`dx`, `dy` from it) lies in."""
    return ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * 36).astype(int) % 36


def _sectors(np, dx, dy, side: float):
    """Which of the 36 sectors round a centre hold 2 of the points (`dx`, `dy` from it) at
    least, `side` px from it at most."""
    near = np.hypot(dx, dy) <= side
    return np.bincount(_sector(np, dx[near], dy[near]), minlength=36) >= 2


def round_inside(np, mask, box, origin) -> float:
    """How much of the way round inside a square box a stroke goes: the share of the 36
    sectors (10 degrees each) around its centre holding ink (`mask`, around the box, its
    top-left at `origin` px on the page: a mark's dark core, as a grey smear rubbed out is
    not; 2 pixels at least) within its printed border (0.3 mm in from it),
    0.3 of the way out from the centre at least. A circle drawn in the box along its
    border goes all the way round, and leaves the middle bare (a ring over the inside
    that `decide` is given); a tick or a cross reaches a few directions."""
    hx, hy = (box.w / 2 - 0.3) * PPMM, (box.h / 2 - 0.3) * PPMM
    mask, dx, dy = _about(np, mask, box, origin, hx, hy)
    band = mask & (np.abs(dx) < hx) & (np.abs(dy) < hy) & (np.hypot(dx, dy) >= 0.3 * min(hx, hy))
    return _round(np, band, dx, dy)


def round_outside(np, mask, box, origin) -> float:
    """How much of the way round a square box a stroke goes outside it: the share of the 36
    sectors around its centre holding ink (`mask`, as `round_inside` takes it, without
    any box's inside: its own and the others', where their marks are) up to 2.5 mm beyond
    its corners. A circle drawn round the box goes all the way round (over its printed
    border at the corners); a stroke straying in from the next box crosses a few sectors."""
    reach = (np.hypot(box.w, box.h) / 2 + 2.5) * PPMM
    mask, dx, dy = _about(np, mask, box, origin, reach, reach)
    return float(_sectors(np, dx[mask], dy[mask], reach).mean())


def _about(np, mask, box, origin, hx: float, hy: float, *more):
    """The part of `mask` (its top-left at `origin` px on the page) within `hx`, `hy` px of
    the box's centre (a pixel more), and each of its pixels' place from the centre; then
    the same part of each of `more` (masks as `mask`)."""
    cx, cy = (box.x + box.w / 2) * PPMM - origin[0], (box.y + box.h / 2) * PPMM - origin[1]
    h, w = mask.shape
    x0, x1 = max(0, int(cx - hx) - 1), min(w, int(cx + hx) + 2)
    y0, y1 = max(0, int(cy - hy) - 1), min(h, int(cy + hy) + 2)
    # (read-only views of a row and a column: the same values as a grid, at no cost)
    shape = (max(0, y1 - y0), max(0, x1 - x0))
    xx = np.broadcast_to(np.arange(x0, x1, dtype=np.float32) - np.float32(cx), shape)
    yy = np.broadcast_to((np.arange(y0, y1, dtype=np.float32) - np.float32(cy))[:, None], shape)
    return (mask[y0:y1, x0:x1], xx, yy, *(m[y0:y1, x0:x1] for m in more))


def _padded(cv2, np, mask, pad: int):
    """A mask of the page with `pad` pixels of nothing around it, as `read_boxes` pads the ink."""
    return cv2.copyMakeBorder(mask.astype(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0).astype(bool)


def creases(cv2, np, dark, faint: float):
    """A mask of the page's creases: faint straight lines (darker than `faint`, lighter than
    INK) CREASE mm long at least, 1 mm wide. A sheet folded for the pocket shows its fold
    as a thin grey line across the page, a faint trace in every box it crosses; no pencil
    mark is a straight line that long. None when the faint part of the page is too large
    (over 5%: a noisy photo) to look for lines in."""
    faint_line = ((dark > faint) & (dark < INK)).astype(np.uint8)
    mask = np.zeros(dark.shape, np.uint8)
    if faint_line.mean() > 0.05:
        return mask.astype(bool)
    # looked for at half the resolution (4 pixels a mm): a quarter of the work
    h, w = faint_line.shape
    half = cv2.resize(
        cv2.dilate(faint_line, np.ones((2, 2), np.uint8)), (w // 2, h // 2), interpolation=cv2.INTER_NEAREST
    )
    long = round(CREASE * PPMM / 2)
    found = cv2.HoughLinesP(half, 1, np.pi / 360, threshold=long // 2, minLineLength=long, maxLineGap=round(1.5 * PPMM))
    for x1, y1, x2, y2 in found.reshape(-1, 4) if found is not None else []:
        cv2.line(mask, (int(x1) * 2, int(y1) * 2), (int(x2) * 2, int(y2) * 2), 1, thickness=round(PPMM))
    return mask.astype(bool)


def bare_paper(cv2, np, plain, boxes):
    """A mask of the page's bare paper: BARE mm at least from anything printed (`plain`, the
    blank page's darkness) and from every box (where the marks are), and 5 mm within the
    page's edge."""
    far = round(2 * BARE * PPMM) + 1
    bare = cv2.dilate((plain > 0.05).astype(np.uint8), np.ones((far, far), np.uint8)) == 0
    for box in boxes:
        x0, y0 = max(0, round((box.x - BARE) * PPMM)), max(0, round((box.y - BARE) * PPMM))
        bare[y0 : round((box.y + box.h + BARE) * PPMM), x0 : round((box.x + box.w + BARE) * PPMM)] = False
    edge = round(5 * PPMM)
    bare[:edge], bare[-edge:], bare[:, :edge], bare[:, -edge:] = False, False, False, False
    return bare


def box_floor(np, insides: list, paper: float | None = None) -> float:
    """How dark the inside of an empty box shows on this photo: its darkest twentieth (the
    95th percentile of its darkness over the blank page), in the box that shows it the
    10th lightest of all the page's boxes (`insides`: their darkness arrays). A clean photo
    shows an empty box's inside under 0.06, an under-exposed, JPEG-blocked one 0.1 and more:
    blocks and ringing beside the printed border as dark as a pencil stroke. But never more
    than BOX_PAPER[0] times what the bare paper shows in squares of a box's size (`paper`,
    see `paper_boxes`), when told: a sheet whose boxes are nearly all marked (at the end of
    a game) shows a mark in that tenth box, and on a clean photo was read as a noisy one,
    most of its marks empty; on 330 photos of six generators an empty box showed 0.6 to 2.7
    times what the bare paper did. 0 with no box."""
    tops = [float(np.percentile(d, 95)) for d in insides if d.size]
    floor = float(np.percentile(tops, 10)) if tops else 0.0
    return floor if paper is None else min(floor, BOX_PAPER[0] * paper)


def paper_boxes(np, values, bare) -> float | None:
    """How dark the bare paper shows in a box's stead (darkness 0-1, `values`; `bare`: the
    bare paper, see `bare_paper`): the median, over the page's squares of BOX_PAPER[1] mm
    that are mostly bare paper, of each one's darkest twentieth there (its 95th percentile,
    as `box_floor` takes a box's; every second pixel of every second row; 64 squares at
    most, see `_bare_squares`). None with fewer than five such squares."""
    side = round(BOX_PAPER[1] * PPMM)
    tops = [
        float(np.percentile(values[y : y + side : 2, x : x + side : 2][bare[y : y + side : 2, x : x + side : 2]], 95))
        for y, x in _bare_squares(np, bare, side, 0.5)
    ]
    return float(np.median(tops)) if len(tops) >= 5 else None


def paper_floor(np, values, bare) -> float:
    """How dark (or coloured) the bare paper shows in all but its darkest PAPER share: a
    stroke must be more than that to be ink. A clean photo's bare paper stays far under
    INK; an under-exposed, sharpened, JPEG-blocked one shows noise as dark as pencil all
    over. In the units of `values` (darkness 0-1, or a saturation 0-255); 0 when there is
    too little bare paper (under BARE_PIXELS) to tell. The FLOOR_TILE-mm squares of the
    page whose own darkest PAPER share stands out from the others' (FLOOR_OFF spreads over
    their median) are left out: a finger, a die or a pencil lying on the sheet is in a few
    squares, a photo's noise all over it, and unevenly (more in its shadows)."""
    if int(bare.sum()) < BARE_PIXELS:
        return 0.0
    # (each square's darkest share looked for in every fourth pixel of it, every fourth row: as
    # well told, at a sixteenth of the cost)
    side, few, bare2 = round(FLOOR_TILE * PPMM / 4), values[::4, ::4], bare[::4, ::4]
    tops = {}
    for y in range(0, bare2.shape[0], side):
        for x in range(0, bare2.shape[1], side):
            here = bare2[y : y + side, x : x + side]
            if int(here.sum()) >= FLOOR_PIXELS / 16:
                tops[y, x] = float(np.percentile(few[y : y + side, x : x + side][here], 100 * (1 - PAPER)))
    if len(tops) >= 5:
        middle = float(np.median(list(tops.values())))
        spread = 1.4826 * float(np.median(np.abs(np.array(list(tops.values())) - middle)))
        limit = middle + FLOOR_OFF * max(spread, 0.01 * max(tops.values()))
        out = [at for at, top in tops.items() if top > limit]
        if out:  # (the whole page's bare paper, as before, without the squares standing out)
            bare = bare.copy()
            for y, x in out:
                bare[4 * y : 4 * (y + side), 4 * x : 4 * (x + side)] = False
            if int(bare.sum()) < BARE_PIXELS:
                return 0.0
    return float(np.percentile(values[bare], 100 * (1 - PAPER)))


def washed_out(np, gray, plain, bare) -> bool:
    """Whether a photo (`gray`, rectified) shows its print (where the blank page's darkness
    `plain` is over PRINT: text, lines, icons) lighter than WASHED of its `bare` paper's
    brightness, medians, its paper WASHED_PAPER or lighter: an over-exposed photo, its paper
    clipped white, shows a soft pencil's light strokes white too. False with too little
    bare paper or print to tell."""
    print_ = plain > PRINT
    if int(bare.sum()) < BARE_PIXELS or not print_.any():
        return False
    paper = float(np.median(gray[bare]))
    return paper >= WASHED_PAPER and float(np.median(gray[print_])) > WASHED * paper


def contrast(cv2, np, ink, plain) -> float:
    """How dark a photo shows the page's print against the blank page: 1 as dark (or
    darker), less when the photo is blurred or over-exposed, CONTRAST at least. The median
    darkness of the photo (`ink`, at its darkest within a pixel, so that the print's lines
    need not be exactly in place) where the blank page (`plain`) is dark, over the blank
    page's own there."""
    mask = plain > PRINT
    if not mask.any():
        return 1.0
    seen = float(np.median(cv2.dilate(ink, np.ones((3, 3), np.uint8))[mask]))
    return min(max(seen / float(np.median(plain[mask])), CONTRAST), 1.0)


def align(cv2, np, around, blank):
    """The rectified photo moved onto the blank page piece by piece (see TILE): each
    TILE mm square of the blank page that holds print is matched in the photo within
    REACH mm (normalised cross-correlation, at half resolution, the peak refined to a
    fraction of a pixel); a shift is kept only when the match is clear and inside the
    reach. The shifts, without those far from their neighbours' (`_outliers`: a wrong
    match), filled in from their neighbours where a square holds no print, and
    median-filtered, make a smooth field the photo is remapped by. `around`: the
    rectified photo with REACH mm of what lies around the page (`warp`), so that a
    square at the page's edge is looked for on both sides too; the page returned is the
    blank page's size."""
    H, W = blank.shape[:2]
    m = (around.shape[0] - H) // 2  # the margin around the page, px
    half = cv2.resize(cv2.cvtColor(around, cv2.COLOR_RGB2GRAY), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    plain = cv2.resize(blank, (round(W / 2), round(H / 2)), interpolation=cv2.INTER_AREA)
    t, r, e = round(TILE * PPMM / 2), round(REACH * PPMM / 2), m // 2
    rows, cols = plain.shape[0] // t, plain.shape[1] // t
    shift = np.full((rows, cols, 2), np.nan, np.float32)
    for i in range(rows):
        for j in range(cols):
            y0, x0 = i * t, j * t
            tpl = plain[y0 : y0 + t, x0 : x0 + t]
            if tpl.std() < 12:  # plain paper, nothing to match
                continue
            wy, wx = max(0, y0 + e - r), max(0, x0 + e - r)  # the window, in `half`
            res = cv2.matchTemplate(half[wy : y0 + e + t + r, wx : x0 + e + t + r], tpl, cv2.TM_CCOEFF_NORMED)
            _, peak, _, (px, py) = cv2.minMaxLoc(res)
            at = (x0 + e - wx, y0 + e - wy)  # where the page says the square is, in `res`
            if peak < res[at[1], at[0]] + CLEARER:  # as good where the page says (a band): kept there
                px, py = at
            if peak < 0.5 or not (0 < px < res.shape[1] - 1 and 0 < py < res.shape[0] - 1):
                continue
            shift[i, j] = (
                px + _vertex(res[py, px - 1 : px + 2]) - at[0],
                py + _vertex(res[py - 1 : py + 2, px]) - at[1],
            )
    if np.isnan(shift).all():
        return around[m : m + H, m : m + W]
    shift = _fill(cv2, np, _outliers(np, shift, ODD * PPMM / 2))
    shift = cv2.medianBlur(shift, 3) if rows >= 3 and cols >= 3 else shift
    # the shifts hold at the squares' centres, in half-resolution pixels
    field = cv2.resize(shift * 2, (cols * t * 2, rows * t * 2), interpolation=cv2.INTER_LINEAR)
    field = cv2.copyMakeBorder(
        field, 0, max(0, H - field.shape[0]), 0, max(0, W - field.shape[1]), cv2.BORDER_REPLICATE
    )
    field = field[:H, :W]
    field[..., 0] += np.arange(m, m + W, dtype=np.float32)[None, :]
    field[..., 1] += np.arange(m, m + H, dtype=np.float32)[:, None]
    return cv2.remap(around, field, None, cv2.INTER_LINEAR, borderValue=(255, 255, 255))


def _outliers(np, shift, limit: float):
    """The shifts (NaN where unknown) without those `limit` or more from the median of
    their known neighbours (four at least; among the next ring of squares too where the
    nearest hold fewer): a square matched a period off on a board of like cells, or
    along a line of text. Dropped before the gaps are filled, as the gaps are filled
    from the neighbours: a wrong match among squares with nothing to match (a board's
    blurred cells) would spread its shift over them (the ninth generator's seed 1 photo
    11: 2.5 mm, a board's last columns moved off their boxes)."""
    rows, cols = shift.shape[:2]
    out = shift.copy()
    for i in range(rows):
        for j in range(cols):
            if np.isnan(shift[i, j, 0]):
                continue
            for ring in (1, 2):
                known = [
                    shift[y, x]
                    for y in range(max(0, i - ring), min(rows, i + ring + 1))
                    for x in range(max(0, j - ring), min(cols, j + ring + 1))
                    if (y, x) != (i, j) and not np.isnan(shift[y, x, 0])
                ]
                if len(known) >= 4:
                    break
            else:
                continue
            middle = np.median(np.array(known), axis=0)
            if float(np.hypot(*(shift[i, j] - middle))) >= limit:
                out[i, j] = np.nan
    return out


def _vertex(three) -> float:
    """Where the parabola through three values peaks, from the middle one (-0.5 to 0.5)."""
    a, b, c = (float(v) for v in three)
    d = a - 2 * b + c
    return 0.0 if d >= 0 else max(-0.5, min(0.5, (a - c) / (2 * d)))


def _fill(cv2, np, shift):
    """Missing shifts (NaN) from the mean of their known neighbours, growing outwards;
    none at all known: no shift (0)."""
    if np.isnan(shift[..., 0]).all():
        return np.zeros_like(shift)
    shift = shift.copy()
    while np.isnan(shift[..., 0]).any():
        known = (~np.isnan(shift[..., 0])).astype(np.float32)
        total = cv2.boxFilter(np.nan_to_num(shift), -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
        count = cv2.boxFilter(known, -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
        grow = (known == 0) & (count > 0)
        shift[grow] = total[grow] / count[grow][:, None]
    return shift


def bilevel(cv2, np, rgb) -> bool:
    """Whether an image is in black and white only (see BILEVEL)."""
    gray = cv2.cvtColor(np.ascontiguousarray(rgb[::4, ::4]), cv2.COLOR_RGB2GRAY)
    black, white = float((gray <= 10).mean()), float((gray >= 245).mean())
    return black + white >= BILEVEL[0] and black >= BILEVEL[1] * max(1.0 - white, 1e-6)


def bilevel_blank(np, blank):
    """The blank page (grey) as a black-and-white image may show it: every grey level of its
    print black (see BILEVEL), the paper white."""
    return np.where(blank < BILEVEL_PRINT, 0, 255).astype(np.uint8)


def white_balanced(cv2, np, page, blank):
    """The page with the light's colour divided out (a warm lamp, the blue of a shade),
    so that white paper has no colour and a pencil's hue is its own: each channel over
    the same channel of the paper nearby (where the blank page is white; the brightest
    within about 7 mm, so that pencil is not taken for paper)."""
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32)
    white = cv2.resize(blank, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA) > 245
    paper = cv2.dilate(small * white[..., None], cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15)))
    paper = cv2.GaussianBlur(paper, (0, 0), 4)
    grey = paper.mean(axis=2, keepdims=True)
    tint = np.where(grey > 20, paper / np.maximum(grey, 1), 1.0).astype(np.float32)
    tint = cv2.resize(tint, (page.shape[1], page.shape[0]), interpolation=cv2.INTER_LINEAR)
    out = np.divide(page, np.maximum(tint, np.float32(0.2)), dtype=np.float32)
    return np.minimum(out, 255, out=out).astype(np.uint8)  # (never under 0)


def grid_cells(layout, page_id: str) -> set:
    """The fields of the page's grid cells (Harvest Dice's garden): a cell is read as
    filled or empty, and what it holds from the ink's colour."""
    return {
        f"{el['id']}_r{r}_c{c}"
        for el in layout.page(page_id).elements
        if el["type"] == "grid"
        for r in range(1, el["rows"] + 1)
        for c in range(1, el["cols"] + 1)
    }


def _colour(np, hsv, mask) -> str:
    """C, S or T from the ink's hue when the mark is clearly coloured; else '?'."""
    pix = hsv[mask]
    if len(pix) < 10:
        return "?"
    coloured = pix[(pix[:, 1] > 45) & (pix[:, 2] > 50)]
    if len(coloured) < 0.35 * len(pix):
        return "?"
    angle = coloured[:, 0].astype(np.float32) * (np.pi / 90)  # OpenCV hue is 0-180: a circle
    sin, cos = float(np.sin(angle).mean()), float(np.cos(angle).mean())
    if sin * sin + cos * cos < AGREE**2:
        return "?"  # hues that disagree (two pencils, a smudge): not guessed
    hue = float(np.degrees(np.arctan2(sin, cos)) / 2) % 180
    for letter, ranges in COLOURS.items():
        if any(a <= hue <= b for a, b in ranges):
            return letter
    return "?"


OUTLINE = {MARKED: (0, 160, 0), EMPTY: (150, 150, 150), UNSURE: (255, 120, 0)}


def check_png(read: PageRead) -> bytes:
    """The photo mapped onto the page, every box read outlined in the colour of its
    reading: green marked, grey empty, orange unsure (a garden cell's letter beside it)."""
    cv2, _ = need_cv()
    img = read.rectified.copy()
    for box in read.boxes:
        reading = read.readings[box.field]
        a = (round(box.x * PPMM), round(box.y * PPMM))
        b = (round((box.x + box.w) * PPMM), round((box.y + box.h) * PPMM))
        cv2.rectangle(img, a, b, OUTLINE[reading], 3 if reading != EMPTY else 1)
        value = read.values.get(box.field)
        if isinstance(value, str) and value:
            cv2.putText(img, value, (a[0] + 3, b[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.8, OUTLINE[reading], 2)
    ok, png = cv2.imencode(".png", cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    return png.tobytes()
