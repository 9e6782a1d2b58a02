"""Element types, one module each, and check-then-build: the registry lists every type
module, a type's check computes its problems without building, builders record
nothing, and a builder given what its check refuses raises a located LayoutError."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from click.testing import CliRunner
from conftest import ROOT

import sheetgen.layout.elements as E
from sheetgen import text as fonts
from sheetgen.cli import cli
from sheetgen.errors import LayoutError
from sheetgen.games import load_layout
from sheetgen.layout.display import Text
from sheetgen.layout.housenote import NOTE_H, NOTE_SIZE

PT = 72 / 25.4

TALLY = """\
id: t3
game: bosk
title: {fr: x, en: x}
players: {min: 2, max: 4, default: 2}
constants:
  lines_2p: 5
  lines_4p: 7
pages:
  - id: p
    title: {fr: x, en: x}
    elements:
      - id: t
        type: line_tally
        at: [0, 0]
        size: [190, 60]
        lines: 'lines_{players}p'
        line_label: {fr: Ligne, en: Row}
"""


def test_the_registry_lists_every_type_module():
    modules = [m.name for m in pkgutil.iter_modules(E.__path__) if m.name != "common"]
    types = [importlib.import_module(f"sheetgen.layout.elements.{m}").TYPE for m in modules]
    assert sorted(t.name for t in types) == sorted(E.TYPES) == sorted(modules)
    assert all(E.TYPES[t.name] is t for t in types)


def test_label_placeholders_are_checked_not_recorded_by_building():
    layout = load_layout("harvest-dice-normal")
    env = layout.env("en")
    label = {"fr": "a {nope} b", "en": "a {nope} b {x"}
    assert env.t(label, "p") == "a {nope} b {x"  # braces that do not parse: the text as written
    assert env.t({"fr": "a {nope}", "en": "a {nope}"}, "p") == "a ?"
    assert env.problems(label, "p") == [("p", "bad braces in text: expected '}' before end of string")]
    known = ", ".join(sorted(layout.constants))
    assert env.problems({"fr": "", "en": "{nope} {pig.value}"}, "p") == [
        (
            "p",
            f"unknown constant '{{nope}}' in text; constants: {known} (or an element key path like garden.row_value)",
        ),
        (
            "p",
            f"unknown constant '{{pig.value}}' in text; constants: {known} (or an element key path like "
            "garden.row_value)",
        ),
    ]
    assert not hasattr(env, "errors")


def test_every_label_of_an_element_is_checked_even_unprinted(tmp_path):
    """A grid prints `cols` column labels; a placeholder in an extra one is still a typo."""
    path = tmp_path / "extra.yaml"
    path.write_text(
        "id: x\ngame: harvest-dice\ntitle: {fr: x, en: x}\npages:\n"
        "  - id: p\n    title: {fr: x, en: x}\n    elements:\n"
        "      - id: g\n        type: grid\n        at: [10, 10]\n        rows: 1\n        cols: 1\n"
        "        col_labels: [{fr: A, en: A}, {fr: '{b}', en: B}]\n"
    )
    with pytest.raises(LayoutError) as exc:
        load_layout(str(path))
    assert exc.value.lines == [
        f"{path}:13: g.col_labels[1]: unknown constant '{{b}}' in text; constants: none "
        "(or an element key path like garden.row_value)"
    ]


def test_a_card_is_checked_with_the_geometry_its_build_uses():
    layout = load_layout("imperial-settlers")
    card = dict(layout.element("sawmill"))
    env = layout.env("en")
    labels, refused = E.check(card, env)
    assert (labels, refused) == ([], [])
    card["boxes"] = [[]] * 9
    assert E.TYPES["building"].check(card, env) == [
        ("sawmill.boxes", "9 boxes of 8mm do not fit in the card (72.0mm wide beside the points)")
    ]
    with pytest.raises(LayoutError) as exc:
        E.TYPES["building"].build(card, env)
    assert exc.value.lines[0].endswith(
        "sawmill.boxes: 9 boxes of 8mm do not fit in the card (72.0mm wide beside the points)"
    )


def test_a_tally_for_an_unchecked_player_count_is_a_one_line_error(tmp_path):
    """The layout is checked with its fewest and most players; a count in between whose
    constant is missing cannot be drawn: an error naming the key, nothing written."""
    path = tmp_path / "t3.yaml"
    path.write_text(TALLY)
    out = tmp_path / "t3.pdf"
    result = CliRunner().invoke(cli, ["render", str(path), "-o", str(out), "--players", "3"])
    assert result.exit_code == 1
    assert result.output == (f"Error: {path}:16: t.lines: no whole-number constant 'lines_3p' (1-30) for 3 players\n")
    assert not out.exists()
    result = CliRunner().invoke(cli, ["render", str(path), "-o", str(out), "--players", "4"])
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------------------- smallest_text

SMALLEST = ROOT / "tests" / "fixtures" / "layouts" / "smallest_text.yaml"


def _texts(layout, lang):
    return {p.path: p for p in layout.document(lang).pages[0].prims if isinstance(p, Text)}


def test_smallest_text_prints_every_text_but_the_hints_at_that_size_or_more():
    """A layout's `smallest_text` raises the element types' own small texts (a track's
    label, a score row's labels), a text's font_size and the house note; the in-box hint
    keeps its own rule; nothing is shrunk below it to fit."""
    layout = load_layout(str(SMALLEST))
    assert layout.smallest_text == 9.5
    for lang in ("fr", "en"):
        shown = _texts(layout, lang)
        sizes = {path: (t.size, t.min_size) for path, t in shown.items()}
        assert sizes["note.text"] == sizes["boxes.label"] == sizes["score.boxes[0].label"] == (9.5, 9.5)
        assert sizes["house_note"] == (9.5, 9.5)
        assert sizes["hint.text"] == (6, 5.5)
        assert sizes["score.boxes[1]"] == (12, 9.5)  # the + sign was already larger
        note = shown["house_note"]
        assert note.h / (NOTE_H * 9.5 / NOTE_SIZE) == pytest.approx(1)  # its line, taller
        for t in shown.values():
            fit = fonts.fit_text(t.text, t.font, t.size, t.w * PT, t.h * PT, t.wrap, t.min_size)
            assert fit.fits and fit.size == t.size, t.path
    base = _texts(load_layout(str(SMALLEST.parent / "base.yaml")), "en")
    assert (base["note.text"].size, base["note.text"].min_size) == (8.5, 7.0)  # the default changes nothing


def test_smallest_text_refuses_a_text_that_fits_only_shrunk(tmp_path):
    path = tmp_path / "tight.yaml"
    path.write_text(
        f"extends: {SMALLEST}\nid: tight\npages:\n  - id: sheet\n    elements:\n"
        "      - {id: note, size: [30, 4], text: {fr: Bonjour tout le monde, en: Hello to everyone}}\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.output == f"Error: {path}:6: note.text: text does not fit in 30 x 4mm (fr): 'Bonjour tout le monde'\n"
    path.write_text(path.read_text().replace("extends: ", "smallest_text: 7\nextends: "))
    assert CliRunner().invoke(cli, ["validate", str(path)]).exit_code == 0  # at 7 pt it shrinks to fit
    path.write_text(path.read_text().replace("smallest_text: 7", "smallest_text: 6"))
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.output == f"Error: {path}:1: smallest_text: expected a number from 7 to 14, got 6\n"


def test_a_score_rows_label_height_makes_room_under_its_boxes():
    layout = load_layout(str(SMALLEST))
    score = layout.element("score")
    assert (score["label_height"], score["h"]) == (8.5, 10 + 8.5)
    label = _texts(layout, "fr")["score.boxes[0].label"]
    assert (label.y, label.h) == (34 + 10 + 1.0, 7.5)  # 1 mm under its box
    assert len(fonts.fit_text(label.text, label.font, 9.5, label.w * PT, label.h * PT, True, 9.5).lines) == 2
    assert load_layout("harvest-dice-normal").element("player_name").get("label_height") == 7.0  # the default
