"""Harvest Dice rules: worked examples, edges, majorities, errors and warnings."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner
from conftest import record_text, score_text

from sheetgen.cli import cli
from sheetgen.errors import RecordError

FULL_GARDEN = ["CCCCCC", "SSSSSS", "TTTTTT"]


def record(layout="harvest-dice-normal", **players) -> str:
    return record_text(layout, players)


def player(garden=("......", "......", "......"), pig=0, market=(1, 1, 1)):
    return {"garden": list(garden), "pig": pig, "market": dict(zip(("carrot", "salad", "tomato"), market))}


def score(text: str, name="game.yaml"):
    return score_text(text, name)


def result(text: str) -> dict:
    return score(text).contract()


# ----------------------------------------------------------------------------- worked examples


def test_seed_example_six_carrots_times_three_market_boxes_is_18():
    # The seed: "6 carottes x 3 cases Marché orange = 18 points". One full row of carrots
    # is also a complete row: 5 points.
    r = result(
        record(Alice=player(garden=["CCCCCC", "......", "......"], market=(3, 1, 1)), Bob=player(market=(3, 1, 1)))
    )
    alice = r["players"][0]
    assert alice["breakdown"] == {"carrot": 18, "salad": 0, "tomato": 0, "rows": 5, "pig": 0}
    assert alice["total"] == 23


def test_full_example_normal_mode():
    # Alice: carrots 2 x market 3 = 6; salads 4 x 2 = 8; tomatoes 4 x 4 = 16; no full row;
    # pig 14 boxes -> rows 1-2 full, row 3 holds 2 boxes -> row 3 value 6. Total 36.
    # Bob: carrots 6 x 3 = 18; tomatoes 6 x 4 = 24; salads 2 x 2 = 4; two full rows = 10;
    # pig 42 -> last row, 28. Total 84.
    alice = player(garden=["CCTT..", "SSTT..", "SS...."], pig=14, market=(3, 2, 4))
    bob = player(garden=["CCCCCC", "TTTTTT", "SS...."], pig=42, market=(3, 2, 4))
    r = result(record(Alice=alice, Bob=bob))
    assert [p["total"] for p in r["players"]] == [36, 84]
    assert r["players"][0]["breakdown"] == {"carrot": 6, "salad": 8, "tomato": 16, "rows": 0, "pig": 6}
    assert r["players"][1]["breakdown"] == {"carrot": 18, "salad": 4, "tomato": 24, "rows": 10, "pig": 28}
    assert [p["rank"] for p in r["players"]] == [2, 1]
    assert r["winners"] == ["Bob"]
    assert r["layout"] == "harvest-dice-normal" and r["game"] == "harvest-dice"


@pytest.mark.parametrize(
    "boxes, points", [(0, 0), (1, 1), (6, 1), (7, 3), (12, 3), (13, 6), (36, 21), (37, 28), (42, 28)]
)
def test_pig_points_are_the_last_row_holding_a_box(boxes, points):
    r = result(record(A=player(pig=boxes, market=(6, 1, 1)), B=player(market=(6, 1, 1))))
    assert r["players"][0]["breakdown"]["pig"] == points


def test_numbers_may_be_typed_as_sums():
    r = result(record(A=player(pig="10+4", market=("1+2", 1, "3-1")), B=player(market=(3, 1, 2))))
    assert r["players"][0]["breakdown"]["pig"] == 6
    assert r["warnings"] == [
        "no end condition was met: no full garden (3 x 6), no full pig (42 boxes), no complete market"
    ]


# ----------------------------------------------------------------------------- advanced majorities


def test_advanced_majorities_clear_leaders():
    # Garden counts: A carrots 6, salads 2, tomatoes 0; B carrots 2, salads 2, tomatoes 6.
    # Carrot majority A (+5); salads tied 2-2: both leaders +5 each; tomato majority B.
    # Pig: A 20 boxes, B 8: A +5.
    a = player(garden=["CCCCCC", "SS....", "......"], pig=20, market=(2, 1, 1))
    b = player(garden=["CC....", "SS....", "TTTTTT"], pig=8, market=(2, 1, 1))
    r = result(record("harvest-dice-advanced", A=a, B=b))
    ba, bb = r["players"][0]["breakdown"], r["players"][1]["breakdown"]
    assert (ba["majority_carrot"], ba["majority_salad"], ba["majority_tomato"], ba["majority_pig"]) == (5, 5, 0, 5)
    assert (bb["majority_carrot"], bb["majority_salad"], bb["majority_tomato"], bb["majority_pig"]) == (0, 5, 5, 0)
    # A: carrots 6x2=12, salads 2x1=2, rows 5 (the carrot row), pig 20 boxes -> row 4 = 10, majorities 15: 44
    assert r["players"][0]["total"] == 12 + 2 + 5 + 10 + 15


def test_advanced_majority_zero_never_wins_and_ties_share():
    # Nobody grew a tomato: no tomato bonus. Both fed the pig 6 boxes: both gain 5.
    a = player(garden=["C.....", "......", "......"], pig=6, market=(6, 0, 0))
    b = player(garden=["C.....", "......", "......"], pig=6, market=(6, 0, 0))
    r = result(record("harvest-dice-advanced", A=a, B=b))
    for p in r["players"]:
        assert p["breakdown"]["majority_tomato"] == 0
        assert p["breakdown"]["majority_salad"] == 0
        assert p["breakdown"]["majority_carrot"] == 5
        assert p["breakdown"]["majority_pig"] == 5
        assert p["total"] == 6 + 1 + 10
    assert [p["rank"] for p in r["players"]] == [1, 1]
    assert r["winners"] == ["A", "B"]


def test_advanced_market_starts_empty():
    r = result(record("harvest-dice-advanced", A=player(market=(0, 0, 6)), B=player(market=(0, 0, 6))))
    assert r["players"][0]["total"] == 0


def test_ranks_skip_after_shared_places():
    full = player(garden=FULL_GARDEN, market=(1, 1, 1))  # 6+6+6+15 = 33
    low = player(market=(1, 1, 1))
    r = result(record(A=full, B=low, C=full, D=low))
    assert [p["rank"] for p in r["players"]] == [1, 3, 1, 3]
    assert r["winners"] == ["A", "C"]


# ----------------------------------------------------------------------------- variant layouts


def test_a_variant_layout_scores_with_its_own_pig_values(tmp_path):
    (tmp_path / "big-pig.yaml").write_text(
        textwrap.dedent("""\
        extends: harvest-dice-normal
        title: {fr: "Gros cochon", en: "Big pig"}
        pages:
          - id: sheet
            elements:
              - id: pig
                sections:
                  - {boxes: 6, value: 2, bonus: true}
                  - {boxes: 6, value: 5, bonus: true}
                  - {boxes: 6, value: 9, bonus: true}
                  - {boxes: 6, value: 14, bonus: true}
                  - {boxes: 6, value: 20, bonus: true}
                  - {boxes: 6, value: 27, bonus: true}
                  - {boxes: 6, value: 35, bonus: true}
        """),
        encoding="utf-8",
    )
    game = tmp_path / "game.yaml"
    game.write_text(record("big-pig.yaml", A=player(pig=13), B=player(pig=42)), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(cli, ["score", str(game), "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["layout"] == "big-pig"
    assert [p["breakdown"]["pig"] for p in data["players"]] == [9, 35]


# ----------------------------------------------------------------------------- errors: the sheet cannot hold it

BAD = """\
layout: harvest-dice-normal
players:
  - name: Alice
    garden: ["CCTT..", "SSXT..", "SS...."]
    pig: 43
    market: {carrot: 7, salad: 0, tomato: "1+1"}
  - name: Bob
    garden: ["CCTT..", "SST...", "SS..."]
    pig: -1
    market: {carrot: 2, salad: 2, tomato: "__import__('os')"}
    hat: 3
  - name: Carl
    market: {carrot: 2, salad: 2}
"""


def test_every_impossible_mark_is_reported_at_once():
    with pytest.raises(RecordError) as exc:
        score(BAD)
    assert exc.value.lines == [
        "game.yaml:4: players[0] 'Alice': garden[1]: 'X' in column 3 is no vegetable; "
        "use C (carrot), S (salad), T (tomato) or . (empty)",
        "game.yaml:5: players[0] 'Alice': pig: expected 0-42, got 43",
        "game.yaml:6: players[0] 'Alice': market.carrot: expected 1-6, got 7",
        "game.yaml:6: players[0] 'Alice': market.salad: expected 1-6 (1 box is pre-printed on this sheet), got 0",
        "game.yaml:11: players[1] 'Bob': hat: unknown key; accepted keys: garden, market, name, pig",
        "game.yaml:8: players[1] 'Bob': garden[2]: expected 6 characters, got 5 ('SS...')",
        "game.yaml:9: players[1] 'Bob': pig: expected 0-42, got a negative count -1",
        "game.yaml:10: players[1] 'Bob': market.tomato: expected a whole number or a sum like 10+20-5, "
        "got \"__import__('os')\"",
        "game.yaml:12: players[2] 'Carl': missing key 'garden'",
        "game.yaml:12: players[2] 'Carl': missing key 'pig'",
        "game.yaml:13: players[2] 'Carl': market: missing key 'tomato'",
    ]


def test_cli_prints_errors_exit_1_no_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    out = CliRunner().invoke(cli, ["score", str(path), "--format", "json"])
    assert out.exit_code == 1
    assert out.output.startswith(f"Error: {path}:4: players[0] 'Alice': garden[1]: 'X' in column 3")
    assert "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 11


@pytest.mark.parametrize(
    "text, message",
    [
        ("layout: harvest-dice-normal\n", "game.yaml:1: missing key 'players'"),
        ("players: []\n", "game.yaml:1: missing key 'layout' (a built-in layout id or a path to a layout file)"),
        ("layout: nope\nplayers: []\n", "game.yaml:1: layout: no built-in layout 'nope'; built-in layouts: "),
        ("layout: ./missing.yaml\nplayers: []\n", "game.yaml:1: layout: ./missing.yaml: no such file"),
        ("layout: harvest-dice-normal\nplayers: 3\n", "game.yaml:2: players: expected a list of players, got 3"),
        ("- 1\n", "game.yaml:1: expected a game record mapping with 'layout' and 'players', got a list"),
        (
            "layout: harvest-dice-normal\nwho: me\nplayers: []\n",
            "game.yaml:2: who: unknown key; accepted keys: date, layout, notes, players",
        ),
        (
            "layout: harvest-dice-normal\nplayers:\n  - {name: A, garden: [CCCCCC, SSSSSS, TTTTTT], pig: 0,"
            " market: {carrot: 1, salad: 1, tomato: 1}}\n  - {name: A, garden: [CCCCCC, SSSSSS, TTTTTT], pig: 0,"
            " market: {carrot: 1, salad: 1, tomato: 1}}\n",
            "game.yaml:4: players[1] 'A': name: two players are named 'A'",
        ),
        (
            "layout: harvest-dice-normal\nplayers:\n  - {garden: [CCCCCC, SSSSSS, TTTTTT], pig: 0,"
            " market: {carrot: 1, salad: 1, tomato: 1}}\n",
            "game.yaml:3: players[0]: missing key 'name'",
        ),
        (
            "layout: harvest-dice-normal\nplayers:\n  - {name: A, garden: CCCCCC, pig: 0,"
            " market: {carrot: 1, salad: 1, tomato: 1}}\n",
            "game.yaml:3: players[0] 'A': garden: expected a list, got 'CCCCCC'",
        ),
        (
            "layout: harvest-dice-normal\nplayers:\n  - {name: A, garden: [CCCCCC, SSSSSS, TTTTTT], pig: 1e9,"
            " market: {carrot: 1, salad: 1, tomato: 1}}\n",
            "game.yaml:3: players[0] 'A': pig: expected a whole number or a sum like 10+20-5, got '1e9'",
        ),
        (
            "layout: harvest-dice-normal\nplayers:\n  - {name: A, garden: [CCCCCC, SSSSSS, TTTTTT], pig: '9**99',"
            " market: {carrot: 1, salad: 1, tomato: 1}}\n",
            "game.yaml:3: players[0] 'A': pig: expected a whole number or a sum like 10+20-5, got '9**99'",
        ),
    ],
)
def test_record_errors(text, message):
    with pytest.raises(RecordError) as exc:
        score(text)
    assert exc.value.lines[0].startswith(message), exc.value.lines


# ----------------------------------------------------------------------------- warnings: against the rules


def test_vegetable_apart_from_its_kind_scores_with_a_warning():
    a = player(garden=["C....C", "......", "......"], market=(6, 1, 1))
    r = result(record(A=a, B=player(market=(6, 1, 1))))
    assert r["players"][0]["breakdown"]["carrot"] == 12
    assert r["warnings"] == [
        "players[0] 'A': garden: the carrot at row 1, column 6 is not orthogonally adjacent "
        "to the other carrots (each new vegetable must touch one of its kind)"
    ]


def test_diagonal_is_not_adjacent():
    a = player(garden=["T.....", ".T....", "......"], market=(6, 1, 1))
    r = result(record(A=a, B=player(market=(6, 1, 1))))
    assert r["warnings"][0].startswith("players[0] 'A': garden: the tomato at row 2, column 2 is not")


def test_markets_that_differ_are_warned():
    r = result(record(A=player(market=(6, 1, 1)), B=player(market=(6, 2, 1))))
    assert r["warnings"] == [
        "market: the markets differ although the market die is shared "
        "(A carrot 6, salad 1, tomato 1; B carrot 6, salad 2, tomato 1)"
    ]


def test_no_end_condition_and_player_count_warnings():
    r = result(record(A=player()))
    assert r["warnings"] == [
        "no end condition was met: no full garden (3 x 6), no full pig (42 boxes), no complete market",
        "Harvest Dice is played by 2-4 players, this record has 1",
    ]


@pytest.mark.parametrize("a", [player(garden=FULL_GARDEN), player(pig=42), player(market=(1, 6, 1))])
def test_each_end_condition_silences_the_warning(a):
    b = dict(player(), market=a["market"])
    assert result(record(A=a, B=b))["warnings"] == []


# ----------------------------------------------------------------------------- the majority ticks


def test_majority_ticks_are_checked_against_the_garden_and_the_pig_not_scored():
    """The advanced sheet's majority ticks (a record's `majorities`) change no score: the
    garden and the pig give the majorities; a tick that disagrees is warned of."""
    alice = {**player(("CCC...", "S.....", "......"), pig=3), "majorities": ["carrot", "salad", "pig"]}
    bob = {**player(("CC....", "SS....", "......"), pig=3), "majorities": ["carrot"]}
    r = result(record("harvest-dice-advanced", Alice=alice, Bob=bob))
    plain = result(
        record(
            "harvest-dice-advanced",
            Alice=player(("CCC...", "S.....", "......"), pig=3),
            Bob=player(("CC....", "SS....", "......"), pig=3),
        )
    )
    assert [p["breakdown"] for p in r["players"]] == [p["breakdown"] for p in plain["players"]]
    assert [w for w in r["warnings"] if "majorities" in w] == [
        "players[1] 'Bob': majorities: the carrot majority is ticked, but 2 carrots: the most is 3 (Alice 3)",
        "players[0] 'Alice': majorities: the salad majority is ticked, but 1 salad: the most is 2 (Bob 2)",
        "players[1] 'Bob': majorities: 2 salads, the most, but the salad majority is not ticked",
        "players[1] 'Bob': majorities: 3 pig boxes, the most, but the pig majority is not ticked",
    ]
    assert not any("majorities" in w for w in plain["warnings"])


def test_majority_ticks_belong_to_the_advanced_sheet():
    with pytest.raises(RecordError) as exc:
        score(record("harvest-dice-normal", Alice={**player(), "majorities": ["pig"]}))
    assert "majorities: unknown key" in str(exc.value)
    with pytest.raises(RecordError) as exc:
        score(record("harvest-dice-advanced", Alice={**player(), "majorities": ["corn"]}))
    assert "expected one of carrot, salad, tomato, pig, got 'corn'" in str(exc.value)
