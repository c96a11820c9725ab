"""A build's first look at its cache (engine/cache.py ``Cache.refuse_links``): every link in it
found, at any depth, from the folders' listings alone — no ``lstat`` a file (a 3,000-card
build's cache holds some 3,000 files, each looked at again: 0.016 CPU-s a build → 0.004)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnpgen.engine.cache import Cache
from pnpgen.errors import InputError


def _cache_of(root: Path, files: int) -> Cache:
    """A cache folder of ``files`` entries spread over a few of pnpgen's kinds and subfolders."""
    cache = Cache(root / "build")
    for i in range(files):
        entry = cache.root / ("faces", "images", "pieces")[i % 3] / f"{i % 7:02x}" / f"{i:064x}.json"
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_bytes(b"{}")
    return cache


def _counted_lstats(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    lstat, islink = os.lstat, os.path.islink

    def counting_lstat(path, *args, **kwargs):
        seen.append(str(path))
        return lstat(path, *args, **kwargs)

    def counting_islink(path):
        seen.append(str(path))
        return islink(path)

    monkeypatch.setattr(os, "lstat", counting_lstat)
    monkeypatch.setattr(os.path, "islink", counting_islink)
    return seen


@pytest.mark.parametrize("files", [30, 60])
def test_the_walk_looks_at_no_file_of_the_cache_by_itself(tmp_path, monkeypatch, files):
    cache = _cache_of(tmp_path, files)
    seen = _counted_lstats(monkeypatch)
    cache.refuse_links()  # nothing to refuse
    assert [s for s in seen if s.endswith(".json")] == []  # (was one each: 30 and 60)


@pytest.mark.parametrize("where", ["renders", "faces/03/link.json", "images/00/deep"])
def test_a_link_at_any_depth_stops_the_build_named_from_the_output_folder(tmp_path, where):
    cache = _cache_of(tmp_path, 30)
    (tmp_path / "elsewhere").mkdir()
    link = cache.root / where
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(InputError) as e:
        cache.refuse_links()
    assert f"the build cache holds a link (.cache/{where})" in str(e.value)


def test_a_link_to_a_file_and_the_first_in_order_is_named(tmp_path):
    cache = _cache_of(tmp_path, 30)
    (tmp_path / "a.json").write_bytes(b"{}")
    for name in ("pieces/05/z.json", "faces/01/b.json", "faces/01/a.json"):
        (cache.root / name).symlink_to(tmp_path / "a.json")
    with pytest.raises(InputError) as e:
        cache.refuse_links()
    assert "(.cache/faces/01/a.json)" in str(e.value)  # the folders and their names walked in order
