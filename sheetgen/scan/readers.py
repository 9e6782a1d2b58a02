"""Where the two readers of a number written by hand, the recogniser (sheetgen.scan.ocr) and
the digit classifier (sheetgen.scan.digits), read it apart: a minus one sees and the other
does not, a 5 against a 6, another digit one of them is sure of. Two readers learnt apart
that differ leave the number to type (sheetgen.scan.written)."""

from __future__ import annotations

from sheetgen.scan.digits import NONE
from sheetgen.scan.tuning import GLYPHS


def signs_differ(text: str, second, allowed) -> bool:
    """Whether the classifier (`second`) reads a minus before the number where the recogniser
    reads none, or none where it reads one, in a box whose number may be negative (the
    recogniser may pass over a short stroke before a 1)."""
    if second is None or not second.text or allowed.many or not allowed.signed:
        return False
    return second.text.startswith("-") != text.startswith("-")


def differ(text: str, second, certain: bool) -> str:
    """Why the two readers of one number differ ("" when they do not say otherwise): the
    classifier (`second`) reads a 6 where the recogniser read 5 or the other way round
    (`five_or_six`), no digit where it read one (`no_digit`), or, the recogniser not all but
    `certain`, another digit (`digit_differs`)."""
    if five_or_six(text, second):
        return "a 5 or a 6: the readers differ"
    if no_digit(text, second):
        return "a digit the classifier finds none (one struck out?)"
    if not certain and digit_differs(text, second):
        return "the readers read another digit"
    return ""


def no_digit(text: str, second) -> bool:
    """Whether the classifier (`second`), cutting the writing into as many pieces as `text`
    has characters, finds one of them no digit (`digits.NONE` likelier than any) where the
    recogniser read a digit: a digit struck through, the strike run into it, reads as that
    digit to the recogniser (a struck 7 is a 7 with a bar), and the number written after it
    is read with it (a struck 2 and the 4 after it read 24)."""
    if second is None or len(second.text) != len(text):
        return False
    return any(p is not None and int(p.argmax()) == NONE and a.isdigit() for a, p in zip(text, second.probs))


def digit_differs(text: str, second) -> bool:
    """Whether the classifier (`second`) reads another digit than the recogniser in one place
    (`read_apart`), `GLYPHS.differ` sure of it: the recogniser not all but certain, two
    readers learnt apart that differ leave the number to type (a 4 closed at its top read 9
    by one, 0 by the other)."""
    return any(sure >= GLYPHS.differ for _, _, sure in read_apart(text, second))


def five_or_six(text: str, second) -> bool:
    """Whether the classifier (`second`) reads a 6 where the recogniser read 5, or a 5 where
    it read 6 (`read_apart`), `GLYPHS.five_six` sure: a 6 whose loop is left open at its top
    is a 5 to one reader and not the other, and no other check tells them apart (it closes no
    loop, as a 5)."""
    return any({a, b} == {"5", "6"} and sure >= GLYPHS.five_six for a, b, sure in read_apart(text, second))


def read_apart(text: str, second) -> list:
    """(the recogniser's digit, the classifier's, how sure the classifier is of its own) in
    each place the two read different digits, the classifier (`second`) cutting the writing
    into as many pieces as `text` has characters (none otherwise)."""
    if second is None or len(second.text) != len(text):
        return []
    return [
        (a, b, float(p.max()))
        for a, b, p in zip(text, second.text, second.probs)
        if p is not None and a != b and a.isdigit() and b.isdigit()
    ]
