"""A season in one file: many games scored and kept at once, within limits of their own
(each game as a file of one, the file as a whole), said in a few lines."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli

NO_END = "no end condition was met: no full garden (3 x 6), no full pig (42 boxes), no complete market"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def games(n: int, seed: int = 1) -> list[dict]:
    """`n` two-player Harvest Dice games, every one different, none reaching an end."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        players = [
            {
                "name": name,
                "garden": ["C" * rng.randint(0, 5), "S" * rng.randint(0, 5), "T" * rng.randint(0, 5)],
                "pig": rng.randint(0, 41),
                "market": {"carrot": 2, "salad": 3, "tomato": 1},
            }
            for name in ("Alice", "Bob")
        ]
        for p in players:
            p["garden"] = [(row + "......")[:6] for row in p["garden"]]
        out.append(
            {
                "date": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}",
                "layout": "harvest-dice-normal",
                "n": i,
                "players": players,
            }
        )
    return out


def jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_season_is_kept_in_a_few_lines(tmp_path):
    season = jsonl(tmp_path / "season.jsonl", [{k: v for k, v in g.items() if k != "n"} for g in games(300)])
    db = tmp_path / "h.sqlite"
    done = run("score", season, "--format", "jsonl", "--save", "--db", db)
    assert done.exit_code == 0, done.output
    assert len(done.stdout.splitlines()) == 300
    assert done.stderr.splitlines() == [
        f"warning: {NO_END}: 300 games ({season} lines 1-300)",
        f"kept 300 games (ids 1-300) in {db}",
    ]
    quiet = run("score", season, "--format", "jsonl", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == "" and len(quiet.stdout.splitlines()) == 300


def test_a_few_games_warned_of_are_each_named_by_their_line(tmp_path):
    records = [{k: v for k, v in g.items() if k != "n"} for g in games(5)]
    for r in records[1:4]:  # three games end: a pig full
        r["players"][0]["pig"] = 42
    season = jsonl(tmp_path / "season.jsonl", records)
    done = run("score", season, "--format", "jsonl")
    assert done.stderr.splitlines() == [f"warning: {season}:1: {NO_END}", f"warning: {season}:5: {NO_END}"]


def test_a_duplicate_names_both_games(tmp_path):
    records = [{k: v for k, v in g.items() if k != "n"} for g in games(12)]
    part0 = jsonl(tmp_path / "part0.jsonl", records[:10])
    part1 = jsonl(tmp_path / "part1.jsonl", [records[11], records[3]])
    db = tmp_path / "h.sqlite"
    across = run("score", part0, part1, "--save", "--db", db, "--quiet", "--format", "csv")
    assert across.exit_code == 1
    assert across.stderr == (
        f"Error: {part1.resolve()}:2: the same game as {part0.resolve()}:4; nothing was saved; "
        "use --again to keep it twice\n"
    )
    within = jsonl(tmp_path / "within.jsonl", [records[0], records[1], records[0]])
    assert run("score", within, "--save", "--db", db, "-q").stderr == (
        f"Error: {within.resolve()}:3: the same game as {within.resolve()}:1; nothing was saved; "
        "use --again to keep it twice\n"
    )
    with sqlite3.connect(db) as conn:  # all or nothing: no game of either batch was kept
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
    assert run("score", part0, "--save", "--db", db, "-q", "--format", "csv").exit_code == 0
    kept = run("score", part1, "--save", "--db", db, "-q", "--format", "csv")
    assert kept.exit_code == 1
    assert kept.stderr.startswith(
        f"Error: {part1.resolve()}:2: this game is already kept (game 4, played 2026-04-04, from {part0.resolve()}:4); "
    )


def test_the_limits_of_a_file_of_games_and_of_each_game(tmp_path):
    big_game = {"layout": "plante-bataille", "players": [{"name": "A" * 1_100_000, "harvested": [1]}]}
    one = tmp_path / "one.json"
    one.write_text(json.dumps(big_game), encoding="utf-8")
    assert run("score", one).stderr == (f"Error: {one}: a game larger than the limit of 1 MB for one game record\n")
    many = jsonl(tmp_path / "many.jsonl", [{"layout": "bosk"}] * 3 + [big_game])
    assert run("score", many).stderr == (f"Error: {many}:4: a game larger than the limit of 1 MB for one game record\n")
    wide = jsonl(tmp_path / "wide.jsonl", [{"layout": "bosk"}, {"layout": "bosk", "x": list(range(20_001))}])
    assert run("score", wide).stderr == (
        f"Error: {wide}:2: more than 20,000 values, YAML aliases expanded (the limit)\n"
    )
    crowd = tmp_path / "crowd.jsonl"
    crowd.write_text("{}\n" * 100_001, encoding="utf-8")
    assert run("score", crowd).stderr == f"Error: {crowd}: more than 100,000 games in one file (the limit)\n"
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as fh:
        fh.truncate(50 * 1024 * 1024 + 1)
    assert run("score", huge).stderr == f"Error: {huge}: larger than the limit of 50 MB for a file of game records\n"


@pytest.mark.slow
def test_five_thousand_games_are_kept_in_one_transaction(tmp_path):
    season = jsonl(tmp_path / "season.jsonl", [{k: v for k, v in g.items() if k != "n"} for g in games(5000)])
    assert season.stat().st_size > 1024 * 1024  # more than one game record may hold
    db = tmp_path / "h.sqlite"
    done = run("score", season, "--format", "jsonl", "--save", "--db", db)
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines() == [
        f"warning: {NO_END}: 5,000 games ({season} lines 1-5000)",
        f"kept 5,000 games (ids 1-5000) in {db}",
    ]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT saved_at) FROM games").fetchone() == (5000, 1)
        assert conn.execute("SELECT count(*) FROM players").fetchone() == (10_000,)
    again = run("score", season, "--format", "jsonl", "--save", "--db", db)
    assert again.exit_code == 1
    assert again.stderr.splitlines()[-1].startswith("... and ")  # the 5,000 duplicates, capped
    history = run("history", "--db", db, "--limit", "0", "--format", "json")
    assert len(json.loads(history.stdout)) == 10_000  # one row per player per game
