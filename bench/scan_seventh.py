"""A seventh, independent photo generator for `sheetgen scan` (bench/gen_seventh.py).

gen_seventh is written from the feature's specification alone. Each page is rendered by poppler
at 300 or 400 dpi and printed (toner black, tinted paper). A random 15-60% of the readable boxes
is marked with a stroke model: a round nib of varying width and pressure swept along wobbly
Bezier paths, supersampled, pigment layered where strokes cross, graphite and colour-pencil
grain from the paper's tooth. Pens: HB, 2B and mechanical pencils, blue and black ballpoints,
black gel, black and red felt-tips; per player a habit (one style for every box, or mixed):
ticks, crosses, slashes, dashes, dots, scribbled or hatched fills, circles round the round
boxes; hard cases light strokes, small ticks, off-centre marks, strays 1-2.5 mm over the border
(never into the inner part of a neighbouring box). Garden cells get the orange, green or red
colour pencil of a random vegetable (hatched, scribbled, crossed, its letter, or a small
coloured-in drawing). Every mark is checked at the photo's scale and blur and drawn firmer
until plainly visible ("+firmed"). Handwritten numbers go in half the write boxes.
Then 75% are phone photos: a pinhole camera in 3D, tilted up to 20 degrees, any roll, 23-50 mm
equivalent lens with barrel or pincushion distortion, the paper sometimes curled at one edge,
lying on a table with its soft shadow, 8-14 MP, the sheet at 100-300 dpi; a window's gradient,
a lamp's warm hot spot, vignetting, sometimes a phone's shadow; white balance error; defocus
disc and motion blur; an RGGB Bayer sensor with shot and read noise, 12 bits, bilinear or
edge-aware demosaicing; a tone curve with highlight shoulder and S-curve; chroma noise
blotches; unsharp masking; JPEG 40-90 with 4:2:0 chroma. 25% are flatbed scans: 150-300 dpi
on a 216 x 297 mm bed, skew up to 3 degrees (sometimes upside down), offset on the glass, the
paper edge's dark line, the lid's shadow from one edge, lamp falloff, optics blur, sensor
column pattern and noise, sometimes greyscale (not for Harvest Dice), auto-levels, JPEG 70-92.

Run: python bench/scan_seventh.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_seventh

    by_mark(__doc__, gen_seventh.photo)


if __name__ == "__main__":
    main()
