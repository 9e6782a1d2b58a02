"""A thirteenth, held-out photo generator for `sheetgen scan` (bench/gen_thirteenth.py): the garden's colours.

gen_thirteenth is written from the feature's description, the harness and the printed page, without
looking at the reader or the other generators. Harvest Dice sheets (normal and advanced, in turn) are
coloured by one player with one or two sets of tools: colour pencils pressed lightly to heavily on the
paper's tooth, felt-tips, wax crayons, gel pens, highlighters (orange, green, red), watercolour pencils
washed, each set its own orange (hue 24-36), green (100-155) and red (350-6), all plainly those colours
on white paper in daylight; some cells are drawn in a colour that is none of them (blue, light blue,
purple, pink, brown, yellow, black, grey pencil: truth '?'). 20-90% of the cells are coloured:
hatching, cross-hatching, scribbles, loops, a vegetable drawn (a carrot with green tops too), a small
blob, half a cell, a letter. The pig and market boxes are ticked with a pencil or a ballpoint. The
sheet is lit by tungsten (2600-2850 K), warm LED (2900-3200 K), daylight (5000-6000 K), shade
(7000-8000 K), fluorescent (3500-4500 K with a green tint) or mixed light (a window on one side and
a lamp on the other: the cast changes across the sheet), a per-pixel cast the phone's white balance
corrects only partly (or is fooled by a wooden table into a blue cast), then exposure, vignette,
tone curve, saturation or a "warm", "vivid" or vibrance filter, noise and JPEG 60-92; tilt up to 15
degrees, any roll, 120-300 dpi on the sheet, under 12 MP.

Reports bench/scan.py's table (box wrong / unsure, colours wrong / '?'), a line for every garden
cell read wrong (a wrong letter, a letter for '?', '?' for a letter, empty for a coloured cell, a
filled empty cell, or unsure: "photo n, field, truth, got, kind"), and a summary per light: coloured
cells, letters right, wrong letters, '?' for a dice colour, letters for a non-dice colour.

Run: python bench/scan_thirteenth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused photos,
      --crops DIR writes the garden of each photo with a wrong cell, rectified, as PNG)
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan import options, run  # noqa: E402  (bench/scan.py)

LAYOUTS = [("harvest-dice-normal", "sheet"), ("harvest-dice-advanced", "sheet")]
COLUMNS = [
    ("cells", "coloured cells"),
    ("right", "letters right"),
    ("wrong_letter", "wrong letters"),
    ("q_for_dice", "'?' for a dice colour"),
    ("letter_for_other", "letters for a non-dice colour"),
    ("q_right", "'?' right"),
    ("missed", "empty/unsure for a coloured cell"),
    ("filled_empty", "empty cell read filled/unsure"),
    ("refused", "photos refused"),
]


def _classify(want: str, got: str, unsure: bool) -> str:
    if want == "":
        return "ok" if got == "" and not unsure else "filled_empty"
    if unsure or got == "":
        return "missed"
    if want == "?":
        return "q_right" if got == "?" else "letter_for_other"
    if got == want:
        return "right"
    return "q_for_dice" if got == "?" else "wrong_letter"


def _crop(img, folder: str, n: int) -> None:
    """The garden as the photo shows it, rectified (12 px a mm), as DIR/garden-N.png."""
    import cv2
    import gen_thirteenth
    import numpy as np

    hom = gen_thirteenth.LAST["mm_to_photo"]
    px, x0, y0 = 12, 56 + 8 - 2, 51 + 17 - 8  # the grid on A4 (placement 8, 17), a margin
    scale = np.array([[1 / px, 0, x0], [0, 1 / px, y0], [0, 0, 1]])
    crop = cv2.warpPerspective(img, hom @ scale, (80 * px, 44 * px), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    Path(folder).mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(Path(folder) / f"garden-{n}.png"), cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))


def main() -> None:
    import gen_thirteenth

    from sheetgen.scan import verdict

    ap = options(__doc__)
    ap.add_argument("--crops", metavar="DIR", help="write the rectified garden of photos with a wrong cell")
    args = ap.parse_args()
    numbers = iter(list(args.only or range(args.photos)))
    per_light = defaultdict(lambda: dict.fromkeys([k for k, _ in COLUMNS], 0))
    lines = []
    last_img = {}

    def make(layout, page_id, rng):
        img, truth, kinds = gen_thirteenth.photo(layout, page_id, rng)
        last_img["img"] = img
        return img, truth, kinds

    def each(kinds, truth, read, wrong):
        n = next(numbers)
        light = kinds["_light"]
        s = per_light[light]
        if read is None:
            s["refused"] += 1
            lines.append(f"photo {n}: refused ({kinds['_photo']})")
            return
        bad = False
        for field, want in truth.items():
            if not isinstance(want, str):
                continue
            unsure = read.readings[field] == verdict.UNSURE
            got = read.values[field]
            what = _classify(want, got, unsure)
            if want:
                s["cells"] += 1
            if what in s:
                s[what] += 1
            if what not in ("ok", "right", "q_right"):
                bad = True
                shown = "unsure" if unsure else repr(got)
                lines.append(f"photo {n}: {field} truth {want!r} got {shown} [{what}] {kinds[field]}")
        if bad:
            lines.append(f"   (photo {n}: {kinds['_photo']})")
            if args.crops:
                _crop(last_img["img"], args.crops, n)

    run(args, LAYOUTS, make, each)
    print("\nGarden cells read wrong (truth, got, [what], ink/style +light):")
    print("\n".join(lines) if lines else "none")
    print("\n| light | " + " | ".join(name for _, name in COLUMNS) + " |")
    print("|---|" + "---|" * len(COLUMNS))
    total = dict.fromkeys([k for k, _ in COLUMNS], 0)
    for light in sorted(per_light):
        s = per_light[light]
        for k in total:
            total[k] += s[k]
        print(f"| {light} | " + " | ".join(str(s[k]) for k, _ in COLUMNS) + " |")
    print("| all | " + " | ".join(str(total[k]) for k, _ in COLUMNS) + " |")


if __name__ == "__main__":
    main()
