"""A Tabletop Simulator export at the sizes its deck ids bound: a deck of more distinct cards
than its ids' sheets hold is told before any face is drawn (10,000 text cards were refused
after 150 s of drawing and converting every face)."""

from __future__ import annotations

from conftest import make_workspace, run
from pnpgen.exports import export, ttsids


def test_a_deck_past_its_sheets_is_told_before_any_face_is_drawn(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ttsids, "SHEETS_PER_DECK", 1)  # room for 69 faces: 70 cards are one too many
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(70)])

    def drawn(*args, **kwargs):
        raise AssertionError("a face was drawn for a deck the export refuses")

    monkeypatch.setattr(export, "render_game", drawn)
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml" in err and "deck 'cards' has 70 distinct faces" in err
    assert "at most 69 a deck" in err and "Traceback" not in err
    assert not (root / "build" / "test" / "tabletopsimulator").exists()


def test_a_deck_at_its_sheets_room_exports_every_card(tmp_path, monkeypatch):
    monkeypatch.setattr(ttsids, "SHEETS_PER_DECK", 1)
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(69)])
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    out = root / "build" / "test" / "tabletopsimulator"
    assert sorted(p.name for p in out.glob("cards-faces-*.png")) == ["cards-faces-1.png"]


def test_copies_that_print_apart_count_as_the_faces_they_draw(tmp_path, monkeypatch, capsys):
    """A piece whose copies print apart (its template reads ``copy``) is more faces than pieces:
    the pieces pass the first check, the faces drawn are told."""
    monkeypatch.setattr(ttsids, "SHEETS_PER_DECK", 1)
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(60)])
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: 番号札, text: 本文, count: 12}\n", encoding="utf-8")
    front = root / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("{% endblock %}", "{{ textbox(piece.copy | string, 5, 60, 20, 8, size=8) }}{% endblock %}", 1),
                     encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    assert "deck 'cards' has 72 distinct faces" in capsys.readouterr().err
