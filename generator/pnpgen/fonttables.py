"""A font's parsed tables (metrics, cmap, table directory) kept by the font file's content, so a
process parses each font once per machine, not once per run: ReportLab's TrueType parser takes
0.3 s for one BIZ UD font, reading its tables back takes milliseconds.

The entries live in ``$PNPGEN_FONT_CACHE``, else ``$XDG_CACHE_HOME/pnpgen/fonts``, else
``~/.cache/pnpgen/fonts``; one file per font content (SHA-256 of the file's bytes, ReportLab's
version and this format), written in Python's ``marshal`` format (plain values only: reading it
runs no code) behind a hash of its bytes. A damaged, foreign or unreadable entry is parsed
again and rewritten; a folder that cannot be written just means every run parses. What a font
draws is the same either way: the PDF subsets come from the font file's own bytes.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from pathlib import Path
from typing import Any

FORMAT = b"pnpgen-font-tables 1"
_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")  # TTFNameBytes values


def folder() -> Path | None:
    """Where the entries live (None: nowhere to keep them)."""
    given = os.environ.get("PNPGEN_FONT_CACHE")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        return Path(base or Path.home() / ".cache") / "pnpgen" / "fonts"
    except (RuntimeError, KeyError):  # no home folder
        return None


def parse(name: str, path: Path):
    """ReportLab's TTFont for ``path``, registered as ``name``, from the cache when it holds the
    tables of this very file content."""
    import reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    data = path.read_bytes()
    key = hashlib.sha256(FORMAT + reportlab.Version.encode() + b"\0" + data).hexdigest()
    where = folder()
    entry = where / f"{key[:40]}.tables" if where is not None else None
    state = _read(entry) if entry is not None else None
    if state is not None:
        return _restore(name, path, data, state)
    font = TTFont(name, str(path))
    if entry is not None:
        _write(entry, _tables(font.face))
    return font


def _tables(face) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in vars(face).items():
        if k in ("_ttf_data", "_pdfScale", "filename"):
            continue  # the file's bytes and name come from the file; the scale from unitsPerEm
        out[k] = bytes(v) if k in _NAMES else v
    return out


def _read(entry: Path) -> dict[str, Any] | None:
    try:
        raw = entry.read_bytes()
        check, body = raw[:32], raw[32:]
        if hashlib.sha256(body).digest() != check:
            return None
        state = marshal.loads(body)
        return state if isinstance(state, dict) and "unitsPerEm" in state and "charWidths" in state else None
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _write(entry: Path, state: dict[str, Any]) -> None:
    try:
        body = marshal.dumps(state)
    except ValueError:
        return  # a value marshal cannot keep (another ReportLab): parse every time
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
        tmp.write_bytes(hashlib.sha256(body).digest() + body)
        os.replace(tmp, entry)
    except OSError:
        pass  # a read-only or full disk: the next run parses again


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
