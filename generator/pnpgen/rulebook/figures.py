"""The rulebook's own settings in game.yaml (``rulebook:``): setup figures arranged from the
real pieces, and the quick reference. Read here, with file:line errors, never from Python code.

    rulebook:
      figures:
        - after: 天地開闢            # the step, sub-heading or section the figure closes
          caption: 開始時のエリアの例    # either may be given per language: {ja: 開始時の例, en: A start}
          size: [120, 100]           # the arrangement's box at printed size, mm
          pieces:                    # each piece's centre in mm from the box's top-left, y down
            - {deck: area, piece: 2, x: 20, y: 23, rotate: 0}
            - {deck: units, piece: 1, x: 60, y: 23, side: back}   # its back (a counter's reduced side)
        - after: 準備
          caption: 準備の済んだ卓
          picture: setup.jpg         # a picture of data/<slug>/art/ in place of pieces (or one per language)
          size: [118, 80]            # optional: the picture's box (default: its own proportions, the text's width)
      quick_reference:
        deck: summary                # show this deck's faces on the quick reference page
                                     # (false: no 早見表; a game with no decks has none unless true)
      proof:
        ignore: [始めて, 創生エリア]  # findings of proof.txt that quote these words are meant
      style: jlreq                   # or proportional: the Japanese body text (docs/rulebook.md)
      booklet_sheets: 20             # the most sheets one saddle-stitched booklet holds: more is warned
      colophon: [発行　星の市工房, 印刷　○○印刷]   # the 奥付's own lines (a 同人 book names its maker, printer…)
      cover: シナリオブック           # the cover's top line (default ルールブック / Rulebook)
      edition: 初版                  # what the book to hand out (--rules-only, doujin-book) prints where
                                     # the designer's copy prints the draft number (default: nothing)
      sheet: true                    # also rule-sheet.pdf: the rules on one sheet of paper (SHEET_KEYS)
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm

from pnpgen.data import validate
from pnpgen.data.art import ArtFolder
from pnpgen.data.formats import PAPER_SIZES, RULE_SHEET_PAPERS
from pnpgen.data.gamefiles import sheet_asked
from pnpgen.data.model import SAID_LABEL, Game
from pnpgen.data.telling import names_told_apart
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import suggest
from pnpgen.rulebook.styles import BODY_SIZE, FIGURE_H, TEXT_W
from pnpgen.safetext import clipped, quoted, written_in_cjk
from pnpgen.terms import is_latin

KEYS = ("figures", "quick_reference", "contents", "proof", "style", "booklet_sheets", "colophon", "edition", "cover",
        "cover_decks", "sheet")
COVER_DECKS = 3  # the cover fans up to three pieces in a row
# A saddle stitch through more sheets than this (folded A4, 80 g/m²) is beyond a long-reach
# stapler (rated for some 20 sheets) and most shops' saddle stitching (64–80 pages)
BOOKLET_SHEETS = 20
COLOPHON_LINES, COLOPHON_CHARS = 8, 40  # what the back page's 7.5 pt lines hold across the A5 text width
EDITION_CHARS = 20  # the edition is one line of the cover and of every running head
STYLES = ("jlreq", "proportional")  # the Japanese body: fixed-width ベタ組 with JLREQ 約物, or BIZ UDP明朝
FIGURE_KEYS = ("after", "caption", "size", "pieces", "picture")
MIN_PRINTED_MM = 1.0  # a figure's picture thinner than this as printed is a mistake (a strip of pixels)
PIECE_KEYS = ("deck", "piece", "x", "y", "rotate", "side")
SIDES = ("front", "back")  # a placed piece's side up
# The rule sheet's figures (``sheet:``, rulebook/sheet.py sets it), each with its default. The margin
# stands well inside the 4–5 mm a home printer leaves unprinted at each edge (PRINTING.md); a column
# is never narrower than ``SHEET_COLUMN_MM``, some 25 characters of the 9 pt body, or the book's
# diagrams, tables and pictures (made for the A5 page's 118 mm) would not hold in it.
SHEET_KEYS = ("paper", "orientation", "columns", "margin", "gap", "quick_reference", "time", "fold", "text", "pictures")
# the sheet's body text: the book's 9 pt, or smaller, down to 8 pt, where the book's smallest text (7 pt:
# captions, a table's notes) still prints at the print lint's 6 pt; the whole sheet is set at that scale
SHEET_TEXT_PT = BODY_SIZE
SHEET_TEXT_LEAST = 8.0
SHEET_MARGIN_MM = 10.0  # each edge of the paper to the text
SHEET_MARGIN_BOUNDS = (5.0, 40.0)
SHEET_GAP_MM = 8.0  # between two columns (a thin rule down its middle)
SHEET_GAP_BOUNDS = (3.0, 30.0)
SHEET_COLUMNS = 2
SHEET_COLUMNS_MAX = 4
SHEET_COLUMN_MM = 80.0
ORIENTATIONS = ("landscape", "portrait")


@dataclass
class Placed:
    """One real piece placed in a rulebook figure: which deck and piece, where and how turned."""

    deck: str
    piece: int  # 1-based, in the deck's pieces: order
    x: float
    y: float
    rotate: float = 0.0
    side: str = "front"  # or "back": the piece turned over (a wargame counter's reduced side)


@dataclass
class FigureSpec:
    """A figure the rulebook draws from the game's real pieces (game.yaml ``rulebook: figures:``): where it goes in
    the draft, its caption and size, and the pieces in it."""

    after: str
    caption: str
    size_mm: tuple[float, float]
    pieces: list[Placed]
    line: int = 0
    untranslated: str = ""  # the warning for a caption printed in another language than the edition's
    picture: OwnPicture | None = None  # a picture of the game's art/ in place of pieces (``picture:``)


def figure_scale(w_mm: float, h_mm: float, aw: float, max_height: float = FIGURE_H) -> float:
    """The scale a figure's box of ``w_mm`` × ``h_mm`` is drawn at in a column ``aw`` pt wide: the
    column's width and ``max_height`` (pt) at the most, never enlarged (``Figure.wrap`` draws it so,
    ``printed_mm`` tells it)."""
    return min(aw / (w_mm * mm), max_height / (h_mm * mm), 1.0)


def printed_mm(spec: FigureSpec) -> tuple[float, float]:
    """The size (mm) a figure's picture prints at: its box scaled to the text's width and the
    figure's tallest (``figure_scale``, as ``Figure`` draws it), the picture whole inside it."""
    w, h = spec.size_mm
    s = figure_scale(w, h, TEXT_W)
    pw, ph = spec.picture.size if spec.picture is not None else (w, h)
    k = min(w * s / pw, h * s / ph)
    return pw * k, ph * k


@dataclass
class OwnPicture:
    """A figure's picture of the designer's own (``picture: setup.jpg``): the file of art/ as game.yaml
    names it, where it lies, its kind and size as measured (pixels upright, or an SVG's units) and
    the ``where`` of its key (its errors are said there)."""

    name: str  # as written, relative to art/
    shown: str  # as messages name it: art/setup.jpg
    path: Path
    kind: str  # "raster" | "svg"
    size: tuple[float, float]
    line: int = 0


_CASE_NUMBER = re.compile(r"^\d+(?:\.\d+)+\.?\s+")  # an English draft's ``5.1 Movement``


def anchor(title: str) -> str:
    """A title as a figure's ``after:`` is matched with it: without 【】, a closing full stop
    (``Place the 【board】 in the middle.``, the step as the draft writes it, is that step) and a
    rule case's number (``5.1 Movement`` is ``Movement``, as the book printed it before it kept the number)."""
    return _CASE_NUMBER.sub("", title.replace("【", "").replace("】", "").strip().rstrip(".。").strip())


@dataclass
class SheetSpec:
    """The rule sheet game.yaml asks for (``rulebook: sheet:``): the rules on one sheet of paper, one
    side or both, in columns; ``paper`` None is the booklet's paper (the game's: A4, or Letter)."""

    paper: str | None = None
    landscape: bool = True
    columns: int = SHEET_COLUMNS
    margin_mm: float = SHEET_MARGIN_MM
    gap_mm: float = SHEET_GAP_MM
    quick_reference: bool = False  # the 早見表 after the rules, in their columns
    time: str = ""  # the playing time, printed after the players at the head (30分, 30 min)
    line: int = 0  # game.yaml's line of ``sheet:`` (a sheet too small for its columns is said there)
    fold: bool = False  # folded in half: four pages, each half the sheet (a small box's leaflet)
    text_pt: float = SHEET_TEXT_PT  # the body's size: the sheet set at text_pt / 9 of the book's, pictures and spacing too
    pictures: bool = True  # the components' pictures and the figures (false: the rules' text alone)

    @property
    def scale(self) -> float:
        """The size the sheet is set at, of the book's: 1, or less for a smaller ``text``."""
        return self.text_pt / BODY_SIZE

    def sheet_mm(self, booklet_paper: str) -> tuple[float, float]:
        """The sheet's width and height in mm, on ``booklet_paper`` when it names no paper of its own."""
        w, h = RULE_SHEET_PAPERS[self.paper or booklet_paper]
        return (max(w, h), min(w, h)) if self.landscape else (min(w, h), max(w, h))

    def page_mm(self, booklet_paper: str) -> tuple[float, float]:
        """A page's width and height in mm: the sheet's, or its half when it is folded."""
        w, h = self.sheet_mm(booklet_paper)
        return (w / 2, h) if self.fold else (w, h)

    def column_mm(self, booklet_paper: str) -> float:
        """A column's width in mm."""
        w = self.page_mm(booklet_paper)[0]
        return (w - 2 * self.margin_mm - (self.columns - 1) * self.gap_mm) / self.columns


@dataclass
class RulebookSettings:
    """game.yaml's ``rulebook:`` settings: figures, the quick reference's deck, the proof's ignores, the style, the
    booklet's size, the colophon and edition."""

    figures: list[FigureSpec] = field(default_factory=list)
    quick_reference_deck: str | None = None
    quick_reference: bool = True  # the 早見表 is made (a book with no decks, a scenario book, has none: no turn)
    parked_summary: str = ""  # the warning for a quick_reference deck that prints nothing (shown on no 早見表)
    contents: bool = True  # the contents page is made (a handout of two pages has no use for one)
    proof_ignore: list[str] = field(default_factory=list)
    style: str = "jlreq"
    booklet_sheets: int = BOOKLET_SHEETS
    booklet_sheets_line: int = 0  # game.yaml's line giving it (0: the default)
    colophon: list[str] = field(default_factory=list)  # the designer's lines of the 奥付 (発行, 印刷, 連絡先)
    edition: str = ""  # the book to hand out prints it where the designer's copy prints 草案N (初版, 第2版)
    cover: str = ""  # the cover's top line: what the book is (シナリオブック); empty: pnpgen's ルールブック
    cover_decks: list[str] = field(default_factory=list)  # the decks the cover pictures; empty: the game's main pieces
    cover_left_out: list[str] = field(default_factory=list)  # the warnings for named cover decks the cover cannot show
    untranslated: list[str] = field(default_factory=list)  # the warnings for a cover line or edition in another language
    sheet: SheetSpec | None = None  # the rule sheet (``sheet:``); None: the game asks for none


def reach_mm(outline: Sequence[tuple[float, float]], trim_mm: tuple[float, float], piece: Placed,
             size_mm: tuple[float, float]) -> float:
    """How far (mm) a placed piece reaches past its figure's box: its cut line (``outline``, mm from
    the trim's top-left, y down; the trim's rectangle without one) turned by ``piece.rotate`` about
    its centre as the page turns it (counter-clockwise), its centre at (x, y) mm from the box's
    top-left; 0 when it lies inside."""
    tw, th = trim_mm
    points = outline or [(0.0, 0.0), (tw, 0.0), (tw, th), (0.0, th)]
    a = math.radians(piece.rotate)
    cos, sin = math.cos(a), math.sin(a)
    xs, ys = [], []
    for px, py in points:  # about the centre, y up (as drawn), turned, then y down again
        dx, dy = px - tw / 2, th / 2 - py
        xs.append(piece.x + dx * cos - dy * sin)
        ys.append(piece.y - (dx * sin + dy * cos))
    w, h = size_mm
    return max(0.0, -min(xs), max(xs) - w, -min(ys), max(ys) - h)


FIGURE_MM = (-2000.0, 2000.0)  # sizes and positions in a figure (validate.number bounds them)


def _number(doc: Located, value: Any, keypath: tuple, what: str, bounds: tuple[float, float] = FIGURE_MM) -> float:
    if isinstance(value, (str, bool)) or value is None:
        raise doc.error(keypath, f"{what} {validate.show(value)} is not a number", "a number of millimetres")
    try:
        return validate.number(value, *bounds, what=what)
    except validate.Invalid as e:
        raise doc.error(keypath, e.message, e.expected) from None


def _mapping(doc: Located, value: Any, keypath: tuple, allowed: tuple[str, ...], what: str) -> dict:
    if not isinstance(value, dict):
        raise doc.error(keypath, f"{what} must be a mapping", "key: value pairs")
    for key in value:
        if key not in allowed:
            raise doc.error(keypath + (key,), f"unknown key in {what}", "one of " + ", ".join(allowed), key=True)
    return value


def _in_language(doc: Located, value: Any, keypath: tuple, game: Game) -> str:
    """A text of the settings, or its translation in the build's language when it is given per
    language (``{ja: 天地開闢, en: Creation}``): the build's, else the game's default language's."""
    if not isinstance(value, dict):
        return str(value)
    if not value or not all(isinstance(k, str) and isinstance(v, (str, int, float)) for k, v in value.items()):
        raise doc.error(keypath, "a text per language must map language codes to texts", "{ja: …, en: …}")
    default = game.translations.default if game.translations is not None else game.lang
    languages = game.translations.languages if game.translations is not None else [game.lang]
    other = next((k for k in value if k not in languages), None)
    if other is not None:
        raise doc.error(keypath + (other,), f"{other!r} is not one of the game's languages ({', '.join(languages)})",
                        "{" + ", ".join(f"{k}: …" for k in languages) + "}", key=True)
    for lang in (game.lang, default):
        if lang in value:
            return str(value[lang])
    wanted = list(dict.fromkeys((game.lang, default)))  # (a game of one language: "no text in ja or ja")
    raise doc.error(keypath, f"no text in {' or '.join(wanted)}", "{" + ", ".join(f"{k}: …" for k in wanted) + "}")


def _untranslated(doc: Located, value: Any, keypath: tuple, game: Game, what: str = "rulebook figure caption") -> str:
    """The warning for a caption (``what``: the cover's line, the edition) the edition prints in
    another language (a game trial: the English book printed 「Figure: 開始時の配置例」 unwarned, or
    warned as "marked 〔ja〕", which the book never marks; trial72's English cover, 「ルールブック」
    over Stone Garden): one given per language without the edition's, or a plain Japanese text in
    a Latin-script edition."""
    default = game.translations.default if game.translations is not None else game.lang
    if game.lang == default or not value:
        return ""
    if isinstance(value, dict):
        if game.lang in value:
            return ""
        said = f"{quoted(str(value.get(default, next(iter(value.values())))))} has no {game.lang} text"
    elif is_latin(game.lang) and written_in_cjk(str(value)):
        said = f"{quoted(str(value))} is plain {default} text"
    else:
        return ""
    return (f"{doc.where(keypath)}: {what} {said}; the {game.lang} rulebook prints it as "
            f"written (a translation forgotten? write it as {keypath[-1]}: {{{default}: …, {game.lang}: …}})")


def load_settings(game: Game) -> RulebookSettings:
    """The game's ``rulebook:`` settings (none when game.yaml has no such key or no file)."""
    bare = RulebookSettings(quick_reference=bool(game.decks))  # no decks: no turn to sum up
    path = Path(game.root) / "game.yaml"
    if not path.is_file():
        return bare
    doc = load_yaml(path)
    raw = doc.data.get("rulebook") if isinstance(doc.data, dict) else None
    if raw is None:
        return bare
    raw = _mapping(doc, raw, ("rulebook",), KEYS, "rulebook")
    decks = {d.id: d for d in game.decks}

    def deck_id(value: Any, keypath: tuple) -> str:
        if not isinstance(value, str) or value not in decks:
            near = suggest(value, list(decks)) if isinstance(value, str) else ""
            raise doc.error(keypath, f"no deck {validate.show(value)} in this game{near}", "one of " + ", ".join(decks)
                            if decks else "none: this game has no decks (a second book's figures and 早見表 "
                            "picture no piece; leave the deck out)")
        return value

    out = bare
    figures = raw.get("figures") or []
    if not isinstance(figures, list):
        raise doc.error(("rulebook", "figures"), "figures must be a list", "a list of figures")
    for i, fig in enumerate(figures):
        kp = ("rulebook", "figures", i)
        fig = _mapping(doc, fig, kp, FIGURE_KEYS, "a figure")
        if "picture" in fig and "pieces" in fig:
            raise doc.error(kp + ("picture",), "a figure shows a picture or pieces, not both",
                            "picture: (a file of art/) alone, or pieces: alone (two figures for both)")
        for key in ("after",) if "picture" in fig else ("after", "size", "pieces"):
            if key not in fig:
                raise doc.error(kp, f"figure without {key!r}", "after, size, pieces (caption optional), "
                                "or after and picture (caption and size optional)")
        own = _own_picture(doc, fig["picture"], kp + ("picture",), game) if "picture" in fig else None
        if "size" in fig:
            size = fig["size"]
            if not (isinstance(size, list) and len(size) == 2):
                raise doc.error(kp + ("size",), "size must be [width, height]", "[width, height] in mm")
            w, h = (_number(doc, v, kp + ("size", k), "size", validate.SIZE_MM) for k, v in enumerate(size))
        elif own is not None:  # the picture's own proportions at the text's width
            w = TEXT_W / mm
            h = w * own.size[1] / own.size[0]
        if own is None and (not isinstance(fig["pieces"], list) or not fig["pieces"]):
            raise doc.error(kp + ("pieces",), "pieces must be a non-empty list", "a list of {deck, piece, x, y}")
        placed = []
        for j, p in enumerate(fig["pieces"] if own is None else []):
            pk = kp + ("pieces", j)
            p = _mapping(doc, p, pk, PIECE_KEYS, "a placed piece")
            did = deck_id(p.get("deck"), pk + ("deck",))
            number = p.get("piece", 1)
            if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(decks[did].pieces):
                raise doc.error(pk + ("piece",), f"piece {validate.show(number)} is not in deck {did!r}",
                                f"1 to {len(decks[did].pieces)}, its pieces in the order the deck lists them: "
                                f"{_pieces_in_order(decks[did].pieces, game.lang)}")
            side = p.get("side", "front")
            if side not in SIDES:
                raise doc.error(pk + ("side",), f"side {validate.show(side)} is not a side of a piece",
                                "front (the default) or back")
            if side == "back" and not decks[did].back:
                raise doc.error(pk + ("side",), f"deck {did!r} is single-sided: its pieces have no back to show",
                                "side: front, or a back: in the deck file")
            placed.append(Placed(did, number, _number(doc, p.get("x"), pk + ("x",), "x"),
                                 _number(doc, p.get("y"), pk + ("y",), "y"),
                                 _number(doc, p.get("rotate", 0), pk + ("rotate",), "rotate", (-360.0, 360.0)), side))
        caption = fig.get("caption", "") or ""
        out.figures.append(FigureSpec(_in_language(doc, fig["after"], kp + ("after",), game),
                                      _in_language(doc, caption, kp + ("caption",), game),
                                      (w, h), placed, doc.where(kp).line or 0,
                                      _untranslated(doc, caption, kp + ("caption",), game), own))
        if own is not None and min(printed := printed_mm(out.figures[-1])) < MIN_PRINTED_MM:
            # (a 1 × 50000 picture, its own proportions kept, was a figure of nothing but its caption)
            px = " px" if own.kind == "raster" else ""
            raise doc.error(kp + ("picture",), f"{own.shown} ({own.size[0]:g} × {own.size[1]:g}{px}) prints "
                            f"{printed[0]:.3g} × {printed[1]:.3g} mm in its figure, too thin to see",
                            f"at least {MIN_PRINTED_MM:g} mm a side as printed: a picture of the shape the figure should "
                            f"have (at most the text's width, {TEXT_W / mm:.0f} mm, and {FIGURE_H / mm:g} mm tall), or a "
                            "larger size:")
    contents = raw.get("contents")
    if contents is not None and not isinstance(contents, bool):
        raise doc.error(("rulebook", "contents"), f"{validate.show(contents)} is no setting of it",
                        "true (a contents page after the cover, the default) or false (none: a short book, a handout)")
    out.contents = contents is not False
    quick = raw.get("quick_reference")
    if isinstance(quick, bool):
        out.quick_reference = quick
    elif quick is not None:
        if not isinstance(quick, dict):
            raise doc.error(("rulebook", "quick_reference"), f"{validate.show(quick)} is no setting of it",
                            "true (an 早見表 page), false (none) or {deck: summary} (with that deck's first piece)")
        out.quick_reference = True
        quick = _mapping(doc, quick, ("rulebook", "quick_reference"), ("deck",), "quick_reference")
        if "deck" in quick:
            at = ("rulebook", "quick_reference", "deck")
            out.quick_reference_deck = deck_id(quick["deck"], at)
            if not decks[out.quick_reference_deck].count:  # every piece parked: set aside, as the cover and components list leave it out
                out.parked_summary = (f"{doc.where(at)}: quick_reference deck {out.quick_reference_deck!r} prints nothing "
                                      "(every piece parked, count: 0), so the quick reference (早見表) shows no summary card (a count of 1 "
                                      "on its piece prints it and shows it)")
                out.quick_reference_deck = None
    proof = raw.get("proof")
    if proof is not None:
        proof = _mapping(doc, proof, ("rulebook", "proof"), ("ignore",), "proof")
        ignore = proof.get("ignore") or []
        if not isinstance(ignore, list) or not all(isinstance(w, str) and w.strip() for w in ignore):
            raise doc.error(("rulebook", "proof", "ignore"), "ignore must be a list of words",
                            "the words a finding of proof.txt quotes, e.g. [始めて, 創生エリア]")
        out.proof_ignore = [w.strip() for w in ignore]
    style = raw.get("style", "jlreq")
    if style not in STYLES:
        raise doc.error(("rulebook", "style"), f"unknown style {validate.show(style)}", " or ".join(STYLES))
    out.style = style
    if "booklet_sheets" in raw:
        sheets = raw["booklet_sheets"]
        if not isinstance(sheets, int) or isinstance(sheets, bool) or not 1 <= sheets <= 500:
            raise doc.error(("rulebook", "booklet_sheets"), f"booklet_sheets {validate.show(sheets)} is not a number of sheets",
                            f"a whole number from 1 to 500 (default {BOOKLET_SHEETS}: what a long-reach stapler goes through)")
        out.booklet_sheets, out.booklet_sheets_line = sheets, doc.where(("rulebook", "booklet_sheets")).line or 0
    colophon = raw.get("colophon")
    colophon = [] if colophon is None else colophon  # `colophon:` left empty: no lines of its own
    if not isinstance(colophon, list) or len(colophon) > COLOPHON_LINES:
        raise doc.error(("rulebook", "colophon"), "colophon must be a list of lines",
                        f"at most {COLOPHON_LINES} lines, e.g. [発行　星の市工房, 印刷　○○印刷]")
    for i, line in enumerate(colophon):
        if not isinstance(line, str) or not line.strip() or len(line) > COLOPHON_CHARS:
            raise doc.error(("rulebook", "colophon", i), f"{validate.show(line)} is not a line of text for the colophon",
                            f"a line of 1 to {COLOPHON_CHARS} characters (one line of the back page)")
    out.colophon = [line.strip() for line in colophon]
    if raw.get("edition") is not None:
        out.edition = _short_line(doc, raw, "edition", game, "初版 or 第2版 ({ja: 初版, en: First edition})")
    if raw.get("cover") is not None:
        out.cover = _short_line(doc, raw, "cover", game, "シナリオブック ({ja: シナリオブック, en: Scenario book})")
    out.untranslated = [said for key in ("cover", "edition") if raw.get(key) is not None and
                        (said := _untranslated(doc, raw[key], ("rulebook", key), game, f"rulebook {key}"))]
    if raw.get("cover_decks") is not None:
        named = raw["cover_decks"]
        named = [named] if isinstance(named, str) else named
        if not isinstance(named, list) or not 1 <= len(named) <= COVER_DECKS:
            raise doc.error(("rulebook", "cover_decks"), f"cover_decks {validate.show(raw['cover_decks'])} is no list of decks",
                            f"a deck, or a list of 1 to {COVER_DECKS} decks, whose first piece the cover shows, e.g. "
                            f"{next(iter(decks), 'counters')}")
        one = isinstance(raw["cover_decks"], str)  # (its error at the key's line, a list's at its item's)
        out.cover_decks = [deck_id(d, ("rulebook", "cover_decks") if one else ("rulebook", "cover_decks", i))
                           for i, d in enumerate(named)]
        for i, d in enumerate(out.cover_decks):  # (the cover pictured the deck's first piece twice)
            if d in out.cover_decks[:i]:
                raise doc.error(("rulebook", "cover_decks", i), f"cover_decks names deck {d!r} twice",
                                "each deck once (the cover shows each deck's first piece)")
        out.cover_left_out = [_left_off_cover(doc.where(("rulebook", "cover_decks") if one else ("rulebook", "cover_decks", i)),
                                              decks[d]) for i, d in enumerate(out.cover_decks)]
        out.cover_left_out = [w for w in out.cover_left_out if w]
    if sheet_asked(raw.get("sheet")):
        out.sheet = _sheet(doc, raw["sheet"], game)
    return out


def _sheet_paper(value: Any) -> str:
    """The rule sheet's paper: one the home sheets take, or JIS B5 or B4 (``RULE_SHEET_PAPERS``)."""
    name = validate.typed(value).lower() if isinstance(value, str) else value
    if name in RULE_SHEET_PAPERS and name not in PAPER_SIZES:
        return name
    try:
        return validate.paper(value)
    except validate.Invalid as e:
        raise validate.Invalid(e.message, f"{e.expected}, or b5 or b4 (JIS B5 182 × 257, B4 257 × 364 mm: "
                               "papers of the rule sheet alone)") from None


def _sheet_text(value: Any) -> float:
    """The rule sheet's ``text:`` size in points (``8.5pt``, ``8.5``), from ``SHEET_TEXT_LEAST`` to the book's."""
    expected = f"a size from {SHEET_TEXT_LEAST:g}pt to {SHEET_TEXT_PT:g}pt, e.g. 8.5pt (default {SHEET_TEXT_PT:g}pt, the book's)"
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(?:pt)?\s*", str(value)) \
        if isinstance(value, (int, float, str)) and not isinstance(value, bool) else None
    if m is None:
        raise validate.Invalid(f"text {validate.show(value)} is not a text size", expected)
    size = float(m.group(1))
    if not SHEET_TEXT_LEAST <= size <= SHEET_TEXT_PT:
        raise validate.Invalid(f"text {validate.show(value)} is out of range", expected)
    return size


def _sheet(doc: Located, value: Any, game: Game) -> SheetSpec:
    """``rulebook: sheet:``: true (every figure its default) or a mapping of ``SHEET_KEYS``, each
    checked at its line; columns narrower than ``SHEET_COLUMN_MM`` on the paper are refused (at a smaller
    ``text:``, narrower by as much: the sheet is set larger and scaled down)."""
    at = ("rulebook", "sheet")
    spec = SheetSpec(line=doc.where(at).line or 0)
    if value is True:
        return spec
    if not isinstance(value, dict):
        raise doc.error(at, f"{validate.show(value)} is no setting of the rule sheet",
                        "true (A4 or Letter landscape, two columns) or a mapping of " + ", ".join(SHEET_KEYS))
    value = _mapping(doc, value, at, SHEET_KEYS, "sheet")

    def parsed(key: str, parse: Any) -> Any:
        try:
            return parse(value[key])
        except validate.Invalid as e:
            raise doc.error(at + (key,), e.message, e.expected) from None

    if "paper" in value:
        spec.paper = parsed("paper", _sheet_paper)
    if "orientation" in value:
        spec.landscape = parsed("orientation", lambda v: validate.choice(v.strip().lower() if isinstance(v, str) else v,
                                                                              ORIENTATIONS, "orientation")) == "landscape"
    if "columns" in value:
        columns = value["columns"]
        if not isinstance(columns, int) or isinstance(columns, bool) or not 1 <= columns <= SHEET_COLUMNS_MAX:
            raise doc.error(at + ("columns",), f"columns {validate.show(columns)} is not a number of columns",
                            f"a whole number from 1 to {SHEET_COLUMNS_MAX} (default {SHEET_COLUMNS})")
        spec.columns = columns
    if "margin" in value:
        spec.margin_mm = parsed("margin", lambda v: validate.length(v, *SHEET_MARGIN_BOUNDS, what="margin"))
    if "gap" in value:
        spec.gap_mm = parsed("gap", lambda v: validate.length(v, *SHEET_GAP_BOUNDS, what="gap"))
    if "quick_reference" in value:
        spec.quick_reference = parsed("quick_reference", validate.flag)
    if value.get("time") is not None:
        spec.time = _short_line(doc, value, "time", game, "30分 or 20-40分 ({ja: 30分, en: 30 min})", at)
    if "text" in value:
        spec.text_pt = parsed("text", _sheet_text)
    if "pictures" in value:
        spec.pictures = parsed("pictures", validate.flag)
    if "fold" in value:
        spec.fold = parsed("fold", validate.flag)
        if spec.fold and not spec.landscape:
            raise doc.error(at + ("orientation",), "a folded sheet is landscape: its two halves, side by side, are its pages",
                            "orientation: landscape (or left out) with fold: true")
        if spec.fold and "columns" not in value:
            spec.columns = 1  # (a half sheet's page holds one column of the book's text)
    least = SHEET_COLUMN_MM * spec.scale  # (a smaller text: the column set at the book's size, then scaled down)
    for paper in [spec.paper] if spec.paper else ["a4", "letter"]:  # (the booklet's paper, whichever the build's is)
        if (column := spec.column_mm(paper)) < least - 1e-9:
            w, h = spec.page_mm(paper)
            on = f"a page of {paper} landscape folded in half" if spec.fold else \
                f"{paper} {'landscape' if spec.landscape else 'portrait'}"
            raise doc.error(at, f"{spec.columns} columns on {on} "
                            f"({w:g} × {h:g} mm, margin {spec.margin_mm:g} mm, gap {spec.gap_mm:g} mm) are "
                            f"{column:.1f} mm wide, too narrow for the book's text",
                            f"columns of at least {least:.1f}".removesuffix(".0") + " mm" + (
                                f" ({SHEET_COLUMN_MM:g} mm at the book's {SHEET_TEXT_PT:g} pt text, "
                                f"{spec.text_pt:g}/{SHEET_TEXT_PT:g} of it at text: {spec.text_pt:g}pt)" if spec.scale != 1 else "") + ": " + ("one column a page of a folded sheet, a larger "
                            "paper or a smaller margin" if spec.fold else "fewer columns, the paper landscape, or a smaller "
                            "margin or gap"))
    return spec


def _left_off_cover(at: Any, deck: Any) -> str:
    """Why the cover leaves out a deck ``cover_decks:`` names, said at its line (it went silently): it
    prints nothing, or its first printed piece shows a placeholder (未定, no art yet), which the cover
    never shows (book.py ``_cover``); else nothing."""
    if not deck.count:
        return (f"{at}: cover_decks: deck {deck.id!r} prints nothing (every piece parked, count: 0), so the cover "
                "leaves it out (a count of 1 on its first piece prints it, or name another deck)")
    shown = deck.shown
    if not shown.shows_placeholder:
        return ""
    return (f"{at}: cover_decks: deck {deck.id!r}: its first printed piece, {shown.label}, shows a placeholder "
            f"(未定 or no art yet, at {shown.open[0][0]}), so the cover leaves it out (settle that value, or name "
            "another deck)")


def _own_picture(doc: Located, value: Any, keypath: tuple, game: Game) -> OwnPicture:
    """A figure's ``picture:`` (or the build's language's of ``{ja: …, en: …}``): a file of the
    game's art/ found and measured as the cards' art is (inside the workspace, PNG, JPEG, WebP or
    SVG, readable, not too big), any fault an error at its line."""
    name = _in_language(doc, value, keypath, game) if isinstance(value, dict) else value
    where = doc.where(keypath)
    info = ArtFolder(Path(game.root)).info(name, where, "picture")
    if not all(info.size):
        raise doc.error(keypath, f"{info.name} has no size", "a picture of some width and height")
    return OwnPicture(name, info.name, info.path, info.kind, info.size, where.line or 0)


def _short_line(doc: Located, raw: dict, key: str, game: Game, example: str, under: tuple = ("rulebook",)) -> str:
    """``rulebook: <key>:`` (``under`` another mapping: the sheet's ``time:``) in this edition's
    language: one line of 1 to ``EDITION_CHARS`` characters (the cover's top line, the edition on
    the back page, the sheet's playing time)."""
    line = _in_language(doc, raw[key], under + (key,), game).strip()
    if not line or len(line) > EDITION_CHARS or "\n" in line:
        raise doc.error(under + (key,), f"{key} {validate.show(raw[key])} is not a short line of text",
                        f"1 to {EDITION_CHARS} characters on one line, e.g. {example}")
    return line


PIECES_NAMED = 6  # the pieces a wrong figure piece: number is shown, the first five and the last


def _pieces_in_order(pieces: Sequence[Any], lang: str) -> str:
    """The numbers a figure's ``piece:`` takes, each with its piece's name (a deck kept in a
    spreadsheet numbers its rows from 1, not from the sheet's line): ``1 Marsh, 2 Dune, …, 10 Isle``;
    a name several share with what tells it apart, as the change report names it (``1 月［1］, 2
    月［2］``: a suit's cards read 「1 月, 2 月, …」, loop51)."""
    names = names_told_apart(pieces, lang)
    named = [f"{k} {clipped(names.get(p.index, p.label), SAID_LABEL)}" for k, p in enumerate(pieces, 1)]
    return ", ".join(named if len(named) <= PIECES_NAMED else named[:PIECES_NAMED - 1] + ["…", named[-1]])
