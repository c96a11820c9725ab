"""Rulebook booklets typeset from the designer's draft text.

The package re-exports what the rest of pnpgen calls; the work is in its modules:
``book`` (the draft to ``rulebook.pdf``, ``rulebook-booklet.pdf`` and ``proof.txt``; the draft's own
warnings: ``draftchecks``), ``reader``
(bytes to text), ``tree`` (the draft's tree), ``parse`` and ``latin`` (Japanese and Latin-script
drafts into that tree), ``components``, ``proof``, ``figures``, ``pictures``, ``story``
(what it keeps on one page: ``keeps``; an English draft's quotes and dashes: ``typography``),
``flowables`` (a paragraph's lines: ``paralines``), ``termindex`` (the index of terms), ``piecepics``, ``ownpics`` (a figure's
picture of the designer's own), ``styles``, ``glyphs``,
``document`` (the typesetting) and ``sheet`` (the rules on one sheet of paper, in columns).

The names load on first use (PEP 562), so ``import pnpgen.rulebook.reader`` (the spreadsheet
reader decodes text with it) does not load the typesetter and ReportLab's platypus.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnpgen.rulebook.book import (
        RulebookResult,
        build_rulebook,
        load_document,
        prepare,
        rulebook_check,
        rulebook_warnings,
    )
    from pnpgen.rulebook.pictures import DeckPicture, pictures_from_game

_WHERE = {
    "RulebookResult": "book",
    "build_rulebook": "book",
    "load_document": "book",
    "prepare": "book",
    "rulebook_check": "book",
    "rulebook_warnings": "book",
    "DeckPicture": "pictures",
    "pictures_from_game": "pictures",
}

__all__ = ["DeckPicture", "RulebookResult", "build_rulebook", "load_document", "pictures_from_game", "prepare",
           "rulebook_check", "rulebook_warnings"]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
