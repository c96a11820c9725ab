"""``pnpgen watch`` and ``serve`` watch a game's folders with watchfiles, which follows every link
below them: a link in ``data/<game>/`` to a folder outside the workspace (no build reads through
it) had the watcher watch that folder and everything below it — 16,000 watches for ``/usr``, every
folder of the machine for ``/`` — and rebuild on whatever changed there. Such a link is one line
(exit 2) before anything is watched; a link to a folder of the workspace is followed as before.
One made while ``watch`` or ``serve`` runs is refused on the next save, in one line: nothing is
built while it is there, the last good files stay, and the watcher goes on."""

from __future__ import annotations

import pytest

from conftest import FEW_CARDS, forked_cli, make_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.engine import fresh
from pnpgen.engine.fresh import watched
from pnpgen.errors import InputError


def _free_port() -> str:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize("command", [["watch", "--game", "test"], ["serve", "--game", "test", "--port"]])
def test_a_link_out_of_the_workspace_is_refused_before_anything_is_watched(tmp_path, command):
    command = command + [_free_port()] if command[0] == "serve" else command
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data" / "test" / "elsewhere").symlink_to(outside)
    code, err = forked_cli(ws, *command, timeout=30)  # (it watched for ever: killed, -9)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "data/test/elsewhere" in err and "Traceback" not in err


def test_a_link_inside_the_workspace_is_watched(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "shared" / "art").mkdir(parents=True)
    (ws / "data" / "test" / "art").symlink_to(ws / "shared" / "art")
    folders = watched(Workspace(ws), "test")
    assert ws / "data" / "test" in folders and ws / "shared" / "art" not in folders
    # fonts/: a link to the fonts of the checkout, out of the workspace: watched by its font files
    assert ws / "fonts" not in folders and sorted(ws.joinpath("fonts").glob("*.ttf")) == [
        f for f in folders if f.parent == ws / "fonts"] != []


def test_a_fonts_folder_leading_out_is_watched_by_its_fonts_not_walked(tmp_path):
    """fonts/ a link to a shared collection or the home folder: the watcher walked and watched all
    of it (and refused a link or a name not UTF-8 anywhere below it), where a build reads only
    fonts/<name>.ttf. Its font files are watched; nothing below it is walked."""
    import os
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    home = tmp_path / "home"
    shutil.copytree(ws / "fonts", home)
    (home / "projects" / "diary").mkdir(parents=True)
    (home / "projects" / "elsewhere").symlink_to(tmp_path)  # would be refused as a link out, were it walked
    os.mkdir(os.fsencode(home / "projects") + b"/\x83e\x83X\x83g")  # Shift_JIS テスト: refused, were it walked
    (ws / "fonts").unlink()
    (ws / "fonts").symlink_to(home)
    folders = watched(Workspace(ws), "test")
    assert not [f for f in folders if f == ws / "fonts" or "projects" in f.parts], folders
    assert sorted(f.name for f in folders if f.parent == ws / "fonts") == sorted(p.name for p in home.glob("*.ttf"))


def test_a_link_out_made_while_watch_runs_is_refused_on_the_next_save(tmp_path, monkeypatch, capsys):
    """``pnpgen watch`` in this process, its saves made from the build and the check that refuses:
    the first build; then a link out of the workspace and a deck edit, refused in one line with
    the last good files kept; then the link removed and the deck saved again, built."""
    import threading

    from pnpgen import commands

    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    link = ws / "data" / "test" / "elsewhere"
    cards = ws / "build" / "test" / "cards.pdf"
    real_build, real_watched = commands.build, fresh.watched
    builds: list[int] = []
    refused: list[bytes] = []

    def build_then_save(ws_, args, warm=None, heading=None):
        code = real_build(ws_, args, warm, heading=heading)
        builds.append(code)
        if len(builds) == 1:  # the designer links a folder from elsewhere in, and saves the deck
            link.symlink_to(outside)
            deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "リンクの後}"), encoding="utf-8")
        elif len(builds) == 2 and not refused:  # (not refused: one more save, so the watch ends)
            deck.write_text(deck.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        return code

    def watched_then_fix(ws_, slug):
        try:
            return real_watched(ws_, slug)
        except InputError:
            if builds:  # refused on a save: the last good file is there; the link goes, the deck is saved
                refused.append(cards.read_bytes())
                link.unlink()
                deck.write_text(deck.read_text(encoding="utf-8").replace("リンクの後}", "外した後}"), encoding="utf-8")
            raise

    monkeypatch.setattr(commands, "build", build_then_save)
    monkeypatch.setattr(fresh, "watched", watched_then_fix)
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        ws, "watch", "--game", "test", "--no-rulebook", "--max-builds", "3", "--jobs", "1")), daemon=True)
    watcher.start()
    watcher.join(120)  # a watcher that missed a save would wait for another one for ever
    err = capsys.readouterr().err
    assert done == [0] and builds == [0, 0], (builds, err)
    assert len(refused) == 1 and b"%PDF" in refused[0]
    errors = [line for line in err.splitlines() if line.startswith("pnpgen: error: ")]
    assert len(errors) == 1 and "data/test/elsewhere" in errors[0] and "Traceback" not in err
    from pdfprobe import texts

    text = "".join(texts(cards))
    assert "外した後" in text and "リンクの後" not in text


def test_a_link_out_made_while_serve_runs_is_refused_on_the_next_save(tmp_path):
    from pnpgen.serve.preview import Preview

    outside = tmp_path / "outside"
    outside.mkdir()
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    before = (ws / "build" / "test" / "cards.pdf").read_bytes()
    (ws / "data" / "test" / "elsewhere").symlink_to(outside)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "リンクの後}"), encoding="utf-8")
    state = preview.rebuild()  # what the server's watcher does on a save
    assert "data/test/elsewhere" in state.error and "\n" not in state.error and state.decks
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == before


@pytest.mark.parametrize("command", [["watch", "--game", "test"], ["serve", "--game", "test", "--port"]])
def test_a_name_not_in_utf_8_is_refused_before_anything_is_watched(tmp_path, command):
    """A folder whose name's bytes are not UTF-8 (Japanese in Shift_JIS from a zip made on
    Windows): watchfiles stops with a traceback at it ('Unable to decode path'). One line before
    anything is watched, naming it (escaped)."""
    import os

    command = command + [_free_port()] if command[0] == "serve" else command
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    os.makedirs(os.path.join(os.fsencode(ws / "data" / "test"), "古い".encode("cp932")))
    code, err = forked_cli(ws, *command, timeout=30)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "data/test/\\udc8c" in err and "a file or folder whose name is not UTF-8" in err, err  # (C3 82: 'Â')


def test_the_watcher_stopping_by_itself_is_one_line(tmp_path, capsys, monkeypatch):
    """A name not UTF-8 made while ``watch`` runs stops watchfiles itself (a RuntimeError out of
    its loop): one line, exit 2, not a traceback."""
    import watchfiles

    def stops(*folders, **options):
        yield set()
        raise RuntimeError('Unable to decode path "data/test/\\x90V" to string')

    monkeypatch.setattr(watchfiles, "watch", stops)  # (the command imports it when it starts)
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    code = run(ws, "watch", "--game", "test", "--no-rulebook")
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("pnpgen: error: the watcher stopped: Unable to decode path"), err
