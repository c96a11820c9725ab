"""Layout → SVG: one ``<text>`` per run with absolute x/y, icons as inline ``<g>``.

A run is consecutive characters of one font and colour on one line, without spaces (a space
only moves the pen). Positions come from our own metrics, never from text-anchor, so svglib and
browsers draw the same thing. A justified run carries one x per character.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from . import icons
from .cells import PT, RUBY_SCALE, Cell, font_for
from .layout import ASCENT, Layout
from .markup import ICON, RUBY, TEXT


def _num(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _text(chars: str, xs: list[float], y: float, font: str, size_mm: float, colour: str) -> str:
    # one x when the characters sit at their natural advances, else one per character
    natural = True
    if len(xs) > 1:
        x = xs[0]
        for ch, cx in zip(chars, xs):
            if abs(cx - x) > 1e-3:
                natural = False
                break
            x += _adv(font, ch) * size_mm / PT
    xattr = _num(xs[0]) if natural else " ".join(_num(v) for v in xs)
    return (f'<text x="{xattr}" y="{_num(y)}" font-family="{escape(font)}" font-size="{_num(size_mm)}" '
            f'fill="{escape(colour)}">{escape(chars)}</text>')


def _adv(font: str, ch: str) -> float:
    from .cells import char_width

    return char_width(font, ch)


def emit(layout: Layout, x: float, y: float, fallbacks: tuple[str, ...] = ()) -> Markup:
    size = layout.size
    em = size * PT
    out: list[str] = []
    for line in layout.lines:
        base = y + line.baseline
        run: list[Cell] = []
        run_x: list[float] = []

        def flush() -> None:
            if run:
                out.append(_text("".join(c.text for c in run), run_x[:], base, run[0].font, em, run[0].colour))
                run.clear()
                run_x.clear()

        for cell, cx in zip(line.cells, line.xs):
            left = x + cx
            if cell.kind == TEXT:
                if cell.space:
                    flush()
                    continue
                if run and (run[0].font != cell.font or run[0].colour != cell.colour):
                    flush()
                run.append(cell)
                run_x.append(left)
                continue
            flush()
            if cell.kind == ICON:
                out.append(icons.place(cell.path, left, base - ASCENT * em, em, cell.colour))
            elif cell.kind == RUBY:
                out.extend(_ruby(cell, left, base, size, fallbacks))
        flush()
    return Markup("".join(out))


def _ruby(cell: Cell, left: float, base: float, size: float, fallbacks: tuple[str, ...]) -> list[str]:
    """The base centred in the group's width, the reading centred above it at half size."""
    em = size * PT
    out = []
    base_fonts = [font_for(ch, cell.font, fallbacks) for ch in cell.text]
    base_w = sum(_adv(f, ch) for f, ch in zip(base_fonts, cell.text)) * size
    x = left + (cell.width * size - base_w) / 2
    for f, ch in zip(base_fonts, cell.text):
        out.append(_text(ch, [x], base, f, em, cell.colour))
        x += _adv(f, ch) * size
    rsize = size * RUBY_SCALE
    read_fonts = [font_for(ch, cell.font, fallbacks) for ch in cell.reading]
    read_w = sum(_adv(f, ch) for f, ch in zip(read_fonts, cell.reading)) * rsize
    rx = left + (cell.width * size - read_w) / 2
    rbase = base - ASCENT * em - (1 - ASCENT) * rsize * PT  # reading's em box sits on the base's
    for f, ch in zip(read_fonts, cell.reading):
        out.append(_text(ch, [rx], rbase, f, rsize * PT, cell.colour))
        rx += _adv(f, ch) * rsize
    return out
