"""A resolved layout as plain data and as a readable tree (`sheetgen show`): every
element's id, type, page, place and size in mm, each key with the file and line it
comes from (the child's own or a parent's), the constants with their `verified`
flag, and the boxes each element prints at a given number of players.

Built from a validated `Layout` (its `tree` keeps the file and line of every key
after `extends`); nothing here reads a file.
"""

from __future__ import annotations

import json
from collections import Counter

from sheetgen.layout import elements as E
from sheetgen.layout.display import Box
from sheetgen.srctree import plain_tree

# keys that say where an element sits, not what it prints
PLACEMENT_KEYS = ("at", "in", "below", "right_of", "space", "size", "padding")


def origin(node, key=None) -> str:
    """`file:line` of `node[key]` (of `node` when key is None) in a loaded tree."""
    if key is not None and hasattr(node, "line_of"):
        return f"{node.file_of(key)}:{node.line_of(key)}"
    return f"{getattr(node, 'file', '?')}:{getattr(node, 'line', 0)}"


def _mm(v: float) -> float:
    return round(float(v), 2)


def keys_of(node) -> dict:
    """{key: {value, from}} of a raw element or page mapping, in its order."""
    return {
        str(k): {"value": plain_tree(v), "from": origin(node, k)} for k, v in node.items() if not str(k).startswith("_")
    }


def cells(el: dict, env: E.Env) -> list[dict]:
    """The boxes an element prints (with env's players): [{kind, w, h, count}]."""
    if E.check(el, env)[1]:
        return []
    got = Counter((p.kind, _mm(p.w), _mm(p.h)) for p in E.TYPES[el["type"]].build(el, env) if isinstance(p, Box))
    return [{"kind": k, "w": w, "h": h, "count": n} for (k, w, h), n in got.items()]


def describe_element(el: dict, page_id: str, env: E.Env) -> dict:
    node = el["_node"]
    out = {
        "id": el["id"],
        "type": el["type"],
        "page": page_id,
        "x": _mm(el["x"]),
        "y": _mm(el["y"]),
        "w": _mm(el["w"]),
        "h": _mm(el["h"]),
        "from": origin(node),
    }
    for key in ("in", "below", "right_of"):
        if key in el:
            out[key] = el[key]
    out["keys"] = keys_of(node)
    boxes = cells(el, env)
    if boxes:
        out["cells"] = boxes
    return out


def constants_of(layout) -> dict:
    """{name: {value, verified, note?, from}} of the layout's constants."""
    node = layout.tree.get("constants") or {}
    out = {}
    for name, value in layout.constants.items():
        raw = node.get(name)
        item = {"value": plain_tree(value), "verified": f"constants.{name}" not in layout.unverified}
        if isinstance(raw, dict) and raw.get("note"):
            item["note"] = raw["note"]
        item["from"] = origin(node, name)
        out[name] = item
    return out


def describe_layout(layout, players: int | None = None, page: str | None = None) -> dict:
    """The layout as plain data (see the module doc); `page` keeps one page."""
    players = players or layout.players["default"]
    env = layout.env("en", players)
    tree = layout.tree
    pages = []
    raw_pages = tree.get("pages") or []
    for n, p in enumerate(layout.pages):
        if page is not None and p.id != page:
            continue
        raw = raw_pages[n] if n < len(raw_pages) else tree
        pages.append(
            {
                "id": p.id,
                "title": p.title,
                "from": origin(raw),
                "elements": [describe_element(el, p.id, env) for el in p.elements],
            }
        )
    files = []
    for item in _all_origins(tree):
        if item not in files:
            files.append(item)
    return {
        "id": layout.id,
        "game": layout.game,
        "title": layout.title,
        "source": layout.source,
        "files": files,
        "sheet": {"width": _mm(layout.width), "height": _mm(layout.height)},
        "players": {**layout.players, "shown": players},
        "constants": constants_of(layout),
        "pages": pages,
    }


def _all_origins(node):
    """The files a loaded tree's keys come from, the child's first."""
    if hasattr(node, "file"):
        yield node.file
    if isinstance(node, dict):
        for k, v in node.items():
            if hasattr(node, "file_of"):
                yield node.file_of(k)
            yield from _all_origins(v)
    elif isinstance(node, list):
        for v in node:
            yield from _all_origins(v)


def short(value, most: int = 70) -> str:
    """A value on one line, JSON-like, cut to `most` characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= most else text[: most - 3] + "..."


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def tree_text(data: dict) -> str:
    """describe_layout's data as an indented tree, one element a line, its keys under it."""
    pl = data["players"]
    lines = [
        f"{data['id']} ({data['game']}): {data['title']['en']}",
        f"  files: {', '.join(data['files'])}",
        f"  sheet: {_n(data['sheet']['width'])} x {_n(data['sheet']['height'])} mm; "
        f"players {pl['min']}-{pl['max']} (boxes shown for {pl['shown']})",
    ]
    if data["constants"]:
        lines.append("constants:")
        for name, c in data["constants"].items():
            flag = "verified" if c["verified"] else "verified: false (house value)"
            note = f"  # {c['note']}" if c.get("note") else ""
            lines.append(f"  {name} = {short(c['value'])}  [{flag}]  {c['from']}{note}")
    for page in data["pages"]:
        lines.append(f"page {page['id']}: {page['title']['en']}  {page['from']}")
        depth = {}
        for el in page["elements"]:
            level = depth.get(el.get("in"), 0) + 1
            depth[el["id"]] = level
            pad = "  " * level
            lines.append(
                f"{pad}{el['id']}  {el['type']}  x {_n(el['x'])} y {_n(el['y'])}  "
                f"{_n(el['w'])} x {_n(el['h'])} mm  {el['from']}"
            )
            for key, item in el["keys"].items():
                if key in ("id", "type"):
                    continue
                lines.append(f"{pad}    {key}: {short(item['value'])}  {item['from']}")
            for c in el.get("cells", []):
                lines.append(f"{pad}    = {c['count']} {c['kind']} boxes of {_n(c['w'])} x {_n(c['h'])} mm")
    return "\n".join(lines) + "\n"
