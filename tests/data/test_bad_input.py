"""Issue 2: bad input gives one clear line (file:line:column, key, what would be valid), exit 2,
no traceback, and nothing written or destroyed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import DECK_YAML, GAME_YAML, child_env, make_workspace, run

GOOD = DECK_YAML + "  - {name: 祝福, text: 本文}\n"

CASES = {
    "yaml syntax": (DECK_YAML + "  - {name: 祝福, text: [unclosed\n", "cards.yaml:9:22: YAML syntax error", "the […] opened here is never closed"),
    "unknown key": (GOOD.replace("front:", "colour: red\nfront:"), "cards.yaml:3:1: colour: unknown key in a deck file", "one of name, kind"),
    "unknown piece key": (DECK_YAML + "  - {name: 祝福, txet: 本文}\n", "cards.yaml:9:16: pieces.1.txet: unknown key", "one of name, text, count"),
    "wrong type": (GOOD.replace("  - {name: 祝福, text: 本文}", "  - {name: [1, 2]}"), "cards.yaml:9:12: pieces.1.name: [1, 2] is not a valid text", "expected text"),
    "missing template": (GOOD.replace("card-back.svg.j2", "nope.svg.j2"), "cards.yaml:4:7: back: template 'nope.svg.j2' not found", "templates/test/nope.svg.j2"),
    # a game trial: a misspelt template name gets the file that is there
    "misspelt template": (GOOD.replace("card-back.svg.j2", "card-bak.svg.j2"), "cards.yaml:4:7: back: template 'card-bak.svg.j2' not found; did you mean card-back.svg.j2?", "templates/test/card-bak.svg.j2"),
    # a game trial: a board's size written as a shop writes it gets the list to write
    "size as a shop writes it": (GOOD.replace("format: poker", "size: 420x297"), "cards.yaml:2:7: size: size needs [width, height], got '420x297'", "'size: [420, 297]'"),
    # trial33: a quarter-Letter pad written 4.25x5.5in was told [4.25, 5.5in], a pad 4.25 mm wide
    "size in inches as a shop writes it": (GOOD.replace("format: poker", "size: 4.25x5.5in"), "got '4.25x5.5in'", "'size: [4.25in, 5.5in]'"),
    "size with its unit apart": (GOOD.replace("format: poker", "size: 63 × 88 mm"), "got '63 × 88 mm'", "'size: [63mm, 88mm]'"),
    # the skirmish trial: a player aid's size written as its paper, told that paper's millimetres, not [63, 88]
    "size as a paper": (GOOD.replace("format: poker", "size: A5"), "cards.yaml:2:7: size: size needs [width, height], got 'A5'", "'size: [148, 210]'"),
    "count negative": (DECK_YAML + "  - {name: 祝福, count: -1}\n", "cards.yaml:9:23: pieces.1.count: count -1 is not a whole number from 0 to 10,000", "an integer 0..10000, e.g. 'count: 3')"),
    "count too big": (DECK_YAML + "  - {name: 祝福, count: 10001}\n", "cards.yaml:9:23: pieces.1.count", "0 to 10,000"),
    "count text": (DECK_YAML + "  - {name: 祝福, count: many}\n", "pieces.1.count: count 'many'", "count: 3"),
    "unknown format": (GOOD.replace("format: poker", "format: pokr"), "cards.yaml:2:9: format: unknown format 'pokr'; did you mean poker?", "poker, bridge"),
    # a trick-taking game's mini cards: 'mini' was told "did you mean mini-euro?", a 44×68 card, not card-mini's 44×63
    "format beginning two": (GOOD.replace("format: poker", "format: mini"),
                             "cards.yaml:2:9: format: unknown format 'mini': it begins mini-euro (44×68 mm) and "
                             "mini-american (41×63 mm), cards of other sizes",
                             "format: mini-euro or format: mini-american, or 'size: [w, h]' for a size of your own "
                             "(the card-mini layout's mini card: 'size: [44, 63]')"),
    # trial22: a key cut short, orient: for orientation:, named no key (difflib finds them too unlike)
    "key cut short": (GOOD.replace("front:", "orient: flat\nfront:"), "cards.yaml:3:1: orient: unknown key in a deck file; did you mean orientation?", "one of name, kind"),
    "unknown field type": (GOOD.replace("  text: text", "  text: txt"), "cards.yaml:7:9: fields.text: unknown field type 'txt'", "text, int"),
    # loop4: an editor's save caught between emptying the file and writing it was "missing key 'name'"
    "empty file": ("", "cards.yaml: the deck file is empty", "'name:', 'front:' and 'pieces:' — a save caught half-way?"),
    "only comments": ("# to do\n", "cards.yaml: the deck file is empty", "the next save builds it"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_deck_input(tmp_path, capsys, case):
    deck, where, expected = CASES[case]
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: ") and err.count("\n") == 1, err
    assert where in err, err
    assert expected in err, err
    assert "Traceback" not in err
    assert not (ws / "build").exists()


def test_missing_font(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "fonts:\n  gothic: NoSuchFont-Regular\n")
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "game.yaml:9:11" in err and "font 'NoSuchFont-Regular' not found" in err
    assert "BIZUDPGothic-Regular" in err  # what would be valid


def test_a_misspelt_font_or_draft_file_names_the_one_that_is_there(tmp_path, capsys):
    """A game trial: `gothic: NotoSans-Reglar` and `draft_file: drafts.txt` listed what there is
    but named no near miss, as a mistyped key does."""
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "fonts:\n  gothic: NotoSans-Reglar\n", draft=True)
    assert run(ws, "build", "--game", "test") == 2
    assert "font 'NotoSans-Reglar' not found in fonts; did you mean NotoSans-Regular?" in capsys.readouterr().err
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "draft_file: drafts.txt\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "draft_file: 'drafts.txt' not found in test/; did you mean draft.txt? (expected" in err, err


@pytest.mark.parametrize(("file", "told"), [
    ("Kiwi.otf", "font 'Kiwi': fonts/Kiwi.otf is there, but pnpgen reads TrueType .ttf fonts only, not an OpenType .otf"),
    ("Kiwi.ttc", "font 'Kiwi': fonts/Kiwi.ttc is there, but pnpgen reads TrueType .ttf fonts only, not a font "
                 "collection (expected"),
    ("Kiwi.TTF", "font 'Kiwi': fonts/Kiwi.TTF is there, but its name must end in .ttf (expected the file renamed Kiwi.ttf)"),
    ("Kiwi.TTF:Kiwi.TTF", "font 'Kiwi.TTF': fonts/Kiwi.TTF is there, but its name must end in .ttf (expected the file "
                          "renamed Kiwi.ttf, named Kiwi in fonts: (without the ending))"),
    ("Kiwi.otf:Kiwi.otf", "font 'Kiwi.otf': fonts/Kiwi.otf is there, but pnpgen reads TrueType .ttf fonts only"),
])
def test_a_font_in_a_format_pnpgen_does_not_read_is_told_so_not_not_found(tmp_path, capsys, file, told):
    """A designer's own font as .otf (as many Japanese families are published) or .TTF was "not
    found in fonts" while the file was there; named with its file's ending too (a .ttc was called
    an OpenType font with CFF outlines)."""
    file, _, name = file.partition(":")
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + f"fonts:\n  title: {name or 'Kiwi'}\n")
    (ws / "fonts").unlink()  # a fonts/ of the workspace's own (pnpgen's fonts still found)
    (ws / "fonts").mkdir()
    (ws / "fonts" / file).write_bytes(b"OTTO")
    if (ws / "fonts" / "Kiwi.ttf").is_file():
        pytest.skip("a file system blind to letter case finds Kiwi.TTF as Kiwi.ttf")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "game.yaml:9:10: fonts.title: " + told in err, err


def test_bad_palette_colour(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML.replace('"#cc3333"', "reddish"))
    assert run(ws, "check") == 2
    assert "game.yaml:6:8: palette.red: colour 'reddish' is not a hex colour" in capsys.readouterr().err


def test_unknown_game_lists_known(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "nope") == 2
    err = capsys.readouterr().err
    assert "unknown game 'nope'" in err and "one of test" in err


def test_template_error_names_template(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", front="{% extends 'common/piece.svg.j2' %}{% block art %}{{ piece.nmae }}{% endblock %}")
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "card-front.svg.j2" in err and "nmae" in err


def test_cli_exit_status_and_no_traceback(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 祝福, count: -1}\n")
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test"], cwd=ws,
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "count -1" in proc.stderr


def test_failed_build_keeps_previous_output(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = ws / "build" / "test"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    # A template that fails only for the last piece: the build dies half-way through the deck.
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: 壊れ, text: x}\n", encoding="utf-8")
    bad = "{% extends 'common/piece.svg.j2' %}{% block art %}{% if piece.name == '壊れ' %}{{ colour('nope') }}{% endif %}{% endblock %}"
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(bad, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # every old file intact, no temp files left behind


def test_an_empty_game_yaml_is_said_empty_not_missing_its_title(tmp_path, capsys):
    """loop4: game.yaml caught empty by a save half-way through was "missing key 'title'"."""
    ws = make_workspace(tmp_path / "ws", deck=GOOD)
    (ws / "data" / "test" / "game.yaml").write_text("", encoding="utf-8")
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "game.yaml: game.yaml is empty" in err and "'title:'" in err and err.count("\n") == 1, err


def test_a_font_written_as_its_file_is_that_font(tmp_path, capsys):
    """`fonts: {gothic: x.ttf}` was 'not found' though docs/data-format.md says a font is its file in
    fonts/: the file's name, .ttf and all, is the font (a role and a fallback alike); a name no
    file has is still told at its line with the fonts known (fixes47, hostile46)."""
    from pdfprobe import page_fonts, reader

    game = GAME_YAML + "fonts:\n  gothic: BIZUDMincho-Regular.ttf\nfallback_fonts: [NotoSans-Regular.ttf]\n"
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"], game=game)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    fonts = {str(font["/BaseFont"]).split("+")[-1] for page in reader(ws / "build" / "test" / "cards.pdf").pages
             for font in page_fonts(page).values()}
    assert "BIZUDMincho-Regular" in fonts and "BIZUDPGothic-Regular" not in fonts, fonts
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "fonts:\n  gothic: x.ttf\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "game.yaml:9:11: fonts.gothic: font 'x.ttf' not found in fonts (expected one of BIZUDGothic-Regular," in err, err
