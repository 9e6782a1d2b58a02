"""Fillable PDFs: form fields named from the layout's ids, filled on a screen,
read back into a record and scored."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from sheetgen.cli import cli
from sheetgen.games import load_layout
from sheetgen.render import render_pdf


def run(*args):
    return CliRunner().invoke(cli, list(args))


def fill(src: bytes, path, pages: dict[int, dict]) -> str:
    """Fill fields page by page (as a PDF viewer would) and save to `path`."""
    import io

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(src)))
    for n, values in pages.items():
        writer.update_page_form_field_values(writer.pages[n], values, auto_regenerate=False)
    writer.write(str(path))
    return str(path)


def test_fields_are_named_from_the_layout_ids_and_pre_printed_boxes_are_no_fields():
    data = render_pdf(load_layout("harvest-dice-normal"), copies=2, fillable=True)
    fields = PdfReader(__import__("io").BytesIO(data)).get_fields()
    first = [n for n in fields if "__" not in n]
    # garden 18 cells, pig 42 boxes + 7 bonus circles, market 3 x 6 minus 3 pre-printed,
    # the score: a count, a market and points for each vegetable, then pig, rows and
    # total; the player's name
    assert len(first) == 18 + 42 + 7 + 15 + 3 * 3 + 3 + 1
    assert len(fields) == 2 * len(first)
    assert {
        "garden_r3_c6",
        "pig_42",
        "pig_bonus7",
        "market_salad_6",
        "score_total",
        "player_name_box",
        "garden_r1_c1__2",
    } <= set(fields)
    assert "market_carrot_1" not in fields and "." not in "".join(fields)
    assert fields["pig_1"]["/FT"] == "/Btn" and fields["garden_r1_c1"]["/FT"] == "/Tx"


def test_plain_render_has_no_fields():
    data = render_pdf(load_layout("harvest-dice-normal"), copies=2)
    assert not PdfReader(__import__("io").BytesIO(data)).get_fields()


def test_a_filled_harvest_dice_pad_reads_back_and_scores(tmp_path):
    src = render_pdf(load_layout("harvest-dice-normal"), copies=3, fillable=True)
    alice = {
        "player_name_box": "Alice",
        "garden_r1_c1": "c",
        "garden_r1_c2": "C",
        "garden_r2_c1": "S",
        **{f"pig_{n}": "/Yes" for n in range(1, 8)},
        "market_carrot_2": "/Yes",
        "market_carrot_3": "/Yes",
    }
    bob = {
        "player_name_box__2": "Bob",
        "garden_r1_c1__2": "T",
        "pig_1__2": "/Yes",
        "market_carrot_2__2": "/Yes",
        "market_carrot_3__2": "/Yes",
    }
    path = fill(src, tmp_path / "game.pdf", {0: alice, 1: bob})  # the 3rd sheet stays blank
    out = run("read", path)
    assert out.exit_code == 0, out.output
    assert yaml.safe_load(out.stdout) == {
        "layout": "harvest-dice-normal",
        "players": [
            {
                "name": "Alice",
                "garden": ["CC....", "S.....", "......"],
                "pig": 7,
                "market": {"carrot": 3, "salad": 1, "tomato": 1},
            },
            {
                "name": "Bob",
                "garden": ["T.....", "......", "......"],
                "pig": 1,
                "market": {"carrot": 3, "salad": 1, "tomato": 1},
            },
        ],
    }
    scored = run("score", path, "--format", "json")
    assert scored.exit_code == 0, scored.output
    data = json.loads(scored.stdout)
    # Alice: 2 carrots x 3 + 1 salad x 1 + pig row 2 (7 boxes) = 6 + 1 + 3 = 10; Bob: 1 tomato x 1 + 1 = 2
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Alice", 10), ("Bob", 2)]
    saved = tmp_path / "game.yaml"
    assert run("read", path, "-o", str(saved)).exit_code == 0
    assert json.loads(run("score", str(saved), "--format", "json").stdout)["players"] == data["players"]


@pytest.mark.parametrize("players", [3, 5])  # copies in the player columns; spread over the table
def test_a_filled_glassworks_pad_reads_the_board_copies(tmp_path, players):
    src = render_pdf(load_layout("river-valley-glassworks"), players=players, fillable=True)
    values = {"names_p1": "Ann", "names_p2": "Ben", "overflow_p2_count": "2"}
    values.update({f"board_p1_r{r}_c1": "/Yes" for r in range(1, 6)})  # column 1: 5 pieces
    values.update({f"board_p1_r{r}_c3": "/Yes" for r in range(1, 3)})  # column 3: 2 pieces (r1 the bottom)
    values.update({"board_p2_r5_c7": "/Yes"})
    path = fill(src, tmp_path / "glass.pdf", {0: values})
    record = yaml.safe_load(run("read", path).stdout)
    assert record["players"] == [
        {"name": "Ann", "columns": [5, 0, 2, 0, 0, 0, 0], "overflow": 0},
        {"name": "Ben", "columns": [0, 0, 0, 0, 0, 0, 1], "overflow": 2},
    ]  # a number, not text


def test_a_filled_plante_bataille_pad(tmp_path):
    src = render_pdf(load_layout("plante-bataille"), players=3, fillable=True)
    values = {
        "name_p1": "Ann",
        "harvest_values_p1": "4, -2, 3+5",
        "tokens_veg1_p1": "2",
        "name_p2": "Ben",
        "harvested_p2": "7",
        "name_p3": "Cy",
    }
    path = fill(src, tmp_path / "pb.pdf", {0: values})
    out = run("score", path, "--format", "json")
    assert out.exit_code == 0, out.output
    # Ann: 4 - 2 + 8 = 10, sole vegetable 1 leader +3 = 13; Ben 7; Cy 0
    assert [(p["name"], p["total"]) for p in json.loads(out.stdout)["players"]] == [("Ann", 13), ("Ben", 7), ("Cy", 0)]


def _widgets(data: bytes) -> dict:
    """{field name: its widget annotation} of a PDF's first page."""
    import io

    page = PdfReader(io.BytesIO(data)).pages[0]
    return {str(a.get_object()["/T"]): a.get_object() for a in page["/Annots"]}


@pytest.mark.parametrize(
    "lang, pig, name",
    [("en", "Pig, row 2, box 3", "Player"), ("fr", "Cochon, ligne 2, case 3", "Joueur·euse")],
)
def test_a_fields_tooltip_is_its_label_in_the_sheets_language(lang, pig, name):
    widgets = _widgets(render_pdf(load_layout("harvest-dice-advanced"), lang=lang, fillable=True))
    assert widgets["pig_9"]["/TU"] == pig  # row 2 holds boxes 7-12
    assert widgets["player_name_box"]["/TU"] == name
    assert (
        widgets["garden_r3_c6"]["/TU"] == {"en": "Garden, row 3, column 6", "fr": "Potager, ligne 3, colonne 6"}[lang]
    )
    assert widgets["majority_pig_1"]["/TU"] == {"en": "Pig majority", "fr": "Majorité cochon"}[lang]
    assert widgets["pig_bonus2"]["/TU"] == {"en": "Pig, row 2, bonus", "fr": "Cochon, ligne 2, bonus"}[lang]
    assert all(w["/TU"] != w["/T"] for w in widgets.values())


def test_a_pads_tooltips_name_the_row_and_the_player():
    widgets = _widgets(render_pdf(load_layout("river-valley-glassworks"), lang="fr", players=3, fillable=True))
    assert widgets["counted_column_1_p2_count2"]["/TU"] == "La plus haute, pièces, joueur·euse 2"
    assert widgets["total_p3"]["/TU"] == "Total, joueur·euse 3"
    assert widgets["names_p1"]["/TU"] == "Joueur·euse 1, nom"
    assert widgets["board_p1_r1_c7"]["/TU"] == "Plateau final, joueur·euse 1, ligne 1, colonne 7"


def _font(widget) -> float:
    """A text field's font size, from its default appearance (/DA: `/Font size Tf ...`)."""
    words = str(widget["/DA"]).split()
    return float(words[words.index("Tf") - 1])


@pytest.mark.parametrize("lid, players", [("plante-bataille", 12), ("plante-bataille", 3), ("bosk", 4)])
def test_a_text_fields_font_fits_its_box(lid, players):
    """A narrow box (a 12-player pad's 11 mm name box) gets a smaller font than a roomy one,
    and no font is taller than its box or wider than a few of its characters."""
    widgets = _widgets(render_pdf(load_layout(lid), players=players, fillable=True))
    texts = {n: w for n, w in widgets.items() if w["/FT"] == "/Tx" and not int(w["/Ff"]) & 4096}
    for name, w in texts.items():
        x0, y0, x1, y1 = (float(v) for v in w["/Rect"])
        size = _font(w)
        assert 6 <= size <= 12, name
        assert size <= 0.6 * (y1 - y0) + 1 and (size <= (x1 - x0) / 3.3 + 1 or size == 6), name
    if lid == "plante-bataille":  # a 12-player pad's name box is 11 mm wide: 10 pt, not 14
        assert _font(texts["name_p1"]) == (10 if players == 12 else 12)


def test_a_box_for_a_list_is_a_multi_line_field(tmp_path):
    """The card values of Plante Bataille, one a line, read back as a list."""
    src = render_pdf(load_layout("plante-bataille"), players=3, fillable=True)
    widgets = _widgets(src)
    multi = sorted(n for n, w in widgets.items() if w["/FT"] == "/Tx" and int(w["/Ff"]) & 4096)
    assert multi == ["harvest_values_p1", "harvest_values_p2", "harvest_values_p3"]
    path = fill(
        src,
        tmp_path / "pb.pdf",
        {0: {"name_p1": "Ann", "harvest_values_p1": "4\n-2\n3+5\n", "name_p2": "Ben", "name_p3": "Cy"}},
    )
    out = run("score", path, "--format", "json")
    assert out.exit_code == 0, out.output
    assert [(p["name"], p["total"]) for p in json.loads(out.stdout)["players"]] == [("Ann", 10), ("Ben", 0), ("Cy", 0)]


def test_the_vegetables_written_in_have_form_fields():
    widgets = _widgets(render_pdf(load_layout("plante-bataille"), lang="en", players=4, fillable=True))
    for k in (1, 2, 3):
        assert widgets[f"tokens_veg{k}_name"]["/FT"] == "/Tx"
        assert widgets[f"tokens_veg{k}_name"]["/TU"] == f"Vegetable {k}, name"
    assert {widgets[f"majority_veg{k}_p{i}"]["/FT"] for k in (1, 2, 3) for i in (1, 2, 3, 4)} == {"/Btn"}


def test_a_filled_pads_majority_ticks_are_checked_against_the_tokens(tmp_path):
    src = render_pdf(load_layout("plante-bataille"), players=3, fillable=True)
    values = {
        "tokens_veg1_name": "Chou",
        "name_p1": "Ann",
        "harvested_p1": "5",
        "tokens_veg1_p1": "2",
        "majority_veg1_p1": "/Yes",
        "name_p2": "Ben",
        "harvested_p2": "5",
        "tokens_veg2_p2": "1",
        "tokens_veg1_p2": "2",
        "majority_veg2_p2": "/Yes",
        "majority_veg1_p2": "/Yes",
        "name_p3": "Cy",
        "harvested_p3": "1",
    }
    path = fill(src, tmp_path / "pb.pdf", {0: values})
    record = yaml.safe_load(run("read", path).stdout)
    assert [p.get("majorities") for p in record["players"]] == [["veg1"], ["veg1", "veg2"], []]
    out = run("score", path, "--format", "json")
    data = json.loads(out.stdout)
    # the tie for veg1 gives it to nobody: the ticks are warned of, the totals come from the tokens
    assert [(p["name"], p["total"]) for p in data["players"]] == [("Ann", 5), ("Ben", 8), ("Cy", 1)]
    assert data["warnings"] == [
        "players[0] 'Ann': majorities: the veg1 majority is ticked, but 2 veg1 tokens: a tie for the lead "
        "(Ann, Ben) gives it to nobody",
        "players[1] 'Ben': majorities: the veg1 majority is ticked, but 2 veg1 tokens: a tie for the lead "
        "(Ann, Ben) gives it to nobody",
    ]


def test_a_filled_advanced_harvest_dice_sheets_majority_ticks_are_checked(tmp_path):
    src = render_pdf(load_layout("harvest-dice-advanced"), copies=2, fillable=True)
    alice = {"player_name_box": "Alice", "garden_r1_c1": "C", "garden_r1_c2": "C", "majority_carrot_1": "/Yes"}
    bob = {"player_name_box__2": "Bob", "garden_r1_c1__2": "C", "pig_1__2": "/Yes", "majority_carrot_1__2": "/Yes"}
    path = fill(src, tmp_path / "hd.pdf", {0: alice, 1: bob})
    record = yaml.safe_load(run("read", path).stdout)
    assert [p["majorities"] for p in record["players"]] == [["carrot"], ["carrot"]]
    data = json.loads(run("score", path, "--format", "json").stdout)
    assert [p["breakdown"]["majority_carrot"] for p in data["players"]] == [5, 0]
    assert [w for w in data["warnings"] if "majorities" in w] == [
        "players[1] 'Bob': majorities: the carrot majority is ticked, but 1 carrot: the most is 2 (Alice 2)",
        "players[1] 'Bob': majorities: 1 pig box, the most, but the pig majority is not ticked",
    ]


def test_read_errors(tmp_path):
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(render_pdf(load_layout("harvest-dice-normal")))
    out = run("read", str(plain))
    assert out.exit_code == 1
    assert out.output == (f"Error: {plain}: the PDF has no form fields; render it with `sheetgen render --fillable`\n")
    blank = tmp_path / "blank.pdf"
    blank.write_bytes(render_pdf(load_layout("harvest-dice-normal"), fillable=True))
    assert run("read", str(blank)).output == f"Error: {blank}: every sheet is blank\n"
    junk = tmp_path / "junk.pdf"
    junk.write_text("not a pdf")
    out = run("score", str(junk))
    assert out.exit_code == 1 and out.output.startswith(f"Error: {junk}: not a readable PDF")
    assert "Traceback" not in out.output
    missing = run("read", str(tmp_path / "none.pdf"))
    assert missing.exit_code == 1 and missing.output == f"Error: {tmp_path / 'none.pdf'}: no such file\n"


def test_render_fillable_from_the_cli(tmp_path):
    out = run("render", "harvest-dice-advanced", "--fillable", "--copies", "2", "-o", str(tmp_path / "f.pdf"))
    assert out.exit_code == 0
    reader = PdfReader(str(tmp_path / "f.pdf"))
    assert len(reader.pages) == 2 and "pig_bonus1__2" in reader.get_fields()


def test_filled_imperial_settlers_sheets(tmp_path):
    src = render_pdf(load_layout("imperial-settlers"), copies=2, fillable=True)
    ann = {
        "empire_player": "Ann",
        "walls_1": "/Yes",
        "walls_2": "/Yes",
        "walls_3": "/Yes",
        "bridges_1": "/Yes",
        "fields_1": "/Yes",
        "score_favors": "3+2",
        "score_development": "4",
    }
    ben = {"village_player__2": "Ben", "walls_1__2": "/Yes"}
    # every building is built by checking its boxes (none printed checked), in any order: Ann's
    # Sawmill 1 of 2 (its second box: no gap), her Architects 4 of 4 (left out of a basic game: 0
    # and a warning)
    village = {"sawmill_2": "/Yes", **{f"architects_{n}": "/Yes" for n in range(1, 5)}}
    path = fill(src, tmp_path / "is.pdf", {0: ann, 1: village, 3: ben})  # pages: Ann's empire, village; Ben's
    record = yaml.safe_load(run("read", path).stdout)
    assert [p["name"] for p in record["players"]] == ["Ann", "Ben"]
    assert record["players"][0]["empire"] == {"walls": 3, "houses": 0, "granaries": 0, "bridges": 1, "fields": 1}
    assert record["players"][0]["village"] == {
        "sawmill": 1,
        "tavern": 0,
        "workshop": 0,
        "mill": 0,
        "forum": 0,
        "architects": 4,
    }
    assert record["players"][1]["village"]["sawmill"] == 0
    assert record["players"][0]["favors"] == "3+2"
    scored = run("score", path, "--format", "json")
    assert scored.exit_code == 0
    data = json.loads(scored.stdout)
    assert data["players"][0]["breakdown"]["buildings"] == 0
    assert data["warnings"] == [
        "players[0] 'Ann': village.architects: 4 boxes checked on the Architects, a building "
        "of the advanced rules that a basic game (imperial-settlers) leaves out: it scores 0",
    ]


def test_a_gap_is_warned_of_only_where_the_rules_say_from_the_left(tmp_path):
    """The empire's tracks are checked from the left (a gap is read as the first boxes, with
    a warning); a field is any box of an open field, and a building's boxes go in any order
    (`order: any`, the building card): only how many counts."""
    src = render_pdf(load_layout("imperial-settlers"), fillable=True)
    empire = {"empire_player": "Ann", "walls_2": "/Yes", **{f"bridges_{n}": "/Yes" for n in range(1, 4)}}
    empire |= {"fields_1": "/Yes", "fields_4": "/Yes"}  # bridge A's first field, bridge B's second
    path = fill(src, tmp_path / "gap.pdf", {0: empire, 1: {"mill_3": "/Yes", "mill_1": "/Yes"}})
    out = run("read", path)
    assert out.exit_code == 0, out.output
    [player] = yaml.safe_load(out.stdout)["players"]
    assert player["empire"] == {"walls": 1, "houses": 0, "granaries": 0, "bridges": 3, "fields": 2}
    assert player["village"]["mill"] == 2
    assert out.stderr == f"warning: {path}: walls: boxes 2 are checked, with a gap; read as the first box\n"


def test_filled_advanced_imperial_settlers_sheets_read_the_circled_ladder_steps(tmp_path):
    """Each step after a card's printed value is a markable box: circled steps are colonies."""
    src = render_pdf(load_layout("imperial-settlers-advanced"), fillable=True)
    village = {"village_player": "Ann", "forum_colony_1": "/Yes", "mill_colony_1": "/Yes", "mill_colony_2": "/Yes"}
    path = fill(src, tmp_path / "adv.pdf", {0: {"walls_1": "/Yes"}, 1: village})
    out = run("read", path)
    assert out.exit_code == 0, out.output
    [player] = yaml.safe_load(out.stdout)["players"]
    assert player["colonies"] == {"sawmill": 0, "tavern": 0, "workshop": 0, "mill": 2, "forum": 1, "architects": 0}
    gap = fill(src, tmp_path / "gap.pdf", {1: {"village_player": "Bo", "mill_colony_2": "/Yes"}})
    out = run("read", gap)
    assert out.exit_code == 0, out.output
    assert "mill: ladder steps 2 are circled, with a gap; read as 1 colony" in out.stderr


def test_a_pdf_with_some_pages_only_is_refused(tmp_path):
    src = render_pdf(load_layout("imperial-settlers"), pages=["village"], fillable=True)
    path = fill(src, tmp_path / "village.pdf", {0: {"village_player": "Ann"}})
    out = run("read", path)
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {path}: the PDF lacks the page empire of 'imperial-settlers'; render every page with --fillable\n"
    )


CORN = """id: corn
extends: harvest-dice-normal
pages:
  - id: sheet
    elements:
      - {id: market_help, remove: true}
      - {id: market_tomato}  # (the new track is listed after it, before the score below)
      - id: market_corn
        type: track
        in: market_frame
        below: market_tomato
        space: 5
        label: {fr: "Maïs", en: "Corn"}
        icon: corn
        label_width: 27.5
        gap: 0.8
        boxes: 6
"""


def test_a_track_the_scorer_does_not_read_is_said_to_count_for_nothing(tmp_path):
    """A designer's new track prints and reads, but the game's scorer knows nothing of it:
    `validate` says so, and so does reading a sheet with marks in it."""
    path = tmp_path / "corn.yaml"
    path.write_text(CORN, encoding="utf-8")
    out = run("validate", str(path))
    assert out.exit_code == 0
    assert out.output.splitlines()[1] == (
        "note: the harvest-dice scorer does not read market_corn (track): it prints, and a filled "
        "sheet or a photo reads its marks, but they count for nothing in the score"
    )
    src = render_pdf(load_layout(str(path)), fillable=True)
    filled = fill(src, tmp_path / "corn.pdf", {0: {"pig_1": "/Yes", "market_corn_1": "/Yes"}})
    out = run("read", filled, "--layout", str(path))
    assert out.exit_code == 0, out.output
    assert out.stderr == (
        f"warning: {filled}: market_corn: marked, but the harvest-dice scorer does not read this track: "
        "its marks count for nothing\n"
    )
    assert "market_corn" not in out.stdout
