"""Links in the build folder. A file of it may share its bytes with a file elsewhere: a hard
link, as ``cp -al`` makes for a quick copy of a workspace (or a planted folder from a stranger's
zip); pnpgen writes every file of its own anew, never into the bytes a link shares. A folder of
it may be a link to a folder elsewhere: no command writes through it."""

from __future__ import annotations

import os

from conftest import FEW_CARDS, make_workspace, run


def test_a_hard_linked_file_table_is_replaced_not_written_through(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    table = ws / "build" / ".cache" / "hashes" / "files.json"
    assert table.is_file()
    victim = tmp_path / "elsewhere.txt"
    victim.write_text("the designer's own notes\n", encoding="utf-8")
    table.unlink()
    os.link(victim, table)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: 新しいカード, text: 本文}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert victim.read_text(encoding="utf-8") == "the designer's own notes\n"
    assert table.stat().st_nlink == 1 and b'"format": 2' in table.read_bytes()


def test_a_hard_linked_copy_of_a_workspace_leaves_the_first_one_as_it_was(tmp_path):
    first = make_workspace(tmp_path / "first")
    assert run(first, "build", "--game", "test", "--no-rulebook") == 0
    before = {p: p.read_bytes() for p in (first / "build").rglob("*") if p.is_file() and not p.is_symlink()}
    second = tmp_path / "second"
    for path in first.rglob("*"):  # cp -al: folders made, files linked
        to = second / path.relative_to(first)
        if path.is_symlink():
            to.parent.mkdir(parents=True, exist_ok=True)
            to.symlink_to(os.readlink(path))
        elif path.is_dir():
            to.mkdir(parents=True, exist_ok=True)
        else:
            to.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, to)
    deck = second / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.unlink()  # an editor's save: a new file
    deck.write_text(text + "  - {name: 新しいカード, text: 本文}\n", encoding="utf-8")
    assert run(second, "build", "--game", "test", "--no-rulebook") == 0
    assert {p: p.read_bytes() for p in before} == before


def test_reprint_writes_through_no_link_where_the_game_folder_was(tmp_path, capsys):
    """A link put where build/<game>/ was (to a shared folder, say): build and export refuse to write
    through it, and so does reprint now (it wrote its two files into the folder the link led to)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "本文カード1改}"), encoding="utf-8")
    elsewhere = tmp_path / "shared"
    (ws / "build" / "test").rename(elsewhere)
    (ws / "build" / "test").symlink_to(elsewhere)
    before = sorted(p.name for p in elsewhere.iterdir())
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: build/test: a link stands where a folder of the output goes (test/reprint-since"
                          "-v1.pdf goes in that folder)") and len(err.splitlines()) == 1
    assert "--out" not in err  # none was given (hostile26): the thing in the way is named, not an option
    assert sorted(p.name for p in elsewhere.iterdir()) == before
    (ws / "build" / "test").unlink()
    elsewhere.rename(ws / "build" / "test")
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0
    assert (ws / "build" / "test" / "reprint-since-v1.pdf").is_file()


def test_a_build_folder_linked_out_of_the_workspace_is_neither_read_nor_written(tmp_path, capsys):
    """build/ a link to a folder outside the workspace (a downloaded workspace's build -> ~/Documents,
    or a shared drive): every command followed it, reading its records (.cache, .history) and
    writing the build there. It is refused as a data/ or templates/ leading out is, in one line
    naming --out, the way to build elsewhere on purpose; a link to a folder inside is taken."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir()
    (ws / "build").symlink_to(elsewhere)
    for command in (["build", "--game", "test", "--no-rulebook"], ["log", "--game", "test"], ["clean"]):
        capsys.readouterr()
        assert run(ws, *command) == 2, command
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "build: a link to " in err, err
        assert f"pnpgen reads and writes no build/ outside it unless told so (expected build/ a folder, or the " \
               f"output there named on the command line: --out {elsewhere} (and the link removed))" in err, err
    assert list(elsewhere.iterdir()) == []
    (ws / "build").unlink()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(elsewhere)) == 0
    assert (elsewhere / "test" / "cards.pdf").is_file()
    (ws / "inside").mkdir()
    (ws / "build").symlink_to(ws / "inside")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (ws / "inside" / "test" / "cards.pdf").is_file()
