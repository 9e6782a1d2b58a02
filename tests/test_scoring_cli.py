"""`sheetgen score` and `sheetgen template` from the command line, and the
guarantee that no record, however malformed, produces a traceback."""

from __future__ import annotations

import json

import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.cli import cli
from sheetgen.numbers import parse_number

GAME = """\
layout: harvest-dice-advanced
players:
  - name: Alice
    garden: ["CCTT..", "SSTT..", "SS...."]
    pig: 14
    market: {carrot: 3, salad: 2, tomato: 4}
  - name: Bob
    garden: ["CCCCCC", "TTTTTT", "SS...."]
    pig: "40+2"
    market: {carrot: 3, salad: 2, tomato: 4}
"""


def run(*args, input=None, env=None):
    return CliRunner().invoke(cli, list(args), input=input, env=env)


def write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_json_follows_the_contract(tmp_path):
    out = run("score", write(tmp_path, GAME), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert list(data) == ["layout", "game", "players", "winners", "warnings"]
    assert data["layout"] == "harvest-dice-advanced"
    assert data["game"] == "harvest-dice"
    # Alice 6+8+16+0+6 + salad majority 5 = 41; Bob 18+4+24+10+28 + carrot, tomato, pig majorities = 99
    assert [(p["name"], p["total"], p["rank"]) for p in data["players"]] == [("Alice", 41, 2), ("Bob", 99, 1)]
    assert sum(data["players"][1]["breakdown"].values()) == 99
    assert data["winners"] == ["Bob"]
    assert data["warnings"] == []


def test_record_may_be_json(tmp_path):
    path = write(tmp_path, json.dumps(yaml.safe_load(GAME)), "game.json")
    out = run("score", path, "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["winners"] == ["Bob"]


def test_table_reads_like_a_score_pad(tmp_path):
    out = run("score", write(tmp_path, GAME), "--lang", "en")
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert lines[0].endswith("Alice  Bob")
    assert lines[2].split() == ["Carrots", "6", "18"]
    assert "Total" in out.output and lines[-1] == "Winner: Bob"
    fr = run("score", write(tmp_path, GAME), "--lang", "fr")
    assert "Gagnant : Bob" in fr.output and "Cochon" in fr.output


def test_csv(tmp_path):
    out = run("score", write(tmp_path, GAME), "--format", "csv")
    assert out.exit_code == 0
    rows = out.output.splitlines()
    assert rows[0] == (
        "record,layout,player,carrot,salad,tomato,rows,pig,majority_carrot,majority_salad,"
        "majority_tomato,majority_pig,total,rank,winner"
    )
    assert rows[2].endswith(",Bob,18,4,24,10,28,5,0,5,5,99,1,yes")


def test_several_records_errors_collected(tmp_path):
    good = write(tmp_path, GAME)
    bad = write(tmp_path, GAME.replace("pig: 14", "pig: 99"), "bad.yaml")
    out = run("score", good, bad, "--format", "json")
    assert out.exit_code == 1
    assert out.output == f"Error: {bad}:5: players[0] 'Alice': pig: expected 0-42, got 99\n"
    both = run("score", good, good, "--format", "json")
    assert both.exit_code == 0 and len(json.loads(both.stdout)) == 2


def test_template_is_a_valid_blank_record(tmp_path):
    out = run("template", "harvest-dice-advanced", "--players", "3")
    assert out.exit_code == 0
    assert out.output.startswith("# Harvest Dice — player sheet (advanced)")
    assert "# pig boxes checked (filled row by row) (0-42)" in out.output
    data = yaml.safe_load(out.stdout)
    assert [p["name"] for p in data["players"]] == ["Player 1", "Player 2", "Player 3"]
    scored = run("score", write(tmp_path, out.output), "--format", "json")
    assert scored.exit_code == 0
    assert [p["total"] for p in json.loads(scored.stdout)["players"]] == [0, 0, 0]
    normal = yaml.safe_load(run("template", "harvest-dice-normal").output)
    assert normal["players"][0]["market"] == {"carrot": 1, "salad": 1, "tomato": 1}


def test_template_bad_players_is_a_usage_error():
    out = run("template", "harvest-dice-normal", "--players", "0")
    assert out.exit_code == 2
    assert "Invalid value for '--players': expected 1-8, got 0" in out.output


def test_interactive_asks_re_asks_and_saves(tmp_path):
    answers = (
        "\n".join(
            [
                "Alice",  # player 1 name
                "CCTT.., SSXT.., SS....",  # bad letter: re-asked
                "CCTT.., SSTT.., SS....",
                "43",
                "14",  # pig: 43 is out of range, re-asked
                "3",
                "2",
                "4",  # market
                "Bob",
                "CCCCCC, TTTTTT, SS....",
                "40+2",
                "3",
                "2",
                "4",
            ]
        )
        + "\n"
    )
    save = tmp_path / "saved.yaml"
    out = run(
        "score",
        "harvest-dice-advanced",
        "--interactive",
        "--players",
        "2",
        "--record",
        str(save),
        "--format",
        "json",
        input=answers,
    )
    assert out.exit_code == 0, out.output
    assert "'X' in column 3 is no vegetable" in out.output
    assert "expected 0-42, got 43" in out.output
    assert "pig — pig boxes checked (filled row by row) [0-42]" in out.output
    data = json.loads(out.output[out.output.index("{") : out.output.rindex("}") + 1])
    assert [p["total"] for p in data["players"]] == [41, 99]
    rescored = run("score", str(save), "--format", "json")
    assert json.loads(rescored.stdout)["players"] == data["players"]


def test_interactive_needs_one_layout():
    out = run("score", "a", "b", "--interactive")
    assert out.exit_code == 2
    assert "Error: --interactive takes exactly one LAYOUT" in out.output
    assert run("score", "x.yaml", "--record", "y.yaml").exit_code == 2


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_numbers_are_parsed_never_evaluated(text):
    n = parse_number(text)
    assert n is None or isinstance(n, int)


def test_table_shows_the_tie_breakers_when_totals_tie():
    out = run("score", "tests/fixtures/imperial-settlers/game.yaml", "--lang", "en")
    lines = out.output.splitlines()
    assert lines[-5].split() == ["Total", "30", "30"]
    assert lines[-4].split() == ["Bridges", "built", "2", "1"]
    assert lines[-3].split() == ["Field", "boxes", "harvested", "5", "2"]
    assert lines[-1] == "Winner: Alice"
    bosk = run("score", "tests/fixtures/bosk/bosk-tie.yaml", "--lang", "fr").output.splitlines()
    assert bosk[-3].split() == ["Ordre", "au", "8e", "tour", "2", "1"]
    untied = run("score", "tests/fixtures/bosk/bosk-game.yaml").output
    assert "Order in round 8" not in untied
