"""Issue 22: a text edit's documents are written as the file the last build wrote, with only the
edited faces' forms, the pages showing them, the fonts and what follows written again
(pdf/patch.py); the part copied is checked against the SHA-256 recorded for it. Whatever the old
file holds, the documents are the bytes a cold build of the same data writes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PICTURE_FRONT, make_workspace, picture_workspace, run
from pnpgen.pdf import patch, streams, writer

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
DOCS = ("cards.pdf", "test-all.pdf", "shop/cards.pdf", "shop/cards-unique.pdf")
# each written from its last file (test-all.pdf goes on from the home sheets' writer, as it does afresh)
PATCHED = {"cards.pdf": True, "shop/cards.pdf": True, "shop/cards-unique.pdf": True}


@pytest.fixture
def patches(monkeypatch) -> dict[str, bool]:
    """Each document the writer tried to write from the last build's file (by the file's path
    under build/test): did it?"""
    tried: dict[str, bool] = {}
    planned, was = writer.plan, writer.patched

    def where(path: str) -> str:
        return Path(path).as_posix().split("/build/test/")[-1]

    def planning(w, pages, last, path):
        found = planned(w, pages, last, path)
        if found is None:
            tried[where(path)] = False
        return found

    def counted(w, pages, last, found, pages_ref):
        kids = was(w, pages, last, found, pages_ref)
        tried[where(found.path)] = kids is not None
        return kids

    monkeypatch.setattr(writer, "plan", planning)
    monkeypatch.setattr(writer, "patched", counted)
    return tried


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _deck(ws: Path) -> Path:
    return ws / "data" / "test" / "decks" / "cards.yaml"


def _same_as_cold(tmp_path: Path, ws: Path, name: str, monkeypatch) -> None:
    """Every document equals a cold build's of the same data, with no cache."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    assert run(ws, *BUILD, "--out", str(tmp_path / name)) == 0
    monkeypatch.delenv("PNPGEN_CACHE")
    for doc in DOCS:
        assert (ws / "build" / "test" / doc).read_bytes() == (tmp_path / name / "test" / doc).read_bytes(), doc


def _layout(ws: Path, doc: str) -> patch.Layout:
    lines = (ws / "build" / ".cache" / "layouts" / "test.pack.json").read_bytes().split(b"\n")[1:]
    layout = patch.layout_of(dict(json.loads(line) for line in lines)[doc])
    assert layout is not None
    return layout


def test_a_text_edit_is_written_from_the_last_file_as_a_cold_build_writes_it(tmp_path, patches, monkeypatch):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    assert not patches  # (nothing recorded yet)
    _edit(_deck(ws), "本文カード5}", "本文カード5を書き直した}")
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    shop = PdfReader(ws / "build" / "test" / "shop" / "cards.pdf")
    assert any("本文カード5を書き直した" in page.extract_text() for page in shop.pages)
    patches.clear()
    _edit(_deck(ws), "本文カード9}", "本文カード9も}")  # again, from the file written from the last one
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    _same_as_cold(tmp_path, ws, "cold2", monkeypatch)
    if shutil.which("qpdf"):
        for doc in DOCS:
            done = subprocess.run(["qpdf", "--check", str(ws / "build" / "test" / doc)], capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr


def _qpdf_clean(ws: Path) -> None:
    if shutil.which("qpdf"):
        for doc in DOCS:
            done = subprocess.run(["qpdf", "--check", str(ws / "build" / "test" / doc)], capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr


def test_count_edits_are_written_from_the_last_file_as_a_cold_build_writes_them(tmp_path, patches, monkeypatch):
    """A count edit moves the shop file's pages after the piece (one piece a page): each moved
    page is copied from the last file, its references renumbered; pieces added, a piece gone
    (count 0), a sheet more and a sheet fewer — every document a cold build's."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    copied = 0
    put = writer.ObjectFile.put_copied

    def counting(self, body):
        nonlocal copied
        copied += 1
        put(self, body)

    monkeypatch.setattr(writer.ObjectFile, "put_copied", counting)
    steps = [("{name: カード2,", "{name: カード2, count: 3,", 13, 2, 3),  # two pieces more: the pages after moved
             ("{name: カード5,", "{name: カード5, count: 0,", 12, 2, 3),  # a piece gone, its face with it
             ("{name: カード2, count: 3,", "{name: カード2, count: 10,", 19, 3, 10),  # a sheet more
             ("{name: カード2, count: 10,", "{name: カード2,", 10, 2, 1)]  # and a sheet fewer
    for n, (old, new, pieces, sheets, twos) in enumerate(steps):
        patches.clear()
        copied = 0
        _edit(_deck(ws), old, new)
        assert run(ws, *BUILD) == 0
        assert patches["shop/cards.pdf"] is True, n
        assert copied > 10 * 2, n  # (most of the shop's pages' objects: copied, not written)
        _same_as_cold(tmp_path, ws, f"cold{n}", monkeypatch)
        shop = PdfReader(ws / "build" / "test" / "shop" / "cards.pdf")
        assert len(shop.pages) == 2 * pieces
        fronts = [page.extract_text() for page in shop.pages[::2]]
        assert ["カード2" in text for text in fronts].count(True) == twos
        assert any("カード5" in text for text in fronts) is (n == 0)
        home = PdfReader(ws / "build" / "test" / "cards.pdf")
        assert len(home.pages) == 2 * sheets
        everything = PdfReader(ws / "build" / "test" / "test-all.pdf")
        bom = everything.pages[-1].extract_text()
        assert f"{pieces}" in bom, bom
        _qpdf_clean(ws)


def test_a_workspace_copied_to_another_folder_writes_its_first_count_edit_from_the_last_file(tmp_path, patches,
                                                                                              monkeypatch):
    """What the faces are drawn with hashed each file by its absolute path: in a copy of the
    workspace (a folder moved, a backup restored) the cache's layouts were taken for another
    game's, and the first count edit wrote every document afresh. A file is named by its place
    in its folder: the copy's edit is written from the last files, as a cold build writes it."""
    built = make_workspace(tmp_path / "ws")
    assert run(built, *BUILD) == 0
    ws = tmp_path / "moved" / "ws"
    shutil.copytree(built, ws, symlinks=True)
    _edit(_deck(ws), "{name: カード2,", "{name: カード2, count: 3,")
    assert run(ws, *BUILD) == 0
    assert patches["shop/cards.pdf"] is True and patches["shop/cards-unique.pdf"] is True, patches  # (as in place)
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    assert len(PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages) == 2 * 13


def test_a_template_edit_is_written_afresh(tmp_path, patches, monkeypatch):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    _edit(ws / "templates" / "test" / "card-front.svg.j2", "{% endblock %}", '<rect x="1" y="1" width="2" height="2"/>{% endblock %}')
    assert run(ws, *BUILD) == 0
    assert not patches  # (the faces drawn with other templates: no layout holds)
    _same_as_cold(tmp_path, ws, "cold2", monkeypatch)


def test_a_damaged_last_file_is_not_copied_from(tmp_path, patches, monkeypatch):
    """A page of the old file changed in place (its size as it was): that document is written
    afresh, not with the damaged bytes."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    old = ws / "build" / "test" / "shop" / "cards.pdf"
    layout = _layout(ws, "shop/cards.pdf")
    data = bytearray(old.read_bytes())
    end = layout.at + sum(layout.lengths)
    at = data.rindex(b"/MediaBox", layout.at, end)  # the last page's: one the edit does not change
    data[at:at + 9] = b"/MediaBoz"
    old.write_bytes(bytes(data))
    _edit(_deck(ws), "本文カード1}", "本文カード1を書き直した}")
    assert run(ws, *BUILD) == 0
    assert patches == {**PATCHED, "shop/cards.pdf": False}
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)


def test_another_file_in_place_of_the_last_output_is_not_copied_from(tmp_path, patches, monkeypatch):
    """Another build's file of the same name (a different game's): nothing copied from it."""
    ws = make_workspace(tmp_path / "ws")
    other = make_workspace(tmp_path / "other", pieces=[f"別の札{i}" for i in range(1, 12)])
    assert run(ws, *BUILD) == 0
    assert run(other, *BUILD) == 0
    for doc in DOCS:
        (ws / "build" / "test" / doc).write_bytes((other / "build" / "test" / doc).read_bytes())
    _edit(_deck(ws), "本文カード1}", "本文カード1を書き直した}")
    assert run(ws, *BUILD) == 0
    assert patches and True not in patches.values()
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)


def test_a_layout_not_as_recorded_is_refused():
    good = patch.Layout(False, "p", 5, 7, 100, [10, 12], "ab", "0" * 32, [5], ["f"], [5], [0], [[0, "font", "F", 6]],
                        {}, [{"F": "\U00010001a"}]).to_json()
    assert patch.layout_of(good) is not None
    for change in ({"tag": "pnpgen layout 0"}, {"lengths": [10]}, {"forms": [9]}, {"named": [[0, "picture", "x", 6]]},
                   {"face_glyphs": [{"F": "abc"}]}, {"starts": ["5"]}, {"at": -1}, {"extra": 1},
                   {"shows": [["x" * 64]]}, {"shows": [[], []]}, {"shows": [[1]]}):
        assert patch.layout_of({**good, **change}) is None, change
    assert patch.layout_of([1, 2]) is None


def test_a_link_in_place_of_the_last_output_is_not_read(tmp_path, patches, monkeypatch):
    """The last file moved out of the workspace and linked back (its bytes the recorded ones):
    pnpgen reads nothing outside the workspace, so that document is written afresh."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    old = ws / "build" / "test" / "cards.pdf"
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(old.read_bytes())
    old.unlink()
    old.symlink_to(outside)
    _edit(_deck(ws), "本文カード1}", "本文カード1を書き直した}")
    assert run(ws, *BUILD) == 0
    assert patches == {**PATCHED, "cards.pdf": False}
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)


def test_pictured_cards_text_and_art_edits_are_written_from_the_last_file(tmp_path, patches, monkeypatch):
    """Illustrated cards: a text edit is written from the last file (the pictures laid out first,
    as always); an art edit changes a picture: the pictures are laid out again and the pages
    copied with their references to them renumbered, the bytes a cold build writes."""
    from PIL import Image

    arts = ["a.png", "b.png", "c.png"]
    pieces = "".join(f"  - {{name: 札{i}, art: {arts[i % 3]}}}\n" for i in range(1, 13))
    ws = picture_workspace(tmp_path / "ws", pieces, PICTURE_FRONT,
                           {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)})
    assert run(ws, *BUILD) == 0
    _edit(_deck(ws), "{name: 札5,", "{name: 札5改,")
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    patches.clear()
    Image.new("RGB", (300, 200), (90, 90, 20)).save(ws / "data" / "test" / "art" / "c.png")
    assert run(ws, *BUILD) == 0
    # the pictures' objects laid out again, every reference to them renumbered (the home sheets too:
    # their fronts show the changed faces, written again, their backs pages copied)
    assert patches == PATCHED
    _same_as_cold(tmp_path, ws, "cold2", monkeypatch)


def _pictured(tmp_path: Path, cards: int = 12) -> Path:
    arts = ["a.png", "b.png", "c.png"]
    pieces = "".join(f"  - {{name: 札{i}, art: {arts[i % 3]}}}\n" for i in range(1, cards + 1))
    return picture_workspace(tmp_path / "ws", pieces, PICTURE_FRONT,
                             {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)})


def _asked(monkeypatch) -> set[str]:
    """The faces whose streams the writers ask for (``FaceStreams.get``: a record unpacked), as they do."""
    asked: set[str] = set()
    get = streams.FaceStreams.get

    def asking(self, key, art, cmyk, images):
        asked.add(key)
        return get(self, key, art, cmyk, images)

    monkeypatch.setattr(streams.FaceStreams, "get", asking)
    return asked


def test_a_text_edit_lays_out_the_unchanged_pages_pictures_by_their_keys(tmp_path, patches, monkeypatch):
    """A text edit asks for no unchanged face to find its pictures (the layout holds each page's
    pictures' keys), keeps every cached picture stream, and writes what a cold build writes."""
    from PIL import Image

    ws = _pictured(tmp_path)
    # a picture with a soft mask: placed from a stream of the cache (a plain one, from its file's pieces)
    Image.new("RGBA", (300, 200), (200, 40, 40, 128)).save(ws / "data" / "test" / "art" / "a.png")
    assert run(ws, *BUILD) == 0
    images = ws / "build" / ".cache" / "images"
    before = sorted(p.relative_to(images) for p in images.rglob("*") if p.is_file())
    assert before
    get = streams.FaceStreams.get
    asked = _asked(monkeypatch)
    laid_out = writer.laid_out
    monkeypatch.setattr(writer, "laid_out", lambda *a: None)  # (the pictures walked, as before)
    _edit(_deck(ws), "{name: 札5,", "{name: 札5改,")
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    walked = set(asked)
    asked.clear()
    monkeypatch.setattr(writer, "laid_out", laid_out)
    _edit(_deck(ws), "{name: 札5改,", "{name: 札5再,")
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    # only the faces shown on the rewritten pages (and test-all's own pages) are asked for
    assert asked and len(asked) <= len(walked) - 6, (len(asked), len(walked))
    assert sorted(p.relative_to(images) for p in images.rglob("*") if p.is_file()) == before
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    monkeypatch.setattr(streams.FaceStreams, "get", get)
    _edit(_deck(ws), "{name: 札5再,", "{name: 札5改,")  # and again, from the layout this edit recorded
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    _same_as_cold(tmp_path, ws, "cold2", monkeypatch)


def test_a_face_showing_another_picture_renumbers_the_pictures(tmp_path, patches, monkeypatch):
    """A card given another of the deck's pictures: the pictures are met in another order, so
    they are numbered otherwise; the pages are copied with their references renumbered, the
    documents as a cold build writes them."""
    ws = _pictured(tmp_path)
    assert run(ws, *BUILD) == 0
    _edit(_deck(ws), "{name: 札1, art: b.png}", "{name: 札1, art: a.png}")
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)


def test_a_documents_glyphs_from_their_counts():
    """The fonts' glyphs after an edit: the last document's counts, less the changed stream's
    pairs, plus its new ones; a glyph id showing two characters leaves the order to the writer."""
    counts: dict = {}
    first, second = patch.glyph_text({"F": {5: "あ", 6: "い"}}), patch.glyph_text({"F": {5: "あ", 7: "う"}})
    patch.count_glyphs(counts, first)
    patch.count_glyphs(counts, second)
    assert patch.document_glyphs(counts) == {"F": {5: "あ", 6: "い", 7: "う"}}
    patch.count_glyphs(counts, second, -1)  # the second stream edited: it shows 8 now
    patch.count_glyphs(counts, patch.glyph_text({"F": {8: "え"}}))
    assert patch.document_glyphs(counts) == {"F": {5: "あ", 6: "い", 8: "え"}}
    patch.count_glyphs(counts, patch.glyph_text({"F": {6: "ゐ"}}))
    assert patch.document_glyphs(counts) is None


def test_count_edits_copy_the_forms_of_the_faces_the_rewritten_home_pages_show_first(tmp_path, patches, monkeypatch):
    """A count edit moves every later card a slot on the home sheets: those pages are written
    again, and each face they show first has its form copied from the last file (its record not
    unpacked, its pictures known by the keys the layout holds for it) — a count raised, lowered,
    set to 0 and a card put in the middle, every document a cold build's, `qpdf --check` clean."""
    ws = _pictured(tmp_path, 40)
    assert run(ws, *BUILD) == 0
    asked = _asked(monkeypatch)
    copier, off = patch._form_copier, lambda *a: lambda key: None
    steps = [("{name: 札30,", "{name: 札30, count: 2,", 41),  # raised: the pages after it written again
             ("{name: 札30, count: 2,", "{name: 札30,", 40),  # lowered
             ("{name: 札31,", "{name: 札31, count: 0,", 39),  # to 0: its face gone
             ("{name: 札29,", "{name: 新札, art: a.png}\n  - {name: 札29,", 40)]  # a card in the middle
    for n, (old, new, pieces_now) in enumerate(steps):
        if n == 0:  # the edit with every such form written (as before), and back
            monkeypatch.setattr(patch, "_form_copier", off)
            _edit(_deck(ws), old, new)
            assert run(ws, *BUILD) == 0
            written = set(asked)
            _edit(_deck(ws), new, old)
            assert run(ws, *BUILD) == 0
            monkeypatch.setattr(patch, "_form_copier", copier)
        patches.clear()
        asked.clear()
        _edit(_deck(ws), old, new)
        assert run(ws, *BUILD) == 0
        assert patches["cards.pdf"] is True, (n, patches)
        if n == 0:  # the faces first shown on the rewritten pages: asked for when their forms were written, not now
            assert asked < written and len(written - asked) >= 4, (len(written), len(asked))
        asked.clear()
        _same_as_cold(tmp_path, ws, f"cold{n}", monkeypatch)
        home = PdfReader(ws / "build" / "test" / "cards.pdf")
        assert len(home.pages) == 2 * -(-pieces_now // 9), n
        fronts = " ".join(page.extract_text() for page in home.pages[::2])
        assert ("新札" in fronts) is (n == 3) and ("札31" in fronts) is (n < 2), n
        _qpdf_clean(ws)


def test_a_face_whose_pictures_are_not_known_leaves_the_layouts_pictures_unrecorded():
    """``Recorder.layout`` keeps its faces' pictures only when every face's are known: a copied
    run of a layout that kept none gives each face None, and ``keys_all`` (the one filter) refuses
    the whole list, rather than the layout pairing the known ones with the wrong faces."""
    key = "0a" * 32
    assert patch.keys_all([[key], []]) and not patch.keys_all([[key], None]) and not patch.keys_all([[key.upper()]])


def test_the_all_in_one_file_after_an_edit_counts_only_its_own_pages_glyphs(tmp_path, patches, monkeypatch):
    """test-all.pdf goes on from the home sheets' writer, whose glyph counts an edit knows
    (``patched``): only the pages it writes after them are counted in, never every face again by
    ``Recorder.layout``; its recorded counts are a cold build's, and its bytes too."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, *BUILD) == 0
    cold = tmp_path / "cold-ws"
    shutil.copytree(ws, cold, symlinks=True, ignore=shutil.ignore_patterns("build"))
    counted: dict[str, int] = {"layout": 0, "pages": 0}
    where = ["pages"]
    count, lay_out = patch.count_glyphs, patch.Recorder.layout

    def counting(counts, text, by=1):
        counted[where[0]] += 1
        count(counts, text, by)

    def laying_out(self, w, end, digests):
        where[0] = "layout"
        try:
            return lay_out(self, w, end, digests)
        finally:
            where[0] = "pages"

    monkeypatch.setattr(patch, "count_glyphs", counting)
    monkeypatch.setattr(patch.Recorder, "layout", laying_out)
    _edit(_deck(ws), "本文カード5}", "本文カード5を書き直した}")
    _edit(_deck(cold), "本文カード5}", "本文カード5を書き直した}")
    assert run(ws, *BUILD) == 0
    assert patches == PATCHED
    assert counted["layout"] == 0 and counted["pages"] > 0, counted
    _same_as_cold(tmp_path, ws, "cold", monkeypatch)
    assert run(cold, *BUILD) == 0  # (a first build: every document's glyphs counted by its layout)
    assert counted["layout"] > 0
    for doc in DOCS:
        edited, first = _layout(ws, doc), _layout(cold, doc)
        assert {f: dict(zip(zip(u[0::2], u[1::2]), edited.counts[f])) for f, u in edited.union.items()} \
            == {f: dict(zip(zip(u[0::2], u[1::2]), first.counts[f])) for f, u in first.union.items()}, doc


def test_a_page_written_after_known_counts_counts_in_its_own_glyphs_and_its_new_forms():
    """``Recorder.page_done`` with the counts known: the page's glyphs and those of the forms it
    numbered first are counted in, those of forms numbered before it are not counted twice."""
    from collections import Counter
    from types import SimpleNamespace

    from pnpgen.pdf.objects import Ref
    w = SimpleNamespace(f=SimpleNamespace(next=10), font_refs={}, standard={}, paints={}, layers={}, pictures={},
                        fallbacks=[], faces=SimpleNamespace(glyph_texts={}))
    rec = patch.Recorder()
    rec.form("old face", Ref(3), {"F": {5: "あ"}}, [])  # (numbered before: in the counts already)
    rec.counts = {"F": Counter({(chr(patch.GLYPH + 5), "あ"): 1})}
    rec.page_begun(w)
    rec.form("new face", Ref(11), {"F": {5: "あ", 6: "い"}}, [])
    rec.page_done(w, {"F": {7: "う"}})
    assert patch.document_glyphs(rec.counts) == {"F": {5: "あ", 6: "い", 7: "う"}}
    assert rec.counts["F"][(chr(patch.GLYPH + 5), "あ")] == 2
    assert rec.copy().counts == rec.counts


def test_a_count_edit_counts_the_rewritten_home_sheets_glyphs_at_once(tmp_path, patches, monkeypatch):
    """A count edit writes the home sheets from the moved slot on again and drops the last file's:
    their glyphs are counted in and out of the document's (``count_all``) once a font, not a stream
    at a time (each ``Counter.subtract`` a loop in Python over its pairs: some 20,000 at 1,000
    cards); the counts a cold build's, the documents too — raised, lowered and set to 0."""
    from collections import Counter

    calls = {"subtract": 0, "pages": 0}

    class Counted(Counter):
        def subtract(self, *args, **kwds):
            calls["subtract"] += 1
            super().subtract(*args, **kwds)

    ws = _pictured(tmp_path, 40)
    assert run(ws, *BUILD) == 0
    cold = tmp_path / "cold-ws"
    monkeypatch.setattr(patch, "Counter", Counted)
    page = writer._Writer.page

    def paging(self, *args):
        calls["pages"] += 1
        return page(self, *args)

    monkeypatch.setattr(writer._Writer, "page", paging)
    steps = [("{name: 札30,", "{name: 札30, count: 2,"), ("{name: 札30, count: 2,", "{name: 札30,"),
             ("{name: 札31,", "{name: 札31, count: 0,")]
    for n, (old, new) in enumerate(steps):
        patches.clear()
        calls.update(subtract=0, pages=0)
        _edit(_deck(ws), old, new)
        assert run(ws, *BUILD) == 0
        assert patches["cards.pdf"] is True, (n, patches)
        # (the fronts and backs from the sheet of card 30 on: written again, their old ones dropped)
        assert calls["pages"] >= 4 and 1 <= calls["subtract"] <= 3 * len(patches), (n, calls)
        _same_as_cold(tmp_path, ws, f"cold{n}", monkeypatch)
        shutil.rmtree(cold, ignore_errors=True)
        shutil.copytree(ws, cold, symlinks=True, ignore=shutil.ignore_patterns("build"))
        assert run(cold, *BUILD) == 0  # (a first build: every document's glyphs counted by its layout)
        for doc in DOCS:
            edited, first = _layout(ws, doc), _layout(cold, doc)
            assert {f: dict(zip(zip(u[0::2], u[1::2]), edited.counts[f])) for f, u in edited.union.items()} \
                == {f: dict(zip(zip(u[0::2], u[1::2]), first.counts[f])) for f, u in first.union.items()}, (n, doc)
