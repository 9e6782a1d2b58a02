"""How fast and how small sheetgen is, against naive baselines, in one run.

    python -m bench.speed            # full run (about ten minutes, most of it the naive baselines)
    python -m bench.speed --quick    # smoke mode: small pads, one run each (well under a minute)

Measures, in one process (plus child processes for the CLI):

- render: one sheet and pads of 100 and 1000 copies for `harvest-dice-normal`
  and for the largest built-in layout (the one with the most display-list
  primitives, chosen at run time): wall time (median of --runs) and PDF size;
- baseline: the same pads drawn the naive way, plain reportlab with every page
  redrawn (the project's own `draw_prims` on every page, no Form XObject), and
  the ratios ours/baseline for time and size;
- processes: the commands a user waits for, as whole processes (median wall time
  of --runs, CPU time, peak memory, output size): `--help`, one sheet, a
  1000-copy pad, 100 fillable copies, scoring one record and 1000 records (JSON
  lines, multi-document YAML); each beside its baseline: the same command with
  sheetgen's user cache off (a first run), the same 1000 records as 1000 files,
  and the floor (Python starting and importing reportlab, PyYAML and Click);
- fillable: the same 100 copies in process, against the naive way (reportlab's
  acroForm, one set of appearance streams built per field);
- scoring: records per second for each built-in layout whose game has rules,
  through `sheetgen.scoring.api.score_data` one by one (the baseline) and
  `score_many` (the batch API), on a synthetic valid record.

Prints a table, PASS/MISS per target, writes everything as JSON to output/bench.json
(or --json PATH) and appends it as one line to bench/results.jsonl (--results PATH for
another file, --results '' for none), from which `python -m bench.report` makes the tables
of bench/RESULTS.md. Not part of the test run: timings depend on the machine;
tests/test_bench_smoke.py only checks that --quick runs.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import results

ROOT = Path(__file__).resolve().parents[1]

HARVEST = "harvest-dice-normal"
KIB = 1024

# The targets (2-core machine, medians of whole processes unless said otherwise).
PAD_COPIES = 1000
PAD_PROCESS_S = 0.35  # `sheetgen render harvest-dice-normal --copies 1000`, whole process
PAD_SIZE_KIB = 300
PAD_SPEEDUP = 10.0  # in process, against the naive baseline
PAD_SHRINK = 5.0
HELP_S = 0.08
RENDER_CLI_S = {HARVEST: 0.25, "imperial-settlers-advanced": 0.30}
RENDER_CLI_OTHER_S = 0.30  # the largest layout, if another one is the largest
SCORE_ONE_S = 0.20
SCORE_BULK_S = 1.0  # 1000 records in one JSON-lines or multi-document YAML file
BULK_RECORDS = 1000
FILLABLE_LAYOUT = "imperial-settlers-advanced"
FILLABLE_COPIES = 100
FILLABLE_S = 3.0
FILLABLE_MB = 10.0
BATCH_RATE = 20_000  # Harvest Dice records a second, through sheetgen.scoring.api.score_many


def median_time(fn, runs: int) -> tuple[float, object]:
    """Median wall time of `runs` calls of fn (after none: callers warm up), and the last result."""
    times, result = [], None
    for _ in range(max(1, runs)):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


# ---------------------------------------------------------------- rendering


def primitive_count(layout) -> int:
    return sum(len(layout.display(page, "en")) for page in layout.pages)


def pick_layouts(log) -> tuple[list[dict], list[str]]:
    """harvest-dice-normal and the built-in layout with the most primitives."""
    from sheetgen.games import load_layout
    from sheetgen.layout.resolve import builtin_ids

    counted, broken = [], []
    for lid in builtin_ids():
        try:
            lay = load_layout(lid)
            counted.append((primitive_count(lay), lid, lay))
        except Exception as exc:  # a layout someone is still writing: skip it, say so
            broken.append(f"{lid}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
            log(f"  skipped layout {lid} (does not load: {type(exc).__name__})")
    by_id = {lid: (n, lay) for n, lid, lay in counted}
    if not counted:
        raise SystemExit("no built-in layout loads")
    largest = max(counted, key=lambda t: (t[0], t[1]))
    chosen = []
    if HARVEST in by_id:
        chosen.append({"id": HARVEST, "role": "harvest", "layout": by_id[HARVEST][1], "primitives": by_id[HARVEST][0]})
    if largest[1] != HARVEST:
        chosen.append({"id": largest[1], "role": "largest", "layout": largest[2], "primitives": largest[0]})
    else:
        chosen[0]["role"] = "harvest, largest"
    return chosen, broken


def render_ours(layout, copies: int) -> bytes:
    from sheetgen.render import render_pdf

    return render_pdf(layout, lang="en", paper="a4", copies=copies)


def render_baseline(layout, copies: int, displays: list) -> bytes:
    """The naive way: plain reportlab, every page of every copy redrawn (no Form XObject)."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from sheetgen import text as fonts
    from sheetgen.paper import PAPERS
    from sheetgen.render.pdf import draw_prims, placement

    pw, ph = PAPERS["a4"]
    buf = io.BytesIO()
    # same canvas settings as ours (compressed, invariant, DejaVu as the initial font): only
    # the drawing strategy differs
    c = Canvas(
        buf, pagesize=(pw * mm, ph * mm), invariant=1, pageCompression=1, initialFontName=fonts.font_name("sans")
    )
    at = placement(layout, "a4")
    for _ in range(copies):
        for prims in displays:
            draw_prims(c, prims, at)
            c.showPage()
    c.save()
    return buf.getvalue()


def bench_render(chosen: list[dict], copies_list: list[int], runs: int, baseline_runs: dict, log) -> list[dict]:
    rows = []
    for item in chosen:
        lay = item["layout"]
        displays = [lay.display(page, "en") for page in lay.pages]
        render_ours(lay, 1)  # warm up: fonts registered, text fitted
        render_baseline(lay, 1, displays)
        for copies in copies_list:
            t, data = median_time(lambda lay=lay, copies=copies: render_ours(lay, copies), runs)
            peak = _peak(lambda lay=lay, copies=copies: render_ours(lay, copies))
            b_runs = baseline_runs.get(copies, 1)
            bt, bdata = median_time(
                lambda lay=lay, copies=copies, displays=displays: render_baseline(lay, copies, displays), b_runs
            )
            row = {
                "layout": item["id"],
                "role": item["role"],
                "primitives": item["primitives"],
                "pages_per_copy": len(lay.pages),
                "copies": copies,
                "time_s": round(t, 5),
                "size_bytes": len(data),
                "peak_kib": peak,
                "runs": runs,
                "baseline_time_s": round(bt, 5),
                "baseline_size_bytes": len(bdata),
                "baseline_runs": b_runs,
                "time_ratio": round(t / bt, 5) if bt else None,
                "size_ratio": round(len(data) / len(bdata), 5) if bdata else None,
            }
            rows.append(row)
            log(
                f"  {item['id']} x{copies}: {t * 1000:.1f} ms {len(data) / KIB:.0f} KiB; "
                f"baseline {bt * 1000:.0f} ms {len(bdata) / KIB:.0f} KiB"
            )
    return rows


# ---------------------------------------------------------------- whole processes


GNU_TIME = "/usr/bin/time"


def run_process(argv: list[str], cwd: str, env: dict) -> dict:
    """One whole process: wall time, CPU time (user + sys, from wait4) and peak memory (max
    RSS); its output goes to files, its exit status is checked. Linux counts in a child's
    max RSS the memory of the process it was forked from (this one, ~70 MiB), so the peak
    is taken from GNU time (%M), a small process in between, when it is installed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile() as rss:
        wrap = [GNU_TIME, "-f", "%M", "-o", rss.name] if os.access(GNU_TIME, os.X_OK) else []
        t = time.perf_counter()
        proc = subprocess.Popen(wrap + argv, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"exited {proc.returncode}: {err.read().decode('utf-8', 'replace').strip()[-500:]}")
        peak = usage.ru_maxrss
        if wrap:
            lines = Path(rss.name).read_text(encoding="utf-8").split()
            peak = int(lines[-1]) if lines and lines[-1].isdigit() else peak
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kib": peak}


def _median_process(argv, cwd, env, runs: int, warm: bool = True) -> dict:
    if warm:
        run_process(argv, cwd, env)  # warm up: bytecode, OS file caches, sheetgen's user cache
    got = [run_process(argv, cwd, env) for _ in range(max(1, runs))]
    return {
        "time_s": round(statistics.median(g["wall"] for g in got), 5),
        "cpu_s": round(statistics.median(g["cpu"] for g in got), 5),
        "peak_kib": max(g["rss_kib"] for g in got),
    }


def bench_processes(runs: int, log, largest: str | None, quick: bool, records: dict) -> list[dict]:
    """The commands a user waits for, as whole processes, as a user starts them. Bytecode
    is cached (in a private PYTHONPYCACHEPREFIX, filled by a warm-up run), as after `pip
    install`: this machine's PYTHONDONTWRITEBYTECODE=1 would otherwise recompile
    sheetgen's sources in every process. sheetgen's user cache (parsed fonts, validated
    layouts) lives in a private folder, filled by the warm-up run; each command's
    baseline is either the same command with that cache off (what a first run costs),
    or the naive way of doing the same work."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="sheetgen-bench-") as tmp:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        env["SHEETGEN_CACHE_DIR"] = str(Path(tmp) / "cache")
        cold = dict(env, SHEETGEN_CACHE_DIR="off")
        out = str(Path(tmp) / "out.pdf")
        py = [sys.executable]
        sg = py + ["-m", "sheetgen"]
        files = _record_files(Path(tmp), records)
        copies = 10 if quick else PAD_COPIES
        fill = 5 if quick else FILLABLE_COPIES
        n_bulk = files["n"]
        floor = py + ["-c", "import click, yaml, reportlab.pdfgen.canvas"]
        cases = [
            ("sheetgen --help", sg + ["--help"], ("python -c pass", py + ["-c", "pass"], env)),
            (f"render {HARVEST}", sg + ["render", HARVEST, "-o", out], ("same, cache off", None, cold)),
        ]
        if largest and largest != HARVEST:
            cases.append((f"render {largest}", sg + ["render", largest, "-o", out], ("same, cache off", None, cold)))
        cases += [
            (
                f"render {HARVEST} --copies {copies}",
                sg + ["render", HARVEST, "--copies", str(copies), "-o", out],
                ("same, cache off", None, cold),
            ),
            (
                f"render {HARVEST} --copies {copies} --per-page 2",
                sg + ["render", HARVEST, "--copies", str(copies), "--per-page", "2", "-o", out],
                ("same, cache off", None, cold),
            ),
            (
                f"render {FILLABLE_LAYOUT} --fillable --copies {fill}",
                sg + ["render", FILLABLE_LAYOUT, "--fillable", "--copies", str(fill), "-o", out],
                ("same, cache off", None, cold),
            ),
            ("score one record", sg + ["score", files["one"], "--format", "json"], ("same, cache off", None, cold)),
            (
                f"score {n_bulk} records (JSON lines)",
                sg + ["score", files["jsonl"], "--format", "jsonl"],
                (f"{n_bulk} record files", sg + ["score", *files["many"], "--format", "jsonl"], env),
            ),
            (
                f"score {n_bulk} records (YAML documents)",
                sg + ["score", files["yaml"], "--format", "jsonl"],
                (f"{n_bulk} record files", sg + ["score", *files["many"], "--format", "jsonl"], env),
            ),
            ("floor: python, import click, yaml, reportlab", floor, None),
        ]
        for name, argv, base in cases:
            row = {"command": name, "argv": _shown(argv, tmp), "runs": runs}
            try:
                row.update(_median_process(argv, tmp, env, runs))
                row["output_bytes"] = os.path.getsize(out) if "-o" in argv else None
                if base is not None:
                    bname, bargv, benv = base
                    b = _median_process(bargv or argv, tmp, benv, runs, warm=bargv is not None)
                    row.update(baseline=bname, baseline_time_s=b["time_s"], baseline_peak_kib=b["peak_kib"])
                row["status"] = "ok"
                log(
                    f"  {name}: {row['time_s'] * 1000:.0f} ms (cpu {row['cpu_s'] * 1000:.0f} ms, "
                    f"peak {row['peak_kib'] / KIB:.0f} MiB)"
                    + (f"; {row['baseline']}: {row['baseline_time_s'] * 1000:.0f} ms" if base else "")
                )
            except Exception as exc:
                row.update(time_s=None, cpu_s=None, peak_kib=None, status=f"error: {exc}")
                log(f"  {name}: error: {exc}")
            rows.append(row)
    return rows


def _shown(argv: list[str], tmp: str) -> str:
    words = ["python"] + [a.replace(tmp, "TMP") for a in argv[1:]]
    if len(words) > 12:
        words = words[:6] + [f"... ({len(words) - 8} more)"] + words[-2:]
    return " ".join(words)


def _record_files(folder: Path, records: dict) -> dict:
    """One Harvest Dice record, the same record 1000 times as JSON lines, as YAML documents,
    and as 1000 files (the baseline)."""
    import yaml

    rec, n = records["record"], records["n"]
    one = folder / "game.yaml"
    one.write_text(yaml.safe_dump(rec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    jsonl = folder / "games.jsonl"
    jsonl.write_text("".join(json.dumps(rec, ensure_ascii=False) + "\n" for _ in range(n)), encoding="utf-8")
    docs = folder / "games.yaml"
    docs.write_text("".join("---\n" + one.read_text(encoding="utf-8") for _ in range(n)), encoding="utf-8")
    many = folder / "many"
    many.mkdir()
    names = []
    for i in range(n):
        path = many / f"game{i:04d}.yaml"
        path.write_text(one.read_text(encoding="utf-8"), encoding="utf-8")
        names.append(str(path))
    return {"one": str(one), "jsonl": str(jsonl), "yaml": str(docs), "many": names, "n": n}


# ---------------------------------------------------------------- fillable, in process


def naive_fields(c, boxes, at, copy: int) -> None:
    """The naive form fields: reportlab's acroForm.checkbox/textfield for each box, each
    building its own appearance streams: the baseline of sheetgen's shared ones."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.units import mm

    from sheetgen.layout.display import field_name

    form = c.acroForm
    for p in boxes:
        name = field_name(p.field, copy)
        x, y, w, h = at.x(p.x), at.y(p.y + p.h), p.w * mm, p.h * mm
        common = dict(borderWidth=0, fillColor=None, borderColor=None, fieldFlags="", annotationFlags="print")
        if p.kind in ("check", "round", "mini"):
            size = min(w, h) - (0.9 * mm if p.kind == "check" else 0)
            form.checkbox(
                name=name, x=x + (w - size) / 2, y=y + (h - size) / 2, size=size, checked=False,
                buttonStyle="cross", textColor=HexColor("#333333"), tooltip=p.field, **common,
            )  # fmt: skip
        else:
            form.textfield(
                name=name, x=x + 0.5, y=y + 0.5, width=w - 1, height=h - 1, value="",
                textColor=HexColor("#1a1a1a"), tooltip=p.field, fontName="Helvetica",
                fontSize=min(14, max(6, h * 0.55)), maxlen=200, **common,
            )  # fmt: skip


def bench_fillable(copies: int, runs: int, log) -> dict:
    """100 fillable copies in process: ours, and the naive fields (run once: ~30x slower)."""
    import sheetgen.render.pdf as pdf
    from sheetgen.games import load_layout

    lay = load_layout(FILLABLE_LAYOUT)
    doc = lay.document("en", None, None)
    ours = lambda: pdf.pdf_bytes(doc, paper="a4", copies=copies, fillable=True)  # noqa: E731
    ours()
    t, data = median_time(ours, runs)
    peak = _peak(ours)
    real = pdf.add_fields
    pdf.add_fields = naive_fields
    try:
        bt, bdata = median_time(ours, 1)
    finally:
        pdf.add_fields = real
    row = {
        "layout": FILLABLE_LAYOUT,
        "copies": copies,
        "time_s": round(t, 5),
        "size_bytes": len(data),
        "peak_kib": peak,
        "baseline_time_s": round(bt, 5),
        "baseline_size_bytes": len(bdata),
    }
    log(
        f"  {FILLABLE_LAYOUT} fillable x{copies}: {t * 1000:.0f} ms {len(data) / KIB:.0f} KiB; "
        f"naive {bt * 1000:.0f} ms {len(bdata) / KIB:.0f} KiB"
    )
    return row


def _peak(fn) -> int:
    """Peak memory (KiB) that Python allocates while fn runs (tracemalloc, in a run of its own)."""
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] // KIB
    finally:
        tracemalloc.stop()


# ---------------------------------------------------------------- scoring


def _harvest_player(layout, i: int) -> dict:
    grid = layout.element("garden")
    rows, cols = grid["rows"], grid["cols"]
    letters = "CST"
    garden = []
    for r in range(rows):
        # each vegetable in one block of columns (so every one touches its kind); rows fill unevenly
        row = "".join(letters[min(c * 3 // cols, 2)] for c in range(cols))
        keep = cols - ((r + i) % 3)
        garden.append(row[:keep] + "." * (cols - keep))
    pig_total = sum(s["boxes"] for s in layout.element("pig")["sections"])
    market = {}
    for veg in ("carrot", "salad", "tomato"):
        m = layout.element(f"market_{veg}")
        boxes = sum(s["boxes"] for s in m["sections"])
        market[veg] = min(boxes, m.get("prechecked", 0) + 2)  # shared die: the same for everyone
    return {"garden": garden, "pig": (7 + 5 * i) % (pig_total + 1), "market": market}


def _bosk_extra(layout, player: dict, i: int, players: int) -> None:
    inner = {2: 7, 3: 9, 4: 11}.get(players, 7)
    player["trees"] = [[1 + (i + k) % inner, 1 + (2 * k + i) % inner, 1 + k % 4] for k in range(4)]
    if isinstance(player.get("leaves"), list):
        player["leaves"] = [(i + k) % 5 for k in range(len(player["leaves"]))]


def _plante_extra(layout, player: dict, i: int, players: int) -> None:
    player["harvested"] = [3, 5 - i % 3, -2, 4, 1 + i]


SPECIFIC = {"harvest-dice": _harvest_player}
# applied to a blank record (each kept only if the record stays valid), before raising the numbers
EXTRA = {"bosk": _bosk_extra, "plante-bataille": _plante_extra}


def _fill_numbers(record: dict, valid) -> None:
    """Greedily raise each whole-number leaf of every player to a small non-zero value,
    keeping only the changes that still make a valid record (so the record exercises
    the rules, not only an empty sheet)."""

    def leaves(node, path=()):
        if isinstance(node, dict):
            for k, v in node.items():
                yield from leaves(v, path + (k,))
        elif isinstance(node, list):
            for k, v in enumerate(node):
                yield from leaves(v, path + (k,))
        elif isinstance(node, int) and not isinstance(node, bool):
            yield path

    for p_index, player in enumerate(record["players"]):
        for path in list(leaves(player)):
            if path and path[0] == "name":
                continue
            parent = player
            for key in path[:-1]:
                parent = parent[key]
            old = parent[path[-1]]
            for candidate in (old + 1 + (p_index + len(path)) % 3, old + 1):
                parent[path[-1]] = candidate
                if valid(record):
                    break
            else:
                parent[path[-1]] = old


def make_record(layout, score_data) -> tuple[dict, str]:
    """A valid synthetic record for `layout`, and how it was made."""
    from sheetgen.games import game_for

    module = game_for(layout)
    lo, hi = module.player_range(layout)
    n = max(lo, min(hi, max(layout.players["default"], 3)))
    names = ["Alice", "Bob", "Chloé", "Dmitri", "Eve", "Farid"]

    def valid(rec) -> bool:
        try:
            score_data(copy.deepcopy(rec), "<bench>")
            return True
        except Exception:
            return False

    specific = SPECIFIC.get(layout.game)
    if specific is not None:
        rec = {
            "layout": layout.id,
            "players": [dict({"name": names[i % len(names)]}, **specific(layout, i)) for i in range(n)],
        }
        if valid(rec):
            return rec, "synthetic"
    if not hasattr(module, "blank_player"):
        raise LookupError(f"{layout.game}: no blank_player() to build a record from")
    rec = {
        "layout": layout.id,
        "players": [
            dict({"name": names[i % len(names)]}, **copy.deepcopy(module.blank_player(layout))) for i in range(n)
        ],
    }
    if not valid(rec):
        score_data(copy.deepcopy(rec), "<bench>")  # raise the real error
    if layout.game in EXTRA:
        trial = copy.deepcopy(rec)
        for i, p in enumerate(trial["players"]):
            EXTRA[layout.game](layout, p, i, n)
        if valid(trial):
            rec = trial
    _fill_numbers(rec, valid)
    return rec, "blank+filled"


def bench_scoring(runs: int, min_batch_s: float, log) -> list[dict]:
    try:
        from sheetgen.scoring.api import score_data, score_many
    except Exception as exc:
        log(f"  scoring not available: {type(exc).__name__}: {exc}")
        return [
            {
                "game": "*",
                "layout": "*",
                "status": f"not available ({type(exc).__name__}: {exc})",
                "records_per_s": None,
            }
        ]
    from sheetgen.games import load_layout
    from sheetgen.layout.resolve import builtin_ids

    rows = []
    for lid in builtin_ids():
        try:
            lay = load_layout(lid)
        except Exception:
            continue
        row = {"game": lay.game, "layout": lid, "players": None, "records_per_s": None}
        try:
            rec, how = make_record(lay, score_data)
        except Exception as exc:
            row["status"] = f"not available ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})"
            rows.append(row)
            log(f"  {lid}: {row['status']}")
            continue
        row["players"] = len(rec["players"])
        row["record"] = how
        # batch size: enough records for each batch to last at least min_batch_s
        batch, t = 1, 0.0
        while True:
            t0 = time.perf_counter()
            for _ in range(batch):
                score_data(rec, "<bench>")
            t = time.perf_counter() - t0
            if t >= min_batch_s or batch >= 1 << 16:
                break
            batch *= 4 if t < min_batch_s / 8 else 2
        rates = []
        for _ in range(max(1, runs)):
            t0 = time.perf_counter()
            for _ in range(batch):
                score_data(rec, "<bench>")
            rates.append(batch / (time.perf_counter() - t0))
        row["records_per_s"] = round(statistics.median(rates), 1)
        many = [rec] * max(batch, 100)
        rates = []
        for _ in range(max(1, runs)):
            t0 = time.perf_counter()
            score_many(many, "<bench>")
            rates.append(len(many) / (time.perf_counter() - t0))
        row["batch_records_per_s"] = round(statistics.median(rates), 1)
        row["batch_peak_kib"] = _peak(lambda many=many: score_many(many, "<bench>"))
        row["batch_size"] = len(many)
        row["status"] = "ok"
        rows.append(row)
        log(
            f"  {lid}: {row['records_per_s']:.0f} records/s one by one, {row['batch_records_per_s']:.0f} "
            f"in a batch ({row['players']} players, {how})"
        )
    if not rows:
        rows.append({"game": "*", "layout": "*", "status": "not available (no layout loads)", "records_per_s": None})
    return rows


# ---------------------------------------------------------------- targets, table


def targets(render_rows: list[dict], procs: list[dict], fillable: dict | None, scoring: list[dict]) -> list[dict]:
    """Each target against its limit (and the naive baseline where there is one)."""
    out = []

    def add(name, value, limit, unit, ok, note=""):
        status = "SKIP" if value is None else ("PASS" if ok else "MISS")
        out.append(
            {
                "target": name,
                "value": value,
                "limit": limit,
                "unit": unit,
                "status": status,
                **({"note": note} if note else {}),
            }
        )

    by = {r["command"]: r for r in procs}

    def proc(command: str, limit: float, label: str, size_limit_kib: float | None = None):
        r = by.get(command) or {}
        t = r.get("time_s")
        base = f"{r['baseline']}: {r['baseline_time_s']:.3f} s" if r.get("baseline_time_s") is not None else ""
        mem = f"peak {r['peak_kib'] / KIB:.0f} MiB" if r.get("peak_kib") else ""
        note = "; ".join(x for x in (base, mem) if x) or r.get("status", "not run")
        add(label, t, limit, "s <=", t is not None and t <= limit, note)
        if size_limit_kib is not None:
            kib = round(r["output_bytes"] / KIB, 1) if r.get("output_bytes") else None
            add(label.replace("time", "size"), kib, size_limit_kib, "KiB <=", kib is not None and kib <= size_limit_kib)

    proc("sheetgen --help", HELP_S, "sheetgen --help (process)")
    for command in by:
        if command.startswith("render ") and " --" not in command:
            lid = command.split()[1]
            proc(command, RENDER_CLI_S.get(lid, RENDER_CLI_OTHER_S), f"one sheet, whole process [{lid}]")
    for per_page in ("", " --per-page 2"):  # the pad, and the same 2-up: the same targets
        pad = next(
            (c for c in by if c.startswith(f"render {HARVEST} --copies") and ("--per-page" in c) == bool(per_page)),
            None,
        )
        what = f"{PAD_COPIES}-copy {'2-up ' if per_page else ''}pad"
        if pad and int(pad.split()[3]) == PAD_COPIES:
            proc(pad, PAD_PROCESS_S, f"{what} time, whole process [{HARVEST}]", PAD_SIZE_KIB)
        else:
            add(f"{what}, whole process", None, PAD_PROCESS_S, "s <=", False, "not in --quick")
    fill = next((c for c in by if "--fillable" in c), None)
    if fill and int(fill.split()[-1]) == FILLABLE_COPIES:
        proc(fill, FILLABLE_S, f"{FILLABLE_COPIES} fillable copies time, whole process [{FILLABLE_LAYOUT}]")
        r = by[fill]
        mb = round(r["output_bytes"] / 1e6, 2) if r.get("output_bytes") else None
        note = f"naive: {fillable['baseline_size_bytes'] / 1e6:.1f} MB" if fillable else ""
        add(f"{FILLABLE_COPIES} fillable copies size [{FILLABLE_LAYOUT}]", mb, FILLABLE_MB, "MB <=",
            mb is not None and mb <= FILLABLE_MB, note)  # fmt: skip
    else:
        add(f"{FILLABLE_COPIES} fillable copies, whole process", None, FILLABLE_S, "s <=", False, "not in --quick")
    proc("score one record", SCORE_ONE_S, "sheetgen score, one record (process)")
    for command in by:
        if command.startswith("score ") and "records (" in command:
            n = int(command.split()[1])
            if n == BULK_RECORDS:
                proc(command, SCORE_BULK_S, f"sheetgen score, {command[6:]} (process)")
            else:
                add(f"sheetgen {command}", None, SCORE_BULK_S, "s <=", False, f"only {n} records in --quick")
    h = next((r for r in scoring if r.get("layout") == HARVEST and r.get("batch_records_per_s")), None)
    if h:
        add(
            f"Harvest Dice records/s, batch API (score_many) [{HARVEST}]",
            h["batch_records_per_s"],
            BATCH_RATE,
            "records/s >=",
            h["batch_records_per_s"] >= BATCH_RATE,
            f"one by one (score_data): {h['records_per_s']:.0f}/s; peak {h['batch_peak_kib'] / KIB:.1f} MiB "
            f"for {h['batch_size']} records",
        )
    for r in render_rows:
        if r["copies"] != PAD_COPIES:
            continue
        tag = f" [{r['layout']}, {r['pages_per_copy'] * r['copies']} pages, in process]"
        speed = round(r["baseline_time_s"] / r["time_s"], 1)
        add(f"pad speed-up vs naive baseline{tag}", speed, PAD_SPEEDUP, "x >=", speed >= PAD_SPEEDUP)
        shrink = round(r["baseline_size_bytes"] / r["size_bytes"], 1)
        add(f"pad size reduction vs naive baseline{tag}", shrink, PAD_SHRINK, "x >=", shrink >= PAD_SHRINK)
    return out


def _ms(s):
    return "-" if s is None else f"{s * 1000:.1f} ms"


def _mib(kib):
    return "-" if not kib else f"{kib / KIB:.1f} MiB"


def _kib(b):
    return "-" if b is None else f"{b / KIB:.1f} KiB"


def table(result: dict) -> str:
    lines = []

    def grid(head, rows):
        width = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        fmt = lambda r: "| " + " | ".join(str(x).ljust(w) for x, w in zip(r, width)) + " |"  # noqa: E731
        lines.append(fmt(head))
        lines.append("|" + "|".join("-" * (w + 2) for w in width) + "|")
        lines.extend(fmt(r) for r in rows)
        lines.append("")

    m = result["machine"]
    lines.append(
        f"sheetgen bench ({'quick' if result['quick'] else 'full'}): python {m['python']}, "
        f"reportlab {m['reportlab']}, pypdf {m['pypdf']}, {m['cpus']} CPUs, "
        f"rl_accel C extension: {'yes' if m['rl_accel'] else 'no'}; median of {result['runs']} runs; "
        f"load average {m['load_before']} before, {result['load_after']} after"
    )
    lines.append("")
    lines.append(
        "Whole processes (bytecode cached: PYTHONDONTWRITEBYTECODE is unset for them, their .pyc files in a "
        "private PYTHONPYCACHEPREFIX filled by a warm-up run; median wall time, CPU time, peak memory = max RSS)"
    )
    lines.append("")
    grid(
        ["command", "wall time", "cpu time", "peak memory", "output", "baseline", "baseline time", "baseline peak"],
        [
            [
                r["argv"],
                _ms(r.get("time_s")),
                _ms(r.get("cpu_s")),
                _mib(r.get("peak_kib")),
                _kib(r.get("output_bytes")),
                r.get("baseline", "-") if r["status"] == "ok" else r["status"],
                _ms(r.get("baseline_time_s")),
                _mib(r.get("baseline_peak_kib")),
            ]
            for r in result["processes"]
        ],
    )
    lines.append(
        "Rendering (in process, layout loaded; baseline = plain reportlab, every page redrawn; "
        "peak = Python allocations, tracemalloc)"
    )
    lines.append("")
    grid(
        ["layout", "prims", "copies", "time", "size", "peak", "baseline time", "baseline size", "time ratio",
         "size ratio"],
        [
            [
                r["layout"],
                r["primitives"],
                r["copies"],
                _ms(r["time_s"]),
                _kib(r["size_bytes"]),
                _mib(r.get("peak_kib")),
                _ms(r["baseline_time_s"]) + (f" (x{r['baseline_runs']})" if r["baseline_runs"] != r["runs"] else ""),
                _kib(r["baseline_size_bytes"]),
                f"{r['time_ratio']:.4f}",
                f"{r['size_ratio']:.4f}",
            ]
            for r in result["render"]
        ],
    )  # fmt: skip
    f = result.get("fillable")
    if f:
        lines.append("Fillable (in process; naive = reportlab's acroForm fields, appearance streams built per field)")
        lines.append("")
        grid(
            ["layout", "copies", "time", "size", "peak", "naive time", "naive size"],
            [
                [
                    f["layout"],
                    f["copies"],
                    _ms(f["time_s"]),
                    _kib(f["size_bytes"]),
                    _mib(f["peak_kib"]),
                    _ms(f["baseline_time_s"]),
                    _kib(f["baseline_size_bytes"]),
                ]
            ],
        )
    lines.append("Scoring (synthetic valid records; one by one: score_data; batch: score_many)")
    lines.append("")
    grid(
        ["game", "layout", "players", "record", "one by one /s", "batch /s", "batch peak", "status"],
        [
            [
                r["game"],
                r["layout"],
                r.get("players") or "-",
                r.get("record", "-"),
                "-" if r["records_per_s"] is None else f"{r['records_per_s']:.0f}",
                "-" if r.get("batch_records_per_s") is None else f"{r['batch_records_per_s']:.0f}",
                _mib(r.get("batch_peak_kib")),
                r["status"],
            ]
            for r in result["scoring"]
        ],
    )
    lines.append("Targets")
    lines.append("")
    grid(
        ["target", "value", "limit", "result"],
        [
            [
                t["target"],
                "-" if t["value"] is None else t["value"],
                f"{t['unit']} {t['limit']}",
                t["status"] + (f" ({t['note']})" if t.get("note") else ""),
            ]
            for t in result["targets"]
        ],
    )
    return "\n".join(lines)


def machine() -> dict:
    import pypdf
    import reportlab

    try:
        import _rl_accel  # noqa: F401  (reportlab's optional C accelerator, a separate package)

        accel = True
    except ImportError:
        accel = False
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "reportlab": reportlab.Version,
        "pypdf": pypdf.__version__,
        "rl_accel": accel,
        "load_before": _load(),
    }


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on this platform
        return "n/a"


def _bulk_record(n: int) -> dict:
    """The synthetic Harvest Dice record that the scoring benchmark uses, to score n times."""
    from sheetgen.games import load_layout
    from sheetgen.scoring.api import score_data

    rec, _ = make_record(load_layout(HARVEST), score_data)
    return {"record": rec, "n": n}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.speed", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smoke mode: small pads, one run each")
    ap.add_argument("--runs", type=int, default=None, help="runs per measure (median; default 5, quick 1)")
    ap.add_argument("--json", default=str(ROOT / "output" / "bench.json"), help="where to write the JSON")
    ap.add_argument(
        "--results",
        metavar="PATH",
        default=str(results.RESULTS),
        help="append the run as one line to PATH (default bench/results.jsonl; '' for none)",
    )
    args = ap.parse_args(argv)
    quick = args.quick
    runs = args.runs or (1 if quick else 5)
    copies_list = [1, 10] if quick else [1, 100, PAD_COPIES]
    # The baseline redraws every page (~35 ms each without rl_accel): a 1000-copy baseline
    # takes ~35 s, so it runs once; the smaller ones take the median of up to 3 runs.
    baseline_runs = {1: runs, 10: 1, 100: min(runs, 3), PAD_COPIES: 1}
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731

    started = time.perf_counter()
    info = machine()
    log("layouts")
    chosen, broken = pick_layouts(log)
    log("rendering")
    render_rows = bench_render(chosen, copies_list, runs, baseline_runs, log)
    log("fillable")
    fillable = bench_fillable(5 if quick else FILLABLE_COPIES, runs, log)
    log("scoring")
    scoring_rows = bench_scoring(runs, 0.02 if quick else 0.2, log)
    log("whole processes")
    largest = next((c["id"] for c in chosen if "largest" in c["role"]), None)
    records = _bulk_record(20 if quick else BULK_RECORDS)
    procs = bench_processes(runs, log, largest, quick, records)
    result = {
        "command": "python -m bench.speed" + (" --quick" if quick else ""),
        "quick": quick,
        "runs": runs,
        "machine": info,
        "load_after": _load(),
        "layouts_skipped": broken,
        "render": render_rows,
        "processes": procs,
        "fillable": fillable,
        "scoring": scoring_rows,
    }
    result["targets"] = targets(render_rows, procs, fillable, scoring_rows)
    result["elapsed_s"] = round(time.perf_counter() - started, 2)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    text = table(result)
    print(text)
    where = results.where()
    where.pop("load")  # (the machine's load is in result["machine"], before and after)
    row = {"bench": "speed", "scenario": "quick" if quick else "full", **where, **result}
    results.append(row, Path(args.results) if args.results else None)
    print(f"wrote {out} in {result['elapsed_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
