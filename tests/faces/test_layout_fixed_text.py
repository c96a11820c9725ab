"""A box's fixed ``text:`` written over a layout's box that reads a field: the text prints, not
the field (a legacy game's sealed pack, its back saying 開封禁止 ③ where card-poker's back prints
the deck's name: the field won, and the override was passed over without a word), and a
``field:`` written over a fixed text reads the field."""

from __future__ import annotations

from conftest import make_workspace, run
from pdfprobe import texts

PACK = """\
name: パック③
layout:
  extends: card-poker
  back:
    boxes:
      deck: {text: "開封禁止 ③"}
      title: {field: deck.name}
pieces:
  - {title: 封印札}
"""


def test_a_fixed_text_replaces_the_field_of_the_box_it_overrides_and_a_field_the_text(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=PACK)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    front, back = texts(root / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "開封禁止 ③" in back
    assert back.count("パック③") == 1  # the deck's name once: in the title box, no longer in the deck box
    assert "テストゲーム" not in back  # the title box reads the field written over its game.title
    assert "封印札" in front
