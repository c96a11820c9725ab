"""``--ink saver | saver-grey``: the game's home sheets drawn a second time, with each distinct
face's art passed once through the ink saver (``pnpgen.svg.ink``), into ``ink-saver/`` (or
``ink-saver-grey/``) beside the full-colour files; and the toner they save, measured.

Coverage: every page of the decks' home files (not the all-in-one file, which repeats them) is
rasterised by PDFium at ``COVERAGE_DPI``; a page's coverage (pdf/pixels.py) is the mean of 1 − luminance
over its pixels (``pnpgen.svg.ink.luminance``'s Rec. 709 weights; white 0, black 1). The ratio is the
saver's total over the full colour's total, rounded to 3 places: the same files give the same
figure."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pnpgen.engine.cache import Cache
from pnpgen.engine.options import BuildOptions
from pnpgen.impose.plan import PagePlan
from pnpgen.pdf.pixels import page_coverage
from pnpgen.svg.artwork import Art, ArtRecord
from pnpgen.svg.ink import InkSaver, save_ink

COVERAGE_DPI = 50


def folder(ink: InkSaver) -> str:
    return ink.slug


def ink_key(ink: InkSaver) -> str:
    """What a saved face's art is cached under beyond its face's key: the mode and figures."""
    return "-" + hashlib.sha256(repr(ink).encode()).hexdigest()[:16]


def saver_arts(arts: dict[str, Art], face_keys: dict[str, str], ink: InkSaver, cache: Cache | None,
               real: Callable[[Art], Art] = lambda art: art) -> tuple[dict[str, Art], dict[Path, bytes], set[Path]]:
    """Each face's art by the ink saver, from the cache where an earlier build made it; with
    the cache files to write and the entries used. ``real`` gives a face its pictures' bytes
    back where it holds stand-ins (pdf/raster.py ImageStreams.real_art)."""
    out: dict[str, Art] = {}
    new: dict[Path, bytes] = {}
    used: set[Path] = set()
    suffix = ink_key(ink)
    for k in sorted(arts):
        key = k + face_keys.get(k, "") + suffix
        art = cache.face(key, Art.from_json) if cache is not None else None
        if art is None:
            art = save_ink(real(arts[k]), ink)
            if cache is not None:
                new.update(cache.face_entries(key, art, ArtRecord.of(art)))
        if cache is not None:
            used.add(cache.face_path(key))
        out[k] = art
    return out, new, used


def saver_options(options: BuildOptions) -> BuildOptions:
    assert options.ink is not None
    return replace(options, sheet=replace(options.sheet, ink=options.ink.mode))


def home_documents(documents: dict[str, PagePlan], homes: list[str], ink: InkSaver) -> dict[str, PagePlan]:
    """The home files of a plan imposed with ``saver_options``, under the saver's folder."""
    return {f"{folder(ink)}/{path}": documents[path] for path in homes if path in documents}


def coverage_record(files: dict[str, bytes], homes: list[str], ink: InkSaver) -> dict:
    """The manifest's ``ink`` record: mode, figures, folder, each deck's and the whole ratio."""
    total_full = total_saver = 0.0
    decks = {}
    for path in homes:
        saved = files.get(f"{folder(ink)}/{path}")
        if path not in files or saved is None:
            continue
        full, less = sum(page_coverage(files[path], COVERAGE_DPI)), sum(page_coverage(saved, COVERAGE_DPI))
        total_full += full
        total_saver += less
        decks[path] = round(less / full, 3) if full > 0 else 1.0
    return {"mode": ink.mode, "folder": folder(ink), "large_fill": ink.large, "keep": ink.keep,
            "art_keep": ink.art_keep if ink.mode == "saver-grey" else None, "coverage_dpi": COVERAGE_DPI,
            "ratio": round(total_saver / total_full, 3) if total_full > 0 else 1.0, "files": decks}
