"""What a page's content streams paint, as printed: every stroke's width, every text's size and
inks, every picture's placed size, through the matrices in force (pikepdf's parser, not pnpgen's
writer)."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any

import pikepdf

from pnpgen.preflight.shop import MM

INK_PRESENT = 0.10  # an ink counts from 10 % (a paler tint's fringe is not seen)

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point p goes to p·m·n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def scale(m: Matrix) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


@dataclass
class GState:
    """The graphics state a content stream is read with: the matrix, line width, colours and
    their spaces, overprint, and the text's size and rendering mode."""

    ctm: Matrix = IDENTITY
    lw: float = 1.0
    fill: tuple = ("cmyk", (0.0, 0.0, 0.0, 1.0))
    stroke: tuple = ("cmyk", (0.0, 0.0, 0.0, 1.0))
    fill_space: str = "DeviceGray"
    stroke_space: str = "DeviceGray"
    op_fill: bool = False
    op_stroke: bool = False
    font_size: float = 0.0
    render: int = 0

    def copy(self) -> GState:
        return GState(**self.__dict__)


@dataclass
class Paint:
    """One thing a page paints, as printed."""

    kind: str  # stroke, text, image
    page: int
    width: float = 0.0  # stroke: pt as printed; text: size pt as printed
    colour: tuple = ()
    overprint: bool = False
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # page pt
    ppi: float = 0.0
    pixels: tuple[int, int] = (0, 0)
    image_space: str = ""


def _num(o: object) -> float:
    return float(o)  # type: ignore[arg-type]


def colour_of(space: str, values: list[float], spaces: dict[str, Any]) -> tuple:
    if space == "DeviceCMYK" and len(values) == 4:
        return ("cmyk", tuple(values))
    if space == "DeviceGray" and len(values) == 1:
        return ("cmyk", (0.0, 0.0, 0.0, 1.0 - values[0]))
    if space == "DeviceRGB" and len(values) == 3:
        return ("rgb", tuple(values))
    cs = spaces.get(space)
    if isinstance(cs, pikepdf.Array) and len(cs) > 1 and cs[0] == pikepdf.Name("/Separation"):
        return ("sep", (str(cs[1])[1:], values[0] if values else 1.0))
    return ("other", (space, tuple(values)))


# the forms a page may draw, each time one is drawn counted: a form drawing another ten times, and
# that one the next, twelve deep, is 10¹² forms to walk (the preflight ran for good)
FORMS_PER_PAGE = 100_000


# the content a page may have parsed, its own and each form's each time drawn, decoded: parsed
# whole, a stream takes some six times its size (a 3 MB file whose 1.8 GB of zeros was one
# page's content took 10 GB and minutes); pnpgen's densest pages are a few MB
CONTENT_PER_PAGE = 64 << 20
FLATE_MOST = 1100  # the most a byte of Flate data decodes to (deflate's 1032:1, rounded up)


@dataclass
class Walk:
    """A page's walk through its content: the forms it may still draw, the decoded bytes of
    content it may still parse, the operator being read."""

    forms: int = FORMS_PER_PAGE
    content: int = CONTENT_PER_PAGE
    op: str = ""


def _decoded_size(stream: Any, most: int) -> int:
    """The bytes a content stream decodes to, found without holding more than ``most`` + 1 of
    them: one Flate filter (as writers write) decoded a block at a time and stopped past
    ``most``; no filter its length; any other filter decoded whole only when even Flate's most
    (``FLATE_MOST``) of its length stays within ``most`` (else said as past it)."""
    if not isinstance(stream, pikepdf.Stream):
        return 0
    raw = stream.read_raw_bytes()
    filters = stream.get("/Filter")
    names = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [] if filters is None else [str(filters)]
    if not names:
        return len(raw)
    if names == ["/FlateDecode"]:
        inflate = zlib.decompressobj()
        size, data = 0, raw
        try:
            while data and size <= most:
                size += len(inflate.decompress(data, 1 << 20))
                data = inflate.unconsumed_tail
        except zlib.error:
            return len(raw)  # (pikepdf's parser says what it makes of it)
        return size
    return len(stream.read_bytes()) if len(raw) * FLATE_MOST <= most else most + 1


def _budget(obj: Any, page_no: int, walked: Walk) -> None:
    """The page's content (a page's /Contents, a form) taken from what it may parse; a
    pikepdf.PdfError once past it."""
    contents = obj.get("/Contents") if isinstance(obj, pikepdf.Dictionary) else obj
    for stream in contents if isinstance(contents, pikepdf.Array) else [contents]:
        walked.content -= _decoded_size(stream, max(walked.content, 0))
        if walked.content < 0:
            raise pikepdf.PdfError(f"page {page_no} has more than {CONTENT_PER_PAGE >> 20} MB of content to draw "
                                   "(its own and its forms' each time drawn)")


def walk(pdf_page: pikepdf.Page, page_no: int) -> list[Paint]:
    """What the page paints, as printed; a pikepdf.PdfError for a page no shop's RIP would take
    (an operator without the operands it takes, its forms drawn past ``FORMS_PER_PAGE`` times)."""
    paints: list[Paint] = []
    _walk_stream(pdf_page.obj, pdf_page.obj.get("/Resources", pikepdf.Dictionary()), GState(), page_no, paints, 0,
                 Walk())
    return paints


def _walk_stream(obj: Any, resources: Any, gs: GState, page_no: int, out: list[Paint],
                 depth: int, walked: Walk) -> None:
    if depth > 12:
        return
    _budget(obj, page_no, walked)
    try:
        _walk_operators(obj, resources, gs, page_no, out, depth, walked)
    except (ValueError, IndexError, TypeError, AttributeError) as e:
        raise pikepdf.PdfError(f"page {page_no}: the operator {walked.op or '(none)'} without the operands it "
                               "takes" + (f" ({e})" if str(e) else "")) from None


def _walk_operators(obj: Any, resources: Any, gs: GState, page_no: int, out: list[Paint],
                    depth: int, walked: Walk) -> None:
    spaces = dict(resources.get("/ColorSpace", pikepdf.Dictionary()).items())
    spaces = {k[1:]: v for k, v in spaces.items()}
    extg = resources.get("/ExtGState", pikepdf.Dictionary())
    xobjects = resources.get("/XObject", pikepdf.Dictionary())
    stack: list[GState] = []
    path: list[tuple[float, float]] = []
    tm: Matrix = IDENTITY
    tlm: Matrix = IDENTITY
    leading = 0.0
    instruction: Any
    for instruction in pikepdf.parse_content_stream(obj):
        operands, op = instruction.operands, instruction.operator
        o = walked.op = str(op)
        if o == "q":
            stack.append(gs.copy())
        elif o == "Q":
            if stack:
                gs = stack.pop()
        elif o == "cm":
            gs.ctm = mul(tuple(_num(x) for x in operands), gs.ctm)  # type: ignore[arg-type]
        elif o == "w":
            gs.lw = _num(operands[0])
        elif o in ("m", "l"):
            path.append(apply(gs.ctm, _num(operands[0]), _num(operands[1])))
        elif o == "c":
            path.append(apply(gs.ctm, _num(operands[4]), _num(operands[5])))
        elif o in ("v", "y"):
            path.append(apply(gs.ctm, _num(operands[2]), _num(operands[3])))
        elif o == "re":
            x, y, w, h = (_num(v) for v in operands)
            path += [apply(gs.ctm, x, y), apply(gs.ctm, x + w, y + h), apply(gs.ctm, x + w, y), apply(gs.ctm, x, y + h)]
        elif o in ("S", "s", "B", "B*", "b", "b*"):
            if path:
                xs = [p[0] for p in path]
                ys = [p[1] for p in path]
                out.append(Paint("stroke", page_no, gs.lw * scale(gs.ctm), gs.stroke, gs.op_stroke,
                                 (min(xs), min(ys), max(xs), max(ys))))
            path = []
        elif o in ("f", "F", "f*", "n", "W", "W*"):
            if o not in ("W", "W*"):
                path = []
        elif o == "CS":
            gs.stroke_space = str(operands[0])[1:]
        elif o == "cs":
            gs.fill_space = str(operands[0])[1:]
        elif o in ("SC", "SCN"):
            gs.stroke = colour_of(gs.stroke_space, [_num(v) for v in operands if not isinstance(v, pikepdf.Name)], spaces)
        elif o in ("sc", "scn"):
            gs.fill = colour_of(gs.fill_space, [_num(v) for v in operands if not isinstance(v, pikepdf.Name)], spaces)
        elif o in ("K", "k", "G", "g", "RG", "rg"):
            space = {"K": "DeviceCMYK", "G": "DeviceGray", "RG": "DeviceRGB"}[o.upper()]
            colour = colour_of(space, [_num(v) for v in operands], spaces)
            if o.isupper():
                gs.stroke_space, gs.stroke = space, colour
            else:
                gs.fill_space, gs.fill = space, colour
        elif o == "gs":
            state = extg.get(operands[0])
            if state is not None:
                if "/OP" in state:
                    gs.op_stroke = bool(state.OP)
                    gs.op_fill = bool(state.get("/op", state.OP))
                elif "/op" in state:
                    gs.op_fill = bool(state.op)
        elif o == "BT":
            tm = tlm = IDENTITY
        elif o == "Tf":
            gs.font_size = _num(operands[1])
        elif o == "Tr":
            gs.render = int(operands[0])
        elif o == "TL":
            leading = _num(operands[0])
        elif o == "Tm":
            tm = tlm = tuple(_num(x) for x in operands)  # type: ignore[assignment]
        elif o in ("Td", "TD"):
            tlm = mul((1, 0, 0, 1, _num(operands[0]), _num(operands[1])), tlm)
            tm = tlm
            if o == "TD":
                leading = -_num(operands[1])
        elif o == "T*":
            tlm = mul((1, 0, 0, 1, 0, -leading), tlm)
            tm = tlm
        elif o in ("Tj", "TJ", "'", '"'):
            if gs.render not in (3, 7):  # 3: invisible, 7: clip only
                m = mul(tm, gs.ctm)
                size = gs.font_size * scale(m)
                x, y = apply(m, 0, 0)
                out.append(Paint("text", page_no, size, gs.fill, gs.op_fill, (x, y, x, y)))
        elif o == "Do":
            xo = xobjects.get(operands[0])
            if xo is None:
                continue
            if xo.get("/Subtype") == pikepdf.Name("/Image"):
                corners = [apply(gs.ctm, u, v) for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))]
                w_pt = math.dist(corners[0], corners[1])
                h_pt = math.dist(corners[0], corners[2])
                px_w, px_h = int(xo.Width), int(xo.Height)
                ppi = min(px_w / (w_pt / 72) if w_pt else 1e9, px_h / (h_pt / 72) if h_pt else 1e9)
                xs = [c[0] for c in corners]
                ys = [c[1] for c in corners]
                out.append(Paint("image", page_no, 0, (), gs.op_fill, (min(xs), min(ys), max(xs), max(ys)),
                                 ppi, (px_w, px_h), str(xo.get("/ColorSpace"))))
            elif xo.get("/Subtype") == pikepdf.Name("/Form"):
                walked.forms -= 1
                if walked.forms < 0:
                    raise pikepdf.PdfError(f"page {page_no} draws its forms more than {FORMS_PER_PAGE:,} times "
                                           "(a form drawing itself, or another, over and over)")
                inner = gs.copy()
                if "/Matrix" in xo:
                    inner.ctm = mul(tuple(_num(x) for x in xo.Matrix), gs.ctm)  # type: ignore[arg-type]
                _walk_stream(xo, xo.get("/Resources", resources), inner, page_no, out, depth + 1, walked)


def inks(colour: tuple) -> tuple[float, float, float, float] | None:
    if colour and colour[0] == "cmyk":
        return colour[1]  # type: ignore[no-any-return]
    return None


def by_colour(found: dict[tuple, list[int]]) -> list[tuple[tuple, str, list[int]]]:
    """Findings keyed by what they are and, last, their colour, grouped by what they are: each
    group's key without the colour, its colours said (one: as it is; several: how many, each with
    its count and pages, trial69's clan colours in one line, not one each), and every page. The
    findings' order is their keys'."""
    groups: dict[tuple, list[tuple[str, list[int]]]] = {}
    for key, pages in sorted(found.items()):
        groups.setdefault(key[:-1], []).append((key[-1], pages))
    out = []
    for key, colours in groups.items():
        said = colours[0][0] if len(colours) == 1 else f"{len(colours)} colours (" + "; ".join(
            f"{colour} ×{len(pages)} on {len(set(pages))} pages" for colour, pages in colours) + ")"
        out.append((key, said, sorted(page for _, pages in colours for page in pages)))
    return out


def describe(colour: tuple) -> str:
    if colour and colour[0] == "cmyk":
        return "CMYK " + "/".join(f"{v * 100:.4g}" for v in colour[1])
    if colour and colour[0] == "sep":
        return f"Separation {colour[1][0]}"
    return str(colour)


def boxes(page: pikepdf.Page) -> dict[str, tuple[float, ...]]:
    out = {}
    for key in ("/MediaBox", "/BleedBox", "/TrimBox"):
        box: Any = page.obj.get(key, page.obj.get("/MediaBox"))
        try:
            out[key[1:]] = tuple(round(float(v), 2) for v in box)
        except (TypeError, ValueError):
            out[key[1:]] = ()
        if len(out[key[1:]]) != 4:
            raise pikepdf.PdfError(f"a page's {key[1:]} is {str(box)[:80]}, not four numbers")
    return out


def size_mm(box: tuple[float, ...]) -> tuple[float, float]:
    return ((box[2] - box[0]) / MM, (box[3] - box[1]) / MM)
