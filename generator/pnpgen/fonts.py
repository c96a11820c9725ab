"""The vendored TrueType fonts: one registry for PDF drawing, SVG conversion and text metrics.

A font is named by its file stem in fonts/ (``BIZUDPGothic-Regular``); the same name is the
SVG ``font-family``, the ReportLab font name and the key for metrics, so nothing maps names twice.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnpgen.errors import InputError
from pnpgen.data.model import Where
from pnpgen.data.workspace import contained

DEFAULT_FONTS = {
    "gothic": "BIZUDPGothic-Regular",
    "bold": "BIZUDPGothic-Bold",
    "mincho": "BIZUDPMincho-Regular",
    "mono": "BIZUDGothic-Regular",
}

_registered: dict[str, Path] = {}


def available(font_dir: Path) -> list[str]:
    return sorted(p.stem for p in font_dir.glob("*.ttf") if p.is_file())


def register(name: str, font_dir: Path, where: Where | Path | str | None = None, key: str = "fonts") -> str:
    """Register fonts/<name>.ttf with ReportLab and svglib; return the name to draw with."""
    path = contained(f"{name}.ttf", font_dir, key, where)
    if name in _registered:
        return name
    w = where if isinstance(where, Where) else Where(where)
    if not path.is_file():
        known = available(font_dir)
        raise InputError(
            f"font {name!r} not found in {font_dir}",
            path=w.path, line=w.line, column=w.column,
            key=key,
            expected="one of " + ", ".join(known) if known else "a .ttf in fonts/",
        )
    try:
        font = TTFont(name, str(path))
    except Exception as e:  # ReportLab raises plain exceptions for a file that is no TrueType font
        raise InputError(f"font file {path.name} cannot be read: {e}", path=w.path, line=w.line, column=w.column,
                         key=key, expected="a TrueType .ttf file") from None
    pdfmetrics.registerFont(font)
    from svglib.fonts import register_font

    register_font(name, str(path), rlgFontName=name)
    _registered[name] = path
    return name


def registered() -> list[str]:
    """The names registered so far (for messages that list what a template may use)."""
    return sorted(_registered)


def ttfont(name: str) -> TTFont:
    """The registered ReportLab font, for widths and the cmap."""
    if name not in _registered:
        raise KeyError(f"font {name!r} is not registered")
    return pdfmetrics.getFont(name)


def string_width_mm(text: str, name: str, size_pt: float) -> float:
    """Advance width of ``text`` in millimetres at ``size_pt``."""
    return pdfmetrics.stringWidth(text, name, size_pt) * 25.4 / 72.0


@lru_cache(maxsize=None)
def _cmap(name: str) -> frozenset[int]:
    return frozenset(ttfont(name).face.charToGlyph.keys())


def has_glyph(name: str, char: str) -> bool:
    return ord(char) in _cmap(name)
