"""A deck's manifest record (engine/manifest.py ``DeckRecord.to_json``): the copy ``asdict`` made,
made without deep-copying each piece's [count, digest] (3,000 cards: 0.03 CPU-s an edit)."""

from __future__ import annotations

import json
from dataclasses import asdict

from pnpgen.engine.manifest import DeckRecord


def _as_asdict_made_it(record: DeckRecord) -> dict:
    d = asdict(record)
    d.update(d.pop("layout"))
    d.pop("double_at")
    d.pop("full_bleed")  # (the summary's, as double_at: not in the manifest)
    d.pop("by_hand")  # (the same: a print-and-cut build's board cut by hand, said under its line)
    return d


def test_a_deck_record_is_the_copy_asdict_made_and_shares_nothing_with_the_record():
    layout = {"layout": "grid", "pieces_per_sheet": 9, "tiles": {"grid": [2, 3], "overlap_mm": 5.0, "pages": (1, 2)},
              "scale": 0.95, "reduced": False, "note": None}
    record = DeckRecord("cards", "絵札", "card", "rect", "poker", [63.0, 88.0], 3.0, 2000, 1000, 1001, True, "a4", layout,
                        223, 446, 4000, {"home": "none", "shop": "TrimBox"}, ["cards.pdf", "shop/cards.pdf"], 0,
                        {f"{i}:かあの札{i}": [i % 3 + 1, f"{i:012x}"] for i in range(1, 50)}, (63.0, 44.0), (6, 3.0))
    made, expected = record.to_json(), _as_asdict_made_it(record)
    assert made == expected
    assert list(made) == list(expected)  # the keys in the same order: the manifest's bytes
    assert json.dumps(made, ensure_ascii=False, indent=2) == json.dumps(expected, ensure_ascii=False, indent=2)
    assert "double_at" not in made and "full_bleed" not in made and "by_hand" not in made and "layout" in made and made["tiles"]["pages"] == (1, 2)
    made["pieces"]["1:かあの札1"].append("x")  # a copy: the record keeps its own
    made["tiles"]["grid"].append(9)
    made["trim_mm"].append(1.0)
    assert record.pieces["1:かあの札1"] == [2, "000000000001"] and layout["tiles"]["grid"] == [2, 3]
    assert record.trim_mm == [63.0, 88.0]
