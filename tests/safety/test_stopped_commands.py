"""SIGTERM (kill, timeout, a CI runner's limit) and SIGINT (Ctrl-C) stop ``pnpgen rulebook``,
``reprint``, ``preflight`` and ``clean`` as they stop a build (test_sigterm.py): one line, exit
143 (130), the last good output byte-identical, no temporary file left in the workspace, the output
folder or the temporary folder, no process of the command's left. Each run is a real ``python -m
pnpgen`` in a process group of its own, the signal sent to it alone, at several instants."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import child_env, in_a_terminal_group, make_workspace
from pnpgen.atomic import TMP_SUFFIX
from signals import children_at_work, files, handles, outside_cache, sent, waited

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's children from /proc")

PAUSE = "PNPGEN_TEST_PAUSE_BEFORE_COMMIT"
SIGNALS = pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])


class Workspace:
    """A drafted test game built twice (versions v1, v2), a rulebook, a reprint and a doujin export
    of it made, then its deck edited: what each command is stopped in the middle of redoing."""

    def __init__(self, tmp_path: Path) -> None:
        self.ws = make_workspace(tmp_path / "ws", pieces=[f"札{i}" for i in range(30)], draft=True)
        self.temp = tmp_path / "temp"
        self.temp.mkdir()
        self.env = child_env(TMPDIR=str(self.temp), PNPGEN_CACHE=str(tmp_path / "cache"))

    def run(self, *command: str) -> None:
        done = subprocess.run([sys.executable, "-m", "pnpgen", *command], cwd=self.ws, env=self.env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr

    def edit(self, old: str, new: str, file: str = "data/test/decks/cards.yaml") -> None:
        path = self.ws / file
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def stopped(self, command: list[str], signum: int, when: str, script: str | None = None) -> tuple[int, str]:
        """``command`` sent ``signum`` at ``when``: "start" (its handler in place), "staged" (every
        file staged, nothing committed), "working" (a process of its own at work: Ghostscript), or
        "paused" (``script``, pnpgen's start with a pause of the test's, said on stderr); (exit status, stderr)."""
        env = self.env | ({PAUSE: "60"} if when == "staged" else {})
        start = [sys.executable, "-c", script] if script else [sys.executable, "-m", "pnpgen"]
        proc = subprocess.Popen([*start, *command], cwd=self.ws, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=in_a_terminal_group)
        try:
            if when in ("staged", "paused"):
                line = proc.stderr.readline() if proc.stderr else ""
                assert ("every file staged" if when == "staged" else "paused") in line, (line, proc.communicate())
            elif when == "working":
                waited(proc, children_at_work)
            else:
                waited(proc, lambda pid: handles(pid, signal.SIGTERM))
        except BaseException:
            proc.kill()
            raise
        err = sent(proc, signum)
        return proc.returncode, err

    def left(self) -> list[str]:
        """Temporary files and folders of pnpgen's anywhere it writes."""
        return ([name for name in files(self.ws) if name.endswith(TMP_SUFFIX) or ".part" in name]
                + [p.name for p in self.temp.iterdir()])


def _said_stopped(code: int, err: str, signum: int) -> None:
    said = "pnpgen: interrupted" + ("" if signum == signal.SIGINT else f" ({signal.Signals(signum).name})")
    assert (code, err.splitlines()[-1:]) == (128 + signum, [said]), err
    assert "Traceback" not in err and err.count("pnpgen: interrupted") == 1, err


def _stops_and_keeps(tmp_path: Path, command: list[str], signum: int, when: str, made, edit) -> None:
    """``made(w)`` the last good output, ``edit(w)`` a change for ``command`` to write anew."""
    w = Workspace(tmp_path)
    made(w)
    edit(w)
    before = outside_cache(files(w.ws))
    code, err = w.stopped(command, signum, when)
    _said_stopped(code, err, signum)
    assert outside_cache(files(w.ws)) == before  # the last good output as it was
    assert w.left() == []
    w.run(*command)  # (and the next run is not refused: no lock, no journal in its way)
    assert outside_cache(files(w.ws)) != before


RULEBOOK = ["rulebook", "--game", "test", "--quiet"]
REPRINT = ["reprint", "--game", "test", "--since", "v1", "--quiet"]
PREFLIGHT = ["preflight", "--game", "test", "--preset", "doujin", "--json", "report.json", "--quiet"]
BUILD = ["build", "--game", "test", "--quiet"]


@SIGNALS
@pytest.mark.parametrize("when", ["start", "staged"])
def test_the_rulebook_command_stopped_keeps_the_last_book(tmp_path, signum, when):
    _stops_and_keeps(tmp_path, RULEBOOK, signum, when, lambda w: w.run(*RULEBOOK),
                     lambda w: _add_line(w.ws / "data/test/draft.txt", "追記の一文。"))


@SIGNALS
@pytest.mark.parametrize("when", ["start", "staged"])
def test_reprint_stopped_keeps_the_last_reprint(tmp_path, signum, when):
    def made(w: Workspace) -> None:
        w.run(*BUILD)  # v1
        w.edit("札2,", "改二,")
        w.run(*BUILD)  # v2
        w.run(*REPRINT)  # reprint-since-v1: 改二's copies

    _stops_and_keeps(tmp_path, REPRINT, signum, when, made, lambda w: w.edit("札3,", "改三,"))


@SIGNALS
@pytest.mark.parametrize("when", ["start", "working"])
def test_preflight_stopped_keeps_its_last_report_and_leaves_no_separations(tmp_path, signum, when):
    if shutil.which("gs") is None and when == "working":
        pytest.skip("no Ghostscript: preflight starts no process of its own")
    w = Workspace(tmp_path)
    w.run(*BUILD)
    w.run("export", "--game", "test", "--preset", "doujin", "--quiet")
    w.run(*PREFLIGHT)
    report = (w.ws / "report.json").read_bytes()
    before = outside_cache(files(w.ws))
    code, err = w.stopped(PREFLIGHT, signum, when)
    _said_stopped(code, err, signum)
    assert (w.ws / "report.json").read_bytes() == report
    assert outside_cache(files(w.ws)) == before
    assert w.left() == []  # (its pnpgen-preflight-* folder of separations, Ghostscript's pages)


# ``pnpgen clean`` as started, but paused (and saying so) after removing ``AFTER`` of the files it
# removes (0: before it removes any), for the signal to land there: a clean takes some milliseconds.
CLEAN_PAUSED = """
import sys, time
from pnpgen.engine import clean
removed, remove = [], clean._remove
def paused(*args, **kwargs):
    if len(removed) == AFTER:
        print("pnpgen (test): clean paused", file=sys.stderr, flush=True)
        time.sleep(60)
    removed.append(args)
    return remove(*args, **kwargs)
clean._remove = paused
from pnpgen.cli import console
sys.argv[0] = "pnpgen"
console()
"""


@SIGNALS
@pytest.mark.parametrize("after", [0, 5, 12])  # (of its 16 removals)
def test_clean_stopped_leaves_no_lock_and_the_next_clean_finishes(tmp_path, signum, after):
    """Stopped before it removes a file, clean removes nothing; later, what it removed is gone and
    what it had not reached stays with its record, so that the next clean removes it: the same end
    as one clean, the designer's own file in build/ kept."""
    w = Workspace(tmp_path)
    w.run(*BUILD)
    w.run("export", "--game", "test", "--preset", "tabletopsimulator", "--quiet")  # (a build's records, an export's)
    (w.ws / "build" / "notes.txt").write_text("mine", encoding="utf-8")
    before = outside_cache(files(w.ws))
    code, err = w.stopped(["clean"], signum, "paused", CLEAN_PAUSED.replace("AFTER", str(after)))
    _said_stopped(code, err, signum)
    if after == 0:
        assert outside_cache(files(w.ws)) == before
    assert w.left() == []
    w.run("clean", "--history")
    assert [name for name in files(w.ws) if name.startswith("build")] == [  # (its marker and lock beside the file)
        "build", "build/.pnpgen-output", "build/.pnpgen.lock", "build/notes.txt"]


def _add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")


# pnpgen's start as ``python -m pnpgen`` runs it, the signal sent to itself at one of the instants
# between its handler's place and the command's (cli.py: ``console`` before ``main``, ``main``
# before its guard), and after the command, as the process ends.
STARTING = """
import os, signal, sys
import pnpgen.cli as cli
def there(*args, **kwargs):
    setattr(owner, name, real)  # (once)
    os.kill(os.getpid(), signal.SIGNUM)
    return real(*args, **kwargs)
owner, name = OWNER, "NAME"
real = getattr(owner, name)
setattr(owner, name, there)
sys.argv[0] = "pnpgen"
from pnpgen.__main__ import console
console()
"""


@SIGNALS
@pytest.mark.parametrize("where", ["cli.forked_end_with_parent", "cli.os.getcwd", "cli.option_values_joined", "cli._leave"])
def test_a_signal_as_the_command_starts_or_ends_is_one_line(tmp_path, signum, where):
    ws = make_workspace(tmp_path / "ws", pieces=["札"])
    owner, name = where.rsplit(".", 1)
    script = STARTING.replace("SIGNUM", signal.Signals(signum).name).replace("OWNER", owner).replace("NAME", name)
    done = subprocess.run([sys.executable, "-c", script, "list"], cwd=ws, env=child_env(), capture_output=True,
                          text=True, timeout=120, preexec_fn=in_a_terminal_group)
    _said_stopped(done.returncode, done.stderr, signum)
    assert done.stderr.count("\n") == 1


# What pnpgen's start (``python -m pnpgen``, up to the command's own handler of SIGTERM: cli.py
# ``console``) does to files, seen by Python's audit hooks: a SIGTERM there ends the process the
# system's way, so nothing may be written, made, moved or removed before it.
IMPORTS_WRITE = """
import os, sys
done = []
WRITES = {"os.rename", "os.replace", "os.remove", "os.rmdir", "os.mkdir", "os.symlink", "os.link", "os.chmod",
          "os.truncate", "shutil.rmtree", "shutil.move", "shutil.copyfile"}
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)) and (
            any(c in (args[1] or "") for c in "wax+") or (args[2] or 0) & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
        done.append((event, args[0]))
    elif event in WRITES:
        done.append((event, args[0]))
sys.addaudithook(hook)
import pnpgen.__main__
import pnpgen.cli
print(repr(done))
"""


def test_pnpgen_writes_nothing_before_its_handler_of_sigterm_is_in_place(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["札"])
    env = child_env(PYTHONDONTWRITEBYTECODE="1")  # (Python's own bytecode cache: written whole, beside pnpgen's modules)
    done = subprocess.run([sys.executable, "-c", IMPORTS_WRITE], cwd=ws, env=env, capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr


# preflight as started, a SIGTERM sent to itself as soon as pdftoppm has drawn a page for --pages-png
# (and before pnpgen puts it in place under its name)
PAGE_DRAWN = """
import os, signal, subprocess, sys
from pnpgen.preflight import run
real = subprocess.run
def drawn(args, *rest, **kwargs):
    done = real(args, *rest, **kwargs)
    if args[0] == "pdftoppm":
        os.kill(os.getpid(), signal.SIGTERM)
    return done
run.subprocess.run = drawn
from pnpgen.cli import console
sys.argv[0] = "pnpgen"
console()
"""


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="draws pages with pdftoppm")
def test_preflight_stopped_as_a_page_is_drawn_leaves_no_part_of_it(tmp_path):
    """--pages-png: pdftoppm draws each page with a finding as ``.<name>.part.png``, renamed into
    place; stopped between the two, the part was left in the designer's folder."""
    w = Workspace(tmp_path)
    w.run(*BUILD)
    w.run("export", "--game", "test", "--preset", "doujin", "--quiet")
    looked = ["preflight", "--game", "test", "--preset", "doujin", "--min-text", "30pt", "--pages-png", "flagged"]
    done = subprocess.run([sys.executable, "-c", PAGE_DRAWN, *looked], cwd=w.ws, env=w.env, capture_output=True,
                          text=True, timeout=300)
    _said_stopped(done.returncode, done.stderr, signal.SIGTERM)
    assert [p.name for p in (w.ws / "flagged").iterdir()] == []
    assert w.left() == []
