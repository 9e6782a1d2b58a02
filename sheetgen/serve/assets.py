"""What the pages load besides themselves, all inside the package (no CDN, no build step):
the script and the style sheet (static/), and the sheet's own fonts, the bundled DejaVu
faces that the PDF embeds, subset by fontTools to the characters a Latin-script sheet
uses (some 14 KB a face instead of 700 KB), so that text is set in the same faces, with
the same widths, as on paper."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
FILES = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
# Latin (Basic to Extended-A), general punctuation (dashes, quotes, †, …), the euro,
# arrows, the minus, ≤ ≥, the box-drawing check: what a Latin-script sheet prints; a
# character outside falls back to the browser's own sans-serif (its width kept by the SVG)
RANGES = ((0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x203A), (0x20AC, 0x20AC), (0x2190, 0x2193), (0x2212, 0x2212))
RANGES += ((0x2264, 0x2265),)


@cache
def static_file(name: str) -> bytes:
    return (STATIC / name).read_bytes()


@cache
def font(face: str) -> bytes:
    """The WOFF of a bundled face (sheetgen.text.FONT_FILES), subset to RANGES; kept in the
    user cache (sheetgen.cache), keyed by the file and fontTools' version."""
    import fontTools

    from sheetgen import cache as user_cache
    from sheetgen import text

    path = text.font_dir() / text.FONT_FILES[face]
    st = path.stat()
    key = user_cache.key("woff", fontTools.version, RANGES, path.resolve(), st.st_size, st.st_mtime_ns)
    got = user_cache.get("woff", key)
    if isinstance(got, bytes) and got[:4] == b"wOFF":
        return got
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = []  # no kerning or ligatures: reportlab sets none either
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = ["*"]  # the names, the licence's among them
    options.ignore_missing_glyphs = True
    with TTFont(str(path), lazy=False) as font_file:
        sub = subset.Subsetter(options)
        sub.populate(unicodes=[c for lo, hi in RANGES for c in range(lo, hi + 1)])
        sub.subset(font_file)
        buf = io.BytesIO()
        font_file.flavor = "woff"
        font_file.save(buf)
    data = buf.getvalue()
    user_cache.put("woff", key, data)
    return data
