"""A game's artwork files (``data/<slug>/art/``): find them safely, measure them, and turn them
into the bytes a print file embeds.

``ArtFolder(game_root, templates).resolve(href)`` is what the SVG→PDF converter calls for every
``<image href>``; it returns

* a JPEG's own bytes, unchanged (no recompression), when it is RGB or grey and upright (an RGB
  one with no colour profile, or sRGB's: PDF reads its numbers as sRGB);
* a PNG's own bytes, unchanged, when it is opaque RGB with no colour profile and upright;
* otherwise an opaque 8-bit RGB PNG made with Pillow: EXIF rotation applied, 16-bit and palette
  images converted, CMYK turned into RGB (through its ICC profile when it has one), and any
  alpha flattened onto the background named in the href's fragment (``dragon.png#bg=f4ead5``;
  the face's renderer names the plain colour beneath the picture, faces/ground.py; else white) — so no soft mask ever reaches a print file;
* for SVG art, the SVG text (drawn as vectors, not rasterised).

Paths are relative to ``art/`` (then ``templates/<slug>/`` for hrefs written in templates);
``..``, absolute paths and links leading out are refused.

A picture's bytes are named by their hash and checked whole, before they are placed as they
are, in ``picturebytes``.
"""

from __future__ import annotations

import errno
import html
import io
import math
import os
import re
import struct
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lxml import etree

from pnpgen.data.picturebytes import checked_whole, picture_hash
from pnpgen.data.pixels import opaque_rgb, plain_cmyk, srgb_as_is
from pnpgen.errors import (
    InputError,
    Where,
    contained,
    file_right_in,
    leads_out,
    parser_said,
    place,
    within,
    written_alike,
)
from pnpgen.litter import is_litter
from pnpgen.memo import Memo, Stamps
from pnpgen.messages import counted
from pnpgen.patterns import later

if TYPE_CHECKING:  # Pillow is imported where a picture is read: a game without art never loads it
    from PIL import Image

    from pnpgen.data.model import Game
    from pnpgen.data.workspace import Workspace

SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".svg")
RASTER_FORMATS = ("PNG", "JPEG", "WEBP", "MPO")  # MPO: a phone camera's JPEG with a second image
ORIENTATION = 0x0112  # EXIF tag
BYTES_BUDGET = 64 * 2**20  # print-ready picture bytes an ArtFolder keeps (the least recently used go first)
_BG = later(r"^bg=([0-9a-fA-F]{6})$")
# href= and xlink:href= in a face's SVG, as ``\bhref\s*=\s*(["'])(.*?)\1`` finds them (``_hrefs``)
_HREF = later(r"""href\s*=\s*(["'])(.*?)\1""", re.S)
_WORD = later(r"\w")


def _hrefs(svg: str) -> Iterator[re.Match[str]]:
    """The matches ``re.finditer(r"\\bhref…")`` gives, found by the pattern without its ``\\b``,
    the word boundary checked by hand: a pattern that starts with one is tried at every character
    (some 40 µs a face; a thousand cards' faces, every build), one that starts with a word is
    looked for as a word. A match after a word character is no match there: the search goes on
    from the next character, as ``\\b`` failing there would."""
    at = 0
    while (m := _HREF.search(svg, at)) is not None:
        start = m.start()
        if start and _WORD.match(svg, start - 1):
            at = start + 1
            continue
        yield m
        at = m.end()


_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # the errors Path.is_file takes for "no"
SVG_NESTING = 8  # SVG pictures showing SVG pictures: as deep as the converter draws them (svg/image.py)


def art_folders(ws: Workspace, game: Game) -> list[Path]:
    """Where a game's faces find art: art/, and its templates folder (an href written in a template)."""
    return [game.root / "art", ws.templates / game.slug]


def art_files(ws: Workspace, game: Game, content_hash: Callable[[Path], str],
              stamps: Stamps | None = None) -> dict[str, Path]:
    """The game's art files (``art_folders``) by the SHA-256 of their content, ``content_hash``
    (the first, by name, of equal ones): a picture that is an art file as it is is placed from
    that file. A link is not read (it may lead out of the workspace), nor a file too big to be a
    picture (a video of gigabytes dropped in art/ was hashed on every build, a minute each).
    Each file is looked at once (its lstat: a plain file, not a link, and its size), by the build's
    ``stamps`` when given (finding and hashing it then ask the disk nothing more)."""
    out: dict[str, Path] = {}
    for folder, base in zip(art_folders(ws, game), (game.root, ws.templates)):
        if folder.is_dir() and not leads_out(folder, base):
            for path in sorted(p for p in folder.rglob("*") if not is_litter(p.name)):
                try:
                    st = stamps.itself(path) if stamps is not None else path.lstat()
                except OSError:  # gone since the folder was listed
                    continue
                if S_ISREG(st.st_mode) and st.st_size <= MAX_ART_BYTES:
                    out.setdefault(content_hash(path), path)
    return out


class ArtNotFound(InputError):
    """An art file a piece names that is not there: a deck's are told together (a card list with
    four pictures not drawn yet took four runs of check, one file each)."""

    @staticmethod
    def like(e: InputError) -> ArtNotFound:
        return ArtNotFound(e.message, e.path, e.line, e.column, e.key, e.expected)

    @staticmethod
    def together(missing: list[ArtNotFound]) -> ArtNotFound:
        """The first art file not there, with the deck's others named after it (the first five)."""
        first = missing[0]
        if len(missing) == 1:
            return first
        said = ", ".join(f"{place(Path(str(e.path)).name, e.line, e.column)} "
                         f"{e.message.split(' not found')[0].removeprefix('art file ')}" for e in missing[1:6])
        more = ", …" if len(missing) > 6 else ""
        others = len(missing) - 1
        return ArtNotFound(f"{first.message}; nor {'is' if others == 1 else 'are'} "
                           f"{counted(others, 'more art file')} of this deck: {said}{more}",
                           first.path, first.line, first.column, first.key, first.expected)


@dataclass(frozen=True)
class ArtInfo:
    """One art file: where it is, how the designer names it, and its size."""

    path: Path
    name: str  # as shown to the designer: "art/dragon.png"
    kind: str  # "raster" | "svg"
    size: tuple[float, float]  # pixels upright (raster) or the SVG's width and height in its units


def _below(path: Path, folder: Path) -> str:
    """``path.relative_to(folder).as_posix()`` for a path inside ``folder``: cut from the text
    when it starts with the folder's (pathlib compares them part by part), else asked of pathlib."""
    text, base = str(path), str(folder)
    start = base if base.endswith(os.sep) else base + os.sep
    if text.startswith(start) and os.sep == "/":
        return text[len(start):]
    return path.relative_to(folder).as_posix()


def _where_parts(where: Where | Path | str | None) -> dict:
    if isinstance(where, Where):
        return {"path": where.path, "line": where.line, "column": where.column}
    return {"path": where}


@dataclass
class Sizes:
    """Art files' sizes by the hash of their content, found by earlier builds (the engine keeps
    them in its cache): a thousand cards' art is not opened again to be measured on every edit.
    ``memo``: [kind, width, height] by content hash; ``digest``: a file's hash."""

    memo: Memo[list]
    digest: Callable[[Path], str]
    stamps: Stamps | None = None  # the build's stats of files (its digest's): the deck's art found by them

    def get(self, path: Path) -> tuple[str, tuple[float, float]] | None:
        try:
            v = self.memo.get(self.digest(path))
        except OSError:  # unreadable: measuring it says so
            return None
        if isinstance(v, list) and len(v) == 3 and v[0] in ("raster", "svg") \
                and all(isinstance(n, (int, float)) and not isinstance(n, bool) and n > 0 for n in v[1:]):
            return str(v[0]), (float(v[1]), float(v[2]))
        return None

    def learn(self, path: Path, info: ArtInfo) -> None:
        try:
            self.memo.learn(self.digest(path), [info.kind, *info.size])
        except OSError:
            pass


def _stat_of(path: Path, stamps: Stamps | None) -> os.stat_result | None:
    """``path``'s stat (one: is it a file, how big), or None where it is not there, as Path.is_file
    says False (an unreadable folder is told as before)."""
    try:
        return stamps.of(path) if stamps is not None else path.stat()
    except OSError as e:
        if e.errno not in _NOT_THERE:
            raise
        return None
    except ValueError:
        return None


class ArtFolder:
    """The art of one game, each file measured and converted once (cached by content hash)."""

    def __init__(self, game_root: Path, templates: Path | None = None, sizes: Sizes | None = None,
                 stamps: Stamps | None = None):
        self.root = game_root / "art"
        self.templates = templates  # templates/<slug>/: hrefs written in templates look there second
        self.sizes = sizes  # sizes found by earlier builds (none: every file is opened)
        # the build's stats of files (the deck's folder and the templates' find the same files): none, each asked here
        self.stamps = stamps if stamps is not None else sizes.stamps if sizes is not None else None
        self._info: dict[Path, ArtInfo] = {}
        self._found: dict[tuple[str, bool], Path] = {}  # (rel, in_templates) → the file: each resolved once
        self._resolved: Path | None = None  # art/ through its links, found once
        self._real: dict[Path, Path] = {}  # art/, templates/<slug>/ → through its links, found once (shown_name)
        self._out: dict[Path, bool] = {}  # art/, templates/<slug>/ → whether it leads out of its place (leads_out)
        self._bytes: OrderedDict[tuple[str, str], bytes] = OrderedDict()  # the most recently used last
        self.trail: list[tuple[str, bool]] | None = None  # while a list: every (name, in_templates) found
        self._held = 0  # bytes in _bytes: past BYTES_BUDGET the least recently used go

    def __getstate__(self) -> dict:
        """What a worker process gets: the folders, not what this process found and measured in
        them (a thousand cards' art: 117 kB pickled with each few faces sent to convert)."""
        state = dict(self.__dict__)
        state.update(_info={}, _found={}, _bytes=OrderedDict(), _held=0, trail=None, sizes=None, stamps=None)
        return state

    def find(self, rel: str, where: Where | Path | str | None = None, key: str = "image",
             in_templates: bool = False) -> Path:
        """The file ``rel`` names inside art/ (or templates/<slug>/), or an InputError at ``where``.
        Found once per name (a face's template checks its href, places it, then converts it)."""
        path = self._find(rel, where, key, in_templates)
        if self.trail is not None:
            self.trail.append((rel, in_templates))
        return path

    def _find(self, rel: str, where: Where | Path | str | None, key: str, in_templates: bool) -> Path:
        found = self._found.get((rel, in_templates)) if isinstance(rel, str) else None
        if found is None and isinstance(rel, str) and self.stamps is not None:  # found in art/ by another folder
            found = self.stamps.found.get((self.root, rel))                      # of the build (art/ is looked in first)
        if found is not None:
            self._found[(rel, in_templates)] = found
            return found
        if not isinstance(rel, str) or not rel.strip():
            raise InputError("an image needs a file name", key=key, expected="a path relative to art/, e.g. dragon.png",
                             **_where_parts(where))
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", rel):
            raise InputError(f"{rel!r}: images are not fetched from the network", key=key,
                             expected="a file in data/<slug>/art/", **_where_parts(where))
        if Path(rel.strip()).suffix.lower() not in SUFFIXES:  # ('red.png ' in quotes: told as not found, the file named)
            saved = _SAVE_AS.get(Path(rel).suffix.lower())
            raise InputError(f"{rel!r} is not a PNG, JPEG, WebP or SVG file", key=key,
                             expected="a file ending .png, .jpg, .jpeg, .webp or .svg" + (f": {saved}" if saved else ""),
                             **_where_parts(where))
        folders = [self.root] + ([self.templates] if in_templates and self.templates is not None else [])
        paths = []
        for folder in folders:
            base = self.root.parent if folder == self.root else folder.parent
            if folder not in self._out:  # (once: each name's lookup resolved the folder's links again)
                self._out[folder] = leads_out(folder, base)
            if self._out[folder]:
                raise InputError(f"{rel!r} is outside {base.name}/: {folder.name}/ is a link leading out of it", key=key,
                                 expected=f"{folder.name}/ a folder inside {base}/ (or a link to one there), not "
                                          "a link elsewhere", **_where_parts(where))
            quick = file_right_in(folder, rel, self.stamps) if self.stamps is not None else None
            st: os.stat_result | None
            if quick is not None:  # a plain name of a regular file right in the folder (a thousand cards' art)
                path, st = quick
            else:
                path = contained(rel, folder, key, where, self.stamps)
                st = _stat_of(path, self.stamps)
            if st is not None and S_ISREG(st.st_mode):
                size = st.st_size
                if size > MAX_ART_BYTES:  # read whole where it is checked and hashed: gigabytes of memory
                    raise InputError(f"art file {rel!r} is {size:,} bytes", key=key,
                                     expected=f"at most {MAX_ART_BYTES:,} bytes (a picture for print, at most "
                                     f"{MAX_ART_PIXELS:,} pixels, needs no more when saved compressed, as PNG "
                                     "and JPEG are by default)", **_where_parts(where))
                self._found[(rel, in_templates)] = path
                if folder == self.root and self.stamps is not None:
                    self.stamps.found[(self.root, rel)] = path
                return path
            paths.append(path)
        alike = written_alike(rel, folders)
        if alike is not None and not is_litter(Path(alike).name):  # ガード.png in the data, the file's name decomposed (カ + ゛), as macOS writes names
            path = self._find(alike, where, key, in_templates)
            self._found[(rel, in_templates)] = path
            return path
        looked = " or ".join(f"{f}/" for f in folders)
        for path in paths:
            if path.exists():  # (a pipe is never opened: only its kind is read)
                what = "a folder" if path.is_dir() else "a pipe, socket or device"
                raise InputError(f"art file {rel!r} is {what}, not a file", key=key,
                                 expected=f"a picture file {rel} in {looked}", **_where_parts(where))
        if re.match(r"^(?:[A-Za-z]:[\\/]|\\\\)", rel):  # C:\Users\…\seer.png: a picture left on the designer's computer
            name = re.split(r"[\\/]", rel)[-1]
            raise InputError(f"art file '{rel}' is a path on a Windows computer, not in the game", key=key,
                             expected=f"the picture copied into {looked} and named there: {name}", **_where_parts(where))
        near = _near_names(rel, folders)
        if "\\" in rel and not near:  # Roles\Wolf.png, as Windows writes a path: found there, not on Linux or macOS
            near = _near_names(rel.replace("\\", "/"), folders)
            if near:
                raise ArtNotFound(f"art file '{rel}' not found: a backslash separates folders on Windows only",
                                 key=key, expected=" or ".join(repr(n) for n in near) + ", with / between the folders "
                                 "(read on every system)", **_where_parts(where))
        if len(near) > 1:  # Card 01.PNG and card 01.png: one file to Windows and macOS, two to Linux
            said = f"one of {', '.join(repr(n) for n in near)}, the names of the files that are there"
        else:
            said = f"{near[0]!r}, the name of the file that is there" if near else f"a file {rel} in {looked}"
        if any(n != n.strip() or Path(n).name != Path(n).name.strip() for n in near):  # 'blue.png ', as a zip or a rename left it
            said += ": a name that begins or ends with a space; rename the file without it"
        raise ArtNotFound(f"art file {rel!r} not found", key=key,
                         expected=said + ("; paths are relative to art/" if near and rel.startswith("art/") else ""),
                         **_where_parts(where))

    def info(self, rel: str, where: Where | Path | str | None = None, key: str = "image",
             in_templates: bool = False) -> ArtInfo:
        path = self.find(rel, where, key, in_templates)
        cached = self._info.get(path)
        if cached is None:
            name = self._named(path, rel)
            known = self.sizes.get(path) if self.sizes is not None else None
            if known is not None:
                cached = self._info[path] = ArtInfo(path, name, *known)
            else:
                cached = self._info[path] = _measure(path, name, where, key)
                if self.sizes is not None:
                    self.sizes.learn(path, cached)
        return cached

    def _named(self, path: Path, rel: str) -> str:
        """The picture as messages name it, where the designer finds it: ``art/<rel>``, or
        ``templates/<game>/<rel>`` for one beside the templates."""
        if self._resolved is None:
            self._resolved = self.root.resolve()
        in_art = within(path, self._resolved)
        folder = self.root if in_art or self.templates is None else self.templates
        return (f"art/{_as_resolved(rel, folder, path)}" if folder == self.root
                else f"templates/{folder.name}/{_as_resolved(rel, folder, path)}")

    def shown_name(self, path: Path) -> str:
        """A file this folder found (``find``, ``shown_files``) named as the designer finds it:
        ``art/<its path there>``, else ``templates/<game>/<its path there>``."""
        for folder, said in ((self.root, "art"), (self.templates, f"templates/{self.templates.name}"
                                                  if self.templates is not None else "")):
            if folder is None:
                continue
            for base in (folder, None):
                if base is None:  # (through its links: found once, not for each of a thousand cards' pictures)
                    base = self._real.get(folder)
                    if base is None:
                        base = self._real[folder] = folder.resolve()
                if within(path, base):
                    return f"{said}/{_below(path, base)}"
        return path.name

    def check(self, href: str, where: Where | Path | str | None = None) -> ArtInfo:
        """The file an ``<image href>`` names, found and readable (else InputError at ``where``):
        checked when a template renders, so a bad href is reported before anything is drawn."""
        rel, _ = _href_parts(href, where)
        return self.info(rel, where, "href", in_templates=True)

    def let_go_of_bytes(self) -> None:
        """Forget the print-ready pictures kept (up to ``BYTES_BUDGET``): once a build's faces are
        converted, a picture asked for again is read again, and the documents are drawn without
        them held (3,000 illustrated cards converted in the build's own process: 64 MB)."""
        self._bytes.clear()
        self._held = 0

    def resolve(self, href: str, where: Where | Path | str | None = None) -> bytes:
        """The bytes to embed for an ``<image href>`` (see the module docstring)."""
        rel, background = _href_parts(href, where)
        path = self.find(rel, where, "href", in_templates=True)
        raw, is_svg = path.read_bytes(), path.suffix.lower() == ".svg"
        if is_svg:
            return raw
        key = (picture_hash(raw), background)
        out = self._bytes.pop(key, None)
        if out is None:
            out = print_bytes(raw, background, self._named(path, rel), where)
            self._held += len(out)
        self._bytes[key] = out  # kept while it fits: a frame every card shows is the same bytes object on every face
        while self._held > BYTES_BUDGET and len(self._bytes) > 1:
            self._held -= len(self._bytes.pop(next(iter(self._bytes))))
        return out

    def shown_files(self, svg: str) -> list[Path] | None:
        """The art files the ``href``s of a face's SVG name (each once, in order; an SVG picture's
        own ``href``s after it), or None when one is not a file found here (a link elsewhere) or
        SVG pictures nest deeper than the converter draws: what a converted face depends on
        beyond its SVG, picture by picture."""
        files: list[Path] = []
        return files if self._shown(svg, files, 0) else None

    def pictures(self, svg: str) -> Iterator[tuple[re.Match[str], str, Path | None]]:
        """Each ``href`` of ``svg`` but ``#id`` and ``data:``: its match, its path in art/ and the file (None: not here)."""
        for m in _hrefs(svg):
            href = html.unescape(m.group(2)).strip()
            if not href or href.startswith(("data:", "#")):
                continue
            try:
                rel, _ = _href_parts(href, None)
                path: Path | None = self.find(rel, None, "href", in_templates=True)
            except InputError:
                rel, path = href, None
            yield m, rel, path

    def _shown(self, svg: str, files: list[Path], depth: int) -> bool:
        for _, _, path in self.pictures(svg):
            if path is None:
                return False
            if path in files:
                continue
            files.append(path)
            if path.suffix.lower() == ".svg":  # vector art: the pictures it shows count too
                if depth >= SVG_NESTING:
                    return False
                try:
                    text = path.read_bytes().decode("utf-8", errors="replace")
                except OSError:
                    return False
                if not self._shown(text, files, depth + 1):
                    return False
        return True

    def resolver(self, where: Where | Path | str | None) -> Callable[[str], bytes]:
        """``resolve`` bound to the template and piece being drawn, for error messages."""
        return lambda href: self.resolve(href, where)


# How the pictures designers have in other formats are saved as one pnpgen reads
_SAVE_AS = {
    ".heic": "an iPhone photo (HEIC) exported as JPEG (Photos: File > Export; or Settings > Camera > Formats > Most Compatible)",
    ".heif": "a HEIF photo exported as JPEG",
    ".tif": "the TIFF saved as PNG", ".tiff": "the TIFF saved as PNG",
    ".psd": "the Photoshop file exported as PNG (File > Export > Export As)",
    ".ai": "the Illustrator file exported as SVG (Styling: Presentation Attributes) or PNG",
    ".pdf": "the PDF's picture exported as PNG or SVG",
}


def _near_names(rel: str, folders: list[Path]) -> list[str]:
    """The names of the files that are there when ``rel`` is not, as designers miss them: ``art/``
    written before a path already relative to art/, another case (``Fish.PNG``), another picture
    ending (``fish.jpg`` for fish.png); sorted, every one (two files whose names differ in case
    alone, one file where the designer's Windows or macOS made them)."""
    wanted = (rel[4:] if rel.startswith("art/") else rel).strip()
    parent, stem = Path(wanted).parent, Path(wanted).stem.casefold()
    found = set()
    for folder in folders:
        place = folder / parent
        if ".." in parent.parts or not place.is_dir() or place.is_symlink():
            continue
        for f in sorted(place.iterdir())[:10000]:
            name = Path(f.name.strip())  # ('blue.png ' for blue.png: a space at either end unseen)
            if f.is_file() and name.suffix.lower() in SUFFIXES and name.stem.casefold() == stem and not is_litter(f.name):
                found.add((parent / f.name).as_posix())
    return sorted(found)[:5]


def _as_resolved(rel: str, folder: Path, path: Path) -> str:
    """``rel``, the name the data gives a picture in ``folder``, as the file it names lies there:
    ``art/../red.png`` (accepted: it stays inside art/) is ``red.png``, not a name no one finds."""
    tidy = os.path.normpath(rel).replace(os.sep, "/")
    if tidy == rel:
        return rel
    try:
        if not tidy.startswith("../") and (folder / tidy).resolve() == path:
            return tidy
        return path.relative_to(folder.resolve()).as_posix()  # (through a link and back: as the file lies)
    except (OSError, ValueError, RuntimeError):
        return rel


def _measure(path: Path, name: str, where, key: str) -> ArtInfo:
    """The file measured (its header read), once per process while it is unchanged (a deck's
    fields and its templates' image() ask for the same files); an unreadable one is an InputError."""
    try:
        st = path.stat()
        known = _sized(str(path), st.st_size, st.st_mtime_ns, st.st_ino)
    except OSError:
        known = None
    if known is not None:
        return ArtInfo(path, name, *known)
    return _opened(path, name, where, key)


@lru_cache(maxsize=8192)
def _sized(path: str, size: int, mtime_ns: int, inode: int) -> tuple[str, tuple[float, float]] | None:
    """(kind, size) of the file at ``path`` as it is (its stamp), None when it cannot be measured."""
    try:
        info = _opened(Path(path), path, None, "image")
    except InputError:
        return None
    return info.kind, info.size


def _opened(path: Path, name: str, where, key: str) -> ArtInfo:
    if path.suffix.lower() == ".svg":
        return ArtInfo(path, name, "svg", _svg_size(path, name, where, key))
    from PIL import Image, UnidentifiedImageError

    try:
        crowded = _crowded_png(path)
        if crowded:
            raise InputError(f"{name} holds {crowded}", key=key, expected="the picture saved again by an image editor",
                             **_where_parts(where))
        with open_picture(path) as im:
            if im.format not in RASTER_FORMATS:
                raise InputError(f"{name} is a {im.format} image", key=key, expected="PNG, JPEG, WebP or SVG art",
                                 **_where_parts(where))
            w, h = im.size
            if w * h > MAX_ART_PIXELS:
                raise _too_big(name, w, h, key, where)
            if orientation(im) in (5, 6, 7, 8):  # turned a quarter: width and height swap
                w, h = h, w
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise InputError(f"cannot read the image {name}: {_unreadable(e)}", key=key,
                         expected="a PNG, JPEG or WebP file that an image viewer opens", **_where_parts(where)) from None
    return ArtInfo(path, name, "raster", (float(w), float(h)))


MAX_PNG_CHUNKS = 1000  # chunks besides the pixel data's: libpng's own default limit (PNG_USER_CHUNK_CACHE_MAX)


def _crowded_png(path: Path) -> str | None:
    """What is wrong with a PNG of more chunks besides its pixel data's (IDAT) than any image
    editor writes — each is read one by one, by Pillow and here, for seconds a hundred thousand —,
    else None (not a PNG, or a plain one). Only the chunks' headers are read."""
    with open(path, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            return None
        others = 0
        while len(head := f.read(8)) == 8:
            length, chunk = struct.unpack(">I4s", head)
            if chunk == b"IEND":
                break
            if chunk != b"IDAT":
                others += 1
                if others > MAX_PNG_CHUNKS:
                    return f"more than {MAX_PNG_CHUNKS:,} chunks besides its pixels (libpng's own limit)"
            f.seek(length + 4, 1)
    return None


def orientation(im: Image.Image) -> int | None:
    """The EXIF orientation of an opened picture, read from its header: no pixel is decoded
    (Pillow's ``getexif()`` decodes a whole PNG to look for an eXIf chunk after its pixels;
    here the chunks are walked instead)."""
    from PIL import Image

    exif = im.info.get("exif")
    if exif is None and im.format == "PNG":
        exif = _png_late_exif(getattr(im, "fp", None))
    if not exif:
        return None
    found = Image.Exif()
    try:
        found.load(exif)
    except (SyntaxError, ValueError, OSError, struct.error):
        return None  # an unreadable EXIF block: upright, as Pillow's exif_transpose takes it
    value = found.get(ORIENTATION)
    return value if isinstance(value, int) else None


def _png_late_exif(fp) -> bytes | None:
    """An eXIf chunk written after the pixels, found by walking the PNG's chunk headers."""
    if fp is None:
        return None
    try:
        at = fp.tell()
        fp.seek(8)
        try:
            while True:
                head = fp.read(8)
                if len(head) < 8:
                    return None
                length, kind = struct.unpack(">I4s", head)
                if kind == b"eXIf":
                    return fp.read(length)
                if kind == b"IEND":
                    return None
                fp.seek(length + 4, 1)  # the data and its CRC
        finally:
            fp.seek(at)
    except (OSError, ValueError, struct.error):
        return None


# elements in an SVG picture: twice those one face may draw (svg/ MAX_ELEMENTS), room for its
# definitions, gradients' stops and metadata, none of which is drawn
MAX_SVG_ELEMENTS = 200_000


def _svg_size(path: Path, name: str, where, key: str) -> tuple[float, float]:
    """The SVG's aspect, from its viewBox or else its width and height. Its elements are counted
    as they are read, none kept: a picture of more than a face may draw is refused here, before a
    tree of them is built (24 MB of <rect/> took 40 s and a gigabyte, within the art file's bytes)."""
    root, n = None, 0
    try:
        for event, element in etree.iterparse(str(path), events=("start", "end"), resolve_entities=False,
                                              no_network=True, huge_tree=False):
            if event == "start":
                root = element if root is None else root
                n += 1
                if n > MAX_SVG_ELEMENTS:
                    raise InputError(f"the SVG {name} holds more than {MAX_SVG_ELEMENTS:,} elements", key=key,
                                     expected=f"an SVG picture of at most {MAX_SVG_ELEMENTS:,} elements (a face "
                                     "draws at most half as many): simplified, or saved as a PNG", **_where_parts(where))
            elif element is not root:  # read: let go of it (the root's own attributes are all that is asked)
                element.clear()
                while element.getprevious() is not None:
                    del element.getparent()[0]
    except etree.XMLSyntaxError as e:
        raise InputError(f"cannot read the SVG {name}: {parser_said(e.msg)}", key=key, expected="a well-formed SVG file",
                         **_where_parts(where)) from None
    except OSError as e:
        raise InputError(f"cannot read the SVG {name}: {e.strerror}", key=key, expected="a readable SVG file",
                         **_where_parts(where)) from None
    if root is None:
        raise InputError(f"cannot read the SVG {name}: it is empty", key=key, expected="a well-formed SVG file",
                         **_where_parts(where))
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        if len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0:
            return float(box[2]), float(box[3])
        w, h = (float(re.sub(r"[a-z%]+$", "", root.get(a, ""))) for a in ("width", "height"))
        if w > 0 and h > 0:
            return w, h
    except ValueError:
        pass
    raise InputError(f"the SVG {name} gives no size", key=key, expected="a viewBox (or width and height) on its <svg>",
                     **_where_parts(where))


def _href_parts(href: str, where) -> tuple[str, str]:
    """``dragon%20red.png#bg=f4ead5`` → the file's path relative to art/ and the background."""
    target, _, fragment = href.partition("#")
    if not fragment:
        return unquote(target), "ffffff"
    m = _BG.match(fragment)
    if not m:
        raise InputError(f"unknown fragment in the image href {href!r}", key="href",
                         expected="#bg=rrggbb (the colour alpha is flattened onto) or none", **_where_parts(where))
    return unquote(target), m.group(1).lower()


def see_through(path: Path) -> bool:
    """Whether a raster art file has pixels that are not fully opaque (flattened onto a ground
    when it is placed); once per file as it is (its stamp)."""
    try:
        st = path.stat()
    except OSError:
        return False
    return _see_through(str(path), st.st_size, st.st_mtime_ns, st.st_ino)


@lru_cache(maxsize=1024)
def _see_through(path: str, size: int, mtime_ns: int, inode: int) -> bool:
    from PIL import Image, UnidentifiedImageError

    try:
        with open_picture(path) as im:
            if im.format == "JPEG" or (im.mode not in ("RGBA", "LA", "PA", "La", "RGBa", "P")
                                      and "transparency" not in im.info):
                return False  # no alpha channel: nothing decoded
            if im.width * im.height > MAX_ART_PIXELS:
                return False  # refused where it is placed
            alpha = im.convert("RGBA").getchannel("A")
            return alpha.getextrema()[0] < 255
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return False  # unreadable: placing it says so


MAX_ART_PIXELS = 60_000_000  # one picture (a 650 mm square at 300 dpi): decoded, its RGBA takes some 1 GB
MAX_ART_BYTES = 256_000_000  # one art file: such a picture as a compressed PNG or a JPEG is far smaller


def open_picture(src):
    """``Image.open`` without Pillow's decompression-bomb warning, printed raw on the terminal:
    pnpgen refuses such a picture itself (``MAX_ART_PIXELS``, below Pillow's own limits), in one
    line naming the piece, before a pixel is decoded."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            return Image.open(src)
        except ValueError as e:  # (a chunk read with the header: an OSError, as every caller takes one)
            if PILLOW_CHUNK_BOMB in str(e):
                raise OSError(CHUNK_BOMB) from None
            raise


# Pillow's ValueError for a PNG's zTXt, iTXt or iCCP chunk unpacking past its 1 MB, and pnpgen's words for it
PILLOW_CHUNK_BOMB = "Decompressed data too large"
CHUNK_BOMB = "it holds a text or colour-profile chunk that unpacks to more than a picture holds (a crafted or damaged file)"


def claimed_pixels(e: Exception) -> str:
    """"10,000,000,000 pixels" from Pillow's DecompressionBombError ("Image size (…) exceeds …")."""
    m = re.search(r"\((\d+) pixels\)", str(e))
    return f"{int(m.group(1)):,} pixels" if m else "billions of pixels"


def _too_big(name: str, w: int, h: int, key: str, where) -> InputError:
    """A picture of more pixels than print needs, refused from its header: a 600 kB PNG can
    claim 13000×13000 pixels that take gigabytes decoded (a decompression bomb)."""
    return InputError(f"{name} is {w}×{h} pixels, more than a picture for print needs", key=key,
                      expected=f"at most {MAX_ART_PIXELS:,} pixels: {smaller_size(w, h)} (300 dpi at the printed "
                      "size is enough: a 650 mm square)", **_where_parts(where))


def smaller_size(w: int, h: int) -> str:
    """What to save a picture of more than ``MAX_ART_PIXELS`` as: the largest size of its shape
    within them (an 8000×8000 JPEG, as an illustrator hands over, was told only the limit)."""
    scale = math.sqrt(MAX_ART_PIXELS / (w * h))
    nw, nh = max(1, math.floor(w * scale)), max(1, math.floor(h * scale))
    while nw * nh > MAX_ART_PIXELS:  # (a float's rounding: a pixel less)
        nw, nh = nw - (nw >= nh), nh - (nh > nw)
    return f"the picture saved at {nw}×{nh} pixels or smaller in an image editor, its shape kept"


def _unreadable(e: Exception) -> str:
    """Why Pillow could not read an image, without the file object's repr or a temp path."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(e, Image.DecompressionBombError):  # a header claiming billions of pixels
        return f"it claims {claimed_pixels(e)}, more than a picture for print needs (at most {MAX_ART_PIXELS:,})"
    if isinstance(e, ValueError) and PILLOW_CHUNK_BOMB in str(e):  # a chunk after the pixels, read as they are
        return CHUNK_BOMB
    return "not a PNG, JPEG or WebP image" if isinstance(e, UnidentifiedImageError) else str(e)


def print_bytes(raw: bytes, background: str = "ffffff", name: str = "image", where=None) -> bytes:
    """A raster image as print-safe bytes: the JPEG itself when PDF can show it as it is, else an
    opaque RGB PNG (rotation, bit depth, palette, CMYK and alpha all settled here)."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        im: Image.Image = open_picture(io.BytesIO(raw))
        if im.width * im.height > MAX_ART_PIXELS:  # never decoded: a bomb's pixels take gigabytes
            raise _too_big(name, im.width, im.height, "href", where)
        upright = orientation(im) in (None, 1)
        as_it_is = (im.format == "JPEG" and (im.mode == "L" or im.mode == "RGB" and srgb_as_is(im))) or (
            im.format == "PNG" and im.mode == "RGB" and "transparency" not in im.info and "icc_profile" not in im.info)
        if as_it_is and upright:  # PDF shows it as it is: the file itself, not decoded here
            broken = checked_whole(raw, im.format or "")  # (nor by the PDF's reader, when its data is not whole)
            if broken:
                raise InputError(f"cannot read the image {name}: {broken}", key="href",
                                 expected="the file saved again whole, as an image viewer opens it", **_where_parts(where))
            return raw
        im = ImageOps.exif_transpose(plain_cmyk(im))
        r, g, b = (int(background[i : i + 2], 16) for i in (0, 2, 4))
        im = opaque_rgb(im, (r, g, b))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise InputError(f"cannot read the image {name}: {_unreadable(e)}", key="href",
                         expected="a PNG, JPEG or WebP file that an image viewer opens", **_where_parts(where)) from None
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()
