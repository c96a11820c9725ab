"""Which field names a piece in order.csv, the unique-faces file's page labels and the change
report: the deck's ``label:`` field, else name, title, id, number, value or label, else #n (a hex
deck whose only text field was ``label`` printed #1, #2…)."""

from __future__ import annotations

import csv

from pypdf import PdfReader

from conftest import make_workspace, run

TILES = """\
name: 海域タイル
kind: tile
shape: hex
size: 40
front: card-front.svg.j2
fields: {{{fields}}}
{extra}pieces:
  - {{{first}}}
  - {{{second}, count: 3}}
"""
FRONT = ('{% extends "common/piece.svg.j2" %}{% block art %}'
         '<rect x="0" y="0" width="{{ piece.n }}" height="5" fill="#000000"/>{% endblock %}')


def _names(tmp_path, deck: str) -> tuple[list[str], list[str]]:
    ws = make_workspace(tmp_path / "ws", deck=deck, front=FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    shop = ws / "build" / "test" / "shop"
    with open(shop / "order.csv", encoding="utf-8-sig") as f:
        rows = [r for r in csv.DictReader(f)]
    names = [r[next(k for k in r if k.lower() in ("name", "名前", "piece name"))] for r in rows] if rows else []
    return names, list(PdfReader(shop / "cards-unique.pdf").page_labels)


def test_a_label_field_names_the_piece(tmp_path):
    names, labels = _names(tmp_path, TILES.format(fields="label: text, colour: text", extra="",
                                                  first="label: 港", second="label: 外洋"))
    assert "港" in names and "外洋" in names and "#1" not in names, names
    assert labels[0].startswith("港") and any(lab.startswith("外洋") for lab in labels), labels


def test_the_deck_says_which_field_names_its_pieces(tmp_path):
    names, labels = _names(tmp_path, TILES.format(fields="name: text, terrain: text", extra="label: terrain\n",
                                                  first="name: A1, terrain: 港", second="name: A2, terrain: 外洋"))
    assert "港" in names and "外洋" in names and "A1" not in names, names
    assert labels[0].startswith("港"), labels


def test_label_must_be_a_field(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", front=FRONT, deck=TILES.format(
        fields="name: text", extra="label: terrain\n", first="name: A1", second="name: A2"))
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:7:8: label: unknown label field 'terrain'" in err and "one of name" in err, err


def test_a_name_written_with_markup_is_named_as_it_reads(tmp_path):
    """Ruby, bold and colour marks are how the card sets the name, not part of it."""
    names, labels = _names(tmp_path, TILES.format(fields="name: text", extra="",
                                                  first="name: '{南瓜|かぼちゃ}'", second="name: '**大**[red]麦[/red]'"))
    assert names[:2] == ["南瓜", "大麦"], names
    assert labels[0].startswith("南瓜") and any(lab.startswith("大麦") for lab in labels), labels
    manifest = (tmp_path / "ws" / "build" / "test" / "manifest.json").read_text(encoding="utf-8")
    assert "かぼちゃ" not in manifest and "**" not in manifest and "[red]" not in manifest


def test_the_field_a_layouts_title_box_reads_names_the_piece(tmp_path, capsys):
    """A spreadsheet's own column for the card's name, read by the layout's title box
    (``title: {field: card}``), names the pieces without a ``label:``: the change line said
    ``#1: rule`` of a card printed 'Torch' (trial42)."""
    deck = ("name: Cards\nlayout: {extends: card-poker, boxes: {title: {field: card}, text: {field: rule}}}\n"
            "fields: {card: text, rule: text}\npieces:\n"
            "  - {card: Torch, rule: Cancel a snake., count: 2}\n  - {card: Rope, rule: Draw 2 cards.}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "-q", "build", "--game", "test", "--no-rulebook") == 0
    with open(ws / "build" / "test" / "shop" / "order.csv", encoding="utf-8-sig") as f:
        names = [r[next(k for k in r if k.lower() == "name")] for r in csv.DictReader(f)]
    assert names == ["Torch", "Rope"], names
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("Cancel a snake.", "Cancel a pit."),
                                                                encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "changed: cards: 3 → 3 (Torch: rule)" in capsys.readouterr().out
    reprint = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "2 × Torch" in reprint and "#1" not in reprint, reprint
