"""A small user cache of derived data, so that a process does not redo work whose
inputs have not changed: the parsed metrics of the bundled fonts and the font subsets
a PDF embeds, the parsed trees of layout files, which layouts passed the full
validation, the operators of painted icons, the modules of QR codes, and the text of
`sheetgen --help`.

Entries are keyed by hashes of their inputs (a layout tree's content; a file's path, size
and modification time, as Python keys its compiled modules: the font files, sheetgen's
own code), so a stale entry is never used: a changed input is another key. The folder
keeps to MAX_ENTRIES files (prune).
Values are plain data written with `marshal` (never pickle: nothing read back can
run code). An unreadable or corrupt entry is a miss, and a failed write is ignored:
the cache only saves time, it never changes a result.

Where: $SHEETGEN_CACHE_DIR if set (`off`, or an empty value, turns the cache off),
else the user cache folder (platformdirs, e.g. ~/.cache/sheetgen on Linux).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from functools import cache
from pathlib import Path

ENV = "SHEETGEN_CACHE_DIR"
# marshal's format is stable within a Python version; a key names the version
_FORMAT = f"py{sys.version_info[0]}{sys.version_info[1]}-m{marshal.version}"


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off."""
    value = os.environ.get(ENV)
    if value is not None:
        return None if value.strip() in ("", "off") else Path(value)
    if sys.platform == "linux":  # platformdirs' answer in the plain cases, without its import time
        xdg, home = os.environ.get("XDG_CACHE_HOME", ""), os.environ.get("HOME", "")
        if os.path.isabs(xdg):
            return Path(xdg) / "sheetgen"
        if not xdg.strip() and os.path.isabs(home):
            return Path(home) / ".cache" / "sheetgen"
    import platformdirs

    return Path(platformdirs.user_cache_dir("sheetgen", appauthor=False))


def key(*parts: object) -> str:
    """A cache key from parts (strings or bytes), the marshal format included."""
    h = hashlib.sha256(_FORMAT.encode())
    for part in parts:
        h.update(b"\0")
        h.update(part if isinstance(part, bytes) else str(part).encode("utf-8"))
    return h.hexdigest()[:40]


def _path(kind: str, k: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"{kind}-{k}.marshal"


def get(kind: str, k: str):
    """The value stored under (kind, key), or None (absent, unreadable, off)."""
    path = _path(kind, k)
    if path is None:
        return None
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None


def put(kind: str, k: str, value) -> None:
    """Store a plain value (atomically: a reader sees the old file or the new one). One
    write in 16 (by its key) also prunes the folder (see prune)."""
    path = _path(kind, k)
    if path is None:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(marshal.dumps(value))
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            tmp.unlink()
        except OSError:
            pass
        return
    if k.endswith("0"):
        prune(path.parent)


MAX_ENTRIES = 4000  # a designer's edits each leave new entries (trees, icons, font subsets)


def prune(folder: Path, most: int = MAX_ENTRIES) -> None:
    """Keep the folder to `most` entries: past that, the least recently written go, down
    to three quarters of it (an entry still in use is only written again)."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".marshal") and e.is_file()]
        if len(entries) <= most:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for entry in entries[: len(entries) - most * 3 // 4]:
            os.unlink(entry.path)
    except OSError:
        pass


@cache
def code_stamp() -> str:
    """A fingerprint of sheetgen's own code and fonts (path, size, modification time of
    each file): a result cached by one version of the code is not used by another."""
    root = Path(__file__).resolve().parent
    folders = [root]  # installed: the fonts are sheetgen/fonts
    if (root.parent / "pyproject.toml").is_file():  # a source checkout: fonts/ beside sheetgen/
        folders.append(root.parent / "fonts")
    parts = []
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".py", ".ttf")):
                    st = os.stat(os.path.join(dirpath, name))
                    parts.append(f"{os.path.relpath(os.path.join(dirpath, name), root)}:{st.st_size}:{st.st_mtime_ns}")
    return key(*parts)


@cache
def package_stamp(name: str) -> str:
    """A fingerprint of an installed package (the size and time of its __init__.py and of
    its folder, which a reinstall changes), found without importing it: a result that a
    package computed (PyYAML's tree, Click's help text) is not used under another version."""
    from importlib.util import find_spec

    try:
        spec = find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return f"{name}: not installed"
    origin = Path(spec.origin)
    try:
        stats = [origin.stat(), origin.parent.stat()]
    except OSError:
        return str(origin)
    return f"{origin}:" + ":".join(f"{st.st_size}:{st.st_mtime_ns}" for st in stats)
