"""How well `sheetgen scan` reads generated photos of played sheets: the one runner for every
photo generator of bench/photos (its registry, `bench.photos.GENERATORS`).

    python -m bench.scan --list                                    # the generators
    python -m bench.scan --scenario pencil --seed 1 --photos 200 --jobs 2
    python -m bench.scan --scenario all --seed 3 --photos 30 --jobs 2
    python -m bench.scan --scenario mixed_pens --seed 1 --only 17 --verbose --save /tmp/look

Photo n of a scenario and seed is always the same photo (its own random generator,
np.random.default_rng([seed, n])), so any photo can be made again alone (--only N...).

Reports, per layout and page: photos, refused (marks or QR code not found), boxes, wrong
confident reads (goal 0), unsure boxes (goal under 1%), garden cells read filled but of the
wrong vegetable (wrong confident reads too: goal 0) or '?' (left to the user, fine), seconds a
photo (reading only, not generating: the CPU seconds of the reading process, one OpenCV thread,
so one core's seconds whatever --jobs and however busy the machine) and megapixels. Then,
when the generator says what it drew in each box, the same counts per pen, kind of mark and
hard case ("+stray", "+light", ...); for a generator that says under which light
(garden_colours), what each light did to the garden cells. Every wrong read and
refused photo is printed (with --verbose every unsure box too, and what the camera did).

A whole run (not --only) appends one line a scenario to bench/results.jsonl (--results PATH
for another file, --results '' for none); `python -m bench.report` makes bench/RESULTS.md and
docs/scan-accuracy.md from it. Needs the [scan] extra, and poppler-utils (pdftoppm) for the
generators that rasterise the page with poppler.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from bench import results
from bench.photos import BY_NAME, GENERATORS

COUNTS = ("photos", "refused", "boxes", "wrong", "vegetable", "unsure", "cells", "unknown", "secs", "mp")
GARDEN = (  # what a garden cell read against its truth, per light (garden_colours)
    ("cells", "coloured cells"),
    ("right", "letters right"),
    ("wrong_letter", "wrong letters"),
    ("q_for_dice", "'?' for a dice colour"),
    ("letter_for_other", "letters for a non-dice colour"),
    ("q_right", "'?' right"),
    ("missed", "empty/unsure for a coloured cell"),
    ("filled_empty", "empty cell read filled/unsure"),
    ("refused", "photos refused"),
)


@dataclass
class Shot:
    """One image to read: a page of photo n (a variant's photo has one a page)."""

    key: tuple  # (layout, page) as the table shows it
    img: object
    truth: dict
    kinds: dict | None
    layout_ref: str | None = None  # a variant's file, read with --layout


def options() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m bench.scan", description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", nargs="+", metavar="NAME", help="generators to run (see --list), or 'all'")
    ap.add_argument("--list", action="store_true", help="list the generators and what each simulates")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--photos", type=int, default=30, help="photos a scenario (default 30)")
    ap.add_argument("--only", type=int, nargs="+", metavar="N", help="read only these photos (numbers from 0)")
    ap.add_argument("--jobs", type=int, default=1, help="read in N processes (the same photos and counts)")
    ap.add_argument("--verbose", action="store_true", help="print every unsure box too, and what each camera did")
    ap.add_argument("--save", metavar="DIR", help="write the photos read wrong or refused to DIR (PNG)")
    ap.add_argument("--every", type=int, default=0, metavar="N", help="also print the table so far every N photos")
    ap.add_argument(
        "--results",
        default=str(results.RESULTS),
        metavar="PATH",
        help="append each scenario's totals to PATH (default bench/results.jsonl; '' for none)",
    )
    return ap


# ------------------------------------------------------------------------------- the photos


_LAYOUTS: dict = {}


def _layout(ref: str):
    from sheetgen.games import load_layout

    if ref not in _LAYOUTS:
        _LAYOUTS[ref] = load_layout(ref)
    return _LAYOUTS[ref]


def make_shots(gen, seed: int, n: int, folder: Path) -> tuple[list[Shot], list[str]]:
    """Photo `n` of generator `gen` on `seed`: its images, and notes for the report (a variant
    that failed validation). Variants are written to `folder`."""
    import numpy as np

    rng = np.random.default_rng([seed, n])
    module = gen.module()
    if not gen.pages:
        return _variant_shots(module, rng, n, folder)
    lid, page = gen.pages[n % len(gen.pages)]
    img, truth, kinds = (*module.photo(_layout(lid), page, rng), None)[:3]
    return [Shot((lid, page), img, truth, kinds)], []


def _variant_shots(module, rng, n: int, folder: Path) -> tuple[list[Shot], list[str]]:
    """A designer's variant of a readable layout (the layouts in turn, every 5th photo going
    round them too), every page of it photographed, read with the variant as the layout."""
    base = module.BASES[(n + n // 5) % len(module.BASES)]
    before = len(module.FAILURES)
    path = module.variant(rng, base, folder)
    notes = [f"photo {n}: a variant of {base} failed validation [{f[1]}]: {f[2]}" for f in module.FAILURES[before:]]
    if path is None:
        return [], [*notes, f"photo {n}: no valid variant of {base} in {module.TRIES} drafts"]
    vkind = module.KIND[str(path)]
    layout = _layout(str(path))
    lang = "fr" if rng.random() < 0.5 else "en"
    pl = layout.players
    players = int(rng.integers(pl["min"], pl["max"] + 1)) if pl["min"] < pl["max"] else None
    shots = []
    for page in layout.pages:
        img, truth, kinds = module.photo(layout, page.id, rng, vkind, lang, players)
        kinds["_photo"] = f"[{vkind}] {kinds['_photo']}"
        shots.append(Shot((base, page.id), img, truth, kinds, str(path)))
    return shots, notes


# ------------------------------------------------------------------------------- one photo read


def read_photo_number(name: str, seed: int, n: int, opts: dict) -> dict:
    """Make and read photo `n` of generator `name`: its counts per page, per mark and per
    light, and the lines to print. (A pure function of its arguments: the worker of --jobs.)"""
    from sheetgen.errors import SheetgenError
    from sheetgen.scan import reader
    from sheetgen.scan.photos import Photo

    gen = BY_NAME[name]
    shots, notes = make_shots(gen, seed, n, Path(opts["folder"]))
    out = {"n": n, "pages": [], "marks": defaultdict(Counter), "garden": defaultdict(Counter), "lines": []}
    lines = out["lines"]
    lines += notes
    for shot in shots:
        tag = f"photo {n} {shot.key[0]} {shot.key[1]}"
        counts = Counter(photos=1, mp=shot.img.shape[0] * shot.img.shape[1] / 1e6)
        out["pages"].append((shot.key, counts))
        what = f" ({shot.kinds['_photo']})" if shot.kinds and "_photo" in shot.kinds else ""
        start = time.process_time()
        try:
            read = reader.read_photo(Photo(f"photo {n}", f"p{n}", shot.img), shot.layout_ref)
        except SheetgenError as exc:
            counts["secs"] += time.process_time() - start
            counts["refused"] += 1
            lines.append(f"{tag}: REFUSED: {exc.problems[0]}{what}")
            _light(out["garden"], shot, None)
            _save(opts["save"], f"photo-{n}-{shot.key[1]}", shot.img)
            continue
        counts["secs"] += time.process_time() - start
        truth = shot.truth
        gone = [f for f in truth if f not in read.readings]
        if gone:
            lines.append(f"{tag}: fields not read at all: {gone}")
            truth = {f: v for f, v in truth.items() if f in read.readings}
        wrong = _count(counts, read, truth, shot.kinds or {}, tag, lines, opts["verbose"])
        _by_mark(out["marks"], read, truth, shot.kinds, wrong)
        _light(out["garden"], shot, read, truth, lines, tag)
        if wrong or (opts["verbose"] and what and counts["unsure"]):
            lines.append(f"   (that photo:{what or ' -'})")
        if wrong:
            _save(opts["save"], f"photo-{n}-{shot.key[1]}", shot.img)
    if not gen.pages and shots and n % 5 == 0:
        lines += _through_the_cli(n, shots)
    return out


def _count(counts: Counter, read, truth: dict, kinds: dict, tag: str, lines: list, verbose: bool) -> list:
    """One page's boxes added to `counts`; the fields read wrong (a confident read against the
    truth, or a wrong vegetable), each printed (with `verbose`, the unsure ones too)."""
    from sheetgen.scan import verdict

    wrong = []
    for field, want in truth.items():
        counts["boxes"] += 1
        kind = f" [{kinds[field]}]" if field in kinds else ""
        measure = f"{read.scores.get(field, 0):.4f}/{read.spreads.get(field, 0):.4f}"
        if read.readings[field] == verdict.UNSURE:
            counts["unsure"] += 1
            if verbose:
                lines.append(f"{tag}: unsure {field} ({measure}, truth {want!r}){kind}")
            continue
        got = read.values[field]
        if (got not in ("", False)) != (want not in ("", False)):
            counts["wrong"] += 1
            wrong.append(field)
            lines.append(f"{tag}: WRONG {field} read {got!r}, truth {want!r} ({measure}){kind}")
        elif isinstance(want, str) and want:
            counts["cells"] += 1
            counts["unknown"] += got == "?"
            if got not in (want, "?"):
                counts["vegetable"] += 1
                wrong.append(field)
                lines.append(f"{tag}: WRONG VEGETABLE {field} read {got!r}, truth {want!r}{kind}")
            elif verbose and got != want:
                lines.append(f"{tag}: '?' for {field}, truth {want!r}{kind}")
    return wrong


def _by_mark(marks: dict, read, truth: dict, kinds: dict | None, wrong: list) -> None:
    """The page's boxes counted by what was drawn in them: the pen, the style and each hard
    case ("pen/style +case ..." in kinds; a box without kind is "none/empty")."""
    if not kinds:
        return
    for field in truth:
        words = kinds.get(field, "none/empty").split()
        pen, _, style = words[0].partition("/")
        for name in {pen, style or pen, *(w for w in words[1:] if w.startswith("+"))}:
            k = marks[name]
            k["boxes"] += 1
            k["unsure"] += read.readings[field] == "unsure"
            k["wrong"] += field in wrong


def _light(garden: dict, shot: Shot, read, truth: dict | None = None, lines: list | None = None, tag: str = "") -> None:
    """The garden cells of a photo whose generator says the light it was taken under, counted
    by what was read (a letter right, '?' for a dice colour, a letter for another colour...)."""
    from sheetgen.scan import verdict

    if not shot.kinds or "_light" not in shot.kinds:
        return
    counts = garden[shot.kinds["_light"]]
    if read is None:
        counts["refused"] += 1
        return
    for field, want in truth.items():
        if not isinstance(want, str):
            continue
        unsure = read.readings[field] == verdict.UNSURE
        what = _cell(want, read.values[field], unsure)
        counts["cells"] += bool(want)
        if what != "ok":
            counts[what] += 1
        if what not in ("ok", "right", "q_right"):
            shown = "unsure" if unsure else repr(read.values[field])
            lines.append(f"{tag}: garden {field} truth {want!r} got {shown} [{what}] {shot.kinds[field]}")


def _cell(want: str, got: str, unsure: bool) -> str:
    if want == "":
        return "ok" if got == "" and not unsure else "filled_empty"
    if unsure or got == "":
        return "missed"
    if want == "?":
        return "q_right" if got == "?" else "letter_for_other"
    if got == want:
        return "right"
    return "q_for_dice" if got == "?" else "wrong_letter"


def _through_the_cli(n: int, shots: list[Shot]) -> list[str]:
    """`sheetgen scan --layout VARIANT` then `sheetgen score` on photo n's pages, as a user
    runs them: a line for a non-zero exit or a crash, or the score's last line."""
    import cv2
    from click.testing import CliRunner

    from sheetgen.cli import cli

    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for shot in shots:
            stem = "alice" if len(shots) == 1 else f"alice-{shot.key[1]}"
            names.append(str(Path(tmp) / f"{stem}.png"))
            cv2.imwrite(names[-1], cv2.cvtColor(shot.img, cv2.COLOR_RGB2BGR))
        game = str(Path(tmp) / "game.yaml")
        for argv in (["scan", *names, "--layout", shots[0].layout_ref, "-o", game], ["score", game]):
            res = runner.invoke(cli, argv, catch_exceptions=True)
            crashed = res.exception is not None and not isinstance(res.exception, SystemExit)
            if res.exit_code != 0 or crashed:
                tb = "".join(traceback.format_exception(res.exception))[-1500:] if crashed else ""
                said = (res.output or "").strip().replace("\n", " | ")[:600]
                return [f"photo {n}: CLI `sheetgen {argv[0]}` exit {res.exit_code}: {said} {tb}".rstrip()]
        return [f"photo {n}: CLI scan and score ok: {(res.output or '').strip().splitlines()[-1:]}"]


def _save(folder, name: str, img) -> None:
    """A photo as DIR/NAME.png, to look at (or to read again: --only N)."""
    if folder:
        import cv2

        Path(folder).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(Path(folder) / f"{name}.png"), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))


# ------------------------------------------------------------------------------- a run


def run(gen, args) -> dict:
    """Read the photos of one generator (in args.jobs processes), print as they come and then
    the tables; the totals."""
    numbers = list(args.only or range(args.photos))
    keep = Path(args.save) if args.save else None
    tmp = Path(tempfile.mkdtemp(prefix="bench-scan-"))
    opts = {"folder": str((keep or tmp) / "variants"), "save": args.save, "verbose": args.verbose}
    pages: dict = defaultdict(Counter)
    marks: dict = defaultdict(Counter)
    garden: dict = defaultdict(Counter)
    print(f"## {gen.name}: {gen.simulates}\n", flush=True)
    try:
        for done, one in enumerate(_photos(gen.name, args.seed, numbers, opts, args.jobs), start=1):
            for key, counts in one["pages"]:
                pages[key].update(counts)
            for table, part in ((marks, one["marks"]), (garden, one["garden"])):
                for name, counts in part.items():
                    table[name].update(counts)
            for line in one["lines"]:
                print(line)
            sys.stdout.flush()
            if args.every and done % args.every == 0 and done < len(numbers):
                _table(pages, args.seed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    total = _table(pages, args.seed)
    if marks:
        print("\n| mark (pen, style or hard case) | boxes | wrong | unsure |\n|---|---|---|---|")
        for name, k in sorted(marks.items()):
            print(f"| {name} | {k['boxes']} | {k['wrong']} | {k['unsure']} ({_share(k['unsure'], k['boxes'])}) |")
    if garden:
        print("\n| light | " + " | ".join(title for _, title in GARDEN) + " |")
        print("|---|" + "---|" * len(GARDEN))
        for light, k in [*sorted(garden.items()), ("all", sum(garden.values(), Counter()))]:
            print(f"| {light} | " + " | ".join(str(k[key]) for key, _ in GARDEN) + " |")
    sys.stdout.flush()
    return total


def _photos(name: str, seed: int, numbers: list, opts: dict, jobs: int):
    """Each photo's counts, in order: read here, or by `jobs` forked processes."""
    if jobs <= 1 or len(numbers) <= 1:
        _one_thread()
        for n in numbers:
            yield read_photo_number(name, seed, n, opts)
        return
    import multiprocessing
    from functools import partial

    with multiprocessing.get_context("fork").Pool(jobs, initializer=_one_thread) as pool:
        yield from pool.imap(partial(_read_in_worker, name, seed, opts), numbers)


def _read_in_worker(name: str, seed: int, opts: dict, n: int) -> dict:
    out = read_photo_number(name, seed, n, opts)
    return {**out, "marks": dict(out["marks"]), "garden": dict(out["garden"])}  # (picklable)


def _one_thread() -> None:
    import cv2

    # one OpenCV thread a process: the seconds a photo are one core's, as on a busy phone,
    # and N processes share N cores rather than each spreading over all of them
    cv2.setNumThreads(1)


def _share(part: int, whole: int) -> str:
    return f"{part / max(whole, 1):.2%}"


def _table(pages: dict, seed: int) -> Counter:
    total = sum(pages.values(), Counter())
    print(f"\n{total['photos']} photos, seed {seed}\n")
    print(
        "| layout / page | photos | refused | boxes | wrong | unsure | vegetable wrong | vegetable ? | s/photo | MP |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key, s in [*pages.items(), (("all", ""), total)]:
        print(
            f"| {key[0]} {key[1]} | {s['photos']} | {s['refused']} | {s['boxes']} | {s['wrong']} | "
            f"{s['unsure']} ({_share(s['unsure'], s['boxes'])}) | {s['vegetable']}/{s['cells']} | "
            f"{s['unknown']}/{s['cells']} | {s['secs'] / max(s['photos'], 1):.2f} | "
            f"{s['mp'] / max(s['photos'], 1):.1f} |"
        )
    sys.stdout.flush()
    return total


def result_line(gen, args, total: Counter) -> dict:
    """The run's totals as a line of bench/results.jsonl."""
    photos = max(total["photos"], 1)
    return {
        "bench": "scan",
        "scenario": gen.name,
        **results.where(),
        "seed": args.seed,
        "photos": total["photos"],
        "refused": total["refused"],
        "boxes": total["boxes"],
        "wrong": total["wrong"] + total["vegetable"],  # every confident read against the truth
        "wrong_marks": total["wrong"],
        "wrong_vegetables": total["vegetable"],
        "unsure": total["unsure"],
        "cells": total["cells"],
        "unknown_vegetables": total["unknown"],
        "s_per_photo": round(total["secs"] / photos, 3),
        "mp": round(total["mp"] / photos, 1),
        "jobs": args.jobs,
        "held_out": gen.held_out,
        "command": f"python -m bench.scan --scenario {gen.name} --seed {args.seed} --photos {args.photos}",
    }


def main(argv=None) -> int:
    ap = options()
    args = ap.parse_args(argv)
    if args.list:
        for g in GENERATORS:
            what = "held out" if g.held_out else "tuning"
            print(f"{g.name:18} {what:8} {g.simulates}")
        return 0
    if not args.scenario:
        ap.error("give --scenario NAME... (or 'all'), or --list")
    names = [g.name for g in GENERATORS] if args.scenario == ["all"] else args.scenario
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        ap.error(f"no generator {', '.join(unknown)}; --list lists them")
    if args.jobs < 1 or args.photos < 1:
        ap.error("--jobs and --photos take a number from 1")
    for name in names:
        gen = BY_NAME[name]
        try:
            total = run(gen, args)
        except FileNotFoundError as exc:
            if "pdftoppm" in str(exc):
                sys.exit(f"{name}: pdftoppm not found: install poppler-utils (apt-get install poppler-utils)")
            raise
        if not args.only:
            results.append(result_line(gen, args, total), Path(args.results) if args.results else None)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
