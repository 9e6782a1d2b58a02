"""How well `sheetgen scan` reads generated photos of played sheets.

    python bench/scan.py                 # 1000 photos across the readable layouts
    python bench/scan.py --photos 50     # a quick look
    python bench/scan.py --only 137 --verbose   # photo 137 of the seed's run again, alone
    python bench/scan.py --jobs 2        # the same photos and counts, read by two processes
                                         # (one OpenCV thread each: s/photo is one core's)

Each photo is a sheet rendered at 100-300 dpi, pencil (and colour pencil) marks on a
random set of boxes (sheetgen.scan.synth), turned, in perspective, blurred, unevenly
lit, noisy and JPEG-compressed. Reports, per layout and overall: wrong confident
reads (goal 0), the unsure rate (goal < 1% of boxes), garden cells read filled but
of the wrong vegetable (wrong confident reads too: goal 0) or as '?' (left to the
user, fine), photos refused (marks or QR code not found) and seconds per photo (reading
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
    from sheetgen.scan import synth

    args = options(__doc__).parse_args()
    run(args, LAYOUTS, lambda layout, page, rng: (*synth.photo(layout, page, rng), None))


def options(doc: str):
    """The command line both scan benches take."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--photos", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--verbose", action="store_true", help="print every wrong or unsure box")
    ap.add_argument("--only", type=int, nargs="+", help="read only these photos of the run (numbers from 0)")
    ap.add_argument("--save", metavar="DIR", help="write the photos read wrong or refused to DIR (PNG)")
    ap.add_argument("--every", type=int, default=0, help="also print the table so far every N photos")
    ap.add_argument(
        "--jobs", type=int, default=1, help="read in N processes (bench/scan.py; the table only at the end)"
    )
    return ap


def run(args, layouts: list, make, each=None) -> dict:
    """Read `args.photos` photos made by `make(layout, page id, rng)` -> (RGB image,
    truth, kinds or None), the pages taken in turn from `layouts`; print the table and
    return the stats. `each(kinds, truth, read or None, wrong fields)` sees every photo
    (in this process: with `each`, --jobs is not used)."""
    photos = list(args.only or range(args.photos))
    if args.jobs > 1 and each is None and len(photos) > 1:
        stats = _in_parallel(args, layouts, make, photos)
    else:
        stats = _read(args, layouts, make, photos, each)
    _table(stats, args.seed)
    return stats


_JOB = None  # (args, layouts, make) for the forked workers of _in_parallel


def _in_parallel(args, layouts: list, make, photos: list) -> dict:
    """The photos read by args.jobs forked processes (so `make` need not be pickled), each
    photo the same as in one process (its own generator); the stats summed."""
    import multiprocessing

    global _JOB
    _JOB = (args, layouts, make)
    chunks = [photos[i :: args.jobs] for i in range(args.jobs)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        parts = pool.map(_read_chunk, chunks)
    return {key: {k: sum(part[key][k] for part in parts) for k in parts[0][key]} for key in layouts}


def _read_chunk(photos: list) -> dict:
    import cv2

    # one thread each: N processes on N cores, not each spreading its OpenCV calls over all
    # of them (the seconds a photo are then one core's, as on a busy phone)
    cv2.setNumThreads(1)
    args, layouts, make = _JOB
    return _read(args, layouts, make, photos, None, every=0)


def _read(args, layouts: list, make, photos: list, each, every: int | None = None) -> dict:
    """The stats of reading `photos` (their numbers in the run), one after the other."""
    import numpy as np

    from sheetgen.errors import SheetgenError
    from sheetgen.games import load_layout
    from sheetgen.scan import reader
    from sheetgen.scan.photos import Photo

    every = args.every if every is None else every
    zero = dict(photos=0, boxes=0, wrong=0, unsure=0, colour=0, unknown=0, cells=0, refused=0, secs=0.0, mp=0.0)
    stats = {key: dict(zero) for key in layouts}
    for done, n in enumerate(photos):
        if every and done and done % every == 0:
            _table(stats, args.seed)
        key = layouts[n % len(layouts)]
        layout = load_layout(key[0])
        # each photo its own generator: any photo of a run can be made again alone
        img, truth, kinds = make(layout, key[1], np.random.default_rng([args.seed, n]))
        s = stats[key]
        s["photos"] += 1
        s["mp"] += img.shape[0] * img.shape[1] / 1e6
        start = time.perf_counter()
        try:
            read = reader.read_photo(Photo(f"photo {n}", f"p{n}", img))
        except SheetgenError as exc:
            s["refused"] += 1
            s["secs"] += time.perf_counter() - start
            if args.verbose:
                print(f"photo {n} {key}: refused: {exc.problems[0]}")
            _save(args.save, n, img)
            if each:
                each(kinds, truth, None, [])
            continue
        s["secs"] += time.perf_counter() - start
        wrong = _count(s, read, truth, f"photo {n} {key}", args.verbose, kinds)
        if wrong:
            _save(args.save, n, img)
        if each:
            each(kinds, truth, read, wrong)
    return stats


def _count(s: dict, read, truth: dict, name: str, verbose: bool, kinds: dict | None = None) -> list:
    """Add one photo's boxes to the stats `s`; the fields read wrong (a confident read
    against the truth, or a wrong vegetable). `kinds` (field -> a word) is printed with them."""
    from sheetgen.scan import verdict

    wrong = []
    for field, want in truth.items():
        s["boxes"] += 1
        what = f" [{kinds[field]}]" if kinds and field in kinds else ""
        if read.readings[field] == verdict.UNSURE:
            s["unsure"] += 1
            if verbose:
                print(
                    f"{name}: unsure {field} ({read.scores[field]:.4f}/{read.spreads[field]:.4f}, truth {want!r}){what}"
                )
            continue
        got = read.values[field]
        if (got not in ("", False)) != (want not in ("", False)):
            s["wrong"] += 1
            wrong.append(field)
            if verbose:
                print(
                    f"{name}: WRONG {field} read {got!r}, truth {want!r} "
                    f"({read.scores[field]:.4f}/{read.spreads[field]:.4f}){what}"
                )
        elif isinstance(want, str) and want:
            s["cells"] += 1
            s["unknown"] += got == "?"
            s["colour"] += got not in (want, "?")
            if got not in (want, "?"):
                wrong.append(field)
            if verbose and got != want:
                print(f"{name}: colour {field} read {got!r}, truth {want!r}{what}")
    return wrong


def _table(stats: dict, seed: int) -> None:
    total = {k: sum(s[k] for s in stats.values()) for k in next(iter(stats.values()))}
    print(f"sheetgen scan bench: {total['photos']} generated photos, seed {seed}\n")
    head = (
        "layout / page | photos | refused | boxes | wrong confident | unsure | colour wrong | colour ? | s/photo | MP"
    )
    print(f"| {head} |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key, s in [*stats.items(), (("all", ""), total)]:
        print(
            f"| {key[0]} {key[1]} | {s['photos']} | {s['refused']} | {s['boxes']} | {s['wrong']} | "
            f"{s['unsure']} ({s['unsure'] / max(s['boxes'], 1):.2%}) | "
            f"{s['colour']}/{s['cells']} | {s['unknown']}/{s['cells']} | "
            f"{s['secs'] / max(s['photos'], 1):.2f} | {s['mp'] / max(s['photos'], 1):.1f} |"
        )
    sys.stdout.flush()


def _save(folder, n: int, img) -> None:
    """Photo `n` as DIR/photo-N.png, to look at (or read again with --only N)."""
    if folder:
        import cv2

        Path(folder).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(Path(folder) / f"photo-{n}.png"), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))


if __name__ == "__main__":
    main()
