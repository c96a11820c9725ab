"""With ``PNPGEN_CACHE=off`` there is no machine key. The build cache's records were then checked by
their SHA-256 alone, which anyone writing a build folder can compute: a planted game state made the
next build delete a file of the designer's in the output folder, keep a planted PDF as up to date,
and read through a link planted beside the outputs (to a FIFO: the build hung). Now a record holds
only under a key of the running process's own: the same process (watch, serve) trusts what it
wrote, and any other run builds as if the folder had no cache."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, forked_cli, make_workspace, run
from pnpgen import usercache

FAST = ("--no-rulebook", "--jobs", "1")


@pytest.fixture(autouse=True)
def _no_machine_cache(monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", "off")


def _plant_state(ws: Path, change) -> None:
    """The game's state changed by ``change``, sealed as pnpgen sealed one without a key: its hash."""
    state = ws / "build" / ".cache" / "test.json"
    outer = json.loads(state.read_bytes())
    change(outer["body"])
    text = json.dumps(outer["body"], ensure_ascii=False, sort_keys=True).encode()
    outer["check"] = hashlib.sha256(text).hexdigest()
    state.write_bytes(json.dumps(outer, ensure_ascii=False, sort_keys=True).encode())


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_planted_state_deletes_no_file_of_the_designers(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    notes = ws / "build" / "test" / "notes.txt"
    notes.write_text("the designer's notes", encoding="utf-8")
    _plant_state(ws, lambda body: body["files"].update({"notes.txt": _sha(notes.read_bytes())}))
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "本文カード一}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", *FAST) == 0  # the last build's files it no longer makes go
    assert notes.read_text(encoding="utf-8") == "the designer's notes"


def test_a_planted_output_with_its_record_is_made_again(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    cards = ws / "build" / "test" / "cards.pdf"
    built = cards.read_bytes()
    planted = built.replace(b"/PageMode /UseNone", b"/PageMode /UseNone /OpenAction << /S /JavaScript /JS (app.alert(1)) >>")
    assert planted != built
    cards.write_bytes(planted)

    def vouch(body: dict) -> None:
        body["files"]["cards.pdf"] = body["documents"]["cards.pdf"]["sha"] = _sha(planted)

    _plant_state(ws, vouch)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    assert cards.read_bytes() == built


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_a_planted_state_reads_nothing_through_a_link_beside_the_outputs(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    fifo = tmp_path / "outside" / "pipe"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    (ws / "build" / "test" / "a.pdf").symlink_to(fifo)  # read first: the files are read in their names' order
    _plant_state(ws, lambda body: body["files"].update({"a.pdf": "0" * 64}))
    code, err = forked_cli(ws, "build", "--game", "test", *FAST, timeout=60)  # (it waited on the FIFO: -9)
    assert code == 0, err


def test_one_process_still_trusts_what_it_wrote(tmp_path, capsys):
    """watch and serve build again and again in one process: their records hold there."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", *FAST) == 0
    assert "test: up to date" in capsys.readouterr().out


@pytest.mark.parametrize("new_name", ["monsters", "CARDS"])
def test_a_renamed_decks_outputs_go_but_never_a_designers_file(tmp_path, monkeypatch, new_name):
    """With no machine key the last build's state cannot be read: a deck renamed (or its name's
    letter case changed) left cards.pdf and its shop files beside the new ones. The files the last
    build wrote go while they are the very files it wrote (by inode, holding its bytes); a file a
    designer put in one's place, or edited, stays; so does everything of a folder from elsewhere."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    out = ws / "build" / "test"
    old = sorted(p.relative_to(out).as_posix() for p in out.rglob("*cards*"))
    assert "cards.pdf" in old and "shop/cards-unique.pdf" in old, old
    elsewhere = tmp_path / "copy"
    shutil.copytree(ws, elsewhere, symlinks=True)  # a folder from elsewhere: other inodes
    mine = out / "shop" / "cards-unique.pdf"
    mine.unlink()
    mine.write_bytes(b"%PDF-1.4 the designer's own")  # a file of the designer's in one's place
    for root in (ws, elsewhere):
        decks = root / "data" / "test" / "decks"
        (decks / "cards.yaml").rename(decks / f"{new_name}.yaml")
        monkeypatch.setattr(usercache, "PROCESS_SECRET", os.urandom(32))  # another run: the state unread
        assert run(root, "build", "--game", "test", *FAST) == 0
    left = sorted(p.relative_to(out).as_posix() for p in out.rglob("*cards*"))
    assert left == ["shop/cards-unique.pdf"], left
    assert mine.read_bytes() == b"%PDF-1.4 the designer's own"
    assert (out / f"{new_name}.pdf").is_file()
    there = elsewhere / "build" / "test"
    assert all((there / rel).is_file() for rel in old)  # not proven pnpgen's here: kept


def test_a_big_documents_record_by_segments_is_checked_by_them(tmp_path):
    """A big document's state records its digest by segments (``PdfFile.digest``), not the plain
    SHA-256: read as the plain one, the record never matched, and a renamed deck's big sheets
    stayed. The record keeps the segments' lengths, and the file is read by them."""
    from pnpgen.engine.written import note_written, written_before
    from pnpgen.pdf.assemble import file_digest

    out_root = tmp_path / "build"
    out_dir = out_root / "test"
    (out_root / ".cache").mkdir(parents=True)
    out_dir.mkdir()
    (out_dir / "big.pdf").write_bytes(b"A" * 100 + b"B" * 50)
    digest = file_digest(out_dir / "big.pdf", (100, 50))
    note_written(out_root, [(out_dir, {"big.pdf": (digest, [100, 50])})])
    assert written_before(out_root, out_dir) == {"big.pdf": digest}
    note_written(out_root, [(out_dir, {"big.pdf": (digest, None)})])  # read whole: not the digest recorded
    assert written_before(out_root, out_dir) == {}


def test_with_a_machine_key_too_a_renamed_decks_old_name_keeps_a_designers_file(tmp_path, monkeypatch):
    """The state a machine key seals named cards-unique.pdf, and a build after the deck's rename
    deleted the file of the designer's put there under that name. It goes only while it is the
    file pnpgen wrote; one in its place stays (the other old outputs go)."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    out = ws / "build" / "test"
    mine = out / "shop" / "cards-unique.pdf"
    mine.write_bytes(b"%PDF-1.4 the designer's own")
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "monsters.yaml")
    assert run(ws, "build", "--game", "test", *FAST) == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*cards*")) == ["shop/cards-unique.pdf"]
    assert mine.read_bytes() == b"%PDF-1.4 the designer's own"
