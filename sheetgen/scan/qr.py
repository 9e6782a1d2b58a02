"""The sheet's QR code (layout id, page, players, language, the resolved layout's short hash),
read where the markers put it, module by module when no decoder reads it; the layout it names
(a built-in one, or the `--layout` given, never a path from the photo); and which page of that
layout the photo shows.
"""

from __future__ import annotations

import itertools

from sheetgen.errors import RecordError
from sheetgen.layout import scanmarks
from sheetgen.scan.blank import PPMM, blank_page
from sheetgen.scan.markers import Unreadable, better_match, homography, thumbnail, warp
from sheetgen.scan.photos import Photo, need_cv
from sheetgen.scan.tuning import BY_PRINT, MARKERS, QR


def read_qr(photo: Photo, markers: dict) -> dict:
    """The QR code's fields, read on its corner of the page mapped at 16 px a mm with the
    usual sheet size (the code sits next to a marker, so the exact size does not matter).
    When OpenCV cannot find it (blurred, small), it is decoded where the markers say its
    corners are, sharpened."""
    cv2, np = need_cv()
    w, h = MARKERS.sheet_width, MARKERS.sheet_height
    x, y, size = scanmarks.qr_spot(w)
    pad = 4.0
    detector = cv2.QRCodeDetector()
    crops = []
    for ppmm in (16.0, 10.0, 24.0):
        zoom = ppmm / PPMM
        shift = np.array([[zoom, 0, -(x - pad) * ppmm], [0, zoom, -(y - pad) * ppmm], [0, 0, 1]])
        side = round((size + 2 * pad) * ppmm)
        m = shift @ homography(markers, w, h)
        crop = cv2.warpPerspective(photo.rgb, m, (side, side), flags=cv2.INTER_CUBIC, borderValue=(255, 255, 255))
        gray = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
        crops.append((ppmm, gray))
        otsu = cv2.threshold(cv2.GaussianBlur(gray, (0, 0), 1.0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]
        for img in (gray, otsu):
            text = detector.detectAndDecode(img)[0]
            if text:
                return _qr_fields(photo, text)
    for ppmm, gray in crops:
        sharp = cv2.addWeighted(gray, 2.0, cv2.GaussianBlur(gray, (0, 0), 0.4 * ppmm), -1.0, 0)
        for modules in QR.modules:  # the code is drawn `modules` + 2 cells wide (sheetgen.render.pdf)
            cell = size / (modules + 2)
            a, b = (pad + cell) * ppmm, (pad + size - cell) * ppmm
            corners = np.float32([[a, a], [b, a], [b, b], [a, b]]).reshape(1, 4, 2)
            for img in (sharp, gray):
                text = detector.decode(img, corners)[0]
                if text:
                    return _qr_fields(photo, text)
    for ppmm, gray in crops:
        text = _qr_grid(cv2, np, detector, gray, ppmm, pad, size)
        if text:
            return _qr_fields(photo, text)
    raise Unreadable(f"{photo.name}: the sheet's QR code cannot be read (blurred, in shadow or too small)")


def _qr_grid(cv2, np, detector, gray, ppmm: float, pad: float, size: float) -> str:
    """The text of a QR code too blurred for OpenCV's own decoder (a shaken phone smears
    its modules into each other), read module by module: the code's three finder
    patterns are looked for within `QrCode.reach` of where the page puts them (the code is
    `modules` + 2 cells wide, of `QrCode.modules`); they give the grid, each module is dark
    when darker than the mean of the modules around it and of the whole code, and the
    modules read are drawn again as a clean code for the decoder (whose error correction
    mends a few wrong ones). '' when nothing decodes."""
    g = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
    lightly = cv2.GaussianBlur(gray, (0, 0), 0.5).astype(np.float32)
    reach = QR.reach * ppmm
    for modules in QR.modules:
        cell = size / (modules + 2) * ppmm
        res = cv2.matchTemplate(g, _finder(cv2, np, cell), cv2.TM_CCOEFF_NORMED)
        found = []
        for mx, my in ((0, 0), (modules - 7, 0), (0, modules - 7)):
            # the finder with its white separator: its top-left corner where the page puts it
            ex, ey = pad * ppmm + mx * cell, pad * ppmm + my * cell
            x0, y0 = max(0, round(ex - reach)), max(0, round(ey - reach))
            window = res[y0 : round(ey + reach) + 1, x0 : round(ex + reach) + 1]
            if window.size == 0:
                break
            _, peak, _, (px, py) = cv2.minMaxLoc(window)
            if peak < QR.finder:
                break
            found.append((x0 + px + 4.5 * cell, y0 + py + 4.5 * cell))
        if len(found) < 3:
            continue
        # the finders' centres, in modules from the code's edge (its one-module margin included)
        where = np.float32([[4.5, 4.5], [modules - 2.5, 4.5], [4.5, modules - 2.5]])
        a = cv2.getAffineTransform(where, np.float32(found))
        mx, my = np.meshgrid(*(np.arange(modules, dtype=np.float32) + 1.5,) * 2)
        xs = (a[0, 0] * mx + a[0, 1] * my + a[0, 2]).astype(np.float32)
        ys = (a[1, 0] * mx + a[1, 1] * my + a[1, 2]).astype(np.float32)
        for sharp, k in itertools.product((g, lightly), (3, 7)):
            # each module against the modules around: the next ones (which undoes some of the
            # blur), or more; on the page smoothed, or hardly
            seen = cv2.remap(sharp, xs, ys, cv2.INTER_LINEAR)
            around = cv2.blur(seen, (k, k), borderType=cv2.BORDER_REFLECT)
            clean = np.full((modules + 8, modules + 8), 255, np.uint8)
            clean[4:-4, 4:-4][seen < (around + seen.mean()) / 2] = 0
            text = detector.detectAndDecode(cv2.resize(clean, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST))[0]
            if text:
                return text
    return ""


def _finder(cv2, np, cell: float):
    """A QR finder pattern with its white separator (9 x 9 modules), `cell` px a module."""
    m = np.ones((9, 9), np.float32)
    m[1:8, 1:8], m[2:7, 2:7], m[3:6, 3:6] = 0, 1, 0
    return cv2.resize(m * 255, (round(9 * cell), round(9 * cell)), interpolation=cv2.INTER_AREA)


def _qr_fields(photo: Photo, text: str) -> dict:
    fields = scanmarks.parse_payload(text)
    if fields is None:
        raise RecordError(
            f"{photo.name}: the QR code is not one sheetgen prints "
            "(or one an older version printed: print the sheet again)"
        )
    return fields


def _blank_thumbnail(cv2, np, layout, page_id: str, lang: str, players: int, grey: bool):
    """The `thumbnail` of a blank page, kept in the user cache (sheetgen.cache): comparing
    a photo with every page the print could be needs a render of each, otherwise."""
    from sheetgen import cache

    k = cache.key("blank-thumbnail", layout.digest, page_id, lang, players, grey, cache.code_stamp())
    got = cache.get("thumbnail", k)
    if isinstance(got, tuple) and len(got) == 2:
        (h, w), data = got
        if len(data) == h * w * 4:
            return np.frombuffer(data, np.float32).reshape(h, w)
    made = thumbnail(cv2, np, blank_page(layout, page_id, players, lang, grey)[1])
    cache.put("thumbnail", k, (made.shape, made.tobytes()))
    return made


class _ByPrint:
    """A photo compared with the blank pages it could be (the built-in layouts, or the one
    given), small and smoothed (normalised cross-correlation), each printed in colour and
    toner-saving (`render --grey`) and taken as it matches best."""

    def __init__(self, photo: Photo, markers: dict, layout_ref: str | None):
        from sheetgen.games import load_layout
        from sheetgen.layout.resolve import builtin_ids

        self.cv2, self.np = need_cv()
        self.photo, self.markers = photo, markers
        if layout_ref is None:
            self.layouts = [lay for lay in map(load_layout, builtin_ids()) if lay.scan_marks]
        else:
            self.layouts = [load_layout(layout_ref)]
        self.seen, self.blanks = {}, {}  # the photo mapped for each layout size, the blank pages

    def blank(self, layout, page_id: str, lang: str, players: int, grey: bool = False):
        key = (layout.id, page_id, lang, players, grey)
        if key not in self.blanks:
            self.blanks[key] = _blank_thumbnail(self.cv2, self.np, layout, page_id, lang, players, grey)
        return self.blanks[key]

    def like(self, layout, page_id: str, lang: str, players: int, grey: bool = False) -> float:
        cv2, np = self.cv2, self.np
        key = (layout.width, layout.height)  # the photo mapped onto a page of that size
        if key not in self.seen:
            h = homography(self.markers, layout.width, layout.height)
            page = warp(self.photo, h, layout.width, layout.height)
            self.seen[key] = thumbnail(cv2, np, cv2.cvtColor(page, cv2.COLOR_RGB2GRAY))
        a, b = self.seen[key], self.blank(layout, page_id, lang, players, grey)
        a, b = a - a.mean(), b - b.mean()
        return float((a * b).sum() / max(float(np.sqrt((a * a).sum() * (b * b).sum())), 1e-9))

    def pages(self) -> list[tuple]:
        """(score, layout, page id, the layout's languages, the language, grey) of every
        page, the best match first (each in English, or its first language, and for its
        usual player count)."""
        out = []
        for layout in self.layouts:
            langs = sorted(layout.title) or ["en"]
            for page in layout.pages:
                lang, players = ("en" if "en" in langs else langs[0]), layout.players["default"]
                score, grey = max((self.like(layout, page.id, lang, players, grey), grey) for grey in (False, True))
                out.append((score, layout, page.id, langs, lang, grey))
        return sorted(out, key=lambda t: -t[0])

    def winner(self) -> tuple | None:
        """The page the print is, when one matches well (`ByPrint.like`) and clearly better than
        every page that matches nearly as well (`ByPrint.close`): a layout's variant matches its
        page almost as well (the advanced Harvest Dice sheet the normal one's, better at times
        when the photo is off by a millimetre), so those are told apart where their print
        differs (`better_match`: the page taken beats each of them by `ByPrint.apart`). None
        otherwise."""
        pages = self.pages()
        if pages[0][0] < BY_PRINT.like:
            return None
        near = [t for t in pages if t[0] >= pages[0][0] - BY_PRINT.close]

        def beats(one, other) -> bool:
            (_, la, pa, _, lang_a, grey_a), (_, lb, pb, _, lang_b, grey_b) = one, other
            if (la.width, la.height) != (lb.width, lb.height):
                return one[0] - other[0] >= BY_PRINT.by
            a = self.blank(la, pa, lang_a, la.players["default"], grey_a)
            b = self.blank(lb, pb, lang_b, lb.players["default"], grey_b)
            return better_match(self.cv2, self.np, self.seen[(la.width, la.height)], a, b) >= BY_PRINT.apart

        winners = [t for t in near if all(t is u or beats(t, u) for u in near)]
        return winners[0] if len(winners) == 1 else None


def recognise(photo: Photo, markers: dict, layout_ref: str | None, unread: Unreadable) -> tuple[dict, str]:
    """The QR code's fields for a photo whose code cannot be read (a shaken phone, a
    shadow), from the print itself: the page it clearly is (`_ByPrint.winner`), then its
    language and, for a pad, its player count by the whole page. Else `unread` is raised.
    (the fields, a warning saying what the page was taken for)"""
    by_print = _ByPrint(photo, markers, layout_ref)
    found = by_print.winner()
    if found is None:
        raise unread
    _, layout, page_id, langs, _, grey = found
    players = layout.players["default"]
    lang = max(langs, key=lambda la: by_print.like(layout, page_id, la, players, grey))
    low, high = layout.players["min"], min(layout.players["max"], layout.players["min"] + 11)
    if low < high:
        players = max(range(low, high + 1), key=lambda n: by_print.like(layout, page_id, lang, n, grey))
    fields = {"layout": layout.id, "page": page_id, "players": players, "lang": lang, "digest": layout.digest[:8]}
    count = f", {players} players" if low < high else ""
    toner = ", printed toner-saving" if grey else ""
    note = (
        f"{photo.name}: its QR code cannot be read; by its print it is the '{page_id}' page of "
        f"'{layout.id}' ({lang}{count}{toner}), whose version could not be checked: make sure it is"
    )
    return {**fields, "grey": grey}, note


def check_print(photo: Photo, markers: dict, qr: dict) -> None:
    """Refuse a photo whose print is clearly another page than the one its QR code names
    (a code cut from another sheet and pasted on, or printed over): the QR code is data
    from a picture, the print is what the sheet is. A photo whose print matches no page
    clearly (a hard photo) is read as its code says."""
    from sheetgen.errors import printable

    by_print = _ByPrint(photo, markers, None)
    found = by_print.winner()
    if found is None or (found[1].id, found[2]) == (qr["layout"], qr["page"]):
        return
    raise RecordError(
        f"{photo.name}: its QR code names the '{printable(qr['page'][:40])}' page of "
        f"'{printable(qr['layout'][:60])}', but its print is the '{found[2]}' page of '{found[1].id}': "
        "a QR code from another sheet? print the sheet again"
    )


def sheet_layout(photo: Photo, qr: dict, layout_ref: str | None):
    """The layout a photo was printed from. The QR code is data from a picture: it may
    only name a built-in layout; a variant needs `layout_ref`, whose id and hash must match."""
    from sheetgen.errors import printable
    from sheetgen.games import load_layout
    from sheetgen.layout.resolve import builtin_ids, is_builtin_ref

    shown = printable(qr["layout"][:60])
    if layout_ref is None:
        if not is_builtin_ref(qr["layout"]) or qr["layout"] not in builtin_ids():
            raise RecordError(
                f"{photo.name}: the sheet names the layout '{shown}', which is not a built-in layout; "
                "give --layout with the layout file it was printed from"
            )
        layout = load_layout(qr["layout"])
    else:
        layout = load_layout(layout_ref)
        if layout.id != qr["layout"]:
            raise RecordError(
                f"{photo.name}: the sheet was printed from layout '{shown}', not from '{layout.id}'; "
                "give the --layout it was printed from"
            )
    if layout.digest[:8] != qr["digest"]:
        raise RecordError(
            f"{photo.name}: the sheet was printed from another version of layout '{layout.id}' "
            f"(hash {printable(qr['digest'][:8])}, this one is {layout.digest[:8]}); "
            "give the --layout it was printed from"
        )
    if not any(p.id == qr["page"] for p in layout.pages):
        raise RecordError(f"{photo.name}: layout '{layout.id}' has no page '{printable(qr['page'][:40])}'")
    return layout
