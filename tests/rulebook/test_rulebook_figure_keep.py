"""A heading right above a figure (a section holding only a picture) keeps with it: it never
stands alone at a page's foot with its figure on the next page (JLREQ, W3C, on headings: a heading never ends a page; trial43)."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
from PIL import Image
from pypdf import PdfReader

from conftest import run


def _book_with_a_figure(drafted, section: str, after: str) -> None:
    """The test game's book with twelve more lines of 概要, ``section`` after them, and a 90 mm
    picture after the heading ``after``."""
    draft = drafted / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "■　コンポーネント", "　テスト用の小さなゲームです。\n" * 12 + section + "\n■　コンポーネント"), encoding="utf-8")
    game = drafted / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "rulebook:\n  figures:\n"
                    f"    - {{after: {after}, caption: 配置の例, picture: map.png, size: [118, 90]}}\n", encoding="utf-8")
    (drafted / "data" / "test" / "art").mkdir(exist_ok=True)
    Image.new("RGB", (1400, 1068), (30, 90, 200)).save(drafted / "data" / "test" / "art" / "map.png")
    assert run(drafted, "rulebook", "--game", "test", "--out", str(drafted / "out")) == 0


def test_a_section_of_only_a_picture_keeps_its_heading_with_the_picture(drafted):
    """Twelve lines of 概要 leave some 80 mm under them: room for ■　配置図's heading, not for
    its 90 mm picture. The heading goes to the next page with it (it stood alone at the foot)."""
    _book_with_a_figure(drafted, "\n■　配置図\n", after="配置図")
    pages = [p.extract_text() or "" for p in PdfReader(drafted / "out" / "test" / "rulebook.pdf").pages]
    body = [i for i, p in enumerate(pages) if "目次" not in p]
    heading = next(i for i in body if re.search(r"2\s*配置図\n", pages[i]))
    figure = next(i for i in body if "図1\u3000配置の例" in pages[i])
    assert heading == figure, (heading, figure)
    assert "ゲームです。" in pages[heading - 1]  # the 概要 it follows, on the page before


def test_a_figure_missing_the_page_floats_to_the_next_page_head_and_the_text_after_it_fills_the_page(drafted):
    """Twelve lines of 概要 leave some 80 mm: not the room of its 90 mm figure. The figure goes to
    the next page's head and the sections after it fill the page, as a typesetter floats a figure
    (populous' page 7 stood half empty, 図1 waiting for page 8): the first lines of ■　遊び方 stand
    under 概要 on its page, its last ones after the figure."""
    _book_with_a_figure(drafted, "\n■　遊び方\n" + "".join(f"　遊び方の{n}行目です。\n" for n in range(1, 21)), after="概要")
    reader = PdfReader(drafted / "out" / "test" / "rulebook.pdf")
    pages = [p.extract_text() or "" for p in reader.pages]
    body = [i for i, p in enumerate(pages) if "目次" not in p]
    text = next(i for i in body if "ゲームです。" in pages[i])
    figure = next(i for i in body if "図1\u3000配置の例" in pages[i])
    assert figure == text + 1
    assert re.search(r"2\s*遊び方", pages[text])  # the next section fills the page the figure missed
    def line(n: int) -> str:
        return rf"遊び方の\s*{n}\s*行目"

    filled = [n for n in range(1, 21) if re.search(line(n), pages[text])]
    assert len(filled) > 5 and filled == list(range(1, len(filled) + 1)) and len(filled) < 20
    after = pages[figure]
    assert after.index("配置の例") < re.search(line(len(filled) + 1), after).start()  # the figure heads its page
    page = pdfium.PdfDocument(drafted / "out" / "test" / "rulebook.pdf")[figure]
    textpage = page.get_textpage()
    at = textpage.get_text_range().index("図1")
    caption_mm = (page.get_height() - textpage.get_charbox(at)[3]) / 72 * 25.4
    assert caption_mm < 19 + 90 + 9, caption_mm  # under its 90 mm picture on the first line (19 mm margin; a line down: 121)
