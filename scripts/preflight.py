#!/usr/bin/env python3
"""A print shop's preflight of an export folder: what a prepress operator checks page by page.

    python scripts/preflight.py build/<game>/<preset> [more folders] [--json report.json]
        (a --lang export's folder: build/<game>/<lang>/<preset>)
        [--ink-limit 300] [--min-line 0.25pt] [--min-ppi 300] [--min-text 6pt] [--pages-png DIR]

It reads the files as a shop receives them, independently of the code that wrote them (pikepdf for
the content streams, Ghostscript's ``tiffsep`` for the inks, Pillow for PNGs), and reads the
preset's figures from the preset of the folder's name (``ink_limit``, ``dpi``, ``min_line``,
``formats``, ``page_order``, ``page_multiple``; a command-line figure overrides it). For each PDF:

- page geometry: MediaBox, BleedBox and TrimBox the same on every page (a counter sheet's page
  aside), the trim one of the preset's formats (or any size for ``trim: any``), the bleed the
  format's; the page count a multiple of 2 (a PDF of fronts and backs) or of ``page_multiple``;
- total ink (TAC): every page drawn as its separations at 4 px/mm (overprint as a press prints it),
  the sum of C+M+Y+K inside the BleedBox against the limit (the registration marks outside it);
- hairlines: every stroke's width as printed (its width × the matrices), those under the minimum,
  the cut marks apart from the art; a width of 0 (the device's thinnest line) is always named;
- effective resolution of every placed picture (its pixels ÷ its placed size) against the preset's dpi;
- text: the smallest size as printed, small text in several inks, white text on the page, black
  (K-only) text that does not overprint;
- bleed: the outermost millimetre of every side of every piece's bleed inked where the trim is;
  text inside the format's safe zone (its glyphs' boxes, pdfium); the cut marks outside the bleed.

For PNGs (png-faces): the pixel size against the format's ``pixels``, RGB, and the bleed. Exit
status 1 when a finding is an error (a figure a shop turns a file away for), else 0.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pikepdf
import yaml
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]


def pnpgen_presets() -> Path:
    """pnpgen's own presets: the installed package's (a copy of this script beside any workspace),
    else the checkout's this script sits in."""
    try:
        from importlib.resources import files

        shipped = Path(str(files("pnpgen.exports") / "presets"))
        if shipped.is_dir():
            return shipped
    except ImportError:
        pass
    return ROOT / "generator" / "pnpgen" / "exports" / "presets"


PRESETS = pnpgen_presets()
MM = 72 / 25.4  # points per mm
PX_MM = 4  # separations drawn at 4 px/mm (101.6 dpi)
INK_PRESENT = 0.10  # an ink counts from 10 % (a paler tint's fringe is not seen)
MIXED_TEXT_PT = 8.0  # "Color type should be 8 pt minimum when printing in two or more colors" (Lakeside)


@dataclass
class Finding:
    file: str
    page: int  # 1-based; 0 for the whole file
    check: str  # geometry, ink, hairline, resolution, text, bleed, safe, marks, pixels
    level: str  # error (a shop turns it away) or note (a shop's operator would ask)
    message: str


@dataclass
class Shop:
    name: str
    ink_limit: float = 300.0
    min_line_pt: float = 0.25
    min_ppi: float = 300.0
    min_text_pt: float = 6.0
    page_multiple: int = 1
    page_order: str = "front-back"
    files: str = "png-faces"
    colour: str = "rgb"
    formats: dict[str, dict] = field(default_factory=dict)


class BadInput(Exception):
    """A folder, option or preset the preflight cannot read: one line, exit status 2."""


def length(text: str) -> str:
    """A command line's length, checked as it is read (argparse says a wrong one in one line)."""
    try:
        if not 0 <= length_pt(text) < math.inf:
            raise ValueError(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a length (expected e.g. 0.1mm, 0.25pt or 0.125in)") from None
    return text


def figure(text: str) -> float:
    """A command line's ink limit or resolution: a number above 0 (nan, -5 or 0 checked nothing, or all)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a figure (expected a number above 0, e.g. 300)")
    return value


def length_pt(value: object, default_unit: str = "pt") -> float:
    """'0.1mm', '0.25pt', '0.125in', 3 (in default_unit) → points."""
    text = str(value).strip()
    for unit, scale in (("mm", MM), ("pt", 1.0), ("in", 72.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text) * {"mm": MM, "pt": 1.0, "in": 72.0}[default_unit]


def own_presets(folder: Path, name: str) -> list[Path]:
    """Where the game's and the workspace's own preset ``name`` would be for an export folder in a
    workspace: ``build/<game>/<preset>``, or a ``--lang`` export's ``build/<game>/<lang>/<preset>``
    (the game found as the folder of ``data/`` it is named after); none for a folder elsewhere."""
    for game_dir in folder.parents[:2]:  # build/<game>/<preset>, then build/<game>/<lang>/<preset>
        if len(game_dir.parents) < 2:
            break
        workspace, game = game_dir.parents[1], game_dir.name
        if (workspace / "data" / game).is_dir():
            return [workspace / "data" / game / "presets" / f"{name}.yaml", workspace / "presets" / f"{name}.yaml"]
    return []


def load_shop(folder: Path, args: argparse.Namespace) -> Shop:
    name = folder.name
    spec: dict = {}
    # the game's preset, then the workspace's, then pnpgen's
    candidates = [*own_presets(folder.resolve(), name), PRESETS / f"{name}.yaml"]
    shop = Shop(name=name)
    for candidate in candidates:
        if candidate.is_file():
            try:
                spec = yaml.safe_load(candidate.read_text(encoding="utf-8")) or {}
                if not isinstance(spec, dict):
                    raise ValueError("the preset is not a mapping of settings")
                for key, expected in (("ink_limit", "a number of %, e.g. 300"), ("min_line", "a length, e.g. 0.25pt"),
                                      ("dpi", "a number, e.g. 300"), ("page_multiple", "a whole number, e.g. 2"),
                                      ("formats", "a mapping of formats")):
                    value = spec.get(key)
                    try:
                        if key == "ink_limit":
                            shop.ink_limit = figure(str(spec.get(key, 300)))
                        elif key == "min_line" and value:
                            shop.min_line_pt = length_pt(value)
                        elif key == "dpi":
                            shop.min_ppi = figure(str(spec.get(key, 300)))
                        elif key == "page_multiple":
                            shop.page_multiple = int(spec.get(key, 1))
                        elif key == "formats":
                            shop.formats = dict(value or {})
                    except (ValueError, TypeError, argparse.ArgumentTypeError):
                        raise BadInput(f"{candidate}: {key}: {value!r} is not read (expected {expected})") from None
            except (yaml.YAMLError, ValueError, UnicodeDecodeError) as e:  # (the game's own preset)
                mark = getattr(e, "problem_mark", None)
                at = f"{candidate}:{mark.line + 1}" if mark is not None else str(candidate)
                said = getattr(e, "problem", None) or str(e)
                raise BadInput(f"{at}: {said} (expected the preset as pnpgen exports read it: docs/exports.md)") from None
            break
    shop.page_order = str(spec.get("page_order", "front-back"))
    shop.files = str(spec.get("files", "png-faces"))
    shop.colour = str(spec.get("colour", "rgb"))
    if args.ink_limit is not None:
        shop.ink_limit = args.ink_limit
    if args.min_line is not None:
        shop.min_line_pt = length_pt(args.min_line)
    if args.min_ppi is not None:
        shop.min_ppi = args.min_ppi
    if args.min_text is not None:
        shop.min_text_pt = length_pt(args.min_text)
    return shop


# ---------------------------------------------------------------- content streams

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


def colour_of(space: str, values: list[float], spaces: dict[str, object]) -> tuple:
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


@dataclass
class Walk:
    """A page's walk through its content: the forms it may still draw, the operator being read."""

    forms: int = FORMS_PER_PAGE
    op: str = ""


def walk(pdf_page: pikepdf.Page, page_no: int) -> list[Paint]:
    """What the page paints, as printed; a pikepdf.PdfError for a page no shop's RIP would take
    (an operator without the operands it takes, its forms drawn past ``FORMS_PER_PAGE`` times)."""
    paints: list[Paint] = []
    _walk_stream(pdf_page.obj, pdf_page.obj.get("/Resources", pikepdf.Dictionary()), GState(), page_no, paints, 0, Walk())
    return paints


def _walk_stream(obj: object, resources: pikepdf.Dictionary, gs: GState, page_no: int, out: list[Paint],
                 depth: int, walked: Walk) -> None:
    if depth > 12:
        return
    try:
        _walk_operators(obj, resources, gs, page_no, out, depth, walked)
    except (ValueError, IndexError, TypeError, AttributeError) as e:
        raise pikepdf.PdfError(f"page {page_no}: the operator {walked.op or '(none)'} without the operands it "
                               "takes" + (f" ({e})" if str(e) else "")) from None


def _walk_operators(obj: object, resources: pikepdf.Dictionary, gs: GState, page_no: int, out: list[Paint],
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
    for operands, op in pikepdf.parse_content_stream(obj):
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
                space = xo.get("/ColorSpace")
                out.append(Paint("image", page_no, 0, (), gs.op_fill, (min(xs), min(ys), max(xs), max(ys)),
                                 ppi, (px_w, px_h), str(space)))
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


def describe(colour: tuple) -> str:
    if colour and colour[0] == "cmyk":
        return "CMYK " + "/".join(f"{v * 100:.4g}" for v in colour[1])
    if colour and colour[0] == "sep":
        return f"Separation {colour[1][0]}"
    return str(colour)


# ---------------------------------------------------------------- checks of a PDF


def boxes(page: pikepdf.Page) -> dict[str, tuple[float, ...]]:
    out = {}
    for key in ("/MediaBox", "/BleedBox", "/TrimBox"):
        box = page.obj.get(key, page.obj.get("/MediaBox"))
        try:
            out[key[1:]] = tuple(round(float(v), 2) for v in box)
        except (TypeError, ValueError):
            out[key[1:]] = ()
        if len(out[key[1:]]) != 4:
            raise pikepdf.PdfError(f"a page's {key[1:]} is {str(box)[:80]}, not four numbers")
    return out


def size_mm(box: tuple[float, ...]) -> tuple[float, float]:
    return ((box[2] - box[0]) / MM, (box[3] - box[1]) / MM)


def check_geometry(name: str, pdf: pikepdf.Pdf, shop: Shop, found: list[Finding], book: bool) -> None:
    first = boxes(pdf.pages[0])
    sheets = 0
    for i, page in enumerate(pdf.pages, 1):
        b = boxes(page)
        if b != first:
            trim = size_mm(b["TrimBox"])
            found.append(Finding(name, i, "geometry", "note",
                                 f"page boxes differ from page 1's ({trim[0]:.2f}×{trim[1]:.2f} mm trim against "
                                 f"{size_mm(first['TrimBox'])[0]:.2f}×{size_mm(first['TrimBox'])[1]:.2f})"))
            sheets += 1
        t, bl, me = b["TrimBox"], b["BleedBox"], b["MediaBox"]
        if not (me[0] <= bl[0] <= t[0] and me[1] <= bl[1] <= t[1] and t[2] <= bl[2] <= me[2] and t[3] <= bl[3] <= me[3]):
            found.append(Finding(name, i, "geometry", "error", f"boxes not nested: {b}"))
    trim = size_mm(first["TrimBox"])
    bleed = [(first["TrimBox"][k] - first["BleedBox"][k]) / MM * (1 if k < 2 else -1) for k in range(4)]
    fits = []
    for fname, fmt in shop.formats.items():
        if fmt.get("trim") == "any":
            fits.append((fname, length_pt(fmt.get("bleed", 0), "mm") / MM))
            continue
        w, h = (length_pt(v, "mm") / MM for v in fmt["trim"])
        if {round(w, 1), round(h, 1)} == {round(trim[0], 1), round(trim[1], 1)} or (
            abs(w - trim[0]) < 0.06 and abs(h - trim[1]) < 0.06) or (abs(h - trim[0]) < 0.06 and abs(w - trim[1]) < 0.06):
            fits.insert(0, (fname, length_pt(fmt.get("bleed", 0), "mm") / MM))
    if shop.formats and not book:
        if not fits:
            found.append(Finding(name, 0, "geometry", "error",
                                 f"trim {trim[0]:.2f}×{trim[1]:.2f} mm is none of the preset's formats"))
        else:
            want = fits[0][1]
            if any(abs(b - want) > 0.05 for b in bleed) and not sheets:
                found.append(Finding(name, 0, "geometry", "error",
                                     f"bleed {', '.join(f'{b:.2f}' for b in bleed)} mm, the format '{fits[0][0]}' asks {want:.2f} mm"))
    n = len(pdf.pages)
    # a card a page with its back (pdf-copies: DriveThruCards reads two pages a card); the distinct
    # faces of pdf-faces may be one-sided (a counter sheet, a board), so any count goes there
    multiple = shop.page_multiple if book else (2 if shop.files == "pdf-copies" else 1)
    if n % multiple:
        found.append(Finding(name, 0, "geometry", "error", f"{n} pages, not a multiple of {multiple}"))


def render_inks(path: Path, work: Path) -> list[Path]:
    """Every page as CMYK separations (tiffsep's composite, overprint as printed), 4 px/mm."""
    out = work / path.stem
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-dNoSeparationFiles",
                    f"-r{PX_MM * 25.4}", "-o", str(out / "p%05d.tif"), str(path)], check=True)
    return sorted(out.glob("p*.tif"))


def crop(arr: np.ndarray, box: tuple[float, ...], media: tuple[float, ...]) -> np.ndarray:
    """The part of a page raster (top-left origin) inside a box in points."""
    h = arr.shape[0]
    px = PX_MM / MM
    x0 = round((box[0] - media[0]) * px)
    x1 = round((box[2] - media[0]) * px)
    y0 = round(h - (box[3] - media[1]) * px)
    y1 = round(h - (box[1] - media[1]) * px)
    return arr[max(0, y0):y1, max(0, x0):x1]


def check_ink_and_bleed(name: str, path: Path, pdf: pikepdf.Pdf, shop: Shop, found: list[Finding], work: Path,
                        report: dict, white: list[Paint]) -> None:
    rasters = render_inks(path, work)
    worst = (0.0, 0)
    knocked: dict[tuple, list[int]] = {}
    for i, (tif, page) in enumerate(zip(rasters, pdf.pages), 1):
        b = boxes(page)
        cmyk = np.asarray(Image.open(tif), dtype=np.uint16)
        inside = crop(cmyk, b["BleedBox"], b["MediaBox"])
        for p in (p for p in white if p.page == i):
            x, y = p.box[0], p.box[1]
            ground = crop(cmyk, (x, y, x + 2 * p.width, y + 0.7 * p.width), b["MediaBox"]).reshape(-1, 4)
            if len(ground) and np.median((ground >= INK_PRESENT * 255).sum(axis=1)) >= 3:
                knocked.setdefault((round(p.width, 1), describe(p.colour)), []).append(i)
        total = inside.sum(axis=2) * (100 / 255)
        peak = float(total.max()) if total.size else 0.0
        if peak > worst[0]:
            worst = (peak, i)
        over = total > shop.ink_limit + 1.0  # 1 % for the 8-bit samples
        area = over.sum() / PX_MM**2
        if area >= 0.5:
            ys, xs = np.nonzero(over)
            y, x = ys[0], xs[0]
            c, m, yy, k = (inside[y, x] * 100 / 255).round(1)
            found.append(Finding(name, i, "ink", "error",
                                 f"{area:.1f} mm² over {shop.ink_limit:g} % total ink (peak {peak:.0f} %, e.g. "
                                 f"CMYK {c}/{m}/{yy}/{k} at {x / PX_MM:.1f}, {y / PX_MM:.1f} mm from the bleed's top left)"))
        # bleed: the outer 1 mm of the bleed inked wherever the trim's edge is
        bleed_mm = [(b["TrimBox"][0] - b["BleedBox"][0]) / MM, (b["TrimBox"][1] - b["BleedBox"][1]) / MM,
                    (b["BleedBox"][2] - b["TrimBox"][2]) / MM, (b["BleedBox"][3] - b["TrimBox"][3]) / MM]
        if min(bleed_mm) < 1.0 or b["TrimBox"] != boxes(pdf.pages[0])["TrimBox"]:
            continue
        inked = inside.sum(axis=2) > 8
        edge = {"top": (inked[1:PX_MM, :], inked[round(bleed_mm[3] * PX_MM) + 2, :]),
                "bottom": (inked[-PX_MM:-1, :], inked[-round(bleed_mm[1] * PX_MM) - 3, :]),
                "left": (inked[:, 1:PX_MM].T, inked[:, round(bleed_mm[0] * PX_MM) + 2]),
                "right": (inked[:, -PX_MM:-1].T, inked[:, -round(bleed_mm[2] * PX_MM) - 3])}
        bare = []
        for side, (outer, trim_line) in edge.items():
            gap = trim_line & ~outer.any(axis=0)
            if gap.sum() / PX_MM >= 5:
                bare.append(f"{side} {gap.sum() / PX_MM:.0f} mm")
        if bare:
            found.append(Finding(name, i, "bleed", "error",
                                 "inked at the trim but bare in the bleed's outer millimetre: " + ", ".join(bare)))
    report["peak_ink"] = {"percent": round(worst[0], 1), "page": worst[1]}
    for (size, colour), pages in sorted(knocked.items()):
        found.append(Finding(name, pages[0], "text", "note",
                             f"white text {size} pt ({colour}) knocked out of a ground of 3 or 4 inks, "
                             f"×{len(pages)} on {len(set(pages))} pages"))


def save_png(path: Path, page: int, pngs: Path) -> None:
    pngs.mkdir(parents=True, exist_ok=True)
    stem = pngs / f"{path.parent.name}-{path.stem}-p{page}"
    if not Path(f"{stem}.png").exists():
        subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", "-f", str(page), "-l", str(page), str(path),
                        str(stem)], check=False)


def check_paints(name: str, pdf: pikepdf.Pdf, shop: Shop, found: list[Finding], report: dict,
                 cmyk: bool) -> list[Paint]:
    """Lines, text and pictures as printed; returns the white text under 8 pt, whose ground the
    ink check reads."""
    white: list[Paint] = []
    thin: dict[tuple, list[int]] = {}
    marks_in: list[int] = []
    small_text: dict[tuple, list[int]] = {}
    widths: list[float] = []
    sizes: list[float] = []
    ppis: list[tuple[float, int, tuple]] = []
    rgb_images = 0
    for i, page in enumerate(pdf.pages, 1):
        b = boxes(page)
        bleed = b["BleedBox"]
        for p in walk(page, i):
            if p.kind == "stroke":
                is_mark = p.colour[:1] == ("sep",) and p.colour[1][0] == "All"
                if is_mark:
                    x0, y0, x1, y1 = p.box
                    if x0 < bleed[2] - 0.01 and x1 > bleed[0] + 0.01 and y0 < bleed[3] - 0.01 and y1 > bleed[1] + 0.01:
                        marks_in.append(i)
                    report.setdefault("mark_width_pt", round(p.width, 3))
                    continue
                widths.append(p.width)
                if p.width < shop.min_line_pt - 0.005:
                    thin.setdefault((round(p.width, 3), describe(p.colour)), []).append(i)
            elif p.kind == "text":
                sizes.append(p.width)
                c = inks(p.colour)
                kinds = []
                if p.width < shop.min_text_pt - 0.05:
                    kinds.append("small")
                if c is not None:
                    n = sum(v >= INK_PRESENT for v in c)
                    if n >= 3 and p.width < MIXED_TEXT_PT - 0.05:
                        kinds.append("mixed-ink text under 8 pt")
                    if max(c) < INK_PRESENT and p.width < MIXED_TEXT_PT - 0.05:
                        white.append(p)
                    if c[0] == c[1] == c[2] == 0 and c[3] >= 0.999 and not p.overprint:
                        kinds.append("100 % K text knocking out")
                for kind in kinds:
                    small_text.setdefault((kind, round(p.width, 1), describe(p.colour)), []).append(i)
            elif p.kind == "image":
                ppis.append((p.ppi, i, p.pixels))
                if cmyk and "RGB" in p.image_space:
                    rgb_images += 1
    report["thinnest_line_pt"] = round(min(widths), 3) if widths else None
    report["smallest_text_pt"] = round(min(sizes), 2) if sizes else None
    report["lowest_ppi"] = round(min(ppis)[0]) if ppis else None
    for (w, colour), pages in sorted(thin.items()):
        what = "a 0-width line (the device's thinnest)" if w == 0 else f"a {w:.3f} pt ({w / MM:.3f} mm) line"
        found.append(Finding(name, pages[0], "hairline", "error" if w < 0.25 or w == 0 else "note",
                             f"{what} in {colour}, under {shop.min_line_pt:.3f} pt ({shop.min_line_pt / MM:.2f} mm)"
                             f", ×{len(pages)} on {len(set(pages))} pages"))
    for (kind, size, colour), pages in sorted(small_text.items()):
        found.append(Finding(name, pages[0], "text", "note",
                             f"{kind}: {size} pt in {colour}, ×{len(pages)} on {len(set(pages))} pages"))
    if marks_in:
        found.append(Finding(name, marks_in[0], "marks", "error",
                             f"registration-colour strokes inside the BleedBox on {len(set(marks_in))} pages"))
    low = [(ppi, pg, px) for ppi, pg, px in ppis if ppi < shop.min_ppi - 0.5]
    if low:
        ppi, pg, px = min(low)
        found.append(Finding(name, pg, "resolution", "error",
                             f"{len(low)} placed pictures under {shop.min_ppi:g} ppi, the lowest {ppi:.0f} ppi "
                             f"({px[0]}×{px[1]} px)"))
    if rgb_images:
        found.append(Finding(name, 0, "resolution", "error", f"{rgb_images} RGB pictures in a CMYK file"))
    return white


def check_safe(name: str, path: Path, shop: Shop, found: list[Finding]) -> None:
    """Text whose glyph boxes come nearer the trim than the format's safe zone (pdfium)."""
    import pypdfium2 as pdfium

    safe = [length_pt(f.get("safe", 0), "mm") for f in shop.formats.values() if f.get("safe")]
    if not safe:
        return
    zone = min(safe)
    doc = pdfium.PdfDocument(str(path))
    hits: list[tuple[float, int, str]] = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            trim = page.get_trimbox()
            media = page.get_mediabox()
            if trim == media:
                continue
            text = page.get_textpage()
            for k in range(text.count_chars()):
                ch = text.get_text_range(k, 1)
                if not ch.strip():
                    continue
                left, bottom, right, top = text.get_charbox(k)
                d = min(left - trim[0], bottom - trim[1], trim[2] - right, trim[3] - top)
                if d < zone - 0.3 * MM:
                    hits.append((d, i + 1, ch))
    finally:
        doc.close()
    if hits:
        d, pg, ch = min(hits)
        found.append(Finding(name, pg, "safe", "note",
                             f"{len(hits)} glyphs inside the {zone / MM:.2f} mm safe zone, the nearest 「{ch}」 "
                             f"{d / MM:.2f} mm from the trim"))


def check_order(name: str, folder: Path, shop: Shop, found: list[Finding]) -> None:
    order = folder / "order.csv"
    if not order.is_file() or shop.files != "pdf-copies":
        return
    try:
        with order.open(encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except (UnicodeDecodeError, csv.Error) as e:  # (each PDF reads it: said once)
        unread = Finding(f"{folder.name}/order.csv", 0, "file", "error", f"not a readable CSV: {e}")
        if unread not in found:
            found.append(unread)
        return
    for row in rows:
        if row.get("file") != name or not row.get("back"):
            continue
        odd = row["back"].endswith("odd") or (row["back"].isdigit() and int(row["back"]) % 2)
        if (shop.page_order == "back-front") != bool(odd):
            found.append(Finding(name, 0, "geometry", "error",
                                 f"order.csv puts the backs of piece {row.get('piece') or '?'} on pages {row['back']}, "
                                 f"the preset's page order is {shop.page_order}"))
            return


def check_pdf(path: Path, folder: Path, shop: Shop, found: list[Finding], work: Path) -> dict:
    name = str(path.relative_to(folder.parent))
    report: dict = {"file": name}
    with pikepdf.open(path) as pdf:
        report["pages"] = len(pdf.pages)
        if not pdf.pages:
            found.append(Finding(name, 0, "geometry", "error", "no pages"))
            return report
        b = boxes(pdf.pages[0])
        report["trim_mm"] = [round(v, 2) for v in size_mm(b["TrimBox"])]
        report["bleed_box_mm"] = [round(v, 2) for v in size_mm(b["BleedBox"])]
        die = path.stem.endswith("-die")
        cmyk = shop.colour == "cmyk" or "/OutputIntents" in pdf.Root
        book = shop.files == "rulebook"
        if not die:
            check_geometry(name, pdf, shop, found, book)
        white = check_paints(name, pdf, shop, found, report, bool(cmyk))
        if cmyk and not die:
            check_ink_and_bleed(name, path, pdf, shop, found, work, report, white)
    if not die and not book:
        check_safe(name, path, shop, found)
    check_order(path.name, folder, shop, found)
    return report


# ---------------------------------------------------------------- PNGs


def check_png(path: Path, folder: Path, shop: Shop, found: list[Finding]) -> dict:
    name = str(path.relative_to(folder.parent))
    with Image.open(path) as im:
        size = im.size
        mode = im.mode
        dpi = im.info.get("dpi")
        rgb = np.asarray(im.convert("RGB"), dtype=np.int16)
    report = {"file": name, "pixels": list(size), "mode": mode, "dpi": [round(float(v)) for v in dpi] if dpi else None}
    if "contact" in path.name or shop.name == "tabletopsimulator":
        return report
    fits = [f for f in shop.formats.values() if f.get("pixels") and {*f["pixels"]} == {*size}]
    if shop.formats and not fits:
        found.append(Finding(name, 0, "pixels", "error",
                             f"{size[0]}×{size[1]} px is none of the preset's formats' pixels"))
        return report
    if mode not in ("RGB", "RGBA", "P", "L"):
        found.append(Finding(name, 0, "pixels", "error", f"mode {mode}, the shop asks RGB"))
    if mode == "RGBA" and np.asarray(Image.open(path))[..., 3].min() < 255:
        found.append(Finding(name, 0, "pixels", "error", "see-through pixels"))
    fmt = fits[0] if fits else {}  # (a folder named after no preset: no format's pixels or bleed to hold it to)
    bleed_px = round(length_pt(fmt.get("bleed", 0), "mm") / 72 * shop.min_ppi)
    if bleed_px >= 4:
        inked = (rgb < 245).any(axis=2)
        edges = {"top": (inked[:bleed_px // 3], inked[bleed_px + 2]), "bottom": (inked[-bleed_px // 3:], inked[-bleed_px - 3]),
                 "left": (inked[:, :bleed_px // 3].T, inked[:, bleed_px + 2]),
                 "right": (inked[:, -bleed_px // 3:].T, inked[:, -bleed_px - 3])}
        px_mm = shop.min_ppi / 25.4
        bare = [f"{side} {(line & ~outer.any(axis=0)).sum() / px_mm:.0f} mm" for side, (outer, line) in edges.items()
                if (line & ~outer.any(axis=0)).sum() / px_mm >= 5]
        if bare:
            found.append(Finding(name, 0, "bleed", "error",
                                 "inked at the trim but bare in the bleed's outer third: " + ", ".join(bare)))
    return report


# ---------------------------------------------------------------- main


def preflight(folder: Path, args: argparse.Namespace, work: Path) -> tuple[Shop, list[Finding], list[dict]]:
    shop = load_shop(folder, args)
    found: list[Finding] = []
    reports: list[dict] = []
    pngs = Path(args.pages_png) if args.pages_png else None
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".pdf", ".png"):
            continue
        try:
            reports.append(check_pdf(path, folder, shop, found, work) if path.suffix == ".pdf"
                           else check_png(path, folder, shop, found))
        except (pikepdf.PdfError, OSError, Image.DecompressionBombError, subprocess.CalledProcessError) as e:
            # a damaged or cut-short file (a copy stopped, a download cut): what a shop turns away first
            name = str(path.relative_to(folder.parent))
            found.append(Finding(name, 0, "file", "error", f"not a readable {path.suffix[1:].upper()}: "
                                 f"{str(e).removeprefix(f'{path}: ')}"))
            reports.append({"file": name, "readable": False})
    if pngs is not None:
        for f in found:
            if f.page:
                save_png(folder.parent / f.file, f.page, pngs)
    return shop, found, reports


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path, help="export folders: build/<game>/<preset>")
    ap.add_argument("--ink-limit", type=figure, help="total ink in %% (default: the preset's ink_limit)")
    ap.add_argument("--min-line", type=length, help="thinnest line, e.g. 0.1mm or 0.25pt (default: the preset's min_line, else 0.25pt)")
    ap.add_argument("--min-ppi", type=figure, help="lowest effective resolution (default: the preset's dpi)")
    ap.add_argument("--min-text", type=length, help="smallest text, e.g. 6pt (default 6pt)")
    ap.add_argument("--pages-png", help="write each page with an ink or bleed finding here as a PNG (60 dpi)")
    ap.add_argument("--json", help="write the findings and each file's figures here")
    args = ap.parse_args(argv)
    for option, given in (("--json", args.json), ("--pages-png", args.pages_png)):
        wants = "a file to write" if option == "--json" else "a folder to write in"
        if given and (Path(given).is_dir() if option == "--json" else Path(given).exists() and not Path(given).is_dir()):
            print(f"preflight: {option} {given}: is a {'folder' if option == '--json' else 'file'} (expected {wants})",
                  file=sys.stderr)
            return 2
    if shutil.which("gs") is None:
        print("preflight: Ghostscript (gs) is needed to read the inks; install ghostscript", file=sys.stderr)
        return 2
    everything: dict = {}
    errors = 0
    with tempfile.TemporaryDirectory(prefix="preflight-") as tmp:
        for folder in args.folders:
            if not folder.is_dir():
                print(f"preflight: {folder}: not a folder (expected an export folder, build/<game>/<preset>)",
                      file=sys.stderr)
                return 2
            try:
                shop, found, reports = preflight(folder, args, Path(tmp))
            except BadInput as e:
                print(f"preflight: {e}", file=sys.stderr)
                return 2
            print(f"{folder}: {shop.name}, ink ≤ {shop.ink_limit:g} %, lines ≥ {shop.min_line_pt:.3f} pt, "
                  f"pictures ≥ {shop.min_ppi:g} ppi, text ≥ {shop.min_text_pt:g} pt")
            for r in reports:
                figures = ", ".join(f"{k} {v}" for k, v in r.items() if k != "file" and v is not None)
                print(f"  {r['file']}: {figures}")
            for f in found:
                where = f" page {f.page}" if f.page else ""
                print(f"  {f.level}: {f.file}{where}: {f.check}: {f.message}")
            errors += sum(f.level == "error" for f in found)
            everything[str(folder)] = {"shop": asdict(shop), "files": reports, "findings": [asdict(f) for f in found]}
    if args.json:
        try:
            Path(args.json).write_text(json.dumps(everything, ensure_ascii=False, indent=1), encoding="utf-8")
        except OSError as e:
            print(f"preflight: --json {args.json}: {e.strerror or e} (expected a file to write)", file=sys.stderr)
            return 2
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
