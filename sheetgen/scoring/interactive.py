"""`sheetgen score LAYOUT --interactive`: ask player by player, field by field,
show the allowed range, re-ask on bad input. Each answer is checked with the
same spec the record validator uses.

The questions go through a `Prompter` (the CLI gives one that talks to the
terminal), so this module knows nothing of Click."""

from __future__ import annotations

from typing import Protocol

from sheetgen import yamlsrc
from sheetgen.errors import SheetgenError
from sheetgen.games import game_for
from sheetgen.games.fields import Name
from sheetgen.schema import INVALID, Ctx, Int, ListOf, Map, Where


def parse_answer(text: str, spec):
    """What a person typed -> a value for `spec` (lists may be typed with commas)."""
    text = text.strip()
    if isinstance(spec, ListOf) and not text.startswith("["):
        return [_scalar(part) for part in text.replace(";", ",").split(",") if part.strip()]
    return _scalar(text)


def _scalar(text: str):
    text = text.strip()
    try:
        value = yamlsrc.loads(text)  # `010` is ten, not YAML 1.1's octal eight
    except SheetgenError:
        return text
    return value if isinstance(value, (int, str, list)) and not isinstance(value, bool) else text


class Prompter(Protocol):
    def prompt(self, text: str, default: str | None = None) -> str:
        """Ask and return what the person typed (the default when they typed nothing)."""

    def say(self, text: str) -> None:
        """Tell the person something (why an answer was refused)."""


def ask(io: Prompter, prompt: str, spec, default=None):
    """Prompt until the answer passes `spec`; return the normalised value."""
    desc = getattr(spec, "description", "")
    shown = f"{prompt} [{desc}]" if desc and desc != "a value" else prompt
    while True:
        dflt = (
            None if default is None else (", ".join(map(str, default)) if isinstance(default, list) else str(default))
        )
        text = io.prompt(shown, dflt)
        value = parse_answer(text, spec)
        ctx = Ctx()
        got = spec.check(value, ctx, Where(None, None, ""))
        if got is not INVALID:
            return value
        for problem in ctx.errors:
            io.say(f"  {problem.path}: {problem.message}" if problem.path else f"  {problem.message}")


def _ask_field(io: Prompter, who: str, key: str, field, default):
    if isinstance(field.spec, Map):
        return {
            sub: _ask_field(io, who, f"{key}.{sub}", f, (default or {}).get(sub))
            for sub, f in field.spec.fields.items()
        }
    doc = f" — {field.doc}" if field.doc else ""
    return ask(io, f"{who}: {key}{doc}", field.spec, default)


def ask_record(io: Prompter, layout, ref: str, players: int | None = None) -> dict:
    game = game_for(layout)
    lo, hi = game.player_range(layout)
    if players is None:
        players = ask(io, "How many players", Int(lo, hi))
    record = {"layout": ref}
    names = []
    people = []
    fields = game.player_fields(layout)
    blank = game.blank_player(layout)
    for n in range(players):
        name = ask(io, f"Player {n + 1} name", Name(), f"Player {n + 1}")
        while name in names:
            io.say(f"  two players are named '{name}'")
            name = ask(io, f"Player {n + 1} name", Name())
        names.append(name)
        player = {"name": name}
        for key, field in fields.items():
            if key not in blank and not field.required:
                continue  # an optional mark this sheet does not print (Imperial Settlers' basic colonies)
            player[key] = _ask_field(io, name, key, field, blank.get(key))
        people.append(player)
    for key, field in game.record_fields(layout).items():
        default = game.blank_record(layout, names).get(key)
        record[key] = _ask_field(io, "game", key, field, default)
    record["players"] = people
    return record
