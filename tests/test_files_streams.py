"""Careless inputs that must work, not fail: outputs through links, to FIFOs
and to standard output, modes kept, SIGTERM cleanup, --force, `-` for standard input,
decimal leading zeros, CSV quoting, warnings and prompts on standard error, JSON lines,
several filled PDFs as one game, --layout on score, paths relative to the record,
close-match suggestions, shell completion, escaped names."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import yaml
from click.testing import CliRunner
from pypdf import PdfReader, PdfWriter

from sheetgen.cli import _complete_layout, _complete_page, cli
from sheetgen.games import load_layout
from sheetgen.render import render_pdf

ROOT = Path(__file__).resolve().parents[1]

RECORD = """\
layout: harvest-dice-normal
players:
  - name: NAME
    garden: ["CC....", "......", "......"]
    pig: 3
    market: {carrot: 2, salad: 1, tomato: 1}
  - name: Bob
    garden: ["......", "......", "......"]
    pig: 0
    market: {carrot: 1, salad: 1, tomato: 1}
"""


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def fill(layout, values: dict, path: Path, players=None) -> str:
    src = render_pdf(layout if not isinstance(layout, str) else load_layout(layout), fillable=True, players=players)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(src)))
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
    writer.write(str(path))
    return str(path)


# --------------------------------------------------------------------------- outputs


def test_an_output_through_a_symlink_replaces_the_target_and_keeps_the_link(tmp_path):
    (tmp_path / "real.pdf").write_bytes(b"old")
    os.symlink("real.pdf", tmp_path / "link.pdf")
    out = run("render", "harvest-dice-normal", "-o", str(tmp_path / "link.pdf"))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "link.pdf").is_symlink() and os.readlink(tmp_path / "link.pdf") == "real.pdf"
    assert (tmp_path / "real.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pdf", "real.pdf"]


def test_an_output_to_a_fifo_is_written_straight(tmp_path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    try:
        import time

        while not got and reader.is_alive():  # let the reader open the FIFO first
            out = run("render", "bosk", "-o", str(fifo))
            if out.exit_code == 0:
                break
            time.sleep(0.05)
    finally:
        reader.join(30)
    assert got and got[0].startswith(b"%PDF")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_overwriting_keeps_the_files_mode(tmp_path):
    path = tmp_path / "sheet.pdf"
    path.write_bytes(b"old")
    path.chmod(0o600)
    assert run("render", "bosk", "-o", str(path)).exit_code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_bytes().startswith(b"%PDF")


def test_dash_writes_the_pdf_to_standard_output(tmp_path):
    out = CliRunner().invoke(cli, ["render", "bosk", "-o", "-"])
    assert out.exit_code == 0
    assert out.stdout_bytes.startswith(b"%PDF") and out.stderr.startswith("wrote <stdout>")
    assert not Path("-").exists()


def test_sigterm_during_a_write_leaves_no_temporary_file(tmp_path):
    script = f"""
import os, signal, sys
sys.argv = ["sheetgen", "render", "bosk", "-o", {str(tmp_path / "out.pdf")!r}]
import sheetgen.fileio as f
real = os.replace
def replace(src, dst):
    os.kill(os.getpid(), signal.SIGTERM)
    real(src, dst)
f.os.replace = replace
from sheetgen.cli import main
main()
"""
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 128 + 15, proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_force_overwrites_a_record(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("mine", encoding="utf-8")
    refused = run("template", "bosk", "-o", str(path))
    assert refused.exit_code == 1 and path.read_text() == "mine"
    assert run("template", "bosk", "-o", str(path), "--force").exit_code == 0
    assert path.read_text().startswith("# Bosk")


def test_interactive_save_is_refused_before_the_questions(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("mine", encoding="utf-8")
    out = run("score", "harvest-dice-normal", "-i", "--record", str(path), input="")
    assert out.exit_code == 1 and "give --force" in out.stderr and out.stdout == ""


# --------------------------------------------------------------------------- inputs and results


def test_dash_reads_standard_input(tmp_path):
    out = run("score", "-", "--format", "json", input=RECORD.replace("NAME", "Ann"))
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["players"][0]["name"] == "Ann"
    layout = (ROOT / "layouts" / "harvest-dice-advanced.yaml").read_text(encoding="utf-8")
    assert run("validate", "-", input=layout).stdout.startswith("ok: -: layout 'harvest-dice-advanced'")


def test_leading_zeros_are_decimal_not_octal(tmp_path):
    record = (
        "layout: river-valley-glassworks\nplayers:\n  - {name: Ann, columns: [1], overflow: 010}\n"
        "  - {name: Ben, columns: [1], overflow: 0}\n"
    )
    out = run("score", "-", "--format", "json", input=record)
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["players"][0]["breakdown"]["overflow"] == -30  # 10 pieces, not 8


def test_csv_quotes_every_cell_that_needs_it_and_defuses_formulas():
    record = RECORD.replace("NAME", '"=HYPERLINK(\\"x\\")\\rline"')
    out = run("score", "-", "--format", "csv", input=record)
    assert out.exit_code == 0, out.output
    rows = list(csv.reader(io.StringIO(out.stdout, newline="")))
    assert rows[1][2] == '\'=HYPERLINK("x")\rline' and rows[2][2] == "Bob"
    assert len(rows) == 3


def test_csv_has_one_header_per_game_and_warnings_go_to_stderr(tmp_path):
    hd = tmp_path / "hd.yaml"
    hd.write_text(RECORD.replace("NAME", "Ann"), encoding="utf-8")
    glass = tmp_path / "glass.yaml"
    glass.write_text(
        "layout: river-valley-glassworks\nplayers:\n  - {name: Ann, columns: [1]}\n  - {name: Ben, columns: [2]}\n",
        encoding="utf-8",
    )
    out = run("score", str(hd), str(glass), "--format", "csv")
    assert out.exit_code == 0, out.output
    blocks = out.stdout.replace("\r\n", "\n").split("\n\n")
    assert len(blocks) == 2
    assert blocks[0].startswith("record,layout,player,carrot,") and blocks[1].startswith("record,layout,player,row_1,")
    assert "warning" not in out.stdout and out.stderr.count("warning: ") >= 2
    table = run("score", str(hd))
    assert "warning: no end condition was met" in table.stderr and "no end condition" not in table.stdout


def test_jsonl_is_one_object_a_line(tmp_path):
    hd = tmp_path / "hd.yaml"
    hd.write_text(RECORD.replace("NAME", "Ann"), encoding="utf-8")
    out = run("score", str(hd), str(hd), "--format", "jsonl")
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["layout"] == "harvest-dice-normal" for line in lines)


def test_interactive_prompts_go_to_stderr_so_json_stays_valid():
    answers = (
        "\n".join(
            ["2", "Ann", "CC....,......,......", "3", "2", "1", "1", "Bob", "......,......,......", "0", "1", "1", "1"]
        )
        + "\n"
    )
    out = run("score", "harvest-dice-normal", "-i", "--format", "json", input=answers)
    assert out.exit_code == 0, out.output
    assert [p["name"] for p in json.loads(out.stdout)["players"]] == ["Ann", "Bob"]
    assert "How many players" in out.stderr


def test_table_and_errors_show_control_characters_escaped(tmp_path):
    out = run("score", "-", input=RECORD.replace("NAME", '"\\e[2JAnn"'))
    assert out.exit_code == 0
    assert "\x1b" not in out.stdout and "\\x1b[2JAnn" in out.stdout


def test_template_defaults_to_the_layouts_player_count():
    assert yaml.safe_load(run("template", "bosk").stdout)["players"].__len__() == 4
    assert yaml.safe_load(run("template", "plante-bataille").stdout)["players"].__len__() == 6


def test_close_matches_are_suggested():
    from sheetgen.schema import Ctx, Field, Map, Str, Where

    out = run("render", "harvest-dice-normall")
    assert out.stderr == "Error: no built-in layout 'harvest-dice-normall'; did you mean 'harvest-dice-normal'?\n"
    ctx = Ctx()
    Map({"color": Field(Str()), "size": Field(Str())}).check({"colour": "x"}, ctx, Where(None, None, ""))
    assert [str(p) for p in ctx.errors] == [
        "<string>: colour: unknown key; did you mean 'color'?; accepted keys: color, size"
    ]
    ext = run("validate", "-", input="extends: harvest-dice-advanced2\n")
    assert "extends: no built-in layout 'harvest-dice-advanced2'; did you mean 'harvest-dice-advanced'?" in ext.stderr
    page = run("render", "imperial-settlers", "--page", "vilage")
    assert "did you mean 'village'?" in page.stderr


def test_shell_completion_offers_layout_ids_pages_and_files():
    items = _complete_layout(None, None, "harvest")
    assert [i.value for i in items if i.type == "plain"] == ["harvest-dice-advanced", "harvest-dice-normal"]
    assert any(i.type == "file" for i in items)

    class Ctx:
        params = {"layout": "imperial-settlers"}

    assert [i.value for i in _complete_page(Ctx(), None, "")] == ["empire", "village"]
    from click.shell_completion import ShellComplete

    complete = ShellComplete(cli, {}, "sheetgen", "_SHEETGEN_COMPLETE")
    assert [i.value for i in complete.get_completions(["render", "imperial-settlers", "--page"], "")] == [
        "empire",
        "village",
    ]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "_SHEETGEN_COMPLETE=bash_source" in readme


# --------------------------------------------------------------------------- filled PDFs


def test_several_filled_pdfs_score_as_one_game(tmp_path):
    ann = fill("harvest-dice-normal", {"player_name_box": "Ann", "pig_1": "/Yes"}, tmp_path / "ann.pdf")
    bob = fill(
        "harvest-dice-normal",
        {"player_name_box": "Bob"} | {f"pig_{n}": "/Yes" for n in range(1, 8)},
        tmp_path / "bob.pdf",
    )
    out = run("score", ann, bob, "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob"] and data["winners"] == ["Bob"]


def test_a_variant_pdf_needs_and_takes_layout(tmp_path):
    (tmp_path / "layouts").mkdir()
    variant = tmp_path / "layouts" / "hd-big.yaml"
    variant.write_text("extends: harvest-dice-normal\nid: hd-big\n", encoding="utf-8")
    pdf = fill(
        load_layout(str(variant)),
        {"player_name_box": "Ann", "pig_1": "/Yes", "pig_2": "/Yes", "pig_3": "/Yes", "pig_6": "/Yes"},
        tmp_path / "filled.pdf",
    )
    assert "give --layout" in run("score", pdf).stderr
    scored = run("score", pdf, "--layout", str(variant), "--format", "json")
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout)["layout"] == "hd-big"
    (tmp_path / "records").mkdir()
    record = tmp_path / "records" / "game.yaml"
    read = run("read", pdf, "--layout", str(variant), "-o", str(record))
    assert read.exit_code == 0, read.output
    assert "pig: boxes 1-3 and 6 are checked, with a gap; read as the first 4 boxes" in read.stderr
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert data["layout"] == os.path.join("..", "layouts", "hd-big.yaml")  # relative to the record
    assert data["players"][0]["pig"] == 4
    assert run("score", str(record)).exit_code == 0


def test_template_writes_the_layout_path_relative_to_the_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "hd.yaml").write_text("extends: harvest-dice-normal\nid: hd\n", encoding="utf-8")
    out = run("template", "layouts/hd.yaml", "-o", "records/game.yaml")
    assert out.exit_code == 0, out.output
    assert "layout: ../layouts/hd.yaml" in (tmp_path / "records" / "game.yaml").read_text(encoding="utf-8")


def test_read_takes_a_pdf_on_standard_input(tmp_path):
    pdf = fill("harvest-dice-normal", {"player_name_box": "Ann", "pig_1": "/Yes"}, tmp_path / "ann.pdf")
    out = CliRunner().invoke(cli, ["read", "-"], input=Path(pdf).read_bytes())
    assert out.exit_code == 0, out.output
    assert yaml.safe_load(out.stdout)["players"][0]["name"] == "Ann"
    scored = CliRunner().invoke(cli, ["score", "-", "--format", "json"], input=Path(pdf).read_bytes())
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout)["players"][0]["name"] == "Ann"
