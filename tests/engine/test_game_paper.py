"""game.yaml's ``paper:``: a Letter game need not say --paper letter on every build."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from conftest import make_workspace, run
from pnpgen.units import MM_PER_PT


def _page_mm(pdf) -> tuple[float, float]:
    box = PdfReader(pdf).pages[0].mediabox
    return round(float(box.width) * MM_PER_PT, 1), round(float(box.height) * MM_PER_PT, 1)


def _letter_game(tmp_path):
    ws = make_workspace(tmp_path / "ws")
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
    ws = make_workspace(tmp_path / "ws")
    game = ws / "data" / "test" / "game.yaml"
    lines = len(game.read_text(encoding="utf-8").splitlines())
    game.write_text(game.read_text(encoding="utf-8") + "paper: b5\n", encoding="utf-8")
    assert run(ws, command, "--game", "test") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert f"game.yaml:{lines + 1}:8: paper: unknown paper 'b5'" in err and "a3, a4, letter" in err, err
    assert "Traceback" not in err
