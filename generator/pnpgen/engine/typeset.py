"""The rulebook typeset for a build, in the rulebook's own process (``engine/bookjob.py`` starts it
and loads this module there by name, so the build's process never imports the rulebook).

The draft is read and proofed on every build that reaches here; its pages are set only when what
they are set from changed (``setting_key``): the draft's reading (text, components list, proofing
notes, warnings), the game's cover facts, the faces the book can show and how. A card's text
edited on a piece the book never shows changes proof.txt at most; the PDFs of the last build
are kept (``earlier``), read back only when their bytes are still the ones that build wrote.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pnpgen.data.gamefiles import figure_pictures
from pnpgen.data.load import max_dpi_of
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.engine.bookkey import PicturesNotHeld, icon_files, key_part, plain
from pnpgen.engine.fingerprint import big_file_stamp, code, sha
from pnpgen.engine.options import RulebookOptions
from pnpgen.faces.builtin import icon_dirs
from pnpgen.memo import Memo
from pnpgen.pdf.booklet import ParsedObjects
from pnpgen.pdf.settings import Compressions
from pnpgen.rulebook.book import (
    DraftReading,
    build_rulebook,
    prepare,
    proof_file,
    read_rulebook,
    settled,
    shown_pictures,
)
from pnpgen.rulebook.document import well_formed_entries
from pnpgen.rulebook.drawnparas import DrawnParagraphs


class Setting:
    """What the rulebook's process keeps from one job to the next, made where the process starts
    (engine/warm.py ``Worker``) and handed to each job: the draft read ahead of the faces, and
    the objects of the last setting's pages, the lines of its paragraphs."""

    def __init__(self) -> None:
        # The draft read and proofed while the build's process drew the faces (``prepare_rulebook``),
        # by the key of what the book is made from besides its pictures (engine/bookkey.py
        # ``model_key``, which holds everything the reading reads), for the ``typeset`` of the same
        # build: one kept, taken once.
        self.read_ahead: dict[str, DraftReading] = {}
        # The objects of the last setting's A5 pages as the booklet parsed them, by their bytes: a
        # save in ``watch`` sets the book again with a few of them changed, and the booklet parses
        # only those.
        self.parsed = ParsedObjects()
        # The lines of the book's paragraphs the last setting used (rulebook/setlines.py): the
        # next setting of the same book takes them from here, not from the machine's cache.
        self.lines: dict = {}
        # The Flate streams the last setting compressed, by their content (pdf/settings.py): most
        # of the next setting's (the fonts' subsets, the faces' forms, unchanged pages) are those.
        self.compressions = Compressions()
        # In a warm process: the workspace, game and model key of the build that asked for the key
        # (engine/bookjob.py ``_model_key``), for the draft's read-ahead that follows it.
        self.asked: tuple[Workspace, Game, str] | None = None
        # In a warm process: the decks' pictures of the last job, by their keys (engine/bookkey.py
        # ``picture_keys``): the next job is sent only the ones these do not hold.
        self.pictures: dict[str, Any] = {}
        # The book's paragraphs as the last setting drew them (rulebook/drawnparas.py): the next
        # setting takes those drawn alike where the fonts' subsets stand alike.
        self.drawn = DrawnParagraphs()


def prepare_rulebook(setting: Setting, ws: Workspace, game: Game, model: str = "", warm: bool = False) -> None:
    """Before the faces arrive: the rulebook's libraries and its fonts, and with ``model`` (the
    book's model key) the draft read and proofed, for ``typeset`` to take. A draft that cannot be
    read is left to ``typeset``, which reads it again and says why.

    In a ``warm`` process (watch, serve: kept across saves) the last setting's garbage is freed
    first: ReportLab's document and the booklet's objects hold reference cycles, some 9,000
    objects a setting, which the collector otherwise freed in the middle of every fifth setting
    (a collection of 50,000 objects, tens of ms of a save that waits for the book); here, the
    build's process is still drawing the faces. The young generations (some 3 ms), and all of
    them as often as the collector would (its third threshold: every tenth)."""
    if warm:
        gc.collect(2 if gc.get_count()[2] >= gc.get_threshold()[2] else 1)
    prepare(game, ws.fonts)
    setting.read_ahead.clear()
    if model:
        try:
            setting.read_ahead[model] = read_rulebook(game, ws.fonts)
        except Exception:  # noqa: BLE001 - typeset reads the draft again and reports what is wrong
            pass


def typeset(setting: Setting, ws: Workspace, game: Game, pictures: dict, opts: RulebookOptions, readings: dict,
            faces: dict[str, dict[str, str]] | None = None, earlier: dict[str, Any] | None = None,
            model: str = "", keys: dict[str, str] | None = None) -> tuple:
    """Typeset the draft as rulebook.pdf (A5) and rulebook-booklet.pdf (A4 saddle stitch): its
    files, warnings and report, with the index readings it had to look up, every term whose
    reading it used, and the key of the setting. Plain values, so the build's process takes them
    back without importing the rulebook. ``faces``: what each deck's faces are made from
    (engine/bookkey.py ``shown_faces``); ``earlier``: the last build's setting (``bookkey.earlier``),
    whose PDFs are kept when this setting's key is its key; ``model``: the book's model key, under
    which ``prepare_rulebook`` may have read the draft already (kept in ``setting``); ``keys``:
    each deck's picture by its key, in a warm process, where a picture sent as None is the one
    the last job held under its key (``held_pictures``)."""
    if keys is not None:
        pictures = held_pictures(setting, pictures, keys)
    reading = (setting.read_ahead.pop(model, None) if model else None) or read_rulebook(game, ws.fonts)
    key = setting_key(ws, game, reading, pictures, faces, opts) if faces is not None else ""
    kept = _kept(earlier, key)
    if kept is not None:
        files = {**kept, "proof.txt": proof_file(game, reading)}
        return (files, list(earlier["warnings"]), list(earlier["report"]), {}, list(earlier["used"]), key,  # type: ignore[index]
                earlier.get("entries"))  # type: ignore[union-attr]
    memo: Memo[str] = Memo(known={k: v for k, v in readings.items() if isinstance(v, str)})
    draft = hashlib.sha256(reading.draft.text.encode()).hexdigest()[:32]
    book = build_rulebook(game, ws.fonts, rules_only=opts.rules_only, creep_mm=opts.creep_mm,
                          binding=opts.binding, paper=opts.paper or game.options.get("paper") or "a4",
                          margin_mm=opts.margin_mm, pictures=pictures, readings=memo, reading=reading, entries=_entries(earlier, draft),
                          icon_dirs=icon_dirs(ws.templates, game.slug), parsed=setting.parsed, lines=setting.lines,
                          compressions=setting.compressions, max_dpi=max_dpi_of(opts.max_dpi, game), two_pass=opts.two_pass,
                          drawn=setting.drawn)
    return book.files, book.warnings, book.report, memo.learned, memo.used, key, {"draft": draft, "notified": book.entries}


def held_pictures(setting: Setting, pictures: dict, keys: dict[str, str]) -> dict:
    """The decks' pictures of a job, those sent as None taken from the ones ``setting`` holds by
    their keys; then only this job's are held, for the next. A key not held raises
    ``PicturesNotHeld`` (the build then sends them all) and leaves what is held as it was."""
    out = {}
    for deck, pic in pictures.items():
        if pic is None:
            pic = setting.pictures.get(keys.get(deck, ""))
            if pic is None:
                raise PicturesNotHeld(deck)
        out[deck] = pic
    setting.pictures = {keys[deck]: pic for deck, pic in out.items() if deck in keys}
    return out


def _entries(earlier: dict[str, Any] | None, draft: str) -> list | None:
    """The contents' and index's entries the last setting settled on, when it was set from the
    same draft text: a count, a card or a picture edited turns no page, so they hold and the
    pages are set in one pass (``rulebook/document.py`` ``render``). After an edit of the draft
    they are not offered: a moved page break would cost a pass more than the sketch they spare."""
    entries = earlier.get("entries") if isinstance(earlier, dict) else None
    if not isinstance(entries, dict) or entries.get("draft") != draft:
        return None
    return well_formed_entries(entries.get("notified"))


def setting_key(ws: Workspace, game: Game, reading: DraftReading, pictures: dict,
                faces: dict[str, dict[str, str]], opts: RulebookOptions) -> str:
    """What the pages are set from, as one key: everything ``build_rulebook`` reads after the
    draft's reading, the faces the book can show by what they are made from, pnpgen, the fonts."""
    shown = shown_pictures(pictures, reading.settings)
    pictured = {deck: {"trim": pic.trim_mm, "bleed": pic.bleed_mm, "outline": [list(p) for p in pic.outline],
                       "window": pic.window,
                       "faces": [faces.get(deck, {}).get(side, "?") for side in
                                 ("front", "back", *(str(n) for n in sorted(pic.pieces)),
                                  *(f"b{n}" for n in sorted(pic.backs)))]}
                for deck, pic in shown.items()}
    # the cover's choice, and a sealed pack's back shown for its front
    decks = [[d.id, d.kind, d.name, settled(d), bool(d.count), d.sealed] for d in game.decks]
    d = reading.draft
    parts = [code(), repr(opts), game.slug, game.lang, str(game.title), str(game.players), str(game.date),
             str(game.draft), json.dumps(plain(game.options), sort_keys=True, ensure_ascii=False, default=repr),
             reading.path.name, d.text, d.lang, d.encoding, str(d.repaired_digits), str(d.flattened),
             *([repr(d.rubies)] if d.rubies else []),
             json.dumps([plain(reading.settings), plain(reading.fonts), plain(reading.rows),
                         [[f.kind, f.book] for f in reading.findings], reading.warnings, reading.report,
                         reading.proof_lang, decks, pictured], sort_keys=True, ensure_ascii=False, default=repr)]
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() + b"\0")
    for path in sorted(Path(ws.fonts).glob("*.ttf")):
        try:
            stamp = big_file_stamp(path.stat())
        except OSError:  # a link to nowhere, or in a loop: no font, which the book does not use
            stamp = b"-"
        h.update(os.fsencode(path.name) + b":" + stamp + b"\0")
    for path in icon_files(ws, game):  # the draft's {name} icons
        h.update(os.fsencode(path.as_posix()) + b":" + key_part(path) + b"\0")
    for path in figure_pictures(game):  # the figures' own pictures and an SVG one's own (names, sizes: in the settings)
        h.update(os.fsencode(path.as_posix()) + b":" + key_part(path) + b"\0")
    return h.hexdigest()[:32]


def _kept(earlier: dict[str, Any] | None, key: str) -> dict[str, bytes] | None:
    """The last build's PDFs (the book, the booklet, a rule sheet) when they were set with ``key`` and are
    on disk as it wrote them."""
    if not key or not isinstance(earlier, dict) or earlier.get("key") != key:
        return None
    files = {}
    for name in earlier["files"]:  # (SET_FILES, and the rule sheet when the same settings asked for it)
        path, digest = earlier["files"][name]
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        if sha(data) != digest:
            return None
        files[name] = data
    return files
