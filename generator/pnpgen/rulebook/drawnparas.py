"""The book's paragraphs as the last setting drew them, kept by a warm rulebook process (``watch``,
``serve``) for the next setting: a paragraph with the same text, lines, fonts and measures,
drawn where the fonts' subsets stand as they stood when it was drawn last, writes the same page
operators and gives the subsets the same new characters in the same order — so it is taken from
the last setting, not drawn again. A count or a pictured card edited changes a paragraph or
none, and the others (some 25 ms of a 135 ms setting of populous's book) are taken.

A subset numbers its characters in the order the document first shows them (ReportLab's
``TTFont.splitString``) and names its font by how many fonts the document named before, so a
paragraph drawn after a newly shown character elsewhere may write other codes: a drawing is taken
only when its characters, given to the subsets in the order drawing them would give them, come
out with the codes they had, and its fonts with the names they had (``Drawing._taken``); else the
paragraph is drawn again, and the subsets stand as drawing it leaves them. Only paragraphs whose
drawing leaves nothing but page operators and subset characters behind are kept (no link, named
destination, icon or spot colour: ``flowables.JPara``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.textobject import PDFTextObject


class DrawnParagraphs:
    """What a warm process keeps from one setting to the next (``typeset.Setting``): each
    paragraph's drawing by its key, those the last setting used and those this one uses."""

    def __init__(self) -> None:
        self.last: dict[Hashable, Drawn] = {}
        self.now: dict[Hashable, Drawn] = {}
        self.fonts: tuple = ()  # the registered fonts the drawings were made with (held: their ids stay theirs)
        self.drawn = 0  # paragraphs drawn in full, and taken, since ``begin`` (the tests count them)
        self.taken = 0

    def begin(self) -> None:
        """A setting starts: it may take what the last one drew; only what it uses is kept after it.
        A font registered since the last setting ended (another font, or one whose file was saved
        over: ``fonts.saved_since``) forgets them all."""
        if _registered() != self.fonts:
            self.last, self.now = {}, {}
        elif self.now:
            self.last, self.now = self.now, {}
        self.drawn = self.taken = 0

    def end(self) -> None:
        """A setting has ended: the fonts registered now (some while it drew: the faces' own) are
        the ones its drawings were made with."""
        self.fonts = _registered()


def _registered() -> tuple:
    """The fonts ReportLab has registered, by identity (its registry: ``fonts.py`` reads it too)."""
    return tuple(pdfmetrics._fonts.values())


class Drawn:
    """One paragraph's drawing: the page operators it wrote, and per font (in the order drawing
    named them) its characters in the order it first showed them, their codes and the font's
    name in the document."""

    __slots__ = ("code", "fonts")

    def __init__(self, code: list[str], fonts: list[tuple[Any, str, tuple, tuple, str]]):
        self.code, self.fonts = code, fonts


class Drawing:
    """One document's side of ``DrawnParagraphs`` (``RulebookDoc`` makes one a pass)."""

    def __init__(self, kept: DrawnParagraphs, canv: Any):
        self.kept, self.canv, self.doc = kept, canv, canv._doc

    def draw(self, key: Hashable, draw: Callable[[], None]) -> bool:
        """``draw()`` the paragraph (or a page's running head: anything drawn with text objects on
        the canvas alone) whose drawing ``key`` names, or take it as it was drawn (True)."""
        kept, canv = self.kept, self.canv
        # what a text object starts from; and a sketch's pass (the first of a book's passes, which
        # draws its headings alone: their characters come first there) apart from the others
        key = (key, canv._fontname, canv._fontsize, canv._leading, bool(getattr(canv, "sketch", False)))
        drawn = kept.now.get(key) or kept.last.get(key)
        if drawn is not None and self._taken(drawn):
            self.canv._code.extend(drawn.code)
            kept.now[key] = drawn
            kept.taken += 1
            return True
        code = self.canv._code
        at = len(code)
        shown: list[tuple[str, str]] = []
        self.canv.beginText = lambda x=0, y=0, direction=None: _Shown(self.canv, x, y, direction, shown)
        try:
            draw()
        finally:
            del self.canv.beginText
        kept.drawn += 1
        fonts = self._fonts(shown)
        if fonts is not None:
            kept.now[key] = Drawn(code[at:], fonts)
        return False

    def _fonts(self, shown: list[tuple[str, str]]) -> list[tuple[Any, str, tuple, tuple, str]] | None:
        """Each font the drawing showed text in, in the order it named them: its characters in the
        order first shown, as the subsets key them, their codes, its name in the document; None
        when one is not a subsetted font (a standard font is named another way)."""
        chars: dict[str, dict[str, None]] = {}
        for name, text in shown:
            chars.setdefault(name, {}).update(dict.fromkeys(text))
        out = []
        for name, seen in chars.items():
            font = pdfmetrics.getFont(name)
            if not getattr(font, "_dynamicFont", False):
                return None
            text = "".join(seen)
            keys = tuple(32 if c == 0xA0 else c for c in map(ord, text))  # (a no-break space is a space: splitString)
            state = font.state[self.doc]
            out.append((font, text, keys, tuple(map(state.assignments.get, keys)), state.internalName))
        named = {id(font): n for n, font in enumerate(self.doc.delayedFonts)}
        out.sort(key=lambda f: named.get(id(f[0]), -1))
        return out

    def _taken(self, drawn: Drawn) -> bool:
        """The drawing's characters given to the subsets and its fonts named as drawing it would
        (first shown, first numbered; named in the order it named them): whether each came out as
        it did when it was drawn."""
        same = True
        for font, text, keys, codes, name in drawn.fonts:
            state = font.state.get(self.doc)
            got = tuple(map(state.assignments.get, keys)) if state is not None else None
            if got != codes:  # a character not shown yet in this document, or at another code
                font.splitString(text, self.doc)
                state = font.state[self.doc]
                same = same and tuple(map(state.assignments.get, keys)) == codes
            if state.internalName is None:
                font.getSubsetInternalName(0, self.doc)
            same = same and state.internalName == name
        return same


class _Shown(PDFTextObject):
    """A text object that tells each text it shows, with its font (``Drawing.draw``)."""

    def __init__(self, canvas: Any, x: float, y: float, direction: Any, shown: list[tuple[str, str]]):
        self._shown = shown
        super().__init__(canvas, x, y, direction=direction)

    def _formatText(self, text: str) -> str:
        self._shown.append((self._fontname, text))
        return super()._formatText(text)
