"""A filled Bosk pad (`render --fillable`): the summer worksheet's sums, the leaves
and the round-8 order read back into a record (`sheetgen read`) that scores."""

from __future__ import annotations

import io
import json

import yaml
from pypdf import PdfReader
from test_fillable import fill, run

from sheetgen.games import load_layout
from sheetgen.render import render_pdf

# bosk-game.yaml (tests/fixtures/bosk), as its players write it on the pad and the worksheet
ALICE = {"rows": [5, 3, 2, 4, 1, 3, 2], "columns": [5, 3, 2, 5, 2, 3, 0], "leaves": [6, 3, 0, 5, 2, 4, 7, 8]}
BOB = {"rows": [2, 4, 3, 3, 4, 3, 1], "columns": [1, 5, 3, 4, 4, 2, 1], "leaves": [4, 3, 7, 0, 2, 6, 1, 5]}


def pad_values(players: list[tuple[str, dict, str]]) -> tuple[dict, dict]:
    """The pad's fields (page 1) and the worksheet's (page 2) for (name, marks, round-8 place)."""
    pad, sheet = {}, {}
    for i, (name, marks, place) in enumerate(players, 1):
        pad[f"name_p{i}"] = name
        pad[f"round8_p{i}"] = place
        for t, n in enumerate(marks["leaves"], 1):
            pad[f"terrain_{t}_p{i}_count"] = "" if n == 0 else str(n)  # a blank box is 0
        for axis in ("rows", "columns"):
            for k, n in enumerate(marks[axis], 1):
                sheet[f"summer_tally_{axis}_p{i}_{k}"] = "" if n == 0 else str(n)
    return pad, sheet


def test_the_worksheet_fields_are_named_from_the_element_ids():
    fields = PdfReader(io.BytesIO(render_pdf(load_layout("bosk"), players=3, fillable=True))).get_fields()
    rows = sorted(n for n in fields if n.startswith("summer_tally_rows_p"))
    # 9 rows a player (3 players), a sum and the points it earns for each, the two totals,
    # a name box and a colour box each
    assert len(rows) == 3 * (2 * 9 + 2 + 2)
    assert {
        "summer_tally_rows_p1_1",
        "summer_tally_rows_p3_9",
        "summer_tally_rows_p3_pts9",
        "summer_tally_rows_p1_total",
        "summer_tally_rows_p1_pts_total",
        "summer_tally_rows_p2_name",
        "summer_tally_rows_p2_colour",
        "summer_tally_columns_p3_9",
        "summer_tally_columns_p3_pts_total",
    } <= set(fields)
    assert "summer_tally_columns_p1_name" not in fields and "summer_tally_rows_p1_10" not in fields


def test_a_filled_pad_reads_back_and_scores_like_the_trees(tmp_path):
    # A pad printed for 4 (the default) used by 2: lines 8-11 of the worksheet stay blank.
    src = render_pdf(load_layout("bosk"), fillable=True)
    pad, sheet = pad_values([("Alice", ALICE, "2"), ("Bob", BOB, "1")])
    pad["terrain_8_p1_count"] = "7+1"
    path = fill(src, tmp_path / "bosk.pdf", {0: pad, 1: sheet})
    out = run("read", path)
    assert out.exit_code == 0, out.output
    assert yaml.safe_load(out.output) == {
        "layout": "bosk",
        "round8_order": ["Bob", "Alice"],
        "players": [
            {
                "name": "Alice",
                "summer_lines": {"rows": ALICE["rows"], "columns": ALICE["columns"]},
                "leaves": ALICE["leaves"],
            },  # 7+1 written, 8 read
            {"name": "Bob", "summer_lines": {"rows": BOB["rows"], "columns": BOB["columns"]}, "leaves": BOB["leaves"]},
        ],
    }
    scored = run("score", path, "--format", "json")
    assert scored.exit_code == 0, scored.output
    data = json.loads(scored.output)
    from_trees = json.loads(run("score", "tests/fixtures/bosk/bosk-game.yaml", "--format", "json").output)
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Alice", 53), ("Bob", 52)]
    assert data["players"] == from_trees["players"] and data["winners"] == ["Alice"]


def test_names_from_the_worksheet_and_a_number_past_the_board(tmp_path):
    # 3 players on a 4-player pad: no names on the pad, the worksheet's names are used;
    # a sum on row 10 (the 3-player board's edge) is kept, and the record check refuses it.
    src = render_pdf(load_layout("bosk"), players=4, fillable=True)
    sheet = {
        "summer_tally_rows_p1_name": "Ann",
        "summer_tally_rows_p2_name": "Ben",
        "summer_tally_rows_p3_name": "Cy",
        "summer_tally_rows_p1_10": "4",
    }
    path = fill(src, tmp_path / "bosk.pdf", {1: sheet})
    record = yaml.safe_load(run("read", path).output)
    assert [p["name"] for p in record["players"]] == ["Ann", "Ben", "Cy"]
    assert record["players"][0]["summer_lines"]["rows"] == [0] * 9 + [4, 0]
    assert record["players"][1]["summer_lines"]["rows"] == [0] * 9 and "round8_order" not in record
    out = run("score", path)
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {path}: players[0] 'Ann': summer_lines.rows: expected 9 sums, one per row 1-9 "
        "of the 3-player board, got 11\n"
    )


def test_a_round_8_place_that_is_no_number_and_the_pad_alone(tmp_path):
    src = render_pdf(load_layout("bosk"), players=2, fillable=True)
    path = fill(src, tmp_path / "bosk.pdf", {0: {"name_p1": "Ann", "round8_p1": "first"}})
    out = run("read", path)
    assert out.exit_code == 1
    assert out.output == "Error: bosk: round8 of 'Ann': 'first' is no place in round 8's order (1 = played first)\n"
    pad = render_pdf(load_layout("bosk"), players=2, pages=["pad"], fillable=True)
    path = fill(pad, tmp_path / "pad.pdf", {0: {"name_p1": "Ann"}})
    out = run("read", path)
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {path}: the PDF lacks the page summer of 'bosk'; render every page with --fillable\n"
    )
