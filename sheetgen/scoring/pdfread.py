"""Read a filled fillable PDF (`sheetgen render --fillable`) back into a record.

The form fields are named from the layout's ids (sheetgen.render.pdf.add_fields),
so each element's marks are read the same way for every game (`element_marks`);
the game module then turns one sheet's marks into a player
(`record_from_sheets`). Each copy in the PDF is one sheet: a pad of four copies
filled by four players reads as a four-player game.
"""

from __future__ import annotations

from pathlib import Path

from sheetgen.errors import Problem, RecordError
from sheetgen.games import game_for, load_layout
from sheetgen.layout.model import Layout
from sheetgen.layout.display import COPY_SEPARATOR


def _value(field: dict):
    """A check box's state (bool) or a text field's text."""
    value = field.get("/V")
    if field.get("/FT") == "/Btn":
        return value not in (None, "/Off", "")
    return "" if value is None else str(value).strip()


def read_fields(path: str | Path) -> tuple[str, list[str] | None, list[dict]]:
    """The layout id (the PDF's subject), the pages rendered (None if the PDF does
    not say) and, per copy, {field name: value}."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        fields = reader.get_fields() or {}
        meta = reader.metadata or {}
        subject = meta.get("/Subject")
        keywords = str(meta.get("/Keywords") or "")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except (PdfReadError, OSError, ValueError) as exc:
        raise RecordError(f"{path}: not a readable PDF ({exc})") from None
    if not fields:
        raise RecordError(f"{path}: the PDF has no form fields; render it with `sheetgen render --fillable`")
    copies: dict[int, dict] = {}
    for name, field in fields.items():
        base, sep, copy = name.rpartition(COPY_SEPARATOR)
        if not sep or not copy.isdigit():
            base, copy = name, "1"
        copies.setdefault(int(copy), {})[base] = _value(field)
    pages = next((w[len("pages="):].split(",") for w in keywords.split() if w.startswith("pages=")), None)
    return str(subject or ""), pages, [copies[n] for n in sorted(copies)]


def element_marks(layout: Layout, values: dict) -> dict:
    """One sheet's marks, per element id (and per number box id):

    - track and building: boxes checked (pre-printed ones included);
    - grid: its rows as strings, one character per cell ('.' when empty);
    - number boxes: each box's text, under the box's id;
    - score table: per row id, one entry per player column: the text, the
      winner box's state, or for a grid row the grid's rows of booleans;
      a row's small count boxes under `<row id>_count`; the names row also
      under `player_names`;
    - an element type with its own `read` (sheetgen.layout.elements.common.ElementType):
      what that returns.
    """
    from sheetgen.layout.elements import TYPES

    marks: dict = {}
    for page in layout.pages:
        for el in page.elements:
            eid, kind = el["id"], el["type"]
            if TYPES[kind].read is not None:
                marks.update(TYPES[kind].read(el, values))
            elif kind in ("track", "building"):
                boxes = sum(s["boxes"] for s in el["sections"]) if kind == "track" else len(el["boxes"])
                pre = el.get("prechecked", 0) if kind == "track" else 0
                marks[eid] = pre + sum(1 for n in range(pre + 1, boxes + 1) if values.get(f"{eid}_{n}") is True)
            elif kind == "grid":
                marks[eid] = ["".join((values.get(f"{eid}_r{r}_c{c}") or ".")[:1].upper()
                                      for c in range(1, el["cols"] + 1)) for r in range(1, el["rows"] + 1)]
            elif kind == "number_boxes":
                for item in el["boxes"]:
                    marks[item["id"]] = values.get(item["id"], "")
            elif kind == "score_table":
                players = _columns(values, el)
                for row in el["rows"]:
                    rid = row["id"]
                    if row["kind"] == "grid":
                        cols, rows = row["grid"]
                        marks[rid] = [[[values.get(f"{rid}_p{i}_r{r}_c{c}") is True for c in range(1, cols + 1)]
                                       for r in range(1, rows + 1)] for i in range(1, players + 1)]
                    elif row["kind"] != "heading":
                        marks[rid] = [values.get(f"{rid}_p{i}", "" if row["kind"] != "winner" else False)
                                      for i in range(1, players + 1)]
                        if row["kind"] == "names":
                            marks["player_names"] = marks[rid]
                        if row.get("count"):
                            marks[f"{rid}_count"] = [values.get(f"{rid}_p{i}_count", "")
                                                     for i in range(1, players + 1)]
    return marks


def _columns(values: dict, table: dict) -> int:
    """How many player columns the filled pad has (its first row's fields tell)."""
    rid = next(r["id"] for r in table["rows"] if r["kind"] != "heading")
    n = 0
    while f"{rid}_p{n + 1}" in values or any(k.startswith(f"{rid}_p{n + 1}_") for k in values):
        n += 1
    return n


def is_blank(values: dict, layout: Layout) -> bool:
    """No mark on the sheet beyond what is printed."""
    pre = {f"{el['id']}_{n}" for p in layout.pages for el in p.elements if el["type"] == "track"
           for n in range(1, el.get("prechecked", 0) + 1)}
    return not any(v for k, v in values.items() if k not in pre)


def record_from_pdfs(paths: list[str], layout_ref: str | None = None) -> dict:
    """One record from filled PDFs of one layout: every non-blank sheet, in order."""
    sheets, ref, layout = [], layout_ref, None
    for path in paths:
        subject, pages, copies = read_fields(path)
        this = layout_ref or subject
        if not this:
            raise RecordError(f"{path}: the PDF does not name its layout; give --layout")
        if ref is not None and this != ref:
            raise RecordError(f"{path}: a sheet of '{this}', but the others are of '{ref}'")
        ref = this
        layout = layout or load_layout(ref)
        missing = [p.id for p in layout.pages if pages is not None and p.id not in pages]
        if missing:
            raise RecordError(f"{path}: the PDF lacks the page{'s' if len(missing) > 1 else ''} "
                              f"{', '.join(missing)} of '{ref}'; render every page with --fillable")
        sheets += [element_marks(layout, v) for v in copies if not is_blank(v, layout)]
    game = game_for(layout)
    if game.record_from_sheets is not None and not sheets:
        raise RecordError(Problem("every sheet is blank", paths[0]))
    return {"layout": ref, **game.read_sheets(layout, sheets, paths[0])}
