"""docs/data-format.md, "A spinner": the disc and the arrow build as written, two decks and no
template; one disc and one arrow are printed (the manifest's pieces, the shop files' pages), the
disc's numbers stand in their four sectors, and the die line of the arrow is its points."""

from __future__ import annotations

import json
import re

import pikepdf
from pypdf import PdfReader

from conftest import REPO, docs_deck_workspace, run
from pdfprobe import glyphs

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="spinner"></a>')
SECTION = FORMAT[START:FORMAT.index("tests/test_docs_spinner.py", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
GAME = "title: Spinner\nlanguages: [en]\nplayers: 2-4\n"
PT = 72 / 25.4


def test_the_spinner_builds_as_written_and_its_arrow_is_cut_along_its_points(tmp_path, capsys):
    disc, arrow = [body for _, body in FENCE.findall(SECTION)]
    ws = docs_deck_workspace(tmp_path / "ws", GAME, "spinner", disc, {})
    (ws / "data" / "test" / "decks" / "arrow.yaml").write_text(arrow, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "warning" not in err, err  # no lint: the example is clean as written
    out = ws / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    decks = {d["id"]: d for d in manifest["decks"]}
    assert set(decks) == {"spinner", "arrow"} and [decks[d]["count"] for d in ("spinner", "arrow")] == [1, 1]
    assert [len(PdfReader(out / "shop" / f"{d}.pdf").pages) for d in ("spinner", "arrow")] == [1, 1]
    # the disc (shop page: 100 mm and 3 mm of bleed): each number in its sector, clockwise from the top right
    [page] = glyphs(out / "shop" / "spinner.pdf")
    at = {g.char: (g.x - 3, g.y - 3) for g in page if g.char in "1234"}
    assert set(at) == set("1234")
    assert at["1"][0] > 55 and at["1"][1] < 45 and at["2"][0] > 55 and at["2"][1] > 55
    assert at["3"][0] < 45 and at["3"][1] > 55 and at["4"][0] < 45 and at["4"][1] < 45
    # the arrow's die line: its points, mm from the trim's top-left corner (the PDF's y runs up)
    with pikepdf.open(out / "shop" / "arrow-die.pdf") as pdf:
        die = pdf.pages[0].Contents.read_bytes()
        height = float(pdf.pages[0].MediaBox[3]) / PT
    path = re.search(rb"([\d.]+) ([\d.]+) m((?: [\d.]+ [\d.]+ l)+)", die)
    assert path is not None
    numbers = [float(v) for v in re.findall(rb"[\d.]+", path.group(0))]
    corners = {(round(x / PT - 3, 2), round(height - 3 - y / PT, 2)) for x, y in zip(numbers[::2], numbers[1::2])}
    assert corners == {(8, 0), (16, 14), (10.5, 14), (10.5, 70), (5.5, 70), (5.5, 14), (0, 14)}
