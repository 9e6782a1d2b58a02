"""`sheetgen new FILE --from LAYOUT`: the text of a child layout that `extends` the
parent and validates and renders as it is, with the keys designers change most
present as commented examples: the constants, the sizes and values of what the
scorer reads and of every box-printing element, and the labels."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from sheetgen.games import game_for
from sheetgen.games.reference import read_values
from sheetgen.layout.describe import origin
from sheetgen.layout.elements import TYPES
from sheetgen.layout.resolve import is_builtin_ref

LABEL_KEYS = ("text", "subtitle", "title", "label")


def _flow(value) -> str:
    """A value as YAML flow (JSON is YAML), on one line."""
    return json.dumps(value, ensure_ascii=False)


def child_id(path: Path) -> str:
    """A layout id from a file name: lower case, other characters as `-`."""
    stem = re.sub(r"[^a-z0-9_.-]+", "-", path.stem.lower()).strip("-.")
    return stem if stem and stem[0].isalnum() else f"variant-{stem}".rstrip("-")


def parent_ref(ref: str, child: Path) -> str:
    """How the child names its parent: a built-in by id, a file relative to the child."""
    if is_builtin_ref(ref):
        return ref
    return Path(os.path.relpath(Path(ref).resolve(), child.resolve().parent)).as_posix()


def _element_lines(el: dict, reads: dict) -> list[str]:
    node, kind = el["_node"], TYPES[el["type"]]
    keys = []
    if el["id"] in reads or kind.markable:  # the keys that size its boxes and value them, with their values
        keys += list(read_values(el))
    keys += [k for k in LABEL_KEYS if k in node and (kind.names_sheet or el["id"] in reads)]
    if not keys:
        return []
    why = "read by the scorer" if el["id"] in reads else el["type"]
    out = [f"#       - id: {el['id']}  # {why}; from {origin(node)}"]
    for k in dict.fromkeys(keys):
        value = node.get(k)
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            out.append(f"#         {k}:")
            out += [f"#           - {_flow(v)}" for v in value]
        elif k in node:
            out.append(f"#         {k}: {_flow(value)}")
    return out


def new_child_text(layout, ref: str, child: Path) -> str:
    """The commented child layout of `layout` (named `ref` on the command line) for `child`."""
    reads = game_for(layout).reads_of(layout).elements
    name = child.name
    lines = [
        f"# A variant of {layout.id} ({layout.title['en']}), written by `sheetgen new`.",
        "# Everything not written here comes from the parent. Un-comment a key and change its",
        "# value; elements, pages and boxes merge by `id`, so give only the keys you change.",
        "# A track's `sections` or a grid's `col_labels` (lists without ids) are replaced whole.",
        '# Squib-like offsets: `at: ["+=0", "+=10"]` moves an element 10 mm down; `rows: "+=1"`.',
        "# Zones placed `below:` another move down when it grows (docs/layouts.md, Placing).",
        f"#   sheetgen show {name}            # every element: id, type, place, size, file:line",
        f"#   sheetgen show {name} --scorer   # what the scorer reads, and its values",
        f"#   sheetgen validate {name} && sheetgen render {name}",
        f"id: {child_id(child)}",
        f"extends: {parent_ref(ref, child)}",
        f"# title: {_flow(layout.tree.get('title', layout.title))}",
        f"# theme: {_flow(layout.theme)}",
    ]
    if layout.players["max"] > 1:
        lines.append(f"# players: {_flow(dict(layout.players))}")
    constants = layout.tree.get("constants") or {}
    if constants:
        lines.append("# constants:   # the game's numbers; `sheetgen show FILE --scorer` says which the scorer reads")
        for key, value in constants.items():
            lines.append(f"#   {key}: {_flow(value)}  # from {origin(constants, key)}")
    lines.append("# pages:")
    for page in layout.pages:
        body = [line for el in page.elements for line in _element_lines(el, reads)]
        if body:
            lines += [f"#   - id: {page.id}", "#     elements:", *body]
    return "\n".join(lines) + "\n"
