"""A big document is copied into the output folder as soon as the build has made it, by a process
forked for it, and the commit moves that copy in (engine/transaction.py ``EarlyCopies``): the
files are the bytes the commit would have written, a copy that fails is written by the commit
as before, and nothing is left behind, nor by a killed build once the next one has run."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run
from pnpgen.engine import transaction
from pnpgen.engine.transaction import EARLY, EarlyCopies, remove_stray_copies

PDFS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, "PNG")
    return out.getvalue()


def _picture_game(root: Path, name: str = "札") -> Path:
    ws = make_workspace(root, deck=PICTURE_DECK_YAML + f"  - {{name: {name}, art: p.png, count: 2}}\n", front=PICTURE_FRONT)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "p.png").write_bytes(_png((200, 40, 40)))
    return ws


def _rename_card(ws: Path, name: str) -> None:
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        PICTURE_DECK_YAML + f"  - {{name: {name}, art: p.png, count: 2}}\n", encoding="utf-8")


@pytest.fixture
def taken(monkeypatch):
    """Every document counts as big; the paths whose early copy the commit moved in."""
    monkeypatch.setattr(transaction, "EARLY_DOCUMENT", 1)
    moved: list[str] = []
    real = EarlyCopies.take

    def take(self, path, data, staged):
        done = real(self, path, data, staged)
        if done:
            moved.append(path.relative_to(path.parents[1] if path.parent.name == "shop" else path.parent).as_posix())
        return done

    monkeypatch.setattr(EarlyCopies, "take", take)
    return moved


def test_documents_copied_early_are_the_bytes_of_a_build_that_copies_none(tmp_path, taken):
    ws = _picture_game(tmp_path / "ws")
    out, plain = tmp_path / "out", tmp_path / "plain"
    for name in ("札", "札改"):  # a cold build, then one card's text edited
        _rename_card(ws, name)
        taken.clear()
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
        assert sorted(taken) == sorted(PDFS)  # every document was moved in from its early copy
        transaction.EARLY_DOCUMENT = 1 << 40  # (monkeypatch puts it back) none copied early
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(plain)) == 0
        transaction.EARLY_DOCUMENT = 1
        for pdf in PDFS:
            assert (out / "test" / pdf).read_bytes() == (plain / "test" / pdf).read_bytes(), pdf
        assert not (out / EARLY).exists()


def test_a_copy_that_fails_is_written_by_the_commit(tmp_path, taken, monkeypatch):
    """The copying process stops on an error (a full disk, say): the commit writes the document
    itself, as without early copies, and the copy's leftovers go."""
    ws = _picture_game(tmp_path / "ws")
    out = tmp_path / "out"
    build = os.getpid()
    real = transaction._stage

    def fails_in_the_copying_process(path, data, mode):
        if os.getpid() != build:
            raise OSError(28, "No space left on device")
        return real(path, data, mode)

    monkeypatch.setattr(transaction, "_stage", fails_in_the_copying_process)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    assert taken == []
    monkeypatch.setattr(transaction, "_stage", real)
    monkeypatch.setattr(transaction, "EARLY_DOCUMENT", 1 << 40)
    plain = tmp_path / "plain"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(plain)) == 0
    for pdf in PDFS:
        assert (out / "test" / pdf).read_bytes() == (plain / "test" / pdf).read_bytes(), pdf
    assert not (out / EARLY).exists() and not list(out.rglob(".pnpgen-staging*"))


def test_the_early_copies_of_a_process_that_is_gone_are_removed_and_no_others(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, alive = int(gone.stdout), os.getppid()
    root = tmp_path / "out"
    for pid in (dead, alive):
        (root / EARLY / str(pid)).mkdir(parents=True)
        (root / EARLY / str(pid) / "000000").write_bytes(b"%PDF")
    (root / EARLY / str(dead) / "notes.txt").write_text("the designer's")  # not a name pnpgen gives a copy
    remove_stray_copies(root)
    assert not (root / EARLY / str(dead) / "000000").exists()
    assert (root / EARLY / str(dead) / "notes.txt").exists()
    assert (root / EARLY / str(alive) / "000000").exists()
    (root / EARLY / str(dead) / "notes.txt").unlink()
    (root / EARLY / str(alive) / "000000").unlink()
    (root / EARLY / str(alive)).rmdir()
    remove_stray_copies(root)
    assert not (root / EARLY).exists()
