"""Issue 22: the objects of the last file that a text edit leaves where they stood are copied as
runs, each one slice of the last file's bytes (pdf/objects.py ``hold``/``fill_run``, pdf/patch.py
``patched``), not object by object — and the file is the one a cold build writes, object for
object, cross-reference table and /ID included."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from test_patch import BUILD, _deck, _edit, _same_as_cold, make_workspace

from conftest import run
from pnpgen.pdf import objects
from pnpgen.pdf.assemble import Stored
from pnpgen.pdf.objects import Name, ObjectFile, Ref


def _bodies(f: ObjectFile, first: int, end: int) -> list[bytes]:
    return [f.bytes_of(n, n + 1) or b"" for n in range(first, end)]


def _three_pages(f: ObjectFile, picture: Stored) -> tuple[Ref, Ref]:
    catalog, pages, info = f.reserve(), f.reserve(), f.reserve()
    kids = [f.add({"Type": Name("Page"), "Parent": pages, "MediaBox": [0, 0, 100 + k, 100]}) for k in range(3)]
    f.put(pages, {"Type": Name("Pages"), "Kids": kids, "Count": 3})
    f.put(catalog, {"Type": Name("Catalog"), "Pages": pages})
    f.put(info, {"Producer": "test"})
    f.put_stream(f.reserve(), {"Type": Name("XObject")}, picture, named=b"a picture")  # (after the run)
    return catalog, info


def test_a_run_of_objects_is_the_file_its_objects_one_by_one_make(tmp_path):
    (tmp_path / "picture").write_bytes(b"0123456789")
    picture = Stored(str(tmp_path / "picture"), 10)
    alone = ObjectFile()
    catalog, info = _three_pages(alone, picture)
    bodies = _bodies(alone, 4, 7)
    together = ObjectFile()
    for _ in range(3):
        together.reserve()
    first = together.hold(3)
    assert first == 4 and together.next == 7
    together.fill_run(first, b"".join(bodies), [len(b) for b in bodies])
    for n in (1, 2, 3):
        together.put(Ref(n), None)
    for n, ref in ((2, Ref(2)), (1, catalog), (3, info)):  # (as the first file wrote them)
        together._bodies[n] = alone._bodies[n]  # (the same objects 1–3)
        assert ref.n == n
    together.put_stream(together.reserve(), {"Type": Name("XObject")}, picture, named=b"a picture")
    mine, theirs = bytes(together.finish(catalog, info)), bytes(alone.finish(catalog, info))
    assert mine == theirs  # (the /ID too: the named stream after the run hashed by its name)
    (tmp_path / "other").write_bytes(b"abcdefghij")
    moved = ObjectFile()
    _three_pages(moved, Stored(str(tmp_path / "other"), 10))
    assert bytes(moved.finish(catalog, info)).split(b"/ID")[1] == theirs.split(b"/ID")[1]  # (named: its data not read)
    assert together.offsets == alone.offsets
    reader = PdfReader(io.BytesIO(mine))  # (every object where the cross-reference table says)
    assert [float(p.mediabox.width) for p in reader.pages] == [100, 101, 102]
    assert together.bytes_of(4, 7) == b"".join(bodies)
    assert together.bytes_of(5, 7) is None and together.bytes_of(4, 6) is None  # (a run cut: not its bytes)


def test_a_run_held_and_not_filled_or_filled_wrongly_is_refused():
    f = ObjectFile()
    catalog, info = f.reserve(), f.reserve()
    first = f.hold(2)
    with pytest.raises(ValueError, match="not held"):
        f.fill_run(first, b"abc", [1, 1])  # (its lengths are not its bytes)
    f.put(catalog, {"Type": Name("Catalog")})
    f.put(info, {})
    with pytest.raises(ValueError, match="never written"):
        f.finish(catalog, info)
    f.fill_run(first, b"3 0 obj\nnull\nendobj\n4 0 obj\nnull\nendobj\n", [20, 20])
    with pytest.raises(ValueError, match="not held"):
        f.fill_run(first, b"3 0 obj\nnull\nendobj\n4 0 obj\nnull\nendobj\n", [20, 20])  # (filled already)
    assert re.search(rb"xref\n0 5\n", bytes(f.finish(catalog, info)))


def test_a_text_edit_copies_the_unchanged_pages_as_runs(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    runs: list[int] = []
    one_by_one: list[int] = []
    fill, put = objects.ObjectFile.fill_run, objects.ObjectFile.put_copied

    def filled(self, first, data, lengths):
        runs.append(len(lengths))
        return fill(self, first, data, lengths)

    def copied(self, body):
        one_by_one.append(1)
        return put(self, body)

    monkeypatch.setattr(objects.ObjectFile, "fill_run", filled)
    monkeypatch.setattr(objects.ObjectFile, "put_copied", copied)
    _edit(_deck(ws), "本文カード5}", "本文カード5を書き直した}")
    assert run(ws, *BUILD) == 0
    # the pages before and after the edited card's, each document's: a few runs, not object by object
    # (what is copied alone: the forms of the edited card's neighbours on the page written again)
    assert runs and sum(runs) > 10 * len(runs) and sum(runs) > 3 * len(one_by_one)
    monkeypatch.setattr(objects.ObjectFile, "fill_run", fill)
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
