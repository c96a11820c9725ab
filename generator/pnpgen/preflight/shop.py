"""The print shop's figures a preflight holds an export folder to: the preset of the folder's name
(the game's, the workspace's, then pnpgen's own, read here from the YAML as a shop reads a spec,
not through the exporter's own reading of it), and the findings."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from pnpgen import resources
from pnpgen.data.lint import MIN_RUBY_PT
from pnpgen.errors import InputError, leads_out

MM = 72 / 25.4  # points per mm
RUBY_SCALE = 0.5  # a ruby reading's size, of the text it reads (JIS X 4051; pnpgen's text sets it so)


def shipped_presets() -> Path:
    """pnpgen's own presets, as installed (a wheel's or the checkout's package): their files only,
    read as a shop's spec is, not through the exporter's reading of them."""
    return resources.folder("pnpgen", "exports", "presets")


@dataclass(frozen=True)
class Limits:
    """The figures a command line sets in place of the preset's (None: the preset's)."""

    ink_limit: float | None = None
    min_line: str | None = None
    min_ppi: float | None = None
    min_text: str | None = None
    min_ruby: str | None = None


@dataclass
class Finding:
    """One thing a shop's operator would say of a file: where (file, page), which check, and
    whether it turns the file away (error) or is a question (note)."""

    file: str
    page: int  # 1-based; 0 for the whole file
    check: str  # geometry, ink, hairline, resolution, text, bleed, safe, marks, pixels
    level: str  # error (a shop turns it away) or note (a shop's operator would ask)
    message: str
    piece: str = ""  # the page's piece as the folder's order.csv names it ('写真' of deck 'cards', front)
    fix: str = ""  # what to change, in the designer's terms (what_to_do)


# What to change for each finding (check, the message's start, a word the message holds): a shop's
# 入稿ガイド says the rule and the remedy together, and a finding that names only the fault leaves the
# designer to guess it. The first entry that fits is taken. The figures are the shop's ({line} mm,
# {text} pt, {ppi} ppi, {ink} %); the rich black is the common Japanese printers' ask (C40 M40 Y40
# K100 under 300 %, never 4色ベタ 100/100/100/100: sakuragroup.net "color04", digitaprint.jp
# "tg_attention_black_beta").
WHAT_TO_DO = (
    ("hairline", "a 0-width", "", "give the line a width of at least {line} mm (a 0 width prints as the device's "
                                  "thinnest line, which no press holds)"),
    ("hairline", "", "", "draw it at least {line} mm wide (stroke-width in the template), or leave it out"),
    ("text", "small ruby", "", "set the text it reads at least {ruby_base} pt, its ruby then {ruby} pt, or leave the "
                               "ruby out"),
    ("text", "small", "", "set it at least {text} pt"),
    ("text", "mixed-ink", "", "set it at least 8 pt, or in one ink (dark text in K only)"),
    ("text", "white text", "", "set it at least 8 pt, or make the ground under it of fewer inks "
                               "(a neutral grey or black prints K only)"),
    ("text", "100 % K", "", "let black text overprint (スミノセ): export again with pnpgen, whose CMYK presets set it"),
    ("resolution", "", "RGB", "convert it to CMYK (a CMYK export of pnpgen converts every picture)"),
    ("resolution", "", "", "give the picture more pixels (at least {ppi} pixels an inch at the size it prints), "
                           "or print it smaller"),
    ("ink", "", "", "bring the colours there to at most {ink} % C+M+Y+K; a black ground as K100 or a rich black "
                    "(C40 M40 Y40 K100, 220 %), never 4色ベタ (100/100/100/100)"),
    ("bleed", "", "", "draw the background out to the bleed's edge (in a template: from -bleed to w + bleed)"),
    ("safe", "", "", "move the text inside the safe zone, or shorten it"),
    ("marks", "", "", "keep cut marks outside the bleed (export again: pnpgen draws them there)"),
)


def what_to_do(f: Finding, shop: Shop) -> str:
    """The remedy of a finding, with the shop's figure in it ("" where the message says it)."""
    for check, start, holds, fix in WHAT_TO_DO:
        if f.check == check and f.message.startswith(start) and holds in f.message:
            return fix.format(line=f"{shop.min_line_pt / MM:.2f}", text=f"{shop.min_text_pt:g}",
                              ruby=f"{shop.min_ruby_pt:g}", ruby_base=f"{shop.min_ruby_pt / RUBY_SCALE:g}",
                              ppi=f"{shop.min_ppi:g}", ink=f"{shop.ink_limit:g}")
    return ""


@dataclass
class Shop:
    """The figures a folder's files are held to: its preset's (ink limit, thinnest line,
    resolution, formats, page order and count), a command line's in their place."""

    name: str
    ink_limit: float = 300.0
    min_line_pt: float = 0.25
    min_ppi: float = 300.0
    min_text_pt: float = 6.0
    min_ruby_pt: float = MIN_RUBY_PT  # a ruby reading under min_text is named under this alone, as the build's lint names it
    page_multiple: int = 1
    page_order: str = "front-back"
    files: str = "png-faces"
    colour: str = "rgb"
    formats: dict[str, dict] = field(default_factory=dict)


class BadInput(InputError):
    """A folder, option or preset the preflight cannot read: one line, exit status 2."""


class Unreadable(Exception):
    """A file no reader opens (encrypted, one pdfium refuses, a pipe named .pdf): an error finding
    of its own, ``file: not a readable PDF: …``, the other files still checked."""


def length(text: str) -> str:
    """A command line's length, checked as it is read (argparse says a wrong one in one line)."""
    try:
        if not 0 <= length_pt(text) < math.inf:
            raise ValueError(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a length (expected e.g. 0.1mm, 0.25pt or 0.125in)") from None
    return text


def figure(text: str) -> float:
    """A command line's ink limit or resolution: a number above 0 (nan, -5 or 0 checked nothing, or all)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a figure (expected a number above 0, e.g. 300)")
    return value


def length_pt(value: object, default_unit: str = "pt") -> float:
    """'0.1mm', '0.25pt', '0.125in', 3 (in default_unit) → points."""
    text = str(value).strip()
    for unit, scale in (("mm", MM), ("pt", 1.0), ("in", 72.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text) * {"mm": MM, "pt": 1.0, "in": 72.0}[default_unit]


def own_presets(folder: Path, name: str) -> list[Path]:
    """Where the game's and the workspace's own preset ``name`` would be for an export folder in a
    workspace: ``build/<game>/<preset>``, or a ``--lang`` export's ``build/<game>/<lang>/<preset>``
    (the game found as the folder of ``data/`` it is named after); none for a folder elsewhere."""
    for game_dir in folder.parents[:2]:  # build/<game>/<preset>, then build/<game>/<lang>/<preset>
        if len(game_dir.parents) < 2:
            break
        workspace, game = game_dir.parents[1], game_dir.name
        if (workspace / "data" / game).is_dir():
            return [workspace / "data" / game / "presets" / f"{name}.yaml", workspace / "presets" / f"{name}.yaml"]
    return []


def _format(fmt: object) -> None:
    """A ValueError unless ``fmt`` is a format as the checks read it: a mapping, its ``pixels``
    two whole numbers, its ``trim`` two lengths (or ``any``), its ``bleed`` and ``safe`` lengths
    (a format of 5, or pixels: 5, was a traceback once the files were read)."""
    if not isinstance(fmt, dict):
        raise ValueError(fmt)
    if "pixels" in fmt and not (isinstance(fmt["pixels"], list) and len(fmt["pixels"]) == 2
                                and all(isinstance(n, int) for n in fmt["pixels"])):
        raise ValueError(fmt)
    if fmt.get("trim", "any") != "any":
        if not (isinstance(fmt["trim"], list) and len(fmt["trim"]) == 2):
            raise ValueError(fmt)
        for v in fmt["trim"]:
            length_pt(v, "mm")
    for key in ("bleed", "safe"):
        length_pt(fmt.get(key, 0), "mm")


def load_shop(folder: Path, args: Limits) -> Shop:
    name = folder.name
    spec: dict = {}
    # the game's preset, then the workspace's, then pnpgen's
    own = own_presets(folder.resolve(), name)  # a link of them leading out of the workspace: never read
    candidates = [*own, shipped_presets() / f"{name}.yaml"]
    shop = Shop(name=name)
    for candidate in candidates:
        if candidate.is_file():
            if candidate in own and leads_out(candidate, own[1].parent.parent):  # (the workspace's presets/: its own)
                raise BadInput(f"{candidate}: a link leading out of the workspace (expected the preset itself copied "
                               "in place of the link: pnpgen reads nothing outside the workspace)")
            try:
                spec = yaml.safe_load(candidate.read_text(encoding="utf-8")) or {}
                if not isinstance(spec, dict):
                    raise ValueError("the preset is not a mapping of settings")
                for key, expected in (("ink_limit", "a number of %, e.g. 300"), ("min_line", "a length, e.g. 0.25pt"),
                                      ("dpi", "a number, e.g. 300"), ("page_multiple", "a whole number, e.g. 2"),
                                      ("min_ruby", "a length, e.g. 4pt"),
                                      ("formats", "a mapping of formats, each trim: [w, h], bleed:, safe: lengths in mm, pixels: [w, h]")):
                    value = spec.get(key)
                    try:
                        if key == "ink_limit":
                            shop.ink_limit = figure(str(spec.get(key, 300)))
                        elif key == "min_line" and value:
                            shop.min_line_pt = length_pt(value)
                        elif key == "min_ruby" and value is not None:
                            shop.min_ruby_pt = length_pt(str(value))
                        elif key == "dpi":
                            shop.min_ppi = figure(str(spec.get(key, 300)))
                        elif key == "page_multiple":
                            shop.page_multiple = int(spec.get(key, 1))
                        elif key == "formats":
                            shop.formats = dict(value or {})
                            for fmt in shop.formats.values():
                                _format(fmt)
                    except (ValueError, TypeError, argparse.ArgumentTypeError):
                        raise BadInput(f"{candidate}: {key}: {value!r} is not read (expected {expected})") from None
            except (yaml.YAMLError, ValueError, UnicodeDecodeError) as e:  # (the game's own preset)
                mark = getattr(e, "problem_mark", None)
                at = f"{candidate}:{mark.line + 1}" if mark is not None else str(candidate)
                said = getattr(e, "problem", None) or str(e)
                raise BadInput(f"{at}: {said} (expected the preset as pnpgen exports read it: docs/exports.md)") from None
            break
    shop.page_order = str(spec.get("page_order", "front-back"))
    shop.files = str(spec.get("files", "png-faces"))
    shop.colour = str(spec.get("colour", "rgb"))
    if args.ink_limit is not None:
        shop.ink_limit = args.ink_limit
    if args.min_line is not None:
        shop.min_line_pt = length_pt(args.min_line)
    if args.min_ppi is not None:
        shop.min_ppi = args.min_ppi
    if args.min_text is not None:
        shop.min_text_pt = length_pt(args.min_text)
    if args.min_ruby is not None:
        shop.min_ruby_pt = length_pt(args.min_ruby)
    return shop


