"""``PNPGEN_CACHE`` naming a folder that holds another's files (``$HOME``, another program's
cache): pnpgen wrote its key and kinds' folders among them, made a folder named as one of its
kinds (``fonts/``) its user's alone, and its sweep removed from it the 40-hex-named files unused
for 60 days. Refused now, exit 2, nothing written or changed; a folder of pnpgen's own is marked
(CACHEDIR.TAG), and one from before the mark is still pnpgen's."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run
from pnpgen import usercache

OLD = 61 * 86400


def _strangers_folder(where: Path) -> dict[str, tuple[int, float]]:
    """A home-like folder: a dotfile, and a ``fonts/`` of the user's whose file is named like an
    entry and untouched for 61 days; what it holds, with each file's mode and time."""
    (where / "fonts").mkdir(parents=True)
    (where / ".bashrc").write_text("export PS1='$ '\n")
    kept = where / "fonts" / ("a" * 40)
    kept.write_bytes(b"a font of the user's")
    os.utime(kept, (time.time() - OLD, time.time() - OLD))
    os.chmod(where / "fonts", 0o775)
    return _listing(where)


def _listing(where: Path) -> dict[str, tuple[int, float]]:
    return {str(p.relative_to(where)): (p.lstat().st_mode, p.lstat().st_mtime) for p in sorted(where.rglob("*"))}


def test_a_build_refuses_a_cache_folder_holding_anothers_files(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    before = _strangers_folder(home)
    monkeypatch.setenv("PNPGEN_CACHE", str(home))
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "-q") == 2
    err = capsys.readouterr().err
    assert "PNPGEN_CACHE" in err and str(home) in err and "did not write" in err, err
    assert "PNPGEN_CACHE=off" in err and f"PNPGEN_CACHE={home / 'pnpgen'}" in err and "Traceback" not in err
    assert _listing(home) == before  # no secret, no templates/, fonts/ neither changed nor swept
    assert not (ws / "build").exists()


def test_the_cache_keeps_nothing_in_a_strangers_folder(tmp_path, monkeypatch):
    """Below the commands (a script calling the engine): nothing written, swept or made private."""
    home = tmp_path / "home"
    before = _strangers_folder(home)
    monkeypatch.setenv("PNPGEN_CACHE", str(home))
    usercache.put("fonts", "b" * 40, [1])
    assert usercache.get("fonts", "b" * 40) is None
    assert usercache.secret() is None
    assert _listing(home) == before


@pytest.mark.parametrize("made", ["missing", "empty", "from before the mark"])
def test_a_folder_of_pnpgens_own_is_used_and_marked(tmp_path, monkeypatch, made):
    cache = tmp_path / "cache"
    if made != "missing":
        cache.mkdir(mode=0o700)
    if made == "from before the mark":  # as pnpgen wrote its caches before CACHEDIR.TAG
        (cache / "fonts").mkdir(mode=0o700)
        (cache / "fonts" / ("c" * 40)).write_bytes(b"")
        (cache / "swept-fonts").write_bytes(b"")
        (cache / "secret").write_bytes(os.urandom(32))
        os.chmod(cache / "secret", 0o600)
    monkeypatch.setenv("PNPGEN_CACHE", str(cache))
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "-q", "--no-rulebook") == 0
    tag = (cache / "CACHEDIR.TAG").read_bytes()
    assert tag.startswith(b"Signature: 8a477f597d28d172789f06886806bc55") and b"pnpgen" in tag
    assert stat.S_IMODE((cache / "CACHEDIR.TAG").stat().st_mode) == 0o600
    assert usercache.secret() is not None and usercache.folder("fonts") == cache / "fonts"
    (cache / "notes.txt").write_text("mine")  # marked: a file put there later does not unmake it
    usercache.stranger.cache_clear()
    assert run(ws, "build", "--game", "test", "-q", "--no-rulebook") == 0


def test_calibrate_refuses_it_too(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    before = _strangers_folder(home)
    monkeypatch.setenv("PNPGEN_CACHE", str(home))
    monkeypatch.chdir(tmp_path)
    assert run(tmp_path, "calibrate", "--out", str(tmp_path / "sheet.pdf")) == 2
    assert "did not write" in capsys.readouterr().err
    assert _listing(home) == before and not (tmp_path / "sheet.pdf").exists()


def test_a_cache_from_before_the_mark_is_marked_once_read(tmp_path):
    """Read only (a check that finds every entry kept): listed once, then marked, not listed by every run."""
    cache = tmp_path / "cache"
    (cache / "yaml").mkdir(parents=True, mode=0o700)
    os.chmod(cache, 0o700)
    (cache / "yaml" / ("d" * 40)).write_bytes(b"")
    assert usercache.stranger(cache) is None
    assert (cache / "CACHEDIR.TAG").read_bytes() == usercache.TAG_TEXT


def test_a_cache_from_before_the_mark_opened_in_finder_is_still_pnpgens(tmp_path):
    """The system's litter (a Finder's .DS_Store) is not a stranger's file: the cache is marked, not refused."""
    cache = tmp_path / "cache"
    (cache / "yaml").mkdir(parents=True, mode=0o700)
    os.chmod(cache, 0o700)
    (cache / "yaml" / ("d" * 40)).write_bytes(b"")
    (cache / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    assert usercache.stranger(cache) is None
    assert (cache / "CACHEDIR.TAG").read_bytes() == usercache.TAG_TEXT
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".DS_Store").write_bytes(b"")
    (tmp_path / "home" / ".bashrc").write_text("alias ll='ls -l'")
    assert usercache.stranger(tmp_path / "home") == ".bashrc"


def test_the_pnpgen_folder_of_xdg_cache_home_holding_anothers_file_is_named_to_empty(tmp_path, monkeypatch, capsys):
    """XDG_CACHE_HOME/pnpgen is pnpgen's by its name: what to do is move the stranger's file out
    (a PNPGEN_CACHE of <it>/pnpgen/pnpgen, as said for PNPGEN_CACHE, would be no answer)."""
    monkeypatch.delenv("PNPGEN_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "xdg" / "pnpgen").mkdir(parents=True)
    (tmp_path / "xdg" / "pnpgen" / "notes.txt").write_text("mine")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "-q") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pnpgen: error: XDG_CACHE_HOME makes {tmp_path / 'xdg' / 'pnpgen'} pnpgen's machine cache"), err
    assert "(move notes.txt out of it)" in err and "pnpgen/pnpgen" not in err
    assert sorted(p.name for p in (tmp_path / "xdg" / "pnpgen").iterdir()) == ["notes.txt"]
