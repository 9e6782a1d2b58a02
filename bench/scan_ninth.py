"""A ninth, held-out photo generator for `sheetgen scan` (bench/gen_ninth.py).

gen_ninth is written from the feature's specification and from how people print, play and
photograph, without looking at the reader or the other generators. It stresses what they did
not. Printing as a user's command line would (the library calls `sheetgen render` makes):
--paper A4 (50%), Letter (30%), A5 (10%, the sheet scaled down) or Legal (10%); --per-page 2 or
4 for 15% of the pages (where the render refuses it: 2, then 1; A5 refused: A4), every sheet of
the printed page on the photo and each marked with the SAME truth, in its own strokes; --grey
toner saving (20%); French or English; a score pad for a random player count. The paper lies
on a table (wood, a plain light or dark desk, a checked cloth) with its soft shadow.
Marks: 30% of the photos are drawn the quick maintainer's way (plain cv2 lines, filled polygons,
Hershey letters, pure black, grey 90-170 for a light hand, pure orange/green/red, 1-4 px at the
print resolution, anti-aliased or not, no texture); the rest with a pen model: HB, 2B or
mechanical pencil on the paper's tooth with pressure, blue or black ballpoint with skips, gel,
felt-tip; garden cells in a colour pencil or a felt pen of the vegetable's colour. Ticks,
crosses, slashes, fills, dots, circles round round boxes (and round the colony ladder's values),
garden cells hatched, scribbled, lettered C/S/T or drawn (a carrot with leaves, a tomato with
its stalk, a frilly salad). Hard cases: +light (a light hand, drawn firmer and "+firmed" when it
would not plainly show in the final picture), +stray (1-3 mm over the border, never into a
neighbour's inner part), +erased (a pencil mistake rubbed out to a faint ghost: truth False),
+sheen (a lamp at a glancing angle: dense 2B shows lighter, silvery, in places), +covered (dice,
a pencil, an eraser with its sleeve, a finger with the hand behind it lying over part of a few
boxes, never over a scan mark or the QR code: the truth is what is under them), +crumbs (eraser
crumbs, rolled and light, with a tiny shadow), +dust (a faint graphite smear from the hand).
Numbers and a name in the write boxes; players' notes (sums, tallies, a spiral, a star, a heart)
in the blank margins and between boxes, never in a box. Capture: a phone in perspective (tilt
up to 20 degrees, any roll, a 4:3 frame, 100-300 dpi on the sheet, under 12 MP), light falling
off, vignetting, noise, a little blur, then some of: portrait depth of field (focus falling off
across the page), rolling-shutter skew and wobble, a tungsten (orange) or fluorescent (green)
cast left uncorrected, a phone's smart HDR (local contrast) and strong sharpening; the camera's
JPEG, then one of: the photo saved as JPEG, PNG or WebP; sent through a messenger (down to 1600
px on the long side, JPEG 60-80, forwarded again sometimes); a screenshot of the photo viewer (the
photo scaled into a 1170x2532 or 1080x2400 phone screen, a status bar with the time, signal and
battery, the viewer's toolbar; PNG or JPEG). Messenger and screenshot photos frame the sheet
upright-ish, and fall back to a plain photo when the sheet would get under 100 dpi.

Run: python bench/scan_ninth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_ninth

    by_mark(__doc__, gen_ninth.photo)


if __name__ == "__main__":
    main()
