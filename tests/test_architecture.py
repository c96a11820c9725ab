"""The shape of the package, read from its source with ``ast``: data flows one way.

The stages, lowest first (a module may import its own stage and any stage below it, never one
above; docs/architecture.md, "The pipeline", draws the same order):

0. shared bottom modules: ``errors`` (InputError, Where, contained), ``units``, ``progress``,
   ``memo`` (the known/learned/used memo passed down), ``patterns`` (regular expressions compiled at first use), ``safetext``, ``terms`` (a 【term】's brackets), ``resources`` (files
   shipped inside pnpgen), ``readme`` (README.md, from a wheel's metadata), ``messages``, ``fonts`` (its parsed tables cached by ``fonttables``), ``usercache``
   (the machine's cache of what a file's content gives), ``scratch`` (the temporary folder kept out of the
   workspace), ``shapes``
1. ``data/``: workspace, YAML and spreadsheets, validation, the data format's markup → model
2. ``text/``: the card typesetter (reads the model's markup spans)
3. ``svg/``: SVG → vector art
4. ``impose/``: page plans in mm (pure data)
5. ``pdf/``: the only code that knows points
6. ``faces/``: templates → SVG, each distinct face once, and their conversion. It renders before
   anything is imposed, but sits above ``svg/`` and ``pdf/`` because converting a face uses
   them (a face svglib draws is drawn once on a scratch canvas, so its errors surface at once);
   nothing below imports it.
7. ``rulebook/``, ``exports/``: the draft typeset, the print-shop and table-top files; ``preflight/``
   beside them, reading those files again without the writer
8. ``engine/``: orchestration, cache, writes
9. ``cli``, ``commandline``, ``commandoptions``, ``commands``, ``checkcommand``, ``toolcommands``, ``playtest``, ``sheetargs``, ``__main__``: the command layer (may load stages lazily, inside functions);
   ``scaffold`` (``pnpgen new``, ``pnpgen layout``) beside it, without lazy imports

Checked for every module: no import circle (imports for type annotations alone counted too); no arrow from a lower stage to a higher one; no
private name (``_x``) imported from another module; below the command layer, no pnpgen import
inside a function; no other module's global set or changed (``mod.NAME = …``,
``mod.NAME.update(…)``); at most 800 lines. ``impose/`` imports no library but the standard
one and numpy, and no font registry (``test_page_plans_are_pure_millimetres``). ``engine/`` holds
only the modules ENGINE lists, each an orchestrating job, and no stage below it names it, not even
for a type annotation (``test_the_engine_holds_only_its_orchestration``).
"""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import source_nodes, source_tree

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "pnpgen"
MAX_LINES = 800

RANKS = {
    **dict.fromkeys(("errors", "units", "progress", "memo", "patterns", "safetext", "terms", "resources", "readme", "messages", "fonts", "fonttables", "usercache", "scratch", "atomic", "litter", "boxnet", "children",
                     "shapes", ""), 0),
    "data": 1, "text": 2, "svg": 3, "impose": 4, "pdf": 5, "faces": 6, "rulebook": 7, "exports": 7, "preflight": 7,
    "engine": 8, "serve": 9, "playtest": 9, "sheetargs": 9, "scaffold": 9, "cli": 10, "commandline": 10, "commandoptions": 10, "commands": 10, "checkcommand": 10, "toolcommands": 10, "__main__": 10,
}
COMMAND_LAYER = {"pnpgen.cli", "pnpgen.commandline", "pnpgen.commandoptions", "pnpgen.commands", "pnpgen.checkcommand", "pnpgen.toolcommands", "pnpgen.__main__", "pnpgen.playtest", "pnpgen.sheetargs"}

# Known violations, each with its reason. Empty: svg/, pdf/ and the rulebook were reshaped too
# (issue 20), so none is allowed. An entry that no longer matches anything fails the test below.
EXCEPTIONS: set[tuple[str, str, str]] = set()


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module
    name: str  # the name taken from it ("" for the module itself)
    line: int
    lazy: bool  # inside a function
    typing_only: bool  # under ``if TYPE_CHECKING:``


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = _modules()


@functools.cache
def _trees() -> dict[str, ast.Module]:
    """Every module's syntax tree, parsed when a test first asks (on the worker that runs this
    module, not at every worker's collection)."""
    return {name: source_tree(path) for name, path in MODULES.items()}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, tree: ast.Module) -> list[Import]:
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    out: list[Import] = []

    def visit(node: ast.AST, lazy: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                visit(child, True, typing_only)
            elif isinstance(child, ast.If) and _is_type_checking(child):
                visit(child, lazy, True)
            elif isinstance(child, ast.Import):
                out.extend(Import(module, a.name, "", child.lineno, lazy, typing_only)
                           for a in child.names if a.name.split(".")[0] == "pnpgen")
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - child.level + 1] + ([base] if base else []))
                if base.split(".")[0] != "pnpgen":
                    continue
                for a in child.names:
                    sub = f"{base}.{a.name}"
                    if sub in MODULES:  # from pnpgen.impose import nest: the module nest
                        out.append(Import(module, sub, "", child.lineno, lazy, typing_only))
                    else:
                        out.append(Import(module, base, a.name, child.lineno, lazy, typing_only))
            else:
                visit(child, lazy, typing_only)

    visit(tree, False, False)
    return out


@functools.cache
def _all_imports() -> list[Import]:
    return [imp for name, tree in _trees().items() for imp in _imports(name, tree)]


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _found(kind: str, violations: list[tuple[tuple[str, str, str], str]]) -> list[str]:
    """Violations not excused by EXCEPTIONS, as lines to read."""
    return [text for key, text in violations if key not in EXCEPTIONS]


def test_every_module_has_a_stage():
    assert {_stage(m) for m in MODULES} <= RANKS.keys(), "a new top-level module or package: give it a rank"


def test_no_import_runs_up_the_pipeline():
    bad = []
    for imp in _all_imports():
        if imp.typing_only:
            continue
        src, dst = RANKS[_stage(imp.source)], RANKS[_stage(imp.target)]
        if dst > src:
            bad.append((("upward", imp.source, imp.target),
                        f"{imp.source}:{imp.line} imports {imp.target} (stage {dst} above its own {src})"))
    assert _found("upward", bad) == []


def test_no_import_circle():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp in _all_imports():
        if imp.target in MODULES and imp.target != imp.source:
            graph[imp.source].add(imp.target)
    # Tarjan's strongly connected components: every edge inside one is part of a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    component: dict[str, int] = {}

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component[w] = index[v]
                if w == v:
                    break

    for v in sorted(graph):
        if v not in index:
            connect(v)
    bad = [(("circle", a, b), f"{a} → {b} closes a circle") for a in sorted(graph) for b in sorted(graph[a])
           if component[a] == component[b]]
    assert _found("circle", bad) == []


def test_no_private_name_imported_from_another_module():
    bad = [(("private", imp.source, f"{imp.target}.{imp.name}"), f"{imp.source}:{imp.line} imports {imp.target}.{imp.name}")
           for imp in _all_imports() if imp.name.startswith("_") and imp.target != imp.source]
    assert _found("private", bad) == []


def test_no_function_level_import_below_the_command_layer():
    bad = [(("lazy", imp.source, imp.target), f"{imp.source}:{imp.line} imports {imp.target} inside a function")
           for imp in _all_imports() if imp.lazy and not imp.typing_only and imp.source not in COMMAND_LAYER]
    assert _found("lazy", bad) == []


def _module_aliases(module: str) -> set[str]:
    """Names under which ``module`` holds another pnpgen module (``from pnpgen.impose import nest``)."""
    names = set()
    for node in source_nodes(MODULES[module]):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnpgen"):
            names |= {a.asname or a.name for a in node.names if f"{node.module}.{a.name}" in MODULES}
        elif isinstance(node, ast.Import):
            names |= {a.asname or a.name for a in node.names if a.name.startswith("pnpgen")}
    return names


def test_no_module_sets_another_modules_globals():
    bad = []
    for module in _trees():
        aliases = _module_aliases(module)
        for node in source_nodes(MODULES[module]):
            target = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                target = next((t for t in targets if isinstance(t, ast.Attribute)), None)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in ("update", "clear", "append", "add", "extend", "pop", "setdefault")):
                target = node.func.value if isinstance(node.func.value, ast.Attribute) else None
            if target is not None and isinstance(target.value, ast.Name) and target.value.id in aliases \
                    and target.attr.isupper():
                bad.append((("global", module, f"{target.value.id}.{target.attr}"),
                            f"{module}:{node.lineno} changes {target.value.id}.{target.attr}"))
    assert _found("global", bad) == []


def test_no_module_over_800_lines():
    bad = []
    for module, path in MODULES.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            bad.append((("long", module, ""), f"{module}: {n} lines"))
    assert _found("long", bad) == []


# The engine only orchestrates (docs/architecture.md): it runs the stages, keeps the cache and
# the history, and writes all-or-nothing; a stage's own work (a page drawn and read back, a file
# made for another tool, a command's first files) lives in that stage. Each of its modules, by its
# one job: a new one is listed here with it, or belongs in a stage.
ENGINE = {
    "run": "one build command: every game asked for, written as one transaction",
    "game": "one game through the stages: load, render, impose, convert, draw",
    "facekeys": "a game's faces rendered, and what they are made from hashed: the cache's keys and packs",
    "placement": "where a game's decks go on paper: its printer, each deck's stock and layout, the page limits",
    "documents": "a game's documents written over --jobs worker processes",
    "prerender": "a game's faces rendered over --jobs worker processes",
    "imposition": "a game's documents planned, deck by deck, from impose/'s page plans",
    "paper": "the build's warnings of the paper, the printer and the cutting machine, read from its options",
    "options": "what a build is asked for",
    "fresh": "which games are up to date, loading none",
    "fingerprint": "what a build read, hashed",
    "cache": "the build cache's records",
    "state": "a game's state: what its last good build read and wrote, sealed, and a file checked as it wrote it",
    "packlog": "a big cache pack's log of the records an edit changed, merged when read",
    "written": "what the last build wrote, without a machine key",
    "output": "all-or-nothing writes, the output folder's lock and marker",
    "transaction": "one transaction over an output folder",
    "journal": "the commit's sealed journal, and recover: a killed commit rolled forward or back",
    "stagecopy": "a document written into the staging folder, a big one by another process (the build's copier, or one forked for it)",
    "beside": "bytes a process forked from the build makes while the build goes on (a big deck's forms pack)",
    "artbeside": "a cold build's art measured by a process forked while the inputs hash, kept before the games load",
    "trash": "the files a commit replaced, the big ones freed by a process of their own, a build's small ones after its summary",
    "spare": "the big document a commit replaced, kept to be rewritten",
    "clean": "pnpgen clean: what pnpgen wrote, removed",
    "manifest": "what a build says about itself: its deck records and manifest.json",
    "bom": "the bill of materials' entry in the manifest, from the build's deck records",
    "changes": "the change report against the last good build",
    "piecematch": "which piece of the last build each piece is: renamed, moved, edited or only recounted",
    "history": "build/.history: the game's versions, their entries written, read, sealed, tagged and removed",
    "recording": "a good build's version recorded: its content, its draft's sections, the versions pruned",
    "versionnames": "a version as the designer names it (v12, a tag, latest, previous), and a tag given",
    "changelog": "pnpgen diff: what changed between two versions, as JSON and Markdown",
    "reprint": "reprint.pdf and reprint.txt: the copies that changed",
    "inksaver": "--ink: the saver's art from the cache, its documents and the manifest's coverage record",
    "check": "pnpgen check: the build's stages run without writing a file",
    "typeset": "the rulebook's process: set only when what it is set from changed",
    "bookjob": "a build's rulebook: its process started and sent the job, or the book kept, its files taken back",
    "bookkey": "what the rulebook is made from: kept, read again or set again",
    "warm": "what watch and serve keep across saves",
    "export": "pnpgen export: up to date? written as one transaction",
    "listing": "pnpgen list: its lines kept by what they are read from",
    "calibration": "pnpgen calibrate: the sheet written beside the build folder, never over the designer's",
}


def _engine_modules() -> set[str]:
    return {m.removeprefix("pnpgen.engine.") for m in MODULES if m.startswith("pnpgen.engine.")}


def test_the_engine_holds_only_its_orchestration():
    """A module in engine/ not listed in ENGINE is a stage's work that belongs in that stage (or
    is listed with its one job); a listed one that is gone is taken off the list."""
    assert sorted(_engine_modules() - ENGINE.keys()) == [], "a new engine module: its stage's package, or list it"
    assert sorted(ENGINE.keys() - _engine_modules()) == [], "listed but gone: remove it from ENGINE"


def _naming_the_engine(imports: list[Import]) -> list[str]:
    """The imports by which a stage below the engine names it, for a type annotation too: a stage
    is given what it works on as its own types (a dataclass, a Protocol), never the engine's."""
    return [f"{imp.source}:{imp.line} imports {imp.target}" for imp in imports
            if _stage(imp.target) == "engine" and RANKS[_stage(imp.source)] < RANKS["engine"]]


def test_no_stage_below_the_engine_names_it():
    assert _naming_the_engine(_all_imports()) == []


def test_a_type_annotation_naming_the_engine_is_seen():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from pnpgen.engine.imposition import GamePlan\n")
    MODULES["pnpgen.pdf._probe"] = PACKAGE / "pdf" / "_probe.py"
    try:
        found = _imports("pnpgen.pdf._probe", tree)
    finally:
        del MODULES["pnpgen.pdf._probe"]
    assert _naming_the_engine(found) == ["pnpgen.pdf._probe:3 imports pnpgen.engine.imposition"]


PURE_STAGES = ("impose",)  # page plans: plain data in millimetres
NOT_IN_PURE = {"pnpgen.fonts", "pnpgen.fonttables"}  # text widths come in as a ``measure`` parameter
NUMBERS_ONLY = {"numpy"}  # the libraries a plan may use: arithmetic (the nesting search's), nothing drawn


def _libraries(tree: ast.Module) -> list[tuple[str, int]]:
    """The libraries outside the standard library and pnpgen a module imports (anywhere in it)."""
    found = []
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        for name in names:
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top not in ("pnpgen", "__future__"):
                found.append((name, node.lineno))
    return found


def test_page_plans_are_pure_millimetres():
    """impose/ plans pages without drawing them: it imports no library but the standard one and
    numpy (no ReportLab, no image or PDF library: points are pdf/'s) and no font registry (a width is
    measured by the ``measure`` its caller passes), so a plan is known, compared and cached
    before anything is drawn (docs/architecture.md)."""
    bad = []
    for module, tree in _trees().items():
        if _stage(module) not in PURE_STAGES:
            continue
        bad += [f"{module}:{line}: imports {name}" for name, line in _libraries(tree)
                if name.split(".")[0] not in NUMBERS_ONLY]
        bad += [f"{module}:{imp.line}: imports {imp.target}" for imp in _all_imports()
                if imp.source == module and imp.target in NOT_IN_PURE]
    assert bad == []


def test_the_preflight_reads_files_without_the_writer():
    """preflight/ (``pnpgen preflight``) checks what pnpgen wrote as a shop would: none of its
    modules imports a stage that makes a file (svg/, pdf/, faces/, exports/, rulebook/, text/,
    impose/), or the writer would be checked against itself."""
    writer = {"svg", "pdf", "faces", "exports", "rulebook", "text", "impose", "engine"}
    reads = [imp for imp in _all_imports() if _stage(imp.source) == "preflight"]
    assert reads, "the preflight's imports not found"  # (a test that reads nothing cannot fail)
    assert [f"{imp.source}:{imp.line}: imports {imp.target}" for imp in reads if _stage(imp.target) in writer] == []


def test_the_purity_check_sees_a_library_imported_inside_a_function():
    tree = ast.parse("import math\nfrom pnpgen.units import num\n"
                     "def f():\n    from reportlab.lib import colors\n    import PIL.Image\n")
    assert _libraries(tree) == [("reportlab.lib", 4), ("PIL.Image", 5)]


def test_the_exceptions_are_inside_the_areas_still_being_reshaped():
    assert {_stage(source) for _, source, _ in EXCEPTIONS} <= {"svg", "pdf", "rulebook"}


@pytest.mark.parametrize("kind, source, target", sorted(EXCEPTIONS))
def test_every_exception_is_still_needed(kind, source, target):
    """An exception that no longer matches anything is removed from the list, so it cannot hide
    a new violation later."""
    if kind == "long":
        assert len(MODULES[source].read_text(encoding="utf-8").splitlines()) > MAX_LINES
    elif kind == "private":
        assert any(imp.source == source and f"{imp.target}.{imp.name}" == target for imp in _all_imports())
    elif kind == "circle":
        assert any(imp.source == source and imp.target == target and not imp.typing_only for imp in _all_imports())
    elif kind == "lazy":
        assert any(imp.source == source and imp.target == target and imp.lazy for imp in _all_imports())
    else:
        assert any(imp.source == source and imp.target == target for imp in _all_imports())


def test_the_checks_catch_what_they_look_for(tmp_path):
    """The reader above is not blind: it finds a lazy import, a private name and a circle in
    modules written for it."""
    tree = ast.parse("from pnpgen.svg.vector import _style\n\ndef f():\n    from pnpgen.data import load\n")
    MODULES["pnpgen.engine._probe"] = tmp_path / "probe.py"
    try:
        found = _imports("pnpgen.engine._probe", tree)
    finally:
        del MODULES["pnpgen.engine._probe"]
    assert [(i.target, i.name, i.lazy) for i in found] == [("pnpgen.svg.vector", "_style", False),
                                                            ("pnpgen.data.load", "", True)]


# -- libraries' private names ------------------------------------------------------------------
# pnpgen uses libraries through their public APIs. These are the uses of a library's private
# name (``obj._name`` of an object not pnpgen's own) that stay, each with why no public API does
# it; docs/architecture.md and docs/speed.md say the same. A new one fails the test below; an
# entry no longer used fails it too. Keyed by (module, name).
LIBRARY_PRIVATE: dict[tuple[str, str], str] = {
    # standard library: documented, public despite the underscore
    ("pnpgen.cli", "_exit"): "os._exit, documented: end at once after a signal, or skip the interpreter's teardown",
    ("pnpgen.pdf.pdfx", "_exit"): "os._exit, documented: a Ghostscript run's child ends at once on a signal",
    ("pnpgen.engine.stagecopy", "_exit"): "os._exit, documented: the forked process that copies a document ends "
                                          "without tearing down the build's state",
    ("pnpgen.engine.beside", "_exit"): "os._exit, documented: the forked process that makes a pack's bytes ends "
                                       "without tearing down the build's state",
    ("pnpgen.faces.sourcelines", "_getframe"): "sys._getframe, documented: the template line a face's error names",
    ("pnpgen.faces.pieceview", "_fail_with_undefined_error"):
        "documented in Jinja's API for custom Undefined types (its 'Undefined Types' section)",
    **{("pnpgen.pdf.outline", name): "fontTools' BasePen: the methods its documentation says a pen overrides"
       for name in ("_moveTo", "_lineTo", "_curveToOne", "_closePath")},
    # issue 22's speed: a font's tables parsed once per machine, not once per process
    ("pnpgen.fonttables", "_ttf_data"): "a TTFont rebuilt from cached tables: ReportLab has no public constructor for it",
    ("pnpgen.fonttables", "_pdfScale"): "(the same: what TTFontFace.__init__ sets from the parsed head table)",
    ("pnpgen.fonttables", "_asciiReadable"): "(the same: what TTFont.__init__ sets from rl_config)",
    # issue 22's speed: a picture's image stream made once and placed wherever it is drawn
    ("pnpgen.pdf.draw", "_doc"): "a cached image stream placed as an XObject: canvas.drawImage would re-encode it",
    ("pnpgen.pdf.draw", "_setXObjects"): "(the same: the page's resources name the stream)",
    ("pnpgen.pdf.draw", "_currentPageHasImages"): "(the same: the page's /ProcSet lists /ImageC)",
    ("pnpgen.pdf.draw", "_code"): "(the same: the '/Name Do' operator in the page's content)",
    ("pnpgen.pdf.draw", "_formsinuse"): "(the same: the document writes the stream once)",
    # issue 22's speed: a warm process's book takes the paragraphs its last setting drew (rulebook/drawnparas.py)
    ("pnpgen.rulebook.drawnparas", "_code"): "a paragraph's page operators, kept and written again as drawn: "
                                             "ReportLab has no public way to read or add a page's content",
    ("pnpgen.rulebook.drawnparas", "_doc"): "(the same: the document whose subsets the paragraph's characters are in)",
    ("pnpgen.rulebook.drawnparas", "_dynamicFont"): "(the same: a subsetted font, named the way a kept drawing is)",
    ("pnpgen.rulebook.drawnparas", "_formatText"): "(the same: each text a text object shows, and its font, told)",
    ("pnpgen.rulebook.drawnparas", "_fontname"): "(the same: what a text object starts from, part of the key)",
    ("pnpgen.rulebook.drawnparas", "_fontsize"): "(the same)",
    ("pnpgen.rulebook.drawnparas", "_leading"): "(the same)",
    # the rulebook's line grid (行送り) and its page-numbered contents, built on ReportLab's platypus
    ("pnpgen.rulebook.document", "_add"): "GridFrame snaps a flowable to the line grid where Frame places it",
    ("pnpgen.rulebook.document", "_atTop"): "(the same: the frame's state that says the space before it)",
    ("pnpgen.rulebook.document", "_oASpace"): "(the same)",
    ("pnpgen.rulebook.document", "_prevASpace"): "(the same)",
    ("pnpgen.rulebook.document", "_y"): "(the same: where the next flowable goes)",
    ("pnpgen.rulebook.document", "_y2"): "(the same: the frame's top)",
    ("pnpgen.rulebook.document", "_topPadding"): "(the same)",
    ("pnpgen.rulebook.document", "_content"): "(the same: the first flowable a heading is kept with)",
    ("pnpgen.rulebook.document", "_SPACETRANSFER"): "(the same: as Frame._add reads a flowable's space before)",
    ("pnpgen.rulebook.document", "_ZEROSIZE"): "(the same)",
    ("pnpgen.rulebook.document", "_allSatisfied"): "multiBuild's last pass is a drawn one, never a sketch",
    ("pnpgen.rulebook.flowables", "_content"): "GridKeep keeps its flowables as KeepTogether holds them",
    ("pnpgen.rulebook.flowables", "_H"): "(the same: the height KeepTogether wraps to, on the grid)",
    ("pnpgen.rulebook.keeps", "_content"): "(the same, for a component's entry)",
    ("pnpgen.rulebook.keeps", "_H"): "(the same)",
    ("pnpgen.rulebook.keeps", "_wrapInfo"): "(the same: the size KeepTogether last wrapped to)",
    ("pnpgen.rulebook.contents", "_lastEntries"): "the contents' entries of the last pass, as TableOfContents keeps them",
    ("pnpgen.rulebook.contents", "_table"): "(the same: the Table of entries TableOfContents splits and draws)",
}
_SELF = ("self", "cls")
NAMEDTUPLE = {"_fields", "_replace", "_asdict", "_make", "_field_defaults"}  # namedtuple's public API


def _library_classes(module: str, cls: str) -> list[type]:
    """The classes not pnpgen's in the MRO of ``module``'s class ``cls`` (none if it is pnpgen's alone)."""
    import importlib

    try:
        found = getattr(importlib.import_module(module), cls, None)
    except ImportError:  # (a test's made-up module)
        return []
    return _not_ours(getattr(found, "__mro__", ()))


def _not_ours(mro) -> list[type]:
    return [c for c in mro if not c.__module__.startswith("pnpgen") and c is not object]


@functools.cache
def _imported(tree: ast.Module) -> dict[str, tuple[str, str | None]]:
    """What each name a module's imports bind (a function's own too) stands for: (module, name
    or None for the module itself). Read once per tree (the trees are shared, never changed):
    ``_local_bases`` walked the whole module again for each of its classes, some 240 walks, half
    the private-names check's CPU."""
    imported: dict[str, tuple[str, str | None]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module and not n.level:
            imported.update({a.asname or a.name: (n.module, a.name) for a in n.names})
        elif isinstance(n, ast.Import):
            imported.update({a.asname or a.name.split(".")[0]: (a.name if a.asname else a.name.split(".")[0], None)
                             for a in n.names})
    return imported


def _local_bases(tree: ast.Module, node: ast.ClassDef) -> list[type]:
    """The library classes of a class made inside a function (no attribute of its module, so
    ``_library_classes`` finds none: raster's image XObject was one): its bases as its code names
    them, through the module's imports (a function's own too)."""
    import importlib

    if not node.bases:
        return []
    imported = _imported(tree)
    found: list[type] = []
    for base in node.bases:
        path: list[str] = []
        while isinstance(base, ast.Attribute):
            path.insert(0, base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in imported:
            continue
        where, name = imported[base.id]
        try:
            obj = importlib.import_module(where)
            if name is not None:
                obj = getattr(obj, name, None) or importlib.import_module(f"{where}.{name}")
            for part in path:
                obj = getattr(obj, part)
        except (ImportError, AttributeError):
            continue
        if isinstance(obj, type):
            found += _not_ours(obj.__mro__)
    return found


@functools.cache
def _class_source(c: type) -> str:
    import inspect

    try:
        return inspect.getsource(c)
    except (OSError, TypeError):
        return ""


def _defined_by_library(name: str, classes: list[type]) -> bool:
    """``name`` is a library class's own: an attribute of it, or one its code sets or reads."""
    return any(hasattr(c, name) or f".{name}" in _class_source(c) for c in classes)


def _pnpgen_names() -> set[str]:
    """Every attribute name pnpgen's own classes define: their methods and class attributes, and
    what they set (``self._x = …``). (A module's own functions are no object's attributes.)"""
    names: set[str] = set()
    for path in MODULES.values():
        for node in source_nodes(path):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        names.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        names.add(item.target.id)
                    elif isinstance(item, ast.Assign):
                        names.update(t.id for t in item.targets if isinstance(t, ast.Name))
            targets = (node.targets if isinstance(node, ast.Assign) else
                       [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
            for t in targets:
                for one in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(one, ast.Attribute) and isinstance(one.value, ast.Name) and one.value.id in _SELF:
                        names.add(one.attr)
    return names


def _attribute_read(node: ast.AST) -> tuple[ast.expr, str] | None:
    """(object, name) of ``obj.name`` or ``getattr(obj, "name", …)`` (hasattr, setattr too)."""
    if isinstance(node, ast.Attribute):
        return node.value, node.attr
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr", "setattr")
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
        return node.args[0], node.args[1].value
    return None


def _private_uses(module: str, tree: ast.Module, ours: set[str]) -> set[tuple[str, str]]:
    """``(module, name)`` for each library-private name ``module`` reads, calls or overrides: on
    ``self`` or ``super()`` in a class with a library base, a name that base has; on anything
    else, a name pnpgen defines nowhere."""
    found: set[tuple[str, str]] = set()

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__") and name not in NAMEDTUPLE

    def visit(node: ast.AST, bases: list[type] | None) -> None:
        """``bases``: the library classes of the class ``node`` is in (None: in none)."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                if bases is None:
                    own = _library_classes(module, child.name) or _local_bases(tree, child)
                    for item in child.body:  # an override of a library's private method
                        if isinstance(item, ast.FunctionDef) and private(item.name) and _defined_by_library(item.name, own):
                            found.add((module, item.name))
                visit(child, own if bases is None else bases)
                continue
            read = _attribute_read(child)
            if read is not None and private(read[1]):
                on, name = read
                on_self = (isinstance(on, ast.Name) and on.id in _SELF) or (
                    isinstance(on, ast.Call) and isinstance(on.func, ast.Name) and on.func.id == "super")
                if on_self and bases is not None:
                    if _defined_by_library(name, bases):
                        found.add((module, name))
                elif name not in ours:
                    found.add((module, name))
            visit(child, bases)

    visit(tree, None)
    return found


@functools.cache
def _all_private_uses() -> set[tuple[str, str]]:
    ours = _pnpgen_names()
    return {use for module, tree in _trees().items() for use in _private_uses(module, tree, ours)}


def test_libraries_private_names_are_only_the_listed_ones():
    """A new read of a library's private name (argparse's option table, a canvas's current font)
    fails here: use the library's public API, or what pnpgen knows itself; if none can do it,
    list it in LIBRARY_PRIVATE with the reason (and in docs/speed.md)."""
    found = _all_private_uses()
    assert sorted(found - LIBRARY_PRIVATE.keys()) == []
    assert sorted(LIBRARY_PRIVATE.keys() - found) == [], "listed but no longer used: remove them"


def test_the_private_names_check_sees_a_class_made_inside_a_function():
    """pdf/raster.py made its image XObject class inside a function, subclassing ReportLab's
    PDFImageXObject and setting its ``_filters`` and ``_decode``: the check looked the class up as
    an attribute of the module, found none, and passed it over. Its bases are read from its code."""
    source = ("def image_class():\n"
              "    from reportlab.pdfbase import pdfdoc\n"
              "    class Image(pdfdoc.PDFImageXObject):\n"
              "        def __init__(self, stream):\n"
              "            self._filters, self.mine = stream.filters, 1\n"
              "            self._decode = [1, 0]\n"
              "    return Image\n")
    found = _private_uses("pnpgen.pdf.probe", ast.parse(source), _pnpgen_names() | {"_filters", "_decode"})
    assert found == {("pnpgen.pdf.probe", "_filters"), ("pnpgen.pdf.probe", "_decode")}


def test_the_private_names_check_finds_a_library_private_read():
    """The reader is not blind: a canvas's current font and argparse's option table are found,
    pnpgen's own ``_values`` and namedtuple's ``_fields`` are not."""
    source = ("def f(canvas, parser, view, box):\n"
              "    return canvas._fontname, parser._option_string_actions, view._values, box._fields, "
              "getattr(canvas, '_fontsize', 0)\n")
    found = _private_uses("pnpgen.engine.probe", ast.parse(source), _pnpgen_names())
    assert found == {("pnpgen.engine.probe", name) for name in ("_fontname", "_option_string_actions", "_fontsize")}
