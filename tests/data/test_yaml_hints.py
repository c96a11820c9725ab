"""A YAML syntax error says, in the designer's words, what is wrong and what to write, on the
line holding the mistake: markup written without quotes (found by a designer building a game
from the docs alone), a ': ' inside text, tabs, indentation, unclosed brackets and quotes."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, GAME_YAML, make_workspace, run

FIELDS = DECK_YAML.replace("  text: text\n", "  text: text\n  effect: text\n")

CASES = {
    # markup in a {…} piece: PyYAML said "expected alphabetic or numeric character, but found '*'"
    "bold and icon in flow": ("  - {name: 魚, effect: 港で売ると**2{vp}**を得る。}\n",
                              "cards.yaml:10:23: effect: ", "inside a {…} piece",
                              'effect: "港で売ると**2{vp}**を得る。"'),
    "colour at start in flow": ("  - {name: 香辛料, effect: [coral]高値[/coral]で売れる。, count: 3}\n",
                                "cards.yaml:10:25: effect: ", "'[' at its start as the start of a list",
                                'effect: "[coral]高値[/coral]で売れる。"'),
    # block style: PyYAML said "expected <block end>, but found '<scalar>'"
    "colour at start": ("  - name: 香辛料\n    effect: [red]高値[/red]で売れる。\n",
                        "cards.yaml:11:13: effect: ", "'[' at its start", 'effect: "[red]高値[/red]で売れる。"'),
    "icon at start": ("  - name: 魚\n    effect: {vp}を得る\n",
                      "cards.yaml:11:13: effect: ", "'{' at its start as the start of a mapping",
                      'effect: "{vp}を得る"'),
    "bold at start": ("  - name: 魚\n    effect: **2{vp}**を得る。\n",
                      "cards.yaml:11:13: effect: ", "'*' at its start", 'effect: "**2{vp}**を得る。"'),
    "escape keeps its backslash": ("  - name: 魚\n    effect: [\\*]は星\n",
                                   "cards.yaml:11:13: effect: ", "'[' at its start", "effect: '[\\*]は星'"),
    "colon in text": ("  - name: 魚\n    effect: 注意: 高い\n",
                      "cards.yaml:11:13: effect: ", "the ': ' in it", 'effect: "注意: 高い"'),
    # a ',' left out before a key of the piece (trial20: following "the text in quotes" printed
    # effect '5 count: 10' on one copy)
    "comma left out before a key": ("  - {name: 魚, effect: 5 count: 10}\n",
                                    "cards.yaml:10:23: effect: ", "a ',' is missing before count:",
                                    'effect: 5, count: 10; or, when all of it is the text of effect, the text in '
                                    'quotes: effect: "5 count: 10"'),
    # hostile49: an alias naming no anchor was told to be put in quotes, a merge's <<: [*base] too
    "merge of no anchor": ("  - name: 魚\n  - <<: [*base]\n    name: 肉\n", "cards.yaml:11:10: <<: ",
                           "*base copies an anchor, but no anchor &base is set above it",
                           "&base on the mapping to copy, above this line (- &base {cost: 1, kind: 攻撃}, then - <<: *base))"),
    "merge before its anchor": ("  - <<: *base\n    name: 肉\n  - &base\n    name: 魚\n", "cards.yaml:10:9: <<: ",
                                "*base copies an anchor, but its anchor &base is set on line 12, below it", "- <<: *base))"),
    "alias that was text": ("  - name: 魚\n    effect: *star\n", "cards.yaml:11:13: effect: ",
                            "*star copies an anchor, but no anchor &star is set above it",
                            'or, if \'*star\' is text, in quotes: effect: "*star"'),
    "comma left out before a field": ("  - {effect: 港 name: 魚}\n", "cards.yaml:10:14: effect: ",
                                      "a ',' is missing before name:", "effect: 港, name: 魚"),
    # a word that is no key of the file: the text goes in quotes
    "colon in text in a flow piece": ("  - {name: 魚, effect: 港で 注意: 高い}\n", "cards.yaml:10:23: effect: ",
                                      "the ': ' in it", 'effect: "港で 注意: 高い"'),
    "comma in a flow piece": ("  - {name: 魚, effect: 港, 海}\n",
                              "cards.yaml:10:26: pieces.1.海: ", "ended the text of 'effect'",
                              'effect: "港, 海"'),
    "tag-like text": ("  - name: 魚\n    effect: !important 高い\n",
                      "cards.yaml:11:13: pieces.1.effect: ", "'!important' is not allowed",
                      'effect: "!important 高い"'),
    "tag-like Japanese text": ("  - name: 魚\n    effect: !注意 高い\n",
                               "cards.yaml:11:13: effect: ", "'!' at its start as a tag", 'effect: "!注意 高い"'),
    "tab": ("  - name: 魚\n\teffect: x\n", "cards.yaml:11:1: ", "a tab character", "spaces instead of the tab"),
    # what a Japanese input method types in YAML's place
    "full-width space indenting an entry": ("  - name: 魚\n  　- name: 鳥\n", "cards.yaml:11:3: ",
                                            "a full-width space (全角スペース) in the indentation",
                                            "half-width spaces instead of the full-width one"),
    "full-width space before a key": ("  - name: 魚\n　- name: 鳥\n", "cards.yaml:11:1: ",
                                      "starts with a full-width space (全角スペース)", "half-width spaces"),
    # a key typed with the input method still in 全角: no near miss for difflib, said as such
    "full-width letters in a key": ("  - name: 魚\n    ｃｏｕｎｔ: 2\n", "cards.yaml:11:5: pieces.1.ｃｏｕｎｔ: ",
                                    "'ｃｏｕｎｔ' is typed in full-width letters (全角)",
                                    "(expected count, typed in half-width letters (半角))"),
    # hostile39: a space at a key's end, in quotes or a 全角スペース, was said to be typed in full-width letters
    "a space at a quoted key's end": ('  - name: 魚\n    "count ": 2\n', 'cards.yaml:11:5: pieces.1.count : ',
                                      "'count ' has a space at its end, which is kept as part of the key",
                                      "(expected count, without the space)"),
    "a full-width space at a key's end": ("  - name: 魚\n    count\u3000: 2\n", "cards.yaml:11:5: ",
                                          "has a full-width space (全角スペース) at its end", "(expected count, without"),
    "full-width colon after a key": ("  - name: 魚\n    count：2\n    effect: x\n", "cards.yaml:11:10: count: ",
                                     "a full-width '：' after the key", "(expected count: 2)"),
    "a paragraph's full-width indent in a block text is text": (
        "  - name: 魚\n    effect: |\n      　港で売る。\n    count x\n    mood: y\n", "cards.yaml:13:5: ",
        "no ':' after its key", "'key: value'"),
    "under-indented key": ("  - name: 魚\n  effect: x\n", "cards.yaml:11:3: ",
                           "does not line up with the lines above it", "on this line or the one above"),
    # PyYAML names line 12; the key that lost its indentation is on line 11
    "under-indented key read as text": ("  - name: 魚\neffect: x\n  - name: 鳥\n", "cards.yaml:12:3: ",
                                        "more of the text above", "on this line or the one above"),
    "over-indented key": ("  - name: 魚\n      effect: x\n", "cards.yaml:11:7: ",
                          "more of the text above", "the keys of one mapping"),
    # PyYAML names the line after the one missing its ':'
    "missing colon": ("  - name: 魚\n    effect x\n    count: 2\n", "cards.yaml:11:5: ",
                      "no ':' after its key", "'key: value'"),
    "unclosed piece": ("  - {name: 魚, effect: x\n  - {name: 鳥}\n", "cards.yaml:10:5: ",
                       "the {…} opened here is not closed", "a '}' at the end of line 10"),
    # trial77: a piece's quote left open was told its '}' was missing, the '}' there at its end
    "unclosed quote in a piece": ('  - {name: "魚, effect: x}\n  - {name: "鳥"}\n', "cards.yaml:10:12: ",
                                  "the quote opened here is not closed on its line, so the '}' after it is read as",
                                  "the same quote mark, \", at the end of the text, before the ',' or '}'"),
    "unclosed quote in a piece's list": ("  - {name: 魚, icons: [a, 'b, c]}\n  - {name: '鳥'}\n", "cards.yaml:10:26: ",
                                         "the quote opened here is not closed on its line, so the ']' after it",
                                         "the same quote mark, ', at the end"),
    "unclosed quote": ('  - name: "魚\n  - name: 鳥\n', "cards.yaml:10:11: ",
                       "the quote opened here is never closed", "quote mark"),
    "dash without space": ("  -name: 魚\n  - name: 鳥\n", "cards.yaml:10:3: ",
                           "needs a space after it", "- name: 魚"),
    # valid YAML that drops text: '&x' is read as an anchor nothing uses
    "ampersand at start": ("  - name: 魚\n    effect: &x 港で売る\n", "cards.yaml:11:13: ",
                           "reads '&x' as an anchor name", 'effect: "&x 港で売る"'),
    "ampersand in a flow piece": ("  - {name: &A 鮫, effect: x}\n", "cards.yaml:10:12: ",
                                  "reads '&A' as an anchor name", 'name: "&A 鮫"'),
    # a bracket never closed, or closed by the other kind (PyYAML: "expected the node content, but
    # found '<stream end>'", "expected ',' or ']', but got '}'")
    "list never closed": ("  - {name: 魚, effect: [\n", "cards.yaml:10:23: ", "the […] opened here is never closed",
                          "a ']' after its last entry"),
    "list closed by a brace": ("  - {name: 魚, effect: [a, b}\n  - {name: 鳥}\n", "cards.yaml:10:23: ",
                               "the […] opened here is closed by a '}'", "a ']' to close it first"),
    "piece never closed": ('  - {name: 魚, effect: "a [b"\n', "cards.yaml:10:5: ", "the {…} opened here is never closed",
                           "a '}' after its last entry"),
    # valid YAML that drops a colour: ' #' starts a comment, the value is empty (a designer's deck
    # printed without its colours, and check said nothing)
    "hex colour unquoted": ("  - name: 魚\n    effect: #d0584a\n", "cards.yaml:11:13: pieces.1.effect: ",
                            "reads '#d0584a' as a comment", 'effect: "#d0584a"'),
    "short hex colour unquoted, spaces after": ("  - name: 魚\n    effect: #fff   \n", "cards.yaml:11:13: ",
                                                "reads '#fff' as a comment", 'effect: "#fff"'),
    # valid YAML that cuts a text short: a hashtag or a number after ' #' (an English party game's
    # "Name 3 things #winning" printed "Name 3 things", and check said nothing)
    "hashtag after a text": ("  - name: 魚\n    effect: Name 3 things #winning\n", "cards.yaml:11:27: pieces.1.effect: ",
                             "reads '#winning' as a comment", 'effect: "Name 3 things #winning"'),
    "number after a name": ("  - name: Prompt #1\n", "cards.yaml:10:18: pieces.1.name: ",
                            "so the text stops at 'Prompt'", 'name: "Prompt #1", or a space after the'),
    # an English text starting with an apostrophe: YAML opens a single quote there
    "apostrophe at the start": ("  - name: 魚\n    effect: 'Tis the season\n", "cards.yaml:11:13: ",
                                "the quote opened here is never closed",
                                "a text starting with an apostrophe goes in quotes of the other kind: "
                                "effect: \"'Tis the season\""),
    # in a {…} piece the comment eats its '}': PyYAML named the next line, "expected the node
    # content, but found '-'" (a designer's `mood: #777777`, though the docs said an error says so)
    "hex colour unquoted in a flow piece": ("  - {name: 魚, effect: #777777, count: 3}\n  - {name: 鳥}\n",
                                            "cards.yaml:10:23: effect: ", "the rest of the line as a comment",
                                            'effect: "#777777"'),
    "hex colour unquoted in the last flow piece": ("  - {name: 魚, effect: #777777}\n",
                                                   "cards.yaml:10:23: effect: ", "the rest of the line as a comment",
                                                   'effect: "#777777"'),
    # two decks pasted into one file: it said "YAML syntax error: but found another document"
    "a second document": ("  - {name: 魚}\n---\nname: 別の札\n", "cards.yaml:11:1: ",
                          "a second YAML document starts here; a file holds one",
                          "this '---' line and what follows deleted, or moved to a file of its own"),
    # YAML's end-of-document marker with more below it: PyYAML's "expected '<document start>'"
    "text after a '...' end": ("  - {name: 魚}\n...\n  - {name: 鳥}\n", "cards.yaml:11:1: ",
                               "this '...' line ends the YAML document, yet line 12 follows it",
                               "this line deleted if what follows belongs to the file"),
}


def test_a_comment_after_an_empty_value_is_still_a_comment(tmp_path, capsys):
    """Only a hex colour alone after the key is taken for a lost value: a note is a note."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS + "  - name: 魚\n    effect:   # 未定: 後で書く\n"
                        "  - name: 鳥   # #fff の札\n  - name: 亀  #\n  - name: 鶴 ## 後で\n")
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


@pytest.mark.parametrize("case", sorted(CASES))
def test_yaml_mistake_says_what_to_write(tmp_path, capsys, case):
    pieces, where, what, expected = CASES[case]
    ws = make_workspace(tmp_path / "ws", deck=FIELDS + pieces)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert where in err and what in err and expected in err, err
    for jargon in ("<block end>", "<scalar>", "mapping values are not allowed", "alphabetic or numeric",
                   "cannot start any token"):
        assert jargon not in err, err


def test_the_quoted_text_the_hint_gives_loads_as_written(tmp_path, capsys):
    """Writing what the hint says makes the deck load with the text intact."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS + "  - {name: 魚, effect: 港で売ると**2{vp}**を得る。}\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    fixed = err[err.index("effect: \"", err.index("expected")):].rstrip(")\n")
    ws2 = make_workspace(tmp_path / "ws2", deck=FIELDS + "  - {name: 魚, " + fixed + "}\n")
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace

    assert load_game(Workspace(ws2), "test").decks[0].pieces[0].values["effect"] == "港で売ると**2{vp}**を得る。"


def test_a_comma_in_a_text_by_language_is_told_the_text_in_quotes(tmp_path, capsys):
    """trial82: ``text: {ja: 置く。, en: Place them on the wharf, market and shipyard.}`` — YAML ends the
    English text at ', ' and reads ``market and shipyard.`` as a key with no value; the error was
    "{ja: …, en: Place them on t... is not a valid text (expected text)". It names the key at its
    line and column, what the comma did, and the text in quotes to write; so written, the deck loads."""
    game = "languages: [ja, en]\n" + GAME_YAML
    piece = "  - {name: 港, text: {ja: 置く。, en: Place them on the wharf, market and shipyard.}}\n"
    ws = make_workspace(tmp_path / "a", deck=FIELDS + piece, game=game)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:10:60: pieces.1.text.market and shipyard.: 'market and shipyard.' is not one of the game's " \
           "languages: the ', ' before it ended the text of 'en' (expected the text in quotes: " \
           "en: \"Place them on the wharf, market and shipyard.\")" in err, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    fixed = piece.replace("en: Place them on the wharf, market and shipyard.",
                          'en: "Place them on the wharf, market and shipyard."')
    ws = make_workspace(tmp_path / "b", deck=FIELDS + fixed, game=game)
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0, capsys.readouterr().err
