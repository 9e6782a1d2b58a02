"""`sheetgen serve` through its HTTP surface (Starlette's TestClient; the browser tests are
in test_serve_browser.py): a game started, marked, scored by the game's own scorer, undone
and redone, kept across a restart, finished into the history; the stable hooks; and every
kind of bad or hostile request refused with a one-line reason, the game unchanged."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("fontTools")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from sheetgen.cli import cli  # noqa: E402
from sheetgen.serve.app import CSP, Config, loopback_hosts, make_app, offered_layouts  # noqa: E402

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
VARIANT = ROOT / "docs" / "examples" / "harvest-dice-big-garden.yaml"


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "history.sqlite")


def make(db, files=(), join_token=None, **client) -> tuple[TestClient, Config]:
    config = Config(
        offered_layouts(list(files)),
        db,
        loopback_hosts(8765) | {"testserver"},
        join_token,
        f"http://192.0.2.7:8765/join?t={join_token}" if join_token else None,
    )
    return TestClient(make_app(config), follow_redirects=False, **client), config


@pytest.fixture
def server(db):
    return make(db)


def start(client, config, players="Ann\nBob", layout="harvest-dice-normal", lang="en") -> str:
    form = {"token": config.page_token, "layout": layout, "players": players, "lang": lang}
    r = client.post("/games", data=form)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def post(client, config, path, body=None, **headers):
    return client.post(path, json=body or {}, headers={"x-sheetgen-token": config.page_token, **headers})


def tick(client, config, gid, player, box, after=True, before=None):
    return post(client, config, f"/game/{gid}/mark", {"player": player, "box": box, "before": before, "after": after})


def state(client, gid) -> dict:
    return client.get(f"/game/{gid}/state").json()


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


# --------------------------------------------------------------------------- a game


def test_the_home_page_has_the_form_and_a_policy_without_inline_script(server):
    client, config = server
    r = client.get("/")
    assert r.status_code == 200
    html = r.text
    assert '<select name="layout">' in html and '<option value="harvest-dice-normal">' in html
    assert '<textarea name="players"' in html and '<select name="lang">' in html
    assert '<button type="submit">' in html
    csp = r.headers["content-security-policy"]
    assert csp == CSP and "script-src 'self';" in csp and "unsafe-inline" not in csp
    assert r.headers["x-frame-options"] == "DENY" and r.headers["referrer-policy"] == "same-origin"
    # no inline script: every <script> is the app's file or a JSON data block
    assert all(
        'src="/static/app.js"' in tag or 'type="application/json"' in tag for tag in re.findall(r"<script[^>]*>", html)
    )


def test_a_game_page_has_every_players_sheet_with_the_hooks(server):
    client, config = server
    gid = start(client, config)
    html = client.get(f"/game/{gid}").text
    for player in (1, 2):
        assert f'data-box="pig_1" data-player="{player}" data-kind="check"' in html
        assert f'data-box="garden_r3_c6" data-player="{player}" data-kind="write"' in html
        assert f'data-box="pig_bonus7" data-player="{player}" data-kind="round"' in html
        assert f'<td data-total data-player="{player}">' in html
    tick_boxes = re.findall(r'<g class="box"[^>]*data-kind="(?:check|round)"[^>]*>', html)
    assert len(tick_boxes) == 2 * (42 + 7 + 3 * 5)  # pig, its bonus circles, the markets but the pre-printed box
    assert all('role="checkbox" aria-checked="false"' in g and 'tabindex="0"' in g for g in tick_boxes)
    # the market's pre-printed boxes and the scan marks are not boxes to mark
    assert 'data-box="market_carrot_1"' not in html and "qr" not in re.sub(r"(?s)<section class=\"join\".*", "", html)


def test_a_tap_is_scored_by_the_games_own_scorer(server):
    client, config = server
    gid = start(client, config)
    for n in range(1, 8):  # a pig row and one more box: the second row's points
        assert tick(client, config, gid, 1, f"pig_{n}").status_code == 200
    r = post(client, config, f"/game/{gid}/mark", {"player": 2, "box": "garden_r1_c1", "before": None, "after": "c"})
    got = r.json()
    assert got["version"] == 8
    assert got["marks"][0] == {f"pig_{n}": True for n in range(1, 8)}
    assert got["marks"][1] == {"garden_r1_c1": "C"}
    ann, bob = got["score"]["players"]
    assert (ann["name"], ann["total"], ann["breakdown"]["pig"]) == ("Ann", 3, 3)
    assert (bob["name"], bob["total"], bob["breakdown"]["carrot"]) == ("Bob", 1, 1)
    assert got["score"]["winners"] == ["Ann"] and [ann["rank"], bob["rank"]] == [1, 2]
    # the app fills the final score line from the same score
    assert got["computed"][0]["score_pig"] == "3" and got["computed"][0]["score_total"] == "3"
    assert got["computed"][1]["score_carrot"] == "1"


def test_the_record_is_one_sheetgen_score_accepts_and_score_json_is_its_json(server, tmp_path):
    client, config = server
    gid = start(client, config)
    for box in ("pig_1", "pig_2", "market_tomato_2"):
        tick(client, config, gid, 1, box)
    post(client, config, f"/game/{gid}/mark", {"player": 2, "box": "garden_r2_c3", "before": None, "after": "T"})
    record = client.get(f"/game/{gid}/record")
    assert record.status_code == 200 and record.headers["content-type"].startswith("application/yaml")
    path = tmp_path / "game.yaml"
    path.write_text(record.text, encoding="utf-8")
    scored = run("score", str(path), "--format", "json")
    assert scored.exit_code == 0, scored.output
    served = client.get(f"/game/{gid}/score.json")
    assert served.headers["content-type"].startswith("application/json")
    assert json.loads(served.text) == json.loads(scored.stdout)
    assert served.text == scored.stdout
    # Bob's tomato scores his own market's boxes (the pre-printed one); Ann's second is hers
    assert json.loads(served.text)["players"][1]["breakdown"]["tomato"] == 1


def test_a_rule_warning_points_at_its_box(server):
    client, config = server
    gid = start(client, config)
    for box, letter in (("garden_r1_c1", "C"), ("garden_r3_c6", "C")):
        post(client, config, f"/game/{gid}/mark", {"player": 1, "box": box, "before": None, "after": letter})
    warnings = state(client, gid)["warnings"]
    at = [w for w in warnings if w["box"]]
    assert len(at) == 1 and at[0]["player"] == 0 and at[0]["box"] in ("garden_r1_c1", "garden_r3_c6")
    assert "not orthogonally adjacent" in at[0]["text"]


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"player": 1, "box": "garden_r1_c1", "after": "X"}, 422, "garden_r1_c1: expected one of C, S, T (or nothing)"),
        ({"player": 1, "box": "pig_43", "after": True}, 422, "player 1 has no box 'pig_43' on this sheet"),
        (
            {"player": 1, "box": "market_carrot_1", "after": True},
            422,
            "player 1 has no box 'market_carrot_1' on this sheet",
        ),
        ({"player": 1, "box": "score_total", "after": "99"}, 422, "score_total: the app fills this box"),
        ({"player": 1, "box": "player_name_box", "after": "Eve"}, 422, "player_name_box: the app fills this box"),
        ({"player": 1, "box": "pig_1", "after": "yes"}, 422, "pig_1: a box to tick is true or false"),
        ({"player": 3, "box": "pig_1", "after": True}, 400, "player: expected 1-2"),
        ({"player": True, "box": "pig_1", "after": True}, 400, "player: expected 1-2"),
        ({"player": 1, "box": ["pig_1"], "after": True}, 400, "box: expected a box's field name"),
    ],
)
def test_a_mark_the_sheet_cannot_hold_is_refused_with_one_line(server, body, status, reason):
    client, config = server
    gid = start(client, config)
    tick(client, config, gid, 1, "pig_1")
    before = state(client, gid)
    r = post(client, config, f"/game/{gid}/mark", body)
    assert (r.status_code, r.text) == (status, reason + "\n")
    assert state(client, gid) == before


def test_a_stale_page_is_refreshed_not_overwritten_and_other_taps_are_kept(server):
    client, config = server
    gid = start(client, config)
    # two pages showed version 0; both tap at once: different boxes both land
    assert tick(client, config, gid, 1, "pig_1").status_code == 200
    assert tick(client, config, gid, 2, "pig_1").status_code == 200
    # a third page, still showing pig_1 of Ann blank, unticks... nothing: it ticks, stale
    r = tick(client, config, gid, 1, "pig_1", after=False, before=None)
    assert r.status_code == 409
    assert r.json()["error"] == "pig_1 was changed meanwhile; the page shows the game as it is now"
    assert r.json()["state"]["marks"] == [{"pig_1": True}, {"pig_1": True}]
    assert state(client, gid)["version"] == 2


def test_undo_and_redo_are_kept_on_the_server_across_a_restart(db):
    client, config = make(db)
    gid = start(client, config)
    tick(client, config, gid, 1, "pig_1")
    tick(client, config, gid, 1, "pig_2")
    got = post(client, config, f"/game/{gid}/undo").json()
    assert got["marks"][0] == {"pig_1": True} and (got["undo"], got["redo"]) == (1, 1)
    # a new server on the same history: the game, its marks and its logs are there
    client2, config2 = make(db)
    assert state(client2, gid) == {**got, "version": 3}
    got = post(client2, config2, f"/game/{gid}/redo").json()
    assert got["marks"][0] == {"pig_1": True, "pig_2": True} and (got["undo"], got["redo"]) == (2, 0)
    post(client2, config2, f"/game/{gid}/undo")
    post(client2, config2, f"/game/{gid}/undo")
    r = post(client2, config2, f"/game/{gid}/undo")
    assert (r.status_code, r.text) == (409, "nothing to undo\n")
    assert state(client2, gid)["marks"] == [{}, {}]
    # a new mark clears what could be redone
    tick(client2, config2, gid, 2, "pig_3")
    assert (post(client2, config2, f"/game/{gid}/redo").status_code, state(client2, gid)["redo"]) == (409, 0)


def test_finish_keeps_the_game_in_the_history_with_its_duplicate_rule(db, monkeypatch):
    client, config = make(db)
    gid = start(client, config)
    for box in ("pig_1", "market_salad_2"):
        tick(client, config, gid, 1, box)
    post(client, config, f"/game/{gid}/mark", {"player": 2, "box": "garden_r1_c1", "before": None, "after": "S"})
    done = post(client, config, f"/game/{gid}/finish", {"again": False}).json()
    assert done["kept"] == 1
    listed = run("history", "--db", db, "--format", "json")
    assert listed.exit_code == 0
    kept = json.loads(listed.stdout)  # one row a player
    assert [(r["id"], r["player"], r["total"]) for r in kept] == [
        (1, "Ann", done_totals(done)[0]),
        (1, "Bob", done_totals(done)[1]),
    ]
    monkeypatch.setenv("SHEETGEN_DB", db)
    assert "Ann" in run("history").stdout
    # a finished game takes no more marks
    r = tick(client, config, gid, 1, "pig_2")
    assert (r.status_code, r.text) == (409, "the game is finished (kept as game 1)\n")
    assert (
        post(client, config, f"/game/{gid}/finish").status_code,
        post(client, config, f"/game/{gid}/undo").status_code,
    ) == (409, 409)
    # the same game played again is the same record: refused, unless kept again
    gid2 = start(client, config)
    for box in ("pig_1", "market_salad_2"):
        tick(client, config, gid2, 1, box)
    post(client, config, f"/game/{gid2}/mark", {"player": 2, "box": "garden_r1_c1", "before": None, "after": "S"})
    r = post(client, config, f"/game/{gid2}/finish", {"again": False})
    assert (r.status_code, r.text) == (
        409,
        "this game is already kept in the history (game 1): keep it a second time?\n",
    )
    assert state(client, gid2)["kept"] is None
    assert post(client, config, f"/game/{gid2}/finish", {"again": True}).json()["kept"] == 2


def done_totals(state: dict) -> list:
    return [p["total"] for p in state["score"]["players"]]


def test_a_variant_file_is_offered_and_its_record_names_the_file(db, tmp_path):
    client, config = make(db, [str(VARIANT)])
    assert config.layouts["harvest-dice-big-garden"] == str(VARIANT)
    gid = start(client, config, layout="harvest-dice-big-garden")
    tick(client, config, gid, 1, "pig_1")
    record = client.get(f"/game/{gid}/record").text
    assert record.startswith(f"layout: {VARIANT}\n")
    path = tmp_path / "game.yaml"
    path.write_text(record, encoding="utf-8")
    assert run("score", str(path)).exit_code == 0


def test_a_variant_that_takes_a_built_in_id_is_refused(tmp_path):
    from sheetgen.errors import UsageError

    copy = tmp_path / "hd.yaml"
    copy.write_text((ROOT / "layouts" / "harvest-dice-normal.yaml").read_text())
    with pytest.raises(
        UsageError, match="layout 'harvest-dice-normal' is offered already; give each variant its own id"
    ):
        offered_layouts([str(copy)])


def test_a_pad_game_is_one_sheet_with_a_column_a_player(server):
    client, config = server
    gid = start(client, config, players="Ann, Bob, Cy", layout="plante-bataille")
    html = client.get(f"/game/{gid}").text
    assert html.count('<section class="sheet"') == 1
    for n in (1, 2, 3):
        assert f'data-box="harvested_p{n}" data-player="{n}"' in html
    got = post(
        client, config, f"/game/{gid}/mark", {"player": 2, "box": "harvested_p2", "before": None, "after": "3+4"}
    )
    assert got.status_code == 200, got.text
    players = got.json()["score"]["players"]
    assert [(p["name"], p["total"]) for p in players] == [("Ann", 0), ("Bob", 7), ("Cy", 0)]
    assert got.json()["computed"][1]["total_p2"] == "7"


# --------------------------------------------------------------------------- bad and hostile requests


def test_starting_a_game_checks_the_form(server):
    client, config = server
    form = {"token": config.page_token, "layout": "harvest-dice-normal", "players": "Ann", "lang": "en"}
    cases = [
        ({"layout": "../../etc/passwd"}, "layout: not one this server offers"),
        ({"layout": str(VARIANT)}, "layout: not one this server offers"),
        ({"players": ""}, "players: type the players' names, one a line or comma separated"),
        ({"players": "Ann, ann"}, "players: two players have the same name"),
        ({"players": "A" * 41}, "players: a name is at most 40 characters"),
        ({"players": "Ann\x1b[31m"}, "players: a name holds no control characters"),
        ({"players": ",".join(f"P{n}" for n in range(9))}, "players: harvest-dice-normal is for 1-8 players, got 9"),
        ({"players": "Ann, Bob", "layout": "plante-bataille"}, "players: plante-bataille is for 3-12 players, got 2"),
        ({"lang": "de"}, "lang: expected fr or en"),
        ({"token": "stale"}, "the page's token is missing or stale: reload the page"),
    ]
    for change, reason in cases:
        r = client.post("/games", data={**form, **change})
        assert (r.status_code, r.text) == (403 if "token" in change else 400, reason + "\n"), change
    assert client.get("/").text.count('href="/game/') == 0


def test_requests_for_another_host_are_refused(server):
    client, config = server
    r = client.get("/", headers={"host": "evil.example"})
    assert (r.status_code, r.text) == (421, "this server does not answer to the host 'evil.example'\n")
    r = client.get("/", headers={"host": "127.0.0.1:8765"})
    assert r.status_code == 200


def test_cross_site_and_tokenless_changes_are_refused(server):
    client, config = server
    gid = start(client, config)
    body = {"player": 1, "box": "pig_1", "before": None, "after": True}
    r = post(client, config, f"/game/{gid}/mark", body, origin="http://evil.example")
    assert (r.status_code, r.text) == (403, "a request from another site is refused\n")
    r = post(client, config, f"/game/{gid}/mark", body, **{"sec-fetch-site": "cross-site"})
    assert (r.status_code, r.text) == (403, "a request from another site is refused\n")
    r = client.post(f"/game/{gid}/mark", json=body)
    assert (r.status_code, r.text) == (403, "the page's token is missing or stale: reload the page\n")
    r = client.post(f"/game/{gid}/mark", json=body, headers={"x-sheetgen-token": "x" + config.page_token})
    assert r.status_code == 403
    r = post(client, config, f"/game/{gid}/mark", body, origin="http://127.0.0.1:8765")
    assert r.status_code == 200
    assert state(client, gid)["version"] == 1


def test_bodies_are_size_limited_and_must_be_json_objects(server):
    client, config = server
    gid = start(client, config)
    headers = {"x-sheetgen-token": config.page_token, "content-type": "application/json"}
    big = json.dumps({"player": 1, "box": "pig_1", "after": True, "pad": "x" * 20_000})
    r = client.post(f"/game/{gid}/mark", content=big, headers=headers)
    assert (r.status_code, r.text) == (413, "the request body is over 16384 bytes\n")

    def chunks():
        for _ in range(20):
            yield b"x" * 1000

    r = client.post(f"/game/{gid}/mark", content=chunks(), headers=headers)
    assert (r.status_code, r.text) == (413, "the request body is over 16384 bytes\n")
    for text, reason in (
        ("not json", "the request body is not JSON"),
        ("[1, 2]", "the request body is not a JSON object"),
    ):
        r = client.post(f"/game/{gid}/mark", content=text, headers=headers)
        assert (r.status_code, r.text) == (400, reason + "\n")
    r = client.post(f"/game/{gid}/mark", content=b"\xff\xfe", headers=headers)
    assert r.status_code == 400
    assert state(client, gid)["version"] == 0


def test_unknown_games_and_files_are_404_and_no_path_is_opened(server):
    client, config = server
    for path in (
        "/game/nope",
        "/game/AAAAAAAAAAAA",
        "/game/../../etc/passwd/state",
        "/static/..%2fapp.py",
        "/static/pages.py",
        "/fonts/../../x.woff",
        "/fonts/serif.woff",
    ):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.text.count("\n") == 1 and "Traceback" not in r.text


def test_names_are_escaped_in_the_html_and_the_data(server):
    client, config = server
    gid = start(client, config, players='<script>alert(1)</script>\n"Bob" & <b>')
    for path in (f"/game/{gid}", f"/game/{gid}/board", "/"):
        html = client.get(path).text
        assert "<script>alert" not in html and "<b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or "\\u003cscript\\u003e" in html
    html = client.get(f"/game/{gid}").text
    data = re.search(r'<script type="application/json" id="state">(.*?)</script>', html).group(1)
    assert json.loads(data)["players"] == ["<script>alert(1)</script>", '"Bob" & <b>']


def test_with_lan_another_device_needs_the_join_link(db):
    token = "join-token-123"
    phone, config = make(db, join_token=token, client=("192.168.1.23", 50000))
    r = phone.get("/")
    assert (r.status_code, r.text) == (
        403,
        "open the join link (scan the QR code the server shows) to play from this device\n",
    )
    r = phone.get("/join?t=wrong")
    assert r.status_code == 403
    r = phone.get(f"/join?t={token}&next=/game/AAAAAAAAAAAA")
    assert r.status_code == 303 and r.headers["location"] == "/game/AAAAAAAAAAAA"
    assert phone.get("/").status_code == 200  # the cookie the join link set
    r = phone.get(f"/join?t={token}&next=http://evil.example/")
    assert r.headers["location"] == "/"
    # this machine needs no token; the pages show the join link as a QR code
    local, _ = make(db, join_token=token)
    html = local.get("/").text
    assert '<svg class="qr"' in html and f"join?t={token}" in html


def test_every_page_sheet_comes_from_the_display_list():
    """The SVG has a box for every markable box of the display list, the PDF's icons and
    texts, and no scan mark."""
    from sheetgen import api
    from sheetgen.layout.display import QR, Icon, Text
    from sheetgen.render.svg import standalone_svg

    layout = api.load("harvest-dice-normal")
    marked = layout.document("en", None, None, scan_marks=True).pages[0]
    assert any(isinstance(p, QR) for p in marked.prims) and "<image" not in standalone_svg(marked)
    # the table's sheets: the display list without its scan marks (the corner markers are black)
    page = api.table(layout, ["Ann"], "en").sheets[0].pages[0]
    svg = standalone_svg(page)
    assert not any(isinstance(p, QR) for p in page.prims) and 'fill="#000000"' not in svg
    for box in page.boxes():
        assert f'data-box="{box.field}"' in svg
    assert svg.count("<use ") == sum(isinstance(p, Icon) for p in page.prims) and "<clipPath" in svg
    texts = [p for p in page.prims if isinstance(p, Text)]
    assert svg.count("<text ") >= len(texts)


def test_a_record_from_marks_reads_as_a_filled_pdf_reads(tmp_path):
    """The same field values, in a filled PDF and given as marks, make the same record."""
    from pypdf import PdfReader, PdfWriter

    from sheetgen import api
    from sheetgen.render import render_pdf
    from sheetgen.scoring.pdfread import record_from_pdfs

    layout = api.load("harvest-dice-normal")
    values = {
        "pig_1": True,
        "pig_2": True,
        "market_salad_2": True,
        "garden_r1_c1": "C",
        "garden_r2_c4": "t",
        "player_name_box": "Ann",
    }
    writer = PdfWriter(clone_from=PdfReader(__import__("io").BytesIO(render_pdf(layout, fillable=True))))
    writer.set_need_appearances_writer(True)
    writer.update_page_form_field_values(
        writer.pages[0], {k: ("/Yes" if v is True else v) for k, v in values.items()}, auto_regenerate=False
    )
    path = tmp_path / "filled.pdf"
    with open(path, "wb") as f:
        writer.write(f)
    from_pdf = api.numbers(record_from_pdfs([str(path)]))
    assert api.record_from_marks(layout, [values]) == from_pdf
    assert from_pdf["players"][0]["garden"] == ["C.....", "...T..", "......"]


def test_a_history_from_before_games_in_progress_gains_their_table_and_keeps_its_games(db, tmp_path):
    """A version-2 history file (kept games only) opens for `serve` at the current version:
    the tables of games in progress (and of their photos' doubts) added, the kept games as
    they were."""
    import sqlite3

    from sheetgen.history import store

    record = tmp_path / "g.yaml"
    record.write_text(
        "layout: plante-bataille\nplayers:\n- {name: Ann, harvested: 5}\n- {name: Bob, harvested: 0}\n- {name: Cy, harvested: 0}\n"
    )
    assert run("score", str(record), "--save", "--db", db).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE live_crops")
        conn.execute("DROP TABLE live_games")
        conn.execute("PRAGMA user_version = 2")
    conn.close()
    client, config = make(db)
    gid = start(client, config)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (store.SCHEMA_VERSION,) == (4,)
        assert conn.execute("SELECT id FROM live_games").fetchall() == [(gid,)]
        assert conn.execute("SELECT name, total FROM players ORDER BY seat").fetchall() == [
            ("Ann", 5),
            ("Bob", 0),
            ("Cy", 0),
        ]
    conn.close()


def test_a_port_in_use_is_a_one_line_error(db):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", db])
    assert out.exit_code == 2
    assert re.fullmatch(
        rf"Error: --port: cannot listen on 127\.0\.0\.1:{port} \([^)]+\); give another --port\n", out.output
    )


@pytest.mark.slow
def test_the_command_serves_and_ctrl_c_stops_it_keeping_the_games(tmp_path):
    """`sheetgen serve` as a process: it prints its address, answers, and stops on Ctrl-C
    (SIGINT) with exit 0, a game begun kept for the next start."""
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = str(tmp_path / "h.sqlite")

    def serve():
        proc = subprocess.Popen(
            [sys.executable, "-m", "sheetgen", "serve", "--port", str(port), "--db", db],
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr.readline() == f"sheetgen serve: http://127.0.0.1:{port}/\n"
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
                    return proc, r.read().decode()
            except OSError:
                time.sleep(0.05)
        raise AssertionError("no answer")

    proc, home = serve()
    token = re.search(r'name="token" value="([^"]+)"', home).group(1)
    data = f"token={token}&layout=bosk&players=Ann%0ABob&lang=fr".encode()
    with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/games", data=data)) as r:
        gid = r.url.rsplit("/", 1)[1]
    # an open page listening for events does not hold the stop up
    events = urllib.request.urlopen(f"http://127.0.0.1:{port}/game/{gid}/events")
    assert events.readline() == b"retry: 1000\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=15)
    events.close()
    assert proc.returncode == 0, err
    assert err.endswith("stopped; the games in progress are kept\n") and "Traceback" not in err
    proc, home = serve()
    assert f'href="/game/{gid}"' in home and "Ann, Bob" in home
    proc.send_signal(signal.SIGINT)
    assert proc.wait(15) == 0


@pytest.mark.parametrize("layout_id", __import__("sheetgen.layout.resolve", fromlist=["x"]).builtin_ids())
def test_a_blank_record_and_a_sheet_with_no_marks_score_alike(layout_id):
    """api.blank_record (the game's own blank players) and the record read from sheets with
    nothing marked (api.table_record, as a blank filled PDF reads) score the same: zero."""
    from sheetgen import api
    from sheetgen.games import game_for

    layout = api.load(layout_id)
    lo, hi = game_for(layout).player_range(layout)
    names = ["Ann", "Bob", "Cy", "Di"][: max(lo, min(3, hi))]
    blank = api.score(api.blank_record(layout, names)).contract()
    read = api.score(api.table_record(api.table(layout, names, "en"), [{} for _ in names])).contract()
    # (their warnings may word the same emptiness by the form it takes: Bosk's trees or lines)
    assert {**blank, "warnings": []} == {**read, "warnings": []}
    assert [p["total"] for p in blank["players"]] == [0] * len(names)


def test_the_terminals_qr_code_reads_back():
    """The join link's QR code in the terminal (half blocks: a block is a light module, as
    a terminal draws light text on dark) decodes to the link."""
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    from sheetgen.serve.run import terminal_qr

    link = "http://192.0.2.7:8765/join?t=Zq3-abcdefghijklmnopqr"
    rows = []
    for line in terminal_qr(link).split("\n"):
        rows += [[255 if c in "█▀" else 0 for c in line], [255 if c in "█▄" else 0 for c in line]]
    picture = np.array(rows, dtype=np.uint8).repeat(8, axis=0).repeat(8, axis=1)
    assert cv2.QRCodeDetector().detectAndDecode(picture)[0] == link


def test_a_failure_inside_a_change_is_one_line_and_changes_nothing(db, monkeypatch):
    """An error of sheetgen itself while a change is applied: a 500 with one line, no
    traceback, and the change's transaction undone."""
    from sheetgen import api

    client, config = make(db)
    client = TestClient(client.app, raise_server_exceptions=False, follow_redirects=False)
    gid = start(client, config)
    tick(client, config, gid, 1, "pig_1")

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "table_score", broken)
    r = tick(client, config, gid, 1, "pig_2")
    assert (r.status_code, r.text) == (500, "internal error (RuntimeError); reload the page to see the game as it is\n")
    monkeypatch.undo()
    assert state(client, gid)["marks"][0] == {"pig_1": True} and state(client, gid)["version"] == 1
