"""River Valley Glassworks: a player's column heights and overflow -> points.

Everything printed on the pad comes from the layout (`river-valley-glassworks`):

- the score table `score`: its grid row `board` gives the board's size
  (`grid: [columns, rows]`: 7 columns, the seed's, of `column_height` pieces, a
  house reading), its rows `row_1`... (bottom to top), `counted_column_1`... and
  `overflow` give the breakdown's keys and labels;
- the player range (`players`, from the constants `players_min`, `players_max`:
  a house reading, the seed gives none);
- constants: `row_values` (points for a row's run of filled cells from the left
  edge, runs 1..7), `counted_columns` (2), `overflow_penalty` (3),
  `end_trigger` (17 pieces on a board end the game) and `glass_<colour>` (pieces
  of each colour in the bag: the seed's 8 colours, « Il existe 8 couleurs »).

Decisions (docs/rules.md): a column k (1-based from the left) holding h pieces is
worth k*h; only the `counted_columns` tallest columns count, and among equal
heights the leftmost are taken first. Each row, bottom to top, scores the
printed value for the length of its run of filled cells from the left edge.
A record gives only the column heights: cells fill bottom-up, so row r (from
the bottom) is filled in column k iff height_k >= r. Overflow: -3 each. No
tie-breaker: equal totals share the victory (the seed names none).
"""

from __future__ import annotations

from sheetgen.errors import LayoutError
from sheetgen.games.base import Game, PlayerScore, Reads, Written, number_of
from sheetgen.games.fields import Count
from sheetgen.numbers import parse_number
from sheetgen.schema import INVALID, Field, ListOf, Where, describe

TABLE = "score"
BOARD = "board"
PREFIX = "glass_"


# ----------------------------------------------------------------------------- the layout's numbers


def board_size(layout) -> tuple[int, int]:
    """(columns, rows) of the board, from the score table's grid row."""
    cols, rows = _row(layout, BOARD)["grid"]
    return cols, rows


def row_values(layout) -> list[int]:
    """Points for a row's run of 1, 2, ... filled cells from the left edge."""
    values = layout.constants["row_values"]
    cols = board_size(layout)[0]
    if (
        not isinstance(values, list)
        or len(values) != cols
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
    ):
        raise LayoutError(
            f"{layout.source}: constants.row_values: expected {cols} whole numbers "
            f"(points for runs of 1-{cols} cells), got {values!r}"
        )
    return values


def supply(layout) -> dict[str, int]:
    """Glass pieces in the bag per colour (layout order)."""
    return {key[len(PREFIX) :]: count for key, count in layout.constants.items() if key.startswith(PREFIX)}


def _row(layout, rid: str) -> dict:
    for row in layout.element(TABLE)["rows"]:
        if row["id"] == rid:
            return row
    raise LayoutError(f"{layout.source}: {TABLE}: no row '{rid}' (the scorer reads it)")


def keys(layout) -> list[str]:
    """The breakdown's keys, in the pad's order."""
    rows = board_size(layout)[1]
    counted = layout.constants["counted_columns"]
    return (
        [f"row_{r}" for r in range(1, rows + 1)] + [f"counted_column_{n}" for n in range(1, counted + 1)] + ["overflow"]
    )


# ----------------------------------------------------------------------------- record fields


class Columns(ListOf):
    """Pieces in each column, left to right: up to `cols` numbers of 0-`rows` (a list,
    so that the interactive prompt takes them typed with commas)."""

    def __init__(self, cols: int, rows: int):
        super().__init__(Count(0, rows), 0, cols)
        self.cols, self.rows = cols, rows
        self.description = f"up to {cols} numbers of 0-{rows}"

    def check(self, value, ctx, at):
        if not isinstance(value, list):
            return ctx.error(
                at,
                f"expected a list of up to {self.cols} column heights "
                f"(0-{self.rows} pieces each), got {describe(value)}",
            )
        if len(value) > self.cols:
            return ctx.error(at, f"expected at most {self.cols} columns (the board has {self.cols}), got {len(value)}")
        out, ok = [], True
        for i, item in enumerate(value):
            where = at.child(value, i)
            n = parse_number(item)
            if n is None:
                ctx.error(where, f"expected a number of pieces (0-{self.rows}), got {describe(item)}")
            elif n < 0:
                ctx.error(where, f"expected 0-{self.rows} pieces, got a negative count {n}")
            elif n > self.rows:
                ctx.error(where, f"a column holds at most {self.rows} pieces, got {n}")
            else:
                out.append(n)
                continue
            ok = False
        if not ok:
            return INVALID
        return out + [0] * (self.cols - len(out))


def player_fields(layout) -> dict:
    cols, rows = board_size(layout)
    row_values(layout)  # a variant's table must match its board
    penalty = layout.constants["overflow_penalty"]
    return {
        "columns": Field(Columns(cols, rows), required=True, doc="pieces in each column, left to right"),
        "overflow": Field(Count(0, None), default=0, doc=f"pieces discarded (-{penalty} each)"),
    }


def blank_player(layout) -> dict:
    return {"columns": [0] * board_size(layout)[0], "overflow": 0}


def categories(layout) -> list:
    out = []
    for key in keys(layout):
        row = _row(layout, key)
        out.append((key, {lang: layout.env(lang).t(row["label"]) for lang in ("fr", "en")}))
    return out


# ----------------------------------------------------------------------------- rules


def run_length(heights: list[int], row: int) -> int:
    """Filled cells of `row` (1 = bottom) from the left edge up to the first gap."""
    n = 0
    while n < len(heights) and heights[n] >= row:
        n += 1
    return n


def counted_columns(heights: list[int], count: int) -> list[int]:
    """0-based indexes of the `count` tallest columns, leftmost first among equal heights."""
    return sorted(range(len(heights)), key=lambda k: (-heights[k], k))[:count]


def breakdown(layout, heights: list[int], overflow: int) -> dict:
    values = row_values(layout)
    rows = board_size(layout)[1]
    out = {}
    for r in range(1, rows + 1):
        run = run_length(heights, r)
        out[f"row_{r}"] = values[run - 1] if run else 0
    for n, k in enumerate(counted_columns(heights, layout.constants["counted_columns"]), 1):
        out[f"counted_column_{n}"] = (k + 1) * heights[k]
    out["overflow"] = -layout.constants["overflow_penalty"] * overflow
    return out


def score(layout, record) -> list[PlayerScore]:
    return [PlayerScore(p["name"], breakdown(layout, p["columns"], p["overflow"])) for p in record["players"]]


# ----------------------------------------------------------------------------- checks

SEARCH_BUDGET = 20000  # assignments tried before giving up (then we cannot tell)


def colours_fit(boards: list[list[int]], caps: list[int], budget: int = SEARCH_BUDGET) -> bool | None:
    """Whether every column can be given a colour: one colour per column, different
    colours within a board, and no colour used beyond its count in `caps`. None when
    the search gives up after `budget` assignments (the answer is then unknown).

    Colours matter only through what is left of them, so the search runs board by
    board over the sorted tuple of what is left (clipped to what the remaining boards
    could still take), remembering dead ends and cutting branches where the pieces
    left, or the columns of at least t pieces, outnumber what the colours can take."""
    todo = sorted(
        (sorted((h for h in b if h), reverse=True) for b in boards if any(b)),
        key=lambda b: (len(b), sum(b)),
        reverse=True,
    )
    tail = [todo[n:] for n in range(len(todo) + 1)]
    tallest = max((b[0] for b in todo), default=0)
    dead: set = set()
    steps = [0]

    def hopeless(n, left) -> bool:
        rest = tail[n]
        if sum(map(sum, rest)) > sum(left):
            return True
        return any(
            sum(h >= t for b in rest for h in b) > sum(min(c // t, len(rest)) for c in left)
            for t in range(1, tallest + 1)
        )

    def placements(heights, left):
        work, used, seen = list(left), [False] * len(left), set()

        def go(j):
            if j == len(heights):
                steps[0] += 1
                state = tuple(sorted(work, reverse=True))
                if state not in seen:
                    seen.add(state)
                    yield state
                return
            tried = set()
            for i, c in enumerate(work):
                if not used[i] and c >= heights[j] and c not in tried:
                    tried.add(c)
                    used[i], work[i] = True, c - heights[j]
                    yield from go(j + 1)
                    used[i], work[i] = False, c

        return go(0)

    def fit(n, left):
        if n == len(todo):
            return True
        most = sum(b[0] for b in tail[n])
        left = tuple(sorted((min(c, most) for c in left), reverse=True))
        if (n, left) in dead or hopeless(n, left):
            return False
        for nxt in placements(todo[n], left):
            if steps[0] > budget:
                raise _GiveUp
            if fit(n + 1, nxt):
                return True
        dead.add((n, left))
        return False

    try:
        return fit(0, tuple(caps))
    except _GiveUp:
        return None


class _GiveUp(Exception):
    pass


def _listing(bag: dict) -> str:
    return ", ".join(f"{colour.replace('_', ' ')} {n}" for colour, n in bag.items())


def check(layout, record, report) -> None:
    players = record["players"]
    at = Where(record["_node"], "players", "players")
    bag = supply(layout)
    if bag:
        held = sum(sum(p["columns"]) + p["overflow"] for p in players)
        if held > sum(bag.values()):
            report.error(
                at,
                f"the boards and overflows hold {held} glass pieces, but the bag holds "
                f"{sum(bag.values())} ({_listing(bag)})",
            )
        elif colours_fit([p["columns"] for p in players], list(bag.values())) is False:
            report.error(
                at,
                "more pieces of some colour than the bag holds: each column holds one colour "
                "and a board's columns have different colours, but no choice of colours fits "
                f"the counts ({_listing(bag)})",
            )
    trigger = layout.constants["end_trigger"]
    sizes = [sum(p["columns"]) for p in players]
    if max(sizes, default=0) < trigger:
        best = max(sizes, default=0)
        who = ", ".join(p["name"] for p, n in zip(players, sizes) if n == best)
        report.warn(None, f"no board reached {trigger} pieces, the end trigger (the fullest holds {best}: {who})")


def record_from_sheets(layout, sheets: list[dict]) -> dict:
    """Players from a filled fillable pad (sheetgen.scoring.pdfread): the pieces
    ticked in each column of a player's board copy, and the overflow count."""
    players = []
    for m in sheets:
        for i, grid in enumerate(m[BOARD]):
            overflow = m.get("overflow_count", [""] * len(m[BOARD]))[i]
            columns = [sum(row[c] for row in grid) for c in range(len(grid[0]))] if grid else []
            name = m["player_names"][i]
            if not any(columns) and not overflow and not name:
                continue  # an unused column of the pad
            players.append(
                {"name": name or f"Player {len(players) + 1}", "columns": columns, "overflow": overflow or 0}
            )
    return {"players": players}


def written(layout, players: int) -> dict:
    """The numbers of a pad printed for `players`: each player's overflow (at most the
    bag), and, to check the board copy against, the run of each row (0 to the columns)
    and the number of each counted column (1 to the columns)."""
    cols, rows = board_size(layout)
    run, column = Written(0, cols, record=False), Written(1, cols, record=False)
    out = {}
    for i in range(1, players + 1):
        out[f"overflow_p{i}_count"] = Written(0, sum(supply(layout).values()))
        out.update({f"row_{r}_p{i}_count": run for r in range(1, rows + 1)})
        counted = range(1, layout.constants["counted_columns"] + 1)
        out.update({f"counted_column_{n}_p{i}_count": column for n in counted})
    return out


def disagreements(layout, values: dict) -> list[tuple]:
    """A row's run, or a counted column's number, written otherwise than the player's board
    copy shows it (its ticks all read sure)."""
    cols, rows = board_size(layout)
    out = []
    i = 1
    while f"{BOARD}_p{i}_r1_c1" in values or f"overflow_p{i}_count" in values:
        cells = [[values.get(f"{BOARD}_p{i}_r{r}_c{c}") for c in range(1, cols + 1)] for r in range(1, rows + 1)]
        i += 1
        if any(not isinstance(v, bool) for row in cells for v in row):
            continue  # (a cell unsure, or no board copy: nothing to check against)
        heights = [sum(cells[r][c] for r in range(rows)) for c in range(cols)]
        for r in range(1, rows + 1):
            field = f"row_{r}_p{i - 1}_count"
            if number_of(values, field, empty=None) not in (None, run_length(heights, r)):
                out.append((field,))
        counted = counted_columns(heights, layout.constants["counted_columns"])
        for n, k in enumerate(counted, 1):
            field = f"counted_column_{n}_p{i - 1}_count"
            if number_of(values, field, empty=None) not in (None, k + 1):
                out.append((field,))
    return out


GAME = Game(
    id="river-valley-glassworks",
    reads=Reads(
        elements={TABLE: "score_table"}, constants=("row_values", "counted_columns", "overflow_penalty", "end_trigger")
    ),
    player_fields=player_fields,
    blank_player=blank_player,
    categories=categories,
    check=check,
    score=score,
    record_from_sheets=record_from_sheets,
    written=written,
    disagreements=disagreements,
)
