"""Scan marks: what lets `sheetgen scan` find a photographed sheet and name its layout.

Four ArUco fiducials (OpenCV's DICT_4X4_50, ids 0-3, clockwise from the top left)
sit in the sheet's corners, drawn as vector squares, and a QR code left of the top
right one says which layout, page and player count the sheet is, with a short hash
of the resolved layout (a stale variant is refused). Positions are millimetres
from the sheet's top-left corner, like the rest of the display list.
"""

from __future__ import annotations

import re

from sheetgen.layout.display import QR, Rect

MARKER = 6.0  # mm: a 4x4 ArUco marker with its black border is 6 x 6 cells of 1 mm
QUIET = 1.5  # mm of white kept around a marker and the QR code
QR_SIZE = 18.0  # mm, its own quiet zone included
QR_PREFIX = "sg1"  # short: the code stays version 3 (29 modules) for ids up to ~28 characters
BLACK = "#000000"
# the last word of the payload of a page printed toner-saving (`render --grey`): its dark
# fills print as light tints, and `sheetgen scan` compares the photo with the grey page
TONER = "g"

# The inner 4x4 bits (1 = white) of DICT_4X4_50 markers 0-3, rows from the top;
# tests/test_scan.py checks them against cv2.aruco.
ARUCO_BITS = (
    ("1011", "0101", "0011", "0010"),
    ("0000", "1111", "1001", "1010"),
    ("0011", "0011", "0010", "1101"),
    ("1001", "1001", "0100", "0110"),
)


def marker_corners(width: float, height: float) -> list[tuple[float, float]]:
    """The top-left corner (mm) of markers 0-3: top left, top right, bottom right, bottom left."""
    return [(0.0, 0.0), (width - MARKER, 0.0), (width - MARKER, height - MARKER), (0.0, height - MARKER)]


def qr_spot(width: float) -> tuple[float, float, float]:
    """(x, y, size) of the QR code: left of the top-right marker."""
    return width - MARKER - QUIET - QR_SIZE, 0.0, QR_SIZE


def reserved(width: float, height: float) -> list[tuple[str, float, float, float, float]]:
    """(what, x, y, w, h) of the areas the marks need, their quiet zone included: no
    element of a scannable layout may overlap them."""
    out = [
        (f"scan marker {n}", x - QUIET * (x > 0), y - QUIET * (y > 0), MARKER + QUIET, MARKER + QUIET)
        for n, (x, y) in enumerate(marker_corners(width, height))
    ]
    x, y, size = qr_spot(width)
    out.append(("scan QR code", x - QUIET, y, size + 2 * QUIET, size + QUIET))
    return out


def payload(layout_id: str, page_id: str, players: int, lang: str, digest: str) -> str:
    """What the QR code says: `sg1 <layout> <page> <players> <lang> <hash>`."""
    return f"{QR_PREFIX} {layout_id} {page_id} {players} {lang} {digest[:8]}"


def toner_saving(data: str) -> str:
    """The payload of a page printed toner-saving (`render --grey`)."""
    return f"{data} {TONER}"


_COUNT = re.compile(r"[0-9]{1,2}")


def parse_payload(text: str) -> dict | None:
    """The fields of a QR payload, or None when the text is not one of ours. `grey`:
    printed toner-saving (see TONER)."""
    parts = text.split()
    grey = len(parts) == 7 and parts[6] == TONER
    # ASCII digits only: `str.isdigit` takes '²' and '١', which int() then refuses or reads
    if len(parts) != 6 + grey or parts[0] != QR_PREFIX or not _COUNT.fullmatch(parts[3]):
        return None
    if not 1 <= int(parts[3]) <= 12:
        return None
    fields = {"layout": parts[1], "page": parts[2], "players": int(parts[3]), "lang": parts[4], "digest": parts[5]}
    return {**fields, "grey": grey}


def marker_prims(n: int, x: float, y: float) -> list:
    """Marker `n` as black squares: the border and the inner cells that are black."""
    cell = MARKER / 6
    out = [Rect(x, y, MARKER, MARKER, stroke=None, fill="#ffffff")]
    out += [
        Rect(x, y, MARKER, cell, stroke=None, fill=BLACK),
        Rect(x, y + 5 * cell, MARKER, cell, stroke=None, fill=BLACK),
        Rect(x, y + cell, cell, 4 * cell, stroke=None, fill=BLACK),
        Rect(x + 5 * cell, y + cell, cell, 4 * cell, stroke=None, fill=BLACK),
    ]
    for r, row in enumerate(ARUCO_BITS[n]):
        for c, bit in enumerate(row):
            if bit == "0":
                # a hair wider than the cell, so neighbouring black cells print as one area
                cx, cy = x + (c + 1) * cell, y + (r + 1) * cell
                out.append(Rect(cx, cy, cell + 0.01, cell + 0.01, stroke=None, fill=BLACK))
    return out


def scan_prims(width: float, height: float, data: str) -> list:
    """The four markers and the QR code of one page."""
    out: list = []
    for n, (x, y) in enumerate(marker_corners(width, height)):
        out += marker_prims(n, x, y)
    qx, qy, size = qr_spot(width)
    out.append(QR(qx, qy, size, data))
    return out
