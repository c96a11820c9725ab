"""Cross references set off the running text: inside a draft's aligned table (drawn glyph by glyph
on its character grid) and in a figure's caption (game.yaml's). They printed as text with no link
(hostile34; the docs called it a limit): each is now a link over the reference's glyphs, going to
where the case is set, as a reference in a paragraph does."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from conftest import GAME_YAML, make_workspace
from pdfprobe import glyphs, shown
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook, pictures_from_game

PT_MM = 25.4 / 72
DRAFT = ("■■　テストゲーム　草案３\n\n■　１．０　概要\n１．１　テスト用のゲームです。\n\n"
         "■　２．０　行動\n２．１　手番には次のどれかを行います。\n\n"
         "　行動　　　効果\n　移動　　　→３．０参照\n　攻撃　　　４ヘクス（→２．１参照）\n　休む　　　→９．９参照\n\n"
         "■　３．０　移動\n３．１　師団駒は４ヘクス移動します。\n")
FIGURE = ("rulebook:\n  figures:\n    - after: {after}\n      caption: {caption}\n      size: [60, 40]\n"
          "      pieces:\n        - {{deck: cards, piece: 1, x: 20, y: 20}}\n")
ENGLISH = ("# Test Game (Draft 1)\n\n## 5.0 Movement\n\n5.1 A unit moves as the chart says.\n\n"
           "Terrain      Cost\nClear        1\nForest       2 (see 6.3)\nRiver        see 9.9\n\n"
           "## 6.0 Combat\n\n6.1 Attack an adjacent unit.\n\n6.3 A unit that takes a step loss is flipped.\n")


def _book(tmp_path, draft: str, caption: str, name: str = "draft.txt", lang: str = "ja"):
    after = "{ja: ３．０　移動, en: 5.0 Movement}" if lang == "en" else "３．０　移動"
    game_yaml = GAME_YAML + FIGURE.format(caption=caption, after=after)
    if lang == "en":
        game_yaml = game_yaml.replace("title: テストゲーム", "languages: [ja, en]\ndefault_language: ja\n"
                                      "title: {ja: テストゲーム, en: Test Game}")
    ws = make_workspace(tmp_path / "ws", game=game_yaml, draft=True)
    (ws / "data" / "test" / name).write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang=lang)
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"), rules_only=True)
    return result.files["rulebook.pdf"]


def _links(reader: PdfReader, page: int) -> list:
    """The page's links to a place in the book (a case's), by their box's left then top."""
    found = [a.get_object() for a in reader.pages[page].get("/Annots") or []]
    return sorted((a for a in found if a["/Dest"][1] == "/XYZ"), key=lambda a: (-float(a["/Rect"][1]), float(a["/Rect"][0])))


def _box_mm(link, height: float) -> tuple[float, float, float, float]:
    """A link's box in mm from the page's left and top: left, top, right, bottom."""
    x0, y0, x1, y1 = (float(v) for v in link["/Rect"])
    return x0 * PT_MM, (height - y1) * PT_MM, x1 * PT_MM, (height - y0) * PT_MM


def _covers(box, chars, first: int, after: int) -> None:
    """``box`` stands over the glyphs ``chars[first:after]``: from the first's origin to the next
    glyph's, the baselines inside it."""
    left, top, right, bottom = box
    assert left == pytest.approx(chars[first][1], abs=0.8), (box, chars[first])
    assert right == pytest.approx(chars[after][1], abs=0.8), (box, chars[after])
    assert all(top < y < bottom for _, _, y in chars[first:after]), (box, chars[first:after])


def test_a_reference_in_a_table_and_in_a_caption_links_to_its_case(tmp_path):
    """「→３．０参照」 in a table's cell and 「（→２．１参照）」 in its row and in a figure's caption: a
    link each over →３．０ / →２．１ as drawn, going to the heading of 3.0 and the line of 2.1; the
    table's 「→９．９」 (numbered nowhere) links nowhere."""
    book = _book(tmp_path, DRAFT, "移動の例（→２．１参照）")
    reader = PdfReader(io.BytesIO(book))
    page = next(n for n, p in enumerate(glyphs(book)) if "休む" in "".join(g.char for g in p))
    height = float(reader.pages[page].mediabox.height)
    chars = shown(book, page + 1)  # each glyph where it is drawn (a caption's line is one marked span)
    text = "".join(c for c, _, _ in chars)
    links = _links(reader, page)
    assert len(links) == 3, links  # the table's two, the caption's one; not →９．９
    table_move, table_attack, caption = links
    _covers(_box_mm(table_move, height), chars, text.index("→３．０参照"), text.index("→３．０参照") + 4)
    _covers(_box_mm(table_attack, height), chars, text.index("→２．１参照）"), text.index("→２．１参照）") + 4)
    at = text.index("→２．１参照）", text.index("移動の例"))
    _covers(_box_mm(caption, height), chars, at, at + 4)
    heading = chars[text.index("3.0")]
    body = "".join(g.char for g in glyphs(book)[page])
    case = ("", 0.0, glyphs(book)[page][body.index("手番には")].y)
    for link, target in ((table_move, heading), (table_attack, case), (caption, case)):
        assert link["/Dest"][0].idnum == reader.pages[page].indirect_reference.idnum
        top = (height - float(link["/Dest"][3])) * PT_MM
        assert 0 < target[2] - top < 12, (target, top)  # the top of the case's line or heading


def test_an_english_table_and_caption_link_see_6_3_in_the_latin_face(tmp_path):
    """An English book's table is set in its Latin face, each cell at its column: ``(see 6.3)`` in a
    cell links over ``see 6.3`` as set there, and a caption's ``(see 6.3)`` too; ``see 9.9`` links nowhere."""
    book = _book(tmp_path, ENGLISH, "{ja: 準備, en: A start (see 6.3)}", "draft.en.txt", "en")
    reader = PdfReader(io.BytesIO(book))
    page, glyphs_on = next((n, p) for n, p in enumerate(glyphs(book)) if "Forest" in "".join(g.char for g in p))
    height = float(reader.pages[page].mediabox.height)
    chars = [(g.char, g.x, g.y) for g in glyphs_on]
    text = "".join(c for c, _, _ in chars)
    links = _links(reader, page)
    assert len(links) == 2, links
    table, caption = links
    at = text.index("see 6.3)")
    _covers(_box_mm(table, height), chars, at, at + 7)
    at = text.index("see 6.3)", text.index("A start"))
    _covers(_box_mm(caption, height), chars, at, at + 7)
    case = chars[text.index("6.3 A unit")]
    for link in links:
        assert link["/Dest"][0].idnum == reader.pages[page].indirect_reference.idnum
        assert 0 < case[2] - (height - float(link["/Dest"][3])) * PT_MM < 8


def test_markup_and_addresses_in_a_table_and_a_caption_are_text_and_every_link_is_internal(tmp_path):
    """A table cell and a caption holding <a href="javascript:…">, a <link> to a file and % sequences
    (hostile36): printed as written, and the book's only links are GoTos to its own cases, the
    reference inside the <a> linking to 3.0 as any does; no URI, JavaScript or launch action."""
    hostile = DRAFT.replace("→３．０参照", '<a href="javascript:app.alert(1)">→３．０参照</a>').replace(
        "→９．９参照", '<link href="file:///etc/passwd">%s%n%0A</link>')
    book = _book(tmp_path, hostile, "\"<a href='javascript:app.alert(2)'>例</a>（→２．１参照）%(x)s\"")
    assert not any(k in book for k in (b"/URI", b"/JavaScript", b"/JS", b"/Launch", b"passwd"))
    reader = PdfReader(io.BytesIO(book))
    page = next(n for n, p in enumerate(glyphs(book)) if "休む" in "".join(g.char for g in p))
    text = "".join(c for c, _, _ in shown(book, page + 1))
    for written in ('<ahref="javascript:app.alert(1)">→３．０参照</a>', '<linkhref="file:///etc/passwd">%s%n%0A</link>',
                    "<a href='javascript:app.alert(2)'>例</a>（→２．１参照）%(x)s"):  # (the grid draws no space)
        assert written in text, text
    annots = [a.get_object() for p in reader.pages for a in p.get("/Annots") or []]
    assert annots and all(set(a) >= {"/Dest"} and "/A" not in a for a in annots), annots
    assert len(_links(reader, page)) == 3  # →３．０ inside the <a>, the row's →２．１, the caption's →２．１


def test_a_reference_a_table_row_wraps_is_linked_on_both_of_its_lines(tmp_path):
    """trial59: a table's row too wide for the page wraps its last column, and a reference the wrap
    parted (「（３．１を」 over 「参照）」) printed unlinked, each line read alone: it is read in its
    row and linked on both lines, each box over that line's part of it."""
    row = "　カス　　　" + "あ" * 17 + "カス札１０枚（３．１を参照）以降１枚ごとに＋１点\n"
    book = _book(tmp_path, DRAFT.replace("　休む　　　→９．９参照\n", "　休む　　　→９．９参照\n" + row), "移動の例")
    reader = PdfReader(io.BytesIO(book))
    page, drawn = next((n, p) for n, p in enumerate(glyphs(book)) if "休む" in "".join(g.char for g in p))
    height = float(reader.pages[page].mediabox.height)
    text = "".join(g.char for g in drawn)
    first, second = drawn[text.index("３．１を")], drawn[text.index("参照）以降")]
    assert second.y - first.y == pytest.approx(14.0 * PT_MM, abs=0.1)  # (the wrap parts the reference)
    boxes = sorted((_box_mm(a, height) for a in _links(reader, page)), key=lambda b: b[1])
    ours = [b for b in boxes if any(b[1] < g.y < b[3] and b[0] - 0.5 < g.x < b[2] for g in (first, second))]
    assert len(ours) == 2, boxes
    upper, lower = ours
    cell = 9.5 * PT_MM  # a full-width cell of the table's grid
    end = drawn[text.index("３．１を") + 3]  # を, the line's last glyph
    assert upper[0] == pytest.approx(first.x, abs=0.8) and upper[2] == pytest.approx(end.x + cell, abs=0.8)
    assert lower[0] == pytest.approx(second.x, abs=0.8)  # 参, where the column starts
    assert lower[2] == pytest.approx(drawn[text.index("参照）以降") + 2].x, abs=0.8)  # up to ）
    assert upper[1] < first.y < upper[3] and lower[1] < second.y < lower[3]
    links = [a for a in _links(reader, page) if _box_mm(a, height) in ours]
    assert {a["/Dest"][0].idnum for a in links} == {reader.pages[page].indirect_reference.idnum}  # 3.1, on this page
