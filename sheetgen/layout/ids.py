"""The names a layout's parts go by: element ids unique in the layout, box ids (field
names of their own) unique among them, row ids unique in their table, and `house_note_in`
naming a frame. Checked on the layout's keys, before anything is placed.
"""

from __future__ import annotations

from sheetgen.layout import elements as E
from sheetgen.schema import Ctx, Where


def check_ids(data: dict, raw: dict, ctx: Ctx) -> dict:
    """{id: element} of every element of the checked layout `data` (`raw`: its tree); a
    duplicate id, box or row id, or a `house_note_in` that names no frame, goes to `ctx`."""
    ids: dict[str, dict] = {}
    for page in data["pages"]:
        for el in page["elements"]:
            if el["id"] in ids:
                ctx.error(Where(el["_node"], "id", el["_path"] + ".id"), "duplicate element id")
            ids[el["id"]] = el
    _check_item_ids(data["pages"], ids, ctx)
    _check_note_frames(data, raw, ctx)
    return ids


def _check_item_ids(pages: list, elements: dict, ctx: Ctx) -> None:
    """The id of a box in a type's `box_ids` list (number boxes) is a field name of its own
    (the scorer's, a fillable PDF's): unique among the elements and the other boxes. The id
    of a row in a type's `row_ids` list (a score table's) is unique in its element."""
    boxes: dict[str, str] = {}
    for page in pages:
        for el in page["elements"]:
            kind = E.TYPES[el["type"]]
            for key in filter(None, (kind.box_ids, kind.row_ids)):
                raw = el["_node"].get(key)
                rows: set = set()
                for n, item in enumerate(el[key]):
                    iid = item["id"]
                    node = raw[n] if isinstance(raw, list) and n < len(raw) else el["_node"]
                    at = Where(node, "id", f"{el['_path']}.{key}[{n}].id")
                    if key == kind.row_ids:
                        if iid in rows:
                            ctx.error(at, f"duplicate row id '{iid}' in this table")
                        rows.add(iid)
                    elif iid in elements:
                        ctx.error(at, f"duplicate id '{iid}': already the id of element '{iid}'")
                    elif iid in boxes:
                        ctx.error(at, f"duplicate id '{iid}': already the id of a box of '{boxes[iid]}'")
                    else:
                        boxes[iid] = el["id"]


def _check_note_frames(data: dict, raw: dict, ctx: Ctx) -> None:
    """`house_note_in` names a frame: a page's, a frame of that page; the layout's, a frame of
    at least one page (the others put their note anywhere on the sheet)."""

    def frames(page) -> list[str]:
        return [el["id"] for el in page["elements"] if E.TYPES[el["type"]].container]

    raw_pages = raw.get("pages") if isinstance(raw.get("pages"), list) else []
    for n, page in enumerate(data["pages"]):
        fid = page.get("house_note_in")
        if fid is not None and fid not in frames(page):
            node = raw_pages[n] if n < len(raw_pages) else raw
            ctx.error(
                Where(node, "house_note_in", f"pages[{n}].house_note_in"),
                f"no frame '{fid}' on this page; frames: {', '.join(frames(page)) or 'none'}",
            )
    fid = data.get("house_note_in")
    if fid is not None and not any(fid in frames(page) for page in data["pages"]):
        every = sorted({f for page in data["pages"] for f in frames(page)})
        ctx.error(
            Where(raw, "house_note_in", "house_note_in"), f"no frame '{fid}'; frames: {', '.join(every) or 'none'}"
        )
