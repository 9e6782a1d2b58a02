"""The benches run and write their results: the speed bench (in --quick mode) its JSON and its
line of results; the scan runner and the decision store one photo each; the report makes the
committed bench/RESULTS.md and docs/scan-accuracy.md from the committed results. No timing
assertions: timings depend on the machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import report, results
from bench.photos import GENERATORS

ROOT = Path(__file__).resolve().parents[1]


def _bench(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """`python -m bench.NAME ARGS` from the clone's root."""
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_committed_reports_are_made_from_the_committed_results():
    """bench/RESULTS.md and docs/scan-accuracy.md are what `python -m bench.report` makes from
    bench/results.jsonl: no table is typed by hand, none is left behind its results."""
    rows = results.read()
    for path, text in report.outputs(rows).items():
        assert path.read_text(encoding="utf-8") == text, f"{path.relative_to(ROOT)}: run python -m bench.report"
    ran = {r["scenario"] for r in rows if r["bench"] == "scan"}
    assert {g.name for g in GENERATORS} <= ran  # every generator of the registry is measured
    accuracy = (ROOT / "docs" / "scan-accuracy.md").read_text(encoding="utf-8")
    assert all(g.simulates in accuracy for g in GENERATORS)


def test_the_report_shows_the_latest_run_of_each_scenario():
    line = dict(bench="scan", date="2026-01-02", seed=1, photos=10, refused=0, boxes=700, wrong=1, unsure=7)
    line |= dict(s_per_photo=0.5, cells=20, unknown_vegetables=2, wrong_vegetables=0)
    rows = [{**line, "scenario": "pencil"}, {**line, "scenario": "flatbed"}, {**line, "scenario": "pencil", "wrong": 0}]
    text = report.accuracy(rows)
    pencil = next(g for g in GENERATORS if g.name == "pencil")
    assert f"| {pencil.simulates} | tuning | 10 | 0 | 700 | 0 | 1.00% | 0.50 |" in text
    assert "The held-out generators together (1): 10 photos, 0 refused, 700 boxes, 1 wrong (0.14%)" in text
    serve = {"bench": "serve", "scenario": "pages", "date": "2026-01-03", "rps": 512}
    other = report.results_md([*rows, serve, {**serve, "scenario": "photos", "rps": 3}])
    assert "## serve\n\n| scenario | date | rps |\n|---|---|---|\n| pages | 2026-01-03 | 512 |\n| photos |" in other
    one = report.results_md([*rows, serve])  # one run: a measure a line
    assert (
        "## serve\n\n| measure | value |\n|---|---|\n| scenario | pages |\n| date | 2026-01-03 |\n| rps | 512 |" in one
    )


@pytest.mark.slow
def test_the_report_shows_the_numbers_by_the_way_each_is_written():
    """Each way a number is written (its pen, its size, struck out), counted by the numbers
    bench, makes a row under the numbers table; the reasons for '?' do not."""
    from collections import Counter

    from bench.numbers import by_writing

    tags = {
        "pencil": Counter(numbers=40, right=30, unread=10),
        "over the border": Counter(numbers=20, right=8, wrong=1, unread=11),
        "'?': not sure": Counter(unread=12),
        "-": Counter(empties=5),
    }
    assert list(by_writing(tags)) == ["over the border", "pencil"]
    line = dict(bench="numbers", scenario="strokes", seed=19, sheets=3, numbers=60, right=38, wrong=1, unread=21)
    line |= dict(empties=5, empty_wrong=0, ms_per_number=17.0, sure=0.9, by_writing=by_writing(tags))
    text = report.accuracy([line])
    assert "| written | numbers | kept right | kept wrong | left '?' |" in text
    assert "| over the border | 20 | 8 | 1 | 11 (55.00%) |\n| pencil | 40 | 30 | 0 | 10 (25.00%) |" in text


def test_bench_quick_writes_json(tmp_path):
    out, lines = tmp_path / "bench.json", tmp_path / "results.jsonl"
    done = _bench("bench.speed", "--quick", "--json", str(out), "--results", str(lines), timeout=120)
    assert "Targets" in done.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"command", "quick", "runs", "machine", "render", "processes", "fillable", "scoring", "targets"} <= set(data)
    assert data["quick"] is True
    [line] = results.read(lines)
    assert line["bench"] == "speed" and line["scenario"] == "quick" and line["targets"] == data["targets"]
    assert "Whole processes" in report.results_md([line])

    render = data["render"]
    assert {r["layout"] for r in render} >= {"harvest-dice-normal"}
    for r in render:
        assert {
            "layout",
            "copies",
            "time_s",
            "size_bytes",
            "baseline_time_s",
            "baseline_size_bytes",
            "time_ratio",
            "size_ratio",
        } <= set(r)
        assert r["size_bytes"] > 0 and r["baseline_size_bytes"] > 0
    assert {r["copies"] for r in render} >= {1}

    procs = {r["command"]: r for r in data["processes"]}
    assert {"sheetgen --help", "render harvest-dice-normal", "score one record"} <= set(procs)
    assert any("--fillable" in c for c in procs) and any("records (JSON lines)" in c for c in procs)
    assert all(r["status"] == "ok" for r in procs.values()), procs
    for r in procs.values():  # time and peak memory, and a baseline beside each but the floor
        assert r["time_s"] > 0 and r["cpu_s"] >= 0 and r["peak_kib"] > 0, r
        assert r["command"].startswith("floor") or r["baseline_time_s"] > 0, r

    fill = data["fillable"]
    assert fill["size_bytes"] > 0 and fill["baseline_size_bytes"] > fill["size_bytes"], fill

    assert data["scoring"], "one row per layout"
    for r in data["scoring"]:
        assert {"game", "layout", "records_per_s", "batch_records_per_s", "status"} <= set(r)
        assert r["status"] == "ok" and r["records_per_s"] > 0 and r["batch_records_per_s"] > 0, r

    assert data["targets"]
    for t in data["targets"]:
        # quick mode skips the long targets and measures too few runs to judge the others:
        # a MISS or a SKIP is allowed, a measured target without its number is not
        assert t["status"] in {"PASS", "MISS", "SKIP"}, t
        assert (t["value"] is None) == (t["status"] == "SKIP"), t


def test_the_scan_runner_lists_its_generators_and_refuses_an_unknown_one(capsys):
    from bench import scan

    assert scan.main(["--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == [g.name for g in GENERATORS]
    with pytest.raises(SystemExit) as exit_:
        scan.main(["--scenario", "nothing"])
    assert exit_.value.code == 2 and "no generator nothing; --list lists them" in capsys.readouterr().err


@pytest.mark.slow
def test_the_scan_runner_reads_a_photo_and_appends_its_totals(tmp_path):
    lines = tmp_path / "results.jsonl"
    done = _bench("bench.scan", "--scenario", "pencil", "--seed", "11", "--photos", "1", "--results", str(lines))
    assert "| harvest-dice-normal sheet | 1 | 0 |" in done.stdout
    [line] = results.read(lines)
    assert {k: line[k] for k in ("bench", "scenario", "seed", "photos", "refused", "held_out")} == {
        "bench": "scan",
        "scenario": "pencil",
        "seed": 11,
        "photos": 1,
        "refused": 0,
        "held_out": False,
    }
    assert line["boxes"] > 20 and line["wrong"] == 0 and line["s_per_photo"] > 0


@pytest.mark.slow
def test_scan_decide_keeps_every_box_and_decides_it_again(tmp_path):
    """bench.scan_decide: one photo of the pencil generator kept (a JSON line a box: its look and
    its page's levels, as the reader returns them) and decided again with the same reader: the
    same readings."""
    _bench("bench.scan_decide", "keep", "pencil", "11", "1", str(tmp_path))
    rows = [json.loads(line) for line in (tmp_path / "pencil_11.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) > 20 and {r["photo"] for r in rows} == {0}
    assert all({"field", "truth", "read", "look", "levels"} <= set(r) and "score" in r["look"] for r in rows)
    assert all(r["look"]["field"] == r["field"] and set(r["levels"]) == {"noise", "noisy", "washed"} for r in rows)
    done = _bench("bench.scan_decide", "compare", str(tmp_path), timeout=120)
    line = next(x for x in done.stdout.splitlines() if x.startswith("| pencil 11 |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1] == str(len(rows)) and cells[3] == cells[4]  # boxes; wrong then = wrong now
    assert cells[6].startswith(cells[5] + " ")  # unsure then, unsure now (and its share)
    assert "->" not in done.stdout  # no reading changed


@pytest.mark.slow
def test_scan_boxes_keeps_a_page_and_decides_its_boxes_again(tmp_path):
    """bench.scan_boxes: one photo of the pencil generator kept (the aligned page, its blank
    page and colours, its boxes) and its boxes decided again, none wrong."""
    _bench("bench.scan_boxes", "keep", str(tmp_path), "--scenario", "pencil", "--seed", "11", "--photos", "1")
    assert [p.name for p in tmp_path.iterdir()] == ["0.npz"]
    done = _bench("bench.scan_boxes", "read", str(tmp_path), timeout=120)
    assert done.stdout.startswith(f"{tmp_path}: 1 pages, 82 boxes: 0 wrong, ")
