"""What is made fast still gives the same results as the plain way: the user cache (parsed fonts,
validated layouts), fillable fields sharing their appearance, scoring in bulk (the quick
checkers, score_many, files of many games), the Harvest Dice adjacency by bits. No test
here asserts a time: `python -m bench.speed` measures them."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sheetgen import cache, fileio, text
from sheetgen.cells import groups, stray_groups
from sheetgen.cli import cli
from sheetgen.errors import RecordError
from sheetgen.layout import load, printcheck
from sheetgen.schema import Where
from sheetgen.scoring import record as records
from sheetgen.scoring.api import score_data, score_many

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"

MARKET = {"carrot": 3, "salad": 2, "tomato": 2}
HARVEST = {
    "layout": "harvest-dice-normal",
    "players": [
        {"name": "Alice", "garden": ["CCSSTT", "CCSST.", "C....."], "pig": 7, "market": MARKET},
        {"name": "Bob", "garden": ["CC.SST", "......", "......"], "pig": 12, "market": MARKET},
    ],
}


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    return folder


# ------------------------------------------------------------------ the user cache


def typed(value):
    """`value` with the type of everything in it, in order (1 and 1.0 differ)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(v) for v in value])
    return (type(value).__name__, value)


def core(face) -> bool:
    """Whether `face` holds only the core code points (text._OUTSIDE_CORE) and not the rest."""
    return face._rest is not None and not any(text._OUTSIDE_CORE.match(chr(c)) for c in face.charToGlyph)


@pytest.mark.parametrize("name", text.FONT_NAMES)
def test_a_cached_font_is_the_font_parsed_from_its_file(name, own_cache):
    from reportlab.pdfbase.ttfonts import TTFont

    path = text.font_dir() / text.FONT_FILES[name]
    parsed = TTFont("x", str(path))
    first = text._load_font("x", path)  # a miss: parsed, then stored
    assert list(own_cache.glob("font-*.marshal"))
    cached = text._load_font("x", path)  # a hit
    assert first.face._rest is None  # parsed: the whole face at once
    # a Latin text is measured from the core code points alone
    assert cached.stringWidth("Récolte 12 † → −", 9) == parsed.stringWidth("Récolte 12 † → −", 9)
    assert core(cached.face) and 1000 < len(cached.face.charToGlyph) < len(parsed.face.charToGlyph) / 3
    # a Greek one loads the rest first
    assert cached.stringWidth("Σ récolte", 9) == parsed.stringWidth("Σ récolte", 9)
    assert cached.face._rest is None
    assert "_ttf_data" not in vars(cached.face) and cached.face._ttf_data == path.read_bytes()  # read when needed
    for font in (first, cached):
        face, want = vars(font.face), vars(parsed.face)
        assert set(face) - {"_rest", "_key"} == set(want)
        for key in want:
            if key == "_pdfScale":
                assert face[key](1234) == want[key](1234)
            elif key in text._PER_CODE:  # the core first, then the rest: another order, same table
                assert typed(dict(sorted(face[key].items()))) == typed(dict(sorted(want[key].items()))), key
            elif key in ("glyphPos", "hmetrics"):  # packed integers, read by index
                assert typed([face[key][i] for i in range(len(face[key]))]) == typed(want[key]), key
            else:
                assert face[key] == want[key], key
                assert type(face[key]) is type(want[key]), key
                assert typed(face[key]) == typed(want[key]), key  # order and types inside
        others = {k: v for k, v in vars(font).items() if k not in ("face", "state", "encoding")}
        assert others == {k: v for k, v in vars(parsed).items() if k not in ("face", "state", "encoding")}


@pytest.mark.parametrize(
    "words",
    ["Récolte 12 † → −", "Жук Σ é", "\u0661\u0662 \uff11"],  # Latin only; Cyrillic and Greek; Arabic digits, full width
)
def test_a_cached_font_draws_the_pdf_reportlab_draws(words, own_cache):
    """The same PDF bytes with a cached font as with the font reportlab parses, with or
    without characters outside the core code points (drawn in the middle of the page)."""
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    path = text.font_dir() / text.FONT_FILES["sans"]
    text._load_font("cmp", path)  # stored
    pdfs = []
    # reportlab keeps the first font registered under a name, or of a face: each font is
    # registered alone, and reportlab's registry put back after
    saved = dict(pdfmetrics._fonts), dict(pdfmetrics._dynFaceNames)
    try:
        # the second cached font's subsets come from the cache, where the first one left them
        for font in (TTFont("cmp", str(path)), text._load_font("cmp", path), text._load_font("cmp", path)):
            pdfmetrics._fonts.pop("cmp", None)
            pdfmetrics._dynFaceNames.pop(font.face.name, None)
            pdfmetrics.registerFont(font)
            assert pdfmetrics.getFont("cmp") is font
            out = io.BytesIO()
            c = Canvas(out, invariant=1)
            c.setFont("cmp", 12)
            c.drawString(100, 100, "Le " + words + " " + str(c.stringWidth(words, "cmp", 12)))
            c.save()
            pdfs.append(out.getvalue())
    finally:
        for table, old in zip((pdfmetrics._fonts, pdfmetrics._dynFaceNames), saved):
            table.clear()
            table.update(old)
    assert pdfs[0] == pdfs[1] == pdfs[2]
    assert len(list(own_cache.glob("subset-*.marshal"))) == 1


def test_a_glyph_outside_the_core_is_checked_against_the_whole_font(own_cache):
    text.font.cache_clear()
    try:
        text.font("sans")  # parsed and stored: the next process loads it from the cache
        text.font.cache_clear()
        assert core(text.font("sans").face)
        assert text.missing_glyphs("Жук Σ 漢 \U0001f600 é") == "漢"  # DejaVu draws the emoji, not the ideogram
        assert not core(text.font("sans").face)
    finally:
        text.font.cache_clear()


def test_a_corrupt_cache_entry_is_a_miss(own_cache):
    path = text.font_dir() / text.FONT_FILES["sans"]
    text._load_font("x", path)
    for entry in own_cache.glob("font-*.marshal"):
        entry.write_bytes(b"\x00not marshal")
    font = text._load_font("x", path)
    assert font.face.unitsPerEm == 2048 and font.face.charToGlyph


def test_the_cache_keeps_to_its_most_entries(own_cache):
    import os

    for i in range(12):
        cache.put("x", f"k{i:02d}1", i)  # keys not ending in 0: no pruning yet
        os.utime(own_cache / f"x-k{i:02d}1.marshal", ns=(10**18 + i, 10**18 + i))
    (own_cache / "notes.txt").write_text("not the cache's")
    cache.prune(own_cache, most=8)  # 12 > 8: down to 6, the newest
    assert sorted(p.name for p in own_cache.iterdir()) == ["notes.txt"] + [f"x-k{i:02d}1.marshal" for i in range(6, 12)]
    cache.prune(own_cache, most=8)  # 6 <= 8: nothing goes
    assert len(list(own_cache.glob("*.marshal"))) == 6
    cache.put("x", "kk0", 1)  # a key ending in 0 prunes (at the default, far above)
    assert cache.get("x", "kk0") == 1 and cache.get("x", "k111") == 11


def test_a_cache_entry_of_another_form_is_a_miss(own_cache):
    """An entry that lacks a table (another version's form, or a damaged one) is parsed
    again rather than used: a face without its glyph offsets would fail in reportlab."""
    import marshal

    path = text.font_dir() / text.FONT_FILES["sans"]
    text._load_font("x", path)
    (entry,) = own_cache.glob("font-*.marshal")
    state = marshal.loads(entry.read_bytes())
    for damage in ("packed", "glyphPos", "charWidths", "odd bytes", "names"):
        broken = {**state, "attrs": dict(state["attrs"]), "packed": dict(state["packed"])}
        if damage == "packed":
            del broken["packed"]
        elif damage == "glyphPos":
            del broken["packed"]["glyphPos"]
        elif damage == "charWidths":
            del broken["attrs"]["charWidths"]
        elif damage == "names":  # a name without its bytes
            broken["names"] = [*state["names"], "nowhere"]
        else:
            flat, floats, width = broken["packed"]["hmetrics"]
            broken["packed"]["hmetrics"] = (flat[:-1], floats, width)
        assert not text._is_state(broken), damage
        entry.write_bytes(marshal.dumps(broken))
        font = text._load_font("x", path)  # parsed again, whole
        assert font.face._rest is None and len(font.face.glyphPos) > 1000, damage
    assert text._is_state(state)


def test_the_cache_can_be_turned_off(monkeypatch):
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.cache_dir() is None
    cache.put("x", "k", {"a": 1})
    assert cache.get("x", "k") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG rule is Linux's")
@pytest.mark.parametrize("xdg", [None, "", "  ", "/tmp/xdg-cache", "relative/cache"])
@pytest.mark.parametrize("home", ["/home/someone", "relative-home"])
def test_the_cache_folder_is_where_platformdirs_puts_it(xdg, home, monkeypatch):
    import platformdirs

    monkeypatch.delenv(cache.ENV, raising=False)
    monkeypatch.setenv("HOME", home)
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert cache.cache_dir() == Path(platformdirs.user_cache_dir("sheetgen", appauthor=False))


def test_an_installed_data_folder_is_found_without_importlib_resources(tmp_path, monkeypatch):
    (tmp_path / "sheetgen_probe_data").mkdir()
    (tmp_path / "sheetgen_probe_data" / "a.yaml").write_text("id: a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert fileio.data_folder("sheetgen_probe_data", "no-such-folder") == tmp_path / "sheetgen_probe_data"
    assert fileio.data_folder("sheetgen_probe_data", "layouts") == ROOT / "layouts"  # a checkout's own


def test_a_layout_is_fully_checked_once_until_it_or_the_code_changes(tmp_path, own_cache, monkeypatch):
    calls = []
    real = printcheck.check_print
    monkeypatch.setattr(printcheck, "check_print", lambda *a: calls.append(1) or real(*a))
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: harvest-dice-normal\nid: variant\n", encoding="utf-8")
    for _ in range(2):
        load._CACHE.clear()
        load.read_layout(str(variant))
    assert len(calls) == 1
    variant.write_text("extends: harvest-dice-normal\nid: variant2\n", encoding="utf-8")
    load._CACHE.clear()
    load.read_layout(str(variant))
    assert len(calls) == 2
    monkeypatch.setattr(cache, "code_stamp", lambda: "another version of sheetgen")
    load._CACHE.clear()
    load.read_layout(str(variant))
    assert len(calls) == 3


def test_a_layout_that_fails_the_check_is_never_remembered(tmp_path, own_cache, monkeypatch):
    from sheetgen.errors import LayoutError

    def failing(layout, raw, full, ctx):
        ctx.errors.append("variant.yaml:1: a problem the full check finds")

    monkeypatch.setattr(printcheck, "check_print", failing)
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: harvest-dice-normal\nid: variant\n", encoding="utf-8")
    for _ in range(2):
        load._CACHE.clear()
        with pytest.raises(LayoutError, match="a problem the full check finds"):
            load.read_layout(str(variant))
    assert not list(own_cache.glob("layout-ok-*"))


def test_a_render_is_the_same_with_the_cache_cold_warm_or_off(tmp_path, monkeypatch):
    from sheetgen.render import render_pdf

    outputs = []
    for setting in (str(tmp_path / "c"), str(tmp_path / "c"), "off"):
        monkeypatch.setenv(cache.ENV, setting)
        load._CACHE.clear()
        text.font.cache_clear()
        outputs.append(render_pdf(load.read_layout("imperial-settlers-advanced"), lang="fr"))
    text.font.cache_clear()
    assert outputs[0] == outputs[1] == outputs[2]


def _render(lid: str, **kw) -> bytes:
    from sheetgen.render import render_pdf

    load._CACHE.clear()
    return render_pdf(load.read_layout(lid), lang="en", **kw)


def test_icons_painted_by_one_process_are_replayed_by_the_next(own_cache, monkeypatch):
    from sheetgen import icons

    first = _render("imperial-settlers-advanced")
    assert list(own_cache.glob("icon-*.marshal"))

    def never(pen):
        raise AssertionError("painted again")

    monkeypatch.setattr(icons, "_ICONS", {name: never for name in icons._ICONS})
    assert _render("imperial-settlers-advanced") == first  # a new canvas: every icon from the cache
    monkeypatch.setenv(cache.ENV, "off")
    with pytest.raises(AssertionError, match="painted again"):
        _render("imperial-settlers-advanced")


def test_a_grey_render_never_replays_the_icons_of_a_colour_one(own_cache, monkeypatch):
    _render("harvest-dice-advanced")  # colour icons stored
    grey = _render("harvest-dice-advanced", grey=True)
    monkeypatch.setenv(cache.ENV, "off")
    assert grey == _render("harvest-dice-advanced", grey=True)


# ------------------------------------------------------------------ fillable


def test_fillable_fields_share_their_appearance_and_read_back(tmp_path):
    from pypdf import PdfReader

    def fields_and_appearances(copies: int):
        out = tmp_path / f"f{copies}.pdf"
        result = run("render", "harvest-dice-normal", "--fillable", "--copies", str(copies), "-o", str(out))
        assert result.exit_code == 0, result.output
        reader = PdfReader(out)
        aps = set()
        for page in reader.pages:
            for annot in page["/Annots"]:
                ap = annot.get_object()["/AP"]
                aps.add(ap.indirect_reference.idnum if ap.indirect_reference else id(ap))
        return reader.get_fields(), aps

    one, aps_one = fields_and_appearances(1)
    three, aps_three = fields_and_appearances(3)
    assert len(three) == 3 * len(one) and "garden_r1_c1" in one and "garden_r1_c1__3" in three
    assert three["garden_r1_c1__3"]["/FT"] == "/Tx" and three["player_name_box__2"]["/FT"] == "/Tx"
    assert len(aps_one) == len(aps_three) < 10  # one appearance per kind and size, whatever the copies


# ------------------------------------------------------------------ scoring in bulk


def _fixture_records():
    for path in sorted(FIXTURES.glob("*/*.yaml")):
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(raw, dict) and "players" in raw:
            yield path


@pytest.mark.parametrize("path", list(_fixture_records()), ids=lambda p: p.name)
def test_the_quick_checkers_give_what_the_full_check_gives(path, monkeypatch):
    from sheetgen.yamlsrc import load_file

    raw = load_file(path)

    def outcome():
        try:
            return records.score_data(copy.deepcopy(raw), str(path)).contract()
        except RecordError as exc:
            return exc.lines

    quick = outcome()
    monkeypatch.setattr(records, "_quick", lambda *a: None)
    assert outcome() == quick


def test_score_many_is_score_data_record_by_record():
    bad = copy.deepcopy(HARVEST)
    bad["players"][1]["pig"] = 99
    games = [HARVEST, copy.deepcopy(HARVEST)]
    assert score_many(games) == [score_data(copy.deepcopy(g)) for g in games]
    with pytest.raises(RecordError) as err:
        score_many([HARVEST, bad], "games")
    assert err.value.lines == ["games[1]: players[1] 'Bob': pig: expected 0-42, got 99"]


def _builtin_fixture_records() -> tuple[list, list]:
    """The fixtures' records that name a built-in layout: (valid ones, refused ones)."""
    from sheetgen.layout.resolve import is_builtin_ref

    valid, refused = [], []
    for path in _fixture_records():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(raw.get("layout"), str) and is_builtin_ref(raw["layout"]):
            try:
                score_data(copy.deepcopy(raw))
                valid.append(raw)
            except RecordError:
                refused.append(raw)
    return valid, refused


def test_a_batch_of_every_game_is_checked_together_and_refused_in_order():
    """score_many checks a chunk of records together (Game.check_all), every game's: each
    record comes out as score_data's, and the first refused record raises its own error,
    whether a field check or a game's check refuses it, across chunks."""
    valid, refused = _builtin_fixture_records()
    assert len({r["layout"] for r in valid}) >= 3 and refused
    games = [copy.deepcopy(r) for r in valid * 8] + [copy.deepcopy(HARVEST) for _ in range(3)]
    assert len(games) > records.CHUNK + 3
    assert score_many(copy.deepcopy(games)) == [score_data(copy.deepcopy(g)) for g in games]
    for bad in refused:
        with pytest.raises(RecordError) as alone:
            score_data(copy.deepcopy(bad), f"games[{records.CHUNK + 3}]")
        batch = games[: records.CHUNK + 3] + [copy.deepcopy(bad)] + [copy.deepcopy(refused[0])] + games
        with pytest.raises(RecordError) as together:
            score_many(batch, "games")
        assert together.value.lines == alone.value.lines


def test_score_many_pauses_the_garbage_collector_only_while_it_scores():
    import gc

    assert gc.isenabled()
    score_many([HARVEST])
    assert gc.isenabled()
    with pytest.raises(RecordError):
        score_many([{"layout": "harvest-dice-normal"}])
    assert gc.isenabled()
    gc.disable()
    try:
        score_many([HARVEST])
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


def test_score_reads_json_lines_one_game_a_line(tmp_path):
    games = tmp_path / "games.jsonl"
    other = copy.deepcopy(HARVEST)
    other["players"][0]["pig"] = 20
    games.write_text(json.dumps(HARVEST) + "\n\n" + json.dumps(other) + "\n", encoding="utf-8")
    result = run("score", str(games), "--format", "jsonl")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["players"][0]["breakdown"]["pig"] for g in lines] == [3, 10]
    assert lines[0] == score_data(copy.deepcopy(HARVEST))


def test_score_reads_yaml_documents_one_game_each(tmp_path):
    games = tmp_path / "games.yaml"
    games.write_text("\n".join("---\n" + yaml.safe_dump(HARVEST) for _ in range(3)), encoding="utf-8")
    result = run("score", str(games), "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [score_data(copy.deepcopy(HARVEST))] * 3


def test_an_error_in_a_file_of_games_names_the_document_and_its_line(tmp_path):
    bad = copy.deepcopy(HARVEST)
    bad["players"][1]["pig"] = 99
    jsonl = tmp_path / "games.jsonl"
    jsonl.write_text(f"{json.dumps(HARVEST)}\n{json.dumps(bad)}\n{json.dumps(bad)}\n", encoding="utf-8")
    result = run("score", str(jsonl))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {jsonl}:2: document 2: players[1] 'Bob': pig: expected 0-42, got 99\n"
        f"{jsonl}:3: document 3: players[1] 'Bob': pig: expected 0-42, got 99\n"
    )
    docs = tmp_path / "games.yaml"
    docs.write_text(
        "---\n" + yaml.safe_dump(HARVEST, sort_keys=False) + "---\n" + yaml.safe_dump(bad, sort_keys=False),
        encoding="utf-8",
    )
    result = run("score", str(docs))
    line = docs.read_text(encoding="utf-8").splitlines().index("  pig: 99") + 1
    assert result.output == f"Error: {docs}:{line}: document 2: players[1] 'Bob': pig: expected 0-42, got 99\n"
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(HARVEST) + '\n{"layout": 1,\n', encoding="utf-8")
    result = run("score", str(broken))
    assert result.exit_code == 1 and result.output.startswith(f"Error: {broken}:2: ")


def test_a_file_of_one_game_is_scored_as_before(tmp_path):
    one = tmp_path / "game.yaml"
    one.write_text(yaml.safe_dump(HARVEST), encoding="utf-8")
    result = run("score", str(one), "--format", "json")
    assert json.loads(result.stdout) == score_data(copy.deepcopy(HARVEST))


# ------------------------------------------------------------------ small parts


def test_stray_groups_are_the_groups_but_the_first():
    rng = random.Random(15)
    for _ in range(3000):
        rows = ["".join(rng.choice("CST.") for _ in range(rng.randint(0, 7))) for _ in range(rng.randint(0, 5))]
        strays = stray_groups(rows)
        for ch in "CST.":
            cells = [(r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch]
            assert strays.get(ch, []) == groups(cells)[1:], (rows, ch)


def test_where_spells_its_path_when_asked():
    top = Where(None, None, "")
    assert top.child({}, "pages").child([], 0).child({}, "at").path == "pages[0].at"
    player = Where([], 1, "players[1] 'Bob':")
    assert player.child({}, "market").child({}, "carrot").path == "players[1] 'Bob': market.carrot"
    assert top.child({}, "x", name="[2]").path == "[2]"


def test_a_slow_fillable_render_shows_progress_only_on_a_terminal():
    from sheetgen import cli as cli_module

    with cli_module._progress(0, "x") as progress:
        assert progress is None
    with cli_module._progress(30, "x") as progress:  # the tests' standard error is no terminal
        assert progress is None


def test_strays_each_is_stray_groups_of_each_grid_with_or_without_a_shape():
    from sheetgen.cells import strays_each

    rng = random.Random(16)
    for _ in range(2000):
        rows_n, cols = rng.randint(0, 4), rng.randint(0, 6)
        grids = [
            ["".join(rng.choice("CST.") for _ in range(cols)) for _ in range(rows_n)] for _ in range(rng.randint(1, 4))
        ]
        want = [{ch: g for ch, g in stray_groups(rows, "CST").items() if g} for rows in grids]
        assert strays_each(grids, "CST") == want, grids
        assert strays_each(grids, "CST", (rows_n, cols)) == want, grids


def test_a_batch_scores_and_refuses_random_records_as_one_by_one():
    rng = random.Random(15)
    games = []
    for _ in range(60):
        game = copy.deepcopy(HARVEST)
        for p in game["players"]:
            p["garden"] = ["".join(rng.choice("CST.") for _ in range(6)) for _ in range(3)]
            p["pig"] = rng.randint(0, 42)
        games.append(game)
    assert score_many(games) == [score_data(copy.deepcopy(g)) for g in games]
    bad = copy.deepcopy(games[7])
    bad["players"][0]["garden"][1] = "CCX..."
    with pytest.raises(RecordError) as alone:
        score_data(copy.deepcopy(bad), "games[3]")
    with pytest.raises(RecordError) as batch:
        score_many(games[:3] + [bad] + games[3:], "games")
    assert batch.value.lines == alone.value.lines
