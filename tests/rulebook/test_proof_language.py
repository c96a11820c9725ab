"""The proofing report speaks the book's language: for an English draft or an ``--lang en``
build, its kinds and sentences (proof.txt and the rulebook's appendix) come from the English
message catalogue; a Japanese book keeps its Japanese report."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import DECK_YAML, DRAFT, GAME_YAML, REPO, make_workspace
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook, pictures_from_game

SLUG = "alicematic-medallions"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _book(ws: Path, slug: str, lang: str | None):
    game = load_game(Workspace(ws), slug, lang=lang)
    return build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws / "templates"))


def _appendix(result) -> str:
    pages = texts(result.files["rulebook.pdf"])
    return next(p for p in reversed(pages) if "Proofing notes" in p)  # (the contents name it first)


@pytest.fixture(scope="module")
def medallions(tmp_path_factory) -> Path:
    """The real game, its English sample draft given a miscount, a term spelt two ways and an
    open player count: one finding of each kind an English draft can have."""
    ws = tmp_path_factory.mktemp("medallions")
    shutil.copytree(REPO / "data" / SLUG, ws / "data" / SLUG)
    shutil.copytree(REPO / "templates" / SLUG, ws / "templates" / SLUG)
    (ws / "fonts").symlink_to(REPO / "fonts")
    draft = ws / "data" / SLUG / "draft.en.txt"
    text = draft.read_text(encoding="utf-8")
    assert "- Alice cards (53)" in text and "\n## Components\n" in text
    text = text.replace("- Alice cards (53)", "- Alice cards (50)")
    text = text.replace("\n## Components\n", "\nThe 【Crest Zone】 lies west; each 【Crest Zone】 counts once.\n"
                                              "Only the 【Crest Zane】 may hold a medallion.\n\n## Components\n", 1)
    draft.write_text(text, encoding="utf-8")
    game = ws / "data" / SLUG / "game.yaml"
    yaml = game.read_text(encoding="utf-8")
    assert "\nplayers: 3-5" in yaml
    game.write_text(yaml.replace("\nplayers: 3-5", "\nplayers: 未定", 1), encoding="utf-8")
    return ws


@pytest.fixture(scope="module")
def english(medallions):
    """That game's English rulebook, typeset once for the tests of its proof.txt and appendix."""
    return _book(medallions, SLUG, "en")


def test_an_english_build_words_proof_txt_in_english(english):
    lines = english.files["proof.txt"].decode("utf-8").splitlines()
    findings = [line.split("\t", 1) for line in lines[2:]]
    # (Query: the English draft quotes Medallion of Wrath as "…played with it.", the card reads "…played
    # together with this medallion.": book47's stale-quote check, rulebook/proofcards.quoted_cards)
    assert {kind for kind, _ in findings} == {"Spelling", "Count", "Open", "Query"}, lines
    said = dict((kind, text) for kind, text in findings)
    assert re.match(r".*draft\.en\.txt:\d+: the draft quotes Medallion cards “Medallion of Wrath” as “Double the number "
                    r"of the army played with it\.”; the card reads “Double the number of the army played together with "
                    r"this medallion\.” \(.*medallion\.yaml:40:5\)$", said["Query"]), said["Query"]
    assert re.match(r".*draft\.en\.txt:\d+: “Crest Zone” ×2 \(line \d+\) vs", said["Spelling"]), said["Spelling"]
    assert "vs “Crest Zane” ×1 (line " in said["Spelling"]
    assert re.fullmatch(r".*draft\.en\.txt:\d+: Alice cards: the draft says 50, the data has 53", said["Count"]), said["Count"]
    # the data's 未定 is said as an English edition prints it: TBD
    # at game.yaml's players: line, as the build's warning (it named the file only)
    at = re.fullmatch(r"(.*game\.yaml):(\d+):\d+: players is open \('TBD'\); left off the cover", said["Open"])
    assert at, said["Open"]
    assert Path(at.group(1)).read_text(encoding="utf-8").splitlines()[int(at.group(2)) - 1].startswith("players: 未定")
    # not one Japanese word: no 未定, 草案, 行, 回, 表紙, 「」
    assert not JAPANESE.search("\n".join(lines[2:])), lines


def test_an_english_build_words_the_appendix_in_english(english):
    appendix = re.sub(r"\s+", " ", _appendix(english))
    assert "Spelling" in appendix and "Count" in appendix and "Open" in appendix
    assert re.search(r"“Crest Zone” ×2 \(draft l\. \d+\) and “Crest Zane” ×1 \(draft l\. \d+\)",
                     appendix), appendix
    assert re.search(r"Alice cards: the draft says 50, the data has 53 \(draft line \d+\)", appendix), appendix
    # (the English body font has no kana or kanji: the data's own 未定 does not extract)
    assert re.search(r"Players: .{0,6}\(left off the cover\)", appendix), appendix
    for japanese in ("表記ゆれ", "個数", "草案", "データは", "表紙", "プレイ人数"):
        assert japanese not in appendix


def test_a_japanese_draft_in_an_english_build_is_reported_in_english(tmp_path):
    """A game kept in Japanese built with --lang en (no draft.en.txt): its Japanese draft's
    disagreeing numbers are reported with English sentences around the quoted draft."""
    draft = DRAFT.replace("２：カードを１枚出す。\n", "２：カードを１枚出す。\n"
                          "　倉庫には資材を最大３個まで置くことができます。\n"
                          "　倉庫には資材を最大４個まで置くことができます。\n")
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [ja, en]\n")
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    english = _book(ws, "test", "en").files["proof.txt"].decode("utf-8")
    (numbers,) = [line for line in english.splitlines() if line.startswith("Numbers\t")]
    assert re.fullmatch(r"Numbers\t.*draft\.txt:\d+: ３個 / ４個: line \d+ “倉庫には資材を最大３個まで置くことができます。” vs "
                        r"line \d+ “倉庫には資材を最大４個まで置くことができます。”", numbers), numbers
    japanese = _book(ws, "test", None).files["proof.txt"].decode("utf-8")
    assert re.search(r"^数の不一致\t.*draft\.txt:\d+: ３個／４個：\d+行「倉庫", japanese, re.M), japanese


def test_deck_and_piece_names_in_card_texts_are_checked_against_the_components_list(tmp_path):
    """A card text naming a deck or piece the components list spells otherwise (テスドカード, a
    slip of ト) or never mentions (祝福カード) is a finding in proof.txt; a name
    the list has (テストカード), and 各カード (each card), are none."""
    from pnpgen.rulebook.book import read_rulebook

    texts_ = ["テストカードを１枚引く。", "「テスドカード」を捨てる。", "祝福カードを２枚引く。", "各カードを表にする。"]
    pieces = [*texts_, *["本文"] * 7]
    deck = DECK_YAML + "".join(f"  - {{name: カード{i}, text: {t}}}\n" for i, t in enumerate(pieces, start=1))
    ws = make_workspace(tmp_path / "ws", draft=True, deck=deck)
    game = load_game(Workspace(ws), "test")
    findings = read_rulebook(game, REPO / "fonts").findings
    named = [f.file for f in findings if "のテキストの「" in f.file]
    assert len(named) == 2, named
    assert "「テスドカード」：内容物では「テストカード」" in named[0] and "cards.yaml:" in named[0]
    assert "「祝福カード」：内容物のページに出てこない名前です" in named[1]
    book = {f.book for f in findings}
    assert "テストカード「カード3」のテキストの「祝福カード」：内容物のページに出てこない名前です" in book


def test_a_piece_named_with_its_decks_kind_in_a_card_text_is_no_finding(tmp_path):
    """「草原タイル」 on a card is the piece 草原 of the deck 地形タイル: it was reported as a name the
    components pages never mention. A piece name with its deck's kind is none; a name of no piece
    (砂漠タイル) still is."""
    from pnpgen.rulebook.book import read_rulebook

    deck = DECK_YAML + "  - {name: カード1, text: 草原タイルに置く。}\n  - {name: カード2, text: 砂漠タイルに置く。}\n"
    deck += "".join(f"  - {{name: カード{i}, text: 本文}}\n" for i in range(3, 12))
    ws = make_workspace(tmp_path / "ws", deck=deck, draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace(
        "◇テストカード（１１枚）", "◇地形タイル（２枚）\n　森と草原のタイルです。\n\n◇テストカード（１１枚）"), encoding="utf-8")
    (ws / "data" / "test" / "decks" / "tiles.yaml").write_text(
        "name: 地形タイル\nlayout: tile-hex\npieces:\n  - {title: 草原, text: 本文}\n  - {title: 森, text: 本文}\n",
        encoding="utf-8")
    findings = read_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").findings
    named = [f.file for f in findings if "のテキストの「" in f.file]
    assert len(named) == 1 and "「砂漠タイル」：内容物のページに出てこない名前です" in named[0], named


def test_a_card_type_with_its_decks_kind_in_a_card_text_is_no_finding(tmp_path):
    """A deck-builder's trial: a player aid saying 「アクションカードを１枚使う」, of market cards whose
    type (a field of theirs) reads アクション, was a query in proof.txt and the book's appendix, a
    name the components pages never mention. A value the pieces give, with their deck's kind, is
    the kind of card it says; a name no piece gives (祝福カード) still is a query."""
    from pnpgen.rulebook.book import read_rulebook

    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  type: text\n")
    deck += "  - {name: カード1, type: アクション, text: アクションカードを１枚使う。}\n"
    deck += "  - {name: カード2, type: 財宝, text: 祝福カードを２枚引く。}\n"
    deck += "".join(f"  - {{name: カード{i}, type: 財宝, text: 本文}}\n" for i in range(3, 12))
    ws = make_workspace(tmp_path / "ws", deck=deck, draft=True)
    findings = read_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").findings
    named = [f.file for f in findings if "のテキストの「" in f.file]
    assert len(named) == 1 and "「祝福カード」：内容物のページに出てこない名前です" in named[0], named


def test_a_game_switched_to_english_with_its_japanese_draft_sets_the_japanese_rules_and_says_why(tmp_path):
    """``languages: [en]`` on a game whose draft.txt is still Japanese (as ``pnpgen new`` wrote
    it): the draft is read as Japanese — its rules are in the book, not "no rules section found" —
    with English labels, and one warning says so and what to write instead."""
    from pnpgen.rulebook.reader import detect_language

    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [en]\n", draft=True)
    book = _book(ws, "test", None)
    said = [w for w in book.warnings if "written in Japanese" in w]
    assert len(said) == 1 and "draft.en.txt" in said[0], book.warnings
    assert not [w for w in book.warnings if "no rules section" in w], book.warnings
    flat = re.sub(r"\s", "", "".join(texts(book.files["rulebook.pdf"])))
    assert "カードを１枚引く。" in flat and "Contents" in flat
    # an English draft quoting a few Japanese words stays English
    assert detect_language("# Setup\nDeal the cards (手札, tefuda): five each.\n", "en") == "en"
    assert detect_language(DRAFT, "en") == "ja"


def test_a_printed_deck_the_drafts_components_list_does_not_name_is_a_proofing_note(tmp_path):
    """A deck only in the data goes under その他の内容物 with its count, and proof.txt says so at
    the components section's line, in the book's language (a designer's extra deck went in
    silently)."""
    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "languages: [ja, en]\n")
    extra = ws / "data" / "test" / "decks" / "aids.yaml"
    extra.write_text("name: サマリーカード\nformat: poker\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n"
                     "pieces:\n  - {name: 早見, text: 手番の流れ, count: 4}\n", encoding="utf-8")
    proof = _book(ws, "test", None).files["proof.txt"].decode("utf-8")
    notes = [line for line in proof.splitlines() if line.startswith("内容物\t")]
    assert len(notes) == 1 and "draft.txt:7: デッキ aids「サマリーカード」4枚：草案の内容物にありません" in notes[0], proof
    english = _book(ws, "test", "en").files["proof.txt"].decode("utf-8")
    # the Japanese draft's counter said in English: 4 cards, not 4枚
    assert "deck aids “サマリーカード” (4 cards) is not in the draft's components list" in english, english


def test_two_component_entries_alike_but_for_their_counts_are_no_disagreeing_numbers():
    """Two decks named alike, 資源トークン（小） and 資源トークン（大), listed with their counts: a
    designer's trial had 「数の不一致　４０個／１６個」 in proof.txt and the book's appendix for two
    entries whose counts the data confirmed. The entries' counts are checked against the data;
    two sentences of the rules alike but for a number still are a finding."""
    from pnpgen.rulebook.parse import parse
    from pnpgen.rulebook.proofnumbers import disagreeing_numbers

    draft = ("■■　宿場町　草案１\n\n■　コンポーネント\n\n◇資源トークン（小）（４０個）\n　木材です。\n\n"
             "◇資源トークン（大）（１６個）\n　金貨です。\n\n■　ゲームの準備\n\n"
             "　倉庫には資材を最大３個まで置くことができます。\n　倉庫には資材を最大４個まで置くことができます。\n")
    found = disagreeing_numbers(parse(draft), draft, "draft.txt", "ja")
    assert [f.file for f in found] == ["draft.txt:13: ３個／４個：13行「倉庫には資材を最大３個まで置くことができます。」と"
                                       "14行「倉庫には資材を最大４個まで置くことができます。」"], found


def test_a_units_own_name_and_a_prefixed_word_are_no_findings(tmp_path):
    """A wargame trial: the unit 生駒足軽 (the Ikoma clan's foot) was a query, its 「生駒」 read as a
    piece named with 駒; and 「敵部隊」 beside 「各部隊」 a spelling variant. A piece's own name names
    no other piece, and two words of one noun after a prefix saying whose or which (敵, 各) are two
    words; a card text naming 生駒 (「生駒を…」) is still read, and 事務所／事業所 still a variant."""
    from pnpgen.rulebook.book import read_rulebook

    deck = DECK_YAML + "  - {name: 生駒足軽, text: 本文}\n  - {name: 伝令, text: 騎馬駒を動かす。}\n"
    deck += "".join(f"  - {{name: カード{i}, text: 本文}}\n" for i in range(3, 12))
    ws = make_workspace(tmp_path / "ws", deck=deck, draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT + (
        "\n■　戦闘\n\n　敵部隊に隣接したら止まります。敵部隊は退却します。\n　各部隊は１回攻撃できます。\n"
        "　事務所に置きます。事務所を使います。\n　事業所に置きます。\n"), encoding="utf-8")
    findings = read_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").findings
    named = [f.file for f in findings if "のテキストの「" in f.file]
    assert len(named) == 1 and "「騎馬駒」" in named[0], named
    variants = [f.subject for f in findings if f.kind == "表記ゆれ"]
    assert ("事務所", "事業所") in variants and not any("部隊" in s[0] for s in variants), variants


def test_two_words_differing_in_the_two_sides_of_a_contrast_are_no_variant(tmp_path):
    """Wargame trial (trial69): the turn's phases 「東軍移動フェイズ」 and 「西軍移動フェイズ」 were a
    表記ゆれ query (東軍移動 / 西軍移動, one kanji apart). Words differing in the two sides of a contrast
    alone (東/西, 表/裏, 上/下) are two words; 事務所／事業所 is still a variant."""
    from pnpgen.rulebook.book import read_rulebook

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "".join(f"  - {{name: カード{i}, text: 本文}}\n" for i in range(1, 6)),
                        draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT + (
        "\n■　手順\n\n　東軍移動フェイズに東軍が動きます。\n　西軍移動フェイズに西軍が動きます。\n"
        "　表面積を数えます。\n　裏面積は数えません。\n"
        "　事務所に置きます。事務所を使います。\n　事業所に置きます。\n"), encoding="utf-8")
    variants = [f.subject for f in read_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").findings
                if f.kind == "表記ゆれ"]
    assert ("事務所", "事業所") in variants, variants
    assert not [s for s in variants if "東軍移動" in s or "表面積" in s], variants
