"""A small game's few files are hashed on the build's own thread: threads pay for themselves only
on megabytes (a big deck's art and documents), and every tiny build was starting a pool of two."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import pytest

from conftest import make_workspace, run
from pnpgen.engine import fingerprint


class NoThreads:
    def __init__(self, *args, **kwargs):
        raise AssertionError("a thread pool was started")


def test_a_tiny_build_hashes_without_threads(tmp_path, monkeypatch):
    root = make_workspace(tmp_path, pieces=["A", "B", "C"])
    for i in range(12):  # more files than a pool was started for (8)
        (root / "data" / "test" / f"notes{i}.txt").write_text(f"note {i}", encoding="utf-8")
    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", NoThreads)  # (imported where it hashes on threads)
    assert run(root, "build", "--all", "-q") == 0
    assert (root / "build" / "test").is_dir()


def test_megabytes_to_hash_still_go_to_threads(monkeypatch):
    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", NoThreads)  # (imported where it hashes on threads)
    with pytest.raises(AssertionError, match="thread pool"):
        fingerprint.hashed(len, [b"x", b"y"], size=lambda item: fingerprint.THREADED_BYTES)
    assert fingerprint.hashed(len, [b"x", b"yy"], size=len) == [1, 2]


def test_a_file_reached_through_two_links_is_read_once(tmp_path, monkeypatch):
    """Every test's workspace links the same fonts: each build read and hashed them again (some
    1.6 MB), as the hashes were kept by path."""
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "font.ttf").write_bytes(b"glyphs" * 1000)
    (shared / "OFL.txt").write_text("licence", encoding="utf-8")
    for ws in ("one", "two"):
        (tmp_path / ws).mkdir()
        (tmp_path / ws / "fonts").symlink_to(shared)
    first = fingerprint.fingerprint([tmp_path / "one" / "fonts"], None)
    read: list = []
    real = fingerprint.Path.read_bytes
    monkeypatch.setattr(fingerprint.Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    second = fingerprint.fingerprint([tmp_path / "two" / "fonts"], None)
    assert "font.ttf" not in read and "OFL.txt" not in read
    assert second == first  # (each file named by its place in its folder: a copied workspace is the same game)
    (shared / "OFL.txt").write_text("licence, changed", encoding="utf-8")
    assert fingerprint.fingerprint([tmp_path / "two" / "fonts"], None) != second
    assert "OFL.txt" in read  # a changed file is read again


def test_a_folders_files_are_named_from_it_as_relative_to_names_them(tmp_path, monkeypatch):
    """``fingerprint`` names each file by its text cut after the folder's (not through pathlib's
    ``relative_to``, some 0.05 CPU-s at 3,000 cards' art): the same parts, so the same hash, for a
    folder given by an absolute path, a relative one and ``.``."""
    import hashlib
    import os

    from pnpgen.engine.fingerprint import code
    from pnpgen.engine.fingerprint import fingerprint as fp

    art = tmp_path / "data" / "g" / "art"
    (art / "sub" / "deeper").mkdir(parents=True)
    for rel in ("b.png", "a.png", "sub/c.png", "sub/deeper/d e.png", "ガード.png"):
        (art / rel).write_bytes(rel.encode() * 3)

    def expected(folders):
        parts = [f"pnpgen {code()}".encode(), repr(None).encode()]
        for n, folder in enumerate(folders):
            for path in sorted((p for p in folder.rglob("*") if p.is_file()), key=lambda p: p.relative_to(folder).parts):
                parts += [f"{n}/".encode() + os.fsencode(path.relative_to(folder)),
                          hashlib.sha256(path.read_bytes()).hexdigest().encode()]
        return fingerprint.parts_digest(parts)

    assert fp([art, tmp_path / "data"], None) == expected([art, tmp_path / "data"])
    monkeypatch.chdir(art)
    assert fp([Path("."), Path("sub")], None) == expected([Path("."), Path("sub")])
    monkeypatch.chdir(tmp_path)
    assert fp([Path("data/g/art")], None) == expected([Path("data/g/art")])
