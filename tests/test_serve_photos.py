"""Photos of the sheets at the table, through the HTTP surface (Starlette's TestClient): a
photo read by `sheetgen scan`'s code fills its player's sheet, what it cannot decide stays
a doubt (with the photo's picture of the box) until a tap settles it, and the game then
scores as `sheetgen score` scores the scan's record with the same corrections typed in.
Every refusal is a 4xx with one line, in the game's language, and leaves the game as it
was; nothing sent is kept.

The tests that read a photo are slow (`--run-slow`); the refusals made before any reading
are not. The photos are made once per test run (tests/sheet_photos.py)."""

from __future__ import annotations

import json
import struct
import zlib

import pytest

pytest.importorskip("starlette")
pytest.importorskip("cv2")

import yaml  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from sheet_photos import sheet_photo  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from sheetgen.cli import cli  # noqa: E402
from sheetgen.errors import HistoryError  # noqa: E402
from sheetgen.history import live  # noqa: E402
from sheetgen.serve.app import Config, loopback_hosts, make_app, offered_layouts  # noqa: E402

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
VARIANT = ROOT / "docs" / "examples" / "harvest-dice-big-garden.yaml"
ANN = {
    "crosses": ["pig_1", "pig_2", "pig_3", "market_carrot_2", "market_salad_2"],
    "unsure": ["pig_4"],
    "cells": {"garden_r1_c1": "C", "garden_r1_c2": "?", "garden_r2_c1": "C"},
}
PAD = ["board_p1_r5_c1", "board_p3_r5_c2", "winner_p3"]  # River Valley Glassworks: a board copy a player
BOB = {"crosses": ["pig_1", "market_carrot_2", "market_salad_2"], "cells": {"garden_r1_c1": "S", "garden_r1_c2": "S"}}


EMPIRE_NUMBERS = {"score_favors": "3", "score_development": "12"}  # written by hand
PAD_NUMBERS = {"overflow_p1_count": "2", "overflow_p3_count": "4"}


def _numbers(doubts: list, written: dict) -> list:
    """(player, box) of the doubts over numbers written, each either read as written (to
    confirm) or left to type: never another number."""
    out = []
    for d in doubts:
        if d["kind"] in ("read", "number"):
            assert d["kind"] == "number" or d["value"] == written[d["box"]], d
            out.append((d["player"], d["box"]))
    return out


@pytest.fixture(scope="session")
def photos(tmp_path_factory):
    """The photos, made once: files named for their players, as `sheetgen scan` names them."""
    folder = tmp_path_factory.mktemp("photos")
    made = {
        "Ann": sheet_photo("harvest-dice-normal", **ANN),
        "Bob": sheet_photo("harvest-dice-normal", angle=-2.0, **BOB),
        "blank": sheet_photo("harvest-dice-normal"),
        "empire": sheet_photo(
            "imperial-settlers", "empire", crosses=["walls_1", "walls_2"], unsure=["walls_4"], written=EMPIRE_NUMBERS
        ),
        **{
            f"pad-{n}": sheet_photo("river-valley-glassworks", players=n, crosses=PAD, written=PAD_NUMBERS, dpi=170)
            for n in (3, 4)
        },
    }
    for name, data in made.items():
        (folder / f"{name}.jpg").write_bytes(data)
    return folder


def make(db, files=()):
    config = Config(offered_layouts(list(files)), db, loopback_hosts(8765) | {"testserver"})
    return TestClient(make_app(config), follow_redirects=False), config


@pytest.fixture
def server(tmp_path):
    return make(str(tmp_path / "history.sqlite"))


def start(client, config, players="Ann\nBob", layout="harvest-dice-normal", lang="en") -> str:
    r = client.post("/games", data={"token": config.page_token, "layout": layout, "players": players, "lang": lang})
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def send(client, config, gid, data, player=1, **headers):
    headers = {"x-sheetgen-token": config.page_token, "content-type": "image/jpeg", **headers}
    return client.post(f"/game/{gid}/photo?player={player}", content=data, headers=headers)


def post(client, config, path, body=None):
    return client.post(path, json=body or {}, headers={"x-sheetgen-token": config.page_token})


def mark(client, config, gid, player, box, after, before=None):
    body = {"player": player, "box": box, "before": before, "after": after}
    return post(client, config, f"/game/{gid}/mark", body)


def state(client, gid) -> dict:
    return client.get(f"/game/{gid}/state").json()


def unchanged(client, gid, players=2) -> bool:
    got = state(client, gid)
    return (got["version"], got["marks"], got["doubts"]) == (0, [{}] * players, [])


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def png_header(width: int, height: int) -> bytes:
    """A PNG file that says it is `width` x `height` pixels (its data is a single row)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


# --------------------------------------------------------------------------- refused before any reading


def test_a_photo_is_bounded_and_checked_before_it_is_read(server, monkeypatch):
    client, config = server
    gid = start(client, config)
    from sheetgen import api

    r = send(client, config, gid, b"\0" * (api.MAX_UPLOAD + 1))
    assert (r.status_code, r.text) == (413, "the file is over 30 MB: send a smaller photo\n")
    monkeypatch.setattr(api, "MAX_UPLOAD", 4096)  # a body sent in chunks is counted as it comes

    def chunks():
        for _ in range(5):
            yield b"x" * 1000

    assert send(client, config, gid, chunks()).status_code == 413
    monkeypatch.undo()
    too_many = "This file cannot be read as a photo of a sheet: photo: an image of over 110 megapixels; "
    cases = [
        (b"not a photo", "photo: not an image or a PDF that sheetgen can read (UnidentifiedImageError)"),
        (png_header(12_000, 12_000), too_many.split(": ", 1)[1] + "sheetgen reads no larger: make it smaller"),
        (
            png_header(31_000, 20),
            "photo: an image of 31000 x 20 pixels; sheetgen reads images of at most 30,000 pixels a side",
        ),
        (_pdf(25), "photo: 25 pages; sheetgen reads at most 24 sheets from one PDF"),
        (
            _pdf_bomb(65 * 2**20),
            "photo: a stream of the PDF inflates to more than 64 MB (or all of them together to more than 256 MB): "
            "not a page sheetgen reads",
        ),
    ]
    for data, reason in cases:
        r = send(client, config, gid, data)
        assert (r.status_code, r.text) == (422, f"This file cannot be read as a photo of a sheet: {reason}\n")
    assert unchanged(client, gid)


def _pdf(pages: int) -> bytes:
    import io

    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    c = Canvas(out)
    for _ in range(pages):
        c.showPage()
    c.save()
    return out.getvalue()


def _pdf_bomb(size: int) -> bytes:
    """A PDF of 64 KB whose one stream inflates to `size` bytes."""
    stream = zlib.compress(b"\0" * size, 9)
    return b"%PDF-1.4\n1 0 obj\n<< /Length 0 /Filter /FlateDecode >>\nstream\n" + stream + b"\nendstream\nendobj\n"


def test_a_photo_needs_the_token_a_player_and_a_game_that_takes_photos(tmp_path):
    plain = tmp_path / "plain.yaml"
    plain.write_text("id: plain-bosk\nextends: bosk\nscan_marks: false\n", encoding="utf-8")
    client, config = make(str(tmp_path / "history.sqlite"), [str(plain)])
    gid = start(client, config)
    r = client.post(f"/game/{gid}/photo?player=1", content=b"x", headers={"content-type": "image/jpeg"})
    assert (r.status_code, r.text) == (403, "the page's token is missing or stale: reload the page\n")
    r = send(client, config, gid, b"x", origin="http://evil.example")
    assert (r.status_code, r.text) == (403, "a request from another site is refused\n")
    for player in (0, 3, "x", "-1", "1e3"):
        r = send(client, config, gid, b"x", player=player)
        assert (r.status_code, r.text) == (400, "player: expected 1-2\n"), player
    r = send(client, config, gid, b"")
    assert (r.status_code, r.text) == (400, "no file in the request: send the photo itself as the body\n")
    assert client.post(f"/game/{'x' * 12}/photo?player=1", content=b"x").status_code == 403
    r = send(client, config, "A" * 12, b"x")
    assert (r.status_code, r.text) == (404, "no such game\n")
    assert unchanged(client, gid)
    # a pad with no scan marks takes no photo: said in the game's language
    pad = start(client, config, players="Ann, Bob", layout="plain-bosk", lang="fr")
    r = send(client, config, pad, b"x", player=0)
    assert (r.status_code, r.text) == (422, "Ces feuilles n'ont pas de marques de scan : cochez-les à l'écran.\n")
    assert unchanged(client, pad)


def test_a_page_of_bare_paper_is_no_sheet_and_nothing_sent_is_kept(server, monkeypatch, tmp_path):
    import io
    import tempfile

    from PIL import Image

    client, config = server
    gid = start(client, config, lang="fr")
    sent = tmp_path / "sent"
    sent.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(sent))  # where the bytes go while they are read
    paper = io.BytesIO()
    Image.new("RGB", (1200, 1700), (246, 244, 238)).save(paper, "JPEG")
    r = send(client, config, gid, paper.getvalue(), **{"content-disposition": 'attachment; filename="../x"'})
    assert (r.status_code, r.text) == (422, "Une page blanche : elle ne contient pas de feuille.\n")
    assert send(client, config, gid, b"GIF89a\x01").status_code == 422
    assert list(sent.iterdir()) == []
    assert unchanged(client, gid)


# --------------------------------------------------------------------------- doubts (no photo read)


def test_a_doubt_is_settled_by_a_mark_and_comes_back_with_undo():
    game = live.LiveGame("g" * 12, "harvest-dice-normal", "", "en", ["Ann"], [{"pig_1": True}])
    doubts = [{"player": 1, "box": "pig_4", "kind": "unsure"}, {"player": 1, "box": "garden_r1_c2", "kind": "cell"}]
    live.fill(game, {(1, "pig_1"): None, (1, "pig_2"): True, (1, "pig_4"): None, (1, "garden_r1_c2"): None}, doubts)
    assert (game.marks, game.doubts) == ([{"pig_2": True}], doubts)
    live.mark(game, 1, "pig_4", None, False)  # "empty": the box stays as it is, the doubt goes
    live.mark(game, 1, "garden_r1_c2", None, "S")
    assert (game.marks, game.doubts) == ([{"pig_2": True, "garden_r1_c2": "S"}], [])
    live.undo(game)
    live.undo(game)
    assert (game.marks, game.doubts) == ([{"pig_2": True}], doubts)
    live.undo(game)  # the photo itself
    assert (game.marks, game.doubts) == ([{"pig_1": True}], [])
    live.redo(game)
    live.redo(game)
    assert (game.marks, game.doubts) == ([{"pig_2": True}], [doubts[1]])
    # a later photo of the same boxes takes the doubts it leaves, and no other
    live.fill(game, {(1, "garden_r1_c2"): "T"}, [])
    assert (game.marks, game.doubts) == ([{"pig_2": True, "garden_r1_c2": "T"}], [])


def test_the_numbers_read_are_confirmed_at_once_and_come_back_with_undo():
    game = live.LiveGame("g" * 12, "imperial-settlers", "", "en", ["Ann", "Bob"], [{}, {}])
    doubts = [
        {"player": 1, "box": "score_favors", "kind": "read", "value": "3"},
        {"player": 1, "box": "walls_4", "kind": "unsure"},
        {"player": 2, "box": "score_favors", "kind": "read", "value": "5"},
        {"player": 2, "box": "score_development", "kind": "number"},
    ]
    live.fill(game, {(1, "score_favors"): "3", (2, "score_favors"): "5"}, doubts)
    assert live.confirm_read(game, 2) == 1  # Bob's only
    assert game.doubts == [doubts[0], doubts[1], doubts[3]]
    assert live.confirm_read(game) == 1  # everyone's: Ann's is left
    assert [d["kind"] for d in game.doubts] == ["unsure", "number"]
    assert game.marks == [{"score_favors": "3"}, {"score_favors": "5"}]  # the numbers stay as read
    with pytest.raises(HistoryError, match="^no number read is left to confirm$"):
        live.confirm_read(game)
    live.undo(game)
    live.undo(game)
    assert game.doubts == doubts
    live.redo(game)
    assert [d["box"] for d in game.doubts if d["kind"] == "read"] == ["score_favors"]


def test_confirming_the_numbers_read_over_http(server):
    client, config = server
    gid = start(client, config)
    r = post(client, config, f"/game/{gid}/confirm", {})
    assert (r.status_code, r.text) == (409, "no number read is left to confirm\n")
    r = post(client, config, f"/game/{gid}/confirm", {"player": 3})
    assert (r.status_code, r.text) == (400, "player: expected 1-2\n")
    assert unchanged(client, gid)


def test_finish_asks_before_keeping_a_game_with_doubts_and_the_pictures_go_with_it(server):
    client, config = server
    gid = start(client, config)
    app = client.app.state
    doubt = {"player": 1, "box": "pig_4", "kind": "unsure"}
    app.games.update(
        gid, lambda g: live.fill(g, {(1, "pig_1"): True, (1, "pig_4"): None}, [doubt]), {(1, "pig_4"): b"jpg"}
    )
    assert state(client, gid)["doubts"] == [doubt]
    crop = client.get(f"/game/{gid}/crop/1/pig_4")
    assert (crop.status_code, crop.headers["content-type"], crop.content) == (200, "image/jpeg", b"jpg")
    for path in (f"/game/{gid}/crop/1/pig_1", f"/game/{gid}/crop/2/pig_4", f"/game/{gid}/crop/1/{'x' * 120}"):
        assert client.get(path).status_code == 404
    r = post(client, config, f"/game/{gid}/finish", {"again": False})
    assert (r.status_code, r.text) == (409, "1 doubt left from the photos: keep the game all the same?\n")
    assert state(client, gid)["kept"] is None
    r = post(client, config, f"/game/{gid}/finish", {"again": False, "doubts": True})
    assert r.json()["kept"] == 1
    assert client.get(f"/game/{gid}/crop/1/pig_4").status_code == 404
    import sqlite3

    with sqlite3.connect(config.db) as conn:
        assert conn.execute("SELECT count(*) FROM live_crops").fetchone() == (0,)
    conn.close()


# --------------------------------------------------------------------------- photos read (slow)


def _scan_record(photos, tmp_path, *names) -> tuple[dict, str]:
    out = tmp_path / "scan.yaml"
    got = run("scan", *(photos / f"{n}.jpg" for n in names), "-o", out)
    assert got.exit_code == 0, got.output
    return yaml.safe_load(out.read_text()), got.stderr


@pytest.mark.slow
def test_a_photo_fills_its_players_sheet_with_what_sheetgen_scan_reads(server, photos, tmp_path):
    client, config = server
    gid = start(client, config)
    r = send(client, config, gid, (photos / "Ann.jpg").read_bytes(), player=1)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["version"] == 1 and got["marks"][1] == {}
    assert got["photo"] == {"marked": 7, "notes": []}  # five crosses, two carrots
    assert {(d["box"], d["kind"]) for d in got["doubts"]} == {("pig_4", "unsure"), ("garden_r1_c2", "cell")}
    scanned, said = _scan_record(photos, tmp_path, "Ann")
    assert "check them on the sheet: pig_4" in said and "type what it holds: garden_r1_c2" in said
    served = yaml.safe_load(client.get(f"/game/{gid}/record").text)["players"][0]
    # what the scan leaves '?' is a doubt on the screen, the cell empty until it is settled
    scanned = scanned["players"][0]
    scanned["garden"] = [row.replace("?", ".") for row in scanned["garden"]]
    assert served == scanned
    for box in ("pig_4", "garden_r1_c2"):
        picture = client.get(f"/game/{gid}/crop/1/{box}")
        assert picture.headers["content-type"] == "image/jpeg" and picture.content[:2] == b"\xff\xd8"
    assert client.get(f"/game/{gid}/crop/1/pig_1").status_code == 404
    # the photo is one change: undone and made again as one
    undone = post(client, config, f"/game/{gid}/undo").json()
    assert (undone["marks"], undone["doubts"]) == ([{}, {}], [])
    redone = post(client, config, f"/game/{gid}/redo").json()
    assert (redone["marks"], redone["doubts"]) == (got["marks"], got["doubts"])


@pytest.mark.slow
def test_a_sheet_filled_by_photos_then_settled_by_taps_scores_as_the_scan_with_the_same_corrections(
    server, photos, tmp_path
):
    client, config = server
    gid = start(client, config)
    for player, name in ((1, "Ann"), (2, "Bob")):
        assert send(client, config, gid, (photos / f"{name}.jpg").read_bytes(), player=player).status_code == 200
    assert mark(client, config, gid, 1, "pig_4", True).status_code == 200
    settled = mark(client, config, gid, 1, "garden_r1_c2", "S").json()
    assert settled["doubts"] == []
    # the scan's record, corrected by hand as its warnings ask: the unsure box ticked, the cell typed
    record, _ = _scan_record(photos, tmp_path, "Ann", "Bob")
    ann = record["players"][0]
    ann["pig"] += 1
    ann["garden"][0] = ann["garden"][0].replace("?", "S")
    path = tmp_path / "corrected.yaml"
    path.write_text(yaml.safe_dump(record, allow_unicode=True, sort_keys=False))
    scored = run("score", path, "--format", "json")
    assert scored.exit_code == 0, scored.output
    assert client.get(f"/game/{gid}/score.json").text == scored.stdout
    assert json.loads(scored.stdout)["players"][0]["breakdown"]["pig"] == 1  # four boxes: the first row's point
    done = post(client, config, f"/game/{gid}/finish", {"again": False}).json()
    assert done["kept"] == 1


@pytest.mark.slow
def test_a_photo_of_another_sheet_or_of_nothing_is_refused_and_changes_nothing(server, photos, tmp_path):
    import io

    from PIL import Image

    client, config = server
    gid = start(client, config)
    r = send(client, config, gid, (photos / "empire.jpg").read_bytes())
    assert (r.status_code, r.text) == (
        422,
        "This is a sheet of Imperial Settlers: Roll & Write — Empire and Village, not of Harvest Dice — player sheet.\n",
    )
    r = send(client, config, gid, (photos / "blank.jpg").read_bytes(), player=2)
    assert (r.status_code, r.text) == (422, "No box is marked on this sheet: is it the right photo?\n")
    cut = io.BytesIO()  # the photo's top quarter cut off: two of the corner squares with it
    with Image.open(photos / "Ann.jpg") as image:
        image.crop((0, image.height // 4, image.width, image.height)).save(cut, "JPEG")
    r = send(client, config, gid, cut.getvalue())
    assert (r.status_code, r.text) == (
        422,
        "The sheet's four corner squares are not all in the photo: photograph the whole sheet, flat and lit.\n",
    )
    assert unchanged(client, gid)
    # a sheet printed from another version of a variant's layout (same id, another hash)
    older = tmp_path / "big-garden.yaml"
    older.write_text(VARIANT.read_text().replace('en: "Harvest Dice — big garden"', 'en: "Big garden, first print"'))
    client2, config2 = make(str(tmp_path / "h2.sqlite"), [str(VARIANT)])
    gid2 = start(client2, config2, layout="harvest-dice-big-garden", lang="fr")
    r = send(client2, config2, gid2, sheet_photo(str(older), crosses=["pig_1"]))
    assert r.status_code == 422
    assert r.text.startswith(
        "Ce n'est pas une feuille de cette partie, ou elle a été imprimée d'une autre version de sa mise en page : "
        "photo: the sheet was printed from another version of layout 'harvest-dice-big-garden'"
    )
    assert unchanged(client2, gid2)


@pytest.mark.slow
def test_a_page_of_a_two_page_sheet_fills_that_page_and_asks_for_the_numbers_written(server, photos):
    import io

    from PIL import Image

    client, config = server
    gid = start(client, config, layout="imperial-settlers")
    got = send(client, config, gid, (photos / "empire.jpg").read_bytes(), player=2).json()
    ticked = [{k: v for k, v in m.items() if not k.startswith("score_")} for m in got["marks"]]
    assert ticked == [{}, {"walls_1": True, "walls_2": True}]
    assert [(d["player"], d["box"]) for d in got["doubts"] if d["kind"] == "unsure"] == [(2, "walls_4")]
    # the numbers written: each read as written, to confirm beside its picture, or to type
    assert _numbers(got["doubts"], EMPIRE_NUMBERS) == [(2, "score_favors"), (2, "score_development")]
    assert client.get(f"/game/{gid}/crop/2/score_favors").content[:2] == b"\xff\xd8"
    # typed, or a number read confirmed (the same number sent again): its doubt goes
    typed = mark(client, config, gid, 2, "score_favors", "3", before=got["marks"][1].get("score_favors")).json()
    assert [d["box"] for d in typed["doubts"]] == ["walls_4", "score_development"]
    record = yaml.safe_load(client.get(f"/game/{gid}/record").text)
    assert record["players"][1]["favors"] == 3
    # a scanner's TIFF of the same page twice: one picture a page
    pages = [Image.open(photos / "empire.jpg")] * 2
    tiff = io.BytesIO()
    pages[0].save(tiff, "TIFF", save_all=True, append_images=pages[1:])
    before = state(client, gid)
    r = send(client, config, gid, tiff.getvalue(), player=1, **{"content-type": "image/tiff"})
    assert (r.status_code, r.text) == (422, "Two pictures of the page “Empire”: one picture a page.\n")
    assert state(client, gid) == before


@pytest.mark.slow
def test_a_pads_photo_fills_every_players_column_when_printed_for_as_many_players(server, photos):
    client, config = server
    gid = start(client, config, players="Ann, Bob, Cy", layout="river-valley-glassworks")
    r = send(client, config, gid, (photos / "pad-4.jpg").read_bytes(), player=0)
    assert (r.status_code, r.text) == (
        422,
        "This sheet was printed for another number of players than this game's 3.\n",
    )
    assert unchanged(client, gid, 3)
    got = send(client, config, gid, (photos / "pad-3.jpg").read_bytes(), player=0).json()
    ticked = [{k: v for k, v in m.items() if not k.endswith("_count")} for m in got["marks"]]
    assert ticked == [{"board_p1_r5_c1": True}, {}, {"board_p3_r5_c2": True, "winner_p3": True}]
    # the overflow written by hand: read as written, to confirm, or to type
    assert _numbers(got["doubts"], PAD_NUMBERS) == [(1, "overflow_p1_count"), (3, "overflow_p3_count")]
