"""Two art files whose names differ only in letter case (``a.png``, ``A.png``), both placed:
two pictures on Linux, one file on Windows and macOS, where the game would print one for both.
The build warns once, naming both files and the data line that first places each."""

from __future__ import annotations

from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run


def _build(tmp_path, capsys, pieces: str, files: tuple[str, ...]) -> list[str]:
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + pieces, front=PICTURE_FRONT)
    (ws / "data/test/art").mkdir()
    for i, name in enumerate(files):
        Image.new("RGB", (900, 500), (200, 40 * i, 40)).save(ws / "data/test/art" / name)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    return [line for line in capsys.readouterr().err.splitlines() if "letter case" in line]


def test_two_art_files_differing_only_in_case_are_warned_once_with_their_lines(tmp_path, capsys):
    pieces = "  - {name: 竜, art: dragon.png}\n  - {name: 竜王, art: Dragon.png}\n  - {name: 子竜, art: dragon.png}\n"
    [said] = _build(tmp_path, capsys, pieces, ("dragon.png", "Dragon.png"))
    capsys.readouterr()
    assert run(tmp_path / "ws", "check", "--game", "test") == 0
    told = [line for line in capsys.readouterr().out.splitlines() if "letter case" in line]
    assert told == ["  warning: " + said.removeprefix("pnpgen: warning: ")], told
    assert said == ("pnpgen: warning: art files art/Dragon.png and art/dragon.png differ only in letter case or in "
                    "how a character is written: one file on Windows and macOS, which would print the same picture "
                    "for both (art/Dragon.png at data/test/decks/cards.yaml:8:5; art/dragon.png at "
                    "data/test/decks/cards.yaml:7:5); rename one of them and its uses"), said


def test_a_case_twin_the_data_does_not_use_is_not_warned(tmp_path, capsys):
    """Only pictures the faces place count: a spare ``Dragon.png`` no piece names is not told."""
    assert _build(tmp_path, capsys, "  - {name: 竜, art: dragon.png}\n", ("dragon.png", "Dragon.png")) == []


def test_twins_that_look_the_same_say_which_is_written_decomposed(tmp_path, capsys):
    """``ガ.png`` and its decomposed twin (``カ`` + ``゛``) print alike on screen: the one macOS would
    have named is told as such, so the designer knows which line to change."""
    import unicodedata

    nfd = unicodedata.normalize("NFD", "ガ.png")
    [said] = _build(tmp_path, capsys, f"  - {{name: 竜, art: ガ.png}}\n  - {{name: 竜王, art: {nfd}}}\n",
                    ("ガ.png", nfd))
    assert (f"(art/{nfd} (written decomposed, as macOS writes names) at data/test/decks/cards.yaml:8:5; "
            "art/ガ.png at data/test/decks/cards.yaml:7:5)") in said, said
