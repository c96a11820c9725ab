"""Issue 22: a picture is decoded and compressed once per content, ever — its PDF image stream
kept in build/.cache/images and placed by every document of every later build — its size and
orientation are read from the header alone, and ``pnpgen list`` never opens the art."""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, picture_workspace, run
from pdfprobe import image_xobjects, reader
from pnpgen.data import art as art_files
from pnpgen.data import artfile
from pnpgen.pdf import draw, imagestream, raster

DECK = PICTURE_DECK_YAML
FRONT = PICTURE_FRONT
PDFS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")
COLOURS = {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)}


def pieces(edited: str = "") -> str:
    return "".join(f"  - {{name: 札{i}{edited if i == 1 else ''}, art: {name}, count: 2}}\n"
                   for i, name in enumerate(COLOURS, 1))


def workspace(root: Path, chunks: int = imagestream.MAX_PIECES + 4) -> Path:
    """Pictures in more pieces than are placed from their files: each gets a stream in the cache."""
    return picture_workspace(root, pieces(), FRONT, COLOURS, size=(500, 360), chunks=chunks)


@pytest.fixture
def made(monkeypatch) -> list[bytes]:
    """Every picture whose stream is made (decoded and compressed) from now on."""
    calls: list[bytes] = []
    real = raster.make_stream

    def counted(data: bytes, key: str | None = None) -> imagestream.ImageStream:
        calls.append(data)
        return real(data, key)

    monkeypatch.setattr(raster, "make_stream", counted)
    return calls


def build(ws: Path, out: Path) -> None:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0


def test_each_picture_is_made_once_for_four_documents_and_never_again(tmp_path, made):
    ws = workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    assert len(made) == 3 and len(set(made)) == 3  # three pictures, four PDFs each showing all three
    for name in PDFS:
        assert len(image_xobjects(reader(tmp_path / "b" / "test" / name))) == 3
    assert len(list((tmp_path / "b" / ".cache" / "images").rglob("*.bin"))) == 3

    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(DECK + pieces("改"), encoding="utf-8")
    made.clear()
    build(ws, tmp_path / "b")
    assert made == []  # every document rewritten, every picture placed from the cache
    build(ws, tmp_path / "cold")  # the same edit built into an empty folder: the same bytes
    assert len(made) == 3
    for name in PDFS:
        assert (tmp_path / "b" / "test" / name).read_bytes() == (tmp_path / "cold" / "test" / name).read_bytes()


def test_a_damaged_stream_in_the_cache_is_made_again_not_trusted(tmp_path, made):
    ws = workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    good = {name: (tmp_path / "b" / "test" / name).read_bytes() for name in PDFS}
    entry = sorted((tmp_path / "b" / ".cache" / "images").rglob("*.bin"))[0]
    data = bytearray(entry.read_bytes())
    data[-10] ^= 0xFF  # one byte of the stream changed
    entry.write_bytes(bytes(data))
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(DECK + pieces("改"), encoding="utf-8")
    build(ws, tmp_path / "b")
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(DECK + pieces(), encoding="utf-8")
    made.clear()
    build(ws, tmp_path / "b")
    assert made == []
    assert {name: (tmp_path / "b" / "test" / name).read_bytes() for name in PDFS} == good
    assert entry.read_bytes() != bytes(data)  # rewritten whole


def _picture(mode: str, fmt: str, **save) -> bytes:
    im = Image.new("RGB", (64, 48), (10, 120, 230))
    im.paste((250, 250, 0), (0, 0, 32, 24))
    im.paste((200, 30, 90), (40, 30, 64, 48))
    buf = io.BytesIO()
    im.convert(mode).save(buf, fmt, **save)
    return buf.getvalue()


PICTURES = {  # how the stream is made: the PNG's own pixel data, the JPEG's own, or by ReportLab
    "RGB PNG": (lambda: _picture("RGB", "PNG"), "own PNG"),
    "grey PNG": (lambda: _picture("L", "PNG"), "own PNG"),
    "palette PNG": (lambda: _picture("P", "PNG"), "ReportLab"),  # decoded and compressed
    "RGBA PNG": (lambda: _picture("RGBA", "PNG"), "ReportLab"),
    "grey and alpha PNG": (lambda: _picture("LA", "PNG"), "ReportLab"),
    "CMYK TIFF": (lambda: _picture("CMYK", "TIFF"), "ReportLab"),
    "RGB JPEG": (lambda: _picture("RGB", "JPEG", quality=95), "own JPEG"),
    "grey JPEG": (lambda: _picture("L", "JPEG", quality=95), "own JPEG"),
}


def _drawn_both_ways(data: bytes) -> list[bytes]:
    """A one-page PDF showing the picture as ``canvas.drawImage`` places it, then one placing
    pnpgen's stream of it (``draw.place_image``)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    pdfs = []
    for ours in (False, True):
        out = io.BytesIO()
        c = Canvas(out, pagesize=(200, 150), invariant=1)
        if ours:
            draw.place_image(c, data, 10, 20, 128, 96, raster.ImageStreams())
        else:
            c.drawImage(ImageReader(io.BytesIO(data)), 10, 20, 128, 96)
        c.showPage()
        c.save()
        pdfs.append(out.getvalue())
    return pdfs


@pytest.mark.parametrize("kind", PICTURES)
def test_a_placed_stream_shows_the_pixels_draw_image_shows(kind, monkeypatch):
    """The picture placed from its stream renders pixel for pixel as canvas.drawImage draws it;
    a decoded one is the very stream drawImage embeds with Flate alone (as pnpgen writes PDF)."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "useA85", 0)

    make, how = PICTURES[kind]
    data = make()
    pixels, pdfs = [], _drawn_both_ways(data)
    for pdf in pdfs:
        page = pdfium.PdfDocument(pdf)[0]
        pixels.append(page.render(scale=1).to_pil().convert("RGB").tobytes())
    assert pixels[0] == pixels[1]
    (image,) = image_xobjects(PdfReader(io.BytesIO(pdfs[1]))).values()
    filters = image["/Filter"]
    if how == "own PNG":  # the PNG's own compressed pixels, not compressed again
        assert filters == ["/FlateDecode"] and image["/DecodeParms"][0]["/Predictor"] == 15
        assert image.get_data() == Image.open(io.BytesIO(data)).tobytes()
    elif how == "own JPEG":
        assert filters == ["/DCTDecode"] and image._data == data
    else:  # the very stream drawImage embeds: same dictionary, same compressed bytes
        (drawn,) = image_xobjects(PdfReader(io.BytesIO(pdfs[0]))).values()
        assert "/DecodeParms" not in image
        assert {k: image[k] for k in image if k != "/Length"} == {k: drawn[k] for k in drawn if k != "/Length"}
        assert image._data == drawn._data


@pytest.mark.parametrize("a85", [0, 1])
def test_a_decoded_picture_is_flate_alone_whatever_reportlab_was_last_told(a85, monkeypatch):
    """The stream of a picture pnpgen decodes does not depend on ReportLab's ASCII85 switch (which
    a rulebook or fallback face in the same process turns off): one picture, one stream."""
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "useA85", a85)
    stream = imagestream.make_stream(PICTURES["RGBA PNG"][0]())
    assert stream.filters == ("FlateDecode",)
    assert zlib.decompress(stream.content) == Image.open(io.BytesIO(PICTURES["RGBA PNG"][0]())).convert("RGB").tobytes()


def test_a_picture_reportlab_draws_is_named_as_draw_image_names_it():
    """A picture made into a stream by ReportLab (a palette PNG) keeps the resource name
    ``canvas.drawImage`` gives it (the MD5 of its pixels and its mask, None), so a page that
    places it reads as one drawImage wrote."""
    from pypdf import PdfReader
    from reportlab.lib.utils import ImageReader

    data = PICTURES["palette PNG"][0]()
    names = [sorted(PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/XObject"]) for pdf in _drawn_both_ways(data)]
    pixels = ImageReader(io.BytesIO(data)).getRGBData()
    assert names[1] == names[0] == [f"/FormXob.{hashlib.md5(pixels + b'None').hexdigest()}"]


def _png_with_late_exif(orientation: int) -> bytes:
    """A 30×20 PNG whose eXIf chunk (orientation) comes after its pixels, before IEND."""
    buf = io.BytesIO()
    Image.new("RGB", (30, 20), (1, 2, 3)).save(buf, "PNG")
    png = buf.getvalue()
    exif = Image.Exif()
    exif[artfile.ORIENTATION] = orientation
    body = exif.tobytes()
    body = body[6:] if body.startswith(b"Exif\x00\x00") else body
    chunk = struct.pack(">I", len(body)) + b"eXIf" + body + struct.pack(">I", zlib.crc32(b"eXIf" + body))
    end = png.rindex(b"IEND") - 4
    return png[:end] + chunk + png[end:]


def test_size_and_orientation_come_from_the_header_without_decoding(tmp_path, monkeypatch):
    from PIL import ImageFile

    folder = tmp_path / "game" / "art"
    folder.mkdir(parents=True)
    (folder / "late.png").write_bytes(_png_with_late_exif(6))
    (folder / "plain.png").write_bytes(_png_with_late_exif(1))

    def no_decoding(self):
        raise AssertionError("pixels decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", no_decoding)
    files = art_files.ArtFolder(tmp_path / "game")
    assert files.info("late.png").size == (20.0, 30.0)  # turned a quarter: width and height swap
    assert files.info("plain.png").size == (30.0, 20.0)
    # an opaque RGB PNG standing upright is embedded as it is: no decoding, no re-encoding
    raw = (folder / "plain.png").read_bytes()
    assert artfile.print_bytes(raw) == raw


def test_a_turned_png_is_still_turned_upright_in_print(tmp_path):
    raw = _png_with_late_exif(6)
    out = Image.open(io.BytesIO(artfile.print_bytes(raw)))
    assert out.size == (20, 30)


def test_list_never_opens_the_art(tmp_path, monkeypatch, capsys):
    ws = workspace(tmp_path / "ws")

    def no_pictures(*args, **kwargs):
        raise AssertionError("a picture was opened")

    monkeypatch.setattr(Image, "open", no_pictures)
    assert run(ws, "list") == 0
    assert "cards" in capsys.readouterr().out


def test_a_picture_is_placed_from_its_own_file_only_while_the_file_is_what_was_hashed(tmp_path):
    """An art file shown as it is becomes pieces of itself, no stream made; one saved again since
    it was hashed (its hash now another) is placed from a stream made of the bytes the face holds."""
    data = _picture("RGB", "PNG")
    key = hashlib.sha256(data).hexdigest()
    art = tmp_path / "p.png"
    art.write_bytes(data)
    for now, own in ((key, True), ("0" * 64, False)):
        streams = raster.ImageStreams(tmp_path / f"cache-{own}", "test")
        streams.own = {key: art}
        streams.own_hash = lambda path, st, now=now: now
        placed = streams.locate(data)
        if own:
            assert isinstance(placed.part, tuple) and all(p.path == str(art) for p in placed.part)
            assert streams.made == 0 and not (tmp_path / f"cache-{own}").exists()
        else:
            assert not isinstance(placed.part, tuple) and streams.made == 1
        stream = b"".join(bytes(p) if isinstance(p, bytes) else b"".join(p.chunks())
                          for p in (placed.part if isinstance(placed.part, tuple) else (placed.part,)))
        assert stream == imagestream.make_stream(data).content  # the same stream either way


def test_an_edit_measures_no_art_file_a_build_measured_before_and_a_repainted_one_again(tmp_path, monkeypatch):
    """The art files' sizes are kept by their content hash (.cache/art/<game>.pack.json): a text
    edit opens no picture, not the deck's, nor that of the face it renders again (its template's
    image() measures it by the same kept sizes: imports46); a repainted picture (another size) is
    measured again."""
    measured: list[str] = []
    real = art_files._measure

    def counted(path, *args, **kwargs):
        measured.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(art_files, "_measure", counted)
    ws = workspace(tmp_path / "ws", chunks=1)
    build(ws, tmp_path / "b")
    assert set(measured) == set(COLOURS)
    assert (tmp_path / "b" / ".cache" / "art" / "test.pack.json").is_file()
    measured.clear()
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(DECK + pieces("改"), encoding="utf-8")
    build(ws, tmp_path / "b")
    assert measured == []  # card 1's face rendered again, a.png's size kept; not b.png, c.png by the deck
    measured.clear()
    Image.new("RGB", (250, 180), (9, 9, 9)).save(ws / "data" / "test" / "art" / "b.png")
    build(ws, tmp_path / "b")
    assert set(measured) == {"b.png"}
    build(ws, tmp_path / "cold")  # the same files as a build that measured everything
    for name in PDFS:
        assert (tmp_path / "b" / "test" / name).read_bytes() == (tmp_path / "cold" / "test" / name).read_bytes()


def _jpeg_frame_changed(precision: int | None = None, marker: int | None = None) -> bytes:
    """An 8-bit baseline JPEG with its frame header's precision or marker changed."""
    out = io.BytesIO()
    Image.new("RGB", (16, 12), (200, 40, 40)).save(out, "JPEG", quality=90)
    data = bytearray(out.getvalue())
    at = data.index(b"\xff\xc0")
    if precision is not None:
        data[at + 4] = precision
    if marker is not None:
        data[at + 1] = marker
    return bytes(data)


@pytest.mark.parametrize("precision, marker, kept", [
    (None, None, True), (None, 0xC2, True),  # baseline, progressive: the JPEG's own bytes
    (12, None, False),  # 12 bits a sample: a PDF's DCTDecode is 8 (it was embedded, and shown as garbage)
    (None, 0xC3, False), (None, 0xC9, False),  # lossless, arithmetic coding: not every reader's
])
def test_only_an_8_bit_huffman_jpeg_is_placed_as_it_is(precision, marker, kept):
    data = _jpeg_frame_changed(precision, marker)
    placed = imagestream.as_it_is(lambda at, n: data[at:at + n], len(data))
    assert (placed is not None) == kept, placed
    if kept:
        assert placed is not None and placed[0].filters == ("DCTDecode",) and (placed[0].width, placed[0].height) == (16, 12)


def test_the_documents_are_drawn_without_the_pictures_converting_kept(tmp_path, monkeypatch):
    """The print-ready pictures the art folder keeps while the faces convert (up to 64 MB) are let
    go of before the documents are drawn (with --jobs 1 the build's own process converts them and
    draws every document); the documents still show every picture."""
    from pnpgen.engine import game

    ws = picture_workspace(tmp_path / "ws", pieces(), FRONT, COLOURS)
    folders: list[art_files.ArtFolder] = []
    resolve = art_files.ArtFolder.resolve
    monkeypatch.setattr(art_files.ArtFolder, "resolve", lambda self, *a, **k: folders.append(self) or resolve(self, *a, **k))
    held: list[int] = []
    write = game.write_documents
    monkeypatch.setattr(game, "write_documents",
                        lambda *a, **k: held.append(sum(len(b) for f in set(folders) for b in f._bytes.values())) or write(*a, **k))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert folders and held == [0], held
    assert len(image_xobjects(reader(ws / "build" / "test" / "cards.pdf"))) == len(COLOURS)
