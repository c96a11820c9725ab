"""A build folder can come with a commit journal (``.pnpgen-journal``) and a staging folder, as a
killed run leaves them, from elsewhere (a zip, a shared drive, git). Only a journal sealed on this
machine is rolled forward: any other is rolled back, with one line on stderr, and replaces or
removes nothing — not an output, not a file of the designer's in the build folder. A killed
commit of this machine's is still carried out to the end, with or without the machine's cache.

Even a sealed journal (a bug's, say) must never move or remove a file outside the output folder:
staged files come only from a real folder of the output folder's own (a staging folder that is a
link to elsewhere would move that folder's files in), and every target is a plain path below it,
with no link on the way."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run
from pnpgen.engine import transaction
from pnpgen.engine.journal import JOURNAL, STAGING, VERSION, journal_bytes, recover
from pnpgen.engine.transaction import commit
from pnpgen.errors import InputError


@pytest.fixture(autouse=True)
def _machine(tmp_path, monkeypatch):
    """This machine's cache (and key) of the test's own."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))


def _journal(out: Path, moves: list, remove: list) -> None:
    """A journal sealed as this machine seals one: its paths are all that is wrong with it."""
    (out / JOURNAL).write_bytes(journal_bytes({"version": VERSION, "moves": moves, "remove": remove, "token": "a1"}))


PLANTS = {
    "staging is a link out": lambda out, outside: (
        (out / ".pnpgen-staging").symlink_to(outside), _journal(out, [["1", "test/moved-in.txt"]], [])),
    "removal through ..": lambda out, outside: _journal(out, [], ["../outside/1"]),
    "removal of an absolute path": lambda out, outside: _journal(out, [], [str(outside / "1")]),
    "removal through a linked folder": lambda out, outside: (
        (out / "test" / "elsewhere").symlink_to(outside), _journal(out, [], ["test/elsewhere/1"])),
    "move through a linked folder": lambda out, outside: (
        (out / ".pnpgen-staging").mkdir(), (out / ".pnpgen-staging" / "1").write_text("planted"),
        (out / "test" / "elsewhere").symlink_to(outside), _journal(out, [["1", "test/elsewhere/1"]], [])),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_journal_moves_and_removes_nothing_outside_the_output_folder(tmp_path, plant):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "1").write_text("the designer's own file", encoding="utf-8")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build"
    PLANTS[plant](out, outside)
    planted = out / ".pnpgen-staging" / "1"
    if planted.is_file() and not (out / ".pnpgen-staging").is_symlink():
        # a file pnpgen did not stage (not 000000 on): kept, and said, never moved or deleted
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
        assert planted.read_text(encoding="utf-8") == "planted"
        planted.unlink()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (outside / "1").read_text(encoding="utf-8") == "the designer's own file"
    assert sorted(p.name for p in outside.iterdir()) == ["1"]
    assert not (out / "test" / "moved-in.txt").exists()
    assert not (out / ".pnpgen-journal").exists() and not (out / ".pnpgen-staging").exists()


def _text(body: dict) -> bytes:
    return json.dumps(body, ensure_ascii=False).encode()


def _headed(check: str, text: bytes) -> bytes:
    return json.dumps({"version": VERSION, "check": check}).encode() + b"\n" + text


# Journals as a build folder from elsewhere holds them: anyone can write these.
FOREIGN = {
    "an earlier pnpgen's, unsealed": lambda body, tmp: _text(body | {"version": 1}),
    "sealed by its hash": lambda body, tmp: _headed(hashlib.sha256(_text(body)).hexdigest(), _text(body)),
    "sealed by another machine's key": lambda body, tmp: _headed(
        hmac.digest(b"k" * 32, _text(body), "sha256").hex(), _text(body)),
    "damaged": lambda body, tmp: journal_bytes(body)[:-3],
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_a_journal_this_machine_did_not_seal_replaces_and_removes_nothing(tmp_path, kind, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build"
    built = (out / "test" / "cards.pdf").read_bytes()
    (out / "test" / "notes.txt").write_text("the designer's notes", encoding="utf-8")  # files of the designer's
    (out / "test" / "keep.txt").write_text("the designer's list", encoding="utf-8")
    planted = b"%PDF-1.7 planted " + bytes(range(256)) * 4
    (out / STAGING).mkdir()
    (out / STAGING / "000000").write_bytes(planted)
    (out / STAGING / "000001").write_bytes(planted + b"1")
    body = {"version": VERSION, "moves": [["000000", "test/cards.pdf"], ["000001", "test/notes.txt"]],
            "remove": ["test/keep.txt"], "token": "a1", "staging": (out / STAGING).lstat().st_ino}
    (out / JOURNAL).write_bytes(FOREIGN[kind](body, tmp_path))
    capsys.readouterr()
    # the journal rolled back; the staged-looking files no record of this machine's names are kept, and said
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and f"warning: build/{JOURNAL}: " in err and "rolled back" in err, err
    assert f"error: build/{STAGING}: holds what pnpgen did not stage there (000000, 000001)" in err, err
    assert (out / STAGING / "000000").read_bytes() == planted and "Traceback" not in err
    shutil.rmtree(out / STAGING)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (out / "test" / "cards.pdf").read_bytes() == built
    assert (out / "test" / "notes.txt").read_text(encoding="utf-8") == "the designer's notes"
    assert (out / "test" / "keep.txt").read_text(encoding="utf-8") == "the designer's list"
    assert not any(planted in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and not p.is_symlink())
    assert not (out / JOURNAL).exists() and not (out / STAGING).exists()


def test_without_a_machine_key_a_journal_beside_another_staging_folder_is_rolled_back(tmp_path, monkeypatch):
    """PNPGEN_CACHE=off: no key, so the seal is a hash anyone computes; the journal must also
    name the inode of the staging folder beside it, which a folder unpacked from a zip cannot."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    root = tmp_path / "out"
    (root / "test").mkdir(parents=True)
    (root / "test" / "notes.txt").write_text("mine", encoding="utf-8")
    (root / STAGING).mkdir()
    (root / STAGING / "000000").write_text("planted", encoding="utf-8")
    ino = (root / STAGING).lstat().st_ino
    for guess in (ino + 1, None):  # a guessed inode, or none at all
        body = {"version": VERSION, "moves": [["000000", "test/notes.txt"]], "remove": [], "token": "a1"} \
            | ({"staging": guess} if guess is not None else {})
        (root / JOURNAL).write_bytes(_headed(hashlib.sha256(_text(body)).hexdigest(), _text(body)))
        (root / STAGING).mkdir(exist_ok=True)
        (root / STAGING / "000000").write_text("planted", encoding="utf-8")
        with pytest.raises(InputError, match="holds what pnpgen did not stage there"):
            recover(root)  # rolled back; the planted file, no record of this machine's naming it, stays
        assert (root / "test" / "notes.txt").read_text(encoding="utf-8") == "mine"
        assert not (root / JOURNAL).exists() and (root / STAGING / "000000").read_text(encoding="utf-8") == "planted"
    shutil.rmtree(root / STAGING)
    assert recover(root) is None


@pytest.mark.parametrize("cache", ["machine key", "off"])
def test_a_commit_killed_after_its_journal_is_carried_out_by_the_next_run(tmp_path, monkeypatch, cache):
    """The commit as a kill right after its journal's rename leaves it (``recover`` held back),
    then the next run's ``recover``: the new set, with or without the machine's cache."""
    if cache == "off":
        monkeypatch.setenv("PNPGEN_CACHE", "off")
    root = tmp_path / "out"
    (root / "d").mkdir(parents=True)
    for i in range(3):
        (root / "d" / f"f{i}").write_bytes(b"old %d" % i)
    with monkeypatch.context() as m:
        m.setattr(transaction, "recover", lambda root, later=None, spares=None: None)
        commit(root, {root / "d" / "f0": b"new 0", root / "d" / "f1": b"new 1"}, [root / "d" / "f2"])
    assert (root / JOURNAL).is_file() and (root / "d" / "f0").read_bytes() == b"old 0"  # killed there
    assert recover(root) == "forward"
    assert {p.name: p.read_bytes() for p in (root / "d").iterdir()} == {"f0": b"new 0", "f1": b"new 1"}
    assert not (root / JOURNAL).exists() and not (root / STAGING).exists()
