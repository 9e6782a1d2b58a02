"""Plante Bataille: harvested card values and vegetable tokens -> points.

Constants come from the layout (layouts/plante-bataille.yaml): `majority_bonus`
(3 in the seed), `token_kinds` (veg1, veg2, veg3: the seed's three kinds of
vegetable, which it does not name), `token_aliases` (the kinds' names in older
records: cabbage, corn, tomato), `tokens_per_box` (5 of each kind per box: house
default) and `one_box_players` (one box plays up to 6; two boxes up to the pad's
maximum, 12). The labels of
the breakdown come from the pad's score table (rows `harvested` and
`majority_<kind>`).

Rules (seed, docs/rules.md): a player's harvested cards score the sum of their
values, negative values staying negative. For each token kind, the one player
holding the most tokens (at least 1) gains the majority bonus; a tie for the
lead gives it to nobody. No tie-breaker: equal totals share the victory.

Decisions: `harvested` is a list of card values (each a whole number or a sum
like "4+3"), a sum string ("10+20-10"), or values separated by commas; the
values are not checked against a card list (the seed prints none). The token
supply of a kind is `tokens_per_box` per box; a record may say `boxes: 1` or
`boxes: 2`, and without it a game of more than `one_box_players` players is
taken to use two boxes. More tokens of a kind over all players than that supply
is a warning, not an error: the split of « les quinze jetons Légume » by kind
is a house number, and the sheet holds any count. A record may name a kind by
its old name (`token_aliases`); giving both names for one player is an error.

The pad has a tick box per player on each majority row (`majority_<kind>`): a player
ticks the majorities they believe they won. The scorer counts the tokens, not the
ticks; a record may give them (`majorities`, the kinds ticked) and `check` warns
where they disagree with the tokens.
"""

from __future__ import annotations

import re

from sheetgen.games.base import Game, PlayerScore, Reads, Written, leaders, number_of, sum_disagrees
from sheetgen.games.base import pad_players as player_range
from sheetgen.games.fields import Count
from sheetgen.numbers import parse_number
from sheetgen.schema import INVALID, Field, Int, ListOf, Map, Spec, Str, Where, describe

VALUE_HELP = "a whole number or a sum like 10+20-5"
VALUES_HELP = "a list like [4, -2, 3] or a sum like 10+20-10"


def token_kinds(layout) -> list[str]:
    kinds = layout.constants["token_kinds"]
    return list(kinds) if isinstance(kinds, list) else [kinds]


def token_aliases(layout) -> dict[str, str]:
    """Old name -> kind, for records made when the pad named the vegetables."""
    old = layout.constants.get("token_aliases", [])
    return dict(zip(old if isinstance(old, list) else [old], token_kinds(layout)))


def majority_bonus(layout) -> int:
    return layout.constants["majority_bonus"]


def default_boxes(layout, players: int) -> int:
    """Boxes a game of `players` players needs: one up to `one_box_players`, else two."""
    return 1 if players <= layout.constants["one_box_players"] else 2


def supply(layout, boxes: int) -> int:
    """How many tokens of each kind exist with this many boxes."""
    return layout.constants["tokens_per_box"] * boxes


class CardValue(Spec):
    """One harvested card's value (or a sum of several): may be negative."""

    description = VALUE_HELP

    def check(self, value, ctx, at):
        n = parse_number(value)
        if n is None:
            return ctx.error(at, f"expected a card value ({VALUE_HELP}), got {describe(value)}")
        return n


class CardValues(ListOf):
    """Harvested card values: a list, a sum string or comma-separated values -> a list of ints.

    A ListOf, so that `score --interactive` accepts values typed with commas."""

    description = f"{VALUES_HELP}; negative values stay negative"

    def __init__(self):
        super().__init__(CardValue())

    def check(self, value, ctx, at):
        if isinstance(value, list):
            return super().check(value, ctx, at)
        if isinstance(value, str) and "," in value:
            parts = [parse_number(p) for p in value.split(",")]
            if None not in parts:
                return parts
        else:
            n = parse_number(value)
            if n is not None:
                return [n]
        return ctx.error(at, f"expected card values ({VALUES_HELP}), got {describe(value)}")


class TokenCounts(Map):
    """Tokens won per kind: a mapping of the kinds (or their old names) to counts."""

    def __init__(self, kinds: list[str], aliases: dict[str, str]):
        super().__init__(
            {k: Field(Count(0, None), default=0, doc=f"{k} tokens won") for k in kinds},
            what=f"a mapping of {', '.join(kinds)}",
        )
        self.aliases = aliases

    def check(self, value, ctx, at):
        if not isinstance(value, dict) or not self.aliases:
            return super().check(value, ctx, at)
        ok = True
        for key in value:
            if key not in self.fields and key not in self.aliases:
                ctx.error(
                    at.child(value, key),
                    f"unknown key; accepted keys: {', '.join(self.fields)} (old names: {', '.join(self.aliases)})",
                )
                ok = False
            elif self.aliases.get(key) in value:
                ctx.error(
                    at.child(value, key), f"both '{self.aliases[key]}' and its old name '{key}' are given; keep one"
                )
                ok = False
        out = {k: 0 for k in self.fields}
        for key, item in value.items():
            kind = self.aliases.get(key, key)
            if kind in self.fields and not (key != kind and kind in value):
                got = self.fields[kind].spec.check(item, ctx, at.child(value, key))
                ok = ok and got is not INVALID
                out[kind] = got
        return out if ok else INVALID


def player_fields(layout) -> dict:
    kinds = token_kinds(layout)
    return {
        "harvested": Field(CardValues(), required=True, doc="values of the cards in the player's pile"),
        "tokens": Field(
            TokenCounts(kinds, token_aliases(layout)), default=lambda: {k: 0 for k in kinds}, doc="vegetable tokens won"
        ),
        "majorities": Field(
            ListOf(Str(choices=kinds), 0, len(kinds)),
            doc=f"optional: the majorities the player ticked ({', '.join(kinds)}); a cross-check, "
            "warned of where the tokens give otherwise",
        ),
    }


def record_fields(layout) -> dict:
    one = layout.constants["one_box_players"]
    lo, hi = player_range(layout)
    return {
        "boxes": Field(
            Int(1, 2), doc=f"boxes played with: 1 ({lo}-{one} players) or 2 (up to {hi}); sets the token supply"
        )
    }


def blank_player(layout) -> dict:
    return {"harvested": [], "tokens": {k: 0 for k in token_kinds(layout)}}


def blank_record(layout, names: list[str]) -> dict:
    return {"boxes": default_boxes(layout, len(names))}


def _row_label(layout, row_id: str) -> dict:
    """A score-table row's label, as printed on the pad, in both languages."""
    rows = layout.element("score")["rows"] if layout.has("score") else []
    row = next((r for r in rows if r["id"] == row_id and r.get("label")), None)
    if row is None:  # a variant without that row: the key itself
        return {"fr": row_id, "en": row_id}
    return {lang: layout.env(lang).t(row["label"]) for lang in ("fr", "en")}


def categories(layout) -> list:
    return [("harvested", _row_label(layout, "harvested"))] + [
        (f"majority_{k}", _row_label(layout, f"majority_{k}")) for k in token_kinds(layout)
    ]


def check(layout, record, report) -> None:
    players = record["players"]
    raw = record["_node"]
    n = len(players)
    boxes = record.get("boxes")
    lo, hi = player_range(layout)
    one = layout.constants["one_box_players"]
    if boxes == 1 and n > one:
        report.error(
            Where(raw, "boxes", "boxes"),
            f"one box plays {lo}-{one} players, this record has {n} (two boxes play up to {hi})",
        )
        return
    used = boxes or default_boxes(layout, n)
    have = supply(layout, used)
    held = "one box holds" if used == 1 else "two boxes hold"
    hint = "" if boxes or used > 1 else "; if you played with two boxes, add 'boxes: 2' to the record"
    for kind in token_kinds(layout):
        total = sum(p["tokens"][kind] for p in players)
        if total > have:
            who = ", ".join(f"{p['name']} {p['tokens'][kind]}" for p in players if p["tokens"][kind])
            report.warn(
                None,
                f"{total} {kind} tokens in all ({who}), more than the {have} of a kind that {held} "
                f"by our house count (the rules give fifteen tokens a box, not how many of each)"
                f"{hint}",
            )
    if any(p.get("majorities") is not None for p in players):
        _check_ticks(layout, players, report)


def _check_ticks(layout, players: list, report) -> None:
    """The majorities a player ticked (`majorities`) against the tokens (the one player with
    the most, at least 1; a tie gives it to nobody): a warning for each that differs."""
    for kind in token_kinds(layout):
        counts = [p["tokens"][kind] for p in players]
        top = leaders(counts)
        for i, p in enumerate(players):
            ticked = p.get("majorities")
            if ticked is None:
                continue
            if kind in ticked and top != {i}:
                if len(top) > 1:
                    tied = ", ".join(players[j]["name"] for j in sorted(top))
                    why = f"a tie for the lead ({tied}) gives it to nobody"
                elif top:
                    j = next(iter(top))
                    why = f"{players[j]['name']} has the most ({counts[j]})"
                else:
                    why = "nobody has any"
                report.warn(i, f"majorities: the {kind} majority is ticked, but {counts[i]} {kind} tokens: {why}")
            elif top == {i} and kind not in ticked:
                report.warn(
                    i, f"majorities: {counts[i]} {kind} tokens, the most, but the {kind} majority is not ticked"
                )


def score(layout, record) -> list[PlayerScore]:
    players = record["players"]
    bonus = majority_bonus(layout)
    out = [{"harvested": sum(p["harvested"])} for p in players]
    for kind in token_kinds(layout):
        top = leaders([p["tokens"][kind] for p in players])
        for i, b in enumerate(out):
            b[f"majority_{kind}"] = bonus if top == {i} else 0
    return [PlayerScore(p["name"], b) for p, b in zip(players, out)]


def record_from_sheets(layout, sheets: list[dict]) -> dict:
    """Players from a filled fillable pad (sheetgen.scoring.pdfread): the card
    values written (one a line, or separated by commas or semicolons; else, or when a photo
    left them to type, the sum box) and the tokens won; the majorities ticked, when a pad's
    majority rows have a tick."""
    players, ticks = [], []
    kinds = token_kinds(layout)
    for m in sheets:
        for i, name in enumerate(m["player_names"]):
            values = ",".join(v for v in re.split(r"[;,\n]", m["harvest_values"][i] or "") if v.strip())
            tokens = {k: m[f"tokens_{k}"][i] for k in kinds if m[f"tokens_{k}"][i]}
            summed = m["harvested"][i]
            harvested = summed if values == UNREAD and summed not in ("", UNREAD) else values or summed
            if not (name or harvested or tokens):
                continue  # an unused column of the pad
            players.append(
                {"name": name or f"Player {len(players) + 1}", "harvested": harvested or 0, "tokens": tokens}
            )
            ticks.append([k for k in kinds if _ticked(m.get(f"majority_{k}"), i)])
    if any(ticks):
        for p, ticked in zip(players, ticks):
            p["majorities"] = ticked
    return {"players": players}


def _ticked(column: list | None, i: int) -> bool:
    """Whether player column i of a majority row holds a tick (a row of tick boxes: True;
    a pad whose majority rows are write-in boxes holds text, and no tick)."""
    return bool(column) and i < len(column) and column[i] is True


UNREAD = "?"  # a box a photo showed written in but could not read (sheetgen.scan): the player types it


def _column(row: str, i: int) -> str:
    return f"{row}_p{i}"  # (a score table's row in player column i: layout.elements.common.player_field)


def written(layout, players: int) -> dict:
    """The numbers of a pad printed for `players`: each player's card values (a list, each
    as a card may be, negative too) and their sum, tokens of each kind (at most what two
    boxes hold), and, to check those against, the total. (The majorities are ticks.)"""
    card, most = Written(None, None), supply(layout, 2)
    out = {}
    for i in range(1, players + 1):
        out[_column("harvest_values", i)] = Written(None, None, many=True)
        out[_column("harvested", i)] = card
        for kind in token_kinds(layout):
            out[_column(f"tokens_{kind}", i)] = Written(0, most)
        out[_column("total", i)] = Written(None, None, record=False)
    return out


def disagreements(layout, values: dict) -> list[tuple]:
    """A player's card values that do not add up to their sum (or whose sum is not read:
    a list of values is easily misread, two values run together); where the pad's majority
    ticks are used (one at least is ticked), a total that is not the sum plus the bonuses
    ticked, and the tokens of a kind whose ticks are not where the rules give the bonus (to
    the one player with the most, at least 1). A tick not read sure checks nothing."""
    out = []
    players = 0
    while any(_column(row, players + 1) in values for row in ("harvested", "harvest_values", "total")):
        players += 1
    kinds = token_kinds(layout)
    ticks = {f: v for f, v in values.items() if f.startswith("majority_") and isinstance(v, bool)}
    used = any(ticks.values())  # (no tick at all: the players let the scorer give the bonuses)
    # each tick read sure as the bonus it gives, a number to add up
    worth = {**values, **{f: majority_bonus(layout) if v else 0 for f, v in ticks.items()}}
    for i in range(1, players + 1):
        values_, summed = _column("harvest_values", i), _column("harvested", i)
        listed = values.get(values_, UNREAD) not in (None, UNREAD)
        # card values are kept only when their sum says the same; a sum written with no values
        # beside it (they count 0) is left to type too: nothing checks it, and a struck-out
        # sum read with its struck digits (7 as 777) would be kept
        if sum_disagrees(values, [values_], summed) or (listed and number_of(values, summed, None) is None):
            out.append((values_, summed))
        bonuses = [_column(f"majority_{k}", i) for k in kinds]
        if used and sum_disagrees(worth, [summed, *bonuses], _column("total", i)):
            out.append((summed, _column("total", i)))
    for kind in kinds:
        tokens = [_column(f"tokens_{kind}", i) for i in range(1, players + 1)]
        given = [ticks.get(_column(f"majority_{kind}", i)) for i in range(1, players + 1)]
        held = [number_of(values, f) for f in tokens]
        if not used or None in held or None in given:
            continue
        top = leaders(held)
        if given != [top == {i} for i in range(players)]:
            out.append(tuple(tokens))
    return out


GAME = Game(
    id="plante-bataille",
    reads=Reads(constants=("token_kinds", "majority_bonus", "tokens_per_box", "one_box_players")),
    player_fields=player_fields,
    record_fields=record_fields,
    blank_player=blank_player,
    blank_record=blank_record,
    categories=categories,
    check=check,
    score=score,
    record_from_sheets=record_from_sheets,
    written=written,
    disagreements=disagreements,
)
