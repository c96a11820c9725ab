"""A saddle-stitched booklet of more sheets than a stapler goes through (rulebook.booklet_sheets
in game.yaml, 20 by default) is warned, with what to do instead; a bad figure is one line."""

from __future__ import annotations

import pytest

from conftest import GAME_YAML, REPO, make_workspace
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.rulebook import build_rulebook


def test_a_booklet_of_more_sheets_than_a_saddle_stitch_holds_is_warned_with_its_count(tmp_path):
    ws = make_workspace(tmp_path / "ws", draft=True)
    book = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts")
    sheets = len(texts(book.files["rulebook-booklet.pdf"])) // 2  # two sides a sheet
    assert sheets >= 2 and not any("saddle stitch" in w for w in book.warnings)  # the default holds it
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "\nrulebook:\n  booklet_sheets: 1\n", encoding="utf-8")
    warned = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").warnings
    said = [w for w in warned if "saddle stitch" in w]
    assert len(said) == 1 and f"the booklet is {sheets} sheets of A4" in said[0] and "(1: game.yaml" in said[0]
    assert said[0].startswith(f"{ws / 'data' / 'test' / 'game.yaml'}:")  # the line that set it
    assert "rulebook.pdf" in said[0]  # what to print instead


@pytest.mark.parametrize("value", ["0", "twenty", "true", "2.5"])
def test_a_booklet_sheets_that_is_no_number_of_sheets_is_one_line_at_its_game_yaml_line(tmp_path, value):
    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + f"\nrulebook:\n  booklet_sheets: {value}\n")
    with pytest.raises(InputError) as e:
        build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts")
    assert "game.yaml" in str(e.value) and "booklet_sheets" in str(e.value) and "1 to 500" in str(e.value)


@pytest.mark.parametrize("value", ["発行", "[1]", "[\"\"]", "[" + "あ" * 41 + "]", "[" + ", ".join("行" for _ in range(9)) + "]"])
def test_a_colophon_that_is_no_list_of_short_lines_is_one_line_at_its_game_yaml_line(tmp_path, value):
    """The 奥付's own lines (rulebook.colophon): each one line of the back page, or one error
    saying what to write (it was an unknown key: the back page named only the draft file)."""
    from pnpgen.rulebook.figures import load_settings

    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + f"\nrulebook:\n  colophon: {value}\n")
    with pytest.raises(InputError) as e:
        load_settings(load_game(Workspace(ws), "test"))
    said = str(e.value)
    assert "game.yaml:" in said and "colophon" in said and ("40 characters" in said or "8 lines" in said), said
    ws = make_workspace(tmp_path / "ok", game=GAME_YAML + "\nrulebook:\n  colophon: [発行　星の市工房, 印刷　○○印刷]\n")
    assert load_settings(load_game(Workspace(ws), "test")).colophon == ["発行　星の市工房", "印刷　○○印刷"]
