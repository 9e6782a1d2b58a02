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

from sheetgen.layout.model import load_layout
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


# where the built-ins put their zones before they reflowed (x, y, width, height in mm)
PLACES = {
    "river-valley-glassworks": {
        "rarity": (0, 23, 110, 41),
        "row_points": (113, 23, 81, 41),
        "score": (0, 67, 194, 161),
        "rules_frame": (8, 230, 178, 27),
    },
    "plante-bataille": {"score": (0, 23, 194, 165), "rules_frame": (0, 192, 194, 61)},
    "bosk": {
        "summer_frame": (0, 37, 194, 44),
        "autumn_frame": (0, 84, 194, 28),
        "winter_frame": (0, 115, 194, 91),
        "final_frame": (0, 209, 194, 46),
        "tally_rows_frame": (0, 39, 194, 70),
        "tally_columns_frame": (0, 112, 194, 70),
        "tally_points_frame": (0, 185, 194, 34),
    },
    "imperial-settlers": {
        "rounds_frame": (0, 39, 194, 59),
        "empire_frame": (0, 101, 194, 92),
        "houses": (3, 129, 187.2, 8),
        "fields": (3, 168, 183.2, 12),
        "score_frame": (0, 196, 194, 59),
        "tiebreak_help": (46, 236, 144, 13),
        "tavern": (98.5, 39, 95.5, 56),
        "workshop": (0, 98, 95.5, 56),
        "architects": (98.5, 157, 95.5, 56),
        "points_frame": (0, 214.5, 194, 41),
    },
    "imperial-settlers-advanced": {
        "empire_frame": (0, 101, 194, 103),
        "colonies_help": (3, 192, 188, 11.5),
        "score_frame": (0, 206, 194, 49.5),
    },
}


@pytest.mark.parametrize("layout_id", PLACES)
def test_the_rewritten_built_ins_keep_their_places(layout_id):
    assert places(load_layout(layout_id), *PLACES[layout_id]) == PLACES[layout_id]


# ----------------------------------------------------------------------------- a change moves what follows


def test_a_taller_summer_tally_moves_the_worksheet_below_it(tmp_path):
    """One key: the rows' tally 10 mm taller; the columns' tally and the points move down 10 mm."""
    path = variant(
        tmp_path, "bosk", "pages:\n  - id: summer\n    elements:\n      - {id: tally_rows_frame, size: [194, 80]}\n"
    )
    renders(path)
    assert moved("bosk", path, "tally_rows_frame", "tally_columns_frame", "tally_points_frame") == {
        "tally_rows_frame": (0, 10),
        "tally_columns_frame": (10, 0),
        "tally_points_frame": (10, 0),
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
          - {id: rows_heading}
          - {id: row_6, height: ROW, count: {fr: "suite", en: "run"}, label: {fr: "Ligne 6 (en haut)", en: "Row 6 (top)"}}
          - {id: row_5, label: {fr: "Ligne 5", en: "Row 5"}}
"""


def test_a_glassworks_row_moves_the_reminder(tmp_path):
    """Columns of six: a sixth run row. At the rows' 8.5 mm the page is full; six rows of
    7 mm take the room of five of 8.5, and the reminder follows the table (0.5 mm up)."""
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
        "score": (0, -0.5),
        "rules_frame": (-0.5, 0),
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
        "y 238.5-265.5mm; the sheet is 194 x 263mm; the page is full: what is above 'rules_frame' is 2.5mm "
        "too tall ('rules_frame' is at river-valley-glassworks:230)"
    ]


@pytest.mark.parametrize(
    "parent, body, message",
    [
        (
            "plante-bataille",
            "pages:\n  - id: pad\n    elements:\n      - id: score\n        rows:\n          - {id: tokens_veg3}\n"
            '          - {id: tokens_veg4, height: 11, label: {fr: "Légume 4", en: "Vegetable 4"}}\n',
            ":7: score.rows: moves 'rules_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
            "which `scan_marks: true` keeps free; the page is full: what is above 'rules_frame' is 8.5mm too tall "
            "('rules_frame' is at plante-bataille:119)",
        ),
        (
            "bosk",
            "pages:\n  - id: pad\n    elements:\n      - id: winter\n        rows:\n          - {id: terrain_8}\n"
            '          - {id: terrain_9, icon: leaf, height: 10, label: {fr: "Terrain 9", en: "Terrain 9"}}\n',
            ":7: winter.rows: moves 'final_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
            "which `scan_marks: true` keeps free; the page is full: what is above 'final_frame' is 8.5mm too tall "
            "('final_frame' is at bosk:423)",
        ),
        (
            "imperial-settlers",
            'pages:\n  - id: village\n    elements:\n      - {id: sawmill, size: ["+=0", "+=4"]}\n',
            ":6: sawmill.size: moves 'points_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
            "which `scan_marks: true` keeps free; the page is full: what is above 'points_frame' is 4mm too tall "
            "('points_frame' is at imperial-settlers:449)",
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
    # one line: the frame is also 1 mm off the sheet, which the scan mark's 8.5 mm says already
    assert problems(path) == [
        f"{path}:7: towers: moves 'score_frame': overlaps the scan marker 2 (x 186.5-194mm, y 255.5-263mm), "
        "which `scan_marks: true` keeps free; the page is full: what is above 'score_frame' is 8.5mm too tall "
        "('score_frame' is at imperial-settlers:287)"
    ]


# ----------------------------------------------------------------------------- a text a variant's constant overfills


def test_a_constant_that_overfills_an_inherited_text_is_reported_at_its_line():
    path = FIX / "child_constant_text.yaml"
    where = f"{path}:6: constants.glass_white: glass_white_count.text: text does not fit in 13 x 5mm"
    parent = "('glass_white_count' is at river-valley-glassworks:64)"
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
        "'Une couleur par colonne, 8 couleurs pour 7 colonnes : la 8e couleur et les pièce'... (107 characters) "
        "('rarity_help' is at river-valley-glassworks:108)"
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
        "round' box ('sawmill' is at imperial-settlers:371)"
    ]
