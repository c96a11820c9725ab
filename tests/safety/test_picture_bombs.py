"""A picture small on disk whose header claims more pixels than print needs (a decompression
bomb): a 13000×13000 PNG with an alpha channel is 0.6 MB of zeros compressed, and converting it
(alpha flattened, RGB) once took 2.7 GB and 10 s, with Pillow's own warnings printed raw; under
Pillow's refusal (179 million pixels) nothing stopped it. It is refused from its header, one line
naming the piece's file:line, the picture and its size, and the last good outputs stay."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

from conftest import FRONT, PICTURE_FRONT, make_workspace, picture_workspace, run

# 8200 × 8200 = 67 million pixels: over pnpgen's limit (60 million), under Pillow's own warning.
SIDE = 8200


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _bomb(colour_type: int, side: int = SIDE, whole: bool = True) -> bytes:
    """A whole, valid PNG of side × side transparent (or black) pixels, every row zeros (or, not
    ``whole``, only its header and the first rows: what is read before any pixel)."""
    channels = {2: 3, 6: 4}[colour_type]
    pack = zlib.compressobj(1)
    row = bytes(1 + side * channels)
    data = b"".join(pack.compress(row) for _ in range(side if whole else 1)) + pack.flush()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, colour_type, 0, 0, 0))
            + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))


@pytest.mark.parametrize("colour_type", [6, 2], ids=["rgba", "rgb"])
def test_a_picture_claiming_more_pixels_than_print_needs_is_refused_from_its_header(tmp_path, capsys, colour_type):
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    kept = (ws / "build/test/cards.pdf").read_bytes()
    (ws / "data/test/art/a.png").write_bytes(_bomb(colour_type))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    said = capsys.readouterr()
    err = said.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "Warning" not in err, err
    assert "cards.yaml:7:" in err and f"art/a.png is {SIDE}×{SIDE} pixels" in err and "60,000,000" in err, err
    assert (ws / "build/test/cards.pdf").read_bytes() == kept


def test_a_template_image_claiming_more_pixels_than_print_needs_is_refused(tmp_path, capsys):
    front = PICTURE_FRONT.replace("{{ image(piece.art, 5, 20, w - 10, 40) }}",
                                  '<image href="logo.png" x="5" y="60" width="20" height="20"/>')
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", front, {"a.png": (200, 30, 30)})
    (ws / "templates/test/logo.png").write_bytes(_bomb(6))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"logo.png is {SIDE}×{SIDE} pixels" in err, err
    assert not (ws / "build/test/cards.pdf").exists()


@pytest.mark.parametrize("side, said", [(SIDE, f"{SIDE}×{SIDE} pixel picture"), (100_000, "10,000,000,000 pixels")])
def test_an_svg_picture_holding_a_bomb_as_a_data_uri_is_refused(tmp_path, capsys, side, said):
    """SVG art may carry its raster inline (``data:image/png;base64,…``): the same limit holds, and
    one beyond Pillow's own (which Pillow raises as no OSError) is one line, not a traceback."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    inline = base64.b64encode(_bomb(2, side, whole=side == SIDE)).decode()
    (ws / "data/test/art/a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
        f'<image width="100" height="100" href="data:image/png;base64,{inline}"/></svg>', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "Warning" not in err, err
    assert "a.svg" in err and said in err and "60,000,000" in err, err
    assert not (ws / "build/test/cards.pdf").exists()


def test_a_picture_past_pillows_warning_is_said_once_in_pnpgens_words(tmp_path, capsys):
    """10000×10000: past Pillow's DecompressionBombWarning (89 million pixels), under its error."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    (ws / "data/test/art/a.png").write_bytes(_bomb(6, 10_000, whole=False))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Warning" not in err and "art/a.png is 10000×10000 pixels" in err, err


def test_an_art_file_of_more_bytes_than_print_needs_is_refused_unread(tmp_path, capsys):
    """A picture of a few pixels carrying half a gigabyte (an ancillary chunk, data after its end):
    every build read it whole, where it is checked and hashed (1.6 GB of memory for 500 MB). It is
    refused by its size on disk before a byte is read (a sparse file here: no disk is used)."""
    from pnpgen.data.artfile import MAX_ART_BYTES

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    kept = (ws / "build/test/cards.pdf").read_bytes()
    with open(ws / "data/test/art/a.png", "r+b") as f:
        f.truncate(MAX_ART_BYTES + 1)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "cards.yaml:7:" in err and f"art file 'a.png' is {MAX_ART_BYTES + 1:,} bytes" in err, err
    assert (ws / "build/test/cards.pdf").read_bytes() == kept


def test_an_svg_picture_of_too_many_elements_is_refused_as_it_is_read(tmp_path, capsys):
    """24 MB of <rect/> (600,000 of them, well within an art file's bytes) took 40 s and a
    gigabyte before the converter refused the face; its elements are now counted as the file is
    read, none kept, and past MAX_SVG_ELEMENTS it is one line naming the piece and the file."""
    from pnpgen.data.artfile import MAX_SVG_ELEMENTS

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    (ws / "data/test/art/a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' + "<g/>" * MAX_SVG_ELEMENTS + "</svg>",
        encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "cards.yaml:" in err and f"the SVG art/a.svg holds more than {MAX_SVG_ELEMENTS:,} elements" in err, err
    (ws / "data/test/art/a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><g>' + "<g/>" * 1000
        + '<rect width="50" height="50" fill="#0000ff"/></g></svg>', encoding="utf-8")  # a picture of fewer: drawn
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0


def test_groups_nested_deeper_than_the_converter_draws_are_told_so_at_their_line(tmp_path, capsys):
    """lxml reads an SVG 255 elements deep; the converter recursed out of Python's stack before
    that, said as "cannot convert the face (maximum recursion depth exceeded)": no line, no file
    (the picture's), nothing to do. It names the picture, its deepest element's line, the depth."""
    deep = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' + "<g>\n" * 250 \
        + '<rect width="50" height="50" fill="#0000ff"/>' + "</g>" * 250 + "</svg>"
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    (ws / "data/test/art/a.svg").write_text(deep, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "recursion" not in err, err
    assert "a.svg (image in deck 'cards' piece 1 (A, data/test/decks/cards.yaml:7:5) front): <rect> (line 251 of the " \
        "SVG) is nested 251 elements deep" in err, err  # as every mistake inside a picture is said
    face = FRONT.replace("{% block art %}", "{% block art %}\n" + "<g>" * 250 + '<rect width="5" height="5"/>' + "</g>" * 250)
    ws = make_workspace(tmp_path / "ws2", pieces=["A"], front=face)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "recursion" not in err and "is nested 25" in err, err


def _text_bomb(kind: bytes) -> bytes:
    """A 1×1 PNG whose zTXt, iTXt or iCCP chunk unpacks to 2 MB (past Pillow's 1 MB for one)."""
    packed = zlib.compress(b"\0" * 2_000_000, 9)
    body = {b"zTXt": b"Comment\0\0" + packed, b"iTXt": b"XML:com.adobe.xmp\0\1\0\0\0" + packed,
            b"iCCP": b"icc\0\0" + packed}[kind]
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) + _chunk(kind, body)
            + _chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + _chunk(b"IEND", b""))


@pytest.mark.parametrize("kind", [b"zTXt", b"iTXt", b"iCCP"], ids=["ztxt", "itxt", "iccp"])
@pytest.mark.parametrize("placed", ["art", "template", "svg data uri"])
def test_a_png_whose_text_or_profile_unpacks_past_pillows_limit_is_one_line(tmp_path, capsys, kind, placed):
    """Pillow refuses such a chunk with a ValueError, which ended the build in a traceback and exit 1."""
    front = PICTURE_FRONT if placed != "template" else PICTURE_FRONT.replace(
        "{{ image(piece.art, 5, 20, w - 10, 40) }}", '<image href="logo.png" x="5" y="60" width="20" height="20"/>')
    art = "a.svg" if placed == "svg data uri" else "a.png"
    ws = picture_workspace(tmp_path / "ws", f"  - {{name: A, art: {art}}}\n", front, {"a.png": (200, 30, 30)})
    if placed == "art":
        (ws / "data/test/art/a.png").write_bytes(_text_bomb(kind))
    elif placed == "template":
        (ws / "templates/test/logo.png").write_bytes(_text_bomb(kind))
    else:
        (ws / "data/test/art/a.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image width="100" height="100" '
            f'href="data:image/png;base64,{base64.b64encode(_text_bomb(kind)).decode()}"/></svg>', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "MAX_TEXT_CHUNK" not in err, err
    assert "a text or colour-profile chunk that unpacks to more than a picture holds" in err, err
    assert not (ws / "build/test/cards.pdf").exists()


@pytest.mark.parametrize("size", ["1e309", "1e12"])
def test_a_font_size_beyond_what_a_pdf_holds_names_the_text_and_its_picture(tmp_path, capsys, size):
    """It reached the PDF's writing, told there with no file, deck or piece: "pnpgen: error: the
    face has the number inf, beyond what a PDF holds"."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    (ws / "data/test/art/a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        f'<text font-size="{size}" font-family="BIZUDPGothic-Regular">a</text></svg>', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"a.svg (image in deck 'cards' piece 1 (A, data/test/decks/cards.yaml:7:5) front): <text> (line 1 of the SVG) " \
        f"has font-size {size!r}, beyond what a PDF holds" in err, err
