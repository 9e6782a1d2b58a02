"""The `grid` element: rows x columns of cells to draw in, with column labels and a
printed value beside each row.
"""

from __future__ import annotations

from sheetgen.layout.display import INK, Box, Rect, Text, tip
from sheetgen.layout.elements.common import ElementType, Label, _badge, cell_field, title_of, word
from sheetgen.schema import Field, Int, Length, ListOf

GRID_HEADER = 6.0
GRID_VALUE = 10.0

GRID_FIELDS = {
    "rows": Field(Int(1, 30), required=True),
    "cols": Field(Int(1, 30), required=True),
    "cell": Field(Length(3, 60), default=12.0),
    "col_labels": Field(ListOf(Label())),
    "row_value": Field(Int(-999, 999)),
}


def _grid_size(el):
    w = el["cols"] * el["cell"] + (GRID_VALUE if el.get("row_value") is not None else 0)
    h = el["rows"] * el["cell"] + (GRID_HEADER if el.get("col_labels") else 0)
    return w, h


def _grid_build(el, env):
    x, y, c = el["x"], el["y"], el["cell"]
    out = []
    p = el["_path"]
    if el.get("col_labels"):
        for i, lab in enumerate(el["col_labels"][: el["cols"]]):
            out.append(Rect(x + i * c + 0.6, y + 0.4, c - 1.2, GRID_HEADER - 1.2, None, env.tint, 0, 1.2))
            out.append(
                Text(
                    x + i * c,
                    y,
                    c,
                    GRID_HEADER - 0.4,
                    env.t(lab, f"{p}.col_labels[{i}]"),
                    "sans-bold",
                    9.0,
                    "center",
                    path=f"{p}.col_labels[{i}]",
                )
            )
        y += GRID_HEADER
    name = title_of(el, env)
    for r in range(el["rows"]):
        for col in range(el["cols"]):
            hint = tip(name, word(env, "row", r + 1), word(env, "column", col + 1))
            out.append(Box(x + col * c, y + r * c, c, c, "write", field=cell_field(el["id"], r + 1, col + 1), tip=hint))
        if el.get("row_value") is not None:
            cx = x + el["cols"] * c + GRID_VALUE / 2 + 0.5
            out += _badge(cx, y + r * c + c / 2, 3.6, el["row_value"], env, p + ".row_value", el["id"] + ".row_value")
    out.append(Rect(x, y, el["cols"] * c, el["rows"] * c, INK, None, 1.2))
    return out


def _grid_read(el, values: dict, warnings: list | None = None) -> dict:
    """The rows as strings, one character per cell ('.' when empty)."""
    rows = range(1, el["rows"] + 1)
    cols = range(1, el["cols"] + 1)
    eid = el["id"]
    return {eid: ["".join((values.get(cell_field(eid, r, c)) or ".")[:1].upper() for c in cols) for r in rows]}


def _grid_cells(el) -> list[str]:
    """Its cells' fields: each holds one thing drawn in it (what the game's cell_choices name)."""
    return [cell_field(el["id"], r, c) for r in range(1, el["rows"] + 1) for c in range(1, el["cols"] + 1)]


TYPE = ElementType(
    "grid",
    GRID_FIELDS,
    _grid_size,
    _grid_build,
    read=_grid_read,
    ticked=True,
    markable=True,
    cells=_grid_cells,
    doc="rows x columns of cells to draw in, with column labels and a row value",
)
