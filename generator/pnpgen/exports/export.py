"""``pnpgen export``: a game's pieces as one print shop or virtual table takes them.

Everything is made in memory; ``engine/export.py`` writes it only when the whole export
succeeded, and removes files a previous export of the same preset wrote and this one does not,
so the folder always holds exactly one export.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shlex
from collections.abc import Callable
from dataclasses import astuple, dataclass, field, replace
from pathlib import Path

from PIL import Image

from pnpgen import fonts as fontreg
from pnpgen.data.art import art_files
from pnpgen.data.artfile import orientation, print_bytes
from pnpgen.data.formats import MIN_DPI
from pnpgen.data.gamefiles import deck_ids_in
from pnpgen.data.i18n import other_editions
from pnpgen.data.lint import LintSettings
from pnpgen.data.load import check_bleed, load_game, max_dpi_of
from pnpgen.data.model import EMPTY_PAINTED, Deck, Game, OpenValue, open_value_said, open_values_once, placeholder_word
from pnpgen.data.names import NAME_MAX, check_preset_folder, same_file
from pnpgen.data.workspace import Workspace, workspace_relative
from pnpgen.errors import InputError, Where, place, suggest
from pnpgen.exports import contact, heap, shop, tts, ttscards, ttsids, ttspieces, ttstable
from pnpgen.exports.book import shop_rulebook
from pnpgen.exports.faces import EarlierImages, PageStyle, PngFiles, unique_faces
from pnpgen.exports.options import ExportOptions
from pnpgen.exports.order import EXPORT_ORDER_COLUMNS, OrderRow, order_csv
from pnpgen.exports.presets import FITS, PDF_LAYOUTS, Fitted, NotTaken, Preset, available, fit_deck, load_preset
from pnpgen.exports.spill import Spill
from pnpgen.faces.convert import convert_faces
from pnpgen.faces.faceset import RenderedGame, render_game
from pnpgen.faces.grouped import grouped_per_deck
from pnpgen.faces.printlint import OnFormat, lint_faces
from pnpgen.messages import msg
from pnpgen.pdf.assemble import PdfFile, SourceChanged
from pnpgen.pdf.imagestream import ImageStream, make_stream
from pnpgen.pdf.pdfx import REGISTERED_CONDITIONS, OutputCondition
from pnpgen.pdf.raster import ImageStreams
from pnpgen.safetext import clipped, one_line, shown_name
from pnpgen.units import MM_PER_PT


@dataclass(frozen=True)
class LeftOut:
    """A deck the preset cannot take, why, and what would take it."""

    deck: Deck
    error: NotTaken
    takers: tuple[str, ...]  # other presets (with --fit when needed), the build's shop file

    @property
    def why(self) -> str:
        return self.error.message

    @property
    def takes_it(self) -> str:
        return "takes it: " + ", ".join(self.takers)

    @property
    def resize(self) -> str:
        """The shop's own size written in the deck file, which prints it with no --fit ("" if none)."""
        e = self.error
        return f"; or, with no --fit, {e.resize} in {place(e.path, e.line, e.column)}" if e.resize and e.path else ""

    @property
    def warning(self) -> str:
        """Started with the deck file's ``size:`` (or ``format:``) line, the size the preset does
        not take; a deck whose file writes none, as the build's warnings are (``Deck.where``: a
        layout deck's ``layout:``, which sizes it)."""
        return f"{_size_line(self.deck)}: left out: {self.why}; {self.takes_it}{self.resize}"


@dataclass
class ExportResult:
    """One export for a print shop or a table-top program, before it is written: its files, the order lines, what
    was left out and why, and its warnings."""

    game: Game
    out_dir: Path  # <out root>/<game>/[<lang>/]<preset>/
    out_root: Path  # the output folder (build/, or --out): its lock, journal and cache
    files: dict[str, bytes] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    order: list[OrderRow] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    black: list[str] = field(default_factory=list)  # CMYK: what was made 100 % K with overprint
    made: dict[str, str] = field(default_factory=dict)  # image file → what it was made from (EarlierImages)
    owners: dict[str, str] = field(default_factory=dict)  # file → the deck it is of ("": the contact sheets, order)
    book: bool = False  # the rulebook's pages (files: rulebook): the one export that shows the draft
    spill: Spill = field(default_factory=Spill)  # where its big files were written out: ``close`` once committed


def export_game(ws: Workspace, slug: str, options: ExportOptions,
                earlier: Callable[[str], bytes | PdfFile | None] | None = None) -> ExportResult:
    """The export in memory. ``earlier``: the images the last export of this preset made, by
    what each was made from (a Tabletop Simulator sheet or piece made from the same is taken as
    written: ``EarlierImages``); ``ExportResult.made`` records this export's."""
    game = load_game(ws, slug, lang=options.lang)
    preset = load_preset(ws, slug, options.preset).in_language(game.lang)
    check_preset_folder(game, preset.slug, available(ws, slug))
    colour = options.colour or preset.colour
    if colour == "cmyk" and preset.files in ("png-faces", "tts"):
        raise InputError(f"{preset.name} takes RGB images, so --colour cmyk does not apply", key="--colour",
                         expected="--colour rgb, or a PDF preset such as drivethrucards or doujin")
    # The preset's PDF/X is for its colour: --colour rgb alone asks for a plain RGB PDF. A proof's
    # lines print: it is never PDF/X, so a shop's upload check turns it away if it is sent.
    if options.proof and options.pdfx in ("x1a", "x1a-2001"):
        raise InputError("--proof draws the trim, bleed and safe lines on every page, and they print: a proof is "
                         "no PDF/X file for the shop", key="--pdfx", expected="--proof alone (a plain PDF to check), "
                         "or --pdfx x1a without --proof")
    default_pdfx = preset.pdfx if colour == "cmyk" and not options.proof else "none"
    pdfx = _pdfx(preset, options.pdfx or default_pdfx, colour)
    edition = "2001" if (options.pdfx or default_pdfx) == "x1a-2001" else "2003"  # PDF/X-1a's, with pdfx
    outline = preset.outline_text if options.outline_text is None else options.outline_text
    if outline and preset.files not in PDF_LAYOUTS:
        raise InputError(f"{preset.name} takes images, so --outline-text does not apply", key="--outline-text",
                         expected="a PDF preset such as doujin or drivethrucards")
    if preset.files == "rulebook":
        return _rulebook(ws, game, preset, options, colour == "cmyk", shop.Finish(pdfx, str(game.date), outline, edition))
    decks, fitted, left_out = _fit_decks(ws, game, preset, options)
    _check_pixels(preset, decks, fitted)
    id_base = ttsids.DECK_ID_BASE if options.deck_id_base is None else options.deck_id_base
    if preset.files == "tts":  # a deck too big for its ids told before any face is drawn (10,000 cards: minutes)
        for deck in decks:
            ttscards.check_deck_faces(deck, ttscards.card_faces(deck), id_base)
    # One bleed for the whole game's faces: the widest any exported deck needs (the pages clip the rest).
    art_bleed = max(f.art_bleed for f in fitted.values())
    check_bleed(game, art_bleed)
    # A card shop's pictures are wanted at its dpi (同人印刷所: 350), not the build's 300 alone;
    # a virtual table's cells are smaller than the build's (at most 200 dpi): the build's figure.
    # a shop's dpi, or more; Tabletop Simulator's cells are made at its dpi (200), which a picture
    # below the print's 300 still fills: wanted at that, not at the print's
    min_dpi = max(MIN_DPI, preset.dpi) if preset.files != "tts" else min(MIN_DPI, preset.dpi)
    # … or at what the table shows of a deck whose images reach its 4096 px (a big board: 69 dpi)
    held = {deck.id: tts.table_dpi(deck, fitted[deck.id].trim, preset.dpi) for deck in decks} if preset.files == "tts" else {}
    held = {deck_id: shown for deck_id, shown in held.items() if shown < min_dpi}
    rendered = render_game(ws.templates, game, art_bleed, min_dpi,
                           printed={deck_id: f.scale for deck_id, f in fitted.items()},  # --fit scale
                           max_dpi=max_dpi_of(options.max_dpi, game), before=_kept_cmyk if colour == "cmyk" else None,
                           deck_dpi=held)
    # What drawing the faces warned of is said for the decks this export writes (not one --deck or
    # the preset leaves out: they are not sent to the shop), pictures below the dpi and text that
    # overflows its box alike; the game's own warnings stay.
    exported = {deck.id for deck in decks}
    elsewhere = {w for df in rendered.decks if df.deck.id not in exported for w in df.warnings}
    # and the texts missing a translation in the files of decks left out alone (found as the game loads)
    files = {deck.id: {str(deck.source), *(str(piece.where.path) for piece in deck.pieces)} for deck in game.decks}
    kept_files = set().union(*(files[d] for d in exported if d in files))
    left_files = set().union(*(f for d, f in files.items() if d not in exported)) - kept_files
    missing = game.translations.warnings if game.translations is not None else []
    elsewhere |= {w for w in missing if w.split(":", 1)[0] in left_files}
    warnings = grouped_per_deck([w for w in rendered.warnings if w not in elsewhere])
    # (said where a picture of the deck is below the table's 200 dpi but sharper than the table shows: not
    # warned, and why; a sheet of 69 cards at 163 dpi, its pictures at 300, is no news)
    warnings += [tts.table_dpi_said(deck, fitted[deck.id].trim, held[deck.id]) for deck in decks if deck.id in held
                 and any(i["deck"] == deck.id and i.get("kind") == "raster" and held[deck.id] <= i["dpi"] < min_dpi
                         for i in rendered.images)]
    by_deck = {df.deck.id: unique_faces(df, game.lang) for df in rendered.decks}
    needed = sorted({key for deck in decks for f in by_deck[deck.id] for key in (f.front, f.back) if key})
    # Each face's pictures are let go of as it is converted: the pages place them from their art
    # files when written (a thousand illustrated cards' pictures are not all held at once).
    pictures, hashes = ImageStreams(), _Hashes()
    pictures.own = art_files(ws, game, hashes)
    pictures.own_hash = hashes
    arts = convert_faces(rendered.faces.subset(needed), rendered.art_folder,
                         settle=lambda key, converted: pictures.settle(converted.art, pictures.own.get))
    # (each face's pictures are placed from their art files: the print-ready bytes the converting
    # kept, 64 MB at 3,000 illustrated cards, held to the end of a big export as the build no longer holds them)
    rendered.art_folder.let_go_of_bytes()
    heap.given_back()  # (what converting freed, given back: a sheet's blocks are mapped apart, never reuse it)
    if preset.files != "tts":  # the shop's thinnest line and safe zone, on the faces it gets as it prints them
        sent = [(deck, f.piece, side, key) for deck in decks for f in by_deck[deck.id]
                for side, key in (("front", f.front), ("back", f.back)) if key]
        thinnest = preset.min_line_mm / MM_PER_PT if preset.min_line_mm is not None else None
        shop_lines = LintSettings(min_stroke_pt=thinnest, min_text_pt=None, min_ruby_pt=None, safe_mm=None, thin_stroke_pt=None,
                                  min_contrast=None)
        warnings += lint_faces(sent, arts, art_bleed, shop_lines, ws.templates, shop=preset.name,
                               formats={deck.id: _on_format(deck, fitted[deck.id]) for deck in decks})
    font = game.fonts["gothic"]
    out_root = options.out or ws.root / "build"
    out_dir = out_root / slug / (options.lang or "") / preset.slug  # a --lang export beside its build's edition
    notices = [f"{preset.name}: unverified: {preset.unverified}"] if preset.unverified else []
    notices += _unregistered(preset, pdfx)
    originals: dict[str, ImageStream] = {}
    cmyk_files: dict[str, str] = {}  # each picture of originals' art file, for the ink warnings to name
    placed: dict[tuple[str, str, int, int], frozenset[str]] = {}  # the art files a piece places, for the ink warnings
    if colour == "cmyk":
        originals, through_rgb, cmyk_files = cmyk_pictures(rendered, exported, preset)
        notices += through_rgb
        placed = placed_pictures(rendered)
    if preset.files != "tts":  # a print run is paid for: what the draft leaves open prints as it stands
        notices += open_values(decks, preset, game.lang)
        notices += [odd_file_name(deck, preset) for deck in decks if not PLAIN_FILE_NAME.fullmatch(deck.id)]
    if options.proof:
        notices.append("--proof: the trim, bleed and safe lines print on every page and image; these files are "
                          "for checking, not for the shop" + (" (a plain PDF, not PDF/X-1a)" if preset.pdfx != "none"
                                                              and preset.files.startswith("pdf") else ""))
    result = ExportResult(game, out_dir, out_root, warnings=warnings + notices + _left_out_warnings(left_out),
                          left_out=left_out)
    images = EarlierImages(earlier) if earlier is not None else EarlierImages()
    # GUIDs among every deck of the game, exported or not: a deck's stay the same with --deck; the
    # game's first digits its own among the workspace's games, so no two games share one
    editions = sorted({*_editions(ws, slug), *([(slug, options.lang)] if options.lang else [])})
    prefix = ttsids.game_prefixes({*ws.slugs(), slug}, [ttsids.edition(g, lang) for g, lang in editions])[
        ttsids.edition(slug, options.lang)]
    guids = ttsids.guids((key for df in rendered.decks for key in ttsids.object_keys(
        slug, df.deck, by_deck[df.deck.id], len(ttscards.sheet_parts(len(by_deck[df.deck.id])))
        if ttscards.card_faces(df.deck) else 1)), prefix)
    table = ttstable.Table(slug, _tts_deck_ids(ws, slug, game, id_base, editions, options.lang), ttstable.urls(out_dir, options.base_url),
                      preset.dpi, images, guids, id_base, game.lang)
    result.made = images.made
    thumbs = []
    # the images encoded on threads beside the rasterising, each in its place; a big export's written
    # out as encoded (exports/spill.py), held to the commit as the files it wrote
    pngs = PngFiles(spill=result.spill)
    marks = preset.marks if preset.files.startswith("pdf") else "none"
    made: list[tuple[Deck | None, dict[str, bytes]]] = []  # each deck's files (then the contact sheets'), apart
    x = 0.0  # where the next deck's objects lie on the table
    on_table: list[tuple[list[dict], tuple[float, float]]] = []  # each deck's objects, for the whole game's file
    try:  # a picture is read from its art file as the pages are written
        for deck in decks:
            faces = by_deck[deck.id]
            style = PageStyle(deck, fitted[deck.id], font, arts, rendered.bleed_mm, marks=marks, cmyk=colour == "cmyk",
                              proof=options.proof, images=pictures)
            made.append((deck, {}))
            if preset.files == "tts":
                objects = tts.deck_objects(style, faces, table, x, made[-1][1], pngs)
                # (a map's sections lie joined, as wide as the map: the next deck past it)
                x += ttscards.PART_STEP * len(objects) if deck.sections is None else \
                    ttspieces.map_width(deck, style.fitted.trim) + ttscards.PART_STEP
                made[-1][1][f"{deck.id}.json"] = tts.saved_object(f"{game.title} — {deck.name}", objects).encode("utf-8")
                on_table.append((objects, style.fitted.trim))
                result.order.extend(OrderRow(f"{deck.id}.json", "", "", deck.id, f.piece.index, f.name,
                                                  f.copies) for f in faces)
            else:
                result.order.extend(shop.deck_files(preset, style, faces, made[-1][1], result.warnings,
                                                    shop.Finish(pdfx, str(game.date), outline, edition, originals,
                                                                cmyk_files, placed, game.lang),
                                                    result.black, pngs))
            thumbs.extend(contact.thumbnails(style, faces, game.lang))
        result.order.extend(OrderRow("", "", "", o.deck.id, "", o.deck.name, 0, f"left out: {o.why}; {o.takes_it}")
                            for o in left_out)
        notes = [msg("contact.left_out", game.lang, deck=shown_name(clipped(o.deck.name)), why=o.why)  # (a paragraph as a name: cut)
                 for o in left_out]
        made.append((None, {}))
        if on_table:  # every deck of the export in one saved object, loaded in one go
            made[-1][1][f"{slug}-all.json"] = tts.saved_object(game.title, ttstable.laid_out(on_table)).encode("utf-8")
        heading = f"{game.title} — {preset.name}"
        heap.given_back()  # (what the deck sheets freed, before a contact sheet's 82 MB as Pillow holds it)
        labels = _contact_font(game, [heading, *notes, *(t.name + t.tail for t in thumbs)])
        # each sheet let go of as it is encoded, before the next is made (contact_sheets' room): no
        # enumerate, whose kept result tuple held the last sheet while the next was drawn
        n = 0
        for sheet in contact.contact_sheets(heading, thumbs, fontreg.path_of(labels), notes, pngs.room_for):
            n += 1
            pngs.add(made[-1][1], f"{slug}-contact.png" if n == 1 else f"{slug}-contact-{n}.png", sheet)
            del sheet
        pngs.finish()
        _gather(made, result.files)
    except SourceChanged as e:
        result.spill.close()
        raise InputError(f"{Path(e.path).name} was saved again while the export drew the faces that show it",
                         path=Path(e.path), expected="export again: nothing was written") from None
    except BaseException:
        result.spill.close()  # (the files it wrote out: never committed)
        raise
    result.owners = {name: deck.id if deck is not None else "" for deck, mine in made for name in mine}
    result.files["order.csv"] = order_csv(EXPORT_ORDER_COLUMNS, [astuple(row) for row in result.order])
    result.warnings = workspace_relative(result.warnings, ws.root)  # export.json: the same bytes in any folder
    return result


def _rulebook(ws: Workspace, game: Game, preset: Preset, options: ExportOptions, cmyk: bool,
              finish: shop.Finish) -> ExportResult:
    """A preset of ``files: rulebook``: the game's rulebook as the shop takes it (exports/book.py)."""
    for flag, given in (("--deck", options.decks), ("--fit", options.fit), ("--proof", options.proof)):
        if given:
            raise InputError(f"{preset.name} prints the rulebook, not the decks' pieces, so {flag} does not apply",
                             key=flag, expected=f"--preset {preset.slug} without {flag}, or a preset of pieces such "
                             "as doujin")
    out_root = options.out or ws.root / "build"
    book = shop_rulebook(ws, game, preset, cmyk, finish, options.max_dpi)
    notices = [f"{preset.name}: unverified: {preset.unverified}"] if preset.unverified else []
    notices += _unregistered(preset, finish.pdfx)
    return ExportResult(game, out_root / game.slug / (options.lang or "") / preset.slug, out_root, files=book.files,
                        warnings=workspace_relative(book.warnings + notices, ws.root), black=book.black, book=True)


def _gather(made: list[tuple[Deck | None, dict[str, bytes]]], files: dict[str, bytes]) -> None:
    """Each deck's files (None: the contact sheets) into ``files``, in order; a name too long for
    the file system (it said 'cannot write …: File name too long' of --out), or two decks naming one
    file, stop the export: deck x's piece 1 back (x-001-back.png) and deck x-001's shared back were
    one file, the order naming it for both, one deck's back sent for the other's. Names are compared
    as Windows and macOS compare them: deck X-001's back (X-001-back.png) is that file there."""
    owner: dict[str, tuple[str, Deck | None]] = {}
    for deck, mine in made:
        for name in mine:
            if same_file(name) in owner:
                was, first = owner[same_file(name)]
                decks = [d for d in (first, deck) if d is not None]
                named = (f"file {name} (one would replace the other)" if was == name else f"files {was} and {name}, "
                         "one file on Windows and macOS, where one would replace the other (they differ only in "
                         "letter case or in how a character is written)")
                raise InputError(" and ".join([f"deck {d.id!r}" for d in decks] + ["the contact sheet"] * (2 - len(decks)))
                                 + f" both make the export's {named}",
                                 path=decks[-1].source, expected="another file name for "
                                 + " or ".join(f"decks/{d.source.name}" for d in decks))
            if len(name.encode()) > NAME_MAX and deck is not None:  # (a build's files allow a longer deck id)
                raise InputError(f"deck {deck.id[:40]!r}… makes the export's file {name[:40]}… of {len(name.encode())} "
                                 f"bytes, longer than a file name may be ({NAME_MAX})", path=deck.source,
                                 expected=f"a deck file name shorter by {len(name.encode()) - NAME_MAX} bytes or more")
            owner[same_file(name)] = (name, deck)
        files.update(mine)


MAX_IMAGE_PIXELS = 60_000_000  # one face's image (a 300 mm piece at 600 dpi: 50 million)
MAX_EXPORT_PIXELS = 1_500_000_000  # every face image of an export together


class _Hashes:
    """The SHA-256 of files, each read once while its stamp holds: the art files are hashed to
    be found by content, and each is asked for again (unchanged?) as its picture is placed."""

    def __init__(self) -> None:
        self._known: dict[tuple, str] = {}

    def __call__(self, path: Path, st: os.stat_result | None = None) -> str:
        st = st or path.stat()
        stamp = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
        if stamp not in self._known:
            with open(path, "rb") as f:
                self._known[stamp] = hashlib.file_digest(f, "sha256").hexdigest()
        return self._known[stamp]


def open_values(decks: list[Deck], preset: Preset, lang: str) -> list[str]:
    """Decks sent to a shop that still print 未定 or TBD (a text, a picture not drawn yet): for the
    decks that print the same ones, how many, and the first as ``pnpgen check`` lists it, each once
    however many decks print it (a shared sheet's row: ``open_values_once``; ``lang``: the edition's)."""
    by_decks: dict[tuple[str, ...], list[OpenValue]] = {}
    for found in open_values_once(decks):
        by_decks.setdefault(tuple(d.id for d in found.decks), []).append(found)
    out = []
    for ids, opens in by_decks.items():
        first, more = opens[0], sum(len(found.fields) for found in opens) - 1
        quoted = ", ".join(f"'{i}'" for i in ids)
        if all(found.text == EMPTY_PAINTED for found in opens):  # (a colour left empty prints grey, not 未定)
            named = f"deck {quoted} still leaves" if len(ids) == 1 else f"decks {quoted} still leave"
            word = "colours open"
        else:
            named = f"deck {quoted} still prints" if len(ids) == 1 else f"decks {quoted} still print"
            word = placeholder_word(lang)
        out.append(f"{first.where}: {named} {word}: {first.fields[0]}: "
                   f"{open_value_said(first.text, 'en', lang)}" + (f", and {more} more" if more else "")
                   + f" (pnpgen check lists them); {preset.name} prints them as they are")
    return out


def _kept_cmyk(renderer) -> None:
    """A CMYK export's faces place each upright CMYK JPEG whole, never resampled to the resolution
    ceiling: ``cmyk_pictures`` sends its own inks in its place, as the file holds them."""
    renderer.art.cmyk_kept = True


def cmyk_pictures(rendered: RenderedGame, decks: set[str],
                  preset: Preset) -> tuple[dict[str, ImageStream], list[str], dict[str, str]]:
    """The CMYK pictures a CMYK export sends: each CMYK JPEG placed upright as it is, by the
    SHA-256 of the RGB pixels the faces place for it (pdf/pdfx.py kept_cmyk puts it back), and a
    warning for any other CMYK picture, which reaches the shop through RGB (data/artfile.py). A
    CMYK JPEG whose RGB pixels are another picture's too (a rich black and an RGB black, two CMYK
    blacks) is not kept: the PDF places those pixels once, as one picture (ReportLab names a picture
    by its pixels), which printed the JPEG's inks for both, 400 % where the RGB one is held to the
    ink limit; both go through RGB, and it is said. Last, each kept picture's art file by the
    SHA-256 of its stream, so an ink warning names the file to fix, not "a picture" on page 410."""
    originals: dict[str, ImageStream] = {}
    kept: dict[str, tuple[str, str]] = {}  # the RGB pixels' SHA-256 → the CMYK JPEG kept for them, and where it is placed
    others: list[tuple[str, Path, tuple[int, int]]] = []  # every other picture: its RGB may be a kept one's
    out, seen, alike = [], set(), {}
    for placed in rendered.images:
        name = placed["file"]
        if placed["kind"] != "raster" or placed["deck"] not in decks or name in seen:
            continue
        seen.add(name)
        rel = name.split("/", 1)[1] if name.startswith("art/") else name.split("/", 2)[-1]
        try:
            path = rendered.art_folder.find(rel, in_templates=True)
            with Image.open(path) as picture:  # its header alone
                cmyk, upright = picture.mode == "CMYK", orientation(picture) in (None, 1)
                jpeg = picture.format == "JPEG"  # (its samples inverted or not as its Adobe marker says: imagestream.py)
                size = picture.size
            if cmyk and jpeg and upright:
                raw = path.read_bytes()
                digest = _placed_digest(raw, name)
                stream = make_stream(raw)
                if digest in originals and originals[digest].content != stream.content:
                    alike[digest] = name
                originals[digest] = stream
                kept.setdefault(digest, (name, f"{_placing(rendered, placed)}: deck '{placed['deck']}'"))
                continue
            others.append((name, path, size))
        except (OSError, InputError):
            continue
        if cmyk:
            out.append(f"{_placing(rendered, placed)}: deck '{placed['deck']}', {name}: a CMYK picture {preset.name} gets through RGB (a JPEG "
                       "turned by its EXIF orientation): its inks are not the ones drawn "
                       "(C50 M50 Y50 prints K50); save it upright as a CMYK JPEG, or in RGB")
    sizes = {(stream.width, stream.height) for stream in originals.values()}
    for name, path, size in others:
        if size in sizes or size[::-1] in sizes:  # (only a picture of a kept one's size, or turned, can place its pixels)
            try:
                digest = _placed_digest(path.read_bytes(), name)
            except (OSError, InputError):
                continue
            if digest in originals:
                alike.setdefault(digest, name)
    for digest, other in sorted(alike.items(), key=lambda item: kept[item[0]]):
        del originals[digest]
        name, at = kept[digest]
        out.append(f"{at}, {name}: a CMYK JPEG whose pixels, as the faces show them in RGB, are {other}'s too: the "
                   "file places those pixels once, as one picture, so neither keeps inks of its own; both print "
                   f"converted from RGB, held to {preset.name}'s ink limit (give one of them pixels of its own)")
    files = {hashlib.sha256(stream.content).hexdigest(): kept[digest][0] for digest, stream in originals.items()}
    return originals, out, files


def _placing(rendered: RenderedGame, placed: dict) -> object:
    """Where the piece placing a picture is (a warning about it starts there, as a low-dpi one does)."""
    deck = rendered.game.deck(placed["deck"])
    return next((p.where for p in deck.pieces if p.label == placed["piece"]), None) or deck.where()


def placed_pictures(rendered: RenderedGame) -> dict[tuple[str, str, int, int], frozenset[str]]:
    """The art files the faces place as pictures, by deck, piece label and pixel size: what an
    ink warning names a picture converted from RGB by (shop.py ``Pictured``), read from the
    placements the faces listed, no picture decoded."""
    placed: dict[tuple[str, str, int, int], set[str]] = {}
    for image in rendered.images:
        if image["kind"] == "raster":
            placed.setdefault((image["deck"], image["piece"], *image["pixels"]), set()).add(image["file"])
    return {key: frozenset(files) for key, files in placed.items()}


def _placed_digest(raw: bytes, name: str) -> str:
    """The SHA-256 of the RGB pixels the faces place for a picture's file ``raw``."""
    with Image.open(io.BytesIO(print_bytes(raw, name=name))) as rgb:
        return hashlib.sha256(rgb.convert("RGB").tobytes()).hexdigest()


# What a printer's upload form takes in a file name: half-width letters and digits, - and _
# (株式会社栄光, 原稿作成共通設定: "半角英数字で命名").
PLAIN_FILE_NAME = re.compile(r"[A-Za-z0-9_-]+")


def odd_file_name(deck: Deck, preset: Preset) -> str:
    """A deck whose id, which names its shop files, is more than half-width letters, digits, - and _."""
    first = next((p for p in deck.pieces if p.count), None)  # its first file, as the export names it
    copies = f"-x{first.count}" if preset.quantity == "name" and first is not None else ""
    example = f"{deck.id}.pdf" if preset.files.startswith("pdf") else f"{deck.id}-001-front{copies}.png"
    return (f"{deck.where_about(deck.name_where)}: deck '{deck.id}' names the files sent to {preset.name} ('{example}'); many "
            "printers' upload forms take file names of half-width letters, digits, - and _ only (半角英数字): "
            "rename the deck file to such a name if the shop refuses them")


def _check_pixels(preset: Preset, decks: list[Deck], fitted: dict[str, Fitted]) -> None:
    """A preset of face images (dpi × size × faces) against the raster limits, before any face
    is drawn: one image at 2,400 dpi of a 300 mm piece took 6.6 GB."""
    if preset.files != "png-faces":
        return  # PDFs are vector; Tabletop Simulator's sheets are capped at its own size
    total = 0
    for deck in decks:
        w, h = fitted[deck.id].pixels(preset.dpi)
        if w * h > MAX_IMAGE_PIXELS:
            raise InputError(f"{preset.name} at {preset.dpi} dpi makes each face of deck {deck.id!r} {w:,}×{h:,} "
                             "pixels", path=preset.source, key="dpi",
                             expected=f"at most {MAX_IMAGE_PIXELS:,} pixels an image (the limit for one "
                             "exported image): a lower dpi")
        total += w * h * len(deck.pieces) * (2 if deck.back else 1)
    if total > MAX_EXPORT_PIXELS:
        raise InputError(f"{preset.name} at {preset.dpi} dpi makes {total:,} pixels of face images",
                         path=preset.source, key="dpi",
                         expected=f"at most {MAX_EXPORT_PIXELS:,} (the limit for an export's images): a lower "
                         "dpi, or --deck for some decks at a time")


def _pdfx(preset: Preset, pdfx: str, colour: str) -> OutputCondition | None:
    """The printing condition of a PDF/X export (None: plain PDF); a preset or colour that cannot
    make one stops the export."""
    if pdfx == "none":
        return None
    if preset.files not in PDF_LAYOUTS:
        raise InputError(f"{preset.name} takes images, not PDF, so --pdfx {pdfx} does not apply", key="--pdfx",
                         expected="--pdfx none, or a PDF preset such as drivethrucards or doujin")
    if colour != "cmyk":
        raise InputError(f"PDF/X-1a holds CMYK colour only, and this export is --colour {colour}", key="--pdfx",
                         expected="--colour cmyk, or --pdfx none for an RGB PDF")
    if preset.output_condition is None:
        raise InputError(f"{preset.name} names no printing condition for PDF/X", path=preset.source, key="output_condition",
                         expected="output_condition: {identifier: CGATS TR 001, …} in the preset, or --pdfx none")
    return preset.output_condition


def _contact_font(game: Game, texts: list[str]) -> str:
    """The face of the contact sheet's heading, labels and notes: the edition's card-text gothic
    (game.yaml's ``fonts:`` for its language, Noto in an English game) when it holds every
    character of them, as the home sheets' slug takes it; else the plain gothic (BIZ UD), which
    holds Japanese. An English game's labels were set in BIZ UDP Gothic, whose em dash vanishes at
    the labels' 13 px (``Player Sheet — Red`` read ``Player Sheet   Red``: trial58)."""
    plain = game.fonts["gothic"]
    own = (game.text_fonts or game.fonts).get("gothic", plain)
    return fontreg.holding((own,), (plain,), [*texts, "0123456789 ×…"])[0]


def _unregistered(preset: Preset, pdfx: OutputCondition | None) -> list[str]:
    """A PDF/X-1a file names its printing condition in the ICC registry, or embeds the condition's
    profile (``DestOutputProfile``: ISO 15930-4; PDF Reference 1.7, Table 10.51), which pnpgen does
    not do: a condition of a preset's own that the registry may not hold is said (preflight10)."""
    if pdfx is None or pdfx.identifier in REGISTERED_CONDITIONS:
        return []
    return [f"{preset.source}: output_condition: {pdfx.identifier!r} is not a printing condition pnpgen knows from the ICC "
            "registry (CGATS TR 001, FOGRA39, JC200103, …): unless color.org's characterization data registry "
            "lists it, a PDF/X-1a preflight wants its ICC profile embedded, and pnpgen embeds none (expected the "
            "registered condition the shop prints to, or --pdfx none)"]


def _editions(ws: Workspace, slug: str) -> list[tuple[str, str]]:
    """(game, language) of every game's editions besides its default one: their decks on the table
    are objects of their own (the Japanese and the English deck side by side must not show each
    other's cards), so they take ids and GUIDs of their own."""
    games = {*ws.slugs(), slug}
    return sorted((g, lang) for g in games for lang in other_editions(ws.game_dir(g) / "game.yaml"))


def _tts_deck_ids(ws: Workspace, slug: str, game: Game, base: int, editions: list[tuple[str, str]],
                  lang: str | None) -> dict[str, int]:
    """This edition's decks' first CustomDeck ids, unique among every deck of the workspace's games
    and their editions in other languages (``--lang``)."""
    decks_of = {g: deck_ids_in(ws.game_dir(g) / "decks") for g in {*ws.slugs(), *(g for g, _ in editions)}}
    decks_of[slug] = sorted({*decks_of.get(slug, []), *(d.id for d in game.decks)})
    everyone = {(g, deck) for g in ws.slugs() for deck in decks_of[g]} | {(slug, deck) for deck in decks_of[slug]}
    others = {(ttsids.edition(g, other), deck) for g, other in editions for deck in decks_of[g]}
    ids = ttsids.deck_ids(sorted(everyone), base, others)
    return {d.id: ids[(ttsids.edition(slug, lang), d.id)] for d in game.decks}


def _on_format(deck: Deck, fitted: Fitted) -> OnFormat:
    """Where the shop's format puts the deck's faces, for the print lint: the art scaled and
    centred on the format's trim (turned with the deck: a landscape card on a portrait format)."""
    w, h = deck.trim_mm
    fw, fh = reversed(fitted.trim) if fitted.turned else fitted.trim
    return OnFormat(fitted.scale, (fw - fitted.scale * w) / 2, (fh - fitted.scale * h) / 2, fitted.format.safe,
                    any_size=fitted.format.trim is None)


def _fit_decks(ws: Workspace, game: Game, preset: Preset,
               options: ExportOptions) -> tuple[list[Deck], dict[str, Fitted], list[LeftOut]]:
    """Every deck fitted before any renders. A deck named with --deck must fit (else exit 2); any
    other the preset cannot take is left out, with why and what would take it."""
    decks = []
    for deck_id in options.decks:
        try:
            decks.append(game.deck(deck_id))
        except KeyError:
            known = [d.id for d in game.decks]
            raise InputError(f"game {game.slug!r} has no deck {deck_id!r}{suggest(deck_id, known)}", key="--deck",
                             expected="one of " + ", ".join(known)) from None
    for deck in decks:
        if not deck.count:
            raise InputError(f"deck {deck.id!r} prints nothing: every piece is parked (count: 0)", key="--deck",
                             expected="a deck with copies to print, or a count in its deck file")
    # a deck that prints nothing (every piece parked: a picture for the book) is no file for the shop
    decks = decks or [d for d in game.decks if d.count]
    if not decks:  # (no deck, or every piece parked: there was no deck to say was left out, and a traceback)
        parked = ", ".join(d.id for d in game.decks)
        raise InputError(f"game {game.slug!r} prints nothing for {preset.name}: "
                         + (f"every piece of its decks is parked (count: 0): {parked}" if parked else "it has no deck"),
                         path=f"data/{game.slug}/decks", key="--game",
                         expected="a piece with a count of 1 or more in a deck file")
    fitted: dict[str, Fitted] = {}
    left_out: list[LeftOut] = []
    for deck in decks:
        try:
            fitted[deck.id] = fit_deck(preset, deck, options.fit)
        except NotTaken as e:
            out = LeftOut(deck, e, _takes_it(ws, game, preset, deck, options.fit, options.lang))
            if options.decks:  # named with --deck: it stops the export, saying what takes it
                raise _not_taken(preset, out) from None
            left_out.append(out)
    if len(left_out) == 1 and not fitted:
        raise _not_taken(preset, left_out[0])
    if not fitted:
        raise InputError(f"{preset.name} takes none of the decks of {game.slug!r}:", details=tuple(_why_each(left_out)),
                         key="--preset", expected="\n".join(map(one_line, _takes_all(preset, left_out))))
    return [d for d in decks if d.id in fitted], fitted, left_out


def _not_taken(preset: Preset, o: LeftOut) -> InputError:
    """The one deck an export would make, which the preset cannot take, said as "takes none of the
    decks" is: at its deck file's line, the reason on a line of its own, then what would be right
    and what takes it, a line each (it was one line of some 400 characters)."""
    return replace(o.error, message=f"{preset.name} does not take deck {o.deck.id!r}:", details=(o.error.message,),
                   expected="\n".join(part for part in (o.error.expected, o.takes_it) if part))


def _why_each(left_out: list[LeftOut]) -> list[str]:
    """Why each deck is left out, a reason a line, decks left out for the same reason said once together
    ("decks 'a', 'b' are each 63×88 mm; …"): twenty decks of one size said one sentence twenty times."""
    alike: dict[str, list[str]] = {}  # the reason after "deck 'x' is " → its decks
    said: list[str | tuple[str, list[str]]] = []  # in the decks' order: a reason as is, or (reason, decks)
    for o in left_out:
        lead = f"deck {o.deck.id!r} is "
        if not o.why.startswith(lead):
            said.append(o.why)
        elif (rest := o.why[len(lead):]) in alike:
            alike[rest].append(o.deck.id)
        else:
            said.append((rest, alike.setdefault(rest, [o.deck.id])))
    return [s if isinstance(s, str) else f"deck {s[1][0]!r} is {s[0]}" if len(s[1]) == 1 else
            f"decks {', '.join(map(repr, s[1]))} are each {s[0]}" for s in said]


def _takes_all(preset: Preset, left_out: list[LeftOut]) -> list[str]:
    """What would take every deck at once, said once (the same --fit, the presets that take them
    all), after the decks this very preset takes with --fit; per deck only when no one way takes
    them all: the hint's alternatives, a line each."""
    common = [t for t in left_out[0].takers if t.startswith("--") and all(t in o.takers for o in left_out[1:])]
    if not common:
        return [f"{o.deck.id}: {o.takes_it}{o.resize}" for o in left_out]
    refits: dict[str, list[str]] = {}  # "--preset thegamecrafter --fit scale" → the decks it takes
    for o in left_out:
        if o.takers[0].startswith(f"--preset {preset.slug} --fit") and o.takers[0] not in common:
            refits.setdefault(o.takers[0], []).append(o.deck.id)
    own = [f"{way} {' '.join('--deck ' + shlex.quote(d) for d in ids)} (takes {', '.join(map(repr, ids))});"
           for way, ids in refits.items()]
    resized = [o.error for o in left_out if o.error.resize]
    files = {(e.path, e.line) for e in resized}  # (a deck list's size is its source deck's: one file for both)
    resize = [f"or, with no --fit, the shop's size in the deck file{'s' if len(files) > 1 else ''}: "
              + _sizes_at(resized)] if resized else []  # the shop's own size, written once in each deck file, prints them with no --fit
    return [*own, "for every deck: " + ", ".join(common) + ", or pnpgen build's shop/ files (any size, RGB)" + (";" if resize else ""),
            *resize]


def _sizes_at(resized: list[NotTaken]) -> str:
    """Each size to write and the deck files' lines to write it at, each size once ("size:
    [2.5in, 3.5in] in a.yaml:2:9, b.yaml:2:9; size: [2.25in, 3.5in] in …"): twenty decks of two
    sizes said "(size: [2.5in, 3.5in])" after each file."""
    at: dict[str, list[str]] = {}
    for e in resized:
        if e.path is not None and (said := place(e.path, e.line, e.column)) not in at.get(e.resize, []):
            at.setdefault(e.resize, []).append(said)
    return "; ".join(f"{size} in {', '.join(places)}" for size, places in at.items())


def _size_line(deck: Deck) -> Where:
    """Where a deck's size is written: its own ``size:``/``format:`` line, a layout deck's too (a
    mini-euro ``card-mini`` deck's ``format:``, a roll-and-write sheet's ``size:``, was told at its
    layout's ``extends:``: trial58); else ``Deck.where``."""
    return deck.size_where if deck.size_where is not None else deck.where()


def _left_out_warnings(left_out: list[LeftOut]) -> list[str]:
    """A warning for each deck left out, at its deck file's line (``LeftOut.warning``); decks left
    out for the same reason and taken by the same presets said once together, at the first one's
    line ("left out: decks 'a', 'b' are each 57×89 mm; …; takes them: …"): ten decks of one size
    were ten warnings of 500 bytes, the same but for the deck's name."""
    alike: dict[tuple[str, ...], list[LeftOut]] = {}
    for o in left_out:
        lead = f"deck {o.deck.id!r} is "
        key = (o.why[len(lead):], o.error.resize, *o.takers[:-1]) if o.why.startswith(lead) else ("", o.deck.id)
        alike.setdefault(key, []).append(o)
    said = []
    for (why, size, *_), decks in alike.items():
        first = decks[0]
        if len(decks) == 1:
            said.append(first.warning)
            continue
        shop = first.takers[-1].replace(f"{first.deck.id}.pdf", " files")  # (pnpgen build's shop/<deck>.pdf)
        resize = f"; or, with no --fit, {_sizes_at([o.error for o in decks])}" if size and first.error.path else ""
        said.append(f"{_size_line(first.deck)}: left out: decks "
                    f"{', '.join(repr(o.deck.id) for o in decks)} are each {why}; takes them: "
                    f"{', '.join((*first.takers[:-1], shop))}{resize}")
    return said


def _takes_it(ws: Workspace, game: Game, preset: Preset, deck: Deck, fit: str | None,
              lang: str | None = None) -> tuple[str, ...]:
    """What would take a deck ``preset`` cannot: this preset with another --fit, other presets as
    they are or with --fit, and always the build's shop file, which prints any piece at its own
    size (a --lang export's: that edition's build, ``build --lang en``'s en/shop/)."""
    takers = []
    slug, names = game.slug, available(ws, game.slug)
    for name in [preset.slug] + [n for n in names if n != preset.slug]:
        try:
            check_preset_folder(game, name, names)  # (presets/Shop.yaml is refused: not offered)
            other = preset if name == preset.slug else load_preset(ws, slug, name).in_language(game.lang)
        except InputError:
            continue  # a broken preset of the designer's is reported when it is used
        if other.files == "rulebook":
            continue  # (an A5 board is no rulebook page)
        tries = [f for f in FITS if f != fit] if other is preset else [None, *FITS]
        for mode in tries:
            try:
                fit_deck(other, deck, mode)
            except NotTaken:
                continue
            takers.append(f"--preset {name}" + (f" --fit {mode}" if mode else ""))
            break
    build = f"pnpgen build --lang {lang}'s {lang}/shop/" if lang else "pnpgen build's shop/"
    return (*takers, f"{build}{deck.id}.pdf (any size, RGB)")
