"""docs/data-format.md, "A 帯 (obi)": the band round a box, a board deck of its size with boxes of
its own, 2 × (the box's width + depth) + 10 mm long, the width of the box's net; at a 同人印刷所 at
its own size with 3 mm 塗り足し and no die line (trial75: the docs were silent on 帯)."""

from __future__ import annotations

import re

from pypdf import PdfReader

from conftest import REPO, make_workspace, run

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### A 帯 (obi)")
SECTION = FORMAT[START:FORMAT.index("\n### ", START + 5)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
CARDS = "name: 札\nlayout: card-jp\npieces:\n  - {title: 札, count: 55}\n"
BOX = "name: 箱\nlayout: tuck-box\nbox: {deck: cards}\npieces:\n  - {title: 狐の嫁入り}\n"
MM = 25.4 / 72


def _trim_mm(pdf) -> tuple[float, float]:
    box = [float(v) for v in PdfReader(pdf).pages[0].trimbox]
    return round((box[2] - box[0]) * MM, 1), round((box[3] - box[1]) * MM, 1)


def test_the_obi_of_the_docs_wraps_the_box_and_goes_to_the_doujin_printer_at_its_size(tmp_path, capsys):
    (obi,) = [body for _, body in FENCE.findall(SECTION) if body.startswith("# data/<slug>/decks/obi.yaml")]
    ws = make_workspace(tmp_path / "ws", deck=CARDS, game="title: 狐の嫁入り\nplayers: 2-4\n")
    decks = ws / "data" / "test" / "decks"
    (decks / "box.yaml").write_text(BOX, encoding="utf-8")
    (decks / "obi.yaml").write_text(obi, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "obi 帯 ×1 5/sheet (grid), 1 sheet" in said, said  # "five to an A4 sheet"
    assert run(ws, "export", "--game", "test", "--preset", "doujin-pieces", "--deck", "box", "--deck", "obi") == 0
    out = ws / "build" / "test" / "doujin-pieces"
    assert _trim_mm(out / "obi.pdf") == (165.0, 40.0)
    net_w, _net_h = _trim_mm(out / "box.pdf")
    assert net_w == 165.0 == 2 * (59 + 1 + 55 * 0.3 + 1) + 10  # the band's length: 2 × (60 + 17.5) + 10
    reader = PdfReader(out / "obi.pdf")
    bleed = [float(v) for v in reader.pages[0].bleedbox]
    assert round((bleed[2] - bleed[0]) * MM, 1) == 171.0  # 3 mm 塗り足し each side
    text = "".join(reader.pages[0].extract_text().split())
    assert "ゲームマーケット新作" in text, text
    assert (out / "box-die.pdf").exists() and not (out / "obi-die.pdf").exists()
