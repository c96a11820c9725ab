"""Per-build budgets, each checked before the costly work and named in its one-line message:
copies per game, pages and tiled pages per game, raster pixels of an export, and how far a zipped
spreadsheet unpacks."""

from __future__ import annotations

import zipfile

import pnpgen.engine.game as engine_game
from conftest import DECK_YAML, make_workspace, run


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
    monkeypatch.setattr(engine_game, "MAX_PAGES", 20)
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
    import pnpgen.data.spreadsheets as sheets

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
    from pnpgen.faces.templates import MAX_TEMPLATE_BYTES

    ws = make_workspace(tmp_path / "ws")
    with open(ws / "templates/test/card-front.svg.j2", "r+b") as f:
        f.truncate(MAX_TEMPLATE_BYTES + 1)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"template 'test/card-front.svg.j2' is {MAX_TEMPLATE_BYTES + 1:,} bytes" in err, err
    assert not (ws / "build/test").exists()
