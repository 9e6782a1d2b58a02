"""docs/layouts.md cannot drift from the code: every key of every element type
(and of their sub-mappings), every top-level key, every choice and every icon
is mentioned where it belongs; its YAML snippets parse; the first example and
the worked variant validate, render and score."""

from __future__ import annotations

import io
import json
import re

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT
from pypdf import PdfReader

from sheetgen.cli import cli
from sheetgen.games import load_layout
from sheetgen.icons import ICON_NAMES
from sheetgen.layout import elements as E
from sheetgen.layout.spec import LAYOUT, Constant
from sheetgen.render import render_pdf
from sheetgen.schema import Field, ListOf, Map, Pair, Str

DOC = (ROOT / "docs" / "layouts.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "docs" / "examples" / "harvest-dice-big-pig.yaml"


def section(heading: str) -> str:
    """The text from a `##`/`###` heading to the next heading of the same or a higher level."""
    m = re.search(rf"^(#+) {re.escape(heading)}\s*$", DOC, re.M)
    assert m, f"docs/layouts.md has no heading {heading!r}"
    level = len(m.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(DOC, m.end())
    return DOC[m.end() : end.start() if end else len(DOC)]


def mentioned(name: str, text: str) -> bool:
    return f"`{name}`" in text


def keys_of(fields: dict[str, Field], prefix: str = ""):
    """(path, key, field) for every key, descending into mappings and lists of mappings."""
    for key, fld in fields.items():
        yield prefix + key, key, fld
        spec = fld.spec
        if isinstance(spec, ListOf):
            spec = spec.item
        if isinstance(spec, Map):
            yield from keys_of(spec.fields, f"{prefix}{key}.")


def choices_of(fld: Field) -> tuple:
    spec = fld.spec
    while isinstance(spec, (ListOf, Pair)):
        spec = spec.item
    return tuple(c for c in (spec.choices or ()) if c) if isinstance(spec, Str) else ()


@pytest.mark.parametrize("type_name", sorted(E.TYPES))
def test_every_element_type_and_key_is_documented(type_name):
    text = section(f"`{type_name}`")
    missing = [path for path, key, _ in keys_of(E.TYPES[type_name].fields) if not mentioned(key, text)]
    assert not missing, f"docs/layouts.md, section `{type_name}`, does not mention: {', '.join(missing)}"
    choices = [
        f"{path}: {c}"
        for path, _, fld in keys_of(E.TYPES[type_name].fields)
        for c in choices_of(fld)
        if not mentioned(c, text)
    ]
    assert not choices, f"docs/layouts.md, section `{type_name}`, does not mention the choices {choices}"


def test_common_element_keys_are_documented():
    text = section("Element types")
    for key in E.COMMON_FIELDS:
        assert re.search(rf"^\| `{key}` \|", text, re.M), f"common key `{key}` is not in the table"


def test_top_level_keys_are_documented():
    text = section("Top-level keys")
    for path, key, fld in keys_of(LAYOUT.fields):
        if path.startswith("pages.") or path.count(".") == 0:
            assert mentioned(key, text), f"top-level key {path} is not documented"
        else:  # sheet.width, players.min, theme.accent...
            assert mentioned(key, text), f"{path} is not documented"
        for choice in choices_of(fld):
            assert mentioned(choice, text), f"{path}: {choice} is not documented"


def test_constant_keys_are_documented():
    text = section("Constants")
    keys = list(Constant().spec.fields)
    assert keys == ["value", "verified", "note"]
    for key in keys:
        assert mentioned(key, text), f"constants: {key} is not documented"


def test_every_icon_is_listed():
    text = section("Icons")
    missing = [name for name in ICON_NAMES if not mentioned(name, text)]
    assert not missing, f"icons missing from docs/layouts.md: {', '.join(missing)}"


def test_units_are_documented():
    text = section("Lengths and units")
    for unit in ("12mm", "1cm", "0.5in", "10pt"):
        assert mentioned(unit, text)


def yaml_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", DOC, re.S)


def test_yaml_snippets_parse():
    blocks = yaml_blocks()
    assert len(blocks) >= 5
    for block in blocks:
        yaml.safe_load(block)


def test_the_first_example_is_a_valid_layout(tmp_path):
    first = next(b for b in yaml_blocks() if b.startswith("id: my-sheet"))
    path = tmp_path / "my-sheet.yaml"
    path.write_text(first, encoding="utf-8")
    layout = load_layout(str(path))
    assert [el["id"] for el in layout.pages[0].elements] == ["hello", "pig"]
    assert render_pdf(layout, lang="fr").startswith(b"%PDF-")


def test_the_worked_example_in_the_docs_is_the_file():
    shown = next(b for b in yaml_blocks() if b.startswith("id: harvest-dice-big-pig"))
    body = EXAMPLE.read_text(encoding="utf-8")
    body = body[body.index("id: harvest-dice-big-pig") :]
    assert shown == body


def test_the_worked_example_validates():
    result = CliRunner().invoke(cli, ["validate", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok: {EXAMPLE}: layout 'harvest-dice-big-pig' (harvest-dice), pages: sheet\n")
    assert " pig," not in result.output  # verified: true now


def test_the_worked_example_changes_what_it_says():
    layout = load_layout(str(EXAMPLE))
    normal = load_layout("harvest-dice-normal")
    assert layout.id == "harvest-dice-big-pig"
    assert [s["value"] for s in layout.element("pig")["sections"]] == [2, 5, 9, 14, 20, 27, 35]
    assert layout.theme["accent"] == "#a8325e"
    assert "pig" not in layout.unverified
    # everything else is the normal sheet's
    assert [el["id"] for el in layout.pages[0].elements] == [el["id"] for el in normal.pages[0].elements]
    assert layout.element("garden")["row_value"] == 5
    assert layout.element("market_carrot")["prechecked"] == 1


@pytest.mark.parametrize("lang, paper", [("fr", "a4"), ("en", "letter")])
def test_the_worked_example_renders(tmp_path, monkeypatch, lang, paper):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "big-pig.pdf"
    result = CliRunner().invoke(
        cli, ["render", "docs/examples/harvest-dice-big-pig.yaml", "--lang", lang, "--paper", paper, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    assert reader.metadata.title == {"fr": "Harvest Dice — gros cochon", "en": "Harvest Dice — big pig"}[lang]
    assert reader.metadata.subject == "harvest-dice-big-pig"
    text = reader.pages[0].extract_text()
    assert "35" in text and "27" in text
    assert {"fr": "Variante «\u202fgros cochon\u202f»", "en": "“Big pig” variant"}[lang] in text


def test_the_scorer_reads_the_worked_examples_pig_points(tmp_path):
    record = tmp_path / "game.yaml"
    record.write_text(
        f"layout: {EXAMPLE}\n"
        "players:\n"
        "  - name: Alice\n"
        "    garden: ['CCTT..', 'SSTT..', 'SS....']\n"
        "    pig: 14\n"
        "    market: {carrot: 3, salad: 2, tomato: 4}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["score", str(record), "--format", "json"])
    assert result.exit_code == 0, result.output
    alice = json.loads(result.stdout)["players"][0]
    assert alice["breakdown"]["pig"] == 9  # 14 boxes reach the 3rd row: 9 here, 6 on the normal sheet


def test_house_values_are_documented():
    assert mentioned("house", section("Labels"))
    text = section("House values")
    for word in ("†", "house_note", "house: true", "verified: false"):
        assert word in text
    assert mentioned("hint", section("`text`"))
