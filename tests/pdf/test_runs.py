"""Issue 22: the pages an edit did not change are copied as bytes from the file the last build
wrote (pdf/runs.py), each page's run checked against the SHA-256 recorded for it; the documents
are the bytes a cold build of the same data writes, whatever the old file holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import make_workspace, run
from pnpgen.pdf import runs

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
DOCS = ("cards.pdf", "test-all.pdf", "shop/cards.pdf", "shop/cards-unique.pdf")


@pytest.fixture
def copies(monkeypatch) -> list[str]:
    """The keys of the runs copied (``Runs.take`` handing bytes over)."""
    taken: list[str] = []
    take = runs.Runs.take

    def counted(self, key):
        found = take(self, key)
        if found is not None:
            taken.append(key)
        return found

    monkeypatch.setattr(runs.Runs, "take", counted)
    return taken


def _edit(ws: Path, old: str, new: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new, 1), encoding="utf-8")


def _same_as_cold(tmp_path: Path, ws: Path, name: str, monkeypatch) -> None:
    """Every document equals a cold build's of the same data, with no cache."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    assert run(ws, *BUILD, "--out", str(tmp_path / name)) == 0
    monkeypatch.delenv("PNPGEN_CACHE")
    for doc in DOCS:
        assert (ws / "build" / "test" / doc).read_bytes() == (tmp_path / name / "test" / doc).read_bytes(), doc


def _recorded(ws: Path, doc: str) -> list:
    lines = (ws / "build" / ".cache" / "runs" / "test.pack.json").read_bytes().split(b"\n")[1:]
    return dict(json.loads(line) for line in lines)[doc]


def test_a_text_edit_copies_the_pages_after_it_and_writes_a_cold_builds_bytes(tmp_path, copies, monkeypatch):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    assert not copies  # (nothing recorded yet)
    pages = len(PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages)
    _edit(ws, "本文カード1}", "本文カード1を書き直した}")  # the first card: every later page is the same
    assert run(ws, *BUILD) == 0
    # each shop file's pages but the edited card's, and the home sheets' after its sheet (two documents)
    assert len(copies) >= 2 * (pages - 2)
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    assert "本文カード1を書き直した" in PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages[0].extract_text()


def test_a_count_edit_moves_the_pages_after_it_and_writes_a_cold_builds_bytes(tmp_path, copies, monkeypatch):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    _edit(ws, "{name: カード2,", "{name: カード2, count: 3,")
    assert run(ws, *BUILD) == 0
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    assert len(PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages) == 2 * (11 + 2)


def test_a_run_whose_bytes_are_not_the_recorded_ones_is_written_not_copied(tmp_path, copies, monkeypatch):
    """A page of the old file changed in place (its size, and every other page, as they were):
    the edit after it writes that page again, the others are copied."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    old = ws / "build" / "test" / "shop" / "cards.pdf"
    _key, offset, lengths, _sha, _delta = _recorded(ws, "shop/cards.pdf")[-3]
    data = bytearray(old.read_bytes())
    page = data[offset:offset + sum(lengths)]
    assert b"/MediaBox" in page
    data[offset:offset + sum(lengths)] = page.replace(b"/MediaBox", b"/MediaBoz")
    old.write_bytes(bytes(data))
    _edit(ws, "本文カード1}", "本文カード1を書き直した}")
    assert run(ws, *BUILD) == 0
    assert copies and _key not in copies
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)


def test_a_file_put_in_place_of_the_last_output_is_not_copied_from(tmp_path, copies, monkeypatch):
    """Another file of the same name (another build's, a different game's): nothing copied from it."""
    ws = make_workspace(tmp_path / "ws")
    other = make_workspace(tmp_path / "other", pieces=[f"別の札{i}" for i in range(1, 12)])
    assert run(ws, *BUILD) == 0
    assert run(other, *BUILD) == 0
    for doc in DOCS:
        (ws / "build" / "test" / doc).write_bytes((other / "build" / "test" / doc).read_bytes())
    _edit(ws, "本文カード1}", "本文カード1を書き直した}")
    assert run(ws, *BUILD) == 0
    assert not copies
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)


def test_a_record_not_as_written_is_refused_whole():
    good = [["k", 10, [5, 7], "ab" * 32, [["form", "f", 3]]]]
    assert set(runs.from_record("/x", good)) == {"k"}
    for bad in ([["k", 10, [5, 0], "ab", []]], [["k", -1, [5], "ab", []]], [["k", 1, [5], "ab", [["font", "f", 3]]]],
                [["k", 1, [5], "ab", [["form", "f", "3"]]]], {"k": 1}, [["k", 1, [5], "ab"]]):
        assert runs.from_record("/x", bad) == {}
