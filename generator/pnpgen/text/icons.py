"""Icon tokens: find ``<name>.svg`` in the icon folders and turn it into inline shapes.

Only plain shapes are kept (``g path circle rect ellipse line polyline polygon``) with their
geometry and paint attributes, so an icon inlines as a ``<g>`` that svglib draws as vectors.
``currentColor`` in an icon takes the colour of the text around it.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import zlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from lxml import etree
from markupsafe import escape

from pnpgen.errors import (
    COMPRESSED_SVG,
    GZIP_MAGIC,
    SAVE_UNCOMPRESSED,
    contained,
    leads_out,
    parser_said,
    written_alike,
)
from pnpgen.litter import is_litter
from pnpgen.usercache import file_stamp

# an icon's <g> names its file and the first 12 digits of its shapes' hash: "fish.svg 3a9c…"
ATTRIBUTE = "data-pnpgen-icon"
SHAPES = {"g", "path", "circle", "rect", "ellipse", "line", "polyline", "polygon"}
IGNORED = {"title", "desc", "metadata", "defs"}
# An icon is drawn anew wherever it is used (each face, each text naming it): a 3.3 MB traced
# icon took 6 s to build a few cards. Real icons are some kB and tens of shapes.
MAX_ICON_BYTES = 200_000
MAX_ICON_ELEMENTS = 2_000
_SIMPLER = (f"at most {MAX_ICON_BYTES:,} bytes and {MAX_ICON_ELEMENTS:,} elements: simplify it, fewer nodes and "
            "shapes (Inkscape: Path > Simplify, then File > Save As… > Optimized SVG)")
ATTRS = {
    "d", "cx", "cy", "r", "rx", "ry", "x", "y", "width", "height", "x1", "y1", "x2", "y2", "points",
    "transform", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin",
    "stroke-miterlimit", "fill-rule", "clip-rule",
}


class IconError(ValueError):
    """An icon file that cannot be inlined; the caller adds where it was used."""


class UnknownIcon(IconError):
    """No ``<name>.svg`` in any icon folder."""

    def __init__(self, name: str):
        self.name = name
        super().__init__(name)


@lru_cache(maxsize=512)
def find(name: str, dirs: tuple[Path, ...]) -> Path | None:
    """The first ``<name>.svg`` in the icon folders; a name leading out of them is an error."""
    for folder in dirs:
        if leads_out(folder, folder.parent.parent):  # icons/ linked out of templates/: none of it is read
            raise IconError(f"icon {name!r}: {folder} is a link leading out of {folder.parent.parent.name}/ "
                            f"(expected icons/ a folder inside {folder.parent.parent}/, not a link elsewhere)")
        path = contained(f"{name}.svg", folder, "icon")
        if path.is_file():
            return path
        if path.exists():
            raise IconError(f"icon {path} is not a file")
        alike = written_alike(f"{name}.svg", [folder])  # が.svg named decomposed (カ + ゛), as macOS writes names
        if alike is not None:
            return contained(alike, folder, "icon")
    return None


Stamps = list[tuple[str, "tuple[int, int, int, int] | None"]]
_SEEN: dict[Path, Stamps | None] = {}  # an icon folder → its files' stamps when last looked at (None: no folder)


def saved_since(dirs: Sequence[Path]) -> bool:
    """Whether an icon file of ``dirs`` was saved, added or removed since the last look at its
    folder (a folder not looked at before: no). Looked at once a build, not at every text:
    ``watch`` and ``serve`` build in one process save after save, and the icons, found and read by
    their path, were drawn as first read. By folder, so a game built after another sees an edit
    of the icons they share."""
    changed = False
    for folder in map(Path, dirs):
        try:
            with os.scandir(folder) as entries:
                now: Stamps | None = sorted((e.path, _stamp(e)) for e in entries if e.name.endswith(".svg"))
        except OSError:  # (no such folder: none of its icons)
            now = None
        changed = changed or _SEEN.get(folder, now) != now
        _SEEN[folder] = now
    return changed


def _stamp(entry: os.DirEntry) -> tuple[int, int, int, int] | None:
    try:
        return file_stamp(entry.stat())
    except OSError:  # (a link leading nowhere)
        return None


def _numbers(path: Path, attribute: str, text: str) -> tuple[float, ...]:
    """The finite numbers of an icon's viewBox, width or height (a 'px' after a width allowed)."""
    try:
        values = tuple(float(v.removesuffix("px")) for v in text.replace(",", " ").split())
    except ValueError:
        values = ()
    if not values or not all(math.isfinite(v) for v in values):
        raise IconError(f"icon {path} has a {attribute} that is not numbers: {text[:60]!r} "
                        "(an icon needs a viewBox of four numbers, or a width and height)")
    return values


def clear_caches() -> None:
    find.cache_clear()
    load.cache_clear()


def names(dirs: Sequence[Path]) -> list[str]:
    return sorted({p.stem for d in dirs if d.is_dir() and not leads_out(d, d.parent.parent) for p in d.glob("*.svg")
                   if p.is_file() and not is_litter(p.name)})


@lru_cache(maxsize=512)
def load(path: Path) -> tuple[str, tuple[float, float, float, float]]:
    """The icon's shapes as SVG text (no namespace) and its viewBox (x, y, w, h)."""
    size = path.stat().st_size
    if size > MAX_ICON_BYTES:
        raise IconError(f"icon {path} is {size:,} bytes, more than an icon may be ({_SIMPLER})")
    data = _unpacked(path, path.read_bytes())
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities="internal", no_network=True),  # (as svg/style.py)
                                base_url=str(path))
    except etree.XMLSyntaxError as e:
        raise IconError(_not_svg(path, e)) from None
    elements = sum(1 for _ in root.iter())
    if elements > MAX_ICON_ELEMENTS:
        raise IconError(f"icon {path} has {elements:,} elements, more than an icon may have ({_SIMPLER})")
    box = root.get("viewBox")
    if box:
        vb = _numbers(path, "viewBox", box)
    else:
        vb = (0.0, 0.0, *_numbers(path, "width", root.get("width", "100")), *_numbers(path, "height", root.get("height", "100")))
    if len(vb) != 4 or vb[2] <= 0 or vb[3] <= 0:
        raise IconError(f"icon {path} has a bad viewBox {box!r}")
    parts: list[str] = []
    for child in root:
        _shape(child, parts, path)
    return "".join(parts), vb  # type: ignore[return-value]


def _shape(el, out: list[str], path: Path) -> None:
    if not isinstance(el.tag, str):  # comment or processing instruction
        return
    tag = etree.QName(el).localname
    if tag in IGNORED:
        return
    if tag not in SHAPES:
        raise IconError(f"icon {path} uses <{tag}>; icons may only use {', '.join(sorted(SHAPES))}")
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in el.attrib.items() if k in ATTRS)
    for k, v in _declarations(el.get("style", "")):  # keep only paint properties from an inline style
        if k in ATTRS and k not in el.attrib:
            attrs += f' {k}="{escape(v)}"'
    painted = {**dict(_declarations(el.get("style", ""))), **el.attrib}
    for key in ("fill", "stroke"):
        if painted.get(key, "").strip().startswith("url("):
            how = "filled" if key == "fill" else "stroked"
            raise IconError(f"icon {path}:{el.sourceline}: <{tag}> is {how} with {painted[key].strip()!r}, a gradient "
                            "or pattern: icons may only use plain colours (expected a colour such as #cc3300, or "
                            "currentColor for the text's; a gradient needs a template's own <defs>)")
    if tag == "g":
        out.append(f"<g{attrs}>")
        for child in el:
            _shape(child, out, path)
        out.append("</g>")
    else:
        out.append(f"<{tag}{attrs}/>")


def _declarations(style: str) -> list[tuple[str, str]]:
    """An inline style's ``property: value`` pairs."""
    return [tuple(s.strip() for s in decl.split(":", 1)) for decl in style.split(";") if ":" in decl]  # type: ignore[misc]


def place(path: Path, x: float, y: float, size: float, colour: str = "#000") -> str:
    """The icon scaled into a size×size square with its top-left at (x, y), as a ``<g>`` naming
    its file and the hash of its shapes (``ATTRIBUTE``: the change report's icon redrawn, the print
    lint's icon on a ground of its colour; drawn nothing, and no part of the face's key)."""
    inner, (vx, vy, vw, vh) = load(path)
    scale = size / max(vw, vh)
    dx = x + (size - vw * scale) / 2 - vx * scale
    dy = y + (size - vh * scale) / 2 - vy * scale
    said = f"{path.name} {hashlib.sha256(inner.encode('utf-8')).hexdigest()[:12]}"  # (before its colour is set)
    if "currentColor" in inner:
        inner = inner.replace("currentColor", str(escape(colour)))
    return (f'<g {ATTRIBUTE}="{escape(said)}" transform="translate({dx:.3f},{dy:.3f}) scale({scale:.5f})">'
            f'{inner}</g>')


def _unpacked(path: Path, data: bytes) -> bytes:
    """An icon's SVG text: one saved compressed (an ``.svgz`` named ``.svg``), which libxml2
    reading the file had unpacked whole, unpacked to at most ``MAX_ICON_BYTES`` (200 KB of gzip
    can unpack to gigabytes of elements, built into a tree before they were counted)."""
    if data[:2] != GZIP_MAGIC:
        return data
    unpack = zlib.decompressobj(wbits=31)
    try:
        text = unpack.decompress(data, MAX_ICON_BYTES + 1)
    except zlib.error:
        text = b""
    if len(text) > MAX_ICON_BYTES:
        raise IconError(f"icon {path} unpacks to more than {MAX_ICON_BYTES:,} bytes, more than an icon may be ({_SIMPLER})")
    if not unpack.eof:  # (cut short, or not gzip after all)
        raise IconError(f"icon {path} is not valid SVG: {COMPRESSED_SVG}, and damaged (expected {SAVE_UNCOMPRESSED})")
    return text


def _not_svg(path: Path, e: etree.XMLSyntaxError) -> str:
    """An icon file libxml2 cannot read, told at its line and column with what to write (a tag
    left open, ``<path …>`` for ``<path …/>``, as an icon drawn by hand often has)."""
    said = parser_said(e.msg)
    line, column = e.position if e.position else (e.lineno, 0)
    at = f"{path}:{line}:{column}" if line else str(path)
    opened = re.search(r"Opening and ending tag mismatch: ([\w.:-]+) line (\d+) and ([\w.:-]+)", said)
    if opened:
        tag, since, closing = opened.groups()
        return (f"icon {at} is not valid SVG: <{tag}> (line {since}) is never closed, and </{closing}> comes before "
                f"its end ({said}) (expected <{tag} …/>, or <{tag} …> closed by </{tag}>)")
    return f"icon {at} is not valid SVG: {said} (expected a well-formed SVG file: each tag closed, attributes quoted)"
