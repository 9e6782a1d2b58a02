"""Photos of played sheets -> one game record, the way filled PDFs become one
(sheetgen.scoring.pdfread): each photo's box values go through `element_marks`
and the game's `record_from_sheets`. Also what the table server asks of a photo sent to
it: its images (`load_upload`), whether a page shows no mark (`blank_read`), and the
picture of a box as the photo shows it (`box_crop`)."""

from __future__ import annotations

import os
import re
from dataclasses import replace

from sheetgen.errors import Problem, RecordError, UsageError
from sheetgen.scan.markers import find_sheets
from sheetgen.scan.photos import blank_paper, load_photos
from sheetgen.scan.reader import PageRead, read_photo
from sheetgen.scan.verdict import UNSURE

_DEFAULT_NAME = re.compile(r"Player [0-9]+")


def _player_key(read: PageRead) -> str:
    """Which player a photo belongs to: its file name without the page id
    (`alice-empire.jpg` and `alice-village.jpg` are alice's)."""
    stem = read.photo.stem
    for sep in ("-", "_", " ", "."):
        if stem.lower().endswith(sep + read.page_id.lower()):
            return stem[: -len(read.page_id) - 1]
    return stem


def _player_keys(reads: list[PageRead]) -> list[str]:
    """Which player each photo of a sheet of several pages belongs to: by its file name
    (`_player_key`); a scanned PDF's pages in turn, a player's pages one after the other in
    any order (a duplex scan: the back after the front), the next player's starting where
    a page comes again: `scans-1`, `scans-2`..."""
    keys, count, current = [], {}, {}
    for r in reads:
        pdf = r.photo.pdf
        if not pdf:
            keys.append(_player_key(r))
            continue
        if pdf not in count or r.page_id in current[pdf]:
            count[pdf], current[pdf] = count.get(pdf, 0) + 1, set()
        current[pdf].add(r.page_id)
        keys.append(f"{pdf}-{count[pdf]}")
    return keys


def group_sheets(reads: list[PageRead]) -> list[tuple[str, dict]]:
    """(player name, every page's box values merged) per player, in the photos' order."""
    layout = reads[0].layout
    pages = [p.id for p in layout.pages]
    if len(pages) == 1:
        named: dict[str, PageRead] = {}
        for r in reads:
            if r.photo.stem in named:
                raise RecordError(
                    f"{_where(r)}: a second photo of player '{r.photo.stem}' "
                    f"(also {_where(named[r.photo.stem])}; players are named "
                    "after the files): rename one of them"
                )
            named[r.photo.stem] = r
        return [(r.photo.stem, r.values) for r in reads]
    players: dict[str, dict] = {}
    naming = f"name a player's photos <name>-{'.jpg, <name>-'.join(pages)}.jpg"
    for r, key in zip(reads, _player_keys(reads), strict=True):
        mine = players.setdefault(key, {})
        if r.page_id in mine:
            raise RecordError(
                f"{_where(r)}: a second '{r.page_id}' page for player '{key}' (also {_where(mine[r.page_id])}); "
                + naming
            )
        mine[r.page_id] = r
    out = []
    for name, mine in players.items():
        missing = [p for p in pages if p not in mine]
        if missing:
            first = next(iter(mine.values())).photo
            hint = f"scan a player's pages one after the other ({', '.join(pages)})" if first.pdf else naming
            raise RecordError(f"{first.name}: player '{name}' has no photo of the '{', '.join(missing)}' page; {hint}")
        if all(blank_read(r) for r in mine.values()):
            first = next(iter(mine.values())).photo
            raise RecordError(f"{first.name}: every page of player '{name}' is blank: no box is marked")
        values: dict = {}
        for p in pages:
            values.update(mine[p].values)
        out.append((name, values))
    return out


def given_once(paths: list[str]) -> None:
    """Refuse, before any is read, a photo given twice (the same file by two names too)."""
    seen: dict = {}
    for path in paths:
        where = os.path.realpath(path)  # (a link in a loop is left as it is: reading it says so)
        if where in seen:
            raise UsageError(f"{path}: given twice (also as {seen[where]}): one photo is one player's sheet")
        seen[where] = path


def read_photos(paths: list[str], layout_ref: str | None = None, notes: list | None = None) -> list[PageRead]:
    """Every sheet's reading, all of one layout: one a photo, or several (printed two or
    four a page, photographed or scanned together: see `find_sheets`), each then a player
    named after the file and its place, `<name>-1`, `<name>-2`... in reading order; a
    blank one of them is left out. What is left out is said in `notes`."""
    reads = []
    notes = [] if notes is None else notes
    given_once(paths)
    bare = None  # the refusal of the first image of bare paper (left out while others are read)
    for path in paths:
        for photo in load_photos(path):
            try:
                sheets, note = find_sheets(photo)
            except RecordError as refused:
                # (a duplex scan of one-sided sheets: their blank backs are no sheets)
                if not blank_paper(photo):
                    raise
                bare = bare or refused
                notes.append(f"{photo.name}: a blank page (the back of a sheet?), left out")
                continue
            if note:
                notes.append(note)
            for k, markers in enumerate(sheets, 1):
                one = (
                    photo
                    if len(sheets) == 1
                    else replace(photo, name=f"{photo.name} sheet {k}", stem=f"{photo.stem}-{k}")
                )
                read = read_sheet(one, layout_ref, markers)
                if reads and read.layout.id != reads[0].layout.id:
                    raise RecordError(
                        f"{one.name}: a sheet of '{read.layout.id}', "
                        f"but {reads[0].photo.name} is of '{reads[0].layout.id}'"
                    )
                if len(sheets) > 1 and len(read.layout.pages) > 1:
                    pages = [p.id for p in read.layout.pages]
                    raise RecordError(
                        f"{photo.name}: {len(sheets)} sheets in one picture; a sheet of {len(pages)} pages is "
                        f"paired by file name: photograph each page alone, <name>-{'.jpg, <name>-'.join(pages)}.jpg"
                    )
                if blank_read(read):
                    if len(sheets) > 1:
                        notes.append(f"{one.name}: the sheet is blank: no box is marked; it is no player")
                        continue
                    if len(read.layout.pages) == 1:
                        raise RecordError(f"{one.name}: the sheet is blank: no box is marked")
                    # (one page of a player's sheet may be: a village with nothing built yet;
                    # `group_sheets` refuses a player all of whose pages are)
                    notes.append(f"{one.name}: no box is marked on this page")
                reads.append(read)
    if not reads and bare is not None:
        raise bare
    if all(blank_read(r) for r in reads):
        raise RecordError(f"{paths[0]}: the sheets are blank: no box is marked")
    return reads


def read_sheet(photo, layout_ref: str | None = None, markers: dict | None = None) -> PageRead:
    """`read_photo`, and the numbers written by hand read into the page's values
    (sheetgen.scan.written): a number read sure, "" for a box read empty, TO_FILL for one
    whose writing is not read (all of them without the ocr extra)."""
    return with_numbers(read_photo(photo, layout_ref, markers))


def with_numbers(read: PageRead) -> PageRead:
    """The page's numbers written by hand, read into its values (see `read_sheet`)."""
    from sheetgen.scan.ocr import recogniser
    from sheetgen.scan.written import agreed, read_numbers

    read.numbers = agreed(read, read_numbers(read, recogniser()))
    read.values.update({f: n.value for f, n in read.numbers.items()})
    return read


def _where(read: PageRead) -> str:
    """The photo as the user named it (the path given, and a PDF's page)."""
    return read.photo.path or read.photo.name


def blank_read(read: PageRead) -> bool:
    """No box of the page is marked nor written in (a write box not read, a name, is no
    mark): a filled PDF's test."""
    from sheetgen.scan.written import number_boxes
    from sheetgen.scoring.pdfread import is_blank

    return is_blank(read.values, {*read.readings, *(b.field for b, _ in number_boxes(read))})


def load_upload(data: bytes, name: str) -> list:
    """The images of a file sent to the table server (its bytes), with `load_photos`'
    bounds and checks, each named `name` (a PDF's or a TIFF's pages `<name> page <n>`).
    The bytes go to a file of a private temporary folder, removed at once: nothing sent
    is kept, and no name from the request is ever a path."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="sheetgen-upload-")
    path = os.path.join(folder, name)
    try:
        with open(path, "xb") as fh:
            fh.write(data)
        photos = load_photos(path)
    except RecordError as exc:  # its messages name the file as given: here, `name`
        named = [Problem(p.message.replace(path, name), p.file, p.line, p.path) for p in exc.problems]
        raise RecordError(named) from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [replace(p, path=p.path.replace(path, name)) for p in photos]


CROP_MARGIN = 0.45  # of the box's smaller side, round a box's picture (its neighbours' edges show where it is)


def box_crop(read: PageRead, rect: tuple, quality: int = 82) -> bytes:
    """The photo round a box (`rect`: x, y, w, h in mm on the page), mapped onto the page
    as it was read, CROP_MARGIN round it: a JPEG."""
    import io

    from PIL import Image

    from sheetgen.scan.blank import PPMM

    x, y, w, h = rect
    m = max(2.0, CROP_MARGIN * min(w, h))
    page = read.rectified
    rows, cols = page.shape[:2]
    x0, y0 = max(0, round((x - m) * PPMM)), max(0, round((y - m) * PPMM))
    x1, y1 = min(cols, round((x + w + m) * PPMM)), min(rows, round((y + h + m) * PPMM))
    buf = io.BytesIO()
    Image.fromarray(page[y0:y1, x0:x1]).save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def unsure_warnings(reads: list[PageRead]) -> list[str]:
    """One warning per photo with unsure boxes, naming them: they are read as empty; and
    one per photo whose page was recognised by its print (its QR code unread) or that is
    too dark and noisy to read all but clear marks; and one per photo with numbers written
    by hand that are not read, when the ocr extra is not installed."""
    from sheetgen.scan.ocr import recogniser
    from sheetgen.scan.written import number_boxes

    out = []
    for r in reads:
        if r.note:
            out.append(r.note)
        unsure = [f for f, v in r.readings.items() if v == UNSURE]
        if unsure:
            shown = ", ".join(unsure[:12]) + (f" and {len(unsure) - 12} more" if len(unsure) > 12 else "")
            out.append(
                f"{r.photo.name}: {len(unsure)} box{'es' if len(unsure) > 1 else ''} unsure, "
                f"left empty in the record; check them on the sheet: {shown}"
            )
        numbers = {b.field for b, _ in number_boxes(r)}
        cells = [f for f, v in r.values.items() if v == "?" and f not in numbers]
        if cells:
            out.append(
                f"{r.photo.name}: {len(cells)} filled cell{'s' if len(cells) > 1 else ''} of no dice colour, "
                f"written '?' in the record; type what {'they hold' if len(cells) > 1 else 'it holds'}: "
                + ", ".join(cells)
            )
        unread = [f for f in numbers if r.values.get(f) == "?"]
        if unread and recogniser() is None:
            out.append(
                f"{r.photo.name}: {len(unread)} number{'s' if len(unread) > 1 else ''} written by hand left '?' "
                "in the record: `sheetgen scan` reads them with the ocr extra: pip install 'rollwrite[ocr]'"
            )
    return out


def record_from_reads(reads: list[PageRead], layout_ref: str | None, warnings: list | None = None) -> dict:
    """The game record of the photos (one player per sheet; names from the file names)."""
    from sheetgen.games import game_for
    from sheetgen.scan.written import number_boxes
    from sheetgen.scoring.pdfread import element_marks

    layout = reads[0].layout
    game = game_for(layout)
    # the boxes read (ticked, or holding a number read): a box written in and not read
    # (a name) is what the record leaves to type
    read_boxes = {f for r in reads for f in (*r.readings, *(b.field for b, _ in number_boxes(r)))}
    sheets, probes, names = [], [], []
    for name, values in group_sheets(reads):
        found: list = []
        sheets.append(element_marks(layout, values, found))
        written = {k: TO_FILL if v == "" and k not in read_boxes else v for k, v in values.items()}
        probes.append(element_marks(layout, written))
        names.append(name)
        if warnings is not None:
            warnings += [f"{name}: {w}" for w in found]
    if not sheets:
        raise RecordError(Problem("no sheet was read", reads[0].photo.name))
    source = reads[0].photo.name
    record = {"layout": layout_ref or layout.id, **game.read_sheets(layout, sheets, source)}
    players = record.get("players", [])
    _mark_to_fill(players, game.read_sheets(layout, probes, source).get("players", []))
    if len(players) == len(names):
        for player, name in zip(players, names):
            if _DEFAULT_NAME.fullmatch(str(player.get("name", ""))):
                player["name"] = name
    return record


TO_FILL = "?"  # a number written by hand, which the scan leaves for the player to type


def _mark_to_fill(players: list, probed: list) -> None:
    """The player values that come from boxes written by hand (they change when those
    boxes read TO_FILL instead of empty) become TO_FILL, nested ones included: `score`
    then names them. On a pad the handwriting also decides who plays (a column with a
    name or a number is a player), so the probe may hold more players than the read:
    then each read player is matched, in order, with the next probed one whose other
    values (those no handwriting changes) are the same."""
    if len(players) == len(probed):
        pairs = zip(players, probed)
    else:
        pairs, probes = [], iter(probed)
        for player in players:
            probe = next((p for p in probes if _same_unwritten(player, p)), None)
            if probe is None:
                break
            pairs.append((player, probe))
    for player, probe in pairs:
        player.update(_filled(player, probe))


def _same_unwritten(read, probe) -> bool:
    """True when `read` equals `probe` wherever the probe does not hold TO_FILL (names aside)."""
    if probe == TO_FILL:
        return True
    if isinstance(probe, dict) and isinstance(read, dict):
        return read.keys() == probe.keys() and all(k == "name" or _same_unwritten(read[k], probe[k]) for k in probe)
    if isinstance(probe, list) and isinstance(read, list):
        return len(read) == len(probe) and all(_same_unwritten(a, b) for a, b in zip(read, probe))
    return read == probe


def _filled(read, probe):
    """`read` with every value that is TO_FILL in `probe` made TO_FILL; a player's name
    stays (it defaults to the photo's file name)."""
    if probe == TO_FILL:
        return TO_FILL
    if isinstance(probe, dict) and isinstance(read, dict):
        return {k: v if k == "name" or k not in probe else _filled(v, probe[k]) for k, v in read.items()}
    if isinstance(probe, list) and isinstance(read, list) and len(read) == len(probe):
        return [_filled(a, b) for a, b in zip(read, probe)]
    return read
