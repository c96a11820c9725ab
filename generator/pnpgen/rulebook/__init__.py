"""Rulebook booklets typeset from the designer's draft text.

``build_rulebook`` reads the draft (``reader``), parses it into a document tree (``parse``),
matches its components with the data (``components``), typesets an A5 book (``typeset``) and
imposes it as a saddle-stitched A4 booklet (``booklet``). Both PDFs are rendered in memory and
then written atomically, so a failure leaves the previous files untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen import fonts as fontreg
from pnpgen.errors import InputError
from pnpgen.data.model import Game, is_placeholder
from pnpgen.build.output import atomic_write_bytes
from pnpgen.impose import booklet
from pnpgen.rulebook.components import component_rows
from pnpgen.rulebook.parse import Document, parse, to_ascii_digits
from pnpgen.rulebook.reader import Draft, read_draft

__all__ = ["RulebookResult", "build_rulebook", "load_document"]


@dataclass
class RulebookResult:
    files: list[Path]
    warnings: list[str]
    report: list[str] = field(default_factory=list)  # info lines: encoding detected, digits repaired, sections found…


def draft_path(game: Game) -> Path:
    p = Path(game.draft_file)
    return p if p.is_absolute() else Path(game.root) / p


def load_document(game: Game) -> tuple[Draft, Document]:
    """Read, repair and parse the game's draft."""
    draft = read_draft(draft_path(game))
    return draft, parse(draft.text)


def _fonts(game: Game, font_dir: Path):
    from pnpgen.rulebook.typeset import Fonts

    roles = dict(fontreg.DEFAULT_FONTS)
    roles.update({k: v for k, v in (game.fonts or {}).items() if v})
    names = {role: fontreg.register(roles[role], font_dir) for role in ("mincho", "gothic", "bold", "mono")}
    return Fonts(body=names["mincho"], gothic=names["gothic"], bold=names["bold"], mono=names["mono"])


def _date(text: str) -> str:
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(text).strip())
    return f"{int(m.group(1))}年{int(m.group(2))}月{int(m.group(3))}日" if m else str(text)


def _players(text: str) -> str:
    text = str(text).strip()
    if is_placeholder(text) or not text:
        return text or "未定"
    m = re.fullmatch(r"(\d+)\s*[-–〜~]\s*(\d+)", text)
    if m:
        return f"{m.group(1)}〜{m.group(2)}人"
    return f"{text}人" if text.isdigit() else text


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


def build_rulebook(game: Game, font_dir: Path, out_dir: Path, *, rules_only: bool = False,
                   creep_mm: float = 0.0, binding: str = "left") -> RulebookResult:
    """Write ``out_dir/rulebook.pdf`` (A5) and ``out_dir/rulebook-booklet.pdf`` (A4 landscape,
    saddle stitch). Raises InputError for a missing or undecodable draft."""
    from pnpgen.rulebook.typeset import Meta, render

    if binding not in ("left", "right"):
        raise InputError(f"unknown binding {binding!r}", key="binding", expected="left or right")
    if creep_mm < 0:
        raise InputError(f"creep {creep_mm} mm is negative", key="creep", expected="0 or more mm per sheet")
    path = draft_path(game)
    draft, doc = load_document(game)
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
    if is_placeholder(game.players):
        warnings.append(f"{game.slug}: players is a placeholder ({game.players}); the cover prints it as is")

    colophon = [
        f"{doc.draft_label or ''}　{_date(game.date)}".strip(),
        f"草案ファイル　{path.name}（{draft.encoding}"
        + (f"、丸数字{draft.repaired_digits}字を修復" if draft.repaired_digits else "")
        + ("、改行を復元" if draft.flattened else "") + "）",
        "コンポーネントの数　ゲームデータ（YAML）より",
        "組版　pnpgen（草案テキストからの自動組版）",
    ]
    meta = Meta(
        title=game.title or doc.title,
        title_parts=[p for p in str(game.title).split("　") if p] or doc.title_parts,
        subtitle=str((game.options or {}).get("subtitle", "") or ""),
        draft_label=doc.draft_label or (f"草案{game.draft}" if str(game.draft).strip() else ""),
        players=_players(game.players),
        date=_date(game.date),
        colophon=colophon,
        binding=binding,
    )
    break_lines = _line_breaker()
    report.append("line breaking: " + ("JLREQ kinsoku + BudouX phrases (pnpgen.text.linebreak), justified"
                                       if break_lines else "ReportLab CJK wrapping (pnpgen.text.linebreak missing)"))
    a5, n_pages = render(doc, game, fonts, rows, meta, rules_only=rules_only, break_lines=break_lines)
    sides = booklet.layout(n_pages, binding=binding, creep_mm=creep_mm, keep_last=True)
    a4 = booklet.impose_pdf(a5, sides)
    total = booklet.padded_count(n_pages)
    report.append(
        f"rulebook: {n_pages} A5 pages{' (rules only)' if rules_only else ''}; booklet: {total // 4} sheet(s), "
        f"{total - n_pages} blank page(s) added, binding {binding}, creep {creep_mm:g} mm/sheet"
    )
    out_dir = Path(out_dir)
    files = [out_dir / "rulebook.pdf", out_dir / "rulebook-booklet.pdf"]
    atomic_write_bytes(files[0], a5)
    atomic_write_bytes(files[1], a4)
    return RulebookResult(files, warnings, report)


def _line_breaker():
    """JLREQ + BudouX line breaking from pnpgen.text when it is there, else None (ReportLab CJK)."""
    from pnpgen.rulebook.typeset import book_breaker

    return book_breaker()
