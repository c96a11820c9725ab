"""Missing input is an error, never a reason to delete the last good outputs: a draft_file typo,
a deleted draft, a draft that is a folder, a decks that is a file. Deck files ending .yml are
decks; copies kept aside (.bak) are passed over with a note, macOS ._ files and editors' own
files without one (tests/engine/test_watch_editors.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run


def _outputs(ws: Path) -> dict[str, bytes]:
    folder = ws / "build" / "test"
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _fails_keeping(ws: Path, capsys, *args: str) -> str:
    before = _outputs(ws)
    assert run(ws, "build", "--game", "test", "--jobs", "1", *args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert _outputs(ws) == before
    return err


@pytest.fixture(scope="module")
def first_build(tmp_path_factory) -> Path:
    ws = make_workspace(tmp_path_factory.mktemp("m") / "ws", draft=True)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert (ws / "build/test/rulebook.pdf").is_file()
    return ws


@pytest.fixture
def built_ws(first_build, tmp_path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(first_build, ws, symlinks=True)
    return ws


def test_a_draft_file_typo_exits_2_and_keeps_the_rulebook(built_ws, capsys):
    game = built_ws / "data/test/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "draft_file: drfat.txt\n", encoding="utf-8")
    err = _fails_keeping(built_ws, capsys)
    assert "game.yaml:" in err and "drfat.txt" in err and "not found" in err
    assert (built_ws / "build/test/rulebook.pdf").is_file()


def test_a_deleted_draft_exits_2_and_keeps_the_rulebook(built_ws, capsys):
    (built_ws / "data/test/draft.txt").unlink()
    err = _fails_keeping(built_ws, capsys)
    assert "data/test/draft.txt" in err and "rulebook.pdf" in err
    assert run(built_ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0  # when meant


def test_a_draft_that_is_a_folder_exits_2(built_ws, capsys):
    draft = built_ws / "data/test/draft.txt"
    draft.unlink()
    draft.mkdir()
    assert "not a file" in _fails_keeping(built_ws, capsys)


def test_decks_that_is_a_file_exits_2_and_keeps_every_deck(built_ws, capsys):
    shutil.rmtree(built_ws / "data/test/decks")
    (built_ws / "data/test/decks").write_text("oops")
    err = _fails_keeping(built_ws, capsys)
    assert "decks is not a folder" in err
    assert (built_ws / "build/test/cards.pdf").is_file()


def test_a_vanished_decks_folder_exits_2(built_ws, capsys):
    shutil.rmtree(built_ws / "data/test/decks")
    assert "no deck files" in _fails_keeping(built_ws, capsys)


def test_a_game_that_never_had_a_draft_builds_with_a_warning(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "data/test/draft.txt: no draft text" in err and str(tmp_path) not in err


def test_yml_decks_are_read_and_litter_is_passed_over(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data/test/decks"
    (decks / "more.yml").write_text((decks / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (decks / "._cards.yaml").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ")
    (decks / "cards.yaml~").write_text("name: old")
    (decks / ".#cards.yaml").write_text("emacs lock")
    (decks / "cards.yaml.orig").write_text("name: old")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr()
    assert (ws / "build/test/more.pdf").is_file() and (ws / "build/test/cards.pdf").is_file()
    assert "cards.yaml.orig: passed over" in said.err
    assert "._cards.yaml" not in said.err and "cards.yaml~" not in said.err and ".#cards.yaml" not in said.err
    assert run(ws, "check") == 0
    out = capsys.readouterr().out
    assert "cards.yaml.orig: passed over" in out and "._cards.yaml" not in out


def test_a_deck_both_yaml_and_yml_is_one_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data/test/decks"
    (decks / "cards.yml").write_text((decks / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "cards.yml" in err and "cards.yaml" in err and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_art_that_is_a_folder_or_a_pipe_is_said_so(tmp_path, capsys, kind):
    """A folder named like a picture (dragged into art/) or a pipe: 'not found' sent the designer
    looking for a file that is there; it says what the name is, never opening the pipe."""
    import os

    from conftest import ART_DECK_YAML

    ws = make_workspace(tmp_path / "ws", deck=ART_DECK_YAML + "  - {name: 竜, art: dragon.png}\n")
    art = ws / "data" / "test" / "art"
    art.mkdir()
    if kind == "folder":
        (art / "dragon.png").mkdir()
    else:
        os.mkfifo(art / "dragon.png")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    said = "a folder" if kind == "folder" else "a pipe, socket or device"
    assert f"art file 'dragon.png' is {said}, not a file" in err and "cards.yaml:7:" in err, err


# What a build says stands at a path instead of a file (errors.py ``not_a_file``), by how the test made it
SAID = {"folder": "a folder", "pipe": "a pipe, socket or device", "link to nothing": "a link to nothing"}


def _one_line(capsys, unwanted: str) -> str:
    """The build's error: one line, no traceback, and not the misleading words it said before."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and unwanted not in err, err
    return err


def _not_a_file(path: Path, kind: str) -> None:
    import os

    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "pipe":
        os.mkfifo(path)
    else:
        path.symlink_to(path.parent / "gone.yaml")


@pytest.mark.parametrize("kind", ["folder", "pipe", "link to nothing"])
def test_a_spreadsheet_that_is_a_folder_or_a_pipe_is_said_so(tmp_path, capsys, kind):
    """A cards.xlsx that is a folder or a pipe was "spreadsheet 'cards.xlsx' not found; did you
    mean cards.xlsx?": the name it says is missing is the one it offers."""
    from conftest import DECK_YAML

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    _not_a_file(ws / "data/test/decks/cards.xlsx", kind)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    err, said = _one_line(capsys, "did you mean"), SAID[kind]
    assert f"cards.yaml:8:16: pieces.file: spreadsheet 'cards.xlsx' is {said}, not a file" in err, err


@pytest.mark.parametrize("kind", ["folder", "pipe", "link to nothing"])
def test_a_preset_that_is_a_folder_or_a_pipe_is_said_so(tmp_path, capsys, kind):
    """presets/x.yaml a folder, a pipe or a dangling link was "unknown preset 'x'; did you mean
    x? (expected one of …, x)"."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _not_a_file(ws / "presets" / "x.yaml", kind)
    assert run(ws, "export", "--game", "test", "--preset", "x") == 2
    err, said = _one_line(capsys, "did you mean"), SAID[kind]
    assert f"presets/x.yaml: --preset: preset 'x' is {said}, not a file" in err, err


@pytest.mark.parametrize("kind", ["folder", "pipe", "link to nothing"])
@pytest.mark.parametrize("folder, key, said_as", [("layouts", "layout", "layout 'mine': layouts/mine.yaml"),
                                                  ("sheets", "sheet", "sheet layout 'mine': sheets/mine.yaml")])
def test_a_layout_or_sheet_file_that_is_a_folder_or_a_pipe_is_said_so(tmp_path, capsys, kind, folder, key, said_as):
    """layouts/mine.yaml (or sheets/mine.yaml) a folder, a pipe or a dangling link was "unknown
    layout 'mine'": the file the designer made is there, and the message says what it is."""
    from conftest import DECK_YAML

    deck = DECK_YAML.replace("front: card-front.svg.j2\nback: card-back.svg.j2\n", "") if key == "layout" else DECK_YAML
    deck = deck.replace("pieces:\n", f"{key}: mine\npieces:\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, pieces=FEW_CARDS)
    (ws / folder).mkdir(exist_ok=True)
    _not_a_file(ws / folder / "mine.yaml", kind)
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 2
    err, said = _one_line(capsys, "unknown"), SAID[kind]
    assert f"{said_as} is {said}, not a file" in err, err
