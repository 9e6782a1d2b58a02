"""Reading inputs with limits, and writing outputs without losing anything.

Inputs: `-` is standard input; any other path must be a regular file (a FIFO
or a device could hang or never end) no bigger than the caller's limit, and is
read in bounded chunks, so a huge or endless input is refused, not swallowed.

Outputs: `-` is standard output. A regular file is replaced atomically: a
temporary file beside the target (the target of a symbolic link, which stays a
link), then a rename, keeping the old file's mode. Anything else that exists
(`/dev/stdout`, a FIFO, a device) is written straight to, never replaced. An
output that is one of the command's inputs is refused, and so is an existing
record or layout (YAML/JSON) unless `force`.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from sheetgen.errors import SheetgenError

MB = 1024 * 1024
MAX_TEXT_INPUT = 1 * MB  # a layout or a game record (a built-in layout is < 25 KB)
MAX_RECORDS_INPUT = 50 * MB  # a file of game records: a season's (each game within MAX_TEXT_INPUT)
MAX_PDF_INPUT = 50 * MB  # a filled PDF
PROTECTED_SUFFIXES = (".yaml", ".yml", ".json")
_CHUNK = 64 * 1024
_STDIN: tuple | None = None  # (the stream, its bytes)


KINDS = {MAX_RECORDS_INPUT: "for a file of game records"}  # what a limit is called in its message


def _size_error(shown: str, limit: int) -> SheetgenError:
    return SheetgenError(
        f"{shown}: larger than the limit of {limit // MB} MB {KINDS.get(limit, 'for this kind of file')}"
    )


def read_input(path: str | Path, limit: int, shown: str | None = None) -> bytes:
    """The bytes of `path` (`-`: standard input), at most `limit` of them."""
    shown = shown or str(path)
    if str(path) == "":
        raise SheetgenError("an empty file name; give a file, or - for standard input")
    if str(path) == "-":  # read once, kept: a command may look at it twice (a PDF or a record?)
        global _STDIN
        if sys.stdin is None:  # `sheetgen score - <&-`
            raise SheetgenError("<stdin>: standard input is closed; pipe the input to it, or give a file")
        if _STDIN is None or _STDIN[0] is not sys.stdin:
            _STDIN = (sys.stdin, _read_limited(sys.stdin.buffer, MAX_PDF_INPUT, "<stdin>"))
        if len(_STDIN[1]) > limit:
            raise _size_error("<stdin>", limit)
        return _STDIN[1]
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SheetgenError(f"{shown}: no such file") from None
    except OSError as exc:
        raise SheetgenError(f"{shown}: cannot read: {exc.strerror}") from None
    except ValueError:  # a NUL byte in the name
        raise SheetgenError(f"{shown}: no such file") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise SheetgenError(f"{shown}: a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise SheetgenError(f"{shown}: not a regular file (to read a stream, give - and pipe it to standard input)")
        raise _size_error(shown, limit)
    with os.fdopen(fd, "rb") as fh:
        try:
            return _read_limited(fh, limit, shown)
        except OSError as exc:
            raise SheetgenError(f"{shown}: cannot read: {exc.strerror}") from None


def _read_limited(fh, limit: int, shown: str) -> bytes:
    parts, total = [], 0
    while True:
        chunk = fh.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        total += len(chunk)
        if total > limit:
            raise _size_error(shown, limit)


def read_text(path: str | Path, limit: int = MAX_TEXT_INPUT, shown: str | None = None) -> str:
    """`read_input` decoded as UTF-8 (a one-line error when it is not)."""
    data = read_input(path, limit, shown)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SheetgenError(f"{shown or path}:1: not UTF-8 text") from None


def same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(path: str | Path, *, inputs=(), force: bool = False, record: bool = False):
    """Refuse an output before any work: an empty path, one of the `inputs`, a folder,
    an existing record or layout without `force` (`record`: every existing file is one).
    Returns the path's stat (after links), None when nothing is there yet."""
    text = str(path)
    if text == "":
        raise SheetgenError("-o/--output: an empty path; give a file name, or - for standard output")
    if text == "-":
        return None
    not_a_folder_name(text)
    for src in inputs:
        if src and str(src) != "-" and os.path.exists(src) and os.path.exists(text) and same_file(src, text):
            raise SheetgenError(
                f"{text}: this is one of the command's inputs ({src}); write the output to another file"
            )
    try:
        st = os.stat(text)
    except FileNotFoundError:
        _folder_writable(text)
        return None
    except OSError as exc:
        raise SheetgenError(f"{text}: cannot write: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise SheetgenError(f"{text}: a folder, not a file")
    real = Path(os.path.realpath(text))
    if stat.S_ISREG(st.st_mode) and not force and (record or real.suffix.lower() in PROTECTED_SUFFIXES):
        raise SheetgenError(f"{text}: the file exists; give --force to overwrite it")
    if stat.S_ISREG(st.st_mode) and not os.access(real, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
        # a rename would replace it all the same (the folder's permission, not the file's):
        # a file the user may not write in place is not theirs to replace
        raise SheetgenError(f"{text}: cannot write: Permission denied (the file is not yours to replace)")
    return st


def _folder_writable(text: str) -> None:
    """A new file can be made at `text`: the nearest folder of it that exists (the others
    are made) is a folder we may write in."""
    folder = os.path.dirname(os.path.abspath(text))
    while not os.path.exists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        raise SheetgenError(f"{text}: cannot write: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SheetgenError(f"{text}: cannot write: Permission denied (in {folder})")


def not_a_folder_name(text: str) -> None:
    """Refuse a path ending in `/`: a folder's name, never a file to write (`o/out.pdf/`)."""
    if text.endswith(("/", os.sep)) or text.endswith(("/.", "/..")) or text in (".", ".."):
        raise SheetgenError(f"{text}: a folder's name (it ends in /); give a file name")


def write_output(path: str | Path, data: bytes, *, inputs=(), force: bool = False, record: bool = False) -> str:
    """Write `data` to `path` (see the module doc); return how to name it to the user.

    `inputs` are the command's input files; `record` says the output is a record
    (every existing file is then protected, not only YAML/JSON ones)."""
    st = check_output(path, inputs=inputs, force=force, record=record)
    text = str(path)
    if text == "-":
        out = sys.stdout.buffer
        out.write(data)
        out.flush()
        return "<stdout>"
    if st is not None and (not stat.S_ISREG(st.st_mode) or _special(text)):
        _write_straight(text, data)
        return text
    real = Path(os.path.realpath(text))  # through a symbolic link: the link stays
    write_atomic(
        real,
        data,
        st.st_mode & 0o7777 if st is not None else None,
        shown=text,
        owner=(st.st_uid, st.st_gid) if st is not None else None,
    )
    return text


def _special(path: str) -> bool:
    """/dev/stdout and its kin (links into /proc/self/fd): whatever they point to, a
    rename would act on the wrong file, so they are written straight to."""
    return os.path.abspath(path).startswith(("/dev/", "/proc/")) or os.path.realpath(path).startswith(
        ("/dev/", "/proc/")
    )


def _write_straight(shown: str, data: bytes) -> None:
    """Write to an existing non-regular file (a FIFO, a terminal, /dev/stdout): no rename."""
    try:
        fd = os.open(shown, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        why = "nobody reads it" if exc.errno == 6 else exc.strerror  # ENXIO: a FIFO without a reader
        raise SheetgenError(f"{shown}: cannot write: {why}") from None
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        raise SheetgenError(f"{shown}: cannot write: {exc.strerror}") from None
    finally:
        os.close(fd)


def write_atomic(
    path: str | Path,
    data: bytes,
    mode: int | None = None,
    shown: str | None = None,
    owner: tuple[int, int] | None = None,
) -> Path:
    """A temporary file beside `path`, then a rename; `mode` defaults to the usual one.
    `owner` (uid, gid) is kept when we may (as root, or our own group)."""
    import tempfile  # here, not at the top: reading a record need not load it (start-up)

    path = Path(path)
    shown = shown or str(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise SheetgenError(f"{shown}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if owner is not None and owner != (os.geteuid(), os.getegid()):
            try:
                os.chown(tmp, *owner)
            except OSError:
                pass  # not ours to give: the new file is the writer's, as any new file
        os.chmod(tmp, (0o666 & ~_umask()) if mode is None else mode)  # mkstemp makes 0600
        os.replace(tmp, path)
    except BaseException as exc:  # SIGTERM too: the CLI turns it into SystemExit
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise SheetgenError(f"{shown}: cannot write: {exc.strerror}") from None
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def data_folder(package: str, folder: str) -> Path:
    """Where the bundled `folder` (layouts/, fonts/) is: a source checkout's own folder
    when sheetgen runs from one (even where another checkout is installed in editable
    mode, whose `package` would be that checkout's), else the installed `package`'s.
    Found with importlib.util.find_spec rather than importlib.resources, whose import
    (tempfile, shutil, ...) every start would pay."""
    from importlib.util import find_spec

    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file() and (checkout / folder).is_dir():
        return checkout / folder
    try:
        spec = find_spec(package)
    except ModuleNotFoundError:  # pragma: no cover - neither installed nor a checkout
        spec = None
    places = list(spec.submodule_search_locations or []) if spec else []
    return Path(places[0]) if places else checkout / folder
