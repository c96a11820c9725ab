"""Trial 50: a Japanese designer's own words for what pnpgen names otherwise — a card size written
名刺 as a layout or format, a sheet's アイコン column, an Excel 97-2003 workbook — are told the name
to write, at their line, exit 2."""

from __future__ import annotations

import openpyxl
import pytest

from conftest import make_workspace, run


@pytest.mark.parametrize("deck, told", [
    ("layout: 名刺\n", "cards.yaml:2:9: layout: '名刺' is not a layout name; did you mean card-meishi? (the built-in "
     "layout of 名刺 cards, 55×91 mm) (expected layout: card-meishi"),
    ("layout: ポーカーサイズ\n", "did you mean card-poker? (the built-in layout of ポーカーサイズ cards, 63×88 mm)"),
    ("layout: card-poker\nformat: 名刺\n", "cards.yaml:3:9: format: unknown format '名刺'; did you mean meishi? "
     "(名刺, 55×91 mm) (expected format: meishi, one of poker,"),
    ("layout: card-poker\nformat: タロット\n", "did you mean tarot? (タロット, 70×120 mm)"),
    ("layout: card-poker\nformat: かるた\n", "did you mean karuta? (かるた, 52×73 mm)"),  # trial61
])
def test_a_size_written_in_japanese_is_told_the_name_to_write(tmp_path, capsys, deck, told):
    """`layout: 名刺` was told only "not a layout name (expected a name such as card-poker)", and
    `format: 名刺` the ten formats, neither naming the meishi card the designer meant."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\n" + deck + "pieces:\n  - {title: 市民}\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and told in err, err
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        "name: カード\nlayout: card-meishi\npieces:\n  - {title: 市民}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


def test_a_sheets_icon_column_is_told_icons_with_the_others(tmp_path, capsys):
    """A sheet headed カード名, 枚数, アイコン, 効果 was told the renames of all but アイコン, which
    the next run stopped at alone; it is told icons in the same line."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-meishi\npieces: {file: cards.xlsx}\n")
    book = openpyxl.Workbook()
    book.active.append(["カード名", "枚数", "アイコン", "効果"])
    book.active.append(["密告", 12, "[star]", "指差す。"])
    path = ws / "data" / "test" / "decks" / "cards.xlsx"
    book.save(path)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.xlsx:1:1: カード名 (column A): unknown key in the header row; did you mean title? (the field that " \
        "names the piece); rename the others too: 枚数 → count, アイコン → icons, 効果 → text (" in err, err
    for cell, name in zip(book.active[1], ["title", "count", "icons", "text"]):
        cell.value = name
    book.save(path)
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


@pytest.mark.parametrize("name, what", [("cards.xls", "an Excel 97-2003 workbook (.xls)"),
                                        ("cards.XLSB", "an Excel binary workbook (.xlsb)")])
def test_an_old_excel_workbook_is_told_to_be_saved_as_xlsx(tmp_path, capsys, name, what):
    """`file: cards.xls` was told "'cards.xls' is not a spreadsheet file name": to a designer whose
    Excel saved it so, it is one. It is told what it is and how to save it as .xlsx."""
    ws = make_workspace(tmp_path / "ws", deck=f"name: カード\nlayout: card-meishi\npieces: {{file: {name}}}\n")
    (ws / "data" / "test" / "decks" / name).write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")  # an OLE file's start
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cards.yaml:3:16: pieces.file: '{name}' is {what}, which pnpgen does not read " \
        "(expected the workbook saved as .xlsx (Excel: File > Save As > Excel Workbook (*.xlsx); ファイル > 名前を付けて" \
        "保存 > Excel ブック), then 'file: cards.xlsx')" in err, err
