"""Draft parser: every construct, on the four real drafts and on excerpts of them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import make_workspace, run
from pnpgen.rulebook.parse import find_preformatted, parse, parse_component_heading
from pnpgen.rulebook.reader import read_draft
from pnpgen.rulebook.tree import Bullet, Component, DraftParagraph, Item, Note, Preformatted, Step, Subheading
from pnpgen.rulebook.tree import walk as _walk

DATA = Path(__file__).resolve().parents[2] / "data"


@cache
def doc(slug: str):
    return parse(read_draft(DATA / slug / "draft.txt").text)


# ---------------------------------------------------------------- pinned counts per draft

PINS = {
    # slug: (sections by kind in order, rules sections, components, steps, sub-headings, diagrams)
    "alicematic-eiketsuden": (["brainstorm", "rules", "rules", "rules", "rules", "rules"], 5, 4, 6, 4, 0),
    "alicematic-medallions": (["notes", "rules", "rules", "rules", "rules"], 4, 2, 0, 2, 0),
    "populous": (["notes", "changelog", "rules", "rules", "rules", "rules"], 4, 8, 7, 14, 0),
    "asian-delivery": (["notes", "changelog", "rules", "rules", "rules", "rules"], 4, 11, 6, 12, 4),
}


def subheadings(d):
    out = []
    for s in d.rules:
        for c in s.children:
            kids = c.children if isinstance(c, (Step, Component)) else [c]
            out += [k for k in _walk(kids) if isinstance(k, Subheading)]
    return out


def diagrams(d):
    return [b for b in d.blocks() if isinstance(b, Preformatted)]


@pytest.mark.parametrize("slug", sorted(PINS))
def test_counts_pinned_per_draft(slug):
    kinds, rules, comps, steps, subs, pre = PINS[slug]
    d = doc(slug)
    assert [s.kind for s in d.sections] == kinds
    assert len(d.rules) == rules
    assert len(d.components) == comps
    assert len(d.steps) == steps
    assert len(subheadings(d)) == subs
    assert len(diagrams(d)) == pre


def test_step_numbers_and_titles():
    assert [(s.number, s.marker, s.title) for s in doc("asian-delivery").steps] == [
        (1, "）", "蓬旦の作成"), (2, "）", "プレイヤー準備"), (3, "）", "各種カードの準備"),
        (4, "）", "各種交通機関の準備"), (1, "：", "メインフェイズ"), (2, "：", "ラウンド終了")]
    assert [s.title for s in doc("populous").steps] == [
        "天地開闢", "プレイヤー準備", "カード準備", "エリア選択", "創世フェイズ", "戦争フェイズ", "終了フェイズ"]
    assert [s.title for s in doc("alicematic-eiketsuden").steps] == [
        "ターン開始", "アリスフェイズ", "建築フェイズ", "戦争フェイズ", "生産フェイズ", "ターン終了"]


# ---------------------------------------------------------------- title line


@pytest.mark.parametrize("slug,title,label,number", [
    ("alicematic-eiketsuden", "Alicematic英傑伝", "草案１", 1),
    ("alicematic-medallions", "Alicematic 刻印抄　アリスと７つのメダリオン", "草案１", 1),
    ("populous", "ポピュラス", "草案１２", 12),
    ("asian-delivery", "アジアンデリバリー", "草案６", 6),
])
def test_title_line(slug, title, label, number):
    d = doc(slug)
    assert (d.title, d.draft_label, d.draft_number) == (title, label, number)


def test_title_parts_split_at_full_width_space():
    assert doc("alicematic-medallions").title_parts == ["Alicematic 刻印抄", "アリスと７つのメダリオン"]


# ---------------------------------------------------------------- sections


@pytest.mark.parametrize("slug,titles", [
    ("alicematic-eiketsuden", ["概要", "コンポーネント", "ゲームの準備", "ゲームの進行", "得点計算"]),
    ("alicematic-medallions", ["概要", "コンポーネント", "ゲームの準備", "ゲームの進行"]),
    ("populous", ["概要", "コンポーネント", "ゲームの準備", "ゲームの進行"]),
    ("asian-delivery", ["概要", "コンポーネント", "ゲームの準備", "ゲームの進行"]),
])
def test_rules_sections(slug, titles):
    assert [s.title for s in doc(slug).rules] == titles


def test_problems_section_is_notes_not_rules():
    for slug in ("alicematic-medallions", "populous", "asian-delivery"):
        notes = doc(slug).of_kind("notes")
        assert [s.title for s in notes] == ["問題点"]
        assert all(isinstance(b, (DraftParagraph, Preformatted)) for b in notes[0].children)
    first = doc("populous").of_kind("notes")[0].children[0]
    assert first.text == "全体的なバランスの問題。"


def test_brainstorm_before_the_second_overview():
    d = doc("alicematic-eiketsuden")
    storm = d.of_kind("brainstorm")
    assert [s.title for s in storm] == ["概要"]
    assert storm[0].children[0].text == "Alicematicシリーズ最終章。"
    assert storm[0].children[-1].text.startswith("面倒なんでいらんか。")
    assert len(storm[0].children) == 72
    assert d.rules[0].title == "概要" and d.rules[0].children[0].text == "いい加減、全国を統一しよう！"


def test_change_log_block():
    log = doc("asian-delivery").of_kind("changelog")[0]
    assert log.title == "大まかな変更点"
    assert [type(b) for b in log.children] == [Bullet] * 7
    assert log.children[0].text == "依頼を個人所有制に戻す"
    assert log.children[-1].text == "最終決算の、施設ボーナスを１倍に変更"
    assert len(doc("populous").of_kind("changelog")[0].children) == 4


def test_a_change_log_written_as_a_block_between_its_marks_is_the_change_log():
    """A game trial: `（!--` alone on a line, the log, then `--）` alone (as an HTML comment is
    written) was a paragraph of the notes, its lone brackets two 括弧の対応 slips in proof.txt."""
    from pnpgen.rulebook.proofslips import slips

    text = ("■■　刃の宴　草案１\n\n■　概要\n\n　遊びます。\n\n■　問題点\n\n　強すぎる。\n\n"
            "（!--\n・草案１作成\n・竜騎士を追加\n--）\n")
    d = parse(text)
    (log,) = d.of_kind("changelog")
    assert [b.text for b in log.children] == ["草案１作成", "竜騎士を追加"]
    assert [b.text for b in d.of_kind("notes")[0].children] == ["強すぎる。"]
    assert not [f for f in slips(d, text, "draft.txt", "ja") if "括弧" in f.file]


# ---------------------------------------------------------------- components


def test_component_entries_with_counts():
    comps = {c.name: c for c in doc("asian-delivery").components}
    assert comps["エリアボード"].counts == [10] and comps["エリアボード"].units == ["枚"]
    assert comps["荷物キューブ"].counts == [60, 20, 10]
    vp = comps["ＶＰボード、ＶＰマーカー"]
    assert vp.names == ["ＶＰボード", "ＶＰマーカー"] and vp.counts == [1, 4] and vp.units == ["枚", "個"]
    ride = comps["乗り物コマ、乗り物カード"]
    assert ride.each and ride.units == ["セット"]
    assert comps["エリアボード"].children[0].text == "蓬旦にある１０の地区（エリア）を表すゲームボードです。"


def test_component_with_blank_or_no_count():
    comps = {c.name: c for c in doc("populous").components}
    assert comps["エピックカード"].counts == [80]
    assert comps["種族ボード"].count_text == "" and comps["種族ボード"].counts == []
    score = comps["スコアトラック、マーカー"]
    assert score.names == ["スコアトラック", "マーカー"] and score.count_text is None


def test_component_counts_from_designer_memos():
    """000 states its counts in memo lines, not in the ◇ headings; the memos leave the entries."""
    d = doc("alicematic-eiketsuden")
    assert {c.name: c.counts for c in d.components} == {
        "アリスカード": [24], "君主カード": [5], "戦略カード": [48], "塔カード": [68]}
    assert all(not isinstance(b, Item) for c in d.components for b in c.children)
    memos = [m.text for s in d.rules for m in s.memos]
    assert memos[3] == "塔　３スート×１６＋モニュメント２０＝６８"
    assert len(memos) == 5


def test_component_heading_parser():
    c = parse_component_heading("エピックカード（８０枚）")
    assert (c.names, c.counts, c.units) == (["エピックカード"], [80], ["枚"])
    c = parse_component_heading("スコアトラック＆マーカー")
    assert (c.names, c.counts, c.count_text) == (["スコアトラック", "マーカー"], [], None)


def test_components_section_titled_naiyoubutsu():
    """■　内容物, the word most Japanese rulebooks print, is the components list as ■　コンポーネント is:
    its ◇ entries are components (pictured, counted from the data), not ◆ sub-headings (trial43)."""
    for title in ("内容物", "内容物一覧", "ゲームの内容物"):
        d = parse(f"■■　花札合わせ　草案３\n\n■　{title}\n\n◇花札（４８枚）\n　１２か月×４枚の札です。\n\n"
                  "■　準備\n\n◇札を配る\n　８枚ずつ配ります。\n")
        assert [(c.name, c.counts) for c in d.components] == [("花札", [48])], title
        assert [s.text for s in subheadings(d)] == ["札を配る"]


def test_a_list_indented_as_its_text_is_a_list():
    """「　・…」 and 「　①…②…」 lines, indented by the full-width space the draft's paragraphs take,
    were set as paragraphs (their wrapped lines not hanging) and their nested 「　　・」 items as a
    diagram (trial43). A run of two such items is a list, its deeper items nested; one line
    opening with ① (「　①のエリアボードを…」) stays a paragraph, and so do ① and ③ out of order."""
    def blocks(body: str):
        d = parse("■■　テスト　草案１\n\n■　ゲームの進行\n\n" + body)
        return [(type(b).__name__, getattr(b, "mark", None), getattr(b, "level", None)) for b in _walk(d.rules[0].children)]

    assert blocks("　手札から出します。\n　・場札に同じ月の札があれば取ります。\n　　・２枚あれば１枚を選びます。\n"
                  "　　・３枚あればすべて取ります。\n　・なければ場札に加えます。\n") == [
        ("DraftParagraph", None, None), ("Bullet", "", 0), ("Bullet", "", 1), ("Bullet", "", 1), ("Bullet", "", 0)]
    assert blocks("◎例：流れ\n　①Ａさんが出します。\n　②山札をめくります。\n") == [
        ("Subheading", None, 2), ("Bullet", "①", 0), ("Bullet", "②", 0)]
    assert blocks("　①のエリアボードを置きます。\n　手札を配ります。\n") == [("DraftParagraph", None, None)] * 2
    assert blocks("　①Ａさんが出します。\n　③山札をめくります。\n") == [("DraftParagraph", None, None)] * 2


def test_medallions_components():
    assert [(c.name, c.counts) for c in doc("alicematic-medallions").components] == [
        ("アリスカード", [53]), ("メダリオンカード", [7])]


# ---------------------------------------------------------------- blocks


def test_sub_headings_and_their_levels():
    subs = subheadings(doc("populous"))
    assert [(s.marker, s.text) for s in subs[:5]] == [
        ("〇", "オールマイティ"), ("◇", "ワーカー配置"), ("◇", "手札配置"), ("◎", "通常配置"), ("〇", "祝福")]
    assert [s.level for s in subs[:4]] == [3, 1, 1, 2]
    assert subs[-1].text == "神の怒り（Wrath of God）"
    # ○ (U+25CB) in 000 is read as 〇
    assert [s.text for s in subheadings(doc("alicematic-eiketsuden"))] == ["雇用", "報償", "建築", "増設"]
    assert {s.marker for s in subheadings(doc("alicematic-eiketsuden"))} == {"〇"}


def test_bullets_in_rules():
    main = doc("asian-delivery").steps[4]
    assert [b.text for b in _walk(main.children) if isinstance(b, Bullet)] == ["事業所", "広告塔", "市場", "転移門"]


def test_paragraphs_lose_their_indent_and_remember_blank_lines():
    main = doc("asian-delivery").steps[4]
    p0, p1 = main.children[0], main.children[1]
    assert isinstance(p0, DraftParagraph) and p0.text == "スタートプレイヤーから時計回りで順番に手番となります。"
    assert p0.indent and not p0.gap_before
    assert p1.gap_before


def test_parenthesised_notes():
    step = doc("alicematic-eiketsuden").steps[0]
    notes = [b for b in step.children if isinstance(b, Note)]
    assert [n.text for n in notes] == ["（同じカードを複数枚選んでも問題ありません）"]
    # a paragraph that only contains parentheses stays a paragraph
    assert isinstance(list(_walk(doc("asian-delivery").steps[4].children))[-1], DraftParagraph)


def test_unindented_items_with_terms():
    prog = doc("alicematic-medallions").rules[3]
    items = [b for b in _walk(prog.children) if isinstance(b, Item)]
    assert [i.term for i in items] == [
        "傲慢のメダリオン（３）", "色欲のメダリオン（３）", "嫉妬のメダリオン（３）", "暴食のメダリオン（３）",
        "強欲のメダリオン（４）", "怠惰のメダリオン（４）", "憤怒のメダリオン（５）"]
    assert items[-1].body == "同時にプレイした軍勢の数字を２倍にする"


def test_map_diagrams_keep_their_spacing():
    pre = diagrams(doc("asian-delivery"))
    assert pre[0].lines == ["　　□", "　 □□", "　□□□", "　 □□", "　　□"]
    assert pre[1].lines == ["　 □①□", "　□□□□", "　 □□□"]
    assert pre[2].lines == ["　（左内地）　 （右内地）", "", "　 ③□□　　　　□□③", "　②◆□□　　　□□◆②",
                            "　 ①□□　　　　□□①"]
    # the aligned recovery table is kept as laid out too
    assert pre[3].lines == ["　　〜２枚：０", "　　３　枚：１", "　　４　枚：２", "　５〜　枚：３"]


def test_headings_are_never_preformatted():
    lines = ["〇神の怒り（Wrath of God）", "　本文です。", "１：開始"]
    assert find_preformatted(lines) == []
    # a short heading right above a diagram stays a heading
    d = parse("■■　T　草案１\n■　準備\n　 □□□　　□\n　□□□□　□\n")
    assert [s.title for s in d.rules] == ["準備"]
    assert d.rules[0].children[0].lines == ["　 □□□　　□", "　□□□□　□"]


def test_no_diagrams_in_the_other_drafts():
    for slug in ("alicematic-eiketsuden", "alicematic-medallions", "populous"):
        assert diagrams(doc(slug)) == []


@pytest.mark.parametrize("line,players", [("三〜五人用", (3, 5)), ("２～４人用", (2, 4)), ("四人用", (4, 4)),
                                          ("二〜十人用", (2, 10))])
def test_stated_players_in_kanji_and_full_width_digits(line, players):
    draft = f"■■　テスト　草案１\n■　コンポーネント\n　{line}\n◇カード（１０枚）\n■　ゲームの準備\n　並べる。\n"
    assert parse(draft).stated_players() == players


def test_stated_players():
    assert doc("populous").stated_players() == (3, 5)
    assert doc("asian-delivery").stated_players() == (3, 4)
    assert doc("alicematic-eiketsuden").stated_players() is None


def test_excerpt_from_004_parses_on_its_own():
    text = ("■■　アジアンデリバリー　草案６\n\n■　ゲームの準備\n\n１）蓬旦の作成\n"
            "　エリアボードを配置して蓬旦の町を作ります。\n\n　 □①□\n　□□□□\n　 □□□\n\n"
            "〇追加アクション\n　ＭＰ（マンパワー）を支払うことで、追加のアクションを行うことができます。\n")
    d = parse(text)
    step = d.steps[0]
    assert [type(b) for b in step.children] == [DraftParagraph, Preformatted, Subheading]
    assert [type(b) for b in step.children[2].children] == [DraftParagraph]
    assert step.children[1].gap_before


# ---------------------------------------------------------------- where each sub-heading block ends

# slug: (marker + title, first line, last line inside the block), in draft order. A run of two
# blank lines returns one level up; a sub-heading of the same or a higher level, the next step
# or section closes the block. eiketsuden and medallions lost their blank lines (flattened
# drafts), so their blocks run to the next sub-heading or step.
BLOCK_ENDS = {
    "populous": [
        ("〇オールマイティ", 134, 137), ("◇ワーカー配置", 148, 154), ("◇手札配置", 157, 221),
        ("◎通常配置", 162, 173), ("〇祝福", 179, 183), ("〇啓示", 185, 187), ("〇秘跡", 189, 191),
        ("〇労働", 193, 195), ("〇繁栄", 197, 199), ("◎エピック移行", 202, 221), ("〇タウン建設", 206, 211),
        ("〇決算", 213, 215), ("〇手札配置", 217, 221), ("〇神の怒り（Wrath of God）", 254, 265)],
    "asian-delivery": [
        ("〇追加アクション", 170, 172), ("〇荷積み／荷下ろし", 174, 179), ("〇人力輸送", 181, 183),
        ("◎基本効果", 205, 256), ("〇依頼達成", 208, 215), ("〇輸送", 217, 221), ("〇人力輸送", 223, 225),
        ("〇建設", 227, 246), ("〇アップグレード", 248, 252), ("〇在庫補充", 254, 256),
        ("〇決算", 270, 274), ("〇最終決算", 276, 281)],
    "alicematic-eiketsuden": [("〇雇用", 120, 123), ("〇報償", 124, 126), ("〇建築", 130, 133),
                              ("〇増設", 134, 140)],
    "alicematic-medallions": [("〇ホールド後の処理", 61, 75), ("〇リリース後の処理", 76, 82)],
}


@pytest.mark.parametrize("slug", sorted(BLOCK_ENDS))
def test_where_every_sub_heading_block_ends(slug):
    got = [(s.marker + s.text, s.line, s.end_line) for s in subheadings(doc(slug))]
    assert got == BLOCK_ENDS[slug]


def test_text_after_two_blank_lines_returns_to_the_step():
    """populous p6: 「次に、選んだ２枚の数字を…」 is step text again after 「〇オールマイティ」;
    asian-delivery: the end of turn after 「〇人力輸送」 belongs to the step."""
    step = doc("populous").steps[3]
    assert step.title == "エリア選択"
    assert [type(b) for b in step.children] == [DraftParagraph, Subheading, DraftParagraph, DraftParagraph]
    assert step.children[2].text.startswith("次に、選んだ２枚の数字を低い順に並べ")
    main = doc("asian-delivery").steps[4]
    top = [b for b in main.children if isinstance(b, DraftParagraph)]
    assert any(p.text == "アクションを終えたら、自分の手番を終了します。" for p in top)
    assert isinstance(main.children[-1], Subheading) and main.children[-1].text == "基本効果"


def test_a_setup_of_sentences_one_too_long_for_a_heading_is_all_numbered_lines():
    """A setup of three one-sentence steps, the second and third over 30 characters: the first was
    heading 3.1 and the others ２：… lines of its text (Items, out of the step numbering); all
    three are steps set as numbered lines, as an English draft's sentences are. A short step that
    ends in 。 is a sentence too (a heading has no 。), and a title with lines under it beside a
    sentence is a numbered line too (book2: a section's steps are all of one kind)."""
    draft = ("■■　テスト　草案１\n■　ゲームの準備\n１：ボードを中央に置きます。\n"
             "２：【地形タイル】をよく混ぜて裏向きの山にし、１枚を表向きにしてボードの横に置きます。\n"
             "３：各プレイヤーは【行動カード】を３枚ずつ受け取り、手札とします。\n"
             "■　ゲームの進行\n１：タイルを引く\n　山から１枚引きます。\n"
             "２：引いたタイルを、既に置かれているタイルのどれかに接するように置きます。\n"
             "■　ゲームの終了\n１：山がなくなります。\n２：得点を数えます。\n")
    d = parse(draft)
    setup, play, end = d.rules
    assert [(c.number, bool(c.sentence)) for c in setup.children] == [(1, True), (2, True), (3, True)]
    assert all(isinstance(c, Step) for c in setup.children + play.children + end.children)
    assert [(c.number, c.sentence) for c in play.children] == [
        (1, "タイルを引く"), (2, "引いたタイルを、既に置かれているタイルのどれかに接するように置きます。")]
    assert [type(b).__name__ for b in play.children[0].children] == ["DraftParagraph"]  # (its line under it)
    assert [(c.number, bool(c.sentence)) for c in end.children] == [(1, True), (2, True)]


def test_a_short_step_that_ends_as_a_sentence_is_a_numbered_line_not_a_heading():
    """editor7: ``１：カードを１枚引く。`` (under 30 characters) was set as heading 3.1 and listed in
    the contents; a heading has no 。, so a step ending in 。 ！ or ？ is an instruction, a
    numbered line of the text, lines under it and all; so is a title (no 。) among them (a
    section's steps are all of one kind), and the draft's own heading marks (■ ◇ ◎) keep
    theirs however they end."""
    draft = ("■■　テスト　草案１\n■　ゲームの進行\n１：カードを１枚引く。\n　山札の上から引きます。\n"
             "２：宣言する！\n３：誰が勝つ？\n４：ラウンド終了\n　次のラウンドへ。\n◎捨てる。\n　捨てます。\n")
    d = parse(draft)
    (play,) = d.rules
    steps = [c for c in play.children if isinstance(c, Step)]
    assert [(c.number, c.sentence) for c in steps] == [(1, "カードを１枚引く。"), (2, "宣言する！"), (3, "誰が勝つ？"), (4, "ラウンド終了")]
    assert isinstance(steps[0].children[0], DraftParagraph)  # (its line stays under it)
    assert any(isinstance(b, Subheading) and b.text == "捨てる。" for b in steps[3].children)


def test_a_step_ending_in_a_full_stop_is_no_heading_of_the_book(tmp_path):
    """The book's outline (the contents' headings) lists title steps and never a sentence; a
    title step beside a sentence (``１：カードを１枚引く。`` then ``２：カードを出す`` with a line
    under it) was heading 3.2 beside a numbered line 1.: it is numbered line 2., its line under
    it, and the section's outline lists no step (book2)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8")
    mixed = text.replace("２：カードを１枚出す。", "２：カードを出す\n　１枚出します。")
    titles = mixed.replace("１：カードを１枚引く。", "１：カードを引く\n　１枚引きます。")
    outlines, texts = [], []
    for n, draft_text in enumerate([mixed, titles]):
        draft.write_text(draft_text, encoding="utf-8")
        assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / f"out{n}")) == 0
        reader = PdfReader(tmp_path / f"out{n}" / "test" / "rulebook.pdf")
        outlines.append([item.title if not isinstance(item, list) else [i.title for i in item] for item in reader.outline])
        texts.append("".join(page.extract_text() for page in reader.pages).replace("\n", "").replace(" ", ""))
    assert outlines[0][2:4] == ["3\u3000ゲームの進行", "早見表"], outlines[0]  # (no 3.1, no 3.2 under it)
    assert "1.カードを１枚引く。" in texts[0] and "2.カードを出す１枚出します。" in texts[0], texts[0]
    assert outlines[1][3] == ["3.1\u3000カードを引く", "3.2\u3000カードを出す"], outlines[1]  # all titles: headings


def test_an_aligned_tables_long_row_stays_in_its_table():
    # trial20: the row longer than a layout line (24 characters) was set as a paragraph between
    # two halves of the keyword table
    rows = ["　キーワード　　効果", "　【速攻】　　　出したターンに攻撃できる",
            "　【飛行】　　　【飛行】を持たないユニットにブロックされない", "　【星詠み】　　山札の上を３枚見て並べ替える"]
    d = parse("■■　T　草案１\n■　進行\n◇キーワード一覧\n\n" + "\n".join(rows) + "\n\n　本文です。\n")
    assert [b.lines for b in diagrams(d)] == [rows]
    assert [b.text for b in d.blocks() if isinstance(b, DraftParagraph)] == ["本文です。"]


def test_a_table_of_long_rows_only_is_a_table_and_unaligned_text_is_not():
    rows = ["　【飛行】　　　【飛行】を持たないユニットにブロックされない",
            "　【貫通】　　　超過したダメージをすべて相手プレイヤーに与える"]
    assert find_preformatted(rows) == [(0, 2)]
    # two paragraphs whose gaps do not line up are no table
    assert find_preformatted(["　手番では  カードを１枚引いてから、好きなだけ出します。",
                              "　相手の手番には、カードを  出せません。ただし【速攻】は別です。"]) == []
    # a row too wide for the page is a table's when its last column has room to wrap in (8
    # full-width characters or more), and no table's when that column starts too far right
    wide = "　【飛行】　　　" + "あ" * 40
    assert find_preformatted([wide, wide]) == [(0, 2)]
    far = "　" + "あ" * 28 + "　　" + "い" * 10
    assert find_preformatted([far, far]) == []


def test_a_table_rows_icons_count_as_the_one_cell_they_print_in():
    """A row of `{shield}`s (8 cells as written, one full-width cell printed) was measured by its
    names: a row that fits the page was taken for too wide, and its table for paragraphs."""
    row = "　【防御】　　　" + "{shield}" * 6 + "を得る。" + "あ" * 14  # 98 cells written, 62 printed
    assert find_preformatted([row, row]) == [(0, 2)]


def test_lines_numbered_1_dot_and_a_half_width_space_are_text_not_a_diagram():
    """「1. カードをよく混ぜます。」 (the IME in half-width mode) was a diagram, boxed and set on a
    character grid, for the one space after its number; it is a line of text as 「１．カード…」 is.
    A table whose columns are set off by two spaces stays one."""
    steps = ["　準備は次のとおりです。", "1. カードをよく混ぜます。", "2. 各プレイヤーに３枚ずつ配ります。",
             "３. 残りを山札にします。"]
    assert find_preformatted(steps) == []
    assert not any(isinstance(b, Preformatted) for b in _walk(parse("■　準備\n\n" + "\n".join(steps)).sections[0].children))
    table = ["1.  カード    ３枚", "2.  コマ      ５個", "3.  ボード    １枚"]
    assert find_preformatted(table) == [(0, 3)]
