"""A twelfth, held-out photo generator for `sheetgen scan` (bench/gen_twelfth.py): designers' variants.

Every other bench photographs the built-in layouts; this one photographs variants. Photo n makes
a random but plausible variant of a readable built-in (Harvest Dice normal and advanced, Imperial
Settlers basic and advanced, River Valley Glassworks, the bases taken in turn), as a designer
would write it from docs/variants.md: a garden of other rows, columns and cell size (from 7 mm),
pig rows, boxes, box size and values, longer or shorter market tracks with other box sizes and
gaps, a corn market, pastel frame fills, other Empire track sections, values and box sizes, a new
Empire track, other buildings (boxes, costs, box size, points, names), a Glassworks pad for 1-8
players, columns of 4 or 6 pieces, a taller or shorter board, per-player boards, labels and
titles in French and English, theme colours. The variant is validated
(load_layout; a draft that fails is tried again, at most 4 times, and its message reported),
every page of it rendered, marked on 10-80% of its tick boxes and garden cells with one player's
pen (HB or 2B pencil with grain, ballpoint, felt-tip) and habit (cross, tick, fill, slash, dot;
circles round round boxes; a mark strays up to 2 mm over its border, never into a neighbour's
inside), the garden coloured with orange/green/red colour pencils (grey pencil or pen: '?'),
then photographed by a phone (on a table, tilt up to 15 degrees, any roll, 120-300 dpi on the
sheet, under 12 MP, gentle uneven light, mild blur and noise, JPEG 70-92) and read with
`read_photo(..., layout_ref=variant)`. Every 5th photo also runs `sheetgen scan --layout variant`
and `sheetgen score` end to end (CliRunner). Kinds: "pen/style +variant-kind".

The report: bench/scan.py's table per base layout and page, then refusals, variants that
failed validation, every wrong read (photo, field, truth, got, kinds) and the CLI's problems.

Run: python bench/scan_twelfth.py --photos 30 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the variants and the wrong/refused photos)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan import _count, _table, options  # noqa: E402


def main() -> None:
    import gen_twelfth as gen
    import numpy as np

    from sheetgen.errors import SheetgenError
    from sheetgen.games import load_layout
    from sheetgen.scan import reader
    from sheetgen.scan.photos import Photo

    args = options(__doc__).parse_args()
    keep = Path(args.save) if args.save else None
    tmp = Path(tempfile.mkdtemp(prefix="scan12-"))
    folder = keep / "variants" if keep else tmp / "variants"
    zero = dict(photos=0, boxes=0, wrong=0, unsure=0, colour=0, unknown=0, cells=0, refused=0, secs=0.0, mp=0.0)
    stats: dict = {}
    refusals, wrongs, cli_notes, missing, no_variant = [], [], [], [], []
    for n in list(args.only or range(args.photos)):
        rng = np.random.default_rng([args.seed, n])
        base = gen.BASES[(n + n // 5) % len(gen.BASES)]  # every 5th photo goes round the bases too
        before = len(gen.FAILURES)
        path = gen.variant(rng, base, folder)
        for f in gen.FAILURES[before:]:
            print(f"photo {n}: variant of {base} failed validation [{f[1]}]: {f[2]}")
        if path is None:
            no_variant.append((n, base))
            continue
        vkind = gen.KIND[str(path)]
        layout = load_layout(str(path))
        lang = "fr" if rng.random() < 0.5 else "en"
        pl = layout.players
        players = int(rng.integers(pl["min"], pl["max"] + 1)) if pl["min"] < pl["max"] else None
        shots = []
        for page in layout.pages:
            key = (base, page.id)
            s = stats.setdefault(key, dict(zero))
            img, truth, kinds = gen.photo(layout, page.id, rng, vkind, lang, players)
            shots.append((page.id, img))
            s["photos"] += 1
            s["mp"] += img.shape[0] * img.shape[1] / 1e6
            start = time.perf_counter()
            try:
                read = reader.read_photo(Photo(f"photo {n}", f"p{n}", img), layout_ref=str(path))
            except SheetgenError as exc:
                s["secs"] += time.perf_counter() - start
                s["refused"] += 1
                refusals.append((n, base, page.id, vkind, exc.problems[0], kinds["_photo"]))
                print(f"photo {n} {base} {page.id}: REFUSED: {exc.problems[0]} [{vkind}] ({kinds['_photo']})")
                _save(keep, f"photo-{n}-{page.id}", img)
                continue
            s["secs"] += time.perf_counter() - start
            gone = [f for f in truth if f not in read.readings]
            if gone:
                missing.append((n, base, page.id, vkind, gone))
                print(f"photo {n} {base} {page.id}: fields not read at all: {gone} [{vkind}]")
                truth = {f: v for f, v in truth.items() if f in read.readings}
            wrong = _count(s, read, truth, f"photo {n} {base} {page.id}", args.verbose, kinds)
            for field in wrong:
                wrongs.append((n, base, page.id, field, truth[field], read.values[field], kinds[field], vkind))
                if not args.verbose:
                    got = read.values[field]
                    print(f"photo {n} {page.id}: WRONG {field} truth {truth[field]!r} got {got!r} [{kinds[field]}]")
            if wrong:
                print(f"   (that photo: {kinds['_photo']})")
                _save(keep, f"photo-{n}-{page.id}", img)
        if n % 5 == 0:
            cli_notes += _cli(n, path, shots, base)
        sys.stdout.flush()
    _table(stats, args.seed)
    print(f"\nvariants: {len(gen.KIND)} made, {len(gen.FAILURES)} drafts failed validation", end="")
    print(f", {len(no_variant)} photos without one")
    for f in gen.FAILURES:
        print(f"- validation ({f[0]}, {f[1]}, {f[3]} problems): {f[2]}")
    for n, base in no_variant:
        print(f"- photo {n}: no valid variant of {base} in {gen.TRIES} drafts")
    print(f"\nrefused: {len(refusals)}")
    for n, base, page, vkind, msg, what in refusals:
        print(f"- photo {n} {base} {page} [{vkind}]: {msg} ({what})")
    print(f"\nwrong reads: {len(wrongs)}")
    for n, base, page, field, want, got, kind, _ in wrongs:
        print(f"- photo {n} {base} {page} {field}: truth {want!r} got {got!r} [{kind}]")
    if missing:
        print("\nfields the reader gave no reading for:")
        for n, base, page, vkind, gone in missing:
            print(f"- photo {n} {base} {page} [{vkind}]: {gone}")
    print(f"\nCLI runs: {len(cli_notes)} notes")
    for note in cli_notes:
        print(f"- {note}")
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)


def _cli(n: int, variant: Path, shots: list, base: str) -> list:
    """`sheetgen scan --layout variant` then `sheetgen score` on photo n's pages: notes on
    non-zero exits and tracebacks."""
    import cv2
    from click.testing import CliRunner

    from sheetgen.cli import cli

    notes = []
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for page, img in shots:
            name = str(Path(tmp) / ("alice.png" if len(shots) == 1 else f"alice-{page}.png"))
            cv2.imwrite(name, cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
            names.append(name)
        game = str(Path(tmp) / "game.yaml")
        for argv in (["scan", *names, "--layout", str(variant), "-o", game], ["score", game]):
            res = runner.invoke(cli, argv, catch_exceptions=True)
            crashed = res.exception is not None and not isinstance(res.exception, SystemExit)
            if res.exit_code != 0 or crashed:
                tb = "".join(traceback.format_exception(res.exception)) if crashed else ""
                out = (res.output or "").strip().replace("\n", " | ")
                notes.append(f"photo {n} {base} `sheetgen {argv[0]}` exit {res.exit_code}: {out[:600]} {tb[-1500:]}")
                print(f"photo {n}: CLI {argv[0]} exit {res.exit_code}: {out[:600]}\n{tb}")
                break
            if argv[0] == "score":
                print(f"photo {n}: CLI score ok: {(res.output or '').strip().splitlines()[-1:]}")
    return notes


def _save(folder, name: str, img) -> None:
    if folder:
        import cv2

        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / f"{name}.png"), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))


if __name__ == "__main__":
    main()
