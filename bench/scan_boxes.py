"""The pages of a generator kept aligned, to measure a change to how boxes are decided on exactly the same pages.

    python -m bench.scan_boxes keep /tmp/pages --scenario mixed_pens --seed 3 --photos 100   # once (slow)
    python -m bench.scan_boxes read /tmp/pages [--verbose]              # decide every box again (a minute)

`keep` makes the photos of a generator as `python -m bench.scan` does (same scenario, seed and
numbers: photo n of a seed is the same photo in both), aligns each as the reader does
(`reader.align_photo`), and keeps what `reader.read_boxes` reads of it (the page rectified and
aligned, its blank page and colours, the boxes, the grid cells) with the truth: one .npz file a
page, about 10 MB, written with numpy and read back without pickle. `read` decides every box
of them again with the reader as it is now (two processes) and prints the wrong confident reads
and the unsure boxes, with --verbose each of them. To compare with another version of the
reader, `read --checkout DIR` decides with the sheetgen of that checkout (`git worktree add DIR
COMMIT`).

Only what `read_boxes` does is measured: a change to finding the marks, the QR code, the
warp or `align` needs the photos again (`python -m bench.scan`). Colours are not compared.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bench.photos import BY_NAME
from bench.scan import make_shots


def keep(out: Path, scenario: str, seed: int, photos: list) -> None:
    import numpy as np

    from sheetgen.errors import SheetgenError
    from sheetgen.scan import reader
    from sheetgen.scan.photos import Photo
    from sheetgen.values import fields

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as variants:
        for n in photos:
            shots, _ = make_shots(BY_NAME[scenario], seed, n, Path(variants))
            for page_no, shot in enumerate(shots):
                try:
                    got = reader.align_photo(Photo(f"photo {n}", f"p{n}", shot.img), shot.layout_ref)
                except SheetgenError as exc:
                    print(f"photo {n} {shot.key}: refused: {exc.problems[0]}")
                    continue
                meta = dict(
                    key=shot.key,
                    boxes=[{k: getattr(b, k) for k in fields(b)} for b in got.boxes],
                    cells=sorted(got.cells),
                    truth=shot.truth,
                    kinds={k: v for k, v in (shot.kinds or {}).items() if not k.startswith("_")},
                )
                name = f"{n}.npz" if len(shots) == 1 else f"{n}-{page_no}.npz"
                arrays = dict(page=got.page, blank=got.blank, meta=json.dumps(meta))
                if got.colours is not None:  # the blank page's colours, when the reader has them
                    arrays["colours"] = got.colours
                np.savez_compressed(out / name, **arrays)


def _decide_again(path: str) -> tuple:
    import numpy as np

    from sheetgen.layout.display import Box
    from sheetgen.scan import reader, verdict

    with np.load(path, allow_pickle=False) as kept:
        page, blank, meta = kept["page"], kept["blank"], json.loads(str(kept["meta"]))
        colours = kept["colours"] if "colours" in kept else None
    boxes = [Box(**b) for b in meta["boxes"]]
    got = reader.read_boxes(page, blank, boxes, set(meta["cells"]), colours)
    if isinstance(got, tuple):  # (a checkout whose read_boxes gives a tuple, these four first)
        values, readings, scores, spreads = got[:4]
    else:
        values, readings, scores, spreads = got.values, got.readings, got.scores, got.spreads
    n, rows = Path(path).stem, []
    for field, want in meta["truth"].items():
        marked, kind = want not in ("", False), meta["kinds"].get(field, "none/empty")
        if readings[field] == verdict.UNSURE:
            rows.append((n, tuple(meta["key"]), field, "unsure", marked, kind, scores[field], spreads[field]))
        elif (values[field] not in ("", False)) != marked:
            rows.append((n, tuple(meta["key"]), field, "WRONG", marked, kind, scores[field], spreads[field]))
    return n, len(meta["truth"]), rows


def read(kept: Path, verbose: bool) -> None:
    import multiprocessing

    paths = sorted((str(p) for p in kept.glob("*.npz")), key=lambda p: [int(x) for x in Path(p).stem.split("-")])
    if not paths:
        sys.exit(f"{kept}: no kept pages (run `keep` first)")
    with multiprocessing.get_context("fork").Pool(2) as pool:
        done = pool.map(_decide_again, paths, chunksize=4)
    boxes = sum(d[1] for d in done)
    rows = [row for d in done for row in d[2]]
    wrong = [r for r in rows if r[3] == "WRONG"]
    unsure = [r for r in rows if r[3] == "unsure"]
    share = len(unsure) / max(boxes, 1)
    print(f"{kept}: {len(done)} pages, {boxes} boxes: {len(wrong)} wrong, {len(unsure)} unsure ({share:.2%})")
    if verbose:
        for n, key, field, what, marked, kind, score, reach in rows:
            truth = "marked" if marked else "empty"
            print(f"photo {n} {key} {field}: {what} (truth {truth}, {kind}, ink {score:.3f}, spread {reach:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scan_boxes", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    k = sub.add_parser("keep", help="photograph and align the photos of a generator once; keep what read_boxes reads")
    k.add_argument("dir", type=Path)
    k.add_argument("--scenario", default="mixed_pens", choices=list(BY_NAME), help="the generator (bench/photos)")
    k.add_argument("--seed", type=int, default=1)
    k.add_argument("--photos", type=int, default=100)
    k.add_argument("--only", type=int, nargs="+", help="keep only these photos of the run (numbers from 0)")
    r = sub.add_parser("read", help="decide the kept pages' boxes again with the reader as it is now")
    r.add_argument("dir", type=Path)
    r.add_argument("--verbose", action="store_true", help="print every wrong or unsure box")
    r.add_argument("--checkout", type=Path, help="decide with the reader of this checkout of sheetgen instead")
    args = parser.parse_args()
    if getattr(args, "checkout", None):
        sys.path.insert(0, str(args.checkout.resolve()))
        for name in [m for m in sys.modules if m == "sheetgen" or m.startswith("sheetgen.")]:
            del sys.modules[name]
    if args.command == "keep":
        keep(args.dir, args.scenario, args.seed, list(args.only or range(args.photos)))
    else:
        read(args.dir, args.verbose)


if __name__ == "__main__":
    main()
