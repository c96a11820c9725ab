"""The ``image()`` template helper: place a piece's artwork in a box, and check its resolution.

``image(path, x, y, w, h, fit="cover", focus=None, clip=None, background=None)`` emits an
SVG ``<image>`` in mm. ``fit``: ``cover`` fills the box and crops what overflows (``focus=(fx,
fy)``, each 0..1, picks the part kept: (0.5, 0.5) the centre, (0.5, 0) the top), ``contain``
shows all of it inside the box (``focus`` aligns it), ``stretch`` fills the box, distorting.
``clip`` is SVG path data (e.g. ``outline(-1)``) the art is clipped to; ``background`` (a
palette name or ``#rrggbb``) is the colour transparent parts are flattened onto; without it, the
plain colour drawn beneath the picture (``faces/ground.py``), else white with a warning.

A value of ``未定``, an empty value or none draws a placeholder frame with the piece's name, so
prototypes print before the art exists. Every raster placement is measured: below the minimum
resolution (``--min-dpi``, 300 by default) the build warns, and :meth:`ArtPlacer.images` lists
every placement with its dpi for the manifest. One placed finer than 1.5 times the resolution
ceiling (``--max-dpi``, 600 by default) is resampled to the ceiling at the size it prints: the
pixels it gets are written in its href (``#px=WxH``, data/pixels.py ``ceiling_size``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from pnpgen.data.art import ArtFolder, Sizes, with_background, with_fragment
from pnpgen.data.artfile import ArtInfo, may_be_dim, pixels_of, upright_cmyk_jpeg
from pnpgen.data.formats import MAX_DPI, MIN_DPI, SAFE_MM
from pnpgen.data.markup import literal
from pnpgen.data.model import PLACEHOLDER_COLOUR, Deck, Game, Piece, is_placeholder, placeholder_note
from pnpgen.data.pixels import ceiling_size
from pnpgen.errors import InputError
from pnpgen.faces.ground import PAPER, ground_beneath
from pnpgen.litter import is_litter
from pnpgen.memo import Stamps
from pnpgen.messages import msg
from pnpgen.patterns import later
from pnpgen.safetext import same_file
from pnpgen.svg.image import placed_image
from pnpgen.svg.style import SVG_NS, XLINK_HREF
from pnpgen.units import MM_PER_INCH, mm_to_pt, num, pt_to_mm

FITS = ("cover", "contain", "stretch")
HELPER_ATTRIBUTE = "data-pnpgen-image"  # marks the <image> image() writes (measured there, not again)
PLACED_BY_HELPER = f'{HELPER_ATTRIBUTE}=""'


def _n(v: float) -> str:
    return num(v, 4)


# the pixels that would do, as a figure's picture is told them (rulebook/ownpics.py): a designer sizing the picture
# again had only the dpi, and 299.7 of 300 to work out into pixels
LOW_DPI = ("{where}: deck {deck}, piece {piece}: {name}: {dpi} dpi at {w}×{h} mm, {wanted} wanted "
           "({need_w:,} × {need_h:,} px would do)")
SEE_THROUGH = ("{where}: deck {deck}: {name} has see-through pixels over something other than one plain colour: "
               "they print on white (print files carry no transparency); image(…, background=\"#rrggbb\") names "
               "the colour beneath it, or save the picture with that ground")
DIM_16_BIT = ("{where}: deck {deck}: {name} is a 16-bit picture whose brightest value is {brightest} of 65535: it prints "
              "near black (a print file keeps the top 8 bits of each value); 8-bit values written into 16 bits unscaled "
              "(Pillow's convert(\"I;16\") writes them so) — save the picture as 8-bit, or scale its values to 0–65535")
CASE_TWINS = ("art files {names} differ only in letter case or in how a character is written: one file on Windows "
              "and macOS, which would print the same picture for both ({used}); rename one of them and its uses")
LOW_DPI_LINE = later(r"^(?P<where>.*): deck (?P<deck>\S+), piece (?P<piece>.*?): (?P<name>.*?): (?P<dpi>under 1|\d+(?:\.\d)?) dpi at "
                          r"(?P<box>\S+) mm, (?P<wanted>[\d.]+) wanted \([\d,]+ × [\d,]+ px would do\)$")


def _composed(name: str) -> str:
    """How a name written decomposed is told apart from its twin, which looks the same on screen
    (``ガ`` and ``カ`` + ``゛``: "art/ガ.png and art/ガ.png differ…" named neither)."""
    return "" if unicodedata.is_normalized("NFC", name) else " (written decomposed, as macOS writes names)"


def short_of(dpi: float, wanted: float) -> str:
    """A resolution below ``wanted`` as the warning says it: whole dots, unless they would round
    up to the figure wanted (299.7 said as 300 dpi, "300 wanted"): then to the tenth, rounded down;
    below one dot, "under 1" (a 1×1 picture on a card was "0 dpi", as if it had no pixels)."""
    if dpi < 1:
        return "under 1"
    return f"{dpi:.0f}" if round(dpi) < wanted else f"{math.floor(dpi * 10) / 10:.1f}"


def dpi_of(said: str) -> float:
    """The resolution a low-dpi warning says (``short_of``), as a number to sort by: "under 1" is 0."""
    return 0.0 if said == "under 1" else float(said)


def _said(dpi: float, wanted: float, enough: bool) -> float:
    """The resolution the manifest records: as the warning says it, so a picture just short of the
    figure is never recorded as the figure itself (299.9, not 300, beside ``enough: false``)."""
    if dpi < 1:  # (not "0": to the hundredth, rounded down — a 1×1 picture on a card is 0.36)
        return math.floor(dpi * 100) / 100
    text = f"{dpi:.0f}" if enough else short_of(dpi, wanted)
    return float(text) if "." in text else int(text)


def enough_pixels(pixels: tuple[float, float], drawn_mm: tuple[float, float], wanted: float) -> bool:
    """Whether a picture has the pixels ``wanted`` dpi asks for at the size it is drawn, each side
    counted to the nearest pixel, as a designer sizes one: 815×1110 px for 69×94 mm at 300 dpi
    (1110.2 px asked) is enough, though it is 299.9 dpi."""
    return all(p >= round(d / MM_PER_INCH * wanted) for p, d in zip(pixels, drawn_mm, strict=True))


def pixels_for(pixels: tuple[float, float], drawn_mm: tuple[float, float], wanted: float) -> tuple[int, int]:
    """Pixels that ``enough_pixels`` takes at ``wanted`` dpi: a picture drawn in its own proportions
    (cover, contain) grown alike both ways, as its drawn size follows them; one stretched to its box
    (drawn in other proportions) each side what the box asks."""
    asked = [round(d / MM_PER_INCH * wanted) for d in drawn_mm]
    if abs(pixels[0] * drawn_mm[1] - pixels[1] * drawn_mm[0]) > 0.005 * pixels[0] * drawn_mm[1]:
        return asked[0], asked[1]
    grow = max(a / p for a, p in zip(asked, pixels, strict=True))
    return math.ceil(pixels[0] * grow - 1e-6), math.ceil(pixels[1] * grow - 1e-6)


def more_low_dpi(deck: str, rest: list[re.Match]) -> str:
    """The line counting a deck's pictures below the dpi not named one by one (lowest first). One
    file every piece shows (a card back from ``defaults:``) is named, not counted as that many
    pictures (trial60: "238 more pictures below 300 dpi" were one back.png on 238 cards)."""
    least, most, wanted = rest[0]["dpi"], rest[-1]["dpi"], rest[0]["wanted"]
    check = "pnpgen check" if float(wanted) == MIN_DPI else f"pnpgen check --min-dpi {wanted}"  # (a shop's figure: 350)
    files = {m["name"] for m in rest}
    if len(files) == 1:
        what = f"{len(rest)} more pieces show {rest[0]['name']}"
    elif len(files) < len(rest):
        what = f"{len(rest)} more pieces show {len(files)} pictures"
    else:
        what = f"{len(rest)} more pictures"
    return f"deck {deck}: {what} below {wanted} dpi ({least}{'' if least == most else f'–{most}'} dpi; {check} lists each)"


class ArtPlacer:
    """One game's art for its templates: the files (``folder``, whose ``resolver`` the SVG→PDF
    converter uses) and every placement made so far, with its dpi."""

    def __init__(self, game: Game, templates, min_dpi: float, warnings: list[str],
                 printed: Mapping[str, float] | None = None, stamps: Stamps | None = None, max_dpi: float = MAX_DPI,
                 deck_dpi: Mapping[str, float] | None = None, sizes: Sizes | None = None):
        self.folder = ArtFolder(game.root, templates / game.slug, sizes=sizes, stamps=stamps)
        self.min_dpi = float(min_dpi)
        self.max_dpi = float(max_dpi)  # the resolution ceiling (0: none): finer art is resampled to it
        # a CMYK export sends an upright CMYK JPEG's own inks (exports/export.py cmyk_pictures): such a
        # picture is placed as it is there, never resampled (its RGB stand-in must be the whole picture's)
        self.cmyk_kept = False
        # deck id → how much larger its faces print than they are drawn (an export's --fit scale):
        # a picture's dpi is its pixels over the size it prints at
        self.printed = dict(printed or {})
        # deck id → the dpi its pictures are wanted at instead (a Tabletop Simulator board's image, 4096 px a
        # side at most, holds less than the table's 200 dpi: a sharper picture shows no sharper)
        self.deck_dpi = dict(deck_dpi or {})
        self.art_to_come = msg("art.placeholder", game.lang)  # the label of a frame where art will go
        self.warnings = warnings
        self._placements: dict[tuple, dict[str, Any]] = {}
        self._order: list[tuple] = []  # the placements' keys in the order they were made
        # (kind, deck, art file) warned of once a deck and file: a see-through picture printing on
        # white ("on_white"), a 16-bit one printing near black ("dim"); ``once_asked``: every such warning a
        # face drawn asked for, said or not, which a render remembered replays (``replay_once``);
        # ``once_said``: the lines said so
        self._once: set[tuple[str, str, str]] = set()
        self.once_asked: list[list[str]] = []
        self.once_said: list[str] = []

    def count(self) -> int:
        """How many placements were made so far (for ``placements_since``)."""
        return len(self._order)

    def images(self) -> list[dict[str, Any]]:
        """Every placement (deck, piece, file, pixels, box in mm, dpi), once each, in build order,
        its keys in one order whether it was just made or replayed from the cache (whose JSON
        sorts them), so an incremental build writes the manifest a cold one writes."""
        order = ("file", "deck", "piece", "kind", "pixels", "box_mm", "dpi", "enough")
        return [{**{k: p[k] for k in order if k in p}, **{k: p[k] for k in sorted(p) if k not in order}}
                for p in self._placements.values()]

    def placements_since(self, n: int) -> list[list]:
        """The placements made after the first ``n`` (for a render remembered between builds):
        only those are visited, so remembering every face of a deck costs its placements once."""
        return [[list(k), self._placements[k]] for k in self._order[n:]]

    def replay(self, placements: list[list], piece: Piece) -> None:
        """Placements a remembered render made, as if it had just run for ``piece``: the memo keeps
        a render by what it reads, not by the piece's index, so one drawn for a piece that has
        since moved in its deck is listed under the index and label the piece has now."""
        for key, value in placements:
            if key[1] != piece.index or value.get("piece") != piece.label:
                key, value = [key[0], piece.index, *key[2:]], {**value, "piece": piece.label}
            self._add(tuple(key), value)

    def _add(self, key: tuple, value: dict[str, Any]) -> None:
        if key not in self._placements:
            self._placements[key] = value
            self._order.append(key)

    def tools(self, deck: Deck, piece: Piece, template: str, textbox: Callable, colour: Callable) -> dict[str, Any]:
        """The ``image`` helper for one face's template context."""
        # its mistakes name no template nor piece: the renderer adds the template's line and the piece
        ids = iter(range(1, 1_000_000))

        def image(path: Any, x: float, y: float, w: float, h: float, fit: str = "cover",
                  focus: tuple[float, float] | None = None, clip: str | None = None,
                  background: str | None = None) -> Markup:
            x, y, w, h = float(x), float(y), float(w), float(h)
            for name, value in (("w", w), ("h", h)):
                if not 0 < value <= 10_000:  # a negative or zero box has no resolution to speak of; NaN fails too
                    raise InputError(f"image(): {name}={value:g}", key=name, expected="a size from above 0 to 10000 mm")
            for name, value in (("x", x), ("y", y)):
                if not -10_000 <= value <= 10_000:
                    raise InputError(f"image(): {name}={value:g}", key=name, expected="a position from -10000 to 10000 mm")
            if fit not in FITS:
                raise InputError(f"image(): unknown fit {fit!r}", expected=" | ".join(FITS))
            if path is None or (isinstance(path, str) and not path.strip()) or is_placeholder(path):
                note = placeholder_note(path)  # art: 未定 dragon.png — the file to come, named on the frame
                return _placeholder(x, y, w, h, "\n".join(literal(t) for t in (self.art_to_come, piece.own_name, note) if t),
                                    textbox, deck.trim_mm)
            fx, fy = _focus(focus)
            info = self.folder.info(str(path), key="image", in_templates=True)
            iw, ih = info.size
            dw, dh = w, h
            if fit != "stretch":
                s = (max if fit == "cover" else min)(w / iw, h / ih)
                dw, dh = iw * s, ih * s
            dx, dy = x + (w - dw) * fx, y + (h - dh) * fy
            size = None  # the pixels it is resampled to under the resolution ceiling (None: as it is)
            if info.kind == "raster":
                dpi = self._measure(deck, piece, info.name, (iw, ih), (w, h), (dw, dh))
                size = ceiling_size((iw, ih), dpi, self.max_dpi)
                if size is not None and self.cmyk_kept and upright_cmyk_jpeg(info.path):
                    size = None
            else:
                self._vector(deck, piece, info.name, (w, h))
            # none given: the colour beneath it on the face, found once the face is drawn (ground())
            bg = None if background is None else colour(background).lstrip("#").lower()
            # a URI reference: '%', '#', spaces and non-ASCII in file names survive resolve()'s unquoting
            href = with_fragment(quote(str(path), safe="/"), bg, size)
            svg = (f'<image {PLACED_BY_HELPER} x="{_n(dx)}" y="{_n(dy)}" width="{_n(dw)}" height="{_n(dh)}" '
                   f'preserveAspectRatio="none" href="{escape(href)}"/>')
            n = next(ids)
            if clip:
                svg = (f'<clipPath id="art{n}c"><path d="{escape(clip)}"/></clipPath>'
                       f'<g clip-path="url(#art{n}c)">{svg}</g>')
            if dw > w + 1e-6 or dh > h + 1e-6:  # cover overflows the box: crop to it
                svg = (f'<clipPath id="art{n}"><rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"/>'
                       f'</clipPath><g clip-path="url(#art{n})">{svg}</g>')
            return Markup(svg)

        return {"image": image}

    def check_hrefs(self, svg, template: Path, where: str) -> list[tuple[ArtInfo, tuple, tuple]]:
        """Every file a plain ``<image href>`` of a rendered face names is found and readable;
        otherwise an error naming the template file and the line the href is written on (svglib
        or a later stage would only drop or half-report it). Returns each placement (the file,
        its box and drawn size in mm) for :meth:`place`."""
        found = []
        for el in svg.iter(f"{{{SVG_NS}}}image"):
            href = (el.get("href") or el.get(XLINK_HREF) or "").strip()
            if not href or href.startswith(("data:", "#")):
                continue
            try:
                info = self.folder.check(href)
            except InputError as e:
                path, line = self.written_at(href, template)
                raise InputError(" ".join(f"{where}: {e.message}".split()), path=path, line=line, key="href",
                                 expected=e.expected) from None
            placed = None if el.get(HELPER_ATTRIBUTE) is not None else placed_image(el, info.size)
            if placed is not None:  # (image() measured its own)
                found.append((info, *placed))
        return found

    def ground(self, svg, deck: Deck, piece: Piece) -> bool:
        """Give each picture of a face with see-through pixels and no background of its own the
        colour beneath it (``ground_beneath``) to be flattened onto, or warn, once a deck and
        file, that they print on white; and warn, once a deck and file, of a 16-bit picture whose
        values all lie near black (``pixels_of``). Returns whether an ``href`` changed."""
        changed = False
        for el in svg.iter(f"{{{SVG_NS}}}image"):
            attr = "href" if el.get("href") is not None else XLINK_HREF
            href = (el.get(attr) or "").strip()
            if not href or href.startswith(("data:", "#")) or "bg=" in href.partition("#")[2]:
                continue
            info = self.folder.check(href)
            if info.kind != "raster":
                continue
            if may_be_dim(info.path):  # (a 16-bit grey PNG by its header: only such a picture is decoded for it)
                brightest = pixels_of(info.path)[1]
                if brightest is not None:
                    self.warn_once(["dim", deck.id, info.name, str(brightest)], piece)
            if not self.folder.see_through(info.path):
                continue
            found = ground_beneath(el)
            if found is None:
                self.warn_once(["on_white", deck.id, info.name, ""], piece)
            elif found != PAPER:
                el.set(attr, with_background(href, found))
                changed = True
        return changed

    def warn_once(self, asked: list[str], piece: Piece) -> None:
        """Warn of ``asked`` (kind, deck, art file, the figure it says) once a deck and file, at
        the first piece whose face shows it — in a build that replays remembered faces as in a
        cold one: the faces replayed ask again (``replay_once``), so the card that warned edited
        or deleted leaves the warning to the next card showing the file (insert46)."""
        self.once_asked.append(asked)
        kind, deck, name, figure = asked
        if (kind, deck, name) in self._once:
            return
        self._once.add((kind, deck, name))
        said = (DIM_16_BIT.format(where=piece.where, deck=deck, name=name, brightest=figure) if kind == "dim"
                else SEE_THROUGH.format(where=piece.where, deck=deck, name=name))
        self.warnings.append(said)
        self.once_said.append(said)

    def replay_once(self, asked: Any, piece: Piece) -> None:
        """The once-a-deck-and-file warnings a remembered face asked for, asked again for ``piece``."""
        for entry in asked if isinstance(asked, list) else ():
            if isinstance(entry, list) and len(entry) == 4 and all(isinstance(v, str) for v in entry) \
                    and entry[0] in ("dim", "on_white"):
                self.warn_once(list(entry), piece)

    def place(self, deck: Deck, piece: Piece, found: list[tuple[ArtInfo, tuple, tuple]]) -> None:
        """List a face's plain ``<image>`` placements (from :meth:`check_hrefs`) for ``piece``,
        measured like image()'s."""
        for info, box, drawn in found:
            if info.kind == "raster":
                self._measure(deck, piece, info.name, info.size, box, drawn)
            else:
                self._vector(deck, piece, info.name, box)

    def written_at(self, written: str, template: Path) -> tuple[Path, int | None]:
        """The template file and line a value (an href, a font name) is written on: the face's
        template, else another template of the game (a macro or include); a computed value
        gives the face's template."""
        others = sorted(p for p in self.folder.templates.rglob("*.j2")  # (an editor's lock link: no file)
                        if p.is_file() and not is_litter(p.name)) if self.folder.templates else []
        for path in [template, *(p for p in others if p != template)]:
            for n, text in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):  # (another not UTF-8: its own error)
                if written in text:
                    return path, n
        return template, None

    def _measure(self, deck: Deck, piece: Piece, name: str, pixels, box, drawn) -> float:
        """The placement listed (and warned of when its dpi is low); its dpi at the size it prints."""
        scale = self.printed.get(deck.id, 1.0)
        box, drawn = (box[0] * scale, box[1] * scale), (drawn[0] * scale, drawn[1] * scale)
        dpi = min(pixels[0] / (drawn[0] / MM_PER_INCH), pixels[1] / (drawn[1] / MM_PER_INCH))
        key = (deck.id, piece.index, name, round(box[0], 2), round(box[1], 2), round(dpi, 1))
        if key in self._placements:
            return dpi
        wanted = self.deck_dpi.get(deck.id, self.min_dpi)
        enough = dpi >= wanted or enough_pixels(pixels, drawn, wanted)
        self._add(key, {
            "file": name, "deck": deck.id, "piece": piece.label, "kind": "raster",
            "pixels": [int(pixels[0]), int(pixels[1])],
            "box_mm": [round(box[0], 2), round(box[1], 2)], "dpi": _said(dpi, wanted, enough), "enough": enough,
        })
        if not enough:
            need = pixels_for(pixels, drawn, wanted)
            self.warnings.append(LOW_DPI.format(where=piece.where, deck=deck.id, piece=piece.label, name=name,
                                                dpi=short_of(dpi, wanted), w=f"{round(box[0], 1):g}", h=f"{round(box[1], 1):g}",
                                                wanted=f"{wanted:g}", need_w=need[0], need_h=need[1]))
        return dpi

    def case_twins(self, game: Game) -> list[str]:
        """One warning for each set of art files the faces placed whose names differ only in letter
        case or in how a character is written (``art/a.png`` and ``art/A.png``): two files on Linux,
        one on Windows and macOS, where the game would print one picture for both. Each file is
        named with the first data line that places it (a deck's pieces by their file:line)."""
        pieces = {(d.id, p.index): p for d in game.decks for p in d.pieces}
        first: dict[str, str] = {}  # art file → the first piece's file:line that places it
        for key in self._order:
            name = key[2]
            piece = pieces.get((key[0], key[1]))
            if name not in first:
                first[name] = str(piece.where) if piece is not None else f"deck {key[0]}"
        alike: dict[str, list[str]] = {}
        for name in first:
            alike.setdefault(same_file(name), []).append(name)
        return [CASE_TWINS.format(names=" and ".join(sorted(names)),
                                  used="; ".join(f"{n}{_composed(n)} at {first[n]}" for n in sorted(names)))
                for names in alike.values() if len(names) > 1]

    def _vector(self, deck: Deck, piece: Piece, name: str, box) -> None:
        """An SVG art placement: drawn as vectors, so sharp at any size (no dpi)."""
        key = (deck.id, piece.index, name, round(box[0], 2), round(box[1], 2), None)
        self._add(key, {
            "file": name, "deck": deck.id, "piece": piece.label, "kind": "vector",
            "box_mm": [round(box[0], 2), round(box[1], 2)], "dpi": None, "enough": True,
        })


def _focus(focus: Any) -> tuple[float, float]:
    """(The template's line, deck and piece are added by the renderer, faces/failure.py.)"""
    if focus is None:
        return 0.5, 0.5
    try:
        fx, fy = (float(v) for v in focus)
        if 0 <= fx <= 1 and 0 <= fy <= 1:
            return fx, fy
    except (TypeError, ValueError):
        pass
    raise InputError(f"image(): focus {focus!r}", expected="(fx, fy), each from 0 (left/top) to 1 (right/bottom)")


LABEL_PT = (9.0, 36.0)  # the placeholder's label: its type size at least and at most (pt)
LABEL_SHARE = 0.1  # … else a tenth of the art box's shorter side
LABEL_MIN_PT = 4.0  # … shrunk to this, at the least, rather than leave its box
LABEL_LINES = 3.5  # its box: two lines at 1.35 and room round them, in type sizes (a third: 1.35 more)
HATCH_COLOUR = "#f7b3d8"  # the placeholder magenta at 30 %: a light pattern, no line to cut, fold or glue on
HATCH_MM = (2.0, 12.0)  # the hatch's spacing: at least and at most (mm) …
HATCH_SHARE = 1 / 12  # … else a twelfth of the box's shorter side (a dozen lines across a card's art)


def _placeholder(x: float, y: float, w: float, h: float, label: str, textbox: Callable,
                 trim: tuple[float, float]) -> Markup:
    """A visible frame where art will go: a light cross-hatch in a thin solid frame, and ``label``
    (「画像未定」 or "Art to come" in the game's language, the piece's name, the note after 未定).
    No dashed line and no line corner to corner: a board's glue strip and a tile's guide are
    dashed magenta lines, and a placeholder must never pass for either, nor for a cut."""
    step = min(HATCH_MM[1], max(HATCH_MM[0], min(w, h) * HATCH_SHARE))
    frame = (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="#f7f7f7" stroke="none"/>'
             f'<path d="{_hatch(x, y, w, h, step)}" stroke="{HATCH_COLOUR}" stroke-width="0.25" fill="none"/>'
             f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="none" stroke="{HATCH_COLOUR}" '
             f'stroke-width="0.5"/>')
    # The label on white, so the hatch never runs through the name; its type grows with the box
    # (9 pt on a card's art, 36 pt on a board's, where 9 pt was lost) and its box holds its lines,
    # within the art's box: the text shrinks (to 4 pt) rather than leave it.
    size = min(LABEL_PT[1], max(LABEL_PT[0], mm_to_pt(min(w, h) * LABEL_SHARE)))
    lines = LABEL_LINES + 1.35 * max(0, label.count("\n") - 1)
    lw, lh = w * 0.8, min(h * 0.5, pt_to_mm(size) * lines)
    lx, ly = x + (w - lw) / 2, y + (h - lh) / 2
    # … and inside the piece's safe zone, as the built-in layouts keep text: a full-bleed art box
    # (a standee's figure) put the label within 2 mm of the cut, named by the print lint
    lx, lw = _within(lx, lw, trim[0])
    ly, lh = _within(ly, lh, trim[1])
    if lh < pt_to_mm(LABEL_MIN_PT) * 1.35:  # a box no line of the label fits (a 2 mm slot; 0.01 mm stopped the build)
        return Markup(frame)
    label_ground = f'<rect x="{_n(lx)}" y="{_n(ly)}" width="{_n(lw)}" height="{_n(lh)}" fill="#ffffff"/>'
    text = textbox(label, lx, ly, lw, lh, size=size, min_size=LABEL_MIN_PT, align="center", valign="middle",
                   fill=PLACEHOLDER_COLOUR)
    return Markup(frame + label_ground) + text


def _within(start: float, length: float, trim: float) -> tuple[float, float]:
    """``start``, ``length`` cut to the safe zone of a trim ``trim`` long, where at least half of
    the length is left (a box the safe zone leaves nothing of keeps its place)."""
    low, high = max(start, SAFE_MM), min(start + length, trim - SAFE_MM)
    return (low, high - low) if high - low >= length / 2 else (start, length)


def _hatch(x: float, y: float, w: float, h: float, step: float) -> str:
    """Path data of a cross-hatch over the box, each line cut at the box's edges: lines at 45° both
    ways, ``step`` mm apart, from the box's top-left corner (so the same box gets the same lines)."""
    parts = []
    k = step
    while k < w + h - 1e-9:  # the line x' + y' = k (down-left) and x' - y' = k - h (down-right), inside the box
        x0, y0 = min(k, w), k - min(k, w)
        x1, y1 = k - min(k, h), min(k, h)
        parts.append(f"M{_n(x + x0)},{_n(y + y0)} L{_n(x + x1)},{_n(y + y1)}")
        c = k - h  # x' - y' = c
        x0, y0 = max(c, 0), max(c, 0) - c
        x1, y1 = min(w, h + c), min(w, h + c) - c
        parts.append(f"M{_n(x + x0)},{_n(y + y0)} L{_n(x + x1)},{_n(y + y1)}")
        k += step
    return " ".join(parts)
