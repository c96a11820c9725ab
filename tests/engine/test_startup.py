"""What a build process pays before and beside its work (the poker deck's goal, issue 22):
the libraries only some commands (or some builds) need are not imported by a build, and what the imports made is
set aside from the garbage collector once."""

from __future__ import annotations

import subprocess
import sys

from conftest import child_env, make_workspace

BUILD = """\
import gc, sys
from pnpgen.cli import main
called = main(["build", "--game", "test", "--no-rulebook", "--out", sys.argv[1] + "-called"])
code = main(["build", "--game", "test", "--no-rulebook", "--out", sys.argv[1]], own_process=True)
first = gc.get_freeze_count()
again = main(["build", "--game", "test", "--no-rulebook", "--out", sys.argv[1] + "-again"], own_process=True)
print(called, code, again, *(name in sys.modules for name in ("importlib.metadata", "email.message", "multiprocessing")),
      first > 10_000, gc.get_freeze_count() <= first)
"""


def _build_twice(tmp_path) -> list[str]:
    ws = make_workspace(tmp_path / "ws")
    proc = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path / "out")], cwd=ws,
                          env=child_env({"PATH": "/usr/bin:/bin"}), capture_output=True, text=True, timeout=120)
    assert (tmp_path / "out" / "test" / "cards.pdf").is_file(), proc.stderr
    return proc.stdout.splitlines()[-1].split()


def test_a_build_process_never_imports_what_only_pnpgen_docs_reads(tmp_path):
    """importlib.metadata and the email package it parses a wheel's README with (some 7 ms) load
    for ``pnpgen docs`` alone."""
    assert _build_twice(tmp_path)[:5] == ["0", "0", "0", "False", "False"]


def test_what_the_imports_made_is_set_aside_from_the_collector_once(tmp_path):
    """The stages' imports' objects frozen at the first build of pnpgen's own process (the
    collector no longer walks them), not at a build a program (a test) calls, whose garbage of
    before would stay; a second build (a watch save) freezes nothing more: its garbage stays
    collectable. (The count may fall: a frozen object the second build lets go of is freed, as a
    memo entry of a file read again because it changed within its clock's tick of being read.)"""
    assert _build_twice(tmp_path)[6:] == ["True", "True"]


def test_a_build_that_starts_no_process_never_imports_multiprocessing(tmp_path):
    """multiprocessing and the process pool (some 5 ms of a short build's imports) load when a
    build starts a worker, a forked writer or the rulebook's process, not for a build that
    starts none (``--no-rulebook``, a small deck: engine/documents.py, engine/warm.py)."""
    assert _build_twice(tmp_path)[5] == "False"
