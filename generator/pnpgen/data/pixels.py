"""A picture's pixels as print takes them: a CMYK JPEG's inks as its file holds them, a 16-bit
grey as 8 bits, any picture as opaque sRGB over a background colour (its colour profile applied):
what data/artfile.py's print-ready bytes and pdf/imagestream.py's decoded pictures share."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image


def plain_cmyk(im: Image.Image) -> Image.Image:
    """A CMYK JPEG's inks as its file holds them. Pillow reads every CMYK JPEG's samples
    inverted, as Photoshop writes them under Adobe's APP14 marker; one without the marker holds
    them plain (0: no ink), as libjpeg writes and a PDF's readers (pdfium, Ghostscript) take
    them, so Pillow's reading of it is turned back. Any other picture as it is."""
    from PIL import ImageChops

    if im.mode != "CMYK" or im.format != "JPEG" or "adobe" in im.info:
        return im
    out = ImageChops.invert(im)
    out.info = dict(im.info)  # (its ICC profile, its EXIF orientation)
    return out


def srgb_as_is(im: Image.Image) -> bool:
    """Whether a picture's numbers are sRGB as they are: no colour profile, or an sRGB one. A PDF
    shows DeviceRGB numbers as sRGB, so an Adobe RGB or Display P3 photo placed as it is printed its
    greens and reds duller (and the CMYK export converted the wrong colours); such a picture is
    converted through its profile, as a PNG with one is."""
    from PIL import ImageCms

    icc = im.info.get("icc_profile")
    if not icc:
        return True
    try:
        return "srgb" in ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc))).lower()
    except (ImageCms.PyCMSError, OSError):
        return True  # an unusable profile: its numbers as they are, as the conversion would take them


def eight_bit_grey(im: Image.Image) -> Image.Image:
    """A 16-bit grey picture (Pillow's I;16) as 8-bit grey, its top 8 bits: Pillow's convert
    clips such samples (40000 of 65535 turns white); any other picture as it is."""
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        return im.convert("I").point(lambda v: v / 256).convert("L")
    return im


def opaque_rgb(im: Image.Image, background: tuple[int, int, int]) -> Image.Image:
    """Any Pillow image → 8-bit RGB with no alpha and no metadata."""
    from PIL import ImageCms

    icc, given = im.info.get("icc_profile"), im
    im = eight_bit_grey(im)
    if im.mode == "P" or "transparency" in im.info:
        im = im.convert("RGBA")
    if im.mode in ("RGBA", "LA", "PA", "La", "RGBa"):
        im = over_ground(im if im.mode == "RGBA" else im.convert("RGBA"), background)
    if icc and im.mode in ("RGB", "RGBA", "CMYK", "L"):
        try:  # colours as the file's profile means them, in sRGB
            profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            converted = ImageCms.profileToProfile(im.convert("RGB") if im.mode == "RGBA" else im, profile,
                                                  ImageCms.createProfile("sRGB"), outputMode="RGB")
            if converted is not None:
                im = converted
        except (ImageCms.PyCMSError, OSError):
            pass  # an unusable profile: the plain conversion below
    out = im if im.mode == "RGB" and im is not given else im.convert("RGB")  # (a picture made here is not copied again)
    out.info = {}
    return out


COMPOSITE_ROWS = 256  # a see-through picture is laid on its ground this many rows at a time


def over_ground(im: Image.Image, background: tuple[int, int, int]) -> Image.Image:
    """An RGBA picture laid on an opaque ``background``, as RGB: a band of rows at a time, so a
    picture of the most pixels pnpgen takes (60 million, a 470 kB PNG) costs its own pixels and the
    result's, not four copies of them (a build of one such card peaked at 1 GB); each pixel is
    Pillow's ``alpha_composite`` of it, as it was over the whole picture at once."""
    from PIL import Image

    out = Image.new("RGB", im.size, background)
    for top in range(0, im.height, COMPOSITE_ROWS):
        band = im.crop((0, top, im.width, min(im.height, top + COMPOSITE_ROWS)))
        ground = Image.new("RGBA", band.size, background + (255,))
        ground.alpha_composite(band)
        out.paste(ground.convert("RGB"), (0, top))
    return out


# The resolution ceiling (``max_dpi``): a raster picture placed finer than CAP_ABOVE times the
# ceiling is resampled to the ceiling at the size it prints (``ceiling_size``, ``resampled``).
CAP_ABOVE = 1.5  # the ratio of Adobe's PDF/X presets' "downsample to 300 ppi for images above 450 ppi"
JPEG_QUALITY = 90  # a resampled JPEG written again as a JPEG: its loss is already in it (artcap: 186 kB, 0.01 s)


def ceiling_size(pixels: tuple[float, float], dpi: float, max_dpi: float) -> tuple[int, int] | None:
    """The pixels a picture of ``pixels`` placed at ``dpi`` (the lower of its two sides') is
    resampled to under the ceiling ``max_dpi`` (0: none), its shape kept: None when it is placed
    at no more than ``CAP_ABOVE`` times the ceiling (kept as it is)."""
    if max_dpi <= 0 or dpi <= max_dpi * CAP_ABOVE:
        return None
    scale = max_dpi / dpi
    return max(1, round(pixels[0] * scale)), max(1, round(pixels[1] * scale))


def resampled(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``im`` resampled to ``size`` with Lanczos (the sharpest of Pillow's filters for a reduction
    of several times; bicubic, Adobe's presets' word, softens it more for 8 % less time): in its
    own mode when Pillow resamples it so (RGB, grey, CMYK: a CMYK picture's inks resampled as
    they are), else as RGBA."""
    from PIL import Image

    if im.mode not in ("RGB", "L", "CMYK", "RGBA", "LA"):
        im = im.convert("RGBA")
    out = im.resize(size, Image.Resampling.LANCZOS)
    out.info = dict(im.info)  # (its ICC profile: its colours converted after, as they were before)
    return out


TURNED_ROWS = 64  # upright rows written at a time by ``turned_png``
# each EXIF orientation's turn (Pillow's Transpose members by name, as ImageOps.exif_transpose
# takes them) and, for a band of upright rows [r0, r1), the picture's own band it comes from:
# its rows or its columns, counted from the start or from the far end
TURNS = {2: ("FLIP_LEFT_RIGHT", "rows", False), 3: ("ROTATE_180", "rows", True), 4: ("FLIP_TOP_BOTTOM", "rows", True),
         5: ("TRANSPOSE", "columns", False), 6: ("ROTATE_270", "columns", False), 7: ("TRANSVERSE", "columns", True),
         8: ("ROTATE_90", "columns", True)}


def turned_png(im: Image.Image, turned: int) -> bytes:
    """An RGB or grey picture turned upright by its EXIF orientation ``turned`` (2–8), written as
    a PNG a band of ``TURNED_ROWS`` rows at a time: the turned picture is never held whole beside
    the decoded one (``ImageOps.exif_transpose`` held both: a 60 MP photo turned a quarter, 240 MB
    twice over under ``--max-dpi none``). Each band is filtered by Pillow's PNG encoder (its
    adaptive filter a row, stored uncompressed, the row above it written with it so that its first
    row is filtered against the real one) and compressed into one stream: the same pixels as the
    picture turned whole."""
    import struct
    import zlib

    from PIL import Image

    name, along, from_end = TURNS[turned]
    method = Image.Transpose[name]
    w, h = im.size
    width, height = (h, w) if along == "columns" else (w, h)
    row_bytes = 1 + width * (3 if im.mode == "RGB" else 1)  # (its filter byte first)
    pack = zlib.compressobj(6)
    head = struct.pack(">IIBBBBB", width, height, 8, 2 if im.mode == "RGB" else 0, 0, 0, 0)
    out = io.BytesIO()
    out.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", head))
    span = h if along == "rows" else w
    for r0 in range(0, height, TURNED_ROWS):
        r1, first = min(r0 + TURNED_ROWS, height), max(r0 - 1, 0)  # (the row above the band with it)
        a, b = (span - r1, span - first) if from_end else (first, r1)
        band = im.crop((0, a, w, b) if along == "rows" else (a, 0, b, h)).transpose(method)
        written = io.BytesIO()
        band.save(written, "PNG", compress_level=0)
        band.close()
        rows = zlib.decompress(_idat(written.getvalue()))
        packed = pack.compress(memoryview(rows)[row_bytes * (r0 - first):])
        if packed:  # (an IDAT chunk a band: the compressed stream is never held twice over)
            out.write(_chunk(b"IDAT", packed))
    out.write(_chunk(b"IDAT", pack.flush()) + _chunk(b"IEND", b""))
    return out.getvalue()


def _idat(png: bytes) -> bytes:
    """A PNG's compressed pixel data: its IDAT chunks' bodies, joined."""
    import struct

    out, at = [], 8
    while at + 8 <= len(png):
        (n,) = struct.unpack(">I", png[at:at + 4])
        if png[at + 4:at + 8] == b"IDAT":
            out.append(png[at + 8:at + 8 + n])
        at += 12 + n
    return b"".join(out)


def _chunk(kind: bytes, body: bytes) -> bytes:
    import struct
    import zlib

    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)) & 0xFFFFFFFF)
