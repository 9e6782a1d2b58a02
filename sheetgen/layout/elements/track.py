"""The `track` element: check boxes in sections, each section with an optional
printed value, badge, costs and yields.
"""

from __future__ import annotations

from sheetgen.layout.display import Box, Rect, Text, tip
from sheetgen.layout.elements.common import (
    ElementType,
    IconName,
    Label,
    _badge,
    _box_marks,
    _label_block,
    box_field,
    read_checked,
    title_of,
    word,
)
from sheetgen.schema import Bool, Field, Int, Length, ListOf, Map, Str

SECTION = Map(
    {
        "boxes": Field(Int(1, 40), required=True),
        "value": Field(Int(-999, 999)),
        "costs": Field(ListOf(ListOf(IconName(), 0, 4))),
        "yields": Field(ListOf(ListOf(IconName(), 0, 4))),
        "badge": Field(Label()),
        "bonus": Field(Bool(), default=False),
        "verified": Field(Bool(), default=True),
    },
    what="a section mapping",
)

TRACK_BADGE = 4.5
SECTION_GAP = 3.0
BADGE_BAND = 5.0  # mm over the sections for their badges (their text 1 mm above the section frames)
VALUE_GAP = 1.8  # mm between a section's boxes and its value circle (1 mm from the section's frame)


def _value_r(b: float) -> float:
    """The radius of a section's value circle beside boxes of side `b` (inside the section's frame)."""
    return min(TRACK_BADGE, b / 2 + 0.25)


def _track_post(el, ctx, at):
    if ("boxes" in el) == ("sections" in el):
        return ctx.error(at, "give either 'boxes' or 'sections'")
    if "boxes" in el:
        el["sections"] = [{"boxes": el.pop("boxes"), "bonus": False, "verified": True}]
    total = sum(s["boxes"] for s in el["sections"])
    if el["prechecked"] > total:
        return ctx.error(at, f"prechecked: {el['prechecked']} is more than the {total} boxes")
    for n, s in enumerate(el["sections"]):
        for key in ("costs", "yields"):
            if key in s and len(s[key]) != s["boxes"]:
                return ctx.error(
                    at, f"sections[{n}].{key}: expected one list per box ({s['boxes']}), got {len(s[key])}"
                )
    return el


TRACK_FIELDS = {
    "label": Field(Label()),
    "icon": Field(IconName()),
    "label_width": Field(Length(0, 200)),
    "box": Field(Length(3, 40), default=8.0),
    "gap": Field(Length(0, 20), default=1.2),
    "boxes": Field(Int(1, 60)),
    "sections": Field(ListOf(SECTION, 1, 40)),
    "prechecked": Field(Int(0, 60), default=0),
    "arrange": Field(Str(choices=("line", "rows")), default="line"),
    "order": Field(Str(choices=("left", "any")), default="left"),
    "bonus_mark": Field(Label(), default=lambda: {"fr": "±1", "en": "±1"}),
}


def _label_width(el):
    if el.get("label_width") is not None:
        return el["label_width"]
    return 30.0 if el.get("label") else (10.0 if el.get("icon") else 0.0)


def _track_size(el):
    b, g, secs = el["box"], el["gap"], el["sections"]
    lw = _label_width(el)
    has_value = any(s.get("value") is not None for s in secs)
    if el["arrange"] == "rows":
        most = max(s["boxes"] for s in secs)
        bonus = (g + 2 + b) if any(s["bonus"] for s in secs) else 0
        w = lw + most * b + (most - 1) * g + bonus + (2 + 2 * TRACK_BADGE if has_value else 0)
        return w, len(secs) * b + (len(secs) - 1) * g
    w = lw
    for n, s in enumerate(secs):
        w += s["boxes"] * b + (s["boxes"] - 1) * g
        if s.get("value") is not None:
            w += VALUE_GAP + 2 * _value_r(b)
        if n < len(secs) - 1:
            w += SECTION_GAP
    badges = any(s.get("badge") for s in secs)
    return w, b + (BADGE_BAND if badges else 0)


def _track_build(el, env):
    x, y, b, p = el["x"], el["y"], el["box"], el["_path"]
    lw = _label_width(el)
    h = _track_size(el)[1]
    out = []
    if lw:
        lh = b if el["arrange"] == "line" else h
        ly = y + (h - b if el["arrange"] == "line" else 0)
        out += _label_block(x, ly, lw - 1.5, lh, el, env, p, icon_size=min(b, 8.0))
    name = title_of(el, env)
    return out + (_rows(el, env, lw, name) if el["arrange"] == "rows" else _line(el, env, lw, name))


def _rows(el, env, lw: float, name: str) -> list:
    """A track arranged in rows: one row of boxes a section, its bonus circle and value after it."""
    x, y, b, g = el["x"], el["y"], el["box"], el["gap"]
    p, eid = el["_path"], el["id"]
    secs = el["sections"]
    out, n_box = [], 0
    for r, s in enumerate(secs):
        by = y + r * (b + g)
        row = word(env, "row", r + 1)
        for i in range(s["boxes"]):
            bx = x + lw + i * (b + g)
            checked = n_box < el["prechecked"]
            n_box += 1
            hint = tip(name, row, word(env, "box", i + 1))
            out.append(Box(bx, by, b, b, "check", checked, box_field(eid, n_box), tip=hint))
            _box_marks(out, bx, by, b, (s.get("costs") or [[]] * s["boxes"])[i], False)
        cx = x + lw + max(t["boxes"] for t in secs) * (b + g) - g
        if s["bonus"]:
            hint = tip(name, row, word(env, "bonus"))
            field = f"{eid}_bonus{r + 1}"
            out.append(Box(cx + g + 2, by, b, b, "round", False, field, stroke=env.accent, tip=hint))
            out.append(
                Text(
                    cx + g + 2.8,
                    by,
                    b - 1.6,
                    b,
                    env.t(el["bonus_mark"], p + ".bonus_mark"),
                    "condensed",
                    7.0,
                    "center",
                    color="#6a6a6a",
                    path=p + ".bonus_mark",
                )
            )
            cx += g + 2 + b
        if s.get("value") is not None:
            out += _badge(
                cx + 2 + TRACK_BADGE,
                by + b / 2,
                min(TRACK_BADGE, b / 2 + 0.4, (b + g) / 2 - 0.3),  # rows' circles apart
                s["value"],
                env,
                f"{p}.sections[{r}].value",
                f"{eid}.sections[{r}].value",
            )
    return out


def _line(el, env, lw: float, name: str) -> list:
    """A track arranged in a line: its sections side by side, each framed when there are
    several, with its badge above and its value after it."""
    x, y, b, g = el["x"], el["y"], el["box"], el["gap"]
    p, eid = el["_path"], el["id"]
    secs = el["sections"]
    out, n_box = [], 0
    cx = x + lw
    top = y + (BADGE_BAND if any(s.get("badge") for s in secs) else 0)
    for n, s in enumerate(secs):
        sw = s["boxes"] * b + (s["boxes"] - 1) * g
        if len(secs) > 1:
            out.append(Rect(cx - 0.8, top - 0.8, sw + 1.6, b + 1.6, env.accent, env.tint, 0.8, 1.5))
        if s.get("badge"):
            out.append(
                Text(
                    cx,
                    y,
                    sw,
                    BADGE_BAND - 1.8,
                    env.t(s["badge"], f"{p}.sections[{n}].badge"),
                    "condensed-bold",
                    7.0,
                    "center",
                    color=env.accent,
                    path=f"{p}.sections[{n}].badge",
                )
            )
        for i in range(s["boxes"]):
            bx = cx + i * (b + g)
            checked = n_box < el["prechecked"]
            n_box += 1
            hint = tip(name, word(env, "box", n_box)) if sum(t["boxes"] for t in secs) > 1 else tip(name)
            out.append(Box(bx, top, b, b, "check", checked, box_field(eid, n_box), tip=hint))
            _box_marks(out, bx, top, b, (s.get("costs") or [[]] * s["boxes"])[i], False)
            _box_marks(out, bx, top, b, (s.get("yields") or [[]] * s["boxes"])[i], True)
        cx += sw
        if s.get("value") is not None:
            r = _value_r(b)
            out += _badge(
                cx + VALUE_GAP + r,
                top + b / 2,
                r,
                s["value"],
                env,
                f"{p}.sections[{n}].value",
                f"{eid}.sections[{n}].value",
            )
            cx += VALUE_GAP + 2 * r
        cx += SECTION_GAP
    return out


def _track_read(el, values: dict, warnings: list | None = None) -> dict:
    """Boxes checked (the pre-printed ones included): from the left, or in any order (`order`)."""
    boxes = sum(s["boxes"] for s in el["sections"])
    left = el.get("order", "left") == "left"
    return {el["id"]: read_checked(el["id"], boxes, el.get("prechecked", 0), values, warnings, left)}


TYPE = ElementType(
    "track",
    TRACK_FIELDS,
    _track_size,
    _track_build,
    post=_track_post,
    read=_track_read,
    ticked=True,
    markable=True,
    verified_items=("sections",),
    doc="check boxes in sections, each section with an optional printed value",
)
