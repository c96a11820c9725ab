"""``pnpgen clean --out DIR`` pointed at a folder pnpgen never wrote (a typo, the wrong tab
completed) removes nothing there and writes nothing there: no lock file is left behind to make
the folder look like an output folder to the next build, and a ``.history/`` of someone else's
is not taken for pnpgen's recorded versions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _documents(tmp_path: Path) -> Path:
    mine = tmp_path / "documents"
    (mine / ".history" / "test").mkdir(parents=True)
    (mine / ".history" / "test" / "v00001.json").write_text('{"my editor": "its own history"}', encoding="utf-8")
    (mine / "tax-2026.pdf").write_bytes(b"not pnpgen's")
    return mine


def test_clean_at_a_folder_pnpgen_never_wrote_changes_nothing_there(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    mine = _documents(tmp_path)
    before = _tree(mine)
    for more in ((), ("--history",), ("--game", "test", "--history")):
        assert run(ws, "clean", "--out", str(mine), *more) == 0
        assert "nothing pnpgen wrote" in capsys.readouterr().out
        assert _tree(mine) == before


def test_after_clean_at_a_foreign_folder_a_build_there_is_still_refused(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    mine = _documents(tmp_path)
    assert run(ws, "clean", "--out", str(mine)) == 0
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(mine)) == 2
    assert "did not write" in capsys.readouterr().err
    assert not (mine / "test").exists()


@pytest.mark.parametrize("linked", ["test", "test/doujin"])
def test_clean_removes_nothing_through_a_link_put_where_an_output_folder_was(tmp_path, capsys, linked):
    """The game's folder (or an export's) moved elsewhere, a copy of its very bytes, and a link
    left in its place (to an archive of what went to the printer): pnpgen writes through no link,
    so what one leads to is not its to remove, whatever its bytes; clean removed them."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    folder = ws / "build" / linked
    archive = tmp_path / "printed"
    shutil.copytree(folder, archive)
    shutil.rmtree(folder)
    folder.symlink_to(archive, target_is_directory=True)
    before = _tree(archive)
    assert {"cards.pdf", "export.json"} & set(before)
    capsys.readouterr()
    assert run(ws, "clean") == 0
    assert _tree(archive) == before
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"build/{linked}: left as it is: a link where pnpgen's folder was" in err, err
    assert folder.is_symlink()


def test_clean_reads_and_removes_nothing_through_a_cache_that_is_a_link(built_workspace, tmp_path, capsys):
    """``build/.cache`` (pnpgen's records of what it wrote) moved elsewhere and linked back: a
    build refuses it; clean read the records through the link, removed the outputs and deleted
    records and cache entries in the folder it leads to. Now nothing is touched, and it says so."""
    cache = built_workspace / "build" / ".cache"
    elsewhere = tmp_path / "elsewhere"
    shutil.move(cache, elsewhere)
    cache.symlink_to(elsewhere, target_is_directory=True)
    before, outputs = _tree(elsewhere), _tree(built_workspace / "build" / "test")
    assert "cards.pdf" in outputs
    capsys.readouterr()
    assert run(built_workspace, "clean") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "build/.cache: is a link to another folder" in err, err
    assert _tree(elsewhere) == before and _tree(built_workspace / "build" / "test") == outputs


@pytest.mark.parametrize("history", [False, True])
def test_clean_of_a_game_takes_nothing_of_a_game_named_like_its_edition(tmp_path, capsys, history):
    """data/test.en/ beside data/test/ (a game folder copied for its English version by hand): its
    state (.cache/test.en.json), its files and its versions (.history/test.en/) read as test's
    English edition's, and ``clean --game test`` removed them all (hostile22). Such a pair is now
    refused by every command that loads a game (data/names.py), but an earlier pnpgen built it, one
    game at a time, into a build/ a clean still meets."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    (ws / "data" / "test").rename(ws / "data" / "held")  # (test.en alone: no pair to refuse)
    shutil.copytree(ws / "data" / "held", ws / "data" / "test.en")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "test.en")
    assert run(ws, "build", "--game", "test.en", "--no-rulebook") == 0
    (ws / "data" / "held").rename(ws / "data" / "test")
    build = ws / "build"
    other = {**_tree(build / "test.en"), **{f"h/{k}": v for k, v in _tree(build / ".history" / "test.en").items()}}
    assert "cards.pdf" in other and (build / ".cache" / "test.en.json").is_file()
    capsys.readouterr()
    assert run(ws, "clean", "--game", "test", *(["--history"] if history else [])) == 0
    assert not (build / "test").exists()
    assert {**_tree(build / "test.en"), **{f"h/{k}": v for k, v in _tree(build / ".history" / "test.en").items()}} == other
    assert (build / ".cache" / "test.en.json").is_file()
    if not history:
        assert "kept the 1 version recorded" in capsys.readouterr().out  # test's own, not test.en's too
    assert run(ws, "clean", "--game", "test.en", "--history") == 0
    assert not (build / "test.en").exists() and not (build / ".history" / "test.en").exists()
