"""An independent check of `sheetgen scan`: photos made by a second generator.

    python bench/scan_probe.py --photos 300 --seed 1
    python bench/scan_probe.py --only 17 --verbose --save /tmp/probe   # photo 17 again, alone

sheetgen.scan.synth (what the reader was tuned on, bench/scan.py) draws one kind of
pencil and degrades the picture one way; sheetgen.scan.probe draws other pens
(ballpoint, felt-tip, soft pencil, colour pencils of other hues, letters, erased
mistakes) and photographs the sheet another way (a camera in perspective, a curled
sheet, a crease, a hand's shadow, colour casts, exposure, motion blur, sharpening,
salt noise); see its docstring. All readable pages are used, the advanced Imperial
Settlers colony ladder included.

The report is bench/scan.py's table (wrong confident reads: goal 0; unsure: goal
under 1%; refused; colour wrong or '?'; seconds a photo), then the same counts per
pen and per kind of mark, so that a weakness shows where it comes from. With
--verbose, each photo read wrong or refused also says what the camera did to it.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scan import LAYOUTS as BENCH_LAYOUTS  # noqa: E402  (bench/scan.py)
from scan import options, run  # noqa: E402

# bench/scan.py's pages, and the advanced Imperial Settlers ones (the colony ladder)
LAYOUTS = [*BENCH_LAYOUTS, ("imperial-settlers-advanced", "empire"), ("imperial-settlers-advanced", "village")]


def by_mark(doc: str, make) -> None:
    """Run bench/scan.py's table over `make`'s photos (`make(layout, page_id, rng)` gives
    the photo, its truth and its kinds: a "pen/style" string a field, with hard cases
    as words starting with "+", and "_photo" what the camera did), then the same
    counts per pen, per kind of mark and per hard case."""
    args = options(doc).parse_args()
    by_kind = defaultdict(lambda: dict(boxes=0, wrong=0, unsure=0))

    def each(kinds, truth, read, wrong):
        if args.verbose and (read is None or wrong):
            print(f"   (that photo: {kinds['_photo']})")
        if read is None:
            return
        for field in truth:
            words = kinds.get(field, "none/empty").split()
            pen, style = words[0].split("/")
            for name in {pen, style, *(w for w in words[1:] if w.startswith("+"))}:
                k = by_kind[name]
                k["boxes"] += 1
                k["unsure"] += read.readings[field] == "unsure"
                k["wrong"] += field in wrong

    run(args, LAYOUTS, make, each)
    print("\n| mark (pen, style or hard case) | boxes | wrong | unsure |\n|---|---|---|---|")
    for name, k in sorted(by_kind.items()):
        print(f"| {name} | {k['boxes']} | {k['wrong']} | {k['unsure']} ({k['unsure'] / max(k['boxes'], 1):.2%}) |")


def main() -> None:
    from sheetgen.scan import probe

    by_mark(__doc__, probe.probe_photo)


if __name__ == "__main__":
    main()
