"""What makes one sheet start fast still gives the same results: parsed layout trees and
QR codes from the user cache, icons replayed instead of painted again, `--help` from
the cache, Pillow loaded only when used. No test here asserts a time: `python -m bench.speed`
measures them."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen import cache, icons, srctree, yamlsrc
from sheetgen.layout import load, resolve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    return folder


def same_tree(a, b) -> bool:
    """Equal values, node kinds, files and lines, all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (srctree.SrcDict, srctree.SrcList)):
        if vars(a) != vars(b) or len(a) != len(b):
            return False
        pairs = zip(a.items(), b.items()) if isinstance(a, dict) else zip(enumerate(a), enumerate(b))
        return all(ka == kb and same_tree(va, vb) for (ka, va), (kb, vb) in pairs)
    return a == b


# ------------------------------------------------------------------ parsed trees


LAYOUT_FILES = sorted(resolve.builtin_dir().glob("*.yaml")) + sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))


@pytest.mark.parametrize("path", LAYOUT_FILES, ids=lambda p: p.name)
def test_a_tree_kept_in_the_cache_is_the_tree_parsed(path):
    try:
        tree = yamlsrc.load_file(path)
    except Exception:  # noqa: BLE001 - a fixture that is meant not to parse
        pytest.skip("does not parse")
    try:
        data = srctree.to_data(tree)
    except ValueError:
        pytest.skip("a value the cache does not keep")
    import marshal

    assert same_tree(srctree.from_data(marshal.loads(marshal.dumps(data))), tree)


def test_dates_and_merged_nodes_survive_the_cache_form():
    tree = yamlsrc.loads("a: 2026-11-30\nb: 2026-11-30 10:20:30+02:00\nc: [1, {d: x}]\n", "t.yaml")
    merged = resolve.merge(tree, yamlsrc.loads("c: [2]\ne: '+=3'\n", "u.yaml"))
    for t in (tree, merged):
        assert same_tree(srctree.from_data(srctree.to_data(t)), t)
    assert isinstance(tree["b"], dt.datetime) and tree["b"].utcoffset() == dt.timedelta(hours=2)


def test_a_tree_with_values_the_cache_cannot_keep_is_parsed_each_time(tmp_path, own_cache):
    path = tmp_path / "odd.yaml"
    path.write_text("game: x\nthings: !!set {a, b}\n", encoding="utf-8")
    with pytest.raises(ValueError):
        srctree.to_data(yamlsrc.load_file(path))
    for _ in range(2):
        assert resolve.load_layout_file(path)["things"] == {"a", "b"}
    assert not list(own_cache.glob("tree-*"))


def test_layout_files_are_parsed_once_until_they_change(tmp_path, own_cache, monkeypatch):
    calls = []
    real = yamlsrc.loads
    monkeypatch.setattr(yamlsrc, "loads", lambda *a: calls.append(a[1]) or real(*a))
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: harvest-dice-normal\nid: variant\n", encoding="utf-8")
    layouts = []
    for _ in range(2):
        load._CACHE.clear()
        layouts.append(load.read_layout(str(variant)))
    assert sorted(calls) == sorted([str(variant), "harvest-dice-normal"])  # the second load parsed nothing
    assert same_tree(layouts[0].tree, layouts[1].tree) and layouts[0].digest == layouts[1].digest
    variant.write_text("extends: harvest-dice-normal\nid: variant\ntitle: {en: Other, fr: Autre}\n", encoding="utf-8")
    load._CACHE.clear()
    assert load.read_layout(str(variant)).title["en"] == "Other"
    assert calls[-1] == str(variant) and len(calls) == 3


def test_a_problem_names_the_same_line_from_a_cached_tree(tmp_path, own_cache):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: harvest-dice-normal\nid: bad\n\n\nplayers: {min: 0, max: 2, default: 1}\n", "utf-8")
    seen = []
    for _ in range(2):
        load._CACHE.clear()
        with pytest.raises(Exception) as exc:  # noqa: PT011 - the message is what is compared
            load.read_layout(str(bad))
        seen.append(str(exc.value))
    assert seen[0] == seen[1] and f"{bad}:5:" in seen[0]


# ------------------------------------------------------------------ QR codes


def test_a_cached_qr_code_is_the_encoders(own_cache):
    from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

    from sheetgen.render import pdf

    text = "sg1 imperial-settlers-advanced empire 4 fr 0123abcd"
    code = QRCode(None, QRErrorCorrectLevel.L)
    code.addData(text)
    code.make()
    n = code.getModuleCount()
    want = tuple("".join("1" if code.isDark(r, c) else "0" for c in range(n)) for r in range(n))
    pdf.qr_modules.cache_clear()
    assert pdf.qr_modules(text) == want  # a miss: encoded, then stored
    assert list(own_cache.glob("qr-*.marshal"))
    pdf.qr_modules.cache_clear()
    assert pdf.qr_modules(text) == want  # a hit
    for entry in own_cache.glob("qr-*.marshal"):
        entry.write_bytes(b"\x00not marshal")
    pdf.qr_modules.cache_clear()
    assert pdf.qr_modules(text) == want  # a corrupt entry is a miss
    pdf.qr_modules.cache_clear()


# ------------------------------------------------------------------ content streams


@pytest.mark.parametrize(
    "text",
    [
        "0 0 m 10 10 l S\nBT /F1 9 Tf (R\\351colte) Tj ET",
        "".join(chr(i) for i in range(128)),
        "tab\there\x7f",
        "\x18 a control character the encoding lacks",
        "R\u00e9colte \u2020 \u00a0",
        "\u4e2d",
        b"bytes stay bytes",
    ],
)
def test_the_quick_pdfdoc_encoding_is_reportlabs(text):
    from reportlab.pdfbase import pdfdoc

    import sheetgen.render.pdf  # noqa: F401 - installs it

    fast = pdfdoc.pdfdocEnc
    assert fast.sheetgen_fast
    try:
        want = fast.reportlab_own(text)
    except UnicodeError as exc:
        with pytest.raises(type(exc)):
            fast(text)
    else:
        assert fast(text) == want


# ------------------------------------------------------------------ icons


def _icon_code(canvas_class, replay: bool, monkeypatch) -> list[str]:
    import io

    if not replay:
        monkeypatch.setattr(icons, "_drawn", lambda *a: ({}, None))
    c = canvas_class(io.BytesIO())
    for name in icons.ICON_NAMES:
        for x, size, color in ((10, 20, None), (50, 20, None), (90, 11.5, "#7b3fa0"), (130, 20, None)):
            icons.draw_icon(c, name, x, 40, size, color)
    c.setFillAlpha(0.5)  # another graphics state: painted anew, not replayed
    icons.draw_icon(c, icons.ICON_NAMES[0], 300, 40, 20)
    monkeypatch.undo()
    return list(c._code)


@pytest.mark.parametrize("grey", [False, True])
def test_a_replayed_icon_writes_what_painting_it_again_writes(grey, monkeypatch):
    from reportlab.pdfgen.canvas import Canvas

    from sheetgen.render.grey import GreyCanvas

    kind = GreyCanvas if grey else Canvas
    assert _icon_code(kind, True, monkeypatch) == _icon_code(kind, False, monkeypatch)


# ------------------------------------------------------------------ the command


def _sheetgen(args, cache_dir, code="from sheetgen.__main__ import main; main()"):
    env = dict(os.environ, SHEETGEN_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT), COLUMNS="80")
    script = f"import sys; sys.argv = ['sheetgen', *{list(args)!r}]\n{code}"
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=ROOT)


def test_help_from_the_cache_is_what_click_prints(tmp_path):
    want = _sheetgen(["--help"], "off", "from sheetgen.cli import main; main()").stdout
    assert want.startswith("Usage: sheetgen [OPTIONS] COMMAND")
    probe = "from sheetgen.__main__ import main\ntry:\n    main()\nfinally:\n    print('click' in sys.modules, file=sys.stderr)"
    first = _sheetgen(["--help"], tmp_path / "c", probe)  # a miss: Click prints it, the cache keeps it
    second = _sheetgen(["--help"], tmp_path / "c", probe)  # a hit: Click not even imported
    short = _sheetgen(["-h"], tmp_path / "c", probe)
    off = _sheetgen(["--help"], "off", probe)
    for run in (first, second, short, off):
        assert run.returncode == 0 and run.stdout == want
    assert [r.stderr.strip() for r in (first, second, short, off)] == ["True", "False", "False", "True"]


def test_pillow_is_loaded_only_when_used(tmp_path):
    probe = (
        "from sheetgen.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('PIL._imaging' in sys.modules, file=sys.stderr)\n"
        "from PIL import Image\n"
        "print(Image.new('L', (2, 2)).size, 'PIL._imaging' in sys.modules, file=sys.stderr)"
    )
    run = _sheetgen(["render", "harvest-dice-normal", "-o", str(tmp_path / "x.pdf")], tmp_path / "c", probe)
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[-2:] == ["False", "(2, 2) True"]
    assert (tmp_path / "x.pdf").read_bytes().startswith(b"%PDF")
