"""Bundled fonts (DejaVu, see fonts/LICENSE-DejaVu.txt) and text fitting.

Nothing depends on fonts installed on the machine. `fit_text` is shared by the
validator (text that cannot fit is an error) and the renderer (which draws
exactly the lines it returns), so both agree on what fits.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

from sheetgen.fileio import data_folder
from sheetgen.values import valueclass

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


# The code points whose metrics a font loads at once: Latin (Basic to Extended-B), general
# punctuation, currency, letterlike symbols, number forms, arrows, mathematical operators,
# geometric shapes. A DejaVu face maps ~5900 code points; these are ~1300 of them, all a
# Latin-script sheet uses. A text with any other character (Greek, Cyrillic, dingbats...)
# first loads the rest of the face (see _Face.cover), so every check and width is exact.
_OUTSIDE_CORE = re.compile("[^\x00-\u024f\u2000-\u22ff\u25a0-\u25ff]")
# A face's per-code-point tables, split into the core and the rest; the rest also holds
# glyphToChar (glyph -> code points), used only by reportlab's text shaping
_PER_CODE = ("charToGlyph", "charWidths")
_NOT_STATE = ("_ttf_data", "_pdfScale")  # the file's bytes (read again), a function of unitsPerEm


def _load_font(name: str, path: Path):
    """A reportlab TTFont of the file at `path`, its face from the cache when there (holding
    the metrics of the core code points, the rest loaded when a text first needs them), else
    parsed (and cached). tests/test_speed.py compares both with reportlab's own."""
    import reportlab

    from sheetgen import cache

    # the file by its path, size and modification time, as Python keys its compiled modules:
    # hashing its content would read and hash 0.7 MB a face
    st = path.stat()
    key = cache.key("font", "core+rest+packed", reportlab.Version, path.resolve(), st.st_size, st.st_mtime_ns)
    face = _face_from_state(cache.get("font", key), path)
    if face is None:  # parsed, and kept for the next process; this one uses the whole face
        from reportlab.pdfbase.ttfonts import TTFontFace

        parsed = TTFontFace(str(path))
        if cache.cache_dir() is not None:
            cache.put("font", key, _face_state(parsed))
        face_class, _ = _classes()
        face = face_class.__new__(face_class)
        vars(face).update(vars(parsed))
    face._key = key
    return _ttfont(name, face)


def _face_state(face) -> dict:
    """A parsed TTFontFace as plain data (marshal-able): its attributes (names as bytes), with
    the per-code-point tables holding the core code points (_OUTSIDE_CORE) and `rest` the
    others (marshalled, so that loading the state does not build them); the per-glyph
    tables (glyph offsets, advance widths and side bearings) packed (see _Packed)."""
    import marshal
    from array import array

    from reportlab.pdfbase.ttfonts import TTFNameBytes

    attrs = {k: v for k, v in vars(face).items() if k not in _NOT_STATE}
    names = sorted(k for k, v in attrs.items() if isinstance(v, TTFNameBytes))
    attrs = {k: bytes(v) if k in names else v for k, v in attrs.items()}
    rest = {"glyphToChar": attrs.pop("glyphToChar")}
    for table in _PER_CODE:
        core, rest[table] = {}, {}
        for code, value in attrs[table].items():
            (rest[table] if _OUTSIDE_CORE.match(chr(code)) else core)[code] = value
        attrs[table] = core
    packed = {}
    for table, width in (("glyphPos", 1), ("hmetrics", 2)):
        flat = attrs[table] if width == 1 else [n for pair in attrs[table] for n in pair]
        if all(type(n) is float or (type(n) is int and abs(n) < 2**53) for n in flat):  # doubles hold them exactly
            floats = [i for i, n in enumerate(flat) if type(n) is float]
            packed[table] = (array("d", flat).tobytes(), floats, width)
            del attrs[table]
    return {"attrs": attrs, "names": names, "rest": marshal.dumps(rest), "packed": packed}


def _is_state(state) -> bool:
    """Whether `state` has the form _face_state gives (an entry of another form, another
    version's or a damaged one, is a cache miss, never a face missing a table)."""
    if not (isinstance(state, dict) and isinstance(state.get("attrs"), dict) and isinstance(state.get("rest"), bytes)):
        return False
    attrs, packed, names = state["attrs"], state.get("packed"), state.get("names", ())
    if not isinstance(names, list | tuple) or not all(isinstance(attrs.get(k), bytes) for k in names):
        return False
    if not isinstance(packed, dict) or not all(
        isinstance(v, tuple)
        and len(v) == 3
        and isinstance(v[0], bytes)
        and len(v[0]) % 8 == 0
        and isinstance(v[1], list)
        and v[2] in (1, 2)
        for v in packed.values()
    ):
        return False
    tables = {"glyphPos": list, "hmetrics": list, **dict.fromkeys(_PER_CODE, dict)}
    return isinstance(attrs.get("unitsPerEm"), int) and all(
        isinstance(attrs.get(k), kind) or k in packed for k, kind in tables.items()
    )


def _face_from_state(state, path: Path):
    """The face that `_face_state` described (None if `state` is not one): a _Face with the
    core code points' metrics, which a text needing more completes."""
    from array import array

    from reportlab.pdfbase.pdfmetrics import TypeFace

    if not _is_state(state):
        return None
    from reportlab.pdfbase.ttfonts import TTFNameBytes

    face_class, _ = _classes()
    face = face_class.__new__(face_class)
    TypeFace.__init__(face, None)
    attrs = dict(state["attrs"])
    for k in state.get("names", ()):
        attrs[k] = TTFNameBytes(attrs[k])
    for table, (flat, floats, width) in state["packed"].items():
        attrs[table] = _Packed(array("d", flat), frozenset(floats), width)
    vars(face).update(attrs)
    face._rest = state["rest"]
    face.filename = str(path)  # its bytes (_ttf_data) are read when a subset is made
    per_em = face.unitsPerEm
    face._pdfScale = (lambda x: x) if per_em == 1000 else (lambda x, k=1000 / per_em: x * k)
    return face


class _Packed:
    """A face's glyph offsets (`width` 1) or hmetrics (`width` 2: advance width and left side
    bearing), one number or pair a glyph, kept packed as doubles (`floats`: the positions
    holding a float, the others are ints): reportlab reads them only by index, for the
    glyphs a PDF embeds, so the thousands of others are never made into objects."""

    __slots__ = ("flat", "floats", "width")

    def __init__(self, flat, floats: frozenset, width: int):
        self.flat, self.floats, self.width = flat, floats, width

    def __len__(self) -> int:
        return len(self.flat) // self.width

    def _number(self, at: int):
        n = self.flat[at]
        return n if at in self.floats else int(n)

    def __getitem__(self, i: int):
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        at = (i % len(self)) * self.width
        return self._number(at) if self.width == 1 else (self._number(at), self._number(at + 1))


@cache
def _classes():
    """(_Face, _Font): reportlab's TTFontFace and TTFont whose per-code-point tables hold the
    core code points until a text needs others (made on first use: reportlab is imported late)."""
    import marshal

    from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

    class _Face(TTFontFace):
        _rest = None  # the marshalled tables of the other code points, until loaded
        _key = None  # the face's user-cache key (its file's path, size and time; reportlab's version)

        def cover(self, text: str) -> None:
            """Load the other code points' metrics if `text` holds one of them."""
            if self._rest is not None and _OUTSIDE_CORE.search(text):
                self.complete()

        def complete(self) -> None:
            rest, self._rest = marshal.loads(self._rest), None
            for table in _PER_CODE:
                getattr(self, table).update(rest[table])
            self.glyphToChar = rest["glyphToChar"]

        def makeSubset(self, subset):  # noqa: N802 (reportlab's name)
            """The font file of a subset (the code points `subset`) that a PDF embeds, kept in
            the user cache: the same sheet's subsets are the same each time."""
            from sheetgen import cache

            key = self._key and cache.key("subset", self._key, ",".join(map(str, subset)))
            made = cache.get("subset", key) if key else None
            if not isinstance(made, bytes):
                made = TTFontFace.makeSubset(self, subset)
                if key:
                    cache.put("subset", key, made)
            return made

        def __getattr__(self, name: str):  # only for an attribute not set
            if name == "glyphToChar" and self._rest is not None:
                self.complete()
                return self.glyphToChar
            if name == "_ttf_data":  # the file, read when a PDF embeds a subset the cache lacks
                self._ttf_data = Path(self.filename).read_bytes()
                return self._ttf_data
            raise AttributeError(name)

    class _Font(TTFont):
        # every text reportlab measures or draws in this font passes one of these two
        def stringWidth(self, text, size, encoding="utf8"):  # noqa: N802 (reportlab's name)
            self.face.cover(text)
            return TTFont.stringWidth(self, text, size, encoding)

        def splitString(self, text, doc, encoding="utf-8"):  # noqa: N802
            self.face.cover(text)
            return TTFont.splitString(self, text, doc, encoding)

    return _Face, _Font


def _ttfont(name: str, face):
    """What TTFont(name, file) builds, given its already parsed face."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding

    _, font_class = _classes()
    ttf = font_class.__new__(font_class)
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
    face = font(name).face
    face.cover(text)
    cmap = face.charToGlyph
    seen = []
    for ch in text:
        if ch not in "\n\t" and ord(ch) not in cmap and ch not in seen:
            seen.append(ch)
    return "".join(seen)


def width(text: str, name: str, size: float) -> float:
    """Width of `text` in points."""
    return font(name).stringWidth(text, size)


@valueclass
class Fitted:
    lines: tuple[str, ...]
    size: float  # font size in pt
    fits: bool

    @property
    def leading(self) -> float:
        return self.size * LEADING


_BREAK = re.compile(r"[ \t\r]+")

# ----------------------------------------------------------------------------- typography

NBSP = "\u00a0"  # no-break space: before a French colon
NNBSP = "\u202f"  # narrow no-break space: before ; ! ? and inside « » in French
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")  # l'été, player's: between two letters
# a French high sign after a word (or a closing bracket, a number, a house mark) and the
# spaces before it; the sign ends a word (a space, a closing sign or the end follows), so
# 10:30 and ±1/⇄ are left alone
_FR_HIGH = re.compile(r"(?<=[^\s(\[«])[ \t\u00a0\u202f]*([:;!?])(?=[\s»)\]]|$)")
_FR_OPEN = re.compile(r"«[ \t\u00a0\u202f]*")
_FR_CLOSE = re.compile(r"[ \t\u00a0\u202f]*»")
# French ordinals: 2e, 8e, 2ème -> 2ᵉ; 2es -> 2ᵉˢ (1er, 1re, 1ers stay as written)
_FR_ORDINAL = re.compile(r"\b(\d+)(?:e|ème|eme)(s?)\b")


def typeset(text: str, lang: str) -> str:
    """`text` as a typesetter sets it in `lang`: typographic apostrophes (l’été, player’s);
    in French also a no-break space before a colon and a narrow one before ; ! ? and inside
    « » (so that no line starts with a colon or a semicolon: wrap never breaks there),
    and ordinals with a superscript e (2ᵉ, 8ᵉ). What it adds the bundled fonts draw."""
    if "'" in text:
        text = _APOSTROPHE.sub("\u2019", text)
    if lang != "fr":
        return text
    if ":" in text or ";" in text or "!" in text or "?" in text:
        text = _FR_HIGH.sub(lambda m: (NBSP if m.group(1) == ":" else NNBSP) + m.group(1), text)
    if "«" in text or "»" in text:
        text = _FR_CLOSE.sub(NNBSP + "»", _FR_OPEN.sub("«" + NNBSP, text))
    return _FR_ORDINAL.sub(lambda m: m.group(1) + "\u1d49" + ("\u02e2" if m.group(2) else ""), text)


# ----------------------------------------------------------------------------- wrapping


SHY = "\u00ad"  # a soft hyphen: where a long word may break, with a hyphen, when it must


def _greedy(words: list[str], name: str, size: float, max_width: float) -> list[str] | None:
    """Words filled into lines at most `max_width` wide, a word with soft hyphens broken at
    one when it does not fit whole (the hyphen printed); None when a part is wider."""
    lines: list[str] = []
    current = ""
    todo = list(reversed(words))
    while todo:
        word = todo.pop()
        plain = word.replace(SHY, "")
        trial = f"{current} {plain}" if current else plain
        if width(trial, name, size) <= max_width:
            current = trial
            continue
        head = _hyphenated(current, word, name, size, max_width)
        if head is not None:  # the word's first part ends this line, the rest starts the next
            lines.append(head[0])
            current = ""
            todo.append(head[1])
        elif not current or width(plain, name, size) > max_width:
            return None
        else:
            lines.append(current)
            current = ""
            todo.append(word)
    lines.append(current)
    return lines


def _hyphenated(current: str, word: str, name: str, size: float, max_width: float) -> tuple[str, str] | None:
    """(this line ending with the longest part of `word` before a soft hyphen that fits, and a
    hyphen; the rest of the word), or None when the word has no soft hyphen or no part fits."""
    cuts = [i for i, ch in enumerate(word) if ch == SHY]
    for i in reversed(cuts):
        part = word[:i].replace(SHY, "") + "-"
        line = f"{current} {part}" if current else part
        if width(line, name, size) <= max_width:
            return line, word[i + 1 :]
    return None


def _no_runt(words: list[str], lines: list[str], name: str, size: float) -> list[str]:
    """`lines` rewrapped narrower so that the last holds two words or more, when that takes
    no more lines (a one-word last line, a runt, reads as a slip); else `lines` as they are."""
    if len(lines) < 2 or " " in lines[-1]:
        return lines
    trial = lines
    for _ in range(4 * len(lines)):
        narrower = max(width(line, name, size) for line in trial[:-1]) - 0.01
        trial = _greedy(words, name, size, narrower)
        if trial is None or len(trial) > len(lines):
            return lines
        if " " in trial[-1]:
            return trial
    return lines


def wrap(text: str, name: str, size: float, max_width: float) -> list[str] | None:
    """Word wrap at spaces, each paragraph's last line holding two words or more where a
    narrower wrap allows it (`_no_runt`); None when a single word is wider than the box.
    No-break spaces (U+00A0, U+202F: French `dé :`, `10 mm`) never break."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = [w for w in _BREAK.split(paragraph) if w]
        got = _greedy(words, name, size, max_width)
        if got is None:
            return None
        lines += _no_runt(words, got, name, size)
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
