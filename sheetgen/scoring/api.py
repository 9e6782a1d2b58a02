"""The scorer as a library: records in, the score contract's JSON object out."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sheetgen.scoring import record as _record


def score_data(data: dict, source: str = "<record>") -> dict:
    """Score a parsed record (YAML/JSON already loaded) into the contract object."""
    return _record.score_data(data, source).contract()


def score_path(path: str | Path) -> dict:
    """Score a record file (YAML or JSON) into the contract object."""
    return _record.score_file(path).contract()


def score_many(records: Iterable[dict], source: str = "<records>") -> list[dict]:
    """Score many parsed records, each a game of its own, into contract objects (in order).

    Faster than score_data one by one: each layout is loaded, and its record specs
    built, once for the whole batch, and a game checks many records at once
    (scoring.record.score_each). A record the sheet makes impossible raises
    RecordError for it, its problems naming it `source[n]` (0-based), as score_data
    would for that record alone; a layout file is not read again during the batch.
    Python's cyclic garbage collector is paused meanwhile (scoring.record.gc_paused)."""
    with _record.gc_paused():
        return [scored.contract() for scored in _record.score_each(records, source)]
