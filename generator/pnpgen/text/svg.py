"""Layout → SVG: one ``<text>`` per run with absolute x/y, icons as inline ``<g>``.

A run is consecutive characters of one font and colour on one line, without spaces (a space
only moves the pen). Positions come from our own metrics, never from text-anchor, so svglib and
browsers draw the same thing. A run on a justified line carries one x per character.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from pnpgen.data.markup import ICON, RUBY, TEXT
from pnpgen.text import icons
from pnpgen.text.cells import PT, RUBY_SCALE, Cell, char_width, font_for
from pnpgen.text.layout import ASCENT, Layout
from pnpgen.text.ruby import character_xs, parts
from pnpgen.units import num

_emitted: dict[tuple, tuple[Layout, Markup]] = {}  # (id(layout), x, y, fallbacks) → (layout, svg)


def clear_cache() -> None:
    """Forget the SVG emitted so far (for cold-start measurements)."""
    _emitted.clear()
_MAX_EMITTED = 4096


def _text(chars: str, xs: list[float], y: float, font: str, size_mm: float, colour: str) -> str:
    xattr = " ".join(num(v) for v in xs)
    return (f'<text x="{xattr}" y="{num(y)}" font-family="{escape(font)}" font-size="{num(size_mm)}" '
            f'fill="{escape(colour)}">{escape(chars)}</text>')


def emit(layout: Layout, x: float, y: float, fallbacks: tuple[str, ...] = ()) -> Markup:
    """The SVG for a layout placed with its box's top-left at (x, y); cached per placement."""
    key = (id(layout), x, y, fallbacks)
    hit = _emitted.get(key)
    if hit is not None and hit[0] is layout:
        return hit[1]
    svg = Markup("".join(_emit(layout, x, y, fallbacks)))
    if len(_emitted) >= _MAX_EMITTED:
        _emitted.clear()
    _emitted[key] = (layout, svg)  # keeps the layout alive, so its id is not reused
    return svg


def _emit(layout: Layout, x: float, y: float, fallbacks: tuple[str, ...]) -> list[str]:
    size = layout.size
    em = size * PT
    out: list[str] = []
    for line in layout.lines:
        base = y + line.baseline
        per_char = line.spacing != 0.0
        run: list[Cell] = []
        run_x: list[float] = []
        for cell, cx in zip(line.cells, line.xs):
            left = x + cx
            if cell.kind == TEXT:
                if cell.space:
                    _flush(out, run, run_x, per_char, base, em)
                    continue
                if run and (run[0].font != cell.font or run[0].colour != cell.colour):
                    _flush(out, run, run_x, per_char, base, em)
                run.append(cell)
                run_x.append(left)
                continue
            _flush(out, run, run_x, per_char, base, em)
            if cell.kind == ICON:
                assert cell.path is not None  # an icon cell always has its file
                out.append(icons.place(cell.path, left, base - ASCENT * em, em, cell.colour))
            elif cell.kind == RUBY:
                out.extend(_ruby(cell, left, base, size, fallbacks))
        _flush(out, run, run_x, per_char, base, em)
    return out


def _flush(out: list[str], run: list[Cell], run_x: list[float], per_char: bool, base: float, em: float) -> None:
    """The run so far as one ``<text>`` (one x per character on a justified line); then empty."""
    if run:
        xs = run_x if per_char else run_x[:1]
        out.append(_text("".join(c.text for c in run), xs, base, run[0].font, em, run[0].colour))
        run.clear()
        run_x.clear()


def _runs(text: str, font: str, fallbacks: tuple[str, ...]) -> list[tuple[str, str]]:
    """``text`` cut where the drawing font changes (a fallback for a missing glyph)."""
    runs: list[tuple[str, str]] = []
    for ch in text:
        f = font_for(ch, font, fallbacks)
        if runs and runs[-1][1] == f:
            runs[-1] = (runs[-1][0] + ch, f)
        else:
            runs.append((ch, f))
    return runs


def _ruby(cell: Cell, left: float, base: float, size: float, fallbacks: tuple[str, ...]) -> list[str]:
    """The reading above the base at half size; a reading longer than its base starts ``lead``
    before the group (over the kana before it), a mono ruby's base centred under it and a group
    ruby's spread 1:2:1 along what its neighbours leave of it, or, the ruby at a line's start or
    end (``cell.edge``), at the line's edge, the reading's head or end aligned with it; a reading
    shorter than a group ruby's base spread 1:2:1 along the base (text/ruby.py)."""
    em = size * PT
    rsize = size * RUBY_SCALE
    base_runs = _runs(cell.text, cell.font, fallbacks)
    base_ws = [char_width(f, ch) for s, f in base_runs for ch in s]
    base_w = sum(base_ws) * size
    read_runs = _runs(cell.reading, cell.font, fallbacks)
    read_ws = [char_width(f, ch) for s, f in read_runs for ch in s]
    read_w = sum(read_ws) * rsize
    group = (cell.width + cell.lead + cell.tail) * size  # the base's width, or the reading's if wider
    start = left - cell.lead * size
    if cell.edge == "head" and read_w > base_w:  # the base at the line's start, its reading's head with it
        bx = rx = start
    elif cell.edge == "foot" and read_w > base_w:  # … at its end, the reading's end with it
        bx, rx = start + group - base_w, start + group - read_w
    else:
        bx, rx = start + (group - base_w) / 2, start + (group - read_w) / 2
    base_at: list[float] | None = None  # each character's x where a group ruby's side is spread
    read_at: list[float] | None = None
    if read_w > base_w and len(parts(cell.text)) > 1:  # the base along what its neighbours leave of the reading
        base_at = character_xs(cell.text, [w * size for w in base_ws], left, cell.width * size, cell.edge)
    elif read_w < base_w and len(parts(cell.text)) > 1 and len(parts(cell.reading)) > 1:  # the reading along the base
        read_at = character_xs(cell.reading, [w * rsize for w in read_ws], bx, base_w, "", rsize * PT)
    rbase = base - ASCENT * em - (1 - ASCENT) * rsize * PT  # the reading's em box sits on the base's
    return _drawn(base_runs, bx, base_at, base, em, cell.colour, size) + \
        _drawn(read_runs, rx, read_at, rbase, rsize * PT, cell.colour, rsize)


def _drawn(runs: list[tuple[str, str]], x: float, xs: list[float] | None, y: float, size_mm: float,
           colour: str, size: float) -> list[str]:
    """``runs`` (text, font) as ``<text>`` elements on baseline ``y``: set solid from ``x``, or
    each character at its own x of ``xs``."""
    out = []
    at = 0
    for s, f in runs:
        if xs is None:
            out.append(_text(s, [x], y, f, size_mm, colour))
            x += sum(char_width(f, ch) for ch in s) * size
        else:
            out.append(_text(s, xs[at:at + len(s)], y, f, size_mm, colour))
            at += len(s)
    return out
