"""Which template line drew each SVG element, for the print lint (``pnpgen.faces.printlint``) and
for a template whose SVG is not XML (``svg_mistake``).

- ``SourceLines``, a Jinja extension: every tag written literally in a template (``<rect``,
  ``<text``, … in its text, not in what an expression prints) gets the attribute
  ``data-pnpgen-at="<template name>:<line>"`` as the template is compiled;
- ``traced(helper)``: a template helper that writes elements (``textbox()``, ``icon()``) wraps
  what it returns in ``<g data-pnpgen-at="…">`` naming the template line that called it — called
  by a ``common/`` macro (``m.tate()``, ``m.title()``), the designer's line that called the macro,
  as the macros' own warnings name it (``designers_line``): the text is the designer's.

The face converter reads the attribute (the nearest one on an element or around it) and draws
nothing from it; ``strip`` takes the attributes out where a face is known by its SVG's hash,
so moving a template's lines does not make every face new.
"""

from __future__ import annotations

import hashlib
import html
import re
import sys
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup, escape

from pnpgen.patterns import later
from pnpgen.text.icons import ATTRIBUTE as ICON

ATTRIBUTE = "data-pnpgen-at"
_TAG = re.compile(r"<([A-Za-z][\w.-]*(?::[\w.-]+)?)(?=[\s/>])")
_TAG_OR_COMMENT = re.compile(rf"<!--|-->|{_TAG.pattern}")
_ANY = re.compile(rf' (?:{ATTRIBUTE}|{ICON})="[^"]*"')  # (an icon's file, drawn nothing: text/icons.py)


class SourceLines(Extension):
    """Marks each literal tag of a template with its template name and line."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        name = stream.name or "?"
        in_comment = False  # a tag in an XML comment is left as written: a mark there could hold '--' (x--front.svg.j2)
        for token in stream:
            if token.type != "data" or ("<" not in token.value and "-->" not in token.value):
                yield token
                continue
            value, line = token.value, token.lineno
            parts, last = [], 0
            for m in _TAG_OR_COMMENT.finditer(value):
                if m.group() in ("<!--", "-->"):
                    in_comment = m.group() == "<!--"
                    continue
                if in_comment:
                    continue
                at = line + value.count("\n", 0, m.start())
                parts.append(value[last:m.end()])
                parts.append(f' {ATTRIBUTE}="{escape(name)}:{at}"')
                last = m.end()
            parts.append(value[last:])
            yield Token(token.lineno, "data", "".join(parts))


# Each compiled template's answers of ``_template_lines``, by the line of its generated code: Jinja's
# ``get_corresponding_lineno`` parses the template's whole line table on every call (2.4 % of a
# build of the shipped games, whose faces call textbox() some 2,000 times). Kept as long as the
# template is.
_CALLERS: weakref.WeakKeyDictionary[Any, dict[int, str]] = weakref.WeakKeyDictionary()


COMMON = ("common/",)  # the macros' templates (common/macros.svg.j2): a helper they call is named at their caller's line


def designers_line(passed_over: tuple[str, ...]) -> str | None:
    """``name:line`` of the innermost line on the stack of a template whose name does not start
    with one of ``passed_over`` (pnpgen's ``common/`` macros, a layout's compiled template): the
    line of the designer's template that called the macro calling a helper."""
    return next((at for at in _template_lines(sys._getframe(1)) if not at.startswith(passed_over)), None)


def _template_lines(frame: Any) -> Iterator[str]:
    """``name:line`` of each template frame on the stack from ``frame`` outwards."""
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            known = _CALLERS.get(template)
            if known is None:
                known = _CALLERS[template] = {}
            at = known.get(frame.f_lineno)
            if at is None:
                at = known[frame.f_lineno] = f"{template.name}:{template.get_corresponding_lineno(frame.f_lineno)}"
            yield at
        frame = frame.f_back


def placing_line() -> str | None:
    """The template line a helper's SVG is grouped under: the designer's line on the stack (a
    ``common/`` macro's caller), else the innermost template line (a macro called by none)."""
    return designers_line(COMMON) or next(_template_lines(sys._getframe(1)), None)


def grouped(out: Any, at: str | None) -> Any:
    """``out``, a helper's SVG, in ``<g data-pnpgen-at="at">`` (as it is: no line, or no SVG)."""
    if at is None or not isinstance(out, Markup) or not str(out).strip():
        return out
    return Markup(f'<g {ATTRIBUTE}="{escape(at)}">') + out + Markup("</g>")


def traced(helper: Callable[..., Any]) -> Callable[..., Any]:
    """``helper`` whose SVG output is grouped under the template line that called it."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return grouped(helper(*args, **kwargs), placing_line())

    for attr in ("__name__", "__signature__", "__doc__"):
        if hasattr(helper, attr):
            setattr(call, attr, getattr(helper, attr))
    return call


def strip(svg: str) -> str:
    """The SVG without the source-line attributes and icons' names (what a face is known by)."""
    return _ANY.sub("", svg) if ATTRIBUTE in svg or ICON in svg else svg


# libxml2's words for a tag it could not close, naming the tag and the line it opened on
_OPENED = later(r"(?:mismatch: |tag )([\w.:-]+) line (\d+)")
_PLACE = later(r",? line \d+, column \d+$")
_SVG_LINE = later(r" line \d+(?= and |$)")  # the printed SVG's line of a tag, in libxml2's words
_HINTS = (  # a libxml2 message → what the template should write instead
    ("AttValue", 'every attribute value in quotes: fill="{{ c }}", not fill={{ c }}'),
    ("EntityRef", "&amp; for an & the template writes itself (text from the data is escaped already)"),
    ("Entity '", "a character as itself or a numeric reference (&#160; for &nbsp;): SVG knows only "
                 "&amp; &lt; &gt; &quot; &apos;"),
    ("attributes construct", 'attributes written name="value", a space between them, the tag ended by > or />'),
    ("parsing attribute name", 'attributes written name="value", the tag ended by > or />'),
    ("redefined", "each attribute once in a tag"),
    ("Extra content at the end", 'one <svg> root: {% extends "common/piece.svg.j2" %} first, the drawing inside '
                                 "{% block art %} … {% endblock %}"),
    ("Start tag expected", 'one <svg> root: {% extends "common/piece.svg.j2" %} first, the drawing inside '
                           "{% block art %} … {% endblock %}"),
)


def svg_mistake(svg: str, message: str, line: int, column: int) -> tuple[str | None, str, str]:
    """Where the template wrote the invalid SVG libxml2 stopped at (``name:line`` of the literal
    tag, or None when no tag of a template is known there), what is wrong and what to write: a
    designer sees the template, never the SVG it printed, so that SVG's line numbers mean nothing."""
    message = _PLACE.sub("", message)
    lines = svg.split("\n")
    opened = _OPENED.search(message)
    closing = re.search(r"mismatch: .* and ([\w.:-]+)$", message)
    message = _SVG_LINE.sub("", message)  # a line of the SVG, which the designer never sees
    if opened:  # a tag left open: the line it was written on, when a template of the game wrote it
        tag, at_line = opened.group(1), int(opened.group(2))
        text = lines[at_line - 1] if 0 < at_line <= len(lines) else ""
        marks = [_unmark(m) for m in re.findall(rf'<{re.escape(tag)} {ATTRIBUTE}="([^"]*)"', text)]
        if marks and not marks[-1].startswith("common/"):
            found = f", and </{closing.group(1)}> comes before its end" if closing else ""
            return marks[-1], f"<{tag}> is never closed{found} ({message})", f"<{tag} …/>, or <{tag} …> closed by </{tag}>"
    before = "\n".join([*lines[:line - 1], lines[line - 1][:column] if 0 < line <= len(lines) else ""])
    marks = [_unmark(m) for m in re.findall(rf'{ATTRIBUTE}="([^"]*)"', before)]
    at = marks[-1] if marks else None
    if closing:  # the tag left open is pnpgen's (the root <svg>): a closing tag too many
        return at, (f"</{closing.group(1)}> closes no tag the template opened, after the tag written on "
                    f"this line ({message})"), "each closing tag after the tag it closes"
    hint = next((h for k, h in _HINTS if k in message), "well-formed SVG; check unclosed tags in the template")
    return at, f"a bare & ({message})" if "EntityRef" in message else message, hint


def _unmark(mark: str) -> str:
    return str(Markup(mark).unescape())


def face_key(svg: str) -> str:
    """A face is known by the hash of its SVG without the template lines that drew it
    (``strip``), so moving a template's lines makes no face new."""
    return hashlib.sha256(strip(svg).encode("utf-8")).hexdigest()[:32]


def icons_drawn(svg: str) -> list[tuple[str, str]]:
    """Each icon a face's SVG draws (text/icons.py ``place``): its file's name and its shapes' hash."""
    if ICON not in svg:
        return []
    return [(name, h) for said in _ICON_SAID.findall(svg) for name, _, h in [html.unescape(said).rpartition(" ")]]


_ICON_SAID = later(f' {ICON}="([^"]*)"')


def lines_of(svg: str) -> str:
    """Every source-line attribute of the SVG, in order (what a face's lint names depend on)."""
    return " ".join(m.group(0) for m in _ANY.finditer(svg))
