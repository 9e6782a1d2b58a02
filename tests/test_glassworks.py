"""River Valley Glassworks: worked examples, the column and tie rules, the bag's
limits, exact errors and warnings, the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.errors import LayoutError, RecordError
from sheetgen.games import glassworks, load_layout
from sheetgen.scoring.record import score_data
from sheetgen.yamlsrc import loads

LAYOUT = "river-valley-glassworks"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "glassworks"
CAPS_4 = [22, 22, 17, 17, 12, 12, 9, 9]
BAG_4 = "white 22, purple 22, light blue 17, dark blue 17, light green 12, dark green 12, yellow 9, orange 9"


def record(*players, layout=LAYOUT) -> str:
    """A record text; each player is (name, columns[, overflow])."""
    out = [f"layout: {layout}", "players:"]
    for name, columns, *overflow in players:
        out += [f"  - name: {name}", f"    columns: {json.dumps(columns)}"]
        if overflow:
            out.append(f"    overflow: {json.dumps(overflow[0])}")
    return "\n".join(out) + "\n"


def result(text: str, name: str = "game.yaml") -> dict:
    return score_data(loads(text, name), name).contract()


def errors(text: str, name: str = "game.yaml") -> list[str]:
    with pytest.raises(RecordError) as exc:
        score_data(loads(text, name), name)
    return exc.value.lines


def run(*args):
    return CliRunner().invoke(cli, list(args))


# ----------------------------------------------------------------------------- worked examples


def test_a_full_count_by_hand():
    # Alice: heights 5 4 3 3 2 0 1, 2 pieces in the overflow.
    #   row 1 (bottom): columns 1-5 hold a piece, column 6 is empty -> run 5 -> 15
    #   row 2: 5 4 3 3 2 are all >= 2 -> run 5 -> 15
    #   row 3: 5 4 3 3 >= 3, column 5 has 2 -> run 4 -> 10
    #   row 4: 5 4 >= 4 -> run 2 -> 3;  row 5: 5 -> run 1 -> 1
    #   tallest columns: column 1 (5 pieces) 1x5 = 5, column 2 (4) 2x4 = 8
    #   overflow 2 x -3 = -6.  Total 15+15+10+3+1+5+8-6 = 51 (18 pieces on the board)
    # Bob: heights 3 3 3 3 3 3 (column 7 left out, so empty), overflow "1+1".
    #   rows 1-3: run 6 -> 21 each; rows 4-5: 0
    #   six columns of 3: the two leftmost count, 1x3 + 2x3 = 9; overflow -6
    #   Total 63 + 9 - 6 = 66 (18 pieces)
    r = result(record(("Alice", [5, 4, 3, 3, 2, 0, 1], 2), ("Bob", [3, 3, 3, 3, 3, 3], "1+1")))
    alice, bob = r["players"]
    assert alice["breakdown"] == {
        "row_1": 15,
        "row_2": 15,
        "row_3": 10,
        "row_4": 3,
        "row_5": 1,
        "counted_column_1": 5,
        "counted_column_2": 8,
        "overflow": -6,
    }
    assert alice["total"] == 51
    assert bob["breakdown"] == {
        "row_1": 21,
        "row_2": 21,
        "row_3": 21,
        "row_4": 0,
        "row_5": 0,
        "counted_column_1": 3,
        "counted_column_2": 6,
        "overflow": -6,
    }
    assert bob["total"] == 66
    assert [p["rank"] for p in r["players"]] == [2, 1]
    assert r["winners"] == ["Bob"]
    assert r["warnings"] == []
    assert r["layout"] == LAYOUT and r["game"] == "river-valley-glassworks"


def test_equal_heights_count_the_leftmost_columns():
    # Heights 2 5 1 5 5: three columns of 5 (columns 2, 4, 5); the two leftmost count:
    # 2x5 = 10 and 4x5 = 20; column 5 (worth 25) does not.
    # Rows: row 1 run 5 -> 15; row 2: 2 5 then column 3 has 1 -> run 2 -> 3; rows 3-5:
    # column 1 has 2 -> 0.  Total 15 + 3 + 10 + 20 = 48.
    r = result(record(("Ann", [2, 5, 1, 5, 5]), ("Ben", [5, 5, 5, 2])))
    ann = r["players"][0]
    assert ann["breakdown"] == {
        "row_1": 15,
        "row_2": 3,
        "row_3": 0,
        "row_4": 0,
        "row_5": 0,
        "counted_column_1": 10,
        "counted_column_2": 20,
        "overflow": 0,
    }
    assert ann["total"] == 48


def test_a_taller_column_on_the_right_counts_before_a_shorter_one_on_the_left():
    # Heights 1 1 1 1 1 1 2: column 7 (2 pieces) is the tallest: 7x2 = 14; then the
    # leftmost of the columns of 1: column 1, 1x1 = 1.  Row 1 run 7 -> 28; row 2:
    # column 1 is empty there -> 0.  Total 28 + 14 + 1 = 43.
    r = result(record(("Ann", [1, 1, 1, 1, 1, 1, 2]), ("Ben", [5, 5, 5, 2])))
    assert r["players"][0]["breakdown"] == {
        "row_1": 28,
        "row_2": 0,
        "row_3": 0,
        "row_4": 0,
        "row_5": 0,
        "counted_column_1": 14,
        "counted_column_2": 1,
        "overflow": 0,
    }
    assert r["players"][0]["total"] == 43


def test_a_full_board_and_a_gap_that_cuts_every_row():
    # Full board: 5 rows of run 7 -> 5 x 28 = 140; all columns tie at 5: 1x5 + 2x5 = 15. 155.
    # Heights 5 5 0 5 5 5 5: every row stops at the empty column 3 -> run 2 -> 5 x 3 = 15;
    # columns 1 and 2 count (5 + 10): the rightmost, richer columns do not. 30.
    r = result(record(("Full", [5] * 7), ("Gap", [5, 5, 0, 5, 5, 5, 5])))
    assert [p["total"] for p in r["players"]] == [155, 30]
    assert r["players"][1]["breakdown"]["row_3"] == 3


def test_an_empty_board_scores_only_its_overflow():
    # No piece: every row and column 0; 3 discarded pieces -9.
    r = result(record(("Ann", [], 3), ("Ben", [5, 5, 5, 2])))
    assert r["players"][0]["total"] == -9
    assert r["players"][0]["breakdown"]["counted_column_1"] == 0


def test_tied_totals_share_the_victory_and_the_next_rank_skips():
    # Ann: 1 1 1 1 1 1 1 -> row 1 run 7 = 28; columns all 1: 1x1 + 2x1 = 3 -> 31.
    # Ben: 5 5 1 1, overflow 2 -> row 1 run 4 = 10; rows 2-5 run 2 = 3 each, 12;
    #      columns 1x5 + 2x5 = 15; overflow -6 -> 10 + 12 + 15 - 6 = 31.
    # Cy: 2 1 -> row 1 run 2 = 3; row 2 run 1 = 1; columns 1x2 + 2x1 = 4 -> 8.
    # No tie-breaker: Ann and Ben share the victory, Cy is third (1, 1, 3).
    r = result(record(("Ann", [1] * 7), ("Ben", [5, 5, 1, 1], 2), ("Cy", [2, 1])))
    assert [p["total"] for p in r["players"]] == [31, 31, 8]
    assert [p["rank"] for p in r["players"]] == [1, 1, 3]
    assert r["winners"] == ["Ann", "Ben"]
    # nobody reached the end trigger: the fullest board is Ben's, 12 pieces
    assert r["warnings"] == ["no board reached 17 pieces, the end trigger (the fullest holds 12: Ben)"]


def test_a_tie_below_the_winner_shares_second_place():
    # Cy: 5 5 5 2 -> rows: 10 + 10 + 6 + 6 + 6 = 38; columns 1x5 + 2x5 = 15 -> 53 (17 pieces).
    r = result(record(("Cy", [5, 5, 5, 2]), ("Ann", [1] * 7), ("Ben", [5, 5, 1, 1], 2)))
    assert [p["total"] for p in r["players"]] == [53, 31, 31]
    assert [p["rank"] for p in r["players"]] == [1, 2, 2]
    assert r["winners"] == ["Cy"]
    assert r["warnings"] == []


@pytest.mark.parametrize(
    "heights, row, run",
    [([0, 5, 5], 1, 0), ([1, 0, 5], 1, 1), ([5, 4, 3, 2, 1, 0, 0], 3, 3), ([5] * 7, 5, 7), ([2, 2], 3, 0)],
)
def test_run_length_reads_the_row_from_the_left_edge(heights, row, run):
    assert glassworks.run_length(heights, row) == run


def test_the_scorer_reads_the_values_from_the_layout():
    # A variant: rows worth 2 4 6 8 10 12 14, the overflow -1 each, 3 columns counted.
    # Heights 3 3 1 and 1 in the overflow: row 1 run 3 -> 6; rows 2-3 run 2 -> 4 each;
    # three counted columns: 1x3 + 2x3 + 3x1 = 12; overflow -1. Total 6 + 8 + 12 - 1 = 25.
    variant = FIXTURES / "variant.yaml"
    r = result(record(("Ann", [3, 3, 1], 1), ("Ben", [], 0), layout=str(variant)), str(FIXTURES / "game.yaml"))
    assert r["layout"] == "glassworks-variant"
    assert r["players"][0]["breakdown"] == {
        "row_1": 6,
        "row_2": 4,
        "row_3": 4,
        "row_4": 0,
        "row_5": 0,
        "counted_column_1": 3,
        "counted_column_2": 6,
        "counted_column_3": 3,
        "overflow": -1,
    }
    assert r["players"][0]["total"] == 25


def test_the_column_height_and_the_player_range_are_house_constants_of_the_layout():
    layout = load_layout(LAYOUT)
    for name in ("column_height", "players_min", "players_max", "row_values"):
        assert f"constants.{name}" in layout.unverified
    assert glassworks.board_size(layout) == (7, 5) and glassworks.GAME.player_range(layout) == (2, 5)
    # the seed's numbers are not house values
    for name in ("counted_columns", "overflow_penalty", "end_trigger", "glass_white", "glass_yellow"):
        assert f"constants.{name}" not in layout.unverified


def test_a_variant_with_columns_of_six_scores_the_sixth_row():
    # tall-columns.yaml: column_height 6 (and a row_6 on the pad), 2-4 players.
    # Ann 6 4: rows 1-4 run 2 -> 3 each = 12; rows 5-6 run 1 -> 1 each = 2;
    # columns 1x6 + 2x4 = 14. Total 28. On the built-in pad a 6 is refused.
    variant = str(FIXTURES / "tall-columns.yaml")
    r = result(record(("Ann", [6, 4]), ("Ben", [5, 5, 5, 2]), layout=variant), str(FIXTURES / "game.yaml"))
    assert r["players"][0]["breakdown"] == {
        "row_1": 3,
        "row_2": 3,
        "row_3": 3,
        "row_4": 3,
        "row_5": 1,
        "row_6": 1,
        "counted_column_1": 6,
        "counted_column_2": 8,
        "overflow": 0,
    }
    assert r["players"][0]["total"] == 28
    assert glassworks.board_size(load_layout(variant)) == (7, 6)
    assert errors(record(("Ann", [6, 4]), ("Ben", [5, 5, 5, 2]))) == [
        "game.yaml:4: players[0] 'Ann': columns[0]: a column holds at most 5 pieces, got 6"
    ]
    # the player range too: 5 players are too many for this variant
    five = [(n, [1]) for n in "ABCDE"]
    assert errors(record(*five, layout=variant), str(FIXTURES / "game.yaml")) == [
        f"{FIXTURES / 'game.yaml'}:2: players: river-valley-glassworks is played by 2-4 players, got 5"
    ]


def test_a_variant_whose_row_values_do_not_match_the_board_is_refused():
    # 8 values for 7 columns: the pad prints the first 7, the scorer refuses the layout
    path = FIXTURES / "eight-row-values.yaml"
    with pytest.raises(LayoutError) as exc:
        glassworks.player_fields(load_layout(str(path)))
    assert exc.value.lines == [
        f"{path}: constants.row_values: expected 7 whole numbers (points for runs "
        f"of 1-7 cells), got [1, 3, 6, 10, 15, 21, 28, 36]"
    ]
    # 6 values: the pad itself cannot print the 7th
    with pytest.raises(LayoutError) as exc:
        load_layout(str(FIXTURES / "six-row-values.yaml"))
    assert "unknown constant '{row_values[6]}' in text" in exc.value.lines[0]


def test_categories_are_the_pads_rows_in_both_languages():
    cats = glassworks.categories(load_layout(LAYOUT))
    assert [k for k, _ in cats] == [
        "row_1",
        "row_2",
        "row_3",
        "row_4",
        "row_5",
        "counted_column_1",
        "counted_column_2",
        "overflow",
    ]
    assert cats[0][1] == {"fr": "Ligne 1 (en bas)", "en": "Row 1 (bottom)"}
    assert cats[-1][1] == {"fr": "Rebut", "en": "Overflow"}


# ----------------------------------------------------------------------------- the bag


def test_colours_fit_one_colour_per_column():
    # Two boards of 7 full columns: each board skips one colour, e.g. Ann skips yellow,
    # Ben orange; white, purple (22), the blues (17), the greens (12) hold 5+5.
    assert glassworks.colours_fit([[5] * 7, [5] * 7], CAPS_4) is True
    # Three such boards: each skips one colour, but yellow and orange (9) can fill only
    # one column of 5 each, so at least 2 boards must skip each of them: 4 skips > 3.
    assert glassworks.colours_fit([[5] * 7] * 3, CAPS_4) is False
    assert glassworks.colours_fit([[5, 4], [3]], [9]) is False  # one colour, 2 boards: 12 > 9
    assert glassworks.colours_fit([[5, 4]], [9]) is False  # two columns, one colour
    # Five boards of 5 5 5 5 5 with a ninth colour of 12 (a variant's bag): 25 columns of 5,
    # but the colours can fill at most 4+4+3+3+2+2+2+1+1 = 22 columns of 5 pieces.
    assert glassworks.colours_fit([[5] * 5] * 5, CAPS_4 + [12]) is False
    assert glassworks.colours_fit([[5], [4]], [9]) is True
    # the search gives up (None: we cannot tell) when its budget runs out
    assert glassworks.colours_fit([[5]], [9], budget=0) is None


def test_more_pieces_of_a_colour_than_the_bag_holds_is_an_error():
    # 3 x 35 = 105 pieces <= 120, but no choice of colours fits (see above).
    text = record(("Ann", [5] * 7), ("Ben", [5] * 7), ("Cy", [5] * 7))
    assert errors(text) == [
        "game.yaml:2: players: more pieces of some colour than the bag holds: each column holds one colour "
        "and a board's columns have different colours, but no choice of colours fits the counts "
        f"({BAG_4})"
    ]


def test_more_pieces_than_the_bag_holds_is_an_error():
    # 4 players: 4 x 30 + 1 = 121 pieces > 120
    full = [5, 5, 5, 5, 5, 5]
    text = record(("A", full), ("B", full), ("C", full), ("D", full, 1))
    assert errors(text) == [
        f"game.yaml:2: players: the boards and overflows hold 121 glass pieces, but the bag holds 120 ({BAG_4})"
    ]


def test_eight_colours_whatever_the_number_of_players():
    # « Il existe 8 couleurs, et vous n'avez que 7 colonnes »: no ninth colour at 5 players
    layout = load_layout(LAYOUT)
    assert glassworks.supply(layout) == dict(
        zip(["white", "purple", "light_blue", "dark_blue", "light_green", "dark_green", "yellow", "orange"], CAPS_4)
    )
    assert not [k for k in layout.constants if "black" in k]
    # 5 players: boards of four columns of 5 (100 pieces) and 20 in the overflows: 120,
    # exactly the bag; one more piece is too many.
    five = [("A", [5] * 4, 20)] + [(n, [5] * 4) for n in "BCDE"]
    assert len(result(record(*five))["players"]) == 5
    over = [("A", [5] * 4, 21)] + [(n, [5] * 4) for n in "BCDE"]
    assert errors(record(*over)) == [
        f"game.yaml:2: players: the boards and overflows hold 121 glass pieces, but the bag holds 120 ({BAG_4})"
    ]


def test_the_pad_shows_the_eight_colours():
    from sheetgen.layout.display import Icon

    layout = load_layout(LAYOUT)
    prims = layout.display(layout.pages[0], "en", 5)
    glass = [p for p in prims if isinstance(p, Icon) and p.name == "glass" and p.color]
    assert len(glass) == 8


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "columns, overflow, message",
    [
        ([5, 6], 0, "game.yaml:4: players[0] 'Ann': columns[1]: a column holds at most 5 pieces, got 6"),
        (
            [1, 1, 1, 1, 1, 1, 1, 1],
            0,
            "game.yaml:4: players[0] 'Ann': columns: expected at most 7 columns (the board has 7), got 8",
        ),
        ([-1, 2], 0, "game.yaml:4: players[0] 'Ann': columns[0]: expected 0-5 pieces, got a negative count -1"),
        (["2+5"], 0, "game.yaml:4: players[0] 'Ann': columns[0]: a column holds at most 5 pieces, got 7"),
        ([1, "x"], 0, "game.yaml:4: players[0] 'Ann': columns[1]: expected a number of pieces (0-5), got 'x'"),
        (
            "5 5 5",
            0,
            "game.yaml:4: players[0] 'Ann': columns: expected a list of up to 7 column heights "
            "(0-5 pieces each), got '5 5 5'",
        ),
        ([5], -2, "game.yaml:5: players[0] 'Ann': overflow: expected 0 or more, got a negative count -2"),
    ],
)
def test_what_the_board_cannot_hold_is_an_error(columns, overflow, message):
    text = record(("Ann", columns, overflow), ("Ben", [5, 5, 5, 2]))
    assert errors(text) == [message]


def test_every_error_is_reported_at_once():
    text = record(("Ann", [6, 5, -1]), ("Ben", [1] * 9, -1))
    assert errors(text) == [
        "game.yaml:4: players[0] 'Ann': columns[0]: a column holds at most 5 pieces, got 6",
        "game.yaml:4: players[0] 'Ann': columns[2]: expected 0-5 pieces, got a negative count -1",
        "game.yaml:6: players[1] 'Ben': columns: expected at most 7 columns (the board has 7), got 9",
        "game.yaml:7: players[1] 'Ben': overflow: expected 0 or more, got a negative count -1",
    ]


@pytest.mark.parametrize("n", [1, 6])
def test_the_pad_holds_two_to_five_players(n):
    text = record(*[(f"P{i}", [1]) for i in range(n)])
    assert errors(text) == [f"game.yaml:2: players: river-valley-glassworks is played by 2-5 players, got {n}"]


def test_unknown_and_missing_fields():
    text = (
        "layout: river-valley-glassworks\nplayers:\n  - name: Ann\n    colour: blue\n  - name: Ben\n"
        "    columns: [5, 5, 5, 2]\n"
    )
    assert errors(text) == [
        "game.yaml:4: players[0] 'Ann': colour: unknown key; accepted keys: columns, name, overflow",
        "game.yaml:3: players[0] 'Ann': missing key 'columns'",
    ]


def test_overflow_may_be_left_out():
    r = result(record(("Ann", [5, 5, 5, 2]), ("Ben", [5, 5, 5, 2])))
    assert r["players"][0]["breakdown"]["overflow"] == 0
    assert r["winners"] == ["Ann", "Ben"]


# ----------------------------------------------------------------------------- command line

GAME = record(("Alice", [5, 4, 3, 3, 2, 0, 1], 2), ("Bob", [3, 3, 3, 3, 3, 3], "1+1"))


def test_cli_score_table_and_json(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(GAME, encoding="utf-8")
    out = run("score", str(path), "--lang", "en")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[2].split() == ["Row", "1", "(bottom)", "15", "21"]
    assert lines[-2].split() == ["Rank", "2", "1", "*"]
    assert lines[-1] == "Winner: Bob"
    out = run("score", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert list(data) == ["layout", "game", "players", "winners", "warnings"]
    assert [(p["name"], p["total"], p["rank"]) for p in data["players"]] == [("Alice", 51, 2), ("Bob", 66, 1)]
    assert data["winners"] == ["Bob"]
    out = run("score", str(path), "--format", "csv")
    assert out.output.splitlines()[0] == (
        "record,layout,player,row_1,row_2,row_3,row_4,row_5,counted_column_1,"
        "counted_column_2,overflow,total,rank,winner"
    )


def test_cli_score_error_exits_1_without_traceback(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(record(("Ann", [5, 6]), ("Ben", [1])), encoding="utf-8")
    out = run("score", str(path))
    assert out.exit_code == 1
    assert out.output == f"Error: {path}:4: players[0] 'Ann': columns[1]: a column holds at most 5 pieces, got 6\n"


def test_cli_template_for_three_players_scores_once_filled(tmp_path):
    out = run("template", LAYOUT, "--players", "3")
    assert out.exit_code == 0, out.output
    text = out.output
    assert text.count("columns: [0, 0, 0, 0, 0, 0, 0]") == 3
    assert "# pieces in each column, left to right (up to 7 numbers of 0-5)" in text
    assert "# pieces discarded (-3 each) (0 or more)" in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("[0, 0, 0, 0, 0, 0, 0]", "[5, 5, 5, 2, 0, 0, 0]", 1), encoding="utf-8")
    out = run("score", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["winners"] == ["Player 1"]
    out = run("template", LAYOUT, "--players", "6")
    assert out.exit_code == 2
    assert "Invalid value for '--players': expected 2-5, got 6" in out.output


@pytest.mark.parametrize("args, pages", [((), 1), (("--players", "5"), 1), (("--players", "2", "--copies", "3"), 3)])
def test_cli_render(tmp_path, args, pages):
    from pypdf import PdfReader

    path = tmp_path / "pad.pdf"
    out = run("render", LAYOUT, "-o", str(path), *args)
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"wrote {path} ({pages} page")
    assert len(PdfReader(str(path)).pages) == pages


def test_cli_render_refuses_six_players(tmp_path):
    out = run("render", LAYOUT, "--players", "6", "-o", str(tmp_path / "pad.pdf"))
    assert out.exit_code == 2
    assert "Invalid value for '--players': river-valley-glassworks is for 2-5 players, got 6" in out.output


def test_cli_interactive_takes_heights_typed_with_commas():
    # Ann: 5 4 3 3 2 0 1 with 2 discarded = 51 (worked above); a 6 is asked again.
    answers = "2\nAnn\n5, 6\n5, 4, 3, 3, 2, 0, 1\n2\nBen\n\n\n"
    out = CliRunner().invoke(cli, ["score", LAYOUT, "-i", "--format", "json"], input=answers)
    assert out.exit_code == 0, out.output
    assert "[1]: a column holds at most 5 pieces, got 6" in out.output
    data = json.loads(out.output[out.output.index("{") :])
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Ann", 51), ("Ben", 0)]


def test_a_board_height_naming_an_unknown_constant_is_an_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "id: bad\nextends: river-valley-glassworks\npages:\n  - id: pad\n    elements:\n"
        '      - id: score\n        rows:\n          - {id: board, grid: [7, "{colum_height}"]}\n',
        encoding="utf-8",
    )
    with pytest.raises(LayoutError) as exc:
        load_layout(str(path))
    assert exc.value.lines == [
        f"{path}:8: score.rows[1].grid[1]: unknown constant '{{colum_height}}'; whole-number constants: "
        "column_height, counted_columns, end_trigger, glass_dark_blue, glass_dark_green, glass_light_blue, "
        "glass_light_green, glass_orange, glass_purple, glass_white, glass_yellow, hand_limit, overflow_penalty, "
        "players_max, players_min"
    ]
