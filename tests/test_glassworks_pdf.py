"""River Valley Glassworks pad: golden PDFs (2 and 5 players, both languages) and
what a player reads on it."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from sheetgen.games import load_layout
from sheetgen.render import render_pdf

LAYOUT = "river-valley-glassworks"


def text(**kw) -> str:
    return PdfReader(io.BytesIO(render_pdf(load_layout(LAYOUT), **kw))).pages[0].extract_text()


def test_the_pad_prints_the_layouts_numbers():
    en = text(lang="en", paper="letter", players=5)
    for word in (
        "Glass rarity",
        "Row points",
        "Final board",
        "Row 1 (bottom)",
        "Row 5 (top)",
        "Tallest",
        "Second tallest",
        "Overflow",
        "−3 per piece",
        "Total",
        "Winner",
    ):
        assert word in en
    # the run table 1..7 and the bag's counts come from the layout's constants
    assert "1† 3† 6† 10† 15† 21† 28†" in " ".join(en.split())  # house values: marked
    assert "17 pieces or more" in en
    fr = text(lang="fr", players=3)
    for word in (
        "Rareté du verre",
        "Points des lignes",
        "Plateau final",
        "Ligne 1 (en bas)",
        "Rebut",
        "−3 par pièce",
        "Victoire",
    ):
        assert word in fr


def test_the_default_pad_is_for_four_players():
    layout = load_layout(LAYOUT)
    assert layout.players == {"min": 2, "max": 5, "default": 4}
    assert render_pdf(layout, lang="en") == render_pdf(layout, lang="en", players=4)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_board_copies_keep_cells_of_5mm_with_row_1_lowest_and_the_multipliers_under_the_columns(players):
    from sheetgen.layout.display import Box, Text

    layout = load_layout(LAYOUT)
    prims = layout.display(layout.pages[0], "en", players)
    cells = [p for p in prims if isinstance(p, Box) and p.field and p.field.startswith("board_p")]
    assert len(cells) == players * 7 * 5
    assert min(min(c.w, c.h) for c in cells) >= 5.0 - 1e-9
    at = {c.field: c for c in cells}
    for i in range(1, players + 1):
        # row 1 is the bottom row, as on the board and in the rows table
        assert at[f"board_p{i}_r1_c1"].y > at[f"board_p{i}_r5_c1"].y
        assert at[f"board_p{i}_r1_c7"].x > at[f"board_p{i}_r1_c1"].x
    # the copies do not overlap
    spans = sorted(
        (at[f"board_p{i}_r1_c1"].x, at[f"board_p{i}_r1_c7"].x + at[f"board_p{i}_r1_c7"].w)
        for i in range(1, players + 1)
    )
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    # x1 .. x7 under each copy's columns, at 8 pt or more, 1 mm under the cells
    labels = [p for p in prims if isinstance(p, Text) and p.text.startswith("×")]
    assert [t.text for t in labels] == [f"×{k}" for k in range(1, 8)] * players
    assert min(t.size for t in labels) >= 8
    bottom = at["board_p1_r1_c1"].y + at["board_p1_r1_c1"].h
    assert all(abs(t.y - bottom - 1.0) < 0.01 for t in labels)


def test_the_rows_table_lists_the_rows_as_the_board_shows_them():
    rows = [r["id"] for r in load_layout(LAYOUT).element("score")["rows"] if r["id"].startswith("row_")]
    assert rows == ["row_5", "row_4", "row_3", "row_2", "row_1"]


def test_the_lake_sends_extra_pieces_to_the_overflow():
    assert (
        "Lake: your hand holds at most 5 pieces; taking from the lake, any extra piece goes to the overflow "
        "(−3 each)." in " ".join(text(lang="en", players=4).split())
    )
    assert (
        "Lac : votre main est limitée à 5 pièces ; en vous servant au lac, tout morceau en trop va au rebut "
        "(−3 chacun)." in " ".join(text(lang="fr", players=4).split())
    )
