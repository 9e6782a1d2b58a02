"""The `banner` element: the title banner, with an optional subtitle and icons."""

from __future__ import annotations

from sheetgen.layout.display import Icon, Rect, Text
from sheetgen.layout.elements.common import SIZE, ElementType, IconName, Label
from sheetgen.schema import Color, Field, ListOf, Num

BANNER_FIELDS = {
    "size": Field(SIZE, required=True),
    "text": Field(Label(), required=True),
    "subtitle": Field(Label()),
    "icons": Field(ListOf(IconName(), 0, 8), default=list),
    "font_size": Field(Num(6, 48), default=22.0),
    "color": Field(Color()),
}


def _banner_build(el, env):
    x, y, (w, h) = el["x"], el["y"], el["size"]
    color = el.get("color") or env.accent
    out = [Rect(x, y, w, h, None, color, 0, 3.0), Rect(x + 1.2, y + 1.2, w - 2.4, h - 2.4, "#ffffff", None, 0.6, 2.2)]
    s = h * 0.62
    icons_w = len(el["icons"]) * (s + 1.5)
    for n, name in enumerate(el["icons"]):
        out.append(Icon(x + w - 3 - icons_w + n * (s + 1.5), y + (h - s) / 2, s, name))
    text_w = w - 8 - icons_w
    p = el["_path"]
    if el.get("subtitle"):
        out.append(
            Text(
                x + 5,
                y + 1.5,
                text_w,
                h * 0.58,
                env.t(el["text"], p + ".text"),
                "sans-bold",
                el["font_size"],
                color="#ffffff",
                wrap=False,
                path=p + ".text",
            )
        )
        out.append(
            Text(
                x + 5,
                y + h * 0.58,
                text_w,
                h * 0.36,
                env.t(el["subtitle"], p + ".subtitle"),
                "condensed",
                9.0,
                color="#ffffff",
                valign="top",
                path=p + ".subtitle",
            )
        )
    else:
        out.append(
            Text(
                x + 5,
                y,
                text_w,
                h,
                env.t(el["text"], p + ".text"),
                "sans-bold",
                el["font_size"],
                color="#ffffff",
                wrap=False,
                path=p + ".text",
            )
        )
    return out


TYPE = ElementType(
    "banner", BANNER_FIELDS, lambda el: el["size"], _banner_build, names_sheet=True, doc="the title banner"
)
