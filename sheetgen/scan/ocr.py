"""A text recogniser for numbers written by hand, behind one small interface: a
`Recogniser` is given pictures of writing, one line each, and says what each line holds
and how sure it is (`Reading`).

The one sheetgen ships with is PP-OCR's recognition model (PP-OCRv6 small), as the
`rapidocr` package bundles it inside its wheel, run on onnxruntime: the `ocr` extra
(`pip install 'rollwrite[ocr]'`). Only the model file is taken from rapidocr (none of its
code runs, so nothing is ever downloaded); it is checked at load against the hash of the
version pinned. Without the extra, `recogniser()` is None and numbers stay to type.

The model reads some 18,700 characters. The reading is made over the few a number box
may hold (ALPHABET): each time step's probability of a character is the sum over the
model's characters of its shape (a handwritten 0 is the letter O, a 1 is an l or an I, a
minus the ideograph for one), and what the model gives any other character is OTHER, which
no number holds. How sure a reading is: its least sure character's probability, and what a
character seen and then dropped (a step where something other than a gap came close) leaves
to doubt.

The model learnt from lines of text, and a lone handwritten digit is out of its habit (a 4
read as an ideograph, a 9 as an a): each line is read twice, as it is and after an equals
sign drawn before it (`_primer`), after which the model looks for a number. Where the two
readings say the same, the surer of each character counts; where they differ, nothing of
the line is sure (`_surer`).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

from sheetgen.errors import SheetgenError

OTHER = "?"  # a character no number holds (a letter, a mark), in a Reading's text
ALPHABET = "0123456789-+, "  # what a Reading's text holds besides OTHER
# the model's characters of each shape of ALPHABET (full-width forms; letters and ideographs
# a hand writes as a digit or a sign does: O for 0, l and I for 1, 一 for a minus, 十 for a plus)
SHAPES = {
    **{d: d + chr(0xFF10 + int(d)) for d in "0123456789"},
    "0": "0０OoΟο〇○ＯｏD",
    "1": "1１lI|｜Ｉｌǀi",
    "2": "2２Zz乙",
    "5": "5５Ss",
    "6": "6６b",
    "8": "8８B",
    "9": "9９qg",
    "-": "-－—–−一",
    "+": "+＋十",
    ",": ",，;；、",
}

MODEL_PACKAGE, MODEL_FILE = "rapidocr", "models/PP-OCRv6_rec_small.onnx"  # (package, file in it): rapidocr 3.10.0's
MODEL_SHA256 = "6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884"
HEIGHT = 48  # px: the model reads lines this tall (its input: N x 3 x 48 x width)
MAX_WIDTH = 8 * HEIGHT  # px: a line scaled wider is squeezed to this (a number box holds a short line)
BATCH = 16  # lines a run of the model, all of one width
# px: the model reads a line in steps this wide; a line is padded to a whole number of them and
# run with lines of that width only: what it says of a line depends on the padding it sees (a
# struck-out 1 read 4, 0.68 sure beside wider lines, 1.0 beside narrower), never on the others
STEP = 8


class Primer(NamedTuple):
    """The equals sign drawn before each line (`_primer`), in px of the model's HEIGHT."""

    left: int  # the paper before it
    length: int  # its bars' length
    thick: int  # their thickness
    apart: int  # each bar's distance from the middle
    gap: int  # the paper after it, before the line

    @property
    def width(self) -> int:
        return self.left + self.length + self.gap


PRIMER = Primer(left=4, length=14, thick=3, apart=3, gap=10)


@dataclass(frozen=True)
class Reading:
    text: str  # characters of ALPHABET, and OTHER for any other seen; "" when nothing is
    sures: tuple = ()  # 0-1: how sure of each character of `text`
    gap: float = 0.0  # 0-1: the most a gap between characters held of one (a character dropped?)
    apart: str = ""  # what a second reading of the line said, where it differs from `text` (`_surer`)
    apart_sure: float = 0.0  # 0-1: how sure that second reading is of its least sure character

    @property
    def sure(self) -> float:
        """How sure of every character (0 when nothing was read)."""
        return min(min(self.sures), 1.0 - self.gap) if self.sures else 0.0


class Recogniser(Protocol):
    def read(self, lines: list) -> list[Reading]:
        """What each picture says: grey levels (numpy uint8, ink dark on light paper), one
        line of writing each, any size."""
        ...


def model_path() -> Path | None:
    """Where the ocr extra's model file is (None when the extra is not installed)."""
    if importlib.util.find_spec("onnxruntime") is None:
        return None
    spec = importlib.util.find_spec(MODEL_PACKAGE)  # (finding a package runs none of its code)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


@functools.cache
def recogniser() -> Recogniser | None:
    """The recogniser of the `ocr` extra, loaded once; None without the extra. A model
    file missing or damaged in an installed extra is a SheetgenError saying so."""
    path = model_path()
    if path is None:
        return None
    return PPOCR(path)


def _damaged(path: Path, why: str) -> SheetgenError:
    return SheetgenError(
        f"{path}: the number recogniser's model {why}: the ocr extra's install is damaged; "
        "reinstall it: pip install --force-reinstall 'rollwrite[ocr]'"
    )


class PPOCR:
    """PP-OCR's recognition model on onnxruntime, decoded over ALPHABET."""

    def __init__(self, path: Path):
        import numpy as np
        import onnxruntime as ort

        try:
            data = path.read_bytes()
        except OSError as exc:
            raise _damaged(path, f"cannot be read ({exc.strerror or exc})") from None
        if hashlib.sha256(data).hexdigest() != MODEL_SHA256:
            raise _damaged(path, "is not the file rapidocr 3.10.0 ships (its SHA-256 differs)")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1  # (one core: the machine reading a photo may be busy)
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        try:
            self.net = ort.InferenceSession(data, opts, providers=["CPUExecutionProvider"])
            chars = self.net.get_modelmeta().custom_metadata_map["character"].splitlines()
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own kinds for a bad model
            raise _damaged(path, f"does not load ({str(exc).splitlines()[0][:80] if str(exc) else exc})") from None
        self.input = self.net.get_inputs()[0].name
        # the model's classes: 0 the CTC blank, then its characters, then a space
        index = {c: k + 1 for k, c in enumerate(chars)} | {" ": len(chars) + 1}
        self.groups = np.zeros((len(ALPHABET), len(chars) + 2), np.float32)
        for g, a in enumerate(ALPHABET):
            for c in SHAPES.get(a, a):
                if c in index:
                    self.groups[g, index[c]] = 1.0

    def read(self, lines: list) -> list[Reading]:
        import numpy as np

        plain, sign = [_scaled(np, line) for line in lines], _primer(np)
        both = self._run(np, plain + [np.hstack([sign, line]) for line in plain])
        return [_surer(a, _unprimed(b)) for a, b in zip(both[: len(lines)], both[len(lines) :])]

    def _run(self, np, scaled: list) -> list[Reading]:
        """What the model reads of each line (`_scaled`), run on lines of one width at a time."""
        out: list[Reading | None] = [None] * len(scaled)
        by_width: dict[int, list[int]] = {}
        for k, line in enumerate(scaled):
            by_width.setdefault(-(-line.shape[1] // STEP) * STEP, []).append(k)
        for width, ks in sorted(by_width.items()):
            for start in range(0, len(ks), BATCH):
                chunk = ks[start : start + BATCH]
                batch = np.zeros((len(chunk), 3, HEIGHT, width), np.float32)
                for n, k in enumerate(chunk):
                    batch[n, :, :, : scaled[k].shape[1]] = scaled[k][None] / 127.5 - 1.0
                probs = self.net.run(None, {self.input: batch})[0]
                for n, k in enumerate(chunk):
                    steps = -(-scaled[k].shape[1] // (width / probs.shape[1]))  # (the steps the line covers)
                    out[k] = self._decode(np, probs[n, : int(steps)])
        return out  # type: ignore[return-value]

    def _decode(self, np, probs) -> Reading:
        """The best path over blank, ALPHABET and OTHER, repeats collapsed (CTC)."""
        grouped = probs @ self.groups.T  # steps x ALPHABET
        blank = probs[:, 0]
        other = np.clip(1.0 - blank - grouped.sum(axis=1), 0.0, 1.0)
        table = np.concatenate([blank[:, None], grouped, other[:, None]], axis=1)
        best = table.argmax(axis=1)
        space = 1 + ALPHABET.index(" ")
        text, sure, gap, prev = [], [], 0.0, 0
        for t, k in enumerate(best):
            if k in (0, space):  # a gap: how much of a character came close in it
                gap = max(gap, 1.0 - float(blank[t] + table[t, space]))
            if k == 0:
                pass
            elif k == prev:
                sure[-1] = max(sure[-1], float(table[t, k]))
            else:
                text.append(ALPHABET[k - 1] if k <= len(ALPHABET) else OTHER)
                sure.append(float(table[t, k]))
            prev = k
        return Reading("".join(text), tuple(sure), gap)


def _primer(np):
    """An equals sign, as the model sees one before a number: drawn before each line, it
    reads the digits after it as a number (a lone handwritten digit, out of any line, is
    far less often read right: a 4 as an ideograph, a 9 as an a)."""
    sign = np.full((HEIGHT, PRIMER.width), 255.0, np.float32)
    middle, bars = HEIGHT // 2, slice(PRIMER.left, PRIMER.left + PRIMER.length)
    sign[middle - PRIMER.apart - PRIMER.thick : middle - PRIMER.apart, bars] = 0.0
    sign[middle + PRIMER.apart : middle + PRIMER.apart + PRIMER.thick, bars] = 0.0
    return sign


def _unprimed(reading: Reading) -> Reading:
    """The reading of a line with the primer before it (`_primer`) without the primer's: its
    first character, which no number holds (OTHER). The primer read as anything else (a
    minus, a digit) leaves nothing sure of the line."""
    if reading.text[:1] != OTHER:
        return Reading(reading.text, tuple(0.0 for _ in reading.text), reading.gap)
    return Reading(reading.text[1:], reading.sures[1:], reading.gap)


def _surer(plain: Reading, primed: Reading) -> Reading:
    """One reading of a line from its two (read as it is, and after the primer): where they
    say the same (spaces at the ends aside), each character as sure as the surer of the two
    is of it; where they differ, nothing is sure, and what the primed one said is kept
    (`Reading.apart`)."""
    a, b = _trimmed(plain), _trimmed(primed)
    if a.text != b.text:
        return Reading(a.text, tuple(0.0 for _ in a.text), a.gap, b.text, b.sure)
    return Reading(a.text, tuple(max(x, y) for x, y in zip(a.sures, b.sures)), min(a.gap, b.gap))


def _trimmed(reading: Reading) -> Reading:
    """A reading without the spaces it begins or ends with."""
    start = len(reading.text) - len(reading.text.lstrip(" "))
    end = len(reading.text.rstrip(" "))
    return Reading(reading.text[start:end], reading.sures[start:end], reading.gap)


def _scaled(np, line):
    """A line as the model takes it: HEIGHT px tall, its width in proportion (at most
    MAX_WIDTH, at least a quarter of HEIGHT), grey levels as RGB."""
    import cv2

    h, w = line.shape[:2]
    width = int(min(MAX_WIDTH - PRIMER.width, max(HEIGHT // 4, round(w * HEIGHT / max(h, 1)))))
    return cv2.resize(line, (width, HEIGHT), interpolation=cv2.INTER_AREA if h > HEIGHT else cv2.INTER_LINEAR).astype(
        np.float32
    )
