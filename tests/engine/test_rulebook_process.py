"""The rulebook's second process: started before the game is read (once it is read, for a draft
named elsewhere), it loads its libraries and parses the rulebook's fonts while the build draws
the faces; the build's own process never imports the rulebook."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import DECK_YAML, child_env, make_workspace, run
from pnpgen import fonts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace

CHECK = """\
import sys
from pnpgen.cli import main
code = main(["build", "--game", "test", "--jobs", "2", "--out", sys.argv[1]])
print(code, "pnpgen.rulebook" in sys.modules, "reportlab.platypus" in sys.modules)
"""


def test_the_build_process_never_imports_the_rulebook_and_the_rulebook_is_the_same(tmp_path):
    ws = make_workspace(tmp_path / "ws", draft=True)
    env = child_env({"PATH": "/usr/bin:/bin"})
    proc = subprocess.run([sys.executable, "-c", CHECK, str(tmp_path / "beside")], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[-1].split() == ["0", "False", "False"], proc.stderr
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--out", str(tmp_path / "alone")) == 0
    for name in ("rulebook.pdf", "rulebook-booklet.pdf", "proof.txt", "manifest.json"):
        assert (tmp_path / "beside" / "test" / name).read_bytes() == (tmp_path / "alone" / "test" / name).read_bytes()


def test_prepare_parses_the_fonts_the_draft_is_set_in(tmp_path):
    from pnpgen.rulebook import prepare

    ws = Workspace(make_workspace(tmp_path / "ws", draft=True))
    game = load_game(ws, "test")
    prepare(game, ws.fonts)
    assert {"BIZUDPMincho-Regular", "BIZUDPGothic-Regular", "BIZUDPGothic-Bold", "BIZUDGothic-Regular"} \
        <= set(fonts._registered)


def test_a_face_in_a_font_of_the_workspaces_own_is_drawn_in_the_rulebooks_process(tmp_path, capsys):
    """An American trial: a card back set in a font of the workspace's fonts/ under a role of its
    own (display) crashed the build with ReportLab's KeyError in the rulebook's process, started
    before the game was read: the book drew the card's picture in a font it had never located."""
    import shutil

    from conftest import BACK, GAME_YAML, REPO

    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "fonts: {display: CardDisplayTrial}\n",
                        back=BACK.replace("{% endblock %}", '<text x="5" y="20" font-family="CardDisplayTrial" '
                                          'font-size="5" fill="#ffffff">Deck</text>\n{% endblock %}'))
    (ws / "fonts").unlink()
    shutil.copytree(REPO / "fonts", ws / "fonts")
    shutil.copy(REPO / "fonts" / "NotoSerif-Regular.ttf", ws / "fonts" / "CardDisplayTrial.ttf")  # a name no other test uses
    assert run(ws, "build", "--game", "test", "--jobs", "2") == 0, capsys.readouterr().err
    import pypdf

    book = "".join(page.extract_text() for page in pypdf.PdfReader(ws / "build" / "test" / "rulebook.pdf").pages)
    assert "Deck" in book  # the back's word, in the picture of the back


def test_a_face_error_after_the_rulebook_process_started_is_one_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", draft=True, front='<svg xmlns="http://www.w3.org/2000/svg">{{ piece.nothing.here }}</svg>')
    assert run(ws, "build", "--game", "test", "--jobs", "2") == 2
    err = capsys.readouterr().err
    assert "nothing" in err and "Traceback" not in err
    assert not (ws / "build" / "test" / "rulebook.pdf").exists()


def test_a_piece_too_large_for_the_paper_stops_the_build_before_the_rulebook(tmp_path, capsys, monkeypatch):
    """The rulebook starts once the faces are converted; whether every deck fits the paper is
    known before that, so such an error never waits for a rulebook to be typeset."""
    from pnpgen.engine import bookjob

    monkeypatch.setattr(bookjob, "_typeset", lambda *a: pytest.fail("the rulebook was typeset"))
    deck = DECK_YAML.replace("format: poker", "size: [400, 500]") + "  - {name: 巨大}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, draft=True)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    assert "a 400×500 mm piece does not fit on A4" in capsys.readouterr().err


def test_the_rulebook_process_starts_before_the_game_is_read_and_a_bad_deck_is_one_line(tmp_path, capsys, monkeypatch):
    """Its libraries load while this process reads the game; a deck that cannot be read still
    stops the build with one line, and the second process ends with it."""
    import multiprocessing
    import time

    from pnpgen.engine import run as build_run

    seen = []
    real = build_run.load_game

    def load(*a, **k):
        seen.append(len(multiprocessing.active_children()))
        return real(*a, **k)

    monkeypatch.setattr(build_run, "load_game", load)
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: [1, 2}\n", draft=True)
    end = time.monotonic() + 30  # an earlier test's rulebook process, still ending (as this one's does below)
    while multiprocessing.active_children() and time.monotonic() < end:
        time.sleep(0.05)
    assert run(ws, "build", "--game", "test", "--jobs", "2") == 2
    err = capsys.readouterr().err
    assert seen == [1], seen  # the second process was there when the game was read
    assert err.count("\n") == 1 and "cards.yaml" in err and "Traceback" not in err, err
    end = time.monotonic() + 30
    while multiprocessing.active_children() and time.monotonic() < end:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


NOTHING_CHANGED = """\
import sys
from pnpgen.cli import main
code = main(["-q", "build", "--game", "test"])
heavy = ("yaml", "lxml", "reportlab", "PIL", "jinja2", "pnpgen.svg", "pnpgen.faces", "pnpgen.rulebook",
         "pnpgen.data.printers", "pnpgen.data.sheetlayouts", "pnpgen.data.yamlsrc")
import pnpgen  # (ReportLab's hooks pnpgen stands in for, empty modules, are pnpgen's: no stage)
print(code, sorted({m.split(".")[0] if not m.startswith("pnpgen") else m for m in sys.modules
                    if m.startswith(heavy) and m not in pnpgen.REPORTLAB_HOOKS}))
"""


def test_a_build_that_finds_everything_up_to_date_loads_no_stage(built_workspace):
    """Nothing changed: pnpgen answers "up to date" from the fingerprints and the sealed state
    alone, without importing a stage or a library that reads, draws or writes (a no-op build's
    time is mostly its imports)."""
    assert run(built_workspace, "build", "--game", "test") == 0
    proc = subprocess.run([sys.executable, "-c", NOTHING_CHANGED], cwd=built_workspace, env=child_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[-1] == "0 []", proc.stdout + proc.stderr



def test_the_last_settings_garbage_is_freed_before_the_next_setting(tmp_path):
    """A setting leaves reference cycles (ReportLab's document, the booklet's objects: some
    9,000 objects), which the collector freed in the middle of every fifth setting of a watch
    session, on the save's wait; the warm rulebook's process frees them when the next save's
    preparation starts, while the build's process draws the faces."""
    import gc
    import weakref

    from pnpgen.engine import typeset
    from pnpgen.engine.typeset import prepare_rulebook

    class Setting:
        pass

    ws = Workspace(make_workspace(tmp_path / "ws", draft=True))
    game = load_game(ws, "test")
    was = gc.isenabled()
    gc.disable()  # (no collection of the collector's own in between: only the one asked for)
    try:
        last = Setting()
        last.cycle = last  # type: ignore[attr-defined]
        left = weakref.ref(last)
        del last
        assert left() is not None  # garbage, not yet freed
        prepare_rulebook(typeset.Setting(), ws, game)  # a one-off build's process: none left by a setting before
        assert left() is not None
        prepare_rulebook(typeset.Setting(), ws, game, warm=True)  # watch's, kept across saves
        assert left() is None
    finally:
        if was:
            gc.enable()
