"""Colour for print: RGB → CMYK for CMYK output, and the total-ink check.

The conversion is the one the PDF reference gives for DeviceRGB → DeviceCMYK (ISO 32000-1,
10.3.5) with black generation and undercolour removal both the identity, i.e. full grey-component
replacement:

    c, m, y = 1 − r, 1 − g, 1 − b;  k = min(c, m, y);  c, m, y = (c − k, m − k, y − k) / (1 − k)

(the division scales the remaining chroma so a colour keeps its relative strength). Every neutral
— black text, hairlines, greys — prints on the K plate alone: pure black is 0/0/0/100, never a
four-colour black that would blur at 7 pt. It is a device conversion, not colour-managed: no ICC
profile is applied, so saturated RGB colours print duller or shifted, and a colour-critical design
should choose its palette in CMYK with the shop's proof. One of c, m, y is always 0, so a converted
colour carries at most 300 % ink (a dark saturated red: 0/100/100/99); shops asking less (240 %)
are warned by the check below, which reads the inks a finished PDF really uses (a picture's pixels
over the limit are held to it as they are converted: pdf/pdfx.py ``_cmyk_samples``). One colour is
mapped, not converted: pnpgen's 未定 mark (``PLACEHOLDER_COLOUR``, #e4007f, process magenta as a
screen shows it) prints on the magenta plate alone, where the formula gives 0/100/44/11, three
inks whose plates blur small text apart.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping
from dataclasses import dataclass, replace

from pnpgen.data.model import PLACEHOLDER_COLOUR
from pnpgen.pdf.forms import with_forms
from pnpgen.pdf.resave import pdf_bytes
from pnpgen.svg.style import hex_colour

REGISTRATION = (1.0, 1.0, 1.0, 1.0)  # all four inks: the alternate of the marks' Separation All (pdf/writer.py)


def to_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """RGB (0–1) → CMYK (0–1) by the conversion above (the 未定 mark's magenta: 0/100/0/0)."""
    if hex_colour((r, g, b)) == PLACEHOLDER_COLOUR:
        return (0.0, 1.0, 0.0, 0.0)
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        return (0.0, 0.0, 0.0, 1.0)
    d = 1.0 - k
    return ((1.0 - r - k) / d, (1.0 - g - k) / d, (1.0 - b - k) / d, k)


def total_ink(cmyk: tuple[float, float, float, float]) -> float:
    """Total area coverage in percent (100 % solid K = 100)."""
    return round(100.0 * sum(cmyk), 3)


def inks_used(pdf: bytes) -> list[set[tuple[float, float, float, float]]]:
    """Per page, every CMYK colour that paints something (set with k/K, then a fill, stroke or
    text drawn in it) in its content and the forms it draws, and every stop colour of the
    gradients (shading patterns) they paint: a gradient blends its stops linearly, so its most ink
    is at one of them. A colour set and never painted in is no ink: the black mapping
    (pdf/black.py) sets the text's own colour back after drawing it in 100 % K."""
    import pikepdf

    pages = []
    painted: dict[tuple, frozenset] = {}  # (form, the colours it inherits) → what it paints
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            pages.append(set(_painted(page.obj, (None, None), painted)))
    return pages


_FILLS = {"f", "F", "f*", "B", "B*", "b", "b*"}
_STROKES = {"S", "s", "B", "B*", "b", "b*"}
_SHOWS = {"Tj", "TJ", "'", '"'}
_STROKED_TEXT = {1, 2, 5, 6}  # text rendering modes that stroke the glyphs (ISO 32000-1 Table 106)
_FILLED_TEXT = {0, 2, 4, 6}


def _painted(obj, inherited: tuple, memo: dict) -> frozenset:
    """The CMYK colours a content stream (a page or a form, in the fill and stroke colours it
    inherits) paints with, its gradients' stops, and those of the forms it draws."""
    key = (obj.objgen, inherited)
    if obj.is_indirect and key in memo:
        return memo[key]
    import pikepdf

    res = obj.get("/Resources")
    xobjects = res.get("/XObject") if res is not None else None
    found: set = _gradient_inks([res]) if res is not None else set()
    fill, stroke = inherited
    mode, stack = 0, []
    for instruction in pikepdf.parse_content_stream(obj):
        operands, name = instruction.operands, str(instruction.operator)
        if name == "k" and len(operands) == 4:
            fill = tuple(float(v) for v in operands)
        elif name == "K" and len(operands) == 4:
            stroke = tuple(float(v) for v in operands)
        elif name in ("g", "rg", "sc", "scn", "cs"):
            fill = None
        elif name in ("G", "RG", "SC", "SCN", "CS"):
            stroke = None
        elif name == "Tr":
            mode = int(operands[0])
        elif name == "q":
            stack.append((fill, stroke, mode))
        elif name == "Q" and stack:
            fill, stroke, mode = stack.pop()
        elif name == "Do" and xobjects is not None and operands[0] in xobjects:
            xobj = xobjects[operands[0]]
            if xobj.get("/Subtype") == "/Form":
                found.update(_painted(xobj, (fill, stroke), memo))
            elif xobj.get("/ImageMask") is True:  # a stencil paints in the fill colour
                found.add(fill)
        if name in _FILLS or (name in _SHOWS and mode in _FILLED_TEXT):
            found.add(fill)
        if name in _STROKES or (name in _SHOWS and mode in _STROKED_TEXT):
            found.add(stroke)
    done = frozenset(c for c in found if c is not None)
    memo[key] = done
    return done


def _gradient_inks(resources: list) -> set[tuple[float, float, float, float]]:
    """The CMYK stop colours (C0, C1 of each piece of the function) of every DeviceCMYK shading
    pattern in ``resources``."""
    found: set[tuple[float, float, float, float]] = set()
    for res in resources:
        patterns = res.get("/Pattern")
        for pattern in (patterns.values() if patterns is not None else ()):
            found.update(gradient_stops(pattern.get("/Shading")))
    return found


def gradient_stops(shading) -> list[tuple[float, float, float, float]]:
    """The CMYK stops (C0, C1 of each piece of its function, stitched ones too) of a DeviceCMYK
    shading, in the order its function holds them; none of any other shading."""
    if shading is None or shading.get("/ColorSpace") != "/DeviceCMYK" or "/Function" not in shading:
        return []
    stops: list[tuple[float, float, float, float]] = []
    todo = [shading["/Function"]]
    while todo:
        fn = todo.pop()
        todo.extend(fn.get("/Functions", ()))
        for key in ("/C0", "/C1"):
            if len(fn.get(key, ())) == 4:
                stops.append(tuple(float(v) for v in fn[key]))  # type: ignore[arg-type]
    return stops


@dataclass(frozen=True)
class HeavyPicture:
    """A CMYK picture with pixels over the ink limit: the pages showing it (0-based), its
    heaviest pixel's colour and total ink (%), and the share of its pixels over the limit (%)."""

    pages: tuple[int, ...]
    colour: tuple[float, float, float, float]
    ink: float
    share: float
    held: bool = False  # converted from RGB with those pixels held to the limit (pdf/pdfx.py): the figures are the art's
    stream: str = ""  # the SHA-256 of its stream as stored: which art file it is, for a warning to name
    pixels: tuple[int, int] = (0, 0)  # its width and height as placed: which of a piece's art files it is


def pictures_over_limit(pdf: bytes, limit: float,
                        measured: Mapping[str, HeavyPicture | None] | None = None) -> list[HeavyPicture]:
    """Every DeviceCMYK picture (image XObject of a page or of a form it draws) with a pixel over
    ``limit`` percent, each once, in the order of the first page showing it. A picture's ink is
    per pixel: its colours are as many as its pixels, so it is measured, not listed — each
    picture once, as it is first met, and let go of (a thousand cards' pictures, decoded, are
    gigabytes). ``measured``: pictures measured against ``limit`` as they were made, by the
    SHA-256 of their stream as stored (pdf/pdfx.py ``pictures_to_cmyk``), not decoded again."""
    import pikepdf

    found: dict[tuple[int, int], tuple[list[int], HeavyPicture | None]] = {}
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for index, page in enumerate(doc.pages):
            for image in _images_drawn(page.obj):
                if image.get("/ColorSpace") != "/DeviceCMYK":
                    continue
                if image.objgen not in found:
                    key = hashlib.sha256(bytes(image.read_raw_bytes())).hexdigest()
                    heavy = _measured(image, key, limit, measured)
                    size = (int(image.Width), int(image.Height))
                    found[image.objgen] = ([], replace(heavy, stream=key, pixels=size) if heavy is not None else None)
                pages = found[image.objgen][0]
                if index not in pages:
                    pages.append(index)
    return [replace(heavy, pages=tuple(pages)) for pages, heavy in found.values() if heavy is not None]


def _images_drawn(page) -> list:
    """The image XObjects of a page and of the forms it draws (each form once)."""
    out: list = []
    for obj in with_forms([page]):
        res = obj.get("/Resources")
        xobjects = res.get("/XObject") if res is not None else None
        out.extend(x for x in (xobjects.values() if xobjects is not None else ()) if x.get("/Subtype") == "/Image")
    return out


def _measured(image, key: str, limit: float, measured: Mapping[str, HeavyPicture | None] | None) -> HeavyPicture | None:
    if measured:
        if key in measured:
            return measured[key]
    pixels = _cmyk_pixels(image)
    return heaviest_pixels(pixels, limit) if pixels is not None else None


def heaviest_pixels(pixels, limit: float) -> HeavyPicture | None:
    """A picture's heaviest pixel and share over ``limit`` (its pages left to the caller), or
    None under the limit; ``pixels``: an (n, 4) array of 0–255 ink values."""
    tally = InkTally(limit)
    tally.add(pixels)
    return tally.heaviest()


class InkTally:
    """``heaviest_pixels`` of a picture read in parts (strips of rows, in order): the first
    heaviest pixel and the number over ``limit`` carried from part to part, so a picture of tens
    of millions of pixels is measured without holding all of them."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.ink = -1.0
        self.colour: tuple[float, ...] = ()
        self.over = 0
        self.pixels = 0

    def add(self, pixels) -> None:
        """The next part: an (n, 4) array of 0–255 ink values."""
        if not len(pixels):
            return
        ink = pixels.sum(axis=1) * (100.0 / 255.0)
        at = int(ink.argmax())
        if float(ink[at]) > self.ink:  # (the first of equals, as argmax over the whole)
            self.ink = float(ink[at])
            self.colour = tuple(round(float(v) / 255.0, 3) for v in pixels[at])
        self.over += int((ink > self.limit + 1e-6).sum())
        self.pixels += len(pixels)

    def heaviest(self, held: bool = False) -> HeavyPicture | None:
        if self.ink <= self.limit + 1e-6:
            return None
        return HeavyPicture((), self.colour, round(self.ink, 1),  # type: ignore[arg-type]
                            100.0 * (self.over / self.pixels), held)


def as_printed(pixels, image):
    """Pillow's reading of a DeviceCMYK JPEG's pixels (0–255) as the inks the PDF prints: Pillow
    reads every CMYK JPEG's samples inverted (Adobe's way), which a Decode of [1 0 …] prints; a
    JPEG placed without one (no Adobe marker: data/pixels.py plain_cmyk) prints its samples themselves."""
    return 255 - pixels if samples_inverted(image) else pixels


def samples_inverted(image) -> bool:
    """Whether Pillow's reading of a DeviceCMYK JPEG's samples is the inks inverted (``as_printed``):
    so for a JPEG placed without a Decode of [1 0 …]."""
    decode = [float(v) for v in image.get("/Decode", ())]
    return decode[:2] != [1.0, 0.0]


def _cmyk_pixels(image):
    """An 8-bit DeviceCMYK image's pixels (a pikepdf stream) as an (n, 4) array of 0–255 ink
    values (a Decode of [1 0 …] applied), or None for a picture of another depth."""
    import numpy as np
    import pikepdf

    given = image.get("/Filter")
    filters = [str(f) for f in given] if isinstance(given, pikepdf.Array) else [str(given)] if given is not None else []
    if "/DCTDecode" in filters:  # Pillow reads a CMYK JPEG's samples inverted: as_printed
        from PIL import Image

        jpeg_bytes = bytes(image.read_raw_bytes())
        if filters[:-1]:  # (an ASCII85 or Flate layer over the JPEG, as ReportLab writes: undone alone)
            with pikepdf.new() as scratch:  # (held open while its stream is read)
                outer = pikepdf.Stream(scratch, jpeg_bytes)
                outer.Filter = pikepdf.Array([pikepdf.Name(f) for f in filters[:-1]])
                jpeg_bytes = bytes(outer.read_bytes())
        with Image.open(io.BytesIO(jpeg_bytes)) as jpeg:
            if jpeg.mode != "CMYK":
                return None
            return as_printed(np.asarray(jpeg, dtype=np.uint16).reshape(-1, 4), image)
    if int(image.get("/BitsPerComponent", 8)) != 8:
        return None
    data = image.read_bytes()
    width, height = int(image["/Width"]), int(image["/Height"])
    if len(data) < width * height * 4:
        return None
    pixels = np.frombuffer(data[:width * height * 4], dtype=np.uint8).reshape(-1, 4).astype(np.uint16)
    decode = [float(v) for v in image.get("/Decode", ())]
    if decode[:2] == [1.0, 0.0]:
        pixels = 255 - pixels
    return pixels


def content_streams(page, resources: list | None = None) -> list[bytes]:
    """A page's content and, recursively, its form XObjects' content; each /Resources met is
    added to ``resources``."""
    out = [page.get_contents().get_data()] if page.get_contents() is not None else []
    todo = [page.get("/Resources")]
    seen: set[int] = set()
    while todo:
        res = todo.pop()
        if res is None:
            continue
        res = res.get_object()
        if resources is not None:
            resources.append(res)
        xobjects = res.get("/XObject")
        if xobjects is None:
            continue
        for ref in xobjects.get_object().values():
            obj = ref.get_object()
            if id(obj) in seen or obj.get("/Subtype") != "/Form":
                continue
            seen.add(id(obj))
            out.append(obj.get_data())
            todo.append(obj.get("/Resources"))
    return out


def over_limit(pdf: bytes, limit: float) -> list[tuple[int, tuple[float, float, float, float], float]]:
    """(page index, colour, total ink %) of every DeviceCMYK colour over ``limit`` percent. The
    cut marks print in the Separation ``All`` (pdf/writer.py), not a DeviceCMYK colour: not ink on
    the piece, not counted."""
    return [(i, c, total_ink(c)) for i, colours in enumerate(inks_used(pdf)) for c in sorted(colours)
            if total_ink(c) > limit + 1e-6]


def vectors_to_cmyk(pdf: bytes) -> bytes:
    """The PDF with every DeviceRGB vector colour drawn in DeviceCMYK by ``to_cmyk``: ``rg``/``RG``
    and DeviceRGB ``cs``/``sc`` in the content of its pages and of every form they draw, and the
    stops of its DeviceRGB gradients (axial and radial shadings of exponential or stitching
    functions, as pdf/shading.py writes them). For a PDF another library drew in RGB (ReportLab's
    rulebook pages), so the shop's file holds one conversion, the cards' own. Pictures are
    pdf/pdfx.py ``pictures_to_cmyk``'s."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        # each page, and each form and tiling pattern it draws, once
        for obj in with_forms([page.obj for page in doc.pages], tiling_patterns=True):
            _stream_to_cmyk(doc, obj)
            res = obj.get("/Resources")
            if res is None:
                continue
            shadings = list(res.get("/Shading", {}).values())
            shadings += [pattern.Shading for pattern in res.get("/Pattern", {}).values() if "/Shading" in pattern]
            for shading in shadings:
                if shading.get("/ColorSpace") == pikepdf.Name.DeviceRGB:
                    _shading_to_cmyk(shading)
        return pdf_bytes(doc)


def _stream_to_cmyk(doc, obj) -> None:
    """One content stream (a page's or a form's) with its RGB colour operators in CMYK."""
    import pikepdf
    from pikepdf import Name, Operator

    out: list = []
    spaces = ["", ""]  # the fill's and the stroke's colour space set by cs/CS
    stack: list[list[str]] = []
    changed = False
    for instruction in pikepdf.parse_content_stream(obj):
        operands: list = list(instruction.operands)
        name = str(instruction.operator)
        if name in ("rg", "RG") and len(operands) == 3:
            operands, name, changed = _cmyk_of(operands), "k" if name == "rg" else "K", True
        elif name in ("cs", "CS"):
            spaces[name == "CS"] = str(operands[0]) if operands else ""
            if spaces[name == "CS"] == "/DeviceRGB":
                operands, changed = [Name.DeviceCMYK], True
        elif name in ("sc", "scn", "SC", "SCN") and spaces[name.isupper()] == "/DeviceRGB" and len(operands) == 3:
            operands, changed = _cmyk_of(operands), True
        elif name == "q":
            stack.append(list(spaces))
        elif name == "Q" and stack:
            spaces = stack.pop()
        out.append((operands, Operator(name)))
    if changed:
        write_content(doc, obj, out)


def write_content(doc, obj, instructions: list) -> None:
    """Put ``instructions`` (pikepdf's parsed operands and operators) back as ``obj``'s content: a
    form's stream rewritten, a page's content stream(s) replaced by one."""
    import pikepdf

    data = pikepdf.unparse_content_stream(instructions)
    if isinstance(obj, pikepdf.Stream):
        obj.write(data)
    else:
        obj.Contents = doc.make_stream(data)


def _cmyk_of(rgb) -> list[float]:
    return [round(v, 6) for v in to_cmyk(*(float(v) for v in rgb))]


def _shading_to_cmyk(shading) -> None:
    """A DeviceRGB shading's stops in CMYK; one of a function other than the exponential (2) and
    stitching (3) ones pnpgen writes is left as it is (and shows as DeviceRGB to a preflight)."""
    import pikepdf

    functions, todo = [], [shading.get("/Function")]
    while todo:
        fn = todo.pop()
        if fn is None or isinstance(fn, pikepdf.Array) or int(fn.get("/FunctionType", -1)) not in (2, 3):
            return
        functions.append(fn)
        todo.extend(fn.get("/Functions", ()))
    for fn in functions:
        for key in ("/C0", "/C1"):
            if len(fn.get(key, ())) == 3:  # (a function two shadings share is converted once)
                fn[key] = pikepdf.Array(_cmyk_of(fn[key]))
    shading.ColorSpace = pikepdf.Name.DeviceCMYK
