"""A deck's translations on a worksheet of their own (trial82: a designer kept the 60 market cards
on a worksheet 市場 and their English texts on a second worksheet, English, and the docs had no way
to read it): ``pieces: {…, translations: {en: {sheet: English, columns: {…}}}}``, each row matched
by its first column, every mistake told at its own cell of its own worksheet."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from conftest import GAME_YAML, make_workspace, run
from pdfprobe import texts

GAME = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ntitle: {ja: テストゲーム, en: Test Game}")
DECK = """\
name: {ja: 市場カード, en: Market cards}
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields: {number: text, name: text, text: text}
pieces:
  file: market.xlsx
  sheet: 市場
  columns: {番号: number, カード名: name, 効果: text, 枚数: count}
  translations:
    en: {sheet: English, columns: {番号: number, Card: name, Effect: text}}
"""
CARDS = [("M01", "干物", "魚を売る。", 2, "Dried fish", "Sell fish."),
         ("M02", "胡椒", "香辛料を売る。", 1, "Pepper", "Sell spice."),
         ("M03", "指輪", "宝石を売る。", 3, "Ring", "Sell a gem.")]


def workspace(root: Path, english: list[tuple] | None = None, deck: str = DECK, cards: list[tuple] = CARDS) -> Path:
    ws = make_workspace(root, deck=deck, game=GAME)
    book = openpyxl.Workbook()
    sheet_of_cards = book.active
    sheet_of_cards.title = "市場"
    sheet_of_cards.append(["番号", "カード名", "効果", "枚数"])
    for number, name, text, count, _, _ in cards:
        sheet_of_cards.append([number, name, text, count])
    sheet = book.create_sheet("English")
    sheet.append(["番号", "Card", "Effect"])
    for row in english if english is not None else [(c[0], c[4], c[5]) for c in reversed(CARDS)]:
        sheet.append(list(row))
    book.save(ws / "data" / "test" / "decks" / "market.xlsx")
    (ws / "data" / "test" / "decks" / "cards.yaml").rename(ws / "data" / "test" / "decks" / "market.yaml")
    return ws


def test_the_english_edition_reads_its_texts_from_the_english_worksheet(tmp_path, capsys):
    """The rows of English, in another order than 市場's, translate the cards their 番号 names: the
    English edition prints Pepper once, Ring three times; the Japanese edition is as without them."""
    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--lang", "en") == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "translation" not in err and "〔ja〕" not in err, err
    english = texts(ws / "build" / "test" / "en" / "market.pdf")[0]  # the fronts' page
    assert (english.count("Dried fish"), english.count("Pepper"), english.count("Ring")) == (2, 1, 3), english
    assert english.count("a gem.") == 3 and "干物" not in english and "宝石" not in english, english
    assert run(ws, "build", "--game", "test") == 0, capsys.readouterr().err
    japanese = texts(ws / "build" / "test" / "market.pdf")[0]
    assert japanese.count("指輪") == 3 and "Ring" not in japanese, japanese


def test_an_empty_cell_of_the_english_worksheet_is_a_missing_translation_told_at_that_cell(tmp_path, capsys):
    ws = workspace(tmp_path / "ws", english=[("M01", "Dried fish", "Sell fish."), ("M02", "Pepper", None),
                                             ("M03", "Ring", "Sell a gem.")])
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    err = capsys.readouterr().out
    assert "market.xlsx:3:3 in worksheet English: pieces.2.text.en: no en translation; printed in ja marked 〔ja〕" \
        in err, err


@pytest.mark.parametrize("english, said", [
    # a row naming no card of 市場: at its first cell
    ([("M01", "Dried fish", "Sell fish."), ("M09", "Pepper", "Sell spice.")],
     "market.xlsx:3:1: 番号 (column A) in worksheet English: 'M09' names no card of worksheet 市場 (expected one of "
     "the 番号 values of worksheet 市場, the card this row translates)"),
    # a card translated twice
    ([("M01", "Dried fish", "Sell fish."), ("M01", "Fish", "Sell.")],
     "market.xlsx:3:1: 番号 (column A) in worksheet English: 'M01' is translated twice, in rows 2 and 3"),
    # no number: the English names first, which name no card of 市場 (told to put the number first, not
    # to write the Japanese name there)
    ([("Dried fish", "Sell fish."), ("Pepper", "Sell spice.")],
     "market.xlsx:1:1: 番号 (column A) in worksheet English: no value of its first column, 番号, names a card of "
     "worksheet 市場: the first column says which card each row translates, by a value the same in both sheets "
     "(expected a first column holding each card's 番号, as worksheet 市場 does"),
    # a mistake in a translated text: at its cell of English, not 市場's
    ([("M01", "Dried fish", "Sell {sheild}.")], "market.xlsx:2:3: Effect (column C) in worksheet English: unknown icon {sheild}"),
])
def test_a_mistake_in_the_english_worksheet_is_told_at_its_cell(tmp_path, capsys, english, said):
    ws = workspace(tmp_path / "ws", english=english)
    assert run(ws, "check", "--game", "test", "--lang", "en") == 2
    err = capsys.readouterr()
    assert said in err.err + err.out, err
    assert "Traceback" not in err.err


@pytest.mark.parametrize("change, said", [
    ("en: {sheet: English,", "market.yaml:11:5: pieces.translations.fr: 'fr' is not one of the game's languages "
     "besides ja (languages: [ja, en])"),
    ("en: {sheet: Englsh,", "market.yaml:11:17: pieces.translations.en.sheet: no worksheet 'Englsh' in market.xlsx (expected one of 市場, English)"),
])
def test_a_mistake_in_the_translations_line_is_told_at_its_line(tmp_path, capsys, change, said):
    deck = DECK.replace("en: {sheet: English,", change.replace("en: {sheet: English,", "fr: {sheet: English,")
                        if "Englsh" not in change else change)
    ws = workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test", "--lang", "en") == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


def test_a_worksheet_named_alone_reads_headers_that_are_the_fields_names(tmp_path, capsys):
    """``translations: {en: English}``: the worksheet alone, its headers the fields' own names."""
    deck = DECK.replace("    en: {sheet: English, columns: {番号: number, Card: name, Effect: text}}\n", "    en: English\n")
    ws = workspace(tmp_path / "ws", english=[("number", "name", "text"), ("M03", "Ring", "Sell a gem.")])
    (ws / "data" / "test" / "decks" / "market.yaml").write_text(deck, encoding="utf-8")
    book = openpyxl.load_workbook(ws / "data" / "test" / "decks" / "market.xlsx")
    book["English"].delete_rows(1)  # the row of the default headers (番号, Card, Effect) gone: number, name, text head it
    book.save(ws / "data" / "test" / "decks" / "market.xlsx")
    assert run(ws, "build", "--game", "test", "--lang", "en") == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "market.xlsx:2 in worksheet 市場: pieces.1.name.en: no en translation; printed in ja marked 〔ja〕" in err, err
    front = "".join(texts(ws / "build" / "test" / "en" / "market.pdf")[0].split())
    assert front.count("Ring") == 3 and "指輪" not in front and front.count("〔ja〕干物") == 2, front


def test_a_changed_english_text_is_named_by_its_header_on_the_english_worksheet(tmp_path, capsys):
    """pnpgen diff's changelog names a text edited on the English worksheet by that sheet's header
    (``Effect``), as it names one of the card sheet by its own (``効果``), not as ``text.en``."""
    ws = workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0, capsys.readouterr().err
    book = openpyxl.load_workbook(ws / "data" / "test" / "decks" / "market.xlsx")
    book["English"]["C2"] = "Sell two gems."  # (M03's row: English lists the cards last first)
    book.save(ws / "data" / "test" / "decks" / "market.xlsx")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0, capsys.readouterr().err
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "v1", "latest") == 0
    out = capsys.readouterr().out
    assert "- 指輪：Effect：“Sell a gem.” → “Sell two gems.”" in out, out


def test_the_english_editions_change_line_names_an_english_text_by_the_english_header(tmp_path, capsys):
    """``build --lang en``'s change line names a text edited on the English worksheet by that
    worksheet's header (``Ring: Effect``), as ``diff --lang en`` does, not by the card sheet's
    (``効果``); the Japanese edition's line keeps its own (``指輪: 効果``)."""
    ws = workspace(tmp_path / "ws")
    for lang in (["--lang", "en"], []):
        assert run(ws, "build", "--game", "test", "--no-rulebook", *lang) == 0, capsys.readouterr().err
    book = openpyxl.load_workbook(ws / "data" / "test" / "decks" / "market.xlsx")
    book["English"]["C2"] = "Sell two gems."  # (M03's row: English lists the cards last first)
    book["市場"]["C4"] = "宝石を二つ売る。"  # M03's Japanese text
    book.save(ws / "data" / "test" / "decks" / "market.xlsx")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en") == 0
    err = capsys.readouterr().out
    assert "(Ring: Effect)" in err and "効果" not in err, err
    assert run(ws, "diff", "--game", "test", "--lang", "en", "v1", "latest") == 0
    assert "- Ring: Effect: “Sell a gem.” → “Sell two gems.”" in capsys.readouterr().out
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().out
    assert "(指輪: 効果, Effect)" in err, err


def test_the_english_editions_change_line_names_a_translation_column_by_its_header(tmp_path, capsys):
    """A translation in a column beside its text (``Effect: text.en``): the English edition's
    change line names an edit of it ``Effect``, the column the designer edited."""
    deck = DECK.replace("    en: {sheet: English, columns: {番号: number, Card: name, Effect: text}}\n", "") \
        .replace("  translations:\n", "").replace("効果: text, 枚数: count}", "効果: text, 枚数: count, Effect: text.en}")
    ws = workspace(tmp_path / "ws", deck=deck)
    book = openpyxl.load_workbook(ws / "data" / "test" / "decks" / "market.xlsx")
    del book["English"]
    sheet = book["市場"]
    sheet["E1"] = "Effect"
    for row, card in enumerate(CARDS, 2):
        sheet.cell(row, 5, card[5])
    book.save(ws / "data" / "test" / "decks" / "market.xlsx")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en") == 0, capsys.readouterr().err
    sheet["E4"] = "Sell two gems."
    book.save(ws / "data" / "test" / "decks" / "market.xlsx")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en") == 0
    err = capsys.readouterr().out
    assert "(指輪: Effect)" in err, err


def test_a_row_without_a_number_translates_no_card_without_one(tmp_path, capsys):
    """A card of 市場 without its 番号 (not numbered yet) and a row of English without one (its
    number not typed): the row was taken as that card's translation, the last such card's, without
    a word: it names no card."""
    cards = [CARDS[0], (None, *CARDS[1][1:]), CARDS[2]]
    ws = workspace(tmp_path / "ws", english=[("M01", "Dried fish", "Sell fish."), (None, "Ring", "Sell a gem."),
                                             ("M03", "Ring", "Sell a gem.")], cards=cards)
    assert run(ws, "check", "--game", "test", "--lang", "en") == 2
    err = capsys.readouterr()
    assert "market.xlsx:3:1: 番号 (column A) in worksheet English: the row names no card" in err.err, err
