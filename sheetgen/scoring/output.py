"""Score output formats: a table that reads like a filled score pad, JSON (the
contract: one object for one record, an array of them for several), JSON lines
(one object a line), CSV (one header per game). Warnings are not part of the
table or the CSV: the CLI prints them to standard error."""

from __future__ import annotations

import csv
import io
import json

from sheetgen.errors import printable
from sheetgen.games import game_for

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

WORDS = {
    "en": {
        "total": "Total",
        "rank": "Rank",
        "winner": "Winner",
        "winners": "Winners",
        "colon": ":",
        "warnings": "Warnings",
    },
    "fr": {
        "total": "Total",
        "rank": "Rang",
        "winner": "Gagnant",
        "winners": "Gagnants",
        "colon": " :",
        "warnings": "Avertissements",
    },
}


def _categories(scored, lang):
    game = game_for(scored.layout)
    cats = game.categories(scored.layout)
    keys = [k for k, _ in cats]
    extra = [k for s in scored.scores for k in s.breakdown if k not in keys]
    rows = [(k, lab[lang]) for k, lab in cats] + [(k, k) for k in dict.fromkeys(extra)]
    return rows


def as_json(scored_list) -> str:
    if len(scored_list) == 1:
        return json.dumps(scored_list[0].contract(), ensure_ascii=False, indent=2)
    return json.dumps([s.contract() for s in scored_list], ensure_ascii=False, indent=2)


def as_jsonl(scored_list) -> str:
    """One contract object a line."""
    return "".join(json.dumps(s.contract(), ensure_ascii=False) + "\n" for s in scored_list)


def csv_text(value):
    """A CSV cell: numbers stay numbers; a text that a spreadsheet would run as a formula
    (starting with =, +, -, @, tab or CR) gets a leading apostrophe, and its control
    characters but its tabs and line breaks are shown escaped (a CSV is printed to
    terminals too)."""
    if isinstance(value, str):
        value = printable(value, keep_lines=True)
        return "'" + value if value.startswith(_FORMULA_START) else value
    return value


def csv_rows(keys: list[str], rows: list[dict], lineterminator: str = "\r\n") -> str:
    """A CSV of `rows` (dicts) under the header `keys`, every cell through csv_text: every
    CSV sheetgen prints is written here or by as_csv."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator=lineterminator)
    w.writerow(keys)
    for r in rows:
        w.writerow([csv_text(r[k]) for k in keys])
    return buf.getvalue()


def as_csv(scored_list) -> str:
    """One header per game: a record whose columns differ from the previous one's starts
    a new block (a blank line, then its header)."""
    buf = io.StringIO()
    # the csv module's own dialect (RFC 4180, CRLF line ends): every cell holding a quote,
    # a comma or a line break (a lone CR included) is quoted
    w = csv.writer(buf)
    header = None
    for scored in scored_list:
        keys = [k for k, _ in _categories(scored, "en")]
        head = ["record", "layout", "player", *keys, "total", "rank", "winner"]
        if head != header:
            if header is not None:
                buf.write("\r\n")
            w.writerow(head)
            header = head
        for s, r in zip(scored.scores, scored.ranks):
            row = [
                scored.source,
                scored.layout.id,
                s.name,
                *[s.breakdown.get(k, "") for k in keys],
                s.total,
                r,
                "yes" if s.name in scored.winners else "",
            ]
            w.writerow([csv_text(c) for c in row])
    return buf.getvalue()


def lines(table: list[list[str]], left=(0,)) -> list[str]:
    """Each row of `table` as one line, every column padded to its widest cell: the
    columns in `left` aligned left, the others (numbers) right. Every table sheetgen
    prints for people is laid out here, its cells' control characters shown escaped
    (a name cannot drive the terminal)."""
    table = [[printable(c) for c in row] for row in table]
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    return [
        "  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip()
        for r in table
    ]


def as_table(scored, lang: str = "en") -> str:
    """Categories down, players across, then the total, the rank and the winners."""
    words = WORDS[lang]
    cats = _categories(scored, lang)
    names = [printable(s.name) for s in scored.scores]
    head = [f"{scored.layout.title[lang]} ({printable(scored.source)})", *names]
    rows = [[label, *[str(s.breakdown.get(k, "")) for s in scored.scores]] for k, label in cats]
    total = [words["total"], *[str(s.total) for s in scored.scores]]
    totals = [s.total for s in scored.scores]
    game = game_for(scored.layout)
    ties = []
    if len(set(totals)) < len(totals):
        for n, lab in enumerate(game.tiebreak_labels(scored.layout)):
            ties.append(
                [lab[lang], *[str(s.tiebreak_shown[n]) if n < len(s.tiebreak_shown) else "-" for s in scored.scores]]
            )
    rank = [
        words["rank"],
        *[f"{r}{' *' if s.name in scored.winners else ''}" for s, r in zip(scored.scores, scored.ranks)],
    ]
    top, *body = lines([head, *rows, total, *ties, rank])
    rule = "-" * len(top)
    n = len(rows)
    out = [top, rule, *body[:n], rule, *body[n:]]
    key = words["winners"] if len(scored.winners) > 1 else words["winner"]
    out.append(f"{key}{words['colon']} {', '.join(printable(w) for w in scored.winners)}")
    return "\n".join(out)


def ranges(numbers, most: int = 12) -> str:
    """Whole numbers as runs: [1, 2, 3, 5, 7, 8] -> '1-3, 5, 7-8'; past `most` runs, '...'."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = [f"{a}-{b}" if b > a else str(a) for a, b in runs[:most]]
    return ", ".join(shown + (["..."] if len(runs) > most else []))


FEW = 3  # a warning of at most this many games of a batch is said for each, with its place


def warning_lines(scored_list) -> list[str]:
    """The warnings of scored games, for standard error. A game alone: each as it is. Games
    of a batch: each warning with the file and line of its game, but one that many games
    share (a season of games that ended early) once, with how many and which."""
    if len(scored_list) == 1:
        return [f"warning: {printable(w)}" for w in scored_list[0].warnings]
    games: dict[str, list[str]] = {}
    for s in scored_list:
        for w in dict.fromkeys(s.warnings):
            games.setdefault(w, []).append(s.source)
    out = []
    for w, sources in games.items():
        if len(sources) <= FEW:
            out += [f"warning: {printable(src)}: {printable(w)}" for src in sources]
            continue
        files: dict[str, list[int]] = {}
        for src in sources:
            name, _, line = src.rpartition(":")
            files.setdefault(name if line.isdigit() else src, []).append(int(line) if line.isdigit() else 0)
        where = "; ".join(f"{name} lines {ranges(lines)}" if any(lines) else name for name, lines in files.items())
        out.append(f"warning: {printable(w)}: {len(sources):,} games ({printable(where)})")
    return out


def kept_line(ids: list[int], where) -> str:
    """What `--save` says it did."""
    if len(ids) == 1:
        return f"kept as game {ids[0]} in {where}"
    return f"kept {len(ids):,} games (ids {ranges(ids)}) in {where}"
