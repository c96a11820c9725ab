"""What a face's SVG would print without, refused before it is drawn: a mask, filter, blend
mode, marker or pattern (neither the converter nor svglib draws it), an element that is no SVG
element (a typo: ``<circel>``) or one that neither draws (``<foreignObject>``, Inkscape's
``<flowRoot>``), text with a stroke, a
gradient fill, a vertical writing-mode or a decoration, and, in a face svglib draws, the
spacing and baselines svglib leaves out. Each refusal names the element through ``error``
(the converter's: its line in the SVG and in the template) and says what to write instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree

from pnpgen.errors import InputError, suggest
from pnpgen.svg.style import HARMLESS, URL, ZERO_LENGTH, harmless, local_name, props_of

Refusal = Callable[..., InputError]
XINCLUDE = ("{http://www.w3.org/2001/XInclude}*", "{http://www.w3.org/2003/XInclude}*")  # its namespaces, as iter() takes them  # (element, what it does, what would be right) → the error to raise
WITH_ID = etree.XPath("//*[@id]")
# What svglib, which draws a face outside the subset, leaves out without a word (svglib 2.3: it
# ignores the element or property): a face using one would print without it. Masks, filters and
# blend modes are transparency besides, which print files must not hold.
NOT_DRAWN = ("mask", "filter", "mix-blend-mode", "marker", "marker-start", "marker-mid", "marker-end")
_MAY_NOT_BE_DRAWN = etree.XPath("//*[@mask or @filter or @mix-blend-mode or @marker or @marker-start or @marker-mid "
                                "or @marker-end or contains(@style, 'mask') or contains(@style, 'filter') "
                                "or contains(@style, 'blend') or contains(@style, 'marker')]")  # (lxml narrows it)
# What svglib leaves out of text and lines too (svglib 2.3 reads none of them): a face using one
# went to svglib and printed as if it were not there (text set on its baseline, unspaced; a
# non-scaling line scaled).
IGNORED_BY_SVGLIB = ("letter-spacing", "word-spacing", "alignment-baseline", "paint-order", "vector-effect")
_MAY_BE_IGNORED = etree.XPath("//*[@letter-spacing or @word-spacing or @alignment-baseline "
                              "or @paint-order or @vector-effect or contains(@style, 'spacing') "
                              "or contains(@style, 'baseline') or contains(@style, 'paint-order') "
                              "or contains(@style, 'vector-effect')]")
_PATTERNS = etree.XPath("//*[local-name()='pattern'][@id]")
# What to write for each property svglib ignores, in the error that names it.
_INSTEAD = {"letter-spacing": "the characters placed by x, one value per character (x=\"10 14 18\")",
            "word-spacing": "the words placed by x, or a textbox() of the text",
            "alignment-baseline": "dominant-baseline on the <text> (pnpgen places central, middle, hanging, "
                                  "text-top, ideographic), or its y as the baseline"}
_PLACED_BY_BASELINE = etree.XPath("//*[@dominant-baseline or contains(@style, 'dominant-baseline')]")
_TEXTS = etree.XPath("//*[local-name()='text' or local-name()='tspan']")
HORIZONTAL = ("horizontal-tb", "lr-tb", "lr", "rl-tb", "rl", "initial", "normal")  # writing-mode values set across
_PAINTED = etree.XPath("//*[@style or @fill or @stroke]")


def refuse_not_drawn(root, error: Refusal) -> None:
    """An error for a mask, filter, blend mode, marker or pattern a face uses: neither this
    converter nor svglib draws it, so the face would print without it (an unused one in
    <defs> is harmless)."""
    for el in _MAY_NOT_BE_DRAWN(root):
        props = props_of(el)
        for key in NOT_DRAWN:
            v = props.get(key, "").strip()
            if v and v not in HARMLESS and v not in ("inherit", "initial", "unset"):
                raise error(el, f"has {key}={v!r}, which pnpgen does not print (the face would print "
                                     f"without it{'; and it is transparency, which print files cannot hold' if key in NOT_DRAWN[:3] else ''})",
                                 "the effect drawn into the art itself: an image with it applied, or plain shapes")
    _refuse_undrawn_text(root, error)
    for el in _MAY_BE_IGNORED(root):
        props = props_of(el)
        for key in IGNORED_BY_SVGLIB[1:]:  # (letter-spacing the converter draws: refused if svglib draws the face)
            v = (_set(props.get(key)) or "").strip()
            if v and v not in HARMLESS and v != "initial" and not ZERO_LENGTH.match(v):  # Inkscape's 0px
                raise error(el, f"has {key}={v[:30]!r}, which pnpgen does not draw (the face would print "
                                     "as if it were not there)",
                                 _INSTEAD.get(key, "a stroke drawn as it prints: its width as the art shows it"))
    patterns = {el.get("id") for el in _PATTERNS(root)}
    if not patterns:
        return
    for el in _PAINTED(root):
        props = props_of(el)
        for key in ("fill", "stroke"):
            m = URL.match(props.get(key, "").strip())
            if m and m.group(1) in patterns:
                raise error(el, f"has {key}={props[key].strip()!r}, a <pattern>, which pnpgen does not "
                                     "print (the face would print without it)",
                                 "a plain colour or gradient, or the pattern drawn as shapes or an image")

# SVG 1.1's and SVG 2's element names (https://www.w3.org/TR/SVG11/eltindex.html), and the flowed
# text of the SVG 1.2 draft Inkscape 0.92 saved: another name in the SVG namespace is no SVG element.
SVG_ELEMENTS = frozenset((
    "a altGlyph altGlyphDef altGlyphItem animate animateColor animateMotion animateTransform circle clipPath "
    "color-profile cursor defs desc discard ellipse feBlend feColorMatrix feComponentTransfer feComposite "
    "feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB "
    "feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight "
    "feSpecularLighting feSpotLight feTile feTurbulence filter font font-face font-face-format font-face-name "
    "font-face-src font-face-uri foreignObject g glyph glyphRef hkern image line linearGradient marker mask "
    "metadata missing-glyph mpath path pattern polygon polyline radialGradient rect script set stop style svg "
    "switch symbol text textPath title tref tspan use view vkern flowRoot flowRegion flowPara flowSpan flowDiv").split())
# SVG elements that draw content which neither the converter nor svglib (2.3: it passes over any name
# it has no converter for) draws: a face holding one would print without it.
_CONTENT_NOT_DRAWN = {"foreignObject": "the content as SVG shapes and <text>, or as a picture (<image>)",
                      "flowRoot": "the flowed text as plain text (Inkscape: Text > Convert to Text) or as paths "
                                  "(Path > Object to Path), or a textbox() in the template",
                      "tref": "the text written out in the <text>"}
# Where such an element prints nothing in any renderer, or only in a choice (an unused <defs>, a
# filter's primitives; <switch>'s fallback for a <foreignObject>, as draw.io writes it).
_NOT_RENDERED_UNDER = ("defs", "filter", "mask", "pattern", "marker", "switch")


def refuse_unknown_element(el, name: str, drawn: frozenset[str], error: Refusal) -> None:
    """An error for ``el``, an element of the SVG namespace named ``name`` that the converter does
    not draw, where nothing of it would print: a name that is no SVG element (a typo, ``<circel>``:
    a browser draws nothing of it either, without a word), or a ``<foreignObject>`` (HTML in the
    SVG) or flowed text, which a browser or Inkscape draws and svglib leaves out. Any other (a
    ``<style>``, ``<textPath>``) the caller leaves to svglib. ``drawn``: the names pnpgen draws."""
    if any(local_name(a) in _NOT_RENDERED_UNDER for a in el.iterancestors()):
        return
    if name not in SVG_ELEMENTS:
        raise error(el, f"is not an SVG element, so nothing of it prints (a browser draws nothing of it "
                        f"either){suggest(name, drawn)}",
                    "an element pnpgen draws: " + ", ".join(sorted(drawn - {"stop", "title", "desc", "metadata"})))
    if name in _CONTENT_NOT_DRAWN:
        raise error(el, "is drawn by neither pnpgen nor svglib: the face would print without it",
                    _CONTENT_NOT_DRAWN[name])


def _refuse_undrawn_text(root, error: Refusal) -> None:
    """An error for text with a stroke, a gradient fill, a vertical writing-mode or a text
    decoration (its own or a group's around it): pnpgen sets text across and filled in a plain
    colour only, and svglib, which drew such a face, too — a stroke it left out (white lettering
    ringed in black, 縁取り, printed white on the art), a gradient-filled text it printed as
    nothing, 縦書き across and off the piece, an underline as nothing, without a word."""
    gradients = {el.get("id") for el in WITH_ID(root) if local_name(el) in ("linearGradient", "radialGradient")}
    for el in _TEXTS(root):
        if not "".join(el.itertext()).strip():
            continue
        stroke = width = fill = mode = None
        decoration = ""
        for node in (el, *el.iterancestors()):
            props = props_of(node)
            stroke = stroke if stroke is not None else _set(props.get("stroke"))
            width = width if width is not None else _set(props.get("stroke-width"))
            fill = fill if fill is not None else _set(props.get("fill"))
            mode = mode if mode is not None else _set(props.get("writing-mode"))
            decoration = decoration or (_set(props.get("text-decoration")) or "").replace("none", "").strip()
        if mode is not None and mode.lower() not in HORIZONTAL:
            raise error(el, f"has writing-mode={mode[:30]!r} (set on it or on a group around it): pnpgen "
                                 "sets text across only, and this vertical text (縦書き) would print across, "
                                 "running off the piece",
                             "one <text> per character, stacked: the same x, y stepping down by the font size, "
                             "text-anchor=\"middle\"")
        if decoration:
            raise error(el, f"has text-decoration={decoration[:30]!r} (set on it or on a group around it): "
                                 "pnpgen draws no text decoration, and the line would print as nothing",
                             "the line drawn as a <line> or <rect> under (or through) the text")
        if fill is not None and (m := URL.match(fill)) and m.group(1) in gradients:
            raise error(el, f"has fill={fill[:40]!r} (set on it or on a group around it): pnpgen fills "
                                 "text with a plain colour only, and the text would print as nothing",
                             "a plain fill colour for the text (a palette name or #rrggbb), or the lettering "
                             "as paths in an SVG picture")
        if stroke in (None, "none", "initial", "transparent") or (width or "1").strip() in ("0", "0px", "0mm", "0.0"):
            continue
        raise error(el, f"has stroke={stroke[:40]!r} (set on it or on a group around it): pnpgen draws "
                             "text filled only, and the stroke would print as nothing",
                         "stroke=\"none\" on the text (or on a <g> round a textbox()), and an outline as shapes: "
                         "a plate behind the text, or the lettering as paths in an SVG picture")


def refuse_for_svglib(root, reason: str, error: Refusal) -> None:
    """In a face svglib draws (``reason``: what took it outside the converter's subset), the
    baselines and letter-spacing the converter would have set and svglib does not."""
    for el in _PLACED_BY_BASELINE(root):  # the converter places it; svglib, which draws this face, does not
        v = (props_of(el).get("dominant-baseline") or "").strip()
        if v and v not in HARMLESS and v not in ("alphabetic", "initial", "inherit"):
            raise error(el, f"has dominant-baseline={v[:30]!r}, which svglib, drawing this face (it uses "
                             f"{reason!r}, outside the converter's subset), does not place: the text would "
                             "print on its y", "the face within the converter's subset, or y as the baseline "
                             "and no dominant-baseline") from None
    for el in _TEXTS(root):  # neither the converter nor svglib turns or stretches letters
        for key, instead in _TEXT_ADJUSTED.items():
            v = (el.get(key) or "").strip()
            if v and not (key == "rotate" and all(n == 0 for n in _numbers(v))):
                raise error(el, f"has {key}={v[:30]!r}, which pnpgen does not draw (nor svglib, which draws "
                                 f"this face for it): the text would print {instead[0]}", instead[1]) from None
    for el in _MAY_BE_IGNORED(root):  # the converter spaces the letters; svglib does not
        v = (_set(props_of(el).get("letter-spacing")) or "").strip()
        if v and not harmless(v) and v != "initial":
            raise error(el, f"has letter-spacing={v[:30]!r}, which svglib, drawing this face (it uses "
                             f"{reason!r}, outside the converter's subset), does not draw: the letters would "
                             "print unspaced", _INSTEAD["letter-spacing"]) from None


# Text attributes that neither draws (svglib 2.3 reads none of them): how the text would print, what to write.
_TEXT_ADJUSTED = {"rotate": ("with its letters upright", "each letter a <text> of its own in a <g transform=\"rotate(…)\">"),
                  "textLength": ("at its font's own width", "the font-size or letter-spacing that gives the width"),
                  "lengthAdjust": ("at its font's own width", "the font-size or letter-spacing that gives the width")}


def _numbers(value: str) -> list[float]:
    """The numbers of a list attribute (``rotate="0 10"``); [1.0] for one that is unreadable (not 0)."""
    try:
        return [float(v) for v in value.replace(",", " ").split()]
    except ValueError:
        return [1.0]


def _set(value: str | None) -> str | None:
    """A presentation value as set, or None where it is left to the element's parent."""
    value = value.strip() if value is not None else None
    return None if value in (None, "", "inherit", "unset") else value


def read_from_elsewhere(root) -> tuple[Any, str, str] | None:
    """The first thing in ``root``'s document that asks for another file's content in it: an entity
    its DOCTYPE declares from a file or an address (``<!ENTITY x SYSTEM "file:///…">``, a
    parameter entity too) or an XInclude (``<xi:include href="…"/>``). pnpgen never reads one (nor
    does a browser), so the face printed without it, unsaid. (element, or None for a DOCTYPE's
    declaration; what it is; the text it is written with, to find its template line); else None.
    An entity declared with its own text, as Illustrator writes them, is not one."""
    dtd = root.getroottree().docinfo.internalDTD
    for entity in dtd.iterentities() if dtd is not None else ():
        if entity.system_url is not None:
            return None, f"its DOCTYPE declares the entity {entity.name!r} from {_tail(entity.system_url)!r}", entity.system_url
    for el in root.iter(*XINCLUDE):
        name = etree.QName(el).localname
        return el, f"<{el.prefix + ':' if el.prefix else ''}{name}{_href(el)}> is an XInclude", name
    return None


def _href(el) -> str:
    href = el.get("href")
    return f" href={_tail(href)!r}" if href is not None else ""


def _tail(name: str) -> str:
    """A file's name or address as said in one line: its end, where the file's own name is."""
    return name if len(name) <= 60 else "…" + name[-59:]
