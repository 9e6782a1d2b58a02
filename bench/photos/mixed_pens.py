"""Other pens and another camera than those of the pencil generator: the reader's second tuning set.

It shares only the clean page (`pages.blank_paper`) and draws everything else its own way:

- pens, one main pen and style per sheet as a player would, others now and then:
  blue or black ballpoint (thin, dark), felt-tip (thick), HB and very soft light
  pencil (grainy); ticks, crosses, big checks overshooting the box on two sides,
  small crosses, a dot, a short dash, a circle, a filled circle, hatching,
  scribbles, marks off-centre; garden cells in colour pencils of other hues and
  pressures (yellowish orange, pink or dark red, olive or teal green), or a letter
  written in pencil (truth '?'); mistakes erased on empty boxes (a faint smudge:
  must never read marked);
- the photo: a pinhole camera up to 20 degrees off the vertical, any rotation, the
  sheet on a wooden, dark or grey table, gently curled (not flat: the homography of
  the corners is off in the middle), a crease, a soft hand or phone shadow, warm or
  cool white balance, over or under exposure, vignetting, motion or focus blur, a
  phone's sharpening halos, sensor and salt noise, JPEG 40-90; the sheet at an
  effective 100-300 dpi.

`photo(layout, page_id, rng, effects=None)` gives (RGB image, truth, kinds): truth as
`pencil.photo`'s, kinds says what was drawn in each box and (key '_photo') what the
camera did; `effects` keeps only the named camera effects (the tests use it).
"""

from __future__ import annotations

import colorsys
import math

# pens: (colour RGB, width in mm, opacity range, grain 0-1)
PENS = {
    "ballpoint-blue": ((25, 45, 150), (0.25, 0.45), (0.8, 1.0), 0.15),
    "ballpoint-black": ((30, 30, 35), (0.25, 0.45), (0.8, 1.0), 0.15),
    "felt-tip": ((20, 20, 25), (0.8, 1.3), (0.9, 1.0), 0.05),
    "pencil": ((75, 75, 80), (0.35, 0.6), (0.55, 0.85), 0.5),
    "soft-pencil": ((90, 90, 95), (0.4, 0.7), (0.45, 0.6), 0.5),
}
STYLES = {  # tick box marks, and how often a sheet's player uses each as their usual one
    "tick": 5,
    "cross": 5,
    "big-check": 2,
    "small-x": 2,
    "filled-circle": 1,
    "circle": 1,
    "hatch": 1,
    "scribble": 2,
    "slash": 2,
    "off-centre": 1,
    "dash": 1,
    "dot": 0.3,
}
GARDEN_STYLES = {"hatch": 3, "scribble": 3, "filled": 2, "cross": 1}


def colour_pencil(letter: str, rng) -> tuple:
    """An RGB colour pencil of the die's colour: hues and pressures vary between boxes."""
    if letter == "C":  # orange, from reddish to yellowish
        h, s, v = rng.uniform(18, 40), rng.uniform(0.75, 0.95), rng.uniform(0.85, 1.0)
    elif letter == "T":  # red: bright, pinkish or dark
        kind = rng.integers(3)
        h, s, v = [
            (rng.uniform(-4, 5), rng.uniform(0.8, 0.95), rng.uniform(0.8, 0.95)),
            (rng.uniform(340, 352), rng.uniform(0.55, 0.75), rng.uniform(0.85, 0.95)),
            (rng.uniform(-3, 5), rng.uniform(0.8, 0.95), rng.uniform(0.5, 0.65)),
        ][kind]
    else:  # green: grass, olive or teal
        kind = rng.integers(3)
        h, s, v = [
            (rng.uniform(100, 135), rng.uniform(0.6, 0.85), rng.uniform(0.5, 0.75)),
            (rng.uniform(78, 95), rng.uniform(0.55, 0.8), rng.uniform(0.45, 0.65)),
            (rng.uniform(150, 168), rng.uniform(0.6, 0.8), rng.uniform(0.5, 0.7)),
        ][kind]
    return tuple(round(255 * c) for c in colorsys.hsv_to_rgb((h % 360) / 360, s, v))


class Sheet:
    """The paper being drawn on: RGB float image, pixels a mm, the sheet's origin (px)."""

    def __init__(self, np, cv2, img, ppmm: float, origin, rng):
        self.np, self.cv2, self.img, self.ppmm, self.origin, self.rng = np, cv2, img, ppmm, origin, rng

    def px(self, box, fx: float, fy: float):
        return (
            (self.origin[0] + (box.x + fx * box.w) * self.ppmm) * 16,
            (self.origin[1] + (box.y + fy * box.h) * self.ppmm) * 16,
        )

    def ink(self, box, strokes=(), pen: tuple = (), discs=(), rings=(), letter: str | None = None) -> None:
        """Draw polylines (box fractions) and discs/rings ((fx, fy, radius as a box fraction))
        with `pen` = (colour, width mm, opacity, grain), composited like graphite or ink."""
        np, cv2, rng = self.np, self.cv2, self.rng
        colour, width, opacity, grain = pen
        m = max(box.w, box.h) * 0.8
        x0 = max(0, int(self.origin[0] + (box.x - m) * self.ppmm))
        y0 = max(0, int(self.origin[1] + (box.y - m) * self.ppmm))
        x1 = min(self.img.shape[1], int(self.origin[0] + (box.x + box.w + m) * self.ppmm))
        y1 = min(self.img.shape[0], int(self.origin[1] + (box.y + box.h + m) * self.ppmm))
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        shift = np.array([x0 * 16, y0 * 16])
        thick = max(1, round(width * self.ppmm))
        for line in strokes:
            pts = np.array([self.px(box, *p) for p in line]) - shift
            cv2.polylines(mask, [pts.astype(np.int32)], False, 255, thick, cv2.LINE_AA, 4)
        for fx, fy, r in discs:
            c = (np.array(self.px(box, fx, fy)) - shift).astype(int)
            cv2.circle(
                mask, tuple(int(v) for v in c), round(r * min(box.w, box.h) * self.ppmm * 16), 255, -1, cv2.LINE_AA, 4
            )
        for fx, fy, r in rings:
            c = (np.array(self.px(box, fx, fy)) - shift).astype(int)
            axes = (round(r * box.w * self.ppmm * 16), round(r * box.h * self.ppmm * 16 * rng.uniform(0.85, 1.1)))
            cv2.ellipse(
                mask,
                tuple(int(v) for v in c),
                axes,
                rng.uniform(0, 180),
                0,
                rng.uniform(330, 370),
                255,
                thick,
                cv2.LINE_AA,
                4,
            )
        if letter:
            size = min(box.w, box.h) * self.ppmm
            scale = size / 40
            org = self.px(box, rng.uniform(0.2, 0.35), rng.uniform(0.7, 0.85))
            cv2.putText(
                mask,
                letter,
                (int(org[0] / 16 - x0), int(org[1] / 16 - y0)),
                cv2.FONT_HERSHEY_SIMPLEX,
                scale,
                255,
                thick,
                cv2.LINE_AA,
            )
        a = mask.astype(np.float32) / 255 * opacity
        if grain:
            tex = 1 - grain * rng.random(mask.shape, dtype=np.float32)
            a *= cv2.GaussianBlur(tex, (0, 0), 0.6)
        patch = self.img[y0:y1, x0:x1]
        patch *= 1 - a[..., None]
        patch += a[..., None] * np.float32(colour)


def _wobble(rng, pts, amount=0.03):
    """A hand-drawn line: its points jittered, a bend added in the middle."""
    out = [(x + rng.normal(0, amount), y + rng.normal(0, amount)) for x, y in pts]
    if len(out) == 2:
        (ax, ay), (bx, by) = out
        bend = rng.normal(0, 0.05)
        out = [(ax, ay), ((ax + bx) / 2 - bend * (by - ay), (ay + by) / 2 + bend * (bx - ax)), (bx, by)]
    return out


def mark_strokes(style: str, rng) -> dict:
    """The strokes (box fractions) of a mark of `style`: {'strokes': [...], 'discs', 'rings'}."""
    import numpy as np

    u = rng.uniform
    w = lambda pts: _wobble(rng, pts)  # noqa: E731
    if style == "tick":
        return {
            "strokes": [w([(u(0.15, 0.3), u(0.45, 0.6)), (u(0.38, 0.48), u(0.75, 0.88)), (u(0.75, 0.9), u(0.1, 0.25))])]
        }
    if style == "big-check":  # overshoots the box on two sides
        return {
            "strokes": [w([(u(-0.15, 0.1), u(0.4, 0.6)), (u(0.3, 0.45), u(0.9, 1.15)), (u(1.15, 1.4), u(-0.4, -0.1))])]
        }
    if style == "cross":
        a, b = u(0.12, 0.25), u(0.75, 0.88)
        return {"strokes": [w([(a, a), (b, b)]), w([(a, b), (b, a)])]}
    if style == "small-x":
        c, d = (u(0.4, 0.6), u(0.4, 0.6)), u(0.12, 0.2)
        return {
            "strokes": [
                w([(c[0] - d, c[1] - d), (c[0] + d, c[1] + d)]),
                w([(c[0] - d, c[1] + d), (c[0] + d, c[1] - d)]),
            ]
        }
    if style == "slash":
        return {"strokes": [w([(u(0.15, 0.3), u(0.7, 0.9)), (u(0.7, 0.85), u(0.1, 0.3))])]}
    if style == "off-centre":  # a tick drawn in a corner of the box, reaching its middle
        cx, cy = u(0.3, 0.7), u(0.3, 0.7)
        return {"strokes": [w([(cx - 0.22, cy), (cx - 0.08, cy + 0.2), (cx + 0.25, cy - 0.25)])]}
    if style == "dash":
        y = u(0.4, 0.6)
        return {"strokes": [w([(u(0.25, 0.35), y), (u(0.65, 0.75), y + u(-0.05, 0.05))])]}
    if style == "dot":
        return {"discs": [(u(0.4, 0.6), u(0.4, 0.6), u(0.1, 0.15))]}
    if style == "filled-circle":
        return {"discs": [(u(0.45, 0.55), u(0.45, 0.55), u(0.25, 0.35))]}
    if style == "circle":
        return {"rings": [(u(0.45, 0.55), u(0.45, 0.55), u(0.28, 0.38))]}
    if style in ("hatch", "filled"):
        step = u(0.1, 0.16) if style == "hatch" else u(0.05, 0.08)
        lines = []
        for t in np.arange(-0.6, 0.6 + 1e-9, step):
            a, b = ((0.15 + t, 0.15), (0.85, 0.85 - t)) if t >= 0 else ((0.15, 0.15 - t), (0.85 + t, 0.85))
            lines.append(w([a, b]))
        return {"strokes": lines}
    if style == "scribble":
        pts, n = [], int(u(5, 9))
        for i in range(n):
            y = 0.15 + 0.7 * i / (n - 1)
            pts += [(u(0.1, 0.25), y), (u(0.75, 0.9), y + u(0.02, 0.08))]
        return {"strokes": [_wobble(rng, pts, 0.02)]}
    raise ValueError(style)


def photo(layout, page_id: str, rng, *, dpi: float | None = None, share: float | None = None, effects=None):
    """(RGB photo, truth, kinds) of one page: truth like pencil.photo's (True/False, a
    letter, '?' for a pencil letter, '' for an empty cell), kinds: field -> what was
    drawn (pen and style, 'erased' for a smudged empty box). `effects` (a set of names)
    forces which degradations are applied; by default each is drawn at random."""
    import cv2
    import numpy as np

    from bench.photos import pages
    from sheetgen.scan.blank import grid_cells

    dpi = dpi or float(rng.uniform(100, 300))
    low, high = layout.players["min"], layout.players["max"]
    players = int(rng.integers(low, high + 1)) if low < high else None
    # the paper drawn finer than the photo: the camera samples pen strokes, not pixels
    fine = min(1.6 * dpi, 360.0)
    img, display, origin = pages.blank_paper(layout, page_id, fine, str(rng.choice(["en", "fr"])), players)
    paper = img.astype(np.float32) * np.float32(rng.uniform(0.93, 1.0, 3)).clip(0, 1)  # off-white paper
    sheet = Sheet(np, cv2, paper, fine / 25.4, origin, rng)
    cells = grid_cells(layout, page_id)
    share = rng.uniform(0.15, 0.6) if share is None else share
    main_pen = str(rng.choice(list(PENS)))
    names, weights = list(STYLES), np.array(list(STYLES.values()))
    main_style = str(rng.choice(names, p=weights / weights.sum()))
    colours = rng.random() < 0.8  # the players use the dice's colour pencils
    truth, kinds = {}, {}
    for box in display.boxes():
        if box.kind == "write" and box.field not in cells:
            continue
        marked = bool(rng.random() < share)
        pen_name = main_pen if rng.random() < 0.85 else str(rng.choice(list(PENS)))
        colour, widths, opacities, grain = PENS[pen_name]
        pen = (colour, rng.uniform(*widths), rng.uniform(*opacities), grain)
        if box.field in cells:
            truth[box.field] = ""
            if marked and colours:
                letter = str(rng.choice(["C", "S", "T"]))
                style = str(rng.choice(list(GARDEN_STYLES)))
                pressure = rng.uniform(0.45, 0.95)
                sheet.ink(
                    box,
                    mark_strokes(style, rng)["strokes"],
                    (colour_pencil(letter, rng), rng.uniform(0.5, 0.9), pressure, 0.5),
                )
                truth[box.field], kinds[box.field] = letter, f"colour-{letter}/garden-{style} p{pressure:.2f}"
            elif marked:
                letter = str(rng.choice(["C", "S", "T"]))
                sheet.ink(box, [], pen, letter=letter)
                truth[box.field], kinds[box.field] = "?", f"{pen_name}/letter-{letter}"
        else:
            truth[box.field] = marked
            if marked:
                style = main_style if rng.random() < 0.7 else str(rng.choice(names, p=weights / weights.sum()))
                sheet.ink(box, pen=pen, **mark_strokes(style, rng))
                kinds[box.field] = f"{pen_name}/{style}"
        if not marked and rng.random() < 0.04:  # a mistake, rubbed out
            _erased(sheet, box, pen, rng)
            kinds[box.field] = "erased/erased"
    used: list = []
    img = photograph(cv2, np, sheet, rng, dpi, fine, effects, used)
    kinds["_photo"] = f"{dpi:.0f} dpi, {' '.join(used) or 'no effect'}"
    return img, truth, kinds


def _erased(sheet, box, pen, rng) -> None:
    """What an eraser leaves of a pencil mark: a faint grey smudge and ghost strokes."""
    colour, width, _, grain = pen
    ghost = mark_strokes(str(rng.choice(["tick", "cross", "scribble"])), rng)
    sheet.ink(box, pen=((110, 110, 115), width, rng.uniform(0.06, 0.14), grain), **ghost)
    sheet.ink(box, [], ((140, 140, 145), 0, rng.uniform(0.04, 0.09), 0.3), discs=[(0.5, 0.5, rng.uniform(0.3, 0.45))])


EFFECTS = ("table", "curl", "crease", "shadow", "cast", "exposure", "vignette", "motion", "focus", "sharpen", "salt")


def _table_texture(np, cv2, shape, rng):
    """A wooden, dark or grey table under the sheet."""
    h, w = shape
    kind = rng.integers(3)
    if kind == 0:  # wood: brown, with grain lines
        base = np.float32([rng.uniform(120, 175), rng.uniform(75, 110), rng.uniform(35, 65)])
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.05, 0.15)
        grain = 0.9 + 0.1 * np.sin(f * yy + 1.5 * np.sin(xx * 0.003 + rng.uniform(0, 6)))
        tex = grain[..., None] * base
    else:
        base = np.float32([rng.uniform(15, 50)] * 3) if kind == 1 else np.float32([rng.uniform(90, 150)] * 3)
        tex = np.broadcast_to(base, (h, w, 3)).copy()
    return tex


def photograph(cv2, np, sheet, rng, dpi: float, fine: float, effects=None, used=None):
    """The paper (sheet.img, float RGB at `fine` dpi) photographed by a phone: RGB uint8."""
    used = [] if used is None else used

    def on(effect: str, chance: float) -> bool:  # one of the EFFECTS applied (and noted in `used`)?
        yes = effect in effects if effects is not None else bool(rng.random() < chance)
        used.extend([effect] if yes else [])
        return yes

    paper = sheet.img
    ph, pw = paper.shape[:2]
    if on("crease", 0.25):  # a fold across the sheet: a thin dark line, one side a little darker
        a = rng.uniform(0, math.pi)
        n = np.array([math.cos(a), math.sin(a)])
        yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
        d = (xx - pw * rng.uniform(0.3, 0.7)) * n[0] + (yy - ph * rng.uniform(0.3, 0.7)) * n[1]
        shade = 1 - 0.12 * np.exp(-((d / (0.15 * fine / 25.4)) ** 2)) - 0.05 * (d > 0) * np.exp(-d / (8 * fine / 25.4))
        paper = paper * shade[..., None]
    scale = dpi / fine  # photo pixels a paper pixel
    # the camera: a pinhole D mm above the sheet, tilted up to 20 degrees, turned any way
    D = rng.uniform(300, 450)
    tilt = math.radians(rng.uniform(0, 20))
    axis = rng.uniform(0, 2 * math.pi)
    spin = rng.uniform(0, 2 * math.pi)
    mm = 25.4 / fine  # mm a paper pixel
    cx, cy = pw / 2 * mm + rng.normal(0, 15), ph / 2 * mm + rng.normal(0, 15)  # where the camera looks (mm)

    def rot(v):  # tilt about an axis in the paper plane
        k = np.array([math.cos(axis), math.sin(axis), 0.0])
        return v * math.cos(tilt) + np.cross(k, v) * math.sin(tilt) + np.outer(v @ k, k) * (1 - math.cos(tilt))

    curl = None
    if on("curl", 0.35):  # a gentle curl: the paper's edges lifted a few mm (along x or y, or one corner)
        lift = rng.uniform(2, 8)
        which = rng.integers(3)
        curl = (which, lift)

    def lifted(X, Y):  # height (mm) of the paper at X, Y (mm)
        if curl is None:
            return np.zeros_like(X)
        which, lift = curl
        if which == 0:
            return lift * ((X - pw * mm / 2) / (pw * mm / 2)) ** 2
        if which == 1:
            return lift * ((Y - ph * mm / 2) / (ph * mm / 2)) ** 2
        r = np.clip(1 - np.hypot(X / (pw * mm), Y / (ph * mm)) / 0.6, 0, 1)  # the top-left corner up
        return 2 * lift * r**2

    def project(X, Y):  # paper mm -> camera image plane (mm at distance D, before scale)
        P = np.stack([X - cx, Y - cy, -lifted(X, Y)], axis=-1).reshape(-1, 3)
        P = rot(P)
        z = D + P[:, 2]
        u, v = P[:, 0] * D / z, P[:, 1] * D / z
        c, s = math.cos(spin), math.sin(spin)
        return (u * c - v * s).reshape(X.shape), (u * s + v * c).reshape(X.shape)

    # the frame: the sheet's corners projected, a margin of table around them (4:3)
    corners_u, corners_v = project(np.array([0, pw * mm, pw * mm, 0.0]), np.array([0, 0, ph * mm, ph * mm]))
    k = dpi / 25.4  # photo pixels a mm (at the sheet's middle)
    span_u, span_v = np.ptp(corners_u) * k, np.ptp(corners_v) * k
    fill = rng.uniform(0.7, 0.92)
    W, H = span_u / fill, span_v / fill
    if W / H < 4 / 3 and H / W < 4 / 3:
        W, H = (H * 4 / 3, H) if W > H else (W, W * 4 / 3)
    W, H = int(W), int(H)
    off_u = corners_u.min() * k - (W - span_u) / 2 * rng.uniform(0.5, 1.5)
    off_v = corners_v.min() * k - (H - span_v) / 2 * rng.uniform(0.5, 1.5)
    # the inverse map, photo pixel -> paper pixel, found on a coarse grid of the paper
    # (projected forward) and interpolated onto the photo's pixels
    step = 24
    gy, gx = np.mgrid[-2 * step : ph + 3 * step : step, -2 * step : pw + 3 * step : step].astype(np.float32)
    fu, fv = project(gx * mm, gy * mm)
    fu, fv = fu * k - off_u, fv * k - off_v
    src = np.stack([fu.ravel(), fv.ravel()], axis=1).astype(np.float32)
    dst = np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.float32)
    hom, _ = cv2.findHomography(src, dst)
    oy, ox = np.mgrid[0:H, 0:W].astype(np.float32)
    pts = cv2.perspectiveTransform(np.stack([ox, oy], -1).reshape(-1, 1, 2), hom).reshape(H, W, 2)
    if curl is not None:  # refine the planar guess, q += H(want) - H(forward(q)), on a coarse grid
        small = cv2.resize(pts, (W // 8 + 1, H // 8 + 1), interpolation=cv2.INTER_LINEAR)
        sy, sx = np.mgrid[0 : small.shape[0], 0 : small.shape[1]].astype(np.float32)
        want = np.stack([sx * (W - 1) / (small.shape[1] - 1), sy * (H - 1) / (small.shape[0] - 1)], -1)
        target = cv2.perspectiveTransform(want.reshape(-1, 1, 2), hom).reshape(small.shape)
        for _ in range(8):
            u, v = project(small[..., 0] * mm, small[..., 1] * mm)
            seen = np.stack([u * k - off_u, v * k - off_v], -1).astype(np.float32)
            small = small + target - cv2.perspectiveTransform(seen.reshape(-1, 1, 2), hom).reshape(small.shape)
        pts = cv2.resize(small.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    pts = np.ascontiguousarray(pts, np.float32)
    # the paper sampled as a camera does: blurred to the photo's resolution first
    blur = 0.5 / scale
    soft = cv2.GaussianBlur(paper, (0, 0), blur) if blur > 0.6 else paper
    table = _table_texture(np, cv2, (H, W), rng) if on("table", 0.9) else np.full((H, W, 3), 235, np.float32)
    out = cv2.remap(
        soft, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(-1, -1, -1)
    )
    out = np.where(out[..., :1] < 0, table, out)
    yy, xx = oy / H, ox / W
    light = np.ones((H, W), np.float32)
    if on("vignette", 0.7):  # darker towards the corners and to one side: never brighter than the exposure
        g = rng.uniform(-0.3, 0.3, 2)
        slope = g[0] * (xx - 0.5) + g[1] * (yy - 0.5)
        light *= 1 - rng.uniform(0.1, 0.35) * (((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 2) - (slope - slope.min())
    if on("shadow", 0.35):  # a hand or the phone between the lamp and the sheet: a soft dark blob from an edge
        f = 8  # drawn an eighth of the size, then enlarged: it is soft anyway
        shadow = np.zeros((H // f + 1, W // f + 1), np.float32)
        edge = rng.integers(4)
        c = [
            (rng.uniform(0.2, 0.8) * W, -0.1 * H),
            (1.1 * W, rng.uniform(0.2, 0.8) * H),
            (rng.uniform(0.2, 0.8) * W, 1.1 * H),
            (-0.1 * W, rng.uniform(0.2, 0.8) * H),
        ][edge]
        axes = (int(rng.uniform(0.15, 0.35) * W / f), int(rng.uniform(0.2, 0.45) * H / f))
        cv2.ellipse(shadow, (int(c[0] / f), int(c[1] / f)), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(0.02, 0.06) * max(W, H) / f)
        shadow = cv2.resize(shadow, (W, H), interpolation=cv2.INTER_LINEAR)
        light *= 1 - rng.uniform(0.25, 0.5) * shadow
    out *= light[..., None]
    if on("cast", 0.5):  # white balance: warm (tungsten) or cool (daylight, shade)
        gains = (
            [1.0, rng.uniform(0.86, 0.94), rng.uniform(0.68, 0.82)]
            if rng.random() < 0.6
            else [rng.uniform(0.82, 0.9), rng.uniform(0.93, 0.98), 1.0]
        )
        out *= np.float32(gains)
    if on("exposure", 0.5):
        out *= rng.uniform(0.65, 1.2)
    # a phone's tone curve rolls the highlights off rather than clipping them: light strokes on
    # bright paper stay visible
    out = np.where(out > 200, 200 + 55 * (1 - np.exp(-(out - 200) / 55)), out)
    if on("motion", 0.25):
        n = max(2, round(rng.uniform(2, 5) * dpi / 150))  # a steady hand: 0.3-0.85 mm of smear
        kernel = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(
            kernel,
            (n // 2 - round(n / 2 * math.cos(a)), n // 2 - round(n / 2 * math.sin(a))),
            (n // 2 + round(n / 2 * math.cos(a)), n // 2 + round(n / 2 * math.sin(a))),
            1.0,
            1,
        )
        out = cv2.filter2D(out, -1, kernel / kernel.sum())
    if on("focus", 0.4):
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.4) * dpi / 150)
    # sensor noise, stronger in the dark; some colour noise
    out += rng.standard_normal(out.shape, dtype=np.float32) * (rng.uniform(1, 4) + 0.02 * (255 - out))
    if on("sharpen", 0.5):  # a phone's sharpening: halos along every edge
        out = cv2.addWeighted(
            out,
            1 + rng.uniform(0.4, 1.2),
            cv2.GaussianBlur(out, (0, 0), rng.uniform(1, 2.5)),
            -rng.uniform(0.4, 1.2),
            0,
        )
    out = np.clip(out, 0, 255).astype(np.uint8)
    if on("salt", 0.3):
        salt = rng.random(out.shape[:2]) < rng.uniform(0.0005, 0.003)
        out[salt] = np.where(rng.random((int(salt.sum()), 1)) < 0.5, 0, 255)
    quality = [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 91))]
    ok, jpg = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), quality)
    return cv2.cvtColor(cv2.imdecode(jpg, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
