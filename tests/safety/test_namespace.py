"""Deck ids, game-level files, export files and preset folders share one namespace: a collision
stops the command before anything is written, in one line naming both."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run


def _copy_deck(ws: Path, deck_id: str) -> None:
    decks = ws / "data/test/decks"
    (decks / f"{deck_id}.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")


@pytest.mark.parametrize("deck_id, clash", [
    ("rulebook", "rulebook.pdf"), ("test-all", "test-all.pdf"), ("manifest", "manifest.json"),
    ("order", "order.csv"), ("proof", "proof.txt"), ("export", "export.json"), ("test-contact", "test-contact.png"),
    ("reprint", "reprint.pdf"),  # (a deck reprint.yaml and the copies to reprint were one file)
    ("cards-unique", "shop/cards-unique.pdf"), ("cards-die", "shop/cards-die.pdf"),
])
def test_a_deck_named_like_another_output_stops_before_anything_is_written(tmp_path, capsys, deck_id, clash):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _copy_deck(ws, deck_id)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"decks/{deck_id}.yaml" in err and clash in err
    assert not (ws / "build" / "test").exists()


def test_a_preset_named_like_a_build_folder_is_refused(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "presets").mkdir()
    (ws / "presets" / "shop.yaml").write_text(
        (Path(__file__).resolve().parents[2] / "generator/pnpgen/exports/presets/doujin.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", "shop") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--preset" in err and "shop/" in err
    assert not (ws / "build" / "test").exists()


@pytest.mark.parametrize("name", ["Shop", "CUT", "ink-saver", "Ink-Saver-Grey"])
def test_a_preset_named_like_a_build_folder_in_other_letter_case_is_refused(tmp_path, capsys, name):
    """presets/Shop.yaml exported into build/test/Shop/, which is the build's shop/ on Windows and macOS;
    presets/ink-saver.yaml wrote its cards.pdf over the ink saver's home sheets in ink-saver/."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "presets").mkdir()
    (ws / "presets" / f"{name}.yaml").write_text(
        (Path(__file__).resolve().parents[2] / "generator/pnpgen/exports/presets/doujin.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", name) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"preset {name!r} would export into the build's" in err
    assert not (ws / "build" / "test").exists()


def test_every_folder_the_build_writes_is_kept_from_presets():
    from pnpgen.data.names import BUILD_FOLDERS
    from pnpgen.svg.ink import MODES, InkSaver

    assert {InkSaver(mode).slug for mode in MODES} | {"shop", "cut"} <= set(BUILD_FOLDERS)


@pytest.mark.parametrize("chosen", ["Doujin", "doujin"])
def test_two_presets_differing_in_letter_case_alone_are_refused(tmp_path, capsys, chosen):
    """presets/Doujin.yaml beside the shipped doujin: build/test/Doujin/ and doujin/ are one folder on
    Windows and macOS, and which file --preset doujin reads depends on the file system."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "presets").mkdir()
    (ws / "presets" / "Doujin.yaml").write_text(
        (Path(__file__).resolve().parents[2] / "generator/pnpgen/exports/presets/doujin.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", chosen) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Doujin'" in err and "'doujin'" in err and "same folder" in err, err
    assert not (ws / "build" / "test").exists()


@pytest.mark.parametrize("name", ["aux", "Nul"])
def test_a_preset_named_like_a_windows_device_is_refused(tmp_path, capsys, name):
    """presets/aux.yaml exported into build/test/aux/, a folder Windows cannot hold."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "presets").mkdir()
    (ws / "presets" / f"{name}.yaml").write_text(
        (Path(__file__).resolve().parents[2] / "generator/pnpgen/exports/presets/doujin.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", name) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--preset: preset {name!r} is the name of a Windows device ({name.upper()})" in err, err
    assert not (ws / "build" / "test").exists()


@pytest.mark.parametrize("name", ["../../../etc/passwd", ".hidden", "a/b"])
def test_a_preset_name_is_a_name_not_a_path(tmp_path, capsys, name):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "presets").mkdir()
    for hidden in (".hidden.yaml", "..yaml"):  # files --preset refuses by their names: not offered either
        (ws / "presets" / hidden).write_text("name: x\n", encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", name) == 2
    err = capsys.readouterr().err
    assert "is not a preset name" in err and "(expected one of doujin, " in err and ".hidden," not in err, err


@pytest.mark.parametrize("first, second", [("cards", "Cards"), ("\u30ac", "\u30ab\u3099"), ("cards", "Rulebook")],
                         ids=["letter case", "composed and decomposed", "a game-level file"])
def test_deck_ids_that_are_one_file_on_windows_and_macos_stop_before_anything_is_written(tmp_path, capsys, first,
                                                                                        second):
    """Two decks Linux tells apart, written to a USB stick or a shared drive (or unzipped on a
    Mac): one deck's files replaced the other's, a mixed set with a manifest naming both."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    if first != "cards":
        _copy_deck(ws, first)
    _copy_deck(ws, second)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"decks/{second}.yaml" in err and "Traceback" not in err, err
    assert not (ws / "build" / "test").exists()


def test_a_deck_named_as_reprints_files_stops_before_reprint_writes_over_it(tmp_path, capsys):
    """A deck reprint-since-v1: ``pnpgen reprint --since v1`` wrote its sheet over the deck's
    reprint-since-v1.pdf, and the next build wrote the deck's over the reprint."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _copy_deck(ws, "Reprint-Since-v1")
    for command in (("build", "--game", "test", "--no-rulebook"), ("check",)):
        assert run(ws, *command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "decks/Reprint-Since-v1.yaml" in err, err
        assert "deck id 'Reprint-Since-v1' is a name pnpgen reprint gives its files" in err, err
    assert not (ws / "build" / "test").exists()


def test_a_reserved_deck_id_is_said_at_its_files_line(tmp_path, capsys):
    """A deck file named as a game-level file was said with no line, unlike the other deck-id
    errors' file:line (fixes46's leftover): the deck's name: line, where an editor opens the file."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _copy_deck(ws, "manifest")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert capsys.readouterr().err == ("pnpgen: error: data/test/decks/manifest.yaml:1: deck id 'manifest' is the name "
                                       "of the game's manifest.json (expected another file name for the deck)\n")


@pytest.mark.parametrize("deck_id, trouble, meant", [
    ("aux", "is the name of a Windows device (AUX)", "aux-cards.yaml"),
    ("CON", "is the name of a Windows device (CON)", "CON-cards.yaml"),
    ("nul.old", "is the name of a Windows device (NUL)", "nul-cards.old.yaml"),  # NUL.txt is NUL too
    ("com1", "is the name of a Windows device (COM1)", "com1-cards.yaml"),
    ("a:b", "holds ':', which Windows file names cannot hold", "a-b.yaml"),
    ("what?", "holds '?', which Windows file names cannot hold", "what-.yaml"),
    ("-rf", "starts with '-', which a shell reads as an option (rm *.pdf would)", "rf.yaml"),  # hostile round
])
def test_a_deck_id_windows_cannot_hold_stops_before_anything_is_written(tmp_path, capsys, deck_id, trouble, meant):
    """aux.yaml made aux.pdf: a zip of the build, a USB stick or a shared drive cannot give it to a
    player on Windows (the file cannot be made there)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _copy_deck(ws, deck_id)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err == (f"pnpgen: error: data/test/decks/{deck_id}.yaml:1: deck id {deck_id!r} {trouble}, and it names "
                   f"the deck's files ({deck_id}.pdf…) (expected another file name for the deck, e.g. {meant})\n")
    assert not (ws / "build" / "test").exists()


@pytest.mark.parametrize("deck_id", ["console", "com10", "auxiliary", "nul-old", "lpt"])
def test_names_that_only_start_like_a_windows_device_are_decks(tmp_path, capsys, deck_id):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _copy_deck(ws, deck_id)
    assert run(ws, "list") == 0, capsys.readouterr().err


def test_a_game_folder_windows_cannot_hold_is_refused(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data/test").rename(ws / "data/prn")
    assert run(ws, "build", "--game", "prn", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err == ("pnpgen: error: data/prn: the game's folder name 'prn' is the name of a Windows device (PRN), "
                   "and it names the game's output folder (expected another folder name for the game, e.g. prn-game)\n")
    assert not (ws / "build").exists()


@pytest.mark.parametrize("slug, shown, meant", [("test.", "'.'", "test"), ("test ", "' '", "test")])
def test_a_game_folder_ending_in_a_dot_or_space_is_refused(tmp_path, capsys, slug, shown, meant):
    """build/test./ holds the game's files: Windows drops the dot, and the folder cannot be copied there."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    for top in ("data", "templates"):
        (ws / top / "test").rename(ws / top / slug)
    assert run(ws, "build", "--game", slug, "--no-rulebook") == 2
    assert capsys.readouterr().err == (f"pnpgen: error: data/{slug}: the game's folder name {slug!r} ends in {shown}, "
                                       "which Windows drops from a folder's name, and it names the game's output "
                                       f"folder (expected another folder name for the game, e.g. {meant})\n")
    assert not (ws / "build").exists()


def test_two_games_differing_in_letter_case_alone_are_refused(tmp_path, capsys):
    """data/Test/ beside data/test/: build/Test/ and build/test/ are one folder on Windows and macOS
    (a build on Linux onto a shared drive mixed the two games' sets)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    shutil.copytree(ws / "data/test", ws / "data/Test")
    assert run(ws, "build", "--all", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'Test'" in err and "'test'" in err and "same folder" in err and "data/Test/" in err, err
    assert not (ws / "build" / "test").exists() and not (ws / "build" / "Test").exists()


def test_a_preset_that_would_be_refused_is_not_offered_as_taking_a_deck(tmp_path, capsys):
    """A deck a preset cannot take is told the presets that would: not presets/Shop.yaml, which
    --preset refuses (its folder is the build's shop/ on Windows and macOS)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "presets").mkdir()
    (ws / "presets" / "Shop.yaml").write_text(
        (Path(__file__).resolve().parents[2] / "generator/pnpgen/exports/presets/doujin.yaml").read_text(encoding="utf-8"),
        encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", "makeplayingcards") == 2
    err = capsys.readouterr().err
    assert "takes it: " in err and "--preset doujin" in err and "--preset Shop" not in err, err


@pytest.mark.parametrize("folder, args", [
    ("test.en", ("build", "--game", "test", "--no-rulebook")), ("test.en", ("build", "--game", "test.en", "--no-rulebook")),
    ("Test.EN", ("build", "--all", "--no-rulebook")), ("test.en", ("log", "--game", "test.en")),
])
def test_a_game_folder_named_as_another_games_edition_is_refused(tmp_path, capsys, folder, args):
    """data/test.en/ beside data/test/: `build --game test --lang en` keeps its cache and history
    as test.en (build/.cache/test.en.json, build/.history/test.en/), the very names of the game
    test.en's own; each build would read and replace the other's. Refused from either side, before
    anything is written, whichever languages test's game.yaml lists."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    shutil.copytree(ws / "data/test", ws / "data" / folder)
    assert run(ws, *args) == 2
    assert capsys.readouterr().err == (
        f"pnpgen: error: data/{folder}: game folder data/{folder}/ is named as the {folder[5:]} edition of game 'test': "
        f"a --lang {folder[5:]} build of 'test' keeps its cache and history under the name {folder!r} too "
        f"(expected another folder name for data/{folder}/, e.g. {folder.replace('.', '-')} "
        "(no '.' before a language code))\n")
    assert not (ws / "build").exists()


def test_a_game_folder_with_a_dot_but_no_language_code_is_no_edition():
    from pnpgen.data.names import edition_twin

    assert edition_twin("test.old", ["test", "test.old"]) is None  # no language code
    assert edition_twin("other", ["test", "test.en", "other"]) is None  # the pair is not the game loaded
    assert edition_twin("test", ["test", "test.zh-Hant-TW"]) == ("test.zh-Hant-TW", "test", "zh-Hant-TW")
