"""Every hostile or careless input, run as the user runs it: a subprocess
`python -m sheetgen ...` under resource limits (address space and CPU seconds, set
with resource.setrlimit in the child, so that a blow-up or a busy loop kills it
instead of passing). Each must answer with exit code 1 or 2, exactly one `Error:`
line, no traceback, no "internal error", and leave every file as it was.

The subprocess timeout is only a guard that keeps a hang from blocking the suite
(a FIFO without a writer uses no CPU); nothing here asserts a duration.
"""

from __future__ import annotations

import io
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from sheetgen.games import load_layout
from sheetgen.render import render_pdf

ROOT = Path(__file__).resolve().parents[1]
MEMORY = 1024 * 1024 * 1024  # bytes of address space for the child
CPU_SECONDS = 30  # CPU time for the child (imports included); far above what each case needs
HANG_GUARD = 300  # seconds; see the module doc
SECRET = "TOPSECRET-do-not-print"


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


# the installed console script, as a user runs it (its exit codes are main()'s), with this
# tree's code first on the path; `python -m sheetgen` where it is not installed
SCRIPT = shutil.which("sheetgen", path=os.path.dirname(sys.executable))
COMMAND = [SCRIPT] if SCRIPT else [sys.executable, "-m", "sheetgen"]


def sheetgen(args, cwd, stdin: bytes = b""):
    env = {k: v for k, v in os.environ.items() if k != "SHEETGEN_DEBUG"}
    env.update(PYTHONPATH=str(ROOT), LANG="C.UTF-8", LC_ALL="C.UTF-8")
    return subprocess.run(
        [*COMMAND, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        preexec_fn=_limits,
        timeout=HANG_GUARD,
        env=env,
    )


def snapshot(folder: Path) -> dict:
    """Every entry under `folder`: its kind, mode, and bytes (files) or target (links)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        if path.is_symlink():
            out[str(path)] = ("link", os.readlink(path))
        elif path.is_file():
            out[str(path)] = ("file", st.st_mode, zlib.crc32(path.read_bytes()), st.st_size)
        else:
            out[str(path)] = ("other", st.st_mode)
    return out


# --------------------------------------------------------------------------- PDFs


def filled_normal_pdf(layout: str = "harvest-dice-normal", subject: str | None = None) -> bytes:
    src = render_pdf(load_layout(layout), fillable=True)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(src)))
    writer.update_page_form_field_values(
        writer.pages[0], {"player_name_box": "Ann", "pig_1": "/Yes"}, auto_regenerate=False
    )
    if subject is not None:
        writer.add_metadata({"/Subject": subject})
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def odd_field_names_pdf() -> bytes:
    """A filled PDF whose only marked field is named `pig_1__²` (a superscript digit)."""
    src = render_pdf(load_layout("harvest-dice-normal"), fillable=True)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(src)))
    for annot in writer.pages[0]["/Annots"]:
        field = annot.get_object()
        if field.get("/T") == "pig_1":
            from pypdf.generic import NameObject, TextStringObject

            field[NameObject("/T")] = TextStringObject("pig_1__²")
            field[NameObject("/V")] = NameObject("/Yes")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def checkbox_grid_pdf() -> bytes:
    """A filled PDF whose garden cell `garden_r1_c1` is a check box (ticked), not a text field."""
    from pypdf.generic import NameObject

    src = render_pdf(load_layout("harvest-dice-normal"), fillable=True)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(src)))
    for annot in writer.pages[0]["/Annots"]:
        field = annot.get_object()
        if field.get("/T") in ("garden_r1_c1", "pig_1"):
            field[NameObject("/V")] = NameObject("/Yes")
            if field.get("/T") == "garden_r1_c1":
                field[NameObject("/FT")] = NameObject("/Btn")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def zeros_deflated(megabytes: int) -> bytes:
    """A zlib stream of `megabytes` MB of zeros, made without deflating them all: after a
    full flush the compressor starts afresh, so every further megabyte compresses to the
    same bytes; only the checksum is taken over the whole."""
    chunk = b"\0" * (1024 * 1024)
    comp = zlib.compressobj(9)
    first = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    block = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    end = comp.flush()[:-4]  # the last, empty block; its checksum is of two megabytes
    check = 1
    for _ in range(megabytes):
        check = zlib.adler32(chunk, check)
    return first + block * (megabytes - 1) + end + check.to_bytes(4, "big")


def object_stream_bomb_pdf(megabytes: int = 2000) -> bytes:
    """A sheet's PDF holding one more object stream, of 2 MB, that inflates to 2 GB."""
    body = zeros_deflated(megabytes)
    src = render_pdf(load_layout("harvest-dice-normal"))
    bomb = (
        b"999 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length "
        + str(len(body)).encode()
        + b" >>\nstream\n"
        + body
        + b"\nendstream\nendobj\n"
    )
    at = src.rfind(b"xref")
    return src[:at] + bomb + src[at:]


def bomb_pdf(megabytes: int = 400) -> bytes:
    """A PDF whose cross-reference stream inflates to `megabytes` MB of zeros."""
    body = zeros_deflated(megabytes)
    head = b"%PDF-1.7\n"
    obj = (
        b"1 0 obj\n<< /Type /XRef /Size 2 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length "
        + str(len(body)).encode()
        + b" >>\nstream\n"
        + body
        + b"\nendstream\nendobj\n"
    )
    return head + obj + b"startxref\n" + str(len(head)).encode() + b"\n%%EOF\n"


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pdfs")
    variant = folder / "hd-big.yaml"
    variant.write_text("extends: harvest-dice-normal\nid: hd-big\n", encoding="utf-8")
    made = {
        "normal.pdf": filled_normal_pdf(),
        "subject-path.pdf": filled_normal_pdf(subject="secret.yaml"),
        "subject-passwd.pdf": filled_normal_pdf(subject="/etc/passwd"),
        "variant.pdf": filled_normal_pdf(str(variant)),
        "odd-names.pdf": odd_field_names_pdf(),
        "bomb.pdf": bomb_pdf(),
        "checkbox-grid.pdf": checkbox_grid_pdf(),
        "objstm-bomb.pdf": object_stream_bomb_pdf(),
    }
    good = made["normal.pdf"]
    made["truncated.pdf"] = good[: len(good) // 2]
    return made


# --------------------------------------------------------------------------- the cases


def _w(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _layout_with(extra: str) -> str:
    return "extends: harvest-dice-normal\nid: custom\n" + extra


RECORD = """\
layout: harvest-dice-normal
players:
  - name: Ann
    garden: ["......", "......", "......"]
    pig: 0
    market: {carrot: 1, salad: 1, tomato: 1}
  - name: Bob
    garden: ["......", "......", "......"]
    pig: PIG
    market: {carrot: 1, salad: 1, tomato: 1}
"""


def setup_chain(d: Path, n: int = 1000) -> None:
    for i in range(n):
        _w(d / f"c{i}.yaml", f"extends: c{i + 1}.yaml\n" if i < n - 1 else "extends: harvest-dice-normal\n")


def setup_diamond(d: Path, n: int = 40) -> None:
    _w(d / "d0.yaml", "extends: harvest-dice-normal\nid: d0\n")
    for i in range(1, n + 1):
        _w(d / f"d{i}.yaml", f"extends: [d{i - 1}.yaml, d{i - 1}.yaml]\nid: d{i}\n")


def setup_bomb(d: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join(["*" + chr(96 + i)] * 9) + "]")
    _w(d / "bomb.yaml", "extends: harvest-dice-normal\nid: bomb\njunk:\n" + "\n".join("  " + x for x in lines) + "\n")
    _w(d / "child.yaml", "extends: bomb.yaml\nid: child\n")


def setup_elements(d: Path, n: int) -> None:
    els = "".join(
        f"      - {{id: e{i}, type: text, at: [10, 10], size: [20, 8], text: '{i % 10}'}}\n" for i in range(n)
    )
    _w(
        d / "many.yaml",
        "id: many\ngame: harvest-dice\ntitle: {fr: Test, en: Test}\npages:\n"
        "  - id: p\n    title: {fr: Page, en: Page}\n    elements:\n" + els,
    )


def setup_players(d: Path, n: int) -> None:
    _w(
        d / "game.yaml",
        "layout: river-valley-glassworks\nplayers:\n"
        + "".join(f"  - {{name: p{i}, columns: [0], overflow: 0}}\n" for i in range(n)),
    )


def setup_fifo(d: Path, name: str) -> None:
    os.mkfifo(d / name)


CASES = {
    # losing a user's data
    "render a layout onto itself": (
        lambda d: _w(d / "my.yaml", _layout_with("")),
        ["render", "my.yaml", "-o", "my.yaml"],
    ),
    "render onto its input through a link": (
        lambda d: (_w(d / "my.yaml", _layout_with("")), os.symlink("my.yaml", d / "out.pdf")),
        ["render", "my.yaml", "-o", "out.pdf"],
    ),
    "template over a filled record": (
        lambda d: _w(d / "game.yaml", RECORD.replace("PIG", "3")),
        ["template", "harvest-dice-normal", "-o", "game.yaml"],
    ),
    "template over a record through a link": (
        lambda d: (_w(d / "game.yaml", RECORD.replace("PIG", "3")), os.symlink("game.yaml", d / "ln.yaml")),
        ["template", "bosk", "-o", "ln.yaml"],
    ),
    "read over a filled record": (
        lambda d: _w(d / "game.yaml", RECORD.replace("PIG", "3")),
        ["read", "normal.pdf", "-o", "game.yaml"],
    ),
    "read onto its input": (None, ["read", "normal.pdf", "-o", "normal.pdf"]),
    "interactive save over a record": (
        lambda d: _w(d / "game.yaml", RECORD.replace("PIG", "3")),
        ["score", "harvest-dice-normal", "-i", "--save", "game.yaml"],
    ),
    "render over a JSON file": (lambda d: _w(d / "data.json", "{}"), ["render", "bosk", "-o", "data.json"]),
    "render -o ''": (None, ["render", "bosk", "-o", ""]),
    "render -o a folder": (lambda d: (d / "sub").mkdir(), ["render", "bosk", "-o", "sub"]),
    "render to a FIFO nobody reads": (lambda d: setup_fifo(d, "out.pdf"), ["render", "bosk", "-o", "out.pdf"]),
    # trusting a stranger's file
    "PDF subject names a local file (read)": (None, ["read", "subject-path.pdf"]),
    "PDF subject names a local file (score)": (None, ["score", "subject-path.pdf"]),
    "PDF subject names /etc/passwd": (None, ["read", "subject-passwd.pdf"]),
    "PDF of a variant without --layout": (None, ["read", "variant.pdf"]),
    "--layout is not the PDF's layout": (None, ["read", "--layout", "harvest-dice-advanced", "normal.pdf"]),
    "--layout is not the PDF's layout (score)": (None, ["score", "--layout", "harvest-dice-advanced", "normal.pdf"]),
    "extends a foreign file": (lambda d: _w(d / "my.yaml", "extends: secret.yaml\n"), ["validate", "my.yaml"]),
    "extends a foreign mapping that has an id": (
        lambda d: (
            _w(d / "other.json", f'{{"id": "{SECRET}", "pages": "{SECRET}"}}'),
            _w(d / "my.yaml", "extends: other.json\n"),
        ),
        ["validate", "my.yaml"],
    ),
    "record names a foreign file as layout": (
        lambda d: _w(d / "game.yaml", "layout: secret.yaml\nplayers: []\n"),
        ["score", "game.yaml"],
    ),
    "record names a foreign text file as layout": (
        lambda d: _w(d / "game.yaml", "layout: notes.json\nplayers: []\n"),
        ["score", "game.yaml"],
    ),
    # wrong results
    "Arabic-Indic digits": (lambda d: _w(d / "game.yaml", RECORD.replace("PIG", '"١٢"')), ["score", "game.yaml"]),
    "full-width digits": (lambda d: _w(d / "game.yaml", RECORD.replace("PIG", '"１２"')), ["score", "game.yaml"]),
    "Hebrew label": (
        lambda d: _w(d / "my.yaml", _layout_with("title: {fr: שלום, en: Hello}\n")),
        ["validate", "my.yaml"],
    ),
    "Arabic label": (
        lambda d: _w(d / "my.yaml", _layout_with("title: {fr: مرحبا, en: Hello}\n")),
        ["render", "my.yaml", "-o", "x.pdf"],
    ),
    # hanging or eating memory
    "extends chain of 1,000 files": (setup_chain, ["validate", "c0.yaml"]),
    "alias bomb through extends": (setup_bomb, ["validate", "child.yaml"]),
    "3-million item flow list": (
        lambda d: _w(d / "big.yaml", "layout: bosk\nplayers: [" + "1," * 3_000_000 + "1]\n"),
        ["score", "big.yaml"],
    ),
    "400,000 item flow list under the size limit": (
        lambda d: _w(d / "big.yaml", _layout_with("x: [" + "1," * 400_000 + "1]\n")),
        ["validate", "big.yaml"],
    ),
    "10 MB label": (
        lambda d: _w(d / "my.yaml", _layout_with("title: {fr: " + "a" * 10_000_000 + ", en: b}\n")),
        ["validate", "my.yaml"],
    ),
    "100,000 character label": (
        lambda d: _w(d / "my.yaml", _layout_with("title: {fr: " + "a" * 100_000 + ", en: b}\n")),
        ["validate", "my.yaml"],
    ),
    "score /dev/zero": (None, ["score", "/dev/zero"]),
    "validate /dev/zero": (None, ["validate", "/dev/zero"]),
    "score a FIFO with no writer": (lambda d: setup_fifo(d, "game.yaml"), ["score", "game.yaml"]),
    "read a FIFO with no writer": (lambda d: setup_fifo(d, "in.pdf"), ["read", "in.pdf"]),
    "fillable pad of 10,000 copies": (None, ["render", "bosk", "--fillable", "--copies", "10000", "-o", "x.pdf"]),
    "fillable pad past the form-field budget": (
        None,
        ["render", "river-valley-glassworks", "--players", "5", "--fillable", "--copies", "100", "-o", "x.pdf"],
    ),
    "a number of 5,000 digits": (
        lambda d: _w(d / "game.yaml", RECORD.replace("PIG", "9" * 5000)),
        ["score", "game.yaml"],
    ),
    "a folder as the record's layout": (
        lambda d: _w(d / "game.yaml", "layout: /tmp\nplayers: []\n"),
        ["score", "game.yaml"],
    ),
    "a layout name too long for the system": (
        lambda d: _w(d / "game.yaml", "layout: " + "a" * 5000 + "\nplayers: []\n"),
        ["score", "game.yaml"],
    ),
    "extends a folder": (lambda d: _w(d / "my.yaml", "extends: /tmp/\n"), ["validate", "my.yaml"]),
    "diamond extends 40 deep": (setup_diamond, ["validate", "d40.yaml"]),
    "10,000 overlapping elements": (lambda d: setup_elements(d, 10_000), ["validate", "many.yaml"]),
    "399 overlapping elements": (lambda d: setup_elements(d, 399), ["validate", "many.yaml"]),
    "50,000 players": (lambda d: setup_players(d, 50_000), ["score", "game.yaml"]),
    "2,000 players": (lambda d: setup_players(d, 2_000), ["score", "game.yaml"]),
    "render --players 50000": (None, ["render", "bosk", "--players", "50000", "-o", "x.pdf"]),
    "template --players 50000": (None, ["template", "bosk", "--players", "50000"]),
    "compressed-object bomb in a PDF": (None, ["read", "bomb.pdf"]),
    "truncated PDF": (None, ["score", "truncated.pdf"]),
    "junk named .pdf": (lambda d: _w(d / "junk.pdf", "hello"), ["read", "junk.pdf"]),
    "a folder as a record": (lambda d: (d / "sub").mkdir(), ["score", "sub"]),
    "extends 64 levels of nesting": (
        lambda d: _w(d / "deep.yaml", _layout_with("x: " + "[" * 5000 + "]" * 5000 + "\n")),
        ["validate", "deep.yaml"],
    ),
    # Unix and Click conventions
    "mistyped layout id": (None, ["render", "harvest-dice-normall"]),
    "an empty record name": (None, ["score", ""]),
    "an empty PDF name": (None, ["read", ""]),
    "score - with a broken record": (None, ["score", "-"], b"layout: bosk\nplayers: [1, 2\n"),
    "validate - with a broken layout": (None, ["validate", "-"], b"id: x\ngame: nope\n"),
    "a lone surrogate in a record's name": (
        lambda d: _w(d / "game.yaml", RECORD.replace("Bob", '"Bob\\ud800"').replace("PIG", "3")),
        ["score", "game.yaml"],
    ),
    "a lone surrogate in a JSON record": (
        lambda d: _w(
            d / "game.json",
            '{"layout": "plante-bataille", "players": [{"name": "A\\udc00", "harvested": [1]}, '
            '{"name": "B", "harvested": [2]}, {"name": "C", "harvested": [3]}]}',
        ),
        ["score", "game.json", "--format", "json"],
    ),
    "a lone surrogate in a layout's label": (
        lambda d: _w(d / "my.yaml", _layout_with('title: {fr: "a\\ud800", en: b}\n')),
        ["validate", "my.yaml"],
    ),
    "a grid field that is a check box (read)": (None, ["read", "checkbox-grid.pdf"]),
    "a grid field that is a check box (score)": (None, ["score", "checkbox-grid.pdf"]),
    "an image of 100,000,000 x 1 pixels": (lambda d: _image(d / "strip.png", (100_000_000, 1)), ["scan", "strip.png"]),
    "an image of 1 x 40,000 pixels": (lambda d: _image(d / "strip.png", (1, 40_000)), ["scan", "strip.png"]),
    "a PDF whose object stream inflates to 2 GB": (None, ["scan", "objstm-bomb.pdf"]),
    "interactive scoring at the end of its input": (None, ["score", "plante-bataille", "-i"], b"3\nAnn\n"),
    "render -o a path ending in /": (lambda d: (d / "o").mkdir(), ["render", "bosk", "-o", "o/trail.pdf/"]),
    "history --db a path ending in /": (None, ["history", "--db", "y.sqlite/"]),
    "scan --check a path ending in /": (None, ["scan", "junk.pdf", "--check", "c.png/"]),
    "scan --check onto its photo, before reading it": (None, ["scan", "junk.pdf", "--check", "junk.pdf"]),
    "a photo given twice, before reading it": (None, ["scan", "junk.pdf", "./junk.pdf"]),
    "scan a link in a loop": (lambda d: os.symlink("loop.png", d / "loop.png"), ["scan", "loop.png"]),
    "history --remove past SQLite's integers": (None, ["history", "--remove", "9" * 20, "--db", "h.sqlite"]),
    "history --limit past SQLite's integers": (None, ["history", "--limit", "9" * 20, "--db", "h.sqlite"]),
    "history --player of bytes that are not UTF-8": (None, ["history", b"--player", b"\xff\xfe", "--db", "h.sqlite"]),
    "terminal escapes in a name": (
        lambda d: _w(d / "game.yaml", RECORD.replace("Bob", '"\\e[31mBob\\nEvil"').replace("PIG", "99")),
        ["score", "game.yaml"],
    ),
}


def _stdio_closed(fd: int):
    def close():
        _limits()
        os.close(fd)

    return close


def _image(path: Path, size: tuple) -> None:
    from PIL import Image

    Image.new("L", size, 255).save(path)


def _files(d: Path, pdfs: dict) -> None:
    _w(d / "secret.yaml", f"{SECRET}: here\n")
    _w(d / "notes.json", f"{SECRET} in a text file\n")
    for name, data in pdfs.items():
        (d / name).write_bytes(data)


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_input_is_one_clean_error(name, tmp_path, pdfs):
    case = CASES[name]
    setup, args = case[0], case[1]
    stdin = case[2] if len(case) > 2 else b""
    _files(tmp_path, pdfs)
    _w(tmp_path / "junk.pdf", "hello")
    if setup:
        setup(tmp_path)
    before = snapshot(tmp_path)
    proc = sheetgen(args, tmp_path, stdin)
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert proc.returncode in (1, 2), (proc.returncode, err[-2000:])
    assert [line for line in err.splitlines() if line.startswith("Error:")].__len__() == 1, err[-3000:]
    assert "Traceback" not in err + out and "internal error" not in err, err[-3000:]
    assert SECRET not in err + out  # a foreign file's contents are never quoted
    assert "\x1b" not in err + out  # control characters are shown escaped
    assert len(err.splitlines()) <= 60, err[:3000]  # errors are capped, "... and N more"
    assert snapshot(tmp_path) == before  # nothing changed, no temporary file left


def test_odd_form_field_names_are_ignored_not_a_crash(tmp_path, pdfs):
    """`pig_1__²` is no field of the layout (and ² no copy number): it is left out, so a
    sheet whose only mark it is counts as blank (no empty player is made of it)."""
    _files(tmp_path, pdfs)
    proc = sheetgen(["read", "odd-names.pdf"], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.decode().endswith("odd-names.pdf: every sheet is blank\n"), proc.stderr
    assert b"internal error" not in proc.stderr


def test_the_messages_name_the_limit_or_the_problem(tmp_path, pdfs):
    """A few of the cases above, with what they say."""
    _files(tmp_path, pdfs)

    def error(args, setup=None, stdin=b""):
        if setup:
            setup(tmp_path)
        return sheetgen(args, tmp_path, stdin).stderr.decode()

    assert "the file exists; give --force" in error(["template", "bosk", "-o", "secret.yaml"])
    assert "one of the command's inputs" in error(["read", "normal.pdf", "-o", "normal.pdf", "--force"])
    assert "not a built-in layout; give --layout" in error(["read", "subject-path.pdf"])
    assert "rendered from layout 'harvest-dice-normal', not from 'harvest-dice-advanced'" in error(
        ["read", "--layout", "harvest-dice-advanced", "normal.pdf"]
    )
    assert "more than 32 files deep (the limit)" in error(["validate", "c0.yaml"], setup_chain)
    assert "more than 20,000 values, YAML aliases expanded (the limit)" in error(["validate", "child.yaml"], setup_bomb)
    assert "larger than the limit of 1 MB" in error(
        ["score", "big.yaml"], lambda d: _w(d / "big.yaml", "[" + "1," * 600_000 + "1]")
    )
    assert "not a regular file (to read a stream, give -" in error(["score", "/dev/zero"])
    assert "at most 100 with --fillable" in error(["render", "bosk", "--fillable", "--copies", "10000"])
    assert "played by 2-5 players, got 2000" in error(["score", "game.yaml"], lambda d: setup_players(d, 2000))
    overlaps = error(["validate", "many.yaml"], lambda d: setup_elements(d, 399))
    assert "more overlaps on page 'p'" in overlaps and "... and " in overlaps
    assert "the limit is 400" in error(["validate", "many.yaml"], lambda d: setup_elements(d, 401))
    assert "right-to-left text" in error(
        ["validate", "my.yaml"], lambda d: _w(d / "my.yaml", _layout_with("title: {fr: שלום, en: Hello}\n"))
    )
    assert "did you mean 'harvest-dice-normal'?" in error(["render", "harvest-dice-normall"])
    pdf_errors = error(["score", "truncated.pdf"])
    assert pdf_errors.startswith("Error: truncated.pdf: not a readable PDF") and len(pdf_errors.splitlines()) == 1
    assert "\\x1b[31mBob\\nEvil" in error(
        ["score", "game.yaml"],
        lambda d: _w(d / "game.yaml", RECORD.replace("Bob", '"\\e[31mBob\\nEvil"').replace("PIG", "99")),
    )


def test_the_new_surfaces_say_what_is_wrong(tmp_path, pdfs):
    """Text that no file can hold, a form field of another kind than its box, images and
    PDFs too large to read: each said in one line, at its place."""
    _files(tmp_path, pdfs)
    _w(tmp_path / "game.yaml", RECORD.replace("Bob", '"Bob\\ud800"').replace("PIG", "3"))
    assert sheetgen(["score", "game.yaml"], tmp_path).stderr.decode() == (
        "Error: game.yaml:7: not valid text: a lone surrogate (\\ud800), which no file can hold\n"
    )
    assert sheetgen(["read", "checkbox-grid.pdf"], tmp_path).stderr.decode() == (
        "Error: checkbox-grid.pdf: the form field 'garden_r1_c1' is a check box where the sheet has a box "
        "to write in; fill the PDF that `sheetgen render --fillable` made\n"
    )
    _image(tmp_path / "strip.png", (100_000_000, 1))
    assert sheetgen(["scan", "strip.png"], tmp_path).stderr.decode() == (
        "Error: strip.png: an image of 100000000 x 1 pixels; sheetgen reads images of at most 30,000 pixels a side\n"
    )
    assert sheetgen(["scan", "objstm-bomb.pdf"], tmp_path).stderr.decode() == (
        "Error: objstm-bomb.pdf: a stream of the PDF inflates to more than 64 MB (or all of them together "
        "to more than 256 MB): not a page sheetgen reads\n"
    )
    ended = sheetgen(["score", "plante-bataille", "-i"], tmp_path, b"3\nAnn\n")
    assert ended.returncode == 1
    assert ended.stderr.decode().endswith("\nError: standard input ended before every question was answered\n")


def test_an_emoji_written_as_two_escaped_halves_is_one_character(tmp_path):
    _w(tmp_path / "game.yaml", RECORD.replace("Bob", '"Bob \\ud83c\\udf45"').replace("PIG", "3"))
    done = sheetgen(["score", "game.yaml", "--format", "json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"name": "Bob \U0001f345"' in done.stdout.decode()


def test_a_damaged_exif_block_prints_no_warning_of_pillows(tmp_path):
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (800, 600), "white").save(buf, "JPEG")
    exif = b"Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x05" + b"\xff" * 40
    data = buf.getvalue()
    (tmp_path / "photo.jpg").write_bytes(data[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + data[2:])
    err = sheetgen(["scan", "photo.jpg"], tmp_path).stderr.decode()
    assert err == "Error: photo.jpg: no scan marks found: this is not a sheetgen sheet, or too blurred or small\n"


def _own_peak_kib(child: subprocess.Popen, argument: str) -> int:
    """A child's own peak memory (VmHWM, KiB), polled until it ends. Not wait4's maxrss: a
    process keeps the peak of the one it was forked from (a test worker that read photos
    holds gigabytes) across exec. Counted once its command line is its own (`argument` in it)."""
    peak = 0
    while child.poll() is None:
        try:
            with open(f"/proc/{child.pid}/cmdline", "rb") as f:
                own = argument.encode() in f.read().split(b"\0")
            with open(f"/proc/{child.pid}/status", encoding="ascii") as f:
                hwm = [int(line.split()[1]) for line in f if line.startswith("VmHWM:")]
        except OSError:  # (ended between poll and open)
            break
        if own and hwm:
            peak = max(peak, hwm[0])
        time.sleep(0.01)
    return peak


@pytest.mark.slow
def test_a_108_megapixel_photo_is_read_in_under_1_gb(tmp_path):
    """Read reduced to scan.photos.READ_PIXELS: the child's own peak stays under 1 GiB."""
    from PIL import Image

    Image.new("RGB", (12_000, 9_000), "white").save(tmp_path / "big.png")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile() as err_file:
        child = subprocess.Popen([*COMMAND, "scan", "big.png"], cwd=tmp_path, env=env, stderr=err_file)
        peak = _own_peak_kib(child, "big.png")
        child.wait()
        err_file.seek(0)
        err = err_file.read().decode()
    assert child.returncode == 1 and err.startswith("Error: big.png: no scan marks found"), err
    assert 0 < peak * 1024 < 1024**3, f"{peak / 1024:.0f} MiB"


def test_exit_codes_of_the_installed_command(tmp_path):
    """`history --rescore` exits 1 when a kept game cannot be scored again (Click returns a
    ctx.exit code outside standalone mode; the console script must not drop it)."""
    db = tmp_path / "h.sqlite"
    _w(tmp_path / "v.yaml", "extends: plante-bataille\nid: pb\n")
    _w(
        tmp_path / "game.yaml",
        "layout: v.yaml\nplayers:\n  - {name: A, harvested: [3]}\n  - {name: B, harvested: [1]}\n  - {name: C, harvested: [2]}\n",
    )
    assert sheetgen(["score", "game.yaml", "--save", "--db", str(db)], tmp_path).returncode == 0
    (tmp_path / "v.yaml").unlink()
    rescored = sheetgen(["history", "--rescore", "--db", str(db)], tmp_path)
    assert rescored.returncode == 1, rescored.stderr
    assert sheetgen(["list"], tmp_path).returncode == 0


def test_a_damaged_history_row_is_named_and_the_rest_shown(tmp_path):
    import sqlite3

    db = tmp_path / "h.sqlite"
    for n, harvested in enumerate(([3], [5]), 1):
        _w(
            tmp_path / f"g{n}.yaml",
            "layout: plante-bataille\nplayers:\n"
            f"  - {{name: A, harvested: {harvested}}}\n  - {{name: B, harvested: [1]}}\n  - {{name: C, harvested: [2]}}\n",
        )
        assert sheetgen(["score", f"g{n}.yaml", "--save", "--db", str(db)], tmp_path).returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE players SET breakdown = '{not json' WHERE game_id = 1 AND seat = 1")
    warning = f"warning: {db}: game 1: its breakdown of player 'B' cannot be read (not valid JSON); left out\n"
    for command in (["history"], ["stats"], ["history", "--format", "csv"]):
        done = sheetgen([*command, "--db", str(db)], tmp_path)
        assert done.returncode == 0 and done.stderr.decode() == warning, (command, done.stderr)
    assert "2  " in sheetgen(["history", "--db", str(db)], tmp_path).stdout.decode()
    rescored = sheetgen(["history", "--rescore", "--db", str(db)], tmp_path)
    assert rescored.returncode == 1 and rescored.stderr.decode() == warning
    removed = sheetgen(["history", "--remove", "1", "--db", str(db)], tmp_path)
    assert removed.returncode == 0 and removed.stdout.decode().startswith("removed game 1 (")
    assert sheetgen(["history", "--db", str(db)], tmp_path).stderr == b""


def _forged_photo(path: Path, layout_id: str, named: str) -> None:
    """A photo-like picture of a blank-but-ticked `layout_id` sheet whose QR code names the
    sheet `named` (its code cut from that sheet and pasted on)."""
    import pypdfium2
    from PIL import ImageDraw

    from sheetgen.layout import scanmarks

    other = load_layout(named)
    real = scanmarks.payload
    forged = lambda layout_id_, page, players, lang, digest: real(named, page, players, lang, other.digest)  # noqa: E731
    scanmarks.payload = forged
    try:
        layout = load_layout(layout_id)
        pdf = render_pdf(layout, lang="en")
    finally:
        scanmarks.payload = real
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=150 / 72).to_pil().convert("RGB")
    draw = ImageDraw.Draw(image)
    page = layout.document("en", None, None, scan_marks=True).pages[0]
    from sheetgen.render.pdf import placement

    at = placement(page, "a4")
    px = 150 / 25.4
    for box in [b for b in page.boxes() if b.field and b.field.startswith("pig_")][:5]:
        x0, y0 = (at.left + box.x) * px, (at.top + box.y) * px
        x1, y1 = x0 + box.w * px, y0 + box.h * px
        draw.line([(x0 + 3, y0 + 3), (x1 - 3, y1 - 3)], fill=(40, 40, 40), width=3)
        draw.line([(x0 + 3, y1 - 3), (x1 - 3, y0 + 3)], fill=(40, 40, 40), width=3)
    image.save(path)


@pytest.mark.slow
def test_a_qr_code_from_another_sheet_is_refused_by_the_print(tmp_path):
    """The print says what the sheet is: a normal Harvest Dice sheet whose QR code names the
    advanced sheet (or the Glassworks pad) is refused naming both, not scored as the other."""
    _forged_photo(tmp_path / "forged.png", "harvest-dice-normal", "harvest-dice-advanced")
    done = sheetgen(["scan", "forged.png", "--score"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "Error: forged.png: its QR code names the 'sheet' page of 'harvest-dice-advanced', but its print is "
        "the 'sheet' page of 'harvest-dice-normal': a QR code from another sheet? print the sheet again\n"
    )
    _forged_photo(tmp_path / "pad.png", "harvest-dice-normal", "river-valley-glassworks")
    done = sheetgen(["scan", "pad.png"], tmp_path)
    assert done.returncode == 1
    assert "but its print is the 'sheet' page of 'harvest-dice-normal'" in done.stderr.decode()
    _forged_photo(tmp_path / "true.png", "harvest-dice-normal", "harvest-dice-normal")
    done = sheetgen(["scan", "true.png", "--score"], tmp_path)
    assert done.returncode == 0, done.stderr


def _run(args, cwd, **kw):
    env = {k: v for k, v in os.environ.items() if k != "SHEETGEN_DEBUG"}
    env.update(PYTHONPATH=str(ROOT), LANG="C.UTF-8", LC_ALL="C.UTF-8")
    return subprocess.run([*COMMAND, *args], cwd=cwd, env=env, timeout=HANG_GUARD, **kw)


def test_output_that_cannot_be_written_is_an_error(tmp_path):
    closed = _run(["list"], tmp_path, capture_output=False, stderr=subprocess.PIPE, preexec_fn=_stdio_closed(1))
    assert closed.returncode == 1
    assert closed.stderr.decode() == "Error: cannot write the output: standard output is closed\n"
    with open("/dev/full", "wb") as full:
        done = _run(["list"], tmp_path, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1
    assert done.stderr.decode() == "Error: cannot write the output: No space left on device\n"
    no_input = _run(["score", "-"], tmp_path, capture_output=True, preexec_fn=_stdio_closed(0))
    assert no_input.returncode == 1
    assert no_input.stderr.decode() == (
        "Error: <stdin>: standard input is closed; pipe the input to it, or give a file\n"
    )


def test_names_are_escaped_in_every_table_and_csv(tmp_path):
    db = tmp_path / "h.sqlite"
    _w(
        tmp_path / "g.yaml",
        'layout: plante-bataille\nplayers:\n  - {name: "\\e]0;PWNED\\a", harvested: [3]}\n'
        '  - {name: "=HYPERLINK(\\"x\\")", harvested: [1]}\n  - {name: C, harvested: [2]}\n',
    )
    assert sheetgen(["score", "g.yaml", "--save", "--db", str(db)], tmp_path).returncode == 0
    for command in (["history"], ["stats"], ["history", "--format", "csv"], ["stats", "--format", "csv"]):
        out = sheetgen([*command, "--db", str(db)], tmp_path).stdout.decode()
        assert "\x1b" not in out and "\x07" not in out and "\\x1b]0;PWNED\\x07" in out, (command, out)
        if "csv" in command:
            assert "'=HYPERLINK(" in out and ",=HYPERLINK" not in out
    asked = sheetgen(["score", "plante-bataille", "-i"], tmp_path, b"3\n\x1b[31mAnn\n\n")
    assert b"\x1b" not in asked.stderr and b"\\x1b[31mAnn" in asked.stderr


def test_a_write_only_file_of_ones_own_may_be_replaced(tmp_path):
    out = tmp_path / "pad.pdf"
    out.write_bytes(b"old")
    out.chmod(0o200)
    done = sheetgen(["render", "bosk", "-o", "pad.pdf"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF")


def test_a_file_the_user_may_not_write_is_not_replaced(tmp_path, monkeypatch):
    """In a world-writable folder a rename would replace another user's file (the folder's
    permission, not the file's, allows it): a file the user may not write in place is
    refused. (Root may write anything, so the test stands in for another user by saying
    the file is not writable to it; a command cannot run as another user here: the
    interpreter lies in a folder only root may enter.)"""
    from sheetgen.errors import SheetgenError
    from sheetgen.fileio import write_output

    theirs = tmp_path / "theirs.pdf"
    theirs.write_bytes(b"another user's file")
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda path, mode, **kw: False if Path(path) == theirs else real_access(path, mode, **kw)
    )
    with pytest.raises(SheetgenError) as refused:
        write_output(theirs, b"%PDF-")
    assert str(refused.value) == f"{theirs}: cannot write: Permission denied (the file is not yours to replace)"
    assert theirs.read_bytes() == b"another user's file"


def test_a_pdf_filled_on_a_screen_is_scanned_from_its_fields(tmp_path):
    """pypdf fills a form and sets NeedAppearances, drawing nothing: pdfium shows the typed
    garden letters blank, so `scan` takes the PDF's fields, as `read` does."""
    src = render_pdf(load_layout("harvest-dice-normal"), fillable=True)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(src)))
    writer.set_need_appearances_writer(True)
    values = {"player_name_box": "Ann", "pig_1": "/Yes", "pig_2": "/Yes"}
    values.update({f"garden_r1_c{c}": v for c, v in zip(range(1, 5), "CCTT")})
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
    writer.write(str(tmp_path / "filled.pdf"))
    scanned, read = sheetgen(["scan", "filled.pdf"], tmp_path), sheetgen(["read", "filled.pdf"], tmp_path)
    assert scanned.returncode == 0 and read.returncode == 0
    assert "garden: [CCTT.., '......', '......']" in scanned.stdout.decode()
    assert scanned.stdout == read.stdout
    assert scanned.stderr.decode() == (
        "warning: filled.pdf: a PDF filled on a screen: read from its form fields, as `sheetgen read` does\n"
    )


def test_the_bombs_are_what_they_say():
    """The deflated zeros the bombs carry inflate to exactly that many megabytes of zeros."""
    inflated = zlib.decompressobj()
    out = inflated.decompress(zeros_deflated(3))
    assert out == b"\0" * (3 * 1024 * 1024) and inflated.eof
