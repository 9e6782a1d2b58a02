"""Designers' variants of the readable layouts, photographed and read with `--layout`.

Written apart from the reader's tuning and the other generators, from the docs
(docs/variants.md, docs/layouts.md), the built-in layouts and the printed page (`pages`). `variant` writes
a random but plausible variant YAML that `extends` a readable built-in and changes what a
designer changes: the garden's rows, columns and cell size (7-14 mm), the pig's rows, boxes,
box size, gap and values, longer or shorter market tracks with other box sizes and gaps, a
fourth (corn) market, the legend removed, pastel frame backgrounds, the Empire tracks' values,
sections, costs and box sizes, a new Empire track (temples) in the tie-break's room, the Village
buildings' boxes, costs, box size, points and names, the Glassworks pad's player range (1-8),
column height (a run row more or less), board height and per-player boards (`wide: false`),
labels and titles in French and English, the theme's colours (light or bolder tints). `photo`
renders one page of it, marks 10-80% of its tick boxes and garden cells with one player's pen
and habit (HB or 2B pencil with grain, ballpoint, felt-tip; cross, tick, fill, slash, dot,
circles round round boxes, strays up to 2 mm over the border), the garden in orange/green/red
colour pencils (grey pencil or pen: '?'), and photographs it as a phone would (tilt up to 15
degrees, any roll, 120-300 dpi on the sheet, under 12 MP, gentle uneven light, mild blur and
noise, JPEG 70-92). Kinds: "pen/style +variant-kind".

The bench's runner (`python -m bench.scan --scenario designer_variants`) makes photo n's variant
from BASES in turn, photographs each of its pages, reads them with the variant as the layout,
and every 5th photo runs `sheetgen scan --layout VARIANT` and `sheetgen score` end to end.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import yaml

from bench.photos.pages import page_pdf, render

BASES = [
    "harvest-dice-normal",
    "harvest-dice-advanced",
    "imperial-settlers",
    "imperial-settlers-advanced",
    "river-valley-glassworks",
]
TRIES = 4
FAILURES: list = []  # (base id, variant kind, the validator's first message), for the report


# ---------------------------------------------------------------------------------------- variants


def _lab(fr: str, en: str) -> dict:
    return {"fr": fr, "en": en}


def _colour(rng, dark: bool, strong: bool = False) -> str:
    """A theme colour: a dark accent or a light tint of a random hue (`strong`: a bolder tint)."""
    h = rng.random()
    s = rng.uniform(0.45, 0.8) if dark else rng.uniform(0.25, 0.45) if strong else rng.uniform(0.06, 0.18)
    v = rng.uniform(0.35, 0.6) if dark else rng.uniform(0.86, 0.95) if strong else rng.uniform(0.94, 0.99)
    r, g, b = (int(round(c * 255)) for c in _hsv(h, s, v))
    return f"#{r:02x}{g:02x}{b:02x}"


def _hsv(h, s, v):
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    return [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]


def _increasing(rng, n: int, start: int, top: int) -> list:
    """n increasing whole numbers from about `start` to about `top`."""
    out, last = [], 0
    for i in range(n):
        want = start + (top - start) * (i / max(n - 1, 1)) ** 1.4
        val = max(last + 1, int(round(want + rng.uniform(-1, 1))))
        out.append(val)
        last = val
    return out


SUBTITLES = [
    _lab("Variante maison — feuille de joueur", "House variant — player sheet"),
    _lab("Variante « {w} » — feuille de joueur", "“{w}” variant — player sheet"),
    _lab("Édition du club — {w}", "Club edition — {w}"),
]
WORDS = [("printemps", "spring"), ("grand jardin", "big garden"), ("festival", "festival"), ("rapide", "quick")]


def _subtitle(rng) -> dict:
    s = SUBTITLES[int(rng.integers(len(SUBTITLES)))]
    fr, en = WORDS[int(rng.integers(len(WORDS)))]
    return _lab(s["fr"].replace("{w}", fr), s["en"].replace("{w}", en))


def _harvest(rng, base: str) -> tuple[dict, list]:
    """The elements and the change words of a Harvest Dice variant."""
    els: list = []
    kind: list = []
    theme = None
    options = ["garden", "pig", "market", "labels", "theme", "legend", "corn", "fills"]
    picks = set(rng.choice(options, size=int(rng.integers(2, 5)), replace=False))
    if "garden" not in picks and "pig" not in picks and "market" not in picks:
        picks.add(["garden", "pig", "market"][int(rng.integers(3))])
    els.append({"id": "banner", "subtitle": _subtitle(rng)})
    no_legend = "legend" in picks
    # a designer plans the sheet: most drafts keep the pig and the market side by side within the
    # sheet's width and the zones within its height (the docs give the room); some do not
    plan = rng.random() < 0.85
    room_h = 24.0 if base == "harvest-dice-normal" else 15.0
    for _ in range(30):
        g = p = m = None
        wide = tall = 0.0
        if "garden" in picks:
            room = 84 + (36 if no_legend else 0)  # the garden at x 56, the legend at x 153 of the frame
            cell = float(rng.choice([7, 7.5, 8, 9, 10, 11, 12, 13, 14]))
            cols = int(rng.integers(4, 9))
            while cols * cell > room and cols > 3:
                cols -= 1
            rows = int(rng.integers(2, 6))
            labels = [str(i + 1) for i in range(cols)]
            g = {"id": "garden", "rows": rows, "cols": cols, "cell": cell, "col_labels": labels}
            if rng.random() < 0.6:
                g["row_value"] = int(rng.integers(3, 10))
            g_kind = f"garden{rows}x{cols}@{cell:g}"
            tall += max(rows * cell, 30.5) - 36
        low = 0.0
        if "pig" in picks:
            n = int(rng.integers(5, 9))
            boxes = int(rng.integers(4, 8))
            box = float(rng.choice([7, 7.5, 8, 9, 10, 12]))
            gap = float(rng.choice([0.3, 0.6, 0.8, 1.0, 1.5]))
            vals = _increasing(rng, n, 1, int(rng.integers(18, 40)))
            uneven = rng.random() < 0.3
            counts = [boxes + (int(rng.integers(-1, 2)) if uneven else 0) for _ in vals]
            secs = [{"boxes": c, "value": v, "bonus": True} for c, v in zip(counts, vals)]
            p = {"id": "pig", "verified": True, "box": box, "gap": gap, "sections": secs}
            p_kind = f"pig{n}x{boxes}{'~' if uneven else ''}@{box:g}g{gap:g}"
            wide += max(counts) * (box + gap) - 52.8
            low = max(low, max(4 + n * (box + gap), 64.5) - 65.6)
        if "market" in picks:
            mbox = float(rng.choice([7, 7.5, 8, 8.5, 9, 10, 12]))
            mgap = float(rng.choice([0.3, 0.5, 0.8, 1.2]))
            mn = int(rng.integers(3, 9))
            pre = 0 if base.endswith("advanced") else int(rng.integers(0, 2))
            m = [
                {"id": f"market_{veg}", "boxes": mn, "box": mbox, "gap": mgap, "prechecked": pre}
                for veg in ("carrot", "salad", "tomato")
            ]
            if mbox > 8 and rng.random() < 0.8:  # the icon grows with the box: room for the label
                for t in m:
                    t["label_width"] = 27.5 + 2 * (mbox - 8)
            m_kind = f"market{mn}@{mbox:g}g{mgap:g}p{pre}"
            wide += mn * (mbox + mgap) - 52.8 + (2 * (mbox - 8) if "label_width" in m[0] else 0)
            low = max(low, 3 * (mbox - 8))
        if "corn" in picks:  # a fourth vegetable: a corn market instead of the market's help text
            low = max(low, 3 * (m[0]["box"] - 8) if m else 0) + 1.0
        if not plan or (wide <= 9.5 and tall + low <= room_h):
            break
    if g:
        els.append(g)
        kind.append(g_kind)
    if no_legend:
        for veg in ("carrot", "salad", "tomato"):
            els += [{"id": f"legend_{veg}", "remove": True}, {"id": f"legend_{veg}_text", "remove": True}]
        kind.append("nolegend")
    if p:
        els.append(p)
        kind.append(p_kind)
    if m:
        els += m
        kind.append(m_kind)
    if "labels" in picks:
        els += [
            {"id": "garden_frame", "title": _lab("Le potager", "The vegetable patch")},
            {"id": "pig_frame", "title": _lab("Le cochon gourmand", "The hungry pig")},
            {"id": "market_frame", "title": _lab("Marché du village", "Village market")},
            {"id": "market_carrot", "label": _lab("Carotte", "Carrot")},
            {"id": "market_tomato", "label": _lab("Tomate", "Tomato")},
        ]
        kind.append("labels")
    if "corn" in picks:
        corn = {"id": "market_corn", "type": "track", "in": "market_frame", "below": "market_tomato", "space": 5}
        corn.update({"label": _lab("Maïs", "Corn"), "icon": "corn", "label_width": 27.5, "gap": 0.8})
        t = m[0] if m else {"boxes": 6}
        corn.update({k: t[k] for k in ("boxes", "box", "gap", "label_width") if k in t})
        els += [{"id": "market_help", "remove": True}, {"id": "market_tomato"}, corn]
        kind.append("corn")
    if "fills" in picks:
        for fid in ("garden_frame", "pig_frame", "market_frame"):
            els.append({"id": fid, "fill": _colour(rng, False)})
        kind.append("fills")
    if "theme" in picks:
        strong = rng.random() < 0.4
        theme = {"accent": _colour(rng, True), "tint": _colour(rng, False, strong)}
        kind.append("theme" + ("+" if strong else ""))
    els = _merged(els)
    corn = [e for e in els if e["id"] == "market_corn"]
    if corn:  # a new id goes right after the item listed before it: market_tomato
        els.remove(corn[0])
        els.insert(next(i for i, e in enumerate(els) if e["id"] == "market_tomato") + 1, corn[0])
    return {"elements": els, "theme": theme, "page": "sheet"}, kind


COSTS = ["stone", "wood", "food", "gold"]


def _costs(rng, n: int) -> list:
    return [[] if rng.random() < 0.25 else [str(rng.choice(COSTS))] for _ in range(n)]


def _settlers(rng, base: str) -> tuple[list, list, dict | None]:
    """The pages and the change words of an Imperial Settlers variant."""
    empire: list = []
    village: list = []
    kind: list = []
    theme = None
    options = ["values", "shape", "trackbox", "buildings", "bldgbox", "labels", "theme", "newtrack"]
    picks = set(rng.choice(options, size=int(rng.integers(2, 5)), replace=False))
    if not picks & {"values", "shape", "trackbox", "buildings", "bldgbox"}:
        picks.add("buildings")
    tracks = ["walls", "houses", "granaries"]
    if "values" in picks or "shape" in picks:
        shape = [1, 2, 2, 3, 3]
        if "shape" in picks:
            shape = [[1, 2, 3, 3], [2, 2, 3], [1, 2, 2, 2, 3], [1, 1, 2, 3, 3], [2, 3, 4]][int(rng.integers(5))]
            kind.append("shape" + "".join(map(str, shape)))
        else:
            kind.append("values")
        for t in tracks:
            vals = _increasing(rng, len(shape), int(rng.integers(1, 3)), int(rng.integers(10, 20)))
            empire.append(
                {
                    "id": t,
                    "verified": True,
                    "sections": [{"boxes": b, "value": v, "costs": _costs(rng, b)} for b, v in zip(shape, vals)],
                }
            )
    if "trackbox" in picks:
        box = float(rng.choice([7, 7.5, 8]))  # the Empire page is full: 8.5 does not fit
        gap = float(rng.choice([0.6, 0.8, 1.2]))
        lw = float(rng.choice([26, 28, 30]))
        for t in [*tracks, "bridges", "fields"]:
            el = next((e for e in empire if e["id"] == t), None)
            if el is None:
                el = {"id": t}
                empire.append(el)
            el.update({"box": box, "gap": gap, "label_width": lw})
        kind.append(f"trackbox{box:g}g{gap:g}")
    if "buildings" in picks or "bldgbox" in picks:
        sizes = [7, 7.5, 8.5] if base.endswith("advanced") else [7, 7.5, 9, 10, 12]
        box = float(rng.choice(sizes)) if "bldgbox" in picks else None
        names = {
            "sawmill": _lab("Scierie royale", "Royal sawmill"),
            "tavern": _lab("Auberge", "Inn"),
            "workshop": _lab("Forge", "Smithy"),
            "mill": _lab("Moulin à eau", "Watermill"),
            "forum": _lab("Place du marché", "Market square"),
        }
        counts = []
        for bid in ["sawmill", "tavern", "workshop", "mill", "forum", "architects"]:
            el: dict = {"id": bid, "verified": True}
            if "buildings" in picks:
                n = int(rng.integers(1, 7))
                counts.append(n)
                el["boxes"] = _costs(rng, n)
                if bid != "forum":
                    el["points"] = int(rng.integers(0, 7))
                if bid == "architects" and base.endswith("advanced"):
                    p = el["points"] = int(rng.integers(1, 7))
                    el["ladder"] = [p, p + 2, p + 4]  # ladder_of: points starts at the printed points
                if bid in names and rng.random() < 0.5:
                    el["name"] = names[bid]
            if box:
                el["box"] = box
            village.append(el)
        if counts:
            kind.append("bldg" + "".join(map(str, counts)))
        if box:
            kind.append(f"bldgbox{box:g}")
    if "newtrack" in picks:  # a new Empire track after the fields, room given back by the tie-break
        after = "colonies_help" if base.endswith("advanced") else "fields_help"
        shape = [[3, 4], [2, 3, 3], [4], [2, 2, 2]][int(rng.integers(4))]
        vals = _increasing(rng, len(shape), 2, int(rng.integers(6, 14)))
        new = {"id": "temples", "type": "track", "in": "empire_frame", "below": after, "space": 1.5}
        new.update({"label": _lab("Temples", "Temples"), "icon": "crown", "label_width": 30})
        new["sections"] = [{"boxes": b, "value": v, "costs": _costs(rng, b)} for b, v in zip(shape, vals)]
        empire += [{"id": "tiebreak", "remove": True}, {"id": "tiebreak_help", "remove": True}, {"id": after}, new]
        kind.append("temples" + "".join(map(str, shape)))
    if "labels" in picks:
        empire += [
            {
                "id": "empire_banner",
                "subtitle": _lab("Variante du club — feuillet Empire", "Club variant — Empire sheet"),
            },
            {"id": "walls", "label": _lab("Remparts", "Ramparts")},
            {"id": "granaries", "label": _lab("Silos", "Silos")},
        ]
        village.append(
            {"id": "village_banner", "subtitle": _lab("Variante du club — feuillet Village", "Club variant — Village")}
        )
        kind.append("labels")
    if "theme" in picks:
        theme = {"accent": _colour(rng, True), "tint": _colour(rng, False)}
        kind.append("theme")
    pages = []
    # elements merge by id: one entry an id (a track changed twice is one mapping)
    if empire:
        pages.append({"id": "empire", "elements": _merged(empire)})
    if village:
        pages.append({"id": "village", "elements": _merged(village)})
    return pages, kind, theme


def _merged(els: list) -> list:
    out: dict = {}
    for e in els:
        out.setdefault(e["id"], {}).update(e)
    return list(out.values())


def _glassworks(rng) -> tuple[dict, list, list, dict | None]:
    """(top-level keys, pages, change words, theme) of a Glassworks variant."""
    top: dict = {}
    consts: dict = {}
    rows: list = []
    kind: list = []
    theme = None
    options = ["players", "colh", "boardh", "labels", "theme", "consts", "narrow"]
    picks = set(rng.choice(options, size=int(rng.integers(2, 4)), replace=False))
    if not picks & {"players", "colh", "boardh"}:
        picks.add("colh")
    if "players" in picks:
        lo = int(rng.integers(1, 3))
        hi = int(rng.integers(3, 9))
        consts["players_min"] = {"value": lo, "verified": True}
        consts["players_max"] = {"value": hi, "verified": True}
        top["players"] = {"default": int(rng.integers(lo, hi + 1))}
        kind.append(f"players{lo}-{hi}")
    if "colh" in picks:
        h = int(rng.choice([4, 6]))
        consts["column_height"] = {"value": h, "verified": True}
        if h == 6:
            rows += [
                {"id": "rows_heading"},
                {
                    "id": "row_6",
                    "height": 7,
                    "count": _lab("suite", "run"),
                    "label": _lab("Ligne 6 (en haut)", "Row 6 (top)"),
                },
                {"id": "row_5", "height": 7, "label": _lab("Ligne 5", "Row 5")},
                *({"id": f"row_{i}", "height": 7} for i in range(4, 0, -1)),
            ]
        else:
            rows += [
                {"id": "row_5", "remove": True},
                {"id": "row_4", "label": _lab("Ligne 4 (en haut)", "Row 4 (top)")},
            ]
        kind.append(f"colh{h}")
    if "boardh" in picks:
        bh = float(rng.choice([38, 40, 44, 46]))
        rows.insert(0, {"id": "board", "height": bh})
        kind.append(f"boardh{bh:g}")
    if "narrow" in picks:  # each board copy in its player's column
        rows.append({"id": "board", "wide": False})
        kind.append("narrow")
    if "consts" in picks:
        consts["overflow_penalty"] = {"value": int(rng.integers(1, 5)), "verified": True}
        consts["end_trigger"] = {"value": int(rng.integers(14, 22)), "verified": True}
        kind.append("consts")
    if "labels" in picks:
        rows.append({"id": "winner", "label": _lab("Gagnant·e", "Winner")})
        top["title"] = _lab("River Valley Glassworks — variante du club", "River Valley Glassworks — club variant")
        kind.append("labels")
    if "theme" in picks:
        theme = {"accent": _colour(rng, True), "tint": _colour(rng, False)}
        kind.append("theme")
    if consts:
        top["constants"] = consts
    pages = [{"id": "pad", "elements": [{"id": "score", "rows": _merged(rows)}]}] if rows else []
    return top, pages, kind, theme


def _draft(rng, base: str, vid: str) -> tuple[dict, str]:
    """One variant as a mapping, and its kind."""
    data: dict = {"id": vid, "extends": base}
    if base.startswith("harvest"):
        page, kind = _harvest(rng, base)
        data["title"] = _lab("Harvest Dice — variante", "Harvest Dice — variant")
        if page["theme"]:
            data["theme"] = page["theme"]
        data["pages"] = [{"id": "sheet", "elements": page["elements"]}]
    elif base.startswith("imperial"):
        pages, kind, theme = _settlers(rng, base)
        data["title"] = _lab("Imperial Settlers — variante", "Imperial Settlers — variant")
        if theme:
            data["theme"] = theme
        if pages:
            data["pages"] = pages
    else:
        top, pages, kind, theme = _glassworks(rng)
        data.update(top)
        if theme:
            data["theme"] = theme
        if pages:
            data["pages"] = pages
    return data, "+".join(kind) or "none"


def variant(rng, base_id: str, folder) -> Path | None:
    """A designer's variant of `base_id` written to `folder` (validated: at most TRIES drafts,
    the failed ones' messages kept in FAILURES); None when no draft validated. Its change words
    are in the file's `description` and in `variant.kind[path]`."""
    from sheetgen.errors import SheetgenError
    from sheetgen.games import load_layout

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for _ in range(TRIES):
        vid = f"{base_id}-v{int(rng.integers(1_000_000)):06d}"
        data, kind = _draft(rng, base_id, vid)
        data["description"] = _lab(f"Variante : {kind}", f"Variant: {kind}")
        path = folder / f"{vid}.yaml"
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=200, default_flow_style=None)
        path.write_text(text, encoding="utf-8")
        try:
            load_layout(str(path))
        except SheetgenError as exc:
            msg = exc.problems[0] if getattr(exc, "problems", None) else str(exc)
            FAILURES.append((base_id, kind, str(msg), len(getattr(exc, "problems", []) or [1])))
            path.unlink()
            continue
        KIND[str(path)] = kind
        return path
    return None


KIND: dict = {}  # variant path -> its kind


# ---------------------------------------------------------------------------------------- marks

# (colour RGB, strength range, width mm range, grain)
PENS = {
    "hb": ((72, 72, 80), (0.6, 0.78), (0.35, 0.55), 0.35),
    "2b": ((45, 45, 52), (0.72, 0.9), (0.45, 0.7), 0.3),
    "ballpoint-blue": ((25, 45, 150), (0.85, 0.95), (0.3, 0.45), 0.08),
    "ballpoint-black": ((25, 25, 35), (0.85, 0.95), (0.3, 0.45), 0.08),
    "felt-black": ((20, 20, 25), (0.9, 1.0), (0.6, 1.0), 0.03),
    "felt-blue": ((20, 60, 170), (0.9, 1.0), (0.6, 1.0), 0.03),
    "felt-red": ((200, 30, 40), (0.9, 1.0), (0.6, 1.0), 0.03),
    "felt-green": ((20, 120, 50), (0.9, 1.0), (0.6, 1.0), 0.03),
}
VEG = {  # colour pencils: the dice colours
    "C": ("cpencil-orange", (240, 120, 25)),
    "S": ("cpencil-green", (45, 150, 55)),
    "T": ("cpencil-red", (215, 30, 40)),
}
STYLES = ["cross", "tick", "fill", "slash", "dot"]


class Sheet:
    """The page's raster and how to put ink on it: mm on the sheet to pixels."""

    def __init__(self, img, dpi: float, left: float, top: float):
        self.img = img
        self.px = dpi / 25.4
        self.left, self.top = left, top

    def to_px(self, x, y):
        return ((self.left + x) * self.px, (self.top + y) * self.px)

    def ink(self, rng, strokes: list, clip: tuple, colour, strength: float, width: float, grain: float):
        """Draw `strokes` (lists of (x, y) in mm) with a pen, clipped to `clip` (x0, y0, x1, y1
        in mm), multiplying the paper by the ink's colour."""
        x0, y0 = self.to_px(clip[0], clip[1])
        x1, y1 = self.to_px(clip[2], clip[3])
        h, w = self.img.shape[:2]
        c0, r0 = max(int(math.floor(x0)), 0), max(int(math.floor(y0)), 0)
        c1, r1 = min(int(math.ceil(x1)), w), min(int(math.ceil(y1)), h)
        if c1 <= c0 or r1 <= r0:
            return
        mask = np.zeros((r1 - r0, c1 - c0), np.uint8)
        thick = max(1, int(round(width * self.px)))
        for pts in strokes:
            p = np.array([self.to_px(x, y) for x, y in pts]) - (c0, r0)
            p = np.round(p * 16).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(mask, [p], False, 255, thickness=thick, lineType=cv2.LINE_AA, shift=4)
        cov = mask.astype(np.float32) / 255
        # soft edge of the clip (sub-pixel), then the grain of the paper under a pencil
        cov *= _edge(r1 - r0, c1 - c0, x0 - c0, y0 - r0, x1 - c0, y1 - r0)
        if grain > 0:
            g = rng.random(cov.shape).astype(np.float32)
            g = cv2.GaussianBlur(g, (0, 0), 0.6)
            g = (g - g.min()) / max(float(g.max() - g.min()), 1e-6)
            cov *= 1 - grain * g
        a = (strength * cov)[..., None]
        col = np.asarray(colour, np.float32) / 255
        patch = self.img[r0:r1, c0:c1].astype(np.float32)
        patch *= 1 - a * (1 - col)
        self.img[r0:r1, c0:c1] = np.clip(patch, 0, 255).astype(np.uint8)


def _edge(h, w, x0, y0, x1, y1):
    ys = np.arange(h, dtype=np.float32)[:, None] + 0.5
    xs = np.arange(w, dtype=np.float32)[None, :] + 0.5
    fx = np.clip(xs - x0, 0, 1) * np.clip(x1 - xs, 0, 1)
    fy = np.clip(ys - y0, 0, 1) * np.clip(y1 - ys, 0, 1)
    return fx * fy


def _wobbly(rng, a, b, amp: float, n: int = 8) -> list:
    """A hand-drawn line from a to b (mm): a smooth sideways wobble of about `amp` mm."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay) or 1
    nx, ny = -(by - ay) / length, (bx - ax) / length
    k = rng.normal(0, amp, 3)
    pts = []
    for i in range(n + 1):
        t = i / n
        off = k[0] * math.sin(math.pi * t) + k[1] * math.sin(2 * math.pi * t) * 0.5 + k[2] * t * 0.3
        pts.append((ax + (bx - ax) * t + nx * off, ay + (by - ay) * t + ny * off))
    return pts


def _ring(rng, cx, cy, rx, ry, turns: float = 1.1) -> list:
    start = rng.uniform(0, 2 * math.pi)
    n = 40
    wob = rng.normal(0, 0.04, 3)
    pts = []
    for i in range(n + 1):
        t = start + 2 * math.pi * turns * i / n
        f = 1 + wob[0] * math.sin(2 * t) + wob[1] * math.cos(3 * t) + wob[2] * i / n
        pts.append((cx + rx * f * math.cos(t), cy + ry * f * math.sin(t)))
    return pts


def _hatch(rng, x0, y0, x1, y1, spacing: float, angle: float, shape: str = "rect") -> list:
    """Back-and-forth strokes filling a rectangle (or the ellipse inside it)."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
    ca, sa = math.cos(angle), math.sin(angle)
    reach = math.hypot(rx, ry)
    pts = []
    s = -reach
    flip = False
    while s <= reach:
        seg = []
        for t in np.linspace(-reach, reach, 24):
            x, y = cx + t * ca - s * sa, cy + t * sa + s * ca
            inside = (
                ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1
                if shape == "ellipse"
                else (x0 <= x <= x1 and y0 <= y <= y1)
            )
            if inside:
                seg.append((x + rng.normal(0, 0.08), y + rng.normal(0, 0.08)))
        if len(seg) >= 2:
            pts.extend(reversed(seg) if flip else seg)
            flip = not flip
        s += spacing
    return [pts] if len(pts) >= 2 else []


def _mark_strokes(rng, style: str, b, width: float, room: float = 0.0) -> list:
    """The strokes of one mark in box `b` (mm)."""
    x, y, w, h = b.x, b.y, b.w, b.h
    m = min(w, h)
    j = lambda s: rng.normal(0, s * m)  # noqa: E731
    if style == "cross":
        i = rng.uniform(-0.08, 0.18) * m
        return [
            _wobbly(rng, (x + i + j(0.04), y + i + j(0.04)), (x + w - i + j(0.04), y + h - i + j(0.04)), 0.03 * m),
            _wobbly(rng, (x + w - i + j(0.04), y + i + j(0.04)), (x + i + j(0.04), y + h - i + j(0.04)), 0.03 * m),
        ]
    if style == "slash":
        i = rng.uniform(-0.05, 0.15) * m
        if rng.random() < 0.7:
            return [_wobbly(rng, (x + w - i, y + i), (x + i, y + h - i), 0.03 * m)]
        return [_wobbly(rng, (x + i, y + i), (x + w - i, y + h - i), 0.03 * m)]
    if style == "tick":
        a = (x + w * rng.uniform(0.12, 0.25), y + h * rng.uniform(0.45, 0.6))
        v = (x + w * rng.uniform(0.35, 0.48), y + h * rng.uniform(0.75, 0.92))
        e = (x + w * rng.uniform(0.8, 1.02), y + h * rng.uniform(-0.02, 0.2))
        return [_wobbly(rng, a, v, 0.02 * m, 4) + _wobbly(rng, v, e, 0.03 * m)[1:]]
    if style == "fill":
        i = rng.uniform(0.0, 0.12) * m
        sp = max(width * rng.uniform(0.7, 1.3), 0.35)
        return _hatch(rng, x + i, y + i, x + w - i, y + h - i, sp, rng.uniform(-0.8, 0.8))
    if style == "dot":
        r = rng.uniform(0.18, 0.3) * m
        cx, cy = x + w / 2 + j(0.08), y + h / 2 + j(0.08)
        return _hatch(rng, cx - r, cy - r, cx + r, cy + r, max(width * 0.7, 0.3), rng.uniform(0, 3), "ellipse") + [
            _ring(rng, cx, cy, r * 0.9, r * 0.9, 1.0)
        ]
    if style == "circle":  # a ring plainly inside the printed circle, or round it where there is room
        f = rng.uniform(1.2, 1.35) if room >= 1.2 and rng.random() < 0.5 else rng.uniform(0.45, 0.72)
        return [_ring(rng, x + w / 2 + j(0.04), y + h / 2 + j(0.04), w / 2 * f, h / 2 * f, rng.uniform(1.0, 1.25))]
    raise ValueError(style)


def _veg_strokes(rng, b, width: float, pencil: bool) -> list:
    """A vegetable drawn in a garden cell: a shape coloured in and its outline."""
    x, y, w, h = b.x, b.y, b.w, b.h
    fw, fh = rng.uniform(0.5, 0.85), rng.uniform(0.5, 0.85)
    cx, cy = x + w / 2 + rng.normal(0, 0.05 * w), y + h / 2 + rng.normal(0, 0.05 * h)
    x0, x1 = cx - w * fw / 2, cx + w * fw / 2
    y0, y1 = cy - h * fh / 2, cy + h * fh / 2
    sp = max(width * (rng.uniform(0.8, 1.5) if pencil else rng.uniform(1.5, 2.6)), 0.35)
    strokes = _hatch(rng, x0, y0, x1, y1, sp, rng.uniform(-1, 1), "ellipse")
    strokes.append(_ring(rng, cx, cy, w * fw / 2, h * fh / 2, 1.05))
    # a leaf or stalk on top
    strokes.append(_wobbly(rng, (cx, y0 + 0.2), (cx + rng.uniform(-0.15, 0.15) * w, y0 - 0.12 * h), 0.05, 4))
    return strokes


def _margins(boxes: list) -> dict:
    """For each box, how far (mm) a mark may stray past its border before it reaches
    another box's inside."""
    out = {}
    for b in boxes:
        best = 3.0
        for o in boxes:
            if o is b:
                continue
            dx = max(o.x - (b.x + b.w), b.x - (o.x + o.w), 0)
            dy = max(o.y - (b.y + b.h), b.y - (o.y + o.h), 0)
            best = min(best, max(dx, dy))
        out[b.field] = max(best - 0.3, 0.0)
    return out


def marks(rng, sheet: Sheet, boxes: list, garden: set, vkind: str = "") -> tuple[dict, dict]:
    """Mark 10-80% of the tick boxes and garden cells with one player's pen; (truth, kinds)."""
    tick = [b for b in boxes if b.kind in ("check", "round", "mini") and b.field not in garden]
    cells = [b for b in boxes if b.field in garden]
    margin = _margins(boxes)
    pen = str(rng.choice(list(PENS)))
    colour, strength, width, grain = PENS[pen]
    habit = str(rng.choice(STYLES, p=[0.3, 0.2, 0.15, 0.15, 0.2]))
    second = str(rng.choice(STYLES))  # a player's other habit, now and then
    frac = rng.uniform(0.1, 0.8)
    truth: dict = {}
    kinds: dict = {}
    extra = f" +{vkind}" if vkind else ""
    width_mm = rng.uniform(*width)
    over = rng.uniform(0.0, 2.0)  # how far this player strays past a border (mm), at most
    for b in tick:
        on = rng.random() < frac
        truth[b.field] = bool(on)
        if not on:
            kinds[b.field] = f"none/empty{extra}"
            continue
        style = habit if rng.random() < 0.85 else second
        if b.kind == "round" and rng.random() < 0.5:
            style = "circle"
        m = min(margin[b.field], rng.uniform(0, over))
        if style == "circle":
            m = min(margin[b.field], 1.5)
        strokes = _mark_strokes(rng, style, b, width_mm, m)
        sheet.ink(
            rng,
            strokes,
            (b.x - m, b.y - m, b.x + b.w + m, b.y + b.h + m),
            colour,
            rng.uniform(*strength),
            width_mm * rng.uniform(0.9, 1.1),
            grain,
        )
        kinds[b.field] = f"{pen}/{style}{extra}"
    if cells:
        grey = rng.random() < 0.25  # some players draw the garden with their pen, not colour pencils
        cfrac = rng.uniform(0.1, 0.8)
        for b in cells:
            if rng.random() >= cfrac:
                truth[b.field] = ""
                kinds[b.field] = f"none/empty{extra}"
                continue
            m = min(margin[b.field], rng.uniform(0, over))
            clip = (b.x - m, b.y - m, b.x + b.w + m, b.y + b.h + m)
            if grey or rng.random() < 0.08:
                truth[b.field] = {"felt-green": "S", "felt-red": "T"}.get(pen, "?")
                strokes = _veg_strokes(rng, b, width_mm, True)
                sheet.ink(rng, strokes, clip, colour, rng.uniform(*strength), width_mm, grain)
                kinds[b.field] = f"{pen}/veg{extra}"
            else:
                letter = str(rng.choice(list(VEG)))
                name, col = VEG[letter]
                cw = rng.uniform(0.5, 0.8)
                sheet.ink(rng, _veg_strokes(rng, b, cw, True), clip, col, rng.uniform(0.7, 0.9), cw, 0.35)
                truth[b.field] = letter
                kinds[b.field] = f"{name}/veg{extra}"
    return truth, kinds


# ---------------------------------------------------------------------------------------- camera


def _table(rng, h: int, w: int) -> np.ndarray:
    """A table top (wood, grey, white, dark) at 1/8 of the photo's size, RGB float32."""
    base = [(150, 108, 70), (120, 120, 118), (222, 218, 210), (52, 46, 40), (170, 140, 100)][int(rng.integers(5))]
    h8, w8 = max(h // 8, 2), max(w // 8, 2)
    tex = cv2.resize(rng.normal(0, 1, (max(h // 64, 2), max(w // 64, 2))).astype(np.float32), (w8, h8))
    streak = cv2.resize(rng.normal(0, 1, (max(h // 8, 2), 3)).astype(np.float32), (w8, h8))
    return np.asarray(base, np.float32)[None, None, :] * (1 + 0.05 * tex + 0.04 * streak)[..., None]


def photograph(rng, page: np.ndarray, page_dpi: float) -> tuple[np.ndarray, str]:
    """The printed A4 page on a table, taken by a phone: (RGB uint8, what the camera did)."""
    ph, pw = page.shape[:2]
    dpi = rng.uniform(120, 300)
    tilt = math.radians(rng.uniform(0, 15))
    phi = rng.uniform(0, 2 * math.pi)
    roll = rng.uniform(0, 2 * math.pi)
    a, b = tilt * math.cos(phi), tilt * math.sin(phi)
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    rot = rz @ ry @ rx
    dist = rng.uniform(300, 500)  # mm from the sheet: a phone's wide lens
    pw_mm, ph_mm = pw / page_dpi * 25.4, ph / page_dpi * 25.4
    corners_mm = np.array([[0, 0], [pw_mm, 0], [pw_mm, ph_mm], [0, ph_mm]]) - (pw_mm / 2, ph_mm / 2)
    fill = rng.uniform(0.75, 0.92)
    for _ in range(8):
        f = dpi / 25.4 * dist  # px at the sheet's centre
        proj = []
        for X, Y in corners_mm:
            p = rot @ np.array([X, Y, 0.0]) + (0, 0, dist)
            proj.append((f * p[0] / p[2], f * p[1] / p[2]))
        proj = np.array(proj)
        lo, hi = proj.min(0), proj.max(0)
        size = hi - lo
        if size[0] > size[1]:
            W = size[0] / fill
            H = max(size[1] / fill, W * 3 / 4)
            W = max(W, H * 4 / 3)
        else:
            H = size[1] / fill
            W = max(size[0] / fill, H * 3 / 4)
            H = max(H, W * 4 / 3)
        if W * H <= 11.8e6:
            break
        dpi *= math.sqrt(11.4e6 / (W * H))
    W, H = int(W), int(H)
    sx_, sy_ = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)
    shift = ((W - size[0]) * (0.5 + sx_) - lo[0], (H - size[1]) * (0.5 + sy_) - lo[1])
    dst = (proj + shift).astype(np.float32)
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    hmat = cv2.getPerspectiveTransform(src, dst)
    shrink = page_dpi / dpi
    pg = cv2.GaussianBlur(page, (0, 0), 0.45 * shrink) if shrink > 1.3 else page
    # the table, with the sheet's soft shadow, at 1/8 scale, then the sheet warped onto it
    small = _table(rng, H, W)
    h8, w8 = small.shape[:2]
    eighth = np.diag([w8 / W, h8 / H, 1.0]) @ hmat
    inside = cv2.warpPerspective(np.ones((ph, pw), np.float32), eighth, (w8, h8))
    small *= (1 - 0.3 * cv2.GaussianBlur(inside, (0, 0), 1.5))[..., None]
    img = cv2.resize(np.clip(small, 0, 255).astype(np.uint8), (W, H), interpolation=cv2.INTER_LINEAR)
    cv2.warpPerspective(pg, hmat, (W, H), dst=img, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    sigma = rng.uniform(0.4, 1.1)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    # light: a gentle slope, a soft spot, vignetting, white balance
    yy, xx = np.mgrid[0:64, 0:64].astype(np.float32) / 63
    ang = rng.uniform(0, 2 * math.pi)
    slope = 1 + rng.uniform(0.04, 0.18) * ((xx - 0.5) * math.cos(ang) + (yy - 0.5) * math.sin(ang))
    sx, sy, sr = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.5)
    spot = 1 + rng.uniform(0.0, 0.08) * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (2 * sr**2))
    vig = 1 - rng.uniform(0.0, 0.12) * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 2
    wb = np.array([rng.uniform(0.95, 1.05), 1.0, rng.uniform(0.92, 1.05)], np.float32)
    gain = (rng.uniform(0.82, 0.98) * slope * spot * vig).astype(np.float32)[..., None] * wb
    f = img.astype(np.float32)
    cv2.multiply(f, cv2.resize(gain, (W, H)), dst=f)
    noise = rng.uniform(1.5, 4.5)
    grain = np.empty_like(f)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(grain, 0.0, noise)
    cv2.add(f, grain, dst=f)
    img = np.clip(f, 0, 255, out=f).astype(np.uint8)
    q = int(rng.integers(70, 93))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, q])
    img = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    what = (
        f"{W}x{H} {W * H / 1e6:.1f}MP {dpi:.0f}dpi tilt {math.degrees(tilt):.0f} roll {math.degrees(roll):.0f} "
        f"blur {sigma:.2f} noise {noise:.1f} jpeg {q}"
    )
    return img, what


def photo(layout, page_id: str, rng, vkind: str = "", lang: str | None = None, players=None):
    """(RGB uint8 photo, truth, kinds) of one page of `layout` played: kinds field -> "pen/style
    +variant-kind", and "_photo" what the camera did."""
    from sheetgen.scan.blank import grid_cells

    if lang is None:
        lang = "fr" if rng.random() < 0.5 else "en"
    if players is None:
        pl = layout.players
        players = int(rng.integers(pl["min"], pl["max"] + 1)) if pl["min"] < pl["max"] else None
    pdf, at, boxes = page_pdf(layout, page_id, lang, players)
    dpi = float(rng.choice([200, 250, 300]))
    img = render(pdf, int(dpi)).copy()
    sheet = Sheet(img, dpi, at.left, at.top)
    truth, kinds = marks(rng, sheet, boxes, grid_cells(layout, page_id), vkind)
    out, what = photograph(rng, sheet.img, dpi)
    kinds["_photo"] = f"{lang} players {players} {what}"
    return out, truth, kinds
