"""The scorer as a library: records in, the score contract's JSON object out."""

from __future__ import annotations

from pathlib import Path

from sheetgen.scoring import record as _record


def score_data(data: dict, source: str = "<record>") -> dict:
    """Score a parsed record (YAML/JSON already loaded) into the contract object."""
    return _record.score_data(data, source).contract()


def score_path(path: str | Path) -> dict:
    """Score a record file (YAML or JSON) into the contract object."""
    return _record.score_file(path).contract()
