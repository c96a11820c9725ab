"""An output folder the designer made read-only (``chmod -w build/test``, a folder synced
read-only): the build stops before its commit, in one line naming the folder, the old set as it
was. One that turns read-only while the commit is carried out stops it in one line too (it was a
traceback, and so was every later run over the journal it left); the next run that may write
there finishes the commit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pnpgen.engine.transaction as transaction
from conftest import FEW_CARDS, child_env, run


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _edit(ws: Path, old: str, new: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _as_the_designer() -> list[str]:
    """The command prefix that runs pnpgen bound by file permissions: root ignores them (tests
    may run as root): without its capabilities (setpriv), root obeys them as any user does."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, and no setpriv to drop root's power over permissions")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all"]


@pytest.mark.parametrize("read_only", ["build/test", "build/test/shop", "build"])
def test_a_read_only_output_folder_stops_the_build_before_anything_is_replaced(built_copy, tmp_path, read_only):
    ws = built_copy(tmp_path / "ws", "build", "--game", "test", "--no-rulebook", "--jobs", "1", pieces=FEW_CARDS)
    out = ws / "build" / "test"
    before = _files(out)
    _edit(ws, "カード3", "書き直した札")
    folder = ws / read_only
    folder.chmod(0o555)
    try:
        proc = subprocess.run([*_as_the_designer(), sys.executable, "-m", "pnpgen", "build", "--game", "test",
                               "--no-rulebook"], cwd=ws, env=child_env(), capture_output=True, text=True, timeout=120)
    finally:
        folder.chmod(0o755)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == ("pnpgen: error: build: the default output folder (no --out given): cannot write into "
                           f"{read_only}: it is read-only (expected a folder you may write to (chmod u+w); nothing was replaced)\n")
    assert _files(out) == before
    assert not (ws / "build" / transaction.JOURNAL).exists() and not (ws / "build" / transaction.STAGING).exists()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0  # writable again: built
    assert _files(out) != before


def test_a_folder_turned_read_only_during_the_commit_is_one_line_and_the_next_run_finishes_it(built_copy,
        tmp_path, capsys, monkeypatch):
    ws = built_copy(tmp_path / "ws", "build", "--game", "test", "--no-rulebook", "--jobs", "1", pieces=FEW_CARDS)
    _edit(ws, "カード3", "書き直した札")
    target = ws / "build" / "test" / "cards.pdf"
    replace = os.replace

    def read_only_there(source, destination):
        if Path(destination) == target:
            raise PermissionError(13, "Permission denied", str(destination))
        replace(source, destination)

    monkeypatch.setattr(transaction.os, "replace", read_only_there)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "cannot finish writing the new set of files into build: build/test/cards.pdf: Permission denied" in err
    assert "the next run finishes the commit" in err
    assert (ws / "build" / transaction.JOURNAL).is_file()  # kept for the next run
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2  # still read-only: the same line
    assert capsys.readouterr().err == err
    monkeypatch.undo()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert not (ws / "build" / transaction.JOURNAL).exists()
    fresh = tmp_path / "fresh"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(fresh)) == 0
    finished, cold = _files(ws / "build" / "test"), _files(fresh / "test")
    assert {k: v for k, v in finished.items() if k in cold and k != "manifest.json"} == \
        {k: v for k, v in cold.items() if k != "manifest.json"}  # the new set whole (manifest: what changed)


def test_a_locked_output_file_stops_the_build_before_anything_is_replaced(built_copy, tmp_path):
    """hostile20: a PDF the designer locked (macOS Finder's Locked, chflags uchg; chattr +i on
    Linux) cannot be renamed over: its rename failed halfway through the commit, the files moved
    before it new and the rest old. It is found before the commit, as a read-only folder is."""
    ws = built_copy(tmp_path / "ws", "build", "--game", "test", "--no-rulebook", "--jobs", "1", pieces=FEW_CARDS)
    out = ws / "build" / "test"
    before = _files(out)
    _edit(ws, "カード3", "書き直した札")
    mine = out / "test-all.pdf"  # the last one the commit moves: the others would be new already
    if subprocess.run(["chattr", "+i", str(mine)], capture_output=True).returncode != 0:
        pytest.skip("no chattr +i here (not root, or a file system without the flag)")
    try:
        proc = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--no-rulebook"], cwd=ws,
                              env=child_env(), capture_output=True, text=True, timeout=120)
        after = _files(out)
    finally:
        subprocess.run(["chattr", "-i", str(mine)], check=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == ("pnpgen: error: build: the default output folder (no --out given): test/test-all.pdf: the "
                           "file there is locked (immutable or append-only), so it cannot be replaced (expected the file unlocked (macOS: Get Info, "
                           "Locked off, or chflags nouchg; Linux: chattr -i -a), or moved away; nothing was replaced)\n")
    assert after == before
    assert not (ws / "build" / transaction.JOURNAL).exists() and not (ws / "build" / transaction.STAGING).exists()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0  # unlocked: built
    assert _files(out) != before
