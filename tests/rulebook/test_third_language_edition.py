"""An edition in a language pnpgen has no labels for (a German edition of a Japanese game,
``languages: [ja, en, de]``, ``--lang de``) gets English labels, as an English edition does, and
sets them as English: its sheet headers and page labels, PDF titles and outlines, the bill of
materials, the rulebook's cover, running heads and appendix are the English edition's word for
word, given the same texts (left49: the book's English notes were hyphenated by German's
dictionary, so the German book broke its lines elsewhere than the English one)."""

from __future__ import annotations

import re

from pypdf import PdfReader

from conftest import run

BUILD = ("build", "--game", "kingdom", "-q")
FILES = ("cards.pdf", "tokens.pdf", "kingdom-all.pdf", "rulebook.pdf", "rulebook-booklet.pdf", "shop/cards.pdf",
         "shop/cards-unique.pdf")
KANA_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _game(tmp_path):
    """``pnpgen new``'s game in Japanese, its texts in English and German alike, each edition a
    draft of its own (the English one ``pnpgen new --lang en`` writes)."""
    english = tmp_path / "english"
    english.mkdir()
    assert run(english, "new", "kingdom", "--title", "Kingdom", "--lang", "en", "--kind", "cards", "--kind", "tokens") == 0
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run(ws, "new", "kingdom", "--title", "王国", "--kind", "cards", "--kind", "tokens") == 0
    game = ws / "data" / "kingdom"
    text = (game / "game.yaml").read_text(encoding="utf-8").replace('title: "王国"', "title: {ja: 王国, en: Kingdom, de: Kingdom}")
    fonts = "{gothic: NotoSans-Regular, bold: NotoSans-Bold, mincho: NotoSerif-Regular}"
    (game / "game.yaml").write_text(text + f"languages: [ja, en, de]\nfonts:\n  en: {fonts}\n  de: {fonts}\n", encoding="utf-8")
    for deck, words in (("cards", {"name: カード": "Cards", "title: カード１": "Card 1", "title: カード２": "Card 2",
                                   "text: 未定（効果を書いてください）": "Effect", "flavour: 未定（一言を書いてください）": "Line"}),
                        ("tokens", {"name: トークン": "Tokens", "title: トークン,": "Token"})):
        path = game / "decks" / f"{deck}.yaml"
        text = path.read_text(encoding="utf-8")
        for was, said in words.items():
            key, _, ja = was.partition(": ")
            comma = "," if ja.endswith(",") else ""
            text = text.replace(was, f"{key}: {{ja: {ja.rstrip(',')}, en: {said}, de: {said}}}{comma}")
        path.write_text(text, encoding="utf-8")
    draft = (english / "data" / "kingdom" / "draft.txt").read_text(encoding="utf-8")
    for lang in ("en", "de"):
        (game / f"draft.{lang}.txt").write_text(draft, encoding="utf-8")
    return ws


def _said(pdf) -> dict:
    """What a PDF says: its title, page labels, outline and each page's words."""
    reader = PdfReader(pdf)
    return {"title": reader.metadata.title, "labels": list(reader.page_labels),
            "outline": [item.title for item in reader.outline if not isinstance(item, list)],
            "pages": [page.extract_text().replace("draft.de.txt", "draft.en.txt") for page in reader.pages]}


def test_a_german_edition_says_what_the_english_one_says_in_english(tmp_path):
    ws = _game(tmp_path)
    for lang in ("en", "de"):
        assert run(ws, *BUILD, "--lang", lang) == 0
    out = ws / "build" / "kingdom"
    for name in FILES:
        en, de = _said(out / "en" / name), _said(out / "de" / name)
        assert de == en, name
        assert not any(KANA_KANJI.search(page) for page in de["pages"]), (name, de["pages"])
    bom = _said(out / "de" / "kingdom-all.pdf")["pages"][-1]
    assert "Bill of materials" in bom and "Cards (cards)" in bom, bom
    heads = _said(out / "de" / "rulebook.pdf")["pages"]
    assert any(re.search(r"Kingdom\s+Draft 1\s+Overview", page) for page in heads), heads  # a running head
