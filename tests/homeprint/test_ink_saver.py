"""--ink saver / saver-grey: large fills tinted, text kept (and dark), art greyed, toner measured."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from conftest import make_workspace, run
from pdfprobe import form_texts
from pnpgen import fonts
from pnpgen.svg import convert
from pnpgen.svg.artwork import Art
from pnpgen.svg.ink import InkSaver, luminance, save_ink, tint

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="module")
def _fonts():
    fonts.register("BIZUDPGothic-Regular", REPO / "fonts")


FACE = """<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="80mm" viewBox="0 0 60 80">
<rect x="0" y="0" width="60" height="80" fill="#333366"/>
<circle cx="30" cy="60" r="2" fill="#cc3333"/>
<rect x="5" y="5" width="50" height="70" fill="none" stroke="#222222" stroke-width="0.5"/>
<text x="10" y="20" font-family="BIZUDPGothic-Regular" font-size="4" fill="#ffffff">WHITE</text>
<text x="31" y="61" font-family="BIZUDPGothic-Regular" font-size="1" fill="#ffffff">PIP</text>
<text x="10" y="40" font-family="BIZUDPGothic-Regular" font-size="4" fill="#222222">DARK</text>
</svg>"""


def _colours(art) -> list[tuple]:
    """(what, colour) in drawing order: each painted text with the fill colour it is set in."""
    out, fill = [], None
    for it in art.items:
        if it[0] == "fill":
            fill = tuple(it[1:])
        elif it[0] == "text":
            out.append((it[3][0][2], fill))
        elif it[0] == "stroke":
            out.append(("stroke", tuple(it[1:])))
    return out


def test_large_fill_tinted_small_fill_stroke_and_text_kept():
    full = convert(FACE, "test")
    saved = save_ink(full, InkSaver())
    fills = [tuple(it[1:]) for it in saved.items if it[0] == "fill"]
    ground = (0x33 / 255, 0x33 / 255, 0x66 / 255)
    assert tint(ground, 0.25) in [tuple(round(c, 6) for c in f) for f in fills]  # the ground, tinted
    assert (0xcc / 255, 0x33 / 255, 0x33 / 255) in fills  # the small pip kept
    texts = dict(_colours(saved))
    assert texts["stroke"] == (0x22 / 255,) * 3  # the frame kept
    assert texts["DARK"] == (0x22 / 255,) * 3  # dark text never lightened
    # white text on the lightened ground is set in the ground's own dark colour
    assert texts["WHITE"] == ground and luminance(texts["WHITE"]) < 0.3
    assert texts["PIP"] == (1.0, 1.0, 1.0)  # white on the small pip, which kept its colour
    assert [it[3] for it in saved.items if it[0] == "text"] == [it[3] for it in full.items if it[0] == "text"]


def test_saver_grey_turns_art_grey_and_light():
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 20, 20)).save(buf, "PNG")
    art = Art(10.0, 10.0, (("image", buf.getvalue(), 0.0, 0.0, 10.0, 10.0),))
    kept = save_ink(art, InkSaver("saver"))
    assert kept.items[0][1] == buf.getvalue()
    grey = Image.open(io.BytesIO(save_ink(art, InkSaver("saver-grey")).items[0][1]))
    assert grey.mode == "L"
    original = round(0.299 * 200 + 0.587 * 20 + 0.114 * 20)  # Pillow's L
    assert grey.getpixel((3, 3)) == pytest.approx(255 - 0.35 * (255 - original), abs=1)


def test_build_ink_saver_beside_full_colour(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    outs = []
    for n in (1, 2):
        out = tmp_path / f"out{n}"
        assert run(ws, "build", "--game", "test", "--out", str(out), "--ink", "saver", "--jobs", "1") == 0
        outs.append(out / "test")
    a, b = outs
    assert (a / "cards.pdf").is_file() and (a / "ink-saver" / "cards.pdf").is_file()
    ink = json.loads((a / "manifest.json").read_text())["ink"]
    assert ink["mode"] == "saver" and 0.1 < ink["ratio"] < 0.8  # the red and navy grounds tinted
    assert json.loads((b / "manifest.json").read_text())["ink"] == ink
    for name in ("ink-saver/cards.pdf", "ink-saver/test-all.pdf"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    # the faces' text unchanged: every card name and text, front and back
    full, saver = form_texts(a / "cards.pdf"), form_texts(a / "ink-saver" / "cards.pdf")
    assert sorted(t for form in saver for t, *_ in form) == sorted(t for form in full for t, *_ in form)
    assert any("Bカード1" in t for form in saver for t, *_ in form)


def test_ink_figures_from_game_yaml(tmp_path, capsys):
    from conftest import GAME_YAML

    ws = make_workspace(tmp_path / "ws", pieces=["カード1"], game=GAME_YAML + "ink: {keep: 50%, large: 0.5}\n")
    assert run(ws, "-q", "build", "--game", "test", "--out", str(tmp_path / "o"), "--ink", "saver", "--jobs", "1") == 0
    ink = json.loads((tmp_path / "o" / "test" / "manifest.json").read_text())["ink"]
    assert (ink["keep"], ink["large_fill"]) == (0.5, 0.5) and 0.3 < ink["ratio"] < 1
    bad = make_workspace(tmp_path / "bad", game=GAME_YAML + "ink: {keep: 250%}\n")
    capsys.readouterr()
    assert run(bad, "build", "--game", "test", "--out", str(tmp_path / "b"), "--ink", "saver") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "data/test/game.yaml:8" in err and "keep" in err
