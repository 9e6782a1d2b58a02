"""The `frame` element: a bordered zone with an optional coloured title bar; other
elements sit `in:` it.
"""

from __future__ import annotations

from sheetgen.layout.display import Icon, Rect, Text
from sheetgen.layout.elements.common import ElementType, IconName, Label
from sheetgen.schema import INVALID, Color, Field, Length, Pair, Spec

AUTO = "auto"
FILL = "fill"


class _Side(Spec):
    """A frame's width or height: a length, `auto` (sized to what sits `in:` it) or `fill`
    (to the sheet's edge, and at least its contents)."""

    def check(self, value, ctx, at):
        return value if value in (AUTO, FILL) else Length(0.5, 1000).check(value, ctx, at)


class _Padding(Spec):
    """The room `auto` leaves after the contents: one length, or [right, bottom]."""

    def check(self, value, ctx, at):
        if isinstance(value, list):
            return Pair(Length(0, 100), "a padding [right, bottom]").check(value, ctx, at)
        got = Length(0, 100).check(value, ctx, at)
        return got if got is INVALID else (got, got)


FRAME_FIELDS = {
    "size": Field(Pair(_Side(), "a size [width, height] (each a length, auto or fill)"), required=True),
    "padding": Field(_Padding(), default=lambda: (3.0, 3.0)),
    "title": Field(Label()),
    "icon": Field(IconName()),
    "header": Field(Length(3, 30), default=7.0),
    "color": Field(Color()),
    "fill": Field(Color()),
}


def _frame_build(el, env):
    x, y, w, h = el["x"], el["y"], el["w"], el["h"]
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
    # an `auto` side starts at the header's height (sheetgen.layout.place grows it around its contents)
    lambda el: (
        0.0 if el["size"][0] in (AUTO, FILL) else el["size"][0],
        (el["header"] if el.get("title") else 0.0) if el["size"][1] in (AUTO, FILL) else el["size"][1],
    ),
    _frame_build,
    container=True,
    doc="a bordered zone with an optional header title and icon",
)
