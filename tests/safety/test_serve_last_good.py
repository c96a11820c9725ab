"""``pnpgen serve`` on broken data shows the last good build found in build/<game>/ — files it did
not just write, which may be anything (a build copied or unpacked from elsewhere). What its
manifest and order.csv name is read only as plain files inside that folder: a link or a name
leading out, a FIFO, a manifest nested 100,000 deep or claiming 10⁸ pages shows no last good
build (or only what is there), and never a picture of a file outside, a hang or a traceback."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import make_workspace, run

pytest.importorskip("pypdfium2")

from pnpgen.data.workspace import Workspace
from pnpgen.serve.app import make_app
from pnpgen.serve.preview import Preview


@pytest.fixture(scope="module")
def good_build(tmp_path_factory) -> Path:
    ws = make_workspace(tmp_path_factory.mktemp("good") / "ws", ["カード1", "カード2"])
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    return ws


def _secret(where: Path) -> Path:
    """A one-page PDF outside the workspace, which the preview must never show."""
    from reportlab.pdfgen import canvas

    where.mkdir(parents=True, exist_ok=True)
    pdf = canvas.Canvas(str(where / "secret.pdf"))
    pdf.drawString(100, 700, "SECRET")
    pdf.showPage()
    pdf.save()
    return where / "secret.pdf"


def _order(out: Path, file: str) -> None:
    order = out / "shop" / "order.csv"
    order.write_text(order.read_text(encoding="utf-8-sig").replace("shop/cards-unique.pdf", file), encoding="utf-8")


def _manifest(out: Path, **deck) -> None:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["decks"][0].update(deck)
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def _unique_replaced(out: Path, secret: Path, fifo: bool = False) -> None:
    unique = out / "shop" / "cards-unique.pdf"
    unique.unlink()
    os.mkfifo(unique) if fifo else unique.symlink_to(secret)


def _shop_linked(out: Path, secret: Path) -> None:
    shutil.copytree(out / "shop", secret.parent / "shop")
    shutil.copy(secret, secret.parent / "shop" / "cards-unique.pdf")
    shutil.rmtree(out / "shop")
    (out / "shop").symlink_to(secret.parent / "shop")


PLANTED = {
    "order.csv names an absolute path": lambda out, secret: _order(out, str(secret)),
    "order.csv names ../": lambda out, secret: _order(out, "../../../outside/secret.pdf"),
    "the unique faces a link out": lambda out, secret: _unique_replaced(out, secret),
    "the unique faces a FIFO": lambda out, secret: _unique_replaced(out, secret, fifo=True),
    "shop/ a link out": _shop_linked,
    "the home sheets an absolute path": lambda out, secret: _manifest(out, files=[str(secret)]),
    "rulebook.pdf a link out": lambda out, secret: (out / "rulebook.pdf").symlink_to(secret),
    "the manifest nested 100,000 deep": lambda out, secret: (out / "manifest.json").write_text("[" * 100_000 + "]" * 100_000),
}


@pytest.mark.parametrize("planted", PLANTED)
def test_a_planted_last_good_build_shows_nothing_from_outside(good_build, tmp_path, planted):
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    secret = _secret(tmp_path / "outside")
    out = ws / "build" / "test"
    PLANTED[planted](out, secret)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()  # a FIFO read would never return; a RecursionError would end serve
    assert state.error.startswith("pnpgen: error: data/test/decks/cards.yaml:")
    for pid, (pdf, _index, _width) in preview.pictures.items():
        assert pdf.resolve().is_relative_to(out.resolve()) and not pdf.is_symlink(), (planted, pdf)
        assert preview.png(pid)[:4] == b"\x89PNG"
    assert not any(str(tmp_path / "outside") in str(pdf.resolve()) for pdf, _i, _w in preview.pictures.values())
    if planted == "rulebook.pdf a link out":
        assert not state.decks and not state.sheets  # the whole last build is not trusted, not part of it
    assert not state.decks or state.decks[0]["faces"]


def test_a_manifest_claiming_a_hundred_million_pages_shows_the_pages_there(good_build, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    _manifest(ws / "build" / "test", pages=10**8)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    assert [s["title"] for s in state.sheets] == ["cards.pdf p. 1", "cards.pdf p. 2"]
    assert [f["name"] for f in state.decks[0]["faces"]] == ["カード1", "カード2"]


def test_a_build_whose_pdfs_pass_the_limit_of_a_file_read_whole_is_shown(good_build, tmp_path, monkeypatch):
    """A PDF is read by PDFium a page at a time, at any size: 5,000 illustrated cards' shop files
    (530–790 MB) passed the 256 MB of a file read whole, and the preview showed no build, saying
    it was no plain file. The manifest and order.csv, read whole, keep the limit."""
    from pnpgen.serve import preview as module

    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    out = ws / "build" / "test"
    smallest_pdf = min(p.stat().st_size for p in out.rglob("*.pdf"))
    read_whole = max((out / "manifest.json").stat().st_size, (out / "shop" / "order.csv").stat().st_size)
    assert smallest_pdf > 4 * read_whole  # (the build the preview makes writes its manifest again)
    monkeypatch.setattr(module, "BUILT_FILE_LIMIT", smallest_pdf - 1)
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    assert state.error == ""
    assert [f["name"] for f in state.decks[0]["faces"]] == ["カード1", "カード2"]
    png = preview.png(next(iter(preview.pictures)))
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setattr(module, "BUILT_FILE_LIMIT", 100)  # a manifest or order.csv past it: said so
    state = Preview(Workspace(ws), "test", ws / "build").rebuild()
    assert "larger than a build writes it" in state.error and not state.decks


def test_a_picture_swapped_for_a_link_after_the_page_was_read_is_not_served(good_build, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    preview = Preview(Workspace(ws), "test", ws / "build")
    assert preview.rebuild().error == ""
    pid, (pdf, _index, _width) = next(iter(preview.pictures.items()))
    pdf.unlink()
    pdf.symlink_to(_secret(tmp_path / "outside"))
    assert preview.png(pid) is None


@pytest.mark.parametrize("deck_id", [5, ["cards"], None])
def test_a_manifest_whose_deck_id_is_not_text_leaves_the_page_readable(good_build, tmp_path, deck_id):
    """A deck id that is not text in the last good build's manifest ended every request for the
    page in a 500 (its escaping takes text): the page loads, with the error and no last build."""
    from starlette.testclient import TestClient

    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    _manifest(ws / "build" / "test", id=deck_id, changes="abc")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    assert not state.decks and state.changes == []
    with TestClient(make_app(preview, "test", watch=False), base_url="http://127.0.0.1:8765",
                    raise_server_exceptions=False) as client:
        page = client.get("/")
        assert page.status_code == 200 and "cards.yaml:" in page.text


def test_a_planted_page_one_point_wide_is_not_rasterised_a_million_pixels_tall(good_build, tmp_path):
    """Faces are drawn 260 px wide: a page 1 pt × 14,400 pt would be 3.7 million pixels tall
    (a gigabyte of bitmap for one request). A picture is at most TALLEST times as tall as wide."""
    from PIL import Image
    from reportlab.pdfgen import canvas

    from pnpgen.serve.preview import FACE_PX, TALLEST

    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    unique = ws / "build" / "test" / "shop" / "cards-unique.pdf"
    pdf = canvas.Canvas(str(unique), pagesize=(1, 14400))
    for _ in range(4):
        pdf.showPage()
    pdf.save()
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    pid = state.decks[0]["faces"][0]["front"].removeprefix("/picture/").removesuffix(".png")
    width, height = Image.open(io.BytesIO(preview.png(pid))).size
    assert height <= TALLEST * FACE_PX and width >= 1


def test_a_picture_s_file_swapped_for_one_pdfium_cannot_read_is_no_picture(good_build, tmp_path):
    """The PDF overwritten with something else after the page was read (a sync tool, a copy):
    the picture's request is a 404 (None here), not a PdfiumError's 500 and traceback."""
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    preview = Preview(Workspace(ws), "test", ws / "build")
    assert preview.rebuild().error == ""
    pid, (pdf, _index, _width) = next(iter(preview.pictures.items()))
    pdf.write_bytes(b"%PDF-1.4 not really")
    assert preview.png(pid) is None


def test_an_order_list_naming_one_face_many_times_is_not_a_build_of_ours(good_build, tmp_path):
    """shop/order.csv lists each distinct face once; one row copied 200,000 times (7 MB) held the
    preview's start for 26 s (and a 256 MB one for a quarter of an hour): not shown."""
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    order = ws / "build" / "test" / "shop" / "order.csv"
    header, first, *_ = order.read_text(encoding="utf-8-sig").splitlines()
    order.write_text("\n".join([header, first, first]) + "\n", encoding="utf-8")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    state = Preview(Workspace(ws), "test", ws / "build").rebuild()
    assert not state.decks and not state.sheets and state.error


@pytest.mark.parametrize("field", ["id", "files"])
def test_a_manifest_listing_one_deck_many_times_is_not_a_build_of_ours(good_build, tmp_path, field):
    """A deck listed again (its faces listed twice), or its sheets' file under another deck's
    name, repeats its faces or sheets for every copy: not shown."""
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    path = ws / "build" / "test" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    copy = dict(manifest["decks"][0], **({"files": []} if field == "id" else {"id": "other"}))
    manifest["decks"].append(copy)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    state = Preview(Workspace(ws), "test", ws / "build").rebuild()
    assert not state.decks and not state.sheets and state.error


def test_a_link_left_in_the_output_folder_of_a_good_build_is_not_shown(good_build, tmp_path):
    """A game with no rulebook builds well and leaves build/test/rulebook.pdf as it was: a link
    there to a PDF outside was shown and served as the rulebook's pages. The page says so in its
    error band instead, and serves nothing."""
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    (ws / "build" / "test" / "rulebook.pdf").symlink_to(_secret(tmp_path / "outside"))
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    assert state.error.startswith("pnpgen: error: build/test: reached through a link: rulebook.pdf"), state.error
    assert not state.sheets and not preview.pictures


def test_a_reprint_list_left_as_a_link_out_is_not_shown(good_build, tmp_path):
    """A build that changes no piece keeps what is in build/test/: a reprint.txt there that is a
    link to a file outside showed that file's text on the page. The page says so in its error band."""
    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("SECRET", encoding="utf-8")
    (ws / "build" / "test" / "reprint.txt").symlink_to(secret)
    state = Preview(Workspace(ws), "test", ws / "build").rebuild()
    assert "SECRET" not in state.reprint
    assert state.error.startswith("pnpgen: error: build/test: reached through a link: reprint.txt"), state.error


def test_a_picture_is_rasterised_without_reading_its_whole_file(good_build, tmp_path):
    """Each picture read its PDF whole: every face of a 265 MB shop file read all of it again, in as
    many of the server's threads as the browser asked for pictures. PDFium reads what the page needs."""
    import tracemalloc

    from pypdf import PdfReader, PdfWriter

    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    unique = ws / "build" / "test" / "shop" / "cards-unique.pdf"
    writer = PdfWriter(clone_from=PdfReader(unique))
    writer.add_attachment("padding.bin", os.urandom(16 << 20))  # 16 MB no page shows
    with unique.open("wb") as f:
        writer.write(f)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()  # the data is broken: the last good build on disk is shown, as it is
    pid = state.decks[0]["faces"][0]["front"].removeprefix("/picture/").removesuffix(".png")
    tracemalloc.start()
    try:
        png = preview.png(pid)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert png is not None and png[:4] == b"\x89PNG"
    assert peak < 8 << 20, peak


def _hashes_counted(monkeypatch) -> list[str]:
    """Each PDF the preview reads to hash it, its digest (``preview._hashed``, counted)."""
    from pnpgen.serve import preview as module

    hashed: list[str] = []
    real = module._hashed
    monkeypatch.setattr(module, "_hashed", lambda source: hashed.append(real(source)) or hashed[-1])
    return hashed


def test_the_first_page_reads_no_pdf_the_build_recorded_and_catches_one_replaced_since(good_build, tmp_path, monkeypatch):
    """The page hashed every PDF it shows, read whole (5,000 illustrated cards: 3.6 GB, 26 s of
    the first page's 51): a file the build recorded (its hash, its stamp in the table of files'
    hashes) is known unread. One written over behind the build's back (same size, other bytes,
    its modification time set back: only its change time differs) is read and shown as it is."""
    import hashlib

    ws = tmp_path / "ws"
    shutil.copytree(good_build, ws, symlinks=True)
    out = ws / "build" / "test"
    hashed = _hashes_counted(monkeypatch)
    state = Preview(Workspace(ws), "test", ws / "build").rebuild()
    assert state.error == "" and [f["name"] for f in state.decks[0]["faces"]] == ["カード1", "カード2"]
    assert len(state.sheets) == 2
    assert hashed == []  # cards-unique.pdf and cards.pdf: known by the build's record
    unique = out / "shop" / "cards-unique.pdf"
    built = unique.read_bytes()
    front = state.decks[0]["faces"][0]["front"]
    assert front.startswith(f"/picture/{hashlib.sha256(built).hexdigest()[:12]}-0-")  # (a plain file: its SHA-256)
    planted = built.replace(b"/Producer", b"/Pbroduce", 1)  # same size, other bytes
    assert planted != built and len(planted) == len(built)
    before = unique.stat()
    unique.write_bytes(planted)
    os.utime(unique, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert unique.stat().st_size == before.st_size and unique.stat().st_mtime_ns == before.st_mtime_ns
    deck = ws / "data" / "test" / "decks" / "cards.yaml"  # broken: the last good build on disk is shown, no build
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    state = Preview(Workspace(ws), "test", ws / "build").rebuild()
    assert state.error and [f["name"] for f in state.decks[0]["faces"]] == ["カード1", "カード2"]
    assert hashed == [hashlib.sha256(planted).hexdigest()]  # that file alone read, as it is now
    assert state.decks[0]["faces"][0]["front"].startswith(f"/picture/{hashed[0][:12]}-0-")
