"""An eighth, held-out photo generator for `sheetgen scan` (bench/gen_eighth.py).

gen_eighth is written from the feature's specification and from how phones, printers, scanners
and players treat paper, without looking at the reader, to see how it does on photos unlike the
seven generators it was tuned on. The page is rendered by poppler at 300 dpi and printed: a laser
print, a low-toner one (faded grey blacks, white streaks down the page, mottled toner) or an
inkjet one (banding at the head's pass, a clogged nozzle's light line, bled ink, a tinted black);
30% "fit to page" (95-97%, the boxes and the markers scaled with it), a slightly skewed and
offset feed. The back side's print shows through, mirrored (another page of the layout, or the
same page; played too, sometimes), faintly, or strongly when the sheet is held up to a window.
The player marks a random 12-65% of the readable boxes with one habit: HB, 2B or mechanical
pencil (graphite on the paper's tooth, grainier when light), blue or black ballpoint (skips),
gel, felt-tip; firm ticks and crosses, boxes filled solid, a tiny dot, a short dash, a small x
in a corner, or a mix; hard cases: ticks and crosses whose tail runs 1-3 mm over the border
(never into a neighbour's inner part), boxes crossed out and marked again, round boxes circled,
a light hand. Garden cells: orange, green or red colour pencil (or a dice-coloured felt pen)
hatched, scribbled, the letter, a little drawing of the vegetable (a carrot with green leaves, a
tomato with a green stalk, a frilly salad) or a blob. Every mark is checked to stay plainly
visible in the final picture (blur, glare, exposure, the app's white push and B&W threshold,
noise reduction) and drawn firmer until it is ("+firmed"), or left off when nothing could show
there. Pencil players rub out a few mistakes (a faint ghost: truth False). Numbers go in the
write boxes, a scrawl in the name. Then the paper: a row smudged by the side of the hand,
fingerprints, a coffee ring or a dried drip, a fold in half or in quarters (crease lines, a tent
and a twist in the sheet). Then one of: a phone photo (45%: a pinhole camera in 3D over a table
of wood, a light or dark desk, a checked cloth or a felt mat, dice and a pencil about; tilt up to
20 degrees, any roll, 24-28 or 46-52 mm lens, 8-14 MP, 100-300 dpi; the sheet bent and folded
in 3D, lit by two sources of different colour, a lamp's hot spot, vignetting, shaded by its
folds; sometimes a glossy glare spot kept off the markers, a phone's or a hand's hard shadow,
low light with high-ISO noise and the phone's noise reduction, HDR local tone mapping, a sheet
held up against a window by thumbs on its margins; defocus, shake, white balance, tone curve,
sharpening, JPEG 40-90), a document-scanner app (35%: such a photo cropped to the paper's edge,
give or take 1.5 mm, flattened to a 150-300 dpi page, "enhanced": white paper pushed to white, a
black point from the darkest print, colour, grey or near-binarised B&W (colour kept for Harvest
Dice), sometimes sharpened, sometimes its flash's glare, turned, JPEG 45-90), or a sheet
feeder (20%: 150/200/300 dpi, skewed, stretched by the feed, colour fringes of a CIS sensor, a
fold out of focus with its shadow, a dust or calibration streak down the page, a white, grey or
black backing, colour, grey or B&W (not for Harvest Dice), sometimes fed upside down, JPEG
40-90). Hard cases per box: +smudge, +fingerprint, +stain, +crease, +glare, +shadowedge,
+showthrough, +streak.

Run: python bench/scan_eighth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_eighth

    by_mark(__doc__, gen_eighth.photo)


if __name__ == "__main__":
    main()
