"""The font an SVG picture's text names, among the game's fonts: an SVG drawn in Inkscape or
Illustrator names the fonts of the designer's computer (``'BIZ UDPGothic'``, ``Noto Sans JP``,
``sans-serif``, Arial) and a weight, not the file names pnpgen knows its fonts by
(``BIZUDPGothic-Bold``)."""

from __future__ import annotations

import re

from pnpgen import fonts
from pnpgen.patterns import later

# generic CSS families → the kind of font that sets them
GENERIC = {"sans-serif": "sans", "system-ui": "sans", "ui-sans-serif": "sans", "serif": "serif",
           "ui-serif": "serif", "monospace": "mono", "ui-monospace": "mono", "cursive": "sans", "fantasy": "sans"}
# words in a family's name that tell its kind, for a family the game has no font of
_SERIF = later(r"mincho|明朝|serif|times|georgia|garamond|minion|song|ming|palatino|book", re.I)
_MONO = later(r"mono|courier|consola|code|menlo|等幅", re.I)
_SANS_SERIF = later(r"sans[\s_-]*serif", re.I)
BOLD_WEIGHTS = ("bold", "bolder", "600", "700", "800", "900")


def _key(name: str) -> str:
    """A family's name as compared: no case, spaces, hyphens or underscores ("BIZ UDPGothic" is
    the file BIZUDPGothic-Regular's family)."""
    return re.sub(r"[\s_-]+", "", name).lower()


def _kind(name: str) -> str:
    """sans, serif or mono, by the words of a font's or family's name."""
    if name in GENERIC:
        return GENERIC[name]
    if _MONO.search(name) or re.fullmatch(r"BIZUDGothic-\w+", name):  # BIZ UD Gothic (no P) is fixed-width
        return "mono"
    return "serif" if _SERIF.search(name) and not _SANS_SERIF.search(name) else "sans"


def _styled(names: list[str], bold: bool) -> str | None:
    """Of one family's fonts, the bold one for a bold text (else the regular one)."""
    if not names:
        return None
    def rank(n: str) -> tuple:
        style = n.rpartition("-")[2].lower() if "-" in n else "regular"
        return (("bold" in style) != bold, style != ("bold" if bold else "regular"), n)
    return min(names, key=rank)


def picture_font(family: str, weight: str = "normal") -> tuple[str, bool] | None:
    """The game's font for a picture's ``font-family`` list and ``font-weight``, and whether the
    list named it (its file name, its family's name, or a generic family) rather than it being
    the nearest of its kind; None when the game has no font at all."""
    known = fonts.registered()
    if not known:
        return None
    bold = weight.strip().lower() in BOLD_WEIGHTS
    names = [f.strip().strip("'\"").strip() for f in family.split(",") if f.strip(" '\"")]
    for name in names:
        if name in known:
            family = name.rpartition("-")[0]
            same = [n for n in known if family and n.rpartition("-")[0] == family] if bold else []
            return _styled(same or [name], bold) or name, True
        same = [n for n in known if _key(n.rpartition("-")[0] if "-" in n else n) == _key(name)]
        if same:
            return _styled(same, bold) or same[0], True
        if name.lower() in GENERIC:
            return _nearest(known, GENERIC[name.lower()], bold), True
    return _nearest(known, _kind(names[0]) if names else "sans", bold), False


def _nearest(known: list[str], kind: str, bold: bool) -> str:
    """The game's font of ``kind`` (a proportional Japanese one first: it sets both scripts),
    else its first font."""
    of_kind = [n for n in known if _kind(n) == kind] or [n for n in known if _kind(n) == "sans"] or known
    family = min(of_kind, key=lambda n: ("biz" not in n.lower(), "bizudp" not in n.lower(), n)).rpartition("-")[0]
    return _styled([n for n in of_kind if n.rpartition("-")[0] == family] if family else of_kind, bold) or of_kind[0]
