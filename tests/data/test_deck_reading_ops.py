"""Issue 22: reading a deck costs in proportion to its size, and each piece's values are looked up
where they are only when a message or the proof's open list needs the place. Operations are
counted, nothing is timed: ``Located.where`` (a Where made for a place in the file) and the
translation checks, for a deck of N illustrated cards and of 2N; and the open values are still
told at their own lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, make_workspace
from pnpgen.data.i18n import Translations
from pnpgen.data.load import load_game
from pnpgen.data.model import EMPTY_SHOWN, NO_ART_YET
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import Located


def workspace(root: Path, n: int) -> Workspace:
    pieces = "".join(f"  - {{name: 札{i}, art: a{i % 3}.png}}\n" for i in range(1, n + 1))
    ws = make_workspace(root, deck=PICTURE_DECK_YAML + pieces)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(3):
        Image.new("RGB", (40, 30), (60 * i, 90, 200)).save(ws / "data" / "test" / "art" / f"a{i}.png")
    return Workspace(ws)


@pytest.fixture
def ops(monkeypatch) -> dict[str, int]:
    seen = {"where": 0, "translation": 0}
    where, is_translation = Located.where, Translations._is_translation

    def counted_where(self, keypath, key=False):
        seen["where"] += 1
        return where(self, keypath, key)

    def counted_translation(self, value):
        seen["translation"] += 1
        return is_translation(self, value)
    monkeypatch.setattr(Located, "where", counted_where)
    monkeypatch.setattr(Translations, "_is_translation", counted_translation)
    return seen


def test_a_deck_of_2n_pieces_makes_one_place_a_piece_more_than_one_of_n(tmp_path, ops):
    counts = {}
    for n in (12, 24):
        ws = workspace(tmp_path / str(n), n)
        ops.update(where=0, translation=0)
        game = load_game(ws, "test")
        assert [p.values["name"] for p in game.decks[0].pieces] == [f"札{i}" for i in range(1, n + 1)]
        counts[n] = dict(ops)
    # a piece's own place (Piece.where), nothing for each of its values (the forty-second session's
    # tree: 9 a piece of two fields — 2 a value for the open list, 1 a field line, 1 for its text's
    # plain-Japanese check, 1 for its picture's translation marker); one translation check a piece,
    # none a value (was 3 a piece)
    assert counts[24]["where"] - counts[12]["where"] == 12
    assert counts[24]["translation"] - counts[12]["translation"] == 12


def test_open_values_are_told_at_their_own_lines_and_fields_at_theirs(tmp_path):
    ws = make_workspace(tmp_path, deck=PICTURE_DECK_YAML.replace("fields: {name: text, art: image}",
                                                                  "fields: {name: text, art: image, cost: int, tags: list}") + (
        "  - {name: 札1, art: '', cost: 1}\n"
        "  - name: 未定 (名前)\n"
        "    art: ''\n"
        "    cost: 2\n"
        "    tags: [炎, 未定]\n"
        "  - {name: '', art: '', cost: 3}\n"))
    game = load_game(Workspace(ws), "test")
    one, two, three = game.decks[0].pieces
    said = {p.index: [(w.line, w.column, field, text) for w, field, text in p.open] for p in (one, two, three)}
    assert said[1] == [(7, 21, "札1.art", NO_ART_YET)]
    assert said[2] == [(8, 11, "#2.name", "未定 (名前)"), (9, 10, "#2.art", NO_ART_YET), (11, 11, "#2.tags.2", "未定")]
    assert said[3] == [(12, 21, "#3.art", NO_ART_YET)]
    assert two.field_lines == {"name": (8, 11), "art": (9, 10), "cost": (10, 11), "tags": (11, 11)}
    assert two.where_of("cost").line == 10 and two.where.line == 8


def test_a_layouts_empty_shown_fields_are_told_at_their_cells_or_the_piece(tmp_path):
    """(As main's tree told them before the places were looked up only for open values.)"""
    ws = make_workspace(tmp_path, deck="name: 札\nlayout: card-poker\npieces:\n  - {title: 札1, text: 引く}\n"
                                       "  - {title: '', text: 未定 効果}\n  - title: 札3\n")
    game = load_game(Workspace(ws), "test")
    said = [[(w.line, w.column, field, text) for w, field, text in p.open] for p in game.decks[0].pieces]
    assert said == [[(4, 5, "札1.art", NO_ART_YET)],
                    [(5, 13, "#2.title", EMPTY_SHOWN), (5, 5, "#2.art", NO_ART_YET), (5, 23, "#2.text", "未定 効果")],
                    [(6, 5, "札3.art", NO_ART_YET), (6, 5, "札3.text", EMPTY_SHOWN)]]
    assert [p.field_lines for p in game.decks[0].pieces] == [{"title": (4, 13), "text": (4, 23)},
                                                            {"title": (5, 13), "text": (5, 23)}, {"title": (6, 12)}]
