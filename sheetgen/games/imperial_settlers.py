"""Imperial Settlers: Roll & Write — a player's Empire and Village sheets -> points.

Everything printed comes from the layout (`imperial-settlers`,
`imperial-settlers-advanced`, or a variant that extends them):

- the construction tracks `walls`, `houses`, `granaries`, `bridges` (sections
  and their values) and the track `fields` (field group n is opened by bridge
  section n: they carry the same letter);
- every `building` element (sheetgen.layout.elements.building): boxes, points (fixed or
  per completed section of a track), advanced rules only, and in the advanced
  layout the blueprint and the ladder of the underlined value;
- the constant `rules`: `basic` or `advanced` (colonies are advanced rules).

Decisions (docs/rules.md, "Rules that the seeds leave open"):
- a track scores the value of its rightmost fully completed section that has a
  printed value; a partial section scores nothing (boxes are checked from the left,
  so a count of boxes says which sections are complete);
- every building is built by checking its boxes, none from the start (« Les six
  bâtiments du Village se construisent en cochant leurs cases »); it scores its
  points once all its boxes are checked; with `per`, its points are worth that
  much per completed section of the track named;
- a building marked `advanced` (the Architects) is not part of a basic game (« le
  bâtiment Architectes sera introduit avec les règles avancées »): on a basic
  layout its boxes score 0, with a warning;
- each colony on a building moves its underlined value one step up the printed
  ladder; when the underlined value is the building's points, the gain over the
  printed points goes to the `colonies` category (only for a finished building);
  an ability's value improves play, not the count;
- favours and development points are added as written;
- ties: most completed bridges, then most field boxes harvested, then shared.
"""

from __future__ import annotations

from sheetgen.games.base import Game, PlayerScore, Reads, Written, boxes_sum, label, sum_disagrees, track_boxes
from sheetgen.games.base import sheet_players as player_range
from sheetgen.games.fields import Count
from sheetgen.layout.elements.building import TYPE as BUILDING
from sheetgen.layout.elements.building import blueprint_cells
from sheetgen.schema import INVALID, Field, Map, Spec, Where, describe

TRACKS = ("walls", "houses", "granaries", "bridges")
FIELDS = "fields"
BRIDGES = "bridges"
TRACK_NAMES = {
    "walls": label("Murs", "Walls"),
    "houses": label("Maisons", "Houses"),
    "granaries": label("Greniers", "Granaries"),
    "bridges": label("Ponts", "Bridges"),
}


# ----------------------------------------------------------------------------- the layout


def is_advanced(layout) -> bool:
    return layout.constants.get("rules") == "advanced"


def buildings(layout) -> list[dict]:
    """The building cards, in the layout's order."""
    return [el for page in layout.pages for el in page.elements if el["type"] == BUILDING.name]


def in_game(layout, b: dict) -> bool:
    """Whether a building takes part in a game on this layout: one marked `advanced`
    is printed on the shared Village sheet but left out of a basic game."""
    return is_advanced(layout) or not b["advanced"]


def building_name(b: dict) -> str:
    return b["name"]["en"]


def colony_ready(b: dict) -> bool:
    """A colony can be made on a building whose card prints a blueprint and a ladder."""
    return bool(b.get("ladder") and b.get("blueprint"))


def completed_sections(track: dict, boxes: int) -> int:
    """How many sections are fully checked when `boxes` are checked from the left."""
    done, filled = 0, 0
    for s in track["sections"]:
        filled += s["boxes"]
        if boxes < filled:
            break
        done += 1
    return done


def track_points(track: dict, boxes: int) -> int:
    """The value of the rightmost fully completed section that prints one (0 if none)."""
    points = 0
    for s in track["sections"][: completed_sections(track, boxes)]:
        if s.get("value") is not None:
            points = s["value"]
    return points


def section_letter(track: dict, n: int) -> str:
    badge = track["sections"][n].get("badge")
    return badge["en"].split()[-1] if badge else str(n + 1)


def open_fields(layout, bridge_boxes: int) -> tuple[int, list[str]]:
    """Field boxes opened by the completed bridges, and those bridges' letters."""
    bridges = layout.element(BRIDGES)
    done = completed_sections(bridges, bridge_boxes)
    groups = layout.element(FIELDS)["sections"][:done]
    return sum(g["boxes"] for g in groups), [section_letter(bridges, n) for n in range(done)]


def _recorded_boxes(player: dict) -> dict:
    return dict(player["empire"])


def per_count(layout, b: dict, player: dict) -> int:
    """What a `per` building multiplies its points by (1 without `per`)."""
    per = b.get("per")
    if not per:
        return 1
    boxes = _recorded_boxes(player)[per["track"]]
    if per["count"] == "boxes":
        return boxes
    return completed_sections(layout.element(per["track"]), boxes)


# ----------------------------------------------------------------------------- record fields


def _count(value, ctx, at, description: str):
    """A whole number (sums allowed), not negative; or INVALID after an error."""
    n = Count(None, None).check(value, ctx, at)
    if n is not INVALID and n < 0:
        return ctx.error(at, f"expected {description}, got a negative count {n}")
    return n


class ByBuilding(Map):
    """A mapping of building id -> a number, each optional (`defaults`); unknown
    buildings are errors that list the buildings. A Map, so `template` shows one
    line per building."""

    def __init__(self, specs: dict, defaults: dict, what: str, docs: dict):
        super().__init__({k: Field(spec, doc=docs[k]) for k, spec in specs.items()}, what=what)
        self.specs, self.defaults = specs, defaults

    def check(self, value, ctx, at):
        if value is None:
            value = {}
        if not isinstance(value, dict):
            return ctx.error(at, f"expected {self.what}, got {describe(value)}")
        out, ok = dict(self.defaults), True
        for key, item in value.items():
            where = at.child(value, key)
            if key not in self.specs:
                ctx.error(where, f"unknown building {describe(key)}; the buildings are: {', '.join(self.specs)}")
                ok = False
                continue
            got = self.specs[key].check(item, ctx, where)
            ok = ok and got is not INVALID
            out[key] = got
        return out if ok else INVALID


class Colonies(Spec):
    """Colonies made on one building's blueprint: 0 up to the ladder's last step."""

    def __init__(self, layout, b: dict):
        self.layout, self.b = layout, b
        self.hi = len(b["ladder"]) - 1 if colony_ready(b) and is_advanced(layout) else 0
        self.description = f"0-{self.hi}" if self.hi else "0"

    def check(self, value, ctx, at):
        n = _count(value, ctx, at, self.description)
        if n is INVALID or n == 0:
            return n
        name = building_name(self.b)
        made = f"{n} {'colony' if n == 1 else 'colonies'}"
        if not is_advanced(self.layout):
            return ctx.error(
                at,
                f"{made}, but colonies belong to the advanced rules and this layout "
                f"({self.layout.id}) prints no blueprints; score the game on an advanced layout "
                f"such as imperial-settlers-advanced",
            )
        if not colony_ready(self.b):
            return ctx.error(at, f"{made}, but the {name} card prints no blueprint and ladder")
        if n > self.hi:
            ladder = ", ".join(map(str, self.b["ladder"]))
            room = f"{self.hi} {'colony' if self.hi == 1 else 'colonies'}"
            return ctx.error(at, f"{made}, but the {name} ladder ({ladder}) has room for {room}")
        return n


def player_fields(layout) -> dict:
    empire = {}
    for t in TRACKS:
        track = layout.element(t)
        n = track_boxes(track)
        empire[t] = Field(
            Count(0, n, holder=f"the {t} track has {{n}} boxes"),
            required=True,
            doc=f"{TRACK_NAMES[t]['en']}: boxes checked from the left",
        )
    nf = track_boxes(layout.element(FIELDS))
    empire[FIELDS] = Field(
        Count(0, nf, holder="the fields have {n} boxes"), required=True, doc="Fields: field boxes harvested (checked)"
    )
    village, village_default, village_docs, colonies, colony_docs = {}, {}, {}, {}, {}
    for b in buildings(layout):
        n, bid, name = len(b["boxes"]), b["id"], building_name(b)
        village[bid] = Count(0, n, holder=f"the {name} card has {{n}} boxes")
        village_docs[bid] = f"{name}: boxes checked" + (
            ""
            if not b["advanced"]
            else " (advanced rules only)"
            if in_game(layout, b)
            else " (advanced rules: left out of a basic game, scores 0)"
        )
        village_default[bid] = 0
        colonies[bid] = Colonies(layout, b)
        colony_docs[bid] = f"{name}: colonies made on its blueprint"
    fields = {
        "empire": Field(
            Map(empire, what="a mapping of walls, houses, granaries, bridges, fields"),
            required=True,
            doc="Empire sheet: boxes checked per track, and field boxes harvested",
        ),
        "village": Field(
            ByBuilding(village, village_default, "a mapping of building id: boxes checked", village_docs),
            required=True,
            doc="Village sheet: boxes checked per building",
        ),
        "favors": Field(Count(0, None), required=True, doc="points from favour tiles"),
        "development": Field(Count(0, None), required=True, doc="development points gained during play"),
    }
    zero = {b["id"]: 0 for b in buildings(layout)}
    fields["colonies"] = Field(
        ByBuilding(colonies, zero, "a mapping of building id: colonies", colony_docs),
        default=lambda: dict(zero),
        doc="colonies made on each building's blueprint (advanced rules)",
    )
    return fields


def blank_player(layout) -> dict:
    out = {
        "empire": {**{t: 0 for t in TRACKS}, FIELDS: 0},
        "village": {b["id"]: 0 for b in buildings(layout)},
        "favors": 0,
        "development": 0,
    }
    if is_advanced(layout):
        out["colonies"] = {b["id"]: 0 for b in buildings(layout) if colony_ready(b)}
    return out


def categories(layout) -> list:
    cats = [(t, TRACK_NAMES[t]) for t in TRACKS]
    cats += [
        ("buildings", label("Bâtiments", "Buildings")),
        ("favors", label("Faveurs", "Favours")),
        ("development", label("Développement", "Development")),
    ]
    if is_advanced(layout):
        cats.append(("colonies", label("Colonies", "Colonies")))
    return cats


# ----------------------------------------------------------------------------- checks


def check(layout, record, report) -> None:
    players = record["players"]
    tracks = {t: layout.element(t) for t in TRACKS}
    for b in buildings(layout):
        per = b.get("per")
        if per and per["track"] not in (*TRACKS, FIELDS):
            report.error(
                Where(record["_node"], "layout", "layout"),
                f"the building '{b['id']}' counts per track '{per['track']}', which game records do not "
                f"hold (they hold {', '.join((*TRACKS, FIELDS))})",
            )
            return
    for i, p in enumerate(players):
        empire = p["empire"]
        opened, letters = open_fields(layout, empire[BRIDGES])
        n = empire[FIELDS]
        if n > opened:
            got = f"{n} field {'box' if n == 1 else 'boxes'} harvested"
            one = len(letters) == 1
            why = (
                f"the completed {'bridge' if one else 'bridges'} ({', '.join(letters)}) "
                f"{'opens' if one else 'open'} only {opened}"
                if letters
                else "no field is open (no bridge completed)"
            )
            report.warn(i, f"empire.fields: {got}, but {why}; a field opens when its bridge is finished")
        for b in buildings(layout):
            n = p["village"][b["id"]]
            if n and not in_game(layout, b):
                boxes = f"{n} {'box' if n == 1 else 'boxes'} checked"
                report.warn(
                    i,
                    f"village.{b['id']}: {boxes} on the {building_name(b)}, a building of the advanced "
                    f"rules that a basic game ({layout.id}) leaves out: it scores 0",
                )
        made = {bid: n for bid, n in p["colonies"].items() if n}
        if made:
            by_id = {b["id"]: b for b in buildings(layout)}
            needed = sum(n * len(blueprint_cells(by_id[bid]["blueprint"])) for bid, n in made.items())
            have = sum(completed_sections(tracks[t], empire[t]) for t in TRACKS)
            if needed > have:
                count = sum(made.values())
                report.warn(
                    i,
                    f"colonies: {count} {'colony needs' if count == 1 else 'colonies need'} {needed} "
                    f"completed sections, but the empire has only {have} "
                    f"(a section serves one colony only)",
                )
    if len(players) == 1:
        report.warn(
            None, "a single player: the seed's solo games use the Adventure villages, not this Competition village"
        )


# ----------------------------------------------------------------------------- score


def building_points(layout, b: dict, player: dict) -> tuple[int, int]:
    """(printed points, gain from colonies) of one building; (0, 0) unless finished
    and part of the game."""
    if not in_game(layout, b) or player["village"][b["id"]] < len(b["boxes"]):
        return 0, 0
    times = per_count(layout, b, player)
    base = b["points"]
    value = base
    if b.get("ladder") and b["ladder_of"] == "points":
        value = b["ladder"][player["colonies"].get(b["id"], 0)]
    return base * times, (value - base) * times


def score(layout, record) -> list[PlayerScore]:
    out = []
    advanced = is_advanced(layout)
    for p in record["players"]:
        empire = p["empire"]
        b = {t: track_points(layout.element(t), empire[t]) for t in TRACKS}
        pts = [building_points(layout, card, p) for card in buildings(layout)]
        b["buildings"] = sum(base for base, _ in pts)
        b["favors"] = p["favors"]
        b["development"] = p["development"]
        if advanced:
            b["colonies"] = sum(gain for _, gain in pts)
        bridges = completed_sections(layout.element(BRIDGES), empire[BRIDGES])
        out.append(PlayerScore(p["name"], b, tiebreak=(bridges, empire[FIELDS])))
    return out


def record_from_sheets(layout, sheets: list[dict]) -> dict:
    """Players from filled Empire and Village sheets (a filled PDF or a scan: see
    sheetgen.scoring.pdfread), one per copy (its two pages). In advanced mode, the
    steps circled on each card's ladder are its colonies."""
    players = []
    for n, m in enumerate(sheets, 1):
        player = {
            "name": m.get("empire_player") or m.get("village_player") or f"Player {n}",
            "empire": {**{t: m[t] for t in TRACKS}, FIELDS: m[FIELDS]},
            "village": {b["id"]: m[b["id"]] for b in buildings(layout)},
            "favors": m.get("score_favors") or 0,
            "development": m.get("score_development") or 0,
        }
        if is_advanced(layout):
            player["colonies"] = {
                b["id"]: m.get(f"{b['id']}_colonies", 0) for b in buildings(layout) if colony_ready(b)
            }
        players.append(player)
    return {"players": players}


def tiebreak_labels(layout) -> list:
    return [label("Ponts construits", "Bridges built"), label("Cases de champ récoltées", "Field boxes harvested")]


def reads_for(layout) -> Reads:
    """The tracks, the fields and every building card of the layout (each scores)."""
    return Reads(
        elements={**{t: "track" for t in TRACKS}, FIELDS: "track", **{b["id"]: "building" for b in buildings(layout)}},
        optional_constants=("rules",),
    )


def any_order(layout) -> set:
    """The fields: harvesting checks a box of any open field (the seed: « Récolter consiste à
    cocher une case de champ »), not the first from the left as on the empire's tracks."""
    return {FIELDS}


SCORE = "score"  # the number boxes of the final count: the tracks, buildings, favours... = total
WRITTEN = ("score_favors", "score_development")  # the numbers the record takes as written


def written(layout, players: int) -> dict:
    """Favours and development points as written; to check them against, the other boxes
    of the final count, which the sheet adds up (`boxes_sum`)."""
    added = boxes_sum(layout, SCORE)
    fields = [f for f, _ in added[0]] + [added[1]] if added else []
    out = {f: Written(0, None, record=False) for f in fields}
    return {**out, **{f: Written(0, None) for f in WRITTEN if f in out or _has_box(layout, f)}}


def _has_box(layout, field: str) -> bool:
    return layout.has(SCORE) and any(item["id"] == field for item in layout.element(SCORE)["boxes"])


def disagreements(layout, values: dict) -> list[tuple]:
    """The final count's total, written, that is not the sum of its boxes."""
    added = boxes_sum(layout, SCORE)
    if added and sum_disagrees(values, *added):
        return [(*(f for f, _ in added[0]), added[1])]
    return []


GAME = Game(
    id="imperial-settlers",
    reads=Reads(elements={**{t: "track" for t in TRACKS}, FIELDS: "track"}, optional_constants=("rules",)),
    reads_for=reads_for,
    player_range=player_range,
    player_fields=player_fields,
    blank_player=blank_player,
    categories=categories,
    check=check,
    score=score,
    tiebreak_labels=tiebreak_labels,
    record_from_sheets=record_from_sheets,
    any_order=any_order,
    written=written,
    disagreements=disagreements,
)
