"""No record of any game, however malformed, makes the scorer crash."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetgen.errors import SheetgenError
from sheetgen.games import game_for
from sheetgen.layout.model import load_layout
from sheetgen.layout.resolve import builtin_ids
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
