"""docs/home-printing.md, "One game printed several ways: a build for each": its three command
lines run as written on a game of poker cards, tarot cards, die-cut tiles and a 99 × 128 mm score
pad, with a Letter printer profile named letterjet. Each build goes into its own folder, holding the
files the block's comments and the paragraph under it name; the pad prints 4 a Letter sheet with
トンボ and 2 between a Silhouette's marks, as the paragraph says."""

from __future__ import annotations

import re
import shlex

from pypdf import PdfReader

from conftest import REPO, make_workspace, run

HOME = (REPO / "docs" / "home-printing.md").read_text(encoding="utf-8")
SECTION = HOME[HOME.index("## One game printed several ways"):HOME.index("\n## ", HOME.index("## One game printed several ways") + 5)]

DECKS = {
    "cards": "name: カード\nlayout: card-poker\npieces:\n  - {title: 騎士, count: 3}\n",
    "tarot": "name: タロット\nlayout: card-tarot\npieces:\n  - {title: 星, count: 3}\n",
    "squares": "name: タイル\nkind: tile\nlayout: token-square\nsize: [30, 30]\npieces:\n  - {title: 森, count: 6}\n",
    "scoresheet": "name: 得点表\nkind: board\nlayout: board\nsize: [99, 128]\npieces:\n  - {title: 得点表, count: 4}\n",
}


def _sheets(pdf) -> int:
    return len(PdfReader(pdf).pages)


def test_one_game_built_once_per_way_as_the_docs_write_it(tmp_path, capsys):
    (block,) = re.findall(r"^```sh\n(.*?)^```", SECTION, re.S | re.M)
    lines = [shlex.split(line.split("#")[0]) for line in block.splitlines() if line.strip()]
    assert [line[:3] for line in lines] == [["pnpgen", "build", "--game"]] * 3 and {line[3] for line in lines} == {"tiles"}
    ws = make_workspace(tmp_path / "ws", deck="name: x\n")
    (ws / "data" / "test").rename(ws / "data" / "tiles")
    (ws / "templates" / "test").rename(ws / "templates" / "tiles")
    decks = ws / "data" / "tiles" / "decks"
    (decks / "cards.yaml").unlink()
    for name, text in DECKS.items():
        (decks / f"{name}.yaml").write_text(text, encoding="utf-8")
    (ws / "printers.yaml").write_text("letterjet: {paper: letter, back_offset_mm: [0.8, -1.2]}\n", encoding="utf-8")
    for line in lines:
        assert run(ws, *line[1:], "--no-rulebook", "--jobs", "1") == 0, line
    capsys.readouterr()
    marked, fold, sleeve = ws / "build" / "tiles", ws / "fold" / "tiles", ws / "sleeve" / "tiles"
    assert {p.name.split("-p")[0] for p in (marked / "cut").iterdir()} >= {"squares", "cards", "tarot"}  # the machine's files
    for folder in (marked, fold, sleeve):  # each folder every deck in its way, and its all-in-one file
        assert {f"{d}.pdf" for d in DECKS} | {"tiles-all.pdf"} <= {p.name for p in folder.iterdir()}, folder
    assert not (fold / "cut").exists() and not (sleeve / "cut").exists()
    # fold/tiles/cards.pdf: front and back side by side on one side of the sheet, no backs page
    folded = PdfReader(fold / "cards.pdf").pages[0].extract_text()
    assert "騎士" in folded and _sheets(fold / "cards.pdf") == 1
    assert _sheets(marked / "cards.pdf") == 2  # (a front page and its backs page when not folded)
    assert "スリーブ用" in PdfReader(sleeve / "tarot.pdf").pages[0].extract_text()  # inserts: the slug says the sleeve
    # the score pad: 4 a Letter sheet with トンボ (fold/: one-sided decks print as usual), 2 between the marks
    assert _sheets(fold / "scoresheet.pdf") == 1 and _sheets(marked / "scoresheet.pdf") == 2
    assert "99 × 128" in SECTION and "prints 4 a Letter sheet with トンボ but 2 between the marks" in SECTION.replace("\n", " ")
