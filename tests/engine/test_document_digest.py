"""What a game's state records of a document with pictures (pdf/assemble.py ``PdfFile.digest``):
the hash of its segments, each picture's stream one, so a build records its documents without
reading them — a big deck's four are a gigabyte — and the record still proves a file on disk by
its bytes: a byte changed inside a picture is found, by the next build and by ``pnpgen clean``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, picture_workspace, png_in_chunks, run
from pnpgen.pdf import assemble
from pnpgen.pdf.assemble import file_digest

PIECES = "".join(f"  - {{name: 札{i}, art: {n}, count: 1}}\n" for i, n in enumerate(["a.png", "b.png"], 1))


def workspace(root: Path) -> Path:
    ws = picture_workspace(root, PIECES, PICTURE_FRONT, {"a.png": (200, 0, 0), "b.png": (0, 0, 200)})
    art = ws / "data" / "test" / "art"  # b.png in more pieces than a document takes from a file:
    (art / "b.png").write_bytes(png_in_chunks((art / "b.png").read_bytes(), 12))  # its stream is cached instead
    return ws


def state(ws: Path) -> dict:
    return json.loads((ws / "build" / ".cache" / "test.json").read_bytes())["body"]


def test_each_document_is_recorded_by_segments_that_its_file_proves(tmp_path):
    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    body, out = state(ws), ws / "build" / "test"
    laid_out = {rel: doc for rel, doc in body["documents"].items() if "layout" in doc}
    assert set(laid_out) == {"cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf"}
    for rel, doc in body["documents"].items():
        path = out / rel
        assert body["files"][rel] == doc["sha"]
        if rel in laid_out:
            layout = doc["layout"]
            assert sum(layout) == path.stat().st_size and len(layout) >= 5  # pictures and the runs between
            assert file_digest(path, tuple(layout)) == doc["sha"]
            assert doc["sha"] != hashlib.sha256(path.read_bytes()).hexdigest()
        else:  # a file of bytes alone: its plain SHA-256
            assert doc["sha"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_rebuild_records_its_documents_without_reading_a_picture(tmp_path, monkeypatch):
    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(PICTURE_DECK_YAML + PIECES.replace("札1", "札一"), encoding="utf-8")
    read: list[str] = []
    real = assemble._part_sha

    def counted(part, sources, known):
        if part.sha is None and (known is None or part not in known):
            read.append(part.path)
        return real(part, sources, known)

    monkeypatch.setattr(assemble, "_part_sha", counted)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert read == []  # a.png's pieces known from the last build, b.png's stream by its cache entry
    assert (ws / "build" / ".cache" / "pieces" / "test.pack.json").is_file()
    body = state(ws)
    for rel, doc in body["documents"].items():
        if "layout" in doc:
            assert file_digest(ws / "build" / "test" / rel, tuple(doc["layout"])) == doc["sha"]
    shutil.rmtree(ws / "build" / ".cache" / "pieces")  # without the pieces' record: read once more, same record
    deck.write_text(PICTURE_DECK_YAML + PIECES, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert read and set(read) == {str(ws / "data" / "test" / "art" / "a.png")}
    assert file_digest(ws / "build" / "test" / "cards.pdf", tuple(state(ws)["documents"]["cards.pdf"]["layout"])) \
        == state(ws)["documents"]["cards.pdf"]["sha"]


def flip_inside_a_picture(path: Path, layout: list[int]) -> bytes:
    """One byte of the file's biggest segment (a picture's stream) changed in place, same size."""
    biggest = max(range(len(layout)), key=lambda i: layout[i])
    at = sum(layout[:biggest]) + layout[biggest] // 2
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_byte_changed_inside_a_picture_is_found_and_written_again(tmp_path):
    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    pdf = ws / "build" / "test" / "cards.pdf"
    good = pdf.read_bytes()
    changed = flip_inside_a_picture(pdf, state(ws)["documents"]["cards.pdf"]["layout"])
    shutil.rmtree(ws / "build" / ".cache" / "hashes")  # no stamp known: the file is proven by its bytes alone
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert pdf.read_bytes() == good != changed


def test_clean_removes_the_documents_it_wrote_and_keeps_one_changed_since(tmp_path):
    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    flip_inside_a_picture(out / "shop" / "cards.pdf", state(ws)["documents"]["shop/cards.pdf"]["layout"])
    assert run(ws, "clean", "--game", "test") == 0
    assert not (out / "cards.pdf").exists() and not (out / "test-all.pdf").exists()
    assert (out / "shop" / "cards.pdf").exists()  # not the bytes pnpgen wrote: the designer's now


def test_an_art_file_saved_again_before_its_pieces_are_hashed_stops_the_build_in_one_line(tmp_path, monkeypatch, capsys):
    from PIL import Image

    from pnpgen.engine import game

    ws = workspace(tmp_path / "ws")
    real = game.write_documents

    def saved_meanwhile(*args, **kwargs):  # the designer saves a.png again as the documents are laid out
        out = real(*args, **kwargs)
        Image.new("RGB", (300, 200), (0, 200, 0)).save(ws / "data" / "test" / "art" / "a.png")
        return out

    monkeypatch.setattr(game, "write_documents", saved_meanwhile)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a.png was saved again while the build read it" in err[0], err
    assert not (ws / "build" / "test" / "cards.pdf").exists()
