"""What the preview page shows, read from a good build's own files: each deck's distinct faces
from ``shop/<deck>-unique.pdf`` (each face once, its name and quantity in shop/order.csv), the
home sheets, the rulebook pages, the rule sheet's sides and the last reprint list; pictures are those PDF pages
rasterised by pypdfium2, so the page never differs from print. Builds with the engine and
keeps the last good state when a save is broken."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import stat
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pnpgen.data.load import load_game
from pnpgen.data.telling import plain_values
from pnpgen.data.workspace import Workspace
from pnpgen.engine import changelog, history
from pnpgen.engine.bookkey import RULE_SHEET
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import FileHashes, fingerprint
from pnpgen.engine.fresh import edition, inputs_of, out_dir, profile_stamps, watched
from pnpgen.engine.options import BuildOptions, RulebookOptions
from pnpgen.engine.run import art_sizes, run_build
from pnpgen.engine.state import States
from pnpgen.engine.warm import Warm
from pnpgen.errors import InputError
from pnpgen.faces.face import Face
from pnpgen.faces.faceset import FaceSet, face_renderer, piece_pairs, render_deck
from pnpgen.impose.grid import SheetOptions
from pnpgen.safetext import warning_line
from pnpgen.serve.held import OPEN_PDFS, PAGES_PER_OPEN, PICTURE_BYTES, SHEETS_PER_OPEN, Budgeted, Open

# PDFium is not thread-safe: no two of its calls may run at once in one process, not even on two
# documents (pypdfium2's documentation); the server rasterises in its pool's threads while a save
# rebuilds in another. Two renders at once ended the preview (a trap in libpdfium.so, no message).
PDFIUM = threading.Lock()
FACE_PX = 260  # a face's width on screen
SHEET_PX = 420  # a home sheet's or rulebook page's width
# A face shown from the last good build on disk while the data does not load: its YAML line is not known.
UNKNOWN_WHERE = "(the last good build's face: its fields show once the data loads again)"
# The output folder is read as found (a build copied, unpacked, or left by anything): a file its
# manifest or order.csv names is read only when it is a plain file inside the game's output folder,
# reached by no link; else the page shows no last good build. A file read whole (the manifest,
# order.csv, reprint.txt) is read only up to this size; a PDF is read by PDFium a page at a time,
# at any size (5,000 illustrated cards' shop files are 530–790 MB: they were refused).
BUILT_FILE_LIMIT = 256 * 1024 * 1024
TALLEST = 8  # a picture at most this many times as tall as wide (a page 1 pt wide is not 30,000 px tall)


def built_file(out: Path, name: object, whole: bool = True) -> Path:
    """``out``/``name``, a file a build in ``out`` wrote: ValueError when the name leads out of
    ``out`` (absolute, ``..``, through a link), is not a plain file (a FIFO would hang the read) or,
    to be read ``whole``, is larger than ``BUILT_FILE_LIMIT`` (a PDF is not: PDFium reads its pages)."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        raise ValueError(f"not a file name of a build: {name!r}")
    parts = PurePosixPath(name).parts
    if PurePosixPath(name).is_absolute() or ".." in parts:
        raise ValueError(f"outside the build: {name}")
    path = out.joinpath(*parts)
    real = out.resolve()
    if path.resolve() != real.joinpath(*parts) or out.is_symlink():
        raise ValueError(f"reached through a link: {name}")
    info = path.lstat()
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"not a plain file of a build: {name}")
    if whole and info.st_size > BUILT_FILE_LIMIT:
        raise ValueError(f"larger than a build writes it ({info.st_size:,} bytes, at most {BUILT_FILE_LIMIT:,}): {name}")
    return path


@dataclass
class State:
    """The last good build as the page shows it; ``error`` is the last save's error (or "")."""

    generation: int = 0
    error: str = ""
    decks: list[dict[str, Any]] = field(default_factory=list)
    sheets: list[dict[str, Any]] = field(default_factory=list)  # home sheets, then rulebook pages
    changes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # the build's warnings, workspace-relative, as a build says them
    reprint: str = ""
    since: str = ""  # what changed since the version tagged last, as ``pnpgen diff`` writes it (``since_tagged``)
    title: str = ""  # the game's title and language as the build shown has them ("": not known)
    lang: str = ""
    ended: bool = False  # the preview has ended (the workspace gone): no save updates the page

    def to_json(self) -> dict[str, Any]:
        return {"generation": self.generation, "error": self.error, "decks": self.decks, "sheets": self.sheets,
                "changes": self.changes, "warnings": self.warnings, "reprint": self.reprint, "since": self.since, "title": self.title, "lang": self.lang,
                "ended": self.ended}


class Preview:
    """Builds the game into ``out_root`` and reads what to show from the files written."""

    def __init__(self, ws: Workspace, slug: str, out_root: Path, lang: str | None = None,
                 picture_bytes: int = PICTURE_BYTES, open_pdfs: int = OPEN_PDFS, pages_per_open: int = PAGES_PER_OPEN,
                 sheets_per_open: int = SHEETS_PER_OPEN, margin_mm: float = SheetOptions.margin_mm):
        self.ws, self.slug, self.out_root, self.lang = ws, slug, out_root, lang
        # --lang en: the English edition, built into build/<game>/en/; --margin: the sheets and the
        # booklet's fold marks and note inside the printer's margin, as build sets them
        self.options = BuildOptions(jobs=1, lang=lang, sheet=SheetOptions(margin_mm=margin_mm))
        self.book = RulebookOptions(margin_mm=margin_mm)
        self.out = out_dir(out_root, slug, self.options)
        self.state = State()
        self.lock = threading.Lock()
        self.pictures: dict[str, tuple[Path, int, int]] = {}  # picture id → (pdf, page index, width px)
        self.rendered = Budgeted(picture_bytes)  # the PNGs drawn, within a budget of bytes (serve/held.py)
        self.documents: Open[tuple[Any, io.BufferedReader]] = Open(_close, open_pdfs, pages_per_open)  # a PDF's hash → it open in PDFium, its file
        self.sheets_per_open = sheets_per_open  # a file of sheets (not shop/'s one face a page) closed sooner
        # a face's SVG id → (deck id, piece number, distinct face of the deck, side, distinct face of the piece)
        self.svgs: dict[str, tuple[str, int, int, str, int]] = {}
        self.warm = Warm()  # the faces and pages the last save drew, drawn again only where it changed
        # what the last save's build says in the terminal, as a build does: None when it was up to
        # date (or broken), else its change lines (none for a draft edited)
        self.told: list[str] | None = None
        # the printer profile the build before serve's first printed with (``--printer``), which
        # serve's builds leave out: said at the start and on the page ("" when none was left out)
        self.profile_left = ""
        self.looked = False  # whether the build in the output folder before serve's was looked at
        self.built_title = ""  # the game's title as the last good build on disk has it, when shown from there
        self.gone = False  # the workspace is gone: the preview ends (``workspace_gone``)

    def left_out(self) -> str:
        """The warning that the sheets shown lack the printer profile the build before printed with
        (a designer missed the docs' line and took the preview's sheets for the profile's, loop51)."""
        name = self.profile_left
        return (f"the sheets are drawn without printer profile {name}, which the build before serve's printed with: "
                f"serve builds as game.yaml says, as pnpgen build with no option does (expected printer: {name} in "
                f"data/{self.slug}/game.yaml, to preview and build with it)")

    def inputs(self) -> str:
        """What the game's build reads (its folders' files, printers.yaml) as one hash: ``serve``
        takes it before its first build and again once its watcher runs, and builds again when
        they differ (a save made while the server started was missed until the next save, loop51)."""
        return fingerprint(inputs_of(self.ws, self.slug), profile_stamps(self.ws), FileHashes(self.out_root / ".cache"),
                           self.ws.fonts)

    def folders(self) -> list[Path]:
        """What to watch: the same folders ``pnpgen watch`` watches (InputError for a link out)."""
        return watched(self.ws, self.slug)

    def rebuild(self) -> State:
        """Build; on success show the new build, on bad input keep the last good one with the error."""
        with self.lock:
            broken = bool(self.state.error)  # the save before this one (or the data at the start) did not build
            try:
                self.folders()  # a link out of the workspace made since the server started: refused
                self.told = None
                # the build's table of files' hashes and the game's state as it read them: the page
                # reads its files by them (``_read``), as a build knows the files it wrote
                hashes, states = FileHashes(self.out_root / ".cache"), States()
                earlier = None if self.looked else built_printer(self.out)
                outcome = run_build(self.ws, [self.slug], self.options, self.out_root, self.book,
                                    warm=self.warm, unkept=_warn, states=states, hashes=hashes)[0]
                try:
                    decks, sheets, pictures, manifest, svgs = self._read(Cache(self.out_root, states, hashes))
                    listed = _reprint_list(self.out)
                    reprint = reprint_shown(manifest, listed, self.out)
                except ValueError as e:  # a file there the build did not write (rulebook.pdf, a link left in build/)
                    raise InputError(f"{e}: the preview shows only plain files inside the game's output folder",
                                     path=self.out,
                                     expected="the link or file removed from the output folder") from None
            except InputError as e:
                if not self.state.decks and not self.state.sheets:  # nothing shown yet: the last good build's files
                    self._show_last_good()
                said = self.ws.shown(f"pnpgen: error: {e}")  # workspace-relative, as the CLI says it
                if not self.ws.game_dir(self.slug).is_dir():  # (as watch says it, waiting for it)
                    said = (f"pnpgen: error: data/{self.slug}/ is not there (moved, deleted or renamed while serving; "
                            f"{said.removeprefix('pnpgen: error: ')}): the page shows the last good build and "
                            "builds again once the folder is back")
                self.state.error = said
                self.state.generation += 1
                return self.state
            # (a save another run built meanwhile, watch beside the preview: its change said as this save's)
            self.told = None if outcome.up_to_date and not outcome.overtaken else list(outcome.changes)
            self.pictures, self.svgs = pictures, svgs
            self.rendered.keep_only(pictures)
            self._close_documents({pid.split("-", 1)[0] for pid in pictures})
            warned = outcome.warnings if outcome.up_to_date else outcome.result.warnings
            changes = list(manifest.get("changes", []))
            self.looked, now = True, printer_of(manifest)
            self.profile_left = "" if now else earlier or self.profile_left
            if self.profile_left:
                warned = [self.left_out(), *warned]
            if broken and outcome.up_to_date:  # mended back to the last good build: its change was before the break
                changes, reprint = [MENDED], kept_list(listed, self.out) if listed else ""
            self.state = State(self.state.generation + 1, "", decks, sheets, changes,
                               [self.ws.shown(w) for w in warned], reprint,
                               since_tagged(self.out_root, edition(self.slug, self.options), self.slug), *_title(manifest))
            return self.state

    def workspace_gone(self, why: str) -> None:
        """The workspace gone while the preview runs (``Workspace.still_there``): said on the page
        as an error, the last good build under it; the preview then ends (as ``watch`` does)."""
        with self.lock:
            self.gone = self.state.ended = True
            self.state.error = f"pnpgen: error: {why}"
            self.state.generation += 1

    def watcher_stopped(self, why: str) -> None:
        """The watcher stopped by itself (a name not UTF-8 made while it ran): said on the page as
        an error, the last good build under it, since no save is seen any more."""
        with self.lock:
            self.state.error = (f"pnpgen: error: the watcher stopped: {' '.join(why.split())} (expected file names in "
                                "UTF-8 below the watched folders (rename the one named), then start pnpgen serve again)")
            self.state.generation += 1

    def _show_last_good(self) -> None:
        """The faces, sheets and changes of the last good build still in the output folder, shown
        when the game's data is broken before this preview built anything (started the morning
        after a half-finished edit): the page shows them under the error, as it does after a bad
        save. Their fields and YAML lines are not known (the data does not load): a face says so.
        Nothing when no build is there (or one this pnpgen cannot read)."""
        try:
            decks, sheets, pictures, manifest, _ = self._read(Cache(self.out_root), data=False)
        except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
            return  # (JSON nested 100,000 deep; a record not an object)
        self.pictures = pictures
        self.state.decks, self.state.sheets = decks, sheets
        changes = manifest.get("changes", [])
        self.state.changes = [str(c) for c in changes] if isinstance(changes, list) else []
        self.state.title, self.state.lang = _title(manifest)
        self.built_title = self.state.title

    def _read(self, cache: Cache, data: bool = True) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                             dict[str, tuple[Path, int, int]], dict[str, Any],
                                                             dict[str, tuple[str, int, int, str, int]]]:
        """What the page shows of the build in the output folder; each piece's fields, YAML line
        and SVG links from the game's data (``data``; else not known: the data does not load),
        its manifest, and what each SVG link shows. ``cache``: the build cache of the output
        folder, whose record of the last build (each file's hash, and its stamp in the table of
        files' hashes) names a PDF still as the build wrote it without reading it (a file of
        another stamp, changed by anyone since, is read and hashed), and whose art sizes load the
        game without opening its pictures (5,000 illustrated cards: 3.6 GB hashed and 5,000
        pictures measured, 40 of the first page's 51 s)."""
        out = self.out
        game = load_game(self.ws, self.slug, self.lang, sizes=art_sizes(cache, self.slug)) if data else None
        state = cache.state(edition(self.slug, self.options))
        recorded = state.files if state is not None else {}
        manifest = json.loads(built_file(out, "manifest.json").read_text(encoding="utf-8"))
        rows = list(csv.DictReader(io.StringIO(built_file(out, "shop/order.csv").read_text(encoding="utf-8-sig"))))
        pictures: dict[str, tuple[Path, int, int]] = {}
        svgs: dict[str, tuple[str, int, int, str, int]] = {}
        pdfs: dict[str, tuple[Path, str, int]] = {}  # name in the build → (file, digest, pages)

        def pdf(name: object) -> tuple[Path, str, int]:
            if not isinstance(name, str) or name not in pdfs:  # each file checked and read once, never whole
                path = built_file(out, name, whole=False)
                with _opened(path) as source:
                    digest = _as_recorded(path, os.fstat(source.fileno()), recorded.get(str(name)), cache) \
                        or _hashed(source)
                    digest = digest[:12]
                    source.seek(0)
                    pages = page_count(source)
                pdfs[str(name)] = (path, digest, pages)
            return pdfs[str(name)]

        def picture(name: object, index: int, width: int) -> str:
            path, digest, pages = pdf(name)
            if not 0 <= index < pages:
                raise ValueError(f"{name} has no page {index + 1}")
            pid = f"{digest}-{index}-{width}"
            pictures[pid] = (path, index, width)
            return f"/picture/{pid}.png"

        def svg(deck_id: str, number: int, pair: int, side: str, mine: int) -> str:
            sid = hashlib.sha256(f"{deck_id}\0{number}\0{pair}\0{side}".encode()).hexdigest()[:16]
            svgs[sid] = (deck_id, number, pair, side, mine)
            return f"/svg/{sid}.svg"

        decks = []
        seen: set[tuple[object, object]] = set()  # each face and sheets file once, as a build lists them (a deck listed twice lists its faces twice)
        for record in manifest["decks"]:
            if not isinstance(record["id"], str):  # (the page's markup escapes text: a number there ended it in a 500)
                raise ValueError(f"a deck's id is not text: {record['id']!r}")
            deck = game.deck(record["id"]) if game is not None else None
            faces = []
            of_piece: dict[int, int] = {}  # piece number → its distinct faces listed so far
            for row in rows:
                if row["deck"] != record["id"]:
                    continue
                page = int(row["page"]) - 1
                pair = page // (2 if record["double_sided"] else 1)  # the deck's distinct faces, as the build numbers them
                if (row["file"], page) in seen:  # each distinct face once: 200,000 rows of one took 26 s
                    raise ValueError(f"{row['file']} page {page + 1} listed twice")
                seen.add((row["file"], page))
                piece = deck.pieces[int(row["piece"]) - 1] if deck is not None else None
                mine = of_piece[int(row["piece"])] = of_piece.get(int(row["piece"]), -1) + 1
                faces.append({
                    "name": row["name"], "count": int(row["quantity"]),
                    "front": picture(row["file"], page, FACE_PX),
                    "back": picture(row["file"], page + 1, FACE_PX) if record["double_sided"] else None,
                    "where": str(piece.where).removeprefix(f"{self.ws.root}/") if piece is not None  # workspace-relative
                    else UNKNOWN_WHERE,
                    "fields": plain_values(piece.values) if piece is not None else {},
                    "svg": {"front": svg(record["id"], piece.index, pair, "front", mine),
                            "back": svg(record["id"], piece.index, pair, "back", mine) if record["double_sided"] else None}
                    if piece is not None else None,  # (the faces' SVGs as check --svg writes them: ``face_svg``)
                })
            decks.append({"id": record["id"], "name": deck.name if deck is not None else str(record["name"]),
                          "count": deck.count if deck is not None else int(record["count"]), "faces": faces})
        sheets = []
        files = manifest.get("files")
        for name in files if isinstance(files, list) else []:
            # the copies to print now (reprint.pdf, and reprint-a3.pdf of a deck on a paper of its own),
            # first: a designer's trial (trial77) found them named on the page but nowhere shown
            if isinstance(name, str) and _REPRINT_PDF.fullmatch(name) and ((out / name).exists() or (out / name).is_symlink()):
                sheets += [{"title": f"{name} p. {n + 1}", "src": picture(name, n, SHEET_PX)} for n in range(pdf(name)[2])]
        for record in manifest["decks"]:
            if record["files"]:
                name = record["files"][0]
                if ("sheets", name) in seen:
                    raise ValueError(f"{name} listed twice")
                seen.add(("sheets", name))
                pages = min(int(record["pages"]), pdf(name)[2])  # (a manifest saying 10⁸ pages)
                sheets += [{"title": f"{name} p. {n + 1}", "src": picture(name, n, SHEET_PX)} for n in range(pages)]
        if (out / "rulebook.pdf").exists() or (out / "rulebook.pdf").is_symlink():
            sheets += [{"title": f"rulebook.pdf p. {n + 1}", "src": picture("rulebook.pdf", n, SHEET_PX)}
                       for n in range(pdf("rulebook.pdf")[2])]
        book = manifest.get("rulebook")
        if isinstance(book, dict) and isinstance(book.get("files"), list) and RULE_SHEET in book["files"]:
            # the rules on one sheet (game.yaml's rulebook: sheet:): its sides, after the book's pages
            sheets += [{"title": f"{RULE_SHEET} side {n + 1}", "src": picture(RULE_SHEET, n, SHEET_PX)}
                       for n in range(pdf(RULE_SHEET)[2])]
        return decks, sheets, pictures, manifest, svgs

    def face_svg(self, sid: str) -> str | None:
        """The SVG of a face the page shows, as ``pnpgen check --svg`` writes it (its template's,
        after Jinja, before conversion: the piece's first copy, or, of a template reading
        ``piece.copy``, the copy the page shows) from the data as it is now, its pictures in it
        (``ArtFolder.inlined``, found as a build finds them, in the workspace); None for an id the
        page did not give, or a face the data no longer renders (a save since); an InputError for a
        face whose pictures are too many bytes to send each time it shows them."""
        with self.lock:  # (not while a save builds)
            face = self.svgs.get(sid)
            if face is None:
                return None
            deck_id, number, pair, side, mine = face
            listed = sum(1 for f in self.svgs.values() if f[:2] == face[:2] and f[3] == side)  # the piece's faces on the page
            try:
                game = load_game(self.ws, self.slug, self.lang)
                deck = game.deck(deck_id)
                if not 1 <= number <= len(deck.pieces) or (side == "back" and not deck.back):
                    return None
                bleed = self.options.bleed_mm
                renderer = face_renderer(self.ws.templates, game, bleed, deck_bleeds=game.drawn_bleeds(bleed))
                piece, reads = deck.pieces[number - 1], set[str]()
                svg = renderer.render(Face(deck, piece, side, 1), reads)
                if "copy" in reads and piece.count > 1:  # copies drawn apart: the piece's copies paired as the build pairs them
                    faces = FaceSet()
                    pairs = piece_pairs(deck, piece, renderer, faces)
                    if len(pairs) == listed:  # (each its own: the mine-th is the one the page shows)
                        keys = pairs[mine] if mine < len(pairs) else None
                    else:  # one of them prints as an earlier piece's face, listed as that piece's: the deck's faces
                        drawn = render_deck(deck, renderer, faces).pairs
                        keys = (drawn[pair].front, drawn[pair].back) \
                            if pair < len(drawn) and drawn[pair].piece.index == number else None
                    key = None if keys is None else keys[0] if side == "front" else keys[1]
                    if key is None:
                        return None
                    svg = faces.svgs[key]
            except (InputError, KeyError, OSError):
                return None
            try:
                return renderer.art.folder.inlined(svg, piece.where)
            except OSError:  # (a picture removed since it was found)
                return None

    def png(self, pid: str) -> bytes | None:
        """A picture of the current build as PNG, rasterised once and kept while the budget of
        bytes holds it (``Budgeted``); dropped, it is rasterised again: the same bytes."""
        kept = self.rendered.get(pid)
        if kept is not None:
            return kept
        where = self.pictures.get(pid)
        if where is None:
            return None
        import pypdfium2 as pdfium

        pdf, index, width = where
        with PDFIUM:  # the browser asks for many pictures at once, each in a thread of the server's pool
            doc = self._document(pid.split("-", 1)[0], pdf)
            if doc is None:
                return None
            try:
                if not 0 <= index < len(doc):
                    return None
                page = doc[index]
                if min(page.get_width(), page.get_height()) <= 0:
                    return None
                scale = min(width / page.get_width(), TALLEST * width / page.get_height())
                bitmap = page.render(scale=scale)
                image = bitmap.to_pil().copy()  # its own pixels: the bitmap is freed here, under the lock
                bitmap.close()
                page.close()
                self.documents.used(pid.split("-", 1)[0])  # (closed after PAGES_PER_OPEN pages: what PDFium kept of them let go)
            except pdfium.PdfiumError:
                return None
        buf = io.BytesIO()
        image.save(buf, "PNG")
        self.rendered.put(pid, buf.getvalue())
        return buf.getvalue()

    def _document(self, digest: str, pdf: Path) -> Any:
        """The build's PDF ``pdf`` (whose content's hash starts ``digest``) open in PDFium, kept
        open for the next picture of it (under ``PDFIUM``): each picture opened the file again, and
        PDFium walked a 20,000-page shop file's page list up to the page asked for each time (0.25 s
        a face: the first screen of 10,000 faces took 20 s). None when it cannot be read."""
        import pypdfium2 as pdfium

        kept = self.documents.get(digest)
        if kept is not None:
            return kept[0]
        try:  # (the file may have been swapped for a link since the page was read)
            source = _opened(built_file(self.out, pdf.relative_to(self.out).as_posix(), whole=False))
        except (OSError, ValueError):
            return None
        try:  # (a file swapped since the page was read for one PDFium cannot read: no picture, not a 500)
            doc = pdfium.PdfDocument(source)
        except pdfium.PdfiumError:
            source.close()
            return None
        faces = pdf.relative_to(self.out).parts[0] == "shop"  # a face a page; else a sheet of them a page
        self.documents.put(digest, (doc, source), None if faces else self.sheets_per_open)  # (the least used closed past ``OPEN_PDFS``)
        return doc

    def _close_documents(self, keep: set[str]) -> None:
        """The open PDFs of a build no longer shown closed (those whose hash is not in ``keep``)."""
        with PDFIUM:
            self.documents.keep_only(keep)


def _close(opened: tuple[Any, io.BufferedReader]) -> None:
    """A PDF open in PDFium closed, then its file (under ``PDFIUM``)."""
    doc, source = opened
    doc.close()
    source.close()


def _warn(line: str) -> None:
    """A build's warning in the terminal, as a build says it (its caches' bookkeeping failed)."""
    print(warning_line(line), file=sys.stderr, flush=True)


def built_printer(out: Path) -> str:
    """The printer profile the build in ``out`` printed with, as its manifest names it ("": none,
    or no build there this pnpgen can read)."""
    try:
        return printer_of(json.loads(built_file(out, "manifest.json").read_text(encoding="utf-8")))
    except (OSError, ValueError, RecursionError):
        return ""


def printer_of(manifest: Any) -> str:
    """The printer profile a build's manifest names ("" for none)."""
    printer = manifest.get("printer") if isinstance(manifest, dict) else None
    name = printer.get("name") if isinstance(printer, dict) else None
    return name if isinstance(name, str) else ""


def _title(manifest: dict[str, Any]) -> tuple[str, str]:
    """The game's title and language as a build's manifest has them: the page's heading follows
    game.yaml from save to save (it kept the title the server started with, even on a reload)."""
    title, lang = manifest.get("title"), manifest.get("lang")
    return (title if isinstance(title, str) else "", lang if isinstance(lang, str) and lang.isalpha() else "")


_REPRINT_PDF = re.compile(r"reprint(-[a-z0-9]+)?\.pdf")  # a build's reprint.pdf, reprint-a3.pdf (not reprint-since-*)
# "Last change" of a save that mends an error back to the last good build (up to date): that build's
# own change was made before the break, and shown again it read as this save's (left48)
MENDED = "none against the last good build: this save mends the error, and the files are that build's as they were"
KEPT_REPRINT = ("This change prints no new copies (reprint.pdf and reprint.txt are kept as they were): "
                "the list below is an earlier build's.")
# the same, when the earlier build only took pieces out: it wrote no reprint.pdf (and removed the one before)
KEPT_PULL_LIST = ("This change prints no new copies (reprint.txt is kept as it was; there is no reprint.pdf: "
                  "that build only took pieces out): the list below is an earlier build's.")


def reprint_shown(manifest: dict[str, Any], listed: str, out: Path) -> str:
    """reprint.txt as the page shows it: under a change that printed nothing new (a rule paragraph
    edited, game.yaml's rulebook:), the build keeps the files an earlier build wrote, and the page
    says so above them — shown bare under "Last change: rulebook: … changed", its cards read as
    that edit's (a designer's trial, trial77)."""
    if listed and manifest.get("changes") and not manifest.get("reprint"):
        return kept_list(listed, out)
    return listed


def kept_list(listed: str, out: Path) -> str:
    """An earlier build's reprint list under the note that says so, naming only the files there:
    after a build that only removed pieces the note said reprint.pdf was kept, and there was none
    (loop51)."""
    printed = any(_REPRINT_PDF.fullmatch(p.name) for p in out.glob("reprint*.pdf"))
    return f"{KEPT_REPRINT if printed else KEPT_PULL_LIST}\n\n{listed}"


def since_tagged(out_root: Path, edition_name: str, slug: str) -> str:
    """What changed since the version tagged last (the set the playtesters hold), as ``pnpgen diff
    TAG latest`` writes it, for the page's panel; or how to tag one. The history's own lines: a
    designer's trial (trial77) found the page showing the last save's change and no version to
    compare with."""
    latest = history.last_version(out_root, edition_name)
    if latest is None:
        return ""
    named = history.tags(out_root, edition_name)
    tagged = sorted((n, tag) for tag, n in named.items() if n <= latest.number)
    if not tagged:
        return (f"{latest.name} is the latest version; tag the one you print to see here what changed since: "
                f"pnpgen tag --game {slug} playtest-1")
    number, tag = max(tagged, key=lambda t: t[0])
    if number == latest.number:
        return f"{latest.name} is {tag}: nothing changed since."
    old = history.version(out_root, edition_name, number)
    if old is None:
        return ""
    told = changelog.unescaped(changelog.markdown(changelog.diff(old, latest, named)))  # (shown as text)
    return (f"Since {tag} ({old.name}), as pnpgen diff --game {slug} {tag} latest writes it; every copy to print: "
            f"pnpgen reprint --game {slug} --since {tag}\n\n{told}")


def _reprint_list(out: Path) -> str:
    """The build's reprint.txt ("" when there is none), read only as a plain file inside ``out``:
    one left there as a link (a build that changes no piece keeps what is there) showed the file
    it led to, anywhere on the disk, in the page."""
    reprint = out / "reprint.txt"
    if not reprint.exists() and not reprint.is_symlink():
        return ""
    return built_file(out, "reprint.txt").read_bytes().decode("utf-8", errors="replace")


def _as_recorded(path: Path, st: os.stat_result, digest: str | None, cache: Cache) -> str | None:
    """``digest``, what the last build recorded of the file it wrote at ``path``, when the table of
    files' hashes knows the file by its stamp ``st`` (size, modification and change times, inode)
    to hold it; else None (not recorded, or changed since: a file written over in place, even at
    its size with its time set back, has another change time)."""
    return digest if digest is not None and cache.hashes.get(path, st) == digest else None


def _hashed(source: io.BufferedReader) -> str:
    """The SHA-256 of a file open, read block by block (a PDF the build's record does not vouch for)."""
    return hashlib.file_digest(source, "sha256").hexdigest()


def _opened(path: Path) -> io.BufferedReader:
    """``path`` open for reading, only as the plain file ``built_file`` found there (one put in
    its place since, a link or a FIFO, whose opening would wait for a writer: OSError)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"not a plain file: {path}")
    return os.fdopen(fd, "rb")


def page_count(data: bytes | io.BufferedReader) -> int:
    """How many pages a PDF has, its bytes or its file open (read by PDFium as it needs, not
    whole); ValueError when PDFium cannot read it."""
    import pypdfium2 as pdfium

    with PDFIUM:
        try:
            doc = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as e:
            raise ValueError(f"not a PDF: {e}") from None
        try:
            return len(doc)
        finally:
            doc.close()
