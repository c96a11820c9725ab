"""Hyphenation points are looked up only when a line cannot break at a phrase or character
break: text whose lines break at spaces, phrases or between Japanese characters never loads the
hyphenation dictionary (pyphen, ~50 ms), and the lines are what the full break classes set."""

from __future__ import annotations

import unicodedata

import pytest

from pnpgen.rulebook.paralines import set_lines
from pnpgen.text import break_lines, linebreak


def em(s: str) -> float:
    return sum(1.0 if unicodedata.east_asian_width(c) in "WFA" else 0.5 for c in s)


def with_all_classes(text: str, width: float) -> list[str]:
    """The lines ``fill`` sets from the full break classes (hyphenation points included)."""
    out: list[str] = []
    for para in text.split("\n") if text else []:
        units = list(para)
        classes = linebreak.break_classes(units, lang="en")
        ranges = linebreak.fill(classes, [em(c) for c in units], [u in linebreak.SPACES for u in units], width,
                                [em("-")] * (len(units) + 1))
        out += [para[s:e].rstrip(" ") + ("-" if linebreak.hyphenated(classes, e, len(units)) else "")
                for s, e in ranges]
    return out


def test_lines_that_break_at_spaces_load_no_hyphenation_dictionary():
    linebreak._dictionary.cache_clear()
    assert break_lines("各色１２個。代用トークンは decks/worker.yaml", 12, em, lang="en") \
        == ["各色１２個。", "代用トークンは", "decks/worker.yaml"]
    assert linebreak._dictionary.cache_info().currsize == 0
    assert break_lines("hyphenation", 3, em, lang="en") == ["hy-", "phena-", "tion"]  # no other break
    assert linebreak._dictionary.cache_info().currsize == 1


def test_a_japanese_rulebook_paragraph_loads_no_hyphenation_dictionary():
    linebreak._dictionary.cache_clear()
    text = "手番では worker を１つ置き、カードを引きます。"
    lines = set_lines(text, 8.0, em)
    assert [text[s:e] for s, e in lines] == ["手番では worker ", "を１つ置き、カー", "ドを引きます。"]
    assert linebreak._dictionary.cache_info().currsize == 0


@pytest.mark.parametrize("text", ["数字カード (numbers)", "Counter-intelligence agents  ", "", "はじまり\n\nabc def",
                                  "カードを1枚引く。", "   ", "extraordinarily", "1VP2VP3VPhyphenation"])
@pytest.mark.parametrize("width", [0.5, 3, 4.5, 7.5, 10, 12.25, 40])
def test_lines_are_those_of_the_full_break_classes(text, width):
    assert break_lines(text, width, em, lang="en") == with_all_classes(text, width)
