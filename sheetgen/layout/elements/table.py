"""The `table` element: write-in cells with column headers and row labels."""

from __future__ import annotations

from sheetgen.layout.display import INK, Icon, Rect, Text, tip, write_box
from sheetgen.layout.elements.common import ElementType, IconName, Label, title_of, word
from sheetgen.schema import Field, Int, Length, ListOf, Map

TABLE_COLUMN = Map(
    {"label": Field(Label(), default=None), "width": Field(Length(3, 300), required=True), "icon": Field(IconName())},
    what="a column mapping",
)

TABLE_FIELDS = {
    "columns": Field(ListOf(TABLE_COLUMN, 1, 30), required=True),
    "rows": Field(Int(1, 60), required=True),
    "row_labels": Field(ListOf(Label())),
    "row_height": Field(Length(3, 60), default=8.0),
    "header_height": Field(Length(3, 30), default=7.0),
}


def _table_size(el):
    return sum(c["width"] for c in el["columns"]), el["header_height"] + el["rows"] * el["row_height"]


def _table_build(el, env):
    x, y, rh, hh = el["x"], el["y"], el["row_height"], el["header_height"]
    w, h = _table_size(el)
    p = el["_path"]
    out = [Rect(x, y, w, hh, None, env.tint, 0)]
    labels = el.get("row_labels") or []
    cx = x
    for c, col in enumerate(el["columns"]):
        cw = col["width"]
        tx = cx + 1
        if col.get("icon"):
            out.append(Icon(cx + 1, y + 1, hh - 2, col["icon"]))
            tx += hh - 1
        if col.get("label"):
            out.append(
                Text(
                    tx,
                    y,
                    cx + cw - tx - 0.5,
                    hh,
                    env.t(col["label"], f"{p}.columns[{c}].label"),
                    "condensed-bold",
                    7.5,
                    "center",
                    path=f"{p}.columns[{c}].label",
                )
            )
        for r in range(el["rows"]):
            ry = y + hh + r * rh
            if c == 0 and labels:
                out.append(Rect(cx, ry, cw, rh, INK, env.tint, 0.5))  # under its label
                if r < len(labels):
                    out.append(
                        Text(
                            cx,
                            ry,
                            cw,
                            rh,
                            env.t(labels[r], f"{p}.row_labels[{r}]"),
                            "sans-bold",
                            8.5,
                            "center",
                            path=f"{p}.row_labels[{r}]",
                        )
                    )
            else:
                field = f"{el['id']}_r{r + 1}_c{c + 1}"
                out.append(write_box(cx, ry, cw, rh, field, tip=_tip(el, env, r, c)))
        cx += cw
    out.append(Rect(x, y, w, h, INK, None, 1.2))
    return out


def _tip(el, env, r: int, c: int) -> str:
    """A cell's tooltip: its row's label and its column's ("Worker die, Round 4"), else its
    place in the table."""
    labels, cols = el.get("row_labels") or [], el["columns"]
    row = env.plain(labels[r]) if r < len(labels) else word(env, "row", r + 1)
    head = env.plain(cols[0]["label"]) if labels and cols[0].get("label") else ""
    col = env.plain(cols[c]["label"]) if cols[c].get("label") else word(env, "column", c + 1)
    return tip(title_of(el, env) if not labels else "", row, f"{head} {col}".strip())


TYPE = ElementType(
    "table",
    TABLE_FIELDS,
    _table_size,
    _table_build,
    markable=True,
    doc="a table of write-in cells with column headers and row labels",
)
