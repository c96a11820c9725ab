"""The quick reference (早見表) against the rules it summarises: each line's page is the page its
words are printed on, not the page of the heading they come under."""

from __future__ import annotations

import re

from conftest import REPO, make_workspace
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook


def _quick_lines(pages: list[str]) -> list[tuple[str, int]]:
    quick = next(p for p in pages if p.lstrip().startswith("早見表") and "●" in p)
    return [(m.group(1).strip(), int(m.group(2))) for m in re.finditer(r"^(.*?)\s+P\.(\d+)\s*$", quick, re.M)]


def test_an_end_sentence_under_a_long_sub_heading_gives_its_own_page(tmp_path):
    """medallions: ●リリース後の処理 on page 5 runs on to page 6, where 「以上を繰り返し…ゲーム終了」
    and the winner stand; the quick reference said P.5 (the sub-heading's page) for both."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    filler = "".join(f"　手番の処理その{i}です。カードを一枚選んで場に出し、効果を適用してください。\n" for i in range(60))
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "２：カードを１枚出す。\n",
        "２：カードを１枚出す。\n◎リリース後の処理\n" + filler
        + "　以上を繰り返し、山が尽きるとゲーム終了となります。\n"
        + "　最終的に最もＶＰの多いプレイヤーがゲームに勝利します。\n"), encoding="utf-8")
    pages = texts(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    lines = dict(_quick_lines(pages))
    heading = next(n for n, p in enumerate(pages, start=1) if "リリース後の処理" in p)
    checked = 0
    for text, page in lines.items():
        if text.startswith(("以上を繰り返し", "最終的に最もＶＰ")):
            checked += 1
            assert page != heading
            assert text[:12] in re.sub(r"\s", "", pages[page - 1]), (text, page)
    assert checked == 2
