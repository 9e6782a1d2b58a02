"""Plante Bataille: scoring worked by hand, exact error texts, the CLI, the pad's layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.errors import RecordError
from sheetgen.games import load_layout
from sheetgen.games import plante_bataille as pb
from sheetgen.layout.display import Box
from sheetgen.scoring.record import score_data

FIX = Path(__file__).resolve().parent / "fixtures" / "plante-bataille"


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def scored(players, **record) -> dict:
    """The score contract's object for a record scored in memory."""
    return score_data({"layout": "plante-bataille", **record, "players": players}, "game.yaml").contract()


def errors(players, **record) -> list[str]:
    with pytest.raises(RecordError) as exc:
        score_data({"layout": "plante-bataille", **record, "players": players}, "game.yaml")
    return exc.value.lines


def p(name, harvested, **tokens):
    return {"name": name, "harvested": harvested, "tokens": tokens}


# --------------------------------------------------------------------------- scoring by hand


def test_sole_leader_takes_the_majority_and_a_tied_lead_gives_it_to_nobody():
    # tests/fixtures/plante-bataille/game.yaml, by hand:
    # Alice: 4 - 2 + (3+5) + 1 = 11; Bob: 10+2-3 = 9; Carol: 2, -1, 6 = 7
    # cabbage 3 / 1 / 0: Alice alone leads -> +3
    # corn    1 / 1 / 0: Alice and Bob tie for the lead -> nobody
    # tomato  0 / 0 / 2: Carol alone -> +3
    # totals: Alice 14, Bob 9, Carol 10 -> ranks 1, 3, 2
    out = run("score", str(FIX / "game.yaml"), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["layout"] == "plante-bataille" and data["game"] == "plante-bataille"
    assert [(q["name"], q["total"], q["rank"]) for q in data["players"]] == [
        ("Alice", 14, 1),
        ("Bob", 9, 3),
        ("Carol", 10, 2),
    ]
    assert data["players"][0]["breakdown"] == {
        "harvested": 11,
        "majority_veg1": 3,
        "majority_veg2": 0,
        "majority_veg3": 0,
    }
    assert data["players"][2]["breakdown"] == {
        "harvested": 7,
        "majority_veg1": 0,
        "majority_veg2": 0,
        "majority_veg3": 3,
    }
    assert data["winners"] == ["Alice"]
    assert data["warnings"] == []


def test_three_way_tie_for_the_lead_gives_nobody_the_bonus():
    # cabbage 1 / 1 / 1: tied lead -> nobody; corn 1 / 0 / 0: Ann alone, with a single token -> +3
    # Ann 5 + 3 = 8, Ben 6, Cat 7
    data = scored([p("Ann", [5], veg1=1, veg2=1), p("Ben", [6], veg1=1), p("Cat", [7], veg1=1)])
    assert [(q["total"], q["rank"]) for q in data["players"]] == [(8, 1), (6, 3), (7, 2)]
    assert [q["breakdown"]["majority_veg1"] for q in data["players"]] == [0, 0, 0]
    assert [q["breakdown"]["majority_veg2"] for q in data["players"]] == [3, 0, 0]


def test_all_zero_tokens_give_no_majority():
    # nobody holds a token: no majority at all (a count of 0 never leads); totals are the cards
    # Ann 3+4 = 7, Ben 10-1 = 9, Cat 0 cards = 0
    data = scored([p("Ann", [3, 4]), p("Ben", "10-1", veg1=0, veg2=0, veg3=0), {"name": "Cat", "harvested": []}])
    assert [q["breakdown"] for q in data["players"]] == [
        {"harvested": 7, "majority_veg1": 0, "majority_veg2": 0, "majority_veg3": 0},
        {"harvested": 9, "majority_veg1": 0, "majority_veg2": 0, "majority_veg3": 0},
        {"harvested": 0, "majority_veg1": 0, "majority_veg2": 0, "majority_veg3": 0},
    ]
    assert data["winners"] == ["Ben"]


def test_negative_totals_and_a_shared_victory():
    # Ann: -1 + -1 = -2; Ben: -5+3 = -2; Cat: -4 + 1 = -3; Dan: -6
    # tomato 1 / 1 / 1 / 0: a three-way tie for the lead -> nobody gains it
    # ranks: Ann and Ben share 1st at -2, Cat 3rd, Dan 4th; both Ann and Ben win
    data = scored([p("Ann", [-1, -1], veg3=1), p("Ben", "-5+3", veg3=1), p("Cat", [-4, 1], veg3=1), p("Dan", -6)])
    assert [(q["total"], q["rank"]) for q in data["players"]] == [(-2, 1), (-2, 1), (-3, 3), (-6, 4)]
    assert data["winners"] == ["Ann", "Ben"]


def test_a_majority_makes_a_shared_victory():
    # Ann 5+5 = 10; Ben 7 + cabbage (1 / 0 / 0 alone) 3 = 10; Cat 4+5 = 9
    # corn 2 / 0 / 2: Ann and Cat tie for the lead -> nobody
    data = scored([p("Ann", [5, 5], veg2=2), p("Ben", [7], veg1=1), p("Cat", ["4+5"], veg2=2)])
    assert [(q["total"], q["rank"]) for q in data["players"]] == [(10, 1), (10, 1), (9, 3)]
    assert data["winners"] == ["Ann", "Ben"]


def test_harvested_may_be_a_list_of_sums_a_sum_a_number_or_values_with_commas():
    # each form of 10+20-10 = 20
    forms = [[10, 20, -10], ["10+20", "-10"], "10+20-10", "10, 20, -10", 20, "20"]
    data = scored([p(f"P{n}", form) for n, form in enumerate(forms)])
    assert [q["total"] for q in data["players"]] == [20] * 6
    assert data["winners"] == [f"P{n}" for n in range(6)]


def test_twelve_players_use_two_boxes_of_tokens():
    # 7+ players: two boxes, 10 tokens of each kind; 10 cabbages over the table are fine
    # Q1 holds 4 cabbages alone at the top -> +3: Q1 1 + 3 = 4, the others 1 each
    players = (
        [p("Q1", [1], veg1=4)]
        + [p(f"Q{n}", [1], veg1=1) for n in range(2, 8)]
        + [p(f"Q{n}", [1]) for n in range(8, 13)]
    )
    data = scored(players)
    assert [q["total"] for q in data["players"]] == [4] + [1] * 11
    assert data["winners"] == ["Q1"]


def test_a_small_game_with_two_boxes_says_so():
    # 4 players with boxes: 2 -> 10 tokens of a kind exist; 6 corn tokens over the table are fine
    # Ann corn 4 alone -> +3: 0 + 3 = 3
    data = scored([p("Ann", [0], veg2=4), p("Ben", [1], veg2=2), p("Cat", [2]), p("Dan", [1])], boxes=2)
    assert [q["total"] for q in data["players"]] == [3, 1, 2, 1]


def test_a_variant_layout_changes_the_bonus_and_the_supply_without_python():
    # variant.yaml: majority 5, 4 tokens per box. Alice 4 + veg2 (4 alone) 5 = 9;
    # Bob 6 + veg1 (1 alone) 5 = 11; Carol 7 (the record gives the old names corn, cabbage)
    out = run("score", str(FIX / "variant-game.yaml"), "--format", "json")
    assert out.exit_code == 0, out.output
    assert [q["total"] for q in json.loads(out.stdout)["players"]] == [9, 11, 7]
    data = score_data(
        {"layout": str(FIX / "variant.yaml"), "players": [p("A", [1], veg2=3), p("B", [1], veg2=2), p("C", [1])]},
        "game.yaml",
    ).contract()
    assert data["warnings"] == [
        "5 veg2 tokens in all (A 3, B 2), more than the 4 of a kind that one box holds by our house count "
        "(the rules give fifteen tokens a box, not how many of each); if you played with two boxes, "
        "add 'boxes: 2' to the record"
    ]


def test_categories_are_the_pads_labels():
    layout = load_layout("plante-bataille")
    assert pb.categories(layout) == [
        ("harvested", {"fr": "Somme des cartes", "en": "Sum of the cards"}),
        ("majority_veg1", {"fr": "Majorité légume 1 +3", "en": "Vegetable 1 majority +3"}),
        ("majority_veg2", {"fr": "Majorité légume 2 +3", "en": "Vegetable 2 majority +3"}),
        ("majority_veg3", {"fr": "Majorité légume 3 +3", "en": "Vegetable 3 majority +3"}),
    ]


# --------------------------------------------------------------------------- errors


def test_impossible_marks_are_errors_with_file_and_line():
    path = str(FIX / "bad.yaml")
    out = run("score", path)
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {path}:4: players[0] 'Alice': harvested[1]: expected a card value "
        "(a whole number or a sum like 10+20-5), got 'x'\n"
        f"{path}:4: players[0] 'Alice': harvested[3]: expected a card value "
        "(a whole number or a sum like 10+20-5), got 1.5\n"
        f"{path}:5: players[0] 'Alice': tokens.potato: unknown key; accepted keys: veg1, veg2, veg3 "
        "(old names: cabbage, corn, tomato)\n"
        f"{path}:5: players[0] 'Alice': tokens.corn: expected 0 or more, got a negative count -1\n"
        f"{path}:7: players[1] 'Bob': harvested: expected card values "
        "(a list like [4, -2, 3] or a sum like 10+20-10), got 'ten'\n"
        f"{path}:10: players[2] 'Carol': harvested: expected card values "
        "(a list like [4, -2, 3] or a sum like 10+20-10), got a mapping\n"
        f"{path}:11: players[2] 'Carol': tokens: expected a mapping of veg1, veg2, veg3, got 2\n"
    )


HOUSE = "by our house count (the rules give fifteen tokens a box, not how many of each)"


def test_more_tokens_of_a_kind_than_the_box_holds_is_a_warning():
    # The split of « les quinze jetons Légume » is a house number: the game scores, with warnings.
    # Alice 4; Bob 3 + veg2 (4 alone) 3 = 6; Carol 2 - 1 = 1; veg1 3 / 3: tied, nobody.
    path = str(FIX / "too-many-tokens.yaml")
    out = run("score", path, "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [(q["name"], q["total"]) for q in data["players"]] == [("Alice", 4), ("Bob", 6), ("Carol", 1)]
    assert data["warnings"] == [
        f"6 veg1 tokens in all (Alice 3, Bob 3), more than the 5 of a kind that one box holds {HOUSE}; "
        "if you played with two boxes, add 'boxes: 2' to the record",
        f"6 veg2 tokens in all (Alice 2, Bob 4), more than the 5 of a kind that one box holds {HOUSE}; "
        "if you played with two boxes, add 'boxes: 2' to the record",
    ]


def test_more_tokens_than_two_boxes_hold_is_a_warning():
    players = [p(f"Q{n}", [1], veg3=2) for n in range(1, 7)] + [p("Q7", [1])]
    assert scored(players)["warnings"] == [
        f"12 veg3 tokens in all (Q1 2, Q2 2, Q3 2, Q4 2, Q5 2, Q6 2), more than the 10 of a kind that two boxes "
        f"hold {HOUSE}"
    ]


def test_old_records_name_the_kinds_cabbage_corn_tomato():
    # The old pad printed cabbage, corn, tomato in that order: they read as veg1, veg2, veg3.
    # game.yaml (old names) by hand: Alice 11 + veg1 (3 alone) 3 = 14; Bob 9 (veg2 1 / 1 tied);
    # Carol 7 + veg3 (2 alone) 3 = 10. The same record with the new names scores the same.
    text = (FIX / "game.yaml").read_text(encoding="utf-8")
    assert "cabbage:" in text
    old = score_data(yaml.safe_load(text), "old.yaml").contract()
    for a, b in (("cabbage", "veg1"), ("corn", "veg2"), ("tomato", "veg3")):
        text = text.replace(a + ":", b + ":")
    new = score_data(yaml.safe_load(text), "new.yaml").contract()
    assert [q["total"] for q in old["players"]] == [14, 9, 10]
    assert list(old["players"][0]["breakdown"]) == ["harvested", "majority_veg1", "majority_veg2", "majority_veg3"]
    assert new["players"] == old["players"] and new["winners"] == old["winners"] == ["Alice"]


def test_a_kind_and_its_old_name_together_is_an_error():
    assert errors([p("A", [1], veg1=1, cabbage=2), p("B", [1], corn=1), p("C", [1])]) == [
        "game.yaml: players[0] 'A': tokens.cabbage: both 'veg1' and its old name 'cabbage' are given; keep one"
    ]


def test_fewer_than_three_players_is_an_error():
    path = str(FIX / "two-players.yaml")
    out = run("score", path)
    assert out.exit_code == 1
    assert out.output == f"Error: {path}:2: players: plante-bataille is played by 3-12 players, got 2\n"


def test_one_box_cannot_hold_seven_players():
    path = str(FIX / "one-box-seven-players.yaml")
    out = run("score", path)
    assert out.exit_code == 1
    assert (
        out.output == f"Error: {path}:2: boxes: one box plays 3-6 players, this record has 7 "
        "(two boxes play up to 12)\n"
    )


def test_boxes_is_one_or_two():
    assert errors([p("A", [1]), p("B", [1]), p("C", [1])], boxes=3) == ["game.yaml: boxes: expected 1-2, got 3"]


def test_harvested_is_required():
    assert errors([{"name": "A"}, p("B", [1]), p("C", [1])]) == ["game.yaml: players[0] 'A': missing key 'harvested'"]


# --------------------------------------------------------------------------- CLI


def test_render_six_players(tmp_path):
    out = run("render", "plante-bataille", "--players", "6", "--lang", "fr", "-o", str(tmp_path / "pad.pdf"))
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"wrote {tmp_path / 'pad.pdf'} (1 page, ")
    assert (tmp_path / "pad.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("n", ["2", "13"])
def test_render_refuses_a_player_count_outside_the_pad(tmp_path, n):
    out = run("render", "plante-bataille", "--players", n, "-o", str(tmp_path / "pad.pdf"))
    assert out.exit_code == 2
    assert f"Invalid value for '--players': plante-bataille is for 3-12 players, got {n}" in out.output


def test_score_table_output():
    out = run("score", str(FIX / "game.yaml"), "--lang", "en")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].endswith("Alice  Bob  Carol")
    assert lines[2].split() == ["Sum", "of", "the", "cards", "11", "9", "7"]
    assert lines[3].split() == ["Vegetable", "1", "majority", "+3", "3", "0", "0"]
    assert lines[-1] == "Winner: Alice"
    fr = run("score", str(FIX / "game.yaml"), "--lang", "fr")
    assert "Majorité légume 3 +3" in fr.output and fr.output.splitlines()[-1] == "Gagnant : Alice"


def test_score_csv():
    out = run("score", str(FIX / "game.yaml"), "--format", "csv")
    assert out.exit_code == 0
    rows = out.output.splitlines()
    assert rows[0] == "record,layout,player,harvested,majority_veg1,majority_veg2,majority_veg3,total,rank,winner"
    assert rows[1].endswith(",plante-bataille,Alice,11,3,0,0,14,1,yes")


def test_template_for_four_players_scores_as_a_shared_victory(tmp_path):
    out = run("template", "plante-bataille", "--players", "4")
    assert out.exit_code == 0, out.output
    record = yaml.safe_load(out.stdout)
    assert record["layout"] == "plante-bataille" and record["boxes"] == 1
    assert record["players"][0] == {"name": "Player 1", "harvested": [], "tokens": {"veg1": 0, "veg2": 0, "veg3": 0}}
    assert len(record["players"]) == 4
    assert "# boxes played with: 1 (3-6 players) or 2 (up to 12); sets the token supply" in out.output
    path = tmp_path / "blank.yaml"
    path.write_text(out.output, encoding="utf-8")
    scored_out = run("score", str(path), "--format", "json")
    assert scored_out.exit_code == 0, scored_out.output
    data = json.loads(scored_out.stdout)
    # nothing harvested, no token: everyone 0, everyone wins
    assert [(q["total"], q["rank"]) for q in data["players"]] == [(0, 1)] * 4
    assert len(data["winners"]) == 4


def test_template_for_eight_players_says_two_boxes():
    out = run("template", "plante-bataille", "--players", "8")
    assert out.exit_code == 0
    assert yaml.safe_load(out.stdout)["boxes"] == 2


def test_interactive_entry_takes_values_with_commas():
    # A: 4 - 2 + (3+1) = 6, cabbage 2 alone -> +3 = 9; B: 10-3 = 7; C: no cards, tomato 1 alone -> 3
    typed = "A\n4, -2, 3+1\n2\n0\n0\nB\n10-3\n\n\n\nC\n\n0\n0\n1\n\n"
    out = run("score", "plante-bataille", "-i", "--players", "3", "--format", "json", input=typed)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output[out.output.index("{") :])
    assert [(q["name"], q["total"]) for q in data["players"]] == [("A", 9), ("B", 7), ("C", 3)]


# --------------------------------------------------------------------------- the pad


def test_the_pad_reads_its_constants_and_marks_house_defaults():
    layout = load_layout("plante-bataille")
    assert layout.players == {"min": 3, "max": 12, "default": 6}
    assert pb.token_kinds(layout) == ["veg1", "veg2", "veg3"]
    assert pb.token_aliases(layout) == {"cabbage": "veg1", "corn": "veg2", "tomato": "veg3"}
    assert pb.majority_bonus(layout) == 3
    assert [pb.supply(layout, pb.default_boxes(layout, n)) for n in (3, 6, 7, 12)] == [5, 5, 10, 10]
    assert layout.unverified == ["constants.tokens_per_box"]
    rows = [r["id"] for r in layout.element("score")["rows"]]
    for kind in pb.token_kinds(layout):
        assert f"tokens_{kind}" in rows and f"majority_{kind}" in rows


@pytest.mark.parametrize("players,width", [(3, 48.0), (6, 24.0), (12, 12.0)])
def test_player_columns_stay_wide_enough_to_write(players, width):
    # (194mm - 50mm label column) / players; at least 7mm for a pencil
    layout = load_layout("plante-bataille")
    prims = layout.display(layout.pages[0], "en", players)
    cells = [b for b in prims if isinstance(b, Box) and b.field and b.field.startswith("total_p")]
    assert len(cells) == players
    assert {round(b.w, 3) for b in cells} == {width}
    names = [b for b in prims if isinstance(b, Box) and b.field and b.field.startswith("name_p")]
    assert min(b.w for b in names) >= 7


# --------------------------------------------------------------------------- the majority ticks


def test_majority_ticks_are_checked_against_the_tokens_not_scored():
    """The pad's majority rows are ticks (a record's `majorities`): the tokens give the
    majorities; a tick that disagrees is warned of, and the totals do not move."""
    ticked = [
        {**p("Ann", [5], veg1=2, veg2=1), "majorities": ["veg1", "veg2"]},
        {**p("Ben", [4], veg2=1), "majorities": []},
        {**p("Cy", [3], veg3=2), "majorities": []},
    ]
    plain = [p("Ann", [5], veg1=2, veg2=1), p("Ben", [4], veg2=1), p("Cy", [3], veg3=2)]
    got, want = scored(ticked), scored(plain)
    assert [q["total"] for q in got["players"]] == [q["total"] for q in want["players"]] == [8, 4, 6]
    assert got["warnings"] == [
        "players[0] 'Ann': majorities: the veg2 majority is ticked, but 1 veg2 tokens: a tie for the lead "
        "(Ann, Ben) gives it to nobody",
        "players[2] 'Cy': majorities: 2 veg3 tokens, the most, but the veg3 majority is not ticked",
    ]
    assert want["warnings"] == []
