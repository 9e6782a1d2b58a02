"""The `score_table` element: a score pad, one row per category and one column per
player (write-in, names, total, winner, heading and small-board grid rows).
"""

from __future__ import annotations

from sheetgen.layout.display import INK, Box, Icon, Rect, Text
from sheetgen.layout.elements.common import (
    ElementType,
    IconName,
    IdStr,
    IntRef,
    Label,
    _badge,
    cell_field,
    player_field,
)
from sheetgen.schema import Bool, Field, Length, ListOf, Map, Pair, Str

ST_ROW = Map(
    {
        "id": Field(IdStr(), required=True),
        "label": Field(Label(), default=None),
        "icon": Field(IconName()),
        "hint": Field(Label()),
        "height": Field(Length(4, 80), default=10.0),
        "kind": Field(Str(choices=("write", "names", "total", "winner", "grid", "heading")), default="write"),
        "grid": Field(Pair(IntRef(1, 12), "[columns, rows]")),
        # grid rows: `wide` spreads the copies over the label column too when the player
        # columns are too narrow for cells of 5 mm (the label on a strip above, each
        # player's copy numbered like the names row's `numbered` cells); `col_labels` are
        # printed under each copy's columns; `from_bottom` numbers the cells' rows from the
        # bottom (r1 the lowest, as a board counts them)
        "wide": Field(Bool(), default=False),
        "col_labels": Field(ListOf(Label())),
        "from_bottom": Field(Bool(), default=False),
        "numbered": Field(Bool(), default=False),  # names rows: each player's number in a corner
        "count": Field(Label()),  # a small box, captioned so, before the points in each cell (leaves, tokens...)
        "verified": Field(Bool(), default=True),
    },
    what="a row mapping",
)


def _st_post(el, ctx, at):
    for n, row in enumerate(el["rows"]):
        if row["kind"] == "grid" and "grid" not in row:
            return ctx.error(at, f"rows[{n}]: a 'grid' row needs grid: [columns, rows]")
        if row.get("count") and row["kind"] != "write":
            return ctx.error(at, f"rows[{n}]: 'count' goes on write rows only")
        for key in ("wide", "col_labels", "from_bottom"):
            if row.get(key) and row["kind"] != "grid":
                return ctx.error(at, f"rows[{n}]: '{key}' goes on grid rows only")
        if row["numbered"] and row["kind"] != "names":
            return ctx.error(at, f"rows[{n}]: 'numbered' goes on names rows only")
    return el


SCORE_TABLE_FIELDS = {
    "width": Field(Length(20, 300), required=True),
    "label_width": Field(Length(10, 200), default=50.0),
    "rows": Field(ListOf(ST_ROW, 1, 60), required=True),
}


def _st_size(el):
    return el["width"], sum(r["height"] for r in el["rows"])


ST_STRIP = 6.0  # a wide row's strip for its label and hint
ST_BADGE = 2.2  # radius of a player's number badge
ST_COL_LABEL = 3.4  # height of the labels under a grid's columns
ST_MAX_CELL = 7.0
ST_MIN_CELL = 5.0  # a wide grid row spreads its copies over the whole table below this cell size


def _st_cell(row, cw) -> float:
    """The cell size of a grid row's copy in a player column `cw` wide."""
    cols, rows = row["grid"]
    labels = ST_COL_LABEL if row.get("col_labels") else 0.0
    return min((cw - 2) / cols, (row["height"] - 2 - labels) / rows)


LABEL_INSET = 0.25  # mm: a column label's room is its cell less this on each side


def _st_grid(gx, gy, cell, row, fname, env, p) -> list:
    """One player's copy of a board: mini boxes, then the column labels under them."""
    cols, rows = row["grid"]
    out = []
    for gr in range(rows):
        r = rows - gr if row["from_bottom"] else gr + 1
        for gc in range(cols):
            out.append(Box(gx + gc * cell, gy + gr * cell, cell, cell, "mini", False, cell_field(fname, r, gc + 1)))
    # (each label inset by LABEL_INSET on both sides: side by side under small cells, labels
    # fitted to the whole cell ran together, "×1×2×3" on a five-player pad of narrow boards)
    for c, lab in enumerate((row.get("col_labels") or [])[:cols]):
        out.append(
            Text(
                gx + c * cell + LABEL_INSET,
                gy + rows * cell,
                cell - 2 * LABEL_INSET,
                ST_COL_LABEL,
                env.t(lab, f"{p}.col_labels[{c}]"),
                "sans-bold",
                7.0,
                "center",
                color="#444444",
                path=f"{p}.col_labels[{c}]",
            )
        )
    return out


def _st_wide_grid(x, ry, width, row, n, env, p, house=False) -> list:
    """A grid row across the whole table: its label (marked when `house`, an unverified
    row) and hint on a strip, then one numbered copy per player, side by side (wider cells
    than the player columns allow)."""
    h = row["height"]
    cols, rows = row["grid"]
    lw = min(width * 0.3, 46.0)
    out = [Rect(x, ry, width, h, INK, "#ffffff", 0.5), Rect(x, ry, width, ST_STRIP, INK, env.tint, 0.5)]
    ix = x + 1.5
    if row.get("icon"):
        out.append(Icon(ix, ry + 0.75, ST_STRIP - 1.5, row["icon"]))
        ix += ST_STRIP
    if row.get("label"):
        out.append(
            Text(
                ix,
                ry,
                x + lw - ix,
                ST_STRIP,
                env.t(row["label"], p + ".label", house),
                "condensed-bold",
                8.5,
                path=p + ".label",
            )
        )
    if row.get("hint"):
        out.append(
            Text(
                x + lw,
                ry,
                width - lw - 1.5,
                ST_STRIP,
                env.t(row["hint"], p + ".hint"),
                "condensed",
                7.5,
                color="#444444",
                path=p + ".hint",
            )
        )
    sw = width / n
    labels = ST_COL_LABEL if row.get("col_labels") else 0.0
    top = ry + ST_STRIP + 2 * ST_BADGE + 1.0
    cell = min(ST_MAX_CELL, (sw - 2) / cols, (ry + h - top - labels - 1.0) / rows)
    for i in range(n):
        sx = x + i * sw
        if i:
            out.append(Rect(sx, ry + ST_STRIP, 0, h - ST_STRIP, INK, None, 0.5))
        gx = sx + (sw - cell * cols) / 2
        out += _badge(gx + ST_BADGE, ry + ST_STRIP + ST_BADGE + 0.5, ST_BADGE, i + 1, env, p, "", env.tint)
        out += _st_grid(gx, top, cell, row, player_field(row["id"], i + 1), env, p)
    return out


def _st_build(el, env):
    x, y = el["x"], el["y"]
    lw = el["label_width"]
    n = max(env.players, 1)
    cw = (el["width"] - lw) / n
    out = []
    ry = y
    for r, row in enumerate(el["rows"]):
        h = row["height"]
        p = f"{el['_path']}.rows[{r}]"
        kind = row["kind"]
        fill = env.tint if kind in ("total", "names", "heading") else None
        if kind == "heading":
            out.append(Rect(x, ry, el["width"], h, INK, env.accent, 0.5))
            out += (
                [
                    Text(
                        x + 2,
                        ry,
                        el["width"] - 4,
                        h,
                        env.t(row["label"], p + ".label"),
                        "sans-bold",
                        9,
                        color="#ffffff",
                        path=p + ".label",
                    )
                ]
                if row.get("label")
                else []
            )
            ry += h
            continue
        if row.get("wide") and _st_cell(row, cw) < ST_MIN_CELL - 1e-9:
            out += _st_wide_grid(x, ry, el["width"], row, n, env, p, env.is_house(f"{el['id']}.rows[{r}]"))
            ry += h
            continue
        out.append(Rect(x, ry, lw, h, INK, fill or "#ffffff", 0.5))
        ix = x + 1.5
        if row.get("icon"):
            s = min(h - 2, 8.0)
            out.append(Icon(ix, ry + (h - s) / 2, s, row["icon"]))
            ix += s + 1.5
        label_h = h if not row.get("hint") else min(h * 0.5, 4.6)
        if row.get("label"):
            house = env.is_house(f"{el['id']}.rows[{r}]")
            out.append(
                Text(
                    ix,
                    ry + (0.5 if row.get("hint") else 0),
                    x + lw - ix - 1,
                    label_h,
                    env.t(row["label"], p + ".label", house),
                    "condensed-bold",
                    8.5,
                    path=p + ".label",
                )
            )
        if row.get("hint"):
            out.append(
                Text(
                    ix,
                    ry + label_h,
                    x + lw - ix - 1,
                    h - label_h - 0.5,
                    env.t(row["hint"], p + ".hint"),
                    "condensed",
                    7.0,
                    valign="top",
                    color="#444444",
                    path=p + ".hint",
                )
            )
        for i in range(n):
            bx = x + lw + i * cw
            fname = player_field(row["id"], i + 1)
            if kind == "grid":
                cols, rows = row["grid"]
                labels = ST_COL_LABEL if row.get("col_labels") else 0.0
                cell = _st_cell(row, cw)
                gx, gy = bx + (cw - cell * cols) / 2, ry + (h - cell * rows - labels) / 2
                out.append(Rect(bx, ry, cw, h, INK, "#ffffff", 0.5))
                out += _st_grid(gx, gy, cell, row, fname, env, p)
            elif kind == "winner":
                out.append(Rect(bx, ry, cw, h, INK, "#ffffff", 0.5))
                s = min(h - 2, 8.0)
                out.append(Box(bx + (cw - s) / 2, ry + (h - s) / 2, s, s, "check", False, fname))
            else:
                pw = cw
                if row.get("count"):  # the count the points come from, in a small tinted box
                    sw = min(cw * 0.4, 14.0)
                    out.append(Box(bx, ry, sw, h, "write", False, fname + "_count", fill=env.tint))
                    out.append(
                        Text(
                            bx + 0.5,
                            ry + 0.4,
                            sw - 1.0,
                            2.4,
                            env.t(row["count"], p + ".count"),
                            "condensed",
                            5.6,
                            "center",
                            "top",
                            "#666666",
                            path=p + ".count",
                            hint=True,
                        )
                    )
                    bx, pw = bx + sw, cw - sw
                out.append(Box(bx, ry, pw, h, "write", False, fname, fill=fill or "#ffffff"))
                if row["numbered"]:
                    out += _badge(bx + ST_BADGE + 0.8, ry + ST_BADGE + 0.8, ST_BADGE, i + 1, env, p, "", env.tint)
        if kind == "total":
            out.append(Rect(x, ry, el["width"], h, INK, None, 1.6))
        ry += h
    out.append(Rect(x, y, el["width"], ry - y, INK, None, 1.2))
    return out


def _columns(values: dict, table: dict) -> int:
    """How many player columns the filled pad has (its first row's fields tell)."""
    rid = next(r["id"] for r in table["rows"] if r["kind"] != "heading")
    n = 0
    while player_field(rid, n + 1) in values or any(k.startswith(player_field(rid, n + 1) + "_") for k in values):
        n += 1
    return n


def _st_read(el, values: dict, warnings: list | None = None) -> dict:
    """Per row id, one entry per player column: the text, the winner box's state, or for
    a grid row the grid's rows of booleans; a row's small count boxes under
    `<row id>_count`; the names row also under `player_names`."""
    marks: dict = {}
    players = range(1, _columns(values, el) + 1)
    for row in el["rows"]:
        rid, kind = row["id"], row["kind"]
        if kind == "heading":
            continue
        if kind == "grid":
            cols, rows = row["grid"]
            marks[rid] = [
                [
                    [values.get(cell_field(player_field(rid, i), r, c)) is True for c in range(1, cols + 1)]
                    for r in range(1, rows + 1)
                ]
                for i in players
            ]
            continue
        marks[rid] = [values.get(player_field(rid, i), "" if kind != "winner" else False) for i in players]
        if kind == "names":
            marks["player_names"] = marks[rid]
        if row.get("count"):
            marks[f"{rid}_count"] = [values.get(player_field(rid, i) + "_count", "") for i in players]
    return marks


TYPE = ElementType(
    "score_table",
    SCORE_TABLE_FIELDS,
    _st_size,
    _st_build,
    post=_st_post,
    read=_st_read,
    player_columns=True,
    doc="a score pad: one row per category, one column per player",
)
