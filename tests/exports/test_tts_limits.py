"""A Tabletop Simulator export at the sizes its deck ids bound: a deck of more distinct cards
than one deck's ids hold goes to the table as several decks; one more than every part's ids
hold is told before any face is drawn (10,000 text cards were refused after 150 s of drawing
and converting every face)."""

from __future__ import annotations

import json
from collections import Counter

from conftest import make_workspace, run
from pnpgen.exports import export, ttsids

# ids for one part (of one sheet, SHEETS_PER_DECK patched to 1) from the base 1000: CardIDs up to this
ONE_PART = (ttsids.DECK_ID_BASE + ttsids.DECK_ID_SLOTS) * 100 + 99


def test_a_deck_past_one_decks_ids_goes_to_the_table_as_several(tmp_path, monkeypatch):
    """Two sheets' faces where a deck's ids hold one: two decks on the table side by side, named
    1/2 and 2/2, each card once at its count, every CustomDeck id and GUID its own."""
    monkeypatch.setattr(ttsids, "SHEETS_PER_DECK", 1)  # room for 69 faces a deck
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(75)])
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("{name: カード7, ", "{name: カード7, count: 3, "),
                    encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    out = root / "build" / "test" / "tabletopsimulator"
    parts = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert [p["Nickname"] for p in parts] == ["テストカード 1/2", "テストカード 2/2"]
    assert [len(p["CustomDeck"]) for p in parts] == [1, 1]
    assert [len(p["ContainedObjects"]) for p in parts] == [71, 6]  # 69 faces, カード7's 3 copies
    assert [p["Transform"]["posX"] for p in parts] == [0.0, 3.0]  # side by side
    cards = [c for p in parts for c in p["ContainedObjects"]]
    names = Counter(c["Nickname"] for c in cards)
    assert len(names) == 75 and names["カード7"] == 3 and len(cards) == 77
    assert [c["CardID"] for p in parts for c in p["ContainedObjects"]] == [i for p in parts for i in p["DeckIDs"]]
    ids = [int(k) for p in parts for k in p["CustomDeck"]]
    assert len(set(ids)) == 2 and all(c["CardID"] // 100 == int(next(iter(c["CustomDeck"]))) for c in cards)
    assert ids[1] - ids[0] == ttsids.DECK_ID_SLOTS  # the second part: its slot in the ids above the first's
    guids = [o["GUID"] for o in [*parts, *cards]]
    assert len(set(guids)) == len(guids)
    assert sorted(p.name for p in out.glob("cards-faces-*.png")) == [f"cards-faces-{n}.png" for n in (1, 2)]


def test_a_deck_past_every_parts_ids_is_told_before_any_face_is_drawn(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ttsids, "SHEETS_PER_DECK", 1)  # room for 69 faces a part
    monkeypatch.setattr(ttsids, "MAX_CARD_ID", ONE_PART)  # and one part's ids: 70 cards are one too many
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(70)])

    def drawn(*args, **kwargs):
        raise AssertionError("a face was drawn for a deck the export refuses")

    monkeypatch.setattr(export, "render_game", drawn)
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml" in err and "deck 'cards' has 70 distinct faces" in err
    assert "at most 69 a deck (1 deck on the table of 1 sheets of 69" in err and "Traceback" not in err
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
    monkeypatch.setattr(ttsids, "MAX_CARD_ID", ONE_PART)
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(60)])
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: 番号札, text: 本文, count: 12}\n", encoding="utf-8")
    front = root / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("{% endblock %}", "{{ textbox(piece.copy | string, 5, 60, 20, 8, size=8) }}{% endblock %}", 1),
                     encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    assert "deck 'cards' has 72 distinct faces" in capsys.readouterr().err


def test_every_part_a_base_allows_keeps_its_card_ids_32_bit():
    """The parts' ids: as many layers above the base as keep the highest CardID a 32-bit number,
    and not one more (21 from 1000, docs/exports.md; one from the highest --deck-id-base)."""
    from pnpgen.data.optionvalues import DECK_ID_BASE_MAX
    layer = ttsids.id_layer()
    for base in (1, ttsids.DECK_ID_BASE, 5_000_000, DECK_ID_BASE_MAX):
        parts = ttsids.most_parts(base)
        assert (base + parts * layer - 1) * 100 + 99 <= ttsids.MAX_CARD_ID < (base + (parts + 1) * layer - 1) * 100 + 99
    assert ttsids.most_parts(ttsids.DECK_ID_BASE) == 21 and ttsids.most_parts(DECK_ID_BASE_MAX) == 1
