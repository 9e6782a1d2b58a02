"""Element types, one module each, and check-then-build: the registry lists every type
module, a type's check computes its problems without building, builders record
nothing, and a builder given what its check refuses raises a located LayoutError."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from click.testing import CliRunner

import sheetgen.layout.elements as E
from sheetgen.cli import cli
from sheetgen.errors import LayoutError
from sheetgen.layout.model import load_layout

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
