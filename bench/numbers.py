"""How well `sheetgen scan` reads numbers written by hand: the runner for the handwriting
generators of bench/handwriting (its registry, `bench.handwriting.GENERATORS`).

    python -m bench.numbers --list                                  # the generators
    python -m bench.numbers --scenario fonts --seed 1 --count 40
    python -m bench.numbers --scenario all --seed 3 --count 30
    python -m bench.numbers --scenario strokes --seed 2 --only 5 --verbose --save /tmp/look

Sheet n of a scenario and seed is always the same sheet (np.random.default_rng([seed, n])),
taking the generator's pages in turn (Bosk's worksheet and pad, Plante Bataille's pad, the
Glassworks pad, the Imperial Settlers empire), a player count drawn from the pad's range.
Each page is read as `sheetgen scan` reads the numbers of a page it has mapped
(sheetgen.scan.written: `read_numbers`, then `agreed`); the ticks a check needs (a
Glassworks board copy) are taken as read right, their reading being the photo bench's.

Reports: numbers written, kept right, kept wrong (goal 0), left '?' (goal under 10%), and the
empty boxes (read as a number: kept wrong too); milliseconds a number (the CPU time of reading
the page's numbers, one thread, over the numbers written on it); seconds for a whole Bosk pad
of 4 players (its two pages). Then the same counts per pen, size and crossing-out, and why
numbers were left '?'. Every number kept wrong is printed (with --verbose every '?' too).

A whole run (not --only) appends one line a scenario to bench/results.jsonl (--results PATH
for another file, --results '' for none); `python -m bench.report` makes the tables. Needs the
[scan] and [ocr] extras and the handwriting fonts (see bench/handwriting/fonts.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench import results
from bench.handwriting import BY_NAME, GENERATORS

COUNTS = ("sheets", "numbers", "right", "wrong", "unread", "empties", "empty_wrong", "empty_unread", "secs")


def options() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m bench.numbers", description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", nargs="+", metavar="NAME", help="generators to run (see --list), or 'all'")
    ap.add_argument("--list", action="store_true", help="list the generators and what each simulates")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=30, help="sheets (pages) a scenario (default 30)")
    ap.add_argument("--only", type=int, nargs="+", metavar="N", help="read only these sheets (numbers from 0)")
    ap.add_argument("--verbose", action="store_true", help="print every number left '?' too")
    ap.add_argument("--save", metavar="DIR", help="write the pages with a number kept wrong to DIR (PNG)")
    ap.add_argument(
        "--sure",
        type=float,
        metavar="P",
        help="keep numbers read at least this sure (0-1) instead of scan's NUMBERS.sure",
    )
    ap.add_argument(
        "--results",
        default=str(results.RESULTS),
        metavar="PATH",
        help="append the run's totals to this JSON-lines file ('' for none; default bench/results.jsonl)",
    )
    return ap


def read_sheet(gen, seed: int, n: int, opts: dict) -> dict:
    """Make sheet n of a generator and read its numbers: its counts, tagged lines, time."""
    import numpy as np

    from sheetgen.games import load_layout
    from sheetgen.scan.ocr import recogniser
    from sheetgen.scan.photos import Photo
    from sheetgen.scan.reader import PageRead
    from sheetgen.scan.verdict import EMPTY, MARKED
    from sheetgen.scan.written import agreed, read_numbers

    rng = np.random.default_rng([seed, n])
    layout_id, page_id = gen.pages[n % len(gen.pages)]
    layout = load_layout(layout_id)
    pl = layout.players
    players = int(rng.integers(pl["min"], pl["max"] + 1)) if pl["min"] < pl["max"] else pl["default"]
    lang = "fr" if rng.random() < 0.3 else "en"
    img, sheet, kinds = gen.module().page(layout, page_id, players, lang, rng)
    boxes = layout.document(lang, players, [page_id]).pages[0].boxes()
    values = {b.field: "" if b.kind == "write" else sheet.ticks.get(b.field, False) for b in boxes}
    readings = {b.field: MARKED if sheet.ticks.get(b.field) else EMPTY for b in boxes if b.kind != "write"}
    read = PageRead(
        Photo(f"sheet {n}", f"sheet-{n}", img), layout, page_id, values, readings,
        rectified=img, sheet={"players": players, "lang": lang, "grey": False},
    )  # fmt: skip
    started = time.process_time()
    numbers = agreed(read, read_numbers(read, recogniser(), opts["sure"]))
    secs = time.process_time() - started
    counts, tags, lines = Counter(sheets=1, secs=secs), defaultdict(Counter), []
    where = f"{gen.name} seed {seed} sheet {n} ({layout_id} {page_id}, {players} players)"
    for f, want in sheet.truth.items():
        got = numbers[f]
        kind = kinds.get(f, "")
        if want:
            counts["numbers"] += 1
            outcome = "right" if got.value == want else "unread" if got.value == "?" else "wrong"
        else:
            counts["empties"] += 1
            outcome = "" if got.value == "" else "empty_unread" if got.value == "?" else "empty_wrong"
        if outcome:
            counts[outcome] += 1
        for tag in [t for t in kind.split(", ") if t] or ["-"]:
            tags[tag]["numbers" if want else "empties"] += 1
            if outcome:
                tags[tag][outcome] += 1
        if outcome == "unread":
            tags[f"'?': {got.why}"]["unread"] += 1
        if outcome in ("wrong", "empty_wrong") or (opts["verbose"] and outcome in ("unread", "empty_unread")):
            lines.append(
                f"{outcome.upper() if 'wrong' in outcome else outcome}: {where}: {f} written {want!r} "
                f"({kind or 'empty'}), read {got.value!r} (recogniser: {got.text!r}, {got.sure:.3f}; {got.why})"
            )
    if opts["save"] and any("wrong" in line.split(":")[0].lower() for line in lines):
        _save(opts["save"], f"{gen.name}-{seed}-{n}", img)
    size = (layout_id, page_id, players)
    return {"counts": counts, "tags": tags, "lines": lines, "size": size, "secs": secs}


def _save(folder: str, name: str, img) -> None:
    from PIL import Image

    Path(folder).mkdir(parents=True, exist_ok=True)
    Image.fromarray(img).save(Path(folder) / f"{name}.png")


def run(gen, args) -> dict:
    """Read the sheets of one generator, print as they come and then the tables; the totals."""
    total, tags, per_page = Counter(), defaultdict(Counter), defaultdict(list)
    opts = {"verbose": args.verbose, "save": args.save, "sure": _sure(args)}
    print(f"## {gen.name}: {gen.simulates}\n", flush=True)
    for n in args.only or range(args.count):
        one = read_sheet(gen, args.seed, n, opts)
        total.update(one["counts"])
        for tag, c in one["tags"].items():
            tags[tag].update(c)
        per_page[one["size"]].append(one["secs"])
        for line in one["lines"]:
            print(line, flush=True)
    print(f"\n{total['sheets']} sheets, seed {args.seed}\n")
    head = ["numbers", "kept right", "kept wrong", "left '?'", "empty boxes", "empty read a number", "empty left '?'"]
    print("| " + " | ".join([*head, "ms a number"]) + " |")
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {total['numbers']} | {total['right']} | {total['wrong']} | {total['unread']} "
        f"({_share(total['unread'], total['numbers'])}) | {total['empties']} | {total['empty_wrong']} | "
        f"{total['empty_unread']} | {_ms(total)} |"
    )
    print("\n| pen, size, crossing-out; why '?' | numbers | right | wrong | '?' | empties | empty wrong |")
    print("|---|---|---|---|---|---|---|")
    for tag, c in sorted(tags.items()):
        print(
            f"| {tag} | {c['numbers']} | {c['right']} | {c['wrong']} | {c['unread']} | {c['empties']} | "
            f"{c['empty_wrong']} |"
        )
    pad = [per_page[("bosk", p, 4)] for p in ("summer", "pad")]
    total["bosk_pad_s"] = round(sum(sum(t) / len(t) for t in pad), 3) if all(pad) else None
    if total["bosk_pad_s"] is not None:
        print(f"\nA Bosk pad of 4 players (its two pages): {total['bosk_pad_s']:.2f} s of one core")
    sys.stdout.flush()
    return total, tags


def _share(part: int, whole: int) -> str:
    return f"{part / max(whole, 1):.1%}"


def _ms(total: Counter) -> str:
    return f"{1000 * total['secs'] / max(total['numbers'], 1):.1f}"


def _sure(args) -> float:
    """How sure a number read must be to be kept: --sure, or scan's own threshold."""
    from sheetgen.scan.tuning import NUMBERS

    return args.sure if args.sure is not None else NUMBERS.sure


def by_writing(tags: dict) -> dict:
    """The counts of each way a number is written (the generator's tags: pen, size,
    crossing-out), for the report's table of what reads best; not the reasons for '?'."""
    keys = ("numbers", "right", "wrong", "unread")
    return {t: {k: c[k] for k in keys} for t, c in sorted(tags.items()) if not t.startswith("'?'") and c["numbers"]}


def result_line(gen, args, total: Counter, tags: dict) -> dict:
    return {
        "bench": "numbers",
        "scenario": gen.name,
        **results.where(),
        "seed": args.seed,
        "sheets": total["sheets"],
        "numbers": total["numbers"],
        "right": total["right"],
        "wrong": total["wrong"],
        "unread": total["unread"],
        "empties": total["empties"],
        "empty_wrong": total["empty_wrong"],
        "empty_unread": total["empty_unread"],
        "ms_per_number": float(_ms(total)),
        "bosk_pad_s": total["bosk_pad_s"],
        "sure": _sure(args),
        "held_out": gen.held_out,
        "by_writing": by_writing(tags),
        "command": f"python -m bench.numbers --scenario {gen.name} --seed {args.seed} --count {args.count}"
        + (f" --sure {args.sure}" if args.sure is not None else ""),
    }


def main(argv=None) -> int:
    args = options().parse_args(argv)
    if args.list:
        for g in GENERATORS:
            print(f"{g.name:10} {'held out' if g.held_out else 'tuning  '}  {g.simulates}")
        return 0
    if not args.scenario:
        options().error("give --scenario NAME (or all), or --list")
    names = [g.name for g in GENERATORS] if args.scenario == ["all"] else args.scenario
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        options().error(f"unknown scenario {', '.join(unknown)}; see --list")
    from sheetgen.scan.ocr import recogniser

    if recogniser() is None:
        raise SystemExit("the numbers bench needs the ocr extra: pip install -e '.[ocr]'")
    import cv2

    cv2.setNumThreads(1)  # (one core's time, as bench.scan measures)
    for name in names:
        gen = BY_NAME[name]
        total, tags = run(gen, args)
        if args.results and not args.only:
            results.append(result_line(gen, args, total, tags), Path(args.results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
