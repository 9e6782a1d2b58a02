"""A fourth, independent photo generator for `sheetgen scan` (bench/gen_fourth.py).

gen_fourth renders each page with poppler (pdftoppm) at a random dpi, prints it (laser AM
screen at 150-200 lpi with per-ink angles, drawn band-limited, or inkjet dither with banding; CMY planes
misregistered 0.1-0.3 mm; low-toner streaks; fit-to-page 94-100% and a 1-4 mm offset; white,
cream or recycled paper with fibres and flecks), marks it with its own pens (HB/2B/mechanical
pencils, blue/black ballpoints, felt-tips, highlighter fills, orange/green/red colour pencils
in the garden, sometimes graphite there too) as pressure-varying jittered strokes (ticks,
crosses, slashes, fills, scribbles, dots, corner ticks, circles, strays into the next box,
light strokes, erased ghosts, graphite smears, crossed-out-and-rewritten garden cells), then
photographs it with a phone (up to 20 degree tilt, any roll, table texture, curl and waves,
vignetting, hand shadow, glare, white balance, defocus, motion blur, noise, noise reduction,
HDR, sharpening, JPEG 40-95, messaging downscale) or scans it on a flatbed (150-600 dpi,
1-3 degree skew, auto-levels).

Run: python bench/scan_fourth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_fourth

    by_mark(__doc__, gen_fourth.photo)


if __name__ == "__main__":
    main()
