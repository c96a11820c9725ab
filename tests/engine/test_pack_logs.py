"""A big pack of the build cache grows by what changed (engine/packlog.py ``LOG_FROM``): an edit
writes the records it made into a log beside the pack (``<kind>.pack.log``), not the pack again;
the next build reads the pack and its log as one. A torn or tampered log refuses the pack (made
again); a log of another pack is passed over; past ``LOG_SHARE`` of the pack the pack is written
whole and its log removed in the same commit. The tests make every pack "big" (``LOG_FROM`` 0)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from conftest import forked_main, make_workspace, remove_tree, run
from pnpgen.engine import packlog
from pnpgen.engine.cache import Cache
from pnpgen.engine.journal import recover

DECK = Path("data/test/decks/cards.yaml")
# (not the documents' layouts: an edit's records of how it patched a document are not a cold build's)
KINDS = ("renders/test", "converted/test", "forms/test", "lint/test", "bleed/test", "pieces/test")


@pytest.fixture
def logged(monkeypatch):
    """Every pack big enough for a log, and a log up to nine tenths of its pack."""
    monkeypatch.setattr(packlog, "LOG_FROM", 0)
    monkeypatch.setattr(packlog, "LOG_SHARE", 0.9)


def _edit(ws: Path, old: str, new: str) -> None:
    deck = ws / DECK
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new), encoding="utf-8")


def _written(folder: Path) -> dict[str, tuple[int, int]]:
    """Each cache pack's and log's (inode, size): a file written again is a new inode (the commit
    renames a staged copy into place)."""
    cache = folder / ".cache"
    return {p.relative_to(cache).as_posix(): (p.stat().st_ino, p.stat().st_size)
            for p in cache.glob("*/*.pack.*") if p.is_file()}


def _records(out: Path) -> dict[str, dict]:
    """Every pack's records, as the next build reads them (the pack and its log as one)."""
    cache = Cache(out)
    return {kind: dict(cache.pack(kind).items()) for kind in KINDS}


def _outputs(folder: Path) -> dict[str, bytes]:
    """The game's files but the manifest and the reprint files (what changed since the last build)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in (folder / "test").rglob("*")
            if p.is_file() and p.name != "manifest.json" and p.stem != "reprint"}


def _built_and_edited(tmp_path: Path) -> tuple[Path, dict[str, tuple[int, int]]]:
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test") == 0
    before = _written(ws / "build")
    _edit(ws, "本文カード5", "改訂された本文")
    assert run(ws, "build", "--game", "test") == 0
    return ws, before


def test_a_one_card_edit_writes_logs_of_what_changed_not_the_packs(tmp_path, logged):
    """Counted in bytes: after a one-card text edit no pack is written again, the logs hold less
    than the packs, and what the next build reads equals a cold build's records and files."""
    ws, before = _built_and_edited(tmp_path)
    after = _written(ws / "build")
    # (the documents' layouts pack: each edited document's layout is a new record, most of it)
    packs = {k: v for k, v in before.items() if k.endswith(".pack.json") and not k.startswith("layouts/")}
    assert len(packs) >= 5 and all(after[k] == v for k, v in packs.items())  # (the same file: not written again)
    logs = {k: size for k, (_, size) in after.items() if k.endswith(".pack.log")}
    assert {"renders/test.pack.log", "converted/test.pack.log", "forms/test.pack.log"} <= logs.keys()
    assert sum(logs.values()) < sum(size for _, size in packs.values()) / 2
    cold = tmp_path / "cold"
    assert run(ws, "build", "--game", "test", "--out", str(cold)) == 0
    assert _records(ws / "build") == _records(cold)
    assert _outputs(ws / "build") == _outputs(cold)
    # a second edit: the log again holds what changed since the pack (both edits), the pack kept
    _edit(ws, "改訂された本文", "二度目の本文")
    assert run(ws, "build", "--game", "test") == 0
    assert all(_written(ws / "build")[k] == v for k, v in packs.items())
    assert run(ws, "build", "--game", "test", "--out", str(cold)) == 0
    assert _records(ws / "build") == _records(cold)
    assert _outputs(ws / "build") == _outputs(cold)


@pytest.mark.parametrize("damage", ["torn", "tampered"])
def test_a_torn_or_tampered_log_refuses_its_pack_and_the_next_build_makes_it_again(tmp_path, logged, damage):
    ws, _ = _built_and_edited(tmp_path)
    out = ws / "build"
    log = out / ".cache" / "forms" / "test.pack.log"
    data = log.read_bytes()
    # each still lines of records (only the seal tells): its last line cut off, one hex digit changed
    at = data.rindex(b"0", 0, len(data) - 10)
    log.write_bytes(data[:data.rindex(b"\n")] if damage == "torn" else data[:at] + b"1" + data[at + 1:])
    assert dict(Cache(out).pack("forms/test")) == {}  # refused: its records are made again
    assert len(Cache(out).pack("converted/test")) > 0  # (the other packs read as they are)
    _edit(ws, "改訂された本文", "二度目の本文")
    assert run(ws, "build", "--game", "test") == 0
    assert not log.exists()  # the pack written whole, its log removed with it
    cold = tmp_path / "cold"
    assert run(ws, "build", "--game", "test", "--out", str(cold)) == 0
    assert _outputs(out) == _outputs(cold)
    made, cold_records = _records(out), _records(cold)
    # (the forms drawn again: those of the documents this build wrote — the others reused as they were)
    forms = made.pop("forms/test")
    assert forms and all(cold_records["forms/test"][key] == value for key, value in forms.items())
    cold_records.pop("forms/test")
    assert made == cold_records


def test_a_log_of_another_pack_is_passed_over(tmp_path, logged):
    """A log names its pack by the pack's seal: put beside another pack (the pack written whole
    again since), its records are not taken."""
    ws, _ = _built_and_edited(tmp_path)
    out = ws / "build"
    log = out / ".cache" / "renders" / "test.pack.log"
    kept = log.read_bytes()  # (the first edit's renders)
    _edit(ws, "改訂された本文", "二度目の本文")
    remove_tree(out)
    assert run(ws, "build", "--game", "test") == 0  # (a pack written whole, of the second edit: no log)
    assert not log.exists()
    alone = dict(Cache(out).pack("renders/test"))
    log.write_bytes(kept)
    assert dict(Cache(out).pack("renders/test")) == alone  # (taken, the first edit's renders would be in it)


def test_a_log_past_its_share_writes_the_pack_whole_and_removes_the_log(tmp_path, logged, monkeypatch):
    ws, before = _built_and_edited(tmp_path)
    out = ws / "build"
    assert (out / ".cache" / "renders" / "test.pack.log").is_file()
    monkeypatch.setattr(packlog, "LOG_SHARE", 0.0)
    _edit(ws, "改訂された本文", "二度目の本文")
    assert run(ws, "build", "--game", "test") == 0
    after = _written(out)
    assert not any(k.endswith(".pack.log") for k in after)
    assert after["renders/test.pack.json"] != before["renders/test.pack.json"]
    cold = tmp_path / "cold"
    assert run(ws, "build", "--game", "test", "--out", str(cold)) == 0
    assert _records(out) == _records(cold)
    cache = out / ".cache"
    assert {p.name for p in cache.glob("*/*.pack.*")} == {p.name for p in (cold / ".cache").glob("*/*.pack.*")}


def _packs(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted((out / ".cache").glob("*/*.pack.*"))}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("share", [0.9, 0.0], ids=["log-written", "pack-written-whole"])
def test_a_build_killed_while_it_writes_a_log_or_the_pack_leaves_the_old_records_or_the_new(tmp_path, logged,
                                                                                            monkeypatch, share):
    """Killed at random instants of an edit that writes logs (and of one that writes the packs
    whole and removes their logs), the packs and logs are the old set or the new, never a mix."""
    ws, _ = _built_and_edited(tmp_path)  # (a log beside each pack now)
    base = ws / "build"
    old = _packs(base)
    assert any(k.endswith(".pack.log") for k in old)
    monkeypatch.setattr(packlog, "LOG_SHARE", share)
    _edit(ws, "改訂された本文", "二度目の本文")
    newest = tmp_path / "new"
    shutil.copytree(base, newest)
    start = time.perf_counter()
    pid = forked_main(ws, ["build", "--game", "test", "--out", str(newest)])
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    whole = time.perf_counter() - start
    new = _packs(newest)
    assert new != old and any(k.endswith(".pack.log") for k in new) == (share > 0)
    rng = random.Random(46)
    for i in range(6):
        trial = tmp_path / f"trial{i}"
        shutil.copytree(base, trial)
        pid = forked_main(ws, ["build", "--game", "test", "--out", str(trial)])
        time.sleep(rng.uniform(0, whole * 1.1))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        recover(trial)
        assert _packs(trial) in (old, new), f"kill {i}: a mixed set"
        remove_tree(trial)
