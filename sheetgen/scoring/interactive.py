"""`sheetgen score LAYOUT --interactive`: ask player by player, field by field,
show the allowed range, re-ask on bad input. Each answer is checked with the
same spec the record validator uses. Prompts and their messages go to standard
error, so that standard output holds only the scores (`--format json > out.json`)."""

from __future__ import annotations

import click

from sheetgen import yamlsrc
from sheetgen.errors import SheetgenError
from sheetgen.games import game_module
from sheetgen.schema import INVALID, Ctx, ListOf, Map, Where
from sheetgen.scoring.fields import Name


def parse_answer(text: str, spec):
    """What a person typed -> a value for `spec` (lists may be typed with commas)."""
    text = text.strip()
    if isinstance(spec, ListOf) and not text.startswith("["):
        return [_scalar(part) for part in text.replace(";", ",").split(",") if part.strip()]
    return _scalar(text)


def _scalar(text: str):
    text = text.strip()
    try:
        value = yamlsrc.loads(text)   # `010` is ten, not YAML 1.1's octal eight
    except SheetgenError:
        return text
    return value if isinstance(value, (int, str, list)) and not isinstance(value, bool) else text


def _say(text: str) -> None:
    click.echo(text, err=True)


def ask(prompt: str, spec, default=None, echo=_say):
    """Prompt until the answer passes `spec`; return the normalised value."""
    desc = getattr(spec, "description", "")
    shown = f"{prompt} [{desc}]" if desc and desc != "a value" else prompt
    while True:
        dflt = None if default is None else (", ".join(map(str, default)) if isinstance(default, list)
                                             else str(default))
        text = click.prompt(shown, default=dflt, show_default=dflt is not None, err=True)
        value = parse_answer(text, spec)
        ctx = Ctx()
        got = spec.check(value, ctx, Where(None, None, ""))
        if got is not INVALID:
            return value
        for e in ctx.errors:
            echo("  " + e.split(": ", 1)[-1])


def _ask_field(who: str, key: str, field, default):
    if isinstance(field.spec, Map):
        return {sub: _ask_field(who, f"{key}.{sub}", f, (default or {}).get(sub))
                for sub, f in field.spec.fields.items()}
    doc = f" — {field.doc}" if field.doc else ""
    return ask(f"{who}: {key}{doc}", field.spec, default)


def ask_record(layout, ref: str, players: int | None = None) -> dict:
    game = game_module(layout.game)
    lo, hi = game.player_range(layout)
    if players is None:
        players = click.prompt("How many players", type=click.IntRange(lo, hi), err=True)
    record = {"layout": ref}
    names = []
    people = []
    fields = game.player_fields(layout)
    blank = game.blank_player(layout)
    for n in range(players):
        name = ask(f"Player {n + 1} name", Name(), f"Player {n + 1}")
        while name in names:
            _say(f"  two players are named '{name}'")
            name = ask(f"Player {n + 1} name", Name())
        names.append(name)
        player = {"name": name}
        for key, field in fields.items():
            if key not in blank and not field.required:
                continue  # an optional mark this sheet does not print (Imperial Settlers' basic colonies)
            player[key] = _ask_field(name, key, field, blank.get(key))
        people.append(player)
    for key, field in (game.record_fields(layout) if hasattr(game, "record_fields") else {}).items():
        default = game.blank_record(layout, names).get(key) if hasattr(game, "blank_record") else None
        record[key] = _ask_field("game", key, field, default)
    record["players"] = people
    return record
