"""The Bosk score pad: golden PDFs (2 and 4 players, French and English), what it
prints (the points tables come from the layout's constants), its boxes."""

from __future__ import annotations

import re

import pytest

from sheetgen.errors import LayoutError
from sheetgen.games import load_layout
from sheetgen.layout.display import Box, Icon, Text
from sheetgen.render import render_pdf


def texts(layout, lang="en", players=None) -> list[str]:
    page = layout.pages[0]
    return [p.text for p in layout.display(page, lang, players) if isinstance(p, Text)]


def boxes(layout, players=None) -> list[Box]:
    return [p for p in layout.display(layout.pages[0], "en", players) if isinstance(p, Box)]


def test_players_and_default():
    layout = load_layout("bosk")
    assert layout.players == {"min": 2, "max": 4, "default": 4}
    assert layout.unverified == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_column_per_player(players):
    layout = load_layout("bosk")
    names = [b for b in boxes(layout, players) if b.field and b.field.startswith("name_p")]
    assert [b.field for b in names] == [f"name_p{n}" for n in range(1, players + 1)]
    winner = [b for b in boxes(layout, players) if b.field and b.field.startswith("winner_p")]
    assert len(winner) == players and all(b.kind == "check" for b in winner)


def test_each_terrain_has_a_leaves_box_and_a_points_box_a_pencil_can_mark():
    layout = load_layout("bosk")
    for players in (2, 4):
        by_field = {b.field: b for b in boxes(layout, players)}
        for t in range(1, 9):
            for p in range(1, players + 1):
                leaves, points = by_field[f"terrain_{t}_p{p}_count"], by_field[f"terrain_{t}_p{p}"]
                assert min(leaves.w, leaves.h, points.w, points.h) >= 7
                assert leaves.x + leaves.w == pytest.approx(points.x)
    assert texts(layout, "fr").count("feuilles") == 8 * 4


def test_the_pad_prints_both_points_tables_from_the_constants():
    layout = load_layout("bosk")
    en = texts(layout, "en")
    for printed in ("2 / 1", "2 / 0", "3", "1 each", "5 / 3", "5 / 1 each", "8", "4 each"):
        assert printed in en
    assert "Example: 6, 4, 4 and 0 leaves score 5, 1, 1 and 0." in " ".join(en).replace("\n", " ")
    fr = texts(layout, "fr")
    for printed in ("2 / 1", "2 / 0", "1 chacun", "5 / 3", "5 / 1 chacun", "4 chacun"):
        assert printed in fr
    assert any("1-7 à 2 joueurs, 1-9 à 3, 1-11 à 4" in t for t in fr)


def test_a_variant_prints_its_own_points(tmp_path):
    path = tmp_path / "variant.yaml"
    path.write_text("id: bosk-variant\nextends: bosk\nconstants:\n  winter_alone: 10\n  summer_first: 3\n")
    en = texts(load_layout(str(path)), "en")
    assert "3 / 1" in en and "3 / 0" in en and "10" in en and "2 / 1" not in en


def test_the_games_icons_are_on_the_pad():
    layout = load_layout("bosk")
    icons = {p.name for p in layout.display(layout.pages[0], "en") if isinstance(p, Icon)}
    assert {"tree", "leaf", "squirrel", "sun", "snowflake", "wind"} <= icons


def test_sections_follow_the_rules_order():
    layout = load_layout("bosk")
    titles = [el["title"]["en"] for el in layout.pages[0].elements if el["type"] == "frame" and el.get("title")]
    assert titles == ["Summer — the trees", "Autumn — the wind", "Winter — the leaves", "End of the game"]
    final = [r["id"] for r in layout.element("final")["rows"]]
    assert final == ["total", "round8", "winner"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_letter_and_a4_render(paper):
    import io

    from pypdf import PdfReader

    data = render_pdf(load_layout("bosk"), lang="fr", paper=paper, players=3)
    page = PdfReader(io.BytesIO(data)).pages[0]
    text = page.extract_text()
    assert "L’hiver — les feuilles" in text and "Ordre au 8ᵉ tour" in text


def test_count_goes_on_write_rows_only(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "id: bad\ngame: bosk\ntitle: {fr: x, en: x}\nplayers: {min: 2, max: 4, default: 2}\npages:\n"
        "  - id: p\n    title: {fr: x, en: x}\n    elements:\n"
        "      - id: t\n        type: score_table\n        at: [0, 0]\n        width: 120\n        rows:\n"
        "          - {id: total, kind: total, label: {fr: T, en: T}, count: {fr: f, en: l}}\n"
    )
    with pytest.raises(LayoutError) as exc:
        load_layout(str(path))
    assert exc.value.lines == [f"{path}:9: t: rows[0]: 'count' goes on write rows only"]


# ----------------------------------------------------------------------------- the summer worksheet


def sheet_boxes(layout, players) -> list[Box]:
    return [p for p in layout.display(layout.page("summer"), "en", players) if isinstance(p, Box)]


@pytest.mark.parametrize("players, lines", [(2, 7), (3, 9), (4, 11)])
def test_the_worksheet_has_a_box_per_line_and_player(players, lines):
    layout = load_layout("bosk")
    assert layout.constants[f"board_lines_{players}p"] == lines
    got = sheet_boxes(layout, players)
    for axis in ("rows", "columns"):
        sums = [b.field for b in got if re.fullmatch(f"summer_tally_{axis}_p[0-9]+_[0-9]+", b.field)]
        assert sums == [f"summer_tally_{axis}_p{i}_{k}" for i in range(1, players + 1) for k in range(1, lines + 1)]
        # under each sum, the points it earns; at the end of each row, its total
        points = [b.field for b in got if re.fullmatch(f"summer_tally_{axis}_p[0-9]+_pts[0-9]+", b.field)]
        assert points == [
            f"summer_tally_{axis}_p{i}_pts{k}" for i in range(1, players + 1) for k in range(1, lines + 1)
        ]
        totals = [b.field for b in got if b.field.startswith(f"summer_tally_{axis}_p") and b.field.endswith("total")]
        assert totals == [
            f"summer_tally_{axis}_p{i}_{t}" for i in range(1, players + 1) for t in ("total", "pts_total")
        ]
    assert all(min(b.w, b.h) >= 7 for b in got)
    names = [b.field for b in got if b.field.endswith("_name")]
    assert names == [f"summer_tally_rows_p{i}_name" for i in range(1, players + 1)]
    colours = [b.field for b in got if b.field.endswith("_colour")]
    assert colours == [f"summer_tally_rows_p{i}_colour" for i in range(1, players + 1)]


def test_the_worksheet_prints_the_line_numbers_and_the_summer_table():
    layout = load_layout("bosk")
    en = [p.text for p in layout.display(layout.page("summer"), "en", 4) if isinstance(p, Text)]
    # each table: the line numbers across its header, then the players' numbers down its side
    assert [t for t in en if t.isdigit()] == ([str(k) for k in range(1, 12)] + [str(i) for i in range(1, 5)]) * 2
    text = " ".join(en)
    assert "Clear 1st and clear 2nd: 2 and 1. Clear 1st and tied 2nds: 2, and 0 for each 2nd." in text
    assert "Alone in the line: 3. Tied 1sts: 1 each, the others 0." in text
    fr = " ".join(p.text for p in layout.display(layout.page("summer"), "fr", 2) if isinstance(p, Text))
    assert "Les lignes — la ligne 1 en haut du plateau" in fr and "Colonne" in fr


def test_a_variant_with_a_bigger_board_gets_more_boxes(tmp_path):
    path = tmp_path / "variant.yaml"
    path.write_text("id: bosk-big\nextends: bosk\nconstants:\n  board_lines_2p: 9\n")
    layout = load_layout(str(path))
    assert sum(bool(re.fullmatch("summer_tally_rows_p1_[0-9]+", b.field)) for b in sheet_boxes(layout, 2)) == 9


def test_a_tally_needs_its_constant(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "id: bad\ngame: bosk\ntitle: {fr: x, en: x}\nplayers: {min: 2, max: 4, default: 2}\npages:\n"
        "  - id: p\n    title: {fr: x, en: x}\n    elements:\n"
        "      - id: t\n        type: line_tally\n        at: [0, 0]\n        size: [190, 60]\n"
        "        lines: 'lines_{players}p'\n        line_label: {fr: Ligne, en: Row}\n"
    )
    with pytest.raises(LayoutError) as exc:
        load_layout(str(path))
    assert exc.value.lines == [
        f"{path}:13: t.lines: no whole-number constant 'lines_2p' (1-30) for 2 players",
        f"{path}:13: t.lines: no whole-number constant 'lines_4p' (1-30) for 4 players",
    ]


def test_the_autumn_order_rule_is_on_the_pad():
    layout = load_layout("bosk")
    assert (
        "Next round’s order: the lowest tile played goes first; on equal tiles, whichever of the tied "
        "players comes first going clockwise from the current first player."
    ) in texts(layout, "en")
    assert any(
        t.startswith("Ordre du tour suivant\u00a0: la plus petite tuile jouée commence") for t in texts(layout, "fr")
    )
