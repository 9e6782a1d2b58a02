"""The engine's commands through Click's CliRunner: list, render, validate, help.

Exit codes: 0 done, 1 a problem with the input (`Error: ...`, no traceback),
2 a usage error (Click's own).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from pypdf import PdfReader

from sheetgen import __version__
from sheetgen.cli import cli
from sheetgen.layout.resolve import builtin_ids

NORMAL_EN = "Harvest Dice — player sheet"
NORMAL_FR = "Harvest Dice — feuille de joueur"


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch):
    """Tests choose the locale explicitly; the machine's does not leak in."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args, env=None):
        return runner.invoke(cli, list(args), env=env, catch_exceptions=False)

    return invoke


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pdf(path) -> PdfReader:
    return PdfReader(io.BytesIO(path.read_bytes()))


def wrote(path: str, pages: int) -> re.Pattern:
    return re.compile(rf"wrote {re.escape(path)} \({pages} pages?, \d+ KiB\)\n")


# --------------------------------------------------------------------------- list


def test_list_shows_every_builtin_layout_with_game_and_title(run):
    result = run("list")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == builtin_ids()
    normal = next(line for line in lines if line.startswith("harvest-dice-normal "))
    assert re.fullmatch(rf"harvest-dice-normal +harvest-dice +{NORMAL_EN}", normal)


def test_list_in_french(run):
    result = run("list", env={"LANG": "fr_FR.UTF-8"})
    assert result.exit_code == 0
    assert NORMAL_FR in result.output and NORMAL_EN not in result.output


# --------------------------------------------------------------------------- render


def test_render_writes_into_output_by_default(run, in_tmp):
    result = run("render", "harvest-dice-normal")
    assert result.exit_code == 0, result.output
    assert wrote("output/harvest-dice-normal.pdf", 1).fullmatch(result.output)
    reader = pdf(in_tmp / "output" / "harvest-dice-normal.pdf")
    assert len(reader.pages) == 1
    assert reader.metadata.title == NORMAL_EN  # no locale: English
    assert reader.metadata.subject == "harvest-dice-normal"
    assert reader.metadata.creator == f"sheetgen {__version__}"
    assert sorted(os.listdir(in_tmp / "output")) == ["harvest-dice-normal.pdf"]


def test_render_output_option_creates_folders(run, in_tmp):
    result = run("render", "harvest-dice-advanced", "-o", "pads/hd/advanced.pdf")
    assert result.exit_code == 0, result.output
    assert wrote("pads/hd/advanced.pdf", 1).fullmatch(result.output)
    assert (in_tmp / "pads" / "hd" / "advanced.pdf").is_file()
    assert not (in_tmp / "output").exists()


def test_render_long_output_option(run, in_tmp):
    assert run("render", "harvest-dice-normal", "--output", "x.pdf").exit_code == 0
    assert (in_tmp / "x.pdf").is_file()


@pytest.mark.parametrize("lang, title", [("fr", NORMAL_FR), ("en", NORMAL_EN)])
def test_render_lang(run, in_tmp, lang, title):
    result = run("render", "harvest-dice-normal", "--lang", lang, "-o", "s.pdf", env={"LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0
    assert pdf(in_tmp / "s.pdf").metadata.title == title


def test_render_bad_lang_is_a_usage_error(run, in_tmp):
    result = run("render", "harvest-dice-normal", "--lang", "de")
    assert result.exit_code == 2
    assert "Invalid value for '--lang'" in result.output


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_render_paper(run, in_tmp, paper, size):
    result = run("render", "harvest-dice-normal", "--paper", paper, "-o", "s.pdf")
    assert result.exit_code == 0
    box = pdf(in_tmp / "s.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


def test_render_copies(run, in_tmp):
    result = run("render", "harvest-dice-advanced", "--copies", "50", "-o", "pad.pdf")
    assert result.exit_code == 0
    assert wrote("pad.pdf", 50).fullmatch(result.output)
    assert len(pdf(in_tmp / "pad.pdf").pages) == 50


def test_render_issue_example(run, in_tmp):
    result = run(
        "render", "harvest-dice-advanced", "--lang", "fr", "--paper", "letter", "--copies", "50", "-o", "pad.pdf"
    )
    assert result.exit_code == 0
    reader = pdf(in_tmp / "pad.pdf")
    assert len(reader.pages) == 50
    assert reader.metadata.title == "Harvest Dice — feuille de joueur (avancé)"
    assert round(float(reader.pages[0].mediabox.width)) == 612


@pytest.mark.parametrize("copies", ["0", "-3", "many"])
def test_render_bad_copies_is_a_usage_error(run, in_tmp, copies):
    result = run("render", "harvest-dice-normal", "--copies", copies)
    assert result.exit_code == 2
    assert "Invalid value for '--copies'" in result.output
    assert not (in_tmp / "output").exists()


def test_render_unknown_layout(run, in_tmp):
    result = run("render", "harvest-dice-huge")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: no built-in layout 'harvest-dice-huge'; built-in layouts: {', '.join(builtin_ids())}\n"
    )
    assert not (in_tmp / "output").exists()


def test_render_missing_layout_file(run, in_tmp):
    result = run("render", str(in_tmp / "nope.yaml"))
    assert result.exit_code == 1
    assert result.output == f"Error: {in_tmp / 'nope.yaml'}: no such file\n"


def test_render_players_out_of_range_is_a_usage_error(run, in_tmp):
    result = run("render", "harvest-dice-normal", "--players", "3")
    assert result.exit_code == 2
    assert "Invalid value for '--players': harvest-dice-normal is for 1" in result.output
    assert "got 3" in result.output


def test_render_unknown_page_is_a_usage_error(run, in_tmp):
    result = run("render", "harvest-dice-normal", "--page", "village")
    assert result.exit_code == 2
    assert "Invalid value for '--page': no page 'village' in harvest-dice-normal; pages: sheet" in result.output


def test_render_a_page_by_name(run, in_tmp):
    result = run("render", "harvest-dice-normal", "--page", "sheet", "--copies", "2", "-o", "s.pdf")
    assert result.exit_code == 0
    assert len(pdf(in_tmp / "s.pdf").pages) == 2


def test_render_a_broken_layout(run, in_tmp):
    path = FIXTURES / "overlap.yaml"
    result = run("render", str(path), "-o", "s.pdf")
    assert result.exit_code == 1
    assert result.output == f"Error: {path}:7: boxes: overlaps 'note'\n"
    assert not (in_tmp / "s.pdf").exists()


# --------------------------------------------------------------------------- default language


@pytest.mark.parametrize(
    "env, title",
    [
        ({"LANG": "fr_FR.UTF-8"}, NORMAL_FR),
        ({"LANG": "fr_CA"}, NORMAL_FR),
        ({"LANG": "en_US.UTF-8"}, NORMAL_EN),
        ({"LANG": "de_DE.UTF-8"}, NORMAL_EN),
        ({"LANG": "C"}, NORMAL_EN),
        ({}, NORMAL_EN),
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}, NORMAL_FR),  # LC_ALL wins over LANG
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}, NORMAL_EN),
        ({"LC_ALL": "", "LANG": "fr_FR.UTF-8"}, NORMAL_FR),  # an empty variable is unset
    ],
)
def test_default_language_from_the_locale(run, in_tmp, env, title):
    result = run("render", "harvest-dice-normal", "-o", "s.pdf", env=env)
    assert result.exit_code == 0
    assert pdf(in_tmp / "s.pdf").metadata.title == title


def test_lang_option_beats_the_locale(run, in_tmp):
    result = run("render", "harvest-dice-normal", "--lang", "en", "-o", "s.pdf", env={"LC_ALL": "fr_FR.UTF-8"})
    assert result.exit_code == 0
    assert pdf(in_tmp / "s.pdf").metadata.title == NORMAL_EN


# --------------------------------------------------------------------------- atomic writing


@pytest.fixture
def existing(in_tmp):
    out = in_tmp / "sheet.pdf"
    out.write_bytes(b"the previous sheet")
    return out


def test_failed_validation_leaves_the_output_untouched(run, existing):
    result = run("render", str(FIXTURES / "overlap.yaml"), "-o", existing.name)
    assert result.exit_code == 1
    assert existing.read_bytes() == b"the previous sheet"
    assert os.listdir(existing.parent) == [existing.name]


def test_failed_render_leaves_the_output_untouched(run, existing, monkeypatch):
    import sheetgen.render.pdf
    from sheetgen.errors import SheetgenError

    def broken(*args, **kwargs):
        raise SheetgenError("the renderer broke")

    monkeypatch.setattr(sheetgen.render.pdf, "pdf_bytes", broken)
    result = run("render", "harvest-dice-normal", "-o", existing.name)
    assert result.exit_code == 1
    assert result.output == "Error: the renderer broke\n"
    assert existing.read_bytes() == b"the previous sheet"
    assert os.listdir(existing.parent) == [existing.name]


def test_failed_rename_leaves_the_output_untouched_and_no_temp_file(run, existing, monkeypatch):
    import sheetgen.fileio

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(sheetgen.fileio.os, "replace", refuse)
    result = run("render", "harvest-dice-normal", "-o", existing.name)
    assert result.exit_code == 1
    assert result.output == "Error: sheet.pdf: cannot write: Permission denied\n"
    assert existing.read_bytes() == b"the previous sheet"
    assert os.listdir(existing.parent) == [existing.name]


def test_render_replaces_the_output_and_leaves_no_temp_file(run, existing):
    result = run("render", "harvest-dice-normal", "-o", existing.name)
    assert result.exit_code == 0
    assert existing.read_bytes().startswith(b"%PDF-")
    assert os.listdir(existing.parent) == [existing.name]


def test_output_file_mode_follows_the_umask(run, in_tmp):
    old = os.umask(0o022)
    try:
        assert run("render", "harvest-dice-normal", "-o", "s.pdf").exit_code == 0
    finally:
        os.umask(old)
    assert (in_tmp / "s.pdf").stat().st_mode & 0o777 == 0o644


def test_unwritable_output_folder(run, in_tmp):
    (in_tmp / "blocker").write_text("a file, not a folder")
    result = run("render", "harvest-dice-normal", "-o", "blocker/sheet.pdf")
    assert result.exit_code == 1
    assert result.output.startswith("Error: blocker/sheet.pdf: cannot write: ")
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- validate


@pytest.mark.parametrize("layout_id", ["harvest-dice-normal", "harvest-dice-advanced"])
def test_validate_builtin(run, layout_id):
    result = run("validate", layout_id)
    assert result.exit_code == 0
    first, note, *house = result.output.splitlines()
    assert first == f"ok: {layout_id}: layout '{layout_id}' (harvest-dice), pages: sheet"
    assert house == (
        []
        if layout_id == "harvest-dice-normal"
        else ["note: 1 texts are house rules the published rules leave open (house: true): rules_majority.text"]
    )
    # the seed gives the market's 6 boxes and the pig's 6 x 7 grid; the pig's row points
    # and the dice counts it does not
    assert note == (
        "note: 3 values are house defaults not checked against a published sheet (verified: false): "
        "constants.dice_two_players, constants.dice_more_players, pig"
    )


def test_validate_a_file(run):
    path = FIXTURES / "base.yaml"
    result = run("validate", str(path))
    assert result.exit_code == 0
    assert result.output == (
        f"ok: {path}: layout 'base' (harvest-dice), pages: sheet\n"
        "note: it prints, but `sheetgen score` cannot use it: layout 'base' has no "
        "element 'garden' (grid), which the harvest-dice scorer reads\n"
        + "".join(
            f"  and: layout 'base' has no element '{e}' (track), which the harvest-dice scorer reads\n"
            for e in ("pig", "market_carrot", "market_salad", "market_tomato")
        )
    )


@pytest.mark.parametrize(
    "name, message",
    [
        ("overlap.yaml", "{path}:7: boxes: overlaps 'note'"),
        ("cycle_a.yaml", "{dir}/cycle_b.yaml:3: extends: cycle: cycle_a.yaml -> cycle_b.yaml -> cycle_a.yaml"),
        ("yaml_syntax.yaml", "{path}:4: expected ',' or '}}', but got '<scalar>'"),
        (
            "glyph.yaml",
            "{path}:7: note.text: the font has no glyph for '🥕' (fr)\n"
            "{path}:7: note.text: the font has no glyph for '胡萝卜' (en)",
        ),
    ],
)
def test_validate_a_broken_layout(name, message):
    path = FIXTURES / name
    result = CliRunner().invoke(cli, ["validate", str(path)])  # exceptions caught: none may escape
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    expected = "Error: " + message.format(path=path, dir=FIXTURES)
    assert result.stderr == expected + "\n"
    assert "Traceback" not in result.output


def test_validate_reports_every_problem(run):
    from sheetgen.errors import LayoutError
    from sheetgen.games import load_layout

    path = FIXTURES / "many_errors.yaml"
    with pytest.raises(LayoutError) as info:
        load_layout(str(path))
    assert len(info.value.lines) == 5
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    for problem in info.value.lines:
        assert problem in result.output


def test_validate_missing_file(run, in_tmp):
    result = run("validate", str(in_tmp / "missing.yaml"))
    assert result.exit_code == 1
    assert result.output == f"Error: {in_tmp / 'missing.yaml'}: no such file\n"


# --------------------------------------------------------------------------- help


def _walk(group: click.Group, prefix=()):
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from _walk(command, (*prefix, name))


COMMANDS = list(_walk(cli))


def test_the_engine_commands_exist():
    assert {"list", "render", "validate"} <= {path[0] for path, _ in COMMANDS}


@pytest.mark.parametrize("path, command", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_has_help(path, command):
    assert (command.help or "").strip(), f"'sheetgen {' '.join(path)}' has no help text"
    assert command.get_short_help_str().strip()
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert (param.help or "").strip() or param.name in ("help", "version"), (
                f"'sheetgen {' '.join(path)}' option {param.opts[0]} has no help"
            )
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ")
    assert command.help.strip().splitlines()[0][:30] in " ".join(result.output.split())


def test_top_level_help_lists_every_command():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for path, _ in COMMANDS:
        if len(path) == 1:
            assert re.search(rf"^  {re.escape(path[0])} ", result.output, re.M)


def test_version():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"sheetgen, version {__version__}\n"


def test_python_dash_m_sheetgen():
    result = subprocess.run(
        [sys.executable, "-m", "sheetgen", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: ")


def test_every_built_in_layout_is_scorable(run):
    from sheetgen.layout.resolve import builtin_ids

    for lid in builtin_ids():
        result = run("validate", lid)
        assert result.exit_code == 0
        assert "cannot use it" not in result.output, result.output


def test_scoring_with_a_layout_the_scorer_cannot_read(run, tmp_path):
    record = tmp_path / "game.yaml"
    record.write_text(f"layout: {FIXTURES / 'base.yaml'}\nplayers: []\n", encoding="utf-8")
    result = run("score", str(record))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {FIXTURES / 'base.yaml'}: layout 'base' has no element 'garden', which the harvest-dice scorer reads\n"
    )
