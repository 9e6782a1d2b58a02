"""Read a filled fillable PDF (`sheetgen render --fillable`) back into a record.

The form fields are named from the layout's ids (sheetgen.render.pdf.add_fields),
so each element's marks are read the same way for every game (`element_marks`);
the game module then turns one sheet's marks into a player
(`record_from_sheets`). Each copy in the PDF is one sheet: a pad of four copies
filled by four players reads as a four-player game.
"""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path

from sheetgen.errors import Problem, RecordError, SheetgenError
from sheetgen.games import game_for, load_layout
from sheetgen.layout.display import COPY_SEPARATOR
from sheetgen.layout.model import Layout

MAX_FIELDS = 50_000  # form fields in one PDF (a 100-copy fillable pad has ~20,000)


def _value(field: dict):
    """A check box's state (bool) or a text field's text."""
    value = field.get("/V")
    if field.get("/FT") == "/Btn":
        return value not in (None, "/Off", "")
    return "" if value is None else str(value).strip()


def read_fields(path: str | Path) -> tuple[str, list[str] | None, list[dict]]:
    """The layout id (the PDF's subject), the pages rendered (None if the PDF does
    not say) and, per copy, {field name: value}. `-` reads standard input."""
    from pypdf import PdfReader

    from sheetgen.fileio import MAX_PDF_INPUT, read_input

    try:
        data = read_input(path, MAX_PDF_INPUT)
    except SheetgenError as exc:
        raise RecordError(exc.problems) from None
    if b"%PDF-" not in data[:1024]:
        raise RecordError(f"{path}: not a readable PDF (it does not start with %PDF-)")
    quiet = logging.getLogger("pypdf")
    level, quiet.level = quiet.level, logging.CRITICAL + 1  # pypdf's own log lines: we say what is wrong
    try:
        reader = PdfReader(io.BytesIO(data))
        fields = reader.get_fields() or {}
        meta = reader.metadata or {}
        subject = meta.get("/Subject")
        keywords = str(meta.get("/Keywords") or "")
    except RecursionError:
        raise RecordError(f"{path}: not a readable PDF (its objects are nested too deeply)") from None
    except Exception as exc:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
        why = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise RecordError(f"{path}: not a readable PDF ({why})") from None
    finally:
        quiet.level = level
    if not fields:
        raise RecordError(f"{path}: the PDF has no form fields; render it with `sheetgen render --fillable`")
    if len(fields) > MAX_FIELDS:
        raise RecordError(f"{path}: {len(fields):,} form fields; the limit is {MAX_FIELDS:,}")
    copies: dict[int, dict] = {}
    for name, field in fields.items():
        base, sep, copy = str(name).rpartition(COPY_SEPARATOR)
        if not sep or not _COPY.fullmatch(copy):
            base, copy = str(name), "1"
        copies.setdefault(int(copy), {})[base] = _value(field) if isinstance(field, dict) else ""
    pages = next((w[len("pages=") :].split(",") for w in keywords.split() if w.startswith("pages=")), None)
    return str(subject or ""), pages, [copies[n] for n in sorted(copies)]


_COPY = re.compile(r"[0-9]{1,6}")  # ASCII digits only: a name like `pig_1__²` is no copy number


def _spans(numbers: list[int]) -> str:
    """[1, 2, 3, 7] -> '1-3 and 7'."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = [f"{a}-{b}" if a != b else str(a) for a, b in runs]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def element_marks(layout: Layout, values: dict, warnings: list | None = None) -> dict:
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
                checked = [n for n in range(pre + 1, boxes + 1) if values.get(f"{eid}_{n}") is True]
                marks[eid] = pre + len(checked)
                if warnings is not None and checked and checked[-1] != pre + len(checked):
                    warnings.append(
                        f"{eid}: boxes {_spans(checked)} are checked, with a gap; "
                        f"read as the first {pre + len(checked)} boxes"
                    )
            elif kind == "grid":
                marks[eid] = [
                    "".join((values.get(f"{eid}_r{r}_c{c}") or ".")[:1].upper() for c in range(1, el["cols"] + 1))
                    for r in range(1, el["rows"] + 1)
                ]
            elif kind == "number_boxes":
                for item in el["boxes"]:
                    marks[item["id"]] = values.get(item["id"], "")
            elif kind == "score_table":
                players = _columns(values, el)
                for row in el["rows"]:
                    rid = row["id"]
                    if row["kind"] == "grid":
                        cols, rows = row["grid"]
                        marks[rid] = [
                            [
                                [values.get(f"{rid}_p{i}_r{r}_c{c}") is True for c in range(1, cols + 1)]
                                for r in range(1, rows + 1)
                            ]
                            for i in range(1, players + 1)
                        ]
                    elif row["kind"] != "heading":
                        marks[rid] = [
                            values.get(f"{rid}_p{i}", "" if row["kind"] != "winner" else False)
                            for i in range(1, players + 1)
                        ]
                        if row["kind"] == "names":
                            marks["player_names"] = marks[rid]
                        if row.get("count"):
                            marks[f"{rid}_count"] = [values.get(f"{rid}_p{i}_count", "") for i in range(1, players + 1)]
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
    pre = {
        f"{el['id']}_{n}"
        for p in layout.pages
        for el in p.elements
        if el["type"] == "track"
        for n in range(1, el.get("prechecked", 0) + 1)
    }
    return not any(v for k, v in values.items() if k not in pre)


def pdf_layout(path, subject: str, layout_ref: str | None) -> Layout:
    """The layout of a filled PDF. Its metadata comes from whoever sent the file, so it
    may only name a built-in layout; a variant needs `layout_ref`, and a `layout_ref`
    whose id is not the PDF's own is an error (reading marks against another sheet's
    boxes would silently shift them)."""
    from sheetgen.errors import printable
    from sheetgen.layout.resolve import builtin_ids, is_builtin_ref

    shown = printable(subject[:60])
    if layout_ref is None:
        if not subject:
            raise RecordError(f"{path}: the PDF does not name its layout; give --layout")
        if not is_builtin_ref(subject) or subject not in builtin_ids():
            raise RecordError(
                f"{path}: the PDF names the layout '{shown}', which is not a built-in layout; "
                "give --layout with the layout file it was rendered from"
            )
        return load_layout(subject)
    layout = load_layout(layout_ref)
    if subject and subject != layout.id:
        given = f" ({layout_ref})" if layout_ref != layout.id else ""
        raise RecordError(
            f"{path}: the PDF was rendered from layout '{shown}', not from '{layout.id}'{given}; "
            "give the --layout it was rendered from"
        )
    return layout


def record_from_pdfs(paths: list[str], layout_ref: str | None = None, warnings: list | None = None) -> dict:
    """One record from filled PDFs of one layout: every non-blank sheet, in order.
    Problems the reading finds (a gap in a track) are added to `warnings`."""
    sheets, layout = [], None
    for path in paths:
        subject, pages, copies = read_fields(path)
        this = pdf_layout(path, subject, layout_ref)
        if layout is not None and this.id != layout.id:
            raise RecordError(f"{path}: a sheet of '{this.id}', but the others are of '{layout.id}'")
        layout = this
        missing = [p.id for p in layout.pages if pages is not None and p.id not in pages]
        if missing:
            raise RecordError(
                f"{path}: the PDF lacks the page{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)} of '{layout.id}'; render every page with --fillable"
            )
        for n, values in enumerate(copies, 1):
            if is_blank(values, layout):
                continue
            found: list = []
            sheets.append(element_marks(layout, values, found))
            where = f"{path}: sheet {n}: " if len(copies) > 1 else f"{path}: "
            if warnings is not None:
                warnings += [where + w for w in found]
    game = game_for(layout)
    if game.record_from_sheets is not None and not sheets:
        raise RecordError(Problem("every sheet is blank", paths[0]))
    return {"layout": layout_ref or layout.id, **game.read_sheets(layout, sheets, paths[0])}
