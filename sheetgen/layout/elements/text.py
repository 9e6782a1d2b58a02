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


def _text_covers(el, prims) -> tuple | None:
    """(x, y, w, h) of its lines of text as fitted (a block of text is mostly air), or None
    when it has none or they do not fit."""
    if not prims:
        return None
    from sheetgen import text as fonts

    t = prims[0]
    pt = 72 / 25.4
    fit = fonts.fit_text(t.text, t.font, t.size, t.w * pt, t.h * pt, t.wrap, t.min_size)
    if not fit.fits:
        return None
    bh = (fit.size + (len(fit.lines) - 1) * fit.leading) / pt
    bw = max(fonts.width(line, t.font, fit.size) for line in fit.lines) / pt
    y = t.y + {"top": 0, "middle": (t.h - bh) / 2, "bottom": t.h - bh}[t.valign]
    x = t.x + {"left": 0, "center": (t.w - bw) / 2, "right": t.w - bw}[t.align]
    return x, y, bw, bh + fit.size * 0.25 / pt


TYPE = ElementType(
    "text",
    TEXT_FIELDS,
    lambda el: el["size"],
    _text_build,
    covers=_text_covers,
    size_key="font_size",
    doc="a block of wrapped text (rules reminders)",
)
