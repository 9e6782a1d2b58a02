"""Blame: where a problem of a placed element is said, so that the designer can fix it
there. A problem is located at the element's own key; but when the element comes from a
parent layout and a key of the child's file (`root`) made it go wrong (moved or sized it,
set the player count, a constant its text reads), at that key first, with the element's
own place as context.
"""

from __future__ import annotations

import re

from sheetgen.errors import Problem
from sheetgen.layout import elements as E
from sheetgen.layout.place import Placement
from sheetgen.layout.spec import whole_constants
from sheetgen.schema import Ctx

# keys that never move or size an element: not blamed for a geometry problem
_NOT_GEOMETRY = frozenset(
    ("id", "type", "text", "title", "subtitle", "label", "icon", "icons", "color", "fill", "verified", "note")
)


def _influences(el: dict, by_id: dict, placement: Placement) -> list:
    """`el`, then the elements its place or size follows, nearest first: what it is placed
    below, right of or in, and what sizes a frame with an `auto` side."""
    out, seen, todo = [], set(), [el["id"]]
    while todo:
        eid = todo.pop(0)
        if eid in seen or eid not in by_id:
            continue
        seen.add(eid)
        cur = by_id[eid]
        out.append(cur)
        todo += placement.influences(eid)
    return out


def _child_key(node, root: str, path: str) -> tuple | None:
    """(file, line, key path) of the first geometry key under `node` set in the file `root`."""
    keys = node.keys() if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ()
    for key in keys:
        if key in _NOT_GEOMETRY or not hasattr(node, "file_of"):
            continue
        sub = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"
        if node.file_of(key) == root:
            return root, node.line_of(key), sub
        found = _child_key(node[key], root, sub)
        if found:
            return found
    return None


def geometry_problem(el: dict, message: str, by_id: dict, placement: Placement, root: str) -> Problem:
    """A problem with where `el` sits, located where the designer can fix it: at its own
    `at` (or `below`, `right_of`); but when `el` comes from a parent layout and a key of the
    child's file `root` moved or sized it, at that key first, with `el`'s place as context."""
    node = el["_node"]
    key = next((k for k in ("at", "below", "right_of") if k in node), None)
    file, line = getattr(node, "file", "<layout>"), getattr(node, "line", 0)
    if key is not None:
        file, line = node.file_of(key), node.line_of(key)
    if file != root:
        for other in _influences(el, by_id, placement):
            node = other["_node"]
            if hasattr(node, "file_of") and "type" in node and node.file_of("type") == root:  # the child's own
                found = root, node.line, other["_path"]
            else:
                found = _child_key(node, root, other["_path"])
            if found:
                kfile, kline, kpath = found
                head = "" if other is el else f"moves '{el['id']}': "
                return Problem(f"{head}{message} ('{el['id']}' is at {file}:{line})", kfile, kline, kpath)
    return Problem(message, file, line, el["_path"])


def player_causes(raw: dict) -> dict:
    """{player count: (file, line, key path)} of `players.min` / `players.max` when the
    layout's own file (not a parent) set them, directly or through the constant they name."""
    root, node = getattr(raw, "file", ""), raw.get("players")
    out = {}
    for key in ("min", "max"):
        if not isinstance(node, dict) or key not in node or not hasattr(node, "file_of"):
            continue
        value, where = node[key], (node.file_of(key), node.line_of(key), f"players.{key}")
        consts = raw.get("constants")
        name = value[1:-1] if isinstance(value, str) and value.startswith("{") and value.endswith("}") else None
        if name and isinstance(consts, dict) and name in consts and hasattr(consts, "file_of"):
            where = (consts.file_of(name), consts.line_of(name), f"constants.{name}")
            value = whole_constants(raw).get(name)
        if where[0] == root and isinstance(value, int):
            out[value] = where
    return out


def text_cause(el: dict, subpath: str, lang: str, raw: dict, by_id: dict, root: str) -> tuple | None:
    """(file, line, key path) of the key of the child file `root` that made a text of an
    inherited element go wrong: its size or font (a geometry key, _child_key), else a
    constant or an element key that a `{placeholder}` of the label reads; None if none."""
    found = _child_key(el["_node"], root, el["_path"])
    if found and found[2].rsplit(".", 1)[-1] not in ("at", "in", "below", "right_of", "space"):
        return found  # a place is no reason for a text not to fit
    label = el
    rel = subpath[len(el["_path"]) :] if subpath.startswith(el["_path"]) else ""
    for part in filter(None, rel.replace("]", "").replace("[", ".").split(".")):
        try:
            label = label[int(part) if part.isdigit() else part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(label, dict) or not isinstance(label.get(lang), str):
        return None
    consts = raw.get("constants")
    for name in E.placeholders(label[lang]):
        head, rest = re.match(r"([^.\[]*)\.?(.*)", name).groups()
        if isinstance(consts, dict) and head in consts and hasattr(consts, "file_of"):
            if consts.file_of(head) == root:
                return root, consts.line_of(head), f"constants.{head}"
        elif head in by_id and rest:
            file, line = E.line_of_path(by_id[head]["_node"], rest)
            if file == root:
                return file, line, f"{head}.{rest}"
    return None


def own_cause(el, subpath, root: str) -> tuple | None:
    """(file, line, key path) of the first key of `el` that the file `root` sets (a child's
    change to an element it inherits), when the problem at `subpath` lies in another file:
    the parent alone is valid, so the child's key made it (a building card's bigger `box`
    leaves no room under its `size`, written in the parent)."""
    if E.problem_at(el, subpath, "").file == root:
        return None
    return _child_key(el["_node"], root, el["_path"])


def report(ctx: Ctx, el: dict, subpath: str, message: str, seen: set, cause: tuple | None = None) -> None:
    """Report a problem of an element; with `cause` (file, line, key path: the child's key that
    set the player count it appears with), at that key first, the element's place after it."""
    problem = E.problem_at(el, subpath, message)
    if cause is not None and problem.file != cause[0]:
        problem = Problem(
            f"{problem.path}: {message} ('{el['id']}' is at {problem.file}:{problem.line})", *cause[:2], cause[2]
        )
    if problem not in seen:
        seen.add(problem)
        ctx.errors.append(problem)
