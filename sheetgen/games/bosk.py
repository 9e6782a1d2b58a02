"""Bosk: the trees planted in spring (summer) and the leaves left in winter -> points.

Everything printed on the pad comes from the layout (layouts/bosk.yaml):
`board_lines_<n>p` (rows and columns of inner intersections with n players),
`tree_values` and `trees_per_value` (each player's trees), `leaf_tiles` (the
most leaves a player can show is their sum plus the squirrel), the points
tables `summer_*` and `winter_*`, and the breakdown rows: `summer_rows`,
`summer_columns` (score table `summer`) and one row per terrain (the rows of
score table `winter` whose id starts with `terrain_`).

A player gives `trees` ([row, column, value] each) or `summer_lines` ({rows: [...],
columns: [...]}: their sum of tree values on each line, as the pad's summer
worksheet holds them), not both; players of one record may differ.

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

from sheetgen.games.base import Game, PlayerScore, Reads, Written, label, leaders, number_of, sum_disagrees, where_in
from sheetgen.games.base import pad_players as player_range
from sheetgen.games.fields import Count, Name
from sheetgen.layout.elements.common import player_field
from sheetgen.numbers import parse_number
from sheetgen.schema import Field, ListOf, Map, Spec, Where, describe

SUMMER_KEYS = ("summer_rows", "summer_columns")
AXES = ("rows", "columns")  # the keys of a player's summer_lines, in SUMMER_KEYS' order
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


def trees_of(layout) -> list[int]:
    """One player's trees, by value, highest first (two each of 4, 3, 2, 1)."""
    per = layout.constants["trees_per_value"]
    return sorted((v for v in tree_values(layout) for _ in range(per)), reverse=True)


def line_bound(layout, lines: int) -> int:
    """The most one player's trees can make on one line of `lines` intersections:
    their highest trees, one per intersection."""
    return sum(trees_of(layout)[:lines])


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


def tree_line_sums(trees: list, lines: int) -> dict:
    """One player's summer_lines from their trees: {rows: [sum of tree values on row
    1..lines], columns: [...]}."""
    out = {}
    for axis, name in enumerate(AXES):
        sums = [0] * lines
        for tree in trees:
            if 1 <= tree[axis] <= lines:
                sums[tree[axis] - 1] += tree[2]
        out[name] = sums
    return out


def player_lines(player: dict, lines: int) -> dict:
    """The player's per-line sums: as given (`summer_lines`), or from their trees."""
    return player.get("summer_lines") or tree_line_sums(player.get("trees") or [], lines)


def summer(layout, lines_by_player: list[dict]) -> dict:
    """{summer_rows: [points per player], summer_columns: [...]} from each player's
    per-line sums ({rows: [...], columns: [...]}): each line scored by the summer table."""
    t = table(layout, "summer")
    out = {}
    for key, axis in zip(SUMMER_KEYS, AXES):
        total = [0] * len(lines_by_player)
        for sums in zip(*(p[axis] for p in lines_by_player)):
            total = [a + b for a, b in zip(total, place_points(list(sums), t))]
        out[key] = total
    return out


def winter(layout, leaves_by_player: list[list[int]]) -> dict:
    """{terrain id: [points per player]}."""
    t = table(layout, "winter")
    return {
        row["id"]: place_points([leaves[n] for leaves in leaves_by_player], t)
        for n, row in enumerate(terrain_rows(layout))
    }


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
    lines = board_lines(layout, len(players))
    seasons = {
        **summer(layout, [player_lines(p, lines) for p in players]),
        **winter(layout, [p["leaves"] for p in players]),
    }
    breakdowns = [{key: points[i] for key, points in seasons.items()} for i in range(len(players))]
    totals = [sum(b.values()) for b in breakdowns]
    keys = round8_tiebreaks(totals, names, record.get("round8_order"))
    place = {name: n + 1 for n, name in enumerate(record.get("round8_order") or [])}
    return [
        PlayerScore(name, b, key, tiebreak_shown=(place.get(name, "-"),))
        for name, b, key in zip(names, breakdowns, keys)
    ]


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
    sizes = ", ".join(
        f"1-{board_lines(layout, k)} with {k}"
        for k in range(player_range(layout)[0], player_range(layout)[1] + 1)
        if board_lines(layout, k)
    )
    sums = Field(ListOf(Count(0, None)), required=True)
    counts = ", ".join(
        f"{board_lines(layout, k)} with {k}"
        for k in range(player_range(layout)[0], player_range(layout)[1] + 1)
        if board_lines(layout, k)
    )
    return {
        "trees": Field(
            ListOf(Tree(values)),
            doc=f"the trees planted in spring, each [row, column, value]: rows and columns "
            f"{sizes} players; values {_span(values)}, "
            f"{layout.constants['trees_per_value']} of each",
        ),
        "summer_lines": Field(
            Map({axis: sums for axis in AXES}, what="a mapping with rows and columns"),
            doc=f"or, instead of trees, the pad's summer worksheet: the player's sum of tree "
            f"values on each row (top to bottom) and on each column (left to right), "
            f"{counts} players",
        ),
        "leaves": Field(
            Leaves(Count(0, None), n, n),
            required=True,
            doc=f"visible leaves in each of the {n} terrains, in the pad's order (the squirrel counts as a leaf)",
        ),
    }


def record_fields(layout) -> dict:
    return {
        "round8_order": Field(
            Order(Name()),
            doc="optional: the players' names in round 8's play order, first to play "
            "first; it breaks ties on the total",
        )
    }


def blank_player(layout) -> dict:
    return {"trees": [], "leaves": [0] * len(terrain_rows(layout))}


def blank_record(layout, names: list[str]) -> dict:
    return {"round8_order": []}


def template_alternatives(layout, players: int) -> dict:
    """For `template`: summer_lines, shown (commented out) as the other form of trees."""
    zeros = [0] * (board_lines(layout, players) or 0)
    return {"trees": {"summer_lines": {"rows": zeros, "columns": zeros}}}


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


# ----------------------------------------------------------------------------- a filled PDF

TALLIES = {"rows": "summer_tally_rows", "columns": "summer_tally_columns"}  # the summer worksheet's ids


def _mark(text):
    """A box's text: 0 when blank, a number when it is one, else as written (the record check says why)."""
    n = parse_number(text) if text != "" else 0
    return text if n is None else n


def _sheet_players(layout, m: dict) -> list[tuple[dict, object]]:
    """(player, their round-8 place as written) for each used column of one filled pad."""
    out = []
    tally_names = m.get(f"{TALLIES['rows']}_names", [])
    for i, name in enumerate(m["player_names"]):
        name = name or (tally_names[i] if i < len(tally_names) else "")
        lines = {axis: [_mark(v) for v in (m[TALLIES[axis]][i] if i < len(m[TALLIES[axis]]) else [])] for axis in AXES}
        leaves = [_mark(m[f"{row['id']}_count"][i]) for row in terrain_rows(layout)]
        place = m["round8"][i]
        if not (name or place or any(leaves) or any(any(v) for v in lines.values())):
            continue  # an unused column of the pad
        out.append(({"name": name, "summer_lines": lines, "leaves": leaves}, place))
    return out


def record_from_sheets(layout, sheets: list[dict]) -> dict:
    """Players from filled pads (sheetgen.scoring.pdfread): the sums of the summer
    worksheet, the leaves of each terrain and the round-8 order. A pad printed for
    more players than sat down has more lines than the board: blank ones are dropped."""
    from sheetgen.errors import RecordError

    found = [pair for m in sheets for pair in _sheet_players(layout, m)]
    lines = board_lines(layout, len(found))
    players, places, unread = [], [], False
    for n, (player, place) in enumerate(found, 1):
        player["name"] = player["name"] or f"Player {n}"
        for axis, sums in player["summer_lines"].items():
            if lines is not None and not any(sums[lines:]):
                player["summer_lines"][axis] = sums[:lines]
        if place == UNREAD:
            unread = True
        elif place:
            number = parse_number(place)
            if number is None:
                raise RecordError(
                    f"{layout.id}: round8 of '{player['name']}': {place!r} is no place in "
                    f"round 8's order (1 = played first)"
                )
            places.append((number, n, player["name"]))
        players.append(player)
    record = {"players": players}
    if unread:
        record["round8_order"] = UNREAD  # (the order is the player's to type)
    elif places:
        record["round8_order"] = [name for *_, name in sorted(places)]
    return record


UNREAD = "?"  # a place a photo showed written but could not read (sheetgen.scan)


# ----------------------------------------------------------------------------- a photo


def written(layout, players: int) -> dict:
    """The numbers of a pad printed for `players`: on the summer worksheet, each player's
    sum on every line (at most what their trees make on a line) and, where the worksheet
    has them, the points each line earns (at most a line's best), and the totals of both;
    on the pad, leaves in each terrain (at most all their leaves) and place in round 8 (1
    to the players). The worksheet's points and totals are read to check the sums against."""
    lines = board_lines(layout, players) or 0
    on_line, leaves = Written(0, line_bound(layout, lines)), Written(0, max_leaves(layout))
    points = Written(0, max(vars(table(layout, "summer")).values()), record=False)
    out = {}
    for i in range(1, players + 1):
        for tally in TALLIES.values():
            if not layout.has(tally):
                continue
            pf, el = player_field(tally, i), layout.element(tally)
            out.update({f"{pf}_{k}": on_line for k in range(1, lines + 1)})
            if el.get("total") is not None:
                out[f"{pf}_total"] = Written(0, sum(trees_of(layout)), record=False)
            if el.get("points") is not None:
                out.update({f"{pf}_pts{k}": points for k in range(1, lines + 1)})
                if el.get("total") is not None:
                    out[f"{pf}_pts_total"] = Written(0, points.hi * lines, record=False)
        out.update({f"{player_field(row['id'], i)}_count": leaves for row in terrain_rows(layout)})
        out[player_field("round8", i)] = Written(1, players)
    return out


def _tally_fields(values: dict, tally: str, i: int, prefix: str = "") -> list[str]:
    """Player i's boxes of a worksheet table among `values`, one a line: their sums
    (`prefix` ""), or the points the lines earn ("pts")."""
    start = f"{player_field(tally, i)}_{prefix}"
    return sorted((f for f in values if f.startswith(start) and f[len(start) :].isdigit()), key=len)


def _worksheet_disagreements(values: dict, i: int, worth: int) -> list[tuple]:
    """Player i's worksheet: rows that do not add up to the same as the columns (each tree
    counts once in each), or to more than all their trees; a total that is not the sum of
    its line (sums or points)."""
    out = []
    axes = [_tally_fields(values, t, i) for t in TALLIES.values()]
    sums = [[number_of(values, f) for f in fields] for fields in axes]
    if all(axes) and None not in sums[0] + sums[1]:
        rows, columns = (sum(s) for s in sums)
        if rows != columns or rows > worth:
            out.append(tuple(axes[0] + axes[1]))
    for tally in TALLIES.values():
        pf = player_field(tally, i)
        for prefix, total in (("", f"{pf}_total"), ("pts", f"{pf}_pts_total")):
            parts = _tally_fields(values, tally, i, prefix)
            if total in values and parts and sum_disagrees(values, parts, total):
                out.append((*parts, total))
    return out


def disagreements(layout, values: dict) -> list[tuple]:
    """A player's worksheet that does not add up (`_worksheet_disagreements`); a player's
    leaves more than all their leaves; two players in one place of round 8."""
    out, places = [], {}
    worth, most = sum(trees_of(layout)), max_leaves(layout)
    i = 1
    while player_field("round8", i) in values or f"{player_field(TALLIES['rows'], i)}_1" in values:
        out += _worksheet_disagreements(values, i, worth)
        counts = [f"{player_field(row['id'], i)}_count" for row in terrain_rows(layout)]
        leaves = [number_of(values, f) for f in counts]
        if sum(n for n in leaves if n is not None) > most:
            out.append(tuple(f for f, n in zip(counts, leaves) if n is not None))
        place = number_of(values, player_field("round8", i), empty=None)
        if place is not None:
            places.setdefault(place, []).append(player_field("round8", i))
        i += 1
    out += [tuple(fields) for fields in places.values() if len(fields) > 1]
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
        trees = p.get("trees")
        if trees is None:
            continue  # summer_lines instead (_check_lines)
        if len(trees) > most:
            report.error(
                where_in(p, "trees"),
                f"{len(trees)} trees; each player has {most} ({per} of each value {_span(values)})",
            )
        elif len(trees) < most:
            report.warn(
                i,
                f"trees: {len(trees)} tree{'' if len(trees) == 1 else 's'} given, but every player "
                f"plants all {most} in spring",
            )
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
                report.error(
                    at,
                    f"a {_ordinal(seen[value])} tree of value {value}; each player has {per} "
                    f"trees of each value {_span(values)}",
                )
            if not ok:
                continue
            if (row, col) in taken:
                j, m = taken[(row, col)]
                whose = f"trees[{m}]" if j == i else f"{players[j]['name']}'s trees[{m}]"
                report.error(at, f"row {row}, column {col} already holds a tree: {whose}")
            else:
                taken[(row, col)] = (i, k)


def _check_lines(layout, players: list, report) -> None:
    """Each player gives trees or summer_lines (not both); summer_lines hold one sum per
    line of the board, each within what a player's trees can make, rows and columns
    adding up to the same (every tree counts once in each)."""
    n = len(players)
    lines = board_lines(layout, n)
    trees = trees_of(layout)
    bound, worth = line_bound(layout, lines), sum(trees)
    why = (
        f"all their trees: {layout.constants['trees_per_value']} of each value {_span(tree_values(layout))}"
        if lines >= len(trees)
        else f"its {lines} intersections hold their {lines} highest trees"
    )
    for i, p in enumerate(players):
        if "trees" in p and "summer_lines" in p:
            report.error(
                where_in(p, "summer_lines"),
                "give trees or summer_lines, not both (summer_lines are the sums of the trees)",
            )
            continue
        if "summer_lines" not in p:
            if "trees" not in p:
                report.error(where_in(p), "missing key 'trees' (or 'summer_lines', the sums of the summer worksheet)")
            continue
        ok = True
        for axis, what in zip(AXES, ("row", "column")):
            sums = p["summer_lines"][axis]
            if len(sums) != lines:
                report.error(
                    where_in(p, "summer_lines", axis),
                    f"expected {lines} sums, one per {what} 1-{lines} of the {n}-player board, got {len(sums)}",
                )
                ok = False
                continue
            for k, v in enumerate(sums):
                if v > bound:
                    report.error(
                        where_in(p, "summer_lines", axis, k),
                        f"{v} on {what} {k + 1}: one player's trees make at most {bound} on a {what} ({why})",
                    )
                    ok = False
        if not ok:
            continue
        rows, columns = (sum(p["summer_lines"][axis]) for axis in AXES)
        if rows != columns:
            report.error(
                where_in(p, "summer_lines"),
                f"the rows add up to {rows} but the columns to {columns}; each tree counts once in "
                f"its row and once in its column, so both totals are the player's tree values",
            )
        elif rows > worth:
            report.error(
                where_in(p, "summer_lines"),
                f"the rows and the columns add up to {rows}; a player's {len(trees)} trees are worth {worth} in all",
            )
        elif rows < worth:
            report.warn(
                i,
                f"summer_lines: the rows and the columns add up to {rows}, but a player's "
                f"{len(trees)} trees are worth {worth} in all and every player plants them all "
                f"in spring",
            )


def _check_leaves(layout, players: list, report) -> None:
    most = max_leaves(layout)
    for i, p in enumerate(players):
        shown = sum(p["leaves"])
        if shown > most:
            report.warn(
                i,
                f"leaves: {shown} visible leaves in all; a player shows at most {most} "
                f"(leaf tiles {_span(layout.constants['leaf_tiles'])} drop {most - 1}, "
                f"plus the squirrel)",
            )
    lines = board_lines(layout, len(players))
    squares = (lines + 1) ** 2
    shown = sum(sum(p["leaves"]) for p in players)
    if shown > squares:
        report.warn(
            None,
            f"leaves: {shown} visible leaves on the board in all; the {len(players)}-player "
            f"board has {squares} squares and each shows one leaf or squirrel at most",
        )


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
            report.warn(
                None,
                f"round8_order: {', '.join(missing)} missing; a tie on the total "
                f"involving {'them' if len(missing) > 1 else 'this player'} stays shared",
            )
    return order


def check(layout, record, report) -> None:
    players = record["players"]
    names = [p["name"] for p in players]
    if board_lines(layout, len(players)) is None:
        report.error(
            Where(record["_node"], "players", "players"),
            f"the layout gives no board size (constant board_lines_{len(players)}p) for {len(players)} players",
        )
        return
    _check_lines(layout, players, report)
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
        report.warn(
            None,
            f"{who} tie for the win on {best} points; {why}, so the victory is shared "
            f"(the player earlier in round 8's play order would win)",
        )


GAME = Game(
    id="bosk",
    reads=Reads(
        elements={"summer": "score_table", "winter": "score_table"},
        constants=(
            "tree_values",
            "trees_per_value",
            "leaf_tiles",
            *(f"{season}_{place}" for season in ("summer", "winter") for place in PLACES),
        ),
    ),
    player_fields=player_fields,
    record_fields=record_fields,
    blank_player=blank_player,
    blank_record=blank_record,
    categories=categories,
    check=check,
    score=score,
    tiebreak_labels=tiebreak_labels,
    record_from_sheets=record_from_sheets,
    template_alternatives=template_alternatives,
    written=written,
    disagreements=disagreements,
)
