"""Where the placed elements sit: inside the sheet, inside their frames, over nothing else,
and clear of the scan marks' places on a scannable layout. Each problem is located by
sheetgen.layout.blame (geometry_problem).
"""

from __future__ import annotations

from sheetgen.errors import Problem
from sheetgen.layout import elements as E
from sheetgen.layout import scanmarks
from sheetgen.layout.blame import geometry_problem
from sheetgen.layout.place import Placement

MAX_OVERLAPS = 20  # overlap errors reported per page, the rest counted


def fmt(v: float) -> str:
    """A length or a size in a message: one decimal at most (12.5, 8)."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def check_places(
    pages: list, width: float, height: float, placement: Placement, root: str, scan_marks: bool
) -> tuple[list, set]:
    """The problems of where the placed elements of `pages` sit on a `width` x `height` sheet,
    each at the key that caused it (`root`: the layout's own file), and the ids of the
    elements that left a full page (that page's house note is not looked for: the page's
    problem says more). A scannable layout keeps the scan marks' places free too."""
    problems, full = [], {}
    for page in pages:
        got, page_full = _page_problems(page, width, height, placement, root)
        problems += got
        full.update(page_full)
    if scan_marks:
        for eid, problem, says_full in _scan_room(pages, width, height, placement, root):
            if says_full and eid in full:  # it says the same, with the mark
                problems.remove(full[eid])
            problems.append(problem)
            if says_full:
                full[eid] = problem
    return problems, set(full)


def _page_problems(page: dict, width: float, height: float, placement: Placement, root: str) -> tuple[list, dict]:
    """Every element of the page inside the sheet and inside its frame, and no overlaps:
    (the problems, {id: the problem of an element that left the page because it is full})."""
    els = page["elements"]
    by_id = {el["id"]: el for el in els}
    problems, full = [], {}

    def blame(el, message):
        return geometry_problem(el, message, by_id, placement, root)

    for el, message, says_full in _off_the_sheet(els, width, height):
        problems.append(blame(el, message))
        if says_full:  # the page is full: its house note is not looked for; a scan mark may say more
            full[el["id"]] = problems[-1]
    problems += [blame(el, message) for el, message in _out_of_frames(els)]
    reported, overlaps = _overlaps(els)
    problems += [blame(el, message) for el, message in reported]
    if overlaps > MAX_OVERLAPS:
        file = getattr(els[0]["_node"], "file", "<layout>")
        problems.append(f"{file}: ... and {overlaps - MAX_OVERLAPS:,} more overlaps on page '{page['id']}'")
    return problems, full


def _off_the_sheet(els: list, width: float, height: float) -> list[tuple[dict, str, bool]]:
    """(element, message, whether it says the page is full) of each element outside the sheet;
    an element in a frame already reported outside is not reported again."""
    out = []
    outside: set = set()
    for el in els:
        if el["x"] < -0.01 or el["y"] < -0.01 or el["x"] + el["w"] > width + 0.01 or el["y"] + el["h"] > height + 0.01:
            outside.add(el["id"])
            if el.get("in") in outside:
                continue
            full = _full(el, width, height)
            message = (
                f"outside the printable area: spans x {fmt(el['x'])}-{fmt(el['x'] + el['w'])}mm, "
                f"y {fmt(el['y'])}-{fmt(el['y'] + el['h'])}mm; the sheet is "
                f"{fmt(width)} x {fmt(height)}mm{full}"
            )
            out.append((el, message, bool(full)))
    return out


def _out_of_frames(els: list) -> list[tuple[dict, str]]:
    """(element, message) of each element that sticks out of the frame it is in."""
    frames = {el["id"]: el for el in els if E.TYPES[el["type"]].container}
    out = []
    for el in els:
        frame = frames.get(el.get("in"))
        if frame is not None and not _inside(el, frame):
            out.append(
                (
                    el,
                    f"sticks out of frame '{frame['id']}': spans x {fmt(el['x'])}-{fmt(el['x'] + el['w'])}mm, "
                    f"y {fmt(el['y'])}-{fmt(el['y'] + el['h'])}mm; the frame spans x {fmt(frame['x'])}-"
                    f"{fmt(frame['x'] + frame['w'])}mm, y {fmt(frame['y'])}-{fmt(frame['y'] + frame['h'])}mm",
                )
            )
    return out


def _overlaps(els: list) -> tuple[list[tuple[dict, str]], int]:
    """(element, message) of the overlaps reported (a frame's title covered, or two elements
    over each other: the first MAX_OVERLAPS), and how many of the second kind there are."""
    out, overlaps = [], 0
    for i, j in _overlapping_pairs(els):
        a, b = els[i], els[j]
        fa, fb = E.TYPES[a["type"]].container, E.TYPES[b["type"]].container
        if fa or fb:
            frame, other = (a, b) if fa else (b, a)
            if other.get("in") == frame["id"] and not _inside(other, frame):
                continue  # reported as sticking out
            if _inside(other, frame):
                head = dict(frame, h=frame["header"]) if frame.get("title") else None
                if head is None or not _overlap(other, head):
                    continue
                out.append((other, f"overlaps the title of frame '{frame['id']}'"))
                continue
            if fa and fb and _inside(frame, other):
                continue
        overlaps += 1
        if overlaps <= MAX_OVERLAPS:
            out.append((b, f"overlaps '{a['id']}'"))
    return out, overlaps


def _scan_room(
    pages: list, width: float, height: float, placement: Placement, root: str
) -> list[tuple[str, Problem, bool]]:
    """A scannable layout keeps the corners and the QR code's place free (scanmarks.reserved):
    (element id, problem, whether it says the page is full) of each element in the way, once
    per element and not again for what sits in it."""
    out = []
    for page in pages:
        by_id = {el["id"]: el for el in page["elements"]}
        reported: set = set()
        for what, x, y, w, h in scanmarks.reserved(width, height):
            area = {"x": x, "y": y, "w": w, "h": h}
            for el in page["elements"]:
                if _overlap(el, area) and el["id"] not in reported and el.get("in") not in reported:
                    reported.add(el["id"])
                    # a zone pushed down (or right) onto a mark: the page is full above it
                    full = _full(el, x if x > el["x"] else width, y if y > el["y"] else height)
                    message = (
                        f"overlaps the {what} (x {fmt(x)}-{fmt(x + w)}mm, y {fmt(y)}-{fmt(y + h)}mm), "
                        f"which `scan_marks: true` keeps free{full}"
                    )
                    out.append((el["id"], geometry_problem(el, message, by_id, placement, root), bool(full)))
    return out


def _full(el: dict, width: float, height: float) -> str:
    """Why an element that follows another (below:, right_of:) left the sheet: the page is full."""
    over_y, over_x = el["y"] + el["h"] - height, el["x"] + el["w"] - width
    if el.get("below") and over_y > 0.01:
        return f"; the page is full: what is above '{el['id']}' is {fmt(over_y)}mm too tall"
    if el.get("right_of") and over_x > 0.01:
        return f"; the page is full: what is left of '{el['id']}' is {fmt(over_x)}mm too wide"
    return ""


def _overlap(a, b) -> bool:
    eps = 0.01
    return (
        a["x"] < b["x"] + b["w"] - eps
        and b["x"] < a["x"] + a["w"] - eps
        and a["y"] < b["y"] + b["h"] - eps
        and b["y"] < a["y"] + a["h"] - eps
    )


def _inside(inner, outer) -> bool:
    eps = 0.01
    return (
        inner["x"] >= outer["x"] - eps
        and inner["y"] >= outer["y"] - eps
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + eps
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + eps
    )


def _overlapping_pairs(els: list) -> list[tuple[int, int]]:
    """Index pairs (i < j, in that order) of elements whose rectangles overlap: a sweep
    over x (sorted by left edge), so that apart pages cost n log n, not n squared."""
    order = sorted(range(len(els)), key=lambda n: els[n]["x"])
    pairs = []
    for pos, i in enumerate(order):
        right = els[i]["x"] + els[i]["w"]
        for j in order[pos + 1 :]:
            if els[j]["x"] >= right:
                break
            if _overlap(els[i], els[j]):
                pairs.append((min(i, j), max(i, j)))
    return sorted(pairs)
