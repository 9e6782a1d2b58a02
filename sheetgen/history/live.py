"""Games in progress at the table (`sheetgen serve`): the `live_games` table of the history
file (sheetgen.history.store: the same file, opening, migrations and write transactions).

A game is data: its layout, the players, each player's marks keyed by the boxes' field
names, a version, and its undo and redo logs. Every change is one `BEGIN IMMEDIATE`
transaction that reads the game, changes it and writes it back with the version one more:
changes from several pages (or several servers on one file) are serialised, and a change
made on a box that someone else changed meanwhile is refused (`Conflict`), never written
over what it did not see.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sheetgen.errors import HistoryError
from sheetgen.history.store import _sql_errors, _write, connect, db_path, now_iso

MAX_UNDO = 5000  # changes kept to undo, per game (a long game has a few hundred)
MAX_OPEN = 200  # games in progress listed


class Conflict(HistoryError):
    """A change made on a stale view of a box (someone else changed it first)."""


@dataclass
class LiveGame:
    id: str
    layout: str
    layout_hash: str
    lang: str
    players: list
    marks: list  # per player: {field: value}
    version: int = 0
    undo: list = field(default_factory=list)
    redo: list = field(default_factory=list)
    kept_id: int | None = None
    created_at: str = ""
    updated_at: str = ""


def new_id() -> str:
    """A game's id: random, unguessable, short enough for an address."""
    return secrets.token_urlsafe(9)


_COLUMNS = "id, created_at, updated_at, layout, layout_hash, lang, players, marks, version, undo, redo, kept_id"


def _row(r) -> LiveGame:
    return LiveGame(
        id=r[0],
        created_at=r[1],
        updated_at=r[2],
        layout=r[3],
        layout_hash=r[4],
        lang=r[5],
        players=json.loads(r[6]),
        marks=json.loads(r[7]),
        version=r[8],
        undo=json.loads(r[9]),
        redo=json.loads(r[10]),
        kept_id=r[11],
    )


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Games:
    """The games in progress of one history file, through one connection kept open (a
    server's: opening the file at every change would cost more than the change). Its
    commits are not flushed to the disk one by one (`synchronous = NORMAL`, safe in WAL
    mode against a crash of the program; a power cut may lose the last changes, never
    damage the file)."""

    def __init__(self, path: str | Path | None = None):
        self.path = path
        self.conn = None

    def _db(self):
        if self.conn is None:
            self.conn = connect(self.path, create=True)
            self.conn.execute("PRAGMA synchronous = NORMAL")
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def create(self, game: LiveGame) -> LiveGame:
        """Keep a new game (version 0)."""
        game.created_at = game.updated_at = now_iso()
        with _sql_errors(db_path(self.path)), _write(self._db()) as conn:
            conn.execute(
                f"INSERT INTO live_games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.created_at,
                    game.updated_at,
                    game.layout,
                    game.layout_hash,
                    game.lang,
                    _dump(game.players),
                    _dump(game.marks),
                    game.version,
                    _dump(game.undo),
                    _dump(game.redo),
                    game.kept_id,
                ),
            )
        return game

    def load(self, gid: str) -> LiveGame | None:
        """The game `gid`, or None."""
        with _sql_errors(db_path(self.path)):
            r = self._db().execute(f"SELECT {_COLUMNS} FROM live_games WHERE id = ?", (gid,)).fetchone()
        return _row(r) if r else None

    def open_games(self) -> list[LiveGame]:
        """The games not finished yet, the latest changed first."""
        with _sql_errors(db_path(self.path)):
            rows = (
                self._db()
                .execute(
                    f"SELECT {_COLUMNS} FROM live_games WHERE kept_id IS NULL ORDER BY updated_at DESC, id LIMIT ?",
                    (MAX_OPEN,),
                )
                .fetchall()
            )
        return [_row(r) for r in rows]

    def update(self, gid: str, change: Callable[[LiveGame], None]) -> LiveGame:
        """Change game `gid` in one transaction: `change(game)` edits it in place (or raises,
        and nothing is written); it is written back with its version one more."""
        with _sql_errors(db_path(self.path)), _write(self._db()) as conn:
            r = conn.execute(f"SELECT {_COLUMNS} FROM live_games WHERE id = ?", (gid,)).fetchone()
            if r is None:
                raise HistoryError(f"no game {gid}")
            game = _row(r)
            before = game.version
            change(game)
            game.version = before + 1
            game.updated_at = now_iso()
            conn.execute(
                "UPDATE live_games SET updated_at = ?, marks = ?, version = ?, undo = ?, redo = ?, kept_id = ? "
                "WHERE id = ? AND version = ?",
                (
                    game.updated_at,
                    _dump(game.marks),
                    game.version,
                    _dump(game.undo[-MAX_UNDO:]),
                    _dump(game.redo[-MAX_UNDO:]),
                    game.kept_id,
                    gid,
                    before,
                ),
            )
        return game


# --- changes (pure: they edit a LiveGame in place) ------------------------------------------


def mark(game: LiveGame, player: int, box: str, before, after) -> None:
    """Player `player` (1-based) sets `box` from `before` (what the page showed) to `after`.
    `Conflict` when the box holds something else now; the redo log is cleared."""
    marks = game.marks[player - 1]
    now = marks.get(box)
    if _blank(now) != _blank(before):
        raise Conflict(f"{box} was changed meanwhile; the page shows the game as it is now")
    _set(marks, box, after)
    game.undo.append({"player": player, "box": box, "before": now, "after": after})
    game.redo.clear()


def undo(game: LiveGame) -> None:
    """Undo the game's last change (`HistoryError` when there is none)."""
    if not game.undo:
        raise HistoryError("nothing to undo")
    step = game.undo.pop()
    _set(game.marks[step["player"] - 1], step["box"], step["before"])
    game.redo.append(step)


def redo(game: LiveGame) -> None:
    """Make the last undone change again (`HistoryError` when there is none)."""
    if not game.redo:
        raise HistoryError("nothing to redo")
    step = game.redo.pop()
    _set(game.marks[step["player"] - 1], step["box"], step["after"])
    game.undo.append(step)


def _blank(value):
    """A box's value, None for an empty one (unticked, nothing written)."""
    return None if value in (None, False, "") else value


def _set(marks: dict, box: str, value) -> None:
    if _blank(value) is None:
        marks.pop(box, None)
    else:
        marks[box] = value
