"""No layout, however broken, makes validation crash: every problem is a LayoutError."""

from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgen.errors import LayoutError
from sheetgen.layout.load import build_layout
from sheetgen.layout.resolve import builtin_dir, resolve
from sheetgen.yamlsrc import loads

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.sampled_from(["12mm", "-3in", "1e999pt", "#zzzzzz", "{nope}", "x.y"]),
    st.lists(st.integers(-5, 500), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


def _paths(node, prefix=()):
    """Every (path) to a value in a plain tree."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _plain(node):
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


BASES = {
    name: _plain(resolve(builtin_dir() / f"{name}.yaml"))
    for name in ("harvest-dice-advanced", "bosk", "imperial-settlers-advanced")
}
PATHS = {name: [p for p in _paths(tree) if p] for name, tree in BASES.items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BASES)), st.data())
def test_a_mutated_layout_is_valid_or_a_layout_error(name, data):
    tree = copy.deepcopy(BASES[name])
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(PATHS[name]))
        node = tree
        try:
            for key in path[:-1]:
                node = node[key]
            if data.draw(st.booleans()) and isinstance(node, dict):
                node.pop(path[-1], None)
            else:
                node[path[-1]] = data.draw(JUNK)
        except (KeyError, IndexError, TypeError):
            continue
    text = yaml.safe_dump(tree, allow_unicode=True)
    try:
        build_layout(loads(text, "fuzz.yaml"), "fuzz.yaml")
    except LayoutError as exc:
        assert exc.lines and all(p.startswith("fuzz.yaml") for p in exc.lines), exc.lines
