"""Issue 22: an edit asks the disk about each art file a few times, however big the deck — the
build's stats are learnt once (``Cache.stamps``) and handed down, not asked again by every stage
that finds, measures or hashes a picture (a thousand cards' art was stat'ed some fifteen times
each on an edit of one card's text); the build takes the stats the check that decides whether
it is up to date took as it listed the inputs, so an edit asks about each art file once."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from conftest import PICTURE_FRONT, picture_workspace, run

# stats (and lstats) of one art file in a build after an edit: the check's listing (up to date?),
# whose stats the build takes as its own (engine/fresh.py ``sort_games``; 3 until edit51: the
# check's, the build's, and one after the commit)
MOST = 1


def pieces(n: int, edited: str = "") -> str:
    return "".join(f"  - {{name: 札{i}{edited if i == 1 else ''}, art: p{i}.png}}\n" for i in range(n))


def stats_of_an_edit(root: Path, n: int, monkeypatch) -> Counter:
    """Each art file's stats and lstats, by name, in a build after one card's text is edited (those
    of a directory listing's entries too)."""
    colours = {f"p{i}.png": (10 * i % 250, 40, 200) for i in range(n)}
    ws = picture_workspace(root, pieces(n), PICTURE_FRONT, colours, size=(60, 40))
    # art made long ago, as a designer's is (a hash taken in the instant of its file's change is
    # taken again after the commit: FileHashes.learn_again, one stat more)
    for path in (ws / "data" / "test" / "art").iterdir():
        os.utime(path, ns=(path.stat().st_mtime_ns - 10**10,) * 2)
    out = root / "build"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        (ws / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8").replace("札1,", "札1改,"),
        encoding="utf-8")
    art = str(ws / "data" / "test" / "art")
    seen: Counter = Counter()
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(path, *args, real=real, **kw):
            if str(path).startswith(art + os.sep):
                seen[Path(path).name] += 1
            return real(path, *args, **kw)

        monkeypatch.setattr(os, name, counted)
    scandir = os.scandir

    class Entry:  # a directory entry whose stat is counted (the check's listing stats each file so)
        def __init__(self, entry):
            self._entry = entry

        def __getattr__(self, name):
            return getattr(self._entry, name)

        def __fspath__(self):
            return self._entry.__fspath__()

        def stat(self, *args, **kw):
            if self._entry.path.startswith(art + os.sep):
                seen[self._entry.name] += 1
            return self._entry.stat(*args, **kw)

    class Listing:
        def __init__(self, folder="."):
            self._it = scandir(folder)

        def __enter__(self):
            self._it.__enter__()
            return self

        def __exit__(self, *exc):
            return self._it.__exit__(*exc)

        def __iter__(self):
            return self

        def __next__(self):
            return Entry(next(self._it))

        def close(self):
            self._it.close()

    monkeypatch.setattr(os, "scandir", Listing)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    monkeypatch.undo()
    assert set(seen) == set(colours)  # every art file was looked at (the count below is of something)
    return seen


@pytest.mark.parametrize("n", [3, 6])
def test_each_art_file_is_looked_at_once_an_edit_however_big_the_deck(tmp_path, monkeypatch, n):
    seen = stats_of_an_edit(tmp_path, n, monkeypatch)
    assert max(seen.values()) <= MOST, seen


def test_each_art_name_is_found_once_a_build(tmp_path, monkeypatch):
    """A deck's field and its template's image() name the same file: found (resolved inside art/)
    once a build, not once by each."""
    from pnpgen.data import art

    colours = {f"p{i}.png": (10 * i % 250, 40, 200) for i in range(4)}
    ws = picture_workspace(tmp_path, pieces(4), PICTURE_FRONT, colours, size=(60, 40))
    found: Counter = Counter()
    contained, quick = art.contained, art.file_right_in

    def counted(path, folder, *args, **kw):
        found[str(path)] += 1
        return contained(path, folder, *args, **kw)

    def counted_quick(folder, name, stamps):  # (a plain name of a regular file: contained not asked)
        answer = quick(folder, name, stamps)
        found[name] += answer is not None
        return answer

    monkeypatch.setattr(art, "contained", counted)
    monkeypatch.setattr(art, "file_right_in", counted_quick)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "build")) == 0
    assert {name: found[name] for name in colours} == dict.fromkeys(colours, 1)
