"""SVG face → vector art, converted once per distinct SVG (drawn by ``pnpgen.pdf.draw``).

Interface used by the rest of the pipeline:

- ``convert(svg, where, resolve=None) -> Art``: parse the SVG a template produced. ``where``
  names the template/deck/piece for error messages; ``resolve(href)`` returns the bytes of the
  file an ``<image href>`` names (JPEG or PNG, embedded as is, or SVG text, drawn as vectors),
  or raises InputError. ``data:`` URIs are decoded here.
- ``Art`` (``pnpgen.svg.artwork``) is plain, picklable data (for worker processes) with
  ``to_json()`` / ``Art.from_json()`` for the on-disk cache.

The converter is our own for the SVG subset templates produce: the graphics become PDF
operator text once, at convert time; only text (whose glyph encoding ReportLab chooses per
document, as it subsets fonts) and images are left for draw time. SVG outside the subset
(CSS style sheets, ``textPath``, …) falls back to svglib for that whole
face; ``Art.fallback`` names what caused it. Transparency is an error: print files must not
contain it; so is a mask, filter, blend mode, marker or pattern a face uses (``unprinted.NOT_DRAWN``), which
svglib leaves out without a word, and text with a stroke, a gradient fill, a vertical writing-mode or a
text-decoration, which it sets otherwise or not at all.

The ``Converter`` here walks the tree (containers, ``<use>``, clip paths, viewports, the graphics
state) and hands each element it draws to the module of its kind through ``TAGS``, as
WeasyPrint's ``svg/__init__.py`` does: ``shapes`` (the basic shapes; their geometry from
``path``), ``text``, ``image``; ``gradient`` resolves the paint servers a fill or stroke names;
``style`` holds what they share (parsing of styles, colours, transforms, numbers); ``unprinted``
refuses, before anything is drawn, what the face would print without.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from lxml import etree

from pnpgen.errors import InputError
from pnpgen.svg import image, shapes, text
from pnpgen.svg.artwork import Art
from pnpgen.svg.image import file_references, inline_images, svg_picture
from pnpgen.svg.path import segments_ops
from pnpgen.svg.style import (
    IDENTITY,
    IGNORED,
    INHERITED,
    LENGTH,
    NUMBER,
    OPACITY,
    PT_PER_PX,
    SOURCE,
    UNITS_PT,
    UNITS_PX,
    UNSUPPORTED_PROPS,
    URL,
    XLINK_HREF,
    XML_SPACE,
    BeyondPdf,
    Fallback,
    combined,
    compose,
    harmless,
    local_name,
    parse_colour,
    parse_svg,
    parse_transform,
    pdf_matrix,
    pdf_num,
    props_of,
    similarity,
)
from pnpgen.svg.unprinted import (
    WITH_ID,
    read_from_elsewhere,
    refuse_for_svglib,
    refuse_not_drawn,
    refuse_unknown_element,
)
from pnpgen.text.icons import ATTRIBUTE as ICON
from pnpgen.units import PT_PER_MM

MAX_ELEMENTS = 100_000  # elements one face draws, each <use> expansion counted: a bound on time and size
GROUND_SCAN = 1000  # painted shapes looked through for the ground under a text (the print lint's contrast)
# characters of path data (a path's d, a polyline's or polygon's points) and of text one face draws,
# each <use> expansion counted: 5,000 <use> of one 1 MB path were gigabytes of PDF operators (minutes,
# then a crash); 500 of a text of 100,000 characters, 80 s
MAX_SHAPE_DATA = 20_000_000
SHAPES = frozenset(shapes.NAMES)
CONTAINERS = {"svg", "g", "a", "defs", "symbol", "use", "clipPath", "text", "image"}
PAINT_SERVERS = {"linearGradient", "radialGradient", "stop"}  # drawn where a fill or stroke names them
IN_SUBSET = frozenset(SHAPES | CONTAINERS | IGNORED | PAINT_SERVERS)  # (and a <tspan> inside a <text>)

_MAY_BE_TRANSLUCENT = etree.XPath("//*[@style or @opacity or @fill-opacity or @stroke-opacity or @stop-opacity]")
_TEXT_PATHS = etree.XPath("//*[local-name()='textPath']")


# What to do with an SVG picture outside the subset, by what put it there: what Illustrator and
# Inkscape save unless told otherwise (a <style> sheet; text on a path).
_PICTURE_ADVICE = {
    "style": "the picture's styles saved as attributes (Illustrator: Export As SVG, Styling: Presentation "
             "Attributes), or the picture as a PNG",
    "textPath": "the picture's text on a path as paths (Inkscape: select the text, Path > Object to Path, "
                "File > Save; Illustrator: Type > Create Outlines), or the picture as a PNG",
}


def convert(svg: str, where: str, resolve: Callable[[str], bytes] | None = None) -> Art:
    """Convert one face's SVG (see the module docstring)."""
    root = parse_svg(svg, where)
    conv = Converter(root, where, resolve, 0, {}, {})
    try:
        items = conv.run()
    except Fallback as e:
        refuse_for_svglib(root, str(e), conv.error)
        picture = svg_picture(root, resolve)
        if picture is not None:
            inside = _text_path_in(picture[1], resolve) if str(e) == "textPath" else ""
            raise conv.error(picture[0], f"shows {picture[1][:60]!r}, an SVG picture{inside}, in a face that svglib draws "
                             f"(it uses {str(e)!r}, outside the converter's subset; in the picture or the face), and svglib "
                             "leaves SVG pictures out: the face would print without it",
                             _PICTURE_ADVICE.get(str(e), "the face and its SVG pictures within the SVG pnpgen "
                                                 "draws, or the picture as a PNG")) from None
        svg = inline_images(svg, resolve) if resolve else svg
        for el, _, href in file_references(parse_svg(svg, where)):  # svglib would open it itself, from anywhere
            if not href.startswith("data:"):
                raise conv.error(el, f"refers to {href[:60]!r}, a file svglib would read from outside the "
                                 f"game (this face is outside the converter's subset: {e})",
                                 "href=\"#id\" of an element of the face, or <image href> of a file in art/") from None
        return Art(conv.width_pt, conv.height_pt, (), str(e), svg)
    return Art(conv.width_pt, conv.height_pt, items, marks=tuple(conv.marks))


def _deepest(root) -> tuple[Any, int]:
    """The element nested deepest under ``root`` (the first of them) and its depth, walked
    without recursion."""
    found, most = root, 0
    stack = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        if depth > most:
            found, most = el, depth
        stack.extend((child, depth + 1) for child in reversed(el) if isinstance(child.tag, str))
    return found, most


def _text_path_in(href: str, resolve: Callable[[str], bytes] | None) -> str:
    """Where an SVG picture (a file's name) sets text along a path (Inkscape's Text > Put on
    Path): "" when that is not it (a ``data:`` picture, or a <textPath> of the face itself)."""
    if href.startswith("data:") or resolve is None:
        return ""
    try:
        picture = etree.fromstring(resolve(href), etree.XMLParser(resolve_entities=False, no_network=True))
    except (etree.XMLSyntaxError, InputError):
        return ""
    found = next((el for el in _TEXT_PATHS(picture) if "".join(el.itertext()).strip()), None)
    if found is None:
        return ""
    ident = found.get("id")
    return (f" whose text is set on a path (<textPath{f' id={ident!r}' if ident else ''}> at line "
            f"{found.sourceline} of the picture), which pnpgen does not draw")


def clear_caches() -> None:
    """Forget the memoised numbers, transforms and shapes (for benchmarks that start cold)."""
    pdf_num.cache_clear()
    parse_transform.cache_clear()
    shapes.clear_cache()


def _written_at(el) -> str:
    """The template line that wrote ``el`` (its own SOURCE mark or the nearest one around it), as a
    designer finds it: ``card-front.svg.j2:4``; "" for a built-in layout's generated template."""
    for node in (el, *el.iterancestors()):
        at = node.get(SOURCE) if isinstance(node.tag, str) else None
        if at:
            name, _, line = at.rpartition(":")
            return "" if name.startswith("@layout/") or not name else f"line {line} of {name}"
    return ""


def root_length(value: str | None, where: str) -> float | None:
    """The root ``<svg>``'s width or height in points; None where it gives none or a percentage
    (the box it is drawn in decides: the face's, for a piece template's root)."""
    if not value or value.strip().endswith("%"):
        return None
    m = LENGTH.match(value)
    if not m or (m.group(2) or "").lower() in ("em", "ex"):
        raise InputError(f"{where}: the <svg> root has size {value!r}", expected="a length such as 63mm")
    return float(m.group(1)) * UNITS_PT[(m.group(2) or "").lower()]


def viewbox(props: dict[str, str], where: str) -> tuple | None:
    """An ``<svg>``'s viewBox (x, y, w, h), None without one."""
    vb = props.get("viewBox")
    if vb is None:
        return None
    nums = [float(v) for v in NUMBER.findall(vb)]
    if len(nums) != 4 or nums[2] <= 0 or nums[3] <= 0:
        raise InputError(f"{where}: viewBox={vb!r}", expected="four numbers: x y width height, sizes > 0")
    return tuple(nums)


class Converter:
    """One SVG document → items. Tracks the graphics state it has written, so each operator
    is written only when it changes (the state at q is restored at Q). The element handlers of
    ``TAGS`` write through it: ``ops`` (operators), ``colour``/``set`` (state), ``flush`` then
    ``items`` (anything that is not operator text), ``push``/``pop`` (q … Q)."""

    def __init__(self, root, where: str, resolve: Callable[[str], bytes] | None, depth: int,
                 fetched: dict[str, bytes], sizes: dict[bytes, tuple[int, int]]):
        self.root = root
        self.where = where
        self.resolve = resolve
        self.depth = depth
        self.fetched = fetched  # the bytes of each image file the face names, by href (read once)
        self.sizes = sizes  # the elements and path data each SVG picture of the face draws, by its bytes (counted once)
        if local_name(root) != "svg":
            raise InputError(f"the template produced {local_name(root) or root.tag!r} where an <svg> root belongs ({where})",
                             expected='an <svg> root element in the SVG namespace (a piece template: '
                                      '{% extends "common/piece.svg.j2" %} first, the drawing inside {% block art %})')
        self.ids: dict[str, Any] = {}
        self.items: list[tuple] = []
        self.ops: list[str] = []
        self.state: dict[str, Any] = {}
        self.outer: tuple = IDENTITY  # an SVG picture's: where the face showing it draws it (checked with its own)
        self.stack: list[dict[str, Any]] = []
        self.using: list[Any] = []  # <use> targets being expanded, against cycles
        self.elements = 0  # drawn so far, against <use> of <use> … that multiplies (MAX_ELEMENTS)
        self.drawn = (0, 0)  # elements and path data it will draw, every <use> and SVG picture expanded (prescan)
        self.viewport = (0.0, 0.0)  # (w, h) in user units, for percentages
        self.marks: list[tuple] = []  # strokes and text measured for the print lint (Art.marks)
        # what is painted, for the ground under a text: (box, where it surely covers, its colour;
        # None where the covered part or the colour is not known: art, gradients, paths), in points
        self.grounds: list[tuple[tuple, tuple | None, tuple | None]] = []
        self.substituted: set[tuple[str, str]] = set()  # a picture's font families set in the nearest font (told once)
        self.at = ""  # the template line that drew the element being drawn (SOURCE attribute)
        self.icon = ""  # the icon file (and its hash) an element being drawn is a shape of ("": none)
        props = props_of(root)
        vb = viewbox(props, where)
        w, h = root_length(props.get("width"), where), root_length(props.get("height"), where)
        self.width_pt = w if w is not None else (vb[2] if vb else 300.0) * PT_PER_PX
        self.height_pt = h if h is not None else (vb[3] if vb else 150.0) * PT_PER_PX
        self.root_vb = vb
        self.root_props = props

    # ---- items and state

    def flush(self) -> None:
        """End the operator text written so far as one ``ops`` item (before any other item)."""
        if self.ops:
            self.items.append(("ops", " ".join(self.ops)))
            self.ops = []

    def push(self, op: str = "", matrix: tuple | None = None) -> None:
        """Save the graphics state (q), then write ``op``; ``matrix``: the ``cm`` it ends with."""
        self.ops.append("q " + op if op else "q")
        self.stack.append(dict(self.state))
        if matrix is not None:
            self.state["ctm"] = self.within(matrix)

    def within(self, matrix: tuple) -> tuple:
        """The transform the state's and ``matrix`` come to, checked against what a PDF holds with
        those of the face an SVG picture is drawn in (a BeyondPdf: the element is named)."""
        ctm = combined(self.state.get("ctm", IDENTITY), matrix)
        if self.outer is not IDENTITY:
            combined(self.outer, ctm)
        return ctm

    def device_box(self, box: tuple, matrix: tuple | None = None) -> tuple[tuple, float]:
        """``box`` (user units, through ``matrix`` first) as points from the face's bottom-left
        corner, and the scale of the transform."""
        ctm = self.state.get("ctm", IDENTITY)
        if matrix is not None:
            ctm = compose(ctm, matrix)
        a, b, c, d, e, f = ctm
        x0, y0, x1, y1 = box
        pts = [(a * x + c * y + e, b * x + d * y + f) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs), max(ys)), math.sqrt(abs(a * d - b * c))

    def mark(self, kind: str, value: float, box: tuple | None, text: str = "",
             matrix: tuple | None = None) -> None:
        """Measure a stroke (``value``: its width) or a text (its size) for the print lint: in
        points, its box (user units, through ``matrix`` first) as points from the face's
        bottom-left corner, and the template line that drew it."""
        if box is None:
            return
        (x0, y0, x1, y1), scale = self.device_box(box, matrix)
        self.marks.append((kind, self.at, round(value * scale, 4), round(x0, 3), round(y0, 3),
                           round(x1, 3), round(y1, 3), text[:40]))

    def paint_ground(self, box: tuple | None, sure: tuple | None, rgb: tuple | None) -> None:
        """A fill painted over ``box`` (user units), surely covering ``sure`` in ``rgb`` (None:
        the part covered or the colour is not known), for the ground under later text."""
        if box is not None:
            _, b, c, _, _, _ = self.state.get("ctm", IDENTITY)
            turned = abs(b) > 1e-9 or abs(c) > 1e-9  # a turned rectangle's box is more than it covers
            self.grounds.append((self.device_box(box)[0], self.device_box(sure)[0] if sure and not turned else None,
                                 rgb))

    def ground_under(self, box: tuple) -> tuple | None:
        """The colour under the whole of ``box`` (points): the last fill painted over it, white
        paper where nothing is; None where what is under it is not known."""
        found = self.fill_under(box)
        return (1.0, 1.0, 1.0) if found == () else found[1] if found else None

    def fill_under(self, box: tuple) -> tuple | None:
        """The last fill painted over ``box`` (points) when it surely covers the whole of it:
        (its box, its colour); () where nothing is painted (the paper); None where what is under
        it is not known (a picture, a path's fill, a gradient, a fill covering part of it)."""
        x0, y0, x1, y1 = box
        for n, (ground, sure, rgb) in enumerate(reversed(self.grounds)):
            g0, h0, g1, h1 = ground
            if n >= GROUND_SCAN:  # a face of thousands of shapes: not known, rather than slow
                return None
            if g0 >= x1 or x0 >= g1 or h0 >= y1 or y0 >= h1:
                continue
            if rgb is None or sure is None or not (sure[0] <= x0 and sure[1] <= y0 and x1 <= sure[2] and y1 <= sure[3]):
                return None
            return ground, rgb
        return ()

    def mark_unit(self, written: str, units: float) -> None:
        """A length written with a unit of print (``stroke-width="0.6mm"``) where the face's user
        unit is already the millimetre (pnpgen's templates draw in mm): CSS reads 1mm as 3.78
        units, so it draws 3.78 times what was meant. Measured for the print lint, in mm drawn."""
        a, b, c, d, _, _ = self.state.get("ctm", IDENTITY)
        if abs(math.sqrt(abs(a * d - b * c)) - PT_PER_MM) < 0.01 * PT_PER_MM:
            self.marks.append(("unit", self.at, round(units, 4), 0.0, 0.0, 0.0, 0.0, written.strip()[:40]))

    def pop(self) -> None:
        """Restore the graphics state saved by the last :meth:`push` (Q)."""
        self.ops.append("Q")
        self.state = self.stack.pop()

    def set(self, key: str, value, op: str) -> None:
        """Write ``op`` unless the state ``key`` already has ``value``."""
        if self.state.get(key) != value:
            self.state[key] = value
            self.ops.append(op)

    def colour(self, kind: str, rgb: tuple) -> None:
        """Make ``rgb`` the fill or stroke colour (``kind``) unless it already is."""
        if self.state.get(kind) != rgb:
            self.state[kind] = rgb
            self.flush()
            self.items.append((kind, *rgb))

    def nested(self, root, where: str) -> Converter:
        """A converter for an SVG this one shows as an ``<image>`` (one level deeper)."""
        return Converter(root, where, self.resolve, self.depth + 1, self.fetched, self.sizes)

    # ---- errors

    def _name(self, el) -> str:
        ident = el.get("id")
        line = getattr(el, "sourceline", None)
        at = _written_at(el)
        where = f" (line {line} of the SVG{f', written at {at}' if at else ''})" if line else ""
        name = local_name(el) or (etree.QName(el).localname if isinstance(el.tag, str) else "")  # (a foreign one too)
        return f"<{name}{f' id={ident!r}' if ident else ''}>{where}"

    def error(self, el, what: str, expected: str | None = None) -> InputError:
        return InputError(f"{self.where}: {self._name(el)} {what}", expected=expected)

    # ---- run

    def run(self) -> tuple:
        self.prescan()
        vb = self.root_vb
        par = self.root_props.get("preserveAspectRatio", "xMidYMid meet")
        # points, y up ← user units, y down (without a viewBox a user unit is a CSS px)
        to_box = self.viewbox_matrix(vb, (0.0, 0.0, self.width_pt, self.height_pt), par) if vb else (PT_PER_PX, 0.0, 0.0, PT_PER_PX, 0.0, 0.0)
        flip = (1.0, 0.0, 0.0, -1.0, 0.0, self.height_pt)
        self.viewport = (vb[2], vb[3]) if vb else (self.width_pt / PT_PER_PX, self.height_pt / PT_PER_PX)
        if vb is None:  # a user unit is a CSS px (0.26 mm): a drawing in mm prints at 1/3.78 (the print lint says so)
            size = f"{round(self.width_pt / PT_PER_MM, 2):g} {round(self.height_pt / PT_PER_MM, 2):g}"
            self.marks.append(("viewbox", self.root_props.get(SOURCE) or "", round(PT_PER_PX / PT_PER_MM, 4),
                               0.0, 0.0, 0.0, 0.0, size))
        self.push(pdf_matrix(compose(flip, to_box)) + " cm", compose(flip, to_box))
        self.draw_root()
        self.pop()
        self.flush()
        return tuple(self.items)

    def draw_root(self) -> None:
        """The root's children drawn (a face's, or an SVG picture's where it is placed)."""
        try:
            self.children(self.root, self.inherit({}, self.root_props))
        except RecursionError:  # lxml reads 255 deep; the converter recurses some frames a level
            el, depth = _deepest(self.root)
            raise self.error(el, f"is nested {depth} elements deep, deeper than pnpgen draws",
                             "groups nested a few dozen deep at most (Inkscape: Object > Ungroup, or Save As "
                             "Optimized SVG, which collapses groups)") from None

    def prescan(self) -> None:
        """Transparency is an error and anything outside the subset a fallback, wherever it is
        (transparency first: svglib would draw it, with an alpha ExtGState). A stop-opacity of 0
        is one too: unlike an invisible element, it fades a gradient out."""
        for el in _MAY_BE_TRANSLUCENT(self.root):
            props = props_of(el)
            for key in OPACITY:
                v = props.get(key)
                if v is None or v in ("inherit", "initial", "unset"):
                    continue
                try:
                    a = float(v[:-1]) / 100 if v.strip().endswith("%") else float(v)
                except ValueError:
                    raise self.error(el, f"has {key}={v!r}", "a number from 0 to 1") from None
                if 0 < a < 1 or (a < 1 and key == "stop-opacity"):
                    raise self.transparency(el, props, f"{key} {v}", a)
        refuse_not_drawn(self.root, self.error)
        found = read_from_elsewhere(self.root)  # (a face's template is refused so before: faces/templates.py)
        if found is not None:
            el, what, _ = found
            line = f" (line {el.sourceline} of the SVG)" if el is not None and el.sourceline else ""
            raise InputError(f"{self.where}: {what}{line}, which pnpgen never reads (nor does a browser): it would "
                             "print without it", expected="the content written into the SVG itself")
        for el in WITH_ID(self.root):
            self.ids.setdefault(el.get("id"), el)
        self.drawn = self._count_elements()  # (before a fallback: svglib would expand a <use> bomb itself)
        outside = None  # the first element outside the subset: the face goes to svglib
        for el in self.root.iter(etree.Element):
            name = local_name(el)
            if name and name not in IN_SUBSET and not (name == "tspan" and _in_text(el)):
                refuse_unknown_element(el, name, IN_SUBSET | {"tspan"}, self.error)
                outside = outside or name
        if outside:
            raise Fallback(outside)

    def _count_elements(self) -> tuple[int, int]:
        """The elements and the characters of path data and text the document draws with every <use> and
        SVG picture expanded; refused, before drawing anything, beyond MAX_ELEMENTS or
        MAX_SHAPE_DATA: each element's count is worked out once (an SVG picture's once per face),
        so a <use> of <use> …, or SVG pictures showing SVG pictures …, that multiplies is refused
        in microseconds, not after 100,000 drawn."""
        known: dict[Any, tuple[int, int]] = {}
        open_: set[Any] = set()

        def count(el) -> tuple[int, int]:
            if el in known:
                return known[el]
            if el in open_:
                return 0, 0  # a <use> that loops: drawing names it
            open_.add(el)
            name = local_name(el)
            n, data = 1, len(el.get("d") or "") if name == "path" else len(el.get("points") or "")
            if name == "text":
                data += sum(len(t) for t in el.itertext())
            parts = [count(child) for child in el if local_name(child) in DRAWN]
            if name == "image":
                parts.append(image.picture_elements(self, el))
            elif name == "use":
                href = el.get("href") or el.get(XLINK_HREF) or ""
                target = self.ids.get(href[1:]) if href.startswith("#") else None
                if target is not None:
                    parts.append(count(target))
            n += sum(p[0] for p in parts)
            data += sum(p[1] for p in parts)
            open_.discard(el)
            if n > MAX_ELEMENTS:
                raise self.error(el, f"makes the face draw more than {MAX_ELEMENTS} elements (each <use> and SVG "
                                     "picture counted)", "fewer elements, or <use> and SVG pictures that do not multiply")
            if data > MAX_SHAPE_DATA:
                raise self.error(el, f"makes the face draw more than {MAX_SHAPE_DATA:,} characters of path data and "
                                     "text (each <use> and SVG picture counted)",
                                 "simpler paths and shorter texts, or fewer <use> of a long one (a picture this "
                                 "detailed as a PNG)")
            known[el] = n, data
            return n, data

        try:
            return count(self.root)
        except RecursionError:
            raise self.error(self.root, "nests <use> and groups too deeply", "a few levels of <use>") from None

    def transparency(self, el, props, what: str, alpha: float) -> InputError:
        example = ""
        try:
            rgb = parse_colour(props.get("fill", ""))
        except ValueError:
            rgb = None
        if isinstance(rgb, tuple):
            tint = "#" + "".join(f"{round(255 * (c * alpha + (1 - alpha))):02x}" for c in rgb)
            example = f" (on white, {props['fill']} at {alpha:g} looks like {tint})"
            if tint == "#ffffff":  # a white veil: its tint on white is white, which helps no one
                example = (f" (a white shape at {alpha:g} lightens what lies under it: fill it with that colour "
                           f"lightened, e.g. on #000000, #{f'{round(255 * alpha):02x}' * 3})")
        return self.error(el, f"has {what}: print files cannot contain transparency",
                          f"an opaque tint colour instead of opacity{example}")

    # ---- styles and lengths

    def inherit(self, parent: dict, props: dict) -> dict:
        """The inherited properties of an element: its parent's, updated by its own. The
        parent's dict is shared when nothing changes (styles are never modified in place)."""
        style = parent or INHERITED
        copied = False
        for key, v in props.items():
            if key in INHERITED or key == XML_SPACE:
                if v in ("inherit", "unset"):
                    continue
                if not copied:
                    style = dict(style)
                    copied = True
                if key == XML_SPACE:
                    style["xml:space"] = v
                else:
                    style[key] = v.strip()
        return style

    def length(self, value: str | None, axis: str = "x", font_size: float = 16.0, default: float = 0.0) -> float:
        if value is None or value == "" or value == "auto":
            return default
        try:
            v = float(value)  # the usual case: a bare number of user units
            if math.isfinite(v):
                return v
        except ValueError:
            pass
        m = LENGTH.match(value)
        if not m:
            raise ValueError(value)
        v, unit = float(m.group(1)), (m.group(2) or "").lower()
        if not unit:
            return v
        if unit in ("mm", "cm", "q", "in", "pt", "pc"):
            self.mark_unit(value, v * UNITS_PX[unit])
        if unit == "%":
            w, h = self.viewport
            ref = w if axis == "x" else h if axis == "y" else math.hypot(w, h) / math.sqrt(2)
            return v * ref / 100
        if unit == "em":
            return v * font_size
        if unit == "ex":
            return v * font_size / 2
        return v * UNITS_PX[unit]

    def lengths(self, el, props, names: tuple[tuple[str, str], ...], font_size=16.0) -> list[float]:
        out = []
        for name, axis in names:
            try:
                out.append(self.length(props.get(name), axis, font_size))
            except ValueError:
                raise self.error(el, f"has {name}={props.get(name)!r}", "a number, optionally with a unit") from None
        return out

    @staticmethod
    def viewbox_matrix(vb: tuple, box: tuple, par: str) -> tuple:
        """viewBox → viewport box (x, y, w, h) as preserveAspectRatio says."""
        vx, vy, vw, vh = vb
        x, y, w, h = box
        sx, sy = w / vw, h / vh
        words = par.split()
        if words and words[0] == "defer":
            words = words[1:]
        align = words[0] if words else "xMidYMid"
        if align != "none":
            s = max(sx, sy) if len(words) > 1 and words[1] == "slice" else min(sx, sy)
            sx = sy = s
            fx = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0}.get(align[:4], 0.5)
            fy = {"YMin": 0.0, "YMid": 0.5, "YMax": 1.0}.get(align[4:], 0.5)
            x += (w - vw * s) * fx
            y += (h - vh * s) * fy
        return (sx, 0.0, 0.0, sy, x - vx * sx, y - vy * sy)

    # ---- the tree

    def children(self, el, style: dict) -> None:
        for child in el:
            name = local_name(child)
            if name in DRAWN:
                self.element(child, name, style)

    def element(self, el, name: str, parent_style: dict) -> None:
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise self.error(el, f"makes the face draw more than {MAX_ELEMENTS} elements (each <use> and SVG "
                                 "picture counted)", "fewer elements, or <use> and SVG pictures that do not multiply")
        props = props_of(el)
        if props.get("display", "").strip() == "none":
            return
        if not UNSUPPORTED_PROPS.isdisjoint(props):
            for key in UNSUPPORTED_PROPS.intersection(props):
                if not harmless(props[key]):
                    raise Fallback(key)
        if props.get("opacity", "").strip() in ("0", "0.0", "0%"):
            return
        style = self.inherit(parent_style, props)
        at, icon = self.at, self.icon
        self.at = props.get(SOURCE) or at
        self.icon = props.get(ICON) or icon
        try:
            self._element(el, name, props, style)
        except BeyondPdf as e:  # the innermost element drawing it named (said so, it is no BeyondPdf any more)
            raise self.error(el, e.message.replace("the face has", "has", 1),
                             e.expected) from None
        finally:
            self.at, self.icon = at, icon

    def _element(self, el, name: str, props: dict, style: dict) -> None:
        matrix = None
        t = props.get("transform")
        if t:
            try:
                matrix = parse_transform(t)
            except ValueError:
                raise self.error(el, f"has transform={t!r}", "matrix(), translate(), scale(), rotate(), skewX(), skewY()") from None
        clip = props.get("clip-path")
        clip_el = None
        if clip and clip.strip() != "none":
            m = URL.match(clip)
            clip_el = self.ids.get(m.group(1)) if m else None
            if clip_el is None or local_name(clip_el) != "clipPath":
                raise self.error(el, f"has clip-path={clip!r}", "url(#id) of a <clipPath>")
        if matrix is not None and clip_el is None and name in SHAPES:
            scale = similarity(matrix)
            if scale:  # a turned or moved shape: its points moved instead, no q/cm/Q
                self.within(matrix)  # (checked as a group's would be)
                shapes.shape(self, el, name, props, style, matrix, scale)
                return
        wrap = matrix is not None or clip_el is not None
        if wrap:
            self.push(pdf_matrix(matrix) + " cm" if matrix is not None and matrix != IDENTITY else "", matrix)
            if clip_el is not None:
                self._clip(clip_el, style)
        TAGS[name](self, el, name, props, style)
        if wrap:
            self.pop()

    def _clip(self, cp, style: dict) -> None:
        props = props_of(cp)
        if props.get("clipPathUnits", "userSpaceOnUse") != "userSpaceOnUse":
            raise Fallback("clipPath objectBoundingBox")
        if props.get("clip-path"):
            raise Fallback("clipPath clip-path")
        base = parse_transform(props["transform"]) if props.get("transform") else IDENTITY
        parts = []
        rule = None
        cp_style = self.inherit(style, props)
        for child in cp:
            name = local_name(child)
            if name not in SHAPES:
                if name in ("", "title", "desc"):
                    continue
                raise Fallback(f"{name} in clipPath")
            cprops = props_of(child)
            if cprops.get("display", "").strip() == "none" or cprops.get("clip-path"):
                if cprops.get("clip-path"):
                    raise Fallback("clipPath clip-path")
                continue
            cstyle = self.inherit(cp_style, cprops)
            m = base
            if cprops.get("transform"):
                m = compose(base, parse_transform(cprops["transform"]))
            segs = shapes.geometry(self, child, name, cprops, cstyle)
            if segs:
                parts.append(segments_ops(segs, m if m != IDENTITY else None))
                rule = rule or cstyle["clip-rule"]
        if parts:
            self.ops.append(" ".join(parts) + (" W* n" if rule == "evenodd" else " W n"))
        else:
            self.ops.append("0 0 m h W n")  # an empty clip path hides everything

    def group(self, el, name: str, props: dict, style: dict) -> None:
        """``<g>``, and ``<a>``: a link draws as a group."""
        self.children(el, style)

    def nested_svg(self, el, name: str, props: dict, style: dict) -> None:
        """A nested ``<svg>``: a new viewport."""
        x, y, w, h = self.lengths(el, {"width": "100%", "height": "100%", **props},
                                   (("x", "x"), ("y", "y"), ("width", "x"), ("height", "y")))
        self.viewport_box(el, props, style, (x, y, w, h), self.children)

    def viewport_box(self, el, props, style, box, body) -> None:
        """A new viewport (nested svg, symbol): clipped to its box, viewBox mapped into it."""
        x, y, w, h = box
        if w <= 0 or h <= 0:
            return
        vb = viewbox(props, self.where)
        m = self.viewbox_matrix(vb, box, props.get("preserveAspectRatio", "xMidYMid meet")) if vb else (1.0, 0.0, 0.0, 1.0, x, y)
        self.push(f"{pdf_num(x)} {pdf_num(y)} {pdf_num(w)} {pdf_num(h)} re W n {pdf_matrix(m)} cm", m)
        saved = self.viewport
        self.viewport = (vb[2], vb[3]) if vb else (w, h)
        body(el, style)
        self.viewport = saved
        self.pop()

    def use(self, el, name: str, props: dict, style: dict) -> None:
        """``<use href="#id">``: the element it names drawn here (a symbol or svg as a viewport)."""
        href = el.get("href") or el.get(XLINK_HREF) or ""
        target = self.ids.get(href[1:]) if href.startswith("#") else None
        if target is None:
            raise self.error(el, f"refers to {href!r}, which is not an element of this SVG", "href=\"#id\" of an element here")
        if target in self.using or any(a is target for a in el.iterancestors()):
            raise self.error(el, f"refers to {href!r}, which contains it", "a reference that does not loop")
        x, y = self.lengths(el, props, (("x", "x"), ("y", "y")))
        name = local_name(target)
        self.using.append(target)
        self.push(f"1 0 0 1 {pdf_num(x)} {pdf_num(y)} cm" if x or y else "", (1.0, 0.0, 0.0, 1.0, x, y))
        if name in ("symbol", "svg"):
            tprops = props_of(target)
            if tprops.get("display", "").strip() != "none":
                size = {"width": "100%", "height": "100%"}
                size.update({k: v for k, v in tprops.items() if k in ("width", "height")})
                size.update({k: v for k, v in props.items() if k in ("width", "height")})
                w, h = self.lengths(el, size, (("width", "x"), ("height", "y")))
                tstyle = self.inherit(style, tprops)
                tx, ty = (self.lengths(target, tprops, (("x", "x"), ("y", "y"))) if name == "svg" else (0.0, 0.0))
                self.viewport_box(target, tprops, tstyle, (tx, ty, w, h), self.children)
        elif name in DRAWN:
            self.element(target, name, style)
        self.pop()
        self.using.pop()

    # ---- shapes



# What each element the converter draws is drawn by: (converter, element, name, props, style).
TAGS: dict[str, Callable[[Converter, Any, str, dict, dict], None]] = {
    **dict.fromkeys(SHAPES, shapes.shape),
    "g": Converter.group,
    "a": Converter.group,
    "svg": Converter.nested_svg,
    "use": Converter.use,
    "text": text.text,
    "image": image.image,
}
DRAWN = frozenset(TAGS)  # what a container's children may draw


def _in_text(el) -> bool:
    """A <tspan> inside a <text> (``text.text`` draws it; one elsewhere is outside the subset)."""
    return any(local_name(a) == "text" for a in el.iterancestors())
