"""Game records: load (YAML or JSON), validate against the layout they name,
score with the game's rules, rank. Every problem is collected, then raised
once as a RecordError (`file:line: players[1] 'Bob': market.carrot: ...`).
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from sheetgen.errors import LayoutError, Problem, RecordError, SheetgenError
from sheetgen.games import game_for, load_layout
from sheetgen.games.base import Report, per_layout, player_label
from sheetgen.games.fields import Name
from sheetgen.layout.model import Layout
from sheetgen.layout.resolve import describe_kind, is_builtin_ref
from sheetgen.schema import INVALID, Any_, Ctx, Field, Map, Slow, Spec, Str, Where, describe
from sheetgen.scoring.rank import rank_players
from sheetgen.values import replace
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


class Batch:
    """What scoring many records shares: each layout loaded once per (reference, folder)
    (its record specs are built once per layout by _plan). One Batch for one run of records
    (a file of many games, a list given to the library): a layout file changed during
    the run is not read again."""

    def __init__(self):
        self.layouts: dict = {}

    def layout(self, ref: str, source: str) -> Layout:
        got = self.layouts.get((ref, None))  # a built-in id, the same from every folder
        if got is not None:
            return got
        key = (ref, None if is_builtin_ref(ref) else str(Path(source).parent))
        got = self.layouts.get(key)
        if got is None:
            got = self.layouts[key] = load_layout(ref, Path(source))
        return got


class _Plan:
    """What validating a record against one layout needs, built once per layout: the
    record and player specs, their quick checkers (schema.Spec.quick), the game and its
    player range."""

    __slots__ = ("game", "record", "player", "record_quick", "player_quick", "lo", "hi")

    def __init__(self, layout: Layout):
        self.game = game = game_for(layout)
        self.record = Map(
            {
                "layout": Field(Str(), required=True),
                "date": Field(IsoDate()),
                "notes": Field(Str()),
                **game.record_fields(layout),
                "players": Field(Any_()),
            }
        )
        self.player = Map({"name": Field(Name(), required=True), **game.player_fields(layout)}, what="a player mapping")
        self.record_quick, self.player_quick = self.record.quick(), self.player.quick()
        self.lo, self.hi = game.player_range(layout)


_plan = per_layout(_Plan)


def layout_for(raw, source: str, ctx: Ctx, batch: Batch | None = None) -> Layout | None:
    """The layout a record names (built-in id or a path relative to the record)."""
    if not isinstance(raw, dict):
        # the kind only, never the text: the file may be any file of the user's
        got = describe_kind(raw)
        ctx.error(Where(raw, None, ""), f"expected a game record mapping with 'layout' and 'players', got {got}")
        return None
    if "layout" not in raw:
        ctx.error(Where(raw, None, ""), "missing key 'layout' (a built-in layout id or a path to a layout file)")
        return None
    ref = raw["layout"]
    if not isinstance(ref, str):
        ctx.error(Where(raw, "layout", "layout"), f"expected a layout id or path, got {describe(ref)}")
        return None
    try:
        return (batch or Batch()).layout(ref, source)
    except LayoutError as exc:
        at = Where(raw, "layout", "layout")
        for problem in exc.problems:
            if problem.located():
                ctx.errors.append(problem)  # a problem inside the layout file itself
            else:
                ctx.error(at, str(problem))
        return None


def validate(raw, source: str, batch: Batch | None = None) -> tuple[Layout, dict, list[str]]:
    """The layout, the normalised record and its warnings; or raise RecordError."""
    batch = batch or Batch()
    ctx = Ctx(source=source)
    layout = layout_for(raw, source, ctx, batch)
    if layout is None:
        raise RecordError(ctx.errors)
    plan = _plan(layout)
    game = plan.game
    quick = _quick(raw, plan)
    if quick is not None:
        record, names = quick
        game.check(layout, record, Report(ctx, names))
        if ctx.errors:
            raise RecordError(ctx.errors)
        return layout, record, ctx.warnings
    record_spec, pspec = plan.record, plan.player
    top = Where(raw, None, "")
    record = {}
    # checked in place (not a copy) so that errors in record-level keys keep their line
    got = record_spec.check(raw, ctx, top)
    if got is not INVALID:
        got.pop("players", None)
        record.update(got)
    players = raw.get("players")
    lo, hi = plan.lo, plan.hi
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
    out, names = [], []
    for i, p in enumerate(players):
        label = player_label(p, i)
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


def _quick(raw, plan: _Plan) -> tuple[dict, list] | None:
    """(the normalised record, the player names) as validate() makes them for a valid
    record, by the quick checkers (no places, no messages); None when anything is off,
    and then validate() checks it again, the slow way, to say what. Why: a valid record
    needs no places, and scoring many spends most of its time validating. The guarantee:
    each quick checker gives what its spec's check() gives for a value it passes and
    refuses (Slow) every other (schema.Spec.quick); tests/test_scoring_fuzz.py compares
    both paths over generated records of every game."""
    try:
        record = plan.record_quick(raw)
        players = record.pop("players", None)
        if type(players) is not list or not plan.lo <= len(players) <= plan.hi:
            return None
        out = list(map(plan.player_quick, players))
    except Slow:
        return None
    names = [p["name"] for p in out]
    if len(set(names)) < len(names):
        return None
    for i, p in enumerate(out):
        p["_where"] = (players, i)  # games.base.where_in makes it a Where when a message needs one
    record["players"] = out
    record["_node"] = raw
    return record, names


def score_data(raw, source: str = "<record>", batch: Batch | None = None) -> Scored:
    """Validate and score a parsed record (`batch`: see Batch, when scoring many)."""
    layout, record, warnings = validate(raw, source, batch)
    return _scored(layout, game_for(layout), record, warnings, source)


def _scored(layout: Layout, game, record: dict, warnings: list, source: str) -> Scored:
    scores = game.score(layout, record)
    ranks, winners = rank_players(scores)
    return Scored(layout, record, scores, ranks, winners, warnings, source)


def nothing_marked(scored: Scored) -> bool:
    """True when every player's marks are those of a blank sheet (`sheetgen template`'s
    record as it is written): a game nobody has filled in, which is no played game."""
    plan = _plan(scored.layout)
    try:
        blank = plan.player_quick({"name": "_", **plan.game.blank_player(scored.layout)})
    except Slow:  # a game whose blank sheet is not a valid record (none today) has no such game
        return False
    marks = {k: v for k, v in blank.items() if k not in ("name", "_where")}
    return all({k: v for k, v in p.items() if k not in ("name", "_where")} == marks for p in scored.record["players"])


CHUNK = 32  # records whose game checks are made together (a garden flood-fill of 96 gardens)


def score_each(raws: Iterable, source: str = "<records>", batch: Batch | None = None) -> Iterator[Scored]:
    """Score many parsed records, each a game of its own, in order: record n is scored as
    score_data(raw, f"{source}[{n}]", batch) would score it, and the first record that has
    a problem raises its RecordError, as it would alone (see outcomes)."""
    for got in outcomes(raws, lambda n: f"{source}[{n}]", batch):
        if isinstance(got, RecordError):
            raise got
        yield got


def outcomes(raws: Iterable, source_of, batch: Batch | None = None) -> Iterator[Scored | RecordError]:
    """What score_data(raw, source_of(n), batch) gives for each record n, in order: its
    Scored, or the RecordError it would raise. The records are taken CHUNK at a time:
    those that the quick checkers pass (_quick) are checked by their game together
    (Game.check_all: e.g. every Harvest Dice garden of the chunk flood-filled at once);
    any other goes the way of score_data, which says what is wrong."""
    batch = batch or Batch()
    records = iter(raws)
    done = 0
    while chunk := list(islice(records, CHUNK)):
        yield from _chunk_outcomes(chunk, [source_of(n) for n in range(done, done + len(chunk))], batch)
        done += len(chunk)


def _chunk_outcomes(chunk: list, sources: list, batch: Batch) -> Iterator[Scored | RecordError]:
    quick: list = []  # per record: (layout, game, record, ctx) when the quick checkers pass it, else None
    groups: dict = {}  # id(layout) -> (layout, game, records, reports)
    for raw, source in zip(chunk, sources):
        ctx = Ctx(source=source)
        layout = layout_for(raw, source, ctx, batch)
        plan = None if layout is None else _plan(layout)
        got = None if plan is None else _quick(raw, plan)
        if got is None:
            quick.append(None)
            continue
        record, names = got
        game = plan.game
        group = groups.get(id(layout))
        if group is None:
            group = groups[id(layout)] = (layout, game, [], [])
        group[2].append(record)
        group[3].append(Report(ctx, names))
        quick.append((layout, game, record, ctx))
    for layout, game, records, reports in groups.values():
        game.check_all(layout, records, reports)
    for raw, source, got in zip(chunk, sources, quick):
        if got is None:
            try:
                yield score_data(raw, source, batch)
            except RecordError as exc:
                yield exc
            continue
        layout, game, record, ctx = got
        yield RecordError(ctx.errors) if ctx.errors else _scored(layout, game, record, ctx.warnings, source)


@contextmanager
def gc_paused():
    """Python's cyclic garbage collector paused meanwhile (as Mercurial's `nogc` does when it
    builds large containers): scoring makes no cycles, and every few hundred new objects
    the collector would walk again through all the results kept so far (scoring 8,192
    records: 40% of the time)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def score_documents(path: str | Path, batch: Batch | None = None) -> list[Scored]:
    """Score a record file that holds one game or several, each on its own: JSON lines
    (one game a line) or YAML documents (separated by `---`). Every problem of every
    game is collected, then raised once; with several games, each problem names its
    document (`games.yaml:12: document 2: players[0] 'Bob': pig: ...`)."""
    from sheetgen.fileio import MAX_RECORDS_INPUT, read_text
    from sheetgen.yamlsrc import loads_all

    name = "<stdin>" if str(path) == "-" else str(path)
    try:
        docs = loads_all(read_text(path, MAX_RECORDS_INPUT, shown=name), name)
    except SheetgenError as exc:
        raise RecordError(exc.problems) from None
    scored, problems = [], []

    def source(n: int) -> str:  # a game of several is named by its file and line
        return name if len(docs) == 1 else f"{name}:{getattr(docs[n], 'line', n + 1)}"

    with gc_paused():
        for n, got in enumerate(outcomes(docs, source, batch), 1):
            if not isinstance(got, RecordError):
                scored.append(got)
            elif len(docs) == 1:
                raise got
            else:
                problems += [_in_document(p, n) for p in got.problems]
    if problems:
        raise RecordError(problems)
    return scored


def _in_document(problem: Problem, n: int) -> Problem:
    return replace(problem, path=f"document {n}:" + (f" {problem.path}" if problem.path else ""))


def score_file(path: str | Path) -> Scored:
    try:
        raw = load_file(path)
    except SheetgenError as exc:
        raise RecordError(exc.problems) from None
    return score_data(raw, str(path))
