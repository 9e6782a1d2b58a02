"""A sixth, independent photo generator for `sheetgen scan` (bench/gen_sixth.py).

gen_sixth is written from the feature's specification alone. The camera is chosen first: an
A4 sheet lying flat, seen through a pinhole camera (24-52 mm equivalent lens) tilted up to 20
degrees about a random axis, any roll (mostly about square to the sheet), the sheet's middle
at 100-300 dpi (log-uniform; less when the sheet would not fit), in a 4:3 frame of 8-16
megapixels. The page is rendered by poppler at 300 dpi and marked there: a player's main pen
(HB, 2B or mechanical pencil, blue or black ballpoint, felt-tip) and now and then another,
strokes drawn supersampled with pressure varying along them, tapered ends, a hand's tremor
and paper-tooth grain, multiplied onto the paper; ticks (some small), crosses, slashes,
scribbled and hatched fills, dots, an "o" in the box, circles round the round boxes (and round
isolated boxes), light strokes of a hard pencil (+light), ticks, crosses and slashes whose
last stroke runs 1-3.5 mm past the border (+stray, at most a fifth of a box into a
neighbour), a ballpoint that skips (+skip); every stroke is kept visible in the photo (its
contrast after that photo's blur at that box's scale is at least 0.35, 0.2 for light ones).
Garden cells are filled, hatched, crossed or blotted with an orange, green or red colour
pencil. Half the other write boxes get a handwritten number. The photo: a table (wood, grey,
slate, white, cutting mat) with the sheet's soft shadow, a slightly tinted paper, light in
linear RGB (gradient up to 45%, vignette up to 35%, a hand's or phone's shadow down to
45-80% in 45% of photos, +shadow on the boxes under it), auto exposure, a colour cast
(warm lamp, cool shade, fluorescent), lens blur 0.3-1.4 px with up to 0.8 px more across the
frame (depth of field), hand shake now and then, shot and read noise with colour noise,
the phone's sharpening, JPEG quality 40-90.

Run: python bench/scan_sixth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
     python bench/gen_sixth.py DIR 3   saves 3 photos and crops of their marks to look at
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_sixth

    by_mark(__doc__, gen_sixth.photo)


if __name__ == "__main__":
    main()
