"""A fifth, independent photo generator for `sheetgen scan` (bench/gen_fifth.py).

gen_fifth is written from the feature's specification alone. It renders each page with poppler
(pdftoppm) at the dpi the sheet is seen at in the photo (100-300, capped so a photo stays under
11-14 megapixels), tints the paper, then marks a random 20-60% of the readable boxes with
supersampled, anti-aliased polylines multiplied onto the page: graphite (grey 60-170 in the
stroke's core, paper-tooth grain, pressure varying along the stroke) or now and then a blue
ballpoint, as ticks, crosses, scribbled fills, light ticks and slashes (grey 150-188, 0.3-0.42
mm), ticks and crosses that stray 1-3 mm over the border (at most a quarter of a box into the
next one, which stays plainly empty), and circles round the round boxes; a stroke the photo's
blur would wash out is drawn wider, then darker, so every mark stays plainly a mark; the
Harvest Dice garden cells are hatched, blotted or crossed with the orange, green or red colour
pencil of a random vegetable. Handwritten numbers go in half the write boxes (not read).
The sheet is then photographed lying on a table (wood, grey, slate, white or a cutting mat, with
the sheet's soft shadow): any roll, a camera tilted up to 20 degrees through a wide to normal
lens, a 4:3 frame with small margins, uneven light (gradient and vignette, 0.6-1.0), a slight
colour cast, Gaussian blur up to 1.5 px, noise up to sigma 8 and JPEG quality 40-90.

Run: python bench/scan_fifth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_fifth

    by_mark(__doc__, gen_fifth.photo)


if __name__ == "__main__":
    main()
