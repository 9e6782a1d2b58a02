"""The layers of docs/architecture.md, checked on the source: imports point one way,
nothing below the CLI imports Click, no module imports another in a cycle, and no
caller probes a game with hasattr."""

from __future__ import annotations

import ast
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
