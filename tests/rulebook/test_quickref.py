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
