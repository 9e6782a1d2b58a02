"""Plante Bataille score pad: golden PDFs at 3, 6 and 12 players in both languages,
and the page's text (one column per player, the rules' order)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from sheetgen.games import load_layout
from sheetgen.render import render_pdf


def test_letter_pad_is_one_letter_page():
    data = render_pdf(load_layout("plante-bataille"), lang="en", paper="letter", players=6, copies=3)
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(pages) == 3
    assert (round(float(pages[0].mediabox.width)), round(float(pages[0].mediabox.height))) == (612, 792)


@pytest.mark.parametrize(
    "lang,order",
    [
        (
            "en",
            [
                "Harvested cards",
                "Sum of the cards",
                "Vegetable tokens won",
                "Vegetable 1:",
                "Vegetable 2:",
                "Vegetable 3:",
                "Majorities: +3",
                "Vegetable 1 majority +3",
                "Total",
                "Victory",
                "Wheelbarrow: worth",
            ],
        ),
        (
            "fr",
            [
                "Cartes récoltées",
                "Somme des cartes",
                "Jetons légume gagnés",
                "Légume 1 :",
                "Légume 2 :",
                "Légume 3 :",
                "Majorités : +3",
                "Majorité légume 1 +3",
                "Total",
                "Victoire",
                "Brouette : vaut",
            ],
        ),
    ],
)
def test_pad_walks_through_the_count_in_the_rules_order(lang, order):
    text = PdfReader(io.BytesIO(render_pdf(load_layout("plante-bataille"), lang=lang))).pages[0].extract_text()
    at = [text.index(words) for words in order]
    assert at == sorted(at)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_pad_names_no_vegetable_the_seed_does_not_name(lang):
    text = PdfReader(io.BytesIO(render_pdf(load_layout("plante-bataille"), lang=lang))).pages[0].extract_text()
    for word in ("chou", "maïs", "tomate", "cabbage", "corn", "tomato"):
        assert word not in text.lower()
