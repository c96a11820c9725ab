"""The line grid of the book (行送り): body lines on the grid of their page, measured on the shipped
books with PDFium's character boxes; at most three heading levels; a paragraph taller than a page
flows on to the next ones."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import REPO, make_workspace
from pdfprobe import Glyph, glyphs, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.styles import BODY_LEADING, BODY_SIZE, MARGIN_TOP

GAMES = ["alicematic-eiketsuden", "alicematic-medallions", "asian-delivery", "populous"]
MM = 72 / 25.4
PITCH = BODY_LEADING / MM  # mm
TOP = MARGIN_TOP / MM  # mm from the page top to the frame's top (the grid's line 0)
# a body line's baseline below the top of its grid line: the leading's half-space above the em,
# and the baseline 0.88 em down it (JPara.draw)
BASELINE = (BODY_LEADING - (BODY_LEADING - BODY_SIZE) / 2 - BODY_SIZE * 0.12) / MM
TOLERANCE = 0.05  # mm (a grid line misses by 5.3 mm, a spaceBefore by 1 mm or more)


def body_lines(pdf: Path | bytes) -> list[tuple[int, float, float, str]]:
    """(page, baseline mm from the page top, distance from the nearest grid line in mm, text) of
    every body line: two or more body-size mincho characters the page itself draws on one
    baseline (not the pieces' own text, not notes or the quick reference set smaller)."""
    out = []
    for n, page in enumerate(glyphs(pdf), start=1):
        rows: dict[float, list[Glyph]] = defaultdict(list)
        for g in page:
            if g.on_page and abs(g.size - BODY_SIZE) < 0.05 and "Mincho" in g.font and not g.char.isspace():
                rows[round(g.y, 1)].append(g)
        for row in (rows[y] for y in sorted(rows)):
            if len(row) >= 2:
                y = sum(g.y for g in row) / len(row)
                k = (y - TOP - BASELINE) / PITCH
                out.append((n, y, (k - round(k)) * PITCH, "".join(g.char for g in row)))
    return out


@pytest.mark.parametrize("slug", GAMES)
def test_body_lines_sit_on_the_line_grid(built, slug):
    """≥ 95 % of each book's body lines (in practice all) have their baseline on the page's grid:
    top margin + k × 行送り, on every page, whatever headings, figures and tables stand above."""
    lines = body_lines(built / slug / "rulebook.pdf")
    off = [(p, round(y, 2), round(d, 2), t[:12]) for p, y, d, t in lines if abs(d) > TOLERANCE]
    assert len(lines) > 100
    assert len(off) <= 0.05 * len(lines), off[:10]


@pytest.mark.parametrize("slug", GAMES)
def test_at_most_three_heading_levels(built, slug):
    """The rules (up to the quick reference) are headed at three sizes at most: section, step and
    ◆ sub-heading (components' names at the third); deeper levels are run-in, at the body's size."""
    pages = glyphs(built / slug / "rulebook.pdf")
    quick = next(i for i, text in enumerate(texts(built / slug / "rulebook.pdf")) if i > 2 and "早見表" in text[:40])
    sizes = {round(g.size, 1) for page in pages[2:quick] for g in page
             if g.on_page and "Bold" in g.font and g.size > BODY_SIZE + 0.05}
    assert len(sizes) <= 3, sizes


def test_deeper_draft_levels_are_run_in_headings(built):
    """Populous's ◎ and ● sub-headings open their paragraph in bold, on a body line: the text runs
    on after the lead-in and its ideographic space (the line one marked span, which a viewer copies
    as 「●祝福　民に…」, not with an ASCII space)."""
    bold = {"".join(g.char for g in page if g.on_page and "Bold" in g.font and abs(g.size - BODY_SIZE) < 0.05)
            for page in glyphs(built / "populous" / "rulebook.pdf")}
    assert any("●祝福" in b for b in bold) and any("◎通常配置" in b for b in bold)
    lines = [line.strip() for page in texts(built / "populous" / "rulebook.pdf") for line in page.splitlines()]
    assert any(t.startswith("●祝福\u3000民に祝福を与え") for t in lines), [t for t in lines if "祝福を与え" in t]


SENTENCE = "これは長い段落の{}番目の文で、ページをまたいで「流れる」。"


@pytest.mark.parametrize("where", ["rules", "components"])
def test_a_paragraph_taller_than_a_page_flows_on(tmp_path, where):
    """Issue 23: a paragraph of three pages (inside every documented limit), in the rules or in a
    component's description, is split at line boundaries and continues on the next pages: every
    sentence in order, the pages it needs, each line on the grid, none starting with 、 or 」."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    para = "".join(SENTENCE.format(i) for i in range(130))
    text = draft.read_text(encoding="utf-8")
    text = (text.replace("１：カードを１枚引く。", f"　{para}\n１：カードを１枚引く。") if where == "rules"
            else text.replace("　名前と本文が書かれたカードです。", f"　{para}"))
    draft.write_text(text, encoding="utf-8")
    pdf = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"]
    pages = texts(pdf)
    # (a sentence may run over a page break: the running head and folio between its halves left out)
    body = ["".join(ln for ln in p.splitlines() if "草案" not in ln and not ln.strip().isdigit()) for p in pages]
    found = [int(n) for n in re.findall(r"段落の(\d+)番目", re.sub(r"\s+", "", "".join(body)))]
    assert found == list(range(130))
    spread = [i for i, p in enumerate(pages) if "番目" in p]
    assert len(spread) >= 3 and spread == list(range(spread[0], spread[-1] + 1))
    lines = [(d, t) for _, _, d, t in body_lines(pdf) if "番目" in t or "流れる" in t]
    assert len(lines) > 60 and all(abs(d) <= TOLERANCE for d, _ in lines)
    assert not [t for _, t in lines if t[0] in "、。」）"]  # kinsoku at every line, at the page splits too


def test_no_page_ends_with_a_heading_whose_text_went_on_to_the_next(tmp_path, monkeypatch):
    """A step and its ◆ sub-heading keep their text with them at a page's foot (a designer's book
    left 「◆ コストの支払い」 alone at the foot of a page, its one line on the next: the group was
    measured off the line grid, so it seemed to fit). Eight lines before the steps bring this
    group to that place on the page (found by sweeping 0–15 lines; only 8 lost the heading)."""
    from reportlab.platypus import ActionFlowable, PageBreak, Spacer

    from pnpgen.rulebook import document
    from pnpgen.rulebook.flowables import Heading

    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    steps = ("".join(f"　前置きの文{j}です。\n" for j in range(8))
             + "３：建設\n　手札の建物カードを１枚、コストを支払って建てることができます。\n"
             "◇コストの支払い\n　コストの資源キューブを共通のストックに戻します。\n"
             "４：片付け\n　すべてのワーカーを裏返して「休憩中」にし、手元に戻します。\n")
    draft.write_text(draft.read_text(encoding="utf-8").replace("２：カードを１枚出す。\n", "２：カードを１枚出す。\n" + steps),
                     encoding="utf-8")
    drawn: list[tuple[int, int, bool]] = []  # (pass, page, a heading?)
    after = document.RulebookDoc.afterFlowable

    def seen(self, f):
        if not isinstance(f, (ActionFlowable, PageBreak, Spacer)):  # breaks and spaces draw nothing
            drawn.append((self.passes, self.page, isinstance(f, Heading) or type(f).__name__ == "_Indent"))
        after(self, f)

    monkeypatch.setattr(document.RulebookDoc, "afterFlowable", seen)
    build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts", rules_only=True)
    last = max(p for p, _, _ in drawn)
    ends = {page: heading for p, page, heading in drawn if p == last}  # the last thing drawn on each page
    assert len(ends) >= 3
    assert [page for page in sorted(ends)[:-1] if ends[page]] == []


def test_the_setups_numbered_steps_are_listed_with_the_setup_in_the_quick_reference(tmp_path):
    """A designer's 準備 section numbered its steps: the quick reference listed them under
    ゲームの流れ as if they were the turn's; they go under 準備 now, the turn's steps alone in the flow."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8").replace(
        "■　ゲームの進行", "■　ゲームの準備\n１：山札を作る\n　カードを混ぜて山札にします。\n２：手札を配る\n"
        "　各プレイヤーに５枚ずつ配ります。\n\n■　ゲームの進行")
    draft.write_text(text, encoding="utf-8")
    pages = texts(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    quick = next(p for p in pages if p.lstrip().startswith("早見表") and "●" in p)
    flow = quick[quick.index("ゲームの流れ"):quick.index("準備（人数と枚数）")]
    setup = quick[quick.index("準備（人数と枚数）"):]
    assert "山札を作る" not in flow and "カードを１枚引く" in flow
    assert "山札を作る" in setup and "手札を配る" in setup and "５枚ずつ配ります" in setup


def test_one_big_card_does_not_shrink_every_other_piece_to_a_third(tmp_path):
    """A 名刺 deck (55×91 mm) needs 1/3 to fit the components list's 44 mm; it drew every other
    piece at 1/3 too (25 mm tokens 8 mm across). The pieces that fit at 1/2 share 1/2; the card
    gets its own scale, captioned 「縮尺 1/3」."""
    from conftest import DECK_YAML

    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "decks" / "labels.yaml").write_text(
        DECK_YAML.replace("name: テストカード", "name: 名刺ラベル").replace("format: poker", "size: [55, 91]")
        + "  - {name: 名刺, text: 本文}\n", encoding="utf-8")
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "◇テストカード（１１枚）", "◇名刺ラベル（１枚）\n　名刺の大きさのラベルです。\n\n◇テストカード（１１枚）"), encoding="utf-8")
    from pnpgen.rulebook import pictures_from_game

    game = load_game(Workspace(ws), "test")
    book = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, Workspace(ws).templates))
    flat = re.sub(r"\s", "", "".join(texts(book.files["rulebook.pdf"])))
    assert "図は実物の1/2の大きさです" in flat and "縮尺1/3" in flat, flat[:2000]


@pytest.mark.parametrize("size", ["[2.5in, 3.5in]", "[57, 89]"], ids=["inch poker", "bridge"])
def test_an_inch_poker_card_is_pictured_at_a_half_like_a_poker_card(tmp_path, size):
    """English trial: a 2.5 × 3.5 in card (88.9 mm) missed the 44 mm picture by 0.45 mm at 1/2 and
    was drawn at 1/3 beside pieces at 1/2: every US deck, and a bridge deck, captioned 縮尺 1/3."""
    from pnpgen.rulebook import pictures_from_game

    ws = make_workspace(tmp_path / "ws", draft=True)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("format: poker", f"size: {size}"), encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    book = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, Workspace(ws).templates))
    flat = re.sub(r"\s", "", "".join(texts(book.files["rulebook.pdf"])))
    assert "図は実物の1/2の大きさです" in flat and "縮尺" not in flat, flat[:2000]



def test_a_blank_line_between_a_sections_paragraphs_is_one_grid_line(tmp_path):
    """docs/rulebook.md: a blank line of the draft is one grid line. Between two paragraphs right
    under a section (not a step) it gave none in a Japanese book — the section's blocks were set one
    at a time, so each looked like the first under its heading. A blank line right under the heading
    still adds nothing; one under a step written as a sentence (a numbered line, no heading) is a gap."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "　テスト用の小さなゲームです。２〜４人で遊びます。\n",
        "　第一段落のはじめの文です。\n　第一段落のつづきの文です。\n\n　第二段落の文です。\n").replace(
        "２：カードを１枚出す。\n", "２：カードを１枚出す。\n\n\n　手番を終えたら次の人の番です。\n"), encoding="utf-8")
    pdf = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts", rules_only=True).files["rulebook.pdf"]
    lines = {t: (p, y) for p, y, _, t in body_lines(pdf)}
    key = {k: next(v for t, v in lines.items() if k in t) for k in ("はじめ", "つづき", "第二", "出す", "手番を終")}
    assert key["はじめ"][0] == key["つづき"][0] == key["第二"][0]
    assert key["つづき"][1] - key["はじめ"][1] == pytest.approx(PITCH, abs=TOLERANCE)  # no blank line: the next grid line
    assert key["第二"][1] - key["つづき"][1] == pytest.approx(2 * PITCH, abs=TOLERANCE)  # one blank grid line between
    assert key["手番を終"][1] - key["出す"][1] == pytest.approx(2 * PITCH, abs=TOLERANCE)


def test_a_small_counter_is_pictured_at_actual_size_beside_cards_at_a_half(tmp_path):
    """A wargame's 12.7 mm counters were drawn at the list's 1/2, 6 mm across, their 5 pt text
    2.5 pt: unreadable. A piece no longer than 30 mm is pictured at its actual size (its 5 pt text
    5 pt), captioned 「実物大」, while the cards keep the list's 1/2."""
    from conftest import DECK_YAML
    from pdfprobe import glyphs
    from pnpgen.rulebook import pictures_from_game

    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "templates" / "test" / "counter.svg.j2").write_text(
        '{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
        '{{ textbox(piece.name, 1, 4, w - 2, 5, size=5, align="center") }}\n{% endblock %}\n', encoding="utf-8")
    (ws / "data" / "test" / "decks" / "counters.yaml").write_text(
        DECK_YAML.replace("name: テストカード", "name: 歩兵駒").replace("format: poker", "size: [12.7, 12.7]")
        .replace("front: card-front.svg.j2\nback: card-back.svg.j2", "front: counter.svg.j2")
        + "  - {name: 歩兵, text: x}\n", encoding="utf-8")
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "◇テストカード（１１枚）", "◇歩兵駒（１個）\n　歩兵の駒です。\n◇テストカード（１１枚）"), encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    pdf = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, Workspace(ws).templates)).files["rulebook.pdf"]
    flat = re.sub(r"\s", "", "".join(texts(pdf)))
    assert "図は実物の1/2の大きさです" in flat and "実物大" in flat.split("歩兵駒", 1)[1][:40], flat[:2000]
    page = next(i for i, text in enumerate(texts(pdf)) if "歩兵の駒です" in text)  # the components list's
    drawn = [g.size for g in glyphs(pdf)[page] if not g.on_page and g.char == "歩"]
    assert drawn and all(abs(size - 5) < 0.3 for size in drawn), drawn  # 2.5 at the list's 1/2
