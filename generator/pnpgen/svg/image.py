"""``<image>``: a PNG or JPEG embedded as is (opaque only), or an SVG drawn as vectors by a
converter of its own; and where an image puts its picture, for the build's resolution check."""

from __future__ import annotations

import base64
import binascii
import io
import math
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, unquote_to_bytes

from lxml import etree

from pnpgen.data.art import SVG_NESTING
from pnpgen.data.artfile import (
    CHUNK_BOMB,
    MAX_ART_PIXELS,
    PILLOW_CHUNK_BOMB,
    claimed_pixels,
    open_picture,
    smaller_size,
)
from pnpgen.data.picturebytes import PNG_SIGNATURE, opaque_png_size
from pnpgen.errors import InputError
from pnpgen.patterns import later
from pnpgen.svg.style import (
    IDENTITY,
    LENGTH,
    PT_PER_PX,
    SVG_NS,
    UNITS_PX,
    XLINK_HREF,
    combined,
    compose,
    parse_svg,
    parse_transform,
    pdf_matrix,
    pdf_num,
)
from pnpgen.svg.stylesheet import inline_style_sheets

MAX_NESTING = SVG_NESTING  # <image> of an SVG that shows an SVG … (the art folder follows them as deep)
# What svglib reads as data, not as a file name: a PNG or JPEG in base64 (anything else after
# ``href`` svglib takes for a path relative to the working folder, ``..`` and all)
SVGLIB_DATA = later(r"data:image/(png|jpe?g);base64,[A-Za-z0-9+/=\s]*")


def image(conv, el, name: str, props: dict, style: dict) -> None:
    """Place the picture ``href`` names (a file the converter's ``resolve`` reads, or a data: URI)."""
    if style["visibility"] in ("hidden", "collapse"):
        return
    href = (el.get("href") or el.get(XLINK_HREF) or "").strip()
    data = _image_bytes(conv, el, href)
    x, y = conv.lengths(el, props, (("x", "x"), ("y", "y")))
    par = props.get("preserveAspectRatio", "xMidYMid meet")
    if raster_kind(data):
        iw, ih = _raster_size(conv, el, data)
        w, h = _image_box(conv, el, props, iw, ih)
        if w <= 0 or h <= 0:
            return
        sx, _, _, sy, tx, ty = conv.viewbox_matrix((0.0, 0.0, iw, ih), (x, y, w, h), par)
        slice_ = par.split()[-1] == "slice" and par.split()[0] != "none"
        if slice_:
            conv.push(f"{pdf_num(x)} {pdf_num(y)} {pdf_num(w)} {pdf_num(h)} re W n")
        conv.paint_ground((x, y, x + w, y + h), None, None)  # art: no one colour under a text on it
        conv.flush()
        conv.items.append(("image", data, tx, ty, iw * sx, ih * sy))
        if slice_:
            conv.pop()
        return
    if not _is_svg(data):
        if data.startswith((b"\xff\xfe", b"\xfe\xff")) and _is_svg(data[2:].replace(b"\x00", b"")):
            raise conv.error(el, f"shows {href[:60]!r}, an SVG saved as UTF-16", "the SVG saved as UTF-8 "
                             "(in the drawing program's or editor's save options)")
        raise conv.error(el, f"shows {href[:60]!r}, which is not a PNG, JPEG or SVG image", "a PNG, JPEG or SVG file")
    if conv.depth >= MAX_NESTING:
        raise conv.error(el, f"nests SVG images more than {MAX_NESTING} deep", "an image that does not show itself")
    sub = _picture(conv, href, data)
    sub.prescan()
    svb = sub.root_vb or (0.0, 0.0, sub.width_pt / PT_PER_PX, sub.height_pt / PT_PER_PX)
    w, h = _image_box(conv, el, props, sub.width_pt / PT_PER_PX, sub.height_pt / PT_PER_PX)
    if w <= 0 or h <= 0:
        return
    m = conv.viewbox_matrix(svb, (x, y, w, h), par)
    conv.paint_ground((x, y, x + w, y + h), None, None)
    conv.push(f"{pdf_num(x)} {pdf_num(y)} {pdf_num(w)} {pdf_num(h)} re W n {pdf_matrix(m)} cm")
    sub.state = {}  # what the sub-document writes must not rely on this one's state
    sub.outer = combined(conv.outer, conv.within(m))  # its transforms checked with the face's around it
    sub.viewport = (svb[2], svb[3])
    sub.elements = conv.elements
    sub.at = conv.at  # the template line placing the picture, for what the print lint is told of it
    sub.draw_root()
    conv.elements = sub.elements
    sub.flush()
    conv.flush()
    conv.items.extend(sub.items)
    conv.marks.extend(m for m in sub.marks if m[0] == "font")  # a font family set in the nearest font, told
    conv.state = {}  # and this one can no longer trust its own until the Q
    conv.pop()


def picture_elements(conv, el) -> tuple[int, int]:
    """The elements an ``<image>`` of an SVG picture draws, its own ``<use>`` and pictures
    expanded (0 for a PNG or JPEG, or one that cannot be shown: drawing it says why), each
    picture counted once per face: a picture showing a picture ten times … seven deep is refused
    by the count, before anything is drawn. With them, the characters of path data it draws."""
    href = (el.get("href") or el.get(XLINK_HREF) or "").strip()
    try:
        data = _image_bytes(conv, el, href)
        if raster_kind(data) or not _is_svg(data) or conv.depth >= MAX_NESTING:
            return 0, 0
        known = conv.sizes.get(data)
        if known is not None:
            return known
        sub = _picture(conv, href, data)
    except InputError:
        return 0, 0
    sub.prescan()  # counts its own pictures, and refuses them beyond the budget
    conv.sizes[data] = sub.drawn
    return sub.drawn


def _picture(conv, href: str, data: bytes):
    """The converter of the SVG picture ``data`` one level below ``conv``."""
    shown = getattr(conv.resolve, "shown", None)  # (an art folder's: the file it was found as, data/g/art/x.svg)
    name = href[:60] if href.startswith("data:") else shown(href) if shown is not None \
        else unquote(href.partition("#")[0])  # as written: no %20
    where = f"{name} (image in {conv.where})"
    root = parse_svg(data, where)
    inline_style_sheets(root)  # Illustrator's default export: a sheet of .st0 {fill: …} rules
    return conv.nested(root, where)


def _is_svg(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def _image_box(conv, el, props, iw: float, ih: float) -> tuple[float, float]:
    """The image's width and height: as given, or from the picture's own (keeping its ratio)."""
    w, h = props.get("width"), props.get("height")
    if w in (None, "auto"):
        if h in (None, "auto"):
            return iw, ih
        hv = conv.length(h, "y")
        return hv * iw / ih, hv
    wv = conv.length(w, "x")
    if h in (None, "auto"):
        return wv, wv * ih / iw
    return wv, conv.length(h, "y")


def _image_bytes(conv, el, href: str) -> bytes:
    """The bytes of the file or data: URI ``href`` names."""
    if href.startswith("data:"):
        head, sep, payload = href[5:].partition(",")
        if not sep:
            raise conv.error(el, "has a data: URI without a comma", "data:image/png;base64,…")
        try:
            if head.endswith(";base64"):
                return base64.b64decode("".join(payload.split()), validate=True)
            return unquote_to_bytes(payload)
        except (binascii.Error, ValueError):
            raise conv.error(el, "has a data: URI that is not valid base64", "data:image/png;base64,…") from None
    if not href:
        raise conv.error(el, "has no href", "href=\"icons/x.png\" or a data: URI")
    if conv.resolve is None:
        raise conv.error(el, f"refers to {href!r}, but images cannot be looked up here",
                         "a data: URI, or a build that resolves image files")
    known = conv.fetched.get(href)
    if known is not None:
        return known
    try:
        data = conv.resolve(href)
    except InputError as e:
        if not conv.depth:  # (a face's own <image>: its template's href, told there)
            raise
        # a picture an SVG art file shows: that file and its line named, not only the face's front
        said = e.message.removeprefix(f"{href!r}: ").removeprefix(f"{href!r} ")
        raise conv.error(el, f"shows {href!r}" + (f", which {said}" if said.startswith("is ") else f": {said}"),
                         e.expected) from None
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"resolve({href!r}) must return bytes")
    conv.fetched[href] = bytes(data)
    return conv.fetched[href]


def _raster_size(conv, el, data: bytes) -> tuple[int, int]:
    """The picture's size in pixels; an error for one with transparent pixels or none readable."""
    plain = opaque_png_size(data)
    if plain is not None and plain[0] * plain[1] <= MAX_ART_PIXELS:
        return plain
    from PIL import Image

    try:
        with open_picture(io.BytesIO(data)) as im:
            size = im.size
            if size[0] * size[1] > MAX_ART_PIXELS:  # never decoded: a bomb's pixels take gigabytes
                raise conv.error(el, f"is a {size[0]}×{size[1]} pixel picture, more than a picture for print needs",
                                 f"at most {MAX_ART_PIXELS:,} pixels: {smaller_size(*size)} (300 dpi at the "
                                 "printed size is enough)")
            if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
                alpha = im.convert("RGBA").getchannel("A")
                if alpha.getextrema()[0] < 255:  # type: ignore[operator]  # one channel: (min, max) of ints
                    raise conv.error(el, "is an image with transparent pixels: print files cannot contain "
                                         "transparency", "an image flattened onto its background (no alpha)")
    except Image.DecompressionBombError as e:  # beyond Pillow's own limit: refused at open
        raise conv.error(el, f"is a picture of {claimed_pixels(e)}, more than a picture for print needs",
                         f"at most {MAX_ART_PIXELS:,} pixels (300 dpi at the printed size is enough)") from None
    except (OSError, ValueError) as e:
        said = CHUNK_BOMB if PILLOW_CHUNK_BOMB in str(e) else str(e)  # (one after the pixels: a ValueError)
        raise conv.error(el, f"is not a readable PNG or JPEG ({said})", "a PNG or JPEG file") from None
    return size


def raster_kind(data: bytes) -> str | None:
    """"png" or "jpeg" by the file's signature; None for anything else (SVG text)."""
    if data[:8] == PNG_SIGNATURE:
        return "png"
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    return None


def inline_images(svg: str, resolve: Callable[[str], bytes]) -> str:
    """The SVG with every image file it names as a data: URI: what svglib (the fallback) can
    draw, as it cannot look files up itself."""
    root = parse_svg(svg, "")
    changed = False
    for el in root.iter(f"{{{SVG_NS}}}image"):
        for attr in ("href", XLINK_HREF):
            href = (el.get(attr) or "").strip()
            if href and not href.startswith(("data:", "#")):
                data = resolve(href)
                kind = raster_kind(data) or "svg+xml"
                el.set(attr, f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}")
                changed = True
    return etree.tostring(root, encoding="unicode") if changed else svg


def svg_picture(root, resolve: Callable[[str], bytes] | None) -> tuple[Any, str] | None:
    """The first ``<image>`` (and its file's name, or its ``data:`` URI) that shows an SVG picture:
    what svglib, drawing a face outside the converter's subset, leaves out without a word."""
    for el in root.iter(f"{{{SVG_NS}}}image"):
        href = (el.get("href") or el.get(XLINK_HREF) or "").strip()
        if href.startswith("data:"):
            if href[5:].lstrip().lower().startswith("image/svg"):
                return el, href
        elif href and not href.startswith("#") and resolve is not None and not raster_kind(resolve(href)):
            return el, unquote(href.partition("#")[0])  # the file's name as the designer wrote it, not %20
    return None


def file_references(root) -> list[tuple[Any, str, str]]:
    """Every (element, attribute, href) of the tree that names something outside it — any element
    but a hyperlink ``<a>``, any namespace, ``href`` or ``xlink:href`` — other than an element of
    it (``#id``) or data svglib reads as data: what svglib (drawing a face outside the subset)
    would open as a file by itself."""
    found = []
    for el in root.iter(etree.Element):
        if etree.QName(el).localname == "a":
            continue  # a hyperlink: shown in a viewer, never opened
        for attr, value in el.attrib.items():
            if attr == "href" or attr.endswith("}href"):
                href = value.strip()
                if not href.startswith("#") and not SVGLIB_DATA.fullmatch(href):
                    found.append((el, attr, href))
    return found


def placed_image(el, size: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where an ``<image>`` of a face puts a picture of ``size`` (pixels, or an SVG's own width
    and height): its box and the picture's drawn size, both in the face's user units (mm in piece
    templates), after ``width``/``height`` (auto: from the picture), ``preserveAspectRatio`` and
    every ``transform`` from the image up. None when a length is relative (%, em) or unreadable."""
    iw, ih = size
    try:
        w, h = (absolute_length(el.get(k)) for k in ("width", "height"))
    except ValueError:
        return None
    if iw <= 0 or ih <= 0:
        return None
    w = w if w is not None else (h * iw / ih if h is not None else iw)
    h = h if h is not None else w * ih / iw
    par = (el.get("preserveAspectRatio") or "xMidYMid meet").split()
    if par[0] == "none":
        dw, dh = w, h
    else:
        s = (max if par[-1] == "slice" else min)(w / iw, h / ih)
        dw, dh = iw * s, ih * s
    m = IDENTITY
    for node in [el, *el.iterancestors()]:
        try:
            m = compose(parse_transform(node.get("transform") or ""), m)
        except ValueError:
            return None
    sx, sy = math.hypot(m[0], m[1]), math.hypot(m[2], m[3])
    return (w * sx, h * sy), (dw * sx, dh * sy)


def absolute_length(value: str | None) -> float | None:
    """A length in user units; None when absent or auto, ValueError when relative or unreadable."""
    if value is None or value.strip() in ("", "auto"):
        return None
    m = LENGTH.match(value)
    if not m or (m.group(2) or "").lower() in ("%", "em", "ex"):
        raise ValueError(value)
    unit = (m.group(2) or "px").lower()
    return float(m.group(1)) * UNITS_PX[unit]
