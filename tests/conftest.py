"""Shared test helpers: golden PDF comparison (after fpdf2's test/conftest.py).

`assert_pdf_equal(actual_bytes, golden)` compares a PDF with a golden file in
tests/golden/ byte for byte (the renderer uses reportlab's invariant=1, so
identical input gives identical bytes). Run `python -m pytest --regenerate` to
rewrite the goldens instead of failing; review the new files before committing.
The goldens record the reportlab version that made them
(tests/golden/reportlab-version.txt); under another version, bytes may differ
for the same drawing, so the comparison then falls back to what is drawn
(metadata, page sizes, text and decompressed content streams).

On a mismatch the failure says how the PDFs differ, most useful first: page
count, page sizes, metadata, page text, then the first differing lines of the
decompressed content streams (Form XObjects included), and the sizes. The
actual PDF is saved beside the temp folder so it can be opened.
"""

from __future__ import annotations

import atexit
import difflib
import io
import os
import shutil
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
GOLDEN = TESTS / "golden"
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures" / "layouts"

_REGENERATE = False

# sheetgen's user cache (parsed fonts, validated layouts: sheetgen.cache) in a fresh folder
# of this run (of this worker, under pytest-xdist), never the user's, so that the tests start
# cold; it is removed when the process ends, so a run leaves nothing in the temp folder
_CACHE = tempfile.mkdtemp(prefix="sheetgen-test-cache-")
os.environ["SHEETGEN_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
MAX_DIFF_LINES = 24  # per differing part


def pytest_addoption(parser):
    parser.addoption(
        "--regenerate",
        action="store_true",
        default=False,
        help="rewrite the golden files (tests/golden/) instead of comparing with them",
    )
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (photos generated and read, subprocess batteries, "
        "browsers, large Hypothesis budgets); .ci/run does",
    )


def pytest_configure(config):
    global _REGENERATE
    _REGENERATE = bool(config.getoption("--regenerate", default=False))
    # tmp_path folders under a folder of this run's own (pytest-xdist's workers take theirs
    # inside it), removed when the run ends: two runs at once never clear each other's
    # (pytest's shared pytest-of-<user> folder keeps only the last few runs)
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix="sheetgen-pytest-")
        config.add_cleanup(lambda: shutil.rmtree(config.option.basetemp, ignore_errors=True))


def pytest_collection_modifyitems(config, items):
    """The default run leaves out the tests marked slow (deselected, and counted so)."""
    if config.getoption("--run-slow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


# --------------------------------------------------------------------------- PDF digest


def _streams(obj, name: str, seen: set, out: list) -> None:
    """Decompressed content of a page or Form XObject, then of the forms it uses."""
    from pypdf.generic import IndirectObject

    ref = obj.indirect_reference if hasattr(obj, "indirect_reference") else None
    key = (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else id(obj)
    if key in seen:
        out.append(f"[{name}: same object as before]")
        return
    seen.add(key)
    if "/Contents" in obj:  # a page
        contents = obj.get_contents()
        data = contents.get_data() if contents is not None else b""
    else:  # a form
        data = obj.get_data()
    out.append(f"[{name}]")
    out += data.decode("latin-1").splitlines()
    resources = obj.get("/Resources")
    resources = resources.get_object() if resources is not None else {}
    xobjects = resources.get("/XObject") if resources else None
    if xobjects:
        xobjects = xobjects.get_object()
        for xname in sorted(xobjects):
            x = xobjects[xname].get_object()
            if x.get("/Subtype") == "/Form":
                _streams(x, f"{name} {xname}", seen, out)


def pdf_digest(data: bytes) -> dict:
    """What a person wants to compare between two PDFs, as lists of text lines."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    meta = reader.metadata or {}
    pages = reader.pages
    digest = {
        "pages": [f"{len(pages)} pages"],
        "page sizes": [
            f"page {n + 1}: {float(p.mediabox.width):.2f} x {float(p.mediabox.height):.2f} pt"
            for n, p in enumerate(pages[:20])
        ],
        "metadata": [f"{k} = {meta[k]}" for k in sorted(meta)],
        "text": [],
        "content streams": [],
    }
    seen: set = set()
    for n, page in enumerate(pages[:20]):  # a pad repeats its first pages
        digest["text"].append(f"[page {n + 1}]")
        digest["text"] += (page.extract_text() or "").splitlines()
        _streams(page, f"page {n + 1}", seen, digest["content streams"])
    return digest


def describe_pdf_difference(actual: bytes, expected: bytes) -> str:
    lines = [f"sizes: actual {len(actual)} bytes, golden {len(expected)} bytes"]
    try:
        a, e = pdf_digest(actual), pdf_digest(expected)
    except Exception as exc:  # pragma: no cover - unreadable PDF
        return "\n".join(lines + [f"cannot read the PDFs with pypdf: {exc!r}"])
    differ = [part for part in a if a[part] != e[part]]
    for part in differ:
        diff = list(difflib.unified_diff(e[part], a[part], "golden", "actual", lineterm="", n=2))
        lines.append(f"{part} differ:")
        lines += ["  " + d for d in diff[:MAX_DIFF_LINES]]
        if len(diff) > MAX_DIFF_LINES:
            lines.append(f"  ... {len(diff) - MAX_DIFF_LINES} more diff lines")
    if not differ:
        at = next((i for i, (x, y) in enumerate(zip(actual, expected)) if x != y), min(len(actual), len(expected)))
        lines.append(
            "page count, sizes, metadata, text and content streams are equal; "
            f"the bytes first differ at offset {at} (fonts, object order or the PDF trailer):"
        )
        lines.append(f"  golden: {expected[max(0, at - 40) : at + 40]!r}")
        lines.append(f"  actual: {actual[max(0, at - 40) : at + 40]!r}")
    return "\n".join(lines)


def reportlab_version() -> str:
    from importlib.metadata import version

    return version("reportlab")


def golden_reportlab_version() -> str | None:
    try:
        return (GOLDEN / "reportlab-version.txt").read_text().strip()
    except OSError:
        return None


def golden_file(golden: str | os.PathLike) -> Path:
    path = Path(golden)
    return path if path.is_absolute() else GOLDEN / path


def assert_pdf_equal(actual: bytes, golden: str | os.PathLike) -> None:
    """Fail unless `actual` equals the golden PDF byte for byte (see the module doc)."""
    path = golden_file(golden)
    if _REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != actual:
            path.write_bytes(actual)
        if golden_reportlab_version() != reportlab_version():
            (GOLDEN / "reportlab-version.txt").write_text(reportlab_version() + "\n")
        return
    if not path.exists():
        pytest.fail(
            f"no golden file {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}; "
            f"create it with: python -m pytest --regenerate",
            pytrace=False,
        )
    expected = path.read_bytes()
    if actual == expected:
        return
    made_with, installed = golden_reportlab_version(), reportlab_version()
    if made_with and made_with != installed:
        # Another reportlab writes other bytes (font subsets, object order) for the same
        # drawing: then what is drawn must still be the same, stream by stream.
        a, e = pdf_digest(actual), pdf_digest(expected)
        for d in (a, e):
            d["metadata"] = [line for line in d["metadata"] if not line.startswith("/Producer")]
        if a == e:
            return
    keep = Path(tempfile.gettempdir()) / "sheetgen-golden-mismatch" / path.name
    keep.parent.mkdir(parents=True, exist_ok=True)
    keep.write_bytes(actual)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    versions = (
        f"\nthe goldens were made with reportlab {made_with}; this is reportlab {installed}"
        if made_with and made_with != installed
        else ""
    )
    pytest.fail(
        f"PDF differs from the golden file {shown}\n{describe_pdf_difference(actual, expected)}\n"
        f"actual PDF saved as {keep}; if the change is intended, run: python -m pytest --regenerate"
        f"{versions}",
        pytrace=False,
    )


@pytest.fixture(name="assert_pdf_equal")
def _assert_pdf_equal_fixture():
    """The assert_pdf_equal helper, as a fixture (tests need not import conftest)."""
    return assert_pdf_equal


# ----------------------------------------------------------------------------- game records


def record_text(layout: str, players: dict) -> str:
    """A record's YAML text: `players` maps each name to its fields (values in JSON flow style)."""
    import json

    out = [f"layout: {layout}", "players:"]
    for name, fields in players.items():
        out.append(f"  - name: {name}")
        for key, value in fields.items():
            out.append(f"    {key}: {json.dumps(value)}")
    return "\n".join(out) + "\n"


def score_text(text: str, name: str = "game.yaml"):
    """Score a record's text as if read from the file `name`."""
    from sheetgen.scoring.record import score_data
    from sheetgen.yamlsrc import loads

    return score_data(loads(text, name), name)
