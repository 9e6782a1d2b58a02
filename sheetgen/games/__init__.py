"""One module per game: a record's marks -> points, parameterised by the layout.

A game module defines:

- `player_fields(layout) -> dict[str, Field]`: the schema of one player's marks;
- `record_fields(layout) -> dict[str, Field]` (optional): extra record-level keys;
- `player_range(layout) -> (min, max)`: how many players the game allows;
- `categories(layout) -> list[(key, {"fr":..., "en":...})]`: breakdown rows, in
  the order of the rules' final count;
- `check(layout, record, report)`: cross-field checks; `report.error(where, msg)`
  for what the sheet cannot hold, `report.warn(player_index, msg)` for what
  the sheet holds but the rules forbid;
- `score(layout, record) -> list[PlayerScore]`: pure scoring, same order as the
  record's players; `tiebreak` (higher wins) breaks equal totals;
- `blank_player(layout) -> dict`: an empty sheet's marks, for `template`;
- `tiebreak_labels(layout) -> list[{"fr":..., "en":...}]` (optional): what the
  tie-breakers are, shown by the score table when totals are tied.
"""

from __future__ import annotations

import importlib

GAME_MODULES = {
    "harvest-dice": "sheetgen.games.harvest_dice",
    "imperial-settlers": "sheetgen.games.imperial_settlers",
    "river-valley-glassworks": "sheetgen.games.glassworks",
    "bosk": "sheetgen.games.bosk",
    "plante-bataille": "sheetgen.games.plante_bataille",
}


def game_module(game: str):
    """The rules module of `game` (one of sheetgen.layout.model.GAMES)."""
    return importlib.import_module(GAME_MODULES[game])
