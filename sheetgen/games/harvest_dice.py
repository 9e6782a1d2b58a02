"""Harvest Dice: a player's garden, pig and market -> points.

Constants come from the layout: the garden grid `garden` (rows, columns, points
per complete row), the pig track `pig` (boxes per row and each row's points),
the market tracks `market_<vegetable>` (boxes, pre-printed boxes) and, when the
layout has it, the constant `majority_bonus` (advanced mode).

Decisions (docs/rules.md): 5 points per complete garden row (the layout's
row_value); pig points: the value printed beside the last row holding a checked
box; advanced majorities: the most of a vegetable in the garden and the most
pig boxes gain the bonus, tied leaders each gain it, a count of 0 never wins.
No tie-breaker: equal totals share the victory.

The advanced sheet has a tick box per majority (tracks `majority_<kind>`, read when
the layout has them): a player ticks the majorities they believe they hold. The
scorer does not score the ticks; a record may give them (`majorities`, the kinds
ticked) and `check` warns where they disagree with what the garden and the pig give.
"""

from __future__ import annotations

from sheetgen.cells import strays_each
from sheetgen.games.base import Game, PlayerScore, Reads, label, per_layout, track_boxes
from sheetgen.games.base import sheet_players as player_range
from sheetgen.games.fields import Count
from sheetgen.layout.elements.common import cell_field
from sheetgen.schema import Field, ListOf, Map, Slow, Spec, Str, describe

VEGETABLES = ("carrot", "salad", "tomato")
LETTERS = {"C": "carrot", "S": "salad", "T": "tomato"}  # in VEGETABLES' order
VEG_LETTERS = "".join(LETTERS)
EMPTY = "."
NAMES = {
    "carrot": label("carottes", "carrots"),
    "salad": label("salades", "salads"),
    "tomato": label("tomates", "tomatoes"),
}
MAJORITY = tuple(f"majority_{veg}" for veg in VEGETABLES)
KINDS = (*VEGETABLES, "pig")  # what a majority is held in: each vegetable, and the pig
TICKS = {kind: f"majority_{kind}" for kind in KINDS}  # the advanced sheet's majority ticks (tracks)
ONE = {"carrot": "carrot", "salad": "salad", "tomato": "tomato"}
RULES_PLAYERS = (2, 4)


def _market(layout, veg) -> dict:
    return layout.element(f"market_{veg}")


def majority_bonus(layout) -> int | None:
    return layout.constants.get("majority_bonus")


class GardenRow(Spec):
    """One garden row: a string of C, S, T or '.' as long as the grid is wide."""

    def __init__(self, cols: int):
        self.cols = cols
        self.description = f"{cols} characters of C (carrot), S (salad), T (tomato) or . (empty)"

    def check(self, value, ctx, at):
        if not isinstance(value, str):
            return ctx.error(at, f"expected {self.description}, got {describe(value)}")
        row = value.strip().upper()
        if len(row) != self.cols:
            return ctx.error(at, f"expected {self.cols} characters, got {len(row)} ({value!r})")
        unknown = [str(n + 1) for n, ch in enumerate(row) if ch == "?"]
        if unknown:
            return ctx.error(
                at,
                f"column{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}: a filled cell whose vegetable "
                "the scan could not tell (no dice colour); write C (carrot), S (salad) or T (tomato)",
            )
        for n, ch in enumerate(row):
            if ch != EMPTY and ch not in LETTERS:
                return ctx.error(
                    at, f"{ch!r} in column {n + 1} is no vegetable; use C (carrot), S (salad), T (tomato) or . (empty)"
                )
        return row

    def quick(self):
        cols, chars = self.cols, EMPTY + "".join(LETTERS)

        def run(value):
            row = value.strip().upper() if isinstance(value, str) else ""
            if len(row) != cols or row.strip(chars):
                raise Slow
            return row

        return run

    def quick_each(self):
        """A whole garden at once, when it is already as check() leaves it (its rows of C, S,
        T and . only, as wide as the grid), without a regular expression: its rows joined by
        NUL as ASCII bytes must be as long as the rows and separators together, hold a NUL
        exactly where each row should end (and no other), and nothing else but the cells'
        letters, which bytes.translate deletes (all in C)."""
        cols, cells = self.cols, (EMPTY + "".join(LETTERS)).encode() + b"\0"

        def run(values):
            try:
                text = "\0".join(values).encode("ascii")
            except (TypeError, UnicodeEncodeError):
                raise Slow from None
            ends = len(values) - 1
            if (
                len(text) != len(values) * (cols + 1) - 1
                or text.count(0) != ends
                or text[cols :: cols + 1] != b"\0" * ends
                or text.translate(None, cells)
            ):
                raise Slow
            return list(values)

        return run


def player_fields(layout) -> dict:
    grid, pig = layout.element("garden"), layout.element("pig")
    market = {}
    for veg in VEGETABLES:
        m = _market(layout, veg)
        pre = m["prechecked"]
        why = f"{pre} box{'es are' if pre > 1 else ' is'} pre-printed on this sheet" if pre else ""
        market[veg] = Field(
            Count(pre, track_boxes(m), why),
            required=True,
            doc=f"{ONE[veg]} market boxes checked, pre-printed ones included",
        )
    fields = {
        "garden": Field(
            ListOf(GardenRow(grid["cols"]), grid["rows"], grid["rows"]),
            required=True,
            doc=f"{grid['rows']} rows, top to bottom: C carrot, S salad, T tomato, . empty",
        ),
        "pig": Field(Count(0, track_boxes(pig)), required=True, doc="pig boxes checked (filled row by row)"),
        "market": Field(
            Map(market, what="a mapping of carrot, salad, tomato"),
            required=True,
            doc="market boxes checked per vegetable",
        ),
    }
    if majority_bonus(layout) is not None:
        fields["majorities"] = Field(
            ListOf(Str(choices=KINDS), 0, len(KINDS)),
            doc="optional: the majorities the player ticked (carrot, salad, tomato, pig); "
            "a cross-check, warned of where the garden and the pig give otherwise",
        )
    return fields


def blank_player(layout) -> dict:
    grid = layout.element("garden")
    return {
        "garden": [EMPTY * grid["cols"]] * grid["rows"],
        "pig": 0,
        "market": {veg: _market(layout, veg)["prechecked"] for veg in VEGETABLES},
    }


def categories(layout) -> list:
    cats = [(veg, label(NAMES[veg]["fr"].capitalize(), NAMES[veg]["en"].capitalize())) for veg in VEGETABLES]
    cats += [("rows", label("Lignes complètes", "Complete rows")), ("pig", label("Cochon", "Pig"))]
    if majority_bonus(layout) is not None:
        cats += [
            (f"majority_{veg}", label(f"Majorité {NAMES[veg]['fr']}", f"Majority {NAMES[veg]['en']}"))
            for veg in VEGETABLES
        ]
        cats.append(("majority_pig", label("Majorité cochon", "Majority pig")))
    return cats


def pig_points(layout, boxes: int) -> int:
    """The value printed beside the last row holding a checked box (0 if none)."""
    points, filled = 0, 0
    for s in layout.element("pig")["sections"]:
        if boxes <= filled:
            break
        points = s.get("value") or 0
        filled += s["boxes"]
    return points


@per_layout
def _tables(layout) -> dict:
    """What scoring reads from the layout, read once per layout: the garden's size and
    row value, the pig points for each count of boxes, the size of each market track, the
    warning when no end condition is met."""
    grid, pig = layout.element("garden"), layout.element("pig")
    pig_total = track_boxes(pig)
    return {
        "rows": grid["rows"],
        "cols": grid["cols"],
        "row_value": grid.get("row_value") or 0,
        "pig_total": pig_total,
        "pig_points": [pig_points(layout, n) for n in range(pig_total + 1)],
        "market_total": [track_boxes(_market(layout, v)) for v in VEGETABLES],
        "bonus": majority_bonus(layout),
        "no_end": f"no end condition was met: no full garden ({grid['rows']} x {grid['cols']}), "
        f"no full pig ({pig_total} boxes), no complete market",
    }


def check(layout, record, report) -> None:
    check_many(layout, [record], [report])


def check_many(layout, records: list, reports: list) -> None:
    """check() of each record, its report beside it. The gardens of all the records are
    flood-filled at once (cells.strays_each), the most costly part, so that a batch of
    records pays it once."""
    t = _tables(layout)
    gardens = [p["garden"] for record in records for p in record["players"]]
    strays = iter(strays_each(gardens, VEG_LETTERS, (t["rows"], t["cols"])))
    pig_total, (carrots, salads, tomatoes) = t["pig_total"], t["market_total"]
    lo, hi = RULES_PLAYERS
    for record, report in zip(records, reports):
        players = record["players"]
        for i in range(len(players)):
            found = next(strays)
            for letter, veg in LETTERS.items() if found else ():
                for g in found.get(letter, ()):
                    r, c = g[0]
                    report.warn(
                        i,
                        f"garden: the {ONE[veg]} at row {r + 1}, column {c + 1} is not orthogonally adjacent "
                        f"to the other {NAMES[veg]['en']} (each new vegetable must touch one of its kind)",
                        cell_field("garden", r + 1, c + 1),
                    )
        for p in players[1:]:
            if p["market"] != players[0]["market"]:
                shown = "; ".join(
                    f"{q['name']} " + ", ".join(f"{v} {q['market'][v]}" for v in VEGETABLES) for q in players
                )
                report.warn(None, f"market: the markets differ although the market die is shared ({shown})")
                break
        for p in players:
            m = p["market"]
            if (
                p["pig"] >= pig_total
                or m["carrot"] >= carrots
                or m["salad"] >= salads
                or m["tomato"] >= tomatoes
                or EMPTY not in "".join(p["garden"])
            ):
                break
        else:
            report.warn(None, t["no_end"])
        if not lo <= len(players) <= hi:
            report.warn(None, f"Harvest Dice is played by {lo}-{hi} players, this record has {len(players)}")
        if t["bonus"] is not None and any(p.get("majorities") is not None for p in players):
            _check_ticks(players, report)


def holdings(p: dict) -> dict:
    """What a player holds of each majority's kind: the vegetables in the garden, the pig boxes."""
    cells = "".join(p["garden"])
    return {"carrot": cells.count("C"), "salad": cells.count("S"), "tomato": cells.count("T"), "pig": p["pig"]}


def _check_ticks(players: list, report) -> None:
    """The majorities a player ticked (`majorities`) against those the counts give (the most
    of a kind, tied leaders each, never with 0): a warning for each that differs."""
    held = [holdings(p) for p in players]
    for kind in KINDS:
        best = max(h[kind] for h in held)
        for i, (p, h) in enumerate(zip(players, held)):
            ticked = p.get("majorities")
            if ticked is None:
                continue
            holds = h[kind] == best >= 1
            have = _how_many(h[kind], kind)
            if kind in ticked and not holds:
                leaders = ", ".join(f"{q['name']} {g[kind]}" for q, g in zip(players, held) if g[kind] == best)
                why = f"the most is {best} ({leaders})" if best else "nobody has any"
                report.warn(i, f"majorities: the {kind} majority is ticked, but {have}: {why}")
            elif holds and kind not in ticked:
                report.warn(i, f"majorities: {have}, the most, but the {kind} majority is not ticked")


def _how_many(n: int, kind: str) -> str:
    """'3 carrots', '1 carrot', '14 pig boxes'."""
    if kind == "pig":
        return f"{n} pig box{'' if n == 1 else 'es'}"
    return f"{n} {ONE[kind] if n == 1 else NAMES[kind]['en']}"


def score(layout, record) -> list[PlayerScore]:
    """Each player's breakdown in the categories' order: a plain loop (no helper dicts or
    comprehensions), since the batch scorer runs it for every record."""
    t = _tables(layout)
    row_value, pig, bonus = t["row_value"], t["pig_points"], t["bonus"]
    players = record["players"]
    out, grown = [], []
    for p in players:
        garden, market, boxes = p["garden"], p["market"], p["pig"]
        cells = "".join(garden)
        n = cells.count("C"), cells.count("S"), cells.count("T")  # LETTERS, in VEGETABLES' order
        full = 0
        for row in garden:
            if EMPTY not in row:
                full += 1
        b = {
            "carrot": n[0] * market["carrot"],
            "salad": n[1] * market["salad"],
            "tomato": n[2] * market["tomato"],
            "rows": row_value * full,
            "pig": pig[boxes] if 0 <= boxes < len(pig) else pig_points(layout, boxes),
        }
        out.append(b)
        grown.append(n)
    if bonus is not None:
        for k, key in enumerate(MAJORITY):  # the most of a vegetable; a count of 0 never wins
            best = max(n[k] for n in grown)
            for n, b in zip(grown, out):
                b[key] = bonus if n[k] == best >= 1 else 0
        best = max(p["pig"] for p in players)
        for p, b in zip(players, out):
            b["majority_pig"] = bonus if p["pig"] == best >= 1 else 0
    return [PlayerScore(p["name"], b) for p, b in zip(players, out)]


def record_from_sheets(layout, sheets: list[dict]) -> dict:
    """Players from filled fillable sheets (sheetgen.scoring.pdfread), one per sheet; with
    the majorities each player ticked when a sheet of the game has a tick (`majorities`)."""
    players = [
        {
            "name": m.get("player_name_box") or f"Player {n}",
            "garden": m["garden"],
            "pig": m["pig"],
            "market": {veg: m[f"market_{veg}"] for veg in VEGETABLES},
        }
        for n, m in enumerate(sheets, 1)
    ]
    if majority_bonus(layout) is not None and any(m.get(TICKS[k]) for m in sheets for k in KINDS):
        for p, m in zip(players, sheets):
            p["majorities"] = [k for k in KINDS if m.get(TICKS[k])]
    return {"players": players}


def reads_for(layout) -> Reads:
    """The garden, the pig and the markets; and the majority ticks of a sheet that has them."""
    ticks = {TICKS[k]: "track" for k in KINDS if majority_bonus(layout) is not None and layout.has(TICKS[k])}
    return Reads(
        elements={**READS.elements, **ticks},
        optional_constants=READS.optional_constants,
    )


READS = Reads(
    elements={"garden": "grid", "pig": "track", **{f"market_{veg}": "track" for veg in VEGETABLES}},
    optional_constants=("majority_bonus",),
)


def cell_choices(layout) -> dict:
    """A garden cell holds one of the vegetables, by its letter."""
    return {"garden": [(letter, veg, NAMES[veg]) for letter, veg in LETTERS.items()]}


GAME = Game(
    id="harvest-dice",
    reads=READS,
    reads_for=reads_for,
    player_range=player_range,
    player_fields=player_fields,
    blank_player=blank_player,
    categories=categories,
    check=check,
    check_many=check_many,
    score=score,
    record_from_sheets=record_from_sheets,
    cell_choices=cell_choices,
)
