"""Writing outputs atomically: a temporary file beside the target, then a rename,
so an existing output is only replaced by a complete new one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from sheetgen.errors import SheetgenError


def write_atomic(path: str | Path, data: bytes) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise SheetgenError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; give the usual mode
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise SheetgenError(f"{path}: cannot write: {exc.strerror}") from None
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
