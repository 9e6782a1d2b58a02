"""A season kept at once: games a second saved by `sheetgen score FILE --save`, and how long
`history` and `stats` take over the games kept, each as a user runs them (whole processes).

    python -m bench.season                  # 5,000 games saved, then history and stats at 10,000
    python -m bench.season --games 1000     # a quicker look

The baseline is the same games saved one file a command, the way a season was kept before
a file could hold many (measured on a tenth of them, the rate scaled). Two-player Harvest
Dice games, every one different. Appends one line to bench/results.jsonl (--results '' for
none).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import results


def games(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        players = [
            {
                "name": name,
                "garden": [(v * rng.randint(0, 5) + "......")[:6] for v in "CST"],
                "pig": rng.randint(0, 41),
                "market": {"carrot": 2, "salad": 3, "tomato": 1},
            }
            for name in ("Alice", "Bob")
        ]
        out.append(
            {"date": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}", "layout": "harvest-dice-normal", "players": players}
        )
    return out


def timed(args: list[str], cwd: Path) -> float:
    """Seconds of one whole `sheetgen` process (its output thrown away); it must succeed."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sheetgen", *args], cwd=cwd, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"sheetgen {' '.join(args)}: exit {done.returncode}: {done.stderr.decode()[-500:]}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--results", default=str(results.RESULTS), help="where to append the line ('' for nowhere)")
    args = ap.parse_args()
    season = games(2 * args.games, args.seed)
    with tempfile.TemporaryDirectory(prefix="sheetgen-season-") as tmp:
        folder = Path(tmp)
        db = folder / "history.sqlite"
        half = len(season) // 2
        for name, part in (("first.jsonl", season[:half]), ("second.jsonl", season[half:])):
            (folder / name).write_text("".join(json.dumps(g) + "\n" for g in part), encoding="utf-8")
        save = timed(["score", "first.jsonl", "--save", "--db", str(db), "--quiet", "--format", "csv"], folder)
        timed(["score", "second.jsonl", "--save", "--db", str(db), "--quiet", "--format", "csv"], folder)
        history = min(timed(["history", "--db", str(db)], folder) for _ in range(3))
        history_all = min(timed(["history", "--db", str(db), "--format", "csv"], folder) for _ in range(3))
        stats = min(timed(["stats", "--db", str(db)], folder) for _ in range(3))
        few = max(1, args.games // 10)  # the baseline: a file a command
        one_db = folder / "one.sqlite"
        start = time.perf_counter()
        for n, game in enumerate(season[:few]):
            path = folder / f"g{n}.json"
            path.write_text(json.dumps(game), encoding="utf-8")
            subprocess.run(
                [sys.executable, "-m", "sheetgen", "score", str(path), "--save", "--db", str(one_db), "-q"],
                cwd=folder,
                capture_output=True,
                check=True,
            )
        one_by_one = few / (time.perf_counter() - start)
    row = {
        "bench": "season",
        "scenario": f"{args.games} games",
        **results.where(),
        "games": args.games,
        "kept": 2 * args.games,
        "save_s": round(save, 3),
        "games_per_s": round(args.games / save, 1),
        "baseline_games_per_s": round(one_by_one, 1),
        "history_s": round(history, 3),
        "history_all_csv_s": round(history_all, 3),
        "stats_s": round(stats, 3),
    }
    width = max(map(len, row))
    for key in (
        "games",
        "save_s",
        "games_per_s",
        "baseline_games_per_s",
        "kept",
        "history_s",
        "history_all_csv_s",
        "stats_s",
    ):
        print(f"{key:<{width}}  {row[key]}")
    results.append(row, Path(args.results) if args.results else None)


if __name__ == "__main__":
    main()
