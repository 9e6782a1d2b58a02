"""What a played sheet holds, for the handwriting generators: numbers that add up as the
rules say (a Bosk player's rows and columns from trees planted on a board, a Plante Bataille
player's card values and their sum, a Glassworks row's run from the board copy ticked...), the
boxes the record does not take written too (names, points), and now and then a player's own
slip (a total added up wrong), which the reader must leave to type, not trust.

`played(layout, page_id, players, rng)` gives a `Sheet`; `clean_page` the page as printed, at
the reader's resolution. Nothing here draws writing: each generator does, its own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetgen.games import game_for
from sheetgen.games.bosk import TALLIES, board_lines, max_leaves, place_points, table, terrain_rows, trees_of
from sheetgen.games.glassworks import board_size
from sheetgen.scan.blank import blank_colours, blank_page

SLIP = 0.03  # a player's total added up wrong, this often
NAMES = ("Alice", "Bob", "Chloé", "Dev", "Emma", "Farid", "Gus", "Hana", "Ines", "Jo", "Kim", "Lou")


@dataclass
class Sheet:
    truth: dict  # number box -> its number as the record takes it ('' when empty; "3, -2, 5" for a list)
    lines: dict  # number box -> the lines written in it (one for a number; a list's values on a few)
    others: dict = field(default_factory=dict)  # other boxes written in (names, points): not read
    ticks: dict = field(default_factory=dict)  # tick boxes and their marks (a board copy), as read
    players: int = 0  # the columns played (a pad printed for more leaves the rest blank)


def clean_page(layout, page_id: str, players: int, lang: str):
    """(the page's boxes by field, the page as printed: RGB at blank.PPMM)."""
    display, _ = blank_page(layout, page_id, players, lang)
    return {b.field: b for b in display.boxes()}, blank_colours(layout, page_id, players, lang).copy()


def played(layout, page_id: str, players: int, rng) -> Sheet:
    """A played sheet's page, `players` its printed columns (some may stay blank)."""
    game = game_for(layout).id
    boxes, _ = clean_page(layout, page_id, players, "en")
    wanted = {f: w for f, w in game_for(layout).written(layout, players).items() if f in boxes}
    sheet = {
        "bosk": _bosk,
        "plante-bataille": _plante_bataille,
        "river-valley-glassworks": _glassworks,
        "imperial-settlers": _imperial_settlers,
    }[game](layout, page_id, players, rng, boxes)
    for f in wanted:
        sheet.truth.setdefault(f, "")
        sheet.lines.setdefault(f, [sheet.truth[f]] if sheet.truth[f] else [])
    assert set(sheet.truth) == set(wanted), set(sheet.truth) ^ set(wanted)
    return sheet


def _put(sheet: Sheet, f: str, n, blank_zero: bool = False) -> None:
    text = "" if n is None or (n == 0 and blank_zero) else str(n)
    sheet.truth[f] = text
    sheet.lines[f] = [text] if text else []


def _slip(rng, n: int) -> int:
    return n + int(rng.choice([-2, -1, 1, 2])) if rng.random() < SLIP else n


def _used(rng, players: int, lo: int) -> int:
    """The columns of a pad that are played: all, mostly."""
    return players if rng.random() < 0.7 else int(rng.integers(lo, players + 1))


def _bosk(layout, page_id, printed, rng, boxes) -> Sheet:
    n = _used(rng, printed, 2)
    sheet = Sheet({}, {}, players=n)
    lines = board_lines(layout, n)
    if page_id == "summer":
        summer, sums_of = table(layout, "summer"), []
        for _ in range(n):
            spots = rng.permutation(lines * lines)[: len(trees_of(layout))]
            rows, cols = [0] * lines, [0] * lines
            for value, spot in zip(trees_of(layout), spots):
                rows[spot // lines] += value
                cols[spot % lines] += value
            sums_of.append((rows, cols))
        for i, (rows, cols) in enumerate(sums_of, 1):
            blank_zero = rng.random() < 0.5  # (the worksheet says: blank or 0)
            for axis, (tally, sums) in enumerate(zip(TALLIES.values(), (rows, cols))):
                # the points each line earns against the other players' sums on it
                points = [place_points([s[axis][k] for s in sums_of], summer)[i - 1] for k in range(lines)]
                for k, (v, pts) in enumerate(zip(sums, points), 1):
                    _put(sheet, f"{tally}_p{i}_{k}", v, blank_zero)
                    _put(sheet, f"{tally}_p{i}_pts{k}", pts, blank_zero)
                if rng.random() < 0.8:  # (the totals added up, now and then wrong)
                    _put(sheet, f"{tally}_p{i}_total", _slip(rng, sum(sums)))
                    _put(sheet, f"{tally}_p{i}_pts_total", _slip(rng, sum(points)))
            if f"{TALLIES['rows']}_p{i}_name" in boxes:
                sheet.others[f"{TALLIES['rows']}_p{i}_name"] = NAMES[i - 1]
        return sheet
    most = max_leaves(layout)
    order = rng.permutation(n) + 1
    for i in range(1, n + 1):
        sheet.others[f"name_p{i}"] = NAMES[i - 1]
        left = most - int(rng.integers(0, 12))
        for row in terrain_rows(layout):
            v = int(min(left, rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 8])))
            left -= v
            _put(sheet, f"{row['id']}_p{i}_count", v, rng.random() < 0.3)
            sheet.others[f"{row['id']}_p{i}"] = str(rng.choice([0, 1, 3, 4, 5, 8]))
        for row in ("summer_rows", "summer_columns", "summer_total", "winter_total", "total"):
            sheet.others[f"{row}_p{i}"] = str(int(rng.integers(0, 60)))
        _put(sheet, f"round8_p{i}", int(order[i - 1]))
    return sheet


def _plante_bataille(layout, page_id, printed, rng, boxes) -> Sheet:
    from sheetgen.games.plante_bataille import leaders, majority_bonus, token_kinds

    n = _used(rng, printed, 3)
    sheet = Sheet({}, {}, players=n)
    kinds = token_kinds(layout)
    tokens = {k: [int(rng.integers(0, 5)) for _ in range(n)] for k in kinds}
    bonus = majority_bonus(layout)
    tick_bonus = rng.random() < 0.6
    for i in range(1, n + 1):
        sheet.others[f"name_p{i}"] = NAMES[i - 1]
        cards = [int(rng.choice([-3, -2, -1, 1, 2, 3, 4, 5])) for _ in range(int(rng.integers(1, 8)))]
        per_line = int(rng.integers(1, 4))
        sep = str(rng.choice([" ", ", ", " "]))
        if rng.random() < 0.8:
            sheet.lines[f"harvest_values_p{i}"] = [
                sep.join(str(c) for c in cards[k : k + per_line]) for k in range(0, len(cards), per_line)
            ]
            sheet.truth[f"harvest_values_p{i}"] = ", ".join(map(str, cards))
        _put(sheet, f"harvested_p{i}", _slip(rng, sum(cards)))
        got = 0
        for k in kinds:
            _put(sheet, f"tokens_{k}_p{i}", tokens[k][i - 1], rng.random() < 0.2)
            won = bonus if leaders(tokens[k]) == {i - 1} else 0
            got += won
            sheet.ticks[f"majority_{k}_p{i}"] = bool(won) and tick_bonus  # (the majorities are ticks)
        _put(sheet, f"total_p{i}", _slip(rng, sum(cards) + got) if rng.random() < 0.8 else None)
    return sheet


def _glassworks(layout, page_id, printed, rng, boxes) -> Sheet:
    from sheetgen.games.glassworks import counted_columns, run_length

    n = _used(rng, printed, 2)
    sheet = Sheet({}, {}, players=n)
    cols, rows = board_size(layout)
    for i in range(1, n + 1):
        heights = [int(min(rows, max(0, rng.normal(2.8, 1.6)))) for _ in range(cols)]
        for r in range(1, rows + 1):
            for c in range(1, cols + 1):
                sheet.ticks[f"board_p{i}_r{r}_c{c}"] = heights[c - 1] >= r
            run = run_length(heights, r)
            _put(sheet, f"row_{r}_p{i}_count", _slip(rng, run) if run else None)
            sheet.others[f"row_{r}_p{i}"] = str(run * (run + 1) // 2)
        for m, k in enumerate(counted_columns(heights, layout.constants["counted_columns"]), 1):
            _put(sheet, f"counted_column_{m}_p{i}_count", k + 1)
            sheet.others[f"counted_column_{m}_p{i}"] = str((k + 1) * heights[k])
        _put(sheet, f"overflow_p{i}_count", int(rng.choice([0, 0, 1, 2, 3, 4, 6])), rng.random() < 0.5)
        sheet.others[f"names_p{i}"] = NAMES[i - 1]
        sheet.others[f"total_p{i}"] = str(int(rng.integers(5, 80)))
    return sheet


def _imperial_settlers(layout, page_id, printed, rng, boxes) -> Sheet:
    from sheetgen.games.base import boxes_sum

    sheet = Sheet({}, {}, players=1)
    parts, total = boxes_sum(layout, "score")
    got = 0
    for f, sign in parts:
        v = int(rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 21, 24]))
        got += sign * v
        _put(sheet, f, v, rng.random() < 0.2)
    _put(sheet, total, _slip(rng, got) if rng.random() < 0.9 else None)
    sheet.others["empire_player"] = NAMES[int(rng.integers(len(NAMES)))]
    return sheet
