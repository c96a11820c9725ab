"""Run the text checker over real game data: every text box the templates draw, and every text
field swept over a range of box widths. Used by scripts/check_text.py, the tests and the bench."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.data.formats import BLEED_MM
from pnpgen.data.load import load_game
from pnpgen.data.model import FieldText, Game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.faces import builtin
from pnpgen.faces.face import Face
from pnpgen.faces.faceset import face_renderer
from pnpgen.text import Record, TextContext, break_lines, layout_text, recording
from pnpgen.text.cells import char_width
from pnpgen.text.linecheck import check_layout, check_plain

SWEEP_WIDTHS = (18.0, 25.0, 32.0, 40.0, 55.0)  # mm, at 9 pt
SWEEP_SIZE = 9.0
DRAFT_WIDTHS = (4, 5, 7, 9, 12, 15, 20, 30)  # em


@dataclass
class GameReport:
    """What the text checker found in one game's real data: every text box the templates draw and each text tried
    across box widths (scripts/check_text.py, the bench)."""

    slug: str
    texts: int = 0  # distinct (piece, field) texts
    boxes: list[Record] = field(default_factory=list)  # text boxes drawn by the templates
    sweeps: int = 0  # layouts in the width sweep
    violations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def text_fields(game: Game):
    """(deck, piece, field name, text) for every text value of every piece."""
    for deck in game.decks:
        for piece in deck.pieces:
            for key, value in piece.values.items():
                if isinstance(value, FieldText) and str(value).strip():
                    yield deck, piece, key, value


def context(game: Game, templates: Path, where: str) -> TextContext:
    return TextContext(fonts=dict(game.fonts), fallback_fonts=list(game.fallback_fonts),
                       palette=dict(game.palette),
                       icon_dirs=builtin.icon_dirs(templates, game.slug),
                       where=where)


def audit_game(ws: Workspace, slug: str, render: bool = True, sweep: bool = True) -> GameReport:
    report = GameReport(slug)
    try:
        game = load_game(ws, slug)
    except InputError as e:
        report.errors.append(f"{slug}: {e}")
        return report
    if render:
        _audit_render(ws, game, report)
    for deck, piece, key, text in text_fields(game):
        report.texts += 1
        if not sweep:
            continue
        ctx = context(game, ws.templates, f"deck {deck.id!r} piece {piece.index} ({piece.label})")
        at = ws.shown(str(piece.where_of(key)))  # the field's line in the deck file, as a piece's warnings start
        for w in SWEEP_WIDTHS:
            try:
                lay = layout_text(ctx, text, w, 10_000, SWEEP_SIZE, SWEEP_SIZE)
            except InputError as e:
                report.errors.append(f"{at}: {e}")
                break
            report.sweeps += 1
            report.violations += check_layout(lay, f"{at}: {slug} {ctx.where} field {key!r} at {w:g} mm")
    return report


def _audit_render(ws: Workspace, game: Game, report: GameReport) -> None:
    renderer = face_renderer(ws.templates, game, BLEED_MM)
    with recording() as records:
        for deck in game.decks:
            for piece in deck.pieces:
                for side in ("front", "back") if deck.back else ("front",):
                    try:
                        renderer.render(Face(deck, piece, side, 1))
                    except InputError as e:
                        report.errors.append(f"{game.slug}: {e}")
    report.warnings += renderer.warnings
    report.boxes += records
    for rec in records:
        label = f"{game.slug} {rec.where}" + (f" field {rec.field!r}" if rec.field else "")
        report.violations += check_layout(rec.layout, label)


def draft_paragraphs(ws: Workspace) -> list[str]:
    """The designer's draft prose, one paragraph per full-width-space or newline break."""
    out = []
    for path in sorted(ws.data.glob("*/draft.txt")):
        for para in re.split(r"\s*\u3000|\n", path.read_text(encoding="utf-8")):
            if para.strip():
                out.append(para.strip())
    return out


def audit_drafts(ws: Workspace, font: str = "BIZUDPGothic-Regular") -> tuple[int, list[str]]:
    """Plain break_lines over every draft paragraph at several widths: (layouts, violations)."""
    em = char_width(font, "あ")

    def measure(s: str) -> float:
        return sum(char_width(font, c) for c in s) / em

    n = 0
    violations: list[str] = []
    for i, para in enumerate(draft_paragraphs(ws)):
        for w in DRAFT_WIDTHS:
            lines = break_lines(para, w, measure)
            n += 1
            violations += check_plain(para, lines, w, measure, f"draft paragraph {i + 1} at {w} em")
    return n, violations
