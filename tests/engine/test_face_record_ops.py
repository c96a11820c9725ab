"""Issue 22: an edit reads the unchanged faces back from the build cache as pnpgen wrote them.
A face's record is sealed under this machine's key (usercache ``seal``: the pack's, or the
entry's own), so only pnpgen wrote one that reads back; its items are rebuilt as written
(svg/artwork.py ``_items_as_recorded``), not checked value by value as a standalone art is.
Operations are counted, nothing is timed: for a deck of N illustrated cards and of 2N, one card's
text edited, no item or mark goes through the checks, and only the faces of the sheet drawn again
are decoded — the others' lines are kept undecoded (``ArtToRead``), as many at 2N as at N. That the art read so is the art the checks make: every face record of the
four games read both ways."""

from __future__ import annotations

import json
from pathlib import Path

from test_warm_imposition import _files

from conftest import PICTURE_FRONT, picture_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.engine import run as build_run
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.warm import Warm
from pnpgen.svg import artwork
from pnpgen.svg.artwork import Art, digest

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
COLOURS = {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)}


def _counted_edit(tmp_path: Path, n: int, monkeypatch) -> dict[str, int]:
    """A deck of ``n`` illustrated cards built, one card's name edited and built again: the faces
    read back from the cache as recorded, and the items and marks that went through the checks."""
    pieces = "".join(f"  - {{name: 札{i}, art: {'abc'[i % 3]}.png}}\n" for i in range(1, n + 1))
    ws = picture_workspace(tmp_path / str(n), pieces, PICTURE_FRONT, COLOURS)
    assert run(ws, *BUILD) == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(f"札{n // 2},", f"札{n // 2}改,"), encoding="utf-8")
    seen = {"faces as recorded": 0, "items checked": 0, "marks checked": 0}
    recorded, item, mark = artwork._items_as_recorded, artwork._item_from_json, artwork._mark_from_json

    def counted_recorded(*a):
        seen["faces as recorded"] += 1
        return recorded(*a)

    def counted_item(*a):
        seen["items checked"] += 1
        return item(*a)

    def counted_mark(*a):
        seen["marks checked"] += 1
        return mark(*a)

    monkeypatch.setattr(artwork, "_items_as_recorded", counted_recorded)
    monkeypatch.setattr(artwork, "_item_from_json", counted_item)
    monkeypatch.setattr(artwork, "_mark_from_json", counted_mark)
    assert run(ws, *BUILD) == 0
    monkeypatch.undo()
    return seen


def test_an_edit_reads_the_unchanged_faces_as_recorded_at_n_and_2n_cards(tmp_path, monkeypatch):
    small, big = _counted_edit(tmp_path, 12, monkeypatch), _counted_edit(tmp_path, 24, monkeypatch)
    # of the unchanged cards' converted faces (two a card: 2(N - 1) read back), only those the
    # edited card's sheet draws again are decoded (svg/artwork.py ``ArtToRead``: its eight other
    # fronts, nine a sheet, at most; fewer where the sheet's faces are drawn from the forms pack),
    # whatever N; none of their values checked
    for seen in (small, big):
        assert seen["faces as recorded"] <= 8 and seen["items checked"] == seen["marks checked"] == 0, seen


def test_a_warm_save_decodes_only_the_faces_of_the_sheet_it_draws_again(tmp_path, monkeypatch):
    """A long-running command's save (watch, serve: engine/warm.py) carries the illustrated faces
    forward undecoded, as a new process reads them (engine/game.py ``keep``: a 3,000-card deck's
    save decoded all 6,000, warm50); each save writes a one-off build's bytes."""
    n = 12
    pieces = "".join(f"  - {{name: 札{i}, art: {'abc'[i % 3]}.png}}\n" for i in range(1, n + 1))
    root = picture_workspace(tmp_path / "ws", pieces, PICTURE_FRONT, COLOURS)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    ws, options = Workspace(root), BuildOptions(jobs=1, rulebook=False)
    decoded = [0]
    recorded = artwork._items_as_recorded

    def counted(*a):
        decoded[0] += 1
        return recorded(*a)

    monkeypatch.setattr(artwork, "_items_as_recorded", counted)
    with Warm() as warm:
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        for save, name in enumerate(("札6", "札6改", "札6再", "札9")):  # the same card thrice, then another
            old = f"{name}," if save < 3 else "札9,"
            new = ("札6改,", "札6再,", "札6,", "札9改,")[save]
            deck.write_text(deck.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
            decoded[0] = 0
            build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
            # the edited card's sheet's eight other fronts at most, of its 2(N - 1) unchanged faces
            assert decoded[0] <= 8, (save, decoded[0])
            alone = tmp_path / f"alone-{save}"  # a one-off build of the same data, no cache
            build_run.run_build(ws, ["test"], options, alone, None)
            assert _files(root / "build" / "test") == _files(alone / "test"), save


def test_a_face_read_as_recorded_is_the_art_the_checks_make(built):
    """Every converted face of the four games' packs, read as recorded and read through the
    checks (the same record sealed as a standalone art is): the same art, its numbers floats
    alike (``repr`` tells 1 from 1.0, which the documents would print apart)."""
    pictures = str.encode  # (a picture's bytes stood for by its name)
    held: dict[str, bytes] = {}
    whole = Art(10, 20, (("ops", "0 0 m"), ("fill", 1, 0, 0), ("text", "F1", 12, ((3, 4, "札"),)),
                         ("image", b"png", 1, 2, 3, 4)), marks=(("text", "x.svg.j2:3", 12, 1, 2, 3, 4, "札"),))
    obj = json.loads(json.dumps(whole.to_json(pictures=held, seal=False)))  # (its whole numbers written as such)
    as_recorded = Art.from_json(obj, pictures=held.__getitem__, sealed=False)
    assert repr(as_recorded) == repr(Art.from_json({**obj, "digest": digest(obj)}, pictures=held.__getitem__))
    assert as_recorded.items[1] == ("fill", 1.0, 0.0, 0.0) and type(as_recorded.items[2][3][0][0]) is float
    packs = sorted((built / ".cache" / "converted").glob("*.pack.json"))
    assert packs
    faces = 0
    for pack in packs:
        for line in pack.read_bytes().split(b"\n")[1:]:
            if not line.strip():
                continue
            _, obj = json.loads(line)
            as_recorded = Art.from_json(obj, pictures=pictures, sealed=False)
            checked = Art.from_json({**obj, "digest": digest(obj)}, pictures=pictures)
            assert as_recorded == checked and repr(as_recorded) == repr(checked)
            faces += 1
    assert faces > 200
