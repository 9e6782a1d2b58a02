"""Keep the games: `score --save`, `history`, `stats`, the database's
versions, and its safety (kill during a save, concurrent saves, newer or corrupt
files). Every test uses its own database under tmp_path."""

from __future__ import annotations

import ast
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.history import store

ROOT = Path(__file__).resolve().parents[1]
BOSK = (ROOT / "tests/fixtures/bosk/bosk-game.yaml").read_text(encoding="utf-8")

# A season of Plante Bataille, no tokens: a total is the sum of the harvested cards.
SEASON = {
    "g1.yaml": """date: 2026-01-10
layout: plante-bataille
players:
  - {name: Alice, harvested: [5, 3]}
  - {name: Bob, harvested: [4]}
  - {name: Carol, harvested: [2, 2]}
""",
    "g2.yaml": """date: 2026-02-14T20:30
layout: plante-bataille
players:
  - {name: alice, harvested: [1]}
  - {name: "BOB ", harvested: "6+1"}
  - {name: Carol, harvested: [3]}
""",
    "g3.yaml": """date: 2026-03-01
layout: plante-bataille
players:
  - {name: Alice, harvested: [3]}
  - {name: Carol, harvested: [2]}
  - {name: Robert, harvested: [10]}
""",
    "g4.yaml": """date: "2026-03-20 21:00"
layout: plante-bataille
players:
  - {name: Alice, harvested: [6]}
  - {name: Carol, harvested: [6]}
  - {name: Dave, harvested: [1]}
""",
    "g5.yaml": "date: 2026-04-02\n" + BOSK,
}


def run(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def db(tmp_path, monkeypatch):
    """The database of the test; SHEETGEN_DB too, so nothing ever reaches the user's data folder."""
    path = tmp_path / "history.sqlite"
    monkeypatch.setenv("SHEETGEN_DB", str(path))
    return path


@pytest.fixture
def season(tmp_path, db):
    paths = [write(tmp_path, name, text) for name, text in SEASON.items()]
    out = run("score", *paths, "--save")
    assert out.exit_code == 0, out.output
    assert out.stderr == f"kept 5 games (ids 1-5) in {db}\n"
    return paths


def rows(db, sql, *args):
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, args).fetchall()


# --- saving ----------------------------------------------------------------------------------


def test_a_saved_game_keeps_everything(tmp_path, db):
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    out = run("score", record, "--save", "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["winners"] == ["Alice"]  # scored as without --save
    assert out.stderr == f"kept as game 1 in {db}\n"
    [game] = rows(db, "SELECT played_at, layout, layout_hash, game, warnings, record_text, source FROM games")
    from sheetgen.games import load_layout

    assert game == (
        "2026-01-10",
        "plante-bataille",
        load_layout("plante-bataille").digest,
        "plante-bataille",
        "[]",
        SEASON["g1.yaml"],
        str(record.resolve()),
    )
    players = rows(db, "SELECT seat, name, name_key, total, rank, winner, breakdown, marks FROM players")
    assert [p[:6] for p in players] == [
        (0, "Alice", "alice", 8, 1, 1),
        (1, "Bob", "bob", 4, 2, 0),
        (2, "Carol", "carol", 4, 2, 0),
    ]
    assert json.loads(players[0][7]) == {"harvested": [5, 3]}
    assert json.loads(players[0][6]) == {"harvested": 8, "majority_veg1": 0, "majority_veg2": 0, "majority_veg3": 0}
    assert rows(db, "PRAGMA journal_mode") == [("wal",)]
    assert rows(db, "PRAGMA user_version") == [(store.SCHEMA_VERSION,)]


def test_the_date_defaults_to_now_and_is_checked(tmp_path, db):
    record = write(tmp_path, "g.yaml", SEASON["g1.yaml"].replace("date: 2026-01-10\n", ""))
    before = store.now_iso()
    assert run("score", record, "--save").exit_code == 0
    [(played,)] = rows(db, "SELECT played_at FROM games")
    assert before <= played <= store.now_iso()
    bad = write(tmp_path, "bad.yaml", SEASON["g1.yaml"].replace("2026-01-10", "2026-13-10"))
    out = run("score", bad, "--save")
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {bad}:1: date: expected an ISO date like 2026-11-30 or 2026-11-30T20:15, got '2026-13-10'\n"
    )
    assert rows(db, "SELECT count(*) FROM games") == [(1,)]


def test_the_same_record_twice_is_refused_unless_again(tmp_path, db):
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    assert run("score", record, "--save").exit_code == 0
    # the same data, written differently (comments, flow style), is the same game
    other = write(
        tmp_path,
        "copy.yaml",
        "# typed again\n"
        + SEASON["g1.yaml"]
        .replace("[5, 3]", "[5,   3]")
        .replace("  - {name: Alice, harvested: [5,   3]}", "  - harvested: [5, 3]\n    name: Alice"),
    )
    out = run("score", other, "--save")
    assert out.exit_code == 1
    assert out.stderr == (
        f"Error: {other.resolve()}: this game is already kept (game 1, played 2026-01-10, from {record.resolve()}); "
        "nothing was saved; use --again to keep it twice\n"
    )
    assert "Alice" in out.stdout  # still scored
    assert rows(db, "SELECT count(*) FROM games") == [(1,)]
    # one command is all or nothing: a new game beside a duplicate is not kept either
    new = write(tmp_path, "g3.yaml", SEASON["g3.yaml"])
    assert run("score", new, record, "--save").exit_code == 1
    assert rows(db, "SELECT count(*) FROM games") == [(1,)]
    out = run("score", record, "--save", "--again")
    assert out.exit_code == 0 and out.stderr == f"kept as game 2 in {db}\n"
    assert run("score", record, "--again").exit_code == 2  # --again goes with --save


def test_the_same_record_twice_in_one_command(tmp_path, db):
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    out = run("score", record, record, "--save")
    assert out.exit_code == 1
    assert out.stderr.endswith(
        f"Error: {record.resolve()}: the same game as {record.resolve()}; nothing was saved; "
        "use --again to keep it twice\n"
    )
    assert not rows(db, "SELECT count(*) FROM games")[0][0]


def test_interactive_record_option_writes_the_record_and_save_keeps_it(tmp_path, db):
    answers = "\n".join(["Ann", "4, 5", "0", "0", "0", "Ben", "3", "0", "0", "0", "Cy", "1", "0", "0", "0", "1"]) + "\n"
    typed = tmp_path / "typed.yaml"
    out = CliRunner().invoke(
        cli, ["score", "plante-bataille", "-i", "--players", "3", "--record", str(typed), "--save"], input=answers
    )
    assert out.exit_code == 0, out.output
    assert rows(db, "SELECT record_text FROM games") == [(typed.read_text(encoding="utf-8"),)]
    assert rows(db, "SELECT name, total FROM players") == [("Ann", 9), ("Ben", 3), ("Cy", 1)]


def test_a_filled_pdf_is_kept_with_its_record_as_yaml(tmp_path, db):
    import io

    from pypdf import PdfReader, PdfWriter

    from sheetgen.games import load_layout
    from sheetgen.render import render_pdf

    writer = PdfWriter(
        clone_from=PdfReader(io.BytesIO(render_pdf(load_layout("harvest-dice-normal"), copies=2, fillable=True)))
    )
    writer.update_page_form_field_values(
        writer.pages[0], {"player_name_box": "Alice", "pig_1": "/Yes"}, auto_regenerate=False
    )
    writer.update_page_form_field_values(writer.pages[1], {"player_name_box__2": "Bob"}, auto_regenerate=False)
    path = tmp_path / "game.pdf"
    writer.write(str(path))
    out = run("score", path, "--save")
    assert out.exit_code == 0, out.output
    [(text,)] = rows(db, "SELECT record_text FROM games")
    assert text.startswith("layout: harvest-dice-normal\nplayers:\n- name: Alice\n")
    assert rows(db, "SELECT name, total FROM players") == [("Alice", 1), ("Bob", 0)]  # pig row 1: 1 point
    assert run("history", "--rescore").stdout.endswith(": unchanged\n")
    assert run("score", path, "--save").exit_code == 1  # the same sheets again


def test_db_option_wins_over_the_environment(tmp_path, db):
    other = tmp_path / "sub" / "other.sqlite"
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    assert run("score", record, "--save", "--db", other).exit_code == 0
    assert other.exists() and not db.exists()
    assert store.db_path(None) == db
    assert "--db" in run("history", "--help").output


def test_default_file_is_in_the_user_data_folder(monkeypatch):
    import platformdirs

    monkeypatch.delenv("SHEETGEN_DB", raising=False)
    assert store.db_path() == Path(platformdirs.user_data_dir("sheetgen", appauthor=False)) / "history.sqlite"


# --- history and filters ------------------------------------------------------------------


def test_history_table_newest_first(season):
    out = run("history", "--lang", "en")
    assert out.exit_code == 0, out.output
    assert (
        out.stdout
        == """\
#  Date              Game             Players               Winners       Scores
--------------------------------------------------------------------------------
5  2026-04-02        bosk             Alice, Bob            Alice         53, 52
4  2026-03-20 21:00  plante-bataille  Alice, Carol, Dave    Alice, Carol  6, 6, 1
3  2026-03-01        plante-bataille  Alice, Carol, Robert  Robert        3, 2, 10
2  2026-02-14 20:30  plante-bataille  Alice, Bob, Carol     Bob           1, 7, 3
1  2026-01-10        plante-bataille  Alice, Bob, Carol     Alice         8, 4, 4
"""
    )  # 'alice' and 'BOB ' of game 2 shown as most often written


def test_history_filters(season):
    def ids(*args):
        out = run("history", "--format", "json", *args)
        assert out.exit_code == 0, out.output
        return sorted({r["id"] for r in json.loads(out.stdout)})

    assert ids("--game", "bosk") == [5]
    assert ids("--game", "plante-bataille") == [1, 2, 3, 4]
    assert ids("--player", "  BOB") == [1, 2, 5]
    assert ids("--player", "bob", "--alias", "Bob=Robert") == [1, 2, 3, 5]
    assert ids("--player", "Robert", "--alias", "bob = Robert") == [1, 2, 3, 5]
    assert ids("--since", "2026-02-14", "--until", "2026-03-20") == [2, 3, 4]
    assert ids("--since", "2026-02-14T21:00", "--until", "2026-03-20T20:00") == [3]
    assert ids("--game", "bosk", "--player", "Carol") == []
    out = run("history", "--limit", "2")
    assert [line.split()[0] for line in out.stdout.splitlines()[2:]] == ["5", "4"]
    assert out.stderr == "2 of 5 games shown (--limit 0 for all)\n"
    bad = run("history", "--since", "last week")
    assert bad.exit_code == 1
    assert bad.output == "Error: --since 'last week': expected an ISO date like 2026-11-30 or 2026-11-30T20:15\n"


def test_history_in_french(season):
    out = run("history", "--lang", "fr", "--game", "bosk")
    assert out.stdout.splitlines()[0].split() == ["N°", "Date", "Jeu", "Joueurs", "Gagnants", "Points"]


def test_history_csv_and_json_one_row_per_player_per_game(season):
    out = run("history", "--format", "csv", "--until", "2026-02-28", "--alias", "bob=Bobby")
    assert out.exit_code == 0, out.output
    assert (
        out.stdout
        == """\
id,date,game,layout,player,total,rank,winner
2,2026-02-14T20:30:00,plante-bataille,plante-bataille,Alice,1,3,
2,2026-02-14T20:30:00,plante-bataille,plante-bataille,Bobby,7,1,yes
2,2026-02-14T20:30:00,plante-bataille,plante-bataille,Carol,3,2,
1,2026-01-10,plante-bataille,plante-bataille,Alice,8,1,yes
1,2026-01-10,plante-bataille,plante-bataille,Bobby,4,2,
1,2026-01-10,plante-bataille,plante-bataille,Carol,4,2,
"""
    )
    data = json.loads(run("history", "--format", "json", "--game", "bosk").stdout)
    assert data == [
        {
            "id": 5,
            "date": "2026-04-02",
            "game": "bosk",
            "layout": "bosk",
            "player": "Alice",
            "total": 53,
            "rank": 1,
            "winner": True,
            "breakdown": data[0]["breakdown"],
        },
        {
            "id": 5,
            "date": "2026-04-02",
            "game": "bosk",
            "layout": "bosk",
            "player": "Bob",
            "total": 52,
            "rank": 2,
            "winner": False,
            "breakdown": data[1]["breakdown"],
        },
    ]
    assert sum(data[0]["breakdown"].values()) == 53


def test_remove(season, db):
    out = run("history", "--remove", 3)
    assert out.exit_code == 0
    assert out.stdout == "removed game 3 (2026-03-01, plante-bataille: Alice, Carol, Robert)\n"
    assert rows(db, "SELECT count(*) FROM players WHERE game_id = 3") == [(0,)]  # cascaded
    again = run("history", "--remove", 3)
    assert again.exit_code == 1
    assert again.output == f"Error: {db}: no game 3 in the history\n"


def test_no_games_yet_creates_nothing(db):
    out = run("history")
    assert out.exit_code == 0 and out.stdout == "No games kept yet.\n"
    assert run("stats", "--lang", "fr").stdout == "Aucune partie gardée pour l'instant.\n"
    assert not db.exists()


# --- standings, worked by hand ---------------------------------------------------------------
# Plante Bataille: Alice 8, 1, 3, 6 (won g1, g4 shared): 4 plays, 2 wins, 18/4 = 4.5, best 8.
# Bob 4, 7 (won g2): 2 plays, 1 win, 5.5, best 7. Carol 4, 3, 2, 6 (won g4): 4 plays, 1 win,
# 15/4 = 3.75, best 6. Robert 10 (won g3): 1 play, 1 win. Dave 1: 1 play, no win.
# With Bob=Robert: 3 plays (4, 7, 10), 2 wins, 21/3 = 7.0, best 10.


def test_stats_by_hand(season):
    out = run("stats", "--lang", "en")
    assert out.exit_code == 0, out.output
    assert (
        out.stdout
        == """\
Game             Player  Plays  Wins  Win rate  Average  Best
-------------------------------------------------------------
bosk             Alice       1     1      100%     53.0    53
bosk             Bob         1     0        0%     52.0    52
plante-bataille  Alice       4     2       50%      4.5     8
plante-bataille  Robert      1     1      100%     10.0    10
plante-bataille  Bob         2     1       50%      5.5     7
plante-bataille  Carol       4     1       25%      3.8     6
plante-bataille  Dave        1     0        0%      1.0     1
"""
    )


def test_stats_with_an_alias_in_french_and_as_csv(season):
    out = run("stats", "--alias", "Bob=Robert", "--game", "plante-bataille", "--lang", "fr")
    assert (
        out.stdout
        == """\
Jeu              Joueur  Parties  Victoires  Victoires (%)  Moyenne  Meilleur
-----------------------------------------------------------------------------
plante-bataille  Robert        3          2           67 %      7,0        10
plante-bataille  Alice         4          2           50 %      4,5         8
plante-bataille  Carol         4          1           25 %      3,8         6
plante-bataille  Dave          1          0            0 %      1,0         1
"""
    )
    out = run("stats", "--alias", "Bob=Robert", "--format", "csv", "--player", "robert")
    assert (
        out.stdout
        == """\
game,player,plays,wins,win_rate,average,best
bosk,Robert,1,0,0.0,52.0,52
plante-bataille,Robert,3,2,0.6667,7.0,10
"""
    )
    data = json.loads(run("stats", "--format", "json", "--since", "2026-03-01", "--player", "carol").stdout)
    assert data == [
        {
            "game": "plante-bataille",
            "player": "Carol",
            "plays": 2,
            "wins": 1,
            "win_rate": 0.5,
            "average": 4.0,
            "best": 6,
        }
    ]
    bad = run("stats", "--alias", "Bob")
    assert bad.exit_code == 1 and bad.output == "Error: --alias 'Bob': expected OLD=NEW, e.g. \"Bob=Robert\"\n"


# --- re-scoring -----------------------------------------------------------------------------

VARIANT = """id: pb-house
extends: plante-bataille
title: {fr: "Plante Bataille maison", en: "House Plante Bataille"}
constants:
  majority_bonus: BONUS
"""
VARIANT_GAME = """date: 2026-05-01
layout: house.yaml
players:
  - {name: Alice, harvested: [4], tokens: {cabbage: 3}}
  - {name: Bob, harvested: [6]}
  - {name: Carol, harvested: [1]}
"""


def test_rescore_reports_a_changed_constant_and_changes_nothing_unless_applied(tmp_path, db):
    layout = write(tmp_path, "house.yaml", VARIANT.replace("BONUS", "5"))
    record = write(tmp_path, "game.yaml", VARIANT_GAME)
    plain = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    assert run("score", plain, record, "--save").exit_code == 0
    assert run("history", "--rescore").stdout == (
        "game 1 (2026-01-10, plante-bataille): unchanged\ngame 2 (2026-05-01, pb-house): unchanged\n"
    )
    layout.write_text(VARIANT.replace("BONUS", "1"), encoding="utf-8")
    before = rows(db, "SELECT * FROM players")
    out = run("history", "--rescore", "--id", 2)
    assert out.exit_code == 0, out.output
    assert (
        out.stdout
        == """\
game 2 (2026-05-01, pb-house):
  the layout changed since the game was kept
  Alice: total 9 -> 5, rank 1 -> 2 (majority_veg1 5 -> 1)
  Bob: total 6 -> 6, rank 2 -> 1
  winners: Alice -> Bob
"""
    )
    assert rows(db, "SELECT * FROM players") == before
    assert run("history", "--rescore", "--id", 2, "--lang", "fr").stdout.splitlines()[:2] == [
        "partie 2 (2026-05-01, pb-house) :",
        "  la feuille a changé depuis que la partie a été gardée",
    ]
    out = run("history", "--rescore", "--apply")
    assert out.exit_code == 0 and out.stderr == "updated 1 game\n"
    assert rows(db, "SELECT name, total, rank, winner FROM players WHERE game_id = 2") == [
        ("Alice", 5, 2, 0),
        ("Bob", 6, 1, 1),
        ("Carol", 1, 3, 0),
    ]
    assert "game 2 (2026-05-01, pb-house): unchanged" in run("history", "--rescore").stdout
    layout.unlink()
    out = run("history", "--rescore")
    assert out.exit_code == 1
    assert (
        out.stdout.splitlines()[1]
        == f"game 2 (2026-05-01, pb-house): cannot be re-scored: {record.resolve()}:2: layout: house.yaml: no such file"
    )
    assert run("history", "--id", 2).exit_code == 2


# --- the database's versions and safety -------------------------------------------------------


def test_migration_from_a_version_1_file(tmp_path, db):
    """A file as the first release wrote it (schema 1: no name_key) opens, migrates to
    the current version and keeps its games; the new name keys fold non-ASCII case."""
    with sqlite3.connect(db) as conn:
        store.MIGRATIONS[0](conn)
        conn.execute(
            "INSERT INTO games VALUES (7, '2025-12-24', '2025-12-25T10:00:00', 'plante-bataille', 'x', "
            "'plante-bataille', '[]', 'h', 'layout: plante-bataille', '<old>')"
        )
        conn.executemany(
            "INSERT INTO players VALUES (7, ?, ?, ?, ?, ?, '{}', '{}')",
            [(0, " ÉLODIE ", 12, 1, 1), (1, "Bob", 3, 2, 0)],
        )
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    out = run("history", "--player", "élodie", "--format", "csv")
    assert out.exit_code == 0, out.output
    assert out.stdout == (
        "id,date,game,layout,player,total,rank,winner\n"
        "7,2025-12-24,plante-bataille,plante-bataille,ÉLODIE,12,1,yes\n"
        "7,2025-12-24,plante-bataille,plante-bataille,Bob,3,2,\n"
    )
    assert rows(db, "PRAGMA user_version") == [(store.SCHEMA_VERSION,)]
    assert rows(db, "SELECT name_key FROM players ORDER BY seat") == [("élodie",), ("bob",)]
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    assert run("score", record, "--save").stderr == f"kept as game 8 in {db}\n"


def test_a_newer_file_is_refused_and_left_as_it_is(tmp_path, db):
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    assert run("score", record, "--save").exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 9")
    conn.close()
    before = db.read_bytes()
    for args in (["history"], ["stats"], ["score", record, "--save", "--again"], ["history", "--remove", "1"]):
        out = run(*args)
        assert out.exit_code == 1
        assert out.stderr == (
            f"Error: {db}: this history was written by a newer sheetgen (schema version 9; "
            f"this one knows versions up to {store.SCHEMA_VERSION}); upgrade sheetgen to use it. "
            "The file was left as it is\n"
        )
    assert db.read_bytes() == before


def test_a_corrupt_file_gives_one_error_line(db):
    db.write_bytes(random.Random(16).randbytes(8192))
    before = db.read_bytes()
    out = run("history")
    assert out.exit_code == 1
    assert out.output == f"Error: {db}: not a sheetgen history, or a damaged one (file is not a database)\n"
    assert run("stats").output == out.output
    assert db.read_bytes() == before


def test_an_sqlite_file_of_something_else_is_refused(db):
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.close()
    out = run("history")
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {db}: an SQLite file that is not a sheetgen history (it has tables of its own); "
        "the file was left as it is\n"
    )


def test_the_history_module_never_imports_click():
    for path in (ROOT / "sheetgen/history").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert "click" not in names, path


def consistent(db) -> int:
    """The file is sound and every kept game has all its players; how many games."""
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db, "PRAGMA foreign_key_check") == []
    games = rows(db, "SELECT id, record_text, (SELECT count(*) FROM players WHERE game_id = games.id) FROM games")
    for gid, text, n in games:
        assert n == text.count("name:"), gid
    return len(games)


def python(code: str, env=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def sheetgen(*args, env=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "sheetgen", *map(str, args)],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_killed_inside_the_save_transaction_keeps_nothing(tmp_path, db):
    first = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    assert run("score", first, "--save").exit_code == 0
    record = write(tmp_path, "g3.yaml", SEASON["g3.yaml"])
    marker = tmp_path / "inside"
    proc = sheetgen("score", record, "--save", env={store.PAUSE_ENV: str(marker)})
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)  # its game row is written, its players are not
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert consistent(db) == 1
    out = run("score", record, "--save")  # not half there: saving it again is no duplicate
    assert out.exit_code == 0 and out.stderr == f"kept as game 2 in {db}\n"
    assert consistent(db) == 2


SAVE_LOOP = """
import sys
from sheetgen.history import store
from sheetgen.scoring.record import score_file
path, db, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(path, encoding="utf-8").read()
scored = score_file(path)
for i in range(n):
    store.save_games([store.to_keep(scored, text, path)], db, again=True)
    if i == 0:
        print("first", flush=True)
print("done")
"""


def save_loop(record, db, n):
    """A process saving the game `n` times (--again), saying "first" after its first save."""
    return subprocess.Popen(
        [sys.executable, "-c", SAVE_LOOP, str(record), str(db), str(n)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_turning_a_new_history_to_wal_waits_for_another_process(db):
    """Two sheetgens creating the history together: switching the file to WAL needs it to
    itself for a moment, and SQLite answered "database is locked" at once, without waiting,
    while the other held a write lock on it (test_concurrent_saves_from_two_processes_all_land
    failed about one run in twelve). The switch is tried again until the other lets go."""
    import threading

    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # a write lock on the new file (still in rollback mode)
    threading.Timer(0.3, lambda: other.execute("ROLLBACK")).start()
    start = time.monotonic()
    with store.opened(db, create=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert time.monotonic() - start >= 0.25
    other.close()


def test_sigkill_at_random_points_of_a_loop_of_saves(tmp_path, db):
    record = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    rng = random.Random(1616)
    kept = 0
    for _ in range(3):
        proc = save_loop(record, db, 100000)
        assert proc.stdout.readline() == "first\n"
        time.sleep(rng.random() * 0.5)
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        now = consistent(db)
        assert now >= kept
        kept = now
    assert kept > 0


def test_concurrent_saves_from_two_processes_all_land(tmp_path, db):
    a = write(tmp_path, "g1.yaml", SEASON["g1.yaml"])
    b = write(tmp_path, "g3.yaml", SEASON["g3.yaml"])
    procs = [save_loop(a, db, 25), save_loop(b, db, 25)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out == "first\ndone\n"
    assert consistent(db) == 50
    assert rows(db, "SELECT layout, count(*) FROM games GROUP BY record_hash ORDER BY 2") == [
        ("plante-bataille", 25),
        ("plante-bataille", 25),
    ]
    # and two CLI saves of different games at once
    c = write(tmp_path, "g4.yaml", SEASON["g4.yaml"])
    d = write(tmp_path, "g5.yaml", SEASON["g5.yaml"])
    procs = [sheetgen("score", c, "--save"), sheetgen("score", d, "--save")]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    assert consistent(db) == 52


@pytest.mark.parametrize("layout_id", ["harvest-dice-normal", "imperial-settlers-advanced", "bosk", "plante-bataille"])
def test_a_blank_record_is_scored_but_not_kept(tmp_path, db, layout_id):
    template = run("template", layout_id)
    assert template.exit_code == 0
    path = write(tmp_path, "game.yaml", template.output)
    result = run("score", path, "--save")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        f"Error: {path}: nothing is marked on any player's sheet (a blank record); "
        "nothing was saved: fill in the marks first"
    )
    assert store.find_games(path=db)[1] == 0


def test_one_blank_record_among_several_saves_none(tmp_path, db):
    played = write(tmp_path, "played.yaml", SEASON["g1.yaml"])
    blank = write(tmp_path, "blank.yaml", run("template", "plante-bataille", "--players", "3").output)
    result = run("score", played, blank, "--save")
    assert result.exit_code == 1
    assert "blank.yaml: nothing is marked" in result.stderr
    assert store.find_games(path=db)[1] == 0
