"""game.yaml ``share_sheets: true`` with die-cut pieces of different outlines (docs/data-format.md,
"Polyomino tiles"; docs/home-printing.md, "Small decks sharing sheets"): four polyomino shapes,
a deck each, share the sheets of <game>-all.pdf in slots the size of the largest piece, each
piece centred in its slot, cut along its own outline, its back behind its front (read back from
the PDF in mm); each deck's own file keeps its own layout."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, GAME_YAML, make_workspace, run
from homeprint.test_share_sheets import PROFILE, H, W, cards_at
from pdfprobe import texts

# the L, I, O and T of the docs, 15 mm a cell: (size, points), and the tiles of each
SHAPES = {
    "ell": ((30, 45), [[0, 0], [15, 0], [15, 30], [30, 30], [30, 45], [0, 45]], 3),
    "i": ((15, 60), [[0, 0], [15, 0], [15, 60], [0, 60]], 2),
    "oh": ((30, 30), [[0, 0], [30, 0], [30, 30], [0, 30]], 2),
    "tee": ((45, 30), [[0, 0], [45, 0], [45, 15], [30, 15], [30, 30], [15, 30], [15, 15], [0, 15]], 1),
}


def polyominoes(root: Path, share: bool = True) -> Path:
    ws = make_workspace(root, game=GAME_YAML + ("share_sheets: true\n" if share else ""))
    folder = ws / "data" / "test" / "decks"
    (folder / "cards.yaml").unlink()
    for deck, ((w, h), points, n) in SHAPES.items():
        text = DECK_YAML.replace("テストカード", deck).replace("format: poker\n", f"kind: tile\nshape: polygon\nsize: [{w}, {h}]\npoints: {points}\n")
        text += "".join(f"  - {{name: {deck}{i}, text: t}}\n" for i in range(1, n + 1))
        (folder / f"{deck}.yaml").write_text(text, encoding="utf-8")
    for side, name in (("front", "piece.name"), ("back", '"B" ~ piece.name')):  # the name at the piece's centre
        (ws / "templates" / "test" / f"card-{side}.svg.j2").write_text(
            '{% extends "common/piece.svg.j2" %}{% block art %}'
            '<rect x="-3" y="-3" width="{{ w + 6 }}" height="{{ h + 6 }}" fill="#c0392b"/>'
            f'{{{{ textbox({name}, w / 2 - 6, h / 2 - 3, 12, 6, size=7, align="center") }}}}'
            '{% endblock %}', encoding="utf-8")
    (ws / "printers.yaml").write_text(PROFILE, encoding="utf-8")
    return ws


def build(ws: Path, out: Path, *args: str) -> Path:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out), *args) == 0
    return out / "test"


def die_lines(pdf: Path, page: int) -> list[list[tuple[float, float]]]:
    """The page's closed paths of straight segments (its die lines), corners in mm from the top-left."""
    reader = PdfReader(pdf)
    data = reader.pages[page].get_contents().get_data()  # type: ignore[union-attr]
    h = float(reader.pages[page].mediabox.height)
    out = []
    for m in re.finditer(rb"(-?[\d.]+) (-?[\d.]+) m((?: -?[\d.]+ -?[\d.]+ l)+)(?: h)?", data):
        numbers = [float(v) for v in re.findall(rb"-?[\d.]+", m.group(0))]
        out.append([(x * 25.4 / 72, (h - y) * 25.4 / 72) for x, y in zip(numbers[::2], numbers[1::2])])
    return out


def test_pieces_of_four_outlines_share_one_sheet(tmp_path):
    alone = build(polyominoes(tmp_path / "alone", share=False), tmp_path / "o1")
    out = build(polyominoes(tmp_path / "ws"), tmp_path / "o2")
    sheets = [p for p in texts(out / "test-all.pdf") if "表" in p or "裏" in p]
    assert len([p for p in texts(alone / "test-all.pdf") if "表" in p]) == 4
    assert len(sheets) == 2  # one sheet, fronts and backs: not 4
    assert "ell + i + oh + tee (ell+i+oh+tee) 表 共有 1/1" in sheets[0]
    on = cards_at(out / "test-all.pdf")
    assert sorted(on[0]) == sorted(f"{d}{i}" for d, (_s, _p, n) in SHAPES.items() for i in range(1, n + 1))
    # each piece centred in a slot 45 × 60 mm (the widest by the tallest), cut along its own outline
    dies = die_lines(out / "test-all.pdf", 0)
    centres = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in on[0].values()]
    assert len({round(x, 2) for x, _y in centres}) == 3 and len({round(y, 2) for _x, y in centres}) == 3  # a 3 × 3 grid
    for name, (x0, y0, x1, y1) in on[0].items():
        (w, h), points, _n = SHAPES[re.sub(r"\d", "", name)]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rel = [(px - w / 2, py - h / 2) for px, py in points]  # the outline about its centre, as designed or turned 90°
        wants = [sorted((round(cx + dx, 2), round(cy + dy, 2)) for dx, dy in turned)
                 for turned in (rel, [(-dy, dx) for dx, dy in rel])]
        found = [die for die in dies if sorted((round(x, 2), round(y, 2)) for x, y in die[:len(points)]) in wants]
        assert len(found) == 1, name
    shared = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]["shared_sheets"]
    assert shared == [{"decks": ["ell", "i", "oh", "tee"], "sheets": 1, "alone": 4, "pages": [1, 2]}]
    assert len(texts(out / "ell.pdf")) == 2  # its own file: its own sheet


@pytest.mark.parametrize("args, flip", [((), "long"), (("--printer", "steady", "--duplex", "short"), "short")])
def test_each_back_is_behind_its_own_front(tmp_path, args, flip):
    out = build(polyominoes(tmp_path / "ws"), tmp_path / "out", *args)
    dx, dy = (0.3, -0.2) if "steady" in args else (0.0, 0.0)
    fronts, backs = cards_at(out / "test-all.pdf")[:2]
    assert sorted(backs) == sorted(f"B{name}" for name in fronts) and len(fronts) == 8
    for name, (x0, y0, x1, y1) in fronts.items():
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        want = (W - cx + dx, cy + dy) if flip == "long" else (cx + dx, H - cy + dy)
        bx0, by0, bx1, by1 = backs[f"B{name}"]
        assert ((bx0 + bx1) / 2, (by0 + by1) / 2) == pytest.approx(want, abs=0.01), name
