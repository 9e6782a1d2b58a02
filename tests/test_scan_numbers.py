"""Numbers written by hand, read from a page (sheetgen.scan.written, sheetgen.scan.ocr):
each kept sure, read empty, or left '?'; the games' checks of one number against another
(`Game.disagreements`); the model checked at load. The pages are drawn by the held-out
handwriting generator (bench/handwriting/strokes.py: strokes, no fonts needed). The `test`
extra holds the `ocr` extra's pins: these tests read with the recogniser, never skip."""

from __future__ import annotations

import numpy as np
import pytest

from sheetgen.errors import SheetgenError
from sheetgen.games import game_for, load_layout
from sheetgen.scan import ocr
from sheetgen.scan.photos import Photo
from sheetgen.scan.reader import PageRead
from sheetgen.scan.tuning import STRUCK
from sheetgen.scan.verdict import EMPTY, MARKED
from sheetgen.scan.written import UNREAD, agreed, read_numbers


def _page(layout_id: str, page_id: str, players: int, seed: int):
    """A page written in by the strokes generator, mapped as the reader maps a photo: (its
    PageRead, the truth of each number box)."""
    from bench.handwriting import strokes

    layout = load_layout(layout_id)
    img, sheet, _ = strokes.page(layout, page_id, players, "en", np.random.default_rng(seed))
    boxes = layout.document("en", players, [page_id]).pages[0].boxes()
    values = {b.field: "" if b.kind == "write" else sheet.ticks.get(b.field, False) for b in boxes}
    readings = {b.field: MARKED if sheet.ticks.get(b.field) else EMPTY for b in boxes if b.kind != "write"}
    read = PageRead(
        Photo("page.jpg", "page", img), layout, page_id, values, readings,
        rectified=img, sheet={"players": players, "lang": "en", "grey": False},
    )  # fmt: skip
    return read, sheet.truth


def test_without_the_ocr_extra_every_number_written_is_left_to_type(monkeypatch):
    monkeypatch.setattr(ocr, "model_path", lambda: None)
    ocr.recogniser.cache_clear()
    try:
        assert ocr.recogniser() is None
        read, truth = _page("bosk", "pad", 3, 4)
        numbers = read_numbers(read, ocr.recogniser())
    finally:
        ocr.recogniser.cache_clear()
    assert set(numbers) == set(truth)
    assert {f for f, n in numbers.items() if n.value == UNREAD} == {f for f, t in truth.items() if t}
    assert {f for f, n in numbers.items() if n.value == ""} == {f for f, t in truth.items() if not t}


def test_a_damaged_model_says_so_in_one_line(tmp_path):
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(SheetgenError) as err:
        ocr.PPOCR(bad)
    assert str(err.value) == (
        f"{bad}: the number recogniser's model is not the file rapidocr 3.10.0 ships (its SHA-256 differs): "
        "the ocr extra's install is damaged; reinstall it: pip install --force-reinstall 'rollwrite[ocr]'"
    )
    with pytest.raises(SheetgenError, match=r"^\S+missing\.onnx: the number recogniser's model cannot be read "):
        ocr.PPOCR(tmp_path / "missing.onnx")


def test_what_the_recogniser_says_of_a_picture_does_not_depend_on_the_others_read_with_it():
    """Lines read in one run are padded to one width, and the padding changes what the model
    says: a line is read with lines of its own width only, so a box reads the same on a page
    of narrow numbers and on one of wide ones, alone or with the page."""
    import cv2

    from sheetgen.scan.blank import blank_page
    from sheetgen.scan.inked import ink_in
    from sheetgen.scan.written import number_boxes

    read, _ = _page("bosk", "pad", 4, 11)
    _, blank = blank_page(read.layout, "pad", 4, "en")
    grey = read.rectified.mean(axis=2).astype(np.uint8)
    pictures = [ink_in(cv2, np, grey, blank, (b.x, b.y, b.w, b.h)) for b, _ in number_boxes(read)]
    pictures = [p[0] for p in pictures if isinstance(p, tuple)]
    assert len({p.shape[1] for p in pictures}) > 5  # (lines of many widths)
    recogniser = ocr.recogniser()
    together = recogniser.read(pictures)
    backwards = recogniser.read(pictures[::-1])[::-1]
    alone = [recogniser.read([p])[0] for p in pictures[:8]]
    wide = [recogniser.read([p, np.full((20, 200), 255, np.uint8)])[0] for p in pictures[:8]]
    for a, b in [*zip(together, backwards), *zip(together, alone), *zip(together, wide)]:
        assert a.text == b.text and abs(a.sure - b.sure) < 1e-4


def test_a_line_is_read_as_it_is_and_after_an_equals_sign_and_kept_sure_where_both_say_the_same():
    """The model reads a lone handwritten digit better after an equals sign, as a number in a
    line of text: each line is read both ways; the primer's own character is dropped; where
    the two readings say the same, the surer counts, character by character; where they
    differ (or the primer is read as a digit or a minus), nothing is sure."""
    R = ocr.Reading
    assert ocr._unprimed(R("?47", (0.9, 0.8, 0.99), 0.01)) == R("47", (0.8, 0.99), 0.01)
    assert ocr._unprimed(R("-4", (0.9, 0.99))).sure == 0.0  # (the primer read as a minus)
    both = ocr._surer(R("47", (0.6, 0.99), 0.02), R(" 47", (0.5, 0.95, 0.7), 0.01))
    assert both == R("47", (0.95, 0.99), 0.01)
    apart = ocr._surer(R("47", (0.99, 0.99)), R("41", (0.99, 0.8), 0.05))
    assert (apart.text, apart.sure, apart.apart, apart.apart_sure) == ("47", 0.0, "41", 0.8)
    seen = ocr._surer(R("?", (0.93,)), ocr._unprimed(R("?0", (0.99, 0.93))))
    assert (seen.text, seen.sure, seen.apart) == ("?", 0.0, "0")
    sign = ocr._primer(np)
    assert (
        sign.shape == (ocr.HEIGHT, ocr.PRIMER.width) and (sign == 0).sum() == 2 * ocr.PRIMER.length * ocr.PRIMER.thick
    )


@pytest.mark.parametrize(
    ("layout_id", "page_id", "players", "seed"), [("bosk", "pad", 4, 11), ("plante-bataille", "pad", 4, 3)]
)
def test_numbers_read_are_right_or_left_to_type(layout_id, page_id, players, seed):
    """A small fixed set: every number kept is the one written, an empty box reads empty or
    '?', and most numbers are read."""
    read, truth = _page(layout_id, page_id, players, seed)
    numbers = agreed(read, read_numbers(read, ocr.recogniser()))
    kept = {f: n.value for f, n in numbers.items() if n.value not in ("", UNREAD)}
    assert kept == {f: truth[f] for f in kept}
    assert all(numbers[f].value in ("", UNREAD) for f, t in truth.items() if not t)
    written = [f for f, t in truth.items() if t]
    assert len(kept) >= 0.5 * len(written)


def _written_in(
    strike_to: float | None, after: str = "5", first: str = "3", strike_at: float = 0.5, strike_from: float = 0.4
) -> object:
    """A Bosk pad's first leaves box with `first` written in it (cv2's font), struck through
    from `strike_from` of its height before its left end to `strike_to` (of the box's width;
    None: not struck), `strike_at` of its height above its base, and `after` written after
    it: what `read_numbers` makes of the box."""
    import cv2

    from sheetgen.scan.blank import PPMM

    layout, boxes, img = _bosk_pad()
    box = boxes["terrain_1_p1_count"]
    ink, font, base = (20, 20, 60), cv2.FONT_HERSHEY_SIMPLEX, round((box.y + 0.75 * box.h) * PPMM)
    x = round((box.x + 0.15 * box.w) * PPMM)
    cv2.putText(img, first, (x, base), font, 1.0, ink, 2, cv2.LINE_AA)
    (w, h), _ = cv2.getTextSize(first, font, 1.0, 2)
    if strike_to is not None:
        end, at = round((box.x + strike_to * box.w) * PPMM), base - round(strike_at * h)
        cv2.line(img, (x - round(strike_from * h), at), (end, at), ink, 2, cv2.LINE_AA)
    if after:
        cv2.putText(img, after, (round((box.x + 0.55 * box.w) * PPMM), base), font, 1.0, ink, 2, cv2.LINE_AA)
    return _read_box(layout, boxes, img, "terrain_1_p1_count")


def _bosk_pad():
    """A blank Bosk pad for 2 players, as the reader maps a photo of it: (its layout, its
    boxes by field, the page to write in: RGB at blank.PPMM)."""
    from sheetgen.scan.blank import blank_colours, blank_page

    layout = load_layout("bosk")
    display, _ = blank_page(layout, "pad", 2, "en")
    return layout, {b.field: b for b in display.boxes()}, blank_colours(layout, "pad", 2, "en").copy()


def _read_box(layout, boxes, img, field: str):
    """What `read_numbers` makes of box `field` of a Bosk pad (`_bosk_pad`) written in."""
    read = PageRead(
        Photo("page.jpg", "page", img), layout, "pad", {b: "" for b in boxes}, {},
        rectified=img, sheet={"players": 2, "lang": "en", "grey": False},
    )  # fmt: skip
    return read_numbers(read, ocr.recogniser())[field]


def test_a_number_struck_through_and_the_right_one_after_it_reads_the_right_one():
    assert _written_in(None, after="").value == "3"  # (not struck, it is the number)
    got = _written_in(0.47)
    assert (got.value, got.why) == ("5", "")


def test_a_digit_part_of_which_is_too_faint_to_see_is_left_to_type():
    """A light pencil's 2 whose curve and base are under the ink's darkness leaves one
    upright stroke, a 1 to both readers: the faint trace beside it leaves the box to type."""
    import cv2

    from sheetgen.scan.blank import PPMM

    layout, boxes, img = _bosk_pad()
    box = boxes["terrain_1_p1_count"]
    x, y, w, h = (round(v * PPMM) for v in (box.x, box.y, box.w, box.h))
    cv2.line(img, (x + w // 2 + 4, y + h // 4), (x + w // 2, y + 3 * h // 4), (60, 60, 60), 2, cv2.LINE_AA)
    assert _read_box(layout, boxes, img, box.field).value == "1"  # (the stroke alone is a 1)
    light = tuple(int(v) - 22 for v in img[y + h // 2, x + 3])  # (22 grey levels under the box's tint: not ink)
    curve = np.array([[x + w // 2 - 8, y + h // 4 + 3], [x + w // 2, y + h // 4 - 3], [x + w // 2 + 4, y + h // 4]])
    cv2.polylines(img, [curve], False, light, 2)
    cv2.line(img, (x + w // 2, y + 3 * h // 4), (x + w // 2 + 10, y + 3 * h // 4), light, 2)
    got = _read_box(layout, boxes, img, box.field)
    assert (got.value, got.why) == (UNREAD, "part of it too faint to read")


def test_a_0_whose_stroke_breaks_is_kept_unless_a_faint_trace_may_leave_the_break():
    """A 0 whose ends do not quite meet at its top reads 0, its loop closed across the break
    (`DIGITS.skip`); a faint trace by the break, a 6's stem too light to see, leaves it to type."""
    import cv2

    from sheetgen.scan.blank import PPMM

    layout, boxes, img = _bosk_pad()
    box = boxes["terrain_1_p1_count"]
    x, y, w, h = (round(v * PPMM) for v in (box.x, box.y, box.w, box.h))
    cx, cy = x + w // 2, y + h // 2
    light = tuple(int(v) - 22 for v in img[cy, x + 3])  # (22 grey levels under the box's tint: not ink)
    cv2.ellipse(img, (cx, cy), (w // 7, h // 3), 0, -78, 258, (60, 60, 60), 2, cv2.LINE_AA)
    assert _read_box(layout, boxes, img, box.field).value == "0"
    cv2.line(img, (cx + 6, cy - h // 3 - 2), (cx + 18, cy - h // 3 - 10), light, 3)
    got = _read_box(layout, boxes, img, box.field)
    assert (got.value, got.why) == (UNREAD, "0 loops in the ink")


def test_a_strike_from_the_open_side_of_a_3_reads_the_number_after_it():
    """A 3's open ends lie off a strike starting at its left edge: the strike's ends are free
    (a 4's bar is not: it joins its diagonal), and the number after it is read."""
    got = _written_in(0.47, strike_from=0.0)
    assert (got.value, got.why) == ("5", "")


def _struck_25_then_12(crossing: str):
    """A picture of a 25 in a thin pen, crossed out by a line through it or a scribble over
    it, and a 12 written after it, apart."""
    import cv2

    picture = np.full((70, 170), 255, np.uint8)
    cv2.polylines(picture, [np.array([[10, 25], [18, 15], [28, 20], [12, 55], [32, 55]], np.int32)], False, 0, 2)
    five = [[55, 15], [40, 15], [38, 32], [52, 30], [56, 45], [48, 55], [38, 52]]
    cv2.polylines(picture, [np.array(five, np.int32)], False, 0, 2)
    if crossing == "line":
        cv2.line(picture, (2, 35), (68, 35), 0, 2)
    else:
        zigzag = [[6 + 4 * i, 12 if i % 2 == 0 else 58] for i in range(14)]
        cv2.polylines(picture, [np.array(zigzag, np.int32)], False, 0, 2)
    cv2.line(picture, (85, 12), (85, 58), 0, 2)
    cv2.polylines(picture, [np.array([[105, 20], [115, 12], [125, 20], [105, 58], [128, 58]], np.int32)], False, 0, 2)
    return picture


def test_the_number_after_a_line_through_thin_digits_is_left_to_type():
    """A line through two digits in a thin pen covers little of them: where it ends cannot be
    told from the first digit of the number after it (a 12 after a struck 25, the strike
    ending in its 1, read 2), so that number is left to type; after a scribble, which covers
    what it crosses out (`STRUCK.covered`), it is read."""
    import cv2

    from sheetgen.scan.inked import past_crossing

    assert past_crossing(cv2, np, _struck_25_then_12("line")) == ("struck through", None)
    why, after = past_crossing(cv2, np, _struck_25_then_12("scribble"))
    columns = np.flatnonzero(after.any(axis=0))
    assert why == "scribbled over" and 60 < columns[0] < 85 and columns[-1] == 169  # (the 12 and the paper by it)


def test_a_digit_scribbled_over_into_a_blot_beside_a_number_leaves_the_box_to_type():
    """A 1 scribbled over until it is a bar of ink, and an 8 written after it in the same
    pen: both readers read 18; the blot is far bolder than the 8's strokes."""
    import cv2

    from sheetgen.scan.blank import PPMM

    layout, boxes, img = _bosk_pad()
    box = boxes["terrain_1_p1_count"]
    ink, base, x = (20, 20, 60), round((box.y + 0.8 * box.h) * PPMM), round((box.x + 0.3 * box.w) * PPMM)
    cv2.putText(img, "8", (round((box.x + 0.48 * box.w) * PPMM), base), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 2)
    assert _read_box(layout, boxes, img, "terrain_1_p1_count").value == "8"
    cv2.rectangle(img, (x, base - round(4.2 * PPMM)), (x + round(1.6 * PPMM), base), ink, -1)
    got = _read_box(layout, boxes, img, "terrain_1_p1_count")
    assert (got.value, got.text, got.why) == (UNREAD, "18", "a digit far bolder than the others (one scribbled over?)")


def test_a_number_blotted_out_and_the_right_one_after_it_reads_the_right_one():
    """A number scribbled over till it is a blot of ink as wide as a digit, and the right one
    written after it, bare paper between: the one after it is the number. Touching the blot,
    what it hides of it cannot be told: the box is left to type."""
    import cv2

    from sheetgen.scan.blank import PPMM

    def blot_then_8(gap_mm: float):
        layout, boxes, img = _bosk_pad()
        box = boxes["terrain_1_p1_count"]
        ink, base, x = (20, 20, 60), round((box.y + 0.8 * box.h) * PPMM), round((box.x + 0.15 * box.w) * PPMM)
        cv2.ellipse(
            img,
            (x + round(1.6 * PPMM), base - round(2.1 * PPMM)),
            (round(1.6 * PPMM), round(2.1 * PPMM)),
            0,
            0,
            360,
            ink,
            -1,
        )
        after = x + round((3.2 + gap_mm) * PPMM)
        cv2.putText(img, "8", (after, base), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 2)
        return _read_box(layout, boxes, img, "terrain_1_p1_count")

    assert blot_then_8(1.0).value == "8"
    touching = blot_then_8(-0.4)
    assert (touching.value, touching.why) == (UNREAD, "blotted out")


def test_a_digit_after_a_blot_may_start_under_its_edge():
    """A 7 written after a blot, its bar starting in the last columns the blot spans but
    above it, bare paper between: the 7 is the number (its ink, none of the blot's); moved
    down till the two touch, what the blot hides of it cannot be told."""
    import cv2

    from sheetgen.scan.inked import past_crossing

    def blot_then_7(down: int):
        blot, seven = np.full((70, 110), 255, np.uint8), np.full((70, 110), 255, np.uint8)
        cv2.ellipse(blot, (25, 38), (14, 22), 0, 0, 360, 0, -1)  # (columns 11 to 39)
        cv2.polylines(seven, [np.array([[39, 12 + down], [62, 12], [47, 58]], np.int32)], False, 0, 3)
        return np.minimum(blot, seven), seven < 128

    picture, seven = blot_then_7(0)
    why, after = past_crossing(cv2, np, picture)
    assert why == "blotted out" and np.array_equal((picture < 128) & after, seven)
    assert past_crossing(cv2, np, blot_then_7(18)[0]) == ("blotted out", None)


def test_a_number_struck_through_with_none_after_it_is_left_to_type():
    got = _written_in(0.47, after="")
    assert (got.value, got.why) == (UNREAD, "struck through")


def test_a_strike_running_into_the_number_after_it_leaves_the_box_to_type():
    got = _written_in(0.7)  # (the strike runs on into the 5: what it crosses out is unclear)
    assert (got.value, got.why) == (UNREAD, "struck through")


def test_a_line_over_a_number_as_long_as_no_digit_makes_leaves_the_box_to_type():
    """A line along the top of two digits, touching them, is no digit's bar (a 7's, a 5's are
    shorter): what was crossed out cannot be told (read whole, a struck 22 and a 4 were 224)."""
    assert _written_in(None, after="", first="12").value == "12"  # (no line: it is the number)
    got = _written_in(0.5, after="", first="12", strike_at=0.8)
    assert (got.value, got.why) == (UNREAD, "struck through")


def test_a_narrow_blot_beside_the_number_is_a_digit_blotted_out():
    """A bar of ink several times as thick as the pen's stroke is a digit blotted out (read
    whole, a blotted 1 and a 3 were 13). A quarter of the writing's height wide at least
    (`STRUCK.blot_wide`), the 3 after it is the number; narrower, it may be a digit's own
    bold stroke, and the box is left to type."""
    import cv2

    from sheetgen.scan.inked import crossed_out, past_crossing

    def bar_then_3(width: int):
        pic = np.full((70, 90), 255, np.uint8)
        cv2.rectangle(pic, (22 - width, 8), (21, 60), 0, -1)
        three = np.array([[32, 12], [57, 12], [44, 32], [60, 44], [52, 58], [32, 58]], np.int32)
        cv2.polylines(pic, [three], False, 0, 2)
        return pic

    assert STRUCK.blot_wide * 53 <= 15
    why, after = past_crossing(cv2, np, bar_then_3(15))  # (15 px wide: its middle 7 px in)
    columns = np.flatnonzero((bar_then_3(15) < 128).any(axis=0) & after.any(axis=0))
    assert why == "blotted out" and columns[0] == 31  # (the 3, none of the bar)
    assert crossed_out(cv2, np, bar_then_3(11)) == ("blotted out", None)
    pic = bar_then_3(15)
    pic[:, :28] = 255  # (the 3 alone)
    assert crossed_out(cv2, np, pic) == ("", None)


def test_a_strike_from_well_before_a_number_into_its_first_digit_crosses_it_out():
    """A line from well before a 73 through its 7, level or aslant, ending in the 7: crossed
    out (read whole, a struck 7 and the 3 after it were 73); the 73 alone is not."""
    import cv2

    from sheetgen.scan.inked import crossed_out

    pic = np.full((70, 110), 255, np.uint8)
    cv2.polylines(pic, [np.array([[40, 12], [62, 12], [46, 58]], np.int32)], False, 0, 3)
    cv2.polylines(pic, [np.array([[68, 12], [90, 12], [78, 32], [94, 44], [86, 58], [66, 58]], np.int32)], False, 0, 3)
    assert crossed_out(cv2, np, pic) == ("", None)
    for start, end in (((8, 36), (56, 36)), ((8, 44), (56, 30))):
        struck = pic.copy()
        cv2.line(struck, start, end, 0, 3)
        assert crossed_out(cv2, np, struck) == ("struck through", None)


def test_a_strike_a_sixth_of_the_height_before_a_number_crosses_it_out():
    """A line starting `STRUCK.lead` of the writing's height before a 7 (9 px of 51), through
    its diagonal, its end touching it: crossed out (read whole, a struck 8 and the 6 after it
    were 86); the 7 alone is not."""
    import cv2

    from sheetgen.scan.inked import crossed_out

    seven = np.full((70, 110), 255, np.uint8)
    cv2.polylines(seven, [np.array([[40, 12], [80, 12], [56, 58]], np.int32)], False, 0, 3)
    assert crossed_out(cv2, np, seven) == ("", None)
    assert STRUCK.lead * 51 <= 9
    cv2.line(seven, (31, 36), (72, 36), 0, 3)
    assert crossed_out(cv2, np, seven) == ("struck through", None)


def test_small_writing_in_a_thick_pen_is_no_blot():
    """A 4 25 px tall in a 5 px stroke: where its strokes cross, the ink is a fifth of its
    height thick, but not twice the pen's stroke (`STRUCK.piled`): a digit, not a blot."""
    import cv2

    from sheetgen.scan.inked import crossed_out

    pic = np.full((30, 30), 255, np.uint8)
    for a, b in (((14, 5), (6, 17)), ((6, 17), (19, 17)), ((15, 9), (15, 23))):
        cv2.line(pic, a, b, 0, 5, cv2.LINE_AA)
    assert crossed_out(cv2, np, pic) == ("", None)


def test_writing_running_on_through_a_box_leaves_it_to_type_not_empty():
    """A chain of large writing through a column of boxes, so long that little of it lies in
    any one: the box may hold a number of its own under it."""
    import cv2

    from sheetgen.scan.blank import PPMM

    layout, boxes, img = _bosk_pad()
    first, last = boxes["terrain_1_p1_count"], boxes["terrain_6_p1_count"]
    x = round((first.x + 0.5 * first.w) * PPMM)
    ys = np.linspace((first.y + 0.2 * first.h) * PPMM, (last.y + 0.8 * last.h) * PPMM, 40)
    wave = [(x + round(6 * np.sin(k / 2)), round(y)) for k, y in enumerate(ys)]
    cv2.polylines(img, [np.array(wave, np.int32)], False, (20, 20, 60), 2, cv2.LINE_AA)
    got = _read_box(layout, boxes, img, "terrain_3_p1_count")
    assert (got.value, got.why) == (UNREAD, "ink running through from another box")


def test_a_digit_touching_the_border_where_the_next_box_digit_meets_it_is_kept_apart():
    """A 0 whose base rests on the line between two cells of Bosk's summer tally, and under
    it, in the next cell, a 7 whose bar runs along that line: each cell reads its own digit,
    the other's not joined to it through the line."""
    import cv2

    from sheetgen.scan.blank import PPMM, blank_colours, blank_page

    layout = load_layout("bosk")
    display, _ = blank_page(layout, "summer", 2, "en")
    boxes = {b.field: b for b in display.boxes()}
    img = blank_colours(layout, "summer", 2, "en").copy()
    above, below = boxes["summer_tally_columns_p1_pts3"], boxes["summer_tally_columns_p2_3"]
    ink, x, line = (20, 20, 60), round((below.x + 0.45 * below.w) * PPMM), round(below.y * PPMM)
    tall = round(0.45 * above.h * PPMM)
    cv2.ellipse(img, (x, line - tall), (round(0.1 * above.w * PPMM), tall), 0, 0, 360, ink, 2, cv2.LINE_AA)
    bar, half = line + 4, round(0.11 * below.w * PPMM)
    cv2.line(img, (x - half, bar), (x + half, bar), ink, 2, cv2.LINE_AA)
    cv2.line(img, (x + half, bar), (x - half // 3, bar + round(0.9 * below.h * PPMM)), ink, 2, cv2.LINE_AA)
    read = PageRead(
        Photo("page.jpg", "page", img), layout, "summer", {f: "" for f in boxes}, {},
        rectified=img, sheet={"players": 2, "lang": "en", "grey": False},
    )  # fmt: skip
    got = read_numbers(read, ocr.recogniser())
    assert (got[above.field].value, got[below.field].value) == ("0", "7")


# ----------------------------------------------------------------------------- checks


def _disagree(layout_id: str, values: dict) -> list:
    layout = load_layout(layout_id)
    return game_for(layout).disagreements(layout, values)


def test_bosk_rows_that_do_not_add_up_to_the_columns_make_them_all_unread():
    rows = {f"summer_tally_rows_p1_{k}": v for k, v in enumerate([3, 4, None, 5, None, None, None], 1)}
    cols = {f"summer_tally_columns_p1_{k}": v for k, v in enumerate([None, 6, 6, None, None, None, None], 1)}
    assert _disagree("bosk", {**rows, **cols}) == []
    cols["summer_tally_columns_p1_3"] = 7
    [group] = _disagree("bosk", {**rows, **cols})
    assert set(group) == set(rows) | set(cols)
    cols["summer_tally_columns_p1_3"] = UNREAD  # (one not read: nothing to check)
    assert _disagree("bosk", {**rows, **cols}) == []


def test_a_bosk_worksheet_total_against_its_lines():
    rows = {f"summer_tally_rows_p1_{k}": v for k, v in enumerate([3, 4, None, 5], 1)}
    pts = {f"summer_tally_rows_p1_pts{k}": v for k, v in enumerate([2, 0, None, 3], 1)}
    totals = {"summer_tally_rows_p1_total": 12, "summer_tally_rows_p1_pts_total": 5}
    assert _disagree("bosk", {**rows, **pts, **totals}) == []
    assert _disagree("bosk", {**rows, **pts, **totals, "summer_tally_rows_p1_total": 13}) == [
        (*rows, "summer_tally_rows_p1_total")
    ]
    assert _disagree("bosk", {**rows, **pts, **totals, "summer_tally_rows_p1_pts_total": 6}) == [
        (*pts, "summer_tally_rows_p1_pts_total")
    ]


def test_the_bosk_worksheet_points_and_totals_are_numbers_written():
    layout = load_layout("bosk")
    wanted = game_for(layout).written(layout, 2)
    assert wanted["summer_tally_rows_p2_pts7"].hi == 3  # (alone in a line: the most a line earns)
    assert wanted["summer_tally_columns_p1_total"].hi == 20 and not wanted["summer_tally_columns_p1_total"].record
    assert wanted["summer_tally_rows_p1_pts_total"].hi == 21
    assert "summer_tally_rows_p1_colour" not in wanted


def test_plante_bataille_majority_ticks_against_the_tokens_and_the_total():
    layout = load_layout("plante-bataille")
    assert not any(f.startswith("majority_") for f in game_for(layout).written(layout, 3))
    pb = {
        "harvested_p1": 6, "harvested_p2": 4, "total_p1": 9, "total_p2": 4,
        "tokens_veg1_p1": 3, "tokens_veg1_p2": 1, "tokens_veg2_p1": 2, "tokens_veg2_p2": 2,
        "tokens_veg3_p1": 0, "tokens_veg3_p2": 0,
        "majority_veg1_p1": True, "majority_veg1_p2": False, "majority_veg2_p1": False,
        "majority_veg2_p2": False, "majority_veg3_p1": False, "majority_veg3_p2": False,
    }  # fmt: skip
    assert _disagree("plante-bataille", pb) == []
    # a tick where the tokens give it to nobody (a tie): those tokens; the total without it
    assert _disagree("plante-bataille", {**pb, "majority_veg2_p2": True}) == [
        ("harvested_p2", "total_p2"),
        ("tokens_veg2_p1", "tokens_veg2_p2"),
    ]
    # no tick at all on the pad: the scorer gives the bonuses, nothing to check them against
    unticked = {f: False if f.startswith("majority_") else v for f, v in pb.items()}
    assert _disagree("plante-bataille", {**unticked, "tokens_veg1_p2": 5}) == []
    # a tick not read sure checks nothing: neither the tokens of its kind nor its player's total
    unsure = {f: v for f, v in pb.items() if f != "majority_veg1_p1"}
    unsure.update({"tokens_veg3_p2": 2, "majority_veg3_p2": True, "total_p2": 7, "tokens_veg1_p2": 5})
    assert _disagree("plante-bataille", unsure) == []


def test_a_written_total_against_its_parts():
    pb = {"harvest_values_p1": [3, -2, 5], "harvested_p1": 6, "total_p1": None}
    assert _disagree("plante-bataille", pb) == []
    assert _disagree("plante-bataille", {**pb, "harvested_p1": 16}) == [("harvest_values_p1", "harvested_p1")]
    # a sum with no card values beside it: nothing checks it, it is left to type
    assert _disagree("plante-bataille", {**pb, "harvest_values_p1": None}) == [("harvest_values_p1", "harvested_p1")]
    layout = load_layout("imperial-settlers")
    [(fields)] = _disagree("imperial-settlers", {f: 2 for f in game_for(layout).written(layout, 1)})
    assert "score_favors" in fields and "score_total" in fields


def test_a_glassworks_row_run_against_its_board_copy():
    layout = load_layout("river-valley-glassworks")
    cols, rows = 7, layout.constants["column_height"]
    heights = [3, 3, 2, 0, 2, 2, 2]
    board = {f"board_p1_r{r}_c{c}": heights[c - 1] >= r for r in range(1, rows + 1) for c in range(1, cols + 1)}
    runs = {"row_1_p1_count": 3, "row_2_p1_count": 3, "overflow_p1_count": 0}
    assert _disagree("river-valley-glassworks", {**board, **runs}) == []
    assert _disagree("river-valley-glassworks", {**board, **runs, "row_2_p1_count": 2}) == [("row_2_p1_count",)]


def test_a_number_left_to_type_is_kept_where_the_sheet_adds_up_to_what_a_reader_read():
    """A Bosk worksheet's line and its total all read but one number: the sheet pins that one,
    and it is kept when the readers read it so (the recogniser, the digit classifier: each
    that reads a number); a reading the sheet does not make, or two numbers unread in one
    line, stay to type."""
    from sheetgen.scan.written import NumberRead

    read, _ = _page("bosk", "summer", 2, 5)
    line = [3, 4, 0, 5, 2, 0, 1]
    fields = [f"summer_tally_rows_p1_{k}" for k in range(1, 8)] + ["summer_tally_rows_p1_total"]

    def settled(unread: dict) -> dict:
        numbers = {f: NumberRead(f, (0, 0, 1, 1), str(v)) for f, v in zip(fields, [*line, sum(line)])}
        for f, (text, other) in unread.items():
            numbers[f] = NumberRead(f, (0, 0, 1, 1), UNREAD, text, 0.5, "not sure", other)
        return {f: n.value for f, n in agreed(read, numbers).items() if f in unread}

    second, total = fields[1], fields[-1]
    assert settled({second: ("4", "")}) == {second: "4"}
    assert settled({second: ("?", "4")}) == {second: "4"}  # (the classifier read what the sheet makes)
    assert settled({second: ("1", "4")}) == {second: UNREAD}  # (the recogniser read another number)
    assert settled({total: ("15", "")}) == {total: "15"}
    assert settled({second: ("7", "1")}) == {second: UNREAD}  # (the sheet makes 4: a slip, or a misreading)
    assert settled({second: ("4", ""), fields[0]: ("3", "")}) == {second: UNREAD, fields[0]: UNREAD}


def test_card_values_read_against_their_sum_leave_the_list_to_type():
    """A Plante Bataille player's card values 3, 4, 5 read as 3, 45 (two values run together),
    their sum 12 read as written, all of it in its box: the list is left to type and the sum
    kept (the record takes a sum where the list is '?'); a sum with no values beside it, or
    written across its border, is left to type too."""
    from sheetgen.scan.written import NumberRead

    read, _ = _page("plante-bataille", "pad", 3, 5)

    def checked(values: str, summed: str, within: bool = True) -> dict:
        numbers = {
            "harvest_values_p1": NumberRead("harvest_values_p1", (0, 0, 1, 1), values),
            "harvested_p1": NumberRead("harvested_p1", (0, 0, 1, 1), summed, within=within),
        }
        return {f: n.value for f, n in agreed(read, numbers).items()}

    assert checked("3, 4, 5", "12") == {"harvest_values_p1": "3, 4, 5", "harvested_p1": "12"}
    assert checked("3, 45", "12") == {"harvest_values_p1": UNREAD, "harvested_p1": "12"}
    assert checked("", "12") == {"harvest_values_p1": UNREAD, "harvested_p1": UNREAD}
    # (a sum written across its border, whose 7 may have lost its bar under the print: 1)
    assert checked("5, 2", "1", within=False) == {"harvest_values_p1": UNREAD, "harvested_p1": UNREAD}


@pytest.mark.slow
def test_a_bosk_pad_photographed_scans_to_a_record_of_its_numbers(tmp_path):
    """Both pages of a 4-player Bosk pad, written in, photographed on a table: `scan` makes
    the record, each number as written or '?', and the --check picture."""
    import yaml
    from click.testing import CliRunner
    from PIL import Image, ImageOps

    from sheetgen.cli import cli

    truth = {}
    for page_id in ("pad", "summer"):
        read, page_truth = _page("bosk", page_id, 4, 21)
        truth.update(page_truth)
        photo = ImageOps.expand(
            ImageOps.expand(Image.fromarray(read.rectified), 50, fill=(250, 250, 248)), 40, fill=(120, 110, 100)
        )
        photo.save(tmp_path / f"game-{page_id}.jpg", quality=90)
    out, check = tmp_path / "game.yaml", tmp_path / "check.png"
    result = CliRunner().invoke(
        cli,
        [
            "scan",
            str(tmp_path / "game-pad.jpg"),
            str(tmp_path / "game-summer.jpg"),
            "-o",
            str(out),
            "--check",
            str(check),
        ],
    )
    assert result.exit_code == 0, result.output
    record = yaml.safe_load(out.read_text(encoding="utf-8"))
    players = record["players"]
    assert [p["name"] for p in players] == [f"Player {i}" for i in range(1, len(players) + 1)]
    read, unread = 0, 0
    for i, player in enumerate(players, 1):
        leaves = [truth[f"terrain_{k}_p{i}_count"] for k in range(1, 9)]
        rows = [truth[f"summer_tally_rows_p{i}_{k}"] for k in range(1, 12)]
        for got, want in [*zip(player["leaves"], leaves), *zip(player["summer_lines"]["rows"], rows)]:
            if got == "?":
                unread += 1
            else:
                assert got == int(want or 0)
                read += 1
    assert read > unread  # (most are read: the rest, in doubt, are left to type)
    assert check.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_check_picture_shows_each_number_as_read_by_its_box():
    import cv2

    from sheetgen.scan.blank import PPMM
    from sheetgen.scan.written import NUMBER_COLOURS, NumberRead, draw_numbers

    img = np.full((round(30 * PPMM), round(30 * PPMM), 3), 255, np.uint8)
    read = {"kept": (2, 2, 10, 8), UNREAD: (2, 14, 10, 8), "": (16, 2, 8, 8)}
    draw_numbers(cv2, img, {k: NumberRead(k, rect, "12" if k == "kept" else k) for k, rect in read.items()})
    for k, (x, y, w, _) in read.items():
        assert tuple(img[round(y * PPMM), round((x + w / 2) * PPMM)]) == NUMBER_COLOURS[k]  # its outline
    labelled = img[round(2 * PPMM) + 4 : round(6 * PPMM), round(2 * PPMM) + 4 : round(6 * PPMM)]
    assert (labelled == NUMBER_COLOURS["kept"]).all(axis=2).any()  # the number, in its corner
    asked = img[round(14 * PPMM) + 4 : round(17 * PPMM), round(2 * PPMM) + 4 : round(6 * PPMM)]
    assert (np.abs(asked.astype(int) - NUMBER_COLOURS[UNREAD]) < 60).all(axis=2).any()  # its '?'
