"""Every dataclass in pnpgen carries its own docstring: one without makes ``dataclasses`` build
one from ``inspect.signature`` as the module is imported (about 90 µs a class: 3.4 ms of a short
build's start for the 37 of the 63 without one it imported: docs/speed-rounds.md, startup2), and a
designer reading the code is told what the thing is and why it exists, not its fields again."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from pathlib import Path

from conftest import source_nodes

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "pnpgen"


def _is_dataclass_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return ((isinstance(target, ast.Name) and target.id == "dataclass")
            or (isinstance(target, ast.Attribute) and target.attr == "dataclass"))


def _dataclasses(path: Path) -> list[ast.ClassDef]:
    return [node for node in source_nodes(path) if isinstance(node, ast.ClassDef)
            and any(_is_dataclass_decorator(d) for d in node.decorator_list)]


def test_every_dataclass_in_pnpgen_has_its_own_docstring():
    missing = [f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}"
               for path in sorted(PACKAGE.rglob("*.py")) for node in _dataclasses(path)
               if not ast.get_docstring(node)]
    assert not missing, "dataclasses without a docstring:\n" + "\n".join(missing)


def test_no_dataclass_python_makes_has_a_generated_docstring():
    """What Python sees: no dataclass of the modules a short build imports carries the docstring
    ``dataclasses`` writes when a class has none (its name and signature), and the source scan
    above found each of them (it is not blind to a way of declaring one)."""
    for name in ("pnpgen.data.model", "pnpgen.impose.plan", "pnpgen.engine.options", "pnpgen.pdf.paints",
                 "pnpgen.text.layout", "pnpgen.rulebook.tree"):
        module = importlib.import_module(name)
        found = {node.name for node in _dataclasses(Path(module.__file__ or ""))}
        made = [value for value in vars(module).values() if isinstance(value, type)
                and dataclasses.is_dataclass(value) and value.__module__ == name]
        assert made and {cls.__name__ for cls in made} <= found, name
        for cls in made:
            generated = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
            assert cls.__doc__ != generated, f"{name}.{cls.__name__}"
