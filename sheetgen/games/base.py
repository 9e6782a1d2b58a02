"""What every game module returns, and small helpers shared by the rules."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PlayerScore:
    name: str
    breakdown: dict            # category key -> points, in the categories' order
    tiebreak: tuple = ()       # compared when totals are equal; higher wins
    total: int | None = None   # defaults to the sum of the breakdown
    tiebreak_shown: tuple | None = None  # the tie-breakers as the table shows them (default: tiebreak)

    def __post_init__(self):
        if self.total is None:
            self.total = sum(self.breakdown.values())
        if self.tiebreak_shown is None:
            self.tiebreak_shown = self.tiebreak


def leaders(values: list[int], minimum: int = 1) -> set[int]:
    """Indexes of the players holding the highest value (at least `minimum`)."""
    best = max(values, default=0)
    if best < minimum:
        return set()
    return {i for i, v in enumerate(values) if v == best}


def section_values(track: dict) -> list:
    """The printed value of each section of a layout track (None where none is printed)."""
    return [s.get("value") for s in track["sections"]]


def track_boxes(track: dict) -> int:
    return sum(s["boxes"] for s in track["sections"])


def label(fr: str, en: str) -> dict:
    return {"fr": fr, "en": en}


@dataclass
class Report:
    """Collects a record's errors (impossible on the sheet) and warnings (against the rules)."""
    ctx: object
    names: list = field(default_factory=list)

    def error(self, at, message: str):
        return self.ctx.error(at, message)

    def warn(self, player: int | None, message: str) -> None:
        who = f"players[{player}] '{self.names[player]}': " if player is not None else ""
        self.ctx.warnings.append(who + message)


def where_in(player: dict, *keys):
    """A Where for `player.keys...` in the raw record, for error messages.

    `player["_where"]` is set by the record validator; where a key is absent in
    the raw record, the line of the nearest enclosing mapping is used."""
    from sheetgen.schema import Where

    at = player["_where"]
    node = at.node[at.key]
    holder, hkey, path = at.node, at.key, at.path
    for k in keys:
        path = f"{path}[{k}]" if isinstance(k, int) else (f"{path} {k}" if path.endswith(":") else f"{path}.{k}")
        present = (isinstance(node, dict) and k in node) or \
                  (isinstance(node, list) and isinstance(k, int) and 0 <= k < len(node))
        if present:
            holder, hkey, node = node, k, node[k]
        else:
            node = None
    return Where(holder, hkey, path)
