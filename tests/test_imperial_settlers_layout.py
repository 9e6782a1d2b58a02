"""Imperial Settlers sheets: golden PDFs of both layouts in both languages, the
command line, what the sheets must show to be playable, and the building card's
validation (exact texts)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from sheetgen.cli import cli
from sheetgen.errors import LayoutError
from sheetgen.games import load_layout
from sheetgen.layout import elements as E
from sheetgen.layout.display import DROPOUT, Box, Icon, Line, Text
from sheetgen.render import render_pdf
from sheetgen.render.pdf import placement

BASIC = "imperial-settlers"
ADVANCED = "imperial-settlers-advanced"
LAYOUTS = [BASIC, ADVANCED]
TRACKS = ["walls", "houses", "granaries", "bridges"]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "imperial-settlers"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def pages(data: bytes) -> list:
    return PdfReader(io.BytesIO(data)).pages


def texts(layout, page: str, lang: str = "en") -> list[str]:
    return [p.text for p in layout.display(layout.page(page), lang) if isinstance(p, Text)]


def cards(layout) -> list[dict]:
    return [el for el in layout.page("village").elements if el["type"] == "building"]


# ----------------------------------------------------------------------------- golden PDFs


# ----------------------------------------------------------------------------- command line


def test_render_both_pages(tmp_path):
    out = run("render", BASIC, "-o", str(tmp_path / "is.pdf"), "--lang", "fr")
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"wrote {tmp_path / 'is.pdf'} (2 pages, ")
    assert len(pages((tmp_path / "is.pdf").read_bytes())) == 2


def test_render_a_pad_of_village_pages(tmp_path):
    out = run("render", BASIC, "--page", "village", "--copies", "20", "-o", str(tmp_path / "v.pdf"))
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"wrote {tmp_path / 'v.pdf'} (20 pages, ")
    pdf = pages((tmp_path / "v.pdf").read_bytes())
    assert len(pdf) == 20
    assert "Sawmill" in pdf[19].extract_text() and "Walls" not in pdf[19].extract_text()


def test_render_advanced_on_letter(tmp_path):
    out = run("render", ADVANCED, "--paper", "letter", "--lang", "en", "-o", str(tmp_path / "a.pdf"))
    assert out.exit_code == 0, out.output
    pdf = pages((tmp_path / "a.pdf").read_bytes())
    assert len(pdf) == 2
    assert (round(float(pdf[0].mediabox.width)), round(float(pdf[0].mediabox.height))) == (612, 792)
    assert "Blueprint" in pdf[1].extract_text()


def test_unknown_page_is_refused():
    out = run("render", BASIC, "--page", "castle")
    assert out.exit_code == 2
    assert "no page 'castle' in imperial-settlers; pages: empire, village" in out.output


def test_validate_lists_the_house_defaults():
    out = run("validate", BASIC)
    assert out.exit_code == 0, out.output
    assert out.output.startswith(
        "ok: imperial-settlers: layout 'imperial-settlers' (imperial-settlers), pages: empire, village\n"
    )
    for name in ("walls.sections[0]", "bridges.sections[4]", "fields.sections[2]", "sawmill", "architects"):
        assert name in out.output


# ----------------------------------------------------------------------------- what a player needs on the sheets


def test_every_invented_number_is_marked_unverified():
    layout = load_layout(ADVANCED)
    for t in [*TRACKS, "fields"]:
        assert all(f"{t}.sections[{n}]" in layout.unverified for n in range(5))
    for b in ("sawmill", "tavern", "workshop", "mill", "forum", "architects"):
        assert b in layout.unverified


def test_sections_line_up_in_columns_for_the_blueprints():
    # the advanced rules' adjacency: sections side by side on a track, or above one another in a column
    layout = load_layout(ADVANCED)
    shapes = [[s["boxes"] for s in layout.element(t)["sections"]] for t in TRACKS]
    assert all(shape == shapes[0] for shape in shapes)
    xs = {layout.element(t)["x"] for t in TRACKS}
    assert len(xs) == 1 and {layout.element(t)["box"] for t in TRACKS} == {8.0}


def test_each_bridge_names_the_fields_it_opens():
    layout = load_layout(BASIC)
    bridges = [s["badge"]["en"] for s in layout.element("bridges")["sections"]]
    fields = [s["badge"]["en"] for s in layout.element("fields")["sections"]]
    assert bridges == ["A", "B", "C", "D", "E"]
    assert fields == [f"bridge {b}" for b in bridges]
    assert [s["badge"]["fr"] for s in layout.element("fields")["sections"]] == [f"pont {b}" for b in bridges]
    assert all(s.get("yields") for s in layout.element("fields")["sections"])


def test_construction_boxes_show_costs_of_stone_wood_food_or_none():
    layout = load_layout(BASIC)
    costs = {icon for t in TRACKS for s in layout.element(t)["sections"] for box in s["costs"] for icon in box}
    assert costs == {"stone", "wood", "food"}
    assert any(box == [] for t in TRACKS for s in layout.element(t)["sections"] for box in s["costs"])


def _in_box(icon, box) -> bool:
    cx, cy = icon.x + icon.size / 2, icon.y + icon.size / 2
    return box.x <= cx <= box.x + box.w and box.y <= cy <= box.y + box.h


@pytest.mark.parametrize("layout_id", LAYOUTS)
def test_icons_in_tick_boxes_are_printed_in_dropout_colours(layout_id):
    # the costs and yields printed in the boxes a player ticks are tinted (a pencil mark
    # over them stays darker than the print: sheetgen scan); every other icon is not
    layout = load_layout(layout_id)
    for page, count in (("empire", 60), ("village", 14)):
        prims = layout.display(layout.page(page), "fr")
        ticks = [p for p in prims if isinstance(p, Box) and p.kind == "check"]
        icons = [p for p in prims if isinstance(p, Icon)]
        inside = [i for i in icons if any(_in_box(i, b) for b in ticks)]
        assert len(inside) == count
        assert {i.name for i in inside} == {"stone", "wood", "food"}
        assert all(i.tint == DROPOUT for i in inside)
        assert all(i.tint == 0 for i in icons if i not in inside)  # headers, legend, banner


@pytest.mark.parametrize("grey", [False, True])
def test_a_tick_box_with_a_cost_leaves_a_pencil_mark_room(grey):
    # what is printed inside a cost box, rasterised: its darkest pixel is a light grey
    # (the plain icon's outline is near black), and the icon is still there
    pdfium = pytest.importorskip("pypdfium2")
    layout = load_layout(BASIC)
    data = render_pdf(layout, lang="fr", paper="a4", pages=["empire"], grey=grey)
    doc = pdfium.PdfDocument(data)
    try:
        image = doc[0].render(scale=8 * 25.4 / 72, grayscale=True).to_pil().convert("L")
    finally:
        doc.close()
    at = placement(layout.document("fr", pages=["empire"]).pages[0], "a4")
    prims = layout.display(layout.page("empire"), "fr")
    icons = [p for p in prims if isinstance(p, Icon)]
    costs = [p for p in prims if isinstance(p, Box) and p.kind == "check" and any(_in_box(i, p) for i in icons)]
    assert len(costs) > 30
    for box in costs:
        left, top = round((at.left + box.x + 1.3) * 8), round((at.top + box.y + 1.3) * 8)
        right, bottom = round((at.left + box.x + box.w - 1.3) * 8), round((at.top + box.y + box.h - 1.3) * 8)
        darkest, lightest = image.crop((left, top, right, bottom)).getextrema()
        assert 130 < darkest < 230, (box.field, darkest)
        assert lightest > 245


def test_ten_rounds_with_roll_favour_and_resources_left():
    layout = load_layout(BASIC)
    rounds = layout.element("rounds")
    assert [c["label"]["en"] for c in rounds["columns"][1:]] == [str(n) for n in range(1, 11)]
    assert [r["en"] for r in rounds["row_labels"]] == [
        "3 resource dice",
        "Worker die",
        "Favour taken",
        "Resources lost",
    ]


def test_nothing_is_built_at_the_start_and_the_architects_are_marked():
    # « Les six bâtiments du Village se construisent en cochant leurs cases »: no box printed
    # checked, every card has its boxes and the box for the round it was finished.
    for layout_id in LAYOUTS:
        layout = load_layout(layout_id)
        prims = layout.display(layout.page("village"), "fr")
        boxes = [p for p in prims if isinstance(p, Box) and p.field]
        assert not any(p.checked for p in boxes)
        assert sorted(p.field for p in boxes if p.field.endswith("_round")) == sorted(
            f"{el['id']}_round" for el in cards(layout)
        )
        assert {p.field.rsplit("_", 1)[0] for p in boxes if p.kind == "check"} == {el["id"] for el in cards(layout)}
        words = [p.text for p in prims if isinstance(p, Text)]
        assert "Construit au départ" not in words
        assert words.count("Terminé au tour") == 6
        assert words.count("Règles avancées") == 1
        assert "Architectes" in words
    basic = texts(load_layout(BASIC), "village")
    assert (
        "Advanced rules only: in a basic game it is not built and scores nothing. When you make a colony: "
        "+2 development points (once per round).†"
    ) in basic  # the +2 is a house value
    assert any(
        t.startswith("Nothing is built at the start: a building is built by checking its boxes, in any order")
        for t in basic
    )


def test_the_prebuilt_key_is_gone():
    path = FIXTURES / "prebuilt.yaml"
    with pytest.raises(LayoutError) as exc:
        load_layout(str(path))
    assert exc.value.lines[0].startswith(f"{path}:9: sawmill.prebuilt: unknown key; accepted keys: ability, ")


def test_underlined_values_only_in_the_advanced_layout():
    # advanced: the marked value of the sentence, the points when the ladder is theirs (forum: both,
    # architects: the points only), and one under each ladder step
    expected = {
        BASIC: dict.fromkeys(["sawmill", "tavern", "workshop", "mill", "forum", "architects"], 0),
        ADVANCED: {
            "sawmill": 1 + 3,
            "tavern": 1 + 3,
            "workshop": 1 + 2,
            "mill": 1 + 3,
            "forum": 2 + 3,
            "architects": 1 + 3,
        },
    }
    for layout_id, lines in expected.items():
        layout = load_layout(layout_id)
        got = {}
        for el in cards(layout):
            prims = E.TYPES["building"].build(el, layout.env("en"))
            got[el["id"]] = sum(1 for p in prims if isinstance(p, Line) and p.width == 0.9)
        assert got == lines


def test_sentences_read_without_the_underline_markers():
    for layout_id in LAYOUTS:
        layout = load_layout(layout_id)
        for lang in ("fr", "en"):
            words = " ".join(texts(layout, "village", lang))
            assert "_" not in words
        assert "Each round: gain 1 wood.†" in texts(layout, "village", "en")
        assert "End of game: 2† points per bridge built (bridge section fully checked)." in texts(layout, "village")


def test_advanced_sheet_adds_colonies_to_the_score():
    basic, advanced = load_layout(BASIC), load_layout(ADVANCED)
    ids = [b["id"] for b in basic.element("score")["boxes"]]
    assert ids == [
        "score_walls",
        "score_houses",
        "score_granaries",
        "score_bridges",
        "score_buildings",
        "score_favors",
        "score_development",
        "score_total",
    ]
    ids = [b["id"] for b in advanced.element("score")["boxes"]]
    assert ids[-3:] == ["score_development", "score_colonies", "score_total"]
    assert advanced.element("forum")["ladder"] == [2, 3, 4]
    assert advanced.element("architects")["blueprint"] == ["X.", "XX", ".X"]


# ----------------------------------------------------------------------------- building card validation


@pytest.mark.parametrize(
    "fixture, problems",
    [
        (
            "bad-buildings.yaml",
            [  # refused with the keys
                "11: workshop.blueprint: the sections (X) of a blueprint must be adjacent (side by side or one above "
                "the other)",
                "9: mill.blueprint: every row of a blueprint has the same length",
                "7: forum.ladder: ladder[0] is 3 but points is 2: with ladder_of: points, the ladder starts at the "
                "printed points",
            ],
        ),
        (
            "bad-cards.yaml",
            [  # valid keys, but the card cannot be drawn as written
                "7: sawmill.ability: with a ladder of the ability's value, mark that value in the sentence as _value_ "
                "(it is printed underlined)",
                "9: tavern.ability: the underlined value is '2' but the ladder starts at 1",
                "11: architects.boxes: 9 boxes of 8mm do not fit in the card (72.0mm wide beside the points)",
            ],
        ),
        (
            "bad-per.yaml",
            [
                "8: mill.ability: mark one underlined value as _value_ (two underscores in all)",
                "6: forum.per: no track 'towers' in this layout to count sections of",
            ],
        ),
    ],
)
def test_building_cards_refused_with_file_and_line(fixture, problems):
    path = FIXTURES / fixture
    with pytest.raises(LayoutError) as exc:
        load_layout(str(path))
    assert exc.value.lines == [f"{path}:{p}" for p in problems]
