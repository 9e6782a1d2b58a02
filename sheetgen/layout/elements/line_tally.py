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
- `names`: each player row has a box for the name (else only its number);
- `points`: the caption of a second row per player, for the points each line
  earns (the first row's caption is `sums`); `total`: the caption of a last
  column, each row's total (the points to carry to the pad); `colour`: the
  caption of a box for the player's colour, under the name.

Form fields: `<id>_p<i>_<n>` for player i's box on line n, `<id>_p<i>_name`, and with
`points` `<id>_p<i>_pts<n>`, with `total` `<id>_p<i>_total` (and `<id>_p<i>_pts_total`),
with `colour` `<id>_p<i>_colour`.
Read back (`read`): `{<id>: [[text per line] per player], <id>_names: [...]}`, and
`<id>_points`, `<id>_totals`, `<id>_points_totals`, `<id>_colours` when the table has them.
"""

from __future__ import annotations

from sheetgen.layout.display import DROPOUT_GREY, INK, Line, Rect, Text, tip, write_box
from sheetgen.layout.elements.common import SIZE, ElementType, Label, _badge, cannot_build, player_field, word
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
    "points": Field(Label()),
    "sums": Field(Label(), default=lambda: {"fr": "somme", "en": "sum"}),
    "total": Field(Label()),
    "colour": Field(Label()),
}

CAPTION_W = 13.0  # mm: the column of the sum and points rows' captions
TOTAL_W = 14.0  # mm: the total column
PAD = 1.0  # mm between a caption and the lines


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


def _cell(x, y, w, h, text, env, path, font="condensed-bold", align="left") -> list:
    """A tinted header cell with its caption PAD inside its lines."""
    return [
        Rect(x, y, w, h, INK, env.tint, 0.5),
        Text(x + PAD, y, w - 2 * PAD, h, text, font, 8.5 if font == "sans-bold" else 8.0, align, path=path),
    ]


def _tally_build(el, env):
    x, y, (w, h) = el["x"], el["y"], el["size"]
    n = tally_lines(el, env)
    if n is None:
        raise cannot_build(el, _tally_check(el, env))
    players, lw, hh, eid, p = max(env.players, 1), el["label_width"], el["header"], el["id"], el["_path"]
    split = el.get("points") is not None
    capw = CAPTION_W if split else 0.0
    totw = TOTAL_W if el.get("total") else 0.0
    cw = (w - lw - capw - totw) / n
    subs = 2 if split else 1
    rh = min(el["row_height"], (h - hh) / (players * subs))
    line_name = env.plain(el["line_label"])
    out = _cell(x, y, lw + capw, hh, env.t(el["line_label"], p + ".line_label"), env, p + ".line_label")
    left = x + lw + capw
    for k in range(n):
        out += _cell(left + k * cw, y, cw, hh, str(k + 1), env, p, "sans-bold", "center")
    if totw:
        out += _cell(left + n * cw, y, totw, hh, env.t(el["total"], p + ".total"), env, p + ".total", align="center")
    for i in range(players):
        ry = y + hh + i * rh * subs
        pf = player_field(eid, i + 1)
        who = word(env, "player", i + 1)
        out.append(Rect(x, ry, lw, rh * subs, INK, "#ffffff", 0.5))
        r = min(2.7, rh * subs / 2 - 0.8)
        out += _badge(x + 1.5 + r, ry + rh * subs / 2, r, i + 1, env, p, "")
        nx = x + 3.0 + 2 * r
        if el["names"]:
            out.append(write_box(nx, ry, x + lw - nx, rh, pf + "_name", tip=tip(who, word(env, "name"))))
        if el.get("colour") is not None:
            cy = ry + rh * (subs - 1)
            out.append(write_box(nx, cy, x + lw - nx, rh, pf + "_colour", tip=tip(who, word(env, "colour"))))
            out.append(
                Text(nx + PAD, cy + PAD, x + lw - nx - 2 * PAD, 2.4, env.t(el["colour"], p + ".colour"), "condensed",
                     6.0, "left", "top", DROPOUT_GREY, path=p + ".colour", hint=True)
            )  # fmt: skip
        rows = [("", el["sums"], ".sums")] + ([("_pts", el["points"], ".points")] if split else [])
        for s, (prefix, caption, key) in enumerate(rows):
            sy = ry + s * rh
            if split:
                out += _cell(x + lw, sy, capw, rh, env.t(caption, p + key), env, p + key)
            kind = env.plain(caption) if split else ""
            for k in range(n):
                hint = tip(f"{line_name} {k + 1}", kind, who)
                out.append(write_box(left + k * cw, sy, cw, rh, f"{pf}_{prefix.lstrip('_')}{k + 1}"
                               if prefix else f"{pf}_{k + 1}", tip=hint))  # fmt: skip
            if totw:
                hint = tip(env.plain(el["total"]), kind, who)
                fill = env.tint if prefix else "#ffffff"
                out.append(write_box(left + n * cw, sy, totw, rh, f"{pf}{prefix}_total", fill=fill, tip=hint))
        if split:
            out.append(Line(x + lw, ry + rh * subs, x + w, ry + rh * subs, DROPOUT_GREY, 1.0))
    # (the lines along the boxes in the dropout grey, as the boxes' edges: a pen shows over them)
    bottom = y + hh + players * rh * subs
    out.append(Line(left, y, left, bottom, DROPOUT_GREY, 1.2))
    if totw:
        out.append(Line(left + n * cw, y, left + n * cw, bottom, DROPOUT_GREY, 1.2))
    out.append(Rect(x, y, w, bottom - y, INK, None, 1.2))
    return out


def _tally_read(el, values: dict, warnings: list | None = None) -> dict:
    """The filled boxes: per player, the text of each line's box (players and lines as
    many as the PDF has fields for); the points, totals and colours when the table has them."""
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
        marks[f"{eid}_names"] = [values.get(player_field(eid, i) + "_name", "") for i in seats]
    if el.get("points") is not None:
        marks[f"{eid}_points"] = [[values.get(f"{player_field(eid, i)}_pts{k}", "") for k in numbers] for i in seats]
    if el.get("total") is not None:
        marks[f"{eid}_totals"] = [values.get(player_field(eid, i) + "_total", "") for i in seats]
        if el.get("points") is not None:
            marks[f"{eid}_points_totals"] = [values.get(player_field(eid, i) + "_pts_total", "") for i in seats]
    if el.get("colour") is not None:
        marks[f"{eid}_colours"] = [values.get(player_field(eid, i) + "_colour", "") for i in seats]
    return marks


TYPE = ElementType(
    "line_tally",
    LINE_TALLY_FIELDS,
    lambda el: el["size"],
    _tally_build,
    read=_tally_read,
    check=_tally_check,
    player_columns=True,
    markable=True,
    doc="one number box per board line (rows 1..N) for each player, N a constant that depends on the player count",
)
