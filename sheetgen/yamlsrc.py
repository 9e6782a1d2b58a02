"""Load YAML (or JSON, which is YAML) keeping where every value came from.

Mappings become `SrcDict` and sequences `SrcList` (sheetgen.srctree): plain dict
and list subclasses that also carry the file name and the 1-based line of each key
or item, so that validation can say `file:line: key.path: message`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from sheetgen.errors import Problem, SheetgenError

# the trees (and what reads them) live in srctree, which does not import PyYAML
from sheetgen.srctree import SrcDict, SrcList, plain_tree, tree_hash, where  # noqa: F401

# values in one file, YAML aliases expanded (a "billion laughs" file is refused); a
# built-in layout has fewer than 2,000
MAX_NODES = 20_000
MAX_DEPTH = 64  # nesting of mappings and lists
# a file of many games (JSON lines, YAML documents) is bounded as a whole by fileio's
# MAX_RECORDS_INPUT and by MAX_DOCUMENTS, and each of its games as a file of one is:
# MAX_DOCUMENT bytes, MAX_NODES values
MAX_DOCUMENT = 1024 * 1024
MAX_DOCUMENTS = 100_000


class TooBig(Exception):
    """The document is over MAX_NODES values or MAX_DEPTH levels (the message says which)."""


def _too_many() -> TooBig:
    return TooBig(f"more than {MAX_NODES:,} values, YAML aliases expanded (the limit)")


def _too_deep() -> TooBig:
    return TooBig(f"nested more than {MAX_DEPTH} levels deep (the limit)")


class _Counting(yaml.composer.Composer):
    """A composer that counts the values it composes, aliases expanded, and refuses a
    document past MAX_NODES or MAX_DEPTH before it costs time or memory."""

    source_name = "<string>"

    def _start(self):
        self._nodes, self._depth, self._sizes = 0, 0, {}

    def compose_node(self, parent, index):
        if self.check_event(yaml.events.AliasEvent):
            node = super().compose_node(parent, index)
            self._nodes += self._sizes.get(id(node), 1)
            if self._nodes > MAX_NODES:
                raise _too_many()
            return node
        self._nodes += 1
        self._depth += 1
        if self._nodes > MAX_NODES:
            raise _too_many()
        if self._depth > MAX_DEPTH:
            raise _too_deep()
        before = self._nodes
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        self._sizes[id(node)] = self._nodes - before + 1
        return node


class _Loader(_Counting, yaml.SafeLoader):
    """Pure-Python PyYAML, counting."""

    def __init__(self, stream):
        yaml.SafeLoader.__init__(self, stream)
        self._start()


_DECIMAL = re.compile(r"[-+]?[0-9][0-9_]*")
_OTHER_INT = re.compile(r"[-+]?0(?:b[01_]+|x[0-9a-fA-F_]+)")


def construct_int(loader, node):
    """YAML 1.1 ints without its traps: `010` is ten (not octal eight) and `1:30` is
    text (not 90, base 60); only ASCII digits."""
    text = loader.construct_scalar(node)
    if len(text) > 40:  # no count on a sheet; int() of thousands of digits is refused by Python
        return text
    if _DECIMAL.fullmatch(text):
        return int(text.replace("_", ""), 10)
    if _OTHER_INT.fullmatch(text):
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    return text


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> SrcDict:
    loader.flatten_mapping(node)
    result = SrcDict()
    result.file = loader.source_name
    result.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(None, None, "a key must be a plain value", key_node.start_mark)
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
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


# the one set of constructors, for both loaders (pure Python and libyaml)
CONSTRUCTORS = {
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG: _construct_mapping,
    yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG: _construct_sequence,
    "tag:yaml.org,2002:int": construct_int,
    "tag:yaml.org,2002:timestamp": _construct_timestamp,
}
for _tag, _make in CONSTRUCTORS.items():
    _Loader.add_constructor(_tag, _make)


if getattr(yaml, "__with_libyaml__", False):

    class _FastLoader(_Counting, yaml.CSafeLoader):
        """libyaml's C parser (its events) under the counting composer, with the same
        constructors: the same SrcDict/SrcList trees and lines."""

        def __init__(self, stream):
            yaml.CSafeLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            self._start()

    for _tag, _make in CONSTRUCTORS.items():
        _FastLoader.add_constructor(_tag, _make)
else:  # pragma: no cover - PyYAML built without libyaml
    _FastLoader = None

# libyaml accepts some tabs that PyYAML rejects, and may count these line breaks differently
_SLOW_PATH_CHARS = ("\t", "\x85", "\u2028", "\u2029")
# pure-Python PyYAML parses some 10,000 values a second: a larger text is only ever
# parsed by libyaml (its own error messages), so that no input takes long
SLOW_PATH_MAX = 64 * 1024


def _loads_fast(text: str, name: str):
    try:
        docs = _documents_from_events(text, name)
        if len(docs) == 1:
            return docs[0]
    except _Unplain:
        pass
    loader = _FastLoader(text)
    loader.source_name = name
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


class _Unplain(Exception):
    """The text has what only the composer path builds (or refuses with its message)."""


# the scalar tags of plain YAML data: a value of any other (binary, set, `=`, merge `<<`)
# is left to the composer path
_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "timestamp"))


def _documents_from_events(text: str, name: str) -> list:
    """The documents of `text` built straight from libyaml's events, without composing
    nodes first: the same SrcDict/SrcList trees, lines and scalars (the same resolver and
    constructors) as the composer path, about three times faster, for the plain YAML that
    records and layouts are. A text with anchors, aliases, explicit tags, merge keys,
    complex or duplicate keys, or over the limits raises _Unplain, for the composer path
    to build it or say what is wrong (tests/test_yaml_events.py compares both)."""
    ev = yaml.events
    scalar_event, end_events = ev.ScalarEvent, (ev.MappingEndEvent, ev.SequenceEndEvent)
    mapping_start, sequence_start = ev.MappingStartEvent, ev.SequenceStartEvent
    loader = _FastLoader(text)
    resolve, constructors, next_event = loader.resolve, loader.yaml_constructors, loader.get_event
    scalars: dict = {}  # (value, implicit, style) -> constructed value: scalars are immutable
    docs = []
    try:
        next_event()  # the stream's start
        while not isinstance(next_event(), ev.StreamEndEvent):  # a document's start
            stack: list = []  # [container, key, key's line] of each open mapping or list
            nodes, root = 0, None
            while True:
                event = next_event()
                kind = event.__class__
                if kind is scalar_event:
                    if event.anchor is not None or event.tag is not None:
                        raise _Unplain
                    line = event.start_mark.line + 1
                    memo = (event.value, event.implicit, event.style)
                    value = scalars.get(memo, scalars)
                    if value is scalars:
                        tag = resolve(yaml.ScalarNode, event.value, event.implicit)
                        if tag not in _PLAIN_TAGS:
                            raise _Unplain
                        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
                        value = scalars[memo] = constructors[tag](loader, node)
                    nodes += 1
                elif kind is mapping_start or kind is sequence_start:
                    if event.anchor is not None or event.tag is not None:
                        raise _Unplain
                    nodes += 1
                    opened = SrcDict() if kind is mapping_start else SrcList()
                    opened.file, opened.line = name, event.start_mark.line + 1
                    stack.append([opened, stack, 0])  # `stack` as the key: none yet
                    if len(stack) > MAX_DEPTH or nodes > MAX_NODES:
                        raise _Unplain
                    continue
                elif kind in end_events:
                    value = stack.pop()[0]
                    line = value.line
                elif kind is ev.DocumentEndEvent:
                    break
                else:  # an alias
                    raise _Unplain
                if nodes > MAX_NODES:
                    raise _Unplain
                if not stack:
                    root = value
                    continue
                top = stack[-1]
                into = top[0]
                if into.__class__ is SrcList:
                    into.append(value)
                    into.lines.append(line)
                elif top[1] is stack:  # a key
                    if kind is not scalar_event or value in into or not _plain_key(value):
                        raise _Unplain
                    top[1], top[2] = value, line
                else:
                    into[top[1]] = value
                    into.lines[top[1]] = top[2]
                    top[1] = stack
            docs.append(root)
    except yaml.YAMLError:
        raise _Unplain from None
    finally:
        loader.dispose()
    return docs


def _plain_key(key) -> bool:
    return key is None or isinstance(key, (str, int, float, bool))


# an escape that writes half of a UTF-16 surrogate pair (`\ud800`, `\U0000DC00`): the only
# way a lone surrogate, which no file, PDF or terminal can hold, gets into a parsed text
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2}")


def _whole_text(value: str, name: str, line: int) -> str:
    """`value` with its surrogate pairs joined (YAML writes an emoji's `\\ud83d\\ude00` as two
    halves); a half alone is refused at its line."""
    try:
        return value.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        bad = next(ch for ch in value if "\ud800" <= ch <= "\udfff")
        raise SheetgenError(
            Problem(f"not valid text: a lone surrogate (\\u{ord(bad):04x}), which no file can hold", name, line)
        ) from None


def _valid_texts(tree, name: str):
    """`tree` with every text (keys too) made whole by _whole_text."""
    if isinstance(tree, str):
        return _whole_text(tree, name, 0) if any("\ud800" <= ch <= "\udfff" for ch in tree) else tree
    if isinstance(tree, dict):
        for key in list(tree):
            line = tree.lines.get(key, tree.line) if isinstance(tree, SrcDict) else 0
            value = tree[key]
            fixed = _whole_text(value, name, line) if isinstance(value, str) else _valid_texts(value, name)
            new_key = _whole_text(key, name, line) if isinstance(key, str) else key
            if new_key != key:
                del tree[key]
                if isinstance(tree, SrcDict):
                    tree.lines[new_key] = tree.lines.pop(key, line)
            tree[new_key] = fixed
        return tree
    if isinstance(tree, list):
        for i, value in enumerate(tree):
            line = tree.lines[i] if isinstance(tree, SrcList) and i < len(tree.lines) else 0
            tree[i] = _whole_text(value, name, line) if isinstance(value, str) else _valid_texts(value, name)
        return tree
    return tree


def loads(text: str, name: str = "<string>"):
    """Parse YAML/JSON text; a syntax error becomes a one-line SheetgenError, and so does
    a text that escapes half a surrogate pair."""
    tree = _loads(text, name)
    return _valid_texts(tree, name) if _SURROGATE_ESCAPE.search(text) else tree


def _loads(text: str, name: str):
    """Parse YAML/JSON text; a syntax error becomes a one-line SheetgenError.

    libyaml parses it when PyYAML has it (~7x faster); a small text that it does not
    load cleanly is read again by pure-Python PyYAML, whose messages are the ones we
    show (and which rejects tabs libyaml lets through)."""
    fast = _FastLoader is not None and (len(text) > SLOW_PATH_MAX or not any(ch in text for ch in _SLOW_PATH_CHARS))
    loader = None
    try:
        if fast:
            try:
                return _loads_fast(text, name)
            except (yaml.YAMLError, RecursionError):
                if len(text) > SLOW_PATH_MAX:
                    raise
        loader = _Loader(text)  # the reader already rejects control characters
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
        raise SheetgenError(Problem(f"invalid YAML: {str(exc).splitlines()[0] if str(exc) else ''}", name)) from None
    except TooBig as exc:
        raise SheetgenError(Problem(str(exc), name)) from None
    except RecursionError:
        raise SheetgenError(Problem("nested too deeply", name)) from None
    finally:
        if loader is not None:
            loader.dispose()


def loads_all(text: str, name: str = "<string>") -> list:
    """The documents of a YAML stream (`---` between them) or of JSON lines (one JSON
    value a line, blank lines skipped), each within the limits of one document (see
    `loads`), with its lines in the whole text; a text of one document gives one."""
    docs = _loads_all(text, name)
    return [_valid_texts(doc, name) for doc in docs] if _SURROGATE_ESCAPE.search(text) else docs


def _loads_all(text: str, name: str) -> list:
    if is_json_lines(text):
        lines = text.split("\n")
        _at_most_documents(sum(1 for line in lines if line.strip()), name)
        for n, line in enumerate(lines, 1):
            _within_document(line, name, n)
        return [_json_line(line, name, n) for n, line in enumerate(lines, 1) if line.strip()]
    if "\n---" not in text and "\n..." not in text:
        _within_document(text, name, 0)
        return [loads(text, name)]
    if len(text) > MAX_DOCUMENT // 4:
        docs = _split_documents(text)
        _at_most_documents(len(docs), name)
        for doc in docs:
            _within_document(doc.lstrip("\n"), name, len(doc) - len(doc.lstrip("\n")) + 1)
    if _FastLoader is None or any(ch in text for ch in _SLOW_PATH_CHARS):  # pragma: no cover - rare
        return [loads(doc, name) for doc in _split_documents(text)]
    try:
        return _documents_from_events(text, name)
    except _Unplain:
        pass
    try:
        return _documents_composed(text, name)
    except (yaml.YAMLError, TooBig, RecursionError):
        return [loads(doc, name) for doc in _split_documents(text)]  # the one-line error of the bad one


def _within_document(text: str, name: str, line: int) -> None:
    """One game of a file of many is a file of one: MAX_DOCUMENT bytes at most."""
    if len(text) > MAX_DOCUMENT // 4 and len(text.encode("utf-8")) > MAX_DOCUMENT:
        raise SheetgenError(
            Problem(f"a game larger than the limit of {MAX_DOCUMENT // 1024**2} MB for one game record", name, line)
        )


def _at_most_documents(count: int, name: str) -> None:
    if count > MAX_DOCUMENTS:
        raise SheetgenError(Problem(f"more than {MAX_DOCUMENTS:,} games in one file (the limit)", name))


def _documents_composed(text: str, name: str) -> list:
    """The documents of `text` by libyaml's parser and the counting composer."""
    loader = _FastLoader(text)
    loader.source_name = name
    docs = []
    try:
        while loader.check_node():
            loader._start()
            docs.append(loader.construct_document(loader.get_node()))
    finally:
        loader.dispose()
    return docs


def _split_documents(text: str) -> list[str]:
    """The documents of a YAML stream, each padded with the lines before it (so that its
    lines stay those of the whole text): only to find and report the one that fails."""
    docs, start, lines = [], 0, text.split("\n")
    for n, line in enumerate(lines):
        if line.rstrip() in ("---", "...") or line.startswith("--- "):
            if any(x.strip() and not x.lstrip().startswith("#") for x in lines[start:n]):
                docs.append("\n" * start + "\n".join(lines[start:n]))
            start = n + 1 if line.rstrip() in ("---", "...") else n
    docs.append("\n" * start + "\n".join(lines[start:]))
    return docs


def is_json_lines(text: str) -> bool:
    """Several lines, each a JSON object on its own (`{...}`): JSON lines."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    return len(lines) > 1 and all(line.startswith("{") and line.endswith("}") for line in lines)


def _json_line(line: str, name: str, number: int):
    """One line of JSON lines, as SrcDict/SrcList trees whose every value is on that line."""

    def mapping(pairs):
        out = SrcDict()
        out.file, out.line = name, number
        for key, value in pairs:
            if key in out:
                raise ValueError(f"duplicate key {key!r}")
            out[key] = value
            out.lines[key] = number
        return out

    def refuse(constant):
        raise ValueError(f"{constant} is not a number here")

    try:
        tree = json.loads(line, object_pairs_hook=mapping, parse_constant=refuse)
    except RecursionError:
        raise SheetgenError(Problem("nested too deeply", name, number)) from None
    except ValueError as exc:  # json.JSONDecodeError included
        raise SheetgenError(Problem(f"invalid JSON: {getattr(exc, 'msg', exc)}", name, number)) from None
    if _values(tree) > MAX_NODES:
        raise SheetgenError(Problem(str(_too_many()), name, number))
    return _lists(tree, name, number)


def _values(tree) -> int:
    """How many values a parsed JSON tree holds, containers included."""
    count, todo = 0, [tree]
    while todo:
        value = todo.pop()
        count += 1
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    return count


def _lists(tree, name: str, number: int, depth: int = 0):
    """The lists of a JSON tree as SrcLists (on line `number`), within MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise SheetgenError(Problem(str(_too_deep()), name, number))
    if isinstance(tree, dict):
        for key, value in tree.items():
            if isinstance(value, (dict, list)):
                tree[key] = _lists(value, name, number, depth + 1)
        return tree
    if isinstance(tree, list):
        out = SrcList(_lists(v, name, number, depth + 1) if isinstance(v, (dict, list)) else v for v in tree)
        out.file, out.line = name, number
        out.lines = [number] * len(out)
        return out
    return tree


def load_file(path: str | Path, name: str | None = None):
    """Read (within fileio's limits; `-` is standard input) and parse a file; unreadable
    files are SheetgenErrors."""
    from sheetgen.fileio import read_text

    shown = name or ("<stdin>" if str(path) == "-" else str(path))
    return loads(read_text(path, shown=shown), shown)
