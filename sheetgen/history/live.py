"""Games in progress at the table (`sheetgen serve`): the `live_games` table of the history
file (sheetgen.history.store: the same file, opening, migrations and write transactions).

A game is data: its layout, the players, each player's marks keyed by the boxes' field
names, the doubts its photos left (a box the reader could not decide, a number written by
hand), a version, and its undo and redo logs. A photo's doubts come with a small picture
of each box in doubt (`live_crops`), kept until the game is finished. Every change is one `BEGIN IMMEDIATE`
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
    # {"player": 1, "box": "pig_4", "kind": "unsure"|"cell"|"number"|"read"} ("read": and its "value")
    doubts: list = field(default_factory=list)


def new_id() -> str:
    """A game's id: random, unguessable, short enough for an address."""
    return secrets.token_urlsafe(9)


_COLUMNS = "id, created_at, updated_at, layout, layout_hash, lang, players, marks, version, undo, redo, kept_id, doubts"


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
        doubts=json.loads(r[12]),
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
                f"INSERT INTO live_games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    _dump(game.doubts),
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

    def played(self, kept_id: int) -> LiveGame | None:
        """The game at the table that was kept as the history's game `kept_id`, or None."""
        with _sql_errors(db_path(self.path)):
            r = self._db().execute(f"SELECT {_COLUMNS} FROM live_games WHERE kept_id = ?", (kept_id,)).fetchone()
        return _row(r) if r else None

    def played_ids(self) -> set[int]:
        """The history's games that were played at the table (their sheets can be drawn)."""
        with _sql_errors(db_path(self.path)):
            rows = self._db().execute("SELECT kept_id FROM live_games WHERE kept_id IS NOT NULL").fetchall()
        return {r[0] for r in rows}

    def crop(self, gid: str, player: int, box: str) -> bytes | None:
        """The picture of a box in doubt (JPEG), or None."""
        with _sql_errors(db_path(self.path)):
            sql = "SELECT image FROM live_crops WHERE game_id = ? AND player = ? AND box = ?"
            r = self._db().execute(sql, (gid, player, box)).fetchone()
        return bytes(r[0]) if r else None

    def update(self, gid: str, change: Callable[[LiveGame], None], crops: dict | None = None) -> LiveGame:
        """Change game `gid` in one transaction: `change(game)` edits it in place (or raises,
        and nothing is written); it is written back with its version one more, with
        `crops` ({(player, box): JPEG}) for its doubts. A finished game's crops go."""
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
                "UPDATE live_games SET updated_at = ?, marks = ?, version = ?, undo = ?, redo = ?, kept_id = ?, "
                "doubts = ? WHERE id = ? AND version = ?",
                (
                    game.updated_at,
                    _dump(game.marks),
                    game.version,
                    _dump(game.undo[-MAX_UNDO:]),
                    _dump(game.redo[-MAX_UNDO:]),
                    game.kept_id,
                    _dump(game.doubts),
                    gid,
                    before,
                ),
            )
            if crops:
                conn.executemany(
                    "INSERT OR REPLACE INTO live_crops (game_id, player, box, image) VALUES (?, ?, ?, ?)",
                    [(gid, player, box, image) for (player, box), image in crops.items()],
                )
            if game.kept_id is not None:  # the photos' pictures are kept while the game is played only
                conn.execute("DELETE FROM live_crops WHERE game_id = ?", (gid,))
        return game


# --- changes (pure: they edit a LiveGame in place) ------------------------------------------


def mark(game: LiveGame, player: int, box: str, before, after) -> None:
    """Player `player` (1-based) sets `box` from `before` (what the page showed) to `after`.
    `Conflict` when the box holds something else now; the redo log is cleared. A doubt on
    the box is settled (the mark is what the player saw on the paper)."""
    marks = game.marks[player - 1]
    now = marks.get(box)
    if _blank(now) != _blank(before):
        raise Conflict(f"{box} was changed meanwhile; the page shows the game as it is now")
    _set(marks, box, after)
    step = {"player": player, "box": box, "before": now, "after": after}
    at = next((k for k, d in enumerate(game.doubts) if d["player"] == player and d["box"] == box), None)
    if at is not None:
        step["doubt"] = [at, game.doubts.pop(at)]
    game.undo.append(step)
    game.redo.clear()


def fill(game: LiveGame, values: dict, doubts: list) -> None:
    """A photo fills boxes: `values` {(player, box): value} (every box it covers, None for
    an empty one), `doubts` what it leaves in doubt among them. Earlier doubts on those
    boxes go. One step to undo; the redo log is cleared."""
    changes = []
    for (player, box), value in values.items():
        now = game.marks[player - 1].get(box)
        if _blank(now) != _blank(value):
            changes.append([player, box, now, value])
        _set(game.marks[player - 1], box, value)
    covered = set(values) | {(d["player"], d["box"]) for d in doubts}
    kept = [d for d in game.doubts if (d["player"], d["box"]) not in covered]
    step = {"photo": changes, "doubts": [game.doubts, kept + list(doubts)]}
    game.doubts = step["doubts"][1]
    game.undo.append(step)
    game.redo.clear()


def confirm_read(game: LiveGame, player: int | None = None) -> int:
    """The numbers a photo read taken as read, of player `player` or of every player: their
    doubts go (the marks hold them already). One step to undo; how many went, or
    `HistoryError` when no number read is left to confirm."""
    kept = [d for d in game.doubts if d.get("kind") != "read" or player not in (None, d["player"])]
    if len(kept) == len(game.doubts):
        raise HistoryError("no number read is left to confirm")
    step = {"photo": [], "doubts": [game.doubts, kept]}
    game.doubts = kept
    game.undo.append(step)
    game.redo.clear()
    return len(step["doubts"][0]) - len(kept)


def undo(game: LiveGame) -> None:
    """Undo the game's last change (`HistoryError` when there is none)."""
    if not game.undo:
        raise HistoryError("nothing to undo")
    step = game.undo.pop()
    _step(game, step, back=True)
    game.redo.append(step)


def redo(game: LiveGame) -> None:
    """Make the last undone change again (`HistoryError` when there is none)."""
    if not game.redo:
        raise HistoryError("nothing to redo")
    step = game.redo.pop()
    _step(game, step, back=False)
    game.undo.append(step)


def _step(game: LiveGame, step: dict, back: bool) -> None:
    """A change made again (`back`: undone): a mark, with the doubt it settled, or a photo."""
    if "photo" in step:
        for player, box, before, after in step["photo"]:
            _set(game.marks[player - 1], box, before if back else after)
        game.doubts = list(step["doubts"][0 if back else 1])
        return
    _set(game.marks[step["player"] - 1], step["box"], step["before" if back else "after"])
    if "doubt" in step:  # [where it was among the doubts, the doubt]
        at, doubt = step["doubt"]
        if back:
            game.doubts.insert(at, doubt)
        else:
            game.doubts = [d for d in game.doubts if d != doubt]


def _blank(value):
    """A box's value, None for an empty one (unticked, nothing written)."""
    return None if value in (None, False, "") else value


def _set(marks: dict, box: str, value) -> None:
    if _blank(value) is None:
        marks.pop(box, None)
    else:
        marks[box] = value
