"""The Starlette application: routes, the checks every request passes, the events.

Every request: its `Host` must be one this server answers to (a page of another site that
resolves its own name to this machine, DNS rebinding, is refused); with `--lan`, a request
from another machine must carry the join token (the join link sets it as a cookie).
Every state-changing request (POST): no cross-site `Origin` (nor `Sec-Fetch-Site:
cross-site`), the page's token (a header, or the home form's field), a body of at most
MAX_BODY bytes. Every answer: a Content-Security-Policy without inline script, no
framing, no referrer. A refusal is a 4xx with a one-line reason, never a traceback.

A game's changes are applied one at a time on the event loop, each one transaction of
sheetgen.history.live that checks what it changes (a stale page is answered 409 and
refreshed); the new state goes to every page of the game that listens (server-sent
events). A photo of a sheet is read in a worker thread (one at a time; the pages go on
being served), its steps told to the game's pages as it goes; what it read is then one
change like a tap.

The history's pages (/history, /stats) list the kept games and the standings as
`sheetgen history` and `sheetgen stats` do, and give the same JSON and CSV.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import re
import secrets
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from sheetgen import api
from sheetgen.errors import HistoryError, SheetgenError, printable
from sheetgen.history import live
from sheetgen.history.store import AlreadyKept
from sheetgen.serve import assets, pages

MAX_BODY = 16 * 1024  # bytes of a request body (a mark is ~100, the home form ~1,000)
PHOTO_PATH = re.compile(r"/game/[A-Za-z0-9_-]{12}/photo")  # the one route whose body is larger: api.MAX_UPLOAD
MAX_WAITING = 4  # photos waiting for the reader at once; one more is refused for a moment
MAX_PLAYERS_TEXT = 2000  # characters of the home form's players field
MAX_NAME = 40  # characters of a player's name
TOKEN_HEADER = "x-sheetgen-token"
JOIN_COOKIE = "sheetgen_join"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # "no-referrer" makes a form's Origin "null"
]
GAME_ID = re.compile(r"[A-Za-z0-9_-]{12}")  # live.new_id's
KEEPALIVE = 15.0  # seconds between the comments that keep an idle event stream open


@dataclass
class Config:
    """What a server is started with. `layouts`: the layouts offered, {key: ref} (a built-in
    id for itself; a variant file given on the command line by its layout id, its absolute
    path as ref); `hosts`: the `Host` values answered (loopback names and, with --lan, the
    LAN address, each with the port); `join_token`: with --lan, what another machine's
    requests must carry; `join_url`: the address with it; `warm`: a game page opened gets
    the photo reader ready for its sheets (`Reader.warm`: `sheetgen serve` does, an app
    made for a test need not spend the time)."""

    layouts: dict
    db: str | None = None
    hosts: frozenset = frozenset()
    join_token: str | None = None
    join_url: str | None = None
    page_token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    warm: bool = False


def loopback_hosts(port: int) -> frozenset:
    names = ("127.0.0.1", "localhost", "[::1]")
    return frozenset([*names, *(f"{n}:{port}" for n in names)])


def _refuse(status: int, reason: str) -> PlainTextResponse:
    return PlainTextResponse(reason.splitlines()[0][:300] + "\n", status_code=status)


# --------------------------------------------------------------------------- the checks


class Guard:
    """The checks of the module doc that need no route (an ASGI middleware)."""

    def __init__(self, app, config: Config):
        self.app, self.config = app, config

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        scope.setdefault("state", {})["began"] = time.perf_counter()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope, headers)

        async def send_secured(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []), *SECURITY_HEADERS])
            await send(message)

        if refusal is not None:
            return await refusal(scope, receive, send_secured)
        return await self.app(scope, receive, send_secured)

    def refusal(self, scope, headers: dict) -> Response | None:
        cfg = self.config
        host = headers.get("host", "")
        if host not in cfg.hosts:
            return _refuse(421, f"this server does not answer to the host '{printable(host[:80])}'")
        client = (scope.get("client") or ("", 0))[0]
        if not _is_loopback(client) and scope["path"] != "/join":
            cookie = _cookie(headers.get("cookie", ""), JOIN_COOKIE)
            if cfg.join_token is None or not hmac.compare_digest(cookie.encode(), cfg.join_token.encode()):
                return _refuse(403, "open the join link (scan the QR code the server shows) to play from this device")
        if scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            if origin is not None and origin.removeprefix("http://") not in cfg.hosts:
                return _refuse(403, "a request from another site is refused")
            if headers.get("sec-fetch-site") == "cross-site":
                return _refuse(403, "a request from another site is refused")
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > _limit(scope["path"])):
                return _refuse(413, _too_large(scope["path"]))
        return None


def _limit(path: str) -> int:
    return api.MAX_UPLOAD if PHOTO_PATH.fullmatch(path) else MAX_BODY


def _too_large(path: str) -> str:
    if PHOTO_PATH.fullmatch(path):
        return f"the file is over {api.MAX_UPLOAD // (1024 * 1024)} MB: send a smaller photo"
    return f"the request body is over {MAX_BODY} bytes"


def _is_loopback(client: str) -> bool:
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return client == "testclient"  # Starlette's TestClient: this machine


def _cookie(header: str, name: str) -> str:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return ""


async def _body(request: Request) -> bytes:
    """The request body, at most its route's bytes (a chunked body is counted as it comes)."""
    chunks, size, limit = [], 0, _limit(request.url.path)
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, _too_large(request.url.path))
        chunks.append(chunk)
    return b"".join(chunks)


def _check_token(request: Request, given: str | None) -> None:
    token = request.app.state.config.page_token
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        raise HTTPException(403, "the page's token is missing or stale: reload the page")


async def _json_body(request: Request) -> dict:
    _check_token(request, request.headers.get(TOKEN_HEADER))
    raw = await _body(request)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body is not a JSON object")
    return data


# --------------------------------------------------------------------------- games


class Tables:
    """The layouts offered (loaded once each) and what each game's state is."""

    def __init__(self, config: Config):
        self.config = config
        self.loaded: dict = {}
        self.drawn: dict = {}  # a game page's sheets before any mark (serve.pages._drawn)

    def layout(self, key: str):
        if key not in self.config.layouts:
            raise HTTPException(409, f"this server does not offer the layout '{printable(key[:60])}'")
        got = self.loaded.get(key)
        if got is None:
            got = self.loaded[key] = api.load(self.config.layouts[key])
        return got

    def ref(self, key: str) -> str:
        return self.config.layouts[key]

    def table(self, game: live.LiveGame):
        return api.table(self.layout(game.layout), game.players, game.lang)

    def state(self, game: live.LiveGame, scored: dict | None = None) -> dict:
        tab = self.table(game)
        scored = scored if scored is not None else api.table_score(tab, game.marks, self.ref(game.layout))
        return {
            "game": game.id,
            "version": game.version,
            "players": game.players,
            "marks": game.marks,
            "computed": scored["computed"],
            "score": scored.get("score"),
            "errors": scored["errors"],
            "warnings": scored.get("warnings", []),
            "categories": scored.get("categories", []),
            "tiebreak": scored.get("tiebreak", []),
            "undo": len(game.undo),
            "redo": len(game.redo),
            "kept": game.kept_id,
            "doubts": game.doubts,
        }


class Hub:
    """The pages listening to each game: a queue each, given every new state (and what
    a photo being read has come to: `photo` events)."""

    def __init__(self):
        self.queues: dict = defaultdict(set)
        self.closed = False

    def subscribe(self, gid: str) -> asyncio.Queue:
        q: asyncio.Queue = asyncio.Queue(maxsize=64)
        self.queues[gid].add(q)
        return q

    def unsubscribe(self, gid: str, q) -> None:
        self.queues[gid].discard(q)
        if not self.queues[gid]:
            del self.queues[gid]

    def publish(self, gid: str, text: str, event: str = "state") -> None:
        for q in list(self.queues.get(gid, ())):
            if q.full():  # a page that stopped reading: it gets the latest state when it reads again
                q.get_nowait()
            q.put_nowait((event, text))

    def close(self) -> None:
        """Every stream ends (the server stops)."""
        self.closed = True
        for qs in self.queues.values():
            for q in qs:
                if q.full():
                    q.get_nowait()
                q.put_nowait(None)


def _game(request: Request) -> live.LiveGame:
    gid = request.path_params["gid"]
    game = request.app.state.games.load(gid) if _valid_id(gid) else None
    if game is None:
        raise HTTPException(404, "no such game")
    return game


def _valid_id(gid: str) -> bool:
    return GAME_ID.fullmatch(gid) is not None


def _state_json(state: dict) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))


def _changed(request: Request, gid: str, change, crops: dict | None = None, extra: dict | None = None) -> JSONResponse:
    """Apply `change(game, tables)` to game `gid` (one transaction, with `crops` for its
    doubts), tell every page, answer the new state (and `extra`). `change` returns the game
    scored (api.table_score) when it scored it."""
    app = request.app.state
    scored: list = []

    def run(game):
        if game.kept_id is not None:
            raise HTTPException(409, f"the game is finished (kept as game {game.kept_id})")
        got = change(game, app.tables)
        scored.append(got)

    try:
        game = app.games.update(gid, run, crops)
    except live.Conflict as exc:
        return JSONResponse({"error": exc.problems[0].message, "state": _current(request, gid)}, status_code=409)
    state = app.tables.state(game, scored[0] if scored else None)
    app.hub.publish(gid, _state_json(state))
    took = (time.perf_counter() - request.state.began) * 1000
    return JSONResponse({**state, **(extra or {})}, headers={"server-timing": f"change;dur={took:.1f}"})


def _current(request: Request, gid: str) -> dict | None:
    game = request.app.state.games.load(gid)
    return request.app.state.tables.state(game) if game else None


# --------------------------------------------------------------------------- routes


async def home(request: Request) -> HTMLResponse:
    app = request.app.state
    games = app.games.open_games()
    return HTMLResponse(pages.home(app.config, app.tables, games, _lang(request)))


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang")
    if lang in ("fr", "en"):
        return lang
    accept = request.headers.get("accept-language", "")
    return "fr" if accept.lower().startswith("fr") else "en"


async def create_game(request: Request) -> Response:
    app = request.app.state
    raw = await _body(request)
    try:
        form = {k: v[0] for k, v in parse_qs(raw.decode("utf-8"), max_num_fields=10, strict_parsing=False).items()}
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "the form is not readable") from None
    _check_token(request, form.get("token"))
    key, lang, text = form.get("layout", ""), form.get("lang", "en"), form.get("players", "")
    if lang not in ("fr", "en"):
        raise HTTPException(400, "lang: expected fr or en")
    if len(text) > MAX_PLAYERS_TEXT:
        raise HTTPException(400, f"players: at most {MAX_PLAYERS_TEXT} characters")
    names = [" ".join(n.split()) for n in text.replace("\n", ",").split(",")]
    names = [n for n in names if n]
    if not names:
        raise HTTPException(400, "players: type the players' names, one a line or comma separated")
    for n in names:
        if len(n) > MAX_NAME:
            raise HTTPException(400, f"players: a name is at most {MAX_NAME} characters")
        if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in n):
            raise HTTPException(400, "players: a name holds no control characters")
    if len({n.casefold() for n in names}) < len(names):
        raise HTTPException(400, "players: two players have the same name")
    if key not in app.config.layouts:
        raise HTTPException(400, "layout: not one this server offers")
    layout = app.tables.layout(key)
    from sheetgen.games import game_for

    lo, hi = game_for(layout).player_range(layout)
    if not lo <= len(names) <= hi:
        raise HTTPException(400, f"players: {layout.id} is for {lo}-{hi} players, got {len(names)}")
    game = live.LiveGame(live.new_id(), key, layout.digest, lang, names, [{} for _ in names])
    app.games.create(game)
    return RedirectResponse(f"/game/{game.id}", status_code=303)


async def game_page(request: Request) -> HTMLResponse:
    app = request.app.state
    game = _game(request)
    state = app.tables.state(game)
    if app.config.warm:
        app.reader.warm(app.tables.table(game), app.tables.ref(game.layout))
    return HTMLResponse(pages.game(app.config, app.tables, game, state))


async def board_page(request: Request) -> HTMLResponse:
    app = request.app.state
    game = _game(request)
    return HTMLResponse(pages.board(app.config, app.tables, game, app.tables.state(game)))


async def state(request: Request) -> JSONResponse:
    return JSONResponse(request.app.state.tables.state(_game(request)))


async def events(request: Request) -> StreamingResponse:
    app = request.app.state
    game = _game(request)
    q = app.hub.subscribe(game.id)
    first = _state_json(app.tables.state(game))

    async def stream():
        try:
            yield f"retry: 1000\nevent: state\ndata: {first}\n\n"
            while not app.hub.closed:
                try:
                    text = await asyncio.wait_for(q.get(), KEEPALIVE)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if text is None:
                    break
                yield f"event: {text[0]}\ndata: {text[1]}\n\n"
        finally:
            app.hub.unsubscribe(game.id, q)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"cache-control": "no-store", "x-accel-buffering": "no"}
    )


def _check_player(player, game) -> None:
    """A player of a request's JSON: a number of the game's players (1-based), else a 400."""
    if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= len(game.players):
        raise HTTPException(400, f"player: expected 1-{len(game.players)}")


async def mark(request: Request) -> JSONResponse:
    gid = request.path_params["gid"]
    body = await _json_body(request)
    game = _game(request)
    player, box, after, before = (body.get(k) for k in ("player", "box", "after", "before"))
    _check_player(player, game)
    if not isinstance(box, str) or len(box) > 100:
        raise HTTPException(400, "box: expected a box's field name")
    tables = request.app.state.tables
    try:
        after = api.check_mark(tables.table(game), player, box, after)
    except SheetgenError as exc:
        raise HTTPException(422, exc.problems[0].message) from None
    if before is not None and not isinstance(before, bool | str):
        raise HTTPException(400, "before: expected what the box showed")

    def change(g, tables):
        live.mark(g, player, box, before, after)
        return _scored_or_refused(g, tables)

    return _changed(request, gid, change)


def _scored_or_refused(game, tables) -> dict:
    """The game scored with its new marks; a 422 (and nothing kept) when the sheet cannot
    hold them (the reason: the scorer's first problem)."""
    scored = api.table_score(tables.table(game), game.marks, tables.ref(game.layout))
    if scored["errors"]:
        raise HTTPException(422, scored["errors"][0])
    return scored


def _stepped(request: Request, gid: str, step) -> JSONResponse:
    """`step(game)`, a change of live's (undo, redo, numbers confirmed), made as one change;
    a step it cannot make (its HistoryError) a 409."""

    def change(g, tables):
        try:
            step(g)
        except live.HistoryError as exc:
            raise HTTPException(409, exc.problems[0].message) from None
        return _scored_or_refused(g, tables)

    return _changed(request, gid, change)


async def undo(request: Request) -> JSONResponse:
    await _json_body(request)
    _game(request)
    return _stepped(request, request.path_params["gid"], live.undo)


async def redo(request: Request) -> JSONResponse:
    await _json_body(request)
    _game(request)
    return _stepped(request, request.path_params["gid"], live.redo)


async def confirm(request: Request) -> JSONResponse:
    """Every number a photo read taken as read (of `player`, or of every player): their
    doubts go in one step, which undo brings back."""
    body = await _json_body(request)
    game = _game(request)
    player = body.get("player")
    if player is not None:
        _check_player(player, game)
    return _stepped(request, request.path_params["gid"], lambda g: live.confirm_read(g, player))


async def finish(request: Request) -> JSONResponse:
    """Keep the game in the history (`score --save`'s duplicate rule: `again` keeps a game
    already kept; `doubts` keeps a game whose photos left doubts), then mark it finished."""
    body = await _json_body(request)
    gid = request.path_params["gid"]
    app = request.app.state
    game = _game(request)
    if game.kept_id is not None:
        raise HTTPException(409, f"the game is finished (kept as game {game.kept_id})")
    if game.doubts and body.get("doubts") is not True:
        n = len(game.doubts)
        raise HTTPException(409, f"{n} doubt{'s' if n > 1 else ''} left from the photos: keep the game all the same?")
    tab = app.tables.table(game)
    ref = app.tables.ref(game.layout)
    try:
        record = api.table_record(tab, game.marks, ref)
        scored = api.score(record, f"<sheetgen serve: game {gid}>")
        again = body.get("again") is True
        ids, _ = api.keep([scored], [api.record_yaml(record)], [scored.source], app.config.db, again)
    except AlreadyKept as exc:
        where = f" (game {exc.kept[0]})" if exc.kept else ""
        raise HTTPException(409, f"this game is already kept in the history{where}: keep it a second time?") from None
    except SheetgenError as exc:
        raise HTTPException(409, exc.problems[0].message) from None

    def change(g, tables):
        if g.kept_id is not None:
            raise HTTPException(409, f"the game is finished (kept as game {g.kept_id})")
        g.kept_id = ids[0]

    return _changed(request, gid, change)


def _download(request: Request, response: Response, name: str) -> Response:
    """`?download`: the answer is a file to keep, named `name` (a name made here, never one
    from the request)."""
    if "download" in request.query_params:
        response.headers["content-disposition"] = f'attachment; filename="{name}"'
    return response


def _format(request: Request) -> str:
    fmt = request.path_params["fmt"]
    if fmt not in ("json", "csv"):
        raise HTTPException(404, "no such file")
    return fmt


def _file_name(game: live.LiveGame, ext: str) -> str:
    """What a game's exports are called: its layout and its id (letters, digits, - and _)."""
    return f"{re.sub(r'[^A-Za-z0-9_-]', '-', game.layout)[:60]}-{game.id}.{ext}"


async def record(request: Request) -> Response:
    app = request.app.state
    game = _game(request)
    try:
        data = api.table_record(app.tables.table(game), game.marks, app.tables.ref(game.layout))
    except SheetgenError as exc:
        raise HTTPException(409, exc.problems[0].message) from None
    text = PlainTextResponse(api.record_yaml(data), media_type="application/yaml; charset=utf-8")
    return _download(request, text, _file_name(game, "yaml"))


async def score_file(request: Request) -> Response:
    """The game's score as `sheetgen score --format json|csv` writes it of the game's
    record (its download's name: a CSV's `record` column)."""
    app = request.app.state
    game = _game(request)
    fmt = _format(request)
    try:
        scored = api.table_scored(
            app.tables.table(game), game.marks, app.tables.ref(game.layout), _file_name(game, "yaml")
        )
    except SheetgenError as exc:
        raise HTTPException(409, exc.problems[0].message) from None
    kind = "application/json" if fmt == "json" else "text/csv"
    response = Response(api.score_text(scored, fmt), media_type=f"{kind}; charset=utf-8")
    return _download(request, response, _file_name(game, fmt))


async def sheets_pdf(request: Request) -> Response:
    """The sheets as marked: the fillable PDF with every box set (api.marked_pdf)."""
    from starlette.concurrency import run_in_threadpool

    app = request.app.state
    game = _game(request)
    tab = app.tables.table(game)
    computed = app.tables.state(game)["computed"]
    data = await run_in_threadpool(api.marked_pdf, tab, game.marks, computed)
    return _download(request, Response(data, media_type="application/pdf"), _file_name(game, "pdf"))


# --------------------------------------------------------------------------- photos


class Reader:
    """Reads the photos, one at a time, in a worker thread (a photo takes a core and a few
    hundred MB for a second or so): the pages go on being served meanwhile. At most
    MAX_WAITING wait their turn."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sheetgen-photo")
        self.waiting = 0
        self.warmed: set = set()

    def warm(self, tab, ref: str) -> None:
        """Get ready, in the worker, to read the photos of a game's sheets (api.warm_photos),
        once a layout, language and player count: a game page is opened well before its
        first photo is taken."""
        key = (tab.layout.id, tab.layout.digest, tab.lang, len(tab.names) if tab.pad else 0)
        if tab.layout.scan_marks and key not in self.warmed:
            self.warmed.add(key)
            self.pool.submit(_quietly, api.warm_photos, tab, ref)

    async def run(self, work):
        if self.waiting >= MAX_WAITING:
            raise HTTPException(503, "busy reading other photos: send this one again in a moment")
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work)
        finally:
            self.waiting -= 1


def _quietly(work, *args) -> None:
    """`work(*args)`, whose failure only means it was not done (a warm-up)."""
    try:
        work(*args)
    except Exception:  # noqa: BLE001 - the photo read after it says what is wrong, if anything
        pass


async def photo(request: Request) -> JSONResponse:
    """A photo of a player's sheet (the body: the file itself, a photo, a scanner's PDF or
    TIFF; `?player=N`; a pad's photo is the table's sheet): read, then one change that fills
    the boxes it shows and keeps its doubts. A refusal is a 422 in the game's language."""
    app = request.app.state
    _check_token(request, request.headers.get(TOKEN_HEADER))
    gid = request.path_params["gid"]
    game = _game(request)
    if game.kept_id is not None:
        raise HTTPException(409, f"the game is finished (kept as game {game.kept_id})")
    tab = app.tables.table(game)
    given = request.query_params.get("player", "")
    player = int(given) if given.isdigit() and len(given) < 4 else 0
    if not tab.pad and not 1 <= player <= len(game.players):
        raise HTTPException(400, f"player: expected 1-{len(game.players)}")
    if not tab.layout.scan_marks:
        raise HTTPException(422, pages.refusal("no_scan_marks", {}, "", game.lang))
    data = await _body(request)
    if not data:
        raise HTTPException(400, "no file in the request: send the photo itself as the body")
    loop = asyncio.get_running_loop()
    who = 0 if tab.pad else player

    def tell(stage: str, n: int = 0, of: int = 0, **more) -> None:
        event = json.dumps({"player": who, "stage": stage, "n": n, "of": of, **more}, ensure_ascii=False)
        loop.call_soon_threadsafe(app.hub.publish, gid, event, "photo")

    tell("queued")
    ref = app.tables.ref(game.layout)
    name = pages.WORDS[game.lang]["photo_name"]
    try:
        fill = await app.reader.run(lambda: api.photo_fill(tab, max(player, 1), data, ref, tell, name))
    except api.PhotoRefused as exc:
        line = pages.refusal(exc.kind, exc.params, exc.problems[0].message, game.lang)
        tell("refused", message=line)
        raise HTTPException(422, line) from None
    except SheetgenError as exc:
        tell("refused", message=exc.problems[0].message)
        raise HTTPException(422, exc.problems[0].message) from None
    except Exception as exc:  # (answered as every internal error is; the pages stop waiting for it)
        tell("refused", message=f"internal error ({type(exc).__name__})")
        raise
    crops: dict = {}

    def change(g, tables):
        live.fill(g, fill.values, list(fill.doubts))
        doubted = {(d["player"], d["box"]) for d in g.doubts}
        crops.update({k: v for k, v in fill.crops.items() if k in doubted})
        return _scored_or_refused(g, tables)

    numbers = {(d["player"], d["box"]) for d in fill.doubts if d["kind"] == "read"}  # (read, not marked)
    marked = sum(1 for k, v in fill.values.items() if v and k not in numbers)
    try:
        response = _changed(request, gid, change, crops, {"photo": {"marked": marked, "notes": list(fill.notes)}})
    except HTTPException as exc:
        tell("refused", message=str(exc.detail))
        raise
    if response.status_code == 200:
        doubts = sum(1 for d in json.loads(response.body)["doubts"] if d["player"] == player or tab.pad)
        tell("done", marked=marked, doubts=doubts)
    return response


async def crop(request: Request) -> Response:
    """The photo's picture of a box in doubt (JPEG)."""
    app = request.app.state
    game = _game(request)
    player, box = request.path_params["player"], request.path_params["box"]
    image = app.games.crop(game.id, player, box) if len(box) <= 100 and player < 1000 else None
    if image is None:
        raise HTTPException(404, "no picture of this box")
    return Response(image, media_type="image/jpeg", headers={"cache-control": "no-cache"})


# --------------------------------------------------------------------------- the history


@dataclass
class Query:
    """A history page's filters, as `sheetgen history` and `stats` take them."""

    game: str | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None
    aliases: tuple = ()
    limit: int | None = pages.HISTORY_SHOWN


def _query(request: Request) -> Query:
    q = request.query_params
    texts = {}
    for key in ("game", "player", "since", "until"):
        value = " ".join(q.get(key, "").split())
        if len(value) > 100:
            raise HTTPException(400, f"{key}: at most 100 characters")
        texts[key] = value or None
    aliases = tuple(a.strip() for text in q.getlist("alias") for a in re.split(r"[,\n]", text) if a.strip())
    if len(aliases) > 50:
        raise HTTPException(400, "alias: at most 50 of them")
    for a in aliases:
        old, sep, new = a.partition("=")
        if not sep or not old.strip() or not new.strip() or len(a) > 100:
            raise HTTPException(400, f"alias {printable(a[:60])!r}: expected OLD=NEW, e.g. Bob=Robert")
    limit = q.get("limit", "")
    return Query(**texts, aliases=aliases, limit=0 if limit == "0" else pages.HISTORY_SHOWN)


def _found(request: Request, query: Query, limit: int | None):
    from sheetgen.history import report

    try:
        return report.find(
            query.game,
            query.player,
            query.since,
            query.until,
            query.aliases,
            request.app.state.config.db,
            limit,
            ("since", "until"),
        )
    except SheetgenError as exc:
        raise HTTPException(400, exc.problems[0].message) from None


async def history_page(request: Request) -> HTMLResponse:
    app = request.app.state
    query = _query(request)
    found = _found(request, query, query.limit or None)
    played = app.games.played_ids()
    removed = request.query_params.get("removed", "")
    html = pages.history(
        app.config, app.tables, found, query, _lang(request), played, removed if removed.isdigit() else None
    )
    took = (time.perf_counter() - request.state.began) * 1000
    return HTMLResponse(html, headers={"server-timing": f"page;dur={took:.1f}"})


async def history_data(request: Request) -> Response:
    """The games as `sheetgen history --format json|csv` gives them (all that match)."""
    from sheetgen.history import report

    fmt = _format(request)
    found = _found(request, _query(request), None)
    if fmt == "json":
        response = Response(report.history_json(found.games, found.names), media_type="application/json; charset=utf-8")
    else:
        response = Response(report.history_csv(found.games, found.names), media_type="text/csv; charset=utf-8")
    return _download(request, response, f"history.{fmt}")


async def stats_page(request: Request) -> HTMLResponse:
    from sheetgen.history import report

    app = request.app.state
    query = _query(request)
    found = _found(request, query, None)
    rows = report.standings(found.games, found.names, found.keys)
    plots = report.series(found.games, found.names, found.keys)
    html = pages.stats(app.config, app.tables, found, query, rows, plots, _lang(request))
    took = (time.perf_counter() - request.state.began) * 1000
    return HTMLResponse(html, headers={"server-timing": f"page;dur={took:.1f}"})


async def stats_data(request: Request) -> Response:
    """The standings as `sheetgen stats --format json|csv` gives them."""
    from sheetgen.history import report

    fmt = _format(request)
    found = _found(request, _query(request), None)
    rows = report.standings(found.games, found.names, found.keys)
    if fmt == "json":
        response = Response(report.stats_json(rows), media_type="application/json; charset=utf-8")
    else:
        response = Response(report.stats_csv(rows), media_type="text/csv; charset=utf-8")
    return _download(request, response, f"stats.{fmt}")


def _kept(request: Request):
    from sheetgen.history import store

    kid = request.path_params["kid"]
    games, _ = store.find_games(store.Filter(ids=[kid]), request.app.state.config.db) if kid < 2**62 else ([], 0)
    if not games:
        raise HTTPException(404, f"no game {kid} in the history")
    return games[0]


async def kept_page(request: Request) -> HTMLResponse:
    """A kept game: its final table, and its sheets as they were marked when it was played
    at the table (the marks kept with it, drawn on the sheets)."""
    app = request.app.state
    kept = _kept(request)
    played = app.games.played(kept.id)
    return HTMLResponse(pages.kept(app.config, app.tables, kept, played, _lang(request)))


async def kept_record(request: Request) -> Response:
    """A kept game's record, as it was kept."""
    kept = _kept(request)
    response = PlainTextResponse(kept.record_text, media_type="application/yaml; charset=utf-8")
    return _download(request, response, f"game-{kept.id}.yaml")


async def remove_kept(request: Request) -> Response:
    """Remove a game from the history, as `sheetgen history --remove` does (a form: its token)."""
    from sheetgen.history import store

    raw = await _body(request)
    try:
        form = {k: v[0] for k, v in parse_qs(raw.decode("utf-8"), max_num_fields=5).items()}
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "the form is not readable") from None
    _check_token(request, form.get("token"))
    kid = request.path_params["kid"]
    try:
        if kid >= 2**62:
            raise HistoryError(f"no game {kid} in the history")
        store.remove_game(kid, request.app.state.config.db)
    except SheetgenError as exc:
        raise HTTPException(404, exc.problems[0].message) from None
    lang = form.get("lang") if form.get("lang") in ("fr", "en") else "en"
    return RedirectResponse(f"/history?lang={lang}&removed={request.path_params['kid']}", status_code=303)


async def join(request: Request) -> Response:
    """The join link: its token becomes a cookie of this device, then the page asked for."""
    cfg = request.app.state.config
    given = request.query_params.get("t", "")
    if cfg.join_token is None or not hmac.compare_digest(given.encode(), cfg.join_token.encode()):
        raise HTTPException(403, "this join link is not (or no longer) this server's: scan the QR code again")
    target = request.query_params.get("next", "/")
    if not (target == "/" or (target.startswith("/game/") and _valid_id(target[6:]))):
        target = "/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(JOIN_COOKIE, cfg.join_token, httponly=True, samesite="strict", max_age=7 * 24 * 3600)
    return response


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in assets.FILES:
        raise HTTPException(404, "no such file")
    return Response(assets.static_file(name), media_type=assets.FILES[name], headers={"cache-control": "no-cache"})


async def font(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    from sheetgen.text import FONT_FILES

    face = request.path_params["face"]
    if face not in FONT_FILES:
        raise HTTPException(404, "no such font")
    data = await run_in_threadpool(assets.font, face)
    return Response(data, media_type="font/woff", headers={"cache-control": "public, max-age=86400"})


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return _refuse(exc.status_code, str(exc.detail))


async def _internal_error(request: Request, exc: Exception) -> Response:
    return _refuse(500, f"internal error ({type(exc).__name__}); reload the page to see the game as it is")


def make_app(config: Config) -> Starlette:
    """The application for `config`."""
    routes = [
        Route("/", home),
        Route("/games", create_game, methods=["POST"]),
        Route("/join", join),
        Route("/game/{gid}", game_page),
        Route("/game/{gid}/board", board_page),
        Route("/game/{gid}/state", state),
        Route("/game/{gid}/events", events),
        Route("/game/{gid}/mark", mark, methods=["POST"]),
        Route("/game/{gid}/undo", undo, methods=["POST"]),
        Route("/game/{gid}/redo", redo, methods=["POST"]),
        Route("/game/{gid}/finish", finish, methods=["POST"]),
        Route("/game/{gid}/confirm", confirm, methods=["POST"]),
        Route("/game/{gid}/record", record),
        Route("/game/{gid}/score.{fmt:str}", score_file),
        Route("/game/{gid}/sheets.pdf", sheets_pdf),
        Route("/game/{gid}/photo", photo, methods=["POST"]),
        Route("/game/{gid}/crop/{player:int}/{box:str}", crop),
        Route("/history", history_page),
        Route("/history.{fmt:str}", history_data),
        Route("/history/{kid:int}", kept_page),
        Route("/history/{kid:int}/record", kept_record),
        Route("/history/{kid:int}/remove", remove_kept, methods=["POST"]),
        Route("/stats", stats_page),
        Route("/stats.{fmt:str}", stats_data),
        Route("/static/{name}", static),
        Route("/fonts/{face}.woff", font),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, config=config), Middleware(GZipMiddleware, minimum_size=600)],
        exception_handlers={HTTPException: _http_error, Exception: _internal_error},
    )
    app.state.config = config
    app.state.tables = Tables(config)
    app.state.hub = Hub()
    app.state.games = live.Games(config.db)
    app.state.reader = Reader()
    return app


def offered_layouts(files: list[str]) -> dict:
    """The layouts a server offers: every built-in, then each file given (by its layout id;
    a file whose id is a built-in's, or another file's, is refused)."""
    from sheetgen.errors import UsageError
    from sheetgen.layout.resolve import builtin_ids

    out = {lid: lid for lid in builtin_ids()}
    for f in map(str, files):
        lay = api.load(f)
        if lay.id in out:
            raise UsageError(f"{f}: layout '{lay.id}' is offered already; give each variant its own id")
        out[lay.id] = str(Path(f).resolve())
    return out
