"""docs/data-format.md, "Counts per player count": a designer's "3 players: remove 2 of these".
pnpgen has no count per player count; the section's way (the copies the largest player count uses,
those fewer players leave out marked by a box of the layout, the draft's setup saying what to take
out) and its other way (a deck of their own) build as written, and print what the section says."""

from __future__ import annotations

import json
import re

from conftest import REPO, make_workspace, run
from pdfprobe import glyphs, texts

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### Counts per player count")
SECTION = FORMAT[START:FORMAT.index("\n### ", START + 5)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SAID = " ".join(SECTION.split())
GAME = "title: 麦の王国\nplayers: 3-4\nlatin_gap: 0\n"


def _draft(components: str) -> str:
    """A draft whose setup is the section's own, as written."""
    (setup,) = [body for lang, body in FENCE.findall(SECTION) if lang == "" and body.startswith("■　ゲームの準備")]
    return (f"■■　麦の王国　草案１\n\n■　概要\n\n　麦を育てるゲームです。\n\n■　コンポーネント\n\n{components}\n"
            f"{setup}\n■　ゲームの終了\n\n　山札が尽きるとゲームが終了します。最も多くＶＰを得たプレイヤーが勝利します。\n")


def test_the_copies_fewer_players_leave_out_carry_the_mark_and_the_setup_says_what_to_take_out(tmp_path, capsys):
    (deck,) = [body for _, body in FENCE.findall(SECTION) if body.startswith("# data/<slug>/decks/market.yaml")]
    ws = make_workspace(tmp_path / "ws", deck=deck, game=GAME)
    (ws / "data" / "test" / "draft.txt").write_text(_draft("◇市場カード（１１枚）\n　麦畑と鉱山のカードです。\n"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert "count of" not in capsys.readouterr().err  # the draft's 11 is the deck's
    built = ws / "build" / "test"
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert "The deck prints 11 cards" in SAID and manifest["decks"][0]["count"] == 11
    # the badge: on the five copies for four players alone, inside its box (the page is trim + 3 mm bleed)
    fronts = glyphs(built / "shop" / "cards.pdf")[::2]
    assert len(fronts) == 11
    marked = [i for i, page in enumerate(fronts) if "4人〜" in "".join(g.char for g in page)]
    assert marked == [6, 7, 8, 9, 10], marked  # 6 麦畑, then 2 麦畑 and 3 鉱山 marked
    def in_badge(g) -> bool:
        return 3 + 63 - 17 <= g.x <= 3 + 63 - 5 and 3 + 15 <= g.y <= 3 + 15 + 5.5

    for page in (fronts[6], fronts[10]):
        assert "".join(g.char for g in page if in_badge(g)) == "4人〜"
    assert [g for page in fronts[:6] for g in page if in_badge(g)] == []  # none (no 未定) where the field is empty
    # the quick reference repeats the setup's lines under 準備（人数と枚数）, the components page counts 11
    pages = [" ".join(t.split()) for t in texts(built / "rulebook.pdf")]
    quick = next(t for t in pages if "早見表" in t and "準備（人数と枚数）" in t)
    after = quick[quick.index("準備（人数と枚数）"):]
    assert "３人：「４人〜」のマークが付いたカード５枚 P.3" in after and "４人：なし P.3" in after, after  # with their page
    assert any("市場カード 11枚" in t for t in pages)
    # a count per player count stops at its line, as the section quotes it
    told = re.search(r"stops at its line: `(.*?)`\)", SAID).group(1)
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("count: 6,", "count: {3: 6, 4: 8},"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    line = next(n for n, text in enumerate(deck.splitlines(), 1) if "count: 6," in text)
    assert f"cards.yaml:{line}:" in err and told in err, err


def test_the_copies_for_more_players_as_a_deck_of_their_own(tmp_path, capsys):
    """The other way: a deck of its own for four players, named so in the draft's components."""
    (name,) = re.findall(r"`name: (市場カード（４人用）)`", SECTION)
    (line,) = re.findall(r"`(◇市場カード（４人用）（５枚）)`", SECTION)
    assert "share_sheets: true" in SAID
    deck = ("name: 市場カード\nlayout: card-poker\npieces:\n"
            "  - {title: 麦畑, count: 6, cost: 1, text: \"**1{vp}**を得る。\"}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=GAME + "share_sheets: true\n")
    (ws / "data" / "test" / "decks" / "market-4p.yaml").write_text(
        f"name: {name}\nlayout: card-poker\npieces:\n  - {{title: 麦畑, count: 2, cost: 1, text: x}}\n"
        "  - {title: 鉱山, count: 3, cost: 2, text: x}\n", encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(
        _draft(f"◇市場カード（６枚）\n　麦畑です。\n\n{line}\n　４人で加えます。\n"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert "count of" not in capsys.readouterr().err  # each deck's count as the draft states it
    pages = [" ".join(t.split()) for t in texts(ws / "build" / "test" / "rulebook.pdf")]
    assert any("市場カード 6枚" in t and f"{name} 5枚" in t for t in pages), pages
    assert (ws / "build" / "test" / "market-4p.pdf").is_file()
