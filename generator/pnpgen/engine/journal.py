"""The journal of a commit and ``recover``: the sealed record of what a commit moves and removes,
and a killed commit carried out to the end (its seal holds) or rolled back (any other journal, or a
staging folder without one). engine/transaction.py says why the journal is sealed and what is
trusted of it; apart from it so that the staging folder and the commit can both read it."""


from __future__ import annotations

import hmac
import json
import os
import shlex
import stat
import sys
from pathlib import Path

from pnpgen import usercache
from pnpgen.atomic import read_record
from pnpgen.engine import spare, trash
from pnpgen.engine.output import inside, named, signals_deferred
from pnpgen.engine.trash import TRASH
from pnpgen.errors import InputError
from pnpgen.patterns import later
from pnpgen.safetext import same_file, shown, shown_name

STAGING = ".pnpgen-staging"
JOURNAL = ".pnpgen-journal"
STAGED = ".staged"  # <staging>/.staged: the sealed record of how many names a build staged there
STAGED_TEMPORARY = later(r"\.staged\.[0-9a-f]+-[0-9a-f]+\.pnpgen-tmp")  # its tmp_beside, a kill left
MADE = ".made"  # <staging>/.made: the empty file the staging folder is made with (``staging_mark``)
# 3: the staging folder named by its mark (``staging_mark``); 2: by the folder's inode, which a
# folder made again in its place gets back on ext4 (still read as before); 1, unsealed, is rolled back
VERSION = 3
READ_VERSIONS = (2, 3)


def make_staging(staging: Path) -> None:
    """The staging folder, made with its mark: an empty file whose inode and change time name this
    very folder in its records (``staging_mark``)."""
    staging.mkdir()
    os.close(os.open(staging / MADE, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0), 0o666))


def staging_mark(staging: Path) -> list[int] | None:
    """The inode and change time (ns) of the file the staging folder was made with: what a folder
    made again in its place, or a copy of it put there, cannot have — a new folder or file may get a
    freed inode's number back at once (ext4 does), but the kernel sets a file's change time as it is
    made, and no call sets it back. None when there is no such file."""
    try:
        st = (staging / MADE).lstat()
    except OSError:
        return None
    return [st.st_ino, st.st_ctime_ns] if stat.S_ISREG(st.st_mode) else None


def _names_staging(body: dict, version: int, staging: Path) -> bool:
    """Does a record of ``version`` name ``staging`` (its mark; version 2: its inode)?"""
    if version == 2:
        return isinstance(body.get("staging"), int) and staging.lstat().st_ino == body["staging"]
    mark = staging_mark(staging)
    return mark is not None and body.get("staging") == mark


def recover(root: Path, later: list[Path] | None = None, spares: list[spare.Record] | None = None) -> str | None:
    """Finish or undo what a killed run left in ``root``: "forward" when a journal was carried
    out, "back" when an uncommitted staging folder was removed, "refused" when a journal this
    machine did not seal was removed with its staging folder (said on stderr), None when there
    was nothing. ``later`` (a build's own commit): the small files the journal replaces or
    removes are moved into the trash too, not freed on the way (some 4 ms of ext4 each), and
    the trash folder is appended to ``later`` for the caller to empty once it has said the build
    is done (``trash.empty_trash``) — unless the reclaim's process frees it anyway. ``spares``
    (a build's own commit) gets the trash's record of spares as the journal left it written
    (``spare.promote``), for the commit to note its new documents in without reading it again."""
    journal, staging = root / JOURNAL, root / STAGING
    if journal.is_file() and not journal.is_symlink():
        read = _read_journal(journal, staging)
        if read is None:  # not this machine's commit: nothing of it is carried out
            journal.unlink(missing_ok=True)
            print(f"pnpgen: warning: {shown(named(journal))}: a commit journal this machine did not seal (a build "
                  "folder from elsewhere?): rolled back, no file replaced or removed", file=sys.stderr, flush=True)
            remove_staging(staging)  # (what it holds that no record of this machine's names stays, and is said)
            return "refused"
        moves, remove, token = read
        aside = trash.Trash(root / TRASH, token, small=later is not None)
        if staging.is_symlink() or not staging.is_dir():
            moves = []  # staged files are only ever in a real folder of root's (a link would move files in from elsewhere)
        try:
            record = _carry_out(root, moves, remove, aside, journal)
            if spares is not None and record is not None:
                spares.append(record)
        except OSError as e:  # a folder made read-only since the commit: the journal stays for the next run
            where = named(Path(e.filename)) if e.filename else named(root)
            raise InputError(f"cannot finish writing the new set of files into {named(root)}: {where}: {e.strerror}",
                             path=root, key="--out", expected="a folder you may write to; the next run finishes "
                             "the commit (until then some files are the new set's, some the old)") from None
        remove_staging(staging)
        # this commit's big old files, or a killed one's (or its small ones, with no caller to free them)
        if aside.used or aside.held_before or (aside.small_taken and later is None):
            trash.reclaim(root)
        elif aside.small_taken and later is not None:
            later.append(root / TRASH)  # (freed by the caller after its summary line)
        return "forward"
    if journal.is_symlink():
        journal.unlink()
    (root / (JOURNAL + ".new")).unlink(missing_ok=True)
    if staging.exists() or staging.is_symlink():
        remove_staging(staging)
        return "back"
    return None


def _carry_out(root: Path, moves: list, remove: list, aside: trash.Trash, journal: Path) -> spare.Record | None:
    """The journal's moves and removals, then the journal itself (each step can be done again)."""
    staging = root / STAGING
    targets = {same_file(rel): (name, rel) for name, rel in moves}
    with signals_deferred():
        # A stale file whose name is a new file's in other letter case or another Unicode form
        # (deck Cards renamed cards) is that file on Windows and macOS: removed after the move,
        # it took the new file with it. So it goes first, while the move is still to be done;
        # once the move is done (a killed run's), only when it is another file (Linux).
        for i, rel in enumerate(remove):
            if same_file(rel) in targets:
                name, moved = targets[same_file(rel)]
                if _staged_file(staging / name) or not _one_file(inside(root, rel), inside(root, moved)):
                    _remove(inside(root, rel), aside, i)
        for name, rel in moves:
            source, target = staging / name, inside(root, rel)
            if target is None or not _staged_file(source):
                continue  # moved before the kill (or not pnpgen's to move)
            target.parent.mkdir(parents=True, exist_ok=True)
            # Moved aside first: a rename onto a free name is instant, while ext4 makes a rename
            # over a file allocate the new file's blocks (auto_da_alloc) and free the old one's
            # there and then. Killed in between, the next run finds the target missing and its
            # replacement still staged: it moves that in.
            aside.take(target, name)
            os.replace(source, target)
        for i, rel in enumerate(remove):
            if same_file(rel) not in targets:
                _remove(inside(root, rel), aside, i)
        # a killed run of this commit may have moved some aside already: the journal names them too
        aside.record([name for name, _ in moves] + [f"r{i:06d}" for i in range(len(remove))])
        record = spare.promote(aside.folder, [(f"{aside.token}-{name}", rel) for name, rel in moves], remove,
                               aside.token, aside.taken)
        journal.unlink()
        return record


def _staged_file(source: Path) -> bool:
    """Is ``source`` a staged file still to be moved (a plain file of the staging folder)?"""
    return source.is_file() and not source.is_symlink()


def _one_file(a: Path | None, b: Path | None) -> bool:
    """Do ``a`` and ``b`` name the very same file (two spellings of one name on a disk that
    compares names as Windows and macOS do)?"""
    try:
        return a is not None and b is not None and os.path.samestat(a.lstat(), b.lstat())
    except OSError:
        return False


def _remove(path: Path | None, aside: trash.Trash, i: int) -> None:
    """The journal's removal ``i``: into the trash when big (or ``aside`` takes small ones too),
    else unlinked (done again: nothing)."""
    if path is not None and not path.is_dir():
        if not aside.take(path, f"r{i:06d}"):
            path.unlink(missing_ok=True)


def journal_bytes(body: dict) -> bytes:
    """A journal's file: a header line (its version and the seal of the text), then the text."""
    text = json.dumps(body, ensure_ascii=False).encode()
    return json.dumps({"version": VERSION, "check": seal(text)}).encode() + b"\n" + text


def seal(text: bytes) -> str:
    """HMAC-SHA256 of a journal's text under this machine's key; its SHA-256 when there is none
    (``PNPGEN_CACHE=off``: the journal then names its staging folder's inode as well)."""
    return usercache.machine_seal(text)


def _read_journal(journal: Path, staging: Path) -> tuple[list[tuple[str, str]], list[str], str] | None:
    """The journal's moves, removals and token when this machine sealed it (beside its own
    staging folder, without a key), else None. Foreign parts of a sealed journal are left out."""
    try:
        head, _, text = read_record(journal).partition(b"\n")
        outer = json.loads(head)
        if not isinstance(outer, dict) or outer.get("version") not in READ_VERSIONS \
                or not hmac.compare_digest(str(outer.get("check")), seal(text)):
            return None
        body = json.loads(text)
        if not isinstance(body, dict) or body.get("version") != outer["version"]:
            return None
        if usercache.secret() is None and not (staging.is_dir() and not staging.is_symlink()
                                               and _names_staging(body, body["version"], staging)):
            return None
        moves = [(m[0], m[1]) for m in body.get("moves", [])
                 if isinstance(m, list) and len(m) == 2 and isinstance(m[0], str) and m[0].isdigit()
                 and m[0].isascii() and isinstance(m[1], str)]
        remove = [r for r in body.get("remove", []) if isinstance(r, str)]
        token = body.get("token", "")
        return moves, remove, token if isinstance(token, str) and token.isalnum() and token.isascii() else ""
    except (OSError, ValueError, TypeError, AttributeError, IndexError):
        return None


def _staged(staging: Path) -> int | None:
    """How many names (``000000`` on) the staging folder's record says a build of this machine's
    took there: None when there is none that holds (sealed elsewhere, beside another folder, damaged)."""
    try:
        head, _, text = read_record(staging / STAGED).partition(b"\n")
        if not hmac.compare_digest(str(json.loads(head).get("check")), seal(text)):
            return None
        body = json.loads(text)
        count, version = body.get("staged"), body.get("version")
        if version not in READ_VERSIONS or type(count) is not int or not _names_staging(body, version, staging):
            return None
        return count
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def remove_staging(staging: Path) -> None:
    """Remove the staging folder a commit made, and the files its sealed record says it staged
    there (``_staged``): nothing else in it is pnpgen's to delete, whatever its name, so a folder
    holding other things is kept and said (one line, exit 2) rather than emptied."""
    if staging.is_symlink() or staging.is_file():
        staging.unlink(missing_ok=True)
        return
    if not staging.is_dir():
        return
    count = _staged(staging)
    others, records, mark = [], [], None
    for entry in sorted(os.scandir(staging), key=lambda e: e.name):
        name = entry.name
        if count is not None and len(name) == 6 and name.isascii() and name.isdigit() and int(name) < count \
                and entry.is_file(follow_symlinks=False):
            os.unlink(entry.path)
        elif ((name == STAGED and count is not None) or STAGED_TEMPORARY.fullmatch(name)) \
                and entry.is_file(follow_symlinks=False):
            records.append(entry.path)
        elif name == MADE and entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_size == 0:
            mark = entry.path  # (the folder's mark: with the records, or alone, left by a run killed before them)
        else:
            others.append(name)
    if mark is not None and (count is not None or not others):
        records.append(mark)
    for record in records:  # after the files it names: a run killed in between finds them still named
        os.unlink(record)
    if others:
        listed = f"{', '.join(shown_name(n) for n in others[:3])}{' …' if len(others) > 3 else ''}"
        folder = shlex.quote(named(staging))
        if count is None:  # no record of this machine's: an older pnpgen's (before the records), or copied here
            raise InputError(f"holds what pnpgen did not stage there ({listed}): no record of this machine's "
                             "names it (new files an older pnpgen staged, or a folder copied from elsewhere); none "
                             "of it was put in place: the files beside it are the last complete set", path=staging,
                             expected=f"the folder removed: rm -r {folder} (after moving out anything of yours), "
                             "then build again")
        raise InputError(f"holds what pnpgen did not stage there ({listed})", path=staging,
                         expected=f"those moved out of {folder} (pnpgen's folder for a commit's new files, which it "
                         "removes when done; it deletes only what it wrote), then build again")
    try:
        staging.rmdir()
    except OSError:
        pass
