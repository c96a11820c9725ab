"""A picture as a PDF image stream: what a PDF can show as it is, else the picture decoded.

A JPEG is embedded as its own DCT data and an 8-bit RGB or grey PNG as its own compressed pixels
(its IDAT chunks, with the PNG predictors named in DecodeParms, PDF 1.7 §7.4.4.4), so neither is
decoded or compressed at all (``as_it_is`` reads only their headers, in memory or from a file);
any other picture is decoded and compressed as ReportLab's ``canvas.drawImage`` would
(``_decoded``). pdf/raster.py keeps the streams made here by the picture's hash and places them.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from pnpgen.data.picturebytes import PNG_SIGNATURE
from pnpgen.data.pixels import eight_bit_grey, plain_cmyk

# A picture whose stream lies in more pieces of its file (a PNG written in 8 kB IDAT chunks) is
# copied into one stream file of the cache: each piece costs a copy every time a document is written.
MAX_PIECES = 8

@dataclass(frozen=True)
class ImageStream:
    """One picture as a PDF image XObject: its name (ReportLab's: MD5 of the decoded pixels),
    size in pixels, bits per component, colour space, filters and the encoded stream."""

    name: str
    width: int
    height: int
    bits: int
    colour_space: str  # DeviceRGB | DeviceGray | DeviceCMYK
    filters: tuple[str, ...]  # e.g. ("ASCII85Decode", "FlateDecode")
    decode: tuple[int, ...] | None  # a Decode array (Adobe's inverted CMYK JPEGs), else None
    content: bytes
    parms: dict[str, int] | None = None  # DecodeParms of a PNG's own pixel data (its predictors)

    def header(self) -> dict:
        return {"name": self.name, "width": self.width, "height": self.height, "bits": self.bits,
                "colour_space": self.colour_space, "filters": list(self.filters),
                "decode": list(self.decode) if self.decode is not None else None, "parms": self.parms}

def make_stream(data: bytes, key: str | None = None) -> ImageStream:
    """The picture ``data`` (PNG or JPEG bytes) as an image stream. A JPEG is its own DCT data;
    a non-interlaced 8-bit RGB or grey PNG is its own compressed pixel data (the IDAT chunks,
    read with the PNG predictors): neither is decoded nor compressed again. Any other picture
    is decoded and compressed as ``canvas.drawImage`` does (the same stream, made with Pillow).
    ``key``: the SHA-256 of ``data`` when known, which names a stream taken as it is (else the
    MD5 of ``data`` does: a second pass over the picture)."""
    own = as_it_is(lambda at, n: data[at:at + n], len(data), key[:32] if key is not None else None)
    if own is None:
        return _decoded(data)
    head, spans = own
    content = data if spans == ((0, len(data)),) else b"".join(data[at:at + n] for at, n in spans)
    return replace(head, name=head.name or _name(data), content=content)


def as_it_is(read: Callable[[int, int], bytes], size: int, name: str | None = None
             ) -> tuple[ImageStream, tuple[tuple[int, int], ...]] | None:
    """A picture a PDF shows as it is — a JPEG (its DCT data), a non-interlaced 8-bit RGB or grey
    PNG without a transparency chunk (its IDAT chunks' data) — as its stream's header (``content``
    empty, ``name`` as given or empty) and where the stream lies in the picture's bytes
    ((offset, length) pieces); None for any other picture. ``read(at, n)``: n bytes at ``at`` of
    the picture (in memory, or a file: only the headers are read, never the pixels)."""
    start = read(0, 8)
    if start.startswith(b"\xff\xd8"):
        info = _jpeg_info(read, size)
        if info is None:
            return None
        width, height, components, adobe = info
        # a CMYK JPEG's samples are inverted under Adobe's APP14 marker (Photoshop's), plain without
        # it (libjpeg's; pdfium and Ghostscript read a PDF's samples as they are, Decode applied)
        return (ImageStream(name or "", width, height, 8, COMPONENTS[components], ("DCTDecode",),
                            (1, 0) * 4 if components == 4 and adobe else None, b""), ((0, size),))
    if start != PNG_SIGNATURE:
        return None
    png = _png_pixels(read, size)
    if png is None:
        return None
    width, height, colours, spans = png
    return (ImageStream(name or "", width, height, 8, COMPONENTS[colours], ("FlateDecode",), None, b"",
                        {"Predictor": 15, "Colors": colours, "BitsPerComponent": 8, "Columns": width}), spans)


def piece_hashes(data: bytes) -> list[str] | None:
    """The SHA-256 (hex) of each piece of a picture's bytes that a document copies from its file
    (``as_it_is``; ``ImageStreams`` places it so in at most ``MAX_PIECES``), worked out from the
    bytes in memory: a worker that converted the face has them, and the documents' digests then
    read no art file again (1,000 cards: 300 MB hashed in the build's own process). None for a
    picture not placed from its pieces."""
    found = as_it_is(lambda at, n: data[at:at + n], len(data))
    if found is None or len(found[1]) > MAX_PIECES:
        return None
    return [hashlib.sha256(data[at:at + n]).hexdigest() for at, n in found[1]]

COMPONENTS = {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}

def _name(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def _png_pixels(read: Callable[[int, int], bytes], size: int) -> tuple[int, int, int, tuple[tuple[int, int], ...]] | None:
    """(width, height, colours, where its IDAT chunks' data lie) of a PNG a PDF can show as it
    is — 8 bits, RGB (colours 3) or grey (1), not interlaced, no transparency chunk —, else None."""
    at, idat = 8, []
    width = height = colours = 0
    while at + 8 <= size:
        length, kind = struct.unpack(">I4s", read(at, 8))
        if at + 8 + length > size:
            return None
        if kind == b"IHDR":
            if length < 13:
                return None
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", read(at + 8, 13))
            if depth != 8 or interlace or colour_type not in (0, 2):
                return None
            colours = 3 if colour_type == 2 else 1
        elif kind == b"tRNS":
            return None
        elif kind == b"IDAT" and length:
            idat.append((at + 8, length))
        elif kind == b"IEND":
            break
        at += length + 12
    return (width, height, colours, tuple(idat)) if idat and width and height and colours else None


def _jpeg_info(read: Callable[[int, int], bytes], size: int) -> tuple[int, int, int, bool] | None:
    """(width, height, components, Adobe's APP14 marker before the frame) from a JPEG's frame
    header, else None."""
    at, adobe = 2, False
    while at + 4 <= size:
        head = read(at, 4)
        if head[0] != 0xFF:
            return None
        marker = head[1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        (length,) = struct.unpack(">H", head[2:4])
        if marker == 0xEE and length >= 7:  # APP14: "Adobe" (which Pillow's info["adobe"] reads too)
            adobe = adobe or read(at + 4, 5) == b"Adobe"
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if at + 10 > size:
                return None
            frame = read(at + 4, 6)
            height, width = struct.unpack(">HH", frame[1:5])
            components = frame[5]
            # as it is only an 8-bit Huffman-coded JPEG (baseline, extended, progressive): a PDF's
            # DCTDecode is 8 bits a sample, and readers do not all take lossless or arithmetic
            # coding; any other is decoded (a 12-bit one was shown as garbage)
            plain = marker in (0xC0, 0xC1, 0xC2) and frame[0] == 8
            return (width, height, components, adobe) if plain and components in COMPONENTS and width and height else None
        at += 2 + length
    return None


def _decoded(data: bytes) -> ImageStream:
    """``data`` decoded to 8-bit pixels and Flate-compressed, as ``canvas.drawImage`` embeds a
    picture (same pixels, name and bytes), built from Pillow's public API: its alpha is dropped
    (drawImage's default mask), a 16-bit grey's samples become 8 bits, modes other than grey,
    RGB and CMYK become RGB."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as picture:
        grey = eight_bit_grey(plain_cmyk(picture))  # (a 16-bit grey, clipped by convert, came out white)
        mode = grey.mode
        image = grey.convert(mode[:-1] if mode in ("LA", "RGBA") else mode if mode in DECODED else "RGB")
        pixels = image.tobytes()
    name = _name(pixels + b"None")  # drawImage's name: the MD5 of the pixels and str(mask), None
    return ImageStream(name, image.width, image.height, 8, DECODED[image.mode], ("FlateDecode",), None,
                       zlib.compress(pixels))


DECODED = {"L": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK"}  # Pillow mode -> colour space
