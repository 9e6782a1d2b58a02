"""Start and stop the server: the address, the join link and its QR code, uvicorn, Ctrl-C."""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import Callable

from sheetgen.errors import UsageError
from sheetgen.serve.app import Config, loopback_hosts, make_app, offered_layouts

GRACE = 2.0  # seconds Ctrl-C waits for open pages' streams before it closes them


def lan_address() -> str:
    """This machine's address on its local network (IPv4): the host name's first address
    that is not a loopback one, else the address the system would send from (a UDP socket
    `connect` picks it and sends nothing)."""
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = info[4][0]
            if not ip.startswith("127."):
                return ip
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed; connect() sends nothing
            ip = s.getsockname()[0]
        except OSError:
            ip = ""
    if not ip or ip.startswith("127.") or ip == "0.0.0.0":
        raise UsageError("--lan: this machine has no local network address (is it connected to a network?)")
    return ip


def terminal_qr(text: str) -> str:
    """A QR code of `text` for a terminal: two modules a character (half blocks), dark on
    light, with its quiet zone."""
    from sheetgen.render.pdf import qr_modules

    rows = ["0" * (len(qr_modules(text)[0]) + 4)] * 2
    rows += ["00" + r + "00" for r in qr_modules(text)] + [rows[0]] * 2
    if len(rows) % 2:
        rows.append(rows[0])
    chars = {("0", "0"): "█", ("1", "1"): " ", ("1", "0"): "▄", ("0", "1"): "▀"}
    return "\n".join("".join(chars[(a, b)] for a, b in zip(top, bottom)) for top, bottom in zip(rows[::2], rows[1::2]))


def _check_port(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            raise UsageError(f"--port: cannot listen on {host}:{port} ({exc.strerror}); give another --port") from None


def serve(port: int, lan: bool, db, files: list[str], say: Callable[[str], None]) -> None:
    """Serve until Ctrl-C: the built-in layouts and `files` offered, games kept in the
    history file `db` (sheetgen.history.store.db_path)."""
    from sheetgen.history.store import db_path, opened

    layouts = offered_layouts(files)
    with opened(db, create=True):  # a history that cannot be used fails now, not at the first game
        pass
    host, hosts, token, join_url = "127.0.0.1", loopback_hosts(port), None, None
    if lan:
        host = lan_address()
        hosts = hosts | {host, f"{host}:{port}"}
        token = secrets.token_urlsafe(16)
        join_url = f"http://{host}:{port}/join?t={token}"
    _check_port(host, port)
    app = make_app(Config(layouts, db, frozenset(hosts), token, join_url, warm=True))
    server = make_server(app, host, port)
    say(f"sheetgen serve: http://{host}:{port}/")
    if join_url:
        say(f"join from a phone on this network: {join_url}")
        say(terminal_qr(join_url))
    say(f"games are kept in {db_path(db)}; Ctrl-C stops (games in progress go on at the next start)")
    open_games = app.state.games.open_games()
    if open_games:
        say(f"{len(open_games)} game{'s' if len(open_games) > 1 else ''} in progress")
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises Ctrl-C again once it has stopped cleanly
        pass
    finally:
        app.state.reader.pool.shutdown(wait=False, cancel_futures=True)  # (a reading under way ends first)
        app.state.games.close()
    say("stopped; the games in progress are kept")


def make_server(app, host: str, port: int):
    """A uvicorn server of `app` whose stop (Ctrl-C, or `stop()` from another thread) also
    ends the pages' event streams, else it would wait for every open page."""
    import uvicorn

    class Server(uvicorn.Server):
        loop = None

        async def startup(self, sockets=None):
            self.loop = asyncio.get_running_loop()
            await super().startup(sockets)

        def handle_exit(self, sig, frame):
            self.close_streams()
            super().handle_exit(sig, frame)

        def close_streams(self):
            if self.loop is not None:
                self.loop.call_soon_threadsafe(app.state.hub.close)

        def stop(self):
            self.close_streams()
            self.should_exit = True

    settings = uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="off", timeout_graceful_shutdown=GRACE
    )
    return Server(settings)
