"""The `icon` element: one of the built-in icons."""

from __future__ import annotations

from sheetgen.layout.display import Icon
from sheetgen.layout.elements.common import ElementType, IconName
from sheetgen.schema import Color, Field, Length

ICON_FIELDS = {
    "name": Field(IconName(), required=True),
    "size": Field(Length(2, 200), required=True),
    "color": Field(Color()),
}


def _icon_build(el, env):
    return [Icon(el["x"], el["y"], el["size"], el["name"], el.get("color"))]


TYPE = ElementType(
    "icon", ICON_FIELDS, lambda el: (el["size"], el["size"]), _icon_build, doc="one of the built-in icons"
)
