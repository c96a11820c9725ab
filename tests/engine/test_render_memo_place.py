"""A face's render is remembered by what it reads, not by where its piece is written
(faces/rendermemo.py ``RenderMemo.place``): a line added above a card — a comment, a rule written
over two lines — moves every card below it, and each of their faces was drawn again by Jinja. A
render that warned names that place, so it is replayed only where its piece still is: its warning
names the line and column a build without the cache names. (The memo's work for an unchanged
piece: tests/engine/test_render_memo_edit.py.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import faces_drawn, make_workspace, run

N = 12
LONG = "長い本文。" * 60  # more than the front's text box holds at its smallest size: a warning


def _deck(root: Path) -> Path:
    return root / "data" / "test" / "decks" / "cards.yaml"


def _warnings(root: Path) -> list[str]:
    return json.loads((root / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["warnings"]


def _cold_warnings(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The warnings of a build of the same data in a fresh copy of the workspace, without the
    machine's cache: every face drawn afresh (this process's key still trusts ``root``'s cache)."""
    cold = root.parent / f"cold{len(list(root.parent.glob('cold*')))}"
    for folder in ("data", "templates"):
        shutil.copytree(root / folder, cold / folder)
    (cold / "fonts").symlink_to((root / "fonts").resolve())
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    try:
        assert run(cold, "build", "--game", "test", "-q") == 0
    finally:
        monkeypatch.delenv("PNPGEN_CACHE")
    return _warnings(cold)


def test_a_card_moved_is_not_drawn_again_but_a_warned_one_names_its_new_place(tmp_path: Path, monkeypatch):
    # a built-in layout's box: its warning starts at the field's line and column in the deck file
    root = make_workspace(tmp_path, deck="name: テストカード\nlayout: card-poker\npieces:\n"
                          + "".join(f"  - {{title: カード{i}, text: 本文{i}}}\n" for i in range(1, 7)))
    deck = _deck(root)
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文4}", LONG + "}"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "-q") == 0
    first = [w for w in _warnings(root) if "does not fit" in w]
    assert len(first) == 1 and first[0].startswith("data/test/decks/cards.yaml:7:25: "), first
    before = (root / "build" / "test" / "cards.pdf").read_bytes()
    # a line above it (the card now on line 8), then spaces before its text (the field at column 28)
    for old, new in (("  - {title: カード2,", "  # 調整中\n  - {title: カード2,"),
                     ("{title: カード4, text:", "{title: カード4,    text:")):
        deck.write_text(deck.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        drawn = faces_drawn(monkeypatch, "title")
        assert run(root, "build", "--game", "test", "-q") == 0
        drawn = list(drawn)  # (before the cold build draws every face)
        assert _warnings(root) == _cold_warnings(root, monkeypatch)
        # the cards below the line not drawn again (with the place in the key: カード2 … カード6), the
        # warned one drawn again where it moved (its warning names its place), the same faces
        assert drawn == ["カード4 front"]
        assert (root / "build" / "test" / "cards.pdf").read_bytes() == before
        monkeypatch.undo()
    said = [w for w in _warnings(root) if "does not fit" in w]
    assert len(said) == 1 and said[0].startswith("data/test/decks/cards.yaml:8:28: "), said
