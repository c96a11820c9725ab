"""An opaque PNG's size read from its header without Pillow (data/picturebytes.py
``opaque_png_size``, for converting a face's picture, svg/image.py): Pillow's own size for every
plainly opaque PNG, and None — Pillow opens it then — for any picture that may be see-through, is
damaged, or holds a chunk Pillow limits."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, PngImagePlugin

from pnpgen.data.picturebytes import opaque_png_size


def png(mode: str, size=(37, 21), **options) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size).save(out, "PNG", **options)
    return out.getvalue()


@pytest.mark.parametrize("mode", ["RGB", "L", "I;16", "1"])
@pytest.mark.parametrize("options", [{}, {"dpi": (300, 300)}, {"optimize": True}])
def test_an_opaque_pngs_size_is_pillows(mode, options):
    data = png(mode, **options)
    with Image.open(io.BytesIO(data)) as im:
        assert opaque_png_size(data) == im.size == (37, 21)
        assert im.mode not in ("RGBA", "LA", "PA") and "transparency" not in im.info


def with_chunk(data: bytes, chunk: bytes, body: bytes) -> bytes:
    """``data`` with a chunk put before its pixels (after IHDR), its CRC right."""
    at = 8 + 12 + 13
    made = struct.pack(">I", len(body)) + chunk + body + struct.pack(">I", zlib.crc32(chunk + body))
    return data[:at] + made + data[at:]


def test_a_picture_that_may_be_see_through_or_is_damaged_is_left_to_pillow():
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "drawn by hand")
    cases = {
        "RGBA": png("RGBA"), "LA": png("LA"), "P": png("P"),
        "tRNS": png("RGB", transparency=(0, 0, 0)),
        "text": png("RGB", pnginfo=info),
        "iCCP": with_chunk(png("RGB"), b"iCCP", b"p\0\0" + zlib.compress(b"profile")),
        "JPEG": b"\xff\xd8\xff\xe0" + bytes(20),
        "cut": png("RGB")[:30],
    }
    damaged = bytearray(png("RGB"))
    damaged[8 + 8 + 4] ^= 1  # IHDR's width changed, its CRC not
    cases["CRC"] = bytes(damaged)
    assert {name: opaque_png_size(data) for name, data in cases.items()} == dict.fromkeys(cases)
    assert opaque_png_size(with_chunk(png("RGB"), b"gAMA", struct.pack(">I", 45455))) == (37, 21)  # a plain chunk
