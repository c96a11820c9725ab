"""game.yaml's ``fonts:`` changed redraws every face set in that font: the build's change line
said ``back changed, every face edited`` and ``pnpgen diff`` blamed "the template, layout, art or
an icon" (trial74); both name the font change now, role by role, on the decks whose faces it
redrew (fixes47)."""

from __future__ import annotations

from conftest import GAME_YAML, make_workspace, run


def test_a_font_changed_is_named_on_the_change_line_and_in_the_diff(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "latin_gap: 0\nfonts:\n  gothic: BIZUDPMincho-Regular\n",
                                                    encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = capsys.readouterr().out
    changed = next(line for line in out.splitlines() if "changed:" in line)
    assert "cards: 2 → 2 (fonts: gothic BIZUDPGothic-Regular → BIZUDPMincho-Regular); reprint cards.pdf" in changed, out
    assert "edited" not in changed and "back changed" not in changed
    assert run(ws, "diff", "--game", "test") == 0
    lines = capsys.readouterr().out.splitlines()
    assert "- フォント：gothic BIZUDPGothic-Regular → BIZUDPMincho-Regular（そのフォントの絵柄を描き直した）" in lines, lines
    assert not any("絵柄が変わった" in line or "裏面" in line for line in lines), lines
