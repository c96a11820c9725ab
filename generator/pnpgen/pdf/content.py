"""A face's art (``pnpgen.svg.artwork.Art``) as the content stream of a form XObject, and what
that stream names: the fonts (with the glyph ids and characters it shows), the pictures and the
shading patterns.

The converter (svg/) has already written the graphics as PDF operators; here the text runs
become glyph ids of the font (Identity-H: two bytes per glyph, the font's own ids; pdf/sfnt.py),
pictures become ``Do`` of an image XObject named by the picture's content hash, and gradients
``scn`` of a pattern named by its own content. So the stream does not depend on the document it
is written into: a face is made into bytes once and placed in every document that shows it.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from pnpgen import fonts
from pnpgen.pdf.colour import to_cmyk
from pnpgen.pdf.objects import Name
from pnpgen.svg.artwork import Art
from pnpgen.svg.gradient import Stops
from pnpgen.svg.style import pdf_num


@dataclass(frozen=True)
class FontMetrics:
    """What the writer needs of a TrueType font: glyph ids and advance widths (in thousandths of
    the size) by character, and the descriptor's figures."""

    name: str  # as the data names it
    postscript: str
    to_glyph: dict[int, int]
    widths: dict[int, float]
    default_width: float
    ascent: float
    descent: float
    cap_height: float
    bbox: tuple[float, ...]
    italic_angle: float
    stem_v: float
    flags: int

    def glyphs(self, text: str) -> list[int]:
        return [self.to_glyph.get(ord(c), 0) for c in text]

    def width(self, text: str, size: float) -> float:
        """The advance of ``text`` in points (as the font's widths, so what the PDF shows)."""
        return sum(self.widths.get(ord(c), self.default_width) for c in text) * size / 1000


def metrics(name: str) -> FontMetrics | None:
    """The metrics of a font pnpgen located (parsed on first use), else None: a name that is
    one of PDF's standard fonts (``Helvetica``), drawn unembedded as ReportLab drew it. Kept by
    name and file (``fonts.FontFile``): a process that builds several workspaces (watch, tests)
    may meet both, and a font saved over while ``watch`` runs is measured anew."""
    try:
        file = fonts.file_of(name)
    except KeyError:
        return None
    return _metrics(name, file)


@lru_cache(maxsize=64)
def _metrics(name: str, file: fonts.FontFile) -> FontMetrics:
    face = fonts.face(name)
    ps = face.name.decode("latin-1") if isinstance(face.name, bytes) else str(face.name)
    return FontMetrics(name, ps, dict(face.charToGlyph), dict(face.charWidths), float(face.defaultWidth),
                       float(face.ascent), float(face.descent), float(face.capHeight),
                       tuple(float(v) for v in face.bbox), float(face.italicAngle), float(face.stemV),
                       int(face.flags))


fonts.when_saved(_metrics.cache_clear)  # (a font saved over in ``watch``: its old widths let go of)


@lru_cache(maxsize=256)  # (a home sheet's furniture and each face name their fonts: hashed once a process)
def font_resource(name: str) -> str:
    """The resource name a font is shown by in every stream (the same in every document)."""
    return "F" + hashlib.sha256(name.encode()).hexdigest()[:12]


def image_resource(key: str) -> str:
    return "Im" + key[:24]


@dataclass(frozen=True)
class Paint:
    """A gradient-painted shape as a form of its own: a pattern's matrix maps to the space of
    the stream that names it *as that stream began* (ISO 32000-1 §8.7.3.1), so a shape drawn
    under a face's own transforms is painted by a form placed there, whose space is the one the
    converter computed the gradient in."""

    area: tuple[float, float, float, float]
    data: bytes
    patterns: dict[str, dict]


@dataclass
class Content:
    """A content stream and what it names."""

    data: bytes = b""
    glyphs: dict[str, dict[int, str]] = field(default_factory=dict)  # font → glyph id → characters
    standard_fonts: set[str] = field(default_factory=set)  # unembedded standard fonts named
    pictures: dict[str, bytes] = field(default_factory=dict)  # image key → the picture's bytes
    paints: dict[str, Paint] = field(default_factory=dict)  # resource name → a gradient-painted shape


def show_text(out: Content, font: str, text: str) -> bytes:
    """The string operand that shows ``text`` in ``font`` (glyph ids in hex, or a literal for
    a standard font), noting the glyphs in ``out``."""
    m = metrics(font)
    if m is None:
        out.standard_fonts.add(font)
        raw = text.encode("latin-1", "replace")
        return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    gids = out.glyphs.setdefault(font, {})
    ids = m.glyphs(text)
    for g, c in zip(ids, text):
        gids.setdefault(g, c)
    try:  # each id as four hex digits (a TrueType glyph id is 16 bits), packed at once: a twelfth of the time
        return b"<" + struct.pack(f">{len(ids)}H", *ids).hex().upper().encode("ascii") + b">"
    except struct.error:
        return b"<" + "".join(f"{g:04X}" for g in ids).encode("ascii") + b">"


def font_operator(font: str, size: float) -> bytes:
    name = font_resource(font) if metrics(font) is not None else "S" + font_resource(font)
    return Name(name).pdf() + b" " + pdf_num(size).encode("ascii") + b" Tf"


def art_content(art: Art, cmyk: bool, image_key: Callable[[bytes], str]) -> Content:
    """The art's content stream (its fallback, if any, is drawn elsewhere: an empty stream)."""
    out = Content()
    if art.fallback is not None:
        return out
    parts: list[bytes] = []
    for it in art.items:
        kind = it[0]
        if kind == "ops":
            parts.append(it[1].encode("latin-1"))
        elif kind == "fill" or kind == "stroke":
            parts.append(colour_op(it, cmyk).encode("ascii"))
        elif kind == "text":
            runs = [b"BT", font_operator(it[1], it[2])]
            for x, y, chars in it[3]:  # user space is y-down: glyphs set upright
                runs.append(b"1 0 0 -1 %s %s Tm " % (pdf_num(x).encode(), pdf_num(y).encode())
                            + show_text(out, it[1], chars) + b" Tj")
            runs.append(b"ET")
            parts.append(b"\n".join(runs))
        elif kind == "paint":
            parts.append(_paint(out, it, cmyk))
        else:  # image: the picture's unit square mapped onto its box, upright in y-down space
            _, data, x, y, w, h = it
            key = image_key(data)
            out.pictures[key] = data
            parts.append(b"q 1 0 0 -1 0 %s cm q %s 0 0 %s %s %s cm %s Do Q Q" % (
                pdf_num(2 * y + h).encode(), pdf_num(w).encode(), pdf_num(h).encode(), pdf_num(x).encode(),
                pdf_num(y).encode(), Name(image_resource(key)).pdf()))
    out.data = b"\n".join(parts)
    return out


@lru_cache(maxsize=4096)
def colour_op(it: tuple, cmyk: bool) -> str:
    kind, r, g, b = it
    if cmyk:
        c, m, y, k = to_cmyk(r, g, b)
        return f"{pdf_num(c)} {pdf_num(m)} {pdf_num(y)} {pdf_num(k)} {'k' if kind == 'fill' else 'K'}"
    return f"{pdf_num(r)} {pdf_num(g)} {pdf_num(b)} {'rg' if kind == 'fill' else 'RG'}"


# ---------------------------------------------------------------------- gradients


def _paint(out: Content, item: tuple, cmyk: bool) -> bytes:
    """A gradient-painted shape, placed as its form (``paint_form``)."""
    name, paint = paint_form(item, cmyk)
    out.paints[name] = paint
    return Name(name).pdf() + b" Do"


def paint_form(item: tuple, cmyk: bool) -> tuple[str, Paint]:
    """A gradient-painted shape (svg/gradient.py) as a form of its own (``Paint``), named by what
    it draws: its path filled and/or stroked with shading patterns (ShadingType 2 axial, 3
    radial; a stitching function of the stops)."""
    _, ops, op, area, fill, stroke = item
    head = []
    patterns = {}
    if fill is not None:
        patterns["GradFill"] = shading_pattern(fill, cmyk)
        head.append("/Pattern cs /GradFill scn")
    if stroke is not None:
        patterns["GradStroke"] = shading_pattern(stroke, cmyk)
        head.append("/Pattern CS /GradStroke SCN")
    # fill, then stroke, as B means: pdfium paints a pattern stroke of B under the fill
    paint = f"{ops} {op[1:] and 'f*' or 'f'} {ops} S" if op.startswith("B") else f"{ops} {op}"
    name = "Grad" + hashlib.sha256(repr((ops, op, area, fill, stroke, cmyk)).encode()).hexdigest()[:24]
    return name, Paint(tuple(area), " ".join([*head, paint]).encode("latin-1"), patterns)


def shading_pattern(spec: tuple, cmyk: bool) -> dict:
    """A shading pattern (PatternType 2) for a spec from ``pnpgen.svg.gradient.shading``, as
    values for pdf/objects.py (pdf/shading.py hands the same to ReportLab)."""
    kind, coords, domain, matrix, stops, spread = spec
    shading = {"ShadingType": 2 if kind == "axial" else 3,
               "ColorSpace": Name("DeviceCMYK" if cmyk else "DeviceRGB"),
               "Coords": [_round(v) for v in coords], "Function": _function(stops, domain, spread, cmyk),
               "Extend": [True, True], "Domain": [_number(v) for v in domain]}
    return {"Type": Name("Pattern"), "PatternType": 2, "Shading": shading,
            "Matrix": [_round(v) for v in matrix]}


def _round(v: float) -> float:
    return round(float(v), 6) + 0.0


def _number(v: float) -> int | float:
    return int(v) if float(v).is_integer() else _round(v)


def _function(stops: Stops, domain: tuple, spread: str, cmyk: bool) -> dict:
    """The stops as one function over 0 … 1 (a stitching of linear pieces; a stop pair at one
    offset is a hard edge), repeated or mirrored per period of ``domain`` for reflect/repeat."""

    def colour(s) -> list[float]:
        return [_round(v) for v in (to_cmyk(*s[1:]) if cmyk else s[1:])]

    pts = list(stops)
    if pts[0][0] > 0:
        pts.insert(0, (0.0, *pts[0][1:]))
    if pts[-1][0] < 1:
        pts.append((1.0, *pts[-1][1:]))
    pieces = [(a[0], {"FunctionType": 2, "Domain": [0, 1], "C0": colour(a), "C1": colour(b), "N": 1})
              for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
    if len(pieces) == 1:
        base = pieces[0][1]
    else:
        base = {"FunctionType": 3, "Domain": [0, 1], "Functions": [p[1] for p in pieces],
                "Bounds": [_round(p[0]) for p in pieces[1:]], "Encode": [0, 1] * len(pieces)}
    k0, k1 = int(domain[0]), int(domain[1])
    if k1 - k0 == 1 and k0 == 0:
        return base
    encode: list[int] = []
    for k in range(k0, k1):
        encode.extend((1, 0) if spread == "reflect" and k % 2 else (0, 1))
    return {"FunctionType": 3, "Domain": [k0, k1], "Functions": [base] * (k1 - k0),
            "Bounds": list(range(k0 + 1, k1)), "Encode": encode}
