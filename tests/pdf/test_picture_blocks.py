"""The pictures a build's documents number first, numbered once a build and laid out once
(pdf/writer.py ``number_pictures``, pdf/objects.py ``Block``): a 3,000-card deck's home sheets,
shop file and unique-card file number the same 3,000 pictures in the same order."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PICTURE_FRONT, picture_workspace, run
from pnpgen.pdf import writer
from pnpgen.pdf.assemble import Stored
from pnpgen.pdf.objects import Name, ObjectFile, Ref

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
DOCS = ("cards.pdf", "test-all.pdf", "shop/cards.pdf", "shop/cards-unique.pdf")


def _pictures(f: ObjectFile, n: int, pieces: int, named: bool) -> None:
    """``n`` picture-like streams, each of ``pieces`` stored parts (named by a key, or not)."""
    for i in range(n):
        parts = tuple(Stored(f"/cache/images/p{i}-{k}", 100 + i + k, 7 * k) for k in range(pieces))
        data = parts if pieces > 1 else parts[0]
        f.put_stream(f.reserve(), {"Type": Name("XObject"), "N": i}, data,
                     named=b"k%d" % i if named else None)


def _file(blocked: bool, share: ObjectFile | None, before: int, n: int, pieces: int, named: bool,
          after_run: bool) -> tuple[ObjectFile, object]:
    f = ObjectFile()
    for i in range(before):
        f.add({"Before": i})
    first = f.next
    if share is not None:
        (block,) = share._blocks.values()
        f.put_block(block)
    else:
        _pictures(f, n, pieces, named)
        if blocked:
            f.block(first)
    if after_run:  # (a run of copied objects after the block: ``fill_run``)
        bodies = [b"%d 0 obj\n<< /A %d >>\nendobj\n" % (f.next + k, k) for k in range(3)]
        at = f.hold(3)
        f.fill_run(at, b"".join(bodies), [len(b) for b in bodies])
    f.add({"After": 1})
    root, info = f.add({"Type": Name("Catalog")}), f.add({"Title": "x"})
    return f, f.finish(root, info, [b"title"])


@pytest.mark.parametrize("before,n,pieces,named,after_run", [
    (0, 3, 1, True, False), (2, 4, 3, True, True), (1, 1, 1, False, False), (0, 5, 2, False, True),
    (3, 2, 1, True, True)])
def test_a_block_is_laid_out_as_its_objects_are_one_by_one(before, n, pieces, named, after_run):
    """The file's parts (bytes and stored parts, so its bytes), offsets and /ID are those of the
    same objects laid out one by one, in the file the block was made in and in another it is put in."""
    plain, plain_file = _file(False, None, before, n, pieces, named, after_run)
    made, made_file = _file(True, None, before, n, pieces, named, after_run)
    put, put_file = _file(True, made, before, n, pieces, named, after_run)
    for f, file in ((made, made_file), (put, put_file)):
        assert file.parts == plain_file.parts  # type: ignore[attr-defined]
        assert f.offsets == plain.offsets


def test_a_block_of_bytes_only_is_laid_out_alike_and_is_put_only_where_it_was_numbered():
    plain, made = ObjectFile(), ObjectFile()
    for f in (plain, made):
        f.add({"A": 1})
        f.add({"B": Ref(1)})
    block = made.block(1)
    assert made.finish(Ref(1), Ref(2)).parts == plain.finish(Ref(1), Ref(2)).parts
    other = ObjectFile()
    other.reserve()
    with pytest.raises(ValueError):
        other.put_block(block)  # (numbered otherwise: its objects' numbers are in their bytes)
    held = ObjectFile()
    held.hold(2)
    with pytest.raises(ValueError):
        held.block(1)  # (objects not written yet)


def _distinct(tmp_path: Path, cards: int) -> Path:
    colours = {f"p{i}.png": (20 * i % 256, 200 - 10 * i % 200, 90) for i in range(cards)}
    pieces = "".join(f"  - {{name: 札{i}, art: p{i}.png}}\n" for i in range(cards))
    return picture_workspace(tmp_path / f"ws{cards}", pieces, PICTURE_FRONT, colours, size=(40, 30))


def _counted(monkeypatch) -> list[str]:
    calls: list[str] = []
    picture = writer._Writer.picture

    def counting(self, key, data):
        calls.append(key)
        return picture(self, key, data)

    monkeypatch.setattr(writer._Writer, "picture", counting)
    return calls


@pytest.mark.parametrize("cards", [6, 12])
def test_a_builds_pictures_are_numbered_once_for_its_documents(tmp_path, monkeypatch, cards):
    """A cold build and a text edit number each of the deck's pictures once (the home sheets'
    writer), not once a document: the shop file and the unique-card file put the same block
    (the game's one-page sheet of another deck numbers its own picture); the bytes are those the
    documents have with each picture numbered by each writer."""
    ws = _distinct(tmp_path, cards)
    calls = _counted(monkeypatch)
    assert run(ws, *BUILD) == 0
    once = len(calls)
    assert cards <= once <= cards + 1 and len(set(calls)) == cards
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("{name: 札1,", "{name: 札1改,"), encoding="utf-8")
    calls.clear()
    assert run(ws, *BUILD) == 0
    assert len(calls) == once
    for doc in ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf"):  # the edited card's page changed
        text = " ".join(page.extract_text() for page in PdfReader(ws / "build" / "test" / doc).pages)
        assert "札1改" in text and "札2" in text, doc
    # each writer numbering its own pictures (no block kept): the same bytes, each picture three times
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    monkeypatch.setattr(writer._Writer, "number_pictures",
                        lambda self, shown: [self.picture(k, d) for k, d in shown] and None)
    calls.clear()
    assert run(ws, *BUILD, "--out", str(tmp_path / "each")) == 0
    assert len(calls) == once + 2 * cards
    for doc in DOCS:
        assert (ws / "build" / "test" / doc).read_bytes() == (tmp_path / "each" / "test" / doc).read_bytes(), doc
