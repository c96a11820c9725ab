"""A build's cache entries named as its state lists them (engine/cache.py ``Cache.entry``,
``face_path``, ``picture_path``): a thousand cards' faces each named every build, cut from the
path's text, not taken apart by ``relative_to`` (edit1k)."""

from __future__ import annotations

from pathlib import Path, PurePath

import pytest

from pnpgen.engine.cache import Cache


def test_an_entry_is_named_from_its_paths_text_as_relative_to_named_it(tmp_path: Path, monkeypatch):
    """Faces, pictures, packs and records are named as ``relative_to`` named them, none taken
    apart by it (counted); a path outside the cache, or one beside it whose name begins the same,
    is still refused as before."""
    cache = Cache(tmp_path / "build")
    keys = [f"{i:032x}-{i * 7:016x}" for i in range(50)]
    paths = [cache.face_path(k) for k in keys] + [cache.picture_path(f"{i:064x}") for i in range(20)]
    paths += [cache.pack_path("forms/big"), cache.record_path("nest", "a key")]
    expected = [p.relative_to(cache.root).as_posix() for p in paths]
    assert expected[0] == f"faces/00/{keys[0]}.json" and expected[50] == f"pictures/00/{0:064x}.bin"
    assert paths[0] == cache.root / "faces" / keys[0][:2] / f"{keys[0]}.json"  # (the path as three joins made it)
    taken_apart = []
    relative_to = PurePath.relative_to
    monkeypatch.setattr(PurePath, "relative_to", lambda self, *a: taken_apart.append(self) or relative_to(self, *a))
    assert [cache.entry(p) for p in paths] == expected
    assert taken_apart == []
    for outside in (tmp_path / "elsewhere.json", tmp_path / "build" / ".cache2" / "x.json"):
        with pytest.raises(ValueError):
            cache.entry(outside)
