"""Sheets marked the way a game leaves them: the rules' order, one habit a player, early to full.

Written apart from the reader's tuning and the other generators' marking, from the feature's
specification, the games' rules (the French rule sheets) and how people play and photograph.
Not a uniform random share of boxes but the state a real game leaves. Each photo is one
moment of a game: early (20%: 1-10 marks, 1-3 in 40% of them), mid game (30%: 30-65% of the
way to the end), end of game (30%: where the rules stop it) or everything done (20%: 85-100%
of the sheet's boxes, half of those 95-100%; or one or two sections done to the end while the
others stay as the game left them, one maybe empty). The order follows the rules: Harvest
Dice round by round (one to three dice a player, each planted in the garden - the first of a
kind anywhere in the die's column, the next beside one of their kind - or fed to the pig as
many boxes as the die shows, in order; the shared die checks the next box of a market; the
game ends when the garden, the pig or a market is full, the round finished; the pig's bonus
circles checked once their row is full); Imperial Settlers' empire tracks checked from the
left, the fields of a bridge only once its section is built; the village's buildings box by
box in any order, the advanced colony ladder's values circled in order; Glassworks boards
copied player by player (or all along), each colour's column filled from the bottom, the game
ending when someone has 17 pieces, the winner's box checked. So marks form runs, sections
differ in density, an empty section sits by a full one. Each player has a habit kept over
their sheet, with natural variation: crosses (some big, running up to 2 mm over the border,
never into a neighbouring box's inner part), solid fills, ticks (drawn fast, tailing off
thin), small dots, short slashes, small ticks in one corner; some circle the round boxes;
marks off-centre the way that hand places them. One pen a player: HB, 2B or mechanical pencil
(graphite on the paper's tooth, pressure), blue or black ballpoint (with skips), gel, felt
tip; some sheets started in pencil and finished in pen (+mixed). Glassworks boards: each
player's own habit, or one scorer's. Garden cells: hatched or scribbled in orange, green or
red colour pencil or felt pen, a grey pencil letter C/S/T, or a drawn carrot (with green
leaves), tomato (green stalk) or frilly salad. Write boxes get a name, the rounds played and,
at the end, the scores (Hershey handwriting in the player's pen). Truth is what a careful
reader says: no erased, hidden or half-made marks. Printing and photo stay ordinary: A4 (or
Letter, 25%) as rendered, white or slightly off-white paper, on a wood, light or dark table
with the paper's soft shadow; a phone above it: tilt up to 15 degrees, any roll, 120-300 dpi
on the sheet, under 12 MP, a gentle light slope and spot, vignetting, white balance, mild
blur and noise, JPEG 70-92. Kinds: "pen/style +moment" (+early, +mid, +end, +full) with
+overshoot, +tail, +corner, +mixed.

`photo(layout, page_id, rng)` gives (img, truth, kinds).
"""

from __future__ import annotations

import math
import re

import cv2
import numpy as np

from bench.photos.pages import render
from sheetgen.layout.scanmarks import reserved
from sheetgen.render.pdf import pdf_bytes, placement
from sheetgen.scan.blank import grid_cells

SS = 3  # supersampling of the strokes over the working raster
INSET = {"check": 0.45, "round": 0.4}  # mm from a box's rectangle to its printed border
NAMES = ["Lea", "Tom", "Marie", "Hugo", "Sam", "Ines", "Paul", "Zoe", "Max", "Anna", "Jules", "Nina", "Papa", "Mamie"]

# ---------------------------------------------------------------- pens


class Pen:
    """A writing tool: kind (pencil, cpencil, ballpoint, gel, felt), stroke width (mm), ink colour
    (0-1 RGB, what a full layer leaves on white), darkness (the most a stroke covers) and name."""

    def __init__(self, name, kind, width, rgb, dark):
        self.name, self.kind, self.width, self.rgb, self.dark = name, kind, width, np.array(rgb, np.float32), dark


def _pen(rng, kind=None) -> Pen:
    kind = kind or rng.choice(["hb", "2b", "mech", "ballpoint", "felt", "gel"], p=[0.24, 0.16, 0.12, 0.27, 0.12, 0.09])
    if kind == "hb":
        return Pen("hb", "pencil", rng.uniform(0.42, 0.6), (0.33, 0.33, 0.36), rng.uniform(0.62, 0.78))
    if kind == "2b":
        return Pen("2b", "pencil", rng.uniform(0.5, 0.75), (0.24, 0.24, 0.27), rng.uniform(0.72, 0.88))
    if kind == "mech":
        return Pen("mech", "pencil", rng.uniform(0.3, 0.4), (0.3, 0.3, 0.33), rng.uniform(0.62, 0.76))
    if kind == "ballpoint":
        blue = rng.random() < 0.6
        rgb = (0.12, 0.2, 0.58) if blue else (0.14, 0.14, 0.18)
        return Pen("ballpoint-blue" if blue else "ballpoint-black", "ballpoint", rng.uniform(0.3, 0.42), rgb, 0.9)
    if kind == "gel":
        return Pen("gel", "gel", rng.uniform(0.4, 0.55), (0.08, 0.08, 0.1), 0.95)
    colour = rng.choice(["black", "blue", "purple"], p=[0.6, 0.3, 0.1])
    rgb = {"black": (0.1, 0.1, 0.12), "blue": (0.08, 0.25, 0.7), "purple": (0.35, 0.12, 0.5)}[colour]
    return Pen(f"felt-{colour}", "felt", rng.uniform(0.7, 1.05), rgb, 0.93)


VEG_CPENCIL = {"C": (0.93, 0.48, 0.12), "S": (0.3, 0.62, 0.22), "T": (0.84, 0.16, 0.16)}
VEG_FELT = {"C": (0.99, 0.45, 0.04), "S": (0.1, 0.62, 0.22), "T": (0.9, 0.08, 0.14)}


def _veg_pen(rng, letter, felt) -> Pen:
    if felt:
        return Pen("felt-veg", "felt", rng.uniform(0.9, 1.3), VEG_FELT[letter], 0.92)
    rgb = np.clip(np.array(VEG_CPENCIL[letter]) + rng.normal(0, 0.03, 3), 0, 1)
    return Pen("cpencil", "cpencil", rng.uniform(0.7, 1.0), rgb, rng.uniform(0.72, 0.88))


# ---------------------------------------------------------------- hands (a player's habits)


class Hand:
    """A player's habit on their sheet: the mark they make, its size and where in the box it lands."""

    def __init__(self, rng):
        self.style = rng.choice(
            ["cross", "fill", "tick", "dot", "slash", "corner"], p=[0.27, 0.15, 0.24, 0.1, 0.12, 0.12]
        )
        self.circles = rng.random() < 0.4  # circles round boxes
        self.pen = _pen(rng)
        self.late_pen = None  # started in pencil, finished in pen
        self.switch = 1.0
        if self.pen.kind == "pencil" and rng.random() < 0.22:
            self.late_pen = _pen(rng, rng.choice(["ballpoint", "felt", "gel"], p=[0.6, 0.2, 0.2]))
            self.switch = rng.uniform(0.3, 0.8)
        self.size = rng.uniform(0.75, 1.1)
        self.big = rng.random() < 0.3  # big crosses over the border
        self.off = rng.normal(0, 0.15, 2)
        self.angle = rng.normal(0, 9)
        self.corner = (rng.choice([-1, 1]), rng.choice([-1, 1]))
        self.press = rng.uniform(0.75, 1.0)
        self.fast = rng.random() < 0.6
        self.garden = rng.choice(["hatch", "scribble", "letter", "drawn"], p=[0.3, 0.2, 0.2, 0.3])
        self.garden_felt = rng.random() < 0.4

    def describe(self) -> str:
        mix = f"->{self.late_pen.name}" if self.late_pen else ""
        return f"{self.style}{'+circles' if self.circles else ''} {self.pen.name}{mix}"


# ---------------------------------------------------------------- the game: what gets marked, in order


def _interleave(sections: dict, rng, weights: dict, chunks: dict, order=None) -> list:
    """One game's order of marks: sections taken in turn at random (a section's next 1-`chunk` items)."""
    pos = {k: 0 for k in sections}
    out = []
    while True:
        live = [k for k in sections if pos[k] < len(sections[k]) and (order is None or order(k, pos, out))]
        if not live:
            break
        w = np.array([weights.get(k, 1.0) for k in live])
        k = live[rng.choice(len(live), p=w / w.sum())]
        n = int(rng.integers(1, chunks.get(k, 1) + 1))
        for item in sections[k][pos[k] : pos[k] + n]:
            out.append((k, item))
        pos[k] += n
    return out


def _garden_order(rng) -> list:
    """Harvest Dice: the garden filled die by die, the first of a kind anywhere in the die's column,
    the next ones beside one of their kind; to the end (every cell)."""
    grid = {}
    out = []
    tries = 0
    while len(grid) < 18 and tries < 5000:
        tries += 1
        letter = "CST"[rng.integers(3)]
        col = int(rng.integers(1, 7))
        free = [r for r in (1, 2, 3) if (r, col) not in grid]
        have = [rc for rc, v in grid.items() if v == letter]
        if have and tries < 3000:
            free = [r for r in free if any(abs(r - a) + abs(col - b) == 1 for a, b in have)]
        if not free:
            continue
        r = int(rng.choice(free))
        grid[(r, col)] = letter
        out.append((f"garden_r{r}_c{col}", letter))
    return out


def _harvest_rounds(sections: dict, rng) -> list:
    """Harvest Dice round by round: the player's die or two planted or fed to the pig (as many
    boxes as the die shows), then the last die's market box; until every box is marked."""
    pos = {k: 0 for k in sections}
    out = []

    def take(k, n):
        for item in sections[k][pos[k] : pos[k] + n]:
            out.append((k, item))
        pos[k] = min(len(sections[k]), pos[k] + n)

    plant = rng.uniform(0.45, 0.85)  # how much this player likes the garden over the pig
    dice = int(rng.integers(1, 4))  # dice a player gets a round, with the players' count
    while any(pos[k] < len(sections[k]) for k in sections):
        for _ in range(int(rng.integers(max(1, dice - 1), dice + 1))):
            garden = pos["garden"] < len(sections["garden"])
            if garden and (rng.random() < plant or pos["pig"] >= len(sections["pig"])):
                take("garden", 1)
            else:
                take("pig", int(rng.integers(1, 7)))
        markets = [k for k in ("carrot", "salad", "tomato") if pos[k] < len(sections[k])]
        if markets:
            take(str(rng.choice(markets)), 1)
    return out


def _groups(boxes: list) -> list:
    """Boxes of one row split where a wider gap is (a track's sections, fields under a bridge)."""
    boxes = sorted(boxes, key=lambda b: b.x)
    out = [[boxes[0]]]
    for a, b in zip(boxes, boxes[1:]):
        if b.x - (a.x + a.w) > 2.0:
            out.append([])
        out[-1].append(b)
    return out


def _plan(layout, page_id, boxes, rng, moment):
    """(the ordered marks [(field, letter or None)], the write boxes {field: text}, a note)."""
    fields = {b.field: b for b in boxes}
    lid = layout.id
    derived = []
    rounds = 10
    if lid.startswith("harvest-dice"):
        pig = [f"pig_{i}" for i in range(1, 43)]
        sections = {"garden": _garden_order(rng), "pig": pig}
        for veg in ("carrot", "salad", "tomato"):
            sections[veg] = [f"market_{veg}_{i}" for i in range(1, 7) if f"market_{veg}_{i}" in fields]
        seq = _harvest_rounds(sections, rng)

        def ended(counts):
            return any(counts[k] >= len(sections[k]) for k in sections)

    elif page_id == "empire":
        tracks = {t: [f"{t}_{i}" for i in range(1, 12)] for t in ("walls", "houses", "granaries", "bridges")}
        bridge_sections = _groups([fields[f] for f in tracks["bridges"]])
        field_groups = _groups([b for b in boxes if b.field.startswith("fields_")])
        sections = dict(tracks)
        # the fields: any box of an open field (its bridge section finished), in any order
        order = []
        for g in field_groups:
            g = [b.field for b in g]
            rng.shuffle(g)
            order += g
        sections["fields"] = order
        ends = []  # bridges boxes needed before field group k opens
        for g in bridge_sections:
            ends.append(int(g[-1].field.split("_")[1]))
        group_of = {}
        for k, g in enumerate(field_groups):
            for b in g:
                group_of[b.field] = k

        def open_(k, pos, out):
            if k != "fields":
                return True
            nxt = sections["fields"][pos["fields"]]
            return pos["bridges"] >= ends[group_of[nxt]]

        weights = {"walls": 1.0, "houses": 1.0, "granaries": 0.8, "bridges": 1.2, "fields": 1.4}
        seq = _interleave(sections, rng, weights, {t: 2 for t in tracks}, order=open_)

        def ended(counts):
            return sum(counts.values()) >= ended.at

        ended.at = int(rng.integers(24, 42))
    elif page_id == "village":
        builds = {}
        for b in boxes:
            m = re.fullmatch(r"([a-z]+)_(\d)", b.field)
            if m and b.kind != "write":
                builds.setdefault(m.group(1), []).append(b.field)
        sections = {}
        for name, fs in builds.items():
            rng.shuffle(fs)
            sections[name] = fs
        colonies = {}
        for b in boxes:
            m = re.fullmatch(r"([a-z]+)_colony_(\d)", b.field)
            if m:
                colonies.setdefault(m.group(1), []).append(b.field)
        for name, fs in colonies.items():
            sections[f"colony {name}"] = sorted(fs)
        favour = {k: rng.uniform(0.4, 1.6) for k in builds}

        def later(k, pos, out):  # colonies come once a few sections are built
            return not k.startswith("colony") or len(out) > 6

        weights = {**favour, **{f"colony {n}": 0.35 for n in colonies}}
        seq = _interleave(sections, rng, weights, {k: 2 for k in builds}, order=later)

        def ended(counts):
            return sum(counts.values()) >= ended.at

        ended.at = int(rng.integers(13, 21)) + int(rng.integers(0, 5)) * bool(colonies)
    else:  # glassworks pad: each player's board copied, columns from the bottom
        players = sorted({int(m.group(1)) for f in fields if (m := re.fullmatch(r"board_p(\d+)_.*", f))})
        sections = {}
        for p in players:
            like = rng.dirichlet(np.ones(8) * 0.8)
            heights = [0] * 7
            order = []
            while len(order) < 35:
                col = int(rng.choice(8, p=like))
                if col == 7 or heights[col] >= 5:  # the 8th colour or a full column: overflow
                    if all(h >= 5 for h in heights) or rng.random() < 0.3:
                        col = int(np.argmin(heights))
                    else:
                        continue
                heights[col] += 1
                order.append(f"board_p{p}_r{heights[col]}_c{col + 1}")
            sections[f"p{p}"] = order
        if rng.random() < 0.6:  # one scorer copies the boards one after the other
            seq = [(k, f) for k in sections for f in sections[k]]
        else:
            seq = _interleave(sections, rng, {}, {k: 3 for k in sections})
        goal = {k: int(rng.integers(12, 21)) for k in sections}
        goal[rng.choice(list(sections))] = int(rng.integers(17, 23))

        def ended(counts):
            return all(counts[k] >= goal[k] for k in sections)

    total = len(seq)
    counts = {k: 0 for k in sections}
    n_end = total
    for i, (k, _) in enumerate(seq):
        counts[k] += 1
        if ended(counts):
            n_end = i + 1
            break
    if lid.startswith("harvest-dice"):
        n_end = min(total, n_end + int(rng.integers(0, 3)))  # the round is finished
    if moment == "early":
        n = int(rng.integers(1, 4)) if rng.random() < 0.4 else int(rng.integers(4, 11))
        chosen = seq[: min(n, total)]
        rounds = int(rng.integers(1, 3))
        note = f"early game, {len(chosen)} marks"
    elif moment == "mid":
        chosen = seq[: max(1, int(n_end * rng.uniform(0.3, 0.65)))]
        rounds = int(rng.integers(3, 7))
        note = f"mid game, {len(chosen)} marks"
    elif moment == "end":
        if layout.id.startswith("river") and rng.random() < 0.5:
            # copied player by player at the end: each board to its own count
            chosen = [(k, f) for k, f in seq if sections[k].index(f) < goal[k]]
        else:
            chosen = seq[:n_end]
        note = f"end of game, {len(chosen)} marks"
    else:
        if rng.random() < 0.6:
            frac = rng.uniform(0.95, 1.0) if rng.random() < 0.5 else rng.uniform(0.85, 1.0)
            chosen = seq[: max(1, round(frac * total))]
            note = f"nearly everything done, {frac:.0%} of the track boxes"
        else:  # a section or two done to the end, the others as the game left them, one maybe empty
            names = list(sections)
            full = set(rng.choice(names, size=min(len(names), int(rng.integers(1, 3))), replace=False))
            level = {
                k: (len(sections[k]) if k in full else int(len(sections[k]) * rng.uniform(0.0, 0.8))) for k in names
            }
            if len(names) > 2 and rng.random() < 0.5:
                level[rng.choice([k for k in names if k not in full])] = 0
            taken = {k: 0 for k in names}
            chosen = []
            for k, f in seq:
                if taken[k] < level[k]:
                    taken[k] += 1
                    chosen.append((k, f))
            note = f"sections done ({', '.join(sorted(full))}), others as left"
    # derived marks: the pig's bonuses used, the Glassworks winner
    marked = {f if isinstance(f, str) else f[0] for _, f in chosen}
    if lid.startswith("harvest-dice"):
        use = {"early": 0.3, "mid": 0.45, "end": 0.6, "full": 0.9}[moment]
        for row in range(1, 8):
            if all(f"pig_{i}" in marked for i in range(6 * row - 5, 6 * row + 1)) and rng.random() < use:
                derived.append(f"pig_bonus{row}")
    if lid.startswith("river") and moment in ("end", "full"):
        per = {}
        for k, _f in chosen:
            per[k] = per.get(k, 0) + 1
        if per:
            best = max(per.values())
            derived += [f"winner_{k}" for k, v in per.items() if v == best and f"winner_{k}" in fields]
    marks = [(f, None) if isinstance(f, str) else f for _, f in chosen] + [(f, None) for f in derived]
    writes = _writes(boxes, moment, rounds, marked, rng, lid)
    return marks, writes, note


def _writes(boxes, moment, rounds, marked, rng, lid) -> dict:
    """What the player wrote in the write boxes: a name, the rounds played, the scores at the end."""
    out = {}
    done = moment in ("end", "full")
    builds = {}
    for f in marked:
        m = re.fullmatch(r"([a-z]+)_(\d)", f)
        if m:
            builds[m.group(1)] = builds.get(m.group(1), 0) + 1
    for b in boxes:
        f = b.field
        if b.kind != "write" or f.startswith("garden_"):
            continue
        if "player" in f or f.startswith("names_"):
            if rng.random() < 0.7:
                out[f] = str(rng.choice(NAMES))
            continue
        m = re.search(r"rounds_r(\d)_c(\d+)$", f)
        if m:
            rnd = int(m.group(2)) - 1
            if done or rnd <= rounds:
                row = int(m.group(1))
                if f.startswith("points"):
                    out[f] = str(int(rng.integers(0, 7)))
                elif row == 1:
                    out[f] = "".join(rng.choice(list("SWFG"), size=3))
                else:
                    out[f] = str(int(rng.integers(0, 6)))
            continue
        m = re.fullmatch(r"([a-z]+)_round", f)
        if m:
            total = sum(1 for bb in boxes if re.fullmatch(rf"{m.group(1)}_\d", bb.field))
            if total and builds.get(m.group(1), 0) >= total:
                out[f] = str(int(rng.integers(2, 11)))
            continue
        if done and rng.random() < 0.85:
            out[f] = str(int(rng.integers(0, 60)))
    return out


# ---------------------------------------------------------------- strokes


def _path(ctrl, rng, wobble=0.08, step=0.1) -> np.ndarray:
    """A hand-drawn path through control points (mm): resampled every `step` mm, a smooth wobble."""
    ctrl = np.asarray(ctrl, np.float64)
    seg = np.linalg.norm(np.diff(ctrl, axis=0), axis=1)
    length = max(seg.sum(), 1e-3)
    n = max(int(length / step), 4)
    at = np.concatenate([[0], np.cumsum(seg)])
    t = np.linspace(0, length, n)
    pts = np.stack([np.interp(t, at, ctrl[:, 0]), np.interp(t, at, ctrl[:, 1])], 1)
    if wobble:
        noise = rng.normal(0, 1, (n, 2))
        k = max(3, n // 6) | 1
        noise = cv2.GaussianBlur(noise, (1, k), 0) if n > 3 else noise
        noise *= wobble / max(noise.std(), 1e-6)
        pts += noise
    return pts


class Canvas:
    """A patch of the page round one box, where a mark's strokes are drawn at SS times the working raster."""

    def __init__(self, page, x0, y0, x1, y1, scale, rng):
        h, w = page.shape[:2]
        self.page = page
        self.scale = scale  # px a mm
        self.ox, self.oy = x0, y0
        self.c0, self.r0 = max(0, int(x0 * scale)), max(0, int(y0 * scale))
        self.c1, self.r1 = min(w, int(math.ceil(x1 * scale))), min(h, int(math.ceil(y1 * scale)))
        self.rgb = page[self.r0 : self.r1, self.c0 : self.c1].astype(np.float32) / 255
        hh, ww = self.rgb.shape[:2]
        tooth = cv2.GaussianBlur(rng.normal(0, 1, (hh, ww)).astype(np.float32), (0, 0), 0.7)
        tooth += 0.5 * cv2.GaussianBlur(rng.normal(0, 1, (hh, ww)).astype(np.float32), (0, 0), 2.0)
        self.tooth = np.clip(0.5 + tooth / (3 * max(float(tooth.std()), 1e-6)), 0, 1)
        self.rng = rng

    def px(self, pts):
        return np.stack([(pts[:, 0] * self.scale - self.c0) * SS, (pts[:, 1] * self.scale - self.r0) * SS], 1)

    def stroke(self, pts, pen: Pen, press, width=None, clip=None):
        """One stroke through `pts` (mm on the sheet's paper), pressure `press` (0-1, a value or one a point)."""
        if clip is not None:
            pts = np.stack([np.clip(pts[:, 0], clip[0], clip[2]), np.clip(pts[:, 1], clip[1], clip[3])], 1)
        n = len(pts)
        press = np.broadcast_to(np.asarray(press, np.float64), (n,))
        width = pen.width if width is None else width
        widths = np.broadcast_to(np.asarray(width, np.float64), (n,)) * (0.75 + 0.25 * press)
        hh, ww = self.rgb.shape[:2]
        c = np.zeros((hh * SS, ww * SS), np.uint8)
        p = np.round(self.px(pts) * 4).astype(np.int32)
        skip = pen.kind == "ballpoint"
        gap = 0
        for i in range(n - 1):
            if skip and gap == 0 and self.rng.random() < 0.012:
                gap = int(self.rng.integers(3, 7))  # the ball skips a little
            if gap:
                gap -= 1
                continue
            th = max(1, int(round(widths[i] * self.scale * SS)))
            v = int(np.clip(press[i], 0, 1) * 255)
            cv2.line(c, tuple(p[i]), tuple(p[i + 1]), v, th, cv2.LINE_AA, shift=2)
        alpha = cv2.resize(c, (ww, hh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        self.ink(alpha, pen)

    def ink(self, alpha, pen: Pen):
        if pen.kind in ("pencil", "cpencil"):
            k = 0.75 if pen.kind == "pencil" else 0.95
            alpha = np.clip(alpha - k * self.tooth * (1.12 - alpha), 0, 1)
        elif pen.kind == "felt":
            alpha = cv2.GaussianBlur(alpha, (0, 0), 0.4) * 1.05
        a = np.clip(alpha * pen.dark, 0, 1)[..., None]
        self.rgb *= 1 - a * (1 - pen.rgb)

    def text(self, s, pen, box, rng):
        """Handwriting (Hershey) fitted into a write box."""
        hh, ww = self.rgb.shape[:2]
        c = np.zeros((hh * SS, ww * SS), np.uint8)
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if s.isalpha() and len(s) > 3 else cv2.FONT_HERSHEY_SIMPLEX
        th = max(1, int(round(pen.width * 0.9 * self.scale * SS)))
        (tw, tht), _ = cv2.getTextSize(s, font, 1.0, th)
        want_h = box.h * rng.uniform(0.4, 0.6) * self.scale * SS
        fs = want_h / max(tht, 1)
        fs = min(fs, box.w * 0.8 * self.scale * SS / max(tw, 1))
        (tw, tht), _ = cv2.getTextSize(s, font, fs, th)
        cx = (box.x + box.w / 2) * self.scale * SS - self.c0 * SS + rng.normal(0, 0.05) * box.w * self.scale * SS
        cy = (box.y + box.h / 2) * self.scale * SS - self.r0 * SS
        org = (int(cx - tw / 2), int(cy + tht / 2))
        cv2.putText(c, s, org, font, fs, int(255 * rng.uniform(0.85, 1)), th, cv2.LINE_AA)
        alpha = cv2.resize(c, (ww, hh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        self.ink(alpha, pen)

    def done(self):
        self.page[self.r0 : self.r1, self.c0 : self.c1] = np.clip(self.rgb * 255 + 0.5, 0, 255).astype(np.uint8)


def _rot(pts, deg, centre):
    a = math.radians(deg)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (np.asarray(pts) @ r.T) + centre


def _profile(n, hand, rng, tail=True):
    """Pressure along a stroke: a short landing, then firm, a fast stroke tailing off."""
    t = np.linspace(0, 1, n)
    p = np.minimum(1, 0.55 + t / 0.08 * 0.45) * hand.press * rng.uniform(0.9, 1.05)
    if tail and hand.fast:
        start = rng.uniform(0.55, 0.8)
        p *= np.where(t > start, 1 - (t - start) / (1 - start) * rng.uniform(0.45, 0.7), 1)
    return np.clip(p, 0.2, 1)


def _hatch(cx, cy, hw, hh, angle, spacing, rng, round_=False):
    """A zigzag filling a rectangle (or the circle in it) back and forth."""
    a = math.radians(angle)
    d = np.array([math.cos(a), math.sin(a)])
    nrm = np.array([-d[1], d[0]])
    reach = math.hypot(hw, hh)
    pts = []
    k = -reach
    flip = False
    while k <= reach:
        # the chord of the line {nrm . p = k} in the rectangle/circle
        ts = np.linspace(-reach, reach, 80)
        line = ts[:, None] * d + k * nrm
        if round_:
            inside = np.hypot(line[:, 0] / hw, line[:, 1] / hh) <= 1
        else:
            inside = (np.abs(line[:, 0]) <= hw) & (np.abs(line[:, 1]) <= hh)
        if inside.any():
            seg = line[inside]
            e0, e1 = seg[0], seg[-1]
            if flip:
                e0, e1 = e1, e0
            pts += [e0 + rng.normal(0, 0.08, 2), e1 + rng.normal(0, 0.08, 2)]
            flip = not flip
        k += spacing * rng.uniform(0.85, 1.15)
    if len(pts) < 2:
        return None
    return np.array(pts) + [cx, cy]


def _allowed(box, others) -> tuple:
    """The rectangle (mm) a box's mark may reach: up to 2 mm over its border, never into a
    neighbouring box's inner part (nor the scan marks)."""
    x0, y0, x1, y1 = box.x, box.y, box.x + box.w, box.y + box.h
    m = [2.0, 2.0, 2.0, 2.0]  # left, top, right, bottom
    for n in others:
        nx0, ny0, nx1, ny1, ins = n
        if (nx0, ny0, nx1, ny1) == (x0, y0, x1, y1):
            continue
        ov_y = min(y1, ny1) - max(y0, ny0) > -2.0
        ov_x = min(x1, nx1) - max(x0, nx0) > -2.0
        if ov_y and nx0 >= x1 - 0.01:
            m[2] = min(m[2], nx0 - x1 + ins - 0.35)
        if ov_y and nx1 <= x0 + 0.01:
            m[0] = min(m[0], x0 - nx1 + ins - 0.35)
        if ov_x and ny0 >= y1 - 0.01:
            m[3] = min(m[3], ny0 - y1 + ins - 0.35)
        if ov_x and ny1 <= y0 + 0.01:
            m[1] = min(m[1], y0 - ny1 + ins - 0.35)
    m = [max(0.12, v) for v in m]
    return (x0 - m[0], y0 - m[1], x1 + m[2], y1 + m[3])


# ---------------------------------------------------------------- marks


def _mark(cv: Canvas, box, at, hand: Hand, pen: Pen, clip, rng) -> tuple[str, list]:
    """One box marked in the hand's habit; (the style, hard cases)."""
    cx, cy = at[0] + box.x + box.w / 2, at[1] + box.y + box.h / 2
    inset = INSET.get(box.kind, 0.0) if (box.stroke or box.fill) else 0.0
    a = min(box.w, box.h) / 2 - inset - 0.35  # half the inner part
    hard = []
    style = hand.style
    if box.kind == "round" and (hand.circles or not (box.stroke or box.fill)):
        style = "circle"
    size = hand.size * rng.uniform(0.9, 1.08)
    off = (hand.off + rng.normal(0, 0.09, 2)) * a * 0.6
    if style == "circle":
        r = min(box.w, box.h) / 2 - (0.4 if box.stroke else 0.0) + rng.uniform(0.35, 1.1)
        start = rng.uniform(0, 2 * math.pi)
        sweep = 2 * math.pi * rng.uniform(1.02, 1.15)
        t = np.linspace(start, start + sweep, 60)
        asp = rng.uniform(0.88, 1.1)
        ctrl = np.stack([r * np.cos(t), r * asp * np.sin(t)], 1) + [cx, cy] + off * 0.3
        pts = _path(ctrl, rng, 0.07)
        cv.stroke(pts, pen, _profile(len(pts), hand, rng, tail=False), clip=clip)
        return "circle", hard
    if style == "corner":
        s = a * rng.uniform(0.38, 0.5)
        c = np.array([cx, cy]) + np.array(hand.corner) * a * 0.48 + rng.normal(0, 0.12, 2)
        hard.append("+corner")
        kind = "tick" if hand.pen.kind != "felt" else "dot"
        return _small(cv, kind, c, s, hand, pen, clip, rng), hard
    if style == "cross":
        s = a * size * (rng.uniform(1.12, 1.4) if hand.big else rng.uniform(0.8, 1.0))
        if hand.big:
            hard.append("+overshoot")
        c = np.array([cx, cy]) + off
        ang = hand.angle + rng.normal(0, 5)
        for sign in (1, -1):
            e = np.array([[-s, -s * sign], [s, s * sign]]) * [1, rng.uniform(0.85, 1.05)]
            if rng.random() < 0.3:
                e = e[::-1]
            mid = e.mean(0) + rng.normal(0, 0.08 * s, 2)
            pts = _path(_rot([e[0], mid, e[1]], ang, c), rng, 0.05)
            cv.stroke(pts, pen, _profile(len(pts), hand, rng), clip=clip)
        return "cross", hard
    if style == "tick":
        s = a * size * rng.uniform(0.85, 1.05)
        c = np.array([cx, cy]) + off
        ctrl = np.array([[-0.6, -0.05], [-0.15, 0.55], [0.7, -0.75]]) * s
        ctrl[2] += rng.normal(0, 0.08, 2) * s
        pts = _path(_rot(ctrl, hand.angle + rng.normal(0, 6), c), rng, 0.05)
        p = _profile(len(pts), hand, rng)
        w = pen.width * np.where(np.linspace(0, 1, len(pts)) > 0.7, np.linspace(1.3, 0.2, len(pts)), 1)
        w = np.clip(w, pen.width * 0.35, pen.width)
        cv.stroke(pts, pen, p, width=w, clip=clip)
        if hand.fast:
            hard.append("+tail")
        return "tick", hard
    if style == "slash":
        s = a * size * rng.uniform(0.6, 1.0)
        c = np.array([cx, cy]) + off
        e = np.array([[-0.45, 0.75], [0.45, -0.75]]) * s
        pts = _path(_rot(e, hand.angle + rng.normal(0, 7), c), rng, 0.04)
        cv.stroke(pts, pen, _profile(len(pts), hand, rng), clip=clip)
        return "slash", hard
    if style == "dot":
        c = np.array([cx, cy]) + off
        return _small(cv, "dot", c, a * rng.uniform(0.25, 0.4), hand, pen, clip, rng), hard
    # fill: hatched solid, the inner part covered
    hw = a * rng.uniform(0.92, 1.12)
    spacing = pen.width * (rng.uniform(0.6, 0.85) if pen.kind != "felt" else rng.uniform(0.7, 0.9))
    ang = rng.uniform(-60, 60)
    for _ in range(1 if pen.kind in ("felt", "gel") or rng.random() < 0.5 else 2):
        zz = _hatch(cx, cy, hw, hw, ang, spacing, rng, round_=box.kind == "round")
        if zz is not None:
            pts = _path(zz, rng, 0.03, step=0.08)
            cv.stroke(pts, pen, hand.press * rng.uniform(0.9, 1.0), clip=clip)
        ang += rng.uniform(60, 110)
    return "fill", hard


def _small(cv, kind, c, s, hand, pen, clip, rng) -> str:
    if kind == "dot":  # a pressed little spiral
        r = max(s, 0.45)
        t = np.linspace(0, 2 * math.pi * rng.uniform(2, 3.2), 50)
        rr = r * np.linspace(0.2, 1, len(t))
        pts = np.stack([rr * np.cos(t), rr * np.sin(t)], 1) + c
        cv.stroke(pts, pen, min(1.0, hand.press * 1.1), clip=clip)
        return "dot"
    ctrl = np.array([[-0.6, -0.05], [-0.15, 0.55], [0.7, -0.75]]) * s * 2
    pts = _path(_rot(ctrl, hand.angle, c), rng, 0.03)
    cv.stroke(pts, pen, _profile(len(pts), hand, rng), clip=clip)
    return "tick"


def _garden(cv: Canvas, box, at, hand: Hand, letter, clip, rng) -> str:
    """A garden cell: the vegetable hatched or scribbled in its colour, its letter in grey pencil, or drawn."""
    cx, cy = at[0] + box.x + box.w / 2, at[1] + box.y + box.h / 2
    a = min(box.w, box.h) / 2 - 0.5
    kind = hand.garden
    c = np.array([cx, cy]) + rng.normal(0, 0.25, 2)
    if kind == "letter":
        pen = hand.pen if hand.pen.kind == "pencil" else _pen(rng, "hb")
        h = a * rng.uniform(0.75, 1.15)
        w = h * 0.7
        if letter == "C":
            t = np.linspace(math.radians(-40), math.radians(-320), 30)
            strokes = [np.stack([w * np.cos(t), h * np.sin(t)], 1)]
        elif letter == "S":
            t1 = np.linspace(math.radians(-20), math.radians(-270), 20)
            t2 = np.linspace(math.radians(-90), math.radians(160), 20)
            top = np.stack([w * 0.8 * np.cos(t1), h * 0.5 * np.sin(t1)], 1) + [0, -h * 0.5]
            bot = np.stack([w * 0.85 * np.cos(t2), h * 0.5 * np.sin(t2)], 1) + [0, h * 0.5]
            strokes = [np.concatenate([top, bot])]
        else:
            strokes = [np.array([[-w, -h], [w, -h]]), np.array([[0, -h], [0, h]])]
        ang = rng.normal(0, 8)
        for s in strokes:
            pts = _path(_rot(s, ang, c), rng, 0.06)
            cv.stroke(pts, pen, _profile(len(pts), hand, rng, tail=False), clip=clip)
        return f"{pen.name}/letter"
    felt = hand.garden_felt
    pen = _veg_pen(rng, letter, felt)
    green = _veg_pen(rng, "S", felt)
    tool = "felt" if felt else "cpencil"
    if kind in ("hatch", "scribble"):
        hw = a * rng.uniform(0.78, 1.0)
        spacing = pen.width * (rng.uniform(0.7, 1.0) if kind == "scribble" else rng.uniform(0.9, 1.5))
        zz = _hatch(c[0], c[1], hw, hw * rng.uniform(0.8, 1.0), rng.uniform(-70, 70), spacing, rng)
        pts = _path(zz, rng, 0.1 if kind == "scribble" else 0.05, step=0.1)
        cv.stroke(pts, pen, rng.uniform(0.85, 1.0), clip=clip)
        return f"{tool}/{kind}"
    # drawn vegetables
    ang = rng.normal(0, 12)
    if letter == "C":
        body = np.array([[-1.0, -0.55], [1.0, -0.55], [0.1, 1.0], [-1.0, -0.55]]) * a * [0.45, 0.8]
        body = _rot(body, ang + 20, c)
        cv.stroke(_path(body, rng, 0.05), pen, 0.95, clip=clip)
        zz = _hatch(c[0], c[1] + a * 0.05, a * 0.3, a * 0.45, rng.uniform(-30, 30), pen.width * 1.1, rng)
        cv.stroke(_path(zz, rng, 0.04), pen, 0.9, clip=clip)
        for dx in (-0.25, 0.0, 0.25):
            leaf = np.array([[dx * 0.5, -0.5], [dx * 1.2, -0.95]]) * a
            cv.stroke(_path(_rot(leaf, ang + 20, c), rng, 0.03), green, 0.9, clip=clip)
        return f"{tool}/drawn"
    if letter == "T":
        r = a * rng.uniform(0.62, 0.78)
        t = np.linspace(0, 2 * math.pi * 1.05, 50)
        ring = np.stack([r * np.cos(t), r * 0.92 * np.sin(t)], 1) + c + [0, a * 0.1]
        cv.stroke(_path(ring, rng, 0.05), pen, 0.95, clip=clip)
        zz = _hatch(c[0], c[1] + a * 0.1, r * 0.9, r * 0.85, rng.uniform(-60, 60), pen.width * 1.1, rng, round_=True)
        cv.stroke(_path(zz, rng, 0.04), pen, 0.9, clip=clip)
        top = c + [0, a * 0.1 - r * 0.92]
        for k in range(4):
            e = _rot([[0, 0], [r * 0.35, 0]], 180 + 45 * k - 22, top)
            cv.stroke(_path(e, rng, 0.02), green, 0.9, clip=clip)
        return f"{tool}/drawn"
    r = a * rng.uniform(0.7, 0.85)  # a frilly salad
    t = np.linspace(0, 2 * math.pi * 1.05, 120)
    rr = r * (1 + 0.1 * np.sin(9 * t + rng.uniform(0, 6)))
    cv.stroke(_path(np.stack([rr * np.cos(t), rr * np.sin(t)], 1) + c, rng, 0.04), pen, 0.95, clip=clip)
    zz = _hatch(c[0], c[1], r * 0.75, r * 0.75, rng.uniform(-60, 60), pen.width * 1.2, rng, round_=True)
    cv.stroke(_path(zz, rng, 0.05), pen, 0.85, clip=clip)
    return f"{tool}/drawn"


# ---------------------------------------------------------------- the page and the photo

_PAGES: dict = {}


def _page(layout, page_id, lang, players, paper):
    key = (layout.id, layout.digest, page_id, lang, players, paper)
    if key not in _PAGES:
        doc = layout.document(lang, players, [page_id])
        page = doc.pages[0]
        _PAGES[key] = (pdf_bytes(doc, paper=paper), placement(page, paper), page.boxes(), (page.width, page.height))
        while len(_PAGES) > 12:
            _PAGES.pop(next(iter(_PAGES)))
    return _PAGES[key]


PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def _camera(rng, paper):
    """A homography from paper mm to photo pixels and the photo size: a phone above the table."""
    pw, ph = PAPER_MM[paper]
    dpi = rng.uniform(120, 300)
    roll = rng.uniform(0, 360) if rng.random() < 0.5 else rng.choice([0, 90, 180, 270]) + rng.normal(0, 6)
    tilt = rng.uniform(0, 15)
    tdir = rng.uniform(0, 2 * math.pi)
    z = rng.uniform(350, 550)
    for _ in range(8):
        f = dpi / 25.4 * z
        ax, ay = math.radians(tilt) * math.cos(tdir), math.radians(tilt) * math.sin(tdir)
        rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
        ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
        g = math.radians(roll)
        rz = np.array([[math.cos(g), -math.sin(g), 0], [math.sin(g), math.cos(g), 0], [0, 0, 1]])
        r = rx @ ry @ rz
        corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
        cam = (r @ np.c_[corners - [pw / 2, ph / 2], np.zeros(4)].T).T + [0, 0, z]
        uv = f * cam[:, :2] / cam[:, 2:]
        lo, hi = uv.min(0), uv.max(0)
        need = (hi - lo) * rng.uniform(1.08, 1.3)
        w, h = need
        if w > h:
            w, h = max(w, h * 4 / 3), max(h, w * 3 / 4)
        else:
            w, h = max(w, h * 3 / 4), max(h, w * 4 / 3)
        if w * h <= 11.5e6:
            break
        dpi *= math.sqrt(11.0e6 / (w * h))
    w, h = int(w) // 2 * 2, int(h) // 2 * 2
    shift = (np.array([w, h]) - (hi - lo)) * rng.uniform(0.3, 0.7, 2) - lo
    dst = (uv + shift).astype(np.float32)
    return dst, (w, h), dpi, roll, tilt


def _table(rng, w, h):
    kind = rng.choice(["wood", "desk", "dark"], p=[0.45, 0.35, 0.2])
    sw, sh = max(8, w // 8), max(8, h // 8)
    if kind == "wood":
        base = np.array(rng.choice([[150, 105, 65], [185, 140, 95], [120, 80, 50]]), np.float32)
        across = rng.random() < 0.5  # the grain along the frame's rows or columns
        gh, gw = (sh, sw) if across else (sw, sh)
        n = rng.normal(0, 1, (gh, gw)).astype(np.float32)
        streak = cv2.GaussianBlur(n, (0, 0), sigmaX=gw / 6, sigmaY=0.8)
        streak /= max(float(streak.std()), 1e-6)
        yy = np.arange(gh, dtype=np.float32)[:, None]
        warp = cv2.GaussianBlur(rng.normal(0, 1, (gh, gw)).astype(np.float32), (0, 0), gw / 10) * 60
        rings = np.sin(yy / gh * rng.uniform(25, 60) + warp) * 0.5 + 0.5
        grain = 0.6 * rings + 0.4 * np.clip(0.5 + 0.25 * streak, 0, 1)
        if not across:
            grain = grain.T
        t = base[None, None] * (0.8 + 0.3 * grain[..., None])
    else:
        base = np.array([200, 198, 192] if kind == "desk" else [60, 62, 68], np.float32) * rng.uniform(0.9, 1.05, 3)
        n = cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 10)
        t = base[None, None] * (1 + 0.05 * n[..., None] / max(float(n.std()), 1e-6))
    return cv2.resize(t, (w, h), interpolation=cv2.INTER_LINEAR), kind


def _photograph(page, paper, rng, work_dpi):
    """The marked page (uint8, working dpi) as a phone photo of it on a table: RGB uint8, a note."""
    dst, (w, h), dpi, roll, tilt = _camera(rng, paper)
    pw, ph = PAPER_MM[paper]
    # down to a little over the photo's resolution first (the warp then samples it plainly)
    k = min(1.0, dpi * 1.3 / work_dpi)
    src = page
    if k < 1.0:
        src = cv2.resize(page, (round(page.shape[1] * k), round(page.shape[0] * k)), interpolation=cv2.INTER_AREA)
    sh, sw = src.shape[:2]
    srcq = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    hom = cv2.getPerspectiveTransform(srcq, dst)
    tint = np.array([1, 1, 1], np.float32) if rng.random() < 0.55 else rng.uniform([0.96, 0.95, 0.88], [1, 0.99, 0.96])
    paper_img = cv2.warpPerspective(src, hom, (w, h), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    mask = cv2.warpPerspective(np.full((sh, sw), 255, np.uint8), hom, (w, h), flags=cv2.INTER_LINEAR)
    table, tkind = _table(rng, w, h)
    alpha = mask.astype(np.float32) / 255
    shadow = cv2.GaussianBlur(alpha, (0, 0), max(3.0, w / 300))
    off = np.float32([[1, 0, rng.uniform(-1, 1) * w / 250], [0, 1, rng.uniform(0.5, 1) * w / 250]])
    shadow = cv2.warpAffine(shadow, off, (w, h))
    table *= (1 - 0.35 * shadow)[..., None]
    img = paper_img.astype(np.float32) * tint
    img *= alpha[..., None]
    img += table * (1 - alpha[..., None])
    del table, paper_img
    # light: a gentle slope, a soft brighter spot, vignetting; the camera's white balance
    sw_, sh_ = 64, 48
    yy, xx = np.mgrid[0:sh_, 0:sw_].astype(np.float32)
    xx, yy = xx / sw_ - 0.5, yy / sh_ - 0.5
    gx, gy = rng.normal(0, 0.18, 2)
    light = 1 + gx * xx + gy * yy
    bx, by = rng.uniform(-0.5, 0.5, 2)
    light += rng.uniform(0, 0.1) * np.exp(-((xx - bx) ** 2 + (yy - by) ** 2) / 0.08)
    light *= 1 - rng.uniform(0.05, 0.18) * (xx**2 + yy**2) * 2
    light *= rng.uniform(0.86, 1.0) / light.max()
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    img *= light[..., None]
    img *= rng.uniform(0.95, 1.04, 3).astype(np.float32)
    sigma = rng.uniform(0.35, 1.1)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    noise = rng.uniform(1.2, 3.5)
    img += rng.normal(0, noise, (h, w, 1)).astype(np.float32) + rng.normal(0, noise * 0.4, (h, w, 3)).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(70, 93))
    ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
    note = (
        f"{paper} on a {tkind} table, {dpi:.0f} dpi, roll {roll % 360:.0f}, tilt {tilt:.1f}, "
        f"blur {sigma:.2f}, noise {noise:.1f}, jpeg {q}, {w}x{h}"
    )
    return img, note


def photo(layout, page_id, rng):
    """A phone photo of a sheet as a game left it: (RGB uint8, truth, kinds)."""
    lang = "fr" if rng.random() < 0.5 else "en"
    pl = layout.players
    players = int(rng.integers(pl["min"], pl["max"] + 1)) if pl["min"] < pl["max"] else None
    paper = "letter" if rng.random() < 0.25 else "a4"
    pdf, at, boxes, _size = _page(layout, page_id, lang, players, paper)
    grid = grid_cells(layout, page_id)
    moment = str(rng.choice(["early", "mid", "end", "full"], p=[0.2, 0.3, 0.3, 0.2]))
    marks, writes, note = _plan(layout, page_id, boxes, rng, moment)

    truth, kinds = {}, {}
    for b in boxes:
        if b.field in grid:
            truth[b.field] = ""
        elif b.kind != "write":
            truth[b.field] = False
        else:
            continue
        kinds[b.field] = f"none/empty +{moment}"

    work = int(np.clip(rng.uniform(260, 360), 220, 400))
    page = render(pdf, work).copy()
    scale = work / 25.4
    left, top = at.left, at.top
    by_field = {b.field: b for b in boxes}
    others = [(b.x, b.y, b.x + b.w, b.y + b.h, INSET.get(b.kind, 0.0) if (b.stroke or b.fill) else 0.0) for b in boxes]
    others += [(x, y, x + w, y + h, 0.0) for _, x, y, w, h in reserved(*_size)]

    hands = {}
    one_scorer = rng.random() < 0.4

    def hand_of(field):
        m = re.match(r"(?:board|winner|names)_p(\d+)", field)
        key = m.group(1) if (m and layout.id.startswith("river") and not one_scorer) else "0"
        if key not in hands:
            hands[key] = Hand(rng)
        return hands[key]

    per_hand = {}
    for f, _ in marks:
        per_hand.setdefault(hand_of(f), []).append(f)
    for f, letter in marks:
        b = by_field[f]
        hand = hand_of(f)
        order = per_hand[hand].index(f) / max(1, len(per_hand[hand]))
        pen = hand.late_pen if (hand.late_pen and order >= hand.switch) else hand.pen
        x0, y0, x1, y1 = _allowed(b, others)
        clip = (left + x0, top + y0, left + x1, top + y1)
        cv = Canvas(page, left + x0 - 0.5, top + y0 - 0.5, left + x1 + 0.5, top + y1 + 0.5, scale, rng)
        if f in grid:
            kind = _garden(cv, b, (left, top), hand, letter, clip, rng)
            truth[f] = letter
            kinds[f] = f"{kind} +{moment}"
        else:
            style, hard = _mark(cv, b, (left, top), hand, pen, clip, rng)
            truth[f] = True
            if hand.late_pen:
                hard.append("+mixed")
            kinds[f] = " ".join([f"{pen.name}/{style}", f"+{moment}", *hard])
        cv.done()
    writer = hand_of("0")
    for f, text in writes.items():
        b = by_field[f]
        hand = hand_of(f) if layout.id.startswith("river") else writer
        pen = hand.late_pen or hand.pen
        cv = Canvas(page, left + b.x, top + b.y, left + b.x + b.w, top + b.y + b.h, scale, rng)
        cv.text(text, pen, type("B", (), dict(x=left + b.x, y=top + b.y, w=b.w, h=b.h))(), rng)
        cv.done()
    img, pnote = _photograph(page, paper, rng, work)
    habits = "; ".join(h.describe() for h in hands.values()) or "no marks"
    kinds["_photo"] = f"{layout.id}/{page_id} {lang}: {note}; hands: {habits}; {pnote}"
    return img, truth, kinds
