"""Resolve `extends:` into one layout tree (Squib's layout_parser, made strict).

`extends` names one parent or a list of parents, each a built-in layout id or a
path relative to the file that names it. Parents are merged in order (later
parents win), then the child on top. Cycles and missing parents are errors.

Merging (`merge`) is a pure function:
- mappings merge key by key, the child's value winning;
- lists whose items are all mappings with an `id` merge item by item on `id`:
  an item with the parent's id merges into it (and `remove: true` deletes it),
  a new id goes right after the item listed before it in the child (at the
  end when it comes first);
- a child's `"+=N"` / `"-=N"` (Squib's relative values) adds to the parent's number,
  also item by item in a list (`at: ["+=0", "+=10"]`);
- any other value is replaced by the child's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

from sheetgen.errors import LayoutError, Problem, SheetgenError
from sheetgen.fileio import data_folder
from sheetgen.srctree import SrcDict, SrcList, where

BUILTIN_PACKAGE = "sheetgen.layouts"


@cache
def builtin_dir() -> Path:
    """The built-in layouts (sheetgen.fileio.data_folder)."""
    return data_folder(BUILTIN_PACKAGE, "layouts")


def builtin_ids() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def is_builtin_ref(ref: str) -> bool:
    return "/" not in ref and "\\" not in ref and not ref.endswith((".yaml", ".yml", ".json"))


def locate(ref: str, relative_to: Path | None) -> Path | None:
    """The file a reference names: a built-in id, or a path (relative to a file's folder)."""
    if is_builtin_ref(ref):
        path = builtin_dir() / f"{ref}.yaml"
        try:
            return path if path.is_file() else None
        except (OSError, ValueError):
            return None
    path = Path(ref)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to.parent / path
    try:
        return path if path.exists() else None  # not a regular file: reading it says so
    except (OSError, ValueError):  # a name too long, a NUL byte...
        return None


def _by_id(items) -> bool:
    return isinstance(items, list) and all(isinstance(i, dict) and "id" in i for i in items)


def merge(parent, child):
    """Merge `child` over `parent` (see the module doc). Inputs are not modified."""
    if isinstance(parent, dict) and isinstance(child, dict):
        out = SrcDict()
        out.file = getattr(child, "file", "<string>")
        out.line = getattr(child, "line", 0)
        for src in (parent, child):
            for key, value in src.items():
                if key in out and src is child:
                    out[key] = merge(out[key], value)
                elif src is child and parent:
                    out[key] = _offset(None, value)  # `at: ["+=0", "+=4"]` where the parent has none: from 0
                else:
                    out[key] = value
                if hasattr(src, "line_of"):
                    out.lines[key] = src.line_of(key)
                    out.files[key] = src.file_of(key)
        return out
    if _by_id(parent) and _by_id(child) and parent and child:
        out = SrcList()
        out.file = getattr(child, "file", "<string>")
        out.line = getattr(child, "line", 0)
        # each entry: [item, line, file] (a merged item takes the child's place)
        entries = [[item, *where(parent, n)[::-1]] for n, item in enumerate(parent)]
        after = None  # id of the entry the child's previous item became
        for n, item in enumerate(child):
            ids = [e[0]["id"] for e in entries]
            file, line = where(child, n)
            if item["id"] in ids:
                pos = ids.index(item["id"])
                if item.get("remove") is True:
                    del entries[pos]
                    continue
                entries[pos] = [merge(entries[pos][0], item), line, file]
            else:
                pos = ids.index(after) + 1 if after in ids else len(entries)
                entries.insert(pos, [item, line, file])
            after = item["id"]
        for item, line, file in entries:
            out.append(item)
            out.lines.append(line)
            out.files.append(file)
        return out
    return _offset(parent, child)


_OFFSET = re.compile(r"([+-])=\s*([0-9]+(?:\.[0-9]+)?)")


def _offset(parent, child):
    """`child`, or the parent's number moved by it when it is a `+=N` / `-=N` offset (from 0
    when the parent has no value). A list made of offsets is marked `offset` (an `at` that
    stays relative to where `below:` / `right_of:` put the element)."""
    offsets = isinstance(child, list) and any(isinstance(c, str) and _OFFSET.fullmatch(c.strip()) for c in child)
    if offsets and parent is None:
        parent = [0] * len(child)
    if isinstance(child, list) and isinstance(parent, list) and len(child) == len(parent):
        if offsets:
            out = SrcList(_offset(p, c) for p, c in zip(parent, child, strict=True))
            out.file, out.line = getattr(child, "file", "<string>"), getattr(child, "line", 0)
            out.lines = list(getattr(child, "lines", []))
            out.files = list(getattr(child, "files", []))
            out.offset = True
            return out
        return child
    m = _OFFSET.fullmatch(child.strip()) if isinstance(child, str) else None
    if m is None or isinstance(parent, bool) or not isinstance(parent, (int, float)):
        return child  # an offset over no number: the validator reports the text where it is
    delta = float(m.group(2)) if "." in m.group(2) else int(m.group(2))
    got = parent + delta if m.group(1) == "+" else parent - delta
    return round(got, 6) if isinstance(got, float) else got


def shown_name(path: Path) -> str:
    """How problems name a layout file: a built-in by its id (`harvest-dice-normal`, not a
    path inside the installed package), any other file by its path."""
    path = Path(path)
    try:
        if path.suffix == ".yaml" and path.resolve().parent == builtin_dir().resolve():
            return path.stem
    except (OSError, ValueError):
        pass
    return str(path)


def load_layout_file(path: Path):
    """A layout file's tree (`yamlsrc.loads`: libyaml when PyYAML has it, within fileio's
    limits), its problems naming a built-in by its id (shown_name).

    Parsing a built-in layout costs ~10-40 ms, and importing PyYAML ~30 ms more: the
    trees of files that parsed are kept in the user cache (sheetgen.cache), keyed by
    the file's text, its shown name, sheetgen's code and the installed PyYAML, so a later
    process reads the same tree (lines included) without either."""
    from sheetgen import cache
    from sheetgen.fileio import read_text
    from sheetgen.srctree import from_data, to_data

    name = shown_name(path)
    text = read_text(path, shown=name)
    key = cache.key("tree", name, text, cache.code_stamp(), cache.package_stamp("yaml"))
    got = cache.get("tree", key)
    if got is not None:
        try:
            return from_data(got)
        except (ValueError, TypeError, IndexError, KeyError):
            pass  # not a tree after all: parse the text
    from sheetgen.yamlsrc import loads

    tree = loads(text, name)
    try:
        data = to_data(tree)
    except ValueError:  # a value the cache cannot keep: parse it every time
        return tree
    cache.put("tree", key, data)
    return tree


MAX_EXTENDS_DEPTH = 32


def not_a_layout(path, data) -> Problem:
    """Why `data` is no layout at all, without quoting what the file holds (it may be
    any file of the user's: an error must not print its contents)."""
    if data is None:
        what = "an empty file"
    else:
        what = "a mapping with neither 'game' nor 'extends'" if isinstance(data, dict) else describe_kind(data)
    return Problem(f"expected a layout mapping (id, game, title, pages...), got {what}", str(path), 1)


def describe_kind(value) -> str:
    """What kind of value, never the value itself."""
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    return "a mapping" if isinstance(value, dict) else "nothing"


def resolve(
    path: Path, load: Callable[[Path], dict] = load_layout_file, _stack: tuple = (), _done: dict | None = None
) -> SrcDict:
    """Load the layout at `path` with every parent merged in. Each file is resolved once
    (a parent named twice, a diamond, is merged from the same result), at most
    MAX_EXTENDS_DEPTH files deep."""
    path = Path(path)
    key = path.resolve()
    _done = {} if _done is None else _done
    if key in _done:
        return _done[key]
    if key in _stack:  # only reached when resolve() is called on a cycle directly
        chain = " -> ".join(p.name for p in (*_stack, key)[list(_stack).index(key) :])
        raise LayoutError(Problem(f"cycle: {chain}", str(path), 1, "extends"))
    try:
        data = load(path)
    except LayoutError:
        raise
    except SheetgenError as exc:  # YAML syntax, unreadable file: still a layout problem
        raise LayoutError(exc.problems) from None
    # a layout names its game or a parent: any other file is no layout, and is not quoted
    if not isinstance(data, dict) or ("game" not in data and "extends" not in data):
        raise LayoutError(not_a_layout(path, data))
    refs = data.get("extends", [])
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        line = data.line_of("extends") if hasattr(data, "line_of") else 0
        raise LayoutError(Problem("expected a layout id, a path, or a list of them", str(path), line, "extends"))
    merged: dict | None = None
    problems = []
    for n, ref in enumerate(refs):
        parent_path = locate(ref, path)
        line = data["extends"].line_of(n) if isinstance(data["extends"], SrcList) else data.line_of("extends")
        if parent_path is not None and parent_path.resolve() in (*_stack, key):
            # report the cycle where it closes: this file's `extends` line
            loop = (*_stack, key)
            chain = " -> ".join(p.name for p in (*loop[loop.index(parent_path.resolve()) :], parent_path.resolve()))
            problems.append(Problem(f"cycle: {chain}", str(path), line, "extends"))
            continue
        if parent_path is None:
            kind = "built-in layout" if is_builtin_ref(ref) else "file"
            hint = ""
            if is_builtin_ref(ref):
                from sheetgen.schema import did_you_mean

                hint = did_you_mean(ref, builtin_ids()) or f" (built-in layouts: {', '.join(builtin_ids())})"
            problems.append(Problem(f"no {kind} '{ref}'{hint}", str(path), line, "extends"))
            continue
        if len(_stack) + 1 >= MAX_EXTENDS_DEPTH and parent_path.resolve() not in _done:
            raise LayoutError(
                f"{path}:{line}: extends: more than {MAX_EXTENDS_DEPTH} files deep (the limit); "
                f"the chain starts at {(_stack or (key,))[0]}"
            )
        parent = resolve(parent_path, load, (*_stack, key), _done)
        merged = parent if merged is None else merge(merged, parent)
    if problems:
        raise LayoutError(problems)
    own = SrcDict((k, v) for k, v in data.items() if k != "extends")
    own.file, own.line = data.file, data.line
    own.lines = {k: v for k, v in data.lines.items() if k != "extends"}
    if "id" not in own:
        own["id"] = path.stem
        own.lines["id"] = 1
    result = own if merged is None else merge(merged, own)
    _done[key] = result
    return result
