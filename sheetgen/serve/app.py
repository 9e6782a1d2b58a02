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
events).
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
from sheetgen.errors import SheetgenError, printable
from sheetgen.history import live
from sheetgen.history.store import AlreadyKept
from sheetgen.serve import assets, pages

MAX_BODY = 16 * 1024  # bytes of a request body (a mark is ~100, the home form ~1,000)
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
    requests must carry; `join_url`: the address with it."""

    layouts: dict
    db: str | None = None
    hosts: frozenset = frozenset()
    join_token: str | None = None
    join_url: str | None = None
    page_token: str = field(default_factory=lambda: secrets.token_urlsafe(18))


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
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return _refuse(413, f"the request body is over {MAX_BODY} bytes")
        return None


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
    """The request body, at most MAX_BODY bytes (a chunked body is counted as it comes)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"the request body is over {MAX_BODY} bytes")
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
        }


class Hub:
    """The pages listening to each game: a queue each, given every new state."""

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

    def publish(self, gid: str, text: str) -> None:
        for q in list(self.queues.get(gid, ())):
            if q.full():  # a page that stopped reading: it gets the latest state when it reads again
                q.get_nowait()
            q.put_nowait(text)

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


def _changed(request: Request, gid: str, change) -> JSONResponse:
    """Apply `change(game, tables)` to game `gid` (one transaction), tell every page, answer
    the new state. `change` returns the game scored (api.table_score) when it scored it."""
    app = request.app.state
    scored: list = []

    def run(game):
        if game.kept_id is not None:
            raise HTTPException(409, f"the game is finished (kept as game {game.kept_id})")
        got = change(game, app.tables)
        scored.append(got)

    try:
        game = app.games.update(gid, run)
    except live.Conflict as exc:
        return JSONResponse({"error": exc.problems[0].message, "state": _current(request, gid)}, status_code=409)
    state = app.tables.state(game, scored[0] if scored else None)
    app.hub.publish(gid, _state_json(state))
    took = (time.perf_counter() - request.state.began) * 1000
    return JSONResponse(state, headers={"server-timing": f"change;dur={took:.1f}"})


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
                yield f"event: state\ndata: {text}\n\n"
        finally:
            app.hub.unsubscribe(game.id, q)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"cache-control": "no-store", "x-accel-buffering": "no"}
    )


async def mark(request: Request) -> JSONResponse:
    gid = request.path_params["gid"]
    body = await _json_body(request)
    game = _game(request)
    player, box, after, before = (body.get(k) for k in ("player", "box", "after", "before"))
    if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= len(game.players):
        raise HTTPException(400, f"player: expected 1-{len(game.players)}")
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


async def undo(request: Request) -> JSONResponse:
    await _json_body(request)
    gid = request.path_params["gid"]
    _game(request)

    def change(g, tables):
        try:
            live.undo(g)
        except live.HistoryError as exc:
            raise HTTPException(409, exc.problems[0].message) from None
        return _scored_or_refused(g, tables)

    return _changed(request, gid, change)


async def redo(request: Request) -> JSONResponse:
    await _json_body(request)
    gid = request.path_params["gid"]
    _game(request)

    def change(g, tables):
        try:
            live.redo(g)
        except live.HistoryError as exc:
            raise HTTPException(409, exc.problems[0].message) from None
        return _scored_or_refused(g, tables)

    return _changed(request, gid, change)


async def finish(request: Request) -> JSONResponse:
    """Keep the game in the history (`score --save`'s duplicate rule: `again` keeps a game
    already kept), then mark it finished."""
    body = await _json_body(request)
    gid = request.path_params["gid"]
    app = request.app.state
    game = _game(request)
    if game.kept_id is not None:
        raise HTTPException(409, f"the game is finished (kept as game {game.kept_id})")
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


async def record(request: Request) -> PlainTextResponse:
    app = request.app.state
    game = _game(request)
    try:
        data = api.table_record(app.tables.table(game), game.marks, app.tables.ref(game.layout))
    except SheetgenError as exc:
        raise HTTPException(409, exc.problems[0].message) from None
    return PlainTextResponse(api.record_yaml(data), media_type="application/yaml; charset=utf-8")


async def score_json(request: Request) -> Response:
    app = request.app.state
    game = _game(request)
    scored = api.table_score(app.tables.table(game), game.marks, app.tables.ref(game.layout))
    if scored["errors"]:
        raise HTTPException(409, scored["errors"][0])
    text = json.dumps(scored["score"], ensure_ascii=False, indent=2) + "\n"
    return Response(text, media_type="application/json; charset=utf-8")


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
        Route("/game/{gid}/record", record),
        Route("/game/{gid}/score.json", score_json),
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
