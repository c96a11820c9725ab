"""The print lint's figures: game.yaml ``lint:`` (and a deck file's, over its game's), each setting declared once here with its unit,
default and range (docs/data-format.md lists them from this table).

```yaml
lint:
  min_stroke: 0.25pt   # a stroke thinner than this may not print (or prints broken)
  min_text: 6pt        # text smaller than this is hard to read on a card
  min_ruby: 4pt        # a ruby reading (set at half its text's size) smaller than this
  safe: 3mm            # the safe zone, from the trim edge inward: a cut may drift this far
  thin_stroke: 0.5pt   # a stroke thinner than this inside the safe zone is named (a thicker one
                       # reads as a border, and a drifted cut shows it uneven, not lost)
  min_contrast: 2      # text reading at less than this contrast ratio on the colour under it
  colour_blind: 16     # two colours of a field the pieces are painted by (suits) closer than this
                       # (CIE ΔE 1976) to a red-green colour-blind eye: data/colourvision.py (check: 16 unless
                       # said; a build: off unless said)
```

``lint: false`` turns the lint off; a setting given as ``off`` turns that one check off. A bare
number is in the setting's own unit (pt or mm); a unit may be written: ``0.1mm``, ``8px``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pnpgen.data import validate as v
from pnpgen.units import MM_PER_PT

# the smallest ruby reading (set at half its text's size) not named as too small: the print lint's default
# and the preflight's, one figure (a reading of 8 pt text: docs/data-format.md, The print lint)
MIN_RUBY_PT = 4.0


@dataclass(frozen=True)
class LintSettings:
    """How strict the print lint is (game.yaml or a deck's ``lint:``): the thinnest stroke, smallest text and safe
    margin a designer's printer or shop is trusted with."""

    on: bool = True
    min_stroke_pt: float | None = 0.25
    min_text_pt: float | None = 6.0
    min_ruby_pt: float | None = MIN_RUBY_PT
    safe_mm: float | None = 3.0
    thin_stroke_pt: float | None = 0.5
    min_contrast: float | None = 2.0
    colour_blind: float | None = None  # a build's: off unless asked (colour_blind: 16): decks whose colours a title tells apart too
    colour_blind_said: bool = False  # game.yaml or the deck file wrote colour_blind (a number or off): check then holds to it


# the distance ``pnpgen check`` names two colours under where neither game.yaml nor the deck file says
# colour_blind: a designer with red and green suits learns it from the checker, while builds stay quiet
CHECK_COLOUR_BLIND = 16.0


# key in game.yaml → (field, unit, lowest, highest, what it is)
SETTINGS: dict[str, tuple[str, str, float, float, str]] = {
    "min_stroke": ("min_stroke_pt", "pt", 0.0, 10.0, "the thinnest stroke named as too thin"),
    "min_text": ("min_text_pt", "pt", 0.0, 72.0, "the smallest text size not named as too small"),
    "min_ruby": ("min_ruby_pt", "pt", 0.0, 36.0, "the smallest ruby reading not named as too small"),
    "safe": ("safe_mm", "mm", 0.0, 20.0, "the safe zone, from the trim edge inward"),
    "thin_stroke": ("thin_stroke_pt", "pt", 0.0, 20.0, "strokes thinner than this are named inside the safe zone"),
    "min_contrast": ("min_contrast", ":1", 1.0, 7.0, "the lowest contrast ratio of text on its ground not named"),
    "colour_blind": ("colour_blind", "ΔE", 1.0, 100.0, "the least distance (CIE ΔE 1976) of two colours the "
                     "pieces are painted by, to a red-green colour-blind eye, not named"),
}
HINT = "false, or {" + ", ".join(f"{k}: …{u}" for k, (_, u, *_r) in SETTINGS.items()) + "}"
_NOT_A_MAPPING, _KNOWN = v.section_checks("lint", SETTINGS, HINT)


# the settings that are no length, by unit: what the number is, and how it is written
_NO_LENGTH = {":1": ("a contrast ratio", "3 or '3:1'"), "ΔE": ("a colour distance", "16, say")}


def setting(value: Any, key: str) -> float | None:
    """One setting in its unit (None: ``off``); ``v.Invalid`` naming what would be right."""
    _, unit, lo, hi, what = SETTINGS[key]
    if value is False or (isinstance(value, str) and value.strip().lower() in ("off", "none", "false")):
        return None
    if unit in _NO_LENGTH:  # a ratio, 3 or "3:1", or a distance in CIELAB, 16: no length
        said, example = _NO_LENGTH[unit]
        text = v.typed(value) if isinstance(value, str) else value
        if isinstance(text, str) and unit == ":1" and text.strip().endswith(":1"):
            text = text.strip()[:-2]
        try:
            number = float(text)
        except (TypeError, ValueError):
            number = float("nan")
        if not lo <= number <= hi or isinstance(value, bool):
            shown = repr(value) if isinstance(value, str) else v.show(value)  # (true, {a: 1}: YAML's spelling, not Python's)
            raise v.Invalid(f"lint {key} {shown} is not {said} from {lo:g} to {hi:g}",
                            f"{lo:g} to {hi:g} ({what}; {example}), or off")
        return number
    written = value
    if isinstance(value, str) and v.typed(value) and v.typed(value)[-1].isdigit():
        value = f"{value}{unit}"  # a bare number in text: the setting's own unit
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = f"{value}{unit}"
    scale = 1.0 if unit == "mm" else 1 / MM_PER_PT
    try:
        return round(v.length(value, lo / scale, hi / scale, f"lint {key}") * scale, 6)
    except v.Invalid as e:  # said as written (.nan, not 'nanpt')
        said = e.message.replace(v.show(value), v.show(written), 1)
        raise v.Invalid(said, f"{lo:g} to {hi:g} {unit} ({what}), or off") from None


def settings(data: Any, place: Callable[[tuple, Callable[..., Any], Any, str], Any] | None = None,
             base: LintSettings | None = None) -> LintSettings:
    """``lint:`` read into settings, each one given replacing that one of ``base`` (a deck file's
    ``lint:`` over its game's). ``place(keypath, parse, value, key)`` runs each parse so that its
    complaint names the file:line (data/mapkeys.py parse_at); ``v.Invalid`` without it."""
    place = place or (lambda keypath, parse, value, key: parse(value, key))
    base = base if base is not None else LintSettings()
    if data is None or data is True:
        return replace(base, on=True) if data is True else base
    if data is False:
        return replace(base, on=False)
    if not isinstance(data, dict):
        place(("lint",), _NOT_A_MAPPING, data, "")
    out = replace(base, on=True)
    for key, value in data.items():
        place(("lint", key), _KNOWN, key, "")
        out = replace(out, **{SETTINGS[key][0]: place(("lint", key), setting, value, key)})
        if key == "colour_blind":
            out = replace(out, colour_blind_said=True)
    return out
