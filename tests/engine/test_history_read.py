"""A history entry this machine sealed is read as it was written: its sealed text read, not
decoded and written out again for its check (engine/history.py ``_own_entry``); any other file —
damaged, sealed elsewhere or for another game, not as ``encode`` writes it — goes the long way
and is refused or marked as before. The build reads the last version once (the change report,
the draft's sections and the new version all take it)."""

from __future__ import annotations

import json

import pytest

from conftest import make_workspace, run
from pnpgen.engine import history


@pytest.fixture(autouse=True)
def _machine(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "mine"))


def _body() -> dict:
    return {"format": history.FORMAT, "number": 3, "time": "2026-12-06T08:00:00Z", "game": "test", "lang": "ja",
            "draft": "data/test/draft.txt", "hash": "0123456789ab", "counts": {"cards": 2},
            "decks": {"cards": {"name": "カード", "count": 2, "pieces": {"1:札": [2, "aa", "bb", None]},
                                "values": {"1:札": {"text": "本文 \"引用\" \\ 改行\n"}}, "pairs": [],
                                "size": [63.0, 88.0], "field_order": ["text"], "art": {}}},
            "rulebook": {"準備": "c0ffee000000"}, "printer": None}


def test_an_entry_sealed_here_is_read_without_being_written_out_again(monkeypatch):
    data = history.encode(_body(), "test")

    def written(*args, **kwargs):
        raise AssertionError("the entry's body written out again to be checked")

    monkeypatch.setattr(history.json, "dumps", written)
    assert history.decode(data, "test") == (_body(), True)


def _edited(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1
    return data.replace(old, new)


def test_every_other_entry_goes_the_long_way_refused_or_marked_as_before():
    body, data = _body(), history.encode(_body(), "test")
    outer = json.loads(data)
    cases = {
        "a byte of its body changed": (_edited(data, "本文".encode(), "本分".encode()), None),
        "its check changed": (_edited(data, outer["check"].encode(), outer["check"][::-1].encode()), None),
        "its end cut off": (data[:-2], None),
        "sealed for another game": (history.encode(body, "other"), (body, False)),
        "not as encode writes it, its text and seal pnpgen's": (
            (json.dumps(outer, ensure_ascii=False, indent=1) + "\n").encode(), (body, True)),
        "a line feed more": (data + b"\n", (body, True)),
        "pieces a list, sealed here": (history.encode({**body, "decks": {"cards": {**body["decks"]["cards"],
                                                                                 "pieces": [1, 2]}}}, "test"), None),
        "another format, sealed here": (history.encode({**body, "format": history.FORMAT + 1}, "test"), None),
    }
    for kind, (file, expected) in cases.items():
        assert history.decode(file, "test") == expected, kind


def test_a_build_reads_the_last_version_once(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", [f"カード{i}" for i in range(1, 4)], draft=True)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--quiet") == 0
    read: list[bytes] = []
    real = history.decode
    monkeypatch.setattr(history, "decode", lambda data, edition: read.append(data) or real(data, edition))
    (ws / "data" / "test" / "draft.txt").write_text(
        (ws / "data" / "test" / "draft.txt").read_text(encoding="utf-8") + "\n■追加の章\n本文。\n", encoding="utf-8")
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード1", "カード一"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--quiet") == 0
    assert len(read) == 1
    assert [v.number for v in history.versions(ws / "build", "test")] == [1, 2]
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert any(line.startswith("rulebook: ") and "追加の章 added" in line for line in manifest["changes"])
