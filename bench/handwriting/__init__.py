"""The handwriting generators of the numbers bench, registered in one list: GENERATORS.

Each generator is a module of this package with `page(layout, page_id, players, lang, rng)`,
giving the page as `sheetgen scan` maps a photo onto it (RGB at blank.PPMM pixels a mm,
the print where the blank page has it, give or take the reader's alignment) with numbers
written by hand in its boxes, and the truth: what each number box holds ('' when empty),
what was drawn in each ("kinds": the pen, the size, a crossing-out...). `photo` generators
give a whole photo instead, read through `sheetgen scan`'s whole chain.

`fonts` is the recogniser's tuning set (its threshold was chosen on it). The others are held
out: each was written apart from the recogniser's tuning and from the other generators, so
that it measures how far the choice generalises. They share no drawing code; what a played
sheet holds (`sheets`: numbers that add up as the rules say) and the clean page are all
they share.

Importing this module imports no generator (nor OpenCV): `module()` does, when one is run.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

# the pages a generator's sheets take in turn: (layout id, page id)
PAGES = (
    ("bosk", "summer"),
    ("bosk", "pad"),
    ("plante-bataille", "pad"),
    ("river-valley-glassworks", "pad"),
    ("imperial-settlers", "empire"),
    ("imperial-settlers-advanced", "empire"),
)


@dataclass(frozen=True)
class Generator:
    name: str  # its module in bench/handwriting and its scenario name in `python -m bench.numbers`
    simulates: str  # what its pages are, in one line
    held_out: bool  # written apart from the recogniser's tuning (False: its threshold was chosen on it)
    photo: bool = False  # whole photos, read through `sheetgen scan`'s chain (else pages as it maps them)
    pages: tuple = PAGES

    def module(self):
        return importlib.import_module(f"bench.handwriting.{self.name}")


GENERATORS = (
    Generator(
        "fonts",
        "Debian's handwriting fonts, jittered letter by letter; pencil and ballpoint, cramped to large, "
        "crossings-out; the page as a phone's photo maps",
        False,
    ),
    Generator(
        "strokes",
        "digits drawn stroke by stroke (a hand's own shapes, slant, tremor, pressure); felt-tip, gel, ballpoint, "
        "pencil; numbers struck through or scribbled over; a phone's light, shake and compression",
        True,
    ),
)
BY_NAME = {g.name: g for g in GENERATORS}
