"""Issue 21: the wheel carries everything pnpgen reads at run time. pyproject.toml lists its
packages (the fonts/ folder is mapped in as pnpgen.fontfiles), so a package or a data file added
under generator/pnpgen and not listed there would be missing from every install; this says which.
(.ci/run builds the wheel, installs it in a fresh venv and builds a workspace with it.)"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from conftest import REPO, source_nodes

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _package_dir(name: str) -> Path:
    dirs = SETUPTOOLS["package-dir"]
    return REPO / (dirs[name] if name in dirs else Path(dirs[""], *name.split(".")))


def test_every_package_is_listed():
    code = REPO / "generator" / "pnpgen"
    found = {".".join(p.parent.relative_to(REPO / "generator").parts) for p in code.rglob("*.py")
             if "__pycache__" not in p.parts}
    assert found - set(SETUPTOOLS["packages"]) == set(), "add these to [tool.setuptools] packages"
    assert all(_package_dir(name).is_dir() for name in SETUPTOOLS["packages"])


def test_every_folder_of_files_is_a_listed_package():
    """A folder of data files only (presets, layouts, icons) that is not listed made setuptools
    print five screens of "Package would be ignored" warnings on every 'pip install .'."""
    code = REPO / "generator" / "pnpgen"
    folders = {".".join(p.parent.relative_to(REPO / "generator").parts) for p in code.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert folders - set(SETUPTOOLS["packages"]) == set(), "add these to [tool.setuptools] packages"


def test_every_data_file_is_shipped():
    shipped: set[Path] = set()
    for name, patterns in SETUPTOOLS["package-data"].items():
        for pattern in patterns:
            shipped |= set(_package_dir(name).glob(pattern))
    packages = [_package_dir(name) for name in SETUPTOOLS["packages"]]
    data = {p for folder in packages for p in folder.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}
    assert data - shipped == set(), "add these to [tool.setuptools.package-data]"
    assert (_package_dir("pnpgen.fontfiles") / "OFL.txt") in shipped  # the licence travels with the fonts


def test_every_import_is_declared():
    """Each library pnpgen imports is a dependency (by its distribution's name)."""
    distribution = {"PIL": "pillow", "yaml": "pyyaml", "odf": "odfpy", "sse_starlette": "sse-starlette"}
    declared = {d.split(";")[0].split("[")[0].split("<")[0].split(">")[0].split("=")[0].strip().lower()
                for d in PYPROJECT["project"]["dependencies"]}
    imported: set[str] = set()
    for path in (REPO / "generator" / "pnpgen").rglob("*.py"):
        for node in source_nodes(path):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third = {m for m in imported if m not in sys.stdlib_module_names and m != "pnpgen"}
    assert {distribution.get(m, m).lower() for m in third} - declared == set()


def test_resources_found_through_the_package():
    """No module finds pnpgen's own files beside its source file or the checkout; resources.py
    (importlib.resources) is the one place, and its source-checkout fallback is the only parents[]."""
    for path in (REPO / "generator" / "pnpgen").rglob("*.py"):
        nodes = source_nodes(path)
        names = {n.id for n in nodes if isinstance(n, ast.Name)}
        names |= {n.attr for n in nodes if isinstance(n, ast.Attribute)}
        if path.name != "resources.py":
            assert "__file__" not in names, f"{path.relative_to(REPO)}: use pnpgen.resources"
