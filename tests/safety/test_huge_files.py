"""Files of gigabytes where pnpgen reads (a sparse file costs no disk; a video dropped in art/): a
build needs the memory it would need without them, never the file's size."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FEW_CARDS, forked_cli, make_workspace, run


def _build_in_two_gigabytes(ws: Path, monkeypatch, rulebook: bool = False) -> tuple[int, str]:
    """A build that may map 2 GB beyond the process it is forked from (exit status, stderr)."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    book = [] if rulebook else ["--no-rulebook"]
    return forked_cli(ws, "build", "--game", "test", *book, "--jobs", "1", timeout=120, memory=2 << 30)


def test_a_huge_record_planted_in_the_cache_is_not_read(tmp_path, monkeypatch):
    """A sparse 8 GB build/.cache/hashes/files.json (or game state) took 8 GB of memory to read:
    MemoryError, or the machine swapping. A record past 256 MB is not read."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    for record in ("hashes/files.json", "test.json"):
        with open(ws / "build" / ".cache" / record, "wb") as f:
            f.truncate(8 << 30)
    code, err = _build_in_two_gigabytes(ws, monkeypatch)
    assert code == 0 and "Traceback" not in err, err
    assert (ws / "build" / ".cache" / "test.json").stat().st_size < 1 << 20


@pytest.mark.parametrize("planted", ["data/test/art/video.mp4", "templates/test/huge.png", "data/test/draft.txt",
                                     "printers.yaml", "templates/test/icons/unused.svg"])
def test_a_file_of_gigabytes_beside_the_data_is_never_read_whole(tmp_path, monkeypatch, planted):
    """A sparse 8 GB file (or a video dropped in art/) that no piece shows: every art file was hashed
    by reading it whole, the draft was read whole for the history with --no-rulebook, the
    workspace's printers.yaml whole for the build's inputs, an icon no draft shows whole for the
    book's key: 8 GB of memory, MemoryError. Within 2 GB the build ends as it would without it."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / planted).parent.mkdir(parents=True, exist_ok=True)
    with open(ws / planted, "ab") as f:
        f.truncate(8 << 30)
    code, err = _build_in_two_gigabytes(ws, monkeypatch, rulebook=planted.endswith(".svg"))
    assert code == 0 and "Traceback" not in err, err
    assert (ws / "build" / "test" / "cards.pdf").is_file()


@pytest.mark.parametrize("name, advice", [
    ("game.yaml", "expected a game.yaml of settings"),
    ("decks/cards.yaml", "split a very large deck into several files"),
])
def test_a_yaml_file_too_large_is_told_what_it_should_be(tmp_path, capsys, name, advice):
    """A game.yaml of gigabytes (sparse) was told to split its deck: only a deck file has pieces
    to split; a settings file is a few kilobytes."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    with open(ws / "data" / "test" / name, "ab") as f:
        f.truncate(3 << 30)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert f"data/test/{name}: file is larger than" in err and advice in err, err
    assert "Traceback" not in err
