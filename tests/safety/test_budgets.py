"""Per-build budgets, each checked before the costly work and named in its one-line message:
copies per game, pages and tiled pages per game, raster pixels of an export, and how far a zipped
spreadsheet unpacks."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pdfprobe
import pnpgen.svg as svg
import pnpgen.svg.image as svg_image
from conftest import DECK_YAML, FEW_CARDS, PICTURE_FRONT, make_workspace, picture_workspace, run
from pnpgen.engine import placement


def test_copies_of_every_deck_together_are_bounded(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: A, text: 本文, count: 8000}\n")
    for n in (2, 3):
        (ws / f"data/test/decks/more{n}.yaml").write_text(DECK_YAML + "  - {name: B, text: 本文, count: 8000}\n",
                                                        encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "24,000 copies" in err and "limit for copies per game" in err
    assert not (ws / "build/test").exists()


def test_pages_are_bounded_before_any_is_drawn(tmp_path, capsys, monkeypatch):
    ws = make_workspace(tmp_path / "ws")
    monkeypatch.setattr(placement, "MAX_PAGES", 20)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "limit for pages per game" in err and "at most 20" in err
    assert not (ws / "build/test").exists()


def test_tiled_board_pages_are_bounded(tmp_path, capsys):
    board = """\
name: 盤
kind: board
size: [600, 600]
front: card-front.svg.j2
fields: {name: text, text: text}
pieces:
  - {name: 盤, text: 本文, count: 600}
"""
    ws = make_workspace(tmp_path / "ws")
    (ws / "data/test/decks/board.yaml").write_text(board, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pages of tiled boards" in err and "1,200" in err


def test_raster_pixels_of_an_export_are_bounded_before_drawing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "size: [300, 300]")
                        + "  - {name: A, text: 本文}\n")
    (ws / "presets").mkdir()
    (ws / "presets/huge.yaml").write_text(
        "name: Huge\ndpi: 2400\nfiles: png-faces\nformats:\n  any: {trim: any, bleed: 3mm}\n", encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", "huge") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "huge.yaml" in err and "pixels" in err and "limit for one exported image" in err


def test_a_spreadsheet_zip_bomb_is_refused_unpacked(tmp_path, capsys, monkeypatch):
    """A part that unpacks beyond the limit (here lowered to 10 MB, so the test stays fast)."""
    import pnpgen.data.workbooks as sheets

    monkeypatch.setattr(sheets, "MAX_UNZIPPED", 10_000_000)
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    with zipfile.ZipFile(ws / "data/test/decks/cards.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * 12_000_000 + b"/>")
    assert (ws / "data/test/decks/cards.xlsx").stat().st_size < 100_000
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx" in err and "unpacks to" in err and "limit for spreadsheets" in err


def test_a_broken_spreadsheet_is_one_line_without_exception_names(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    with zipfile.ZipFile(ws / "data/test/decks/cards.xlsx", "w") as z:
        z.writestr("[Content_Types].xml", "<Types\n\n<broken")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx" in err and "Error" not in err


def test_a_template_file_of_more_bytes_than_a_template_needs_is_refused_unread(tmp_path, capsys):
    """A template padded to hundreds of megabytes (a sparse file here: no disk is used) was read
    whole and compiled: 300 MB took a minute and a gigabyte. Refused by its size, in one line."""
    from pnpgen.faces.loaders import MAX_TEMPLATE_BYTES

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    with open(ws / "templates/test/card-front.svg.j2", "r+b") as f:
        f.truncate(MAX_TEMPLATE_BYTES + 1)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"template 'test/card-front.svg.j2' is {MAX_TEMPLATE_BYTES + 1:,} bytes" in err, err
    assert not (ws / "build/test").exists()


def _svg_pictures_that_multiply(art: Path) -> None:
    """a.svg shows b.svg ten times, which shows c.svg ten times … h.svg (a square): seven levels,
    10,000,000 squares, each file under the budget on its own."""
    names = "abcdefgh"
    for i, name in enumerate(names):
        body = ('<rect width="1" height="1" fill="#000"/>' if i == len(names) - 1 else
                "".join(f'<image x="{k}" width="1" height="1" href="{names[i + 1]}.svg"/>' for k in range(10)))
        (art / f"{name}.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{body}</svg>',
                                         encoding="utf-8")


def test_svg_pictures_showing_pictures_that_multiply_are_refused_before_drawing(tmp_path, capsys, monkeypatch):
    """Counted while the pictures are read (each file once), not while they are drawn: the build
    took 14 s to draw 100,000 elements, reading and parsing a picture for each of them."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {})
    _svg_pictures_that_multiply(ws / "data/test/art")
    drawn, parsed = [], []
    monkeypatch.setattr(svg.Converter, "element", lambda *a: drawn.append(a))
    real_parse = svg_image.parse_svg
    monkeypatch.setattr(svg_image, "parse_svg", lambda data, where: parsed.append(where) or real_parse(data, where))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "(image in data/test/art/a.svg (image in deck 'cards' piece 1" in err and "more than 100000 elements" in err, err
    assert "SVG picture counted" in err, err
    assert not [conv for conv, *_ in drawn if conv.depth] and len(parsed) <= 8, len(parsed)  # none of a picture drawn
    assert not (ws / "build/test").exists()


def test_svg_pictures_showing_pictures_within_the_budget_are_drawn(tmp_path):
    """The same pictures three levels deep (1,000 squares) print: the count refuses only beyond."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: e.svg}\n", PICTURE_FRONT, {})
    _svg_pictures_that_multiply(ws / "data/test/art")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = pdfprobe.reader(ws / "build/test/cards.pdf").pages[0]
    forms = [xo.get_object() for xo in page["/Resources"]["/XObject"].values()]
    assert max(form.get_data().count(b" re") for form in forms) >= 1000  # the squares, and the pictures' clips


def test_a_long_path_used_many_times_is_refused_before_drawing(tmp_path, capsys, monkeypatch):
    """One path of 200,000 characters drawn 200 times by <use>: few elements, but 40,000,000
    characters of path data, which become hundreds of MB of PDF operators (5,000 uses of a 1 MB
    path ran minutes, then stopped with a traceback). Counted with the elements, before drawing."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {})
    d = "M0 0" + " L1 1 L0 0" * 20_000
    uses = "".join(f'<use href="#p" x="{i % 10}"/>' for i in range(200))
    (ws / "data/test/art/a.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>'
                                            f'<path id="p" d="{d}" stroke="#000" fill="none"/></defs>{uses}</svg>',
                                            encoding="utf-8")
    drawn = []
    monkeypatch.setattr(svg.Converter, "element", lambda *a: drawn.append(a))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a.svg (image in deck 'cards' piece 1" in err, err
    assert "more than 20,000,000 characters of path data and text (each <use> and SVG picture counted)" in err, err
    assert not [conv for conv, *_ in drawn if conv.depth]
    assert not (ws / "build/test").exists()


def test_a_long_text_used_many_times_is_refused_before_drawing(tmp_path, capsys):
    """A text of 100,000 characters drawn 500 times by <use>: 50,000,000 glyphs (80 s)."""
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.svg}\n", PICTURE_FRONT, {})
    uses = "".join(f'<use href="#t" x="{i % 10}"/>' for i in range(500))
    (ws / "data/test/art/a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><text id="t" x="0" y="5" '
        f'font-family="BIZUDPGothic-Regular" font-size="1">{"あ" * 100_000}</text></defs>{uses}</svg>', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "more than 20,000,000 characters of path data and text" in err, err
