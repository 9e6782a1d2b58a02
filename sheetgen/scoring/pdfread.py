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


def has_form_fields(path: str | Path) -> bool:
    """The file is a PDF holding form fields (a `--fillable` sheet filled on a screen):
    what its fields hold is read, not how a viewer happens to draw them."""
    try:
        read_fields(path)
    except RecordError:
        return False
    return True


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


def element_marks(layout: Layout, values: dict, warnings: list | None = None) -> dict:
    """One sheet's marks: each element type reads its own boxes (`read` of its module in
    sheetgen.layout.elements, with the same field-naming functions its builder uses):
    a track or a building gives the boxes checked, a grid its rows as strings, number
    boxes their texts, a score table its rows per player column..."""
    from sheetgen.layout.elements import TYPES

    marks: dict = {}
    game = game_for(layout)
    unordered = game.any_order(layout)  # (the rules' tracks checked in any order)
    for page in layout.pages:
        for el in page.elements:
            read = TYPES[el["type"]].read
            if read is not None:
                marks.update(read({**el, "order": "any"} if el["id"] in unordered else el, values, warnings))
    if warnings is not None:
        for eid, kind in game.unread_ticked(layout):
            if _marked(marks.get(eid)):
                warnings.append(
                    f"{eid}: marked, but the {game.id} scorer does not read this {kind}: its marks count for nothing"
                )
    return marks


def _marked(value) -> bool:
    """An element's marks hold one: boxes checked (a count), a grid row's cell filled."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value > 0
    if isinstance(value, str):
        return value.strip(". ") != ""
    if isinstance(value, list | tuple):
        return any(_marked(v) for v in value)
    return False


def markable_fields(layout: Layout) -> dict[str, str]:
    """The field names of the boxes a player marks, at the most players (the display
    list's `PageDisplay.boxes()`: pre-printed boxes excepted), with their kind."""
    return {b.field: b.kind for page in layout.document(players=layout.players["max"]).pages for b in page.boxes()}


def _field_kinds_match(path, values: dict, markable: dict[str, str]) -> None:
    """Refuse a form field of another kind than its box (a check box where the sheet has
    a box to write in, or text in a box to tick): not a PDF that sheetgen filled."""
    for name, value in values.items():
        kind = markable.get(name)
        if kind is not None and isinstance(value, bool) != (kind != "write"):
            has, wants = ("a check box", "a box to write in") if isinstance(value, bool) else ("text", "a box to tick")
            raise RecordError(
                f"{path}: the form field '{name}' is {has} where the sheet has {wants}; "
                "fill the PDF that `sheetgen render --fillable` made"
            )


def is_blank(values: dict, markable: set[str]) -> bool:
    """No mark on the sheet beyond what is printed: only the layout's markable boxes
    count; a field the layout does not draw (a stranger's `pig_1__²`) is no mark."""
    return not any(v for key, v in values.items() if key in markable)


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
        markable = markable_fields(layout)
        for n, values in enumerate(copies, 1):
            _field_kinds_match(path, values, markable)
            if is_blank(values, markable):
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
