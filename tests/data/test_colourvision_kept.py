"""watch49: the colour-blind check's distances kept by their colours — every load of a game (each
save of ``pnpgen watch``) compares the same palette's pairs; the second load computes none again
and warns as the first did (data/colourvision.py)."""

from __future__ import annotations

from types import SimpleNamespace

from pnpgen.data import colourvision


def _piece(n: int, colour: str) -> SimpleNamespace:
    return SimpleNamespace(values={"colour": colour}, count=1, said=f"札{n}",
                           where_of=lambda name: f"data/test/decks/cards.yaml:{n + 1}", key_of=lambda name: name)


def test_a_second_load_compares_no_colour_again(monkeypatch):
    deck = SimpleNamespace(id="cards", pieces=[_piece(1, "#b8322c"), _piece(2, "#3d7a3a"), _piece(3, "#2a4d9b")])
    colourvision.apart.cache_clear()
    seen: list[tuple] = []
    lab = colourvision._lab
    monkeypatch.setattr(colourvision, "_lab", lambda rgb: seen.append(tuple(rgb)) or lab(rgb))
    first = colourvision.lookalikes(deck, ["colour"], {}, 16)
    assert len(first) == 1 and "#b8322c" in first[0] and "#3d7a3a" in first[0]  # trial71's red and green
    assert len(seen) == 3 * 3 * 2  # three pairs, three eyes (typical, protan, deutan), two colours each
    again = colourvision.lookalikes(deck, ["colour"], {}, 16)
    assert again == first and len(seen) == 18  # nothing computed again
