"""The layers of docs/architecture.md, checked on the source: imports point one way,
nothing below the CLI imports Click, no module imports another in a cycle, and no
caller probes a game with hasattr; inside the layout package, imports point one way
too, its modules and functions are small, no pass leaves keys of its own on
an element, and one function is named load_layout."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "sheetgen"

# lower number = lower layer; a module may import its own layer or a lower one
LAYERS = {
    "ground": 0,
    "layout": 1,
    "games": 2,
    "scoring": 3,
    "render": 3,
    "history": 4,
    "scan": 4,
    "api": 5,
    "serve": 6,
    "cli": 7,
}
GROUND = {
    "errors",
    "srctree",
    "yamlsrc",
    "schema",
    "numbers",
    "text",
    "icons",
    "cells",
    "paper",
    "fileio",
    "cache",
    "values",
    "__init__",
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "ground"
    if parts[1] in ("cli", "__main__"):
        return "cli"
    if parts[1] in GROUND:
        return "ground"
    return parts[1]


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}


def imports(path: Path) -> list[tuple[str, int]]:
    """The sheetgen modules (and click) that a file imports, anywhere in it."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from sheetgen.render import impose` imports the module sheetgen.render.impose
            subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES]
            out += [(m, node.lineno) for m in subs] or [(node.module, node.lineno)]
    return [(m, n) for m, n in out if m.split(".")[0] in ("sheetgen", "click")]


SOURCES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_has_a_known_layer():
    assert {layer(m) for m in SOURCES} <= set(LAYERS), {m: layer(m) for m in SOURCES if layer(m) not in LAYERS}


def test_imports_point_down_the_layers():
    wrong = []
    for module, path in SOURCES.items():
        for target, line in imports(path):
            if target.startswith("click"):
                continue
            if target not in SOURCES:  # `from sheetgen.x import name`: the module is x
                target = target.rsplit(".", 1)[0] if target.rsplit(".", 1)[0] in SOURCES else target
            here, there = layer(module), layer(target)
            if LAYERS[there] > LAYERS[here] or (here != there and {here, there} == {"scoring", "render"}):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {here} imports {there} ({target})")
    assert not wrong, "\n".join(wrong)


def test_nothing_below_the_cli_imports_click():
    wrong = [
        f"{p.relative_to(PACKAGE.parent)}:{line}"
        for m, p in SOURCES.items()
        if layer(m) != "cli"
        for target, line in imports(p)
        if target.split(".")[0] == "click"
    ]
    assert not wrong, wrong


def test_no_import_cycles_between_modules():
    graph = {
        m: {t if t in SOURCES else t.rsplit(".", 1)[0] for t, _ in imports(p) if t.startswith("sheetgen")}
        for m, p in SOURCES.items()
    }
    graph = {m: {t for t in ts if t in SOURCES and t != m and t != "sheetgen"} for m, ts in graph.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(m, stack):
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(" -> ".join([*stack[stack.index(t) :], t]))
            elif t not in state:
                visit(t, [*stack, t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, cycles


def test_no_caller_probes_a_game_with_hasattr():
    wrong = [
        f"{p.relative_to(PACKAGE.parent)}:{node.lineno}"
        for p in SOURCES.values()
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "hasattr"
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id in ("game", "module")
    ]
    assert not wrong, wrong


def test_every_package_is_installed():
    """pyproject.toml lists the packages one by one: a new folder must be listed, or a
    fresh install cannot import it."""
    import tomllib

    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {module_name(p.parent / "__init__.py") for p in PACKAGE.rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


# sheetgen.layout's modules, in the order their imports point (docs/architecture.md, "The
# layout package"): each imports only those before it; `elements` is its subpackage
LAYOUT_ORDER = [
    "display",
    "resolve",
    "scanmarks",
    "elements",
    "describe",
    "housenote",
    "spec",
    "model",
    "place",
    "ids",
    "blame",
    "geometry",
    "printcheck",
    "load",
]
LAYOUT_MODULE_LINES = 400  # a module of sheetgen/layout/
ELEMENT_MODULE_LINES = 600  # an element type's module, sheetgen/layout/elements/
LAYOUT_FUNCTION_LINES = 80  # a function of sheetgen/layout/, element types included


def _layout_part(module: str) -> str | None:
    """The part of sheetgen.layout a module is (its name in LAYOUT_ORDER), None outside it."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["sheetgen", "layout"] else None


LAYOUT_SOURCES = [(_layout_part(m), p) for m, p in SOURCES.items() if _layout_part(m) is not None]


def test_every_module_of_the_layout_package_has_its_place_in_the_order():
    parts = {part for part, _ in LAYOUT_SOURCES}
    assert parts == set(LAYOUT_ORDER), (sorted(parts - set(LAYOUT_ORDER)), sorted(set(LAYOUT_ORDER) - parts))


def test_the_layout_package_imports_point_one_way():
    wrong = []
    for here, path in LAYOUT_SOURCES:
        for target, line in imports(path):
            there = _layout_part(target)
            if there is not None and there != here and LAYOUT_ORDER.index(there) > LAYOUT_ORDER.index(here):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {here} imports {there}")
    assert not wrong, "\n".join(wrong)


def test_the_layout_package_modules_are_small():
    wrong = []
    for part, path in LAYOUT_SOURCES:
        most = ELEMENT_MODULE_LINES if part == "elements" else LAYOUT_MODULE_LINES
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > most:
            wrong.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines; at most {most}")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            size = node.end_lineno - node.lineno + 1 if isinstance(node, ast.FunctionDef) else 0
            if size > LAYOUT_FUNCTION_LINES:
                wrong.append(
                    f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.name} is {size} lines; "
                    f"at most {LAYOUT_FUNCTION_LINES}"
                )
    assert not wrong, "\n".join(wrong)


def test_no_layout_pass_leaves_its_own_keys_on_an_element():
    """A pass hands the next what it found as return values: the only private keys stored on
    an element are the schema's record of where it was written (`_node`, `_path`)."""
    allowed = {("spec", "_node"), ("spec", "_path")}
    wrong = []
    for part, path in LAYOUT_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            key = None
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                key = node.slice
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("setdefault", "update"):
                key = node.args[0] if node.args else None
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.startswith("_"):
                if (part, key.value) not in allowed:
                    wrong.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: stores '{key.value}'")
    assert not wrong, "\n".join(wrong)


def test_one_function_is_named_load_layout():
    defined = [
        f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
        for path in SOURCES.values()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "load_layout"
    ]
    assert [d.split(":")[0] for d in defined] == ["sheetgen/games/__init__.py"], defined


# ---------------------------------------------------------------- the scan reader, kept changeable

SCAN = PACKAGE / "scan"
TUNING = SCAN / "tuning.py"
MODULE_LINES = 400  # a module of sheetgen/scan holds at most this many lines (tuning.py, a table, apart)
FUNCTION_LINES = 80  # a function of sheetgen/scan, its docstring included, at most this many


# the modules of sheetgen/scan in the order docs/architecture.md lists them: each imports only
# those before it, so a measure never reaches up to the decision or the reader
SCAN_ORDER = (
    "tuning photos blank markers qr strokes levels printed rings colour verdict sight looks compared reader ocr digits readers neighbours borders inked fits written check record"
).split()


def _scan_sources() -> dict:
    return {p.name: p for p in sorted(SCAN.glob("*.py"))}


def test_scan_modules_import_only_those_listed_before_them():
    assert sorted(SCAN_ORDER) == sorted(m for m in (p.stem for p in SCAN.glob("*.py")) if m != "__init__")
    wrong = []
    for n, name in enumerate(SCAN_ORDER):
        for module, line in imports(SCAN / f"{name}.py"):
            if module.startswith("sheetgen.scan.") and module.split(".")[2] not in SCAN_ORDER[:n]:
                wrong.append(f"scan/{name}.py:{line} imports {module}")
    assert not wrong, wrong


def test_scan_modules_and_functions_stay_small():
    """A module of sheetgen/scan is small enough to read whole, a function to see on one screen.
    tuning.py is the one table of every value the reader compares with: its size is its fields',
    and it holds nothing else (see the next test)."""
    wrong = []
    for name, path in _scan_sources().items():
        text = path.read_text(encoding="utf-8")
        if path != TUNING and len(text.splitlines()) > MODULE_LINES:
            wrong.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > FUNCTION_LINES:
                    wrong.append(f"{name}:{node.lineno}: {node.name} is {size} lines")
    assert not wrong, wrong


def test_scan_reads_no_tuning_value_by_position():
    """A threshold is read by its name (`RING.round`), never by its place in a tuple (`RING[0]`):
    no upper-case name of sheetgen/scan, nor a field of one, is indexed by a number."""
    wrong = []
    for name, path in _scan_sources().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Subscript):
                continue
            index = node.slice.operand if isinstance(node.slice, ast.UnaryOp) else node.slice
            base = node.value.value if isinstance(node.value, ast.Attribute) else node.value
            named = isinstance(base, ast.Name) and base.id.isupper() and len(base.id) > 1
            if named and isinstance(index, ast.Constant) and isinstance(index.value, int):
                wrong.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    assert not wrong, wrong


def test_every_tuning_value_is_a_documented_field_and_used():
    """tuning.py holds frozen records and one instance of each, nothing else; each record says
    why in its docstring, each field has a value and, on the one line above it, its unit in
    brackets and what it separates (`# [mm] ...`); and each field is read by the reader."""
    import dataclasses

    from sheetgen.scan import tuning

    text = TUNING.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    wrong = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            frozen = any("frozen=True" in ast.unparse(d) for d in node.decorator_list)
            if not frozen or not ast.get_docstring(node):
                wrong.append(f"{node.name}: not a documented frozen record")
            for item in node.body[1:]:
                if not isinstance(item, ast.AnnAssign) or item.value is None:
                    wrong.append(f"{node.name}:{item.lineno}: not a field with its value")
                    continue
                above, before = lines[item.lineno - 2].strip(), lines[item.lineno - 3].strip()
                if not re.fullmatch(r"# \[[^\]]+\] \S.*", above) or before.startswith("#"):
                    wrong.append(f"{node.name}.{item.target.id}: not one line of '# [unit] meaning' above it")
        elif isinstance(node, ast.Assign):
            made = node.value
            if not (
                isinstance(made, ast.Call) and not made.args and not made.keywords and node.targets[0].id.isupper()
            ):
                wrong.append(f"line {node.lineno}: not one instance of a record")
        elif not (isinstance(node, ast.ImportFrom) or isinstance(node, ast.Expr) and node is tree.body[0]):
            wrong.append(f"line {node.lineno}: neither a record nor an instance")
    instances = {
        name: value for name, value in vars(tuning).items() if dataclasses.is_dataclass(value) and name.isupper()
    }
    assert sorted(type(v).__name__ for v in instances.values()) == sorted(c.name for c in classes)
    reader = "\n".join(p.read_text(encoding="utf-8") for p in _scan_sources().values() if p != TUNING)
    for name, value in instances.items():
        wrong += [f"{name}.{f.name}: never read" for f in dataclasses.fields(value) if f"{name}.{f.name}" not in reader]
    assert not wrong, wrong


def test_scan_code_tells_no_history():
    """sheetgen/scan says why each value is what it is, in the present: which generator, seed
    and photo showed it belongs to the bench's results and the commits."""
    history = re.compile(
        r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
        r"fourteenth)\s+generator|generator's|\bseed\s+\d|\bphotos?\s+\d+\b|\(was\s|\bthe probe's|\bsession\b",
        re.IGNORECASE,
    )
    wrong = [
        f"{name}:{n}: {line.strip()}"
        for name, path in _scan_sources().items()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if history.search(line)
    ]
    assert not wrong, wrong
