"""A heading right above a figure (a section holding only a picture) keeps with it: it never
stands alone at a page's foot with its figure on the next page (JLREQ, W3C, on headings: a heading never ends a page; trial43)."""

from __future__ import annotations

import re

from PIL import Image
from pypdf import PdfReader

from conftest import run


def test_a_section_of_only_a_picture_keeps_its_heading_with_the_picture(drafted):
    """Twelve lines of 概要 leave some 80 mm under them: room for ■　配置図's heading, not for
    its 90 mm picture. The heading goes to the next page with it (it stood alone at the foot)."""
    draft = drafted / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "■　コンポーネント", "　テスト用の小さなゲームです。\n" * 12 + "\n■　配置図\n\n■　コンポーネント"), encoding="utf-8")
    game = drafted / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "rulebook:\n  figures:\n"
                    "    - {after: 配置図, caption: 配置の例, picture: map.png, size: [118, 90]}\n", encoding="utf-8")
    (drafted / "data" / "test" / "art").mkdir(exist_ok=True)
    Image.new("RGB", (1400, 1068), (30, 90, 200)).save(drafted / "data" / "test" / "art" / "map.png")
    assert run(drafted, "rulebook", "--game", "test", "--out", str(drafted / "out")) == 0
    pages = [p.extract_text() or "" for p in PdfReader(drafted / "out" / "test" / "rulebook.pdf").pages]
    body = [i for i, p in enumerate(pages) if "目次" not in p]
    heading = next(i for i in body if re.search(r"2\s*配置図\n", pages[i]))
    figure = next(i for i in body if "図1\u3000配置の例" in pages[i])
    assert heading == figure, (heading, figure)
    assert "ゲームです。" in pages[heading - 1]  # the 概要 it follows, on the page before
