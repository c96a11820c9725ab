"""docs/data-format.md, "Translations on a worksheet of their own": the market deck as written, its
workbook's English worksheet (with headers of its own, in another order) printed in the English
edition."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl

from conftest import GAME_YAML, make_workspace, run
from pdfprobe import texts

REPO = Path(__file__).resolve().parents[1]
DOCS = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")


def test_the_documented_translation_worksheet_builds_the_english_edition(tmp_path, capsys):
    deck = re.search(r"```yaml\n(# data/<slug>/decks/market\.yaml, its workbook .*?)```", DOCS, re.S).group(1)
    game = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ntitle: {ja: 市場, en: Market}")
    ws = make_workspace(tmp_path / "ws", game=game)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    (decks / "market.yaml").write_text(deck, encoding="utf-8")
    book = openpyxl.Workbook()
    cards = book.active
    cards.title = "市場"
    cards.append(["番号", "カード名", "種類", "コスト", "効果", "枚数"])
    cards.append(["M01", "干物", "商品", 1, "魚２つを売り、３コインを得る。", 2])
    cards.append(["M02", "指輪", "商品", 4, "宝石１つを売り、**2{vp}**を得る。", 1])
    english = book.create_sheet("English")
    english.append(["番号", "Effect", "Name", "Type"])
    english.append(["M02", "Sell 1 gem for **2{vp}**.", "Ring", "Goods"])
    english.append(["M01", "Sell 2 fish for 3 coins.", "Dried fish", "Goods"])
    book.save(decks / "market.xlsx")
    assert run(ws, "build", "--game", "test", "--lang", "en", "--no-rulebook") == 0, capsys.readouterr().err
    said = capsys.readouterr().err
    assert "translation" not in said and "〔ja〕" not in said, said
    front = " ".join(texts(ws / "build" / "test" / "en" / "market.pdf")[0].split())  # (lines joined)
    assert front.count("Sell 2 fish for 3 coins.") == 2 and front.count("Sell 1 gem") == 1 and front.count("Goods") == 3, front
    assert "Ring" in front and "干物" not in front and "商品" not in front and "宝石" not in front, front
