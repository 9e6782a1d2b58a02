"""Ranks and winners, shared by every game.

Players are ordered by (total, tiebreak...), higher first. Equal keys share a
rank and the next rank skips (1, 1, 3). The winners are every player ranked 1:
a tie that the game's tie-breakers leave unbroken is a shared victory.
"""

from __future__ import annotations


def ranks(keys: list[tuple]) -> list[int]:
    """Competition ranks ("1224") of the keys, higher key = better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rank_players(scores) -> tuple[list[int], list[str]]:
    keys = [(s.total, *s.tiebreak) for s in scores]
    r = ranks(keys)
    return r, [s.name for s, n in zip(scores, r) if n == 1]
