"""Every option a layout's box takes (``boxes:`` in a layout file): its parser, its default and
what it does; the parsers of their values (docs/data-format.md tells the designer of them)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.boxlengths import dash_length, length, number, points
from pnpgen.data.i18n import LANGUAGE_CODE, language_code_hint
from pnpgen.data.markup import RUBY_MARK
from pnpgen.data.optionvalues import LANGUAGE_EXPECTED
from pnpgen.patterns import later

BOX_TYPES = ("text", "image", "icons", "panel", "frame", "folds", "line", "grid", "track")
DRAWN = ("text", "image", "icons", "panel", "frame", "grid", "track")  # the types that paint a fill
PLACED = ("text", "image", "icons", "panel", "line", "grid", "track")  # the types placed by x, y, w, h
TRACK_MOST = 1_000  # spaces in a track box (faces/tracks.py's MAX_SPACES: a score track runs to 50 or 100)
SOURCES = ("game.title", "game.players", "game.draft", "deck.name")  # what a box may show besides piece fields


# ---- value parsers: (value, trim) → parsed, or validate.Invalid (lengths: data/boxlengths.py) ----


def quarter_turn(value: Any, trim: tuple[float, float]) -> int:
    """0, 90, 180 or 270 (degrees, clockwise; -90 is 270, 360 is 0): 180 sets a party-word
    card's lower word upside down."""
    said = v.typed(value).strip().removesuffix("°").removesuffix("deg").strip() if isinstance(value, str) else value
    try:
        turn = v.number(said, -360, 360, "rotate")
    except v.Invalid:
        turn = math.nan
    if turn % 90:
        raise v.Invalid(f"rotate {v.show(value)} is not a quarter turn", "0, 90, 180 or 270 (degrees, clockwise)")
    return int(turn) % 360


def one_of(*options: str) -> Callable[[Any, tuple[float, float]], str]:
    def parse(value: Any, trim: tuple[float, float]) -> str:
        return v.choice(value, options, "value")
    parse.__doc__ = " | ".join(options)
    return parse


def colour_spec(none: bool) -> Callable[[Any, tuple[float, float]], str | None]:
    """'#rrggbb' or '#rgb', a palette name, ``piece.<field>`` (a colour field of the piece), or
    (``none``) ``none``. Palette names are checked against the game when the deck is loaded."""
    def parse(value: Any, trim: tuple[float, float]) -> str | None:
        if none and (value is None or value == "none"):
            return None
        if isinstance(value, str) and value.startswith("#"):
            return v.hex_colour(value, short=True)
        if isinstance(value, str) and value.startswith("piece."):
            v.name(value[6:], "a field name")
            return value
        return v.name(value, "a colour")
    parse.__doc__ = "a palette name, '#rrggbb' or piece.<field>" + (", or none" if none else "")
    return parse


def is_field_name(name: str) -> bool:
    """Can a layout's box read a piece field of this name (a word: no spaces, not count)?"""
    return bool(re.fullmatch(r"[^\W\d][\w-]*", name)) and name not in ("count", "n", "copy")


def source(value: Any, trim: tuple[float, float]) -> str:
    """A piece field's name, or one of SOURCES."""
    if isinstance(value, str) and value in SOURCES:
        return value
    name = v.name(value, "a field name")
    if not is_field_name(name):
        raise v.Invalid(f"{v.show(value)} is not a field name", "a piece field such as title, or " + ", ".join(SOURCES))
    return name


def _by_language(value: Any) -> None:
    """A text by language (``label: {ja: 体力, en: HP}``) reaching a box's parser was written in a layout file
    (layouts/, which every game and edition shares: a deck file's texts are read in its edition first)."""
    if isinstance(value, dict) and value and all(isinstance(k, str) and LANGUAGE_CODE.fullmatch(k) for k in value):
        raise v.Invalid(f"a text by language ({', '.join(value)}) in a layout file, which every edition shares",
                        "one text, or a box per edition with lang: (hp: {label: 体力, lang: ja} beside "
                        "hp_en: {field: hp, label: HP, lang: en, …}), or the box in the deck file's own layout:, "
                        "whose texts may be given by language")


def text(value: Any, trim: tuple[float, float]) -> str:
    _by_language(value)
    return v.text(value)


def flag(value: Any, trim: tuple[float, float]) -> bool:
    return v.flag(value)


# markup that is whole in itself: an escape, an icon, a ruby, a bold or colour pair (data/markup.py)
_WHOLE_MARKS = later(r"\\[\\*\[\]{}|｜]|\{[^\W\d_][\w-]*\}|" + RUBY_MARK
                          + r"|\*\*[^*]*\*\*|\[([A-Za-z][\w-]*)\][^\[\]]*\[/\1\]")
_LOOSE = later(r"[*\[\]{}|｜\\]")


def beside(value: Any, trim: tuple[float, float]) -> str:
    """A ``label`` or ``unit`` set beside a field's value: text whose markup is whole in itself
    (``{heart}``, ``**体力**``), so nothing of it pairs with markup in the value it stands beside
    (a label's ``{`` closed by a value's ``|…}`` would read the value as a ruby)."""
    _by_language(value)
    said = v.text(value)
    loose = _LOOSE.search(_WHOLE_MARKS.sub("", said))
    if loose is not None:
        char = loose.group()
        raise v.Invalid(f"{v.show(value)} has a {char!r} that is no whole markup: it would pair with "
                        "markup in the value beside it",
                        "text, whole markup ({heart}, **体力**), or the character escaped: \\" + char)
    return said


def whole_number(value: Any, trim: tuple[float, float]) -> int:
    """A track's number (its last space's, its start): a whole number, -1,000 to 1,000."""
    n = v.whole(value)
    if n is None or not -TRACK_MOST <= n <= TRACK_MOST:
        said = "is not a whole number" if n is None else "is beyond a track's numbers"  # (10000 is whole: too far)
        raise v.Invalid(f"{v.show(value)} {said}", "a whole number such as 10 (-1,000 to 1,000)")
    return n


def role(value: Any, trim: tuple[float, float]) -> str:
    return v.name(value, "a font role")


def cells(value: Any, trim: tuple[float, float]) -> int:
    """How many columns or rows of cells a grid box has: a whole number, 1 to 200."""
    n = v.whole(value)
    if n is None or not 1 <= n <= 200:
        raise v.Invalid(f"{v.show(value)} is not a number of cells", "a whole number from 1 to 200")
    return n


def editions(value: Any, trim: tuple[float, float]) -> tuple[str, ...] | None:
    """The languages whose editions draw a box (``lang: en``, ``lang: [ja, en]``): None, every one."""
    if value is None:
        return None
    codes = value if isinstance(value, list) else [value]
    bad = next((c for c in codes if not isinstance(c, str) or not LANGUAGE_CODE.fullmatch(c)), None)
    if bad is not None or not codes:
        raise v.Invalid(f"{v.show(bad if codes else value)} is not a language code{language_code_hint(str(bad))}",
                        f"{LANGUAGE_EXPECTED}, or a list of them: lang: en, lang: [ja, en]")
    return tuple(codes)


def clip(value: Any, trim: tuple[float, float]) -> float | None:
    return None if value is None or value == "none" else length(-50, 50)(value, trim)


@dataclass(frozen=True)
class Opt:
    """One option a layout file's box takes: how its value is read, what it is when not given, and the line of the
    docs that tells the designer what it does."""

    parse: Callable[[Any, tuple[float, float]], Any]
    default: Any
    doc: str
    types: tuple[str, ...] = BOX_TYPES  # the box types that read it


# Every option a box takes: parser, default (None: required for those types), what it does.
BOX_OPTIONS: dict[str, Opt] = {
    "type": Opt(one_of(*BOX_TYPES), "text", "what the box draws: text, image (art), icons (a list of icon names), "
                "panel (only its fill and stroke), frame (the piece's outline, inset), folds (a tuck box's "
                "fold lines, dashed), line, grid, track (numbered spaces, as track() draws them)"),
    "field": Opt(source, None, "the piece field shown, or game.title, game.players, game.draft, deck.name (a track: "
                 "the field whose number is its last space's)", ("text", "image", "icons", "track")),
    "text": Opt(text, None, "a fixed text instead of a field (markup allowed)", ("text",)),
    "label": Opt(beside, None, "text set before the value, a space between: label: 体力 prints 体力 3", ("text",)),
    "unit": Opt(beside, None, "text set straight after the value: unit: 枚 prints 3枚", ("text",)),
    "x": Opt(length(-100, 2000), 0.0, "left edge, mm from the trim's left", PLACED),
    "y": Opt(length(-100, 2000), 0.0, "top edge, mm from the trim's top", PLACED),
    "w": Opt(length(0, 2000), None, "width, mm (a line: how far right it runs)", PLACED),
    "h": Opt(length(0, 2000), None, "height, mm (a line: how far down it runs)", PLACED),
    "font": Opt(role, "gothic", "font role: gothic, bold, mincho, mono or one of game.yaml's fonts:", ("text",)),
    "size": Opt(points(0.5, 500), 9.0, "text size, pt (the largest tried)", ("text",)),
    "min_size": Opt(points(0.5, 500), 6.0, "smallest text size, pt (below it the build warns)", ("text",)),
    "line_height": Opt(number(0.5, 5), 1.35, "line height, times the size", ("text",)),
    "align": Opt(one_of("left", "center", "right", "justify"), "left", "horizontal alignment", ("text", "icons")),
    "valign": Opt(one_of("top", "middle", "bottom"), "top", "vertical alignment", ("text",)),
    "colour": Opt(colour_spec(False), "ink", "text colour (a track: its numbers', and its lines' unless stroke: "
                  "says otherwise; icons: what their currentColor prints in, black unless given)",
                  ("text", "track", "icons")),
    "fill": Opt(colour_spec(True), None, "panel colour behind the box (none: no panel)", DRAWN),
    "stroke": Opt(colour_spec(True), None, "panel border colour (none: no border); a line's or grid's colour (default "
                  "ink); a track's lines (default its colour)"),
    "stroke_width": Opt(length(0, 20), 0.35, "panel border width, mm"),
    "radius": Opt(length(0, 100), 0.0, "panel corner radius, mm", ("text", "image", "icons", "panel", "frame")),
    "shape": Opt(one_of("rect", "circle"), "rect", "panel shape: rect, or circle (an ellipse in the box)",
                 ("text", "image", "icons", "panel")),
    "pad": Opt(length(0, 100), 0.0, "space between the panel's edge and the text, icons or art, mm",
               ("text", "image", "icons")),
    "fit": Opt(one_of("cover", "contain", "stretch"), "cover", "how art fills the box", ("image",)),
    "clip": Opt(clip, None, "clip the art to the piece's outline grown by this many mm (-2: 2 mm inside)", ("image",)),
    "gap": Opt(length(0, 100), 1.0, "space between icons, mm", ("icons",)),
    "inset": Opt(length(-20, 100), 0.0, "frame: distance inside the trim, mm", ("frame",)),
    "vertical": Opt(flag, False, "text set in vertical columns (縦書き) from the box's right edge leftwards, as "
                    "m.tate_box() sets it: a line of the text (or an item of a list field) a column, a longer one "
                    "broken into the next as JLREQ allows; align: center or left places the block of columns",
                    ("text",)),
    "step": Opt(length(0, 100), 0.0, "a vertical box: each column this many mm lower than the one before (散らし書き)",
                ("text",)),
    "rotate": Opt(quarter_turn, 0, "the box's content turned clockwise by 90, 180 or 270 degrees in its box (a spine, "
                  "a lid read from the other side, a party card's lower word upside down, a standee's far half)",
                  ("text", "image", "icons", "panel")),
    "dash": Opt(dash_length, None, "folds, line, grid: the length of its dashes and of the gaps between, mm "
                "(folds: 2 unless given; a line or grid: solid unless given)", ("folds", "line", "grid")),
    "cols": Opt(cells, 1, "grid: columns of cells", ("grid",)),
    "rows": Opt(cells, 1, "grid: rows of cells; track: rows its spaces snake along (1: a row)", ("grid", "track")),
    "last": Opt(whole_number, None, "track: its last space's number when no field gives it", ("track",)),
    "start": Opt(whole_number, 0, "track: its first space's number", ("track",)),
    "numbers": Opt(flag, True, "track: each space numbered", ("track",)),
    "around": Opt(flag, False, "track: its spaces run clockwise round the box's edge from its top-left corner (a "
                  "score track round a board), not in rows", ("track",)),
    "first": Opt(colour_spec(True), "accent", "track: the start space's fill, its number in a colour read on it "
                 "(none: not marked)", ("track",)),
    "spacing": Opt(length(0, 100), 0.0, "grid: space between cells, mm (0: a ruled grid; more: boxes apart, "
                   "tick boxes)", ("grid",)),
    "placeholder": Opt(flag, True, "an empty value prints 未定 (TBD in English) (true) or leaves the box out (false)",
                       ("text", "image", "icons", "track")),
    "lang": Opt(editions, None, "the editions that draw the box: a language code or a list (lang: en: only the "
                "English edition; none: every edition)"),
}
# the options that paint with a colour (each may name ``piece.<field>``: a colour field, grey while empty)
COLOUR_OPTIONS = tuple(name for name, opt in BOX_OPTIONS.items() if opt.parse.__qualname__.startswith("colour_spec"))
