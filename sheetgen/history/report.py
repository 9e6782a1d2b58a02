"""What the history shows: names merged (case, spaces, aliases), the last games and
the standings as tables (French or English, like `score`'s), JSON or CSV with one
row per player per game (history) or per player and game (stats)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sheetgen.errors import HistoryError
from sheetgen.history.store import KeptGame, Rescored, differs, name_key
from sheetgen.scoring.output import WORDS as SCORE_WORDS
from sheetgen.scoring.output import csv_rows, lines
from sheetgen.scoring.record import parse_iso_date

WORDS = {
    "en": {
        "id": "#",
        "date": "Date",
        "game": "Game",
        "players": "Players",
        "winners": "Winners",
        "scores": "Scores",
        "player": "Player",
        "plays": "Plays",
        "wins": "Wins",
        "rate": "Win rate",
        "average": "Average",
        "best": "Best",
        "none": "No games kept yet.",
        "shown": "{n} of {total} games shown (--limit 0 for all)",
        "kept_game": "game",
        "unchanged": "unchanged",
        "cannot": "cannot be re-scored",
        "layout_changed": "the layout changed since the game was kept",
        "total": "total",
        "rank": "rank",
        "warnings": "warnings",
    },
    "fr": {
        "id": "N°",
        "date": "Date",
        "game": "Jeu",
        "players": "Joueurs",
        "winners": "Gagnants",
        "scores": "Points",
        "player": "Joueur",
        "plays": "Parties",
        "wins": "Victoires",
        "rate": "Victoires (%)",
        "average": "Moyenne",
        "best": "Meilleur",
        "none": "Aucune partie gardée pour l'instant.",
        "shown": "{n} parties affichées sur {total} (--limit 0 pour toutes)",
        "kept_game": "partie",
        "unchanged": "inchangée",
        "cannot": "impossible de la recompter",
        "layout_changed": "la feuille a changé depuis que la partie a été gardée",
        "total": "total",
        "rank": "rang",
        "warnings": "avertissements",
    },
}


# --- names ----------------------------------------------------------------------------------


class Names:
    """Who is who: names compared trimmed and case-insensitively; `aliases` ("Bob=Robert")
    merge a name into another. The name shown is the alias's, else the spelling most
    used in the games shown (on a tie, the earliest game's)."""

    def __init__(self, aliases=()):
        self.aliases: dict[str, str] = {}
        for text in aliases:
            old, sep, new = text.partition("=")
            if not sep or not old.strip() or not new.strip():
                raise HistoryError(f'--alias {text!r}: expected OLD=NEW, e.g. "Bob=Robert"')
            self.aliases[name_key(old)] = " ".join(new.split())
        self.spellings: dict[str, Counter] = {}

    def learn(self, games: list[KeptGame]) -> Names:
        """Count the spellings of every name in `games` (newest first)."""
        for g in reversed(games):
            for p in g.players:
                self.spellings.setdefault(self.key(p.name), Counter())[" ".join(p.name.split())] += 1
        return self

    def key(self, name: str) -> str:
        key, seen = name_key(name), set()
        while key in self.aliases and key not in seen:
            seen.add(key)
            key = name_key(self.aliases[key])
        return key

    def show(self, name: str) -> str:
        key = self.key(name)
        for new in self.aliases.values():
            if name_key(new) == key:
                return new
        counts = self.spellings.get(key)
        return counts.most_common(1)[0][0] if counts else " ".join(name.split())

    def keys_for(self, name: str) -> set[str]:
        """Every stored name key that means the same player as `name`."""
        key = self.key(name)
        return {key} | {old for old in self.aliases if self.key(old) == key}


def iso_bound(text: str | None, option: str) -> str | None:
    if text is None:
        return None
    value = parse_iso_date(text)
    if value is None:
        raise HistoryError(f"{option} {text!r}: expected an ISO date like 2026-11-30 or 2026-11-30T20:15")
    return value


@dataclass
class Found:
    """Kept games found: who is who (`names`, having learnt their spellings), the name keys
    asked for (`keys`, None: everyone), the games (newest first), how many match in all,
    and what could not be read (`damaged`: a line a game, left out)."""

    names: Names
    keys: set | None
    games: list
    total: int
    damaged: list


def find(
    game=None, player=None, since=None, until=None, aliases=(), db=None, limit=None, options=("--since", "--until")
) -> Found:
    """The kept games that `history` and `stats` show: of a game or layout, that a player
    played (aliases apply), played between two ISO dates; `options` name the dates in a
    bad date's message."""
    from sheetgen.history import store

    names = Names(aliases)
    keys = names.keys_for(player) if player is not None else None
    f = store.Filter(game=game, keys=keys, since=iso_bound(since, options[0]), until=iso_bound(until, options[1]))
    damaged: list = []
    games, total = store.find_games(f, db, limit, damaged)
    return Found(names.learn(games), keys, games, total, damaged)


# --- history ----------------------------------------------------------------------------------


def _rows(games: list[KeptGame], names: Names) -> list[dict]:
    """One row per player per game, newest game first, players in the record's order."""
    return [
        {
            "id": g.id,
            "date": g.played_at,
            "game": g.game,
            "layout": g.layout,
            "player": names.show(p.name),
            "total": p.total,
            "rank": p.rank,
            "winner": p.winner,
            "breakdown": p.breakdown,
        }
        for g in games
        for p in g.players
    ]


def history_json(games, names: Names) -> str:
    return json.dumps(_rows(games, names), ensure_ascii=False, indent=2) + "\n"


def history_csv(games, names: Names) -> str:
    return _csv(
        ["id", "date", "game", "layout", "player", "total", "rank", "winner"],
        [{**r, "winner": "yes" if r["winner"] else ""} for r in _rows(games, names)],
    )


def _csv(keys: list[str], rows: list[dict]) -> str:
    return csv_rows(keys, rows, lineterminator="\n")


def shown_date(iso: str) -> str:
    return iso[:16].replace("T", " ")


def history_table(games, names: Names, lang: str = "en") -> str:
    """id, date, layout, players, winners, scores: one line per game, newest first."""
    w = WORDS[lang]
    if not games:
        return w["none"]
    head = [w["id"], w["date"], w["game"], w["players"], w["winners"], w["scores"]]
    rows = [
        [
            str(g.id),
            shown_date(g.played_at),
            g.layout,
            ", ".join(names.show(p.name) for p in g.players),
            ", ".join(names.show(p.name) for p in g.players if p.winner),
            ", ".join(str(p.total) for p in g.players),
        ]
        for g in games
    ]
    top, *body = lines([head, *rows], left=(1, 2, 3, 4, 5))
    return "\n".join([top, "-" * len(top), *body])


# --- standings --------------------------------------------------------------------------------


@dataclass
class Standing:
    game: str
    player: str
    plays: int = 0
    wins: int = 0
    points: int = 0
    best: int | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays

    @property
    def average(self) -> float:
        return self.points / self.plays


def standings(games: list[KeptGame], names: Names, only: set[str] | None = None) -> list[Standing]:
    """Per game and player (merged names): plays, wins, points, best. Sorted by game,
    then most wins, best win rate, best average, name. `only`: these name keys."""
    table: dict[tuple, Standing] = {}
    for g in games:
        for p in g.players:
            key = names.key(p.name)
            if only is not None and key not in only:
                continue
            s = table.setdefault((g.game, key), Standing(g.game, names.show(p.name)))
            s.plays += 1
            s.wins += p.winner
            s.points += p.total
            s.best = p.total if s.best is None else max(s.best, p.total)
    return sorted(table.values(), key=lambda s: (s.game, -s.wins, -s.win_rate, -s.average, s.player.casefold()))


def series(games: list[KeptGame], names: Names, only: set[str] | None = None) -> dict:
    """Each player's scores over time, per game (merged names, as `standings`):
    {game: {player shown: [(played_at, total, kept game id), ...] oldest first}}."""
    out: dict = {}
    for g in sorted(games, key=lambda g: (g.played_at, g.id or 0)):
        for p in g.players:
            key = names.key(p.name)
            if only is None or key in only:
                out.setdefault(g.game, {}).setdefault(names.show(p.name), []).append((g.played_at, p.total, g.id))
    return out


def shown_number(x: float, lang: str, digits: int = 1) -> str:
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "fr" else text


def stats_table(rows: list[Standing], lang: str = "en") -> str:
    w = WORDS[lang]
    if not rows:
        return w["none"]
    head = [w["game"], w["player"], w["plays"], w["wins"], w["rate"], w["average"], w["best"]]
    pct = " %" if lang == "fr" else "%"
    body = [
        [
            s.game,
            s.player,
            str(s.plays),
            str(s.wins),
            f"{round(100 * s.win_rate)}{pct}",
            shown_number(s.average, lang),
            str(s.best),
        ]
        for s in rows
    ]
    top, *rest = lines([head, *body], left=(0, 1))
    return "\n".join([top, "-" * len(top), *rest])


def _stat_rows(rows: list[Standing]) -> list[dict]:
    return [
        {
            "game": s.game,
            "player": s.player,
            "plays": s.plays,
            "wins": s.wins,
            "win_rate": round(s.win_rate, 4),
            "average": round(s.average, 2),
            "best": s.best,
        }
        for s in rows
    ]


def stats_json(rows: list[Standing]) -> str:
    return json.dumps(_stat_rows(rows), ensure_ascii=False, indent=2) + "\n"


def stats_csv(rows: list[Standing]) -> str:
    return _csv(["game", "player", "plays", "wins", "win_rate", "average", "best"], _stat_rows(rows))


# --- re-scoring -------------------------------------------------------------------------------


def rescore_report(results: list[Rescored], lang: str = "en") -> str:
    """One paragraph per game: unchanged, what would change, or why it cannot be re-scored."""
    w = WORDS[lang]
    colon = SCORE_WORDS[lang]["colon"]
    out = []
    for r in results:
        g = r.game
        head = f"{w['kept_game']} {g.id} ({shown_date(g.played_at)}, {g.layout})"
        if r.now is None:
            out.append(f"{head}{colon} {w['cannot']}{colon} {r.problem}")
        elif not differs(g, r.now):
            out.append(f"{head}{colon} {w['unchanged']}")
        else:
            out.append("\n".join([f"{head}{colon}", *_changes(g, r.now, w, colon)]))
    return "\n".join(out)


def _changes(old: KeptGame, new: KeptGame, w: dict, colon: str) -> list[str]:
    out = []
    if old.layout_hash != new.layout_hash:
        out.append(f"  {w['layout_changed']}")
    for was, now in zip(old.players, new.players):
        if (was.total, was.rank) == (now.total, now.rank) and was.breakdown == now.breakdown:
            continue
        moved = [
            f"{k} {was.breakdown.get(k, '-')} -> {now.breakdown.get(k, '-')}"
            for k in dict.fromkeys([*was.breakdown, *now.breakdown])
            if was.breakdown.get(k) != now.breakdown.get(k)
        ]
        out.append(
            f"  {was.name}{colon} {w['total']} {was.total} -> {now.total}, {w['rank']} {was.rank} -> {now.rank}"
            + (f" ({', '.join(moved)})" if moved else "")
        )
    before = [p.name for p in old.players if p.winner]
    after = [p.name for p in new.players if p.winner]
    if before != after:
        out.append(f"  {w['winners'].lower()}{colon} {', '.join(before)} -> {', '.join(after)}")
    if old.warnings != new.warnings:
        out.append(f"  {w['warnings']}{colon} {len(old.warnings)} -> {len(new.warnings)}")
    return out
