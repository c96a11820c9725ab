"""Icon tokens: find ``<name>.svg`` in the icon folders and turn it into inline shapes.

Only plain shapes are kept (``g path circle rect ellipse line polyline polygon``) with their
geometry and paint attributes, so an icon inlines as a ``<g>`` that svglib draws as vectors.
``currentColor`` in an icon takes the colour of the text around it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from lxml import etree
from markupsafe import escape

from pnpgen.data.markup import ICON_TOKEN
from pnpgen.errors import InputError, contained, leads_out, parser_said, written_alike
from pnpgen.litter import is_litter
from pnpgen.usercache import file_stamp

SHAPES = {"g", "path", "circle", "rect", "ellipse", "line", "polyline", "polygon"}
IGNORED = {"title", "desc", "metadata", "defs"}
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


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    try:
        return file_stamp(path.stat())
    except OSError:
        return None


def find(name: str, dirs: tuple[Path, ...]) -> Path | None:
    """The first ``<name>.svg`` in the icon folders; a name leading out of them is an error.
    Remembered while the folders are unchanged (an icon saved, renamed or removed while ``watch``
    or ``serve`` runs is found, or missed, at the next build)."""
    return _find(name, dirs, tuple(_stamp(d) for d in dirs))


@lru_cache(maxsize=512)
def _find(name: str, dirs: tuple[Path, ...], stamps: tuple) -> Path | None:
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
    _find.cache_clear()
    _load.cache_clear()


def names(dirs: Sequence[Path]) -> list[str]:
    return sorted({p.stem for d in dirs if d.is_dir() and not leads_out(d, d.parent.parent) for p in d.glob("*.svg")
                   if p.is_file() and not is_litter(p.name)})


def stamps(text: str, dirs: tuple[Path, ...]) -> tuple:
    """The file and stamp of each icon ``text`` names (``{name}``): a key for what is worked out
    from the text and its icons, so an icon edited in a running process is drawn anew."""
    out = []
    for m in ICON_TOKEN.finditer(text):
        try:
            path = find(m.group()[1:-1], dirs)
        except (IconError, InputError):  # (said where the text is laid out)
            path = None
        out.append((path, path and _stamp(path)))
    return tuple(out)


def load(path: Path) -> tuple[str, tuple[float, float, float, float]]:
    """The icon's shapes as SVG text (no namespace) and its viewBox (x, y, w, h), read again
    once the file changes (its stamp is the cache's key, not its path alone)."""
    return _load(path, _stamp(path))


@lru_cache(maxsize=512)
def _load(path: Path, stamp: tuple | None) -> tuple[str, tuple[float, float, float, float]]:
    try:
        root = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True)).getroot()
    except etree.XMLSyntaxError as e:
        raise IconError(f"icon {path} is not valid SVG: {parser_said(e.msg)}") from None
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
    style = el.get("style")
    if style:  # keep only paint properties from an inline style
        for decl in style.split(";"):
            if ":" in decl:
                k, v = (s.strip() for s in decl.split(":", 1))
                if k in ATTRS and k not in el.attrib:
                    attrs += f' {k}="{escape(v)}"'
    if tag == "g":
        out.append(f"<g{attrs}>")
        for child in el:
            _shape(child, out, path)
        out.append("</g>")
    else:
        out.append(f"<{tag}{attrs}/>")


def place(path: Path, x: float, y: float, size: float, colour: str = "#000") -> str:
    """The icon scaled into a size×size square with its top-left at (x, y), as a ``<g>``."""
    inner, (vx, vy, vw, vh) = load(path)
    scale = size / max(vw, vh)
    dx = x + (size - vw * scale) / 2 - vx * scale
    dy = y + (size - vh * scale) / 2 - vy * scale
    if "currentColor" in inner:
        inner = inner.replace("currentColor", str(escape(colour)))
    return f'<g transform="translate({dx:.3f},{dy:.3f}) scale({scale:.5f})">{inner}</g>'
