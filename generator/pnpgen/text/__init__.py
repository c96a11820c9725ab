"""Card text: set a string in a box in millimetres, wrapping and shrinking it to fit.

(Simple first version; the typography module replaces it.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from .. import fonts as fontreg
from ..model import is_placeholder

PT_TO_MM = 25.4 / 72.0


@dataclass
class TextContext:
    """What a text box needs to know about where it is drawn."""

    fonts: dict[str, str]  # role → font name
    fallback_fonts: list[str]
    palette: dict[str, str]
    icon_dirs: list[Path]
    where: str  # "deck 'epic' piece 3 (祝福)"
    warnings: list[str] = field(default_factory=list)


def _wrap(text: str, font: str, size_pt: float, width_mm: float) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for ch in para:
            if line and fontreg.string_width_mm(line + ch, font, size_pt) > width_mm:
                lines.append(line)
                line = ""
            line += ch
        lines.append(line)
    return lines


def textbox(ctx: TextContext, text, x, y, w, h, size=9, min_size=6, font="gothic", align="left",
            valign="top", line_height=1.35, fill="#000", **_):
    text = "" if text is None else str(text)
    name = ctx.fonts.get(font, font)
    s = float(size)
    while True:
        lines = _wrap(text, name, s, w)
        if len(lines) * s * PT_TO_MM * line_height <= h or s <= min_size:
            break
        s = max(min_size, s - 0.5)
    lh = s * PT_TO_MM * line_height
    total = len(lines) * lh
    top = y + {"top": 0, "middle": (h - total) / 2, "bottom": h - total}[valign]
    anchor, ax = {"left": ("start", x), "center": ("middle", x + w / 2), "right": ("end", x + w)}[align]
    colour = "#c0188c" if is_placeholder(text) else fill
    out = []
    for i, line in enumerate(lines):
        by = top + i * lh + s * PT_TO_MM * 0.88
        out.append(
            f'<text x="{ax:.3f}" y="{by:.3f}" font-family="{name}" font-size="{s * PT_TO_MM:.3f}" '
            f'text-anchor="{anchor}" fill="{escape(colour)}">{escape(line)}</text>'
        )
    return Markup("\n".join(out))
