"""Issue 22: a build asks the disk for each input file's stat once. The check that decides whether
a game is up to date lists its inputs (engine/fresh.py ``sort_games``) and stats every file; the
build it goes on with takes those stats as its own (``memo.Stamps``, given through ``run_build``),
where it stat-ed each card's picture again as the deck loaded (data/art.py ``ArtFolder.find``: a
3,000-card deck's 3,000 art files, edit51). Counted, not timed: a one-card edit of a deck of N
distinct pictures and of 2N asks the disk for no art file's stat after the check, makes each
picture's path once (the check's, found by its folder and name: ``Stamps.listed``), and writes the
bytes a build without a cache writes."""

from __future__ import annotations

from pathlib import Path

from test_warm_imposition import _files

from conftest import PICTURE_FRONT, picture_workspace, run

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


def _art_stats_of_an_edit(tmp_path: Path, n: int, monkeypatch) -> tuple[int, int, Path]:
    """A deck of ``n`` cards, each its own picture, built; one card's name edited and built again,
    the stats of art files asked through pathlib counted (the check's listing asks through its
    directory entries, once a file), and the paths of art files made by joining a folder and a name."""
    colours = {f"p{i:03d}.png": (i * 7 % 256, i * 13 % 256, 90) for i in range(1, n + 1)}
    pieces = "".join(f"  - {{name: 札{i}, art: p{i:03d}.png}}\n" for i in range(1, n + 1))
    ws = picture_workspace(tmp_path / str(n), pieces, PICTURE_FRONT, colours, size=(30, 20))
    assert run(ws, *BUILD) == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(f"札{n // 2},", f"札{n // 2}改,"), encoding="utf-8")
    art = ws / "data" / "test" / "art"
    asked, made = [0], [0]
    stat, join = Path.stat, Path.__truediv__

    def counted(self: Path, *a, **k):
        if self.parent == art:
            asked[0] += 1
        return stat(self, *a, **k)

    def joined(self: Path, name):
        path = join(self, name)
        if self == art:
            made[0] += 1
        return path

    monkeypatch.setattr(Path, "stat", counted)  # (Path.lstat asks it too)
    monkeypatch.setattr(Path, "__truediv__", joined)
    assert run(ws, *BUILD) == 0
    monkeypatch.undo()
    return asked[0], made[0], ws


def test_an_edit_stats_no_art_file_after_the_check_at_n_and_2n_cards(tmp_path, monkeypatch):
    small, small_paths, ws = _art_stats_of_an_edit(tmp_path, 12, monkeypatch)
    big, big_paths, _ = _art_stats_of_an_edit(tmp_path, 24, monkeypatch)
    assert (small, big) == (0, 0)  # a stat a card without the check's: 12 and 24
    # each picture's path made once, by the check's listing, and found there by the deck's field
    # (errors.py ``file_right_in``: 2N, a path made again for each card's picture, without ``Stamps.listed``)
    assert (small_paths, big_paths) == (12, 24)
    alone = tmp_path / "alone"  # the same data built by a build that knows nothing before it
    assert run(ws, *BUILD, "--out", str(alone)) == 0
    assert _files(ws / "build" / "test") == _files(alone / "test")
