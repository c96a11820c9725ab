"""``pnpgen export --preset doujin-book``: the rulebook as a 同人印刷所 takes it. One small drafted
game exported once for the module (and once more elsewhere, for the bytes): each A5 page on a page
of trim + 3 mm 塗り足し + room for トンボ, boxed, in reading order, blank pages to a multiple of
4 before the last, CMYK with black text 100 % K overprinting, PDF/X-1a, marks outside the bleed."""

from __future__ import annotations

import io
import math

import pikepdf
import pytest
from preflight import problems
from pypdf import PdfReader
from reportlab.pdfgen import canvas

from conftest import DRAFT, GAME_YAML, make_workspace, run
from pdfprobe import boxes_mm, glyphs, stroked_lines, texts
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.exports.presets import load_preset
from pnpgen.pdf.black import k_only
from pnpgen.pdf.colour import vectors_to_cmyk
from pnpgen.pdf.overprint import over_limit

CORNER = 8.0 + 3.0  # the trim's corner on the shop's page: room for the marks, then the bleed (mm)
SHOP_PAGE = (148 + 2 * CORNER, 210 + 2 * CORNER)


# The cards' front with a gradient: the book's pictures of the pieces (cover, components) carry its shading;
# its 0.1 mm border is thinner than that once the book draws the card smaller.
GRADIENT_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<defs><linearGradient id="g"><stop offset="0" stop-color="#cc3333"/><stop offset="0.5" stop-color="#33cc33"/>
<stop offset="1" stop-color="#3333cc"/></linearGradient></defs>
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="url(#g)"/>
<rect x="2" y="2" width="{{ w - 4 }}" height="{{ h - 4 }}" fill="none" stroke="#cc3333" stroke-width="0.1"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, min_size=7, align="center") }}
{% endblock %}
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> dict:
    root = make_workspace(tmp_path_factory.mktemp("shopbook") / "ws", draft=True, front=GRADIENT_FRONT,
                          game=GAME_YAML + "rulebook:\n  colophon: [発行　星の市工房, 印刷　○○印刷]\n")
    draft = root / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("◇テストカード（１１枚）", "◇テストカード（９枚）")
                     + "\n■　問題点\n\n　勝利条件がまだ弱い。\n", encoding="utf-8")
    assert run(root, "rulebook", "--game", "test") == 0
    full = texts((root / "build" / "test" / "rulebook.pdf").read_bytes())  # the designer's own book, appendix and all
    assert run(root, "rulebook", "--game", "test", "--rules-only") == 0
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 0
    again = tmp_path_factory.mktemp("again")
    assert run(root, "export", "--game", "test", "--preset", "doujin-book", "--out", str(again)) == 0
    out = root / "build" / "test" / "doujin-book"
    return {"root": root, "a5": root / "build" / "test" / "rulebook.pdf", "shop": out / "rulebook.pdf", "full": full,
            "again": again / "test" / "doujin-book" / "rulebook.pdf", "folder": out}


def test_pages_are_a5_trims_with_bleed_and_a_count_of_four(book):
    a5 = len(PdfReader(book["a5"]).pages)
    reader = PdfReader(book["shop"])
    assert len(reader.pages) == math.ceil(a5 / 4) * 4 and len(reader.pages) % 4 == 0
    assert len(reader.pages) > a5  # the test draft's book is not a multiple of 4: blanks were added
    for page in reader.pages:
        boxes = boxes_mm(page)
        assert boxes["mediabox"] == pytest.approx((0, 0, *SHOP_PAGE), abs=0.01)
        assert boxes["trimbox"] == pytest.approx((CORNER, CORNER, CORNER + 148, CORNER + 210), abs=0.01)
        assert boxes["bleedbox"] == pytest.approx((CORNER - 3, CORNER - 3, CORNER + 148 + 3, CORNER + 210 + 3), abs=0.01)
    assert sorted(p.name for p in book["folder"].iterdir()) == ["export.json", "rulebook.pdf"]


def test_the_printed_book_has_no_designers_appendix_nor_playtest_line(book):
    """A 同人 designer's trial: the shop's book, 100 copies for the booth, carried the appendix
    (問題点, 校正メモ: "ルールではありません"), 「プレイテスト用」 on its cover and a draft count
    the data disagrees with beside its component (「※草案では…（本書はデータの数）」); it is set as
    ``pnpgen rulebook --rules-only`` sets it (the page-by-page tests compare the two)."""
    full, shop = " ".join(book["full"]), " ".join(texts(book["shop"]))
    for said in ("勝利条件がまだ弱い", "デザイナーノート", "プレイテスト用", "※草案ではテストカードを9"):
        assert said in full and said not in shop, said
    assert "テストゲーム" in shop and "カードを１枚引く" in shop
    # the back page (奥付) says who made and printed the book; what it was set from is the designer's
    back, own = texts(book["shop"])[-1], book["full"][-1]
    for line in ("発行　星の市工房", "印刷　○○印刷", "草案ファイル"):
        assert (line in own) and ((line in back) == (line != "草案ファイル")), (line, back)


def test_the_printed_book_names_no_draft_on_its_cover_heads_or_back(book):
    """A book a shop prints for a booth said 草案３ (the draft's number) under its title, in every
    running head and on its 奥付: the shop's book, like ``--rules-only``, names no draft unless
    game.yaml gives an ``edition:`` (this game gives none); the designer's own book still does."""
    shop, full = texts(book["shop"]), book["full"]
    assert "草案３" in full[0] and "草案３" in full[2] and "草案３" in full[-1]
    assert not [n for n, page in enumerate(shop) if "草案" in page]
    assert "テストゲーム" in shop[0] and "テストゲーム" in shop[2]  # the title stays, alone
    assert "2026年11月30日" in shop[-1].replace(" ", "") and "組版　pnpgen" in shop[-1]
    # its 早見表 leaves out a part the draft is silent on (the designer's says 「草案に記載なし」)
    quick = next(page for page in shop if "早見表" in page and "ゲームの流れ" in page)
    assert "ゲームの終了" not in quick and "ゲームの流れ" in quick and "内容物" in quick
    assert "草案に記載なし" in " ".join(full)


def test_an_edition_is_printed_where_the_draft_number_was(tmp_path):
    """``rulebook: edition: 初版``: the cover, every running head and the 奥付's first line of the
    book to hand out; the designer's own book keeps its draft number."""
    root = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "rulebook:\n  edition: 初版\n")
    assert run(root, "rulebook", "--game", "test") == 0
    own = texts(root / "build" / "test" / "rulebook.pdf")
    assert run(root, "rulebook", "--game", "test", "--rules-only") == 0
    book = texts(root / "build" / "test" / "rulebook.pdf")
    assert "草案３" in own[0] and "初版" not in " ".join(own)
    heads = [page for page in book[2:-1] if "テストゲーム" in page]
    assert "初版" in book[0] and heads and all("テストゲーム　初版" in page for page in heads)
    assert "初版　2026年11月30日" in book[-1].replace(" ", "") and "草案" not in " ".join(book)


def test_an_edition_too_long_for_a_line_is_refused(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "rulebook:\n  edition: " + "版" * 21 + "\n")
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 2
    err = capsys.readouterr().err
    assert "game.yaml:" in err and "edition" in err and "1 to 20 characters" in err and "Traceback" not in err


def test_text_lies_where_the_a5_page_has_it_the_last_page_last(book):
    """Page n of rulebook.pdf is page n of the shop's, its glyphs moved by the trim's corner; the
    blank pages come before the last page (the colophon), which stays last."""
    a5, shop = glyphs(book["a5"]), glyphs(book["shop"])
    at = list(range(len(a5) - 1)) + [len(shop) - 1]
    assert all(not shop[i] for i in range(len(shop)) if i not in at)  # the blanks
    for n, i in enumerate(at):
        assert a5[n] and [g.char for g in shop[i]] == [g.char for g in a5[n]]
        for g, h in zip(a5[n], shop[i]):
            # (a heading's marked line, its ActualText, PDFium places by the span, not by the page's
            # placing in the shop's file: the body's text, in mincho, is where its glyphs are)
            if "Mincho" in g.font:
                assert (h.x, h.y) == pytest.approx((g.x + CORNER, g.y + CORNER), abs=0.01), (n, g.char)


def test_cmyk_only_black_text_k100_overprinting_pdfx(book):
    pdf = book["shop"].read_bytes()
    assert problems(pdf) == []  # the project's PDF/X-1a preflight: no RGB operator or space, boxes, intent
    assert b"/DeviceRGB" not in pdf
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        shadings = _shadings(doc)
        assert shadings and {str(s.ColorSpace) for s in shadings} == {"/DeviceCMYK"}  # the pictures' gradient
        assert str(doc.trailer.Info.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert str(doc.Root.OutputIntents[0].OutputConditionIdentifier) == "JC200103"
        shown = [s for page in doc.pages for s in _shown(page.obj)]
    assert shown and all(fill is not None for fill, _ in shown)  # every text in a DeviceCMYK colour
    black = [gs for fill, gs in shown if fill == (0.0, 0.0, 0.0, 1.0)]
    assert black and all(gs.get("/OP") is True and gs.get("/op") is True for gs in black)
    assert not [gs for fill, gs in shown if fill != (0.0, 0.0, 0.0, 1.0) and gs.get("/OP") is True]
    # no text left in a near-black mix of inks
    assert not [fill for fill, _ in shown if fill is not None and fill[3] >= 0.7 and max(fill[:3]) > 0]


def test_marks_lie_outside_the_bleed_in_registration(book):
    reader = PdfReader(book["shop"])
    for page in (reader.pages[0], reader.pages[-2]):  # a page of text, a blank
        lines = stroked_lines(reader, page)
        assert len(lines) >= 16  # double トンボ at four corners, centre marks
        for x1, y1, x2, y2 in lines:
            inside_x = CORNER - 3 < max(x1, x2) and min(x1, x2) < CORNER + 148 + 3
            inside_y = CORNER - 3 < max(y1, y2) and min(y1, y2) < CORNER + 210 + 3
            assert not (inside_x and inside_y), (x1, y1, x2, y2)
    with pikepdf.open(book["shop"]) as doc:
        spaces = doc.pages[0].Resources.ColorSpace
        assert any(str(cs[0]) == "/Separation" and str(cs[1]) == "/All" for cs in spaces.values())


def test_same_bytes_in_any_folder(book):
    assert book["again"].read_bytes() == book["shop"].read_bytes()


def test_an_export_again_is_up_to_date(book, capsys):
    """Nothing it reads changed (the draft is one of the game's files): nothing set or written again."""
    assert run(book["root"], "export", "--game", "test", "--preset", "doujin-book") == 0
    capsys.readouterr()
    assert run(book["root"], "export", "--game", "test", "--preset", "doujin-book") == 0
    assert "test: up to date" in capsys.readouterr().out


def test_a_game_without_a_draft_is_one_line(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "draft.txt" in err[0] and "Traceback" not in err[0], err


def test_a_designers_preset_sets_the_multiple_bleed_and_marks(book, tmp_path):
    """The figures are the preset's: page_multiple 8, 5 mm bleed, no marks, RGB without PDF/X."""
    presets = book["root"] / "presets"
    presets.mkdir(exist_ok=True)
    (presets / "book8.yaml").write_text("name: Book 8\nfiles: rulebook\ncolour: rgb\npage_multiple: 8\n"
                                        "formats:\n  a5: {trim: [148mm, 210mm], bleed: 5mm}\n", encoding="utf-8")
    assert run(book["root"], "export", "--game", "test", "--preset", "book8", "--out", str(tmp_path)) == 0
    reader = PdfReader(tmp_path / "test" / "book8" / "rulebook.pdf")
    assert len(reader.pages) % 8 == 0
    assert boxes_mm(reader.pages[0])["mediabox"] == pytest.approx((0, 0, 158, 220), abs=0.01)
    assert boxes_mm(reader.pages[0])["trimbox"] == pytest.approx((5, 5, 153, 215), abs=0.01)
    assert stroked_lines(reader, reader.pages[0]) == []


def test_a_rulebook_preset_s_ink_limit_counts_the_black_overprinting_its_ground(book, tmp_path, capsys):
    """The book's pictures of the pieces carry their black name, 100 % K overprinting the gradient
    (its green 75/0/75/20, its red 0/75/75/20): 250 % where they meet, each colour alone at most
    170 %. A preset of 240 % counts it, as the cards' exports do (pdf/overprint.py): preflight9,
    the name knocks out of the gradient there, said, and nothing passes the limit."""
    presets = book["root"] / "presets"
    presets.mkdir(exist_ok=True)
    (presets / "book240.yaml").write_text("name: Book 240\nfiles: rulebook\ncolour: cmyk\nink_limit: 240\n"
                                          "formats:\n  a5: {trim: [148mm, 210mm], bleed: 3mm}\n", encoding="utf-8")
    assert run(book["root"], "export", "--game", "test", "--preset", "book240", "--out", str(tmp_path)) == 0
    said = capsys.readouterr()
    assert "over Book 240's 240 %" not in said.err
    assert "rulebook.pdf: " in said.out + said.err and ("printed 100 % K knocking out the ground, where overprinting it "
                                                        "passed Book 240's 240 % total ink") in said.out + said.err
    book_pdf = (tmp_path / "test" / "book240" / "rulebook.pdf").read_bytes()
    assert over_limit(book_pdf, 240.0) == []


def test_the_rulebooks_ink_warnings_start_with_the_draft_line_the_page_sets(book, tmp_path, capsys):
    """fixesK: the book's ink warnings began "rulebook.pdf page 3:", where every other export
    warning begins with its file and line (a card's with its deck's line): they begin with the
    draft's line the page sets first (■　概要, line 3, opens page 3), the draft alone for the cover."""
    presets = book["root"] / "presets"
    presets.mkdir(exist_ok=True)
    (presets / "book150.yaml").write_text("name: Book 150\nfiles: rulebook\ncolour: cmyk\nink_limit: 150\n"
                                          "formats:\n  a5: {trim: [148mm, 210mm], bleed: 3mm}\n", encoding="utf-8")
    assert run(book["root"], "export", "--game", "test", "--preset", "book150", "--out", str(tmp_path)) == 0
    inks = [line.removeprefix("pnpgen: warning: ") for line in capsys.readouterr().err.splitlines()
            if "total ink, over Book 150's 150 %" in line]
    draft = (book["root"] / "data" / "test" / "draft.txt").read_text(encoding="utf-8").splitlines()
    assert draft[2] == "■　概要" and texts(book["a5"])[2].lstrip().startswith("1\u3000概要")
    assert {line.split(" rulebook.pdf page ")[0] + " page " + line.split(" page ")[1].split(":")[0] for line in inks} == {
        "data/test/draft.txt: page 1", "data/test/draft.txt:3: page 3"}, inks


@pytest.mark.parametrize("text, key", [
    ("files: rulebook\npage_multiple: 0\nformats:\n  a5: {trim: [148mm, 210mm]}\n", "page_multiple"),
    ("files: rulebook\nformats:\n  a5: {trim: [148mm, 210mm]}\n  b5: {trim: [182mm, 257mm]}\n", "formats"),
    ("files: rulebook\nformats:\n  b5: {trim: [182mm, 257mm]}\n", "A5"),
    # hostile10: a card preset's page_multiple was passed over without a word
    ("files: pdf-copies\npage_multiple: 4\nformats:\n  poker: {trim: [63mm, 88mm]}\n", "page_multiple makes up"),
])
def test_a_rulebook_preset_is_checked_as_it_is_read(tmp_path, text, key):
    root = make_workspace(tmp_path / "ws")
    (root / "presets").mkdir()
    (root / "presets" / "mine.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_preset(Workspace(root), "test", "mine")
    assert key in str(caught.value) and "mine.yaml" in str(caught.value)


def test_reportlab_colours_set_inside_text_become_k100_overprinting():
    """ReportLab sets a text's colour inside BT … ET: converted from RGB and mapped all the same;
    a coloured word after black text in one text object is not overprinted."""
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, invariant=1)
    t = c.beginText(72, 720)
    t.setFillColorRGB(0.13, 0.14, 0.2)
    t.textOut("black ")
    t.setFillColorRGB(0.8, 0.1, 0.1)
    t.textOut("red")
    c.drawText(t)
    c.linearGradient(0, 0, 100, 0, [(1, 0, 0), (0, 0, 1)])
    c.showPage()
    c.save()
    pdf, mapped = k_only(vectors_to_cmyk(buffer.getvalue()))
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        shown = _shown(doc.pages[0].obj)
        shadings = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
        assert shadings and all(str(s.ColorSpace) == "/DeviceCMYK" for s in shadings)
        assert all(len(s.Function.C0) == 4 for s in shadings)
    assert b"/DeviceRGB" not in pdf
    assert [(fill, gs.get("/OP") is True) for fill, gs in shown] == [((0.0, 0.0, 0.0, 1.0), True),
                                                                     ((0.0, 0.875, 0.875, 0.2), False)]
    assert sum(mapped.text.values()) == 1


def _shown(obj, fill=None, seen: set | None = None) -> list[tuple[tuple[float, ...] | None, dict]]:
    """(fill colour, ExtGState entries in effect) at every text show of a content stream and the
    forms it draws (the colour set before the text object or inside it)."""
    seen = set() if seen is None else seen
    res = obj.get("/Resources")
    states = res.get("/ExtGState") if res is not None else None
    out, gs, stack = [], {}, []
    for operands, op in pikepdf.parse_content_stream(obj):
        name = str(op)
        if name == "k":
            fill = tuple(round(float(v), 4) for v in operands)
        elif name in ("g", "rg", "sc", "scn"):
            fill = None
        elif name == "gs":
            gs = dict(gs, **{str(k): v for k, v in states[operands[0]].items()})
        elif name == "q":
            stack.append((fill, gs))
        elif name == "Q":
            fill, gs = stack.pop()
        elif name in ("Tj", "TJ", "'", '"'):
            out.append((fill, gs))
        elif name == "Do":
            xobj = res.XObject[operands[0]]
            if xobj.get("/Subtype") == "/Form" and xobj.objgen not in seen:
                seen.add(xobj.objgen)
                out += _shown(xobj, fill, seen)
    return out


def test_an_english_edition_is_set_in_english(tmp_path, capsys):
    """--lang en: the book of the English edition (its labels; the Japanese draft, said so, when
    the game has no draft.en.txt), beside that edition's build."""
    root = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "languages: [ja, en]\n"
                          "rulebook:\n  edition: {ja: 初版, en: First edition}\n")
    assert run(root, "export", "--game", "test", "--preset", "doujin-book", "--lang", "en") == 0
    [cover, *_] = texts(root / "build" / "test" / "en" / "doujin-book" / "rulebook.pdf")
    assert "First edition" in cover and "Draft" not in cover and "草案" not in cover and "初版" not in cover
    assert "no en draft" in capsys.readouterr().err


def _shadings(doc) -> list:
    """Every shading dictionary of the document, however deep it lies in another object."""
    out, todo, seen = [], list(doc.objects), set()
    while todo:
        obj = todo.pop()
        if isinstance(obj, pikepdf.Array):
            todo.extend(obj)
        elif isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
            if obj.is_indirect:
                if obj.objgen in seen:
                    continue
                seen.add(obj.objgen)
            if "/ShadingType" in obj:
                out.append(obj)
            todo.extend(v for k, v in obj.items() if k != "/Parent")
    return out


def test_the_shops_book_is_not_told_of_the_home_booklets_thickness(tmp_path, capsys):
    """hostile10: the export set the home A4 booklet as well (a third of its time) and passed on
    its warning, 'the booklet is N sheets of A4 folded into one … print rulebook.pdf and bind it
    another way', for a book the shop binds. The home booklet's warning stays with pnpgen rulebook."""
    root = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "rulebook: {booklet_sheets: 1}\n")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin-book", "--out", str(tmp_path / "out")) == 0
    said = capsys.readouterr().err
    assert "folded into one" not in said and "multiple of 4 pages" in said, said
    assert sorted(p.name for p in (tmp_path / "out" / "test" / "doujin-book").iterdir()) == ["export.json", "rulebook.pdf"]


def test_a_stand_in_count_the_printed_book_carries_is_warned(tmp_path, capsys):
    """An editor's pass: the shop's book of populous printed 「種族ボード　5枚（仮）」 and three more
    stand-in counts in its components and 早見表, unsaid: 100 copies for sale carried the mark. The
    book to hand out names each (the designer's own book, a proof, says it in proof.txt only)."""
    game = GAME_YAML + "sourced:\n  - {name: ウッドキューブ, count: 12, note: 未定（草案に個数なし）}\n"
    root = make_workspace(tmp_path / "ws", draft=True, game=game)
    assert run(root, "rulebook", "--game", "test") == 0
    assert "（仮）" not in capsys.readouterr().err
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 0
    err = capsys.readouterr().err
    assert "draft.txt: the book to hand out prints 1 count marked （仮）" in err and "ウッドキューブ 12個（仮）" in err
    assert "ウッドキューブ" in " ".join(texts(root / "build" / "test" / "doujin-book" / "rulebook.pdf"))


def test_a_placeholder_left_in_the_drafts_rules_the_printed_book_carries_is_warned(tmp_path, capsys):
    """trial72: 「イラスト：未定」 in a credits section went into the 同人印刷所's book unsaid, where a
    deck still printing 未定 is warned. The book to hand out says it at the first one's line, with
    how many lines more; the designer's own copy, a proof, leaves it to proof.txt and check."""
    root = make_workspace(tmp_path / "ws", draft=True)
    draft = DRAFT + "\n■　クレジット\n\n　デザイン：石庭工房\n　イラスト：未定\n　協力：TODO\n"
    (root / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    line = draft.splitlines().index("　イラスト：未定") + 1
    capsys.readouterr()
    assert run(root, "rulebook", "--game", "test") == 0
    assert "book to hand out" not in capsys.readouterr().err
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 0
    said = [w for w in capsys.readouterr().err.splitlines() if "still prints" in w]
    assert said == [f"pnpgen: warning: data/test/draft.txt:{line}: the book to hand out still prints “未定” left in the "
                    "draft's rules: イラスト：未定, and 1 more line (pnpgen check lists them; settle them in the draft "
                    "before the book goes to print)"], said
    assert "イラスト：未定" in " ".join(texts(root / "build" / "test" / "doujin-book" / "rulebook.pdf"))


def _book_export(tmp_path, front, probe):
    """A test game's doujin-book export: the workspace, its folder, what ``probe`` finds in its
    rulebook.pdf, and the export's warnings."""
    import json

    root = make_workspace(tmp_path / "ws", draft=True, front=front)
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 0
    folder = root / "build" / "test" / "doujin-book"
    said = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
    return root, folder, probe((folder / "rulebook.pdf").read_bytes()), said


SMALL_FRONT = GRADIENT_FRONT.replace("size=12, min_size=7", "size=6, min_size=6")


def test_the_pictures_small_text_is_warned_once_with_its_smallest_size_and_page(tmp_path):
    """populous' shop book carries the cards' text drawn as small as 1.75 pt in the pieces'
    pictures, which a RIP's "text below n pt" check lists: the export said nothing of it. One line
    says the smallest size and its page, as the PDF shows them; outlined, there is no text to list."""
    import json

    from pnpgen.exports import book
    from pnpgen.exports.book import SMALL_TEXT_PT
    from pnpgen.pdf.overprint import small_text

    root, folder, found, said = _book_export(tmp_path, SMALL_FRONT, lambda pdf: small_text(pdf, SMALL_TEXT_PT))
    assert found, "the test's pictures carry no text under 5 pt: the test proves nothing"
    page, size = min(found, key=lambda hit: (hit[1], hit[0]))
    said = [w for w in said if "text as small as" in w]  # in English for a Japanese game too, as every terminal line (README)
    # safety17: it begins with the draft's line the page sets (■　概要, line 3, opens page 3), as every
    # other warning of the export begins with its file and line
    draft = (root / "data" / "test" / "draft.txt").read_text(encoding="utf-8").splitlines()
    assert page + 1 == 3 and draft[2] == "■　概要", (page, draft[:3])
    assert len(said) == 1 and said[0].startswith(f"data/test/draft.txt:3: rulebook.pdf page {page + 1}"), said
    assert f"text as small as {size:g} pt, under 5 pt" in said[0] and "--outline-text" in said[0]
    assert "pt 未満" not in said[0]  # (it was said in Japanese, the game's language)
    assert book._small_text_said((folder / "rulebook.pdf").read_bytes(), [""] * 8)[0].startswith(f"rulebook.pdf page {page + 1}")
    assert run(root, "export", "--game", "test", "--preset", "doujin-book", "--outline-text",
               "--out", str(tmp_path / "outlined")) == 0
    outlined = tmp_path / "outlined" / "test" / "doujin-book"
    assert small_text((outlined / "rulebook.pdf").read_bytes(), SMALL_TEXT_PT) == []
    assert not [w for w in json.loads((outlined / "export.json").read_text(encoding="utf-8"))["warnings"]
                if "text as small as" in w]


def test_the_docs_doujin_book_example_is_what_populous_export_says(tmp_path):
    """docs/exports.md quoted 「22 pages of the rulebook and 2 blank」, which no shipped game's shop
    book was (populous' is 18 + 2): the example is read against populous' export, with the small
    text line it quotes."""
    import json
    import re
    import shutil

    from conftest import REPO

    docs = (REPO / "docs" / "exports.md").read_text(encoding="utf-8")
    root = tmp_path / "ws"
    shutil.copytree(REPO / "data" / "populous", root / "data" / "populous")
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "fonts").symlink_to(REPO / "fonts")
    assert run(root, "export", "--game", "populous", "--preset", "doujin-book") == 0
    said = json.loads((root / "build" / "populous" / "doujin-book" / "export.json").read_text(encoding="utf-8"))["warnings"]
    blanks = re.search(r"says so \(populous' book[^`]*`[^`]*`\):\n`([^`]*)`", docs)
    assert blanks and blanks.group(1) in said, (blanks, said)
    small = re.search(r"\(populous':\s*`(data/populous/draft\.txt:\d+: rulebook\.pdf page \d+ and \d+ more pages: [^`]*?) …`\)", docs)
    assert small and any(w.startswith(small.group(1)) for w in said), (small, said)


def test_pages_after_the_rules_and_the_blank_pages_are_said_with_the_draft_alone(book, tmp_path, capsys):
    """safety17: the quick reference, the index and the colophon were tagged with the line of the
    last draft block before them, as if that block set them; they start with the draft alone, as
    the cover does. The blank pages' line began with rulebook.pdf alone: it names the draft too."""
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace
    from pnpgen.rulebook import build_rulebook

    ws = Workspace(book["root"])
    got = build_rulebook(load_game(ws, "test"), ws.fonts, rules_only=True, booklet=False)
    pages = texts(got.files["rulebook.pdf"])
    after = next(i for i, text in enumerate(pages) if "早見表" in text.split("\n")[0] or "索引" in text.split("\n")[0])
    assert 2 < after < len(pages) - 1 and len(got.page_lines) == len(pages)
    assert all(got.page_lines[i] > 0 for i in range(2, after)), got.page_lines  # the rules' pages: their lines
    assert got.page_lines[after:] == [0] * (len(pages) - after), got.page_lines
    assert run(book["root"], "export", "--game", "test", "--preset", "doujin-book", "--out", str(tmp_path)) == 0
    blanks = [w for w in capsys.readouterr().err.splitlines() if "blank, 8 in all" in w]
    assert blanks == ["pnpgen: warning: data/test/draft.txt: rulebook.pdf: 5 pages of the rulebook and 3 blank, 8 in all: "
                      "同人印刷所（ルールブック A5中綴じ） binds a multiple of 4 pages (page_multiple); blank: pages 5–7 "
                      "(the last page, the colophon, stays last)"], blanks


def test_the_pieces_pictures_lines_are_at_least_the_shops_thinnest(book):
    """doujin-book's min_line (0.1 mm, as the cards'): the pieces' pictures are their faces drawn
    smaller, whose borders the A5 book draws thinner than that; the shop's book draws each at
    least 0.1 mm as printed (a shop's preflight: pnpgen preflight's hairline error), the marks
    in the registration colour as they are."""
    from pnpgen.preflight.content import walk

    def widths(path, marks: bool) -> list[float]:
        with pikepdf.open(path) as doc:
            return [p.width for i, page in enumerate(doc.pages) for p in walk(page, i + 1)
                    if p.kind == "stroke" and (p.colour[0] == "sep") == marks]

    assert min(widths(book["a5"], False)) < 0.1 * 72 / 25.4 - 0.01  # the home book's pictures: hairlines
    assert min(widths(book["shop"], False)) >= 0.1 * 72 / 25.4 - 1e-4
    assert set(widths(book["shop"], True)) == {0.25}  # the トンボ, drawn as the cards' are
    folder = book["folder"]
    assert run(book["root"], "preflight", str(folder)) == 0
