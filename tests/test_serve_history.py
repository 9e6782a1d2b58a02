"""The history's pages and what a game gives to take away, through the HTTP surface:
/history lists the games `sheetgen history` lists (the same filters, the same CSV and
JSON), a kept game opens its final table and, when it was played at the table, its sheets
as they were marked; /stats gives `sheetgen stats`'s standings and a plot of each
player's scores; a game is removed as `history --remove` removes it. A game's record,
score and PDF re-score to what the page showed."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from sheetgen.cli import cli  # noqa: E402
from sheetgen.serve.app import Config, loopback_hosts, make_app, offered_layouts  # noqa: E402

EMPTY = {"garden": ["......", "......", "......"], "market": {"carrot": 1, "salad": 1, "tomato": 1}}
GAMES = [  # (date, layout, players: {name: fields}); a Harvest Dice player's pig alone scores
    ("2026-01-05T20:00", "harvest-dice-normal", {"Ann": {"pig": 9}, "Bob": {"pig": 14}}),
    ("2026-02-10T21:30", "harvest-dice-normal", {"ann": {"pig": 20}, "Robert": {"pig": 3}}),
    ("2026-03-01", "plante-bataille", {"Ann": {"harvested": 5}, "Bob": {"harvested": 9}, "Cy": {"harvested": 2}}),
]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def kept(tmp_path):
    """A history of three games kept with `sheetgen score --save`, and a server on it."""
    db = str(tmp_path / "history.sqlite")
    for n, (date, layout, players) in enumerate(GAMES):
        lines = [f"layout: {layout}", f"date: '{date}'", "players:"]
        for name, fields in players.items():
            more = EMPTY if layout.startswith("harvest") else {}
            lines.append(f"  - {json.dumps({'name': name, **more, **fields})}")
        path = tmp_path / f"g{n}.yaml"
        path.write_text("\n".join(lines) + "\n")
        assert run("score", path, "--save", "--db", db).exit_code == 0
    config = Config(offered_layouts([]), db, loopback_hosts(8765) | {"testserver"})
    return TestClient(make_app(config), follow_redirects=False), config


def cli_out(config, command, *args) -> str:
    got = run(command, "--db", config.db, *args)
    assert got.exit_code == 0, got.output
    return got.stdout


def rows(html: str) -> list[list[str]]:
    """The history page's table: each row's cells, as text."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)
    ]


def test_the_history_page_lists_what_sheetgen_history_lists(kept):
    client, config = kept
    page = client.get("/history?lang=en")
    assert page.status_code == 200 and "server-timing" in page.headers
    assert rows(page.text) == [
        ["3", "2026-03-01", "Plante Bataille — score pad", "Ann, Bob, Cy", "Bob", "5, 9, 2"],
        ["2", "2026-02-10 21:30", "Harvest Dice — player sheet", "Ann, Robert", "Ann", "10, 1"],
        ["1", "2026-01-05 20:00", "Harvest Dice — player sheet", "Ann, Bob", "Bob", "3, 6"],
    ]
    table = cli_out(config, "history", "--lang", "en").splitlines()[2:]
    assert [line.split()[0] for line in table] == ["3", "2", "1"]
    # the same filters as the command, the same games and the same files
    for query, args in (
        ("game=harvest-dice", ["--game", "harvest-dice"]),
        ("player=ANN&since=2026-02-01", ["--player", "ANN", "--since", "2026-02-01"]),
        ("until=2026-02-10", ["--until", "2026-02-10"]),
        ("player=Bob&alias=Robert%3DBob", ["--player", "Bob", "--alias", "Robert=Bob"]),
        ("alias=Robert%3DBob%2C+ann%3DAnnie", ["--alias", "Robert=Bob", "--alias", "ann=Annie"]),
        ("game=bosk", ["--game", "bosk"]),
    ):
        for fmt in ("csv", "json"):
            served = client.get(f"/history.{fmt}?{query}")
            assert served.status_code == 200
            assert served.text == cli_out(config, "history", "--format", fmt, *args), (query, fmt)
        kept_ids = dict.fromkeys(
            str(r["id"]) for r in json.loads(cli_out(config, "history", "--format", "json", *args))
        )
        html = client.get(f"/history?{query}").text
        assert ([r[0] for r in rows(html)] if "<tbody>" in html else []) == list(kept_ids), query
    assert "No games kept yet." in client.get("/history?game=bosk&lang=en").text
    assert "Aucune partie gardée pour l'instant." in client.get("/history?game=bosk&lang=fr").text
    download = client.get("/history.csv?download")
    assert download.headers["content-disposition"] == 'attachment; filename="history.csv"'


def test_the_history_page_shows_the_newest_games_and_offers_them_all(kept, monkeypatch):
    from sheetgen.serve import pages

    client, config = kept
    monkeypatch.setattr(pages, "HISTORY_SHOWN", 2)
    monkeypatch.setattr("sheetgen.serve.app.pages.HISTORY_SHOWN", 2)
    html = client.get("/history?lang=en").text
    assert [r[0] for r in rows(html)] == ["3", "2"]
    assert "2 of 3 games shown." in html and 'href="/history?lang=en&amp;limit=0"' in html
    assert [r[0] for r in rows(client.get("/history?lang=en&limit=0").text)] == ["3", "2", "1"]


def test_the_standings_are_sheetgen_stats_with_a_plot_of_each_players_scores(kept):
    client, config = kept
    for query, args in (
        ("", []),
        ("alias=Robert%3DBob", ["--alias", "Robert=Bob"]),
        ("player=bob", ["--player", "bob"]),
    ):
        for fmt in ("csv", "json"):
            assert client.get(f"/stats.{fmt}?{query}").text == cli_out(config, "stats", "--format", fmt, *args)
    html = client.get("/stats?lang=fr&alias=Robert%3DBob").text
    harvest = html.split('data-game="harvest-dice"', 1)[1].split("</section>", 1)[0]
    assert "<h2>Harvest Dice</h2>" in harvest
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", harvest)]
    assert cells[1:] == [["Ann", "2", "1", "50 %", "6,5", "10"], ["Bob", "2", "1", "50 %", "3,5", "6"]]
    assert cli_out(config, "stats", "--alias", "Robert=Bob", "--lang", "fr").splitlines()[2:4] == [
        "harvest-dice     Ann           2          1           50 %      6,5        10",
        "harvest-dice     Bob           2          1           50 %      3,5         6",
    ]
    # the plot: a line a player, a point a game they played, each naming its score
    plot = harvest.split('<svg class="plot"', 1)[1].split("</svg>", 1)[0]
    assert plot.count("<polyline") == 2 and plot.count("<circle") == 4
    assert (
        "<title>Ann: 3 (2026-01-05 20:00, #1)</title>" in plot
        and "<title>Bob: 1 (2026-02-10 21:30, #2)</title>" in plot
    )
    assert '<ul class="legend">' in harvest and "cdn" not in html.lower() and "<script src" not in plot


def test_bad_filters_are_refused_in_one_line(kept):
    client, _ = kept
    for path, reason in (
        ("/history?since=yesterday", "since 'yesterday': expected an ISO date like 2026-11-30 or 2026-11-30T20:15"),
        ("/stats.csv?until=2026-13-01", "until '2026-13-01': expected an ISO date like 2026-11-30 or 2026-11-30T20:15"),
        ("/history?alias=Bob", "alias 'Bob': expected OLD=NEW, e.g. Bob=Robert"),
        ("/history?player=" + "x" * 101, "player: at most 100 characters"),
        ("/history.xml", "no such file"),
        ("/history/99", "no game 99 in the history"),
        ("/history/99999999999999999999999", "no game 99999999999999999999999 in the history"),
    ):
        r = client.get(path)
        assert (r.status_code, r.text) == (404 if "file" in reason or "no game" in reason else 400, reason + "\n"), path


def test_names_are_escaped_on_the_history_pages(tmp_path):
    db = str(tmp_path / "h.sqlite")
    path = tmp_path / "g.yaml"
    name = '<img src=x onerror="z()">'
    path.write_text(f"layout: harvest-dice-normal\nplayers:\n- {json.dumps({'name': name, 'pig': 3, **EMPTY})}\n")
    assert run("score", path, "--save", "--db", db).exit_code == 0
    client = TestClient(make_app(Config(offered_layouts([]), db, loopback_hosts(8765) | {"testserver"})))
    for page in ("/history", "/stats", "/history/1", f"/history?player={name}"):
        html = client.get(page).text
        assert "<img src=x" not in html and "&lt;img src=x onerror=&quot;z()&quot;&gt;" in html, page


def _play(client, config, players="Ann\nBob") -> str:
    r = client.post(
        "/games", data={"token": config.page_token, "layout": "harvest-dice-normal", "players": players, "lang": "en"}
    )
    gid = r.headers["location"].rsplit("/", 1)[1]
    headers = {"x-sheetgen-token": config.page_token}
    for player, box, after in ((1, "pig_1", True), (1, "pig_2", True), (2, "garden_r1_c1", "T"), (2, "pig_1", True)):
        body = {"player": player, "box": box, "before": None, "after": after}
        assert client.post(f"/game/{gid}/mark", json=body, headers=headers).status_code == 200
    return gid


def test_a_game_played_at_the_table_opens_with_its_sheets_as_marked_and_is_removed_with_them(kept):
    client, config = kept
    gid = _play(client, config)
    headers = {"x-sheetgen-token": config.page_token}
    done = client.post(f"/game/{gid}/finish", json={"again": False}, headers=headers).json()
    assert done["kept"] == 4
    html = client.get("/history/4?lang=en").text
    assert 'data-box="pig_2" data-player="1"' in html and 'data-box="garden_r1_c1" data-player="2"' in html
    shown = json.loads(html.split('<script type="application/json" id="state">', 1)[1].split("</script>", 1)[0])
    assert shown["marks"] == [{"pig_1": True, "pig_2": True}, {"garden_r1_c1": "T", "pig_1": True}]
    assert re.search(r'<tr class="total"><th scope="row">Total</th><td>1</td><td>2</td></tr>', html)
    assert "<p>This game was kept from a record" not in html
    # a game kept from a record has its record, and no sheets
    assert "<p>This game was kept from a record" in client.get("/history/1?lang=en").text
    assert "data-box=" not in client.get("/history/1?lang=en").text
    assert 'class="played"' in client.get("/history").text
    # removed as `history --remove` removes it: asked with the page's token
    r = client.post("/history/4/remove", data={"token": "stale", "lang": "en"})
    assert (r.status_code, r.text) == (403, "the page's token is missing or stale: reload the page\n")
    r = client.post("/history/4/remove", data={"token": config.page_token, "lang": "fr"})
    assert (r.status_code, r.headers["location"]) == (303, "/history?lang=fr&removed=4")
    assert "La partie 4 a été retirée de l'historique." in client.get(r.headers["location"]).text
    assert 4 not in {row["id"] for row in json.loads(cli_out(config, "history", "--format", "json"))}
    assert client.get("/history/4").status_code == 404
    r = client.post("/history/4/remove", data={"token": config.page_token})
    assert (r.status_code, r.text) == (404, f"{config.db}: no game 4 in the history\n")
    # the game's marks at the table went with it: a game kept next under the same id has none of them
    again = _play(client, config, players="Cy\nDee")
    client.post(
        f"/game/{again}/mark", json={"player": 1, "box": "pig_9", "before": None, "after": True}, headers=headers
    )
    assert client.post(f"/game/{again}/finish", json={"again": True}, headers=headers).json()["kept"] == 4
    assert "Cy" in client.get("/history/4").text and "Ann" not in client.get("/history/4").text.split("<main>")[1]


def test_a_finished_games_record_score_and_sheets_re_score_to_what_the_page_showed(kept, tmp_path, monkeypatch):
    client, config = kept
    monkeypatch.chdir(tmp_path)  # the record scored by the name it was downloaded as
    gid = _play(client, config)
    page = client.get(f"/game/{gid}/state").json()["score"]
    record = client.get(f"/game/{gid}/record?download")
    name = f"harvest-dice-normal-{gid}"
    assert record.headers["content-disposition"] == f'attachment; filename="{name}.yaml"'
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(record.content)
    for fmt in ("json", "csv"):
        served = client.get(f"/game/{gid}/score.{fmt}?download")
        assert served.headers["content-disposition"] == f'attachment; filename="{name}.{fmt}"'
        scored = run("score", path.name, "--format", fmt)
        assert served.content == scored.stdout_bytes, fmt
    pdf = client.get(f"/game/{gid}/sheets.pdf?download")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
    (tmp_path / "sheets.pdf").write_bytes(pdf.content)
    from_pdf = json.loads(cli_out(config, "score", tmp_path / "sheets.pdf", "--format", "json"))
    assert [(p["name"], p["total"], p["breakdown"]) for p in from_pdf["players"]] == [
        (p["name"], p["total"], p["breakdown"]) for p in page["players"]
    ]
    read = run("read", "sheets.pdf").stdout
    assert read.replace("layout: harvest-dice-normal\n", "") == record.text.replace("layout: harvest-dice-normal\n", "")
    assert client.get(f"/game/{gid}/score.xml").status_code == 404
