"""Issue 9: art files resolve to print-safe bytes (JPEG passthrough, opaque RGB PNG otherwise,
SVG as text), inside data/<game>/art/ only, and image fields are checked when the deck loads."""

from __future__ import annotations

import io
import re
import struct
import zlib
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image

from conftest import ART_DECK_YAML, REPO, make_workspace, run
from pnpgen.data import art
from pnpgen.data.art import ArtFolder
from pnpgen.data.artfile import print_bytes
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.exports.export import open_values
from pnpgen.exports.presets import load_preset
from pnpgen.rulebook.proofopen import placeholders


def png(im: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", **kw)
    return buf.getvalue()


def jpeg(im: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=90, **kw)
    return buf.getvalue()


def opened(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.fixture
def folder(tmp_path) -> ArtFolder:
    game = tmp_path / "data" / "g"
    (game / "art" / "sub").mkdir(parents=True)
    (tmp_path / "templates" / "g").mkdir(parents=True)
    return ArtFolder(game, tmp_path / "templates" / "g")


def put(folder: ArtFolder, name: str, data: bytes) -> Path:
    path = folder.root / name
    path.write_bytes(data)
    return path


def test_jpeg_passes_through_unchanged(folder):
    data = jpeg(Image.new("RGB", (64, 48), (200, 30, 40)))
    put(folder, "red.jpg", data)
    assert folder.resolve("red.jpg") == data
    grey = jpeg(Image.new("L", (8, 8), 90))
    put(folder, "sub/grey.jpeg", grey)
    assert folder.resolve("sub/grey.jpeg") == grey
    assert folder.info("red.jpg").size == (64, 48) and folder.info("red.jpg").name == "art/red.jpg"


def test_alpha_is_flattened_onto_the_background(folder):
    im = Image.new("RGBA", (10, 10), (0, 0, 255, 255))
    for x in range(5):
        for y in range(10):
            im.putpixel((x, y), (0, 0, 0, 0))
    put(folder, "half.png", png(im))
    out = opened(folder.resolve("half.png"))
    assert out.format == "PNG" and out.mode == "RGB" and "transparency" not in out.info
    assert out.getpixel((1, 1)) == (255, 255, 255) and out.getpixel((8, 8)) == (0, 0, 255)
    tinted = opened(folder.resolve("half.png#bg=f4ead5"))
    assert tinted.getpixel((1, 1)) == (0xF4, 0xEA, 0xD5)
    with pytest.raises(InputError, match="#bg=rrggbb"):
        folder.resolve("half.png#background=red")


def test_sixteen_bit_palette_and_webp(folder):
    grey16 = Image.new("I;16", (4, 4), 0x8000)
    put(folder, "g16.png", png(grey16))
    assert opened(folder.resolve("g16.png")).getpixel((0, 0)) == (128, 128, 128)  # scaled, not clipped to white
    pal = Image.new("P", (4, 4), 1)
    pal.putpalette([255, 0, 0, 0, 128, 0] + [0] * 762)
    pal.putpixel((0, 0), 0)
    put(folder, "pal.png", png(pal, transparency=0))
    out = opened(folder.resolve("pal.png"))
    assert out.mode == "RGB" and out.getpixel((0, 0)) == (255, 255, 255) and out.getpixel((3, 3)) == (0, 128, 0)
    put(folder, "w.webp", _webp())
    out = opened(folder.resolve("w.webp"))
    assert out.format == "PNG" and out.mode == "RGB" and out.getpixel((0, 0)) == (255, 255, 255)


def _webp() -> bytes:
    buf = io.BytesIO()
    Image.new("RGBA", (6, 6), (0, 0, 0, 0)).save(buf, "WEBP", lossless=True)
    return buf.getvalue()


def test_cmyk_jpeg_becomes_rgb(folder):
    put(folder, "cyan.jpg", jpeg(Image.new("CMYK", (16, 16), (255, 0, 0, 0))))
    out = opened(folder.resolve("cyan.jpg"))
    assert out.format == "PNG" and out.mode == "RGB"
    r, g, b = out.getpixel((8, 8))
    assert r < 40 and g > 215 and b > 215


def test_exif_rotated_jpeg_is_turned_upright(folder):
    im = Image.new("RGB", (40, 20), (255, 255, 255))
    for x in range(10):
        for y in range(5):
            im.putpixel((x, y), (255, 0, 0))  # red in the stored top-left corner
    exif = Image.Exif()
    exif[0x0112] = 6  # shown turned 90° clockwise
    put(folder, "rot.jpg", jpeg(im, exif=exif))
    assert folder.info("rot.jpg").size == (20, 40)
    out = opened(folder.resolve("rot.jpg"))
    assert out.size == (20, 40)
    assert out.getpixel((17, 2))[1] < 80 and out.getpixel((2, 2)) == pytest.approx((255, 255, 255), abs=30)


def test_svg_art_is_returned_as_text(folder):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 20"><rect width="30" height="20"/></svg>'
    put(folder, "v.svg", svg)
    assert folder.resolve("v.svg") == svg
    assert folder.info("v.svg").kind == "svg" and folder.info("v.svg").size == (30, 20)


def test_same_content_is_converted_once(folder):
    data = png(Image.new("RGBA", (5, 5), (1, 2, 3, 100)))
    put(folder, "a.png", data)
    put(folder, "b.png", data)
    assert folder.resolve("a.png") is folder.resolve("b.png")


def test_templates_folder_is_second(folder):
    (folder.templates / "logo.png").write_bytes(png(Image.new("RGB", (3, 3))))
    assert opened(folder.resolve("logo.png")).size == (3, 3)
    assert folder.info("logo.png", in_templates=True).name == "templates/g/logo.png"
    with pytest.raises(InputError, match="not found"):
        folder.info("logo.png")  # image fields name files in art/ only


@pytest.mark.parametrize("href, message", [
    ("../../../outside.png", "is outside art/"),
    ("/etc/outside.png", "is outside art/"),
    ("nothing.png", "art file 'nothing.png' not found"),
    ("https://example.com/x.png", "not fetched from the network"),
    ("file:///etc/outside.png", "a file address reads a file outside the workspace, which pnpgen does not read "
                                r"\(expected a file in data/<slug>/art/, named relative to it: outside.png\)"),
    ("notes.txt", "not a PNG, JPEG, WebP or SVG"),
    ("broken.png", "cannot read the image"),
    ("link.png", "is outside art/"),
])
def test_refused_hrefs_name_the_place(folder, tmp_path, href, message):
    (tmp_path / "outside.png").write_bytes(png(Image.new("RGB", (2, 2))))
    put(folder, "broken.png", b"this is not an image")
    (folder.root / "link.png").symlink_to(tmp_path / "outside.png")
    with pytest.raises(InputError, match=message) as e:
        folder.resolver("front.svg.j2, deck 'cards' piece 1")(href)
    assert "front.svg.j2, deck 'cards' piece 1" in str(e.value)


def _png_header(w: int, h: int) -> bytes:
    """A PNG that claims w×h pixels and holds none: Pillow refuses it as a decompression bomb."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) + chunk(b"IEND", b"")


def test_a_jpeg_in_a_wide_gamut_profile_is_converted_to_the_colours_it_means():
    """PDF shows an RGB JPEG's numbers as sRGB: one saved in Adobe RGB (1998) placed as it is printed
    its green (0, 160, 80) as sRGB's, duller, and the CMYK export converted that. It is converted
    through its profile (as a PNG with one always was): sRGB (0, 161, 73), the Adobe RGB PNG's own.
    A JPEG in sRGB, or with no profile, is still placed byte for byte."""
    from PIL import ImageCms

    a98 = Path("/usr/share/color/icc/ghostscript/a98.icc")
    if not a98.is_file():
        pytest.skip("Ghostscript's Adobe RGB profile is not installed")
    green = Image.new("RGB", (8, 8), (0, 160, 80))
    wide = jpeg(green, icc_profile=a98.read_bytes())
    out = opened(print_bytes(wide))
    assert out.format == "PNG" and out.getpixel((4, 4)) == opened(print_bytes(png(green, icc_profile=a98.read_bytes()))).getpixel((4, 4))
    assert out.getpixel((4, 4)) == (0, 161, 73), out.getpixel((4, 4))
    srgb = jpeg(green, icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    assert print_bytes(srgb) == srgb and print_bytes(jpeg(green)) == jpeg(green)


def test_grey_with_alpha_is_flattened_too():
    raw = png(Image.new("LA", (2, 2), (0, 0)))
    out = opened(print_bytes(raw))
    assert out.mode == "RGB" and out.getpixel((0, 0)) == (255, 255, 255)





@pytest.mark.parametrize("value, message", [
    ("dragon.png", "cards.yaml:7:20: pieces.1.art: art file 'dragon.png' not found"),
    # a name a designer misses: the file that is there is named
    ("art/broken.png", "art file 'art/broken.png' not found (expected 'broken.png', the name of the file that is "
                       "there; paths are relative to art/)"),
    ("Broken.PNG", "art file 'Broken.PNG' not found (expected 'broken.png', the name of the file that is there)"),
    ("broken.jpg", "art file 'broken.jpg' not found (expected 'broken.png', the name of the file that is there)"),
    # typed with the input method on 全角: named, not "a file ｂｒｏｋｅｎ.png in art/"
    ("Ｂｒｏｋｅｎ.png", "art file 'Ｂｒｏｋｅｎ.png' not found (expected 'broken.png', the name of the file that is there: "
                     "'Ｂｒｏｋｅｎ.png' is typed in full-width letters (全角))"),
    # hostile39: its ending typed so too was 'not a PNG, JPEG, WebP or SVG file'; a folder's ／ so too
    # found a file of that name in art/ itself; a full-width ．．／ looks in no folder outside art/
    ("ｂｒｏｋｅｎ．ｐｎｇ", "art file 'ｂｒｏｋｅｎ．ｐｎｇ' not found (expected 'broken.png', the name of the file that is "
                     "there: 'ｂｒｏｋｅｎ．ｐｎｇ' is typed in full-width letters (全角))"),
    ("sub／broken.png", "art file 'sub／broken.png' not found (expected 'sub/broken.png', the name of the file that is "
                       "there: 'sub／broken.png' is typed in full-width letters (全角))"),
    ("．．／game.yaml.png", "art file '．．／game.yaml.png' not found (expected a file ．．／game.yaml.png in data/test/art/)"),
    # a name mistyped (trial85: yozakra.png for yozakura.png): the file meant; none for another number,
    # a picture not drawn yet beside its neighbours
    ("brokne.png", "art file 'brokne.png' not found; did you mean broken.png? (expected a file brokne.png in data/test/art/)"),
    ("broken2.png", "art file 'broken2.png' not found (expected a file broken2.png in data/test/art/)"),
    ("broken.png", "cards.yaml:7:20: pieces.1.art: cannot read the image art/broken.png"),
    # what designers come by under a picture's name: it said only 'not a PNG, JPEG or WebP image'
    ("empty.png", "cannot read the image art/empty.png: the file is empty (0 bytes): a copy or a download that did "
                  "not finish? (expected a PNG, JPEG or WebP file"),
    ("page.png", "cannot read the image art/page.png: the file is a web page (HTML), not a picture: the page was "
                 "saved, not the picture on it (expected"),
    ("../game.yaml.png", "cards.yaml:7:20: pieces.1.art: '../game.yaml.png' is outside art/"),
    ("/tmp/x.png", "cards.yaml:7:20: pieces.1.art: '/tmp/x.png' is outside art/"),
    ("[1, 2]", "cards.yaml:7:20: pieces.1.art: [1, 2] is not a valid image"),
    # an English designer's trial: an iPhone photo was told only the endings pnpgen reads
    ("IMG_2042.HEIC", "'IMG_2042.HEIC' is not a PNG, JPEG, WebP or SVG file (expected a file ending .png, .jpg, .jpeg, "
                      ".webp or .svg: an iPhone photo (HEIC) exported as JPEG"),
    ("bomb.png", "cards.yaml:7:20: pieces.1.art: cannot read the image art/bomb.png: it claims 1,600,000,000 pixels, more than a picture for print needs"),
    # trial39: an illustrator's 8000×8000 picture was told the limit, not the size to save it at
    ("big.png", "cards.yaml:7:20: pieces.1.art: art/big.png is 8000×8000 pixels, more than a picture for print needs "
                "(expected at most 60,000,000 pixels: the picture saved at 7745×7745 pixels or smaller in an image "
                "editor, its shape kept"),
    ("wide.png", "art/wide.png is 12000×6000 pixels, more than a picture for print needs (expected at most "
                 "60,000,000 pixels: the picture saved at 10954×5477 pixels or smaller"),
])
def test_bad_art_field_exits_2_with_file_line(tmp_path, capsys, value, message):
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + f"  - {{name: 竜, art: {value}}}\n")
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    (ws / "data" / "test" / "art" / "bomb.png").write_bytes(_png_header(40_000, 40_000))
    (ws / "data" / "test" / "art" / "empty.png").write_bytes(b"")
    (ws / "data" / "test" / "art" / "page.png").write_bytes(b"\n<!DOCTYPE html>\n<html><body>Drive</body></html>")
    (ws / "data" / "test" / "art" / "big.png").write_bytes(_png_header(8000, 8000))
    (ws / "data" / "test" / "art" / "wide.png").write_bytes(_png_header(12000, 6000))
    (ws / "data" / "test" / "game.yaml.png").write_bytes(png(Image.new("RGB", (2, 2))))
    (ws / "data" / "test" / "art" / "sub").mkdir()
    (ws / "data" / "test" / "art" / "sub" / "broken.png").write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_every_art_file_not_there_in_a_deck_is_told_in_one_line(tmp_path, capsys):
    """trial20: a card list with four pictures not drawn yet stopped check at the first, one file a run."""
    pieces = "".join(f"  - {{name: 札{i}, art: {name}}}\n" for i, name in
                     enumerate(["ok.png", "a.png", "ok.png", "b.png", "c.png", "d.png", "e.png", "f.png", "g.png"]))
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + pieces)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "ok.png").write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "cards.yaml:8:21: pieces.2.art: art file 'a.png' not found; nor are 6 more art files of this deck: " \
        "cards.yaml:10:21 'b.png', cards.yaml:11:21 'c.png', cards.yaml:12:21 'd.png', cards.yaml:13:21 'e.png', " \
        "cards.yaml:14:21 'f.png', … (expected a file a.png in data/test/art/)" in err, err
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(ART_DECK_YAML + pieces.split("  - {name: 札4")[0],
                                                             encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "art file 'a.png' not found; nor is 1 more art file of this deck: cards.yaml:10:21 'b.png' (expected" in err, err


def test_a_decks_second_mistyped_art_file_is_told_the_file_meant(tmp_path, capsys):
    """trial84: of two art names mistyped in one deck, the first was told 'did you mean beacon.png?',
    the second named alone ('harbour.png'), its near name there not said."""
    pieces = "  - {name: 灯, art: beacn.png}\n  - {name: 港, art: harbour.png}\n"
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + pieces)
    (ws / "data" / "test" / "art").mkdir()
    for name in ("beacon.png", "harbor.png"):
        (ws / "data" / "test" / "art" / name).write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "art file 'beacn.png' not found; did you mean beacon.png?; nor is 1 more art file of this deck: " \
        "cards.yaml:8:20 'harbour.png' (did you mean harbor.png?) (expected a file beacn.png" in err, err


@pytest.mark.parametrize("value, on_disk, message", [
    # a file whose name kept a space at its end (a rename, a zip from another system): 'not found', no word of it
    ("dragon.png", "dragon.png ", "art file 'dragon.png' not found (expected 'dragon.png ', the name of the file that "
                                  "is there: a name that begins or ends with a space; rename the file without it)"),
    # the name in quotes with a space: 'not a PNG, JPEG, …' for a name ending .png
    ('"dragon.png "', "dragon.png", "art file 'dragon.png ' not found (expected 'dragon.png', the name of the file that is there)"),
    ('" dragon.png"', "dragon.png", "art file ' dragon.png' not found (expected 'dragon.png', the name of the file that is there)"),
])
def test_an_art_name_with_a_space_at_an_end_names_the_file_there(tmp_path, capsys, value, on_disk, message):
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + f"  - {{name: 竜, art: {value}}}\n")
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / on_disk).write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:7:20: pieces.1.art: " + message in err and err.count("\n") == 1, err


def test_two_art_files_named_alike_are_both_named_when_neither_is_written(tmp_path, capsys):
    """An English designer's trial: art 'Card 01.PNG' and 'card 01.png' (one file on Windows, two
    on Linux); 'card 01.PNG' in the sheet was 'not found' with no word of either file."""
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + "  - {name: 竜, art: card 01.PNG}\n")
    (ws / "data" / "test" / "art").mkdir()
    for name in ("Card 01.PNG", "card 01.png"):
        (ws / "data" / "test" / "art" / name).write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "art file 'card 01.PNG' not found (expected one of 'Card 01.PNG', 'card 01.png', the names of the files " \
        "that are there)" in err and err.count("\n") == 1, err


@pytest.mark.parametrize("value, message", [
    ("Roles\\Wolf.png", "art file 'Roles\\Wolf.png' not found: a backslash separates folders on Windows only "
                        "(expected 'Roles/Wolf.png', with / between the folders (read on every system))"),
    ("C:\\Users\\me\\Pictures\\seer.png", "art file 'C:\\Users\\me\\Pictures\\seer.png' is a path on a Windows "
                                       "computer, not in the game (expected the picture copied into data/test/art/ "
                                       "and named there: seer.png)"),
])
def test_a_windows_path_to_art_is_told_what_to_write(tmp_path, capsys, value, message):
    """An English designer's trial: a sheet written on Windows named 'Roles\\Wolf.png' (found there)
    and 'C:\\Users\\…\\seer.png'; on Linux both were 'not found', the backslashes doubled."""
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + "  - {name: 竜, art: " + value + "}\n")
    (ws / "data" / "test" / "art" / "Roles").mkdir(parents=True)
    (ws / "data" / "test" / "art" / "Roles" / "Wolf.png").write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_check_lists_pieces_without_art(tmp_path, capsys):
    deck = ART_DECK_YAML + "  - {name: 竜, art: 未定}\n  - {name: 鳥}\n  - {name: 馬, art: ''}\n  - {name: 犬, art: dog.png}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "dog.png").write_bytes(png(Image.new("RGB", (2, 2))))
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "cards.yaml:7:20: 竜.art: 未定" in out
    # (the empty value's own place; no value at all: the piece's)
    assert "cards.yaml:8:5: 鳥.art: no art yet" in out and "cards.yaml:9:20: 馬.art: no art yet" in out
    assert "犬" not in out and "3 placeholders to settle" in out


def test_check_names_the_empty_art_cell_of_a_spreadsheet(tmp_path, capsys):
    """A game trial: a unit deck's empty art cells were listed at their row alone (units.csv:2:),
    where a 未定 cell was at its cell (units.csv:6:10:): each is now said at its cell."""
    deck = ART_DECK_YAML.split("pieces:")[0] + "pieces: {file: cards.csv}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("name,art,count\n竜,未定,2\n鳥,,3\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "cards.csv:2:2: 竜.art: 未定" in out and "cards.csv:3:2: 鳥.art: no art yet" in out, out


def _starter_decks(root: Path) -> Path:
    """A workspace whose card sheet cards.csv four decks read, each by its own count column (cards
    by 枚数, a, b and c by A, B, C): 竜's art 未定, printed by a, c and cards; 鳥's empty, printed
    by a, b and cards."""
    def deck(counted: str, others: str) -> str:
        head = ART_DECK_YAML.split("pieces:")[0].replace("art: image}", f"art: image, {others}}}")
        return head + f"pieces: {{file: cards.csv, columns: {{{counted}: count}}}}\n"
    ws = make_workspace(root, deck=deck("枚数", "A: int, B: int, C: int"))
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.csv").write_text("name,art,枚数,A,B,C\n竜,未定,1,1,0,1\n鳥,,1,2,3,0\n", encoding="utf-8")
    for name in ("A", "B", "C"):
        others = ", ".join(f"{c}: int" for c in ("枚数", "A", "B", "C") if c != name)
        (decks / f"{name.lower()}.yaml").write_text(deck(name, others), encoding="utf-8")
    return ws


def test_check_names_a_shared_rows_missing_art_once_with_the_decks_printing_it(tmp_path, capsys):
    """trial52: starter decks reading one card sheet, each by its own count column, listed a row's
    "no art yet" once per deck that prints it (the same line up to five times): one line now,
    naming the decks; a deck that parks the row is not named."""
    ws = _starter_decks(tmp_path / "ws")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert out.count("鳥.art: no art yet") == 1 and out.count("竜.art: 未定") == 1, out
    assert "  a, b, cards: data/test/decks/cards.csv:3:2: 鳥.art: no art yet\n" in out, out
    assert "  a, c, cards: data/test/decks/cards.csv:2:2: 竜.art: 未定\n" in out, out
    assert "2 placeholders to settle" in out, out


def test_proof_and_the_shop_export_list_a_shared_rows_open_values_once_as_check_does(tmp_path):
    """fixesL's limit: proof.txt listed 竜.art: 未定 three times (decks a, c and cards, each with its
    own line) and the shop export warned once per deck (four warnings for two open cells): one
    rule with check's now (model.open_values_once), each cell once with the decks that print it."""
    ws = Workspace(_starter_decks(tmp_path / "ws"))
    game = load_game(ws, "test")
    files = [f.file.replace(f"{ws.root}/", "") for f in placeholders(game, "en")]
    assert files == ["data/test/decks/cards.csv:2:2: テストカード 竜.art: 未定",
                     "data/test/decks/cards.csv:3:2: テストカード 鳥.art: no art yet"], files
    said = open_values(game.decks, load_preset(ws, "test", "doujin"), "ja")
    assert [line.replace(f"{ws.root}/", "").split(" (pnpgen check")[0] for line in said] == [
        "data/test/decks/cards.csv:2:2: decks 'a', 'c', 'cards' still print 未定: 竜.art: 未定",
        "data/test/decks/cards.csv:3:2: decks 'a', 'b', 'cards' still print 未定: 鳥.art: no art yet"], said


def test_the_art_folder_is_checked_for_links_out_once_however_many_pictures_are_looked_up(tmp_path, monkeypatch):
    """Whether art/ leads out of the game's folder is resolved once, not once per picture (a
    thousand cards' lookups each resolved every folder of the path again)."""
    from pnpgen.data import art as art_module

    folder = tmp_path / "game" / "art"
    folder.mkdir(parents=True)
    for i in range(20):
        (folder / f"p{i}.png").write_bytes(png(Image.new("RGB", (4, 4))))
    calls = []
    real = art_module.leads_out
    monkeypatch.setattr(art_module, "leads_out", lambda *a: calls.append(a) or real(*a))
    found = ArtFolder(tmp_path / "game")
    assert [found.find(f"p{i}.png").name for i in range(20)] == [f"p{i}.png" for i in range(20)]
    assert len(calls) == 1


def test_a_thousand_cards_pictures_are_found_inside_art_without_pathlib_comparing_parts(tmp_path, monkeypatch):
    """A picture right in art/ is inside it by its name: checking it (``contained``) and naming it
    (``art/<name>``) compare the paths as text, not by pathlib's ``is_relative_to`` (some 10 µs
    each, twice per card); a link in art/ leading out is still refused."""
    from pathlib import PurePath

    folder = tmp_path / "game" / "art"
    folder.mkdir(parents=True)
    for i in range(20):
        (folder / f"p{i}.png").write_bytes(png(Image.new("RGB", (4, 4))))
    (tmp_path / "outside.png").write_bytes(png(Image.new("RGB", (4, 4))))
    (folder / "out.png").symlink_to(tmp_path / "outside.png")
    calls = []
    real = PurePath.is_relative_to
    monkeypatch.setattr(PurePath, "is_relative_to", lambda self, *a: calls.append(self) or real(self, *a))
    found = ArtFolder(tmp_path / "game")
    assert [found.info(f"p{i}.png").name for i in range(20)] == [f"art/p{i}.png" for i in range(20)]
    assert [path.name for path in calls if path.suffix == ".png"] == []  # (art/ itself: once, leads_out)
    with pytest.raises(InputError, match="is outside art/"):
        found.info("out.png")


def test_the_change_reports_picture_names_resolve_each_folder_once(tmp_path, monkeypatch):
    """A picture's name in the change report (``shown_name``: ``art/<path>``, ``templates/<game>/
    <path>``) is cut from its path's text; art/ through its links is found once per build, not once
    per face (a thousand cards' faces resolved art/ and templates/ a thousand times each). The
    names are pathlib's: a picture in a subfolder, one beside the templates, one reached through
    art/'s link, one outside both (its file name)."""
    from pathlib import Path as RealPath

    real_art = tmp_path / "pictures"
    (real_art / "sub").mkdir(parents=True)
    game = tmp_path / "game"
    game.mkdir()
    (game / "art").symlink_to(real_art)
    templates = tmp_path / "templates" / "game"
    templates.mkdir(parents=True)
    for i in range(20):
        (real_art / f"p{i}.png").write_bytes(b"x")
    folder = ArtFolder(game, templates)
    resolved = []
    real = RealPath.resolve
    monkeypatch.setattr(RealPath, "resolve", lambda self, *a: resolved.append(self) or real(self, *a))
    shown = [folder.shown_name(game / "art" / f"p{i}.png") for i in range(20)]
    assert shown == [f"art/p{i}.png" for i in range(20)] and resolved == []  # (inside art/ as written: no link followed)
    assert [folder.shown_name(real_art / f"p{i}.png") for i in range(20)] == [f"art/p{i}.png" for i in range(20)]
    assert folder.shown_name(real_art / "sub" / "q.png") == "art/sub/q.png"
    assert folder.shown_name(templates / "frame.png") == "templates/game/frame.png"
    assert folder.shown_name(tmp_path / "elsewhere.png") == "elsewhere.png"
    assert sorted(map(str, resolved)) == sorted(map(str, [game / "art", templates]))  # each once


_PARTS = st.lists(st.sampled_from(["a", "ab", "b", "..", ".", "a b", "é"]), max_size=5)


@settings(max_examples=300, deadline=None)
@given(_PARTS, _PARTS)
def test_within_answers_as_pathlib_does(path, folder):
    from pnpgen.errors import within

    p, f = Path("/", *path), Path("/", *folder)
    assert within(p, f) == p.is_relative_to(f)


@pytest.fixture(scope="module")
def two_pictures(tmp_path_factory) -> Path:
    """A game folder whose art/ holds a.png and b.png, made once for the module: the Hypothesis
    test below made it again for each of its 300 examples (some 1.3 of its 1.9 CPU-s)."""
    game = tmp_path_factory.mktemp("two-pictures") / "game"
    (game / "art").mkdir(parents=True)
    for name in ("a.png", "b.png"):
        (game / "art" / name).write_bytes(png(Image.new("RGB", (2, 2))))
    return game


_FRAGMENTS = ["href", "xlink:", "x", "_", "é", "=", " ", "\n", "'", '"', "a.png", "b.png", "<image ", "/>", "data:", "#"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=24).map("".join))
@example('xhref="a.png"').via("no boundary: no picture")
@example('éhref="a.png" _href="b.png" href=\'a.png\'').via("unicode and _ are word characters")
@example('xhref="b.png href=\'a.png\'"').via("an href inside the quotes of one that is not")
def test_the_pictures_a_face_shows_are_the_hrefs_a_word_boundary_starts(two_pictures, svg):
    """A face's pictures (what its converted form is cached by) are found by the ``href``s of its
    SVG that start a word, as ``\\bhref\\s*=\\s*(["'])(.*?)\\1`` finds them — now by the pattern
    without its ``\\b``, the boundary checked by hand (a pattern opening on one was tried at every
    character of every face, a thousand cards' faces on every build): the same files, whatever
    the text round them (``xhref``, ``_href``, ``éhref``, an href inside another's quotes)."""
    found = ArtFolder(two_pictures).shown_files(svg)
    with mock.patch.object(art, "_hrefs", re.compile(r"""\bhref\s*=\s*(["'])(.*?)\1""", re.S).finditer):
        assert found == ArtFolder(two_pictures).shown_files(svg)


@pytest.mark.parametrize("name", ["a.png", "A.PNG", "a.tar.png", "x..png", "x .png", "sub/b.jpeg", "a.png/", "a.png/.",
                                  "..png", ".png", "file.", "a.webp ", " a.svg", "a.gif", "a", "a.png.txt", "a\\b.png"])
def test_a_name_is_a_picture_by_its_paths_suffix_as_pathlib_says_it(tmp_path, name):
    """``find`` takes a name ending in a picture's suffix by its text (os.path.splitext: a thousand
    cards' names not each made a Path) and asks pathlib of any other: the same names refused as
    'not a PNG, JPEG, WebP or SVG file' as by ``Path(name.strip()).suffix`` alone."""
    (tmp_path / "art").mkdir()
    refused_so = Path(name.strip()).suffix.lower() not in art.SUFFIXES
    try:
        ArtFolder(tmp_path).find(name)
        said = ""
    except InputError as e:
        said = e.message
    assert ("is not a PNG, JPEG, WebP or SVG file" in said) == refused_so, said


def test_every_art_file_in_a_format_pnpgen_does_not_read_is_told_in_one_line_with_those_not_there(tmp_path, capsys):
    """trial73: three TIFFs in a memory game's art folder stopped check at the first, one file a run,
    as four pictures not drawn yet once did: a deck's files not read are told together, each one's
    fault after its name where it is not the first one's."""
    pieces = "".join(f"  - {{name: 札{i}, art: {name}}}\n" for i, name in enumerate(["a.tif", "ok.png", "b.tif"]))
    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + pieces)
    (ws / "data" / "test" / "art").mkdir()
    for name in ("ok.png", "a.tif", "b.tif"):
        Image.new("RGB", (2, 2)).save(ws / "data" / "test" / "art" / name)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err == ("pnpgen: error: data/test/decks/cards.yaml:7:21: pieces.1.art: 'a.tif' is not a PNG, JPEG, WebP or "
                   "SVG file; nor is 1 more art file of this deck: cards.yaml:9:21 'b.tif' (expected a file ending .png, "
                   ".jpg, .jpeg, .webp or .svg: the TIFF saved as PNG)\n"), err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("art: ok.png", "art: gone.png"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "pieces.1.art: 'a.tif' is not a PNG, JPEG, WebP or SVG file; nor are 2 more art files of this deck: " \
        "cards.yaml:8:21 'gone.png' (not found), cards.yaml:9:21 'b.tif' (expected" in err, err
    page = " ".join((REPO / "docs" / "data-format.md").read_text(encoding="utf-8").split())  # the page's example
    assert "`'p10.tif' is not a PNG, JPEG, WebP or SVG file; nor are 2 more art files of this deck: tiles.yaml:29:25 " \
        "'p22.tif', tiles.yaml:41:25 'gone.png' (not found) (expected … the TIFF saved as PNG)`" in page
