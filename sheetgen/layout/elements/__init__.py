"""Element types: their keys (schema), their size, their check and their display list.

One module per type, each defining its `TYPE`; the registry below lists them all
(no module registers itself on import). Shared specs, `Env` and the drawing
helpers are in `common`. Validation of an element happens in two passes: its
keys (`check_element`, when the layout is read), then, once it is placed,
`check` (its labels' placeholders and what its type's own check refuses),
before anything is built.
"""

from __future__ import annotations

from sheetgen.layout.display import raise_text
from sheetgen.layout.elements import (
    banner,
    building,
    frame,
    grid,
    icon,
    line_tally,
    number_boxes,
    score_table,
    table,
    text,
    track,
)
from sheetgen.layout.elements.common import (  # noqa: F401  (the names other modules use)
    COMMON_FIELDS,
    FONT,
    ID_PATTERN,
    LANGS,
    POINT,
    SIZE,
    ElementType,
    Env,
    IconName,
    IdStr,
    IntRef,
    Label,
    cannot_build,
    label_problems,
    line_of_path,
    placeholders,
    problem_at,
    text_problem,
)
from sheetgen.schema import Ctx, Map, Where, describe

TYPES: dict[str, ElementType] = {
    t.name: t
    for t in (
        frame.TYPE,
        banner.TYPE,
        text.TYPE,
        icon.TYPE,
        grid.TYPE,
        track.TYPE,
        number_boxes.TYPE,
        table.TYPE,
        score_table.TYPE,
        building.TYPE,
        line_tally.TYPE,
    )
}


def element_spec(type_name: str) -> Map:
    t = TYPES[type_name]
    return Map({**COMMON_FIELDS, **t.fields}, what="an element mapping", post=t.post)


_SPECS: dict[str, Map] = {}


def check_element(value, ctx: Ctx, at: Where):
    """Validate one element mapping, dispatching on its `type`."""
    if not isinstance(value, dict):
        return ctx.error(at, f"expected an element mapping, got {describe(value)}")
    if value.get("remove") is True:  # before the type: a removal names no type
        return ctx.error(at.child(value, "remove"), f"no element '{value.get('id')}' in the parents to remove")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        where = at.child(value, "type") if "type" in value else at
        return ctx.error(
            where,
            f"unknown element type {describe(kind)}; types: {', '.join(sorted(TYPES))}"
            if "type" in value
            else "missing key 'type'",
        )
    spec = _SPECS.get(kind) or _SPECS.setdefault(kind, element_spec(kind))
    return spec.check(value, ctx, at)


def build(el: dict, env: Env) -> list:
    """A placed element's display list, its text raised to the layout's `smallest_text`."""
    return raise_text(TYPES[el["type"]].build(el, env), env.smallest_text)


def check(el: dict, env: Env) -> tuple[list, list]:
    """The problems of a placed element in env's language with env's players, as
    (key path, message): (its labels' unknown placeholders, what its type refuses).
    Only an element without the second kind can be built."""
    t = TYPES[el["type"]]
    return label_problems(t.fields, el, env), (t.check(el, env) if t.check else [])
