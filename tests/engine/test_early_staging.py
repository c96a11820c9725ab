"""Issue 22: a big document is copied into the staging folder as soon as the build has made it,
by a process forked for it, while the build goes on (engine/transaction.py ``Staging``); the
commit then waits only for what is left of the copy. All or nothing still: a failure or Ctrl-C
after the copies began leaves the old set and no staging folder, and no copying process."""

from __future__ import annotations

import os
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run
from pnpgen.engine import documents as documents_module
from pnpgen.engine import recording, stagecopy, transaction
from pnpgen.engine import run as build_run
from pnpgen.engine.journal import JOURNAL, MADE, STAGED, STAGING
from pnpgen.engine.output import build_lock
from pnpgen.engine.transaction import Staging, commit
from pnpgen.errors import InputError
from pnpgen.pdf.assemble import PdfFile, Stored, file_stamp

pytestmark = pytest.mark.skipif(not transaction.FORKS, reason="copies in forked processes where the kernel copies")
# --jobs 2: documents copied by forked processes (--jobs 1 copies them on the build's own thread);
# a game this small starts no worker either way
BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "2")


def _picture_game(root: Path) -> Path:
    ws = make_workspace(root, deck=PICTURE_DECK_YAML + "".join(
        f"  - {{name: 札{i}, art: p{i}.png, count: 2}}\n" for i in range(3)), front=PICTURE_FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(3):
        (ws / "data" / "test" / "art" / f"p{i}.png").write_bytes(_png(i))
    return ws


def _png(i: int) -> bytes:
    out = BytesIO()
    Image.frombytes("RGB", (64, 48), bytes((i * 40 + k) % 256 for k in range(64 * 48 * 3))).save(out, "PNG")
    return out.getvalue()


def _edit(ws: Path) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("札1", "札いち"), encoding="utf-8")


def _files(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _copies_seen(monkeypatch) -> list[int]:
    """The process ids of the copies started (``_Copy``)."""
    pids: list[int] = []
    real = stagecopy.DocumentCopy.__init__

    def started(self, *args, **kwargs):
        real(self, *args, **kwargs)
        pids.append(self.pid)

    monkeypatch.setattr(stagecopy.DocumentCopy, "__init__", started)
    return pids


def test_the_documents_copied_early_are_the_bytes_a_commit_writes(tmp_path, monkeypatch):
    ws = _picture_game(tmp_path / "ws")
    late, early = tmp_path / "late", tmp_path / "early"
    assert run(ws, *BUILD, "--out", str(late)) == 0  # (documents of a few kB: none copied early)
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)  # every document counts as big
    pids = _copies_seen(monkeypatch)
    real = build_run.commit
    seen = {}

    def at_the_commit(root, files, remove, staging, *later):
        seen["staged"] = sorted(p.name for p in (root / STAGING).iterdir() if p.name not in (STAGED, MADE))
        seen["copying"] = sorted(p.relative_to(root).as_posix() for p in staging.copies)
        return real(root, files, remove, staging, *later)

    monkeypatch.setattr(build_run, "commit", at_the_commit)
    assert run(ws, *BUILD, "--out", str(early)) == 0
    # the four documents were staged before the commit began, each by a process of its own
    assert seen["copying"] == ["test/cards.pdf", "test/shop/cards-unique.pdf", "test/shop/cards.pdf",
                               "test/test-all.pdf"]
    assert len(seen["staged"]) == 4 and len(pids) == 4
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # every copying process waited for
    assert {k: v[0] for k, v in _files(early / "test").items()} == {k: v[0] for k, v in _files(late / "test").items()}
    assert not (early / STAGING).exists() and not (early / JOURNAL).exists()
    _edit(ws)  # an edit: the documents copied early again, the same bytes as a commit's
    assert run(ws, *BUILD, "--out", str(early)) == 0
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1 << 62)
    monkeypatch.setattr(build_run, "commit", real)
    assert run(ws, *BUILD, "--out", str(late)) == 0
    assert {k: v[0] for k, v in _files(early / "test").items()} == {k: v[0] for k, v in _files(late / "test").items()}


def test_a_documents_copy_begins_before_the_next_document_is_drawn(tmp_path, monkeypatch):
    """The copy of each document starts as ``write_documents`` finishes it (its ``ready``), not
    once the whole game is built: the first document is being copied while the others are drawn."""
    ws = _picture_game(tmp_path / "ws")
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    drawn: list[str] = []
    copying_when_drawn: list[int] = []
    real_write, real_early = documents_module.write_pdf, Staging.early

    def drawing(doc, *args, **kwargs):
        copying_when_drawn.append(len(early_calls))
        out = real_write(doc, *args, **kwargs)
        drawn.append(doc)
        return out

    early_calls: list[str] = []

    def early(self, path, data):
        early_calls.append(path.name)
        return real_early(self, path, data)

    monkeypatch.setattr(documents_module, "write_pdf", drawing)
    monkeypatch.setattr(Staging, "early", early)
    assert run(ws, *BUILD) == 0
    assert len(drawn) == 4
    # the n-th document is drawn after the copies of the n-1 before it began
    assert copying_when_drawn == [0, 1, 2, 3]


@pytest.mark.parametrize("failure,status", [(InputError("a failure after the copies began"), 2),
                                            (KeyboardInterrupt(), 130)])
def test_a_failure_after_the_early_copies_began_leaves_the_old_set_and_nothing_staged(tmp_path, monkeypatch,
                                                                                       failure, status):
    ws = _picture_game(tmp_path / "ws")
    out = tmp_path / "out"
    assert run(ws, *BUILD, "--out", str(out)) == 0
    before = _files(out / "test")
    _edit(ws)
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    pids = _copies_seen(monkeypatch)
    staged: list[str] = []

    def fails(*args, **kwargs):  # the history's record comes after the documents are made
        staged.extend(p.name for p in (out / STAGING).iterdir() if p.name not in (STAGED, MADE))
        raise failure

    monkeypatch.setattr(recording, "record", fails)
    assert run(ws, *BUILD, "--out", str(out)) == status
    assert len(staged) == 4 and len(pids) == 4  # the copies had begun
    assert _files(out / "test") == before  # every old file, same bytes, same mtime
    assert not (out / STAGING).exists() and not (out / JOURNAL).exists()
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # stopped and waited for: none left running or unreaped
    monkeypatch.undo()
    assert run(ws, *BUILD, "--out", str(out)) == 0  # the next build writes the edit
    assert _files(out / "test")["cards.pdf"][0] != before["cards.pdf"][0]


def _document(tmp_path: Path, name: str = "art.bin") -> tuple[PdfFile, Path]:
    art = tmp_path / name
    art.write_bytes(os.urandom(300_000))
    return PdfFile((b"%PDF head\n", Stored(str(art), 200_000, 50_000, file_stamp(art)), b"\ntail\n")), art


def _an_output_folder_and_a_big_document(tmp_path: Path, monkeypatch) -> tuple[Path, PdfFile]:
    """An empty output folder, and a document that counts as big (every document does)."""
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    root = tmp_path / "out"
    root.mkdir()
    return root, _document(tmp_path)[0]


def test_an_early_copy_holds_the_folders_lock_and_stages_the_documents_bytes(tmp_path, monkeypatch):
    root, doc = _an_output_folder_and_a_big_document(tmp_path, monkeypatch)
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        assert staging.copies and (root / STAGING).is_dir()
        with pytest.raises(InputError, match="another pnpgen build is writing"):
            with build_lock(root, wait=False):  # held from the first early copy on
                pass
        with staging.lock():
            assert commit(root, {root / "a.pdf": doc}, (), staging) == [root / "a.pdf"]
    assert (root / "a.pdf").read_bytes() == bytes(doc)
    assert (root / "a.pdf").stat().st_mode & 0o777 == 0o666 & ~transaction.current_umask()
    assert not (root / STAGING).exists()
    with build_lock(root, wait=False):  # and let go of after the commit
        pass


def test_a_folder_another_build_holds_gets_no_early_copy_and_the_commit_still_writes(tmp_path, monkeypatch):
    root, doc = _an_output_folder_and_a_big_document(tmp_path, monkeypatch)
    with Staging(root) as staging:
        with build_lock(root):  # another build's commit under way
            staging.early(root / "a.pdf", doc)
            assert not staging.copies and not (root / STAGING).exists()
        with staging.lock():
            assert commit(root, {root / "a.pdf": doc}, (), staging) == [root / "a.pdf"]
    assert (root / "a.pdf").read_bytes() == bytes(doc)


def test_an_art_file_saved_again_before_its_early_copy_is_refused_at_the_commit(tmp_path, monkeypatch):
    """The forked copy finds the art file changed since the build took it and says so; the commit
    refuses in the words of a commit's own copy, and removes what was staged."""
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    root = tmp_path / "out"
    root.mkdir()
    doc, art = _document(tmp_path)
    art.write_bytes(os.urandom(300_001))  # saved again: another size, another time
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        assert staging.copies
        with staging.lock(), pytest.raises(InputError, match="art.bin was saved again while the build wrote"):
            commit(root, {root / "a.pdf": doc}, (), staging)
    assert not (root / "a.pdf").exists() and not (root / STAGING).exists() and not (root / JOURNAL).exists()


def test_without_a_process_to_be_had_a_document_is_copied_in_the_build_s_own(tmp_path, monkeypatch):
    """fork refused (no memory, a limit on processes): the copy is made where the build runs."""
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(transaction.os, "fork", no_fork)
    root = tmp_path / "out"
    root.mkdir()
    doc, _ = _document(tmp_path)
    other, _ = _document(tmp_path, "other.bin")
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        with staging.lock():  # b.pdf: copied at the commit, again without a process of its own
            assert commit(root, {root / "a.pdf": doc, root / "b.pdf": other}, (), staging) == [root / "a.pdf",
                                                                                               root / "b.pdf"]
    assert (root / "a.pdf").read_bytes() == bytes(doc) and (root / "b.pdf").read_bytes() == bytes(other)
    assert not (root / STAGING).exists()


def test_a_document_held_in_memory_is_staged_here_and_let_go_of(tmp_path, monkeypatch):
    """A document with no stored part (text cards) is written into the staging folder by the
    build's own process (a fork would copy the build's page tables for some MB of bytes), and its
    bytes are let go of: it is read from its staged copy from then on, its digest the same."""
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    pids = _copies_seen(monkeypatch)
    root = tmp_path / "out"
    root.mkdir()
    text = b"%PDF-1.7\n" + os.urandom(50_000) + b"\n%%EOF\n"
    doc = PdfFile((text[:9], text[9:20_000], text[20_000:]))
    digest = PdfFile(doc.parts).digest()
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        assert pids == [0]  # no process of its own
        (part,) = doc.parts
        assert isinstance(part, Stored) and Path(part.path).parent == root / STAGING and part.size == len(text)
        assert doc.digest() == digest and bytes(doc) == text
        with staging.lock():
            assert commit(root, {root / "a.pdf": doc}, (), staging) == [root / "a.pdf"]
    assert (root / "a.pdf").read_bytes() == text
    assert not (root / STAGING).exists()


def test_a_commit_tried_again_for_room_writes_the_documents_let_go_of(tmp_path, monkeypatch):
    """Out of room with spares in the trash: the staging folder goes and the commit is tried
    again in a new one; a document whose bytes were let go of is read back before its staged copy
    goes, and written whole."""
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    root = tmp_path / "out"
    root.mkdir()
    text = b"%PDF-1.7\n" + os.urandom(30_000) + b"\n%%EOF\n"
    doc = PdfFile((text,))
    tries = []

    def full():
        tries.append(1)
        if len(tries) == 1:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(transaction, "_pause_for_tests", full)
    monkeypatch.setattr(transaction.spare, "freed_for_room", lambda trash, e: len(tries) == 1)
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        assert isinstance(doc.parts[0], Stored)
        with staging.lock():
            assert commit(root, {root / "a.pdf": doc}, (), staging) == [root / "a.pdf"]
    assert len(tries) == 2 and doc.parts == (text,)
    assert (root / "a.pdf").read_bytes() == text and not (root / STAGING).exists()


def test_a_text_game_s_documents_let_go_of_are_recorded_as_written(tmp_path, monkeypatch):
    """A game of text cards: every document staged early here and let go of before the commit; the
    files are a late commit's bytes, and the state recorded them rightly (a build again rewrites none)."""
    ws = make_workspace(tmp_path / "ws")
    late, early = tmp_path / "late", tmp_path / "early"
    assert run(ws, *BUILD, "--out", str(late)) == 0
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    real = build_run.commit
    seen = {}

    def at_the_commit(root, files, remove, staging, *later):
        seen["let go"] = sorted(p.relative_to(root).as_posix() for p, d in files.items()
                                if isinstance(d, PdfFile) and len(d.parts) == 1 and isinstance(d.parts[0], Stored)
                                and Path(d.parts[0].path).parent == root / STAGING)
        return real(root, files, remove, staging, *later)

    monkeypatch.setattr(build_run, "commit", at_the_commit)
    assert run(ws, *BUILD, "--out", str(early)) == 0
    assert seen["let go"] == ["test/cards.pdf", "test/shop/cards-unique.pdf", "test/shop/cards.pdf",
                              "test/test-all.pdf"]
    built = _files(early / "test")
    assert {k: v[0] for k, v in built.items()} == {k: v[0] for k, v in _files(late / "test").items()}
    assert run(ws, *BUILD, "--out", str(early)) == 0
    assert _files(early / "test") == built  # up to date: nothing written again


def test_a_documents_bytes_are_let_go_of_once_its_copy_has_ended(tmp_path, monkeypatch):
    """A document with pictures, copied by a process of its own: once the copy has ended well and
    its digest is made, the bytes it holds in memory are let go of (read from its staged copy); a
    copy still under way, or a document not yet digested, keeps them."""
    root, doc = _an_output_folder_and_a_big_document(tmp_path, monkeypatch)
    parts, text = doc.parts, bytes(doc)
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        staging.copies[root / "a.pdf"].wait()  # (the copy ended)
        staging.let_go_of_copied()
        assert doc.parts == parts  # no digest made yet: kept
        digest = doc.digest()
        staging.let_go_of_copied()
        (part,) = doc.parts
        assert isinstance(part, Stored) and Path(part.path).parent == root / STAGING
        assert doc.digest() == digest and bytes(doc) == text
        staging.take_back()  # (a commit tried again): the bytes read back, the pictures' parts as they were
        assert doc.parts == parts
        staging.early(root / "a.pdf", doc)  # (held already: nothing new)
        with staging.lock():
            assert commit(root, {root / "a.pdf": doc}, (), staging) == [root / "a.pdf"]
    assert (root / "a.pdf").read_bytes() == text


@pytest.mark.parametrize("change", ["cut short", "written over", "written over, its time set back"])
def test_a_staged_copy_another_program_changed_before_the_commit_is_not_published(tmp_path, monkeypatch, change):
    """A document's bytes let go of once staged (``now_in``): the staged file is all there is of it.
    Another program cutting it short or writing into it before the commit is refused (hostile32:
    the commit published the 50 bytes left, or the bytes written over, under the old digest)."""
    root, _ = _an_output_folder_and_a_big_document(tmp_path, monkeypatch)
    (root / "a.pdf").write_bytes(b"the last good file")
    body = b"%PDF head\n" + bytes(range(256)) * 400 + b"\ntail\n"
    doc = PdfFile((body,))
    with Staging(root) as staging:
        staging.early(root / "a.pdf", doc)
        assert staging.let_go and isinstance(doc.parts[0], Stored)  # its bytes let go of
        staged = staging.copies[root / "a.pdf"].path
        if change == "cut short":
            os.truncate(staged, 50)
        else:
            before = os.stat(staged)
            with open(staged, "r+b") as f:
                f.seek(20)
                f.write(b"EVIL")
            if change.endswith("set back"):  # (the same size and modification time: its change time tells it)
                os.utime(staged, ns=(before.st_atime_ns, before.st_mtime_ns))
        with staging.lock(), pytest.raises(InputError, match="changed by another program before the commit"):
            commit(root, {root / "a.pdf": doc}, (), staging)
    assert (root / "a.pdf").read_bytes() == b"the last good file"
    assert not (root / STAGING).exists() and not (root / JOURNAL).exists()


def test_a_big_pack_of_the_cache_is_staged_as_it_is_made_and_let_go_of(tmp_path, monkeypatch):
    """The cache's packs (the converted faces, the renders, the forms, the layouts…) are written into
    the staging folder as each is made and their bytes let go of, not held to the commit; the files
    the commit puts in place are the bytes each pack was made with, no spare is kept of a pack
    replaced (engine/spare.py), and the next build, an edit, reads them: its documents a fresh build's."""
    ws = make_workspace(tmp_path / "ws")
    out = tmp_path / "out"
    monkeypatch.setattr(transaction, "BIG_ENTRY", 1)  # every pack counts as big
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)  # and every document (a spare is kept of those)
    made: dict[Path, bytes] = {}
    real_pack = build_run.Cache.pack_entry

    def pack_entry(self, kind, records):
        path, data = real_pack(self, kind, records)
        made[path] = data
        return path, data

    monkeypatch.setattr(build_run.Cache, "pack_entry", pack_entry)
    real = build_run.commit
    seen = {}

    def at_the_commit(root, files, remove, staging, *later):
        seen["packs"] = {p: d for p, d in files.items() if p.name.endswith(".pack.json")}
        return real(root, files, remove, staging, *later)

    monkeypatch.setattr(build_run, "commit", at_the_commit)
    assert run(ws, *BUILD, "--out", str(out)) == 0
    kinds = sorted(p.parent.name for p in seen["packs"])
    assert {"converted", "forms", "layouts", "renders"} <= set(kinds)
    for path, data in seen["packs"].items():  # each let go of: its staged copy, not bytes in memory
        assert isinstance(data, PdfFile) and len(data.parts) == 1 and isinstance(data.parts[0], Stored)
        assert Path(data.parts[0].path).parent == out / STAGING
        assert path.read_bytes() == made[path]  # in place, the bytes it was made with
    spares = (out / ".pnpgen-trash" / ".spares").read_text(encoding="utf-8")
    assert ".cache" not in spares and "test/cards.pdf" in spares  # (the documents' spares only)
    _edit_text(ws)
    seen.clear()
    assert run(ws, *BUILD, "--out", str(out)) == 0  # an edit reads the packs the early copies wrote
    late = tmp_path / "late"
    monkeypatch.setattr(transaction, "BIG_ENTRY", 1 << 62)
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1 << 62)
    assert run(ws, *BUILD, "--out", str(late)) == 0
    edited, fresh = _files(out / "test"), _files(late / "test")
    assert {k: edited[k][0] for k in fresh if k.endswith(".pdf")} == {k: v[0] for k, v in fresh.items() if k.endswith(".pdf")}


def _edit_text(ws: Path) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "text: 本文カード1}" in text
    deck.write_text(text.replace("text: 本文カード1}", "text: 本文カード1改}"), encoding="utf-8")
