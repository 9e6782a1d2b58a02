"""Game records: load (YAML or JSON), validate against the layout they name,
score with the game's rules, rank. Every problem is collected, then raised
once as a RecordError (`file:line: players[1] 'Bob': market.carrot: ...`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from sheetgen.errors import LayoutError, RecordError, SheetgenError
from sheetgen.games import game_for, load_layout
from sheetgen.games.base import Report
from sheetgen.games.fields import Name
from sheetgen.layout.model import Layout
from sheetgen.layout.resolve import describe_kind
from sheetgen.schema import INVALID, Any_, Ctx, Field, Map, Spec, Str, Where, describe
from sheetgen.scoring.rank import rank_players
from sheetgen.yamlsrc import load_file


@dataclass
class Scored:
    layout: Layout
    record: dict
    scores: list  # PlayerScore, record order
    ranks: list
    winners: list
    warnings: list
    source: str

    def contract(self) -> dict:
        """The JSON object of the score contract (docs/rules.md)."""
        return {
            "layout": self.layout.id,
            "game": self.layout.game,
            "players": [
                {"name": s.name, "total": s.total, "rank": r, "breakdown": dict(s.breakdown)}
                for s, r in zip(self.scores, self.ranks)
            ],
            "winners": list(self.winners),
            "warnings": list(self.warnings),
        }


class IsoDate(Spec):
    """When the game was played: an ISO date (2026-11-30) or date and time
    (2026-11-30T20:15, a space instead of the T allowed); kept as ISO text."""

    description = "an ISO date like 2026-11-30 or 2026-11-30T20:15"

    def check(self, value, ctx, at):
        if isinstance(value, dt.datetime):
            return value.isoformat(timespec="seconds")
        if isinstance(value, dt.date):
            return value.isoformat()
        parsed = parse_iso_date(value) if isinstance(value, str) else None
        if parsed is None:
            return ctx.error(at, f"expected {self.description}, got {describe(value)}")
        return parsed


def parse_iso_date(text: str) -> str | None:
    """`text` as a normalised ISO date or date-time (seconds), or None if it is neither."""
    text = text.strip()
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text).isoformat()
        return dt.datetime.fromisoformat(text).isoformat(timespec="seconds")
    except ValueError:
        return None


def layout_for(raw, source: str, ctx: Ctx) -> Layout | None:
    """The layout a record names (built-in id or a path relative to the record)."""
    top = Where(raw, None, "")
    if not isinstance(raw, dict):
        # the kind only, never the text: the file may be any file of the user's
        ctx.error(top, f"expected a game record mapping with 'layout' and 'players', got {describe_kind(raw)}")
        return None
    if "layout" not in raw:
        ctx.error(top, "missing key 'layout' (a built-in layout id or a path to a layout file)")
        return None
    ref = raw["layout"]
    at = Where(raw, "layout", "layout")
    if not isinstance(ref, str):
        ctx.error(at, f"expected a layout id or path, got {describe(ref)}")
        return None
    try:
        return load_layout(ref, Path(source))
    except LayoutError as exc:
        for problem in exc.problems:
            if problem.located():
                ctx.errors.append(problem)  # a problem inside the layout file itself
            else:
                ctx.error(at, str(problem))
        return None


def validate(raw, source: str) -> tuple[Layout, dict, list[str]]:
    """The layout, the normalised record and its warnings; or raise RecordError."""
    ctx = Ctx(source=source)
    layout = layout_for(raw, source, ctx)
    if layout is None:
        raise RecordError(ctx.errors)
    game = game_for(layout)
    fields = {
        "layout": Field(Str(), required=True),
        "date": Field(IsoDate()),
        "notes": Field(Str()),
        **game.record_fields(layout),
    }
    top = Where(raw, None, "")
    record = {}
    # checked in place (not a copy) so that errors in record-level keys keep their line
    got = Map({**fields, "players": Field(Any_())}).check(raw, ctx, top)
    if got is not INVALID:
        got.pop("players", None)
        record.update(got)
    players = raw.get("players")
    lo, hi = game.player_range(layout)
    if players is None:
        ctx.error(top, "missing key 'players'")
        raise RecordError(ctx.errors)
    if not isinstance(players, list):
        ctx.error(Where(raw, "players", "players"), f"expected a list of players, got {describe(players)}")
        raise RecordError(ctx.errors)
    if not lo <= len(players) <= hi:
        allowed = f"{lo}-{hi}" if lo != hi else str(lo)
        ctx.error(Where(raw, "players", "players"), f"{layout.game} is played by {allowed} players, got {len(players)}")
        if len(players) > hi:  # checked before the work: no need to validate 50,000 players
            raise RecordError(ctx.errors)
    pspec = Map({"name": Field(Name(), required=True), **game.player_fields(layout)}, what="a player mapping")
    out, names = [], []
    for i, p in enumerate(players):
        name = p.get("name") if isinstance(p, dict) else None
        named = isinstance(name, (str, int)) and str(name).strip()
        label = f"players[{i}] '{str(name)[:60]}':" if named else f"players[{i}]:"  # escaped when shown
        got = pspec.check(p, ctx, Where(players, i, label))
        if got is not INVALID:
            got["_where"] = Where(players, i, label)
            if got["name"] in names:
                ctx.error(Where(p, "name", label + " name"), f"two players are named '{got['name']}'")
            names.append(got["name"])
        out.append(got)
    if ctx.errors:
        raise RecordError(ctx.errors)
    record["players"] = out
    record["_node"] = raw
    report = Report(ctx, names)
    game.check(layout, record, report)
    if ctx.errors:
        raise RecordError(ctx.errors)
    return layout, record, ctx.warnings


def score_data(raw, source: str = "<record>") -> Scored:
    """Validate and score a parsed record."""
    layout, record, warnings = validate(raw, source)
    game = game_for(layout)
    scores = game.score(layout, record)
    ranks, winners = rank_players(scores)
    return Scored(layout, record, scores, ranks, winners, warnings, source)


def score_file(path: str | Path) -> Scored:
    try:
        raw = load_file(path)
    except SheetgenError as exc:
        raise RecordError(exc.problems) from None
    return score_data(raw, str(path))
