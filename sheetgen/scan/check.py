"""The `--check` picture: the rectified photo with every box outlined in the colour of its
reading (marked green, empty grey, unsure orange), and each number written by hand as read
beside its box (blue, or an orange '?').
"""

from __future__ import annotations

from sheetgen.scan.blank import PPMM
from sheetgen.scan.photos import need_cv
from sheetgen.scan.reader import PageRead
from sheetgen.scan.verdict import EMPTY, MARKED, UNSURE
from sheetgen.scan.written import draw_numbers

OUTLINE = {MARKED: (0, 160, 0), EMPTY: (150, 150, 150), UNSURE: (255, 120, 0)}


def check_png(read: PageRead) -> bytes:
    """The photo mapped onto the page, every box read outlined in the colour of its
    reading: green marked, grey empty, orange unsure (a garden cell's letter beside it)."""
    cv2, _ = need_cv()
    img = read.rectified.copy()
    for box in read.boxes:
        reading = read.readings[box.field]
        a = (round(box.x * PPMM), round(box.y * PPMM))
        b = (round((box.x + box.w) * PPMM), round((box.y + box.h) * PPMM))
        cv2.rectangle(img, a, b, OUTLINE[reading], 3 if reading != EMPTY else 1)
        value = read.values.get(box.field)
        if isinstance(value, str) and value:
            cv2.putText(img, value, (a[0] + 3, b[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.8, OUTLINE[reading], 2)
    draw_numbers(cv2, img, read.numbers)
    ok, png = cv2.imencode(".png", cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    return png.tobytes()
