"""A layout (data/layouts.py → model.Layout) compiled to Jinja/SVG template text, rendered by
the same Renderer as a designer's templates: the same textbox, image, icon and outline helpers,
so text setting, art, icons, ruby and placeholders are those of every other face.

``pnpgen layout export`` writes this very text, so a deck using the exported file as its
``front:``/``back:`` builds byte-identical faces.
"""

from __future__ import annotations

import json

from pnpgen.data.layouts import BASE_PALETTE, TEMPLATE_PREFIX
from pnpgen.data.layoutsides import letters_line
from pnpgen.data.model import Layout, LayoutBox, LayoutSide
from pnpgen.units import num

PREFIX = TEMPLATE_PREFIX  # template names of compiled layouts: @layout/<deck>/front (data/layouts.py side_templates names them)
PLACEHOLDER = "placeholder_word"  # the context's: 未定, TBD as the edition says it (faces/templates.py)
_ALIGN = {"left": 0.0, "center": 0.5, "justify": 0.0, "right": 1.0}


def _s(text: str) -> str:
    """A Jinja string literal."""
    return json.dumps(text, ensure_ascii=False)


def _colour(spec: str | None, layout: Layout) -> str:
    """A Jinja expression for a colour spec: a hex colour as written, a palette name (the deck's own
    layout: palette, else the game's colour, else the layout's), a piece's colour field."""
    assert spec is not None
    if spec.startswith("#"):
        return _s(spec)
    if spec.startswith("piece."):
        return f"colour(piece.get({_s(spec[6:])}))"
    own = dict(layout.palette)
    if spec in layout.deck_palette:  # the deck's own layout: says it for this deck
        return _s(own[spec])
    if spec in own:
        return f"palette.get({_s(spec)}, {_s(own[spec])})"
    return f"colour({_s(spec)})"


def _named(name: str, layout: Layout) -> str:
    """A Jinja expression for one of the layouts' own colours (``ink``, ``paper``) the boxes may
    not name: the game's, else the layout's, else pnpgen's."""
    if name in dict(layout.palette):
        return _colour(name, layout)
    return f"palette.get({_s(name)}, {_s(BASE_PALETTE[name])})"


Ground = tuple[str, "str | None"]  # a text's ground: its colour, and the test of a piece's art over it (or None)


def _ground(box: LayoutBox, earlier: list[LayoutBox], side: LayoutSide, layout: Layout) -> Ground | None:
    """A Jinja expression for the colour a text box's letters stand on: its own panel, else the
    last panel or filled frame drawn under the whole box, else the side's background (white
    paper where it has none); None under art, whose colours are not known. Under an art box that
    prints nothing where its field is empty (``placeholder: false``: a token's art), the ground
    under the art's room, with the test that the piece has art (its text then left as written)."""
    if box.get("fill") is not None:
        return _colour(box.get("fill"), layout), None
    x, y, w, h = (box.get(k) for k in ("x", "y", "w", "h"))
    for n in range(len(earlier) - 1, -1, -1):
        under = earlier[n]
        if under.type in ("folds", "line"):
            continue  # fold lines and a line cover nothing
        if under.type == "frame":
            if under.get("fill") is not None:
                return _colour(under.get("fill"), layout), None
            continue
        ux, uy, uw, uh = (under.get(k) for k in ("x", "y", "w", "h"))
        if ux >= x + w or x >= ux + uw or uy >= y + h or y >= uy + uh:
            continue  # not under the box at all
        if under.type == "image":
            below = None if under.get("placeholder") else _ground(box, earlier[:n], side, layout)
            if below is None:
                return None
            art = _value(under.get("field"))
            has_art = f"not ({art} is none or {art} | string | trim == \"\")"  # as the art box tells it empty
            return below[0], has_art if below[1] is None else f"({has_art} or {below[1]})"
        if under.get("fill") not in (None, "none") and any(ux <= lx and uy <= ly and lx + lw <= ux + uw and ly + lh <= uy + uh
                                                          for lx, ly, lw, lh in ((x, y, w, h), *letters_line(box))):
            return _colour(under.get("fill"), layout), None
    return (_colour(side.background, layout) if side.background is not None else _s("#ffffff")), None


def _value(source: str) -> str:
    if source.startswith(("game.", "deck.")):  # a name, shown as it stands (``literal``), never markup
        return f"({source} | literal)"
    return f"piece.get({_s(source)})"


def _panel(box: LayoutBox, layout: Layout, x: float, y: float, w: float, h: float) -> list[str]:
    fill, stroke = box.get("fill"), box.get("stroke")
    if fill is None and stroke is None:
        return []
    paint = f'fill="{{{{ {_colour(fill, layout)} }}}}"' if fill is not None else 'fill="none"'
    if stroke is not None:
        paint += f' stroke="{{{{ {_colour(stroke, layout)} }}}}" stroke-width="{num(box.get("stroke_width"))}"'
    if box.get("shape") == "circle":
        return [f'<ellipse cx="{num(x + w / 2)}" cy="{num(y + h / 2)}" rx="{num(w / 2)}" ry="{num(h / 2)}" {paint}/>']
    r = box.get("radius")
    rounded = f' rx="{num(r)}" ry="{num(r)}"' if r else ""
    return [f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{rounded} {paint}/>']


def _frame(box: LayoutBox, layout: Layout) -> list[str]:
    inset, r = box.get("inset"), box.get("radius")
    fill, stroke = box.get("fill"), box.get("stroke")
    paint = f'fill="{{{{ {_colour(fill, layout)} }}}}"' if fill is not None else 'fill="none"'
    if stroke is not None:
        paint += f' stroke="{{{{ {_colour(stroke, layout)} }}}}" stroke-width="{num(box.get("stroke_width"))}"'
    if layout.shape == "rect" and r:
        w, h = layout.trim_mm
        return [f'<rect x="{num(inset)}" y="{num(inset)}" width="{num(w - 2 * inset)}" height="{num(h - 2 * inset)}" '
                f'rx="{num(r)}" ry="{num(r)}" {paint}/>']
    return [f'<path d="{{{{ outline({num(-inset)}) }}}}" {paint}/>']


def _folds(box: LayoutBox, layout: Layout) -> list[str]:
    """A tuck box's fold lines, dashed: scored and folded, never cut."""
    if box.get("stroke") is None:
        return []
    dash = num(2.0 if box.get("dash") is None else box.get("dash"))  # (a fold is dashed unless told otherwise)
    return [f'{{% if folds() %}}<path d="{{{{ folds() }}}}" fill="none" stroke="{{{{ {_colour(box.get("stroke"), layout)} }}}}" '
            f'stroke-width="{num(box.get("stroke_width"))}" stroke-dasharray="{dash} {dash}"/>{{% endif %}}']


def _turned(box: LayoutBox) -> tuple[LayoutBox, str]:
    """A box whose content is turned (``rotate``): the box its content is laid out in, upright,
    and the transform that turns it onto the box as placed."""
    turn = box.get("rotate")
    x, y, w, h = (box.get(k) for k in ("x", "y", "w", "h"))
    cx, cy = x + w / 2, y + h / 2
    if turn in (90, 270):
        w, h = h, w
    moved = {"x": cx - w / 2, "y": cy - h / 2, "w": w, "h": h, "rotate": 0}
    upright = LayoutBox(box.name, box.type, tuple((k, moved.get(k, value)) for k, value in box.options))
    return upright, f'<g transform="rotate({turn} {num(cx)} {num(cy)})">'


def _line(box: LayoutBox, layout: Layout) -> list[str]:
    """A straight line from (x, y) to (x + w, y + h): a fold line, dashed with ``dash``."""
    x, y, w, h = (box.get(k) for k in ("x", "y", "w", "h"))
    stroke = box.get("stroke")
    ink = _colour(stroke, layout) if stroke is not None else _named("ink", layout)
    dash = box.get("dash")
    dashed = f' stroke-dasharray="{num(dash)} {num(dash)}"' if dash else ""
    return [f'<line x1="{num(x)}" y1="{num(y)}" x2="{num(x + w)}" y2="{num(y + h)}" '
            f'stroke="{{{{ {ink} }}}}" stroke-width="{num(box.get("stroke_width"))}"{dashed}/>']


def _grid(box: LayoutBox, layout: Layout) -> list[str]:
    """``cols`` × ``rows`` cells in the box: a ruled grid (``spacing: 0``), or boxes apart (tick
    boxes of a roll-and-write sheet), each cell filled with ``fill`` when it says one."""
    x, y, w, h = (box.get(k) for k in ("x", "y", "w", "h"))
    cols, rows, gap = box.get("cols"), box.get("rows"), box.get("spacing")
    stroke, fill, dash = box.get("stroke"), box.get("fill"), box.get("dash")
    ink = _colour(stroke, layout) if stroke is not None else _named("ink", layout)
    line = f'stroke="{{{{ {ink} }}}}" stroke-width="{num(box.get("stroke_width"))}"' + \
        (f' stroke-dasharray="{num(dash)} {num(dash)}"' if dash else "")
    paint = (f'fill="{{{{ {_colour(fill, layout)} }}}}"' if fill is not None else 'fill="none"') + " " + line
    cw, ch = (w - (cols - 1) * gap) / cols, (h - (rows - 1) * gap) / rows
    if gap:
        return [f'<rect x="{num(x + c * (cw + gap))}" y="{num(y + r * (ch + gap))}" width="{num(cw)}" '
                f'height="{num(ch)}" {paint}/>' for r in range(rows) for c in range(cols)]
    d = "".join([f"M{num(x + c * cw)} {num(y)}V{num(y + h)}" for c in range(1, cols)]
                + [f"M{num(x)} {num(y + r * ch)}H{num(x + w)}" for r in range(1, rows)])
    return [f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" {paint}/>',
            *([f'<path d="{d}" fill="none" {line}/>'] if d else [])]


def _box(box: LayoutBox, layout: Layout, ground: Ground | None = None) -> list[str]:
    editions = box.get("lang")
    if editions:  # drawn only in the editions it names
        return [f"{{# {box.name} #}}", f"{{% if game.lang in {list(editions)!r} %}}",
                *_drawn(box, layout, ground)[1:], "{% endif %}"]
    return _drawn(box, layout, ground)


def _drawn(box: LayoutBox, layout: Layout, ground: Ground | None = None) -> list[str]:
    out = [f"{{# {box.name} #}}"]
    if box.type == "frame":
        return out + _frame(box, layout)
    if box.type == "folds":
        return out + _folds(box, layout)
    if box.type == "line":
        return out + _line(box, layout)
    if box.type == "grid":
        return out + _grid(box, layout)
    if box.type == "track":
        return out + _track(box, layout)
    if box.get("rotate"):
        upright, turn = _turned(box)
        return out + [turn] + _drawn(upright, layout, ground)[1:] + ["</g>"]
    x, y, w, h = (box.get(k) for k in ("x", "y", "w", "h"))
    if box.type == "panel":
        return out + _panel(box, layout, x, y, w, h)
    return out + _unturned(box, layout, ground, x, y, w, h)


def _unturned(box: LayoutBox, layout: Layout, ground: Ground | None, x: float, y: float, w: float,
              h: float) -> list[str]:
    out: list[str] = []
    pad = box.get("pad")
    ix, iy, iw, ih = x + pad, y + pad, max(w - 2 * pad, 0.0), max(h - 2 * pad, 0.0)
    placeholder = box.get("placeholder")
    field = box.get("field")
    out.append(f"{{% set v = {_value(field) if field else _s(box.get('text'))} %}}")
    if box.type == "icons":
        out.append("{% set v = [] if v is none else (v if v is sequence and v is not string else [v]) %}")
        empty = "v | length == 0"
    else:
        empty = "v is none or v | string | trim == \"\""
    if placeholder and box.type == "text":
        out.append(f"{{% if {empty} %}}{{% set v = {PLACEHOLDER} %}}{{% endif %}}")
        out += _panel(box, layout, x, y, w, h)
        out += _content(box, layout, ix, iy, iw, ih, ground)
        return out
    if placeholder and box.type == "image":  # image() draws its own placeholder frame
        return out + _panel(box, layout, x, y, w, h) + _content(box, layout, ix, iy, iw, ih)
    out.append(f"{{% if not ({empty}) %}}")
    out += _panel(box, layout, x, y, w, h)
    out += _content(box, layout, ix, iy, iw, ih, ground)
    if placeholder:  # icons
        out.append("{% else %}")
        out.append(f"{{{{ textbox({PLACEHOLDER}, {num(ix)}, {num(iy)}, {num(iw)}, {num(ih)}, size=7, min_size=5, "
                   f"align={_s(box.get('align'))}, valign=\"middle\") }}}}")
    out.append("{% endif %}")
    return out


def _pill(x: float, y: float, w: float, h: float) -> str:
    """An open value's pill: white, ringed in the placeholder colour, standing out on any ground."""
    return (f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="{num(min(1.0, h / 2))}" '
            'fill="#ffffff" stroke="{{ placeholder_colour }}" stroke-width="0.3"/>')


_CIRCLE = ', shape="circle"'  # a text box on a round panel: its text kept inside the circle


def _content(box: LayoutBox, layout: Layout, x: float, y: float, w: float, h: float,
             ground: Ground | None = None) -> list[str]:
    if box.type == "text":
        ink = _colour(box.get("colour"), layout)
        if ground is not None:  # dark ink on a dark ground turns light (docs/data-format.md, Layouts)
            read = f"readable({ink}, {ground[0]}, {_named('ink', layout)}, {_named('paper', layout)})"
            ink = read if ground[1] is None else f"({ink} if {ground[1]} else {read})"  # over a piece's art: as written
        pad = box.get("pad")
        px, py, pw, ph = x - pad, y - pad, w + 2 * pad, h + 2 * pad
        if box.get("vertical"):  # 縦書き: columns right to left (common/macros.svg.j2, imported as m by compile_side)
            return [f"{{% if is_placeholder(v) %}}{_pill(px, py, pw, ph)}{{% endif %}}",
                    f"{{{{ m.tate_box({_beside(box)}, {num(x)}, {num(y)}, {num(w)}, {num(h)}, size={num(box.get('size'))}, "
                    f"font={_s(box.get('font'))}, ink={ink}, line_height={num(box.get('line_height'))}, "
                    f"align={_s(box.get('align'))}, step={num(box.get('step'))}) }}}}"]
        # an open value stands out on any ground: a white pill ringed in the placeholder colour
        return [f"{{% if is_placeholder(v) %}}{_pill(px, py, pw, ph)}{{% endif %}}",
                f"{{{{ textbox({_beside(box)}, {num(x)}, {num(y)}, {num(w)}, {num(h)}, size={num(box.get('size'))}, "
                f"min_size={num(box.get('min_size'))}, font={_s(box.get('font'))}, align={_s(box.get('align'))}, "
                f"valign={_s(box.get('valign'))}, line_height={num(box.get('line_height'))}, "
                f"fill={ink}{_CIRCLE if box.get('shape') == 'circle' else ''}) }}}}"]
    if box.type == "image":
        clip = box.get("clip")
        extra = f", clip=outline({num(clip)})" if clip is not None else ""
        background = box.get("fill")
        bg = f", background={_colour(background, layout)}" if background is not None else ""
        return [f"{{{{ image(v, {num(x)}, {num(y)}, {num(w)}, {num(h)}, fit={_s(box.get('fit'))}{extra}{bg}) }}}}"]
    # icons: a row of squares as tall as the box, aligned in it, in the box's colour where it gives one
    gap, a = box.get("gap"), _ALIGN[box.get("align")]
    tint = f", colour={_colour(box.get('colour'), layout)}" if box.get("colour") is not None else ""
    return [
        f"{{% set x0 = {num(x)} + ({num(w)} - (v | length) * {num(h)} - ((v | length) - 1) * {num(gap)}) * {num(a)} %}}",
        "{% for name in v %}",
        f"{{% set ix = x0 + loop.index0 * {num(h + gap)} %}}",
        "{% if is_placeholder(name) %}"
        f"{{{{ textbox(name, ix, {num(y)}, {num(h)}, {num(h)}, size=6, min_size=4, align=\"center\", valign=\"middle\") }}}}"
        f"{{% else %}}{{{{ icon(name, ix, {num(y)}, {num(h)}{tint}) }}}}{{% endif %}}",
        "{% endfor %}",
    ]


def _beside(box: LayoutBox) -> str:
    """A Jinja expression for a text box's words: its value, with its ``label`` before it (a space
    between) and its ``unit`` after (not after an open value: 体力 未定, not 体力 未定枚). The
    value is joined as a string, never read as a template or a format: data stays data."""
    label, unit = box.get("label"), box.get("unit")
    if label is None and unit is None:
        return "v"
    said = "(v | string)"
    if label is not None:
        said = f"{_s(label + ' ')} ~ {said}"
    if unit is not None:
        said += f" ~ ('' if is_placeholder(v) else {_s(unit)})"
    return f"({said})"


def _track(box: LayoutBox, layout: Layout) -> list[str]:
    """Numbered spaces from ``start`` to a piece field's number (or ``last``), sized to the box, as
    the template helper ``track()`` draws them: a row (``rows: 1``), a snake, or round the box's
    edge (``around: true``, a board's score track); the start space
    filled in ``first``. An open or empty field prints 未定 in the box, as a text box does."""
    x, y, w, h = (box.get(k) for k in ("x", "y", "w", "h"))
    rows, fill, stroke, first = box.get("rows"), box.get("fill"), box.get("stroke"), box.get("first")
    dark = _named("ink", layout)
    # its numbers' colour, and its lines' unless stroke: says otherwise (paper over a dark picture)
    ink = dark if box.get("colour") == "ink" else _colour(box.get("colour"), layout)
    style = [f"rows={rows}", f"stroke={_colour(stroke, layout) if stroke is not None else ink}",
             f"stroke_width={num(box.get('stroke_width'))}", f"ink={ink}"]
    if fill == "none":  # see-through: a track over a mat's picture shows it, every 5th and 10th space too
        style += ['fill="none"', 'mark5="none"', 'mark10="none"']
    elif fill is not None:
        style.append(f"fill={_colour(fill, layout)}")
    if first is not None:
        c = _colour(first, layout)
        style.append(f'first={{"fill": {c}, "ink": readable({ink}, {c}, {dark}, {_named("paper", layout)})}}')
    if not box.get("numbers"):
        style.append("numbers=false")
    layout_ = "ring" if box.get("around") else "row" if rows == 1 else "snake"
    field = box.get("field")
    drawn = (f"{{{{ track({'v' if field is not None else box.get('last')}, {num(x)}, {num(y)}, {num(w)}, {num(h)}, {_s(layout_)}, {box.get('start')}, "
             f"{', '.join(style)}) }}}}")
    if field is None:
        return [drawn]
    empty = "v is none or v | string | trim == \"\" or is_placeholder(v)"
    out = [f"{{% set v = {_value(field)} %}}", f"{{% if {empty} %}}"]
    if box.get("placeholder"):  # the track's room, as an open text box shows it
        out.append(_pill(x, y, w, h) + f"{{{{ textbox({PLACEHOLDER}, {num(x)}, {num(y)}, {num(w)}, {num(h)}, size=9, "
                   "min_size=5, align=\"center\", valign=\"middle\") }}")
    return out + ["{% else %}", drawn, "{% endif %}"]


def _background(side: LayoutSide, layout: Layout) -> list[str]:
    if side.background is None:
        return []
    return ['<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" '
            f'fill="{{{{ {_colour(side.background, layout)} }}}}"/>']


def compile_side(layout: Layout, side: str) -> str:
    """The template text of one side of ``layout``."""
    face = layout.front if side == "front" else layout.back
    assert face is not None
    w, h = layout.trim_mm
    fields = ", ".join(f"{name} ({kind})" for name, kind in layout.fields) or "none"
    lines = [
        f"{{#- pnpgen layout {layout.name}, {side}: {num(w)} × {num(h)} mm, {layout.shape}.",
        f"    Piece fields it reads: {fields}.",
        "    Lengths are mm from the trim's top-left corner, text sizes pt (docs/data-format.md, Layouts). -#}",
        '{% extends "common/piece.svg.j2" %}',
        *(['{% import "common/macros.svg.j2" as m with context %}']
          if any(box.type == "text" and box.get("vertical") for box in face.boxes) else []),
        "{% block art %}",
        *_background(face, layout),
    ]
    for n, box in enumerate(face.boxes):
        ground = _ground(box, list(face.boxes[:n]), face, layout) if box.type == "text" else None
        lines += _box(box, layout, ground)
    lines.append("{% endblock %}")
    return "\n".join(lines) + "\n"
