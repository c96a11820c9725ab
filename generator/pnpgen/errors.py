"""One error type for bad input, so the CLI can print it plainly and exit 2."""

from __future__ import annotations

import errno
import os
import signal
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from stat import S_ISREG
from typing import TYPE_CHECKING

from pnpgen import INTERRUPTED
from pnpgen.patterns import later
from pnpgen.safetext import cut_middle, name_control_char, odd_char, one_line, shown_invisible, shown_name

if TYPE_CHECKING:  # (the rulebook's reader imports errors alone)
    from pnpgen.memo import Stamps


# what stops a command as Ctrl-C does: the terminal's Ctrl-C, kill's and every supervisor's SIGTERM, a closed terminal's SIGHUP
STOPPING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def stopped_line(signum: int) -> str:
    """The one line a stopped command ends with: Ctrl-C's, or it with the signal named."""
    return INTERRUPTED if signum == signal.SIGINT else f"{INTERRUPTED} ({signal.Signals(signum).name})"


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP (``kill``, ``timeout``, a CI runner's time limit, docker and systemd stop, a
    closed terminal): the command stops as Ctrl-C stops it — every path that rolls back on a
    KeyboardInterrupt does — and ends with 128 + ``signum``, as a shell reports the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def place(path: Path | str, line: int | None = None, column: int | None = None) -> str:
    """``path:line:column`` as editors and terminals link it; line and column when known."""
    s = str(path)
    if line is not None:
        s += f":{line}"
        if column is not None:
            s += f":{column}"
    return s


@dataclass
class InputError(Exception):
    """Bad designer input: where it is, what is wrong, and what would be right."""

    message: str
    path: Path | str | None = None
    line: int | None = None
    column: int | None = None
    key: str | None = None
    expected: str | None = None
    glyph: str | None = None  # the character no font has, when that is the mistake (check says it once)
    icon: str | None = None  # an icon file's own fault (its file and what is wrong), when that is the mistake (check says it once)
    details: tuple[str, ...] = ()  # facts said a line each under the message (an export's decks left out, a reason a line)

    def __str__(self) -> str:
        """One line, as an editor links it: a line break the data brings (a sheet's header cell of
        two lines, 枚<Alt+Enter>数, quoted in the key, the message and the hint) shown as ``\\n``.
        With ``details``, each of them on a line of its own under it, indented, then the hint, its
        alternatives a line each (``expected`` parted by line breaks: the export's "takes none of
        the decks", every fact kept, was one line of 1,800 characters)."""
        where = f"{place(self.path, self.line, self.column)}: " if self.path is not None else ""
        key = f"{shown_invisible(self.key)}: " if self.key else ""
        if self.details:
            hint = "\n   ".join(one_line(cut_middle(part)) for part in (self.expected or "").split("\n") if part)
            return "\n  ".join([one_line(f"{where}{key}{cut_middle(self.message)}{_odd_key(self.key, self.message)}"),
                                *(one_line(cut_middle(d)) for d in self.details),
                                *([f"(expected {hint})"] if hint else [])])
        hint = f" (expected {cut_middle(self.expected)})" if self.expected else ""
        return one_line(f"{where}{key}{cut_middle(self.message)}{_odd_key(self.key, self.message)}{hint}")


def _odd_key(key: str | None, message: str) -> str:
    """`` (the key path holds the invisible character U+200B (ZERO WIDTH SPACE), character 3)``
    for a key path (shown with the character escaped, ``la\\u200byout``) holding a character that
    shows as nothing or as another, unless the message names it already; else nothing."""
    odd = odd_char(key) if key else None
    if odd is None or odd[odd.index("U+"):].split(" ", 1)[0] in message:
        return ""
    return f" (the key path holds {odd})"


class TemplateMistake(InputError):
    """A template that cannot be read at all (its syntax): one mistake of the template's file and
    line, not of each face drawn with it."""


class ValueMistake(InputError):
    """Bad input in one value the data gives a template (an unknown icon or colour in a text, a
    character no font has): said at the line that sets the value, not where the template uses it."""


@dataclass(frozen=True)
class Where:
    """A place in a YAML file (or a spreadsheet's row and column), for error messages, warnings
    and placeholder reports."""

    path: Path
    line: int | None = None
    column: int | None = None
    sheet: str | None = None  # the worksheet a deck names: a workbook's row 10 is on one of its sheets

    def __str__(self) -> str:
        """``cards.xlsx:10:3 in worksheet 英雄``, as an error names it (``in_worksheet``): the
        editor's ``path:line:column`` first."""
        return place(self.path, self.line, self.column) + (f" in worksheet {self.sheet}" if self.sheet else "")


NAME_BYTES = 255  # the longest file or folder name the file systems take (NAME_MAX)
PATH_BYTES = 4096  # the longest path (PATH_MAX)


def too_long(name: str) -> bool:
    """Is ``name`` a path the system would refuse as too long? (Looking it up raises, not 'no
    such file': ENAMETOOLONG, which every is_file() after would meet.)"""
    if len(name) * 4 <= NAME_BYTES:  # (UTF-8 takes at most 4 bytes a character: a thousand cards' picture names)
        return False
    def size(text: str) -> int:
        return len(text.encode("utf-8", "surrogatepass"))
    return size(name) > PATH_BYTES or any(size(part) > NAME_BYTES for part in name.split("/"))


def within(path: Path, folder: Path) -> bool:
    """``path.is_relative_to(folder)``, its common answer found from the two as text: pathlib's
    compares them part by part (some 10 µs; a thousand cards' art, checked twice each). A path
    that does not start with the folder's text is asked of pathlib, as before."""
    text, base = str(path), str(folder)
    return text.startswith(base if base.endswith(os.sep) else base + os.sep) or path.is_relative_to(folder)


@lru_cache(maxsize=256)
def _real(folder: Path) -> Path:
    """A folder through its links, found once per process (a thousand art files are checked
    against the same art/). Should the folder be relinked meanwhile, files are refused, never let out."""
    return folder.resolve()


_WINDOWS_PATH = later(r"^(?:[A-Za-z]:[\\/]|\\\\)")  # C:\Users\…, C:/Users/…, \\server\share\…


def windows_path_name(name: str) -> str | None:
    """The file's own name when ``name`` is a path on a Windows computer (a drive letter's, or a
    network share's: a file left on the designer's computer, never in the workspace), else None."""
    return name.replace("\\", "/").rsplit("/", 1)[-1] if _WINDOWS_PATH.match(name) else None


def not_a_file(path: Path) -> str | None:
    """What stands at ``path`` instead of a file ("a folder", "a pipe, socket or device", "a link
    to nothing"), or None: a file, or nothing there. Only its kind is read (a pipe is never opened)."""
    try:
        if path.is_file():
            return None
        if path.exists():
            return "a folder" if path.is_dir() else "a pipe, socket or device"
        return "a link to nothing" if path.is_symlink() else None
    except (OSError, ValueError):  # a name too long, a NUL byte: nothing there, as far as a build goes
        return None


def leads_out(folder: Path, base: Path) -> bool:
    """Whether ``folder`` (art/, an icons/ folder, templates/<slug>/) is, through a link,
    elsewhere than inside ``base`` (the game's folder, templates/): none of its files is then read,
    as a deck folder linked out of the game's is not (``contained`` checks a name against the
    folder as its links lead, so a folder linked out let every name in)."""
    try:
        return not folder.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError):  # a link loop
        return True


def contained(path: str | Path, folder: Path, key: str, where: Where | Path | str | None = None,
              stamps: Stamps | None = None) -> Path:
    """``path`` as the data names it (relative to ``folder``), resolved through symlinks; an
    InputError naming ``key`` unless it stays inside ``folder``. The one gate for every file a
    workspace's data points at: templates, includes, icons, drafts, fonts, art, spreadsheets.
    ``stamps``: the build's lstats (a deck's art, found by its cards and by its templates)."""
    line: int | None = None
    column: int | None = None
    if isinstance(where, Where):
        line, column = where.line, where.column
        where = where.path
    name = str(path)
    bad = name_control_char(name)
    if bad is not None:  # a line feed in a name split every message naming the file in two
        raise InputError(f"'{shown_name(name)}' holds {bad}", path=where, line=line, column=column, key=key,
                         expected=f"a file inside {folder}/ whose name has no control characters: rename the file "
                         "and write the new name here")
    if too_long(name):
        raise InputError(f"{name[:40]!r}… is too long for a file name", path=where, line=line, column=column,
                         key=key, expected=f"a file inside {folder}/, each part of its name at most "
                         f"{NAME_BYTES} bytes (UTF-8)")
    try:
        if name and "/" not in name and "\\" not in name and name not in (".", "..") \
                and not (stamps.is_link(folder / name) if stamps is not None else os.path.islink(folder / name)):  # a file right in the folder: no walk through every
            target = _real(folder) / name                # folder above it (a thousand cards' art)
        else:
            target = (folder / path).resolve()
        inside = within(target, _real(folder))
    except (OSError, RuntimeError, ValueError) as e:  # a symlink loop, a NUL byte, a name too long
        if isinstance(e, RuntimeError) or getattr(e, "errno", None) == errno.ELOOP:  # (3.13: OSError ELOOP)
            raise InputError(f"{name!r} is a link loop: a symbolic link that leads back to itself", path=where,
                             line=line, column=column, key=key,
                             expected=f"the file itself in {folder}/, or a link to it that ends there") from None
        target, inside = None, False
    if not inside or target is None:
        link = _link_leading_out(folder, name)  # the name stands in the folder, as a link: "is outside"
        if link is not None:                    # alone sent the designer looking for a '..' never written
            raise InputError(f"{name!r} is outside {folder.name}/: {link} is a link leading out of it",
                             path=where, line=line, column=column, key=key,  # (paths said from the workspace)
                             expected=f"the file itself copied into {folder}/ in place of the link: "
                             "pnpgen reads nothing outside the workspace")
        raise InputError(f"{str(path)!r} is outside {folder.name}/", path=where, line=line, column=column,
                         key=key, expected=f"a file inside {folder}/, named relative to it, without '..' "
                         "or links leading out")
    return target


def file_right_in(folder: Path, name: str, stamps: Stamps) -> tuple[Path, os.stat_result] | None:
    """``contained``'s answer with the file's stat, from one lstat, in the common case: ``name``
    a plain name (no folder, no '..', no control character, not too long) of a regular file right
    in ``folder``, a folder that is its own path through links, as the file's lstat says (a link
    is no regular file): inside by what it is. None for anything else, which ``contained`` then
    decides and tells. A thousand cards' art went through ``contained``'s every step (a second
    path made and compared with the folder's) and had its stat looked up again by that path."""
    if not name or "/" in name or "\\" in name or name in (".", "..") or name_control_char(name) is not None \
            or too_long(name) or _real(folder) != folder:
        return None
    listed = stamps.listed.get(folder)
    path = listed.get(name) if listed is not None else None
    if path is None:
        path = folder / name
    try:
        st = stamps.itself(path)  # (asked once per build: contained's is_link asks the same)
    except (OSError, ValueError):
        return None
    return (path, st) if S_ISREG(st.st_mode) else None


def _link_leading_out(folder: Path, name: str) -> str | None:
    """The link through which a name written plainly (no '..', not from the root) leads out of
    ``folder`` (``…/fonts/DejaVuSans.ttf``, a link to the system's copy, which the workspace's
    messages say as ``fonts/DejaVuSans.ttf``); None for a name that climbs out itself, or when no
    such link is found."""
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if not parts or ".." in parts or name.startswith(("/", "\\")) or Path(name).is_absolute():
        return None
    try:
        for n in range(1, len(parts) + 1):
            step = folder.joinpath(*parts[:n])
            if step.is_symlink() and not within(step.resolve(), _real(folder)):
                return str(step)
    except (OSError, RuntimeError, ValueError):  # a loop, a name the system refuses
        return None
    return None


def written_alike(rel: str, folders: Iterable[Path]) -> str | None:
    """The name of the file ``rel`` names in one of ``folders``, as it is written on the disk, when
    the two differ only in how characters are composed (Unicode NFC and NFD: ``ガ`` or ``カ`` +
    ``゛``). macOS writes names decomposed (a zip made there, a folder copied from it, a name
    copied from the Finder) and finds a file by either form, as Windows does; Linux compares
    bytes, so a print shop's or a CI build said "not found" of a file the designer's own build
    found. None when there is none, more than one, or ``rel`` is found as written. No link below
    a folder is followed (a folder itself may be one, art/ a link to the game's pictures, as the
    caller allows); the caller still checks the name with ``contained``."""
    wanted = PurePosixPath(unicodedata.normalize("NFC", rel))
    if wanted.is_absolute() or ".." in wanted.parts or "\\" in rel:
        return None
    found = set()
    for folder in folders:
        place, names = folder, []
        for part in wanted.parts:
            if not place.is_dir() or (place is not folder and place.is_symlink()):
                break
            same = [n for n in sorted(os.listdir(place))[:10000] if unicodedata.normalize("NFC", n) == part]
            if len(same) != 1:
                break
            names.append(same[0])
            place = place / same[0]
        else:
            if place.is_file() and not place.is_symlink():
                found.add("/".join(names))
    alike = found.pop() if len(found) == 1 else None
    return alike if alike != rel else None


def suggest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str:
    """``; did you mean X?`` for a near miss of one of ``choices`` (difflib, case-insensitive, at
    least ``cutoff`` alike), else nothing: for a mistyped command, option, game, deck or key; a
    character in ``word`` that shows as nothing or as another (``safetext.odd_char``) named."""
    import difflib

    by_lower = {c.lower(): c for c in choices}
    # (ｐｏｋｅｒ, typed with the input method on 全角: read as its half-width letters, hostile39)
    wide = any("\uff01" <= ch <= "\uff5e" for ch in word)
    narrow = "".join(chr(ord(ch) - 0xFEE0) if "\uff01" <= ch <= "\uff5e" else ch for ch in word).lower()
    close = difflib.get_close_matches(narrow, list(by_lower), n=1, cutoff=cutoff)
    if not close and len(word) >= 4:  # a word cut short (orient: for orientation:), when it starts one choice alone
        close = [c for c in by_lower if c.startswith(narrow)][:2]
        close = close if len(close) == 1 else []
    if not close:
        return ""
    odd = odd_char(word)  # (poker‐double for poker-double: the two look the same, the character is named)
    return f"; did you mean {by_lower[close[0]]}?" + (f" (what is written holds {odd})" if odd else "") \
        + (" (what is written is typed in full-width letters (全角))" if wide and not odd else "")


_PARSER_HINT = later(r",?\s*(?:try XML_PARSE_HUGE|use XML_PARSE_HUGE option)")


GZIP_MAGIC = b"\x1f\x8b"
COMPRESSED_SVG = "it is a compressed SVG (an .svgz, gzip) named .svg, which pnpgen does not unpack"
SAVE_UNCOMPRESSED = "the SVG saved uncompressed (Inkscape: Save As… Inkscape SVG or Plain SVG, not Compressed)"


def compressed_svg(path: Path | str) -> bool:
    """Whether an SVG the XML parser could not read starts as gzip does: an ``.svgz`` renamed
    ``.svg`` is told so, not as "Start tag expected, '<' not found"."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == GZIP_MAGIC
    except OSError:
        return False


def parser_said(message: str) -> str:
    """An XML parser's message on one line, as a designer reads it: libxml2's own limits (a value
    over 10 MB, nesting past 256) end in advice to the programmer ('try XML_PARSE_HUGE') and a
    line break, which split the one-line error in two."""
    said = " ".join(_PARSER_HINT.sub(" (more than pnpgen reads)", str(message)).split())
    return said.replace(" ,", ",")
