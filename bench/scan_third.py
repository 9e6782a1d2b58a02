"""An independent check of `sheetgen scan`: photos made by a third generator.

    python bench/scan_third.py --photos 100 --seed 1 --jobs 2 --verbose
    python bench/scan_third.py --only 17 --verbose --save /tmp/third   # photo 17 again, alone

bench/gen_third.py was written apart from the two generators the reader was tuned on
(sheetgen.scan.synth, bench/scan.py; sheetgen.scan.probe, bench/scan_probe.py): its own
pens (HB, 2B and mechanical pencils with a paper-tooth grain, ballpoints, a fine-liner,
wax colour pencils of several hues and pressures), its own strokes (pressure-varying
splines with hand jitter and tapering; ticks, checks, crosses, slashes, dashes, dots,
hatching, fills, circles, letters; vegetables drawn in the garden) and hard cases (a
mark over its box's border, an erased mistake, a light stroke, margin doodles), and its
own camera (a pinhole in perspective over a table, barrel distortion, a curl or a fold,
light, shadow, colour cast, exposure, blur, noise, the phone's processing, a messaging
app, JPEG; or a flatbed scanner); see its docstring. The same pages as bench/scan_probe.py.

The report is bench/scan.py's table, then the same counts per pen, per kind of mark and
per hard case (+stray, +light, +leaf), so that a weakness shows where it comes from. With
--verbose, each photo read wrong or refused also says what the camera did to it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scan_probe import by_mark  # noqa: E402  (bench/scan_probe.py: the same pages and tables)


def main() -> None:
    import gen_third

    by_mark(__doc__, gen_third.photo)


if __name__ == "__main__":
    main()
