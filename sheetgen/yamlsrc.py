"""Load YAML (or JSON, which is YAML) keeping where every value came from.

Mappings become `SrcDict` and sequences `SrcList`: plain dict and list
subclasses that also carry the file name and the 1-based line of each key or
item, so that validation can say `file:line: key.path: message`.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from pathlib import Path

import yaml

from sheetgen.errors import Problem, SheetgenError


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


class _Loader(yaml.SafeLoader):
    source_name = "<string>"


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> SrcDict:
    loader.flatten_mapping(node)
    result = SrcDict()
    result.file = loader.source_name
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "a key must be a plain value", key_node.start_mark)
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> SrcList:
    result = SrcList()
    result.file = loader.source_name
    result.line = node.start_mark.line + 1
    for item in node.value:
        result.append(loader.construct_object(item, deep=True))
        result.lines.append(item.start_mark.line + 1)
    return result


def _construct_timestamp(loader: _Loader, node: yaml.ScalarNode):
    """A date or time as YAML reads it; one that looks like a date but is none
    (2026-13-10) stays text, for the validator to report with its line."""
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:
        return loader.construct_scalar(node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def loads(text: str, name: str = "<string>"):
    """Parse YAML/JSON text; a syntax error becomes a one-line SheetgenError."""
    loader = None
    try:
        loader = _Loader(text)   # the reader already rejects control characters
        loader.source_name = name
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        what = exc.problem or exc.context or "invalid YAML"
        raise SheetgenError(Problem(what, name, line)) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        char = chr(exc.character) if isinstance(exc.character, int) else exc.character
        raise SheetgenError(Problem(f"{exc.reason} (character {char!r})", name, line)) from None
    except yaml.YAMLError as exc:  # pragma: no cover - other yaml errors
        raise SheetgenError(Problem(f"invalid YAML: {exc}", name)) from None
    except RecursionError:
        raise SheetgenError(Problem("nested too deeply", name)) from None
    finally:
        if loader is not None:
            loader.dispose()


def load_file(path: str | Path, name: str | None = None):
    """Read and parse a file; unreadable files are SheetgenErrors."""
    path = Path(path)
    shown = name or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SheetgenError(Problem("no such file", shown)) from None
    except UnicodeDecodeError:
        raise SheetgenError(Problem("not UTF-8 text", shown, 1)) from None
    except OSError as exc:
        raise SheetgenError(Problem(f"cannot read: {exc.strerror}", shown)) from None
    return loads(text, shown)


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
    text = json.dumps(plain_tree(tree), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
