"""A designer's trial (trial59) of a draft that leaves the numbering to the book, as most Japanese
drafts do: its references 「（→４．１）」 and 「（→５）」 cite the numbers the book prints (the step 4.1,
the section 5), so they link there, and one to a number the book prints nowhere is a 参照 finding (they
printed as text, unread); the quick reference reads the setup's ・ items per player count, and leaves
an example box and a section of questions and answers out; two sentences for two player counts are no
rule stated twice."""

from __future__ import annotations

import io

from pypdf import PdfReader

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook, pictures_from_game
from pnpgen.rulebook.book import read_rulebook
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.quickref import quick_reference
from pnpgen.rulebook.xrefs import references_in

DRAFT = ("■■　テストゲーム　草案３\n\n■　概要\n\n　テスト用のゲームです。\n\n"
         "■　ゲームの準備\n\n１：カードを配る\n　カードを混ぜ、５枚ずつ配ります。\n"
         "　・３人の時は、「嵐の夜」を１枚取り除きます。\n　・２人の時は、「嵐の夜」を２枚取り除きます。\n\n"
         "【例】\n　アキさんたち３人で遊ぶ場合、「嵐の夜」を１枚取り除いてから、５枚ずつ配ります。\n\n"
         "■　ゲームの進行\n\n１：灯火フェイズ\n　カードを１枚出します。\n２：補充フェイズ\n　カードを１枚引きます。\n\n"
         "■　ゲームの終了\n\n　山札が尽きたら、ゲームが終了します。\n\n"
         "■　よくある質問\n\nＱ：カードを出せなかったら？\nＡ：補充だけ行います（→３．２）。\n"
         "Ｑ：山札がなくなったら？\nＡ：その時点でゲームが終了します（→４）。\n"
         "Ｑ：嵐の夜は？\nＡ：（→３．９）を読んでください。カードは３枚→４枚（→３）に増えました。\n")


def test_a_reference_to_a_number_the_book_prints_links_there_and_one_to_none_is_a_finding(tmp_path):
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    refs = [f for f in read_rulebook(game, ws / "fonts").findings if f.kind == "参照"]
    assert [f.file.split("draft.txt:")[1] for f in refs] == [
        "35: 「→３．９」：3.9 の項目（番号付きの条項）が草案にありません"], refs
    # 「３枚→４枚」 is a change of count, no reference; 「（→３）」 after it is the section 3
    assert [n for _, _, n in references_in("カードは３枚→４枚（→３）に増えました。")] == ["3"]
    # a number read whole, however long: 4.100000 was told as 4.100, 1234.1 was no reference at all
    assert [n for _, _, n in references_in("（→４．１０００００）（→１２３４．１）１２３４．５参照（→１０００００００００）")] == [
        "4.100000", "1234.1", "1234.5", "1000000000"]
    pdf = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"),
                         rules_only=True).files["rulebook.pdf"]
    reader = PdfReader(io.BytesIO(pdf))
    page_of = {p.indirect_reference.idnum: i for i, p in enumerate(reader.pages)}
    texts = [p.extract_text() for p in reader.pages]
    links = [(i, a.get_object()) for i, p in enumerate(reader.pages) for a in p.get("/Annots") or []]
    to_cases = [(i, page_of[a["/Dest"][0].idnum], float(a["/Dest"][3])) for i, a in links
                if a.get("/Dest") and a["/Dest"][1] == "/XYZ"]
    assert len(to_cases) == 3, to_cases  # →３．２, →４, →３; not →３．９, nor ３枚→４枚
    faq = next(i for i, t in enumerate(texts) if "よくある質問" in t and "Ｑ：" in t)
    assert {i for i, _, _ in to_cases} == {faq}
    # each goes to the page its heading is set on (3.2 the step, 4 and 3 the sections)
    contents = next(i for i, t in enumerate(texts) if "目次" in t)
    heads = ["3.2　補充フェイズ", "4　ゲームの終了", "3　ゲームの進行"]
    assert [page for _, page, _ in to_cases] == [next(i for i, t in enumerate(texts) if h in t and i > contents)
                                                 for h in heads]


def test_the_quick_reference_reads_setup_items_and_leaves_examples_and_answers_out():
    quick = quick_reference(parse(DRAFT, "ja").rules, latin=False)
    assert [line.text for line in quick.setup] == [
        "カードを混ぜ、５枚ずつ配ります。", "３人の時は、「嵐の夜」を１枚取り除きます。",
        "２人の時は、「嵐の夜」を２枚取り除きます。"]  # not the example's 「アキさんたち３人で遊ぶ場合…」
    assert [line.text for line in quick.end] == ["山札が尽きたら、ゲームが終了します。"]  # not 「Ａ：…終了します」


def test_two_sentences_for_two_player_counts_are_no_rule_stated_twice(tmp_path):
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    findings = read_rulebook(load_game(Workspace(ws), "test"), ws / "fonts").findings
    assert not [f for f in findings if f.kind == "数の不一致"], findings
    twice = DRAFT.replace("２人の時は、「嵐の夜」を２枚", "３人の時は、「嵐の夜」を２枚")  # the same count, two numbers
    (ws / "data" / "test" / "draft.txt").write_text(twice, encoding="utf-8")
    findings = read_rulebook(load_game(Workspace(ws), "test"), ws / "fonts").findings
    assert [f for f in findings if f.kind == "数の不一致"], findings


def test_a_reference_deeper_than_four_levels_is_quoted_as_written():
    """proof.txt quoted "(see 4.1.1.1.1.1.1)" as "see 4.1.1.1": the reference is read whole, at any depth."""
    from pnpgen.rulebook.xrefs import dangling_references

    lines = [(1, "4.1 Moving"), (2, "Move (see 4.1.1.1.1.1.1), then (→４．１．１．１．１) and 4.1.1.1.1.1参照.")]
    assert dangling_references(lines) == [(2, "see 4.1.1.1.1.1.1", "4.1.1.1.1.1.1"),
                                          (2, "→４．１．１．１．１", "4.1.1.1.1"), (2, "4.1.1.1.1.1参照", "4.1.1.1.1.1")]
    assert [n for _, _, n in references_in("(see 4.1). (see 4.1.2.3.4.5.6.7.8.9.10)")] == ["4.1", "4.1.2.3.4.5.6.7.8.9.10"]
