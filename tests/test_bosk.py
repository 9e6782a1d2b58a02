"""Bosk rules: games scored by hand (every case of both points tables, the round-8
tie-break), exact errors and warnings, and the command line.

Breakdown keys (layouts/bosk.yaml): summer_rows, summer_columns, terrain_1..terrain_8.
Trees are [row, column, value] on inner intersections: 1-7 (2 players), 1-9 (3), 1-11 (4).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen.cli import cli
from sheetgen.errors import RecordError
from sheetgen.games import bosk, load_layout
from sheetgen.scoring.record import score_data
from sheetgen.yamlsrc import loads

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "bosk"
NO_LEAVES = [0] * 8
TERRAINS = [f"terrain_{n}" for n in range(1, 9)]


def record(order=None, **players) -> str:
    """A record text; players as name=(trees, leaves)."""
    out = ["layout: bosk"]
    if order is not None:
        out.append(f"round8_order: {json.dumps(order)}")
    out.append("players:")
    for name, (trees, leaves) in players.items():
        out += [f"  - name: {name}", f"    trees: {json.dumps(trees)}", f"    leaves: {json.dumps(leaves)}"]
    return "\n".join(out) + "\n"


def result(text: str, name="game.yaml") -> dict:
    return score_data(loads(text, name), name).contract()


def errors(text: str, name="game.yaml") -> list[str]:
    with pytest.raises(RecordError) as exc:
        score_data(loads(text, name), name)
    return exc.value.lines


def breakdowns(r: dict) -> dict:
    return {p["name"]: p["breakdown"] for p in r["players"]}


def summer_of(r: dict) -> dict:
    return {p["name"]: (p["breakdown"]["summer_rows"], p["breakdown"]["summer_columns"]) for p in r["players"]}


def winter_of(r: dict) -> dict:
    return {p["name"]: [p["breakdown"][t] for t in TERRAINS] for p in r["players"]}


# A full set of trees (two of each value) for fillers that must not warn.
ALICE_TREES = [[1, 1, 4], [1, 4, 1], [2, 2, 3], [3, 5, 2], [4, 4, 4], [5, 1, 1], [6, 6, 3], [7, 3, 2]]
BOB_TREES = [[1, 2, 2], [2, 4, 4], [3, 3, 3], [4, 1, 1], [4, 6, 2], [5, 5, 4], [6, 2, 3], [7, 7, 1]]


# ----------------------------------------------------------------------------- the points tables


@pytest.mark.parametrize(
    "values, summer, winter",
    [
        ([4, 3, 1], [2, 1, 0], [5, 3, 0]),  # clear 1st, clear 2nd (the 3rd scores nothing)
        ([3, 2, 2], [2, 0, 0], [5, 1, 1]),  # clear 1st, tied 2nds
        ([0, 7, 0], [0, 3, 0], [0, 8, 0]),  # alone
        ([3, 3, 1], [1, 1, 0], [4, 4, 0]),  # tied 1sts: nobody else scores
        ([2, 2, 2], [1, 1, 1], [4, 4, 4]),  # everyone tied
        ([0, 0, 0], [0, 0, 0], [0, 0, 0]),  # nobody in the line: no place
        ([5, 0, 1, 1], [2, 0, 0, 0], [5, 0, 1, 1]),  # a 0 never places, even as a tied 2nd
    ],
)
def test_place_points_tables(values, summer, winter):
    layout = load_layout("bosk")
    assert bosk.place_points(values, bosk.table(layout, "summer")) == summer
    assert bosk.place_points(values, bosk.table(layout, "winter")) == winter


def test_the_tables_are_the_layouts_constants():
    layout = load_layout("bosk")
    assert bosk.table(layout, "summer") == bosk.Table(first=2, second=1, tied_second=0, alone=3, tied_first=1)
    assert bosk.table(layout, "winter") == bosk.Table(first=5, second=3, tied_second=1, alone=8, tied_first=4)


# ----------------------------------------------------------------------------- summer, by hand


def test_summer_every_case_three_players():
    # 3 players: rows and columns 1-9.
    # Alice: (1,1)=4, (4,4)=1, (4,6)=1, (9,7)=3
    # Bob:   (1,2)=3, (4,8)=2, (9,8)=2, (9,9)=1
    # Carol: (1,3)=1, (4,2)=3, (9,5)=2
    # Rows:
    #   row 1: Alice 4, Bob 3, Carol 1 -> clear 1st and 2nd: Alice 2, Bob 1, Carol 0
    #   row 4 (the seed's example: red 3 beats yellow 1+1 and orange 2):
    #          Carol 3, Alice 1+1=2, Bob 2 -> clear 1st, tied 2nds: Carol 2, Alice 0, Bob 0
    #   row 9: Alice 3, Bob 2+1=3, Carol 2 -> tied 1sts: Alice 1, Bob 1, Carol 0
    #   rows: Alice 2+0+1 = 3, Bob 1+0+1 = 2, Carol 0+2+0 = 2
    # Columns:
    #   col 1 Alice 4 alone: 3; col 2 Bob 3, Carol 3 -> tied 1sts, 1 each; col 3 Carol alone: 3;
    #   col 4 Alice alone: 3; col 5 Carol alone: 3; col 6 Alice alone: 3; col 7 Alice alone: 3;
    #   col 8 Bob 2+2=4 alone: 3; col 9 Bob alone: 3
    #   columns: Alice 3+3+3+3 = 12, Bob 1+3+3 = 7, Carol 1+3+3 = 7
    r = result(
        record(
            Alice=([[1, 1, 4], [4, 4, 1], [4, 6, 1], [9, 7, 3]], NO_LEAVES),
            Bob=([[1, 2, 3], [4, 8, 2], [9, 8, 2], [9, 9, 1]], NO_LEAVES),
            Carol=([[1, 3, 1], [4, 2, 3], [9, 5, 2]], NO_LEAVES),
        )
    )
    assert summer_of(r) == {"Alice": (3, 12), "Bob": (2, 7), "Carol": (2, 7)}
    assert [p["total"] for p in r["players"]] == [15, 9, 9]
    assert [p["rank"] for p in r["players"]] == [1, 2, 2]
    assert r["winners"] == ["Alice"]


def test_summer_alone_in_a_line_scores_3_even_with_a_1():
    # 2 players: Alice (3,3)=1, Bob (5,6)=2. Row 3 and column 3: Alice alone, 3 each;
    # row 5 and column 6: Bob alone, 3 each.
    r = result(record(Alice=([[3, 3, 1]], NO_LEAVES), Bob=([[5, 6, 2]], NO_LEAVES)))
    assert summer_of(r) == {"Alice": (3, 3), "Bob": (3, 3)}


def test_summer_sums_tree_values_not_trees():
    # Row 2: Alice 1+1 = 2 (two trees) against Bob 3 (one tree): Bob 2, Alice 1.
    # Columns 1, 2 (Alice) and 5 (Bob) are each held alone: 3.
    r = result(record(Alice=([[2, 1, 1], [2, 2, 1]], NO_LEAVES), Bob=([[2, 5, 3]], NO_LEAVES)))
    assert summer_of(r) == {"Alice": (1, 6), "Bob": (2, 3)}


def test_board_corners_score_with_four_players():
    # 4 players: rows and columns 1-11. Alice (11,11)=4, Bob (1,11)=2, Carol (11,1)=1, Dan none.
    # Row 11: Alice 4, Carol 1 -> 2/1; row 1: Bob alone 3.
    # Column 11: Alice 4, Bob 2 -> 2/1; column 1: Carol alone 3.
    r = result(
        record(
            Alice=([[11, 11, 4]], NO_LEAVES),
            Bob=([[1, 11, 2]], NO_LEAVES),
            Carol=([[11, 1, 1]], NO_LEAVES),
            Dan=([], NO_LEAVES),
        )
    )
    assert summer_of(r) == {"Alice": (2, 2), "Bob": (3, 1), "Carol": (1, 3), "Dan": (0, 0)}


# ----------------------------------------------------------------------------- winter, by hand


def test_winter_every_case_four_players():
    # Leaves per terrain (Alice, Bob, Carol, Dan) and points (table 5/3, 5/1, 8, 4/4):
    #   t1: 6, 4, 2, 0 -> clear 1st and 2nd: 5, 3, 0, 0
    #   t2: 6, 4, 4, 0 -> clear 1st, tied 2nds: 5, 1, 1, 0
    #   t3: 0, 0, 7, 0 -> alone: 0, 0, 8, 0
    #   t4: 3, 3, 1, 0 -> tied 1sts, the others 0: 4, 4, 0, 0
    #   t5: 0, 0, 0, 0 -> nobody: 0, 0, 0, 0
    #   t6: 2, 2, 2, 2 -> all tied 1st: 4, 4, 4, 4
    #   t7: 1, 0, 0, 1 -> tied 1sts: 4, 0, 0, 4
    #   t8: 5, 0, 5, 5 -> three tied 1sts: 4, 0, 4, 4
    # Totals: Alice 5+5+0+4+0+4+4+4 = 26; Bob 3+1+0+4+0+4+0+0 = 12;
    #         Carol 0+1+8+0+0+4+0+4 = 17; Dan 0+0+0+0+0+4+4+4 = 12.
    r = result(
        record(
            Alice=([], [6, 6, 0, 3, 0, 2, 1, 5]),
            Bob=([], [4, 4, 0, 3, 0, 2, 0, 0]),
            Carol=([], [2, 4, 7, 1, 0, 2, 0, 5]),
            Dan=([], [0, 0, 0, 0, 0, 2, 1, 5]),
        )
    )
    assert winter_of(r) == {
        "Alice": [5, 5, 0, 4, 0, 4, 4, 4],
        "Bob": [3, 1, 0, 4, 0, 4, 0, 0],
        "Carol": [0, 1, 8, 0, 0, 4, 0, 4],
        "Dan": [0, 0, 0, 0, 0, 4, 4, 4],
    }
    assert [p["total"] for p in r["players"]] == [26, 12, 17, 12]
    # Bob and Dan tie on 12 and nobody gave round 8's order: they share 3rd place.
    assert [p["rank"] for p in r["players"]] == [1, 3, 2, 3]
    assert r["winners"] == ["Alice"]


def test_the_squirrel_is_a_leaf_and_counts_may_be_sums():
    # Terrain 1: Alice "3+1" (three leaves and her squirrel) = 4 against Bob 4: tied 1sts, 4 each.
    r = result(record(Alice=([], ["3+1", 0, 0, 0, 0, 0, 0, 0]), Bob=([], [4, 0, 0, 0, 0, 0, 0, 0])))
    assert winter_of(r)["Alice"][0] == 4 and winter_of(r)["Bob"][0] == 4


# ----------------------------------------------------------------------------- a whole game


def test_full_two_player_game_worked_by_hand():
    # tests/fixtures/bosk/bosk-game.yaml, 2 players, rows and columns 1-7.
    # Alice: (1,1)4 (1,4)1 (2,2)3 (3,5)2 (4,4)4 (5,1)1 (6,6)3 (7,3)2
    # Bob:   (1,2)2 (2,4)4 (3,3)3 (4,1)1 (4,6)2 (5,5)4 (6,2)3 (7,7)1
    # Rows (Alice-Bob sums -> points):
    #   1: 4+1=5 - 2 -> 2/1   2: 3 - 4 -> 1/2   3: 2 - 3 -> 1/2   4: 4 - 1+2=3 -> 2/1
    #   5: 1 - 4 -> 1/2       6: 3 - 3 -> 1/1   7: 2 - 1 -> 2/1
    #   Alice 2+1+1+2+1+1+2 = 10, Bob 1+2+2+1+2+1+1 = 10
    # Columns:
    #   1: 4+1=5 - 1 -> 2/1   2: 3 - 2+3=5 -> 1/2   3: 2 - 3 -> 1/2   4: 1+4=5 - 4 -> 2/1
    #   5: 2 - 4 -> 1/2       6: 3 - 2 -> 2/1       7: 0 - 1 -> Bob alone 0/3
    #   Alice 2+1+1+2+1+2+0 = 9, Bob 1+2+2+1+2+1+3 = 12
    # Winter (Alice-Bob leaves -> points):
    #   t1 6-4 5/3; t2 3-3 4/4; t3 0-7 0/8; t4 5-0 8/0; t5 2-2 4/4; t6 4-6 3/5; t7 7-1 5/3; t8 8-5 5/3
    #   Alice 5+4+0+8+4+3+5+5 = 34, Bob 3+4+8+0+4+5+3+3 = 30
    # Totals: Alice 10+9+34 = 53, Bob 10+12+30 = 52: Alice wins.
    r = score_data(loads((FIXTURES / "bosk-game.yaml").read_text(), "bosk-game.yaml")).contract()
    assert breakdowns(r) == {
        "Alice": {
            "summer_rows": 10,
            "summer_columns": 9,
            "terrain_1": 5,
            "terrain_2": 4,
            "terrain_3": 0,
            "terrain_4": 8,
            "terrain_5": 4,
            "terrain_6": 3,
            "terrain_7": 5,
            "terrain_8": 5,
        },
        "Bob": {
            "summer_rows": 10,
            "summer_columns": 12,
            "terrain_1": 3,
            "terrain_2": 4,
            "terrain_3": 8,
            "terrain_4": 0,
            "terrain_5": 4,
            "terrain_6": 5,
            "terrain_7": 3,
            "terrain_8": 3,
        },
    }
    assert [(p["name"], p["total"], p["rank"]) for p in r["players"]] == [("Alice", 53, 1), ("Bob", 52, 2)]
    assert r["winners"] == ["Alice"]
    assert r["warnings"] == []
    assert r["layout"] == "bosk" and r["game"] == "bosk"


# ----------------------------------------------------------------------------- round 8 breaks ties


def _tie_game(order):
    # tests/fixtures/bosk/bosk-tie.yaml: bosk-game.yaml with Bob's tree (7,7)1 moved to (6,7),
    # Bob 6 leaves in terrain 1 and 6 in terrain 3.
    # Rows: 6: Alice 3 - Bob 3+1=4 -> 1/2 (was 1/1); 7: Alice 2 alone -> 3/0 (was 2/1).
    #   Alice 10-1+1 = ... row by row 2+1+1+2+1+1+3 = 11, Bob 1+2+2+1+2+2+0 = 10.
    # Columns unchanged (column 7 still Bob's alone): Alice 9, Bob 12.
    # Winter: t1 6-6 -> 4/4 (was 5/3); t3 0-6 -> still Bob alone 8. Alice 33, Bob 31.
    # Totals: Alice 11+9+33 = 53, Bob 10+12+31 = 53: a tie.
    raw = loads((FIXTURES / "bosk-tie.yaml").read_text(), "bosk-tie.yaml")
    if order is None:
        del raw["round8_order"]
    elif order == "blank":  # `round8_order:` left empty
        raw["round8_order"] = None
    else:
        raw["round8_order"] = order
    return score_data(raw, "bosk-tie.yaml").contract()


def test_tie_goes_to_the_earlier_player_in_round_8():
    r = _tie_game(["Bob", "Alice"])
    assert [(p["name"], p["total"], p["rank"]) for p in r["players"]] == [("Alice", 53, 2), ("Bob", 53, 1)]
    assert r["winners"] == ["Bob"]
    assert r["warnings"] == []
    r = _tie_game(["Alice", "Bob"])
    assert r["winners"] == ["Alice"] and [p["rank"] for p in r["players"]] == [1, 2]


def test_tie_without_round_8_order_is_a_shared_victory():
    for order in (None, [], "blank"):
        r = _tie_game(order)
        assert [p["rank"] for p in r["players"]] == [1, 1]
        assert r["winners"] == ["Alice", "Bob"]
        assert r["warnings"] == [
            "Alice and Bob tie for the win on 53 points; no round8_order is given, so the victory is shared "
            "(the player earlier in round 8's play order would win)"
        ]


def test_round_8_order_breaks_ties_for_lower_places_too():
    # The four-player winter game: Bob and Dan tie on 12 for 3rd; Dan played before Bob in round 8.
    leaves = {
        "Alice": [6, 6, 0, 3, 0, 2, 1, 5],
        "Bob": [4, 4, 0, 3, 0, 2, 0, 0],
        "Carol": [2, 4, 7, 1, 0, 2, 0, 5],
        "Dan": [0, 0, 0, 0, 0, 2, 1, 5],
    }
    r = result(record(["Carol", "Dan", "Alice", "Bob"], **{n: ([], v) for n, v in leaves.items()}))
    assert [p["rank"] for p in r["players"]] == [1, 4, 2, 3]


def test_a_tie_with_a_player_missing_from_the_order_stays_shared():
    # Alice and Bob tie on 8 (each alone in one terrain), Carol 0. The order names Carol and
    # Alice but not Bob: whether Bob played before Alice is unknown, the victory is shared.
    one = lambda n: [8 if k == n else 0 for k in range(8)]  # noqa: E731
    r = result(record(["Carol", "Alice"], Alice=([], one(0)), Bob=([], one(1)), Carol=([], NO_LEAVES)))
    assert [p["total"] for p in r["players"]] == [8, 8, 0]
    assert r["winners"] == ["Alice", "Bob"]
    assert [p["rank"] for p in r["players"]] == [1, 1, 3]
    assert r["warnings"][-2:] == [
        "round8_order: Bob missing; a tie on the total involving this player stays shared",
        "Alice and Bob tie for the win on 8 points; round8_order does not name them all, so the victory "
        "is shared (the player earlier in round 8's play order would win)",
    ]
    # Carol is missing, but the tied players are both named: the order decides.
    r = result(record(["Bob", "Alice"], Alice=([], one(0)), Bob=([], one(1)), Carol=([], NO_LEAVES)))
    assert r["winners"] == ["Bob"]
    assert r["warnings"][-1] == "round8_order: Carol missing; a tie on the total involving this player stays shared"


# ----------------------------------------------------------------------------- errors


def test_error_tree_on_the_edge_or_outside_the_board():
    text = record(Alice=([[8, 2, 1], [3, 0, 2], [-1, 4, 3]], NO_LEAVES), Bob=([[1, 1, 1]], NO_LEAVES))
    assert errors(text) == [
        "game.yaml:4: players[0] 'Alice': trees[0]: row 8 is on the edge of the 2-player board; "
        "trees stand on rows and columns 1-7 (8x8 squares)",
        "game.yaml:4: players[0] 'Alice': trees[1]: column 0 is on the edge of the 2-player board; "
        "trees stand on rows and columns 1-7 (8x8 squares)",
        "game.yaml:4: players[0] 'Alice': trees[2]: row -1 is outside the 2-player board; "
        "trees stand on rows and columns 1-7 (8x8 squares)",
    ]


def test_board_size_follows_the_player_count():
    # Row 10 is the white border with 3 players, row 11 is outside it; both stand with 4.
    three = record(A=([[10, 5, 1], [11, 5, 2]], NO_LEAVES), B=([], NO_LEAVES), C=([], NO_LEAVES))
    assert errors(three) == [
        "game.yaml:4: players[0] 'A': trees[0]: row 10 is on the edge of the 3-player board; "
        "trees stand on rows and columns 1-9 (10x10 squares)",
        "game.yaml:4: players[0] 'A': trees[1]: row 11 is outside the 3-player board; "
        "trees stand on rows and columns 1-9 (10x10 squares)",
    ]
    four = record(
        A=([[10, 5, 1], [11, 5, 2], [5, 12, 3]], NO_LEAVES), B=([], NO_LEAVES), C=([], NO_LEAVES), D=([], NO_LEAVES)
    )
    assert errors(four) == [
        "game.yaml:4: players[0] 'A': trees[2]: column 12 is on the edge of the 4-player board; "
        "trees stand on rows and columns 1-11 (12x12 squares)"
    ]


def test_error_two_trees_on_one_intersection():
    text = record(Alice=([[2, 3, 1], [4, 4, 2], [2, 3, 3]], NO_LEAVES), Bob=([[4, 4, 1]], NO_LEAVES))
    assert errors(text) == [
        "game.yaml:4: players[0] 'Alice': trees[2]: row 2, column 3 already holds a tree: trees[0]",
        "game.yaml:7: players[1] 'Bob': trees[0]: row 4, column 4 already holds a tree: Alice's trees[1]",
    ]


def test_error_tree_values_and_counts():
    text = record(Alice=([[1, 1, 5], [1, 2, 0], [1, 3], "x", [1, 4, True]], NO_LEAVES), Bob=([], NO_LEAVES))
    assert errors(text) == [
        "game.yaml:4: players[0] 'Alice': trees[0]: value 5: trees are numbered 1-4",
        "game.yaml:4: players[0] 'Alice': trees[1]: value 0: trees are numbered 1-4",
        "game.yaml:4: players[0] 'Alice': trees[2]: expected [row, column, value], three whole numbers, "
        "got a list of 2",
        "game.yaml:4: players[0] 'Alice': trees[3]: expected [row, column, value], three whole numbers, got 'x'",
        "game.yaml:4: players[0] 'Alice': trees[4]: expected [row, column, value], three whole numbers, got a list",
    ]


def test_error_a_third_tree_of_a_value_and_more_than_eight_trees():
    third = record(Alice=([[1, 1, 2], [1, 2, 2], [1, 3, 2]], NO_LEAVES), Bob=([], NO_LEAVES))
    assert errors(third) == [
        "game.yaml:4: players[0] 'Alice': trees[2]: a 3rd tree of value 2; each player has 2 trees of each value 1-4"
    ]
    nine = record(Alice=(ALICE_TREES + [[7, 7, 1]], NO_LEAVES), Bob=(BOB_TREES[:-1], NO_LEAVES))
    assert errors(nine) == [
        "game.yaml:4: players[0] 'Alice': trees: 9 trees; each player has 8 (2 of each value 1-4)",
        "game.yaml:4: players[0] 'Alice': trees[8]: a 3rd tree of value 1; each player has 2 trees of each value 1-4",
    ]


@pytest.mark.parametrize(
    "leaves, message",
    [
        ([1] * 7, "leaves: expected 8 numbers, one per terrain, got 7"),
        ([1] * 9, "leaves: expected 8 numbers, one per terrain, got 9"),
        ([1, 2, 3, -1, 0, 0, 0, 0], "leaves[3]: expected 0 or more, got a negative count -1"),
        ([1, 2, 3, "2-3", 0, 0, 0, 0], "leaves[3]: expected 0 or more, got a negative count -1"),
        ([1, 2, 3, "many", 0, 0, 0, 0], "leaves[3]: expected a whole number or a sum like 10+20-5, got 'many'"),
        (5, "leaves: expected a list, got 5"),
    ],
)
def test_error_leaves(leaves, message):
    text = record(Alice=([], leaves), Bob=([], NO_LEAVES))
    assert errors(text) == [f"game.yaml:5: players[0] 'Alice': {message}"]


def test_error_round_8_order_unknown_or_repeated_names():
    text = record(["Bob", "Zoe", "Bob"], Alice=([], NO_LEAVES), Bob=([], NO_LEAVES))
    assert errors(text) == [
        "game.yaml:2: round8_order[1]: 'Zoe' is no player of this record; players: Alice, Bob",
        "game.yaml:2: round8_order[2]: 'Bob' is named twice",
    ]
    assert errors(record("Bob", Alice=([], NO_LEAVES), Bob=([], NO_LEAVES))) == [
        "game.yaml:2: round8_order: expected a list, got 'Bob'"
    ]


def test_error_player_count_and_missing_fields():
    assert errors(record(Alice=([], NO_LEAVES))) == ["game.yaml:2: players: bosk is played by 2-4 players, got 1"]
    text = (
        "layout: bosk\nplayers:\n  - name: A\n    trees: []\n  - name: B\n    leaves: [0,0,0,0,0,0,0,0]\n"
        "    squirrel: 1\n"
    )
    assert errors(text) == [
        "game.yaml:3: players[0] 'A': missing key 'leaves'",
        "game.yaml:7: players[1] 'B': squirrel: unknown key; accepted keys: leaves, name, summer_lines, trees",
    ]
    # trees or summer_lines: which one is missing is known once the keys are right
    assert errors(
        text.replace("    squirrel: 1\n", "")
        .replace("trees: []\n", "trees: []\n    leaves: []\n")
        .replace("leaves: []", "leaves: [0,0,0,0,0,0,0,0]")
    ) == ["game.yaml:6: players[1] 'B': missing key 'trees' (or 'summer_lines', the sums of the summer worksheet)"]


# ----------------------------------------------------------------------------- warnings


def test_warnings_fewer_trees_and_too_many_leaves():
    # Alice shows 37 leaves: her tiles drop 2+3+...+8 = 35 leaves, plus the squirrel: 36 at most.
    # Both show 37 + 30 = 67 leaves on an 8x8 board of 64 squares.
    text = record(Alice=(ALICE_TREES[:7], [10, 10, 10, 7, 0, 0, 0, 0]), Bob=(BOB_TREES, [0, 0, 0, 0, 10, 10, 10, 0]))
    r = result(text)
    assert r["warnings"] == [
        "players[0] 'Alice': trees: 7 trees given, but every player plants all 8 in spring",
        "players[0] 'Alice': leaves: 37 visible leaves in all; a player shows at most 36 "
        "(leaf tiles 2-8 drop 35, plus the squirrel)",
        "leaves: 67 visible leaves on the board in all; the 2-player board has 64 squares and each shows "
        "one leaf or squirrel at most",
    ]


# ----------------------------------------------------------------------------- the layout drives the rules


def test_a_variant_layout_changes_the_points(tmp_path):
    # A house variant: alone in a terrain is worth 10, a clear 1st in a line 3.
    (tmp_path / "variant.yaml").write_text(
        "id: bosk-variant\nextends: bosk\nconstants:\n  winter_alone: 10\n  summer_first: 3\n"
    )
    text = record(
        Alice=([[1, 1, 4], [1, 2, 1]], [9, 0, 0, 0, 0, 0, 0, 0]), Bob=([[1, 5, 2]], [0, 0, 0, 0, 0, 0, 0, 0])
    ).replace("layout: bosk", "layout: variant.yaml")
    r = score_data(loads(text, str(tmp_path / "game.yaml")), str(tmp_path / "game.yaml")).contract()
    # Row 1: Alice 4+1=5, Bob 2 -> 3/1. Columns 1, 2 (Alice) and 5 (Bob) alone: 3 each. Terrain 1: 10.
    assert summer_of(r) == {"Alice": (3, 6), "Bob": (1, 3)}
    assert winter_of(r)["Alice"][0] == 10
    assert r["layout"] == "bosk-variant"


def test_categories_follow_the_pad():
    layout = load_layout("bosk")
    cats = bosk.categories(layout)
    assert [k for k, _ in cats] == ["summer_rows", "summer_columns", *TERRAINS]
    assert cats[0][1] == {"fr": "Été : lignes", "en": "Summer: rows"}
    assert cats[2][1] == {"fr": "Terrain 1", "en": "Terrain 1"}


# ----------------------------------------------------------------------------- command line


def run(*args, **kw):
    return CliRunner().invoke(cli, list(args), **kw)


def test_cli_score_table():
    out = run("score", str(FIXTURES / "bosk-game.yaml"), "--lang", "en")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].endswith("Alice  Bob")
    assert lines[2].split() == ["Summer:", "rows", "10", "10"]
    assert lines[4].split() == ["Terrain", "1", "5", "3"]
    assert lines[-3].split() == ["Total", "53", "52"]
    assert lines[-1] == "Winner: Alice"


def test_cli_score_json_follows_the_contract():
    out = run("score", str(FIXTURES / "bosk-tie.yaml"), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [(p["name"], p["total"], p["rank"]) for p in data["players"]] == [("Alice", 53, 2), ("Bob", 53, 1)]
    assert data["winners"] == ["Bob"] and data["warnings"] == []
    assert list(data["players"][0]["breakdown"]) == ["summer_rows", "summer_columns", *TERRAINS]


def test_cli_score_csv():
    out = run("score", str(FIXTURES / "bosk-game.yaml"), "--format", "csv")
    assert out.exit_code == 0, out.output
    head, alice, bob = out.output.splitlines()
    assert head == ("record,layout,player,summer_rows,summer_columns," + ",".join(TERRAINS) + ",total,rank,winner")
    assert alice.endswith(",bosk,Alice,10,9,5,4,0,8,4,3,5,5,53,1,yes")


def test_cli_score_errors_exit_1_without_traceback():
    bad = str(FIXTURES / "bosk-bad.yaml")
    out = run("score", bad)
    assert out.exit_code == 1
    assert out.output == "".join(
        f"Error: {line}\n" if n == 0 else f"{line}\n"
        for n, line in enumerate(
            [
                f"{bad}:5: players[0] 'Alice': trees: 9 trees; each player has 8 (2 of each value 1-4)",
                f"{bad}:6: players[0] 'Alice': trees[0]: row 0 is on the edge of the 2-player board; trees stand on "
                "rows and columns 1-7 (8x8 squares)",
                f"{bad}:14: players[0] 'Alice': trees[8]: a 3rd tree of value 1; each player has 2 trees of each "
                "value 1-4",
                f"{bad}:14: players[0] 'Alice': trees[8]: row 3, column 3 already holds a tree: trees[3]",
                f"{bad}:25: players[1] 'Bob': trees[7]: row 1, column 2 already holds a tree: Alice's trees[1]",
                f"{bad}:2: round8_order[1]: 'Zoe' is no player of this record; players: Alice, Bob",
                f"{bad}:2: round8_order[2]: 'Bob' is named twice",
            ]
        )
    )


def test_cli_template_for_three_players_scores(tmp_path):
    out = run("template", "bosk", "--players", "3")
    assert out.exit_code == 0, out.output
    text = out.output
    assert "round8_order: []" in text
    assert text.count("    trees: []") == 3
    assert text.count("    leaves: [0, 0, 0, 0, 0, 0, 0, 0]") == 3
    assert "rows and columns 1-7 with 2, 1-9 with 3, 1-11 with 4 players" in text
    path = tmp_path / "bosk-game.yaml"
    path.write_text(text)
    out = run("score", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [p["name"] for p in data["players"]] == ["Player 1", "Player 2", "Player 3"]
    assert data["winners"] == ["Player 1", "Player 2", "Player 3"]


def test_cli_template_and_render_refuse_a_fifth_player():
    out = run("template", "bosk", "--players", "5")
    assert out.exit_code == 2 and "Invalid value for '--players': expected 2-4, got 5" in out.output
    out = run("render", "bosk", "--players", "5", "-o", "x.pdf")
    assert out.exit_code == 2 and "Invalid value for '--players': bosk is for 2-4 players, got 5" in out.output


def test_cli_render_a_pad_of_25(tmp_path):
    from pypdf import PdfReader

    path = tmp_path / "pad.pdf"
    out = run("render", "bosk", "--players", "3", "--copies", "25", "-o", str(path))
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"wrote {path} (50 pages, ")  # each sheet: the pad, then its summer worksheet
    assert len(PdfReader(str(path)).pages) == 50
    out = run("render", "bosk", "--page", "pad", "--copies", "25", "-o", str(path))
    assert out.exit_code == 0 and out.output.startswith(f"wrote {path} (25 pages, ")


def test_warning_one_tree_is_singular():
    r = result(record(Alice=([[1, 1, 1]], NO_LEAVES), Bob=(BOB_TREES, NO_LEAVES)))
    assert r["warnings"] == ["players[0] 'Alice': trees: 1 tree given, but every player plants all 8 in spring"]


# ----------------------------------------------------------------------------- summer_lines: the worksheet's sums


def lines_record(players: dict, order=None) -> str:
    """A record text; players as name=(rows, columns) sums, or name=trees (a list of triples)."""
    out = ["layout: bosk"] + ([f"round8_order: {json.dumps(order)}"] if order else []) + ["players:"]
    for name, marks in players.items():
        out.append(f"  - name: {name}")
        if isinstance(marks, tuple):
            out += [
                "    summer_lines:",
                f"      rows: {json.dumps(marks[0])}",
                f"      columns: {json.dumps(marks[1])}",
            ]
        else:
            out.append(f"    trees: {json.dumps(marks)}")
        out.append(f"    leaves: {json.dumps(NO_LEAVES)}")
    return "\n".join(out) + "\n"


def test_summer_lines_score_like_the_trees_two_players():
    # bosk-game.yaml's trees, summed by hand per line (bosk-game-lines.yaml):
    # Alice rows 5 3 2 4 1 3 2, columns 5 3 2 5 2 3 0; Bob rows 2 4 3 3 4 3 1, columns 1 5 3 4 4 2 1.
    # Rows: A/B 2/1, 1/2, 1/2, 2/1, 1/2, 1/1 (tied 3s), 2/1 -> 10/10.
    # Columns: 2/1, 1/2, 1/2, 2/1, 1/2, 2/1, and column 7 Bob alone 0/3 -> 9/12.
    lines = score_data(loads((FIXTURES / "bosk-game-lines.yaml").read_text(), "l.yaml"), "l.yaml").contract()
    trees = score_data(loads((FIXTURES / "bosk-game.yaml").read_text(), "t.yaml"), "t.yaml").contract()
    assert summer_of(lines) == {"Alice": (10, 9), "Bob": (10, 12)}
    assert [p["total"] for p in lines["players"]] == [53, 52]
    assert lines["players"] == trees["players"] and lines["winners"] == ["Alice"] and lines["warnings"] == []
    # one player with trees, the other with sums: the same again
    alice_trees = (FIXTURES / "bosk-game.yaml").read_text().split("  - name: Bob\n")[0]
    bob_sums = (FIXTURES / "bosk-game-lines.yaml").read_text().split("  - name: Bob\n")[1]
    assert result(alice_trees + "  - name: Bob\n" + bob_sums)["players"] == trees["players"]


def test_summer_lines_score_like_the_trees_three_players():
    # The trees of test_summer_every_case_three_players, summed per line (rows, then columns 1-9).
    text = lines_record(
        {
            "Alice": ([4, 0, 0, 2, 0, 0, 0, 0, 3], [4, 0, 0, 1, 0, 1, 3, 0, 0]),
            "Bob": ([3, 0, 0, 2, 0, 0, 0, 0, 3], [0, 3, 0, 0, 0, 0, 0, 4, 1]),
            "Carol": ([1, 0, 0, 3, 0, 0, 0, 0, 2], [0, 3, 1, 0, 2, 0, 0, 0, 0]),
        }
    )
    r = result(text)
    assert summer_of(r) == {"Alice": (3, 12), "Bob": (2, 7), "Carol": (2, 7)}
    assert [p["total"] for p in r["players"]] == [15, 9, 9]
    assert r["warnings"] == [
        f"players[{i}] '{name}': summer_lines: the rows and the columns add up to {n}, but a player's 8 trees are "
        "worth 20 in all and every player plants them all in spring"
        for i, (name, n) in enumerate([("Alice", 9), ("Bob", 8), ("Carol", 6)])
    ]


def test_tree_line_sums():
    assert bosk.tree_line_sums([[1, 1, 4], [1, 4, 1], [7, 3, 2]], 7) == {
        "rows": [5, 0, 0, 0, 0, 0, 2],
        "columns": [4, 0, 2, 1, 0, 0, 0],
    }


def test_line_bound_comes_from_the_trees():
    layout = load_layout("bosk")
    assert bosk.trees_of(layout) == [4, 4, 3, 3, 2, 2, 1, 1]
    assert [bosk.line_bound(layout, n) for n in (7, 9, 11)] == [19, 20, 20]


FULL = [5, 3, 2, 4, 1, 3, 2]  # 20: all of a player's trees


@pytest.mark.parametrize(
    "rows, columns, messages",
    [
        (
            FULL[:6],
            FULL,
            [
                "game.yaml:5: players[0] 'A': summer_lines.rows: expected 7 sums, one per row 1-7 of the "
                "2-player board, got 6"
            ],
        ),
        (
            FULL,
            FULL + [0, 0],
            [
                "game.yaml:6: players[0] 'A': summer_lines.columns: expected 7 sums, one per column 1-7 "
                "of the 2-player board, got 9"
            ],
        ),
        (
            [0, 0, 20, 0, 0, 0, 0],
            FULL,
            [
                "game.yaml:5: players[0] 'A': summer_lines.rows[2]: 20 on row 3: one player's trees make at most 19 on a "
                "row (its 7 intersections hold their 7 highest trees)"
            ],
        ),
        (
            [1, 0, 0, 0, 0, 0, 0],
            [0, 2, 0, 0, 0, 0, 0],
            [
                "game.yaml:4: players[0] 'A': summer_lines: the rows add up to 1 but the columns to 2; each tree counts "
                "once in its row and once in its column, so both totals are the player's tree values"
            ],
        ),
        (
            [19, 19, 0, 0, 0, 0, 0],
            [19, 19, 0, 0, 0, 0, 0],
            [
                "game.yaml:4: players[0] 'A': summer_lines: the rows and the columns add up to 38; a player's 8 trees are "
                "worth 20 in all"
            ],
        ),
        (
            [1, -1, 0, 0, 0, 0, 0],
            FULL,
            ["game.yaml:5: players[0] 'A': summer_lines.rows[1]: expected 0 or more, got a negative count -1"],
        ),
        (
            [1, "x", 0, 0, 0, 0, 0],
            FULL,
            [
                "game.yaml:5: players[0] 'A': summer_lines.rows[1]: expected a whole number or a sum like 10+20-5, got 'x'"
            ],
        ),
    ],
)
def test_error_summer_lines(rows, columns, messages):
    assert errors(lines_record({"A": (rows, columns), "B": BOB_TREES})) == messages


def test_error_summer_lines_bound_with_more_lines_than_trees():
    # 3 players: 9 intersections a line, so a line may hold all 8 trees (20), not 21.
    sums = [21] + [0] * 8
    assert errors(lines_record({"A": (sums, sums), "B": [], "C": []})) == [
        "game.yaml:5: players[0] 'A': summer_lines.rows[0]: 21 on row 1: one player's trees make at most 20 on a "
        "row (all their trees: 2 of each value 1-4)",
        "game.yaml:6: players[0] 'A': summer_lines.columns[0]: 21 on column 1: one player's trees make at most 20 "
        "on a column (all their trees: 2 of each value 1-4)",
    ]


def test_error_trees_and_summer_lines_both_or_keys():
    both = lines_record({"A": (FULL, FULL), "B": BOB_TREES}).replace(
        "    summer_lines:\n", "    trees: []\n    summer_lines:\n", 1
    )
    assert errors(both) == [
        "game.yaml:5: players[0] 'A': summer_lines: give trees or summer_lines, not both "
        "(summer_lines are the sums of the trees)"
    ]
    odd = (
        "layout: bosk\nplayers:\n  - name: A\n    summer_lines: {rows: [], lanes: []}\n"
        "    leaves: [0,0,0,0,0,0,0,0]\n  - name: B\n    trees: []\n    leaves: [0,0,0,0,0,0,0,0]\n"
    )
    assert errors(odd) == [
        "game.yaml:4: players[0] 'A': summer_lines.lanes: unknown key; accepted keys: columns, rows",
        "game.yaml:4: players[0] 'A': summer_lines: missing key 'columns'",
    ]


def test_cli_template_shows_both_forms_and_scores(tmp_path):
    out = run("template", "bosk", "--players", "4")
    assert out.exit_code == 0, out.output
    zeros = json.dumps([0] * 11)
    assert out.output.count(f'    # summer_lines: {{"rows": {zeros}, "columns": {zeros}}}') == 4
    assert (
        "    # or, instead of trees, the pad's summer worksheet: the player's sum of tree values on each row "
        "(top to bottom) and on each column (left to right), 7 with 2, 9 with 3, 11 with 4 players"
    ) in out.output
    # uncommenting the sums (and dropping the trees) gives a record that scores
    text = out.output.replace("    trees: []\n", "").replace("    # summer_lines:", "    summer_lines:")
    path = tmp_path / "lines.yaml"
    path.write_text(text)
    scored = run("score", str(path), "--format", "json")
    assert scored.exit_code == 0, scored.output
    assert [p["total"] for p in json.loads(scored.stdout)["players"]] == [0, 0, 0, 0]


@st.composite
def planted_games(draw):
    """2-4 players, each planting some of their trees on free inner intersections."""
    players = draw(st.integers(2, 4))
    lines = {2: 7, 3: 9, 4: 11}[players]
    spots = draw(st.permutations([(r, c) for r in range(1, lines + 1) for c in range(1, lines + 1)]))
    out, used = [], 0
    for _ in range(players):
        values = draw(
            st.lists(st.sampled_from([1, 2, 3, 4]), max_size=8).filter(lambda vs: all(vs.count(v) <= 2 for v in vs))
        )
        out.append([[*spots[used + k], v] for k, v in enumerate(values)])
        used += len(values)
    return lines, out


@settings(max_examples=40, deadline=None)
@given(planted_games())
def test_summer_lines_always_score_like_their_trees(game):
    lines, planted = game
    names = [f"P{i}" for i in range(len(planted))]
    as_trees = lines_record(dict(zip(names, planted)))
    sums = {
        name: tuple(bosk.tree_line_sums(trees, lines)[axis] for axis in ("rows", "columns"))
        for name, trees in zip(names, planted)
    }
    assert result(lines_record(sums))["players"] == result(as_trees)["players"]
