"""A commit moves the big files it replaces aside and frees them from a process of its own
(engine/transaction.py): the new set is in place at once, the old files' space comes back
soon after, and an interruption at any step still leaves the old set or the new one."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pnpgen.engine import transaction
from pnpgen.engine.clean import clean
from pnpgen.engine.transaction import JOURNAL, STAGING, TRASH, VERSION, commit, journal_bytes, recover


@pytest.fixture
def small_reclaim(monkeypatch):
    monkeypatch.setattr(transaction, "RECLAIM_MIN", 1000)


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
    monkeypatch.setattr(transaction, "reclaim", lambda root: started.append(root))
    root = tmp_path / "out"
    root.mkdir()
    (root / "a.txt").write_bytes(b"x" * 999)
    commit(root, {root / "a.txt": b"y" * 999})
    assert started == [] and not (root / TRASH).exists()
    (root / "b.pdf").write_bytes(b"x" * 1000)
    commit(root, {root / "b.pdf": b"y" * 1000})
    assert started == [root]
    assert [p.read_bytes() for p in (root / TRASH).iterdir()] == [b"x" * 1000]


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


def test_the_trash_frees_only_its_own_entries(tmp_path):
    trash = tmp_path / TRASH
    trash.mkdir()
    (trash / "abc-000001").write_bytes(b"old")
    (trash / "notes.txt").write_bytes(b"someone's")
    (tmp_path / "elsewhere.pdf").write_bytes(b"keep")
    (trash / "def-000002").symlink_to(tmp_path / "elsewhere.pdf")
    transaction.empty_trash(trash)
    assert sorted(p.name for p in trash.iterdir()) == ["def-000002", "notes.txt"]
    assert (tmp_path / "elsewhere.pdf").read_bytes() == b"keep"


def test_clean_empties_the_trash(tmp_path):
    root = tmp_path / "out"
    root.mkdir()
    (root / ".pnpgen-output").write_bytes(b"")
    (root / TRASH).mkdir()
    (root / TRASH / "abc-000000").write_bytes(b"old")
    clean(root)
    assert not (root / TRASH).exists()
