"""The art gate's quick answer (errors.py ``file_right_in``): a card's picture named plainly, a
regular file right in art/, is found from one lstat without ``contained``'s every step; anything
else goes through ``contained`` as before. Each hostile name is answered exactly as ``contained``
answers it (the same file, or the same refusal), and only a plain regular file takes the quick way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnpgen.data.art import ArtFolder
from pnpgen.errors import InputError, file_right_in
from pnpgen.memo import Stamps


def answer(folder: ArtFolder, rel: str) -> object:
    try:
        return folder.find(rel, "cards.yaml")
    except InputError as e:
        return type(e).__name__, e.message, e.expected


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "ws" / "data" / "test"
    art = root / "art"
    (art / "sub").mkdir(parents=True)
    for name in ("plain.png", "sub/deep.png", "low\nres.png", "ok.png"):
        (art / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"\x89PNG\r\n\x1a\n")
    (art / "out.png").symlink_to(outside)               # a link leading out
    (art / "in.png").symlink_to(art / "plain.png")       # a link to a file inside
    (art / "loop.png").symlink_to(art / "loop.png")      # a link loop
    (art / "gone.png").symlink_to(art / "nothing.png")   # a link to nothing
    (art / "dir.png").mkdir()                           # a folder
    os.mkfifo(art / "pipe.png")                          # a pipe: never opened
    return root


NAMES = ["plain.png", "in.png", "out.png", "loop.png", "gone.png", "dir.png", "pipe.png", "missing.png",
         "low\nres.png", "sub/deep.png", "../art/plain.png", "./plain.png", "sub/../plain.png", "..", ".",
         "x" * 300 + ".png", "sub\\deep.png", "PLAIN.png"]


@pytest.mark.parametrize("rel", NAMES)
def test_each_name_is_answered_as_contained_answers_it(game: Path, rel: str):
    quick = ArtFolder(game, stamps=Stamps())  # (a build's: the quick way open)
    slow = ArtFolder(game)                    # (no stamps: contained alone)
    assert answer(quick, rel) == answer(slow, rel)
    taken = file_right_in(game / "art", rel, Stamps())
    assert (taken is not None) == (rel == "plain.png")  # a link, a folder, a control character: the long way
    if taken is not None:
        assert taken[0] == game / "art" / "plain.png"


def test_an_art_folder_reached_through_a_link_takes_the_long_way(game: Path, tmp_path: Path):
    linked = tmp_path / "ws" / "data" / "other"
    linked.mkdir()
    (linked / "art").symlink_to(game / "art")  # (art/ a link: the folder is not its own path)
    assert file_right_in(linked / "art", "plain.png", Stamps()) is None
    assert answer(ArtFolder(linked, stamps=Stamps()), "plain.png") == answer(ArtFolder(linked), "plain.png")


def test_a_picture_replaced_by_a_link_out_is_refused_by_the_next_build(game: Path, tmp_path: Path):
    art = game / "art"
    assert ArtFolder(game, stamps=Stamps()).find("ok.png") == art / "ok.png"
    (art / "ok.png").unlink()
    (art / "ok.png").symlink_to(tmp_path / "outside.png")  # swapped between two builds: each build asks again
    kind, message, _ = answer(ArtFolder(game, stamps=Stamps()), "ok.png")
    assert "outside art/" in message and "link leading out" in message


def test_an_absolute_path_is_refused_even_inside_art(game: Path):
    """An absolute path to a picture inside art/ was found (named art/plain.png), though the docs
    say absolute paths are refused: the deck then built only in this folder. It is an error naming
    the relative path that would be right, by the quick way and the long way alike."""
    rel = str(game / "art" / "plain.png")
    for folder in (ArtFolder(game, stamps=Stamps()), ArtFolder(game)):
        with pytest.raises(InputError) as e:
            folder.find(rel, "cards.yaml")
        assert e.value.message == f"{rel!r} is an absolute path" and "'plain.png'" in e.value.expected


@pytest.mark.parametrize("href, said", [
    ("file:///etc/passwd", "shows 'file:///etc/passwd': a file address reads a file outside the workspace"),
    ("http://example.com/a.png", "shows 'http://example.com/a.png': images are not fetched from the network"),
    ("nothere.png", "shows 'nothere.png': art file 'nothere.png' not found"),
])
def test_a_picture_inside_an_svg_art_file_is_told_at_that_file_and_its_line(tmp_path, capsys, href, said):
    """``<image href="file:///etc/…">`` inside art/x.svg was told at the deck's front only, the SVG
    file not named: it names data/<game>/art/x.svg, the line of the <image> in it, and the href."""
    from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 絵1, art: x.svg}\n", front=PICTURE_FRONT)
    (ws / "data/test/art").mkdir()
    (ws / "data/test/art/x.svg").write_text(
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10' viewBox='0 0 10 10'>\n"
        f"<rect width='10' height='10' fill='red'/>\n<image href='{href}' width='5' height='5'/></svg>\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "data/test/art/x.svg (image in deck 'cards' piece 1 (絵1, " in err, err
    assert f"<image> (line 3 of the SVG) {said}" in err and "Traceback" not in err, err
