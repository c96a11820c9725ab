"""Template helpers about a piece's shape, score tracks and colours, added to every template's
context.

- ``track(n, x, y, w, h, layout="ring", start=0, rows=None, **style)``: a score track (tracks.py).
- ``outline(offset=0)``: SVG path data of this face's outline in mm (its trim path grown by
  ``offset``; negative insets), e.g. ``<path d="{{ outline(-2) }}" fill="none" .../>``. On a back
  face it is the front's mirrored left-right, as the back is seen after turning the piece over.
- ``shape``: ``kind``, ``size`` (across flats / diameter), ``orientation``, ``corners`` (the
  trim polygon's corners) and ``centres`` (centre of each hexagon of a hex or tri-hex, the
  centre of a circle or box), all in this face's frame (mm), each point an ``XY`` (``.x``,
  ``.y``, and it unpacks as a pair).
- ``hex_points(cx, cy, size, orientation="pointy")``: a hexagon ``size`` across the flats
  centred at (cx, cy), as the ``points`` of an SVG ``<polygon>``.
- ``mix`` is what the ``tint`` and ``shade`` filters compute (templates.py registers them).
- ``readable`` is what the ``readable()`` helper computes: a text colour that can be read on its
  ground (the built-in layouts set their text with it).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from pnpgen import fonts as fontreg
from pnpgen.data.colourvision import channels, linear
from pnpgen.data.model import is_placeholder
from pnpgen.faces.tracks import XY, track_svg
from pnpgen.shapes import back_outline, deck_shape, hex_corners, mirror_x, trihex_centres
from pnpgen.shapes import outline as grow
from pnpgen.units import num

# track()'s arguments as a template gives them: track_svg's, less what pnpgen passes itself
_OWN = ("fonts", "width_mm", "resolve")
TRACK_SIGNATURE = inspect.signature(track_svg).replace(
    parameters=[p for p in inspect.signature(track_svg).parameters.values() if p.name not in _OWN])
TRACK_STYLE = TRACK_SIGNATURE.replace(parameters=[p for p in TRACK_SIGNATURE.parameters.values()
                                                  if p.kind is inspect.Parameter.KEYWORD_ONLY])


def mix(a: str, b: str, t: float) -> str:
    """Hex colour ``a`` moved toward hex colour ``b`` by ``t`` (0 = a, 1 = b): lighter or darker
    tints as solid colours, since print files carry no transparency."""
    t = float(t)
    return "#" + "".join(f"{round(x * (1 - t) + y * t):02x}" for x, y in zip(channels(a), channels(b)))


READABLE = 3.0  # contrast ratio (WCAG 2.1, 1.4.3's large-text minimum) below which text is unreadable


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two hex colours, 1 (the same) to 21 (black on white): WCAG 2.1's
    relative luminance, (L1 + 0.05) / (L2 + 0.05)."""
    def lum(c: str) -> float:
        lin = [linear(x / 255) for x in channels(c)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable(ink: str, ground: str, dark: str, light: str) -> str:
    """``ink`` where it reads on ``ground`` (contrast at least ``READABLE``), else whichever of
    ``dark`` and ``light`` reads better there: dark text on a deep-forest tile turns light."""
    if contrast(ink, ground) >= READABLE:
        return ink
    best = max((dark, light), key=lambda c: contrast(c, ground))
    return best if contrast(best, ground) > contrast(ink, ground) else ink


def hex_points(cx: float, cy: float, size: float, orientation: str = "pointy") -> str:
    """SVG polygon points of a hexagon ``size`` across the flats, clockwise from the top."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in hex_corners(float(cx), float(cy), float(size), orientation))


def corners_xy(cx: float, cy: float, size: float, orientation: str = "pointy") -> list[XY]:
    """``shape.hex_corners``: the six corners of a hexagon ``size`` across the flats, clockwise
    from the top, each a point with ``.x`` and ``.y``."""
    return [XY(*p) for p in hex_corners(float(cx), float(cy), float(size), orientation)]


def shape_tools(deck, side: str, fonts: dict[str, str], colour: Callable[[str], str]) -> dict[str, Any]:
    try:
        spec = deck_shape(deck)
    except ValueError:
        spec = None

    def outline(offset: float = 0.0) -> Markup:
        if spec is None:
            return Markup("")
        path = back_outline(spec, float(offset)) if side == "back" else grow(spec, float(offset))
        return Markup(path.svg())

    def folds() -> Markup:
        """SVG path data of the piece's fold lines (a tuck box's; none for other shapes)."""
        lines = spec.folds if spec is not None else []
        if side == "back" and spec is not None:
            flip = mirror_x(spec.w)
            lines = [(flip(a), flip(b)) for a, b in lines]
        return Markup(" ".join(f"M{num(a[0])} {num(a[1])} L{num(b[0])} {num(b[1])}" for a, b in lines))

    def resolve(name: str) -> str:
        return colour(name) if isinstance(name, str) and not name.startswith("#") else name

    def track(n: int, x: float, y: float, w: float, h: float, layout: str = "ring", start: int = 0,
              rows: int | None = None, **style: Any) -> Markup:
        unknown = [k for k in style if k not in TRACK_STYLE.parameters]
        if unknown:  # said as the template calls it, not as track_svg(), with track()'s own arguments
            raise TypeError(f"track() got an unexpected keyword argument {unknown[0]!r}")
        return track_svg(_whole(n, "n, the last space's number"), float(x), float(y), float(w), float(h), layout,
                         _whole(start, "start"), rows, fonts=fonts, width_mm=fontreg.string_width_mm,
                         resolve=resolve, **{k: _keys_whole(v, k) if k in ("highlight", "labels") else v
                                             for k, v in style.items()})

    track.__signature__ = TRACK_SIGNATURE  # type: ignore[attr-defined]  # (the arguments an error lists)

    info: dict[str, Any] = {}
    if spec is not None:
        if spec.kind == "trihex":
            centres = trihex_centres(spec.size, spec.orientation)
        elif spec.kind == "circle":
            centres = [spec.core[0]]
        else:
            centres = [(spec.w / 2, spec.h / 2)]
        corners = list(spec.core) if spec.kind in ("hex", "trihex", "polygon", "rect") else []
        if side == "back":
            flip = mirror_x(spec.w)
            centres = [flip(p) for p in centres]
            corners = [flip(p) for p in corners]
        info = dict(kind=spec.kind, size=spec.size, orientation=spec.orientation,
                    centres=[XY(*p) for p in centres], corners=[XY(*p) for p in corners], hex_corners=corners_xy)
        box = spec.tuck_box
        if box is not None:  # a tuck box's panels, as a layout's front.x … reads them: shape.panels.front.x
            info["panels"] = {name: dict(zip("xywh", panel)) for name, panel in box.panels().items()}
    return {"track": track, "outline": outline, "folds": folds, "shape": info, "hex_points": hex_points}


def _whole(value: Any, what: str) -> int:
    """A number of track(), said as the template gave it: a 未定 hit_points on a draft's mat was
    ``invalid literal for int() with base 10: '未定'``."""
    if is_placeholder(value):
        raise ValueError(f"track(): {what} is {str(value)!r}, a value the draft leaves open: a track needs a "
                         "whole number (give the field one, or draw the track once it is set: "
                         "{% if is_placeholder(piece.hp) %}{{ m.placeholder_stamp(x, y) }}{% else %}"
                         "{{ track(piece.hp, …) }}{% endif %})")
    try:
        whole = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"track(): {what} is {value!r}, not a whole number") from None
    if whole != value and not isinstance(value, str):
        raise ValueError(f"track(): {what} is {value!r}, not a whole number")
    return whole


def _keys_whole(mapping: Any, what: str) -> Any:
    """``highlight=`` and ``labels=`` keyed by the track's values: each key a whole number."""
    if not isinstance(mapping, dict):
        return mapping
    return {_whole(k, f"a key of {what}= ({k!r})"): v for k, v in mapping.items()}

