"""Issue 21: the command line keeps the habits every CLI user has — --version, -q/-v, help, "did
you mean", case-insensitive choices, one-line errors, -C DIR, clean — and says paths relative to
the workspace, so two copies of a workspace in different folders build the same bytes."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import pnpgen
from conftest import GAME_YAML, REPO, make_workspace, remove_tree, run
from pnpgen import commandline
from pnpgen.cli import main
from pnpgen.commandline import option_values_joined, parsers
from pnpgen.data import optionvalues, validate

MM = 25.4 / 72
FAST = ("--no-rulebook", "--jobs", "1")
ONE = ["カード1"]  # a build whose command line is the point needs one card, not the small workspace's 11


def one_line_error(capsys, *args: str, ws: Path | None = None) -> str:
    """The command fails with exit status 2 and one line on stderr: no usage block, no traceback."""
    try:
        code = run(ws, *args) if ws is not None else main(list(args))
    except SystemExit as e:
        code = e.code
    assert code == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.endswith(")\n"), err  # ends with what would be right
    assert "usage:" not in err and "Traceback" not in err, err
    return err


def test_version(capsys):
    for flag in ("--version", "-V"):
        with pytest.raises(SystemExit) as e:
            main([flag])
        assert e.value.code == 0
        assert capsys.readouterr().out == f"pnpgen {pnpgen.__version__}\n"


def test_bare_pnpgen_and_help_print_the_help(capsys):
    assert main([]) == 0
    bare = capsys.readouterr().out
    assert bare.startswith("usage: pnpgen") and all(f"    {c}" in bare for c in ("build", "clean", "help", "list"))
    assert main(["help"]) == 0
    assert capsys.readouterr().out == bare
    assert main(["help", "build"]) == 0
    build_help = capsys.readouterr().out
    assert build_help.startswith("usage: pnpgen build") and "--paper" in build_help and "--quiet" in build_help
    with pytest.raises(SystemExit) as e:  # --help still shows the usage
        main(["build", "--help"])
    assert e.value.code == 0 and capsys.readouterr().out == build_help


def test_every_option_says_what_it_does():
    top, commands = parsers()
    for parser in (top, *commands.values()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or action.dest == "max_builds":
                continue  # the commands are listed with their help; --max-builds is for tests
            assert action.help and action.help != argparse.SUPPRESS, f"{parser.prog} {action.option_strings}"


@pytest.mark.parametrize("args, said", [
    (("biuld",), "unknown command 'biuld'; did you mean build? (expected one of build, watch,"),
    (("Bulid", "--game", "x"), "did you mean build?"),
    (("help", "exprot"), "unknown command 'exprot'; did you mean export?"),
    (("nwe", "demo"), "unknown command 'nwe'; did you mean new?"),
    # a Japanese trial: docs/playtest.md's "Keep the history" typed as a command
    (("history", "--game", "x"), "unknown command 'history'; did you mean log? (it prints the history's versions) (expected one of"),
    (("new", "demo", "--kind", "tokns"), "argument --kind: 'tokns' is not a choice; did you mean tokens?"),
    # a game trial: the title typed as the slug is told the slug it makes and where the title goes
    (("new", "Harbor Lights"), "argument slug: 'Harbor Lights' is not a game slug (expected lower-case letters, "
                               "digits, - and _, e.g. harbor-lights (and --title 'Harbor Lights' for the title))"),
    (("new", "港の灯"), "e.g. my-game (and --title '港の灯' for the title)"),
    # a Japanese title with a digit left only the digit to offer: 'e.g. 2'
    (("new", "ことば2"), "e.g. my-game (and --title 'ことば2' for the title)"),
    # a slug no title could be either: not echoed as --title (a line break split the error, an RLO reversed it)
    (("new", "a\nb"), "'a\\nb' is not a game slug (expected lower-case letters, digits, - and _, e.g. a-b)"),
    (("new", "x\u202ey"), "'x\\u202ey' is not a game slug (expected lower-case letters, digits, - and _, e.g. xy)"),
    # --lang ../../../x named build/<game>/../../../x: serve showed the "last good build" it found there,
    # outside the workspace, and preflight read the exports there
    *[((*command, "--game", "test", "--lang", "../../../x"), "argument --lang: '../../../x' is not a language code "
       "(expected a two-letter ISO 639-1 code, optionally with a script or region: ja, en, zh-Hant, en-GB)")
      for command in (["serve"], ["build"], ["watch"], ["rulebook"], ["check"], ["export", "--preset", "doujin"],
                      ["preflight"])],
    # the right characters, too many: it said "is not a game slug" and offered the same 200 letters
    (("new", "a" * 200), f"'{'a' * 56}... is 200 characters long, more than a game slug's 64 (expected a slug of at "
                         f"most 64 characters, e.g. {'a' * 64})"),
    # pnpgen new con wrote data/con/, which every later command refused (a name Windows cannot hold)
    (("new", "con"), "argument slug: 'con' is the name of a Windows device (CON), which would name the game's output "
                     "folder (expected another slug, e.g. con-game)"),
    (("build", "--game", "test", "--papr", "a4"), "unknown argument '--papr'; did you mean --paper?"),
    (("check", "--game", "test", "--sheet", "a-one-51002"),
     "unknown argument '--sheet': an option of build, watch, reprint, not of check (expected the options "
     "'pnpgen help check' lists)"),  # not "did you mean --sheet?"; the help of the command typed, not of COMMAND
    # fixesJ: a newcomer's command lines, each told what would be right
    (("check", "test"), "unknown argument 'test'; a game is named with --game (pnpgen check --game test) (expected the "
                        "options 'pnpgen help check' lists)"),
    (("build", "--game", "test", "extra"), "unknown argument 'extra' (expected the options 'pnpgen help build' lists)"),
    (("new", "demo", "--gmae", "x"), "unknown argument '--gmae' (expected the options 'pnpgen help new' lists)"),  # new has no --game
    (("build", "-j", "2", "--game", "test"), "unknown argument '-j'; did you mean --jobs?"),
    (("layout",), "missing action (expected action: one of list, export; see 'pnpgen help layout')"),
    (("new",), "missing slug (expected slug: the game's folder name under data/"),
    (("build", "--game", "test", "--paper", "Leter"), "argument --paper: 'leter' is not a choice; did you mean letter? (expected one of a3, a4, ledger, legal, letter, tabloid)"),
    (("build", "--game", "test", "--paper", "A5"), "argument --paper: 'a5' is not a choice (expected one of a3, a4, ledger, legal, letter, tabloid)"),
    (("build", "--game", "test", "--bleed", "20mm"), "argument --bleed: bleed '20mm' is out of range (expected 0 to 10 mm)"),
    # a value that looks negative reaches the option's own reading, not argparse's "expected one argument"
    (("build", "--game", "test", "--bleed", "-1mm"), "argument --bleed: bleed '-1mm' is out of range (expected 0 to 10 mm)"),
    (("build", "--game", "test", "--ble", "-1mm"), "argument --bleed: bleed '-1mm' is out of range"),
    (("watch", "--game", "test", "--creep", "-0.1mm"), "argument --creep: creep '-0.1mm' is out of range (expected 0 to 2 mm)"),
    (("build", "--game", "test", "--margin", "-.5"), "argument --margin: margin '-.5' is out of range"),
    (("build", "--game", "test", "--jobs", "-2"),
     "argument --jobs: '-2' is not a number of worker processes (expected a whole number from 1 to 64)"),
    (("build", "--game", "test", "--sleeve", "-66x91"), "argument --sleeve: '-66x91' is not a sleeve size"),
    (("build",), "missing --game or --all (expected --game: "),
    # a misspelt required option is named as misspelt, not as the option missing
    (("build", "--gmae", "test"), "unknown argument '--gmae'; did you mean --game?"),
    (("-q", "export", "--gmae=test", "--preset", "doujin"), "unknown argument '--gmae=test'; did you mean --game?"),
    (("export", "--game", "test", "--prest", "doujin"), "unknown argument '--prest'; did you mean --preset?"),
    (("-q", "-v", "list"), "-q and -v together"),
    (("-C", "no-such-folder", "list"), "-C: 'no-such-folder' is not a folder"),
    # pnpgen's own option after the command: where it goes, not "did you mean -C?"
    (("export", "--game", "test", "--preset", "doujin", "-C", "."), "-C goes before the command, not after it (expected: pnpgen -C DIR COMMAND"),
    (("build", "--game", "test", "-C."), "-C goes before the command"),
    # an escape in the title wrote a game.yaml that every later command refused (U+001B is not YAML)
    (("new", "demo", "--title", "Demo\x1b[31m"), "--title 'Demo\\x1b[31m' is not a title (expected one line of at most "
                                                 "200 characters, without control characters)"),
])
def test_a_bad_command_line_is_one_line(tmp_path, capsys, args, said):
    ws = make_workspace(tmp_path / "ws")
    err = one_line_error(capsys, *args, ws=ws)
    assert said in err, err
    assert err.startswith("pnpgen: error: "), err  # as every other mistake, not 'pnpgen build: error:'
    assert not (ws / "build").exists()


def test_a_negative_value_is_joined_only_to_an_option_that_takes_one():
    joined = option_values_joined
    assert joined(["build", "--game", "x", "--bleed", "-1mm", "--creep", "-0.1mm"]) == [
        "build", "--game", "x", "--bleed=-1mm", "--creep=-0.1mm"]
    assert joined(["-q", "build", "--margin", "-1.5,0"]) == ["-q", "build", "--margin=-1.5,0"]
    # after a flag, after "--", or a word starting with '-' that is no number: left to argparse
    assert joined(["build", "--no-rulebook", "-1mm"]) == ["build", "--no-rulebook", "-1mm"]
    assert joined(["build", "--bleed", "--", "-1mm"]) == ["build", "--bleed", "--", "-1mm"]
    assert joined(["build", "--bleed", "-q"]) == ["build", "--bleed", "-q"]
    assert joined(["build", "--no", "-1"]) == ["build", "--no", "-1"]  # --no is no one option: argparse says so


def test_a_length_option_with_a_space_before_its_unit_is_one_value():
    """--bleed 0.125 in ended in "unknown argument 'in'": a length written as game.yaml takes it
    (bleed: 0.125 in) is one value, for every option that takes a length."""
    joined = option_values_joined
    assert joined(["build", "--bleed", "0.125", "in", "--margin", "5", "MM", "--creep=0.1", "mm"]) == [
        "build", "--bleed=0.125in", "--margin=5MM", "--creep=0.1mm"]
    assert joined(["build", "--sleeve", "66x91", "mm", "--cricut-area", "6.75x9.25", "in"]) == [
        "build", "--sleeve=66x91mm", "--cricut-area=6.75x9.25in"]
    assert joined(["rulebook", "--creep", "0.1", "mm", "--game", "in"]) == ["rulebook", "--creep=0.1mm", "--game", "in"]
    assert joined(["build", "--game", "x", "mm"]) == ["build", "--game", "x", "mm"]  # not a length: argparse says
    lengths = {o for name, parser in parsers("build")[1].items() for o, a in parser._option_string_actions.items()
               if getattr(a.type, "__name__", "") in commandline._LENGTH_TYPES}
    assert lengths == {"--bleed", "--margin", "--creep", "--sleeve", "--cricut-area", "--silhouette-marks"}
    # one list of units for every length: WIDTHxHEIGHT takes pt and px as a single length does
    assert optionvalues.dimensions("180x252pt", 1, 500, "sleeve size", "66x91") == pytest.approx((63.5, 88.9))
    assert validate.length("0.125 in", 0, 10) == pytest.approx(3.175)


def test_a_spaced_unit_builds_as_the_joined_one_and_a_wrong_case_is_told_the_form_meant(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--bleed", "0.125", "in", "--margin", "0.5", "cm") == 0
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text())
    assert manifest["decks"][0]["bleed_mm"] == pytest.approx(3.175)
    capsys.readouterr()
    assert "bleed '3MM' is not a length; did you mean 3mm?" in one_line_error(capsys, "build", "--game", "test",
                                                                             "--bleed", "3", "MM", ws=ws)


def test_a_mistyped_game_or_deck_gets_a_suggestion(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    assert "unknown game 'tset'; did you mean test?" in one_line_error(capsys, "build", "--game", "tset", ws=ws)
    err = one_line_error(capsys, "export-sheet", "--game", "test", "--deck", "crads", ws=ws)
    assert "unknown deck 'crads'; did you mean cards?" in err
    err = one_line_error(capsys, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck", "card", ws=ws)
    assert "has no deck 'card'; did you mean cards?" in err


def _page_mm(pdf: Path) -> tuple[float, float]:
    box = PdfReader(pdf).pages[0].mediabox
    return round(float(box.width) * MM, 1), round(float(box.height) * MM, 1)


def test_choices_are_case_insensitive_and_q_v_are_short(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "-q", "build", "--game", "test", "--paper", "Letter", "--marks", "Western", *FAST) == 0
    assert capsys.readouterr().out == ""  # -q before the command: nothing but warnings and errors
    assert _page_mm(ws / "build" / "test" / "cards.pdf") == (215.9, 279.4)
    assert run(ws, "build", "--game", "test", "--paper", "A4", "-v", *FAST) == 0
    said = capsys.readouterr().out
    assert _page_mm(ws / "build" / "test" / "cards.pdf") == (210.0, 297.0)
    assert "test: building" in said and "test: 6 files in build/test" in said  # -v says the steps too
    assert run(ws, "build", "--game", "test", "-q", *FAST) == 0
    assert capsys.readouterr().out == ""


def test_C_runs_in_another_workspace(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run(elsewhere, "-C", "../ws", "build", "--game", "test", "--out", "b", *FAST) == 0
    assert (ws / "b" / "test" / "cards.pdf").is_file()  # --out read from DIR, as in git -C
    assert not (elsewhere / "b").exists() and Path.cwd() != ws
    assert main(["-C", str(ws / "data"), "list"]) == 0  # a folder inside the workspace will do
    assert "test  テストゲーム" in capsys.readouterr().out


def test_clean_removes_only_what_pnpgen_wrote(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    shutil.copytree(ws / "data" / "test", ws / "data" / "other")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "other")
    assert run(ws, "build", "--all", *FAST) == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    build = ws / "build"
    (build / "test" / "notes.txt").write_text("the designer's own notes")  # foreign files beside the outputs
    (build / "mine.txt").write_text("mine")
    (build / "test" / "tabletopsimulator" / "keep.png").write_bytes(b"not pnpgen's")
    with (build / "test" / "shop" / "order.csv").open("a") as f:
        f.write("edited,by,hand\n")  # an output edited since: kept, and said
    inputs = sorted(p for p in ws.rglob("*") if build not in p.parents)
    other = sorted(p.relative_to(build) for p in (build / "other").rglob("*"))
    capsys.readouterr()

    assert run(ws, "clean", "--game", "test") == 0
    out, err = capsys.readouterr()
    assert "removed" in out and "in build/" in out
    assert err == "pnpgen: warning: build/test/shop/order.csv: kept: changed since pnpgen wrote it (remove it yourself if it can go)\n"
    left = sorted(p.relative_to(build).as_posix() for p in (build / "test").rglob("*"))
    assert left == ["test/notes.txt", "test/shop", "test/shop/order.csv", "test/tabletopsimulator",
                    "test/tabletopsimulator/keep.png"]
    assert sorted(p.relative_to(build) for p in (build / "other").rglob("*")) == other
    assert not (build / ".cache" / "test.json").exists() and (build / ".cache" / "other.json").is_file()
    assert run(ws, "build", "--game", "other", *FAST) == 0
    assert "other: up to date" in capsys.readouterr().out  # its cache entries stayed

    assert run(ws, "clean") == 0
    assert "kept the 2 versions recorded in .history/ and their tags" in capsys.readouterr().out
    assert sorted(p.relative_to(build / ".history").as_posix() for p in (build / ".history").rglob("*")) == [
        "other", "other/v00001.json", "test", "test/v00001.json"]  # the designer's record: kept
    assert run(ws, "clean", "--history") == 0
    assert sorted(p.relative_to(build).as_posix() for p in build.rglob("*")) == [
        ".pnpgen-output", ".pnpgen.lock", "mine.txt", "test", "test/notes.txt", "test/shop", "test/shop/order.csv",
        "test/tabletopsimulator", "test/tabletopsimulator/keep.png"]
    assert sorted(p for p in ws.rglob("*") if build not in p.parents) == inputs  # data, templates untouched
    assert run(ws, "clean") == 0 and "nothing pnpgen wrote in build/" in capsys.readouterr().out


def test_clean_removes_what_pnpgen_rulebook_wrote_and_keeps_an_edited_one(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "languages: [ja, en]\n")
    (ws / "data" / "test" / "draft.en.txt").write_text((ws / "data" / "test" / "draft.txt").read_text())
    assert run(ws, "rulebook", "--game", "test") == 0
    assert run(ws, "rulebook", "--game", "test", "--lang", "en") == 0
    build = ws / "build"
    (build / "test" / "notes.txt").write_text("the designer's own notes")
    with (build / "test" / "en" / "proof.txt").open("a") as f:
        f.write("my own proofing note\n")
    capsys.readouterr()
    assert run(ws, "clean") == 0
    assert "build/test/en/proof.txt: kept: changed since pnpgen wrote it" in capsys.readouterr().err
    assert sorted(p.relative_to(build).as_posix() for p in build.rglob("*")) == [
        ".pnpgen-output", ".pnpgen.lock", "test", "test/en", "test/en/proof.txt", "test/notes.txt"]


def test_clean_removes_the_records_of_a_game_folder_deleted_by_hand(tmp_path, capsys):
    """The records of ``pnpgen rulebook`` and ``export`` live in build/.cache under the game's
    name; clean visited only game folders still there, so a game folder deleted by hand left
    them (and the output folder) behind for good."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE, draft=True)  # (the draft's count of 11 is only warned of)
    assert run(ws, "rulebook", "--game", "test") == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    build = ws / "build"
    assert {p.parent.parent.name for p in (build / ".cache").rglob("*.json")} >= {"exports", "rulebooks"}
    remove_tree(build / "test")
    assert run(ws, "clean") == 0
    assert not build.exists(), sorted(p.relative_to(build).as_posix() for p in build.rglob("*"))


def test_clean_of_a_folder_holding_only_outputs_leaves_nothing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--out", str(out), *FAST) == 0
    assert run(ws, "clean", "--out", str(out), "--history") == 0
    assert not out.exists()


def test_clean_keeps_the_versions_and_tags_a_reprint_starts_from(tmp_path, capsys):
    """The history is the record of what was printed: a clean (to build afresh) keeps it, so a
    reprint since a tagged playtest still works; ``--history`` removes it."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "build", "--game", "test", *FAST) == 0
    assert run(ws, "tag", "--game", "test", "pt1") == 0
    assert run(ws, "clean", "--game", "test") == 0
    assert (ws / "build" / ".history" / "test" / "tags.json").is_file()
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "新しい本文"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", *FAST) == 0
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "pt1") == 0
    assert "reprint-since-v1.pdf" in capsys.readouterr().out
    assert "カード1" in (ws / "build" / "test" / "reprint-since-v1.txt").read_text(encoding="utf-8")
    assert run(ws, "clean", "--game", "test", "--history") == 0
    assert not (ws / "build" / ".history" / "test").exists()
    # pnpgen reprint's files stay (no build records them), and the clean says so: the folder a
    # designer cleaned to start afresh still held them, unnamed
    assert sorted(p.name for p in (ws / "build" / "test").iterdir()) == ["reprint-since-v1.pdf", "reprint-since-v1.txt"]
    assert ("kept reprint-since-v1.pdf, reprint-since-v1.txt in build/test/: pnpgen reprint wrote them and no build "
            "records them (remove them yourself if they can go)") in capsys.readouterr().out.splitlines()
    # once the designer has removed them, the next clean takes their record and the folder left empty
    # (docs1: the record and an empty build/test/ stayed for good, and so did build/)
    for p in (ws / "build" / "test").iterdir():
        p.unlink()
    assert run(ws, "clean", "--game", "test") == 0
    assert not (ws / "build" / "test").exists() and not (ws / "build" / ".cache" / "reprints").exists()
    assert run(ws, "clean") == 0
    assert not (ws / "build").exists()


def test_two_copies_of_a_workspace_build_the_same_bytes(tmp_path, capsys):
    """Paths in messages and files are relative to the workspace: proof.txt, the manifest's
    warnings, check, the build's own lines."""
    pieces = [f"カード{i}" for i in range(1, 10)] + ["未定"]  # the draft says 11: a mismatch, and a 未定
    copies = [make_workspace(tmp_path / "a" / "ws", pieces=pieces, draft=True),
              make_workspace(tmp_path / "somewhere" / "else" / "ws", pieces=pieces, draft=True)]
    said = []
    for ws in copies:
        assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
        assert run(ws, "check", "--game", "test") == 0
        said.append(capsys.readouterr())
    assert said[0] == said[1]
    out, err = said[0]
    assert "data/test/draft.txt" in err + out and "data/test/decks/cards.yaml:" in out
    files = [{p.relative_to(ws / "build"): p.read_bytes() for p in (ws / "build" / "test").rglob("*") if p.is_file()}
             for ws in copies]
    assert files[0].keys() == files[1].keys() and Path("test/proof.txt") in files[0]
    for name in files[0]:
        assert files[0][name] == files[1][name], name
        assert str(tmp_path).encode() not in files[0][name], name
    assert b"data/test/decks/cards.yaml:" in files[0][Path("test/proof.txt")]
    assert os.fsencode(str(tmp_path)) not in files[0][Path("test/manifest.json")]
    capsys.readouterr()
    assert run(copies[0], "-q", "check", "--game", "test") == 0
    quiet = capsys.readouterr().out.splitlines()  # -q: the game's warning, not its 未定 placeholder
    assert len(quiet) == 2 and quiet[0].startswith("test: ok") and "warning: data/test/draft.txt:9: count" in quiet[1]


def test_rulebook_says_how_it_read_the_draft_only_when_asked(drafted, capsys):
    """`pnpgen rulebook` prints the files it wrote; how the draft was read and set (encoding,
    sections, line breaking) only with -v, as build does."""
    assert run(drafted, "rulebook", "--game", "test") == 0
    plain = capsys.readouterr().out.strip().splitlines()
    assert len(plain) == 1 and plain[0].startswith("test: ") and "rulebook.pdf" in plain[0], plain
    assert run(drafted, "rulebook", "--game", "test", "-v") == 0
    told = capsys.readouterr().out
    assert "parsed: title" in told and "line breaking:" in told and "rulebook.pdf" in told


def test_out_inside_the_games_own_folders_is_refused(tmp_path, capsys):
    """--out into data/ or templates/ (empty, so the foreign-file check passed) put outputs, a cache
    and marker files among the designer's own files: refused in one line, nothing written there."""
    ws = make_workspace(tmp_path / "ws")
    (ws / "templates" / "test" / "out").mkdir()
    for args in (("build", "--game", "test", "--out", "data/out", *FAST),
                 ("export", "--game", "test", "--preset", "tabletopsimulator", "--out", "templates/test/out")):
        capsys.readouterr()
        assert run(ws, *args) == 2
        err = capsys.readouterr().err
        assert "is inside the workspace's" in err and err.count("\n") == 1, err
    assert not (ws / "data" / "out").exists() and list((ws / "templates" / "test" / "out").iterdir()) == []


def test_list_says_draft_and_players_in_the_games_own_language(tmp_path, capsys, monkeypatch):
    """A game trial: ``pnpgen list`` of an English game said ``草案3  2-4人``; each game's line is
    in its own default language (an English game: ``Draft 3  2-4 players``)."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run(ws, "new", "harbor", "--title", "Harbor Lights", "--lang", "en") == 0
    assert run(ws, "new", "kingdom", "--title", "王国") == 0
    for slug, players, open_word in (("harbor", "2-4", "TBD"), ("kingdom", "3-5", "未定")):
        yaml = ws / "data" / slug / "game.yaml"
        text = yaml.read_text(encoding="utf-8")
        assert f"players: {open_word}" in text  # the edition's word for a value still open
        yaml.write_text(text.replace(f"players: {open_word}", f"players: {players}"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "list") == 0
    out = capsys.readouterr().out
    assert "harbor  Harbor Lights  Draft 1  2-4 players\n" in out, out
    assert "kingdom  王国  草案1  3-5人\n" in out, out
    assert "草案1  2-4" not in out
    assert run(ws, "list", "--game", "kingdom") == 0  # one game, as --game says for the other commands
    one = capsys.readouterr().out
    assert one.startswith("kingdom  王国  草案1  3-5人\n") and "harbor" not in one, one
    assert run(ws, "list", "--game", "kingdon") == 2
    assert "unknown game 'kingdon'; did you mean kingdom?" in capsys.readouterr().err


def test_clean_of_the_disks_root_says_it_without_a_double_slash(tmp_path, capsys):
    """A hostile round: ``clean --out /`` said "nothing pnpgen wrote in //"."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "clean", "--out", "/") == 0
    out = capsys.readouterr().out
    assert out.strip() == "nothing pnpgen wrote in /", out


def test_new_where_a_file_is_named_templates_writes_nothing(tmp_path, capsys):
    """A new workspace in a folder holding a file 'templates': data/ was made, then templates/
    failed ('File exists'), the empty data/ left behind."""
    (tmp_path / "templates").write_text("notes", encoding="utf-8")
    capsys.readouterr()
    assert run(tmp_path, "new", "demo") == 2
    err = capsys.readouterr().err
    assert "templates is a file, not a folder" in err and err.count("\n") == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["templates"]


@pytest.mark.parametrize("command", ["watch", "serve"])
def test_watch_and_serve_refuse_a_misspelt_game_at_once(tmp_path, capsys, command):
    """``watch --game tset`` said "unknown game" among its lines and watched for ever; ``serve``
    printed it and served a page of the error. A game not in data/ is one line and exit 2, with
    the nearest game, before anything is watched or served."""
    ws = make_workspace(tmp_path / "ws")
    err = one_line_error(capsys, command, "--game", "tset", ws=ws)
    assert "unknown game 'tset'; did you mean test? (expected one of test)" in err, err
    assert not (ws / "build").exists()


def test_clean_of_a_misspelt_game_that_finds_nothing_names_the_nearest(tmp_path, capsys):
    """``clean --game tset`` said only "nothing pnpgen wrote in build/", as for a game with no
    output yet. A name data/ does not hold is said, with the nearest game; not refused (a removed
    game's outputs are cleaned by its name)."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "clean", "--game", "tset") == 0
    assert capsys.readouterr().out.strip() == ("nothing pnpgen wrote in build/ for game 'tset', which data/ does not "
                                               "hold; did you mean test?")
    assert run(ws, "clean", "--game", "test") == 0
    assert capsys.readouterr().out.strip() == "nothing pnpgen wrote in build/"


def test_build_all_with_no_game_says_so(tmp_path, capsys):
    """A workspace whose only game folder is hidden (.game, passed by) built nothing, said nothing, exit 0."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    (ws / "data" / "test").rename(ws / "data" / ".test")
    assert run(ws, "build", "--all", *FAST) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pnpgen: error: data: --all: no game to build" in err and "pnpgen new" in err
    assert not (ws / "build").exists()


def test_serve_takes_no_build_option_and_the_playtest_page_says_what_to_do_instead(tmp_path, capsys):
    """trial73: a designer who built with --printer home-inkjet ran the preview, whose rebuild drew
    build/<game>/'s home sheets again without the profile. serve takes no build option (told so,
    naming the commands that do), and docs/playtest.md says where the profile goes instead."""
    ws = make_workspace(tmp_path / "ws")
    err = one_line_error(capsys, "serve", "--game", "test", "--printer", "home-inkjet", ws=ws)
    assert "unknown argument '--printer': an option of build, watch, check, reprint, not of serve" in err, err
    page = " ".join((REPO / "docs" / "playtest.md").read_text(encoding="utf-8").split())
    assert "`pnpgen serve --printer home-inkjet` is told `an option of build, watch, check, reprint, not of serve`" in page
    assert "`every home sheet changed: printer profile home-inkjet (back -1.5/+0.75 mm, 100/100 %) → none: …`" in page
    assert "(`printer: home-inkjet`, `paper: letter`: the preview then builds with them" in page


def test_a_deck_pnpgen_new_wrote_renamed_is_told_at_the_drafts_line_with_the_deck_to_write(tmp_path, capsys, monkeypatch):
    """trial: renaming the deck ``pnpgen new`` wrote left its draft.txt naming the old one; the
    warning names the draft's line and entry, the deck on no line of the draft (a name near it
    asked as "did you mean", one not near offered as the deck renamed), and that the draft is the
    designer's own to edit."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run(ws, "new", "g7", "-q") == 0
    deck = ws / "data" / "g7" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: カード\n", "name: 呪文カード\n", 1), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "g7") == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "draft.txt" in line]
    assert said == ["  warning: data/g7/draft.txt:9: component 「カード」 of the draft has no deck or sourced item of that "
                    "name in the data; did you mean 呪文カード? (the draft is yours to edit: pnpgen never changes it)"], said
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: 呪文カード\n", "name: Spells\n", 1), encoding="utf-8")
    assert run(ws, "check", "--game", "g7") == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "draft.txt" in line]
    assert len(said) == 1 and said[0].endswith(
        "; or, if it is the data's deck 「Spells」 (cards), on no line of the draft, write its name on this line "
        "(the draft is yours to edit: pnpgen never changes it)"), said


def test_a_fault_of_pnpgen_is_one_paragraph_and_a_report_file_not_a_traceback(tmp_path, capsys, monkeypatch):
    """trial81: a fault of pnpgen's own (a bug, not the designer's files) ended the command in a raw
    traceback. The command (``own_process``) says it in one paragraph, exit status 1, and keeps the
    traceback in a file of the temporary folder to send; PNPGEN_TRACEBACK=1, or a script's call of
    ``main``, gets the exception itself."""
    import tempfile

    from pnpgen import cli

    ws = make_workspace(tmp_path / "ws")
    reports = tmp_path / "temporary"
    reports.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(reports))
    monkeypatch.chdir(ws)
    monkeypatch.delenv("PNPGEN_TRACEBACK", raising=False)

    def fault(*args):
        raise RuntimeError("a fault <b>here</b>\x1b[2J")

    monkeypatch.setattr(cli, "_run_by", lambda command: fault)
    assert main(["list"], own_process=True) == 1
    said = capsys.readouterr().err
    assert said.startswith("pnpgen: internal error: RuntimeError: a fault <b>here</b>") and said.count("\n") == 1
    assert "Traceback" not in said and "\x1b" not in said  # (the terminal's control characters made inert)
    report = next(reports.glob("pnpgen-fault-*.txt"))
    assert str(report) in said
    text = report.read_text(encoding="utf-8")
    assert text.startswith("pnpgen ") and "pnpgen list" in text.splitlines()[0]
    assert "Traceback (most recent call last)" in text and "RuntimeError: a fault" in text
    with pytest.raises(RuntimeError):  # a script's call sees the exception
        main(["list"])
    monkeypatch.setenv("PNPGEN_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        main(["list"], own_process=True)
    assert len(list(reports.iterdir())) == 1


def test_clean_with_a_file_where_its_records_go_says_so_and_removes_nothing(tmp_path, capsys):
    """hostile49: build/.cache, pnpgen's records of what it wrote, replaced by a file: clean said
    "nothing pnpgen wrote in build/" with the game's files all there; it now says why it cannot tell
    which files are pnpgen's, removes none, and exits 2."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "-q") == 0
    capsys.readouterr()
    out = ws / "build"
    remove_tree(out / ".cache")
    (out / ".cache").write_text("not a folder\n", encoding="utf-8")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    err = one_line_error(capsys, "clean", ws=ws)
    assert err.startswith("pnpgen: error: build/.cache: is a file where pnpgen keeps its records of what it wrote"), err
    assert "nothing was removed" in err and "then a build" in err, err
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before and (out / "test" / "cards.pdf").is_file()
