"""What every box of many bench photos showed `decide`, kept, so a change to `decide` is measured offline.

    python -m bench.scan_decide keep flatbed 3 30 /tmp/boxes      # 30 photos of a generator, seed 3
    python -m bench.scan_decide keep all 5 20 /tmp/boxes          # every generator of the registry
    python -m bench.scan_decide compare /tmp/boxes                # with this tree's decide()

`keep` reads the photos of a generator as `python -m bench.scan` makes them (photo n of a seed is the
same photo in both) and writes one JSON line a box: the generator, seed and photo, the field,
the truth, the kind of mark, what was read, the box's look (`verdict.Look`: every measure its
reading is drawn from, as `reader.read_photo` returns it in `PageRead.looks`) and the page's
levels (`PageRead.levels`). A photo refused is a line with its message. `compare` decides every
kept box again with this tree's `decide` and prints, per generator and seed, the wrong confident
reads and the unsure boxes then and now, and how the readings changed (marks and empty boxes,
the mistakes rubbed out apart) and by which rule of `verdict.RULES` they are decided now. Reading
a photo costs about a second; deciding a box again, microseconds: a change to `decide` alone is
measured on a thousand photos in a few seconds, box by box. (`python -m bench.scan_boxes` keeps
whole aligned pages instead, about 10 MB a photo, for a change anywhere in `read_boxes`; this
keeps a few hundred bytes a box.)
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from bench.photos import BY_NAME, GENERATORS
from bench.scan import make_shots


def keep(gen: str, seed: int, photos: int, out: Path) -> None:
    from sheetgen.errors import SheetgenError
    from sheetgen.scan import reader
    from sheetgen.scan.photos import Photo

    generator = BY_NAME[gen]
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{gen}_{seed}.jsonl"
    tmp = path.with_suffix(".part")
    with tmp.open("w") as f, tempfile.TemporaryDirectory() as variants:
        for n in range(photos):
            shots, _ = make_shots(generator, seed, n, Path(variants))
            for shot in shots:
                where = {"gen": gen, "seed": seed, "photo": n, "layout": shot.key[0], "page": shot.key[1]}
                try:
                    read = reader.read_photo(Photo(f"photo {n}", f"p{n}", shot.img), shot.layout_ref)
                except SheetgenError as exc:
                    f.write(json.dumps({**where, "refused": str(exc)}) + "\n")
                    continue
                levels = dataclasses.asdict(read.levels)
                for field, look in read.looks.items():
                    mark = (shot.kinds or {}).get(field, "")
                    row = {**where, "field": field, "kind": look.kind, "truth": bool(shot.truth.get(field))}
                    row |= {"mark": mark, "read": read.readings[field], "look": dataclasses.asdict(look)}
                    f.write(json.dumps({**row, "levels": levels}) + "\n")
            print(f"{gen} seed {seed}: photo {n + 1} of {photos}", end="\r", file=sys.stderr)
    tmp.replace(path)
    print(f"\n{path}", file=sys.stderr)


def compare(folder: Path) -> None:
    from sheetgen.scan import verdict

    stats = defaultdict(Counter)
    changes = Counter()
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.open():
            row = json.loads(line)
            s = stats[f"{row['gen']} {row['seed']}"]
            if "refused" in row:
                s["refused"] += 1
                continue
            look, levels = verdict.Look(**row["look"]), verdict.Levels(**row["levels"])
            now, then = verdict.decide(look, levels), row["read"]
            s["boxes"] += 1
            for when, reading in (("then", then), ("now", now)):
                s[f"unsure {when}"] += reading == verdict.UNSURE
                s[f"wrong {when}"] += reading != verdict.UNSURE and (reading == verdict.MARKED) != row["truth"]
            if now != then:
                what = "mark" if row["truth"] else "rubbed out" if "erased" in row["mark"] else "empty"
                changes[(what, then, now, verdict.rule_for(look, levels).name)] += 1
    print("| generator, seed | boxes | refused | wrong then | wrong now | unsure then | unsure now |")
    print("|---|---|---|---|---|---|---|")
    for name, s in sorted(stats.items()):
        share = 100 * s["unsure now"] / max(1, s["boxes"])
        print(
            f"| {name} | {s['boxes']} | {s['refused']} | {s['wrong then']} | {s['wrong now']} "
            f"| {s['unsure then']} | {s['unsure now']} ({share:.2f}%) |"
        )
    for (what, then, now, rule), n in sorted(changes.items()):
        print(f"{n:6d} {what}: {then} -> {now} ({rule})")


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.scan_decide", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    k = sub.add_parser("keep", help="read bench photos, keep each box's look and its page's levels")
    k.add_argument("generator", choices=[*BY_NAME, "all"], help="a generator of bench/photos, or all of them")
    k.add_argument("seed", type=int)
    k.add_argument("photos", type=int)
    k.add_argument("out", type=Path)
    c = sub.add_parser("compare", help="decide every kept box again with this tree's decide()")
    c.add_argument("folder", type=Path)
    args = ap.parse_args()
    if args.command == "keep":
        for gen in [g.name for g in GENERATORS] if args.generator == "all" else [args.generator]:
            keep(gen, args.seed, args.photos, args.out)
    else:
        compare(args.folder)


if __name__ == "__main__":
    main()
