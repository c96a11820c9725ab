"""Files known by their stamps (engine/fingerprint.py FileHashes): a build that finds nothing changed
reads none of the documents it wrote (a big deck's are a gigabyte), a file changed since is
still found out by its content, and a stamp taken in the same instant as a change is not trusted."""

from __future__ import annotations

import builtins
import os
from hashlib import sha256
from pathlib import Path

from conftest import FEW_CARDS, make_workspace, run
from pnpgen.engine.fingerprint import FileHashes


def reads_under(monkeypatch, folder: Path, opened: bool = False) -> list[Path]:
    """The files below ``folder`` read (``Path.read_bytes``; ``opened``: or opened for reading)
    from now on."""
    read: list[Path] = []
    real, real_open = Path.read_bytes, builtins.open

    def counted(self):
        if folder in self.parents:
            read.append(self)
        return real(self)

    def open_counted(file, mode="r", *args, **kwargs):
        if isinstance(file, (str, Path)) and "r" in mode and folder in Path(file).parents:
            read.append(Path(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", counted)
    if opened:
        monkeypatch.setattr(builtins, "open", open_counted)
    return read


def test_a_build_with_nothing_changed_reads_none_of_its_documents(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    real = Path.read_bytes
    read = reads_under(monkeypatch, out, opened=True)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert read == []
    pdf = out / "cards.pdf"
    data = bytearray(real(pdf))
    data[-40] ^= 0xFF  # one byte changed in place, same size
    pdf.write_bytes(bytes(data))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert pdf in read  # its stamp changed: read, found changed, written again
    assert real(pdf) != bytes(data)


def test_a_stamp_taken_in_the_instant_of_a_change_is_not_trusted(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"one")
    hashes = FileHashes(tmp_path / ".cache")
    st = path.stat()
    hashes.learn(path, st, "h-one")
    assert hashes.get(path) is None  # hashed within RACY_NS of its change: read again next time
    old = st.st_mtime_ns - 3 * FileHashes.RACY_NS
    os.utime(path, ns=(old, old))
    hashes.learn(path, path.stat(), "h-one")
    assert hashes.get(path) == "h-one"
    hashes.save()
    again = FileHashes(tmp_path / ".cache")
    assert again.get(path) == "h-one"
    path.write_bytes(b"two")
    assert again.get(path) is None  # a new stamp
    again.wrote(path, "h-two")
    assert again.get(path) == "h-two"  # what pnpgen wrote is trusted at once
    (tmp_path / ".cache" / "hashes" / "files.json").write_bytes(b'{"format": 1, "files": {')  # cut short
    assert FileHashes(tmp_path / ".cache").get(path) is None


def test_an_edit_reads_no_art_file_it_knows(tmp_path, monkeypatch):
    from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, picture_workspace

    pieces = "".join(f"  - {{name: 札{i}, art: {n}, count: 1}}\n" for i, n in enumerate(["a.png", "b.png"], 1))
    ws = picture_workspace(tmp_path / "ws", pieces, PICTURE_FRONT, {"a.png": (200, 0, 0), "b.png": (0, 0, 200)})
    art = ws / "data" / "test" / "art"
    for path in art.iterdir():  # art made long ago, as a designer's is
        os.utime(path, ns=(path.stat().st_mtime_ns - 10**10,) * 2)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    (ws / "data/test/decks/cards.yaml").write_text(PICTURE_DECK_YAML + pieces.replace("札1", "札一"), encoding="utf-8")
    read = reads_under(monkeypatch, art)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert read == [art / "a.png"]  # the edited card's picture, drawn again; not b.png, not hashed to fingerprint


def test_a_hash_learned_in_the_instant_of_a_change_is_learned_again_while_its_file_keeps_its_stamp(tmp_path, monkeypatch):
    """``learn_again``, after a build's commit: what fingerprinting the inputs again taught the table."""
    import time

    kept, changed, old = tmp_path / "kept.txt", tmp_path / "changed.txt", tmp_path / "old.txt"
    for path in (kept, changed, old):
        path.write_bytes(b"one")
    hashes = FileHashes(tmp_path / ".cache")
    for path in (kept, changed):
        hashes.learn(path, path.stat(), sha256(b"one").hexdigest())
    hashes.wrote(old, "h-old")
    assert hashes.get(kept) is None and hashes.get(changed) is None  # within RACY_NS of their change
    changed.write_bytes(b"two!")  # a new stamp: its entry is not the file's
    later = time.time_ns() + 3 * FileHashes.RACY_NS
    monkeypatch.setattr(time, "time_ns", lambda: later)
    hashes.learn_again()
    assert hashes.get(kept) == sha256(b"one").hexdigest()
    assert hashes.get(changed) is None
    assert hashes._known[str(old)][5] != later  # pnpgen's own file: trusted already, left as it was
    hashes.save()
    assert FileHashes(tmp_path / ".cache").get(kept) == sha256(b"one").hexdigest()


def test_a_file_saved_again_in_the_tick_it_was_read_in_is_not_vouched_for_by_its_stamp(tmp_path, monkeypatch):
    """On a disk whose times are coarse (FAT: 2 s, HFS+: 1 s), a file saved again, the same size, in
    the clock tick a build read it in keeps its stamp: the table trusts a hash only as of when the
    content was read, neither after the commit (learn_again) nor when the process's memo of
    contents gives it again (the next build of watch or serve, in the same process)."""
    import time

    from pnpgen.engine.fingerprint import content_hash

    # a disk of coarse times: the change time is the modification time, and a save in the same tick keeps it
    monkeypatch.setattr(FileHashes, "_stamp", staticmethod(lambda st: [st.st_size, st.st_mtime_ns, 0, st.st_ino]))
    tick = time.time_ns() - FileHashes.RACY_NS // 2
    one, two = sha256(b"count: 1").hexdigest(), sha256(b"count: 2").hexdigest()
    for name in ("a.yaml", "b.yaml"):
        path = tmp_path / name
        path.write_bytes(b"count: 1")
        os.utime(path, ns=(tick, tick))
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    hashes = FileHashes(tmp_path / ".cache")
    seen = b.stat()
    assert content_hash(a, hashes) == one and content_hash(b, hashes, seen) == one  # the build read them in their instant
    for path in (a, b):
        path.write_bytes(b"count: 2")
        os.utime(path, ns=(tick, tick))  # saved again in the same tick
    later = time.time_ns() + 3 * FileHashes.RACY_NS
    monkeypatch.setattr(time, "time_ns", lambda: later)
    hashes.learn_again()  # after the build's commit
    assert hashes.get(a) in (None, two)
    again = FileHashes(tmp_path / ".cache")  # the next run in this process (watch, serve)
    assert content_hash(b, again, seen) == two  # the same stamp (such a disk's change time too): read again
    assert again.get(b) in (None, two)


def test_the_check_and_the_build_share_one_table_of_hashes(tmp_path, monkeypatch):
    """The up-to-date check's table is the build's: read once, the inputs not fingerprinted again
    after the commit, and what the check learned (the edited deck's hash) kept for the next run."""
    import hashlib

    from pnpgen.engine import fingerprint as fp
    from pnpgen.engine import run as engine_run

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "本文カード一"), encoding="utf-8")
    reads: list[Path] = []
    real_read = FileHashes._read
    monkeypatch.setattr(FileHashes, "_read", lambda self: reads.append(self.path) or real_read(self))
    again: list[object] = []
    monkeypatch.setattr(engine_run, "fingerprint", lambda *a, **k: again.append(a) or fp.fingerprint(*a, **k))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert reads == [ws / "build/.cache/hashes/files.json"]  # read once, by the check
    assert again == []  # nothing fingerprinted after the commit
    table = FileHashes(ws / "build/.cache")
    assert table._known[str(deck)][4] == hashlib.sha256(deck.read_bytes()).hexdigest()


def test_a_files_hash_is_looked_up_once_a_build_and_again_the_next(tmp_path, monkeypatch):
    """``Cache.digest`` (a card's picture: its size, the render memo, the faces' pictures, the art
    files ask it) looks a file up in the table once per build, by its stat as the build first saw
    it; the next build (another ``Cache``) looks again, and finds a file changed by its content."""
    from pnpgen.engine import cache as cache_module
    from pnpgen.engine.cache import Cache

    picture = tmp_path / "art.png"
    picture.write_bytes(b"one")
    asked: list[Path] = []
    real = cache_module.content_hash

    def counted(path, known=None, st=None):
        asked.append(path)
        return real(path, known, st)

    monkeypatch.setattr(cache_module, "content_hash", counted)
    first = Cache(tmp_path / "build")
    assert [first.digest(picture) for _ in range(4)] == [sha256(b"one").hexdigest()] * 4
    assert asked == [picture]
    picture.write_bytes(b"two!")
    assert first.digest(picture) == sha256(b"one").hexdigest()  # (this build's stat of it, as it first saw it)
    second = Cache(tmp_path / "build")
    assert second.digest(picture) == second.digest(picture) == sha256(b"two!").hexdigest()
    assert asked == [picture, picture]


def test_a_picture_repainted_in_place_with_its_size_and_time_kept_is_seen(tmp_path, monkeypatch):
    """The art gate's stamp is the file's size, modification time, change time and inode: a
    picture painted over in place, the same number of bytes, its modification time set back as
    it was (an editor or a sync tool that keeps times) still has a new change time, which no one
    can set back, so it is hashed again and drawn anew — the same documents as a cold build's."""
    from PIL import Image

    from conftest import PICTURE_FRONT, picture_workspace
    from pdfprobe import image_xobjects, reader

    ws = picture_workspace(tmp_path / "ws", "  - {name: 札1, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 0, 0)},
                           size=(40, 30))
    path = ws / "data" / "test" / "art" / "a.png"

    def painted(colour: tuple[int, int, int]) -> bytes:  # (stored, not compressed: the size is the picture's size)
        im = Image.new("RGB", (40, 30), colour)
        im.paste((255, 255, 255), (0, 0, 20, 15))
        im.save(tmp_path / "p.png", compress_level=0)
        return (tmp_path / "p.png").read_bytes()

    path.write_bytes(painted((200, 0, 0)))
    old = path.stat().st_mtime_ns - 10**10  # painted long ago: no doubt about its stamp
    os.utime(path, ns=(old, old))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    first, again = path.read_bytes(), painted((0, 0, 200))
    assert len(again) == len(first) and again != first  # (the case: the same size, other pixels)
    ino = path.stat().st_ino
    with open(path, "r+b") as f:  # painted over in place: the same file, the same inode
        f.write(again)
    os.utime(path, ns=(old, old))
    st = path.stat()
    assert (st.st_size, st.st_mtime_ns, st.st_ino) == (len(first), old, ino)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    for name in ("cards.pdf", "shop/cards.pdf"):
        (shown,) = image_xobjects(reader(ws / "build" / "test" / name)).values()
        assert bytes(shown.get_data()[-3:]) == bytes((0, 0, 200)), name  # the new paint (the corner: white)
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    cold = tmp_path / "cold"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(cold)) == 0
    for name in ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf"):
        assert (ws / "build" / "test" / name).read_bytes() == (cold / "test" / name).read_bytes(), name
