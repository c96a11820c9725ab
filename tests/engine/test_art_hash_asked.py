"""The hash of a game's whole art (engine/game.py ``art_fingerprint``) is made only when a face
needs it: a face whose pictures are not all found in the art folders (SVG pictures nesting deeper
than the converter draws) is keyed by it, so any art file changed converts that face again; a
build whose faces' pictures are all found never scans art/ for it."""

from __future__ import annotations

import itertools

from conftest import DRAFT, PICTURE_FRONT, picture_workspace, run
from pnpgen.data.art import SVG_NESTING, ArtFolder
from pnpgen.data.workspace import Workspace
from pnpgen.engine import facekeys
from pnpgen.engine.facekeys import face_pictures_of
from pnpgen.engine.fingerprint import content_hash
from pnpgen.engine.options import BuildOptions
from pnpgen.faces.faceset import FaceSet, RenderedGame
from pnpgen.rulebook import book

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d4944415478da63f8cfc0f01f0005000201e2a5a5f50000000049454e44ae426082")


def _rendered(root, svgs: dict[str, str], whole) -> RenderedGame:
    """A game's faces as the build hands them on, with ``whole`` its art's hash (or what makes it)."""
    faces = FaceSet()
    for key, svg in svgs.items():
        faces.svgs[key] = svg
    return RenderedGame(None, faces, [], ArtFolder(root), [], 3.0, whole)  # type: ignore[arg-type]


def _game(tmp_path):
    art = tmp_path / "data" / "g" / "art"
    art.mkdir(parents=True)
    (art / "a.png").write_bytes(PNG)
    (art / "b.png").write_bytes(PNG + b"b")
    # an SVG picture showing one, showing one, … deeper than the converter draws them
    for i in range(SVG_NESTING + 2):
        inner = f'<image href="deep{i + 1}.svg" width="1" height="1"/>' if i <= SVG_NESTING else ""
        (art / f"deep{i}.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg">{inner}</svg>', encoding="utf-8")
    return tmp_path / "data" / "g"


def _face(href: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{href}" width="10" height="10"/></svg>'


def test_faces_whose_pictures_are_found_never_ask_the_whole_arts_hash(tmp_path):
    root = _game(tmp_path)
    asked = []
    rendered = _rendered(root, {"f1": _face("a.png"), "f2": _face("b.png"), "f3": "<svg/>"},
                         lambda: asked.append(1) or "whole")
    arts, files = face_pictures_of(rendered, content_hash)
    assert asked == []
    assert set(arts) == {"f1", "f2"} and arts["f1"] != arts["f2"] and "whole" not in arts.values()
    assert files["f1"] == {"art/a.png": content_hash(root / "art" / "a.png")[:12]}


def test_a_face_nesting_deeper_than_drawn_is_keyed_by_the_whole_art_made_once(tmp_path):
    root = _game(tmp_path)
    asked = []
    count = itertools.count()
    rendered = _rendered(root, {"f1": _face("a.png"), "d1": _face("deep0.svg"), "d2": _face("deep1.svg")},
                         lambda: asked.append(1) or f"whole{next(count)}")
    arts, _ = face_pictures_of(rendered, content_hash)
    assert asked == [1]  # asked for the first such face, kept for the second
    assert arts["d1"] == arts["d2"] == "whole0" and arts["f1"] != "whole0"
    assert rendered.art_digest == "whole0"  # (and for anything that asks after)


def test_a_build_scans_art_for_its_hash_only_when_a_face_asks_and_hides_no_edit(tmp_path, monkeypatch):
    """A build whose faces' pictures are all found makes no whole-art hash; asked afterwards,
    the rendered game's is the art's as the build finds it, and an art file no face shows,
    changed, changes it (the key of a face whose pictures could not all be found)."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: 札, art: red.png}\n", PICTURE_FRONT,
                           {"red.png": (200, 0, 0), "blue.png": (0, 0, 200)})
    made = []
    real = facekeys.art_fingerprint

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(facekeys, "art_fingerprint", counted)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert made == []
    options = BuildOptions(jobs=1)
    rendered = facekeys.load_and_render(Workspace(ws), "test", options)
    assert made == []
    first = rendered.art_digest
    game = rendered.game
    assert made == [1] and first == real(Workspace(ws), game)
    (ws / "data" / "test" / "art" / "blue.png").write_bytes(PNG)  # a picture no face shows
    assert facekeys.load_and_render(Workspace(ws), "test", options).art_digest != first


def test_a_deck_without_backs_keys_its_book_by_the_pictures_it_shows_not_the_whole_art(tmp_path, monkeypatch):
    """A one-sided illustrated deck with a rulebook: the face it has no back of shows no picture
    (engine/bookkey.py), so no whole-art hash is made and a picture no face shows, repainted, sets
    the book's pages no more (it was keyed by every art file)."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: 札, art: red.png}\n", PICTURE_FRONT,
                           {"red.png": (200, 0, 0), "blue.png": (0, 0, 200)})
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("back: card-back.svg.j2\n", ""), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    made, set_ = [], []
    real, render = facekeys.art_fingerprint, book.render
    monkeypatch.setattr(facekeys, "art_fingerprint", lambda *a, **k: made.append(1) or real(*a, **k))
    monkeypatch.setattr(book, "render", lambda *a, **k: set_.append(1) or render(*a, **k))
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--quiet") == 0
    assert set_ == [1] and made == []
    (ws / "data" / "test" / "art" / "blue.png").write_bytes(PNG)  # a picture no face shows
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--quiet") == 0
    assert set_ == [1] and made == []
