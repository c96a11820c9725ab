"""pnpgen deletes only what it can prove it wrote: an --out folder holding someone else's files is
refused, a poisoned cache record deletes nothing outside the cache, a cache holding a link is
refused before anything is read or removed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run
from pdfprobe import texts
from pnpgen.usercache import seal


def _fails(ws: Path, capsys, *args: str) -> str:
    assert run(ws, *args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def _build(ws: Path, *more: str) -> None:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", *more) == 0


def test_out_at_a_folder_holding_a_foreign_file_is_refused_and_the_file_survives(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    mine = tmp_path / "documents"
    mine.mkdir()
    (mine / "tax-2026.pdf").write_bytes(b"not pnpgen's")
    err = _fails(ws, capsys, "build", "--game", "test", "--no-rulebook", "--out", str(mine))
    assert "--out" in err and "did not write" in err and "tax-2026.pdf" in err
    assert sorted(p.name for p in mine.iterdir()) == ["tax-2026.pdf"]
    assert (mine / "tax-2026.pdf").read_bytes() == b"not pnpgen's"
    err = _fails(ws, capsys, "export", "--game", "test", "--preset", "doujin", "--out", str(mine))
    assert "did not write" in err and sorted(p.name for p in mine.iterdir()) == ["tax-2026.pdf"]


def test_out_at_the_root_or_the_home_folder_is_refused(tmp_path, capsys, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert "root of the disk" in _fails(ws, capsys, "build", "--game", "test", "--out", "/")
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert "home folder" in _fails(ws, capsys, "build", "--game", "test", "--out", str(home))
    assert list(home.iterdir()) == []
    # check reads the build folder it is given: one a build refuses is refused, not told "ok"
    assert "root of the disk" in _fails(ws, capsys, "check", "--game", "test", "--out", "/")
    assert "home folder" in _fails(ws, capsys, "check", "--game", "test", "--out", str(home))


def test_an_empty_folder_becomes_an_output_folder_and_builds_again(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    out = tmp_path / "empty"
    out.mkdir()
    _build(ws, "--out", str(out))
    assert (out / ".pnpgen-output").is_file() and (out / "test" / "cards.pdf").is_file()
    (ws / "data/test/decks/cards.yaml").write_text(
        (ws / "data/test/decks/cards.yaml").read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")
    _build(ws, "--out", str(out))  # its own files do not make it foreign


def test_a_folder_an_earlier_pnpgen_built_into_is_still_pnpgens(tmp_path):
    """Before the marker, every build left its lock file: such a folder is an output folder."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    out = tmp_path / "old"
    _build(ws, "--out", str(out))
    (out / ".pnpgen-output").unlink()
    (ws / "data/test/decks/cards.yaml").write_text(
        (ws / "data/test/decks/cards.yaml").read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")
    _build(ws, "--out", str(out))
    assert (out / ".pnpgen-output").is_file()


def _poison(state_file: Path, files: dict[str, str]) -> None:
    """Rewrite a game's cache state with ``files`` added, its check hash made to match."""
    outer = json.loads(state_file.read_bytes())
    body = outer["body"]
    body["files"].update(files)
    text = json.dumps(body, ensure_ascii=False, sort_keys=True)
    outer["check"] = seal(text.encode())  # as this machine seals it
    state_file.write_bytes(json.dumps(outer, ensure_ascii=False, sort_keys=True).encode())


def test_a_poisoned_cache_record_deletes_nothing_outside_the_cache(built_workspace, tmp_path):
    ws = built_workspace  # built as _build builds
    out = ws / "build"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    _poison(out / ".cache" / "test.json", {"../../data/test/game.yaml": "0" * 64, str(victim): "0" * 64,
                                           "../../templates/test/card-front.svg.j2": "0" * 64})
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")
    _build(ws)
    assert victim.read_text() == "keep me"
    assert (ws / "data/test/game.yaml").is_file() and (ws / "templates/test/card-front.svg.j2").is_file()
    assert (out / "test" / "cards.pdf").is_file()


def test_a_record_naming_a_file_it_wrote_is_still_pruned(tmp_path):
    """The guard does not stop the honest case: a deck removed from the data loses its PDF."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data/test/decks/more.yaml").write_text(
        (ws / "data/test/decks/cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    _build(ws)
    assert (ws / "build/test/more.pdf").is_file()
    (ws / "data/test/decks/more.yaml").unlink()
    _build(ws)
    assert not (ws / "build/test/more.pdf").exists() and (ws / "build/test/cards.pdf").is_file()


def test_pruning_removes_only_entries_named_as_pnpgen_names_them(built_workspace, tmp_path):
    ws = built_workspace  # built as _build builds
    out = ws / "build"
    stale = out / ".cache" / "readings" / ("ab" * 16 + ".json")
    stale.parent.mkdir(exist_ok=True)
    stale.write_text("{}")
    foreign = out / ".cache" / "readings" / "notes.txt"
    foreign.write_text("someone's notes")
    other = out / ".cache" / "other-tool" / "data.bin"
    other.parent.mkdir()
    other.write_bytes(b"x")
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")
    _build(ws)
    assert not stale.exists()
    assert foreign.read_text() == "someone's notes" and other.read_bytes() == b"x"


def test_a_link_in_the_cache_is_refused_and_its_target_keeps_its_files(built_workspace, tmp_path, capsys):
    ws = built_workspace  # built as _build builds
    out = ws / "build"
    elsewhere = tmp_path / "photos"
    elsewhere.mkdir()
    (elsewhere / "holiday.jpg").write_bytes(b"jpeg")
    (elsewhere / ("cd" * 16 + ".json")).write_bytes(b"named like an entry")
    (out / ".cache" / "faces" / "zz").symlink_to(elsewhere)
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")
    err = _fails(ws, capsys, "build", "--game", "test", "--no-rulebook", "--jobs", "1")
    assert "link" in err and ".cache" in err
    assert sorted(p.name for p in elsewhere.iterdir()) == ["cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.json", "holiday.jpg"]
    (out / ".cache" / "faces" / "zz").unlink()
    (out / ".cache").rename(tmp_path / "moved-cache")
    (out / ".cache").symlink_to(elsewhere)
    assert "link" in _fails(ws, capsys, "build", "--game", "test", "--no-rulebook", "--jobs", "1")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.json", "holiday.jpg"]


def test_out_at_the_workspace_itself_is_refused_even_with_a_lock_an_older_clean_left(tmp_path, capsys):
    """An older ``pnpgen clean --out .`` left its lock in the workspace, which made the workspace an
    'output folder': an export there wrote its game's folder and the cache beside data/."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / ".pnpgen.lock").write_bytes(b"")
    before = sorted(p.name for p in ws.iterdir())
    for where in (".", str(tmp_path)):
        err = _fails(ws, capsys, "export", "--game", "test", "--preset", "doujin", "--out", where)
        assert "--out" in err and "holds the workspace's" in err, err
        err = _fails(ws, capsys, "build", "--game", "test", "--no-rulebook", "--out", where)
        assert "holds the workspace's" in err, err
    assert sorted(p.name for p in ws.iterdir()) == before and sorted(p.name for p in tmp_path.iterdir()) == ["ws"]


@pytest.mark.parametrize("planted", ["link to nowhere", "link to a file", "pipe", "folder"])
def test_a_lock_file_that_is_not_a_plain_file_is_refused_and_nothing_outside_is_made(built_copy, tmp_path, capsys, planted):
    """build/.pnpgen.lock as something else: a link was opened through (creating the file it
    names, anywhere: an empty file outside the workspace), a pipe gave 'cannot write to build:
    None', a folder 'Is a directory (expected a folder you may write to)'."""
    ws = built_copy(tmp_path / "ws", "build", "--game", "test", "--no-rulebook", "--jobs", "1", pieces=FEW_CARDS)
    lock = ws / "build" / ".pnpgen.lock"
    lock.unlink()
    elsewhere = tmp_path / "elsewhere"
    if planted == "link to nowhere":
        lock.symlink_to(elsewhere)
    elif planted == "link to a file":
        elsewhere.write_bytes(b"mine")
        lock.symlink_to(elsewhere)
    elif planted == "pipe":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    out = ws / "build" / "test"
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "書き直した札"), encoding="utf-8")
    capsys.readouterr()
    for command in (("build", "--game", "test", "--no-rulebook", "--jobs", "1"), ("clean",)):
        assert run(ws, *command) == 2
        err = capsys.readouterr().err
        kind = {"pipe": "not a plain file (a pipe or a device)", "folder": "a folder"}.get(planted, "a link")
        assert err == ("pnpgen: error: build: the default output folder (no --out given): build/.pnpgen.lock is "
                       f"{kind}, where pnpgen keeps the folder's lock file (expected remove .pnpgen.lock (pnpgen makes "
                       "it again as a plain file); nothing was replaced)\n"), err
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before
    assert elsewhere.read_bytes() == b"mine" if planted == "link to a file" else not elsewhere.exists()


def test_a_staging_folder_holding_what_pnpgen_did_not_stage_is_kept_and_said(tmp_path, capsys):
    """A hostile round: a build/.pnpgen-staging/ someone else made was removed with what was in it
    (pnpgen took it for one a killed build left). pnpgen removes the files it stages there alone;
    anything else stops the build with one line, and stays."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    staging = ws / "build" / ".pnpgen-staging"
    staging.mkdir()
    # a name pnpgen gives a staged file, but no sealed record of this machine's says a build took it
    (staging / "000003").write_bytes(b"the designer's file of a staged file's name")
    (staging / "notes.txt").write_text("mine", encoding="utf-8")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "本文を変えた"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".pnpgen-staging: holds what pnpgen did not stage there (000003, notes.txt)" in err, err
    assert err.count(".pnpgen-staging:") == 1, err  # (it was said twice: build/.pnpgen-staging: build/.pnpgen-staging …)
    assert (staging / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (staging / "000003").read_bytes() == b"the designer's file of a staged file's name"
    (staging / "notes.txt").unlink()
    (staging / "000003").unlink()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    assert not staging.exists()


def test_an_older_pnpgens_staging_folder_and_trash_are_said_with_the_command_that_clears_them(tmp_path, capsys,
                                                                                             monkeypatch):
    """A designer who just upgraded: the staging folder and the trash entries an older pnpgen left
    have no sealed record. The build stops naming the staging folder and tells the command that
    removes it (nothing in it was put in place); the trash is noted with its own; run as told, the
    next build goes through and the files are the last complete set."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    out = ws / "build"
    (out / ".pnpgen-staging").mkdir()  # as the older pnpgen staged: numbered files, no .staged record
    (out / ".pnpgen-staging" / "000000").write_bytes(b"%PDF-1.7 an older pnpgen's staged copy")
    (out / ".pnpgen-trash").mkdir()
    (out / ".pnpgen-trash" / "a1b2-000000").write_bytes(b"an old output an older pnpgen moved out")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "本文を変えた"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 2
    err = capsys.readouterr().err
    error = next(line for line in err.splitlines() if line.startswith("pnpgen: error:"))
    assert "an older pnpgen" in error and "the files beside it are the last complete set" in error, err
    assert "rm -r build/.pnpgen-staging" in error and "Traceback" not in err, err
    monkeypatch.chdir(ws)
    _do_as_told(error)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0  # the staging folder gone: built
    note = capsys.readouterr().err
    assert note.startswith("pnpgen: note: build/.pnpgen-trash holds what pnpgen did not put there (a1b2-000000)")
    assert "rm -r build/.pnpgen-trash" in note and note.count("\n") == 1, note
    _do_as_told(note)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    assert capsys.readouterr().err == ""
    assert "本文を変えた" in texts(out / "test" / "cards.pdf")[0]
    assert not (out / ".pnpgen-staging").exists() and not (out / ".pnpgen-trash").exists()


def _do_as_told(line: str) -> None:
    """Run the command a message tells (``rm -r …``, up to its parenthesis), as the designer would."""
    command = line[line.index("rm -r "):].split(" (")[0].split()
    assert subprocess.run(command, check=False).returncode == 0
