"""The vendored TrueType fonts: one registry for PDF drawing, SVG conversion and text metrics.

A font is named by its file stem in fonts/ (``BIZUDPGothic-Regular``); the same name is the
SVG ``font-family``, the ReportLab font name and the key for metrics, so nothing maps names twice.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from pnpgen import fonttables
from pnpgen.errors import InputError, Where, contained, suggest, written_alike
from pnpgen.litter import is_litter
from pnpgen.resources import fonts_folder
from pnpgen.units import pt_to_mm

DEFAULT_FONTS = {
    "gothic": "BIZUDPGothic-Regular",
    "bold": "BIZUDPGothic-Bold",
    "mincho": "BIZUDPMincho-Regular",
    "mono": "BIZUDGothic-Regular",
}
# The faces text in Latin letters (an English rulebook) is set in where no ``fonts:`` entry names
# one: BIZ UD's Latin letters are a Japanese face's, its word spaces justified wide
LATIN_FONTS = {
    "gothic": "NotoSans-Regular",
    "bold": "NotoSans-Bold",
    "mincho": "NotoSerif-Regular",
}

# The fonts that come with pnpgen (BIZ UD and Noto, SIL OFL: fonts/OFL.txt), shipped as package
# data (resources.py). A workspace's own fonts/ comes first and may leave any of them out, or be
# missing altogether.
BUNDLED = fonts_folder()
MAX_FONT_BYTES = 128_000_000  # one font file (BIZ UD fonts are 5–9 MB, the largest TrueType Japanese ones some 50 MB)

# name → (file, where the data named it: path, line, column): found, not parsed yet
_located: dict[str, tuple[Path, Path | str | None, int | None, int | None]] = {}


class FontFile:
    """A font file as parsed: its place and its stamp then (device, inode, size, times; None:
    gone), and its bytes as read for its metrics, which the writer cuts its subsets from: the file
    is read once a build, and what is measured is what is embedded. What is kept of a font by its
    file is kept by this, by place and stamp (never by hashing the megabytes), so a file saved
    over in place is another key, never the old glyphs and widths under the same name. ``content``
    names the bytes' content in the machine's cache (fonttables.py's entry of its tables), under
    which what is cut from them is kept across runs (pdf/embed.py's subsets)."""

    __slots__ = ("content", "data", "path", "stamp")

    def __init__(self, path: Path, stamp: tuple[int, ...] | None, data: bytes, content: str = "") -> None:
        self.path, self.stamp, self.data, self.content = path, stamp, data, content

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FontFile) and (self.path, self.stamp) == (other.path, other.stamp)

    def __hash__(self) -> int:
        return hash((self.path, self.stamp))

    def __repr__(self) -> str:
        return f"FontFile({self.path!r}, {self.stamp!r})"


_registered: dict[str, FontFile] = {}  # parsed (its tables read back, or parsed by ReportLab)
# name → its tables as the machine's cache keeps them (fonttables.Kept), or ReportLab's font once
# made (a cache miss parses one; ``ttfont`` makes one from the kept tables and registers it)
_fonts: dict[str, object] = {}
_forgetters: list[Callable[[], None]] = []  # caches kept by font name (``when_saved``)


def available(font_dir: Path) -> list[str]:
    return sorted(p.stem for p in font_dir.glob("*.ttf") if p.is_file() and not is_litter(p.name))


_FONT_FILES = (".ttf", ".otf", ".ttc", ".otc")


def _other_format(name: str, font_dir: Path) -> Path | None:
    """A file of the font's name in fonts/ that pnpgen does not read (X.otf, X.ttc, X.TTF): "not
    found" would send the designer looking for a file that is there."""
    if not font_dir.is_dir():
        return None
    return next((p for p in sorted(font_dir.iterdir()) if p.stem == name and p.is_file()
                 and p.suffix.lower() in _FONT_FILES and p.suffix != ".ttf"), None)


def locate(name: str, font_dir: Path, where: Where | Path | str | None = None, key: str = "fonts") -> str:
    """Check that fonts/<name>.ttf exists (inside the workspace's fonts/, else among the fonts
    pnpgen comes with); it is parsed only when first drawn or measured, so commands that draw
    nothing (list, check) never pay for it. Returns the font's name: ``name``, or for a font
    written as its file (``X.ttf``) the file's name without .ttf, which the role is to use."""
    w_path, line, column = (where.path, where.line, where.column) if isinstance(where, Where) else (where, None, None)
    if isinstance(name, str) and ("/" in name or "\\" in name):  # it said "'/usr/…/X.ttf.ttf' is outside fonts/"
        stem = name.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".ttf")
        raise InputError(f"font {name!r} is a path; a font is named by its file's name in fonts/, without .ttf",
                         path=w_path, line=line, column=column, key=key,
                         expected=f"{stem}, its file copied into {font_dir.name}/")
    path = contained(f"{name}.ttf", font_dir, key, where)
    if path.exists() and not path.is_file():  # a folder, a pipe or a device: "not found" sent the designer looking
        raise InputError(f"font file {path.name} is not a regular file (a folder, a pipe or a device)", path=w_path,
                         line=line, column=column, key=key, expected=f"{font_dir.name}/{path.name} a TrueType .ttf file")
    if not path.exists() and isinstance(name, str) and (alike := written_alike(f"{name}.ttf", [font_dir])) is not None:
        path = contained(alike, font_dir, key, where)  # ゴシック in the data, the file's name decomposed, as macOS writes names
    if not path.is_file() and BUNDLED.is_dir() and BUNDLED != font_dir.resolve():
        path = contained(f"{name}.ttf", BUNDLED, key, where)
    if not path.is_file() and isinstance(name, str) and name.endswith(".ttf") and name[:-4].strip() \
            and not name[:-4].endswith(".ttf"):
        # the font written as its file, ``gothic: KiwiMaru-Medium.ttf``, as docs/data-format.md says
        # fonts are found: the font of that file (its name without .ttf, returned for the role)
        try:
            return locate(name[:-4], font_dir, where, key)
        except InputError:
            pass  # (told as written: 'X.ttf' not found, the names known)
    if not path.is_file():
        known = sorted(set(available(font_dir)) | set(available(BUNDLED)))
        stem = str(name)  # written as its file (Kiwi.otf): the file of that name is the one to tell of
        if Path(stem).suffix.lower() in _FONT_FILES:
            stem = Path(stem).stem
        other = _other_format(stem, font_dir)
        if other is not None:
            kind = other.suffix.lower()
            told = (f"fonts/{other.name} is there, but its name must end in .ttf" if kind == ".ttf"
                    else f"fonts/{other.name} is there, but pnpgen reads TrueType .ttf fonts only, not "
                         + ("a font collection" if kind in (".ttc", ".otc") else f"an OpenType {other.suffix} (CFF outlines)"))
            named = f", named {stem} in fonts: (without the ending)" if stem != name else ""
            raise InputError(f"font {name!r}: {told}", path=w_path, line=line, column=column, key=key,
                             expected=(f"the file renamed {stem}.ttf{named}" if kind == ".ttf" else
                                       f"the family's TrueType .ttf in {font_dir.name}/{named}, or one of "
                                       + ", ".join(known)))
        raise InputError(
            f"font {name!r} not found in {font_dir}{suggest(str(name), known)}",
            path=w_path, line=line, column=column,
            key=key,
            expected="one of " + ", ".join(known) if known else "a .ttf in fonts/",
        )
    if name not in _located or _located[name][0] != path:  # (a font copied into fonts/ since: that file now)
        _located[name] = (path, w_path, line, column)
    return name


def register(name: str, font_dir: Path, where: Where | Path | str | None = None, key: str = "fonts") -> str:
    """Locate fonts/<name>.ttf and register it with ReportLab now; return the name to draw with."""
    locate(name, font_dir, where, key)
    _load(name, key)
    ttfont(name)
    return name


def _load(name: str, key: str = "fonts") -> None:
    """Read the font's tables (from the machine's cache, else parsed by ReportLab); ReportLab's
    font is made and registered when something draws with it (``ttfont``)."""
    if name in _registered and _registered[name].path == _located[name][0]:
        return
    path, w_path, line, column = _located[name]
    stamp = _stamp(path)  # taken before it is read: a save while it is read is seen by the next look
    size = path.stat().st_size
    if size > MAX_FONT_BYTES:  # read whole (a 3 GB file took 6 GB of memory when it was read twice)
        raise InputError(f"font file {path.name} is {size:,} bytes", path=w_path, line=line, column=column, key=key,
                         expected=f"a TrueType .ttf file of at most {MAX_FONT_BYTES:,} bytes (the largest "
                         "Japanese fonts are some 50 MB)")
    try:
        font, data, content = fonttables.read_keyed(name, path)
    except Exception as e:  # noqa: BLE001 - ReportLab raises plain exceptions for a file that is no TrueType font
        raise InputError(f"font file {path.name} cannot be read: {e}", path=w_path, line=line, column=column,
                         key=key, expected="a TrueType .ttf file") from None
    _named_as_its_file(font, name)
    _fonts[name] = font if isinstance(font, fonttables.Kept) else _registered_with_reportlab(name, font)
    _registered[name] = FontFile(path, stamp, data, content)
    _cmap.cache_clear()  # (a name now naming another file)


def _registered_with_reportlab(name: str, font):
    from reportlab.pdfbase import pdfmetrics

    _named_as_its_file(font, name)  # (a font restored from its kept tables: named as when it was read)
    pdfmetrics.registerFont(font)
    if pdfmetrics.getFont(name) is not font:  # ReportLab keeps the first TrueType font of a name (or of its face's
        pdfmetrics._fonts[name] = font  # PostScript name): a font saved over kept its old glyphs and widths
    return font


def _named_as_its_file(font, name: str) -> None:
    """A font file named otherwise than its face (fonts/Title.ttf, a copy of NotoSerif-Regular) is
    embedded as its face's name and its file's, ``NotoSerif-Regular-Title``: two files of one face,
    a bundled font and a copy beside it, were two fonts of one PostScript name in one PDF, which
    ReportLab's rulebook refused with a traceback (``redefining named object``). A file name that
    is no PostScript name (not ASCII letters, digits, ``-``, ``_`` and ``.``: fonts/ゴシック.ttf) keeps
    what it can and a short hash of the whole name. Named once: a font named so already is left
    (ReportLab's font restored from the kept tables is named again as it is made)."""
    face = font.face
    if bytes(face.name) == name.encode("latin-1", "replace"):
        return
    own = "".join(c for c in name if c.isascii() and (c.isalnum() or c in "-_."))
    if own != name or not own:
        import hashlib

        own = "-".join(filter(None, (own, hashlib.sha256(name.encode()).hexdigest()[:8])))
    suffix = b"-" + own.encode("ascii")
    if bytes(face.name).endswith(suffix):
        return
    if isinstance(font, fonttables.Kept):
        face.name = bytes(face.name) + suffix  # (the kept tables' name bytes are plain)
    else:
        from reportlab.pdfbase.ttfonts import TTFNameBytes

        face.name = TTFNameBytes(bytes(face.name) + suffix)


def _stamp(path: Path) -> tuple[int, ...] | None:
    """What changes when a file is saved over, replaced or touched (a write that sets the
    modification time back still changes the inode's change time)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def when_saved(forget: Callable[[], None]) -> None:
    """Have ``forget`` called when a font file parsed before is found saved over (``saved_since``):
    for a cache of widths, layouts or lines kept by font name."""
    _forgetters.append(forget)


def saved_since() -> bool:
    """Whether a font file this process parsed was saved over, replaced or removed since; if so,
    its font is parsed anew when next used and every cache kept by font name is forgotten. Looked
    at once a game is loaded, not at every width: ``watch``, ``serve`` and the rulebook's process
    build save after save in one process, and a font swapped in fonts/ was drawn with the old
    glyphs and set with the old widths."""
    changed = [name for name, file in _registered.items() if _stamp(file.path) != file.stamp]
    for name in changed:
        del _registered[name]
    if changed:
        _cmap.cache_clear()
        for forget in _forgetters:
            forget()
    return bool(changed)


def unusable(name: str, why: str) -> InputError:
    """The error for a located font whose file cannot be used (``why``), said where the data named it."""
    path, w_path, line, column = _located[name]
    return InputError(f"font file {path.name} cannot be used: {why}", path=w_path, line=line, column=column,
                      key="fonts", expected="a TrueType .ttf file as its maker made it (download it again)")


def parsed() -> int:
    """How many fonts this process has parsed (a warm process parses each once)."""
    return len(_registered)


def ensure(name: str) -> None:
    """Parse a font the data named, if not yet (ReportLab's own standard fonts need nothing)."""
    if name in _located:
        _load(name)


def drawable(name: str) -> None:
    """``ensure``, and the font registered with ReportLab, for a ReportLab canvas that draws with it."""
    if name in _located:
        ttfont(name)


def path_of(name: str) -> Path:
    """The file of a located font (for converters that register fonts their own way)."""
    return _located[name][0]


def file_of(name: str) -> FontFile:
    """The file of a font as parsed (parsed now if not yet): the key of what is kept of it by
    its file (metrics, subsets), so that a file saved over is another key."""
    _load(name)
    return _registered[name]


def registered() -> list[str]:
    """The names the data named so far (for messages that list what a template may use)."""
    return sorted(_located)


def ttfont(name: str):
    """The ReportLab font (made and registered on first use), for a ReportLab canvas to draw with."""
    if name not in _located:
        raise KeyError(f"font {name!r} is not registered")
    _load(name)
    font = _fonts[name]
    if isinstance(font, fonttables.Kept):
        font = _fonts[name] = _registered_with_reportlab(name, fonttables.restored(name, font))
    return font


def face(name: str):
    """The font's metrics and cmap (``charWidths``, ``defaultWidth``, ``charToGlyph``, ``ascent``,
    ``descent``, ``capHeight``, …: the attributes of ReportLab's face), read on first use, without
    ReportLab when the machine's cache holds them; KeyError for a name no data located."""
    if name not in _located:
        raise KeyError(f"font {name!r} is not registered")
    _load(name)
    return _fonts[name].face  # type: ignore[attr-defined]


def string_width(text: str, name: str, size_pt: float) -> float:
    """Advance width of ``text`` in points at ``size_pt``: the same number ReportLab's
    ``stringWidth`` gives (its accelerator's sum of the characters' widths in thousandths of an em,
    in their order, then ``× 0.001 × size``; tests/text/test_font_widths.py compares them)."""
    return width_in(face(name), text, size_pt)


def width_in(font_face, text: str, size_pt: float) -> float:
    """``string_width`` in a face (``face``'s or ReportLab's own): the sum in the characters'
    order, one float at a time, as ReportLab's accelerator adds them."""
    widths, missing = font_face.charWidths, font_face.defaultWidth
    total = 0.0
    for char in text:
        total += widths.get(ord(char), missing)
    return total * 0.001 * size_pt


def string_width_mm(text: str, name: str, size_pt: float) -> float:
    """Advance width of ``text`` in millimetres at ``size_pt``."""
    return pt_to_mm(string_width(text, name, size_pt))


@cache
def _cmap(name: str) -> frozenset[int]:
    return frozenset(face(name).charToGlyph.keys())


def has_glyph(name: str, char: str) -> bool:
    return ord(char) in _cmap(name)


def holding(chosen: tuple[str, ...], plain: tuple[str, ...], texts: Iterable[str]) -> tuple[str, ...]:
    """``chosen`` (an edition's own faces) when every one of them holds every character ``texts``
    print, else ``plain`` (the plain roles, which hold Japanese): the home sheets' slug, a reprint's
    and a contact sheet's labels set in the edition's faces only where nothing would go missing."""
    needed = {c for text in texts for c in text if not c.isspace()}
    return chosen if all(has_glyph(face, c) for face in set(chosen) for c in needed) else plain
