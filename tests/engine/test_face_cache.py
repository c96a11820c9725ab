"""Issue 22: a converted face is read back from the build cache without decoding what the build
does not need. Its record names each picture it shows by the SHA-256 of the picture's bytes; the
picture is an entry of its own (``.cache/pictures/``), stored once per content, read as it is and
checked against its name, so an edit of one card reads a thousand faces without a thousand base64
pictures to decode or a thousand arts to serialise again."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, picture_workspace, run
from pnpgen.engine.cache import Cache
from pnpgen.pdf import imagestream
from pnpgen.svg.artwork import Art
from pnpgen.usercache import seal

FRONT = PICTURE_FRONT
COLOURS = {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)}
PDFS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")


def pieces(edited: str = "", art_of_2: str = "b.png") -> str:
    arts = ["a.png", art_of_2, "c.png", "a.png"]  # the fourth card shows the first card's picture
    return "".join(f"  - {{name: 札{i}{edited if i == 1 else ''}, art: {name}, count: 2}}\n"
                   for i, name in enumerate(arts, 1))


def workspace(root: Path, chunks: int = 1) -> Path:
    return picture_workspace(root, pieces(), FRONT, COLOURS, chunks=chunks)


def converted_workspace(root: Path) -> Path:
    """The workspace with RGBA art: each picture is converted (alpha flattened), so the bytes the
    faces embed are not an art file's and the cache keeps a copy of each."""
    from PIL import Image

    ws = workspace(root)
    for path in (ws / "data/test/art").iterdir():
        Image.open(path).convert("RGBA").save(path)
    return ws


def picture_key(path: Path) -> str:
    """The name of the picture the faces embed for an art file (its print-ready bytes' hash)."""
    from pnpgen.data.artfile import print_bytes

    return hashlib.sha256(print_bytes(path.read_bytes())).hexdigest()


def deck(ws: Path, text: str) -> None:
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PICTURE_DECK_YAML + text, encoding="utf-8")


def build(ws: Path, out: Path) -> dict[str, bytes]:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    return {name: (out / "test" / name).read_bytes() for name in PDFS}


def test_an_art_file_shown_as_it_is_is_not_copied_into_the_cache(tmp_path, read_back):
    ws = workspace(tmp_path / "ws")  # RGB PNGs: embedded as they are
    build(ws, tmp_path / "b")
    cache = tmp_path / "b" / ".cache"
    assert not list((cache / "pictures").rglob("*.bin"))
    named = [it[1] for record in (cache / "faces").rglob("*.json")
             for it in json.loads(record.read_bytes().partition(b"\n")[2])["items"] if it[0] == "picture"]
    art = {hashlib.sha256(p.read_bytes()).hexdigest() for p in (ws / "data/test/art").iterdir()}
    assert sorted(set(named)) == sorted(art) and len(named) == 4  # named by the art files' own hashes
    deck(ws, pieces("改"))
    warm = build(ws, tmp_path / "b")
    assert len(read_back) == len(list((cache / "faces").rglob("*.json"))) - 2  # read back from the art files
    assert warm == build(ws, tmp_path / "cold")


def test_each_picture_is_stored_once_and_faces_name_it(tmp_path, read_back):
    ws = converted_workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    cache = tmp_path / "b" / ".cache"
    from pnpgen.data.artfile import print_bytes

    art = {picture_key(p): print_bytes(p.read_bytes()) for p in (ws / "data/test/art").iterdir()}
    stored = {p.stem: p.read_bytes() for p in (cache / "pictures").rglob("*.bin")}
    assert stored == art  # three pictures for four cards: each once, as the faces embed it
    named = []
    records = list((cache / "faces").rglob("*.json"))
    for record in records:
        head, _, text = record.read_bytes().partition(b"\n")
        assert json.loads(head)["check"] == seal(text)
        items = json.loads(text)["items"]
        assert not any(it[0] == "image" for it in items)  # no picture inline
        named += [it[1] for it in items if it[0] == "picture"]
        assert len(record.read_bytes()) < 20_000
    assert sorted(set(named)) == sorted(art) and len(named) == 4  # the first picture named by two faces

    deck(ws, pieces("改"))
    warm = build(ws, tmp_path / "b")
    assert len(read_back) == len(records) - 2  # every face but the edited card's front and back
    assert warm == build(ws, tmp_path / "cold")  # the same bytes as the edit built from nothing


def test_a_damaged_picture_is_not_trusted_but_stored_again(tmp_path, read_back):
    ws = converted_workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    faces = len(list((tmp_path / "b" / ".cache" / "faces").rglob("*.json")))
    entry = sorted((tmp_path / "b" / ".cache" / "pictures").rglob("*.bin"))[0]
    good = entry.read_bytes()
    entry.write_bytes(good[:-1] + bytes([good[-1] ^ 0xFF]))  # one byte changed, same size
    deck(ws, pieces("改"))
    warm = build(ws, tmp_path / "b")
    assert warm == build(ws, tmp_path / "cold")
    assert entry.read_bytes() == good  # made again from the face converted again
    read_back.clear()
    deck(ws, pieces())
    build(ws, tmp_path / "b")
    assert len(read_back) == faces - 2  # every face but card 1's (pruned by the edit), the picture intact


def test_a_picture_no_face_shows_any_more_is_pruned_and_nothing_else(tmp_path):
    ws = converted_workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    pictures = tmp_path / "b" / ".cache" / "pictures"
    b_key = picture_key(ws / "data/test/art/b.png")
    assert (pictures / b_key[:2] / f"{b_key}.bin").is_file()
    (pictures / "notes.txt").write_text("mine", encoding="utf-8")
    (pictures / b_key[:2] / f"{b_key}.png").write_bytes(b"not a name pnpgen gives")
    deck(ws, pieces(art_of_2="c.png"))  # card 2 shows c.png now: b.png is on no face
    build(ws, tmp_path / "b")
    assert not (pictures / b_key[:2] / f"{b_key}.bin").exists()
    assert len(list(pictures.rglob("*.bin"))) == 2
    assert (pictures / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (pictures / b_key[:2] / f"{b_key}.png").is_file()


def test_an_image_stream_no_document_places_any_more_is_pruned(tmp_path):
    """The pictures' PDF streams (.cache/images/) go with the last face that shows them; the
    others stay, and the documents still equal a cold build's. (Pictures in more pieces than
    are placed from their own files: each has a stream file.)"""
    ws = workspace(tmp_path / "ws", chunks=imagestream.MAX_PIECES + 4)
    build(ws, tmp_path / "b")
    images = tmp_path / "b" / ".cache" / "images"
    b_key = hashlib.sha256((ws / "data/test/art/b.png").read_bytes()).hexdigest()
    assert {p.name for p in (images / b_key[:2]).iterdir()} >= {f"{b_key}.bin", f"{b_key}.json"}
    assert len(list(images.rglob("*.bin"))) == 3
    deck(ws, pieces(art_of_2="c.png"))
    built = build(ws, tmp_path / "b")
    assert not (images / b_key[:2] / f"{b_key}.bin").exists() and not (images / b_key[:2] / f"{b_key}.json").exists()
    assert len(list(images.rglob("*.bin"))) == len(list(images.rglob("*.json"))) == 2
    assert built == build(ws, tmp_path / "cold")


def test_an_art_names_its_pictures_only_where_a_store_resolves_them():
    data = b"\x89PNG not really"
    art = Art(10.0, 20.0, (("ops", "0 0 m"), ("image", data, 1.0, 2.0, 3.0, 4.0)))
    pictures: dict[str, bytes] = {}
    obj = art.to_json(pictures=pictures, seal=False)
    key = hashlib.sha256(data).hexdigest()
    assert pictures == {key: data} and obj["items"][1] == ["picture", key, 1.0, 2.0, 3.0, 4.0]
    assert "digest" not in obj
    assert Art.from_json(obj, pictures=pictures.__getitem__, sealed=False) == art
    with pytest.raises(ValueError):
        Art.from_json(obj, sealed=False)  # a picture named, and nothing to find it in
    with pytest.raises(ValueError):
        Art.from_json(obj, pictures=pictures.__getitem__)  # not sealed: refused where a seal is due
    assert Art.from_json(art.to_json()) == art  # standalone: inline and sealed, as before


def test_faces_showing_one_picture_hold_it_once(tmp_path):
    ws = converted_workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    cache = Cache(tmp_path / "b")
    arts = [art for record in sorted((cache.root / "faces").rglob("*.json"))
            if (art := cache.face(record.stem, Art.from_json)) is not None]
    shown = [it[1] for art in arts for it in art.items if it[0] == "image"]
    assert len(shown) == 4 and len({id(data) for data in shown}) == 3  # cards 1 and 4: one bytes object
    assert len(cache.pictures_used) == 3


def _built_in_process(ws: Path, out: Path):
    """build_game on ``ws`` with the cache of ``out`` (an earlier ``build`` made it)."""
    from pnpgen.data.workspace import Workspace
    from pnpgen.engine.game import build_game
    from pnpgen.engine.options import BuildOptions

    return build_game(Workspace(ws), "test", BuildOptions(jobs=1), cache=Cache(out))


def test_faces_hold_stand_ins_not_pictures_and_an_edit_reads_no_picture(tmp_path, monkeypatch):
    """Memory flat in the deck's size: once a picture's stream is in the cache, a face holds a
    stand-in naming it, not the picture's bytes; reading the faces back reads no picture at all;
    the rulebook still gets the pictures themselves."""
    from pnpgen.pdf.raster import STAND_IN

    ws = workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    read: list[str] = []
    real = Cache.picture
    monkeypatch.setattr(Cache, "picture", lambda self, name: read.append(name) or real(self, name))
    result = _built_in_process(ws, tmp_path / "b")
    shown = [it[1] for art in result.arts.values() for it in art.items if it[0] == "image"]
    assert len(shown) == 4 and all(data.startswith(STAND_IN) for data in shown)
    assert read == []  # every picture's stream was found in the cache: no picture read or hashed
    art = {p.read_bytes() for p in (ws / "data/test/art").iterdir()}
    pictures = [it[1] for pic in result.pictures().values() for face in pic.pieces.values()
                for it in face.items if it[0] == "image"]
    assert len(pictures) == 4 and set(pictures) == art


def test_a_picture_newer_than_its_stream_is_read_and_checked(tmp_path, monkeypatch):
    ws = converted_workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    entry = sorted((tmp_path / "b" / ".cache" / "pictures").rglob("*.bin"))[0]
    entry.write_bytes(entry.read_bytes())  # the same bytes, written again after the stream was made
    read: list[str] = []
    real = Cache.picture
    monkeypatch.setattr(Cache, "picture", lambda self, name: read.append(name) or real(self, name))
    _built_in_process(ws, tmp_path / "b")
    assert read == [entry.stem]


def test_an_art_edit_converts_again_only_the_faces_that_show_that_picture(tmp_path, monkeypatch):
    from PIL import Image

    from pnpgen.faces import convert

    ws = workspace(tmp_path / "ws")
    build(ws, tmp_path / "b")
    from pnpgen.faces.templates import Renderer

    converted: list[str] = []
    real = convert.convert_face
    monkeypatch.setattr(convert, "convert_face", lambda job: converted.append(job[1]) or real(job))
    rendered: list[str] = []
    real_render = Renderer._render
    monkeypatch.setattr(Renderer, "_render", lambda self, face, *a: rendered.append(face.piece.label)
                        or real_render(self, face, *a))
    Image.new("RGB", (300, 200), (250, 200, 0)).save(ws / "data/test/art/c.png")  # card 3's picture repainted
    warm = build(ws, tmp_path / "b")
    assert len(converted) == 1 and "札3" in converted[0]  # card 3's front; not cards 1, 2, 4 nor the back
    assert rendered == ["札3"]  # its template run again alone: the others looked at other files
    assert warm == build(ws, tmp_path / "cold")  # what a build from nothing writes


def test_a_repainted_picture_is_reported_reprinted_and_recorded(tmp_path, capsys):
    """A face names its art file, not the pixels: a picture painted over under the same name
    changes the sheets, so the build says which to reprint, the reprint file holds the cards
    that show it, and the history records a version."""
    from PIL import Image

    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    Image.new("RGB", (300, 200), (250, 200, 0)).save(ws / "data/test/art/b.png")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = ws / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["reprint"]["cards"]["why"] == ["art/b.png replaced: 札2"]  # (was "札2 edited": which picture?)
    assert any("art/b.png replaced: 札2" in line for line in manifest["changes"]), manifest["changes"]
    assert manifest["reprint"]["cards"]["sheets"] == [1]
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "2 × 札2\n" in said and "2 × 札2（古い版）" in said and "札1" not in said
    assert run(ws, "log", "--game", "test") == 0
    assert capsys.readouterr().out.count("draft") == 2  # two versions
    assert run(ws, "diff", "--game", "test") == 0
    assert "- art/b.pngを差し替え：札2" in capsys.readouterr().out


def repainted_and_built(ws: Path, capsys, *names: str) -> tuple[str, dict]:
    """The art files ``names`` painted over under their names and the game built again: what the
    build said, and its manifest."""
    from PIL import Image

    for name in names:
        Image.new("RGB", (300, 200), (250, 200, 0)).save(ws / "data/test/art" / name)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    return capsys.readouterr().out, json.loads((ws / "build/test/manifest.json").read_text(encoding="utf-8"))


def test_pictures_replaced_are_named_by_their_files_with_the_pieces_showing_them(tmp_path, capsys):
    """A picture replaced was "札1 edited, 札4 edited": which picture, the playtest log did not say.
    Each art file replaced is named once, with the one piece showing it or how many, in the
    terminal, the manifest's changes and the history's changelog (its pieces by name)."""

    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said, manifest = repainted_and_built(ws, capsys, "a.png", "c.png")  # a.png: cards 1 and 4; c.png: card 3
    # (cards 1 and 4 print 4 copies in all: told, as reprint.txt counts copies — trial82)
    assert "(art/a.png replaced: 4 copies of 2 cards, art/c.png replaced: 札3)" in said, said
    assert manifest["reprint"]["cards"]["why"] == ["art/a.png replaced: 4 copies of 2 cards", "art/c.png replaced: 札3"]
    assert run(ws, "diff", "--game", "test") == 0
    log = capsys.readouterr().out
    assert "- art/a.pngを差し替え：札1, 札4\n- art/c.pngを差し替え：札3" in log and "絵柄が変わった" not in log, log


def test_a_repainted_picture_gives_its_sheet_a_new_version_stamp(tmp_path):
    """The slug's version stamp hashes what the sheet shows, pictures included: two printings of a
    sheet whose picture was painted over under the same name can be told apart; a sheet showing
    no picture keeps its stamp."""
    import re

    from PIL import Image

    from pdfprobe import texts

    ws = workspace(tmp_path / "ws")

    def stamps() -> list[str]:
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        return [m.group(0) for t in texts(ws / "build" / "test" / "cards.pdf") for m in [re.search(r"#[0-9a-f]{7}", t)] if m]

    before = stamps()
    assert before
    Image.new("RGB", (300, 200), (250, 200, 0)).save(ws / "data/test/art/b.png")
    after = stamps()
    assert len(after) == len(before) and after != before


SVG_ART = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" fill="{fill}"/>{more}</svg>'


def test_faces_showing_svg_art_change_only_with_that_art(tmp_path, capsys):
    """Vector art (``forest.svg``) is a picture like any other: an edit of another template or
    another art file leaves the sheets of the faces that show it as they were (it said "<piece>
    edited" for each and reprinted every sheet showing SVG art); the SVG itself, or a picture it
    links, painted over is that piece's edit, named by the file (the picture an SVG links too)."""
    from PIL import Image

    ws = workspace(tmp_path / "ws")
    art = ws / "data" / "test" / "art"
    (art / "forest.svg").write_text(SVG_ART.format(fill="#2f6b34", more=""), encoding="utf-8")
    (art / "lake.svg").write_text(SVG_ART.format(fill="#3b8fc4", more='<image href="a.png" width="10" height="5"/>'),
                                  encoding="utf-8")
    deck(ws, "  - {name: 森, art: forest.svg}\n  - {name: 湖, art: lake.svg}\n  - {name: 札, art: c.png}\n")

    def report() -> list[str]:
        capsys.readouterr()
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"]

    report()
    home = (ws / "build" / "test" / "cards.pdf").read_bytes()
    (ws / "templates" / "test" / "other.svg.j2").write_text("{# not used by the deck #}\n", encoding="utf-8")
    Image.new("RGB", (300, 200), (250, 200, 0)).save(art / "c.png")  # 札's picture repainted
    assert report() == ["cards: 3 → 3 (art/c.png replaced: 札); reprint cards.pdf: sheet 1 (pages 1–2)"]
    (art / "forest.svg").write_text(SVG_ART.format(fill="#1f4b24", more=""), encoding="utf-8")
    assert report() == ["cards: 3 → 3 (art/forest.svg replaced: 森); reprint cards.pdf: sheet 1 (pages 1–2)"]
    Image.new("RGB", (300, 200), (0, 0, 0)).save(art / "a.png")  # the picture lake.svg links
    assert report() == ["cards: 3 → 3 (art/a.png replaced: 湖); reprint cards.pdf: sheet 1 (pages 1–2)"]
    (art / "forest.svg").write_text(SVG_ART.format(fill="#2f6b34", more=""), encoding="utf-8")
    Image.new("RGB", (300, 200), (40, 200, 40)).save(art / "b.png")  # a picture no face shows
    report()
    (ws / "templates" / "test" / "other.svg.j2").unlink()
    assert report() == []
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() != home  # 札 and 湖 still repainted


@pytest.mark.parametrize("printed", [True, False])
def test_a_piece_whose_text_changed_and_whose_picture_was_repainted_is_told_both(tmp_path, capsys, printed):
    """A card whose text was edited and whose picture was painted over between two builds was told
    "札2: text" alone, in the change line, reprint's reasons and diff: its picture's file is named
    too, whether the text prints on the face (the face changed) or not (the face the same)."""

    front = PICTURE_FRONT.replace("{% endblock %}", "{{ textbox(piece.text, 5, 62, w - 10, 12, size=9) }}\n{% endblock %}")
    ws = picture_workspace(tmp_path / "ws", "", front if printed else FRONT, COLOURS)

    def cards(text_of_2: str) -> None:
        (ws / "data/test/decks/cards.yaml").write_text(
            PICTURE_DECK_YAML.replace("art: image}", "art: image, text: text}") + "".join(
                f"  - {{name: 札{i}, art: {art}, text: {text_of_2 if i == 2 else '効果'}, count: 2}}\n"
                for i, art in enumerate(("a.png", "b.png", "c.png"), 1)), encoding="utf-8")
    cards("効果")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    cards("新しい効果")
    said, manifest = repainted_and_built(ws, capsys, "b.png")
    assert "(札2: text, art/b.png replaced: 札2)" in said, said
    assert manifest["reprint"]["cards"]["why"] == ["札2: text", "art/b.png replaced: 札2"]
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    entry = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert [f["field"] for f in entry["fields"]] == ["text"] and entry["pictures"] == [{"file": "art/b.png", "pieces": ["札2"]}]
    assert entry["faces"] == []
    assert run(ws, "diff", "--game", "test") == 0
    log = capsys.readouterr().out
    assert "- 札2：text：「効果」 → 「新しい効果」\n- art/b.pngを差し替え：札2\n" in log, log


def test_a_face_whose_template_changed_and_whose_picture_was_repainted_is_told_both(tmp_path, capsys):
    """fixesL's limit: a card whose face its template draws anew and whose picture was painted over
    between two builds was told "札2 edited" alone, in the change line, reprint's reasons and diff:
    its picture's file is named too; the cards whose picture stayed are told edited alone."""
    from PIL import Image

    ws = picture_workspace(tmp_path / "ws", "", FRONT, COLOURS)
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(PICTURE_DECK_YAML + "".join(f"  - {{name: 札{i}, art: {art}}}\n"
                                                for i, art in enumerate(("a.png", "b.png", "c.png"), 1)), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    template = ws / "templates/test/card-front.svg.j2"  # 札2's face alone gets a frame
    template.write_text(FRONT.replace("{% endblock %}", "{% if piece.name == '札2' %}<rect x='2' y='2' width='10' "
                                      "height='10' fill='#000'/>{% endif %}\n{% endblock %}"), encoding="utf-8")
    Image.new("RGB", (300, 200), (250, 200, 0)).save(ws / "data/test/art/b.png")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert "(art/b.png replaced: 札2, 札2 edited)" in said, said
    manifest = json.loads((ws / "build/test/manifest.json").read_text(encoding="utf-8"))
    assert manifest["reprint"]["cards"]["why"] == ["art/b.png replaced: 札2", "札2 edited"]
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    entry = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert entry["pictures"] == [{"file": "art/b.png", "pieces": ["札2"]}] and entry["faces"] == ["札2"], entry


def test_a_redrawn_icon_is_named_by_its_file_not_as_every_piece_edited(tmp_path, capsys):
    """icons/fish.svg redrawn was "札1 edited" for each card drawing it: the change line, the
    manifest's reprint reasons and ``pnpgen diff`` name the icon file instead (a face records the
    icons it draws, as it does its art files); a card drawing another icon is not named."""
    from conftest import FRONT, make_workspace

    front = FRONT.replace("{% endblock %}", '{{ icon(piece.name[-1] | int % 2 and "fish" or "crab", 4, 60, 10) }}\n'
                          "{% endblock %}")
    ws = make_workspace(tmp_path / "ws", pieces=["札1", "札2", "札3"], front=front)
    icons = ws / "templates" / "test" / "icons"
    icons.mkdir()
    for name in ("fish", "crab"):
        (icons / f"{name}.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
                                           '<circle cx="12" cy="12" r="9" fill="currentColor"/></svg>\n', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    (icons / "fish.svg").write_text((icons / "fish.svg").read_text(encoding="utf-8").replace('r="9"', 'r="7"'),
                                    encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert "changed: cards: 3 → 3 (icon fish.svg redrawn: 2 cards); reprint" in said and "edited" not in said, said
    manifest = json.loads((ws / "build/test/manifest.json").read_text(encoding="utf-8"))
    assert manifest["reprint"]["cards"]["why"] == ["icon fish.svg redrawn: 2 cards"]
    assert run(ws, "diff", "--game", "test") == 0
    log = capsys.readouterr().out
    assert "- アイコンfish.svgを描き直し：札1, 札3" in log and "札2" not in log and "絵柄が変わった" not in log, log


def test_a_picture_resaved_with_see_through_pixels_is_one_reason_its_file(tmp_path, capsys):
    """trial: a picture saved again with transparency was told "art/b.png replaced: 札2, 札2
    edited" — the face gains the colour beneath it to be flattened onto (``#bg=``), so its face
    changed too; the picture replaced is the one reason, on the change line, the manifest's
    reprint and ``pnpgen diff``."""
    from PIL import Image

    grounded = FRONT.replace("{{ image(", '<rect width="{{ w }}" height="{{ h }}" fill="#203040"/>\n{{ image(', 1)
    ws = picture_workspace(tmp_path / "ws", pieces(), grounded, COLOURS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    see_through = Image.new("RGBA", (300, 200), (250, 200, 0, 255))
    see_through.paste((0, 0, 0, 0), (0, 0, 150, 200))
    see_through.save(ws / "data/test/art/b.png")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    manifest = json.loads((ws / "build/test/manifest.json").read_text(encoding="utf-8"))
    assert manifest["reprint"]["cards"]["why"] == ["art/b.png replaced: 札2"], manifest["reprint"]["cards"]["why"]
    assert "(art/b.png replaced: 札2)" in said, said
    assert run(ws, "diff", "--game", "test") == 0
    log = capsys.readouterr().out
    assert "- art/b.pngを差し替え：札2" in log and "絵柄が変わった" not in log, log
