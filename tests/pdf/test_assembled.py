"""Issue 22 item 2: a document is assembled when written — its pictures' streams come from the
cache as the file is written (pdf/assemble.py), never held in memory — and its bytes are those
the writer makes with the pictures inline; item 4: a game's documents over --jobs workers are
byte-identical to one process's."""

from __future__ import annotations

import base64
import concurrent.futures
import io
import random
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, png_in_chunks, run
from pdfprobe import image_xobjects
from pnpgen.engine import documents, transaction
from pnpgen.impose.plan import Page, PagePlan, PlaceFace
from pnpgen.pdf import imagestream, raster
from pnpgen.pdf.assemble import PdfFile, Stored
from pnpgen.pdf.writer import write_document, write_pdf
from pnpgen.shapes import translate
from pnpgen.svg import convert

FRONT = PICTURE_FRONT
PDFS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")


def _png(colour: tuple[int, int, int], size=(300, 200)) -> bytes:
    """A picture of grain over ``colour``: its stream weighs what painted art weighs."""
    out = io.BytesIO()
    grain = Image.frombytes("RGB", size, random.Random(sum(colour)).randbytes(size[0] * size[1] * 3))
    im = Image.blend(Image.new("RGB", size, colour), grain, 0.3)
    im.paste((255, 255, 255), (0, 0, size[0] // 2, size[1] // 2))
    im.save(out, "PNG")
    return out.getvalue()


def _picture_plan(pictures: list[bytes]) -> tuple[PagePlan, dict]:
    """A page per picture, each a face of its own showing it (converted from an SVG with the
    picture as a data: URI)."""
    arts, pages = {}, []
    for i, data in enumerate(pictures):
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">'
               f'<image href="data:image/png;base64,{base64.b64encode(data).decode()}" width="60" height="40"/></svg>')
        arts[f"face{i}"] = convert(svg, f"face {i}")
        pages.append(Page((100.0, 80.0), [PlaceFace(f"face{i}", translate(10.0, 10.0 + i), (60.0, 40.0), 0.0)]))
    return PagePlan("pictures", pages), arts


def test_an_assembled_file_is_byte_for_byte_the_file_written_with_its_pictures_inline(tmp_path):
    pictures = [_png((200, 30, 30)), _png((30, 200, 30), (120, 90)), _png((200, 30, 30))]  # one twice
    plan, arts = _picture_plan(pictures)
    inline = write_document(plan, arts, "Helvetica", images=raster.ImageStreams())
    assembled = write_pdf(plan, arts, "Helvetica", images=raster.ImageStreams(tmp_path / "images"))
    in_memory = sum(len(p) for p in assembled.parts if isinstance(p, bytes))
    assert in_memory < len(inline) - 100_000  # the document in memory holds no picture
    stored = [p for p in assembled.parts if isinstance(p, Stored)]
    assert len(stored) == 2 and all(Path(p.path).parent.parent == tmp_path / "images" for p in stored)
    assert assembled.size == len(inline) and bytes(assembled) == inline and assembled.sha() == PdfFile((inline,)).sha()
    out = tmp_path / "a.pdf"
    with open(out, "wb") as f:
        assembled.write_to(f)
    assert out.read_bytes() == inline and assembled.same_as(out)
    with pikepdf.open(out) as pdf:
        assert pdf.check_pdf_syntax() == []  # xref offsets, lengths, objects: qpdf --check finds nothing


@pytest.mark.parametrize("chunks,side_by_side", [(1, False), (imagestream.MAX_PIECES + 4, False), (1, True)])
def test_every_document_of_a_build_checks_clean_and_carries_each_picture_once(tmp_path, monkeypatch, chunks, side_by_side):
    """A picture shown as it is in few pieces is copied from its art file, nothing of it cached;
    one in many pieces (8 kB IDAT chunks) from its stream, made once into the cache. Big
    documents are copied side by side, each by a process of its own (``side_by_side``: every
    document counts as big)."""
    if side_by_side:
        monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "".join(
        f"  - {{name: 札{i}, art: p{i}.png, count: 2}}\n" for i in range(3)), front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i, colour in enumerate([(200, 40, 40), (40, 200, 40), (40, 40, 200)]):
        (ws / "data" / "test" / "art" / f"p{i}.png").write_bytes(png_in_chunks(_png(colour), chunks))
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    streams = sorted(imagestream.make_stream(p.read_bytes()).content for p in (ws / "data" / "test" / "art").iterdir())
    cached = sorted(p.read_bytes() for p in (out / ".cache" / "images").rglob("*.bin"))
    assert cached == ([] if chunks == 1 else streams)
    for name in PDFS:
        path = out / "test" / name
        with pikepdf.open(path) as pdf:
            assert pdf.check_pdf_syntax() == []
        images = image_xobjects(PdfReader(path, strict=True)).values()
        assert sorted(im._data for im in images) == streams  # each picture once, its pixel data as it is


@pytest.mark.parametrize("side_by_side", [False, True])
def test_an_art_file_saved_again_while_a_build_writes_is_refused_and_the_last_files_stay(tmp_path, monkeypatch, capsys,
                                                                                          side_by_side):
    """A picture is copied from its art file when the document is written: a file saved again
    since the build took it is refused (exit 2, one line), never copied half old, half new —
    also when the big documents are copied early, each by a process of its own, while the build
    goes on (``side_by_side``: every document counts as big; saved before those copies begin)."""
    from pnpgen.engine import run as build_run

    if side_by_side:
        monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 札, art: p.png, count: 2}\n", front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    art = ws / "data" / "test" / "art" / "p.png"
    art.write_bytes(_png((200, 40, 40)))
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    good = (out / "test" / "cards.pdf").read_bytes()
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        PICTURE_DECK_YAML + "  - {name: 札改, art: p.png, count: 2}\n", encoding="utf-8")
    where = "_stage_early" if side_by_side else "commit"  # (where the documents are copied)
    real = getattr(build_run, where)

    def saved_meanwhile(*args, **kwargs):
        art.write_bytes(_png((40, 40, 200)))  # the designer saves the picture while the build writes
        return real(*args, **kwargs)

    monkeypatch.setattr(build_run, where, saved_meanwhile)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "p.png was saved again while the build" in err and "build again" in err and len(err.splitlines()) == 1
    assert (out / "test" / "cards.pdf").read_bytes() == good
    assert not list(out.rglob(".pnpgen-staging*"))  # nothing half-written left behind


def test_an_art_file_saved_again_before_the_bleed_is_read_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    """The first face of a deck is drawn, pictures and all, to read its bleed after the documents
    are made: an art file saved again by then is refused as at the commit (it was a traceback)."""
    from pnpgen.engine import game

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 札, art: p.png, count: 2}\n", front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    art = ws / "data" / "test" / "art" / "p.png"
    art.write_bytes(_png((200, 40, 40)))
    real = game.write_documents

    def saved_meanwhile(*args, **kwargs):
        written = real(*args, **kwargs)
        art.write_bytes(_png((40, 40, 200)) + b"\0")  # the designer saves the picture as the documents are made
        return written

    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    good = (out / "test" / "cards.pdf").read_bytes()
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        PICTURE_DECK_YAML + "  - {name: 札改, art: p.png, count: 2}\n", encoding="utf-8")
    monkeypatch.setattr(game, "write_documents", saved_meanwhile)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "p.png was saved again while the build read it" in err and len(err.splitlines()) == 1
    assert (out / "test" / "cards.pdf").read_bytes() == good


def test_an_art_file_saved_again_before_the_rulebook_takes_its_pictures_is_refused_in_one_line(tmp_path, monkeypatch,
                                                                                                 capsys):
    """The rulebook takes the faces' pictures from their art files once the faces are drawn: an
    art file saved again by then (an editor's save seen half-way by watch) is refused in one line,
    exit 2, as at the commit — it was a traceback, which ended ``watch``, so no later save was built."""
    from pnpgen.engine.bookjob import RulebookJob

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 札, art: p.png, count: 2}\n", front=FRONT,
                        draft=True)
    (ws / "data" / "test" / "art").mkdir()
    art = ws / "data" / "test" / "art" / "p.png"
    art.write_bytes(_png((200, 40, 40)))
    real = RulebookJob.start

    def saved_meanwhile(*args, **kwargs):
        art.write_bytes(_png((40, 40, 200)))  # the rest of the designer's save lands as the faces are ready
        return real(*args, **kwargs)

    monkeypatch.setattr(RulebookJob, "start", saved_meanwhile)
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "p.png was saved again while the build read it" in err and len(err.splitlines()) == 1
    assert not (out / "test").exists()  # nothing written


def test_documents_written_over_two_workers_are_the_bytes_one_process_writes(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "".join(
        f"  - {{name: 札{i}, art: p{i % 2}.png, count: {i % 3 + 1}}}\n" for i in range(12)), front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i, colour in enumerate([(200, 40, 40), (40, 40, 200)]):
        (ws / "data" / "test" / "art" / f"p{i}.png").write_bytes(_png(colour))
    submitted: list[str] = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            submitted.extend(doc.title for doc in args[0][0].values())
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(documents, "MIN_FACES", 0)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)  # (imported by a build that starts workers)
    for jobs in ("1", "2"):
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(tmp_path / jobs)) == 0
    assert len(submitted) == 4  # the four documents, in the workers (two groups), only with --jobs 2
    for name in [*PDFS, "manifest.json"]:
        assert (tmp_path / "1" / "test" / name).read_bytes() == (tmp_path / "2" / "test" / name).read_bytes(), name
    # an edit: the workers get what the last build drew (the cache's pack) and draw the rest
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("札3", "札三"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(tmp_path / "2")) == 0
    assert len(submitted) == 8
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "cold")) == 0
    for name in PDFS:
        assert (tmp_path / "cold" / "test" / name).read_bytes() == (tmp_path / "2" / "test" / name).read_bytes(), name


def test_documents_are_grouped_by_pages_one_group_a_worker():
    from pnpgen.impose.plan import PagePlan

    todo = {name: PagePlan(name, [None] * n) for name, n in  # type: ignore[list-item]
            (("shop.pdf", 400), ("unique.pdf", 200), ("home.pdf", 45), ("all.pdf", 50))}
    groups = documents._groups(todo, 2)
    assert groups == [["shop.pdf"], ["unique.pdf", "all.pdf", "home.pdf"]]
    assert documents._groups(todo, 8) == [["shop.pdf"], ["unique.pdf"], ["all.pdf"], ["home.pdf"]]


def _parts_file(tmp_path: Path) -> tuple[PdfFile, bytes]:
    """A file of bytes and stored parts (two pieces of one source, one of another)."""
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    a.write_bytes(bytes(range(256)) * 64)
    b.write_bytes(b"xyz" * 5000)
    parts = (b"head ", Stored(str(a), 1000, 10), Stored(str(a), 300, 5000), b" mid ", Stored(str(b), 15000), b" tail")
    expected = b"head " + a.read_bytes()[10:1010] + a.read_bytes()[5000:5300] + b" mid " + b.read_bytes() + b" tail"
    return PdfFile(parts), expected


@pytest.mark.parametrize("kernel", ["copies", "refuses", "absent"])
def test_a_file_written_from_parts_holds_its_bytes_however_the_kernel_copies(tmp_path, monkeypatch, kernel):
    """Stored parts are copied by the kernel where it can (``copy_file_range``) and read and
    written where it cannot (another file system: EXDEV; another system: no such call), into the
    descriptor's place after what the file object held."""
    import errno
    import os

    from pnpgen.pdf import assemble

    data, expected = _parts_file(tmp_path)
    if kernel == "refuses":
        def refuse(*args, **kwargs):
            raise OSError(errno.EXDEV, "cross-device")
        monkeypatch.setattr(assemble.os, "copy_file_range", refuse)
    elif kernel == "absent":
        monkeypatch.delattr(assemble.os, "copy_file_range", raising=False)
    out = tmp_path / "out.bin"
    with open(out, "wb") as f:
        f.write(b"buffered ")  # still in the file object's buffer when the parts are written
        data.write_to(f)
        f.write(b" after")
    assert out.read_bytes() == b"buffered " + expected + b" after"
    assert bytes(data) == expected and data.same_as(tmp_path / "c.bin") is False
    assert os.path.getsize(out) == len(expected) + 15


def test_a_file_written_from_parts_opens_each_source_once_a_run_and_seeks_nothing(tmp_path, monkeypatch):
    """A thousand pictures in four documents: each source opened once for its run of parts (a bare
    descriptor, read at offsets), the output never sought or flushed between parts (the old way
    took four system calls a part besides the copy: 44,000 a 1,000-card edit)."""
    import os

    from pnpgen.pdf import assemble

    data, expected = _parts_file(tmp_path)
    opened: list[str] = []
    real_open, seeks = os.open, []
    monkeypatch.setattr(assemble.os, "open", lambda path, *a, **k: opened.append(path) or real_open(path, *a, **k))
    monkeypatch.setattr(assemble.os, "lseek", lambda *a: seeks.append(a) or os.SEEK_SET)
    out = tmp_path / "out.bin"
    with open(out, "wb") as f:
        data.write_to(f)
    assert out.read_bytes() == expected
    assert [Path(p).name for p in opened] == ["a.bin", "b.bin"] and seeks == []


def test_a_source_saved_again_before_it_is_copied_is_refused(tmp_path):
    """A part's file whose stamp changed since the build took it (an art file saved again) stops
    the writing: never a document half old, half new."""
    from pnpgen.pdf.assemble import SourceChanged, file_stamp

    src = tmp_path / "art.png"
    src.write_bytes(b"old bytes" * 100)
    part = Stored(str(src), 900, 0, file_stamp(src))
    src.write_bytes(b"new bytes!" * 100)
    with open(tmp_path / "out.bin", "wb") as f, pytest.raises(SourceChanged):
        PdfFile((b"x", part)).write_to(f)


def test_a_source_written_over_in_place_its_size_and_time_kept_is_refused(tmp_path):
    """An art file painted over in place, the same size, its modification time set back (touch -r):
    its change time tells it (the stamp held size, modification time and inode, and the new bytes
    were copied under the old ones' hashes; hostile35)."""
    import os

    from pnpgen.pdf.assemble import SourceChanged, file_stamp

    src = tmp_path / "art.png"
    src.write_bytes(b"old bytes" * 100)
    before = os.stat(src)
    part = Stored(str(src), 900, 0, file_stamp(src))
    with open(src, "r+b") as f:
        f.write(b"new")
    os.utime(src, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(src).st_mtime_ns == before.st_mtime_ns and os.stat(src).st_size == before.st_size
    with open(tmp_path / "out.bin", "wb") as f, pytest.raises(SourceChanged):
        PdfFile((b"x", part)).write_to(f)


def test_a_file_of_the_same_size_is_told_apart_by_its_drawing_before_its_pictures_are_read(tmp_path, monkeypatch):
    """The commit keeps a file that holds the new bytes already; one of the same size whose
    drawing differs (an edit of a word) is found different without reading its pictures again."""
    art = tmp_path / "art.bin"
    art.write_bytes(bytes(range(256)) * 64)
    new = PdfFile((b"head", Stored(str(art), 8192, 100), b"drawing one", Stored(str(art), 4000), b"tail"))
    out = tmp_path / "out.pdf"
    out.write_bytes(bytes(new))
    read: list[Stored] = []
    real = Stored.chunks
    monkeypatch.setattr(Stored, "chunks", lambda self: read.append(self) or real(self))
    assert new.same_as(out) and len(read) == 2
    read.clear()
    other = PdfFile((b"head", Stored(str(art), 8192, 100), b"drawing two", Stored(str(art), 4000), b"tail"))
    assert not other.same_as(out) and read == []
    picture = bytearray(bytes(new))
    picture[200] ^= 1
    out.write_bytes(bytes(picture))
    assert not new.same_as(out)
    out.write_bytes(bytes(new)[:-1])
    assert not new.same_as(out)
