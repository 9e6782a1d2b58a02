"""Score output formats: a table that reads like a filled score pad, JSON (the
contract), CSV."""

from __future__ import annotations

import csv
import io
import json

from sheetgen.games import game_for

WORDS = {
    "en": {"total": "Total", "rank": "Rank", "winner": "Winner", "winners": "Winners", "colon": ":",
           "warnings": "Warnings"},
    "fr": {"total": "Total", "rank": "Rang", "winner": "Gagnant", "winners": "Gagnants", "colon": " :",
           "warnings": "Avertissements"},
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


def as_csv(scored_list) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for n, scored in enumerate(scored_list):
        keys = [k for k, _ in _categories(scored, "en")]
        if n == 0:
            w.writerow(["record", "layout", "player", *keys, "total", "rank", "winner"])
        for s, r in zip(scored.scores, scored.ranks):
            w.writerow([scored.source, scored.layout.id, s.name, *[s.breakdown.get(k, "") for k in keys],
                        s.total, r, "yes" if s.name in scored.winners else ""])
    return buf.getvalue()


def lines(table: list[list[str]], left=(0,)) -> list[str]:
    """Each row of `table` as one line, every column padded to its widest cell: the
    columns in `left` aligned left, the others (numbers) right."""
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    return ["  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip()
            for r in table]


def as_table(scored, lang: str = "en") -> str:
    """Categories down, players across, then the total, the rank and the winners."""
    words = WORDS[lang]
    cats = _categories(scored, lang)
    names = [s.name for s in scored.scores]
    head = [f"{scored.layout.title[lang]} ({scored.source})", *names]
    rows = [[label, *[str(s.breakdown.get(k, "")) for s in scored.scores]] for k, label in cats]
    total = [words["total"], *[str(s.total) for s in scored.scores]]
    totals = [s.total for s in scored.scores]
    game = game_for(scored.layout)
    ties = []
    if len(set(totals)) < len(totals):
        for n, lab in enumerate(game.tiebreak_labels(scored.layout)):
            ties.append([lab[lang], *[str(s.tiebreak_shown[n]) if n < len(s.tiebreak_shown) else "-"
                                      for s in scored.scores]])
    rank = [words["rank"], *[f"{r}{' *' if s.name in scored.winners else ''}"
                             for s, r in zip(scored.scores, scored.ranks)]]
    top, *body = lines([head, *rows, total, *ties, rank])
    rule = "-" * len(top)
    n = len(rows)
    out = [top, rule, *body[:n], rule, *body[n:]]
    key = words["winners"] if len(scored.winners) > 1 else words["winner"]
    out.append(f"{key}{words['colon']} {', '.join(scored.winners)}")
    if scored.warnings:
        out.append(f"{words['warnings']}{words['colon']}")
        out += [f"  - {w}" for w in scored.warnings]
    return "\n".join(out)
