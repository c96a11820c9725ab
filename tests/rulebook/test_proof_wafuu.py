"""A Japanese designer's 和風 set-collection draft (trial43): three kinds of note the proofing report
gave that an editor would strike, each beside the finding it still gives."""

from __future__ import annotations

from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.proofnumbers import disagreeing_numbers
from pnpgen.rulebook.proofslips import slips
from pnpgen.rulebook.proofwords import near_duplicates
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


RUBY_TABLE = ("■■　花札合わせ　草案３\n\n■　得点計算\n\n"
              "　役" + "　" * 14 + "点数　　　条件\n"
              "　｜五光《ごこう》" + "　" * 7 + "１５点　　光の札５枚\n"
              "　{猪鹿蝶|いのしかちょう}　　　 ５点　　　萩・紅葉・牡丹のタネ札\n"
              "　カス" + "　" * 13 + "１点　　　カス札１０枚\n")


def test_a_table_aligned_with_its_ruby_as_written_stays_one_table():
    """Columns lined up in the draft as the editor shows them, ruby marks and all: 五光（ごこう） is a
    cell narrower than ｜五光《ごこう》 and 猪鹿蝶（いのしかちょう） one wider than {猪鹿蝶|いのしかちょう}; the
    gaps after them take it up, so the rows stay one table (its rows broke out of it, as paragraphs)."""
    from pnpgen.rulebook.tables import column_starts
    from pnpgen.rulebook.tree import Preformatted, walk

    text, n, _ = ruby_in_parentheses(RUBY_TABLE)
    assert n == 2
    [table] = [b for b in walk(parse(text).rules[0].children) if isinstance(b, Preformatted)]
    assert [row.split()[0] for row in table.lines] == ["役", "五光（ごこう）", "猪鹿蝶（いのしかちょう）", "カス"]
    assert len({frozenset(column_starts(row)) for row in table.lines}) == 1, table.lines
    assert ruby_in_parentheses("　{五光|ごこう}は５点。")[0] == "　五光（ごこう）は５点。"  # no gap: as before


def test_a_row_too_long_for_its_table_stays_in_it():
    """A row lined up with its table but longer than the 32 full-width characters a table's row
    holds was set as a paragraph, splitting its table: it stays a row of the table (its last
    column wraps in the book, test_rulebook_notes), and the proofing report has nothing to say."""
    from pnpgen.rulebook.tree import Preformatted, walk

    long = RUBY_TABLE.replace("カス札１０枚", "カス札１０枚（以降１枚ごとに＋１点、上限なし）")
    text = ruby_in_parentheses(long)[0]
    [table] = [b for b in walk(parse(text).rules[0].children) if isinstance(b, Preformatted)]
    assert [row.split()[0] for row in table.lines][-1] == "カス"
    assert table.lines[-1].endswith("上限なし）")
