"""Print production: sheets 2 and 4 a page with cut marks, front and back,
paper sizes, the writable-when-scaled rule, grey, PNG and the live preview."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import pdf_digest
from pypdf import PdfReader

from sheetgen.cli import cli
from sheetgen.games import load_layout
from sheetgen.layout.display import drawn
from sheetgen.paper import MARGIN, PAPERS
from sheetgen.render import impose, render_pdf
from sheetgen.render.pdf import pdf_bytes

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "layouts"
SMALL = str(FIXTURES / "small_pad.yaml")  # 120 x 170 mm, two pages: front, back
PT = 72 / 25.4


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def placements(page) -> list[tuple[str, float, float, bool]]:
    """What a printed page places: (sheet page id, x, y in mm of its drawing's lower-left
    corner, turned upside down), read from the page's content stream."""
    data = page.get_contents().get_data().decode("latin-1")
    out, stack, ctm = [], [], (1, 0, 0, 1, 0, 0)
    for m in re.finditer(r"(q|Q)\n|([-\d. ]+) cm|/FormXob\.sheet_(\w+) Do", data):
        if m.group(1) == "q":
            stack.append(ctm)
        elif m.group(1) == "Q":
            ctm = stack.pop()
        elif m.group(2):
            a, b, c, d, e, f = map(float, m.group(2).split())
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        else:
            turned = ctm[0] < 0
            out.append((m.group(3), round(ctm[4] / PT, 1), round(ctm[5] / PT, 1), turned))
    return out


def cell_of(g: impose.Grid, x: float, y: float, turned: bool, sheet=(120, 170)) -> int:
    """The grid cell whose area holds a sheet whose drawing's origin is at (x, y) (PDF, mm)."""
    w, h = sheet
    s = g.scale(w, h)
    if turned:  # the origin is then the drawing's upper-right corner
        x, y = x - w * s, y - h * s
    top = g.height - y - h * s
    for cell in range(g.per_page):
        ax, ay, aw, ah = g.area(cell)
        if ax - 0.1 <= x and x + w * s <= ax + aw + 0.1 and ay - 0.1 <= top and top + h * s <= ay + ah + 0.1:
            return cell
    raise AssertionError(f"no cell holds a sheet at {x}, {y}")


def layout_of(pdf: bytes, g: impose.Grid) -> list[list]:
    """Per printed page: the sheet page in each cell (None when empty), '^' if upside down."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        cells: list = [None] * g.per_page
        for pid, x, y, turned in placements(page):
            cells[cell_of(g, x, y, turned)] = pid + ("^" if turned else "")
        pages.append(cells)
    return pages


# ------------------------------------------------------------------------------ geometry


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_cells_keep_the_printer_margin_and_a_gutter(paper, per_page):
    g = impose.grid(paper, per_page)
    assert (g.width > g.height) == (per_page == 2)
    for cell in range(per_page):
        x, y, w, h = g.area(cell)
        assert x >= MARGIN and y >= MARGIN and x + w <= g.width - MARGIN and y + h <= g.height - MARGIN
    for x1, y1, x2, _y2 in g.cut_lines():  # a cut line runs down the middle of a gutter
        for cell in range(per_page):
            ax, ay, aw, ah = g.area(cell)
            if x1 == x2:
                assert min(abs(ax - x1), abs(ax + aw - x1)) >= impose.GUTTER / 2 - 1e-9
            else:
                assert min(abs(ay - y1), abs(ay + ah - y1)) >= impose.GUTTER / 2 - 1e-9


def test_copies_fill_cells_in_order_and_the_last_page_may_have_empty_cells():
    g = impose.grid("a4", 4)
    sides = impose.sequence(g, 2, 3)
    assert [[(c.page, c.copy) if c else None for c in s.cells] for s in sides] == [
        [(0, 1), (1, 1), (0, 2), (1, 2)],
        [(0, 3), (1, 3), None, None],
    ]
    assert impose.empty_cells(sides) == 2


def test_duplex_an_odd_last_page_gets_a_blank_back():
    g = impose.grid("a4", 1)
    sides = impose.sequence(g, 3, 2, duplex=True)
    shown = [[c.page if c else None for c in s.cells] for s in sides]
    assert shown == [[0], [1], [2], [None]] * 2
    assert [s.back for s in sides] == [False, True] * 4


@pytest.mark.parametrize(
    "per_page, flip, behind",
    [
        (1, "long", [(0, False)]),
        (1, "short", [(0, True)]),
        (2, "long", [(0, True), (1, True)]),  # a landscape page turned over its long (top) edge
        (2, "short", [(1, False), (0, False)]),
        (4, "long", [(1, False), (0, False), (3, False), (2, False)]),
        (4, "short", [(2, True), (3, True), (0, True), (1, True)]),
    ],
)
def test_the_cell_behind_each_cell(per_page, flip, behind):
    g = impose.grid("a4", per_page)
    assert [g.back_cell(i, flip) for i in range(per_page)] == behind


# ------------------------------------------------------------------------- golden PDFs


def small_pdf(**options) -> bytes:
    return render_pdf(load_layout(SMALL), lang="fr", **options)


def test_two_up_golden(assert_pdf_equal):
    data = small_pdf(per_page=2, copies=3)
    assert_pdf_equal(data, "small-pad-2up-fr-a4.pdf")
    assert layout_of(data, impose.grid("a4", 2)) == [["front", "back"]] * 3


def test_four_up_golden(assert_pdf_equal):
    data = small_pdf(per_page=4, copies=3, paper="letter")
    assert_pdf_equal(data, "small-pad-4up-fr-letter.pdf")
    assert layout_of(data, impose.grid("letter", 4)) == [["front", "back"] * 2, ["front", "back", None, None]]


def test_duplex_four_up_golden(assert_pdf_equal):
    """Each copy's back lands behind its front: cells mirrored left-right on the back."""
    data = small_pdf(per_page=4, copies=3, duplex=True)
    assert_pdf_equal(data, "small-pad-4up-duplex-fr-a4.pdf")
    assert layout_of(data, impose.grid("a4", 4)) == [["front", "front", "front", None], ["back", "back", None, "back"]]


def test_duplex_two_up_long_and_short_edge():
    g = impose.grid("a4", 2)
    # turned over the long edge (the top of a landscape page): the back upside down, same column
    assert layout_of(small_pdf(per_page=2, copies=3, duplex=True), g) == [
        ["front", "front"],
        ["back^", "back^"],
        ["front", None],
        ["back^", None],
    ]
    # over the short edge: upright, columns swapped
    assert layout_of(small_pdf(per_page=2, copies=3, duplex=True, flip="short"), g) == [
        ["front", "front"],
        ["back", "back"],
        ["front", None],
        [None, "back"],
    ]


def test_duplex_one_a_page_imperial_settlers_village_behind_empire():
    data = render_pdf(load_layout("imperial-settlers"), lang="en", copies=3, duplex=True)
    texts = [(p.extract_text() or "") for p in PdfReader(io.BytesIO(data)).pages]
    assert len(texts) == 6
    assert all("Empire sheet" in t for t in texts[0::2]) and all("Village sheet" in t for t in texts[1::2])
    # the plain order already is duplex order: the same bytes as without --duplex
    assert data == render_pdf(load_layout("imperial-settlers"), lang="en", copies=3)


def test_a_big_pad_stays_small():
    doc = load_layout(SMALL).document("en", None, None)
    data = pdf_bytes(doc, per_page=2, copies=1000)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1000
    assert len(data) < 400 * 1024


@pytest.mark.parametrize("paper, per_page", [("a4", 2), ("letter", 4), ("a5", 2)])
def test_nothing_drawn_in_the_printer_margin(paper, per_page):
    """Rasterised: the 8 mm band along every edge of the paper stays white, cut marks
    included, and each cell holds ink."""
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(small_pdf(paper=paper, per_page=per_page, copies=per_page))
    try:
        dpi = 50
        image = doc[0].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    finally:
        doc.close()
    w, h = image.size
    band = int(MARGIN * dpi / 25.4) - 1
    px = image.load()
    edges = [(x, y) for x in range(w) for y in (*range(band), *range(h - band, h))]
    edges += [(x, y) for y in range(h) for x in (*range(band), *range(w - band, w))]
    assert min(px[x, y] for x, y in edges) >= 250
    g = impose.grid(paper, per_page)
    for cell in range(per_page):
        x, y, cw, ch = (round(v * dpi / 25.4) for v in g.area(cell))
        assert image.crop((x, y, x + cw, y + ch)).getextrema()[0] < 100


def test_no_marks():
    marked, plain = small_pdf(per_page=2), small_pdf(per_page=2, marks=False)
    stream = lambda d: PdfReader(io.BytesIO(d)).pages[0].get_contents().get_data()
    assert b" l S" in stream(marked) and b" l S" not in stream(plain)


# ------------------------------------------------------------------ writable when scaled

REFUSALS = {
    "imperial-settlers 2 a4": "Error: --per-page 2: imperial-settlers on A4 would print at 71%: its smallest text (empire: 'A round: 1. the active player…', 8.0 pt) would be 5.7 pt, under 6 pt; the largest --per-page for imperial-settlers on A4 is 1\n",
    "bosk 4 letter": "Error: --per-page 4: bosk on Letter would print at 49%: its smallest text (pad: 'points (summer worksheet)', 8.0 pt) would be 3.9 pt, under 6 pt; its smallest box (pad: 'terrain_1_p1_count', 7.0 mm) would be 3.4 mm, under 5 mm; its smallest hint in a box (pad: 'leaves', 6.0 pt) would be 2.9 pt, under 4.5 pt; the largest --per-page for bosk on Letter is 1\n",
    "imperial-settlers 1 a5": "Error: --paper a5: imperial-settlers on A5 would print at 68%: its smallest text (empire: 'A round: 1. the active player…', 8.0 pt) would be 5.4 pt, under 6 pt; its smallest box (empire: 'walls_1', 7.1 mm) would be 4.8 mm, under 5 mm; imperial-settlers is not writable on A5 even one sheet a page; try --paper a4, letter or legal\n",
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_refusals(tmp_path, case):
    layout, per_page, paper = case.split()
    out = tmp_path / "x.pdf"
    result = run("render", layout, "--per-page", per_page, "--paper", paper, "--lang", "en", "-o", str(out))
    assert result.exit_code == 2
    assert result.output == REFUSALS[case]
    assert not out.exists()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["harvest-dice-normal", "harvest-dice-advanced"])
def test_the_harvest_dice_sheets_print_two_a_page(tmp_path, layout, paper):
    """A pad of two a page: the Harvest Dice sheets are drawn with no text under 9.25 pt
    (`smallest_text`) and tick boxes of 8.5 mm (their drawn squares 7.6 mm), so 50 copies
    print as 25 landscape pages of two sheets each, on A4 and on Letter, in French and in
    English; 4 a page still refuses."""
    width, height = PAPERS[paper]
    for lang in ("fr", "en"):
        out = tmp_path / f"pad-{lang}.pdf"
        result = run(
            "render", layout, "--per-page", "2", "--copies", "50", "--paper", paper, "--lang", lang, "-o", str(out)
        )
        assert result.exit_code == 0, result.output
        assert f"(25 pages, 2 sheets a page on {'A4' if paper == 'a4' else 'Letter'}, " in result.output
        reader = PdfReader(out)
        assert len(reader.pages) == 25
        for page in reader.pages:
            size = (round(float(page.mediabox.width) / PT, 1), round(float(page.mediabox.height) / PT, 1))
            assert size == (height, width)  # landscape
            assert [sheet for sheet, *_ in placements(page)] == ["sheet", "sheet"]
        doc = load_layout(layout).document(lang)
        found = impose.smallest(doc)
        assert (found["text"].size, round(found["box"].size, 2), "hint" in found) == (9.25, 7.6, False)
        scale = impose.check_scale(doc, paper, 2, layout)
        assert found["text"].size * scale >= impose.MIN_TEXT and found["box"].size * scale >= impose.MIN_BOX
        assert impose.largest_per_page(doc, paper, found) == 2
    result = run("render", layout, "--per-page", "4", "--paper", paper, "-o", str(tmp_path / "four.pdf"))
    assert result.exit_code == 2 and f"the largest --per-page for {layout} on " in result.output


def test_a_box_is_measured_where_a_pencil_goes_not_by_its_cell(tmp_path):
    """A tick box is drawn as a rounded square inside its cell: 8 mm pig cells hold 7.1 mm
    squares, 5.0 mm at 2 a page on A4 (71%) but 4.7 mm on Letter (66%), which refuses."""
    path = tmp_path / "eight.yaml"
    path.write_text(
        "id: eight\nextends: harvest-dice-normal\npages:\n  - id: sheet\n    elements:\n      - {id: pig, box: 8}\n"
    )
    doc = load_layout(str(path)).document("en")
    found = impose.smallest(doc)
    assert (found["box"].what, round(found["box"].size, 2)) == ("pig_1", 7.1)
    result = run("render", str(path), "--per-page", "2", "--paper", "letter", "-o", str(tmp_path / "l.pdf"))
    assert result.exit_code == 2
    assert "its smallest box (sheet: 'pig_1', 7.1 mm) would be 4.7 mm, under 5 mm" in result.output
    assert run("render", str(path), "--per-page", "2", "--paper", "a4", "-o", str(tmp_path / "a.pdf")).exit_code == 0
    # a write box is drawn whole: the garden's 11.5 mm cells are 11.5 mm
    garden = [b for b in doc.pages[0].prims if getattr(b, "field", "") == "garden_r1_c1"]
    assert drawn(garden[0])[2:] == (11.5, 11.5)


def test_the_small_pad_allows_four_up_on_a4_two_on_a5():
    doc = load_layout(SMALL).document("en", None, None)
    found = impose.smallest(doc)
    assert impose.largest_per_page(doc, "a4", found) == 4
    assert impose.check_scale(doc, "a4", 2, "small-pad") == 1.0
    assert impose.largest_per_page(doc, "a5", found) == 2


# ------------------------------------------------------------------------- paper, grey

OPERATORS = re.compile(rb"(?<![\w.])(rg|RG|k|K|cs|CS|sc|SC|scn|SCN|g|G)(?![\w])")


def colour_operators(data: bytes) -> set[bytes]:
    streams = "\n".join(pdf_digest(data)["content streams"]).encode("latin-1")
    return set(OPERATORS.findall(streams))


@pytest.mark.parametrize("layout, players", [("river-valley-glassworks", 4), ("imperial-settlers", None)])
def test_grey_uses_device_gray_only(layout, players):
    data = render_pdf(load_layout(layout), lang="fr", players=players, grey=True)
    assert colour_operators(data) <= {b"g", b"G"} and b"g" in colour_operators(data)
    assert b"rg" in colour_operators(render_pdf(load_layout(layout), lang="fr", players=players))


def test_grey_maps_by_purpose():
    from sheetgen.layout.display import Rect, Text
    from sheetgen.render.grey import greyed, luminance

    banner, tint, label = greyed(
        [
            Rect(0, 0, 190, 20, None, "#2f6b3a", 0, 3.0),
            Rect(0, 0, 50, 5, None, "#eef4ea", 0),
            Text(0, 0, 9, 9, "x", color="#ffffff"),
        ]
    )
    assert banner.stroke is not None and luminance(banner.fill) >= 0.9  # outlined, pale
    assert luminance(tint.fill) > 0.95
    assert luminance(label.color) <= 0.2


def test_grey_keeps_the_scan_marks_black():
    """`sheetgen scan` finds a photo's corner marks by their contrast: a --grey sheet
    prints them black too (as a light grey they were lost in a dim, blurred photo)."""
    from sheetgen.layout.scanmarks import scan_prims
    from sheetgen.render.grey import greyed, luminance

    marks = [p for p in scan_prims(210, 297, "x") if getattr(p, "fill", None)]
    dark = [p for p in greyed(marks) if luminance(p.fill) < 0.5]
    assert dark and len(dark) == sum(luminance(p.fill) < 0.5 for p in marks)
    assert {p.fill for p in dark} == {"#000000"}


def test_grey_keeps_the_dropout_grey_of_the_boxes_to_write_in():
    """A pen stroke must show over a box's edge and its caption (`sheetgen scan` cannot see
    one over darker print): --grey darkens lines and text, but not those."""
    from sheetgen.layout.display import DROPOUT_GREY, Box, Text, write_box
    from sheetgen.render.grey import greyed

    edge, caption, tick = greyed(
        [write_box(0, 0, 10, 10, "n"), Text(0, 0, 9, 2, "leaves", color=DROPOUT_GREY), Box(0, 0, 7, 7, "check")]
    )
    assert (edge.stroke, caption.color) == (DROPOUT_GREY, DROPOUT_GREY)
    assert tick.stroke != DROPOUT_GREY


@pytest.mark.parametrize("paper", ["a5", "legal"])
def test_a5_and_legal(paper):
    data = small_pdf(paper=paper)
    page = PdfReader(io.BytesIO(data)).pages[0]
    assert (round(float(page.mediabox.width) / PT), round(float(page.mediabox.height) / PT)) == tuple(
        round(v) for v in PAPERS[paper]
    )


# ------------------------------------------------------------------------------- PNG


def test_png_pages_size_and_pixels(tmp_path):
    pdfium = pytest.importorskip("pypdfium2")
    from PIL import Image, ImageChops

    from sheetgen.render.png import pixels

    out = tmp_path / "preview.png"
    args = "--format png --dpi 60 --per-page 2 --copies 4 --lang fr".split()
    result = run("render", SMALL, *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("preview-*.png"))
    assert [f.name for f in files] == [f"preview-{n}.png" for n in range(1, 5)] and not out.exists()
    image = Image.open(files[0]).convert("RGB")
    assert image.size == pixels((297, 210), 60) == (702, 497)  # A4 landscape at 60 dpi, rounded up
    # the same pixels as the PDF rendered by itself
    pdf = small_pdf(per_page=2, copies=4)
    doc = pdfium.PdfDocument(pdf)
    try:
        raster = doc[0].render(scale=60 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    assert raster.size == image.size and ImageChops.difference(raster, image).getbbox() is None
    # the banner's green is where the first sheet's banner is
    x, y, _ = impose.grid("a4", 2).place(0, 120, 170)
    px = image.getpixel((round((x + 60) / 25.4 * 60), round((y + 3) / 25.4 * 60)))
    assert px[1] > px[0] + 40


def test_one_png_keeps_its_name_and_grey_is_greyscale(tmp_path):
    from PIL import Image

    out = tmp_path / "one.png"
    args = "--page front --format png --grey --dpi 40".split()
    assert run("render", SMALL, *args, "-o", str(out)).exit_code == 0
    assert Image.open(out).mode == "L"


# ------------------------------------------------------------------------------- watch


def test_watch_renders_again_on_each_save_and_keeps_the_last_good_output(tmp_path):
    """The real watcher (watchfiles) on a variant and its parent; every step waits for an
    event from the loop, bounded, with no timing asserted."""
    pytest.importorskip("watchfiles")
    from sheetgen.render.watch import watch

    parent = tmp_path / "parent.yaml"
    parent.write_text((FIXTURES / "small_pad.yaml").read_text())
    child = tmp_path / "variant.yaml"
    child.write_text("extends: parent.yaml\nid: variant\n")
    out = tmp_path / "out.pdf"
    events: list[str] = []
    happened = threading.Condition()
    stop = threading.Event()

    def build():
        from sheetgen.games import load_layout as load

        out.write_bytes(render_pdf(load(str(child)), lang="en"))
        with happened:
            events.append("built")
            happened.notify_all()

    def report(exc):
        with happened:
            events.append("error: " + str(exc.problems[0].message))
            happened.notify_all()

    def wait_for(n, timeout=60):
        with happened:
            return happened.wait_for(lambda: len(events) >= n, timeout=timeout)

    def save_until_seen(path, texts, n):
        """Save `path` until the loop has reacted `n` times: the watcher may not be
        watching yet right after a build (bounded: at most len(texts) saves)."""
        for text in texts:
            path.write_text(text)
            if wait_for(n, timeout=3):
                return
        raise AssertionError(f"no reaction to saving {path.name}: {events}")

    loop = threading.Thread(target=lambda: watch(str(child), build, report, stop_event=stop))
    loop.start()
    try:
        assert wait_for(1), events
        first = out.read_bytes()
        base = parent.read_text()
        save_until_seen(parent, [base.replace("Small pad", "Small pad " + "2" * k) for k in range(1, 21)], 2)
        second = out.read_bytes()
        assert second != first
        bad = "extends: parent.yaml\nid: variant\nsheet: {width: %d}\n"
        save_until_seen(child, [bad % (5000 + k) for k in range(20)], 3)  # a bad save
        assert out.read_bytes() == second  # the last good output stays
    finally:
        stop.set()
        loop.join(timeout=60)
    assert events[:2] == ["built", "built"] and events[2].startswith("error: ")
    assert not loop.is_alive()


def test_watch_with_given_changes_reports_errors_and_goes_on(tmp_path):
    from sheetgen.errors import LayoutError
    from sheetgen.render.watch import layout_files, watch

    layout = tmp_path / "v.yaml"
    layout.write_text("extends: harvest-dice-normal\n")
    assert layout_files(str(layout)) == {layout.resolve()}
    seen = []

    def build():
        seen.append("build")
        if len(seen) == 2:
            raise LayoutError("v.yaml:1: broken")

    changes = lambda folders: iter([{layout.resolve()}, {tmp_path / "other.txt"}, {layout.resolve()}])
    assert watch(str(layout), build, lambda exc: seen.append(str(exc)), changes=changes) == 3
    assert seen == ["build", "build", "v.yaml:1: broken", "build"]


def test_watch_goes_on_when_the_layout_becomes_a_link_in_a_loop(tmp_path):
    """A saved layout replaced by a link to itself (a loop) is a build that fails, said as
    any other, not a crash of the watch."""
    from sheetgen.render.watch import layout_files, watch

    layout = tmp_path / "v.yaml"
    layout.write_text("extends: harvest-dice-normal\n")
    reports = []

    def build():
        from sheetgen.games import load_layout

        load_layout(str(layout))

    def changes(folders):
        layout.unlink()
        layout.symlink_to(layout.name)  # v.yaml -> v.yaml
        yield {layout}

    assert watch(str(layout), build, reports.append, changes=changes) == 2
    assert [str(r) for r in reports] == [f"{layout}: no such file"]  # (a loop leads to no file)
    assert layout_files(str(layout)) == {layout}


def test_cli_notes_and_summary(tmp_path):
    result = run("render", "harvest-dice-normal", "--duplex", "-o", str(tmp_path / "h.pdf"))
    assert result.exit_code == 0
    assert result.output.startswith("note: harvest-dice-normal prints one page: --duplex ignored\nwrote ")
    result = run("render", SMALL, "--page", "front", "--per-page", "4", "--copies", "5", "-o", str(tmp_path / "p.pdf"))
    assert re.fullmatch(
        r"wrote .*p\.pdf \(2 pages, 4 sheets a page on A4, 3 empty cells on the last page, \d+ KiB\)\n", result.output
    )
    result = run("render", SMALL, "--per-page", "2", "--fillable", "-o", str(tmp_path / "f.pdf"))
    assert result.exit_code == 2
    assert "--fillable prints one full-size sheet a page" in result.output


def test_the_printing_docs_table_says_what_the_rule_computes():
    """docs/printing.md lists, for each built-in layout, the largest --per-page on A4 and Letter
    (every player count checked, the strictest kept)."""
    from sheetgen.layout.resolve import builtin_ids

    readme = (Path(__file__).resolve().parents[1] / "docs" / "printing.md").read_text()
    for lid in builtin_ids():
        lay = load_layout(lid)
        best = {}
        for paper in ("a4", "letter"):
            best[paper] = min(
                impose.largest_per_page(doc, paper, impose.smallest(doc))
                for doc in (lay.document("en", n, None) for n in range(lay.players["min"], lay.players["max"] + 1))
            )
        row = next(line for line in readme.splitlines() if line.startswith(f"| {lid} |"))
        assert row.split("|")[-3:-1] == [f" {best['a4']} ", f" {best['letter']} "], row


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["-", "--watch"],
            "Error: Invalid value for 'LAYOUT': --watch needs a layout file to watch, not standard input\n",
        ),
        (
            [SMALL, "--watch", "-o", "-"],
            "Error: Invalid value for '-o': --watch rewrites a file on each save: give a file, not -\n",
        ),
    ],
)
def test_watch_needs_files(args, message):
    result = run("render", *args)
    assert result.exit_code == 2 and result.output.endswith("\n\n" + message)


def test_the_output_formats_are_the_registrys():
    from sheetgen.cli import render as render_command
    from sheetgen.render.formats import FORMATS

    option = next(p for p in render_command.params if p.name == "fmt")
    assert list(option.type.choices) == list(FORMATS)


def test_svg_draws_each_page_of_one_sheet(tmp_path):
    result = run("render", "imperial-settlers", "--format", "svg", "-o", str(tmp_path / "is.svg"))
    assert result.exit_code == 0, result.output
    from sheetgen.render.svg import standalone_svg

    doc = load_layout("imperial-settlers").document("en", None, None, scan_marks=True)
    for n, page in enumerate(doc.pages, 1):
        assert (tmp_path / f"is-{n}.svg").read_text(encoding="utf-8") == standalone_svg(page)
    refused = run("render", "bosk", "--format", "svg", "--per-page", "2", "-o", str(tmp_path / "b.svg"))
    assert refused.exit_code == 2
    assert refused.output.endswith(
        "Error: --format svg draws each page of one sheet: not with --copies, --per-page, --duplex, --fillable or --grey\n"
    )
    assert not (tmp_path / "b.svg").exists()
