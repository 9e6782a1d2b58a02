"""The game contract (`Game`), what scoring returns (`PlayerScore`), and small
helpers shared by the rules.

A game is one module of `sheetgen.games` that defines `GAME = Game(...)`. The
registry (sheetgen.games) finds it by itself: adding a game is one layout file,
one module and its tests. See docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps

from sheetgen.errors import LayoutError, Problem, RecordError
from sheetgen.values import valueclass


@valueclass
class Reads:
    """What a game's rules read from a layout: element ids with their types, and
    constant names. `optional_constants` may be absent (their absence means
    something, e.g. Harvest Dice's `majority_bonus` is advanced mode)."""

    elements: dict = field(default_factory=dict)  # element id -> element type
    constants: tuple = ()
    optional_constants: tuple = ()


def _no_fields(layout) -> dict:
    return {}


def _no_labels(layout) -> list:
    return []


def _no_record_keys(layout, names: list) -> dict:
    return {}


def _no_check(layout, record, report) -> None:
    return None


def _all_in_order(layout) -> set:
    return set()


def _no_alternatives(layout, players: int) -> dict:
    return {}


def _no_choices(layout) -> dict:
    return {}


def _nothing_written(layout, players: int) -> dict:
    return {}


def _no_disagreements(layout, values: dict) -> list:
    return []


@valueclass
class Written:
    """A box a player writes a whole number in (`Game.written`), as the rules bound it:
    `lo`..`hi` (None: no bound there), several numbers (`many`: a list, each within the
    bounds), and whether the record holds it (`record`; else it is read only to check
    others against, a total written beside its parts)."""

    lo: int | None = 0
    hi: int | None = None
    many: bool = False
    record: bool = True

    def allows(self, n: int) -> bool:
        return (self.lo is None or n >= self.lo) and (self.hi is None or n <= self.hi)

    @property
    def signed(self) -> bool:
        """Whether the rules allow a number below 0 in the box (a minus may be written)."""
        return self.lo is None or self.lo < 0


def number_of(values: dict, field: str, empty: int | None = 0) -> int | None:
    """A box's number as read (see `Game.disagreements`): its number, `empty` when it was
    read empty, None when its writing was not read ('?') or there is no such box; a list
    of numbers counts as their sum."""
    if field not in values:
        return None
    v = values[field]
    if v is None:
        return empty
    if isinstance(v, list):
        return sum(v)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def boxes_sum(layout, eid: str) -> tuple[list[tuple[str, int]], str] | None:
    """The sum a `number_boxes` element prints with its signs (`a + b - c = total`): its
    parts with their signs (+1, -1) and the total's box; None when it prints none (or a
    product, which a sum check cannot take)."""
    items = layout.element(eid)["boxes"] if layout.has(eid) else []
    ops = [item["op"] for item in items]
    if "=" not in ops or "×" in ops:
        return None
    end = ops.index("=")
    return [(item["id"], -1 if item["op"] == "-" else 1) for item in items[:end]], items[end]["id"]


def sum_disagrees(values: dict, parts: list, total: str) -> bool:
    """The number written in `total` is not the sum of the `parts` (fields, or (field,
    sign) pairs; an empty part counts 0), all of them read; False when one is not read or
    `total` is empty (not added up)."""
    whole = number_of(values, total, empty=None)
    signed = [part if isinstance(part, tuple) else (part, 1) for part in parts]
    got = [number_of(values, f) for f, _ in signed]
    return whole is not None and None not in got and sum(n * s for n, (_, s) in zip(got, signed)) != whole


def pad_players(layout) -> tuple[int, int]:
    """A score pad's player range: the layout's `players` (one column each)."""
    return layout.players["min"], layout.players["max"]


def sheet_players(layout) -> tuple[int, int]:
    """A player sheet (one per player) allows any table of 1-8: the rules' own
    range is a warning of the game's `check`, not an error."""
    return 1, 8


@valueclass
class Game:
    """The contract every game implements. The required parts have no default;
    the optional ones have real defaults (no caller probes with hasattr).

    - `player_fields(layout) -> {key: Field}`: the schema of one player's marks;
    - `categories(layout) -> [(key, {"fr", "en"})]`: breakdown rows, in the
      order of the rules' final count;
    - `score(layout, record) -> [PlayerScore]`: pure, record order; `tiebreak`
      (higher wins) breaks equal totals;
    - `blank_player(layout) -> dict`: an empty sheet's marks, for `template`;
    - `reads`: a `Reads`, or `reads_for(layout) -> Reads` when it depends on the
      layout: what `validate` checks up front for a variant;
    - `player_range(layout) -> (min, max)` (default: the layout's `players`);
    - `record_fields(layout)` / `blank_record(layout, names)`: record-level keys;
    - `check(layout, record, report)`: cross-field checks (`report.error` for
      what the sheet cannot hold, `report.warn` for what the rules forbid);
    - `check_many(layout, records, reports)`: check() of many records at once, each
      with its report, when a game can share work between them (Harvest Dice
      flood-fills every garden together); the batch scorer calls it through
      `check_all`, whose default is check() record by record;
    - `tiebreak_labels(layout)`: the tie-breakers, shown when totals tie;
    - `template_alternatives(layout, players) -> {key: [lines]}`: another form of a
      player field, shown commented out in `template` (Bosk's summer_lines);
    - `any_order(layout) -> {element id}`: the tracks whose boxes the rules let a player
      check in any order (a layout's `order: any` says the same of its own tracks): a gap
      among their checked boxes is no mistake, and no warning;
    - `cell_choices(layout) -> {grid id: [(letter, icon name, {"fr", "en"})]}`: what a cell
      of a grid may hold, for a screen's picker (`sheetgen serve`); a grid not named takes
      any one character;
    - `record_from_sheets(layout, sheets)`: players from filled sheets (one
      dict of marks per sheet, see sheetgen.scoring.pdfread), or None with
      `unreadable` saying why filled sheets cannot be read;
    - `written(layout, players) -> {field: Written}`: the boxes of a sheet printed for
      `players` (a pad's columns) that hold a number written by hand, and the numbers the
      rules allow in each: what `scan` reads from a photo (and nothing else);
    - `disagreements(layout, values) -> [(field, ...)]`: the groups of those boxes whose
      numbers contradict each other or the sheet's ticks (a total against its parts),
      given one sheet's values: for each box of `written`, its number (or a list, `many`),
      None when it was read empty, '?' when its writing was not read; True/False for each
      tick box read sure. `scan` leaves every number of such a group `'?'`.
    """

    id: str
    player_fields: Callable
    categories: Callable
    score: Callable
    blank_player: Callable
    reads: Reads = Reads()
    reads_for: Callable | None = None
    player_range: Callable = pad_players
    record_fields: Callable = _no_fields
    blank_record: Callable = _no_record_keys
    check: Callable = _no_check
    check_many: Callable | None = None
    tiebreak_labels: Callable = _no_labels
    template_alternatives: Callable = _no_alternatives
    any_order: Callable = _all_in_order
    cell_choices: Callable = _no_choices
    record_from_sheets: Callable | None = None
    written: Callable = _nothing_written
    disagreements: Callable = _no_disagreements
    unreadable: str = "the sheet does not hold every mark the scorer needs"

    def check_all(self, layout, records: list, reports: list) -> None:
        """check() of each record with its report (`check_many` when the game has one)."""
        if self.check_many is not None:
            self.check_many(layout, records, reports)
            return
        for record, report in zip(records, reports):
            self.check(layout, record, report)

    def reads_of(self, layout) -> Reads:
        return self.reads_for(layout) if self.reads_for is not None else self.reads

    def unread_ticked(self, layout) -> list[tuple[str, str]]:
        """(id, type) of the elements a player ticks (their type is `ticked`) that the scorer
        does not read: a designer's new track or grid prints and is read from a filled sheet or
        a photo, but its marks count for nothing in the score (`validate` says so, and so does
        reading one with marks)."""
        from sheetgen.layout.elements import TYPES

        reads = self.reads_of(layout).elements
        return [
            (el["id"], el["type"])
            for page in layout.pages
            for el in page.elements
            if TYPES[el["type"]].ticked and el["id"] not in reads
        ]

    def layout_problems(self, layout) -> list[Problem]:
        """What the rules need that `layout` lacks, each as a Problem (empty when it can be scored)."""
        reads = self.reads_of(layout)
        out = []
        for eid, kind in reads.elements.items():
            el = layout.by_id.get(eid)
            if el is None:
                out.append(
                    Problem(
                        f"layout '{layout.id}' has no element '{eid}' ({kind}), which the {self.id} scorer reads",
                        layout.source,
                    )
                )
            elif el["type"] != kind:
                out.append(
                    Problem(
                        f"element '{eid}' is a {el['type']}, but the {self.id} scorer reads it as a {kind}",
                        layout.source,
                    )
                )
        for name in reads.constants:
            if name not in layout.constants:
                out.append(Problem(f"the layout has no constant '{name}', which the scorer reads", layout.source))
        if not out:
            try:  # what the declarations cannot say (a constant of the wrong shape...)
                self.player_fields(layout)
                self.categories(layout)
                self.blank_player(layout)
            except (LayoutError, RecordError) as exc:
                out += exc.problems
        return out

    def read_sheets(self, layout, sheets: list[dict], source: str) -> dict:
        if self.record_from_sheets is None:
            raise RecordError(Problem(f"reading filled {self.id} sheets is not supported: {self.unreadable}", source))
        return self.record_from_sheets(layout, sheets)


@dataclass  # not a sheetgen.values class: the batch scorer makes one a player, and a dataclass's is quicker
class PlayerScore:
    name: str
    breakdown: dict  # category key -> points, in the categories' order
    tiebreak: tuple = ()  # compared when totals are equal; higher wins
    total: int | None = None  # defaults to the sum of the breakdown
    tiebreak_shown: tuple | None = None  # the tie-breakers as the table shows them (default: tiebreak)

    def __post_init__(self):
        if self.total is None:
            self.total = sum(self.breakdown.values())
        if self.tiebreak_shown is None:
            self.tiebreak_shown = self.tiebreak


def per_layout(fn: Callable) -> Callable:
    """`fn(layout)` computed once per Layout object, then remembered: what the rules read
    from a layout (element tables, constants, record specs) is the same for every record
    scored with it, and a loaded Layout is never changed. The few most recent layouts are
    kept (held, so that an id is never reused while remembered)."""
    memo: dict = {}

    @wraps(fn)
    def get(layout):
        hit = memo.get(id(layout))
        if hit is not None and hit[0] is layout:
            return hit[1]
        value = fn(layout)
        if len(memo) >= 32:
            memo.clear()
        memo[id(layout)] = (layout, value)
        return value

    return get


def leaders(values: list[int], minimum: int = 1) -> set[int]:
    """Indexes of the players holding the highest value (at least `minimum`)."""
    best = max(values, default=0)
    if best < minimum:
        return set()
    return {i for i, v in enumerate(values) if v == best}


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

    def warn(self, player: int | None, message: str, box: str | None = None) -> None:
        """A warning about player `player` (an index; None: the game), at the box named
        `box` (a field name, see sheetgen.layout.elements.common) when one box is concerned."""
        who = f"players[{player}] '{self.names[player]}': " if player is not None else ""
        self.ctx.warnings.append(Warned(who + message, player, box))


class Warned(str):
    """A warning's text, as every output prints it, and where it points: the player (an
    index, or None for the whole game) and the box (a field name, or None); a screen shows
    it there (`sheetgen serve`)."""

    player: int | None
    box: str | None

    def __new__(cls, text: str, player: int | None = None, box: str | None = None):
        out = super().__new__(cls, text)
        out.player, out.box = player, box
        return out


def player_label(p, i: int) -> str:
    """How messages name player `i` of a raw record, `p` (escaped when shown)."""
    name = p.get("name") if isinstance(p, dict) else None
    named = isinstance(name, (str, int)) and str(name).strip()
    return f"players[{i}] '{str(name)[:60]}':" if named else f"players[{i}]:"


def where_in(player: dict, *keys):
    """A Where for `player.keys...` in the raw record, for error messages.

    `player["_where"]` is set by the record validator: a Where, or (the raw players
    list, the index) from its quick path, which has no message to write; where a key is
    absent in the raw record, the line of the nearest enclosing mapping is used."""
    from sheetgen.schema import Where

    at = player["_where"]
    if type(at) is tuple:
        players, i = at
        at = Where(players, i, player_label(players[i], i))
    node = at.node[at.key]
    holder, hkey, path = at.node, at.key, at.path
    for k in keys:
        path = f"{path}[{k}]" if isinstance(k, int) else (f"{path} {k}" if path.endswith(":") else f"{path}.{k}")
        present = (isinstance(node, dict) and k in node) or (
            isinstance(node, list) and isinstance(k, int) and 0 <= k < len(node)
        )
        if present:
            holder, hkey, node = node, k, node[k]
        else:
            node = None
    return Where(holder, hkey, path)
