"""Placement: the absolute x, y, w, h of every element of a checked layout, in list order
(`at`, `in`, `below`, `right_of`, frames that grow around their contents). What placed
each element besides its own keys is returned (`Placement`), for blame to follow.
"""

from __future__ import annotations

from sheetgen.layout import elements as E
from sheetgen.paper import MAX_SHEET
from sheetgen.schema import Ctx, Where
from sheetgen.values import valueclass


@valueclass
class Placement:
    """What placed or sized each element besides its own keys (sheetgen.layout.blame follows
    it to the key that moved an element): `after`, element id -> the ids of the elements it
    was placed below, right of or in; `sized_by`, frame id -> the ids of the contents that
    grew it (a frame with an `auto` side)."""

    after: dict
    sized_by: dict

    def influences(self, eid: str) -> list[str]:
        """The ids that placed or sized the element `eid`, in that order."""
        return self.after.get(eid, []) + self.sized_by.get(eid, [])


def place(pages: list, ctx: Ctx, sheet: tuple = (MAX_SHEET[0], MAX_SHEET[1])) -> Placement:
    """Absolute x, y, w, h for every element, in list order: `at` from the sheet's corner or
    from the inside of its `in:` frame, or an offset from where `below:` / `right_of:` put
    it; a frame with an `auto` side grows around what sits in it, one with a `fill` side
    reaches the sheet's edge (`sheet`: its width and height) and grows like `auto` past it.
    Problems go to `ctx`; what placed each element is returned."""
    placement = Placement({}, {})
    for page in pages:
        placed: dict = {}  # id -> the element of that id placed last
        followed: dict = {}  # id -> the ids placed after it (below:, right_of:)
        for el in page["elements"]:
            _place_one(el, placed, followed, placement, ctx, sheet)
            placed[el["id"]] = el
            followed.pop(el["id"], None)  # a later element of the same id is followed by none yet
    return placement


def _place_one(el: dict, placed: dict, followed: dict, placement: Placement, ctx: Ctx, sheet: tuple) -> None:
    node, path = el["_node"], el["_path"]
    el["w"], el["h"] = E.TYPES[el["type"]].size(el)
    frame = None
    if "in" in el:
        frame = placed.get(el["in"])
        if frame is None or not E.TYPES[frame["type"]].container:
            ctx.error(Where(node, "in", path + ".in"), f"no frame '{el['in']}' earlier on this page")
            frame = None
    key = "below" if "below" in el else "right_of"
    if "below" in el and "right_of" in el:
        ctx.error(Where(node, "right_of", path + ".right_of"), "give either below or right_of, not both")
    refs = el.get("below") or ([el["right_of"]] if "right_of" in el else [])
    if refs and _own_at(node, key):
        refs = []  # a child's own `at` over a parent's below/right_of: that position, as written
    anchors = []
    for ref in refs:
        if ref not in placed:
            ctx.error(Where(node, key, f"{path}.{key}"), f"no element '{ref}' earlier on this page")
        else:
            anchors.append(placed[ref])
    x = y = 0.0
    if anchors:
        if key == "below":
            x, y = anchors[0]["x"], max(a["y"] + a["h"] for a in anchors) + el["space"]
        else:
            x, y = anchors[0]["x"] + anchors[0]["w"] + el["space"], anchors[0]["y"]
        for a in anchors:
            followed.setdefault(a["id"], []).append(el["id"])
    elif not refs and "at" not in el:
        ctx.error(Where(node, None, path), "missing key 'at' (or place it with below: or right_of:)")
    elif frame is not None and not refs:
        x, y = frame["x"], frame["y"] + (frame["header"] if frame.get("title") else 0)
    dx, dy = el.get("at") or (0.0, 0.0)
    el["x"], el["y"] = x + dx, y + dy
    for n, side in enumerate(el.get("size") or () if E.TYPES[el["type"]].container else ()):
        if side == "fill":
            least = el["h" if n else "w"]
            el["h" if n else "w"] = max(least, sheet[n] - (el["y"] if n else el["x"]))
    placement.after[el["id"]] = [a["id"] for a in anchors] + ([frame["id"]] if frame is not None else [])
    if frame is not None:
        _grow(frame, el, placed, followed, placement, ctx)


def _own_at(node, key: str) -> bool:
    """Whether `at` was written in a later file than `key` (below/right_of), as a position
    (not `+=` offsets): a variant of a layout that places the element relatively puts it
    where its `at` says, as it did when the parent used positions."""
    if "at" not in node or not hasattr(node, "file_of") or getattr(node["at"], "offset", False):
        return False
    return node.file_of("at") != node.file_of(key)


def _grow(frame: dict, el: dict, placed: dict, followed: dict, placement: Placement, ctx: Ctx) -> None:
    """Grow a frame with an `auto` side around `el` (one of its contents), and its own
    frame in turn; a frame something was already placed after cannot grow any more."""
    auto_w, auto_h = (side in ("auto", "fill") for side in frame["size"])
    if not (auto_w or auto_h):
        return
    placement.sized_by.setdefault(frame["id"], []).append(el["id"])
    right, bottom = frame["padding"]
    w = max(frame["w"], el["x"] + el["w"] + right - frame["x"]) if auto_w else frame["w"]
    h = max(frame["h"], el["y"] + el["h"] + bottom - frame["y"]) if auto_h else frame["h"]
    if (w, h) == (frame["w"], frame["h"]):
        return
    after = followed.get(frame["id"])
    if after:
        ctx.error(
            Where(el["_node"], "in", el["_path"] + ".in"),
            f"frame '{frame['id']}' sizes to its contents, but '{after[0]}' is placed "
            f"after it earlier in the list; list '{el['id']}' before '{after[0]}'",
        )
        return
    frame["w"], frame["h"] = w, h
    outer = placed.get(frame.get("in"))
    if outer is not None and E.TYPES[outer["type"]].container:
        _grow(outer, frame, placed, followed, placement, ctx)
