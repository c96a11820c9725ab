"""What a build is asked for: the sheet settings and how to run. Light to import, so commands
that find everything up to date start fast."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnpgen.data.formats import MIN_DPI
from pnpgen.impose.grid import SheetOptions

if TYPE_CHECKING:  # (fields that default to None: a build that finds everything up to date loads none of them)
    from pnpgen.data.printers import Printer
    from pnpgen.data.sheetlayouts import SheetStock
    from pnpgen.svg.ink import InkSaver


@dataclass(frozen=True)
class BuildOptions:
    """How a build prints, from the command line (paper, bleed, marks, printer, sheet, ink saver, language): one
    value, so the cache knows what the output depends on."""

    sheet: SheetOptions = SheetOptions()
    min_dpi: float = MIN_DPI  # art printed below this resolution warns (--min-dpi)
    max_dpi: float | None = None  # the resolution ceiling finer raster art is resampled to (--max-dpi; 0: none; None: game.yaml's)
    printer: Printer | None = None  # --printer: the profile every home page is corrected for
    cutter: str = ""  # --marks silhouette | cricut: cut files for a hobby cutting machine (impose/cutter.py)
    cricut_area_in: tuple[float, float] | None = None  # --cricut-area (None: impose/cutter.py CRICUT_AREA_IN)
    ink: InkSaver | None = None  # --ink: the home sheets also drawn by the ink saver (into ink-saver/)
    stock: SheetStock | None = None  # --sheet: the sheet layout every deck goes on (unless its file says sheet:)
    lang: str | None = None  # --lang: the game's language to build (None: its default_language)
    # How many worker processes: changes the speed, never the bytes, so it is not part of the
    # options' repr (the cache's fingerprint of what the output depends on).
    jobs: int = field(default=1, compare=False, repr=False)
    # --jobs 1: the build keeps to one core — no worker, no forked copy of a document, no thread
    # hashing files or writing the cache beside its own work (False: those where they save time)
    one_core: bool = field(default=False, compare=False, repr=False)
    # (--paper, --duplex) as given (None: not given), checked against game.yaml's printer profile;
    # the sheet's paper and duplex above are what the build uses, unless game.yaml's paper: replaces
    # a paper not given: so what was given is part of the fingerprint (--paper a4 ≠ no --paper)
    asked: tuple[str | None, str | None] = field(default=(None, None), compare=False)
    # Whether this build makes the rulebook (False: --no-rulebook): the bill of materials lists
    # the booklet only then. Not in the repr: the faces do not depend on it, and the fingerprint
    # of what a build makes holds the rulebook's options already (engine/fresh.py).
    rulebook: bool = field(default=True, compare=False, repr=False)

    @property
    def bleed_mm(self) -> float:
        """The one bleed of the build (``--bleed``, ``SheetOptions.bleed_mm``): drawn round every
        face, in the shop files' BleedBox, and wanted round each piece on the home sheets."""
        return self.sheet.bleed_mm


# The files a game's rulebook step writes (rulebook.book.build_rulebook): a build told to leave
# the rulebook out (--no-rulebook) keeps the last ones instead of deleting them.
RULEBOOK_FILES = ("rulebook.pdf", "rulebook-booklet.pdf", "proof.txt", "rule-sheet.pdf")
# The reprint files (engine/reprint.py): a build that changes no piece keeps the last ones (the
# designer may not have printed them yet); only a build with new changes replaces them.
REPRINT_FILES = ("reprint.pdf", "reprint.txt")



@dataclass(frozen=True)
class RulebookOptions:
    """How the rulebook is set (rules only, the booklet's creep, binding side, paper and the printer's margin its
    marks stand in): what its cache key depends on besides the draft."""

    rules_only: bool = False
    creep_mm: float = 0.0
    binding: str = "left"
    paper: str | None = None  # the booklet's paper (a4, letter) from --paper or --printer; None: game.yaml's, else a4
    max_dpi: float | None = None  # the resolution ceiling a figure's own picture is resampled to (--max-dpi; None: game.yaml's)
    margin_mm: float = SheetOptions.margin_mm  # the printer's unprinted margin (--margin): the booklet's fold marks and note inside it
    two_pass: bool = False  # a build without duplex (``SheetOptions.without_duplex``): the booklet's note says two passes
