"""The built-in sheets as a publisher would print them, checked on their display lists in
both languages at every player count: no text under 8 pt and no in-box hint under 6 pt,
at least 1 mm between any text and any line, French typography, one house style (the
player's label, the footnote in the reminder frame), and the content players need at the
table (counts and majority ticks, points per line, what each box is for)."""

from __future__ import annotations

import io
import math
import re

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from sheetgen import text as fonts
from sheetgen.cli import cli
from sheetgen.games import load_layout
from sheetgen.layout.display import Box, Circle, Line, Rect, Text, drawn
from sheetgen.layout.elements.score_table import ST_BAND
from sheetgen.layout.resolve import builtin_ids
from sheetgen.render import render_pdf

PT = 72 / 25.4
LANGS = ("fr", "en")


def sheets():
    """(layout id, page, language, players, display list) of every built-in sheet."""
    for lid in builtin_ids():
        layout = load_layout(lid)
        for players in range(layout.players["min"], layout.players["max"] + 1):
            for lang in LANGS:
                for page in layout.pages:
                    yield lid, page.id, lang, players, layout.display(page, lang, players)


@pytest.fixture(scope="module")
def every_sheet():
    return list(sheets())


def fitted(t: Text):
    return fonts.fit_text(t.text, t.font, t.size, t.w * PT, t.h * PT, t.wrap, t.min_size)


# ----------------------------------------------------------------------------- 8 pt


@pytest.mark.parametrize("lid", builtin_ids())
def test_every_built_in_layout_prints_no_text_under_8pt(lid):
    assert load_layout(lid).smallest_text >= 8


def test_no_text_under_8pt_and_no_hint_under_6pt_on_any_sheet(every_sheet):
    """As fitted (a text shrunk to fit counts at its printed size), the house note included."""
    small = [
        (lid, page, lang, players, t.path, fitted(t).size)
        for lid, page, lang, players, prims in every_sheet
        for t in prims
        if isinstance(t, Text) and t.text.strip() and fitted(t).size < (6.0 if t.hint else 8.0) - 1e-9
    ]
    assert small == []


# ----------------------------------------------------------------------------- 1 mm from any line


def ink(t: Text) -> list[tuple[float, float, float, float]]:
    """The (x0, y0, x1, y1) mm of each line of a text as printed: its width, from the top of
    its capitals (0.05 of the size under the line's top) to its baseline (0.76), or to its
    descenders' bottom (0.98) when it has a letter that descends."""
    fit = fitted(t)
    size, lead, n = fit.size, fit.leading, len(fit.lines)
    block = (size + (n - 1) * lead) / PT
    top = t.y + {"top": 0, "middle": (t.h - block) / 2, "bottom": t.h - block}[t.valign]
    out = []
    for i, line in enumerate(fit.lines):
        w = fonts.width(line, t.font, size) / PT
        x = t.x + {"left": 0, "center": (t.w - w) / 2, "right": t.w - w}[t.align]
        y = top + i * lead / PT
        deep = 0.98 if re.search(r"[gjpqyQ,;()\[\]]", line) else 0.76
        out.append((x, y + 0.05 * size / PT, x + w, y + deep * size / PT))
    return out


def segments(p) -> list[tuple[float, float, float, float]]:
    """The straight lines a primitive strokes (a rectangle's four sides, a box as drawn)."""
    if isinstance(p, Line):
        return [(p.x1, p.y1, p.x2, p.y2)]
    if isinstance(p, Rect) and p.stroke and p.width > 0 and p.stroke != p.fill:
        x, y, w, h = p.x, p.y, p.w, p.h
    elif isinstance(p, Box) and p.stroke and p.kind != "round":
        x, y, w, h = drawn(p)
    else:
        return []
    return [(x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h), (x + w, y, x + w, y + h)]


def rings(p) -> list[tuple[float, float, float]]:
    if isinstance(p, Circle) and p.stroke:
        return [(p.x, p.y, p.r)]
    if isinstance(p, Box) and p.kind == "round" and p.stroke:
        x, y, w, h = drawn(p)
        return [(x + w / 2, y + h / 2, w / 2)]
    return []


def apart(seg, box) -> float:
    """The distance (mm) between an axis-parallel segment and a rectangle."""
    x1, y1, x2, y2 = seg
    bx0, by0, bx1, by1 = box
    dx = max(0.0, bx0 - max(x1, x2), min(x1, x2) - bx1)
    dy = max(0.0, by0 - max(y1, y2), min(y1, y2) - by1)
    return math.hypot(dx, dy)


def from_ring(ring, box) -> float:
    """The distance between a circle's line and a rectangle inside or outside it."""
    cx, cy, r = ring
    bx0, by0, bx1, by1 = box
    far = max(math.hypot(px - cx, py - cy) for px in (bx0, bx1) for py in (by0, by1))
    near = math.hypot(min(max(cx, bx0), bx1) - cx, min(max(cy, by0), by1) - cy)
    return r - far if far <= r else near - r if near >= r else 0.0


def crowded(prims, gap=1.0):
    """(text path, text, distance) for each line of text closer than `gap` to a line (an
    underline, drawn inside its text's box, is the text's own)."""
    texts = [p for p in prims if isinstance(p, Text) and p.text.strip()]
    boxes = [(t.x, t.y, t.x + t.w, t.y + t.h) for t in texts]

    def underline(p):
        return isinstance(p, Line) and any(
            x0 <= min(p.x1, p.x2) and max(p.x1, p.x2) <= x1 and y0 <= p.y1 <= y1 for x0, y0, x1, y1 in boxes
        )

    lines = [s for p in prims if not underline(p) for s in segments(p)]
    circles = [r for p in prims for r in rings(p)]
    out = []
    for t in texts:
        for box in ink(t):
            near = min([apart(s, box) for s in lines] + [from_ring(r, box) for r in circles], default=99)
            if near < gap - 1e-6:
                out.append((t.path, t.text[:40], round(near, 2)))
    return out


def test_no_text_is_within_1mm_of_a_line(every_sheet):
    found = {}
    for lid, page, lang, players, prims in every_sheet:
        for hit in crowded(prims):
            found.setdefault((lid, page, hit[0]), (lang, players, hit))
    assert found == {}


def test_the_crowding_check_finds_text_on_a_line():
    """The check itself: a caption 0.5 mm under a box's line is found, 1.2 mm is not."""
    box = Rect(10, 10, 20, 10)
    near = Text(10, 20.3, 20, 4, "pts / full row", size=9.25, valign="top")
    far = Text(10, 21.0, 20, 4, "pts / full row", size=9.25, valign="top")
    assert crowded([box, near]) and not crowded([box, far])


# ----------------------------------------------------------------------------- French typography


def french_lines(every_sheet):
    for lid, _page, lang, _players, prims in every_sheet:
        if lang == "fr":
            for t in prims:
                if isinstance(t, Text):
                    for line in fitted(t).lines:
                        yield lid, t.path, line


def test_no_french_line_starts_with_a_high_sign_or_a_closing_quote(every_sheet):
    starts = {(lid, path, line) for lid, path, line in french_lines(every_sheet) if line and line[0] in ":;!?»"}
    assert starts == set()


def test_french_spacing_apostrophes_and_ordinals(every_sheet):
    """A no-break space (U+00A0 or U+202F) before : ; ! ? and inside « », typographic
    apostrophes, ordinals as 2ᵉ; the same for the house note."""
    bad = set()
    for lid, path, line in french_lines(every_sheet):
        if re.search(r"(?<![\u00a0\u202f])[;!?]|[^\u00a0\u202f\d]:(?!\d)|«(?!\u202f)|(?<!\u202f)»", line):
            bad.add((lid, path, "space", line))
        if "'" in line:
            bad.add((lid, path, "apostrophe", line))
        if re.search(r"\b\d+(e|ème)s?\b", line):
            bad.add((lid, path, "ordinal", line))
    assert bad == set()
    bosk = load_layout("bosk")
    shown = {t.path: t.text for t in bosk.display(bosk.page("pad"), "fr", 4) if isinstance(t, Text)}
    assert shown["final.rows[1].label"] == "Ordre au 8ᵉ tour" and "l’été" in shown["banner.subtitle"]


def test_the_text_engine_sets_french_as_a_typesetter_would():
    assert fonts.typeset("Fin : on finit ; « Bosk » !", "fr") == "Fin\u00a0: on finit\u202f; «\u202fBosk\u202f»\u202f!"
    assert fonts.typeset("Légume 1: le 2e tour, 8ème, 2es ex æquo, 1er", "fr") == (
        "Légume 1\u00a0: le 2ᵉ tour, 8ᵉ, 2ᵉˢ ex æquo, 1er"
    )
    assert fonts.typeset("l'été à 10:30, ±1/⇄", "fr") == "l’été à 10:30, ±1/⇄"
    assert fonts.typeset("the player's turn: 2e", "en") == "the player’s turn: 2e"


def test_a_paragraph_ends_on_two_words_where_a_rewrap_allows():
    """A last line of one word (a runt) is rewrapped narrower when that takes no more lines."""
    text = "Chaque joueur coche une case du marché de la couleur du dé commun."
    width = fonts.width("Chaque joueur coche une case du marché de la couleur du dé", "sans", 10) + 1
    lines = fonts.wrap(text, "sans", 10, width)
    assert len(lines) == 2 and " " in lines[-1]
    assert fonts.wrap("Un mot", "sans", 10, fonts.width("mot", "sans", 10) + 1) == ["Un", "mot"]  # no room


def test_a_soft_hyphen_breaks_a_long_word_with_a_hyphen():
    narrow = fonts.width("Dévelop-", "condensed-bold", 8) + 0.5
    assert fonts.wrap("Dévelop\u00adpement", "condensed-bold", 8, narrow) == ["Dévelop-", "pement"]
    assert fonts.wrap("Dévelop\u00adpement", "condensed-bold", 8, 200) == ["Développement"]


# ----------------------------------------------------------------------------- one house style


@pytest.mark.parametrize("lid", builtin_ids())
def test_each_sheet_labels_the_player_on_the_left_with_a_colon(lid):
    layout = load_layout(lid)
    page = layout.pages[0]
    for lang, word in (("fr", "Joueur·euse\u00a0:"), ("en", "Player:")):
        prims = layout.display(page, lang)
        labels = [t for t in prims if isinstance(t, Text) and t.text == word]
        assert labels, (lid, lang)
        boxes = [b for b in prims if isinstance(b, Box) and b.kind == "write"]
        label = labels[0]
        # the box it names is on the same line, to its right
        assert any(b.x >= label.x + 1 and b.y <= label.y + label.h / 2 <= b.y + b.h for b in boxes), (lid, lang)


@pytest.mark.parametrize("lid", builtin_ids())
def test_the_house_note_sits_in_its_frame_and_says_what_the_mark_means(lid):
    layout = load_layout(lid)
    for page in layout.pages:
        for lang in LANGS:
            prims = layout.display(page, lang, layout.players["max"])
            notes = [t for t in prims if isinstance(t, Text) and t.path == "house_note"]
            if not notes:
                continue
            frame = layout.note_frame(page)
            assert frame is not None, (lid, page.id)
            note = notes[0]
            top = frame["y"] + frame["header"]
            assert frame["x"] < note.x and note.x + note.w < frame["x"] + frame["w"], (lid, page.id)
            assert top < note.y and note.y + note.h < frame["y"] + frame["h"], (lid, page.id)
            assert (
                note.text
                == {
                    "fr": "† valeur maison\u00a0: la règle ne la fixe pas",
                    "en": "† house value: the rules leave it open",
                }[lang]
            )


def test_every_sheet_has_the_same_banner_height():
    heights = {
        lid: {el["h"] for p in load_layout(lid).pages for el in p.elements if el["type"] == "banner"}
        for lid in builtin_ids()
    }
    assert set().union(*heights.values()) == {18.0}


# ----------------------------------------------------------------------------- what players need


def pdf_text(lid, lang, players=None, page=0):
    data = render_pdf(load_layout(lid), lang=lang, players=players)
    return PdfReader(io.BytesIO(data)).pages[page].extract_text()


@pytest.mark.parametrize("lang", LANGS)
def test_harvest_dice_advanced_counts_each_vegetable_and_ticks_each_majority(lang):
    layout = load_layout("harvest-dice-advanced")
    boxes = {b.field: b for b in layout.display(layout.pages[0], lang) if isinstance(b, Box)}
    for kind in ("carrot", "salad", "tomato", "pig"):
        assert boxes[f"count_{kind}"].kind == "write"
        assert boxes[f"majority_{kind}_1"].kind == "check"
    for veg in ("carrot", "salad", "tomato"):  # count x market = points, on one line
        count, market, points = boxes[f"count_{veg}"], boxes[f"market_count_{veg}"], boxes[f"score_{veg}"]
        assert count.y == market.y == points.y and count.x < market.x < points.x
    text = pdf_text("harvest-dice-advanced", lang)
    for words in {
        "fr": ["au potager", "marché", "points", "majorité +5"],
        "en": ["in garden", "market", "majority +5"],
    }[lang]:
        assert words in text


def test_validate_notes_no_element_a_scorer_does_not_read():
    for lid in builtin_ids():
        result = CliRunner().invoke(cli, ["validate", lid])
        assert result.exit_code == 0 and "does not read" not in result.output, result.output


@pytest.mark.parametrize("lang", LANGS)
def test_the_bosk_pad_says_which_tree_each_autumn_round_uses(lang):
    bosk = load_layout("bosk")
    text = {t.path: t.text for t in bosk.display(bosk.page("pad"), lang, 4) if isinstance(t, Text)}
    rule = {
        "fr": "Tours 1 à 4\u00a0: un arbre 1, puis 2, 3, 4, dans l’ordre\u202f; tours 5 à 8\u00a0: n’importe lequel",
        "en": "Rounds 1-4: a tree 1, then 2, 3, 4, in order; rounds 5-8: any of your trees left",
    }[lang]
    assert rule in text["autumn_text.text"]


@pytest.mark.parametrize("players", [2, 5])
def test_every_glassworks_box_says_what_goes_in_it(players):
    layout = load_layout("river-valley-glassworks")
    prims = layout.display(layout.pages[0], "en", players)
    captions = [t for t in prims if isinstance(t, Text) and t.hint]
    for row in ("row_1", "counted_column_1", "counted_column_2", "overflow"):
        for i in range(1, players + 1):
            for box in (b for b in prims if isinstance(b, Box) and b.field and b.field.startswith(f"{row}_p{i}")):
                # (in its top, or in the band over it, out of the writing: score_table.ST_BAND)
                inside = [
                    t.text
                    for t in captions
                    if box.x <= t.x and t.x + t.w <= box.x + box.w and box.y - ST_BAND <= t.y < box.y + 3
                ]
                assert inside, box.field
    shown = {t.path: t.text for t in prims if isinstance(t, Text)}
    assert [shown[f"score.rows[10].count[{k}]"] for k in (0, 1)] == ["col.", "pieces"]
    assert shown["score.rows[12].hint"] == "rows + 2 columns − 3 × overflow"


@pytest.mark.parametrize("lang", LANGS)
def test_plante_bataille_majorities_are_ticks(lang):
    layout = load_layout("plante-bataille")
    boxes = [b for b in layout.display(layout.pages[0], lang, 6) if isinstance(b, Box)]
    ticks = sorted(b.field for b in boxes if b.kind == "check" and b.field.startswith("majority_"))
    assert ticks == sorted(f"majority_veg{k}_p{i}" for k in (1, 2, 3) for i in range(1, 7))
    assert sorted(b.field for b in boxes if b.field.endswith("_name") and b.field.startswith("tokens_")) == [
        "tokens_veg1_name",
        "tokens_veg2_name",
        "tokens_veg3_name",
    ]
