"""The ``Art`` format: one converted face as plain, picklable data (for worker processes), with
``to_json()`` / ``Art.from_json()`` for the on-disk cache. The converter (``pnpgen.svg``) makes
it; ``pnpgen.pdf.draw`` paints it on a canvas.

Standalone, an art's JSON holds its pictures inline (base64) and is sealed with a digest. The
build cache stores a face otherwise (``to_json(pictures=…, seal=False)``): each picture once per
content beside the faces, the face naming it by its SHA-256 (``["picture", sha256, x, y, w, h]``),
and the record checked by the hash of its bytes as read (engine/cache.py) rather than sealed:
reading a face back then decodes no base64 and serialises nothing again."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnpgen.data.picturebytes import picture_hash
from pnpgen.errors import InputError
from pnpgen.svg.image import file_references
from pnpgen.svg.style import parse_svg

FORMAT = "pnpgen.vector.Art"
VERSION = 4  # bumped whenever the operators written change: older cached arts are rebuilt
MAX_PERIODS = 256  # reflect/repeat periods a gradient-painted shape may span; beyond, the last is padded
PAINT_OPS = ("f", "f*", "S", "B", "B*")
PICTURE_KEY = re.compile(r"[0-9a-f]{64}")  # a picture named by the SHA-256 of its bytes
KEYS = {"format", "version", "width_pt", "height_pt", "fallback", "svg", "items", "marks"}


@dataclass(frozen=True)
class Art:
    """One converted face. ``items`` is a tuple of:

    - ``("ops", text)``: PDF graphics operators (no colour operators);
    - ``("fill", r, g, b)`` / ``("stroke", r, g, b)``: the colour (0–1) for what follows;
    - ``("text", font, size, ((x, y, chars), …))``: glyph runs in user units, drawn with the
      current fill colour through ReportLab's text API;
    - ``("image", data, x, y, w, h)``: JPEG/PNG bytes placed in the user-space box;
    - ``("paint", ops, op, area, fill, stroke)``: a shape painted with gradients (:func:`paint_item`),
      drawn as a form of its own (``pnpgen.pdf.shading``).

    A face outside the subset has no items: ``fallback`` names the feature and ``svg`` keeps
    the source, drawn through svglib.

    ``marks`` are what the print lint reads, drawn nothing: ``(kind, at, value, x0, y0, x1, y1,
    text)`` for each stroke (``value`` its width) and text (its size), in points, its box from
    the face's bottom-left corner (y up), ``at`` the template line that drew it ("" unknown); and
    ``contrast`` for a text on a known ground (one solid fill under the whole of it, or the white
    paper) reading at less than 7:1, ``value`` the ratio, ``text`` its colour, the ground's and
    the characters (``#23262e #1f3b1f 深い森``); ``unseen`` for an icon's filled shape on a painted
    ground of (nearly) its colour, ``value`` their distance (CIE ΔE 1976), ``text`` the two colours
    and the icon's file (``#2f6f2f #2f6f2f fish.svg``)."""

    width_pt: float
    height_pt: float
    items: tuple = ()
    fallback: str | None = None
    svg: str | None = None
    marks: tuple = ()

    def to_json(self, pictures: dict[str, bytes] | None = None, seal: bool = True) -> dict:
        """A JSON-ready dict, sealed with a digest of its content (``seal=False``: not sealed,
        for a store that checks the bytes it keeps itself). With ``pictures``, each picture is
        put there by its SHA-256 and named by it, not held inline."""
        body = {
            "format": FORMAT,
            "version": VERSION,
            "width_pt": self.width_pt,
            "height_pt": self.height_pt,
            "fallback": self.fallback,
            "svg": self.svg,
            "items": [_item_to_json(it, pictures) for it in self.items],
            "marks": [list(m) for m in self.marks],
        }
        if seal:
            body["digest"] = digest(body)
        return body

    @classmethod
    def from_json(cls, obj: Any, pictures: Callable[[str], bytes] | None = None, sealed: bool = True) -> Art:
        """The Art ``to_json`` made; ValueError for anything else (foreign, altered, malformed).
        ``pictures`` gives the bytes of a picture named by its SHA-256 (ValueError when it has
        none that hash so); without it, an art naming a picture is refused. ``sealed=False``:
        the object carries no digest, its store has checked it (an object with one is refused),
        and its items are taken as pnpgen wrote them (``_items_as_recorded``)."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT or obj.get("version") != VERSION:
            raise ValueError("not a pnpgen vector art object (or another version)")
        if set(obj) != (KEYS | {"digest"} if sealed else KEYS):
            raise ValueError("vector art object: unexpected or missing keys")
        if sealed:
            body = {k: v for k, v in obj.items() if k != "digest"}
            try:
                intact = obj["digest"] == digest(body)
            except (TypeError, ValueError):
                intact = False
            if not intact:
                raise ValueError("vector art object: digest does not match its content")
        w, h = _number(obj["width_pt"]), _number(obj["height_pt"])
        fallback, svg = obj["fallback"], obj["svg"]
        if not (fallback is None and svg is None) and not (isinstance(fallback, str) and isinstance(svg, str)):
            raise ValueError("vector art object: fallback and svg go together")
        if not isinstance(obj["items"], list):
            raise ValueError("vector art object: items is not a list")
        if svg is not None and _names_files(svg):
            raise ValueError("vector art object: its SVG names a file (svglib would read it from anywhere)")
        if not sealed:
            return cls(w, h, _items_as_recorded(obj["items"], pictures), fallback, svg, _marks_as_recorded(obj["marks"]))
        return cls(w, h, tuple(_item_from_json(it, pictures) for it in obj["items"]), fallback, svg,
                   tuple(_mark_from_json(m) for m in _listed(obj["marks"])))


def paint_item(ops: str, op: str, area: tuple, fill: tuple | None, stroke: tuple | None) -> tuple:
    """The art item of a gradient-painted shape: path ``ops`` painted by ``op`` (f, f*, S, B,
    B*) within ``area`` (its box in the current space), ``fill``/``stroke`` shading specs (None:
    the current colour). A shading spec is (kind, coords, domain, pattern matrix, stops, spread):
    ``pnpgen.svg.gradient.shading`` makes it."""
    return ("paint", ops, op, tuple(area), fill, stroke)


def digest(body: dict) -> str:
    """The seal of an art object's JSON body (every key but ``digest``)."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False,
                                     separators=(",", ":"), allow_nan=False).encode()).hexdigest()


@dataclass(frozen=True)
class ArtRecord:
    """An ``Art`` as a cache keeps it: its JSON text, each picture named by its SHA-256, and
    those names, one per picture item in order (made where the face was converted: the process
    that stores it then neither hashes its pictures nor writes its JSON)."""

    text: bytes
    pictures: tuple[str, ...]

    @classmethod
    def of(cls, art: Art) -> ArtRecord:
        pictures: dict[str, bytes] = {}
        obj = art.to_json(pictures=pictures, seal=False)
        return cls(json.dumps(obj, sort_keys=True).encode(), tuple(it[1] for it in obj["items"] if it[0] == "picture"))


def _item_to_json(it: tuple, pictures: dict[str, bytes] | None = None) -> list:
    if it[0] == "image":
        if pictures is not None:
            key = picture_hash(it[1])
            pictures[key] = it[1]
            return ["picture", key, *it[2:]]
        return ["image", base64.b64encode(it[1]).decode("ascii"), *it[2:]]
    if it[0] == "text":
        return ["text", it[1], it[2], [list(r) for r in it[3]]]
    if it[0] == "paint":
        return ["paint", it[1], it[2], list(it[3]), _spec_to_json(it[4]), _spec_to_json(it[5])]
    return list(it)


def _names_files(svg: str) -> bool:
    """Does a face's SVG name a file (or is it not XML)? A face outside the subset is drawn by
    svglib, which opens the files it names itself: the converter inlines the art a face shows, so
    one read back that still names a file is not one pnpgen made."""
    try:
        return any(not href.startswith("data:") for _, _, href in file_references(parse_svg(svg, "")))
    except InputError:
        return True


def _listed(v: Any) -> list:
    if not isinstance(v, list):
        raise ValueError("vector art object: marks is not a list")
    return v


def _mark_from_json(m: Any) -> tuple:
    if not (isinstance(m, list) and len(m) == 8 and m[0] in ("stroke", "dash", "text", "contrast", "unseen", "font", "unit", "viewbox") and isinstance(m[1], str)
            and isinstance(m[7], str)):
        raise ValueError("vector art object: a malformed mark")
    return (m[0], m[1], _number(m[2]), _number(m[3]), _number(m[4]), _number(m[5]), _number(m[6]), m[7])


def _number(v: Any) -> float:
    if type(v) is float and v - v == 0.0:  # a finite float, as nearly every number read back is (inf - inf is nan)
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"vector art object: {v!r} is not a number")
    return float(v)


def _items_as_recorded(items: list, pictures: Callable[[str], bytes] | None) -> tuple:
    """A store's record's items as pnpgen wrote them (``from_json(…, sealed=False)``): the build
    cache's face records are sealed under this machine's key (usercache ``seal``), so only pnpgen
    wrote one that reads back, from an ``Art`` it made. Each item's tuple is rebuilt and its numbers
    made floats, as ``_item_from_json`` makes them, without its checks of every value (3,000 faces'
    some 36,000 items and 15,000 marks: 0.037 → 0.013 CPU-s). A picture's name is still matched
    before it is looked up (it names a file), and the rarer kinds (a gradient paint, an inline
    picture) go through ``_item_from_json``; a malformed item raises as there (IndexError,
    TypeError or ValueError: the face is converted again)."""
    out: list[tuple] = []
    for it in items:
        kind = it[0]
        if kind == "ops" and len(it) == 2:
            out.append(("ops", it[1]))
        elif (kind == "fill" or kind == "stroke") and len(it) == 4:
            out.append((kind, float(it[1]), float(it[2]), float(it[3])))
        elif kind == "text" and len(it) == 4:
            out.append(("text", it[1], float(it[2]), tuple([(float(x), float(y), chars) for x, y, chars in it[3]])))
        elif kind == "picture" and pictures is not None and len(it) == 6 and PICTURE_KEY.fullmatch(it[1]):
            out.append(("image", pictures(it[1]), float(it[2]), float(it[3]), float(it[4]), float(it[5])))
        else:
            out.append(_item_from_json(it, pictures))
    return tuple(out)


def _marks_as_recorded(marks: list) -> tuple:
    """A store's record's marks as pnpgen wrote them (see ``_items_as_recorded``)."""
    return tuple([(m[0], m[1], float(m[2]), float(m[3]), float(m[4]), float(m[5]), float(m[6]), m[7]) for m in marks])


def _item_from_json(it: Any, pictures: Callable[[str], bytes] | None = None) -> tuple:
    if not isinstance(it, list) or not it:
        raise ValueError("vector art object: an item is not a list")
    kind = it[0]
    if kind == "ops" and len(it) == 2 and isinstance(it[1], str):
        return ("ops", it[1])
    if kind in ("fill", "stroke") and len(it) == 4:
        r, g, b = _number(it[1]), _number(it[2]), _number(it[3])
        if not (0.0 <= r <= 1.0 and 0.0 <= g <= 1.0 and 0.0 <= b <= 1.0):
            raise ValueError("vector art object: a colour channel outside 0–1")
        return (kind, r, g, b)
    if kind == "text" and len(it) == 4 and isinstance(it[1], str) and isinstance(it[3], list):
        runs = []
        for r in it[3]:
            if not (isinstance(r, list) and len(r) == 3 and isinstance(r[2], str)):
                raise ValueError("vector art object: a malformed text run")
            runs.append((_number(r[0]), _number(r[1]), r[2]))
        return ("text", it[1], _number(it[2]), tuple(runs))
    if kind == "image" and len(it) == 6 and isinstance(it[1], str):
        try:
            data = base64.b64decode(it[1], validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("vector art object: image data is not base64") from None
        return ("image", data, *(_number(v) for v in it[2:]))
    if kind == "picture" and pictures is not None and len(it) == 6 and isinstance(it[1], str) \
            and PICTURE_KEY.fullmatch(it[1]):
        return ("image", pictures(it[1]), *(_number(v) for v in it[2:]))
    if kind == "paint" and len(it) == 6 and isinstance(it[1], str) and it[2] in PAINT_OPS \
            and isinstance(it[3], list) and len(it[3]) == 4:
        fill, stroke = (_spec_from_json(v) for v in it[4:])
        if fill is None and stroke is None:
            raise ValueError("vector art object: a gradient paint without a gradient")
        return paint_item(it[1], it[2], tuple(_number(v) for v in it[3]), fill, stroke)
    raise ValueError(f"vector art object: unknown item {str(kind)[:20]!r}")


def _spec_from_json(v: Any) -> tuple | None:
    """A shading spec read back from the art cache (ValueError for anything malformed)."""
    if v is None:
        return None
    if not (isinstance(v, list) and len(v) == 6 and v[0] in ("axial", "radial") and v[5] in ("pad", "reflect", "repeat")):
        raise ValueError("vector art object: a malformed shading")
    kind, coords, domain, matrix, stops, spread = v
    n = 4 if kind == "axial" else 6
    if not (isinstance(coords, list) and len(coords) == n and isinstance(domain, list) and len(domain) == 2
            and isinstance(matrix, list) and len(matrix) == 6 and isinstance(stops, list) and len(stops) >= 2):
        raise ValueError("vector art object: a malformed shading")
    k0, k1 = (_number(x) for x in domain)
    if not (k0 == int(k0) and k1 == int(k1) and k0 < k1 and k1 - k0 <= MAX_PERIODS):
        raise ValueError("vector art object: a malformed shading domain")
    out_stops = []
    last = 0.0
    for s in stops:
        if not (isinstance(s, list) and len(s) == 4):
            raise ValueError("vector art object: a malformed gradient stop")
        vals = tuple(_number(x) for x in s)
        if not all(0.0 <= x <= 1.0 for x in vals) or vals[0] < last:
            raise ValueError("vector art object: a gradient stop outside 0–1")
        last = vals[0]
        out_stops.append(vals)
    return (kind, tuple(_number(x) for x in coords), (k0, k1), tuple(_number(x) for x in matrix),
            tuple(out_stops), spread)


def _spec_to_json(spec: tuple | None) -> list | None:
    if spec is None:
        return None
    kind, coords, domain, matrix, stops, spread = spec
    return [kind, list(coords), list(domain), list(matrix), [list(s) for s in stops], spread]


ART_FIELDS = ("width_pt", "height_pt", "items", "fallback", "svg", "marks")


def _read_when_asked(name: str) -> property:
    """A field of ``ArtToRead``: its art decoded the first time any of its fields but ``fallback``
    and ``svg`` is read; set as a dataclass sets it (``__init__``, ``replace``)."""

    def get(self: ArtToRead) -> Any:
        held = self.__dict__
        if name not in held:
            self.read()
        return held[name]

    def put(self: ArtToRead, value: Any) -> None:
        self.__dict__[name] = value

    return property(get, put)


class ArtToRead(Art):
    """An ``Art`` of the build cache's faces pack, decoded only when its items (or size, or marks)
    are first read: an edit of one card in a 3,000-card deck reads every face of the deck from the
    pack, and the documents copy the pages of all but one from the last files, so some 3,000 faces'
    JSON was decoded and their items rebuilt for nothing (0.26 CPU-s of the edit, edit50). Made by
    ``later`` for a face without a fallback (its ``svg`` and ``fallback`` are None, known from its
    line); ``pictures``, the bytes of each picture it shows, in order, as its items will hold
    them — known without decoding it (engine/cache.py ``Cache.face``). Equal to, hashed as and
    pickled as the plain ``Art`` it decodes to."""

    width_pt = _read_when_asked("width_pt")  # type: ignore[assignment]
    height_pt = _read_when_asked("height_pt")  # type: ignore[assignment]
    items = _read_when_asked("items")  # type: ignore[assignment]
    marks = _read_when_asked("marks")  # type: ignore[assignment]

    @classmethod
    def later(cls, decode: Callable[[], Art], pictures: tuple[bytes, ...]) -> ArtToRead:
        art = object.__new__(cls)
        art.__dict__.update(_decode=decode, _pictures=pictures, fallback=None, svg=None)
        return art

    @property
    def pictures(self) -> tuple[bytes, ...]:
        """The bytes of each picture it shows, in the order of its items."""
        return self.__dict__.get("_pictures", ())  # (one made by ``replace``: decoded, none kept)

    @property
    def decoded(self) -> bool:
        return "_decode" not in self.__dict__

    def read(self) -> None:
        """Its art decoded now (the face's line as the pack held it). Its fields are set before it
        is marked decoded: a thread reading it meanwhile (a pool's feeder pickling it) decodes it
        too, to the same values, and never finds a field missing."""
        decode = self.__dict__.get("_decode")
        if decode is None:
            return
        art = decode()
        if art.fallback is not None or art.svg is not None:  # (its line said none: the pack's seal vouches)
            raise ValueError("vector art object: a fallback where its line said none")
        for name in ART_FIELDS:
            self.__dict__[name] = getattr(art, name)
        self.__dict__.pop("_decode", None)

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in ART_FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Art):
            return NotImplemented
        return self._fields() == tuple(getattr(other, name) for name in ART_FIELDS)

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return repr(Art(*self._fields()))

    def __reduce__(self) -> tuple:
        return (Art, self._fields())
