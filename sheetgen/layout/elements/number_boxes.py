"""The `number_boxes` element: labelled boxes to write numbers in (score areas)."""

from __future__ import annotations

from sheetgen.layout.display import DROPOUT_GREY, Rect, Text, tip, write_box
from sheetgen.layout.elements.common import (
    SIZE,
    ElementType,
    IconName,
    IdStr,
    Label,
    _label_block,
    _label_fits,
)
from sheetgen.schema import Bool, Field, Length, ListOf, Map, Str

NB_ITEM = Map(
    {
        "id": Field(IdStr(), required=True),
        "label": Field(Label(), required=True),
        "icon": Field(IconName()),
        "op": Field(Str(choices=("", "+", "-", "×", "=")), default=""),
        "total": Field(Bool(), default=False),
    },
    what="a box mapping",
)

NB_OP = 6.0
NB_LABEL = 7.0
NB_PAD = 1.0  # mm between a box and the label under it

NUMBER_BOXES_FIELDS = {
    "boxes": Field(ListOf(NB_ITEM, 1, 30), required=True),
    "box": Field(SIZE, default=(16.0, 11.0)),
    "arrange": Field(Str(choices=("row", "column")), default="row"),
    # column: room for the labels on the left (0: the labels are not printed, only a form
    # field's tooltip says them, as when a caption over the column says what goes in)
    "label_width": Field(Length(0, 200), default=35.0),
    "gap": Field(Length(0, 20), default=1.5),
    # the band under each box of a row for its label: 7 mm holds two lines of 7 pt (0: the
    # labels are not printed, as with label_width 0)
    "label_height": Field(Length(0, 30), default=NB_LABEL),
}


def _nb_size(el):
    (bw, bh), n = el["box"], len(el["boxes"])
    if el["arrange"] == "row":
        return n * bw + (n - 1) * NB_OP, bh + el["label_height"]
    return el["label_width"] + NB_OP + bw, n * bh + (n - 1) * el["gap"]


def _nb_build(el, env):
    x, y, (bw, bh) = el["x"], el["y"], el["box"]
    out = []
    for n, item in enumerate(el["boxes"]):
        p = f"{el['_path']}.boxes[{n}]"
        if el["arrange"] == "row":
            bx, by = x + n * (bw + NB_OP), y
            if item["op"] and n:
                out.append(Text(bx - NB_OP, by, NB_OP, bh, item["op"], "sans-bold", 12, "center", path=p))
            lx, ly, lw, lh = bx - 1, by + bh + NB_PAD, bw + 2, el["label_height"] - NB_PAD
            if lh > 0 and not _label_fits(item, env, p, lw, lh, max(7.0, env.smallest_text), 4.5):
                # spread under half of the gaps beside the box (the op signs sit higher)
                left = NB_OP / 2 - 0.5 if n else 1.0
                right = NB_OP / 2 - 0.5 if n < len(el["boxes"]) - 1 else 1.0
                lx, lw = bx - left, bw + left + right
            if lh > 0:
                out += _label_block(lx, ly, lw, lh, item, env, p, size=7.0, icon_size=4.5)
        else:
            bx, by = x + el["label_width"] + NB_OP, y + n * (bh + el["gap"])
            if el["label_width"] > 0:
                out += _label_block(x, by, el["label_width"] - 1, bh, item, env, p, size=8.0, icon_size=min(bh - 2, 7))
            if item["op"]:
                out.append(Text(bx - NB_OP, by, NB_OP, bh, item["op"], "sans-bold", 12, "center", path=p))
        fill = env.tint if item["total"] else "#ffffff"
        out.append(write_box(bx, by, bw, bh, item["id"], fill=fill, tip=tip(env.plain(item["label"]))))
        if item["total"]:  # (framed in the dropout grey, as the boxes' edges: a pen shows over it)
            out.append(Rect(bx, by, bw, bh, DROPOUT_GREY, None, 1.6))
    return out


def _nb_read(el, values: dict, warnings: list | None = None) -> dict:
    """Each box's text, under the box's own id."""
    return {item["id"]: values.get(item["id"], "") for item in el["boxes"]}


TYPE = ElementType(
    "number_boxes",
    NUMBER_BOXES_FIELDS,
    _nb_size,
    _nb_build,
    read=_nb_read,
    markable=True,
    box_ids="boxes",
    doc="labelled boxes to write numbers in (score areas)",
)
