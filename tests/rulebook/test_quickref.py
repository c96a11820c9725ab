"""The quick reference read from a draft (rulebook/quickref.py)."""

from __future__ import annotations

from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.quickref import quick_reference


def test_victory_points_in_the_end_trigger_do_not_make_it_a_victory_sentence():
    """【勝利点】 (victory points) is a thing counted, not who wins: the sentence that ends the game
    on 20 of them is the end trigger (it was listed under scoring, the end 草案に記載なし)."""
    draft = ("■■　星の航路　草案１\n\n■　ゲームの進行\n１：カードを引く\n　山札から引きます。\n\n"
             "■　ゲームの終了\n\n　誰かが【勝利点】を２０点以上得たら、そのラウンドの終わりにゲームが終了します。\n"
             "　最も【勝利点】の多いプレイヤーが勝利します。同点の場合は金貨の多いプレイヤーが勝利します。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == [
        "誰かが【勝利点】を２０点以上得たら、そのラウンドの終わりにゲームが終了します。"]
    assert [line.text for line in quick.scoring] == [
        "最も【勝利点】の多いプレイヤーが勝利します。", "同点の場合は金貨の多いプレイヤーが勝利します。"]


def test_a_winner_written_with_kana_motto_mo_and_its_tie_break_are_the_scoring():
    """trial54's karuta draft wrote 「もっとも得点の多いプレイヤーが勝利します。」 in kana: the quick reference
    listed the points sentence before it alone, without the winner or the tie-break after it."""
    draft = ("■■　ことばかるた　草案１\n\n■　ゲームの進行\n１：読み上げ\n　読み札を読みます。\n\n"
             "■　ゲームの終了\n\n　取り札がなくなると、ゲームが終了します。\n"
             "　取った札１枚につき１点です。もっとも得点の多いプレイヤーが勝利します。\n"
             "　同点の場合は、お題カードを多く答えたプレイヤーが勝利します。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.scoring] == [
        "取った札１枚につき１点です。", "もっとも得点の多いプレイヤーが勝利します。",
        "同点の場合は、お題カードを多く答えたプレイヤーが勝利します。"]


def test_an_end_sentence_that_names_the_winner_is_the_end_trigger_and_its_tie_break_follows():
    """A game trial: 「…１０点集めたら、ゲームは終了し、そのプレイヤーが勝利します」 is the draft's one end
    sentence; the quick reference said 草案に記載なし under ゲームの終了 (the winner in the sentence kept
    it out), and left out 「同点の場合は…勝ちます」 (no 最も, so no winner sentence before it)."""
    draft = ("■■　刃の宴　草案１\n\n■　ゲームの進行\n１：ドロー\n　山札から引きます。\n\n"
             "■　ゲームの終了\n\n　どちらかのプレイヤーが【勝利点】を１０点集めたら、ゲームは終了し、そのプレイヤーが"
             "勝利します。同点の場合は、戦場のユニットが多い方が勝ちます。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    won = "どちらかのプレイヤーが【勝利点】を１０点集めたら、ゲームは終了し、そのプレイヤーが勝利します。"
    assert [line.text for line in quick.end] == [won]
    assert [line.text for line in quick.scoring] == [won, "同点の場合は、戦場のユニットが多い方が勝ちます。"]


def test_an_end_sentence_naming_the_winner_is_not_the_end_trigger_beside_one_that_is():
    """With a sentence of its own that ends the game, the winner's sentence stays under scoring alone."""
    draft = ("■■　星の航路　草案１\n\n■　ゲームの進行\n１：カードを引く\n　山札から引きます。\n\n"
             "■　ゲームの終了\n\n　山札が尽きたらゲームが終了します。\n"
             "　ゲームが終了したら、最も得点の多いプレイヤーの勝ちです。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["山札が尽きたらゲームが終了します。"]
    assert [line.text for line in quick.scoring] == ["ゲームが終了したら、最も得点の多いプレイヤーの勝ちです。"]


def test_a_race_won_by_the_first_player_to_reach_it_is_the_end_trigger():
    """trial63's English party game: "## End of the game" said only "The first player to collect 3 ★
    wins.", and the quick reference's End of the game read 'The draft does not say.' (a winner named
    without when/if was taken for a count, the most points); 先に… is the Japanese race."""
    for draft, lang, said in [
            ("# Stars\n\n## Playing the game\n\n1. Draw a card.\n\n## End of the game\n\n"
             "The first player to collect 3 ★ wins.\n", "en", "The first player to collect 3 ★ wins."),
            ("■■　星　草案１\n\n■　ゲームの進行\n１：ドロー\n　山札から引きます。\n\n■　ゲームの終了\n\n"
             "　先に★を３つ集めた人の勝ちです。\n", "ja", "先に★を３つ集めた人の勝ちです。")]:
        quick = quick_reference(parse(draft, lang).rules, latin=lang == "en")
        assert [line.text for line in quick.end] == [said]
        assert [line.text for line in quick.scoring] == [said]
    most = ("# Stars\n\n## Playing the game\n\n1. Draw a card.\n\n## End of the game\n\n"
            "The player with the most stars wins.\n")
    assert quick_reference(parse(most, "en").rules, latin=True).end == []


def test_the_first_sentence_of_a_section_on_the_games_end_is_its_end_trigger():
    """Japanese trial: ■　ゲームの終了 「{火}を５つ置いたら終わり。」 was listed under 得点と勝利 and
    the end trigger read 草案に記載なし, though the section says nothing else."""
    draft = "■■　T　草案１\n\n■　ゲームの進行\n\n１：カードを引く。\n\n■　ゲームの終了\n\n　{火}を５つ置いたら終わり。\n"
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["{火}を５つ置いたら終わり。"] and quick.scoring == []
    won = draft.replace("置いたら終わり。", "置いたプレイヤーの勝利です。")  # names the winner: scoring, as before
    quick = quick_reference(parse(won, "ja").rules, latin=False)
    assert quick.end == [] and [line.text for line in quick.scoring] == ["{火}を５つ置いたプレイヤーの勝利です。"]


def test_an_end_trigger_said_twice_is_printed_once():
    """populous says 「１２ラウンド目が終わるとゲーム終了」 where the turn is explained and 「以上を繰り返し、
    １２ラウンドが終わればゲーム終了」 after the last phase: the quick reference printed both. Two
    triggers (山札 and 手札 running out) stay two."""
    draft = ("■■　T　草案１\n\n■　ゲームの進行\n　手番を繰り返します。そして、１２ラウンド目が終わるとゲーム終了となります。\n"
             "１：ドロー\n　山札から引きます。\n２：終了フェイズ\n　以上を繰り返し、１２ラウンドが終わればゲーム終了となります。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["そして、１２ラウンド目が終わるとゲーム終了となります。"]
    two = draft.replace("そして、１２ラウンド目が終わるとゲーム終了となります。", "山札が尽きたらゲームが終了します。")
    two = two.replace("以上を繰り返し、１２ラウンドが終わればゲーム終了となります。", "手札が尽きたらゲームが終了します。")
    quick = quick_reference(parse(two, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["山札が尽きたらゲームが終了します。", "手札が尽きたらゲームが終了します。"]
    more = draft.replace("１２ラウンドが終わればゲーム", "１２ラウンドが終わり山が尽きるとゲーム")  # adds the deck: two (medallions)
    assert len(quick_reference(parse(more, "ja").rules, latin=False).end) == 2
    english = "# T\n\n## Playing the game\n\nThe game ends after round 12.\n\n## End of the game\n\nThen the game ends after round 12.\n"
    assert [line.text for line in quick_reference(parse(english, "en").rules, latin=True).end] == [
        "The game ends after round 12."]


def test_a_game_that_lasts_a_number_of_turns_says_so_as_its_end():
    """A wargame's draft: 「ゲームは１２ターンで終わります。」 / "The game lasts 12 turns." in its
    overview, the winner at the end of turn 12: the quick reference's end read 草案に記載なし."""
    ja = ("■■　草原の戦線　草案３\n\n■　ゲームの概要\n　二人で遊びます。ゲームは１２ターンで終わります。\n\n"
          "■　ゲームの進め方\n１：移動\n　駒を動かします。\n\n■　勝利条件\n　第１２ターンの終わりに都市の多い方が勝ちます。\n")
    quick = quick_reference(parse(ja, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["ゲームは１２ターンで終わります。"]
    en = ("# Steppe Front\n\n## Overview\nTwo players. The game lasts 12 turns.\n\n## Playing\n1) Move\nMove your units.\n\n"
          "## Victory\nAt the end of turn 12 the player with more cities wins.\n")
    quick = quick_reference(parse(en, "en").rules, latin=True)
    assert [line.text for line in quick.end] == ["The game lasts 12 turns."]
    # a game that ends on something else than its length is not one
    other = ja.replace("ゲームは１２ターンで終わります。", "ゲームはすぐ終わります。")
    assert quick_reference(parse(other, "ja").rules, latin=False).end == []


def test_a_games_length_given_with_its_setup_is_its_end():
    """A wargame trial: 「３．４　ゲームは１２ターンで終わります。」, a case of ■　ゲームの準備, was read
    only for the setup's counts, and the quick reference's end said 草案に記載なし."""
    ja = ("■■　関ヶ原戦記　草案３\n\n■　ゲームの準備\n３．１　駒を配置します。\n３．４　ゲームは１２ターンで終わります。\n\n"
          "■　ゲームの進行\n１：移動\n　駒を動かします。\n")
    quick = quick_reference(parse(ja, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["３．４ゲームは１２ターンで終わります。"]
    assert quick.setup == []


def test_the_winner_written_with_ichiban_in_kana_is_the_scoring():
    """Japanese trial (森の小径): 「得点がいちばん多い人の勝ちです。同点なら、…」 — the most written in kana,
    as family games write it — was not read as the winner's sentence: 得点と勝利 said 草案に記載なし."""
    draft = ("■■　森の小径　草案１\n\n■　ゲームの進行\n１：タイルを引く\n　山から引きます。\n\n"
             "■　ゲームの終了\n\n　山のタイルがなくなったら、その手番でゲームは終わりです。\n"
             "　得点がいちばん多い人の勝ちです。同点なら、トークンの多い人の勝ちです。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.end] == ["山のタイルがなくなったら、その手番でゲームは終わりです。"]
    assert [line.text for line in quick.scoring] == ["得点がいちばん多い人の勝ちです。", "同点なら、トークンの多い人の勝ちです。"]
    most = draft.replace("いちばん多い", "最多の")  # 最多 is the most as well
    quick = quick_reference(parse(most, "ja").rules, latin=False)
    assert [line.text for line in quick.scoring][0] == "得点が最多の人の勝ちです。"


def test_a_scoring_sections_first_sentence_that_only_points_at_its_table_is_left_out():
    """trial43: ■　得点計算 opens 「役と点数は以下のとおりです。」 over its table of 役: the quick reference
    printed that sentence alone, its 以下 pointing at nothing on the page. The section's next sentence
    stands for it."""
    draft = ("■■　花札合わせ　草案３\n\n■　ゲームの進行\n１：札を出す\n　手札から出します。\n\n■　得点計算\n\n"
             "　役と点数は以下のとおりです。\n\n　役　　　点数\n　五光　　１５点\n　四光　　１０点\n\n"
             "　【雨札】を含む役は、点数が１点少なくなります。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.scoring] == ["【雨札】を含む役は、点数が１点少なくなります。"]


WARGAME = ("# Ardennes 44 (Draft 1)\n\n## 3.0 Setup\n\n3.1 Place the map between the players.\n"
           "3.2 The German player sets up first.\n\n## 4.0 Sequence of Play\n\n4.1 Each turn has these phases, in this order:\n"
           "4.11 Event phase: draw one event card and apply it.\n4.12 German movement and combat.\n"
           "4.13 US movement and combat.\n\n## 5.0 Movement\n\n5.1 A unit moves up to its allowance.\n\n5.2 Stacking\n\n"
           "5.21 At most two units end a move in one hex.\n\n## 7.0 Victory\n\n"
           "7.1 The German player wins by holding every town hex at the end of turn 12.\n")


def test_a_wargames_sequence_of_play_is_its_turn_and_a_case_keeps_its_word_space():
    """trial49 (an English hex-and-counter wargame): with no numbered steps, the quick reference's turn
    was the rules' sub-headings (• 5.2 Stacking, • 6.2 Attacking), not the phases that 4.0 Sequence
    of Play numbers as its cases, the setup said 'The draft does not say.' over 3.0 Setup's cases, and
    the victory case printed as ``7.1The German player wins``."""
    quick = quick_reference(parse(WARGAME, "en").rules, latin=True)
    assert [[line.text for line in s.lines] for s in quick.setup_steps] == [[
        "3.1 Place the map between the players.", "3.2 The German player sets up first."]]
    assert [[line.text for line in s.lines] for s in quick.steps] == [[
        "4.11 Event phase: draw one event card and apply it.", "4.12 German movement and combat.",
        "4.13 US movement and combat."]]  # (not 4.1, which only announces them)
    assert [line.text for line in quick.scoring] == [
        "7.1 The German player wins by holding every town hex at the end of turn 12."]
    # without a section on the sequence, the sub-headings, as before
    other = quick_reference(parse(WARGAME.replace("Sequence of Play", "Turns"), "en").rules, latin=True)
    assert [[line.text for line in s.lines] for s in other.steps] == [["5.2 Stacking"]] and other.setup_steps == []


def test_numbered_setup_steps_alone_are_the_setups_not_the_turns():
    """A designer's trial (trial55): an English draft numbering its setup's steps and writing its turn
    as rule cases (5.1 Rounds. …) got the five setup steps under 'Turn sequence' and 'The draft does
    not say.' under 'Setup' (the docs: a setup section's numbered steps are listed with the setup)."""
    draft = ("# Skirmish (Draft 1)\n\n## Setup\n\n1. Lay the tiles together.\n2. Place the objectives.\n\n"
             "## Playing the game\n\n5.1 Rounds. The game lasts 6 rounds.\n\n5.2 Activation. A unit moves, "
             "then attacks.\n\n## End of the game\n\nThe player who holds more objectives wins.\n")
    quick = quick_reference(parse(draft, "en").rules, latin=True)
    assert [[line.text for line in s.lines] for s in quick.setup_steps] == [
        ["Lay the tiles together", "Place the objectives"]]
    assert quick.steps == []
    sequence = draft.replace("## Playing the game", "## Sequence of play")
    quick = quick_reference(parse(sequence, "en").rules, latin=True)
    assert [[line.text for line in s.lines] for s in quick.steps] == [
        ["5.1 Rounds. The game lasts 6 rounds.", "5.2 Activation. A unit moves, then attacks."]]
    assert len(quick.setup_steps) == 1


def test_a_player_count_spelt_out_is_a_setup_count():
    """A euro trial (trial70): "With five players, lay out 7 buildings …" — a player count spelt out
    as English style spells small numbers — was left out of the quick reference's setup, which read
    only digits ("With 5 players"); "Five players: 7 buildings" and "a three-player game" alike."""
    en = ("# Harbour\n\n## Setup\n\n1. Lay out 6 buildings.\n2. Take 5 coins.\n\n"
          "With five players, lay out 7 buildings instead.\n\nFive players: 7 buildings\n\n"
          "In a three-player game, remove the purple workers.\n\nThe players sit down.\n\n"
          "## Playing\n1) Move\nMove your workers.\n")
    quick = quick_reference(parse(en, "en").rules, latin=True)
    assert [line.text for line in quick.setup] == [
        "With five players, lay out 7 buildings instead.", "Five players: 7 buildings",
        "In a three-player game, remove the purple workers."], quick.setup


def test_a_setup_sentence_that_restates_its_step_is_listed_once():
    """trial80: the quick reference's setup listed 「3.3 Deal 3 action cards」 and under it the step's
    own sentence, 「Deal 3 action cards to each player.」, again; a sentence that gives what the step's
    title does not (its count, a player count) stays."""
    draft = ("# Tide\n\n## Setup\n\n1) Shuffle the cards\nShuffle the cards into a deck.\n"
             "2) Deal 3 action cards\nDeal 3 action cards to each player.\nWith 2 players, remove 1 token.\n"
             "3) Deal the hands\nDeal 2 coin cards to each player.\n\n## Playing\n1) Draw\nDraw a card.\n")
    quick = quick_reference(parse(draft, "en").rules, latin=True)
    assert [[line.text for line in s.lines] for s in quick.setup_steps] == [
        ["Shuffle the cards", "Deal 3 action cards", "Deal the hands"]]
    assert [line.text for line in quick.setup] == ["With 2 players, remove 1 token.", "Deal 2 coin cards to each player."]
    ja = ("■■　星\n\n■　ゲームの準備\n\n１：手札を３枚ずつ配る\n　各プレイヤーに手札を３枚ずつ配ります。\n"
          "２：コインを配る\n　各プレイヤーに２枚ずつ配ります。\n\n■　ゲームの進行\n\n１：引く\n　１枚引きます。\n")
    quick = quick_reference(parse(ja, "ja").rules, latin=False)
    assert [line.text for line in quick.setup] == ["各プレイヤーに２枚ずつ配ります。"]
