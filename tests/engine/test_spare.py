"""Issue 22: a commit keeps the big document it replaced as that output's spare, and the next
build rewrites the spare from where the two first differ instead of writing a new file
(engine/spare.py). The pictures come first in each document (pdf/writer.py), so a text or count
edit rewrites only the tail; whatever happens, the outputs are the bytes a cold build writes."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, child_env, ctrl_c_as_in_a_terminal, make_workspace, run
from pnpgen.engine import spare, transaction
from pnpgen.engine import trash as trashes
from pnpgen.engine.clean import clean
from pnpgen.engine.journal import STAGING
from pnpgen.engine.trash import TRASH
from pnpgen.errors import InputError
from pnpgen.pdf import assemble

pytestmark = pytest.mark.skipif(not transaction.FORKS, reason="spares are rewritten where the kernel copies")
BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
DOC = "test/shop/cards.pdf"


@pytest.fixture
def small(monkeypatch):
    """Every document counts as big, every replaced one goes through the trash."""
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    monkeypatch.setattr(trashes, "RECLAIM_MIN", 1000)


def _png(i: int) -> bytes:
    out = BytesIO()
    Image.frombytes("RGB", (96, 64), bytes((i * 53 + k * 7) % 251 for k in range(96 * 64 * 3))).save(out, "PNG")
    return out.getvalue()


def _game(root: Path, counts=(2, 1, 3, 1)) -> Path:
    ws = make_workspace(root, deck=PICTURE_DECK_YAML + "".join(
        f"  - {{name: 札{i}, art: p{i}.png, count: {n}}}\n" for i, n in enumerate(counts)), front=PICTURE_FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(len(counts)):
        (ws / "data" / "test" / "art" / f"p{i}.png").write_bytes(_png(i))
    return ws


def _deck(ws: Path) -> Path:
    return ws / "data" / "test" / "decks" / "cards.yaml"


def _text_edit(ws: Path, n: int) -> None:
    """The last card's name changed (a new name each time)."""
    deck = _deck(ws)
    lines = deck.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[-1] = "  - {name: 札" + "三" * n + "," + lines[-1].split(",", 1)[1]
    deck.write_text("".join(lines), encoding="utf-8")


def _count_edit(ws: Path, n: int) -> None:
    deck = _deck(ws)
    lines = deck.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[-1] = lines[-1].rsplit("count:", 1)[0] + f"count: {n + 1}}}\n"
    deck.write_text("".join(lines), encoding="utf-8")


def _spare_of(root: Path, rel: str = DOC) -> Path | None:
    record = spare.read(root / TRASH)
    found = record.spares.get(rel)
    return root / TRASH / found[0] if found is not None else None


def _cold(tmp_path: Path, ws: Path, name: str) -> Path:
    """The same inputs built in a folder of their own, from nothing."""
    other = tmp_path / name
    other.mkdir()
    for sub in ("data", "templates", "fonts"):
        if (ws / sub).exists():
            if (ws / sub).is_symlink():
                (other / sub).symlink_to(os.readlink(ws / sub))
            else:
                subprocess.run(["cp", "-r", str(ws / sub), str(other / sub)], check=True)
    assert run(other, *BUILD) == 0
    return other / "build"


@pytest.mark.parametrize("edit", [_text_edit, _count_edit])
def test_an_edit_rewrites_the_replaced_file_and_writes_the_bytes_of_a_cold_build(tmp_path, small, monkeypatch, edit,
                                                                                  capsys):
    ws = _game(tmp_path / "ws")
    root = ws / "build"
    assert run(ws, *BUILD) == 0
    edit(ws, 1)
    assert run(ws, *BUILD) == 0  # the first edit: the old files become spares
    spares = {rel: _spare_of(root, rel) for rel in spare.read(root / TRASH).spares}
    assert DOC in spares and all(p is not None and p.is_file() for p in spares.values())
    inodes = {rel: p.stat().st_ino for rel, p in spares.items() if p is not None}
    written = []
    real = spare.Spare.open_as

    def reused(self, staged, mode):
        opened = real(self, staged, mode)
        written.append((self.entry.name, self.size, opened is not None))
        return opened

    monkeypatch.setattr(spare.Spare, "open_as", reused)
    edit(ws, 2)
    assert run(ws, *BUILD) == 0
    assert len(written) == len(inodes) and all(ok for _, _, ok in written), written
    for rel, ino in inodes.items():
        assert (root / rel).stat().st_ino == ino, rel  # the spare itself, rewritten in place
    assert all(size > 1000 for _, size, _ in written)  # (only the tail after the pictures was written)
    cold = _cold(tmp_path, ws, "cold")
    for rel in inodes:
        assert (root / rel).read_bytes() == (cold / rel).read_bytes(), rel
    assert "did not put there" not in capsys.readouterr().err  # (the record of spares is pnpgen's own)
    assert trashes.strangers(root / TRASH) == []


def test_a_commit_reads_the_record_of_spares_twice_and_the_next_edit_still_finds_its_spares(tmp_path, small,
                                                                                            monkeypatch):
    """The record of spares (4.5 MB at 3,000 cards) is read by the build that looks for its spares
    and by the commit's ``promote``, whose record the commit notes its new documents in as it
    wrote it (not read a third time); what it writes is what a fresh read finds, and the next
    edit rewrites every spare in place."""
    ws = _game(tmp_path / "ws")
    root = ws / "build"
    assert run(ws, *BUILD) == 0
    _text_edit(ws, 1)
    assert run(ws, *BUILD) == 0  # (spares from here on)
    reads, writes = [], []
    real_read, real_write = spare.read, spare.Record.write
    monkeypatch.setattr(spare, "read", lambda trash: reads.append(trash) or real_read(trash))
    monkeypatch.setattr(spare.Record, "write", lambda self, trash: writes.append(self) or real_write(self, trash))
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0
    assert len(reads) == 2 and len(writes) == 2  # (three reads before: the commit's second was of its own write)
    record = real_read(root / TRASH)
    assert (record.outputs, record.spares) == (writes[-1].outputs, writes[-1].spares)
    assert DOC in record.outputs and DOC in record.spares
    inodes = {rel: p.stat().st_ino for rel in record.spares if (p := _spare_of(root, rel)) is not None}
    monkeypatch.setattr(spare, "read", real_read)
    _text_edit(ws, 3)
    assert run(ws, *BUILD) == 0
    assert inodes and all((root / rel).stat().st_ino == ino for rel, ino in inodes.items())  # (rewritten in place)
    cold = _cold(tmp_path, ws, "cold")
    assert all((root / rel).read_bytes() == (cold / rel).read_bytes() for rel in inodes)


def test_the_pictures_come_first_and_keep_their_offsets_through_a_text_edit(tmp_path, small):
    ws = _game(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    before = (ws / "build" / DOC).read_bytes()
    _text_edit(ws, 1)
    assert run(ws, *BUILD) == 0
    after = (ws / "build" / DOC).read_bytes()
    first_form = before.index(b"/Subtype /Form")
    assert before.index(b"/Subtype /Image") < first_form
    assert before.rfind(b"/Subtype /Image") < first_form  # every picture before every other object
    assert before[:first_form - 200] == after[:first_form - 200]
    assert before != after


def _spared(tmp_path: Path, ws: Path) -> tuple[Path, Path]:
    """A workspace built, edited and built again: its shop document's spare in the trash."""
    root = ws / "build"
    assert run(ws, *BUILD) == 0
    _text_edit(ws, 1)
    assert run(ws, *BUILD) == 0
    found = _spare_of(root)
    assert found is not None and found.is_file()
    return root, found


def _not_reused(monkeypatch) -> list:
    moved: list = []
    real = spare.Spare.open_as
    monkeypatch.setattr(spare.Spare, "open_as", lambda self, *a: moved.append(self.entry) or real(self, *a))
    return moved


def _hard_link(root: Path, found: Path, tmp_path: Path) -> bytes:
    os.link(found, tmp_path / "my-copy.pdf")
    return (tmp_path / "my-copy.pdf").read_bytes()


def _touched(root: Path, found: Path, tmp_path: Path) -> bytes:
    with open(found, "r+b") as f:
        f.seek(0, 2)
        f.write(b"%% mine\n")
    return found.read_bytes()


def _unsealed(root: Path, found: Path, tmp_path: Path) -> bytes:
    record = root / TRASH / spare.SPARES
    head, _, text = record.read_bytes().partition(b"\n")
    record.write_bytes(b'{"check": "0"}\n' + text)
    return found.read_bytes()


def _foreign(root: Path, found: Path, tmp_path: Path) -> bytes:
    record = root / TRASH / spare.SPARES
    head, _, text = record.read_bytes().partition(b"\n")
    record.write_bytes(head.replace(b'"check": "', b'"check": "f') + b"\n" + text)
    return found.read_bytes()


def _symlink(root: Path, found: Path, tmp_path: Path) -> bytes:
    mine = tmp_path / "mine.pdf"
    mine.write_bytes(found.read_bytes())
    found.unlink()
    found.symlink_to(mine)
    return mine.read_bytes()


@pytest.mark.parametrize("spoil", [_hard_link, _touched, _unsealed, _foreign, _symlink])
def test_a_spare_that_is_not_pnpgens_own_any_more_is_not_touched(tmp_path, small, monkeypatch, spoil):
    ws = _game(tmp_path / "ws")
    root, found = _spared(tmp_path, ws)
    kept = spoil(root, found, tmp_path)
    moved = _not_reused(monkeypatch)
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0
    assert found not in moved
    if spoil is _hard_link:
        assert (tmp_path / "my-copy.pdf").read_bytes() == kept  # the designer's copy keeps its bytes
    elif spoil is _symlink:
        assert (tmp_path / "mine.pdf").read_bytes() == kept and found.is_symlink()
    elif found.exists():
        assert found.read_bytes() == kept
    cold = _cold(tmp_path, ws, "cold")
    assert (root / DOC).read_bytes() == (cold / DOC).read_bytes()


def test_a_document_a_reader_holds_open_keeps_its_bytes_through_the_next_builds(tmp_path, small, monkeypatch):
    """A PDF viewer showing the last document (or a print job reading it) holds the replaced file
    open: it becomes the spare, and is never rewritten under the reader (a new file is written)."""
    ws = _game(tmp_path / "ws")
    root = ws / "build"
    assert run(ws, *BUILD) == 0
    _text_edit(ws, 1)
    with open(root / DOC, "rb") as viewer:
        kept = viewer.read()
        assert run(ws, *BUILD) == 0  # the document the viewer shows is replaced: now the spare
        found = _spare_of(root)
        assert found is not None and found.stat().st_ino == os.fstat(viewer.fileno()).st_ino
        _text_edit(ws, 2)
        assert run(ws, *BUILD) == 0
        viewer.seek(0)
        assert viewer.read() == kept
    assert (root / DOC).read_bytes() == (_cold(tmp_path, ws, "cold") / DOC).read_bytes()


def test_a_disk_the_spares_fill_frees_them_and_the_build_goes_on(tmp_path, small, monkeypatch):
    """The spares cost one old copy of each big document: on a disk they filled, a build that
    would fit without them frees them and writes the new set, rather than failing for want of
    room pnpgen itself holds."""
    ws = _game(tmp_path / "ws")
    root, found = _spared(tmp_path, ws)
    real = assemble.PdfFile.write_into

    def full_while_spares_are_kept(self, fd):  # (the disk has room once the spares are freed)
        if spare.kept(root / TRASH):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, fd)

    monkeypatch.setattr(assemble.PdfFile, "write_into", full_while_spares_are_kept)
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0
    assert not found.exists()  # (the files this build replaced are the spares now)
    monkeypatch.undo()
    assert (root / DOC).read_bytes() == (_cold(tmp_path, ws, "cold") / DOC).read_bytes()


def test_clean_frees_the_spares(tmp_path, small):
    ws = _game(tmp_path / "ws")
    root, found = _spared(tmp_path, ws)
    clean(root)
    assert not found.exists() and not (root / TRASH).exists()


def test_killed_while_the_spare_is_rewritten_the_old_set_stays_and_the_next_build_is_right(tmp_path, small):
    ws = _game(tmp_path / "ws")
    root, found = _spared(tmp_path, ws)
    before = {p: p.read_bytes() for p in (root / "test").rglob("*.pdf")}
    _text_edit(ws, 2)
    code = ("import runpy, sys; from pnpgen.engine import transaction as t, trash; t.BIG_DOCUMENT = 1; "
            "trash.RECLAIM_MIN = 1000; sys.argv = ['pnpgen', *sys.argv[1:]]; runpy.run_module('pnpgen', run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-u", "-c", code, *BUILD], cwd=ws, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, preexec_fn=ctrl_c_as_in_a_terminal,
                            env=child_env(**{transaction.PAUSE_ENV: "120"}))
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert transaction.PAUSE_ENV.encode() in line, line + proc.stderr.read()
    assert not found.exists()  # the spare is in the staging folder, rewritten
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert {p: p.read_bytes() for p in (root / "test").rglob("*.pdf")} == before
    assert run(ws, *BUILD) == 0
    assert not (root / STAGING).exists()
    cold = _cold(tmp_path, ws, "cold")
    assert (root / DOC).read_bytes() == (cold / DOC).read_bytes()


HALFWAY = """
import os, runpy, sys, time
from pnpgen.engine import transaction, trash
from pnpgen.errors import InputError
from pnpgen.pdf import assemble
transaction.BIG_DOCUMENT, trash.RECLAIM_MIN = 1, 1000
real = assemble.PdfFile.write_into

def halfway(self, out):
    # a spare's rewrite (its file already holds the common bytes): by the build's process itself
    # when what follows them is all in memory, as after a text edit
    first = self.parts[0]
    if os.lseek(out, 0, os.SEEK_CUR) > 0 and isinstance(first, bytes):
        os.write(out, first[:len(first) // 2])
        os.write(2, b"rewriting\\n")
        time.sleep(120)
    real(self, out)

assemble.PdfFile.write_into = halfway
sys.argv = ["pnpgen", *sys.argv[1:]]
runpy.run_module("pnpgen", run_name="__main__")
"""


def test_killed_halfway_through_rewriting_a_spare_the_old_set_stays(tmp_path, small):
    ws = _game(tmp_path / "ws")
    root, _ = _spared(tmp_path, ws)
    spares = {(root / TRASH / v[0]).stat().st_ino for v in spare.read(root / TRASH).spares.values()}
    before = {p: p.read_bytes() for p in (root / "test").rglob("*.pdf")}
    _text_edit(ws, 2)
    proc = subprocess.Popen([sys.executable, "-u", "-c", HALFWAY, *BUILD], cwd=ws, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, start_new_session=True, env=child_env())
    assert proc.stderr is not None
    said = []
    while (line := proc.stderr.readline()) and b"rewriting" not in line:
        said.append(line)
    assert b"rewriting" in line, b"".join(said)
    staged = {p.stat().st_ino for p in (root / STAGING).iterdir() if p.name != transaction.STAGED}
    assert staged & spares  # a spare, half rewritten, under a staged name
    os.killpg(proc.pid, signal.SIGKILL)  # the build and its copying processes, as a power cut would
    proc.communicate(timeout=60)
    assert {p: p.read_bytes() for p in (root / "test").rglob("*.pdf")} == before
    assert run(ws, *BUILD) == 0
    assert not (root / STAGING).exists()
    cold = _cold(tmp_path, ws, "cold")
    for rel in ("test/cards.pdf", DOC, "test/test-all.pdf"):
        assert (root / rel).read_bytes() == (cold / rel).read_bytes(), rel


def test_two_jobs_write_the_same_bytes_as_one(tmp_path, small):
    outs = []
    for jobs in ("1", "2"):
        ws = _game(tmp_path / f"ws{jobs}")
        build = ("build", "--game", "test", "--no-rulebook", "--jobs", jobs)
        assert run(ws, *build) == 0
        for n in (1, 2):
            _text_edit(ws, n)
            assert run(ws, *build) == 0
        outs.append({p.relative_to(ws / "build").as_posix(): p.read_bytes()
                     for p in (ws / "build" / "test").rglob("*.pdf")})
    assert outs[0] == outs[1]


def test_the_reclaim_frees_every_entry_but_the_live_spares(tmp_path, small, monkeypatch):
    # Each build's reclaim run here, when it returns: the detached process it starts (a new
    # interpreter, seconds late on a loaded machine) freed entries beside this test's own
    # empty_trash calls, and the trash folder, holding an entry it had just moved to its private
    # name, was still there at the last line (flaky under load, trial36)
    monkeypatch.setattr(trashes, "reclaim", lambda root: trashes.empty_trash(root / TRASH, keep_spares=True))
    ws = _game(tmp_path / "ws")
    root, _ = _spared(tmp_path, ws)
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0  # the spares reused; the files this build replaced are the new spares
    trash = root / TRASH
    other = trash / "9999-000000"  # an entry a sealed record names that is no spare
    other.write_bytes(b"x" * 2000)
    trashes.Trash(trash, "9999").record(["000000"])
    live = spare.kept(trash)
    assert len(live) == 4
    trashes.empty_trash(trash, keep_spares=True)  # what the detached reclaim runs
    assert not other.exists() and spare.kept(trash) == live and all((trash / n).is_file() for n in live)
    trashes.empty_trash(trash)  # what pnpgen clean runs
    assert not trash.exists()


def _swapped_spare(tmp_path: Path, monkeypatch, failures: int, swapped: bool = True):
    """A trash entry whose file was swapped for a designer's since its record was read (or, not
    ``swapped``, pnpgen's spare that someone hard-linked), taken into a staging folder; putting it
    back fails ``failures`` times (a trash folder gone, read-only)."""
    root = tmp_path / "out"
    (root / TRASH).mkdir(parents=True)
    entry = root / TRASH / "abc-000000"
    entry.write_bytes(b"a designer's file" * 100)
    if not swapped:
        os.link(entry, tmp_path / "linked.pdf")
    identity = spare.file_identity(entry.lstat())
    taken = spare.Spare(entry, [identity[0], identity[1] + swapped, *identity[2:]], 100, 1)
    monkeypatch.setattr(spare, "_still", lambda path, identity: True)  # (swapped, or linked, after open_as's check)
    staging = transaction.Staging(root)
    staging.begin()
    staged = staging.folder / staging.name_of(root / "deck.pdf", b"new")
    staging.seal()
    real, real_link, left = os.rename, os.link, [failures]

    def no_way_back(src, dst):
        if Path(dst).parent == entry.parent and Path(src) == staged and left[0]:  # (any name in the trash)
            left[0] -= 1
            raise OSError(errno.EACCES, "Permission denied", str(dst))
        real(src, dst)

    def no_link_back(src, dst, **kwargs):
        if Path(dst).parent == entry.parent and Path(src) == staged and left[0]:
            raise OSError(errno.EACCES, "Permission denied", str(dst))  # (then the rename is tried)
        real_link(src, dst, **kwargs)
    monkeypatch.setattr(spare.os, "rename", no_way_back)
    monkeypatch.setattr(spare.os, "link", no_link_back)
    assert taken.open_as(staged, 0o644) is None
    os.close(os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL))  # the new file written in its place
    return staging, entry


def test_a_swapped_spare_that_cannot_go_back_at_once_goes_back_on_a_second_try(tmp_path, monkeypatch):
    staging, entry = _swapped_spare(tmp_path, monkeypatch, failures=1)
    staging.discard()
    assert entry.read_bytes() == b"a designer's file" * 100
    assert not staging.folder.exists()


def test_a_swapped_spare_that_cannot_go_back_is_never_deleted_with_the_staging_folder(tmp_path, monkeypatch):
    staging, entry = _swapped_spare(tmp_path, monkeypatch, failures=99)
    with pytest.raises(InputError, match="holds what pnpgen did not stage there"):
        staging.discard()
    assert [p.read_bytes() for p in staging.folder.iterdir()] == [b"a designer's file" * 100]


def test_a_linked_spare_that_cannot_go_back_loses_only_pnpgens_name_of_it(tmp_path, monkeypatch):
    staging, entry = _swapped_spare(tmp_path, monkeypatch, failures=99, swapped=False)
    staging.discard()
    assert not staging.folder.exists() and not entry.exists()
    assert (tmp_path / "linked.pdf").read_bytes() == b"a designer's file" * 100


def test_a_tail_all_in_memory_is_written_into_the_spare_by_no_process_of_its_own(tmp_path, small, monkeypatch):
    """A text edit's documents differ from their spares after the pictures: what follows is some
    MB in memory, written by the build's process; forking it for that cost more than the writing
    (3,000 cards: its page tables and the copy-on-write faults after). The bytes are a cold build's."""
    ws = _game(tmp_path / "ws")
    root = ws / "build"
    assert run(ws, *BUILD) == 0
    _text_edit(ws, 1)
    assert run(ws, *BUILD) == 0  # the old files become spares
    forks, reused = [], []
    fork, open_as = os.fork, spare.Spare.open_as
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or fork())
    monkeypatch.setattr(spare.Spare, "open_as", lambda self, staged, mode: reused.append(1) or open_as(self, staged, mode))
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0
    assert reused and forks == []
    cold = _cold(tmp_path, ws, "cold")
    for rel in spare.read(root / TRASH).outputs:
        assert (root / rel).read_bytes() == (cold / rel).read_bytes(), rel


def test_each_stored_parts_place_is_hashed_once_for_every_document_of_the_build(tmp_path, small, monkeypatch):
    """A deck's documents show the same pictures (3,000 cards: some 50,000 stored parts each): the
    place of each part (its file, offset and stamp) is hashed once a build, for finding the spares
    and for recording the new layouts, not once per document and again at the commit."""
    ws = _game(tmp_path / "ws")
    root = ws / "build"
    assert run(ws, *BUILD) == 0
    _text_edit(ws, 1)
    assert run(ws, *BUILD) == 0  # the old files become spares
    hashed = []
    blake2b = spare.hashlib.blake2b
    monkeypatch.setattr(spare, "hashlib", type("counted", (), {"blake2b": staticmethod(
        lambda data, **k: hashed.append(data) or blake2b(data, **k))}))
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0
    layouts = spare.read(root / TRASH).outputs
    places = {item.split("/", 1)[1] for v in layouts.values() for item in v[-1].split(";") if "/" in item}
    places.discard("")
    assert len(layouts) >= 3 and places  # the deck's documents, their pictures placed from the art files
    assert len(hashed) == len(set(hashed)) == len(places)


@pytest.mark.parametrize("failing", ["lseek", "fchmod"])
def test_a_spare_cut_and_then_not_rewritten_is_still_freed_by_the_reclaim(tmp_path, small, monkeypatch, failing):
    """A spare cut to its common bytes whose next step then fails is pnpgen's own file still:
    freed (not put back in the trash at a size its record no longer names, a 'stranger' for ever)."""
    ws = _game(tmp_path / "ws")
    root, found = _spared(tmp_path, ws)
    monkeypatch.setattr(trashes, "reclaim", lambda root: None)  # (freed below, not by a process racing this test)
    cut: list[int] = []
    real_cut, real_step = os.ftruncate, getattr(os, failing)

    def cutting(fd, size):
        real_cut(fd, size)
        cut.append(fd)

    def fails_after_the_cut(fd, *args):
        if cut and cut[-1] == fd:
            cut.pop()
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_step(fd, *args)

    monkeypatch.setattr(spare.os, "ftruncate", cutting)
    monkeypatch.setattr(spare.os, failing, fails_after_the_cut)
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0
    monkeypatch.undo()
    trash = root / TRASH
    trashes.empty_trash(trash, keep_spares=True)  # what the detached reclaim runs
    assert not found.exists()
    assert trashes.strangers(trash) == []
    assert (root / DOC).read_bytes() == (_cold(tmp_path, ws, "cold") / DOC).read_bytes()


def _spare_to_take(tmp_path: Path):
    """pnpgen's spare in the trash (its entry, stat and record as ``find`` gives it) and the name
    a sealed staging folder holds for it."""
    root = tmp_path / "out"
    (root / TRASH).mkdir(parents=True)
    entry = root / TRASH / "abc-000000"
    entry.write_bytes(b"pnpgen's old document" * 100)
    st = entry.lstat()
    taken = spare.Spare(entry, spare.file_identity(st), 100, 1)
    staging = transaction.Staging(root)
    staging.begin()
    staged = staging.folder / staging.name_of(root / "deck.pdf", b"new")
    staging.seal()
    return entry, st, taken, staged


def test_a_file_swapped_into_the_staged_name_after_the_cut_is_never_deleted(tmp_path, monkeypatch):
    """The spare cut, then its staged name swapped for someone's file before the next step fails:
    that file is not pnpgen's (another inode), so it is moved back, never freed."""
    entry, st, taken, staged = _spare_to_take(tmp_path)
    real = os.fchmod

    def swapped_then_fails(fd, mode):
        if os.fstat(fd).st_ino == st.st_ino:
            os.rename(staged, tmp_path / "cut.pdf")
            staged.write_bytes(b"a designer's file")
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(fd, mode)

    monkeypatch.setattr(spare.os, "fchmod", swapped_then_fails)
    assert taken.open_as(staged, 0o644) is None
    assert (tmp_path / "cut.pdf").stat().st_size == 100  # (it was cut)
    assert entry.read_bytes() == b"a designer's file" and not staged.exists()


def test_a_spare_put_back_never_replaces_a_file_that_took_its_trash_name_meanwhile(tmp_path, monkeypatch):
    """A spare taken into staging, then found open elsewhere (so not rewritten): while it was out,
    a file took its name in the trash (a sync tool's copy, a designer's file). Putting the spare
    back does not replace that file (a rename would); pnpgen's spare loses only its own name."""
    entry, st, taken, staged = _spare_to_take(tmp_path)

    def name_taken_and_open_elsewhere(fd):
        entry.write_bytes(b"a designer's file")  # the trash name taken while the spare is out
        return False

    monkeypatch.setattr(spare, "_open_nowhere_else", name_taken_and_open_elsewhere)
    assert taken.open_as(staged, 0o644) is None
    assert entry.read_bytes() == b"a designer's file"
    assert not staged.exists()  # pnpgen's own spare freed, not left in the staging folder


def test_a_spare_put_back_goes_under_a_record_of_its_own_and_is_freed(tmp_path, monkeypatch):
    """A spare taken into staging and found open elsewhere (so not rewritten) goes back into the
    trash: its move set its change time anew, so the record it was taken under no longer names
    it; it goes under a new entry's name and sealed record, pnpgen's to free, never a stranger."""
    entry, st, taken, staged = _spare_to_take(tmp_path)
    trash = entry.parent
    taken.give_back = lambda spare_file, still: trashes.take_back(trash, spare_file, still)
    monkeypatch.setattr(spare, "_open_nowhere_else", lambda fd: False)
    assert taken.open_as(staged, 0o644) is None
    back = [p for p in trash.iterdir() if p.name.endswith("-spare")]
    assert not staged.exists() and not entry.exists() and len(back) == 1
    assert back[0].stat().st_ino == st.st_ino and back[0].read_bytes() == b"pnpgen's old document" * 100
    assert trashes.strangers(trash) == []
    trashes.empty_trash(trash)
    assert not trash.exists()


def test_a_spare_whose_bytes_differ_from_its_record_is_used_only_before_them(tmp_path):
    """A spare whose bytes were changed behind its record (its stamp put back) is trusted only up
    to the part in memory that differs: its layout names the pictures, never the drawing's bytes."""
    art = tmp_path / "art.bin"
    art.write_bytes(bytes(range(256)) * 64)
    drawing = [f"q {i} 0 0 1 0 0 cm /F{i} Do Q\n".encode() for i in range(3000)]
    picture = assemble.Stored(str(art), 8192, 100, assemble.file_stamp(art))
    old = assemble.PdfFile((b"head", picture, *drawing, b"tail"))
    new = assemble.PdfFile((b"head", picture, *drawing[:2000], b"q edited Q\n",
                            *drawing[2001:], b"tail"))
    trash = tmp_path / "trash"
    trash.mkdir()
    entry = trash / "0001"
    entry.write_bytes(bytes(old))

    def record() -> spare.Record:
        st = entry.stat()
        return spare.Record(spares={DOC: ["0001", *spare.file_identity(st),
                                          spare.layout_of(old)]})

    found = spare.find(trash, record(), DOC, new, 0)
    assert found is not None and found.parts == 2 + 2000
    assert found.size == len(b"head") + 8192 + sum(map(len, drawing[:2000]))
    whole = entry.read_bytes()
    for at, parts in [(len(whole) // 3, None), (3, 0)]:
        changed = bytearray(whole)
        changed[at] ^= 1
        st = entry.stat()
        entry.write_bytes(bytes(changed))
        os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns))
        found = spare.find(trash, record(), DOC, new, 0)
        assert found is not None and found.size <= at, (found, at)
        if parts is not None:
            assert found.parts == parts
        entry.write_bytes(whole)
        os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_reclaim_still_running_as_the_next_build_commits_frees_nothing_that_commit_moved(tmp_path, small, monkeypatch):
    """A flake of CI's (test_a_commit_reads_the_record_of_spares_twice…: the spare the record names
    gone): the detached reclaim a build starts may still run as the next build commits, read that
    commit's new entries and the record of spares from before it, and free the spare the commit
    had just made. A reclaim frees only the records there as its own commit ended
    (``commits_in``), never a later commit's."""
    monkeypatch.setattr(trashes, "reclaim", lambda root: None)  # (each step run here, in order)
    ws = _game(tmp_path / "ws")
    root = ws / "build"
    trash = root / TRASH
    assert run(ws, *BUILD) == 0
    _text_edit(ws, 1)
    assert run(ws, *BUILD) == 0  # (spares from here on)
    started_with = trashes.commits_in(trash)  # the second build's reclaim starts: what it may free
    before = spare.read(trash).spare_names(trash)  # ...and, slow to start, the record of spares as it was
    _text_edit(ws, 2)
    assert run(ws, *BUILD) == 0  # the next build commits meanwhile: new entries, a new spare
    made = _spare_of(root)
    assert made is not None and made.name not in before and made.is_file()
    monkeypatch.setattr(spare, "kept", lambda folder: before)  # the reclaim read the record before that commit
    trashes.empty_trash(trash, keep_spares=True, only=started_with)
    assert made.is_file()  # the new spare stays: the later commit's entries are not this reclaim's
    assert set(trashes.commits_in(trash)) - set(started_with)  # (nor its record)
    _text_edit(ws, 3)
    assert run(ws, *BUILD) == 0
    cold = _cold(tmp_path, ws, "cold")
    assert (root / DOC).read_bytes() == (cold / DOC).read_bytes()


def test_a_spares_record_stopped_by_a_signal_leaves_no_temporary(tmp_path, monkeypatch):
    """Ctrl-C or SIGTERM (cli.py: a KeyboardInterrupt) between the record's write and its rename
    left ``.spares.<pid>-<thread>.pnpgen-tmp`` in the trash for the next run to sweep: removed now."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    trash = tmp_path / "trash"
    trash.mkdir()

    def stopped(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(spare.os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        spare.Record(outputs={"a.pdf": [1, 2, 3, "0:"]}).write(trash)
    assert list(trash.iterdir()) == []
