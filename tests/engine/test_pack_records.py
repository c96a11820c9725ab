"""A pack of the build cache (``<kind>.pack.json``: the rendered faces, the faces and pages drawn)
is a line per record: writing it again after an edit encodes only the records the edit made, and
copies the others as they were read (a thousand cards' forms pack is some 5 MB of JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import code
from pnpgen.usercache import seal


def _plant(cache: Cache, kind: str, lines: list[bytes]) -> None:
    """A pack of ``lines`` as they are, sealed as this machine seals one."""
    text = b"\n".join(lines)
    path = cache.pack_path(kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(json.dumps({"pnpgen": code(), "check": seal(text)}, sort_keys=True).encode() + b"\n" + text)


def _lines(data: bytes) -> list[bytes]:
    return data.partition(b"\n")[2].split(b"\n")


def test_a_pack_written_again_copies_the_lines_it_read_and_encodes_only_new_records(tmp_path: Path):
    cache = Cache(tmp_path)
    # a record written more tightly than pnpgen writes it: copied as read, so never encoded again
    _plant(cache, "forms/x", [b'["a",{"v":1}]', b'["b", [1, 2]]'])
    records = cache.pack("forms/x")
    assert records == {"a": {"v": 1}, "b": [1, 2]}
    records["b"] = [1, 2, 3]  # made by this build: encoded
    records["c"] = "新"
    path, data = cache.pack_entry("forms/x", records)
    assert path == cache.pack_path("forms/x")
    assert _lines(data) == [b'["a",{"v":1}]', b'["b", [1, 2, 3]]', '["c", "新"]'.encode()]
    path.write_bytes(data)
    assert Cache(tmp_path).pack("forms/x") == records


def test_a_pack_is_written_by_key_whatever_order_its_records_came_in(tmp_path: Path):
    cache = Cache(tmp_path)
    data = cache.pack_entry("renders/x", {"z": 1, "a": {"k": [True, None]}})[1]
    assert _lines(data) == [b'["a", {"k": [true, null]}]', b'["z", 1]']
    assert cache.pack_entry("renders/x", {})[1].partition(b"\n")[2] == b""
    cache.pack_path("renders/x").parent.mkdir(parents=True)
    cache.pack_path("renders/x").write_bytes(cache.pack_entry("renders/x", {})[1])
    assert cache.pack("renders/x") == {}


def test_a_sealed_pack_whose_lines_are_not_one_record_each_is_not_read(tmp_path: Path):
    """A line that is not ``[key, value]`` (a two-letter string unpacks into two), or a key twice:
    the pack is taken as damaged, and the build makes what it would have held."""
    cache = Cache(tmp_path)
    for lines in ([b'"ab"'], [b'{"a": 1, "b": 2}'], [b'[1, 2]'], [b'["a", 1, 2]'], [b'["a", 1]', b'["a", 2]'], [b'["a", 1]', b'']):
        _plant(cache, "forms/x", lines)
        assert cache.pack("forms/x") == {}, lines
    _plant(cache, "forms/x", [b'["a", 1]'])
    assert cache.pack("forms/x") == {"a": 1}
    text = cache.pack_path("forms/x").read_bytes().replace(b'1]', b'2]')  # its seal no longer holds
    cache.pack_path("forms/x").write_bytes(text)
    assert cache.pack("forms/x") == {}
