"""Printed with `render`'s options, things lying on the sheet, messenger copies and screenshots.

Written apart from the reader's tuning, from the feature's specification and from how people
print, play and photograph. Printing as a user's command line would (the library calls
`sheetgen render` makes): --paper A4 (50%), Letter (30%), A5 (10%, the sheet scaled down) or
Legal (10%); --per-page 2 or 4 for 15% of the pages (where the render refuses it: 2, then 1;
A5 refused: A4), every sheet of the printed page on the photo and each marked with the SAME
truth, in its own strokes; --grey toner saving (20%); French or English; a score pad for a
random player count. The paper lies on a table (wood, a plain light or dark desk, a checked
cloth) with its soft shadow. Marks: 30% of the photos are drawn the quick maintainer's way
(plain cv2 lines, filled polygons, Hershey letters, pure black, grey 90-170 for a light hand,
pure orange/green/red, 1-4 px at the print resolution, anti-aliased or not, no texture); the
rest with a pen model: HB, 2B or mechanical pencil on the paper's tooth with pressure, blue or
black ballpoint with skips, gel, felt-tip; garden cells in a colour pencil or a felt pen of
the vegetable's colour. Ticks, crosses, slashes, fills, dots, circles round round boxes (and
round the colony ladder's values), garden cells hatched, scribbled, lettered C/S/T or drawn
(a carrot with leaves, a tomato with its stalk, a frilly salad). Hard cases: +light (a light
hand, drawn firmer and "+firmed" when it would not plainly show in the final picture), +stray
(1-3 mm over the border, never into a neighbour's inner part), +erased (a pencil mistake
rubbed out to a faint ghost: truth False), +sheen (a lamp at a glancing angle: dense 2B shows
lighter, silvery, in places), +covered (dice, a pencil, an eraser with its sleeve, a finger
with the hand behind it lying over part of a few boxes, never over a scan mark or the QR
code: the truth is what is under them), +crumbs (eraser crumbs, rolled and light, with a tiny
shadow), +dust (a faint graphite smear from the hand). Numbers and a name in the write boxes;
players' notes (sums, tallies, a spiral, a star, a heart) in the blank margins and between
boxes, never in a box. Capture: a phone in perspective (tilt up to 20 degrees, any roll, a
4:3 frame, 100-300 dpi on the sheet, under 12 MP), light falling off, vignetting, noise, a
little blur, then some of: portrait depth of field (focus falling off across the page),
rolling-shutter skew and wobble, a tungsten (orange) or fluorescent (green) cast left
uncorrected, a phone's smart HDR (local contrast) and strong sharpening; the camera's JPEG,
then one of: the photo saved as JPEG, PNG or WebP; sent through a messenger (down to 1600 px
on the long side, JPEG 60-80, forwarded again sometimes); a screenshot of the photo viewer
(the photo scaled into a 1170x2532 or 1080x2400 phone screen, a status bar with the time,
signal and battery, the viewer's toolbar; PNG or JPEG). Messenger and screenshot photos frame
the sheet upright-ish, and fall back to a plain photo when the sheet would get under 100 dpi.

`photo(layout, page_id, rng)` gives (RGB photo, truth, kinds).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# ---------------------------------------------------------------------------- inks

PENCILS = {  # colour, alpha, width mm, texture mean (paper tooth)
    "hb": ((92, 92, 98), 0.80, 0.42, 0.72),
    "2b": ((52, 52, 60), 0.93, 0.55, 0.85),
    "mech": ((105, 105, 112), 0.78, 0.32, 0.78),
}
PENS = {
    "ballpoint": ((35, 48, 150), 0.92, 0.38, 0.9),
    "ballblack": ((38, 38, 46), 0.92, 0.38, 0.9),
    "gel": ((16, 16, 22), 0.97, 0.5, 1.0),
    "felt": ((28, 28, 36), 0.9, 0.95, 1.0),
}
COLOUR_PENCIL = {"C": (242, 128, 30), "S": (72, 160, 52), "T": (214, 38, 36)}
COLOUR_FELT = {"C": (255, 132, 8), "S": (10, 152, 62), "T": (228, 22, 34)}
QUICK = {"C": (255, 140, 0), "S": (0, 160, 0), "T": (220, 0, 0)}
LEAF = (40, 140, 40)


M = 35.0  # mm of table kept round the paper at the print resolution
RW = 1.5  # px/mm of the rest of the table
MAX_PX = 12e6  # a phone's 12 MP


def _lum(c) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _contrast(colour) -> float:
    """How far an ink stands from white paper, as a person sees it (lightness and hue)."""
    return 0.5 * (255 - _lum(colour)) + 0.5 * (255 - min(colour))


# ---------------------------------------------------------------------------- print options


def _print_options(layout, page_id, rng) -> dict:
    from sheetgen.errors import SheetgenError
    from sheetgen.render import impose
    from sheetgen.render.pdf import pdf_bytes, placement

    lang = str(rng.choice(["en", "fr"]))
    low, high = layout.players["min"], layout.players["max"]
    players = int(rng.integers(low, high + 1)) if low < high else None
    paper = str(rng.choice(["a4", "letter", "a5", "legal"], p=[0.5, 0.3, 0.1, 0.1]))
    per_page = int(rng.choice([2, 4])) if rng.random() < 0.15 else 1
    grey = bool(rng.random() < 0.2)
    doc = layout.document(lang, players, [page_id])
    notes = []
    asked = (paper, per_page)
    for pp, pa in ((per_page, paper), (2, paper), (1, paper), (1, "a4")):
        if pp > per_page:
            continue
        try:
            impose.check_scale(doc, pa, pp, layout.id)
        except SheetgenError:
            continue
        per_page, paper = pp, pa
        break
    if (paper, per_page) != asked:
        notes.append(f"asked {asked[0]} x{asked[1]}: refused")
    pdf = pdf_bytes(doc, paper=paper, copies=per_page, per_page=per_page, grey=grey)
    sheet = doc.pages[0]
    g = impose.grid(paper, per_page)
    plain = per_page == 1 and g.scale(sheet.width, sheet.height) >= 1.0
    if plain:
        at = placement(sheet, paper)
        places = [(at.left, at.top, 1.0)]
    else:
        places = [g.place(i, sheet.width, sheet.height) for i in range(per_page)]
    return dict(
        lang=lang,
        players=players,
        paper=paper,
        per_page=per_page,
        grey=grey,
        pdf=pdf,
        sheet=sheet,
        places=places,
        size=(g.width, g.height),
        notes=notes,
    )


# ---------------------------------------------------------------------------- capture plan


def _camera(pw, ph, rng, tilt_deg, aligned=False):
    """A homography (paper mm -> image mm near the centre's scale) for a camera tilted
    `tilt_deg` about a random in-plane axis and rolled any way."""
    phi = rng.uniform(0, 2 * math.pi)
    th = math.radians(tilt_deg)
    ax = np.array([math.cos(phi), math.sin(phi), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    rot = np.eye(3) + math.sin(th) * k + (1 - math.cos(th)) * k @ k
    roll = rng.uniform(0, 2 * math.pi)
    if aligned:  # framed to send or show: the sheet upright-ish in the frame
        roll = math.pi / 2 * int(rng.integers(4)) + math.radians(rng.normal(0, 5))
    rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    d = rng.uniform(1.0, 1.6) * math.hypot(pw, ph)
    cx, cy = pw / 2 + rng.normal(0, 0.03 * pw), ph / 2 + rng.normal(0, 0.03 * ph)
    src = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    dst = []
    for x, y in src:
        p = rz @ rot @ np.array([x - cx, y - cy, 0.0])
        dst.append([p[0] * d / (d + p[2]), p[1] * d / (d + p[2])])
    return cv2.getPerspectiveTransform(src, np.float32(dst))


def _plan(opts, rng) -> dict:
    pw, ph = opts["size"]
    s = opts["places"][0][2]
    tilt = float(rng.uniform(0, 20)) if rng.random() < 0.85 else float(rng.uniform(0, 3))
    capture = "phone"
    r = rng.random()
    if r < 0.25:
        capture = "messenger"
    elif r < 0.37:
        capture = "screenshot"
    hmm = _camera(pw, ph, rng, tilt, aligned=capture != "phone")
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [pw, 0], [pw, ph], [0, ph]]]), hmm)[0]
    lo, hi = corners.min(0), corners.max(0)
    span = hi - lo
    pad = span * rng.uniform(0.03, 0.12 if capture == "phone" else 0.05, 2) + 4
    lo, hi = lo - pad * rng.uniform(0.5, 1.5, 2), hi + pad * rng.uniform(0.5, 1.5, 2)
    span = hi - lo
    # a camera's 4:3 frame (the short side grown to it)
    big, small = (0, 1) if span[0] >= span[1] else (1, 0)
    want = span.copy()
    want[small] = max(span[small], span[big] * 3 / 4)
    want[big] = max(span[big], want[small] * 4 / 3)
    lo -= (want - span) * rng.uniform(0, 1, 2)
    span = want
    effects = []
    sheet_dpi = float(rng.uniform(100, 300))
    k = sheet_dpi / 25.4 / s  # photo px per paper mm
    k = min(k, math.sqrt(MAX_PX / (span[0] * span[1])))
    final_k = k
    screen = None
    if capture == "messenger":
        final_k = 1600 / max(span)
        k = min(final_k * rng.uniform(1.6, 2.6), math.sqrt(MAX_PX / (span[0] * span[1])))
    elif capture == "screenshot":
        screen = (1170, 2532) if rng.random() < 0.5 else (1080, 2400)
        if span[0] > span[1]:
            screen = screen[::-1]  # the phone turned to show a landscape photo
        bars = 0.0 if screen[0] > screen[1] else 0.16
        final_k = min(screen[0] / span[0], screen[1] * (1 - bars) / span[1])
        k = min(final_k * rng.uniform(1.8, 3.0), math.sqrt(MAX_PX / (span[0] * span[1])))
    if final_k * 25.4 * s < 100:  # the spec's 100 dpi on the sheet: an ordinary photo then
        capture, final_k = "phone", k
        if k * 25.4 * s < 100:
            k = final_k = min(100 / 25.4 / s, math.sqrt(MAX_PX / (span[0] * span[1])))
    blur = float(rng.uniform(0.3, 1.3))
    if rng.random() < 0.22:
        effects.append("dof")
    if rng.random() < 0.28:
        effects.append("hdr")
    if rng.random() < 0.18:
        effects.append("shutter")
    if rng.random() < 0.25:
        effects.append(str(rng.choice(["tungsten", "fluorescent"])))
    dof = float(rng.uniform(1.5, 4.0)) if "dof" in effects else 0.0
    sigma_final = math.hypot(blur * final_k / k, 0.5 * dof * final_k / k, 0.5)
    return dict(
        hmm=hmm,
        lo=lo,
        span=span,
        k=k,
        final_k=final_k,
        sheet_dpi=final_k * 25.4 * s,
        tilt=tilt,
        capture=capture,
        screen=screen,
        effects=effects,
        blur=blur,
        dof=dof,
        sigma=sigma_final,
        lamp=bool(rng.random() < 0.35),
    )


# ---------------------------------------------------------------------------- drawing helpers


class Sheet:
    """One printed sheet on the canvas: its boxes in canvas px."""

    def __init__(self, sheet, place, r, margin):
        self.x0, self.y0, self.s = place
        self.r, self.m = r, margin
        self.w, self.h = sheet.width, sheet.height
        self.boxes = {}
        for b in sheet.boxes():
            self.boxes[b.field] = (b, self.rect(b.x, b.y, b.w, b.h))

    def px(self, x, y):
        return ((self.m + self.x0 + self.s * x) * self.r, (self.m + self.y0 + self.s * y) * self.r)

    def rect(self, x, y, w, h):
        px, py = self.px(x, y)
        return (px, py, w * self.s * self.r, h * self.s * self.r)

    def keepout(self, pad_mm=4.0):
        """The scan marks and the QR code (canvas px rects), with `pad_mm` around."""
        from sheetgen.layout.scanmarks import MARKER, QUIET, marker_corners, qr_spot

        out = []
        for x, y in marker_corners(self.w, self.h):
            out.append((x - QUIET - pad_mm, y - QUIET - pad_mm, MARKER + 2 * (QUIET + pad_mm)))
        qx, qy, size = qr_spot(self.w)
        out.append((qx - QUIET - pad_mm, qy - QUIET - pad_mm, size + 2 * (QUIET + pad_mm)))
        return [self.rect(x, y, w, w) for x, y, w in out]


def _inner(rect, frac=0.14):
    x, y, w, h = rect
    return (x + frac * w, y + frac * h, w * (1 - 2 * frac), h * (1 - 2 * frac))


def _inside(pt, rect) -> bool:
    x, y, w, h = rect
    return x <= pt[0] <= x + w and y <= pt[1] <= y + h


def _bezier(p0, p1, bend, n=12):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    mid = (p0 + p1) / 2
    nrm = np.array([-(p1 - p0)[1], (p1 - p0)[0]])
    c = mid + nrm * bend
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * c + t**2 * p1


def _roi(canvas, pts, pad):
    """An ROI (x0, y0, x1, y1) of the canvas round points, clipped."""
    h, w = canvas.shape[:2]
    lo = np.floor(pts.min(0) - pad).astype(int)
    hi = np.ceil(pts.max(0) + pad).astype(int)
    return max(lo[0], 0), max(lo[1], 0), min(hi[0], w), min(hi[1], h)


def _grain(shape, rng, sigma=0.7):
    g = rng.standard_normal(shape).astype(np.float32)
    return cv2.GaussianBlur(g, (0, 0), sigma) * (1.6 / max(sigma, 0.5))


def _lay_ink(canvas, x0, y0, cov, colour, alpha):
    """Subtractive ink (graphite, pigment) over the paper: coverage `cov` (0-1) at x0, y0."""
    h, w = cov.shape
    part = canvas[y0 : y0 + h, x0 : x0 + w].astype(np.float32)
    f = 1 - (cov * alpha)[..., None] * (1 - np.asarray(colour, np.float32) / 255)
    canvas[y0 : y0 + h, x0 : x0 + w] = np.clip(part * f, 0, 255).astype(np.uint8)


class Pen:
    """One writing tool: realistic (`tex`: pencil, colour, ball, gel, felt) or quick."""

    def __init__(self, name, colour, alpha, width_mm, tex_mean, tex, quick=False):
        self.name, self.colour, self.alpha, self.width = name, colour, alpha, width_mm
        self.tex_mean, self.tex, self.quick = tex_mean, tex, quick
        self.px = 2  # quick pens: line thickness at the print resolution
        self.aa = True

    def copy(self, **kw):
        p = Pen(self.name, self.colour, self.alpha, self.width, self.tex_mean, self.tex, self.quick)
        p.px, p.aa = self.px, self.aa
        for k, v in kw.items():
            setattr(p, k, v)
        return p

    def visibility(self, plan, r):
        width_mm = self.px / r if self.quick else self.width
        delta = _contrast(self.colour) * (1.0 if self.quick else self.alpha * self.tex_mean)
        wpx = width_mm * plan["final_k"]
        return delta * min(1.0, wpx / max(1.0, 2.2 * plan["sigma"]))


def _lobe(sheen, x0, y0, x1, y1):
    """A lamp's specular lobe (cx, cy, radius px, strength) over an ROI."""
    cx, cy, rad, amp = sheen
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    return (np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad**2)) * amp).astype(np.float32)


def _draw(canvas, pen, strokes, rng, r, fills=(), sheen=None):
    """Strokes (lists of canvas px points) and filled polygons in `pen`."""
    if not strokes and not fills:
        return
    if pen.quick:
        col = tuple(int(c) for c in pen.colour)
        lt = cv2.LINE_AA if pen.aa else cv2.LINE_8
        for poly in fills:
            cv2.fillPoly(canvas, [np.round(poly * 8).astype(np.int32)], col, lt, shift=3)
        for st in strokes:
            cv2.polylines(canvas, [np.round(st * 8).astype(np.int32)], False, col, int(pen.px), lt, shift=3)
        return
    allpts = np.concatenate([*strokes, *fills]) if (strokes or fills) else None
    wpx = pen.width * r
    x0, y0, x1, y1 = _roi(canvas, allpts, wpx + 4)
    if x1 <= x0 or y1 <= y0:
        return
    shape = (y1 - y0, x1 - x0)
    off = np.array([x0, y0], float)
    layers = []
    for poly in fills:
        m = np.zeros(shape, np.uint8)
        cv2.fillPoly(m, [np.round((poly - off) * 8).astype(np.int32)], 255, cv2.LINE_AA, shift=3)
        layers.append(m.astype(np.float32) / 255 * 0.85)
    for st in strokes:
        m = np.zeros(shape, np.uint8)
        th = max(1, int(round(wpx)))
        cv2.polylines(m, [np.round((st - off) * 8).astype(np.int32)], False, 255, th, cv2.LINE_AA, shift=3)
        c = m.astype(np.float32) / 255 * min(1.0, wpx / th)
        if pen.tex == "felt":
            c = cv2.GaussianBlur(c, (0, 0), 0.35 * wpx / 2 + 0.3)
            c = np.clip(c * 1.25, 0, 1)
        layers.append(c)
    pressure = 0.8 + 0.2 * np.clip(cv2.resize(rng.uniform(0, 1, (4, 4)).astype(np.float32), shape[::-1]), 0, 1)
    for c in layers:
        if pen.tex in ("pencil", "colour"):
            tooth = np.clip(pen.tex_mean + 0.35 * _grain(shape, rng, 0.6), 0, 1)
            c = c * tooth * pressure
        elif pen.tex == "ball":
            skip = (
                cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 2.5 * r / 12) > -0.35
            ).astype(np.float32)
            c = c * (0.55 + 0.45 * skip)
        _lay_ink(canvas, x0, y0, c, pen.colour, pen.alpha)
        if sheen is not None and pen.tex == "pencil" and pen.name == "2b":
            lobe = _lobe(sheen, x0, y0, x1, y1) * np.clip(0.5 + _grain(shape, rng, 2.0 * r / 12), 0, 1)
            dense = np.clip((c - 0.45) / 0.45, 0, 1) * lobe
            part = canvas[y0:y1, x0:x1].astype(np.float32)
            silver = np.float32([196, 198, 204])
            canvas[y0:y1, x0:x1] = np.clip(part + (silver - part) * dense[..., None], 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- marks


def _shapes(style, rect, rng, letter=None, stray=0.0):
    """(strokes, fills) in canvas px for a mark of `style` in a box `rect`."""
    x, y, w, h = rect

    def P(fx, fy, j=0.03):
        return (x + (fx + rng.normal(0, j)) * w, y + (fy + rng.normal(0, j)) * h)

    def arc(cx, cy, rx, ry, a0, a1, n=24):
        t = np.radians(np.linspace(a0, a1, n))
        return np.stack([x + (cx + rx * np.cos(t)) * w, y + (cy + ry * np.sin(t)) * h], 1)

    strokes, fills = [], []
    b = rng.normal(0, 0.08)
    if style == "tick":
        a, m, e = P(0.18, 0.52), P(0.4, 0.8), P(0.86, 0.14)
        e = (e[0] + stray * w * 0.7, e[1] - stray * h * 0.7)
        strokes = [np.concatenate([_bezier(a, m, b, 6), _bezier(m, e, b, 10)])]
    elif style == "cross":
        a, c = P(0.18, 0.18), P(0.82, 0.82)
        c = (c[0] + stray * w * 0.7, c[1] + stray * h * 0.7)
        strokes = [_bezier(a, c, b), _bezier(P(0.18, 0.82), P(0.82, 0.18), -b)]
    elif style == "slash":
        a, c = P(0.2, 0.84), P(0.8, 0.16)
        c = (c[0] + stray * w * 0.7, c[1] - stray * h * 0.7)
        strokes = [_bezier(a, c, b)]
    elif style == "dash":
        strokes = [_bezier(P(0.25, 0.5), P(0.75, 0.52), b * 0.5)]
    elif style == "dot":
        cx, cy = P(0.5, 0.5, 0.06)
        rr = rng.uniform(0.08, 0.15) * min(w, h)
        t = np.linspace(0, 2 * math.pi, 16)
        fills = [np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t)], 1)]
    elif style == "fill":
        n = int(rng.integers(5, 9))
        pts = []
        for i in range(n):
            fy = 0.16 + 0.68 * i / (n - 1)
            pts += [P(0.14, fy, 0.02), P(0.86, fy + 0.04, 0.02)]
        strokes = [np.array(pts)]
        if rng.random() < 0.5:
            strokes.append(np.array([P(0.16 + 0.68 * i / (n - 1), 0.14 + 0.72 * (i % 2), 0.02) for i in range(n)]))
    elif style == "circle":
        rr = rng.uniform(0.55, 0.7) + stray * 0.5
        a0 = rng.uniform(0, 360)
        strokes = [
            arc(0.5 + rng.normal(0, 0.02), 0.5 + rng.normal(0, 0.02), rr, rr * rng.uniform(0.9, 1.05), a0, a0 + 380)
        ]
    elif style == "letter":
        if letter == "C":
            strokes = [arc(0.52, 0.5, 0.27, 0.32, 40, 320)]
        elif letter == "S":
            top = arc(0.5, 0.34, 0.2, 0.16, -30, -270)
            bot = arc(0.5, 0.66, 0.2, 0.16, -90, 210)
            strokes = [np.concatenate([top, bot])]
        else:
            strokes = [_bezier(P(0.22, 0.22), P(0.78, 0.2), b * 0.3), _bezier(P(0.5, 0.21), P(0.5, 0.82), b * 0.3)]
    elif style == "hatch":
        n = int(rng.integers(7, 12))
        pts = []
        for i in range(n):
            f = 0.12 + 0.76 * i / (n - 1)
            pts += [P(0.12, f, 0.02), P(f, 0.12, 0.02)] if i % 2 else [P(f, 0.12, 0.02), P(0.12, f, 0.02)]
        for i in range(n):
            f = 0.12 + 0.76 * i / (n - 1)
            pts += [P(f, 0.88, 0.02), P(0.88, f, 0.02)]
        strokes = [np.array(pts)]
    elif style == "scribble":
        t = np.linspace(0, 1, 60)
        cx = 0.5 + 0.3 * np.sin(2 * math.pi * (3.1 * t + rng.uniform()))
        cy = 0.2 + 0.6 * t + 0.08 * np.sin(2 * math.pi * 9 * t)
        strokes = [np.stack([x + cx * w, y + cy * h], 1)]
    return strokes, fills


def _drawing(letter, rect, rng):
    """A small drawing of the vegetable: (main fills, main strokes, leaf strokes)."""
    x, y, w, h = rect
    t = np.linspace(0, 2 * math.pi, 28)
    if letter == "C":  # a carrot
        tip = (x + w * rng.uniform(0.25, 0.35), y + h * 0.85)
        top = np.array([[x + w * 0.55, y + h * 0.3], [x + w * 0.78, y + h * 0.42]])
        poly = np.array([tip, top[0], top[1]])
        leaves = [_bezier((x + w * 0.66, y + h * 0.35), (x + w * (0.6 + 0.1 * i), y + h * 0.14), 0.1) for i in range(3)]
        return [poly], [np.vstack([poly, poly[:1]])], leaves
    if letter == "T":  # a tomato
        cx, cy, rr = x + w * 0.5, y + h * 0.56, 0.3 * min(w, h)
        poly = np.stack([cx + rr * np.cos(t), cy + rr * 0.9 * np.sin(t)], 1)
        leaves = [_bezier((cx, cy - rr * 0.9), (cx + rr * 0.3 * s, cy - rr * 1.2), 0.2) for s in (-1, 1)]
        return [poly], [poly], leaves
    cx, cy, rr = x + w * 0.5, y + h * 0.52, 0.32 * min(w, h)  # a salad: frilly round
    frill = rr * (1 + 0.15 * np.sin(7 * t + rng.uniform(0, 6)))
    poly = np.stack([cx + frill * np.cos(t), cy + frill * 0.85 * np.sin(t)], 1)
    veins = [_bezier((cx, cy + rr * 0.6), (cx + rr * 0.5 * s, cy - rr * 0.4), 0.1) for s in (-1, 0, 1)]
    return [poly], [poly], veins


def _safe_stray(shape_fn, sheets_rects, own, tries=4):
    """Shapes whose every point stays out of the other boxes' inner parts (the stray is
    shortened until it does)."""
    stray = None
    for k in range(tries + 1):
        strokes, fills = shape_fn(stray_scale=1 - k / tries)
        pts = np.concatenate([*strokes, *fills])
        dense = pts
        if len(strokes):
            dense = np.concatenate([np.linspace(a, b, 6) for st in strokes for a, b in zip(st[:-1], st[1:])] + [pts])
        bad = False
        for f, rect in sheets_rects:
            if f == own:
                continue
            ix, iy, iw, ih = _inner(rect)
            if np.any((dense[:, 0] >= ix) & (dense[:, 0] <= ix + iw) & (dense[:, 1] >= iy) & (dense[:, 1] <= iy + ih)):
                bad = True
                break
        if not bad:
            return strokes, fills, k == 0
        stray = (strokes, fills)
    return stray[0], stray[1], False


def _digits(canvas, pen, rect, rng, r, text):
    """A number written in a write box (not read by scan): strokes of Hershey glyphs."""
    x, y, w, h = rect
    scale = 0.6 * h / 30
    font = cv2.FONT_HERSHEY_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_SCRIPT_SIMPLEX
    (tw, th), _ = cv2.getTextSize(text, font, scale, 1)
    if tw > 0.8 * w:
        scale *= 0.8 * w / tw
        (tw, th), _ = cv2.getTextSize(text, font, scale, 1)
    org = (int(x + (w - tw) / 2 + rng.normal(0, 0.05 * w)), int(y + (h + th) / 2 + rng.normal(0, 0.05 * h)))
    org = (max(org[0], int(x + 0.12 * w)), min(org[1], int(y + 0.86 * h)))
    _text(canvas, pen, text, org, font, scale, rng, r, italic=rng.random() < 0.3)


def _text(canvas, pen, text, org, font, scale, rng, r, italic=False):
    th = max(1, int(round(pen.px if pen.quick else pen.width * r)))
    (tw, tht), base = cv2.getTextSize(text, font, scale, th)
    x0, y0 = org[0] - 4, org[1] - tht - 4
    shape = (tht + base + 10, tw + 10)
    if x0 < 0 or y0 < 0 or x0 + shape[1] > canvas.shape[1] or y0 + shape[0] > canvas.shape[0]:
        return
    m = np.zeros(shape, np.uint8)
    cv2.putText(m, text, (4, tht + 4), font, scale, 255, th, cv2.LINE_AA, False)
    if italic:
        sh = np.float32([[1, -0.2, 0.2 * shape[0]], [0, 1, 0]])
        m = cv2.warpAffine(m, sh, shape[::-1])
    if pen.quick:
        part = canvas[y0 : y0 + shape[0], x0 : x0 + shape[1]]
        a = (m.astype(np.float32) / 255)[..., None]
        part[:] = (part * (1 - a) + np.float32(pen.colour) * a).astype(np.uint8)
        return
    c = m.astype(np.float32) / 255
    if pen.tex in ("pencil", "colour"):
        c = c * np.clip(pen.tex_mean + 0.35 * _grain(shape, rng, 0.6), 0, 1)
    _lay_ink(canvas, x0, y0, c, pen.colour, pen.alpha)


# ---------------------------------------------------------------------------- objects


def _local(shape_hw, x0, y0, p0, ang):
    """Along/across coordinates (px) of an ROI's pixels for an axis from p0 at `ang`."""
    yy, xx = np.mgrid[0 : shape_hw[0], 0 : shape_hw[1]].astype(np.float32)
    dx, dy = xx + x0 - p0[0], yy + y0 - p0[1]
    ca, sa = math.cos(ang), math.sin(ang)
    return dx * ca + dy * sa, -dx * sa + dy * ca


def _object(kind, centre, ang, r, rng):
    """An object lying on the sheet: (x0, y0, rgb float, alpha, shadow alpha) in canvas px."""
    if kind == "die":
        side = rng.uniform(12, 16) * r
        half = side / 2 + 0.08 * side
        ext = int(half * 1.6 + 6 * r)
    elif kind == "pencil":
        length = rng.uniform(110, 175) * r
        ext = int(length / 2 + 10 * r)
    elif kind == "eraser":
        ext = int(34 * r)
    else:  # finger
        length = rng.uniform(55, 75) * r
        ext = int(length + (190 if r <= RW else 15) * r)  # the hand behind it: on the low-res world
    cx, cy = centre
    x0, y0 = int(cx - ext), int(cy - ext)
    shape = (2 * ext, 2 * ext)
    rgb = np.zeros((*shape, 3), np.float32)
    if kind == "die":
        a, t = _local(shape, x0, y0, centre, ang)
        hs = side / 2
        rnd = 0.18 * side
        q = np.maximum(np.abs(a) - (hs - rnd), 0) ** 2 + np.maximum(np.abs(t) - (hs - rnd), 0) ** 2
        alpha = np.clip(rnd - np.sqrt(q) + 0.5, 0, 1).astype(np.float32)
        face = {
            "white": (240, 238, 232),
            "red": (200, 30, 35),
            "orange": (245, 130, 20),
            "green": (40, 150, 60),
            "ivory": (236, 226, 200),
        }
        name = str(rng.choice(list(face)))
        base = np.float32(face[name])
        pip = np.float32((20, 20, 20) if name in ("white", "ivory", "orange") else (245, 245, 245))
        shade = 0.82 + 0.18 * np.clip(1 - np.sqrt(q) / rnd, 0, 1)[..., None]
        rgb[:] = base * shade
        n = int(rng.integers(1, 7))
        spots = {
            1: [(0, 0)],
            2: [(-1, -1), (1, 1)],
            3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
            5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
            6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)],
        }[n]
        pr = 0.09 * side
        for u, v in spots:
            d = np.sqrt((a - u * 0.27 * side) ** 2 + (t - v * 0.27 * side) ** 2)
            m = np.clip(pr - d + 0.5, 0, 1)[..., None]
            rgb = rgb * (1 - m) + pip * m
    elif kind == "pencil":
        p0 = (cx - math.cos(ang) * length / 2, cy - math.sin(ang) * length / 2)
        a, t = _local(shape, x0, y0, p0, ang)
        hw = 3.6 * r
        tip = 17 * r
        width = np.where(a < tip, hw * np.clip(a / tip, 0, 1), hw)
        alpha = ((a >= 0) & (a <= length) & (np.abs(t) <= width)).astype(np.float32)
        alpha = cv2.GaussianBlur(alpha, (0, 0), 0.6)
        body = np.float32(rng.choice([(232, 182, 30), (30, 90, 40), (180, 30, 30), (40, 40, 45)]))
        facet = np.where(t / hw < -0.33, 0.78, np.where(t / hw > 0.33, 0.9, 1.05))[..., None]
        rgb[:] = body * facet
        wood = (a < tip)[..., None]
        rgb = np.where(wood, np.float32((222, 186, 140)) * (0.85 + 0.15 * facet), rgb)
        rgb = np.where((a < 0.3 * tip)[..., None], np.float32((50, 50, 56)), rgb)
        rgb = np.where(
            ((a > length - 14 * r) & (a < length - 7 * r))[..., None], np.float32((190, 190, 196)) * facet, rgb
        )
        rgb = np.where((a >= length - 7 * r)[..., None], np.float32((228, 140, 150)) * facet, rgb)
    elif kind == "eraser":
        a, t = _local(shape, x0, y0, centre, ang)
        L, W = rng.uniform(35, 50) * r / 2, rng.uniform(15, 22) * r / 2
        q = np.maximum(np.abs(a) - (L - 2 * r), 0) ** 2 + np.maximum(np.abs(t) - (W - 2 * r), 0) ** 2
        alpha = np.clip(2 * r - np.sqrt(q) + 0.5, 0, 1).astype(np.float32)
        base = np.float32(rng.choice([(245, 245, 240), (238, 150, 160), (250, 250, 250)]))
        rgb[:] = base * (0.9 + 0.1 * np.clip(1 - np.sqrt(q) / (2 * r), 0, 1))[..., None]
        if rng.random() < 0.6:  # its cardboard sleeve
            sleeve = np.float32(rng.choice([(30, 70, 160), (30, 30, 30), (200, 40, 40)]))
            rgb = np.where((a > -0.2 * L)[..., None], sleeve * (0.95 + 0.05 * np.cos(t / W * 2))[..., None], rgb)
    else:  # a finger from outside the sheet
        p0 = (cx - math.cos(ang) * length, cy - math.sin(ang) * length)
        a, t = _local(shape, x0, y0, p0, ang)
        hw0 = rng.uniform(7.5, 9.5) * r
        tip_r = hw0
        hw = hw0 + (rng.uniform(34, 42) * r - hw0) * np.clip((length - 70 * r - a) / (35 * r), 0, 1)
        d = np.where(a > length - tip_r, np.sqrt((a - (length - tip_r)) ** 2 + t**2), np.abs(t))
        alpha = np.clip(hw - d + 0.7, 0, 1).astype(np.float32)
        skin = np.float32(rng.choice([(226, 178, 150), (198, 140, 110), (140, 95, 70), (238, 196, 172)]))
        round_ = np.sqrt(np.clip(1 - (d / hw) ** 2, 0, 1))[..., None]
        rgb[:] = skin * (0.7 + 0.35 * round_)
        nail = ((a > length - 13 * r) & (a < length - 1.5 * r) & (np.abs(t) < 0.6 * hw))[..., None]
        rgb = np.where(nail, np.minimum(skin * 1.12 + 20, 250) * (0.8 + 0.25 * round_), rgb)
    shift = np.float32([[1, 0, rng.uniform(1.5, 4) * r], [0, 1, rng.uniform(1.5, 4) * r]])
    shadow = cv2.warpAffine(alpha, shift, alpha.shape[::-1])
    shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(1.0, 3.0) * r) * rng.uniform(0.35, 0.6)
    return x0, y0, rgb, alpha, shadow


def _over(img, x0, y0, rgb, alpha, shadow):
    """An object with its shadow over an image, clipped to it."""
    c0, c1 = max(0, -x0), max(0, -y0)
    x0, y0 = x0 + c0, y0 + c1
    hh, ww = min(alpha.shape[0] - c1, img.shape[0] - y0), min(alpha.shape[1] - c0, img.shape[1] - x0)
    if hh <= 0 or ww <= 0:
        return
    rgb, alpha, shadow = (v[c1 : c1 + hh, c0 : c0 + ww] for v in (rgb, alpha, shadow))
    part = img[y0 : y0 + hh, x0 : x0 + ww].astype(np.float32) * (1 - shadow[..., None])
    a = alpha[..., None]
    img[y0 : y0 + hh, x0 : x0 + ww] = np.clip(part * (1 - a) + rgb * a, 0, 255).astype(np.uint8)


def _place_objects(canvas, sheets, opts, rng, r, m, kinds_extra, world_at):
    """Dice, a pencil, an eraser or a finger on the page, off the scan marks; returns
    what was put down. Boxes partly under them get "+covered"."""
    pw, ph = opts["size"]
    n = int(rng.choice([0, 1, 1, 2, 3], p=[0.25, 0.35, 0.2, 0.12, 0.08]))
    placed = []
    keep = [k for sh in sheets for k in sh.keepout()]
    for _ in range(n):
        kind = str(rng.choice(["die", "die", "pencil", "eraser", "finger"]))
        for _try in range(14):
            if kind == "finger":  # from an edge of the paper, pointing in
                edge = int(rng.integers(4))
                u = rng.uniform(0.15, 0.85)
                into = rng.uniform(15, 45)
                pos = [(u * pw, into), (pw - into, u * ph), (u * pw, ph - into), (into, u * ph)][edge]
                ang = [math.pi / 2, math.pi, -math.pi / 2, 0][edge] + rng.normal(0, 0.35)
            else:
                pos = (rng.uniform(0.05, 0.95) * pw, rng.uniform(0.05, 0.95) * ph)
                ang = rng.uniform(0, 2 * math.pi)
            centre = ((m + pos[0]) * r, (m + pos[1]) * r)
            seed = int(rng.integers(1 << 30))
            x0, y0, rgb, alpha, shadow = _object(kind, centre, ang, r, np.random.default_rng(seed))
            cut0, cut1 = max(0, -x0), max(0, -y0)
            x0, y0 = x0 + cut0, y0 + cut1
            hh = min(alpha.shape[0] - cut1, canvas.shape[0] - y0)
            ww = min(alpha.shape[1] - cut0, canvas.shape[1] - x0)
            rgb, alpha, shadow = (v[cut1 : cut1 + hh, cut0 : cut0 + ww] for v in (rgb, alpha, shadow))
            reach = np.maximum(alpha, shadow)
            bad = False
            for kx, ky, kw, kh in keep:
                a0, b0 = int(kx - x0), int(ky - y0)
                a1, b1 = int(kx + kw - x0), int(ky + kh - y0)
                a0, b0, a1, b1 = max(a0, 0), max(b0, 0), min(a1, ww), min(b1, hh)
                if a1 > a0 and b1 > b0 and reach[b0:b1, a0:a1].max() > 0.02:
                    bad = True
                    break
            if bad:
                continue
            covered = []
            for sh in sheets:
                for f, (_, (bx, by, bw, bh)) in sh.boxes.items():
                    a0, b0 = int(bx - x0), int(by - y0)
                    a1, b1 = int(bx + bw - x0), int(by + bh - y0)
                    if a1 <= 0 or b1 <= 0 or a0 >= ww or b0 >= hh:
                        continue
                    full = max((a1 - a0) * (b1 - b0), 1)
                    a0, b0, a1, b1 = max(a0, 0), max(b0, 0), min(a1, ww), min(b1, hh)
                    frac = float((alpha[b0:b1, a0:a1] > 0.5).sum()) / full
                    if frac > 0.02:
                        covered.append((f, frac))
            if len(covered) > 7 or any(fr > 0.7 for _, fr in covered):
                continue
            part = canvas[y0 : y0 + hh, x0 : x0 + ww].astype(np.float32)
            part *= 1 - shadow[..., None]
            a = alpha[..., None]
            canvas[y0 : y0 + hh, x0 : x0 + ww] = np.clip(part * (1 - a) + rgb * a, 0, 255).astype(np.uint8)
            for f, _ in covered:
                kinds_extra.setdefault(f, set()).add("+covered")
            world, wlo = world_at
            wc = ((pos[0] - wlo[0]) * RW, (pos[1] - wlo[1]) * RW)
            wx, wy, wrgb, walpha, wshadow = _object(kind, wc, ang, RW, np.random.default_rng(seed))
            _over(world, wx, wy, wrgb, walpha, wshadow)
            placed.append(kind)
            if kind == "eraser":
                _crumbs(canvas, centre, 25 * r, rng, r, sheets, kinds_extra)
            break
    return placed


def _crumbs(canvas, centre, spread, rng, r, sheets, kinds_extra, grey=True, many=(8, 30)):
    """Eraser crumbs: small grey (graphite-soiled) rolls and specks."""
    for _ in range(int(rng.integers(*many))):
        p = np.array(centre) + rng.normal(0, spread, 2)
        ln, wd = rng.uniform(0.25, 1.0) * r, rng.uniform(0.15, 0.35) * r
        ang = rng.uniform(0, 180)
        col = tuple(int(v) for v in (rng.uniform(175, 230),) * 3) if grey else (235, 170, 175)
        if not (10 < p[0] < canvas.shape[1] - 10 and 10 < p[1] < canvas.shape[0] - 10):
            continue
        axes = (max(1, int(ln)), max(1, int(wd)))
        at = (int(p[0] + 0.15 * r), int(p[1] + 0.15 * r))
        cv2.ellipse(canvas, at, axes, ang, 0, 360, (150, 150, 150), -1, cv2.LINE_AA)  # its shadow
        cv2.ellipse(canvas, (int(p[0]), int(p[1])), axes, ang, 0, 360, col, -1, cv2.LINE_AA)
        for sh in sheets:
            for f, (_, rect) in sh.boxes.items():
                if _inside(p, rect):
                    kinds_extra.setdefault(f, set()).add("+crumbs")


# ---------------------------------------------------------------------------- notes


def _notes(canvas, page_img_white, sheets, pen, rng, r, m, opts):
    """Arithmetic and doodles where the print is blank (margins, between boxes), never in
    a box: checked against every box's rectangle, with 1.5 mm kept clear."""
    n = int(rng.choice([0, 1, 2, 3, 4], p=[0.3, 0.25, 0.2, 0.15, 0.1]))
    pw, ph = opts["size"]
    rects = [(x - 1.5 * r, y - 1.5 * r, w + 3 * r, h + 3 * r) for sh in sheets for _, (x, y, w, h) in sh.boxes.values()]
    rects += [k for sh in sheets for k in sh.keepout(1.0)]
    done = 0
    for _ in range(n * 25):
        if done >= n:
            break
        doodle = rng.random() < 0.4
        wmm, hmm = (rng.uniform(8, 14), rng.uniform(8, 14)) if doodle else (rng.uniform(14, 26), rng.uniform(5, 7))
        x, y = rng.uniform(2, pw - wmm - 2), rng.uniform(2, ph - hmm - 2)
        bx, by, bw, bh = (m + x) * r, (m + y) * r, wmm * r, hmm * r
        if any(bx < rx + rw and rx < bx + bw and by < ry + rh and ry < by + bh for rx, ry, rw, rh in rects):
            continue
        ix, iy = int(x * r), int(y * r)
        patch = page_img_white[iy : iy + int(hmm * r), ix : ix + int(wmm * r)]
        if patch.size == 0 or patch.mean() < 0.96:
            continue
        if doodle:
            t = np.linspace(0, 1, 80)
            kind = rng.integers(3)
            cx, cy, rad = bx + bw / 2, by + bh / 2, min(bw, bh) / 2 * 0.9
            if kind == 0:  # a spiral
                pts = np.stack([cx + rad * t * np.cos(14 * t), cy + rad * t * np.sin(14 * t)], 1)
            elif kind == 1:  # a star
                ang = np.linspace(0, 4 * math.pi, 6) - math.pi / 2
                pts = np.stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)], 1)
            else:  # a heart
                s = 2 * math.pi * t
                hx, hy = 16 * np.sin(s) ** 3, -(13 * np.cos(s) - 5 * np.cos(2 * s) - 2 * np.cos(3 * s) - np.cos(4 * s))
                pts = np.stack([cx + rad * hx / 17, cy + rad * hy / 17], 1)
            _draw(canvas, pen, [pts], rng, r)
        else:
            a, b = int(rng.integers(2, 40)), int(rng.integers(1, 20))
            text = str(rng.choice([f"{a}+{b}={a + b}", f"{a}+{b}", f"={a + b}", f"{a}x{b % 6 + 1}", "IIII I", f"-{b}"]))
            font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_SIMPLEX
            scale = 0.7 * bh / 22
            (tw, _), _ = cv2.getTextSize(text, font, scale, 1)
            if tw > bw:
                scale *= bw / tw
            _text(canvas, pen, text, (int(bx), int(by + bh * 0.85)), font, scale, rng, r, italic=True)
        rects.append((bx, by, bw, bh))
        done += 1
    return done


# ---------------------------------------------------------------------------- table


def _table(shape, rng, paper, rw):
    """A table top (uint8 RGB) of `shape` (h, w) at `rw` px/mm: wood, a plain desk or a
    cloth; the paper's soft shadow round `paper` (x0, y0, x1, y1 px)."""
    h, w = shape
    lh, lw = h, w
    kind = str(rng.choice(["wood", "desk", "dark", "cloth"]))
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    if kind == "wood":
        base = np.float32(rng.choice([(150, 105, 65), (190, 150, 100), (110, 70, 45)]))
        grain = np.sin(yy / rw * rng.uniform(0.6, 2.0) + 3 * np.sin(xx / rw / 80 + rng.uniform(0, 6)))
        img = base * (0.85 + 0.12 * grain)[..., None]
    elif kind == "cloth":
        c1, c2 = np.float32(rng.choice([(180, 40, 40), (40, 60, 130), (40, 110, 60)])), np.float32((230, 230, 225))
        cell = rng.uniform(12, 30) * rw
        sq = ((xx // cell + yy // cell) % 2)[..., None]
        img = c1 * sq + c2 * (1 - sq)
    else:
        base = np.float32(
            rng.choice([(210, 210, 205), (230, 225, 215)])
            if kind == "desk"
            else rng.choice([(40, 40, 45), (60, 50, 45)])
        )
        img = np.broadcast_to(base, (lh, lw, 3)).copy()
    img = img + rng.normal(0, 4, img.shape)
    x0, y0, x1, y1 = paper
    sh = np.zeros((lh, lw), np.float32)
    sh[y0 + 1 : y1 + 2, x0 + 1 : x1 + 2] = 1
    img = img * (1 - 0.35 * cv2.GaussianBlur(sh, (0, 0), 2 * rw))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- capture


def _capture(canvas, plan, r, m, rng, desc):
    k = plan["k"]
    # the canvas brought to the camera's scale, then projected
    scale = k / r
    small = cv2.resize(canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else canvas
    sc = scale if scale < 1 else 1.0
    to_canvas_mm = np.array([[1 / (r * sc), 0, -m], [0, 1 / (r * sc), -m], [0, 0, 1]])
    frame = np.array([[k, 0, -plan["lo"][0] * k], [0, k, -plan["lo"][1] * k], [0, 0, 1]])
    H = frame @ plan["hmm"] @ to_canvas_mm
    W, Hh = int(plan["span"][0] * k), int(plan["span"][1] * k)
    world, wlo = plan["world"]
    to_world_mm = np.array([[1 / RW, 0, wlo[0]], [0, 1 / RW, wlo[1]], [0, 0, 1]])
    img = cv2.warpPerspective(
        world, frame @ plan["hmm"] @ to_world_mm, (W, Hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
    ).astype(np.float32)
    out = cv2.warpPerspective(small, H, (W, Hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    feather = np.zeros(small.shape[:2], np.float32)
    e = max(2, int(8 * r * sc))
    feather[e:-e, e:-e] = 1
    feather = cv2.blur(feather, (2 * e + 1, 2 * e + 1))
    a = cv2.warpPerspective(feather, H, (W, Hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)[..., None]
    img = img * (1 - a) + out.astype(np.float32) * a
    # rolling shutter: each row read a little later, the phone moving
    if "shutter" in plan["effects"]:
        skew = rng.uniform(-0.04, 0.04)
        wob = rng.uniform(0, 3)
        yy, xx = np.mgrid[0:Hh, 0:W].astype(np.float32)
        mx = xx + skew * (yy - Hh / 2) + wob * np.sin(yy / Hh * rng.uniform(3, 9) + rng.uniform(0, 6))
        img = cv2.remap(img, mx, yy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        desc.append(f"rolling-shutter skew {skew:+.3f}")
    # light: a gradient, vignetting, exposure
    yy, xx = np.mgrid[0:Hh:8, 0:W:8].astype(np.float32)
    yy, xx = yy / Hh - 0.5, xx / W - 0.5
    gx, gy = rng.uniform(-0.4, 0.4, 2)
    light = 1 + gx * xx + gy * yy - rng.uniform(0.1, 0.45) * (xx**2 + yy**2) * 2
    light = cv2.resize(light.astype(np.float32), (W, Hh)) * rng.uniform(0.85, 1.1)
    cast = np.float32([1, 1, 1])
    if "tungsten" in plan["effects"]:
        cast = np.float32([1.0, rng.uniform(0.78, 0.86), rng.uniform(0.52, 0.65)])
        desc.append("tungsten cast")
    elif "fluorescent" in plan["effects"]:
        cast = np.float32([rng.uniform(0.82, 0.9), 1.0, rng.uniform(0.84, 0.92)])
        desc.append("fluorescent cast")
    img *= light[..., None] * cast
    # optics: a little blur, then the portrait mode's depth of field
    if plan["blur"] > 0.4:
        img = cv2.GaussianBlur(img, (0, 0), plan["blur"])
    if plan["dof"]:
        far = cv2.GaussianBlur(img, (0, 0), plan["dof"])
        ang = rng.uniform(0, 2 * math.pi)
        ramp = (math.cos(ang) * xx + math.sin(ang) * yy) * 2 + rng.uniform(-0.3, 0.3)
        ramp = cv2.resize(np.clip(ramp, 0, 1).astype(np.float32), (W, Hh))[..., None]
        img = img * (1 - ramp) + far * ramp
        desc.append(f"portrait depth of field (blur up to {plan['dof']:.1f} px)")
    noise = np.empty(img.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    cv2.randn(noise, 0, float(rng.uniform(1.5, 5)))
    img += noise
    img = np.clip(img, 0, 255).astype(np.uint8)
    if "hdr" in plan["effects"]:
        lab = cv2.cvtColor(img, cv2.COLOR_RGB2LAB)
        clahe = cv2.createCLAHE(clipLimit=float(rng.uniform(1.8, 3.5)), tileGridSize=(8, 8))
        lab[..., 0] = clahe.apply(lab[..., 0])
        img = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
        amount = rng.uniform(0.8, 2.0)
        blur = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.0, 2.5))
        img = cv2.addWeighted(img, 1 + amount, blur, -amount, 0)
        desc.append(f"smart HDR + sharpening x{amount:.1f}")
    # the camera's own JPEG
    img = _codec(img, "jpg", int(rng.integers(85, 96)))
    if plan["capture"] == "messenger":
        f = plan["final_k"] / k
        img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        q = int(rng.integers(60, 81))
        img = _codec(img, "jpg", q)
        desc.append(f"sent by messenger ({img.shape[1]}x{img.shape[0]}, JPEG {q}")
        if rng.random() < 0.35:
            q2 = int(rng.integers(60, 81))
            img = _codec(img, "jpg", q2)
            desc[-1] += f", forwarded: JPEG {q2}"
        desc[-1] += ")"
    elif plan["capture"] == "screenshot":
        img = _screenshot(img, plan, rng)
        fmt = "png" if rng.random() < 0.7 else "jpg"
        img = _codec(img, fmt, int(rng.integers(80, 95)))
        desc.append(f"screenshot of the photo viewer {plan['screen'][0]}x{plan['screen'][1]} ({fmt})")
    else:
        fmt = str(rng.choice(["jpg", "png", "webp"], p=[0.55, 0.2, 0.25]))
        q = int(rng.integers(60, 92))
        if fmt != "jpg":
            img = _codec(img, fmt, q)
            desc.append(f"saved as {fmt}" + (f" q{q}" if fmt == "webp" else ""))
    return img


def _codec(img, fmt, q):
    flag = {"jpg": [cv2.IMWRITE_JPEG_QUALITY, q], "webp": [cv2.IMWRITE_WEBP_QUALITY, q], "png": []}[fmt]
    ok, data = cv2.imencode("." + fmt, cv2.cvtColor(img, cv2.COLOR_RGB2BGR), flag)
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def _screenshot(img, plan, rng):
    sw, sh = plan["screen"]
    dark = rng.random() < 0.7
    bg = (0, 0, 0) if dark else (250, 250, 250)
    ink = (255, 255, 255) if dark else (0, 0, 0)
    scr = np.full((sh, sw, 3), bg, np.uint8)
    portrait = sh > sw
    top = int(0.055 * sh) if portrait else 0
    bottom = int(0.1 * sh) if portrait else 0
    avail_w, avail_h = sw, sh - top - bottom
    f = min(avail_w / img.shape[1], avail_h / img.shape[0])
    pic = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    y0 = top + (avail_h - pic.shape[0]) // 2
    x0 = (sw - pic.shape[1]) // 2
    scr[y0 : y0 + pic.shape[0], x0 : x0 + pic.shape[1]] = pic
    u = sw / 1170 if portrait else sh / 1170
    cv2.putText(
        scr,
        f"{int(rng.integers(7, 23))}:{int(rng.integers(0, 60)):02d}",
        (int(60 * u), int(95 * u)),
        cv2.FONT_HERSHEY_SIMPLEX,
        1.6 * u,
        ink,
        max(1, int(3 * u)),
        cv2.LINE_AA,
    )
    bx = sw - int(150 * u)
    cv2.rectangle(scr, (bx, int(60 * u)), (bx + int(75 * u), int(95 * u)), ink, max(1, int(3 * u)))
    cv2.rectangle(scr, (bx + int(6 * u), int(66 * u)), (bx + int(50 * u), int(89 * u)), ink, -1)
    for i in range(4):
        cv2.rectangle(
            scr,
            (bx - int((110 - 18 * i) * u), int((95 - 10 * i - 8) * u)),
            (bx - int((98 - 18 * i) * u), int(95 * u)),
            ink,
            -1,
        )
    if portrait:
        yb = sh - bottom // 2
        for i in range(4):
            cx = int(sw * (0.15 + 0.23 * i))
            cv2.circle(scr, (cx, yb), int(28 * u), ink, max(1, int(4 * u)), cv2.LINE_AA)
        cv2.line(
            scr,
            (sw // 2 - int(140 * u), sh - int(25 * u)),
            (sw // 2 + int(140 * u), sh - int(25 * u)),
            ink,
            max(1, int(10 * u)),
            cv2.LINE_AA,
        )
    return scr


# ---------------------------------------------------------------------------- the photo


def photo(layout, page_id: str, rng):
    import pypdfium2

    from sheetgen.scan.blank import grid_cells

    opts = _print_options(layout, page_id, rng)
    plan = _plan(opts, rng)
    pw, ph = opts["size"]
    # print resolution: a little above the camera's, at most ~330 dpi
    r = float(np.clip(plan["k"] * rng.uniform(1.1, 1.35), 5.5, 13.0))
    pdf = pypdfium2.PdfDocument(opts["pdf"])
    try:
        page = np.asarray(pdf[0].render(scale=r * 25.4 / 72).to_pil().convert("RGB")).copy()
    finally:
        pdf.close()
    white = (page.min(2) > 225).astype(np.float32)
    # the table, the paper on it (its tint, a soft shadow under its edge)
    # (the world: the whole table in view at RW px/mm; the canvas: the paper and M mm
    # round it at the print resolution, drawn over the world in the photo)
    need = np.array([[0, 0], [plan["span"][0], 0], plan["span"], [0, plan["span"][1]]], np.float32) + plan["lo"]
    back = cv2.perspectiveTransform(need[None], np.linalg.inv(plan["hmm"]))[0]
    m = M
    wlo = np.minimum(back.min(0), -m) - 10
    whi = np.maximum(back.max(0), [pw + m, ph + m]) + 10
    wh, wwid = (int((whi - wlo)[1] * RW), int((whi - wlo)[0] * RW))
    wpaper = [int(-wlo[0] * RW), int(-wlo[1] * RW), int((pw - wlo[0]) * RW), int((ph - wlo[1]) * RW)]
    world = _table((wh, wwid), rng, wpaper, RW)
    tint = np.float32(rng.choice([(252, 251, 247), (248, 248, 250), (250, 247, 238)])) / 255
    world[wpaper[1] : wpaper[3], wpaper[0] : wpaper[2]] = (255 * tint).astype(np.uint8)
    ch, cw = int((ph + 2 * m) * r), int((pw + 2 * m) * r)
    cx0, cy0 = int((-m - wlo[0]) * RW), int((-m - wlo[1]) * RW)
    crop = world[cy0 : cy0 + int((ph + 2 * m) * RW) + 1, cx0 : cx0 + int((pw + 2 * m) * RW) + 1]
    canvas = cv2.resize(crop, (cw, ch), interpolation=cv2.INTER_LINEAR)
    py0, px0 = int(m * r), int(m * r)
    hh, ww = page.shape[:2]
    canvas[py0 : py0 + hh, px0 : px0 + ww] = (page * tint).astype(np.uint8)
    plan["world"] = (world, wlo)

    sheets = [Sheet(opts["sheet"], pl, r, m) for pl in opts["places"]]
    cells = grid_cells(layout, page_id)
    quick = bool(rng.random() < 0.3)
    desc = []
    # the player's habit
    if quick:
        pen = Pen("quick", (0, 0, 0), 1, 0, 1, "quick", quick=True)
        pen.px = int(rng.integers(1, 5))
        pen.aa = bool(rng.random() < 0.6)
        pen_name = "quick"
    else:
        pen_name = str(
            rng.choice(
                ["hb", "2b", "mech", "ballpoint", "ballblack", "gel", "felt"], p=[0.25, 0.2, 0.1, 0.15, 0.1, 0.1, 0.1]
            )
        )
        colour, alpha, width, tmean = {**PENCILS, **PENS}[pen_name]
        tex = "pencil" if pen_name in PENCILS else {"ballpoint": "ball", "ballblack": "ball"}.get(pen_name, pen_name)
        pen = Pen(pen_name, colour, alpha, width * rng.uniform(0.85, 1.2), tmean, tex)
    garden_tool = "quick" if quick else str(rng.choice(["colourpencil", "feltpen"], p=[0.65, 0.35]))
    styles = ["tick", "cross", "slash", "fill", "dot"]
    habit = rng.dirichlet(np.ones(len(styles)) * 0.6)
    share = rng.uniform(0.12, 0.6)
    garden_share = rng.uniform(0.3, 0.9)  # a garden fills up in a game
    sheen = None
    if plan["lamp"] and pen_name == "2b":
        sheen = (rng.uniform(0, cw), rng.uniform(0, ch), rng.uniform(60, 140) * r, rng.uniform(0.35, 0.7))
        desc.append("lamp at a glancing angle (graphite sheen)")

    truth, kinds = {}, {}
    extra: dict = {}
    all_rects = [[(f, rect) for f, (_, rect) in sh.boxes.items()] for sh in sheets]
    for field, (box, _) in sheets[0].boxes.items():
        garden = field in cells
        if box.kind == "write" and not garden:
            continue
        marked = bool(rng.random() < (garden_share if garden else share))
        words = []
        if garden:
            letter = str(rng.choice(["C", "S", "T"]))
            truth[field] = letter if marked else ""
            if quick:
                mpen = pen.copy(colour=QUICK[letter])
            elif garden_tool == "colourpencil":
                mpen = Pen("colourpencil", COLOUR_PENCIL[letter], 0.85, rng.uniform(0.5, 0.8), 0.7, "colour")
            else:
                mpen = Pen("feltpen", COLOUR_FELT[letter], 0.85, rng.uniform(0.8, 1.4), 1.0, "felt")
            style = str(rng.choice(["letter", "hatch", "scribble", "drawing"], p=[0.3, 0.3, 0.15, 0.25]))
            pname = "quick" if quick else garden_tool
        else:
            truth[field] = marked
            letter = None
            mpen = pen
            pname = pen_name
            if box.kind == "round":
                style = (
                    "circle"
                    if rng.random() < (0.8 if box.stroke is None else 0.5)
                    else str(rng.choice(styles, p=habit))
                )
            else:
                style = str(rng.choice(styles, p=habit))
        light = marked and bool(rng.random() < 0.15)
        stray = marked and style in ("tick", "cross", "slash", "circle") and bool(rng.random() < 0.15)
        if light:
            words.append("+light")
            if mpen.quick:
                if garden:
                    mpen = mpen.copy(colour=tuple(int(c + (255 - c) * rng.uniform(0.3, 0.55)) for c in mpen.colour))
                else:
                    g = int(rng.integers(90, 171))
                    mpen = mpen.copy(colour=(g, g, g), px=max(1, mpen.px - 1))
            else:
                mpen = mpen.copy(alpha=mpen.alpha * rng.uniform(0.35, 0.55), width=mpen.width * rng.uniform(0.7, 0.9))
        if marked:
            need = 45.0
            firmed = False
            for _ in range(6):
                if mpen.visibility(plan, r) >= need:
                    break
                firmed = True
                if mpen.quick:
                    mpen = mpen.copy(
                        px=mpen.px + 1,
                        colour=tuple(int(c * 0.8) for c in mpen.colour) if _lum(mpen.colour) > 120 else mpen.colour,
                    )
                else:
                    mpen = mpen.copy(alpha=min(0.97, mpen.alpha * 1.3), width=mpen.width * 1.25)
            if firmed:
                words.append("+firmed")
        erased = not marked and not garden and (pen_name in PENCILS or quick) and bool(rng.random() < 0.05)
        if erased:
            words.append("+erased")
        if stray:
            words.append("+stray")
        if sheen is not None and marked and mpen.name == "2b" and not light:
            _, rect0 = sheets[0].boxes[field]
            cx0, cy0 = int(rect0[0] + rect0[2] / 2), int(rect0[1] + rect0[3] / 2)
            if _lobe(sheen, cx0, cy0, cx0 + 1, cy0 + 1)[0, 0] > 0.15 and style in ("fill", "dot"):
                words.append("+sheen")
        stray_done = False
        for si, sh in enumerate(sheets):
            _, rect = sh.boxes[field]
            if marked or erased:
                if style == "drawing":
                    fills, outline, leaves = _drawing(letter, rect, rng)
                    _draw(canvas, mpen, outline if not mpen.quick else [], rng, r, fills=fills)
                    leaf_pen = mpen.copy(colour=(0, 160, 0) if mpen.quick else LEAF)
                    if letter == "S":
                        leaf_pen = mpen.copy(colour=tuple(int(c * 0.6) for c in mpen.colour))
                    _draw(canvas, leaf_pen, leaves, rng, r)
                    continue
                amount = rng.uniform(1, 3) / (rect[2] / r) if stray else 0.0

                def fn(stray_scale, rect=rect, amount=amount, style=style, letter=letter):
                    return _shapes(style, rect, rng, letter, amount * stray_scale)

                strokes, fills, full = _safe_stray(fn, all_rects[si], field)
                stray_done |= stray and full
                if erased:
                    ghost = (
                        pen.copy(alpha=pen.alpha * rng.uniform(0.1, 0.2))
                        if not pen.quick
                        else pen.copy(colour=(int(rng.integers(215, 235)),) * 3)
                    )
                    _draw(canvas, ghost, strokes, rng, r, fills)
                    x, y, w, h = rect
                    if rng.random() < 0.4:  # not all brushed off
                        _crumbs(canvas, (x + w / 2, y + h / 2), 6 * r, rng, r, [sh], extra, many=(1, 6))
                else:
                    _draw(canvas, mpen, strokes, rng, r, fills, sheen=None if light else sheen)
        kinds[field] = f"{pname}/{style if (marked or erased) else 'empty'}" + "".join(" " + w for w in words)
    # numbers in the write boxes, a name: not read, but players write them
    wpen = pen if not pen.quick else pen.copy(colour=(0, 0, 0))
    for sh in sheets:
        for field, (box, rect) in sh.boxes.items():
            if box.kind == "write" and field not in cells and rng.random() < 0.5:
                text = (
                    str(int(rng.integers(0, 60)))
                    if rect[2] < 30 * r * sh.s
                    else str(rng.choice(["Ana", "Tom", "Lea", "Max"]))
                )
                _digits(canvas, wpen, _inner(rect, 0.12), rng, r, text)
    # graphite dust: the side of the hand dragged through the pencil
    if pen_name in PENCILS and rng.random() < 0.4:
        for _ in range(int(rng.integers(1, 4))):
            cx, cy = rng.uniform(0.1, 0.9) * pw, rng.uniform(0.1, 0.9) * ph
            x0, y0 = int((m + cx) * r), int((m + cy) * r)
            sz = int(rng.uniform(12, 30) * r)
            blob = np.zeros((sz, sz), np.float32)
            cv2.ellipse(blob, (sz // 2, sz // 2), (sz // 2 - 2, sz // 6), rng.uniform(0, 180), 0, 360, 1.0, -1)
            blob = cv2.GaussianBlur(blob, (0, 0), sz / 8) * rng.uniform(0.08, 0.16)
            blob *= np.clip(0.6 + 0.5 * _grain(blob.shape, rng, 1.0), 0, 1)
            if y0 + sz < ch and x0 + sz < cw:
                _lay_ink(canvas, x0, y0, blob, (70, 70, 78), 1.0)
                for sh in sheets:
                    for f, (_, rect) in sh.boxes.items():
                        if f in truth and _inside((rect[0] + rect[2] / 2, rect[1] + rect[3] / 2), (x0, y0, sz, sz)):
                            extra.setdefault(f, set()).add("+dust")
    notes_pen = pen if not pen.quick else pen.copy(colour=(60, 60, 60), px=max(2, pen.px))
    n_notes = _notes(canvas, white, sheets, notes_pen, rng, r, m, opts)
    placed = _place_objects(canvas, sheets, opts, rng, r, m, extra, plan["world"])
    for f, words in extra.items():
        if f in kinds:
            kinds[f] += "".join(" " + w for w in sorted(words) if w not in kinds[f])
    head = (
        f"{opts['paper']} x{opts['per_page']}{' grey' if opts['grey'] else ''} {opts['lang']}"
        + (f" {opts['players']}p" if opts["players"] else "")
        + (f" ({'; '.join(opts['notes'])})" if opts["notes"] else "")
        + f"; {'quick ' if quick else ''}{pen_name}, garden {garden_tool}, {share:.0%} marked"
        + (f", {n_notes} notes" if n_notes else "")
        + (f", on it: {' '.join(placed)}" if placed else "")
        + f"; tilt {plan['tilt']:.0f} deg, {plan['sheet_dpi']:.0f} dpi on the sheet, blur {plan['blur']:.1f}"
    )
    img = _capture(canvas, plan, r, m, rng, desc)
    kinds["_photo"] = head + "; " + "; ".join(desc) + f"; {img.shape[1]}x{img.shape[0]}"
    return img, truth, kinds
