"""A stranger's workspace may hold Python files named as a module pnpgen imports: a ``pnpgen/``
or ``multiprocessing/`` folder beside ``data/``. The designer runs pnpgen in that folder, and a
Python process started with ``-c`` there puts it first on its path: the Python processes pnpgen
starts (the trash's, and the workers macOS and Windows spawn) import nothing from it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from conftest import FEW_CARDS, child_env, make_workspace
from pnpgen.engine import trash
from pnpgen.engine.transaction import commit
from pnpgen.engine.trash import TRASH

PLANT = "open({marker!r}, 'a').write('ran from the workspace\\n')\nraise SystemExit(0)\n"


def _plant(ws: Path, module: str, marker: Path) -> None:
    (ws / module).mkdir()
    (ws / module / "__init__.py").write_text(PLANT.format(marker=str(marker)), encoding="utf-8")


def test_the_trash_process_imports_no_pnpgen_of_the_workspace(tmp_path, monkeypatch):
    monkeypatch.setattr(trash, "RECLAIM_MIN", 1000)
    ws = tmp_path / "ws"
    root = ws / "build"
    root.mkdir(parents=True)
    marker = tmp_path / "ran.txt"
    _plant(ws, "pnpgen", marker)
    (root / "deck.pdf").write_bytes(b"old" * 1000)
    monkeypatch.chdir(ws)  # where the designer runs pnpgen
    commit(root, {root / "deck.pdf": b"new" * 2000})
    end = time.monotonic() + 20
    while (root / TRASH).exists() and time.monotonic() < end:
        time.sleep(0.05)
    assert not (root / TRASH).exists(), "the trash was not emptied"
    assert not marker.exists(), marker.read_text(encoding="utf-8")


def test_spawned_workers_import_no_multiprocessing_of_the_workspace(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    shutil.copytree(ws / "data" / "test", ws / "data" / "other")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "other")
    marker = tmp_path / "ran.txt"
    _plant(ws, "multiprocessing", marker)
    # workers started as macOS and Windows start them; pnpgen -C ws: the command's own path holds
    # no workspace folder (as the pnpgen command's), and it then runs in the workspace
    code = ("import multiprocessing, sys; multiprocessing.set_start_method('spawn'); from pnpgen.cli import main; "
            "sys.exit(main(['-C', 'ws', 'build', '--all', '--jobs', '2', '--no-rulebook', '-q']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=child_env(PNPGEN_CACHE="off"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert (ws / "build" / "other" / "cards.pdf").is_file()
