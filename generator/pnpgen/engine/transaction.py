"""One transaction over an output folder: after a build or an export, killed at any instant
(``kill -9``, SIGTERM, a power cut of the process), the folder holds the complete old set of
files or, once the next pnpgen run has looked at it, the complete new set — never some of each.

1. Every new or changed file is written into ``<root>/.pnpgen-staging/`` (inside the folder, so
   the final renames stay on one file system); a big document as soon as the build has made it,
   by a process of its own, while the build goes on (``Staging``). Before each is made, a sealed
   record ``<staging>/.staged`` says how many names (``000000`` on) this build took there: only
   those are ever deleted from it (a file a designer put there, whatever its name, stays, and is
   said). A folder standing where an output goes, or a file where one of its folders goes, is an
   error here, before anything is replaced.
2. The journal ``<root>/.pnpgen-journal`` is written beside it and renamed into place: that rename
   is the commit. It lists each staged file's target and every file the new set no longer has.
3. The staged files are renamed over their targets and the stale files removed; then the
   journal and the staging folder go. A stale file whose name is a new one's in other letter case
   or Unicode form (deck ``Cards`` renamed ``cards``) is removed before that one is moved in:
   on Windows and macOS the two names are one file. A replaced or removed big file is first moved into the
   trash, to be freed by a process of its own (engine/trash.py says why and how); the latest
   replaced file of each big document stays there as its *spare* (engine/spare.py).

Before anything else, every build and export under the folder's lock runs ``recover``: a journal
left by a killed commit is carried out to the end (rolled forward; each step can be done again);
a staging folder without a journal, from a run killed before its commit, is removed (rolled
back). A build folder can come from elsewhere (a zip, a shared drive, git) with a journal and a
staging folder in it, which rolled forward would put planted bytes in the place of outputs, or
of the designer's own files, and remove others. So the journal is sealed as the build cache's
records are (HMAC-SHA256 under this machine's key, ``usercache.secret``), and only a journal
whose seal holds is rolled forward; any other (unsealed, sealed elsewhere or under an earlier
key, damaged, an earlier pnpgen's) is rolled back — its staging folder and itself removed, no
file of the folder touched — and ``recover`` says so in one line on stderr. Without a machine key
(``PNPGEN_CACHE=off``, or a machine cache that cannot be written) the seal is the SHA-256 of the
journal's text, and the journal must also name the staging folder it sits beside by the mark it
was made with (``journal.staging_mark``: its empty file's inode and change time; a folder unpacked
from a zip or a clone, or copied in place of the real one, gets numbers no one could know when it
was packed — its inode number may be the real one's, given back by ext4, never its change time).
Even a sealed journal is not trusted blindly: only plain relative paths below the folder,
staged files from a real staging folder of its own (a link would bring in files from elsewhere),
staged names pnpgen gives, and no folder on the way that is a link.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path

from pnpgen.atomic import replace_whole, write_new
from pnpgen.engine import spare, trash
from pnpgen.engine.journal import (
    JOURNAL,
    STAGED,
    STAGING,
    VERSION,
    journal_bytes,
    make_staging,
    recover,
    remove_staging,
    seal,
    signals_deferred,
    staging_mark,
)
from pnpgen.engine.output import (
    OWNER,
    build_lock,
    current_umask,
    locked,
    make_folder,
    named,
    refuse_other_workspace,
    unchanged,
    unwritable,
)
from pnpgen.engine.stagecopy import Copier, DocumentCopy, stage_file
from pnpgen.engine.trash import TRASH
from pnpgen.errors import InputError
from pnpgen.pdf.assemble import PdfFile, SourceChanged, Stored, stat_stamp
from pnpgen.safetext import same_file, shown

PAUSE_ENV = "PNPGEN_TEST_PAUSE_BEFORE_COMMIT"  # tests of interrupted builds: see _pause_for_tests
BIG_DOCUMENT = 8 << 20  # bytes: staged by a process (or a thread) of its own beside the other big ones
BIG_ENTRY = 1 << 20  # bytes: a pack of the cache staged as it is made, by the build's own process (``early_entry``)
# Where a big document is copied by a process forked for it (``DocumentCopy``): where the kernel copies
# files (Linux). Elsewhere, threads of this process.
FORKS = hasattr(os, "fork") and hasattr(os, "copy_file_range")


def commit(root: Path, files: Mapping[Path, bytes | PdfFile], remove: Iterable[Path] = (),
           staging: Staging | None = None, later: list[Path] | None = None) -> list[Path]:
    """Replace the files of ``root`` by ``files`` and remove ``remove``, all or nothing (see the
    module's note); returns the paths whose content changed. Run under the folder's lock.
    ``staging``: the build's, holding the big documents it began to copy while it went on.
    ``later``: the old small files go into the trash too, for the caller to free after its
    summary (``journal.recover``'s ``later``)."""
    staging = staging if staging is not None else Staging(root)
    if not staging.open:
        recover(root)
    owner = files.get(root / OWNER)  # (two workspaces' first builds at once: each claimed the folder while it had none)
    if isinstance(owner, bytes):
        refuse_other_workspace(root, Path(os.fsdecode(owner.rstrip(b"\n"))))
    gone = sorted(p for p in remove if p not in files and (p.is_file() or p.is_symlink()))
    # a file of the new set whose name a stale one has in other letter case: on Windows and
    # macOS "unchanged" read the stale file, which goes, so it is always written anew
    respelled = {same_file(str(p)) for p in gone}
    todo = {p: d for p, d in sorted(files.items())
            if staging.holds(p, d) or not unchanged(p, d) or same_file(str(p)) in respelled}
    staging.keep_only(todo)
    if not todo and not gone:
        return []
    checked: set[Path] = set()
    for path in [*todo, *gone]:
        try:
            _check_way(root, path)
            _check_writable(root, path.parent, checked)
        except OSError as e:  # a name too long, a folder we may not read
            raise InputError(f"cannot write {path.name[:60]}: {e.strerror}", path=root, key="--out",
                             expected="a folder you may write to; nothing was replaced") from None
    folder = root / STAGING
    try:
        staging.begin()
        names = [(staging.name_of(path, data), path, data) for path, data in todo.items()]
        staging.seal()  # before any of them is made
        # documents of many pictures are copied side by side (the kernel copies, this process waits)
        big = {name for name, path, data in names if isinstance(data, PdfFile) and data.size >= BIG_DOCUMENT
               and not staging.holds(path, data)}
        for name, path, data in names:
            if name in big and FORKS and isinstance(data, PdfFile):
                staging.copies[path] = DocumentCopy(folder / name, data, staging.mode, staging.spare_for(path, data),
                                                    fork=staging.beside, copier=staging.copier)
        side_by_side = not FORKS and staging.beside and len(big) > 1 and (os.cpu_count() or 1) > 1
        if side_by_side:  # (concurrent.futures imported only then: a build imports nothing it does not use)
            from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(max_workers=min(len(big), 4)) if side_by_side else nullcontext() as pool:
            copying = [pool.submit(stage_file, folder / name, data, staging.mode) for name, _, data in names
                       if name in big] if pool is not None else []
            for name, path, data in names:
                if not (staging.holds(path, data) or (pool is not None and name in big)):
                    stage_file(folder / name, data, staging.mode)
            for job in copying:  # a failed copy raises here, after every copy has ended
                job.result()
        staging.wait()
        staging.check()
        moves = [(name, path.relative_to(root).as_posix()) for name, path, _ in names]
        _pause_for_tests()
        body = {"version": VERSION, "moves": moves, "remove": [p.relative_to(root).as_posix() for p in gone],
                "token": f"{time.time_ns():x}",  # names this commit's trash entries apart from an earlier one's
                "staging": staging_mark(folder)}
        new = root / (JOURNAL + ".new")
        write_new(new, journal_bytes(body))
    except SourceChanged as e:
        staging.discard()
        raise InputError(f"{Path(e.path).name} was saved again while the build wrote the documents that show it",
                         path=e.path, expected="build again: the last good files are kept") from None
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):  # (the commit may be tried again: ``freed_for_room``)
            with contextlib.suppress(OSError):  # (else the commit tried again says what stops it)
                staging.take_back()  # the documents it let go of, read before their staged copies go
        staging.discard()
        if spare.freed_for_room(root / TRASH, e):  # (the room it lacked was held by pnpgen's own spares)
            return commit(root, files, remove, Staging(root, staging.beside), later)
        raise unwritable(root, e) from None
    except BaseException:
        staging.discard()
        raise
    with signals_deferred():
        os.replace(new, root / JOURNAL)  # the commit: from here on the new set is what the folder holds
        staging.open = False
    promoted: list[spare.Record] = []  # (the trash's record of spares as the journal's last step wrote it)
    recover(root, later, promoted)
    if FORKS:  # (the documents a spare can be made of: engine/spare.py)
        spare.note_outputs(root, root / TRASH, {p: d for p, d in todo.items() if isinstance(d, PdfFile)
                                                and d.size >= BIG_DOCUMENT and p not in staging.entries},
                           staging.layouts, promoted[0] if promoted else None)
    return list(todo)


class Staging:
    """The staging folder of a build under way. A big document (``BIG_DOCUMENT``) is copied into
    it as soon as the build has made it (``early``), by a process forked for it (``DocumentCopy``), while
    the build goes on with the rest — the manifest, the records, the next game — and the commit
    then only waits for what is left of the copy. From the first such copy to the end of the
    commit the folder's lock is held (a build that finds it taken copies nothing early) and the
    folder stays pnpgen's, so the commit does not ``recover`` again; leaving the ``with`` block
    any other way than by the commit (an error, Ctrl-C) stops the copies and removes the staging
    folder with what it holds, as a commit that fails does. A kill -9 leaves a staging folder and
    no journal: the next run rolls it back."""

    def __init__(self, root: Path, beside: bool = True) -> None:
        self.root, self.folder = root, root / STAGING
        # big documents copied beside the build's own work: by processes forked for them, or threads
        # where processes do not fork (False: by the build's own thread, --jobs 1)
        self.beside = beside
        self.copies: dict[Path, DocumentCopy] = {}  # the documents being copied (or copied), by their output path
        self.copier: Copier | None = None  # the process that copies them, when forked early (``fork_copier``)
        self.open = False  # the staging folder is this build's, made under the lock held
        self.count = 0  # staged files so far (their names: 000000 on)
        self._sealed = 0  # how many names the staging folder's record holds
        self.mode = 0o666 & ~current_umask()
        self._lock: ExitStack | None = None  # the folder's lock, taken for the first early copy
        self._refused = False  # early copies are not to be (the lock taken, a folder in the way)
        self._spares: spare.Record | None = None  # the trash's record of spares, read once
        self.layouts = spare.Layouts()  # the big documents' layouts (their stored parts' places hashed once a build)
        # the documents held in memory that ``early`` wrote here and let go of (``PdfFile.now_in``)
        self.let_go: list[PdfFile] = []
        self.entries: set[Path] = set()  # the cache's packs ``early_entry`` wrote here (no spare is kept of them)

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.discard()
        finally:
            if self._lock is not None:
                self._lock.close()
                self._lock = None

    def early(self, path: Path, data: bytes | PdfFile) -> None:
        """Begin copying ``data``, a file of the new set at ``path``, when it is a big document
        that is not the same as the file there; nothing done where that is not for now."""
        if not (FORKS and isinstance(data, PdfFile) and data.size >= BIG_DOCUMENT) or self._refused \
                or self.holds(path, data) or not self._claim():
            return
        try:
            if path in self.copies:  # (another file for the same path: the last one is the one written)
                self.copies.pop(path).cancel()
            if unchanged(path, data):
                return
            name = self.name_of(path, data)
            self.seal()
            copy = self.copies[path] = DocumentCopy(self.folder / name, data, self.mode, self.spare_for(path, data),
                                                    fork=self.beside, copier=self.copier)
            if data.in_memory() and not copy.pid:  # written whole here: its bytes let go of
                self._let_go(path, copy)
        except OSError:  # (the commit tries again, and says what stops it)
            self._refused = True

    def fork_copier(self) -> None:
        """The process that will copy the big documents (``Copier``), forked now: once the
        converting workers are, while the build's heap is write-protected for them anyway. Where
        documents are copied beside the build (not ``--jobs 1``) by processes (``FORKS``); once."""
        if self.beside and FORKS and self.copier is None:
            self.copier = Copier.fork()

    def early_entry(self, path: Path, data: bytes) -> bytes | PdfFile:
        """A big entry of the build cache (a pack: the converted faces, the renders, the forms, some
        20 MB each at 5,000 text cards), ``data`` at ``path``, written into the staging folder by this
        process now and its bytes let go of: what stands for it in the new set, read from its staged
        copy if read again (``PdfFile.now_in``); ``data`` itself where it is small, the same as the
        file there, or cannot be staged now (the commit writes it, and says what stops it). Held to
        the commit, a 5,000-card build's packs were some 80 MB at its peak."""
        if len(data) < BIG_ENTRY or self._refused or not self._claim():
            return data
        held = PdfFile((data,))
        try:
            if path in self.copies:  # (another entry for the same path: the last one is the one written)
                self.copies.pop(path).cancel()
            if unchanged(path, data):
                return data
            name = self.name_of(path, held)
            self.seal()
            copy = self.copies[path] = DocumentCopy(self.folder / name, held, self.mode)
            held.now_in(copy.path, digest=False)  # (no record names a pack by its digest)
        except OSError:  # (staged again by the commit, which says what stops it)
            self._refused = True
            return data
        self.let_go.append(held)
        self.entries.add(path)
        return held

    def let_go_of_copied(self) -> None:
        """The bytes in memory of each document whose copy has ended well and whose digest is made
        (the game's records are) let go of: read from its staged copy from then on (3,000
        illustrated cards: four documents, some 23 MB no longer held to the commit)."""
        for path, copy in list(self.copies.items()):
            data = copy.data
            if isinstance(data, PdfFile) and data.digested() and not any(d is data for d in self.let_go) \
                    and copy.ended_well():
                try:
                    self._let_go(path, copy)
                except OSError:  # (staged again by the commit, which says what stops it)
                    pass

    def _let_go(self, path: Path, copy: DocumentCopy) -> None:
        """``copy``'s document, written whole, read from its staged copy from now (``PdfFile.now_in``)."""
        data = copy.data
        assert isinstance(data, PdfFile)
        layout = self.layouts.of(data)  # (the commit's record of it, made from its parts in memory)
        try:
            data.now_in(copy.path)
        except OSError:  # (not the file written: staged again by the commit)
            self.copies.pop(path).path.unlink(missing_ok=True)
            raise
        self.layouts.keep(data, layout)
        self.let_go.append(data)

    @contextmanager
    def lock(self) -> Iterator[None]:
        """The folder's build lock for the commit: held since the first early copy, or taken now
        (waiting for another build); released when the block ends."""
        if self._lock is None:
            with build_lock(self.root):
                yield
            return
        try:
            yield
        finally:
            self._lock.close()
            self._lock = None

    def _claim(self) -> bool:
        """The folder's lock without waiting, a killed run's commit finished or undone, and the
        staging folder made: False (and no more tries) where that cannot be."""
        if self.open:
            return True
        lock = ExitStack()
        try:
            lock.enter_context(build_lock(self.root, wait=False))
            recover(self.root)
            make_staging(self.folder)
        except (InputError, OSError):
            lock.close()
            self._refused = True
            return False
        self._lock, self.open = lock, True
        return True

    def begin(self) -> None:
        """The staging folder made, for the commit (made already when copies began early)."""
        if self.open:
            return
        make_folder(self.root)
        try:
            make_staging(self.folder)
        except OSError as e:
            raise unwritable(self.root, e) from None
        self.open = True

    def spare_for(self, path: Path, data: PdfFile) -> spare.Spare | None:
        """The replaced file of ``path`` kept to be rewritten (engine/spare.py), when it fits ``data``."""
        if self._spares is None:
            self._spares = spare.read(self.root / TRASH)
            self._spares.outputs.clear()  # (the layouts of the files in place: not what a spare is found by)
        return spare.find(self.root / TRASH, self._spares, path.relative_to(self.root).as_posix(), data, trash.RECLAIM_MIN,
                          self.layouts, give_back=lambda spare_file, still: trash.take_back(self.root / TRASH, spare_file, still))

    def staged_early(self) -> None:
        """A game's big documents are all in ``early``'s hands: the names of their stored parts
        let go of (3,000 cards: some 5 MB while the rest of the game is made), their layouts kept
        for the commit to record; the bytes of those copied already let go of (``let_go_of_copied``)."""
        self.let_go_of_copied()
        self.layouts.let_go_of_names()

    def holds(self, path: Path, data: bytes | PdfFile) -> bool:
        """Is ``data`` being copied (or copied) for ``path``?"""
        copy = self.copies.get(path)
        return copy is not None and copy.data is data

    def name_of(self, path: Path, data: bytes | PdfFile) -> str:
        """The name ``data`` has in the staging folder: its copy's, or the next free one."""
        if self.holds(path, data):
            return self.copies[path].path.name
        self.count += 1
        return f"{self.count - 1:06d}"

    def seal(self) -> None:
        """The staging folder's sealed record of the names taken so far, written (atomically) before
        the files are made: a run killed at any instant leaves each file of its own named there."""
        if self.count == self._sealed:
            return
        mark = staging_mark(self.folder)
        if mark is None:  # (removed by another program: no record could name this folder)
            raise FileNotFoundError(errno.ENOENT, "the staging folder's mark is gone", str(self.folder / ".made"))
        text = json.dumps({"version": VERSION, "staged": self.count, "staging": mark}).encode()
        replace_whole(self.folder / STAGED, json.dumps({"check": seal(text)}).encode() + b"\n" + text)
        self._sealed = self.count

    def keep_only(self, files: Mapping[Path, bytes | PdfFile]) -> None:
        """Stop and remove the copies of what is not among ``files`` (another file for its path)."""
        for path in [p for p in self.copies if not (p in files and self.holds(p, files[p]))]:
            copy = self.copies.pop(path)
            copy.cancel()
            copy.path.unlink(missing_ok=True)

    def wait(self) -> None:
        """Every copy ended: ``SourceChanged`` or ``OSError`` if one failed (the others ended too)."""
        failed: BaseException | None = None
        for copy in self.copies.values():
            try:
                copy.wait()
            except OSError as e:
                failed = failed or e
        if failed is not None:
            raise failed

    def check(self) -> None:
        """Each document copied early is still the file written: its size, and where its bytes were
        let go of its modification and change times and inode too (``now_in``'s stamp). Another program writing
        into the staging folder before the commit (a file cut short or written over) would have it
        publish bytes its records' digest does not name: refused, the last good files kept."""
        for copy in self.copies.values():
            data = copy.data
            held = data.parts[0] if any(d is data for d in self.let_go) else None
            try:
                st = os.stat(copy.path)
                same = stat_stamp(st) == tuple(held.stamp) \
                    if isinstance(held, Stored) and held.stamp is not None else st.st_size == data.size
            except FileNotFoundError:
                same = False
            if not same:
                raise InputError(f"{shown(named(copy.path))} was changed by another program before the commit "
                                 "(its staged copy of the new set)", path=self.root, key="--out",
                                 expected=f"nothing else writing into {STAGING}/ while a build runs; build again: "
                                 "the last good files are kept")

    def take_back(self) -> None:
        """The documents ``early`` let go of read back into memory, for a commit tried again in a
        new staging folder (``commit``: room freed in the trash)."""
        for data in self.let_go:
            data.take_back()
        self.let_go = []

    def discard(self) -> None:
        """Stop the copies, and remove the staging folder and what it holds unless committed."""
        for copy in self.copies.values():
            copy.cancel()
        self.copies = {}
        if self.copier is not None:  # (every copy waited for or dropped: what it still does is not wanted)
            self.copier.end()
            self.copier = None
        if self.open:
            self.open = False
            remove_staging(self.folder)



def _pause_for_tests() -> None:
    """Tests of interrupted builds only: with PNPGEN_TEST_PAUSE_BEFORE_COMMIT=<seconds>, say so on
    stderr and wait once every file is staged and before the commit, so a signal lands there."""
    try:  # anything but a number of seconds (abc, nan, inf: a traceback) is no pause
        seconds = float(os.environ.get(PAUSE_ENV) or 0)
    except ValueError:
        return
    if 0 < seconds < 3600:
        print(f"pnpgen: {PAUSE_ENV}: every file staged, nothing committed", file=sys.stderr, flush=True)
        time.sleep(seconds)


def _check_way(root: Path, path: Path) -> None:
    """An output's place must be free for a file: no folder where it goes, no file (or link)
    where one of its folders goes; and it must be below ``root``."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        raise InputError(f"{path} is outside the output folder {root}") from None
    folder = root
    for part in rel.parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            # said at the thing in the way, not at --out: the output folder is right, given or not
            raise InputError(f"{'a link' if folder.is_symlink() else 'a file'} stands where a folder of the output "
                             f"goes ({rel.as_posix()} goes in that folder)", path=folder,
                             expected="remove or rename it; nothing was replaced")
    if path.is_dir() and not path.is_symlink():
        raise InputError(f"{rel.as_posix()}: a folder stands where this output file goes", path=root, key="--out",
                         expected="remove or rename that folder; nothing was replaced")
    if locked(path):  # its rename would fail halfway through the commit, the files before it replaced
        raise InputError(f"{rel.as_posix()}: the file there is locked (immutable or append-only), so it cannot be "
                         "replaced", path=root, key="--out", expected="the file unlocked (macOS: Get Info, Locked off, "
                         "or chflags nouchg; Linux: chattr -i -a), or moved away; nothing was replaced")


def _check_writable(root: Path, folder: Path, checked: set[Path]) -> None:
    """The folder an output goes into (or the nearest one of its that is there, to make the rest
    in) must take new names, and so must ``root`` (the journal): checked before the commit, as a
    read-only folder found while the journal is carried out stops it halfway (the next run
    finishes it, once the folder may be written)."""
    for place in (folder, root):
        while not place.exists() and place != root and root in place.parents:
            place = place.parent
        if place in checked:
            continue
        checked.add(place)
        if place.is_dir() and not os.access(place, os.W_OK | os.X_OK, effective_ids=os.access in os.supports_effective_ids):
            raise InputError(f"cannot write into {named(place)}: it is read-only", path=root, key="--out",
                             expected="a folder you may write to (chmod u+w); nothing was replaced")
