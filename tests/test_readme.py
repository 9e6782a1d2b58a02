"""The README as a user meets it: its tour runs top to bottom in an empty folder with the
installed `sheetgen` command, every command of the CLI is in its table, and every page it
links to exists (as sqlite-utils checks its docs)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sheetgen.cli import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SHEETGEN = shutil.which("sheetgen", path=os.path.dirname(sys.executable)) or shutil.which("sheetgen")


def section(title: str) -> str:
    """The text of the README's `## title` section."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def tour_lines() -> list[str]:
    """The tour's shell lines, the ones that say they wait left out."""
    block = re.search(r"```sh\n(.*?)```", section("A tour"), re.S).group(1)
    return [line for line in block.splitlines() if "# waits" not in line]


def test_the_tour_leaves_out_only_the_lines_that_wait():
    block = re.search(r"```sh\n(.*?)```", section("A tour"), re.S).group(1)
    waiting = [line.split()[1] for line in block.splitlines() if "# waits" in line]
    assert waiting == ["render", "score", "serve"]
    for line in block.splitlines():
        if "# waits" in line:
            assert re.search(r"--watch|--interactive|^sheetgen serve\b", line), line


@pytest.mark.skipif(SHEETGEN is None, reason="the sheetgen command is not installed")
def test_the_tour_runs_top_to_bottom_in_an_empty_folder(tmp_path):
    script = "set -euo pipefail\n" + "\n".join(tour_lines()) + "\n"
    env = {
        "PATH": os.path.dirname(SHEETGEN) + os.pathsep + os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "SHEETGEN_DB": str(tmp_path / "history.sqlite"),
        "SHEETGEN_CACHE_DIR": os.environ["SHEETGEN_CACHE_DIR"],
        "LANG": "C.UTF-8",
    }
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    for made in ("output/harvest-dice-normal.pdf", "pad.pdf", "pad-2up.pdf", "empire.pdf", "glassworks.pdf"):
        assert (tmp_path / made).read_bytes().startswith(b"%PDF")
    assert (tmp_path / "bosk-1.png").exists() and (tmp_path / "bosk-2.png").exists()
    assert "Winner: Bob" in done.stdout
    assert re.search(r'"winners": \[\s*"Bob"\s*\]', done.stdout)
    history = done.stdout[done.stdout.rindex("Harvest Dice") :]
    assert "Alice" in history and "Bob" in history


def test_every_command_is_in_the_readme_table():
    table = section("Commands")
    listed = re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    assert sorted(listed) == sorted(cli.commands), "README's command table and the CLI differ"


def test_every_linked_page_exists():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            assert (doc.parent / target).is_file(), f"{doc.relative_to(ROOT)} links to a missing {target}"
