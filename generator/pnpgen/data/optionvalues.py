"""The command line's option values: each ``--option``'s text parsed and bounded for argparse.

Kept apart from validate.py's YAML values because these read a text typed in a shell (folders,
files, URLs, slugs, codes); ``option`` turns their ``Invalid`` into argparse's one-line error.
The bounds are documented in docs/data-format.md ("Limits").
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pnpgen.data.validate import (
    BLEED_MM,
    CREEP_MM,
    LABEL_CHARS,
    MARGIN_MM,
    MIN_DPI,
    UNITS,
    Invalid,
    length,
    max_dpi,
    number,
    show,
)
from pnpgen.patterns import later
from pnpgen.safetext import NAME_CONTROL, windows_trouble
from pnpgen.units import MM_PER_UNIT


def option(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse ``type=`` from a parser: Invalid becomes argparse's own one-line error."""

    def parse_option(text: str) -> Any:
        try:
            return parse(text)
        except Invalid as e:
            hint = f" (expected {e.expected})" if e.expected else ""
            raise argparse.ArgumentTypeError(e.message + hint) from None

    parse_option.__name__ = parse.__name__  # argparse names the type in its messages
    return parse_option


def dimensions(text: str, lo: float, hi: float, what: str, example: str,
               plausible: tuple[float, float] | None = None) -> tuple[float, float]:
    """``66x91`` (mm; ``2.6x3.6in``, ``6.6cmx9.1cm`` too: a unit after the height is both sides')
    → (width, height) in mm, each within [lo, hi]. Numbers too small for mm are told the unit
    they were likely measured in: inches or centimetres whose sides fall in ``plausible`` (the
    sizes such a thing has; ``6x9`` is a 6 × 9 cm card's sleeve, no 6 × 9 in one), else in range."""
    number = rf"\s*(\d+(?:\.\d+)?)\s*({UNITS})?\s*"
    m = re.fullmatch(number + "[xX×]" + number, text)
    if m:
        w, w_unit, h, h_unit = m.groups()
        sides = (float(w) * MM_PER_UNIT[w_unit or h_unit or "mm"], float(h) * MM_PER_UNIT[h_unit or "mm"])
    if not m or not all(lo <= v <= hi for v in sides):
        # a unit in capitals (66x91MM): refused with the hint a single length gives (3MM: did you mean 3mm?)
        lower = re.fullmatch(number + "[xX×]" + number, text.lower())
        meant = "; did you mean {}{}x{}{}?".format(*(g or "" for g in lower.groups())) if lower and not m else ""
        if m and not (w_unit or h_unit):  # a US designer's sleeve or Cricut area, the inches (or cm) left out
            units = [u for u in ("in", "cm") if all(lo <= float(v) * MM_PER_UNIT[u] <= hi for v in (w, h))]
            likely = [u for u in units if plausible is None or all(
                plausible[0] <= float(v) * MM_PER_UNIT[u] <= plausible[1] for v in (w, h))] or units[:1]
            meant = f"; did you mean {' or '.join(f'{w}x{h}{u}' for u in likely)}?" if likely else meant
        meant = meant or _inch_fractions(text)
        raise Invalid(f"{text!r} is not a {what}{meant}", f"WIDTHxHEIGHT in mm from {lo:g} to {hi:g}, e.g. {example}")
    return sides


# a side as an inch ruler reads it: 2 5/8, 2-5/8, 5/8 or 3, with an inch mark or none
_RULER_SIDE = r'\s*(?:(\d+)[\s-]+(?=\d+\s*/))?(\d+)(?:\s*/\s*(\d+))?\s*(in|inch|inches|"|″)?\s*'


def _inch_fractions(text: str) -> str:
    """``; did you mean 2.625x3.625in?`` for sides written in inch fractions (``2 5/8 x 3 5/8 in``,
    ``2-5/8"x3-5/8"``: sleeves sold in the US are labelled so), as a length's ``1/8in`` is told."""
    m = re.fullmatch(r"(.+?)[xX×](.+)", text)
    sides = [re.fullmatch(_RULER_SIDE, part) for part in m.groups()] if m else []
    if len(sides) != 2 or not all(sides) or not any(f and f.group(3) for f in sides) \
            or any(f and f.group(3) and int(f.group(3)) == 0 for f in sides):
        return ""
    w, h = (int(f.group(1) or 0) + (int(f.group(2)) / int(f.group(3)) if f.group(3) else int(f.group(2)))
            for f in sides if f)
    return f"; did you mean {w:g}x{h:g}in?"


# A card sleeve's inside (--sleeve, a deck file's sleeve:): the sizes read, and the sides of the
# sleeves sold for cards (mini 41×63 to 4×6 in), in which a size without a unit is read
SLEEVE_RANGE_MM = (20.0, 400.0)
SLEEVE_SIDES_MM = (35.0, 160.0)


def sleeve_size(text: str) -> tuple[float, float]:
    """``66x91`` (mm, a sleeve's inside; ``2.6x3.6in``, ``6.6cmx9.1cm`` too) → (width, height) in mm."""
    return dimensions(text, *SLEEVE_RANGE_MM, "sleeve size", "66x91 (or with a unit: 2.6x3.6in)", SLEEVE_SIDES_MM)


def bleed_option(text: str) -> float:
    return length(text, *BLEED_MM, what="bleed")


def margin_option(text: str) -> float:
    return length(text, *MARGIN_MM, what="margin")


def creep_option(text: str) -> float:
    return length(text, *CREEP_MM, what="creep")


# Tabletop Simulator CustomDeck ids: a deck's block of 100 sheet ids in 10,000 slots above the base,
# and each card's id × 100 + slot a 32-bit int (exports/ttsids.py): 2**31 // 100 − 1,000,000.
DECK_ID_BASE_MAX = 20_474_836


def deck_id_base_option(text: str) -> int:
    """The first CustomDeck id a Tabletop Simulator export may use."""
    expected = f"a whole number from 1 to {DECK_ID_BASE_MAX:,}, e.g. 5000"
    try:
        n = int(text)
    except ValueError:
        raise Invalid(f"{show(text)} is not a whole number", expected) from None
    if not 1 <= n <= DECK_ID_BASE_MAX:
        raise Invalid(f"{n} is not a CustomDeck id pnpgen can start from", expected)
    return n


# --lang as a code is written (en, zh-Hant, es-419; eng and EN too, told the game's code by its
# languages: line): it names build/<game>/<lang>/ and the cache's <game>.<lang>, so a path
# (en/../../..) is refused here; serve read and showed a "last good build" from where it led.
LANGUAGE_EXPECTED = "a two-letter ISO 639-1 code, optionally with a script or region: ja, en, zh-Hant, en-GB"
_LANGUAGE_SHAPE = later(r"[A-Za-z0-9]{1,8}(-[A-Za-z0-9]{1,8}){0,3}")


def language_option(text: str) -> str:
    if not _LANGUAGE_SHAPE.fullmatch(text):
        raise Invalid(f"{show(text)} is not a language code", LANGUAGE_EXPECTED)
    return text


NEW_GAME_KINDS = ("cards", "tokens", "tiles", "board", "standees", "dice", "box")  # the decks ``pnpgen new --kind`` writes
SLUG_CHARS = 64  # a new game's slug at most (it names folders and files: data/names.py)
_NEW_SLUG = later(r"[a-z0-9][a-z0-9_-]{0,63}")


def new_game_slug(text: str) -> str:
    """``pnpgen new``'s game folder name under data/ (checked here, so the CLI's parser needs
    no import of scaffold.py)."""
    if len(text) > SLUG_CHARS and _NEW_SLUG.fullmatch(text[:SLUG_CHARS]) and not re.search(r"[^a-z0-9_-]", text):
        # the right characters, too many of them: it said "not a game slug" and offered the same characters
        raise Invalid(f"{show(text)} is {len(text)} characters long, more than a game slug's {SLUG_CHARS}",
                      f"a slug of at most {SLUG_CHARS} characters, e.g. {text[:SLUG_CHARS].rstrip('-_')}")
    if not _NEW_SLUG.fullmatch(text):
        # the title typed as the slug ("Harbor Lights"): the slug it would make, and --title for the title
        meant = re.sub(r"[^a-z0-9_]+", "-", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()).strip("-_")[:64]
        # a Japanese title leaves only its digits ('ことば2' → '2'): no slug to offer from it
        fit = meant and _NEW_SLUG.fullmatch(meant) and re.search("[a-z]", meant)
        title = text.strip() and len(text) <= LABEL_CHARS and not NAME_CONTROL.search(text)  # (one new takes)
        example = f"{meant if fit else 'my-game'}" + (f" (and --title {shlex.quote(text)} for the title)" if title else "")
        raise Invalid(f"{show(text)} is not a game slug", f"lower-case letters, digits, - and _, e.g. {example}")
    trouble = windows_trouble(text)
    if trouble is not None:  # con: every command would refuse the game (data/names.py)
        raise Invalid(f"{show(text)} {trouble}, which would name the game's output folder",
                      f"another slug, e.g. {text}-game")
    return text


def game_option(text: str) -> str:
    """A game's slug: the name of one folder under data/, nothing that leads elsewhere."""
    return _plain_name(text, "a game name", "a folder name under data/ (see 'pnpgen list')")


def deck_option(text: str) -> str:
    """A deck id: the name of one file under decks/, nothing that leads elsewhere (the command
    then checks that the game has the deck)."""
    return _plain_name(text, "a deck id", "a deck id such as 'cards' (see 'pnpgen list')")


def _plain_name(text: str, what: str, expected: str) -> str:
    if not re.fullmatch(r"[^/\\\0.][^/\\\0]*", text) or len(text.encode("utf-8", "replace")) > 255:
        raise Invalid(f"{show(text)} is not {what}", expected)  # 255 bytes: the longest file name
    return text


def min_dpi_option(text: str) -> float:
    return number(text, *MIN_DPI, what="min dpi")


def max_dpi_option(text: str) -> float:
    """``--max-dpi``: the resolution ceiling raster art placed finer than 1.5 times it is resampled
    to, in dpi; ``none`` (0): every picture kept as it is."""
    return max_dpi(text)


def max_builds_option(text: str) -> int:
    """``watch --max-builds``: how many builds before watch stops (0: never)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 1_000_000:
        raise Invalid(f"{show(text)} is not a number of builds", "0 (never stop) to 1000000")
    return n


def piece_option(text: str) -> int:
    """``check --piece``: a piece's number in its deck (1 the first)."""
    n = int(text) if re.fullmatch(r"[0-9]{1,7}", text.strip()) else 0
    if n < 1:
        raise Invalid(f"{show(text)} is not a piece's number", "a whole number from 1, the piece's place in its deck "
                      "(the number its SVG file's name starts with)")
    return n


def base_url_option(text: str) -> str:
    """Where Tabletop Simulator loads the exported images from: an http(s) or file URL."""
    expected = "an http://, https:// or file:/// URL, e.g. https://example.com/pnp/"
    try:
        url = urlsplit(text)
    except ValueError:
        url = None
    if (url is None or any(c.isspace() or ord(c) < 32 for c in text)
            or not (url.scheme in ("http", "https") and url.hostname or url.scheme == "file" and url.path)):
        raise Invalid(f"{show(text)} is not an address Tabletop Simulator can load from", expected)
    if url.query or url.fragment or any(c in text for c in '"<>\\{}|^`'):  # a file name is added at its end
        raise Invalid(f"{show(text)} has a query, a fragment or a character a URL must not hold",
                      "a folder's address the image names are added to, e.g. https://example.com/pnp/")
    return text


def out_option(text: str) -> Path:
    """An output folder: a folder or a place one can be made, not a file or below one."""
    path = _usable_path(text, "folder name", "a folder to write the build into")
    if path.exists() and not path.is_dir():
        raise Invalid(f"{text} is a file", "a folder to write the build into")
    _nearest_folder(path, text, "a folder to write the build into")
    return path


def sheet_out_option(text: str) -> Path:
    """``export-sheet --out``: a new or existing .csv/.xlsx file in a folder one may write to.
    The suffix keeps it from overwriting a deck's YAML, a template or any other input."""
    return _file_out(text, (".csv", ".xlsx"))


def pdf_out_option(text: str) -> Path:
    """``calibrate --out``: a new or existing .pdf file in a folder one may write to. The suffix
    keeps it from overwriting a deck's YAML, a font or any other input."""
    return _file_out(text, (".pdf",))


def json_out_option(text: str) -> Path:
    """``preflight --json``: a new or existing .json file in a folder one may write to. The suffix
    keeps it from overwriting a deck's YAML, a font or any other input (``--json data/g/game.yaml``
    replaced the game's data with the report, without a word)."""
    return _file_out(text, (".json",))


def _file_out(text: str, suffixes: tuple[str, ...]) -> Path:
    kinds = " or ".join(suffixes)
    expected = f"a file name ending in {kinds}, in a folder you may write to"
    path = _usable_path(text, "file name", expected)
    if path.suffix.lower() not in suffixes:
        raise Invalid(f"{text} is not a {kinds} file", expected)
    if path.is_dir():
        raise Invalid(f"{text} is a folder", expected)
    folder = _nearest_folder(path.parent, text, expected)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Invalid(f"cannot write in {folder}", expected)
    return path


def _usable_path(text: str, what: str, expected: str) -> Path:
    """``text`` as a path, unless the system would refuse the name (empty, NUL byte, too long)."""
    try:
        if "\0" in text or not text.strip():
            raise ValueError(text)
        path = Path(text)
        path.exists()
        return path
    except (OSError, ValueError):
        raise Invalid(f"{show(text)} is not a usable {what}", expected) from None


def _nearest_folder(path: Path, text: str, expected: str) -> Path:
    """The nearest existing folder at or above ``path``; Invalid when a file stands in the way."""
    probe = path
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        raise Invalid(f"{text} is below the file {probe}", expected)
    return probe
