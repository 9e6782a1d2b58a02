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
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise SheetgenError(f"{path}: cannot write: {exc.strerror}") from None
    return path
