"""What a YAML file may hold: aliases may add at most 200,000 values to what is written (a
'billion laughs' file is refused at once), and a file at most 500,000 values in all. A deck of
10,000 pieces of nine fields, no alias in it (some 210,000 values, within the deck's 10,000 copies)
was refused as 'aliases expand this to more than 200,000 values'. (The limits are made small here,
so a test reads a small file.)"""

from __future__ import annotations

import pytest

from pnpgen.data import yamlsrc
from pnpgen.errors import InputError

FIELDS = "{title: t, count: 1, cost: 1, value: 2, text: x, flavour: f, footer: x, icons: [vp], art: a}"


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(yamlsrc, "MAX_VALUES", 200)
    monkeypatch.setattr(yamlsrc, "MAX_WRITTEN", 500, raising=False)  # (raising: a pnpgen before it)


def _deck(tmp_path, pieces: int, head: str = "", piece: str = FIELDS):
    path = tmp_path / "cards.yaml"
    path.write_text(head + "pieces:\n" + f"  - {piece}\n" * pieces, encoding="utf-8")
    return path


def test_a_deck_past_the_aliases_limit_without_an_alias_loads(tmp_path, small_limits):
    doc = yamlsrc.load_yaml(_deck(tmp_path, 20))  # 20 × 21 + 2 = 422 values, no alias
    assert len(doc.data["pieces"]) == 20


def test_a_file_of_more_values_than_it_may_hold_is_told_so_not_aliases(tmp_path, small_limits):
    with pytest.raises(InputError) as e:
        yamlsrc.load_yaml(_deck(tmp_path, 30))  # 632 values
    said = str(e.value)
    assert "cards.yaml:2:3" in said and "this holds more than 500 values" in said and "alias" not in said, said
    assert "at most 10,000 pieces" in said


def test_aliases_adding_more_than_their_limit_are_still_refused(tmp_path, small_limits):
    shared = "base: &b {a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n"  # 13 values, each use adds them (20 × 13 = 260)
    with pytest.raises(InputError) as e:
        yamlsrc.load_yaml(_deck(tmp_path, 20, head=shared, piece="{count: 1, x: *b}"))
    assert "aliases expand this to more than 200 values" in str(e.value)


def test_a_mistake_in_an_aliased_value_is_told_where_the_alias_is_not_at_its_anchor(tmp_path):
    """note37: ``paper: *big`` whose anchor sits on another key's value (``name: &big A2``) was
    told at line 1, where the anchor is (the document's start, the value's marks never set), not
    at paper:'s line: now at its ``*``; a merged key's at the mapping that merges it, as before."""
    from pnpgen.data.mapkeys import parse_at
    from pnpgen.data.validate import paper

    path = tmp_path / "cards.yaml"
    path.write_text("name: &big A2\nformat: poker\nbase: &b {colour: red}\npaper:   *big\n"
                    "more: {<<: *b, x: 1}\n", encoding="utf-8")
    doc = yamlsrc.load_yaml(path)
    with pytest.raises(InputError) as e:
        parse_at(doc, ("paper",), paper, doc.data["paper"])
    assert str(e.value).startswith(f"{path}:4:10: paper: unknown paper 'a2'"), str(e.value)
    assert doc.where(("more", "colour")).line == 5 and doc.where(("name",)).line == 1
