"""Issue 22: rendering a deck costs in proportion to its size. Operations are counted, nothing is
timed: the image placements the render memo visits, and the pieces summed for the deck's total,
for a deck of N illustrated cards and of 2N."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, make_workspace
from pnpgen.data.model import Deck
from pnpgen.data.workspace import Workspace
from pnpgen.engine.facekeys import load_and_render
from pnpgen.engine.options import BuildOptions
from pnpgen.faces.images import ArtPlacer
from pnpgen.faces.rendermemo import RenderMemo

DECK = PICTURE_DECK_YAML
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ image(piece.art, 5, 20, w - 10, 40) }}
{{ textbox(deck.name, 5, 5, w - 10, 8, size=8) }}
{% endblock %}
"""
COUNTED = FRONT.replace("deck.name,", "deck.name ~ ' ×' ~ deck.count,")
PIECE_COUNTED = FRONT.replace("deck.name,", "piece.name ~ ' ×' ~ piece.count,")


def workspace(root: Path, n: int, front: str = FRONT, counted: int | None = None) -> Workspace:
    pieces = "".join(f"  - {{name: 札{i}, art: a{i % 7}.png, count: {2 if i == counted else 1}}}\n"
                     for i in range(1, n + 1))
    if (root / "data").exists():
        (root / "data" / "test" / "decks" / "cards.yaml").write_text(DECK + pieces, encoding="utf-8")
        return Workspace(root)
    ws = make_workspace(root, deck=DECK + pieces, front=front)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(7):
        Image.new("RGB", (40, 30), (30 * i, 90, 200)).save(ws / "data" / "test" / "art" / f"a{i}.png")
    return Workspace(ws)


@pytest.fixture
def ops(monkeypatch) -> dict[str, int]:
    """Placements visited by ArtPlacer.images / placements_since, and pieces summed by Deck.count."""
    seen = {"placements": 0, "summed": 0}
    images, since, count = ArtPlacer.images, ArtPlacer.placements_since, Deck.count

    def counted_images(self):
        out = images(self)
        seen["placements"] += len(out)
        return out

    def counted_since(self, n):
        out = since(self, n)
        seen["placements"] += len(out)
        return out

    def counted_count(self):
        seen["summed"] += len(self.pieces)
        return count.fget(self)

    monkeypatch.setattr(ArtPlacer, "images", counted_images)
    monkeypatch.setattr(ArtPlacer, "placements_since", counted_since)
    monkeypatch.setattr(Deck, "count", property(counted_count))
    return seen


def rendered_ops(root: Path, n: int, ops: dict[str, int]) -> dict[str, int]:
    ws = workspace(root, n)
    ops.update(placements=0, summed=0)
    load_and_render(ws, "test", BuildOptions(), memo=RenderMemo(inputs="inputs"))
    return dict(ops)


def test_rendering_twice_the_cards_costs_twice_the_operations(tmp_path, ops):
    small = rendered_ops(tmp_path / "n", 60, ops)
    large = rendered_ops(tmp_path / "2n", 120, ops)
    assert small["placements"] >= 60 and small["summed"] >= 60  # they are counted at all
    for what in ("placements", "summed"):
        assert large[what] <= 2.2 * small[what], (what, small, large)  # quadratic would be 4×


def test_a_count_edit_renders_again_only_the_faces_that_show_it(tmp_path):
    """The counts are no part of the memo's key: faces that read neither deck.count nor their
    piece's count are remembered across a count edit (the piece whose count changed too); a face
    that reads the deck's total, or its own count, is drawn again with the new one."""
    for front, again in ((FRONT, 0), (COUNTED, 20), (PIECE_COUNTED, 1)):
        root = tmp_path / str(again)
        ws = workspace(root, 20, front)
        memo = RenderMemo(inputs="inputs")
        first = load_and_render(ws, "test", BuildOptions(), memo=memo)
        workspace(root, 20, counted=5)
        memo = RenderMemo(inputs="inputs", known=memo.learned)
        second = load_and_render(ws, "test", BuildOptions(), memo=memo)
        # every front that shows the total; piece 5's front where it shows its own count
        assert len(memo.learned) == again
        assert len(second.faces.svgs) == len(first.faces.svgs) > 20  # (each face there, replayed or drawn)
        if front is COUNTED:
            assert any("×21" in svg for svg in second.faces.svgs.values())
            assert not any("×21" in svg for svg in first.faces.svgs.values())
        if front is PIECE_COUNTED:  # (the name and the count set as runs of their own)
            assert any(">札5<" in svg and ">×2<" in svg for svg in second.faces.svgs.values())
            assert not any(">札5<" in svg and ">×2<" in svg for svg in first.faces.svgs.values())
            assert any(">札5<" in svg and ">×1<" in svg for svg in first.faces.svgs.values())


def test_each_faces_memo_key_and_freshness_are_worked_out_once_per_build(tmp_path, monkeypatch):
    """The prerender (--jobs 2) asks each face's key and whether its remembered render is fresh
    before the face stage asks them again: worked out once, each art file hashed once per face."""
    ws = workspace(tmp_path / "ws", 30)
    earlier = RenderMemo(inputs="inputs")
    load_and_render(ws, "test", BuildOptions(), memo=earlier)
    hashed: list[Path] = []
    memo = RenderMemo(known=earlier.learned, inputs="inputs", digest=lambda p: hashed.append(p) or hashlib.sha256(p.read_bytes()).hexdigest())
    keys = 0
    deck_key = RenderMemo._deck_key

    def counted(self, deck):
        nonlocal keys
        keys += 1
        return deck_key(self, deck)

    monkeypatch.setattr(RenderMemo, "_deck_key", counted)
    again = load_and_render(ws, "test", BuildOptions(jobs=2), memo=memo)
    assert not memo.learned and len(again.faces.svgs) >= 30  # every face replayed from the memo
    assert len(hashed) == 30  # each front's picture, once (the prerender's check, then the face stage's)
    assert keys == 60  # each face's key (front and back), once
