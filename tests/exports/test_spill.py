"""A big export's encoded files are written out of memory as they are made (exports/spill.py): a
3,000-card Tabletop Simulator export held its 396 MB of sheets in memory to its commit. The files
written are the same bytes; the folder they were written out to is gone once the export ends."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from conftest import make_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.exports import export as exporting
from pnpgen.exports import spill
from pnpgen.exports.options import ExportOptions
from pnpgen.pdf.assemble import PdfFile


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and p.name != "export.json"}


def _spilled_folders() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("pnpgen-export-")}


def test_a_big_exports_files_are_held_out_of_memory_and_written_the_same(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(8)])
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(tmp_path / "held")) == 0
    held = _files(tmp_path / "held" / "test" / "tabletopsimulator")
    # every file of 1 KB or more written out as encoded (SPILL_AFTER 0, SPILL_SMALLEST 1 KB)
    monkeypatch.setattr(spill.Spill.__init__, "__defaults__", (0, 1 << 10))
    result = exporting.export_game(Workspace(root), "test", ExportOptions(preset="tabletopsimulator", out=tmp_path / "x"))
    try:
        out = {name: data for name, data in result.files.items() if isinstance(data, PdfFile)}
        big = {name for name, data in held.items() if len(data) >= 1 << 10 and name.endswith(".png")}
        assert set(out) == big and big, (sorted(out), sorted(big))  # the sheets and images, none in memory
        assert all(bytes(b"".join(data.chunks())) == held[name] for name, data in out.items())
        assert not any(isinstance(d, bytes) and len(d) >= 1 << 10 and n.endswith(".png") for n, d in result.files.items())
    finally:
        result.spill.close()
    before = _spilled_folders()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(tmp_path / "out")) == 0
    assert _files(tmp_path / "out" / "test" / "tabletopsimulator").keys() == held.keys()
    written = _files(tmp_path / "out" / "test" / "tabletopsimulator")
    assert {n: d for n, d in written.items() if not n.endswith(".json")} == \
        {n: d for n, d in held.items() if not n.endswith(".json")}  # (the JSON names its folder's images)
    assert _spilled_folders() <= before  # the folder written out to is gone


def test_a_contact_sheets_thumbnails_are_drawn_from_documents_of_a_few_faces_the_same(tmp_path, monkeypatch):
    """A contact sheet's 400 illustrated cards were drawn from one document of their 400 pictures
    (a 3,000-card export: 545 → 764 MB while its contact sheets were drawn); a deck's run of
    thumbnails is drawn from documents of at most ``contact.RUN`` faces, the same pixels."""
    from pnpgen.exports import contact, faces

    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(7)])
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(tmp_path / "a")) == 0
    whole = (tmp_path / "a" / "test" / "tabletopsimulator" / "test-contact.png").read_bytes()
    runs: list[int] = []
    real = faces.face_images

    def counted(keys, *rest, **kw):
        runs.append(len(keys))
        return real(keys, *rest, **kw)

    monkeypatch.setattr(contact, "face_images", counted)
    monkeypatch.setattr(contact, "RUN", 3)
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(tmp_path / "b")) == 0
    assert (tmp_path / "b" / "test" / "tabletopsimulator" / "test-contact.png").read_bytes() == whole
    assert runs and max(runs) <= 3 and sum(runs) >= 8, runs  # 7 fronts and a back, 3 at most a document


@pytest.mark.parametrize("cards", [8, 16])
def test_a_big_image_is_drawn_once_the_last_is_encoded_and_let_go_of(tmp_path, monkeypatch, cards):
    """A Tabletop Simulator sheet (66 MB as Pillow holds it at 69 poker cards) was drawn while the
    last was still being encoded, and a contact sheet the same: two held at once (a 3,000-card
    export's peak, 557 MB). Every image here counts as big: as each sheet is made, no earlier one
    is alive, at three sheets and six, and the files are the bytes of images encoded one by one."""
    import gc
    import weakref

    from pnpgen.exports import contact, faces, tts, ttscards

    for module in (ttscards, tts):
        monkeypatch.setattr(module, "MAX_COLS", 2)
        monkeypatch.setattr(module, "MAX_ROWS", 2)  # three faces a sheet and the hidden card
    monkeypatch.setattr(contact, "ROWS", 1)  # eight thumbnails a contact sheet
    monkeypatch.setattr(faces.PngFiles, "WAITING_BYTES", 1)
    made: list[weakref.ref] = []  # (an image is unhashable: no WeakSet)
    seen: list[int] = []  # the big images alive as room is made for the next, before it is drawn

    def kept(real):
        def make(*args, **kwargs):
            image = real(*args, **kwargs)
            made.append(weakref.ref(image))
            return image
        return make

    def room_for(self, size, bands=3):
        real_room(self, size, bands)
        gc.collect()
        seen.append(sum(1 for ref in made if ref() is not None))

    real_room = faces.PngFiles.room_for
    monkeypatch.setattr(faces.PngFiles, "room_for", room_for)
    monkeypatch.setattr(ttscards, "_grid", kept(ttscards._grid))
    monkeypatch.setattr(contact, "contact_sheet", kept(contact.contact_sheet))
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(cards)])
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    out = root / "build" / "test" / "tabletopsimulator"
    assert len(list(out.glob("cards-faces-*.png"))) == cards // 3 + (cards % 3 > 0)
    sheets = [p for p in out.glob("*.png") if p.name.startswith(("cards-faces-", "cards-backs-", "test-contact"))]
    assert len(seen) == len(sheets)  # (the test deck's backs differ: a back sheet beside each face sheet)
    assert seen == [0] * len(seen)
