"""A resolved layout finished for its deck's piece: each side's boxes checked on the trim (on the
piece, off a score track's ring, the tracks' lengths), the stand-up box and the die's faces, into
the plain ``model.Layout`` that ``faces/layouts.py`` compiles.

Kept apart from layouts.py, which finds a layout's files and merges its ``extends:`` layers into a
``RawLayout``; this module reads that result against the piece it is drawn on (``finish``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.boxlengths import Frame, frame
from pnpgen.data.boxoptions import BOX_OPTIONS, SOURCES, TRACK_MOST, colour_spec, is_field_name
from pnpgen.data.formats import SAFE_MM
from pnpgen.data.layouts import (
    BASE_PALETTE,
    FIELD_OF,
    Origin,
    RawLayout,
    RawSide,
    builtin_folder,
    editions_of_game,
    fields,
    is_builtin,
    size_key,
)
from pnpgen.data.markup import colour_names
from pnpgen.data.model import Layout, LayoutBox, LayoutSide
from pnpgen.data.tuckbox import tuck_box
from pnpgen.errors import InputError, Where, suggest
from pnpgen.shapes import RING_FEWEST, ring_hole
from pnpgen.units import MM_PER_PT


@dataclass(frozen=True)
class GameNames:
    """The game's names a layout's boxes are checked against: the colour names of its
    ``palette:``, the font roles of its ``fonts:`` and its ``languages:`` (a box's ``lang:``);
    None: not checked (``layout export`` and ``pnpgen new`` read a layout with no game)."""

    palette: dict[str, str] | None = None
    font_roles: list[str] | None = None
    languages: list[str] | None = None


@dataclass(frozen=True)
class DeckFile:
    """What the deck file naming the layout says beside it: the ``file`` (where a box's ``lang:``
    is checked against the game's editions), where it gives its own ``size:`` or ``format:``
    (``size_where``; None: the layout's size is the deck's), and the image fields it says
    ``{type: image, placeholder: false}`` of (``unplaceheld``), whose image boxes resolve to
    ``placeholder: false`` as ``boxes: {art: {placeholder: false}}`` makes them (docs/data-format.md)."""

    file: Path | None = None
    size_where: Where | None = None
    unplaceheld: frozenset[str] = frozenset()


UNCHECKED = GameNames()  # no game's names to check against
NO_DECK_FILE = DeckFile()  # a layout read alone (``layout export``, ``pnpgen new``)


def _side(raw: RawSide, trim: tuple[float, float], colours: Callable[[Origin | None, str | None], None],
          game: GameNames, deck: DeckFile) -> LayoutSide:
    font_roles, languages = game.font_roles, game.languages
    background = raw.background.parse(colour_spec(True), trim) if raw.background is not None else None
    if raw.background is not None:
        colours(raw.background, background)
    boxes = []
    for name, given in raw.boxes.items():
        btype = given["type"].parse(BOX_OPTIONS["type"].parse, trim) if "type" in given else "text"
        options: dict[str, Any] = {}
        for key, opt in BOX_OPTIONS.items():
            if key == "type":
                continue
            if key in given and btype not in opt.types:
                raise given[key].error(f"{'an' if btype[0] in 'aeiou' else 'a'} {btype} box does not take {key}",
                                       "one of " + ", ".join(k for k, o in BOX_OPTIONS.items() if btype in o.types),
                                       key=True)
            if btype not in opt.types:
                continue
            if key not in given:
                if opt.default is None and key in ("w", "h") and btype == "line":
                    options[key] = 0.0  # a line across gives its w alone, one down its h
                    continue
                if opt.default is None and key in ("w", "h"):
                    others = ", ".join(n for n in raw.boxes if n != name) or "none"
                    raise InputError(f"box {name} has no {key}", path=_where(given),
                                     expected=f"'{key}:' in mm for a new box; to change a box of the layout, "
                                              f"its name: {others}")
                if key == "colour" and btype == "icons":
                    options[key] = None  # the icons as drawn: their currentColor black, as icon() draws it
                    continue
                options[key] = opt.default
                if key in ("colour", "fill", "stroke"):
                    colours(None, opt.default)  # a default is one of BASE_PALETTE's
                continue
            options[key] = given[key].parse(opt.parse, trim)
            if key in ("colour", "fill", "stroke"):
                colours(given[key], options[key])
            if key == "font" and font_roles is not None and options[key] not in font_roles:
                raise given[key].error(f"unknown font role {options[key]!r}", "one of " + ", ".join(font_roles))
            if key == "lang" and languages is not None and options[key] is not None:
                editions_of_game(given[key], options[key], languages, deck.file)
        if btype == "text":
            _vertical(name, given, options)
            if options["shape"] == "circle" and "valign" not in given and not options["vertical"]:
                options["valign"] = "middle"  # a round panel's text in its middle, where the circle is widest
        if btype == "text" and options.get("field") is None and options.get("text") is None:
            field = name if is_field_name(name) else "title"  # the box named after its field, as the built-in ones are
            raise InputError(f"box {name} shows nothing", path=_where(given),
                             expected=f"'field: {field}' (the piece field it shows) or 'text: …' (a fixed text)")
        if btype in ("image", "icons") and (options.get("field") is None or options["field"] in SOURCES):
            raise InputError(f"box {name} reads no piece field", path=_where(given),
                             expected="'field: art' (a field of the pieces)")
        if btype == "image" and options["field"] in deck.unplaceheld:  # fields: {art: {type: image, placeholder: false}}
            options["placeholder"] = False  # empty: the room left blank, no 「画像未定」 frame
        if btype == "track":
            _track_length(name, given, options)
            if options.get("around") and options.get("rows", 1) > 1:
                raise given["rows"].error(f"box {name}: a track round the box's edge (around: true) has no rows",
                                          "rows: left out with around: true, or around: false for rows that snake")
            if "fill" in given and options["fill"] is None:
                options["fill"] = "none"  # see-through spaces, not the track's white ones (no fill given)
        for side in ("w", "h"):
            if btype in FIELD_OF and side in given and options[side] <= 0 and is_builtin(given[side].doc):  # (drawn: an error)
                raise given[side].error(f"{v.show(given[side].value)} is {options[side]:g} mm", "more than 0 mm")
            pad = options.get("pad", 0.0)
            if btype in FIELD_OF and side in given and 0 < options[side] <= 2 * pad and is_builtin(given[side].doc):
                # (card-poker's text on a 41×63 card: 0.32 mm inside a 1.5 mm pad, said as 'textbox h=0' at a piece)
                raise given[side].error(f"{v.show(given[side].value)} is {options[side]:g} mm, leaving nothing inside "
                                        f"its {pad:g} mm pad", f"more than {2 * pad:g} mm")
        if btype in ("text", "icons"):
            _on_piece(name, given, options, trim)
        if btype == "line" and options["w"] == 0 and options["h"] == 0:
            raise InputError(f"box {name} is a line of no length", path=_where(given),
                             expected="'w:' in mm for a line across, 'h:' for one down")
        if btype in ("grid", "track"):
            _grid_on_piece(name, btype, given, options, trim)
        if btype == "grid":
            for n, gaps, side, length_ in (("cols", "across", "w", options["w"]), ("rows", "down", "h", options["h"])):
                need = (options[n] - 1) * options["spacing"]
                if need >= length_:
                    raise (given.get("spacing") or given[side]).error(
                        f"box {name}: {options[n]} {n} with {options[n] - 1} spaces of {options['spacing']:g} mm take "
                        f"{need:g} of its {length_:g} mm {gaps}, leaving no room for the cells",
                        f"a {side} over {need:g} mm, a smaller spacing, or fewer {n}")
        # (a vertical box never shrinks: its size alone, any size; review41: a 4 pt verse was told to add a min_size it refuses)
        if options.get("min_size", 0) > options.get("size", 1e9) and not options.get("vertical"):
            if "size" in given and "min_size" in given and is_builtin(given["min_size"].doc) \
                    and not is_builtin(given["size"].doc):  # (said at the deck's size:, not at pnpgen's own file, trial43)
                raise given["size"].error(
                    f"box {name}: size {options['size']:g} is below the min_size {options['min_size']:g} the layout "
                    f"gives the box (the smallest its text shrinks to)",
                    f"a size of {options['min_size']:g} or more, or a min_size beside it: "
                    f"{{size: {options['size']:g}, min_size: {options['size']:g}}}")
            if "size" in given and "min_size" not in given:  # (trial64: a door's 5 pt label on a box of one's own)
                raise given["size"].error(
                    f"box {name}: size {options['size']:g} is below the default min_size {options['min_size']:g} "
                    f"(the smallest its text shrinks to)",
                    f"a size of {options['min_size']:g} or more, or a min_size beside it: "
                    f"{{size: {options['size']:g}, min_size: {options['size']:g}}}")
            raise given.get("min_size", given.get("size", next(iter(given.values())))).error(
                f"box {name}: min_size {options['min_size']:g} is larger than size {options['size']:g}",
                "a min_size at most the size")
        boxes.append(LayoutBox(name, btype, tuple(options.items())))
    return LayoutSide(background, tuple(boxes))


def _vertical(name: str, given: dict[str, Origin], options: dict[str, Any]) -> None:
    """A vertical box (縦書き) sets its columns from its right edge unless its ``align`` says
    otherwise: the start of vertical writing, as a horizontal box's is its left. It is set at its
    ``size``, never turned, never justified; ``step`` is a vertical box's alone."""
    if not options["vertical"]:
        if "step" in given and options["step"]:
            raise given["step"].error(f"box {name}: step lowers the columns of vertical text, and the box is not vertical",
                                      "vertical: true beside it, or step: left out", key=True)
        return
    if "align" not in given:
        options["align"] = "right"
    elif options["align"] == "justify":
        raise given["align"].error(f"box {name}: a vertical box's columns are not justified",
                                   "align: right (the columns from the box's right edge), center or left")
    for key in ("rotate", "valign", "min_size"):
        if key in given and key != "rotate" and is_builtin(given[key].doc):
            continue  # (a built-in box's, for its horizontal text, made vertical by the deck: told at pnpgen's own file)
        if key in given and (key != "rotate" or options[key]):
            raise given[key].error(f"box {name}: a vertical box does not take {key}" + (
                ": its columns are set at its size, from its top" if key != "rotate" else ": its columns read downwards"),
                "the key left out", key=True)


def _on_piece(name: str, given: dict[str, Origin], options: dict[str, Any], trim: tuple[float, float]) -> None:
    """A built-in layout's text or icons box that a deck's smaller size puts mostly past the trim
    (the hex tile's text, 39–47 mm down, on a 40 mm square tile) would print off the piece: its
    boxes keep their millimetres. Told as an error at the box, which ``_sized_out`` says at the
    size; a box only grazing the edge (a 25 mm token's value circle on a 12 mm one) is the print
    lint's to name."""
    if any(not is_builtin(given[k].doc) for k in ("x", "y", "w", "h") if k in given):
        return  # a box the designer placed: the print lint names what reaches the trim
    for start, size, key, edge, across in (("x", "w", "x" if "x" in given else "w", trim[0], "from the left"),
                                           ("y", "h", "y" if "y" in given else "h", trim[1], "down")):
        low, high = options[start], options[start] + options[size]
        on = min(high, edge) - max(low, 0.0)  # how much of it the piece holds: a box grazing the edge is the lint's
        if on < (high - low) / 2 and key in given:
            raise given[key].error(f"puts it {low:g}–{high:g} mm {across}, mostly past the piece's {edge:g} mm trim "
                                   f"(the layout's boxes keep their millimetres: its text would print off the piece)",
                                   f"the box placed on the piece in the deck's layout: "
                                   f"layout: {{extends: …, boxes: {{{name}: {{{start}: …, {size}: …}}}}}}")


def _track_length(name: str, given: dict[str, Origin], options: dict[str, Any]) -> None:
    """A track box runs from ``start`` to the number a piece field gives (its health) or ``last``:
    one of them, and a fixed one with at least one space, at most TRACK_MOST."""
    field, last, start = options.get("field"), options.get("last"), options["start"]
    told = (f"box {name} is a track of no length" if field is None and last is None else
            f"box {name}: a track's length comes from field: or last:, not both" if field is not None and last is not None
            else f"box {name}: a track's length is a piece field's number, not {field}" if field in SOURCES else None)
    if told is not None:
        raise InputError(told, path=_where(given), expected="'field: hp' (a whole-number field of the pieces: 0 to its "
                         "value) or 'last: 10' (0 to 10, the same on every piece)")
    if last is not None and not 1 <= last - start + 1 <= TRACK_MOST:
        raise (given.get("last") or given["start"]).error(
            f"box {name}: a track from {start} to {last} has {max(last - start + 1, 0):,} spaces",
            f"a last at least its start ({start}) and at most {start + TRACK_MOST - 1:,}: last is the last "
            "space's number, not how many")
    if last is not None and options.get("around") and last - start + 1 < RING_FEWEST:
        # (else the face's track() stops at the piece's line, in a template's words the deck never wrote)
        raise (given.get("last") or given["start"]).error(
            f"box {name}: a track round its box's edge (around: true) from {start} to {last} has "
            f"{last - start + 1} space{'' if last == start else 's'}, and one round the edge needs at least "
            f"{RING_FEWEST}, a space a corner",
            f"last: {start + RING_FEWEST - 1} or more (the last space's number, not how many), or around: false "
            "for a track in a row")


def _grid_on_piece(name: str, btype: str, given: dict[str, Origin], options: dict[str, Any],
                   trim: tuple[float, float]) -> None:
    """A roll-and-write grid (or a track) running past the trim has cells (spaces) the cut takes off: a sheet
    sized down (to the size the build offers so that it prints whole) keeps its boxes' millimetres. No grid
    is meant to be cut, so it is an error at the box, not the print lint's (which reads text)."""
    cells = "spaces" if btype == "track" else "cells"
    for start, size, edge, across in (("x", "w", trim[0], "from the left"), ("y", "h", trim[1], "down")):
        low, high = options[start], options[start] + options[size]
        if low < -0.01 or high > edge + 0.01:
            key = next((k for k in (size, start) if k in given), None)
            origin = given[key] if key is not None else next(iter(given.values()))
            raise origin.error(f"box {name}: its {btype} runs {low:g}–{high:g} mm {across}, past the piece's {edge:g} mm "
                               f"trim: the cut would take {cells} off",
                               f"the {btype} inside the piece: {start} from 0 and {start} + {size} at most {edge:g} "
                               f"({edge - SAFE_MM:g} inside the {SAFE_MM:g} mm safe zone), or a larger size")


def over_tracks(raw: RawLayout, layout: Layout) -> list[str]:
    """A box of a side that lies over the spaces of a track round that side's edge (``around:
    true``, its last space fixed): one of the two hides the other where they meet (trial36: the
    board layout's own band and title, 6 mm down, over a track placed at 6 mm). One warning a box,
    at its line (at the track's, for a box of the built-in layout under it), with the hole the
    spaces leave, where the box fits. A box holding the whole track (a ground, a frame round the
    board) and one inside the hole are not over it."""
    notes = []
    for raw_side, side in ((raw.front, layout.front), (raw.back, layout.back)):
        if raw_side is None or side is None:
            continue
        boxes = {b.name: b for b in side.boxes}
        for track in side.boxes:
            if track.type != "track" or not track.get("around") or track.get("last") is None:
                continue
            count = track.get("last") - track.get("start") + 1
            tx, ty, tw, th = (track.get(k) for k in ("x", "y", "w", "h"))
            if count < 4 or tw <= 0 or th <= 0:
                continue
            hx, hy, hw, hh = ring_hole(count, tx, ty, tw, th)
            hole = (hx, hy, hx + hw, hy + hh)
            for name, given in raw_side.boxes.items():
                box = boxes.get(name)
                at = dict(box.options) if box is not None and box is not track else {}
                if not all(isinstance(at.get(k), int | float) for k in ("x", "y", "w", "h")):
                    continue  # (folds: lines across the whole piece)
                x0, y0 = at["x"], at["y"]
                x1, y1 = x0 + at["w"], y0 + at["h"]
                meets = x0 < tx + tw and x1 > tx and y0 < ty + th and y1 > ty or \
                    (x0 == x1 and tx < x0 < tx + tw and y0 < ty + th and y1 > ty) or \
                    (y0 == y1 and ty < y0 < ty + th and x0 < tx + tw and x1 > tx)  # (a line)
                holds = x0 <= tx and y0 <= ty and x1 >= tx + tw and y1 >= ty + th
                inside = x0 >= hole[0] and y0 >= hole[1] and x1 <= hole[2] and y1 <= hole[3]
                if not meets or holds or inside:
                    continue
                track_at = _where(raw_side.boxes[track.name])
                placed = f"box {name} ({x0:g}–{x1:g} mm across, {y0:g}–{y1:g} down)"
                own = {k: o for k, o in given.items() if not is_builtin(o.doc)}  # (the deck's layout's keys of it)
                if own:
                    said = f"{_where(own)}: {placed} and the spaces of track {track.name} ({track_at}) meet"
                else:  # (the built-in layout's box, which the deck's layout did not move)
                    said = (f"{track_at}: the spaces of track {track.name} and the built-in layout "
                            f"{raw.base[0] if raw.base else raw.name}'s {placed} meet")
                notes.append(f"{said}: one hides the other there (expected the box inside the hole the "
                             f"spaces leave, {hole[0]:.1f}–{hole[2]:.1f} mm across, {hole[1]:.1f}–{hole[3]:.1f} down, "
                             "or the track moved)")
    return notes


STRADDLE_EM = 0.05  # of a line's em past a ground's edge, each side, for its letters to stand on both


def letters_line(box: LayoutBox) -> list[tuple[float, float, float, float]]:
    """Where a line of a text box's words stands at its size (x, y, w, h: the inner width, the em
    placed as ``valign`` puts it): a board's title box taller than the band shrunk under it
    (``band: {h: 12}``) has its letters on the band, not on the paper round it, and its white title
    turned to ``ink`` on the dark band (trial83). A list of that one line (or none: a vertical box's
    columns fill it), to place beside the box's own rectangle."""
    if box.type != "text" or box.get("vertical"):
        return []
    x, y, w, h, pad = (box.get(k) for k in ("x", "y", "w", "h", "pad"))
    em, inner = box.get("size") * MM_PER_PT, max(h - 2 * pad, 0.0)
    top = {"top": 0.0, "middle": (inner - em) / 2, "bottom": inner - em}[box.get("valign")]
    return [(x + pad, y + pad + top, max(w - 2 * pad, 0.0), em)]


def letters_astride(raw: RawLayout, layout: Layout) -> list[str]:
    """A text box without a fill of its own whose line of letters (``letters_line``) stands across
    the edge of the panel under it (a board's 28 pt title over ``band: {h: 12}``: the lower part of each letter
    on the paper, the rest on the band), so its colour reads on one ground and not the other. One
    warning a box, at the line of the deck's layout that moved either (the band's first), with the
    size that keeps the letters on the panel and the panel's height that holds them."""
    notes = []
    for raw_side, side in ((raw.front, layout.front), (raw.back, layout.back)):
        if raw_side is None or side is None:
            continue
        for n, box in enumerate(side.boxes):
            line = letters_line(box)
            if not line or box.get("fill") is not None:
                continue  # (its own fill is its letters' ground)
            lx, ly, lw, em = line[0]
            under = _first_under(side.boxes[:n], (lx, ly, lw, em))
            if under is None or dict(under.options).get("fill") in (None, "none") or under.type == "frame":
                continue
            ux, uy, uw, uh = (under.get(k) for k in ("x", "y", "w", "h"))
            on = min(ly + em, uy + uh) - max(ly, uy)  # of the em on the panel; the rest is off it
            if not (ux <= lx + 0.01 and lx + lw <= ux + uw + 0.01) or on <= 0 or \
                    min(on, em - on) <= STRADDLE_EM * em:
                continue
            size, top, bottom = box.get("size"), uy, uy + uh
            room = {"top": bottom - ly if ly >= top else 0.0, "bottom": ly + em - top if ly + em <= bottom else 0.0,
                    "middle": 2 * max(min(ly + em / 2 - top, bottom - ly - em / 2), 0.0)}[box.get("valign")]
            fits = int(room / MM_PER_PT * 2) / 2  # (sizes in half points, as min_size takes them)
            rights = [f"{box.name}: {{size: {fits:g}}} or less (its letters on the {under.name})" if fits >= 1 else "",
                      f"{under.name}: {{h: {_half_up(ly + em - top)}}} or more" if ly >= top else
                      f"{under.name}: {{y: {_half_down(ly)}, h: {_half_up(bottom - _half_down(ly))}}}" if ly + em <= bottom else ""]
            own = {k: o for b in (under.name, box.name) for k, o in raw_side.boxes.get(b, {}).items()
                   if not is_builtin(o.doc)}
            at = _where(own or raw_side.boxes.get(under.name, {}))
            past = "below" if ly + em > bottom else "above"
            notes.append(f"{at}: box {box.name}'s {size:g} pt letters ({ly:.1f}–{ly + em:.1f} mm down) stand "
                         f"{(em - on):.1f} mm {past} the {under.name} under them ({uy:g}–{uy + uh:g} mm down): "
                         f"part of each letter on the {under.name}, part off it, its colour read on one and not "
                         f"the other (expected {', or '.join(r for r in rights if r)})")
    return notes


def _half_up(mm: float) -> str:
    return f"{math.ceil(mm * 2 - 1e-9) / 2:g}"


def _half_down(mm: float) -> str:
    return f"{math.floor(mm * 2 + 1e-9) / 2:g}"


def _first_under(boxes: Sequence[LayoutBox], rect: tuple[float, float, float, float]) -> LayoutBox | None:
    """The last box drawn before a text that lies under ``rect`` (x, y, w, h), passing over fold
    lines and lines, which cover nothing."""
    x, y, w, h = rect
    for under in reversed(boxes):
        if under.type in ("folds", "line"):
            continue
        if under.type == "frame":
            return under
        ux, uy, uw, uh = (under.get(k) for k in ("x", "y", "w", "h"))
        if not (ux >= x + w or x >= ux + uw or uy >= y + h or y >= uy + uh):
            return under
    return None


def _where(given: dict[str, Origin]) -> str:
    first = next(iter(given.values()), None)
    if first is None:
        return "layout"
    w = first.doc.where(first.keypath[:-1], key=True)
    return str(w)


def finish(raw: RawLayout, trim: tuple[float, float], shape: str, *, game: GameNames = UNCHECKED,
           deck: DeckFile = NO_DECK_FILE) -> Layout:
    """The layout for one deck (written in ``deck.file``, or a layer of it): lengths resolved for its
    ``trim`` and ``shape``, colours, fonts and a box's ``lang:`` checked against the ``game``'s names."""
    try:
        return _finish(raw, trim, shape, game, deck)
    except InputError as e:
        raise _sized_out(raw, trim, deck.size_where, e) or e from None


def _sized_out(raw: RawLayout, trim: tuple[float, float], size_where: Where | None, e: InputError) -> InputError | None:
    """A built-in layout's box that a size of the designer's leaves no room for (a standee 15 mm
    tall: the figure's 'h / 2 - 10' is -2.5 mm; a tuck box for 3 mm cards) is told at that size
    or box:, which is the slip, not at pnpgen's own layout file; None when the slip is not the size."""
    tuck = isinstance(trim, Frame)
    given = [o for o in raw.box.values() if isinstance(o, Origin)] if tuck else \
        [o for o in (raw.top.get("size"), raw.top.get("format")) if o is not None]
    own = [o for o in given if not is_builtin(o.doc)]
    where = size_where or (own[0].doc.where(own[0].keypath) if own else None)
    if where is None or e.path is None or not Path(e.path).is_relative_to(builtin_folder()) \
            or (e.key or "").rpartition(".")[2] not in ("x", "y", "w", "h"):  # (a box's place or size: not its font)
        return None
    name, size = raw.base or (raw.name, None)
    box, _, key = (e.key or "").removeprefix("boxes.").rpartition(".")
    why = f"its box {box}'s {key} {e.message}"
    if tuck:
        return InputError(f"a tuck box whose net is {trim[0]:g}×{trim[1]:g} mm is too small for the built-in layout "
                          f"{name}: {why}", path=where.path, line=where.line, column=where.column, key="box",
                          expected=f"box: figures of larger cards, in which each box of {name} has room (or a layout "
                          f"extending {name} whose boxes fit)")
    said = "×".join(f"{x:g}" for x in size) + " mm" if isinstance(size, list) else size
    placed = e.expected or ""  # _on_piece's: the box placed on the piece, in this layout
    return InputError(f"a {trim[0]:g}×{trim[1]:g} mm piece is a size the built-in layout {name} cannot take: {why}",
                      path=where.path, line=where.line, column=where.column, key=size_key(where),
                      expected="a size in which each of its boxes has room" + (f" (its own is {said})" if said else "")
                      + (f", or {placed.replace('extends: …', f'extends: {name}')}"
                         if placed.startswith("the box placed") else ""))


def _finish(raw: RawLayout, trim: tuple[float, float], shape: str, game: GameNames, deck: DeckFile) -> Layout:
    palette = game.palette
    if shape == "tuckbox" and not isinstance(trim, Frame):  # the panels of the layout's own box
        trim = frame(trim, {"box": tuck_box(raw.box).frozen()})
    own = dict(BASE_PALETTE)
    for name, origin in raw.palette.items():
        origin.parse(v.name, "a colour name")
        own[name] = origin.parse(v.hex_colour)
    used: dict[str, str] = {}
    game_colours: set[str] = set()

    def colours(origin: Origin | None, value: str | None) -> None:
        if value is None or value.startswith("#") or value.startswith("piece."):
            return
        if value in own:
            used[value] = own[value]
        elif palette is not None and value in palette:
            game_colours.add(value)
        elif palette is not None and value not in palette and origin is not None:
            names = sorted(set(colour_names(palette)) | set(own))
            raise origin.error(f"unknown colour {value!r}{suggest(value, names)}", "a palette name (" + ", ".join(names) + ") or '#rrggbb'")

    front = _side(raw.front, trim, colours, game, deck)
    back = _side(raw.back, trim, colours, game, deck) if raw.back is not None else None
    return Layout(raw.name, (trim[0], trim[1]), shape, tuple(sorted(used.items())), tuple(fields(raw).items()), front, back,
                  tuple(sorted(name for name in used if name in raw.deck_palette)), tuple(sorted(game_colours)),
                  _stand_up(raw, front), *_die(raw, front))


def _stand_up(raw: RawLayout, front: LayoutSide) -> tuple[float, float, float, float] | None:
    """``stand_up: front``: the front's image box a piece stands as on a virtual table (a fold-over
    standee's upright figure), as x, y, w, h in mm; None when the layout names none."""
    given = raw.top.get("stand_up")
    if given is None or given.value is None:
        return None
    images = [b for b in front.boxes if b.type == "image"]
    box = next((b for b in images if b.name == given.value), None)
    if box is None:
        names = [b.name for b in images]
        other = next((b for b in front.boxes if b.name == given.value), None)
        told = (f"box {other.name} is a {other.type} box, not an image box, so it cannot stand up" if other else
                f"no image box {v.show(given.value)} on the front to stand up{suggest(str(given.value), names)}")
        raise given.error(told,
                          "the name of one of the front's image boxes: " + (", ".join(names) or "none"))
    if box.get("rotate"):  # (the table and the rulebook show the box as printed: the figure on its side or head)
        upright = [b.name for b in images if not b.get("rotate")]
        raise given.error(f"box {box.name} is turned {box.get('rotate')}°, so the piece would stand on its side or head",
                          "an image box not turned: " + (", ".join(upright) or "none"))
    return (box.get("x"), box.get("y"), box.get("w"), box.get("h"))


DIE_FACES = 6  # ``die:`` names a d6's faces: Tabletop Simulator's Custom_Dice of type 1


def _has_area(box: LayoutBox) -> bool:
    """A box with a w and h of its own, which a die's face can be (a frame or folds box has none)."""
    options = dict(box.options)
    return bool(options.get("w") and options.get("h"))


def _die(raw: RawLayout, front: LayoutSide) -> tuple[tuple[tuple[float, float, float, float], ...] | None,
                                                    tuple[LayoutBox, ...] | None]:
    """``die: [f1, f2, f3, f4, f5, f6]``: the front's boxes a folded paper die shows as its faces 1
    to 6 (1 opposite 6, 2 opposite 5, 3 opposite 4), each as x, y, w, h in mm, and the boxes
    themselves (what each face shows is its value on a virtual table); None when the layout names
    none."""
    given = raw.top.get("die")
    if given is None or given.value is None:
        return None, None
    names = [b.name for b in front.boxes if _has_area(b)]
    expected = f"a list of the {DIE_FACES} front boxes that are the die's faces 1 to 6: " + ", ".join(names)
    if not isinstance(given.value, list) or len(given.value) != DIE_FACES:
        raise given.error(f"{v.show(given.value)} is not a list of {DIE_FACES} box names", expected)
    out, faces = [], []
    for name in given.value:
        box = next((b for b in front.boxes if b.name == name), None)
        if box is None or not _has_area(box):
            told = (f"box {box.name} is a {box.type} box of no area, not a die's face" if box is not None else
                    f"no box {v.show(name)} on the front to be a die's face{suggest(str(name), names)}")
            raise given.error(told, expected)
        out.append((box.get("x"), box.get("y"), box.get("w"), box.get("h")))
        faces.append(box)
    twice = sorted({str(n) for n in given.value if given.value.count(n) > 1})
    if twice:
        raise given.error(f"box {', '.join(twice)} is named twice; a die has {DIE_FACES} different faces", expected)
    return tuple(out), tuple(faces)
