"""One tiny fixture per layout rule (tests/fixtures/layouts/), each asserting the
exact message: `file:line: key.path: message`.

The tests run from the repository root and name fixtures by relative path, so
messages show e.g. `tests/fixtures/layouts/cycle_b.yaml:3: ...`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from sheetgen.errors import LayoutError
from sheetgen.games import load_layout
from sheetgen.layout.elements import TYPES
from sheetgen.layout.resolve import builtin_ids
from sheetgen.schema import parse_length

FIX = "tests/fixtures/layouts"
ACCEPTED_TRACK_KEYS = (
    "arrange, at, below, bonus_mark, box, boxes, gap, icon, id, in, label, label_width, order, "
    "prechecked, remove, right_of, sections, space, type, verified"
)


@pytest.fixture(autouse=True)
def _from_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def problems(name: str) -> list[str]:
    with pytest.raises(LayoutError) as info:
        load_layout(f"{FIX}/{name}")
    assert str(info.value) == "\n".join(info.value.lines)
    return info.value.lines


def test_base_fixture_is_valid():
    layout = load_layout(f"{FIX}/base.yaml")
    assert layout.id == "base"
    assert [el["id"] for el in layout.pages[0].elements] == ["note", "boxes"]


# --------------------------------------------------------------------------- extends


def test_extends_later_parent_wins_and_child_wins_over_both():
    layout = load_layout(f"{FIX}/extends_order.yaml")
    assert layout.id == "extends-order"
    assert layout.title == {"fr": "Parent B", "en": "Parent B"}  # parent_b, the later parent
    assert layout.theme == {"accent": "#00bb00", "tint": "#f0f0f0"}  # parent_b's accent, the child's tint
    assert layout.constants == {"bonus": 9, "only_a": 1}  # mappings merge key by key
    assert layout.element("note")["text"] == {"fr": "Texte B", "en": "Text B"}
    # from_a is new in parent_a, listed after note there: it stays right after note
    assert [el["id"] for el in layout.pages[0].elements] == ["note", "from_a", "boxes"]
    assert layout.source == f"{FIX}/extends_order.yaml"


def test_extends_cycle():
    assert problems("cycle_a.yaml") == [
        f"{FIX}/cycle_b.yaml:3: extends: cycle: cycle_a.yaml -> cycle_b.yaml -> cycle_a.yaml"
    ]
    assert problems("cycle_b.yaml") == [
        f"{FIX}/cycle_a.yaml:2: extends: cycle: cycle_b.yaml -> cycle_a.yaml -> cycle_b.yaml"
    ]


def test_extends_itself(tmp_path):
    path = tmp_path / "self.yaml"
    path.write_text("# extends itself\nextends: self.yaml\n")
    with pytest.raises(LayoutError) as info:
        load_layout(str(path))
    assert info.value.lines == [f"{path}:2: extends: cycle: self.yaml -> self.yaml"]


def test_extends_missing_builtin_parent():
    assert problems("missing_builtin.yaml") == [
        f"{FIX}/missing_builtin.yaml:2: extends: no built-in layout 'harvest-dice-huge' "
        f"(built-in layouts: {', '.join(builtin_ids())})"
    ]


def test_extends_missing_file_parent():
    assert problems("missing_file.yaml") == [f"{FIX}/missing_file.yaml:4: extends: no file 'no_such_parent.yaml'"]


def test_missing_layout_itself():
    with pytest.raises(LayoutError) as info:
        load_layout(f"{FIX}/does_not_exist.yaml")
    assert info.value.lines == [f"{FIX}/does_not_exist.yaml: no such file"]
    with pytest.raises(LayoutError) as info:
        load_layout("harvest-dice-huge")
    assert info.value.lines == [f"no built-in layout 'harvest-dice-huge'; built-in layouts: {', '.join(builtin_ids())}"]


def test_remove_deletes_a_parent_element():
    layout = load_layout(f"{FIX}/remove.yaml")
    assert [el["id"] for el in layout.pages[0].elements] == ["boxes"]
    assert not layout.has("note")


def test_remove_of_an_unknown_element():
    assert problems("remove_unknown.yaml") == [
        f"{FIX}/remove_unknown.yaml:6: nothing_here.remove: no element 'nothing_here' in the parents to remove"
    ]


def test_new_elements_follow_their_predecessor_in_the_child():
    layout = load_layout(f"{FIX}/order.yaml")
    assert [el["id"] for el in layout.pages[0].elements] == ["note", "after_note", "boxes", "first_listed"]


# --------------------------------------------------------------------------- units


@pytest.mark.parametrize(
    "text, mm",
    [
        ("12mm", 12.0),
        ("0.5in", 12.7),
        ("10pt", 10 * 25.4 / 72),
        ("1cm", 10.0),
        ("2.5", 2.5),
        (7, 7.0),
        (2.25, 2.25),
        (" 3 mm ", 3.0),
        ("-4mm", -4.0),
        (".5in", 12.7),
    ],
)
def test_lengths(text, mm):
    assert parse_length(text) == pytest.approx(mm)


@pytest.mark.parametrize("text", ["12px", "mm", "1e3", "", "12 m m", True, None, [1], "twelve"])
def test_bad_lengths(text):
    assert parse_length(text) is None


def test_units_in_a_layout():
    layout = load_layout(f"{FIX}/units.yaml")
    note, boxes = layout.element("note"), layout.element("boxes")
    assert (note["x"], note["y"]) == pytest.approx((12.0, 12.7))
    assert note["size"] == pytest.approx((10 * 25.4 / 72, 10.0))
    assert (boxes["x"], boxes["y"]) == pytest.approx((2.5, 30.0))  # bare numbers, even quoted, are mm
    assert boxes["box"] == pytest.approx(10.16)


def test_bad_unit():
    assert problems("bad_unit.yaml") == [
        f"{FIX}/bad_unit.yaml:7: note.at[0]: expected a length like 12mm, 0.5in, 10pt or 12, got '12px'"
    ]


# --------------------------------------------------------------------------- keys and labels


def test_unknown_element_key_lists_the_accepted_keys():
    assert problems("unknown_key.yaml") == [
        f"{FIX}/unknown_key.yaml:7: boxes.colour: unknown key; accepted keys: {ACCEPTED_TRACK_KEYS}"
    ]


def test_a_track_is_checked_from_the_left_or_in_any_order():
    assert problems("track_order.yaml") == [
        f"{FIX}/track_order.yaml:7: boxes.order: expected one of left, any, got 'random'"
    ]


def test_unknown_top_level_key_lists_the_accepted_keys():
    assert problems("unknown_top_key.yaml") == [
        f"{FIX}/unknown_top_key.yaml:3: colour: unknown key; accepted keys: constants, description, extends, game, house_note, "
        "house_note_in, id, pages, players, scan_marks, sheet, smallest_text, theme, title"
    ]


def test_label_missing_english():
    assert problems("label_no_en.yaml") == [
        f"{FIX}/label_no_en.yaml:11: hello.text: missing key 'en' (every label exists in French and English)"
    ]


def test_label_missing_french():
    assert problems("label_no_fr.yaml") == [
        f"{FIX}/label_no_fr.yaml:8: pages[0].title: missing key 'fr' (every label exists in French and English)"
    ]


def test_label_as_plain_text():
    assert problems("label_plain.yaml") == [
        f"{FIX}/label_plain.yaml:8: note.text: expected a label with 'fr' and 'en', got 'Hello'"
    ]


def test_glyph_the_font_lacks():
    assert problems("glyph.yaml") == [
        f"{FIX}/glyph.yaml:7: note.text: the font has no glyph for '🥕' (fr)",
        f"{FIX}/glyph.yaml:7: note.text: the font has no glyph for '胡萝卜' (en)",
    ]


def test_unknown_constant_in_text():
    assert problems("unknown_constant.yaml") == [
        f"{FIX}/unknown_constant.yaml:7: note.text: unknown constant '{{malus}}' in text; constants: bonus "
        "(or an element key path like garden.row_value)"
    ]


def test_duplicate_ids():
    assert problems("duplicate_id.yaml") == [f"{FIX}/duplicate_id.yaml:14: note.id: duplicate element id"]


def test_duplicate_number_box_ids():
    assert problems("duplicate_box_id.yaml") == [
        f"{FIX}/duplicate_box_id.yaml:12: score.boxes[1].id: duplicate id 'total': already the id of a box of 'score'",
        f"{FIX}/duplicate_box_id.yaml:13: score.boxes[2].id: duplicate id 'note': already the id of element 'note'",
    ]


def test_remove_then_add_replaces_an_element_whole():
    layout = load_layout(f"{FIX}/replace.yaml")
    assert [(el["id"], el["type"]) for el in layout.pages[0].elements] == [("boxes", "track"), ("note", "icon")]
    assert "text" not in layout.element("note")


def test_empty_file():
    assert problems("empty.yaml") == [
        f"{FIX}/empty.yaml:1: expected a layout mapping (id, game, title, pages...), got an empty file"
    ]


def test_yaml_syntax_error():
    assert problems("yaml_syntax.yaml") == [f"{FIX}/yaml_syntax.yaml:4: expected ',' or '}}', but got '<scalar>'"]


# --------------------------------------------------------------------------- the page


def test_element_outside_the_printable_area():
    assert problems("outside.yaml") == [
        f"{FIX}/outside.yaml:7: boxes: outside the printable area: spans x 80-106.4mm, y 20-28mm; "
        "the sheet is 100 x 80mm"
    ]


def test_overlapping_elements():
    assert problems("overlap.yaml") == [f"{FIX}/overlap.yaml:7: boxes: overlaps 'note'"]


def test_text_that_does_not_fit_its_box():
    assert problems("text_overflow.yaml") == [
        f"{FIX}/text_overflow.yaml:8: note.text: text does not fit in 20 x 3mm (fr): "
        "'Un texte bien trop long pour sa boîte'",
        f"{FIX}/text_overflow.yaml:8: note.text: text does not fit in 20 x 3mm (en): 'A text far too long for its box'",
    ]


def test_board_labels_side_by_side_never_run_together():
    """Each column label under a board copy keeps 0.25 mm free on each side (LABEL_INSET):
    at five players in the player columns the cells are 3.9 mm and '×1'...'×7' would print
    as one word, '×1×2×3...'; the validator refuses it, one line per label and language."""
    found = problems("narrow_board_labels.yaml")
    assert len(found) == 14
    assert found[0] == (
        f"{FIX}/narrow_board_labels.yaml:10: score.rows: score.rows[1].col_labels[0]: text does not fit "
        "in 3.4 x 3mm with 5 players (fr): '×1' ('score' is at river-valley-glassworks:199)"
    )
    assert found[13].endswith(
        "col_labels[6]: text does not fit in 3.4 x 3mm with 5 players (en): '×7' "
        "('score' is at river-valley-glassworks:199)"
    )


def test_box_smaller_than_7mm():
    assert problems("small_box.yaml") == [
        f"{FIX}/small_box.yaml:6: boxes: boxes of 5 x 5mm are too small to mark; at least 7mm"
    ]


def test_in_places_inside_the_frame_below_its_title():
    layout = load_layout(f"{FIX}/in_frame.yaml")
    inside = layout.element("inside")
    assert (inside["x"], inside["y"]) == (10 + 2, 5 + 8 + 3)  # frame at + header 8 + own at
    plain = layout.element("inside_plain")
    assert (plain["x"], plain["y"]) == (0 + 2, 68 + 1)  # no title: no header offset


def test_in_an_unknown_frame():
    assert problems("in_unknown.yaml") == [f"{FIX}/in_unknown.yaml:7: inside.in: no frame 'zoen' earlier on this page"]


def test_element_sticking_out_of_its_frame():
    assert problems("out_of_frame.yaml") == [
        f"{FIX}/out_of_frame.yaml:8: inside: sticks out of frame 'zone': spans x 60-95.6mm, y 16-24mm; "
        "the frame spans x 10-90mm, y 5-65mm"
    ]


def test_element_over_a_frame_title():
    assert problems("frame_title_overlap.yaml") == [
        f"{FIX}/frame_title_overlap.yaml:8: inside: overlaps the title of frame 'zone'"
    ]


# --------------------------------------------------------------------------- all at once


def test_several_schema_errors_are_reported_at_once():
    assert problems("many_errors.yaml") == [
        f"{FIX}/many_errors.yaml:4: theme.accent: expected a colour like '#4a7c2f', got 'green'",
        f"{FIX}/many_errors.yaml:9: note.size[1]: expected a length like 12mm, 0.5in, 10pt or 12, got '10cubits'",
        f"{FIX}/many_errors.yaml:12: boxes.shape: unknown key; accepted keys: {ACCEPTED_TRACK_KEYS}",
        f"{FIX}/many_errors.yaml:17: hello.text: missing key 'en' (every label exists in French and English)",
        f"{FIX}/many_errors.yaml:19: sticker.type: unknown element type 'sticker'; types: {', '.join(sorted(TYPES))}",
    ]


def test_several_page_errors_are_reported_at_once():
    assert problems("page_errors.yaml") == [
        f"{FIX}/page_errors.yaml:11: boxes: outside the printable area: spans x 90-107.4mm, y 20-25mm; "
        "the sheet is 100 x 80mm",
        f"{FIX}/page_errors.yaml:9: note.text: unknown constant '{{malus}}' in text; constants: bonus "
        "(or an element key path like garden.row_value)",
        f"{FIX}/page_errors.yaml:9: note.text: text does not fit in 20 x 3mm (fr): "
        "'Bonus 5 et ?, un texte bien trop long'",
        f"{FIX}/page_errors.yaml:10: boxes: boxes of 5 x 5mm are too small to mark; at least 7mm",
    ]


# --------------------------------------------------------------------------- errors point at the right file


def test_errors_in_an_inherited_element_point_at_the_child(tmp_path):
    """A child that changes an element's type: the missing keys are the child's doing."""
    child = tmp_path / "child.yaml"
    child.write_text(
        f"extends: {ROOT / FIX / 'base.yaml'}\nid: child\npages:\n  - id: sheet\n    elements:\n"
        "      - id: note\n        type: grid\n"
    )
    with pytest.raises(LayoutError) as info:
        load_layout(str(child))
    base = f"{ROOT / FIX / 'base.yaml'}"
    assert info.value.lines == [
        f"{base}:16: note.size: unknown key; accepted keys: at, below, cell, col_labels, cols, id, in, remove, right_of, "
        "row_value, rows, space, type, verified",
        f"{base}:17: note.text: unknown key; accepted keys: at, below, cell, col_labels, cols, id, in, remove, right_of, "
        "row_value, rows, space, type, verified",
        f"{child}:6: note: missing key 'rows'",
        f"{child}:6: note: missing key 'cols'",
    ]


def test_cache_sees_a_changed_parent(tmp_path):
    parent = tmp_path / "parent.yaml"
    parent.write_text((ROOT / FIX / "base.yaml").read_text())
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\nid: child\n")
    assert load_layout(str(child)).theme["accent"] == "#111111"
    # (a different size too: two writes within one clock tick can share an mtime)
    parent.write_text(parent.read_text().replace("#111111", "#123456") + "# edited\n")
    assert load_layout(str(child)).theme["accent"] == "#123456"


@pytest.mark.parametrize("layout_id", ["harvest-dice-normal", "harvest-dice-advanced"])
def test_builtin_harvest_dice_layouts_validate(layout_id):
    layout = load_layout(layout_id)
    assert layout.game == "harvest-dice"
    assert "pig" in layout.unverified


def test_title_placeholders_are_checked_and_filled(tmp_path):
    assert problems("title_placeholder.yaml") == [
        f"{FIX}/title_placeholder.yaml:4: title: unknown constant '{{malus}}' in text; constants: bonus "
        "(or an element key path like garden.row_value)"
    ]
    good = tmp_path / "good.yaml"
    good.write_text(
        (Path(FIX) / "title_placeholder.yaml").read_text(encoding="utf-8").replace("{malus}", "+{bonus}"),
        encoding="utf-8",
    )
    assert load_layout(str(good)).title == {"fr": "Bonus 4", "en": "Bonus +4"}


# --------------------------------------------------------------------------- print sizes and house values


def test_text_smaller_than_7pt():
    assert problems("small_text.yaml") == [
        f"{FIX}/small_text.yaml:7: note.font_size: text of 6.5pt is too small to read; at least 7pt "
        "(only a hint inside a box, style: hint, may go down to 5.5pt)"
    ]


def test_text_never_shrinks_below_7pt_to_fit():
    assert problems("shrink_below.yaml") == [
        f"{FIX}/shrink_below.yaml:9: note.text: text does not fit in 9 x 2.6mm (fr): 'colonne'",
        f"{FIX}/shrink_below.yaml:9: note.text: text does not fit in 9 x 2.6mm (en): 'column'",
    ]


def test_a_hint_may_be_5_5pt_and_no_smaller():
    note = load_layout(f"{FIX}/hint_text.yaml").element("note")
    assert (note["style"], note["font_size"]) == ("hint", 6.0)
    assert problems("small_hint.yaml") == [
        f"{FIX}/small_hint.yaml:8: note.font_size: expected a number from 5.5 to 48, got 5"
    ]


def test_house_value_without_room_for_the_house_note():
    assert problems("house_no_room.yaml") == [
        f"{FIX}/house_no_room.yaml:7: pages[0]: prints house values (†) but has no free place for the house "
        f"note ({lang}: one line of {width} x 3.2mm or 2-3 shorter lines); leave room at the bottom of the sheet"
        for lang, width in (("fr", "47.8"), ("en", "45.7"))
    ]


def test_label_house_is_true_or_false():
    assert problems("label_house_bad.yaml") == [
        f"{FIX}/label_house_bad.yaml:7: note.text.house: expected true or false, got 'yes'"
    ]
