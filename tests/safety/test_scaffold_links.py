"""``pnpgen layout export`` and ``pnpgen new`` never overwrite: a name already taken by a link,
even one whose target is gone (a dangling link), is taken. They once wrote the front template,
then stopped with a traceback at the back's dangling link: half a pair, exit 1."""

from __future__ import annotations

from pathlib import Path

from conftest import FEW_CARDS, make_workspace, run


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_dangling_link_where_layout_export_writes_the_back_is_refused_before_the_front(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    gone = tmp_path / "elsewhere" / "gone.svg.j2"
    (ws / "mine-back.svg.j2").symlink_to(gone)
    assert run(ws, "layout", "export", "card-poker", "--out", "mine.svg.j2") == 2
    err = _one_line(capsys)
    assert "mine-back.svg.j2 already exists" in err
    assert not (ws / "mine.svg.j2").exists() and not gone.parent.exists()
    assert (ws / "mine-back.svg.j2").is_symlink()


def test_layout_export_into_a_folder_it_cannot_write_is_one_line_and_writes_nothing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "layout", "export", "card-poker", "--out", "/proc/mine.svg.j2") == 2
    assert "/proc" in _one_line(capsys)


def test_new_over_a_dangling_link_is_refused_and_writes_nothing_through_it(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    gone = tmp_path / "elsewhere" / "g2"
    (ws / "data" / "g2").symlink_to(gone)
    assert run(ws, "new", "g2") == 2
    assert "data/g2 already exists" in _one_line(capsys)
    assert not gone.parent.exists() and (ws / "data" / "g2").is_symlink()


def test_new_in_a_folder_whose_data_is_a_link_out_writes_nothing_there(tmp_path, capsys):
    """A folder that is no workspace yet, its data/ a link to a folder elsewhere (empty, so no
    workspace is found): pnpgen new wrote data/g/ through it, outside the workspace, and every
    later command refused that data/ ("pnpgen reads no data/ outside it")."""
    here, yours = tmp_path / "here", tmp_path / "yours"
    here.mkdir()
    yours.mkdir()
    (here / "data").symlink_to(yours, target_is_directory=True)
    assert run(here, "new", "g") == 2
    assert "not a folder of the workspace: pnpgen reads no data/ outside it" in _one_line(capsys)
    assert list(yours.iterdir()) == [] and sorted(p.name for p in here.iterdir()) == ["data"]


def test_layout_export_writes_both_sides_when_the_names_are_free(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "layout", "export", "card-poker", "--out", "mine.svg.j2") == 0
    assert sorted(p.name for p in Path(ws).glob("mine*")) == ["mine-back.svg.j2", "mine.svg.j2"]


def test_layout_export_into_a_workspace_folder_linked_out_writes_nothing_there(tmp_path, capsys):
    """A stranger's templates/<game> a link to a folder of yours: 'pnpgen layout export --game G
    --deck D --out templates/G/' (the line pnpgen new prints) wrote the templates there, which no
    build reads (none reads a template through a link leading out)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    yours = tmp_path / "yours"
    yours.mkdir()
    (ws / "templates" / "other").symlink_to(yours, target_is_directory=True)
    for out in ("templates/other/", "templates/other/new/mine.svg.j2"):
        assert run(ws, "layout", "export", "card-poker", "--out", out) == 2
        assert "leads through a link to a folder outside the workspace" in _one_line(capsys)
    assert list(yours.iterdir()) == []
    assert run(ws, "layout", "export", "card-poker", "--out", str(yours) + "/") == 0  # named as it is: written
    assert sorted(p.name for p in yours.iterdir()) == ["card-poker-back.svg.j2", "card-poker-front.svg.j2"]


def test_layout_export_to_a_name_starting_with_a_dash_writes_nothing(tmp_path, capsys):
    """--out - (a program's usual 'standard output') wrote the files '-' and '--back.svg.j2', which
    'rm *' and the like take for an option."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "layout", "export", "card-poker", "--out", "-") == 2
    assert "starting with '-'" in _one_line(capsys)
    assert not (ws / "-").exists() and not (ws / "--back.svg.j2").exists()
