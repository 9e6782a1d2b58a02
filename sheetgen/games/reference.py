"""What each game's rules read from a layout, from the game contract (`Game.reads_of`,
`player_fields`, `record_fields`, `categories`): for `sheetgen show --scorer` (one
layout, with its current values) and for docs/games.md (every game, generated, and
kept current by tests/test_game_reference.py).

Regenerate the docs with `python -m sheetgen.games.reference > docs/games.md`.
"""

from __future__ import annotations

import sys

from sheetgen.games import game_for, game_ids, load_layout, registry
from sheetgen.layout import elements as E
from sheetgen.layout.describe import PLACEMENT_KEYS, keys_of, origin, short
from sheetgen.layout.resolve import builtin_ids
from sheetgen.schema import Color, Map

# keys of an element that only decorate it: never read by a scorer
_DECORATION = (E.Label, E.IconName, Color)


def read_values(el: dict) -> dict:
    """{key: {value, from}} of an element's keys a scorer may read: not its place, its
    labels, icons or colours."""
    fields = E.TYPES[el["type"]].fields
    out = {}
    for key, item in keys_of(el["_node"]).items():
        if key in PLACEMENT_KEYS or key in ("id", "type"):
            continue
        spec = fields[key].spec if key in fields else None
        if isinstance(spec, _DECORATION):
            continue
        out[key] = item
    return out


def scorer_reads(layout) -> dict:
    """What the game's rules read from `layout`, with the values it has now."""
    game = game_for(layout)
    reads = game.reads_of(layout)
    elements = []
    for eid, kind in reads.elements.items():
        el = layout.by_id.get(eid)
        item = {"id": eid, "type": kind, "present": el is not None}
        if el is not None:
            item["from"] = origin(el["_node"])
            item["values"] = read_values(el)
        elements.append(item)
    node = layout.tree.get("constants") or {}
    constants = []
    for name in (*reads.constants, *reads.optional_constants):
        item = {"name": name, "optional": name in reads.optional_constants, "present": name in layout.constants}
        if item["present"]:
            item["value"] = layout.constants[name]
            item["verified"] = f"constants.{name}" not in layout.unverified
            item["from"] = origin(node, name)
        constants.append(item)
    return {"layout": layout.id, "game": game.id, "elements": elements, "constants": constants}


def scorer_text(data: dict) -> str:
    lines = [f"{data['layout']}: what the {data['game']} scorer reads"]
    lines.append("elements:")
    for el in data["elements"]:
        if not el["present"]:
            lines.append(f"  {el['id']}  {el['type']}  MISSING: the scorer cannot use this layout")
            continue
        lines.append(f"  {el['id']}  {el['type']}  {el['from']}")
        for key, item in el["values"].items():
            lines.append(f"      {key}: {short(item['value'])}  {item['from']}")
    lines.append("constants:" if data["constants"] else "constants: none")
    for c in data["constants"]:
        if not c["present"]:
            why = "absent (optional: its absence means something)" if c["optional"] else "MISSING"
            lines.append(f"  {c['name']}: {why}")
            continue
        flag = "" if c["verified"] else "  [verified: false]"
        lines.append(f"  {c['name']} = {short(c['value'])}{flag}  {c['from']}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- docs/games.md


def _layouts_of(game_id: str) -> list:
    return [lay for lay in (load_layout(i) for i in builtin_ids()) if lay.game == game_id]


def _spec_text(fld) -> str:
    if isinstance(fld.spec, Map):
        return "a mapping: " + ", ".join(f"`{k}`" for k in fld.spec.fields)
    return getattr(fld.spec, "description", "") or ""


def game_reference(game_id: str) -> str:
    """The reference section of one game (Markdown)."""
    game = registry()[game_id]
    layouts = _layouts_of(game_id)
    first = layouts[0]
    lines = [f"## `{game_id}`", ""]
    lines.append("Built-in layouts: " + ", ".join(f"`{lay.id}`" for lay in layouts) + ".")
    lo, hi = game.player_range(first)
    lines += ["", f"Players per record: {lo}-{hi} (`{first.id}`).", ""]
    lines += ["### What the scorer reads", "", "| element | type | built-in layouts |", "|---|---|---|"]
    seen: dict = {}
    for lay in layouts:
        for eid, kind in game.reads_of(lay).elements.items():
            seen.setdefault((eid, kind), []).append(lay.id)
    for (eid, kind), ids in seen.items():
        lines.append(f"| `{eid}` | `{kind}` | {', '.join(ids)} |")
    if not seen:
        lines.append("| (none: only constants) | | |")
    reads = game.reads_of(first)
    names = list(dict.fromkeys(n for lay in layouts for n in game.reads_of(lay).constants))
    optional = list(dict.fromkeys(n for lay in layouts for n in game.reads_of(lay).optional_constants))
    lines += ["", "| constant | required | value in " + " / ".join(f"`{lay.id}`" for lay in layouts) + " |"]
    lines.append("|---|---|---|")
    for name in names + optional:
        values = " / ".join(short(lay.constants[name], 40) if name in lay.constants else "absent" for lay in layouts)
        lines.append(f"| `{name}` | {'no' if name in optional else 'yes'} | {values} |")
    if not names and not optional:
        lines.append("| (none) | | |")
    lines += ["", f"### Record fields (one player, `{first.id}`)", "", "| field | what |", "|---|---|"]
    for key, fld in game.player_fields(first).items():
        what = fld.doc or _spec_text(fld)
        lines.append(f"| `{key}` | {what.replace('|', '/')} |")
    record = game.record_fields(first)
    if record:
        lines += ["", "Record-level fields:", "", "| field | what |", "|---|---|"]
        for key, fld in record.items():
            lines.append(f"| `{key}` | {(fld.doc or _spec_text(fld)).replace('|', '/')} |")
    lines += ["", "Score categories: " + ", ".join(f"`{k}` ({v['en']})" for k, v in game.categories(first)) + "."]
    kept = ", ".join(f"`{e}` ({k})" for e, k in reads.elements.items()) or "none"
    required = ", ".join(f"`{n}`" for n in reads.constants) or "none"
    lines += [
        "",
        "### What a variant may change",
        "",
        "- **May change**: the values of the constants above and every key of the elements above "
        "(their boxes, sections, values, sizes, places): the scorer reads them from the layout, "
        "so it follows the variant; anything else on the sheet (texts, colours, zones it does "
        "not read).",
        f"- **May not**: remove, rename or change the type of the elements the scorer reads "
        f"({kept}), or remove a required constant ({required}); `sheetgen validate` says "
        "which one is missing, and `sheetgen show LAYOUT --scorer` lists them with their values.",
        "",
    ]
    return "\n".join(lines)


def games_markdown() -> str:
    """docs/games.md: every game's reference."""
    head = [
        "# Games: what each scorer reads",
        "",
        "Generated from the game contract (`sheetgen/games/*.py`, `GAME = Game(...)`) by",
        "`python -m sheetgen.games.reference > docs/games.md`; a test keeps it current.",
        "For one layout, with its current values: `sheetgen show LAYOUT --scorer`.",
        "",
        "",
    ]
    return "\n".join(head) + "\n".join(game_reference(g) for g in game_ids())


if __name__ == "__main__":  # pragma: no cover - the docs generator
    sys.stdout.write(games_markdown())
