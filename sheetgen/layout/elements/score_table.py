"""The `score_table` element: a score pad, one row per category and one column per
player (write-in, names, total, winner, heading and small-board grid rows).
"""

from __future__ import annotations

from sheetgen.layout.display import DROPOUT_GREY, INK, MIN_BOX, Box, Icon, Rect, Text, tip, write_box
from sheetgen.layout.elements.common import (
    ElementType,
    IconName,
    IdStr,
    IntRef,
    Label,
    OneOrMany,
    _badge,
    cell_field,
    player_field,
    word,
)
from sheetgen.schema import Bool, Field, Length, ListOf, Map, Pair, Str


def _counts_spec() -> OneOrMany:
    """A row's `count`: one label, or a list of one or two (each a small captioned box
    before the points: column number, then pieces)."""
    return OneOrMany(Label(), 1, 2, lambda n: f"expected one or two count captions, got {n}")


ST_ROW = Map(
    {
        "id": Field(IdStr(), required=True),
        "label": Field(Label(), default=None),
        "icon": Field(IconName()),
        "hint": Field(Label()),
        "height": Field(Length(4, 80), default=10.0),
        # check: a tick box per player (winner: the same, for the winners)
        "kind": Field(Str(choices=("write", "names", "total", "winner", "check", "grid", "heading")), default="write"),
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
        # small boxes, captioned so, before the points in each cell (leaves; column number, pieces...)
        "count": Field(_counts_spec()),
        "write_in": Field(Bool(), default=False),  # a box in the label cell to write a name in (Vegetable 1: ___)
        "list": Field(Bool(), default=False),  # write rows: each box holds a list (multi-line in a fillable PDF)
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
        if row["list"] and row["kind"] != "write":
            return ctx.error(at, f"rows[{n}]: 'list' goes on write rows only")
        if row["write_in"] and (row["kind"] in ("heading", "grid") or not row.get("label")):
            return ctx.error(at, f"rows[{n}]: 'write_in' needs a label, on a row that is no heading or grid")
    return el


SCORE_TABLE_FIELDS = {
    "width": Field(Length(20, 300), required=True),
    "label_width": Field(Length(10, 200), default=50.0),
    "rows": Field(ListOf(ST_ROW, 1, 60), required=True),
    # the caption of the points box of a row with `count` boxes
    "points_label": Field(Label(), default=lambda: {"fr": "points", "en": "points"}),
}


def _st_size(el):
    return el["width"], sum(r["height"] for r in el["rows"])


ST_STRIP = 6.0  # a wide row's strip for its label and hint
ST_BADGE = 2.7  # radius of a player's number badge
ST_COL_LABEL = 4.0  # height of the labels under a grid's columns (their text 1 mm under the cells)
ST_MAX_CELL = 7.0
ST_MIN_CELL = 5.0  # a wide grid row spreads its copies over the whole table below this cell size


def _st_cell(row, cw) -> float:
    """The cell size of a grid row's copy in a player column `cw` wide."""
    cols, rows = row["grid"]
    labels = ST_COL_LABEL if row.get("col_labels") else 0.0
    return min((cw - 2) / cols, (row["height"] - 2 - labels) / rows)


LABEL_INSET = 0.25  # mm: a column label's room is its cell less this on each side


def _st_grid(gx, gy, cell, row, fname, env, p, who: str = "") -> list:
    """One player's copy of a board: mini boxes, then the column labels under them."""
    cols, rows = row["grid"]
    name = env.plain(row["label"]) if row.get("label") else row["id"]
    out = []
    for gr in range(rows):
        r = rows - gr if row["from_bottom"] else gr + 1
        for gc in range(cols):
            hint = tip(name, who, word(env, "row", r), word(env, "column", gc + 1))
            out.append(
                Box(gx + gc * cell, gy + gr * cell, cell, cell, "mini", False, cell_field(fname, r, gc + 1), tip=hint)
            )
    # (each label inset by LABEL_INSET on both sides: side by side under small cells, labels
    # fitted to the whole cell ran together, "×1×2×3" on a five-player pad of narrow boards)
    for c, lab in enumerate((row.get("col_labels") or [])[:cols]):
        out.append(
            Text(
                gx + c * cell + LABEL_INSET,
                gy + rows * cell + ST_PAD,
                cell - 2 * LABEL_INSET,
                ST_COL_LABEL - ST_PAD,
                env.t(lab, f"{p}.col_labels[{c}]"),
                "condensed",
                7.0,
                "center",
                "top",
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
    top = ry + ST_STRIP + 2 * ST_BADGE + 1.6
    cell = min(ST_MAX_CELL, (sw - 2) / cols, (ry + h - top - labels - 1.0) / rows)
    for i in range(n):
        sx = x + i * sw
        if i:
            out.append(Rect(sx, ry + ST_STRIP, 0, h - ST_STRIP, INK, None, 0.5))
        gx = sx + (sw - cell * cols) / 2
        out += _badge(gx + ST_BADGE, ry + ST_STRIP + ST_BADGE + 0.8, ST_BADGE, i + 1, env, p, "", env.tint)
        out += _st_grid(gx, top, cell, row, player_field(row["id"], i + 1), env, p, word(env, "player", i + 1))
    return out


ST_PAD = 1.0  # mm: the room between a cell's text and its lines
ST_TIGHT = 0.3  # mm: the least of it, in a row too low for ST_PAD (a variant's)
ST_LABEL_GAP = 0.3  # mm between a label and its hint, and between a board copy and its column labels
ST_CAPTION = 6.0  # pt: a count box's caption (an in-box hint)
ST_BAND = 2.8  # mm: the band a count box's caption takes at the top of its cell, over the box
ST_TICK = 8.5  # mm: the largest tick box of a row (its drawn square 7.6 mm: 5 mm at 2 a page)


def _label_cell(x, ry, lw, row, env, p, house: bool, fill) -> list:
    """A row's label cell: its icon, its label and under it its hint, the two centred in the
    cell and ST_PAD from its lines (down to ST_TIGHT in a row too low for that); with
    `write_in`, a box after the label to write a name in."""
    from sheetgen import text as fonts

    h = row["height"]
    out = [Rect(x, ry, lw, h, INK, fill or "#ffffff", 0.5)]
    ix = x + 1.5
    if row.get("icon"):
        s = min(h - 2, 8.0)
        out.append(Icon(ix, ry + (h - s) / 2, s, row["icon"]))
        ix += s + 1.5
    if not row.get("label"):
        return out
    pt = 72 / 25.4
    tw, room = x + lw - ix - ST_PAD, h - 2 * ST_TIGHT
    lsize, hsize = max(8.5, env.smallest_text), max(7.0, env.smallest_text)
    label = env.t(row["label"], p + ".label", house)
    if row["write_in"]:  # the label on one line, the name box after it
        lab_w = fonts.width(label, "condensed-bold", lsize) / pt + 0.3
        bx = ix + lab_w + 1.5
        name = env.plain(row["label"])
        out.append(
            write_box(bx, ry + ST_PAD, x + lw - ST_PAD - bx, h - 2 * ST_PAD, f"{row['id']}_name",
                tip=tip(name, word(env, "name")))
        )  # fmt: skip
        tw = lab_w
    fit = fonts.fit_text(label, "condensed-bold", lsize, tw * pt, room * pt, not row["write_in"], lsize)
    lab_h = (fit.size + (len(fit.lines) - 1) * fit.leading) / pt
    hint = env.t(row["hint"], p + ".hint") if row.get("hint") else ""
    hint_h = 0.0
    if hint:
        got = fonts.fit_text(hint, "condensed", hsize, tw * pt, (room - lab_h - ST_LABEL_GAP) * pt, True, hsize)
        hint_h = ST_LABEL_GAP + (got.size + (len(got.lines) - 1) * got.leading) / pt
    pad = max(ST_TIGHT, min(ST_PAD, (h - lab_h - hint_h) / 2))  # ST_PAD where the row has the room
    top, room = ry + pad, h - 2 * pad
    y0 = top + max(0.0, (room - lab_h - hint_h) / 2)
    out.append(Text(ix, y0, tw, lab_h, label, "condensed-bold", 8.5, valign="top", wrap=not row["write_in"],
                    path=p + ".label"))  # fmt: skip
    if hint:
        hy = y0 + lab_h + ST_LABEL_GAP
        out.append(
            Text(ix, hy, tw, top + room - hy, hint, "condensed", 7.0, valign="top", color="#444444", path=p + ".hint")
        )
    return out


def _counts(bx, ry, cw, h, row, el, env, p, fname, who) -> tuple[list, float, list]:
    """A row's small count boxes at the left of a player's cell, each with its caption;
    returns (their prims, the points box's left, the points box's caption)."""
    counts = row.get("count") or []
    if not counts:
        return [], bx, []
    out = []
    sw = min(cw * 0.45, 14.0) if len(counts) == 1 else min(cw * 0.31, 12.0)
    name = env.plain(row["label"]) if row.get("label") else row["id"]
    # the caption over the box, out of the writing, when the row leaves the box MIN_BOX under it
    # (a digit's stem under a caption reads as another digit, to a player and to `sheetgen scan`):
    # the cell drawn round both, the box its tint; in a lower row the caption is in the box's top
    band = ST_BAND if h - ST_BAND >= MIN_BOX - 1e-9 else 0.0
    for k, caption in enumerate(counts):
        cp = p + ".count" + (f"[{k}]" if len(counts) > 1 else "")
        field = fname + "_count" + (str(k + 1) if k else "")
        hint = tip(name, env.plain(caption), who)
        if band:
            out.append(Rect(bx, ry, sw, h, DROPOUT_GREY, None, 0.6))
            out.append(write_box(bx, ry + band, sw, h - band, field, stroke=None, fill=env.tint, tip=hint))
        else:
            out.append(write_box(bx, ry, sw, h, field, fill=env.tint, tip=hint))
        out.append(_caption(bx, ry, sw, env.t(caption, cp), cp))
        bx += sw
    points = env.t(el["points_label"], el["_path"] + ".points_label")
    return out, bx, [_caption(bx, ry, cw - len(counts) * sw, points, el["_path"] + ".points_label")]


def _caption(bx, ry, w, text, path) -> Text:
    """A small light caption at the top of a box, ST_PAD inside its lines."""
    return Text(bx + ST_PAD, ry + ST_PAD, w - 2 * ST_PAD, 2.4, text, "condensed", ST_CAPTION, "center", "top",
                DROPOUT_GREY, path=path, hint=True)  # fmt: skip


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
        house = env.is_house(f"{el['id']}.rows[{r}]")
        if kind == "heading":
            out.append(Rect(x, ry, el["width"], h, INK, env.accent, 0.5))
            if row.get("label"):
                text = env.t(row["label"], p + ".label", house)
                band = el["width"] - 4
                out.append(Text(x + 2, ry, band, h, text, "sans-bold", 9, color="#ffffff", path=p + ".label"))
            ry += h
            continue
        if row.get("wide") and _st_cell(row, cw) < ST_MIN_CELL - 1e-9:
            out += _st_wide_grid(x, ry, el["width"], row, n, env, p, house)
            ry += h
            continue
        out += _label_cell(x, ry, lw, row, env, p, house, fill)
        name = env.plain(row["label"]) if row.get("label") else row["id"]
        for i in range(n):
            bx = x + lw + i * cw
            fname = player_field(row["id"], i + 1)
            who = word(env, "player", i + 1)
            if kind == "grid":
                cols, rows = row["grid"]
                labels = ST_COL_LABEL if row.get("col_labels") else 0.0
                cell = _st_cell(row, cw)
                gx, gy = bx + (cw - cell * cols) / 2, ry + (h - cell * rows - labels) / 2
                out.append(Rect(bx, ry, cw, h, INK, "#ffffff", 0.5))
                out += _st_grid(gx, gy, cell, row, fname, env, p, who)
            elif kind in ("winner", "check"):
                out.append(Rect(bx, ry, cw, h, INK, "#ffffff", 0.5))
                s = min(h - 2, ST_TICK)
                out.append(Box(bx + (cw - s) / 2, ry + (h - s) / 2, s, s, "check", False, fname, tip=tip(name, who)))
            else:
                prims, left, caption = _counts(bx, ry, cw, h, row, el, env, p, fname, who)
                out += prims
                hint = tip(who, word(env, "name")) if kind == "names" else tip(name, who)
                out.append(
                    write_box(left, ry, bx + cw - left, h, fname, fill=fill or "#ffffff", tip=hint,
                        multiline=row["list"])
                )  # fmt: skip
                out += caption
                if row["numbered"]:
                    out += _badge(bx + ST_BADGE + 0.8, ry + ST_BADGE + 0.8, ST_BADGE, i + 1, env, p, "", env.tint)
        if kind == "total":  # (framed in the dropout grey, as the boxes' edges: a pen shows over it)
            out.append(Rect(x, ry, el["width"], h, DROPOUT_GREY, None, 1.6))
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
    """Per row id, one entry per player column: the text, a tick box's state (winner and
    check rows), or for a grid row the grid's rows of booleans; a row's small count boxes
    under `<row id>_count` (and its second under `<row id>_count2`); a write-in name under
    `<row id>_name`; the names row also under `player_names`."""
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
        ticked = kind in ("winner", "check")
        marks[rid] = [values.get(player_field(rid, i), False if ticked else "") for i in players]
        if kind == "names":
            marks["player_names"] = marks[rid]
        for k in range(len(row.get("count") or [])):
            suffix = "_count" + (str(k + 1) if k else "")
            marks[rid + suffix] = [values.get(player_field(rid, i) + suffix, "") for i in players]
        if row["write_in"]:
            marks[f"{rid}_name"] = values.get(f"{rid}_name", "")
    return marks


TYPE = ElementType(
    "score_table",
    SCORE_TABLE_FIELDS,
    _st_size,
    _st_build,
    post=_st_post,
    read=_st_read,
    player_columns=True,
    markable=True,
    verified_items=("rows",),
    row_ids="rows",
    doc="a score pad: one row per category, one column per player",
)
