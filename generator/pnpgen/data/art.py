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
* a picture resampled to the pixels ``#px=WxH`` in the fragment names (``dragon.png#bg=f4ead5&px=472x472``:
  faces/images.py writes it for art placed finer than the resolution ceiling, ``--max-dpi``) — a
  JPEG again as a JPEG, anything else as an opaque RGB PNG;
* for SVG art, the SVG text (drawn as vectors, not rasterised).

A picture converted or resampled is converted once on the machine (``artfile.print_bytes``: its
bytes kept in the machine's cache by content).

Paths are relative to ``art/`` (then ``templates/<slug>/`` for hrefs written in templates);
``..``, absolute paths and links leading out are refused.

A picture's bytes are named by their hash and checked whole, before they are placed as they
are, in ``picturebytes``; a file found here is read (measured, checked against the limits, made
print-ready) in ``artfile``.
"""

from __future__ import annotations

import base64
import errno
import html
import os
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from stat import S_ISREG
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from pnpgen.data.artfile import (
    MAX_ART_BYTES,
    MAX_ART_PIXELS,
    ArtInfo,
    measured,
    opened,
    print_bytes,
    see_through,
    where_parts,
)
from pnpgen.data.picturebytes import picture_hash
from pnpgen.errors import (
    InputError,
    Where,
    contained,
    file_right_in,
    leads_out,
    place,
    windows_path_name,
    within,
    written_alike,
)
from pnpgen.litter import is_litter
from pnpgen.memo import Memo, Stamps
from pnpgen.messages import counted
from pnpgen.patterns import later

if TYPE_CHECKING:
    from pnpgen.data.model import Game
    from pnpgen.data.workspace import Workspace

SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".svg")
_MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
                ".svg": "image/svg+xml"}  # (the files of SUFFIXES, as a data: URI names them: ``inlined``)
BYTES_BUDGET = 64 * 2**20  # print-ready picture bytes an ArtFolder keeps (the least recently used go first)
_BG = later(r"^bg=([0-9a-fA-F]{6})$")
_PX = later(r"^px=([0-9]{1,9})x([0-9]{1,9})$")
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


class ArtFileRefused(InputError):
    """An art file a piece names that is not there, or not in a format pnpgen reads (a .tif): a
    deck's are told together (a card list with four pictures not drawn yet took four runs of
    check, one file each; trial73: three TIFFs in a memory game's art folder, three runs)."""

    @staticmethod
    def like(e: InputError) -> ArtFileRefused:
        return ArtFileRefused(e.message, e.path, e.line, e.column, e.key, e.expected)

    @staticmethod
    def together(missing: list[ArtFileRefused]) -> ArtFileRefused:
        """The first art file not there, with the deck's others named after it (the first five)."""
        first = missing[0]
        if len(missing) == 1:
            return first
        said = ", ".join(f"{place(Path(str(e.path)).name, e.line, e.column)} {_file_named(e.message, first.message)}"
                         for e in missing[1:6])
        more = ", …" if len(missing) > 6 else ""
        others = len(missing) - 1
        return ArtFileRefused(f"{first.message}; nor {'is' if others == 1 else 'are'} "
                           f"{counted(others, 'more art file')} of this deck: {said}{more}",
                           first.path, first.line, first.column, first.key, first.expected)


def _file_named(message: str, first: str) -> str:
    """The file a refusal names, in its quotes (``art file 'b.png' not found``, ``'b.tif' is not a
    PNG, …``: ``'b.png'``, ``'b.tif'``), for the line telling a deck's others; with what is wrong
    with it when the ``first`` refusal's is another (``'b.tif' (not a PNG, …)`` after a file not found)."""
    m = re.search(r"'[^']*'|\"[^\"]*\"", message)
    if m is None:
        return message
    if ("not found" in message) == ("not found" in first):
        return m.group(0)
    return f"{m.group(0)} ({message[m.end():].strip(' :').removeprefix('is ')})"


def _below(path: Path, folder: Path) -> str:
    """``path.relative_to(folder).as_posix()`` for a path inside ``folder``: cut from the text
    when it starts with the folder's (pathlib compares them part by part), else asked of pathlib."""
    text, base = str(path), str(folder)
    start = base if base.endswith(os.sep) else base + os.sep
    if text.startswith(start) and os.sep == "/":
        return text[len(start):]
    return path.relative_to(folder).as_posix()


@dataclass
class Sizes:
    """Art files' sizes by the hash of their content, found by earlier builds (the engine keeps
    them in its cache): a thousand cards' art is not opened again to be measured on every edit.
    ``memo``: [kind, width, height] by content hash, and whether its pixels are see-through once a
    face placing it was rendered ([kind, width, height, see-through]: an edited card's face is
    rendered without opening its picture, or importing Pillow); ``digest``: a file's hash."""

    memo: Memo[list]
    digest: Callable[[Path], str]
    stamps: Stamps | None = None  # the build's stats of files (its digest's): the deck's art found by them
    learning: bool = False  # a --jobs worker's, for a build that learned sizes: its findings kept too

    def get(self, path: Path) -> tuple[str, tuple[float, float]] | None:
        try:
            v = self.memo.get(self.digest(path))
        except OSError:  # unreadable: measuring it says so
            return None
        if type(v) is list and len(v) in (3, 4) and v[0] in ("raster", "svg"):
            kind, w, h = v[:3]  # (a number, not true or false: the cache's values are plain, bool no int here)
            if type(w) in (int, float) and type(h) in (int, float) and w > 0 and h > 0:
                return str(kind), (float(w), float(h))
        return None

    def see_through(self, path: Path) -> bool:
        """``artfile.see_through`` of the file, as an earlier build found it for this content, else
        found now — and kept beside its size by a build that writes the sizes anyway (one that
        measured a file: ``learning``, or ``memo.learned``), so that an edit rewrites no cache
        entry for it: an interrupted build leaves the cache as it was."""
        try:
            key = self.digest(path)
        except OSError:
            return see_through(path)
        v = self.memo.get(key)
        if type(v) is list and len(v) == 4 and type(v[3]) is bool:
            return v[3]
        found = see_through(path)
        if type(v) is list and len(v) == 3 and (self.learning or self.memo.learned) and self.get(path) is not None:
            self.memo.learn(key, [*v, found])
        return found

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
        self._bytes: OrderedDict[tuple[str, str, tuple[int, int] | None], bytes] = OrderedDict()  # the most recently used last
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
                             **where_parts(where))
        if "://" in rel and re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", rel):
            local = rel[:7].lower() == "file://"  # (a file address is no network's: a file read from anywhere on the disk)
            raise InputError(f"{rel!r}: " + ("a file address reads a file outside the workspace, which pnpgen does "
                                             "not read" if local else "images are not fetched from the network"),
                             key=key, expected="a file in data/<slug>/art/" + (
                                 f", named relative to it: {PurePosixPath(rel).name}" if local else ""),
                             **where_parts(where))
        # (a name whose text ends in a picture's suffix has it as its path's: a thousand cards' names
        # not each made a Path for it; any other asked of pathlib, which says what the suffix is)
        if os.path.splitext(rel.strip())[1].lower() not in SUFFIXES \
                and Path(rel.strip()).suffix.lower() not in SUFFIXES \
                and Path(unicodedata.normalize("NFKC", rel.strip())).suffix.lower() not in SUFFIXES:
            # ('red.png ' in quotes: told as not found, the file named; ｋｎｉｇｈｔ．ｐｎｇ typed full-width: its near miss)
            saved = _SAVE_AS.get(Path(rel).suffix.lower())
            raise ArtFileRefused(f"{rel!r} is not a PNG, JPEG, WebP or SVG file", key=key,
                             expected="a file ending .png, .jpg, .jpeg, .webp or .svg" + (f": {saved}" if saved else ""),
                             **where_parts(where))
        folders = [self.root] + ([self.templates] if in_templates and self.templates is not None else [])
        paths = []
        for folder in folders:
            own = folder is self.root or folder == self.root
            if folder not in self._out:  # (once: each name's lookup resolved the folder's links again)
                self._out[folder] = leads_out(folder, self.root.parent if own else folder.parent)
            if self._out[folder]:
                base = self.root.parent if own else folder.parent
                raise InputError(f"{rel!r} is outside {base.name}/: {folder.name}/ is a link leading out of it", key=key,
                                 expected=f"{folder.name}/ a folder inside {base}/ (or a link to one there), not "
                                          "a link elsewhere", **where_parts(where))
            quick = file_right_in(folder, rel, self.stamps) if self.stamps is not None else None
            st: os.stat_result | None
            if quick is not None:  # a plain name of a regular file right in the folder (a thousand cards' art)
                path, st = quick
            else:
                path = contained(rel, folder, key, where, self.stamps)
                st = _stat_of(path, self.stamps)
            if st is not None and S_ISREG(st.st_mode):
                if os.path.isabs(rel):  # (inside art/, but the deck would then build in this folder only)
                    raise InputError(f"{rel!r} is an absolute path", key=key,
                                     expected=f"a path relative to {folder.name}/, e.g. "
                                     f"{Path(os.path.relpath(path, os.path.realpath(folder))).as_posix()!r}: the deck builds the "
                                     "same in any folder",
                                     **where_parts(where))
                size = st.st_size
                if size > MAX_ART_BYTES:  # read whole where it is checked and hashed: gigabytes of memory
                    raise InputError(f"art file {rel!r} is {size:,} bytes", key=key,
                                     expected=f"at most {MAX_ART_BYTES:,} bytes (a picture for print, at most "
                                     f"{MAX_ART_PIXELS:,} pixels, needs no more when saved compressed, as PNG "
                                     "and JPEG are by default)", **where_parts(where))
                self._found[(rel, in_templates)] = path
                if own and self.stamps is not None:
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
                                 expected=f"a picture file {rel} in {looked}", **where_parts(where))
        name = windows_path_name(rel)
        if name is not None:  # C:\Users\…\seer.png: a picture left on the designer's computer
            raise InputError(f"art file '{rel}' is a path on a Windows computer, not in the game", key=key,
                             expected=f"the picture copied into {looked} and named there: {name}", **where_parts(where))
        near = _near_names(rel, folders)
        if "\\" in rel and not near:  # Roles\Wolf.png, as Windows writes a path: found there, not on Linux or macOS
            near = _near_names(rel.replace("\\", "/"), folders)
            if near:
                raise ArtFileRefused(f"art file '{rel}' not found: a backslash separates folders on Windows only",
                                 key=key, expected=" or ".join(repr(n) for n in near) + ", with / between the folders "
                                 "(read on every system)", **where_parts(where))
        if len(near) > 1:  # Card 01.PNG and card 01.png: one file to Windows and macOS, two to Linux
            said = f"one of {', '.join(repr(n) for n in near)}, the names of the files that are there"
        else:
            said = f"{near[0]!r}, the name of the file that is there" if near else f"a file {rel} in {looked}"
        if any(n != n.strip() or Path(n).name != Path(n).name.strip() for n in near):  # 'blue.png ', as a zip or a rename left it
            said += ": a name that begins or ends with a space; rename the file without it"
        elif near and unicodedata.normalize("NFKC", rel) != rel:
            said += f": {rel!r} is typed in full-width letters (全角)"
        raise ArtFileRefused(f"art file {rel!r} not found", key=key,
                         expected=said + ("; paths are relative to art/" if near and rel.startswith("art/") else ""),
                         **where_parts(where))

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

    def see_through(self, path: Path) -> bool:
        """Whether the raster file's pixels are not all opaque (``artfile.see_through``), by the
        sizes earlier builds kept when the folder has them."""
        return self.sizes.see_through(path) if self.sizes is not None else see_through(path)

    def check(self, href: str, where: Where | Path | str | None = None) -> ArtInfo:
        """The file an ``<image href>`` names, found and readable (else InputError at ``where``):
        checked when a template renders, so a bad href is reported before anything is drawn."""
        rel = _href_parts(href, where)[0]
        return self.info(rel, where, "href", in_templates=True)

    def viewable(self, svg: str, folder: Path) -> str:
        """The face's SVG as a browser opens it from ``folder`` (``check --svg``): each picture's ``href`` the
        file's address from there, without ``#bg=``; one naming no file here, ``#id`` or ``data:``, as written."""
        def address(rel: str, path: Path) -> str:
            place = self.root / rel if (self.root / rel).is_file() or self.templates is None else self.templates / rel
            return quote(Path(os.path.relpath(place, folder)).as_posix(), safe="/")
        return self._addressed(svg, address)

    def inlined(self, svg: str, where: Where | None = None, budget: int | None = None) -> str:
        """The face's SVG as a browser shows it from any address (the preview's link to a face's
        SVG, ``pnpgen serve``): each picture this folder finds, a ``data:`` URI of its file's bytes
        as they are, without ``#bg=``; one naming no file here, ``#id`` or ``data:``, as written.
        An InputError, said at ``where`` (the piece's line), when the pictures' files, counted each
        time the face shows one, pass ``budget`` bytes (MAX_ART_BYTES, the most a build reads of one
        picture): the SVG holds a picture each time it is shown, where a build holds it once (a 4 MB
        picture drawn on a track's 100 spaces took 2.3 GB to send)."""
        uris: dict[Path, tuple[str, int]] = {}  # a file → its URI and size (each read and encoded once)
        held, most = 0, MAX_ART_BYTES if budget is None else budget

        def uri(rel: str, path: Path) -> str:
            nonlocal held
            if path not in uris:
                data = path.read_bytes()
                uris[path] = (f"data:{_MEDIA_TYPES.get(path.suffix.lower(), 'application/octet-stream')};base64,"
                              + base64.b64encode(data).decode("ascii"), len(data))
            held += uris[path][1]
            if held > most:
                raise InputError(f"the face's SVG would hold {held:,}+ bytes of pictures, each written every time "
                                 f"it is shown ({rel} among them)", path=where.path if where else None,
                                 line=where.line if where else None, column=where.column if where else None,
                                 expected=f"at most {most:,} bytes of pictures in one face to show it here: "
                                 "'pnpgen check --svg' writes its SVG with links to the picture files")
            return uris[path][0]
        return self._addressed(svg, uri)

    def _addressed(self, svg: str, address: Callable[[str, Path], str]) -> str:
        """``svg`` with each picture this folder finds given ``address(its path in art/, its file)``."""
        out, at = [], 0
        for m, rel, path in self._pictures(svg):
            if path is None:
                continue
            out.append(svg[at:m.start(2)] + html.escape(address(rel, path)))
            at = m.end(2)
        return "".join(out) + svg[at:]

    def let_go_of_bytes(self) -> None:
        """Forget the print-ready pictures kept (up to ``BYTES_BUDGET``): once a build's faces are
        converted, a picture asked for again is read again, and the documents are drawn without
        them held (3,000 illustrated cards converted in the build's own process: 64 MB)."""
        self._bytes.clear()
        self._held = 0

    def resolve(self, href: str, where: Where | Path | str | None = None) -> bytes:
        """The bytes to embed for an ``<image href>`` (see the module docstring)."""
        rel, background, size = _href_parts(href, where)
        path = self.find(rel, where, "href", in_templates=True)
        raw, is_svg = path.read_bytes(), path.suffix.lower() == ".svg"
        if is_svg:
            return raw
        key = (picture_hash(raw), background, size)
        out = self._bytes.pop(key, None)
        if out is None:
            out = print_bytes(raw, background, self._named(path, rel), where, size)
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

    def _pictures(self, svg: str) -> Iterator[tuple[re.Match[str], str, Path | None]]:
        """Each ``href`` of ``svg`` but ``#id`` and ``data:``: its match, its path in art/ and the file (None: not here)."""
        for m in _hrefs(svg):
            href = html.unescape(m.group(2)).strip()
            if not href or href.startswith(("data:", "#")):
                continue
            try:
                rel = _href_parts(href, None)[0]
                path: Path | None = self.find(rel, None, "href", in_templates=True)
            except InputError:
                rel, path = href, None
            yield m, rel, path

    def _shown(self, svg: str, files: list[Path], depth: int) -> bool:
        for _, _, path in self._pictures(svg):
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

    def resolver(self, where: Where | Path | str | None) -> Resolver:
        """``resolve`` bound to the template and piece being drawn, for error messages."""
        return Resolver(self, where)

    def shown(self, href: str) -> str:
        """The file an ``href`` already read was found as, from the workspace (``data/g/art/x.svg``):
        what a message about a picture inside an SVG picture names; the href as written when none."""
        target = unquote(href.partition("#")[0])
        found = self._found.get((target, True)) or self._found.get((target, False))
        if found is None:
            return target
        try:
            return found.relative_to(self.root.parents[2]).as_posix()
        except ValueError:
            return target


@dataclass(frozen=True)
class Resolver:
    """An art folder's ``resolve`` bound to the template and piece being drawn (``where``, for its
    messages), and ``shown``: the file an SVG picture was read from, which a message about a
    picture inside it names (svg/image.py)."""

    folder: ArtFolder
    where: Where | Path | str | None

    def __call__(self, href: str) -> bytes:
        return self.folder.resolve(href, self.where)

    def shown(self, href: str) -> str:
        return self.folder.shown(href)


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
    typed = Path(unicodedata.normalize("NFKC", wanted))  # (sub／knight.png: the folder sub/, typed full-width)
    if typed.is_absolute() or ".." in typed.parts:  # (．．／etc／x.png: no folder looked in outside art/)
        typed = Path(Path(wanted).parent, unicodedata.normalize("NFKC", Path(wanted).name).replace("/", "_"))
    parent, stem = typed.parent, _folded(typed.stem)
    found = set()
    for folder in folders:
        place = folder / parent
        if ".." in parent.parts or not place.is_dir() or place.is_symlink():
            continue
        for f in sorted(place.iterdir())[:10000]:
            name = Path(f.name.strip())  # ('blue.png ' for blue.png: a space at either end unseen)
            if f.is_file() and name.suffix.lower() in SUFFIXES and _folded(name.stem) == stem and not is_litter(f.name):
                found.add((parent / f.name).as_posix())
    return sorted(found)[:5]


def _folded(stem: str) -> str:
    """A name's stem as a near miss matches it: in any case, its full-width letters and digits
    (``ｋｎｉｇｈｔ``, typed with the input method on 全角) as the half-width ones of the file."""
    return unicodedata.normalize("NFKC", stem).casefold()


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
        known = measured(str(path), st)
    except OSError:
        known = None
    if known is not None:
        return ArtInfo(path, name, *known)
    return opened(path, name, where, key)


def _href_parts(href: str, where) -> tuple[str, str, tuple[int, int] | None]:
    """``dragon%20red.png#bg=f4ead5&px=600x800`` → the file's path relative to art/, the
    background and the pixels it is resampled to under the resolution ceiling (None: as it is)."""
    target, _, fragment = href.partition("#")
    background, size = "ffffff", None
    for part in fragment.split("&") if fragment else ():
        bg, px = _BG.match(part), _PX.match(part)
        if bg:
            background = bg.group(1).lower()
        elif px and 0 < int(px.group(1)) <= MAX_ART_PIXELS and 0 < int(px.group(2)) <= MAX_ART_PIXELS:
            size = (int(px.group(1)), int(px.group(2)))
        else:
            raise InputError(f"unknown fragment in the image href {href!r}", key="href",
                             expected="#bg=rrggbb (the colour alpha is flattened onto), #px=WxH (the pixels it is "
                             "resampled to), both joined by & (#bg=rrggbb&px=WxH), or none", **where_parts(where))
    return unquote(target), background, size


def with_fragment(href: str, background: str | None, size: tuple[int, int] | None) -> str:
    """``href`` with the fragment ``_href_parts`` reads: ``#bg=rrggbb`` (None: none named) and
    ``px=WxH`` (None: as it is), joined by ``&``."""
    parts = ([] if background is None else [f"bg={background}"]) + ([] if size is None else [f"px={size[0]}x{size[1]}"])
    return href + (f"#{'&'.join(parts)}" if parts else "")


def with_background(href: str, background: str) -> str:
    """``href`` with ``#bg=background`` before any other part of its fragment (``#px=``)."""
    target, _, fragment = href.partition("#")
    return f"{target}#bg={background}" + (f"&{fragment}" if fragment else "")
