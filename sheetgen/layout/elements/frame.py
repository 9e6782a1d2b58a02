"""The `frame` element: a bordered zone with an optional coloured title bar; other
elements sit `in:` it.
"""

from __future__ import annotations

from sheetgen.layout.display import Icon, Rect, Text
from sheetgen.layout.elements.common import SIZE, ElementType, IconName, Label
from sheetgen.schema import Color, Field, Length

FRAME_FIELDS = {
    "size": Field(SIZE, required=True),
    "title": Field(Label()),
    "icon": Field(IconName()),
    "header": Field(Length(3, 30), default=7.0),
    "color": Field(Color()),
    "fill": Field(Color()),
}


def _frame_build(el, env):
    x, y, (w, h) = el["x"], el["y"], el["size"]
    color = el.get("color") or env.accent
    out = [Rect(x, y, w, h, color, el.get("fill", "#ffffff"), 1.4, 2.5)]
    if el.get("title"):
        hh = el["header"]
        out += [Rect(x, y, w, hh, None, color, 0, 2.5), Rect(x, y + hh / 2, w, hh / 2, None, color, 0)]
        tx = x + 3
        if el.get("icon"):
            out.append(Icon(tx, y + 0.6, hh - 1.2, el["icon"]))
            tx += hh + 0.5
        out.append(
            Text(
                tx,
                y,
                w - (tx - x) - 2,
                hh,
                env.t(el["title"], el["_path"] + ".title"),
                "sans-bold",
                min(11.0, hh * 1.5),
                color="#ffffff",
                path=el["_path"] + ".title",
            )
        )
    return out


TYPE = ElementType(
    "frame",
    FRAME_FIELDS,
    lambda el: el["size"],
    _frame_build,
    container=True,
    doc="a bordered zone with an optional header title and icon",
)
