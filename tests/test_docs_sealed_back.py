"""docs/data-format.md, a legacy game's sealed packs: a pack's back says when to open it. On the
default back (card-poker's ``deck`` box, one line of 9 pt) a designer's instruction
「封筒B・第２章で城に入ったら開封」 was set small on one line (trial68); the docs now give it a size and
a box of its own. Built as written, its back sets the instruction at 12 pt, bold, in two lines,
inside the card and under the game's title."""

from __future__ import annotations

import re

from conftest import REPO, make_workspace, run
from pdfprobe import glyphs

DOCS = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
(EXAMPLE,) = re.findall(r"```yaml\n# data/<slug>/decks/env-a.yaml\n(.*?)```", DOCS, re.S)
INSTRUCTION = "封筒A・第２章で城に入ったら開封"


def test_the_docs_sealed_pack_back_sets_its_instruction_readable_in_two_lines(tmp_path):
    assert INSTRUCTION in EXAMPLE
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "decks" / "env-a.yaml").write_text(EXAMPLE, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    back = [g for g in glyphs(ws / "build" / "test" / "shop" / "env-a.pdf")[1] if not g.char.isspace()]
    said = [g for g in back if g.char in INSTRUCTION and g.char not in "テストゲーム"]
    assert "".join(g.char for g in back).endswith("".join(INSTRUCTION.split())), "".join(g.char for g in back)
    assert min(g.size for g in said) >= 11.9 and all("Bold" in g.font for g in said), {(g.size, g.font) for g in said}
    lines = sorted({round(g.y, 1) for g in said})
    assert len(lines) == 2 and 4.5 < lines[1] - lines[0] < 7, lines  # two lines of 12 pt (4.2 mm and its leading)
    title_y = max(g.y for g in back if g.char in "テストゲーム" and g.char not in INSTRUCTION)
    assert lines[0] > title_y  # under the game's title
    assert all(9.0 < g.x < 63.0 + 3.0 - 6.0 for g in said), [round(g.x, 1) for g in said]  # inside the box, 6 mm in from the trim (3 mm bleed)
