"""The games: one module each, found by this registry.

Each module of this package that defines `GAME = Game(...)` (sheetgen.games.base)
is a game; nothing else lists them. A layout's `game:` names one of them.
"""

from __future__ import annotations

import importlib
import os
from functools import lru_cache

from sheetgen.errors import LayoutError, Problem
from sheetgen.games.base import Game

_NOT_GAMES = {"base"}


@lru_cache(maxsize=1)
def registry() -> dict[str, Game]:
    """Every game, by id."""
    found: dict[str, Game] = {}
    for name in _module_names(__path__[0]):
        if name in _NOT_GAMES or name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            if game.id in found:
                raise RuntimeError(f"two game modules declare the game '{game.id}'")
            found[game.id] = game
    return found


def _module_names(folder: str) -> list[str]:
    """The modules of this package's folder (`x.py`, or a package `x/`), sorted: what
    pkgutil.iter_modules says for a folder, without importing pkgutil (start-up time)."""
    names = set()
    with os.scandir(folder) as entries:
        for entry in entries:
            stem, dot, ext = entry.name.partition(".")
            if dot and ext == "py" and stem.isidentifier():
                names.add(stem)
            elif not dot and entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py")):
                names.add(entry.name)
    return sorted(names)


def game_ids() -> list[str]:
    return sorted(registry())


@lru_cache(maxsize=64)
def _game(game_id: str) -> Game | None:
    """The game `game_id`: first from the module of that name (harvest-dice: harvest_dice), so
    that one command imports one game's rules; else from the registry of every module."""
    name = game_id.replace("-", "_")
    if name.isidentifier() and name not in _NOT_GAMES and not name.startswith("_"):
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
        else:
            game = getattr(module, "GAME", None)
            if isinstance(game, Game) and game.id == game_id:
                return game
    return registry().get(game_id)


def game_for(layout) -> Game:
    """The game of a layout; an unknown game is a LayoutError at the layout's `game:` line."""
    game = _game(layout.game)
    if game is None:
        file, line = layout.origin.get("game", (layout.source, 0))
        raise LayoutError(Problem(f"expected one of {', '.join(game_ids())}, got '{layout.game}'", file, line, "game"))
    return game


def load_layout(ref: str, relative_to=None):
    """The layout `ref` names (a built-in id, a path relative to `relative_to`'s folder, or `-`
    for standard input), checked (sheetgen.layout.load.read_layout) and naming a game this
    sheetgen has (game_for): the one way the rest of sheetgen loads a layout."""
    from sheetgen.layout.load import read_layout

    layout = read_layout(ref, relative_to)
    game_for(layout)
    return layout
