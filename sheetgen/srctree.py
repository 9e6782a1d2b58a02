"""Loaded YAML/JSON trees that remember where every value came from (no YAML here).

Mappings are `SrcDict` and sequences `SrcList`: plain dict and list subclasses that
also carry the file name and the 1-based line of each key or item, so that
validation can say `file:line: key.path: message`. sheetgen.yamlsrc builds them
from text; this module only holds them, so that code which reads a tree (the
validator, a layout loaded from the user cache) does not import PyYAML.

`to_data` / `from_data` turn a tree into plain marshal-able data and back, lines
and files included, for the user cache (sheetgen.cache) of parsed layout files.
"""

from __future__ import annotations

import datetime as _dt
import hashlib


class SrcDict(dict):
    """A mapping that remembers its file and the line of each key."""

    file: str = "<string>"
    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines: dict = {}
        self.files: dict = {}

    def line_of(self, key) -> int:
        return self.lines.get(key, self.line)

    def file_of(self, key) -> str:
        return self.files.get(key, self.file)


class SrcList(list):
    """A sequence that remembers its file and the line of each item."""

    file: str = "<string>"
    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.lines: list[int] = []
        self.files: list[str] = []  # per item, when items come from several files (merged lists)

    def line_of(self, index) -> int:
        if isinstance(index, int) and 0 <= index < len(self.lines):
            return self.lines[index]
        return self.line

    def file_of(self, index) -> str:
        if isinstance(index, int) and 0 <= index < len(self.files):
            return self.files[index]
        return self.file


def where(node, key=None) -> tuple[str, int]:
    """(file, line) of `node[key]`, or of `node` itself when key is None."""
    file = getattr(node, "file", "<string>")
    if key is None:
        return file, getattr(node, "line", 0)
    if hasattr(node, "line_of"):
        return node.file_of(key), node.line_of(key)
    return file, getattr(node, "line", 0)


def plain_tree(tree):
    """A loaded tree as plain JSON-ready data (string keys, dates as ISO text)."""
    if isinstance(tree, dict):
        return {str(k): plain_tree(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [plain_tree(v) for v in tree]
    if isinstance(tree, (_dt.date, _dt.datetime)):
        return tree.isoformat()
    return tree


def tree_hash(tree) -> str:
    """A stable SHA-256 (hex) of a loaded YAML/JSON tree: the same data gives the same
    hash whatever its key order, layout, comments or line numbers."""
    import json

    text = json.dumps(plain_tree(tree), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ------------------------------------------------------------------ cache form

# A tree's values are plain data but for its nodes and dates, which become tuples
# (a loaded tree has no tuples of its own): (kind, ...) with the kinds below.
_DICT, _LIST, _DATE, _DATETIME = 0, 1, 2, 3
_SCALARS = (str, int, float, bool, type(None), bytes)


def to_data(tree):
    """`tree` as plain marshal-able data that `from_data` turns back into an equal tree,
    every node's file and lines included. ValueError for a value it cannot keep (a
    tuple or set from an `!!omap` or `!!set` tag, a node with attributes of another
    kind): the caller then does without the cache."""
    kind = type(tree)
    if kind in _SCALARS:
        return tree
    if kind is SrcDict or kind is SrcList:
        state = vars(tree)
        if not all(type(v) in (str, int, bool, dict, list) for v in state.values()):
            raise ValueError(f"a node with other attributes: {sorted(state)}")
        if kind is SrcDict:
            return (_DICT, [(k, to_data(v)) for k, v in tree.items()], state)
        return (_LIST, [to_data(v) for v in tree], state)
    if kind is _dt.datetime:
        return (_DATETIME, tree.isoformat())
    if kind is _dt.date:
        return (_DATE, tree.isoformat())
    raise ValueError(f"cannot keep a {kind.__name__}")


def from_data(data):
    """The tree that `to_data` described."""
    if type(data) is not tuple:
        return data
    kind = data[0]
    if kind == _DICT:
        node = SrcDict.__new__(SrcDict)
        dict.update(node, [(k, from_data(v)) for k, v in data[1]])
    elif kind == _LIST:
        node = SrcList.__new__(SrcList)
        list.extend(node, [from_data(v) for v in data[1]])
    elif kind == _DATETIME:
        return _dt.datetime.fromisoformat(data[1])
    elif kind == _DATE:
        return _dt.date.fromisoformat(data[1])
    else:
        raise ValueError(f"not a tree: kind {kind!r}")
    vars(node).update(data[2])
    return node
