"""Japanese in an English rulebook prints: a character the book's Latin font lacks (a Japanese
name in the data, a Japanese word in the draft) is drawn by the game's ``fallback_fonts``, else by the
replaced Japanese face, else BIZ UD, character by character as card text is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import REPO
from pdfprobe import glyphs, texts
from pnpgen import fonts as fontreg
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook, pictures_from_game

SLUG = "alicematic-medallions"
LINE_END_HYPHEN = "\ufffe"  # pdfium's reading of the hyphen drawn at a hyphenated line's end


def medallions(root: Path, fallback_fonts: str | None = None) -> Path:
    """The real game in English, its player count 未定 and Japanese words in its draft."""
    shutil.copytree(REPO / "data" / SLUG, root / "data" / SLUG)
    shutil.copytree(REPO / "templates" / SLUG, root / "templates" / SLUG)
    (root / "fonts").symlink_to(REPO / "fonts")
    game = root / "data" / SLUG / "game.yaml"
    yaml = game.read_text(encoding="utf-8").replace("\nplayers: 3-5", "\nplayers: 未定", 1)
    if fallback_fonts:
        yaml += f"\nfallback_fonts: [{fallback_fonts}]\n"
    game.write_text(yaml, encoding="utf-8")
    draft = root / "data" / SLUG / "draft.en.txt"
    text = draft.read_text(encoding="utf-8")
    assert "\n## Components\n" in text
    draft.write_text(text.replace("\n## Components\n", "\nThe seal is called 封印 (fūin); see 【封印】.\n\n"
                                  "### 刻印 marks\n\nEach mark counts once.\n\n## Components\n", 1), encoding="utf-8")
    return root


def book(ws: Path) -> bytes:
    game = load_game(Workspace(ws), SLUG, lang="en")
    return build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws / "templates")).files["rulebook.pdf"]


def drawn(pdf: bytes) -> list:
    """The book's own text (not the cards' art), each character with the font that draws it."""
    out = [g for page in glyphs(pdf) for g in page
           if g.on_page and not g.char.isspace() and g.char != LINE_END_HYPHEN]
    for font in {g.font for g in out}:
        fontreg.locate(font, REPO / "fonts")  # a font pnpgen knows, so has_glyph can read it
    return out


def missing(chars: list) -> list[tuple[str, str]]:
    """(character, font) of what is drawn blank: a glyph the font lacks (it extracts as nothing)."""
    return [(g.char, g.font) for g in chars if len(g.char) != 1 or not fontreg.has_glyph(g.font, g.char)]


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> bytes:
    return book(medallions(tmp_path_factory.mktemp("fallback") / "ws"))


def test_every_character_of_an_english_book_is_drawn_by_a_font_that_has_it(english):
    chars = drawn(english)
    assert not missing(chars)
    flat = "".join(texts(english))
    for japanese in ("封印", "see 封印.", "刻印"):  # an English book prints 【封印】 as the term alone
        assert japanese in flat, japanese
    assert "TBD" in flat and "未定" not in flat  # the data's 未定, as the English edition says it
    # the Latin text stays in the book's own faces; only the Japanese falls back
    assert {g.font for g in chars if g.char in "封印刻"} <= {"BIZUDPMincho-Regular", "BIZUDPGothic-Regular",
                                                                "BIZUDPGothic-Bold"}
    assert {g.font for g in chars if g.char.isascii() and g.char.isalpha()} <= {
        "NotoSerif-Regular", "NotoSans-Regular", "NotoSans-Bold"}


def test_the_games_fallback_fonts_come_before_biz_ud(tmp_path):
    pdf = book(medallions(tmp_path / "ws", fallback_fonts="BIZUDGothic-Regular"))
    chars = drawn(pdf)
    assert not missing(chars)
    assert {g.font for g in chars if g.char in "封印未定"} == {"BIZUDGothic-Regular"}
