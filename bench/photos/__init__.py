"""The photo generators of the scan bench, registered in one list: GENERATORS.

Each generator is a module of this package with `photo(layout, page_id, rng)`, giving an RGB
photo of a marked sheet and its truth (and, for most, what was drawn in each box: "kinds").
Two are the reader's tuning sets (the tests use them too); the others are held out: each was
written apart from the reader's tuning and from the other generators, so that it measures how
far the reader generalises. They share no drawing code with the reader or with each other; the
clean page they start from (`pages`) and the runner (`bench.scan`) are all they share.

Importing this module imports no generator (nor OpenCV): `module()` does, when one is run.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

# the pages a generator photographs in turn: (layout id, page id)
READABLE = (
    ("harvest-dice-normal", "sheet"),
    ("harvest-dice-advanced", "sheet"),
    ("imperial-settlers", "empire"),
    ("imperial-settlers", "village"),
    ("river-valley-glassworks", "pad"),
)
WITH_ADVANCED = (*READABLE, ("imperial-settlers-advanced", "empire"), ("imperial-settlers-advanced", "village"))
GARDENS = (("harvest-dice-normal", "sheet"), ("harvest-dice-advanced", "sheet"))
VARIANTS = ()  # designer_variants makes a variant a photo, of the readable layouts in turn (its BASES)


@dataclass(frozen=True)
class Generator:
    name: str  # its module in bench/photos and its scenario name in `python -m bench.scan`
    simulates: str  # what its photos are, in one line
    held_out: bool  # written apart from the reader's tuning (False: the reader is tuned on it)
    pages: tuple = WITH_ADVANCED

    def module(self):
        return importlib.import_module(f"bench.photos.{self.name}")


GENERATORS = (
    Generator(
        "pencil",
        "pencil ticks, crosses and fills; a phone photo turned, tilted, blurred, unevenly lit, JPEG",
        False,
        READABLE,
    ),
    Generator(
        "mixed_pens",
        "ballpoints, felt-tips, soft pencils, erased mistakes; a curled, creased sheet, casts, shadows",
        False,
    ),
    Generator(
        "hand_strokes",
        "hand strokes with grain and tremor, erased mistakes, doodles; lens distortion, a phone's processing",
        True,
    ),
    Generator(
        "halftone_print",
        "laser halftone or inkjet dither, toner streaks, highlighters; a phone or a flatbed",
        True,
    ),
    Generator(
        "light_pencil",
        "graphite marks, light ticks and slashes, strays over the border; a phone over a table",
        True,
    ),
    Generator(
        "phone_shadow",
        "a camera model: a hand's or phone's shadow, depth of field, shake, sensor noise, sharpening",
        True,
    ),
    Generator(
        "flatbed",
        "a pen model; phone photos through a Bayer sensor, or flatbed scans (skew, lid shadow, grey)",
        True,
    ),
    Generator(
        "printers_and_apps",
        "low toner, inkjet banding, show-through, folds, stains; scanner apps (B&W too), sheet feeders",
        True,
    ),
    Generator(
        "print_options",
        "Letter, A5, 2 or 4 sheets a page, toner saving; dice and fingers on it; messengers, screenshots",
        True,
    ),
    Generator(
        "game_progress",
        "sheets as a game leaves them, early to full, marked in the rules' order, one habit a player",
        True,
    ),
    Generator(
        "dry_erase",
        "sheet protectors and dry-erase markers with ghosts and glare, coloured paper, meeples, crayons",
        True,
    ),
    Generator(
        "designer_variants",
        "designers' variants of every readable layout, read with --layout, some through the CLI",
        True,
        VARIANTS,
    ),
    Generator(
        "garden_colours",
        "gardens in many inks of each vegetable's colour, and other colours, under many lights",
        True,
        GARDENS,
    ),
    Generator(
        "outside_tester",
        "an outside tester's photos from the docs alone: the PDF rasterised, pens, a phone at 20 degrees",
        True,
    ),
)
BY_NAME = {g.name: g for g in GENERATORS}
