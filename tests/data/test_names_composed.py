"""A picture's or a spreadsheet's name written with its characters composed one way in the data and the other way on
the disk (Unicode NFC ``ガ`` and NFD ``カ`` + ``゛``). macOS writes file names decomposed (a zip
made there, a folder copied from it, a name copied from the Finder) and finds a file by either
form; Linux compares bytes, so a print shop's or a CI build stopped at "art file 'ガード.png' not
found (expected a file ガード.png in art/)", a file plainly there."""

from __future__ import annotations

import io
import json
import unicodedata

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import DECK_YAML, GAME_YAML, PICTURE_DECK_YAML, PICTURE_FRONT, REPO, make_workspace, run
from pdfprobe import page_fonts
from pnpgen.data.art import ArtFolder
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _png(colour: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def art(tmp_path) -> ArtFolder:
    game = tmp_path / "data" / "g"
    (game / "art").mkdir(parents=True)
    return ArtFolder(game, None)


@pytest.mark.parametrize("on_disk, written", [(nfd, nfc), (nfc, nfd)])
def test_a_name_composed_the_other_way_finds_the_file(art, on_disk, written):
    folder = art.root / on_disk("キャラ")
    folder.mkdir()
    (folder / on_disk("ガード.png")).write_bytes(_png((200, 0, 0)))
    rel = written("キャラ/ガード.png")
    assert rel.encode() != on_disk("キャラ/ガード.png").encode()  # (the two really differ as bytes)
    assert art.find(rel) == folder / on_disk("ガード.png")
    assert art.info(rel).name == f"art/{rel}"  # named as the data names it


def test_a_name_composed_the_other_way_is_found_in_an_art_folder_that_is_a_link(tmp_path):
    """art/ a link to the game's pictures beside it (allowed: it stays in the game's folder): a
    decomposed ガード.png was "not found" there, found when art/ was the folder itself; a link
    below art/ is still not followed, and the link leading out still refused."""
    game = tmp_path / "data" / "g"
    (game / "pictures" / "sub").mkdir(parents=True)
    (game / "pictures" / nfd("ガード.png")).write_bytes(_png((200, 0, 0)))
    (game / "art").symlink_to("pictures")
    art = ArtFolder(game, None)
    assert art.find(nfc("ガード.png")).resolve() == (game / "pictures" / nfd("ガード.png")).resolve()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / nfd("ギ.png")).write_bytes(_png((0, 0, 200)))
    (game / "pictures" / "sub" / "away").symlink_to(tmp_path / "out")
    with pytest.raises(InputError):
        ArtFolder(game, None).find(nfc("sub/away/ギ.png"))


def test_the_file_named_as_written_comes_first(art):
    (art.root / nfc("ガード.png")).write_bytes(_png((200, 0, 0)))
    (art.root / nfd("ガード.png")).write_bytes(_png((0, 0, 200)))
    assert art.find(nfc("ガード.png")).name.encode() == nfc("ガード.png").encode()
    assert art.find(nfd("ガード.png")).name.encode() == nfd("ガード.png").encode()


def test_another_name_is_still_not_found(art):
    (art.root / nfd("ガード.png")).write_bytes(_png((200, 0, 0)))
    with pytest.raises(InputError, match="art file 'カード.png' not found"):
        art.find("カード.png")


def test_a_build_places_a_picture_named_decomposed_on_the_disk(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, deck=PICTURE_DECK_YAML + f"  - {{name: 門番, art: {nfc('ガード.png')}}}\n")
    (ws / "data/test/art").mkdir()
    (ws / "data/test/art" / nfd("ガード.png")).write_bytes(_png((200, 0, 0)))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0, capsys.readouterr().err
    images = json.loads((ws / "build/test/manifest.json").read_text(encoding="utf-8"))["images"]
    assert [(i["file"], i["pixels"]) for i in images] == [(f"art/{nfc('ガード.png')}", [8, 8])]


def test_a_spreadsheet_named_decomposed_on_the_disk_is_read(tmp_path, capsys):
    """It said "spreadsheet 'ガード.csv' not found; did you mean ガード.csv?", the two names alike to the eye."""
    ws = make_workspace(tmp_path / "ws")
    decks = ws / "data/test/decks"
    (decks / "cards.yaml").write_text(DECK_YAML.replace("pieces:\n", f"pieces: {{file: {nfc('ガード.csv')}}}\n"),
                                      encoding="utf-8")
    (decks / nfd("ガード.csv")).write_text("name,text,count\n門番,本文,3\n", encoding="utf-8")
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "c.csv")) == 0, \
        capsys.readouterr().err
    assert "\n門番," in (tmp_path / "c.csv").read_text(encoding="utf-8-sig")


def test_a_template_named_decomposed_on_the_disk_is_used(tmp_path, capsys):
    """It said "template 'ガード.svg.j2' not found; did you mean …?"."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    templates = ws / "templates/test"
    (templates / nfd("ガード.svg.j2")).write_text((templates / "card-front.svg.j2").read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    (templates / "card-front.svg.j2").unlink()
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("front: card-front.svg.j2", f"front: {nfc('ガード.svg.j2')}"),
                    encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0, capsys.readouterr().err
    assert (ws / "build/test/cards.pdf").is_file()


def test_a_game_folder_named_decomposed_is_found_by_its_name_as_typed(tmp_path, capsys):
    """It said "unknown game 'ゲーム' (expected one of ゲーム)", the two names alike to the eye."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    for top in ("data", "templates"):
        (ws / top / "test").rename(ws / top / nfd("ゲーム"))
    assert run(ws, "build", "--game", nfc("ゲーム"), "--no-rulebook") == 0, capsys.readouterr().err
    assert (ws / "build" / nfd("ゲーム") / "cards.pdf").is_file()  # the game's folder's own name, as --all names it


def test_a_deck_file_named_decomposed_is_found_by_its_id_as_typed(tmp_path, capsys):
    """export-sheet and layout export said "unknown deck 'ガード'", naming ガード among the decks."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 門番, text: 本文}\n")
    decks = ws / "data/test/decks"
    (decks / "cards.yaml").rename(decks / nfd("ガード.yaml"))
    assert run(ws, "export-sheet", "--game", "test", "--deck", nfc("ガード"), "--out", str(tmp_path / "c.csv")) == 0, \
        capsys.readouterr().err
    assert "\n門番," in (tmp_path / "c.csv").read_text(encoding="utf-8-sig")
    game = load_game(Workspace(ws), "test")
    assert game.deck(nfc("ガード")) is game.deck(nfd("ガード")) is game.decks[0]


def test_a_font_named_decomposed_on_the_disk_is_used(tmp_path, capsys):
    """It said "font 'ゴシック' not found in fonts; did you mean ゴシック?", the two names alike to the eye."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"],
                        game=GAME_YAML + f"fonts:\n  gothic: {nfc('ゴシック')}\n  bold: {nfc('ゴシック')}\n")
    (ws / "fonts").unlink()
    (ws / "fonts").mkdir()
    (ws / "fonts" / nfd("ゴシック.ttf")).write_bytes((REPO / "fonts" / "BIZUDGothic-Regular.ttf").read_bytes())
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0, capsys.readouterr().err
    shown = page_fonts(PdfReader(ws / "build/test/cards.pdf").pages[0])
    assert [n for n in shown if n.startswith("BIZUDGothic-Regular-")], sorted(shown)  # its face, and its file's hash
