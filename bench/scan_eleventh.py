"""An eleventh, held-out photo generator for `sheetgen scan` (bench/gen_eleventh.py): sheets reused and dressed.

gen_eleventh is written from the feature's description, the harness and the printed page, without
looking at the reader or the other generators. Each photo is one of four settings, a quarter each.
Film: the print in a sheet protector or laminated, played with dry-erase markers (black, blue, red,
green; orange/green/red in the garden), the film's lower contrast and faint grey-blue cast, one or
two specular glare patches (a soft blob, a window, a streak) kept off the corner markers and the QR
code (a box under glare is marked only where its mark stays plain), and 10-40% of the empty boxes
showing the wiped-off ghost of a previous game's mark (5-15% darkening, blurred and smeared: empty
to a careful reader). Paper: printed on pastel yellow, blue, green, pink, salmon or recycled grey
paper, pencil and pen marks, the Harvest Dice garden in orange/green/red colour pencils. Table:
dice with pips, a pencil or pen, wooden meeples and tokens lying on the sheet with their soft
shadows (never over a corner marker or the QR code, over more than 22% of a box's inside or a third
of a mark's ink), maybe a phone's or a hand's shadow across it. Kids: wax crayons (grainy, bright:
yellow, pink, purple, light blue too) and felt-tips in any box, big sloppy marks running up to
2.5 mm over the border but never into a neighbour's inside, scribbles, small dots and dashes.
Marks cover 5-90% of the boxes in runs (tracks in order, glass columns from the bottom, the garden
in clumps), one habit a player (cross, tick, fill, dot, slash, circles round round boxes); write
boxes get handwriting (not read). Garden truth: the vegetable's letter when drawn in a dice colour,
'?' when drawn in another pen (a careful reader cannot name it), '' when empty. A phone takes it:
tilt up to 18 degrees, any roll, 120-300 dpi on the sheet, under 12 MP, 4:3, on a wood, white, grey
or dark table, gentle light slope and spot, vignetting, white balance, mild blur and noise, JPEG 60-92.
Kinds: "pen/style" (pens: hb, 2b, mech, ballpoint-*, gel-black, felt-*, crayon-*, dryerase-*,
cpencil-*) with +ghost, +glare, +paper:<colour>, +object, +shadow, +crayon, +felt, +overshoot.

Run: python bench/scan_eleventh.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_eleventh

    by_mark(__doc__, gen_eleventh.photo)


if __name__ == "__main__":
    main()
