"""Text in SVG pictures as Inkscape 1.x and Illustrator save it: <tspan> lines and spans, placed
where the SVG says (glyph positions read back from the PDF, in mm), in the game's fonts."""

from __future__ import annotations

import ctypes
import io
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.pdfgen.canvas import Canvas

from conftest import make_workspace, run
from pnpgen import fonts
from pnpgen.pdf.draw import draw_art
from pnpgen.svg import convert
from pnpgen.svg.families import picture_font

REPO = Path(__file__).resolve().parents[2]
MM = 72 / 25.4
GOTHIC, BOLD = "BIZUDPGothic-Regular", "BIZUDPGothic-Bold"

# Inkscape 1.3's plain SVG of a two-line text (Text tool, Enter between the lines), a bold red
# span in the first line, the second line's font changed to Arial, as it saves it (user units: mm)
INKSCAPE = '''<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg
   width="40mm"
   height="20mm"
   viewBox="0 0 40 20"
   version="1.1"
   id="svg1"
   inkscape:version="1.3.2 (091e20e, 2023-11-25)"
   sodipodi:docname="moon.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns="http://www.w3.org/2000/svg"
   xmlns:svg="http://www.w3.org/2000/svg">
  <sodipodi:namedview
     id="namedview1"
     pagecolor="#ffffff"
     inkscape:document-units="mm" />
  <defs
     id="defs1" />
  <g
     inkscape:label="Layer 1"
     inkscape:groupmode="layer"
     id="layer1">
    <text
       xml:space="preserve"
       style="font-size:4.23333px;line-height:1.25;font-family:'BIZ UDPGothic';-inkscape-font-specification:'BIZ UDPGothic';letter-spacing:0px;word-spacing:0px;fill:#000000;fill-opacity:1;stroke:none;stroke-width:0.264583"
       x="5"
       y="8"
       id="text1"><tspan
         sodipodi:role="line"
         id="tspan1"
         style="stroke-width:0.264583"
         x="5"
         y="8">Moon <tspan
   style="font-weight:bold;fill:#cc0000"
   id="tspan3">月</tspan></tspan><tspan
         sodipodi:role="line"
         style="font-family:Arial;-inkscape-font-specification:Arial;text-anchor:end;text-align:end;stroke-width:0.264583"
         x="35"
         y="13.291667"
         id="tspan2">Line two</tspan></text>
  </g>
</svg>
'''

# Illustrator 2024, Export As SVG (Styling: Internal CSS): a <style> sheet and a text placed by a
# transform, its spans by x lists and dx
ILLUSTRATOR = '''<?xml version="1.0" encoding="UTF-8"?>
<svg id="Layer_1" data-name="Layer 1" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20">
  <defs>
    <style>
      .cls-1 {
        font-family: NotoSansJP-Bold, 'Noto Sans JP';
        font-size: 5px;
        font-weight: 700;
        fill: #1d2088;
      }
      .cls-2 {
        letter-spacing: 0em;
      }
    </style>
  </defs>
  <text class="cls-1" transform="translate(4 10)"><tspan class="cls-2" x="0" y="0">AB</tspan><tspan x="12" y="0">C</tspan><tspan dx="2" dy="3">D</tspan></text>
</svg>
'''


@pytest.fixture(autouse=True, scope="module")
def _fonts():
    for name in (GOTHIC, BOLD):
        fonts.register(name, REPO / "fonts")


def face_with(picture: str):
    """A 40×20 mm face showing ``picture`` over the whole of it (user units: mm)."""
    face = ('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">'
            '<image href="pic.svg" x="0" y="0" width="40" height="20"/></svg>')
    return convert(face, "f", lambda href: picture.encode())


def glyphs(art) -> list[tuple[str, float, float]]:
    """Each character drawn, with its origin in mm from the top-left (from the PDF's text page)."""
    out = io.BytesIO()
    c = Canvas(out, pagesize=(art.width_pt, art.height_pt), invariant=1)
    draw_art(c, art)
    c.showPage()
    c.save()
    page = pdfium.PdfDocument(out.getvalue())[0]
    text = page.get_textpage()
    found = []
    for i in range(text.count_chars()):
        ch = text.get_text_range(i, 1)
        if ch.strip():
            x, y = ctypes.c_double(), ctypes.c_double()
            pdfium_c.FPDFText_GetCharOrigin(text.raw, i, x, y)
            found.append((ch, x.value / MM, (art.height_pt - y.value) / MM))
    return found


def test_inkscape_lines_and_spans_are_set_where_the_svg_places_them():
    art = face_with(INKSCAPE)
    assert art.fallback is None
    runs = [(it[1], it[3]) for it in art.items if it[0] == "text"]
    assert [font for font, _ in runs] == [GOTHIC, BOLD, GOTHIC]  # Arial: the nearest sans-serif
    got = glyphs(art)
    assert "".join(ch for ch, _, _ in got) == "Moon月Linetwo"
    first = {ch: (x, y) for ch, x, y in got[:5]}
    assert first["M"] == pytest.approx((5.0, 8.0), abs=0.05)
    moon = fonts.ttfont(GOTHIC).stringWidth("Moon ", 4.23333)
    assert first["月"] == pytest.approx((5.0 + moon, 8.0), abs=0.05)  # after "Moon ", on its baseline
    line_two = got[5:]
    assert all(y == pytest.approx(13.291667, abs=0.05) for _, _, y in line_two)
    width = fonts.ttfont(GOTHIC).stringWidth("Line two", 4.23333)
    assert line_two[0][1] == pytest.approx(35 - width, abs=0.05)  # text-anchor end: it ends at x=35
    fill = [it[1:] for it in art.items if it[0] == "fill"]
    assert fill == [(0.0, 0.0, 0.0), (0.8, 0.0, 0.0), (0.0, 0.0, 0.0)]


def test_arial_is_told_once_as_set_in_the_nearest_font():
    marks = [m for m in face_with(INKSCAPE).marks if m[0] == "font"]
    assert [m[7] for m in marks] == [f"pic.svg\nArial\n{GOTHIC}"]  # BIZ UDPGothic is the game's: not told


def test_illustrator_spans_by_x_lists_dx_dy_and_a_style_sheet():
    art = face_with(ILLUSTRATOR)
    assert art.fallback is None
    assert {it[1] for it in art.items if it[0] == "text"} == {BOLD}  # font-weight 700 of 'Noto Sans JP'
    got = {ch: (x, y) for ch, x, y in glyphs(art)}
    assert got["A"] == pytest.approx((4.0, 10.0), abs=0.05)
    assert got["C"] == pytest.approx((16.0, 10.0), abs=0.05)
    c_width = fonts.ttfont(BOLD).stringWidth("C", 5)
    assert got["D"] == pytest.approx((16.0 + c_width + 2, 13.0), abs=0.05)


@pytest.mark.parametrize("body, text", [
    ('<text x="1" y="5" font-family="BIZUDPGothic-Regular">  a  <tspan> b </tspan>  c </text>', "a b c"),
    ('<text x="1" y="5" font-family="BIZUDPGothic-Regular" xml:space="preserve"> a<tspan>  b</tspan></text>', " a  b"),
])
def test_white_space_is_collapsed_across_spans_unless_preserved(body, text):
    art = face_with(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20">{body}</svg>')
    assert "".join(s for it in art.items if it[0] == "text" for _, _, s in it[3]) == text


def test_a_build_with_an_inkscape_picture_prints_its_text_and_tells_the_stranger_font_once(tmp_path, capsys):
    """The picture on two cards: its text is in the cards' PDF as text (extractable, in the
    game's embedded font), and Arial, set in the nearest font, is one warning naming the file."""
    deck = "name: カード\nlayout: card-poker\npieces:\n  - {title: 甲, art: moon.svg}\n  - {title: 乙, art: moon.svg}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "moon.svg").write_text(INKSCAPE, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    told = [line for line in err.splitlines() if "moon.svg" in line]
    assert all(line.startswith("pnpgen: warning: data/test/decks/cards.yaml:4:") for line in told), err
    assert len(told) == 1 and "font-family 'Arial', which is none of the game's fonts: set in BIZUDPGothic-Regular" \
        in told[0] and "and 1 more" in told[0], err
    pdf = next(p for p in (ws / "build" / "test").rglob("*.pdf") if "cards" in p.name)
    doc = pdfium.PdfDocument(str(pdf))
    said = doc[0].get_textpage().get_text_range()
    assert said.count("Moon") == 2 and said.count("月") == 2 and said.count("Line two") == 2, said



def test_a_picture_a_layout_shows_twice_tells_its_stranger_font_once(tmp_path, capsys):
    """A designer's trial: a standee's picture (the layout shows it twice, the figure upright and
    upside down) whose text names no font of the game was told twice, once at the layout's box
    and once at the deck's line: one picture, one warning."""
    deck = "name: Standee\nlayout: standee\npieces:\n  - {title: First, art: moon.svg}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "moon.svg").write_text(INKSCAPE, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    err = capsys.readouterr()
    told = [line for line in (err.out + err.err).splitlines() if "moon.svg" in line and "font-family" in line]
    assert len(told) == 1 and "font-family 'Arial'" in told[0], told

GAME = ["BIZUDGothic-Regular", "BIZUDPGothic-Bold", "BIZUDPGothic-Regular", "BIZUDPMincho-Regular",
        "NotoSans-Regular", "NotoSerif-Regular", "MyFont"]


@pytest.mark.parametrize("family, weight, font, named", [
    ("BIZUDPGothic-Regular", "normal", "BIZUDPGothic-Regular", True),
    ("BIZUDPGothic-Regular", "bold", "BIZUDPGothic-Bold", True),
    ("'BIZ UDPGothic'", "700", "BIZUDPGothic-Bold", True),
    ("BIZ UDPMincho", "normal", "BIZUDPMincho-Regular", True),
    ("Noto Sans", "normal", "NotoSans-Regular", True),
    ("MyFont", "bold", "MyFont", True),
    ("sans-serif", "normal", "BIZUDPGothic-Regular", True),
    ("serif", "normal", "BIZUDPMincho-Regular", True),
    ("monospace", "normal", "BIZUDGothic-Regular", True),
    ("Arial, sans-serif", "normal", "BIZUDPGothic-Regular", True),
    ("Arial", "bold", "BIZUDPGothic-Bold", False),
    ("'Noto Sans JP'", "normal", "BIZUDPGothic-Regular", False),
    ("Times New Roman", "normal", "BIZUDPMincho-Regular", False),
    ("Courier New", "normal", "BIZUDGothic-Regular", False),
    ("", "normal", "BIZUDPGothic-Regular", False),
])
def test_a_pictures_font_family_is_found_among_the_games_fonts(monkeypatch, family, weight, font, named):
    monkeypatch.setattr(fonts, "registered", lambda: GAME)
    assert picture_font(family, weight) == (font, named)


@pytest.mark.parametrize("size, drawn", [("50%", 2.0), ("1.5em", 6.0), ("3", 3.0)])
def test_a_spans_relative_font_size_is_of_its_parents(size, drawn):
    """Inkscape's smaller span (font-size:50%) was read as half the picture's width."""
    art = face_with('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><text x="1" y="5" '
                    f'font-family="BIZUDPGothic-Regular" font-size="4">a<tspan font-size="{size}">b</tspan></text></svg>')
    assert [(it[2], it[3][0][2]) for it in art.items if it[0] == "text"] == [(4.0, "a"), (drawn, "b")]
