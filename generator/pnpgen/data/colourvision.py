"""Colours a deck's pieces are told apart by that look alike to a red-green colour-blind player.

A colour field a layout paints with (a suit's ``colour``, a player's, a terrain's: ``piece.colour``
as a band's ``fill``, ``data/piecevalues.py painted_fields``) is what sorts the pieces at the table.
Two of its colours far apart to most eyes may come close for a protan or deutan eye (red-green
colour blindness, some 8 % of men): the designer's red and green suits of a trick-taking game
(trial71: ``#b8322c`` and ``#3d7a3a``, 87 apart, 14 for a deutan eye). Each colour is seen as
that eye sees it by the matrices of Machado, Oliveira and Fernandes, "A Physiologically-based
Model for Simulation of Color Vision Deficiency" (IEEE TVCG 15(6), 2009), severity 1.0, applied
in linear sRGB; two colours are compared by their distance in CIELAB (CIE ΔE 1976, D65). The
lint's ``colour_blind`` (16, say) is the distance under which two are named (``data/lint.py``):
``pnpgen check`` names them at 16 where neither game.yaml nor the deck file says it, a build only
where one does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from pnpgen.data import validate as v

# (linear-RGB rows) protanopia and deuteranopia at severity 1.0, Machado et al. 2009, Table 1
_SEEN_BY = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}
_PAIRS_SAID = 3  # pairs named on a deck's line; the rest counted


def channels(hex_colour: str) -> tuple[int, int, int]:
    """A hex colour's red, green and blue, 0–255 (``#c33`` as SVG reads it, ``#cc3333``)."""
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return r, g, b


def linear(value: float) -> float:
    """An sRGB channel (0–1) as light (IEC 61966-2-1; WCAG 2.1's 0.03928 knee gives the same for
    every 8-bit channel): the contrast lint's luminance and the colour-blind check's CIELAB."""
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _linear(hex_colour: str) -> tuple[float, float, float]:
    r, g, b = (linear(c / 255) for c in channels(hex_colour))
    return r, g, b


def _lab(rgb: Iterable[float]) -> tuple[float, float, float]:
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _seen(rgb: tuple[float, float, float], eye: str) -> tuple[float, ...]:
    return tuple(sum(m * c for m, c in zip(row, rgb)) for row in _SEEN_BY[eye])


@lru_cache(maxsize=4096)
def apart(a: str, b: str, eye: str | None = None) -> float:
    """Two ``#rrggbb`` colours' distance (CIE ΔE 1976) as ``eye`` sees them (None: typical vision).
    Kept by the colours: every load of a game compares its palette's pairs again, and a watch
    save loads the game (some 2.5 ms of populous's, on the save's path: docs/speed.md, watch49)."""
    la, lb = _linear(a), _linear(b)
    if eye is not None:
        return math.dist(_lab(_seen(la, eye)), _lab(_seen(lb, eye)))
    return math.dist(_lab(la), _lab(lb))


def lookalikes(deck: Any, fields: Iterable[str], palette: dict[str, str], least: float | None,
               unasked: bool = False) -> list[str]:
    """One warning line for each painted colour field of ``deck`` two of whose colours, apart to
    typical vision, come closer than ``least`` for a protan or deutan eye (or to every eye), with
    the first printed piece of each colour; [] when ``least`` is None (``colour_blind: off``).
    ``unasked``: check's own distance, the lint saying none: the line says how to quiet it."""
    if least is None:
        return []
    notes = []
    for name in sorted(fields):
        first: dict[str, Any] = {}  # colour → the first printed piece painted with it
        for piece in deck.pieces:
            try:
                colour = v.colour(piece.values.get(name), palette).lower()
            except v.Invalid:  # (empty or 未定: grey, an open colour the check lists)
                continue
            colour = "#" + "".join(f"{c:02x}" for c in channels(colour))  # #c33 and #cc3333 one colour
            if piece.count:
                first.setdefault(colour, piece)
        found = []
        colours = list(first)
        for i, a in enumerate(colours):
            for b in colours[i + 1:]:
                eyes = sorted((apart(a, b, eye), eye) for eye in _SEEN_BY)
                typical = apart(a, b)
                if eyes[0][0] < least <= typical:
                    found.append((a, b, f"{eyes[0][1]}: {eyes[0][0]:.0f} apart, {typical:.0f} to other eyes"))
        if found:
            piece = first[found[0][1]]  # (told at the later colour's piece: the one to change, or to look at)
            pairs = [f"{x} ({first[x].said}) and {y} ({first[y].said}) ({h})" for x, y, h in found[:_PAIRS_SAID]]
            more = len(found) - _PAIRS_SAID
            notes.append(f"{piece.where_of(name)}: deck {deck.id!r} {piece.key_of(name)}: colours that look alike to a "
                         f"red-green colour-blind player (some 8 % of men): " + "; ".join(pairs)
                         + (f"; and {more} more pair{'s' if more > 1 else ''}" if more > 0 else "")
                         + f" (CIE ΔE 1976 under {least:g}) (expected colours apart in lightness too, one of each "
                         "pair darker or lighter; or a shape or word telling those pieces apart as well, and "
                         "lint: {colour_blind: off} in the deck file)"
                         + (" (check's own, at its default; a build names it only where lint: sets colour_blind)"
                            if unasked else ""))
    return notes
