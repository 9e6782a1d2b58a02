"""The `text` element: a block of wrapped text (rules reminders, hints)."""

from __future__ import annotations

from sheetgen.layout.display import INK, Text
from sheetgen.layout.elements.common import FONT, SIZE, ElementType, Label
from sheetgen.schema import Color, Field, Num, Str

TEXT_FIELDS = {
    "size": Field(SIZE, required=True),
    "text": Field(Label(), required=True),
    "font": Field(FONT, default="sans"),
    "font_size": Field(Num(5.5, 48), default=8.5),
    "align": Field(Str(choices=("left", "center", "right")), default="left"),
    "valign": Field(Str(choices=("top", "middle", "bottom")), default="top"),
    "color": Field(Color(), default=INK),
    "style": Field(Str(choices=("normal", "hint")), default="normal"),
}


def _text_build(el, env):
    (w, h) = el["size"]
    p = el["_path"] + ".text"
    return [
        Text(
            el["x"],
            el["y"],
            w,
            h,
            env.t(el["text"], p, house=env.is_house(el["id"])),
            el["font"],
            el["font_size"],
            el["align"],
            el["valign"],
            el["color"],
            path=p,
            hint=el["style"] == "hint",
        )
    ]


TYPE = ElementType(
    "text", TEXT_FIELDS, lambda el: el["size"], _text_build, doc="a block of wrapped text (rules reminders)"
)
