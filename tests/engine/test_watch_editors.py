"""Editors and the system write their own files beside the designer's while a file is open or
being saved (pnpgen/litter.py lists them): Vim's swap file and its ``4913`` probe, backups,
Emacs's lock links and autosaves, Office's lock files, macOS's ``._`` files, JetBrains' safe
write. Each rebuilt ``watch`` and had the build say "passed over" for the decks/ ones; a save
through such an editor is one rebuild, no word about its files, and none of them is read."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from watchfiles import Change

from conftest import FEW_CARDS, make_workspace, run
from pdfprobe import texts
from pnpgen.data.gamefiles import deck_ids_in
from pnpgen.engine.fresh import worth_a_build
from pnpgen.litter import is_litter

Step = Callable[[Path], set[tuple[Change, str]]]  # does what the editor does in decks/, gives the watcher's batch
SWAP = b"b0VIM 9.1\x00\x00\x10\x00" + bytes(range(256))  # a swap file: not YAML, not UTF-8


def _write(path: Path, data: bytes | str) -> tuple[Change, str]:
    existed = path.exists()
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return (Change.modified if existed else Change.added, str(path))


def _delete(path: Path) -> tuple[Change, str]:
    path.unlink()
    return (Change.deleted, str(path))


def _rename(path: Path, to: Path) -> list[tuple[Change, str]]:
    path.rename(to)
    return [(Change.deleted, str(path)), (Change.added, str(to))]


def _edited(decks: Path) -> str:
    return (decks / "cards.yaml").read_text(encoding="utf-8").replace("本文カード2", "保存した本文")


def _vim(decks: Path) -> list[Step]:
    """Vim (writebackup, backup by rename): the swap file on opening, then the save — the 4913
    probe, the file renamed to its backup, the new file, the backup removed — then quitting."""
    def save(d: Path) -> set[tuple[Change, str]]:
        new = _edited(d)
        return {_write(d / "4913", b""), _delete(d / "4913"), *_rename(d / "cards.yaml", d / "cards.yaml~"),
                _write(d / "cards.yaml", new), _delete(d / "cards.yaml~")}
    return [lambda d: {_write(d / ".cards.yaml.swp", SWAP), _write(d / ".cards.yaml.swx", SWAP)},
            lambda d: {_write(d / "4913", b"")}, lambda d: {_delete(d / "4913")},  # (a probe seen on its own)
            save, lambda d: {_write(d / ".cards.yaml.swp", SWAP + b"\x01")},
            lambda d: {_delete(d / ".cards.yaml.swp"), _delete(d / ".cards.yaml.swx")}]


def _emacs(decks: Path) -> list[Step]:
    """Emacs: the lock link on the first change, an autosave, then the save (the first one keeps
    the old file as ``cards.yaml~``, which stays), the autosave removed; the lock last."""
    def lock(d: Path) -> set[tuple[Change, str]]:
        (d / ".#cards.yaml").symlink_to("designer@studio.1234:1700000000")
        return {(Change.added, str(d / ".#cards.yaml"))}

    def save(d: Path) -> set[tuple[Change, str]]:
        new = _edited(d)
        return {*_rename(d / "cards.yaml", d / "cards.yaml~"), _write(d / "cards.yaml", new), _delete(d / "#cards.yaml#")}
    return [lock, lambda d: {_write(d / "#cards.yaml#", "name: [half an edit")}, save,
            lambda d: {_delete(d / ".#cards.yaml")}]


def _office_and_mac(decks: Path) -> list[Step]:
    """LibreOffice's and Excel's lock files, macOS's ``._`` and ``.DS_Store``, JetBrains' safe write."""
    def jetbrains(d: Path) -> set[tuple[Change, str]]:
        new = _edited(d)
        tmp, old = d / "cards.yaml___jb_tmp___", d / "cards.yaml___jb_old___"
        return {_write(tmp, new), *_rename(d / "cards.yaml", old), *_rename(tmp, d / "cards.yaml"), _delete(old),
                _write(d / "._cards.yaml", b"\x00\x05\x16\x07Mac OS X")}
    return [lambda d: {_write(d / ".~lock.cards.ods#", ",designer,studio,01.12.2026 10:00,file:///;"),
                       _write(d / "~$cards.xlsx", SWAP)},
            lambda d: {_write(d / ".DS_Store", SWAP), _write(d / "._cards.yaml", b"\x00\x05\x16\x07Mac OS X")},
            lambda d: {_write(d / "cards.yaml.tmp.1234", "name: [half")}, lambda d: {_delete(d / "cards.yaml.tmp.1234")},
            jetbrains]


@pytest.mark.parametrize("editor", [_vim, _emacs, _office_and_mac])
def test_a_save_through_an_editor_is_one_rebuild_and_its_files_are_not_read(tmp_path, monkeypatch, capsys, editor):
    """``watch`` as it runs, the watcher's batches given one step of the editor at a time (the
    worst case: a slow disk; a save's own steps in one batch, as they come within microseconds)."""
    import watchfiles

    from pnpgen import commands

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    steps = editor(decks)

    def batches(*folders, **options):
        yield set()  # the watcher runs: the first build
        for step in steps:
            yield step(decks)

    builds: list[int] = []
    real_build = commands.build

    def build(ws_, args, warm=None, heading=None):
        builds.append(real_build(ws_, args, warm, heading=heading))
        return builds[-1]

    monkeypatch.setattr(watchfiles, "watch", batches)
    monkeypatch.setattr(commands, "build", build)
    assert run(ws, "watch", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert builds == [0, 0], err  # the first build and the save's
    assert "passed over" not in err and "warning" not in err, err
    assert "保存した本文" in "".join(texts(ws / "build" / "test" / "cards.pdf"))


def test_the_watcher_builds_a_save_one_short_step_after_it_goes_quiet(tmp_path, monkeypatch):
    """watchfiles gives a batch once a whole ``step`` passed with no new change after the tick
    that saw the save: a save is built some 1.5 steps after it is made (20 ms: 29 ms measured,
    10 ms: 14 ms), all of it on a watch save's 0.25 s; an editor's save is one write, or a few
    within a millisecond (the editors above)."""
    import watchfiles

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    asked: dict = {}

    def batches(*folders, **options):
        asked.update(options)
        yield from ()

    monkeypatch.setattr(watchfiles, "watch", batches)
    assert run(ws, "watch", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert asked["step"] <= 10 and asked["debounce"] >= 10 * asked["step"]


def test_an_editors_files_do_not_make_a_built_game_out_of_date(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data" / "test" / "art").mkdir()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    decks = ws / "data" / "test" / "decks"
    for name in (".cards.yaml.swp", "4913", "cards.yaml~", "#cards.yaml#", "._cards.yaml", ".DS_Store"):
        (decks / name).write_bytes(SWAP)
    (ws / "data" / "test" / "art" / "._dragon.png").write_bytes(SWAP)
    (ws / "templates" / "test" / ".card-front.svg.j2.swp").write_bytes(SWAP)
    os.symlink("designer@studio.1234", decks / ".#cards.yaml")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr()
    assert "test: up to date" in said.out and said.err == "", said


def test_a_copy_kept_aside_is_still_noted(tmp_path, capsys):
    """``cards.yaml.bak`` is the designer's own copy, not an editor's: the build says it is no deck."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data" / "test" / "decks" / "cards.yaml.bak").write_text("name: old", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "cards.yaml.bak: passed over (a copy kept aside, not a deck)" in capsys.readouterr().err


@pytest.mark.parametrize("copy", ["cards - コピー.yaml", "cards - Copy (2).yaml", "cards のコピー.yaml", "cards copy 2.yaml",
                                  "cards (1).yaml"])
def test_a_file_managers_copy_of_a_deck_is_noted_not_printed_twice(tmp_path, capsys, copy):
    """Windows' 'cards - コピー.yaml' beside cards.yaml was a second deck: every card twice, no word
    said. A copy whose original is gone is a deck like any other."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    (decks / copy).write_bytes((decks / "cards.yaml").read_bytes())
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr()
    assert "(1 deck," in said.out, said.out
    assert f"decks/{copy}: passed over (a copy of cards.yaml, as a file manager names one, not a deck" in said.out
    assert deck_ids_in(decks) == ["cards"]
    (decks / "cards.yaml").unlink()
    assert run(ws, "check", "--game", "test") == 0
    assert "(1 deck," in capsys.readouterr().out and deck_ids_in(decks) == [Path(copy).stem]


@pytest.mark.parametrize("copy", ["cards - Copie.yaml", "cards - Kopie.yaml", "cards Kopie.yaml", "cards copie.yaml",
                                  "cards - copia.yaml", "cards - 副本.yaml", "cards - 複製.yaml", "cards 복사본.yaml",
                                  "cards - Копия.yaml", "Copy of cards.yaml", "cards - コピー - コピー.yaml", "cards 2.yaml"])
def test_a_copy_named_by_a_file_manager_in_another_language_is_a_copy(tmp_path, copy):
    """hostile39: a French or German Windows' copy, 'cards - Copie.yaml', a copy's copy, and macOS's
    'cards 2.yaml' were built as second decks, every card printed twice. A name that is only a
    number after the deck's ('season 2.yaml') is a copy while it holds the deck's bytes, and a deck
    of its own once it holds others; 'Copy of the King.yaml' with no 'the King.yaml' is a deck."""
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "cards.yaml").write_text("name: x\n", encoding="utf-8")
    (decks / copy).write_text("name: x\n", encoding="utf-8")
    (decks / "Copy of the King.yaml").write_text("name: y\n", encoding="utf-8")
    assert deck_ids_in(decks) == ["Copy of the King", "cards"]
    (decks / copy).write_text("name: z\n", encoding="utf-8")
    assert deck_ids_in(decks) == (["Copy of the King", "cards", "cards 2"] if copy == "cards 2.yaml"
                                  else ["Copy of the King", "cards"])


def test_a_copy_edited_apart_from_its_deck_says_its_edits_are_not_built(tmp_path, capsys):
    """hostile39: a copy that differs from its deck was said to 'print twice', which it would not:
    what it adds or changes is what the build leaves out."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards - Copie.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8") + "  - {name: 新}\n",
                                              encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr().out
    assert "(1 deck, 3 pieces" in said and ("decks/cards - Copie.yaml: passed over (a copy of cards.yaml, as a file "
                                            "manager names one, not a deck: it differs from that file: what it adds or "
                                            "changes is not built; give it a name") in said, said


def test_a_hidden_deck_file_is_noted_not_built_in_silence(tmp_path, capsys):
    """``..cards.yaml`` or ``.cards.yaml`` is hidden, so no deck — but no editor makes it: the build
    says it passed it over and the name that would build it."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "..cards.yaml")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "decks/..cards.yaml: passed over (a hidden file, not a deck: name it cards.yaml to build it)" \
        in capsys.readouterr().err


@pytest.mark.parametrize(("name", "fix"), [("..yaml", "give it a name before .yaml (the deck's id, say cards.yaml)"),
                                            ("...yml", "give it a name before .yml (the deck's id, say cards.yml)"),
                                            (".yaml", "give it a name before .yaml (the deck's id, say cards.yaml)"),
                                            (".monsters.yml", "name it monsters.yml")])
def test_a_hidden_deck_file_with_no_name_is_told_to_get_one(tmp_path, capsys, name, fix):
    """``..yaml`` stripped of its dots is ``yaml``: "name it yaml" named no deck file."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    (decks / name).write_text((decks / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr()
    assert f"decks/{name}: passed over (a hidden file, not a deck: {fix} to build it)" in said.out + said.err


@pytest.mark.parametrize("name", [".cards.yaml.swp", ".cards.yaml.swo", ".cards.yaml.swx", "4913", "5036", "cards.yaml~",
                                  ".#cards.yaml", "#cards.yaml#", ".~lock.deck.ods#", "~$deck.xlsx", "._cards.yaml",
                                  ".DS_Store", "cards.yaml.tmp.1234", "cards.yaml___jb_tmp___", "cards.yaml___jb_old___"])
def test_editor_files_are_litter(name):
    assert is_litter(name)
    assert not worth_a_build({(Change.added, f"/ws/data/test/decks/{name}")}, Path("/ws/build"))


@pytest.mark.parametrize("name", ["cards.yaml", "deck.ods", "deck.xlsx", "dragon.png", "card-front.svg.j2", "4913.png",
                                  "NotoSansJP.ttf", "draft.txt", "cards.bak.yaml", "dragon.tmp.png", "~dragon.png"])
def test_designers_files_are_not_litter(name):
    assert not is_litter(name)
    assert worth_a_build({(Change.added, f"/ws/data/test/decks/{name}"), (Change.added, "/ws/data/test/decks/4913")},
                         Path("/ws/build"))


@pytest.mark.parametrize("folder", ["2024", "1", ".DS_Store_pictures~"])
def test_a_folder_dragged_in_is_worth_a_build_whatever_its_name(tmp_path, folder):
    """A folder of pictures named 2024 (or 1) dropped into art/ is one change, of the folder: its
    name matched Vim's probe (4913), and the preview stayed on the pictures before it."""
    art = tmp_path / "ws" / "data" / "test" / "art" / folder
    art.mkdir(parents=True)
    (art / "dragon.png").write_bytes(b"")
    assert worth_a_build({(Change.added, str(art))}, tmp_path / "ws" / "build")
    assert not worth_a_build({(Change.added, str(art.parent / "4913"))}, tmp_path / "ws" / "build")  # a file, gone


def test_an_emacs_lock_link_beside_a_template_does_not_end_the_build(tmp_path, capsys):
    """A face's picture not found is named at the template line that wrote it, read from each of
    the game's templates: Emacs's lock link ``.#card-front.svg.j2`` (a link to no file) was read
    too, and the build ended with a traceback instead of the one-line error."""
    from conftest import FRONT

    computed = FRONT.replace("{% endblock %}", '<image href="{{ \'art/\' ~ \'missing.png\' }}" width="10" height="10"/>\n{% endblock %}')
    ws = make_workspace(tmp_path / "ws", front=computed)
    os.symlink("designer@studio.1234:1700000000", ws / "templates" / "test" / ".#card-front.svg.j2")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("pnpgen: error: ") and "missing.png" in err, err
