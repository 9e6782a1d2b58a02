"""River Valley Glassworks pad: golden PDFs (2 and 5 players, both languages) and
what a player reads on it."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from sheetgen.layout.model import load_layout
from sheetgen.render.pdf import render_pdf

LAYOUT = "river-valley-glassworks"


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_pad_golden_a4(players, lang, assert_pdf_equal):
    data = render_pdf(load_layout(LAYOUT), lang=lang, paper="a4", players=players)
    assert_pdf_equal(data, f"{LAYOUT}-{players}p-{lang}-a4.pdf")


def text(**kw) -> str:
    return PdfReader(io.BytesIO(render_pdf(load_layout(LAYOUT), **kw))).pages[0].extract_text()


def test_the_pad_prints_the_layouts_numbers():
    en = text(lang="en", paper="letter", players=5)
    for word in ("Glass rarity", "Row points", "Final board", "Row 1 (bottom)", "Row 5 (top)",
                 "Tallest", "Second tallest", "Overflow", "−3 per piece", "Total", "Winner"):
        assert word in en
    # the run table 1..7 and the bag's counts come from the layout's constants
    assert "1† 3† 6† 10† 15† 21† 28†" in " ".join(en.split())   # house values: marked
    assert "17 pieces or more" in en
    fr = text(lang="fr", players=3)
    for word in ("Rareté du verre", "Points des lignes", "Plateau final", "Ligne 1 (en bas)", "Rebut",
                 "−3 par pièce", "Victoire"):
        assert word in fr


def test_the_default_pad_is_for_four_players():
    layout = load_layout(LAYOUT)
    assert layout.players == {"min": 2, "max": 5, "default": 4}
    assert render_pdf(layout, lang="en") == render_pdf(layout, lang="en", players=4)
