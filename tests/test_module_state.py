"""The house rule: nothing is passed through module globals. A book's setting of lines
(rulebook/setlines.py ``SetLines``) is handed down from ``build_rulebook`` to its paragraphs,
and whether a font is parsed is asked of pnpgen.fonts, the registry that mirrors ReportLab's
own (process-wide) one, not of a set of the drawing module's."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "pnpgen"
MUTABLE_CALLS = {"set", "dict", "list", "SetLines", "defaultdict", "OrderedDict"}


def _module_state(path: Path) -> list[str]:
    """The names a module binds at its top level to a mutable container (a literal or a call)."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        mutable = isinstance(value, (ast.Set, ast.Dict, ast.List)) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in MUTABLE_CALLS)
        if mutable:
            found += [ast.unparse(t) for t in targets]
    return found


@pytest.mark.parametrize("module", ["rulebook/setlines.py", "pdf/draw.py"])
def test_no_data_is_carried_in_module_globals(module):
    assert _module_state(PACKAGE / module) == []


def test_the_check_sees_a_module_global():
    assert {"_located", "_registered"} <= set(_module_state(PACKAGE / "fonts.py"))
