"""The colour vocabulary a template sees: colour(), paint(), readable(), the tint and shade filters
and textbox()'s fill, each reading the game's palette."""

from __future__ import annotations

from typing import Any

import jinja2

from pnpgen.data import validate
from pnpgen.data.model import OPEN_COLOUR, Game, is_placeholder
from pnpgen.errors import InputError
from pnpgen.faces.helpers import mix, readable
from pnpgen.svg.style import hex_colour, parse_colour


class FaceColours:
    """The colour helpers and filters of a face's templates (a mixin of Renderer, which holds the
    game whose palette they read)."""

    game: Game

    def colour(self, name: str | None, default: str | None = None) -> str:
        """A palette name or '#rrggbb' → '#rrggbb'; a colour the draft leaves open (未定, empty,
        none) gives ``default`` or a neutral grey. The caller's template line is added on failure."""
        for given in (name, default):
            if isinstance(given, jinja2.Undefined):  # colour(piece.factoin): the field not there, by its name
                str(given)  # (a strict Undefined raises its own error: "the piece has no field …; did you mean …")
        if name is None or (isinstance(name, str) and not name.strip()) or is_placeholder(name):
            if default is None:
                self.painted_open()
                return OPEN_COLOUR
            name = default
        try:
            return validate.colour(name, self.game.palette)
        except validate.Invalid as e:
            raise InputError(e.message, key="colour", expected=e.expected) from None

    def painted_open(self) -> None:
        """Called when ``colour()`` paints an open colour grey: the renderer warns of a piece's empty
        field painted so (faces/templates.py)."""

    def paint(self, name: Any, text: bool = False) -> str:
        """The common macros' fill or stroke: a palette name's colour, any other SVG paint as
        written (none, white, url(#id)), an open value grey as ``colour()`` gives it; a word that
        is none of these fails with the palette name it nearly is (it stopped at pnpgen's macro
        line as 'not a colour', with no word of the palette). ``text``: a text's ink, which
        textbox() takes as hex (white → #ffffff)."""
        if isinstance(name, str) and (name in self.game.palette or (text and name.startswith("#"))):
            return self.colour(name)
        if isinstance(name, str) and name.strip() and not is_placeholder(name):
            if not text and (name.startswith("url(") or name == "currentColor"):
                return name
            try:
                rgb = parse_colour(name)
            except ValueError:
                return self.colour(name)  # (fails, naming the palette)
            if isinstance(rgb, tuple):
                return hex_colour(rgb) if text else name
            if not text:  # none, transparent, a translucent colour: the converter's to judge, as before
                return name
        return self.colour(name)

    def text_ink(self, name: Any) -> Any:
        """``textbox()``'s fill: a colour as ``paint(name, text=True)`` reads it (white → #ffffff;
        a palette name still wins); a palette name, hex or a word that is no colour goes on as
        written, for textbox() to take or refuse naming the deck, piece, field and palette."""
        if isinstance(name, str) and (name in self.game.palette or name.startswith("#")):
            return name
        try:
            return self.paint(name, text=True)
        except InputError:
            return name

    def tint(self, name: str | None, amount: float, toward: str = "#ffffff") -> str:
        """The ``tint`` filter: the colour moved toward white (or ``toward``) by ``amount`` (0–1)."""
        return mix(self.colour(name), self.colour(toward), amount)

    def shade(self, name: str | None, amount: float) -> str:
        """The ``shade`` filter: the colour moved toward black by ``amount`` (0–1)."""
        return mix(self.colour(name), "#000000", amount)

    def readable(self, ink: str | None, ground: str | None, dark: str = "#000000", light: str = "#ffffff") -> str:
        """The ``readable()`` helper: ``ink`` where it reads on ``ground``, else ``dark`` or
        ``light``, whichever reads better (palette names or hex, as ``colour()`` takes them)."""
        return readable(self.colour(ink), self.colour(ground), self.colour(dark), self.colour(light))
