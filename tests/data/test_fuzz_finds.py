"""Issue 12: kinds of failure the long fuzz run (scripts/fuzz.py) found, one case each: exit 2,
one line naming the file (and line) and the key or template, no traceback."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, FRONT, GAME_YAML, make_workspace, run


def one_line_error(ws, capsys, *args: str) -> str:
    assert run(ws, *args) == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("front, what", [
    ('{% extends "\ncommon/piece.svg.j2" %}', "template: '\\ncommon/piece.svg.j2' (rendering deck"),  # a line break in a name
    ('{% extends "common/piece.svg.j2" %}{% block art %}{{ 1 / 0 }}{% endblock %}', "a division by zero"),
])
def test_template_message_is_one_line(tmp_path, capsys, front, what):
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=front)
    err = one_line_error(ws, capsys, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out"))
    assert "error: templates/test/card-front.svg.j2:" in err and what in err, err  # relative to the workspace


def test_piece_name_with_a_line_break_keeps_the_message_one_line(tmp_path, capsys):
    deck = DECK_YAML + '  - {name: "上\\n下", text: x}\n'
    ws = make_workspace(tmp_path / "ws", deck=deck,
                        front=FRONT.replace("{% block art %}", '{% block art %}\n<rect width="abc" height="3"/>'))
    err = one_line_error(ws, capsys, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out"))
    assert "card-front.svg.j2:3: deck 'cards' piece 1 (上 下, " in err and "width='abc'" in err, err


FIGURE = """rulebook:
  figures:
    - {after: 概要, caption: 例, size: SIZE, pieces: [{deck: DECK, piece: 1, x: X, y: 44}]}
"""


@pytest.mark.parametrize("size, deck, x, said", [
    ("[120, 100]", "[]", "30", "game.yaml:10:65: rulebook.figures.1.pieces.1.deck: no deck [] in this game (expected one of cards)"),
    ("[120, 100]", "{a: 1}", "30", "game.yaml:10:65: rulebook.figures.1.pieces.1.deck: no deck {a: 1} in this game"),
    ("[120, 100]", "card", "30", "game.yaml:10:65: rulebook.figures.1.pieces.1.deck: no deck 'card' in this game; "
                                 "did you mean cards? (expected one of cards)"),  # a game trial's mistyped deck
    ("[.nan, 100]", "cards", "30", "game.yaml:10:38: rulebook.figures.1.size.1: size nan is not a number (expected a number from 1 to 2000)"),
    ("[1.0e+300, 100]", "cards", "30", "game.yaml:10:38: rulebook.figures.1.size.1: size 1e+300 is out of range"),
    ("[120, 100]", "cards", ".inf", "game.yaml:10:85: rulebook.figures.1.pieces.1.x: x inf is infinite (or too large for any number) (expected a number from -2000 to 2000)"),
    ("[120, 100]", "cards", "'30'", "game.yaml:10:85: rulebook.figures.1.pieces.1.x: x '30' is not a number"),
])
def test_rulebook_figure_values_are_bounded(tmp_path, capsys, size, deck, x, said):
    game = GAME_YAML + FIGURE.replace("SIZE", size).replace("DECK", deck).replace("X", x)
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], game=game, draft=True)
    err = one_line_error(ws, capsys, "build", "--game", "test", "--jobs", "1", "--rules-only", "--out", str(tmp_path / "out"))
    assert said in err, err


@pytest.mark.parametrize("key, value, said", [
    ("date", "[null, 5.3e+16, {points: null}]", "game.yaml:4:7: date: date must be text, got a list"),
    ("players", "{min: 2}", "game.yaml:3:10: players: players must be text, got a mapping"),
    ("draft", "true", "game.yaml:2:8: draft: draft must be text, got true/false"),
    ("title", "'" + "長" * 201 + "'", "game.yaml:1:8: title: title is 201 characters long (expected at most 200)"),
])
def test_game_labels_are_short_text(tmp_path, capsys, key, value, said):
    lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in GAME_YAML.splitlines()]
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], game="\n".join(lines) + "\n")
    err = one_line_error(ws, capsys, "check")
    assert said in err, err


def test_a_stamp_wider_than_the_sheet_edge_still_builds(tmp_path):
    """A long game folder name makes the version stamp wider than the sheet: the scale note
    shortens to nothing instead of looping forever."""
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    slug = "a-very-long-game-folder-name-" * 5
    (ws / "data" / "test").rename(ws / "data" / slug)
    (ws / "templates" / "test").rename(ws / "templates" / slug)
    assert run(ws, "build", "--game", slug, "--no-rulebook", "--out", str(tmp_path / "out")) == 0
    assert (tmp_path / "out" / slug / "cards.pdf").is_file()
