"""The build pipeline for one game: load → render → draw → impose → write, then the manifest.

Everything is produced in memory first and written only when the whole game succeeded, so a
failed build leaves the previous good output untouched.

Home sheets: rectangles on the card grid with cut marks round it; die-cut shapes (circle, hex,
tri-hex, polygon, rounded) with their die line drawn thin round each piece, on a grid or nested,
whichever needs fewer sheets (pack.py); artwork always stops at each piece's bleed outline.
Backs are the mirror image of the fronts in millimetres. Boards larger than the paper print as
numbered page tiles (tiling.py). Shop output: one piece per page at full size, and for die-cut
shapes the die line on its own pages (``shop/<deck>-die.pdf``, spot colour CutContour).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.graphics.shapes import Drawing

from pnpgen import fonts as fontreg
from pnpgen.build.bom import bill_of_materials, bom_pages
from pnpgen.render.svgdraw import SvgConverter, use_default_font
from pnpgen.errors import InputError
from pnpgen.impose.grid import SheetLayout, SheetOptions, choose_layout, cut_marks, layout_grid_at, used_part
from pnpgen.data.load import load_game
from pnpgen.data.model import Deck, Game
from pnpgen.build.output import atomic_write_bytes, atomic_write_text
from pnpgen.impose.nest import NestLayout, density
from pnpgen.pdf.writer import PdfDocument, Placed, RectOp, TextOp
from pnpgen.render.templates import Face, Renderer
from pnpgen.shapes import (
    Affine,
    Line,
    ShapeSpec,
    back_outline,
    bleed_path,
    cut_path,
    deck_shape,
    duplex_mirror,
    translate,
)
from pnpgen.impose.tiles import TileOptions, TilePlan, assembly_map, glue_strips, plan_tiles, tile_marks
from pnpgen.data.workspace import Workspace

TILE_OPTIONS = TileOptions()


@dataclass(frozen=True)
class BuildOptions:
    out: Path | None = None  # default: <workspace>/build
    sheet: SheetOptions = SheetOptions()
    shop_bleed_mm: float = 3.0
    min_dpi: float = 300.0  # art printed below this resolution warns


@dataclass
class DeckArt:
    """A deck's drawings: one front and one back per printed copy, in print order, and where
    they go: a sheet layout (grid or nested) or, for a board larger than the paper, page tiles."""

    deck: Deck
    fronts: list[Drawing]
    backs: list[Drawing | None]
    layout: SheetLayout | NestLayout | None
    spec: ShapeSpec | None = None
    tiles: TilePlan | None = None


@dataclass
class BuildResult:
    game: Game
    files: dict[str, bytes] = field(default_factory=dict)  # path relative to build/<slug>/ → bytes
    warnings: list[str] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)


def _spec(deck: Deck) -> ShapeSpec:
    try:
        return deck_shape(deck)
    except ValueError as e:
        raise InputError(f"deck {deck.id!r}: {e}", path=deck.source, key="shape") from None


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
    spec = _spec(deck)
    layout = choose_layout(spec, deck.count, sheet, deck.kind)
    tiles = None
    if layout is None and deck.kind in ("board", "tile"):
        tiles = plan_tiles(spec.w, spec.h, sheet.paper_mm, sheet.margin_mm, sheet.bleed_mm, TILE_OPTIONS)
    return DeckArt(deck, fronts, backs, layout, spec, tiles)


def _note(pdf: PdfDocument, text: str, sheet: SheetOptions, font: str) -> None:
    # Informational only: it sits in the unprintable edge and may be cut off, never over a mark.
    pdf.label(text, sheet.margin_mm, sheet.margin_mm - 1.2, font)


def draw_home_sheets(pdf: PdfDocument, art: DeckArt, sheet: SheetOptions, bleed_mm: float, font: str) -> int:
    """Fronts sheets, each followed by its mirrored backs sheet; returns the number of sheets."""
    if art.tiles is not None:
        return draw_board_tiles(pdf, art, sheet, bleed_mm, font)
    layout = art.layout
    deck = art.deck
    if layout is None:
        raise InputError(f"deck {deck.id!r}: a {deck.trim_mm[0]:g}×{deck.trim_mm[1]:g} mm piece does not fit "
                         f"on {sheet.paper.upper()} inside a {sheet.margin_mm:g} mm margin",
                         path=deck.source, expected="a larger --paper, or kind: board (split into tiles)")
    spec = art.spec or _spec(deck)
    per = layout.per_sheet
    sb = layout.sheet_bleed_mm
    with_marks = layout.kind == "grid" and spec.kind in ("rect", "rounded")
    mirror = duplex_mirror(sheet.duplex, layout.paper_mm)
    front_clip = bleed_path(spec, sb)
    back_clip = back_outline(spec, sb)
    die = cut_path(spec) if spec.die_cut else None
    sheets = 0
    total = len(art.fronts)
    how = (f"{layout.cols}×{layout.rows}" if layout.kind == "grid" else f"nested {per}/sheet")
    for start in range(0, total, per):
        chunk = list(range(start, min(start + per, total)))
        sides = [("front", [(art.fronts[i], layout.transform(i - start)) for i in chunk])]
        if deck.back:
            duplex = sheet.duplex
            sides.append(("back", [(art.backs[i], layout.back_transform(i - start, duplex)) for i in chunk]))
        marks = cut_marks(used_part(layout, len(chunk)), sheet) if with_marks else []
        for side, items in sides:
            pdf.new_page(*layout.paper_mm)
            clip = front_clip if side == "front" else back_clip
            for drawing, m in items:
                pdf.place(Placed(drawing, 0.0, 0.0, spec.w, spec.h, bleed_mm, sb, transform=m,
                                 clip=clip.transformed(m)))
            if die is not None and side == "front":
                for _, m in items:
                    pdf.outline(die.transformed(m))
            if side == "back":  # the marks of the block the backs fill, mirrored like them
                marks_here = [Line(*mirror((m.x1, m.y1)), *mirror((m.x2, m.y2))) for m in marks]
            else:
                marks_here = marks
            pdf.lines(marks_here, registration=False)
            _note(pdf, f"{deck.name} ({deck.id}) {side} {start // per + 1}/{-(-total // per)} · {how} · "
                       f"bleed {sb:.1f} mm · duplex {sheet.duplex}", sheet, font)
            pdf.end_page()
        sheets += 1
    return sheets


def draw_board_tiles(pdf: PdfDocument, art: DeckArt, sheet: SheetOptions, bleed_mm: float, font: str) -> int:
    """Each board copy as numbered page tiles (fronts, then each tile's back for duplex)."""
    plan = art.tiles
    assert plan is not None
    spec = art.spec or _spec(art.deck)
    deck = art.deck
    bold = _bold_font(font)
    front_clip = bleed_path(spec, plan.bleed_mm) if spec.kind != "rect" else None
    back_clip = back_outline(spec, plan.bleed_mm) if spec.kind != "rect" else None
    mirror = duplex_mirror(sheet.duplex, plan.paper_mm)
    sheets = 0
    for copy, (front, back) in enumerate(zip(art.fronts, art.backs), 1):
        for tile in plan.tiles:
            rect = plan.clip(tile)
            pdf.new_page(*plan.paper_mm)
            pdf.place(Placed(front, 0.0, 0.0, spec.w, spec.h, bleed_mm, plan.bleed_mm, transform=tile.to_page,
                             clip=front_clip.transformed(tile.to_page) if front_clip else None, clip_rect=rect))
            if spec.die_cut:
                pdf.outline(cut_path(spec).transformed(tile.to_page), clip_rect=rect)
            marks = tile_marks(plan, tile, TILE_OPTIONS)
            pdf.lines([m.line for m in marks if m.kind != "guide"], registration=False)
            pdf.lines([m.line for m in marks if m.kind == "guide"], registration=False, width_pt=0.5,
                      colour=(0.85, 0.0, 0.45), dash=(2.0, 1.0))
            pdf.ops(_glue_notes(plan, tile, font))
            pdf.ops(_tile_band(plan, tile, deck, copy, len(art.fronts), font, bold))
            pdf.end_page()
            if back is not None:
                m = plan.back(tile, sheet.duplex)
                (x0, y0), (x1, y1) = mirror((rect[0], rect[1])), mirror((rect[2], rect[3]))
                pdf.new_page(*plan.paper_mm)
                pdf.place(Placed(back, 0.0, 0.0, spec.w, spec.h, bleed_mm, plan.bleed_mm, transform=m,
                                 clip=back_clip.transformed(m) if back_clip else None,
                                 clip_rect=(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))))
                _note(pdf, f"{deck.name} ({deck.id}) {copy}/{len(art.fronts)} back of tile {tile.number}/{plan.pages}",
                      sheet, font)
                pdf.end_page()
            sheets += 1
    return sheets


def _bold_font(font: str) -> str:
    bold = font.replace("-Regular", "-Bold")
    try:
        fontreg.ttfont(bold)
        return bold
    except KeyError:
        return font


def _glue_notes(plan: TilePlan, tile, font: str) -> list:
    """A note along each strip a neighbour will cover (hidden once the board is assembled)."""
    ops = []
    for x0, y0, x1, y1 in glue_strips(plan, tile):
        tall = (y1 - y0) > (x1 - x0)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        label = "のり代 glue — 次のタイルをここに重ねる · next tile goes over this strip"
        if tall:
            ops.append(TextOp(cx - 0.8, cy, label, font, 5, (0.85, 0.0, 0.45), "middle", angle=90))
        else:
            ops.append(TextOp(cx, cy + 0.8, label, font, 5, (0.85, 0.0, 0.45), "middle"))
    return ops


def _tile_band(plan: TilePlan, tile, deck: Deck, copy: int, copies: int, font: str, bold: str) -> list:
    """Tile number, assembly instructions and the assembly map in the page foot."""
    bx0, by0, bx1, by1 = plan.band
    of = f" · {copy}/{copies}" if copies > 1 else ""
    ops: list = [
        TextOp(bx0, by0 + 5, f"{deck.name}{of} — タイル {tile.number}/{plan.pages}（列{tile.col + 1}・行{tile.row + 1}）",
               bold, 9),
        TextOp(bx0, by0 + 9.5, "トンボで切り、右・下のタイルを破線（のり代 10 mm）に重ねて貼る。"
                               "Cut at the marks; lay each tile over its left/upper neighbour, edge on the dashed line.",
               font, 5.5, (0.3, 0.3, 0.3)),
        TextOp(bx0, by0 + 13, f"board {plan.board_mm[0]:g}×{plan.board_mm[1]:g} mm"
                              f"{' (turned 90°)' if plan.rot else ''} · {plan.cols}×{plan.rows} tiles · "
                              f"overlap {plan.overlap_mm:g} mm", font, 5.5, (0.45, 0.45, 0.45)),
    ]
    for cell in assembly_map(plan, tile):
        ops.append(RectOp(cell.x, cell.y, cell.w, cell.h, fill=(0.2, 0.2, 0.2) if cell.current else (1, 1, 1),
                          stroke=(0.3, 0.3, 0.3), width_pt=0.4))
        ops.append(TextOp(cell.x + cell.w / 2, cell.y + cell.h / 2 + 1.0, str(cell.number), bold if cell.current else font,
                          5, (1, 1, 1) if cell.current else (0.3, 0.3, 0.3), "middle"))
    return ops


def draw_shop_pages(pdf: PdfDocument, art: DeckArt, bleed_mm: float) -> None:
    """One piece per page, page = trim + bleed, front then back for every copy; artwork clipped
    to the piece's bleed outline."""
    spec = art.spec or _spec(art.deck)
    tw, th = art.deck.trim_mm
    pw, ph = tw + 2 * bleed_mm, th + 2 * bleed_mm
    at = translate(bleed_mm, bleed_mm)
    clips = {"front": bleed_path(spec, bleed_mm).transformed(at), "back": back_outline(spec, bleed_mm).transformed(at)}
    for front, back in zip(art.fronts, art.backs):
        for side, drawing in (("front", front), ("back", back)) if back is not None else (("front", front),):
            pdf.new_page(pw, ph, trim=(bleed_mm, bleed_mm, bleed_mm + tw, bleed_mm + th), bleed=(0, 0, pw, ph))
            pdf.place(Placed(drawing, bleed_mm, bleed_mm, tw, th, bleed_mm, bleed_mm, transform=at,
                             clip=clips[side]))
            pdf.end_page()


def draw_shop_die(pdf: PdfDocument, art: DeckArt, bleed_mm: float) -> None:
    """The die line alone, spot colour CutContour, on pages sized and boxed like the shop pages:
    page 1 for every front, page 2 (two-sided decks) for every back."""
    spec = art.spec or _spec(art.deck)
    tw, th = spec.w, spec.h
    pw, ph = tw + 2 * bleed_mm, th + 2 * bleed_mm
    at = translate(bleed_mm, bleed_mm)
    paths = [cut_path(spec).transformed(at)]
    if art.deck.back:
        paths.append(cut_path(spec).transformed(Affine(-1, 0, 0, 1, tw, 0)).transformed(at))
    for path in paths:
        pdf.new_page(pw, ph, trim=(bleed_mm, bleed_mm, bleed_mm + tw, bleed_mm + th), bleed=(0, 0, pw, ph))
        pdf.outline(path, spot=True)
        pdf.end_page()


def _layout_record(art: DeckArt, sheet: SheetOptions) -> dict:
    """What the manifest says about how a deck was laid out."""
    spec = art.spec
    paper = sheet.paper_mm
    if art.tiles is not None:
        plan = art.tiles
        return {
            "layout": "tiled",
            "pieces_per_sheet": 0,
            "grid": None,
            "rotated": plan.rot == 90,
            "sheet_bleed_mm": round(plan.bleed_mm, 3),
            "gutter_mm": None,
            "density": None,
            "grid_pieces_per_sheet": 0,
            "tiles": {
                "pages_per_piece": plan.pages,
                "grid": [plan.cols, plan.rows],
                "overlap_mm": plan.overlap_mm,
                "tile_mm": [round(v, 3) for v in plan.tile_mm],
                "turned": plan.rot == 90,
                "assembly": "cut at the crop marks; each tile goes over its left and upper neighbour, "
                            "its edge on the dashed guide line (10 mm glue strip)",
            },
        }
    layout = art.layout
    sb = layout.sheet_bleed_mm
    if layout.kind == "grid":
        grid_n = layout.per_sheet
    else:
        g = layout_grid_at(spec.w, spec.h, sheet, sb, room=0.0)
        grid_n = g.per_sheet if g else 0
    rec = {
        "layout": layout.kind,
        "pieces_per_sheet": layout.per_sheet,
        "grid": [layout.cols, layout.rows] if layout.kind == "grid" else None,
        "rotated": layout.rotated,
        "sheet_bleed_mm": round(sb, 3),
        "gutter_mm": [round(g, 3) for g in layout.gutter_mm] if layout.kind == "grid" else [round(2 * sb, 3)] * 2,
        "density": round(density(spec, layout.per_sheet, paper, sheet.margin_mm), 4),
        "grid_pieces_per_sheet": grid_n,
    }
    if layout.kind == "nested":
        (ax, ay), (bx, by) = layout.vectors
        rec["lattice_mm"] = [[round(ax, 3), round(ay, 3)], [round(bx, 3), round(by, 3)]]
        rec["interlocked"] = len(layout.motif) > 1
    return rec


def build_game(ws: Workspace, slug: str, options: BuildOptions) -> BuildResult:
    game = load_game(ws, slug)
    result = BuildResult(game)
    default_font = game.fonts["gothic"]
    use_default_font(default_font)
    renderer = Renderer(ws.templates, game, options.shop_bleed_mm, options.min_dpi)
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
        files = [f"{deck.id}.pdf", f"shop/{deck.id}.pdf"]
        die_line = {"home": "none: cut at the crop marks", "shop": "none: the TrimBox is the cut"}
        if art.spec.die_cut:
            die = PdfDocument(default_font, f"{game.title} — {deck.name} (die line)")
            draw_shop_die(die, art, options.shop_bleed_mm)
            result.files[f"shop/{deck.id}-die.pdf"] = die.finish()
            files.append(f"shop/{deck.id}-die.pdf")
            die_line = {
                "home": "thin black line on the trim path of every front",
                "shop": f"separate file shop/{deck.id}-die.pdf: spot colour CutContour, same page size and "
                        f"boxes as the shop pages; page 1 for every front"
                        + (", page 2 (mirrored) for every back" if deck.back else ""),
            }
        record = {
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
        }
        record.update(_layout_record(art, options.sheet))
        record.update({
            "sheets": sheets,
            "pages": home.pages,
            "shop_pages": shop.pages,
            "die_line": die_line,
            "files": files,
            "placeholders": len(deck.placeholders),
        })
        decks.append(record)
    bom = bill_of_materials(game, decks)
    for page in bom_pages(game, bom, options.sheet.paper_mm, options.sheet.margin_mm, game.fonts,
                          fontreg.string_width_mm):
        everything.new_page(*options.sheet.paper_mm)
        everything.ops(page)
        everything.end_page()
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
        "bill_of_materials": bom,
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
