"""A game's inputs listed for its fingerprint (engine/fingerprint.py ``_files``): the files ``rglob``
found — links to files too, never the inside of a linked folder, no ``__pycache__`` or litter —
in the order of their paths, each stat-ed once (a thousand cards' art was stat-ed three times a
fingerprint, four fingerprints a build)."""

from __future__ import annotations

import os
from pathlib import Path

from pnpgen.engine import fingerprint


def _tree(root: Path) -> Path:
    art = root / "art"
    for folder in ("a/b", "__pycache__", "a-b", "A"):
        (art / folder).mkdir(parents=True)
    for name in ("x.png", "a/y.png", "a/b/z.png", "a-b/q.png", ".hidden.png", "__pycache__/c.pyc", ".DS_Store",
                 "a.b", "A/x", "B", "a0", "é.png", "Z.png"):
        (art / name).write_bytes(name.encode())
    os.symlink(art / "x.png", art / "link.png")
    os.symlink(art / "a", art / "dirlink")  # a linked folder: not entered
    os.symlink(art / "nope", art / "dangling.png")
    os.symlink("loop", art / "loop")
    os.mkfifo(art / "fifo")
    return art


def test_the_inputs_listed_are_the_files_in_the_order_of_their_paths(tmp_path):
    art = _tree(tmp_path)
    listed = fingerprint._files(art)
    names = [p.relative_to(art).as_posix() for p, _, _ in listed]
    assert names == [".hidden.png", "A/x", "B", "Z.png", "a/b/z.png", "a/y.png", "a-b/q.png", "a.b", "a0",
                     "link.png", "x.png", "é.png"]
    assert [p for p, _, _ in listed] == sorted(p for p, _, _ in listed)  # as paths compare ("a/…" before "a-b/…")
    assert [n for (p, _, link) in listed for n in [p.name] if link] == ["link.png"]
    st = dict((p.name, s) for p, s, _ in listed)
    assert st["link.png"].st_ino == (art / "x.png").stat().st_ino  # a link's stamp is its target's
    assert fingerprint._files(tmp_path / "none") == []


def test_a_fingerprint_stats_each_file_once(tmp_path, monkeypatch):
    art = tmp_path / "art"
    art.mkdir()
    for i in range(50):
        (art / f"card-{i:03d}.png").write_bytes(b"%d" % i)
    first = fingerprint.fingerprint([art], None)
    calls: list[str] = []
    for name in ("stat", "lstat", "is_file", "is_symlink", "is_dir", "exists"):
        real = getattr(Path, name)
        monkeypatch.setattr(Path, name, lambda self, *a, _real=real, _name=name, **k: calls.append(_name) or _real(self, *a, **k))
    assert fingerprint.fingerprint([art], None) == first
    assert len(calls) <= 2  # the folder's own test; never a file's (the old way: three for each of the 50)
    (art / "card-007.png").write_bytes(b"changed")
    assert fingerprint.fingerprint([art], None) != first


def test_a_fingerprint_takes_where_a_linked_folder_points(tmp_path):
    # art/ a link to one folder of pictures, then to another of the same names: a build said "up to
    # date" and kept the old pictures (a cold build drew the new ones); a link leading nowhere the same
    game = tmp_path / "g"
    for folder, data in (("art-v1", b"one"), ("art-v2", b"two")):
        (game / folder).mkdir(parents=True)
        (game / folder / "red.png").write_bytes(data)
    os.symlink("art-v1", game / "art")
    first = fingerprint.fingerprint([game], None)
    assert fingerprint.fingerprint([game], None) == first
    (game / "art").unlink()
    os.symlink("art-v2", game / "art")
    second = fingerprint.fingerprint([game], None)
    assert second != first
    (game / "art").unlink()
    os.symlink("nowhere", game / "art")
    assert fingerprint.fingerprint([game], None) not in (first, second)
    (game / "art").unlink()
    os.symlink("art-v1", game / "art")  # made again (a copied workspace's): where it points is what counts
    assert fingerprint.fingerprint([game], None) == first
    assert [p.name for p, _, _ in fingerprint._files(game)] == ["red.png", "red.png"]  # (listing as rglob does)
