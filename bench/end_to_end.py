"""End to end for `sheetgen scan` then `sheetgen score`: a played game, photographed, scanned, scored.

`python -m bench.scan` checks box by box; this checks the whole chain a table goes through: a
game played to its end by the rules (the truth), each player's sheet rendered by the library
and marked plainly (a dark pencil cross, tick or fill well inside each marked box, the Harvest
Dice garden in solid orange / green / red), a mild phone photo of each sheet (small rotation
and perspective, 200-250 dpi, slight blur and noise, JPEG 85) named the documented way
(alice.jpg; alice-empire.jpg with alice-village.jpg; a Glassworks pad is one photo for the
table), or for one game in four all sheets as the pages of one PDF in player order (empire then
village for Imperial Settlers); then `sheetgen scan FILES -o game.yaml [--layout VARIANT]`, the
handwritten fields (favours, development, overflow) filled in the written YAML with the game's
values, and `sheetgen score game.yaml --format json`.

The same game is also typed by hand into a record from the truth, with this file's own mapping
from the box fields and docs/games.md (not from sheetgen/scan/record.py nor sheetgen/scoring/),
scored the same way, and worked out a third time by this file's own small scorers, written from
the seeds and /work/shared/DESIGN.md (Harvest Dice, Imperial Settlers, Glassworks). A game is
right when the scanned record equals the typed one field by field, and the three totals and
winner lists agree. Layouts in turn: harvest-dice-normal, harvest-dice-advanced,
imperial-settlers, imperial-settlers-advanced, river-valley-glassworks, and the variants
docs/examples/harvest-dice-big-garden.yaml, imperial-settlers-rich-village.yaml,
glassworks-six-rows.yaml. Game g draws from np.random.default_rng([seed, g]). With --errors it
also runs five error paths end to end and prints their exit codes and messages.

Run: python -m bench.end_to_end --games 12 --seed 1 --verbose
     (--keep DIR keeps each game's photos, records and scores; --errors adds the error paths)

A whole run (not --only) appends its totals to bench/results.jsonl (--results PATH for another
file, --results '' for none).
"""

from __future__ import annotations

import argparse
import copy
import json
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
import yaml
from click.testing import CliRunner
from PIL import Image

from bench import results
from bench.photos.pages import page_pdf, render
from sheetgen.cli import cli
from sheetgen.games import load_layout

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "docs" / "examples"
LAYOUTS = [
    "harvest-dice-normal",
    "harvest-dice-advanced",
    "imperial-settlers",
    "imperial-settlers-advanced",
    "river-valley-glassworks",
    str(EX / "harvest-dice-big-garden.yaml"),
    str(EX / "imperial-settlers-rich-village.yaml"),
    str(EX / "glassworks-six-rows.yaml"),
]
NAMES = ["alice", "bob", "chloe", "dan"]
VEG = {"C": "carrot", "S": "salad", "T": "tomato"}
VEG_RGB = {"C": (240, 120, 20), "S": (40, 160, 50), "T": (215, 30, 30)}

# ----------------------------------------------------------------- the rules' numbers
# Typed from the seeds, DESIGN.md ("House defaults") and docs/variants.md, never read from
# sheetgen: the hand-worked totals are a check on the layouts and the scorers.
HD_PIG_ROWS = {
    "default": [1, 3, 6, 10, 15, 21, 28],
    "harvest-dice-big-garden": [2, 4, 7, 11, 16, 22, 30],
}
HD_ROW_VALUE = 5
HD_MAJORITY = 5
IS_SECTIONS = [1, 2, 2, 3, 3]  # boxes per section, every construction track
IS_TRACK_VALUES = {
    "walls": [1, 3, 6, 10, 15],
    "houses": [1, 3, 6, 10, 15],
    "granaries": [1, 2, 5, 9, 14],
    "bridges": [1, 2, 4, 7, 11],
}
IS_FIELDS = [2, 3, 3, 4, 4]  # field group n opened by bridge section n
IS_BUILDINGS = {  # boxes, points (forum: per bridge), ladder (advanced), ladder of points?
    "sawmill": (2, 0, [1, 2, 3], False),
    "tavern": (2, 0, [1, 2, 3], False),
    "workshop": (3, 2, [1, 2], False),
    "mill": (4, 3, [1, 2, 3], False),
    "forum": (5, 2, [2, 3, 4], True),
    "architects": (4, 4, [4, 6, 8], True),
}
IS_BLUEPRINT_CELLS = {
    "sawmill": 2,
    "tavern": 2,
    "workshop": 3,
    "mill": 3,
    "forum": 4,
    "architects": 4,
}
IS_RICH = {"workshop": 3, "mill": 5, "forum": 3}  # docs/variants.md, variant 3
GW_ROW_VALUES = [1, 3, 6, 10, 15, 21, 28]
GW_PENALTY = 3
GW_TRIGGER = 17


def game_of(lid: str) -> str:
    s = Path(lid).stem
    if "harvest" in s:
        return "hd"
    if "imperial" in s:
        return "is"
    return "gw"


# ----------------------------------------------------------------- playing the game (truth)
def play_hd(rng, n, rows, advanced):
    """Each player's garden (rows of C/S/T/.), pig boxes, market boxes (pre-printed included),
    pig bonuses used; the game ends on a full garden, a full pig or a full market."""
    players = []
    ender = int(rng.integers(n))
    end_kind = rng.choice(["garden", "pig", "market"])
    # the market die is common: every player checks the same market box (seed: « Le dernier
    # dé est commun : tous les joueurs cochent une case du Marché »)
    lo = 0 if advanced else 1
    market = {v: int(rng.integers(lo, 6)) for v in VEG.values()}
    if end_kind == "market":
        market[VEG["CST"[int(rng.integers(3))]]] = 6
    for p in range(n):
        g = [["."] * 6 for _ in range(rows)]
        cells = int(rng.integers(rows * 3, rows * 6 + 1))
        end = end_kind if p == ender else None
        if end == "garden":
            cells = rows * 6
        placed = 0
        tries = 0
        while placed < cells and tries < 2000:
            tries += 1
            v = "CST"[int(rng.integers(3))]
            mine = [(r, c) for r in range(rows) for c in range(6) if g[r][c] == v]
            if mine:
                cand = {
                    (r + dr, c + dc)
                    for r, c in mine
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= r + dr < rows and 0 <= c + dc < 6 and g[r + dr][c + dc] == "."
                }
            else:
                cand = {(r, c) for r in range(rows) for c in range(6) if g[r][c] == "."}
            if not cand:
                continue
            r, c = sorted(cand)[int(rng.integers(len(cand)))]
            g[r][c] = v
            placed += 1
        pig = 42 if end == "pig" else int(rng.integers(0, 42))
        bonus = [i for i in range(pig // 6) if rng.random() < 0.5]
        players.append({"garden": ["".join(r) for r in g], "pig": pig, "market": dict(market), "bonus": bonus})
    return players


def _sections_done(count, sections=IS_SECTIONS):
    done, acc = 0, 0
    for s in sections:
        acc += s
        if count >= acc:
            done += 1
    return done


def play_is(rng, n, advanced):
    players = []
    for _ in range(n):
        empire = {t: int(rng.integers(0, 12)) for t in IS_TRACK_VALUES}
        opened = sum(IS_FIELDS[: _sections_done(empire["bridges"])])
        fields = (
            sorted(rng.choice(opened, size=int(rng.integers(0, opened + 1)), replace=False).tolist()) if opened else []
        )
        village = {}
        for b, (boxes, *_rest) in IS_BUILDINGS.items():
            if b == "architects" and not advanced:
                village[b] = []
                continue
            k = boxes if rng.random() < 0.5 else int(rng.integers(0, boxes + 1))
            village[b] = sorted(rng.choice(boxes, size=k, replace=False).tolist())
        colonies = {}
        if advanced:
            free = sum(_sections_done(empire[t]) for t in IS_TRACK_VALUES)
            for b in rng.permutation(list(IS_BUILDINGS)).tolist():
                top = len(IS_BUILDINGS[b][2]) - 1
                c = int(rng.integers(0, top + 1))
                while c and c * IS_BLUEPRINT_CELLS[b] > free:
                    c -= 1
                if c:
                    colonies[b] = c
                    free -= c * IS_BLUEPRINT_CELLS[b]
        players.append(
            {
                "empire": empire,
                "fields": fields,
                "village": village,
                "colonies": colonies,
                "favors": int(rng.integers(0, 13)),
                "development": int(rng.integers(0, 11)),
            }
        )
    return players


def play_gw(rng, n, height):
    """Columns filled from the bottom, the left ones first more often; someone reaches 17."""
    players = []
    ender = int(rng.integers(n))
    for p in range(n):
        while True:
            cols = [int(min(height, max(0, rng.normal(height * (1 - k / 9), 1.6)))) for k in range(7)]
            if p != ender or sum(cols) >= GW_TRIGGER:
                break
        players.append({"columns": cols, "overflow": int(rng.integers(0, 5))})
    return players


# ----------------------------------------------------------------- the hand-worked scorers
def _winners(totals, key=None):
    best = max(totals.values())
    tied = [p for p, t in totals.items() if t == best]
    if key and len(tied) > 1:
        kb = max(key[p] for p in tied)
        tied = [p for p in tied if key[p] == kb]
    return tied


def score_hd(players, names, lid, advanced):
    pig_rows = HD_PIG_ROWS.get(Path(lid).stem, HD_PIG_ROWS["default"])
    totals = {}
    counts = {}
    for nm, p in zip(names, players):
        cnt = {v: sum(r.count(v) for r in p["garden"]) for v in "CST"}
        counts[nm] = cnt
        t = sum(cnt[v] * p["market"][VEG[v]] for v in "CST")
        t += HD_ROW_VALUE * sum(1 for r in p["garden"] if "." not in r)
        t += pig_rows[(p["pig"] - 1) // 6] if p["pig"] else 0
        totals[nm] = t
    if advanced:
        for what in ("C", "S", "T", "pig"):
            val = {nm: (p["pig"] if what == "pig" else counts[nm][what]) for nm, p in zip(names, players)}
            best = max(val.values())
            if best > 0:
                for nm in names:
                    if val[nm] == best:
                        totals[nm] += HD_MAJORITY
    return totals, _winners(totals)


def score_is(players, names, lid, advanced):
    rich = "rich-village" in lid
    totals, tie = {}, {}
    for nm, p in zip(names, players):
        t = 0
        for tr, vals in IS_TRACK_VALUES.items():
            d = _sections_done(p["empire"][tr])
            t += vals[d - 1] if d else 0
        bridges = _sections_done(p["empire"]["bridges"])
        for b, (boxes, pts, ladder, of_points) in IS_BUILDINGS.items():
            if len(p["village"][b]) < boxes or (b == "architects" and not advanced):
                continue
            pts = IS_RICH.get(b, pts) if rich else pts
            if advanced and of_points:
                pts = ladder[p["colonies"].get(b, 0)]
            t += pts * bridges if b == "forum" else pts
        t += p["favors"] + p["development"]
        totals[nm] = t
        tie[nm] = (bridges, len(p["fields"]))
    return totals, _winners(totals, tie)


def score_gw(players, names, lid, height):
    totals = {}
    for nm, p in zip(names, players):
        cols = p["columns"]
        t = 0
        for r in range(1, height + 1):
            run = 0
            while run < 7 and cols[run] >= r:
                run += 1
            t += GW_ROW_VALUES[run - 1] if run else 0
        best = sorted(range(7), key=lambda k: (-cols[k], k))[:2]
        t += sum((k + 1) * cols[k] for k in best)
        t -= GW_PENALTY * p["overflow"]
        totals[nm] = t
    return totals, _winners(totals)


# ----------------------------------------------------------------- the typed record
def typed_record(kind, lref, names, players, advanced):
    out = []
    for nm, p in zip(names, players):
        if kind == "hd":
            out.append({"name": nm, "garden": p["garden"], "pig": p["pig"], "market": dict(p["market"])})
        elif kind == "is":
            e = dict(p["empire"])
            e["fields"] = len(p["fields"])
            rec = {
                "name": nm,
                "empire": e,
                "village": {b: len(v) for b, v in p["village"].items()},
                "favors": p["favors"],
                "development": p["development"],
            }
            if advanced:
                rec["colonies"] = {b: p["colonies"].get(b, 0) for b in IS_BUILDINGS}
            out.append(rec)
        else:
            out.append({"name": nm, "columns": list(p["columns"]), "overflow": p["overflow"]})
    return {"layout": lref, "players": out}


# ----------------------------------------------------------------- which boxes to mark
def marks_for(kind, page_id, boxes, p, gw_players=None):
    """{field: 'x' | letter} for one page: the mapping from the truth to the printed boxes,
    from the boxes' names and their places (rows by y, columns by x)."""
    by = {b.field: b for b in boxes}
    out = {}
    if kind == "hd":
        cells = sorted((b for b in boxes if b.field.startswith("garden_r")), key=lambda b: (round(b.y), b.x))
        ys = sorted({round(b.y) for b in cells})
        for b in cells:
            r = ys.index(round(b.y))
            row = [c for c in cells if round(c.y) == round(b.y)]
            c = sorted(row, key=lambda q: q.x).index(b)
            if p["garden"][r][c] != ".":
                out[b.field] = p["garden"][r][c]
        pig = sorted(
            (b for b in boxes if b.field.startswith("pig_") and "bonus" not in b.field), key=lambda b: (round(b.y), b.x)
        )
        for b in pig[: p["pig"]]:
            out[b.field] = "x"
        bonus = sorted((b for b in boxes if b.field.startswith("pig_bonus")), key=lambda b: b.y)
        for i in p["bonus"]:
            out[bonus[i].field] = "x"
        for name in VEG.values():
            mk = sorted((b for b in boxes if b.field.startswith(f"market_{name}_")), key=lambda b: b.x)
            pre = 6 - len(mk)  # the pre-printed box (normal mode) is no markable box
            for b in mk[: p["market"][name] - pre]:
                out[b.field] = "x"
    elif kind == "is" and page_id == "empire":
        for tr in IS_TRACK_VALUES:
            mk = sorted((b for b in boxes if b.field.startswith(tr + "_") and b.kind == "check"), key=lambda b: b.x)
            for b in mk[: p["empire"][tr]]:
                out[b.field] = "x"
        mk = sorted((b for b in boxes if b.field.startswith("fields_")), key=lambda b: b.x)
        for i in p["fields"]:
            out[mk[i].field] = "x"
    elif kind == "is":
        for bname, got in p["village"].items():
            mk = sorted(
                (b for b in boxes if b.field.startswith(bname + "_") and b.kind == "check"), key=lambda b: (b.y, b.x)
            )
            for i in got:
                out[mk[i].field] = "x"
            col = sorted((b for b in boxes if b.field.startswith(bname + "_colony_")), key=lambda b: b.x)
            for b in col[: p["colonies"].get(bname, 0)]:
                out[b.field] = "o"
    else:
        for i, q in enumerate(gw_players, start=1):
            cells = [b for b in boxes if b.field.startswith(f"board_p{i}_")]
            xs = sorted({round(b.x, 1) for b in cells})
            for k, h in enumerate(q["columns"]):
                col = sorted((b for b in cells if round(b.x, 1) == xs[k]), key=lambda b: -b.y)
                for b in col[:h]:
                    out[b.field] = "x"
        assert by
    return out


# ----------------------------------------------------------------- the marked page and its photo
def draw_marks(img, boxes, marks, pl, dpi, rng):
    s = dpi / 25.4
    style = rng.choice(["cross", "tick", "fill"])
    grey = int(rng.integers(35, 75))
    ink = (grey, grey, grey + 5)
    lw = max(2, int(round(0.45 * s)))
    by = {b.field: b for b in boxes}
    for f, m in marks.items():
        b = by[f]
        x0, y0 = (pl.left + b.x) * s, (pl.top + b.y) * s
        w, h = b.w * s, b.h * s
        cx, cy = x0 + w / 2 + rng.normal(0, 0.03) * w, y0 + h / 2 + rng.normal(0, 0.03) * h
        if m in VEG_RGB:
            r = 0.36 * min(w, h)
            pts = np.array([[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r]])
            cv2.fillPoly(img, [np.int32(pts)], VEG_RGB[m], lineType=cv2.LINE_AA)
            continue
        r = 0.3 * min(w, h)
        if m == "o" or b.kind == "round":
            cv2.circle(img, (int(cx), int(cy)), int(r), ink, lw, lineType=cv2.LINE_AA)
            cv2.line(
                img,
                (int(cx - r * 0.6), int(cy - r * 0.6)),
                (int(cx + r * 0.6), int(cy + r * 0.6)),
                ink,
                lw,
                cv2.LINE_AA,
            )
        elif style == "fill":
            pts = np.array([[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r]])
            cv2.fillPoly(img, [np.int32(pts)], ink, lineType=cv2.LINE_AA)
        elif style == "tick":
            pts = np.int32([[cx - r, cy], [cx - r * 0.3, cy + r * 0.8], [cx + r, cy - r]])
            cv2.polylines(img, [pts], False, ink, lw, cv2.LINE_AA)
        else:
            cv2.line(img, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), ink, lw, cv2.LINE_AA)
            cv2.line(img, (int(cx - r), int(cy + r)), (int(cx + r), int(cy - r)), ink, lw, cv2.LINE_AA)
    return img


def photo(page_img, rng):
    """A mild phone photo: the sheet on a table, a small rotation and perspective, slight blur,
    noise; RGB uint8."""
    h, w = page_img.shape[:2]
    m = int(0.06 * max(h, w))
    table = np.array(rng.integers(90, 170, 3), dtype=np.uint8)
    out_w, out_h = w + 2 * m, h + 2 * m
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    ang = np.deg2rad(rng.uniform(-3, 3))
    c, s_ = np.cos(ang), np.sin(ang)
    ctr = np.array([w / 2, h / 2])
    dst = []
    for pt in src:
        v = pt - ctr
        q = np.array([c * v[0] - s_ * v[1], s_ * v[0] + c * v[1]]) + ctr + m
        q += rng.normal(0, 0.008 * w, 2)
        dst.append(q)
    H = cv2.getPerspectiveTransform(src, np.float32(dst))
    img = cv2.warpPerspective(
        page_img, H, (out_w, out_h), flags=cv2.INTER_LINEAR, borderValue=tuple(int(v) for v in table)
    )
    light = np.linspace(rng.uniform(0.9, 1.0), rng.uniform(0.95, 1.0), out_w)[None, :, None]
    img = img.astype(np.float32) * light
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 0.9))
    img += rng.normal(0, 3.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def jpeg(img, path: Path):
    Image.fromarray(img).save(path, quality=85)


# ----------------------------------------------------------------- sheetgen through its CLI
def run_cli(args):
    r = CliRunner().invoke(cli, args, catch_exceptions=True)
    err = r.stderr if hasattr(r, "stderr") else ""
    if r.exception and not isinstance(r.exception, SystemExit):
        err += "".join(__import__("traceback").format_exception(r.exception))
    return r.exit_code, r.stdout, err


def fill_handwritten(rec, kind, players, names):
    """The scanned record's handwritten fields ('?'), filled with the game's values; names
    too when the scan left them to type (a pad's players)."""
    filled = []
    for i, pr in enumerate(rec.get("players", [])):
        p = players[i] if i < len(players) else None
        if p is None:
            continue
        for key in ("favors", "development", "overflow"):
            if pr.get(key) == "?":
                pr[key] = p[key]
                filled.append(f"{pr.get('name')}.{key}")
        if pr.get("name") in (None, "?", ""):
            pr["name"] = names[i]
            filled.append(f"p{i + 1}.name")
    return filled


def diff(a, b, path=""):
    """The differences between two records, field by field."""
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a:
                out.append(f"{path}{k}: missing in scan (typed {b[k]!r})")
            elif k not in b:
                out.append(f"{path}{k}: only in scan ({a[k]!r})")
            else:
                out += diff(a[k], b[k], f"{path}{k}.")
    elif (
        isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and any(isinstance(x, (dict, list)) for x in a)
    ):
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{path}{i}.")
    elif a != b:
        out.append(f"{path.rstrip('.')}: scanned {a!r}, typed {b!r}")
    return out


def normalise(rec, kind):
    """The record's player fields compared (layout reference and comments aside); a player's
    absent colonies are zeros, an empty field list the same as absent."""
    ps = []
    for p in rec.get("players", []):
        q = copy.deepcopy(p)
        if kind == "is" and "colonies" in q:
            q["colonies"] = {b: int(q["colonies"].get(b, 0) or 0) for b in IS_BUILDINGS}
        ps.append(q)
    return ps


# ----------------------------------------------------------------- one game
def one_game(seed, g, args, work: Path):
    rng = np.random.default_rng([seed, g])
    lid = LAYOUTS[g % len(LAYOUTS)]
    layout = load_layout(lid)
    kind = game_of(lid)
    variant = lid.endswith(".yaml")
    lref = lid if variant else lid
    advanced = "advanced" in layout.id
    pl = layout.players
    n = int(rng.integers(max(2, pl["min"]), min(4, pl["max"]) + 1)) if kind == "gw" else int(rng.integers(2, 5))
    as_pdf = (g // len(LAYOUTS) + g) % 4 == 3
    lang = "fr" if rng.random() < 0.3 else "en"
    names = NAMES[:n]
    pages = [p.id for p in layout.pages]
    if kind == "hd":
        rows = 4 if "big-garden" in lid else 3
        players = play_hd(rng, n, rows, advanced)
    elif kind == "is":
        players = play_is(rng, n, advanced)
        if rng.random() < 0.5:  # a tie on the total, for the tie-breakers (handwritten development)
            tot = score_is(players, names, lid, advanced)[0]
            dev = players[1]["development"] + tot[names[0]] - tot[names[1]]
            if dev >= 0:
                players[1]["development"] = dev
    else:
        height = 6 if "six-rows" in lid else 5
        players = play_gw(rng, n, height)

    # the sheets, marked and photographed
    shots = []  # (file stem, image)
    sheets = [(None, nm, p) for nm, p in zip(names, players)] if kind != "gw" else [(None, "pad", None)]
    # a pad is often printed for more players than sit down (its last copies stay blank)
    printed = n + int(n < pl["max"] and rng.random() < 0.4) if kind == "gw" else None
    for _, nm, p in sheets:
        for page_id in pages:
            pdf, place, boxes = page_pdf(layout, page_id, lang, printed)
            dpi = int(rng.integers(200, 251))
            img = render(pdf, dpi).copy()
            mk = marks_for(kind, page_id, boxes, p, players if kind == "gw" else None)
            if kind == "gw":  # the table ticks its winners' box too
                for i in score_gw(players, NAMES[:n], lid, 6 if "six-rows" in lid else 5)[1]:
                    mk[f"winner_p{NAMES.index(i) + 1}"] = "x"
            draw_marks(img, boxes, mk, place, dpi, rng)
            stem = nm if len(pages) == 1 else f"{nm}-{page_id}"
            shots.append((stem, photo(img, rng), dpi))
    files = []
    if as_pdf:
        ims = [Image.fromarray(im) for _, im, _ in shots]
        f = work / "scans.pdf"
        ims[0].save(f, save_all=True, append_images=ims[1:], resolution=float(shots[0][2]))
        files.append(f)
        if kind != "gw":
            names = [f"scans-{i + 1}" for i in range(n)]
    else:
        for stem, im, _ in shots:
            f = work / f"{stem}.jpg"
            jpeg(im, f)
            files.append(f)
    if args.keep:
        for stem, im, _ in shots[:2]:
            Image.fromarray(im).save(work / f"view-{stem}.png")

    # scan, fill, score
    out = work / "game.yaml"
    cmd = ["scan", *map(str, files), "-o", str(out)]
    if variant:
        cmd += ["--layout", lid]
    t0 = time.time()
    code, so, se = run_cli(cmd)
    secs = time.time() - t0
    res = {
        "g": g,
        "layout": Path(lid).stem,
        "n": n,
        "printed": printed,
        "pdf": as_pdf,
        "lang": lang,
        "scan_code": code,
        "secs": secs,
    }
    res["warnings"] = [ln for ln in se.splitlines() if ln.strip() and not ln.startswith("wrote ")]
    if code != 0 or not out.exists():
        res["error"] = (so + se).strip()
        return res
    rec = yaml.safe_load(out.read_text())
    gw_names = [p.get("name") for p in rec.get("players", [])] if kind == "gw" else None
    if kind == "gw":
        names = [nm if nm not in (None, "?", "") else NAMES[i] for i, nm in enumerate(gw_names)] + NAMES[
            len(gw_names) : n
        ]
        names = names[:n]
    res["filled"] = fill_handwritten(rec, kind, players, names)
    out.write_text(yaml.safe_dump(rec, sort_keys=False, allow_unicode=True))
    code, so, se = run_cli(["score", str(out), "--format", "json"])
    res["score_code"] = code
    scanned = json.loads(so) if code == 0 else None
    if code != 0:
        res["score_error"] = (so + se).strip()

    typed = typed_record(kind, lref, names, players, advanced)
    tf = work / "typed.yaml"
    tf.write_text(yaml.safe_dump(typed, sort_keys=False))
    code, so, se = run_cli(["score", str(tf), "--format", "json"])
    typed_score = json.loads(so) if code == 0 else None
    if code != 0:
        res["typed_error"] = (so + se).strip()
    res["typed_warnings"] = [ln for ln in se.splitlines() if ln.strip()]

    if kind == "hd":
        hand, hw = score_hd(players, names, lid, advanced)
    elif kind == "is":
        hand, hw = score_is(players, names, lid, advanced)
    else:
        hand, hw = score_gw(players, names, lid, 6 if "six-rows" in lid else 5)

    res["record_diff"] = diff(normalise(rec, kind), normalise(typed, kind))
    res["hand"] = (hand, sorted(hw))
    for label, sc in (("scanned", scanned), ("typed", typed_score)):
        if sc:
            res[label] = ({p["name"]: p["total"] for p in sc["players"]}, sorted(sc["winners"]), sc)
    res["totals_agree"] = bool(scanned and typed_score) and res["scanned"][:2] == res["typed"][:2] == res["hand"]
    res["typed_vs_hand"] = bool(typed_score) and res["typed"][:2] == res["hand"]
    res["truth"] = players
    res["names"] = names
    return res


# ----------------------------------------------------------------- the error paths
def error_paths(work: Path, rng):
    """Four documented errors, end to end: (what, exit code, message)."""
    out = []
    lay = load_layout("imperial-settlers")
    p = play_is(rng, 1, False)[0]
    for page_id in ("empire", "village"):
        pdf, place, boxes = page_pdf(lay, page_id, "en", None)
        img = render(pdf, 220).copy()
        draw_marks(img, boxes, marks_for("is", page_id, boxes, p), place, 220, rng)
        jpeg(photo(img, rng), work / f"ada-{page_id}.jpg")
    code, so, se = run_cli(["scan", str(work / "ada-empire.jpg"), "-o", str(work / "e1.yaml")])
    out.append(("Imperial Settlers, the empire page only", code, (so + se).strip()))
    hd = load_layout("harvest-dice-normal")
    pdf, place, boxes = page_pdf(hd, "sheet", "en", None)
    img = render(pdf, 220).copy()
    q = play_hd(rng, 1, 3, False)[0]
    draw_marks(img, boxes, marks_for("hd", "sheet", boxes, q), place, 220, rng)
    (work / "a").mkdir(exist_ok=True)
    (work / "b").mkdir(exist_ok=True)
    jpeg(photo(img, rng), work / "a" / "bob.jpg")
    jpeg(photo(img, rng), work / "b" / "bob.jpg")
    code, so, se = run_cli(
        ["scan", str(work / "a" / "bob.jpg"), str(work / "b" / "bob.jpg"), "-o", str(work / "e2.yaml")]
    )
    out.append(("two photos named bob (two folders)", code, (so + se).strip()))
    for what, variant, record in (
        ("a Harvest Dice photo", "glassworks-six-rows.yaml", "e3.yaml"),
        ("a harvest-dice-normal photo", "harvest-dice-big-garden.yaml", "e3b.yaml"),
    ):
        code, so, se = run_cli(
            ["scan", str(work / "a" / "bob.jpg"), "--layout", str(EX / variant), "-o", str(work / record)]
        )
        out.append((f"{what} with --layout {variant}", code, (so + se).strip()))
    code, so, se = run_cli(
        ["scan", str(work / "ada-empire.jpg"), str(work / "ada-village.jpg"), "-o", str(work / "e4.yaml")]
    )
    if code == 0:
        code, so, se = run_cli(["score", str(work / "e4.yaml"), "--format", "json"])
    out.append(("score with favours/development unfilled", code, (so + se).strip()))
    return out


# ----------------------------------------------------------------- report
def report(games, verbose) -> tuple[int, int]:
    """The table of the games played; (records right, totals and winners right)."""
    print(
        f"{'g':>3} {'layout':28} {'n':>1} {'src':4} {'scan':>4} {'unsure':>6} {'warn':>4} "
        f"{'rec==typed':>10} {'totals':>7} {'s':>5}"
    )
    ok_rec = ok_tot = 0
    for r in games:
        unsure = sum(1 for w in r["warnings"] if "unsure" in w.lower())
        rec_ok = not r.get("record_diff") and "error" not in r
        ok_rec += rec_ok
        ok_tot += bool(r.get("totals_agree"))
        src = "pdf" if r["pdf"] else "jpg"
        print(
            f"{r['g']:>3} {r['layout']:28} {r['n']:>1} {src:4} {r['scan_code']:>4} {unsure:>6} "
            f"{len(r['warnings']) - unsure:>4} "
            f"{'yes' if rec_ok else 'NO':>10} {'yes' if r.get('totals_agree') else 'NO':>7} {r['secs']:5.1f}"
        )
        show = verbose or not rec_ok or not r.get("totals_agree")
        if show:
            for w in r["warnings"]:
                print(f"      scan: {w}")
            if "error" in r:
                print(f"      scan failed: {r['error']}")
            for d in r.get("record_diff", []):
                print(f"      diff: {d}")
            for k in ("score_error", "typed_error"):
                if k in r:
                    print(f"      {k}: {r[k]}")
            for w in r.get("typed_warnings", []):
                print(f"      typed score: {w}")
            for label in ("scanned", "typed", "hand"):
                if label in r:
                    tot, win = r[label][:2]
                    print(f"      {label:8} totals {tot} winners {win}")
            if r.get("filled"):
                print(f"      filled by hand: {', '.join(r['filled'])}")
    n = len(games)
    print(f"\n{n} games: record == typed {ok_rec}/{n}, totals and winners agree {ok_tot}/{n}")
    return ok_rec, ok_tot


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.end_to_end", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=int, nargs="*", help="play only these game numbers")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--keep", type=Path, help="keep each game's files under DIR/gNN")
    ap.add_argument("--errors", action="store_true", help="also run the error paths")
    ap.add_argument(
        "--results", default=str(results.RESULTS), metavar="PATH", help="append the totals to PATH ('' for none)"
    )
    args = ap.parse_args()
    games = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in args.only if args.only else range(args.games):
            work = (args.keep / f"g{g:02d}") if args.keep else Path(tmp) / f"g{g:02d}"
            work.mkdir(parents=True, exist_ok=True)
            games.append(one_game(args.seed, g, args, work))
            if args.keep:
                r = games[-1]
                (work / "result.json").write_text(
                    json.dumps({k: v for k, v in r.items() if k not in ("scanned", "typed")}, default=str, indent=1)
                )
        records_right, totals_right = report(games, args.verbose)
        paths = []
        if args.errors:
            work = (args.keep / "errors") if args.keep else Path(tmp) / "errors"
            work.mkdir(parents=True, exist_ok=True)
            print("\nerror paths:")
            paths = error_paths(work, np.random.default_rng([args.seed, 999]))
            for what, code, msg in paths:
                print(f"  {what}: exit {code}\n    {msg.replace(chr(10), chr(10) + '    ')}")
    if not args.only:
        row = {
            "bench": "end-to-end",
            "scenario": "played-games",
            **results.where(),
            "seed": args.seed,
            "games": len(games),
            "records_right": records_right,
            "totals_right": totals_right,
            "unsure": sum(sum("unsure" in w.lower() for w in r["warnings"]) for r in games),
            "s_per_game": round(sum(r["secs"] for r in games) / max(len(games), 1), 2),
            "error_paths": len(paths),
            "error_paths_exit_1": sum(code == 1 for _, code, _ in paths),
            "command": f"python -m bench.end_to_end --games {args.games} --seed {args.seed}"
            + (" --errors" if args.errors else ""),
        }
        results.append(row, Path(args.results) if args.results else None)


if __name__ == "__main__":
    main()
