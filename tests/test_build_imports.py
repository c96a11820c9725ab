"""A build imports nothing it does not use (issue 22: the 53-card poker deck within 1.5× of a
hand-written ReportLab script, where a start of pnpgen is mostly its imports).

A real ``python -m pnpgen build`` of a tiny game, its YAML already in this machine's cache (a
designer's every build but the first), lists the modules it ended with (``PNPGEN_TEST_MODULES``,
cli.py): what only a cache miss, a mistake, ``watch`` or a big build needs stays out — each is
imported where it is used (docs/speed-rounds.md, "startN")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import FEW_CARDS, PICTURE_DECK_YAML, PICTURE_FRONT, child_env, make_workspace

# imported only by the command, the case or the build that uses it (its place named)
NOT_IMPORTED = {
    "yaml": "data/yamlsrc.py, messages/: a YAML text parsed (not in the machine's cache)",
    "concurrent.futures": "engine/fingerprint.py, game.py, transaction.py: threads or workers started; engine/warm.py: watch",
    "subprocess": "engine/trash.py: replaced files freed by a process of their own",
    "secrets": "engine/trash.py",
    "difflib": "data/decklist.py, errors.py: a name mistyped",
    "decimal": "data/numberformat.py: a spreadsheet's formatted number",
    "fractions": "data/numberformat.py",
    "reportlab.pdfbase.ttfonts": "fonts.py ttfont: ReportLab's font made where a ReportLab canvas draws with it "
                                 "(svglib's faces, the rulebook); widths and glyph ids from the kept tables",
    "reportlab.rl_config": "pdf/settings.py: ReportLab's settings changed where it draws",
    "reportlab.pdfbase.pdfdoc": "pdf/shading.py, pdf/settings.py: ReportLab's objects where it draws",
    "PIL": "reportlab.lib.utils (ReportLab's modules above); data/artfile.py, data/pixels.py: a picture read",
    "pnpgen.checkcommand": "cli.py: pnpgen check",
    "pnpgen.toolcommands": "cli.py: export-sheet, clean, calibrate, docs, preflight",
}


def _modules(ws: Path, cache: Path, listed: Path, out: Path | None = None) -> set[str]:
    """The modules a ``python -m pnpgen build`` process in ``ws`` ended with, building into a new
    folder (as the bench's poker deck: every document written), or into ``out``."""
    env = child_env(PNPGEN_CACHE=str(cache), PNPGEN_TEST_MODULES=str(listed))
    proc = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--no-rulebook", "-q",
                           "--out", str(out or ws / listed.stem)], cwd=ws, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(listed.read_text(encoding="utf-8").split())


def test_a_build_of_cached_files_imports_only_what_it_uses(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    cache = tmp_path / "cache"
    first = _modules(ws, cache, tmp_path / "first.txt")  # (nothing in the machine's cache: the YAML parsed)
    assert {"pnpgen.engine.run", "jinja2", "yaml"} <= first  # (not blind: a module imported is listed)
    modules = _modules(ws, cache, tmp_path / "modules.txt")
    assert "pnpgen.data.yamlsrc" in modules and (ws / "modules" / "test" / "cards.pdf").stat().st_size > 0
    imported = {name: why for name, why in NOT_IMPORTED.items() if name in modules}
    assert imported == {}


PICTURED_PIECES = """\
  - {name: 一番, art: a.png}
  - {name: 二番%s, art: b.png}
  - {name: 三番, art: c.png}
"""
# what only drawing with ReportLab or reading a picture's pixels needs: a text edit of a pictured
# card renders and converts its face again, measures its text, places its picture, and needs none
# (not the deck's first card: its face is read back as pixels for bare bleed, pdf/pixels.py, with Pillow)
DRAWN_OR_DECODED = {"PIL.Image", "reportlab.pdfbase.ttfonts", "reportlab.rl_config", "reportlab.pdfbase.pdfdoc"}


def test_a_text_edit_of_a_pictured_card_opens_no_picture_and_draws_nothing_with_reportlab(tmp_path):
    """The edited card's face is rendered and converted again: its picture's size and whether it is
    see-through come from the sizes its build kept (data/art.py ``Sizes``), its print bytes from the
    machine's cache (``artfile.print_bytes``: shown as it is), its pixels' size from the PNG's
    header (``picturebytes.opaque_png_size``); its text is measured from the fonts' kept tables
    (``fonts.string_width``) — neither Pillow's image modules nor ReportLab's font modules are
    imported (some 17 and 30 ms of a 1,000-card edit: docs/speed-rounds.md, "imports46")."""
    from PIL import Image

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + PICTURED_PIECES % "", front=PICTURE_FRONT)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    for i, name in enumerate("abc"):
        Image.new("RGB", (120, 168), (60 * i, 90, 160)).save(art / f"{name}.png")
    cache, out = tmp_path / "cache", tmp_path / "out"
    cold = _modules(ws, cache, tmp_path / "cold.txt", out)
    assert DRAWN_OR_DECODED <= cold  # (not blind: the fonts parsed, the pictures measured)
    before = (out / "test" / "cards.pdf").read_bytes()
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(PICTURE_DECK_YAML + PICTURED_PIECES % "改", encoding="utf-8")
    edited = _modules(ws, cache, tmp_path / "edited.txt", out)
    assert (out / "test" / "cards.pdf").read_bytes() != before  # (the face rendered and drawn again)
    assert DRAWN_OR_DECODED & edited == set()


# A build into ``sys.argv[1]`` in pnpgen's own process (``cli.main(own_process=True)``), the
# collector's young generation made small (a tiny game's build, unlike a 1,000-card edit's, reaches
# the console's 50,000 new objects only after the imports), saying each collection made while the
# build's stages were imported (pnpgen/engine/run.py running as a module) and how many objects
# were set aside.
STAGES_IMPORTED = """
import gc, json, os, sys
from pnpgen import cli
gc.set_threshold(2_000, *cli.COLLECTOR_THRESHOLDS[1:])
during = []

def watch(phase, info):
    f = sys._getframe()
    while f is not None and phase == "start":
        if f.f_code.co_name == "<module>" and f.f_code.co_filename.endswith(os.path.join("engine", "run.py")):
            during.append(info["generation"])
        f = f.f_back

gc.callbacks.append(watch)
code = cli.main(["build", "--game", "test", "--no-rulebook", "-q", "--out", sys.argv[1]], own_process=True)
print(json.dumps({"code": code, "during": during, "frozen": gc.get_freeze_count()}))
"""


def test_the_build_stages_are_imported_without_a_collection_and_set_aside(tmp_path):
    """Importing the build's stages makes more objects than the collector's young generation
    holds (``cli.COLLECTOR_THRESHOLDS``): with the collector on, a young collection midway walked
    them only to keep them, just before ``gc.freeze`` set them aside (12–17 ms of a 1,000-card
    edit). They are imported with it off, then set aside (docs/speed.md, "editO")."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    env = child_env(PNPGEN_CACHE=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", STAGES_IMPORTED, str(tmp_path / "out")], cwd=ws, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout.splitlines()[-1])
    assert said["code"] == 0 and (tmp_path / "out" / "test" / "cards.pdf").stat().st_size > 0
    assert said["during"] == []  # (with the collector on while they import: some twenty young collections)
    assert said["frozen"] > 30_000  # the stages' objects, set aside
