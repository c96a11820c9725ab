"""A field holding a list told in ``pnpgen diff`` as its items added and removed, the whole list only
when short (a trial of session 47: a map's terrain list of 36 hexes, one hex edited, was quoted whole
before and after)."""

from __future__ import annotations

from pnpgen.engine import history
from pnpgen.engine.changelog import diff, markdown


def _said(old: list, new: list, lang: str = "en", pieces: int = 1) -> str:
    def deck(terrain: list) -> dict:
        labels = [f"{n}:Map{n}" for n in range(1, pieces + 1)]
        return {"name": "Maps", "count": pieces, "pieces": {label: [1, "d", "f", "b"] for label in labels},
                "values": {label: {"name": label[2:], "terrain": terrain} for label in labels},
                "pairs": [["f", "b", 1, label] for label in labels]}
    body = {"game": "g", "time": "t", "draft": "1", "hash": "h", "rulebook": {}, "lang": lang}
    return markdown(diff(history.Version(1, body | {"decks": {"maps": deck(old)}}),
                         history.Version(2, body | {"decks": {"maps": deck(new)}})))


HEXES = [f"01{n:02d} {'clear' if n % 3 else 'forest'}" for n in range(1, 37)]


def test_a_long_list_is_told_by_its_items_added_and_removed():
    new = [h.replace("0102 clear", "0102 forest") for h in HEXES] + ["0137 town"]
    said = _said(HEXES, new)
    assert "- Map1: terrain: +0102 forest, +0137 town, −0102 clear\n" in said, said
    assert "0136" not in said, said  # (not the whole list)
    ja = _said(HEXES, new, "ja")
    assert "- Map1：terrain：+0102 forest、+0137 town、−0102 clear\n" in ja, ja
    # every piece edited alike: one line, by its items too
    alike = _said(HEXES, new, pieces=4)
    assert "- all 4 pieces: terrain: +0102 forest, +0137 town, −0102 clear\n" in alike, alike


def test_a_short_list_or_one_replaced_whole_is_quoted_whole():
    assert "- Map1: terrain: “fly / swim” → “fly / climb”\n" in _said(["fly", "swim"], ["fly", "climb"])
    other = [h.replace("01", "02", 1) for h in HEXES]  # no item in common: the whole reads as well
    assert "→" in _said(HEXES, other)
    # the same items in another order: the whole says it
    assert "→" in _said(HEXES, HEXES[::-1])
