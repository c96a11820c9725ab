"""The build pipeline for one game: load → render → draw → impose → write, then the manifest.

Everything is produced in memory first and written only when the whole game succeeded, so a
failed build leaves the previous good output untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.graphics.shapes import Drawing

from .draw import SvgConverter, use_default_font
from .impose import SheetLayout, SheetOptions, cut_marks, layout_grid
from .load import load_game
from .model import Deck, Game
from .output import atomic_write_bytes, atomic_write_text
from .pdf import PdfDocument, Placed, sheet_pieces
from .render import Face, Renderer
from .workspace import Workspace
from .errors import InputError


@dataclass(frozen=True)
class BuildOptions:
    out: Path | None = None  # default: <workspace>/build
    sheet: SheetOptions = SheetOptions()
    shop_bleed_mm: float = 3.0


@dataclass
class DeckArt:
    """A deck's drawings: one front and one back per printed copy, in print order."""

    deck: Deck
    fronts: list[Drawing]
    backs: list[Drawing | None]
    layout: SheetLayout | None


@dataclass
class BuildResult:
    game: Game
    files: dict[str, bytes] = field(default_factory=dict)  # path relative to build/<slug>/ → bytes
    warnings: list[str] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)


def render_deck(deck: Deck, renderer: Renderer, converter: SvgConverter, sheet: SheetOptions) -> DeckArt:
    fronts: list[Drawing] = []
    backs: list[Drawing | None] = []
    for piece in deck.pieces:
        for copy in range(1, piece.count + 1):
            where = f"{deck.source.name} piece {piece.index} ({piece.label})"
            fronts.append(converter.drawing(renderer.render(Face(deck, piece, "front", copy)), where))
            backs.append(
                converter.drawing(renderer.render(Face(deck, piece, "back", copy)), where) if deck.back else None
            )
    return DeckArt(deck, fronts, backs, layout_grid(*deck.trim_mm, sheet))


def draw_home_sheets(pdf: PdfDocument, art: DeckArt, sheet: SheetOptions, bleed_mm: float, font: str) -> int:
    """Fronts sheets, each followed by its mirrored backs sheet; returns the number of sheets."""
    layout = art.layout
    if layout is None:
        raise InputError(f"deck {art.deck.id!r}: a {art.deck.trim_mm[0]:g}×{art.deck.trim_mm[1]:g} mm piece does not fit "
                         f"on {sheet.paper.upper()} inside a {sheet.margin_mm:g} mm margin",
                         path=art.deck.source, expected="a larger --paper, or kind: board (split into tiles)")
    per = layout.per_sheet
    marks = cut_marks(layout, sheet)
    sheets = 0
    total = len(art.fronts)
    for start in range(0, total, per):
        chunk = list(range(start, min(start + per, total)))
        sides = [("front", [(art.fronts[i], i - start) for i in chunk])]
        if art.deck.back and sheet.duplex != "none":
            sides.append(("back", [(art.backs[i], layout.slots.index(layout.back_slot(layout.slots[i - start], sheet.duplex)))
                                   for i in chunk]))
        elif art.deck.back:
            sides.append(("back", [(art.backs[i], i - start) for i in chunk]))
        for side, items in sides:
            pdf.new_page(*layout.paper_mm)
            for placed in sheet_pieces(layout, items, art.deck.trim_mm, bleed_mm):
                pdf.place(placed)
            pdf.lines(marks, registration=False)
            note = (f"{art.deck.name} ({art.deck.id}) {side} {start // per + 1}/{-(-total // per)} · "
                    f"{layout.cols}×{layout.rows} · bleed {layout.sheet_bleed_mm:.1f} mm · "
                    f"duplex {sheet.duplex}")
            # Informational only: it sits in the unprintable edge and may be cut off, never over a mark.
            pdf.label(note, sheet.margin_mm, sheet.margin_mm - 1.2, font)
            pdf.end_page()
        sheets += 1
    return sheets


def draw_shop_pages(pdf: PdfDocument, art: DeckArt, bleed_mm: float) -> None:
    """One piece per page, page = trim + bleed, front then back for every copy."""
    tw, th = art.deck.trim_mm
    pw, ph = tw + 2 * bleed_mm, th + 2 * bleed_mm
    for front, back in zip(art.fronts, art.backs):
        for drawing in (front, back) if back is not None else (front,):
            pdf.new_page(pw, ph, trim=(bleed_mm, bleed_mm, bleed_mm + tw, bleed_mm + th), bleed=(0, 0, pw, ph))
            pdf.place(Placed(drawing, bleed_mm, bleed_mm, tw, th, bleed_mm, bleed_mm))
            pdf.end_page()


def build_game(ws: Workspace, slug: str, options: BuildOptions) -> BuildResult:
    game = load_game(ws, slug)
    result = BuildResult(game)
    default_font = game.fonts["gothic"]
    use_default_font(default_font)
    renderer = Renderer(ws.templates, game, options.shop_bleed_mm)
    converter = SvgConverter()
    everything = PdfDocument(default_font, f"{game.title} — all sheets")
    decks = []
    for deck in game.decks:
        art = render_deck(deck, renderer, converter, options.sheet)
        home = PdfDocument(default_font, f"{game.title} — {deck.name}")
        sheets = draw_home_sheets(home, art, options.sheet, options.shop_bleed_mm, default_font)
        draw_home_sheets(everything, art, options.sheet, options.shop_bleed_mm, default_font)
        shop = PdfDocument(default_font, f"{game.title} — {deck.name} (print shop)")
        draw_shop_pages(shop, art, options.shop_bleed_mm)
        result.files[f"{deck.id}.pdf"] = home.finish()
        result.files[f"shop/{deck.id}.pdf"] = shop.finish()
        layout = art.layout
        decks.append({
            "id": deck.id,
            "name": deck.name,
            "kind": deck.kind,
            "shape": deck.shape,
            "format": deck.format,
            "trim_mm": [round(v, 3) for v in deck.trim_mm],
            "bleed_mm": options.shop_bleed_mm,
            "count": deck.count,
            "unique": len(deck.pieces),
            "double_sided": deck.back is not None,
            "paper": options.sheet.paper,
            "pieces_per_sheet": layout.per_sheet,
            "grid": [layout.cols, layout.rows],
            "rotated": layout.rotated,
            "sheet_bleed_mm": round(layout.sheet_bleed_mm, 3),
            "gutter_mm": [round(g, 3) for g in layout.gutter_mm],
            "sheets": sheets,
            "pages": home.pages,
            "shop_pages": shop.pages,
            "files": [f"{deck.id}.pdf", f"shop/{deck.id}.pdf"],
            "placeholders": len(deck.placeholders),
        })
    result.files[f"{slug}-all.pdf"] = everything.finish()
    result.warnings.extend(renderer.warnings)
    result.manifest = {
        "game": slug,
        "title": game.title,
        "draft": game.draft,
        "players": game.players,
        "paper": options.sheet.paper,
        "duplex": options.sheet.duplex,
        "marks": options.sheet.marks,
        "decks": decks,
        "files": sorted(result.files) + ["manifest.json"],
        "warnings": result.warnings,
    }
    return result


def write_result(result: BuildResult, out_dir: Path) -> list[Path]:
    """Write every file atomically; the manifest last, so it only ever describes complete output."""
    written = []
    for rel, data in sorted(result.files.items()):
        path = out_dir / rel
        atomic_write_bytes(path, data)
        written.append(path)
    manifest = out_dir / "manifest.json"
    atomic_write_text(manifest, json.dumps(result.manifest, ensure_ascii=False, indent=2) + "\n")
    written.append(manifest)
    return written
