"""Bosk: the trees planted in spring (summer) and the leaves left in winter -> points.

Everything printed on the pad comes from the layout (layouts/bosk.yaml):
`board_lines_<n>p` (rows and columns of inner intersections with n players),
`tree_values` and `trees_per_value` (each player's trees), `leaf_tiles` (the
most leaves a player can show is their sum plus the squirrel), the points
tables `summer_*` and `winter_*`, and the breakdown rows: `summer_rows`,
`summer_columns` (score table `summer`) and one row per terrain (the rows of
score table `winter` whose id starts with `terrain_`).

Decisions (docs/rules.md): for each row and each column of inner intersections, each
player's tree values are summed; for each terrain, each player's visible leaves
(the squirrel counts as one). Then, with `t` the season's table: a clear 1st and
a clear 2nd score t.first / t.second; a clear 1st and tied 2nds score t.first /
t.tied_second each; a player alone (nobody else above 0) scores t.alone; tied
1sts score t.tied_first each and nobody else scores. A 0 never places. Equal
totals go to the player earlier in `round8_order`; a tie that the order does
not decide (no order, or a tied player missing from it) is a shared victory.
"""

from __future__ import annotations

from dataclasses import dataclass

from sheetgen.games.base import pad_players as player_range
from sheetgen.games.base import Game, PlayerScore, Reads, label, leaders, where_in
from sheetgen.schema import Field, ListOf, Spec, Where, describe
from sheetgen.games.fields import Count, Name
from sheetgen.numbers import parse_number

SUMMER_KEYS = ("summer_rows", "summer_columns")
TERRAIN_PREFIX = "terrain_"
PLACES = ("first", "second", "tied_second", "alone", "tied_first")


@dataclass(frozen=True)
class Table:
    """A season's points: clear 1st / clear 2nd, clear 1st / each tied 2nd, alone, each tied 1st."""
    first: int
    second: int
    tied_second: int
    alone: int
    tied_first: int


def table(layout, season: str) -> Table:
    return Table(*(layout.constants[f"{season}_{place}"] for place in PLACES))


def board_lines(layout, players: int) -> int | None:
    """Rows (and columns) of inner intersections with this many players."""
    return layout.constants.get(f"board_lines_{players}p")


def terrain_rows(layout) -> list[dict]:
    return [r for r in layout.element("winter")["rows"] if r["id"].startswith(TERRAIN_PREFIX)]


def tree_values(layout) -> list[int]:
    return list(layout.constants["tree_values"])


def max_leaves(layout) -> int:
    """A player's leaf tiles drop sum(leaf_tiles) leaves; the squirrel counts as one more."""
    return sum(layout.constants["leaf_tiles"]) + 1


def _span(values: list[int]) -> str:
    values = sorted(values)
    if values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return f"{values[0]}-{values[-1]}"
    return ", ".join(map(str, values))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# ----------------------------------------------------------------------------- the rules


def place_points(values: list[int], t: Table) -> list[int]:
    """Each player's points for one line (tree value sums) or one terrain (leaves)."""
    out = [0] * len(values)
    top = leaders(values)
    if len(top) > 1:
        for i in top:
            out[i] = t.tied_first
        return out
    if not top:
        return out
    (first,) = top
    seconds = leaders([0 if i == first else v for i, v in enumerate(values)])
    if not seconds:
        out[first] = t.alone
        return out
    out[first] = t.first
    for i in seconds:
        out[i] = t.second if len(seconds) == 1 else t.tied_second
    return out


def line_sums(trees_by_player: list[list], lines: int, axis: int) -> list[list[int]]:
    """For each line 1..lines (axis 0: rows, 1: columns), each player's sum of tree values."""
    sums = [[0] * len(trees_by_player) for _ in range(lines)]
    for p, trees in enumerate(trees_by_player):
        for tree in trees:
            if 1 <= tree[axis] <= lines:
                sums[tree[axis] - 1][p] += tree[2]
    return sums


def summer(layout, trees_by_player: list[list]) -> dict:
    """{summer_rows: [points per player], summer_columns: [...]}."""
    t = table(layout, "summer")
    lines = board_lines(layout, len(trees_by_player))
    out = {}
    for key, axis in zip(SUMMER_KEYS, (0, 1)):
        total = [0] * len(trees_by_player)
        for sums in line_sums(trees_by_player, lines, axis):
            total = [a + b for a, b in zip(total, place_points(sums, t))]
        out[key] = total
    return out


def winter(layout, leaves_by_player: list[list[int]]) -> dict:
    """{terrain id: [points per player]}."""
    t = table(layout, "winter")
    return {row["id"]: place_points([leaves[n] for leaves in leaves_by_player], t)
            for n, row in enumerate(terrain_rows(layout))}


def round8_tiebreaks(totals: list[int], names: list[str], order: list[str] | None) -> list[tuple]:
    """Per player, the key that breaks equal totals (higher wins): (-place in round 8,) when
    everyone sharing that total is in the order, else () (the tie stays shared)."""
    place = {name: n for n, name in enumerate(order or [])}

    def key(name, total):
        group = [other for other, t in zip(names, totals) if t == total]
        return (-place[name],) if all(other in place for other in group) else ()

    return [key(name, total) for name, total in zip(names, totals)]


def score(layout, record) -> list[PlayerScore]:
    players = record["players"]
    names = [p["name"] for p in players]
    seasons = {**summer(layout, [p["trees"] for p in players]),
               **winter(layout, [p["leaves"] for p in players])}
    breakdowns = [{key: points[i] for key, points in seasons.items()} for i in range(len(players))]
    totals = [sum(b.values()) for b in breakdowns]
    keys = round8_tiebreaks(totals, names, record.get("round8_order"))
    place = {name: n + 1 for n, name in enumerate(record.get("round8_order") or [])}
    return [PlayerScore(name, b, key, tiebreak_shown=(place.get(name, "-"),))
            for name, b, key in zip(names, breakdowns, keys)]


def tiebreak_labels(layout) -> list:
    return [label("Ordre au 8e tour", "Order in round 8")]


# ----------------------------------------------------------------------------- the record


class Tree(Spec):
    """[row, column, value]: three whole numbers, the value one of the layout's trees."""

    description = "[row, column, value]"

    def __init__(self, values: list[int]):
        self.values = values

    def check(self, value, ctx, at):
        nums = [parse_number(v) for v in value] if isinstance(value, list) else []
        if len(nums) != 3 or None in nums:
            got = f"a list of {len(value)}" if isinstance(value, list) and len(value) != 3 else describe(value)
            return ctx.error(at, f"expected [row, column, value], three whole numbers, got {got}")
        if nums[2] not in self.values:
            return ctx.error(at, f"value {nums[2]}: trees are numbered {_span(self.values)}")
        return nums


class Leaves(ListOf):
    """One count of visible leaves per terrain."""

    def check(self, value, ctx, at):
        if isinstance(value, list) and len(value) != self.lo:
            return ctx.error(at, f"expected {self.lo} numbers, one per terrain, got {len(value)}")
        return super().check(value, ctx, at)


class Order(ListOf):
    """Player names; left empty (`round8_order:`), nothing is known."""

    def check(self, value, ctx, at):
        return [] if value is None else super().check(value, ctx, at)



def player_fields(layout) -> dict:
    values, n = tree_values(layout), len(terrain_rows(layout))
    sizes = ", ".join(f"1-{board_lines(layout, k)} with {k}"
                      for k in range(player_range(layout)[0], player_range(layout)[1] + 1)
                      if board_lines(layout, k))
    return {
        "trees": Field(ListOf(Tree(values)), required=True,
                       doc=f"the trees planted in spring, each [row, column, value]: rows and columns "
                           f"{sizes} players; values {_span(values)}, "
                           f"{layout.constants['trees_per_value']} of each"),
        "leaves": Field(Leaves(Count(0, None), n, n), required=True,
                        doc=f"visible leaves in each of the {n} terrains, in the pad's order "
                            f"(the squirrel counts as a leaf)"),
    }


def record_fields(layout) -> dict:
    return {"round8_order": Field(Order(Name()),
                                  doc="optional: the players' names in round 8's play order, first to play "
                                      "first; it breaks ties on the total")}


def blank_player(layout) -> dict:
    return {"trees": [], "leaves": [0] * len(terrain_rows(layout))}


def blank_record(layout, names: list[str]) -> dict:
    return {"round8_order": []}


def categories(layout) -> list:
    rows = {r["id"]: r for r in layout.element("summer")["rows"]}
    cats = [rows[key] for key in SUMMER_KEYS] + terrain_rows(layout)
    out = []
    for row in cats:
        text = {lang: layout.env(lang).t(row["label"]) for lang in ("fr", "en")}
        if row["id"] in SUMMER_KEYS:
            text = {"fr": f"Été : {text['fr'].lower()}", "en": f"Summer: {text['en'].lower()}"}
        out.append((row["id"], label(text["fr"], text["en"])))
    return out


# ----------------------------------------------------------------------------- checks


def _check_trees(layout, players: list, report) -> None:
    n = len(players)
    lines = board_lines(layout, n)
    values, per = tree_values(layout), layout.constants["trees_per_value"]
    most = per * len(values)
    board = f"trees stand on rows and columns 1-{lines} ({lines + 1}x{lines + 1} squares)"
    taken: dict = {}
    for i, p in enumerate(players):
        trees = p["trees"]
        if len(trees) > most:
            report.error(where_in(p, "trees"), f"{len(trees)} trees; each player has {most} "
                                               f"({per} of each value {_span(values)})")
        elif len(trees) < most:
            report.warn(i, f"trees: {len(trees)} tree{'' if len(trees) == 1 else 's'} given, but every player "
                           f"plants all {most} in spring")
        seen = {v: 0 for v in values}
        for k, (row, col, value) in enumerate(trees):
            at = where_in(p, "trees", k)
            ok = True
            for what, v in (("row", row), ("column", col)):
                if not 1 <= v <= lines:
                    where = "on the edge of" if v in (0, lines + 1) else "outside"
                    report.error(at, f"{what} {v} is {where} the {n}-player board; {board}")
                    ok = False
            seen[value] += 1
            if seen[value] > per:
                report.error(at, f"a {_ordinal(seen[value])} tree of value {value}; each player has {per} "
                                 f"trees of each value {_span(values)}")
            if not ok:
                continue
            if (row, col) in taken:
                j, m = taken[(row, col)]
                whose = f"trees[{m}]" if j == i else f"{players[j]['name']}'s trees[{m}]"
                report.error(at, f"row {row}, column {col} already holds a tree: {whose}")
            else:
                taken[(row, col)] = (i, k)


def _check_leaves(layout, players: list, report) -> None:
    most = max_leaves(layout)
    for i, p in enumerate(players):
        shown = sum(p["leaves"])
        if shown > most:
            report.warn(i, f"leaves: {shown} visible leaves in all; a player shows at most {most} "
                           f"(leaf tiles {_span(layout.constants['leaf_tiles'])} drop {most - 1}, "
                           f"plus the squirrel)")
    lines = board_lines(layout, len(players))
    squares = (lines + 1) ** 2
    shown = sum(sum(p["leaves"]) for p in players)
    if shown > squares:
        report.warn(None, f"leaves: {shown} visible leaves on the board in all; the {len(players)}-player "
                          f"board has {squares} squares and each shows one leaf or squirrel at most")


def _check_order(record, names: list[str], report) -> list[str]:
    """Errors for unknown or repeated names; the valid order (or [] when absent)."""
    order = record.get("round8_order") or []
    node = record["_node"].get("round8_order")
    seen = set()
    for k, name in enumerate(order):
        at = Where(node, k, f"round8_order[{k}]")
        if name not in names:
            report.error(at, f"'{name}' is no player of this record; players: {', '.join(names)}")
        elif name in seen:
            report.error(at, f"'{name}' is named twice")
        seen.add(name)
    if order:
        missing = [name for name in names if name not in seen]
        if missing:
            report.warn(None, f"round8_order: {', '.join(missing)} missing; a tie on the total "
                              f"involving {'them' if len(missing) > 1 else 'this player'} stays shared")
    return order


def check(layout, record, report) -> None:
    players = record["players"]
    names = [p["name"] for p in players]
    if board_lines(layout, len(players)) is None:
        report.error(Where(record["_node"], "players", "players"),
                     f"the layout gives no board size (constant board_lines_{len(players)}p) "
                     f"for {len(players)} players")
        return
    _check_trees(layout, players, report)
    _check_leaves(layout, players, report)
    order = _check_order(record, names, report)
    if report.ctx.errors:
        return
    scores = score(layout, record)
    best = max(s.total for s in scores)
    tied = [s for s in scores if s.total == best]
    if len(tied) > 1 and any(s.tiebreak == () for s in tied):
        who = ", ".join(s.name for s in tied[:-1]) + f" and {tied[-1].name}"
        why = "no round8_order is given" if not order else "round8_order does not name them all"
        report.warn(None, f"{who} tie for the win on {best} points; {why}, so the victory is shared "
                          f"(the player earlier in round 8's play order would win)")


GAME = Game(
    id="bosk",
    reads=Reads(elements={"summer": "score_table", "winter": "score_table"},
                constants=("tree_values", "trees_per_value", "leaf_tiles",
                           *(f"{season}_{place}" for season in ("summer", "winter") for place in PLACES))),
    player_fields=player_fields, record_fields=record_fields, blank_player=blank_player,
    blank_record=blank_record, categories=categories, check=check, score=score,
    tiebreak_labels=tiebreak_labels,
)
