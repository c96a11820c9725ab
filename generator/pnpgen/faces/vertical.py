"""縦書き in templates, as ``m.tate()`` and ``m.tate_box()`` (common/macros.svg.j2) use it: the
``tate_marks`` filter (a column's marks, its Latin runs as long as the column's font sets them)
and the ``tate_columns()`` helper (lines set in columns inside a box, right to left, broken as
JLREQ allows; what does not fit told at the designer's template line), ``tate_start()``, m.tate()'s
check of its one column's start, and ``tate_column()``, the column m.tate() draws. faces/tate.py cuts and
breaks; this binds the face's fonts, palette and warnings, and tells the card-text markup's mistakes
as a text box tells them (text.read_markup)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from markupsafe import Markup

from pnpgen import fonts as fontreg
from pnpgen.data.markup import MarkupError
from pnpgen.data.validate import show, type_name
from pnpgen.errors import InputError
from pnpgen.faces import tate
from pnpgen.faces.sourcelines import grouped, placing_line
from pnpgen.text import MAX_TEXT_CHARS, TextContext, check_numbers, icon, read_glyphs, read_markup, textbox, warned_at
from pnpgen.text.cells import font_pair


def measure(fonts: Mapping[str, str], font: str, size: float) -> Callable[[str, bool], float]:
    """A Latin run's length in mm as the column's font (a role, or a font's name) sets it, bold
    in the role's bold font as a text box sets **bold** (text/cells.py; read only for a bold run:
    a CJK font is some 0.3 s to load)."""
    name, bold = font_pair(fonts, str(font))
    try:
        fontreg.face(name)
    except KeyError:
        raise InputError(f"tate: font {str(font)[:40]!r} is neither a font role nor a font of fonts/",
                         key="font", expected="a font role (" + ", ".join(fonts) + ") or a font in fonts/") from None

    def width(word: str, heavy: bool = False) -> float:
        return fontreg.string_width_mm(word, bold if heavy else name, float(size))
    return width


@jinja2.pass_context
def tate_marks(context: Any, text: object, size: float, pitch: float = 1.1, font: str = "mono") -> list[tate.Mark]:
    """The filter ``text | tate_marks(size, pitch=1.1, font="mono")``: the column m.tate() sets,
    its markup read with the game's palette (m.tate() has told its mistakes first: tate_start)."""
    return _marks(context.get("fonts") or {}, context.get("palette") or {}, text, size, pitch, font)


def _marks(fonts: Mapping[str, str], palette: Mapping[str, str], text: object, size: float, pitch: float,
           font: str) -> list[tate.Mark]:
    try:
        return tate.marks(str(text), float(size), float(pitch), measure(fonts, font, size), palette)
    except MarkupError as e:
        raise InputError(f"tate_marks: {e}", expected="a palette name from game.yaml") from None


def tate_column(ctx: TextContext, text: object, x: float, y: float, size: float = 9, font: str = "mono",
                fill: str = "#000000", pitch: float = 1.1) -> Markup:
    """m.tate()'s column (``fill`` its ink as ``paint(ink, text=True)`` gives it, hex): each mark
    placed as the macro placed it piece by piece — a character a ``textbox()`` of its cell, turned
    or moved within it, a Latin run's box turned, a ruby's base and reading pieces set as columns
    of their own, an icon a square — in one call, not a macro call and a Jinja loop a piece (a
    ruby-heavy verse's faces took half their build in those calls: docs/speed-rounds.md, round tate46).
    Each piece in its ``<g data-pnpgen-at>`` of the designer's line, as a traced textbox() is; a
    number that is none told as tate_columns() tells one (it stopped at Python's words)."""
    check_numbers(ctx, text, "m.tate", x=x, y=y, size=size, pitch=pitch)
    out: list[str] = []
    _column(ctx, out, placing_line(), text, x, y, size, font, fill, pitch)
    return Markup("".join(_merged(out)))


# a character textbox() set alone, upright in its cell, in its group of the designer's line
_UPRIGHT = re.compile(r'<g data-pnpgen-at="([^"]*)"><text x="([-0-9.]+)" y="([-0-9.]+)" ([^>]*)>([^<&])</text></g>')


class _Alone(str):
    """A ruby's reading piece, left an element of its own: the print lint judges a reading
    character by character beside its base (printlint.py ``_ruby_readings``) and names the one."""


def _merged(out: list[str]) -> list[str]:
    """``out`` with each run of characters set upright one after another in the same font, size
    and ink (a ruby's base among them, not its reading) made one ``<text>`` placing each at its own x and y, as textbox() placed it: the
    same glyphs at the same points, in the same order, the converter's work an element a run,
    not two a character (the PDF's text grouped so; round tate46)."""
    done: list[str] = []
    run: list[re.Match[str]] = []

    def flush() -> None:
        if len(run) == 1:
            done.append(run[0].group(0))
        elif run:
            at, style = run[0].group(1), run[0].group(4)
            xs, ys = " ".join(m.group(2) for m in run), " ".join(m.group(3) for m in run)
            done.append(f'<g data-pnpgen-at="{at}"><text x="{xs}" y="{ys}" {style}>{"".join(m.group(5) for m in run)}</text></g>')
        run.clear()

    for item in out:
        m = None if isinstance(item, _Alone) else _UPRIGHT.fullmatch(item)
        if m is None or (run and (m.group(1), m.group(4)) != (run[0].group(1), run[0].group(4))):
            flush()
        if m is None:
            done.append(item)
        else:
            run.append(m)
    flush()
    return done


def _column(ctx: TextContext, out: list[str], at: str | None, text: object, x: float, y: float, size: float,
            font: str, fill: str, pitch: float) -> None:
    em = size * 25.4 / 72
    for mark in _marks(ctx.fonts, ctx.palette, text, size, pitch, font):
        if mark.kind == "space":
            continue
        top = y + mark.top
        middle = top + mark.length / 2
        if mark.kind == "latin":
            box = textbox(ctx, mark.styled(mark.text), x - mark.length / 2 - em * 0.2, middle - em * 0.7,
                          mark.length + em * 0.4, em * 1.4, size=size, min_size=size, font=font, align="center",
                          valign="middle", line_height=1.0, fill=fill)
            out.append(f'<g transform="rotate(90 {x} {middle})">{grouped(box, at)}</g>')
        elif mark.kind == tate.RUBY:
            for part, part_at in mark.base_parts:
                _column(ctx, out, at, mark.styled(part), x, y + part_at, size, font, fill, pitch)
            reading: list[str] = []
            for part, part_at in mark.reading_parts:
                _column(ctx, reading, at, mark.styled(part), x + em * 0.75, y + part_at, size / 2, font, fill, 1.0)
            out.extend(_Alone(piece) for piece in reading)
        elif mark.kind == tate.ICON:
            out.append(grouped(icon(ctx, mark.text, x - em / 2, middle - em / 2, em, mark.colour or fill), at))
        else:
            box = grouped(textbox(ctx, mark.styled(mark.text), x - em * 0.7, middle - em * 0.7, em * 1.4, em * 1.4,
                                  size=size, min_size=size, font=font, align="center", valign="middle",
                                  line_height=1.0, fill=fill), at)
            if mark.kind == "turned":
                out.append(f'<g transform="rotate(90 {x} {middle})">{box}</g>')
            elif mark.kind == "stop":
                out.append(f'<g transform="translate({em * 0.6} {-em * 0.6})">{box}</g>')
            elif mark.kind == "small":
                out.append(f'<g transform="translate({em * 0.1} {-em * 0.1})">{box}</g>')
            else:
                out.append(box)


def tate_columns(ctx: TextContext, text: object, x: float, y: float, w: float, h: float, size: float = 9,
                 font: str = "mono", pitch: float = 1.1, line_height: float = 1.7, align: str = "right",
                 step: float = 0) -> list[tate.Column]:
    """``text`` (a list field: a column each; a text: a column a line) in columns inside the box,
    each with its ``text``, centre line ``x``, top ``y`` and ``length`` (mm), for m.tate() to set."""
    if align not in tate.ALIGNS:
        raise InputError(f"tate_columns: unknown align {str(align)[:40]!r}", key="align",
                         expected="align " + "|".join(tate.ALIGNS))
    check_numbers(ctx, text, "tate_columns", x=x, y=y, w=w, h=h, size=size, pitch=pitch, line_height=line_height, step=step)
    items = text if isinstance(text, (list, tuple)) else [text] if isinstance(text, dict) else []
    odd = next((n for n, item in enumerate(items, 1) if isinstance(item, bool) or not isinstance(item, (str, int, float))
                ), None)  # (set as Python writes one: {'a': 1}, True, None)
    if odd is not None:
        item = items[odd - 1] if items is text else text
        raise InputError(f"tate_columns: {f'item {odd}, ' if items is text else ''}{show(item)}, is {type_name(item)}, "
                         f"not a text ({ctx.where})", expected="a text or a number, or a list of them (a column each)")
    lines = [str(line) for line in text] if isinstance(text, (list, tuple)) else str(text).splitlines()
    if sum(len(line) for line in lines) > MAX_TEXT_CHARS:
        raise InputError(f"tate_columns: a text of {sum(len(line) for line in lines):,} characters ({ctx.where})",
                         expected=f"at most {MAX_TEXT_CHARS:,} characters in one box")
    for said in text if isinstance(text, (list, tuple)) else [text]:  # (a list's items each its own card text)
        read_markup(ctx, said)
        read_glyphs(ctx, said, font)
    if not isinstance(text, (list, tuple)) and len(lines) > 1:  # **bold** and colours go on across a line break
        lines = tate.lines(str(text), ctx.palette)
    found = tate.columns(lines, float(x), float(y), float(w), float(h), float(size), float(pitch), float(line_height),
                         align, float(step), measure(ctx.fonts, font, size), ctx.palette)
    _warn(ctx, text, found.problems)
    return [column._replace(text=tate.SetColumn(column.text)) for column in found.columns]


def tate_start(ctx: TextContext, text: object, font: str = "mono") -> str:
    """m.tate()'s check of the one column it sets: its markup and its characters told as a text
    box tells them, naming the piece's field (a character no font draws too: ``font`` the
    column's); one that starts with a mark JLREQ keeps off a line's start (」, 、) is warned at the
    template's line, as m.tate_box() warns of a line; a column m.tate_box() set
    (``tate.SetColumn``), told there already, is not. Nothing to print."""
    if not isinstance(text, tate.SetColumn):
        read_markup(ctx, text)
        read_glyphs(ctx, text, font)
        problem = tate.start_problem(tate.marks(str(text), 9, palette=ctx.palette), str(text))
        _warn(ctx, text, [problem] if problem else [])
    return ""



def _warn(ctx: TextContext, text: object, problems: list[str]) -> None:
    """Each problem of ``text``'s vertical setting, once, at the designer's template line."""
    placed = ctx.placed_at() if ctx.placed_at is not None and problems else None
    for problem in problems:
        msg = f"{warned_at(ctx, text, placed)}: vertical text: {problem}"
        if msg not in ctx.warnings:
            ctx.warnings.append(msg)
