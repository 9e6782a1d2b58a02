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
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from sheetgen.layout.model import load_layout
from sheetgen.render import render_pdf

ROOT = Path(__file__).resolve().parents[1]
MEMORY = 1024 * 1024 * 1024  # bytes of address space for the child
CPU_SECONDS = 30  # CPU time for the child (imports included); far above what each case needs
HANG_GUARD = 300  # seconds; see the module doc
SECRET = "TOPSECRET-do-not-print"


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def sheetgen(args, cwd, stdin: bytes = b""):
    env = {k: v for k, v in os.environ.items() if k != "SHEETGEN_DEBUG"}
    env.update(PYTHONPATH=str(ROOT), LANG="C.UTF-8", LC_ALL="C.UTF-8")
    return subprocess.run(
        [sys.executable, "-m", "sheetgen", *args],
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


def bomb_pdf(megabytes: int = 400) -> bytes:
    """A PDF whose cross-reference stream inflates to `megabytes` MB of zeros."""
    comp = zlib.compressobj(9)
    chunk = b"\0" * (1024 * 1024)
    body = b"".join(comp.compress(chunk) for _ in range(megabytes)) + comp.flush()
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
    "terminal escapes in a name": (
        lambda d: _w(d / "game.yaml", RECORD.replace("Bob", '"\\e[31mBob\\nEvil"').replace("PIG", "99")),
        ["score", "game.yaml"],
    ),
}


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
