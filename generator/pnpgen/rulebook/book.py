"""The rulebook of one game, from the draft to the files: ``build_rulebook`` reads the draft of the build's language (``draft_for``: ``draft.en.txt``
beside ``draft.txt`` for ``--lang en``, else the default language's draft) with ``reader``, parses
it (``parse``; a Latin-script draft with ``latin``) into the draft's tree (``tree``),
matches its components with the data (``components``), collects the proofing report
(``proof``), builds the story (``story``: flowables from ``flowables``, measures from
``styles``, pictures of the pieces from ``pictures``, figures from game.yaml via ``figures``),
typesets an A5 book (``document``) and imposes it as a saddle-stitched A4 booklet
(``impose.booklet``). It writes nothing: the files come back as bytes for the build to write.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportlab.platypus import Flowable
from reportlab.platypus.doctemplate import LayoutError

from pnpgen import fonts as fontreg
from pnpgen.data.draftfile import default_language, draft_for, draft_path
from pnpgen.data.formats import MAX_DPI, MIN_DPI, booklet_paper_for
from pnpgen.data.load import load_game
from pnpgen.data.model import Game, is_placeholder, placeholder_word
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError, suggest
from pnpgen.faces.faceset import pictured
from pnpgen.impose import booklet as booklets
from pnpgen.memo import Memo
from pnpgen.messages import counted, msg
from pnpgen.pdf.booklet import ParsedObjects, impose_pdf
from pnpgen.pdf.settings import Compressions, default_font
from pnpgen.pdf.subsettags import tags_apart
from pnpgen.rulebook import draftchecks, glyphs, setlines, slug
from pnpgen.rulebook.components import ComponentRow, component_rows
from pnpgen.rulebook.diagram import DiagramTooWide
from pnpgen.rulebook.document import Meta, render
from pnpgen.rulebook.drawnparas import DrawnParagraphs
from pnpgen.rulebook.figures import FigureSpec, RulebookSettings, SheetSpec, anchor, load_settings, reach_mm
from pnpgen.rulebook.flowables import terms
from pnpgen.rulebook.inline import DraftIconError, Icon, draft_icons, has_icon
from pnpgen.rulebook.inline import unknown as unknown_icons
from pnpgen.rulebook.ownpics import low_dpi, picture_arts
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.pictures import DeckPicture
from pnpgen.rulebook.proof import Finding, proof, proof_text, report_lang
from pnpgen.rulebook.proofopen import draft_open_lines, open_in_draft, open_printed
from pnpgen.rulebook.reader import Draft, detect_language, read_draft
from pnpgen.rulebook.sheet import FILE as SHEET_FILE
from pnpgen.rulebook.sheet import SheetResult, column_measures, set_sheet
from pnpgen.rulebook.story import StoryBuilder
from pnpgen.rulebook.styles import INK, Fonts
from pnpgen.rulebook.tree import Document
from pnpgen.safetext import quoted
from pnpgen.svg.artwork import Art
from pnpgen.terms import is_latin
from pnpgen.text import icons_saved

COVER_KINDS = ("card", "tile", "token")  # what the cover shows, in this order (boards are too big)


@dataclass
class RulebookResult:
    """The rulebook a build set, before it is written: the PDFs and proof, the warnings and report lines, and which
    draft line each page sets (for the preview)."""

    files: dict[str, bytes]  # rulebook.pdf, rulebook-booklet.pdf, proof.txt
    warnings: list[str]
    report: list[str] = field(default_factory=list)  # info lines: encoding detected, digits repaired, sections found…
    entries: list = field(default_factory=list)  # the contents' and index's entries the pages settled on (``render``)
    # rulebook.pdf's pages: the draft set, and per page the draft line it sets (0: none, the cover)
    draft: Path | None = None
    page_lines: list[int] = field(default_factory=list)


# Bounds of a draft beside its size (textfile.MAX_DRAFT_BYTES): the book's time grows with each
# (20,000 sections took minutes to set); real drafts have a dozen sections and some fifty terms.
MAX_SECTIONS = 300
MAX_TERMS = 1_000


def load_document(game: Game) -> tuple[Draft, Document]:
    """Read, repair and parse the game's draft in the build's language (``draft_for``)."""
    path, _ = draft_for(game)
    draft = read_draft(path)
    declared = game.lang if path != draft_path(game) else default_language(game)
    draft.lang = detect_language(draft.text, declared)
    if draft.lang != declared and is_latin(draft.lang):
        draft.report.append(f"draft {path.name}: no Japanese text in it, so it is read and set as {draft.lang}")
    elif draft.lang != declared:  # (draft.en.txt itself in Japanese: no draft.en.en.txt to suggest)
        beside = f", or beside it as {path.stem}.{declared}{path.suffix}" if path == draft_path(game) else ""
        draft.warnings.append(f"{path}: the draft is written in Japanese and the game's language is {declared}: "
                              f"it is read and set as Japanese, with {declared} labels (write the {declared} "
                              f"draft in its place{beside})")
    doc = parse(draft.text, draft.lang)
    if len(doc.sections) > MAX_SECTIONS:
        raise InputError(f"the draft has {len(doc.sections):,} sections", path=path, line=doc.sections[MAX_SECTIONS].line,
                         expected=f"a rulebook of at most {MAX_SECTIONS} ■ sections")
    if len(index := set(terms(draft.text))) > MAX_TERMS:
        raise InputError(f"the draft marks {len(index):,} different 【terms】 for the index", path=path,
                         expected=f"at most {MAX_TERMS:,} terms in 【】 (each is looked up on every page)")
    return draft, doc



# The body of a Japanese book in the default style (``rulebook.style: jlreq``): fixed-width, its
# 約物 full-width, so that JLREQ's punctuation widths and a character grid can be set
JLREQ_MINCHO = "BIZUDMincho-Regular"


def _fonts(game: Game, font_dir: Path, lang: str, style: str = "jlreq") -> Fonts:
    """The game's font roles for a draft in ``lang``; pnpgen's own notes, in the game's language,
    in that language's body font when it is set in Latin letters and the draft is not."""
    fontreg.saved_since()  # (the book's process sets book after book: a font saved over is read anew)
    roles = _roles(game, lang, style)
    names = {role: fontreg.register(roles[role], font_dir) for role in ("mincho", "gothic", "bold", "mono")}
    notes = fontreg.register(_roles(game, game.lang, style)["mincho"], font_dir) \
        if is_latin(game.lang) and not is_latin(lang) else ""
    fonts = Fonts(body=names["mincho"], gothic=names["gothic"], bold=names["bold"], mono=names["mono"], notes=notes)
    plain = dict(fontreg.DEFAULT_FONTS)
    plain.update({k: v for k, v in (game.fonts or {}).items() if v})
    glyphs.use(fonts, game.fallback_fonts, plain, font_dir)  # what a font lacks: see glyphs
    return fonts


def _roles(game: Game, lang: str, style: str) -> dict[str, str]:
    """The font of each role for text in ``lang``: that language's own roles when it is the
    build's (``fonts: {en: …}`` in game.yaml, ``Game.text_fonts``). A book in Latin letters sets
    a role no ``fonts:`` entry names in the Latin face pnpgen ships
    (Noto), not in BIZ UD's Latin letters, their word spaces justified wide. A Japanese
    book in the ``jlreq`` style sets its body in BIZ UD明朝 (fixed width) where it would be the
    default BIZ UDP明朝."""
    latin = is_latin(lang)
    roles = dict(fontreg.DEFAULT_FONTS) | (fontreg.LATIN_FONTS if latin else {})
    own = game.text_fonts if lang == game.lang and game.text_fonts else game.fonts
    # (the game's roles hold BIZ UD's where game.yaml names none: those are no choice of a Latin face)
    roles.update({k: v for k, v in (own or {}).items() if v and (k in game.named_fonts or not latin)})
    if style == "jlreq" and not is_latin(lang) and roles["mincho"] == fontreg.DEFAULT_FONTS["mincho"]:
        roles["mincho"] = JLREQ_MINCHO  # the proportional default's fixed-width twin
    return roles


def prepare(game: Game, font_dir: Path) -> None:
    """Parse the fonts ``build_rulebook`` will set the game's draft in: what a build does in the
    rulebook's process while the faces the rulebook shows are still being drawn. The draft is
    read once, by ``build_rulebook``: here its language is the one it is kept in (``draft_for``)."""
    path, _ = draft_for(game)
    declared = game.lang if path != draft_path(game) else default_language(game)
    _fonts(game, Path(font_dir), declared, load_settings(game).style)


def _date(text: str, lang: str = "ja") -> str:
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(text).strip())
    if not m:
        return str(text)
    year, month, day = (int(g) for g in m.groups())
    months = msg("rulebook.month_names", lang).split()
    return msg("rulebook.date", lang, year=year, day=day, month_name=months[month - 1])




def _players(text: str, lang: str = "ja") -> str:
    """``3-5`` → ``3〜5人`` (``3–5`` in English); an open value gives "" (the cover leaves the line out)."""
    text = str(text).strip()
    if is_placeholder(text) or not text:
        return ""
    m = re.fullmatch(rf"(\d+)\s*{draftchecks.PLAYERS_RANGE}\s*(\d+)", text)
    if m:
        return msg("rulebook.players_range", lang, low=m.group(1), high=m.group(2))
    return msg("rulebook.players_one", lang, players=text) if text.isdigit() else text


def _in_language(game: Game, lang: str) -> Game | None:
    """The game in the draft's language ``lang`` when the build is in another one (a Japanese
    draft in an ``--lang en`` build), else None."""
    if lang == game.lang or lang not in game.languages:
        return None
    return load_game(Workspace(Path(game.root).parent.parent), game.slug, lang)


def _names_in(other: Game | None) -> dict[str, str]:
    """The decks' and sourced items' names of ``other`` (``_in_language``: a Japanese draft in
    an ``--lang en`` build names the pieces in Japanese): by deck id, and ``sourced.<n>`` for
    the n-th sourced item. Empty when nothing needs translating back."""
    if other is None:
        return {}
    names = {d.id: d.name for d in other.decks}
    names.update({f"sourced.{i}": s.name for i, s in enumerate(other.sourced)})
    return names


def settled(deck) -> bool:
    """Is the piece that pictures the deck (its first printed) free of placeholders (未定, no art yet)?
    Only such a face is on the cover."""
    return not deck.shown.shows_placeholder


def _cover(game: Game, pictures: Mapping[str, DeckPicture], named: Sequence[str] = ()) -> list[tuple[str, DeckPicture]]:
    """The decks whose fronts the cover shows: those game.yaml's ``rulebook: cover_decks:`` names,
    else up to three of one kind (cards, tiles, tokens), the game's main pieces first — the deck
    with the most distinct pieces (a wargame's 40 counters, not its one aid card), then its kind's
    others by the same count; never a face that shows a placeholder, nor a deck that prints nothing
    (every piece parked: no component, a card set aside was the cover's picture), nor, unless named,
    a sealed pack's (``sealed: true``: its faces are the players' to find)."""
    if named:
        by_id = {d.id: d for d in game.decks}
        return [(n, pictures[n]) for n in named if n in pictures and by_id[n].count and settled(by_id[n])]
    decks = sorted((d for d in game.decks if d.id in pictures and d.kind in COVER_KINDS and d.count and settled(d)
                    and not d.sealed),
                   key=lambda d: (-len(d.pieces), COVER_KINDS.index(d.kind)))  # (ties: the game's order)
    same = [d for d in decks if d.kind == decks[0].kind] if decks else []  # one kind: pieces of one size
    return [(d.id, pictures[d.id]) for d in same[:3]]


def _bare_cover(game: Game) -> str:
    """What the build's rulebook line adds when the cover has no piece on it, as every deck it
    could show has a placeholder on its first piece (a deck-builder whose first cards have no art
    yet, a game just made by pnpgen new): the designer is not left to wonder why the cover is bare."""
    decks = [d for d in game.decks if d.kind in COVER_KINDS and d.pieces and d.count and not d.sealed]
    if not decks or any(settled(d) for d in decks):
        return ""
    firsts = ", ".join(f"{d.id}: {d.shown.label}" for d in decks[:3]) + (" …" if len(decks) > 3 else "")
    return (f" (none on the cover: each deck's first printed piece holds a placeholder, {placeholder_word(game.lang)} "
            f"or no art yet: {firsts})")


@dataclass
class DraftReading:
    """The draft read against the data before a page is set: what it says, the fonts it is set
    in, the components list, the proofing findings, and the warnings and report lines so far."""

    path: Path
    draft: Draft
    doc: Document
    settings: RulebookSettings
    fonts: Fonts
    rows: list[ComponentRow]
    findings: list[Finding]
    proof_lang: str
    warnings: list[str]
    report: list[str]


def read_rulebook(game: Game, font_dir: Path, min_dpi: float = MIN_DPI) -> DraftReading:
    """Read, parse and check the game's draft with its ``rulebook:`` settings. Raises InputError
    for a missing or undecodable draft and for bad settings. ``min_dpi``: a figure's own picture
    printed below it is warned (a shop's export: its preset's dpi when more)."""
    path, other_language = draft_for(game)
    draft, doc = load_document(game)
    settings = load_settings(game)
    report = list(draft.report)
    warnings = list(draft.warnings) + ([other_language] if other_language else [])
    report.append(
        f"parsed: title {quoted(doc.title)} {doc.draft_label or '(no draft number)'}; "
        f"{counted(len(doc.rules), 'rules section')} ({(', ' if is_latin(draft.lang) else '、').join(s.title for s in doc.rules)}), "
        f"{counted(len(doc.components), 'component')}, {counted(len(doc.steps), 'step')}; "
        f"{counted(len(doc.of_kind('notes')), 'note')}, {len(doc.of_kind('brainstorm'))} brainstorm, "
        f"{counted(len(doc.of_kind('changelog')), 'change-log section')}"
    )
    warnings += draftchecks.step_numbering(doc, path, is_latin(draft.lang)) + draftchecks.section_numbers(doc, path)
    warnings += draftchecks.case_numbering(doc, path)
    warnings += draftchecks.markdown_marks(doc, path, is_latin(draft.lang))
    warnings += draftchecks.dot_numbered(doc, path, is_latin(draft.lang))
    if not doc.rules:
        warnings.append(f"{path}: no rules section found (■ in a Japanese draft; #, numbered or ALL CAPS "
                        "headings in an English one); the rulebook has no rules")
    fonts = _fonts(game, Path(font_dir), draft.lang, settings.style)
    other = _in_language(game, draft.lang)
    rows, comp_warnings, comp_report = component_rows(doc, game, path, aliases=_names_in(other),
                                                      latin=is_latin(draft.lang))
    warnings += draftchecks.missing_glyphs(doc, fonts, [r.name for r in rows], path)
    warnings += draftchecks.consistency(doc, game, path, (other or game).title)
    warnings += comp_warnings
    warnings += _past_the_box(game, settings)
    warnings += [spec.untranslated for spec in settings.figures if spec.untranslated]
    warnings += settings.untranslated
    warnings += [settings.parked_summary] if settings.parked_summary else []
    warnings += settings.cover_left_out
    warnings += low_dpi(game, settings, min_dpi)
    report += comp_report
    proof_lang = report_lang(game.lang, draft.lang)
    findings = proof(doc, draft.text, game, rows, path, proof_lang, draft_lang=draft.lang,
                     ignore=settings.proof_ignore, figures=[spec.after for spec in settings.figures])
    if is_placeholder(game.players):
        at = game.options.get("players_at") or game.root / "game.yaml"  # (a Game made in a test has no line)
        warnings.append(f"{at}: players is a placeholder ({game.players}); the cover leaves it out")
    return DraftReading(path, draft, doc, settings, fonts, rows, findings, proof_lang, warnings, report)


def rulebook_warnings(game: Game, font_dir: Path, icon_dirs: Sequence[Path] = ()) -> list[str]:
    """What ``build_rulebook`` warns about, found without setting a page: the reading's warnings,
    the ``{name}``s no icon of ``icon_dirs`` has, and each figure whose ``after:`` names no heading
    of the draft."""
    return rulebook_check(game, font_dir, icon_dirs)[0]


def rulebook_check(game: Game, font_dir: Path, icon_dirs: Sequence[Path] = (),
                   pictures: Mapping[str, DeckPicture] | None = None, paper: str | None = None,
                   two_pass: bool = False) -> tuple[list[str], list[str], int, str]:
    """``pnpgen check``'s: ``rulebook_warnings``, the 未定 (要検討, TODO, TBD, ??) the draft's
    rules still hold, each at its file:line as proof.txt lists them (``proofopen.open_in_draft``:
    the first 50, the last saying how many more), how many lines hold one, all of them, and the rule
    sheet's line of the build's summary (empty when game.yaml asks for none). The sheet is set as the
    build sets it, with the decks' ``pictures`` (``pictures_from_game``) on the booklet's ``paper``
    (``two_pass``: printed without duplex), so check says its sides and warns past two as the build
    does; without ``pictures``, its columns are only made (a diagram too wide for one still said)."""
    r = read_rulebook(game, font_dir)
    icons = _drawn_icons(r, icon_dirs)  # (an icon the book cannot draw stops the build: check says so)
    own = picture_arts(game, r.settings)
    builder = _story_builder(game, r, rules_only=False, pictures={}, own=own)
    _story(builder, r.path)
    said, sheet_warnings = "", []
    wanted = r.settings.sheet
    if wanted is not None and pictures is not None:  # its sides counted as the build counts them
        shown = shown_pictures(pictures, r.settings)
        try:
            sheet = _rule_sheet(game, r, _meta(game, r, False, shown, "left", icons), wanted, shown, icons, own,
                                paper or booklet_paper_for(game.options.get("paper")), two_pass)
        except LayoutError as e:
            raise _too_tall(e, SHEET_COLUMN, r.path) from None
        said, sheet_warnings = sheet.report, sheet.warnings
    elif wanted is not None:  # its columns hold the book's diagrams too (a build stops at one that does not)
        w, h = column_measures(wanted, booklet_paper_for(paper or game.options.get("paper")))
        _story(_story_builder(game, r, rules_only=False, pictures={}, own=own, text_w=w, body_h=h), r.path, wanted)
    warnings = r.warnings + _icon_warnings(r, game.slug, icons, icon_dirs) + \
        [_unplaced(game, spec, builder.anchors, r.draft.lang) for spec in r.settings.figures
         if anchor(spec.after) not in {anchor(a) for a in builder.anchors}] + sheet_warnings
    found = draft_open_lines(r.doc, r.draft.text)
    return warnings, [f.file for f in open_in_draft(r.doc, r.draft.text, r.path, "en", found)], len(found), said


def _drawn_icons(r: DraftReading, icon_dirs: Sequence[Path]) -> dict[str, Icon]:
    """The draft's icons as the book draws them; one that cannot be drawn is an error at the
    draft's line naming its file (it was a traceback)."""
    icons_saved(icon_dirs)  # (the book's process sets book after book: an icon edited is drawn anew)
    try:
        return draft_icons(r.draft.text, icon_dirs, INK.hexval().replace("0x", "#")) if icon_dirs else {}
    except DraftIconError as e:
        found = draftchecks.first_found(r.doc, re.compile(re.escape("{" + e.name + "}")))
        raise InputError(f"{e.reason} (used as {{{e.name}}} in the draft)", path=r.path,
                         line=found[0] if found else None,
                         expected=e.expected or f"{e.name}.svg an SVG of plain shapes with a viewBox, as the cards' icons") from None


def _icon_warnings(r: DraftReading, slug: str, icons: dict[str, Icon], icon_dirs: Sequence[Path]) -> list[str]:
    """The draft's ``{name}``s no icon has, and icons' names in full-width braces (``｛coin｝``)."""
    if not icon_dirs:
        return []
    return draftchecks.unknown_icons(r.doc, r.path, slug, unknown_icons(r.draft.text, icons)) + \
        draftchecks.wide_icons(r.doc, r.path, r.draft.text, lambda n: has_icon(n, icon_dirs))


def _past_the_box(game: Game, settings: RulebookSettings) -> list[str]:
    """A figure piece reaching past its figure's box would print over the page around it (the
    running head, the text): the figure cuts it at its box, and the designer is told by how much."""
    decks = {d.id: d for d in game.decks}
    out = []
    for spec in settings.figures:
        for p in spec.pieces:
            deck = decks.get(p.deck)
            if deck is None:
                continue
            past = reach_mm(*pictured(deck)[:2], p, spec.size_mm)
            if past > 0.05:
                out.append(f"{game.root / 'game.yaml'}:{spec.line}: figure after {quoted(spec.after)}: piece {p.piece} of "
                           f"'{p.deck}' at ({p.x:g}, {p.y:g}) mm reaches {past:.1f} mm past the figure's "
                           f"{spec.size_mm[0]:g}×{spec.size_mm[1]:g} mm box, so it is cut there "
                           "(make size: larger, or move the piece in)")
    return out


def _too_thick(game: Game, draft: Path, sheets: int, sheet_name: str, settings: RulebookSettings) -> str:
    """The warning for a booklet of more sheets than one saddle stitch holds."""
    where = f"{game.root / 'game.yaml'}:{settings.booklet_sheets_line}" if settings.booklet_sheets_line else str(draft)
    return (f"{where}: the booklet is {sheets} sheets of {sheet_name} folded into one, more than a saddle stitch "
            f"goes through ({settings.booklet_sheets}: game.yaml's rulebook: booklet_sheets); print rulebook.pdf "
            "and bind it another way (a side staple, rings, a shop's perfect binding), or shorten the draft")


def _unplaced(game: Game, spec: FigureSpec, anchors: set[str], lang: str) -> str:
    """The warning for a figure not shown; the title it was meant to follow, if one is near, or
    the ``after:`` to give per language when a Japanese title is looked for in an English draft
    (a ja game's figure in the ``--lang en`` edition, set from draft.en.txt)."""
    near = suggest(spec.after, sorted(anchors))
    if not near and is_latin(lang) and any(map(glyphs.japanese, spec.after)):
        near = (f" (the {lang} draft's titles are {lang}: give the figure's place in each language, "
                f"after: {{ja: {spec.after}, {lang}: …}})")
    return (f"{game.root / 'game.yaml'}:{spec.line}: figure after {quoted(spec.after)}: no step, sub-heading or "
            f"section of that title in the draft (or no pictures), so it is not shown{near}")


def shown_pictures(pictures: Mapping[str, DeckPicture], settings: RulebookSettings) -> dict[str, DeckPicture]:
    """The decks' pictures as the book can show them: each deck's first front and back (the cover,
    the components pages, the quick reference) and the other pieces a figure of game.yaml names,
    no other piece. What the book shows is then known before a page is set (engine/typeset.py
    keys a setting by it: a card's text edited on a piece the book never shows sets nothing)."""
    named = {(p.deck, p.piece) for spec in settings.figures for p in spec.pieces if p.side == "front"}
    turned = {(p.deck, p.piece) for spec in settings.figures for p in spec.pieces if p.side == "back"}
    return {deck: replace(pic, pieces={n: art for n, art in pic.pieces.items() if (deck, n) in named},
                          backs={n: art for n, art in pic.backs.items() if (deck, n) in turned})
            for deck, pic in pictures.items()}


def proof_file(game: Game, reading: DraftReading) -> bytes:
    """``proof.txt``: the proofing findings of the draft against the pieces, for the designer."""
    return proof_text(game, reading.path, reading.findings, reading.proof_lang,
                      reading.draft.flattened).encode("utf-8")


def build_rulebook(game: Game, font_dir: Path, *, pictures: Mapping[str, DeckPicture] | None = None,
                   rules_only: bool = False, creep_mm: float = 0.0, binding: str = "left", paper: str = "a4",
                   readings: Memo[str] | None = None, reading: DraftReading | None = None,
                   entries: list | None = None, icon_dirs: Sequence[Path] = (), booklet: bool = True,
                   parsed: ParsedObjects | None = None, lines: dict | None = None,
                   compressions: Compressions | None = None, min_dpi: float = MIN_DPI,
                   max_dpi: float = MAX_DPI, margin_mm: float = slug.PRINTER_MARGIN_MM,
                   two_pass: bool | None = False, rule_sheet: bool = False,
                   drawn: DrawnParagraphs | None = None) -> RulebookResult:
    """``rulebook.pdf`` (A5), ``rulebook-booklet.pdf`` (on ``paper`` landscape: A4, or Letter with
    the pages at 94 %; saddle stitch) and
    ``proof.txt`` as bytes. ``pictures`` are the decks' faces by deck id (the build passes the
    sheets' own art; ``pictures_from_game`` makes them). Raises InputError for a missing or
    undecodable draft and for bad ``rulebook:`` settings. ``readings``: the index terms'
    readings known from earlier builds; the ones looked up here are learned into it. ``reading``:
    the draft as ``read_rulebook`` read it already (else it is read here). ``entries``: the
    contents' and index's entries an earlier setting settled on (``RulebookResult.entries``),
    which spare the sketch pass when they still hold (``document.render``). ``icon_dirs``: where
    the draft's ``{name}`` icons are looked up, in order (``inline``). ``booklet`` False: no home
    booklet, nor its warning (a print shop's book, exports/book.py, is bound by the shop).
    ``parsed``: the objects of the last setting's pages, for the booklet (``impose_pdf``);
    ``lines``: the lines the last setting in this process used (``setlines.SetLines.recall``);
    ``compressions``: the streams the last setting in this process compressed (``document.render``);
    ``min_dpi``: as ``read_rulebook``'s, when the draft is read here; ``max_dpi``: the resolution
    ceiling a figure's own raster picture is resampled to (0: none; ``--max-dpi``); ``margin_mm``: the
    printer's unprinted margin the booklet's fold marks and printing note stand inside (``--margin``);
    ``two_pass``: the booklet printed without duplex (True), with it (False) or either (None:
    ``pnpgen rulebook`` alone), which its printing note says (``slug``);
    ``rule_sheet``: ``rule-sheet.pdf`` too, game.yaml's ``sheet:`` or the default one (``--rule-sheet``:
    rulebook/sheet.py), as it is when game.yaml asks for one."""
    if binding not in ("left", "right"):
        raise InputError(f"unknown binding {binding!r}", key="binding", expected="left or right")
    if creep_mm < 0:
        raise InputError(f"creep {creep_mm} mm is negative", key="creep", expected="0 or more mm per sheet")
    r = reading or read_rulebook(game, font_dir, min_dpi)
    pictures = shown_pictures(pictures or {}, r.settings)
    for name in {*game.fonts.values(), *game.text_fonts.values(), *game.fallback_fonts, *game.text_fallback_fonts}:
        fontreg.locate(name, font_dir)  # the faces the book shows draw with them (a card's own fonts: display)
    path, draft, settings, fonts = r.path, r.draft, r.settings, r.fonts
    warnings, report, findings = r.warnings, r.report, r.findings
    lang = game.lang  # pnpgen's own labels; the draft's text is in draft.lang
    icons = _drawn_icons(r, icon_dirs)
    warnings += _icon_warnings(r, game.slug, icons, icon_dirs)
    if rules_only:
        warnings += _provisional_printed(r, lang) + open_printed(r.doc, r.draft.text, r.path)
    meta = _meta(game, r, rules_only, pictures, binding, icons)
    setting = setlines.SetLines()  # this book's lines: recalled from its last setting, kept for the next
    own = picture_arts(game, settings, max_dpi)
    builder = _story_builder(game, r, rules_only, pictures, readings, icons, setting, own)
    default_font(fonts.gothic)  # the pieces' art starts from an embedded font, never Helvetica
    setting.recall(f"{game.slug}\0{draft.lang}\0{Path(font_dir).resolve()}", fontreg.registered(), lines)
    sheet_spec = (settings.sheet or (SheetSpec() if rule_sheet else None)) if booklet else None  # (a shop's book: none)
    sheet, where = None, "an A5 page"
    try:
        if drawn is not None:
            drawn.begin()
        a5, n_pages, settled_entries = render(_story(builder, path), meta, fonts, entries=entries,
                                              compressions=compressions, drawn=drawn)
        if drawn is not None:
            drawn.end()
        a5 = tags_apart(a5)  # ReportLab tags each font's first subset AAAAAA+: one tag a subset (ISO 32000-1 §9.6.4)
        setting.keep(lines)  # the lines this setting used, for the next build's (in a new process)
        if sheet_spec is not None:  # the same rules in the sheet's columns, by a builder of their own
            where = SHEET_COLUMN
            sheet = _rule_sheet(game, r, meta, sheet_spec, pictures, icons, own, paper, two_pass, rules_only)
    except LayoutError as e:  # one block no page holds: platypus cannot split it
        raise _too_tall(e, where, path) from None
    warnings += [_unplaced(game, spec, builder.anchors, draft.lang) for spec in settings.figures
                 if spec not in builder.figures_placed]
    sheet_mm = booklets.BOOKLET_SHEETS[paper]
    sheet_name = "Letter" if sheet_mm == booklets.LETTER_LANDSCAPE else "A4"
    sides = booklets.layout(n_pages, binding=binding, creep_mm=creep_mm, keep_last=True, sheet_mm=sheet_mm)
    a4 = tags_apart(impose_pdf(a5, sides, sheet_mm=sheet_mm,
                               marks=slug.overlays(sides, fonts.gothic, lang, binding, sheet_mm, sheet_name, margin_mm,
                                                   two_pass),
                               parsed=parsed)) \
        if booklet else b""
    scale = booklets.book_scale(booklets.A5, sheet_mm)
    total = booklets.padded_count(n_pages)
    if booklet and total // 4 > settings.booklet_sheets:
        warnings.append(_too_thick(game, path, total // 4, sheet_name, settings))
    report.append("line breaking: words and hyphenation (pyphen), justified by word spaces" if is_latin(draft.lang)
                  else "line breaking: JLREQ kinsoku, character by character (pnpgen.text.linebreak), justified")
    report.append(
        f"rulebook: {n_pages} A5 pages{' (rules only)' if rules_only else ''}; booklet: "
        f"{counted(total // 4, 'sheet')}{f' of {sheet_name}, the pages at {round(scale * 100)} %' if scale < 1 else ''}, "
        f"{counted(total - n_pages, 'blank page')} added, binding {binding}, creep {creep_mm:g} mm/sheet; "
        f"{counted(len(pictures), 'deck picture')}{_bare_cover(game)}, {counted(len(builder.figures_placed), 'figure')}, "
        f"{counted(len(findings), 'proofing note')} in proof.txt"
    )
    files = {"rulebook.pdf": a5, "rulebook-booklet.pdf": a4, "proof.txt": proof_file(game, r)} if booklet \
        else {"rulebook.pdf": a5, "proof.txt": proof_file(game, r)}
    if sheet is not None:  # (a shop's book, exports/book.py, is the book alone: no booklet, no sheet)
        files[SHEET_FILE] = sheet.data
        warnings += sheet.warnings
        report.insert(len(report) - 1, sheet.report)  # (the book's summary stays the report's last line)
    return RulebookResult(files, warnings, report, settled_entries, path, builder.page_lines(n_pages))


SHEET_COLUMN = "a column of the rule sheet"  # where a block too tall for the sheet stood


def _rule_sheet(game: Game, r: DraftReading, meta: Meta, spec: SheetSpec, pictures: Mapping[str, DeckPicture],
                icons: Mapping[str, Icon], own: Mapping[int, Art], paper: str, two_pass: bool | None,
                rules_only: bool = False) -> SheetResult:
    """The rule sheet ``spec`` asks for, on the booklet's ``paper`` when it names none: the rules' story
    set again in its columns by a builder of its own (the build's and ``pnpgen check``'s alike)."""
    if not spec.pictures:  # (sheet: {pictures: false}: the rules' text alone, no piece pictured, no figure)
        r, pictures, own = replace(r, settings=replace(r.settings, figures=[])), {}, {}
    return set_sheet(lambda w, h: _story(_story_builder(game, r, rules_only, pictures, None, icons, None, own,
                                                        text_w=w, body_h=h, printed=spec.scale), r.path, spec),
                     meta, r.fonts, spec, booklet_paper_for(paper), r.path, two_pass)


def _too_tall(e: LayoutError, where: str, path: Path) -> InputError:
    """One block ``where`` (an A5 page, a column of the rule sheet) cannot hold: platypus cannot split it."""
    block = _block(e)
    return InputError(f"the rulebook has a block taller than {where} ({block})", path=path,
                      line=getattr(e, "draft_line", None) or None,
                      expected="a heading of a line or two, its details in the text under it" if block == "a heading"
                      else "diagrams of at most 30 lines; names and words short enough to wrap")


def _meta(game: Game, r: DraftReading, rules_only: bool, pictures: Mapping[str, DeckPicture], binding: str,
          icons: Mapping[str, Icon]) -> Meta:
    """What the book (and the rule sheet's head) prints of the game: its title, players, draft and
    date, the colophon's lines, the cover."""
    path, draft, doc, settings = r.path, r.draft, r.doc, r.settings
    lang = game.lang  # pnpgen's own labels; the draft's text is in draft.lang
    if rules_only:  # a book to hand out or print names no draft: game.yaml's edition (初版), else nothing
        draft_label = settings.edition
    elif doc.draft_number is not None and is_latin(draft.lang) != is_latin(lang):
        draft_label = msg("rulebook.draft", lang, draft=doc.draft_number)  # 草案１ on an English cover: Draft 1
    else:
        draft_label = doc.draft_label or (msg("rulebook.draft", lang, draft=game.draft) if str(game.draft).strip() else "")
    repairs = (msg("rulebook.colophon_digits", lang, n=draft.repaired_digits) if draft.repaired_digits else "") \
        + (msg("rulebook.colophon_lines", lang) if draft.flattened else "")
    colophon = [  # the designer's own lines; what the book was set from is for the designer's copy only
        msg("rulebook.colophon_sep", lang).join(p for p in (draft_label if rules_only else doc.draft_label,
                                                            _date(game.date, lang)) if p),
        *settings.colophon,
        *([] if rules_only else [msg("rulebook.colophon_draft", lang, file=path.name, encoding=draft.encoding, repairs=repairs)]),
        # the counts come from the decks and sourced parts: a book of a game with neither (a scenario
        # book, a player's handout) prints the draft's own, and says nothing of the data's
        *([] if rules_only or not (game.decks or game.sourced) else [msg("rulebook.colophon_counts", lang)]),
        msg("rulebook.colophon_typeset" if rules_only else "rulebook.colophon_setting", lang),
    ]
    return Meta(
        title=game.title or doc.title,
        title_parts=[p for p in str(game.title).split("　") if p] or doc.title_parts,
        subtitle=str((game.options or {}).get("subtitle", "") or ""),
        draft_label=draft_label,
        players=_players(game.players, lang),
        date=_date(game.date, lang),
        colophon=colophon,
        binding=binding,
        cover=_cover(game, pictures, settings.cover_decks),
        lang=lang,
        latin=is_latin(draft.lang),
        icons=icons,
        playtest=not rules_only,
        cover_label=settings.cover,
    )


def _provisional_printed(r: DraftReading, lang: str) -> list[str]:
    """The book to hand out still prints a stand-in count 「5枚（仮）」 (the draft gives none, the
    data's is a guess): said once, with each as printed, as its copies carry the mark until the
    draft counts it."""
    mark = msg("rulebook.provisional", lang)
    shown = [f"{row.name} {row.count_text()}{mark}" for row in r.rows if row.provisional and row.count_text()]
    if not shown:
        return []
    return [f"{r.path}: the book to hand out prints {counted(len(shown), 'count')} marked {mark.strip()}, stand-ins "
            f"the draft gives no count for: {', '.join(shown)} (the build's proof.txt lists them; give each its count in the "
            f"draft's components list to print it without the mark)"]


def _story(builder: StoryBuilder, path: Path, sheet: SheetSpec | None = None) -> list[Flowable]:
    """The book's flowables (``sheet``: a rule sheet's, ``StoryBuilder.sheet_story``); a diagram wider
    than the page's text (or the sheet's column) is an error at its draft line (for check and the build alike)."""
    try:
        return builder.story() if sheet is None else builder.sheet_story(sheet.quick_reference)
    except DiagramTooWide as e:
        room = "page's text" if sheet is None else "rule sheet's column"
        raise InputError(f"a diagram's row {e.row} is {e.cells / 2:,g} full-width characters wide, wider than the "
                         f"{room} ({e.room // 2})", path=path, line=e.draft_line or None,
                         expected=f"rows of at most {e.room // 2} full-width characters ({e.room} half-width): "
                                  "a wider map split in two, or given fewer cells" +
                                  ("" if sheet is None else "; or the sheet's columns wider (fewer columns, "
                                   "landscape)")) from None


def _block(e: LayoutError) -> str:
    """Which block ReportLab could not place, in the designer's words: its kind and first words."""
    m = re.search(r"<(\w+) at 0x[0-9a-f]+[^>]*>(.{0,30})", str(e), re.S)
    if not m:
        return "a block"
    kind = {"Diagram": "a diagram", "Paragraph": "a paragraph", "Table": "a table",
            "Heading": "a heading"}.get(m.group(1), m.group(1))
    start = m.group(2).split("'")[0].strip() if m.group(1) == "Paragraph" else ""  # only text shows its words
    return f"{kind} beginning {quoted(start + '…')}" if start else kind


def _story_builder(game: Game, r: DraftReading, rules_only: bool, pictures: Mapping[str, DeckPicture],
                   readings: Memo[str] | None = None, icons: Mapping[str, Icon] | None = None,
                   setting: setlines.SetLines | None = None, own: Mapping[int, Art] | None = None,
                   **measures: float) -> StoryBuilder:
    """The story's builder; ``measures``: a rule sheet's column (``text_w``, ``body_h``), else the A5 page's."""
    return StoryBuilder(r.doc, r.fonts, r.rows, rules_only=rules_only, pictures=pictures, settings=r.settings,
                        proof=[(f.kind, f.book) for f in r.findings], lines_recovered=r.draft.flattened,
                        lang=game.lang, text_lang=r.draft.lang,
                        boards=[d.id for d in game.decks if d.kind == "board"], readings=readings, icons=icons,
                        setting=setting, own=own, rubies=r.draft.rubies, **measures)
