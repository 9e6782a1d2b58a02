"""Whether the ink in a box fits a number read of it: as wide as its digits written there
(`ink_fits`), closing the loops they close (`loops_fit`). Each says why not, "" when it fits;
sheetgen.scan.written leaves a number that does not fit to type."""

from __future__ import annotations

from sheetgen.scan.tuning import DIGITS


def ink_fits(text: str, size, signed: bool = False) -> str:
    """Why the ink is not as wide as `text` written in it (its height, width and pieces):
    each digit between `DIGITS.narrow` ('1': `DIGITS.one_narrow`) and `DIGITS.wide` of its
    height wide; a lone 1 no wider than `DIGITS.one_signed` where a minus may be written
    before it (`signed`: a minus joined to a 1 reads 1, however sure)."""
    h, w, pieces = size.height, size.width, size.pieces
    if signed and text == "1" and w > DIGITS.one_signed * h:
        return "a 1 as wide as a minus joined to it"
    digits = text.lstrip("-")
    narrow = sum(DIGITS.one_narrow if d == "1" else DIGITS.narrow for d in digits) * h
    wide = (len(digits) * DIGITS.wide + (1 if text.startswith("-") else 0)) * h
    if w < narrow:
        return f"ink narrower than {len(digits)} digits"
    if w > wide:
        return f"ink wider than {len(digits)} digit{'s' if len(digits) > 1 else ''}"
    if pieces > DIGITS.pieces * len(text):
        return "more pieces of ink than digits"
    return ""


def loops_fit(text: str, loops: list[float], agreed: bool = False, closed: list | tuple = ()) -> str:
    """Why the writing's loops are not those of `text`'s digits ("" when they are): a 0, 6
    or 9 closes one loop, an 8 two, a 2 or a 4 none or one, the others none; a lone 0's
    loop has as much ink above it as below (a 6, a 9 leave one at an end), and is most of
    its height (an 8 whose loop the print hides). Two readers `agreed` on it stand for the
    loops, but a lone 0's closed and even (a 6 whose stem is short, or open at its top,
    reads 0 to both). A lone 0 with no loop may close it where its stroke breaks (`closed`:
    the loops with such breaks closed, `inked.Shape.closed`)."""
    if agreed and text != "0":
        return ""
    if text == "0" and not loops:
        loops = closed
    least = sum(LOOPS.get(d, (0, 0))[0] for d in text)
    most = sum(LOOPS.get(d, (0, 0))[1] for d in text)
    if not least <= len(loops) <= most:
        return f"{len(loops)} loop{'s' if len(loops) != 1 else ''} in the ink"
    if text == "0" and (
        abs(loops[0][1] - loops[0][2]) > DIGITS.zero_even
        or not agreed
        and (loops[0][0] < DIGITS.zero_loop or loops[0][3] < DIGITS.zero_waist)
    ):
        return "a loop not a 0's"
    return ""


LOOPS = {"0": (1, 1), "6": (1, 1), "8": (2, 2), "9": (1, 1), "2": (0, 1), "4": (0, 1)}  # loops a digit closes
