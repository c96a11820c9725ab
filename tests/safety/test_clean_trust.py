"""``pnpgen clean`` removes a file only when a record this machine sealed says pnpgen wrote it, with
the bytes it still holds. A build folder from elsewhere (a zip, a shared drive) can hold a game's
state sealed by a plain hash (as pnpgen sealed them before it had a key, and as anyone can) or
by another machine, and an export folder's ``export.json``, which anyone can write: what they name
stays, the folder is named as left in one line, and clean ends with exit 0. Nor does the next
export remove a file because ``export.json`` names it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run

FAST = ("--no-rulebook", "--jobs", "1")


@pytest.fixture(autouse=True)
def _machine(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "mine"))


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _state_listing(state: Path, files: dict[str, str]) -> None:
    """The game's state listing ``files`` too, sealed by the hash of its text (pnpgen before seals)."""
    outer = json.loads(state.read_bytes())
    outer["body"]["files"] |= files
    text = json.dumps(outer["body"], ensure_ascii=False, sort_keys=True).encode()
    outer["check"] = hashlib.sha256(text).hexdigest()
    state.write_bytes(json.dumps(outer, ensure_ascii=False, sort_keys=True).encode())


def test_a_state_sealed_by_its_hash_alone_removes_nothing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    out = ws / "build" / "test"
    notes = out / "notes.txt"
    notes.write_text("the designer's notes, kept beside the sheets", encoding="utf-8")
    _state_listing(ws / "build" / ".cache" / "test.json", {"notes.txt": hashlib.sha256(notes.read_bytes()).hexdigest()})
    before = _tree(out)
    capsys.readouterr()
    assert run(ws, "clean") == 0
    err = capsys.readouterr().err
    assert _tree(out) == before  # the notes, and every output: nothing proves which are pnpgen's
    assert (ws / "build" / ".cache" / "test.json").is_file()
    assert err.count("\n") == 1 and "pnpgen: warning: build/test/: left as it is" in err and "Traceback" not in err


def test_a_build_folder_from_another_machine_is_left_until_built_here(tmp_path, monkeypatch, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "theirs"))
    assert run(ws, "build", "--game", "test", *FAST) == 0
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "mine"))
    before = _tree(ws / "build" / "test")
    capsys.readouterr()
    assert run(ws, "clean", "--game", "test") == 0
    assert _tree(ws / "build" / "test") == before and "build/test/: left as it is" in capsys.readouterr().err
    assert run(ws, "build", "--game", "test", *FAST) == 0  # built here: its state is this machine's
    assert run(ws, "clean", "--history") == 0
    assert not (ws / "build").exists()


def _exported_with_a_planted_record(tmp_path):
    """A doujin export; a file of the designer's beside it, which its export.json is edited to
    name: (workspace, export folder, that file, the files the export wrote)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    folder = ws / "build" / "test" / "doujin"
    mine = folder / "order-notes.txt"
    mine.write_text("what I told the printer", encoding="utf-8")
    record = folder / "export.json"
    body = json.loads(record.read_text(encoding="utf-8"))
    written = sorted(body["files"])
    body["files"].append(mine.name)
    record.write_text(json.dumps(body), encoding="utf-8")
    return ws, folder, mine, written


def test_an_export_record_naming_a_file_of_the_designers_removes_it_not(tmp_path, capsys):
    ws, folder, mine, _ = _exported_with_a_planted_record(tmp_path)
    capsys.readouterr()
    assert run(ws, "clean", "--game", "test") == 0
    assert mine.read_text(encoding="utf-8") == "what I told the printer"
    assert sorted(p.name for p in folder.iterdir()) == ["export.json", "order-notes.txt"]  # the PDFs went
    assert "build/test/doujin/export.json: kept: changed since pnpgen wrote it" in capsys.readouterr().err


def test_an_export_without_a_state_sealed_here_is_left(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    for state in (ws / "build" / ".cache" / "exports" / "test").iterdir():
        state.unlink()  # as a folder from elsewhere: its export.json and files, no state sealed here
    folder = ws / "build" / "test" / "doujin"
    before = _tree(folder)
    capsys.readouterr()
    assert run(ws, "clean", "--game", "test") == 0
    err = capsys.readouterr().err
    assert _tree(folder) == before
    assert err.count("\n") == 1 and "build/test/doujin/: left as it is" in err


def test_the_next_export_removes_no_file_a_planted_export_record_names(tmp_path):
    """What the last export wrote and this one did not goes: as its sealed state says, not as
    export.json (anyone's to write) says."""
    ws, folder, mine, written = _exported_with_a_planted_record(tmp_path)
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    assert mine.read_text(encoding="utf-8") == "what I told the printer"
    assert sorted(p.name for p in folder.iterdir()) == sorted([*written, "export.json", mine.name])


def test_clean_removes_nothing_through_a_link_inside_the_cache(tmp_path, capsys):
    """build/.cache/exports a link to another workspace's: clean read that workspace's export
    states (sealed on this machine, so trusted) and deleted them through the link, outside the
    workspace, as a build refuses to."""
    other = make_workspace(tmp_path / "other", pieces=FEW_CARDS)
    assert run(other, "export", "--game", "test", "--preset", "doujin") == 0
    theirs = other / "build" / ".cache" / "exports"
    states = _tree(theirs)
    assert states  # (the other workspace's export state)
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    (ws / "build" / ".cache" / "exports").symlink_to(theirs)
    before = _tree(ws / "build" / "test")
    capsys.readouterr()
    for args in (("clean", "--game", "test"), ("clean",)):
        assert run(ws, *args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "build/.cache: the build cache holds a link (.cache/exports)" in err, err
        assert _tree(theirs) == states and _tree(ws / "build" / "test") == before


def test_an_export_reads_nothing_through_a_link_inside_the_cache(tmp_path, capsys):
    """build/.cache/exports a link to another workspace's: the export read its states through it
    before its commit refused the link; it stops first, as a build does."""
    other = make_workspace(tmp_path / "other", pieces=FEW_CARDS)
    assert run(other, "export", "--game", "test", "--preset", "doujin") == 0
    theirs = other / "build" / ".cache" / "exports"
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    (ws / "build" / ".cache" / "exports").symlink_to(theirs)
    capsys.readouterr()
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "build/.cache: the build cache holds a link (.cache/exports)" in err, err
    assert not (ws / "build" / "test" / "doujin").exists()
