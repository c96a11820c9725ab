"""Pictures in PDF: each picture's image stream made once per content, then placed.

ReportLab's ``drawImage`` decodes a picture at every placement (it names the image by the MD5
of its decoded pixels) and compresses it again for every document. Here the stream is made
once per picture content (``make_stream``: ReportLab's own ``PDFImageXObject``, so the bytes are
exactly what ``drawImage`` writes: Flate-compressed RGB or grey pixels, or the JPEG's own
DCT data, ASCII85-encoded as ReportLab does by default), kept by the hash of the picture's
bytes (``ImageStreams``: in memory for the process, and in a cache folder between builds), and
placed in a document by registering that stream as its XObject (``place``), with the same
operators ``drawImage`` writes. A document therefore embeds each picture once, whatever the
number of faces and pages showing it, and a picture costs its decoding and compression once,
ever (as long as the cache keeps it).
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

STREAM_FORMAT = 1  # how an entry of the cache folder is laid out; a change makes old entries unused
MEMO_BUDGET = 256 * 2**20  # stream bytes an ImageStreams keeps in memory (the least recently used go first)


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

    def header(self) -> dict:
        return {"name": self.name, "width": self.width, "height": self.height, "bits": self.bits,
                "colour_space": self.colour_space, "filters": list(self.filters),
                "decode": list(self.decode) if self.decode is not None else None}


def make_stream(data: bytes) -> ImageStream:
    """The stream ``canvas.drawImage`` would embed for the picture ``data`` (PNG or JPEG bytes)."""
    from reportlab.lib.utils import ImageReader, _digester
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    reader = ImageReader(io.BytesIO(data))
    name = _digester(reader.getRGBData() + b"None")  # drawImage's name, its mask being None
    obj = PDFImageXObject(name, reader, mask=None)
    content = obj.streamContent
    decode = [1, 0, 1, 0, 1, 0, 1, 0] if obj.colorSpace == "DeviceCMYK" and getattr(obj, "_dotrans", 0) else \
        getattr(obj, "_decode", None)
    return ImageStream(name, int(obj.width), int(obj.height), int(obj.bitsPerComponent), obj.colorSpace,
                       tuple(obj._filters), tuple(decode) if decode else None,
                       content.encode("latin-1") if isinstance(content, str) else bytes(content))


class ImageStreams:
    """Image streams by the SHA-256 of the picture's bytes: made once each, kept for the life of
    this object and, with a ``folder`` (``build/.cache/images``), on disk for later builds. New
    entries are collected in ``new`` (written with the build's other files, all or nothing);
    ``used`` lists every entry looked up, so the cache keeps them. A damaged entry (its hash does
    not match its content) is made again, never trusted."""

    def __init__(self, folder: Path | None = None, stamp: str = "", budget: int = MEMO_BUDGET):
        self.folder = folder
        self.budget = budget
        self._held = 0  # bytes of the streams in _memo
        self.stamp = stamp  # pnpgen's code hash: an entry written by another pnpgen is not used
        self.made = 0  # streams made (decoded and compressed) by this object, for tests
        self._memo: dict[str, ImageStream] = {}
        self.new: dict[Path, bytes] = {}
        self.used: set[Path] = set()

    def path(self, key: str) -> Path:
        assert self.folder is not None
        return self.folder / key[:2] / f"{key}.img"

    def get(self, data: bytes) -> ImageStream:
        key = hashlib.sha256(data).hexdigest()
        stream = self._memo.pop(key, None)
        if stream is None:
            stream = self._load(key)
            if stream is None:
                stream = make_stream(data)
                self.made += 1
                if self.folder is not None:
                    self.new[self.path(key)] = self._entry(key, stream)
            self._held += len(stream.content)
        self._memo[key] = stream  # the most recently used last
        while self._held > self.budget and len(self._memo) > 1:
            self._held -= len(self._memo.pop(next(iter(self._memo))).content)
        if self.folder is not None:
            self.used.add(self.path(key))
        return stream

    def _entry(self, key: str, stream: ImageStream) -> bytes:
        head = {"format": STREAM_FORMAT, "pnpgen": self.stamp, "key": key, **stream.header(),
                "check": hashlib.sha256(stream.content).hexdigest()}
        return json.dumps(head, sort_keys=True).encode() + b"\n" + stream.content

    def _load(self, key: str) -> ImageStream | None:
        if self.folder is None:
            return None
        try:
            raw = self.path(key).read_bytes()
            line, _, content = raw.partition(b"\n")
            head = json.loads(line)
            if head.get("format") != STREAM_FORMAT or head.get("pnpgen") != self.stamp or head.get("key") != key \
                    or head.get("check") != hashlib.sha256(content).hexdigest():
                return None
            decode = head["decode"]
            return ImageStream(str(head["name"]), int(head["width"]), int(head["height"]), int(head["bits"]),
                               str(head["colour_space"]), tuple(str(f) for f in head["filters"]),
                               tuple(decode) if decode is not None else None, content)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None


_PROCESS = ImageStreams()  # streams for draws given no store (a rulebook's pictures, svglib checks)


def place(canvas, data: bytes, x: float, y: float, w: float, h: float, streams: ImageStreams | None = None) -> None:
    """Draw the picture ``data`` in the box (x, y, w, h) of the canvas's user space, as
    ``canvas.drawImage(ImageReader(data), x, y, w, h)`` does, from its stream in ``streams``."""
    from reportlab.lib.boxstuff import aspectRatioFix
    from reportlab.pdfbase import pdfdoc

    stream = (streams or _PROCESS).get(data)
    doc = canvas._doc
    reg = doc.getXObjectName(stream.name)
    if doc.idToObject.get(reg) is None:
        obj = pdfdoc.PDFImageXObject(stream.name)
        obj.width, obj.height = stream.width, stream.height
        obj.bitsPerComponent, obj.colorSpace = stream.bits, stream.colour_space
        obj._filters, obj.streamContent, obj.mask = stream.filters, stream.content, None
        if stream.decode is not None:
            obj._decode = list(stream.decode)
        canvas._setXObjects(obj)
        doc.Reference(obj, reg)
        doc.addForm(stream.name, obj)
    x, y, w, h, _ = aspectRatioFix(False, "c", x, y, w, h, stream.width, stream.height)  # as drawImage
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{reg} Do")
    canvas.restoreState()
    canvas._formsinuse.append(stream.name)
