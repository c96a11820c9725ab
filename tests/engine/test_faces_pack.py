"""Issue 22: an edit reads the faces it did not change from one sealed file. A game's converted
faces are kept in ``.cache/converted/<edition>.pack.json`` (each face's JSON by its key, the pack
sealed as the other packs are) as well as in their own entries: a thousand cards' edit reads one
file instead of a thousand. A pack that is damaged, foreign or holds a face that does not read
back is not trusted: the face's own entry is read, or the face converted again, and the documents
are the bytes of a cold build."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, picture_workspace, run
from pnpgen.engine.cache import Cache

COLOURS = {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)}
PDFS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")
PACK = Path(".cache/converted/test.pack.json")


def pieces(edited: str = "") -> str:
    arts = ["a.png", "b.png", "c.png", "a.png"]
    return "".join(f"  - {{name: 札{i}{edited if i == 1 else ''}, art: {name}, count: 2}}\n"
                   for i, name in enumerate(arts, 1))


def deck(ws: Path, text: str) -> None:
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PICTURE_DECK_YAML + text, encoding="utf-8")


def build(ws: Path, out: Path) -> dict[str, bytes]:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    return {name: (out / "test" / name).read_bytes() for name in PDFS}


def own_entries(out: Path) -> list[Path]:
    return sorted((out / ".cache" / "faces").rglob("*.json"))


def test_an_edit_reads_the_faces_it_did_not_change_from_their_pack(tmp_path, read_back):
    ws = picture_workspace(tmp_path / "ws", pieces(), PICTURE_FRONT, COLOURS)
    out = tmp_path / "b"
    build(ws, out)
    faces = own_entries(out)
    assert (out / PACK).is_file() and len(faces) == 8  # four cards' fronts and backs
    for entry in faces:  # the faces' own entries gone: only the pack holds them
        entry.unlink()
    deck(ws, pieces("改"))
    warm = build(ws, out)
    assert len(read_back) == len(faces) - 2  # every face but the edited card's, from the pack
    assert warm == build(ws, tmp_path / "cold")
    read_back.clear()
    deck(ws, pieces())  # back again: the edited card's old faces are no longer kept anywhere
    assert build(ws, out) == build(ws, tmp_path / "cold2")
    assert len(read_back) == len(faces) - 2


@pytest.mark.parametrize("damage", ["byte", "foreign", "unreadable face"])
def test_a_damaged_or_foreign_pack_is_not_trusted(tmp_path, read_back, damage):
    ws = picture_workspace(tmp_path / "ws", pieces(), PICTURE_FRONT, COLOURS)
    out = tmp_path / "b"
    build(ws, out)
    pack = out / PACK
    data = pack.read_bytes()
    head, _, text = data.partition(b"\n")
    if damage == "byte":  # a number changed in a face, not sealed again
        pack.write_bytes(head + b"\n" + text.replace(b"195.59", b"195.58", 1))
        assert pack.read_bytes() != data
    elif damage == "foreign":  # another machine's (or pnpgen's) seal
        pack.write_bytes(head.replace(b'"check": "', b'"check": "0', 1) + b"\n" + text)
    else:  # sealed here, but a face in it that is no converted face
        cache = Cache(out)
        assert cache.pack("converted/test")
        keys = sorted(cache.pack("converted/test"))
        path, entry = cache.pack_entry("converted/test", {k: {"format": "nothing"} for k in keys})
        path.write_bytes(entry)
    faces = own_entries(out)
    deck(ws, pieces("改"))
    warm = build(ws, out)
    assert len(read_back) == len(faces) - 2  # from the faces' own entries
    assert warm == build(ws, tmp_path / "cold")
    assert Cache(out).pack("converted/test")  # written anew, sealed
