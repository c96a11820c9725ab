"""A game's own folder (data/<slug>/) or its templates' (templates/<slug>/) a link to a folder
outside the workspace, and a template included through a link leading out: each refused at its
first name, as before, but none of the files out there opened first (the up-to-date check hashed
every file under data/<slug>/ and templates/<slug>/ through the link; the template loader read
an included template before asking where it led)."""

from __future__ import annotations

import builtins
import io
import shutil
from pathlib import Path

from conftest import FEW_CARDS, make_workspace, run

SECRET = "秘密の合言葉XYZZY"


def _opened(monkeypatch) -> list[Path]:
    """Every file this process opens from now on by a name (resolved): io.open, as pathlib reads,
    and the builtin open, as Jinja's loader reads."""
    opened: list[Path] = []
    real = io.open

    def watched(file, *args, **kwargs):
        if isinstance(file, (str, Path)):
            opened.append(Path(file).resolve())
        return real(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", watched)
    monkeypatch.setattr(builtins, "open", watched)
    return opened


def _moved_out(ws: Path, folder: str, elsewhere: Path) -> None:
    shutil.move(ws / folder, elsewhere)
    (ws / folder).symlink_to(elsewhere, target_is_directory=True)


def test_a_games_folder_linked_out_is_refused_with_none_of_its_files_opened(tmp_path, capsys, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    elsewhere = tmp_path / "elsewhere"
    _moved_out(ws, "data/test", elsewhere)
    (elsewhere / "notes.txt").write_text(SECRET, encoding="utf-8")
    opened = _opened(monkeypatch)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game.yaml" in err and "is outside data/" in err, err
    assert opened and not [p for p in opened if elsewhere in p.parents]


def test_a_games_templates_folder_linked_out_is_refused_with_none_of_its_files_opened(tmp_path, capsys, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    elsewhere = tmp_path / "elsewhere"
    _moved_out(ws, "templates/test", elsewhere)
    opened = _opened(monkeypatch)
    for command in (("build", "--game", "test", "--no-rulebook", "--jobs", "1"), ("check",)):
        assert run(ws, *command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "templates/test is a link leading out of it" in err, err
    assert opened and not [p for p in opened if elsewhere in p.parents]


def test_an_include_leading_out_is_refused_unopened(tmp_path, capsys, monkeypatch):
    secret = tmp_path / "outside.svg.j2"
    secret.write_text(SECRET, encoding="utf-8")
    front = "{% extends 'common/piece.svg.j2' %}\n{% block art %}\n{% include 'test/out.svg.j2' %}\n{% endblock %}\n"
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, front=front)
    (ws / "templates/test/out.svg.j2").symlink_to(secret)
    opened = _opened(monkeypatch)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "template 'test/out.svg.j2' leads outside templates/" in err, err
    assert opened and secret.resolve() not in opened
