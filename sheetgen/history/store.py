"""The history database: one SQLite file (standard library sqlite3).

- Where: `--db PATH`, else $SHEETGEN_DB, else `history.sqlite` in the user's data
  folder (platformdirs).
- Schema: `PRAGMA user_version` is the schema version; `MIGRATIONS[i]` brings a
  file from version i to i+1, each step in its own transaction, so a file from
  any earlier sheetgen opens. A file with a higher version (a newer sheetgen) is
  refused and left untouched; so is an SQLite file that is not a history.
- Every connection: foreign keys on, WAL journal, a busy timeout so that saves
  from several processes queue instead of failing.
- Every save is one `BEGIN IMMEDIATE` transaction (the duplicate check and the
  inserts of all the games of one command): a process killed mid-save leaves the
  games fully kept or absent.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from sheetgen.errors import HistoryError, SheetgenError
from sheetgen.yamlsrc import plain_tree, tree_hash

FILE_NAME = "history.sqlite"
BUSY_SECONDS = 30.0
# Test hook: a path; a save touches it inside its transaction (after the games rows,
# before their players), then sleeps, so a test can kill the process mid-save.
PAUSE_ENV = "SHEETGEN_TEST_SAVE_PAUSE"


def name_key(name) -> str:
    """How names compare: trimmed, inner spaces collapsed, case-folded ('  bob ' == 'Bob')."""
    return " ".join(str(name).split()).casefold()


# --- schema ---------------------------------------------------------------------------


def _v1(conn: sqlite3.Connection) -> None:
    """The first release: games and their players."""
    conn.execute("""CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,           -- ISO date or date-time (the record's date:, else when saved)
        saved_at TEXT NOT NULL,
        layout TEXT NOT NULL,              -- layout id
        layout_hash TEXT NOT NULL,         -- hash of the resolved layout tree it was scored with
        game TEXT NOT NULL,
        warnings TEXT NOT NULL,            -- JSON list
        record_hash TEXT NOT NULL,         -- hash of the record's data: duplicates
        record_text TEXT NOT NULL,         -- the record file as it was: re-scoring
        source TEXT NOT NULL               -- where the record came from (relative layout paths)
    )""")
    conn.execute("CREATE INDEX games_played_at ON games (played_at)")
    conn.execute("CREATE INDEX games_record_hash ON games (record_hash)")
    conn.execute("""CREATE TABLE players (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,             -- the record's order, from 0
        name TEXT NOT NULL,
        total INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        winner INTEGER NOT NULL,           -- 1 for every winner (rank 1)
        breakdown TEXT NOT NULL,           -- JSON object, category -> points
        marks TEXT NOT NULL,               -- JSON object, the player's raw marks in the record
        PRIMARY KEY (game_id, seat)
    )""")


def _v2(conn: sqlite3.Connection) -> None:
    """Names compared in Python (SQLite's lower() folds ASCII only, so 'ÉLODIE' and
    'élodie' differed), stored beside the name and indexed for --player."""
    conn.execute("ALTER TABLE players ADD COLUMN name_key TEXT NOT NULL DEFAULT ''")
    rows = conn.execute("SELECT game_id, seat, name FROM players").fetchall()
    conn.executemany(
        "UPDATE players SET name_key = ? WHERE game_id = ? AND seat = ?",
        [(name_key(name), gid, seat) for gid, seat, name in rows],
    )
    conn.execute("CREATE INDEX players_name_key ON players (name_key)")


def _v3(conn: sqlite3.Connection) -> None:
    """Games in progress at the table (`sheetgen serve`, sheetgen.history.live): kept
    beside the finished ones so that a restart loses nothing."""
    conn.execute("""CREATE TABLE live_games (
        id TEXT PRIMARY KEY,               -- random, in the game's address
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        layout TEXT NOT NULL,              -- the layout as the server offers it (a built-in id or a file)
        layout_hash TEXT NOT NULL,         -- the resolved layout's hash when the game began
        lang TEXT NOT NULL,
        players TEXT NOT NULL,             -- JSON list of names, in seat order
        marks TEXT NOT NULL,               -- JSON list, per player, of {box field name: value}
        version INTEGER NOT NULL,          -- one more at every change
        undo TEXT NOT NULL,                -- JSON list of changes, oldest first
        redo TEXT NOT NULL,                -- JSON list of changes undone, most recent last
        kept_id INTEGER                    -- the history's game once finished
    )""")


def _v4(conn: sqlite3.Connection) -> None:
    """Photos of the sheets at the table: what a game's photos left in doubt (boxes the
    reader could not decide, numbers written by hand), and a small picture of each box in
    doubt, kept while the game is in progress (the photos themselves are never kept)."""
    conn.execute("ALTER TABLE live_games ADD COLUMN doubts TEXT NOT NULL DEFAULT '[]'")
    conn.execute("""CREATE TABLE live_crops (
        game_id TEXT NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
        player INTEGER NOT NULL,           -- 1-based
        box TEXT NOT NULL,                 -- the box's field name
        image BLOB NOT NULL,               -- JPEG: the photo round the box, mapped onto the page
        PRIMARY KEY (game_id, player, box)
    )""")


MIGRATIONS = [_v1, _v2, _v3, _v4]  # MIGRATIONS[i]: version i -> i + 1
SCHEMA_VERSION = len(MIGRATIONS)


# --- opening --------------------------------------------------------------------------


def db_path(path: str | Path | None = None) -> Path:
    """The history file: `path`, else $SHEETGEN_DB, else the user's data folder."""
    from sheetgen.fileio import not_a_folder_name

    if path:
        not_a_folder_name(str(path))
        return Path(path)
    env = os.environ.get("SHEETGEN_DB")
    if env:
        not_a_folder_name(env)
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("sheetgen", appauthor=False)) / FILE_NAME


@contextmanager
def _sql_errors(path: Path):
    """sqlite3 errors as one-line HistoryErrors naming the file."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise HistoryError(
                f"{path}: the history stayed busy for {BUSY_SECONDS:g} s (another sheetgen is writing it); try again"
            ) from None
        raise HistoryError(f"{path}: cannot use the history: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise HistoryError(f"{path}: not a sheetgen history, or a damaged one ({exc})") from None


@contextmanager
def _write(conn: sqlite3.Connection):
    """One write transaction, taken at once (BEGIN IMMEDIATE): all of it or nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def opened(path: str | Path | None = None, create: bool = False):
    """A connection to the history, checked and migrated to SCHEMA_VERSION; None when
    the file does not exist and `create` is false (nothing kept yet)."""
    conn = connect(path, create)
    if conn is None:
        yield None
        return
    try:
        with _sql_errors(db_path(path)):
            yield conn
    finally:
        conn.close()


def connect(path: str | Path | None = None, create: bool = False) -> sqlite3.Connection | None:
    """What `opened` gives, for a caller that keeps it open (and closes it): a server
    keeps one connection rather than opening the file at every change. Usable from any
    one thread at a time."""
    path = db_path(path)
    if path.is_dir():
        raise HistoryError(f"{path}: is a folder, not a history file")
    if not path.exists():
        if not create:
            return None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HistoryError(f"{path}: cannot create the history: {exc.strerror}") from None
    with _sql_errors(path):
        conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    try:
        with _sql_errors(path):
            _prepare(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    version = conn.execute("PRAGMA user_version").fetchone()[0]  # reads the header: a corrupt file fails here
    _check_version(conn, path, version)
    conn.execute("PRAGMA foreign_keys = ON")
    _to_wal(conn)
    if version < SCHEMA_VERSION:
        with _write(conn):
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            for step in MIGRATIONS[version:]:
                step(conn)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _to_wal(conn: sqlite3.Connection) -> None:
    """The file in WAL mode. Switching needs the file to itself for a moment, and SQLite
    answers "database is locked" at once, without waiting, while another process holds it
    (two sheetgens creating the history together): the switch is tried again every 20 ms,
    for BUSY_SECONDS at most."""
    deadline = time.monotonic() + BUSY_SECONDS
    while conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError("database is locked")
        time.sleep(0.02)


def _check_version(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """Refuse, before changing anything, a file from a newer sheetgen or one that is not ours."""
    if version > SCHEMA_VERSION:
        raise HistoryError(
            f"{path}: this history was written by a newer sheetgen (schema version {version}; "
            f"this one knows versions up to {SCHEMA_VERSION}); upgrade sheetgen to use it. "
            "The file was left as it is"
        )
    if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise HistoryError(
            f"{path}: an SQLite file that is not a sheetgen history (it has tables of its own); "
            "the file was left as it is"
        )


# --- keeping games ----------------------------------------------------------------------


class AlreadyKept(HistoryError):
    """Games refused as kept already (the same record): `kept`, the ids they are kept as."""

    def __init__(self, problems, kept: list[int]):
        super().__init__(problems)
        self.kept = kept


@dataclass
class KeptPlayer:
    name: str
    total: int
    rank: int
    winner: bool
    breakdown: dict
    marks: dict


@dataclass
class KeptGame:
    id: int | None
    played_at: str
    layout: str
    layout_hash: str
    game: str
    warnings: list
    record_hash: str
    record_text: str
    source: str
    players: list = field(default_factory=list)
    saved_at: str = ""


def now_iso() -> str:
    return datetime.now().isoformat(timespec="seconds")


def to_keep(scored, text: str, source: str) -> KeptGame:
    """What is kept of a scored record (sheetgen.scoring.record.Scored) and its file's text.
    A record in which nothing is marked (a blank template) is no played game: refused."""
    from sheetgen.scoring.record import nothing_marked

    if nothing_marked(scored):
        raise HistoryError(
            f"{source}: nothing is marked on any player's sheet (a blank record); "
            "nothing was saved: fill in the marks first"
        )
    return _kept(scored, text, source)


def _kept(scored, text: str, source: str) -> KeptGame:
    raw = scored.record.get("_node", {})
    raw_players = raw.get("players", []) if isinstance(raw, dict) else []
    players = []
    for n, (s, r) in enumerate(zip(scored.scores, scored.ranks)):
        marks = plain_tree(raw_players[n]) if n < len(raw_players) else {}
        marks.pop("name", None)
        players.append(KeptPlayer(s.name, s.total, r, s.name in scored.winners, dict(s.breakdown), marks))
    if source.startswith("<"):
        where = source
    else:
        where = str(Path(source).resolve())
    return KeptGame(
        None,
        scored.record.get("date") or now_iso(),
        scored.layout.id,
        scored.layout.digest,
        scored.layout.game,
        list(scored.warnings),
        tree_hash(raw),
        text,
        where,
        players,
    )


def save_games(games: list[KeptGame], path: str | Path | None = None, again: bool = False, progress=None) -> list[int]:
    """Keep `games` in one transaction (all or none); their new ids. A game whose record is
    already kept (same data, whatever its layout in the file) is refused unless `again`,
    naming where both came from. `progress(n)`, if given, hears how many are written."""
    with opened(path, create=True) as conn, _write(conn):
        problems, seen, kept = [], {}, []
        for g in () if again else games:
            hit = conn.execute(
                "SELECT id, played_at, source FROM games WHERE record_hash = ? ORDER BY id LIMIT 1", (g.record_hash,)
            ).fetchone()
            if hit:
                kept.append(hit[0])
                problems.append(
                    f"{g.source}: this game is already kept (game {hit[0]}, played {hit[1]}, from {hit[2]}); "
                    "nothing was saved; use --again to keep it twice"
                )
            elif g.record_hash in seen:
                problems.append(
                    f"{g.source}: the same game as {seen[g.record_hash]}; nothing was saved; "
                    "use --again to keep it twice"
                )
            seen.setdefault(g.record_hash, g.source)
        if problems:
            raise AlreadyKept(problems, kept)
        saved = now_iso()
        ids = []
        for n, g in enumerate(games, 1):
            if progress and n % 100 == 0:
                progress(n)
            cur = conn.execute(
                "INSERT INTO games (played_at, saved_at, layout, layout_hash, game, warnings, "
                "record_hash, record_text, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    g.played_at,
                    saved,
                    g.layout,
                    g.layout_hash,
                    g.game,
                    _json(g.warnings),
                    g.record_hash,
                    g.record_text,
                    g.source,
                ),
            )
            ids.append(cur.lastrowid)
        _pause_for_tests()
        for gid, g in zip(ids, games):
            conn.executemany(
                "INSERT INTO players (game_id, seat, name, name_key, total, rank, winner, breakdown, "
                "marks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        gid,
                        n,
                        p.name,
                        name_key(p.name),
                        p.total,
                        p.rank,
                        int(p.winner),
                        _json(p.breakdown),
                        _json(p.marks),
                    )
                    for n, p in enumerate(g.players)
                ],
            )
        return ids


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _pause_for_tests() -> None:
    marker = os.environ.get(PAUSE_ENV)
    if marker:
        Path(marker).touch()
        time.sleep(60)


# --- reading ------------------------------------------------------------------------------


@dataclass
class Filter:
    game: str | None = None  # a game (bosk) or a layout id (harvest-dice-advanced)
    keys: set | None = None  # name keys: games any of them played
    since: str | None = None  # ISO date or date-time, inclusive
    until: str | None = None  # ISO date (the whole day) or date-time, inclusive
    ids: list | None = None


def day_after(iso_date: str) -> str:
    return (date.fromisoformat(iso_date) + timedelta(days=1)).isoformat()


def _where(f: Filter) -> tuple[str, list]:
    sql, args = [], []
    if f.game:
        sql.append("(game = ? OR layout = ?)")
        args += [f.game, f.game]
    if f.keys is not None:
        sql.append(f"id IN (SELECT game_id FROM players WHERE name_key IN ({', '.join('?' * len(f.keys))}))")
        args += sorted(f.keys)
    if f.since:
        sql.append("played_at >= ?")
        args.append(f.since)
    if f.until:
        if len(f.until) == 10:
            sql.append("played_at < ?")
            args.append(day_after(f.until))
        else:
            sql.append("played_at <= ?")
            args.append(f.until)
    if f.ids is not None:
        sql.append(f"id IN ({', '.join('?' * len(f.ids))})")
        args += list(f.ids)
    return (" WHERE " + " AND ".join(sql)) if sql else "", args


def find_games(
    f: Filter | None = None, path: str | Path | None = None, limit: int | None = None, damaged: list | None = None
) -> tuple[list[KeptGame], int]:
    """The kept games matching `f`, newest first (at most `limit`), and how many match in all.
    A game whose row cannot be read back (its JSON damaged by another program) is left
    out, and what is wrong with it is added to `damaged` (the rest are still shown)."""
    f = f or Filter()
    damaged = [] if damaged is None else damaged
    with opened(path) as conn:
        if conn is None:
            return [], 0
        where, args = _where(f)
        count = conn.execute(f"SELECT count(*) FROM games{where}", args).fetchone()[0]
        tail = " LIMIT ?" if limit else ""
        rows = conn.execute(
            "SELECT id, played_at, layout, layout_hash, game, warnings, record_hash, record_text, "
            f"source, saved_at FROM games{where} ORDER BY played_at DESC, id DESC{tail}",
            args + ([limit] if limit else []),
        ).fetchall()
        games = {}
        for r in rows:
            warnings = _decoded(r[5], r[0], "warnings", damaged)
            if warnings is not _BAD:
                games[r[0]] = KeptGame(r[0], r[1], r[2], r[3], r[4], warnings, r[6], r[7], r[8], [], r[9])
        ids = list(games)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            for gid, name, total, rank, winner, breakdown, marks in conn.execute(
                "SELECT game_id, name, total, rank, winner, breakdown, marks FROM players "
                f"WHERE game_id IN ({', '.join('?' * len(chunk))}) ORDER BY game_id, seat",
                chunk,
            ):
                if gid not in games:
                    continue
                breakdown = _decoded(breakdown, gid, f"breakdown of player '{name}'", damaged)
                marks = _decoded(marks, gid, f"marks of player '{name}'", damaged)
                if breakdown is _BAD or marks is _BAD:
                    del games[gid]
                    continue
                games[gid].players.append(KeptPlayer(name, total, rank, bool(winner), breakdown, marks))
        return list(games.values()), count - (len(rows) - len(games))


_BAD = object()


def _decoded(text, gid: int, what: str, damaged: list):
    """The JSON `text` of game `gid`'s `what`, or _BAD (and a line in `damaged`)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        damaged.append(f"game {gid}: its {what} cannot be read (not valid JSON); left out")
        return _BAD
    return value


def remove_game(gid: int, path: str | Path | None = None) -> KeptGame:
    """Remove game `gid` and its players (one transaction); the game as it was (of a
    damaged game, what can be read: its date, layout and player names)."""
    games, _ = find_games(Filter(ids=[gid]), path)
    with opened(path) as conn:
        row = (
            None
            if conn is None
            else conn.execute("SELECT played_at, layout FROM games WHERE id = ?", (gid,)).fetchone()
        )
        if row is None:
            raise HistoryError(f"{db_path(path)}: no game {gid} in the history")
        with _write(conn):
            if not games:
                names = conn.execute("SELECT name FROM players WHERE game_id = ? ORDER BY seat", (gid,)).fetchall()
                players = [KeptPlayer(n, 0, 0, False, {}, {}) for (n,) in names]
                games = [KeptGame(gid, row[0], row[1], "", "", [], "", "", "", players)]
            if conn.execute("DELETE FROM games WHERE id = ?", (gid,)).rowcount != 1:
                raise HistoryError(f"{db_path(path)}: no game {gid} in the history")
            # the game as it was played at the table (its marks) goes with it: a game kept
            # later may take the same id
            conn.execute("DELETE FROM live_games WHERE kept_id = ?", (gid,))
    return games[0]


# --- re-scoring ----------------------------------------------------------------------------


@dataclass
class Rescored:
    game: KeptGame
    now: KeptGame | None  # the game scored again with today's layouts (None: it cannot be)
    problem: str = ""


def rescore_games(
    gid: int | None = None, path: str | Path | None = None, damaged: list | None = None
) -> list[Rescored]:
    """Score every kept game (or game `gid`) again from its kept record, against the
    layouts as they are now. Changes nothing. Damaged games are left out (see find_games)."""
    from sheetgen.scoring.record import score_data
    from sheetgen.yamlsrc import loads

    games, found = find_games(Filter(ids=[gid] if gid is not None else None), path, damaged=damaged)
    if gid is not None and not found:
        raise HistoryError(f"{db_path(path)}: no game {gid} in the history")
    out = []
    for g in reversed(games):  # oldest first
        try:
            scored = score_data(loads(g.record_text, g.source), g.source)
        except SheetgenError as exc:
            out.append(Rescored(g, None, exc.problems[0]))
            continue
        now = _kept(scored, g.record_text, g.source)
        now.id, now.played_at, now.saved_at = g.id, g.played_at, g.saved_at
        out.append(Rescored(g, now))
    return out


def apply_rescore(results: list[Rescored], path: str | Path | None = None) -> int:
    """Replace the kept scores of the games that were re-scored (one transaction);
    how many games changed."""
    changed = [r for r in results if r.now is not None and differs(r.game, r.now)]
    if not changed:
        return 0
    with opened(path) as conn, _write(conn):
        for r in changed:
            conn.execute(
                "UPDATE games SET layout = ?, layout_hash = ?, warnings = ? WHERE id = ? AND record_hash = ?",
                (r.now.layout, r.now.layout_hash, _json(r.now.warnings), r.game.id, r.game.record_hash),
            )
            conn.executemany(
                "UPDATE players SET total = ?, rank = ?, winner = ?, breakdown = ? WHERE game_id = ? AND seat = ?",
                [
                    (p.total, p.rank, int(p.winner), _json(p.breakdown), r.game.id, n)
                    for n, p in enumerate(r.now.players)
                ],
            )
    return len(changed)


def differs(old: KeptGame, new: KeptGame) -> bool:
    """Would re-scoring change what is kept?"""

    def kept(g):
        return (
            g.layout,
            g.layout_hash,
            g.warnings,
            [(p.name, p.total, p.rank, p.winner, p.breakdown) for p in g.players],
        )

    return kept(old) != kept(new)
