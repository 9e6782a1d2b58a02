"""Whether writing only runs through the dark printed lines it touches (scan/borders.py):
drawn on a line 7 px wide across a small picture."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from sheetgen.scan.borders import runs_through  # noqa: E402


@pytest.mark.parametrize(
    "strokes, through",
    [
        ([((40, 5), (40, 55))], True),  # an upright stroke through the line
        ([((25, 5), (55, 55))], True),  # a slanted one
        ([((20, 5), (20, 55)), ((60, 5), (60, 55))], True),  # two strokes through it
        ([((40, 5), (40, 30))], False),  # a stroke ending in the line
        ([((40, 5), (40, 55)), ((20, 26), (60, 26))], False),  # a base along the line, beside a stroke through it
        ([((20, 31), (60, 31)), ((60, 31), (40, 55))], False),  # a 7's bar in the line, its stem below it
    ],
    ids=["upright", "slanted", "two", "ends-in-it", "along-it", "bar-in-it"],
)
def test_writing_runs_through_a_line_only_when_it_shows_on_both_sides_alike(strokes, through):
    hides = np.zeros((60, 80), bool)
    hides[28:35, :] = True
    ink = np.zeros((60, 80), np.uint8)
    for a, b in strokes:
        cv2.line(ink, a, b, 1, 3)
    assert runs_through(cv2, np, (ink > 0) & ~hides, hides) is through
    # the same across a line drawn down the picture
    assert runs_through(cv2, np, ((ink > 0) & ~hides).T.copy(), hides.T.copy()) is through


def test_writing_touching_dark_print_that_is_no_line_does_not_run_through_it():
    hides = np.zeros((60, 80), bool)
    hides[28:35, 30:40] = True  # (a mark 10 px long: no line)
    ink = np.zeros((60, 80), np.uint8)
    cv2.line(ink, (35, 5), (35, 55), 1, 3)
    assert runs_through(cv2, np, (ink > 0) & ~hides, hides) is False
