"""Print-and-cut for hobby cutting machines, as plain data in millimetres (y down).

``--marks silhouette``: Silhouette Studio's "Print & Cut" registration marks of type 1 (a filled
square at the top-left, L-shaped corner marks at the top-right and bottom-left), the keep-out
zone round each (no piece, bleed or slug inside it), and the pieces placed inside the rectangle
the marks span; the cut file of each fronts sheet holds every piece's cut path in the page's
coordinates. ``--marks cricut``: Cricut Design Space draws its own marks, so each image of pieces
is laid out within its Print Then Cut area. The figures and their sources: docs/home-printing.md.

Every cut path is ``shapes.cut_path`` of the deck's outline placed by the sheet layout's own
transform: the same geometry the die lines of the home sheets and shop files are drawn from.
Rectangles that abut (a deck with no bleed: gang-cut counters) share their edges, which are cut
once, as straight runs across the block (``shared_cuts``), not twice by each piece's outline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pnpgen.data.optionvalues import dimensions
from pnpgen.impose.grid import SheetLayout, SheetOptions, Slot, layout_grid, layout_grid_at
from pnpgen.impose.nest import bleed_steps
from pnpgen.impose.plan import Box, Page, PlaceFace
from pnpgen.impose.registration import SilhouetteMarks
from pnpgen.shapes import Outline, ShapeSpec, Straight, bleed_path, cut_path
from pnpgen.units import MM_PER_INCH


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] - 1e-9 and b[0] < a[2] - 1e-9 and a[1] < b[3] - 1e-9 and b[1] < a[3] - 1e-9


def printed_boxes(layout: SheetLayout) -> list[Box]:
    """Each slot's box with the bleed printed round it on the sheet."""
    b = layout.sheet_bleed_mm
    return [(s.x - b, s.y - b, s.x + s.w + b, s.y + s.h + b) for s in layout.slots]


def clear_of(layout: SheetLayout, zones: list[Box]) -> bool:
    return not any(_overlaps(box, z) for box in printed_boxes(layout) for z in zones)


def silhouette_layout(spec: ShapeSpec, count: int, sheet: SheetOptions, marks: SilhouetteMarks,
                      kind: str = "card") -> SheetLayout | None:
    """A grid inside the marks' rectangle with no piece (nor its bleed) in a keep-out zone: the
    whole area when the grid misses the bottom-left zone, else the area right of it or above it,
    whichever prints on the fewest sheets with the most bleed; with a printer profile's back offset
    (``least_bleed_mm``), the grids keeping the bleed it needs first, on more sheets if need be, as
    on sheets without the marks. No room for crop marks (the machine cuts). None when not one piece
    fits (a board: tiled, without marks)."""
    sheet = replace(sheet, mark_room_mm=0.0)
    x0, y0, x1, y1 = marks.cut_area(sheet.paper_mm, sheet.margin_mm, sheet.slug_mm)
    zones = marks.zones(sheet.paper_mm)
    z = marks.reach_mm
    w, h = sheet.paper_mm
    areas = [(x0, y0, x1, y1), (z, y0, x1, y1), (x0, y0, x1, min(y1, h - z)),
             (z, marks.inset_mm, w - z, y1)]  # between the two top marks' zones, from the marks' top
    found: list[tuple[tuple, SheetLayout]] = []
    for n, area in enumerate(areas):
        opts = replace(sheet, cut_area=area)
        for lay in _grids(spec, count, opts, kind):
            if clear_of(lay, zones):
                short = lay.sheet_bleed_mm < min(sheet.least_bleed_mm, sheet.bleed_mm) - 1e-9
                found.append(((short, math.ceil(count / lay.per_sheet), -lay.sheet_bleed_mm, n), lay))
    return min(found, key=lambda f: f[0])[1] if found else None


def _grids(spec: ShapeSpec, count: int, opts: SheetOptions, kind: str) -> list[SheetLayout]:
    """The candidate grids in an area: the card grid for rectangular cards, else a grid at each
    bleed step (die-cut shapes on their bounding boxes; no nesting on a print-and-cut sheet)."""
    if spec.kind == "rect" and kind == "card":
        lay = layout_grid(spec.w, spec.h, opts)
        return [lay] if lay is not None else []
    out = []
    least = min(opts.least_bleed_mm, opts.bleed_mm)  # the bleed a printer's back offset needs, tried too
    for bleed in sorted({*bleed_steps(opts.bleed_mm), *([least] if least > 0 else [])}, reverse=True):
        lay = layout_grid_at(spec.w, spec.h, opts, bleed, room=0.0)
        if lay is not None:
            out.append(lay)
    return out


def cut_paths(spec: ShapeSpec, layout, n: int) -> list[Outline]:
    """The cut paths of a sheet's ``n`` pieces (slots 0 … n − 1, as home_sheets fills them), in
    the sheet's millimetres: the deck's one cut path, placed like the faces."""
    path = cut_path(spec)
    return [path.transformed(layout.transform(j)) for j in range(n)]


@dataclass(frozen=True)
class CutSheet:
    """One sheet's cut file: the paper (the file's page) and the cut paths on it, in mm from the
    paper's top-left corner. The registration marks are not in it: the cutter's software draws
    or expects them at its own settings."""

    paper_mm: tuple[float, float]
    paths: tuple[Outline, ...]
    lines: tuple[Straight, ...] = ()  # the straight cuts of pieces that abut, each shared edge once


def cut_sheets(spec: ShapeSpec, layout, count: int) -> list[CutSheet]:
    """The cut file of every fronts sheet of a deck laid out by ``layout`` (home_sheets' order)."""
    per = layout.per_sheet
    return [CutSheet(layout.paper_mm, *shared_cuts(cut_paths(spec, layout, min(per, count - start))))
            for start in range(0, count, per)]


SAME_MM = 1e-6  # two edges this near are one cut


def shared_cuts(paths: list[Outline]) -> tuple[tuple[Outline, ...], tuple[Straight, ...]]:
    """(outlines, straight cuts) of a sheet's pieces: rectangles that abut (gang-cut counters,
    one cut between two) as the straight runs their edges make, each cut once — the horizontal
    ones top to bottom, then the vertical ones left to right, each run joined end to end across
    the block (a cutter cut every shared edge twice, once per piece, tearing thin card and
    doubling the time) —; the outlines as they are where no two pieces share an edge, or a piece
    is no upright rectangle."""
    runs: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for path in paths:
        for seg in path.segments:
            if not isinstance(seg, Straight):
                return tuple(paths), ()
            if abs(seg.y1 - seg.y2) <= SAME_MM:
                key, a, b = ("h", round(seg.y1, 6)), seg.x1, seg.x2
            elif abs(seg.x1 - seg.x2) <= SAME_MM:
                key, a, b = ("v", round(seg.x1, 6)), seg.y1, seg.y2
            else:
                return tuple(paths), ()
            runs.setdefault(key, []).append((min(a, b), max(a, b)))
    merged: list[Straight] = []
    for (axis, at), spans in sorted(runs.items()):
        spans.sort()
        start, end = spans[0]
        for a, b in spans[1:] + [(math.inf, math.inf)]:
            if a <= end + SAME_MM:
                end = max(end, b)
                continue
            merged.append(Straight(start, at, end, at) if axis == "h" else Straight(at, start, at, end))
            start, end = a, b
    return ((), tuple(merged)) if _shared(runs) else (tuple(paths), ())


def _shared(runs: dict[tuple[str, float], list[tuple[float, float]]]) -> bool:
    """Do two pieces' edges on one line overlap (pieces side by side, one cut between them)?"""
    for spans in runs.values():
        ordered = sorted(spans)
        if any(a < end - SAME_MM for (_, end), (a, _) in zip(ordered, ordered[1:])):
            return True
    return False


def add_registration(pages: list[Page], marks: SilhouetteMarks) -> None:
    """The registration marks on every fronts page (backs are printed duplex and never scanned)."""
    for page in pages:
        if page.side == "front":
            page.items.extend(marks.items(page.size_mm))


# --------------------------------------------------------------------------- Cricut Print Then Cut

CRICUT_AREA_IN = (6.75, 9.25)  # Design Space's Print Then Cut size limit (docs/home-printing.md)
CRICUT_DPI = 300
CRICUT_AREA_RANGE_MM = (50.0, 450.0)  # --cricut-area's sides
CRICUT_AREA_SIDES_MM = (100.0, 450.0)  # a Print Then Cut area's sides as a cutter gives them: a size without a unit read in them


def cricut_area_option(text: str) -> tuple[float, float]:
    """``--cricut-area 7x9.5in`` (mm without a unit) → the Print Then Cut area in inches."""
    w, h = dimensions(text, *CRICUT_AREA_RANGE_MM, "Print Then Cut area", "6.75x9.25in (Design Space's limit on Letter and A4)",
                      CRICUT_AREA_SIDES_MM)
    return round(w / MM_PER_INCH, 4), round(h / MM_PER_INCH, 4)


def cricut_area_mm(area_in: tuple[float, float] = CRICUT_AREA_IN) -> tuple[float, float]:
    return area_in[0] * MM_PER_INCH, area_in[1] * MM_PER_INCH


def cricut_layout(spec: ShapeSpec, bleed: float, area_in: tuple[float, float] = CRICUT_AREA_IN) -> SheetLayout | None:
    """As many pieces as fit one Print Then Cut image (its whole area, pieces two bleeds apart,
    turned 90° when that fits more), the grid centred; bleed reduced in steps if not one fits.
    None when a piece does not fit even without bleed."""
    w, h = cricut_area_mm(area_in)
    for b in bleed_steps(bleed):
        best = None
        for rotated, (pw, ph) in ((False, (spec.w, spec.h)), (True, (spec.h, spec.w))):
            cols, rows = int((w + 1e-9) // (pw + 2 * b)), int((h + 1e-9) // (ph + 2 * b))
            if cols * rows and (best is None or cols * rows > best[3] * best[4]):
                best = (rotated, pw, ph, cols, rows)
        if best is None:
            continue
        rotated, pw, ph, cols, rows = best
        g = 2 * b
        x0 = (w - cols * pw - (cols - 1) * g) / 2
        y0 = (h - rows * ph - (rows - 1) * g) / 2
        slots = [Slot(c, r, x0 + c * (pw + g), y0 + r * (ph + g), pw, ph) for r in range(rows) for c in range(cols)]
        return SheetLayout((w, h), (pw, ph), rotated, cols, rows, (g, g), b, slots)
    return None


def cricut_pages(fronts: tuple[str, ...], spec: ShapeSpec, layout: SheetLayout, art_bleed_mm: float) -> list[Page]:
    """The Print Then Cut images as pages the size of the image: the fronts on ``layout``
    (cricut_layout), each face's art stopping at its bleed outline, nothing else (Design Space
    adds its own marks round the image)."""
    clip = bleed_path(spec, layout.sheet_bleed_mm)
    pages = []
    for start in range(0, len(fronts), layout.per_sheet):
        page = Page(layout.paper_mm, side="front")
        for j, key in enumerate(fronts[start:start + layout.per_sheet]):
            m = layout.transform(j)
            page.items.append(PlaceFace(key, m, (spec.w, spec.h), art_bleed_mm, clip=clip.transformed(m)))
        pages.append(page)
    return pages
