"""Numbers written by hand in a page's boxes: each read sure, read empty, or left to type
(`'?'`), never guessed.

The boxes are those the game says hold numbers (`Game.written`, with the numbers its rules
allow in each). A box's picture is cut from the page as the reader mapped it, the print
taken out (the blank page says where it is: the box's border, a caption such as
"leaves"), and the ink that belongs to the box kept: the strokes whose middle lies in it,
not a neighbour's running over. A box with no ink is empty; one with only faint traces is
left to type. The recogniser (sheetgen.scan.ocr) reads the others, the digit classifier
(sheetgen.scan.digits) too, and a number is kept only when the recogniser is sure of it
(`tuning.NUMBERS.sure`) or both read it alike where all of it is seen (`_judged`), when
the print may not hide part of it, the number is plausible for the box
(digits only, a sign only where the rules allow one, within the rules' bounds, as many
digits as the ink is wide) and agrees with the rest of the sheet (`Game.disagreements`: a
total against its parts...); anything else is `'?'`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from sheetgen.scan import digits
from sheetgen.scan.blank import PPMM, blank_page
from sheetgen.scan.fits import ink_fits, loops_fit
from sheetgen.scan.inked import ink_in, lines_of
from sheetgen.scan.ocr import OTHER
from sheetgen.scan.readers import differ, signs_differ
from sheetgen.scan.tuning import DIGITS, GLYPHS, NUMBERS, WRITING

UNREAD = "?"  # a number left to type (the record's TO_FILL)
HIDDEN = "01"  # digits that another one is, a stroke of it hidden (7 -> 1, 6, 8, 9 -> 0)
# digits that another one is, a straight stroke of it hidden along a printed line (a 7's bar
# leaves a 1, a 2's base a 7, an 8's side a 3, a 6's stem a 0)
ALONG = "0137"


@dataclass(frozen=True)
class NumberRead:
    """One box's number: `value` as the record takes it ("12", "" empty, UNREAD), what
    the recogniser said (`text`, `sure`) and why a number is not kept (`why`)."""

    field: str
    rect: tuple  # x, y, w, h in mm
    value: str
    text: str = ""
    sure: float = 0.0
    why: str = ""
    other: str = ""  # what the digit classifier read of it ("" none)
    # all of its writing within its box: not across its border, into print or over a caption
    within: bool = False


def number_boxes(read) -> list[tuple]:
    """(box, Written) of the page's boxes that hold numbers, in the display's order."""
    from sheetgen.games import game_for

    sheet = read.sheet
    if not sheet:
        return []
    wanted = game_for(read.layout).written(read.layout, sheet["players"])
    display, _ = blank_page(read.layout, read.page_id, sheet["players"], sheet["lang"], sheet["grey"])
    return [(b, wanted[b.field]) for b in display.boxes() if b.kind == "write" and b.field in wanted]


def read_numbers(read, recogniser, sure: float = NUMBERS.sure) -> dict[str, NumberRead]:
    """Every number box of the page (`number_boxes`), read with `recogniser` (None: each
    box with ink in it is UNREAD), a number kept when read at least `sure` (0-1)."""
    from sheetgen.scan.photos import need_cv

    cv2, np = need_cv()
    boxes = number_boxes(read)[: NUMBERS.max_boxes]
    if not boxes:
        return {}
    sheet = read.sheet
    _, blank = blank_page(read.layout, read.page_id, sheet["players"], sheet["lang"], sheet["grey"])
    grey = cv2.cvtColor(read.rectified, cv2.COLOR_RGB2GRAY) if read.rectified.ndim == 3 else read.rectified
    out: dict[str, NumberRead] = {}
    lines, owners = [], []
    for box, allowed in boxes:
        rect = (box.x, box.y, box.w, box.h)
        if max(box.w, box.h) > NUMBERS.max_box:
            out[box.field] = NumberRead(box.field, rect, UNREAD, why="a box too large to read")
            continue
        seen = ink_in(cv2, np, grey, blank, rect)
        if seen is None:
            out[box.field] = NumberRead(box.field, rect, "")
            continue
        if isinstance(seen, str):
            out[box.field] = NumberRead(box.field, rect, UNREAD, why=seen)
            continue
        picture, size = seen
        parts = lines_of(np, picture) if allowed.many else [picture]
        if recogniser is None:
            out[box.field] = NumberRead(box.field, rect, UNREAD, why="no recogniser (the ocr extra)")
            continue
        for part in parts:
            lines.append(part)
            owners.append((box, allowed, size, len(parts)))
    readings = recogniser.read(lines) if lines else []
    # the second reader's digits, of each box holding one number (`digits`)
    second = digits.classifier()
    alone = [k for k, (_, allowed, _, _) in enumerate(owners) if not allowed.many]
    seconds = dict(zip(alone, digits.read(cv2, np, [lines[k] for k in alone], second))) if second else {}
    by_box: dict = {}
    for k, ((box, allowed, size, _count), reading) in enumerate(zip(owners, readings)):
        by_box.setdefault(box.field, (box, allowed, size, [], seconds.get(k)))[3].append(reading)
    for field, (box, allowed, size, got, digit_reads) in by_box.items():
        out[field] = _judged(box, allowed, size, got, sure, digit_reads)
    return out


def _judged(box, allowed, size, readings: list, least: float, second=None) -> NumberRead:
    """A box's number from what the recogniser read of its lines, and the digit classifier
    of the one number a box may hold (`second`: digits.DigitReads, or None): kept only when
    `least` sure and plausible (see the module's doc). The two readers reading the number
    alike, each sure enough (`NUMBERS.agreed_sure`, `GLYPHS.sure`), make it sure where the
    whole of the writing is seen (`inked.Shape`: not across the border, over a caption or
    against dark print); otherwise the recogniser's reading is judged alone."""
    rect = (box.x, box.y, box.w, box.h)
    if not allowed.many:  # (one number: a gap between its digits is no separator)
        readings = [_joined(r) for r in readings]
    text = " / ".join(r.text for r in readings)
    sure = min(r.sure for r in readings)
    # part of the writing may be under the print: up into print too dark to see it over
    # (`inked.Shape.hidden`), a 1 or a 0 may be what the print left of another digit (a 7's
    # bar along the border, a 6's stem under a caption); much of it, any digit may be
    partial = _partial(size, text)
    # (across the border, a stroke of the next box's number poking in is one upright stroke too:
    # a 1 there is as tall as a digit written in the box)
    tall = not size.across or size.height >= DIGITS.one_tall * box.h * PPMM
    stroke = size.upright and tall and size.hidden < WRITING.hidden_px
    taken = False  # (the classifier's digits where the recogniser saw none: their loops counted all the same)
    if text == "1" and sure >= NUMBERS.one_sure and stroke and not partial:
        sure = 1.0  # (the recogniser's 1, and the ink one straight upright stroke: see `inked.upright`)
    elif text in ("", OTHER, "1") and stroke and second is not None and (second.chance("1") or 0.0) >= GLYPHS.sure:
        # (the classifier's 1 of such a stroke, which the recogniser took for an L or a {, or
        # read 1 but for a minus or nothing after the primer)
        text, sure = "1", 1.0
    elif taken := _taken_for_other(text, second, size, partial, " ".join(r.apart for r in readings)) or (
        _primed_alike(readings, second, size)
    ):  # (the classifier's digits where the recogniser saw a letter, or read them after the primer: see there)
        text, sure, partial = second.text, 1.0, _partial(size, second.text)
    chance = second.chance(text) if second is not None else None
    other = second.text if second is not None else ""
    alike = chance is not None and second.text == text and _seen(size, text, partial, sure)
    both = alike and (
        sure >= NUMBERS.agreed_sure
        and chance >= GLYPHS.sure
        or sure >= NUMBERS.agreed_least
        and chance >= GLYPHS.surest
    )
    if both:
        sure = 1.0  # (two readers learnt apart read it alike: its loops need not be counted, a 0's do)
    why = ""
    if sure < least:
        why = "not sure"
    elif size.across and sure < NUMBERS.across_sure:
        why = "not sure of writing across the border"
    elif partial and sure < NUMBERS.across_sure:
        why = "not sure of writing into the print"
    elif size.captioned and "0" in text and sure < NUMBERS.across_sure:  # (an 8 whose loop the caption hides reads 0)
        why = "not sure of a 0 written over the caption"
    elif second is not None and len(text) == len(second.text) > 1 and second.even < GLYPHS.even:
        why = "a digit far shorter than the others (another box's stroke?)"
    elif second is not None and second.bold > GLYPHS.bold:
        why = "a digit far bolder than the others (one scribbled over?)"
    elif why := differ(text, second, certain=sure >= NUMBERS.across_sure):
        pass  # (the two readers learnt apart say otherwise: `readers.differ` says how)
    elif text == "1" and size.faint > WRITING.faint_part * PPMM * PPMM:  # (a light pencil's 2, 4, 7: a stroke left)
        why = "part of it too faint to read"
    elif not allowed.many and size.faint_before > WRITING.faint_before * PPMM * PPMM:
        why = "a trace before it too faint to read (a minus, a digit?)"
    elif signs_differ(text, second, allowed):
        why = "a minus or none: the readers differ"
    elif allowed.many:
        listed = all(_LIST.fullmatch(r.text) for r in readings)
        numbers = [n for r in readings for n in _numbers(r.text)] if listed else None
        why = "not a list of numbers" if numbers is None else _out_of_bounds(numbers, allowed)
        if not why:
            return NumberRead(box.field, rect, ", ".join(map(str, numbers)), text, sure)
    elif not _NUMBER.fullmatch(text):
        why = "not a number"
    elif text.startswith("-") and not allowed.signed:
        why = "a sign where none goes"
    else:
        loops = loops_fit(text.lstrip("-"), size.loops, agreed=both and not taken, closed=size.closed)
        why = _out_of_bounds([int(text)], allowed) or ink_fits(text, size, allowed.signed) or loops
        if not why:
            within = not (size.across or partial or size.captioned)
            return NumberRead(box.field, rect, str(int(text)), text, sure, within=within)
    return NumberRead(box.field, rect, UNREAD, text, sure, why, other)


def _seen(size, text: str, partial: bool, sure: float) -> bool:
    """Whether all of the writing `text` is seen (`size` its `inked.Shape`), as two readers
    agreeing need: both see the same picture. Not run far into the next box, where a stroke
    of that box's may join it (a 0 and the tail of the 7 under it read 9); not over a caption
    or against print too dark to see it over, unless it only runs through a printed line, or
    its top is clear of the print (not `partial`), no digit of it is one another leaves with
    a stroke hidden (a 6's stem under a caption leaves a 0; a lone 0 whose loop is a whole
    0's, `fits.loops_fit`, is none) and the recogniser is `sure` enough on its own
    (`NUMBERS.sure`: one unsure of such writing is a sign that both may be fooled alike, as
    by a struck 8 and the 24 after it, read 824)."""
    if size.outside > WRITING.spill:
        return False
    if not (size.captioned or size.touches >= WRITING.hidden_px and not size.through):
        return True
    if partial or sure < NUMBERS.sure:
        return False
    return not any(d in ALONG for d in text) or text == "0" and not loops_fit(text, size.loops)


def _partial(size, text: str) -> bool:
    """Whether part of the writing `text` may be under the print (`size` its `inked.Shape`)."""
    return size.hidden >= WRITING.hidden_much or (size.hidden >= WRITING.hidden_px and any(d in HIDDEN for d in text))


def _primed_alike(readings: list, second, size) -> bool:
    """Whether the recogniser's two readings of one number differ (`ocr._surer`) and the one
    read after the primer is the classifier's (`second`), each sure enough of it as two
    readers agreeing must be (`NUMBERS.agreed_sure`, `GLYPHS.sure`; the classifier all but
    certain, `GLYPHS.surest`, where the first reading has another digit in its place), all
    of the writing seen (`_seen`) and none under the print: the primer was drawn for such
    digits, a lone 4 or 9 read as a letter without it."""
    if second is None or len(readings) != 1 or not second.text.lstrip("-").isdigit():
        return False
    primed = readings[0]
    chance = second.chance(second.text)
    if primed.apart.replace(" ", "") != second.text or chance is None:
        return False
    partial = _partial(size, second.text)
    seen = not partial and _seen(size, second.text, partial, primed.apart_sure)
    both = primed.apart_sure >= NUMBERS.agreed_sure and chance >= GLYPHS.sure
    # (the recogniser split between two digits in one place, a 2 read 7 after the primer: the
    # classifier must be all but certain of its own)
    split = len(primed.text) == len(second.text)
    split = split and any(a != b and a.isdigit() for a, b in zip(primed.text, second.text))
    return both and seen and (not split or chance >= GLYPHS.surest)


def _taken_for_other(text: str, second, size, partial: bool, apart: str = "") -> bool:
    """Whether the recogniser took a digit for a letter, a sign or an ideograph (OTHER: a 4
    for 中 or A, a 9 for a, an open 0 for C) and the classifier (`second`) is all but certain
    of a digit there (`GLYPHS.surest`), reading every other character alike, all of the writing
    seen (`_seen`) and in its box (not across its border, where the print or a neighbour's
    stroke may make a digit of what is none): the classifier's digits are the number. The
    recogniser's second reading (`apart`, where it said otherwise) sees the same there, or a
    letter (a digit it saw is no letter)."""
    if second is None or OTHER not in text or size.across or len(second.text) != len(text):
        return False
    apart = apart.replace(" ", "")
    if apart and apart not in (second.text, text) and (len(apart) != len(text) or any(a != OTHER for a in apart)):
        return False
    if not second.text.lstrip("-").isdigit() or not _seen(size, second.text, partial, 1.0):
        return False
    return all(
        p is not None and float(p.max()) >= GLYPHS.surest if a == OTHER else a == b
        for a, b, p in zip(text, second.text, second.probs)
    )


def _joined(reading):
    """A reading with its spaces left out (the digits of one number written spread out)."""
    kept = [(c, p) for c, p in zip(reading.text, reading.sures) if c != " "]
    return replace(reading, text="".join(c for c, _ in kept), sures=tuple(p for _, p in kept))


_NUMBER = re.compile(r"-?(0|[1-9][0-9]{0,3})")  # a whole number as written: no leading zero
_LIST = re.compile(r"[-+]?(0|[1-9][0-9]{0,3})(?:(?:[ ,]+[-+]?|[ ,]*[-+])(0|[1-9][0-9]{0,3}))*[ ,]*")
_TERM = re.compile(r"([-+]?)([0-9]+)")


def _numbers(text: str) -> list[int]:
    return [-int(d) if s == "-" else int(d) for s, d in _TERM.findall(text.replace(" ", ""))]


def _out_of_bounds(numbers: list[int], allowed) -> str:
    bad = [n for n in numbers if not allowed.allows(n)]
    return f"{bad[0]} is out of the rules' bounds" if bad else ""


def agreed(read, numbers: dict[str, NumberRead]) -> dict[str, NumberRead]:
    """`numbers` with every number of a group the game finds in disagreement
    (`Game.disagreements`: a total against its parts...) made UNREAD."""
    from sheetgen.games import game_for
    from sheetgen.scan.verdict import UNSURE

    values: dict = {f: v for f, v in read.values.items() if isinstance(v, bool) and read.readings.get(f) != UNSURE}
    for f, n in numbers.items():
        if n.value in ("", UNREAD):
            values[f] = None if n.value == "" else UNREAD
        else:
            values[f] = [int(v) for v in n.value.split(", ")] if ", " in n.value else int(n.value)
    out = dict(numbers)
    game = game_for(read.layout)
    # (the game's bounds of each box: `read_numbers` took the boxes from them)
    allowed = game.written(read.layout, read.sheet["players"]) if read.sheet else {}
    lists = {f for f, w in allowed.items() if w.many}
    for group in game.disagreements(read.layout, values):
        group = _misread(group, lists, out)
        for f in group:  # (an empty box too: a number it holds may be too faint to see)
            if f in out and out[f].value != UNREAD:
                out[f] = replace(out[f], value=UNREAD, why="disagrees with the sheet")
                values[f] = UNREAD
    return _settled(read.layout, game, allowed, values, out)


def _misread(group: tuple, lists: set, numbers: dict[str, NumberRead]) -> tuple:
    """The boxes of a group in disagreement to leave to type: all, but a list of values read
    against one number all of whose writing is within its box (a card's values against their sum) is
    the one misread, far more often (two values run together, a minus lost): the list alone,
    the number kept as where no list is read. Not a number written across its border or
    into the print, where a stroke of it may be hidden (a 7's bar: 1), nor an empty list."""
    many = [f for f in group if f in lists]
    rest = [f for f in group if f not in lists]
    if len(many) != 1 or len(rest) != 1 or rest[0] not in numbers or many[0] not in numbers:
        return group
    read = numbers[many[0]].value not in ("", UNREAD) and numbers[rest[0]].value not in ("", UNREAD)
    return (many[0],) if read and numbers[rest[0]].within else group


def _settled(layout, game, allowed: dict, values: dict, numbers: dict[str, NumberRead]) -> dict[str, NumberRead]:
    """`numbers` with each '?' the sheet settles kept: where the numbers kept round it pin the
    one it must be (a total and all its parts but this one; Bosk's rows against its columns; a
    Glassworks run against the board copy), and the readers read that one in it (`text`, the
    classifier's `other`: each that reads a number at all). Two things apart say the same:
    what the writing looks like, and what the sheet adds up to; a player's slip in adding up
    leaves the box to type, as the number written is not the one the sheet makes. Each box
    kept may settle another (`allowed`: the game's bounds of each box)."""
    out = dict(numbers)
    settling = True
    while settling:
        settling = False
        for f, n in out.items():
            if n.value != UNREAD or f not in allowed or allowed[f].many:
                continue
            # every number a reader read in it alike (one reading a number the other does not
            # leaves it to type: a 6 the classifier reads 0 where a misread total makes 0)
            texts = {int(t) for t in (n.text, n.other) if _NUMBER.fullmatch(t)}
            if len(texts) != 1:
                continue
            number = texts.pop()
            if allowed[f].allows(number) and _pinned(layout, game, values, f, number):
                values[f] = number
                out[f] = replace(n, value=str(number), why="")
                settling = True
    return out


def _pinned(layout, game, values: dict, field: str, number: int) -> bool:
    """Whether the sheet's other numbers, as read, make `field` hold `number` and no other:
    the sheet agrees with it there, and disagrees with `field` for every number near it
    (`NUMBERS.pins`; a bound, as a player's leaves at most, is no pin)."""

    def against(n: int) -> bool:
        return any(field in group for group in game.disagreements(layout, {**values, field: n}))

    return not against(number) and all(against(number + d) for d in NUMBERS.pins)


NUMBER_COLOURS = {"kept": (0, 90, 220), UNREAD: (255, 120, 0), "": (150, 150, 150)}  # RGB on the --check picture


def draw_numbers(cv2, img, numbers: dict[str, NumberRead]) -> None:
    """Each number as read drawn on `img` (the page at PPMM): its box outlined, and in the
    box's top left corner, on a white label, the number kept (blue) or '?' (orange); an
    empty box thinly outlined in grey."""
    for n in numbers.values():
        x, y, w, h = n.rect
        a, b = (round(x * PPMM), round(y * PPMM)), (round((x + w) * PPMM), round((y + h) * PPMM))
        colour = NUMBER_COLOURS.get(n.value, NUMBER_COLOURS["kept"])
        cv2.rectangle(img, a, b, colour, 1 if n.value == "" else 2)
        if n.value == "":
            continue
        text = n.value if len(n.value) <= 24 else n.value[:21] + "..."
        scale = 0.45
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        cv2.rectangle(img, (a[0] + 2, a[1] + 2), (a[0] + 6 + tw, a[1] + 6 + th + base), (255, 255, 255), -1)
        cv2.putText(img, text, (a[0] + 4, a[1] + 4 + th), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
