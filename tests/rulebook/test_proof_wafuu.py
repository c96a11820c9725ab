"""A Japanese designer's 和風 set-collection draft (trial43): three kinds of note the proofing report
gave that an editor would strike, each beside the finding it still gives."""

from __future__ import annotations

from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.proof import disagreeing_numbers, near_duplicates, slips
from pnpgen.rulebook.reader import ruby_in_parentheses

TABLE = ("■■　花札合わせ　草案３\n\n■　得点計算\n\n　役と点数は以下のとおりです。\n\n"
         "　役　　　　　　点数　　条件\n　五光（ごこう）　１５点　　光の札５枚を集める\n　四光（しこう）　１０点　　光の札４枚を集める\n\n"
         "　光の札を５枚集めると１５点を得ます。\n　光の札を５枚集めると１０点を得ます。\n")


def test_two_rows_of_a_scoring_table_are_no_rule_stated_twice():
    """「数の不一致　１５点／１０点、５枚／４枚」 for 五光 and 四光, two rows of one table: each row
    states its own numbers. Two sentences of the text alike but for a number still are a finding."""
    found = disagreeing_numbers(parse(TABLE), TABLE, "draft.txt", "ja")
    assert [f.file.split("：")[0] for f in found] == ["draft.txt:11: １５点／１０点"], found


def test_two_character_terms_one_character_apart_are_two_words():
    """【雨札】【場札】【山札】, a card game's glossary, were three 表記ゆれ notes; a longer term
    one character off (【創生エリア】 / 【創世エリア】) still is one."""
    draft = ("■■　花札合わせ　草案３\n\n■　用語集\n\n　【場札】：場の札。\n　【山札】：裏向きの札。\n"
             "　【雨札】：柳の札。\n　【創生エリア】に置きます。\n　【創世エリア】に置きます。\n")
    assert [f.subject for f in near_duplicates(parse(draft), draft, "draft.txt", "ja")] == [("創世エリア", "創生エリア")]


def test_a_reading_in_parentheses_is_no_second_spelling_of_its_word():
    """{月見酒|つきみざけ} prints 月見酒（つきみざけ）: its reading was a 表記ゆれ 「月見」→「つきみ」. つきみ
    written in the text beside 月見 twice still is one."""
    draft, _, _ = ruby_in_parentheses("■■　花札合わせ　草案３\n\n■　得点計算\n\n"
                                      "　{月見酒|つきみざけ}は５点です。\n　月見をします。\n")
    assert [f.file for f in slips(parse(draft), draft, "draft.txt", "ja") if "表記ゆれ" in f.file] == []
    assert [f.subject for f in slips(parse(draft), draft + "　つきみをします。\n　月見は秋です。\n", "draft.txt", "ja")
            if "表記ゆれ" in f.file] == [("つきみ",)]
