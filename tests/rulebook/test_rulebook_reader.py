"""Draft reader: encodings, circled-digit repair, flattened newlines (real drafts and fixtures)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen.errors import InputError
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.reader import decode, is_flattened, read_draft, read_text, repair_circled_digits, unflatten

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
FIX = Path(__file__).parents[1] / "fixtures" / "drafts"
SLUGS = ["alicematic-eiketsuden", "alicematic-medallions", "populous", "asian-delivery"]


def draft(slug: str) -> Path:
    return DATA / slug / "draft.txt"


# ---------------------------------------------------------------- encodings


def test_utf8_draft_is_reported():
    d = read_draft(draft("populous"))
    assert d.encoding == "UTF-8"
    assert any("encoding UTF-8" in line for line in d.report)


def test_cp932_draft_is_detected_and_decoded():
    d = read_draft(FIX / "cp932.txt")
    assert d.encoding.startswith("CP932")
    assert "\r" not in d.text
    assert "①のエリアボード" in d.text
    assert d.lines[0] == "■■　テストデリバリー　草案３"
    assert any("CP932" in line for line in d.report)


def test_utf8_bom_is_detected_and_stripped():
    d = read_draft(FIX / "utf8-bom.txt")
    assert d.encoding == "UTF-8 (BOM)"
    assert d.text.startswith("■■")
    assert parse(d.text).title == "テストデリバリー"


def test_cp932_and_bom_parse_alike():
    cp932 = read_draft(FIX / "cp932.txt").text
    # CP932 has one code (0x8160) for 〜 WAVE DASH; Python maps it to ～ FULLWIDTH TILDE
    assert "３～４人用" in cp932
    a = parse(cp932)
    b = parse(read_draft(FIX / "utf8-bom.txt").text)
    assert a.stated_players() == b.stated_players() == (3, 4)
    assert parse(cp932.replace("～", "〜")) == b
    assert [c.counts for c in a.components] == [[10]]


def test_undecodable_draft_raises_input_error_with_path():
    with pytest.raises(InputError) as e:
        read_draft(FIX / "undecodable.txt")
    msg = str(e.value)
    assert "undecodable.txt" in msg
    assert "not readable text" in msg and "CP932" in msg
    assert e.value.line == 2


def test_a_windows_1252_draft_is_told_to_be_saved_as_utf8(tmp_path):
    """English trial: an English draft saved as Notepad's "ANSI" (Windows-1252): its ’ and — read
    as CP932 became kanji in the book; it stops at the line, saying how to save it as UTF-8."""
    p = tmp_path / "draft.txt"
    p.write_bytes("# Game (Draft 1)\n\n## Setup\n\nGive each player a mat — it’s theirs.\n".encode("cp1252"))
    with pytest.raises(InputError) as e:
        read_draft(p)
    assert e.value.line == 5 and "Windows-1252" in e.value.message and "Encoding UTF-8" in (e.value.expected or "")


def test_missing_draft_raises_input_error(tmp_path):
    with pytest.raises(InputError) as e:
        read_draft(tmp_path / "nope.txt")
    assert "not found" in str(e.value) and "nope.txt" in str(e.value)


def test_empty_draft_raises_input_error(tmp_path):
    p = tmp_path / "draft.txt"
    p.write_bytes(b"\n\n")
    with pytest.raises(InputError, match="empty"):
        read_draft(p)


def test_decode_utf16_bom():
    text, enc = decode("■　概要\n".encode("utf-16"))
    assert text == "■　概要\n" and enc.startswith("UTF-16")


# ---------------------------------------------------------------- circled digits


def test_repair_maps_lead_byte_losses_to_circled_digits():
    text, n = repair_circled_digits("\ufffd@ \ufffdA \ufffdB \ufffdI \ufffdS")
    assert (text, n) == ("① ② ③ ⑩ ⑳", 5)


def test_asian_delivery_circled_digits_repaired_and_reported():
    raw = draft("asian-delivery").read_text(encoding="utf-8")
    broken = raw.count("\ufffd")
    assert broken == 18  # the draft as it reached us
    d = read_draft(draft("asian-delivery"))
    assert d.repaired_digits == 18 and d.unrepaired == 0
    assert "\ufffd" not in d.text
    assert "①のエリアボードを取り出して" in d.text
    assert "　 ③□□　　　　□□③" in d.lines
    assert any("repaired 18 circled digits" in line for line in d.report)


def test_broken_fixture_repairs_like_the_original():
    fixed = read_draft(FIX / "broken-circled.txt")
    assert fixed.repaired_digits == 2
    assert fixed.text == read_draft(FIX / "utf8-bom.txt").text


def test_unrepairable_replacement_character_is_warned_and_marked(tmp_path):
    p = tmp_path / "draft.txt"
    p.write_text("■■　テスト　草案１\n■　概要\n　壊れた\ufffd文字\n", encoding="utf-8")
    d = read_draft(p)
    assert d.unrepaired == 1 and "\ufffd" not in d.text and "〓" in d.text
    assert d.warnings and ":3:" in d.warnings[0]


# ---------------------------------------------------------------- flattened newlines


@pytest.mark.parametrize("slug,flat", [("alicematic-eiketsuden", True), ("alicematic-medallions", True),
                                       ("populous", False), ("asian-delivery", False)])
def test_flattened_drafts_are_detected(slug, flat):
    raw = draft(slug).read_text(encoding="utf-8")
    assert is_flattened(raw) is flat
    d = read_draft(draft(slug))
    assert d.flattened is flat
    if flat:
        assert len(d.lines) > 80
        assert any("flattened" in line for line in d.report)


def test_unflatten_keeps_spaces_in_latin_text():
    d = read_draft(draft("alicematic-medallions"))
    assert d.lines[0] == "■■　Alicematic 刻印抄　アリスと７つのメダリオン　草案１"
    # the medallion list had no indent: its lines start after a joining space
    assert "傲慢のメダリオン（３）：手札を好きなだけ捨て札にできる" in d.lines
    assert "憤怒のメダリオン（５）：同時にプレイした軍勢の数字を２倍にする" in d.lines


def test_unflatten_recovers_unindented_steps():
    d = read_draft(draft("alicematic-eiketsuden"))
    for step in ("１：ターン開始", "２：アリスフェイズ", "６：ターン終了"):
        assert step in d.lines
    assert "○雇用" in d.lines


def test_unflatten_rule():
    assert unflatten("■　概要 　本文。 ■　準備 １：開始 〇雇用 ・点 終わり 次") == \
        "■　概要\n　本文。\n■　準備\n１：開始\n〇雇用\n・点\n終わり\n次"
    # a space touching Latin text is taken for a real space
    assert unflatten("Alicematic 刻印抄 OK") == "Alicematic 刻印抄 OK"


def test_a_note_typed_with_a_half_width_space_in_a_flattened_draft_stays_one_note():
    """A draft of one sentence a line whose newlines were flattened (as medallions' is): 「※ ただし…」,
    the IME in half-width mode, was cut at its space, the ※ a line of its own and its text the next
    line's paragraph; the space after a note's mark (※ ＊ ※２ 注：) is the mark's."""
    flat = ("■■　テスト　草案１ ■　ゲームの進行 １：手番 　手札を１枚引きます。 ※ ただし手札が７枚なら引きません。 "
            "その後１枚出します。 ※２ 出せないときはパス。 注： 例外なし。 山※ です")
    d = read_text(flat.encode("utf-8"), Path("draft.txt"))
    assert d.flattened and d.lines[4:] == ["※ ただし手札が７枚なら引きません。", "その後１枚出します。", "※２ 出せないときはパス。",
                                           "注： 例外なし。", "山※", "です"]
    step = parse(d.text, "ja").sections[0].children[0]
    assert [getattr(b, "text", "") for b in step.children][1:2] == ["※ ただし手札が７枚なら引きません。"]


@pytest.mark.parametrize("slug", ["populous", "asian-delivery"])
def test_flattening_an_ordinary_draft_recovers_the_same_structure(slug):
    """The structure survives a round trip through newline flattening."""
    original = read_draft(draft(slug))
    flat = original.text.replace("\n", " ").encode("utf-8")
    recovered = read_text(flat, Path("flat.txt"))
    assert recovered.flattened
    a, b = parse(original.text), parse(recovered.text)
    assert [(s.title, s.kind) for s in a.sections] == [(s.title, s.kind) for s in b.sections]
    assert [(c.names, c.counts) for c in a.components] == [(c.names, c.counts) for c in b.components]
    assert [(s.number, s.title) for s in a.steps] == [(s.number, s.title) for s in b.steps]


def test_a_terms_reading_after_its_brackets_is_printed_in_parentheses_and_the_index_keeps_the_term(tmp_path):
    """A trick-taking draft gave its 【term】 a reading as a book gives one, after the term:
    「【台札】《だいふだ》と呼びます」 printed its 《だいふだ》 as typed (the kanji-before-the-reading
    rule saw 】, no kanji). It prints 【台札】 with だいふだ above 台札 (bookruby.py: in parentheses
    before), and the index lists 台札, not its reading."""
    from conftest import DRAFT, make_workspace
    from pdfprobe import glyphs, texts
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace
    from pnpgen.rulebook import build_rulebook

    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace(
        "１：カードを１枚引く。", "１：カードを１枚引く。\n　最初のカードのスートを【台札】《だいふだ》と呼びます。"),
        encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    pages = [t.replace("\r\n", "").replace("\n", "") for t in texts(result.files["rulebook.pdf"])]
    assert any("【台札】と呼びます。" in t and "だいふだ" in t.replace(" ", "") for t in pages), pages
    body = next(p for p in glyphs(result.files["rulebook.pdf"]) if any(g.char == "台" for g in p))
    tai, fuda = (next(g for g in body if g.char == c) for c in "台札")
    reading = sorted((g for g in body if g.char in "だいふ" and g.size < 6), key=lambda g: g.x)
    assert tai.x - 0.01 <= reading[0].x and reading[-1].x < fuda.x + 3.2 and reading[0].y < tai.y  # over 台札 alone
    assert not any("《" in t for t in pages), pages
    index = next(t for t in pages if t.lstrip().startswith("索引") or "索引" in t and "目次" not in t)
    assert "台札" in index and "だいふだ" not in index, index


def test_ruby_in_the_draft_is_set_above_its_word_in_the_text_and_in_parentheses_in_headings(tmp_path):
    """Aozora ruby, ``｜鏡《かがみ》`` and ``魔法陣《まほうじん》`` (the kanji before the reading), and the
    cards' ``{騎士|きし}`` printed as typed, marks and all: in the body text each reading is set
    above its word (bookruby.py; its place is measured in test_rulebook_ruby.py), in a step's
    heading and the contents in parentheses after it (鏡（かがみ）), and the readings are said in the
    report. 《》 that hold no reading after kanji (「カードの《効果》」) stay."""
    from conftest import DRAFT, make_workspace
    from pdfprobe import texts
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace
    from pnpgen.rulebook import build_rulebook

    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace(
        "１：カードを１枚引く。", "１：｜鏡《かがみ》を見る\n　魔法陣《まほうじん》の{騎士|きし}は、カードの《効果》を受けない。")
        .replace("２：カードを１枚出す。", "２：カードを出す"),  # (all titles: the steps are headings)
        encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    pages = [t.replace("\r\n", "") for t in texts(result.files["rulebook.pdf"])]
    rules = next(t for t in pages if "受けない" in t and "3.1" in t)
    assert "3.1\u3000鏡（かがみ）を見る" in rules and "魔法陣の騎士は、カードの《効果》を受けない。" in rules
    assert "まほうじん" in rules.replace(" ", "") and "（まほうじん）" not in rules and "（きし）" not in rules
    assert not any(mark in "".join(pages) for mark in "｜|{}"), pages
    assert "鏡（かがみ）を見る" in pages[1]  # the contents
    assert any("3 ruby readings (｜鏡《かがみ》…) set above their words in the text, in parentheses" in line
               for line in result.report), result.report
