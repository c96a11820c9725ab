"""Icons in the draft's text: ``{coin}`` in a rule, drawn as the cards draw it (the game's
``icons/coin.svg``, else the workspace's or pnpgen's own), one em square on the line.

The draft's ``{name}`` of an icon that exists becomes one ``OBJ`` character in a paragraph's text
(``with_icons``), which the line breaker already keeps whole and sets one em wide, as it does on
a card; the paragraph keeps the icons' art in the order they appear and draws each where its
character falls (``draw_icon``). A ``{name}`` no icon has stays text, as before, and the
proofing report names it (``unknown``): a draft may hold braces of its own.

A heading and a line of the contents draw an icon where its OBJ falls, an em wide
(``headline.HeadText``); the running head draws it beside its words (``draw_line``); a PDF
bookmark, which holds text only, gives the icon's name (``spelt``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from pnpgen.data.markup import ICON_TOKEN
from pnpgen.errors import InputError
from pnpgen.pdf.draw import draw_art
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.styles import LATIN_GAP
from pnpgen.svg import convert
from pnpgen.svg.artwork import Art
from pnpgen.text import icons as icon_files
from pnpgen.text.linebreak import OBJ
from pnpgen.units import PT_PER_MM

BOX_MM = 10.0  # the square an icon is converted in (drawn scaled to the text's em)
DESCENT = 0.12  # of an em: how far below the baseline an icon's square starts (as the body's glyphs sit)


def named(text: str) -> list[str]:
    """The icon names ``{name}`` a text writes, in order."""
    return [m.group()[1:-1] for m in re.finditer(ICON_TOKEN, text)]


class DraftIconError(ValueError):
    """An icon the draft names whose SVG cannot be drawn (not SVG, a shape icons may not use, no
    size): its ``name`` and why; the book says it at the draft's line."""

    def __init__(self, name: str, reason: str, expected: str | None = None):
        self.name, self.reason, self.expected = name, reason, expected
        super().__init__(reason)


def has_icon(name: str, dirs: Sequence[Path]) -> bool:
    """Whether an icon folder of ``dirs`` holds ``name``'s SVG (one it may not read: no)."""
    try:
        return icon_files.find(name, tuple(dirs)) is not None
    except (icon_files.IconError, InputError):
        return False


class Icon(NamedTuple):
    """An icon of the draft as the book draws it: its art and the name of the Form XObject that
    holds it, worked out once per book, not at every place the icon is drawn."""

    form: str
    art: Art


def draft_icons(text: str, dirs: Sequence[Path], ink: str) -> dict[str, Icon]:
    """Each icon the draft ``text`` names that an icon folder holds (``dirs``, in order), its
    ``currentColor`` in ``ink``: converted once per book."""
    out: dict[str, Icon] = {}
    for name in dict.fromkeys(named(text)):
        try:  # (an icon linked out of the workspace is refused as on a card, not taken for no icon)
            path = icon_files.find(name, tuple(dirs))
            if path is None:
                continue
            svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{BOX_MM}mm" height="{BOX_MM}mm" '
                   f'viewBox="0 0 {BOX_MM} {BOX_MM}">{icon_files.place(path, 0, 0, BOX_MM, ink)}</svg>')
            form = "icon-" + hashlib.sha256(name.encode()).hexdigest()[:16]  # (a name: any characters)
            out[name] = Icon(form, convert(svg, f"icons/{path.name}"))
        except InputError as e:  # (an icon linked out of its folder, a paint naming no gradient): its own expected
            raise DraftIconError(name, str(replace(e, expected=None)), e.expected) from None
        except icon_files.IconError as e:
            raise DraftIconError(name, str(e)) from None
    return out


def unknown(text: str, known: Mapping[str, Icon]) -> list[str]:
    """The ``{name}``s of ``text`` no icon has (left as text)."""
    return [n for n in dict.fromkeys(named(text)) if n not in known]


def with_icons(text: str, known: Mapping[str, Icon]) -> tuple[str, tuple[Icon, ...]]:
    """``text`` with each known icon's ``{name}`` as one ``OBJ``, and the icons in order."""
    if not known or "{" not in text:
        return text, ()
    found: list[Icon] = []

    def one(m: re.Match) -> str:
        icon = known.get(m.group()[1:-1])
        if icon is None:
            return m.group()
        found.append(icon)
        return OBJ

    return re.sub(ICON_TOKEN, one, text), tuple(found)


def draw_icon(canv, icon: Icon, x: float, baseline: float, size: float) -> None:
    """``icon`` in a ``size``-point square standing on the line at ``x`` (points): its Form
    XObject defined the first time the document shows it."""
    box = BOX_MM * PT_PER_MM
    if not canv.hasForm(icon.form):
        canv.beginForm(icon.form, 0, 0, box, box)
        draw_art(canv, icon.art)
        canv.endForm()
    canv.saveState()
    canv.translate(x, baseline - DESCENT * size)
    canv.scale(size / box, size / box)
    canv.doForm(icon.form)
    canv.restoreState()


def _parts(text: str, known: Mapping[str, Icon]) -> list[str | Icon]:
    """``text`` cut at each known icon's ``{name}``: its words and its icons, in order."""
    out: list[str | Icon] = []
    pos = 0
    for m in re.finditer(ICON_TOKEN, text):
        icon = known.get(m.group()[1:-1])
        if icon is not None:
            out += [text[pos:m.start()], icon]
            pos = m.end()
    out.append(text[pos:])
    return out


def _line_parts(text: str, known: Mapping[str, Icon], em_space: bool) -> Sequence[str | Icon | _EmSpace]:
    """``_parts`` of a line; with ``em_space``, each 　 a part of its own, ``_EM``."""
    out = _parts(text, known)
    if not em_space:
        return out
    return [_EM if bit == "\u3000" else bit for part in out
            for bit in (re.split("(\u3000)", part) if isinstance(part, str) else [part]) if bit != ""]


def spelt(text: str, known: Mapping[str, Icon]) -> str:
    """``text`` with each known icon's ``{name}`` as its name: a PDF bookmark holds text only."""
    names = {icon.form: name for name, icon in known.items()}
    return "".join(part if isinstance(part, str) else names[part.form] for part in _parts(text, known))


def width(text: str, font: str, size: float, known: Mapping[str, Icon], gap_em: float, em_space: bool = False) -> float:
    """``glyphs.width`` of a line with its icons, each an em (``em_space``: each 　 an em too)."""
    return sum(glyphs.width(part, font, size, gap_em) if isinstance(part, str) else size
               for part in _line_parts(text, known, em_space))


def fitted(text: str, font: str, size: float, known: Mapping[str, Icon], room: float, gap_em: float = LATIN_GAP,
           em_space: bool = False) -> str:
    """``text`` whole when its ``width`` fits ``room`` points, else cut at its end with … to fit,
    an icon's ``{name}`` kept whole or left out (a running head's long section, trial72)."""
    if width(text, font, size, known, gap_em, em_space) <= room:
        return text
    units = re.findall(ICON_TOKEN.pattern + "|.", text, re.S)
    while units and width("".join(units).rstrip() + "…", font, size, known, gap_em, em_space) > room:
        units.pop()
    return "".join(units).rstrip("\u3000 ") + "…"


def draw_line(canv, x: float, y: float, text: str, font: str, size: float, known: Mapping[str, Icon],
              align: str = "left", gap_em: float = LATIN_GAP, em_space: bool = False) -> None:
    """``glyphs.draw`` of a line with its icons drawn, each an em. ``em_space``: each 　 is drawn
    over an em (the running head's section, 「5.0　移動」, as its heading sets the gap after its
    number), the line a marked span whose ActualText is its text (PDFium read the 　 drawn alone
    as an ASCII space)."""
    x -= {"left": 0.0, "centre": 0.5, "right": 1.0}[align] * width(text, font, size, known, gap_em, em_space)
    parts = _line_parts(text, known, em_space)
    spanned = _EM in parts
    if spanned:
        said = "".join(part if isinstance(part, str) else "\u3000" for part in parts if not isinstance(part, Icon))
        canv.addLiteral(f"/Span <</ActualText <{glyphs.actual_text(said)}>>> BDC")
    for part in parts:
        if isinstance(part, str):
            glyphs.draw(canv, x, y, part, font, size, "left", gap_em)
            x += glyphs.width(part, font, size, gap_em)
        elif isinstance(part, _EmSpace):
            glyphs.draw(canv, x, y, "\u3000", font, size, "left", 0.0)
            x += size
        else:
            draw_icon(canv, part, x, y, size)
            x += size
    if spanned:
        canv.addLiteral("EMC")


class _EmSpace:
    """A line's 　 set an em wide (``draw_line``'s ``em_space``): a part of its own."""


_EM = _EmSpace()
