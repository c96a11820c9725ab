"""The print lint: what a printer or a cutter will spoil on the faces, found in the marks the face
converter measured (``Art.marks``: every stroke's width and every text's size and box, with the
template line that drew it), against game.yaml ``lint:`` (``pnpgen.data.lint``):

- a stroke thinner than ``min_stroke`` (0.25 pt), and a dashed stroke's dash or gap shorter than it;
- text smaller than ``min_text`` (6 pt), and a ruby reading (``{投票|とうひょう}``, set at half its
  text's size) smaller than ``min_ruby`` (4 pt: the reading of 8 pt text; a designer's guide to ruby
  sizes, Graphic Mate's 「ルビ（ふりがな）のサイズと振り方」 2021, sets 10/9/8 pt text's ruby at
  5/4.5/4 pt and gives text under 8 pt no ruby);
- text reading at less than ``min_contrast`` (2:1) on the one colour under it (a dark text on a
  dark tile; text over art or a gradient is not measured), and an icon's shape filled in the
  colour of the one painted fill under it, or within CIE ΔE 5 of it (``min_contrast: off`` quiets both);
- text, a layout's ``grid`` box (however thick its lines), or a stroke thinner than
  ``thin_stroke`` (0.5 pt), inside the ``safe`` zone (3 mm from
  the trim edge inward), measured on the trim's bounding rectangle: text by its box (the glyph
  advance, ascent 0.88 and descent 0.12 of the size), a stroke by its path's box (the line the
  stroke follows); text reaching past the trim counts, a stroke that runs past it (a background
  border in the bleed) does not. Text on a piece of another shape (a hex tile, a round token) is
  also measured on its cut line: a word in a hex's corner, inside the box but near (or past) a
  slanted edge, is in the safe zone.

And a face's root ``<svg>`` without a viewBox (its user unit a CSS pixel, 0.26 mm: a drawing in
millimetres prints at 1/3.78), and a length the template wrote with a unit of print (``0.6mm``, ``8pt``) in a face whose units are
millimetres already: SVG reads it as CSS does, 3.78 times what was meant.

One line per (deck, template line, kind), the pieces it reaches counted: a line that draws the
same thin rule on forty cards is one finding."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnpgen.data.lint import LintSettings
from pnpgen.data.model import Deck, Piece
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.errors import InputError
from pnpgen.faces.faceset import outline
from pnpgen.faces.layouts import compile_side
from pnpgen.memo import Memo
from pnpgen.safetext import quoted
from pnpgen.svg.artwork import Art
from pnpgen.svg.style import UNITS_PX
from pnpgen.text.cells import RUBY_SCALE
from pnpgen.units import MM_PER_PT

EPS = 1e-6


@dataclass(frozen=True)
class OnFormat:
    """Where a print shop's format puts a deck's faces (an export): the art scaled by ``scale``
    and centred on the format's trim, whose edges stand ``dx`` mm (left and right) and ``dy`` mm
    (top and bottom) outside the scaled deck's trim, inside it where negative; ``safe``: the
    format's safe zone (mm), which the shop's text is measured against; ``any_size``: the format
    takes pieces of any size (counters, tiles), for which the shop names no figure of its own, so
    a deck's own ``lint:`` (its safe zone, or ``false``) stands where it says one."""

    scale: float = 1.0
    dx: float = 0.0
    dy: float = 0.0
    safe: float | None = None
    any_size: bool = False


AS_DRAWN = OnFormat()


@dataclass
class _Finding:
    """One print-lint problem over every piece it occurs on: reported once, by its worst case, instead of once a
    card."""

    deck: Deck
    at: str
    kind: str
    pieces: list[Piece] = field(default_factory=list)
    ids: set[int] = field(default_factory=set)  # the pieces' ids: a thousand cards' finding is not a list search
    worst: float = 0.0
    text: str = ""
    settings: LintSettings = field(default_factory=LintSettings)  # the figures it was found by (the deck's)
    shown: Piece | None = None  # the piece of the worst case (``text``): the one the line names
    deck_safe: bool = False  # found against the deck's own safe zone, not the shop's (OnFormat.any_size)
    icons: list[str] = field(default_factory=list)  # an unseen shape's icons, each (two on one line alike: both named)


def lint_faces(faces: Iterable[tuple[Deck, Piece, str, str]], arts: dict[str, Art], bleed_mm: float,
               settings: LintSettings, templates: Path, shop: str = "",
               seen: dict[tuple, list[tuple[str, str, float, str]]] | None = None,
               formats: dict[str, OnFormat] | None = None, bleeds: Mapping[str, float] | None = None,
               kept: Memo[list] | None = None, names: Mapping[str, str] | None = None) -> list[str]:
    """The lint's lines for ``faces`` (deck, piece, side, face key), in the order found. With
    ``shop`` (a print shop's name, for an export), ``settings`` are that shop's figures, over any
    deck's own lint: the shop prints what it prints, whatever the designer quieted; ``formats``
    (deck id → its format) measures each deck's faces as that format prints them, text against
    the format's safe zone (DriveThruCards' 1/8 in, not the game's 3 mm). ``seen``: the
    findings on each face measured before (a long-running command's, kept across its saves while
    the bleed is the same; engine/warm.py), which this call adds to and trims to its own faces.
    ``bleeds``: deck id → the bleed its faces are drawn with, when not ``bleed_mm``. ``kept``:
    the findings of earlier builds (the build cache's), by what they were measured on — the
    converted face's name in the cache (``names``: face key → that name), its deck's shape and
    layout, side, settings, bleed and format — so that a build measures only the faces it has not
    measured before."""
    found: dict[tuple, _Finding] = {}
    drawn_at = dict(bleeds or {})
    cuts: dict[tuple[str, str], list[tuple[float, float]] | None] = {}
    seen = {} if seen is None else seen  # a face shown by many pieces: checked once
    used: set[tuple] = set()
    boxes: dict[tuple[str, str], list[str]] = {}  # each layout side's box by line, compiled once
    decks: dict[tuple, str] = {}  # each deck's shape and layout, side and settings, hashed once (_kept_name)
    for deck, piece, side, key in faces:
        art = arts.get(key)
        own = deck.lint if deck.lint is not None and not shop else settings  # a deck file's lint: over the game's
        on = (formats or {}).get(deck.id, AS_DRAWN)
        deck_safe = bool(shop) and on.any_size and deck.lint is not None  # the deck's own, not the shop's
        if deck_safe:
            own = replace(own, safe_mm=deck.lint.safe_mm if deck.lint.on else None)
        elif on.safe is not None:
            own = replace(own, safe_mm=on.safe)
        if art is None or not own.on:
            continue
        deck_bleed = drawn_at.get(deck.id, bleed_mm)
        bleed = deck_bleed / MM_PER_PT
        face = (deck.id, side, key, own, deck_bleed, on)
        if face not in used:  # (a face shown by many pieces: its findings found once)
            used.add(face)
            name = _kept_name(deck, side, names.get(key), face, decks) if kept is not None and names is not None else None
            if name is not None and kept is not None and face in seen:
                kept.get(name)  # (asked for: the record stays in the cache)
            elif name is not None and kept is not None and (known := _known(kept, name)) is not None:
                seen[face] = known
            if face not in seen:
                trim = (bleed, bleed, art.width_pt - bleed, art.height_pt - bleed)
                dx, dy = on.dx / on.scale / MM_PER_PT, on.dy / on.scale / MM_PER_PT  # the format's trim, in the face's points
                printed = (trim[0] - dx, trim[1] - dy, trim[2] + dx, trim[3] + dy)
                if (deck.id, side) not in cuts:
                    cuts[deck.id, side] = _cut_line(deck, side, trim)
                ruby = _ruby_readings(art.marks)
                seen[face] = [(at, what, measure, text)
                              for i, (kind, at, value, x0, y0, x1, y1, text) in enumerate(art.marks)
                              for what, measure in _checks("grid" if kind == "stroke" and _in_grid(deck, at, boxes)
                                                           else "ruby" if i in ruby else kind,
                                                           value, (x0, y0, x1, y1), printed, own,
                                                           cuts[deck.id, side], on.scale)]
                if name is not None and kept is not None:
                    kept.learn(name, [list(finding) for finding in seen[face]])
        for at, what, measure, text in seen[face]:
            # a picture's font is told once a deck, wherever its faces show it (a standee's figure twice)
            # a shape on a ground of its colour: once per template line and pair of colours
            told_as = ((deck.id, "", what, text) if what == "font-substituted" else
                       (deck.id, at or f"{side} template", what, " ".join(text.split()[:2])) if what == "unseen-shape"
                       else (deck.id, at or f"{side} template", what, ""))
            f = found.setdefault(told_as,
                                 _Finding(deck, at, what, worst=measure, text=text, settings=own, shown=piece,
                                          deck_safe=deck_safe))
            if id(piece) not in f.ids:
                f.ids.add(id(piece))
                f.pieces.append(piece)
            if what == "unseen-shape" and (icon := (text.split(" ", 2) + [""])[2]) not in f.icons:
                f.icons.append(icon)
            if measure < f.worst:
                f.worst, f.text, f.shown = measure, text, piece
    for gone in set(seen) - used:
        del seen[gone]
    return [_line(f, f.settings, templates, boxes, shop) for f in found.values()]


def _kept_name(deck: Deck, side: str, name: str | None, face: tuple, decks: dict[tuple, str]) -> str | None:
    """What a face's findings are kept under between builds: the converted face's name (its SVG,
    its pictures and template lines), what is measured of its deck (its shape, size and layout:
    the cut line, a layout's grid boxes), its side, the settings, the bleed and the format
    (``face[3:]``); None for a face with no name in the cache. ``decks``: the rest but the
    name, written out once per deck and side."""
    if name is None:
        return None
    of = (id(deck), side, *face[3:])
    said = decks.get(of)
    if said is None:
        shape = (deck.id, deck.kind, deck.shape, deck.format, deck.trim_mm, deck.options, deck.front, deck.back, deck.layout)
        said = decks[of] = hashlib.sha256(repr((shape, side, face[3:])).encode()).hexdigest() + " "
    return hashlib.sha256((said + name).encode()).hexdigest()[:32]


def _known(kept: Memo[list], name: str) -> list[tuple[str, str, float, str]] | None:
    """The findings kept under ``name``, as measured (None: not kept, or not findings)."""
    known = kept.get(name)
    if not isinstance(known, list) or not all(
            isinstance(f, list) and len(f) == 4 and (f[0] is None or isinstance(f[0], str)) and isinstance(f[1], str)
            and isinstance(f[2], (int, float)) and isinstance(f[3], str) for f in known):
        return None
    return [(at, what, measure, text) for at, what, measure, text in known]


def _ruby_readings(marks: tuple) -> set[int]:
    """The text marks that are a ruby reading (``{投票|とうひょう}``): a text at RUBY_SCALE of the
    size of a text of the same template line whose top its bottom sits on, over it (text/svg.py
    sets the reading's em box on the base's), or, in vertical text, right of it, its centre within
    a reading's em of the base's right edge (a proportional face's kana is narrower than its em) and
    within a base character up or down (a short base spaced out along a long reading; the m.tate()
    macro) of a base in a column (a character of its size just above or below it, or characters
    set as one text down a column, m.tate()'s run of upright ones: a token's small
    letter beside its big one is no ruby) or of a reading in a column of its own (a long reading
    spaces a one-character base away from its neighbours), so the small-text line can say it is
    ruby."""
    texts = [(i, m) for i, m in enumerate(marks) if m[0] == "text"]

    def in_column(b: tuple) -> bool:
        if b[6] - b[4] > 1.6 * b[2] and b[5] - b[3] < 1.6 * b[2]:  # a text taller than its size and narrow: a column
            return True
        return any(c[1] == b[1] and abs(c[2] - b[2]) < 0.01 and c[3] < b[5] and b[3] < c[5]
                   and 0 < abs((c[4] + c[6]) - (b[4] + b[6])) / 2 < 1.6 * b[2] for _, c in texts)

    return {i for i, (_, at, size, x0, y0, x1, y1, _) in texts
            if any(b[1] == at and abs(b[2] * RUBY_SCALE - size) < 0.01
                   and (abs(b[6] - y0) < 0.1 and b[3] < x1 and x0 < b[5]
                        or 0 < (x0 + x1) / 2 - b[5] < b[2] * RUBY_SCALE and b[4] - b[2] < y1 and y0 < b[6] + b[2]
                        and (in_column(b) or in_column(marks[i])))
                   for j, b in texts if j != i)}


def _cut_line(deck: Deck, side: str, trim: tuple) -> list[tuple[float, float]] | None:
    """The trim outline of a piece that is no rectangle, as points of its faces' marks (pt from
    the bleed's bottom-left corner, y up; a back's mirrored left-right); None for a rectangle."""
    if deck.shape == "rect":
        return None
    x0, _, x1, y1 = trim
    return [(x1 - x / MM_PER_PT if side == "back" else x0 + x / MM_PER_PT, y1 - y / MM_PER_PT)
            for x, y in outline(deck)]


def _inside(box: tuple, cut: list[tuple[float, float]]) -> float:
    """How far (pt) ``box`` stands inside the outline ``cut`` at its nearest: its corners' least
    distance to the cut line, negative for a corner outside; 0 where a corner of the outline lies
    in the box (a tri-hex's inner corner crossing it)."""
    x0, y0, x1, y1 = box
    edges = list(zip(cut, cut[1:] + cut[:1], strict=True))
    nearest = min(_signed((x, y), edges) for x in (x0, x1) for y in (y0, y1))
    if any(x0 < x < x1 and y0 < y < y1 for x, y in cut):
        nearest = min(nearest, 0.0)
    return nearest


def _signed(p: tuple[float, float], edges: list) -> float:
    """The distance from ``p`` to the outline of ``edges``, negative outside it (even-odd rule)."""
    px, py = p
    inside, nearest = False, float("inf")
    for (ax, ay), (bx, by) in edges:
        if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
            inside = not inside
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy or 1.0)))
        nearest = min(nearest, ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5)
    return nearest if inside else -nearest


def _checks(kind: str, value: float, box: tuple, trim: tuple, s: LintSettings,
            cut: list[tuple[float, float]] | None = None, scale: float = 1.0) -> list[tuple[str, float]]:
    """Each figure is compared as the line shows it (sizes to 0.1 pt, strokes to 0.01 pt, distances
    to 0.1 mm): a 7 pt text converted to mm and back is not "7.0 pt, smaller than 7 pt". ``cut``:
    the outline of a piece that is no rectangle, which text is measured on too; ``scale``: how
    much larger the face prints than drawn (a shop's --fit scale)."""
    out = []
    if kind == "unit":  # a length in mm (or in, pt) where the template's units are mm already
        return [("length-unit", value)]
    if kind == "font":  # an SVG picture's font family the game has no font of, set in the nearest
        return [("font-substituted", value)]
    if kind == "viewbox":  # a face's root without a viewBox: its user unit a CSS px, not a millimetre
        return [("no-viewbox", value)]
    if kind == "contrast":  # a text's contrast ratio on the one colour under it
        return [("low-contrast", value)] if s.min_contrast is not None and value < s.min_contrast - EPS else []
    if kind == "unseen":  # a shape (an icon) filled in the colour of the ground under it, or nearly
        return [("unseen-shape", value)] if s.min_contrast is not None else []
    value *= scale
    if kind == "dash":  # the shortest dash or gap of a dashed stroke: as short as a line is thin
        return [("short-dash", value)] if s.min_stroke_pt is not None and \
            round(value, 2) < round(s.min_stroke_pt, 2) - EPS else []
    x0, y0, x1, y1 = box
    inward = min(x0 - trim[0], y0 - trim[1], trim[2] - x1, trim[3] - y1) * MM_PER_PT * scale
    if kind in ("stroke", "grid"):
        if s.min_stroke_pt is not None and round(value, 2) < round(s.min_stroke_pt, 2) - EPS:
            out.append(("thin-stroke", value))
        near = s.safe_mm is not None and 0 <= round(inward, 1) < s.safe_mm - EPS
        if near and kind == "grid":  # a score pad's boxes, however thick: a drifted cut takes their border
            out.append(("grid-in-safe-zone", inward))
        elif near and s.thin_stroke_pt is not None and round(value, 2) < s.thin_stroke_pt - EPS:
            out.append(("stroke-in-safe-zone", inward))
    else:  # text, or a ruby reading, judged by its own minimum
        least, said = (s.min_ruby_pt, "small-ruby") if kind == "ruby" else (s.min_text_pt, "small-text")
        if least is not None and round(value, 1) < least - EPS:
            out.append((said, value))
        if cut is not None:
            inward = min(inward, _inside(box, cut) * MM_PER_PT * scale)
        if s.safe_mm is not None and round(inward, 1) < s.safe_mm - EPS:
            out.append(("text-in-safe-zone", inward))
    return out


def _small_ruby_cause(f: _Finding, s: LintSettings, boxes: dict[tuple[str, str], list[str]]) -> str:
    """Why a reading is small and what to do: a layout's box (a built-in one's, which the designer
    never gave a size: card-mini's 7 pt text) named with the size it sets and the deck file's
    lines that give it more; else the text's size to set."""
    least = (s.min_ruby_pt or 0) / RUBY_SCALE
    name, _, line = f.at.rpartition(":")
    side = name.rsplit("/", 1)[-1]
    box = _layout_box(f.deck, side, line, boxes) if name.startswith("@layout/") else ""
    if not box or f.deck.layout is None:
        return (f"a reading is set at half its text's size, so set the text at {least:g} pt or more, or lower the "
                f"deck's lint: {{min_ruby: …}} (docs/data-format.md, ruby)")
    sized = f"boxes: {{{box}: {{size: {least:g}}}}}"
    own = sized if side != "back" else f"back: {{{sized}}}"
    accept = f"or accept {f.worst:.1f} pt ruby with lint: {{min_ruby: {f.worst:.1f}pt}} (docs/data-format.md, ruby)"
    if f.deck.layout.name.endswith(" (inline)"):  # the deck's own layout: {extends: …}: its name is no layout's
        return (f"the deck file's layout sets the box {box} at {f.worst / RUBY_SCALE:.1f} pt, and a reading at half "
                f"its text's size; give the box {least:g} pt there (in its layout: {{…, {own}}}), {accept}")
    layout = f.deck.layout.name
    return (f"the {layout} layout sets the box {box} at {f.worst / RUBY_SCALE:.1f} pt, and a reading at half its "
            f"text's size; give the box {least:g} pt in the deck file (layout: {{extends: {layout}, {own}}}), {accept}")


def _where(at: str, deck: Deck, templates: Path, boxes: dict[tuple[str, str], list[str]], first: Piece) -> str:
    """The template line as a designer finds it: templates/<name>:<line>, pnpgen's own
    common/ macros, a layout file's box; for a built-in layout, whose template the designer never
    sees, the deck file's line where ``first`` (the piece quoted) sets the field the box shows,
    else the deck's ``layout:`` line, naming the box and its field."""
    name, _, line = at.rpartition(":")
    if not name:
        return at
    if name.startswith("@layout/"):
        side = name.rsplit("/", 1)[-1]
        layout = deck.layout.name if deck.layout is not None else ""
        box_name = _layout_box(deck, side, line, boxes)
        box = f", box {box_name}" if box_name else ""
        inside = ("back", "boxes") if side == "back" else ("boxes",)
        if layout and (templates.parent / "layouts" / f"{layout}.yaml").is_file():  # the workspace's own
            path = templates.parent / "layouts" / f"{layout}.yaml"
            return f"the layout of deck {deck.id!r} ({side}{box}, from layouts/{layout}.yaml{_box_line(path, inside, box_name, line)})"
        if layout.endswith(" (inline)"):  # the deck's own layout: {extends: …} (data/layouts.py _layers)
            own = deck.layout_where.path if deck.layout_where is not None else deck.source  # (a deck list: its source's)
            source = own.relative_to(templates.parent) if own.is_relative_to(templates.parent) else own
            where = _box_line(own, ("layout", *inside), box_name, line)
            return f"the layout of deck {deck.id!r} ({side}{box}, from {source.as_posix()}{where})"
        return _in_deck_file(deck, side, box_name, first)
    if name.startswith("common/") and not (templates / name).is_file():
        return f"pnpgen's {name}:{line}"
    return f"templates/{name}:{line}"


def _in_deck_file(deck: Deck, side: str, name: str, first: Piece) -> str:
    """A built-in layout's box as the deck file names it: where ``first`` sets the box's field
    (``data/<slug>/decks/<id>.yaml:7:14 (field flavour, box flavour of the front of the built-in
    layout card-poker)``), else the deck's ``layout:`` line, for a box of a fixed text or none."""
    drawn = None if deck.layout is None else deck.layout.back if side == "back" else deck.layout.front
    box = next((b for b in drawn.boxes if b.name == name), None) if drawn is not None and name else None
    field = dict(box.options).get("field") if box is not None else None
    where = first.where_of(field) if field is not None and field in first.field_lines else deck.where()
    said = f"field {field}, " if field is not None else ""
    layout = deck.layout.name if deck.layout is not None else ""
    return f"{where} ({said}{f'box {name} of ' if name else ''}the {side} of the built-in layout {layout})"


def _box_line(path: Path, inside: tuple[str, ...], name: str, line: str) -> str:
    """':<line>' of the box ``name``'s own line in the layout's YAML file, where the file writes the box;
    else the line of the template the layout compiles to, said as that (a deck file's line 14
    named for a box written on its line 10 sent the designer to a piece)."""
    try:
        doc = load_yaml(path)
    except InputError:
        doc = None
    if name and doc is not None and (*inside, name) in doc.key_marks:
        return f":{doc.key_marks[(*inside, name)][0]}"
    return f"; line {line} of the template it compiles to, as pnpgen layout export writes it"


def _in_grid(deck: Deck, at: str, boxes: dict[tuple[str, str], list[str]]) -> bool:
    """Whether the template line ``at`` draws a layout's ``grid`` box (ruled cells or a row of
    tick boxes): its lines are measured against the safe zone as text is, however thick."""
    name, _, line = at.rpartition(":")
    if deck.layout is None or not name.startswith("@layout/"):
        return False
    side = name.rsplit("/", 1)[-1]
    box = _layout_box(deck, side, line, boxes)
    drawn = deck.layout.back if side == "back" else deck.layout.front
    return bool(box) and drawn is not None and any(b.name == box and b.type == "grid" for b in drawn.boxes)


def _layout_box(deck: Deck, side: str, line: str, boxes: dict[tuple[str, str], list[str]]) -> str:
    """The name of the box of a layout's side that wrote ``line`` of its compiled template (each
    box's text starts with its {# name #} line), as a designer writes boxes, not lines; "" for none.
    ``boxes``: each side's box by line, compiled once per lint (a grid of 200 × 200 tick boxes
    too thin to print was one finding a box, each compiling the side again: 10 minutes)."""
    if deck.layout is None or not line.isdigit() or (side == "back" and deck.layout.back is None):
        return ""
    if (deck.id, side) not in boxes:
        box, named = "", []
        for row in compile_side(deck.layout, side).splitlines():
            found = re.fullmatch(r"\{# (.+) #\}", row.strip())
            box = found.group(1) if found else box
            named.append(box)
        boxes[deck.id, side] = named
    named = boxes[deck.id, side]
    return named[min(int(line), len(named)) - 1] if int(line) >= 1 and named else ""


def _no_viewbox(f: _Finding) -> str:
    """A face's root with no viewBox: what its user unit is, and the viewBox that makes it the
    millimetre with (0, 0) at the trim's corner, as common/piece.svg.j2 writes it."""
    face = [float(v) for v in f.text.split()] if len(f.text.split()) == 2 else [0.0, 0.0]
    bleed = [max(0.0, (size - trim) / 2) for size, trim in zip(face, f.deck.trim_mm)]
    numbers = " ".join(f"{round(v, 2):g}" for v in (-bleed[0], -bleed[1], *face))
    return (f"the <svg> root ({f.text.replace(' ', '×')} mm) has no viewBox, so its user unit is a CSS pixel "
            f"({f.worst:.2f} mm) and a drawing in millimetres prints at 1/{1 / f.worst:.2f} of its size; "
            f'viewBox="{numbers}" makes the units millimetres, (0, 0) the trim\'s top-left corner '
            '(viewBox="{{ -bleed }} {{ -bleed }} {{ w + 2 * bleed }} {{ h + 2 * bleed }}" in the template)')


def _from_trim(mm: float) -> str:
    """Where a line lies against the trim, as a designer reads it: ``1.0 mm from the trim``, or ``at the
    trim`` for one drawn from the cut (a ruler's ticks, measured a hair past it), never ``-0.0 mm``."""
    return f"{mm:.1f} mm from the trim" if round(mm, 1) > 0 else "at the trim"


def _dash_said(f: _Finding) -> str:
    """"dashes" or "gaps": which of a dashed stroke's is the shortest."""
    return "gaps" if f.text == "gap" else "dashes"


def _line(f: _Finding, s: LintSettings, templates: Path, boxes: dict[tuple[str, str], list[str]], shop: str = "") -> str:
    first = f.shown or f.pieces[0]  # the piece whose text (the worst case) the line quotes
    more = f" and {len(f.pieces) - 1} more" if len(f.pieces) > 1 else ""
    text = f" {quoted(f.text)}" if f.text and ("text" in f.kind or f.kind == "small-ruby") else ""
    if f.kind == "low-contrast":
        ink, ground, chars = (f.text.split(" ", 2) + ["", ""])[:3]
        what = (f"text {quoted(chars)} in {ink} on {ground}, contrast {f.worst:.1f}:1, less than "
                f"{s.min_contrast:g}:1 (hard to read: a lighter or darker text colour)")
    elif f.kind == "unseen-shape":
        ink, ground, icon = (f.text.split(" ", 2) + ["", ""])[:3]
        icons = f.icons or [icon]  # (every icon of the line in these colours, not the first one's alone)
        same = "in the colour" if ink == ground else f"in nearly the colour ({ink}, CIE ΔE {f.worst:.1f})"
        what = (f"{'icon' if len(icons) == 1 else 'icons'} {', '.join(icons)} drawn {same} of the {ground} under "
                f"{'it' if len(icons) == 1 else 'them'}: {'it prints' if len(icons) == 1 else 'they print'} invisible "
                f"(expected an icon colour apart from its ground's, ΔE 5 or more)")
    elif f.kind == "font-substituted":
        picture, family, font = (f.text.split("\n") + ["", ""])[:3]
        said = f"font-family {family!r}, which is" if family else "no font-family, and names"
        what = (f"the SVG picture {picture} sets text in {said} none of the game's fonts: "
                f"set in {font}, the nearest (name one of the game's fonts in the picture, or its text as paths)")
    elif f.kind == "length-unit":
        # what was meant, in mm: the length drawn over CSS's 3.78 units a millimetre
        meant = f"{f.worst / UNITS_PX['mm']:.2f}".rstrip("0").rstrip(".")
        unit = f.text.lstrip("0123456789.+- ").lower()
        said = "" if unit == "mm" else f" ({f.text} in mm{'; a <text> font-size too is mm' if unit == 'pt' else ''})"
        what = (f"the length {f.text!r} draws {f.worst:.2f} mm: a template's lengths are millimetres "
                f"already, and SVG reads a unit as CSS does (1mm = 3.78 units); write {meant}{said}")
    elif f.kind == "no-viewbox":
        what = _no_viewbox(f)
    elif f.kind == "thin-stroke" and shop and s.min_stroke_pt is not None:
        what = (f"stroke {f.worst:.2f} pt ({f.worst * MM_PER_PT:.2f} mm), thinner than the "
                f"{s.min_stroke_pt * MM_PER_PT:.3g} mm line {shop} prints (it may break up or vanish)")
    elif f.kind == "thin-stroke":
        what = f"stroke {f.worst:.2f} pt, thinner than {s.min_stroke_pt:g} pt (a printer may drop it)"
    elif f.kind == "short-dash" and shop and s.min_stroke_pt is not None:
        what = (f"stroke-dasharray {_dash_said(f)} {f.worst:.2f} pt ({f.worst * MM_PER_PT:.3f} mm), shorter than the "
                f"{s.min_stroke_pt * MM_PER_PT:.3g} mm line {shop} prints (the dashes may vanish or run into a solid line)")
    elif f.kind == "short-dash":
        what = (f"stroke-dasharray {_dash_said(f)} {f.worst:.2f} pt ({f.worst * MM_PER_PT:.3f} mm), shorter than "
                f"{s.min_stroke_pt:g} pt, the thinnest line a printer draws (the dashes may vanish or run into a solid line)")
    elif f.kind == "small-text":
        what = f"text{text} {f.worst:.1f} pt, smaller than {s.min_text_pt:g} pt"
    elif f.kind == "small-ruby":
        what = f"ruby{text} {f.worst:.1f} pt, smaller than {s.min_ruby_pt:g} pt: " + _small_ruby_cause(f, s, boxes)
    elif f.kind == "text-in-safe-zone":
        zone = f"the {s.safe_mm:g} mm safe zone" + (" the deck's lint: gives" if f.deck_safe else f" {shop} asks for" if shop
                                                    else "")
        if f.worst < 0:  # not a drifted cut's risk: the cut itself takes it
            what = f"text{text} {-f.worst:.1f} mm past the trim: the cut takes it (keep text out of {zone})"
        else:
            what = f"text{text} {f.worst:.1f} mm from the trim, inside {zone} (a drifted cut may take it)"
    elif f.kind == "grid-in-safe-zone":
        what = (f"grid lines {_from_trim(f.worst)}, inside the {s.safe_mm:g} mm safe zone (a drifted cut may take its border)")
    else:
        what = (f"stroke thinner than {s.thin_stroke_pt:g} pt {_from_trim(f.worst)}, inside the "
                f"{s.safe_mm:g} mm safe zone (a drifted cut shows it uneven)")
    return (f"{_where(f.at, f.deck, templates, boxes, first) or first.where}: print lint: deck {f.deck.id!r} piece {first.index} "
            f"({first.said}){more}: {what}")
