"""`sheetgen scan`'s record: what the boxes read becomes, and which numbers are left to
fill. The readings are made up from the display list (no photo), so these run fast."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sheetgen.cli import cli
from sheetgen.games import load_layout
from sheetgen.scan.blank import grid_cells
from sheetgen.scan.photos import Photo
from sheetgen.scan.reader import PageRead
from sheetgen.scan.record import TO_FILL, record_from_reads
from sheetgen.scan.verdict import EMPTY, MARKED


def _read(layout, page_id: str, who: str, marked, players: int | None = None, pdf: str = "") -> PageRead:
    """The reading of a photo of `page_id` on which the boxes `marked(field)` are marked
    (garden cells with a carrot), every handwritten box left as the scan leaves it; with
    `pdf`, a page of that scanned PDF."""
    display = layout.document("en", players, [page_id]).pages[0]
    cells = grid_cells(layout, page_id)
    values, readings = {}, {}
    for box in display.boxes():
        if box.kind == "write" and box.field not in cells:
            values[box.field] = ""
            continue
        on = marked(box.field)
        readings[box.field] = MARKED if on else EMPTY
        values[box.field] = ("C" if on else "") if box.field in cells else on
    stem = who if len(layout.pages) == 1 else f"{who}-{page_id}"
    photo = Photo(f"{pdf}.pdf page {who}", f"{pdf}-{who}", None, pdf) if pdf else Photo(f"{stem}.jpg", stem, None)
    return PageRead(photo, layout, page_id, values, readings)


def _to_fill(record) -> list[list[str]]:
    return [sorted(k for k, v in p.items() if v == TO_FILL) for p in record["players"]]


def _first_of_each(field: str) -> bool:
    return field.endswith("_1") or field.endswith("_c1")


@pytest.mark.parametrize("lid", ["harvest-dice-normal", "harvest-dice-advanced"])
def test_harvest_dice_has_no_number_to_fill(lid):
    layout = load_layout(lid)
    record = record_from_reads([_read(layout, "sheet", w, _first_of_each) for w in ("ann", "ben")], None)
    assert [p["name"] for p in record["players"]] == ["ann", "ben"]
    assert _to_fill(record) == [[], []]


@pytest.mark.parametrize("lid", ["imperial-settlers", "imperial-settlers-advanced"])
def test_imperial_settlers_leaves_favors_and_development_to_fill(lid):
    layout = load_layout(lid)
    reads = [_read(layout, page, w, _first_of_each) for w in ("ann", "ben") for page in ("empire", "village")]
    record = record_from_reads(reads, None)
    assert [p["name"] for p in record["players"]] == ["ann", "ben"]
    assert _to_fill(record) == [["development", "favors"], ["development", "favors"]]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_glassworks_overflow_left_to_fill_when_columns_are_unused(players):
    """A pad with players 1 and 3 playing, the other columns untouched: two players,
    both with their overflow to fill, whatever each player's count of columns."""
    layout = load_layout("river-valley-glassworks")
    used = (
        ("board_p1_r5_c1", "board_p1_r5_c2", "board_p3_r5_c4") if players > 2 else ("board_p1_r5_c1", "board_p1_r5_c2")
    )
    read = _read(layout, "pad", "pad", lambda f: f in used, players)
    record = record_from_reads([read], None)
    want = [[1, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0]][: 1 + (players > 2)]
    assert [p["columns"] for p in record["players"]] == want
    assert _to_fill(record) == [["overflow"]] * len(want)


def test_scanned_glassworks_overflow_is_an_error_for_score(tmp_path):
    layout = load_layout("river-valley-glassworks")
    read = _read(layout, "pad", "pad", lambda f: f.startswith(("board_p1_r5", "board_p2_r5_c2")))
    from sheetgen.cli import _numbers, _record_yaml

    path = tmp_path / "game.yaml"
    path.write_text(_record_yaml(_numbers(record_from_reads([read], None))), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", str(path)])
    assert result.exit_code == 1
    assert "players[0] 'Player 1': overflow: expected a whole number" in result.output
    assert "players[1] 'Player 2': overflow: expected a whole number" in result.output


def test_a_qr_player_count_is_ascii_digits_only():
    from sheetgen.layout.scanmarks import parse_payload

    assert parse_payload("sg1 harvest-dice-normal sheet 2 en abcdef12")["players"] == 2
    for count in ("²", "١", "0", "13", "+2", "02x"):
        assert parse_payload(f"sg1 harvest-dice-normal sheet {count} en abcdef12") is None, count


def test_a_scanned_pdfs_pages_are_a_players_in_turn():
    """A scanned PDF's pages cannot be named alice-empire, alice-village: a player's pages are
    the PDF's pages in turn, in any order (a duplex scan: the back after the front), the next
    player starting where a page comes again."""
    from sheetgen.scan.record import _player_keys

    layout = load_layout("imperial-settlers")
    pages = ["empire", "village", "village", "empire", "empire"]
    reads = [_read(layout, page, str(n + 1), _first_of_each, pdf="scans") for n, page in enumerate(pages)]
    assert _player_keys(reads) == ["scans-1", "scans-1", "scans-2", "scans-2", "scans-3"]
    record = record_from_reads(reads[:4], None)
    assert [p["name"] for p in record["players"]] == ["scans-1", "scans-2"]
