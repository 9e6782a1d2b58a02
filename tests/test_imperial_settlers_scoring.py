"""Imperial Settlers: Roll & Write rules: worked examples, tie-breakers, colonies,
every error (what the sheet cannot hold) and warning (what the rules forbid).

The numbers below are the house defaults printed by layouts/imperial-settlers.yaml:

  walls      sections of 1, 2, 2, 3, 3 boxes (completed after 1, 3, 5, 8, 11), values 1, 3, 6, 10, 15
  houses     same sections, values 1, 3, 6, 10, 15
  granaries  same sections, values 1, 2, 5, 9, 14
  bridges    same sections (bridges A-E), values 1, 2, 4, 7, 11
  fields     groups A-E of 2, 3, 3, 4, 4 boxes: open after 0-5 bridges: 0, 2, 5, 8, 12, 16 boxes
  buildings  none built at the start: sawmill 2 boxes and tavern 2 boxes (no points),
             workshop 3 boxes 2 points, mill 4 boxes 3 points, forum 5 boxes 2 points per bridge,
             architects 4 boxes 4 points (advanced rules: on the basic layout they score 0)
  advanced   ladders: sawmill 1 2 3, tavern 1 2 3, workshop 1 2, mill 1 2 3 (abilities),
             forum 2 3 4 and architects 4 6 8 (their points); blueprints of
             2, 2, 3, 3, 4 and 4 sections.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import record_text, score_text

from sheetgen.cli import cli
from sheetgen.errors import RecordError
from sheetgen.games import imperial_settlers as rules
from sheetgen.games import load_layout

BASIC = "imperial-settlers"
ADVANCED = "imperial-settlers-advanced"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "imperial-settlers"
CATEGORIES = ["walls", "houses", "granaries", "bridges", "buildings", "favors", "development"]


def player(
    walls=0, houses=0, granaries=0, bridges=0, fields=0, village=None, favors=0, development=0, colonies=None
) -> dict:
    p = {
        "empire": {"walls": walls, "houses": houses, "granaries": granaries, "bridges": bridges, "fields": fields},
        "village": village or {},
        "favors": favors,
        "development": development,
    }
    if colonies is not None:
        p["colonies"] = colonies
    return p


def record(layout=BASIC, **players) -> str:
    return record_text(layout, players)


def score(text: str, name="game.yaml"):
    return score_text(text, name)


def result(text: str) -> dict:
    return score(text).contract()


def problems(text: str) -> list[str]:
    with pytest.raises(RecordError) as exc:
        score(text)
    return exc.value.lines


def run(*args):
    return CliRunner().invoke(cli, list(args))


# ----------------------------------------------------------------------------- worked examples


def test_partial_sections_and_the_first_tie_breaker():
    # Alice: walls 4 boxes -> sections of 1 and 2 complete (3 boxes), the third holds 1 of 2:
    #   partial, so walls score the second section's 3. Houses 10 -> four sections (8 boxes)
    #   complete, the fifth partial: 10. Granaries 0: 0. Bridges 3 -> two bridges (A, B): 2.
    #   Fields 5 = A (2) + B (3): all open. Workshop finished: 2; mill 3 of 4 boxes: 0;
    #   forum finished: 2 per bridge x 2 bridges = 4 -> buildings 6. Favours 6, development 2+1.
    #   Total 3 + 10 + 0 + 2 + 6 + 6 + 3 = 30.
    # Bob: walls 11 -> 15; granaries 5 -> three sections: 5; bridges 1 -> bridge A: 1;
    #   fields 2 (A open); mill finished: 3; favours 2; development 4.
    #   Total 15 + 0 + 5 + 1 + 3 + 2 + 4 = 30.
    # Tied at 30: Alice built 2 bridges, Bob 1 -> Alice wins.
    alice = player(
        walls=4,
        houses=10,
        bridges=3,
        fields=5,
        village={"workshop": 3, "mill": 3, "forum": 5},
        favors=6,
        development="2+1",
    )
    bob = player(walls=11, granaries=5, bridges=1, fields=2, village={"mill": 4}, favors=2, development=4)
    r = result(record(Alice=alice, Bob=bob))
    assert r["layout"] == BASIC and r["game"] == "imperial-settlers"
    assert r["players"][0]["breakdown"] == {
        "walls": 3,
        "houses": 10,
        "granaries": 0,
        "bridges": 2,
        "buildings": 6,
        "favors": 6,
        "development": 3,
    }
    assert r["players"][1]["breakdown"] == {
        "walls": 15,
        "houses": 0,
        "granaries": 5,
        "bridges": 1,
        "buildings": 3,
        "favors": 2,
        "development": 4,
    }
    assert [p["total"] for p in r["players"]] == [30, 30]
    assert [p["rank"] for p in r["players"]] == [1, 2]
    assert r["winners"] == ["Alice"]
    assert r["warnings"] == []


def test_second_tie_breaker_field_boxes_harvested():
    # Carol: walls 3 -> 3; bridges 3 -> two bridges: 2; fields 4; favours 5. Total 10.
    # Dan: houses 3 -> 3; bridges 4 -> still two bridges (C holds 1 of 2): 2; fields 5; favours 5. Total 10.
    # Equal totals, equal bridges (2 each): Dan harvested 5 field boxes, Carol 4 -> Dan wins.
    carol = player(walls=3, bridges=3, fields=4, favors=5)
    dan = player(houses=3, bridges=4, fields=5, favors=5)
    r = result(record(Carol=carol, Dan=dan))
    assert [p["total"] for p in r["players"]] == [10, 10]
    assert [p["rank"] for p in r["players"]] == [2, 1]
    assert r["winners"] == ["Dan"]


def test_shared_victory_when_both_tie_breakers_are_equal():
    # Eve: walls 5 -> three sections: 6; bridge A: 1; fields 2. Total 7.
    # Finn: houses 3 -> 3; bridge A: 1; fields 2; favours 3. Total 7.
    # Gus: favours 1. Total 1.
    # Eve and Finn: 7, 1 bridge, 2 field boxes each -> shared victory; Gus third (1, 1, 3).
    eve = player(walls=5, bridges=1, fields=2)
    finn = player(houses=3, bridges=1, fields=2, favors=3)
    gus = player(favors=1)
    r = result(record(Eve=eve, Finn=finn, Gus=gus))
    assert [p["total"] for p in r["players"]] == [7, 7, 1]
    assert [p["rank"] for p in r["players"]] == [1, 1, 3]
    assert r["winners"] == ["Eve", "Finn"]


@pytest.mark.parametrize(
    "boxes, walls, granaries",
    [
        (0, 0, 0),
        (1, 1, 1),
        (2, 1, 1),
        (3, 3, 2),
        (4, 3, 2),
        (5, 6, 5),
        (7, 6, 5),
        (8, 10, 9),
        (10, 10, 9),
        (11, 15, 14),
    ],
)
def test_each_track_scores_its_rightmost_completed_section(boxes, walls, granaries):
    r = result(record(A=player(walls=boxes, granaries=boxes), B=player()))
    b = r["players"][0]["breakdown"]
    assert (b["walls"], b["granaries"]) == (walls, granaries)


def test_buildings_score_only_when_finished():
    # Workshop 2 of 3 boxes: 0; mill 4 of 4: 3; forum 5 of 5 with no bridge: 2 x 0 = 0.
    r = result(record(A=player(village={"workshop": 2, "mill": 4, "forum": 5}), B=player()))
    assert r["players"][0]["breakdown"]["buildings"] == 3


@pytest.mark.parametrize("boxes", [0, 1, 2])
def test_nothing_is_built_at_the_start(boxes):
    # « Les six bâtiments du Village se construisent en cochant leurs cases »: a Sawmill or a
    # Tavern with 0, 1 or 2 of its 2 boxes is a fine record; they print no points, so the
    # buildings score 0 either way. A: walls 1 -> 1. Total 1.
    r = result(record(A=player(walls=1, village={"sawmill": boxes, "tavern": boxes}), B=player()))
    assert r["players"][0]["breakdown"]["buildings"] == 0
    assert [p["total"] for p in r["players"]] == [1, 0]
    assert r["warnings"] == []


def test_forum_counts_completed_bridges_only():
    # Bridges 10 boxes: A-D complete (8 boxes), E holds 2 of 3 -> 4 bridges: forum 2 x 4 = 8;
    # bridges track 7. Fields 12 = A-D (2+3+3+4): all open, no warning.
    r = result(record(A=player(bridges=10, fields=12, village={"forum": 5}), B=player()))
    assert r["players"][0]["breakdown"]["buildings"] == 8
    assert r["players"][0]["breakdown"]["bridges"] == 7
    assert r["warnings"] == []


def test_numbers_may_be_typed_as_sums():
    r = result(record(A=player(walls="3+2", favors="4+4-1", development="1+1+1"), B=player()))
    b = r["players"][0]["breakdown"]
    assert (b["walls"], b["favors"], b["development"]) == (6, 7, 3)


def test_advanced_colonies_move_the_underlined_value_up_the_ladder():
    # Alice: walls 7 -> 6; houses 11 -> 15; granaries 2 -> 1; bridges 5 -> three bridges: 4.
    #   Fields 6 (A-C open 8). Workshop finished 2; mill 2 of 4: 0; forum finished: printed 2 per
    #   bridge x 3 = 6; architects finished 4 -> buildings 12. Favours 4, development 3+2 = 5.
    #   Colonies: forum 1 -> its points 2 become 3: (3 - 2) x 3 bridges = 3; architects 1 -> 4 becomes
    #   6: +2; sawmill 1 -> its ability (wood) improves, no points. Colonies 5.
    #   Sections needed: 4 + 4 + 2 = 10; completed: walls 3 + houses 5 + granaries 1 + bridges 3 = 12.
    #   Total 6 + 15 + 1 + 4 + 12 + 4 + 5 + 5 = 52.
    # Bob: nothing but the printed buildings: 0.
    alice = player(
        walls=7,
        houses=11,
        granaries=2,
        bridges=5,
        fields=6,
        village={"workshop": 3, "mill": 2, "forum": 5, "architects": 4},
        favors=4,
        development="3+2",
        colonies={"forum": 1, "architects": 1, "sawmill": 1},
    )
    r = result(record(ADVANCED, Alice=alice, Bob=player()))
    assert r["players"][0]["breakdown"] == {
        "walls": 6,
        "houses": 15,
        "granaries": 1,
        "bridges": 4,
        "buildings": 12,
        "favors": 4,
        "development": 5,
        "colonies": 5,
    }
    assert r["players"][0]["total"] == 52
    assert r["players"][1]["breakdown"]["colonies"] == 0
    assert r["warnings"] == []


def test_top_of_the_ladder_and_colonies_on_an_unfinished_building():
    # Architects finished with 2 colonies: 8 instead of 4 -> colonies 4. Forum 4 of 5 boxes with
    # 2 colonies: unfinished, no points and no gain. Sections: 2 x 4 + 2 x 4 = 16, completed:
    # 5 + 5 + 5 + 1 = 16.
    alice = player(
        walls=11,
        houses=11,
        granaries=11,
        bridges=1,
        village={"architects": 4, "forum": 4},
        colonies={"architects": 2, "forum": 2},
    )
    b = result(record(ADVANCED, A=alice, B=player()))["players"][0]["breakdown"]
    assert (b["buildings"], b["colonies"]) == (4, 4)


def test_the_scorer_reads_the_numbers_from_the_layout():
    layout = load_layout(BASIC)
    assert rules.track_points(layout.element("walls"), 8) == 10
    assert rules.completed_sections(layout.element("bridges"), 10) == 4
    assert rules.open_fields(layout, 3) == (5, ["A", "B"])
    assert [b["id"] for b in rules.buildings(layout)] == [
        "sawmill",
        "tavern",
        "workshop",
        "mill",
        "forum",
        "architects",
    ]
    assert [c for c, _ in rules.categories(layout)] == CATEGORIES
    assert [c for c, _ in rules.categories(load_layout(ADVANCED))] == CATEGORIES + ["colonies"]


def test_a_variant_layout_scores_with_its_own_values():
    # fixtures/imperial-settlers/variant.yaml: walls worth 2, 4, 8, 12, 20; the forum worth 3 per
    # bridge; the mill worth 1 per field box harvested. Walls 8 -> 12; bridges 3 -> two bridges (2);
    # forum 3 x 2 = 6; fields 5 (A and B open 5) -> mill 1 x 5 = 5; buildings 11. Total 25.
    out = run("score", str(FIXTURES / "variant-game.yaml"), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["layout"] == "imperial-settlers-variant"
    b = data["players"][0]["breakdown"]
    assert (b["walls"], b["bridges"], b["buildings"]) == (12, 2, 11)
    assert data["players"][0]["total"] == 25
    assert data["warnings"] == []


def test_a_variant_building_counting_a_track_records_do_not_hold():
    path = FIXTURES / "towers-game.yaml"
    out = run("score", str(path))
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {path}:1: layout: the building 'watch' counts per track 'towers', which game "
        f"records do not hold (they hold walls, houses, granaries, bridges, fields)\n"
    )


# ----------------------------------------------------------------------------- errors: the sheet cannot hold it

BAD = """\
layout: imperial-settlers
players:
  - name: Alice
    empire: {walls: 12, houses: -1, granaries: "2+x", bridges: 0, fields: 17}
    village: {sawmill: 1, workshop: 4, temple: 2}
    favors: -2
    development: 0
    colonies: {forum: 1}
  - name: Bob
    empire: {walls: 0, houses: 0, granaries: 0, bridges: 12}
    village: {architects: 5}
    favors: 0
    development: -3
"""


def test_every_impossible_mark_is_reported_at_once():
    assert problems(BAD) == [
        "game.yaml:4: players[0] 'Alice': empire.walls: expected 0-11 (the walls track has 11 boxes), got 12",
        "game.yaml:4: players[0] 'Alice': empire.houses: expected 0-11, got a negative count -1",
        "game.yaml:4: players[0] 'Alice': empire.granaries: expected a whole number or a sum like 10+20-5, got '2+x'",
        "game.yaml:4: players[0] 'Alice': empire.fields: expected 0-16 (the fields have 16 boxes), got 17",
        "game.yaml:5: players[0] 'Alice': village.workshop: expected 0-3 (the Workshop card has 3 boxes), got 4",
        "game.yaml:5: players[0] 'Alice': village.temple: unknown building 'temple'; the buildings are: "
        "sawmill, tavern, workshop, mill, forum, architects",
        "game.yaml:6: players[0] 'Alice': favors: expected 0 or more, got a negative count -2",
        "game.yaml:8: players[0] 'Alice': colonies.forum: 1 colony, but colonies belong to the advanced rules "
        "and this layout (imperial-settlers) prints no blueprints; score the game on an advanced layout such "
        "as imperial-settlers-advanced",
        "game.yaml:10: players[1] 'Bob': empire.bridges: expected 0-11 (the bridges track has 11 boxes), got 12",
        "game.yaml:10: players[1] 'Bob': empire: missing key 'fields'",
        "game.yaml:11: players[1] 'Bob': village.architects: expected 0-4 (the Architects card has 4 boxes), got 5",
        "game.yaml:13: players[1] 'Bob': development: expected 0 or more, got a negative count -3",
    ]


BAD_ADVANCED = """\
layout: imperial-settlers-advanced
players:
  - name: Alice
    empire: {walls: 0, houses: 0, granaries: 0, bridges: 0, fields: 0}
    village: {}
    favors: 0
    development: 0
    colonies: {workshop: 2, architects: 3, forum: -1, castle: 1, mill: "one"}
"""


def test_colony_errors_beyond_the_ladder_and_unknown_buildings():
    assert problems(BAD_ADVANCED) == [
        "game.yaml:8: players[0] 'Alice': colonies.workshop: 2 colonies, but the Workshop ladder (1, 2) "
        "has room for 1 colony",
        "game.yaml:8: players[0] 'Alice': colonies.architects: 3 colonies, but the Architects ladder (4, 6, 8) "
        "has room for 2 colonies",
        "game.yaml:8: players[0] 'Alice': colonies.forum: expected 0-2, got a negative count -1",
        "game.yaml:8: players[0] 'Alice': colonies.castle: unknown building 'castle'; the buildings are: "
        "sawmill, tavern, workshop, mill, forum, architects",
        "game.yaml:8: players[0] 'Alice': colonies.mill: expected a whole number or a sum like 10+20-5, got 'one'",
    ]


@pytest.mark.parametrize(
    "fields, message",
    [
        (
            {"empire": "all"},
            "4: players[0] 'A': empire: expected a mapping of walls, houses, granaries, bridges, fields, got 'all'",
        ),
        (
            {"empire": {"walls": 0, "houses": 0, "granaries": 0, "bridges": 0, "fields": 0, "towers": 1}},
            "4: players[0] 'A': empire.towers: unknown key; accepted keys: bridges, fields, granaries, houses, walls",
        ),
        ({"village": [3]}, "5: players[0] 'A': village: expected a mapping of building id: boxes checked, got a list"),
        (
            {"colony": {}},
            "8: players[0] 'A': colony: unknown key; accepted keys: colonies, development, empire, "
            "favors, name, village",
        ),
    ],
)
def test_record_shape_errors(fields, message):
    p = {**player(), **fields}
    assert problems(record(A=p, B=player())) == [f"game.yaml:{message}"]


def test_cli_prints_errors_exit_1_no_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    out = run("score", str(path), "--format", "json")
    assert out.exit_code == 1
    assert out.output.startswith(
        f"Error: {path}:4: players[0] 'Alice': empire.walls: expected 0-11 (the walls track has 11 boxes), got 12\n"
    )
    assert "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 12


# ----------------------------------------------------------------------------- warnings: against the rules


def test_fields_beyond_those_the_bridges_open():
    # A: bridges 3 -> A, B open 2 + 3 = 5 boxes; 6 harvested. B: bridge A opens 2; 3 harvested.
    # C: no bridge, 1 harvested. All score (fields score nothing themselves; C's tie-breaker counts 1).
    r = result(record(A=player(bridges=3, fields=6), B=player(bridges=1, fields=3), C=player(fields=1)))
    assert r["warnings"] == [
        "players[0] 'A': empire.fields: 6 field boxes harvested, but the completed bridges (A, B) open only 5; "
        "a field opens when its bridge is finished",
        "players[1] 'B': empire.fields: 3 field boxes harvested, but the completed bridge (A) opens only 2; "
        "a field opens when its bridge is finished",
        "players[2] 'C': empire.fields: 1 field box harvested, but no field is open (no bridge completed); "
        "a field opens when its bridge is finished",
    ]
    assert [p["total"] for p in r["players"]] == [2, 1, 0]


def test_architects_in_a_basic_game_score_0_with_a_warning():
    # « le bâtiment Architectes sera introduit avec les règles avancées »: on the basic layout the
    # Architects (advanced: true) are not part of the game. A: finished (4 of 4 boxes) and the
    # workshop finished (2): buildings 2, not 6. B: 2 boxes ("1+1"): 0. C: 1 box: 0. D: none, no warning.
    r = result(
        record(
            A=player(village={"architects": 4, "workshop": 3}),
            B=player(village={"architects": "1+1"}),
            C=player(village={"architects": 1}),
            D=player(),
        )
    )
    assert [p["breakdown"]["buildings"] for p in r["players"]] == [2, 0, 0, 0]
    assert [p["total"] for p in r["players"]] == [2, 0, 0, 0]
    assert r["warnings"] == [
        "players[0] 'A': village.architects: 4 boxes checked on the Architects, a building of the advanced rules "
        "that a basic game (imperial-settlers) leaves out: it scores 0",
        "players[1] 'B': village.architects: 2 boxes checked on the Architects, a building of the advanced rules "
        "that a basic game (imperial-settlers) leaves out: it scores 0",
        "players[2] 'C': village.architects: 1 box checked on the Architects, a building of the advanced rules "
        "that a basic game (imperial-settlers) leaves out: it scores 0",
    ]


def test_a_tie_made_by_the_architects_no_longer_scoring():
    # Alice: walls 11 -> 15; architects finished; favours 5. Basic: 15 + 0 + 5 = 20 (the Architects'
    #   4 points would make 24). Bridges 0, fields 0.
    # Bob: houses 8 -> 10; bridges 3 -> two bridges: 2; fields 5 (A, B open 5); favours 8. Total 20.
    # Basic: tied at 20, Bob built 2 bridges, Alice none -> Bob wins, Alice second.
    # The same sheets on the advanced layout: the Architects score 4 -> Alice 24 wins outright.
    alice = player(walls=11, village={"architects": 4}, favors=5)
    bob = player(houses=8, bridges=3, fields=5, favors=8)
    basic = result(record(Alice=alice, Bob=bob))
    assert [p["total"] for p in basic["players"]] == [20, 20]
    assert [p["rank"] for p in basic["players"]] == [2, 1]
    assert basic["winners"] == ["Bob"]
    assert len(basic["warnings"]) == 1 and basic["warnings"][0].startswith("players[0] 'Alice': village.architects:")
    advanced = result(record(ADVANCED, Alice=alice, Bob=bob))
    assert [p["total"] for p in advanced["players"]] == [24, 20]
    assert advanced["winners"] == ["Alice"] and advanced["warnings"] == []


def test_which_buildings_a_basic_game_leaves_out_comes_from_the_layout(tmp_path):
    # A variant marks the Mill `advanced: true` (and frees the Architects): on this basic layout a
    # finished Mill scores 0 with the warning, finished Architects their 4 points.
    (tmp_path / "v.yaml").write_text(
        "id: is-advanced-mill\nextends: imperial-settlers\npages:\n  - id: village\n    elements:\n"
        "      - {id: mill, advanced: true}\n      - {id: architects, advanced: false}\n",
        encoding="utf-8",
    )
    text = record("v.yaml", A=player(village={"mill": 4, "architects": 4}), B=player())
    r = score_text(text, str(tmp_path / "game.yaml")).contract()
    assert r["players"][0]["breakdown"]["buildings"] == 4
    assert r["warnings"] == [
        "players[0] 'A': village.mill: 4 boxes checked on the Mill, a building of the advanced rules "
        "that a basic game (is-advanced-mill) leaves out: it scores 0"
    ]


def test_architects_in_advanced_mode_are_no_warning():
    r = result(record(ADVANCED, A=player(village={"architects": 4}), B=player()))
    assert r["warnings"] == []
    assert r["players"][0]["breakdown"]["buildings"] == 4


def test_colonies_need_completed_sections():
    # Forum 1 colony (4 sections) + tavern 1 (2) = 6 sections; completed: walls 3 (5 boxes) + bridge A = 4.
    a = player(walls=5, bridges=1, colonies={"forum": 1, "tavern": 1})
    b = player(walls=3, colonies={"sawmill": 1})  # 2 sections needed, 2 completed: fine
    c = player(walls=1, colonies={"mill": 1})  # 3 needed, 1 completed
    r = result(record(ADVANCED, A=a, B=b, C=c))
    assert r["warnings"] == [
        "players[0] 'A': colonies: 2 colonies need 6 completed sections, but the empire has only 4 "
        "(a section serves one colony only)",
        "players[2] 'C': colonies: 1 colony needs 3 completed sections, but the empire has only 1 "
        "(a section serves one colony only)",
    ]


def test_a_single_player_is_warned():
    r = result(record(Solo=player(walls=1)))
    assert r["warnings"] == [
        "a single player: the seed's solo games use the Adventure villages, not this Competition village"
    ]
    assert r["winners"] == ["Solo"]


# ----------------------------------------------------------------------------- command line


def test_template_round_trips_for_both_layouts(tmp_path):
    architects = {BASIC: "advanced rules: left out of a basic game, scores 0", ADVANCED: "advanced rules only"}
    for layout, colonies in ((BASIC, False), (ADVANCED, True)):
        out = run("template", layout, "--players", "2")
        assert out.exit_code == 0, out.output
        text = out.output
        assert text.count("  - name: ") == 2
        assert "      # Sawmill: boxes checked (0-2)\n      sawmill: 0\n" in text
        assert f"      # Architects: boxes checked ({architects[layout]}) (0-4)\n      architects: 0\n" in text
        assert ("colonies:" in text) == colonies
        path = tmp_path / f"{layout}.yaml"
        path.write_text(text, encoding="utf-8")
        scored = run("score", str(path), "--format", "json")
        assert scored.exit_code == 0, scored.output
        data = json.loads(scored.stdout)
        assert [p["total"] for p in data["players"]] == [0, 0]
        assert data["winners"] == ["Player 1", "Player 2"] and data["warnings"] == []


def test_score_table_and_csv(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(record(Alice=player(walls=4, bridges=3, fields=5), Bob=player(walls=11)), encoding="utf-8")
    table = run("score", str(path), "--lang", "fr")
    assert table.exit_code == 0, table.output
    lines = table.output.splitlines()
    assert lines[2].split() == ["Murs", "3", "15"]
    assert lines[-1] == "Gagnant : Bob"
    csv = run("score", str(path), "--format", "csv")
    assert csv.output.splitlines()[0] == (
        "record,layout,player,walls,houses,granaries,bridges,buildings,favors,development,total,rank,winner"
    )


def test_fixture_game_scores_from_the_command_line():
    # fixtures/imperial-settlers/game.yaml: the first worked example, written as players would.
    out = run("score", str(FIXTURES / "game.yaml"), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [(p["name"], p["total"], p["rank"]) for p in data["players"]] == [("Alice", 30, 1), ("Bob", 30, 2)]
    assert data["winners"] == ["Alice"]


def test_interactive_asks_colonies_on_the_advanced_sheet_only(tmp_path):
    # Basic: 5 empire counts, 6 buildings (Enter keeps the default: 0), favours,
    # development; no colony question. Ann is the first worked example's Alice: 30, Ben's 30 loses on bridges.
    ann = ["4", "10", "0", "3", "5", "", "", "3", "3", "5", "0", "6", "3"]
    ben = ["11", "", "5", "1", "2", "", "", "", "4", "", "", "2", "4"]
    answers = "\n".join(["2", "Ann", *ann, "Ben", *ben]) + "\n"
    saved = tmp_path / "saved.yaml"
    out = CliRunner().invoke(
        cli, ["score", BASIC, "--interactive", "--record", str(saved), "--format", "json"], input=answers
    )
    assert out.exit_code == 0, out.output
    assert "colonies." not in out.output.split("{", 1)[0]
    data = json.loads(out.output[out.output.index("{") :])
    assert [p["total"] for p in data["players"]] == [30, 30] and data["winners"] == ["Ann"]
    # Advanced: six more questions per player, one per building's colonies.
    answers = "\n".join(["1", "Solo", *([""] * 13), "", "", "", "", "1", ""]) + "\n"
    out = CliRunner().invoke(cli, ["score", ADVANCED, "--interactive", "--format", "json"], input=answers)
    assert out.exit_code == 0, out.output
    assert out.output.count("colonies.") == 6
    assert "Solo: colonies.forum — Forum: colonies made on its blueprint [0-2]" in out.output
