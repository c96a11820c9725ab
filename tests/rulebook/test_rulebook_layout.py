"""The rulebook package's shape: the draft reader loads alone, the parsers share one tree module
without importing each other back, and no module reaches into another's private names or imports
pnpgen inside a function."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from conftest import child_env, source_nodes, source_tree

PACKAGE = Path(__file__).resolve().parents[2] / "generator" / "pnpgen" / "rulebook"


def _imports(path: Path) -> list[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Each import of the module, and whether it sits inside a function."""
    nodes = source_nodes(path)
    inside: set[int] = set()
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside |= {id(n) for n in ast.walk(node) if n is not node}
    return [(n, id(n) in inside) for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_the_reader_imports_without_the_typesetter():
    code = ("import sys; import pnpgen.rulebook.reader; "  # (ReportLab's hooks pnpgen stands in for are pnpgen's)
            "print(sorted(m for m in sys.modules if m.startswith(('pnpgen', 'reportlab')) and m not in pnpgen.REPORTLAB_HOOKS))")
    out = subprocess.run([sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, check=True)
    # (rulebook.tables and data.markup, which import nothing heavy: the reader keeps a table's columns where the
    # draft put them after a ruby, by its cells)
    assert out.stdout.strip() == ("['pnpgen', 'pnpgen.data', 'pnpgen.data.markup', 'pnpgen.data.textfile', 'pnpgen.errors', "
                                  "'pnpgen.patterns', 'pnpgen.rulebook', 'pnpgen.rulebook.reader', 'pnpgen.rulebook.tables', "
                                  "'pnpgen.safetext', 'pnpgen.terms']"), out.stderr


def test_the_package_re_exports_what_its_modules_define():
    import pnpgen.rulebook as rulebook
    from pnpgen.rulebook import book, pictures

    assert rulebook.build_rulebook is book.build_rulebook and rulebook.DeckPicture is pictures.DeckPicture
    init = source_tree(PACKAGE / "__init__.py")
    assert [n.name for n in init.body if isinstance(n, ast.FunctionDef)] == ["__getattr__"]


def test_no_circle_no_private_name_and_no_import_inside_a_function():
    edges: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        for node, in_function in _imports(path):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pnpgen"):
                assert not in_function, f"{path.name}:{node.lineno} imports {node.module} inside a function"
                assert not [a.name for a in node.names if a.name.startswith("_")], f"{path.name}:{node.lineno}"
                if node.module.startswith("pnpgen.rulebook."):
                    edges.setdefault(path.stem, set()).add(node.module.rsplit(".", 1)[1])
    assert "parse" not in edges["latin"] and {"latin", "tree"} <= edges["parse"] and "tree" in edges["latin"]

    def reaches(a: str, b: str, seen: frozenset = frozenset()) -> bool:
        return any(n == b or (n not in seen and reaches(n, b, seen | {n})) for n in edges.get(a, ()))

    assert not [m for m in edges if reaches(m, m)]
