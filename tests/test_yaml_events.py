"""The YAML builder that reads libyaml's events straight into trees (sheetgen.yamlsrc;
a file of 1000 games is parsed ~3x faster than by the composer) builds exactly what the composer path
builds, lines included, and leaves every text it does not handle plainly to it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgen import yamlsrc
from sheetgen.srctree import SrcDict, SrcList

ROOT = Path(__file__).resolve().parents[1]


def placed(tree):
    """The tree with every place it carries (file, line of each mapping, list, key, item)."""
    if isinstance(tree, SrcDict):
        return ("map", tree.file, tree.line, [(k, tree.lines.get(k), placed(v)) for k, v in tree.items()])
    if isinstance(tree, SrcList):
        return ("list", tree.file, tree.line, list(tree.lines), [placed(v) for v in tree])
    return (type(tree).__name__, repr(tree))


def both(text: str) -> tuple:
    return (
        [placed(d) for d in yamlsrc._documents_from_events(text, "f.yaml")],
        [placed(d) for d in yamlsrc._documents_composed(text, "f.yaml")],
    )


YAML_FILES = sorted([*ROOT.glob("layouts/*.yaml"), *ROOT.glob("tests/fixtures/**/*.yaml")])


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_of_the_project_is_built_the_same_both_ways(path):
    text = path.read_text(encoding="utf-8")
    try:
        composed = [placed(d) for d in yamlsrc._documents_composed(text, "f.yaml")]
    except (yaml.YAMLError, yamlsrc.TooBig):  # a fixture meant not to parse: the events refuse it too
        with pytest.raises(yamlsrc._Unplain):
            yamlsrc._documents_from_events(text, "f.yaml")
        return
    try:
        events = [placed(d) for d in yamlsrc._documents_from_events(text, "f.yaml")]
    except yamlsrc._Unplain:
        assert path.parent.name != "layouts", "a built-in layout should take the fast path"
        return
    assert events == composed


SAME = [
    "a: 010\nb: 1:30\nc: 2026-13-10\nd: 2026-11-30\ne: 2026-11-30 20:15:00\n",
    "yes: no\nnull: ~\nt: 'quoted'\nu: \"x\\ty\"\nv: 1.5e3\nw: .inf\nx: 0x1F\ny: 1_000\n",
    "# a comment\nlist:\n  - 1\n  - [2, 3, {a: b}]\n  -\n    - deep\nempty: []\nnone: {}\n",
    "---\n---\na: 1\n...\n---\n- x\n",
    "",
    "plain text\n",
    "k: |\n  two\n  lines\nm: >\n  folded\n  text\n",
    "2: one\n2.5: two\ntrue: three\n~: four\n",
    "players:\n- name: Alice\n  garden: [CCSS.., ......]\n  pig: 7\n- {name: Bob, pig: 3}\n",
]


@pytest.mark.parametrize("text", SAME)
def test_plain_yaml_is_built_the_same_both_ways(text):
    events, composed = both(text)
    assert events == composed


UNPLAIN = [
    "a: &x [1, 2]\nb: *x\n",  # anchors and aliases
    "a: !!str 1\n",  # explicit tags
    "a: !custom 1\n",
    "base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n",  # merge keys
    "a: 1\na: 2\n",  # a duplicate key: the composer path says so
    "[a, b]: 1\n",  # a complex key
    "? {a: 1}\n: x\n",
    "=: 1\n",  # the `=` value key
    "a: !!binary aGVsbG8=\n",
    "a: [" * 70 + "]" * 70 + "\n",  # deeper than MAX_DEPTH
    "a: [1, 2\n",  # a syntax error
    "2026-11-30: a date as a key\n",
]


@pytest.mark.parametrize("text", UNPLAIN)
def test_what_is_not_plain_yaml_is_left_to_the_composer_path(text):
    with pytest.raises(yamlsrc._Unplain):
        yamlsrc._documents_from_events(text, "f.yaml")


def test_more_values_than_the_limit_are_left_to_the_composer_path_which_refuses_them():
    text = "[" + ", ".join("1" for _ in range(yamlsrc.MAX_NODES + 5)) + "]\n"
    with pytest.raises(yamlsrc._Unplain):
        yamlsrc._documents_from_events(text, "f.yaml")
    with pytest.raises(yamlsrc.SheetgenError, match="more than 20,000 values"):
        yamlsrc.loads(text, "f.yaml")


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, width=32)
    | st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12)
    | st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1))
    | st.sampled_from(["010", "1:30", "yes", "No", "~", "null", "2026-13-10", "<<", "=", "0o17", "-.5", "1e3"])
)
keys = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=8) | st.integers(0, 99)
trees = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(trees, min_size=1, max_size=3), st.sampled_from([False, True, None]))
def test_random_documents_are_built_the_same_both_ways(docs, flow):
    text = yaml.safe_dump_all(docs, default_flow_style=flow, allow_unicode=True, explicit_start=True)
    try:
        events = [placed(d) for d in yamlsrc._documents_from_events(text, "f.yaml")]
    except yamlsrc._Unplain:  # an `=` or `<<` key, which only the composer path reads
        assert "=" in text or "<<" in text
        return
    assert events == [placed(d) for d in yamlsrc._documents_composed(text, "f.yaml")]
