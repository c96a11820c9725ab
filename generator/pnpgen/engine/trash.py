"""The trash: where a commit (engine/transaction.py) moves the big files it replaces or removes,
to be freed by a process of its own once the build has returned. A rename over a file would make
ext4 allocate the new file's blocks and free the old one's there and then: seconds for the four
265 MB files of a big illustrated deck. So a replaced or removed file of ``RECLAIM_MIN`` bytes or
more is first moved into ``<root>/.pnpgen-trash/``, and a detached process empties that folder
(``reclaim``). Before the commit's journal goes, a sealed record ``<token>.taken`` beside them
names each one with its device, inode, size and change time (ext4 gives a freed inode's number to
the next new file; never its change time): the trash frees only the files a record names (a file a designer
or a synced folder put there, whatever its name, stays, and is said), each moved to a private
name and checked there before it is unlinked, so a file put in an entry's name after its check
is never the one unlinked. The latest replaced file of
each big document stays there as its *spare*, which the next build of it rewrites from where the
two differ rather than writing a new file (engine/spare.py).

Freeing a small file costs ext4 time too: some 3–6 ms of wall a file on this project's 2-core
machine (mounted ``discard``), a 6 kB one as much as a 400 kB one, while moving it to a free name
costs some 0.03 ms. A build (``build``, ``watch``) therefore has its commit move the small files
it replaces or removes into the trash as well (``Trash(small=True)``), under the same sealed
record, and frees them itself once it has said the build is done (``empty_trash``, run after the
summary line): a watch save's last file is in place some 40 ms sooner (docs/speed.md, watch43).
Killed in between, the next commit's reclaim frees them, as it frees a big file's.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import shlex
import stat
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path

from pnpgen import resources, usercache
from pnpgen.atomic import TMP_SUFFIX, move_without_replacing, read_record, write_new
from pnpgen.engine import spare
from pnpgen.engine.output import named
from pnpgen.patterns import later
from pnpgen.safetext import shown, shown_name

TRASH = ".pnpgen-trash"
TAKEN = ".taken"  # <trash>/<token>.taken: the sealed record of a commit's entries there
FREEING = ".freeing."  # <trash>/<entry>.freeing.<pid>-<random>.pnpgen-tmp: an entry being freed (``_free``)
FREEING_LEFT = later(r"(.+)" + re.escape(FREEING) + r"[0-9a-f]+-[0-9a-f]+" + re.escape(TMP_SUFFIX))
RECLAIM_MIN = 4 << 20  # bytes: a smaller file is freed at once, in well under a millisecond
# of the .taken records: 3 names each entry by device, inode, size and change time; 2 (read as
# before) without the change time, which a file made in an entry's name after it was freed lacks
# even where it gets its inode number back (ext4 gives a freed inode's number to the next new file)
VERSION = 3
Identity = tuple[int, int, int, "int | None"]  # device, inode, size, change time in ns (None: a version 2 record's)


class Trash:
    """Where the big files a commit replaces or removes wait to be freed (see ``reclaim``)."""

    def __init__(self, folder: Path, token: str, small: bool = False) -> None:
        self.folder, self.token = folder, token
        # a big file waits here (``used``: the reclaim's process frees it); the folder held
        # something before this commit (a spare, a killed run's entries: the reclaim's too)
        self.used, self.held_before = False, folder.is_dir()
        # ``small``: the small plain files too, freed by the caller after its summary (``empty_trash``)
        self.small, self.small_taken = small, False
        # by entry name: the identity of each file this run moved in, just before and just after
        # the move (which sets its change time anew): what makes a replaced document a spare
        self.taken: dict[str, tuple[list[int], list[int]]] = {}

    def take(self, path: Path, name: str) -> bool:
        """Move ``path`` into the trash when it is a big plain file (or, ``small``, any plain
        file); False if not done (then the caller's rename or unlink frees it at once)."""
        try:
            st = path.lstat()
        except OSError:
            return False
        big = st.st_size >= RECLAIM_MIN
        if not stat.S_ISREG(st.st_mode) or not (big or self.small) or not self.token:
            return False
        if self.folder.is_symlink() or (self.folder.exists() and not self.folder.is_dir()):
            return False  # not pnpgen's folder: the file is freed the usual way
        entry = self.folder / f"{self.token}-{name}"
        try:
            self.folder.mkdir(exist_ok=True)
            os.replace(path, entry)
        except OSError:
            return False
        try:
            self.taken[entry.name] = (spare.file_identity(st), spare.file_identity(entry.lstat()))
        except OSError:
            pass  # (no spare made of it)
        if big:
            self.used = True
        else:
            self.small_taken = True
        return True

    def record(self, names: list[str]) -> None:
        """Seal the list of this commit's entries in the trash (``<token>-<name>`` for ``names``
        the journal gives, moved there by this run or a killed one), each with its file's
        identity: ``empty_trash`` frees those and nothing else. Written before the journal goes,
        so a run killed from here on still leaves every entry named."""
        if not self.token or self.folder.is_symlink() or not self.folder.is_dir():
            return
        entries = []
        big = False  # (a killed run's big ones too: the reclaim's process frees them)
        for name in names:
            try:
                st = (self.folder / f"{self.token}-{name}").lstat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                entries.append([f"{self.token}-{name}", st.st_dev, st.st_ino, st.st_size, st.st_ctime_ns])
                big = big or st.st_size >= RECLAIM_MIN
        if entries:
            text = json.dumps({"version": VERSION, "entries": entries}).encode()
            try:
                write_new(self.folder / f"{self.token}{TAKEN}", json.dumps({"check": usercache.machine_seal(text)}).encode() + b"\n" + text)
            except OSError:  # (a full disk) unrecorded, they would never be freed: freed now, the slow way
                for entry in entries:
                    (self.folder / str(entry[0])).unlink(missing_ok=True)
                self.small_taken = False
                return
            if big:
                self.used = True
            else:
                self.small_taken = True


def take_back(folder: Path, spare_file: Path, still: Callable[[Path], bool]) -> bool:
    """pnpgen's spare ``spare_file``, taken out of the trash ``folder`` and not rewritten (engine/spare.py),
    moved back in under a new entry's name and a sealed record of its own (its move out set its
    change time anew: the record it was taken under names it no more), never over a file that took
    a name meanwhile; False when it cannot go back. ``still``: is the file moved in still pnpgen's
    spare (else it stays unrecorded: a stranger, said)."""
    back = Trash(folder, f"{time.time_ns():x}")
    entry = folder / f"{back.token}-spare"
    for _ in range(2):
        if move_without_replacing(spare_file, entry):
            if still(entry):
                back.record(["spare"])
            return True
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            pass
    return False


def _taken(folder: str | Path) -> tuple[list[Path], list[tuple[str, Identity]]]:
    """The trash's records this machine sealed, and the entries they name (name, and the file's
    ``Identity``); a record that does not hold names nothing."""
    records: list[Path] = []
    entries: list[tuple[str, Identity]] = []
    try:
        listed = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return [], []
    for entry in listed:
        token = entry.name.removesuffix(TAKEN)
        if token == entry.name or not (token.isalnum() and token.isascii()):
            continue
        try:
            head, _, text = read_record(Path(entry.path)).partition(b"\n")
            if not hmac.compare_digest(str(json.loads(head).get("check")), usercache.machine_seal(text)):
                continue
            body = json.loads(text)
            fields = {2: 4, VERSION: 5}[body["version"]]
            named = [(str(e[0]), (int(e[1]), int(e[2]), int(e[3]), int(e[4]) if fields == 5 else None))
                     for e in body["entries"] if len(e) == fields]
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError):
            continue
        records.append(Path(entry.path))
        entries.extend(e for e in named if e[0].startswith(f"{token}-") and "/" not in e[0] and "\0" not in e[0])
    return records, entries


def _taken_by(record: Path, entries: list[tuple[str, Identity]]) -> list[tuple[str, Identity]]:
    """The entries a ``.taken`` record names (its token's)."""
    return [e for e in entries if e[0].startswith(record.name.removesuffix(TAKEN) + "-")]


def _holds(st: os.stat_result, identity: Identity, renamed: bool = False) -> bool:
    """Is ``st`` the file of ``identity``: a regular file of the same device, inode, size and change
    time? ``renamed``: a killed ``_free``'s private name of it, whose rename set the change time
    anew (no earlier than the record's)."""
    dev, ino, size, ctime = identity
    if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino, st.st_size) != (dev, ino, size):
        return False
    return ctime is None or (st.st_ctime_ns >= ctime if renamed else st.st_ctime_ns == ctime)


def _is_entry(path: Path, identity: Identity, renamed: bool = False) -> bool:
    """Whether ``path`` is still the very file a record says pnpgen moved there (``_holds``)."""
    try:
        return _holds(path.lstat(), identity, renamed)
    except OSError:
        return False


def _free(path: Path, entry: Path, identity: Identity, renamed: bool = False) -> bool:
    """Unlink ``path``, the trash entry ``entry`` (or, ``renamed``, a killed run's private name of
    it), with no instant between the check and the unlink in which another file put in its name (a
    synced folder's, a designer's) is deleted: held open and checked, moved to a private name,
    unlinked only if that name is still the file held (open, its inode cannot be another file's);
    False, when it is not, and moved back (``_give_back``)."""
    import secrets  # (imported only by a build that frees a replaced file)

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return True  # (gone: freed by a reclaim beside this one, or taken back for a spare)
    except OSError:
        return False
    try:
        held = os.fstat(fd)
        if not _holds(held, identity, renamed):
            return not os.path.lexists(path)  # (another file in its name since it was looked at: kept)
        private = entry.with_name(f"{entry.name}{FREEING}{os.getpid():x}-{secrets.token_hex(4)}{TMP_SUFFIX}")
        try:
            os.rename(path, private)
        except OSError:
            return True  # (gone: freed by a reclaim beside this one, or taken back for a spare)
        try:
            if os.path.samestat(private.lstat(), held):
                os.unlink(private)
                return True
        except OSError:
            return True
        _give_back(private, entry)
        return False
    finally:
        os.close(fd)


def _give_back(private: Path, entry: Path) -> None:
    """What ``_free`` moved aside that is not pnpgen's, back into the entry's name; never over a
    file that took that name since (a link, not a rename: it fails rather than replace). Where it
    cannot go back, it stays under a name that says it is not pnpgen's, said as a stranger."""
    for name in (entry, entry.with_name(f"{entry.name}.not-written-by-pnpgen")):
        if move_without_replacing(private, name):
            return


def _freeing_left(folder: Path) -> dict[str, list[Path]]:
    """The private names ``_free`` gave entries that a run killed before their unlink left, by
    the entry's name."""
    left: dict[str, list[Path]] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return left
    for name in names:
        if m := FREEING_LEFT.fullmatch(name):
            left.setdefault(m.group(1), []).append(folder / name)
    return left


def empty_trash(folder: str | Path, keep_spares: bool = False, only: Collection[str] | None = None) -> None:
    """Remove the trash entries of ``folder`` that its sealed records name (the same file still:
    device, inode and size), then each record none of whose names holds anything any more, then
    the folder if that left it empty. Nothing
    else in it is pnpgen's to delete, whatever its name (``strangers`` says them). ``keep_spares``
    (the reclaim after a commit): the live spares and the records naming them stay
    (engine/spare.py); else they go too, with the record of spares. Its temporaries a killed run
    left go too (``spare.left_temporaries``). ``only``: the records to free, by name (a reclaim's:
    those there when its commit ended, ``commits_in``), never a later commit's — a reclaim still
    running as the next build commits read that commit's new entries, and the record of spares
    from before it, and freed the spare the commit had just made."""
    records, entries = _taken(folder)
    if only is not None:
        records = [r for r in records if r.name in only]
        entries = [e for r in records for e in _taken_by(r, entries)]
    keep = spare.kept(Path(folder)) if keep_spares else set()
    records = [r for r in records if not any(name in keep for name, *_ in _taken_by(r, entries))]
    left = _freeing_left(Path(folder))
    not_freed: set[str] = set()
    for name, identity in entries:
        if name in keep:
            continue
        for path in [Path(folder) / name, *left.get(name, [])]:
            renamed = path.name != name
            if _is_entry(path, identity, renamed) and not _free(path, Path(folder) / name, identity, renamed):
                not_freed.add(name)
    # a record goes once none of its names holds anything: one whose entry was swapped out (or
    # could not be freed) as it was looked at stays, to free that entry when it is pnpgen's again
    records = [r for r in records if not any(name in not_freed or os.path.lexists(Path(folder) / name)
                                             for name, *_ in _taken_by(r, entries))]
    for record in [*records, *spare.left_temporaries(Path(folder), keep_spares)]:
        try:  # (after its entries: a run killed in between finds them still named)
            os.unlink(record)
        except OSError:
            pass
    if not keep_spares:
        Path(folder, spare.SPARES).unlink(missing_ok=True)
    try:
        os.rmdir(folder)
    except OSError:
        pass


def strangers(folder: Path) -> list[str]:
    """The names in the trash folder no sealed record of pnpgen's names (files a designer or a
    synced folder put there, an older pnpgen's entries): left as they are."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    records, entries = _taken(folder)
    left = _freeing_left(folder)  # (a killed reclaim's, freed by the next)
    own = {p.name for p in records} | {spare.SPARES} | {p.name for p in spare.left_temporaries(folder, False)} \
        | {p.name for name, identity in entries for p in [folder / name, *left.get(name, [])]
           if _is_entry(p, identity, p.name != name)}
    # (gone since the listing: a reclaim still running freed it)
    return [n for n in names if n not in own and os.path.lexists(folder / n)]


def say_strangers(folder: Path) -> None:
    """One line on stderr naming what the trash folder holds that pnpgen did not put there."""
    others = strangers(folder)
    if others:
        print(f"pnpgen: note: {shown(named(folder))} holds what pnpgen did not put there "
              f"({', '.join(shown_name(n) for n in others[:3])}{' …' if len(others) > 3 else ''}): left as it is. "
              "pnpgen frees only the old files its records there name; old outputs an older pnpgen moved there "
              f"have none. Nothing in it is an output: remove it with rm -r {shlex.quote(named(folder))} "
              "(after moving out anything of yours)", file=sys.stderr, flush=True)


def commits_in(folder: Path) -> list[str]:
    """The names of the trash's records of what commits moved there, as they are now: what a
    reclaim started now may free (``empty_trash``'s ``only``)."""
    try:
        return sorted(e.name for e in os.scandir(folder) if e.name.endswith(TAKEN))
    except OSError:
        return []


def reclaim(root: Path) -> None:
    """Free the files waiting in ``root``'s trash from a process of their own that outlives this
    one: the designer's wait ends when the new files are in place, not when the old ones' blocks
    are returned. Where that cannot be started, they are freed here and now."""
    folder = root / TRASH
    if folder.is_symlink() or not folder.is_dir():
        return
    say_strangers(folder)
    env = dict(os.environ)
    here = str(resources.folder("pnpgen").parent.resolve())  # the folder holding this pnpgen package
    env["PYTHONPATH"] = os.pathsep.join([here, *filter(None, [env.get("PYTHONPATH")])])
    # -P, and started in /: 'python -c' puts the folder it starts in first on its path, and that
    # was the workspace, whose own pnpgen/__init__.py (a stranger's game) it imported and ran
    import subprocess  # (imported only by a build that replaced files)

    try:
        subprocess.Popen([sys.executable, "-P", "-c", "import sys; from pnpgen.engine.trash import empty_trash; "
                          "empty_trash(sys.argv[1], True, sys.argv[2:])", os.path.abspath(folder), *commits_in(folder)],
                         cwd="/", env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         close_fds=True, start_new_session=True)
    except (OSError, ValueError):
        empty_trash(folder)

