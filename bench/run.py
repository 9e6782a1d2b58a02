"""sheetgen benchmarks: how fast and how small, against a naive baseline, in one run.

    python bench/run.py            # full run (about two minutes; the baseline is slow)
    python bench/run.py --quick    # smoke mode: small pads, one run each (a few seconds)

Measures, in one process (plus child processes for the CLI):

- render: one sheet and pads of 100 and 1000 copies for `harvest-dice-normal`
  and for the largest built-in layout (the one with the most display-list
  primitives, chosen at run time): wall time (median of --runs) and PDF size;
- baseline: the same pads drawn the naive way, plain reportlab with every page
  redrawn (the project's own `draw_prims` on every page, no Form XObject), and
  the ratios ours/baseline for time and size;
- cli: cold start as whole processes (`python -m sheetgen --help`,
  `python -m sheetgen render harvest-dice-normal -o TMP`), median of --runs;
- scoring: records per second for each built-in layout whose game has rules,
  through `sheetgen.scoring.api.score_data`, on a synthetic valid record.

Prints a table, PASS/MISS per target, and writes everything as JSON to
output/bench.json (or --json PATH). Not part of the test run: timings depend on
the machine; tests/test_bench_smoke.py only checks that --quick runs.
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

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HARVEST = "harvest-dice-normal"
KIB = 1024

# Targets of issue 6 (2-core machine, medians).
PAD_COPIES = 1000
PAD_TIME_S = 1.5
PAD_SIZE_KIB = 600
PAD_SPEEDUP = 10.0
PAD_SHRINK = 5.0
HELP_S = 0.25
RENDER_CLI_S = 0.6


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
    from sheetgen.layout.model import load_layout
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


# ---------------------------------------------------------------- CLI cold start


def bench_cli(runs: int, log, largest: str | None = None) -> list[dict]:
    """Whole processes, as a user starts them. Bytecode is cached (in a private
    PYTHONPYCACHEPREFIX, filled by a warm-up run), as after `pip install`: this
    machine's PYTHONDONTWRITEBYTECODE=1 would otherwise recompile sheetgen's
    sources in every process. Wall time is the target; CPU time (user + sys of
    the child) is shown too, since wall time suffers when other work shares the CPUs."""
    import resource

    rows = []
    with tempfile.TemporaryDirectory(prefix="sheetgen-bench-") as tmp:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        out = str(Path(tmp) / "sheet.pdf")
        shown = lambda argv: " ".join("TMP" if a == out else a for a in ["python"] + argv[1:])  # noqa: E731
        commands = [
            ("sheetgen --help", [sys.executable, "-m", "sheetgen", "--help"]),
            (f"sheetgen render {HARVEST} -o TMP", [sys.executable, "-m", "sheetgen", "render", HARVEST, "-o", out]),
        ]
        if largest and largest != HARVEST:
            commands.append(
                (f"sheetgen render {largest} -o TMP", [sys.executable, "-m", "sheetgen", "render", largest, "-o", out])
            )
        commands += [
            ("python -c pass (interpreter alone)", [sys.executable, "-c", "pass"]),
        ]
        for name, argv in commands:
            cpu = []

            def once(argv=argv, cpu=cpu, name=name):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                done = subprocess.run(
                    argv, cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120
                )
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                if done.returncode != 0:
                    raise RuntimeError(f"{name} exited {done.returncode}: {done.stderr.strip()[-500:]}")

            try:
                once()  # warm up: bytecode and OS file caches
                cpu.clear()
                t, _ = median_time(once, runs)
                rows.append(
                    {
                        "command": name,
                        "argv": shown(argv),
                        "time_s": round(t, 5),
                        "cpu_s": round(statistics.median(cpu), 5),
                        "runs": runs,
                        "status": "ok",
                    }
                )
                log(f"  {name}: {t * 1000:.0f} ms (cpu {statistics.median(cpu) * 1000:.0f} ms)")
            except Exception as exc:
                rows.append(
                    {
                        "command": name,
                        "argv": shown(argv),
                        "time_s": None,
                        "cpu_s": None,
                        "runs": runs,
                        "status": f"error: {exc}",
                    }
                )
                log(f"  {name}: error: {exc}")
    return rows


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
        from sheetgen.scoring.api import score_data
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
    from sheetgen.layout.model import load_layout
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
        row["status"] = "ok"
        rows.append(row)
        log(f"  {lid}: {row['records_per_s']:.0f} records/s ({row['players']} players, {how})")
    if not rows:
        rows.append({"game": "*", "layout": "*", "status": "not available (no layout loads)", "records_per_s": None})
    return rows


# ---------------------------------------------------------------- targets, table


def targets(render_rows: list[dict], cli_rows: list[dict]) -> list[dict]:
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

    pads = [r for r in render_rows if r["copies"] == PAD_COPIES]
    if not pads:
        for name, limit, unit in (
            (f"{PAD_COPIES}-copy pad time", PAD_TIME_S, "s <"),
            (f"{PAD_COPIES}-copy pad size", PAD_SIZE_KIB, "KiB <"),
            ("pad speed-up vs baseline", PAD_SPEEDUP, "x >="),
            ("pad size reduction vs baseline", PAD_SHRINK, "x >="),
        ):
            add(name, None, limit, unit, False, f"no {PAD_COPIES}-copy pad in this run (--quick)")
    for r in pads:
        tag = f" [{r['layout']}, {r['pages_per_copy'] * r['copies']} pages]"
        add(f"{PAD_COPIES}-copy pad time{tag}", r["time_s"], PAD_TIME_S, "s <", r["time_s"] < PAD_TIME_S)
        kib = round(r["size_bytes"] / KIB, 1)
        add(f"{PAD_COPIES}-copy pad size{tag}", kib, PAD_SIZE_KIB, "KiB <", kib < PAD_SIZE_KIB)
        speed = round(r["baseline_time_s"] / r["time_s"], 1)
        add(f"pad speed-up vs baseline{tag}", speed, PAD_SPEEDUP, "x >=", speed >= PAD_SPEEDUP)
        shrink = round(r["baseline_size_bytes"] / r["size_bytes"], 1)
        add(f"pad size reduction vs baseline{tag}", shrink, PAD_SHRINK, "x >=", shrink >= PAD_SHRINK)
    by_cmd = {r["command"]: r for r in cli_rows}
    h = by_cmd.get("sheetgen --help", {}).get("time_s")
    add("sheetgen --help (cold process)", h, HELP_S, "s <", h is not None and h < HELP_S)
    for r in cli_rows:
        if r["command"].startswith("sheetgen render "):
            rn, lid = r["time_s"], r["command"].split()[2]
            add(
                f"one sheet end to end (cold process) [{lid}]",
                rn,
                RENDER_CLI_S,
                "s <",
                rn is not None and rn < RENDER_CLI_S,
            )
    return out


def _ms(s):
    return "-" if s is None else f"{s * 1000:.1f} ms"


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
    lines.append("Rendering (in process, layout loaded; baseline = plain reportlab, every page redrawn)")
    lines.append("")
    grid(
        ["layout", "prims", "copies", "time", "size", "baseline time", "baseline size", "time ratio", "size ratio"],
        [
            [
                r["layout"],
                r["primitives"],
                r["copies"],
                _ms(r["time_s"]),
                _kib(r["size_bytes"]),
                _ms(r["baseline_time_s"]) + (f" (x{r['baseline_runs']})" if r["baseline_runs"] != r["runs"] else ""),
                _kib(r["baseline_size_bytes"]),
                f"{r['time_ratio']:.4f}",
                f"{r['size_ratio']:.4f}",
            ]
            for r in result["render"]
        ],
    )
    lines.append("CLI cold start (whole processes, bytecode cached)")
    lines.append("")
    grid(
        ["command", "wall time", "cpu time", "status"],
        [[r["argv"], _ms(r["time_s"]), _ms(r.get("cpu_s")), r["status"]] for r in result["cli"]],
    )
    lines.append("Scoring (sheetgen.scoring.api.score_data, synthetic valid records)")
    lines.append("")
    grid(
        ["game", "layout", "players", "record", "records/s", "status"],
        [
            [
                r["game"],
                r["layout"],
                r.get("players") or "-",
                r.get("record", "-"),
                "-" if r["records_per_s"] is None else f"{r['records_per_s']:.0f}",
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smoke mode: small pads, one run each")
    ap.add_argument("--runs", type=int, default=None, help="runs per measure (median; default 5, quick 1)")
    ap.add_argument("--json", default=str(ROOT / "output" / "bench.json"), help="where to write the JSON")
    ap.add_argument(
        "--results",
        metavar="PATH",
        default=None,
        help="also write the table as Markdown to PATH (e.g. bench/RESULTS.md, copied into the README)",
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
    log("cli cold start")
    largest = next((c["id"] for c in chosen if "largest" in c["role"]), None)
    cli_rows = bench_cli(runs, log, largest)
    log("scoring")
    scoring_rows = bench_scoring(runs, 0.02 if quick else 0.2, log)
    result = {
        "command": "python bench/run.py" + (" --quick" if quick else ""),
        "quick": quick,
        "runs": runs,
        "machine": info,
        "load_after": _load(),
        "layouts_skipped": broken,
        "render": render_rows,
        "cli": cli_rows,
        "scoring": scoring_rows,
    }
    result["targets"] = targets(render_rows, cli_rows)
    result["elapsed_s"] = round(time.perf_counter() - started, 2)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    text = table(result)
    print(text)
    if args.results:
        md = Path(args.results)
        try:
            shown = out.resolve().relative_to(ROOT)
        except ValueError:
            shown = out
        md.write_text(
            f"# Benchmark results\n\nMade by `{result['command']}` on "
            f"{time.strftime('%Y-%m-%d', time.gmtime())} (`python bench/run.py --quick` is the "
            f"fast smoke mode); the same numbers as JSON: `{shown}`.\n\n{text.rstrip()}\n",
            encoding="utf-8",
        )
        print(f"wrote {md}")
    print(f"wrote {out} in {result['elapsed_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
