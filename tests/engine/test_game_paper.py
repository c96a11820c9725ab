"""game.yaml's ``paper:``: a Letter game need not say --paper letter on every build."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from conftest import FEW_CARDS, make_workspace, run
from pnpgen.units import MM_PER_PT


def _page_mm(pdf) -> tuple[float, float]:
    box = PdfReader(pdf).pages[0].mediabox
    return round(float(box.width) * MM_PER_PT, 1), round(float(box.height) * MM_PER_PT, 1)


def _letter_game(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "paper: Letter\n", encoding="utf-8")
    return ws


def test_game_yaml_paper_sets_the_home_sheets_and_paper_given_wins(tmp_path):
    ws = _letter_game(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    assert _page_mm(ws / "build" / "test" / "cards.pdf") == (215.9, 279.4)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q", "--paper", "a4") == 0  # not "up to date"
    assert _page_mm(ws / "build" / "test" / "cards.pdf") == (210.0, 297.0)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    assert _page_mm(ws / "build" / "test" / "cards.pdf") == (215.9, 279.4)


@pytest.mark.parametrize("command", ["check", "build"])
def test_an_unknown_paper_names_its_line(tmp_path, capsys, command):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game = ws / "data" / "test" / "game.yaml"
    lines = len(game.read_text(encoding="utf-8").splitlines())
    game.write_text(game.read_text(encoding="utf-8") + "paper: b5\n", encoding="utf-8")
    assert run(ws, command, "--game", "test") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert f"game.yaml:{lines + 1}:8: paper: unknown paper 'b5'" in err and "a3, a4, ledger, legal, letter, tabloid" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("written, meant", [("8.5x11", "letter"), ('"8.5 x 11 in"', "letter"), ("210×297", "a4"),
                                            ("11 by 8.5", "letter"), ('"29.7 x 42 cm"', "a3")])
def test_a_paper_written_by_its_size_is_told_its_name(tmp_path, capsys, written, meant):
    """American trial: ``paper: 8.5x11`` (and ``--paper 8.5x11``, a printer profile's paper) said
    only the three names; a paper of a size pnpgen knows is told that paper's name."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game = ws / "data" / "test" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text + f"paper: {written}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "paper: unknown paper" in err and f"did you mean {meant}?" in err and "Traceback" not in err, err
    game.write_text(text, encoding="utf-8")
    (ws / "printers.yaml").write_text(f"home:\n  paper: {written}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--printer", "home") == 2
    err = capsys.readouterr().err
    assert "printers.yaml:2" in err and f"did you mean {meant}?" in err, err
    with pytest.raises(SystemExit) as e:
        run(ws, "build", "--game", "test", "--paper", written.strip('"'))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--paper" in err and f"did you mean {meant}?" in err, err


def test_a_mapping_where_a_paper_goes_is_said_as_the_yaml_written(tmp_path, capsys):
    """``paper: {w: 0}`` was said as Python writes a dict, ``unknown paper "{'w': 0}"`` (fixesQ):
    it is said as written, as a mapping where a name goes, with the names that would be right;
    so in a deck file, and a printer profile's paper and scale, and a game's latin_gap."""
    from pnpgen.data.validate import show

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game, deck = ws / "data" / "test" / "game.yaml", ws / "data" / "test" / "decks" / "cards.yaml"
    text, cards = game.read_text(encoding="utf-8"), deck.read_text(encoding="utf-8")
    expected = "is a mapping, not a name (expected one of a3, a4, ledger, legal, letter, tabloid)"
    for where, written, said in ((game, text + "paper: {w: 0}\n", f"paper: paper {{w: 0}} {expected}"),
                                 (deck, "paper: {w: 0}\n" + cards, f"paper: paper {{w: 0}} {expected}"),
                                 (game, text.replace("latin_gap: 0", "latin_gap: {a: 1}"), "latin_gap {a: 1} is not a number")):
        where.write_text(written, encoding="utf-8")
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
        err = capsys.readouterr().err
        assert said in err, err
        assert "'" not in err.split(": ", 3)[-1].split("(expected")[0], err
        game.write_text(text, encoding="utf-8")
        deck.write_text(cards, encoding="utf-8")
    for profile, said in (("{paper: {w: 0}}", "home.paper: {w: 0} is not a paper size"),
                          ("{scale: {x: 1}}", "home.scale: {x: 1} is not a valid scale")):
        (ws / "printers.yaml").write_text(f"home: {profile}\n", encoding="utf-8")
        assert run(ws, "build", "--game", "test", "--printer", "home") == 2
        assert said in capsys.readouterr().err
    assert [show(v) for v in ({"k": "two words", "n": "3", "t": "true", "c": "a: b"}, ["a4", None, True])] == [
        "{k: two words, n: '3', t: 'true', c: 'a: b'}", "[a4, null, true]"]


def test_a_paper_of_no_size_pnpgen_knows_gets_no_size_hint(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "paper: 9x12\n", encoding="utf-8")  # (Arch A)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "unknown paper '9x12'" in err and "did you mean" not in err, err


@pytest.mark.parametrize("paper, size", [("legal", (215.9, 355.6)), ("Tabloid", (279.4, 431.8)),
                                         ("ledger", (279.4, 431.8))])
def test_us_legal_and_tabloid_are_papers_with_the_letter_booklet(tmp_path, paper, size):
    """US designers print on Legal (8.5×14 in) and Tabloid/Ledger (11×17 in): they were only
    "unknown paper". Their home sheets are that paper; the rulebook's booklet is the Letter one
    (as A3 gets the A4 booklet), and so says the bill of materials."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + f"paper: {paper}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "-q", "--jobs", "1") == 0
    out = ws / "build" / "test"
    assert _page_mm(out / "cards.pdf") == size
    assert _page_mm(out / "rulebook-booklet.pdf") == (279.4, 215.9)
    bom = __import__("json").loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]
    assert bom["rulebook"]["booklet_paper"] == "letter"
    assert run(ws, "build", "--game", "test", "-q", "--jobs", "1", "--no-rulebook", "--paper", "a4") == 0
    assert _page_mm(out / "cards.pdf") == (210.0, 297.0)
