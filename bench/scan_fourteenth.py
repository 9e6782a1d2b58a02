"""A fourteenth, held-out check of `sheetgen scan`: bench/gen_fourteenth.py's photos.

    python bench/scan_fourteenth.py --photos 40 --seed 1 --verbose --save /tmp/s14/seed1
    python bench/scan_fourteenth.py --only 17 --seed 1 --verbose

Written by a helper as an outside tester most plausibly would, from the README and the docs
alone (not the reader, nor the other generators). The page rendered by the library and
rasterised by pdftoppm (150-300 dpi; needs poppler-utils); pencils HB, 2B and mechanical,
black and blue ballpoint, felt-tips: ticks, crosses, slashes, fills, scribbles, dots, rings
round round boxes, strays up to 2 mm over a border (never into a neighbour); garden cells in
orange, green, red colour pencil or felt-tip, or grey ('?'); then a pinhole camera (any roll,
tilt up to 20 degrees, the sheet at 100-300 dpi) on a table, uneven light, a colour cast,
blur, noise and JPEG 40-90 (see gen_fourteenth).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_fourteenth

    by_mark(__doc__, gen_fourteenth.photo)


if __name__ == "__main__":
    main()
