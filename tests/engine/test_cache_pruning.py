"""The build cache keeps what the current builds use: entries no game's or edition's state lists
any more are removed after a good build, never after a failed one, and what is left rebuilds the
same files as a build from nothing."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

from conftest import make_workspace, run
from pnpgen.engine.journal import JOURNAL

DECK = Path("data/test/decks/cards.yaml")


def _entries(out: Path) -> dict[str, bytes]:
    """Every cache entry (states aside, and the table of files' hashes by their stamps, which
    names inodes and times) by its path in the cache, with its bytes."""
    cache = out / ".cache"
    return {p.relative_to(cache).as_posix(): p.read_bytes() for p in cache.glob("*/**/*")
            if p.is_file() and p.relative_to(cache).parts[0] != "hashes"}


def _outputs(folder: Path) -> dict[str, bytes]:
    """The build's files but the manifest and the reprint files (what changed since the previous
    build: a build from nothing has none)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != "manifest.json" and p.stem != "reprint"}


def _uses(out: Path, edition: str) -> list[str]:
    return json.loads((out / ".cache" / f"{edition}.json").read_bytes())["body"]["uses"]


def _edit_text(ws: Path, old: str, new: str) -> None:
    deck = ws / DECK
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new), encoding="utf-8")


def test_five_text_edits_leave_the_current_faces_and_equal_a_cold_build(tmp_path):
    """Each edit of a card's text makes new faces and renders; after five, the cache holds what a
    build from nothing holds (no old versions), and the incremental files equal the cold ones."""
    ws = make_workspace(tmp_path / "ws")
    out = ws / "build"
    assert run(ws, "build", "--game", "test") == 0
    first = _entries(out)
    faces = {k for k in first if k.startswith("faces/")}
    assert faces and "renders/test.pack.json" in first  # the faces' renders, one file
    previous = "本文カード5"
    for n in range(1, 6):
        _edit_text(ws, previous, f"改訂{n}")
        previous = f"改訂{n}"
        assert run(ws, "build", "--game", "test") == 0
    warm = _entries(out)
    cold_out = tmp_path / "cold"
    assert run(ws, "build", "--game", "test", "--out", str(cold_out)) == 0
    cold = _entries(cold_out)
    assert set(warm) == set(cold)
    assert {k for k in warm if k.startswith("faces/")} != faces  # the edited card's face changed
    assert len([k for k in warm if k.startswith("faces/")]) == len(faces)  # …and replaced the old one
    assert set(_uses(out, "test")) == set(warm)
    assert warm["renders/test.pack.json"] == cold["renders/test.pack.json"]  # no old renders kept in it
    assert not [d for d in (out / ".cache").rglob("*") if d.is_dir() and not any(d.iterdir())]
    assert _outputs(out / "test") == _outputs(cold_out / "test")  # byte-identical PDFs, proof, csv


def test_an_incremental_build_from_a_pruned_cache_equals_a_cold_build(built_workspace, tmp_path):
    """Pruned entries are really gone: a fresh edit back to an old text converts again and still
    writes the files a cold build writes."""
    ws = built_workspace  # built with --no-rulebook
    out = ws / "build"
    _edit_text(ws, "本文カード2", "別の本文")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    _edit_text(ws, "別の本文", "本文カード2")  # back to the first text, whose faces were pruned
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    cold_out = tmp_path / "cold"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(cold_out)) == 0
    assert _outputs(out / "test") == _outputs(cold_out / "test")
    assert set(_entries(out)) == set(_entries(cold_out))


def _second_game(ws: Path) -> None:
    """A game 'other' beside 'test', with texts of its own (so faces of its own)."""
    shutil.copytree(ws / "data" / "test", ws / "data" / "other")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "other")
    deck = ws / "data" / "other" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文", "他の本文"), encoding="utf-8")


def test_another_game_and_another_language_in_the_same_folder_keep_their_entries(tmp_path):
    game = "title: テストゲーム\ndraft: 3\nplayers: 2-4\ndate: 2026-11-30\nlanguages: [ja, en]\n" \
           "palette:\n  red: \"#cc3333\"\n  ink: \"#222222\"\n"
    ws = make_workspace(tmp_path / "ws", game=game)
    _second_game(ws)
    out = ws / "build"
    assert run(ws, "build", "--game", "test", "--game", "other", "--no-rulebook") == 0
    assert run(ws, "build", "--game", "test", "--lang", "en", "--no-rulebook") == 0
    other, english = _uses(out, "other"), _uses(out, "test.en")
    assert any(k.startswith("faces/") for k in other) and "renders/other.pack.json" in other
    for n in range(1, 3):
        _edit_text(ws, "本文カード1" if n == 1 else f"改訂{n - 1}", f"改訂{n}")
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    left = _entries(out)
    assert set(other) <= set(left) and set(english) <= set(left)
    assert set(_uses(out, "test")) | set(other) | set(english) == set(left)
    # and the other game's incremental build still equals a cold one
    deck = ws / "data" / "other" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("他の本文カード3", "他の改訂"), encoding="utf-8")
    assert run(ws, "build", "--game", "other", "--no-rulebook") == 0
    cold_out = tmp_path / "cold"
    assert run(ws, "build", "--game", "other", "--no-rulebook", "--out", str(cold_out)) == 0
    assert _outputs(out / "other") == _outputs(cold_out / "other")


def test_a_failed_build_prunes_nothing(built_workspace, monkeypatch):
    """A build stopped while its files are renamed (Ctrl-C) leaves the cache as it was, old
    entries included."""
    ws = built_workspace  # built with --no-rulebook
    out = ws / "build"
    before = _entries(out)
    _edit_text(ws, "本文カード4", "改訂")
    import pnpgen.engine.output as output

    real = os.replace
    calls: list = []

    def flaky(src, dst):
        if threading.current_thread() is not threading.main_thread():
            return real(src, dst)  # a cache entry written beside the build: Ctrl-C reaches the main thread
        if not os.fspath(dst).startswith(os.fspath(ws)):
            return real(src, dst)  # the machine's cache (a picture's facts learnt): not the build's own files
        calls.append(dst)
        if os.path.basename(os.fspath(dst)) == JOURNAL:  # the commit's own rename, wherever it falls among
            raise KeyboardInterrupt  # the others (counting renames hit a later one once under load)
        return real(src, dst)

    monkeypatch.setattr(output.os, "replace", flaky)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 130
    monkeypatch.setattr(output.os, "replace", real)
    assert [os.path.basename(os.fspath(c)) for c in calls][-1] == JOURNAL  # stopped at the commit
    after = _entries(out)
    assert set(before) <= set(after)  # nothing removed (a rename before the stop may have added one)
    assert [k for k, v in before.items() if after[k] != v] == []  # (named, if one changed: a fault seen once under load)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # the next good build prunes
    assert set(_entries(out)) == set(_uses(out, "test")) and len(set(before) - set(_entries(out))) > 0


def test_a_build_reads_each_state_once_and_prunes_by_the_state_it_wrote(tmp_path, monkeypatch):
    """A rebuild asked three times for the game's state — is it up to date, what did the last
    build make, which entries does it use (the prune) — and parsed it each time (some 15 ms for a
    thousand cards): the build's caches share what they read, and the prune takes the state the
    build wrote as written. Another game's state, read for the prune alone, is read once; the
    prune still keeps every entry a state lists."""
    from pnpgen.engine.state import GameState

    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    out = ws / "build"
    other = out / ".cache" / "other.json"
    other.write_bytes((out / ".cache" / "test.json").read_bytes())  # another game's, listing the same entries
    _edit_text(ws, "本文カード3", "本文カード3改")
    parsed: list[bytes] = []
    real = GameState.from_json

    def counted(data: bytes) -> GameState | None:
        parsed.append(data)
        return real(data)

    monkeypatch.setattr(GameState, "from_json", counted)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    # the last build's state (the check; the build had it from there) and the other game's (the
    # prune), both the old bytes; the state written is not parsed again
    assert parsed == [other.read_bytes()] * 2
    assert all((out / ".cache" / entry).is_file() for entry in _uses(out, "test"))
