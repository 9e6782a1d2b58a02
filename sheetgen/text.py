"""Bundled fonts (DejaVu, see fonts/LICENSE-DejaVu.txt) and text fitting.

Nothing depends on fonts installed on the machine. `fit_text` is shared by the
validator (text that cannot fit is an error) and the renderer (which draws
exactly the lines it returns), so both agree on what fits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from sheetgen.fileio import data_folder

FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}
FONT_NAMES = tuple(FONT_FILES)
MIN_FONT_SIZE = 5.5  # pt: below this a home printer's text is not legible
LEADING = 1.18


def font_dir() -> Path:
    """The bundled fonts (sheetgen.fileio.data_folder)."""
    return data_folder("sheetgen.fonts", "fonts")


@cache
def font(name: str):
    """The registered reportlab TTFont for one of FONT_NAMES (registered once). Parsing a
    DejaVu file costs ~45 ms; its parsed metrics are kept in the user cache (sheetgen.cache),
    keyed by the file's content and reportlab's version, so later processes skip it."""
    from reportlab.pdfbase import pdfmetrics

    ttf = _load_font(f"sheetgen-{name}", font_dir() / FONT_FILES[name])
    pdfmetrics.registerFont(ttf)
    return ttf


def _load_font(name: str, path: Path):
    """A reportlab TTFont of the file at `path`: its face from the cache when there, else parsed
    (and cached). The same object either way (tests/test_text.py compares them)."""
    import reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    from sheetgen import cache

    data = path.read_bytes()
    key = cache.key("font", reportlab.Version, data)
    face = _face_from_state(cache.get("font", key), path, data)
    if face is None:
        ttf = TTFont(name, str(path))
        cache.put("font", key, _face_state(ttf.face))
        return ttf
    return _ttfont(name, face)


_NOT_STATE = ("_ttf_data", "_pdfScale")  # the file's bytes (read again), a function of unitsPerEm


def _face_state(face) -> dict:
    """A parsed TTFontFace as plain data (marshal-able): its attributes, names as bytes."""
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    attrs = {k: v for k, v in vars(face).items() if k not in _NOT_STATE}
    names = sorted(k for k, v in attrs.items() if isinstance(v, TTFNameBytes))
    return {"attrs": {k: bytes(v) if k in names else v for k, v in attrs.items()}, "names": names}


def _face_from_state(state, path: Path, data: bytes):
    """The TTFontFace that `_face_state` described (None if `state` is not one), as
    TTFontFace(path) would have parsed it."""
    from reportlab.pdfbase.pdfmetrics import TypeFace
    from reportlab.pdfbase.ttfonts import TTFNameBytes, TTFontFace

    if not (isinstance(state, dict) and isinstance(state.get("attrs"), dict) and "unitsPerEm" in state["attrs"]):
        return None
    face = TTFontFace.__new__(TTFontFace)
    TypeFace.__init__(face, None)
    attrs = dict(state["attrs"])
    for k in state.get("names", ()):
        attrs[k] = TTFNameBytes(attrs[k])
    vars(face).update(attrs)
    face.filename = str(path)
    face._ttf_data = data
    per_em = face.unitsPerEm
    face._pdfScale = (lambda x: x) if per_em == 1000 else (lambda x, k=1000 / per_em: x * k)
    return face


def _ttfont(name: str, face):
    """What TTFont(name, file) builds, given its already parsed face."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFont

    ttf = TTFont.__new__(TTFont)
    ttf.fontName = name
    ttf.face = face
    ttf.encoding = TTEncoding()
    ttf.state = WeakKeyDictionary()
    ttf._asciiReadable = rl_config.ttfAsciiReadable
    ttf.shapable = not any(fnmatch(name, glob) for glob in rl_config.unShapedFontGlob)
    return ttf


def font_name(name: str) -> str:
    return font(name).fontName


def missing_glyphs(text: str, name: str = "sans") -> str:
    """The characters of `text` that the font cannot draw (reportlab would draw nothing)."""
    cmap = font(name).face.charToGlyph
    seen = []
    for ch in text:
        if ch not in "\n\t" and ord(ch) not in cmap and ch not in seen:
            seen.append(ch)
    return "".join(seen)


def width(text: str, name: str, size: float) -> float:
    """Width of `text` in points."""
    return font(name).stringWidth(text, size)


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size: float  # font size in pt
    fits: bool

    @property
    def leading(self) -> float:
        return self.size * LEADING


_BREAK = re.compile(r"[ \t\r]+")


def wrap(text: str, name: str, size: float, max_width: float) -> list[str] | None:
    """Greedy word wrap at spaces; None when a single word is wider than the box.
    No-break spaces (U+00A0, U+202F: French `dé :`, `10 mm`) never break."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in _BREAK.split(paragraph):
            if not word:
                continue
            trial = f"{current} {word}" if current else word
            if width(trial, name, size) <= max_width:
                current = trial
            elif not current or width(word, name, size) > max_width:
                return None
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


@lru_cache(maxsize=4096)
def fit_text(
    text: str,
    name: str,
    size: float,
    max_width: float,
    max_height: float,
    wrap_lines: bool = True,
    min_size: float = MIN_FONT_SIZE,
) -> Fitted:
    """Lines and size (the given size, shrunk in 0.25 pt steps down to `min_size`, at
    least MIN_FONT_SIZE) at which `text` fits in the box (points). `fits` is False if
    even the smallest size overflows; the renderer then still draws the smallest attempt."""
    s = size
    last = Fitted((text,), s, False)
    while s >= max(min_size, MIN_FONT_SIZE) - 1e-9:
        if wrap_lines:
            lines = wrap(text, name, s, max_width)
        else:
            lines = text.split("\n")
            if any(width(line, name, s) > max_width for line in lines):
                lines = None
        if lines is not None:
            last = Fitted(tuple(lines), s, False)
            height = s + (len(lines) - 1) * s * LEADING
            if height <= max_height + 1e-6:
                return Fitted(tuple(lines), s, True)
        s -= 0.25
    return last
