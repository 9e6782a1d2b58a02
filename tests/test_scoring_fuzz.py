"""No record of any game, however malformed, makes the scorer crash."""

from __future__ import annotations

import contextlib
import copy
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgen.errors import SheetgenError
from sheetgen.games import game_for, load_layout
from sheetgen.layout.resolve import builtin_ids
from sheetgen.scoring import record as record_module
from sheetgen.scoring.api import score_many
from sheetgen.scoring.record import score_data

LAYOUTS = builtin_ids()
scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from(["3+4", "-2", "x", "", "1e9"]), st.text(max_size=5)
)
junk = st.recursive(
    scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=9), st.dictionaries(st.text(max_size=9), inner, max_size=4)),
    max_leaves=20,
)


@st.composite
def records(draw):
    lid = draw(st.sampled_from(LAYOUTS))
    layout = load_layout(lid)
    game = game_for(layout)
    fields = game.player_fields(layout)
    blank = game.blank_player(layout)
    players = []
    for n in range(draw(st.integers(0, 6))):
        p = {"name": draw(st.one_of(st.just(f"P{n}"), scalar))}
        for key in fields:
            choice = draw(st.integers(0, 3))
            if choice == 0:
                p[key] = blank.get(key)
            elif choice == 1:
                p[key] = draw(junk)
            elif choice == 2 and isinstance(blank.get(key), dict):
                p[key] = {k: draw(st.one_of(st.just(v), junk)) for k, v in blank[key].items()}
            elif choice == 2 and isinstance(blank.get(key), list):
                p[key] = [draw(st.one_of(st.just(v), scalar)) for v in blank[key]] + draw(st.lists(scalar, max_size=2))
        players.append(p)
    record = {"layout": lid, "players": players}
    if draw(st.booleans()):
        record["round8_order"] = draw(st.one_of(junk, st.lists(st.sampled_from(["P0", "P1", "P9"]), max_size=4)))
    return record


def assert_scores_or_clean_error(record) -> None:
    """Either the contract object (JSON-serialisable, with ranks and winners) or
    SheetgenError problems that all name the record's file."""
    try:
        result = score_data(record, "fuzz.yaml").contract()
    except SheetgenError as exc:
        assert exc.lines and all(p.startswith("fuzz.yaml") for p in exc.lines), exc.lines
        return
    json.dumps(result)
    assert [p["rank"] for p in result["players"]] and result["winners"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_any_record_scores_or_is_a_clean_error(record):
    assert_scores_or_clean_error(record)


# Harvest Dice records whose every level may be junk (not only the fields' values).
hd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["CCTT..", "10+20-10", "1e999", "-0", "......"]),
)
hd_values = st.recursive(
    hd_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
hd_players = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.text(max_size=6), hd_values),
        "garden": st.one_of(st.lists(st.text(alphabet="CST.X", min_size=0, max_size=7), max_size=4), hd_values),
        "pig": st.one_of(st.integers(-5, 50), hd_values),
        "market": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={k: st.one_of(st.integers(-2, 8), hd_values) for k in ("carrot", "salad", "tomato", "beet")},
            ),
            hd_values,
        ),
        "extra": hd_values,
    },
)
hd_records = st.one_of(
    hd_values,
    st.fixed_dictionaries(
        {"layout": st.one_of(st.sampled_from(["harvest-dice-normal", "harvest-dice-advanced"]), hd_values)},
        optional={"players": st.one_of(st.lists(hd_players, max_size=5), hd_values), "x": hd_values},
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hd_records)
def test_no_harvest_dice_record_produces_a_traceback(data):
    assert_scores_or_clean_error(data)


# The quick path (scoring.record._quick and the compiled Spec.quick checkers) against the
# slow, validating path, over records that are mostly valid: both must give the same
# contract object, or the same error lines, for every record. Each field is either valid
# as written, valid but in a form only the slow path normalises (a sum, a padded name,
# a lower-case garden row), or wrong in one small way.
def _one_of(draw, *choices):
    return draw(st.sampled_from(choices))


@st.composite
def near_valid_hd_records(draw):
    lid = draw(st.sampled_from(["harvest-dice-normal", "harvest-dice-advanced"]))
    pre = 1 if lid.endswith("normal") else 0
    market = {veg: draw(st.integers(pre, 6)) for veg in ("carrot", "salad", "tomato")}
    players = []
    for n in range(draw(st.integers(1, 5))):
        garden = [draw(st.text(alphabet="CST.", min_size=6, max_size=6)) for _ in range(3)]
        p = {
            "name": draw(st.sampled_from([f"P{n}", f" P{n} ", "P0", n, "", "x" * 61])),
            "garden": garden,
            "pig": draw(st.integers(0, 42)),
            "market": dict(market) if draw(st.integers(0, 4)) else {**market, "salad": draw(st.integers(pre, 6))},
        }
        tweak = draw(st.integers(0, 14))
        if tweak == 1:
            p["pig"] = _one_of(draw, "3+4", "40+5", -1, 43, True, 7.0, "seven")
        elif tweak == 2:
            p["market"]["carrot"] = _one_of(draw, "1+2", 0, 7, None, "2 ")
        elif tweak == 3:
            garden[draw(st.integers(0, 2))] = _one_of(draw, "ccsstt", " CCSST. ", "CCSST", "CCSSTTT", "CCSSX.", 7)
        elif tweak == 4:
            p["garden"] = garden[:2]
        elif tweak == 5:
            p["extra"] = 1
        elif tweak == 6:
            del p[_one_of(draw, "name", "garden", "pig", "market")]
        elif tweak == 7:
            p["market"]["beet"] = 1
        players.append(p)
    record = {"layout": lid, "players": players}
    extra = draw(st.integers(0, 8))
    if extra == 1:
        record["date"] = _one_of(draw, "2026-11-30", "2026-11-30 20:15", "yesterday")
    elif extra == 2:
        record["notes"] = _one_of(draw, "a game", 3)
    elif extra == 3:
        record["players"] = []
    return record


@contextlib.contextmanager
def _no_quick_path():
    """Every record validated the slow way (what the quick path falls back to)."""
    quick = record_module._quick
    record_module._quick = lambda *a: None
    try:
        yield
    finally:
        record_module._quick = quick


def outcome(record):
    """The contract object of a record, or its error lines."""
    try:
        return score_data(copy.deepcopy(record), "fuzz.yaml").contract()
    except SheetgenError as exc:
        return exc.lines


@st.composite
def near_valid_records(draw):
    """A record of any built-in layout: blank players whose whole numbers are redrawn
    small (or typed as a sum), so that many of them are valid."""
    lid = draw(st.sampled_from(LAYOUTS))
    layout = load_layout(lid)
    game = game_for(layout)
    lo, hi = game.player_range(layout)

    def redraw(node):
        if isinstance(node, dict):
            return {k: redraw(v) for k, v in node.items()}
        if isinstance(node, list):
            return [redraw(v) for v in node]
        if isinstance(node, int) and not isinstance(node, bool):
            return draw(st.one_of(st.integers(-1, 8), st.sampled_from(["2+3", node])))
        return node

    players = [{"name": f"P{n}", **redraw(game.blank_player(layout))} for n in range(draw(st.integers(lo, min(hi, 5))))]
    return {"layout": lid, "players": players}


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(near_valid_hd_records(), near_valid_records(), records()))
def test_the_quick_path_and_the_slow_path_agree(record):
    quick = outcome(record)
    with _no_quick_path():
        assert outcome(record) == quick


def test_the_quick_path_takes_most_valid_records_and_scores_them_as_the_slow_path(monkeypatch):
    """Many random Harvest Dice games, all valid (so many warnings): the comparison above
    only proves something if the quick path is the one that scores such records."""
    rng = random.Random(15)
    taken = []
    real = record_module._quick

    def spy(*args):
        got = real(*args)
        taken.append(got is not None)
        return got

    games = []
    for _ in range(300):
        lid = rng.choice(["harvest-dice-normal", "harvest-dice-advanced"])
        market = {veg: rng.randint(1, 6) for veg in ("carrot", "salad", "tomato")}
        players = [
            {
                "name": f"P{n}",
                "garden": ["".join(rng.choice("CST.") for _ in range(6)) for _ in range(3)],
                "pig": rng.randint(0, 42),
                "market": market,
            }
            for n in range(rng.randint(1, 5))
        ]
        games.append({"layout": lid, "players": players})
    monkeypatch.setattr(record_module, "_quick", spy)
    quick = [outcome(g) for g in games]
    assert sum(taken) == len(games)
    assert score_many(copy.deepcopy(games), "fuzz.yaml") == quick
    with _no_quick_path():
        assert [outcome(g) for g in games] == quick
