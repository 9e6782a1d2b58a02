"""`sheetgen scan`: scan marks on the sheets, and generated photos read against the truth.

The photos come from the bench's generators (bench/photos: `pencil`, `mixed_pens`), each made
from its seed; those several tests read are made once a run (the module's fixtures). Reading a
photo costs a second or more: the default run keeps one test of each thing `scan` does (a photo
read as marked, its refusals, the CLI's record, a scanned PDF, a PDF's form fields, the rules on
rectified pages); the cases each photo stands for are marked slow (`--run-slow`)."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

import yaml  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from bench.photos import READABLE, WITH_ADVANCED, mixed_pens, pages, pencil  # noqa: E402
from sheetgen.cli import cli  # noqa: E402
from sheetgen.errors import RecordError  # noqa: E402
from sheetgen.games import load_layout  # noqa: E402
from sheetgen.layout import scanmarks  # noqa: E402
from sheetgen.layout.display import QR, Box  # noqa: E402
from sheetgen.scan import colour, levels, looks, printed, reader, rings, strokes, tuning, verdict  # noqa: E402
from sheetgen.scan.blank import PPMM, blank_colours, blank_page, grid_cells, inside  # noqa: E402
from sheetgen.scan.markers import Unreadable, _aruco, _dark_square, _detect, better_match, find_markers, find_sheets  # noqa: E402
from sheetgen.scan.photos import MAX_PDF_PAGES, Photo, load_photos  # noqa: E402
from sheetgen.scan.qr import read_qr, recognise  # noqa: E402


def test_marker_bits_are_opencvs():
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for n, rows in enumerate(scanmarks.ARUCO_BITS):
        img = cv2.aruco.generateImageMarker(d, n, 6)
        assert tuple("".join("1" if v else "0" for v in row[1:5]) for row in img[1:5]) == rows


@pytest.mark.parametrize("lid", ["bosk", "plante-bataille"])
def test_number_pads_carry_scan_marks_on_every_page(lid):
    doc = load_layout(lid).document("en")
    assert all(any(isinstance(p, QR) for p in page.prims) for page in doc.pages)


def test_qr_names_layout_page_players_and_hash():
    layout = load_layout("imperial-settlers")
    doc = layout.document("fr", pages=["village"])
    (qr,) = [p for p in doc.pages[0].prims if isinstance(p, QR)]
    assert scanmarks.parse_payload(qr.data) == {
        "layout": "imperial-settlers",
        "page": "village",
        "players": 1,
        "lang": "fr",
        "digest": layout.digest[:8],
        "grey": False,
    }
    assert not any(isinstance(p, QR) for p in layout.document("fr", scan_marks=False).pages[0].prims)


def test_a_toner_saving_print_says_so_in_its_qr_code():
    from sheetgen.render.grey import greyed

    doc = load_layout("imperial-settlers").document("fr", pages=["village"])
    (qr,) = [p for p in greyed(doc.pages[0].prims) if isinstance(p, QR)]
    assert qr.data.endswith(" g")
    assert scanmarks.parse_payload(qr.data)["grey"] is True
    assert scanmarks.parse_payload(qr.data + " g") is None
    assert scanmarks.parse_payload(qr.data[:-1] + "x") is None


def _photo(lid, page, seed, **kw):
    return pencil.photo(load_layout(lid), page, np.random.default_rng(seed), **kw)


def _read(img, name="alice", layout_ref=None):
    return reader.read_photo(Photo(f"{name}.jpg", name, img), layout_ref)


class _Kept(dict):
    """Generated photos made on first use and kept for the module's other tests: each is made
    once a run (deterministic by its seed), and a test gets its own copy of the picture."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __call__(self, *key):
        if key not in self:
            self[key] = self.make(*key)
        img, truth = self[key]
        return img.copy(), truth


@pytest.fixture(scope="module")
def harvest():
    """harvest(k): pencil photo k (0 or 1) of a Harvest Dice sheet at 200 dpi: (image, truth)."""
    return _Kept(lambda k: _photo("harvest-dice-normal", "sheet", 31 + k, dpi=200))


@pytest.fixture(scope="module")
def settlers():
    """settlers(page, k): player k's (0 or 1) Imperial Settlers `page` ("empire", "village"), a
    pencil photo at 150 dpi with a third of its boxes marked: (image, truth)."""
    seeds = {("empire", 0): 40, ("village", 0): 41, ("village", 1): 42, ("empire", 1): 43}
    return _Kept(lambda page, k: _photo("imperial-settlers", page, seeds[page, k], dpi=150, share=0.3))


# a fixed-seed sample across the readable layouts: no confident read may be wrong (one in the
# default run; the Glassworks pad's board is read there too, by the straying-stroke test)
@pytest.mark.parametrize(
    "lid,page,seed",
    [
        ("harvest-dice-advanced", "sheet", 1),
        pytest.param("harvest-dice-normal", "sheet", 2, marks=pytest.mark.slow),
        pytest.param("imperial-settlers", "empire", 3, marks=pytest.mark.slow),
        pytest.param("imperial-settlers-advanced", "village", 4, marks=pytest.mark.slow),
        pytest.param("river-valley-glassworks", "pad", 5, marks=pytest.mark.slow),
    ],
)
def test_generated_photo_reads_as_marked(lid, page, seed):
    img, truth = _photo(lid, page, seed, dpi=150 + 25 * seed)
    read = _read(img)
    assert read.layout.id == lid and read.page_id == page
    wrong = [
        f
        for f, v in truth.items()
        if read.readings[f] != verdict.UNSURE and (read.values[f] not in ("", False)) != (v not in ("", False))
    ]
    unsure = [f for f in truth if read.readings[f] == verdict.UNSURE]
    assert wrong == []
    assert len(unsure) <= 0.03 * len(truth)
    # every box read comes back with its look, which decides its reading again (bench.scan_decide)
    assert list(read.looks) == [b.field for b in read.boxes] == list(read.readings)
    assert all(verdict.decide(k, read.levels) == read.readings[f] for f, k in read.looks.items())
    kinds = {b.field: b.kind for b in read.boxes}
    assert all(k.kind == kinds[f] for f, k in read.looks.items()) and read.levels.noisy is False
    # the page's grid cells, and they only, are read by their colour too
    assert {f for f, k in read.looks.items() if k.cell} == set(grid_cells(read.layout, page))


def test_finger_over_a_fiducial():
    img, _ = _photo("harvest-dice-advanced", "sheet", 7, dpi=150)
    marker = find_markers(Photo("x", "x", img))[0]
    cx, cy = marker.mean(axis=0)
    cv2.circle(img, (round(cx), round(cy)), 40, (200, 150, 120), -1)
    with pytest.raises(RecordError, match=r"alice.jpg: the scan mark in the top left corner cannot be seen"):
        _read(img)


@pytest.mark.slow
def test_markers_of_a_low_resolution_photo_are_found_enlarged_or_as_dark_squares():
    """A sheet photographed at 80 dpi, blurred and saved at JPEG quality 50: a marker's cells are 3
    pixels, too small to read the top left one as it is. While markers are missing, the photo is
    searched enlarged 1.5, 2.5 and 3 times, each enlargement adding those it reads; a last marker
    whose cells cannot be read is the dark square where the three others put it (_dark_square),
    found to a pixel. A finger is no such square (test_finger_over_a_fiducial)."""
    img, truth = _photo("harvest-dice-normal", "sheet", 1, dpi=100)
    sharp = find_markers(Photo("x", "x", img))
    small = cv2.GaussianBlur(cv2.resize(img, None, fx=0.8, fy=0.8, interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    small = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 50])[1], cv2.IMREAD_COLOR)
    found = find_markers(Photo("x", "x", small))
    assert all(np.abs(found[n] - 0.8 * sharp[n]).max() < 1.6 for n in range(4))
    read = _read(small)
    assert _wrong(read, truth) == []
    piece = np.full((120, 120), 220, np.uint8)
    want = np.float32([(40, 40), (80, 40), (80, 80), (40, 80)])
    cv2.fillConvexPoly(piece, np.int32(want + (6, -5)), 30)  # a marker a little off where the others say
    assert np.abs(_dark_square(cv2, np, piece, want, 40.0, 0) - (want + (6, -5))).max() <= 1
    assert _dark_square(cv2, np, piece, want + 30, 40.0, 0) is None  # not where the others say
    assert _dark_square(cv2, np, piece, want, 20.0, 0) is None  # twice the size they say
    finger = cv2.circle(np.full((120, 120), 220, np.uint8), (60, 60), 24, 120, -1)
    assert _dark_square(cv2, np, finger, want, 40.0, 0) is None


def test_a_blurred_marker_far_from_where_the_others_say_is_known_by_its_cells():
    """A blurred marker far from where the others put it (a phone photo at 123 dpi, blurred 1.2-1.8
    px, tilted 12 degrees; or at 131 dpi with two markers unread): the three others, as blurred, put
    the top left one 1.5 of its sides off, over twice what a dark square is looked for in. A dark
    square up to `Markers.reach` sides off is marker n when its 4 x 4 cells show marker n's bits,
    upright (`_marker_cells`); a plain dark square there, or another marker, is not; where two
    markers only are found, only so."""
    bits = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    want = np.float32([(168, 168), (216, 168), (216, 216), (168, 216)])  # a side of 48 pixels

    def piece_with(marker, at=(50, 52)):  # a piece of the photo, enlarged 6 times: the square at `at` from `want`
        piece = np.full((384, 384), 215, np.uint8)
        x, y = (round(v) for v in want[0] + at)
        piece[y : y + 48, x : x + 48] = marker
        return cv2.GaussianBlur(piece, (0, 0), 3.0)

    zero = piece_with(bits.generateImageMarker(0, 48))
    found = _dark_square(cv2, np, zero, want, 48.0, 0)
    assert found is not None and np.abs(found - (want + (50, 52))).max() <= 4
    assert _dark_square(cv2, np, zero, want, 48.0, 0, near_enough=False) is not None  # two markers found
    assert _dark_square(cv2, np, zero, want, 48.0, 1) is None  # marker 0's cells are not marker 1's
    turned = piece_with(np.rot90(bits.generateImageMarker(0, 48)).copy())
    assert _dark_square(cv2, np, turned, want, 48.0, 0) is None  # upside down: not where the others say
    assert _dark_square(cv2, np, piece_with(np.uint8(0)), want, 48.0, 0) is None  # a plain square
    near = piece_with(np.uint8(0), at=(10, -8))
    assert _dark_square(cv2, np, near, want, 48.0, 0) is not None  # a plain square where they say
    assert _dark_square(cv2, np, near, want, 48.0, 0, near_enough=False) is None  # ...but not from two
    assert _dark_square(cv2, np, zero, want, 48.0, 0) is not None


def test_wrong_layout(harvest):
    img, _ = harvest(0)
    with pytest.raises(RecordError, match="printed from layout 'harvest-dice-normal', not from 'imperial-settlers'"):
        _read(img, layout_ref="imperial-settlers")


def test_not_a_sheet(tmp_path):
    noise = np.random.default_rng(0).integers(0, 255, (600, 800, 3), dtype=np.uint8)
    path = tmp_path / "cat.png"
    cv2.imwrite(str(path), noise)
    result = CliRunner().invoke(cli, ["scan", str(path)])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: cat.png: no scan marks found: this is not a sheetgen sheet, or too blurred or small"
    )


def test_blank_sheet_and_cli_record(tmp_path, harvest):
    blank, _ = _photo("harvest-dice-normal", "sheet", 9, dpi=150, share=0.0)
    cv2.imwrite(str(tmp_path / "blank.jpg"), cv2.cvtColor(blank, cv2.COLOR_RGB2BGR))
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "blank.jpg")])
    assert result.exit_code == 1
    assert "blank.jpg: the sheet is blank: no box is marked" in result.output
    img, _ = harvest(0)
    cv2.imwrite(str(tmp_path / "chloe.jpg"), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    check = tmp_path / "check.png"
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "chloe.jpg"), "--check", str(check)])
    assert result.exit_code == 0, result.output
    assert "layout: harvest-dice-normal" in result.output and "- name: chloe" in result.output
    assert check.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_scan_refuses_a_layout_without_scan_marks(tmp_path):
    variant = tmp_path / "plain.yaml"
    variant.write_text("id: plain-bosk\nextends: bosk\nscan_marks: false\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["scan", "x.jpg", "--layout", str(variant)])
    assert result.exit_code == 1
    assert "layout 'plain-bosk' carries no scan marks" in result.output


def _save(tmp_path, name, img):
    path = tmp_path / name
    cv2.imwrite(str(path), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    return str(path)


@pytest.mark.slow
def test_two_pages_paired_by_name_and_empty_number_boxes_read_empty(tmp_path, settlers):
    pages = [("alice", "empire", 0), ("bob", "village", 1), ("bob", "empire", 1), ("alice", "village", 0)]
    files = [_save(tmp_path, f"{who}-{page}.jpg", settlers(page, k)[0]) for who, page, k in pages]
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(cli, ["scan", *files, "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "- name: alice" in text and "- name: bob" in text
    # nothing written in the favours and development boxes: no ink, read empty (0)
    assert text.count("favors: 0") == 2 and text.count("development: 0") == 2
    result = CliRunner().invoke(cli, ["score", str(out)])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_a_blank_page_of_a_players_two_is_no_refusal(tmp_path, settlers):
    """A village with nothing built yet is a page with no box marked: the player is read, with a
    warning naming the page; a player all of whose pages are blank is refused."""
    marked = _save(tmp_path, "alice-empire.jpg", settlers("empire", 0)[0])
    blank = _photo("imperial-settlers", "village", 4, dpi=180, share=0.0)[0]
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(cli, ["scan", marked, _save(tmp_path, "alice-village.jpg", blank), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning: alice-village.jpg: no box is marked on this page\n" in result.stderr
    [alice] = yaml.safe_load(out.read_text(encoding="utf-8"))["players"]
    assert alice["name"] == "alice" and set(alice["village"].values()) == {0} and any(alice["empire"].values())
    bob = [
        _save(tmp_path, "bob-empire.jpg", _photo("imperial-settlers", "empire", 5, dpi=180, share=0.0)[0]),
        _save(tmp_path, "bob-village.jpg", blank),
    ]
    result = CliRunner().invoke(cli, ["scan", marked, str(tmp_path / "alice-village.jpg"), *bob])
    assert result.exit_code == 1
    assert (
        result.output.splitlines()[-1] == "Error: bob-empire.jpg: every page of player 'bob' is blank: no box is marked"
    )


def _pdf_of_images(path, images, dpi=200.0):
    """A scanner's PDF: one page image (JPEG) a page."""
    from PIL import Image

    first, *rest = [Image.fromarray(img) for img in images]
    first.save(path, save_all=True, append_images=rest, resolution=dpi)
    return str(path)


def _scanned_pdf(path, settlers, pages):
    """A scanner's PDF of Imperial Settlers pages at 150 dpi, one a page (`pages`: (page id,
    player) in turn)."""
    return _pdf_of_images(path, [settlers(page, k)[0] for page, k in pages], 150.0)


@pytest.mark.slow
def test_a_scanned_pdf_pairs_a_players_pages_in_turn(tmp_path, settlers):
    """A duplex scan of two players' Imperial Settlers sheets: a PDF's pages cannot be named
    alice-empire and alice-village, so a player's pages are the PDF's pages in turn, in any order
    (the second player's back scanned first), the next player starting where a page comes again."""
    from sheetgen.scan.record import _player_keys, read_photos

    path = _scanned_pdf(
        tmp_path / "scans.pdf", settlers, [("empire", 0), ("village", 0), ("village", 1), ("empire", 1)]
    )
    reads = read_photos([path])
    assert _player_keys(reads) == ["scans-1", "scans-1", "scans-2", "scans-2"]
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(cli, ["scan", path, "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "- name: scans-1" in text and "- name: scans-2" in text and text.count("village: {") == 2


@pytest.mark.slow
def test_a_duplex_scan_leaves_out_the_blank_backs(tmp_path, settlers):
    """A duplex scanner fed one-sided sheets: every other page is bare paper. Those are left out with a
    warning; bare paper alone is still refused as no sheet, and so is a page with something on it
    but no scan marks."""
    from PIL import Image

    pages = [Image.fromarray(settlers(page, 0)[0]) for page in ("empire", "village")]
    back = Image.new("RGB", pages[0].size, (246, 245, 240))
    path = tmp_path / "scans.pdf"
    pages[0].save(path, save_all=True, append_images=[back, pages[1], back], resolution=150)
    out = tmp_path / "game.yaml"
    result = CliRunner().invoke(cli, ["scan", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning: scans.pdf page 2: a blank page (the back of a sheet?), left out\n" in result.stderr
    assert "warning: scans.pdf page 4: a blank page (the back of a sheet?), left out\n" in result.stderr
    [player] = yaml.safe_load(out.read_text(encoding="utf-8"))["players"]
    assert player["name"] == "scans-1" and any(player["village"].values())
    back.save(tmp_path / "back.png")
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "back.png")])
    assert result.exit_code == 1
    assert (
        result.output == "Error: back.png: no scan marks found: this is not a sheetgen sheet, or too blurred or small\n"
    )
    text = back.copy()
    text.paste((30, 30, 30), (200, 300, 900, 420))  # something printed, but no sheet
    text.save(tmp_path / "letter.png")
    result = CliRunner().invoke(cli, ["scan", str(path), str(tmp_path / "letter.png")])
    assert result.exit_code == 1 and "letter.png: no scan marks found" in result.output


@pytest.mark.slow
def test_a_multi_page_tiff_is_read_page_by_page_as_a_pdf(tmp_path, settlers):
    """A scanner's multi-page TIFF: every page is read and paired in turn, as a PDF's."""
    from PIL import Image

    from sheetgen.scan.record import _player_keys, read_photos

    pages = [
        Image.fromarray(settlers(*key)[0]) for key in (("empire", 0), ("village", 0), ("village", 1), ("empire", 1))
    ]
    path = tmp_path / "scans.tif"
    pages[0].save(path, save_all=True, append_images=pages[1:], compression="tiff_deflate")
    reads = read_photos([str(path)])
    assert [r.photo.name for r in reads] == [f"scans.tif page {n}" for n in range(1, 5)]
    assert _player_keys(reads) == ["scans-1", "scans-1", "scans-2", "scans-2"]


@pytest.mark.slow
def test_a_scanned_pdf_missing_a_page_says_how_to_scan(tmp_path, settlers):
    path = _scanned_pdf(tmp_path / "scans.pdf", settlers, [("empire", 0), ("empire", 1), ("village", 0)])
    result = CliRunner().invoke(cli, ["scan", path])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: scans.pdf page 1: player 'scans-1' has no photo of the 'village' page; "
        "scan a player's pages one after the other (empire, village)"
    )


@pytest.mark.slow
def test_pencil_garden_cells_are_left_as_question_marks(tmp_path):
    img, truth = _photo("harvest-dice-normal", "sheet", 11, dpi=200, share=0.5, colours=False)
    result = CliRunner().invoke(cli, ["scan", _save(tmp_path, "dan.jpg", img), "--score"])
    assert result.exit_code == 1
    assert any(v == "?" for v in truth.values())
    assert "filled cells of no dice colour, written '?' in the record; type what they hold: " in result.output
    assert "a filled cell whose vegetable the scan could not tell" in result.output


@pytest.mark.slow
def test_score_and_save_keeps_the_scanned_game(tmp_path, harvest):
    """`scan --score --save`: the game read from the photos is scored and kept once."""
    files = [_save(tmp_path, f"{who}.jpg", harvest(k)[0]) for k, who in enumerate(("ann", "ben"))]
    db = str(tmp_path / "h.sqlite")
    result = CliRunner().invoke(cli, ["scan", *files, "--score", "--save", "--db", db])
    assert result.exit_code == 0, result.output
    assert f"kept as game 1 in {db}" in result.stderr
    history = CliRunner().invoke(cli, ["history", "--db", db, "--format", "json"])
    assert {row["player"] for row in __import__("json").loads(history.stdout)} == {"ann", "ben"}
    again = CliRunner().invoke(cli, ["scan", *files, "--score", "--save", "--db", db])
    assert again.exit_code == 1 and "already kept" in again.output
    assert CliRunner().invoke(cli, ["scan", *files, "--save"]).exit_code == 2


def _hard_photo(n):
    """Photo `n` of a run of low-resolution (100-130 dpi) pencil photos, seed 5: hard cases for finding
    the scan marks and the QR code."""
    lid, page = READABLE[n % len(READABLE)]
    rng = np.random.default_rng([5, n])
    return pencil.photo(load_layout(lid), page, rng, dpi=float(rng.uniform(100, 130)))[0]


@pytest.mark.slow
def test_a_marker_missed_at_first_is_found_where_the_others_say():
    img = _hard_photo(22)  # a small, blurred bottom-right marker
    photo = Photo("x.jpg", "x", img)
    first: dict = {}
    _detect(_aruco(cv2), cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), 1.0, first)
    assert sorted(first) == [0, 1, 3]
    assert sorted(find_markers(photo)) == [0, 1, 2, 3]
    assert reader.read_photo(photo).page_id == "empire"


@pytest.mark.slow
def test_a_blurred_qr_code_is_decoded_where_the_markers_say():
    img = _hard_photo(4)
    photo = Photo("x.jpg", "x", img)
    assert cv2.QRCodeDetector().detectAndDecode(img)[0] == ""
    qr = read_qr(photo, find_markers(photo))
    assert (qr["layout"], qr["page"], qr["players"]) == ("river-valley-glassworks", "pad", 2)


def test_a_stroke_straying_into_the_next_board_cell_is_never_read_as_its_mark():
    """A Glassworks board cell (5.2 mm at 5 players) crossed, one stroke running on to the bottom left
    of the empty cell on its right and inking a tenth of its inside: the ink stays in that cell's
    corner, so it reads unsure, never marked."""
    layout = load_layout("river-valley-glassworks")
    dpi = 160.0
    img, display, (ox, oy) = pages.blank_paper(layout, "pad", dpi, "en", 5)
    ppmm = dpi / 25.4
    boxes = {b.field: b for b in display.boxes()}
    a, b = boxes["board_p2_r3_c3"], boxes["board_p2_r3_c4"]
    assert b.x == pytest.approx(a.x + a.w, abs=0.5) and b.y == pytest.approx(a.y)

    def at(fx, fy):
        return round(ox + (a.x + fx * a.w) * ppmm), round(oy + (a.y + fy * a.h) * ppmm)

    for start, end in (((0.15, 0.25), (1.36, 0.72)), ((0.2, 0.8), (0.8, 0.2))):
        cv2.line(img, at(*start), at(*end), pencil.PENCIL, round(0.5 * ppmm), cv2.LINE_AA)
    read = _read(pencil.degrade(cv2, np, img, np.random.default_rng(5), dpi))
    assert read.readings[a.field] == verdict.MARKED
    assert read.scores[b.field] > tuning.MARK.marked  # enough ink for a mark, all of it in a corner
    assert read.spreads[b.field] < tuning.MARK.spread
    assert read.readings[b.field] == verdict.UNSURE


def _decide(score, spread, core=1.0, *, noise=0.0, noisy=False, washed=False, **measures):
    """`verdict.decide` of a box showing these measures (a dark core all over unless said) on a
    page of these levels."""
    look = verdict.Look("b", measures.pop("kind", "check"), score=score, spread=spread, core=core, **measures)
    return verdict.decide(look, verdict.Levels(noise=noise, noisy=noisy, washed=washed))


def test_decide_marked_empty_unsure():
    assert _decide(0.5, 1.0) == verdict.MARKED
    assert _decide(0.0, 0.0) == verdict.EMPTY
    assert _decide(0.02, 1.0) == verdict.UNSURE
    assert _decide(0.15, 0.3) == verdict.UNSURE  # ink in a corner only
    assert _decide(0.4, 0.3) == verdict.MARKED  # too much ink to be a stray stroke


def test_spread_of_a_tick_and_of_a_corner():
    part = np.zeros((20, 20), bool)
    part[14:18, 0:6] = True  # the end of a stroke coming in from the left
    assert strokes.spread(np, part) == pytest.approx(0.2)
    for i in range(1, 19):  # a long stroke, across the box
        part[19 - i : 21 - i, i] = True
    assert strokes.spread(np, part) >= 0.8


def test_markers_too_small_at_first_are_read_enlarged():
    """Photo 5 of seed 7 of the pencil generator: a ~100 dpi photo whose first look finds one
    marker."""
    img, _ = _photo("harvest-dice-normal", "sheet", [7, 5])
    first: dict = {}
    _detect(_aruco(cv2), cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), 1.0, first)
    assert len(first) < 2
    assert sorted(find_markers(Photo("x.jpg", "x", img))) == [0, 1, 2, 3]


@pytest.mark.slow
def test_a_light_orange_garden_cell_is_never_read_empty():
    """Photo 781 of seed 11 of the pencil generator: a carrot drawn in light orange pencil, barely
    darker than the paper. Inside a grid cell colour counts as ink: the cell reads marked (its
    colour '?' at worst) and no box of the photo is read wrong."""
    layout = load_layout("harvest-dice-advanced")
    img, truth = pencil.photo(layout, "sheet", np.random.default_rng([11, 781]))
    read = _read(img)
    assert truth["garden_r2_c1"] == "C"
    assert read.readings["garden_r2_c1"] == verdict.MARKED
    assert read.values["garden_r2_c1"] in ("C", "?")
    for field, want in truth.items():
        if read.readings.get(field) == verdict.MARKED:
            assert bool(want), field
        elif read.readings.get(field) == verdict.EMPTY:
            assert not want, field


@pytest.mark.slow
def test_a_faint_stroke_is_never_read_empty():
    """Photo 2 of seed 3 of the pencil generator (Imperial Settlers, ~100 dpi): a light pencil cross
    that the blur keeps under `Ink.ink` darkness (0.2% of the box over `Ink.ink`); 7% of the box
    holds a faint trace, which empty boxes do not have: it reads unsure (or marked), never empty,
    and no box of the photo is read wrong."""
    layout = load_layout("imperial-settlers")
    img, truth = pencil.photo(layout, "empire", np.random.default_rng([3, 2]))
    read = _read(img)
    assert truth["walls_1"] is True
    assert read.readings["walls_1"] != verdict.EMPTY
    assert not _wrong(read, truth)


@pytest.mark.slow
def test_a_black_and_white_image_is_read_with_all_its_print_black():
    """A black-and-white image (a phone app's or a sheet feeder's B&W mode, as the `printers_and_apps`
    generator makes them) turns the pale icons printed in the boxes black, where they would read as
    marks. An image in black and white only (colour.bilevel) is read against the blank page with all
    its print black: no mark is looked for on the print, and the photo is told it may have lost
    light strokes. Here a flat generated photo of an Imperial Settlers page thresholded at 0.83 of
    the paper's white."""
    layout = load_layout("imperial-settlers")
    img, truth = pencil.photo(layout, "empire", np.random.default_rng([3, 5]), dpi=200, photographed=False)
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY).astype(np.float32)
    white = cv2.dilate(cv2.GaussianBlur(gray, (0, 0), 3), np.ones((31, 31), np.uint8))
    bw = np.where(gray < 0.83 * white, 0, 255).astype(np.uint8)
    assert colour.bilevel(cv2, np, np.dstack([bw] * 3)) and not colour.bilevel(cv2, np, img)
    read = _read(np.dstack([bw] * 3))
    assert "a black-and-white image (a scanner's or an app's B&W mode)" in read.note
    assert _wrong(read, truth) == []
    # (against the grey blank page, 18 of its boxes read unsure, the black icons in them)
    assert [f for f, r in read.readings.items() if r == verdict.UNSURE] == []


def test_a_marker_cut_by_a_white_line_far_from_where_two_others_say_is_found():
    """Two markers read, the other two not (phone photos tilted 19 degrees through a wide lens,
    printed by an inkjet; a clogged nozzle's white line across one marker, the far corner's markers
    smaller). The two markers read on one edge fix the far corners only roughly: there the missing
    markers are 3.4 to 4.1 of their sides from where the two say, and 0.6 of their size. A missing
    marker is looked for at the size the others say it has there, up to `Markers.reach` sides away
    when its cells are its own, and a white line across it is bridged."""
    side = 48
    marker = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 1, side)
    piece = np.full((400, 400), 230, np.uint8)
    piece[230 : 230 + side, 230 : 230 + side] = np.where(marker > 0, 230, 30)  # 3.8 sides off
    piece[:, 250:252] = 230  # a white line across it
    want = np.float32([(100, 100), (100 + side, 100), (100 + side, 100 + side), (100, 100 + side)])
    found = _dark_square(cv2, np, piece, want, side, 1, near_enough=False)
    assert found is not None and np.abs(found - want - 130).max() <= 2
    assert _dark_square(cv2, np, piece, want, side, 2, near_enough=False) is None  # (not marker 2's cells)


def test_decide_a_faint_trace_is_unsure_not_empty():
    assert _decide(0.002, 0.0, middle=0.0) == verdict.EMPTY
    assert _decide(0.002, 0.0, middle=0.05) == verdict.UNSURE


# photos of the mixed_pens generator (other pens, another camera), each made with only the
# camera effect that matters to the case


def _mixed_pens_with(lid, page, seed, effects):
    img, truth, kinds = mixed_pens.photo(load_layout(lid), page, np.random.default_rng(seed), effects=effects)
    return _read(img), truth, kinds


def _wrong(read, truth):
    """The boxes read confidently and wrongly (a mark missed or invented, a wrong vegetable)."""
    return [
        f
        for f, v in truth.items()
        if read.readings[f] != verdict.UNSURE
        and (
            (read.values[f] not in ("", False)) != (v not in ("", False))
            or (isinstance(v, str) and v and read.values[f] not in (v, "?"))
        )
    ]


@pytest.mark.slow
def test_a_curled_sheet_is_read_where_its_print_is():
    """The `mixed_pens` photo made with rng [1, 2], the sheet gently curled: the homography of the
    corner markers leaves the middle of the page over a millimetre off, where the printed icons in
    the Imperial Settlers boxes would show as ink. The photo is moved onto the blank page piece by
    piece (printed.align): no box is read wrong."""
    read, truth, _ = _mixed_pens_with("imperial-settlers", "empire", [1, 2], {"curl"})
    assert _wrong(read, truth) == []
    assert sum(r == verdict.UNSURE for r in read.readings.values()) <= 0.03 * len(truth)


@pytest.mark.slow
def test_a_colour_cast_is_not_taken_for_colour_pencil():
    """The `mixed_pens` photo made with rng [1, 0] under a warm lamp: the paper itself looks orange.
    Colour is judged on the page white-balanced against its own paper (colour.white_balanced): no
    empty garden cell reads filled, no pencil letter reads a carrot."""
    read, truth, _ = _mixed_pens_with("harvest-dice-normal", "sheet", [1, 0], {"cast"})
    assert _wrong(read, truth) == []
    assert any(v == "" for k, v in truth.items() if k.startswith("garden"))


def test_a_rubbed_out_mistake_is_not_ink_in_a_noisy_photo():
    """The erased marks of the Glassworks `mixed_pens` photo made with rng [1, 6] are a grey wash about
    10% darker than the paper; against the brightest pixel nearby, a speck of noise, the wash would
    look 20% dark. The paper is the brightest square millimetre nearby (strokes.page_darkness); here
    the same wash, noisy, salted."""
    rng = np.random.default_rng(0)
    page = np.full((200, 200), 200.0)
    page[60:140, 60:140] = 180
    page += rng.normal(0, 6, page.shape)
    page[rng.random(page.shape) < 0.003] = 255
    ink = strokes.page_darkness(cv2, np, np.clip(page, 0, 255).astype(np.uint8))
    assert (ink[70:130, 70:130] > tuning.INK.ink).mean() < tuning.MARK.empty


@pytest.mark.slow
def test_sharpening_halos_and_salt_are_not_taken_for_the_paper():
    """The same photo sharpened by the phone and salted: the bright halos along every stroke and the
    white specks make the paper look brighter than it is, and the board's small cells would read ink
    all over (even with the brightest pixel taken after a 5 x 5 median). With the brightest square
    millimetre, none is wrong."""
    read, truth, kinds = _mixed_pens_with("river-valley-glassworks", "pad", [1, 6], {"sharpen", "salt"})
    assert _wrong(read, truth) == []
    assert all(read.readings[f] != verdict.MARKED for f, k in kinds.items() if k == "erased/erased")
    assert sum(r == verdict.UNSURE for r in read.readings.values()) <= 0.1 * len(truth)


def test_decide_a_grey_wash_without_a_core_is_unsure():
    """The same photo: what is left of a wash over the threshold has no dark core."""
    assert _decide(0.12, 0.7, core=0.0) == verdict.UNSURE
    assert _decide(0.12, 0.7, core=0.05) == verdict.MARKED


# photos of `python -m bench.scan --scenario mixed_pens` runs, each made again by its seed and
# number as the bench makes it (every effect drawn): each shows a case the reader must meet


def _mixed_pens(seed, n):
    """Photo `n` of `python -m bench.scan --scenario mixed_pens --seed SEED`: (reading, truth, kinds)."""
    lid, page = WITH_ADVANCED[n % len(WITH_ADVANCED)]
    img, truth, kinds = mixed_pens.photo(load_layout(lid), page, np.random.default_rng([seed, n]))
    return _read(img), truth, kinds


@pytest.fixture(scope="module")
def big_checks():
    """`mixed_pens` photo 4 of seed 1, read: a Glassworks pad covered in ballpoint big checks,
    whose strokes join those of the next cells (read once for the tests that look at it)."""
    return _mixed_pens(1, 4)


@pytest.mark.slow
def test_icons_near_the_page_edge_are_read_where_they_are_printed():
    """`mixed_pens` photo 3 of seed 1 (Imperial Settlers village, 103 dpi, focus blur, sharpened): the
    page's tiles leave the workshop boxes at the sheet's edge 0.7 mm off, where their printed logs
    and stones would read as marks. Each box's print is looked for around where the page says
    (printed.box_shift)."""
    read, truth, _ = _mixed_pens(1, 3)
    assert not truth["workshop_1"] and not truth["workshop_2"]
    assert read.readings["workshop_1"] == read.readings["workshop_2"] == verdict.EMPTY
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_big_checks_overshooting_small_board_cells_are_held_by_their_cell(big_checks):
    """`mixed_pens` photo 4 of seed 1 (Glassworks, ballpoint, 179 dpi, curled): big checks
    overshooting 5 mm board cells on two sides spread over half of their cell's inside. The
    stroke's middle is in its cell, and it reaches at most half a cell out: the cell holds
    it (strokes.held), while the strokes straying into the next cells do not make them
    marks. Of its 37 big checks (34 in board cells), 31 read marked, the others unsure, and
    no box is read wrong."""
    read, truth, kinds = big_checks
    checks = [f for f, k in kinds.items() if k == "ballpoint-black/big-check"]
    held = [f for f in checks if read.readings[f] == verdict.MARKED]
    assert len(checks) == 37 and len(held) >= 31
    assert "board_p1_r5_c1" in held and "board_p1_r4_c1" in held
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_mark_over_a_printed_icon_is_not_read_empty():
    """`mixed_pens` photo 51 of seed 1 (Imperial Settlers empire, 153 dpi, exposure, salt): light
    soft pencil marks drawn over the icons of four boxes hide in them (the icon's darkness
    is taken away, and the coloured icon photographs lighter than its grey on the blank
    page). Against the same icon in the other boxes of the photo they show
    (printed.unlike_siblings): unsure, not empty; every box read marked holds a mark."""
    read, truth, kinds = _mixed_pens(1, 51)
    hidden = ["houses_2", "granaries_5", "fields_9", "fields_12"]
    assert all(truth[f] and kinds[f].startswith("soft-pencil/") for f in hidden)
    assert all(read.readings[f] == verdict.UNSURE for f in hidden)
    assert all(truth[f] for f, r in read.readings.items() if r == verdict.MARKED)


@pytest.mark.slow
def test_pencil_dashes_over_dropout_icons_are_not_read_empty():
    """`mixed_pens` photo 23 of seed 1 (Imperial Settlers empire, curled, in shadow, a cast,
    exposure, motion blur): short HB pencil dashes drawn over the wood, stone and food of
    twelve boxes are barely darker than icons printed in full colour would be. The icons
    inside tick boxes print in dropout colours (layout.display.dropout): the dashes show over
    them, ten read marked, two too short to be sure of, and none reads empty."""
    read, truth, kinds = _mixed_pens(1, 23)
    dashes = [f for f, k in kinds.items() if k == "pencil/dash"]
    assert len(dashes) == 12 and all(
        truth[f] and f.startswith(("houses", "granaries", "bridges", "fields")) for f in dashes
    )
    assert all(read.readings[f] != verdict.EMPTY for f in dashes)
    assert sum(read.readings[f] == verdict.MARKED for f in dashes) == 10
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_print_darker_than_the_blank_page_and_a_crease_are_not_marks():
    """`mixed_pens` photo 42 of seed 1 (Harvest Dice, 289 dpi, a crease, in shadow, sharpened,
    salted): the bonus circles' printed '±1' photographs darker than on the blank page, and
    a crease crosses the page. Ink over a quarter of a box's print, and little beside it, is
    the print; a line crossing a box is no mark held by it: no empty bonus circle reads
    marked (four are unsure), the two scribbled over read marked, and no box is read wrong."""
    read, truth, kinds = _mixed_pens(1, 42)
    assert "crease" in kinds["_photo"]
    bonus = [f"pig_bonus{r}" for r in range(1, 8)]
    assert [f for f in bonus if truth[f]] == ["pig_bonus3", "pig_bonus5"]
    assert all(read.readings[f] == (verdict.MARKED if truth[f] else verdict.UNSURE) for f in bonus if f != "pig_bonus4")
    assert _wrong(read, truth) == []


def test_decide_held_strokes_and_print_like_ink():
    # a small cross: little ink, not spread over the box, but held by it
    assert _decide(0.06, 0.4, core=0.05, held=0.06) == verdict.MARKED
    assert _decide(0.06, 0.4, core=0.05, held=0.0) == verdict.UNSURE
    assert _decide(0.06, 0.4, core=0.0, held=0.06) == verdict.UNSURE  # no dark core
    # the print looking darker: never marked, however much of it
    assert _decide(0.5, 1.0, core=0.3, like_print=True) == verdict.UNSURE
    # nothing dark, but unlike the boxes printed alike (a mark hidden in an icon)
    assert _decide(0.0, 0.0, middle=0.05) == verdict.UNSURE


def test_held_a_small_cross_and_not_a_stray_stroke():
    box = type("B", (), dict(field="b", kind="check", x=10.0, y=10.0, w=8.0, h=8.0))()
    size = round(30 * PPMM)
    ink = np.zeros((size, size), bool)
    origin = (0, 0)
    c = round(14 * PPMM)
    for d in range(-8, 9):  # a small cross in the middle of the box
        ink[c + d - 1 : c + d + 1, c + d - 1 : c + d + 1] = True
        ink[c + d - 1 : c + d + 1, c - d - 1 : c - d + 1] = True
    no = np.zeros_like(ink)
    assert strokes.held(cv2, np, ink, ink, no, box, origin) > 0.05
    stray = np.zeros_like(ink)  # a stroke from the box on the left, ending in this one's middle
    y = round(14 * PPMM)
    stray[y - 1 : y + 1, round(2 * PPMM) : round(14 * PPMM)] = True
    assert strokes.held(cv2, np, stray, stray, no, box, origin) == 0.0


def test_a_thin_line_across_a_box_crosses_it():
    line = np.zeros((40, 40), bool)
    line[18:21, :] = True
    assert strokes._crosses(np, line)
    check = np.zeros((40, 40), bool)
    for i in range(40):  # a big check's long arm, from the bottom middle to the top right
        check[39 - i, min(39, 20 + i // 2)] = True
    check[20:40, 0:2] = True
    assert not strokes._crosses(np, check)


def test_like_print_is_ink_on_the_print_and_not_beside_it():
    on = np.zeros((40, 40), bool)
    on[10:30, 15:25] = True  # a printed glyph
    off = ~on
    darker = on.copy()  # the glyph photographed darker: all of it, nothing beside
    assert printed.looks_printed(np, darker, on, off)
    tick = np.zeros((40, 40), bool)
    tick[5:35, 18:22] = True  # a stroke across the glyph and the paper
    tick[5:35, 5:9] = True
    assert not printed.looks_printed(np, tick, on, off)


def test_unlike_siblings_finds_the_box_whose_icon_is_drawn_over():
    blank = np.full((200, 400), 255, np.uint8)
    boxes = []
    for n in range(5):
        x = 10 + 75 * n
        cv2.circle(blank, (x + 32, 100), 20, 120, -1)  # the same grey icon in five boxes
        boxes.append(type("B", (), dict(field=f"b{n}", kind="check", x=x / 8, y=68 / 8, w=8.0, h=8.0))())
    plain = 1.0 - blank.astype(np.float32) / 255
    ink = plain * 0.6  # the icon as the photo shows it: lighter than on the blank page
    cv2.line(ink, (10 + 75 * 2 + 20, 100), (10 + 75 * 2 + 45, 100), 0.9, 2)  # a dash over box 2's icon
    pad = tuning.SHIFT.px
    padded = cv2.copyMakeBorder(ink, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    unlike = printed.unlike_siblings(cv2, np, padded, plain, boxes, {b.field: (0, 0) for b in boxes}, pad)
    assert unlike["b2"] > tuning.MARK.faint
    assert max(unlike[f"b{n}"] for n in (0, 1, 3, 4)) == 0.0


@pytest.mark.slow
def test_short_dashes_across_the_middle_of_small_board_cells_are_marked():
    """`mixed_pens` photo 25 of seed 5 (Glassworks for 4, 162 dpi, curled, out of focus and
    shaken, sharpened, salted): short dashes across the middle of 5 mm board cells spread
    over a third of the inside and are held by no cell (a dash's ends reach past the
    cell). A fifth of the middle of a cell holds their trace, which a stroke straying in
    from the next cell does not reach (`Mark.middle`): its 25 dashes in board cells read
    marked, every other mark too, and no box of the photo is read wrong (the unsure boxes
    are empty cells strokes stray into, and mistakes rubbed out)."""
    read, truth, kinds = _mixed_pens(5, 25)
    dashes = [f for f, k in kinds.items() if k.endswith("/dash") and f.startswith("board_")]
    assert len(dashes) == 25
    assert all(read.readings[f] == verdict.MARKED for f, v in truth.items() if v)
    assert all(not truth[f] for f, r in read.readings.items() if r == verdict.UNSURE)
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_small_crosses_over_a_printed_icon_are_marks():
    """`mixed_pens` photo 44 of seed 4 (Imperial Settlers empire, 285 dpi, out of focus,
    sharpened, pencil small crosses): small crosses over the printed stone, wood and wheat of
    cost and yield boxes. The print hides the strokes' ends, so they spread over under half
    the box and are held by none, but they fill the middle of the inside (a third to half of
    it): with ink over `Mark.marked` a trace over `Mark.middle` of the middle is a mark. Eleven of the twelve
    crosses read marked, and no box is read wrong."""
    read, truth, kinds = _mixed_pens(4, 44)
    crosses = ["walls_2", "walls_6", "houses_1", "houses_6", "bridges_5", "bridges_8", "fields_14"]  # over icons
    assert all(kinds[f] == "pencil/small-x" for f in crosses)
    assert all(read.readings[f] == verdict.MARKED for f in crosses)
    assert sum(k == "pencil/small-x" and read.readings[f] == verdict.MARKED for f, k in kinds.items()) == 11
    assert _wrong(read, truth) == []


def test_decide_ink_across_the_middle_is_a_mark():
    """A dash through the middle spreads little but fills the middle; ink in a corner does not."""
    assert _decide(0.15, 0.3, core=0.1, middle=0.05) == verdict.UNSURE  # along an edge
    assert _decide(0.15, 0.3, core=0.1, middle=tuning.MARK.middle) == verdict.MARKED
    assert _decide(0.15, 0.3, core=0.1, unlike=0.4) == verdict.UNSURE  # unlike its siblings only
    assert _decide(0.05, 0.2, core=0.03, middle=0.22) == verdict.MARKED  # the corner of a big check
    assert _decide(0.03, 0.2, core=0.03, middle=0.22) == verdict.MARKED  # ...a light one (`tuning.Light`)
    assert _decide(0.03, 0.2, core=0.01, middle=0.22) == verdict.UNSURE  # under `Mark.marked`, no dark core
    assert _decide(0.15, 0.3, core=0.0, middle=0.4) == verdict.UNSURE  # no dark core: a wash
    assert _decide(0.15, 0.3, core=0.1, middle=0.4, like_print=True) == verdict.UNSURE


def test_decide_a_light_stroke_with_a_dark_core_is_a_mark():
    """A light pencil stroke on a blurred photo: only its centre line is over `Ink.ink` (a score
    under `Mark.marked`), but it has a dark core, spreads over the box, and its whole width is a
    trace in the middle: marked. An erased mistake has a trace but no dark core, a speck of
    noise a core but no trace, a stroke straying in stays along an edge: unsure."""
    assert _decide(0.02, 0.5, core=0.03, middle=0.15) == verdict.MARKED
    assert _decide(0.02, 0.5, core=0.01, middle=0.15) == verdict.UNSURE  # no dark core
    assert _decide(0.02, 0.5, core=0.03, middle=0.05) == verdict.UNSURE  # no trace
    assert _decide(0.02, 0.2, core=0.03, middle=0.12) == verdict.UNSURE  # along an edge
    # however little it spreads, a trace over `Mark.middle` of the middle crosses the box: a light
    # check or cross whose ink shows only where its strokes meet
    assert _decide(0.02, 0.2, core=0.03, middle=tuning.MARK.middle) == verdict.MARKED
    assert _decide(0.02, 0.2, core=0.01, middle=0.4) == verdict.UNSURE  # no dark core: a ghost
    assert _decide(0.02, 0.5, core=0.03, middle=0.15, like_print=True) == verdict.UNSURE
    # more ink than `Mark.marked` is no less a mark: a stroke as light would be
    assert _decide(0.07, 0.5, core=0.07, middle=0.12) == verdict.MARKED
    assert _decide(0.07, 0.3, core=0.07, middle=0.12) == verdict.UNSURE  # along an edge


@pytest.mark.slow
def test_light_strokes_on_a_blurred_photo_read_marked():
    """`mixed_pens` photo 47 of seed 4 (Imperial Settlers advanced empire, 112 dpi, out of focus,
    sharpened): soft pencil ticks and slashes show only their centre line over INK, with
    less ink than `Mark.marked`. Seven of them read marked (a tick and six slashes; the three unsure
    boxes show less of a trace), and no box is read wrong."""
    read, truth, kinds = _mixed_pens(4, 47)
    light = ["walls_4", "houses_4", "houses_7", "bridges_2", "bridges_6", "fields_10", "fields_12"]
    assert all(truth[f] and kinds[f].startswith("soft-pencil/") and read.scores[f] < tuning.MARK.marked for f in light)
    assert all(read.readings[f] == verdict.MARKED for f in light)
    assert sum(r == verdict.UNSURE for r in read.readings.values()) <= 5
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_sharpened_photos_grey_wash_is_not_a_trace():
    """`mixed_pens` photo 29 of seed 1 (Harvest Dice advanced, 282 dpi, curled, sharpened): the
    halo a phone's sharpening draws along every printed line makes the inside of every
    small box a little darker than the paper, a wash that reads as a faint trace in the
    empty pig boxes unless a trace is measured above the photo's own wash (levels.wash): no
    box is unsure, and none is read wrong."""
    read, truth, kinds = _mixed_pens(1, 29)
    assert "sharpen" in kinds["_photo"]
    assert [f for f, r in read.readings.items() if r == verdict.UNSURE] == []
    assert _wrong(read, truth) == []
    dark = np.full((40, 40), 0.06, np.float32)
    assert levels.wash(np, [0.0, 0.001, 0.3], [dark, dark + 0.01, dark + 0.5]) == pytest.approx(0.065)
    assert levels.wash(np, [0.0], [dark - 0.2]) == 0.0  # never below the paper
    stroke = dark.copy()
    stroke[18:22, 5:35] = 0.2
    assert strokes.faint_trace(cv2, np, stroke - 0.06, tuning.INK.faint) > tuning.MARK.faint
    assert strokes.faint_trace(cv2, np, dark - 0.06, tuning.INK.faint) == 0.0


@pytest.mark.slow
def test_the_long_arm_of_a_big_check_is_held_by_its_box(big_checks):
    """A big check's long arm crosses its box (the printed border cuts it into a piece as
    long as 0.75 of the box's diagonal); the tip of a neighbour's check straying in from a
    corner is a shorter piece (strokes.longest). `mixed_pens` photo 4 of seed 1 (a Glassworks pad
    covered in ballpoint big checks, whose strokes join those of the next cells): 6 boxes
    are unsure, five big checks and an empty cell the tips of the checks around it reach,
    and none is read wrong."""
    box = Box(10, 10, 8, 8, field="c")
    size = round(30 * PPMM)
    ink = np.zeros((size, size), np.uint8)

    def at(fx, fy):
        return round((10 + 8 * fx) * PPMM), round((10 + 8 * fy) * PPMM)

    arm = cv2.line(ink.copy(), at(0.45, 0.95), at(1.3, -0.3), 1, 3).astype(bool)
    tip = cv2.line(ink.copy(), at(-0.3, 1.3), at(0.35, 0.6), 1, 3).astype(bool)
    assert strokes.longest(cv2, np, arm, arm, box, (0, 0)) == pytest.approx(0.75, abs=0.03)
    assert strokes.longest(cv2, np, tip, tip, box, (0, 0)) == pytest.approx(0.41, abs=0.03)
    assert strokes.longest(cv2, np, arm, np.zeros_like(arm), box, (0, 0)) == 0.0  # no dark core
    read, truth, kinds = big_checks
    unsure = [f for f, r in read.readings.items() if r == verdict.UNSURE]
    assert len(unsure) <= 8
    assert [f for f in unsure if kinds.get(f) != "ballpoint-black/big-check"] == ["board_p2_r2_c7"]
    assert not truth["board_p2_r2_c7"] and truth["board_p2_r3_c7"] and truth["board_p2_r1_c7"]  # above, below
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_dark_noisy_photos_paper_is_not_taken_for_pencil():
    """`mixed_pens` photo 66 of seed 2 (the Imperial Settlers village at 213 dpi, under-exposed,
    sharpened, salt noise, a cast, JPEG). Divided by so dark a paper, the JPEG's blocks and
    the noise are as dark as pencil all over. Ink is only what is darker than all but 1% of
    the bare paper (levels.paper_floor), and than twice what an empty box's inside shows
    (levels.box_floor), and on such a photo only a mark with twice `Mark.marked` of ink that its box
    holds is marked: no box is read wrong, its 4 marks read marked, 3 empty boxes are
    unsure. A warning says the photo is too dark and noisy to read more than clear marks."""
    read, truth, _ = _mixed_pens(2, 66)
    assert read.note == (
        "alice.jpg: a dark, noisy photo (its paper shows as dark as pencil): only clear marks were read; "
        "photograph the sheet again in better light"
    )
    assert _wrong(read, truth) == []
    assert sum(read.readings[f] == verdict.MARKED for f, v in truth.items() if v) == 4
    assert sum(r == verdict.UNSURE for r in read.readings.values()) == 3


def test_the_paper_floor_is_what_most_of_the_bare_paper_stays_under():
    plain = np.zeros((400, 400), np.float32)
    plain[100:110, :] = 1.0  # a printed line
    boxes = [Box(20, 20, 10, 10, field="b")]  # mm: 160-240 px
    bare = levels.bare_paper(cv2, np, plain, boxes)
    assert not bare[:40].any() and not bare[95:115].any()  # the page's edge, the line and 1 mm around
    assert not bare[152:248, 152:248].any() and bare[300, 300] and bare[60, 60]
    rng = np.random.default_rng(1)
    noise = rng.uniform(0, 0.3, plain.shape).astype(np.float32)
    assert levels.paper_floor(np, noise, bare) == pytest.approx(0.297, abs=0.002)
    assert levels.paper_floor(np, noise, np.zeros_like(bare)) == 0.0  # no bare paper: no floor
    assert _decide(0.06, 1.0, core=0.06, held=0.06, noisy=True) == verdict.UNSURE
    assert _decide(0.08, 1.0, core=0.08, held=0.06, noisy=True) == verdict.MARKED
    assert _decide(0.08, 0.3, core=0.08, held=0.0, noisy=True) == verdict.UNSURE  # neither spread nor held
    assert _decide(0.08, 1.0, core=0.08, held=0.0, noisy=True) == verdict.MARKED  # a garden cell's colour
    assert _decide(0.005, 0.0, noisy=True) == verdict.EMPTY


@pytest.mark.slow
def test_an_empty_box_as_dark_as_pencil_beside_its_border_is_a_noisy_photo():
    """`mixed_pens` photo 42 of seed 2 (Harvest Dice at 136 dpi, a cast, motion and focus blur,
    sharpened, salt, JPEG): the JPEG's blocks and ringing beside every printed border show
    as dark as pencil inside the empty boxes. Ink is also only what is darker than `Noisy.noise`
    times what an empty box's inside shows (levels.box_floor): the photo is noisy, no box is
    read wrong, 50 of its 52 marks read marked (garden cells too: the rule for a noisy photo
    takes only strokes a box holds, and a colour pencil's cell holds none)."""
    read, truth, _ = _mixed_pens(2, 42)
    assert read.note.startswith("alice.jpg: a dark, noisy photo")
    assert _wrong(read, truth) == []
    assert sum(read.readings[f] == verdict.MARKED for f, v in truth.items() if v) == 50
    clean = [np.full((40, 40), 0.02, np.float32) for _ in range(11)]
    marked = [np.full((40, 40), 0.5, np.float32) for _ in range(89)]  # nearly nine boxes in ten marked
    assert levels.box_floor(np, clean + marked) == pytest.approx(0.02)
    blocks = np.zeros((40, 40), np.float32)
    blocks[:, :3] = 0.2  # 7.5% of the inside: a JPEG's ringing beside the border
    assert levels.box_floor(np, [blocks] * 20 + marked) == pytest.approx(0.2)
    assert levels.box_floor(np, []) == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("lid,page,seed", [("harvest-dice-normal", "sheet", 3), ("imperial-settlers", "village", 3)])
def test_a_sheet_with_every_box_marked_is_no_noisy_photo(lid, page, seed):
    """A sheet at the end of a game, every box marked, photographed cleanly: the tenth lightest box's
    darkest twentieth (levels.box_floor) is then a mark's (0.39 and 0.34 here), and taken for what
    an empty box shows it would make the photo a dark, noisy one whose marks read empty. An empty
    box is taken to show at most `Caps.box_times` what the bare paper shows in squares of its size
    (levels.paper_boxes): every box reads marked."""
    img, truth = _photo(lid, page, seed, dpi=200, share=1.0)
    read = _read(img)
    assert read.note == ""
    assert all(v not in ("", False) for v in truth.values())
    assert _wrong(read, truth) == [] and set(read.readings.values()) == {verdict.MARKED}


def test_an_empty_box_shows_at_most_a_few_times_what_the_bare_paper_does():
    marked = [np.full((40, 40), 0.5, np.float32) for _ in range(30)]
    assert levels.box_floor(np, marked) == pytest.approx(0.5)
    assert levels.box_floor(np, marked, 0.01) == pytest.approx(tuning.CAPS.box_times * 0.01)
    assert levels.box_floor(np, marked, 0.4) == pytest.approx(0.5)  # a noisy photo's paper: no cap
    side = round(tuning.CAPS.box_square * PPMM)  # 16 squares of bare paper, noise up to 0.04
    values = np.random.default_rng(1).uniform(0, 0.04, (4 * side, 4 * side)).astype(np.float32)
    bare = np.ones(values.shape, bool)
    assert levels.paper_boxes(np, values, bare) == pytest.approx(0.038, abs=0.001)
    values[:side, : 3 * side] = 0.5  # a player's note over three squares
    assert levels.paper_boxes(np, values, bare) == pytest.approx(0.038, abs=0.001)
    bare[side:] = False  # four squares of bare paper: too few to tell
    assert levels.paper_boxes(np, values, bare) is None


@pytest.mark.slow
def test_a_light_stroke_in_every_box_is_no_photos_own_trace():
    """A player with a light hand, to the end of the game: a pale slash in every pig and market box.
    The photo's own faint trace and pale level (what its blank boxes show, the median box's) would
    be a slash's, and every slash would read empty. They are never more than `Caps.times`
    what the bare paper shows in squares of a box's size (levels.paper_traces): every slash reads
    unsure, as one alone does. Here on a rectified page, blurred and with a little noise."""
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    checks = [b for b in boxes if b.kind == "check"]  # the pig and market boxes

    def read(slashed):
        page = np.repeat(blank[..., None], 3, axis=2).copy()
        for b in slashed:
            at = [
                (round((b.x + fx * b.w) * PPMM), round((b.y + fy * b.h) * PPMM)) for fx, fy in ((0.3, 0.7), (0.7, 0.3))
            ]
            cv2.line(page, *at, (225, 225, 225), 2, cv2.LINE_AA)
        page = cv2.GaussianBlur(page, (0, 0), 1.5) + np.random.default_rng(1).normal(0, 3, page.shape)
        return reader.read_boxes(np.clip(page, 0, 255).astype(np.uint8), blank, boxes, cells).readings

    assert {f: r for f, r in read(checks[:1]).items() if r != verdict.EMPTY} == {checks[0].field: verdict.UNSURE}
    readings = read(checks)
    assert len(checks) == 57 and all(readings[b.field] == verdict.UNSURE for b in checks)
    assert levels.paper_traces(cv2, np, np.zeros((200, 200), np.float32), np.zeros((200, 200), bool), 0.0, 0.08) == (
        0,
        0,
    )


@pytest.mark.slow
def test_a_tint_of_colour_rubbed_out_of_a_garden_cell_is_no_mark():
    """Under a phone's chroma noise (the bare paper's colour floor 25), an orange pencil rubbed out
    of a garden cell leaves a light tint over 12% of it, as coloured as the paper's blotches and a
    little more. Colour counts as ink over the paper's floor, but a cell's mark needs a colour core
    more than `Pencil.vivid` times as coloured as the floor (or a dark core): the tint is unsure, an
    orange pencil stroke is still a carrot. Here on a rectified page."""
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    rng = np.random.default_rng(0)
    page = np.repeat(blank[..., None], 3, axis=2).astype(np.float32)
    noise = rng.normal(0, 1, (blank.shape[0] // 8, blank.shape[1] // 8, 3)).astype(np.float32)
    page += 12 * cv2.resize(noise, (blank.shape[1], blank.shape[0]))  # blotches of colour all over

    def pencil(field, alpha):
        b = next(b for b in boxes if b.field == field)
        x, y, w, h = (round(v * PPMM) for v in (b.x + 1.5, b.y + 1.5, b.w - 3, b.h - 3))
        page[y : y + h, x : x + w] = (1 - alpha) * page[y : y + h, x : x + w] + alpha * np.float32((235, 120, 20))

    pencil("garden_r1_c1", 0.1)  # rubbed out
    pencil("garden_r1_c2", 0.6)  # an orange pencil
    got = reader.read_boxes(np.clip(page, 0, 255).astype(np.uint8), blank, boxes, cells)
    values, readings = got.values, got.readings
    assert readings["garden_r1_c1"] == verdict.UNSURE
    assert readings["garden_r1_c2"] == verdict.MARKED and values["garden_r1_c2"] == "C"
    assert readings["garden_r1_c3"] == verdict.EMPTY


def _ring(page, box, r_mm: float, colour, width: int) -> None:
    """A circle of `r_mm` round the middle of `box`, drawn on a rectified page (RGB, PPMM)."""
    centre = (round((box.x + box.w / 2) * PPMM), round((box.y + box.h / 2) * PPMM))
    cv2.circle(page, centre, round(r_mm * PPMM), colour, width)


def test_a_circle_drawn_round_a_round_box_is_a_mark():
    """A ballpoint or pencil circle drawn round a pig bonus box ('±1'), on and just outside its
    printed ring, leaves nothing inside the box. The README asks players to circle the steps of an
    Imperial Settlers colony ladder (round boxes) on paper: ink going most of the way round a round
    box along its ring (rings.ringed), more than round the page's other round boxes (a photo can
    show all the printed rings darker), is a mark when its dark core goes round; fainter ink round
    it leaves the box unsure, never empty. Here on a rectified page."""
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    page = np.repeat(blank[..., None], 3, axis=2)
    box = next(b for b in boxes if b.field == "pig_bonus6")
    _ring(page, box, box.w / 2 + 0.5, (40, 60, 160), 3)  # a blue ballpoint
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert readings["pig_bonus6"] == verdict.MARKED
    assert [f for f, r in readings.items() if r != verdict.EMPTY] == ["pig_bonus6"]
    ink = np.zeros((200, 200), bool)
    ring = type("B", (), dict(x=5.0, y=5.0, w=8.0, h=8.0))()  # mm: its centre at (72, 72) px
    assert rings.ringed(np, cv2.circle(ink.astype(np.uint8), (72, 72), 36, 1, 2).astype(bool), ring, (0, 0)) == 1.0
    stray = cv2.line(ink.astype(np.uint8), (20, 20), (50, 50), 1, 2).astype(bool)
    assert rings.ringed(np, stray, ring, (0, 0)) < 0.15
    assert _decide(0.0, 0.0, circled=True) == verdict.UNSURE


@pytest.mark.slow
def test_a_crease_across_the_page_is_no_trace():
    """`mixed_pens` photo 43 of seed 4 (Harvest Dice advanced at 207 dpi, the sheet folded: a
    crease crosses the page; in shadow, motion blur, salt): a faint straight line 40 mm long
    or more is a crease (levels.creases), and a trace is not looked for on it, so the empty
    boxes it crosses hold none: the only unsure boxes are two mistakes rubbed out, and none
    is read wrong."""
    read, truth, kinds = _mixed_pens(4, 43)
    assert "crease" in kinds["_photo"]
    unsure = [f for f, r in read.readings.items() if r == verdict.UNSURE]
    assert unsure == ["market_carrot_2", "market_salad_2"] and all(kinds[f] == "erased/erased" for f in unsure)
    assert _wrong(read, truth) == []
    dark = np.zeros((800, 800), np.float32)
    cv2.line(dark, (20, 700), (780, 300), 0.12, 2)  # a crease, 107 mm long
    cv2.line(dark, (100, 100), (180, 140), 0.12, 3)  # a faint pencil stroke, 11 mm
    cv2.line(dark, (100, 500), (700, 480), 0.6, 3)  # a pen line: ink, no crease
    found = levels.creases(cv2, np, dark, tuning.INK.faint)
    assert found[695, 30]  # near its start
    assert found[500, 400] and not found[120, 140] and not found[490, 400]
    assert not levels.creases(cv2, np, np.full((800, 800), 0.1, np.float32), tuning.INK.faint).any()  # all faint


@pytest.mark.slow
def test_a_noisy_photos_own_faint_trace_is_not_taken_for_pencil():
    """`mixed_pens` photo 19 of seed 1 (Imperial Settlers advanced empire, 195 dpi, sharpened,
    salted, a crease): a noisy photo draws a faint trace in the middle of every box (the
    median of its blank boxes). Up to `Noisy.noise` times the photo's own trace an empty box reads
    empty, as its blank boxes do: every empty box of the photo reads empty, none is
    unsure, and none is read wrong."""
    read, truth, kinds = _mixed_pens(1, 19)
    assert "sharpen" in kinds["_photo"] and "salt" in kinds["_photo"]
    assert all(read.readings[f] == verdict.EMPTY for f, v in truth.items() if not v)
    assert sum(r == verdict.UNSURE for r in read.readings.values()) == 0
    assert _wrong(read, truth) == []


def test_decide_a_faint_trace_against_the_photos_own():
    assert _decide(0.002, 0.0, middle=0.03) == verdict.UNSURE
    assert _decide(0.002, 0.0, middle=0.03, noise=0.02) == verdict.EMPTY  # under `Noisy.noise` times the photo's
    assert _decide(0.002, 0.0, middle=0.05, noise=0.02) == verdict.UNSURE
    assert levels.photo_trace(np, [0.0, 0.001, 0.3, 0.005], [0.01, 0.03, 0.5, 0.02]) == pytest.approx(0.02)
    assert levels.photo_trace(np, [0.3], [0.5]) == 0.0  # no blank box: no noise known


@pytest.mark.slow
def test_big_checks_whose_long_stroke_only_crosses_a_corner_of_the_box_are_held():
    """`mixed_pens` photo 33 of seed 5 (Imperial Settlers advanced empire, 130 dpi, a crease,
    ballpoint big checks): a big check drawn low in its box has its short stroke under the
    box and its long one crossing the box's lower part. A stroke must reach the middle of
    the box to be held by it, the middle being the inside without its outer sixth, the
    same middle as decide()'s: every one of its 27 big checks reads marked, and no box is
    read wrong or unsure."""
    read, truth, kinds = _mixed_pens(5, 33)
    checks = [f for f, k in kinds.items() if k == "ballpoint-black/big-check"]
    assert len(checks) == 27 and all(read.readings[f] == verdict.MARKED for f in checks)
    assert verdict.UNSURE not in read.readings.values()
    assert _wrong(read, truth) == []


def test_contrast_is_how_dark_the_photo_shows_the_print():
    plain = np.zeros((40, 40), np.float32)
    plain[10:30, 18:22] = 0.9  # a printed line on the blank page
    assert levels.contrast(cv2, np, plain, plain) == pytest.approx(1.0)
    assert levels.contrast(cv2, np, plain * 0.72, plain) == pytest.approx(0.72)
    assert levels.contrast(cv2, np, plain * 0.3, plain) == tuning.INK.contrast  # at least
    assert levels.contrast(cv2, np, np.clip(plain * 1.1, 0, 1), plain) == 1.0  # at most
    assert levels.contrast(cv2, np, plain, np.zeros_like(plain)) == 1.0  # nothing printed


@pytest.mark.slow
def test_soft_pencil_in_a_blurred_photo_is_not_read_empty():
    """`mixed_pens` photo 64 of seed 5 (Harvest Dice advanced, 164 dpi, motion blur, in shadow,
    exposure, salt): a soft pencil big check shows hardly darker than the paper, as the
    print does: no dark core, no faint trace at the usual darkness. It is looked for at
    darkness scaled by the photo's contrast (levels.contrast): it is unsure, not empty."""
    read, truth, kinds = _mixed_pens(5, 64)
    assert truth["pig_23"] and kinds["pig_23"] == "soft-pencil/big-check"
    assert read.readings["pig_23"] == verdict.UNSURE and read.scores["pig_23"] < tuning.MARK.marked / 10
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_qr_code_smeared_by_a_shaken_phone_is_read_module_by_module(monkeypatch):
    """`mixed_pens` photo 72 of seed 1 (Imperial Settlers empire, 171 dpi, motion blur, a crease, a
    warm cast, sharpened): the phone moved, the QR code's modules run into each other and OpenCV's
    decoder finds nothing. Its finder patterns still show where the page puts them: the code is read
    module by module and drawn again clean for the decoder (_qr_grid)."""
    lid, page = WITH_ADVANCED[72 % len(WITH_ADVANCED)]
    img, truth, _ = mixed_pens.photo(load_layout(lid), page, np.random.default_rng([1, 72]))
    photo = Photo("photo 72", "p72", img)
    markers = find_markers(photo)
    with monkeypatch.context() as m:
        m.setattr("sheetgen.scan.qr._qr_grid", lambda *a: "")
        with pytest.raises(RecordError, match="QR code cannot be read"):
            read_qr(photo, markers)
    qr = read_qr(photo, markers)
    assert (qr["layout"], qr["page"], qr["players"], qr["lang"]) == ("imperial-settlers", "empire", 1, "en")
    read = reader.read_photo(photo)  # the code's hash matches the built-in layout's
    assert _wrong(read, truth) == []


# PDFs: every page is drawn by pdfium as a viewer shows it (_pdf_photos)


@pytest.mark.slow
def test_a_scanners_pdf_is_read_page_by_page(tmp_path, harvest):
    """`sheetgen scan scans.pdf`: one sheet a page, the players named from the file and the page."""
    (ann, ann_truth), (ben, ben_truth) = harvest(0), harvest(1)
    path = _pdf_of_images(tmp_path / "scans.pdf", [ann, ben])
    photos = load_photos(path)
    assert [p.name for p in photos] == ["scans.pdf page 1", "scans.pdf page 2"]
    for photo, truth in zip(photos, (ann_truth, ben_truth), strict=True):
        assert _wrong(reader.read_photo(photo), truth) == []
    result = CliRunner().invoke(cli, ["scan", path, "-o", str(tmp_path / "game.yaml")])
    assert result.exit_code == 0, result.output
    assert [p["name"] for p in __import__("yaml").safe_load((tmp_path / "game.yaml").read_text())["players"]] == [
        "scans-1",
        "scans-2",
    ]


def test_a_page_image_stored_in_strips_is_read_whole(tmp_path, settlers):
    """Some scanners store a page as several images, one strip each: the page is read as
    drawn, not its largest image (which holds two of the four scan marks)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    img, truth = settlers("village", 0)
    h, w = img.shape[:2]
    pt = 72 / 150
    canvas = Canvas(str(tmp_path / "strips.pdf"), pagesize=(w * pt, h * pt))
    half = h // 2
    for top, bottom in ((0, half), (half, h)):
        strip = ImageReader(Image.fromarray(img[top:bottom]))
        canvas.drawImage(strip, 0, (h - bottom) * pt, w * pt, (bottom - top) * pt)
    canvas.save()
    (photo,) = load_photos(str(tmp_path / "strips.pdf"))
    assert _wrong(reader.read_photo(photo), truth) == []


def test_a_sheet_ticked_in_a_pdf_app_is_read_as_drawn(tmp_path):
    """A `--fillable` sheet whose boxes were ticked in a PDF viewer: `scan` draws the page
    with its form fields, and reads exactly the boxes ticked (`read` reads the same PDF
    from the fields' values)."""
    import io

    from pypdf import PdfReader, PdfWriter

    from sheetgen.render import render_pdf

    ticked = {*(f"pig_{n}" for n in range(1, 8)), "pig_bonus1", "market_carrot_2"}
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(render_pdf(load_layout("harvest-dice-normal"), fillable=True))))
    writer.update_page_form_field_values(writer.pages[0], dict.fromkeys(ticked, "/Yes"), auto_regenerate=False)
    writer.write(str(tmp_path / "filled.pdf"))
    (photo,) = load_photos(str(tmp_path / "filled.pdf"))
    read = reader.read_photo(photo)
    assert {f for f, r in read.readings.items() if r != verdict.EMPTY} == ticked
    assert all(read.readings[f] == verdict.MARKED for f in ticked)


def test_a_pdf_of_too_many_pages_is_refused(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(tmp_path / "many.pdf"))
    for _ in range(MAX_PDF_PAGES + 1):
        canvas.showPage()
    canvas.save()
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "many.pdf")])
    assert result.exit_code == 1
    assert result.output == f"Error: {tmp_path / 'many.pdf'}: 25 pages; sheetgen reads at most 24 sheets from one PDF\n"


@pytest.mark.slow
def test_a_transparent_png_is_read_on_white_paper(tmp_path):
    """A sheet saved as a PNG whose paper is transparent (black underneath, as many
    renderers leave it) is read on white paper, not on black."""
    from PIL import Image

    img, _, _ = pages.blank_paper(load_layout("harvest-dice-normal"), "sheet", 200)
    paper = (img > 250).all(axis=2)
    rgba = np.dstack([np.where(paper[..., None], 0, img), np.where(paper, 0, 255)]).astype(np.uint8)
    Image.fromarray(rgba, "RGBA").save(tmp_path / "sheet.png")
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "sheet.png")])
    assert result.exit_code == 1
    assert result.output == "Error: sheet.png: the sheet is blank: no box is marked\n"


def _read_unread_qr(seed: int, n: int):
    """(read, truth) of `mixed_pens` photo `n` of `seed`, whose QR code no decoder reads."""
    lid, page = WITH_ADVANCED[n % len(WITH_ADVANCED)]
    img, truth, _ = mixed_pens.photo(load_layout(lid), page, np.random.default_rng([seed, n]))
    photo = Photo(f"photo {n}", f"p{n}", img)
    with pytest.raises(RecordError, match="QR code cannot be read"):
        read_qr(photo, find_markers(photo))
    return reader.read_photo(photo), truth


@pytest.mark.slow
def test_a_sheet_whose_qr_code_cannot_be_read_is_recognised_by_its_print():
    """`mixed_pens` photo 16 of seed 1 (the Imperial Settlers empire, 137 dpi, exposure, motion
    blur): even module by module its QR code does not decode. The photo, mapped by its scan
    marks, is compared with the blank page of every page a code could name: it is the
    empire, in French; it is read, with a warning that says so."""
    read, truth = _read_unread_qr(1, 16)
    assert read.note == (
        "photo 16: its QR code cannot be read; by its print it is the 'empire' page of 'imperial-settlers' "
        "(fr), whose version could not be checked: make sure it is"
    )
    assert set(read.readings) == set(truth)
    assert _wrong(read, truth) == []
    from sheetgen.scan.record import unsure_warnings

    assert unsure_warnings([read])[0] == read.note


@pytest.mark.slow
def test_a_variant_is_told_from_its_layout_where_their_print_differs():
    """`mixed_pens` photo 5 of seed 4 (the advanced Imperial Settlers empire, 155 dpi, exposure,
    motion blur, salt): its QR code is unread, and over the whole page it matches the basic
    empire closely. Where the two pages differ (the colonies' help and box, the round's
    fifth step) it is the advanced one: it is read, and no box is read wrong."""
    read, truth = _read_unread_qr(4, 5)
    assert read.note.startswith(
        "photo 5: its QR code cannot be read; by its print it is the 'empire' page of 'imperial-settlers-advanced'"
    )
    assert set(read.readings) == set(truth)
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_page_matching_its_variant_better_overall_is_still_told_by_what_differs():
    """`mixed_pens` photo 15 of seed 3 (the advanced Harvest Dice sheet, a millimetre off in its
    middle): over the whole page it matches the normal sheet better (0.88 against 0.91), whose pig
    grid and score boxes sit a little apart. With its QR code unread, what only one page prints (the
    pig's bonus circles, the normal sheet's pre-checked market boxes, the subtitle) says it is the
    advanced."""
    lid, page = WITH_ADVANCED[15 % len(WITH_ADVANCED)]
    assert lid == "harvest-dice-advanced"
    img, _, _ = mixed_pens.photo(load_layout(lid), page, np.random.default_rng([3, 15]))
    photo = Photo("photo 15", "p15", img)
    fields, _ = recognise(photo, find_markers(photo), None, Unreadable("unread"))
    assert (fields["layout"], fields["page"]) == ("harvest-dice-advanced", "sheet")


def test_better_match_tells_two_pages_by_the_print_only_one_has():
    """`better_match` is +1-ish for the page a photo is, -1-ish for the other, 0 for identical pages;
    a box moved by a millimetre is no difference."""

    def page(*rects):
        img = np.full((200, 200), 255, np.float32)
        for x, y in rects:
            img[y : y + 10, x : x + 10] = 60
        return img

    a, b = page((20, 20), (100, 100)), page((20, 20))  # `a` prints one more box
    photo = 0.9 * a + 20  # a greyer photo of `a`
    assert better_match(cv2, np, photo, a, b) > 0.8
    assert better_match(cv2, np, photo, b, a) < -0.8
    assert better_match(cv2, np, photo, a, a) == 0.0
    moved = page((20 + round(PPMM / 4), 20))  # `b`'s box a millimetre to the side (the small page: PPMM / 4)
    assert better_match(cv2, np, photo, b, moved) == 0.0


@pytest.mark.slow
def test_a_sheet_whose_qr_code_is_gone_and_print_is_no_layouts_is_refused():
    """Scan marks, but no QR code and a page that looks like no layout's: the QR code's error."""
    img, _ = _photo("harvest-dice-normal", "sheet", 40, dpi=150, share=0.0)
    photo = Photo("x.jpg", "x", img)
    markers = find_markers(photo)
    corners = np.concatenate([markers[n] for n in range(4)])
    (x0, y0), (x1, y1) = corners.min(axis=0).astype(int), corners.max(axis=0).astype(int)
    pad = (x1 - x0) // 25  # the markers kept, everything between them painted over
    img = img.copy()
    img[y0 + pad : y1 - pad, x0 + pad : x1 - pad] = 235
    for n in range(4):  # ...but the markers themselves
        (mx0, my0), (mx1, my1) = markers[n].min(axis=0).astype(int), markers[n].max(axis=0).astype(int)
        img[my0 - 3 : my1 + 3, mx0 - 3 : mx1 + 3] = photo.rgb[my0 - 3 : my1 + 3, mx0 - 3 : mx1 + 3]
    with pytest.raises(RecordError, match=r"^x.jpg: the sheet's QR code cannot be read"):
        _read(img, "x")


def test_a_qr_code_read_but_not_ours_is_refused_not_recognised(monkeypatch):
    """Only a code no decoder reads is replaced by the page's print: one that reads but is not one
    sheetgen prints (another version's, another program's) is refused."""
    with monkeypatch.context() as m:
        m.setattr(scanmarks, "payload", lambda *a: "https://example.org/not-a-sheet")
        img, _, _ = pages.blank_paper(load_layout("harvest-dice-normal"), "sheet", 200)
    with pytest.raises(RecordError, match=r"^x.jpg: the QR code is not one sheetgen prints"):
        _read(img, "x")


@pytest.mark.slow
def test_a_band_matching_anywhere_along_it_does_not_move_the_page():
    """Photo 994 of seed 11 of the pencil generator (a Glassworks pad): the squares of the page
    along the coloured band under the boards match as well 3 mm to the side as where the page says;
    moving one would move the squares above it (too little print to match) too, and an empty board
    cell would read the scribble and border beside it as a mark. A square is moved only when it
    matches clearly better than where the page says (`Align.clearer`)."""
    lid, page = READABLE[994 % len(READABLE)]
    img, truth = pencil.photo(load_layout(lid), page, np.random.default_rng([11, 994]))
    read = _read(img)
    assert not truth["board_p2_r1_c7"] and read.readings["board_p2_r1_c7"] == verdict.EMPTY
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_square_matching_best_where_the_page_says_keeps_its_fraction_of_a_pixel():
    """`mixed_pens` photo 26 of seed 2 (Imperial Settlers advanced empire, 181 dpi, sharpened, salted):
    a square no clearer elsewhere stays where the page says, but keeps the fraction of a pixel its
    match gives there; without it the print of two empty boxes would read as marks."""
    read, truth, _ = _mixed_pens(2, 26)
    assert _wrong(read, truth) == []


@pytest.mark.slow
def test_a_pdf_of_huge_pages_is_refused_before_it_is_drawn(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(tmp_path / "huge.pdf"), pagesize=(14400, 14400))  # 5 m a side: drawn at 16 MP each
    for _ in range(13):
        canvas.showPage()
    canvas.save()
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "huge.pdf")])
    assert result.exit_code == 1
    assert (
        result.output == f"Error: {tmp_path / 'huge.pdf'}: its pages are too large to read (200 megapixels at most)\n"
    )


def _side_by_side(*images):
    """Photos pasted left to right on white: several sheets in one picture."""
    h = max(i.shape[0] for i in images)
    return np.hstack([np.pad(i, ((0, h - i.shape[0]), (0, 0), (0, 0)), constant_values=255) for i in images])


def _two_up(tmp_path, marked_cells, paper="a4", seed=7):
    """A page printed two Harvest Dice sheets a page (`render --per-page 2`), pencil marks
    on a random set of boxes of the sheets in `marked_cells`, photographed (pencil.degrade):
    (photo path, each cell's truth)."""
    from PIL import Image

    from sheetgen.render import impose

    dpi = 200
    res = CliRunner().invoke(
        cli,
        ["render", "harvest-dice-normal", "--per-page", "2", "--copies", "2", "--paper", paper]
        + ["--format", "png", "--dpi", str(dpi), "--lang", "en", "-o", str(tmp_path / "page.png")],
    )
    assert res.exit_code == 0, res.output
    img = np.asarray(Image.open(tmp_path / "page.png").convert("RGB")).copy()
    layout = load_layout("harvest-dice-normal")
    display = layout.document("en", None, ["sheet"]).pages[0]
    cells = grid_cells(layout, "sheet")
    rng = np.random.default_rng(seed)
    grid, truths = impose.grid(paper, 2), []
    for cell in range(2):
        x, y, s = grid.place(cell, layout.width, layout.height)
        origin, share = (x * dpi / 25.4, y * dpi / 25.4), 0.4 if cell in marked_cells else None
        truths.append(pencil.mark_boxes(cv2, img, display, cells, s * dpi / 25.4, origin, rng, share))
    photo = pencil.degrade(cv2, np, img, rng, dpi)
    path = tmp_path / "page.jpg"
    cv2.imwrite(str(path), cv2.cvtColor(photo, cv2.COLOR_RGB2BGR))
    return str(path), truths


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_page_of_two_sheets_reads_as_two_players_in_print_order(tmp_path, paper):
    from sheetgen.scan.record import read_photos

    path, truths = _two_up(tmp_path, {0, 1}, paper)
    notes: list = []
    reads = read_photos([path], None, notes)
    assert [r.photo.stem for r in reads] == ["page-1", "page-2"]
    assert [r.photo.name for r in reads] == ["page.jpg sheet 1", "page.jpg sheet 2"]
    assert notes == []
    for read, truth in zip(reads, truths, strict=True):
        assert _wrong(read, truth) == []
        assert sum(read.readings[f] == verdict.UNSURE for f in truth) <= 0.03 * len(truth)


@pytest.mark.slow
def test_a_blank_sheet_beside_a_played_one_is_no_player(tmp_path):
    from sheetgen.scan.record import read_photos

    path, truths = _two_up(tmp_path, {0})
    notes: list = []
    (read,) = read_photos([path], None, notes)
    assert read.photo.stem == "page-1" and _wrong(read, truths[0]) == []
    assert notes == ["page.jpg sheet 2: the sheet is blank: no box is marked; it is no player"]


@pytest.mark.slow
def test_a_sheet_not_whole_beside_a_whole_one_is_named_not_read(harvest):
    (a, _), (b, truth) = harvest(0), harvest(1)
    cut = a[:, : a.shape[1] // 2]  # the other sheet half out of the picture: two of its marks
    sheets, note = find_sheets(Photo("two.jpg", "two", _side_by_side(cut, b)))
    assert len(sheets) == 1
    assert (
        note
        == "two.jpg: 2 scan marks of another sheet seen, but not all four: that sheet is not read; photograph it whole"
    )
    assert _wrong(reader.read_photo(Photo("two.jpg", "two", _side_by_side(cut, b)), None, sheets[0]), truth) == []


@pytest.mark.slow
def test_sheets_of_two_pages_in_one_picture_are_refused(tmp_path, settlers):
    (a, _), (b, _) = settlers("empire", 0), settlers("empire", 1)
    cv2.imwrite(str(tmp_path / "both.jpg"), cv2.cvtColor(_side_by_side(a, b), cv2.COLOR_RGB2BGR))
    res = CliRunner().invoke(cli, ["scan", str(tmp_path / "both.jpg")])
    assert res.exit_code == 1
    assert res.output == (
        "Error: both.jpg: 2 sheets in one picture; a sheet of 2 pages is paired by file "
        "name: photograph each page alone, <name>-empire.jpg, <name>-village.jpg\n"
    )


@pytest.mark.slow
def test_four_sheets_in_two_rows_read_row_by_row():
    rng = np.random.default_rng(30)
    papers = [_photo("harvest-dice-normal", "sheet", 30 + k, dpi=100, share=0.5, photographed=False) for k in range(4)]
    img = np.vstack([np.hstack([papers[0][0], papers[1][0]]), np.hstack([papers[2][0], papers[3][0]])])
    photo = Photo("four.jpg", "four", pencil.degrade(cv2, np, img, rng, 100))
    sheets, note = find_sheets(photo)
    assert note == "" and len(sheets) == 4
    for markers, (_, truth) in zip(sheets, papers, strict=True):
        assert _wrong(reader.read_photo(photo, None, markers), truth) == []


def test_decide_a_dot_pressed_in_the_box_is_a_mark():
    """A pencil dot: a little ink in the middle of the box, all of it held by the box and dark
    through, too little to spread over the box or fill its middle."""
    assert _decide(0.03, 0.21, core=0.032, held=0.03, middle=0.09) == verdict.MARKED
    assert _decide(0.045, 0.23, core=0.046, held=0.045, middle=0.13) == verdict.MARKED
    assert _decide(0.03, 0.21, core=0.032, held=0.02, middle=0.09) == verdict.UNSURE  # not all held: a stray
    assert _decide(0.044, 0.21, core=0.034, held=0.037, middle=0.12) == verdict.UNSURE  # lighter: rubbed out
    assert _decide(0.03, 0.21, core=0.032, held=0.03, middle=0.04) == verdict.UNSURE  # beside the middle
    assert _decide(0.015, 0.21, core=0.015, held=0.015, middle=0.09) == verdict.UNSURE  # a speck
    assert _decide(0.03, 0.21, core=0.032, held=0.03, middle=0.09, kind="mini") == verdict.UNSURE
    assert _decide(0.03, 0.21, core=0.032, held=0.03, middle=0.09, like_print=True) == verdict.UNSURE


def test_pencil_dots_in_tick_boxes_read_marked():
    """Dots pressed in the middle of Imperial Settlers tick boxes, on a rectified page,
    blurred as a phone's photo: marked; the boxes around them stay empty."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes = [b for b in display.boxes() if b.kind == "check"]
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    dotted = [b.field for b in boxes[::7]]
    for b in boxes[::7]:
        centre = (round((b.x + b.w / 2) * PPMM), round((b.y + b.h / 2) * PPMM))
        cv2.circle(page, centre, 5, (80, 80, 85), -1, cv2.LINE_AA)  # 1.2 mm across
    page = cv2.GaussianBlur(page, (0, 0), 1.5)
    readings = reader.read_boxes(page, blank, list(display.boxes()), set()).readings
    assert all(readings[f] == verdict.MARKED for f in dotted)
    assert all(readings[b.field] == verdict.EMPTY for b in boxes if b.field not in dotted)


@pytest.mark.slow
def test_coloured_dots_on_the_icons_are_no_empty_boxes():
    """Pink-red dots (a dry-erase marker) right on the pale icons of nearly every tick box: the
    page's icons then show darker everywhere, and their darkness is taken for the print's. Their
    colour is not the print's: with the blank page's colours, none of them reads empty; the boxes
    left blank do."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    colours = blank_colours(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")
    checks = [b for b in boxes if b.kind == "check"]
    dotted = [b.field for n, b in enumerate(checks) if n % 6]
    page = colours.copy()
    for b in checks:
        if b.field in dotted:
            centre = (round((b.x + b.w / 2) * PPMM), round((b.y + b.h / 2) * PPMM))
            cv2.circle(page, centre, 9, (235, 140, 140), -1, cv2.LINE_AA)  # 2.2 mm across
    page = cv2.GaussianBlur(page, (0, 0), 1.2)
    grey_only = reader.read_boxes(page, blank, boxes, cells).readings
    assert sum(grey_only[f] == verdict.EMPTY for f in dotted) >= 20  # hidden by the print's darkness
    readings = reader.read_boxes(page, blank, boxes, cells, colours).readings
    assert not [f for f in dotted if readings[f] == verdict.EMPTY]
    assert all(r == verdict.EMPTY for f, r in readings.items() if f not in dotted)


def test_a_dot_paled_by_glare_is_coloured_over_the_print():
    """Glare pales a dry-erase dot (dots on grey icons 0.2-0.25 more saturated than their print). A
    dot 58 levels (0.23) more saturated than the print is over it (`Tint.over_print`); 45 (0.18), a
    phone's colour noise on a pale icon, is not; nor anything the mask says is not coloured."""
    print_sat = np.full((20, 20), 5, np.uint8)
    coloured = np.zeros((20, 20), bool)
    coloured[5:15, 5:15] = True  # a dot over a quarter of the inside
    for rise, share in ((58, 0.25), (45, 0.0)):
        sat = print_sat.copy()
        sat[5:15, 5:15] += rise
        assert looks.over_print(np, sat, print_sat, coloured) == share
        assert looks.over_print(np, sat, print_sat, np.zeros_like(coloured)) == 0.0


@pytest.mark.slow
def test_a_washed_out_photo_reads_no_box_empty():
    """`mixed_pens` photo 21 of seed 5 (Harvest Dice at 190 dpi, over-exposed, out of focus,
    sharpened): its paper clipped white, its print pale, and a light stroke as white as the
    paper may not show. Its print shows lighter than `Washed.printed` of its paper
    (levels.washed_out): no box is read empty (26 of its 32 marks read marked, the rest
    unsure), and a warning asks for a photo in less light."""
    read, truth, _ = _mixed_pens(5, 21)
    assert read.note == (
        "alice.jpg: a washed-out photo (its print shows light grey): a light pencil stroke may not "
        "show where the paper is white, so no box there is read empty; photograph the sheet again in less light"
    )
    assert _wrong(read, truth) == []
    assert verdict.EMPTY not in read.readings.values()
    assert sum(read.readings[f] == verdict.MARKED for f, v in truth.items() if v) == 26


@pytest.mark.slow
def test_a_washed_out_photo_reads_boxes_empty_where_its_paper_is_grey():
    """A washed-out photo (its print light grey) lit unevenly: the left half of the page
    clipped white (255), the right half grey (240), no mark anywhere. A light stroke may be
    lost on white paper, not on grey: the empty boxes on the left read unsure, those on the
    right empty (`Washed.clipped`)."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes = [b for b in display.boxes() if b.kind == "check"]
    grey = 255 - (255 - blank.astype(np.float32)) * 0.45  # black print at 140, 0.55 of the paper
    middle = blank.shape[1] // 2
    grey[:, middle:] *= 240 / 255
    page = np.repeat(np.round(grey).astype(np.uint8)[..., None], 3, axis=2)
    got = reader.read_boxes(page, blank, list(display.boxes()), set())
    readings, troubles = got.readings, got.troubles
    assert troubles == ("washed",)
    left = [b.field for b in boxes if (b.x + b.w + 3) * PPMM < middle]
    right = [b.field for b in boxes if (b.x - 3) * PPMM > middle]
    assert len(left) > 20 and len(right) > 20
    assert {readings[f] for f in left} == {verdict.UNSURE}
    assert {readings[f] for f in right} == {verdict.EMPTY}


def test_the_print_against_the_paper_tells_a_washed_out_photo():
    plain = np.zeros((200, 200), np.float32)
    plain[50:60, :] = 1.0  # a printed line
    bare = plain == 0
    gray = np.where(plain > 0, 100, 250).astype(np.uint8)  # 0.4 of the paper: a photo as most are
    assert not levels.washed_out(np, gray, plain, bare)
    gray[plain > 0] = 130  # 0.52 of it: washed out
    assert levels.washed_out(np, gray, plain, bare)
    # a photo tone-mapped by the phone (HDR): its print
    # lifted to 0.51 of the paper, but the paper grey (183): every mark shows
    tone_mapped = np.where(plain > 0, 94, 183).astype(np.uint8)
    assert not levels.washed_out(np, tone_mapped, plain, bare)
    assert not levels.washed_out(np, gray, plain, np.zeros_like(bare))  # no bare paper: cannot tell
    assert _decide(0.0, 0.0) == verdict.EMPTY
    assert _decide(0.0, 0.0, washed=True) == verdict.UNSURE  # on a washed-out photo no box is empty


@pytest.mark.slow
def test_on_a_noisy_photo_a_mistake_rubbed_out_is_no_mark():
    """`mixed_pens` photo 56 of seed 4 (Harvest Dice, dark and noisy: 159 dpi, sharpened, motion
    blur, a cast): four mistakes rubbed out left grey smears over the raised ink threshold.
    Their dark core is a small share of their ink, the photo's true marks' far more: on a
    noisy photo a mark must be dark through (`Noisy.through`). No box is read wrong; the
    smears are unsure."""
    read, truth, kinds = _mixed_pens(4, 56)
    assert read.note.startswith("alice.jpg: a dark, noisy photo")
    assert _wrong(read, truth) == []
    smeared = [f for f, k in kinds.items() if k == "erased/erased"]
    assert smeared == ["garden_r2_c4", "garden_r2_c6", "garden_r3_c5", "pig_bonus6"]
    assert all(not truth[f] and read.readings[f] == verdict.UNSURE for f in smeared)
    smear = dict(held=0.127, middle=0.233, long=0.21, noisy=True)
    slash = dict(held=0.254, middle=0.401, long=0.67, noisy=True)
    assert _decide(0.131, 0.93, core=0.054, **smear) == verdict.UNSURE
    assert _decide(0.27, 0.93, core=0.196, **slash) == verdict.MARKED
    assert _decide(0.27, 0.93, core=0.196, **{**slash, "noisy": False}) == verdict.MARKED


def _printed(tmp_path, lid, page, options, seed=5, qr=True):
    """One page of `lid` rendered as the CLI prints it (`render OPTIONS --format png`,
    A4), pencil marks on a random set of its boxes, photographed (pencil.degrade): (the
    photo, each box's truth). Not `qr`: its QR code covered (white)."""
    from PIL import Image

    from sheetgen.render.pdf import placement

    dpi = 200
    res = CliRunner().invoke(
        cli,
        ["render", lid, "--page", page, *options, "--format", "png", "--dpi", str(dpi), "--lang", "en"]
        + ["-o", str(tmp_path / "page.png")],
    )
    assert res.exit_code == 0, res.output
    img = np.asarray(Image.open(tmp_path / "page.png").convert("RGB")).copy()
    layout = load_layout(lid)
    display = layout.document("en", None, [page]).pages[0]
    at = placement(display, "a4")
    cells = grid_cells(layout, page)
    rng = np.random.default_rng(seed)
    origin = (at.left * dpi / 25.4, at.top * dpi / 25.4)
    truth = pencil.mark_boxes(cv2, img, display, cells, dpi / 25.4, origin, rng, 0.4)
    if not qr:
        x, y, size = (round(v * dpi / 25.4) for v in scanmarks.qr_spot(layout.width))
        left, top = round(at.left * dpi / 25.4), round(at.top * dpi / 25.4)
        img[top + y : top + y + size, left + x : left + x + size] = 255
    return pencil.degrade(cv2, np, img, rng, dpi), truth


@pytest.mark.slow
@pytest.mark.parametrize(
    "lid,page",
    [("harvest-dice-advanced", "sheet"), ("imperial-settlers-advanced", "empire"), ("river-valley-glassworks", "pad")],
)
def test_a_sheet_printed_toner_saving_is_read_against_its_grey_print(tmp_path, lid, page):
    """`render --grey` prints light tints where the colour sheet has dark fills (its title band, a
    pad's header): against the colour blank page its print would look lighter than the paper allows
    (a washed-out photo, every box without a mark unsure). Its QR code says it was printed grey, and
    it is read against the grey page."""
    img, truth = _printed(tmp_path, lid, page, ["--grey"])
    read = _read(img)
    assert read.note == ""
    assert _wrong(read, truth) == []
    assert sum(read.readings[f] == verdict.UNSURE for f in truth) <= 0.03 * len(truth)


@pytest.mark.slow
def test_a_toner_saving_print_whose_qr_code_is_unread_is_known_grey_by_its_print(tmp_path):
    img, truth = _printed(tmp_path, "harvest-dice-advanced", "sheet", ["--grey"], qr=False)
    read = _read(img)
    assert read.note == (
        "alice.jpg: its QR code cannot be read; by its print it is the 'sheet' page of 'harvest-dice-advanced' "
        "(en, printed toner-saving), whose version could not be checked: make sure it is"
    )
    assert _wrong(read, truth) == []
    assert sum(read.readings[f] == verdict.UNSURE for f in truth) <= 0.03 * len(truth)


def _png_header(path, width: int, height: int) -> None:
    """A PNG file that says it is `width` x `height` grey pixels (its data a few bytes)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)))


@pytest.mark.parametrize("size", [(12_000, 10_000), (20_000, 20_000)])
def test_an_image_too_large_is_refused_before_it_is_decoded(tmp_path, size):
    """120 megapixels (over ours, under twice Pillow's limit: Pillow only warns) and 400
    (Pillow refuses it on opening): one line, no warning, nothing decoded."""
    _png_header(tmp_path / "huge.png", *size)
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "huge.png")])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {tmp_path / 'huge.png'}: an image of over 110 megapixels; sheetgen reads no larger: make it smaller\n"
    )


@pytest.mark.slow
def test_a_16_bit_grey_png_reads_as_its_8_bit_grey_levels(tmp_path, harvest):
    """A scanner's 16-bit grey PNG: Pillow's own conversion to RGB clips every level over
    255 to white (a white page, no scan marks found); it reads as its 8-bit levels do."""
    from PIL import Image

    img, truth = harvest(0)
    grey = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    Image.fromarray(grey.astype(np.uint16) * 257).save(tmp_path / "deep.png")
    (photo,) = load_photos(str(tmp_path / "deep.png"))
    assert (photo.rgb == np.dstack([grey] * 3)).all()
    assert _wrong(reader.read_photo(photo), truth) == []  # (a garden cell's vegetable unknown in grey: '?')


@pytest.mark.slow
def test_a_photo_given_twice_is_refused_before_it_is_read(tmp_path, monkeypatch, harvest):
    """The same file twice (a shell pattern and the name typed again) would be two players
    of one name: refused as given, a usage error."""
    img, _ = harvest(0)
    _save(tmp_path, "alice.jpg", img)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["scan", "alice.jpg", "./alice.jpg"])
    assert result.exit_code == 2
    assert result.output == "Error: ./alice.jpg: given twice (also as alice.jpg): one photo is one player's sheet\n"


@pytest.mark.slow
def test_a_page_twice_for_one_player_names_both_files(tmp_path, settlers):
    """alice-empire.jpg from two folders: both are alice's empire; the error names both
    files by the path given, not only their one file name."""
    img, _ = settlers("empire", 0)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        _save(tmp_path / folder, "alice-empire.jpg", img)
    a, b = tmp_path / "a" / "alice-empire.jpg", tmp_path / "b" / "alice-empire.jpg"
    result = CliRunner().invoke(cli, ["scan", str(a), str(b)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        f"Error: {b}: a second 'empire' page for player 'alice' (also {a}); "
        "name a player's photos <name>-empire.jpg, <name>-village.jpg"
    )


@pytest.mark.slow
def test_two_photos_of_one_name_are_refused(tmp_path, harvest):
    """alice.jpg from two folders: a player is named after the file, so both would be
    'alice' (the record refuses two players of one name, but only when it is scored)."""
    img, _ = harvest(0)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        _save(tmp_path / folder, "alice.jpg", img)
    result = CliRunner().invoke(cli, ["scan", str(tmp_path / "a" / "alice.jpg"), str(tmp_path / "b" / "alice.jpg")])
    assert result.exit_code == 1
    a, b = tmp_path / "a" / "alice.jpg", tmp_path / "b" / "alice.jpg"
    assert result.output.splitlines()[-1] == (
        f"Error: {b}: a second photo of player 'alice' (also {a}; players are named after the files): "
        "rename one of them"
    )


def test_a_square_matched_off_its_neighbours_is_dropped_before_the_gaps_are_filled():
    """A Glassworks pad through a lens's barrel distortion: one 20 mm square on the board matches 3
    mm off its neighbours (a board of like cells); filled from it, the squares beside it, plain or
    unmatched, would put a printed column line through the middle of an empty board cell, read
    marked. A shift 2 mm or more from the median of four known neighbours or more is dropped; a
    curl's steep but smooth change (2 mm from one square to the next at a corner, 1.5 mm beside it)
    is kept."""
    mm = PPMM / 2  # the shifts are in half-resolution pixels
    rows, cols = 6, 6
    i, j = np.mgrid[0:rows, 0:cols].astype(np.float32)
    shift = np.dstack([0.2 * j * mm, (0.1 * i - 0.05 * (j - 2.5) ** 2) * mm]).astype(np.float32)
    shift[0, 1, 1] += 2.0 * mm  # the curl: the top left corner lifted
    shift[1, 1, 1] += 1.5 * mm
    shift[0, 0, 1] += 1.5 * mm
    shift[3, 4] += (3.0 * mm, 0.0)  # a wrong match
    shift[2, 5] = np.nan  # a plain square
    out = printed._outliers(np, shift, tuning.ALIGN.odd * mm)
    dropped = {(int(a), int(b)) for a, b in zip(*np.nonzero(np.isnan(out[..., 0]) & ~np.isnan(shift[..., 0])))}
    assert dropped == {(3, 4)}


def test_no_shift_known_is_no_shift():
    """`_fill` grows the known shifts into the gaps; with none known (every square's match
    dropped as a wrong one) it would grow forever: the page is then not moved."""
    gaps = np.full((3, 4, 2), np.nan, np.float32)
    assert (printed._fill(cv2, np, gaps) == 0).all()
    one = gaps.copy()
    one[1, 2] = (4.0, -2.0)
    assert (printed._fill(cv2, np, one) == (4.0, -2.0)).all()


@pytest.mark.slow
def test_a_square_at_the_page_edge_is_looked_for_on_both_sides(monkeypatch):
    """A village sheet rasterised by poppler, through a lens's barrel distortion: the print along
    the page's left edge sits 0.7 mm to the left, outside the rectified page; looked for only to
    their right, the squares there would match 2.5 mm off and the empty sawmill_1 box read marked
    (its printed icon and border showing as ink). `align` gets `Align.reach` mm of the photo around
    the page. Here the page moved 1.2 mm left and 0.8 mm up: the squares of the first row and column
    that hold print are found there too, and the page is put back."""
    display, blank = blank_page(load_layout("imperial-settlers"), "village", None, "en")
    m = round(tuning.ALIGN.reach * PPMM)
    around = cv2.copyMakeBorder(blank, m, m, m, m, cv2.BORDER_CONSTANT, value=255)
    dx, dy = -1.2 * PPMM, -0.8 * PPMM
    around = cv2.warpAffine(around, np.float32([[1, 0, dx], [0, 1, dy]]), around.shape[::-1], borderValue=255)
    seen = {}
    real = printed._outliers
    monkeypatch.setattr(
        printed, "_outliers", lambda np_, shift, limit: seen.setdefault("shift", real(np_, shift, limit))
    )
    page = printed.align(cv2, np, cv2.cvtColor(around, cv2.COLOR_GRAY2RGB), blank)
    shift = seen["shift"] * 2 / PPMM  # mm
    edges = np.concatenate([shift[0], shift[1:, 0]])
    right = np.hypot(*(edges - (-1.2, -0.8)).T) < 0.15
    assert right.sum() >= 0.8 * len(edges)
    assert page.shape[:2] == blank.shape
    moved = np.abs(around[m:-m, m:-m].astype(int) - blank).mean()
    assert np.abs(cv2.cvtColor(page, cv2.COLOR_RGB2GRAY).astype(int) - blank).mean() < moved / 4


def test_a_circle_in_or_round_a_box_is_a_mark_and_a_light_one_round_it_unsure():
    """A ring round a box or an "O" in it (the `halftone_print` generator draws both; the
    `hand_strokes` generator circles inside board cells): an "O" along a box's border leaves the
    middle of its inside bare. Ink going most of the way round inside a square box (`round_inside`),
    more than in the page's other square boxes, is a mark; round it, outside (`round_outside`,
    `traced`), a mark's dark core going `Around.round` of the way round is a mark too (the Imperial
    Settlers rules circle a finished bridge, its boxes all ticked); a light stroke round it (ink, no
    dark core), or a trace half as dark (`Ring.light`), leaves the box unsure, not empty. Here on a
    rectified page."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")
    page = np.repeat(blank[..., None], 3, axis=2)

    def ring(field, r, colour=(70, 70, 80)):
        _ring(page, next(b for b in boxes if b.field == field), r, colour, 4)  # a pencil, 0.5 mm

    ring("houses_6", 3.3)  # an "O" in the box, 0.7 mm from its border
    ring("houses_3", 6.2)  # round the box
    ring("fields_3", 6.2, (211, 211, 211))  # round the box, light: ink, no dark core (`Ink.ink`, `Ink.core`)
    ring("granaries_3", 6.2, (228, 228, 228))  # lighter still: a trace, no ink (`Ring.light`)
    ring("walls_3", 6.2, (238, 238, 238))  # a trace lighter than that is the paper's
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert readings["houses_6"] == verdict.MARKED
    assert readings["houses_3"] == verdict.MARKED
    assert readings["fields_3"] == verdict.UNSURE
    assert readings["granaries_3"] == verdict.UNSURE
    unread = [f for f, r in readings.items() if r != verdict.EMPTY]
    assert unread == ["houses_3", "houses_6", "granaries_3", "fields_3"]
    ink = np.zeros((200, 200), np.uint8)
    box = type("B", (), dict(x=5.0, y=5.0, w=8.0, h=8.0))()  # mm: its centre at (72, 72) px
    tick = cv2.polylines(ink.copy(), [np.int32([(52, 72), (66, 90), (94, 50)])], False, 1, 3).astype(bool)
    assert rings.round_inside(np, tick, box, (0, 0)) < 0.5
    out = tick.copy()
    out[50:94, 50:94] = False  # round_outside is given the ink out of the boxes' insides
    assert rings.round_outside(np, out, box, (0, 0)) < 0.15
    assert rings.round_inside(np, cv2.circle(ink.copy(), (72, 72), 26, 1, 3).astype(bool), box, (0, 0)) == 1.0


@pytest.mark.slow
def test_rings_on_a_photo_that_shows_every_printed_ring_are_measured_against_the_lower_quartile():
    """A photo can show the printed rings of every round box darker than the blank page (the
    `mixed_pens` photo 41 of seed 5: a light trace all the way round each colony step, dark cores
    0.17-0.86 of the way round the empty ones). Against the round box showing least, an empty one
    would read marked: when a light trace goes round every round box, the rings are measured against
    the lower quartile. A dark core 0.86 of the way round (`Ring.floor`) is a circle, whatever the
    other boxes show: at the end of a game every pig bonus box may be circled (see the next test);
    arcs half way round with a light ring all round them are unsure, as a circle drawn partly over
    the ring is (`Ring.part`). Here on a rectified page: dark arcs on the printed rings of the seven
    pig bonus boxes (one 60 degrees, five 160, one 310), with and without a light ring drawn round
    every one."""
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    spans = {f"pig_bonus{n}": 160 for n in range(1, 8)} | {"pig_bonus1": 60, "pig_bonus6": 310}

    def read(light: bool):
        page = np.repeat(blank[..., None], 3, axis=2).copy()
        for b in (b for b in boxes if b.field in spans):
            centre = (round((b.x + b.w / 2) * PPMM), round((b.y + b.h / 2) * PPMM))
            r = round(b.w / 2 * PPMM)
            if light:
                cv2.circle(page, centre, r, (226, 226, 226), 5)
            cv2.ellipse(page, centre, (r, r), 0, 0, spans[b.field], (60, 60, 70), 3)
        return reader.read_boxes(page, blank, boxes, cells).readings

    readings = read(light=False)
    assert [f for f, r in readings.items() if r != verdict.EMPTY] == ["pig_bonus6"]
    assert readings["pig_bonus6"] == verdict.MARKED
    # (with the light ring round every box, the 160-degree arcs go half way round with a trace all
    # the way: a circle partly over its printed ring looks so, unsure - see `rings.part_ringed`)
    readings = read(light=True)
    assert [f for f, r in readings.items() if r == verdict.MARKED] == ["pig_bonus6"]
    assert {f: r for f, r in readings.items() if f not in spans or spans[f] < 160} == {
        f: verdict.EMPTY for f in readings if f not in spans or spans[f] < 160
    }


@pytest.mark.slow
def test_every_round_box_circled_reads_marked_and_every_square_one_unsure():
    """A sheet at the end of a game: every pig bonus box of a Harvest Dice sheet circled, and every
    colony step of an advanced Imperial Settlers village. Measured against the page's round box
    showing least, circled too, no circle would stand out: the page's least counts up to `Ring.floor`,
    and the circles read marked. A player who circles square boxes, every one (Harvest Dice's pig
    and market boxes): a circle round a square box does not stand out from the page's median, a
    circle there too, but a box with ink going `Around.round` of the way round it reads unsure, never
    empty. Here on rectified pages, in pencil."""
    for lid, page_id in (("harvest-dice-advanced", "sheet"), ("imperial-settlers-advanced", "village")):
        layout = load_layout(lid)
        display, blank = blank_page(layout, page_id, None, "en")
        boxes, cells = list(display.boxes()), grid_cells(layout, page_id)
        page = np.repeat(blank[..., None], 3, axis=2).copy()
        rounds = [b for b in boxes if b.kind == "round"]
        for b in rounds:
            _ring(page, b, b.w / 2 + 0.8, (90, 90, 96), 4)
        readings = reader.read_boxes(page, blank, boxes, cells).readings
        assert len(rounds) in (7, 11) and all(readings[b.field] == verdict.MARKED for b in rounds)
        assert all(r == verdict.EMPTY for f, r in readings.items() if f not in {b.field for b in rounds})
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    squares = [b for b in boxes if b.kind == "check"]  # the pig and market boxes
    for b in squares:
        _ring(page, b, b.w / 2 + 1.0, (90, 90, 96), 4)
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert len(squares) > 40 and all(readings[b.field] != verdict.EMPTY for b in squares)


def test_a_circle_partly_over_a_round_box_s_printed_ring_is_never_read_empty():
    """Every pig bonus box circled in ballpoint, the last circle a millimetre off the box's centre,
    so that on one side it runs over the printed ring, where the print hides it: its ink goes 0.56
    of the way round off the print, a trace 0.94 along the ring (as round every circled box). Ink
    half way round with a trace all the way is unsure, never empty (the worst empty round box of 480
    photos of ten generators: ink 0.44 round, a trace 1.0). Measured values; the rule as read_boxes
    applies it."""
    rings_ = {"pig_bonus6": 0.5, "pig_bonus7": 0.556, "pig_bonus4": 0.42, "pig_bonus2": 0.6}
    lights = {"pig_bonus6": 0.944, "pig_bonus7": 0.944, "pig_bonus4": 1.0, "pig_bonus2": 0.5}
    assert rings.part_ringed(rings_, lights) == {"pig_bonus6", "pig_bonus7"}
    assert rings.part_ringed({"pig_bonus7": 0.556}, {}) == set()
    assert _decide(0.0, 0.0, circled=True) == verdict.UNSURE


@pytest.mark.slow
def test_a_meeple_lying_over_part_of_a_box_is_no_mark():
    """A wooden meeple lying on the sheet over a fifth of an empty granary box. A box's darkness is
    measured against the paper within 1.5 mm, where only the meeple's edge shows, as a mark would.
    Something as dark and as wide lying out in the open is seen whole (`levels.lying_on`): the box
    is unsure, and the photo's note says something lies on the sheet. Here on a rectified page: a
    meeple over an empty box's side, a pencil fill in another box running 2 mm over its border, and
    a pencil circle round a group of boxes."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    under = next(b for b in boxes if b.field == "granaries_3")
    centre = (round((under.x + under.w + 3.0) * PPMM), round((under.y + under.h / 2) * PPMM))
    cv2.ellipse(page, centre, (round(7.0 * PPMM), round(5.0 * PPMM)), 30, 0, 360, (110, 85, 30), -1, cv2.LINE_AA)
    filled = next(b for b in boxes if b.field == "walls_3")
    x, y, w, h = (round(v * PPMM) for v in (filled.x - 2.0, filled.y + 1.0, filled.w + 2.0, filled.h - 2.0))
    page[y : y + h, x : x + w] = (95, 95, 100)
    group = [b for b in boxes if b.field in ("fields_1", "fields_2")]
    x0, y0 = min(b.x for b in group), min(b.y for b in group)
    x1, y1 = max(b.x + b.w for b in group), max(b.y + b.h for b in group)
    axes = (round((x1 - x0) / 2 * PPMM + 3 * PPMM), round((y1 - y0) / 2 * PPMM + 3 * PPMM))
    cv2.ellipse(page, (round((x0 + x1) / 2 * PPMM), round((y0 + y1) / 2 * PPMM)), axes, 0, 0, 360, (90, 90, 96), 3)
    got = reader.read_boxes(cv2.GaussianBlur(page, (0, 0), 1.0), blank, boxes, cells)
    readings, troubles = got.readings, got.troubles
    assert readings["granaries_3"] == verdict.UNSURE
    assert troubles == ("covered",)  # (the photo's note asks for it to be taken off: reader.TROUBLES)
    assert readings["walls_3"] == verdict.MARKED
    assert all(readings[f] != verdict.MARKED for f in readings if f not in ("walls_3", "fields_1", "fields_2"))


def test_a_board_filled_with_a_black_felt_tip_is_nothing_lying_on_the_sheet():
    """A Glassworks board's cells filled side by side with a black felt tip, as solid as a meeple.
    Only a solid part `Lying.area` large out in the open is something lying on the sheet: the fills
    read marked. Here on a rectified page, every cell of the boards' bottom three rows filled."""
    layout = load_layout("river-valley-glassworks")
    display, blank = blank_page(layout, "pad", 2, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "pad")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    fills = [b for b in boxes if b.kind == "mini" and any(f"_r{r}_" in b.field for r in (1, 2, 3))]
    for b in fills:
        x, y, w, h = (round(v * PPMM) for v in (b.x + 0.3, b.y + 0.3, b.w - 0.6, b.h - 0.6))
        page[y : y + h, x : x + w] = (30, 30, 35)
    readings = reader.read_boxes(cv2.GaussianBlur(page, (0, 0), 1.0), blank, boxes, cells).readings
    assert len(fills) > 40 and all(readings[b.field] == verdict.MARKED for b in fills)


@pytest.mark.slow
def test_a_printed_ring_showing_darker_than_on_the_blank_page_is_no_circle():
    """A photo sharpened, its contrast raised (the `mixed_pens` photo 41 of seed 5), shows the grey
    printed ring of an empty colony step, '2', black: 0.93 where the blank page has 0.70, a mark's
    dark core all the way round the box, more than round the page's other steps. A circle drawn
    round a round box is followed along its ring off the print itself (`rings.ringed`: a hand-drawn
    circle leaves the printed line somewhere round it; where it runs under the print, `traced`
    counts the gaps), so the print is no circle; a trace along the ring, the print's own, leaves
    such a box unsure (`Ring.light`: the page's other rings show none). Here on a rectified page: one
    pig bonus box's printed ring black, then a ballpoint circle 0.5 mm outside another's."""
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    box = next(b for b in boxes if b.field == "pig_bonus3")
    x0, y0 = (round((v - 1.5) * PPMM) for v in (box.x, box.y))
    x1, y1 = (round((v + d + 1.5) * PPMM) for v, d in ((box.x, box.w), (box.y, box.h)))
    yy, xx = np.mgrid[y0:y1, x0:x1] / PPMM
    r = np.hypot(xx - box.x - box.w / 2, yy - box.y - box.h / 2)
    ring = (blank[y0:y1, x0:x1] < 255 * 0.7) & (abs(r - box.w / 2) < 1.0)  # its printed ring, grey shown black
    page[y0:y1, x0:x1][ring] = 20
    assert (blank[y0:y1, x0:x1][ring] > 60).mean() > 0.5  # (the ring is grey on the blank page)
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert {f: r for f, r in readings.items() if r != verdict.EMPTY} == {"pig_bonus3": verdict.UNSURE}
    _ring(page, next(b for b in boxes if b.field == "pig_bonus6"), box.w / 2 + 0.5, (40, 60, 160), 3)
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert {f: r for f, r in readings.items() if r != verdict.EMPTY} == {
        "pig_bonus3": verdict.UNSURE,
        "pig_bonus6": verdict.MARKED,
    }


def test_a_thin_circle_drawn_on_a_round_box_s_printed_ring_is_a_mark():
    """A thin ballpoint circle drawn round a colony step ('2', a rounded square) that runs on its
    printed border at the middle of each side, inside its corners elsewhere. Followed off the print
    (`rings.ringed`), it shows in runs of 2-6 sectors of 36, hidden 2-6 at a time: half the way
    round. Where a stroke along the ring runs under the print for a short way between two of its
    runs, it is followed there (`Ring.under`): a mark; two arcs along the ring with gaps longer than
    that (the circles round the boxes beside it) are not joined. Here on a rectified page, a circle
    in grey 100 (the ring is printed in grey 77), 0.25 mm wide, 0.1 mm outside it; then on masks."""
    layout = load_layout("imperial-settlers-advanced")
    display, blank = blank_page(layout, "village", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "village")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    box = next(b for b in boxes if b.field == "mill_colony_2")
    centre = (round((box.x + box.w / 2) * PPMM), round((box.y + box.h / 2) * PPMM))
    cv2.circle(page, centre, round((box.w / 2 + 0.1) * PPMM), (100, 100, 100), 2, cv2.LINE_AA)
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert {f: r for f, r in readings.items() if r != verdict.EMPTY} == {"mill_colony_2": verdict.MARKED}
    ring = type("B", (), dict(x=5.0, y=5.0, w=8.0, h=8.0))()  # mm: its centre at (72, 72) px
    line = cv2.circle(np.zeros((200, 200), np.uint8), (72, 72), 36, 1, 3).astype(bool)

    def arcs(*spans):  # arcs of that circle, (from, to) degrees
        ink = np.zeros((200, 200), np.uint8)
        for a, b in spans:
            cv2.ellipse(ink, (72, 72), (36, 36), 0, a, b, 1, 2)
        return ink.astype(bool)

    hidden_50 = arcs((25, 65), (115, 155), (205, 245), (295, 335))  # under the print for 50° four times
    assert rings.ringed(np, hidden_50, ring, (0, 0)) < 0.6
    assert rings.ringed(np, hidden_50, ring, (0, 0), line) == 1.0
    beside = arcs((50, 130), (230, 310))  # two arcs 100° apart
    assert rings.ringed(np, beside, ring, (0, 0), line) == rings.ringed(np, beside, ring, (0, 0)) < 0.7
    specks = arcs(*((a, a + 4) for a in range(0, 360, 45)))  # single sectors all round
    assert rings.ringed(np, specks, ring, (0, 0), line) == rings.ringed(np, specks, ring, (0, 0)) < 0.3


def test_a_pale_colour_pencil_letter_in_a_garden_cell_is_no_empty_cell():
    """Light colour pencil letters and blobs in garden cells: 0.02-0.04 darker than the paper, where
    the photo's speckle reaches 0.03, and too little colour. In a grid cell (nothing printed in it)
    a paler trace is looked for blurred (`Pale.cell_darkness`): the stroke stays, the speckle fades,
    and the cell is unsure, never empty. Here on a rectified page with noise (grey level 4), a pale
    green 'S' 0.4 mm wide in one cell: no other box is anything but empty."""
    layout = load_layout("harvest-dice-advanced")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    b = next(b for b in boxes if b.field == "garden_r2_c3")
    shape = np.array([[0.7, 0.25], [0.3, 0.3], [0.35, 0.5], [0.65, 0.5], [0.7, 0.72], [0.3, 0.75]])
    points = np.round((shape * [b.w, b.h] + [b.x, b.y]) * PPMM * 16).astype(np.int32)
    stroke = cv2.polylines(np.zeros(blank.shape, np.uint8), [points], False, 255, 3, cv2.LINE_AA, 4)
    share = stroke.astype(np.float32)[..., None] / 255
    page = np.repeat(blank[..., None], 3, axis=2).astype(np.float32)
    page = page * (1 - share) + page * np.array([238, 246, 242], np.float32) / 255 * share
    page += np.random.default_rng(1).normal(0, 4, blank.shape)[..., None]
    readings = reader.read_boxes(np.clip(page, 0, 255).astype(np.uint8), blank, boxes, cells).readings
    assert {f: r for f, r in readings.items() if r != verdict.EMPTY} == {"garden_r2_c3": verdict.UNSURE}


def test_a_soft_shadow_round_a_thin_line_is_no_light_stroke():
    """A sharpened app photo of a sheet folded in quarters, a hand's soft shadow over the garden: in
    two empty garden cells the fold crosses, the ink is a thin line reaching 0.04-0.07 across the
    cell, no stroke held or long, with a faint trace over 0.68 and 0.87 of the middle, a light
    stroke's by the trace (`Mark.middle`). A trace filling the middle round ink that does not spread
    is a soft shadow, or a fold's band, with a line in it (`tuning.Wash`): unsure. A light scribble
    whose trace fills the middle spreads its ink; so does a fill."""
    cell = dict(middle=0.679, long=0.0)
    assert _decide(0.027, 0.072, 0.118, held=0.0, **cell) == verdict.UNSURE
    assert _decide(0.017, 0.043, 0.048, held=0.0, middle=0.875) == verdict.UNSURE
    assert _decide(0.027, 0.25, 0.118, held=0.0, **cell) == verdict.MARKED  # spreading
    assert _decide(0.027, 0.072, 0.118, held=0.06, **cell) == verdict.MARKED  # held
    assert _decide(0.027, 0.072, 0.118, held=0.0, middle=0.3) == verdict.MARKED  # a dash across


def test_a_light_slash_across_a_box_over_its_icon_is_marked():
    """A light pencil slash corner to corner over an Imperial Settlers box's printed icon (the
    `light_pencil` generator draws them) reads unsure: less ink than `Mark.marked`, and
    the icon hides the stroke in the middle of the box (a trace over 0.045-0.093 of it,
    under `Light.middle`, 0.1). A light stroke with a dark core spreading across the box both ways
    (`Light.across`) is marked; the same stroke along one edge (straying in from the next box) is
    not. Here on a rectified page, a 0.375 mm line of grey 185, blurred, corner to corner
    along the log a house box costs, and along the bottom of a wall box."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")
    page = np.repeat(blank[..., None], 3, axis=2).copy()

    def line(field, x0, y0, x1, y1):  # from (x0, y0) to (x1, y1): shares of the box's width, height
        b = next(b for b in boxes if b.field == field)
        ends = [(round((b.x + x * b.w) * PPMM), round((b.y + y * b.h) * PPMM)) for x, y in ((x0, y0), (x1, y1))]
        cv2.line(page, *ends, (185, 185, 185), 3, cv2.LINE_AA)

    line("houses_6", 0.08, 0.92, 0.92, 0.08)
    line("walls_6", 0.08, 0.8, 0.92, 0.8)
    page = cv2.GaussianBlur(page, (0, 0), 1.0)
    got = reader.read_boxes(page, blank, boxes, cells)
    readings, scores = got.readings, got.scores
    assert readings["houses_6"] == verdict.MARKED and scores["houses_6"] < tuning.MARK.marked
    assert readings["walls_6"] != verdict.MARKED
    assert [f for f, r in readings.items() if r != verdict.EMPTY] == ["walls_6", "houses_6"]


@pytest.mark.slow
def test_light_checks_over_printed_icons_unlike_their_siblings_are_marked():
    """`mixed_pens` photo 47 of seed 2 (Imperial Settlers advanced empire, 229 dpi, curled, out
    of focus, soft pencil big checks). Over a box's printed icon the print hides a light
    stroke when the photo is compared with the blank page: less ink than `Mark.marked`, spread under
    `Light.spread`, the middle's trace under it. Compared with the same icon in the other boxes of
    the photo (`unlike_siblings`) three of them, over a stone and a harvest, are darker over
    `Light.unlike` of the inside: those read marked, and no box of the photo is read wrong."""
    read, truth, kinds = _mixed_pens(2, 47)
    over = ["walls_11", "granaries_8", "fields_7"]
    assert all(kinds[f] == "soft-pencil/big-check" for f in over)
    assert all(read.readings[f] == verdict.MARKED and read.scores[f] < tuning.MARK.marked for f in over)
    assert sum(r == verdict.UNSURE for r in read.readings.values()) == 7
    assert _wrong(read, truth) == []


def test_decide_a_light_stroke_unlike_its_siblings_is_a_mark():
    assert _decide(0.02, 0.2, 0.03, unlike=0.1) == verdict.MARKED
    assert _decide(0.02, 0.2, 0.03, unlike=0.05) == verdict.UNSURE
    assert _decide(0.02, 0.2, 0.01, unlike=0.1) == verdict.UNSURE  # no dark core: a wash
    assert _decide(0.02, 0.2, 0.03, like_print=True, unlike=0.1) == verdict.UNSURE
    # with more ink than `Mark.marked`, unlike its siblings is no mark: a neighbour's felt-tip cross
    # straying in
    assert _decide(0.051, 0.326, 0.055, middle=0.056, long=0.203, unlike=0.084) == verdict.UNSURE


def _pale_reads(lid, page_id, field, draw):
    """The readings of a rectified blank page with a pale stroke drawn round or in `field`'s
    box (`draw(page, box)`, in grey 240: 6% darker than the paper), blurred: clean, made
    noisy, and the noisy page without the stroke; and the box's ink score, clean."""
    layout = load_layout(lid)
    display, blank = blank_page(layout, page_id, None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, page_id)
    plain = np.repeat(blank[..., None], 3, axis=2)
    page = plain.copy()
    draw(page, next(b for b in boxes if b.field == field))
    page = cv2.GaussianBlur(page, (0, 0), 0.8)
    noise = np.random.default_rng(1).normal(0, 5, page.shape)
    got = reader.read_boxes(page, blank, boxes, cells)
    clean, scores = got.readings, got.scores
    noisy, speckled = (
        reader.read_boxes(np.clip(p + noise, 0, 255).astype(np.uint8), blank, boxes, cells).readings
        for p in (page, plain)
    )
    return clean, noisy, speckled, scores[field]


def _not_empty(readings):
    return [f for f, r in readings.items() if r != verdict.EMPTY]


@pytest.mark.slow
def test_a_pale_tick_on_a_clean_photo_is_never_read_empty():
    """Light hard-pencil ticks (in pig boxes and Imperial Settlers fields): no ink (a score of 0)
    and a faint trace (`Ink.faint`) over under `Mark.faint` of the middle, though a player sees
    each. A paler trace (`tuning.Pale`) off the print in one piece as long as a quarter of the box,
    over three times what the photo's blank boxes show, is no empty box: unsure. Here on a rectified
    page, a pale tick, blurred; on the page made noisy, still; a noisy page's own speckle, in every
    box, is no stroke."""

    def tick(page, b):
        at = [(0.25, 0.55), (0.42, 0.75), (0.78, 0.25)]
        points = np.int32([((b.x + fx * b.w) * PPMM, (b.y + fy * b.h) * PPMM) for fx, fy in at])
        cv2.polylines(page, [points], False, (240,) * 3, 2)

    clean, noisy, speckled, score = _pale_reads("harvest-dice-normal", "sheet", "pig_12", tick)
    assert score == 0.0 and clean["pig_12"] == verdict.UNSURE
    assert _not_empty(clean) == _not_empty(noisy) == ["pig_12"]
    assert _not_empty(speckled) == []


@pytest.mark.slow
def test_a_pale_circle_round_a_round_box_is_never_read_empty():
    """Light circles round pig bonus boxes: a trace `Ring.light` as dark as ink goes under
    `Ring.round` of the way round. A pale trace over the photo's own level (`tuning.Pale`) going
    `Ring.round` round a round box, standing out from the page's other round boxes, is no empty box:
    unsure. Here a pale circle a third wider than the printed ring, blurred, on a clean page and on
    the page made noisy."""

    def circle(page, b):
        centre = (round((b.x + b.w / 2) * PPMM), round((b.y + b.h / 2) * PPMM))
        cv2.circle(page, centre, round(b.w / 2 * 1.35 * PPMM), (240,) * 3, 2)

    clean, noisy, speckled, score = _pale_reads("harvest-dice-advanced", "sheet", "pig_bonus1", circle)
    assert score == 0.0 and clean["pig_bonus1"] == verdict.UNSURE
    assert _not_empty(clean) == _not_empty(noisy) == ["pig_bonus1"]
    assert _not_empty(speckled) == []


def test_pale_strokes_are_long_pieces_over_the_photos_own_level():
    line = np.zeros((40, 40), np.uint8)
    cv2.line(line, (5, 30), (30, 8), 20, 2)
    assert 0.6 < strokes.pale_stroke(cv2, np, line, 10) < 0.7  # its bounding box's diagonal over the inside's
    assert strokes.pale_stroke(cv2, np, line, 25) == 0.0  # under the level
    specks = np.zeros((40, 40), np.uint8)
    specks[::6, ::6] = 30  # a noisy photo's: many, each under `Pale.pixels`
    assert strokes.pale_stroke(cv2, np, specks, 10) == 0.0
    hidden = np.zeros((40, 40), bool)
    assert levels.pale_level(np, [specks, line], [hidden, hidden]) == 25.0  # the median of their 99th percentiles
    assert _decide(0.0, 0.0, middle=0.0, pale=0.3) == verdict.UNSURE
    assert _decide(0.0, 0.0, middle=0.0, pale=0.16) == verdict.UNSURE  # a light tick mostly hidden by an icon
    assert _decide(0.0, 0.0, middle=0.0, pale=0.12) == verdict.EMPTY


@pytest.mark.slow
def test_a_box_shaded_grey_is_marked():
    """A pencil fill shaded evenly grey (as `light_pencil` draws them): ink is measured against the
    brightest paper within 1.5 mm, and the middle of a shaded box is far from any paper but the
    shading. A box whose bare inside shows `Tint.shade` darker than the paper round it (`shaded`) is
    marked, as a box shaded grey 195 (0.24 darker than the paper) is here; the same grey over the
    box and 3 mm round it (a stain, a shadow) is no mark. Here on a rectified page."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")
    b = next(b for b in boxes if b.field == "fields_4")

    def shaded(margin):  # fields_4 and `margin` mm round it (negative: inside its border)
        page = np.repeat(blank[..., None], 3, axis=2).copy()
        x, y, w, h = (round(v * PPMM) for v in (b.x - margin, b.y - margin, b.w + 2 * margin, b.h + 2 * margin))
        page[y : y + h, x : x + w] = np.minimum(page[y : y + h, x : x + w], np.uint8(195))
        return reader.read_boxes(page, blank, boxes, cells).readings

    readings = shaded(-0.5)
    assert [f for f, r in readings.items() if r != verdict.EMPTY] == ["fields_4"]
    assert readings["fields_4"] == verdict.MARKED
    assert shaded(3.0)["fields_4"] != verdict.MARKED


def _highlight(page, box, margin: float) -> None:
    """A yellow highlighter over `box` and `margin` mm round it (negative: inside its border),
    on a rectified page (RGB, PPMM)."""
    x, y, w, h = (round(v * PPMM) for v in (box.x - margin, box.y - margin, box.w + 2 * margin, box.h + 2 * margin))
    page[y : y + h, x : x + w] = np.minimum(page[y : y + h, x : x + w], np.uint8((250, 240, 90)))


@pytest.mark.slow
def test_a_box_coloured_with_a_highlighter_is_marked():
    """A box coloured with a highlighter (yellow or green, as `halftone_print` draws them): as light
    as the paper in grey. A box whose bare inside (0.5 mm from any print) is plainly coloured all
    over (`Tint.fill`), the paper round it mostly not (`Tint.spill`, `spilled`), is marked. The same
    colour over the box and the paper round it (a stain) leaves it unsure, and so the next box it
    reaches into; the same box in a page tinted all over (a colour cast the white balance left) is
    empty. Here on a rectified page."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")

    def read(page):
        return reader.read_boxes(page, blank, boxes, cells).readings

    def coloured(margin):  # houses_6 and `margin` mm round it (negative: inside its border)
        page = np.repeat(blank[..., None], 3, axis=2).copy()
        _highlight(page, b, margin)
        return read(page)

    b = next(b for b in boxes if b.field == "houses_6")
    for margin, reading in ((-0.8, verdict.MARKED), (0.6, verdict.MARKED), (2.0, verdict.UNSURE)):
        readings = coloured(margin)
        assert readings["houses_6"] == reading, margin
        assert [f for f, r in readings.items() if r != verdict.EMPTY] == ["houses_6"]
    # a stain reaching 1.8 mm into the next box: both unsure
    assert {f: r for f, r in coloured(3.0).items() if r != verdict.EMPTY} == dict.fromkeys(
        ["houses_6", "houses_7"], verdict.UNSURE
    )
    assert read(np.repeat(blank[..., None], 3, axis=2))["houses_6"] == verdict.EMPTY
    ring = np.ones((64, 64), bool)  # the paper round a 2 mm box (its centre at (32, 32) px), 0.5 mm out of it at least
    ring[20:44, 20:44] = False
    box = type("B", (), dict(x=3.0, y=3.0, w=2.0, h=2.0))()
    nothing = np.zeros_like(ring)
    assert colour.spilled(np, ring, ring, nothing, box, (0, 0)) == 1.0
    half = ring.copy()
    half[:, 32:] = False
    assert abs(colour.spilled(np, half, ring, nothing, box, (0, 0)) - 0.5) < 0.02
    assert colour.spilled(np, ring, ring, ring, box, (0, 0)) is None  # all of it other boxes' insides


@pytest.mark.slow
def test_most_boxes_coloured_with_a_highlighter_are_marked():
    """A player who colours the boxes with a yellow highlighter, late in the game (two boxes in three):
    the page's median box is coloured, so against it none would stand out (`tuning.Tint`). The median counts
    up to `Tint.floor`: they read marked. Here on a rectified page."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "empire")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    coloured = [b.field for n, b in enumerate(boxes) if b.kind == "check" and n % 3]
    for b in (b for b in boxes if b.field in coloured):
        _highlight(page, b, -0.6)
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert len(coloured) == 40 and [f for f, r in readings.items() if r != verdict.EMPTY] == coloured
    assert sum(readings[f] == verdict.MARKED for f in coloured) >= 36


def test_a_ladder_step_coloured_with_a_highlighter_is_marked():
    """A colony ladder step (a round box over printed art) coloured with a green highlighter: a
    step's inside is mostly print, a square box's a fifth bare paper. Any box with 2 mm² of bare
    paper inside is looked at for a tint: the step reads marked. Here on a rectified page."""
    layout = load_layout("imperial-settlers-advanced")
    display, blank = blank_page(layout, "village", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "village")
    page = np.repeat(blank[..., None], 3, axis=2).copy()
    b = next(b for b in boxes if b.field == "mill_colony_2")
    x, y, w, h = (round(v * PPMM) for v in (b.x + 0.5, b.y + 0.5, b.w - 1.0, b.h - 1.0))
    page[y : y + h, x : x + w] = np.minimum(page[y : y + h, x : x + w], np.uint8((150, 240, 120)))
    readings = reader.read_boxes(page, blank, boxes, cells).readings
    assert b.kind == "round"
    assert [f for f, r in readings.items() if r != verdict.EMPTY] == ["mill_colony_2"]
    assert readings["mill_colony_2"] == verdict.MARKED


def test_a_circle_round_a_box_is_followed_under_the_print():
    """A pencil circle drawn tight round a box runs over its printed border and the next box's,
    where the photo shows nothing of it (the ink shows 0.58-0.64 of the way round). `traced` follows
    the stroke from where it shows, off the box's own print, to where it shows again: where the
    print lies on the way, it is hidden, not missing. A stroke in a few sectors, or on one side, is
    not followed, nor one reaching into another box's inside (that box's check, overshooting), nor a
    stroke bending round another centre (a circle round the next box, as `hand_strokes` draws them)."""
    box = type("B", (), dict(x=5.0, y=5.0, w=8.0, h=8.0, kind="check"))()  # its centre at (72, 72) px
    hidden = np.zeros((200, 200), np.uint8)
    cv2.rectangle(hidden, (42, 42), (102, 102), 1, 7)  # its printed border
    cv2.line(hidden, (120, 0), (120, 199), 1, 7)  # the next box's, on the right
    cv2.line(hidden, (0, 24), (199, 24), 1, 7)  # a section's, above
    insides = np.zeros((200, 200), bool)
    insides[51:94, 51:94] = insides[51:94, 129:172] = True  # its inside, the next box's
    ring = cv2.circle(np.zeros((200, 200), np.uint8), (72, 72), 48, 1, 3)  # on both lines
    shows = ring.astype(bool) & ~cv2.dilate(hidden, np.ones((9, 9), np.uint8)).astype(bool)  # in a photo
    hidden = hidden.astype(bool)

    def traced(ink):
        return rings.traced(cv2, np, ink, insides, hidden, box, (0, 0), 8.0)

    assert rings.round_outside(np, shows, box, (0, 0)) < 0.7  # what the photo shows of it
    assert traced(shows) > 0.9
    stray = cv2.line(np.zeros((200, 200), np.uint8), (20, 20), (60, 30), 1, 2).astype(bool)
    assert traced(stray) < 0.2
    half = shows.copy()
    half[:, 72:] = False  # the left half of the circle
    assert traced(half) < 0.5
    # the checks of the boxes on the left and the right, overshooting up beside this one
    checks = np.zeros((200, 200), np.uint8)
    cv2.polylines(
        checks, [np.int32([(140, 80), (112, 116), (110, 28)]), np.int32([(8, 80), (32, 116), (34, 28)])], False, 1, 3
    )
    insides[51:94, :15] = True  # the left one's inside
    assert traced(checks.astype(bool)) == 0.0
    # circles round the boxes above and below, passing by this one: they bend away from it
    passing = cv2.circle(np.zeros((200, 200), np.uint8), (72, 0), 40, 1, 3)
    passing = cv2.circle(passing, (72, 144), 40, 1, 3).astype(bool) & ~hidden
    assert rings.round_outside(np, passing & ~insides, box, (0, 0)) > 0.3
    assert traced(passing) < 0.3
    # specks all round the box, by its border (a halftone's dots shifted off the print, 1.0 of the
    # way round an empty box): no piece
    # of them a stroke's (`Trace.stroke`), they are not followed
    specks = np.zeros((200, 200), bool)
    for t in range(34, 111, 12):  # along the four sides, 0.3 mm beyond the border's print (grown 0.25 mm)
        for x, y in ((t, 32), (t, 111), (32, t), (111, t)):
            specks[y : y + 2, x : x + 2] = True  # 4 pixels each: a 0.25 mm dot
    specks &= ~hidden
    assert rings.round_outside(np, specks, box, (0, 0)) > 0.25
    assert traced(specks) == 0.0
    assert traced(shows | specks) >= tuning.AROUND.round  # (a speck off the circle's way hides a sector)
    assert (
        rings.traced(cv2, np, shows | specks, insides, hidden, box, (0, 0), 8.0, tuning.TRACE.speck) > 0.9
    )  # not counted


def test_a_hue_between_red_and_orange_is_not_guessed():
    """Under a warm lamp, through the phone's tone mapping, red pencils show hues 6-8.6 (OpenCV's
    0-180) and orange ones 18-27. An orange pencil shows 12 or so, a red one 178-2: a hue of 5-9 is
    between them, '?' for the player to complete, never a carrot."""

    def hue_of(hue):
        hsv = np.zeros((10, 10, 3), np.uint8)
        hsv[...] = (hue, 200, 200)
        return colour.ink_colour(np, hsv, np.ones((10, 10), bool))

    assert [hue_of(h) for h in (178, 2, 4, 6, 8, 10, 12, 24, 30, 60)] == [
        "T",
        "T",
        "T",
        "?",
        "?",
        "C",
        "C",
        "C",
        "?",
        "S",
    ]


@pytest.mark.slow
def test_most_round_boxes_of_a_page_circled_are_marks():
    """Most round boxes of a page circled (four of the seven pig bonus boxes, one filled with a
    highlighter; or five of seven): the ink going round the others' rings raises their median (0.53)
    to where a full circle (1.0) is no more than 0.5 above it, and their lower quartile too. A page
    holds a few round boxes, often most of them marked: the rings are measured against the one
    showing least. Here on a rectified page, four and six of the seven circled."""
    layout = load_layout("harvest-dice-normal")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes, cells = list(display.boxes()), grid_cells(layout, "sheet")
    for circled in (["pig_bonus2", "pig_bonus3", "pig_bonus5", "pig_bonus6"], [f"pig_bonus{n}" for n in range(1, 7)]):
        page = np.repeat(blank[..., None], 3, axis=2)
        for box in (b for b in boxes if b.field in circled):
            _ring(page, box, box.w / 2 + 0.5, (60, 60, 70), 3)
        readings = reader.read_boxes(page, blank, boxes, cells).readings
        assert [f for f, r in readings.items() if r != verdict.EMPTY] == circled
        assert all(readings[f] == verdict.MARKED for f in circled)


@pytest.mark.slow
def test_a_stroke_over_an_icon_the_photo_shows_lighter_is_read():
    """A photo that shows the icons printed in tick boxes (dropout colours) at half the blank page's
    darkness, the rest of the print as on it, and a pencil stroke drawn over one icon only, never on
    its bare paper: taken from the photo, the blank page's icon would hide most of the stroke. The
    icon as the photo shows it (printed.icon_fit, seen_print) does not: the box reads marked, every
    other box empty."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes = list(display.boxes())
    plain = 1.0 - blank.astype(np.float32) / 255.0
    icon = (plain > 0.05) & (plain < tuning.PRINT.dark)
    dark = np.where(icon, plain * 0.5, plain)
    box = next(b for b in boxes if b.field == "granaries_2")
    x, y, w, h = (round(v * PPMM) for v in inside(box))
    stroke = np.zeros_like(icon)
    cv2.line(stroke.view(np.uint8), (x, y), (x + w, y + h), 1, 3)  # corner to corner...
    stroke &= icon  # ...where the icon is printed
    assert 40 < stroke.sum() < 0.2 * w * h
    dark = np.where(stroke, 1 - (1 - dark) * (1 - 0.3), dark)  # graphite over the icon
    page = np.repeat(np.round(255 * (1 - dark)).astype(np.uint8)[..., None], 3, axis=2)
    readings = reader.read_boxes(page, blank, boxes, set()).readings
    assert readings["granaries_2"] == verdict.MARKED
    assert {f: r for f, r in readings.items() if f != "granaries_2" and r != verdict.EMPTY} == {}


@pytest.mark.slow
def test_a_circle_drawn_wide_round_a_round_box_over_its_neighbours_rings_is_a_mark():
    """A felt-tip circle drawn wide round a pig bonus box (the advanced sheet's rule: circle it)
    crosses the printed rings of the boxes above and below it, 0.5-0.6 mm into their insides. Only a
    stroke reaching `Trace.deep` into another box's inside is that box's: the circle is a mark, its
    neighbours (the circle's arcs in their insides) unsure."""
    layout = load_layout("harvest-dice-advanced")
    display, blank = blank_page(layout, "sheet", None, "en")
    boxes = list(display.boxes())
    box = next(b for b in boxes if b.field == "pig_bonus4")
    centre = (round((box.x + box.w / 2) * PPMM), round((box.y + box.h / 2) * PPMM))
    page = np.repeat(blank[..., None], 3, axis=2)
    # 6.7 mm round its centre: the next boxes' insides begin 6.4 mm above and below it
    cv2.circle(page, centre, round(6.7 * PPMM), (70, 70, 70), 4)
    readings = reader.read_boxes(page, blank, boxes, grid_cells(layout, "sheet")).readings
    # (the circle's arcs in the next boxes' insides: strokes straying in, unsure there)
    assert {f: r for f, r in readings.items() if r != verdict.EMPTY} == {
        "pig_bonus4": verdict.MARKED,
        "pig_bonus3": verdict.UNSURE,
        "pig_bonus5": verdict.UNSURE,
    }


@pytest.mark.slow
def test_a_photo_that_shows_all_its_print_darker_reads_no_mark():
    """A phone's local contrast and sharpening show every icon printed in the tick boxes in dropout
    colours 1.6-2 times as dark as on the blank page, the frames' dark lines darker too. The icons'
    print is taken as the page shows it (the median of its boxes' fits: `icon_fit`), and ink round a
    box is looked for off the print: no box is marked; a tick still is."""
    layout = load_layout("imperial-settlers")
    display, blank = blank_page(layout, "empire", None, "en")
    boxes = list(display.boxes())
    plain = 1.0 - blank.astype(np.float32) / 255.0
    dark = np.where((plain > 0.05) & (plain < tuning.PRINT.dark), np.minimum(plain * 2.0, 0.95), plain)
    dark = np.where(plain >= tuning.PRINT.dark, np.minimum(plain * 1.3, 1.0), dark)
    page = np.repeat(np.round(255 * (1 - dark)).astype(np.uint8)[..., None], 3, axis=2)
    page = cv2.GaussianBlur(page, (0, 0), 0.7)
    box = next(b for b in boxes if b.field == "fields_3")
    at = [(0.2, 0.55), (0.42, 0.8), (0.82, 0.2)]
    points = np.int32([((box.x + fx * box.w) * PPMM, (box.y + fy * box.h) * PPMM) for fx, fy in at])
    cv2.polylines(page, [points], False, (80, 80, 80), 3)
    readings = reader.read_boxes(page, blank, boxes, set()).readings
    assert {f: r for f, r in readings.items() if r != verdict.EMPTY} == {"fields_3": verdict.MARKED}


def test_the_paper_floor_is_not_a_finger_lying_on_the_sheet():
    """Two fingers and an eraser on the sheet cover a few per cent of its bare paper; its darkest
    hundredth would be theirs, and the photo taken for a dark, noisy one. The floor is taken in
    FLOOR_TILE squares, the median of them: a photo's noise is everywhere, a finger in a few
    squares."""
    rng = np.random.default_rng(3)
    values = rng.uniform(0, 0.05, (1600, 1200)).astype(np.float32)
    bare = np.ones(values.shape, bool)
    values[200:330, :150] = 0.7  # a finger from the left edge: 1% of the bare paper
    values[900:1000, 600:700] = 0.8  # a die
    assert levels.paper_floor(np, values, bare) == pytest.approx(0.0495, abs=0.001)
    noisy = rng.uniform(0, 0.3, values.shape).astype(np.float32)
    assert levels.paper_floor(np, noisy, bare) == pytest.approx(0.297, abs=0.002)


def test_a_square_matched_off_among_unmatched_ones_is_dropped():
    """A Glassworks pad blurred by a portrait mode's depth of field: the squares over the right
    board's last columns match nothing, and one matches 2.5 mm off, with fewer than four known
    neighbours; filled from it, the board's last columns would move off their boxes. Its neighbours
    two squares away tell it: dropped."""
    mm = PPMM / 2
    shift = np.full((7, 7, 2), 0.2 * mm, np.float32)
    shift[2:5, 2:5] = np.nan  # unmatched
    shift[3, 3] = (-2.5 * mm, 0.2 * mm)  # a wrong match among them
    out = printed._outliers(np, shift, tuning.ALIGN.odd * mm)
    assert np.isnan(out[3, 3]).all()
    dropped = np.isnan(out[..., 0]) & ~np.isnan(shift[..., 0])
    assert list(zip(*np.nonzero(dropped))) == [(3, 3)]


@pytest.mark.slow
def test_a_pale_scribble_in_a_board_cell_is_never_read_empty():
    """Light pencil scribbles, crosses and ticks in Glassworks board cells, 0.03-0.06 darker than
    the paper on a noisy photo. A board cell holds no print: as in a garden cell, the pale trace is
    looked for blurred (`Pale.cell_darkness`) and the box is unsure, never empty. Here a zigzag 5%
    darker than the paper, blurred, on a clean page and on the page made noisy; the noisy page's own
    speckle is no stroke."""

    def zigzag(page, b):
        at = [(0.2, 0.25), (0.35, 0.75), (0.5, 0.35), (0.65, 0.75), (0.8, 0.25)]
        points = np.int32([((b.x + fx * b.w) * PPMM, (b.y + fy * b.h) * PPMM) for fx, fy in at])
        cv2.polylines(page, [points], False, (242,) * 3, 2)

    clean, noisy, speckled, score = _pale_reads("river-valley-glassworks", "pad", "board_p1_r3_c4", zigzag)
    assert score == 0.0 and clean["board_p1_r3_c4"] == verdict.UNSURE
    assert _not_empty(clean) == _not_empty(noisy) == ["board_p1_r3_c4"]
    assert _not_empty(speckled) == []


def test_a_ring_of_ink_in_every_box_of_a_blurred_part_of_the_page_is_no_mark():
    """A phone's portrait mode blurs one part of the page 3.5 px, then sharpens it: every market
    box's border there shows as thick ink inside it and round it, far over the page's median. A ring
    of ink marks a box only where it stands out from the boxes printed alike round it too
    (`tuning.Near`); standing out from the page's alone, the box is circled, unsure."""
    row = [Box(10 + 9 * i, 10, 7, 7, field=f"b{i}") for i in range(6)]
    far = [Box(10 + 9 * i, 100, 7, 7, field=f"f{i}") for i in range(12)]
    alike = levels.near_alike(np, row + far)
    assert alike["b0"] == ["b1", "b2"] and alike["b2"] == ["b0", "b1", "b3", "b4"]
    blurred = {b.field: 1.0 for b in row} | {b.field: 0.1 for b in far}
    assert levels.standing_out(np, blurred, tuning.AROUND.inside, tuning.AROUND.inside_over) == {
        b.field for b in row
    }  # the page's median
    assert levels.standing_out(np, blurred, tuning.AROUND.inside, tuning.AROUND.inside_over, near=alike) == set()
    one = {b.field: 0.1 for b in row + far} | {"b3": 1.0}  # a circle drawn in one box
    assert levels.standing_out(np, one, tuning.AROUND.inside, tuning.AROUND.inside_over, near=alike) == {"b3"}


def test_brown_and_pink_are_no_vegetable():
    """A cell's ink (HSV, OpenCV's 0-180 hue) is a vegetable only in a dice colour, plainly: a brown
    (a carrot's hue, as dark as 0.37 of the paper) and a pink (hue 165: 330 degrees) are '?', as
    `garden_colours`'s brown and pink inks are."""
    from sheetgen.scan.colour import ink_colour

    def cell(hue, sat, val):
        hsv = np.zeros((20, 20, 3), np.uint8)
        hsv[...] = (hue, sat, val)
        return ink_colour(np, hsv, np.ones((20, 20), bool), 240.0)

    assert cell(14, 200, 235) == "C"  # an orange pencil
    assert cell(14, 175, 88) == "?"  # a brown one
    assert cell(176, 210, 200) == "T"  # a red one
    assert cell(165, 125, 250) == "?"  # a pink crayon
    assert cell(60, 180, 130) == "S"  # a dark green
