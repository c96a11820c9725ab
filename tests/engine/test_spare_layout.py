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
