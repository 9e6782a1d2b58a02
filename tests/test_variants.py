"""Designing a variant: `sheetgen show`, `sheetgen new`, errors at the
designer's own line, layouts that reflow (below:, right_of:, auto/fill frames, +=
offsets), docs/games.md kept current, and the four worked variants of
docs/variants.md validated, rendered and scored."""

from __future__ import annotations

import io
import json
import re

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT
from pypdf import PdfReader

from sheetgen.cli import cli
from sheetgen.errors import LayoutError
from sheetgen.games import load_layout
from sheetgen.games.reference import games_markdown
from sheetgen.render import render_pdf

EXAMPLES = ROOT / "docs" / "examples"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def child(tmp_path, body: str, name: str = "my-hd.yaml"):
    path = tmp_path / name
    path.write_text("id: my-hd\nextends: harvest-dice-normal\npages:\n  - id: sheet\n    elements:\n" + body)
    return path


def problems(path) -> list[str]:
    with pytest.raises(LayoutError) as info:
        load_layout(str(path))
    return info.value.lines


def boxes(layout, *ids):
    return {i: tuple(round(layout.element(i)[k], 2) for k in ("x", "y", "w", "h")) for i in ids}


# ----------------------------------------------------------------------------- show


def test_show_tree_gives_ids_types_places_sizes_and_origins():
    result = run("show", "harvest-dice-normal")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "harvest-dice-normal (harvest-dice): Harvest Dice — player sheet"
    assert (
        "  dice_two_players = 6  [verified: false (house value)]  harvest-dice-normal:21  # 2 of each colour" in lines
    )
    assert "    garden  grid  x 56 y 43.5  79 x 40.5 mm  harvest-dice-normal:60" in lines
    assert "        rows: 3  harvest-dice-normal:64" in lines
    assert "        = 18 write boxes of 11.5 x 11.5 mm" in lines
    assert "  pig_frame  frame  x 0 y 93.2  98.7 x 77.7 mm  harvest-dice-normal:121" in lines
    assert "  rules_frame  frame  x 8 y 218.4  178 x 44.6 mm  harvest-dice-normal:306" in lines


def test_show_marks_the_keys_a_child_set_with_its_own_file(tmp_path):
    path = child(tmp_path, "      - id: garden\n        rows: 4\n")
    result = run("show", path, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["files"] == [str(path), "harvest-dice-normal"]
    garden = next(e for e in data["pages"][0]["elements"] if e["id"] == "garden")
    assert (garden["page"], garden["type"], garden["x"], garden["y"], garden["w"], garden["h"]) == (
        "sheet",
        "grid",
        56.0,
        43.5,
        79.0,
        52.0,
    )
    assert garden["keys"]["rows"] == {"value": 4, "from": f"{path}:7"}
    assert garden["keys"]["cols"] == {"value": 6, "from": "harvest-dice-normal:65"}
    assert garden["cells"] == [{"kind": "write", "w": 11.5, "h": 11.5, "count": 24}]
    # the zones below moved down one row (11.5 mm); the reminder took what was left
    pig = next(e for e in data["pages"][0]["elements"] if e["id"] == "pig_frame")
    rules = next(e for e in data["pages"][0]["elements"] if e["id"] == "rules_frame")
    assert (pig["y"], rules["y"], rules["h"]) == (104.7, 229.9, 33.1)
    assert data["constants"]["dice_two_players"] == {
        "value": 6,
        "verified": False,
        "note": "2 of each colour",
        "from": "harvest-dice-normal:21",
    }


def test_show_yaml_and_one_page():
    result = run("show", "imperial-settlers", "--page", "village", "--format", "yaml")
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.output)
    assert [p["id"] for p in data["pages"]] == ["village"]
    assert {e["page"] for e in data["pages"][0]["elements"]} == {"village"}


def test_show_an_unknown_page_is_a_usage_error():
    result = run("show", "harvest-dice-normal", "--page", "pad")
    assert result.exit_code == 2
    assert result.output == "Error: --page: no page 'pad' in 'harvest-dice-normal'; pages: sheet\n"


@pytest.mark.parametrize("players, width", [(2, 74.0), (5, 29.6), (6, 24.67)])
def test_show_gives_a_pads_cell_sizes_at_n_players(players, width):
    ref = "river-valley-glassworks" if players < 6 else EXAMPLES / "glassworks-six-players.yaml"
    result = run("show", ref, "--players", players, "--format", "json")
    assert result.exit_code == 0, result.output
    table = next(e for e in json.loads(result.output)["pages"][0]["elements"] if e["id"] == "score")
    names = table["cells"][0]
    assert names == {"kind": "write", "w": width, "h": 11.0, "count": players}


def test_show_refuses_a_player_count_outside_the_range():
    result = run("show", "river-valley-glassworks", "--players", 9)
    assert result.exit_code == 2
    assert "expected 2-5, got 9" in result.output


def test_show_scorer_lists_what_the_rules_read_with_values(tmp_path):
    path = child(tmp_path, "      - {id: market_carrot, boxes: 5}\n")
    result = run("show", path, "--scorer")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "my-hd: what the harvest-dice scorer reads"
    assert "  garden  grid  harvest-dice-normal:60" in lines
    assert "      row_value: 5  harvest-dice-normal:68" in lines
    assert f"      boxes: 5  {path}:6" in lines
    assert lines[-1] == "  majority_bonus: absent (optional: its absence means something)"
    data = json.loads(run("show", "river-valley-glassworks", "--scorer", "--format", "json").output)
    assert [e["id"] for e in data["elements"]] == ["score"]
    penalty = next(c for c in data["constants"] if c["name"] == "overflow_penalty")
    assert penalty == {
        "name": "overflow_penalty",
        "optional": False,
        "present": True,
        "value": 3,
        "verified": True,
        "from": "river-valley-glassworks:32",
    }


# ----------------------------------------------------------------------------- new


@pytest.mark.parametrize("parent", ["harvest-dice-normal", "river-valley-glassworks", "imperial-settlers", "bosk"])
def test_new_writes_a_child_that_validates_and_renders(tmp_path, parent):
    path = tmp_path / "My Variant.yaml"
    result = run("new", path, "--from", parent)
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert f"\nid: my-variant\nextends: {parent}\n" in text
    active = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert active == ["id: my-variant", f"extends: {parent}"]
    layout = load_layout(str(path))
    assert render_pdf(layout, lang="fr").startswith(b"%PDF-")
    # the commented examples are valid YAML once un-commented
    body = "\n".join(line[2:] for line in text.splitlines() if line.startswith("# ") and ":" in line)
    assert "constants:" in body or parent == "harvest-dice-normal"


def test_new_examples_uncommented_give_the_parent_again(tmp_path):
    path = tmp_path / "v.yaml"
    run("new", path, "--from", "harvest-dice-normal")
    text = path.read_text(encoding="utf-8")
    start = text.index("# constants:")
    uncommented = re.sub(r"^# ?", "", text[start:], flags=re.M)
    path.write_text(text[:start] + uncommented, encoding="utf-8")
    layout = load_layout(str(path))
    normal = load_layout("harvest-dice-normal")
    assert layout.element("pig")["sections"] == normal.element("pig")["sections"]
    assert boxes(layout, "garden", "rules_frame") == boxes(normal, "garden", "rules_frame")


def test_new_names_a_file_parent_relative_to_the_new_file(tmp_path):
    (tmp_path / "sub").mkdir()
    parent = tmp_path / "base.yaml"
    parent.write_text("id: base\nextends: harvest-dice-normal\n")
    result = run("new", tmp_path / "sub" / "v.yaml", "--from", parent)
    assert result.exit_code == 0, result.output
    assert "\nextends: ../base.yaml\n" in (tmp_path / "sub" / "v.yaml").read_text()
    assert load_layout(str(tmp_path / "sub" / "v.yaml")).game == "harvest-dice"


def test_new_refuses_to_overwrite(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("mine\n")
    result = run("new", path, "--from", "harvest-dice-normal")
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {path}: the file exists; `sheetgen new` never overwrites a file: give another name\n"
    )
    assert path.read_text() == "mine\n"


# ----------------------------------------------------------------------------- errors at your line


def test_a_fourth_garden_row_needs_only_that_change_on_both_sheets(tmp_path):
    """`rows: 4` alone validates on the normal and the advanced sheet; everything
    under the garden moves down by one row of cells."""
    for parent in ("harvest-dice-normal", "harvest-dice-advanced"):
        base = load_layout(parent)
        path = tmp_path / f"{parent}-4.yaml"
        path.write_text(
            f"id: four-rows\nextends: {parent}\npages:\n  - id: sheet\n    elements:\n"
            "      - id: garden\n        rows: 4\n",
            encoding="utf-8",
        )
        layout = load_layout(str(path))
        cell = base.element("garden")["cell"]
        assert boxes(layout, "pig_frame")["pig_frame"][1] == boxes(base, "pig_frame")["pig_frame"][1] + cell
        assert render_pdf(layout, lang="fr").startswith(b"%PDF-")


def test_a_child_key_that_fills_the_page_is_reported_at_its_line(tmp_path):
    path = child(tmp_path, "      - id: garden\n        rows: 6\n")
    assert problems(path) == [
        f"{path}:7: garden.rows: moves 'rules_frame': outside the printable area: spans x 8-186mm, "
        "y 252.9-271.9mm; the sheet is 194 x 263mm; the page is full: what is above 'rules_frame' is 8.9mm "
        "too tall ('rules_frame' is at harvest-dice-normal:309)"
    ]


def test_a_child_key_that_pushes_an_element_out_of_its_frame(tmp_path):
    path = child(tmp_path, "      - {id: legend_tomato_text, size: [34, 10]}\n")
    assert problems(path) == [
        f"{path}:6: legend_tomato_text.size: outside the printable area: spans x 165-199mm, y 73.5-83.5mm; the "
        "sheet is 194 x 263mm ('legend_tomato_text' is at harvest-dice-normal:114)",
        f"{path}:6: legend_tomato_text.size: sticks out of frame 'garden_frame': spans x 165-199mm, y 73.5-83.5mm; "
        "the frame spans x 0-194mm, y 34-90.2mm ('legend_tomato_text' is at harvest-dice-normal:114)",
    ]


def test_a_market_sized_to_its_boxes_takes_a_seventh_box_and_reports_an_eighth(tmp_path):
    """A market track of 7 boxes needs only that one change (the market frame
    reaches the sheet's edge, `size: [fill, auto]`, and leaves room for it); 8 do not fit
    beside the pig, and the error says by how much, at the child's line."""
    for parent in ("harvest-dice-normal", "harvest-dice-advanced"):
        path = tmp_path / f"seven-{parent}.yaml"
        path.write_text(
            f"id: seven\nextends: {parent}\npages:\n  - id: sheet\n    elements:\n"
            "      - {id: market_tomato, boxes: 7}\n"
        )
        layout = load_layout(str(path))
        assert layout.element("market_tomato")["sections"][0]["boxes"] == 7
        tomato, frame = boxes(layout, "market_tomato", "market_frame").values()
        assert tomato[0] + tomato[2] <= frame[0] + frame[2] - 1 and frame[0] + frame[2] == 194
        assert render_pdf(layout, lang="fr").startswith(b"%PDF-")
        result = run("validate", path)
        assert result.exit_code == 0, result.output
    path = child(tmp_path, "      - {id: market_tomato, boxes: 8}\n")
    assert problems(path) == [
        f"{path}:6: market_tomato.boxes: moves 'market_frame': outside the printable area: spans x "
        "101.7-201.9mm, y 93.2-167.7mm; the sheet is 194 x 263mm; the page is full: what is left of "
        "'market_frame' is 7.9mm too wide ('market_frame' is at harvest-dice-normal:164)"
    ]


def test_a_problem_inside_a_built_in_names_its_id(tmp_path):
    path = child(tmp_path, "      - {id: legend_carrot, remove: true}\n      - {id: legend_carrot_text, at: [1, 1]}\n")
    lines = problems(path)
    assert lines[0].startswith(f"{path}:7: legend_carrot_text: overlaps 'garden_help'")
    assert not any("/layouts/" in line or ".yaml:" in line.replace(str(path), "") for line in lines)
    frame_gone = child(tmp_path, "      - {id: garden_frame, remove: true}\n", "gone.yaml")
    assert problems(frame_gone)[0] == (
        "harvest-dice-normal:53: garden_help.in: no frame 'garden_frame' earlier on this page"
    )


# ----------------------------------------------------------------------------- reflow


def test_the_rewritten_built_ins_keep_their_positions():
    layout = load_layout("harvest-dice-advanced")
    assert boxes(layout, "garden_frame", "pig_frame", "market_frame", "score_frame", "rules_frame") == {
        "garden_frame": (0, 34, 194, 56.2),
        "pig_frame": (0, 93.2, 98.7, 78.7),
        "market_frame": (101.7, 93.2, 92.3, 75.5),
        "score_frame": (0, 174.9, 194, 51),
        "rules_frame": (8, 228.9, 178, 34.1),
    }
    assert boxes(layout, "market_salad", "market_help", "garden_row_caption") == {
        "market_salad": (102.2, 118.7, 81.5, 8.5),
        "market_help": (102.7, 145.7, 88, 20),
        "garden_row_caption": (112.5, 85, 34, 4.2),  # under the row values' circles
    }


def test_a_pig_row_moves_everything_below(tmp_path):
    rows = "".join(f"          - {{boxes: 6, value: {v}, bonus: true}}\n" for v in (1, 3, 6, 10, 15, 21, 28, 36))
    layout = load_layout(str(child(tmp_path, "      - id: pig\n        sections:\n" + rows)))
    assert boxes(layout, "pig_frame", "market_frame", "score_frame", "rules_frame") == {
        "pig_frame": (0, 93.2, 98.7, 86.9),
        "market_frame": (101.7, 93.2, 92.3, 74.5),
        "score_frame": (0, 183.1, 194, 41.5),
        "rules_frame": (8, 227.6, 178, 35.4),
    }
    assert render_pdf(layout, lang="en").startswith(b"%PDF-")


def test_plus_equal_offsets_move_from_the_parents_value(tmp_path):
    path = child(
        tmp_path, '      - {id: player_name, at: ["-=4", "+=2"]}\n      - {id: garden, rows: "+=1", cell: 12}\n'
    )
    layout = load_layout(str(path))
    assert boxes(layout, "player_name")["player_name"][:2] == (100, 23)
    assert layout.element("garden")["rows"] == 4


def test_a_childs_own_position_overrides_the_parents_relative_placing(tmp_path):
    """Variants written when the built-ins used positions keep working: a child's `at` is
    where the element goes; a child's `+=` offsets stay relative to where the parent puts it."""
    body = (
        "      - {id: garden_row_caption, at: [136, 56]}\n"
        "      - {id: score_frame, at: [0, 190]}\n"
        "      - {id: rules_frame, at: [8, 234], size: [178, 29]}\n"
        '      - {id: market_help, at: ["+=0", "+=1"]}\n'
        '      - {id: pig_frame, at: ["+=0", "+=0"]}\n'
    )
    layout = load_layout(str(child(tmp_path, body)))
    assert boxes(layout, "garden_row_caption", "score_frame", "rules_frame", "market_help", "pig_frame") == {
        "garden_row_caption": (136, 97, 34, 4.2),
        "score_frame": (0, 190, 194, 41.5),
        "rules_frame": (8, 234, 178, 29),
        "market_help": (102.7, 158.7, 88, 19),
        "pig_frame": (0, 105.2, 98.7, 77.7),  # the garden frame grew around the caption
    }


def test_below_right_of_and_auto_frames(tmp_path):
    path = tmp_path / "flow.yaml"
    path.write_text(
        """id: flow
game: harvest-dice
title: {fr: "Flux", en: "Flow"}
sheet: {width: 120, height: 100}
pages:
  - id: p
    title: {fr: "P", en: "P"}
    elements:
      - {id: a, type: frame, at: [0, 0], size: [50, auto], padding: [3, 2], title: {fr: "A", en: "A"}}
      - {id: note, type: text, in: a, at: [2, 2], size: [40, 20], text: {fr: "x", en: "x"}}
      - {id: b, type: frame, right_of: a, space: 5, size: [auto, 30]}
      - {id: icon, type: icon, in: b, at: [1, 1], size: 10, name: pig}
      - {id: c, type: frame, below: [a, b], size: [120, fill]}
"""
    )
    layout = load_layout(str(path))
    assert boxes(layout, "a", "b", "c") == {"a": (0, 0, 50, 31), "b": (55, 0, 14, 30), "c": (0, 34, 120, 66)}


def test_an_auto_frame_cannot_grow_after_something_followed_it(tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text(
        """id: late
game: harvest-dice
title: {fr: "T", en: "T"}
pages:
  - id: p
    title: {fr: "P", en: "P"}
    elements:
      - {id: a, type: frame, at: [0, 0], size: [50, auto]}
      - {id: b, type: frame, below: a, size: [50, 10]}
      - {id: note, type: text, in: a, at: [2, 2], size: [40, 20], text: {fr: "x", en: "x"}}
"""
    )
    assert problems(path)[0] == (
        f"{path}:10: note.in: frame 'a' sizes to its contents, but 'b' is placed after it earlier in the "
        "list; list 'note' before 'b'"
    )


def test_placing_relative_to_an_unknown_element(tmp_path):
    path = child(tmp_path, "      - {id: note, type: text, below: nowhere, size: [20, 8], text: {fr: x, en: x}}\n")
    assert problems(path) == [f"{path}:6: note.below: no element 'nowhere' earlier on this page"]


# ----------------------------------------------------------------------------- docs


def test_the_game_reference_is_current():
    assert (ROOT / "docs" / "games.md").read_text(encoding="utf-8") == games_markdown(), (
        "docs/games.md is stale: python -m sheetgen.games.reference > docs/games.md"
    )


VARIANTS = [
    ("harvest-dice-big-garden", {"Alice": 72, "Bob": 42}),
    ("glassworks-six-players", {"Ana": 44, "Ben": 31, "Cleo": 37, "Dan": 39, "Eve": 77, "Finn": 28}),
    ("imperial-settlers-rich-village", {"Ada": 37, "Bo": 20}),
    ("glassworks-six-rows", {"Ana": 67, "Ben": 155, "Cleo": 132}),
]


@pytest.mark.parametrize("name, totals", VARIANTS)
def test_each_worked_variant_validates_renders_and_scores(tmp_path, name, totals):
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    assert f"examples/{name}.yaml" in doc and f"examples/{name}-game.yaml" in doc
    path = EXAMPLES / f"{name}.yaml"
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    layout = load_layout(str(path))
    for lang in ("fr", "en"):
        reader = PdfReader(io.BytesIO(render_pdf(layout, lang=lang)))
        assert reader.metadata.subject == name
    result = run("score", EXAMPLES / f"{name}-game.yaml", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{") :])
    assert {p["name"]: p["total"] for p in data["players"]} == totals


def test_the_variants_change_what_the_tutorial_says():
    hd = json.loads(run("score", EXAMPLES / "harvest-dice-big-garden-game.yaml", "--format", "json").output)
    alice = hd["players"][0]["breakdown"]
    assert (alice["pig"], alice["rows"], alice["carrot"]) == (7, 5, 42)
    gw = json.loads(run("score", EXAMPLES / "glassworks-six-players-game.yaml", "--format", "json").output)
    assert [p["breakdown"]["overflow"] for p in gw["players"]] == [-4, 0, -2, -6, 0, -2]
    assert load_layout(str(EXAMPLES / "glassworks-six-players.yaml")).players["max"] == 6
    settlers = json.loads(
        run("score", EXAMPLES / "imperial-settlers-rich-village-game.yaml", "--format", "json").output
    )
    assert settlers["players"][0]["breakdown"]["buildings"] == 17
    shown = re.findall(r"^id: ([a-z-]+)$", (ROOT / "docs" / "variants.md").read_text(encoding="utf-8"), re.M)
    assert shown == [name for name, _ in VARIANTS]


def test_a_player_count_set_by_the_child_is_blamed_for_boxes_too_small(tmp_path):
    path = tmp_path / "gw9.yaml"
    path.write_text("id: gw9\nextends: river-valley-glassworks\nconstants:\n  players_max: 9\n")
    lines = problems(path)
    assert lines[0] == (
        f"{path}:4: constants.players_max: score: boxes of 2.8 x 2.8mm with 9 players are too small to mark; "
        "at least 3.5mm ('score' is at river-valley-glassworks:186)"
    )
    assert all(line.startswith(f"{path}:4: constants.players_max: score") for line in lines)
