"""Rulebook booklets typeset from the designer's draft text.

``build_rulebook`` reads the draft (``reader``), parses it into a document tree (``parse``),
matches its components with the data (``components``), collects the proofing report
(``proof``), builds the story (``story``: flowables from ``flowables``, measures from
``styles``, pictures of the pieces from ``pictures``, figures from game.yaml via ``figures``),
typesets an A5 book (``document``) and imposes it as a saddle-stitched A4 booklet
(``impose.booklet``). It writes nothing: the files come back as bytes for the build to write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from pnpgen import fonts as fontreg
from pnpgen.data.model import Game, is_placeholder
from pnpgen.errors import InputError
from pnpgen.impose import booklet
from pnpgen.messages import msg
from pnpgen.rulebook.components import component_rows
from pnpgen.rulebook.document import Meta, render
from pnpgen.rulebook.figures import load_settings
from pnpgen.rulebook.parse import Document, parse, to_ascii_digits
from pnpgen.rulebook.pictures import DeckPicture, pictures_from_game
from pnpgen.rulebook.proof import proof, proof_text
from pnpgen.rulebook.reader import Draft, read_draft
from pnpgen.rulebook.story import StoryBuilder
from pnpgen.rulebook.styles import Fonts
from pnpgen.render.svgdraw import use_default_font

__all__ = ["DeckPicture", "RulebookResult", "build_rulebook", "load_document", "pictures_from_game"]

COVER_KINDS = ("card", "tile", "token")  # what the cover shows, in this order (boards are too big)


@dataclass
class RulebookResult:
    files: dict[str, bytes]  # rulebook.pdf, rulebook-booklet.pdf, proof.txt
    warnings: list[str]
    report: list[str] = field(default_factory=list)  # info lines: encoding detected, digits repaired, sections found…


def draft_path(game: Game) -> Path:
    p = Path(game.draft_file)
    return p if p.is_absolute() else Path(game.root) / p


def load_document(game: Game) -> tuple[Draft, Document]:
    """Read, repair and parse the game's draft."""
    draft = read_draft(draft_path(game))
    return draft, parse(draft.text)


def _fonts(game: Game, font_dir: Path) -> Fonts:
    roles = dict(fontreg.DEFAULT_FONTS)
    roles.update({k: v for k, v in (game.fonts or {}).items() if v})
    names = {role: fontreg.register(roles[role], font_dir) for role in ("mincho", "gothic", "bold", "mono")}
    return Fonts(body=names["mincho"], gothic=names["gothic"], bold=names["bold"], mono=names["mono"])


def _date(text: str) -> str:
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(text).strip())
    return f"{int(m.group(1))}年{int(m.group(2))}月{int(m.group(3))}日" if m else str(text)


def _players(text: str, lang: str = "ja") -> str:
    """``3-5`` → ``3〜5人`` (``3–5`` in English); an open value gives "" (the cover leaves the line out)."""
    text = str(text).strip()
    if is_placeholder(text) or not text:
        return ""
    m = re.fullmatch(r"(\d+)\s*[-–〜~]\s*(\d+)", text)
    if m:
        return msg("rulebook.players_range", lang, low=m.group(1), high=m.group(2))
    return msg("rulebook.players_one", lang, players=text) if text.isdigit() else text


def _consistency(doc: Document, game: Game, path: Path) -> list[str]:
    """Title, draft number and player count: the data against the draft's own statement."""
    out = []
    norm = lambda s: re.sub(r"[\s　]+", "", to_ascii_digits(str(s)))  # noqa: E731
    if doc.title and norm(doc.title) != norm(game.title):
        out.append(f"{path}:1: title differs: the draft says 「{doc.title}」, the data says 「{game.title}」")
    if doc.draft_number is not None and str(game.draft).strip() and norm(game.draft) != str(doc.draft_number):
        out.append(f"{path}:1: draft number differs: the draft says {doc.draft_label} ({doc.draft_number}), "
                   f"the data says {game.draft}")
    stated = doc.stated_players()
    if stated and not is_placeholder(game.players):
        m = re.fullmatch(r"(\d+)\s*(?:[-–〜~]\s*(\d+))?", str(game.players).strip())
        data = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else None
        if data != stated:
            out.append(f"{path}: player count differs: the draft says {stated[0]}〜{stated[1]}人用, "
                       f"the data says {game.players!r}")
    return out


def _missing_glyphs(doc: Document, fonts) -> list[str]:
    text = "".join(getattr(b, "text", "") or "\n".join(getattr(b, "lines", [])) for b in doc.blocks())
    missing = sorted({ch for ch in text if not ch.isspace() and not fontreg.has_glyph(fonts.body, ch)})
    if not missing:
        return []
    shown = " ".join(f"{ch} (U+{ord(ch):04X})" for ch in missing[:12])
    return [f"body font {fonts.body} lacks {len(missing)} character(s) of the draft: {shown}"]


def _cover(game: Game, pictures: Mapping[str, DeckPicture]) -> list[tuple[str, DeckPicture]]:
    """Up to three decks' fronts of one kind for the cover (cards, else tiles, else tokens);
    never a face that shows a placeholder."""
    def settled(deck) -> bool:
        first = f"{deck.pieces[0].label}."
        return not any(fld.startswith(first) for _, fld, _ in deck.placeholders)

    decks = sorted((d for d in game.decks if d.id in pictures and d.kind in COVER_KINDS and settled(d)),
                   key=lambda d: COVER_KINDS.index(d.kind))
    same = [d for d in decks if d.kind == decks[0].kind] if decks else []  # one kind: pieces of one size
    return [(d.id, pictures[d.id]) for d in same[:3]]


def build_rulebook(game: Game, font_dir: Path, *, pictures: Mapping[str, DeckPicture] | None = None,
                   rules_only: bool = False, creep_mm: float = 0.0, binding: str = "left") -> RulebookResult:
    """``rulebook.pdf`` (A5), ``rulebook-booklet.pdf`` (A4 landscape, saddle stitch) and
    ``proof.txt`` as bytes. ``pictures`` are the decks' faces by deck id (the build passes the
    sheets' own art; ``pictures_from_game`` makes them). Raises InputError for a missing or
    undecodable draft and for bad ``rulebook:`` settings."""
    if binding not in ("left", "right"):
        raise InputError(f"unknown binding {binding!r}", key="binding", expected="left or right")
    if creep_mm < 0:
        raise InputError(f"creep {creep_mm} mm is negative", key="creep", expected="0 or more mm per sheet")
    pictures = pictures or {}
    path = draft_path(game)
    draft, doc = load_document(game)
    settings = load_settings(game)
    report = list(draft.report)
    warnings = list(draft.warnings)
    report.append(
        f"parsed: title 「{doc.title}」 {doc.draft_label or '(no draft number)'}; "
        f"{len(doc.rules)} rules sections ({'、'.join(s.title for s in doc.rules)}), "
        f"{len(doc.components)} components, {len(doc.steps)} steps; "
        f"{len(doc.of_kind('notes'))} notes, {len(doc.of_kind('brainstorm'))} brainstorm, "
        f"{len(doc.of_kind('changelog'))} change-log section(s)"
    )
    if not doc.rules:
        warnings.append(f"{path}: no ■ rules section found; the rulebook has no rules")
    fonts = _fonts(game, Path(font_dir))
    warnings += _missing_glyphs(doc, fonts)
    warnings += _consistency(doc, game, path)
    rows, comp_warnings, comp_report = component_rows(doc, game, path)
    warnings += comp_warnings
    report += comp_report
    findings = proof(doc, draft.text, game, rows)
    if is_placeholder(game.players):
        warnings.append(f"{game.slug}: players is a placeholder ({game.players}); the cover leaves it out")

    colophon = [
        f"{doc.draft_label or ''}　{_date(game.date)}".strip(),
        f"草案ファイル　{path.name}（{draft.encoding}"
        + (f"、丸数字{draft.repaired_digits}字を修復" if draft.repaired_digits else "")
        + ("、改行を復元" if draft.flattened else "") + "）",
        "コンポーネントの数　ゲームデータより",
        "組版　pnpgen（草案テキストからの自動組版）",
    ]
    meta = Meta(
        title=game.title or doc.title,
        title_parts=[p for p in str(game.title).split("　") if p] or doc.title_parts,
        subtitle=str((game.options or {}).get("subtitle", "") or ""),
        draft_label=doc.draft_label or (f"草案{game.draft}" if str(game.draft).strip() else ""),
        players=_players(game.players, game.lang),
        date=_date(game.date),
        colophon=colophon,
        binding=binding,
        cover=_cover(game, pictures),
        lang=game.lang,
    )
    builder = StoryBuilder(doc, fonts, rows, rules_only=rules_only, pictures=pictures, settings=settings,
                           proof=[(f.kind, f.book) for f in findings])
    use_default_font(fonts.gothic)  # the pieces' art starts from an embedded font, never Helvetica
    a5, n_pages = render(builder.story(), meta, fonts)
    for spec in settings.figures:
        if spec not in builder.figures_placed:
            warnings.append(f"{game.root / 'game.yaml'}:{spec.line}: figure after 「{spec.after}」: no step, "
                            "sub-heading or section of that title in the draft (or no pictures), so it is not shown")
    sides = booklet.layout(n_pages, binding=binding, creep_mm=creep_mm, keep_last=True)
    a4 = booklet.impose_pdf(a5, sides)
    total = booklet.padded_count(n_pages)
    report.append("line breaking: JLREQ kinsoku, character by character (pnpgen.text.linebreak), justified")
    report.append(
        f"rulebook: {n_pages} A5 pages{' (rules only)' if rules_only else ''}; booklet: {total // 4} sheet(s), "
        f"{total - n_pages} blank page(s) added, binding {binding}, creep {creep_mm:g} mm/sheet; "
        f"{len(pictures)} deck picture(s), {len(builder.figures_placed)} figure(s), {len(findings)} proofing note(s)"
    )
    files = {"rulebook.pdf": a5, "rulebook-booklet.pdf": a4,
             "proof.txt": proof_text(game, path, findings).encode("utf-8")}
    return RulebookResult(files, warnings, report)
