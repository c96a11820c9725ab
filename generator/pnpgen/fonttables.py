"""A font's parsed tables (metrics, cmap, table directory) kept by the font file's content in
pnpgen's cache on this machine (usercache.py), so a process parses each font once per machine,
not once per run: ReportLab's TrueType parser takes 0.3 s for one BIZ UD font, reading its tables
back takes milliseconds. What a font draws is the same either way: the PDF subsets come from the
font file's own bytes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnpgen import usercache

FORMAT = b"pnpgen-font-tables 1"
KIND = "fonts"
_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")  # TTFNameBytes values


def parse(name: str, path: Path):
    """ReportLab's TTFont for ``path``, registered as ``name``, from the cache when it holds the
    tables of this very file content."""
    import reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    data = path.read_bytes()
    entry = usercache.key(FORMAT, reportlab.Version.encode(), data)
    state = usercache.get(KIND, entry)
    if isinstance(state, dict) and "unitsPerEm" in state and "charWidths" in state:
        return _restore(name, path, data, state)
    font = TTFont(name, str(path))
    usercache.put(KIND, entry, _tables(font.face))
    return font


def _tables(face) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in vars(face).items():
        if k in ("_ttf_data", "_pdfScale", "filename"):
            continue  # the file's bytes and name come from the file; the scale from unitsPerEm
        out[k] = bytes(v) if k in _NAMES else v
    return out


def _restore(name: str, path: Path, data: bytes, state: dict[str, Any]):
    """A TTFont as ``TTFont(name, path)`` makes it, its face's tables read back instead of parsed."""
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

    face = TTFontFace.__new__(TTFontFace)
    pdfmetrics.TypeFace.__init__(face, None)
    values = dict(state)
    for k in _NAMES:
        if k in values:
            values[k] = TTFNameBytes(values[k])
    face.__dict__.update(values)
    face._ttf_data = data
    face.filename = str(path)
    per_em = face.unitsPerEm
    face._pdfScale = (lambda x: x) if per_em == 1000 else (lambda x, m=1000 / per_em: x * m)
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = True
    return font
