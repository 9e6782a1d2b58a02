"""Ranks and winners, shared by every game.

Players are ordered by (total, tiebreak...), higher first. Equal keys share a
rank and the next rank skips (1, 1, 3). The winners are every player ranked 1:
a tie that the game's tie-breakers leave unbroken is a shared victory.
"""

from __future__ import annotations


def rank_players(scores) -> tuple[list[int], list[str]]:
    """(the competition ranks ("1224") of the players, the names of those ranked 1). A
    player's rank is 1 + how many keys are higher, i.e. where the first key equal to
    theirs stands once the keys are sorted, best first. One loop: every record runs it."""
    keys = [(s.total, *s.tiebreak) for s in scores]
    best_first = sorted(keys, reverse=True)
    ranks, winners = [], []
    for s, key in zip(scores, keys):
        rank = best_first.index(key) + 1
        ranks.append(rank)
        if rank == 1:
            winners.append(s.name)
    return ranks, winners
