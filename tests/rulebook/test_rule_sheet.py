"""The rule sheet (rule-sheet.pdf, rulebook/sheet.py): the rules on one sheet of paper, in columns,
for the table at a playtest (trial63: a five-section draft was always a 6-page A5 book; trial67: a
handout could not be a cover-less single sheet). Read back as a designer would check it: its pages
and their size in mm, where its columns stand, each heading once, nothing past the margins, what
does not fit warned and still printed."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import DRAFT, FEW_CARDS, GAME_YAML, REPO, make_workspace, remove_tree, run
from pdfprobe import glyphs, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.rulebook import build_rulebook, pictures_from_game
from pnpgen.rulebook.figures import load_settings

SLUG = "alicematic-medallions"  # the shortest of the four drafts (../shared/drafts/README.md), with draft.en.txt
PT = 25.4 / 72


def _page_mm(pdf: bytes) -> list[tuple[float, float]]:
    import io

    from pypdf import PdfReader

    return [(round(float(p.mediabox.width) * PT, 1), round(float(p.mediabox.height) * PT, 1))
            for p in PdfReader(io.BytesIO(pdf)).pages]


def _on_page(pdf: bytes) -> list[list]:
    """Each page's characters the page itself draws (not a piece's picture), spaces left out."""
    return [[g for g in page if g.on_page and g.char.strip()] for page in glyphs(pdf)]


@pytest.fixture(scope="module")
def medallions(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("sheet")
    shutil.copytree(REPO / "data" / SLUG, ws / "data" / SLUG)
    shutil.copytree(REPO / "templates" / SLUG, ws / "templates" / SLUG)
    (ws / "fonts").symlink_to(REPO / "fonts")
    return ws


@pytest.fixture(scope="module")
def japanese(medallions: Path):
    """The real game's Japanese draft set with ``--rule-sheet``'s default sheet (the game asks for none)."""
    game = load_game(Workspace(medallions), SLUG)
    return build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, medallions / "templates"),
                          rule_sheet=True)


def test_the_shortest_draft_is_one_a4_sheet_both_sides_in_two_columns(japanese):
    pdf = japanese.files["rule-sheet.pdf"]
    assert _page_mm(pdf) == [(297.0, 210.0)] * 2  # the game's paper (A4), landscape: a sheet's two sides
    assert "rule sheet: rule-sheet.pdf, A4 landscape, 2 columns, 2 sides (print both sides, flip on the short edge)" \
        in japanese.report
    assert japanese.report[-1].startswith("rulebook: 11 A5 pages")  # (the build's summary stays the book's line)
    assert not [w for w in japanese.warnings if "rule sheet" in w]
    pages = _on_page(pdf)
    # the two columns: 10 mm margins, an 8 mm gap, each (297 − 20 − 8) / 2 = 134.5 mm wide
    numbers = {g.char: round(g.x, 1) for g in pages[0] if abs(g.size - 14) < 0.1 and g.char in "1234"}
    assert numbers == {"1": 10.0, "2": 10.0, "3": 152.5, "4": 152.5}, numbers  # the sections' numbers: 1, 2 left, 3, 4 right
    for page in pages:  # nothing past the margins a home printer needs
        assert min(g.x for g in page) >= 10 - 0.01 and max(g.x for g in page) <= 287
        assert min(g.y for g in page) >= 10 and max(g.y for g in page) <= 200
    text = "".join(texts(pdf)).replace("\r\n", "")
    for heading in ("1　概要", "2　コンポーネント", "3　ゲームの準備", "4　ゲームの進行"):
        assert text.count(heading) == 1, heading  # every section once: no contents page repeating them
    for book_only in ("目次", "索引", "付録", "早見表", "プレイテスト用"):
        assert book_only not in text  # the booklet's cover, contents, index, appendix; no 早見表 unless asked
    head = texts(pdf)[0].splitlines()
    assert head[0] == "Alicematic 刻印抄　アリスと７つのメダリオン" and head[1].replace(" ", "") == "プレイ人数　3〜5人　草案１　2026年11月30日"
    # read in order: the head, then the first column, then the second; the back goes on with the text
    assert text.index("概要") < text.index("アリスカード") < text.index("メダリオンカード") < text.index("ゲームの進行")
    # the draft's last words, on the back: nothing cut off (wherever its lines break)
    assert "引き分けとしてください" in "".join(texts(pdf)[1].split())


@pytest.mark.parametrize("two_pass, said", [
    (True, "2 sides (in two passes: side 1, the sheet turned over on the short edge, side 2)"),
    (None, "2 sides (print both sides, flip on the short edge; no duplex: side 1, the sheet turned over on the short "
           "edge, side 2)")])
def test_a_sheet_printed_without_duplex_is_told_the_two_passes_as_the_booklet_is(medallions, two_pass, said):
    """A sleeve or fold-over build (``--duplex none`` too) is told as a build without duplex: the
    booklet's note says two passes, and so does the sheet's line; ``pnpgen rulebook`` alone says both."""
    game = load_game(Workspace(medallions), SLUG)
    book = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, medallions / "templates"),
                          rule_sheet=True, two_pass=two_pass, rules_only=True)
    assert f"rule sheet: rule-sheet.pdf, A4 landscape, 2 columns, {said}" in book.report


def test_the_english_draft_in_three_columns_is_one_sheet_and_in_two_is_warned_as_three_sides(medallions):
    """An English edition: the same sheet, set in Latin faces; two columns of it take a third side,
    said with how much is over, and printed whole; three columns keep it to one sheet."""
    game_yaml = medallions / "data" / SLUG / "game.yaml"
    plain = game_yaml.read_text(encoding="utf-8")
    try:
        game = load_game(Workspace(medallions), SLUG, lang="en")
        two = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, medallions / "templates"),
                             rule_sheet=True)
        game_yaml.write_text(plain + "rulebook:\n  sheet: {columns: 3, time: {ja: 30分, en: 30 min}}\n", encoding="utf-8")
        game = load_game(Workspace(medallions), SLUG, lang="en")
        three = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, medallions / "templates"))
    finally:
        game_yaml.write_text(plain, encoding="utf-8")
    over = [w for w in two.warnings if "rule sheet" in w]
    assert len(over) == 1 and "draft.en.txt: the rule sheet (rule-sheet.pdf, A4 landscape, 2 columns) takes 3 sides, " \
        "more than the two of one sheet: 0.1 columns of text past the back, some 2 lines of the body; all of it is printed" in over[0], over
    pdf = two.files["rule-sheet.pdf"]
    assert len(_page_mm(pdf)) == 3 and "equal too, the game is" in texts(pdf)[2]  # the over-long text is on the third side
    pdf = three.files["rule-sheet.pdf"]
    assert _page_mm(pdf) == [(297.0, 210.0)] * 2 and not [w for w in three.warnings if "rule sheet" in w]
    head = texts(pdf)[0].splitlines()
    assert head[1].startswith("Players: 3–5 · Time: 30 min · Draft 1 · 30 November 2026"), head[:2]
    columns = {round(g.x, 1) for g in _on_page(pdf)[0] if abs(g.size - 14) < 0.1 and g.char in "1234"}
    # three columns of (297 − 20 − 16) / 3 = 87 mm: the sections' numbers at 10, 105 and 200 mm
    assert columns == {10.0, 105.0, 200.0}, columns
    assert "Game setup" in texts(pdf)[0] and "".join(texts(pdf)).count("Game setup") == 1


def _tiny(tmp_path: Path, sheet: str, draft: str = DRAFT) -> Path:
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, game=GAME_YAML + f"rulebook:\n  sheet: {sheet}\n")
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    return ws


def test_a_build_of_a_game_asking_for_a_sheet_writes_it_names_it_and_takes_it_back_when_no_longer_asked(tmp_path, capsys):
    ws = _tiny(tmp_path, "{paper: letter, orientation: portrait, quick_reference: true}")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "  rule sheet: rule-sheet.pdf, Letter portrait, 2 columns, one side\n" in out, out
    folder = ws / "build" / "test"
    pdf = (folder / "rule-sheet.pdf").read_bytes()
    assert _page_mm(pdf) == [(215.9, 279.4)]
    text = texts(pdf)[0]
    assert "早見表" in text and text.count("カードを１枚出す。") == 2  # the rules' step, and its line in the 早見表
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert "rule-sheet.pdf" in manifest["files"] and "rule-sheet.pdf" in manifest["rulebook"]["files"]
    book = manifest["bill_of_materials"]["rulebook"]
    assert (book["rule_sheet"], book["rule_sheet_paper"], book["rule_sheet_orientation"]) == \
        ("rule-sheet.pdf", "letter", "portrait")
    # the printed bill of materials (drawn before the rulebook's process reports the sheet) says so
    # too, with the paper and orientation game.yaml gives (sheet44: it sent a reader of paper to the
    # terminal's summary), its sides not yet known
    bom = "".join(texts((folder / "test-all.pdf").read_bytes())[-1].split())
    assert "ルールシート1部：rule-sheet.pdfをLetter縦の片面または両面に印刷（2ページあれば両面・長辺とじ）" in bom, bom
    assert "ルールブック1部" in bom and "ビルドの要約" not in bom, bom
    # the same inputs in another folder: the same bytes
    other = Path(shutil.copytree(ws, tmp_path / "elsewhere", symlinks=True))
    remove_tree(other / "build")
    assert run(other, "build", "--game", "test", "--jobs", "1", "-q") == 0
    assert (other / "build" / "test" / "rule-sheet.pdf").read_bytes() == pdf
    game_yaml = ws / "data" / "test" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("rulebook:\n  sheet: ", "x: ").split("x: ")[0],
                         encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1", "-q") == 0
    assert not (folder / "rule-sheet.pdf").exists() and (folder / "rulebook.pdf").exists()
    assert "rule_sheet" not in json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]["rulebook"]
    assert "rule-sheet.pdf" not in "".join(texts((folder / "test-all.pdf").read_bytes())[-1].split())


def test_a_draft_longer_than_two_sides_is_warned_with_how_much_and_printed_whole(tmp_path, capsys):
    long = DRAFT + "".join(f"\n■　規則{n}\n\n" + "".join(f"　規則{n}の第{k}段落です。" + "文章が続きます。" * 12 + "\n"
                                                         for k in range(1, 9)) for n in range(1, 9))
    ws = _tiny(tmp_path, "true", long)
    assert run(ws, "rulebook", "--game", "test") == 0
    err = capsys.readouterr().err
    said = re.search(r"data/test/draft\.txt: the rule sheet \(rule-sheet\.pdf, A4 landscape, 2 columns\) takes (\d) sides, "
                     r"more than the two of one sheet: ([\d.]+) columns of text past the back, some (\d+) lines of the "
                     r"body; all of it is printed, nothing cut off \(.*hand out the booklet, rulebook-booklet\.pdf\)\n", err)
    assert said, err
    sides, columns, lines = int(said[1]), float(said[2]), int(said[3])
    pdf = (ws / "build" / "test" / "rule-sheet.pdf").read_bytes()
    assert len(_page_mm(pdf)) == sides == 4 and "規則8の第8段落です。" in texts(pdf)[-1].replace(" ", "")  # the last words on the last side
    assert 3 < columns <= 4 and lines == round(columns * 34.6)  # a later side's column: 183 mm of 15 pt lines
    # pnpgen check made the sheet's story and set no page: this draft passed it without a word. It sets
    # the sheet as the build does (the decks' pictures in its components list): its line of the
    # summary, and the same warning, word for word
    assert run(ws, "check", "--game", "test") == 0
    checked = capsys.readouterr().out
    assert "  rule sheet: rule-sheet.pdf, A4 landscape, 2 columns, 4 sides\n" in checked, checked
    assert f"  warning: {said[0].rstrip()}\n" in checked, checked


@pytest.mark.parametrize(("sheet", "said"), [
    ("{columns: 5}", "data/test/game.yaml:9:20: rulebook.sheet.columns: columns 5 is not a number of columns (expected a "
                     "whole number from 1 to 4 (default 2))"),
    ("{orientation: portrait, columns: 3}", "data/test/game.yaml:9:10: rulebook.sheet: 3 columns on a4 portrait (210 × 297 mm, "
                                            "margin 10 mm, gap 8 mm) are 58.0 mm wide, too narrow for the book's text "
                                            "(expected columns of at least 80 mm: fewer columns, the paper landscape, or a "
                                            "smaller margin or gap)"),
    ("{margin: 2mm}", "data/test/game.yaml:9:19: rulebook.sheet.margin: margin '2mm' is out of range (expected 5 to 40 mm)"),
    ("{orientation: sideways}", "rulebook.sheet.orientation: unknown orientation 'sideways' (expected one of landscape, portrait)"),
    ("{colums: 3}", "data/test/game.yaml:9:11: rulebook.sheet.colums: unknown key in sheet (expected one of paper, "
                    "orientation, columns, margin, gap, quick_reference, time, fold, text, pictures)"),
    ("yes please", "rulebook.sheet: 'yes please' is no setting of the rule sheet (expected true (A4 or Letter landscape, "
                   "two columns) or a mapping of paper, orientation, columns, margin, gap, quick_reference, time, fold, text, pictures)"),
    ("{text: 7pt}", "data/test/game.yaml:9:17: rulebook.sheet.text: text '7pt' is out of range (expected a size from 8pt to 9pt, "
                    "e.g. 8.5pt (default 9pt, the book's))"),
    ("{pictures: few}", "rulebook.sheet.pictures: 'few' is not true or false (expected true or false)"),
    ("{fold: true, orientation: portrait}", "rulebook.sheet.orientation: a folded sheet is landscape: its two halves, side "
                                            "by side, are its pages (expected orientation: landscape (or left out) with fold: true)"),
    ("{fold: true, columns: 2}", "data/test/game.yaml:9:10: rulebook.sheet: 2 columns on a page of a4 landscape folded in half "
                                 "(148.5 × 210 mm, margin 10 mm, gap 8 mm) are 60.2 mm wide, too narrow for the book's text (expected columns of at "
                                 "least 80 mm: one column a page of a folded sheet, a larger paper or a smaller margin)"),
])
def test_a_sheet_setting_that_cannot_be_is_told_at_its_line(tmp_path, capsys, sheet, said):
    ws = _tiny(tmp_path, sheet)
    assert run(ws, "rulebook", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err == f"pnpgen: error: {said}\n" if said.startswith("data/") else said in err, err
    assert not (ws / "build" / "test" / "rulebook.pdf").exists()


def test_a_column_of_80_mm_is_taken_and_one_a_millimetre_narrower_refused(tmp_path):
    """The edge of ``SHEET_COLUMN_MM``: A4 portrait in two columns with an 8 mm gap, margins of 21
    mm give (210 − 42 − 8) / 2 = 80 mm columns, taken; of 22 mm, 79 mm, refused."""
    ws = _tiny(tmp_path / "a", "{orientation: portrait, margin: 21mm}")
    sheet = load_settings(load_game(Workspace(ws), "test")).sheet
    assert sheet is not None and sheet.column_mm("a4") == 80.0
    ws = _tiny(tmp_path / "b", "{orientation: portrait, margin: 22mm}")
    with pytest.raises(InputError, match=r"are 79\.0 mm wide, too narrow"):
        load_settings(load_game(Workspace(ws), "test"))


def test_a_smaller_text_takes_columns_narrower_by_as_much(tmp_path):
    """``text: 8pt`` sets the sheet larger and scales it down by 8/9: a column of 80 mm of the book's
    text is 71.1 mm on the paper (book51: still refused under 80 mm). Three columns of A4 landscape
    inside 25 mm margins are 77 mm: taken at 8 pt, refused at 9 pt, and at 8.5 pt on Letter (71.1 mm)."""
    ws = _tiny(tmp_path / "a", "{columns: 3, margin: 25mm, text: 8pt}")
    sheet = load_settings(load_game(Workspace(ws), "test")).sheet
    assert sheet is not None and sheet.column_mm("a4") == 77.0
    ws = _tiny(tmp_path / "b", "{columns: 3, margin: 25mm}")
    with pytest.raises(InputError, match=r"are 77\.0 mm wide, too narrow .*at least 80 mm: fewer columns"):
        load_settings(load_game(Workspace(ws), "test"))
    ws = _tiny(tmp_path / "c", "{columns: 3, margin: 25mm, text: 8.5pt}")
    with pytest.raises(InputError, match=r"letter landscape .* are 71\.1 mm wide, too narrow for the book's text "
                                         r"\(expected columns of at least 75\.6 mm \(80 mm at the book's 9 pt text, "
                                         r"8\.5/9 of it at text: 8\.5pt\): fewer columns"):
        load_settings(load_game(Workspace(ws), "test"))


def test_a_sheets_orientation_and_paper_are_read_in_any_case(tmp_path):
    ws = _tiny(tmp_path, "{orientation: Portrait, paper: Letter, margin: 0.5in, gap: 6mm, columns: 2}")
    sheet = load_settings(load_game(Workspace(ws), "test")).sheet
    assert sheet is not None and not sheet.landscape and sheet.paper == "letter"
    assert (sheet.margin_mm, sheet.gap_mm) == (12.7, 6.0) and sheet.page_mm("a4") == (215.9, 279.4)
    assert round(sheet.column_mm("a4"), 2) == round((215.9 - 25.4 - 6) / 2, 2)


def test_a_sheet_on_jis_b5_is_b5_and_a_paper_it_does_not_take_names_b5_and_b4(tmp_path, capsys):
    """A designer's trial (trial71): a 同人 game's 説明書 on B5 (182 × 257 mm, JIS), the size a
    Japanese copier or print shop takes beside A4, was 'unknown paper'. The rule sheet takes JIS B5
    and B4; the home sheets do not (no card is laid out on them)."""
    ws = _tiny(tmp_path / "b5", "{paper: B5}")
    assert run(ws, "rulebook", "--game", "test", "--rule-sheet", "-q") == 0
    assert _page_mm((ws / "build" / "test" / "rule-sheet.pdf").read_bytes()) == [(257.0, 182.0)]
    ws = _tiny(tmp_path / "b6", "{paper: b6}")
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "game.yaml:9:18: rulebook.sheet.paper: unknown paper 'b6'" in err and "or b5 or b4 (JIS B5" in err, err


def test_the_answers_of_a_spoiler_section_start_a_side_of_their_own(tmp_path):
    """As the book starts a page for them (rulebook/story.py ``rules_section``): turned over, not read in play."""
    ws = _tiny(tmp_path, "{quick_reference: false}", DRAFT + "\n■　解答編（ネタバレ注意）\n\n　答えは３です。\n")
    assert run(ws, "rulebook", "--game", "test", "-q") == 0
    pages = [t.replace(" ", "") for t in texts((ws / "build" / "test" / "rule-sheet.pdf").read_bytes())]
    assert len(pages) == 2 and "解答編" not in pages[0] and "ゲームの進行" in pages[0]
    assert "4　解答編（ネタバレ注意）" in pages[1] and "答えは３です。" in pages[1]


def test_a_letter_games_sheet_is_letter_landscape_without_a_word_of_paper_in_the_sheet(tmp_path, capsys):
    """The game's own paper: game.yaml's ``paper: letter`` (the booklet's Letter) gives the sheet's."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, game=GAME_YAML + "paper: letter\n", draft=True)
    assert run(ws, "rulebook", "--game", "test", "--rule-sheet") == 0
    pdf = (ws / "build" / "test" / "rule-sheet.pdf").read_bytes()
    assert _page_mm(pdf) == [(279.4, 215.9)]
    head = texts(pdf)[0].replace(" ", "").splitlines()
    assert head[:2] == ["テストゲーム", "プレイ人数　2〜4人　草案３　2026年11月30日"]
    assert "rule-sheet.pdf" in capsys.readouterr().out


def test_a_map_the_book_holds_but_a_sheets_column_does_not_is_told_at_its_line(tmp_path, capsys):
    """A row of 28 □ fits the A5 page's 33 but not a column of three on A4 landscape (24): an error at
    its draft line saying what would fit, not a map printed past its column."""
    ws = _tiny(tmp_path, "{columns: 3}", DRAFT + "\n■　地図\n\n　" + "□" * 28 + "\n　" + "□" * 28 + "\n")
    assert run(ws, "rulebook", "--game", "test", "-q") == 2
    assert capsys.readouterr().err == (
        "pnpgen: error: data/test/draft.txt:19: a diagram's row 1 is 28 full-width characters wide, wider than the rule "
        "sheet's column (24) (expected rows of at most 24 full-width characters (49 half-width): a wider map split in "
        "two, or given fewer cells; or the sheet's columns wider (fewer columns, landscape))\n")
    assert not (ws / "build" / "test" / "rulebook.pdf").exists()  # all or nothing: the book is not written alone
    assert run(ws, "check", "--game", "test") == 2  # check says what the build would stop at
    assert "draft.txt:19: a diagram's row 1 is 28 full-width characters wide, wider than the rule sheet's column (24)" \
        in capsys.readouterr().out


STEPS_AND_END = """
■　ゲームの準備

１：山札を作る
　カードをよく混ぜて山札にします。

２：手札を配る
　各プレイヤーに手札を５枚ずつ配ります。

■　ゲームの終了

　山札が尽きたらゲームが終了します。最も多くカードを出した人が勝利します。
"""


def test_the_sheets_quick_reference_points_to_the_heading_a_line_is_under_not_a_page(tmp_path):
    """A sheet has sides, not pages: its 早見表 printed 「P.1」 beside every line (the book's page
    numbers). Each line names the heading it is explained under, as the sheet prints it: a
    one-sentence step's section (3), a step set as a heading (4.1, 4.2), the end's section (5);
    the booklet keeps its pages."""
    ws = _tiny(tmp_path, "{quick_reference: true}", DRAFT + STEPS_AND_END)
    assert run(ws, "rulebook", "--game", "test", "-q") == 0
    folder = ws / "build" / "test"
    lines = [re.sub(r"\s+", " ", line).strip() for page in texts((folder / "rule-sheet.pdf").read_bytes())
             for line in page.splitlines()]
    said = {line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1] for line in lines if re.search(r" →[\d.]+$", line)}
    assert said == {"1. カードを１枚引く。": "→3", "2. カードを１枚出す。": "→3", "4.1 山札を作る": "→4.1",
                    "4.2 手札を配る": "→4.2", "各プレイヤーに手札を５枚ずつ配ります。": "→4.2",
                    "山札が尽きたらゲームが終了します。": "→5", "最も多くカードを出した人が勝利します。": "→5"}, lines
    assert not [line for line in lines if "P." in line]
    book = "".join(texts((folder / "rulebook.pdf").read_bytes()))
    assert "早見表" in book and re.search(r"カードを１枚引く。\s*P\.\d", book)  # the booklet's own: pages



def _end_after(paragraphs: int, end: str) -> str:
    """DRAFT, a section of ``paragraphs`` paragraphs, then ``end``: a last section of its own."""
    body = "".join(f"　第{k}段落です。文章が続きます。文章が続きます。文章が続きます。\n\n" for k in range(paragraphs))
    return DRAFT + "\n■　手番の流れ\n\n" + body + "■　ゲームの終了\n\n" + end


def test_a_short_last_section_the_column_holds_whole_stays_on_the_first_side(tmp_path):
    """The book's 45 mm asked before a section's heading (no A5 page ends on a heading) asks no more on
    a sheet than the section stands: a contest entry's one-page rules (trial78, a 2-player game whose
    last section, two lines, went alone onto the back with some 30 mm of the first side's column left)."""
    ws = _tiny(tmp_path, "true", _end_after(12, "　山札が尽きたら終わります。\n"))
    assert run(ws, "rulebook", "--game", "test", "-q") == 0
    pdf = (ws / "build" / "test" / "rule-sheet.pdf").read_bytes()
    assert len(_page_mm(pdf)) == 1, "the short last section went onto a back of its own"
    page = _on_page(pdf)[0]
    assert "".join(g.char for g in page).endswith("5ゲームの終了山札が尽きたら終わります。")  # whole, last, on side 1
    assert max(g.y for g in page) <= 200  # within the 10 mm margin of the 210 mm sheet: nothing past it
    # a last section the rest of the column does not hold whole still asks the book's room: it starts
    # the back, its heading not left alone at the foot of the front
    ws = _tiny(tmp_path / "tall", "true", _end_after(12, "".join(f"　終了の規則{k}です。文章が続きます。\n\n" for k in range(8))))
    assert run(ws, "rulebook", "--game", "test", "-q") == 0
    sides = [t.replace(" ", "") for t in texts((ws / "build" / "test" / "rule-sheet.pdf").read_bytes())]
    assert len(sides) == 2 and "ゲームの終了" not in sides[0] and "5　ゲームの終了" in sides[1], sides


def test_an_example_box_and_a_figure_under_a_step_are_set_on_the_sheet(tmp_path):
    """A step's 【例】 box and a figure after a step are each kept together (GridKeep): the sheet's
    measure of what a step holds wrapped them outside any page and stopped every build asking for a
    sheet with a traceback (trial81: a 同人 card game's draft, its turn's steps with an example)."""
    draft = DRAFT + STEPS_AND_END.replace("５枚ずつ配ります。\n", "５枚ずつ配ります。\n\n【例】\n　３人なら１５枚を配ります。\n")
    ws = _tiny(tmp_path, "true\n  figures:\n    - {after: 山札を作る, caption: 山札の例, size: [70, 95], "
               "pieces: [{deck: cards, piece: 1, x: 35, y: 47}]}", draft)
    assert run(ws, "rulebook", "--game", "test", "-q") == 0
    text = "".join(texts((ws / "build" / "test" / "rule-sheet.pdf").read_bytes())).replace(" ", "")
    assert "図1　山札の例".replace(" ", "") in text and "３人なら１５枚を配ります。" in text, text
    assert text.index("山札の例") < text.index("4.2") < text.index("３人なら")  # each under its step



def test_a_folded_sheet_is_four_pages_imposed_to_read_in_order_once_folded(tmp_path, capsys):
    """A small box's rules on one A4 sheet folded in half (trial81: a 同人 card game's 4-page leaflet;
    the sheet's columns ran left to right across each side, which folded read back page first):
    ``fold: true`` sets pages half the sheet, one column each, imposed so that the sheet printed on
    both sides and folded reads page 1 outside right, 2 and 3 inside, 4 outside left."""
    ws = _tiny(tmp_path, "{fold: true}", _end_after(30, "　山札が尽きたら終わります。\n"))
    assert run(ws, "-v", "rulebook", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "  rule sheet: rule-sheet.pdf, A4 landscape folded in half, 1 column a page, 3 pages on 2 sides (print both " \
        "sides, flip on the short edge; no duplex: side 1, the sheet turned over on the short edge, side 2; fold in half, " \
        "page 1 outside)\n" in out, out
    pdf = (ws / "build" / "test" / "rule-sheet.pdf").read_bytes()
    assert _page_mm(pdf) == [(297.0, 210.0)] * 2  # one sheet, both sides
    # (the pages are placed pictures now: the body's 9 pt and the heads' 7 pt glyphs read where they print)
    front, inside = ([g for g in side if g.char.strip() and round(g.size, 1) in (7.0, 9.0)] for side in glyphs(pdf))
    assert not [g for g in front if g.x < 148.5]  # outside left: page 4, blank (the draft fills three)
    assert min(g.x for g in front) >= 148.5 + 10 - 0.01 and max(g.x for g in front) <= 297 - 10  # page 1, in its margins
    assert "".join(g.char for g in front).startswith("テスト用の小さなゲームです。")  # the first section's text
    left = "".join(g.char for g in inside if g.x < 148.5)
    right = "".join(g.char for g in inside if g.x >= 148.5)
    assert left.startswith("テストゲーム2第0段落です。") and right.startswith("テストゲーム3第"), (left[:20], right[:20])
    assert right.endswith("山札が尽きたら終わります。")  # the last section's text, on page 3
    assert min(g.x for g in inside if g.x >= 148.5) >= 148.5 + 10 - 0.01 and max(g.x for g in inside if g.x < 148.5) <= 148.5 - 10
    # the bill of materials a build prints (drawn before the sheet is set) says how it is printed and
    # folded, and the manifest records it folded (trial81: it said "one side or both")
    assert run(ws, "build", "--game", "test", "--jobs", "1", "-q") == 0
    folder = ws / "build" / "test"
    bom = "".join(texts((folder / "test-all.pdf").read_bytes())[-1].split())
    assert "ルールシート1部：rule-sheet.pdfをA4横の両面に印刷（短辺とじ）し、1ページ目を外に二つ折り。" in bom, bom
    assert "片面または両面" not in bom
    book = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]["rulebook"]
    assert book["rule_sheet_folded"] is True and book["rule_sheet_orientation"] == "landscape"


def test_a_folded_sheet_a_draft_overruns_fits_with_a_smaller_text_or_without_its_pictures(medallions):
    """trial81: a 3–4 page A5 draft took 5 pages folded, and the sheet could only set the book's 9 pt
    text and every picture. The English sample draft folded takes 5 pages, warned with the two settings
    that shorten it; ``text: 8.5pt`` sets the whole sheet at 8.5/9 (text, pictures and spacing), and
    ``pictures: false`` leaves out the pieces' pictures and the figures: each fits one sheet's 4 pages,
    inside its 10 mm margins."""
    game_yaml = medallions / "data" / SLUG / "game.yaml"
    # (the pages are placed pictures: their glyphs read where they print, the pieces' pictures' text too)

    def _drawn(pdf: bytes) -> list[list]:
        return [[g for g in side if g.char.strip() and g.size > 6.5] for side in glyphs(pdf)]

    plain = game_yaml.read_text(encoding="utf-8")

    def folded(sheet: str):
        game_yaml.write_text(plain + f"rulebook:\n  sheet: {sheet}\n", encoding="utf-8")
        game = load_game(Workspace(medallions), SLUG, lang="en")
        return build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, medallions / "templates"))

    try:
        nine, smaller, bare, flat = (folded(sheet) for sheet in (
            "{fold: true}", "{fold: true, text: 8.5pt}", "{fold: true, pictures: false}", "{text: 8pt}"))
    finally:
        game_yaml.write_text(plain, encoding="utf-8")
    over = [w for w in nine.warnings if "rule sheet" in w]
    assert len(over) == 1 and "takes 5 pages" in over[0] and "text: 8pt (the book's 9 pt text and its spacing " \
        "smaller) or pictures: false (the rules' text alone) in game.yaml's rulebook: sheet:" in over[0], over
    assert len(_page_mm(nine.files["rule-sheet.pdf"])) == 4  # two sheets, both sides
    for book in (smaller, bare):
        assert not [w for w in book.warnings if "rule sheet" in w]
        assert _page_mm(book.files["rule-sheet.pdf"]) == [(297.0, 210.0)] * 2  # one sheet, both sides
    body = {round(g.size, 2) for side in _drawn(smaller.files["rule-sheet.pdf"]) for g in side}
    assert 8.5 in body and 9.0 not in body, body  # the body's 9 pt set at 8.5
    for side in _drawn(smaller.files["rule-sheet.pdf"]):
        for half in ([g for g in side if g.x < 148.5], [g for g in side if g.x >= 148.5]):
            if half:
                left = 0 if half[0].x < 148.5 else 148.5
                assert min(g.x for g in half) >= left + 10 - 0.05 and max(g.x for g in half) <= left + 148.5 - 10 + 0.05
    assert "Pictures are at 1/2" in "".join(texts(nine.files["rule-sheet.pdf"]))
    bare_text = "".join(texts(bare.files["rule-sheet.pdf"]))
    assert "Pictures are at 1/2" not in bare_text and "Medals that hold special powers" in bare_text
    # the cards' own text, pictured at half size, under 6 pt: none left
    assert [g for side in glyphs(nine.files["rule-sheet.pdf"]) for g in side if g.char.strip() and g.size < 6]
    assert not [g for side in glyphs(bare.files["rule-sheet.pdf"]) for g in side if g.char.strip() and g.size < 6]
    # unfolded, the sheet set smaller is still the paper's size, its body 8 pt; the pieces' pictures print
    # at the scale their caption says (the cards at 1/2 no longer fit the smaller slot: 1/3, their
    # text two thirds of its size at 1/2), not at 8/9 of it under a caption saying 1/2
    assert _page_mm(flat.files["rule-sheet.pdf"]) == [(297.0, 210.0)] * 2
    assert 8.0 in {round(g.size, 2) for side in _drawn(flat.files["rule-sheet.pdf"]) for g in side}
    assert "Pictures are at 1/3" in "".join(texts(flat.files["rule-sheet.pdf"]))

    # their bookmarks, lost when the set pages were placed on the paper, each at the side holding its heading
    for sheet in (flat, smaller, nine):
        _bookmarks_point_at_their_headings(sheet.files["rule-sheet.pdf"])

    def pictured(pdf: bytes) -> list[float]:
        return sorted({round(g.size, 2) for side in glyphs(pdf) for g in side if g.char.strip() and g.size < 6})

    halves = pictured(nine.files["rule-sheet.pdf"])
    assert len(halves) >= 3 and pictured(flat.files["rule-sheet.pdf"])[:3] == [round(v * 2 / 3, 2) for v in halves[:3]]


def _bookmarks_point_at_their_headings(pdf: bytes) -> None:
    """Every section of the rules is a bookmark (book51: a sheet set smaller or folded had none),
    pointing at the side whose text holds its heading and at no side before it."""
    reader = PdfReader(io.BytesIO(pdf))
    marks = [m for m in reader.outline if not isinstance(m, list)]
    sides = ["".join(t.split()) for t in texts(pdf)]
    assert len(marks) >= 4, marks
    for mark in marks:
        title = "".join(str(mark.title).split())
        at = reader.get_destination_page_number(mark)
        assert title in sides[at] and not any(title in side for side in sides[:at]), (title, at)
