"""Cells of a grid as (row, column) pairs (ground: no sheetgen imports)."""

from __future__ import annotations


def groups(cells) -> list[list[tuple[int, int]]]:
    """The orthogonally connected groups of `cells`, each sorted, in sorted order."""
    left = set(cells)
    out = []
    for start in sorted(left):
        if start not in left:
            continue
        left.discard(start)
        todo, group = [start], []
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in left:
                    left.discard(nb)
                    todo.append(nb)
        out.append(sorted(group))
    return sorted(out)


def stray_groups(rows: list[str]) -> dict[str, list[list[tuple[int, int]]]]:
    """For each character of `rows` (strings, one per row): the groups() of the cells
    holding it but the first, i.e. the groups apart from the first one. Each character's
    cells are first flood-filled as the bits of one integer (each row one bit longer than
    the widest, so that no shift wraps to the next row): when they make one group (a valid
    garden), the answer is found in a few integer operations, without listing cells."""
    stride = max((len(row) for row in rows), default=0) + 1
    masks: dict[str, int] = {}
    for r, row in enumerate(rows):
        for c, x in enumerate(row):
            masks[x] = masks.get(x, 0) | 1 << (r * stride + c)
    out = {}
    for ch, mask in masks.items():
        grown, seen = mask & -mask, 0
        while grown != seen:
            seen = grown
            grown = (seen | seen << 1 | seen >> 1 | seen << stride | seen >> stride) & mask
        if grown == mask:
            out[ch] = []
        else:
            out[ch] = groups((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch)[1:]
    return out
