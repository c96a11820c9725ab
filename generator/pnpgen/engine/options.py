"""What a build is asked for: the sheet settings and how to run. Light to import, so commands
that find everything up to date start fast."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnpgen.impose.grid import SheetOptions
from pnpgen.printers import Printer


@dataclass(frozen=True)
class BuildOptions:
    sheet: SheetOptions = SheetOptions()
    shop_bleed_mm: float = 3.0
    min_dpi: float = 300.0  # art printed below this resolution warns
    printer: Printer | None = None  # --printer: the profile every home page is corrected for
    lang: str | None = None  # --lang: the game's language to build (None: its default_language)
    # How many worker processes: changes the speed, never the bytes, so it is not part of the
    # options' repr (the cache's fingerprint of what the output depends on).
    jobs: int = field(default=1, compare=False, repr=False)
