"""`sheetgen template`: a commented blank record for N players, generated from
the game's field specs and the layout (so a variant's ranges show up)."""

from __future__ import annotations

import json

from sheetgen.games import game_for
from sheetgen.layout.model import Layout
from sheetgen.schema import Map


def _flow(value) -> str:
    """A YAML flow rendering (JSON is valid YAML) of a scalar or a small list."""
    return json.dumps(value, ensure_ascii=False)


def _comment(field) -> str:
    spec = field.spec
    parts = [field.doc] if field.doc else []
    desc = getattr(spec, "description", "")
    if desc and desc not in ("a value", "a mapping") and not isinstance(spec, Map):
        parts.append(f"({desc})")
    return " ".join(parts)


def _emit(lines, indent, key, field, value):
    pad = " " * indent
    if isinstance(field.spec, Map) and isinstance(value, dict):
        if field.doc:
            lines.append(f"{pad}# {field.doc}")
        lines.append(f"{pad}{key}:")
        for sub, subfield in field.spec.fields.items():
            if sub in value:
                _emit(lines, indent + 2, sub, subfield, value[sub])
        return
    comment = _comment(field)
    if comment:
        lines.append(f"{pad}# {comment}")
    lines.append(f"{pad}{key}: {_flow(value)}")


def make_template(layout: Layout, players: int, source_ref: str) -> str:
    game = game_for(layout)
    fields = game.player_fields(layout)
    blank = game.blank_player(layout)
    lines = [
        f"# {layout.title['en']} / {layout.title['fr']}",
        f"# A blank game record for {players} players. Fill in each player's marks from",
        '# the paper sheets (numbers may be typed as sums, e.g. "10+20-5"), then run:',
        "#   sheetgen score THIS_FILE",
        f"layout: {source_ref}",
    ]
    extra = game.record_fields(layout)
    names = [f"Player {n + 1}" for n in range(players)]
    blank_record = game.blank_record(layout, names)
    for key, field in extra.items():
        if key in blank_record:
            _emit(lines, 0, key, field, blank_record[key])
    # another form of a field (`{field: {other key: value}}`), shown commented out after it
    others = game.template_alternatives(layout, players)
    lines.append("players:")
    for name in names:
        lines.append(f"  - name: {_flow(name)}")
        for key, field in fields.items():
            if key in blank:
                _emit(lines, 4, key, field, blank[key])
            for other, value in others.get(key, {}).items():
                lines.append(f"    # {fields[other].doc}")
                lines.append(f"    # {other}: {_flow(value)}")
    return "\n".join(lines) + "\n"
