"""Issue 22: a picture's bytes are read through SHA-256 once on their way into a face, not once
at each place that names the picture by its hash (the art folder, the PNG check, the face's form
stream, its cache record) — counted, not timed."""

from __future__ import annotations

import hashlib

from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run
from pnpgen.data.picturebytes import picture_hash


class _Counted:
    """hashlib.sha256 that counts the passes over each of some byte strings."""

    def __init__(self, watched: list[bytes]) -> None:
        self.real = hashlib.sha256
        self.lengths = {len(b) for b in watched}
        self.passes = dict.fromkeys(watched, 0)

    def __call__(self, data=b"", *args, **kwargs):
        if len(data) in self.lengths and bytes(data) in self.passes:
            self.passes[bytes(data)] += 1
        return self.real(data, *args, **kwargs)


def test_each_picture_is_hashed_twice_in_a_cold_build(tmp_path, monkeypatch):
    """Cold, each picture's bytes are hashed once as a file (its content hash, by which the build
    knows the art) and once as the face's picture (it was four times: the art folder, the PNG
    check, the cache record and the document's image each hashed it again). A worker converting
    faces (--jobs 2) runs the same code, where this process cannot count."""
    n = 12
    ws, art = _pictured(tmp_path, n)
    counted = _Counted([(art / f"a{i}.png").read_bytes() for i in range(1, n + 1)])
    monkeypatch.setattr(hashlib, "sha256", counted)
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    assert (out / "test" / "cards.pdf").is_file()
    assert sorted(set(counted.passes.values())) == [2]


def test_picture_hash_is_the_sha256_of_the_bytes_it_is_given():
    a, b = b"\x89PNG" + bytes(1000), b"\x89PNG" + bytes(999) + b"\x01"
    assert picture_hash(a) == hashlib.sha256(a).hexdigest()
    assert picture_hash(b) == hashlib.sha256(b).hexdigest()
    assert picture_hash(a) == hashlib.sha256(a).hexdigest()  # asked again: the same answer
    assert picture_hash(bytes(a)) == picture_hash(a)  # equal bytes, another object


def test_pieces_hashed_by_the_converting_workers_are_not_read_again(tmp_path, monkeypatch):
    """With --jobs 2 a converting worker, which holds a picture's bytes, hashes the pieces the
    documents copy from the art file; the documents' digests (what the game's state records) then
    read no art file in the build's own process (1,000 cards: 300 MB), and the files are those
    one process writes."""
    from pnpgen.pdf import assemble

    n = 70  # over the workers' thresholds: the faces convert in worker processes
    ws, art = _pictured(tmp_path, n)
    read: list[str] = []
    real = assemble.Stored.read_from

    def counted(self, sources):
        read.append(self.path)
        return real(self, sources)

    monkeypatch.setattr(assemble.Stored, "read_from", counted)
    outs = []
    for jobs in ("2", "1"):
        read.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs.append((out / "test", {p for p in read if p.startswith(str(art))}))
    (two, read_two), (one, read_one) = outs
    assert read_two == set()
    assert len(read_one) == n  # one process: each picture's pieces read once, for the digests
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)


def _pictured(tmp_path, n: int):
    """A workspace of ``n`` cards, each with a picture of its own: (workspace, its art folder)."""
    pieces = "".join(f"  - {{name: 札{i}, art: a{i}.png}}\n" for i in range(1, n + 1))
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + pieces, front=PICTURE_FRONT)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    for i in range(1, n + 1):
        Image.new("RGB", (40 + i, 30), (3 * i, 90, 200)).save(art / f"a{i}.png")
    return ws, art
