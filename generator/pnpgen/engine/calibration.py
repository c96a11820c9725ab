"""The duplex calibration sheet as a file: its place beside the workspace's build folder, never
over a PDF of the designer's, and the paper and language the workspace's games agree on."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import replace
from pathlib import Path

from pnpgen import usercache
from pnpgen.atomic import put_unless_theirs
from pnpgen.data.formats import paper_named_by_size
from pnpgen.data.gamefiles import is_deck_name
from pnpgen.data.sheetlayouts import load_sheet
from pnpgen.data.validate import Invalid, paper
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.engine.output import make_folder, signals_deferred
from pnpgen.errors import InputError
from pnpgen.fonts import BUNDLED, DEFAULT_FONTS, LATIN_FONTS, holding, register
from pnpgen.impose.calibration import CalibrationOptions, calibration_pages
from pnpgen.impose.plan import PagePlan, TextOp
from pnpgen.litter import is_litter
from pnpgen.messages import msg
from pnpgen.pdf.writer import write_document

WRITTEN = "calibration"  # the machine cache's kind: the sheets written, by place (→ their bytes' hash)


def calibration_sheet(opts: CalibrationOptions) -> bytes:
    """The two-page sheet's PDF. An English sheet's texts are set in the face an English game's
    text is (Noto Sans, ``LATIN_FONTS``), each where that face holds every character of it
    (``fonts.holding``, as the home sheets' slug, a reprint and the contact sheet choose theirs),
    else in BIZ UDP Gothic, a Japanese sheet's face: an English game's sheet was set in the
    Japanese face alone (trial58). Its words and the rulers' numbers are each one face (the true
    minus of −2, which Noto Sans lacks, keeps the numbers in BIZ UDP Gothic)."""
    plain = register(DEFAULT_FONTS["gothic"], BUNDLED)
    if opts.lang == "ja":
        return write_document(PagePlan(msg("calibrate.doc", opts.lang), calibration_pages(opts, plain)), {}, plain)
    own = register(LATIN_FONTS["gothic"], BUNDLED)
    pages = calibration_pages(opts, own)
    texts = [item for page in pages for item in page.items if isinstance(item, TextOp)]
    numbers = [t for t in texts if _RULER_NUMBER.fullmatch(t.text)]  # the rulers' numbers, in one face
    faces = {kind: holding((own,), (plain,), [t.text for t in group])[0]
             for kind, group in ((True, numbers), (False, [t for t in texts if t not in numbers]))}
    for page in pages:
        page.items = [replace(item, font=faces[bool(_RULER_NUMBER.fullmatch(item.text))]) if isinstance(item, TextOp)
                      else item for item in page.items]
    return write_document(PagePlan(msg("calibrate.doc", opts.lang), pages), {}, own)


_RULER_NUMBER = re.compile("[\u2212]?[0-9.]+")  # (impose/calibration.py ruler_label)


def a_calibration_sheet(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a plain file holding the sheet pnpgen last wrote there (as recorded when
    it wrote it) or the sheet ``data`` itself, which a new sheet may replace. Its title is no proof:
    a sheet annotated and saved from a viewer keeps it, and is the designer's now; so is a PDF of
    theirs. (Where the machine keeps no cache, PNPGEN_CACHE=off, only the very same sheet is replaced.)"""
    return _holds_sheet(path, path, data)


def _holds_sheet(held: Path, place: Path, data: bytes) -> bool:
    """``a_calibration_sheet`` of the file at ``held``, read as the one that stood at ``place``."""
    try:
        if not held.is_file() or held.is_symlink():
            return False
        got = held.read_bytes()
    except OSError:
        return False
    return got == data or usercache.get(WRITTEN, _place(place)) == hashlib.sha256(got).hexdigest()


def write_calibration_sheet(out: Path, data: bytes) -> bool:
    """The sheet written to ``out`` whole (never half a sheet over the last one), and recorded;
    False, nothing written, where what stands there is not a sheet pnpgen wrote, even one saved
    there as the sheet is written (``atomic.put_unless_theirs``, as ``export-sheet --out`` refuses)."""
    make_folder(out.parent)

    def ours(held: Path) -> bool:  # (the file at the name, or the one moved aside from it: read as the name's)
        return a_calibration_sheet(out, data) if held == out else _holds_sheet(held, out, data)

    try:
        with signals_deferred():  # (never the designer's file left aside: a kill -9 cannot be held)
            written = put_unless_theirs(out, data, ours)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path=out, expected="a writable file path for --out") from None
    if written:
        usercache.put(WRITTEN, _place(out), hashlib.sha256(data).hexdigest())
    return written


def _place(path: Path) -> str:
    """The record's name of a sheet's file: its absolute place (another folder, another record)."""
    return usercache.key(os.fsencode(path.resolve()))


def games_paper_and_language(ws: Workspace, lang: str | None = None) -> tuple[str | None, str | None]:
    """The paper and the language (ja, en) every game of the workspace agrees on (game.yaml's
    ``paper:``, default a4; its default language), each None where they differ or none says: a
    calibration sheet for an English Letter game is not a Japanese A4 one by default. A paper given
    per language (``paper: {ja: a4, en: letter}``) is the one of the sheet's language, ``lang`` or
    the one the games agree on. A game.yaml that does not read, or names no paper pnpgen prints on,
    is passed over (calibrate builds no game: the build says what is wrong with it)."""
    games = _games(ws)
    langs = {"ja" if default == "ja" else "en" for _, _, default in games}
    agreed = langs.pop() if len(langs) == 1 else None
    papers = {_paper(data.get("paper"), lang or agreed or default) for _, data, default in games}
    papers.discard(None)
    return (papers.pop() if len(papers) == 1 else None), agreed


def _games(ws: Workspace) -> list[tuple[str, dict, str]]:
    """Each game that reads: its slug, its game.yaml's mapping, its default language."""
    games = []
    for slug in ws.slugs():
        try:
            data = load_yaml(ws.game_dir(slug) / "game.yaml").data
        except InputError:
            continue
        if isinstance(data, dict):
            languages = data.get("languages")
            first = languages[0] if isinstance(languages, list) and languages else "ja"
            games.append((slug, data, str(data.get("default_language", first))))
    return games


def other_papers(ws: Workspace, sheet: str, lang: str | None = None) -> dict[str, list[str]]:
    """The papers the workspace's home sheets print on besides the sheet's, ``sheet``: each with
    the files that say it (a game's game.yaml, a deck file's own ``paper:``, a sheet layout's paper
    that game.yaml or a deck file names by ``sheet:``), as the workspace
    names them. A printer profile holds one paper (docs/home-printing.md), so each needs a sheet
    of its own. A file that does not read is passed over, as above."""
    found: dict[str, list[str]] = {}
    for slug, data, default in _games(ws):
        game_paper = _paper(data.get("paper"), lang or default)
        if game_paper is not None:
            found.setdefault(game_paper, []).append(f"data/{slug}/game.yaml")
        laid = _sheet_paper(ws, data["sheet"]) if data.get("sheet") is not None else None  # every deck's sheet layout
        if laid is not None:
            found.setdefault(laid, []).append(f"data/{slug}/game.yaml (sheet layout {data['sheet']})")
        decks = ws.game_dir(slug) / "decks"
        for path in sorted(decks.iterdir()) if decks.is_dir() else []:
            if is_litter(path.name) or not is_deck_name(path.name) or path.name.startswith("."):
                continue
            try:
                deck = load_yaml(path).data
            except InputError:
                continue
            if isinstance(deck, dict) and deck.get("paper") is not None:
                own = _paper(deck["paper"], lang or default)
                if own is not None:
                    found.setdefault(own, []).append(f"data/{slug}/decks/{path.name}")
            if isinstance(deck, dict) and deck.get("sheet") is not None:  # a map's A3 sections: sheet: map-a3
                laid = _sheet_paper(ws, deck["sheet"])
                if laid is not None:
                    found.setdefault(laid, []).append(f"data/{slug}/decks/{path.name} (sheet layout {deck['sheet']})")
    return {p: files for p, files in sorted(found.items()) if p != sheet}


def _sheet_paper(ws: Workspace, name: object) -> str | None:
    """The paper a deck's sheet layout (``sheet: map-a3``) prints on, by the name calibrate takes
    (a3 for ``paper: [420, 297]``, either way round); None for pnpgen's grid, a paper of no such
    name (a calibration sheet is of a paper pnpgen knows) or a layout that does not read (the
    build says why)."""
    try:
        stock = load_sheet(ws.root, name, lambda message, expected: InputError(message, expected=expected))
    except InputError:
        return None
    if stock is None:
        return None
    w, h = stock.paper_mm
    return paper_named_by_size(f"{w:g}x{h:g}mm")


def _paper(value: object, lang: str) -> str | None:
    """A game's paper for an edition in ``lang`` (a4 where it names none for that one, as the
    build reads it), None where it is no paper pnpgen prints on."""
    if isinstance(value, dict):
        value = value.get(lang)
    try:
        return paper(value) if value else "a4"
    except Invalid:
        return None
