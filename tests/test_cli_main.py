"""The console script's last resort: no traceback reaches a user, exit codes kept."""

from __future__ import annotations

import pytest

from sheetgen import cli as cli_module


def run_main(monkeypatch, capsys, *argv):
    monkeypatch.setattr("sys.argv", ["sheetgen", *argv])
    try:
        cli_module.main()
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_bug_is_one_error_line(monkeypatch, capsys):
    def boom(*args, **kwargs):
        raise RuntimeError("kaput")

    monkeypatch.setattr("sheetgen.layout.resolve.builtin_ids", boom)
    monkeypatch.delenv("SHEETGEN_DEBUG", raising=False)
    code, out, err = run_main(monkeypatch, capsys, "list")
    assert code == 1
    assert err == (
        "Error: internal error (RuntimeError: kaput); run again with SHEETGEN_DEBUG=1 for the "
        "details, and please report it\n"
    )
    monkeypatch.setenv("SHEETGEN_DEBUG", "1")
    monkeypatch.setattr("sys.argv", ["sheetgen", "list"])
    with pytest.raises(RuntimeError):
        cli_module.main()


def test_exit_codes_are_kept(monkeypatch, capsys):
    assert run_main(monkeypatch, capsys, "render", "nope")[0] == 1
    code, _, err = run_main(monkeypatch, capsys, "render", "harvest-dice-normal", "--copies", "0")
    assert code == 2 and "Invalid value for '--copies'" in err
    assert run_main(monkeypatch, capsys, "--help")[0] == 0
