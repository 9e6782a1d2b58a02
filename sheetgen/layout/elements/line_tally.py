"""The `line_tally` element: one small number box per line of a board, per player.

A board game that scores its rows and columns (Bosk's summer) needs, per
player, a number for each line: the element prints the line numbers across a
header and one row of boxes per player below it. How many lines depends on the
player count (a bigger board for more players), so the count is a constant of
the layout, named by `lines` with `{players}` in it (`board_lines_{players}p`).

Keys (besides id, type, at, in, verified):

- `size: [w, h]`: the room the table may take; rows are `row_height` tall at
  most, so with fewer players the table ends higher up;
- `lines`: the constant's name, `{players}` standing for the player count;
- `label_width`, `header`, `row_height` (mm);
- `line_label`: the header's caption over the player cells (`Row` ...);
- `names`: each player row has a box for the name (else only its number).

Form fields: `<id>_p<i>_<n>` for player i's box on line n, `<id>_p<i>_name`.
Read back (`read`): `{<id>: [[text per line] per player], <id>_names: [...]}`.
"""

from __future__ import annotations

from sheetgen.layout.display import INK, Box, Line, Rect, Text
from sheetgen.layout.elements.common import SIZE, ElementType, Label, _badge, cannot_build, player_field
from sheetgen.schema import Bool, Field, Length, Str

LINE_TALLY_FIELDS = {
    "size": Field(SIZE, required=True),
    "lines": Field(
        Str(
            r"[a-z][a-z0-9_]*\{players\}[a-z0-9_]*",
            what="a constant's name with {players} in it, e.g. board_lines_{players}p",
        ),
        required=True,
    ),
    "label_width": Field(Length(10, 200), default=40.0),
    "header": Field(Length(4, 30), default=7.0),
    "row_height": Field(Length(4, 60), default=12.0),
    "line_label": Field(Label(), required=True),
    "names": Field(Bool(), default=True),
}


def tally_lines(el, env) -> int | None:
    """How many lines the table has with env.players players (None if the layout has no
    such constant)."""
    value = env.constants.get(_lines_name(el, env))
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 30:
        return None
    return value


def _lines_name(el, env) -> str:
    return el["lines"].replace("{players}", str(env.players))


def _tally_check(el, env) -> list[tuple[str, str]]:
    if tally_lines(el, env) is not None:
        return []
    return [
        (el["_path"] + ".lines", f"no whole-number constant '{_lines_name(el, env)}' (1-30) for {env.players} players")
    ]


def _tally_build(el, env):
    x, y, (w, h) = el["x"], el["y"], el["size"]
    n = tally_lines(el, env)
    if n is None:
        raise cannot_build(el, _tally_check(el, env))
    players, lw, hh, eid, p = max(env.players, 1), el["label_width"], el["header"], el["id"], el["_path"]
    cw = (w - lw) / n
    rh = min(el["row_height"], (h - hh) / players)
    out = [
        Rect(x, y, lw, hh, INK, env.tint, 0.5),
        Text(
            x + 1.5,
            y,
            lw - 3,
            hh,
            env.t(el["line_label"], p + ".line_label"),
            "condensed-bold",
            7.5,
            path=p + ".line_label",
        ),
    ]
    for k in range(n):
        out += [
            Rect(x + lw + k * cw, y, cw, hh, INK, env.tint, 0.5),
            Text(x + lw + k * cw, y, cw, hh, str(k + 1), "sans-bold", 8.5, "center", path=p),
        ]
    for i in range(players):
        ry = y + hh + i * rh
        out.append(Rect(x, ry, lw, rh, INK, "#ffffff", 0.5))
        r = min(2.6, rh / 2 - 0.8)
        out += _badge(x + 1.5 + r, ry + rh / 2, r, i + 1, env, p, "")
        if el["names"]:
            nx = x + 2.5 + 2 * r
            out.append(Box(nx, ry, x + lw - nx, rh, "write", False, player_field(eid, i + 1) + "_name"))
        for k in range(n):
            out.append(Box(x + lw + k * cw, ry, cw, rh, "write", False, f"{player_field(eid, i + 1)}_{k + 1}"))
    out.append(Line(x + lw, y, x + lw, y + hh + players * rh, INK, 1.2))
    out.append(Rect(x, y, w, hh + players * rh, INK, None, 1.2))
    return out


def _tally_read(el, values: dict, warnings: list | None = None) -> dict:
    """The filled boxes: per player, the text of each line's box (players and lines as
    many as the PDF has fields for)."""
    eid = el["id"]
    players = 0
    while f"{player_field(eid, players + 1)}_1" in values:
        players += 1
    lines = 0
    while f"{player_field(eid, 1)}_{lines + 1}" in values:
        lines += 1
    seats, numbers = range(1, players + 1), range(1, lines + 1)
    marks = {eid: [[values.get(f"{player_field(eid, i)}_{k}", "") for k in numbers] for i in seats]}
    if el["names"]:
        marks[f"{eid}_names"] = [values.get(player_field(eid, i) + "_name", "") for i in range(1, players + 1)]
    return marks


TYPE = ElementType(
    "line_tally",
    LINE_TALLY_FIELDS,
    lambda el: el["size"],
    _tally_build,
    read=_tally_read,
    check=_tally_check,
    player_columns=True,
    doc="one number box per board line (rows 1..N) for each player, N a constant that depends on the player count",
)
