"""Ranks and winners, shared by every game.

Players are ordered by (total, tiebreak...), higher first. Equal keys share a
rank and the next rank skips (1, 1, 3). The winners are every player ranked 1:
a tie that the game's tie-breakers leave unbroken is a shared victory.
"""

from __future__ import annotations


def ranks(keys: list[tuple]) -> list[int]:
    """Competition ranks ("1224") of the keys, higher key = better: 1 + how many keys are
    higher, i.e. where the first equal key stands once they are sorted, best first."""
    best_first = sorted(keys, reverse=True)
    return [1 + best_first.index(key) for key in keys]


def rank_players(scores) -> tuple[list[int], list[str]]:
    keys = [(s.total, *s.tiebreak) for s in scores]
    r = ranks(keys)
    return r, [s.name for s, n in zip(scores, r) if n == 1]
