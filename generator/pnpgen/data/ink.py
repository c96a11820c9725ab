"""The ink saver's figures: game.yaml ``ink:`` (``--ink saver`` picks the mode; these change how
much it saves). Each declared once here: key → (field of ``pnpgen.svg.ink.InkSaver``, which
holds the defaults, what it is). A share is written as a percentage (``5 %``, ``"25%"``) or a fraction (``0.05``).

```yaml
ink: {large: 5%, keep: 25%, art_keep: 35%}
```
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpgen.data import validate as v

SETTINGS: dict[str, tuple[str, str]] = {
    "large": ("large", "the share of the face a fill's box covers from which it is tinted"),
    "keep": ("keep", "the share of its ink a tinted fill keeps"),
    "art_keep": ("art_keep", "the share of its ink raster art keeps with saver-grey"),
}
HINT = "{" + ", ".join(f"{k}: a share such as 25%" for k in SETTINGS) + "}"
_NOT_A_MAPPING, _KNOWN = v.section_checks("ink", SETTINGS, HINT)


def share(value: Any, key: str) -> float:
    """A share from 0 to 1: ``25%``, ``"25 %"`` or ``0.25``."""
    text = v.typed(value) if isinstance(value, str) else value
    if isinstance(text, str) and text.endswith("%"):
        return round(v.number(text[:-1].strip(), 0, 100, f"ink {key}") / 100, 6)
    return v.number(text, 0, 1, f"ink {key}")


def figures(data: Any, place: Callable[[tuple, Callable[..., Any], Any, str], Any]) -> dict[str, float]:
    """``ink:`` as InkSaver fields (only those given); ``place`` runs each parse at its file:line."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        place(("ink",), _NOT_A_MAPPING, data, "")
    out = {}
    for key, value in data.items():
        place(("ink", key), _KNOWN, key, "")
        out[SETTINGS[key][0]] = place(("ink", key), share, value, key)
    return out
