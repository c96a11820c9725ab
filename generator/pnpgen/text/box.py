"""Card text in a box (``textbox``): the stage's own code, which text/__init__.py offers the rest of
the pipeline. A (marked-up) YAML text set in a box in millimetres: JLREQ line breaking between
BudouX phrases, Latin words broken only at spaces, hyphens and (a word longer than the line)
hyphenation points with a visible hyphen, the 和欧間 space between Japanese and Latin, the
largest size on a 0.25 pt grid that fits, alignment, inline bold, colours, icons and ruby, and a
glyph check with fallback fonts; an SVG fragment out. The warnings it gives, and how several of
one kind are said in one line, are here too."""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup

from pnpgen import fonts as fontreg
from pnpgen import resources
from pnpgen.data import validate
from pnpgen.data.i18n import japanese
from pnpgen.data.markup import ICON, ICON_WITH_VALUE, MarkupError, loose_marks, parse, without_icons
from pnpgen.data.model import PLACEHOLDER_COLOUR, is_placeholder
from pnpgen.errors import InputError, ValueMistake, suggest
from pnpgen.patterns import later
from pnpgen.terms import is_latin, unbracket
from pnpgen.text import cells as _cells
from pnpgen.text import icons as _icons
from pnpgen.text import linebreak as _linebreak
from pnpgen.text import svg as _svg
from pnpgen.text.cells import LATIN_GAP, GlyphMissing, build
from pnpgen.text.icons import IconError, UnknownIcon
from pnpgen.text.layout import ALIGNS, SHAPES, VALIGNS, Layout, choose_size, place, round_fit
from pnpgen.text.svg import emit


@dataclass
class TextContext:
    """What a text box needs to know about where it is drawn."""

    fonts: dict[str, str]  # role → font name
    fallback_fonts: list[str]
    palette: dict[str, str]  # colour name → '#rrggbb'
    icon_dirs: list[Path]  # searched in order
    where: str  # "deck 'epic' piece 3 (祝福)"
    warnings: list[str] = field(default_factory=list)
    lang: str = "ja"  # the text's language: chooses the hyphenation dictionary
    latin_gap: float = LATIN_GAP  # 和欧間 space in em between Japanese and Latin (0: none)
    in_layout: bool = False  # drawn by a deck's layout: a text too long is given room in its boxes
    set_chars: int = 0  # the characters textbox() was given on this face so far (MAX_FACE_TEXT_CHARS)
    # the designer's template line placing the box being set ("templates/<slug>/x.svg.j2:12"; None: a
    # layout's box), which a text too long for it is warned at (faces/sourcelines.py finds it)
    placed_at: Callable[[], str | None] | None = None
    # a piece's face: the place of one of its fields in the data file (``Piece.where_of``: the
    # piece's own line for a field it does not set) and the words naming the piece after that place
    # ("deck 'epic' piece 3 (祝福) front"), which a warning about the piece's text starts with
    piece_at: Callable[[str | None], str] | None = None
    piece_words: str = ""
    # the game's default language when this face is drawn for another edition set in Latin script
    # ("ja" in an en build of a Japanese game): Japanese a template writes itself is then warned
    translated_from: str = ""
    # the text of a game template by its name (``harbor/board.svg.j2``): what it writes itself
    template_source: Callable[[str], str] | None = None
    # a layout's face: the name of the text box showing a field (``unit`` for ``{field: title}``),
    # which a text too long is told to give room to; None: the box is named after its field
    box_of: Callable[[str], str | None] | None = None


@dataclass(frozen=True)
class Record:
    """One text box as laid out, for checkers and benchmarks."""

    where: str
    field: str
    text: str
    w: float
    h: float
    size: float
    min_size: float
    font: str
    layout: Layout
    ctx: TextContext | None = None  # as it was at the call (warnings aside)
    args: tuple = ()  # layout_text's (w, h, size, min_size, font, align, valign, line_height, fill, shape)

    def replay(self) -> Layout:
        """Lay the same text out again (through the caches, unless cleared)."""
        assert self.ctx is not None, "a record made without a context cannot be replayed"
        return layout_text(self.ctx, self.text, *self.args)


_recorders: list[list[Record]] = []

# Time spent in textbox() since the last reset (for bench/text_layout.py).
STATS = {"calls": 0, "seconds": 0.0}


def icons_saved(dirs: Sequence[Path]) -> None:
    """Called once a build: forget the icons, and the texts laid out and drawn with them, when an
    icon file of ``dirs`` was saved, added or removed since the last build of this process
    (``watch``, ``serve``): a face kept the icon as first read, and the build recorded it as built."""
    if _icons.saved_since(dirs):
        _icons.clear_caches()
        _layout.cache_clear()
        _svg.clear_cache()


def _fonts_saved() -> None:
    """A font file saved over (``fonts.saved_since``): its widths, and the texts laid out and
    drawn with them, are forgotten."""
    _layout.cache_clear()
    _svg.clear_cache()
    _cells.char_width.cache_clear()
    _cells.font_for.cache_clear()


fontreg.when_saved(_fonts_saved)


def clear_caches() -> None:
    """Forget every cached layout, width and phrase (for cold-start measurements)."""
    _layout.cache_clear()
    _svg.clear_cache()
    _cells.char_width.cache_clear()
    _cells.font_for.cache_clear()
    _linebreak.phrase_boundaries.cache_clear()
    _linebreak.clear_caches()
    _icons.clear_caches()
    STATS.update(calls=0, seconds=0.0)


@contextmanager
def recording() -> Iterator[list[Record]]:
    """Collect every text box laid out inside the ``with`` block."""
    records: list[Record] = []
    _recorders.append(records)
    try:
        yield records
    finally:
        _recorders.remove(records)


def _field_name(text: object) -> str:
    return getattr(text, "field", "") or ""


# Emoji and pictographs (emoticons, transport, symbols and pictographs; miscellaneous symbols,
# dingbats and technical symbols such as ⏱): none is in pnpgen's own fonts
_EMOJI_BLOCKS = ((0x1F300, 0x1FAFF), (0x2300, 0x23FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0xFE00, 0xFE0F))


def _emoji_way(ch: str) -> str:
    """An emoji no font has: where a designer gets one, since pnpgen ships none."""
    if not any(lo <= ord(ch) <= hi for lo, hi in _EMOJI_BLOCKS):
        return ""
    return ("; pnpgen's own fonts have no emoji: a TrueType font whose emoji are outlines (a colour emoji "
            "font's pictures are not) in fonts/, e.g. DejaVuSans.ttf, which has 😀 and ❤, named in game.yaml: "
            "fallback_fonts: [DejaVuSans]; or the emoji left out")


def _describe(ctx: TextContext, text: object) -> str:
    name = _field_name(text)
    return f"{ctx.where}, field {name!r}" if name else ctx.where


def warned_at(ctx: TextContext, text: object, placed: str | None) -> str:
    """The start of a warning about ``text``: the file and line to change first, where one is
    known (``placed``: the template's line placing the box; else the piece's field in its data
    file), then the deck, piece and field, as an editor or terminal jumps to the line."""
    if placed:
        return f"{placed}: {_describe(ctx, text)}"
    if ctx.piece_at is None:
        return _describe(ctx, text)
    name = _field_name(text)
    return f"{ctx.piece_at(name or None)}: {ctx.piece_words}" + (f", field {name!r}" if name else "")


@lru_cache(maxsize=4096)
def _layout(text: str, w: float, h: float, size: float, min_size: float, font: str, align: str, valign: str,
            line_height: float, fill: str, fonts: tuple, fallbacks: tuple, palette: tuple,
            icon_dirs: tuple, lang: str = "ja", latin_gap: float = LATIN_GAP, shape: str = "rect") -> Layout:
    paragraphs = parse(text, dict(palette))
    override = PLACEHOLDER_COLOUR if is_placeholder(text) else None
    paras = build(paragraphs, dict(fonts), font, fallbacks, dict(palette), fill, icon_dirs, override,
                  lang, latin_gap)
    if align not in ("left", "justify"):  # a list hangs from a left edge: centred lines keep theirs
        paras = [replace(p, hang=0.0) for p in paras]
    trial = choose_size(paras, w, h, size, min_size, line_height, shape)
    return place(paras, trial, w, h, align, valign, line_height)


MAX_TEXT_CHARS = 20_000  # one text box; a card's rules run to a few hundred
# All the text boxes of one face: a template looping over textbox() with texts within
# MAX_TEXT_CHARS set text for hours (a 20,000-character box takes some 0.3 s).
MAX_FACE_TEXT_CHARS = 10 * MAX_TEXT_CHARS
BOUNDS = {  # textbox's numbers: what a card can hold
    "w": (0.01, 10_000.0, "mm"), "h": (0.01, 10_000.0, "mm"), "size": (0.5, 500.0, "pt"),
    "min_size": (0.5, 500.0, "pt"), "line_height": (0.5, 5.0, "× the size"),
    # … and the other numbers of m.tate_box()'s tate_columns() (faces/vertical.py)
    "x": (-10_000.0, 10_000.0, "mm"), "y": (-10_000.0, 10_000.0, "mm"), "step": (-10_000.0, 10_000.0, "mm"),
    "pitch": (0.5, 5.0, "× the size"),
}


def check_numbers(ctx: TextContext, text, who: str = "textbox", **values) -> None:
    """Each of ``who``'s numbers a finite number within BOUNDS (a size of 1e308 would never fit)."""
    for name, value in values.items():
        low, high, unit = BOUNDS[name]
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = math.nan
        if not low <= number <= high:  # NaN fails both
            raise InputError(f"{who} {name}={value!r:.30} ({_describe(ctx, text)})", key=name,
                             expected=f"a number from {low:g} to {high:g} {unit}")


def layout_text(ctx: TextContext, text, w, h, size=9, min_size=6, font="gothic", align="left",
                valign="top", line_height=1.35, fill="#000", shape="rect") -> Layout:
    """Lay out ``text`` in a w×h mm box (``shape="circle"``: inside the ellipse inscribed in
    it); errors name ctx.where and the field."""
    text_s = "" if text is None else str(text)
    if "【" in text_s and is_latin(ctx.lang):  # a Latin-script edition prints its terms as its book does
        text_s = unbracket(text_s)[0]
    al = align if isinstance(align, str) and align in ALIGNS else None
    va = valign if isinstance(valign, str) and valign in VALIGNS else None
    if shape not in SHAPES:
        raise InputError(f"textbox: unknown shape {str(shape)[:40]!r}{suggest(str(shape), SHAPES)} "
                         f"({_describe(ctx, text)})", key="shape", expected="shape " + "|".join(SHAPES))
    if al is None or va is None:  # exactly the documented words: align="middle" is a mistake, not a centre
        key, bad, allowed = ("align", align, ALIGNS) if al is None else ("valign", valign, VALIGNS)
        other = VALIGNS if key == "align" else ALIGNS
        hint = f"; {bad!r} is {'valign' if key == 'align' else 'align'}'s word" if bad in other else ""
        near = suggest(bad, allowed) if isinstance(bad, str) and not hint else ""  # align="centre"
        raise InputError(f"textbox: unknown {key} {str(bad)[:40]!r}{near} ({_describe(ctx, text)})", key=key,
                         expected=f"{key} " + "|".join(allowed) + hint)
    try:
        fill = validate.colour(fill, ctx.palette)
    except validate.Invalid as e:
        raise InputError(f"textbox fill: {e.message} ({_describe(ctx, text)})", key="fill",
                         expected=e.expected) from None
    check_numbers(ctx, text, w=w, h=h, size=size, min_size=min_size, line_height=line_height)
    if len(text_s) > MAX_TEXT_CHARS:
        raise ValueMistake(f"textbox: a text of {len(text_s):,} characters ({_describe(ctx, text)})",
                         key=_field_name(text) or None, expected=f"at most {MAX_TEXT_CHARS:,} characters in one box: "
                         + ("the text split over two fields, in two boxes of the layout" if ctx.in_layout else
                            f"the text split over several textbox() calls ({MAX_FACE_TEXT_CHARS:,} on one face)"))
    if ("{" in text_s) and (":" in text_s or "：" in text_s):
        _icon_with_value(ctx, text, text_s)
    try:
        return _layout(text_s, float(w), float(h), float(size), float(min_size), font, al, va,
                       float(line_height), str(fill), tuple(sorted(ctx.fonts.items())),
                       tuple(ctx.fallback_fonts), tuple(sorted(ctx.palette.items())),
                       tuple(d if isinstance(d, Path) else Path(d) for d in ctx.icon_dirs),
                       ctx.lang, float(ctx.latin_gap), str(shape))
    except KeyError:  # a font that was never registered (checked only when the cache misses)
        for name in (ctx.fonts.get(font, font), *ctx.fonts.values(), *ctx.fallback_fonts):
            try:
                fontreg.face(name)
            except KeyError:
                raise InputError(f"textbox: font {name!r} is not registered ({_describe(ctx, text)})",
                                 expected="a font role (" + ", ".join(ctx.fonts) + ") or a font in fonts/") from None
        raise
    except GlyphMissing as e:
        raise _glyph_missing(ctx, text, e) from None
    except UnknownIcon as e:
        raise _unknown_icon(ctx, text, e.name) from None
    except IconError as e:
        raise InputError(f"{e} (used in {_describe(ctx, text)})", key=_field_name(text) or None, icon=str(e)) from None
    except MarkupError as e:
        raise _unknown_colour(ctx, text, e) from None


def _glyph_missing(ctx: TextContext, text, e: GlyphMissing) -> ValueMistake:
    """A character no font draws, told of ``text`` (its deck, piece and field) as every typesetter
    tells it: a text box, and vertical text (``read_glyphs``)."""
    ch = e.char
    return ValueMistake(
        f"character U+{ord(ch):04X} {ch!r} is in no font ({', '.join(e.fonts)}) in {_describe(ctx, text)}",
        key=_field_name(text) or None,
        expected="a character the font has, or a font that has it in game.yaml fallback_fonts" + _emoji_way(ch),
        glyph=ch,
    )


def read_glyphs(ctx: TextContext, text, font: str) -> None:
    """What a text box says of a character of ``text`` no font draws (``font`` a role or a font's
    name, **bold** in its bold), for a typesetter of its own (m.tate()'s vertical text, which sets
    its text a character or a run at a time and would name no field): the same error, naming the
    deck, piece and field. A font never registered is told where the text is set."""
    try:
        build(parse("" if text is None else str(text), ctx.palette), ctx.fonts, font, tuple(ctx.fallback_fonts),
              ctx.palette, "#000000", tuple(d if isinstance(d, Path) else Path(d) for d in ctx.icon_dirs))
    except GlyphMissing as e:
        raise _glyph_missing(ctx, text, e) from None
    except (KeyError, UnknownIcon, IconError):  # (a font or an icon file told where it is drawn)
        return


def _unknown_icon(ctx: TextContext, text, name: str) -> ValueMistake:
    known = _icons.names(ctx.icon_dirs)
    return ValueMistake(
        f"unknown icon {{{name}}}{_listed_together(name, known) or suggest(name, known)} in "
        f"{_describe(ctx, text)}{new_icon(ctx.icon_dirs, name)}",
        key=_field_name(text) or None,
        expected=_icons_expected(ctx.icon_dirs) or "an SVG in templates/<game>/icons/ or templates/common/icons/",
    )


ICONS_LISTED = "one of "  # an unknown icon's hint: the icons known, as ``{name}`` (``known_icons``)


def _icons_expected(dirs: Sequence[Path]) -> str:
    """The icons known, by where they are: a fresh game's error listed pnpgen's built-in {cargo_h}
    and {faith} bare, read as another game's icons (loop51). A name found in an earlier folder
    is that folder's (the game's own icon wins over a built-in one of its name)."""
    groups, seen = [], set()
    for folder in map(Path, dirs):
        names = [n for n in _icons.names([folder]) if n not in seen]
        seen.update(names)
        if names:
            where = ("pnpgen's built-in icons" if folder.is_relative_to(resources.folder("pnpgen")) else
                     "the workspace's common icons" if folder.parent.name == "common" else "this game's icons")
            groups.append(f"{where}, " + ", ".join("{" + n + "}" for n in names))
    return ICONS_LISTED + "; ".join(groups) if groups else ""


def known_icons(error: InputError) -> str:
    """The icons an unknown-icon error lists as the ones known ("" for another error): ``pnpgen
    check`` says them once under its problems, not on each line."""
    if isinstance(error, InputError) and error.message.startswith("unknown icon {") \
            and (error.expected or "").startswith(ICONS_LISTED):
        return (error.expected or "")[len(ICONS_LISTED):]
    return ""


def _unknown_colour(ctx: TextContext, text, e: MarkupError) -> ValueMistake:
    return ValueMistake(f"{e} in {_describe(ctx, text)}", key=_field_name(text) or None,
                        expected="a palette name from game.yaml")


def read_markup(ctx: TextContext, text) -> None:
    """What a text box says of ``text``'s markup, for a typesetter of its own (m.tate()'s vertical
    text, faces/vertical.py): an unknown colour or icon, or an icon given a value, stops as a text
    box stops; markup without its partner is warned as printed as written."""
    text_s = "" if text is None else str(text)
    if ("{" in text_s) and (":" in text_s or "：" in text_s):
        _icon_with_value(ctx, text, text_s)
    try:
        paragraphs = parse(text_s, ctx.palette)
    except MarkupError as e:
        raise _unknown_colour(ctx, text, e) from None
    dirs = tuple(d if isinstance(d, Path) else Path(d) for d in ctx.icon_dirs)
    for span in (span for para in paragraphs for span in para if span.kind == ICON):
        if _icons.find(span.text, dirs) is None:
            raise _unknown_icon(ctx, text, span.text)
    _loose(ctx, text)


def _icon_with_value(ctx: TextContext, text, text_s: str) -> None:
    """Stop at an icon given a value (``{mana:2}``, as other card tools write a cost): pnpgen's
    icons take none, and the braces would print as text. A name that is no icon (``{note: 1}``) is text."""
    dirs = tuple(Path(d) for d in ctx.icon_dirs)
    for m in ICON_WITH_VALUE.finditer(text_s):
        name, value = m.group("name"), m.group("value").strip()
        if not value or _icons.find(name, dirs) is None:
            continue
        own = f"{name}{value}" if re.fullmatch(r"\w+", value) else ""
        raise ValueMistake(
            f"{m.group()} gives the icon {{{name}}} a value, {value!r}, and an icon takes none: it would print as "
            f"text, braces and all, in {_describe(ctx, text)}",
            key=_field_name(text) or None,
            expected=f"the value beside the icon, {value}{{{name}}}, or the icon repeated, {{{name}}}{{{name}}}"
            + (f", or an icon drawn for each value, {{{own}}}: {_icon_file(ctx.icon_dirs, own)}" if own else ""))


# the warning of a text set at its smallest size and still too big for its box (``_textbox``)
# (after the file and line it names first: a template's, or the piece's in its data file)
OVERFLOW_LINE = later(r"^(?:.*?: )?deck (?P<deck>'[^']*'|\"[^\"]*\") piece .*: text does not fit its .* overflowing$")


def more_overflowing(deck: str, rest: list[re.Match]) -> str:
    """The line counting a deck's texts overflowing their boxes not named one by one."""
    return (f"deck {deck}: {len(rest)} more texts do not fit their boxes even at their smallest size "
            "(set overflowing; pnpgen check lists each)")


# the warning of a text whose markup is not paired (or an icon's braces typed full-width), printed as written (``_textbox``)
UNPAIRED_LINE = later(r"^(?:.*?: )?deck (?P<deck>'[^']*'|\"[^\"]*\") piece .*: printed as written "
                           r"\((?:markup comes in pairs: |ruby is |markup is typed |an icon is ).*\)$")
WIDE_ICON = later(r"[｛{]([^｛｝{}\s]+)[｝}]")  # ｛star｝, ｛ｓｔａｒ｝, {star｝: typed with a Japanese input method on


def wide_icon_names(text: str) -> dict[str, str]:
    """As written → the icon's name meant, for each name in braces a Japanese input method typed
    (a brace full-width at least: ｛star｝, {star｝; the name's letters too: ｛ｓｔａｒ｝)."""
    if "｛" not in text and "｝" not in text:
        return {}
    return {m.group(): unicodedata.normalize("NFKC", m.group(1)) for m in WIDE_ICON.finditer(text)
            if m.group()[0] == "｛" or m.group()[-1] == "｝"}


def wide_icons(text: str, icon_dirs: Sequence[Path]) -> dict[str, str]:
    """The icons ``text`` names in full-width braces (``｛star｝``, typed with the input method on),
    which print as written: as written → the name, of icons that exist, so a ｛note｝ of text is left alone."""
    typed = wide_icon_names(text)
    if not typed:  # (most texts: the folders are not made paths for them, half a verse's one-character box)
        return {}
    dirs = tuple(Path(d) for d in icon_dirs)
    return {said: name for said, name in typed.items() if _icons.find(name, dirs) is not None}


# an icon named as other card tools write one: <coin> (HTML-like tags), [coin] (square brackets)
_BRACKETED_ICON = later(r"<([^\W\d][\w-]*)>|\[([^\W\d][\w-]*)\]")


def bracketed_icons(text: str, icon_dirs: Sequence[Path], palette: Mapping[str, str]) -> dict[str, str]:
    """The icons ``text`` names in angle or square brackets (``<coin>``, ``[coin]``, as a sheet brought
    from another card tool writes them), which print as written: as written → the name, of icons
    that exist; a colour's ``[red]`` (a palette name, or a tag closed by ``[/red]``) is markup, not one."""
    if "<" not in text and "[" not in text:
        return {}
    found = {}
    for m in _BRACKETED_ICON.finditer(text):
        name = m.group(1) or m.group(2)
        if m.group(2) and (name in palette or f"[/{name}]" in text):
            continue
        found[m.group()] = name
    if not found:
        return {}
    dirs = tuple(Path(d) for d in icon_dirs)
    return {said: name for said, name in found.items() if _icons.find(name, dirs) is not None}


def more_unpaired(deck: str, rest: list[re.Match]) -> str:
    """The line counting a deck's texts with unpaired markup not named one by one."""
    return (f"deck {deck}: {len(rest)} more texts with markup that is not paired, printed as written "
            "(pnpgen check lists each)")


def textbox(ctx: TextContext, text, x, y, w, h, size=9, min_size=6, font="gothic", align="left",
            valign="top", line_height=1.35, fill="#000", shape="rect") -> Markup:
    """``text`` set in the box (x, y, w, h in mm; sizes in pt) as an SVG fragment."""
    t0 = time.perf_counter()
    try:
        return _textbox(ctx, text, x, y, w, h, size, min_size, font, align, valign, line_height, fill, shape)
    finally:
        STATS["calls"] += 1
        STATS["seconds"] += time.perf_counter() - t0


def _textbox(ctx, text, x, y, w, h, size, min_size, font, align, valign, line_height, fill, shape) -> Markup:
    chars = 0 if text is None else len(str(text))
    if chars <= MAX_TEXT_CHARS:  # (a longer one is layout_text's error)
        ctx.set_chars += chars
        if ctx.set_chars > MAX_FACE_TEXT_CHARS:
            raise InputError(f"textbox: the face's text boxes are given more than {MAX_FACE_TEXT_CHARS:,} characters "
                             f"in all ({_describe(ctx, text)})",  # the template's loop, not one value, is the fault
                             expected=f"at most {MAX_FACE_TEXT_CHARS:,} characters of text on one face")
    lay = layout_text(ctx, text, w, h, size, min_size, font, align, valign, line_height, fill, shape)
    if not lay.fits and lay.lines:
        widest = max(line.width for line in lay.lines)
        need = (f"{lay.height:.1f} mm high: {lay.height - lay.h:.1f} mm more" if lay.height > lay.h + 1e-6
                else f"a box {widest - lay.w:.1f} mm wider" if widest > lay.w + 0.05 else "a wider box")
        inside = lay.height <= lay.h + 1e-6 and all(line.width <= lay.w + 1e-6 for line in lay.lines)
        outline = "box"
        if shape == "circle":  # the block's corners past the ellipse: how much larger a circle holds them
            outline, grow = "circle", round_fit(widest, lay.height, lay.w, lay.h)
            inside = grow <= 1 + 1e-6
            need = f"a circle {(grow - 1) * float(w):.1f} mm wider" if not inside else "a wider circle"
        field = _field_name(text)
        if ctx.in_layout and field and "." not in field:  # (a piece's field, not game.title)
            room = "w: …, h: …" if shape == "circle" else "y: …, h: …"
            box = (ctx.box_of(field) if ctx.box_of is not None else None) or field  # the box showing it
            need += f"; give it room in the deck's layout: boxes: {{{box}: {{{room}}}}}"
        placed = ctx.placed_at() if ctx.placed_at is not None else None
        msg = (f"{warned_at(ctx, text, placed)}: text does not fit its "
               f"{float(w):.1f}×{float(h):.1f} mm {outline} even at {lay.size:g} pt (needs {need}); set at {lay.size:g} pt, "
               + ("a number broken over two lines" if inside else "overflowing"))
        if msg not in ctx.warnings:
            ctx.warnings.append(msg)
    if ctx.translated_from and not ctx.in_layout and text is not None and not _field_name(text):
        _untranslated(ctx, str(text))
    _loose(ctx, text)
    if _recorders:
        frozen = TextContext(dict(ctx.fonts), list(ctx.fallback_fonts), dict(ctx.palette), list(ctx.icon_dirs),
                             ctx.where, lang=ctx.lang, latin_gap=ctx.latin_gap)
        rec = Record(ctx.where, _field_name(text), "" if text is None else str(text), float(w), float(h),
                     lay.size, float(min_size), ctx.fonts.get(font, font), lay, frozen,
                     (w, h, size, min_size, font, align, valign, line_height, fill, shape))
        for r in _recorders:
            r.append(rec)
    return emit(lay, float(x), float(y), tuple(ctx.fallback_fonts))


def _loose(ctx: TextContext, text) -> None:
    """Markup in ``text`` without its partner (or typed full-width), printed as written: warned
    once, where it is mended (a piece's field in its data, other text at the template's line)."""
    loose = loose_marks(str(text), ctx.palette) if text is not None else []
    wide = wide_icons(str(text), ctx.icon_dirs) if text is not None else {}
    bracketed = bracketed_icons(str(text), ctx.icon_dirs, ctx.palette) if text is not None else {}
    if loose or wide or bracketed:
        typed_wide = [said for said in loose if " in full-width " in said]
        hint = [] if all(said.startswith("a ruby ") or said in typed_wide for said in loose) else \
            ["markup comes in pairs: **bold**, [name]…[/name]; \\* and \\[ print the character itself"]
        hint += ["ruby is {漢字|かんじ}, the base and its reading"] if any(said.startswith("a ruby ") for said in loose) else []
        hint += ["markup is typed in half-width characters: **bold**, [name]…[/name]"] if typed_wide else []
        hint += [f"an icon is {{{next(iter(wide.values()))}}}, in half-width braces"] if wide else []
        hint += [f"an icon is {{{next(iter(bracketed.values()))}}}, in braces"] if bracketed and not wide else []
        loose += [f"{said} in {'angle' if said.startswith('<') else 'square'} brackets" for said in bracketed]
        loose += [f"{said} in full-width braces" if said == f"｛{name}｝" else f"{said} typed full-width"
                  for said, name in wide.items()]
        name = _field_name(text)  # a piece's field is mended in the data, other text where the template places it
        placed = ctx.placed_at() if ctx.placed_at is not None and not (name and "." not in name) else None
        msg = f"{warned_at(ctx, text, placed)}: {'; '.join(loose)}: printed as written ({'; '.join(hint)})"
        if msg not in ctx.warnings:
            ctx.warnings.append(msg)


def _untranslated(ctx: TextContext, text: str) -> None:
    """Japanese a template writes itself (``textbox("森", …)``) on a face of an edition in Latin
    script: the data's texts come translated (or marked 〔ja〕 and warned), a template's print as
    written, unmarked — a board's action spaces in Japanese in the English edition. Told once per
    text at the template's line."""
    if "〔" in text or not japanese().search(without_icons(text)):
        return
    placed = ctx.placed_at() if ctx.placed_at is not None else None
    if placed is None or ctx.template_source is None:
        return
    source = ctx.template_source(placed.removeprefix("templates/").rsplit(":", 1)[0])
    if not all(run in source for run in _japanese_runs(text)):
        return  # (the data's text, a deck's name or a piece's field joined to the template's: told as the data's)
    said, lang = text if len(text) <= 30 else text[:29] + "…", ctx.translated_from
    msg = (f"{placed}: {said!r} is {lang} text the template writes itself, printed as written in the {ctx.lang} "
           f"edition (expected the text in the deck's data, given per language as {{{lang}: …, {ctx.lang}: …}}, "
           "and the template reading it from the piece; or the template choosing by game.lang)")
    if msg not in ctx.warnings:
        ctx.warnings.append(msg)


def _japanese_runs(text: str) -> list[str]:
    """The runs of kana and kanji in ``text`` (``森`` and ``港`` of ``森 (Port 港)``)."""
    runs: list[str] = []
    end = -1
    for m in japanese().finditer(text):
        if m.start() == end and runs:
            runs[-1] += m.group()
        else:
            runs.append(m.group())
        end = m.end()
    return runs


# the warning of Japanese a template writes itself on a face of a Latin-script edition (``_untranslated``)
UNTRANSLATED_LINE = later(r"^(?P<file>[^:]+):\d+: .* is (?P<default>\S+) text the template writes itself, "
                               r"printed as written in the (?P<lang>\S+) edition \(.*\)$")


def more_untranslated(file: str, rest: list[re.Match]) -> str:
    """The line counting a template's Japanese texts of a Latin-script edition not named one by one."""
    return (f"{file}: {len(rest)} more {rest[0]['default']} texts the template writes itself, printed as written in "
            f"the {rest[0]['lang']} edition (pnpgen check --lang {rest[0]['lang']} lists each)")


def _listed_together(name: str, known: list[str]) -> str:
    """For an icon name that is several icons' names joined by a Japanese comma (``[風、土]``,
    which YAML reads as one item): how to write them as a list."""
    parts = [part.strip() for part in re.split(r"[、，,､・]", name)]
    if len(parts) < 2 or not all(part in known for part in parts):
        return ""
    joint = re.search(r"[、，,､・]", name).group()  # type: ignore[union-attr]
    return (f": {len(parts)} icons' names joined by '{joint}' (YAML separates a list's items with "
            f"a half-width ',' and a space: [{', '.join(parts)}])")


def new_icon(icon_dirs: list[Path], name: str) -> str:
    """Where a new icon of that name goes, as the workspace names it (the game's icons, the first
    folder looked in): a designer who meant a new keyword, not a slip, is told the file to draw."""
    return f"; a new icon of that name is the SVG file {_icon_file(icon_dirs, name)}" if icon_dirs else ""


def _icon_file(icon_dirs: Sequence[Path], name: str) -> str:
    """The file a new icon ``name`` is, in the first icon folder looked in (the game's)."""
    return f"{Path(*Path(icon_dirs[0]).parts[-3:]).as_posix()}/{name}.svg" if icon_dirs else f"templates/<game>/icons/{name}.svg"


def icon(ctx: TextContext, name: str, x: float, y: float, size: float, colour: str = "#000") -> Markup:
    """An icon by name placed in a size×size mm square with its top-left at (x, y); its
    ``currentColor`` drawn in ``colour`` (a palette name or #rrggbb: white gears on a dark back)."""
    try:
        colour = validate.colour(colour, ctx.palette)
    except validate.Invalid as e:
        raise InputError(f"icon colour: {e.message} (in {ctx.where})", key="colour", expected=e.expected) from None
    path = _icons.find(str(name), tuple(Path(d) for d in ctx.icon_dirs))
    if path is None:
        known = _icons.names(ctx.icon_dirs)
        raise ValueMistake(f"unknown icon {{{name}}}{_listed_together(str(name), known) or suggest(str(name), known)} "
                           f"in {ctx.where}{new_icon(ctx.icon_dirs, str(name))}",
                           key=_field_name(name) or None,
                         expected=_icons_expected(ctx.icon_dirs) or "an SVG in templates/<game>/icons/")
    try:
        return Markup(_icons.place(path, float(x), float(y), float(size), colour))
    except IconError as e:
        raise InputError(f"{e} (used in {ctx.where})", icon=str(e)) from None
