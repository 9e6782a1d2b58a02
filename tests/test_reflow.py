"""The built-in pads and sheets reflow: their zones follow each
other (below:, right_of:) and their frames size to their contents, so that a row added
to a score table, a taller building card or a taller worksheet moves everything after it,
and a page that is then full says so, by how much, at the line of the variant that
filled it. The built-ins render as their goldens."""

from __future__ import annotations

import pytest
from conftest import ROOT
from test_variants import boxes as places
from test_variants import problems

from sheetgen.games import load_layout
from sheetgen.render import render_pdf

FIX = ROOT / "tests" / "fixtures" / "layouts"


def variant(tmp_path, parent: str, body: str, name: str = "v.yaml"):
    path = tmp_path / name
    path.write_text(f"id: v\nextends: {parent}\n{body}", encoding="utf-8")
    return path


def moved(parent: str, child, *ids) -> dict:
    """How far each element moved down (dy) and grew (dh) from the parent to the child."""
    a, b = places(load_layout(parent), *ids), places(load_layout(str(child)), *ids)
    return {i: (round(b[i][1] - a[i][1], 2), round(b[i][3] - a[i][3], 2)) for i in ids}


def renders(path):
    layout = load_layout(str(path))
    for lang in ("fr", "en"):
        assert render_pdf(layout, lang=lang).startswith(b"%PDF-")
    return layout


# ----------------------------------------------------------------------------- the built-ins keep their places


# where the built-ins put their zones (x, y, width, height in mm): a change to a built-in
# that moves one is seen here
PLACES = {
    "river-valley-glassworks": {
        "rarity": (0, 21, 110, 41),
        "row_points": (113, 21, 81, 41),
        "score": (0, 65, 194, 163.2),
        "rules_frame": (8, 230.2, 178, 32.8),
    },
    "plante-bataille": {"score": (0, 21, 194, 168), "rules_frame": (0, 193, 194, 61)},
    "bosk": {
        "summer_frame": (0, 35, 194, 41.5),
        "autumn_frame": (0, 79.5, 194, 30.5),
        "winter_frame": (0, 113, 194, 96.4),
        "final_frame": (0, 212.4, 194, 42),
        "tally_rows_frame": (0, 41, 194, 82),
        "tally_columns_frame": (0, 126, 194, 82),
        "tally_points_frame": (0, 211, 194, 36),
    },
    "imperial-settlers": {
        "rounds_frame": (0, 38, 194, 54.5),
        "empire_frame": (0, 95.5, 194, 94.5),
        "houses": (3, 124.5, 188.7, 8),
        "fields": (3, 167, 183.2, 13),
        "score_frame": (0, 193, 194, 57.5),
        "tiebreak_help": (50, 232.5, 144, 13),
        "tavern": (98.5, 36, 95.5, 56),
        "workshop": (0, 95, 95.5, 56),
        "architects": (98.5, 154, 95.5, 56),
        "points_frame": (0, 211.5, 194, 40.7),
    },
    "imperial-settlers-advanced": {
        "empire_frame": (0, 95.5, 194, 105.5),
        "colonies_help": (3, 189, 188, 11.5),
        "score_frame": (0, 203, 194, 51.5),
    },
}


@pytest.mark.parametrize("layout_id", PLACES)
def test_the_rewritten_built_ins_keep_their_places(layout_id):
    assert places(load_layout(layout_id), *PLACES[layout_id]) == PLACES[layout_id]


# ----------------------------------------------------------------------------- a change moves what follows


def test_a_taller_summer_tally_moves_the_worksheet_below_it(tmp_path):
    """One key: the rows' tally 5 mm taller; its frame grows, the columns' tally and the
    points move down 5 mm (the points frame keeps its height, its text's, clear of the scan
    marks)."""
    path = variant(
        tmp_path,
        "bosk",
        'pages:\n  - id: summer\n    elements:\n      - {id: summer_tally_rows, size: ["+=0", "+=5"]}\n',
    )
    renders(path)
    assert moved("bosk", path, "tally_rows_frame", "tally_columns_frame", "tally_points_frame") == {
        "tally_rows_frame": (0, 5),
        "tally_columns_frame": (5, 0),
        "tally_points_frame": (5, 0),
    }


def test_a_taller_building_card_moves_the_cards_below_it(tmp_path):
    """The Sawmill 4 mm taller moves the two rows of cards under it 4 mm down; the last row
    gives the room back (the Village page is full), so the points frame stays."""
    body = (
        "pages:\n  - id: village\n    elements:\n"
        '      - {id: sawmill, size: ["+=0", "+=4"]}\n'
        '      - {id: forum, size: ["+=0", "-=4"]}\n'
        '      - {id: architects, size: ["+=0", "-=4"]}\n'
    )
    path = variant(tmp_path, "imperial-settlers", body)
    renders(path)
    cards = ("tavern", "workshop", "mill", "forum", "architects", "points_frame")
    assert moved("imperial-settlers", path, *cards) == {
        "tavern": (0, 0),
        "workshop": (4, 0),
        "mill": (4, 0),
        "forum": (4, -4),
        "architects": (4, -4),
        "points_frame": (0, 0),
    }


GW_SIX_ROWS = """constants:
  column_height: {value: 6, verified: true, note: "our variant: columns of six"}
pages:
  - id: pad
    elements:
      - id: score
        rows:
          - {id: board, height: 49}
          - {id: rows_heading}
          - {id: row_6, height: ROW, count: {fr: "suite", en: "run"}, label: {fr: "Ligne 6 (en haut)", en: "Row 6 (top)"}}
          - {id: row_5, label: {fr: "Ligne 5", en: "Row 5"}}
"""


def test_a_glassworks_row_moves_the_reminder(tmp_path):
    """Columns of six: a sixth run row, and the board's copies 4.8 mm taller to keep cells
    of 5 mm. At the rows' 8.5 mm the page is full; six rows of 7 mm take the room of five of
    8.5, and the reminder follows the table (4.3 mm down) in the height left (`fill`)."""
    smaller = "".join(f"          - {{id: row_{n}, height: 7}}\n" for n in range(4, 0, -1))
    body = GW_SIX_ROWS.replace("ROW", "7").replace("{id: row_5, label", "{id: row_5, height: 7, label") + smaller
    path = variant(tmp_path, "river-valley-glassworks", body)
    layout = renders(path)
    assert [r["id"] for r in layout.element("score")["rows"]][2:9] == [
        "rows_heading",
        "row_6",
        "row_5",
        "row_4",
        "row_3",
        "row_2",
        "row_1",
    ]
    assert moved("river-valley-glassworks", path, "score", "rules_frame") == {
        "score": (0, 4.3),
        "rules_frame": (4.3, -4.3),
    }


def test_a_plante_bataille_row_moves_the_reminder(tmp_path):
    """A fourth vegetable row, in room taken from the card values: the reminder follows the
    table (its height its text's, clear of the scan marks)."""
    body = (
        "pages:\n  - id: pad\n    elements:\n      - id: score\n        rows:\n"
        "          - {id: harvest_values, height: 24}\n"
        "          - {id: tokens_veg3}\n"
        '          - {id: tokens_veg4, height: 7, label: {fr: "Légume 4 : ____", en: "Vegetable 4: ____"}}\n'
    )
    path = variant(tmp_path, "plante-bataille", body)
    renders(path)
    assert moved("plante-bataille", path, "score", "rules_frame") == {"score": (0, -1), "rules_frame": (-1, 0)}


# ----------------------------------------------------------------------------- the page is full


def test_a_glassworks_row_on_a_full_page_is_reported_at_its_line(tmp_path):
    """One line: the house note that finds no room on the full page is not reported too."""
    path = variant(tmp_path, "river-valley-glassworks", GW_SIX_ROWS.replace("ROW", "8.5"))
    assert problems(path) == [
        f"{path}:9: score.rows: moves 'rules_frame': outside the printable area: spans x 8-186mm, "
        "y 243.5-269mm; the sheet is 194 x 263mm; the page is full: what is above 'rules_frame' is 6mm "
        "too tall ('rules_frame' is at river-valley-glassworks:237)"
    ]


@pytest.mark.parametrize(
    "parent, body, message",
    [
        (
            "plante-bataille",
            "pages:\n  - id: pad\n    elements:\n      - id: score\n        rows:\n          - {id: tokens_veg3}\n"
            '          - {id: tokens_veg4, height: 11, label: {fr: "Légume 4", en: "Vegetable 4"}}\n',
            ":7: score.rows: moves 'rules_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
            "which `scan_marks: true` keeps free; the page is full: what is above 'rules_frame' is 9.5mm too tall "
            "('rules_frame' is at plante-bataille:128)",
        ),
        (
            "bosk",
            "pages:\n  - id: pad\n    elements:\n      - id: winter\n        rows:\n          - {id: terrain_8}\n"
            '          - {id: terrain_9, icon: leaf, height: 14, label: {fr: "Terrain 9", en: "Terrain 9"}}\n',
            ":7: winter.rows: moves 'final_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
            "which `scan_marks: true` keeps free; the page is full: what is above 'final_frame' is 12.9mm too tall "
            "('final_frame' is at bosk:402)",
        ),
        (
            "imperial-settlers",
            'pages:\n  - id: village\n    elements:\n      - {id: sawmill, size: ["+=0", "+=4"]}\n',
            ":6: sawmill.size: moves 'points_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
            "which `scan_marks: true` keeps free; the page is full: what is above 'points_frame' is 0.7mm too tall "
            "('points_frame' is at imperial-settlers:460)",
        ),
    ],
    ids=["plante-bataille", "bosk", "imperial-settlers"],
)
def test_a_row_on_a_full_page_is_reported_at_the_variants_line(tmp_path, parent, body, message):
    path = variant(tmp_path, parent, body)
    assert problems(path) == [f"{path}{message}"]


def test_a_track_added_to_the_empire_names_the_new_element(tmp_path):
    body = (
        "pages:\n  - id: empire\n    elements:\n      - id: fields_help\n      - id: towers\n        type: track\n"
        "        in: empire_frame\n        below: fields_help\n        space: 1\n"
        '        label: {fr: "Tours", en: "Towers"}\n        boxes: 10\n'
    )
    path = variant(tmp_path, "imperial-settlers", body)
    # one line: the frame is also off the sheet, which the scan mark's message says already
    assert problems(path) == [
        f"{path}:7: towers: moves 'score_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
        "which `scan_marks: true` keeps free; the page is full: what is above 'score_frame' is 4mm too tall "
        "('score_frame' is at imperial-settlers:292)"
    ]


# ----------------------------------------------------------------------------- a text a variant's constant overfills


def test_a_constant_that_overfills_an_inherited_text_is_reported_at_its_line():
    path = FIX / "child_constant_text.yaml"
    where = f"{path}:6: constants.glass_white: glass_white_count.text: text does not fit in 13 x 5mm"
    parent = "('glass_white_count' is at river-valley-glassworks:66)"
    assert problems(path) == [
        f"{where} with {players} players ({lang}): '1234567890123' {parent}"
        for lang in ("fr", "en")
        for players in (2, 5)
    ]


def test_a_size_that_overfills_an_inherited_text_is_reported_at_its_line(tmp_path):
    body = "pages:\n  - id: pad\n    elements:\n      - {id: rarity_help, size: [60, 5]}\n"
    path = variant(tmp_path, "river-valley-glassworks", body)
    lines = problems(path)
    assert lines[0] == (
        f"{path}:6: rarity_help.size: rarity_help.text: text does not fit in 60 x 5mm with 2 players (fr): "
        "'Une couleur par colonne, 8 couleurs pour 7 colonnes\\xa0: la 8ᵉ couleur et les pièce'... (107 characters) "
        "('rarity_help' is at river-valley-glassworks:110)"
    )
    assert len(lines) == 4 and all(line.startswith(f"{path}:6: rarity_help.size: ") for line in lines)


def test_an_inherited_card_made_too_short_by_the_childs_key_is_reported_at_that_key(tmp_path):
    """A bigger box on a building card leaves no room under the card's `size`, which the
    parent writes: the error comes at the child's own key first (the line the designer
    can change), the card's place after."""
    body = "pages:\n  - id: village\n    elements:\n      - id: sawmill\n        box: 9\n        points: 3\n"
    path = variant(tmp_path, "imperial-settlers-advanced", body)
    assert problems(path) == [
        f"{path}:7: sawmill.box: sawmill.size: the card is too short for its points and its 'finished in "
        "round' box ('sawmill' is at imperial-settlers:382)"
    ]
