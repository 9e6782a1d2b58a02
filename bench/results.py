"""bench/results.jsonl: every bench's results, one JSON object a line, appended.

Each line has "bench" (scan, speed, end-to-end, serve, ...), "scenario", "date" (UTC, ISO),
the numbers the bench measured, and where they were measured ("commit", "versions",
"load"). `python -m bench.report` makes bench/RESULTS.md and docs/scan-accuracy.md from
the latest line of each bench and scenario.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.jsonl"


def read(path: Path = RESULTS) -> list[dict]:
    """Every line of the results file, in order (none when it does not exist)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    rows = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{n}: not a JSON line: {exc}") from None
    return rows


def latest(rows: list[dict]) -> dict:
    """{(bench, scenario): its last line}, in the order each was first seen."""
    out: dict = {}
    for row in rows:
        out[(row.get("bench", "?"), row.get("scenario", ""))] = row  # (a key keeps its first place)
    return out


def where() -> dict:
    """Where a result is measured: the date, the commit (and whether sheetgen/ differs from
    it), the versions that matter, the machine's load."""
    return {
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "commit": _git("rev-parse", "--short", "HEAD")
        + ("+changes" if _git("status", "--porcelain", "sheetgen") else ""),
        "versions": _versions(),
        "cpus": os.cpu_count(),
        "load": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


def append(row: dict, path: Path | None = RESULTS) -> None:
    """Append one result line (`path` None: nowhere). One write of one line, in append mode:
    a line is never half there, and runs of several benches add to the same file."""
    if path is None:
        return
    line = json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
    print(f"appended to {_shown(path)}", file=sys.stderr)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("rollwrite", "opencv-python-headless", "numpy", "reportlab"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            pass
    return out
