"""A face's render is remembered by what it reads, not by its piece's index in the deck
(faces/rendermemo.py ``RenderMemo.twin``): a card inserted, deleted or moved mid-deck moves every
card below it, and each of their faces was drawn again by Jinja. A render that read the index
(``piece.n``) remembers it and is drawn again where it moved; a picture a remembered render placed
is listed under the index and label its piece has now. After each edit the files are those of a
build of a fresh copy of the workspace without the machine's cache (an in-process build with
``PNPGEN_CACHE=off`` in the same folder still trusts the folder's cache: the process seals it with
its own key, usercache.py ``PROCESS_SECRET``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from conftest import DECK_YAML, FRONT, PICTURE_DECK_YAML, PICTURE_FRONT, faces_drawn, make_workspace, run

N = 40
BUILT = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "shop/order.csv", "test-all.pdf")


def _built(root: Path) -> dict[str, object]:
    """The sheets', the shop's files' and the order's bytes, and the manifest but for what only a
    build after a last build has (its change report, its reprint and their files)."""
    out = root / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for said in ("changes", "reprint", "files"):
        manifest.pop(said)
    return {**{name: (out / name).read_bytes() for name in BUILT}, "manifest": manifest}


def _cold(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """``_built`` of a fresh copy of the workspace built without the machine's cache."""
    cold = root.parent / f"cold{len(list(root.parent.glob('cold*')))}"
    for folder in ("data", "templates"):
        shutil.copytree(root / folder, cold / folder)
    (cold / "fonts").symlink_to((root / "fonts").resolve())
    with monkeypatch.context() as m:
        m.setenv("PNPGEN_CACHE", "off")
        assert run(cold, "build", "--game", "test", "-q") == 0
    return _built(cold)


def _edit(root: Path, edit, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Rewrite the deck file's piece lines with ``edit``, build, and return the faces drawn; the
    files built checked against a cold build of a fresh copy."""
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    head, _, rows = deck.read_text(encoding="utf-8").partition("pieces:\n")
    deck.write_text(head + "pieces:\n" + "".join(edit(rows.splitlines(keepends=True))), encoding="utf-8")
    with monkeypatch.context() as m:
        drawn = faces_drawn(m, "text")
        assert run(root, "build", "--game", "test", "-q") == 0
        drawn = list(drawn)
    assert _built(root) == _cold(root, monkeypatch)
    return drawn


def _inserted(rows: list[str]) -> list[str]:
    return ["  - {name: 新カード, text: 新}\n", *rows]


def _deleted(rows: list[str]) -> list[str]:
    return [r for r in rows if "text: 本文20}" not in r]


def _moved(rows: list[str]) -> list[str]:
    return [r for r in rows if "text: 本文30}" in r] + [r for r in rows if "text: 本文30}" not in r]


def _workspace(tmp_path: Path, front: str = FRONT) -> Path:
    deck = DECK_YAML + "".join(f"  - {{name: カード{i}, text: 本文{i}}}\n" for i in range(1, N + 1))
    root = make_workspace(tmp_path / "ws", deck=deck, front=front)
    assert run(root, "build", "--game", "test", "-q") == 0
    return root


def test_a_card_inserted_deleted_or_moved_draws_only_the_new_card(tmp_path: Path, monkeypatch):
    root = _workspace(tmp_path)
    # with the index in the key: the 40 cards below the new one (80 faces), then the 20 below the
    # deleted one, then the 29 above the moved one (each front and back; the back reads the name)
    assert _edit(root, _inserted, monkeypatch) == ["新 front", "新 back"]
    assert _edit(root, _deleted, monkeypatch) == []
    assert _edit(root, _moved, monkeypatch) == []


def test_a_template_reading_the_index_draws_each_moved_card_again(tmp_path: Path, monkeypatch):
    numbered = FRONT.replace("{{ textbox(piece.text,", '{{ textbox("No." ~ piece.n ~ " " ~ piece.text,')
    assert numbered != FRONT
    root = _workspace(tmp_path, numbered)
    # every front below the new card shows a number one more; the backs read no index
    drawn = _edit(root, _inserted, monkeypatch)
    assert sorted(drawn) == sorted(["新 front", "新 back", *(f"本文{i} front" for i in range(1, N + 1))])
    drawn = _edit(root, _deleted, monkeypatch)
    assert sorted(drawn) == sorted(f"本文{i} front" for i in range(21, N + 1))
    drawn = _edit(root, _moved, monkeypatch)  # (the 30th card the 30th row: it and the 29 above it move)
    assert sorted(drawn) == sorted(["新 front", *(f"本文{i} front" for i in (*range(1, 20), *range(21, 31)))])


# unnamed cards: each one's label is its place, #<index>, which the manifest's pictures name
UNNAMED = PICTURE_DECK_YAML.replace("{name: text,", "{text: text,")
UNNAMED_FRONT = PICTURE_FRONT.replace("piece.name", "piece.text")
PLAIN_BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#333366"/>
{% endblock %}
"""


def test_a_moved_cards_picture_is_listed_under_its_new_label(tmp_path: Path, monkeypatch):
    deck = UNNAMED + "".join(f"  - {{text: 本文{i}, art: a.png}}\n" for i in range(1, 9))
    root = make_workspace(tmp_path / "ws", deck=deck, front=UNNAMED_FRONT, back=PLAIN_BACK)
    (root / "data" / "test" / "art").mkdir()
    Image.new("RGB", (800, 1100), (200, 120, 40)).save(root / "data" / "test" / "art" / "a.png")
    assert run(root, "build", "--game", "test", "-q") == 0
    assert _edit(root, lambda rows: ["  - {text: 新, art: a.png}\n", *rows], monkeypatch) == ["新 front", "新 back"]
    pictures = json.loads((root / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["images"]
    assert sorted(p["piece"] for p in pictures) == sorted(f"#{i}" for i in range(1, 10))
    assert _edit(root, lambda rows: rows[2:], monkeypatch) == []


def test_identical_entries_that_warn_keep_a_render_each(tmp_path: Path, monkeypatch):
    # two entries alike, each warned of at its own line (its text does not fit the layout's box):
    # one render for both would be drawn again for each, at every build, its warning's line the
    # other's
    long = "長い本文。" * 60
    rows = [f"  - {{title: カード{i}, text: 本文{i}}}\n" for i in range(1, 5)]
    rows[1:1] = [f"  - {{title: 同じ札, text: {long}}}\n"] * 2
    root = make_workspace(tmp_path / "ws", deck="name: テストカード\nlayout: card-poker\npieces:\n" + "".join(rows))
    assert run(root, "build", "--game", "test", "-q") == 0
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    # (the layout's back, alike for every card, is drawn for the deck's first card when it is new)
    for old, new, expected in (("本文4}", "本文4 改}", ["カード4 front"]),
                               ("本文1}", "本文1 改}", ["カード1 front", "カード1 back"])):
        deck.write_text(deck.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        with monkeypatch.context() as m:
            drawn = faces_drawn(m, "title")
            assert run(root, "build", "--game", "test", "-q") == 0
        assert drawn == expected
        assert _built(root) == _cold(root, monkeypatch)
