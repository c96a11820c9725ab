"""The spare: the big document a commit replaced, kept in the trash to be rewritten by the next
build of the same output rather than freed (issue 22).

A thousand illustrated cards make documents of 265 MB whose bytes are nearly all the pictures',
laid out first in the file (pdf/writer.py ``pictures_first``). After a text or count edit the new
document begins with the same bytes as the one it replaces, so instead of writing a gigabyte
anew, a build moves the replaced file (the *spare*) into its staging folder, cuts it where the
two first differ and writes only the rest.

The trash folder's sealed record ``.spares`` (HMAC-SHA256 under this machine's key, as the
journal's; naming the trash folder's inode too) holds, by output path:

- ``outputs``: each big document the last commits wrote, with its file's identity (device,
  inode, size, modification and change times: ``file_identity``) and its layout — each part of the ``PdfFile`` it was written
  from as (length, what it is: a stored part's content hash or file and stamp; ``""`` for bytes
  in memory, compared with the file's own bytes when reused);
- ``spares``: the trash entry each such document became when a commit replaced it (its identity
  there: the commit's move into the trash set its change time anew, so the commit checks the
  output's identity just before the move, ``Trash.take``, and records the entry's just after).

A spare is reused only while it is still exactly the file the record names (a regular file,
the same identity, a single name, open in no other program): a file someone hard-linked,
edited, replaced by a link, or a viewer still shows is never written into; the trash frees only its own name of it. The detached reclaim frees every
other entry of the trash, never a live spare; ``pnpgen clean`` frees spares too. A spare the
next commit of its output did not reuse is freed by that commit's reclaim.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import hmac
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.atomic import (
    TMP_SUFFIX,
    move_without_replacing,
    read_record,
    replace_whole,
    still_running,
)
from pnpgen.patterns import later
from pnpgen.pdf.assemble import PdfFile, Stored
from pnpgen.usercache import machine_seal

SPARES = ".spares"  # <trash>/.spares: the sealed record of the outputs' layouts and the spares
VERSION = 2  # 2: identities with the change time; a record of 1 (without) is not read: no spare, once
# <trash>/.spares.<pid>-<thread>.pnpgen-tmp: the record's tmp_beside, which a run killed as it wrote it left
SPARES_TEMPORARY = later(r"\.spares\.([0-9a-f]+)-[0-9a-f]+" + re.escape(TMP_SUFFIX))


def layout_of(data: PdfFile, places: dict[Stored, str] | None = None,
              named: dict[int, tuple[Stored, str]] | None = None) -> str:
    """Each part of ``data`` as ``length:what``, joined by ``;``: ``what`` empty for bytes in
    memory, a stored part as ``_identity`` names it. One string, not a list: the record is read
    by every build and reclaim, and only the layout of a document being written is taken apart.
    ``places``: each stored part's place as ``_where`` hashed it, kept for the build's other
    documents (a deck's four show the same pictures: 3,000 cards' are 50,000 parts each);
    ``named``: the stored parts named already (by the part itself), shared by the documents of
    one commit."""
    places = {} if places is None else places
    named = {} if named is None else named
    out = []
    for p in data.parts:
        if isinstance(p, bytes):
            out.append(f"{len(p)}:")
            continue
        seen = named.get(id(p))  # (the documents of a build share their pictures' parts)
        if seen is None or seen[0] is not p:
            seen = named[id(p)] = (p, f"{p.size}:{_identity(p, places)}")
        out.append(seen[1])
    return ";".join(out)


@dataclass(eq=False)
class Layouts:
    """The layouts (``layout_of``) of one build's big documents, each made once: the spare of a
    document is found by comparing its recorded layout with the new one, which the commit then
    records as it is (3,000 cards: four documents of 17,000 parts each, taken apart twice a build
    before). With the stored parts' places and names, shared by the build's documents (a deck's
    four show the same pictures)."""

    places: dict[Stored, str] = field(default_factory=dict)
    named: dict[int, tuple[Stored, str]] = field(default_factory=dict)  # layout_of's
    made: dict[int, tuple[PdfFile, tuple, str]] = field(default_factory=dict)  # by the document's id

    def of(self, data: PdfFile) -> str:
        """``data``'s layout (its parts are a tuple of frozen parts and bytes: made once, it holds)."""
        kept = self.made.get(id(data))
        if kept is not None and kept[0] is data and kept[1] is data.parts:
            return kept[2]
        text = layout_of(data, self.places, self.named)
        self.made[id(data)] = (data, data.parts, text)
        return text

    def keep(self, data: PdfFile, text: str) -> None:
        """``text``, made by ``of`` before ``data``'s parts were let go of, stays its layout."""
        self.made[id(data)] = (data, data.parts, text)

    def let_go_of_names(self) -> None:
        """Forget the parts' places and names (a document whose layout is not made yet names them again)."""
        self.places.clear()
        self.named.clear()


def _identity(part: Stored, places: dict[Stored, str]) -> str:
    """A stored part by its content hash, by its file's place and stamp, or both (whichever the
    build knew: a picture's pieces in its art file are hashed once a build has read them); each
    shortened (a thousand pictures' documents are 18,000 parts; a collision would also need the
    same length, in a spare sealed by this machine)."""
    return f"{(part.sha or '')[:16]}/{_where(part, places)}"


def _where(part: Stored, places: dict[Stored, str]) -> str:
    """The part's file, offset and stamp, hashed short (once per part: ``places``)."""
    found = places.get(part)
    if found is None:
        found = places[part] = "" if part.stamp is None else hashlib.blake2b(
            f"{part.path}\0{part.offset}\0{list(part.stamp)}".encode(), digest_size=8).hexdigest()
    return found


def _same(recorded: str, part: Stored, places: dict[Stored, str]) -> bool:
    """Is ``part`` the stored part the layout recorded (``_identity``)? The same content hash, or
    the same place in a file of the same stamp."""
    sha, _, where = recorded.partition("/")
    if sha and part.sha is not None:
        return part.sha.startswith(sha)
    return bool(where) and where == _where(part, places)


def file_identity(st: os.stat_result) -> list[int]:
    """Device, inode, size, modification and change times: the change time is what a file made
    since in the place of one freed lacks, though it may get the freed inode's number back at
    once (ext4 does) and its modification time from a copy (``cp -p``); the kernel sets it as a
    file is made, written, renamed or its mode changed, and no call sets it back."""
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


IDENTITY = 5  # the numbers of ``file_identity``


@dataclass
class Record:
    """The ``.spares`` record of a trash folder (empty when there is none that holds)."""

    outputs: dict[str, list] = field(default_factory=dict)  # rel → [*file_identity, layout]
    spares: dict[str, list] = field(default_factory=dict)  # rel → [entry, *file_identity, layout]

    def write(self, trash: Path) -> None:
        """Written anew (atomically); removed when it holds nothing."""
        if not self.outputs and not self.spares:
            (trash / SPARES).unlink(missing_ok=True)
            return
        text = json.dumps({"version": VERSION, "trash": trash.lstat().st_ino, "outputs": self.outputs,
                           "spares": self.spares}, separators=(",", ":")).encode()
        replace_whole(trash / SPARES, json.dumps({"check": machine_seal(text)}).encode() + b"\n" + text)

    def spare_names(self, trash: Path) -> set[str]:
        """The trash entries that are live spares: still the very files the record names."""
        return {str(s[0]) for s in self.spares.values() if _still(trash / str(s[0]), s[1:1 + IDENTITY])}


def read(trash: Path) -> Record:
    """The trash folder's record, when this machine sealed it beside this very folder."""
    try:
        head, _, text = read_record(trash / SPARES).partition(b"\n")
        if not hmac.compare_digest(str(json.loads(head).get("check")), machine_seal(text)):
            return Record()
        body = json.loads(text)
        if body.get("version") != VERSION or body.get("trash") != trash.lstat().st_ino:
            return Record()
        outputs = {str(k): v for k, v in body.get("outputs", {}).items() if _sound(v, IDENTITY)}
        spares = {str(k): v for k, v in body.get("spares", {}).items()
                  if _sound(v[1:], IDENTITY) and isinstance(v[0], str) and "/" not in v[0] and v[0].isascii()}
        return Record(outputs, spares)
    except (OSError, ValueError, TypeError, AttributeError, IndexError, KeyError):
        return Record()


def _sound(v: object, n: int) -> bool:
    """An identity of ``n`` integers followed by a layout."""
    return isinstance(v, list) and len(v) == n + 1 and all(type(x) is int for x in v[:n]) and isinstance(v[n], str)


def _still(path: Path, identity: list) -> bool:
    """Is ``path`` still the file of ``identity``, with no other name (a hard link is someone's)?"""
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and file_identity(st) == list(identity)


def promote(trash: Path, moved: Iterable[tuple[str, str]], removed: Iterable[str], token: str,
            taken: Mapping[str, tuple[list[int], list[int]]]) -> Record | None:
    """After a commit moved the files it replaced into the trash (``moved``: entry name, output
    path; ``taken``: by entry name, the file's identity just before this run moved it and just
    after, ``Trash.take``): each that was the document the record knows becomes that output's
    spare, in place of the one before (freed then, by the reclaim); what the commit removed keeps
    none. A file a killed run of the commit moved keeps none (its identity before the move is
    not known). Done again by a recovery it gives the same record. Returns the record as written
    (None when none was: ``note_outputs`` then reads the folder's)."""
    if trash.is_symlink() or not trash.is_dir():
        return None
    record = read(trash)
    if not record.outputs and not record.spares:
        return None
    for entry, rel in moved:
        known, moves = record.outputs.pop(rel, None), taken.get(entry)
        if known is not None and moves is not None and moves[0] == known[:IDENTITY] and _still(trash / entry, moves[1]):
            record.spares[rel] = [entry, *moves[1], known[IDENTITY]]
        elif rel in record.spares and not str(record.spares[rel][0]).startswith(f"{token}-"):
            del record.spares[rel]  # (this commit's own, when a killed run of it got this far)
    for rel in removed:
        record.outputs.pop(rel, None)
        record.spares.pop(rel, None)
    try:
        record.write(trash)
    except OSError:
        return None  # (no record: no spare kept, every entry freed)
    return record


def note_outputs(root: Path, trash: Path, written: Mapping[Path, PdfFile], layouts: Layouts | None = None,
                 record: Record | None = None) -> None:
    """Record the big documents a commit put in place, with their layouts, for the commit that
    will replace them (``promote``). Nothing lost but a quicker next build if it cannot be.
    ``layouts``: the build's, holding those made already (``find``). ``record``: the one this
    commit's ``promote`` wrote a moment before, under the folder's lock (else read): a 3,000-card
    deck's record, 4.5 MB, was read and checked three times a commit (docs/speed-rounds.md, records46)."""
    layouts = Layouts() if layouts is None else layouts
    if not written or trash.is_symlink() or (trash.exists() and not trash.is_dir()):
        return
    for attempt in range(2):  # (a reclaim still running may remove the folder it found empty)
        try:
            trash.mkdir(exist_ok=True)
            if record is None or attempt or not (trash / SPARES).is_file():  # (freed since, by a reclaim done here)
                record = read(trash)
            for path, data in written.items():
                rel = path.relative_to(root).as_posix()
                st = path.lstat()
                if stat.S_ISREG(st.st_mode):
                    record.outputs[rel] = [*file_identity(st), layouts.of(data)]
            record.write(trash)
            return
        except OSError:
            continue


@dataclass
class Spare:
    """A spare found fit for a new document: its trash entry, identity, and how much of it holds
    the new document's first bytes (``size`` bytes, its first ``parts`` parts)."""

    entry: Path
    identity: list
    size: int
    parts: int
    # what puts a spare not rewritten back into the trash under a sealed record of its own
    # (``trash.take_back``, given by the build's staging): its file, and what tells it is still that file
    give_back: Callable[[Path, Callable[[Path], bool]], bool] | None = None

    def open_as(self, staged: Path, mode: int) -> tuple[int, int] | None:
        """Move the spare to ``staged`` (a name the staging folder's record holds already), cut
        after the common bytes: its descriptor, positioned there, and the first part still to
        write. None when it cannot be rewritten: moved out of ``staged`` again (``_put_back``), or
        freed when it was cut already (its trash record no longer names it), and ``staged`` is
        then free for a new file. Checked before the move (all of its identity) and after it,
        held open (the move sets its change time anew: the rest of it)."""
        if not _still(self.entry, self.identity):
            return None
        try:
            os.rename(self.entry, staged)
        except OSError:
            return None
        flags = os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(staged, flags)
        except OSError:
            self._put_back(staged, None)
            return None
        held: os.stat_result | None = None  # (pnpgen's spare, once its identity is seen)
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and file_identity(st)[:4] == list(self.identity[:4]):
                held = st
            if held is not None and st.st_nlink == 1 and _open_nowhere_else(fd):
                os.ftruncate(fd, self.size)
                os.lseek(fd, self.size, os.SEEK_SET)
                os.fchmod(fd, mode)
                return fd, self.parts
        except OSError:
            pass
        try:
            if not (held is not None and _cut(fd, self.identity) and _freed(staged, held)):
                self._put_back(staged, held)
        finally:
            os.close(fd)
        return None

    def _put_back(self, staged: Path, held: os.stat_result | None) -> None:
        """Move what ``open_as`` took out of the staging folder's names, which are deleted with it:
        back into the trash (made again, if a reclaim removed it once it was empty), never over a
        file that took the entry's name meanwhile. pnpgen's own spare (``held``: the file held
        open) goes there under a new entry's name and sealed record (engine/trash.py): its move
        set its change time anew, so the record it was taken under names it no more. Where it
        cannot go back, pnpgen's own spare loses this name of it, and any other file stays in the
        staging folder under a name its record does not hold — kept and said when the folder is
        removed, never deleted."""
        if held is not None and _is_held(staged, held):
            if self.give_back is not None and self.give_back(staged, lambda path: _is_held(path, held)):
                return
            if not _freed(staged, held):
                os.rename(staged, staged.with_name(f"{staged.name}.not-written-by-pnpgen"))
            return
        if move_without_replacing(staged, self.entry):
            return
        try:
            self.entry.parent.mkdir(exist_ok=True)
        except OSError:
            pass
        if move_without_replacing(staged, self.entry):
            return
        os.rename(staged, staged.with_name(f"{staged.name}.not-written-by-pnpgen"))


def _is_held(path: Path, held: os.stat_result) -> bool:
    """Is ``path`` the very file ``held`` open (its inode no other file's while it is open)?"""
    try:
        return os.path.samestat(path.lstat(), held)
    except OSError:
        return False


def _cut(fd: int, identity: list) -> bool:
    """Is pnpgen's spare open at ``fd`` no longer the size its trash record names (cut before a
    later step failed; unknown: yes)? Back in the trash, the reclaim would take it for a stranger."""
    try:
        return os.fstat(fd).st_size != identity[2]
    except OSError:
        return True


def _freed(staged: Path, held: os.stat_result) -> bool:
    """Free ``staged`` when it is still the very file ``held`` open (pnpgen's spare, proven by the
    record it was taken under; open, its inode is no other file's); False, touching nothing, for any other."""
    try:
        if not _is_held(staged, held):
            return False
        staged.unlink()
    except OSError:
        return False
    return True


def _open_nowhere_else(fd: int) -> bool:
    """Does no other descriptor or mapping hold the file of ``fd`` (ours, open for writing)? A PDF
    viewer showing the last document, or a print job reading it, holds the very file that became
    the spare: rewritten, it would read the new bytes, or none where the file was cut. Asked by
    taking a write lease, which Linux grants only then, and giving it back at once; unknown (no
    leases on this file system, not the file's owner): no."""
    if not hasattr(fcntl, "F_SETLEASE"):
        return False
    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
    except OSError:
        return False
    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    except OSError:
        pass
    return True


def find(trash: Path, record: Record, rel: str, data: PdfFile, minimum: int,
         layouts: Layouts | None = None,
         give_back: Callable[[Path, Callable[[Path], bool]], bool] | None = None) -> Spare | None:
    """The spare of output ``rel`` when it is still the file its record names and holds at least
    ``minimum`` of the new document's first bytes (read only where they are bytes in memory: a
    picture is known by its layout). ``layouts``: the build's (``Layouts``): the new document's
    layout, made here, is the one the commit records."""
    layouts = Layouts() if layouts is None else layouts
    known = record.spares.get(rel)
    if known is None or trash.is_symlink() or not trash.is_dir():
        return None
    entry, identity, layout = trash / str(known[0]), known[1:1 + IDENTITY], known[1 + IDENTITY]
    if not _still(entry, identity):
        return None
    try:
        fd = os.open(entry, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if file_identity(os.fstat(fd)) != list(identity):
            return None
        items = layout.split(";")
        same = _same_text(items, layouts.of(data).split(";"))
        at, parts = _held(fd, data.parts, items, 0, 0, same, layouts.places)
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    if at < minimum or at > identity[2]:
        return None
    return Spare(entry, identity, at, parts, give_back)


def _same_text(a: list[str], b: list[str], step: int = 256) -> int:
    """How many first items ``a`` and ``b`` have alike, compared a run of ``step`` at a time."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i:i + step] == b[i:i + step]:
        i += step
    while i < n and a[i] == b[i]:
        i += 1
    return min(i, n)


def _held(fd: int, new: tuple, items: list[str], at: int, parts: int, same: int,
          places: dict[Stored, str]) -> tuple[int, int]:
    """Where the spare open at ``fd`` (its layout's ``items``) stops holding the parts ``new``
    begins with: its bytes and its number of parts. Its first ``same`` items are written as the
    new layout writes them: a stored part whose text names it is the same part (unless it is
    named by nothing), bytes in memory are read back and compared; after them, each recorded
    part is compared with the new one (a picture hashed since, or no longer)."""
    for part in new[:same]:
        if isinstance(part, bytes):
            if os.pread(fd, len(part), at) != part:
                return at, parts
            at += len(part)
        elif part.sha is None and part.stamp is None:  # (named by nothing: "size:/", never the same)
            return at, parts
        else:
            at += part.size
        parts += 1
    for part, item in zip(new[same:], items[same:], strict=False):
        length, _, what = item.partition(":")
        n = int(length) if length.isdigit() else -1
        if isinstance(part, bytes):
            if what or n != len(part) or os.pread(fd, n, at) != part:
                break
        elif n != part.size or not _same(what, part, places):
            break
        at += n
        parts += 1
    return at, parts


def freed_for_room(trash: Path, e: OSError) -> bool:
    """After a build ran out of room (``e``), its staging folder removed (with the spares it had
    taken to rewrite): every other live spare freed too, and the record of spares emptied; True
    when it named any, so that the build is written again, once. The spares cost the disk one old
    copy of each big document; a build that would fit without them must not fail for want of room
    pnpgen itself holds."""
    if e.errno not in (errno.ENOSPC, errno.EDQUOT) or trash.is_symlink() or not trash.is_dir():
        return False
    record = read(trash)
    if not record.spares:
        return False
    for name in record.spare_names(trash):
        (trash / name).unlink(missing_ok=True)
    record.spares = {}
    try:
        record.write(trash)
    except OSError:
        (trash / SPARES).unlink(missing_ok=True)
    return True


def left_temporaries(trash: Path, while_building: bool) -> list[Path]:
    """The temporaries of the record that killed runs left (regular files of exactly its
    temporary's name). ``while_building`` (the detached reclaim, which a next build may run
    beside): only those whose writing process is gone, never one a build is writing now."""
    try:
        entries = list(os.scandir(trash))
    except OSError:
        return []
    return [Path(e.path) for e in entries if (m := SPARES_TEMPORARY.fullmatch(e.name))
            and e.is_file(follow_symlinks=False) and not (while_building and still_running(int(m.group(1), 16)))]


def kept(trash: Path) -> set[str]:
    """The names of the trash's live spares: a reclaim leaves them (and the records naming them)."""
    return read(trash).spare_names(trash)
