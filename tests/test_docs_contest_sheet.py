"""docs/home-printing.md, a contest entry's "Cards, tokens and tiles on one sheet?": a US designer's
one-sheet wish (trial78) — 18 cards, 12 round tokens and 16 square tiles on Letter. As the page says:
5 sheets with the tiles of token-square (cards 3, tiles 1, tokens 1), none shared; 4 with the page's
die-cut square tiles and ``share_sheets: true``, the tokens and tiles on one sheet of 30 slots of
31.75 mm, each deck's own file keeping its own sheets; the cards never share."""

from __future__ import annotations

import json
import re
import textwrap

from conftest import REPO, docs_deck_workspace, run

PAGE = (REPO / "docs" / "home-printing.md").read_text(encoding="utf-8")
START = PAGE.index("- **Cards, tokens and tiles on one sheet?**")
SECTION = PAGE[START:PAGE.index("\n- **", START + 10)]
TILES = textwrap.dedent(re.search(r"```yaml\n(.*?)```", SECTION, re.S)[1])  # type: ignore[index]
GAME = "title: One Leaf\nlanguages: [en]\nplayers: 2\npaper: letter\n"
CARDS = "name: Cards\nlayout: card-poker\nsize: [2.5in, 3.5in]\npieces:\n  - {title: Sprout, count: 18, text: Grow.}\n"
TOKENS = "name: Tokens\nlayout: token-round\npieces:\n  - {title: Green, value: G, count: 6}\n" \
    "  - {title: Gold, value: Y, count: 6}\n"
PLAIN_TILES = "name: Tiles\nkind: tile\nsize: [1.5in, 1.5in]\nlayout: token-square\npieces:\n" \
    "  - {title: Meadow, value: '1', count: 16}\n"


def _sheets(tmp_path, tiles: str, share: bool) -> dict:
    ws = docs_deck_workspace(tmp_path, GAME + ("share_sheets: true\n" if share else ""), "tiles", tiles, {})
    for deck_id, text in (("cards", CARDS), ("tokens", TOKENS)):
        (ws / "data" / "test" / "decks" / f"{deck_id}.yaml").write_text(text, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))


def test_cards_tokens_and_tiles_take_the_sheets_the_page_says(tmp_path):
    assert "kind: token" in TILES and "shape: polygon" in TILES and "share_sheets: true" in SECTION
    plain = _sheets(tmp_path / "plain", PLAIN_TILES, share=True)
    assert {d["id"]: d["sheets"] for d in plain["decks"]} == {"cards": 3, "tiles": 1, "tokens": 1}
    assert not plain["bill_of_materials"].get("shared_sheets")  # a tile beside a token: never shared
    shared = _sheets(tmp_path / "shared", TILES, share=True)
    decks = {d["id"]: d for d in shared["decks"]}
    assert decks["cards"]["sheets"] == 3 and decks["tiles"]["trim_mm"] == [31.75, 31.75]
    assert decks["tiles"]["pieces_per_sheet"] == 30  # the page's 30 slots of 31.75 mm
    assert shared["bill_of_materials"]["shared_sheets"] == [
        {"decks": ["Tiles", "Tokens"], "sheets": 1, "alone": 2, "pages": [7, 8]}]  # after the cards' 6 pages
    assert {d["id"]: d["sheets"] for d in shared["decks"]} == {"cards": 3, "tiles": 1, "tokens": 1}  # own files
