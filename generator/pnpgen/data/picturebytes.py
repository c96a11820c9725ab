"""A picture's bytes as the PDF gets them: named by their SHA-256 once per bytes object
(``picture_hash``), and checked whole before they are placed as they are (``checked_whole``: a
file cut short, a PNG's pixel data broken or not as long as its size says), what it found kept
on this machine by the file's content."""

from __future__ import annotations

import hashlib
import os
import struct
import threading
import zlib
from collections import OrderedDict

from pnpgen import usercache

HASHED_BUDGET = 16 * 2**20  # picture bytes kept with their hash by ``picture_hash`` (the least recently hashed go first)


class _Hashed:
    """The SHA-256 of the bytes objects hashed last, by identity (each kept while its hash is, so
    its ``id`` names no other bytes), within ``HASHED_BUDGET``."""

    def __init__(self) -> None:
        self.known: OrderedDict[int, tuple[bytes, str]] = OrderedDict()
        self.held = 0
        self.lock = threading.Lock()  # the build's threads (cache stores, imposing) hash too

    def forked(self) -> None:
        """In a child forked while another thread held the lock (engine/documents.py forks): a lock of its own."""
        self.lock = threading.Lock()

    def get(self, data: bytes) -> str:
        with self.lock:
            known = self.known.get(id(data))
            if known is not None and known[0] is data:
                return known[1]
        digest = hashlib.sha256(data).hexdigest()
        if len(data) <= HASHED_BUDGET:
            with self.lock:
                old = self.known.pop(id(data), None)
                self.held += len(data) - (len(old[0]) if old is not None else 0)
                self.known[id(data)] = (data, digest)
                while self.held > HASHED_BUDGET:
                    self.held -= len(self.known.popitem(last=False)[1][0])
        return digest


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"  # a PNG file's first eight bytes

_HASHED = _Hashed()
os.register_at_fork(after_in_child=_HASHED.forked)


def picture_hash(data: bytes) -> str:
    """The SHA-256 (hex) of a picture's bytes, worked out once for the bytes object: a face's
    picture is named by it where the art folder reads it, where its PNG is checked, where the
    face's form stream and its cache record name it — one pass over 0.3 MB, not four (1,000
    illustrated cards: some 1.5 s of the workers' CPU)."""
    return _HASHED.get(data)


PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # by colour type


CHECKED_KIND = "pictures-checked"  # the machine's cache (usercache.py): what _broken found, by the file's content
CHECK_GENERATION = b"2"  # bumped when the check changes: 2, interlaced PNGs measured pass by pass


def checked_whole(raw: bytes, kind: str) -> str | None:
    """``_broken``, worked out once per picture on this machine: a PNG's pixel data is inflated to
    be checked (some 8 ms a 0.3 MB picture: 1,000 cards' art took 8 s of a first build), so what
    it found is kept by the file's content, as the other things worked out from a file's content
    alone are (a picture placed in another build folder, or built again cold, is not inflated)."""
    if kind != "PNG":
        return _broken(raw, kind)
    name = usercache.key(CHECK_GENERATION, kind.encode(), bytes.fromhex(picture_hash(raw)))
    kept = usercache.get(CHECKED_KIND, name)
    if isinstance(kept, str):
        return kept or None
    found = _broken(raw, kind)
    usercache.put(CHECKED_KIND, name, found or "")
    return found


def _broken(raw: bytes, kind: str) -> str | None:
    """Why a picture placed in the PDF as it is would not show whole there — a file cut short, a
    PNG's pixel data broken or not as long as its size says —, else None. A JPEG's scans are not
    decoded (their end marker is looked for); a PNG's pixel data is inflated, nothing kept."""
    if kind == "JPEG":
        at = 2
        while at + 4 <= len(raw) and raw[at] == 0xFF:  # the segments before the first scan
            if raw[at + 1] == 0xDA:
                return None if raw.find(b"\xff\xd9", at) > 0 else "the file is cut short (its pixels end early)"
            at += 2 + int.from_bytes(raw[at + 2:at + 4], "big")
        return "the file is cut short (no pixels)"
    at, header, idat = 8, b"", []
    while True:
        if at + 12 > len(raw):
            return "the file is cut short (no IEND chunk)"
        length, chunk = struct.unpack(">I4s", raw[at:at + 8])
        if at + 12 + length > len(raw):
            return f"the file is cut short (its {chunk.decode('latin-1')!r} chunk runs past its end)"
        if chunk == b"IHDR" and length >= 13:
            header = raw[at + 8:at + 21]
        elif chunk == b"IDAT":
            idat.append(memoryview(raw)[at + 8:at + 8 + length])
        elif chunk == b"IEND":
            break
        at += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    rows = png_data_size(width, height, PNG_CHANNELS.get(colour, 4) * depth, interlace)
    inflate, n = zlib.decompressobj(), 0
    try:
        for piece in idat:
            rest: bytes | memoryview = piece
            while rest and n <= rows:
                n += len(inflate.decompress(rest, 1 << 20))
                rest = inflate.unconsumed_tail
    except zlib.error:
        return "its pixel data is broken"
    if not inflate.eof or n != rows:
        return "its pixel data is cut short or does not match its size"
    return None


ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))  # x0, y0, dx, dy


def png_data_size(width: int, height: int, bits: int, interlace: int) -> int:
    """How many bytes a PNG's pixel data inflates to: each row its filter byte and its pixels
    (``bits`` a pixel); an interlaced (Adam7) picture's seven passes are each a smaller picture
    of such rows (PNG spec §8.2), an empty pass none."""
    def size(w: int, h: int) -> int:
        return h * (1 + (w * bits + 7) // 8) if w and h else 0

    if not interlace:
        return size(width, height)
    return sum(size(max(0, (width - x0 + dx - 1) // dx), max(0, (height - y0 + dy - 1) // dy))
               for x0, y0, dx, dy in ADAM7)


# Chunks an opaque PNG may hold before its pixels that Pillow's ``Image.open`` reads without a
# question (no compressed text or profile, whose size it limits; no tRNS, which makes it see-through)
_PLAIN_CHUNKS = {b"sRGB", b"gAMA", b"cHRM", b"pHYs", b"tIME", b"bKGD", b"sBIT"}


def opaque_png_size(data: bytes) -> tuple[int, int] | None:
    """The pixels (width, height) of a PNG that is plainly opaque — grey or RGB, no tRNS, only the
    plain chunks above before its pixels, each whole with its CRC as Pillow checks them —, read
    from its header without Pillow; None for any other picture (then Pillow opens it, and says
    what is wrong). A face's picture is most often such a PNG (the print bytes of ``artfile.print_bytes``):
    converting an edited card's face needs no import of Pillow (some 17 ms: docs/speed.md, "imports46")."""
    if data[:8] != PNG_SIGNATURE:
        return None
    at, size = 8, None
    while at + 12 <= len(data):
        length, chunk = struct.unpack(">I4s", data[at:at + 8])
        end = at + 12 + length
        if end > len(data) or zlib.crc32(data[at + 4:end - 4]) != struct.unpack(">I", data[end - 4:end])[0]:
            return None
        if chunk == b"IDAT":
            return size
        if size is None:  # (IHDR first, as Pillow wants it)
            if chunk != b"IHDR" or length != 13:
                return None
            width, height, depth, colour, compression, filtering, interlace = struct.unpack(">IIBBBBB", data[at + 8:at + 21])
            if colour not in (0, 2) or depth not in ((1, 2, 4, 8, 16) if colour == 0 else (8, 16)) \
                    or compression or filtering or interlace > 1 or not width or not height:
                return None
            size = (width, height)
        elif chunk not in _PLAIN_CHUNKS:
            return None
        at = end
    return None
