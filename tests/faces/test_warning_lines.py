"""A warning about a piece's text starts with the file and line to change, as editors and
terminals jump to it (``file:line:column: deck 'cards' piece 2 (宝) front, field 'text': …``): the
text's own line in the deck file, or the template's line when the fix is there (its box too
small, its own text); the deck and piece words follow."""

from __future__ import annotations

from conftest import DECK_YAML, make_workspace, run

LAYOUT_DECK = "name: カード\nlayout: card-poker\npieces:\n"


def _warnings(capsys, ws, what: str) -> list[str]:
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    return [line for line in capsys.readouterr().err.splitlines() if what in line]


def test_a_text_with_unpaired_markup_is_warned_at_its_line_and_column_in_the_deck_file(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=LAYOUT_DECK + "  - {title: 宝, text: 本文}\n"
                        "  - {title: 虎, text: '**強い 本文'}\n")
    [said] = _warnings(capsys, ws, "printed as written")
    assert said.startswith("pnpgen: warning: data/test/decks/cards.yaml:5:22: deck 'cards' piece 2 (虎) front, "
                           "field 'text': a '**' without its partner: printed as written"), said


def test_a_template_own_text_is_warned_at_the_templates_line(tmp_path, capsys):
    """The back's text is the template's ("B" joined to the name): its line is where to mend it."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 札 **, text: 本文}\n")
    said = _warnings(capsys, ws, "printed as written")
    assert len(said) == 2, said
    assert said[0].startswith("pnpgen: warning: data/test/decks/cards.yaml:9:12: deck 'cards' piece 1 (札 **) front, "
                              "field 'name': a '**'"), said
    assert said[1].startswith("pnpgen: warning: templates/test/card-back.svg.j2:4: deck 'cards' piece 1 "
                              "(札 **, data/test/decks/cards.yaml:9:5) back: a '**'"), said


def test_texts_overflowing_a_layouts_box_are_three_lines_at_their_lines_and_a_count(tmp_path, capsys):
    """Led by the deck file's line, a layout deck's overflowing texts are still grouped: the first
    three named, the rest counted on one line."""
    long = "とても長い題名がはみ出す" * 3
    ws = make_workspace(tmp_path / "ws", deck=LAYOUT_DECK + "".join(
        f"  - {{title: {long}{i}, text: 本文}}\n" for i in range(1, 7)))
    said = _warnings(capsys, ws, "not fit")
    assert [line.split(" front, ")[0] for line in said[:3]] == [
        f"pnpgen: warning: data/test/decks/cards.yaml:{3 + i}:13: deck 'cards' piece {i} ({long}{i})" for i in (1, 2, 3)]
    assert said[3:] == ["pnpgen: warning: deck 'cards': 3 more texts do not fit their boxes even at their smallest "
                        "size (set overflowing; pnpgen check lists each)"], said


BOARD_FRONT = """{% extends "common/piece.svg.j2" %}
{% block art %}
{{ textbox(piece.name, 5, 5, 50, 10) }}
{% for space in ["森", "石切場", "漁港", "市場", "酒場"] %}
{{ textbox(space, 5, 15 + loop.index0 * 10, 50, 8) }}
{% endfor %}
{{ textbox("Port {vp}", 5, 70, 50, 8) }}
{% endblock %}
"""


def test_japanese_a_template_writes_itself_is_warned_in_a_latin_edition_at_its_line(tmp_path, capsys):
    """The harbour trial: a board whose action spaces the template writes (「森」, 「石切場」…) printed
    them in Japanese in the English edition without a word, while every text of the data is
    translated or marked 〔ja〕. The English build warns at the template's line (the first three,
    then a count); the Japanese edition, the piece's own (translated) text and Latin text are not."""
    ws = make_workspace(tmp_path / "ws", game="title: {ja: 港, en: Harbour}\nlanguages: [ja, en]\n",
                        deck=DECK_YAML + "  - {name: {ja: 港, en: Harbour}, text: {ja: 本文, en: Text}}\n",
                        front=BOARD_FRONT)
    assert _warnings(capsys, ws, "template writes itself") == []  # the Japanese edition
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "template writes itself" in line]
    assert said == [
        "pnpgen: warning: templates/test/card-front.svg.j2:5: '森' is ja text the template writes itself, printed as "
        "written in the en edition (expected the text in the deck's data, given per language as {ja: …, en: …}, and "
        "the template reading it from the piece; or the template choosing by game.lang)",
        *[f"pnpgen: warning: templates/test/card-front.svg.j2:5: '{name}' is ja text the template writes itself, "
          "printed as written in the en edition (expected the text in the deck's data, given per language as "
          "{ja: …, en: …}, and the template reading it from the piece; or the template choosing by game.lang)"
          for name in ("石切場", "漁港")],
        "pnpgen: warning: templates/test/card-front.svg.j2: 2 more ja texts the template writes itself, printed as "
        "written in the en edition (pnpgen check --lang en lists each)"], said
    capsys.readouterr()
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    assert capsys.readouterr().out.count("template writes itself") == 5  # check lists each


def test_the_datas_japanese_in_a_latin_edition_is_not_taken_for_the_templates(tmp_path, capsys):
    """A deck left untranslated (its name, its pieces' texts, one joined to the template's "!") is
    the data's to translate, told as such: never said to be text the template writes itself."""
    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '{{ textbox(deck.name, 5, 5, 50, 10) }}{{ textbox(piece.name ~ "!", 5, 20, 50, 10) }}{% endblock %}')
    ws = make_workspace(tmp_path / "ws", game="title: {ja: 港, en: Harbour}\nlanguages: [ja, en]\n",
                        deck=DECK_YAML + "  - {name: 森, text: 本文}\n", front=front)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en") == 0
    err = capsys.readouterr().err
    assert "nothing in this file is translated into en" in err and "template writes itself" not in err, err
