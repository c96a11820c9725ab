"""The duplex calibration sheet (``pnpgen calibrate``), as two page plans in mm.

Front: a crosshair at the centre and near each corner, 100 mm scale bars across and down, and the
instructions. Back: at the exact mirror image of each crosshair (as the duplex flip brings it
behind the front) a horizontal and a vertical millimetre ruler whose tick ``v`` is ``v`` mm from
that point, in the back page's own coordinates; and the same 100 mm bars. Held to the light,
back side up, the front's crosshair crosses the back's rulers at the correction to apply to the
back pages: the value read is the printer profile's ``back_offset_mm`` (x on the horizontal
ruler, y on the vertical one; right and down positive, as the back is seen).
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.data.formats import PAPER_SIZES
from pnpgen.impose.plan import Item, Page, Strokes, TextOp
from pnpgen.messages import msg
from pnpgen.shapes import Straight, duplex_mirror

INK = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class CalibrationOptions:
    """The calibration sheet a designer prints to measure their printer (paper, duplex, where the targets and rulers
    sit): what a printer profile's figures are read from."""

    paper: str = "a4"
    duplex: str = "long"  # long | short
    inset_mm: float = 30.0  # the corner targets' distance from the paper's edges
    ruler_mm: float = 6.0  # each ruler reads −ruler … +ruler mm
    bar_mm: float = 100.0  # the scale bars' length
    lang: str = "ja"


def targets(opts: CalibrationOptions) -> list[tuple[float, float]]:
    """The crosshairs' centres on the front, mm from the top-left: centre first, then corners."""
    w, h = PAPER_SIZES[opts.paper]
    i = opts.inset_mm
    return [(w / 2, h / 2), (i, i), (w - i, i), (i, h - i), (w - i, h - i)]


def calibration_pages(opts: CalibrationOptions, font: str) -> list[Page]:
    """Front and back of the sheet."""
    size = PAPER_SIZES[opts.paper]
    mirror = duplex_mirror(opts.duplex, size)
    front, back = Page(size, side="front"), Page(size, side="back")
    cross: list[Straight] = []
    for x, y in targets(opts):
        cross += [Straight(x - 12, y, x + 12, y), Straight(x, y - 12, x, y + 12)]  # arms reach the rulers
    front.items.append(Strokes(tuple(cross), width_pt=0.25, colour=INK))
    for n, (x, y) in enumerate(targets(opts)):
        bx, by = mirror((x, y))
        back.items.extend(_rulers(bx, by, opts.ruler_mm, font))
        front.items.append(TextOp(x + 1.5, y - 1.5, "ABCDE"[n], font, 7, INK))
    for page, side in ((front, "front"), (back, "back")):
        page.items.extend(_bars(size, opts.bar_mm, font))
        page.items.extend(_instructions(size, opts, side, font))
    return [front, back]


RULER_AT = 7.0  # mm from the point: the horizontal ruler below it, the vertical one right of it
LABEL_PT = 5.0  # the rulers' numbers
LABEL_ROWS_MM = (4.6, 6.8)  # below the horizontal ruler: its numbers in two rows, every other one lower


def ruler_label(v: float) -> str:
    """A ruler's number with a true minus sign (−2, not the hyphen of -2)."""
    return f"{v:g}".replace("-", "\u2212")


def _rulers(x: float, y: float, reach: float, font: str) -> list[Item]:
    """A horizontal ruler 7 mm below (x, y) and a vertical one 7 mm right of it: ticks every
    0.5 mm, numbered every 2 mm, tick v at v mm from the point (x right, y down). They reach
    ±``reach`` (< RULER_AT), so they never cross each other. The horizontal ruler's numbers take
    two rows, alternately (2 mm apart in one row, −6−4−2 ran together); the vertical one's stack."""
    ticks: list[Straight] = []
    labels: list[Item] = []
    r = RULER_AT
    steps = int(reach * 2)
    for k in range(-steps, steps + 1):
        v = k / 2
        long = 3.0 if k == 0 else 2.0 if k % 2 == 0 else 1.0
        ticks.append(Straight(x + v, y + r, x + v, y + r + long))
        ticks.append(Straight(x + r, y + v, x + r + long, y + v))
        if k % 4 == 0:
            row = LABEL_ROWS_MM[(k // 4) % 2]
            labels.append(TextOp(x + v, y + r + row, ruler_label(v), font, LABEL_PT, INK, "middle"))
            labels.append(TextOp(x + r + 3.6, y + v + 0.6, ruler_label(v), font, LABEL_PT, INK))
    ticks.append(Straight(x - reach, y + r, x + reach, y + r))
    ticks.append(Straight(x + r, y - reach, x + r, y + reach))
    return [Strokes(tuple(ticks), width_pt=0.25, colour=INK), *labels,
            TextOp(x - reach - 1, y + r + 1.5, "x", font, 6, INK, "end"),
            TextOp(x + r - 0.8, y - reach - 1, "y", font, 6, INK)]


def _bars(size: tuple[float, float], length: float, font: str) -> list[Item]:
    """A 100 mm bar across and one down, ticks every 10 mm, so the printed scale can be measured."""
    w, h = size
    x0, y0 = (w - length) / 2, h / 2 + 45
    vx, vy0 = w / 2 - 45, (h - length) / 2
    lines = [Straight(x0, y0, x0 + length, y0), Straight(vx, vy0, vx, vy0 + length)]
    for k in range(11):
        t = 2.5 if k in (0, 10) else 1.2
        lines.append(Straight(x0 + 10 * k, y0 - t, x0 + 10 * k, y0))
        lines.append(Straight(vx - t, vy0 + 10 * k, vx, vy0 + 10 * k))
    return [Strokes(tuple(lines), width_pt=0.4, colour=INK),
            TextOp(x0 + length / 2, y0 + 3.5, f"{length:g} mm (x)", font, 6, INK, "middle"),
            TextOp(vx - 3, vy0 + length / 2, f"{length:g} mm (y)", font, 6, INK, "middle", angle=-90)]


def _instructions(size: tuple[float, float], opts: CalibrationOptions, side: str, font: str) -> list[Item]:
    lang = opts.lang
    duplex = msg(f"sheet.duplex.{opts.duplex}", lang)
    lines = [msg("calibrate.title", lang, paper=opts.paper.upper(), side=msg(f"sheet.{side}", lang),
                 duplex=duplex, scale=msg("sheet.scale", lang))]
    steps = range(1, 5) if side == "front" else (2,)  # the back: what it is and how to read it, not the rest again
    lines += [msg(f"calibrate.step{n}", lang, paper=opts.paper, duplex=opts.duplex, how=duplex) for n in steps]
    x, y = 12.0, 52.0  # below the corner targets, above the centre one
    out: list[Item] = []
    for n, text in enumerate(lines):
        out.append(TextOp(x, y + n * 4.2, text, font, 8 if n == 0 else 6.5, INK))
    return out
