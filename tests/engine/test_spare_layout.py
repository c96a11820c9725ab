"""The spares' record (engine/spare.py ``note_outputs``): each document's layout, a picture
that every document shows named once for them all (a thousand cards' four documents hold the same
thousand pictures)."""

from __future__ import annotations

from pnpgen.engine import spare
from pnpgen.pdf import assemble


def test_a_picture_shown_by_every_document_is_named_once_for_the_record(tmp_path, monkeypatch):
    """A big deck's four documents hold the same thousand pictures: the record of their layouts
    names each stored part once (its place hashed once), and says of each document what it said
    when each was named on its own."""
    art = tmp_path / "art.png"
    art.write_bytes(b"x" * 300)
    st = art.stat()
    parts = [assemble.Stored(str(art), 100, 100 * i, (st.st_size, st.st_mtime_ns, st.st_ino)) for i in range(3)]
    hashed = assemble.Stored(str(art), 50, 0, (st.st_size, st.st_mtime_ns, st.st_ino), sha="ab" * 32)
    docs = {tmp_path / f"{name}.pdf": assemble.PdfFile((b"%PDF-1.7\n", *parts, hashed, b"%%EOF\n"))
            for name in ("home", "shop", "backs", "all")}
    for path in docs:
        path.write_bytes(b"%PDF")
    alone = {path: spare.layout_of(data) for path, data in docs.items()}
    placed = []
    where = spare._where
    monkeypatch.setattr(spare, "_where", lambda part, places: placed.append(part) or where(part, places))
    spare.note_outputs(tmp_path, tmp_path / "trash", docs)
    assert len(placed) == 4  # each stored part once, not once per document
    record = spare.read(tmp_path / "trash")
    assert {rel: entry[-1] for rel, entry in record.outputs.items()} == {p.name: alone[p] for p in docs}


def _spare_of(tmp_path, old: assemble.PdfFile) -> tuple:
    """``old`` written as the spare of ``doc.pdf`` in a trash folder, and the record naming it."""
    trash = tmp_path / "trash"
    trash.mkdir()
    entry = trash / "0001"
    entry.write_bytes(bytes(old))
    st = entry.stat()
    return trash, spare.Record(spares={"doc.pdf": ["0001", *spare.file_identity(st),
                                                    spare.layout_of(old)]})


def test_a_spare_is_compared_with_the_new_document_by_their_layouts_text(tmp_path, monkeypatch):
    """The parts a spare shares with the new document are found by the text of the two layouts
    (3,000 cards: 17,000 parts a document, each taken apart and compared on its own before): no
    stored part before the first difference is compared by itself, the bytes in memory are still
    read back, and the spare holds what it held before."""
    art = tmp_path / "art.bin"
    art.write_bytes(bytes(range(256)) * 40)
    stamp = assemble.file_stamp(art)
    pictures = [assemble.Stored(str(art), 10, 10 * i, stamp, sha=f"{i:064x}" if i % 2 else None) for i in range(1000)]
    drawing = [f"q {i} Q\n".encode() for i in range(1000)]
    old = assemble.PdfFile((b"head", *[p for pair in zip(pictures, drawing) for p in pair], b"tail"))
    edited = [*drawing[:700], b"q edited Q\n", *drawing[701:]]
    new = assemble.PdfFile((b"head", *[p for pair in zip(pictures, edited) for p in pair], b"tail"))
    trash, record = _spare_of(tmp_path, old)
    compared, read = [], []
    same, pread = spare._same, spare.os.pread
    monkeypatch.setattr(spare, "_same", lambda *a: compared.append(a) or same(*a))
    monkeypatch.setattr(spare.os, "pread", lambda fd, n, at: read.append(at) or pread(fd, n, at))
    layouts = spare.Layouts()
    found = spare.find(trash, record, "doc.pdf", new, 0, layouts)
    assert found is not None and found.parts == 1 + 2 * 700 + 1
    assert found.size == len(b"head") + 10 * 701 + sum(map(len, drawing[:700]))
    assert compared == []  # (each of the 701 pictures before the edit was compared on its own)
    assert len(read) == 1 + 700  # the head and each drawing's bytes before the edited one (of another length)
    assert layouts.of(new) is layouts.of(new) == spare.layout_of(new)  # made once, recorded as made


def test_a_stored_part_named_by_nothing_is_never_taken_for_the_spares(tmp_path):
    """A stored part with neither a hash nor a stamp is recorded as ``size:/``: the same text in
    the spare's layout does not make it the same part (what the file held there is unknown)."""
    art = tmp_path / "art.bin"
    art.write_bytes(b"x" * 100)
    unnamed = assemble.Stored(str(art), 10, 0)
    doc = assemble.PdfFile((b"head", unnamed, b"tail"))
    trash, record = _spare_of(tmp_path, doc)
    found = spare.find(trash, record, "doc.pdf", doc, 0)
    assert found is not None and (found.size, found.parts) == (4, 1)
