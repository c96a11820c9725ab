"""What a build says about itself: one record per deck (read by the bill of materials, the CLI
and the change report) and the game's manifest.json."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from json.encoder import encode_basestring
from typing import Any

from pnpgen.impose.grid import SheetOptions, layout_grid_at
from pnpgen.impose.nest import NestLayout, density
from pnpgen.impose.slots import SlotLayout
from pnpgen.impose.tiles import TilePlan
from pnpgen.messages import counted
from pnpgen.shapes import ShapeSpec


@dataclass
class DeckRecord:
    """One deck's line in the build's manifest: what was printed, on which paper, how many sheets and files, so a
    designer or a shop can check the count."""

    id: str
    name: str
    kind: str
    shape: str
    format: str
    trim_mm: list[float]
    bleed_mm: float
    count: int
    unique: int  # unique entries in the data
    faces: int  # distinct faces drawn (fronts and backs)
    double_sided: bool
    paper: str
    layout: dict[str, Any]
    sheets: int
    pages: int
    shop_pages: int
    die_line: dict[str, Any]
    files: list[str]
    placeholders: int
    pieces: dict[str, list[int | str]] = field(default_factory=dict)  # piece label → [count, face digest]
    double_at: tuple[float, float] | None = None  # the size a sheet holds twice as many of (a score pad; not in the manifest)
    full_bleed: tuple[int, float] | None = None  # pieces a sheet at the deck's full bleed, and it, when the grid or nesting took less (not in the manifest)
    by_hand: bool = False  # --marks silhouette: a board or tile the marks' room does not hold, cut by hand (not in the manifest)

    def to_json(self) -> dict[str, Any]:
        """``asdict``'s copy, its layout's keys last, without ``double_at`` and ``full_bleed``: made by ``_copied`` (asdict
        deep-copied each of 3,000 pieces' [count, digest] through ``copy.deepcopy``, 0.03 CPU-s)."""
        d = {f.name: _copied(getattr(self, f.name)) for f in fields(self) if f.name not in ("double_at", "full_bleed", "by_hand")}
        d.update(d.pop("layout"))
        return d

    def on_paper(self) -> str:
        """How the deck sits on the paper, in a designer's words."""
        tiles = self.layout.get("tiles")
        if tiles:
            cols, rows = tiles["grid"]
            turned = ", the board turned 90°" if tiles["turned"] else ""
            return f"{tiles['pages_per_piece']} page tiles each ({cols}×{rows}{turned}, {tiles['overlap_mm']:g} mm overlap)"
        if self.layout.get("reduced"):  # sleeve inserts scaled down: said here, not only on the sheets' slug
            return f"{self.layout['pieces_per_sheet']}/sheet (sleeve, reduced to {self.layout['scale'] * 100:.1f} %)"
        return f"{self.layout['pieces_per_sheet']}/sheet ({self.layout['layout']})"


    def hint(self) -> str:
        """What the summary says under the deck's line: ``_layout_hint``, and a cut file for a run
        of sheets that cut alike, how many it cuts (a score pad's twenty pages: one file, not ten)."""
        alike = "; ".join(f"{stem}: one cut file for {n} sheets that cut alike, each cut with it"
                          for stem, n in self.die_line.get("cut_alike", {}).items())
        return "; ".join(part for part in (self._layout_hint(), alike) if part)

    def _layout_hint(self) -> str:
        """What a figure would change that the build did not choose, for the summary to say under
        the deck's line: a board tiled only for the printer's margin, the margin that holds it
        whole; a tiled board, the largest board fewer page tiles hold; fold-over sheets, the smaller
        bleed that holds more a sheet; a grid with gutters
        for a printer profile's back offset, how many the tight grid holds; duplex pieces that gave up
        bleed for more a sheet, how many the full bleed holds; a print-and-cut build's board cut by
        hand, that it is; else nothing."""
        if self.by_hand:  # (the sheets are whole, with トンボ: no word of tiles or margins)
            return ("too large for the room between the Silhouette's registration marks: printed whole with "
                    "crop marks and no cut file, to cut by hand")
        tiled = tiled_hint(self.layout.get("tiles") or {})
        if tiled:
            return tiled
        more = self.layout.get("more_with")
        if more and self.layout.get("layout") in ("grid", "nested"):
            return (f"{more['pieces_per_sheet']}/sheet at {more['bleed_mm']:g} mm of bleed: the "
                    f"{'grid' if self.layout['layout'] == 'grid' else 'nesting'} keeps "
                    f"{self.layout['sheet_bleed_mm']:g} mm of bleed for the printer profile's back offset, so a back "
                    "printed off its front shows no white edge")  # (a print-and-cut grid may keep more than it needs)
        if more:
            return (f"{more['pieces_per_sheet']}/sheet with --bleed {more['bleed_mm']:g}mm: fold-over keeps the "
                    f"{self.layout['sheet_bleed_mm']:g} mm bleed asked, as a fold seldom lands exactly")
        if self.full_bleed:
            return (f"{self.layout['pieces_per_sheet']}/sheet at {self.layout['sheet_bleed_mm']:g} mm of bleed, "
                    f"{self.full_bleed[0]}/sheet at the full {self.full_bleed[1]:g} mm: a back printed more than "
                    f"{self.layout['sheet_bleed_mm']:g} mm off its front shows paper at the cut; a printer profile's "
                    "back_offset_mm keeps the bleed its offset needs")
        if self.double_at:
            per, (w, h) = self.layout["pieces_per_sheet"], self.double_at
            if per == 1:
                return (f"2/sheet at size: [{w:g}, {h:g}]: two at full size would need the "
                        "whole sheet, edge to edge, where the printer's margin prints nothing")
            return f"{2 * per}/sheet at size: [{w:g}, {h:g}], {counted(-(-self.count // (2 * per)), 'sheet')}"
        return ""


def tiled_hint(tiles: dict[str, Any], whole_only: bool = False) -> str:
    """What a tiled board's record (the manifest's ``tiles``) tells the designer: the --margin or
    the size that would print it whole on one sheet, else the largest board fewer page tiles hold
    (not with ``whole_only``: check warns only of a board one sheet would hold); else nothing."""
    whole = tiles.get("whole_with")
    at = tiles.get("whole_at")
    smaller = f"size: [{at['size_mm'][0]:g}, {at['size_mm'][1]:g}] prints whole on one sheet" if at else ""
    if whole:
        return (f"tiled only for the printer's margin: whole on one sheet with --margin {whole['margin_mm']:g}mm "
                f"(bleed {whole['sheet_bleed_mm']:g} mm there), if the printer prints that near the edge"
                + (f"; or {smaller}" if smaller else ""))
    if smaller:
        return f"tiled, as the sheet's printable area is smaller than the board: {smaller}"
    fewer = tiles.get("fewer")
    if not fewer or whole_only and fewer["pages_per_piece"] != 1:
        return ""
    (cols, rows), (w, h) = fewer["grid"], fewer["board_mm"]
    if fewer["pages_per_piece"] == 1 and fewer.get("between_marks"):  # (a smaller size than without the cutter)
        return (f"size: [{w:g}, {h:g}] prints whole on one sheet between the Silhouette's registration marks, "
                "the largest board of the same proportions the room inside them holds")
    if fewer["pages_per_piece"] == 1:
        return (f"size: [{w:g}, {h:g}] prints whole on one sheet, the largest board of the same proportions "
                "one sheet holds")
    turned = ", the board turned 90°" if fewer.get("turned") else ""
    return (f"{fewer['pages_per_piece']} page tiles ({cols}×{rows}{turned}) hold a board of up to {w:g}×{h:g} mm, "
            "the same proportions")


def layout_record(spec: ShapeSpec, layout, tiles: TilePlan | None, sheet: SheetOptions,
                  whole_with: tuple[float, float] | None = None,
                  whole_at: tuple[float, float] | None = None) -> dict[str, Any]:
    """What the manifest says about how a deck was laid out (``whole_with``: a tiled board's
    smaller --margin, and the bleed there, that would hold it whole on one sheet; ``whole_at``:
    the size of its proportions one sheet holds at this margin)."""
    if tiles is not None:
        whole: dict[str, Any] = {"whole_with": {"margin_mm": whole_with[0], "sheet_bleed_mm": round(whole_with[1], 3)}} \
            if whole_with is not None else {}
        if whole_at is not None:
            whole["whole_at"] = {"size_mm": [whole_at[0], whole_at[1]]}
        return {
            "layout": "tiled",
            "pieces_per_sheet": 0,
            "grid": None,
            "rotated": tiles.rot == 90,
            "sheet_bleed_mm": round(tiles.bleed_mm, 3),
            "gutter_mm": None,
            "density": None,
            "grid_pieces_per_sheet": 0,
            "tiles": {
                "pages_per_piece": tiles.pages,
                "grid": [tiles.cols, tiles.rows],
                "overlap_mm": tiles.overlap_mm,
                "tile_mm": [round(v, 3) for v in tiles.tile_mm],
                "turned": tiles.rot == 90,
                "assembly": "cut at the crop marks; each tile goes over its left and upper neighbour, "
                            "its edge on the dashed guide line (10 mm glue strip)",
                **whole,
                **({"fewer": {"grid": list(tiles.fewer[:2]), "pages_per_piece": tiles.fewer[0] * tiles.fewer[1],
                              "board_mm": list(tiles.fewer[2:]),
                              # (a grid of several pages the board lies turned on: its cols × rows as they lie)
                              **({"turned": True} if tiles.fewer_turned and tiles.fewer[0] * tiles.fewer[1] > 1 else {}),
                              # (--marks silhouette: the room between its registration marks, not the printer's)
                              **({"between_marks": True} if sheet.marks == "silhouette" else {})}}
                   if tiles.fewer else {}),
            },
        }
    sb = layout.sheet_bleed_mm
    if isinstance(layout, SlotLayout):
        stock = layout.stock
        return {"layout": f"sheet {stock.id}", "pieces_per_sheet": layout.per_sheet, "grid": None, "rotated": False,
                "sheet_bleed_mm": round(sb, 3), "gutter_mm": None, "density": None, "grid_pieces_per_sheet": 0,
                "sheet_layout": {"id": stock.id, "name": stock.title, "source": stock.source, "paper": stock.paper,
                                 "paper_mm": list(stock.paper_mm), "marks": layout.marks, "reference": stock.reference,
                                 "slots": [[s.x, s.y, s.w, s.h, s.rotation] for s in stock.slots],
                                 **({} if stock.stock else {"stock": False})}}
    if layout.kind == "grid":
        grid_n = layout.per_sheet
    else:
        g = layout_grid_at(spec.w, spec.h, sheet, sb, room=0.0)
        grid_n = g.per_sheet if g else 0
    rec: dict[str, Any] = {
        "layout": layout.kind,
        "pieces_per_sheet": layout.per_sheet,
        "grid": [layout.cols, layout.rows] if layout.kind == "grid" else None,
        "rotated": layout.rotated,
        "sheet_bleed_mm": round(sb, 3),
        "gutter_mm": [round(g, 3) for g in layout.gutter_mm] if layout.kind == "grid" else [round(2 * sb, 3)] * 2,
        "density": round(density(spec, layout.per_sheet, sheet.paper_mm, sheet.margin_mm), 4),
        "grid_pieces_per_sheet": grid_n,
    }
    if isinstance(layout, NestLayout):
        (ax, ay), (bx, by) = layout.vectors
        rec["lattice_mm"] = [[round(ax, 3), round(ay, 3)], [round(bx, 3), round(by, 3)]]
        rec["interlocked"] = len(layout.motif) > 1
    return rec


def die_line_record(deck_id: str, die_cut: bool, double_sided: bool) -> dict[str, Any]:
    if not die_cut:
        return {"home": "none: cut at the crop marks", "shop": "none: the TrimBox is the cut"}
    return {
        "home": "thin black line on the trim path of every front",
        "shop": f"layer CutContour (spot colour CutContour, shown on screen, not printed) on every page of "
                f"shop/{deck_id}.pdf and shop/{deck_id}-unique.pdf; also a separate file shop/{deck_id}-die.pdf, "
                f"same page size and boxes as the shop pages; page 1 for every front"
                + (", page 2 (mirrored) for every back" if double_sided else ""),
    }


def _copied(value: Any) -> Any:
    """A value as ``asdict`` copies it: mappings, lists and tuples made anew, text, numbers, true,
    false and null as they are (``copy.deepcopy`` gives them back), a dataclass as its ``asdict``,
    anything else deep-copied."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if kind is dict:
        return {_copied(k): _copied(v) for k, v in value.items()}
    if kind is list:
        return [_copied(v) for v in value]
    if kind is tuple:
        return tuple(_copied(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return copy.deepcopy(value)


def manifest_text(manifest: Any) -> str:
    """``json.dumps(manifest, ensure_ascii=False, indent=2)``, the same text, made faster: Python's
    encoder takes its pure-Python path whenever ``indent`` is set, a generator a container and a
    chunk a value (a 3,000-card deck's 1.0 MB manifest, its 3,000 pictures' and pieces' records:
    0.034 CPU-s, this 0.021, runs47). Here each container is one join of its items' texts, each
    string written by the C escaper json uses. Anything not plain JSON (another type, a subclass of
    a value's type) is left to ``json.dumps``, so its text, or its error, is json's own."""
    try:
        return _text(manifest, "\n")
    except (_NotPlain, RecursionError):  # (a loop of containers: json's own error)
        return json.dumps(manifest, ensure_ascii=False, indent=2)


class _NotPlain(Exception):
    """A value ``manifest_text`` leaves to ``json.dumps``."""


def _number(value: float) -> str:
    """A float as json writes it (``allow_nan``: NaN and the infinities as JavaScript names them)."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


_INFINITY = float("inf")
# a plain value's text by its exact type (bool before int in json's own checks: here by type, not isinstance)
_PLAIN: dict[type, Callable[[Any], str]] = {
    str: encode_basestring,
    int: int.__repr__,
    float: _number,
    bool: lambda value: "true" if value else "false",
    type(None): lambda value: "null",
}
_plain = _PLAIN.get


def _key(key: Any) -> str:
    """An object's key as json writes it: a string as it is, a number or true/false/null as its text."""
    kind = type(key)
    if kind is str:
        return encode_basestring(key)
    if kind in _PLAIN:
        return encode_basestring(_PLAIN[kind](key))
    raise _NotPlain


def _text(value: Any, newline: str) -> str:
    """``value``'s text, ``newline`` the line break and indent of its own level."""
    plain = _plain(type(value))
    if plain is not None:
        return plain(value)
    inner = newline + "  "
    kind = type(value)
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        return ("[" + inner + ("," + inner).join([text(item) if (text := _plain(type(item))) else _text(item, inner)
                                                 for item in value]) + newline + "]")
    if kind is dict:
        if not value:
            return "{}"
        return ("{" + inner + ("," + inner).join([
            (encode_basestring(key) if type(key) is str else _key(key)) + ": "
            + (text(item) if (text := _plain(type(item))) else _text(item, inner)) for key, item in value.items()])
                + newline + "}")
    raise _NotPlain
