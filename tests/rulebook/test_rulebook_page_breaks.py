"""An editor's pass over the book's page and line breaks (book7): a component's description runs
on to the next page rather than leave half a page empty, a 【term】 keeps two characters on each
side of a line break, the quick reference's page numbers are links, its summary card centred."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from reportlab.platypus import Flowable

from conftest import DECK_YAML, GAME_YAML, REPO, make_workspace
from pdfprobe import glyphs, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook, pictures_from_game
from pnpgen.text import linebreak as lb

A5_H = 210.0


def _lines(page) -> list[tuple[float, str]]:
    """The page's own lines of text, top down: (baseline in mm, text)."""
    rows: dict[float, list] = {}
    for g in page:
        if g.on_page and g.char.strip():
            rows.setdefault(round(g.y, 1), []).append(g)
    return [(y, "".join(g.char for g in sorted(r, key=lambda g: g.x))) for y, r in sorted(rows.items())]


def test_a_components_description_runs_on_rather_than_leave_the_page_foot_empty(built):
    """asian-delivery p3: 依頼カード (heading, two tarot faces, three lines) missed the page and
    moved whole, leaving 74 mm empty. Its heading and pictures stay together with the first
    paragraph under them; the second paragraph goes on at the next page's head."""
    pdf = built / "asian-delivery" / "rulebook.pdf"
    pages = glyphs(pdf)
    at = next(n for n, p in enumerate(pages) if any(t == "依頼カード" for _, t in _lines(p)))
    lines = _lines(pages[at])
    head = next(y for y, t in lines if t == "依頼カード")
    first = next(y for y, t in lines if t.startswith("受注した仕事を表すカードです。"))
    body = [y for y, t in lines if y < 195]  # (the folio, at 15 mm from the foot, left out)
    assert head < first == body[-1]
    assert A5_H - 15 - first < 25  # the page is full down to its foot's margin, bar a line or two
    reader = PdfReader(pdf)  # the pictures (two placed forms) between the heading and the text
    faces = [o for o in _forms(reader, at) if head < o < first]
    assert len(faces) == 2, faces
    assert _lines(pages[at + 1])[1][1].startswith("「（赤）」")  # (after the running head)


def _forms(reader: PdfReader, at: int) -> list[float]:
    """The tops (mm from the page top) of the forms placed on page ``at``."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(reader.stream)
    page = pdf[at]
    height = page.get_height()
    return [(height - o.get_bounds()[3]) * 25.4 / 72 for o in page.get_objects(max_depth=1)
            if o.type == raw.FPDF_PAGEOBJ_FORM]


def test_an_entry_whose_pictures_do_not_fit_moves_whole(built):
    """eiketsuden: 君主カード's pictures do not fit under アリスカード: its heading is not left
    alone at the foot; it stands with its pictures on the next page."""
    pdf = built / "alicematic-eiketsuden" / "rulebook.pdf"
    pages = glyphs(pdf)
    at = [n for n, p in enumerate(pages) if any(t == "君主カード" for _, t in _lines(p))]
    assert len(at) == 1
    head = next(y for y, t in _lines(pages[at[0]]) if t == "君主カード")
    assert [top for top in _forms(PdfReader(pdf), at[0]) if top > head]


def test_an_entrys_description_never_opens_a_page_away_from_its_picture(one_scale_books):
    """populous at one scale: 種族ボード's heading, board picture and 「縮尺 1/4」 fit at p4's foot,
    its one line of description did not and opened p5 alone, parted from its picture (as a
    trial's 表題札 entry). The entry moves whole, as a heading keeps with its text: heading,
    picture, then the description under it, on one page."""
    pdf = one_scale_books["populous"]
    pages = glyphs(pdf)
    at = next(n for n, p in enumerate(pages) if any(t == "種族ボード" for _, t in _lines(p)))
    lines = _lines(pages[at])
    head = next(y for y, t in lines if t == "種族ボード")
    scale = next(y for y, t in lines if t == "縮尺1/4" and y > head)
    assert [top for top in _forms(PdfReader(io.BytesIO(pdf)), at) if head < top < scale]  # the board's picture
    described = [y for y, t in lines if t == "自らの民を表します。"]
    assert described and described[0] > scale  # the description under its picture, on the same page
    assert "種族ボード" in [t for _, t in lines[1:3]]  # (after the running head, by its count) the entry moved whole


@pytest.fixture(scope="module")
def one_scale_books() -> dict[str, bytes]:
    """populous' and asian-delivery's books with every small piece at the list's one scale 1/2, as
    they were when the page breaks below were found there (their tokens now print at actual size,
    which moves those entries; the rules of the breaks are the same)."""
    from pnpgen.rulebook import storytext

    kept, storytext.SMALL_PIECE_MM = storytext.SMALL_PIECE_MM, 0.0
    try:
        ws, out = Workspace(REPO), {}
        for slug in ("populous", "asian-delivery"):
            game = load_game(ws, slug)
            book = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws.templates))
            out[slug] = book.files["rulebook.pdf"]
        return out
    finally:
        storytext.SMALL_PIECE_MM = kept


def _page_of(pages, text: str) -> int:
    return next(n for n, p in enumerate(pages) if any(t == text for _, t in _lines(p)))


def test_a_term_keeps_two_characters_each_side_of_a_line_break():
    """JLREQ allows 【パ|ストパイル】; an editor breaks before the term or two characters in at least."""
    text = "あいうえおかきくけ【パストパイル】があります。"
    lines = lb.break_lines(text, 11, lambda ch: 1.0, phrases=False)
    assert lines[0] == "あいうえおかきくけ", lines
    assert "".join(lines) == text
    lines = lb.break_lines(text, 16, lambda ch: 1.0, phrases=False)  # nor before its last one
    assert not lines[0].endswith("イ") and not lines[1].startswith("ル"), lines
    long = "【パストパイル】"  # a line holding nothing else still breaks inside it
    assert len(lb.break_lines(long, 3, lambda ch: 1.0, phrases=False)) > 1


def test_no_book_breaks_a_term_after_its_first_character(built):
    """populous p11 printed 【パ at a line's end and ストパイル】 at the next line's head."""
    for game in ("populous", "asian-delivery", "alicematic-eiketsuden", "alicematic-medallions"):
        for n, page in enumerate(glyphs(built / game / "rulebook.pdf"), 1):
            lines = [t for _, t in _lines(page)]
            bad = [(a, b) for a, b in zip(lines, lines[1:]) if re.search(r"【[^】]?$", a) or re.match(r"^[^【]?】", b)]
            assert bad == [], (game, n, bad)


def test_the_quick_references_page_numbers_go_to_their_pages(built):
    """早見表: each 「P.n」 is a link to page n (the index's and contents' numbers were, these
    were not); no box drawn around it."""
    pdf = built / "populous" / "rulebook.pdf"
    reader = PdfReader(pdf)
    number_of = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages, 1)}
    at = next(n for n, t in enumerate(texts(pdf)) if t.lstrip().startswith("早見表") and "●" in t)
    printed = [int(p) for p in re.findall(r"P\.(\d+)", texts(pdf)[at])]
    links = [a.get_object() for a in reader.pages[at].get("/Annots", [])]
    assert len(links) == len(printed) > 5
    height = float(reader.pages[at].mediabox.height)
    ink = [g for g in glyphs(pdf)[at] if g.char.strip()]
    for link in links:
        x0, y0, x1, y1 = (float(v) * 25.4 / 72 for v in link["/Rect"])
        top, bottom = height * 25.4 / 72 - y1, height * 25.4 / 72 - y0
        shown = "".join(g.char for g in ink if x0 - 0.3 <= g.x < x1 and top <= g.y <= bottom + 0.5)
        assert shown.startswith("P.") and int(shown[2:]) == number_of[link["/Dest"][0].idnum], shown
        assert list(link["/Border"]) == [0, 0, 0]


SUMMARY_GAME = GAME_YAML + "rulebook:\n  quick_reference:\n    deck: cards\n"


def test_the_summary_card_is_centred_under_the_quick_reference(tmp_path):
    """A summary card narrower than the text (two mini cards at actual size, 85 mm) stands in the
    middle of it (it stood at the left margin)."""
    deck = DECK_YAML.replace("poker", "mini-american") + "  - {name: 早見, text: 手番の流れ}\n"  # 41 × 63 mm
    ws = make_workspace(tmp_path / "ws", draft=True, game=SUMMARY_GAME, deck=deck)
    game = load_game(Workspace(ws), "test")
    book = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws / "templates")).files["rulebook.pdf"]
    reader = PdfReader(io.BytesIO(book))
    quick = [n for n, t in enumerate(texts(book)) if t.lstrip().startswith("早見表") or "早見表\r\n" in t[-20:]]
    boxes = _form_boxes(book, quick)
    assert len(boxes) == 2, boxes  # front and back
    left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
    width = float(reader.pages[0].mediabox.width) * 25.4 / 72
    assert right - left < 100  # narrower than the text: its place shows
    assert (left + right) / 2 == pytest.approx(width / 2, abs=0.3)  # (the inner and outer margins are equal)


def test_a_parked_summary_deck_is_on_no_quick_reference_and_said_at_its_line(tmp_path):
    """A quick_reference deck whose pieces are all parked (count: 0, set aside) printed its card on
    the 早見表, the one page the cover and the components list leave it off: no card there, and
    the warning says why at game.yaml's line (the cards' deck, printed, stays on the cover)."""
    ws = make_workspace(tmp_path / "ws", draft=True, game=SUMMARY_GAME.replace("deck: cards", "deck: summary"),
                        deck=DECK_YAML + "  - {name: 彗星, text: 本文}\n")
    (ws / "data" / "test" / "decks" / "summary.yaml").write_text(
        "name: サマリー\nlayout: {extends: card-poker, boxes: {art: null}}\npieces:\n"
        "  - {title: 手番の流れ, text: 引く, count: 0}\n", encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    built = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    pages = texts(built.files["rulebook.pdf"])
    quick = [t for t in pages if t.lstrip().startswith("早見表")]
    assert len(quick) == 1 and "テストカード" in quick[0], pages
    assert not [t for t in pages if "手番の流れ" in t], pages  # nowhere: the 早見表, the cover, the components list
    assert "彗星" in pages[0]
    assert [w for w in built.warnings if "quick_reference" in w] == [
        f"{ws / 'data' / 'test' / 'game.yaml'}:{len(GAME_YAML.splitlines()) + 3}:11: quick_reference deck 'summary' prints "
        "nothing (every piece parked, count: 0), so the quick reference (早見表) shows no summary card (a count of 1 "
        "on its piece prints it and shows it)"], built.warnings


def _form_boxes(book: bytes, pages: list[int]) -> list[tuple[float, ...]]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(book)
    return [tuple(v * 25.4 / 72 for v in o.get_bounds()) for n in pages for o in pdf[n].get_objects(max_depth=1)
            if o.type == raw.FPDF_PAGEOBJ_FORM]


def test_an_entrys_one_line_last_paragraph_never_opens_a_page_alone(tmp_path):
    """The English medallions book: the Alice cards' description ran on and its last paragraph,
    the one-line ratio 「1 : 2 : 3 …」, opened p4 alone. It goes on with the paragraph it ends."""
    import shutil

    slug = "alicematic-medallions"
    ws = tmp_path / "ws"
    shutil.copytree(REPO / "data" / slug, ws / "data" / slug)
    shutil.copytree(REPO / "templates" / slug, ws / "templates" / slug)
    game = load_game(Workspace(ws), slug, lang="en")
    result = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    pages = [re.sub(r"\s", "", t) for t in texts(result.files["rulebook.pdf"])]
    ratio = [n for n, t in enumerate(pages) if "1:2:3:4:5:6:7:8:9=" in t]
    assert len(ratio) == 1 and "fiveeachof6to8,andfour9s." in pages[ratio[0]], ratio
    assert "Alicecards53" in pages[ratio[0] - 1]  # the entry's heading and pictures stay on the page before


def test_a_description_beside_pictures_that_no_page_holds_runs_on_under_them(drafted):
    """A description set beside narrow pictures is one table cell, which never splits: a long
    one (a card's own rules) stopped the build with "a block taller than an A5 page (JPara)". It
    is set under its pictures, the page's full measure, and runs on over the pages it needs."""
    from conftest import run

    deck = next((drafted / "data" / "test" / "decks").glob("*.yaml"))
    deck.write_text(deck.read_text(encoding="utf-8").replace("format: poker", "format: mini-american"), encoding="utf-8")
    draft = drafted / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8")
    said = "".join(f"　段落{i}、名前と本文が書かれたカードの長い説明です。まだ続きます。\n" for i in range(60))
    draft.write_text(text.replace("　名前と本文が書かれたカードです。\n", said), encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--rules-only") == 0
    pages = glyphs(drafted / "build" / "test" / "rulebook.pdf")
    found = {}
    for n, page in enumerate(pages):
        for y, t in _lines(page):
            for i in (0, 59):
                if t.startswith(f"段落{i}、"):
                    found[i] = (n, next(g.x for g in page if g.on_page and abs(g.y - y) < 0.1 and g.char == "段"))
    assert found[59][0] > found[0][0]  # over more than one page
    assert found[0][1] < 15 + 2 * 4.0, found  # from the left margin (plus its 1-em indent), not beside the pictures


class _Mark(Flowable):
    """Drawn and of no height: a bookmark, an anchor (what a section may place before its heading)."""

    def wrap(self, aw, ah):
        return aw, 0

    def draw(self):
        pass


def test_the_running_head_is_the_section_at_the_pages_first_line(tmp_path, monkeypatch):
    """book2: a page whose first line is 「3　ゲームの進行」 read the section before it in its running
    head (柱): the head took a section's heading only when no flowable was placed on the page before
    it, and a mark of no height at the page's top is one. The head is the section in force at the
    page's first line, read by where the heading stands."""
    from conftest import DRAFT, run
    from pnpgen.rulebook.story import StoryBuilder

    heading = StoryBuilder.section_heading
    monkeypatch.setattr(StoryBuilder, "section_heading",
                        lambda self, *a, **kw: (lambda out: [out[0], _Mark(), *out[1:]])(heading(self, *a, **kw)))
    ws = make_workspace(tmp_path / "ws", draft=True)
    long = ("　" + "テスト用の小さなゲームです。" * 6 + "\n") * 13  # section 3 then opens page 5
    (ws / "data" / "test" / "draft.txt").write_text(
        DRAFT.replace("　テスト用の小さなゲームです。２〜４人で遊びます。\n", long), encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    pages = glyphs((tmp_path / "out" / "test" / "rulebook.pdf").read_bytes())
    opened = [n for n, page in enumerate(pages) if _lines(page)[1:2] and _lines(page)[1][1] == "3ゲームの進行"]
    assert opened, [(_lines(p)[:2]) for p in pages]
    head = _lines(pages[opened[0]])[0][1]  # the running head's line, 12 mm from the top
    assert "ゲームの進行" in head and "コンポーネント" not in head and "概要" not in head, head


def test_the_entries_filling_a_page_an_entry_leaves_keep_the_contents_lists_order():
    """The components' entries that fill the room an entry waiting for the next page leaves are the
    ones straight after it, in order: a smaller entry past one that does not fit either never jumps
    two places (readers check the pages against the box's contents list, in its order; docs/rulebook.md),
    so such a page may end short."""
    from reportlab.platypus import Spacer

    from pnpgen.rulebook.keeps import EntryKeep, EntryRun

    def entry(height: float) -> EntryKeep:
        return EntryKeep([Spacer(1, height)], whole=1)

    board, tall, small = entry(300), entry(150), entry(20)
    assert EntryRun([board, tall, small]).placed(300, 100)[0] is board  # nothing passes the tall entry
    board, medium, small = entry(300), entry(50), entry(20)
    placed = EntryRun([board, medium, small]).placed(300, 100)
    assert placed[:2] == [medium, small] and placed[2]._content == [board]  # those straight after it, in order
    grouped = EntryKeep([Spacer(1, 10), Spacer(1, 300)], whole=2, lead=1)  # under its group's heading (その他の内容物)
    assert EntryRun([grouped, small]).placed(300, 100)[0] is grouped  # nothing passes it


def _heading_and_paragraphs(*texts_: str):
    """A sub-heading (as the story sets ◆) and a paragraph of each text, in the book's body face."""
    from reportlab.platypus import Paragraph

    from pnpgen import fonts as fontreg
    from pnpgen.rulebook.flowables import JPara
    from pnpgen.rulebook.keeps import Indent

    font = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    head = Paragraph("見出し")
    head.keepWithNext = 1
    return Indent(head, 0.0), [JPara(t, font, 9, 15) for t in texts_]


def _split(flowables: list[Flowable], room: float) -> list[Flowable]:
    """``flowables`` kept together as the book's document groups them, split ``room`` above a page's foot."""
    from pnpgen.rulebook.keeps import HeadingKeep
    from pnpgen.rulebook.styles import TEXT_W

    group = HeadingKeep(flowables)
    group.wrapOn(None, TEXT_W, room)
    return group.split(TEXT_W, room)


def test_a_heading_ends_the_page_with_its_first_lines_rather_than_move_whole():
    """A heading over a paragraph taller than the rest of the page keeps its first lines there
    (ReportLab's keep moved the heading and all its paragraph, leaving the page's foot empty);
    with room for only one line under it, it moves (two lines at least)."""
    from pnpgen.rulebook.flowables import grid_height
    from pnpgen.rulebook.styles import TEXT_W

    head, (para,) = _heading_and_paragraphs("長い文章です。" * 40)
    room = grid_height([head], TEXT_W, 500) + 3 * 15 + 5
    parts = _split([head, para], room)
    assert parts[0] is head and [len(p.lines) for p in parts[1:]] == [3, len(para.lines) - 3]
    room = grid_height([head], TEXT_W, 500) + 1 * 15 + 5
    assert _split([head, para], room)[0] is not head  # a page break first: it moves whole


def test_a_heading_pair_ends_the_page_with_a_line_under_each():
    """populous p9 (book51): 「4.2」 over 「◆ワーカー配置」, a one-line paragraph under each and a
    paragraph of three lines after, moved whole and left eight lines empty. The pair keeps two
    lines of text — one under each heading — and the next paragraph opens the next page; with a
    line more, that paragraph's first line ends the page and its other two go on."""
    from pnpgen.rulebook.flowables import grid_height
    from pnpgen.rulebook.styles import TEXT_W

    h1, (one, two, three) = _heading_and_paragraphs("短い。", "短い。", "三行になる段落です。" * 9)
    h2, _ = _heading_and_paragraphs()
    one.under_heading = two.under_heading = True
    assert [len(p.wrap(TEXT_W, 500)[1:] and p.lines) for p in (one, two, three)] == [1, 1, 3]
    pair = [h1, one, h2, two]
    room = grid_height(pair, TEXT_W, 500) + 5
    parts = _split([*pair, three], room)
    assert parts == [*pair, three]  # (no page break first: the pair stays)
    parts = _split([*pair, three], room + 15)
    assert parts[:4] == pair and [len(p.lines) for p in parts[4:]] == [1, 2]
    one.under_heading = False  # a lead-in's paragraph: kept with its list, the group moves whole
    assert _split([*pair, three], room + 15)[0] not in pair


def test_populous_page_9_ends_with_the_heading_pair_and_their_first_lines(built):
    """The real book: 4.2 and ◆ワーカー配置 on the page of 4.1, each with its line, the page full."""
    pages = glyphs(built / "populous" / "rulebook.pdf")
    at = next(n for n, p in enumerate(pages) if "4.2創世フェイズ" in [t for _, t in _lines(p)])
    lines = [(y, t) for y, t in _lines(pages[at]) if y < A5_H - 17]  # (not the folio)
    shown = [t for _, t in lines]
    assert "4.1エリア選択" in shown and shown[-2] == "◆ワーカー配置" and shown[-1].startswith("【創世エリア】の好きなマス")
    assert lines[-1][0] == pytest.approx(19 + 31.73 * 15 * 25.4 / 72, abs=0.3)  # on the grid's last line
    assert _lines(pages[at + 1])[1][1].startswith("マスには")  # (after the running head)
