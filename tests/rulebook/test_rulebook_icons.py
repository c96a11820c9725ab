"""Icons in the draft: ``{coin}`` in a rule is drawn as the cards draw it (the game's icons/,
the workspace's, pnpgen's own), one em square on the line, where the text leaves it an em; a
``{name}`` no icon has stays text and is warned about. It printed ``{coin}`` as written."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, DRAFT, GAME_YAML, make_workspace, run
from pdfprobe import Glyph, glyphs, shown, shown_sizes

PT_MM = 25.4 / 72
RULE = "１：{coin}を１枚得る。{coin}{coin}は{vp}と交換する。{未知}はそのまま。"
BODY_PT = 9.0  # the body's size (rulebook/styles.py BODY_SIZE)


def _icons(pdf, n: int) -> list[tuple[float, float, float]]:
    """(x, y of its square's bottom-left corner from the page's bottom-left, em) in points of each
    icon page ``n`` places: the Form XObjects drawn at the scale of a 10 mm square to an em."""
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    for obj in doc[n].get_objects(max_depth=1):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
            a, _, _, d, e, f = obj.get_matrix().get()
            if abs(a - d) < 1e-6 and a * 10 / PT_MM < 12:  # (the pieces' pictures are larger)
                out.append((e, f, a * 10 / PT_MM))
    return sorted(out)


@pytest.mark.parametrize("style", ["jlreq", "proportional"])
def test_icons_in_the_draft_are_drawn_an_em_wide_on_the_line(tmp_path, capsys, style):
    ws = make_workspace(tmp_path / "ws", draft=True,
                        game=GAME_YAML + f"rulebook: {{style: {style}}}\n")
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("１：カードを１枚引く。", RULE), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    err = capsys.readouterr().err
    assert "{未知}」 names no icon" in err and "{coin}" not in err, err
    pdf = tmp_path / "out" / "test" / "rulebook.pdf"
    pages = PdfReader(pdf).pages
    n = next(i for i, p in enumerate(pages) if "交換する" in p.extract_text())
    text = pages[n].extract_text()
    assert "{coin}" not in text and "{vp}" not in text and "{未知}" in text
    placed = _icons(pdf, n)
    assert len(placed) == 4  # coin, coin, coin, vp
    assert len([x for x in pages[n]["/Resources"]["/XObject"] if "icon-" in x]) == 2  # one form per icon
    x, y, em = placed[0]
    assert em == pytest.approx(BODY_PT, abs=0.01)
    line_y = (float(pages[n].mediabox.height) - (y + 0.12 * em)) * PT_MM  # its baseline, mm from the top
    after = min((g for g in glyphs(pdf)[n] if abs(g.y - line_y) < 0.3 and g.x > x * PT_MM), key=lambda g: g.x)
    assert after.char == "を" and after.x == pytest.approx((x + em) * PT_MM, abs=em * 0.3 * PT_MM), after
    assert placed[2][0] - placed[1][0] == pytest.approx(em, abs=em * 0.3)  # {coin}{coin}: side by side


ENGLISH_GAME = GAME_YAML.replace("title: テストゲーム", "languages: [en]\ntitle: Test")
ENGLISH_DRAFT = ("# Test (Draft 1)\n\n## Components\n\n- 11 Test cards\n\n## Playing the game\n\n"
                 "1. Gain {coin} and pay {vp}{vp} to draw a card.\n")


def _english(root: Path, draft: str = ENGLISH_DRAFT) -> Path:
    """The test workspace as an English game whose draft is ``draft``."""
    ws = make_workspace(root, draft=True, game=ENGLISH_GAME)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    return ws


@pytest.fixture(scope="module")
def english_book(tmp_path_factory) -> Path:
    """The rulebook of ``ENGLISH_DRAFT``: its rules and its quick reference show the icons."""
    out = tmp_path_factory.mktemp("english-icons")
    assert run(_english(out / "ws"), "rulebook", "--game", "test", "--out", str(out / "out")) == 0
    return out / "out" / "test" / "rulebook.pdf"


def test_icons_in_an_english_draft_sit_between_its_words(english_book):
    """A Latin-script book sets its lines word by word: an icon is an em square in its word."""
    pdf = english_book
    pages = PdfReader(pdf).pages
    n = next(i for i, p in enumerate(pages) if "draw a card" in p.extract_text())
    assert "{coin}" not in pages[n].extract_text()
    placed = _icons(pdf, n)
    assert len(placed) == 3
    x, y, em = placed[0]
    line_y = (float(pages[n].mediabox.height) - (y + 0.12 * em)) * PT_MM
    words = [g for g in glyphs(pdf)[n] if abs(g.y - line_y) < 0.3 and g.char.strip()]
    before = max((g for g in words if g.x < x * PT_MM), key=lambda g: g.x)
    after = min((g for g in words if g.x > x * PT_MM), key=lambda g: g.x)
    assert before.char == "n" and after.char == "a", (before, after)  # "Gain {coin} and"
    assert after.x > (x + em) * PT_MM  # the word space after the icon
    assert placed[2][0] - placed[1][0] == pytest.approx(em, abs=0.01)  # {vp}{vp}: one word of two icons


def test_an_english_books_running_head_draws_no_space_its_font_lacks(tmp_path):
    """An English draft in BIZ UD's fonts (named in game.yaml: an English book names none is set
    in Noto): the en space between the title and the draft in the running head is in no font of
    BIZ UDPGothic's chain, and it printed a box (a glyph a viewer reads as no character at all)."""
    ws = _english(tmp_path / "ws", "# Test (Draft 1)\n\n## Playing the game\n\n1. Draw a card.\n")
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "fonts: {gothic: BIZUDPGothic-Regular}\n", encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    pages = glyphs(tmp_path / "out" / "test" / "rulebook.pdf")
    heads = [g for page in pages[1:] for g in page if g.y < 20 and g.obj is not None]  # 12 mm from the top
    assert "".join(g.char for g in heads).startswith("Test Draft 1")
    assert all(g.char for g in heads), [(g.char, g.font) for g in heads if not g.char]
    assert {g.font for g in heads} == {"BIZUDPGothic-Regular"}


def test_icons_in_the_quick_reference_are_drawn_as_in_the_rules(english_book):
    """The quick reference (早見表) repeats the draft's steps: its ``{coin}`` is the icon the rules
    page draws. It printed ``{coin}`` as written there, the rules page beside it drawing the icon."""
    pdf = english_book
    pages = PdfReader(pdf).pages
    n = max(i for i, p in enumerate(pages) if "draw a card" in p.extract_text())  # the quick reference's
    assert "Quick reference" in pages[n].extract_text() and "{coin}" not in pages[n].extract_text()
    assert len(_icons(pdf, n)) == 3


HEADINGS = DRAFT.replace("■　ゲームの進行", "■　{coin}の獲得").replace("１：カードを１枚引く。", "１：カードを引く").replace(
    "２：カードを１枚出す。", "２：{coin}の支払い\n◇{vp}{vp}の計算\n　{vp}を数える。\n◎{coin}の戻し方\n　戻す。\n"
    + "　ルールの文章です。\n" * 40)


def _placed(pdf, n: int) -> list[tuple[float, float, float]]:
    """(x, y from the page's top, em) in millimetres of each icon page ``n`` places, by its top."""
    h = PdfReader(pdf).pages[n].mediabox.height
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    for obj in doc[n].get_objects(max_depth=1):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
            a, _, _, d, e, f = obj.get_matrix().get()
            if abs(a - d) < 1e-6 and abs(1 / a - round(1 / a)) > 1e-4:  # (not a piece's picture at 1/n)
                em = a * 10 / PT_MM
                out.append((e * PT_MM, (float(h) - f - em) * PT_MM, em))
    return sorted(out, key=lambda t: (t[1], t[0]))


def test_icons_in_headings_are_drawn_in_them_the_contents_and_the_running_head(tmp_path, capsys):
    """``■　{coin}の獲得``, a step ``２：{coin}の支払い``, ``◇{vp}{vp}の計算`` and ``◎{coin}の戻し方``:
    each icon is drawn an em of its heading's size where the braces were (they printed as
    written, with a warning), in the contents' lines and the running head too, and a PDF
    bookmark, which holds text, names it (「3　coinの獲得」)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(HEADINGS, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    err = capsys.readouterr().err
    assert "{coin}" not in err and "{vp}" not in err, err
    pdf = tmp_path / "out" / "test" / "rulebook.pdf"
    reader = PdfReader(pdf)
    assert not any("{" in page.extract_text() for page in reader.pages)
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    steps = [item.title for item in reader.outline[3]] if isinstance(reader.outline[3], list) else []
    assert "3\u3000coinの獲得" in titles and "3.2\u3000coinの支払い" in steps, (titles, steps)
    assert [round(em, 1) for _, _, em in _placed(pdf, 1)] == [10.0, 8.8]  # the contents' two levels
    heads = [(x, y, round(em, 1)) for x, y, em in _placed(pdf, 2)]
    assert [em for _, _, em in heads] == [14.0, 11.5, 10.5, 10.5, 9.0, 9.0], heads  # 3, 3.2, ◇ (twice), ◎, the text
    # (each glyph where it is drawn: a heading's line that holds a 　 is a marked span, which a viewer
    # reads as its ActualText spread evenly over the span)
    rows = [Glyph(c, gx, gy, "", 0.0, True, None) for c, gx, gy in shown(pdf, 3)]
    for x, y, em in heads[:4:3] + heads[1:2]:  # the section's, the step's and the ◇'s second: the next character an em on
        after = min((g for g in rows if abs(g.y - (y + em * PT_MM * 0.88)) < 1.2 and g.x > x and not g.char.isspace()),
                    key=lambda g: g.x)
        assert after.char in "のを" and after.x == pytest.approx(x + em * PT_MM, abs=0.35), (x, y, em, after)
    assert heads[3][0] - heads[2][0] == pytest.approx(10.5 * PT_MM, abs=0.05)  # {vp}{vp}: side by side
    running = [(x, y, em) for n in range(3, len(reader.pages)) for x, y, em in _placed(pdf, n) if y < 15]
    assert running and all(round(em, 1) == 7.0 for _, _, em in running), running  # the running head's section
    assert "の獲得" in reader.pages[3].extract_text()


def test_steps_numbered_with_a_full_stop_are_told(tmp_path, capsys):
    """Japanese trial: steps written 「１．カードを引く。」 were lines of text, the 早見表 saying the turn
    was 草案に記載なし."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("１：", "１．").replace("２：", "２．"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert ("draft.txt:14: 「１．カードを１枚引く。」 and 1 more is numbered with a full stop, which the book reads as a line "
            "of text, not a step") in out and "(expected １：カードを１枚引く。 or １）, as steps are written)" in out, out


BOMB = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaaaaaaaaaaaa">'
        + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 20}">' for a, b in zip("abcdef", "bcdefg", strict=True))
        + ']><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="&g;"/></svg>')


def test_an_icon_the_draft_cannot_draw_is_one_line_at_the_drafts_line(tmp_path, capsys):
    """An icon that is no SVG (an XML bomb the parser stops), a shape icons may not use, or groups
    nested 250 deep: the build ended in a traceback from the rulebook's process."""
    from pnpgen.rulebook import inline

    ws = make_workspace(tmp_path / "ws", draft=True)
    icons = ws / "templates" / "test" / "icons"
    icons.mkdir(parents=True)
    (icons / "bomb.svg").write_text(BOMB, "utf-8")
    (icons / "deep.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' + "<g>" * 250
                                    + '<rect width="1" height="1"/>' + "</g>" * 250 + "</svg>", "utf-8")
    (icons / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="a.png"/></svg>')
    (tmp_path / "outside.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>', "utf-8")
    (icons / "out.svg").symlink_to(tmp_path / "outside.svg")  # refused on a card; the draft said 'names no icon'
    for name, why in (("deep", r"<rect> \(line 1 of the SVG\) is nested 252 elements deep, deeper than pnpgen draws"),
                      ("pic", "uses <image>"),
                      ("out", "'out.svg' is outside icons/")):
        with pytest.raises(inline.DraftIconError, match=why) as e:
            inline.draft_icons(f"x {{{name}}}", [icons], "#000")
        assert e.value.name == name
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("１：カードを１枚引く。", "１：{bomb}を得る。"), encoding="utf-8")
    line = draft.read_text("utf-8").splitlines().index("１：{bomb}を得る。") + 1
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pnpgen: error: data/test/draft.txt:{line}: icon templates/test/icons/bomb.svg:1:"), err
    assert " is not valid SVG: " in err, err
    assert "(used as {bomb} in the draft)" in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert run(ws, "check", "--game", "test") == 2  # check draws the draft's icons as the build would: it said ok
    out = capsys.readouterr().out
    assert f"error: data/test/draft.txt:{line}: icon templates/test/icons/bomb.svg:1:" in out and " is not valid SVG" in out, out


def test_an_icon_typed_in_full_width_braces_is_told_on_a_card_and_in_the_draft(tmp_path, capsys):
    """A 同人 designer's trial: ｛coin｝, typed with the input method on, printed as written on the
    card and in the rules without a word; ｛メモ｝ (no such icon) is text, left alone. The input
    method types the name's letters full-width too (｛ｃｏｉｎ｝), or one brace ({coin｝): told as well."""
    deck = DECK_YAML + ('  - {name: 金, text: "｛coin｝を得る。｛メモ｝"}\n  - {name: 銀, text: "{coin}を払う。"}\n'
                        '  - {name: 銅, text: "＊＊2＊＊を得る。"}\n  - {name: 錫, text: "｛ｃｏｉｎ｝と{coin｝を得る。"}\n')
    ws = make_workspace(tmp_path / "ws", deck=deck, draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT + "\n　｛coin｝を払い、｛coin｝を得る。｛メモ｝\n\n　｛ｃｏｉｎ｝を払う。\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert ("data/test/decks/cards.yaml:9:21: deck 'cards' piece 1 (金) front, field 'text': ｛coin｝ in full-width "
            "braces: printed as written (an icon is {coin}, in half-width braces)") in out, out
    assert ("cards.yaml:12:21: deck 'cards' piece 4 (錫) front, field 'text': ｛ｃｏｉｎ｝ typed full-width; {coin｝ typed "
            "full-width: printed as written (an icon is {coin}, in half-width braces)") in out, out  # a letter or one brace
    assert "draft.txt:17: “｛coin｝” and 2 more is an icon's name in full-width braces, so the rulebook prints it as " \
           "written (expected {coin}, in half-width braces)" in out, out
    assert "メモ" not in out and "銀" not in out
    assert ("cards.yaml:11:21: deck 'cards' piece 3 (銅) front, field 'text': ＊＊2＊＊ in full-width asterisks: printed as "
            "written (markup is typed in half-width characters: **bold**, [name]…[/name])") in out, out


def test_a_heading_that_breaks_at_its_icon_is_set(tmp_path, capsys):
    """hostile10: a heading long enough to break its line where an icon's space falls stopped the
    book with a TypeError from ReportLab's line breaking (``■　ああ…あ{coin}あ``, 33 kana before
    it on the A5 page). Headings of each length round the line's are set, their icons drawn, and
    no text is set at 0 pt to do it (preflight7)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    heads = "".join(f"■　{'あ' * k}{{coin}}あ\n\n■　{'ab' * k}{{coin}}x\n\n" for k in (33, *range(28, 33), *range(34, 40)))
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT + "\n" + heads, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test", "--rules-only", "--out", str(tmp_path / "out")) == 0, \
        capsys.readouterr().err
    pdf = tmp_path / "out" / "test" / "rulebook.pdf"
    drawn = [p for n in range(len(PdfReader(pdf).pages)) for p in _placed(pdf, n) if round(p[2], 1) == 14.0]
    assert len(drawn) == 24, drawn  # each heading's icon, an em of its size
    sizes = sorted({round(size, 2) for size in shown_sizes(pdf)})
    assert sizes[0] >= 5, sizes  # preflight7: a no-break space at 0 pt after each icon, a page number of the
    # contents shrunk to 4.3 pt to fit its line: "text below 5 pt" to a RIP


def test_an_icon_in_a_sections_heading_that_cannot_be_drawn_is_told_at_its_line(tmp_path, capsys):
    """hostile10: ``■　{bad}の獲得`` with an icon file that is no SVG was told without a line (only
    a step's or a paragraph's icon was looked for)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    icons = ws / "templates" / "test" / "icons"
    icons.mkdir(parents=True)
    (icons / "bad.svg").write_bytes(b"\x89PNG\r\n")
    draft = DRAFT + "\n■　{bad}の獲得\n"
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 2
    line = draft.splitlines().index("■　{bad}の獲得") + 1
    assert capsys.readouterr().err.startswith(f"pnpgen: error: data/test/draft.txt:{line}: icon ")


TABLE = ("１：カードを１枚引く。\n\n"
         "　種類　　　効果\n"
         "　攻撃　　　相手に{coin}を払わせる\n"
         "　{vp}　　　得点を得る\n")  # ({vp} is as wide as 種類 in an editor)


def test_icons_in_a_drafts_table_are_drawn_and_its_columns_stay_aligned(tmp_path):
    """An aligned table of the draft (a diagram) printed ``{coin}`` as written: it draws the icon
    in a full-width cell, and the column after an icon starts where the draft aligned it."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("１：カードを１枚引く。\n", TABLE), encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    pdf = tmp_path / "out" / "test" / "rulebook.pdf"
    shown = glyphs(pdf)
    n = next(i for i, page in enumerate(shown) if any(g.char == "払" for g in page))
    assert not any(g.char in "{}" for g in shown[n])
    placed = _icons(pdf, n)
    assert len(placed) == 2, placed  # coin in the second column, vp in the first
    on_page = shown[n]
    first = {ch: min(g.x for g in on_page if g.char == ch) for ch in "種効相得"}  # each row's, mm
    assert first["相"] == pytest.approx(first["効"], abs=0.2)
    assert first["得"] == pytest.approx(first["効"], abs=0.2)  # after {vp}: where the draft aligned it
    vp_x = placed[0][0] * PT_MM  # (sorted by x: vp stands in the first column)
    assert vp_x == pytest.approx(first["種"], abs=0.6)


def test_an_english_books_quick_reference_draws_no_space_its_font_lacks(tmp_path):
    """An English draft in the default (Japanese) fonts (a game of `languages: [ja, en]` with no
    `fonts: {en: …}`): the en space between a step's number and its title in the quick reference
    is in no font of BIZ UDP Mincho's chain, and it printed a box, `4.1☒Place a tile`."""
    draft = "# Test (Draft 1)\n\n## Playing the game\n\n1. Place a tile\n   Draw a tile and place it.\n2. Explore\n   Roll the die.\n"
    ws = _english(tmp_path / "ws", draft)
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    pages = glyphs(tmp_path / "out" / "test" / "rulebook.pdf")
    quick = next(page for page in pages if "".join(g.char for g in page).lstrip().startswith("Quick reference"))
    assert "".join(g.char for g in quick).count("Place a tile") == 1
    assert all(g.char for g in quick if g.obj is not None), [(g.char, g.font) for g in quick if not g.char]
