"""House values: a number printed from a `verified: false` value, or a label marked
`house: true`, carries the house mark `†`, and exactly the pages that carry one get
the house note, in the page's language, where it overlaps nothing."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from pypdf import PdfReader

from sheetgen import text as fonts
from sheetgen.cli import cli
from sheetgen.games import load_layout
from sheetgen.layout.display import Box, Text
from sheetgen.layout.housenote import HOUSE_NOTE, NOTE_SIZE
from sheetgen.layout.resolve import builtin_ids
from sheetgen.render import render_pdf

PT = 72 / 25.4


def texts(layout, page_id, lang, players=None):
    return [p for p in layout.display(layout.page(page_id), lang, players) if isinstance(p, Text)]


def notes(prims):
    return [p for p in prims if isinstance(p, Text) and p.path == "house_note"]


@pytest.fixture(scope="module")
def house():
    return load_layout(str(FIXTURES / "house.yaml"))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_unverified_numbers_are_marked_and_verified_ones_not(house, lang):
    shown = {p.path: p.text for p in texts(house, "sheet", lang)}
    assert (
        shown["note.text"] == {"fr": "Dés\u00a0: 6†, bonus 5", "en": "Dice: 6†, bonus 5"}[lang]
    )  # `dice` is unverified, `bonus` is not
    assert shown["values.sections[0].value"] == "3†"  # an unverified section's value
    assert shown["values.sections[1].value"] == "4"


def test_the_house_note_is_on_marked_pages_only_in_their_language(house):
    for lang in ("fr", "en"):
        assert [p.text for p in notes(texts(house, "sheet", lang))] == [HOUSE_NOTE[lang]]
        assert notes(texts(house, "plain", lang)) == []
        assert all("†" not in p.text for p in texts(house, "plain", lang))


def test_a_house_label_is_marked_and_a_page_may_word_its_own_note(house):
    fr, en = texts(house, "rule", "fr"), texts(house, "rule", "en")
    assert [p.text for p in fr] == ["Égalité\u00a0: partagée†", "† à notre façon"]
    assert [p.text for p in en] == ["Ties: shared†", "† our way"]
    assert house.house == ["tie.text"]


def _extent(t: Text):
    """The rectangle (mm) the lines of a Text occupy once fitted."""
    fit = fonts.fit_text(t.text, t.font, t.size, t.w * PT, t.h * PT, t.wrap, t.min_size)
    bh = (fit.size + (len(fit.lines) - 1) * fit.leading) / PT
    bw = max(fonts.width(line, t.font, fit.size) for line in fit.lines) / PT
    y = t.y + {"top": 0, "middle": (t.h - bh) / 2, "bottom": t.h - bh}[t.valign]
    x = t.x + {"left": 0, "center": (t.w - bw) / 2, "right": t.w - bw}[t.align]
    return x, y, bw, bh


def _meets(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("layout_id", builtin_ids())
def test_the_house_note_of_every_builtin_page_overlaps_no_text_and_no_box(layout_id):
    layout = load_layout(layout_id)
    for page in layout.pages:
        for lang in ("fr", "en"):
            for players in sorted({layout.players["min"], layout.players["max"]}):
                prims = layout.display(page, lang, players)
                marked = any("†" in p.text for p in prims if isinstance(p, Text) and p.path != "house_note")
                found = notes(prims)
                assert len(found) == (1 if marked else 0), (page.id, lang)
                for note in found:
                    assert note.text == layout.house_note[lang] and note.size == max(NOTE_SIZE, layout.smallest_text)
                    assert 0 <= note.x and note.x + note.w <= layout.width + 1e-6
                    assert 0 <= note.y and note.y + note.h <= layout.height + 1e-6
                    box = (note.x, note.y, note.w, note.h)
                    for p in prims:
                        if isinstance(p, Box):
                            assert not _meets(box, (p.x, p.y, p.w, p.h)), (page.id, lang, p.field)
                        elif isinstance(p, Text) and p is not note:
                            assert not _meets(box, _extent(p)), (page.id, lang, p.path)


def test_harvest_dice_marks_its_house_values():
    normal, advanced = load_layout("harvest-dice-normal"), load_layout("harvest-dice-advanced")
    for layout in (normal, advanced):
        shown = {p.path: p.text for p in texts(layout, "sheet", "en")}
        assert [shown[f"pig.sections[{n}].value"] for n in range(7)] == ["1†", "3†", "6†", "10†", "15†", "21†", "28†"]
        assert shown["garden.row_value"] == "5"  # the seed gives 5 per complete row
        assert "rolls 6† dice with 2 players, 9† with 3-4" in shown["rules.text"]
        assert "then the player on their left becomes first player" in shown["rules.text"]
    fr = {p.path: p.text for p in texts(advanced, "sheet", "fr")}
    assert fr["rules_majority.text"] == (
        "Majorités\u00a0: le plus de chaque légume au potager, le plus de cases cochées au cochon\u202f; "
        "les ex æquo gagnent tous, 0 ne gagne jamais.†"
    )
    assert "puis son voisin de gauche devient 1er joueur" in fr["rules.text"]
    assert "rules_majority" not in {p.path.split(".")[0] for p in texts(normal, "sheet", "fr")}


def test_imperial_settlers_marks_its_house_buildings_abilities_and_rules():
    # the seed names the Architects only, gives no ability, no letter, no field, and says
    # "adjacentes" without defining it; it does give the tie-breakers
    for layout_id in ("imperial-settlers", "imperial-settlers-advanced"):
        layout = load_layout(layout_id)
        village = {p.path: p.text for p in texts(layout, "village", "fr")}
        assert [village[f"{b}.name"] for b in ("sawmill", "tavern", "workshop", "mill", "forum", "architects")] == [
            "Scierie†",
            "Taverne†",
            "Atelier†",
            "Moulin†",
            "Forum†",
            "Architectes",
        ]
        assert village["sawmill.ability"] == "Chaque tour\u00a0: gagnez 1 bois.†"
        assert village["forum.ability"].count("†") == 1  # its points already carry the mark
        assert village["architects.ability"].endswith("+2 points de développement (une fois par tour).†")
        empire = {p.path: p.text for p in texts(layout, "empire", "en")}
        assert empire["bridges_help.text"].endswith("A bridge opens the fields of its letter.†")
        assert empire["fields.label"] == "Fields†"
        assert "†" not in empire["tiebreak_help.text"]
        # the resources drawn in the track and building boxes are the layout's: the sentence
        # that says what they cost carries the mark, on both pages
        assert empire["empire_help.text"].endswith("A box costs 1 action and the resources drawn in it.†")
        village_en = {p.path: p.text for p in texts(layout, "village", "en")}
        assert village_en["village_help.text"].endswith("A box costs 1 action and the resources drawn in it.†")
        assert village["village_help.text"].endswith("Une case coûte 1 action et les ressources dessinées dedans.†")
    advanced = load_layout("imperial-settlers-advanced")
    village = [p for p in texts(advanced, "village", "fr")]
    assert [p.text for p in village if p.path.endswith(".blueprint_label")] == ["Plan†"] * 6
    assert [p.text for p in village if p.path.endswith(".ladder_label")] == [
        "Valeur soulignée\u00a0: à chaque colonie, entourez la suivante†"
    ] * 6
    empire = {p.path: p.text for p in texts(advanced, "empire", "fr")}
    assert empire["colonies_help.text"].endswith(
        "Adjacentes\u00a0: voisines sur une piste, ou l’une au-dessus de l’autre dans la même colonne.†"
    )


@pytest.mark.parametrize("players", [2, 5])
def test_glassworks_marks_its_column_height_and_its_shared_victory(players):
    layout = load_layout("river-valley-glassworks")
    shown = {p.path: p.text for p in texts(layout, "pad", "fr", players)}
    board = [t for path, t in shown.items() if path.endswith(".label") and t.startswith("Plateau final")]
    assert board == ["Plateau final†"]  # 5 pieces a column: the seed gives 7 columns only
    assert shown["score.rows[3].label"] == "Ligne 5 (en haut)†"  # the fifth row: the same house reading
    assert "ex æquo\u00a0: tous gagnent†" in shown.values()
    assert "†" not in shown["rules.text"] and "†" not in shown["lake.text"]
    # the seed names white, purple, yellow and orange; the other four colours are ours
    names = {c: shown[f"glass_{c}_name.text"] for c in ("white", "purple", "light_blue", "dark_green", "orange")}
    assert names == {
        "white": "blanc",
        "purple": "violet",
        "light_blue": "bleu\nclair†",
        "dark_green": "vert\nfoncé†",
        "orange": "orange",
    }


def test_bosk_marks_only_the_unknown_order_fallback():
    layout = load_layout("bosk")
    pad = {p.path: p.text for p in texts(layout, "pad", "en", 4)}
    assert pad["final_rule.text"].endswith("Order unknown: a shared victory.†")
    marked = [path for path, t in pad.items() if "†" in t and path != "house_note"]
    assert marked == ["final_rule.text"]  # the summer and winter tables are the seed's
    assert notes(texts(layout, "summer", "en", 4)) == []


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_rendered_page_prints_the_note(lang):
    pdf = render_pdf(load_layout("harvest-dice-advanced"), lang=lang, paper="letter")
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert {"fr": "† valeur maison : la règle ne la fixe pas", "en": "† house value: the rules leave it open"}[
        lang
    ] in text
    assert "sheetgen" not in text  # what the mark means at the table, not where a designer reads more


def test_validate_lists_house_values_and_house_rules():
    result = CliRunner().invoke(cli, ["validate", "harvest-dice-advanced"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:] == [
        "note: 3 values are house defaults not checked against a published sheet (verified: false): "
        "constants.dice_two_players, constants.dice_more_players, pig",
        "note: 1 texts are house rules the published rules leave open (house: true): rules_majority.text",
    ]


@pytest.mark.parametrize("layout_id", builtin_ids())
def test_builtin_text_is_7pt_or_an_in_box_hint_of_5_5pt(layout_id):
    layout = load_layout(layout_id)
    for page in layout.pages:
        for lang in ("fr", "en"):
            for p in texts(layout, page.id, lang, layout.players["max"]):
                fit = fonts.fit_text(p.text, p.font, p.size, p.w * PT, p.h * PT, p.wrap, p.min_size)
                assert fit.fits and fit.size >= (5.5 if p.hint else 7.0), (page.id, p.path, fit.size)


def test_an_unverified_element_marks_its_value_and_the_placeholders_reading_it(tmp_path):
    path = tmp_path / "unsure-rows.yaml"
    path.write_text(
        "id: unsure-rows\nextends: harvest-dice-normal\npages:\n  - id: sheet\n    elements:\n"
        "      - {id: garden, verified: false}\n",
        encoding="utf-8",
    )
    layout = load_layout(str(path))
    shown = {p.path: p.text for p in texts(layout, "sheet", "en")}
    assert shown["garden.row_value"] == "5†"
    assert shown["score_totals.boxes[1].label"] == "Full rows × 5†"
    assert "garden" in layout.unverified
