"""The same inputs give the same bytes whatever the environment a build runs in: a build server
or a packager's sandbox sets ``SOURCE_DATE_EPOCH``, which ReportLab (setting the rulebook) reads
to date its document, even when told to write invariant files."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pypdf import PdfReader

from conftest import FEW_CARDS, child_env, make_workspace, run


def test_the_rulebook_is_the_same_bytes_with_source_date_epoch_set(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", draft=True)
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "plain")) == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "dated")) == 0
    for name in ("rulebook.pdf", "rulebook-booklet.pdf"):
        plain, dated = (tmp_path / folder / "test" / name for folder in ("plain", "dated"))
        assert PdfReader(dated).metadata["/CreationDate"] == "D:20000101000000+00'00'"  # as every pnpgen file
        assert dated.read_bytes() == plain.read_bytes(), name


def test_a_source_date_epoch_not_a_whole_number_is_no_traceback(tmp_path, monkeypatch):
    """ReportLab's every canvas read it with int(): a build with SOURCE_DATE_EPOCH=1.5 ended in a
    ValueError traceback (the rulebook's fold marks) after its sheets were drawn. (Each in a process
    of its own: this one keeps the fold marks drawn by earlier tests. The plain build, the bytes
    they are held to, is built here: any process gives the same.)"""
    ws = make_workspace(tmp_path / "ws", draft=True)
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert run(ws, "build", "--game", "test", "-q", "--out", str(tmp_path / "plain")) == 0
    for epoch in ("1.5", "soon"):
        done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--out",
                               str(tmp_path / epoch)], cwd=ws, capture_output=True, timeout=300,
                              env=child_env(PNPGEN_CACHE="off", SOURCE_DATE_EPOCH=epoch))
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-300:]
    for name in ("rulebook.pdf", "rulebook-booklet.pdf", "cards.pdf"):
        plain = (tmp_path / "plain" / "test" / name).read_bytes()
        assert (tmp_path / "1.5/test" / name).read_bytes() == plain == (tmp_path / "soon/test" / name).read_bytes()


def test_a_stdout_without_the_games_characters_says_them_escaped(tmp_path):
    """Japanese names printed to a cp1252 or ascii stdout (a Western Windows redirecting to a file,
    a CI log): the build ended in a UnicodeEncodeError traceback, exit 1, after writing its files."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    for encoding in ("cp1252", "ascii"):
        done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--no-rulebook", "--out",
                               str(tmp_path / encoding)], cwd=ws, capture_output=True,
                              env=child_env(PYTHONIOENCODING=encoding), timeout=300)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
        assert "cards            \\u30c6\\u30b9\\u30c8\\u30ab\\u30fc\\u30c9" in done.stdout.decode(encoding), done.stdout


def test_a_current_folder_deleted_since_is_one_line(tmp_path):
    """A terminal left in a folder since deleted or replaced (a workspace unzipped again, cloned
    again): every command, -C DIR too, ended in a FileNotFoundError traceback from os.getcwd()."""
    gone = tmp_path / "gone"
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    script = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    for command in (["list"], ["-C", str(ws), "list"]):
        gone.mkdir()
        done = subprocess.run(["sh", "-c", script, "sh", str(gone), sys.executable, "-m", "pnpgen", *command],
                              capture_output=True, env=child_env(), timeout=300)
        assert b"Traceback" not in done.stderr, done.stderr
        if command[0] == "-C":
            assert done.returncode == 0 and "テストカード".encode() in done.stdout, done.stderr
        else:
            assert done.returncode == 2 and done.stderr.decode() == (
                "pnpgen: error: the current folder no longer exists (deleted, or replaced by a new one of the same "
                "name, since the terminal went into it) (expected cd into it again (cd \"$PWD\"), or pnpgen -C DIR)\n")


def test_an_output_that_cannot_be_written_is_one_line_and_the_build_done(tmp_path):
    """``pnpgen build > log`` on a full disk (here /dev/full) ended in an OSError traceback, and
    with stdout closed (``>&-``) in an AttributeError one; the files are written either way."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    build = [sys.executable, "-m", "pnpgen", "build", "--game", "test", "--no-rulebook", "--out"]
    with open("/dev/full", "w") as full:
        done = subprocess.run([*build, str(tmp_path / "full")], cwd=ws, stdout=full, stderr=subprocess.PIPE,
                              env=child_env(), timeout=300)
    assert done.returncode == 2 and done.stderr.decode().splitlines()[-1] == (
        "pnpgen: error: cannot write the command's output: No space left on device (expected room where the output "
        "goes, or the output not redirected)"), done.stderr
    assert (tmp_path / "full" / "test" / "cards.pdf").is_file()
    closed = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *build, str(tmp_path / "closed")], cwd=ws,
                            stderr=subprocess.PIPE, env=child_env(), timeout=300)
    assert closed.returncode == 0 and b"Traceback" not in closed.stderr, closed.stderr
    assert (tmp_path / "closed" / "test" / "cards.pdf").is_file()


def test_an_error_said_where_it_cannot_be_written_still_exits_2(tmp_path):
    """stderr on a full disk: the error line could not be written, and the command ended in status 1."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "no-such-game"], cwd=ws,
                              stdout=subprocess.PIPE, stderr=full, env=child_env(), timeout=300)
    assert done.returncode == 2 and done.stdout == b""


@pytest.mark.parametrize("stands", ["dangling link", "pipe", "file"])
def test_an_output_folder_that_is_a_dangling_link_or_a_pipe_is_said_so(tmp_path, capsys, stands):
    """It said 'cannot write to build: File exists', naming nothing that stood there; the link's
    target is not made. ``pnpgen check`` says it too (hostile40: a file named build was 'ok', and
    the build stopped at it)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    if stands == "pipe":
        os.mkfifo(ws / "build")
    elif stands == "file":
        (ws / "build").write_text("notes\n", encoding="utf-8")
    else:
        (ws / "build").symlink_to(tmp_path / "gone")
    said = ("not a folder of the workspace: pnpgen reads and writes no build/ outside it" if stands == "dangling link"
            else "it is no folder (a file, a pipe or a device)")
    for command in (["build", "--no-rulebook"], ["check"]):
        assert run(ws, *command, "--game", "test") == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err and "File exists" not in err, err
        assert "--out:" not in err, err  # (hostile40: "build: --out: …", an option never typed)
        assert stands == "dangling link" or "the default output folder (no --out given): cannot write to build" in err, err
    assert not (tmp_path / "gone").exists()
    assert stands != "file" or (ws / "build").read_text(encoding="utf-8") == "notes\n"


def test_without_a_home_folder_a_build_runs_and_its_output_folder_is_still_checked(tmp_path, monkeypatch, capsys):
    """HOME unset and no user entry for the uid (a container run as -u 12345): Path.home() raises.
    The build ended in that RuntimeError traceback (looking for the user's printers.yaml); and the
    output folder's checks were all passed over on it, so --out data/test/o wrote among the data."""
    from pathlib import Path

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert (ws / "build" / "test" / "cards.pdf").is_file()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", "data/test/o") == 2
    assert "is inside the workspace's data/" in capsys.readouterr().err
    assert not (ws / "data" / "test" / "o").exists()


@pytest.mark.parametrize("pause", ["abc", "nan", "inf", "-1"])
def test_a_pause_for_tests_that_is_no_number_of_seconds_is_no_pause(tmp_path, monkeypatch, capsys, pause):
    """PNPGEN_TEST_PAUSE_BEFORE_COMMIT (the interrupted-build tests' pause) set to what is no
    number of seconds ended the build, every file staged, in a ValueError traceback (abc, nan) or
    OverflowError (inf), nothing committed; it builds, unpaused."""
    ws = make_workspace(tmp_path / "ws")
    monkeypatch.setenv("PNPGEN_TEST_PAUSE_BEFORE_COMMIT", pause)
    assert run(ws, "build", "--game", "test", "-q") == 0
    assert "PNPGEN_TEST_PAUSE" not in capsys.readouterr().err
    assert len(PdfReader(ws / "build" / "test" / "cards.pdf").pages) == 4


def test_reportlab_takes_no_setting_and_runs_no_code_from_outside_the_workspace(tmp_path):
    """ReportLab, first imported, runs a ``reportlab_mods``/``reportlab_settings`` module on Python's
    path (the current folder under ``python -m pnpgen``), else ``~/.reportlab_mods`` as Python and
    ``~/.reportlab_settings``, and takes ``RL_<setting>`` variables (hostile48): a workspace's
    reportlab_mods.py ran as code, and each changed the settings pnpgen writes with. Every one is
    planted here, each writing a marker or a setting other than ReportLab's shipped one."""
    from reportlab import rl_settings

    home, folder = tmp_path / "home", tmp_path / "ws"
    home.mkdir()
    folder.mkdir()
    ran = tmp_path / "ran.txt"
    plant = f"open({str(ran)!r}, 'a').write(__name__ + '\\n')\npageCompression = 0\ncanvas_basefontname = 'Courier'\n"
    for planted in (home / ".reportlab_mods", home / ".reportlab_settings", folder / "reportlab_mods.py",
                    folder / "reportlab_settings.py"):
        planted.write_text(plant, encoding="utf-8")
    code = ("import pnpgen; from reportlab import rl_config; "
            "print(rl_config.pageCompression, rl_config.invariant, rl_config.canvas_basefontname)")
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, timeout=300,
                          env=child_env(HOME=str(home), RL_pageCompression="0", RL_invariant="1",
                                        RL_canvas_basefontname="Times-Roman"))
    assert done.returncode == 0, done.stderr
    assert not ran.exists(), ran.read_text(encoding="utf-8")
    shipped = (rl_settings.pageCompression, rl_settings.invariant, rl_settings.canvas_basefontname)
    assert done.stdout.split() == [str(value) for value in shipped] == ["1", "0", "Helvetica"]


def test_the_rulebook_is_the_same_bytes_with_reportlab_variables_set_and_home_no_folder(tmp_path, monkeypatch):
    """``RL_pageCompression=0`` wrote the rulebook's pages uncompressed (other bytes for the same
    draft), ``RL_invariant=maybe`` ended the rulebook's worker as if killed ('a worker process of
    this command ended abruptly'), and ``HOME=/dev/null`` (a service's, a CI runner's home) stopped
    every build with a NotADirectoryError traceback blamed on a font (ReportLab looking for
    ``~/.reportlab_mods``) (hostile48)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    assert run(ws, "rulebook", "--game", "test", "-q", "--out", str(tmp_path / "plain")) == 0
    for name, variables in (("set", {"RL_pageCompression": "0", "HOME": "/dev/null"}), ("wrong", {"RL_invariant": "maybe"})):
        done = subprocess.run([sys.executable, "-m", "pnpgen", "rulebook", "--game", "test", "-q", "--out",
                               str(tmp_path / name)], cwd=ws, capture_output=True, timeout=300,
                              env=child_env(PNPGEN_CACHE="off", **variables))
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-600:]
        for book in ("rulebook.pdf", "rulebook-booklet.pdf"):
            assert (tmp_path / name / "test" / book).read_bytes() == (tmp_path / "plain" / "test" / book).read_bytes()
