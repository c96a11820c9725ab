"""Silhouette Studio's "Print & Cut" registration marks (``--marks silhouette``), as plain data in
millimetres (y down): their figures, keep-out zones and the area they leave for pieces. Apart from
the cutter's layouts (impose/cutter.py) so the sheet options (impose/grid.py) can name them
without a circle. The figures and their sources: docs/home-printing.md.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from pnpgen.data.validate import Invalid, length
from pnpgen.impose.plan import Box, RectOp
from pnpgen.units import MM_PER_INCH

BLACK = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class SilhouetteMarks:
    """Silhouette Studio's registration marks, type 1, at its defaults (docs/home-printing.md
    names the sources): every figure in mm, from the paper's edges."""

    # paper edge → the centre line of each L's two lines, and the square's corner (Studio's default
    # and least inset, 0.394 in): where silhouette-card-maker draws its marks for Studio's templates
    inset_mm: float = 10.0
    square_mm: float = 5.0  # side of the filled square at the top-left (inside its border)
    length_mm: float = 0.33 * MM_PER_INCH  # arm of each L mark from its corner's centre line, 8.382 mm
    thickness_mm: float = 0.039 * MM_PER_INCH  # line width of the L marks and the square's border, 0.991 mm
    keepout_mm: float = 3.0  # clear space round each mark's box (Studio's hatched zone)

    @property
    def reach_mm(self) -> float:
        """How far the keep-out zone of each mark reaches from the paper's corner, on both axes."""
        return self.inset_mm + max(self.square_mm + self.thickness_mm / 2, self.length_mm) + self.keepout_mm

    def zones(self, paper: tuple[float, float]) -> list[Box]:
        """The keep-out zones (top-left, top-right, bottom-left): nothing printed inside."""
        w, h = paper
        z = self.reach_mm
        return [(0.0, 0.0, z, z), (w - z, 0.0, w, z), (0.0, h - z, z, h)]

    def mark_boxes(self, paper: tuple[float, float]) -> list[Box]:
        """The marks as filled rectangles: the square with its border, then each L as its two
        bars, each line centred on the inset (its outer edge half a line nearer the paper's edge)
        and reaching ``length`` from the corner, as silhouette-card-maker draws them."""
        w, h = paper
        i, s, n, e = self.inset_mm, self.square_mm, self.length_mm, self.thickness_mm / 2
        return [
            (i - e, i - e, i + s + e, i + s + e),
            (w - i - n, i - e, w - i + e, i + e), (w - i - e, i - e, w - i + e, i + n),  # top-right L
            (i - e, h - i - e, i + n, h - i + e), (i - e, h - i - n, i + e, h - i + e),  # bottom-left L
        ]

    def cut_area(self, paper: tuple[float, float], margin_mm: float, slug_mm: float) -> Box:
        """Where pieces go on a print-and-cut sheet: inside the rectangle the marks span, below
        the top marks' zones, above the slug (the bottom-left zone: ``silhouette_layout``)."""
        w, h = paper
        i = self.inset_mm
        return i, self.reach_mm, w - i, min(h - i, h - margin_mm - slug_mm)

    def slug_origin(self, paper: tuple[float, float], margin_mm: float, slug_mm: float) -> tuple[float, float]:
        """The slug in the bottom band, right of the bottom-left mark's zone."""
        return self.reach_mm, paper[1] - margin_mm - slug_mm

    def items(self, paper: tuple[float, float]) -> list[RectOp]:
        return [RectOp(x0, y0, x1 - x0, y1 - y0, fill=BLACK, stroke=None) for x0, y0, x1, y1 in self.mark_boxes(paper)]


SILHOUETTE = SilhouetteMarks()
# --silhouette-marks KEY=LENGTH,…: the option's key → field, and the bounds of each (mm)
SILHOUETTE_KEYS = {"inset": ("inset_mm", 3.0, 40.0), "square": ("square_mm", 2.0, 20.0),
                   "length": ("length_mm", 3.0, 40.0), "thickness": ("thickness_mm", 0.1, 3.0),
                   "keepout": ("keepout_mm", 0.0, 20.0)}


def silhouette_option(text: str) -> SilhouetteMarks:
    """``inset=10mm,length=0.33in`` → SilhouetteMarks (the figures not named keep their
    defaults); each length in mm (bare number), cm, in, pt or px."""
    values = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        if not eq or key.strip() not in SILHOUETTE_KEYS:
            raise Invalid(f"{part!r} is not a registration-mark figure",
                          "KEY=LENGTH, KEY one of " + ", ".join(SILHOUETTE_KEYS) + ", e.g. inset=10mm,length=0.33in")
        name, lo, hi = SILHOUETTE_KEYS[key.strip()]
        values[name] = length(value.strip(), lo, hi, what=f"registration mark {key.strip()}")
    return replace(SILHOUETTE, **values)



def figures(marks: SilhouetteMarks) -> dict[str, float]:
    """The registration marks' figures for the manifest."""
    return {f.name: round(getattr(marks, f.name), 3) for f in fields(marks)}
