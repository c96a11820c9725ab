"""Issue 21: the wheel carries everything pnpgen reads at run time. pyproject.toml lists its
packages (the fonts/ folder is mapped in as pnpgen.fontfiles), so a package or a data file added
under generator/pnpgen and not listed there would be missing from every install; this says which.
(.ci/run builds the wheel, installs it in a fresh venv and builds a workspace with it.)"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from conftest import REPO, run, source_nodes
from pnpgen import readme, resources
from pnpgen.commandline import parsers

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _package_dir(name: str) -> Path:
    """The folder of a package: under the nearest mapped package above it (pnpgen.docfiles.img in docs/)."""
    dirs = SETUPTOOLS["package-dir"]
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in dirs:
            return REPO / dirs[".".join(parts[:n])] / Path(*parts[n:])
    return REPO / Path(dirs[""], *parts)


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


def test_the_documentation_ships_inside_pnpgen():
    """Messages, the commands' help and the game.yaml 'pnpgen new' writes point at docs/*.md: the
    wheel carries them (pnpgen.docfiles, the repository's docs/), README.md as its description."""
    shipped = {p for pattern in SETUPTOOLS["package-data"]["pnpgen.docfiles"]
               for p in _package_dir("pnpgen.docfiles").glob(pattern)}
    assert _package_dir("pnpgen.docfiles") == REPO / "docs"
    assert set((REPO / "docs").glob("*.md")) <= shipped and len(shipped) > 5
    assert PYPROJECT["project"]["readme"] == "README.md"
    assert "cp -r generator fonts docs" in (REPO / ".ci" / "run").read_text(encoding="utf-8")  # the CI's wheel has them


def test_pnpgen_docs_lists_the_pages_and_prints_the_one_a_message_names(tmp_path, capsys):
    assert run(tmp_path, "docs") == 0  # no workspace needed
    listed = capsys.readouterr().out
    assert f"{REPO / 'docs'}" in listed and "pnpgen docs TOPIC" in listed
    assert [line.split()[0] for line in listed.splitlines()[1:-1]] == [
        "readme", *sorted(p.stem for p in (REPO / "docs").glob("*.md"))]
    assert run(tmp_path, "docs", "docs/exports.md#doujin") == 0
    assert capsys.readouterr().out.strip() == (REPO / "docs" / "exports.md").read_text(encoding="utf-8").strip()
    assert run(tmp_path, "docs", "hints") == 2
    topics = ", ".join(["readme", *sorted(p.stem for p in (REPO / "docs").glob("*.md"))])
    assert f"no documentation topic 'hints' (expected one of {topics})" in capsys.readouterr().err
    # a mistyped topic is offered the page meant, as a mistyped command is (README.md, Command line)
    for typed, meant in (("expots", "exports"), ("data_format", "data-format"), ("docs/playtst.md", "playtest")):
        assert run(tmp_path, "docs", typed) == 2
        assert f"no documentation topic {typed!r}; did you mean {meant}? (expected" in capsys.readouterr().err
    # a word that is no topic names the designer's pages holding it most, not pnpgen's own (trial80: `pnpgen
    # docs tts`, `preflight`, a designer looking for Tabletop Simulator, was only told the page names)
    assert run(tmp_path, "docs", "tts") == 2
    err = capsys.readouterr().err
    assert "no documentation topic 'tts'; 'tts' is in exports (" in err and "speed" not in err.split("(expected")[0], err
    assert ": pnpgen docs exports | less -i -p tts (expected one of" in err, err
    assert run(tmp_path, "docs", "Paper die") == 2
    assert ": pnpgen docs data-format | less -i -p 'Paper die' (expected" in capsys.readouterr().err
    # `pnpgen docs --help` and README's command line name every page a designer may ask for
    topic_help = next(a.help for a in parsers()[1]["docs"]._actions if a.dest == "topic")
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert f"the page to print: {topics} (default" in topic_help and f"or one page printed: {topics} (a message" in readme


def test_an_installed_pnpgen_reads_its_readme_from_its_own_metadata(tmp_path, monkeypatch):
    """Outside a checkout (a wheel) there is no README.md file: its text is the package's description."""
    monkeypatch.setattr(resources, "checkout", lambda: tmp_path)
    page, text = readme.readme()
    assert page is None and text.startswith("# pnpgen\n")
