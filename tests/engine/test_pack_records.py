"""A pack of the build cache (``<kind>.pack.json``: the rendered faces, the faces and pages drawn)
is a line per record: writing it again after an edit encodes only the records the edit made, and
copies the others as they were read (a thousand cards' forms pack is some 5 MB of JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import code
from pnpgen.memo import Unpacked, pack_line
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
    records = dict(cache.pack("forms/x"))
    assert records == {"a": {"v": 1}, "b": [1, 2]}
    records["b"] = [1, 2, 3]  # made by this build: encoded
    records["c"] = "新"
    path, data = cache.pack_entry("forms/x", records)
    assert path == cache.pack_path("forms/x")
    assert _lines(data) == [b'["a",{"v":1}]', b'["b", [1, 2, 3]]', '["c", "新"]'.encode()]
    path.write_bytes(data)
    assert Cache(tmp_path).pack("forms/x") == records


def test_a_record_given_as_its_json_text_is_the_line_its_value_reads_back_from(tmp_path: Path):
    """A converted face's record (``ArtRecord.text``, its JSON as its own entry holds it) goes
    into the faces' pack as a line made around that text, never decoded and encoded again: the
    pack reads each back as the value the text holds, under keys that need escaping too."""
    cache = Cache(tmp_path)
    records = {'札"1\\': {"items": [["text", "絵札", 1.5]], "w": 63.0}, "k": [None, True], "z": "\u2028新"}
    texts = {k: json.dumps(v, sort_keys=True).encode() for k, v in records.items()}  # (ASCII, as ArtRecord writes)
    assert b"\\u7d75" in texts['札"1\\']  # (escaped: not the line pack_entry would encode)
    path, data = cache.pack_entry("converted/x", {k: pack_line(k, t) for k, t in texts.items()})
    assert _lines(data) == [pack_line(k, texts[k]) for k in sorted(records)]  # the lines as made, by key
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    assert Cache(tmp_path).pack("converted/x") == records


def test_a_pack_is_written_by_key_whatever_order_its_records_came_in(tmp_path: Path):
    cache = Cache(tmp_path)
    data = cache.pack_entry("forms/x", {"z": 1, "a": {"k": [True, None]}})[1]
    assert _lines(data) == [b'["a", {"k": [true, null]}]', b'["z", 1]']
    assert cache.pack_entry("forms/x", {})[1].endswith(b'"}\n')  # the header, a line feed, no record
    cache.pack_path("forms/x").parent.mkdir(parents=True)
    cache.pack_path("forms/x").write_bytes(cache.pack_entry("forms/x", {})[1])
    assert cache.pack("forms/x") == {}


def test_a_sealed_pack_whose_lines_are_not_one_record_each_is_not_read(tmp_path: Path):
    """A line that is not ``[key, value]`` (a two-letter string unpacks into two), or a key twice:
    the pack is taken as damaged, and the build makes what it would have held. A line whose key
    reads but whose value is no ``[key, value]`` is a record not held (found when it is asked for)."""
    cache = Cache(tmp_path)
    for lines in ([b'"ab"'], [b'{"a": 1, "b": 2}'], [b'[1, 2]'], [b'["a", 1]', b'["a", 2]'], [b'["a", 1]', b''],
                  [b'["a\\"", 1]', b'["a\\"", 2]'], [b'["a\\", 1]']):
        _plant(cache, "forms/x", lines)
        assert cache.pack("forms/x") == {}, lines
        assert cache.pack("forms/x").get("a") is None
    for lines in ([b'["a", 1, 2]'], [b'["a", 1], "b"]'], [b'["a", {"b": 1}']):
        _plant(cache, "forms/x", [*lines, b'["c", 3]'])
        assert cache.pack("forms/x") == {"c": 3} and cache.pack("forms/x").get("a") is None, lines
    _plant(cache, "forms/x", [b'["a", 1]'])
    assert cache.pack("forms/x") == {"a": 1}
    text = cache.pack_path("forms/x").read_bytes().replace(b'1]', b'2]')  # its seal no longer holds
    cache.pack_path("forms/x").write_bytes(text)
    assert cache.pack("forms/x") == {}


def test_a_packs_records_are_decoded_only_when_asked_for_and_written_back_as_read(tmp_path: Path, monkeypatch):
    """An edit reads a pack whole (its seal checks every byte) but decodes only the records it
    asks for: the others go back into the next pack as the lines they were (a thousand cards'
    forms are some 5 MB of JSON, 4,450 records)."""
    cache = Cache(tmp_path)
    lines = [json.dumps([f"k{i:03d}", {"n": i, "text": "札" * i}], ensure_ascii=False).encode() for i in range(300)]
    lines.append(b'["tight\\"key",{"n":-1}]')  # (an escape in its key: the line decoded for the key alone)
    _plant(cache, "forms/x", lines)
    decoded: list = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: decoded.append(text) or real(text, *a, **k))
    pack = cache.pack("forms/x", keep=False)
    assert len(pack) == 301 and 'tight"key' in pack
    read_at_open = len(decoded)  # the header, and the one line whose key has an escape
    assert read_at_open == 2
    assert pack["k007"] == {"n": 7, "text": "札" * 7} and pack.get("k299")["n"] == 299
    assert len(decoded) == read_at_open + 2  # the two records asked for, nothing else
    records = {k: pack.line(k) for k in pack if k != "k007"} | {"k300": {"n": 300}}
    path, data = cache.pack_entry("forms/x", records)
    assert len(decoded) == read_at_open + 2  # written back without a record decoded again
    assert _lines(data) == sorted([*(ln for ln in lines if not ln.startswith(b'["k007"')), b'["k300", {"n": 300}]'])


def test_a_memo_kept_from_a_pack_decodes_only_what_the_build_asked_for(tmp_path: Path, monkeypatch):
    """What a memo keeps for the next pack (``Memo.kept``): the records the build asked for, each
    the object it decoded (so its line is written back as read), the others never decoded."""
    from pnpgen.memo import Memo

    cache = Cache(tmp_path)
    _plant(cache, "forms/x", [json.dumps([f"k{i}", [i]]).encode() for i in range(50)])
    decoded: list = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: decoded.append(text) or real(text, *a, **k))
    memo = Memo(known=cache.pack("forms/x"))
    asked = memo.get("k3")
    memo.learn("new", [99])
    kept = memo.kept()
    assert kept == {"k3": [3], "new": [99]} and kept["k3"] is asked
    assert decoded[1:] == [b'["k3", [3]]']  # (after the header) the one record asked for
    assert _lines(cache.pack_entry("forms/x", kept)[1]) == [b'["k3", [3]]', b'["new", [99]]']


def test_a_pack_is_sealed_as_its_joined_lines_are_and_read_back(tmp_path):
    """``pack_entry`` seals the lines as joined, in one call over the entry as written (not fed a
    line at a time): the header's check is the seal of the body after it, with no record too, and
    the pack reads back as it was written; a body changed after it was sealed is not read."""
    cache = Cache(tmp_path)
    for records in ({}, {"a": 1}, {"b": ["新", 2], "a": {"x": None}, "c": ""}):
        path, data = cache.pack_entry("forms/x", records)
        head, _, body = data.partition(b"\n")
        assert json.loads(head)["check"] == seal(body), records
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        pack = cache.pack("forms/x")
        assert {k: pack[k] for k in pack.keys()} == records
        path.write_bytes(data.replace(b'"a"', b'"z"'))
        assert not cache.pack("forms/x").keys() or not records


def test_unpacked_records_are_made_into_values_when_looked_up_and_a_malformed_one_is_not_held():
    """``Unpacked`` (the forms pack's faces and pages): membership, keys and ``only`` unpack
    nothing; a record is unpacked once, when looked up; one found malformed is not held after."""
    unpacked: list[str] = []

    def unpack(key: str, record: str) -> int | None:
        unpacked.append(key)
        return int(record) if record.isdigit() else None

    m = Unpacked({"a": 1}, {"b": "2", "c": "bad"}, unpack)
    assert "b" in m and "c" in m and sorted(m) == ["a", "b", "c"] and len(m) == 3
    kept = m.only({"a", "c"})
    assert unpacked == [] and sorted(kept) == ["a", "c"] and kept.waiting == {"c": "bad"}
    assert m["b"] == 2 and m["b"] == 2 and unpacked == ["b"]  # (once)
    assert m.get("c") is None and "c" not in m and unpacked == ["b", "c"]
    m["c"] = 3
    assert dict(m.items()) == {"a": 1, "b": 2, "c": 3} and sorted(m.values()) == [1, 2, 3]
    assert kept.get("c") is None and list(kept.items()) == [("a", 1)]  # (its own record, malformed)


def test_a_packs_lines_are_not_held_beside_the_entry_they_go_into(tmp_path: Path):
    """Issue 22 (3,000 cards' peak with ``--jobs 1``): a pack's lines were all made, then joined
    into its entry, both held at once (the forms pack: 12 MB twice at the build's peak); each line
    now goes into the entry as it is made. The entry is the lines joined under their sealed header."""
    import tracemalloc

    cache = Cache(tmp_path)
    records = {f"face{i:05d}": {"data": "x" * 4000, "n": i} for i in range(300)}
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        path, data = cache.pack_entry("forms/x", records)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    lines = [json.dumps([k, records[k]], sort_keys=True, ensure_ascii=False).encode() for k in sorted(records)]
    assert data.partition(b"\n")[2] == b"\n".join(lines) and len(data) > 1_000_000
    assert peak < 1.5 * len(data)  # (the lines and their join: over twice the entry)
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    assert Cache(tmp_path).pack("forms/x") == records  # its header's seal holds


def _plant_whole(cache: Cache, kind: str, body: bytes, fmt: str | None = "marshal") -> None:
    """A pack of ``WHOLE``'s kinds: its header (``fmt``: the format it names) and ``body`` as it is, sealed."""
    path = cache.pack_path(kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {"pnpgen": code(), "check": seal(body), **({"format": fmt} if fmt else {})}
    path.write_bytes(json.dumps(head, sort_keys=True).encode() + b"\n" + body)


def test_a_pack_every_edit_reads_whole_is_one_value_read_with_one_decode(tmp_path: Path, monkeypatch):
    """The renders, pieces, art sizes and print lint (engine/cache.py ``WHOLE``): every record a
    value at once, none of them decoded by ``json``; a record made by the build written as the
    next build reads it from JSON (a tuple a list, a number key text), a record read written as
    it was; the same bytes for the same records, however they were come by."""
    import marshal

    from pnpgen.memo import Memo

    cache = Cache(tmp_path)
    records = {f"k{i:03d}": {"svg": "札" * i, "images": [{"w": 1.5, "n": i}], "art": []} for i in range(200)}
    path, data = cache.pack_entry("renders/x", records)
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    decoded: list = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: decoded.append(text) or real(text, *a, **k))
    memo = Memo(known=cache.pack("renders/x"))
    assert len(decoded) == 1  # the header alone
    asked = memo.get("k007")
    assert asked == records["k007"] and memo.get("k404") is None
    memo.learn("new", {"size": (3, 4), "by": {5: "five"}})
    kept = memo.kept()
    monkeypatch.undo()
    assert kept is not None and kept["k007"] is asked
    path, data = cache.pack_entry("renders/x", kept)
    assert marshal.loads(data.partition(b"\n")[2]) == {"k007": records["k007"], "new": {"by": {"5": "five"}, "size": [3, 4]}}
    path.write_bytes(data)
    again = cache.pack("renders/x")
    assert dict(again) == {"k007": records["k007"], "new": {"by": {"5": "five"}, "size": [3, 4]}}
    assert cache.pack_entry("renders/x", json.loads(json.dumps(dict(again))))[1] == data  # an equal copy: equal bytes
    assert cache.pack_entry("renders/x", {})[1].partition(b"\n")[2] == marshal.dumps({}, 2)


def test_a_whole_pack_that_is_not_what_pnpgen_writes_is_not_read(tmp_path: Path):
    """Sealed by this machine, but not one value of records by their text keys, or of the other
    format (lines, or none named): the pack is taken as damaged, and the build makes its records."""
    import marshal

    cache = Cache(tmp_path)
    for body, fmt in ((marshal.dumps([["a", 1]], 2), "marshal"), (marshal.dumps({1: "a"}, 2), "marshal"),
                      (marshal.dumps({"a": 1}, 2)[:-1], "marshal"), (b"\xff" * 8, "marshal"),
                      (marshal.dumps({"a": 1}, 2), None), (marshal.dumps({"a": 1}, 2), "json"),
                      (b'["a", 1]', None)):
        _plant_whole(cache, "pieces/x", body, fmt)
        assert cache.pack("pieces/x") == {}, (body, fmt)
    _plant_whole(cache, "pieces/x", marshal.dumps({"a": 1}, 2))
    assert cache.pack("pieces/x") == {"a": 1}
    _plant_whole(cache, "forms/x", marshal.dumps({"a": 1}, 2))  # (a pack of lines says no format)
    assert cache.pack("forms/x") == {}
    path = cache.pack_path("pieces/x")
    path.write_bytes(path.read_bytes().replace(marshal.dumps(1, 2), marshal.dumps(2, 2)))  # 1 → 2: its seal fails
    assert cache.pack("pieces/x") == {}


def test_a_packs_text_is_read_where_it_lies_in_the_files_bytes(tmp_path: Path, monkeypatch):
    """``Cache.pack`` seals and cuts the records' text inside the bytes read (a 3,000-card forms
    pack: 13 MB not copied out first); what it reads is as before: a header alone (no record), a
    header with no line after it, a header line with nothing after its newline, and lines."""
    import pnpgen.engine.cache as cache_module

    cache = Cache(tmp_path)
    _plant(cache, "forms/x", [b'["a", 1]', b'["b", [2, "\\u672d"]]'])
    sealed: list = []
    real = cache_module.seal
    monkeypatch.setattr(cache_module, "seal", lambda text: sealed.append(type(text)) or real(text))
    assert dict(cache.pack("forms/x")) == {"a": 1, "b": [2, "札"]}
    assert sealed == [memoryview]  # (the text after the header, not a copy of it)
    path = cache.pack_path("forms/x")
    head = json.dumps({"pnpgen": code(), "check": seal(b"")}, sort_keys=True).encode()
    for data in (head, head + b"\n"):
        path.write_bytes(data)
        assert cache.pack("forms/x") == {} and cache.pack("forms/x").lines == {}, data
