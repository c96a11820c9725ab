"""Pieces that share a name (a suit's ranks: 団子 1 … 13) are named in the shop's order.csv, an
export's order.csv and the contact sheet by the field that tells them apart, ``団子［1］``, as the
change report names them (data/telling.py ``names_told_apart``): "団子 × 1" thirteen times left
only the piece column to tell them by (fixes45b, a designer trial)."""

from __future__ import annotations

import csv
from pathlib import Path

from conftest import DECK_YAML, make_workspace, run
from pnpgen.exports import contact


def _rows(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return [(r["piece"], r["name"]) for r in csv.DictReader(f)]


def test_pieces_of_one_name_are_told_apart_in_order_csv_and_the_contact_sheet(tmp_path, monkeypatch):
    deck = DECK_YAML + "".join(f"  - {{name: 団子, text: '{n}'}}\n" for n in (1, 2, 3)) + "  - {name: 兎, text: '1'}\n"
    root = make_workspace(tmp_path / "ws", deck=deck)
    told = [("1", "団子［1］"), ("2", "団子［2］"), ("3", "団子［3］"), ("4", "兎")]
    assert run(root, "build", "--game", "test", "--no-rulebook", "-q") == 0
    assert _rows(root / "build" / "test" / "shop" / "order.csv") == told
    shown: list[str] = []
    drawn = contact.contact_sheets

    def seen(title, thumbs, *args, **kwargs):
        shown.extend(t.name + t.tail for t in thumbs)
        return drawn(title, thumbs, *args, **kwargs)

    monkeypatch.setattr(contact, "contact_sheets", seen)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    assert _rows(root / "build" / "test" / "doujin" / "order.csv") == told
    assert shown[:4] == ["団子［1］ × 1", "団子［2］ × 1", "団子［3］ × 1", "兎 × 1"]
