"""A sleeve that does not suit a deck's cards, told by ``pnpgen check`` as by the build (one
function, engine/paper.py ``sleeve_fit_warnings``), and a deck list's own ``sleeve:`` (a starter
deck sleeved otherwise than its card pool), as a deck file's."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run

MINI = DECK_YAML.replace("format: poker", "size: [44, 63]")


def _said(capsys) -> list[str]:
    """The sleeve warnings a command gave (check's on stdout, the build's on stderr), as said."""
    told = capsys.readouterr()
    return sorted(line.strip().removeprefix("pnpgen: warning: ").removeprefix("warning: ")
                  for line in (told.out + told.err).splitlines() if "does not suit" in line)


def test_check_tells_the_sleeves_that_do_not_suit_as_the_sleeve_build_does(tmp_path, capsys):
    """trial65/homeprintR: the sleeve-fit warning was the build's alone (check had no --sleeve),
    and a deck file's own ``sleeve:`` of another format (poker sleeves named for mini cards) was
    told by neither. ``check --sleeve 66x91`` tells what ``build --layout sleeve --sleeve 66x91``
    tells, word for word; ``check`` alone tells a deck's own sleeve:, at its line."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    decks = ws / "data" / "test" / "decks"
    (decks / "minis.yaml").write_text(MINI + "  - {name: m1, text: t}\n", encoding="utf-8")
    (decks / "owned.yaml").write_text(MINI.replace("size:", "sleeve: 66x91\nsize:") + "  - {name: o1, text: t}\n",
                                      encoding="utf-8")
    owned = ("data/test/decks/owned.yaml:2:9: sleeve: 66x91 does not suit deck 'owned': the sleeve is over 5 mm "
             "larger than its 44×63 mm cards, which would slide about in it (expected sleeve: 47x66, or the inside "
             "of the sleeves you bought for these cards, measured)")
    assert run(ws, "check", "--game", "test") == 0
    assert _said(capsys) == [owned]
    assert run(ws, "check", "--game", "test", "--sleeve", "66x91") == 0
    checked = _said(capsys)
    assert len(checked) == 2 and checked[0].startswith("data/test/decks/minis.yaml:2:7: --sleeve 66x91 does not suit "
                                                       "deck 'minis'") and checked[1] == owned, checked
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--sleeve", "66x91") == 0
    assert _said(capsys) == checked
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # a grid build makes no inserts: no word of sleeves
    assert _said(capsys) == []


def test_a_deck_list_has_a_sleeve_of_its_own_as_a_deck_file_has(tmp_path, capsys):
    """A deck list took back: and paper: of its own but not sleeve:, which (like paper:) says how
    the deck prints, not how its cards are drawn: ``a deck list takes no sleeve``. It takes one
    now, over its source deck's (which it keeps without one), and a bad one stops at its line."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "format: poker\nunique: name\n"
                                                                "sleeve: 66x91") + "  - {name: A, text: t}\n")
    decks = ws / "data" / "test" / "decks"
    (decks / "starter.yaml").write_text("name: スターター\nfrom: cards\nlist: {A: 2}\nsleeve: 67x92\n", encoding="utf-8")
    (decks / "plain.yaml").write_text("name: 素\nfrom: cards\nlist: {A: 1}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve") == 0
    records = {d["id"]: d for d in json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"]}
    assert (records["starter"]["sleeve_mm"], records["plain"]["sleeve_mm"], records["cards"]["sleeve_mm"]) == \
        ([67, 92], [66, 91], [66, 91])
    (decks / "starter.yaml").write_text("name: スターター\nfrom: cards\nlist: {A: 2}\nsleeve: 67by92\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("pnpgen: error: data/test/decks/starter.yaml:4:9: sleeve") and "66x91" in err[-1], err


def test_a_sleeve_is_loose_only_when_more_than_5_mm_larger(tmp_path, capsys):
    """The edge of ``LOOSE_MM`` (impose/sleeve.py): a poker card (63×88) in a 68×93 sleeve, 5 mm
    larger each way, is not told; in a 69×94 one, 6 mm larger, it is told it would slide about."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    decks = ws / "data" / "test" / "decks"
    for sleeve, said in (("68x93", []), ("69x94", ["sleeve: 69x94 does not suit deck 'owned'"])):
        (decks / "owned.yaml").write_text(DECK_YAML.replace("format: poker", f"format: poker\nsleeve: {sleeve}")
                                          + "  - {name: o1, text: t}\n", encoding="utf-8")
        assert run(ws, "check", "--game", "test") == 0
        told = _said(capsys)
        assert [s.split(": ", 1)[1].split(": the", 1)[0] for s in told] == said, told
        assert all("over 5 mm larger than its 63×88 mm cards" in s for s in told)
