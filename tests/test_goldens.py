"""Golden PDFs: every built-in layout, A4, both languages, at the player counts that
change its drawing. One test; `pytest --regenerate` rewrites them (see conftest)."""

from __future__ import annotations

import pytest

from sheetgen.games import load_layout
from sheetgen.render import render_pdf

# (layout id, player counts drawn; None for a player sheet, which has no player columns)
CASES = [
    ("harvest-dice-normal", [None]),
    ("harvest-dice-advanced", [None]),
    ("imperial-settlers", [None]),
    ("imperial-settlers-advanced", [None]),
    ("river-valley-glassworks", [2, 5]),
    ("bosk", [2, 4]),
    ("plante-bataille", [3, 6, 12]),
]


def golden_name(layout_id: str, players: int | None, lang: str) -> str:
    count = f"-{players}p" if players is not None else ""
    return f"{layout_id}{count}-{lang}-a4.pdf"


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(
    "layout_id, players", [(lid, n) for lid, counts in CASES for n in counts], ids=lambda v: str(v)
)
def test_golden_a4(layout_id, players, lang, assert_pdf_equal):
    data = render_pdf(load_layout(layout_id), lang=lang, paper="a4", players=players)
    assert_pdf_equal(data, golden_name(layout_id, players, lang))
