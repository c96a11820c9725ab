"""What ``pnpgen export`` was asked for: plain values, light to import (the up-to-date check of
engine/export.py reads them before any export library loads)."""

from __future__ import annotations

import shlex
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
    deck_id_base: int | None = None  # Tabletop Simulator: the first CustomDeck id (default ttsids.DECK_ID_BASE)
    decks: tuple[str, ...] = ()  # only these deck ids (default: every deck)
    lang: str | None = None  # this language of the game (game.yaml languages; default: its default language)
    out: Path | None = None  # default: <workspace>/build
    max_dpi: float | None = None  # the resolution ceiling finer raster art is resampled to (--max-dpi; 0: none; None: game.yaml's)

    def again(self, decks: tuple[str, ...] = ()) -> str:
        """The options past ``--game``, ``--preset`` and ``--lang`` that make this export again, as
        the command line writes them (`` --deck market --fit scale``): what a build that changed the
        game prints to make a stale export again (trial60: a DriveThruCards export made with ``--fit
        scale --deck market`` was told ``pnpgen export --preset drivethrucards``, which stops, the
        deck being no DriveThruCards size). ``decks``: every deck the folder holds files of, when
        the export was of some (its earlier ``--deck`` exports' files kept beside its own)."""
        words: list[str] = []
        for deck in decks if self.decks else ():
            words += ["--deck", deck]
        named = {"--fit": self.fit, "--colour": self.colour, "--pdfx": self.pdfx, "--base-url": self.base_url,
                 "--deck-id-base": None if self.deck_id_base is None else str(self.deck_id_base),
                 "--max-dpi": None if self.max_dpi is None else ("none" if not self.max_dpi else f"{self.max_dpi:g}")}
        for option, value in named.items():
            if value is not None:
                words += [option, value]
        if self.outline_text is not None:
            words.append("--outline-text" if self.outline_text else "--no-outline-text")
        if self.proof:
            words.append("--proof")
        return "".join(f" {shlex.quote(word)}" for word in words)
