"""`sheetgen serve` in a real browser: Playwright driving Debian's chromium-headless-shell
(`executable_path`; `playwright install` is never used). Marked slow (`--run-slow`); they
skip where Chromium is missing, and fail then under CI=true (.ci/run installs it).

A tap, the box's state, the server's state and the total; marks and undo kept across a
reload and a restart; two browsers seeing each other's taps; a phone (touch, 390 px) whose
boxes are at least 44 CSS px; the keyboard; and the SVG sheet against the PDF's picture.
Photos: a photo sent from the page fills the sheet with what `sheetgen scan` reads, its
doubts highlighted and settled by a tap, a number written by hand typed beside its
picture, a refused photo said and nothing changed, the pages served while a photo is read;
a finished game in the history and the standings, its exports downloaded and re-scored;
the new pages on a 360 px phone, in the dark, and the screen kept awake or said not to be."""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import socket
import threading
import time
import urllib.request

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("starlette")
pytest.importorskip("fontTools")
playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium-headless-shell"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHORT = 5000  # ms a page waits for what a change shows


def _chromium() -> str:
    found = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium-headless-shell")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs it (apt-get install chromium-headless-shell)")
        pytest.skip("chromium-headless-shell is not installed (apt-get install chromium-headless-shell)")
    return found


class LiveServer:
    """The app served by uvicorn in a thread, on a loopback port, as `sheetgen serve` runs it."""

    def __init__(self, db: str, port: int, hosts=()):
        self.db, self.port, self.hosts = db, port, frozenset(hosts)
        self.server = self.thread = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        from sheetgen.serve.app import Config, loopback_hosts, make_app, offered_layouts
        from sheetgen.serve.run import make_server

        self.app = make_app(Config(offered_layouts([]), self.db, loopback_hosts(self.port) | self.hosts))
        self.server = make_server(self.app, "127.0.0.1", self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(10)
        assert not self.thread.is_alive(), "the server did not stop"

    def new_game(self, players=("Ann", "Bob"), layout="harvest-dice-normal", lang="en") -> str:
        from urllib.parse import urlencode

        token = self.app.state.config.page_token
        data = urlencode({"token": token, "layout": layout, "players": "\n".join(players), "lang": lang}).encode()
        request = urllib.request.Request(f"{self.url}/games", data=data, method="POST")
        with urllib.request.urlopen(request) as r:  # follows the 303 to the game page
            return r.url.rsplit("/", 1)[1]

    def state(self, gid: str) -> dict:
        with urllib.request.urlopen(f"{self.url}/game/{gid}/state") as r:
            return json.loads(r.read())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def browser():
    path = _chromium()
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def live(tmp_path):
    server = LiveServer(str(tmp_path / "history.sqlite"), _free_port()).start()
    yield server
    if server.thread.is_alive():
        server.stop()


def open_game(browser, live, gid, query="", **context):
    page = browser.new_context(**context).new_page()
    errors: list = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live.url}/game/{gid}{query}")
    page.wait_for_selector("body[data-ready=true]")
    page.errors = errors
    return page


def box(page, player, field):
    return page.locator(f'.box[data-player="{player}"][data-box="{field}"]')


def version(page, n):
    page.wait_for_selector(f"body[data-version='{n}']", timeout=SHORT)


def test_a_game_starts_from_the_home_form(browser, live):
    page = browser.new_page()
    page.goto(live.url + "/")
    page.select_option("select[name=layout]", "harvest-dice-advanced")
    page.fill("textarea[name=players]", "Léa\nTom, Zoé")
    page.select_option("select[name=lang]", "fr")
    page.click("button[type=submit]")
    page.wait_for_selector("body[data-ready=true]")
    assert "/game/" in page.url
    assert [h.inner_text() for h in page.locator(".sheet h2").all()] == ["Léa", "Tom", "Zoé"]
    assert page.locator("nav.tools button[data-act=undo]").inner_text() == "Annuler"
    page.goto(live.url + "/")
    assert page.locator("section li a").count() == 1


def test_a_tap_ticks_the_box_keeps_it_on_the_server_and_scores_it(browser, live):
    gid = live.new_game()
    page = open_game(browser, live, gid)
    for n in range(1, 8):
        box(page, 1, f"pig_{n}").click()
        version(page, n)
    assert box(page, 1, "pig_7").get_attribute("aria-checked") == "true"
    assert box(page, 2, "pig_7").get_attribute("aria-checked") == "false"
    assert live.state(gid)["marks"][0] == {f"pig_{n}": True for n in range(1, 8)}
    assert page.locator('[data-total][data-player="1"]').inner_text() == "3"  # the pig's second row
    assert page.locator('[data-total][data-player="2"]').inner_text() == "0"
    # a garden cell: the picker of the game's vegetables, as icons
    box(page, 2, "garden_r1_c1").click()
    choices = page.locator("#picker button[data-letter]")
    assert choices.count() == 4 and page.locator("#picker button[data-letter='C'] svg use").count() == 1
    page.locator("#picker button[data-letter='C']").click()
    version(page, 8)
    assert box(page, 2, "garden_r1_c1").locator(".mark use").count() == 1
    assert live.state(gid)["marks"][1] == {"garden_r1_c1": "C"}
    # the final score line is the app's: filled, not asked
    assert box(page, 2, "score_carrot").get_attribute("data-value") == "1"
    box(page, 2, "score_total").click()
    assert page.locator("#numpad").is_hidden() and page.locator("#picker").is_hidden()
    assert page.errors == []


def test_marks_and_undo_survive_a_reload_and_a_restart(browser, live):
    gid = live.new_game()
    page = open_game(browser, live, gid)
    for n, field in enumerate(("pig_1", "pig_2", "market_salad_2"), 1):
        box(page, 1, field).click()
        version(page, n)
    page.click('[data-act="undo"]')
    version(page, 4)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert box(page, 1, "pig_2").get_attribute("aria-checked") == "true"
    assert box(page, 1, "market_salad_2").get_attribute("aria-checked") == "false"
    live.stop()
    live.start()  # the same history file, the same port: a restart
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert body_version(page) == "4"
    page.click('[data-act="redo"]')
    version(page, 5)
    assert box(page, 1, "market_salad_2").get_attribute("aria-checked") == "true"
    assert live.state(gid)["marks"][0] == {"pig_1": True, "pig_2": True, "market_salad_2": True}


def until(condition, seconds: float = SHORT / 1000) -> None:
    """Wait for `condition()` (the page's policy allows no script from a string, which
    Playwright's wait_for_function evaluates)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the page did not come to it"
        time.sleep(0.05)


def body_version(page) -> str:
    return page.locator("body").get_attribute("data-version")


def test_two_browsers_see_each_others_taps_and_play_a_game_to_the_end(browser, live, tmp_path):
    gid = live.new_game()
    ann = open_game(browser, live, gid, "?player=1")
    bob = open_game(browser, live, gid, "?player=2")
    box(ann, 1, "pig_1").click()
    version(bob, 1)  # told by the server (server-sent events), not reloaded
    assert box(bob, 1, "pig_1").get_attribute("aria-checked") == "true"
    box(bob, 2, "garden_r1_c1").click()
    bob.locator("#picker button[data-letter='T']").click()
    version(ann, 2)
    assert box(ann, 2, "garden_r1_c1").locator(".mark use").count() == 1
    # Ann completes her carrot market (the end of the game), each fills a garden row
    n = 2
    for k in range(2, 7):
        box(ann, 1, f"market_carrot_{k}").click()
        n += 1
        version(bob, n)
    for player, page, letter in ((1, ann, "C"), (2, bob, "S")):
        for col in range(1, 7):
            box(page, player, f"garden_r2_c{col}").click()
            page.locator(f"#picker button[data-letter='{letter}']").click()
            n += 1
            version(ann, n)
            version(bob, n)
    scores = {p["name"]: p["total"] for p in live.state(gid)["score"]["players"]}
    assert scores == {"Ann": 6 * 6 + 5 + 1, "Bob": 6 * 1 + 5 + 1}  # vegetables x market, a row, pig or tomato
    assert ann.locator('[data-total][data-player="1"]').inner_text() == "42"
    assert bob.locator('[data-total][data-player="1"]').inner_text() == "42"
    assert "no end condition" not in bob.locator(".scores .warnings").inner_text()
    bob.click('[data-act="finish"]')
    version(ann, n + 1)
    assert "Kept in the history as game 1" in ann.locator(".scores .kept").inner_text()
    from click.testing import CliRunner

    from sheetgen.cli import cli

    listed = CliRunner().invoke(cli, ["history", "--db", live.db, "--format", "csv"])
    assert listed.stdout.splitlines()[1:] == [
        f"1,{listed.stdout.splitlines()[1].split(',')[1]},harvest-dice,harvest-dice-normal,Ann,42,1,yes",
        f"1,{listed.stdout.splitlines()[1].split(',')[1]},harvest-dice,harvest-dice-normal,Bob,12,2,",
    ]
    assert ann.errors == [] and bob.errors == []


def test_a_phone_shows_one_sheet_a_section_at_a_time_with_boxes_of_44_px(browser, live):
    gid = live.new_game()
    phone = open_game(
        browser, live, gid, "?player=2", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    # the page itself never scrolls sideways (a part of the sheet wider than the screen does)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator('.sheet[data-sheet="1"]').is_hidden()
    assert phone.locator('.sheet[data-sheet="2"]').is_visible()
    sections = phone.locator("nav.sections button")
    titles = [sections.nth(i).inner_text() for i in range(sections.count())]
    assert titles == ["Garden", "Pig", "Market", "Final score"]
    measured = 0
    for i in range(len(titles)):
        sections.nth(i).tap()
        boxes = phone.locator('.sheet[data-sheet="2"] .box')
        for k in range(boxes.count()):
            b = boxes.nth(k)
            if not b.is_visible():
                continue
            rect = b.locator(".hit").bounding_box()
            if rect is None or rect["width"] == 0:
                continue  # outside this section
            frame = phone.locator('.sheet[data-sheet="2"] svg.page').bounding_box()
            inside = rect["x"] >= frame["x"] - 1 and rect["x"] + rect["width"] <= frame["x"] + frame["width"] + 1
            if (
                inside
                and rect["y"] >= frame["y"] - 1
                and rect["y"] + rect["height"] <= frame["y"] + frame["height"] + 1
            ):
                assert rect["width"] >= 44 and rect["height"] >= 44, (titles[i], b.get_attribute("data-box"), rect)
                measured += 1
    assert measured >= 42 + 7 + 18 + 15  # pig, its circles, the garden, the markets
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    sections.nth(1).tap()
    box(phone, 2, "pig_1").tap()
    version(phone, 1)
    assert live.state(gid)["marks"][1] == {"pig_1": True}
    assert phone.errors == []
    phone.goto(live.url + "/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_keyboard_reaches_every_box_and_space_toggles(browser, live):
    gid = live.new_game(players=("Ann",))
    page = open_game(browser, live, gid)
    wanted = {b.get_attribute("data-box") for b in page.locator(".box").all()}
    reached = set()
    page.locator("body").focus()
    for _ in range(len(wanted) + 40):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement && document.activeElement.dataset.box"))
    assert wanted <= reached
    box(page, 1, "pig_3").focus()
    page.keyboard.press(" ")
    version(page, 1)
    assert box(page, 1, "pig_3").get_attribute("aria-checked") == "true"
    box(page, 1, "garden_r2_c2").focus()
    page.keyboard.press(" ")
    page.wait_for_selector("#picker:not([hidden])")
    page.keyboard.press("Tab")  # from the first choice to the second: the salad
    page.keyboard.press("Enter")
    version(page, 2)
    assert live.state(gid)["marks"][0] == {"pig_3": True, "garden_r2_c2": "S"}


def test_a_name_is_text_in_the_sheet_never_markup(browser, live):
    name = '<b id="x">Ann</b>&<script>z()</script>'  # 38 characters: a name is at most 40
    gid = live.new_game(players=(name, "Bob"))
    page = open_game(browser, live, gid)
    shown = box(page, 1, "player_name_box").locator(".mark text")
    assert shown.text_content() == name
    assert page.locator("svg b, svg script, .sheets script, h2 b").count() == 0
    assert page.locator('.sheet[data-sheet="1"] h2').inner_text() == name
    assert page.errors == []


# --------------------------------------------------------------------------- the drawing itself

PX = 4.0  # CSS px a millimetre: the sheet 776 px wide


def _pictures(browser, page_display, move=None):
    """The SVG of `page_display` in Chromium (the app's fonts) and the PDF's picture, same size;
    `move`: a box's field, drawn 2 mm to the right in the SVG."""
    import pypdfium2 as pdfium
    from PIL import Image

    from sheetgen.layout.display import Document
    from sheetgen.render.pdf import pdf_bytes, placement
    from sheetgen.render.svg import standalone_svg
    from sheetgen.serve import assets

    w, h = round(page_display.width * PX), round(page_display.height * PX)
    faces = "".join(
        f"@font-face{{font-family:{family};font-weight:{weight};"
        f"src:url(data:font/woff;base64,{base64.b64encode(assets.font(face)).decode()})}}"
        for face, family, weight in (
            ("sans", "sg-sans", 400),
            ("sans-bold", "sg-sans", 700),
            ("condensed", "sg-condensed", 400),
            ("condensed-bold", "sg-condensed", 700),
        )
    )
    svg = standalone_svg(page_display).replace(
        f'width="{page_display.width:g}mm" height="{page_display.height:g}mm"', f'width="{w}" height="{h}"'
    )
    page = browser.new_page(viewport={"width": w, "height": h})
    page.set_content(
        f"<html><head><style>{faces} body{{margin:0}} svg{{display:block}}</style></head><body>{svg}</body></html>"
    )
    page.evaluate("document.fonts.ready.then(() => true)")
    if move:
        page.locator(f'[data-box="{move}"]').evaluate("e => e.setAttribute('transform', 'translate(2 0)')")
    shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
    page.close()
    doc = Document("t", "x", "x", "en", (page_display,))
    pdf = pdfium.PdfDocument(pdf_bytes(doc))
    picture = pdf[0].render(scale=PX * 25.4 / 72).to_pil().convert("L")
    at = placement(page_display, "a4")
    left, top = round(at.left * PX), round(at.top * PX)
    return shot, picture.crop((left, top, left + w, top + h))


def _worst_tile(a, b, blur, threshold=None, tile=32) -> float:
    """The largest difference in any tile (8 mm) of two pictures: the share of its pixels
    more than `threshold` grey levels apart after a 1-pixel blur, or (no threshold) the mean
    difference after a Gaussian blur of `blur` pixels."""
    import numpy as np
    from PIL import ImageFilter

    kind = ImageFilter.BoxBlur(blur) if threshold is not None else ImageFilter.GaussianBlur(blur)
    x = np.asarray(a.filter(kind), dtype=np.int16)
    y = np.asarray(b.filter(kind), dtype=np.int16)
    d = np.abs(x - y)
    d = (d > threshold).astype(float) if threshold is not None else d.astype(float)
    rows, cols = d.shape
    return max(
        d[i : i + tile, j : j + tile].mean()
        for i in range(0, rows - tile + 1, tile // 2)
        for j in range(0, cols - tile + 1, tile // 2)
    )


def test_the_svg_sheet_is_the_pdf_sheet(browser):
    """The drawings must not drift apart: the lines, boxes and icons match the PDF's to the
    pixel (a box moved by 2 mm is caught), the text closely (glyphs rasterised by another
    engine differ at their edges only)."""
    _chromium()
    from sheetgen import api
    from sheetgen.layout.display import Text
    from sheetgen.values import replace

    page = api.table(api.load("harvest-dice-normal"), ["Ann"], "en").sheets[0].pages[0]
    drawing = replace(page, prims=tuple(p for p in page.prims if not isinstance(p, Text)))
    svg, pdf = _pictures(browser, drawing)
    assert _worst_tile(svg, pdf, 1, threshold=64) < 0.03
    moved, _ = _pictures(browser, drawing, move="pig_1")
    assert _worst_tile(moved, pdf, 1, threshold=64) > 0.06
    svg, pdf = _pictures(browser, page)
    assert _worst_tile(svg, pdf, 2) < 20


# --------------------------------------------------------------------------- photos, history, at the table

ANN = {
    "crosses": ["pig_1", "pig_2", "pig_3", "market_carrot_2", "market_salad_2"],
    "unsure": ["pig_4"],
    "cells": {"garden_r1_c1": "C", "garden_r1_c2": "?", "garden_r2_c1": "C"},
}


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """The photos, made once: Ann's Harvest Dice sheet (an unsure box, a cell of no dice's
    colour), a blank one, an Imperial Settlers empire page."""
    from sheet_photos import sheet_photo

    folder = tmp_path_factory.mktemp("photos")
    (folder / "Ann.jpg").write_bytes(sheet_photo("harvest-dice-normal", **ANN))
    (folder / "blank.jpg").write_bytes(sheet_photo("harvest-dice-normal"))
    # favours written as a number (read); development as no number ("x": left to type)
    written = {"score_favors": "3", "score_development": "x"}
    (folder / "empire.jpg").write_bytes(
        sheet_photo("imperial-settlers", "empire", crosses=["walls_1"], written=written)
    )
    return folder


PHOTO_INPUT = '.photo[data-player="{n}"] input[data-photo]:not([capture])'


def send_photo(page, player, path):
    page.set_input_files(PHOTO_INPUT.format(n=player), str(path))


def status(page, player):
    return page.locator(f'.photo[data-player="{player}"] .photo-status')


def test_a_photo_fills_the_sheet_with_what_scan_reads_and_a_tap_settles_each_doubt(browser, live, photos):
    from sheetgen.scan.record import read_photos

    gid = live.new_game()
    page = open_game(browser, live, gid)
    send_photo(page, 1, photos / "Ann.jpg")
    version(page, 1)
    read = read_photos([str(photos / "Ann.jpg")])[0]  # what `sheetgen scan` reads of it
    ticked = {b.get_attribute("data-box") for b in page.locator('.box[data-player="1"][aria-checked="true"]').all()}
    assert ticked == {f for f, v in read.values.items() if v is True}
    assert box(page, 1, "garden_r1_c1").get_attribute("data-value") == read.values["garden_r1_c1"] == "C"
    unsure = {
        b.get_attribute("data-box"): b.get_attribute("data-unsure") for b in page.locator(".box[data-unsure]").all()
    }
    assert unsure == {"pig_4": "unsure", "garden_r1_c2": "cell"}
    assert read.readings["pig_4"] == "unsure" and read.values["garden_r1_c2"] == "?"
    assert status(page, 1).inner_text() == "Filled in from the photo: 7 boxes marked, 2 doubts."
    assert page.locator('[data-doubts][data-player="1"]').inner_text() == "2"
    assert page.locator(".scores .doubts-left").inner_text() == "2 doubts left from the photos: tap the orange boxes."
    # a tap on the orange box: the photo's picture of it, and one tap says what the paper shows
    box(page, 1, "pig_4").click()
    dialog = page.locator("#doubt")
    dialog.locator("img.crop").wait_for()
    until(lambda: page.evaluate("document.querySelector('#doubt img.crop').naturalWidth") > 0)
    dialog.locator('[data-answer="true"]').click()
    version(page, 2)
    assert box(page, 1, "pig_4").get_attribute("aria-checked") == "true"
    assert box(page, 1, "pig_4").get_attribute("data-unsure") is None
    # the cell, from the list of doubts: its picture beside the vegetables to choose from
    item = page.locator('section.doubts li[data-box="garden_r1_c2"]')
    assert item.locator("img.crop").get_attribute("src") == f"/game/{gid}/crop/1/garden_r1_c2"
    item.locator("button[data-letter='S']").click()
    version(page, 3)
    assert page.locator(".box[data-unsure]").count() == 0 and page.locator("section.doubts").is_hidden()
    assert live.state(gid)["marks"][0]["garden_r1_c2"] == "S" and live.state(gid)["doubts"] == []
    total = live.state(gid)["score"]["players"][0]["total"]
    assert page.locator('[data-total][data-player="1"]').inner_text() == str(total)
    assert page.errors == []


def test_a_number_written_by_hand_is_shown_read_or_typed_beside_its_picture(browser, live, photos):
    gid = live.new_game(layout="imperial-settlers")
    page = open_game(browser, live, gid)
    send_photo(page, 2, photos / "empire.jpg")
    page.wait_for_selector("body[data-version='1']", timeout=30_000)  # (the recogniser loaded, the first time)
    assert status(page, 2).inner_text() == "Filled in from the photo: 1 box marked, 2 doubts."
    assert [b.get_attribute("data-box") for b in page.locator(".box[data-unsure=read]").all()] == ["score_favors"]
    assert [b.get_attribute("data-box") for b in page.locator(".box[data-unsure=number]").all()] == [
        "score_development"
    ]
    # the number read, beside its picture, to confirm (or correct)
    item = page.locator('section.doubts li[data-box="score_favors"]')
    assert item.locator(".question").inner_text() == "Read from the photo: is it the number written here?"
    until(lambda: item.locator("img.crop").evaluate("i => i.naturalWidth") > 0)
    assert item.locator("input").input_value() == "3"
    item.locator("input").press("Enter")
    version(page, 2)
    assert box(page, 2, "score_favors").get_attribute("data-value") == "3"
    # or every number read taken as read at once: one step, which undo takes back
    confirm = page.locator('section.doubts [data-act="confirm"]')
    assert confirm.is_hidden()
    page.click('[data-act="undo"]')
    version(page, 3)
    assert confirm.inner_text() == "Keep the number read as it is"
    confirm.click()
    version(page, 4)
    assert confirm.is_hidden() and box(page, 2, "score_favors").get_attribute("data-value") == "3"
    item = page.locator('section.doubts li[data-box="score_development"]')
    assert item.locator(".question").inner_text() == "Type the number written here:"
    assert item.locator("input").input_value() == ""
    # on the sheet: the box opens the number pad with the photo's picture of it
    box(page, 2, "score_development").click()
    page.wait_for_selector("#numpad:not([hidden]) img.crop:not([hidden])")
    assert page.locator("#numpad label span").inner_text() == "Type the number written here:"
    page.fill("#numpad input", "2")
    page.click("#numpad button[type=submit]")
    version(page, 5)
    got = live.state(gid)
    assert got["doubts"] == [] and (got["marks"][1]["score_favors"], got["marks"][1]["score_development"]) == ("3", "2")
    assert page.errors == []


def test_a_refused_photo_says_why_on_every_page_and_changes_nothing(browser, live, photos):
    gid = live.new_game(lang="fr")
    page = open_game(browser, live, gid)
    other = open_game(browser, live, gid)
    send_photo(page, 2, photos / "blank.jpg")
    reason = "Aucune case n'est cochée sur cette feuille : est-ce la bonne photo ?"
    page.wait_for_selector('.photo[data-player="2"] .photo-status.refused', timeout=30_000)
    assert status(page, 2).inner_text() == reason
    other.wait_for_selector('.photo[data-player="2"] .photo-status.refused', timeout=SHORT)
    assert status(other, 2).inner_text() == reason
    assert body_version(page) == "0" and page.locator('.box[aria-checked="true"]').count() == 0
    assert live.state(gid)["marks"] == [{}, {}]
    refused = "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)"
    assert page.errors == [refused] and other.errors == []


def test_the_pages_are_served_while_a_photo_is_read_and_hear_its_steps(live, photos, tmp_path):
    """The photo's reading runs in a worker thread: the game's state is answered meanwhile,
    and its pages are told each step (`photo` events)."""
    from sheet_photos import sheet_photo

    _chromium()
    gid = live.new_game()
    big = sheet_photo("harvest-dice-normal", crosses=["pig_1"], dpi=300, canvas=(3000, 4000))  # 12 MP
    token = live.app.state.config.page_token
    heard: list = []

    def listen():
        with urllib.request.urlopen(f"{live.url}/game/{gid}/events", timeout=30) as stream:
            event = None
            for line in stream:
                text = line.decode().strip()
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "photo":
                    heard.append(json.loads(text[6:])["stage"])
                    if heard[-1] in ("done", "refused"):
                        return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    time.sleep(0.3)
    done = {}

    def upload():
        request = urllib.request.Request(
            f"{live.url}/game/{gid}/photo?player=1",
            data=big,
            method="POST",
            headers={"x-sheetgen-token": token, "content-type": "image/jpeg"},
        )
        with urllib.request.urlopen(request, timeout=60) as r:
            done["state"] = json.loads(r.read())
        done["at"] = time.monotonic()

    sender = threading.Thread(target=upload)
    sender.start()
    answered = []
    while sender.is_alive():
        began = time.monotonic()
        live.state(gid)
        answered.append((began, time.monotonic()))
        time.sleep(0.05)
    sender.join()
    listener.join(10)
    assert done["state"]["marks"][0] == {"pig_1": True}
    assert any(end < done["at"] - 0.2 for _, end in answered), "no page was answered while the photo was read"
    assert heard == ["queued", "decode", "find", "read", "fill", "done"]


def test_a_finished_game_is_in_the_history_and_the_standings_and_its_exports_re_score(browser, live, photos, tmp_path):
    from click.testing import CliRunner

    from sheetgen.cli import cli

    gid = live.new_game()
    page = open_game(browser, live, gid)
    send_photo(page, 1, photos / "Ann.jpg")
    version(page, 1)
    box(page, 2, "pig_1").click()
    version(page, 2)
    totals = [page.locator(f'[data-total][data-player="{n}"]').inner_text() for n in (1, 2)]
    # the exports, downloaded
    files = {}
    for label in ("Record (YAML)", "Score (CSV)", "Sheets as marked (PDF)"):
        with page.expect_download() as got:
            page.click(f"section.exports a:text-is('{label}')")
        files[label] = tmp_path / got.value.suggested_filename
        got.value.save_as(files[label])
    runner = CliRunner()
    for path in (files["Record (YAML)"], files["Sheets as marked (PDF)"]):
        scored = runner.invoke(cli, ["score", str(path), "--format", "json"])
        assert scored.exit_code == 0, scored.output
        assert [str(p["total"]) for p in json.loads(scored.stdout)["players"]] == totals, path.name
    # finish: two doubts are left, and the page asks first
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click('[data-act="finish"]')
    version(page, 3)
    assert asked == ["2 doubts are left from the photos. Keep the game all the same?"]
    page.goto(live.url + "/history?lang=en")
    row = page.locator("table.history tbody tr").first
    assert row.locator("td").nth(3).inner_text() == "Ann, Bob"
    assert row.locator("td").nth(5).inner_text() == ", ".join(totals)
    row.locator("td a").first.click()
    page.wait_for_selector("body[data-ready=true]")
    assert page.url.endswith("/history/1?lang=en")
    assert box(page, 1, "pig_2").get_attribute("aria-checked") == "true"  # the sheets as they were marked
    assert box(page, 2, "pig_1").get_attribute("aria-checked") == "true"
    page.goto(live.url + "/stats?lang=en")
    stats = page.locator('section.standing[data-game="harvest-dice"] table tbody tr')
    assert sorted(stats.nth(k).locator("td").first.inner_text() for k in range(stats.count())) == ["Ann", "Bob"]
    assert page.locator("svg.plot polyline").count() == 2
    assert page.errors == []


def test_every_page_fits_a_360_px_phone_and_follows_the_dark_setting(browser, live, photos):
    gid = live.new_game()
    page = open_game(browser, live, gid)
    send_photo(page, 1, photos / "Ann.jpg")
    version(page, 1)
    page.click('[data-act="finish"]')  # (no dialog handler: dismissed, the game goes on)
    page.context.close()
    other = live.new_game(players=("Léa", "Tom"), lang="fr")  # a game kept: its page too
    request = urllib.request.Request(
        f"{live.url}/game/{other}/mark",
        data=json.dumps({"player": 1, "box": "pig_1", "before": None, "after": True}).encode(),
        headers={"x-sheetgen-token": live.app.state.config.page_token, "content-type": "application/json"},
    )
    urllib.request.urlopen(request).close()
    finish = urllib.request.Request(
        f"{live.url}/game/{other}/finish",
        data=b"{}",
        headers={"x-sheetgen-token": live.app.state.config.page_token, "content-type": "application/json"},
    )
    urllib.request.urlopen(finish).close()
    for dark in (False, True):
        phone = browser.new_context(
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
            color_scheme="dark" if dark else "light",
        ).new_page()
        for path in (f"/game/{gid}?player=1", "/", "/history", "/stats?lang=fr", "/history?lang=fr", "/history/1"):
            phone.goto(live.url + path)
            phone.wait_for_selector("body[data-ready=true]")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 360, (path, dark)
            background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == ("rgb(23, 24, 26)" if dark else "rgb(243, 241, 234)"), (path, background)
        phone.goto(f"{live.url}/game/{gid}?player=1")
        phone.wait_for_selector("body[data-ready=true]")
        # the doubts are easy to find: listed, each with buttons of 44 px at least
        assert phone.locator("section.doubts li").count() == 2
        for button in phone.locator("section.doubts li button").all():
            rect = button.bounding_box()
            assert rect["height"] >= 44 and rect["x"] + rect["width"] <= 360
        phone.context.close()


def test_the_screen_is_kept_awake_or_said_not_to_be(browser, tmp_path):
    """On this computer (a secure context) the page asks for a wake lock and says nothing;
    over plain http by a network name (the LAN), the browser gives no wake lock: a quiet
    line says so, and the page works."""
    path = _chromium()
    port = _free_port()
    server = LiveServer(str(tmp_path / "h.sqlite"), port, hosts=(f"sheetgen.test:{port}",)).start()
    try:
        gid = server.new_game()
        page = open_game(browser, server, gid)
        assert page.evaluate("window.isSecureContext") and page.locator(".awake").is_hidden()
        lan = browser.browser_type.launch(
            executable_path=path, args=[*ARGS, "--host-resolver-rules=MAP sheetgen.test 127.0.0.1"]
        )
        try:
            page = lan.new_page()
            page.goto(f"http://sheetgen.test:{port}/game/{gid}")
            page.wait_for_selector("body[data-ready=true]")
            assert not page.evaluate("window.isSecureContext")
            assert page.locator(".awake").inner_text() == (
                "The screen may go to sleep: the browser keeps it awake only over https or on this computer."
            )
            box(page, 1, "pig_1").click()
            version(page, 1)
        finally:
            lan.close()
    finally:
        server.stop()
