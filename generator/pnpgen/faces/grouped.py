"""Warnings said once per piece, grouped per deck (or deck file) in a build's and an export's
summary: a deck of 3,000 cards whose text overflows its box (or holds a lone ``**``), or whose
English edition is not translated yet, printed 3,000 lines on every build (and again when up to
date) and every export; ``pnpgen check`` still lists each."""

from __future__ import annotations

import re
from collections.abc import Callable

from pnpgen.data.i18n import MISSING_LINE, PLAIN_LINE, more_missing, more_plain
from pnpgen.faces.images import LOW_DPI_LINE, dpi_of, more_low_dpi
from pnpgen.patterns import LaterPattern
from pnpgen.text import (
    OVERFLOW_LINE,
    UNPAIRED_LINE,
    UNTRANSLATED_LINE,
    more_overflowing,
    more_unpaired,
    more_untranslated,
)

SHOWN = 3  # a deck's warnings of one kind named one by one; the rest counted on one line
# each kind: its line, the group naming what its lines are grouped by (the deck, the file), which of
# a group's are named first, the line counting the rest
KINDS: list[tuple[LaterPattern, str, Callable[[re.Match[str]], float], Callable[[str, list[re.Match[str]]], str]]] = [
    (LOW_DPI_LINE, "deck", lambda m: dpi_of(m["dpi"]), more_low_dpi),  # the lowest dpi first
    (OVERFLOW_LINE, "deck", lambda m: 0, more_overflowing),  # in the deck's order
    (UNPAIRED_LINE, "deck", lambda m: 0, more_unpaired),  # in the deck's order
    (MISSING_LINE, "file", lambda m: 0, more_missing),  # in the file's order
    (PLAIN_LINE, "file", lambda m: 0, more_plain),  # in the file's order
    (UNTRANSLATED_LINE, "file", lambda m: 0, more_untranslated),  # in the template's order
]


def _kind(warning: str) -> tuple[int, re.Match[str]] | None:
    for k, (line, _, _, _) in enumerate(KINDS):
        m = line.match(warning)
        if m:
            return k, m
    return None


def grouped_per_deck(warnings: list[str]) -> list[str]:
    """The warnings with each deck's pictures below the wanted dpi (the lowest first), its texts
    overflowing their boxes or with unpaired markup, and each file's missing translations and
    texts left plain Japanese (in order) named up to SHOWN each, then one line counting the rest, where the first of them was;
    a group of SHOWN + 1 or fewer ("1 more" would be as long as the line), and every other
    warning, as they were, in order."""
    kinds = [_kind(w) for w in warnings]
    found: dict[tuple[int, str], list[tuple[float, int, re.Match[str]]]] = {}
    for i, hit in enumerate(kinds):
        if hit is not None:
            k, m = hit
            found.setdefault((k, m[KINDS[k][1]]), []).append((KINDS[k][2](m), i, m))
    out: list[str] = []
    said: set[tuple[int, str]] = set()
    for w, hit in zip(warnings, kinds):
        key = (hit[0], hit[1][KINDS[hit[0]][1]]) if hit is not None else None
        if key is None or len(found[key]) <= SHOWN + 1:
            out.append(w)
            continue
        if key in said:
            continue
        said.add(key)
        ranked = sorted(found[key], key=lambda f: (f[0], f[1]))
        out += [m.string for _, _, m in ranked[:SHOWN]]
        out.append(KINDS[key[0]][3](key[1], [m for _, _, m in ranked[SHOWN:]]))
    return out
