"""Plante Bataille score pad: golden PDFs at 3, 6 and 12 players in both languages,
and the page's text (one column per player, the rules' order)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from sheetgen.layout.model import load_layout
from sheetgen.render import render_pdf


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("players", [3, 6, 12])
def test_pad_golden_a4(players, lang, assert_pdf_equal):
    data = render_pdf(load_layout("plante-bataille"), lang=lang, paper="a4", players=players)
    assert_pdf_equal(data, f"plante-bataille-{players}p-{lang}-a4.pdf")


def test_letter_pad_is_one_letter_page():
    data = render_pdf(load_layout("plante-bataille"), lang="en", paper="letter", players=6, copies=3)
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(pages) == 3
    assert (round(float(pages[0].mediabox.width)), round(float(pages[0].mediabox.height))) == (612, 792)


@pytest.mark.parametrize("lang,order", [
    ("en", ["Harvested cards", "Sum of the cards", "Vegetable tokens won", "Cabbage tokens", "Corn tokens",
            "Tomato tokens", "Majorities: +3", "Cabbage majority +3", "Total", "Victory", "Wheelbarrow: worth"]),
    ("fr", ["Cartes récoltées", "Somme des cartes", "Jetons légume gagnés", "Jetons chou", "Jetons maïs",
            "Jetons tomate", "Majorités : +3", "Majorité chou +3", "Total", "Victoire", "Brouette : vaut"]),
])
def test_pad_walks_through_the_count_in_the_rules_order(lang, order):
    text = PdfReader(io.BytesIO(render_pdf(load_layout("plante-bataille"), lang=lang))).pages[0].extract_text()
    at = [text.index(words) for words in order]
    assert at == sorted(at)
