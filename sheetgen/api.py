"""The library under both faces: what the command line (sheetgen.cli) and the table server
(sheetgen.serve) ask of sheetgen, each written once.

- layouts: `load`, `layout_inputs` (the files a LAYOUT argument names);
- rendering: `render` (a `render` command's job checked, drawn and written: `Rendered`);
- records: `blank_record`, `record_from_marks` (a record from the marks of the boxes, by
  their `--fillable` field names, read as a filled PDF is read), `numbers`, `record_yaml`;
- scoring: `score` (the game's own scorer: sheetgen.scoring.record.score_data), `score_pdfs`;
- history: `keep` (scored games into the history, `score --save`'s duplicate rule).

Errors are sheetgen.errors exceptions; an option's bad value is an `OptionError` naming the
option, which the CLI shows as Click shows its own.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sheetgen.errors import UsageError, printable
from sheetgen.values import valueclass


class OptionError(UsageError):
    """A bad value of one option (`param`, as the CLI names it: '--players')."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.param = param


# --------------------------------------------------------------------------- layouts


def load(ref: str, relative_to=None):
    """A validated layout whose game exists (a built-in id, a path, or `-`)."""
    from sheetgen.games import load_layout

    return load_layout(ref, relative_to)


def layout_inputs(ref: str) -> list[str]:
    """The input file a LAYOUT argument names (none for a built-in id or stdin)."""
    from sheetgen.layout.resolve import is_builtin_ref

    return [] if ref == "-" or is_builtin_ref(ref) else [ref]


def layout_ref_for(ref: str, record_path: str | None) -> str:
    """How a record written to `record_path` names the layout `ref` (given relative to the
    current folder): a built-in id as is, a path relative to the record's folder."""
    if not layout_inputs(ref) or record_path in (None, "-"):
        return ref
    return os.path.relpath(os.path.abspath(ref), os.path.dirname(os.path.abspath(record_path)))


def player_count(layout, players: int | None) -> int | None:
    """`players` checked against the game's range (an OptionError outside it)."""
    from sheetgen.games import game_for

    lo, hi = game_for(layout).player_range(layout)
    if players is not None and not lo <= players <= hi:
        raise OptionError(f"expected {lo}-{hi}, got {players}", "'--players'")
    return players


# --------------------------------------------------------------------------- rendering

MAX_FORM_FIELDS = 25_000  # in one fillable PDF (100 copies of the largest built-in pad: 21,600)


@valueclass
class Rendered:
    """What a render wrote: the files (as shown), their total size, the printed sides,
    the empty cells of the last page, whether it went front and back, the notes."""

    layout_id: str
    paths: tuple
    size: int
    sides: int
    empty: int
    duplex: bool
    notes: tuple


def render(job: dict, progress=None) -> Rendered:
    """One render of the `render` command (`job`: its options: layout, output, lang, paper,
    copies, players, pages, fillable, per_page, duplex, flip, fmt, dpi, marks, grey,
    no_scan_marks): check the request, draw, write. `progress(total, slow)`, when given, is
    a context manager factory whose value (a callable, or None) is told the work done."""
    from sheetgen.fileio import check_output, write_output
    from sheetgen.render import impose
    from sheetgen.render.formats import FORMATS, file_paths
    from sheetgen.schema import did_you_mean

    layout, output, lang, paper, copies, players = (
        job[k] for k in ("layout", "output", "lang", "paper", "copies", "players")
    )
    pages, fillable, per_page, duplex, flip, fmt = (
        job[k] for k in ("pages", "fillable", "per_page", "duplex", "flip", "fmt")
    )
    inputs = layout_inputs(layout)
    lay = load(layout)
    lo, hi = lay.players["min"], lay.players["max"]
    if players is not None and not lo <= players <= hi:
        allowed = f"{lo}-{hi} players" if lo != hi else f"{lo} player{'s' if lo > 1 else ''}"
        raise OptionError(f"{lay.id} is for {allowed}, got {players}", "'--players'")
    known = [p.id for p in lay.pages]
    pages = tuple(dict.fromkeys(pages))
    for p in pages:
        if p not in known:
            raise OptionError(
                f"no page '{printable(p)}' in {lay.id}{did_you_mean(p, known)}; pages: {', '.join(known)}", "'--page'"
            )
    form = FORMATS[fmt]
    if not form.paged and (copies > 1 or per_page > 1 or duplex or fillable or job["grey"]):
        raise UsageError(
            f"--format {fmt} draws each page of one sheet: "
            "not with --copies, --per-page, --duplex, --fillable or --grey"
        )
    if fillable:
        check_form_fields(lay, list(pages) or known, players, copies)
    doc = lay.document(lang, players, list(pages) or None, scan_marks=not job["no_scan_marks"])
    notes = []
    if duplex and len(doc.pages) < 2:
        notes.append(f"note: {lay.id} prints one page{' here' if pages else ''}: --duplex ignored")
        duplex = False
    if fillable and (per_page > 1 or duplex or paper not in ("a4", "letter", "legal")):
        raise UsageError(
            "--fillable prints one full-size sheet a page: not with --per-page 2/4, --duplex or --paper a5"
        )
    impose.check_scale(doc, paper, per_page, lay.id)
    g = impose.grid(paper, per_page)
    sides = impose.sequence(g, len(doc.pages), copies, duplex, flip)
    n = len(sides)
    slow = (fillable and copies >= 20) or n >= 2000 or (form.work > 1 and n >= 4)
    pdf_options = dict(
        paper=paper,
        copies=copies,
        fillable=fillable,
        per_page=per_page,
        duplex=duplex,
        flip=flip,
        marks=job["marks"],
        grey=job["grey"],
        sides=sides,
    )
    with progress(n * form.work, slow) if progress else _no_progress() as update:
        outputs = form.draw(doc, pdf_options, job["dpi"], update)
    path = output if output is not None else str(Path("output") / f"{lay.id}{form.suffix}")
    if path == "-" and len(outputs) > 1:
        raise UsageError(f"-o -: {len(outputs)} {fmt.upper()} pages cannot all go to standard output; give a file name")
    paths = file_paths(path, form.suffix, len(outputs))
    for p in paths if len(paths) > 1 else ():  # (one path was checked as -o is)
        check_output(p, inputs=inputs)
    shown = [write_output(p, d, inputs=inputs) for p, d in zip(paths, outputs)]
    empty = impose.empty_cells(sides) if per_page > 1 else 0
    return Rendered(lay.id, tuple(shown), sum(len(d) for d in outputs), n, empty, duplex, tuple(notes))


class _no_progress:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def check_form_fields(lay, pages: list[str], players, copies: int) -> None:
    """A fillable pad has a form field per markable box per copy: bounded before the work."""
    from sheetgen.layout.display import Box

    per_copy = sum(1 for pid in pages for prim in lay.display(lay.page(pid), "en", players) if isinstance(prim, Box))
    if per_copy * copies > MAX_FORM_FIELDS:
        most = max(1, MAX_FORM_FIELDS // max(per_copy, 1))
        raise OptionError(
            f"{copies} fillable copies of {lay.id} would hold {per_copy * copies:,} form "
            f"fields; the limit is {MAX_FORM_FIELDS:,} (at most {most} copies)",
            "'--copies'",
        )


# --------------------------------------------------------------------------- records

_WHOLE = re.compile(r"-?(?:0|[1-9][0-9]{0,8})")


def numbers(value, key=None):
    """A record with the whole numbers read from text fields as numbers (`overflow: 2`,
    not `'2'`); names and sums ("3+4") stay text."""
    if isinstance(value, dict):
        return {k: numbers(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [numbers(v, key) for v in value]
    if isinstance(value, str) and key not in ("name", "layout") and _WHOLE.fullmatch(value):
        return int(value)
    return value


def record_yaml(record: dict) -> str:
    """A record (or any plain tree) as the YAML text sheetgen writes."""
    import yaml

    return yaml.safe_dump(record, allow_unicode=True, sort_keys=False, default_flow_style=None)


def record_json(record: dict) -> str:
    """A record (or any plain tree) as one line of JSON, which is YAML too: how a game of a
    file of many is kept (fast: a season of 5,000 games is kept in about a second), dates
    as text in the form the record's hash reads them."""
    import json

    from sheetgen.yamlsrc import plain_tree

    return json.dumps(plain_tree(record), ensure_ascii=False, default=str) + "\n"


def blank_record(layout, names: list[str]) -> dict:
    """A layout's blank record for players `names`: every player's empty sheet."""
    from sheetgen.games import game_for

    game = game_for(layout)
    return {
        "layout": layout.id,
        **game.blank_record(layout, list(names)),
        "players": [{"name": name, **game.blank_player(layout)} for name in names],
    }


def record_from_marks(layout, sheets: list[dict], layout_ref: str | None = None, warnings: list | None = None) -> dict:
    """A record from the marks of filled sheets, each {field name: value} as the form fields
    of `render --fillable` name its boxes (True for a ticked box, text for a box written in),
    read by the same code that reads a filled PDF (the element types' `read`:
    scoring.pdfread.element_marks, then the game's `record_from_sheets`). Whole numbers
    written in boxes are numbers (see `numbers`)."""
    from sheetgen.games import game_for
    from sheetgen.scoring.pdfread import element_marks

    marks = [element_marks(layout, values, warnings) for values in sheets]
    game = game_for(layout)
    return numbers({"layout": layout_ref or layout.id, **game.read_sheets(layout, marks, layout_ref or layout.id)})


def score(record: dict, source: str = "<record>"):
    """Score a parsed record with its game's rules (scoring.record.Scored)."""
    from sheetgen.scoring.record import score_data

    return score_data(record, source)


def score_pdfs(pdfs: list[str], layout_ref: str | None):
    """Filled PDFs of one layout as one game: (Scored, the record)."""
    from sheetgen.scoring.pdfread import record_from_pdfs

    warnings: list = []
    record = record_from_pdfs(pdfs, layout_ref, warnings)
    if layout_ref is not None and layout_inputs(layout_ref):
        record["layout"] = os.path.abspath(layout_ref)
    scored = score(record, pdfs[0] if len(pdfs) == 1 else f"{pdfs[0]} (+{len(pdfs) - 1})")
    scored.warnings[:0] = warnings
    return scored, record


# --------------------------------------------------------------------------- history


def keep(
    scored: list, texts: list[str], sources: list[str], db=None, again: bool = False, progress=None
) -> tuple[list[int], Path]:
    """Keep scored games in the history (one transaction; a game already kept is refused
    unless `again`): their ids, and the history file. `progress(n)`, if given, hears how
    many are done (made ready, then written: twice the games in all)."""
    from sheetgen.history.store import db_path, save_games, to_keep

    kept = []
    for n, (s, t, src) in enumerate(zip(scored, texts, sources), 1):
        kept.append(to_keep(s, t, src))
        if progress and n % 100 == 0:
            progress(n // 2)
    done = len(kept) // 2
    ids = save_games(kept, db, again, None if progress is None else lambda n: progress(done + n // 2))
    return ids, db_path(db)


# --------------------------------------------------------------------------- a game at the table

MAX_TEXT = 40  # characters in a box written in on a screen (a number, a sum, a name)
_PROBE = "zq-probe"  # a value no scorer takes for anything else: what reads a box, and how


@valueclass
class TableBox:
    """A box a player marks on a screen: its field name (as `render --fillable` names it),
    its player (1-based), page, kind (check, round, mini, write), element id, and how a
    screen fills it (`mode`): `tick` (a tap ticks it), `choice` (one of `choices`: (letter,
    icon, {fr, en})), `number` (the scorer reads what is written: a number or a sum),
    `text` (written, counted for nothing), `name` (the player's name, by the app) or
    `computed` (by the app from the score: `computes` is a breakdown key, `total`, or a
    family of keys, their sum)."""

    field: str
    player: int
    page: str
    kind: str
    element: str
    mode: str
    choices: tuple = ()
    computes: tuple = ()


@valueclass
class Table:
    """What a game at the table is made of: the layout, the players' names, the language,
    whether the sheet is a pad (one sheet, a column per player) or one sheet a player, the
    display list of each sheet (scan marks left out), and every box, by (player, field)."""

    layout: object
    names: tuple
    lang: str
    pad: bool
    sheets: tuple  # Document: one for a pad, else one a player (the same drawing)
    boxes: dict


_TABLES: dict = {}


def table(layout, names, lang: str) -> Table:
    """The table of a game of `layout` for players `names` in `lang` (kept: one per layout
    object, player count and language)."""
    from sheetgen.games import game_for
    from sheetgen.layout import elements as E
    from sheetgen.layout.display import Box
    from sheetgen.layout.elements.common import field_player

    key = (id(layout), len(names), lang)
    got = _TABLES.get(key)
    if got is not None and got[0] is layout:
        return Table(layout, tuple(names), lang, *got[1:])
    game = game_for(layout)
    n = len(names)
    pad = any(E.TYPES[el["type"]].player_columns for page in layout.pages for el in page.elements)
    doc = layout.document(lang, n if pad else None, None, scan_marks=False)
    env = layout.env(lang, n if pad else None)
    choices = game.cell_choices(layout)
    cells = _cells(layout)
    found: list[tuple] = []  # (field, player, page, kind, element, element type, item)
    for page in layout.pages:
        for el in page.elements:
            for p in E.build(el, env):
                if isinstance(p, Box) and p.field and not p.checked:
                    owner = field_player(p.field) if E.TYPES[el["type"]].player_columns else None
                    found.append((p.field, owner, page.id, p.kind, el))
    reads, name_of = _probe(layout, found, cells)
    cats = [k for k, _ in game.categories(layout)]
    boxes = {}
    for fname, owner, page_id, kind, el in found:
        owners = [owner] if pad else range(1, n + 1)
        for player in owners:
            if player is None or not 1 <= player <= n:
                continue
            mode, computes = "tick", ()
            if kind == "write":
                if el["id"] in choices and (el["id"], fname) in cells:
                    mode = "choice"
                elif fname in name_of:
                    mode = "name"
                elif fname in reads:
                    mode = "number"
                else:
                    computes = _computes(el, fname, owner, cats)
                    mode = "computed" if computes else "text"
            boxes[(player, fname)] = TableBox(
                fname, player, page_id, kind, el["id"], mode, tuple(choices.get(el["id"], ())), computes
            )
    _TABLES[key] = (layout, pad, (doc,), boxes)
    if len(_TABLES) > 64:
        _TABLES.pop(next(iter(_TABLES)))
    return Table(layout, tuple(names), lang, pad, (doc,), boxes)


def _cells(layout) -> set:
    """(element id, field) of the boxes that are a board's cells (element types' `cells`):
    each holds one thing drawn in it, which a screen picks from the game's cell_choices."""
    from sheetgen.layout import elements as E

    return {(el["id"], f) for page in layout.pages for el in page.elements for f in E.TYPES[el["type"]].cells(el)}


def _probe(layout, found: list, cells: set) -> tuple[set, set]:
    """Which boxes written in the scorer reads, and which one holds a player's name: each
    box is written alone with a value no scorer takes for anything else, and the record
    read from the sheet tells (the same reading as a filled PDF's, record_from_marks). A
    box whose value the reading refuses is read too (it must be a number); a board's cell
    holds no number, and is not probed."""
    from sheetgen.errors import SheetgenError

    reads, names = set(), set()
    blank = {f: "" if kind == "write" else False for f, _o, _p, kind, _e in found}
    for fname, _owner, _page, kind, el in found:
        if kind != "write" or (el["id"], fname) in cells:
            continue
        try:
            record = record_from_marks(layout, [{**blank, fname: _PROBE}])
        except SheetgenError:
            reads.add(fname)
            continue
        players = record.get("players") or []
        if any(isinstance(p, dict) and p.get("name") == _PROBE for p in players):
            names.add(fname)
        elif _PROBE in repr(record):
            reads.add(fname)
    return reads, names


def _computes(el: dict, fname: str, owner: int | None, cats: list[str]) -> tuple:
    """What a box the scorer does not read can show from the score: a breakdown key (the
    box named for it: `score_<key>`, or a pad's row `<key>`), `total` (a total box, or one
    named total), or a family of keys (`score_majorities`: every `majority_...`)."""
    item = next((b for b in el.get("boxes", ()) if isinstance(b, dict) and b.get("id") == fname), None)
    if item is not None and item.get("total"):
        return ("total",)
    name = fname
    if owner is not None:
        if not name.endswith(f"_p{owner}"):
            return ()  # another box of the player's column (a count beside the points)
        name = name.removesuffix(f"_p{owner}")
    name = name.removeprefix("score_")
    if name == "total":
        return ("total",)
    if name in cats:
        return (name,)
    stem = name[: len(name) - 3] if len(name) >= 6 else None
    family = tuple(k for k in cats if stem and k.startswith(stem))
    return family


def check_mark(tab: Table, player: int, fname: str, value):
    """A mark a screen sends, as the sheet can hold it: True/False for a box ticked, a
    choice's letter (or "") for a cell, a short text for a box written in; a UsageError
    saying why it cannot be (a box the app fills, no such box, a letter no choice has...)."""
    box = tab.boxes.get((player, fname))
    if box is None:
        raise UsageError(f"player {player} has no box '{printable(str(fname)[:60])}' on this sheet")
    if box.mode == "tick":
        if not isinstance(value, bool):
            raise UsageError(f"{fname}: a box to tick is true or false")
        return value
    if box.mode in ("name", "computed"):
        raise UsageError(f"{fname}: the app fills this box")
    if not isinstance(value, str):
        raise UsageError(f"{fname}: expected a text")
    value = value.strip()
    if box.mode == "choice":
        letters = [c[0] for c in box.choices]
        if value.upper() not in ["", *letters]:
            raise UsageError(f"{fname}: expected one of {', '.join(letters)} (or nothing)")
        return value.upper()
    if len(value) > MAX_TEXT:
        raise UsageError(f"{fname}: at most {MAX_TEXT} characters")
    if box.mode == "number" and value:
        from sheetgen.numbers import parse_number

        if parse_number(value) is None:
            raise UsageError(f"{fname}: expected a number (sums like 10+20-5 too)")
    return value


def table_values(tab: Table, marks: list[dict]) -> list[dict]:
    """The sheets' field values from the players' marks (a pad: one sheet), the names in
    the boxes that hold them; every box has its field, as in a filled PDF."""
    sheets = [{} for _ in range(1 if tab.pad else len(tab.names))]
    for (player, fname), box in tab.boxes.items():
        sheet = sheets[0 if tab.pad else player - 1]
        if box.mode == "name":
            sheet[fname] = tab.names[player - 1]
        else:  # every field, as a filled PDF has them: "" or False when blank
            value = marks[player - 1].get(fname) if box.mode != "computed" and player <= len(marks) else None
            sheet[fname] = value if value is not None else (False if box.kind != "write" else "")
    return sheets


def table_record(tab: Table, marks: list[dict], layout_ref: str | None = None) -> dict:
    """The game's record from its marks: read as a filled PDF is (record_from_marks), the
    players named as they sat down."""
    record = record_from_marks(tab.layout, table_values(tab, marks), layout_ref)
    for player, name in zip(record.get("players", []), tab.names):
        player["name"] = name
    return record


def table_score(tab: Table, marks: list[dict], layout_ref: str | None = None) -> dict:
    """The game scored from its marks, as a screen shows it: the record, the contract's
    object (`score`), what each computed box shows (`computed`: per player, {field: text}),
    the warnings at their player and box, the categories and tie-breakers' labels; or the
    problems (`errors`) when the record cannot be scored."""
    from sheetgen.errors import SheetgenError
    from sheetgen.games import game_for

    game = game_for(tab.layout)
    out: dict = {"errors": [], "computed": [{} for _ in tab.names]}
    try:
        record = table_record(tab, marks, layout_ref)
        scored = score(record, "<table>")
    except SheetgenError as exc:
        out["errors"] = [p.message if p.path == "" else f"{p.path}: {p.message}" for p in exc.problems]
        return out
    out["record"] = record
    out["score"] = scored.contract()
    out["warnings"] = [
        {"text": str(w), "player": getattr(w, "player", None), "box": getattr(w, "box", None)} for w in scored.warnings
    ]
    out["categories"] = [[k, lab[tab.lang]] for k, lab in game.categories(tab.layout)]
    ties = len({s.total for s in scored.scores}) < len(scored.scores)
    out["tiebreak"] = (
        [
            [lab[tab.lang], [str(s.tiebreak_shown[n]) if n < len(s.tiebreak_shown) else "-" for s in scored.scores]]
            for n, lab in enumerate(game.tiebreak_labels(tab.layout))
        ]
        if ties
        else []
    )
    for (player, fname), box in tab.boxes.items():
        if box.mode == "computed":
            s = scored.scores[player - 1]
            value = s.total if box.computes == ("total",) else sum(s.breakdown.get(k, 0) for k in box.computes)
            out["computed"][player - 1][fname] = str(value)
    return out


def table_scored(tab: Table, marks: list[dict], layout_ref: str | None = None, source: str = "<table>"):
    """The game scored from its marks (scoring.record.Scored), as `sheetgen score` scores
    the record; `source` is the record's name in what it writes (a CSV's `record`)."""
    return score(table_record(tab, marks, layout_ref), source)


def score_text(scored, fmt: str) -> str:
    """What `sheetgen score --format json|csv` writes of one scored game."""
    from sheetgen.scoring import output

    return output.as_json([scored]) + "\n" if fmt == "json" else output.as_csv([scored])


def marked_pdf(tab: Table, marks: list[dict], computed: list[dict] | None = None) -> bytes:
    """The sheets as marked: the fillable PDF of the table's sheets (one copy a player, or
    the pad), each form field set as the marks say (a box ticked, a cell's letter, a number
    written, the names, and the final score line from `computed`), so that `sheetgen read`
    and `sheetgen score` read the game back from it."""
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    from sheetgen.layout.display import field_name
    from sheetgen.render.pdf import pdf_bytes

    doc = tab.sheets[0]
    sheets = table_values(tab, marks)
    for (player, fname), box in tab.boxes.items():
        if box.mode == "computed" and computed and player <= len(computed) and fname in computed[player - 1]:
            sheets[0 if tab.pad else player - 1][fname] = computed[player - 1][fname]
    values = {field_name(f, copy): v for copy, sheet in enumerate(sheets, 1) for f, v in sheet.items()}
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(doc, copies=len(sheets), fillable=True))))
    for page in writer.pages:
        texts = {}
        for ref in page.get("/Annots") or ():
            widget = ref.get_object()
            name = str(widget.get("/T", ""))
            value = values.get(name)
            if widget.get("/FT") == "/Btn":
                state = NameObject("/Yes" if value is True else "/Off")
                widget[NameObject("/V")] = state
                widget[NameObject("/AS")] = state
            elif isinstance(value, str) and value:
                texts[name] = value
        if texts:
            writer.update_page_form_field_values(page, texts, auto_regenerate=False)
    writer.set_need_appearances_writer(True)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --------------------------------------------------------------------------- a photo of a sheet at the table

MAX_UPLOAD = 30 * 1024 * 1024  # bytes of a photo, or a scanner's PDF or TIFF, sent to the table


class PhotoRefused(UsageError):
    """A photo that cannot fill the sheet, and why (`kind`): `file` (not an image or a PDF
    that can be read, or too large), `marks` (the sheet's scan marks are not all in it),
    `sheets` (several sheets in one picture), `layout` (not a sheet of the game's layout,
    or of another version of it), `other_layout` (a sheet of another layout: `layout` and
    `game`, their titles), `page_twice` (`page`), `players` (a pad printed for another
    number of players), `blank_page` (bare paper), `blank_sheet` (no box marked),
    `no_scan_marks`. `params` hold what the message names; the message is in English."""

    def __init__(self, kind: str, message: str, **params):
        super().__init__(message)
        self.kind, self.params = kind, params


@valueclass
class PhotoFill:
    """What a photo fills at the table: the value of every box it covers, by (player,
    field) (None for an empty box); the doubts it leaves among them ({player, box, kind}:
    `unsure`, a box or cell the reader could not decide; `cell`, a cell filled in no dice's
    colour; `number`, a number written by hand not read, to type; `read`, a number read,
    its `value` filled in, to confirm) with a picture of each
    ({(player, box): JPEG}); the pages read; the notes (a page left out, a page known by
    its print)."""

    values: dict
    doubts: tuple
    crops: dict
    pages: tuple
    notes: tuple


def photo_fill(tab: Table, player: int, data: bytes, layout_ref: str, progress=None, name: str = "photo") -> PhotoFill:
    """Read a photo, or a scanner's PDF or TIFF, of player `player`'s sheet (of a pad: the
    table's one sheet, whatever `player`) with the code of `sheetgen scan`: the sheet's
    scan marks, its QR code or print checked against `layout_ref` (the game's layout), its
    boxes read against the blank page. `progress(stage, n, of)` hears each step: `decode`,
    `find` and `read` (picture n of `of`), `fill`. The file is called `name` in what is
    said of it. A refusal is a PhotoRefused."""
    from sheetgen.errors import RecordError
    from sheetgen.scan import record as scanned
    from sheetgen.scan.markers import find_sheets
    from sheetgen.scan.photos import blank_paper, need_cv
    from sheetgen.scan.reader import read_photo

    tell = progress or (lambda stage, n=0, of=0: None)
    layout = tab.layout
    if not layout.scan_marks:
        raise PhotoRefused("no_scan_marks", f"the sheets of {layout.id} carry no scan marks: mark them on the screen")
    need_cv()
    tell("decode")
    try:
        photos = scanned.load_upload(data, name)
    except RecordError as exc:
        raise PhotoRefused("file", exc.problems[0].message) from None
    reads, notes = {}, []
    for n, photo in enumerate(photos, 1):
        tell("find", n, len(photos))
        try:
            sheets, note = find_sheets(photo)
        except RecordError as exc:
            if blank_paper(photo):  # the back of a one-sided sheet, in a scanner's PDF
                notes.append(f"{photo.name}: a blank page, left out")
                continue
            raise PhotoRefused("marks", exc.problems[0].message) from None
        if len(sheets) > 1:
            raise PhotoRefused(
                "sheets", f"{photo.name}: {len(sheets)} sheets in one picture; one sheet a photo", count=len(sheets)
            )
        tell("read", n, len(photos))
        try:
            read = scanned.with_numbers(read_photo(photo, layout_ref, sheets[0]))
        except RecordError as exc:
            raise _refused_read(photo, sheets[0], layout, exc) from None
        if read.page_id in reads:
            title = layout.page(read.page_id).title
            raise PhotoRefused("page_twice", f"{photo.name}: a second picture of the page '{read.page_id}'", page=title)
        reads[read.page_id] = read
        notes += [text for text in (note, read.note) if text]
    if not reads:
        raise PhotoRefused("blank_page", "a blank page: no sheet in it")
    if all(scanned.blank_read(r) for r in reads.values()):
        raise PhotoRefused("blank_sheet", "no box is marked on the sheet")
    tell("fill")
    return _filled(tab, player, reads, tuple(notes))


def warm_photos(tab: Table, layout_ref: str) -> None:
    """Read a picture of the game's sheets as printed, blank, and forget it: what reading
    a photo needs is then ready (OpenCV loaded, each page's blank drawing made, which a
    photo is compared with), and a player's first photo is read as fast as the next."""
    import numpy as np
    import pypdfium2

    from sheetgen.render.pdf import pdf_bytes
    from sheetgen.scan.markers import find_sheets
    from sheetgen.scan.photos import Photo, need_cv
    from sheetgen.scan.reader import read_photo

    if not tab.layout.scan_marks:
        return
    need_cv()
    printed = tab.layout.document(tab.lang, len(tab.names) if tab.pad else None)
    pdf = pypdfium2.PdfDocument(pdf_bytes(printed))
    try:
        for n in range(len(pdf)):
            picture = np.asarray(pdf[n].render(scale=100 / 72).to_pil().convert("RGB"))
            photo = Photo("blank", "blank", picture)
            read_photo(photo, layout_ref, find_sheets(photo)[0][0])
    finally:
        pdf.close()


def _refused_read(photo, markers, layout, exc) -> PhotoRefused:
    """Why a sheet is not one of the game's: a sheet of another built-in layout is named
    (its QR code or print says which); else the reader's own reason."""
    from sheetgen.errors import RecordError
    from sheetgen.scan.reader import read_photo

    try:
        other = read_photo(photo, None, markers).layout
    except RecordError:
        return PhotoRefused("layout", exc.problems[0].message)
    if other.id == layout.id:
        return PhotoRefused("layout", exc.problems[0].message)
    return PhotoRefused(
        "other_layout",
        f"{photo.name}: a sheet of {other.id}, not of {layout.id}",
        layout=other.title,
        game=layout.title,
    )


def _filled(tab: Table, player: int, reads: dict, notes: tuple) -> PhotoFill:
    """The boxes of the pages read, by (player, field): what they show, what stays in doubt."""
    from sheetgen.layout.elements.common import field_player
    from sheetgen.scan.record import TO_FILL, box_crop
    from sheetgen.scan.verdict import UNSURE

    rects = {pg.id: {b.field: (b.x, b.y, b.w, b.h) for b in pg.boxes()} for pg in tab.sheets[0].pages}
    values, doubts, crops = {}, [], {}
    for page_id, read in reads.items():
        mine = {k: b for k, b in tab.boxes.items() if b.page == page_id and (tab.pad or k[0] == player)}
        ticks = {f for (_p, f), b in mine.items() if b.mode == "tick"}
        shown = {f for f, v in read.values.items() if isinstance(v, bool) and (not tab.pad or field_player(f))}
        if ticks != shown:  # (a pad's boxes are a column a player: printed for another count)
            n = len(tab.names)
            message = f"the sheet was printed for another number of players than the game's {n}"
            raise PhotoRefused("players", message, n=n)
        marked, here = set(), []
        for (p, f), box in mine.items():
            value, reading = read.values.get(f), read.readings.get(f)
            kind = None
            if box.mode == "tick":
                kind, value = ("unsure", None) if reading == UNSURE else (None, value is True or None)
            elif box.mode == "choice":
                kind = "unsure" if reading == UNSURE else "cell" if value == TO_FILL else None
                value = None if kind or not value else value
            else:
                continue
            values[(p, f)] = value
            if value:
                marked.add(p)
            if kind:
                here.append({"player": p, "box": f, "kind": kind})
        # numbers written by hand (sheetgen.scan.written): one read is filled in and shown
        # beside its picture to confirm; one written but not read ('?') is to type
        for (p, f), b in mine.items():
            value = read.numbers[f].value if b.mode == "number" and f in read.numbers else ""
            if value == TO_FILL:
                here.append({"player": p, "box": f, "kind": "number"})
            elif value:
                values[(p, f)] = "+".join(value.split(", ")).replace("+-", "-")  # (a list of values, as a sum)
                marked.add(p)
                here.append({"player": p, "box": f, "kind": "read", "value": values[(p, f)]})
        for d in here:
            crops[(d["player"], d["box"])] = box_crop(read, rects[page_id][d["box"]])
        doubts += here
    return PhotoFill(values, tuple(doubts), crops, tuple(reads), notes)
