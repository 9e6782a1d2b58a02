"""The `building` element: one building card of a roll-and-write village.

A card holds what a scorer needs together: the boxes to check (each with the
resources it costs), the end-game points (fixed, or `per` completed section of
a track), whether it belongs to the advanced rules, its ability in a sentence, and for the advanced
rules the blueprint (a shape of empire sections, drawn small) and the ladder of
the underlined value that each colony moves one step up.

Keys (besides id, type, at, in, verified):

- `size: [w, h]`, `name`, `icon`, `ability` (a label; `{id.points}` and
  `{id.ladder[0]}` keep the sentence's numbers in one place);
- `boxes`: one list of cost icons per box (`[]` costs no resource), `box`;
- `points` (default 0) and `per: {track, count: sections|boxes, label, icon}`:
  the points are then worth that much per completed section (or checked box)
  of the track named;
- `advanced` (true/false): for the advanced rules only (tagged on the card);
- `ladder: [v0, v1, ...]`: the underlined value, then its value after each
  colony; `ladder_of: points | ability` says which number it is (with
  `points`, `ladder[0]` must equal `points`);
- `blueprint`: rows of `X` (a section) and `.` (empty), top to bottom;
- the card's fixed words, all labels with defaults: `advanced_mark`,
  `points_label`, `ladder_label`, `blueprint_label`, `finished_label`.

Every card is built by checking its boxes: none is printed checked.
"""

from __future__ import annotations

import re

from sheetgen import text as fonts
from sheetgen.cells import groups
from sheetgen.layout.display import HOUSE_MARK, INK, MIN_TEXT, Box, Circle, Icon, Line, Rect, Text, tip
from sheetgen.layout.elements.common import (
    SIZE,
    ElementType,
    IconName,
    IdStr,
    Label,
    _box_marks,
    box_field,
    cannot_build,
    read_checked,
    word,
)
from sheetgen.layout.elements.track import TYPE as TRACK
from sheetgen.schema import Bool, Field, Int, Length, ListOf, Map, Num, Str
from sheetgen.values import valueclass

HEADER = 7.0  # mm, the name band
PAD = 2.5  # mm, inner margin
GAP = 1.2  # mm between boxes
PANEL = 17.0  # mm, the points panel's width
LOWER = 14.0  # mm, the blueprint and ladder band (advanced rules)
STEP = 7.5  # mm, one step of the ladder
ARROW = 3.6  # mm between two steps (the arrow between them 1 mm from each)
FINISHED = 6.8  # mm, the "finished in round" caption above its box
TAG = 30.0  # mm, the "advanced rules" tag
ADVANCED_COLOR = "#8c2f1b"
PT = 72 / 25.4


def _lab(fr: str, en: str):
    return lambda: {"fr": fr, "en": en}


PER = Map(
    {
        "track": Field(IdStr(), required=True),
        "count": Field(Str(choices=("sections", "boxes")), default="sections"),
        "label": Field(Label(), required=True),
        "icon": Field(IconName()),
    },
    what="a per mapping (track, count, label)",
)

BUILDING_FIELDS = {
    "size": Field(SIZE, required=True),
    "name": Field(Label(), required=True),
    "icon": Field(IconName()),
    "ability": Field(Label(), required=True),
    "ability_size": Field(Num(5.5, 14), default=8.5),  # pt
    "boxes": Field(ListOf(ListOf(IconName(), 0, 3), 1, 10), required=True),
    "box": Field(Length(7, 16), default=8.0),
    "points": Field(Int(0, 999), default=0),
    "per": Field(PER),
    "advanced": Field(Bool(), default=False),
    "ladder": Field(ListOf(Int(-999, 999), 2, 8)),
    "ladder_of": Field(Str(choices=("points", "ability")), default="ability"),
    "blueprint": Field(ListOf(Str(r"[X.]{1,6}", what="a row of X (a section) and . (no section)"), 1, 4)),
    "advanced_mark": Field(Label(), default=_lab("Règles avancées", "Advanced rules")),
    "points_label": Field(Label(), default=_lab("points", "points")),
    "ladder_label": Field(
        Label(),
        default=_lab(
            "Valeur soulignée\u00a0: à chaque colonie, entourez la suivante",
            "Underlined value: at each colony, circle the next one",
        ),
    ),
    "blueprint_label": Field(Label(), default=_lab("Plan", "Blueprint")),
    "finished_label": Field(Label(), default=_lab("Terminé au tour", "Finished in round")),
}


def blueprint_cells(rows: list[str]) -> list[tuple[int, int]]:
    """The (row, column) of each section of a blueprint, top to bottom, left to right."""
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]


def _connected(cells: list[tuple[int, int]]) -> bool:
    return len(groups(cells)) == 1


def _building_post(el, ctx, at):
    raw = at.node[at.key] if at.node is not None else el  # the element as written, for its lines
    rows = el.get("blueprint")
    if rows is not None:
        where = at.child(raw, "blueprint")
        if len({len(r) for r in rows}) != 1:
            return ctx.error(where, "every row of a blueprint has the same length")
        cells = blueprint_cells(rows)
        if not cells:
            return ctx.error(where, "a blueprint needs at least one section (X)")
        if not _connected(cells):
            return ctx.error(
                where, "the sections (X) of a blueprint must be adjacent (side by side or one above the other)"
            )
    ladder = el.get("ladder")
    if ladder is not None and el["ladder_of"] == "points" and ladder[0] != el["points"]:
        return ctx.error(
            at.child(raw, "ladder"),
            f"ladder[0] is {ladder[0]} but points is {el['points']}: with ladder_of: points, "
            f"the ladder starts at the printed points",
        )
    if el.get("per") and el["ladder_of"] == "points" and ladder is None and el["points"] == 0:
        return ctx.error(at, "points: a building scored 'per' something needs points above 0")
    return el


_BREAK = re.compile(r"[ \t\r\n]+")  # where text wraps (sheetgen.text): never at no-break spaces


def _words(text: str) -> list[str]:
    return [w for w in _BREAK.split(text) if w]


def split_mark(text: str) -> tuple[str, tuple | None, str | None]:
    """Strip the `_underlined_` marker from an ability sentence.

    Returns the text without underscores, then (word index, first char, end char)
    of the marked part within its word (or None), then an error message (or None).
    """
    if "_" not in text:
        return text, None, None
    parts = text.split("_")
    if len(parts) != 3:
        return text.replace("_", ""), None, "mark one underlined value as _value_ (two underscores in all)"
    before, marked, after = parts
    if not marked or any(ch.isspace() for ch in marked):
        return "".join(parts), None, "the underlined value between underscores must be one word"
    plain = before + marked + after
    glued = bool(before) and not _BREAK.match(before[-1])  # the mark starts inside a word ("+_1_")
    word = len(_words(before)) - (1 if glued else 0)
    start = len(_words(before)[-1]) if glued else 0
    return plain, (word, start, start + len(marked)), None


def _underline(text: str, mark: tuple, x: float, y: float, w: float, h: float, font: str, size: float):
    """A line under the marked part of `text` as the renderer will wrap it (left aligned, top)."""
    from sheetgen import text as fonts

    pt = 72 / 25.4
    fit = fonts.fit_text(text, font, size, w * pt, h * pt, True, MIN_TEXT)
    if not fit.fits:
        return []
    word, a, b = mark
    seen = 0
    for i, line in enumerate(fit.lines):
        words = _words(line)
        if word < seen + len(words):
            k = word - seen
            lead = " ".join(words[:k]) + (" " if k else "") + words[k][:a]
            x1 = x + fonts.width(lead, font, fit.size) / pt
            x2 = x1 + fonts.width(words[k][a:b], font, fit.size) / pt
            base = y + (fit.size * 0.76 + i * fit.leading) / pt
            return [Line(x1, base + 0.55, x2, base + 0.55, INK, 0.9)]
        seen += len(words)
    return []


def _has_lower(el) -> bool:
    return bool(el.get("ladder") or el.get("blueprint"))


def _tag(x, y, w, h, text, color, path):
    return [
        Rect(x, y, w, h, None, "#ffffff", 0, 1.6),
        Text(x + 1, y, w - 2, h, text, "condensed-bold", 7.0, "center", color=color, path=path),
    ]


def _finished(el, env, px, py):
    """Where to note the round the building was finished (it works from the next one)."""
    p = el["_path"] + ".finished_label"
    b = el["box"]
    return [
        Text(
            px, py, PANEL, FINISHED - 0.4, env.t(el["finished_label"], p), "condensed", 7.0, "center", "bottom", path=p
        ),
        Box(
            px + (PANEL - b) / 2,
            py + FINISHED,
            b,
            b,
            "write",
            False,
            f"{el['id']}_round",
            tip=tip(env.plain(el["name"]), env.plain(el["finished_label"])),
        ),  # fmt: skip
    ]


def _points_panel(el, env, px, py):
    p = el["_path"]
    out = []
    r = 4.6
    cx, cy = px + PANEL / 2, py + r + 0.3
    out.append(Circle(cx, cy, r, env.accent, "#ffffff", 1.2))
    out.append(
        Text(
            cx - r,
            cy - r,
            2 * r,
            2 * r,
            env.value(el["points"], el["id"] + ".points", p + ".points"),
            "sans-bold",
            11.0,
            "center",
            path=p + ".points",
        )
    )
    if el.get("ladder") and el["ladder_of"] == "points":  # the points are the underlined value
        half = 1.2 + 1.0 * len(str(el["points"]))
        out.append(Line(cx - half, cy + 2.6, cx + half, cy + 2.6, INK, 0.9))
    per = el.get("per")
    caption = per["label"] if per else el["points_label"]
    cap_path = p + (".per.label" if per else ".points_label")
    ty = cy + r + 0.6
    text = env.t(caption, cap_path)
    size = max(7.0, env.smallest_text)
    if per and per.get("icon") and fonts.width(text, "condensed", size) / PT <= PANEL - 5.0:
        out.append(Icon(px + 0.5, ty, 4.2, per["icon"]))
        out.append(Text(px + 5.0, ty, PANEL - 5.0, 4.2, text, "condensed", 7.0, path=cap_path))
    else:  # the caption alone, where the icon leaves it no room
        out.append(Text(px, ty, PANEL, 4.2, text, "condensed", 7.0, "center", path=cap_path))
    return out


def _blueprint(el, env, x, y, h):
    """The blueprint's label, then its shape in small cells. Returns (prims, width)."""
    p = el["_path"]
    rows = el["blueprint"]
    label_h = 3.4
    cell = min(4.0, (h - label_h) / len(rows))
    ncols = len(rows[0])
    out = [
        Text(
            x,
            y,
            max(ncols * cell, 16.0),
            label_h,
            env.t(el["blueprint_label"], p + ".blueprint_label"),
            "condensed-bold",
            7.0,
            path=p + ".blueprint_label",
        )
    ]
    gy = y + label_h + (h - label_h - cell * len(rows)) / 2
    # solid tiles, a little apart: a silhouette of the shape, never taken for boxes to tick
    gap = cell * 0.06
    for r, c in blueprint_cells(rows):
        tile = cell - 2 * gap
        out.append(Rect(x + c * cell + gap, gy + r * cell + gap, tile, tile, env.accent, env.accent, 0.5, tile * 0.15))
    return out, max(ncols * cell, 16.0)


def _ladder(el, env, right, y, h):
    """The ladder, right-aligned at `right`: the base value tinted, the next ones to circle."""
    p = el["_path"]
    values = el["ladder"]
    n = len(values)
    width = n * STEP + (n - 1) * ARROW
    x0 = right - width
    sy = y + h - STEP
    out = []
    for i, v in enumerate(values):
        sx = x0 + i * (STEP + ARROW)
        out.append(Rect(sx, sy, STEP, STEP, env.accent, env.tint if i == 0 else "#ffffff", 0.8, 1.5))
        out.append(
            Text(
                sx,
                sy,
                STEP,
                STEP - 0.8,
                env.value(v, f"{el['id']}.ladder[{i}]", f"{p}.ladder[{i}]"),
                "sans-bold",
                9.0,
                "center",
                path=f"{p}.ladder[{i}]",
            )
        )
        half = 1.2 + 0.9 * len(str(v))
        out.append(Line(sx + STEP / 2 - half, sy + STEP - 1.5, sx + STEP / 2 + half, sy + STEP - 1.5, INK, 0.9))
        if i:  # a step a player circles when a colony moves the value up: a markable box, drawn as nothing
            hint = tip(env.plain(el["name"]), word(env, "colony", i))
            out.append(
                Box(sx, sy, STEP, STEP, "round", False, colony_field(el["id"], i), stroke=None, fill=None, tip=hint)
            )
            out.append(
                Text(
                    sx - ARROW,
                    sy,
                    ARROW,
                    STEP,
                    "›",
                    "sans-bold",
                    10.0,
                    "center",
                    color=env.accent,
                    path=f"{p}.ladder[{i}]",
                )
            )
    return out, x0


@valueclass
class Card:
    """Where a card's parts go (mm), and its ability sentence as printed: what both the
    check and the build of a building read."""

    top: float  # the boxes' top
    points: bool  # whether the card has a points panel
    fy: float  # the top of the "finished in round" caption
    lower: float  # the height of the blueprint and ladder band (0 without one)
    ty: float  # the ability's top
    text_h: float  # the ability's height (below 4 mm: the card is too short)
    text_w: float
    boxes_w: float  # the boxes' row
    room: float  # the width beside the points panel
    ability: str  # the sentence in env's language, without the underline marker
    mark: tuple | None  # the underlined part (see split_mark)
    problem: str | None  # a badly marked sentence (see split_mark)


def card_layout(el, env) -> Card:
    y, (w, h), b = el["y"], el["size"], el["box"]
    top = y + HEADER + 2.0
    points = el["points"] != 0 or el.get("per") is not None
    lower = LOWER if _has_lower(el) else 0.0
    ty = top + b + 1.5
    ability, mark, problem = split_mark(env.t(el["ability"], el["_path"] + ".ability"))
    return Card(
        top=top,
        points=points,
        fy=top + (15.0 if points else 0.0),
        lower=lower,
        ty=ty,
        text_h=y + h - PAD - lower - ty,
        text_w=w - 2 * PAD - (PANEL + 1.5),
        boxes_w=len(el["boxes"]) * (b + GAP) - GAP,
        room=w - 2 * PAD - (PANEL + 1.5),
        ability=ability,
        mark=mark,
        problem=problem,
    )


def _building_check(el, env, card: Card | None = None) -> list[tuple[str, str]]:
    """What makes the card impossible to draw as written, or its sentence disagree with
    its ladder, or its `per` name no track."""
    card = card or card_layout(el, env)
    y, (_w, h), b = el["y"], el["size"], el["box"]
    p = el["_path"]
    out = []
    if card.fy + FINISHED + b > y + h - PAD - card.lower + 0.01:
        out.append((p + ".size", "the card is too short for its points and its 'finished in round' box"))
    if card.boxes_w > card.room + 0.01:
        out.append(
            (
                p + ".boxes",
                f"{len(el['boxes'])} boxes of {b:g}mm do not fit in the card "
                f"({card.room:.1f}mm wide beside the points)",
            )
        )
    if card.text_h < 4:
        out.append((p + ".size", f"the card is too short for its ability ({card.text_h:.1f}mm left)"))
    if card.problem:
        out.append((p + ".ability", card.problem))
    ladder = el.get("ladder")
    if ladder and el["ladder_of"] == "ability":
        if card.mark is None:
            out.append(
                (
                    p + ".ability",
                    "with a ladder of the ability's value, mark that value in the "
                    "sentence as _value_ (it is printed underlined)",
                )
            )
        else:
            word, a, c = card.mark
            shown = _words(card.ability)[word][a:c]
            if shown.lstrip("+").rstrip(HOUSE_MARK) != str(ladder[0]):
                out.append((p + ".ability", f"the underlined value is {shown!r} but the ladder starts at {ladder[0]}"))
    per = el.get("per")
    if per:
        track = env.elements.get(per["track"])
        if track is None or track["type"] != TRACK.name:
            out.append((p + ".per", f"no track '{per['track']}' in this layout to count {per['count']} of"))
    return out


def _header(el, env) -> list:
    """The card's coloured band: its icon, its name, and its tags (advanced)."""
    x, y, (w, h), p = el["x"], el["y"], el["size"], el["_path"]
    color = ADVANCED_COLOR if el["advanced"] else env.accent
    out = [
        Rect(x, y, w, h, color, "#ffffff", 1.4, 2.5),
        Rect(x, y, w, HEADER, None, color, 0, 2.5),
        Rect(x, y + HEADER / 2, w, HEADER / 2, None, color, 0),
    ]
    tx = x + PAD
    if el.get("icon"):
        out.append(Icon(tx, y + 0.6, HEADER - 1.2, el["icon"]))
        tx += HEADER + 0.3
    tags = [(el["advanced_mark"], ".advanced_mark")] if el["advanced"] else []
    name_right = x + w - PAD - len(tags) * (TAG + 1.5)
    out.append(
        Text(
            tx,
            y,
            name_right - tx,
            HEADER,
            env.t(el["name"], p + ".name"),
            "sans-bold",
            10.0,
            color="#ffffff",
            wrap=False,
            path=p + ".name",
        )
    )
    for n, (label, key) in enumerate(tags):
        out += _tag(
            x + w - PAD - (n + 1) * TAG - n * 1.5, y + 1.1, TAG, HEADER - 2.2, env.t(label, p + key), color, p + key
        )
    return out


def _lower_band(el, env, lower: float) -> list:
    """The band under a dashed line at the card's foot, `lower` mm high (none when 0): the
    blueprint on the left, the ladder and its label on the right."""
    x, y, (w, h), p = el["x"], el["y"], el["size"], el["_path"]
    out = []
    if lower:
        ly = y + h - PAD - lower + 1.0
        lh = lower - 1.0
        out.append(Line(x + PAD, ly - 0.8, x + w - PAD, ly - 0.8, "#bbbbbb", 0.5, (2, 2)))
        left = x + PAD
        if el.get("blueprint"):
            prims, bw = _blueprint(el, env, left, ly, lh)
            out += prims
            left += bw + 3.0
        if el.get("ladder"):
            prims, lx = _ladder(el, env, x + w - PAD, ly, lh)
            out += prims
            out.append(
                Text(
                    left,
                    ly,
                    lx - left - 2.0,
                    lh,
                    env.t(el["ladder_label"], p + ".ladder_label"),
                    "condensed",
                    7.0,
                    "right",
                    path=p + ".ladder_label",
                )
            )
    return out


def _building_build(el, env):
    x, w = el["x"], el["size"][0]
    p, eid, b = el["_path"], el["id"], el["box"]
    out = _header(el, env)
    card = card_layout(el, env)
    problems = _building_check(el, env, card)
    if problems:
        raise cannot_build(el, problems)
    top = card.top
    name = env.plain(el["name"])
    if card.points:
        out += _points_panel(el, env, x + w - PAD - PANEL, top)
    out += _finished(el, env, x + w - PAD - PANEL, card.fy)
    for n, costs in enumerate(el["boxes"]):
        bx = x + PAD + n * (b + GAP)
        out.append(Box(bx, top, b, b, "check", False, box_field(eid, n + 1), tip=tip(name, word(env, "box", n + 1))))
        _box_marks(out, bx, top, b, costs, False)
    out.append(
        Text(
            x + PAD,
            card.ty,
            card.text_w,
            card.text_h,
            card.ability,
            "condensed",
            el["ability_size"],
            valign="top",
            path=p + ".ability",
        )
    )
    if el.get("ladder") and card.mark is not None:
        out += _underline(
            card.ability, card.mark, x + PAD, card.ty, card.text_w, card.text_h, "condensed", el["ability_size"]
        )
    return out + _lower_band(el, env, card.lower)


def colony_field(eid: str, step: int) -> str:
    """Step `step` (1-based, after the printed value) of a card's colony ladder."""
    return f"{eid}_colony_{step}"


def _building_read(el, values: dict, warnings: list | None = None) -> dict:
    """Boxes checked, in any order (the seed: « dans l'ordre que vous préférez à l'intérieur
    d'un bâtiment »), and with a ladder the steps circled (`<id>_colonies`), from the left."""
    eid = el["id"]
    marks = {eid: read_checked(eid, len(el["boxes"]), 0, values, warnings, in_order=False)}
    if el.get("ladder"):
        steps = [n for n in range(1, len(el["ladder"])) if values.get(colony_field(eid, n)) is True]
        if warnings is not None and steps and steps[-1] != len(steps):
            warnings.append(
                f"{eid}: ladder steps {', '.join(map(str, steps))} are circled, with a gap; "
                f"read as {len(steps)} {'colony' if len(steps) == 1 else 'colonies'}"
            )
        marks[f"{eid}_colonies"] = len(steps)
    return marks


TYPE = ElementType(
    "building",
    BUILDING_FIELDS,
    lambda el: el["size"],
    _building_build,
    post=_building_post,
    check=_building_check,
    read=_building_read,
    ticked=True,
    markable=True,
    doc="a building card: boxes with costs, points (fixed or per section of a track), "
    "ability, advanced-rules mark, blueprint and colony ladder",
)
