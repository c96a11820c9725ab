"""The faces and pages a build drew into PDF streams are kept in the cache
(``forms/<edition>.pack.json``, pdf/drawn.py): the next build draws again only what changed, and
writes the bytes a build from nothing writes."""

from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, make_workspace, run
from pnpgen.pdf import drawn as drawn_json
from pnpgen.pdf import patch, streams, writer
from pnpgen.usercache import seal

PIECES = DECK_YAML + "".join(f"  - {{name: 札{i}, text: 本文{i}, count: {i % 3 + 1}}}\n" for i in range(12))


@pytest.fixture
def drawn(monkeypatch) -> list[tuple[str, bool]]:
    """Every face drawn into a stream for a game's documents from now on."""
    faces: list[tuple[str, bool]] = []
    real = streams.FaceStreams.get

    def counted(self, key, art, cmyk, images):
        name = (self.names.get(key, key), cmyk)
        if self.names and self.made.get(name) is None:  # (a record kept but malformed: drawn again too)
            faces.append(name)
        return real(self, key, art, cmyk, images)

    monkeypatch.setattr(streams.FaceStreams, "get", counted)
    return faces


def build(ws, out, *more: str) -> None:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out), *more) == 0


def _pack(path) -> tuple[bytes, dict]:
    """A forms pack's header line and its records, as faces and pages by their names."""
    head, _, text = path.read_bytes().partition(b"\n")
    records = dict(json.loads(line) for line in text.split(b"\n"))
    return head, {group: {k[len(kind):]: v for k, v in records.items() if k.startswith(kind)}
                  for group, kind in (("faces", drawn_json.FACE), ("pages", drawn_json.PAGE))} | {"inputs": records["inputs"]}


def _seal_pack(path, head: bytes, body: dict) -> None:
    """``body`` (as ``_pack`` reads it) written as a pack, sealed as this machine seals one."""
    records = {"inputs": body["inputs"], **{f"{kind}{k}": v for group, kind in (("faces", drawn_json.FACE),
                                                                               ("pages", drawn_json.PAGE))
                                            for k, v in body[group].items()}}
    text = b"\n".join(json.dumps([k, v], sort_keys=True, ensure_ascii=False).encode() for k, v in sorted(records.items()))
    path.write_bytes(json.dumps(json.loads(head) | {"check": seal(text)}, sort_keys=True).encode() + b"\n" + text)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_edit_draws_again_only_the_face_it_changed_and_writes_a_cold_builds_bytes(tmp_path, drawn, jobs):
    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    build(ws, tmp_path / "b", "--jobs", jobs)
    assert len(drawn) >= 12  # twelve fronts and the back
    pack = tmp_path / "b" / ".cache" / "forms" / "test.pack.json"
    assert pack.is_file()
    drawn.clear()
    deck.write_text(PIECES.replace("本文5", "改訂5").replace("count: 2}", "count: 3}", 1), encoding="utf-8")
    build(ws, tmp_path / "b", "--jobs", jobs)
    assert len(drawn) == 1  # card 5's front; the count drew nothing
    build(ws, tmp_path / "cold", "--jobs", jobs)
    pdfs = sorted(p.relative_to(tmp_path / "cold").as_posix() for p in (tmp_path / "cold").rglob("*.pdf"))
    assert len(pdfs) >= 3
    for rel in pdfs:
        assert (tmp_path / "b" / rel).read_bytes() == (tmp_path / "cold" / rel).read_bytes(), rel


def test_an_edit_unpacks_only_the_faces_and_pages_it_rewrites_and_writes_the_others_back_as_read(tmp_path, monkeypatch):
    """An edit whose documents are written from the last files looks up only the faces and pages
    of the pages it rewrites: the other records are never decoded (a thousand cards' forms decoded
    whole were 0.09 s of a text edit), and go back into the pack as the lines they were read as."""
    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b", "--jobs", "1")
    pack = tmp_path / "b" / ".cache" / "forms" / "test.pack.json"
    before = dict(zip(*[iter(_lines(pack))] * 2))
    unpacked: list[dict] = []
    real = drawn_json._content_from_json
    monkeypatch.setattr(drawn_json, "_content_from_json", lambda v: unpacked.append(v) or real(v))
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PIECES.replace("本文5", "改訂5"), encoding="utf-8")
    build(ws, tmp_path / "b", "--jobs", "1")
    # the faces beside card 5 on its home sheet's page: not the other pages', nor any page's own drawing
    assert 1 <= len(unpacked) <= 9 and len(before) > 30
    after = dict(zip(*[iter(_lines(pack))] * 2))
    assert sum(after.get(k) == line for k, line in before.items()) >= len(before) - 12
    monkeypatch.setattr(drawn_json, "_content_from_json", real)
    build(ws, tmp_path / "cold", "--jobs", "1")
    for name in ("cards.pdf", "test-all.pdf", "shop/cards.pdf"):
        assert (tmp_path / "b" / "test" / name).read_bytes() == (tmp_path / "cold" / "test" / name).read_bytes(), name


def _lines(path) -> list[bytes]:
    """A pack's records, each its key and line: [key, line, key, line, ...]."""
    return [x for line in path.read_bytes().split(b"\n")[1:] for x in (json.loads(line)[0], line)]


def test_a_malformed_record_is_drawn_again_when_an_edit_looks_it_up_never_placed(tmp_path, drawn, monkeypatch):
    """A sealed pack whose records are all malformed (the seal vouches for the file, not for what
    an older or foreign pnpgen put in it): each face and page an edit looks up is drawn again, the
    others go back as read and are drawn again when a later edit looks them up; every document
    is a cold build's. (The faces beside the edited one are looked up: their forms are not copied
    from the last file, as pdf/patch.py copies them.)"""
    monkeypatch.setattr(patch, "_form_copier", lambda *a: lambda key: None)
    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b", "--jobs", "1")
    pack = tmp_path / "b" / ".cache" / "forms" / "test.pack.json"
    head, body = _pack(pack)
    for entry in [*body["faces"].values(), *body["pages"].values()]:
        entry["data"] = "not base64!"
    _seal_pack(pack, head, body)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    for edited in (PIECES.replace("本文5", "改訂5"), PIECES.replace("本文5", "改訂5").replace("本文9", "改訂9")):
        deck.write_text(edited, encoding="utf-8")
        drawn.clear()
        build(ws, tmp_path / "b", "--jobs", "1")
        assert len(drawn) >= 2  # the edited card's front, and those beside it drawn again
        build(ws, tmp_path / "cold", "--jobs", "1")
        for name in ("cards.pdf", "test-all.pdf", "shop/cards.pdf"):
            assert (tmp_path / "b" / "test" / name).read_bytes() == (tmp_path / "cold" / "test" / name).read_bytes()
    _, body = _pack(pack)
    kept = [v for v in [*body["faces"].values(), *body["pages"].values()] if v["data"] == "not base64!"]
    assert kept and len(kept) < len(body["faces"]) + len(body["pages"])  # never looked up: as read


def test_a_damaged_or_foreign_pack_is_drawn_again_not_trusted(tmp_path, drawn, monkeypatch):
    """No face is read from a damaged pack: those the edit's documents need are drawn again (the
    unchanged pages are copied from the last files, checked: pdf/patch.py), and the documents are
    a cold build's."""
    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b")
    good = {p.name: p.read_bytes() for p in (tmp_path / "b" / "test").glob("*.pdf")}
    pack = tmp_path / "b" / ".cache" / "forms" / "test.pack.json"
    head, _, text = pack.read_bytes().partition(b"\n")
    pack.write_bytes(head + b"\n" + text.replace(b'"data": "', b'"data": "AAAA', 1))  # its check no longer holds
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PIECES.replace("本文5", "改訂5"), encoding="utf-8")
    drawn.clear()
    build(ws, tmp_path / "b")
    assert drawn  # each face asked for drawn again
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    build(ws, tmp_path / "cold")
    monkeypatch.delenv("PNPGEN_CACHE")
    assert {name: (tmp_path / "b" / "test" / name).read_bytes() for name in good} \
        == {name: (tmp_path / "cold" / "test" / name).read_bytes() for name in good}
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PIECES, encoding="utf-8")
    build(ws, tmp_path / "b")
    assert {name: (tmp_path / "b" / "test" / name).read_bytes() for name in good} == good


def test_what_a_pack_holds_is_checked_value_by_value():
    body = {"faces": {"0abc": {"data": "AAAA", "content": {"glyphs": [["gothic", [5], "あ"]], "standard_fonts": [],
                                                           "pictures": []}, "width_pt": 10, "height_pt": 20},
                      "0bad": {"data": "not base64!", "content": {}, "width_pt": 1, "height_pt": 1},
                      "0gid": {"data": "AAAA", "content": {"glyphs": [["gothic", ["5"], "あ"]], "standard_fonts": [],
                                                           "pictures": []}, "width_pt": 1, "height_pt": 1},
                      "0pic": {"data": "AAAA", "content": {"glyphs": [], "standard_fonts": [], "pictures": ["../x"]},
                               "width_pt": 1, "height_pt": 1}},
            "pages": {"0zz": {"data": "AAAA", "content": {"glyphs": [], "standard_fonts": [], "pictures": []},
                              "forms": [["F", "k"]], "spots": [], "layers": []},
                      "1ab": {"data": "AAAA", "content": {"glyphs": [], "standard_fonts": [], "pictures": []},
                              "forms": [], "spots": ["All"], "layers": []},
                      "1cd": {"data": "AAAA", "content": {"glyphs": [], "standard_fonts": [], "pictures": []},
                              "forms": [], "spots": ["Rainbow"], "layers": []}}}
    flat = {f"{kind}{name}": v for group, kind in (("faces", drawn_json.FACE), ("pages", drawn_json.PAGE))
            for name, v in body[group].items()}
    read = drawn_json.from_json(json.loads(json.dumps(flat)))
    # each looked up when the build asks for it ("zz" is no digest: no record at all)
    assert sorted(read.made) == [("abc", False), ("bad", False), ("gid", False), ("pic", False)]
    assert [read.made.get(k) is not None for k in sorted(read.made)] == [True, False, False, False]
    assert list(read.made) == [("abc", False)]  # the rest malformed: not held once looked up
    assert read.made[("abc", False)].content.glyphs == {"gothic": {5: "あ"}}
    # "Rainbow" is no separation the writer defines (the page would name an undefined space)
    assert [k for k, _ in read.kept.items()] == [(bytes.fromhex("ab"), True)]
    assert read.kept[(bytes.fromhex("ab"), True)].spots == {"All"}


def test_a_pack_naming_pictures_or_faces_a_build_does_not_have_is_drawn_again_without_a_traceback(tmp_path):
    """A cache from elsewhere (a zipped workspace) whose pack is intact but names a picture a face
    does not show, or a face a page does not place: those entries are drawn again."""

    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b")
    pack = tmp_path / "b" / ".cache" / "forms" / "test.pack.json"
    head, body = _pack(pack)
    for face in body["faces"].values():
        face["content"]["pictures"].append("ab" * 32)
    for page in body["pages"].values():
        page["forms"].append(["FaceElsewhere", "0" * 32])
    _seal_pack(pack, head, body)  # as this machine seals it: the values are what is tested
    _an_edit_writes_a_cold_builds_bytes(ws, tmp_path)


def test_faces_and_pages_read_from_the_pack_are_written_back_as_read_not_made_into_json_again(tmp_path, monkeypatch):
    """An edit writes the pack again: what it read from the pack goes back as it was read (turning
    every face's glyphs and data into JSON again took a tenth of a count edit), and the pack is
    the one the streams themselves give."""
    from pnpgen.engine.cache import Cache

    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b")
    pack = Cache(tmp_path / "b").pack("forms/test")
    before = {k: v for k, v in pack.items() if k != "inputs"}  # (what the faces were drawn with: the build's to add)
    as_read: drawn_json.Read = {}
    read = drawn_json.from_json(pack, pack.lines, as_read)
    assert read.made and read.kept
    # the streams hold no JSON through the build's documents (3,000 cards: some 60 MB), only their lines
    assert all(s.json is None for s in [*read.made.values(), *read.kept.values()])
    assert len(as_read) == len(read.made) + len(read.kept) == len(before)
    made_again = []
    real = drawn_json._content_to_json
    monkeypatch.setattr(drawn_json, "_content_to_json", lambda c: made_again.append(c) or real(c))
    assert drawn_json.to_json(read, as_read) == {k: pack.line(k) for k in before}  # each line as it was read
    assert made_again == []
    # the same JSON from the streams alone (nothing said read), and the lines read are that JSON's
    assert drawn_json.to_json(read) == before and len(made_again) == len(read.made) + len(read.kept)
    assert all(json.loads(pack.line(k)) == [k, v] for k, v in before.items())
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(PIECES.replace("本文5", "改訂5"), encoding="utf-8")
    build(ws, tmp_path / "b")
    build(ws, tmp_path / "cold")
    faces = [{k: v for k, v in Cache(tmp_path / out).pack("forms/test").items() if k.startswith(drawn_json.FACE)}
             for out in ("b", "cold")]
    assert faces[0] and faces[0] == faces[1]


def test_an_edit_fills_the_kept_pages_and_faces_objects_and_writes_a_cold_builds_bytes(tmp_path, monkeypatch):
    """Each kept page and face keeps its object's dictionary too (``Shape``): an edit writes out
    again only those of what it changed, and its files are a cold build's."""
    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b")
    _, body = _pack(tmp_path / "b" / ".cache" / "forms" / "test.pack.json")
    assert all("shape" in v for v in [*body["faces"].values(), *body["pages"].values()])
    shaped: list[str] = []
    real = writer._Writer.page_shape
    monkeypatch.setattr(writer._Writer, "page_shape", lambda self, page, made: shaped.append(page) or real(self, page, made))
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PIECES.replace("本文5", "改訂5"), encoding="utf-8")
    build(ws, tmp_path / "b")
    pages = sum(len(PdfReader(pdf).pages) for pdf in (tmp_path / "b" / "test").rglob("*.pdf"))
    # the pages showing card 5 (its home sheet's two sides, its copies in the shop's files), not every page
    assert 1 <= len(shaped) <= 6 and pages > 40
    monkeypatch.setattr(writer._Writer, "page_shape", real)
    build(ws, tmp_path / "cold")
    for name in ("cards.pdf", "test-all.pdf", "shop/cards.pdf"):
        assert (tmp_path / "b" / "test" / name).read_bytes() == (tmp_path / "cold" / "test" / name).read_bytes(), name


@pytest.mark.parametrize("damage", ["slot", "count", "text"])
def test_a_kept_objects_shape_that_does_not_hold_up_is_made_again(tmp_path, damage):
    """A sealed pack whose shapes name an object the writer does not fill, or leave open another
    number of references than they name, is not filled: the object is written out again."""
    ws = make_workspace(tmp_path / "ws", deck=PIECES)
    build(ws, tmp_path / "b")
    pack = tmp_path / "b" / ".cache" / "forms" / "test.pack.json"
    head, body = _pack(pack)
    for entry in [*body["faces"].values(), *body["pages"].values()]:
        fmt, slots = entry["shape"]
        if damage == "slot":
            entry["shape"] = [fmt + " %d 0 R", [*slots, "form:" + "0" * 32]]
        elif damage == "count":
            entry["shape"] = [fmt + " %d 0 R", slots]
        else:
            entry["shape"] = [fmt.replace("%d 0 R", "%s", 1), slots]
    _seal_pack(pack, head, body)  # as this machine seals it: the values are what is tested
    # every page written, none copied from the last file (pdf/patch.py): each shape is put to use
    (tmp_path / "b" / ".cache" / "layouts" / "test.pack.json").unlink()
    _an_edit_writes_a_cold_builds_bytes(ws, tmp_path)
    assert _pack(pack)[1]["pages"] == _pack(tmp_path / "cold" / ".cache" / "forms" / "test.pack.json")[1]["pages"]


def _an_edit_writes_a_cold_builds_bytes(ws, tmp_path):
    """One card's text edited over the (damaged) pack in ``tmp_path/b``: its documents are the
    bytes a cold build of the same data writes."""
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PIECES.replace("本文5", "改訂5"), encoding="utf-8")
    build(ws, tmp_path / "b")
    build(ws, tmp_path / "cold")
    for name in ("cards.pdf", "test-all.pdf", "shop/cards.pdf"):
        assert (tmp_path / "b" / "test" / name).read_bytes() == (tmp_path / "cold" / "test" / name).read_bytes(), name


@pytest.mark.parametrize("glyphs", [["gothic", [5], "あい"], ["gothic", [True], "あ"], ["gothic", [5.0], "あ"],
                                    ["gothic", [-1], "あ"], ["gothic", [65536], "あ"], ["gothic", [5, 5], "あい"],
                                    ["gothic", [5], "あ", "い"], ["gothic", "あい"], ["gothic", [[5]], "あ"],
                                    ["gothic", [5], 5], ["gothic", 5, "あ"], ["gothic", [5], ""], [5, [5], "あ"],
                                    ["gothic", [[5, "あ"]]]])
def test_a_faces_glyphs_are_checked_kind_by_kind(glyphs):
    """Each font's glyph ids (each a glyph's, 0–65535, once) and their characters (one each)."""
    good = {"data": "AAAA", "content": {"glyphs": [["gothic", [5, 7], "あい"]], "standard_fonts": [],
                                        "pictures": []}, "width_pt": 10, "height_pt": 20}
    bad = {**good, "content": {**good["content"], "glyphs": [glyphs]}}
    read = drawn_json.from_json(json.loads(json.dumps({f"{drawn_json.FACE}0good": good, f"{drawn_json.FACE}0bad": bad})))
    assert [k for k, _ in read.made.items()] == [("good", False)]
    assert read.made[("good", False)].content.glyphs == {"gothic": {5: "あ", 7: "い"}}
