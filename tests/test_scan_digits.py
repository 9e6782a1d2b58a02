"""The second reader of handwritten numbers (sheetgen.scan.digits): the writing cut into its
digits, each drawn as the classifier learnt digits, read by the classifier shipped in the
package; and how a number is judged from both readers (sheetgen.scan.written._judged), and
from writing that may run under the print."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from sheetgen.errors import SheetgenError
from sheetgen.games.base import Written
from sheetgen.scan import digits
from sheetgen.scan.inked import Shape
from sheetgen.scan.ocr import Reading
from sheetgen.scan.tuning import DIGITS, GLYPHS, NUMBERS, WRITING
from sheetgen.scan.written import UNREAD, _judged


def _paper(w: int = 160, h: int = 80):
    return np.full((h, w), 255, np.uint8)


def _stroke(img, points, thick: int = 3):
    cv2.polylines(img, [np.array(points, np.int32)], False, 0, thick, cv2.LINE_AA)


def _drawn(text: str):
    """A line of writing as a hand draws it, 60 px tall a digit: the digits of `text` (0, 1,
    4, 7, -) each in its own 50 px column."""
    img = _paper(20 + 50 * len(text), 90)
    for k, ch in enumerate(text):
        x = 15 + 50 * k
        if ch == "0":
            cv2.ellipse(img, (x + 17, 45), (15, 30), 8, 0, 360, 0, 3, cv2.LINE_AA)
        elif ch == "1":
            _stroke(img, [(x + 8, 28), (x + 20, 15), (x + 18, 75)])
        elif ch == "4":
            _stroke(img, [(x + 22, 15), (x + 2, 55), (x + 34, 55)])
            _stroke(img, [(x + 24, 35), (x + 22, 75)])
        elif ch == "7":
            _stroke(img, [(x + 2, 17), (x + 32, 15), (x + 12, 75)])
        elif ch == "-":
            _stroke(img, [(x + 4, 46), (x + 30, 45)])
    return img


def test_the_writing_is_cut_into_its_digits_left_to_right():
    assert len(digits.pieces(cv2, np, _drawn("104"))) == 3
    assert len(digits.pieces(cv2, np, _paper())) == 0
    img = _paper()  # a 5 in two strokes: its flag above its body is the same digit's
    _stroke(img, [(40, 15), (20, 15), (18, 38)])
    _stroke(img, [(18, 40), (35, 36), (42, 50), (35, 66), (16, 64)])
    assert len(digits.pieces(cv2, np, img)) == 1
    img[30:32, 100:102] = 0  # (a speck of dust is no digit)
    assert len(digits.pieces(cv2, np, img)) == 1


def test_a_digit_is_drawn_as_the_classifier_learnt_digits():
    img = _paper()
    _stroke(img, [(40, 10), (40, 70)], thick=1)  # (a fine pen's 1)
    (mask,) = digits.pieces(cv2, np, img)
    g = digits.glyph(cv2, np, mask)
    assert g.shape == (digits.SIDE, digits.SIDE) and g.dtype == np.float32
    ys, xs = np.nonzero(g > 0.5)
    assert ys.max() - ys.min() + 1 == pytest.approx(digits.FIT, abs=1)  # (scaled to fit)
    assert xs.max() - xs.min() + 1 >= 2  # (thickened)
    cy, cx = (np.array(np.nonzero(g)) * g[g > 0]).sum(axis=1) / g.sum()
    assert abs(cy - digits.SIDE / 2) <= 1 and abs(cx - digits.SIDE / 2) <= 1  # (set by its centre of mass)


@pytest.mark.parametrize("text", ["0", "1", "4", "7", "10", "-4", "47"])
def test_digits_drawn_by_hand_are_read(text):
    (got,) = digits.read(cv2, np, [_drawn(text)], digits.classifier())
    assert got.text == text
    assert got.chance(text) >= 0.9
    assert got.chance(text[:-1]) is None  # (its pieces are not that text's characters)


def test_the_weights_shipped_are_checked_at_load(tmp_path):
    assert digits.classifier() is not None  # (shipped in the package, no extra needed)
    bad = tmp_path / "digits.npz"
    bad.write_bytes(b"not weights")
    with pytest.raises(SheetgenError) as err:
        digits.DigitNet(bad)
    assert str(err.value) == (
        f"{digits.WEIGHTS}: the digit classifier's weights are not those sheetgen ships (their SHA-256 differs): "
        "the install is damaged; reinstall it: pip install --force-reinstall rollwrite"
    )


# ----------------------------------------------------------------------------- judged


class _Box:
    field, x, y, w, h = "total", 0.0, 0.0, 10.0, 10.0


def _shape(**kw) -> Shape:
    base = dict(
        height=40,
        width=50,
        pieces=2,
        upright=False,
        across=False,
        loops=[],
        captioned=False,
        hidden=0,
        touches=0,
        outside=0.0,
        faint=0,
        faint_before=0,
        through=False,
    )
    return Shape(**{**base, **kw})


def _reads(text: str, sure: float) -> list:
    return [Reading(text, tuple(sure for _ in text))]


def _second(text: str, sure: float):
    """The classifier's reading of `text`, each digit this sure."""
    probs = []
    for ch in text:
        p = np.full(11, (1 - sure) / 10, np.float32)
        p[int(ch)] = sure
        probs.append(p)
    return digits.DigitReads(text, tuple(probs))


def test_a_0_both_readers_read_alike_still_closes_one_even_loop():
    """A 6 whose stem is short, or whose loop is open at its top, reads 0 to both readers:
    a lone 0 they agree on is kept only when its loop is closed with as much ink above it
    as below (loops: height, ink above, ink below, waist, of the writing's height)."""
    agreed = _reads("0", 0.8), 0.9, _second("0", 1.0)
    assert _judged(_Box, Written(), _shape(loops=[(0.9, 0.05, 0.05, 0.9)]), *agreed).value == "0"
    stem = _judged(_Box, Written(), _shape(loops=[(0.5, 0.36, 0.15, 0.6)]), *agreed)
    assert (stem.value, stem.why) == (UNREAD, "a loop not a 0's")
    open_top = _judged(_Box, Written(), _shape(loops=[]), *agreed)
    assert (open_top.value, open_top.why) == (UNREAD, "0 loops in the ink")
    # (its stroke broken, the break closed: `Shape.closed`)
    broken = _judged(_Box, Written(), _shape(loops=[], closed=[(0.9, 0.05, 0.05, 0.9)]), *agreed)
    assert broken.value == "0"
    stem = _judged(_Box, Written(), _shape(loops=[], closed=[(0.5, 0.36, 0.15, 0.6)]), *agreed)
    assert (stem.value, stem.why) == (UNREAD, "a loop not a 0's")


def test_a_loop_whose_stroke_breaks_is_closed_where_the_break_is_narrow():
    """A 0 drawn with a break in its stroke (a pen skipping): no loop as the ink lies, one
    with the break closed, `DIGITS.skip` of its height wide at most; a C, its gap wider, none."""
    import cv2

    from sheetgen.scan.inked import _loops

    def ring(gap_degrees: float):
        mask = np.zeros((60, 40), np.uint8)
        cv2.ellipse(mask, (20, 30), (15, 26), 0, -90 + gap_degrees / 2, 270 - gap_degrees / 2, 1, 3)
        return mask > 0

    assert len(_loops(cv2, np, ring(0))) == 1
    assert _loops(cv2, np, ring(22)) == [] and len(_loops(cv2, np, ring(22), DIGITS.skip)) == 1  # (a narrow break)
    assert _loops(cv2, np, ring(40), DIGITS.skip) == []  # (a C)


def test_a_5_the_classifier_reads_6_is_left_to_type():
    """A 6 whose loop is open at its top reads 5 to the recogniser, however sure: the
    classifier seeing a 6 there leaves it to type (and a 6 it sees as a 5); other digits it
    reads otherwise do not (its misreadings would cost more right numbers than they save)."""
    got = _judged(_Box, Written(), _shape(), _reads("15", 0.99), 0.9, _second("16", 0.6))
    assert (got.value, got.why) == (UNREAD, "a 5 or a 6: the readers differ")
    assert _judged(_Box, Written(), _shape(), _reads("6", 0.99), 0.9, _second("5", 0.6)).value == UNREAD
    assert _judged(_Box, Written(), _shape(), _reads("15", 0.99), 0.9, _second("16", 0.3)).value == "15"
    assert _judged(_Box, Written(), _shape(), _reads("4", 0.99), 0.9, _second("9", 0.9)).value == "4"


def test_a_digit_the_classifier_finds_none_is_left_to_type():
    """A 2 struck through, the strike run into it, and the 4 written after it read 24 to the
    recogniser, all but certain; the classifier, cutting the writing into two pieces, finds
    the first no digit (`digits.NONE` likelier than any): the number is left to type."""
    struck = np.full(11, 0.01, np.float32)
    struck[digits.NONE] = 0.6
    second = digits.DigitReads("?4", (struck, _second("4", 0.99).probs[0]))
    got = _judged(_Box, Written(), _shape(), _reads("24", 1.0), 0.9, second)
    assert (got.value, got.why) == (UNREAD, "a digit the classifier finds none (one struck out?)")
    # (cut into other pieces than the recogniser's digits, it cannot say which is none)
    assert _judged(_Box, Written(), _shape(), _reads("24", 1.0), 0.9, digits.DigitReads("?", (struck,))).value == "24"


def test_a_1_as_wide_as_a_minus_joined_to_it_is_left_to_type_where_a_minus_may_go():
    """A minus written touching the 1 after it reads 1 to both readers, all but certain: where
    the rules allow a number below 0, a lone 1 wider than `DIGITS.one_signed` of its height is
    left to type; where they do not, no minus is written there."""
    wide = _shape(pieces=1, height=40, width=round(DIGITS.one_signed * 40) + 2)
    got = _judged(_Box, Written(lo=None), wide, _reads("1", 1.0), 0.9, _second("1", 1.0))
    assert (got.value, got.why) == (UNREAD, "a 1 as wide as a minus joined to it")
    assert _judged(_Box, Written(), wide, _reads("1", 1.0), 0.9, _second("1", 1.0)).value == "1"
    narrow = _shape(pieces=1, height=40, width=round(DIGITS.one_signed * 40) - 2)
    assert _judged(_Box, Written(lo=None), narrow, _reads("1", 1.0), 0.9, _second("1", 1.0)).value == "1"


def test_a_number_both_readers_read_alike_is_kept_less_sure_of_each():
    alone = _judged(_Box, Written(), _shape(), _reads("47", 0.7), 0.9)
    assert (alone.value, alone.why) == (UNREAD, "not sure")
    both = _judged(_Box, Written(), _shape(), _reads("47", 0.7), 0.9, _second("47", 0.9))
    assert (both.value, both.why) == ("47", "")
    apart = _judged(_Box, Written(), _shape(), _reads("47", 0.7), 0.9, _second("41", 0.99))
    assert apart.value == UNREAD
    unsure = _judged(_Box, Written(), _shape(), _reads("47", 0.3), 0.9, _second("47", 0.99))
    assert unsure.value == UNREAD


@pytest.mark.parametrize(
    "seen",
    [
        {"across": True, "outside": WRITING.spill + 0.01},
        {"captioned": True},
        {"touches": WRITING.hidden_px},
    ],
)
def test_both_readers_agree_only_on_writing_seen_whole(seen):
    """Run far into the next box, over a caption or against print too dark to see the pen
    over, both readers see the same picture with a part missing or one too many (a 2's base
    along the border reads 7, a 0 and the tail of the 7 under it 9): their agreement says
    nothing more; the recogniser alone must be sure."""
    part = _shape(**seen)
    assert _judged(_Box, Written(), part, _reads("47", 0.8), 0.9, _second("47", 1.0)).value == UNREAD
    whole = _judged(_Box, Written(), _shape(), _reads("47", 0.8), 0.9, _second("47", 1.0))
    assert whole.value == "47"


def test_both_readers_agree_on_writing_that_runs_through_a_dark_line():
    """Writing that shows on both sides of a black line it crosses loses no more to it than
    the line's width: both readers reading it alike keep it, as where it touches no print."""
    through = _shape(touches=4 * WRITING.hidden_px, through=True)
    assert _judged(_Box, Written(), through, _reads("47", 0.8), 0.9, _second("47", 1.0)).value == "47"


def test_both_readers_agree_against_dark_print_or_a_caption_only_on_digits_no_hidden_stroke_makes():
    """Writing that touches a black line from one side may hide a stroke along it: a 2's base
    leaves a 7, a 7's bar a 1, an 8's side a 3, a 6's stem a 0. Agreement on other digits
    stands where the writing's top is clear of the print, and on a lone 0 whose loop is a
    whole 0's; on those, it says nothing more."""
    side = _shape(touches=4 * WRITING.hidden_px, across=True)  # (across the border: the recogniser needs more alone)
    assert _judged(_Box, Written(), side, _reads("45", 0.95), 0.9, _second("45", 1.0)).value == "45"
    for text in ("47", "41", "43", "40"):
        assert _judged(_Box, Written(), side, _reads(text, 0.95), 0.9, _second(text, 1.0)).value == UNREAD
    top = _shape(touches=WRITING.hidden_much, hidden=WRITING.hidden_much, across=True)
    assert _judged(_Box, Written(), top, _reads("45", 0.95), 0.9, _second("45", 1.0)).value == UNREAD
    # (the recogniser unsure of its own: both may be fooled alike, a struck 8 and 24 read 824)
    assert _judged(_Box, Written(), side, _reads("45", 0.8), 0.9, _second("45", 1.0)).value == UNREAD
    # over a caption, as where the writing touches dark print (a 6's stem under it leaves a 0)
    caption = _shape(captioned=True, across=True)
    assert _judged(_Box, Written(), caption, _reads("45", 0.95), 0.9, _second("45", 1.0)).value == "45"
    assert _judged(_Box, Written(), caption, _reads("40", 0.95), 0.9, _second("40", 1.0)).value == UNREAD
    # (a lone 0 whose loop is a whole 0's, closed, even and most of its height, is no 6's loop)
    zero = side._replace(loops=[(0.9, 0.05, 0.05, 0.9)])
    assert _judged(_Box, Written(), zero, _reads("0", 0.95), 0.9, _second("0", 1.0)).value == "0"
    assert (
        _judged(_Box, Written(), caption._replace(loops=zero.loops), _reads("0", 0.95), 0.9, _second("0", 1.0)).value
        == "0"
    )
    small = side._replace(loops=[(0.4, 0.05, 0.05, 0.9)])  # (a 6's loop, its stem along the line)
    assert _judged(_Box, Written(), small, _reads("0", 0.95), 0.9, _second("0", 1.0)).value == UNREAD


def test_both_readers_agree_on_writing_just_over_the_light_border():
    """A box's edge prints in the dropout grey: a stroke over it shows, and writing a little
    over it is seen whole."""
    over = _shape(across=True, outside=WRITING.spill)
    assert _judged(_Box, Written(), over, _reads("47", 0.8), 0.9, _second("47", 1.0)).value == "47"


def test_a_digit_the_recogniser_takes_for_a_letter_is_the_classifier_s_where_it_is_all_but_certain():
    """A 4 the recogniser reads as an ideograph or an A, a 9 as an a: the classifier all but
    certain of its digit there (`GLYPHS.surest`), reading the rest alike, with all of the
    writing seen in its box, gives the number; less sure, or across the border, it is '?'."""
    got = _judged(_Box, Written(), _shape(pieces=1), _reads("?", 0.6), 0.9, _second("4", GLYPHS.surest))
    assert (got.value, got.why) == ("4", "")
    assert _judged(_Box, Written(), _shape(), _reads("1?", 0.6), 0.9, _second("14", GLYPHS.surest)).value == "14"
    unsure = _judged(_Box, Written(), _shape(), _reads("?", 0.6), 0.9, _second("4", GLYPHS.surest - 0.01))
    assert (unsure.value, unsure.why) == (UNREAD, "not sure")
    # (the rest read apart, or writing across the border where a neighbour's stroke may join it)
    assert _judged(_Box, Written(), _shape(), _reads("7?", 0.6), 0.9, _second("14", 1.0)).value == UNREAD
    across = _shape(across=True)
    assert _judged(_Box, Written(), across, _reads("?", 0.6), 0.9, _second("4", 1.0)).value == UNREAD
    # (the recogniser's second reading, after an equals sign, seeing another digit there)
    seen = [Reading("?", (0.0,), apart="9")]
    assert _judged(_Box, Written(), _shape(), seen, 0.9, _second("4", 1.0)).value == UNREAD
    seen = [Reading("?", (0.0,), apart="4")]
    assert _judged(_Box, Written(), _shape(), seen, 0.9, _second("4", 1.0)).value == "4"
    # (the loops counted all the same: a 0 whose loop is open at its top reads 6 to the classifier)
    assert _judged(_Box, Written(), _shape(), _reads("?", 0.6), 0.9, _second("0", 1.0)).why == "0 loops in the ink"
    assert _judged(_Box, Written(), _shape(), _reads("?", 0.6), 0.9, _second("6", 1.0)).why == "0 loops in the ink"


def test_the_recogniser_s_primed_reading_the_classifier_reads_alike_is_kept():
    """The recogniser reads a line as it is and after an equals sign (`ocr._surer`); where
    the two differ (a 1 read as a letter alone, 1 after the sign), the primed reading is kept when the
    classifier reads it alike, each as sure as two readers agreeing must be (the classifier
    all but certain where the first reading has another digit there), and all of the
    writing is seen with nothing of it under the print; otherwise the number is '?'."""
    one = _shape(pieces=1, width=12)
    primed = [Reading("?", (0.0,), apart="1", apart_sure=NUMBERS.agreed_sure)]
    got = _judged(_Box, Written(), one, primed, 0.9, _second("1", GLYPHS.sure))
    assert (got.value, got.why) == ("1", "")
    unsure = [Reading("?", (0.0,), apart="1", apart_sure=NUMBERS.agreed_sure - 0.01)]
    assert _judged(_Box, Written(), one, unsure, 0.9, _second("1", GLYPHS.sure)).why == "not sure"
    assert _judged(_Box, Written(), one, primed, 0.9, _second("1", GLYPHS.sure - 0.01)).why == "not sure"
    # (less sure after the primer, even where the classifier is all but certain: a 9 whose tail
    # is lost reads 0 after it, 0.54 sure, and to the classifier)
    less = [Reading("?", (0.0,), apart="1", apart_sure=NUMBERS.agreed_least)]
    over = _shape(pieces=1, width=12, across=True)
    assert _judged(_Box, Written(), over, less, 0.9, _second("1", 1.0)).why == "not sure"
    assert _judged(_Box, Written(), over, primed, 0.9, _second("1", 1.0)).value == "1"
    assert _judged(_Box, Written(), one, primed, 0.9, _second("7", 1.0)).why == "not sure"
    # (the first reading another digit there, a 2 read 7 after the primer: the classifier all but certain)
    split = [Reading("2", (0.0,), apart="7", apart_sure=0.82)]
    assert _judged(_Box, Written(), one, split, 0.9, _second("7", GLYPHS.surest - 0.01)).why == "not sure"
    assert _judged(_Box, Written(), one, split, 0.9, _second("7", GLYPHS.surest)).value == "7"
    # (a 7 whose bar lies along the border reads 1 to both: its top under the print)
    under = _shape(pieces=1, width=12, across=True, hidden=WRITING.hidden_px, touches=WRITING.hidden_px, through=True)
    assert _judged(_Box, Written(), under, primed, 0.9, _second("1", 1.0)).value == UNREAD


def test_a_digit_the_classifier_reads_otherwise_leaves_a_number_the_recogniser_is_not_certain_of():
    """A 4 closed at its top: the recogniser reads 9, 0.986 sure, the classifier 0, all but
    certain. Two readers learnt apart differ: the number is left to type, unless the
    recogniser is all but certain of it (`NUMBERS.across_sure`)."""
    differ = _second("0", GLYPHS.differ + 0.01)
    got = _judged(_Box, Written(), _shape(loops=[(0.5, 0.2, 0.3, 0.5)]), _reads("9", 0.986), 0.9, differ)
    assert (got.value, got.why) == (UNREAD, "the readers read another digit")
    certain = _judged(_Box, Written(), _shape(loops=[(0.5, 0.2, 0.3, 0.5)]), _reads("9", 0.999), 0.9, differ)
    assert certain.value == "9"
    unsure = _second("0", GLYPHS.differ - 0.05)
    assert _judged(_Box, Written(), _shape(loops=[(0.5, 0.2, 0.3, 0.5)]), _reads("9", 0.986), 0.9, unsure).value == "9"


def test_a_digit_far_shorter_than_the_others_is_left_to_type():
    """A number's digits are written alike: a stroke of the box above's writing run down into
    the box, high and short beside the 5 written there, reads 15 to both readers; a digit less
    than `GLYPHS.even` of the tallest's height leaves the number to type."""
    short = replace(_second("15", 0.99), even=GLYPHS.even - 0.05)
    got = _judged(_Box, Written(), _shape(), _reads("15", 1.0), 0.9, short)
    assert (got.value, got.why) == (UNREAD, "a digit far shorter than the others (another box's stroke?)")
    alike = replace(_second("15", 0.99), even=GLYPHS.even)
    assert _judged(_Box, Written(), _shape(), _reads("15", 1.0), 0.9, alike).value == "15"


def test_the_classifier_measures_its_digits_heights_one_against_another():
    picture = np.full((80, 90), 255, np.uint8)
    picture[10:70, 20:24] = 0  # (an upright stroke 60 px tall)
    picture[10:30, 60:64] = 0  # (one 20 px tall beside it)
    got = digits.read(cv2, np, [picture], digits.classifier())[0]
    assert len(got.text) == 2 and got.even == pytest.approx(20 / 60)
    picture[10:30, 60:64], picture[10:70, 60:64] = 255, 0
    assert digits.read(cv2, np, [picture], digits.classifier())[0].even == 1.0


def test_a_1_or_a_0_whose_top_runs_into_dark_print_is_left_to_type():
    """What the print hides may have been a 7's bar or a 6's stem: even both readers sure of a
    1 are not sure of the digit written."""
    under = _shape(hidden=WRITING.hidden_px, touches=WRITING.hidden_px, upright=True, pieces=1, width=20)
    got = _judged(_Box, Written(), under, _reads("1", 0.99), 0.9, _second("1", 1.0))
    assert (got.value, got.why) == (UNREAD, "not sure of writing into the print")
    assert _judged(_Box, Written(), under, _reads("5", 0.99), 0.9).value == "5"
    much = _shape(hidden=WRITING.hidden_much, touches=WRITING.hidden_much, pieces=1, width=20)
    assert _judged(_Box, Written(), much, _reads("5", 0.99), 0.9).value == UNREAD  # (a 3's top under it: 5)
    clear = _shape(upright=True, pieces=1, width=8)
    assert _judged(_Box, Written(), clear, _reads("1", 0.5), 0.9).value == "1"  # (one upright stroke: a 1)
    # (the recogniser unsure of it, reading it otherwise after the primer: the classifier's 1)
    assert _judged(_Box, Written(), clear, _reads("1", 0.0), 0.9).value == UNREAD
    assert _judged(_Box, Written(), clear, _reads("1", 0.0), 0.9, _second("1", GLYPHS.sure)).value == "1"
    assert _judged(_Box, Written(), under, _reads("1", 0.0), 0.9, _second("1", 1.0)).value == UNREAD


def test_a_stroke_across_the_border_is_not_taken_for_a_1_by_its_shape_alone():
    """A neighbour's stroke poking into an empty box is one upright stroke too, but short: a 1
    written across the border is as tall as a digit written in the box."""
    tip = _shape(across=True, upright=True, pieces=1, width=4, height=14)
    got = _judged(_Box, Written(), tip, _reads("1", 0.95), 0.9)
    assert (got.value, got.why) == (UNREAD, "not sure of writing across the border")
    one = _shape(across=True, upright=True, pieces=1, width=8, height=60)
    assert _judged(_Box, Written(), one, _reads("1", 0.95), 0.9).value == "1"


def test_the_classifier_all_but_certain_keeps_a_number_the_recogniser_read_alike_less_sure():
    """The classifier `GLYPHS.surest` sure: the recogniser's reading alike is kept from
    `NUMBERS.agreed_least`; the classifier less sure, the recogniser needs `agreed_sure`."""
    certain = _judged(_Box, Written(), _shape(), _reads("8", 0.45), 0.9, _second("8", 0.99))
    assert (certain.value, certain.why) == ("8", "")
    fairly = _judged(_Box, Written(), _shape(), _reads("8", 0.45), 0.9, _second("8", 0.9))
    assert (fairly.value, fairly.why) == (UNREAD, "not sure")
    least = _judged(_Box, Written(), _shape(), _reads("8", 0.3), 0.9, _second("8", 0.99))
    assert least.value == UNREAD
    over = _judged(_Box, Written(), _shape(captioned=True), _reads("7", 0.45), 0.9, _second("7", 0.99))
    assert over.value == UNREAD  # (over a caption: part of the writing may be hidden from both, a 2's base)


def test_a_faint_trace_before_a_number_leaves_it_to_type():
    """A light pencil's minus, or a 1, may leave only a faint trace (or a speck) before the
    digits read: a number with such a trace before it, level with its middle
    (`WRITING.faint_before`), is left to type; a trace elsewhere (a pencil's grain round its
    strokes) or too small leaves it kept, as does a minus read."""
    trace = _shape(faint=40, faint_before=40)  # (px: 0.6 mm² at 8 px a mm)
    got = _judged(_Box, Written(None, None), trace, _reads("3", 0.99), 0.9)
    assert (got.value, got.why) == (UNREAD, "a trace before it too faint to read (a minus, a digit?)")
    assert _judged(_Box, Written(), trace, _reads("2", 0.99), 0.9).value == UNREAD  # (a 12, its 1 too faint)
    assert _judged(_Box, Written(), _shape(faint=40, faint_before=10), _reads("3", 0.99), 0.9).value == "3"
    assert _judged(_Box, Written(), _shape(faint=40), _reads("3", 0.99), 0.9).value == "3"  # (not before it)


def test_a_minus_one_reader_sees_and_the_other_does_not_leaves_the_number_to_type():
    """A short stroke before a 1 that the recogniser passes over, the classifier reads as a
    minus: in a box whose number may be negative, the number is left to type."""
    minus_one = digits.DigitReads("-1", (None, _second("1", 0.99).probs[0]))
    got = _judged(_Box, Written(None, None), _shape(), _reads("1", 0.99), 0.9, minus_one)
    assert (got.value, got.why) == (UNREAD, "a minus or none: the readers differ")
    assert _judged(_Box, Written(None, None), _shape(), _reads("-1", 0.99), 0.9, _second("1", 0.99)).value == UNREAD
    assert _judged(_Box, Written(None, None), _shape(width=80), _reads("-1", 0.99), 0.9, minus_one).value == "-1"


def test_a_number_kept_says_whether_all_of_its_writing_is_within_its_box():
    """A number kept in its box is seen whole; one written across the border (kept, all but
    certain) may have lost a stroke under the print (`NumberRead.within`)."""
    assert _judged(_Box, Written(), _shape(), _reads("12", 0.99), 0.9).within is True
    across = _judged(_Box, Written(), _shape(across=True), _reads("12", 0.9995), 0.9)
    assert (across.value, across.within) == ("12", False)
