"""A commit moves the big files it replaces aside and frees them from a process of its own
(engine/transaction.py, engine/trash.py): the new set is in place at once, the old files' space comes back
soon after, and an interruption at any step still leaves the old set or the new one."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from pnpgen.engine import trash as trashes
from pnpgen.engine.clean import clean
from pnpgen.engine.journal import JOURNAL, STAGING, VERSION, journal_bytes, recover
from pnpgen.engine.transaction import commit
from pnpgen.engine.trash import TAKEN, TRASH


@pytest.fixture
def small_reclaim(monkeypatch):
    monkeypatch.setattr(trashes, "RECLAIM_MIN", 1000)


def _gone(folder: Path, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not folder.exists():
            return True
        time.sleep(0.05)
    return False


def test_a_replaced_big_file_is_freed_after_the_commit(tmp_path, small_reclaim):
    root = tmp_path / "out"
    root.mkdir()
    (root / "deck.pdf").write_bytes(b"old" * 1000)
    (root / "small.txt").write_bytes(b"old")
    (root / "stale.pdf").write_bytes(b"gone" * 1000)
    written = commit(root, {root / "deck.pdf": b"new" * 2000, root / "small.txt": b"new"}, remove=[root / "stale.pdf"])
    assert sorted(p.name for p in written) == ["deck.pdf", "small.txt"]
    assert (root / "deck.pdf").read_bytes() == b"new" * 2000
    assert (root / "small.txt").read_bytes() == b"new"
    assert not (root / "stale.pdf").exists()
    assert _gone(root / TRASH), "the detached process did not empty the trash"
    assert sorted(p.name for p in root.iterdir()) == ["deck.pdf", "small.txt"]


def test_a_small_file_never_goes_through_the_trash(tmp_path, small_reclaim, monkeypatch):
    started = []
    monkeypatch.setattr(trashes, "reclaim", lambda root: started.append(root))
    root = tmp_path / "out"
    root.mkdir()
    (root / "a.txt").write_bytes(b"x" * 999)
    commit(root, {root / "a.txt": b"y" * 999})
    assert started == [] and not (root / TRASH).exists()
    (root / "b.pdf").write_bytes(b"x" * 1000)
    commit(root, {root / "b.pdf": b"y" * 1000})
    assert started == [root]
    assert [p.read_bytes() for p in (root / TRASH).iterdir() if p.suffix != TAKEN] == [b"x" * 1000]


def _killed_after_moving_aside(root: Path) -> None:
    """What a commit killed between moving ``deck.pdf`` aside and renaming its new bytes in leaves."""
    (root / STAGING).mkdir()
    (root / STAGING / "000000").write_bytes(b"new" * 1000)
    (root / JOURNAL).write_bytes(journal_bytes({"version": VERSION, "moves": [["000000", "deck.pdf"]], "remove": [],
                                                "token": "abc", "staging": (root / STAGING).lstat().st_ino}))
    (root / TRASH).mkdir()
    (root / "deck.pdf").rename(root / TRASH / "abc-000000")


def test_killed_between_the_two_renames_the_next_run_finishes_the_commit(tmp_path, small_reclaim):
    root = tmp_path / "out"
    root.mkdir()
    (root / "deck.pdf").write_bytes(b"old" * 1000)
    _killed_after_moving_aside(root)
    assert recover(root) == "forward"
    assert (root / "deck.pdf").read_bytes() == b"new" * 1000
    assert not (root / STAGING).exists() and not (root / JOURNAL).exists()
    assert _gone(root / TRASH)


def _old_files_in_the_trash(root: Path, monkeypatch) -> list[Path]:
    """Two commits' replaced big files, left in the trash (their freeing not started)."""
    monkeypatch.setattr(trashes, "reclaim", lambda root: None)
    root.mkdir()
    (root / "deck.pdf").write_bytes(b"old" * 1000)
    commit(root, {root / "deck.pdf": b"new" * 1000})
    commit(root, {root / "deck.pdf": b"newer" * 1000})
    monkeypatch.undo()
    return sorted(p for p in (root / TRASH).iterdir() if p.suffix != TAKEN)


def test_the_trash_frees_only_what_its_records_name(tmp_path, small_reclaim, monkeypatch):
    root = tmp_path / "out"
    first, second = _old_files_in_the_trash(root, monkeypatch)
    assert first.read_bytes() == b"old" * 1000 and second.read_bytes() == b"new" * 1000
    # a designer's files that look like entries: by hand, a synced folder's copy, one put in an entry's place
    (root / TRASH / "abc-000001").write_bytes(b"mine")
    (root / TRASH / "notes.txt").write_bytes(b"someone's")
    second.unlink()
    second.write_bytes(b"new" * 1000)  # the same name and size, another file
    (tmp_path / "elsewhere.pdf").write_bytes(b"keep")
    (root / TRASH / "def-000002").symlink_to(tmp_path / "elsewhere.pdf")
    (root / TRASH / f"abc{TAKEN}").write_bytes(b'{"check": "0"}\n{"version": 2, "entries": [["abc-000001", 0, 0, 4]]}')
    trashes.empty_trash(root / TRASH)
    # (the record naming the entry whose name another file holds stays: engine/trash.py empty_trash)
    assert sorted(p.name for p in (root / TRASH).iterdir()) == sorted(
        ["abc-000001", f"abc{TAKEN}", "def-000002", "notes.txt", second.name, second.name.split("-")[0] + TAKEN])
    assert (root / TRASH / "abc-000001").read_bytes() == b"mine"
    assert (tmp_path / "elsewhere.pdf").read_bytes() == b"keep"


def test_a_look_alike_in_the_trash_is_kept_and_said(tmp_path, small_reclaim, monkeypatch, capsys):
    def cannot_start(*args, **kwargs):
        raise OSError("no")  # reclaim then frees the trash here and now
    monkeypatch.setattr(subprocess, "Popen", cannot_start)  # (engine/trash.py imports it where it starts one)
    root = tmp_path / "out"
    root.mkdir()
    (root / TRASH).mkdir()
    (root / TRASH / "1a2b3c-000000").write_bytes(b"a designer's file")
    (root / "deck.pdf").write_bytes(b"old" * 1000)
    commit(root, {root / "deck.pdf": b"new" * 1000})
    assert [p.name for p in (root / TRASH).iterdir()] == ["1a2b3c-000000"]
    assert (root / TRASH / "1a2b3c-000000").read_bytes() == b"a designer's file"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1a2b3c-000000" in err and "left as it is" in err


def test_killed_after_the_commit_the_next_run_frees_the_old_files(tmp_path, small_reclaim, monkeypatch):
    root = tmp_path / "out"
    old = _old_files_in_the_trash(root, monkeypatch)
    assert len(old) == 2 and not (root / JOURNAL).exists()
    commit(root, {root / "other.txt": b"x"})  # the next build's commit starts the freeing
    assert _gone(root / TRASH)


def test_clean_empties_the_trash(tmp_path, small_reclaim, monkeypatch):
    root = tmp_path / "out"
    _old_files_in_the_trash(root, monkeypatch)
    (root / ".pnpgen-output").write_bytes(b"")
    (root / TRASH / "abc-000000").write_bytes(b"a designer's")
    done = clean(root)
    assert [p.name for p in (root / TRASH).iterdir()] == ["abc-000000"]
    assert done.strangers == [root / TRASH / "abc-000000"]


def test_old_files_whose_record_cannot_be_written_are_freed_at_once(tmp_path, small_reclaim, monkeypatch):
    def full(path, data, mode=0o666):
        raise OSError(28, "No space left on device")
    root = tmp_path / "out"
    root.mkdir()
    (root / "deck.pdf").write_bytes(b"old" * 1000)
    (root / STAGING).mkdir()
    (root / STAGING / "000000").write_bytes(b"new" * 1000)
    (root / JOURNAL).write_bytes(journal_bytes({"version": VERSION, "moves": [["000000", "deck.pdf"]], "remove": [],
                                                "token": "abc", "staging": (root / STAGING).lstat().st_ino}))
    monkeypatch.setattr(trashes, "write_new", full)  # the trash's record: the disk is full
    assert recover(root) == "forward"
    assert (root / "deck.pdf").read_bytes() == b"new" * 1000
    assert not (root / TRASH).exists() or list((root / TRASH).iterdir()) == []


def test_the_record_of_spares_left_half_written_is_freed_and_no_designers_file(tmp_path):
    """A run killed while it wrote the trash's record of spares (engine/spare.py) leaves its
    temporary: the reclaim frees it once its writer is gone, ``pnpgen clean`` always, and the
    trash folder goes with it; a designer's file of a like name stays and is said."""
    import os
    import subprocess
    import sys
    trash = tmp_path / TRASH
    trash.mkdir()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    killed = trash / f".spares.{gone.pid:x}-7f3a2b1c.pnpgen-tmp"  # its writer is gone
    writing = trash / f".spares.{os.getpid():x}-7f3a2b1c.pnpgen-tmp"  # a build writing it now
    killed.write_bytes(b'{"check": "0"}\n{"version": 1')
    writing.write_bytes(b'{"check": "0"}\n{"version": 1')
    trashes.empty_trash(trash, keep_spares=True)  # what the detached reclaim runs
    assert sorted(p.name for p in trash.iterdir()) == [writing.name]
    assert trashes.strangers(trash) == []
    trashes.empty_trash(trash)  # what pnpgen clean runs (holding the build lock)
    assert not trash.exists()
    trash.mkdir()
    mine = [trash / ".spares.notes.pnpgen-tmp", trash / ".spares.1a-2b.pnpgen-tmp.bak"]
    for path in mine:
        path.write_bytes(b"mine")
    (tmp_path / "elsewhere").write_bytes(b"keep")
    (trash / f".spares.{gone.pid:x}-1.pnpgen-tmp").symlink_to(tmp_path / "elsewhere")
    trashes.empty_trash(trash)
    assert sorted(p.name for p in trash.iterdir()) == sorted([*(p.name for p in mine), f".spares.{gone.pid:x}-1.pnpgen-tmp"])
    assert trashes.strangers(trash) == sorted(p.name for p in trash.iterdir())
    assert (tmp_path / "elsewhere").read_bytes() == b"keep"


def test_an_entry_swapped_out_as_the_reclaim_looks_is_never_freed(tmp_path, small_reclaim, monkeypatch):
    """The entry's file moved aside and another put in its name just as the reclaim checks it:
    neither is freed then, and the record naming the entry stays. pnpgen's file moved back into
    its name is kept too: the move set its change time anew, as a file made there has its own."""
    root = tmp_path / "out"
    first, second = _old_files_in_the_trash(root, monkeypatch)
    trash, aside = root / TRASH, tmp_path / "aside.pdf"
    real = trashes._is_entry

    def swapped_as_it_looks(path, *identity):
        if path == second:
            os.rename(second, aside)
            path.write_bytes(b"a synced folder's copy")
        return real(path, *identity)

    monkeypatch.setattr(trashes, "_is_entry", swapped_as_it_looks)
    trashes.empty_trash(trash, keep_spares=True)  # what the detached reclaim runs
    monkeypatch.undo()
    assert not first.exists() and second.read_bytes() == b"a synced folder's copy"
    assert aside.read_bytes() == b"new" * 1000
    assert trashes.strangers(trash) == [second.name]
    trashes.empty_trash(trash)
    assert second.read_bytes() == b"a synced folder's copy"  # (not pnpgen's: kept)
    os.replace(aside, second)  # pnpgen's file back in its name: its move set its change time anew,
    assert trashes.strangers(trash) == [second.name]  # so it cannot be told from a file made there
    trashes.empty_trash(trash, keep_spares=True)
    assert second.read_bytes() == b"new" * 1000


def test_a_file_swapped_into_an_entry_after_its_check_is_never_freed(tmp_path, small_reclaim, monkeypatch):
    """The entry checked (the very file its record names), then moved away and another file put
    in its name before the unlink: the other file stays, pnpgen's file is freed once back."""
    root = tmp_path / "out"
    first, second = _old_files_in_the_trash(root, monkeypatch)
    trash, aside = root / TRASH, tmp_path / "aside.pdf"
    real = trashes._is_entry

    def swapped_after_the_check(path, *identity):
        checked = real(path, *identity)
        if path == second and checked:
            os.rename(second, aside)
            path.write_bytes(b"a synced folder's copy")
        return checked

    monkeypatch.setattr(trashes, "_is_entry", swapped_after_the_check)
    trashes.empty_trash(trash, keep_spares=True)
    monkeypatch.undo()
    assert not first.exists() and second.read_bytes() == b"a synced folder's copy"
    assert aside.read_bytes() == b"new" * 1000
    assert trashes.strangers(trash) == [second.name]  # (its record stays, naming pnpgen's file)
    os.replace(aside, second)  # (moved back, it is a stranger too: its change time is the move's)
    trashes.empty_trash(trash, keep_spares=True)
    assert second.read_bytes() == b"new" * 1000 and trashes.strangers(trash) == [second.name]


def test_a_file_that_took_the_entrys_name_while_it_was_checked_is_not_replaced(tmp_path, small_reclaim, monkeypatch):
    """pnpgen's entry checked and held open, then swapped for another file just before its move to a
    private name, and a third put in the entry's name meanwhile: the one moved aside is not the
    file held, so it goes back under a name that says it is not pnpgen's; the third stays, and
    pnpgen's file (moved elsewhere) is untouched."""
    root = tmp_path / "out"
    first, second = _old_files_in_the_trash(root, monkeypatch)
    trash, aside = root / TRASH, tmp_path / "aside.pdf"
    real = os.rename

    def swapped_as_it_moves(src, dst):
        if Path(src) == second and trashes.FREEING in os.fspath(dst):
            real(second, aside)
            second.write_bytes(b"not pnpgen's")
            real(src, dst)
            second.write_bytes(b"a third file")
            return
        real(src, dst)

    monkeypatch.setattr(os, "rename", swapped_as_it_moves)
    trashes.empty_trash(trash, keep_spares=True)
    monkeypatch.undo()
    assert not first.exists() and second.read_bytes() == b"a third file"
    assert second.with_name(f"{second.name}.not-written-by-pnpgen").read_bytes() == b"not pnpgen's"
    assert aside.read_bytes() == b"new" * 1000


def test_killed_as_it_freed_an_entry_the_next_reclaim_frees_it(tmp_path, small_reclaim, monkeypatch):
    root = tmp_path / "out"
    first, second = _old_files_in_the_trash(root, monkeypatch)
    trash = root / TRASH
    real_unlink = os.unlink

    class Killed(BaseException):
        pass

    def killed(path, *args, **kwargs):
        if trashes.FREEING in os.fspath(path):
            raise Killed
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", killed)
    with pytest.raises(Killed):
        trashes.empty_trash(trash, keep_spares=True)
    monkeypatch.undo()
    left = [p.name for p in trash.iterdir() if trashes.FREEING in p.name]
    assert len(left) == 1 and trashes.strangers(trash) == []  # (pnpgen's, under its private name)
    trashes.empty_trash(trash, keep_spares=True)
    assert not trash.exists()


def test_a_builds_commit_leaves_its_small_old_files_to_be_freed_after_its_summary(tmp_path, monkeypatch):
    """``later`` (a build's commit): the small files it replaces or removes are moved into the
    trash, not freed on the way (some 4 ms of ext4 each, a watch save's 40 ms), no process is
    started for them, and the caller empties the trash once it has said the build is done."""
    started = []
    monkeypatch.setattr(trashes, "reclaim", lambda root: started.append(root))
    root = tmp_path / "out"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old a")
    (root / "stale.txt").write_bytes(b"old stale")
    old = {(root / name).stat().st_ino for name in ("a.txt", "stale.txt")}
    later: list[Path] = []
    commit(root, {root / "a.txt": b"new a"}, remove=[root / "stale.txt"], later=later)
    assert (root / "a.txt").read_bytes() == b"new a" and not (root / "stale.txt").exists()
    assert started == [] and later == [root / TRASH]
    waiting = [p for p in (root / TRASH).iterdir() if p.suffix != TAKEN]
    assert {p.stat().st_ino for p in waiting} == old, "an old file was freed before the build said it was done"
    assert sorted(p.read_bytes() for p in waiting) == [b"old a", b"old stale"]
    trashes.empty_trash(later[0], keep_spares=True)
    assert not (root / TRASH).exists()
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]


def test_small_old_files_left_in_the_trash_are_freed_by_the_next_commits_reclaim(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr(trashes, "reclaim", lambda root: started.append(root))
    root = tmp_path / "out"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old a")
    commit(root, {root / "a.txt": b"new a"}, later=[])  # killed before its caller freed them
    assert (root / TRASH).is_dir() and started == []
    commit(root, {root / "b.txt": b"b"}, later=[])  # the next build's
    assert started == [root]  # the reclaim's process, which frees what the sealed record names
    trashes.empty_trash(root / TRASH, keep_spares=True)
    assert not (root / TRASH).exists()


def test_a_build_says_it_is_done_before_it_frees_the_files_it_replaced(workspace):
    """The summary (``committed``) is told while the replaced files wait in the trash; the build
    has freed them, and removed the trash, by the time it returns."""
    from pnpgen.data.workspace import find_workspace
    from pnpgen.engine.options import BuildOptions
    from pnpgen.engine.run import run_build

    ws = find_workspace(workspace)
    out = workspace / "build"
    run_build(ws, ["test"], BuildOptions(jobs=1), out, None)
    deck = workspace / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "本文カード1改"), encoding="utf-8")
    waiting: list[int] = []
    run_build(ws, ["test"], BuildOptions(jobs=1), out, None,
              committed=lambda outcomes: waiting.append(sum(1 for p in (out / TRASH).iterdir() if p.suffix != TAKEN)))
    assert waiting and waiting[0] >= 3  # the deck's documents, the manifest, the cache's records at least
    assert not (out / TRASH).exists()
