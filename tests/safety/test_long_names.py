"""A file name the data gives that is longer than any file system takes (a part of it over 255
bytes): looking it up does not say "no such file" but raises ENAMETOOLONG, which once ended
``check``, ``build`` and ``export`` with a traceback. Each is one line naming the file, line and
key (or the option), exit 2, and the last good outputs stay."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ART_DECK_YAML, DECK_YAML, FEW_CARDS, FRONT, PICTURE_FRONT, make_workspace, run

LONG = "a" * 300
BUILD = ("build", "--game", "test", "--jobs", "1")


def _game(ws: Path, more: str) -> None:
    game = ws / "data/test/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + more, encoding="utf-8")


def _art(ws: Path) -> None:
    """Named in a piece and placed by the template's image(), in the art/ folder a game has."""
    (ws / "data/test/art").mkdir()
    (ws / "templates/test/card-front.svg.j2").write_text(PICTURE_FRONT, encoding="utf-8")
    (ws / "data/test/decks/cards.yaml").write_text(ART_DECK_YAML + f"  - {{name: a, text: b, art: {LONG}.png}}\n",
                                                   encoding="utf-8")


def _sheet(ws: Path) -> None:
    (ws / "data/test/decks/cards.yaml").write_text(DECK_YAML.replace("pieces:\n", f"pieces: {{file: {LONG}.csv}}\n"),
                                                   encoding="utf-8")


def _include(ws: Path) -> None:
    (ws / "templates/test/card-front.svg.j2").write_text(FRONT.replace("{% block art %}",
                                                                       f"{{% block art %}}{{% include '{LONG}.svg' %}}"),
                                                         encoding="utf-8")


CASES = {
    "art": (_art, "pieces.1.art"),
    "spreadsheet": (_sheet, "pieces.file"),
    "draft_file": (lambda ws: _game(ws, f"draft_file: {LONG}.txt\n"), "draft_file"),
    "fonts": (lambda ws: _game(ws, f"fonts: {{gothic: {LONG}}}\n"), "fonts.gothic"),
    "fallback_fonts": (lambda ws: _game(ws, f"fallback_fonts: [{LONG}]\n"), "fallback_fonts.1"),
    "include": (_include, "card-front.svg.j2"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_file_name_too_long_for_the_file_system_is_one_line_and_keeps_the_outputs(tmp_path, capsys, case, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, draft=True)  # the first, good build made once for the six cases
    before = (ws / "build/test/cards.pdf").read_bytes()
    spoil, said = CASES[case]
    spoil(ws)
    capsys.readouterr()
    assert run(ws, *BUILD) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and said in err, err
    assert (ws / "build/test/cards.pdf").read_bytes() == before


def test_a_preset_name_too_long_is_one_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "export", "--game", "test", "--preset", LONG) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--preset" in err and "Traceback" not in err, err


def test_a_layout_export_name_too_long_is_one_line_and_writes_nothing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "layout", "export", "card-poker", "--out", f"{LONG}.svg.j2") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too long" in err and "Traceback" not in err, err
    assert sorted(p.name for p in ws.iterdir()) == ["data", "fonts", "templates"]


def test_a_game_folder_name_too_long_for_its_files_stops_before_anything_is_written(tmp_path, capsys):
    """A folder name of 250 bytes: <slug>-all.pdf is 258, and the build stopped at the commit with
    "build: --out: cannot write ggg…: File name too long", naming an --out never given."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    slug = "g" * 201
    for top in ("data", "templates"):
        (ws / top / "test").rename(ws / top / slug)
    assert run(ws, "build", "--game", slug, "--no-rulebook") == 2
    assert capsys.readouterr().err == (f"pnpgen: error: data/{'g' * 40}…: the game's folder name of 201 bytes is too "
                                       "long for its files' names (expected a folder name of at most 200 bytes "
                                       "(UTF-8; a Japanese character takes 3))\n")
    assert not (ws / "build").exists()
    for top in ("data", "templates"):
        (ws / top / slug).rename(ws / top / slug[:200])
    assert run(ws, "build", "--game", slug[:200], "--no-rulebook") == 0
    assert (ws / "build" / slug[:200] / f"{slug[:200]}-all.pdf").is_file()


@pytest.mark.parametrize("name", ["test/" + "a" * 300 + ".svg.j2", "test/" + "a/" * 3000 + "x.svg.j2"])
def test_an_include_named_too_long_for_a_file_is_one_short_line_at_its_line(tmp_path, capsys, name):
    """It said "[Errno 36] File name too long: 'templates/test/aaa…'", the whole 6 kB name of the
    second in the one line."""
    front = FRONT.replace("{% block art %}", "{% block art %}\n{% include '" + name + "' %}")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Errno" not in err and len(err) < 600, err
    assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2:3: template: 'test/a") and \
        "is too long for a file name" in err, err
