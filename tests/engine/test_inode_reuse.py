"""pnpgen's own files known by what a new file cannot have: on ext4 a file or folder made after one
was deleted gets the freed inode's number back at once, so an inode number (with the device and
the size, even the modification time a copy keeps) does not tell pnpgen's file from one made in
its place. Each test here makes that happen on purpose — unlinks and makes again until the number
matches — and shows the impostor refused (by its change time, or the staging folder's mark)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pnpgen.engine import spare
from pnpgen.engine import trash as trashes
from pnpgen.engine.journal import JOURNAL, STAGED, STAGING, journal_bytes, recover, remove_staging, staging_mark
from pnpgen.engine.transaction import Staging
from pnpgen.errors import InputError

TRIES = 2000


def _made_again(path: Path, make: Callable[[], None], remove: Callable[[], None]) -> None:
    """``path`` removed and made again (``make``) until it has its old inode number back."""
    ino = path.lstat().st_ino
    for _ in range(TRIES):
        remove()
        make()
        if path.lstat().st_ino == ino:
            return
    pytest.skip(f"this file system never gave inode {ino} back in {TRIES} tries (tmpfs numbers new files afresh)")


def test_a_file_made_in_a_trash_entrys_place_with_its_inode_is_never_freed(tmp_path):
    trash = tmp_path / "out" / trashes.TRASH
    trash.mkdir(parents=True)
    entry = trash / "abc-000000"
    entry.write_bytes(b"old" * 1000)
    trashes.Trash(trash, "abc").record(["000000"])
    was = entry.lstat()
    _made_again(entry, lambda: entry.write_bytes(b"new" * 1000), entry.unlink)
    now = entry.lstat()
    assert (now.st_dev, now.st_ino, now.st_size) == (was.st_dev, was.st_ino, was.st_size)
    assert trashes.strangers(trash) == [entry.name]
    trashes.empty_trash(trash)
    assert entry.read_bytes() == b"new" * 1000  # a designer's file: kept (and its record with it)
    assert (trash / f"abc{trashes.TAKEN}").exists()


def test_a_staging_folder_made_again_with_its_inode_is_not_the_one_its_records_name(tmp_path, monkeypatch):
    """A copy of a killed build's staging folder (record, mark and all) put in place of the real one,
    with the real one's inode: neither its record nor (no machine key) a journal naming the real
    one moves or deletes a file of it."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")  # (the journal then names its staging folder)
    root = tmp_path / "out"
    (root / "test").mkdir(parents=True)
    (root / "test" / "notes.txt").write_text("mine", encoding="utf-8")
    staging = Staging(root)
    staging.begin()
    name = staging.name_of(root / "test" / "notes.txt", b"planted")
    staging.seal()
    (staging.folder / name).write_bytes(b"planted")
    body = {"version": 3, "moves": [[name, "test/notes.txt"]], "remove": [], "token": "a1",
            "staging": staging_mark(staging.folder)}
    copy = tmp_path / "copy"
    shutil.copytree(staging.folder, copy)
    _made_again(staging.folder, lambda: shutil.copytree(copy, root / STAGING), lambda: shutil.rmtree(root / STAGING))
    assert sorted(p.name for p in staging.folder.iterdir()) == sorted([name, STAGED, ".made"])
    with pytest.raises(InputError, match="holds what pnpgen did not stage there"):
        remove_staging(staging.folder)  # (its record names the folder that was there)
    assert (staging.folder / name).read_bytes() == b"planted"
    (root / JOURNAL).write_bytes(journal_bytes(body))
    with pytest.raises(InputError, match="holds what pnpgen did not stage there"):
        recover(root)  # the journal rolled back, nothing moved in
    assert (root / "test" / "notes.txt").read_text(encoding="utf-8") == "mine" and not (root / JOURNAL).exists()
    assert (staging.folder / name).read_bytes() == b"planted"


def test_a_copy_in_a_spares_place_with_its_inode_and_times_is_not_the_spare(tmp_path):
    """The spare's trash entry removed and a copy of it put there (``cp -p``: the same bytes, size
    and modification time) with its inode: not rewritten as the spare, not kept as one, not freed."""
    trash = tmp_path / "out" / trashes.TRASH
    trash.mkdir(parents=True)
    entry = trash / "abc-000000"
    entry.write_bytes(b"%PDF old document" * 1000)
    trashes.Trash(trash, "abc").record(["000000"])
    doc = spare.PdfFile((entry.read_bytes(),))
    record = spare.Record(spares={"deck.pdf": [entry.name, *spare.file_identity(entry.lstat()), spare.layout_of(doc)]})
    record.write(trash)
    assert spare.kept(trash) == {entry.name} and spare.find(trash, spare.read(trash), "deck.pdf", doc, 0) is not None
    saved = tmp_path / "saved.pdf"
    shutil.copy2(entry, saved)
    was = entry.lstat()
    _made_again(entry, lambda: shutil.copy2(saved, entry), entry.unlink)
    now = entry.lstat()
    assert [now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns] == [was.st_dev, was.st_ino, was.st_size, was.st_mtime_ns]
    assert spare.find(trash, spare.read(trash), "deck.pdf", doc, 0) is None
    assert spare.kept(trash) == set()
    trashes.empty_trash(trash)
    assert entry.read_bytes() == b"%PDF old document" * 1000


def test_a_file_made_in_a_written_outputs_place_with_its_inode_and_bytes_is_not_removed(tmp_path):
    """Without a machine key the last build's files are known by the record of what it wrote
    (engine/written.py): a designer's file made in one's place (the same bytes, and its inode
    back) is not the file written, so a build that no longer makes it does not remove it."""
    from pnpgen.engine.written import note_written, written_before
    from pnpgen.pdf.assemble import file_digest

    out_root = tmp_path / "build"
    out_dir = out_root / "test"
    (out_root / ".cache").mkdir(parents=True)
    out_dir.mkdir()
    sheet = out_dir / "cards.pdf"
    sheet.write_bytes(b"%PDF sheet" * 100)
    digest = file_digest(sheet, None)
    note_written(out_root, [(out_dir, {"cards.pdf": (digest, None)})])
    assert written_before(out_root, out_dir) == {"cards.pdf": digest}
    _made_again(sheet, lambda: sheet.write_bytes(b"%PDF sheet" * 100), sheet.unlink)
    assert written_before(out_root, out_dir) == {}


def test_a_trash_record_of_the_earlier_version_still_frees_its_entries(tmp_path):
    """A ``.taken`` record an earlier pnpgen sealed (version 2: no change time) is read as it was."""
    trash = tmp_path / trashes.TRASH
    trash.mkdir()
    entry = trash / "abc-000000"
    entry.write_bytes(b"old" * 1000)
    st = entry.lstat()
    text = json.dumps({"version": 2, "entries": [[entry.name, st.st_dev, st.st_ino, st.st_size]]}).encode()
    (trash / f"abc{trashes.TAKEN}").write_bytes(
        json.dumps({"check": trashes.usercache.machine_seal(text)}).encode() + b"\n" + text)
    assert trashes.strangers(trash) == []
    trashes.empty_trash(trash)
    assert not trash.exists()


def test_a_staging_folder_of_the_earlier_version_is_still_removed(tmp_path):
    """A staging folder an earlier pnpgen made (no mark; its record, version 2, names the folder's
    inode) is still pnpgen's: its staged files and record go with it."""
    staging = tmp_path / STAGING
    staging.mkdir()
    (staging / "000000").write_bytes(b"staged")
    text = json.dumps({"version": 2, "staged": 1, "staging": staging.lstat().st_ino}).encode()
    from pnpgen.engine.journal import seal
    (staging / STAGED).write_bytes(json.dumps({"check": seal(text)}).encode() + b"\n" + text)
    remove_staging(staging)
    assert not staging.exists()
    assert not os.path.lexists(staging)


def test_a_workspace_deleted_and_made_again_with_its_inodes_is_gone_to_watch(tmp_path):
    """``watch`` and ``serve`` knew the workspace folder by (device, inode) alone: deleted and copied
    again while they ran, its folders given their inode numbers back (ext4), it passed for the one
    they watch, whose watched folders are gone. Its change times are new, all at once: gone."""
    from pnpgen.data.workspace import Workspace

    root = tmp_path / "ws"
    folders = ("", "data", "templates")
    for p in folders:
        (root / p).mkdir()
    ws = Workspace(root)
    seen = ws.still_there(None)
    inodes = [(root / p).stat().st_ino for p in folders]
    for _ in range(TRIES):
        for p in reversed(folders):  # (deleted, and copied again: its folders made in the same order)
            (root / p).rmdir()
        for p in folders:
            (root / p).mkdir()
        if [(root / p).stat().st_ino for p in folders] == inodes:
            break
    else:
        pytest.skip("this file system never gave the folders' inodes back (tmpfs numbers new folders afresh)")
    with pytest.raises(InputError, match="is gone while watching"):
        ws.still_there(seen)


def test_a_workspace_changed_one_folder_at_a_time_is_still_the_one_watched(tmp_path):
    """The same workspace changes its folders' change times too (a game added under data/, build/
    made beside it, templates/ made by ``pnpgen layout export``): one at a time between two looks,
    each taken as the workspace's new state, never as a copy."""
    from pnpgen.data.workspace import Workspace

    root = tmp_path / "ws"
    (root / "data" / "g").mkdir(parents=True)
    ws = Workspace(root)
    seen = ws.still_there(None)
    (root / "data" / "g2").mkdir()  # data/'s change time
    seen = ws.still_there(seen)
    (root / "build").mkdir()  # the workspace folder's
    seen = ws.still_there(seen)
    (root / "templates").mkdir()  # templates/ made (the workspace's change time again)
    seen = ws.still_there(seen)
    (root / "templates" / "g").mkdir()
    assert ws.still_there(seen) is not None
    os.rename(root, tmp_path / "moved")
    with pytest.raises(InputError, match="is gone while watching"):
        ws.still_there(seen)
