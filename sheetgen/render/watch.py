"""Live preview (`render --watch`): render again whenever the layout or a parent changes.

`watch(ref, build, report)` calls `build()` once, then again after every change of
the layout file or of any file it `extends` (the set is read again after each
build, so a new parent is watched from then on). `report(error)` receives each
failure (a SheetgenError) instead of ending the loop; the caller keeps its last
good output, since `build` writes only when it succeeds. Folders are watched, not
files, so that editors that save by renaming a new file over the old are seen.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from sheetgen.errors import SheetgenError


def layout_files(ref: str) -> set[Path]:
    """The files that the layout `ref` is made of (itself and every parent it extends,
    built-ins excluded: they do not change), as far as they can be read now."""
    from sheetgen.layout.resolve import builtin_dir, load_layout_file, locate, resolve

    path = locate(ref, None)
    if path is None:
        return {_real(ref)}
    files = {_real(path)}

    def load(p: Path):
        files.add(_real(p))
        return load_layout_file(p)

    try:
        resolve(path, load)
    except SheetgenError:
        pass  # a broken parent is still watched: fixing it re-renders
    builtins = _real(builtin_dir())
    return {f for f in files if f.parent != builtins}


def _real(path) -> Path:
    """The path with its links followed as far as they go: a link in a loop (which
    Path.resolve refuses with a RuntimeError) is left as it is, to be refused when read."""
    return Path(os.path.realpath(path))


def _changes(folders: list[Path], stop_event) -> Iterable[set[Path]]:
    """Sets of changed paths in `folders` (watchfiles), until `stop_event` is set. Only the
    folders themselves, not what is below them: a layout's folder may hold subfolders its
    user cannot read, or thousands of files that are none of the layout's."""
    from watchfiles import watch as watch_folders

    for changes in watch_folders(
        *folders,
        stop_event=stop_event,
        debounce=200,
        raise_interrupt=True,
        recursive=False,
        ignore_permission_denied=True,
    ):
        yield {_real(p) for _, p in changes}


def watch(
    ref: str,
    build: Callable[[], None],
    report: Callable[[SheetgenError], None],
    *,
    changes: Callable[[list[Path]], Iterable[set[Path]]] | None = None,
    stop_event=None,
) -> int:
    """Build, then build again on every change of the layout's files, until the change
    source ends (`stop_event` set, or Ctrl-C, which raises KeyboardInterrupt). Returns
    the number of builds tried. `changes(folders)` yields sets of changed paths
    (default: watchfiles)."""
    source = changes or (lambda folders: _changes(folders, stop_event))
    builds = 0

    def attempt() -> None:
        nonlocal builds
        builds += 1
        try:
            build()
        except SheetgenError as exc:
            report(exc)

    attempt()
    while stop_event is None or not stop_event.is_set():
        files = layout_files(ref)
        folders = sorted({f.parent for f in files if f.parent.is_dir()})
        if not folders:
            return builds
        rewatch = False
        for changed in source(folders):
            if changed & files:
                attempt()
                if layout_files(ref) != files:  # a parent added or removed: watch anew
                    rewatch = True
                    break
        if not rewatch:
            return builds
    return builds
