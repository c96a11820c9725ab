"""Lists in a draft: bullets nested under a bullet (``　・`` under ``・``; ``  - `` under ``- ``) and
items marked ``a)``, ``（１）``, ``①`` (``(a)``, ``(1)``) were flattened — nested bullets set as
paragraphs that began 「・」, ``a) …`` lines as a diagram in a box, ``（１）`` items wrapping under
their mark — and a list broke anywhere across pages, its first or last item alone there."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import DRAFT, make_workspace
from pdfprobe import glyphs, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.tree import Bullet, DraftParagraph

PT_MM = 25.4 / 72
LISTS = """２：カードを１枚出す。
　手番では次のどれかを行います。
・カードを引く
　・山札から引く
　・捨て札から引く場合は、一番上のカードを引きます。引いたカードは手札に加え、次の手番まで誰にも見せません。
・カードを出す
（１）最初の処理
（２）次の処理。長い文章が続きます。長い文章が続きます。長い文章が続きます。長い文章が続きます。
a) 手札から出す
①一番目の効果
　以上です。
　①のエリアボードを中央に置きます。
"""
ENGLISH = """# T (Draft 1)

## Playing the game

On your turn:
- Draw a card
  - from the deck
  - or from the discard pile, which is a long
    line that goes on.
- Play a card
a) first thing
(1) one

More text.
"""


def test_nested_bullets_and_marked_items_are_read_as_lists():
    doc = parse(DRAFT.replace("２：カードを１枚出す。\n", LISTS))
    blocks = doc.sections[2].children[1].children
    assert [(type(b).__name__, getattr(b, "mark", ""), getattr(b, "level", None), b.text[:6]) for b in blocks] == [
        ("DraftParagraph", "", None, "手番では次の"), ("Bullet", "", 0, "カードを引く"), ("Bullet", "", 1, "山札から引く"),
        ("Bullet", "", 1, "捨て札から引"), ("Bullet", "", 0, "カードを出す"), ("Bullet", "（１）", 0, "最初の処理"),
        ("Bullet", "（２）", 0, "次の処理。長"), ("Bullet", "a)", 0, "手札から出す"), ("Bullet", "①", 0, "一番目の効果"),
        ("DraftParagraph", "", None, "以上です。"), ("DraftParagraph", "", None, "①のエリアボ")]  # (no list: a paragraph)
    english = parse(ENGLISH, "en").sections[0].children
    assert [(getattr(b, "mark", ""), getattr(b, "level", None), b.text) for b in english if isinstance(b, Bullet)] == [
        ("", 0, "Draw a card"), ("", 1, "from the deck"), ("", 1, "or from the discard pile, which is a long line that goes on."),
        ("", 0, "Play a card"), ("a)", 0, "first thing"), ("(1)", 0, "one")]
    assert isinstance(english[-1], DraftParagraph)


DEEP = """２：カードを１枚出す。
・一段
　・二段
　　・三段
　　　a) 四段
　　　　　　　　　　・九段（六段まで）
　・二段に戻る
・配置
　　・　◆　・
　　□□□
"""


def test_a_list_nests_as_deep_as_its_indent_and_a_diagram_under_it_stays_one():
    """hostile10: an item indented two full-width spaces under a nested one (a third level) was
    read as a diagram (a grey box of monospaced lines, off the list). Each full-width space is a
    level, one deeper than the item above at most, six at most; a map under an item is a diagram."""
    blocks = parse(DRAFT.replace("２：カードを１枚出す。\n", DEEP)).sections[2].children[1].children
    assert [(type(b).__name__, getattr(b, "mark", ""), getattr(b, "level", None)) for b in blocks] == [
        ("Bullet", "", 0), ("Bullet", "", 1), ("Bullet", "", 2), ("Bullet", "a)", 3), ("Bullet", "", 4),
        ("Bullet", "", 1), ("Bullet", "", 0), ("Preformatted", "", None)], blocks
    english = "# T (Draft 1)\n\n## Play\n\n- one\n  - two\n    - three\n        - four\n  - two again\n- back\n"
    assert [b.level for b in parse(english, "en").sections[0].children] == [0, 1, 2, 3, 1, 0]  # (three was two)


def _book(root: Path, draft: str) -> bytes:
    ws = make_workspace(root, draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    return build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True).files["rulebook.pdf"]


def _lines(page) -> list[tuple[float, float, str]]:
    """(y, x of the first glyph, text) of each line of a page's body, in mm, top to bottom."""
    rows: dict[float, list] = {}
    for g in page:
        if g.char.strip() and 20 < g.y < 190:  # (not the running head nor the folio)
            rows.setdefault(round(g.y, 1), []).append(g)
    return [(y, min(g.x for g in gs), "".join(g.char for g in sorted(gs, key=lambda g: g.x))) for y, gs in sorted(rows.items())]


def test_a_nested_item_hangs_under_its_parents_text_and_a_marked_items_lines_align(tmp_path):
    pages = glyphs(_book(tmp_path / "ws", DRAFT.replace("２：カードを１枚出す。\n", LISTS)))
    lines = [line for page in pages[2:] for line in _lines(page)]
    at = {text: x for _, x, text in lines}
    x = lambda start: next(v for text, v in at.items() if text.startswith(start))  # noqa: E731
    assert x("・山札から引く") == pytest.approx(x("・カードを引く") + 9 * 1.1 * PT_MM, abs=0.2)  # ・ under its parent's text
    second = next(i for i, (_, _, text) in enumerate(lines) if text.startswith("・捨て札")) + 1
    assert lines[second][1] == pytest.approx(x("・山札から引く") + 9 * 1.1 * PT_MM, abs=0.2)  # its wrapped line
    after = next(i for i, (_, _, text) in enumerate(lines) if text.startswith("（２）")) + 1
    row = next(sorted((g for g in page if abs(g.y - y) < 0.05), key=lambda g: g.x)
               for page in pages[2:] for y, _, text in _lines(page) if text.startswith("（２）"))
    first_text = next(g.x for g in row if g.char == "次")  # the text after the mark, on the item's first line
    assert lines[after][1] == pytest.approx(first_text, abs=0.05)  # （２）'s lines aligned after its mark
    assert "a)手札から出す" in at and "①一番目の効果" in at  # a line of the text, not a diagram's


def test_a_list_never_leaves_its_first_or_last_item_alone_on_a_page(tmp_path):
    blocks = "".join("　" + "ルールの文章です。" * (k * 2 + 1) + "\n" + "".join(f"・第{k}組の{n}\n" for n in "一二三四")
                     for k in range(1, 25))
    draft = DRAFT.replace("１：カードを１枚引く。", "１：カードを引く").replace("２：カードを１枚出す。\n", "２：カードを出す\n" + blocks)
    pages = glyphs(_book(tmp_path / "ws", draft))  # (steps as headings: a section's steps are of one kind)
    split = 0
    for page in pages[2:]:
        lines = [text for _, _, text in _lines(page)]
        if not lines:
            continue
        assert not lines[0].endswith("の四") and not lines[-1].endswith("の一"), lines
        split += lines[-1].endswith(("の二", "の三")) or lines[0].endswith(("の二", "の三"))
    assert split  # (some list does break across a page, between its second and third items)


def test_a_marked_item_is_read_by_the_quick_reference_as_the_line_it_was():
    """``①各プレイヤーに５枚ずつ配ります。`` in the setup was a line of text the quick reference read
    (a hand dealt); read as a list's item, it still is."""
    from pnpgen.rulebook.quickref import quick_reference

    doc = parse(DRAFT.replace("■　ゲームの進行", "■　ゲームの準備\n\n①各プレイヤーに５枚ずつ配ります。\n\n■　ゲームの進行"))
    assert [line.text for line in quick_reference(doc.rules, False).setup] == ["①各プレイヤーに５枚ずつ配ります。"]


CASES = """２：カードを１枚出す。
５．２　支配地域
５．２．１　敵ユニットに隣接するヘクスに入ったユニットは、そこで移動を終えます。長い文章が続きます。長い文章が続きます。
５．２．２　支配地域から支配地域へ直接移動することはできません。
　１．５倍の移動力を持つユニットもいます。
"""


def test_a_rule_case_numbered_like_5_2_1_is_an_item_hanging_after_its_number(tmp_path):
    """A wargame trial: the rule cases ``５．２．１　敵ユニットに…`` (a wargame's numbered rules) were
    paragraphs, a case's second line starting under its number. A case number (two to four
    numbers parted by full stops, then a space) marks an item whose lines align after it; ``１．５倍``
    is a number in the text."""
    blocks = parse(DRAFT.replace("２：カードを１枚出す。\n", CASES)).sections[2].children[1].children
    assert [(type(b).__name__, getattr(b, "mark", ""), b.text[:4]) for b in blocks] == [
        ("Bullet", "５．２", "支配地域"), ("Bullet", "５．２．１", "敵ユニッ"), ("Bullet", "５．２．２", "支配地域"),
        ("DraftParagraph", "", "１．５倍")], blocks
    pages = glyphs(_book(tmp_path / "ws", DRAFT.replace("２：カードを１枚出す。\n", CASES)))
    lines = [line for page in pages[2:] for line in _lines(page)]
    # (its number printed half-width, as the book's numbers are)
    after = next(i for i, (_, _, text) in enumerate(lines) if text.startswith("5.2.1")) + 1
    row = next(sorted((g for g in page if abs(g.y - y) < 0.05), key=lambda g: g.x)
               for page in pages[2:] for y, _, text in _lines(page) if text.startswith("5.2.1"))
    assert lines[after][1] == pytest.approx(next(g.x for g in row if g.char == "敵"), abs=0.05)  # aligned after 5.2.1


def test_an_english_rule_case_is_an_item_hanging_after_its_number():
    """The English translation of the wargame trial's rules: ``5.2.2 A unit may not move…`` wrapped
    under its number as a paragraph; a case of three or four numbers marks an item (``5.1 Movement``
    stays a sub-heading, and a wrapped line starting ``1.5 times`` goes on with its paragraph)."""
    english = ("# T (Draft 1)\n\n## Movement\n\n5.1 Movement Points\n5.1.1 A unit may move up to its points.\n"
               "5.1.2 Terrain costs follow the chart; a road costs,\n  1.5 times less than clear terrain.\n")
    blocks = parse(english, "en").sections[0].children
    assert [(type(b).__name__, getattr(b, "mark", ""), b.text) for b in blocks[0].children] == [
        ("Bullet", "5.1.1", "A unit may move up to its points."),
        ("Bullet", "5.1.2", "Terrain costs follow the chart; a road costs, 1.5 times less than clear terrain.")], blocks
    assert blocks[0].text == "5.1 Movement Points"


def test_an_english_rule_case_wrapped_without_punctuation_is_an_item_not_a_sub_heading():
    """A hard-wrapped rule case whose first line ends on no punctuation (``…and a road costs``,
    the rest below) was read as a level-2 sub-heading titled with half a sentence; one starting
    in lower case too. A short numbered title over a blank line, or over the next case, stays a
    sub-heading."""
    english = ("# T (Draft 1)\n\n## Movement\n\n5.1 Movement Points\n5.1.1 A unit may move up to its points.\n"
               "5.1.2 Terrain costs follow the chart, and a road costs\none point less than clear terrain.\n"
               "5.1.3 units in a town\nmay not move.\n\n5.2 Zones of Control\n\n5.2.1 Entering a Zone\n\n"
               "A unit stops.\n")
    section = parse(english, "en").sections[0]
    first = section.children[0]
    assert first.text == "5.1 Movement Points"
    assert [(type(b).__name__, getattr(b, "mark", ""), b.text) for b in first.children] == [
        ("Bullet", "5.1.1", "A unit may move up to its points."),
        ("Bullet", "5.1.2", "Terrain costs follow the chart, and a road costs one point less than clear terrain."),
        ("Bullet", "5.1.3", "units in a town may not move.")], first.children
    zoc = section.children[1]
    assert zoc.text == "5.2 Zones of Control"
    assert [(type(b).__name__, b.text) for b in zoc.children][:1] == [("Subheading", "5.2.1 Entering a Zone")], zoc.children


def test_an_english_rule_case_of_two_numbers_written_as_a_sentence_is_an_item():
    """editor7: ``5.3 A unit that ends its move beside an enemy unit must`` wrapped over ``Stop and
    fight.`` (a capital under it) was the sub-heading “5.3 A unit that … must”, and ``5.4 A unit in a
    town may not move.`` a paragraph with its number in the text. Both are cases hanging after their
    number; the titles ``5.1 Movement Points`` and ``5.5 Combat`` over their text stay sub-headings.
    5.3 and 5.4 are no cases of 5.1: they stand beside its sub-heading, not under it (trial49)."""
    english = ("# T (Draft 1)\n\n## Movement\n\n5.1 Movement Points\nA unit moves up to its points.\n\n"
               "5.3 A unit that ends its move beside an enemy unit must\nStop there and fight in the combat phase.\n"
               "5.4 A unit in a town may not move.\n\n5.5 Combat\nUnits beside an enemy attack it.\n")
    section = parse(english, "en").sections[0]
    assert [(type(b).__name__, getattr(b, "mark", ""), b.text) for b in section.children] == [
        ("Subheading", "", "5.1 Movement Points"),
        ("Bullet", "5.3", "A unit that ends its move beside an enemy unit must Stop there and fight in the combat phase."),
        ("Bullet", "5.4", "A unit in a town may not move."),
        ("Subheading", "", "5.5 Combat")], section.children
    assert [(type(b).__name__, b.text) for b in section.children[0].children] == [
        ("DraftParagraph", "A unit moves up to its points.")], section.children[0].children
    assert [(type(b).__name__, b.text) for b in section.children[3].children] == [
        ("DraftParagraph", "Units beside an enemy attack it.")]


OWN_NUMBERS = """■■　テストゲーム　草案３

■　１．０　概要

１．１　テスト用の小さなゲームです。２〜４人で遊びます。

■　２．０　コンポーネント

◇テストカード（１１枚）
　名前と本文が書かれたカードです。

■　５．０　ゲームの進行

１：ターン開始
　カードを１枚引きます。
２：カードを出す
　カードを１枚出します。
"""


def test_a_section_the_draft_numbers_itself_is_printed_with_its_own_number_alone(tmp_path):
    """A wargame trial: 「■　１．０　はじめに」 was printed 「1 1.0 はじめに」, in the text and the
    contents, the book's number before the draft's own. A section whose title opens with its own
    case number keeps that number alone, and its steps are numbered under it (5.1, 5.2), in the
    text, the contents and the quick reference."""
    pages = glyphs(_book(tmp_path / "ws", OWN_NUMBERS))
    contents, body, quick = ([text for _, _, text in _lines(page)] for page in pages[1:4])
    # (the draft's own numbers half-width, as the book's are: 「１．０」 prints 1.0)
    assert [t.split(".")[:2] for t in contents[1:4]] == [["1", "0概要"], ["2", "0コンポーネント"], ["5", "0ゲームの進行"]], contents
    assert contents[4].startswith("5.1ターン開始") and contents[5].startswith("5.2カードを出す")
    assert [t for t in body if ".0" in t or t[:2] in ("5.", "3.")] == [
        "1.0概要", "2.0コンポーネント", "5.0ゲームの進行", "5.1ターン開始", "5.2カードを出す"], body
    assert "5.1ターン開始" in quick and "5.2カードを出す" in quick, quick


CASE_SECTIONS = ("■■　テストゲーム　草案３\n\n■　１．０　概要\n１．１　テスト用のゲームです。\n\n■　２．０　コンポーネント\n"
         "◇テストカード（１１枚）\n　名前と本文が書かれたカードです。\n\n２．１　駒は表裏で戦力が違います。\n"
         "２．１１　地図は４枚です。\n\n■　３．０　移動\n３．１　師団駒は４ヘクス移動します。\n")


def test_rule_cases_after_the_last_component_are_the_sections_and_case_numbers_print_half_width(tmp_path):
    """A wargame's 「２．１　…」 after a blank line under the last ◇ entry is the section's rule, set
    after the entries (it was that entry's description); the case numbers and the sections' own
    numbers print half-width as the book's numbers do (「２．１１」 printed full-width, 「１．０　概要」 as
    「１．０」 in the heading, the contents and the outline); an indented case stays the entry's."""
    section = parse(CASE_SECTIONS, "ja").sections[1]
    assert [type(c).__name__ for c in section.children] == ["Component", "Bullet", "Bullet"]
    assert [type(c).__name__ for c in section.children[0].children] == ["DraftParagraph"]
    nested = parse(CASE_SECTIONS.replace("\n\n２．１　駒", "\n　２．１　駒"), "ja").sections[1]
    assert [type(c).__name__ for c in nested.children] == ["Component"]  # no blank line above: the entry's
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(CASE_SECTIONS, encoding="utf-8")
    book = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True).files["rulebook.pdf"]
    page = next(t for t in texts(book) if "駒は表裏" in t)
    # (a heading's number gap copies as the U+3000 its text holds: PDFium read it as an ASCII space)
    assert page.index("名前と本文") < page.index("2.1 駒は表裏") < page.index("2.11 地図は") < page.index("3.0\u3000移動")
    assert "１．" not in page.split("移動")[0] and "1.0\u3000概要" in page
    outline = [o.title for o in PdfReader(io.BytesIO(book)).outline if not isinstance(o, list)]
    assert outline[:3] == ["1.0\u3000概要", "2.0\u3000コンポーネント", "3.0\u3000移動"]


def test_a_cross_reference_to_a_case_links_to_where_the_case_is_set(tmp_path):
    """「（→２．１１参照）」 and 「→３．０」: links (a GoTo to the case's place, PDF 32000-1 12.3.2) over the
    reference's characters, to the top of the case's line (２．１１, a list's case) and of the
    section's heading (３．０); a reference to a case the draft numbers nowhere links nowhere (the
    proofing report names it), and the booklet, whose sheets show two pages each, holds no links."""
    draft = CASE_SECTIONS.replace("師団駒は４ヘクス移動します。", "師団駒は４ヘクス移動します（→２．１１参照）。\n３．２　戻ります（→３．０、→９．９参照）。")
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    reader = PdfReader(io.BytesIO(result.files["rulebook.pdf"]))
    page = next(n for n, p in enumerate(reader.pages) if "地図は" in p.extract_text())
    links = [a.get_object() for a in reader.pages[page].get("/Annots") or []]
    links = [a for a in links if a["/Dest"][1] == "/XYZ"]
    assert len(links) == 2, links  # →２．１１ and →３．０; not →９．９
    rows = {g.char: g for g in glyphs(result.files["rulebook.pdf"])[page] if g.char in "地戻"}
    height = float(reader.pages[page].mediabox.height)
    pt = 72 / 25.4
    to_case, to_section = sorted(links, key=lambda a: -float(a["/Rect"][1]))
    # →２．１１: four ems and the half em of its ． (a number's full stop, no sentence's aki after it:
    # trial59 read 「２．　１１」 a full em apart, JLREQ spacing the 句点 of sentences, not a number's)
    assert to_case["/Rect"][2] - to_case["/Rect"][0] == pytest.approx(4.5 * 9, abs=0.5)
    assert to_section["/Rect"][2] - to_section["/Rect"][0] == pytest.approx(3.5 * 9, abs=0.5)  # →３．０
    top = height - rows["地"].y * pt  # 地図 (2.11's line): its destination a line's height above the baseline
    assert 0 < float(to_case["/Dest"][3]) - top < 15
    assert float(to_section["/Dest"][3]) > height - rows["戻"].y * pt + 15  # the heading above 3.1 and 3.2
    booklet = PdfReader(io.BytesIO(result.files["rulebook-booklet.pdf"]))
    assert not any(p.get("/Annots") for p in booklet.pages)


def test_an_english_case_goes_beside_a_numbered_sub_heading_it_is_no_case_of_and_after_the_components():
    """trial49: ``6.3 A unit…`` after the sub-heading ``6.2 Attacking`` and its cases 6.21, 6.22 was
    read as one more of its cases (a figure placed after 6.2 printed after 6.3), and ``2.1 Each unit
    counter…`` after the components' bullets as the last entry's description."""
    draft = ("# T\n\n## 2.0 Components\n\n- 4 Cards\n- 1 Board\n\n2.1 Each card shows a unit.\n\n## 6.0 Combat\n\n"
             "6.1 Attack an adjacent unit.\n\n6.2 Attacking\n\n6.21 Total the strengths.\n6.2.2 Roll one die.\n\n"
             "6.3 A unit that takes a step loss is flipped.\n")
    components, combat = parse(draft, "en").rules
    assert [type(c).__name__ for c in components.children] == ["Component", "Component", "Bullet"]
    assert components.children[1].children == []
    assert [(type(c).__name__, getattr(c, "mark", "")) for c in combat.children] == [
        ("Bullet", "6.1"), ("Subheading", ""), ("Bullet", "6.3")]
    assert [c.mark for c in combat.children[1].children] == ["6.21", "6.2.2"]


def _links_to_cases(tmp_path, draft: str, words: str):
    """The book of ``draft`` (rules only), its reader, the page holding ``words``, that page's one
    link to a case (asserted one) and its glyphs."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    book = result.files["rulebook.pdf"]
    reader = PdfReader(io.BytesIO(book))
    page = next(n for n, p in enumerate(reader.pages) if words in p.extract_text())
    links = [a.get_object() for a in reader.pages[page].get("/Annots") or []]
    links = [a for a in links if a["/Dest"][1] == "/XYZ"]
    assert len(links) == 1, links
    return result, reader, page, links, glyphs(book)[page]


def test_an_english_cross_reference_links_to_where_its_case_is_set(tmp_path):
    """trial49: an English wargame's ``(see 6.3)`` printed as text, where a Japanese book's 「→６．４」
    links to its case: the link's box now stands over ``see 6.3`` as set, in a justified line too,
    going to 6.3's line; ``see 9.9`` (numbered nowhere) links nowhere, and the booklet holds none."""
    draft = ("# T (Draft 1)\n\n## 5.0 Movement\n\n5.1 A unit may move up to its movement allowance, paying the "
             "terrain cost of each hex it enters (see 6.3), and never more (see 9.9).\n\n## 6.0 Combat\n\n"
             "6.1 Attack an adjacent unit.\n\n6.3 A unit that takes a step loss is flipped.\n")
    result, reader, page, links, chars = _links_to_cases(tmp_path, draft, "never more")
    text = "".join(g.char for g in chars)
    at = text.index("see 6.3")
    x0, x1 = (float(v) * PT_MM for v in (links[0]["/Rect"][0], links[0]["/Rect"][2]))
    assert x0 == pytest.approx(chars[at].x, abs=0.3) and x1 == pytest.approx(chars[at + 7].x, abs=0.6), (x0, x1)
    case = next(g for k, g in enumerate(chars) if text.startswith("6.3 A unit", k))
    top = float(reader.pages[page].mediabox.height) - float(links[0]["/Dest"][3])
    assert links[0]["/Dest"][0].idnum == reader.pages[page].indirect_reference.idnum
    assert 0 < case.y - top * PT_MM < 6  # the top of 6.3's line, on this page
    assert not any(p.get("/Annots") for p in PdfReader(io.BytesIO(result.files["rulebook-booklet.pdf"])).pages)


@pytest.mark.parametrize("sub", ["5.2 Zones of Control", "### 5.2 Zones of Control"])
def test_a_cross_reference_to_a_numbered_sub_heading_links_to_it(tmp_path, sub):
    """A wargame trial: 79 references ``(see 8.2)`` to the draft's numbered sub-headings (``8.2 Odds``
    over its cases ``8.2.1 …``) were all plain text, no link in the book: only a case line or a
    section set its number as a place to go. A numbered sub-heading is one too."""
    draft = ("# T (Draft 1)\n\n## 5.0 Movement\n\n5.1 Movement Points\n\n5.1.1 A unit may move up to its movement "
             f"allowance (see 5.2).\n\n{sub}\n\n5.2.1 A unit entering an enemy's zone stops there.\n")
    _, reader, page, links, chars = _links_to_cases(tmp_path, draft, "movement allowance")
    text = "".join(g.char for g in chars)
    heading = chars[text.index("Zones of Control")]
    top = float(reader.pages[page].mediabox.height) - float(links[0]["/Dest"][3])
    assert links[0]["/Dest"][0].idnum == reader.pages[page].indirect_reference.idnum
    assert 0 < heading.y - top * PT_MM < 8  # the top of 5.2's heading, on this page


def test_a_cross_reference_in_the_quick_reference_links_to_its_case(tmp_path):
    """hostile34: docs/data-format.md says a reference links "in the rules, the quick reference and the
    appendix alike", but the quick reference's lines (a Sequence of Play case ``4.12 Combat (see 6.3)``)
    printed it as text: now a link to 6.3's place, as in the rules; ``see 9.9`` (numbered nowhere) none."""
    draft = ("# T (Draft 1)\n\n## 4.0 Sequence of Play\n\n4.11 Movement phase (see 9.9).\n"
             "4.12 Combat phase (see 6.3).\n\n## 6.0 Combat\n\n6.3 A unit that takes a step loss is flipped.\n")
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    reader = PdfReader(io.BytesIO(build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts").files["rulebook.pdf"]))
    quick = next(p for p in reader.pages if "• 4.12 Combat phase (see 6.3)." in p.extract_text())  # (早見表)
    links = [a.get_object() for a in quick.get("/Annots") or []]
    to_cases = [a for a in links if a["/Dest"][1] == "/XYZ"]
    case_page = next(p for p in reader.pages if "step loss" in p.extract_text())
    assert len(to_cases) == 1 and to_cases[0]["/Dest"][0].idnum == case_page.indirect_reference.idnum, to_cases


QUICK_NUMBERED = ("\n■　早見表\n\n"
                  "　１．カードを引く：山札から１枚引きます。山札がなくなったら捨て札を混ぜて新しい山札を作り、そこから引きます。\n"
                  "　２．カードを出す\n\n　（１）手札を見る\n　（２）１枚を選ぶ\n")


def test_an_indented_list_numbered_with_full_stops_hangs_as_a_list(tmp_path):
    """A draft's own 早見表 of indented 「　１．カードを引く」 lines (book47): printed as paragraphs, the
    number 「１．」 as text and a wrapped line back under it, unwarned; now a numbered list, its number
    half-width (1.) as the book's are and its lines aligned after it. An indented run of （１）（２）
    stopped the parse (IndexError in ``indented_lists``); it is a list too. A lone 「　１．５倍」 stays text."""
    doc = parse(DRAFT + QUICK_NUMBERED)
    quick = doc.sections[-1].children
    assert [(type(b).__name__, getattr(b, "mark", ""), b.text[:5]) for b in quick] == [
        ("Bullet", "１．", "カードを引"), ("Bullet", "２．", "カードを出"),
        ("Bullet", "（１）", "手札を見る"), ("Bullet", "（２）", "１枚を選ぶ")]
    assert isinstance(parse(DRAFT + "\n■　早見表\n\n　１．カードを引く\n　３．カードを出す\n").sections[-1].children[0],
                      DraftParagraph)  # (numbers out of order: text, as the draft wrote it)
    pages = glyphs(_book(tmp_path / "ws", DRAFT + QUICK_NUMBERED))
    lines = [line for page in pages[2:] for line in _lines(page)]
    first = next(i for i, (_, _, text) in enumerate(lines) if text.startswith("1.カードを引く"))
    row = next(sorted((g for g in page if abs(g.y - lines[first][0]) < 0.05), key=lambda g: g.x)
               for page in pages[2:] if any(g.char == "山" for g in page))
    assert lines[first + 1][1] == pytest.approx(next(g.x for g in row if g.char == "カ"), abs=0.05)  # hangs after 1.
    assert lines[first + 1][1] > lines[first][1] + 2
