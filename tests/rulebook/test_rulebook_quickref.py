"""The quick reference (早見表) against the rules it summarises: each line's page is the page its
words are printed on, not the page of the heading they come under; a line that means nothing
alone (「３人：２４枚」, 「そして、…勝利します」) comes with the sentence it goes on from."""

from __future__ import annotations

import re

import pytest

from conftest import REPO, make_workspace
from pdfprobe import glyphs, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.quickref import quick_reference


def _quick_lines(pages: list[str]) -> list[tuple[str, int]]:
    quick = next(p for p in pages if p.lstrip().startswith("早見表") and "●" in p)
    return [(m.group(1).strip(), int(m.group(2))) for m in re.finditer(r"^(.*?)\s+P\.(\d+)\s*$", quick, re.M)]


def test_an_end_sentence_under_a_long_sub_heading_gives_its_own_page(tmp_path):
    """medallions: ●リリース後の処理 on page 5 runs on to page 6, where 「以上を繰り返し…ゲーム終了」
    and the winner stand; the quick reference said P.5 (the sub-heading's page) for both."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    filler = "".join(f"　手番の処理その{i}です。カードを一枚選んで場に出し、効果を適用してください。\n" for i in range(60))
    draft.write_text(draft.read_text(encoding="utf-8").replace(
        "２：カードを１枚出す。\n",
        "２：カードを１枚出す。\n◎リリース後の処理\n" + filler
        + "　以上を繰り返し、山が尽きるとゲーム終了となります。\n"
        + "　最終的に最もＶＰの多いプレイヤーがゲームに勝利します。\n"), encoding="utf-8")
    pages = texts(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    lines = dict(_quick_lines(pages))
    heading = next(n for n, p in enumerate(pages, start=1) if "リリース後の処理" in p)
    checked = 0
    for text, page in lines.items():
        if text.startswith(("以上を繰り返し", "最終的に最もＶＰ")):
            checked += 1
            assert page != heading
            assert text[:12] in re.sub(r"\s", "", pages[page - 1]), (text, page)
    assert checked == 2


MEDALLIONS_LIKE = ("■■　刻印　草案１\n\n■　ゲームの準備\n　全てのカードを混ぜて山を作ります。\n"
                   "　次に、プレイ人数に応じて以下の枚数をゲームから取り除いてください。\n"
                   "　３人：２４枚\n　４人：１２枚\n　５人：なし\n"
                   "　それが終わったら、各プレイヤーは山から２枚ずつ引いて手札としてください。\n\n"
                   "■　ゲームの進行\n１：ホールド\n　カードを１枚引きます。\n"
                   "　以上を繰り返し、山が尽きるとゲーム終了となります。\n"
                   "　各自プレイしているカードの数字を合計しＶＰとします。そして、手札の数字をマイナスし、"
                   "最終的に最もＶＰの多いプレイヤーがゲームに勝利します。複数いる場合は、メダリオンの多い方が優先されます。\n")


def test_counts_per_player_come_with_the_sentence_saying_what_they_count():
    """medallions: 「３人：２４枚」 are the cards taken out of the game; the quick reference listed the
    counts alone under 準備（人数と枚数）, where they read as the cards each player gets."""
    quick = quick_reference(parse(MEDALLIONS_LIKE, "ja").rules, latin=False)
    assert [line.text for line in quick.setup] == [
        "次に、プレイ人数に応じて以下の枚数をゲームから取り除いてください。", "３人：２４枚", "４人：１２枚", "５人：なし",
        "それが終わったら、各プレイヤーは山から２枚ずつ引いて手札としてください。"]
    # counts under a sub-heading of their own: the sentence before it says nothing of them
    titled = MEDALLIONS_LIKE.replace("　次に、プレイ人数に応じて以下の枚数をゲームから取り除いてください。\n", "◇取り除く枚数\n")
    assert [line.text for line in quick_reference(parse(titled, "ja").rules, latin=False).setup][:2] == \
        ["３人：２４枚", "４人：１２枚"]


def test_a_winner_sentence_going_on_from_the_one_before_keeps_it():
    """「…合計しＶＰとします。そして、手札の数字をマイナスし、最も…勝利します」: the scoring listed only
    the second sentence (what is subtracted from what?)."""
    quick = quick_reference(parse(MEDALLIONS_LIKE, "ja").rules, latin=False)
    assert [line.text for line in quick.scoring] == [
        "各自プレイしているカードの数字を合計しＶＰとします。",
        "そして、手札の数字をマイナスし、最終的に最もＶＰの多いプレイヤーがゲームに勝利します。",
        "複数いる場合は、メダリオンの多い方が優先されます。"]
    alone = MEDALLIONS_LIKE.replace("そして、手札の数字をマイナスし、", "")
    assert quick_reference(parse(alone, "ja").rules, latin=False).scoring[0].text.startswith("最終的に")


def test_a_count_reckoned_from_the_number_of_players_is_a_setup_line():
    """eiketsuden: 「そこから（プレイヤー人数×２）枚引いて各置き場へ…」 is a count by the number of
    players; the setup part held only the starting hand."""
    draft = ("■■　英傑　草案１\n\n■　ゲームの準備\n　じゃんけんで順番を決めます。\n"
             "　アリス山から（プレイヤー人数×２）枚引いて置き場へ並べてください。\n"
             "　各プレイヤーは６枚引いて最初の手札としてください。\n\n■　ゲームの進行\n１：配置\n　置きます。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.setup] == ["アリス山から（プレイヤー人数×２）枚引いて置き場へ並べてください。",
                                                  "各プレイヤーは６枚引いて最初の手札としてください。"]


def test_a_turn_of_phases_starts_with_the_action_said_before_them():
    """medallions' turn: 「まず、山から１枚引いて…ホールドかリリースを行います」 then ●ホールド後の処理 and
    ●リリース後の処理; the quick reference gave the two phases alone, without the turn's action."""
    draft = ("■■　刻印　草案１\n\n■　ゲームの進行\n　手番になったら、以下の手順に従ってください。\n"
             "　まず、山から１枚引いて「ホールド」か「リリース」を行います。ホールドなら手札に加えます。\n"
             "〇ホールド後の処理\n　軍勢をプレイできます。\n〇リリース後の処理\n　手札に入れるか捨てます。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.steps[0].lines] == [
        "まず、山から１枚引いて「ホールド」か「リリース」を行います。", "ホールド後の処理", "リリース後の処理"]
    plain = draft.replace("まず、", "")  # no sentence says how the turn starts: the phases alone, nothing guessed
    assert [line.text for line in quick_reference(parse(plain, "ja").rules, latin=False).steps[0].lines] == \
        ["ホールド後の処理", "リリース後の処理"]


def test_a_turn_starts_with_its_action_not_the_sentence_announcing_the_steps():
    """The English medallions' quick reference began its turn with "On your turn, carry out the
    following procedure." (a sentence starting "On your turn" was taken for the turn's action):
    the action is "First, draw one card…", the sentence after it."""
    draft = ("# Medallions\n\n## Playing the game\n\nOn your turn, carry out the following procedure.\n\n"
             "First, draw one card from the pile and either hold or release it.\n\n"
             "### After holding\n\nYou may play an army.\n\n### After releasing\n\nThey keep it or discard it.\n")
    quick = quick_reference(parse(draft, "en").rules, latin=True)
    assert [line.text for line in quick.steps[0].lines] == [
        "First, draw one card from the pile and either hold or release it.", "After holding", "After releasing"]
    said = draft.replace("carry out the following procedure", "draw one card from the pile")
    assert quick_reference(parse(said, "en").rules, latin=True).steps[0].lines[0].text == \
        "On your turn, draw one card from the pile."  # the first that says what to do


def test_an_english_starting_hand_may_say_which_cards_are_dealt():
    """「Deal 5 Starter cards to each player」 was missed (only "deal 5 cards" was read as the
    starting hand): a word or two between the number and "cards" say which cards; a number that
    counts something else (damage, "3 of the cards") or cards only placed is no starting hand."""
    draft = ("Market\n\nSETUP\n\nShuffle the Market cards. Place the 3 Event cards beside the board. "
             "Deal 5 Starter cards to each player. Deal five random cards face up to form the market. "
             "Deal each player 2 Goal cards. Deal 3 of the cards into a discard pile.\n\n"
             "PLAYING\n\n1) Buy a card. Deal 2 damage to cards in play.\n")
    quick = quick_reference(parse(draft, "en").rules, latin=True)
    assert [line.text for line in quick.setup] == [
        "Deal 5 Starter cards to each player.", "Deal five random cards face up to form the market.",
        "Deal each player 2 Goal cards."]


def test_a_drafts_own_quick_reference_is_the_books_only_one(tmp_path):
    """Japanese designer's trial: a draft with its own ■　早見表 section got two, its section
    「6 早見表」 and the page pnpgen makes, both in the contents. The draft's stands where it is
    written; a draft without one still gets pnpgen's page."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    plain = texts(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    assert [p for p in plain if p.lstrip().startswith("早見表") and "●" in p]  # pnpgen's page
    draft.write_text(draft.read_text(encoding="utf-8") + "\n■　早見表\n\n・ドロー：１枚引く\n・メイン：カードを出す\n",
                     encoding="utf-8")
    pages = texts(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    flat = [re.sub(r"\s", "", p) for p in pages]
    assert sum(p.count("早見表") for p in flat) == 2, flat  # the section's heading and its line in the contents
    assert not [p for p in pages if p.lstrip().startswith("早見表") and "●" in p]
    assert any("ドロー：１枚引く" in p for p in flat)


def test_the_components_keep_each_count_beside_its_name(built):
    """早見表 内容物: each part's count on the line its name ends on (run on as one paragraph, a line
    ended 「ウッドキューブ（緑）」 and the next began 「5個（仮）」)."""
    pages = glyphs(built / "alicematic-eiketsuden" / "rulebook.pdf")
    page = next(p for p in pages if "ゲームの流れ" in "".join(g.char for g in p))
    text = "".join(g.char for g in page)
    below = page[text.index("内容物")].y + 1
    rows: dict[float, list] = {}
    for g in page:
        if g.on_page and g.char.strip() and g.y > below:
            rows.setdefault(round(g.y, 1), []).append(g)
    lines = ["".join(g.char for g in sorted(r, key=lambda g: g.x)) for _, r in sorted(rows.items())]
    pairs = [("アリスカード", "24枚"), ("君主カード", "5枚"), ("戦略カード", "48枚"), ("塔カード", "68枚")] + \
        [(f"ウッドキューブ（{c}）", "5個（仮）") for c in "赤青緑黒"]
    # (the name itself may break, as any Japanese word may: ウッド|キューブ)
    assert [(name, count) for name, count in pairs if not any(name[-3:] + count in line for line in lines)] == [], lines


def test_the_components_count_follows_its_name_at_jlreq_spacing(built):
    """早見表 内容物: the no-break space gluing a part's name to its count is no word space in the
    Japanese book: 「ウッドキューブ（赤）5個」 at the bracket's half em alone (it printed an em and a
    half from ） to 5), 「アリスカード24枚」 at the 和欧間 (a quarter em, not half an em)."""
    pages = glyphs(built / "alicematic-eiketsuden" / "rulebook.pdf")
    page = next(p for p in pages if "ゲームの流れ" in "".join(g.char for g in p))
    ink = [g for g in page if g.char.strip()]  # (PDFium reads a gap as a space: the glyphs drawn)
    text = "".join(g.char for g in ink)
    start = text.index("アリスカード", text.index("内容物"))

    def ems(word: str, at: int) -> float:
        """From the word's character ``at`` to the next one drawn, a no-break space between
        them, less the line's justification (two character gaps of it: the pitch of two kana on
        that line, an em apart when set solid, less an em)."""
        i = text.index(word, start)
        a, b = ink[i + at], ink[i + at + 1]
        em = a.size * 25.4 / 72
        kana = [(g, h) for g, h in zip(ink, ink[1:]) if g.y == h.y == a.y and re.fullmatch("[ぁ-ヶ]{2}", g.char + h.char)]
        assert a.y == b.y and kana, word
        spacing = (kana[0][1].x - kana[0][0].x) / em - 1
        return round((b.x - a.x) / em - 2 * spacing, 2)

    assert ems("ウッドキューブ（赤）5個", 9) == 1.0  # ） to 5: the bracket's em alone
    assert ems("アリスカード24枚", 5) == 1.25  # ド to 2: an em and the 和欧間


def test_the_summary_card_on_a_page_of_its_own_fills_the_texts_width(built):
    """game.yaml's quick_reference deck (asian-delivery: two tarot faces, 70 × 120 mm), moved to a
    page of its own by the 早見表's lines, is printed as wide as the text (it printed 70 mm high
    in a blank page, 41 mm wide, its text at 3 pt)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(built / "asian-delivery" / "rulebook.pdf")
    pages = texts(built / "asian-delivery" / "rulebook.pdf")
    # (the running head, mirrored on facing pages, names 早見表 at either end of its line)
    quick = [n for n, p in enumerate(pages) if p.lstrip().startswith("早見表") or "早見表" in p.rstrip().splitlines()[-2]]
    faces = [(n, o.get_matrix().a, o.get_bounds()) for n in quick for o in pdf[n].get_objects(max_depth=1)
             if o.type == raw.FPDF_PAGEOBJ_FORM]
    assert len(faces) == 2 and faces[0][0] == faces[1][0] > quick[0], faces  # front and back, after the lines
    mm = 25.4 / 72
    left, right = faces[0][2][0] * mm, faces[1][2][2] * mm
    assert [round(scale, 3) for _, scale, _ in faces] == [0.821] * 2  # (148 − 15 − 15 − 3 mm) / 140 mm
    bleed = 3 * faces[0][1]  # (a face's form reaches over its 3 mm of bleed)
    assert right - left - 2 * bleed == pytest.approx(118, abs=0.1)  # the text's width, 148 mm less the margins


def test_an_end_section_saying_who_wins_when_what_happens_is_the_end_of_the_game():
    """An English designer's trial (a social-deduction game): under "End of the game", "The
    village wins when every Werewolf is out." The quick reference said of the end "The draft does
    not say." It is the end and the winner; "the player with the most points wins" stays the winner alone."""
    draft = ("Night Village\n\n# Playing the game\n\n1. Night: the wolves choose a victim.\n2. Day: vote.\n\n"
             "# End of the game\n\nThe village wins when every Werewolf is out. The wolves win when they equal "
             "the villagers.\n")
    quick = quick_reference(parse(draft, "en").rules, latin=True)
    assert [line.text for line in quick.end] == ["The village wins when every Werewolf is out."]
    assert quick.scoring and quick.scoring[0].text == "The village wins when every Werewolf is out."
    most = draft.replace("The village wins when every Werewolf is out. The wolves win when they equal the villagers.",
                         "The player with the most points wins.")
    assert quick_reference(parse(most, "en").rules, latin=True).end == []


def test_a_line_printed_alone_drops_the_word_tying_it_to_the_sentence_before(tmp_path):
    """An editor's pass: the 早見表 printed 「次に、…」「そして、１２ラウンド目が…」「最後に、ＶＰの…」,
    each away from the sentence its 次に or そして points back to; printed alone, a line leaves
    the word out, and keeps it when the line above is that very sentence (「…ＶＰとします。」
    「そして、…勝利します。」). 「ただし、」 qualifies the rule: it stays."""
    draft = MEDALLIONS_LIKE.replace("　以上を繰り返し、", "　ただし、１枚も引けなければ手番を終えます。\n　そして、以上を繰り返し、")
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    pages = texts(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    quick = re.sub(r"\s", "", next(p for p in pages if p.lstrip().startswith("早見表") and "●" in p))
    rules = re.sub(r"\s", "", " ".join(p for p in pages if "早見表" not in p))
    assert "●準備（人数と枚数）プレイ人数に応じて以下の枚数を" in quick  # was 「次に、プレイ人数…」
    assert "●ゲームの終了以上を繰り返し、山が尽きるとゲーム終了となります。" in quick  # was 「そして、以上を…」
    assert "ＶＰとします。P.3そして、手札の数字をマイナスし、" in quick  # the sentence it goes on from is above it
    assert "ただし、１枚も引けなければ" not in quick and "次に" not in quick
    assert "次に、プレイ人数に応じて" in rules and "そして、以上を繰り返し" in rules  # the rules keep the draft's words


def test_an_english_line_printed_alone_keeps_its_capital():
    from pnpgen.rulebook.quickref import standing_alone

    assert standing_alone("Next, depending on the number of players, remove cards.") == \
        "Depending on the number of players, remove cards."
    assert standing_alone("However, a tie is a draw.") == "However, a tie is a draw."
    assert standing_alone("次に戦略カードをよくシャッフルします。") == "戦略カードをよくシャッフルします。"
    assert standing_alone("ただし、減らすことはできません。") == "ただし、減らすことはできません。"


def test_an_english_quick_reference_line_is_set_ragged_right_not_opened_to_the_measure(tmp_path):
    """trial49: the English quick reference was justified in its narrow column, a short line's few
    word spaces opened to 1.4–1.65 mm (8 pt Noto Serif's space is some 0.6 mm of white between the
    ink of its words, 0.8–1.0 mm as pdfium boxes them): its lines are set ragged right, as a list is."""
    import pypdfium2 as pdfium
    from test_quickref import WARGAME

    ws = make_workspace(tmp_path / "ws", pieces=["a"], game="title: Ardennes 44\ndraft: 1\nlanguages: [en]\n")
    (ws / "data" / "test" / "draft.txt").write_text(WARGAME, encoding="utf-8")
    pdf = pdfium.PdfDocument(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])
    page = next(p for p in pdf if p.get_textpage().get_text_range().startswith("Quick reference"))
    text = page.get_textpage()
    chars = [text.get_text_range(i, 1) for i in range(text.count_chars())]
    start = "".join(chars).index("7.1 The German player wins")
    line, k = [], start
    while chars[k] not in "\r\n":  # the case's first line, its spaces between two words
        line.append(k)
        k += 1
    gaps = [(text.get_charbox(i + 1)[0] - text.get_charbox(i - 1)[2]) * 25.4 / 72
            for i in line[1:-1] if chars[i] == " " and chars[i - 1] != " " and chars[i + 1] != " "]
    assert len(gaps) >= 6 and max(gaps) < 1.15, [round(g, 2) for g in gaps]


def test_a_wargames_own_quick_reference_prints_without_a_number(tmp_path):
    """Wargame trial (trial69): a draft that numbers its sections 「■　１．０　序論」… and ends with its
    own 「■　早見表」 was warned 'some sections carry their own number … and 1 does not: 「早見表」'
    and printed 「8 早見表」 after 「7.0」, the book's count; the book's own 早見表 has no number, nor
    has the draft's now, and the numbering rule asks none of it."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text("■■　テスト　草案１\n\n■　１．０　序論\n\n１．１　二人用のゲームです。\n\n"
                     "■　２．０　移動\n\n２．１　部隊は移動力まで動けます。\n\n"
                     "■　早見表\n\n・移動：移動力まで（→２．１）\n", encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts")
    assert not [w for w in result.warnings if "carry their own number" in w], result.warnings
    pages = texts(result.files["rulebook.pdf"])
    contents = [line.strip() for line in next(p for p in pages if p.lstrip().startswith("目次")).splitlines()]
    assert any(line.startswith("2.0") for line in contents), contents
    assert [line for line in contents if "早見表" in line][0].startswith("早見表"), contents  # not 「3 早見表」
    page = [line.strip() for line in next(p for p in pages if "移動：移動力まで" in p).splitlines()]
    assert "早見表" in page, page  # its heading, unnumbered
