"""A second reader of handwritten numbers, digit by digit, to check the recogniser's reading
(sheetgen.scan.ocr) against: the writing cut into its digits (`pieces`), each drawn as a
small square picture the way the classifier learnt digits (`glyph`), and a small
convolutional network that says which digit each is, or that it is none (`DigitNet`).

The two readers learnt apart: the recogniser is PP-OCR's, trained on printed and written text
lines; the classifier is sheetgen's own, trained on handwritten digits (MNIST's, see
bench/train_digits.py, which makes `digits.npz`). A number both read alike is far less often
wrong than one either reads alone, so it may be kept at a lower certainty of each
(`tuning.NUMBERS.agreed_sure`, `tuning.GLYPHS.sure`); a number they read apart is the
recogniser's alone to be sure of, as without the classifier.

The network runs in NumPy: some 100,000 weights, a few milliseconds for a page's digits.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

from sheetgen.errors import SheetgenError
from sheetgen.scan.tuning import GLYPHS

WEIGHTS = Path(__file__).with_name("digits.npz")
# set by bench/train_digits.py when it writes digits.npz
WEIGHTS_SHA256 = "498add56b9951579a701490ba277a7be9451c6e25a895736a0b556df170d9ac9"
SIDE, FIT = 28, 20  # px: a glyph's square, and the side the digit is scaled to fit in it
NONE = 10  # the class of a piece that is no digit (a stroke, a fragment, two digits run together)


def pieces(cv2, np, picture) -> list:
    """The digits of a line of writing (grey, ink dark on white), left to right: each a mask of
    the picture's size. The ink's pieces (8-connected), specks under `GLYPHS.speck` of the
    writing's height dropped, and pieces one above the other (a 5's flag, a 4 or a 7 in two
    strokes, a pencil's broken stroke) joined when they share `GLYPHS.overlap` of the narrower's
    width."""
    ink = (picture < 128).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n <= 1:
        return []
    tall = stats[1:, cv2.CC_STAT_HEIGHT].max()
    longest = stats[:, [cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT]].max(axis=1)
    kept = [k for k in range(1, n) if longest[k] >= GLYPHS.speck * tall]
    spans = sorted(
        ([stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_LEFT] + stats[k, cv2.CC_STAT_WIDTH], [k]] for k in kept),
        key=lambda s: s[0],
    )
    joined: list = []
    for span in spans:
        if joined:
            last = joined[-1]
            shared = min(last[1], span[1]) - max(last[0], span[0])
            if shared >= GLYPHS.overlap * min(last[1] - last[0], span[1] - span[0]):
                last[1], last[2] = max(last[1], span[1]), last[2] + span[2]
                continue
        joined.append(span)
    return [np.isin(labels, ks) for _, _, ks in joined]


def glyph(cv2, np, mask):
    """A digit's mask as the classifier takes it: its strokes drawn `GLYPHS.stroke` of its
    height thick (a fine pen's thickened, a felt-tip's left), scaled to fit FIT px, set in a
    SIDE px square by its centre of mass, 0 paper to 1 ink (float32)."""
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return np.zeros((SIDE, SIDE), np.float32)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    cut = mask[top:bottom, left:right].astype(np.uint8)
    h, w = cut.shape
    big = max(h, w)
    pad = big // 4 + 2
    cut = np.pad(cut, pad)
    thick = _stroke_width(cv2, np, cut)
    want = GLYPHS.stroke * big
    if thick < want:
        grow = int(round(want - thick)) | 1
        cut = cv2.dilate(cut, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
    ys, xs = np.nonzero(cut)
    cut = cut[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    h, w = cut.shape
    scale = FIT / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(cut, size, interpolation=cv2.INTER_AREA)
    out = np.zeros((SIDE, SIDE), np.float32)
    mass = small.sum()
    cy = (small.sum(axis=1) @ np.arange(small.shape[0])) / mass if mass else small.shape[0] / 2
    cx = (small.sum(axis=0) @ np.arange(small.shape[1])) / mass if mass else small.shape[1] / 2
    y0 = int(np.clip(round(SIDE / 2 - cy), 0, SIDE - small.shape[0]))
    x0 = int(np.clip(round(SIDE / 2 - cx), 0, SIDE - small.shape[1]))
    out[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
    return out


@dataclass(frozen=True)
class DigitReads:
    """What the classifier reads of a number's writing: a character a piece (a digit, '-'
    for a minus, '?' for no digit) and each digit piece's probabilities (None for a minus)."""

    text: str
    probs: tuple
    # the shortest digit's height, a share of the tallest's: a number's digits are written alike
    # (a stroke run down from the box above, read as a 1 beside a 5, is a third of its height)
    even: float = 1.0
    # the boldest digit's stroke, in times the thinnest's: a pen writes a number's digits alike
    # (a digit scribbled over into a blot, beside the one written after it, is twice as bold)
    bold: float = 1.0

    def chance(self, text: str) -> float | None:
        """How likely the classifier finds `text` (its least likely character, 0-1); None when
        its pieces are not `text`'s characters one for one (it cannot tell)."""
        if len(text) != len(self.text) or not text:
            return None
        least = 1.0
        for ch, p in zip(text, self.probs):
            if ch == "-" or p is None:
                least = min(least, 1.0 if ch == "-" and p is None else 0.0)
            elif ch.isdigit():
                least = min(least, float(p[int(ch)]))
            else:
                return None
        return least


def read(cv2, np, pictures: list, net) -> list[DigitReads]:
    """What `net` reads of each picture (one number's writing, grey, ink dark on white)."""
    cut = [pieces(cv2, np, p) for p in pictures]
    heights = [[int(np.ptp(np.flatnonzero(m.any(axis=1)))) + 1 for m in ms] for ms in cut]  # (px, each piece's)
    flat = [[_minus(np, m, max(hs)) for m in ms] for ms, hs in zip(cut, heights)]
    glyphs = [glyph(cv2, np, m) for ms, fs in zip(cut, flat) for m, f in zip(ms, fs) if not f]
    probs = iter(net.probabilities(np.stack(glyphs)) if glyphs else [])
    out = []
    for ms, hs, fs in zip(cut, heights, flat):
        ps = tuple(None if f else next(probs) for f in fs)
        text = "".join("-" if p is None else "?" if p.argmax() == NONE else str(p.argmax()) for p in ps)
        digits = [m for m, f in zip(ms, fs) if not f]
        out.append(DigitReads(text, ps, _even([h for h, f in zip(hs, fs) if not f]), _bold(cv2, np, digits)))
    return out


def _bold(cv2, np, masks: list) -> float:
    """The boldest digit's stroke width, in times the thinnest's (`masks` the digits', not a
    minus's; 1.0 for fewer than two; each as `_stroke_width` measures it)."""
    if len(masks) < 2:
        return 1.0
    widths = [_stroke_width(cv2, np, np.pad(m.astype(np.uint8), 1)) for m in masks]
    return max(widths) / max(min(widths), 1e-6)


def _stroke_width(cv2, np, mask) -> float:
    """How wide a piece of writing's strokes are, px: four times its ink's mean distance to
    the paper (`mask` uint8, with paper all round it)."""
    return 4.0 * float(cv2.distanceTransform(mask, cv2.DIST_L2, 3)[mask > 0].mean())


def _even(heights: list) -> float:
    """The shortest digit's height, a share of the tallest's (`heights` the digits', not a
    minus's; 1.0 for fewer than two)."""
    return min(heights) / max(heights) if len(heights) > 1 else 1.0


def _minus(np, mask, tall: int) -> bool:
    """A piece `GLYPHS.minus` of the writing's height (`tall`) at most, twice as wide as high:
    a minus."""
    ys, xs = np.nonzero(mask)
    h, w = int(np.ptp(ys)) + 1, int(np.ptp(xs)) + 1
    return h <= GLYPHS.minus * tall and w >= 2 * h


def _damaged(why: str) -> SheetgenError:
    return SheetgenError(
        f"{WEIGHTS}: the digit classifier's weights {why}: the install is damaged; reinstall it: "
        "pip install --force-reinstall rollwrite"
    )


class DigitNet:
    """The classifier: three 3x3 convolutions (each ReLU and 2x2 max-pooled), two dense
    layers; 11 classes, the digits and NONE. Weights from `digits.npz`, checked at load."""

    LAYERS = ("c1", "c2", "c3", "d1", "d2")

    def __init__(self, path: Path = WEIGHTS, sha256: str = WEIGHTS_SHA256):
        import numpy as np

        try:
            data = path.read_bytes()
        except OSError as exc:
            raise _damaged(f"cannot be read ({exc.strerror or exc})") from None
        if sha256 and hashlib.sha256(data).hexdigest() != sha256:
            raise _damaged("are not those sheetgen ships (their SHA-256 differs)")
        import io

        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                self.w = {k: npz[k].astype(np.float32) for k in npz.files}
        except Exception as exc:  # noqa: BLE001 - a damaged archive fails in many ways
            raise _damaged(f"do not load ({exc})") from None
        if set(self.w) != {f"{n}.{p}" for n in self.LAYERS for p in ("w", "b")}:
            raise _damaged("lack a layer")

    def probabilities(self, glyphs):
        """Each glyph's probability of each class (N x 11), glyphs N x SIDE x SIDE in 0-1."""
        import numpy as np

        x = np.asarray(glyphs, np.float32)[:, None]
        for name in ("c1", "c2", "c3"):
            x = _pool(np, np.maximum(_conv(np, x, self.w[f"{name}.w"], self.w[f"{name}.b"]), 0.0))
        x = x.reshape(len(x), -1)
        x = np.maximum(x @ self.w["d1.w"].T + self.w["d1.b"], 0.0)
        x = x @ self.w["d2.w"].T + self.w["d2.b"]
        x = np.exp(x - x.max(axis=1, keepdims=True))
        return x / x.sum(axis=1, keepdims=True)


def _conv(np, x, w, b):
    """A 3x3 convolution, padding 1 (x: N x C x H x W; w: K x C x 3 x 3)."""
    n, c, h, wd = x.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.stack([p[:, :, i : i + h, j : j + wd] for i in range(3) for j in range(3)], axis=2)  # N C 9 H W
    cols = cols.reshape(n, c * 9, h * wd)
    out = np.einsum("kc,ncp->nkp", w.reshape(len(w), -1), cols, optimize=True)
    return out.reshape(n, len(w), h, wd) + b[None, :, None, None]


def _pool(np, x):
    n, c, h, w = x.shape
    h2, w2 = h // 2, w // 2
    return x[:, :, : 2 * h2, : 2 * w2].reshape(n, c, h2, 2, w2, 2).max(axis=(3, 5))


@functools.cache
def classifier() -> DigitNet | None:
    """The digit classifier, loaded once (None when its weights are not installed)."""
    return DigitNet() if WEIGHTS.exists() else None
