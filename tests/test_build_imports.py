"""A build imports nothing it does not use (issue 22: the 53-card poker deck within 1.5× of a
hand-written ReportLab script, where a start of pnpgen is mostly its imports).

A real ``python -m pnpgen build`` of a tiny game, its YAML already in this machine's cache (a
designer's every build but the first), lists the modules it ended with (``PNPGEN_TEST_MODULES``,
cli.py): what only a cache miss, a mistake, ``watch`` or a big build needs stays out — each is
imported where it is used (docs/speed.md, "startN")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import FEW_CARDS, child_env, make_workspace

# imported only by the command, the case or the build that uses it (its place named)
NOT_IMPORTED = {
    "yaml": "data/yamlsrc.py, messages/: a YAML text parsed (not in the machine's cache)",
    "concurrent.futures": "engine/fingerprint.py, game.py, transaction.py: threads or workers started; engine/warm.py: watch",
    "subprocess": "engine/trash.py: replaced files freed by a process of their own",
    "secrets": "engine/trash.py",
    "difflib": "data/decklist.py, errors.py: a name mistyped",
    "decimal": "data/numberformat.py: a spreadsheet's formatted number",
    "fractions": "data/numberformat.py",
    "pnpgen.checkcommand": "cli.py: pnpgen check",
    "pnpgen.toolcommands": "cli.py: export-sheet, clean, calibrate, docs, preflight",
}


def _modules(ws: Path, cache: Path, listed: Path) -> set[str]:
    """The modules a ``python -m pnpgen build`` process in ``ws`` ended with, building into a new
    folder (as the bench's poker deck: every document written)."""
    env = child_env(PNPGEN_CACHE=str(cache), PNPGEN_TEST_MODULES=str(listed))
    proc = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--no-rulebook", "-q",
                           "--out", str(ws / listed.stem)], cwd=ws, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(listed.read_text(encoding="utf-8").split())


def test_a_build_of_cached_files_imports_only_what_it_uses(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    cache = tmp_path / "cache"
    first = _modules(ws, cache, tmp_path / "first.txt")  # (nothing in the machine's cache: the YAML parsed)
    assert {"pnpgen.engine.run", "jinja2", "yaml"} <= first  # (not blind: a module imported is listed)
    modules = _modules(ws, cache, tmp_path / "modules.txt")
    assert "pnpgen.data.yamlsrc" in modules and (ws / "modules" / "test" / "cards.pdf").stat().st_size > 0
    imported = {name: why for name, why in NOT_IMPORTED.items() if name in modules}
    assert imported == {}
