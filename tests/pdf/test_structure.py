"""The shape of svg/ (SVG → vector art) and pdf/ (vector art → PDF), read from their source:
every import of a pnpgen module at the top of its module, no private name taken from another
module, no circle through either, the converter never reaching up into the stage that draws its
art, no module over 800 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pnpgen
from conftest import source_nodes, source_tree

PACKAGE = Path(pnpgen.__file__).parent
MAX_LINES = 800


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in sorted(PACKAGE.rglob("*.py"))}
OURS = sorted(m for m in MODULES if m.startswith(("pnpgen.svg", "pnpgen.pdf")))


def _imports(name: str) -> list[tuple[ast.stmt, str, list[str], bool]]:
    """(statement, module imported, names taken from it, at the module's top level) for each
    import of a pnpgen module."""
    tree = source_tree(MODULES[name])
    top = set(map(id, tree.body))
    out = []
    for node in source_nodes(MODULES[name]):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnpgen"):
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                out.append((node, target if target in MODULES else node.module, [alias.name], id(node) in top))
        elif isinstance(node, ast.Import):
            out.extend((node, a.name, [], id(node) in top) for a in node.names if a.name.startswith("pnpgen"))
    return out


def test_the_stages_import_pnpgen_modules_at_the_top_and_no_private_names():
    nested = [f"{m}:{node.lineno} {target}" for m in OURS for node, target, _, top in _imports(m) if not top]
    private = [f"{m}:{node.lineno} {target}.{n}" for m in OURS for node, target, names, _ in _imports(m)
               for n in names if n.startswith("_")]
    assert OURS and nested == [] and private == []


def test_the_converter_never_imports_the_pdf_stage_and_no_circle_runs_through_either():
    graph = {m: {t for _, t, _, _ in _imports(m) if t in MODULES and t != m} for m in MODULES}
    assert not [m for m in OURS if m.startswith("pnpgen.svg") and any(t.startswith("pnpgen.pdf") for t in graph[m])]
    circles, state = [], {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = "open"
        for t in sorted(graph[m]):
            if state.get(t) == "open" and any(c in OURS for c in path[path.index(t):]):
                circles.append(path[path.index(t):] + [t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in OURS:
        if m not in state:
            visit(m, [m])
    assert circles == []


def test_no_module_of_the_stages_is_over_800_lines():
    long = {m: n for m in OURS if (n := len(MODULES[m].read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
