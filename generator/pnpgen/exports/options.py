"""What ``pnpgen export`` was asked for: plain values, light to import (the up-to-date check of
engine/export.py reads them before any export library loads)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

RECORD = "export.json"  # the record of what an export wrote, in its folder


@dataclass(frozen=True)
class ExportOptions:
    """How ``pnpgen export`` was asked to run: the shop's preset and what the command line changes of it (fit,
    colour, PDF/X, decks, language)."""

    preset: str
    fit: str | None = None  # scale | bleed
    colour: str | None = None  # rgb | cmyk; default: the preset's
    pdfx: str | None = None  # x1a | x1a-2001 | none; default: the preset's
    outline_text: bool | None = None  # glyphs as paths; default: the preset's
    proof: bool = False
    base_url: str | None = None
    deck_id_base: int | None = None  # Tabletop Simulator: the first CustomDeck id (default tts.DECK_ID_BASE)
    decks: tuple[str, ...] = ()  # only these deck ids (default: every deck)
    lang: str | None = None  # this language of the game (game.yaml languages; default: its default language)
    out: Path | None = None  # default: <workspace>/build
    max_dpi: float | None = None  # the resolution ceiling finer raster art is resampled to (--max-dpi; 0: none; None: game.yaml's)
