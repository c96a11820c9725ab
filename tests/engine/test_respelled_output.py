"""A deck renamed in letter case only (``Cards.yaml`` → ``cards.yaml``) or in how a character is
written (``カ`` + ``゛`` → ``ガ``): its new file and the stale one are one file on a disk that
compares names as Windows and macOS do (engine/transaction.py). The commit removed the stale
name after moving the new file in, and took the new file with it. This machine's disk tells
names apart, so these tests put a layer in front of it that finds names as those disks do."""

from __future__ import annotations

import builtins
import io
import os
import unicodedata
from pathlib import Path

import pytest

from pnpgen.engine import trash as trashes
from pnpgen.engine.journal import JOURNAL, STAGING, VERSION, journal_bytes, recover
from pnpgen.engine.transaction import commit
from pnpgen.safetext import same_file

REAL = {name: getattr(os, name) for name in ("stat", "lstat", "open", "unlink", "remove", "rename", "replace",
                                             "mkdir", "rmdir", "chmod", "access", "scandir", "listdir")}
REAL_OPEN = builtins.open
NFD = unicodedata.normalize("NFD", "ガード.pdf")
NFC = unicodedata.normalize("NFC", "ガード.pdf")
RESPELLED = [("Cards.pdf", "cards.pdf"), ("shop/Cards.pdf", "Shop/cards.pdf"), (NFD, NFC)]


class Killed(BaseException):
    """A kill -9 at one step of a commit."""


class FoldingDisk:
    """Names below ``base`` found as APFS and NTFS find them: letter case aside, in any Unicode
    form; a rename onto another spelling of a file there replaces that file."""

    def __init__(self, base: Path, kill_at: int | None = None) -> None:
        self.base, self.kill_at, self.steps = str(base), kill_at, 0

    def find(self, path):
        if isinstance(path, int):
            return path
        text = os.fsdecode(os.fspath(path))
        if not (text == self.base or text.startswith(self.base + "/")):
            return path
        found = self.base
        for part in filter(None, text[len(self.base):].split("/")):
            here = f"{found}/{part}"
            try:
                REAL["lstat"](here)
            except OSError:
                try:
                    names = REAL["listdir"](found)
                except OSError:
                    names = []
                here = next((f"{found}/{n}" for n in sorted(names) if same_file(n) == same_file(part)), here)
            found = here
        return found

    def step(self) -> None:
        """A step that changes the disk: the one the kill lands on raises instead."""
        self.steps += 1
        if self.steps == self.kill_at:
            raise Killed

    def install(self, monkeypatch) -> None:
        def plain(name):
            def call(path=".", *args, **kwargs):
                if name in ("unlink", "remove", "mkdir", "rmdir"):
                    self.step()
                return REAL[name](self.find(path), *args, **kwargs)
            return call

        def moved(src, dst, **kwargs):
            self.step()
            source, there = self.find(src), self.find(dst)
            given = f"{self.find(os.path.dirname(os.fspath(dst)))}/{os.path.basename(os.fspath(dst))}"
            if there != given and there != source:  # another spelling of the target: that file is replaced
                REAL["unlink"](there)
            return REAL["replace"](source, given)

        def opened(file, *args, **kwargs):
            return REAL_OPEN(self.find(file), *args, **kwargs)

        for name in REAL:
            monkeypatch.setattr(os, name, plain(name))
        monkeypatch.setattr(os, "rename", moved)
        monkeypatch.setattr(os, "replace", moved)
        monkeypatch.setattr(builtins, "open", opened)
        monkeypatch.setattr(io, "open", opened)


def _listed(root: Path) -> dict[str, bytes]:
    """The outputs as the disk holds them, with their bytes (pnpgen's own folders left out)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != ".pnpgen-trash" and ".pnpgen-trash" not in p.parts}


def _old_output(root: Path, old: str, data: bytes) -> None:
    (root / old).parent.mkdir(parents=True, exist_ok=True)
    (root / old).write_bytes(data)


@pytest.fixture
def no_reclaim(monkeypatch):
    monkeypatch.setattr(trashes, "reclaim", lambda root: None)  # (a process of its own, not under the layer)


@pytest.mark.parametrize("old,new", RESPELLED)
@pytest.mark.parametrize("size", [10, 2000])  # a small file, unlinked; a big one, moved into the trash
@pytest.mark.parametrize("same_bytes", [False, True])
def test_a_renamed_deck_keeps_its_new_file_on_a_disk_that_folds_names(tmp_path, monkeypatch, no_reclaim,
                                                                       old, new, size, same_bytes):
    monkeypatch.setattr(trashes, "RECLAIM_MIN", 1000)
    root = tmp_path / "out"
    _old_output(root, old, b"o" * size)
    data = b"o" * size if same_bytes else b"n" * size  # (the same bytes: "unchanged" read the stale file)
    FoldingDisk(root).install(monkeypatch)
    assert (root / new).read_bytes() == b"o" * size  # (the layer: one file under either name)
    commit(root, {root / new: data, root / "manifest.json": b"{}"}, remove=[root / old])
    monkeypatch.undo()
    listed = _listed(root)  # (a folder keeps the spelling it had: shop/ for Shop/)
    assert {same_file(k): v for k, v in listed.items()} == {same_file(new): data, "manifest.json": b"{}"}
    assert Path(new).name in {Path(k).name for k in listed}  # the deck's new spelling
    assert not (root / JOURNAL).exists() and not (root / STAGING).exists()


@pytest.mark.parametrize("old,new", RESPELLED)
def test_on_a_disk_that_tells_the_names_apart_the_stale_file_still_goes(tmp_path, old, new):
    root = tmp_path / "out"
    _old_output(root, old, b"old")
    commit(root, {root / new: b"new"}, remove=[root / old])
    assert _listed(root) == {new: b"new"}
    # both names there (the new one unchanged): the stale one goes, the new one stays as it is
    _old_output(root, old, b"old")
    commit(root, {root / new: b"new"}, remove=[root / old])
    assert _listed(root) == {new: b"new"}


def _steps(root: Path, old: str, new: str, monkeypatch) -> int:
    """How many steps that change the disk the whole commit takes."""
    _old_output(root, old, b"o" * 2000)
    disk = FoldingDisk(root)
    disk.install(monkeypatch)
    commit(root, {root / new: b"n" * 2000}, remove=[root / old])
    monkeypatch.undo()
    return disk.steps


@pytest.mark.parametrize("old,new", RESPELLED[::2])
def test_killed_at_any_step_the_next_run_has_the_old_file_or_the_new_one(tmp_path, monkeypatch, no_reclaim, old, new):
    monkeypatch.setattr(trashes, "RECLAIM_MIN", 1000)
    steps = _steps(tmp_path / "count", old, new, monkeypatch)
    monkeypatch.setattr(trashes, "RECLAIM_MIN", 1000)
    monkeypatch.setattr(trashes, "reclaim", lambda root: None)
    outcomes = set()
    for kill_at in range(1, steps + 1):
        root = tmp_path / f"killed-{kill_at}"
        _old_output(root, old, b"o" * 2000)
        FoldingDisk(root, kill_at).install(monkeypatch)
        with pytest.raises(Killed):
            commit(root, {root / new: b"n" * 2000}, remove=[root / old])
        recover(root)  # the next run, on the same disk
        monkeypatch.undo()
        listed = _listed(root)
        monkeypatch.setattr(trashes, "RECLAIM_MIN", 1000)
        monkeypatch.setattr(trashes, "reclaim", lambda root: None)
        assert listed in ({old: b"o" * 2000}, {new: b"n" * 2000}), f"killed at step {kill_at} of {steps}"
        outcomes.add(next(iter(listed)) if listed else "")
    assert outcomes == {old, new}  # (killed before the commit and after it)


@pytest.mark.parametrize("folding", [False, True])
def test_a_commit_killed_after_its_move_by_an_earlier_pnpgen_is_finished_rightly(tmp_path, monkeypatch, folding):
    """An earlier pnpgen moved the new files in first and removed the stale ones after: killed in
    between, the journal's removal of Cards.pdf is left. Finished now, it removes the stale file
    where it is another file, and keeps the new one where the disk takes the two names for one."""
    root = tmp_path / "out"
    root.mkdir()
    (root / STAGING).mkdir()
    (root / "cards.pdf").write_bytes(b"new")  # moved in before the kill
    if not folding:
        (root / "Cards.pdf").write_bytes(b"old")
    (root / JOURNAL).write_bytes(journal_bytes({"version": VERSION, "moves": [["000000", "cards.pdf"]],
                                                "remove": ["Cards.pdf"], "token": "abc",
                                                "staging": (root / STAGING).lstat().st_ino}))
    if folding:
        FoldingDisk(root).install(monkeypatch)
    assert recover(root) == "forward"
    monkeypatch.undo()
    assert _listed(root) == {"cards.pdf": b"new"}
