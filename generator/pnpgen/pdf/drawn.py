"""The faces and pages a build drew into PDF streams, as JSON for the build cache, so the next
build of the game places them again without drawing them: a face's form stream made from its art
(glyph ids, colours, pictures by their keys) and a page's own drawing, each by what it is made from
(``FaceStreams``: a face by its key and its pictures', a page by the digest of what it draws).

Only what JSON holds plainly is kept: a face with gradient paints or one svglib draws, and any
stream naming a picture by its bytes rather than by a stand-in, is drawn again by the next build.
Each record is decoded and checked value by value when the build looks its face or page up
(memo.py ``Unpacked``: a text edit looks up only those of the pages it writes again); anything
malformed is not held, drawn again, never trusted. A record never looked up, or read as
``to_json`` writes it, is written back as its line (``Read``), its JSON let go of once its stream
is made: a 3,000-card edit held some 60 MB of it through its documents.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any

from pnpgen.memo import Unpacked
from pnpgen.pdf.content import Content
from pnpgen.pdf.objects import Shape
from pnpgen.pdf.raster import STAND_IN, stand_in_key
from pnpgen.pdf.streams import FaceStream, FaceStreams, PageStream
from pnpgen.pdf.writer import SEPARATIONS

_KEY = re.compile(r"[0-9a-f]{64}")


FACE, PAGE = "face:", "page:"  # a record's name: a face's (cmyk, its name) or a page's (cmyk, its digest)
# A record's name → the stream read from it and its line as read (``from_json``, ``to_json``)
Read = dict[str, tuple[FaceStream | PageStream, bytes]]


def to_json(drawn: FaceStreams, read: Read | None = None) -> dict[str, Any]:
    """The faces and pages of ``drawn`` that JSON holds plainly, each a record of its own by its
    name (``FACE``, ``PAGE``): a record never looked up (``Unpacked.waiting``) or a stream
    ``from_json`` read as written (``read``) is its line as read (bytes, which the cache's pack
    writes back as they are: turning every face's glyphs and data into JSON again took a tenth of
    an edit), any other its JSON."""
    read = read if read is not None else {}
    faces: dict[str, Any] = {}
    for (name, cmyk), face in _values(drawn.made):
        record = f"{FACE}{int(cmyk)}{name}"
        line = _line_as_read(record, face, read)
        if line is not None:
            faces[record] = line
            continue
        content = _content_to_json(face.content)
        if content is not None and not face.fallback:
            faces[record] = _with_shape({"data": _b64(face.data), "content": content,
                                         "width_pt": face.width_pt, "height_pt": face.height_pt}, face.shape)
    pages: dict[str, Any] = {}
    for (digest, cmyk), page in _values(drawn.kept):
        record = f"{PAGE}{int(cmyk)}{digest.hex()}"
        line = _line_as_read(record, page, read)
        if line is not None:
            pages[record] = line
            continue
        content = _content_to_json(page.content)
        if content is not None:
            pages[record] = _with_shape(
                {"data": _b64(page.data), "content": content, "forms": [[n, k] for n, k in page.forms.items()],
                 "spots": sorted(page.spots), "layers": sorted(page.layers)}, page.shape)
    return {**faces, **pages}


def _line_as_read(record: str, stream: Any, read: Read) -> bytes | None:
    """The record's line as it was read, when it can go back as it is: a record never looked up
    (its line itself), or a stream ``from_json`` read and nothing has replaced since."""
    if isinstance(stream, bytes):
        return stream
    known = read.get(record)
    return known[1] if known is not None and known[0] is stream else None


def _values(streams: Unpacked) -> list[tuple[Any, Any]]:
    """Each stream of ``streams`` by its key, in order; a record never looked up, as its line
    when it was read from one (``from_json``)."""
    out = []
    for key in streams:
        waiting = streams.waiting.get(key)
        value = waiting[1] if waiting is not None and waiting[1] is not None else streams.get(key)
        if value is not None:
            out.append((key, value))
    return sorted(out, key=lambda kv: kv[0])


def _with_shape(entry: dict, shape: Shape | None) -> dict:
    """A face's or page's entry with the shape of its object (pdf/objects.py ``Shape``), so the
    next build fills it rather than writing the dictionary out again."""
    return entry if shape is None else {**entry, "shape": shape.to_json()}


def _slots(content: Content) -> set[str]:
    """The slots the writer fills for a stream showing ``content`` (``writer.resources``)."""
    return {*("font:" + f for f in (*content.glyphs, *content.standard_fonts)),
            *("picture:" + k for k in content.pictures)}


def from_json(obj: Any, lines: Mapping[str, bytes] | None = None, read: Read | None = None) -> FaceStreams:
    """The faces and pages ``to_json`` wrote, each unpacked and checked when the build looks it
    up (``Unpacked``): an edit writing its documents from the last files looks up only the faces
    and pages it changed (a thousand cards' forms decoded whole: 0.09 s of a text edit). What is
    malformed is not held, drawn again. ``lines``: each record's line as read (the cache's pack),
    written back as it is when never looked up; ``read`` gets, for each record looked up and
    written as ``to_json`` writes it, its stream and line (``to_json`` writes it back so)."""
    if not isinstance(obj, Mapping):
        return FaceStreams()
    # each face's and page's record by its key, with its line when read from one: none decoded here
    faces: dict[tuple[str, bool], tuple[str, bytes | None]] = {}
    pages: dict[tuple[bytes, bool], tuple[str, bytes | None]] = {}
    for record in obj:
        if not isinstance(record, str):
            continue
        if record.startswith(FACE) and (name := record[len(FACE):])[:1] in ("0", "1") and len(name) > 1:
            faces[(name[1:], name[0] == "1")] = (record, lines.get(record) if lines is not None else None)
        elif record.startswith(PAGE) and (name := record[len(PAGE):])[:1] in ("0", "1"):
            try:
                digest = bytes.fromhex(name[1:])
            except ValueError:
                continue
            pages[(digest, name[0] == "1")] = (record, lines.get(record) if lines is not None else None)

    def face(key: tuple[str, bool], record: tuple[str, bytes | None]) -> FaceStream | None:
        return _face(record[0], obj.get(record[0]), lines, read)

    def page(key: tuple[bytes, bool], record: tuple[str, bytes | None]) -> PageStream | None:
        return _page(record[0], obj.get(record[0]), lines, read)

    return FaceStreams(made=Unpacked(waiting=faces, unpack=face), kept=Unpacked(waiting=pages, unpack=page))


def _face(record: str, v: Any, lines: Mapping[str, bytes] | None, read: Read | None) -> FaceStream | None:
    """A face's record as a stream, checked; None when malformed."""
    try:
        content = _content_from_json(v["content"])
        w, h = float(v["width_pt"]), float(v["height_pt"])
        if content is None:
            return None
        face = FaceStream(_bytes(v["data"]), content, w, h, False)
        _shaped(face, v, _slots(content), ("data", "content", "width_pt", "height_pt"), record, lines, read)
        return face
    except (KeyError, TypeError, ValueError):
        return None


def _page(record: str, v: Any, lines: Mapping[str, bytes] | None, read: Read | None) -> PageStream | None:
    """A page's record as a stream, checked; None when malformed."""
    try:
        content = _content_from_json(v["content"])
        forms, layers, spots = v["forms"], v["layers"], v["spots"]
        if content is None \
                or not isinstance(spots, list) or not all(s in SEPARATIONS for s in spots) \
                or not isinstance(forms, list) or not all(_pair(f) and isinstance(f[1], str) for f in forms) \
                or not isinstance(layers, list) or not all(isinstance(x, str) for x in layers):
            return None
        page = PageStream(_bytes(v["data"]), content, dict(forms), frozenset(spots), frozenset(layers))
        _shaped(page, v, {"parent", "contents", *_slots(content), *("form:" + k for _, k in forms),
                          *("layer:" + x for x in layers)}, ("data", "content", "forms", "spots", "layers"),
                record, lines, read)
        return page
    except (KeyError, TypeError, ValueError):
        return None


def _shaped(stream: FaceStream | PageStream, v: dict, allowed: set[str], keys: tuple[str, ...], record: str,
            lines: Mapping[str, bytes] | None, read: Read | None) -> None:
    """The shape of a face's or page's object as read (``to_json``), when it holds up; a record
    as ``to_json`` writes it (its keys and a shape that holds up, nothing else) goes into ``read``
    with its line, to be written back as it is (any other is made into JSON again from its stream,
    with the shape the writer makes)."""
    stream.shape = Shape.from_json(v.get("shape"), allowed)
    if stream.shape is not None and set(v) == {*keys, "shape"} and lines is not None and read is not None \
            and record in lines:
        read[record] = (stream, lines[record])


def _content_to_json(content: Content) -> dict[str, Any] | None:
    if content.paints:
        return None
    pictures = {}
    for key, data in content.pictures.items():
        if stand_in_key(data) != key:  # a picture's own bytes: not kept here
            return None
        pictures[key] = key
    # in the order they came: the writer numbers a document's fonts (and forms) as it first meets them;
    # a font's glyph ids in one list, their characters in one text (as [id, character] pairs, a thousand
    # cards' 40,000 were most of the time and memory of reading the pack back)
    return {"glyphs": [[font, list(gids), "".join(gids.values())] for font, gids in content.glyphs.items()],
            "standard_fonts": sorted(content.standard_fonts), "pictures": sorted(pictures)}


def _content_from_json(v: Any) -> Content | None:
    if not isinstance(v, dict) or not isinstance(v.get("glyphs"), list):
        return None
    glyphs: dict[str, dict[int, str]] = {}
    for entry in v["glyphs"]:
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)):
            return None
        font, ids, chars = entry
        found = _glyph_ids(ids, chars)
        if found is None:
            return None
        glyphs[font] = found
    fonts, pictures = v.get("standard_fonts"), v.get("pictures")
    if not isinstance(fonts, list) or not all(isinstance(f, str) for f in fonts) \
            or not isinstance(pictures, list) or not all(isinstance(k, str) and _KEY.fullmatch(k) for k in pictures):
        return None
    return Content(b"", glyphs, set(fonts), {k: STAND_IN + k.encode("ascii") for k in pictures}, {})


def _glyph_ids(ids: Any, chars: Any) -> dict[int, str] | None:
    """Glyph ids and their characters (one each, in order) as a dict, each id a glyph's (0–65535)
    once; else None. Checked a kind at a time, not glyph by glyph: a thousand cards' faces and
    pages hold some 40,000."""
    if not isinstance(ids, list) or not isinstance(chars, str) or len(ids) != len(chars) \
            or not set(map(type, ids)) <= {int}:
        return None
    found = dict(zip(ids, chars))
    if len(found) != len(ids):
        return None
    return found if not found or (min(found) >= 0 and max(found) < 65536) else None


def _pair(v: Any) -> bool:
    """A [name, value] pair whose name is text."""
    return isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(v: Any) -> bytes:
    if not isinstance(v, str):
        raise ValueError("not base64 text")
    try:
        return base64.b64decode(v, validate=True)
    except binascii.Error:
        raise ValueError("not base64") from None
