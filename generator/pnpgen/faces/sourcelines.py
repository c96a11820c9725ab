"""Which template line drew each SVG element, for the print lint (``pnpgen.faces.printlint``).

- ``SourceLines``, a Jinja extension: every tag written literally in a template (``<rect``,
  ``<text``, … in its text, not in what an expression prints) gets the attribute
  ``data-pnpgen-at="<template name>:<line>"`` as the template is compiled;
- ``traced(helper)``: a template helper that writes elements (``textbox()``, ``icon()``) wraps
  what it returns in ``<g data-pnpgen-at="…">`` naming the template line that called it.

The face converter reads the attribute (the nearest one on an element or around it) and draws
nothing from it; ``strip`` takes the attributes out where a face is known by its SVG's hash,
so moving a template's lines does not make every face new.
"""

from __future__ import annotations

import re
import sys
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup, escape

ATTRIBUTE = "data-pnpgen-at"
_TAG = re.compile(r"<([A-Za-z][\w.-]*(?::[\w.-]+)?)(?=[\s/>])")
_ANY = re.compile(rf' {ATTRIBUTE}="[^"]*"')


class SourceLines(Extension):
    """Marks each literal tag of a template with its template name and line."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        name = stream.name or "?"
        for token in stream:
            if token.type != "data" or "<" not in token.value:
                yield token
                continue
            value, line = token.value, token.lineno
            parts, last = [], 0
            for m in _TAG.finditer(value):
                at = line + value.count("\n", 0, m.start())
                parts.append(value[last:m.end()])
                parts.append(f' {ATTRIBUTE}="{escape(name)}:{at}"')
                last = m.end()
            parts.append(value[last:])
            yield Token(token.lineno, "data", "".join(parts))


# Each compiled template's answers of ``caller``, by the line of its generated code: Jinja's
# ``get_corresponding_lineno`` parses the template's whole line table on every call (2.4 % of a
# build of the shipped games, whose faces call textbox() some 2,000 times). Kept as long as the
# template is.
_CALLERS: weakref.WeakKeyDictionary[Any, dict[int, str]] = weakref.WeakKeyDictionary()


def caller() -> str | None:
    """``name:line`` of the innermost template line on the stack (the one calling a helper)."""
    frame = sys._getframe(2)
    while frame is not None:
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            known = _CALLERS.get(template)
            if known is None:
                known = _CALLERS[template] = {}
            at = known.get(frame.f_lineno)
            if at is None:
                at = known[frame.f_lineno] = f"{template.name}:{template.get_corresponding_lineno(frame.f_lineno)}"
            return at
        frame = frame.f_back  # type: ignore[assignment]
    return None


def traced(helper: Callable[..., Any]) -> Callable[..., Any]:
    """``helper`` whose SVG output is grouped under the template line that called it."""

    def call(*args: Any, **kwargs: Any) -> Any:
        out = helper(*args, **kwargs)
        at = caller()
        if at is None or not isinstance(out, Markup) or not str(out).strip():
            return out
        return Markup(f'<g {ATTRIBUTE}="{escape(at)}">') + out + Markup("</g>")

    for attr in ("__name__", "__signature__", "__doc__"):
        if hasattr(helper, attr):
            setattr(call, attr, getattr(helper, attr))
    return call


def strip(svg: str) -> str:
    """The SVG without the source-line attributes (what a face is known by)."""
    return _ANY.sub("", svg) if ATTRIBUTE in svg else svg


def lines_of(svg: str) -> str:
    """Every source-line attribute of the SVG, in order (what a face's lint names depend on)."""
    return " ".join(m.group(0) for m in _ANY.finditer(svg))
