"""Every file a game's data is read from stays inside the workspace, links followed: a deck file
or a preset that links to a file elsewhere is refused in check, build and export, and what it
points at appears nowhere (terminal, PDFs, order.csv, export.json)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DECK_YAML, FEW_CARDS, forked_cli, make_workspace, run

SECRET = "秘密の合言葉XYZZY"


def _secret_deck(tmp_path: Path) -> Path:
    secret = tmp_path / "private" / "diary.yaml"
    secret.parent.mkdir()
    secret.write_text(DECK_YAML + f"  - {{name: {SECRET}, text: {SECRET}}}\n", encoding="utf-8")
    return secret


def _everything(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()) if folder.exists() else b""


def _files_opened(monkeypatch) -> list[str]:
    """Every file this process opens from now on (resolved), as ``io.open`` is asked for it."""
    import io

    opened: list[str] = []
    real = io.open

    def watched(file, *args, **kwargs):
        if isinstance(file, (str, Path)):
            opened.append(str(Path(file).resolve()))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", watched)
    return opened


@pytest.mark.parametrize("command", [["check"], ["build", "--game", "test", "--no-rulebook"],
                                     ["export", "--game", "test", "--preset", "doujin"]])
def test_a_symlinked_deck_is_refused_and_its_contents_appear_nowhere(tmp_path, capsys, command):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data/test/decks/diary.yaml").symlink_to(_secret_deck(tmp_path))
    assert run(ws, *command) == 2
    said = capsys.readouterr()
    assert "diary.yaml" in said.err and "outside" in said.err and said.err.count("\n") == 1
    assert SECRET not in said.out + said.err
    assert SECRET.encode() not in _everything(ws / "build")


def test_a_decks_folder_linked_elsewhere_is_refused(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    secret = _secret_deck(tmp_path)
    (ws / "data/test/decks/cards.yaml").unlink()
    (ws / "data/test/decks").rmdir()
    (ws / "data/test/decks").symlink_to(secret.parent)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    said = capsys.readouterr()
    assert "outside" in said.err and SECRET not in said.out + said.err


def test_a_symlinked_preset_is_refused_unread(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    private = tmp_path / "private" / "shop.yaml"
    private.parent.mkdir()
    private.write_text(f"name: {SECRET}\nformats: {{poker: {{trim: [63, 88], bleed: 3}}}}\n", encoding="utf-8")
    (ws / "presets").mkdir()
    (ws / "presets" / "mine.yaml").symlink_to(private)
    assert run(ws, "export", "--game", "test", "--preset", "mine") == 2
    said = capsys.readouterr()
    assert "mine.yaml" in said.err and "outside" in said.err and SECRET not in said.out + said.err
    assert SECRET.encode() not in _everything(ws / "build")


def test_a_link_inside_the_workspace_is_fine(tmp_path):
    """Containment is about leaving the workspace, not about links: a deck linked to a file of
    the same game still builds."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data/test/shared.yaml").write_text((ws / "data/test/decks/cards.yaml").read_text(encoding="utf-8"),
                                              encoding="utf-8")
    (ws / "data/test/decks/cards.yaml").unlink()
    (ws / "data/test/decks/cards.yaml").symlink_to(ws / "data/test/shared.yaml")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0


def test_a_symlinked_layout_is_refused_unread(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    private = tmp_path / "private" / "mine.yaml"
    private.parent.mkdir()
    private.write_text(f"extends: card-poker\n# {SECRET}\n", encoding="utf-8")
    (ws / "layouts").mkdir()
    (ws / "layouts" / "mine.yaml").symlink_to(private)
    (ws / "data/test/decks/cards.yaml").write_text("name: 呪文\nlayout: mine\npieces:\n  - {title: 火球}\n",
                                                   encoding="utf-8")
    assert run(ws, "check") == 2
    said = capsys.readouterr()
    assert "mine.yaml" in said.err and "outside" in said.err and SECRET not in said.out + said.err


def test_a_file_linked_from_the_games_folders_to_elsewhere_is_never_opened(tmp_path, monkeypatch):
    """A link in the game's folders (its art, a note beside the decks) that leads out of the
    workspace is not read, not even to be hashed for the up-to-date check."""

    secret = tmp_path / "private" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data/test/notes.txt").symlink_to(secret)
    (ws / "data/test/art").mkdir()
    (ws / "data/test/art/elsewhere.png").symlink_to(secret)
    opened = _files_opened(monkeypatch)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    (ws / "data/test/decks/cards.yaml").write_text(
        (ws / "data/test/decks/cards.yaml").read_text(encoding="utf-8").replace("カード1", "札1"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # up-to-date check, art by hash
    assert opened and str(secret.resolve()) not in opened


def test_a_printers_file_linked_out_of_the_workspace_is_refused_unread(tmp_path, capsys, monkeypatch):
    """printers.yaml may be the user's own (~/.config/pnpgen/printers.yaml, by design), but the
    workspace's is the workspace's: linked elsewhere, its names and values once showed in
    messages (`unknown printer profile 'x' (expected one of <the other file's keys>)`)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    private = tmp_path / "private" / "settings.yaml"
    private.parent.mkdir()
    private.write_text(f"{SECRET}: {{paper: a4}}\n", encoding="utf-8")
    (ws / "printers.yaml").symlink_to(private)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--printer", "x") == 2
    said = capsys.readouterr()
    assert "printers.yaml" in said.err and "outside" in said.err and SECRET not in said.out + said.err
    assert "printers.yaml is a link leading out of it (expected the file itself copied into the workspace's own folder in" \
        " place of the link" in said.err, said.err  # not "inside , named", nor the folder's name on this machine
    assert "printers.yaml: 'printers.yaml' is outside" in said.err and "printers.yaml: printers.yaml" not in said.err, said.err
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--printer", SECRET) == 2
    assert "outside" in capsys.readouterr().err and not (ws / "build/test").exists()


def _own_fonts(ws: Path, tmp_path: Path) -> Path:
    """The workspace's fonts/ a folder of its own (a copy of the shipped fonts), to put files in."""
    import shutil

    fonts = tmp_path / "fonts-copy"
    shutil.copytree(ws / "fonts", fonts)
    (ws / "fonts").unlink()
    (ws / "fonts").symlink_to(fonts)
    return fonts


def test_with_the_rulebook_a_link_out_beside_the_decks_or_in_fonts_is_never_opened(tmp_path, monkeypatch):
    """The rulebook's key hashes the game folder's other files and the fonts: a link among them
    leading out of the workspace was read for it."""

    secret = tmp_path / "private" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET, encoding="utf-8")
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data/test/notes.txt").symlink_to(secret)
    (_own_fonts(ws, tmp_path) / "Elsewhere-Regular.ttf").symlink_to(secret)
    opened = _files_opened(monkeypatch)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert (ws / "build/test/rulebook.pdf").is_file()
    assert opened and str(secret.resolve()) not in opened


def test_a_named_pipe_in_fonts_does_not_stop_a_build_with_its_rulebook(tmp_path):
    """A pipe (a FIFO) among the fonts: reading it to hash it waited for ever."""
    import os

    ws = make_workspace(tmp_path / "ws", draft=True)
    os.mkfifo(_own_fonts(ws, tmp_path) / "Pipe-Regular.ttf")
    status, err = forked_cli(ws, "build", "--game", "test", "--jobs", "1")
    assert status == 0, err
    assert (ws / "build/test/rulebook.pdf").is_file()


def test_an_art_folder_linked_out_of_the_game_is_refused_unread(tmp_path, capsys, monkeypatch):
    """art/ a link to a folder elsewhere, as decks/ may not be: its pictures were placed on the
    cards, and every file in it hashed whole, from outside the workspace."""
    from PIL import Image

    from conftest import PICTURE_FRONT, picture_workspace

    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    elsewhere = tmp_path / "elsewhere"
    (ws / "data/test/art").rename(elsewhere)
    Image.new("RGB", (30, 20), (1, 2, 3)).save(elsewhere / "private.png")
    (ws / "data/test/art").symlink_to(elsewhere, target_is_directory=True)
    opened: list[Path] = []
    real = Path.open
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: opened.append(self.resolve()) or real(self, *a, **k))
    for command in (("build", "--game", "test", "--no-rulebook", "--jobs", "1"), ("check",)):
        assert run(ws, *command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "pieces.1.art: 'a.png' is outside test/: art/ is a link leading out of it" in err
    assert not [p for p in opened if elsewhere in p.parents]
    assert not (ws / "build/test").exists()
    (ws / "data/test/art").unlink()
    (ws / "data/test/pictures").mkdir()  # a link to a folder of the game's own is fine
    (elsewhere / "a.png").rename(ws / "data/test/pictures/a.png")
    (ws / "data/test/art").symlink_to("pictures", target_is_directory=True)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0


@pytest.mark.parametrize("icons", ["test/icons", "common/icons"])
def test_an_icons_folder_linked_out_of_templates_is_refused(tmp_path, capsys, icons):
    """templates/<slug>/icons/ or templates/common/icons/ a link to a folder elsewhere: its icons
    were drawn on the cards (an icon's name is checked against the folder as its link leads)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "star.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                        '<rect width="10" height="10" fill="currentColor"/></svg>', encoding="utf-8")
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n{{ icon("star", 5, 5, 10) }}\n'
             '{{ textbox("{star} x", 5, 20, 40, 10) }}\n{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", front=front)
    (ws / "templates" / icons).parent.mkdir(exist_ok=True)
    (ws / "templates" / icons).symlink_to(elsewhere, target_is_directory=True)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"icon 'star': templates/{icons} is a link leading out of templates/" in err, err
    assert not (ws / "build/test").exists()
    (ws / "templates" / icons).unlink()
    (ws / "templates" / "shared").mkdir()
    (elsewhere / "star.svg").rename(ws / "templates" / "shared" / "star.svg")
    (ws / "templates" / icons).symlink_to(ws / "templates" / "shared", target_is_directory=True)  # inside: fine
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0


@pytest.mark.parametrize("folder", ["templates", "data"])
@pytest.mark.parametrize("command", [["check"], ["build", "--game", "test", "--no-rulebook"], ["new", "other"],
                                     ["layout", "export", "card-poker", "--out", "templates/test/"]])
def test_a_workspace_folder_that_is_a_link_out_is_refused_before_anything_is_read(tmp_path, capsys, folder, command):
    """data/ or templates/ itself a link leading out of the workspace (a game from a stranger):
    every file the data names was checked against the folder the link leads to, so the whole of
    it was read (and new wrote there)."""
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(ws / folder, elsewhere)
    (ws / folder).symlink_to(elsewhere, target_is_directory=True)
    before = sorted(p.relative_to(elsewhere) for p in elsewhere.rglob("*"))
    assert run(ws, *command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{folder}: a link to " in err and "outside it" in err
    assert sorted(p.relative_to(elsewhere) for p in elsewhere.rglob("*")) == before
    assert not (ws / "build").exists()


def test_a_workspace_folder_linked_inside_the_workspace_is_read(tmp_path):
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    shutil.move(ws / "templates", ws / "shared-templates")
    (ws / "templates").symlink_to("shared-templates", target_is_directory=True)
    assert run(ws, "check", "-q") == 0


@pytest.mark.parametrize("command", [["build", "--game", "test", "--no-rulebook", "--jobs", "1"],
                                     ["export", "--game", "test", "--preset", "doujin"]])
def test_a_fonts_folder_linked_elsewhere_is_read_for_its_fonts_only(tmp_path, monkeypatch, command):
    """fonts/ may be a link anywhere (a shared collection): its files below it, and its files that
    are no font, were read for the build's inputs (fonts/ a link to the home folder: a walk of all
    of it, every small file hashed). Only fonts/<name>.ttf is."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    fonts = _own_fonts(ws, tmp_path)
    (fonts / "notes.txt").write_text(SECRET, encoding="utf-8")
    (fonts / "projects" / "diary").mkdir(parents=True)
    (fonts / "projects" / "diary" / "today.txt").write_text(SECRET, encoding="utf-8")
    opened = _files_opened(monkeypatch)
    assert run(ws, *command) == 0
    assert not [p for p in opened if p.endswith((".txt",)) and str(fonts) in p], opened
