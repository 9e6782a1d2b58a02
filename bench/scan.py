"""How well `sheetgen scan` reads generated photos of played sheets.

    python bench/scan.py                 # 1000 photos across the readable layouts
    python bench/scan.py --photos 50     # a quick look

Each photo is a sheet rendered at 100-300 dpi, pencil (and colour pencil) marks on a
random set of boxes (sheetgen.scan.synth), turned, in perspective, blurred, unevenly
lit, noisy and JPEG-compressed. Reports, per layout and overall: wrong confident
reads (goal 0), the unsure rate (goal < 1% of boxes), garden colours read wrong or
as '?', photos refused (marks or QR code not found) and seconds per photo (reading
only, not generating). Needs the [scan] extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LAYOUTS = [
    ("harvest-dice-normal", "sheet"),
    ("harvest-dice-advanced", "sheet"),
    ("imperial-settlers", "empire"),
    ("imperial-settlers", "village"),
    ("river-valley-glassworks", "pad"),
]


def main() -> None:
    import numpy as np

    from sheetgen.errors import SheetgenError
    from sheetgen.games import load_layout
    from sheetgen.scan import reader, synth

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--verbose", action="store_true", help="print every wrong or unsure box")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    zero = dict(photos=0, boxes=0, wrong=0, unsure=0, colour=0, cells=0, refused=0, secs=0.0, mp=0.0)
    stats = {key: dict(zero) for key in LAYOUTS}
    for n in range(args.photos):
        key = LAYOUTS[n % len(LAYOUTS)]
        layout = load_layout(key[0])
        img, truth = synth.photo(layout, key[1], rng)
        s = stats[key]
        s["photos"] += 1
        s["mp"] += img.shape[0] * img.shape[1] / 1e6
        start = time.perf_counter()
        try:
            read = reader.read_photo(reader.Photo(f"photo {n}", f"p{n}", img))
        except SheetgenError as exc:
            s["refused"] += 1
            s["secs"] += time.perf_counter() - start
            if args.verbose:
                print(f"photo {n} {key}: refused: {exc.problems[0]}")
            continue
        s["secs"] += time.perf_counter() - start
        for field, want in truth.items():
            s["boxes"] += 1
            if read.readings[field] == reader.UNSURE:
                s["unsure"] += 1
                if args.verbose:
                    print(f"photo {n} {key}: unsure {field} ({read.scores[field]:.4f}, truth {want!r})")
                continue
            got = read.values[field]
            if (got not in ("", False)) != (want not in ("", False)):
                s["wrong"] += 1
                if args.verbose:
                    print(f"photo {n} {key}: WRONG {field} read {got!r}, truth {want!r} ({read.scores[field]:.4f})")
            elif isinstance(want, str) and want:
                s["cells"] += 1
                s["colour"] += got != want
                if args.verbose and got != want:
                    print(f"photo {n} {key}: colour {field} read {got!r}, truth {want!r}")
    total = {k: sum(s[k] for s in stats.values()) for k in next(iter(stats.values()))}
    print(f"sheetgen scan bench: {args.photos} generated photos, seed {args.seed}\n")
    head = "layout / page | photos | refused | boxes | wrong confident | unsure | colour wrong or ? | s/photo | MP"
    print(f"| {head} |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, s in [*stats.items(), (("all", ""), total)]:
        print(
            f"| {key[0]} {key[1]} | {s['photos']} | {s['refused']} | {s['boxes']} | {s['wrong']} | "
            f"{s['unsure']} ({s['unsure'] / max(s['boxes'], 1):.2%}) | {s['colour']}/{s['cells']} | "
            f"{s['secs'] / max(s['photos'], 1):.2f} | {s['mp'] / max(s['photos'], 1):.1f} |"
        )


if __name__ == "__main__":
    main()
