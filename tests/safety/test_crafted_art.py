"""Art from elsewhere may be cut short or crafted. A JPEG, or an opaque RGB PNG, goes into the PDF
as it is (pdf/raster.py: neither decoded nor compressed again), so one whose data is not whole
would make a PDF whose picture is broken, or stop the build with a traceback: it is a one-line
error naming the file, and the last good outputs stay."""

from __future__ import annotations

import io
import re
import struct
import zlib

import pytest

from conftest import PICTURE_FRONT, make_workspace, picture_workspace, run


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    at, out = 8, []
    while at < len(png):
        (n,) = struct.unpack(">I", png[at:at + 4])
        out.append((png[at + 4:at + 8], png[at + 8:at + 8 + n]))
        at += n + 12
    return out


def _png(chunks: list[tuple[bytes, bytes]]) -> bytes:
    """A PNG of these chunks, each with its right CRC: only what they hold is wrong."""
    return b"\x89PNG\r\n\x1a\n" + b"".join(struct.pack(">I", len(body)) + kind + body
                                          + struct.pack(">I", zlib.crc32(kind + body)) for kind, body in chunks)


def _pixels(chunks, make) -> list[tuple[bytes, bytes]]:
    data = b"".join(body for kind, body in chunks if kind == b"IDAT")
    rest = [c for c in chunks if c[0] != b"IDAT"]
    return [rest[0], (b"IDAT", make(data)), *rest[1:]]


CRAFTED = {
    "cut in half": lambda png: png[:len(png) // 2],
    "pixel data cut short": lambda png: _png(_pixels(_chunks(png), lambda d: d[:len(d) // 3])),
    "pixel data broken": lambda png: _png(_pixels(_chunks(png), lambda d: d[:2] + bytes(b ^ 0x5A for b in d[2:]))),
    "pixel data of another size": lambda png: _png(_pixels(_chunks(png), lambda d: zlib.compress(zlib.decompress(d)[:-7]))),
}


@pytest.mark.parametrize("crafted", sorted(CRAFTED))
def test_a_png_whose_data_is_not_whole_is_one_line_and_keeps_the_outputs(tmp_path, crafted, capsys):
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)},
                           chunks=3)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    kept = (ws / "build" / "test" / "cards.pdf").read_bytes()
    art = ws / "data" / "test" / "art" / "a.png"
    art.write_bytes(CRAFTED[crafted](art.read_bytes()))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "a.png" in err
    assert "the image art/a.png" in err, err  # where the designer finds it (it said "a.png" where the file is checked whole)
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == kept


def test_a_jpeg_cut_short_is_one_line_and_keeps_the_outputs(tmp_path, capsys):
    from PIL import Image

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.jpg}\n", PICTURE_FRONT, {})
    art = ws / "data" / "test" / "art" / "a.jpg"
    Image.new("RGB", (300, 200), (10, 200, 10)).save(art, quality=90)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    kept = (ws / "build" / "test" / "cards.pdf").read_bytes()
    art.write_bytes(art.read_bytes()[:-400])  # its last scan and end marker gone: a viewer shows a strip of it
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "a.jpg" in err
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == kept


def test_a_jpeg_cut_short_on_a_layout_card_names_the_piece_not_an_href(tmp_path, capsys):
    """Trial 17: a cut-short JPEG on a card of a built-in layout stopped with "href: deck 'cards'
    piece 1 (…) front: cannot read the image …": an SVG attribute the designer never wrote, as a
    layout has no template. The line names the deck, the piece and its row, and the picture."""
    from PIL import Image

    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n  - {title: 竜, art: a.jpg}\n")
    (ws / "data" / "test" / "art").mkdir()
    art = ws / "data" / "test" / "art" / "a.jpg"
    Image.new("RGB", (300, 200), (10, 200, 10)).save(art, quality=90)
    art.write_bytes(art.read_bytes()[:-400])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "href" not in err, err
    assert re.fullmatch(r"pnpgen: error: deck 'cards' piece 1 \(竜, data/test/decks/cards\.yaml:4(:\d+)?\) front: cannot "
                        r"read the image art/a\.jpg: the file is cut short .*", err), err


def test_a_jpeg_with_data_after_its_end_is_placed_as_it_is(tmp_path):
    from PIL import Image

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.jpg}\n", PICTURE_FRONT, {})
    art = ws / "data" / "test" / "art" / "a.jpg"
    Image.new("RGB", (300, 200), (10, 200, 10)).save(art, quality=90)
    art.write_bytes(art.read_bytes() + b"a phone's trailer" * 50)  # (a motion photo's video, say)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (ws / "build" / "test" / "cards.pdf").is_file()



def test_a_png_of_a_hundred_thousand_chunks_is_one_line_at_once(tmp_path, capsys):
    """Each chunk is read one by one (by Pillow, three times a build): 300,000 empty text chunks
    took 6 s, a file of a few tens of MB minutes. More than libpng's own limit is an error."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    art = ws / "data" / "test" / "art" / "a.png"
    chunks = _chunks(art.read_bytes())
    art.write_bytes(_png([chunks[0], *[(b"tEXt", b"k\x00v")] * 1001, *chunks[1:]]))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "a.png" in err and "1,000 chunks" in err


def test_a_png_of_many_pixel_data_chunks_is_placed(tmp_path):
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)},
                           chunks=2000)  # (an encoder's 8 kB chunks: thousands in a big picture)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0


def _interlaced(png: bytes) -> bytes:
    """The same picture saved interlaced (Adam7, as GIMP's and Photoshop's 'Interlaced' option
    saves it): seven passes, each a smaller picture of rows with their filter byte."""
    from PIL import Image

    from pnpgen.data.picturebytes import ADAM7

    im = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = im.size
    pixels = im.tobytes()
    data = b""
    for x0, y0, dx, dy in ADAM7:
        for y in range(y0, h, dy):
            data += b"\0" + b"".join(pixels[(y * w + x) * 3:(y * w + x) * 3 + 3] for x in range(x0, w, dx))
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 1)
    return _png([(b"IHDR", header), (b"IDAT", zlib.compress(data)), (b"IEND", b"")])


def test_an_interlaced_png_is_placed_and_one_cut_short_refused(tmp_path, capsys):
    """An interlaced PNG's pixel data is longer than a plain one's (a filter byte on each row of
    each pass): it was refused as 'cut short or does not match its size'. It is placed with its
    own pixels; cut short, it is still one line."""
    from pypdf import PdfReader

    from pdfprobe import image_xobjects

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)},
                           size=(37, 23))  # (sides no pass divides evenly)
    art = ws / "data" / "test" / "art" / "a.png"
    plain = art.read_bytes()
    art.write_bytes(_interlaced(plain))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    (image,) = image_xobjects(PdfReader(ws / "build" / "test" / "cards.pdf")).values()
    from PIL import Image

    assert image.decode_as_image().convert("RGB").tobytes() == Image.open(io.BytesIO(plain)).convert("RGB").tobytes()
    art.write_bytes(_png(_pixels(_chunks(art.read_bytes()), lambda d: zlib.compress(zlib.decompress(d)[:-5]))))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "a.png" in err and "cut short" in err, err


# An SVG picture as Illustrator's SVG export (before CC) writes it: its namespaces as entities of the
# DOCTYPE, used in attributes; one more, a word of the text's
ILLUSTRATOR_SVG = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
\t<!ENTITY ns_svg "http://www.w3.org/2000/svg">
\t<!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
\t<!ENTITY word "Isle">
]>
<svg version="1.1" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="40px" height="40px" viewBox="0 0 40 40">
<rect width="40" height="40" fill="#8B1E1E"/>
<text x="2" y="20" font-family="sans-serif" font-size="6">Q&word;Q</text>
</svg>
"""


def test_an_svg_pictures_own_entities_print_and_one_naming_a_file_is_refused_at_its_line(tmp_path, capsys):
    """hostile47: an entity an SVG picture declares with its text was parsed unexpanded, so a text
    using it printed without it, unsaid (Q&word;Q printed QQ); one naming a file (an XXE,
    <!ENTITY x SYSTEM "file:///…">) was passed over just as silently. The first prints, as a
    browser draws it; the second is an error at the piece's art line, the file never read."""
    from pypdf import PdfReader

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {})
    art = ws / "data" / "test" / "art" / "a.svg"
    art.write_text(ILLUSTRATOR_SVG, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    text = PdfReader(ws / "build" / "test" / "cards.pdf").pages[0].extract_text()
    assert "QIsleQ" in text, text
    (tmp_path / "secret.txt").write_text("SECRET", encoding="utf-8")
    art.write_text(ILLUSTRATOR_SVG.replace('<!ENTITY word "Isle">', f'<!ENTITY word SYSTEM "file://{tmp_path}/secret.txt">'),
                   encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "data/test/decks/cards.yaml:7:20: pieces.1.art: cannot read the SVG art/a.svg: " \
        "Entity 'word' not defined" in err and "(expected the entity declared in the SVG with its text (one naming a " \
        "file, <!ENTITY x SYSTEM …>, is not read" in err, err
    assert "QIsleQ" in PdfReader(ws / "build" / "test" / "cards.pdf").pages[0].extract_text()  # the last good build kept


def test_an_svg_picture_past_the_parsers_limits_is_told_to_be_made_smaller_not_well_formed(tmp_path, capsys):
    """hostile47: a well-formed SVG picture with one attribute past libxml2's 10,000,000 characters
    (a 10 MB path, a big picture embedded as a data: address) was told "expected a well-formed SVG
    file", which it was; it is told the limit and how to stay under it."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {})
    (ws / "data" / "test" / "art" / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><path d="M0 0' + " L1 1" * 2_000_001 + '"/></svg>',
        encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:7:20: pieces.1.art: cannot read the SVG art/a.svg: " in err and "(more than pnpgen reads)" in err \
        and "(expected an SVG within the limits pnpgen reads (at most 10,000,000 characters in one attribute" in err, err


def test_a_compressed_svg_picture_named_svg_is_told_to_be_saved_uncompressed(tmp_path, capsys):
    """An .svgz renamed .svg was told "Start tag expected, '<' not found": it is told what it is."""
    import gzip

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {})
    (ws / "data" / "test" / "art" / "a.svg").write_bytes(
        gzip.compress(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40"/></svg>'))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:7:20: pieces.1.art: cannot read the SVG art/a.svg: it is a compressed " \
        "SVG (an .svgz, gzip) named .svg" in err and "(expected the SVG saved uncompressed" in err, err
