"""``pnpgen list`` opens no picture, and a workspace listed before is listed from the machine's
cache (usercache.py) until one of the files it shows changes."""

from __future__ import annotations

import builtins
import io
from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, make_workspace, run
from pnpgen.engine import listing


@pytest.fixture
def ws(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    root = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "".join(
        f"  - {{name: 札{i}, art: p{i}.png, count: {i}}}\n" for i in range(1, 4)))
    (root / "data" / "test" / "art").mkdir()
    for i in range(1, 4):
        Image.new("RGB", (60, 84), (40 * i, 90, 90)).save(root / "data" / "test" / "art" / f"p{i}.png")
    return root


def test_list_opens_no_picture(ws, monkeypatch, capsys):
    opened: list[str] = []
    real_open, real_io_open = builtins.open, io.open

    def watched(real):
        def open_(file, *a, **k):
            if "/art/" in str(file):
                opened.append(str(file))
            return real(file, *a, **k)
        return open_

    monkeypatch.setattr(builtins, "open", watched(real_open))
    monkeypatch.setattr(io, "open", watched(real_io_open))
    assert run(ws, "list") == 0
    assert "×6" in capsys.readouterr().out  # 1 + 2 + 3 copies
    assert opened == []


def test_a_second_list_reads_its_lines_back_until_a_deck_changes(ws, monkeypatch, capsys):
    calls: list[str] = []
    real = listing.load_game

    def counted(*a, **k):
        calls.append(a[1])
        return real(*a, **k)

    monkeypatch.setattr(listing, "load_game", counted)  # (as engine/listing.py reads the game)
    assert run(ws, "list") == 0
    first = capsys.readouterr().out
    assert run(ws, "list") == 0
    assert capsys.readouterr().out == first and calls == ["test"]  # not loaded again
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("count: 3", "count: 4"), encoding="utf-8")
    assert run(ws, "list") == 0
    assert "×7" in capsys.readouterr().out and calls == ["test", "test"]
    (ws / "templates" / "test" / "card-back.svg.j2").unlink()  # a template gone: list says so, as a build would
    assert run(ws, "list") == 2


def test_list_reads_no_link_or_pipe_of_the_games_folder(ws, tmp_path, capsys, monkeypatch):
    """Beside the decks, an editor's lock (Emacs's ``.#cards.yaml``: a link to nowhere), a link
    to a file outside the workspace and a named pipe: the listing's key took every file's bytes,
    which was a traceback, a read outside the workspace, and a wait that never ended."""
    import os

    from conftest import forked_cli

    outside = tmp_path / "outside.txt"
    outside.write_text("not the workspace's", encoding="utf-8")
    folder = ws / "data" / "test"
    (folder / "decks" / ".#cards.yaml").symlink_to("designer@host.4242:1700000000")
    (folder / "notes.txt").symlink_to(outside)
    os.mkfifo(folder / "pipe")
    code, err = forked_cli(ws, "list", timeout=60)
    assert (code, err) == (0, "")
    read: list[Path] = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.resolve()) or real(self))
    assert run(ws, "list") == 0
    assert outside not in read and (folder / "decks" / "cards.yaml") in read
    assert capsys.readouterr().out.splitlines()[1].split()[:2] == ["cards", "絵札"]
