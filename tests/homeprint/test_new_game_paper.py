"""An American designer's first game (trial84): ``pnpgen new --lang en`` wrote ``paper: letter``
only as a comment and said nothing of it, so the first build printed A4 sheets that a Letter
printer crops at the foot or shrinks to 94 % — every card the wrong size. ``--paper letter``
writes the paper; without it an English game is told, once, where to write it."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from conftest import run

MM = 25.4 / 72


def _page_mm(pdf) -> tuple[float, float]:
    box = PdfReader(pdf).pages[0].mediabox
    return round(float(box.width) * MM, 1), round(float(box.height) * MM, 1)


def test_new_with_paper_letter_builds_letter_sheets_and_a_letter_booklet(tmp_path, capsys):
    folder = tmp_path / "lanternfall"
    folder.mkdir()
    assert run(folder, "new", "lanternfall", "--lang", "en", "--paper", "Letter", "--kind", "cards") == 0
    out = capsys.readouterr().out
    assert "uncomment paper: letter" not in out  # written, not offered
    game = (folder / "data" / "lanternfall" / "game.yaml").read_text(encoding="utf-8")
    assert [line.split("#")[0].strip() for line in game.splitlines() if line.startswith("paper:")] == ["paper: letter"]
    assert run(folder, "build", "--game", "lanternfall", "--jobs", "1") == 0
    build = folder / "build" / "lanternfall"
    assert _page_mm(build / "cards.pdf") == (215.9, 279.4)
    assert _page_mm(build / "rulebook-booklet.pdf") == (279.4, 215.9)  # the booklet on Letter too


def test_new_in_english_without_paper_says_where_letter_is_written(tmp_path, capsys):
    folder = tmp_path / "party"
    folder.mkdir()
    assert run(folder, "new", "party", "--lang", "en") == 0
    out = capsys.readouterr().out
    assert "its home sheets are A4: for US Letter, uncomment paper: letter in data/party/game.yaml" in out
    game = (folder / "data" / "party" / "game.yaml").read_text(encoding="utf-8")
    assert "# paper: letter" in game and "\npaper:" not in game
    assert run(folder, "new", "jeu", "--paper", "a4") == 0  # a Japanese game given its paper: no note
    out = capsys.readouterr().out
    assert "US Letter" not in out
    assert "\npaper: a4 " in (folder / "data" / "jeu" / "game.yaml").read_text(encoding="utf-8")


def test_new_with_a_paper_that_is_none_is_told_the_papers(tmp_path, capsys):
    folder = tmp_path / "x"
    folder.mkdir()
    with pytest.raises(SystemExit) as e:
        run(folder, "new", "x", "--lang", "en", "--paper", "us-letter")
    assert e.value.code == 2
    assert "did you mean letter?" in capsys.readouterr().err
    assert not (folder / "data").exists()


def test_a_slip_in_new_s_options_is_told_the_one_it_is_near_and_no_other(tmp_path, capsys):
    """``--paper`` among new's options: ``--papr`` is told it, ``--gmae`` (as near ``--paper`` as
    difflib asks, counting the dashes) is told none — new has no --game."""
    for typed, said in (("--papr", "; did you mean --paper?"), ("--gmae", " (expected the options")):
        with pytest.raises(SystemExit):
            run(tmp_path, "new", "demo", typed, "letter")
        assert f"unknown argument '{typed}'{said}" in capsys.readouterr().err
