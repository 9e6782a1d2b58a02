"""Cells of a grid as (row, column) pairs (ground: no sheetgen imports)."""

from __future__ import annotations


def groups(cells) -> list[list[tuple[int, int]]]:
    """The orthogonally connected groups of `cells`, each sorted, in sorted order."""
    left = set(cells)
    out = []
    while left:
        start = min(left)
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
