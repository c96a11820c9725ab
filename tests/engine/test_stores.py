"""Cache entries written on a thread of their own while faces convert (atomic.py Stores): every
entry given is on disk after ``join``, in the order given, and one that cannot be written comes
back to be written with the build's own files — for a picture's stream, placed from memory."""

from __future__ import annotations

import io
import json

from PIL import Image

from pnpgen.atomic import Stores
from pnpgen.pdf.assemble import Stored
from pnpgen.pdf.raster import ImageStreams


def test_every_entry_is_written_and_the_second_after_the_first(tmp_path):
    stores = Stores(budget=10)  # a tiny budget: put waits for room, nothing is lost
    seen = []
    for i in range(50):
        path = tmp_path / f"{i % 7:02d}" / f"{i}.bin"
        stores.put(path, bytes([i]) * 100, then=lambda p=path: (seen.append(p.is_file()) or p.with_suffix(".json"), b"{}"))
    assert stores.join() == {}
    assert all(seen) and len(seen) == 50
    assert sorted(p.name for p in tmp_path.rglob("*.bin")) == sorted(f"{i}.bin" for i in range(50))
    assert all((tmp_path / f"{i % 7:02d}" / f"{i}.bin").read_bytes() == bytes([i]) * 100 for i in range(50))
    assert not stores.pending


def test_an_entry_that_cannot_be_written_comes_back(tmp_path):
    (tmp_path / "ab").write_bytes(b"a file where a folder goes")
    stores = Stores()
    stores.put(tmp_path / "ab" / "x.bin", b"data")
    stores.put(tmp_path / "cd" / "y.bin", b"more")
    assert stores.join() == {tmp_path / "ab" / "x.bin": b"data"}
    assert (tmp_path / "cd" / "y.bin").read_bytes() == b"more"


def _png(colour) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buf, "PNG")
    return buf.getvalue()


def test_a_stream_the_thread_could_not_write_is_placed_from_memory(tmp_path):
    folder = tmp_path / "images"
    stores = Stores()
    images = ImageStreams(folder, "stamp", stores=stores)
    good, bad = _png((200, 0, 0)), _png((0, 200, 0))
    bad_key = images.key(bad)
    folder.mkdir()
    (folder / bad_key[:2]).write_bytes(b"in the way")  # the bad picture's stream cannot be written
    placed_good, placed_bad = images.locate(good), images.locate(bad)
    rest = images.after_writes(stores.join())
    assert rest == {}
    assert isinstance(placed_good.part, Stored)
    header = json.loads((folder / placed_good.key[:2] / f"{placed_good.key}.json").read_bytes())
    assert header["file"][0] == placed_good.size  # stamped: the next build trusts it unread
    again = images.locate(bad)
    assert isinstance(again.part, bytes) and len(again.part) == placed_bad.size
    assert images.new[images.path(bad_key)] == again.part
    assert json.loads(images.new[images.path(bad_key, "json")])["key"] == bad_key


def _mark_and_store(folder, times, go):
    from pnpgen.atomic import store
    from pnpgen.engine.output import mark_now

    go.wait()
    for i in range(times):
        (folder / ".pnpgen-output").unlink(missing_ok=True)
        mark_now(folder)  # raises the --out error if the other process took its temporary file
        assert store(folder / "shared.bin", bytes([i % 256]) * 64)


def test_two_processes_writing_the_same_files_never_take_each_others_temporary_file(tmp_path):
    """--jobs 2's workers mark the same output folder and may store the same cache entry: each
    writes a temporary file of its own, so neither finds its temporary file renamed away."""
    import multiprocessing

    from pnpgen.engine.output import MARKER_NAME

    assert MARKER_NAME == ".pnpgen-output"
    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    workers = [ctx.Process(target=_mark_and_store, args=(tmp_path, 2000, go)) for _ in range(2)]
    for w in workers:
        w.start()
    go.set()
    for w in workers:
        w.join(60)
    assert [w.exitcode for w in workers] == [0, 0]
    assert (tmp_path / MARKER_NAME).is_file() and (tmp_path / "shared.bin").stat().st_size == 64
    assert not list(tmp_path.glob("*.pnpgen-tmp"))
