"""Every kind of picture pnpgen embeds, read back by two PDF readers (pdfium, poppler) pixel for
pixel against Pillow's reading of the file: the image dictionary (ColorSpace, Decode, Filter,
DecodeParms; PDF 1.7 §8.9.5, Table 89) says what the samples mean. Decode is the samples' own
mapping, whatever the filter (§8.9.5.2), so it stands beside a PNG's DecodeParms as beside a
JPEG's; a CMYK JPEG's samples under Adobe's APP14 marker are inverted (Photoshop's convention,
which Pillow assumes for every CMYK JPEG): [1 0 1 0 1 0 1 0]; without the marker they are plain
(libjpeg's), as the readers take them: no Decode, and Pillow's reading turned back (plain_cmyk)."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from pnpgen.data.pixels import plain_cmyk
from pnpgen.pdf import draw, imagestream, raster

W, H = 24, 16


def _blocks(mode: str, colours: list) -> Image.Image:
    """Flat blocks of ``colours`` side by side (a JPEG keeps a flat block's colour)."""
    image = Image.new(mode, (W, H), colours[0])
    step = W // len(colours)
    for i, colour in enumerate(colours):
        image.paste(colour, (i * step, 0, (i + 1) * step, H))
    return image


def _saved(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def _without_adobe(jpeg: bytes) -> bytes:
    """A JPEG with its Adobe APP14 segment cut out: its CMYK samples are then plain, not inverted."""
    at = jpeg.index(b"\xff\xee")
    length = int.from_bytes(jpeg[at + 2:at + 4], "big")
    return jpeg[:at] + jpeg[at + 2 + length:]


def _grey16() -> bytes:
    """A 16-bit grey PNG (Pillow's mode I;16): 40000 is 155 in 8 bits, not white."""
    blocks = np.asarray(_blocks("L", [0, 1, 2, 3]), dtype=np.uint16)
    samples = np.array([2570, 23130, 40000, 64250], dtype=np.uint16)[blocks]
    return _saved(Image.frombytes("I;16", (W, H), samples.astype("<u2").tobytes()), "PNG")


RGB = [(230, 20, 30), (20, 160, 60), (40, 60, 200), (250, 250, 250)]
CMYK = [(0, 0, 0, 0), (255, 0, 0, 0), (0, 200, 255, 0), (0, 0, 0, 255)]
KINDS = {  # the picture; True: its pixels are compared with flat CMYK fills the reader draws
    "grey PNG": (lambda: _saved(_blocks("L", [10, 90, 170, 250]), "PNG"), False),
    "RGB PNG": (lambda: _saved(_blocks("RGB", RGB), "PNG"), False),
    "grey JPEG": (lambda: _saved(_blocks("L", [10, 90, 170, 250]), "JPEG", quality=100), False),
    "RGB JPEG": (lambda: _saved(_blocks("RGB", RGB), "JPEG", quality=100, subsampling=0), False),
    "CMYK JPEG (Adobe)": (lambda: _saved(_blocks("CMYK", CMYK), "JPEG", quality=100), True),
    "CMYK JPEG (no Adobe marker)": (lambda: _without_adobe(_saved(_blocks("CMYK", CMYK), "JPEG", quality=100)), True),
    "palette PNG": (lambda: _saved(_blocks("RGB", RGB).convert("P", palette=Image.Palette.ADAPTIVE), "PNG"), False),
    "1-bit PNG": (lambda: _saved(_blocks("L", [0, 255, 0, 255]).convert("1"), "PNG"), False),
    "16-bit grey PNG": (_grey16, False),
    "16-bit RGB PNG": (lambda: _rgb16(), False),
    "RGBA PNG": (lambda: _saved(_blocks("RGBA", [(*c, 128) for c in RGB]), "PNG"), False),
    "grey and alpha PNG": (lambda: _saved(_blocks("LA", [(10, 255), (90, 0), (170, 60), (250, 255)]), "PNG"), False),
}


def _rgb16() -> bytes:
    """A 16-bit RGB PNG (Pillow reads it as 8 bits a sample), written by hand: Pillow writes none."""
    import struct
    import zlib

    pixels = np.asarray(_blocks("RGB", RGB), dtype=np.uint16) * 257
    rows = b"".join(b"\x00" + row.astype(">u2").tobytes() for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (imagestream.PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _expected(data: bytes) -> np.ndarray:
    """What the picture shows, read by Pillow: its alpha dropped (drawImage's default), a 16-bit
    grey's samples to 8 bits."""
    with Image.open(io.BytesIO(data)) as picture:
        if picture.mode.startswith("I"):
            return np.repeat((np.asarray(picture, dtype=np.uint32) // 257)[..., None], 3, axis=2).astype(np.int16)
        return np.asarray(picture.convert("RGBA" if "A" in picture.mode or picture.mode == "P" else picture.mode)
                          .convert("RGB") if picture.mode != "CMYK" else picture).astype(np.int16)


def _pdf(data: bytes | None, fills: list | None = None) -> bytes:
    """A page of W×H pt showing the picture at 1 pt a pixel; or flat DeviceCMYK fills in its blocks."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    c = Canvas(out, pagesize=(W, H), invariant=1)
    if data is not None:
        draw.place_image(c, data, 0, 0, W, H, raster.ImageStreams())
    for i, colour in enumerate(fills or []):
        c.setFillColorCMYK(*(v / 255 for v in colour))
        c.rect(i * W // len(fills), 0, W // len(fills), H, stroke=0, fill=1)
    c.showPage()
    c.save()
    return out.getvalue()


def _pdfium(pdf: bytes) -> np.ndarray:
    import pypdfium2 as pdfium

    return np.asarray(pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")).astype(np.int16)


def _poppler(pdf: bytes, tmp_path) -> np.ndarray:
    (tmp_path / "p.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "72", "-png", "-singlefile", str(tmp_path / "p.pdf"), str(tmp_path / "p")],
                   check=True, timeout=60)
    return np.asarray(Image.open(tmp_path / "p.png").convert("RGB")).astype(np.int16)


READERS = ["pdfium", pytest.param("poppler", marks=pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                                                      reason="poppler-utils not installed"))]


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_picture_reads_back_as_pillow_reads_it(kind, reader, tmp_path):
    make, cmyk = KINDS[kind]
    data = make()
    read = _pdfium if reader == "pdfium" else lambda pdf: _poppler(pdf, tmp_path)
    shown = read(_pdf(data))
    assert shown.shape == (H, W, 3)
    step = W // 4
    inside = np.zeros((H, W), dtype=bool)  # each block but its edges (a reader may smooth across them)
    for i in range(4):
        inside[1:H - 1, i * step + 1:(i + 1) * step - 1] = True
    if cmyk:  # the reader's own CMYK → RGB: the picture's blocks as flat fills of Pillow's CMYK values
        with Image.open(io.BytesIO(data)) as opened:
            picture = plain_cmyk(opened)
            values = [picture.getpixel((i * step + step // 2, H // 2)) for i in range(4)]
        want = read(_pdf(None, values))
    else:
        want = _expected(data)
    diff = np.abs(shown - want)[inside]
    assert diff.max() <= 6, (kind, reader, int(diff.max()), shown[H // 2, step // 2::step], want[H // 2, step // 2::step])


def test_a_cmyk_jpeg_under_adobes_marker_carries_the_inverting_decode_array_and_a_png_its_decode_parms():
    """PDF 1.7 §8.9.5.2: Decode maps the samples whatever the filter; a CMYK JPEG's samples under
    Adobe's APP14 marker are inverted (Photoshop's CMYK JPEGs), so it gets [1 0 1 0 1 0 1 0]; one
    without the marker holds them plain (libjpeg's; pdfium and Ghostscript print a PDF's samples
    as they are), so it gets none (fixesK: it got one, and printed inverted); a PNG's own pixels
    get their predictors in DecodeParms and no Decode."""
    assert imagestream.make_stream(KINDS["CMYK JPEG (Adobe)"][0]()).decode == (1, 0) * 4
    assert imagestream.make_stream(KINDS["CMYK JPEG (no Adobe marker)"][0]()).decode is None
    png = imagestream.make_stream(KINDS["RGB PNG"][0]())
    assert png.parms is not None and png.decode is None
