"""Cells of a grid as (row, column) pairs (ground: no sheetgen imports)."""

from __future__ import annotations

from functools import lru_cache
from itertools import chain


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


def stray_groups(rows: list[str], chars: str | None = None) -> dict[str, list[list[tuple[int, int]]]]:
    """For each character of `rows` (strings, one per row), or each of `chars` found in them:
    the groups() of the cells holding it but the first, i.e. the groups apart from the first one."""
    strays = strays_each([rows], chars)[0]
    return {ch: strays.get(ch, []) for ch in dict.fromkeys("".join(rows)) if chars is None or ch in chars}


def strays_each(grids: list[list[str]], chars: str | None = None, shape: tuple[int, int] | None = None) -> list[dict]:
    """For each grid (rows of characters), the characters (of `chars`, or all) whose cells
    make more than one group, each with its groups but the first (as stray_groups): an
    empty dict for a grid whose every character is one group. `shape`: (rows, columns)
    of every grid, when the caller knows them all alike (a validated garden).

    All the grids are flood-filled at once, with integers. Every cell is a bit: the grids
    (ASCII text; others go cell by cell) are written one after another as one text, each
    after a blank row, each row ended by a blank cell (so that no shift wraps to the next
    row); one copy of that text per character, translated to 1 for its cells and 0 for
    the rest (bytes.translate, a loop in C), makes one binary number. The fill grows from
    the first cell of each grid's copy (found for all of them by one subtraction: its
    borrow stops at the first set bit of each grid, a sentinel in each blank row keeping
    it there) until it stops. When it covers every cell (valid gardens), that is the
    answer; otherwise the grids that are not covered are split into their groups."""
    if not grids:
        return []
    if chars is None:
        chars = "".join(dict.fromkeys("".join(map("".join, grids))))
    given = grids
    if shape is None:
        shape = len(grids[0]), len(grids[0][0]) if grids[0] else 0
        if set(map(len, grids)) != {shape[0]} or set(map(len, chain.from_iterable(grids))) != {shape[1]}:
            shape = max(map(len, grids)), max(map(len, chain.from_iterable(grids)), default=0)
            # ragged: every grid padded to the same rows and columns with blanks (NUL)
            blank = "\0" * shape[1]
            grids = [[row.ljust(shape[1], "\0") for row in rows] + [blank] * (shape[0] - len(rows)) for rows in grids]
    height, width = shape
    stride, n = width + 1, len(grids)
    size = (height + 1) * stride  # one grid and its blank row
    text = ("\0" * (stride + 1)).join(map("\0".join, grids)).join(("\0" * stride, "\0"))
    if not chars or "\0" in chars or len(text) != n * size or not text.isascii():
        return [_strays_by_cell(rows, chars) for rows in given]
    data = text.encode("ascii")
    # bit b is the character len(text) - 1 - b of the copies: grid g of copy k lies in bits
    # [(k * n + n - 1 - g) * size, (k * n + n - g) * size), its blank row on top
    whole = int(b"".join([data.translate(table) for table in _ones(chars)]), 2)
    firsts, sentinels = _grid_bits(len(chars) * n, size)
    marked = whole | sentinels
    grown, seen = ((marked - firsts) ^ marked) & whole, 0
    while grown != seen:
        seen = grown
        grown = (seen | seen << 1 | seen >> 1 | seen << stride | seen >> stride) & whole
    out: list[dict] = [{} for _ in grids]
    if grown == whole:  # every character of every grid is one group
        return out
    full, left = (1 << size) - 1, whole ^ grown  # the cells the fill did not reach
    while left:
        at = (left.bit_length() - 1) // size * size  # the grid copy holding the highest of them
        k, g = divmod(len(chars) * n - 1 - at // size, n)
        out[g][chars[k]] = _bit_groups(whole >> at & full, stride, size)[1:]
        left &= ~(full << at)
    return out


@lru_cache(maxsize=64)
def _grid_bits(count: int, size: int) -> tuple[int, int]:
    """The lowest and the highest bit of each of `count` stretches of `size` bits."""
    firsts = ((1 << count * size) - 1) // ((1 << size) - 1)
    return firsts, firsts << size - 1


def _bit_groups(bits: int, stride: int, size: int) -> list[list[tuple[int, int]]]:
    """groups() of the cells of one grid's bits (as strays_each lays them out)."""
    cell = _cells(stride, size)
    out = []
    while bits:
        grown, seen = 1 << bits.bit_length() - 1, 0  # the first cell left
        while grown != seen:
            seen = grown
            grown = (seen | seen << 1 | seen >> 1 | seen << stride | seen >> stride) & bits
        bits ^= grown
        group = []
        while grown:
            b = grown.bit_length() - 1
            group.append(cell[b])
            grown ^= 1 << b
        out.append(group)
    return out


@lru_cache(maxsize=64)
def _cells(stride: int, size: int) -> tuple:
    """The (row, column) of each bit of one grid's stretch (as strays_each lays it out;
    the blank row's bits, which hold no cell, give a negative row)."""
    return tuple(divmod(size - 1 - stride - b, stride) for b in range(size))


def _strays_by_cell(rows: list[str], chars: str | None) -> dict[str, list[list[tuple[int, int]]]]:
    out = {}
    for ch in dict.fromkeys("".join(rows)):
        if chars is None or ch in chars:
            strays = groups((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch)[1:]
            if strays:
                out[ch] = strays
    return out


@lru_cache(maxsize=128)
def _ones(chars: str) -> tuple[bytes, ...]:
    """For each character of `chars`, the bytes.translate table that turns it into 1 and
    any other byte into 0 (a character that is not ASCII: all 0)."""
    return tuple(bytes(b"01"[i == ord(ch)] for i in range(256)) for ch in chars)
