"""A folder a game's build reads made while ``watch`` or ``serve`` runs: ``templates/<game>/``
written by ``pnpgen layout export`` for a game ``pnpgen new`` made (it has none). The watcher
watched only the folders there at its start, so every save of those templates was missed."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from pathlib import Path

from watchfiles import Change

from conftest import make_workspace, run
from pdfprobe import texts
from pnpgen.data.workspace import Workspace


def _held_back(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The test game with its templates folder moved out of the workspace: (workspace, the
    templates folder's place, where it is held)."""
    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2"])
    templates = ws / "templates" / "test"
    held = tmp_path / "held"
    shutil.move(templates, held)
    return ws, templates, held


def test_watch_builds_and_watches_a_templates_folder_made_while_it_runs(tmp_path, capsys):
    ws, templates, held = _held_back(tmp_path)
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        ws, "watch", "--game", "test", "--no-rulebook", "--max-builds", "3", "--jobs", "1")), daemon=True)
    watcher.start()
    cards = ws / "build" / "test" / "cards.pdf"
    for _ in range(300):  # the first build: no template yet, an error
        if "watching data/test" in capsys.readouterr().out:
            break
        time.sleep(0.05)
    shutil.move(held, templates)  # the folder made: watched, and built
    for _ in range(300):
        if cards.exists():
            break
        time.sleep(0.05)
    assert cards.exists(), "the folder made was not built"
    front = templates / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("piece.text,", "'直した ' ~ piece.text,"),
                     encoding="utf-8")
    watcher.join(30)
    assert done == [0], "the save of a template in the folder made was missed"
    assert "直した 本文カード1" in "".join(texts(cards))


def test_serve_builds_and_watches_a_templates_folder_made_while_it_runs(tmp_path, monkeypatch):
    import watchfiles

    from pnpgen.serve import app
    from pnpgen.serve.preview import Preview

    ws, templates, held = _held_back(tmp_path)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error and not preview.state.decks  # no template yet
    watched: list[list[str]] = []
    front = templates / "card-front.svg.j2"

    async def saves(*folders, **options):
        watched.append([Path(f).relative_to(ws).as_posix() for f in folders])
        if len(watched) == 1:
            shutil.move(held, templates)  # the folder made while the watcher runs
            yield set()  # (a tick)
        else:
            yield set()  # the new watcher runs: what the folder holds is built
            assert preview.state.error == "" and preview.state.decks
            front.write_text(front.read_text(encoding="utf-8").replace("piece.text,", "'直した ' ~ piece.text,"),
                             encoding="utf-8")
            yield {(Change.modified, str(front))}

    monkeypatch.setattr(watchfiles, "awatch", saves)
    asyncio.run(app._watch(preview))
    assert "templates/test" not in watched[0] and "templates/test" in watched[1], watched
    assert "直した 本文カード1" in "".join(texts(ws / "build" / "test" / "cards.pdf"))


def test_watch_says_what_it_waits_for_when_the_games_folders_are_gone_and_builds_them_back(tmp_path, capsys):
    """The game's folders moved away while ``watch`` runs (the workspace renamed, a branch without
    the game checked out): it said 'watching  and printers.yaml' (a list of nothing; here, with
    the test's fonts folder leading out, 'watching fonts/*.ttf and printers.yaml'), as if all were
    well. It says it waits for the game's folder, and builds it when it is back."""
    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2"])
    away = tmp_path / "away"
    away.mkdir()
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        ws, "watch", "--game", "test", "--no-rulebook", "--max-builds", "3", "--jobs", "1")), daemon=True)
    watcher.start()
    said = ""
    for _ in range(300):
        said += capsys.readouterr().out
        if "watching data/test" in said:
            break
        time.sleep(0.05)
    for folder in ("data", "templates"):
        shutil.move(ws / folder / "test", away / folder)
    for _ in range(300):
        said += capsys.readouterr().out
        if said.count("watching") == 2:
            break
        time.sleep(0.05)
    assert ("watching fonts/*.ttf and printers.yaml, and for data/test/ to be back (not there: moved, deleted, the "
            "workspace renamed?)") in said, said
    for folder in ("data", "templates"):
        shutil.move(away / folder, ws / folder / "test")
    watcher.join(30)
    assert done == [0], capsys.readouterr()
    assert "test: fixed, built again" in said + capsys.readouterr().out  # (back, built)


def test_a_saves_output_folder_error_in_watch_names_the_default_output_folder(tmp_path, capsys):
    """A save's build stopped by the output folder (a folder made where cards.pdf goes) printed
    'build: --out: …' in ``watch``, naming an option never typed, where build, check and export
    say 'the default output folder (no --out given)' (commandline.default_out_said)."""
    ws = make_workspace(tmp_path / "ws", ["カード1"])
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        ws, "watch", "--game", "test", "--no-rulebook", "--max-builds", "2", "--jobs", "1")), daemon=True)
    watcher.start()
    cards = ws / "build" / "test" / "cards.pdf"
    for _ in range(300):  # the first build
        if "watching data/test" in capsys.readouterr().out:
            break
        time.sleep(0.05)
    assert cards.is_file()
    cards.unlink()
    (cards / "in-the-way").mkdir(parents=True)  # a folder where the save's build writes its file
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "書き直した"), encoding="utf-8")
    watcher.join(30)
    err = capsys.readouterr().err
    assert done == [0] and "pnpgen: error: build: the default output folder (no --out given): test/cards.pdf: " \
        "a folder stands where this output file goes" in err, err
    assert "--out" not in err.replace("no --out given", ""), err
