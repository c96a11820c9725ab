"""A spreadsheet headed in the designer's own words (カード名, 枚数, 効果), read through the deck
file's ``pieces: {file: …, columns: {カード名: title, …}}``: built from .csv, .xlsx and .ods alike,
each mistake in the mapping told at its line of the deck file, a cell's at its header as the sheet
writes it, and export-sheet heading its columns as the sheet does."""

from __future__ import annotations

import io

import openpyxl
import pytest
from pypdf import PdfReader

from conftest import make_workspace, run
from workbooks import ods_bytes

GAME = "title: 王国\nlanguages: [ja, en]\n"
ROWS = [["カード名", "カード名（英語）", "枚数", "効果", "コスト"],
        ["騎士", "Knight", 3, "剣を振る。", 2],
        ["魔女", "Witch", 2, "呪う。", 1]]
COLUMNS = "{カード名: title, カード名（英語）: title.en, 枚数: count, 効果: text, コスト: cost}"


def _deck(name: str, columns: str = COLUMNS, sheet: str = "") -> str:
    return f"name: 役職\nlayout: card-poker\npieces: {{file: {name}{sheet}, columns: {columns}}}\n"


def _xlsx(rows: list[list], title: str = "役職") -> bytes:
    book = openpyxl.Workbook()
    book.active.title = title
    for row in rows:
        book.active.append(row)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _csv(rows: list[list]) -> bytes:
    return "".join(",".join(str(v) for v in row) + "\r\n" for row in rows).encode("utf-8-sig")


def _sheet_ws(tmp_path, rows=ROWS, fmt: str = "xlsx", columns: str = COLUMNS, game: str = GAME):
    name = f"cards.{fmt}"
    data = {"xlsx": lambda: _xlsx(rows), "ods": lambda: ods_bytes(rows), "csv": lambda: _csv(rows)}[fmt]()
    ws = make_workspace(tmp_path / "ws", deck=_deck(name, columns, ", sheet: 役職" if fmt == "xlsx" else ""), game=game)
    (ws / "data" / "test" / "decks" / name).write_bytes(data)
    return ws


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_a_sheet_headed_in_japanese_builds_through_its_columns_mapping(tmp_path, capsys, fmt):
    ws = _sheet_ws(tmp_path, fmt=fmt)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0, capsys.readouterr().err
    shop = PdfReader(ws / "build" / "test" / "shop" / "cards.pdf")
    assert len(shop.pages) == 10  # 枚数: 3 + 2 copies, a front and a back each
    text = "".join(page.extract_text() for page in shop.pages[::2])
    assert text.count("剣を振る。") == 3 and text.count("呪う。") == 2, text  # 効果, 枚数 copies of each
    assert text.count("騎士2") == 3 and text.count("魔女1") == 2, text  # カード名 and its コスト
    if fmt == "xlsx":  # the translated column, by the mapping's title.en
        assert run(ws, "build", "--game", "test", "--no-rulebook", "-q", "--lang", "en") == 0, capsys.readouterr().err
        text = "".join(page.extract_text() for page in PdfReader(ws / "build" / "test" / "en" / "cards.pdf").pages)
        assert "Knight" in text and "Witch" in text and "騎士" not in text, text


@pytest.mark.parametrize("columns, said", [
    ("{カードの名前: title, 枚数: count}", "cards.yaml:3:49: pieces.columns.カードの名前: no column headed 'カードの名前' in "
     "cards.xlsx's header row (row 1: カード名, カード名（英語）, 枚数, 効果, コスト); did you mean カード名? (expected the header "
     "as the sheet writes it: カード名: title)"),
    ("{カード名: title, 効果: txt}", "cards.yaml:3:66: pieces.columns.効果: 'txt' is not a field of this deck; did you "
     "mean text? (expected one of title, cost, value, art, icons, text, flavour, footer, count; a new field is "
     "declared first in fields:)"),
    ("{カード名: title, 効果: title}", "pieces.columns.効果: two headers are mapped to title: 'カード名' and '効果' (expected "
     "one column per field: カード名: title and 効果 mapped to another field or left out)"),
    ("{count: count, カード名: title}", "cards.yaml:3:49: pieces.columns.count: 'count' is already a field's name, and "
     "a column so headed is read as that field without columns:"),
    ("[カード名: title, 枚数: count]", "cards.yaml:3:48: pieces.columns: columns is written as a list ('- ' items), which "
     "gives no header its field (expected a mapping of each header as the sheet writes it to its field: columns: "
     "{カード名: title, 枚数: count})"),
    ("{title: カード名}", "pieces.columns.title: 'カード名' is not a field of this deck; written the other way round? "
     "(the sheet's header first: カード名: title)"),
    ("{カード名: title, ｶｰﾄﾞ名: text}", "pieces.columns.ｶｰﾄﾞ名: 'ｶｰﾄﾞ名' and 'カード名' are one header of the sheet "
     "(its case, spaces and width aside) (expected each header mapped once)"),
    ("{枚数: count.en}", "pieces.columns.枚数: 'count.en' is no field's translation (a count is one number in every "
     "language) (expected 枚数: count)"),
])
def test_each_mistake_in_the_mapping_is_told_at_its_line(tmp_path, capsys, columns, said):
    ws = _sheet_ws(tmp_path, columns=columns)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err, err


def test_a_column_headed_with_the_fields_name_beside_one_mapped_to_it_is_told(tmp_path, capsys):
    ws = _sheet_ws(tmp_path, rows=[[*ROWS[0], "title"], [*ROWS[1], "x"]])
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:3:49: pieces.columns.カード名: title is read from column F of " \
        "cards.xlsx already, headed 'title', and 'カード名' is mapped to it too (expected one column per field: the " \
        "mapping left out, or column F renamed or removed)" in err, err


def test_a_cells_mistake_names_the_sheets_header(tmp_path, capsys):
    ws = _sheet_ws(tmp_path, rows=[ROWS[0], ["騎士", "Knight", "三", "剣を振る。", 2]])
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.xlsx:2:3: 枚数 (column C) in worksheet 役職: count '三' is written in kanji (漢数字), which is not " \
        "read as a number (expected 3 in the 枚数 column, in half- or full-width digits)" in err, err


def test_a_sheet_in_japanese_without_a_mapping_is_offered_the_pieces_line_to_paste(tmp_path, capsys):
    """Today's one-line rename hint stays; beside it the deck file's pieces: line mapping the
    sheet's headers, which, pasted as it is, builds."""
    ws = _sheet_ws(tmp_path, rows=[["カード名", "枚数", "効果", "コスト"], ["騎士", 3, "剣を振る。", 2]], game="title: 王国\n")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text("name: 役職\nlayout: card-poker\npieces: {file: cards.xlsx, sheet: 役職}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx:1:1: カード名 (column A) in worksheet 役職: unknown key in the header " \
        "row; did you mean title? (the field that names the piece); rename the others too: 枚数 → count, 効果 → text, " \
        "コスト → cost (" in err, err
    line = "pieces: {file: cards.xlsx, sheet: 役職, columns: {カード名: title, 枚数: count, 効果: text, コスト: cost}}"
    assert f"; or keep the sheet's headers and write the deck file's pieces: line (data/test/decks/cards.yaml:3:9) " \
        f"as {line})" in err, err
    deck.write_text(f"name: 役職\nlayout: card-poker\n{line}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


def test_export_sheet_heads_the_columns_as_the_mapping_does(tmp_path, capsys):
    ws = _sheet_ws(tmp_path, fmt="csv")
    capsys.readouterr()
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", "data/test/decks/copy.csv") == 0
    out = capsys.readouterr().out
    exported = (ws / "data" / "test" / "decks" / "copy.csv").read_text(encoding="utf-8-sig").splitlines()
    assert exported[0] == "カード名,カード名（英語）,コスト,value,art,icons,効果,flavour,footer,枚数", exported
    line = out.splitlines()[-1].split("from this file: ")[1]
    assert line == 'pieces: {file: copy.csv, columns: {カード名: title, "カード名（英語）": title.en, 枚数: count, ' \
        '効果: text, コスト: cost}}', out
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(f"name: 役職\nlayout: card-poker\n{line}\n",
                                                               encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0, capsys.readouterr().err
    text = "".join(p.extract_text() for p in PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages)
    assert text.count("剣を振る。") == 3 and text.count("呪う。") == 2, text


def test_the_preview_names_a_mapped_sheets_row(tmp_path):
    """pnpgen serve's face shows its piece's fields and the sheet's row it is read from."""
    pytest.importorskip("starlette", reason="the preview's HTTP stack")
    from pnpgen.data.workspace import Workspace
    from pnpgen.serve.preview import Preview

    ws = _sheet_ws(tmp_path)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    face = preview.state.decks[0]["faces"][1]
    assert face["where"] == "data/test/decks/cards.xlsx:3 in worksheet 役職", face
    assert face["fields"]["title"] == "魔女" and face["count"] == 2, face


def test_a_header_the_mapping_left_out_is_offered_the_mapping_with_it(tmp_path, capsys):
    """columns: naming カード名 but not 枚数: the line to paste keeps the mapping written and adds 枚数."""
    ws = _sheet_ws(tmp_path, rows=[["カード名", "枚数"], ["騎士", 3]], fmt="csv", columns="{カード名: title}",
                   game="title: 王国\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.csv:1:2: 枚数 (column B): unknown key in the header row; did you mean " \
        "count? (the number of copies to print) (expected" in err and "as pieces: {file: cards.csv, columns: " \
        "{カード名: title, 枚数: count}})" in err, err


def test_an_unmapped_header_of_no_meaning_in_a_mapped_sheet_is_told_its_line_in_columns(tmp_path, capsys):
    """備考 beside a columns: mapping was told to rename the column to a field's name (or to give it
    a box), as in a sheet with no mapping: the sheet keeps its own words, so the message gives the
    columns: to write with it, or the note declared alone — which, pasted, checks."""
    ws = _sheet_ws(tmp_path, rows=[["カード名", "枚数", "備考"], ["騎士", 3, "メモ"]], fmt="csv",
                   columns="{カード名: title, 枚数: count}", game="title: 王国\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.csv:1:3: 備考 (column C): unknown key in the header row: the deck " \
        "file's columns: does not map it" in err and "rename" not in err and "boxes:" not in err, err
    assert "(expected 備考 added to columns: (data/test/decks/cards.yaml:3:27) with the field its column holds: " \
        "columns: {カード名: title, 枚数: count, 備考: <one of cost, value, art, icons, text, flavour, footer>}; or, " \
        "a note of your own never printed, declared alone in the deck file: fields: {備考: text}; or its column " \
        "left empty)" in err, err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "fields: {備考: text}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


def test_a_mapping_to_a_language_the_game_does_not_list_is_told_at_the_deck_files_line(tmp_path, capsys):
    """名: title.fr in a game of ja and en was told at the sheet's header cell 名, which is right;
    the slip is the mapping's, at its line of the deck file."""
    ws = _sheet_ws(tmp_path, rows=[["カード名", "名", "枚数"], ["騎士", "Chevalier", 3]], fmt="csv",
                   columns="{カード名: title, 名: title.fr, 枚数: count}")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "data/test/decks/cards.yaml:3:50: pieces.columns.名: 'fr' is not one of the " \
        "game's languages (data/test/game.yaml:2:1: languages: [ja, en]) (expected fr added there, 'languages: " \
        "[ja, en, fr]', to translate into it; else 名: title.<one of ja, en>)" in err, err


def test_a_long_header_is_told_in_a_message_of_a_names_length(tmp_path, capsys):
    """A paragraph pasted into a header cell and into the mapping (1,000 characters, one short of
    the sheet's): the message clips it, as it clips a header elsewhere (it quoted it three times
    in full, 6 KB at 1,000 characters, 60 KB at 10,000; hostile35)."""
    long = "長" * 1000
    ws = _sheet_ws(tmp_path, rows=[[f"{long}x", *ROWS[0][1:]], *ROWS[1:]], columns=f"{{{long}: title}}")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 800 and "Traceback" not in err, err
    assert f"pieces.columns.{'長' * 59}…: no column headed '{'長' * 59}…' in cards.xlsx's header row" in err, err
    assert f"did you mean {'長' * 59}…? (expected the header as the sheet writes it: \"{'長' * 59}…\": title)" in err, err


@pytest.mark.parametrize("flow", [True, False])
def test_a_key_past_yamls_1024_characters_is_told_its_length(tmp_path, capsys, flow):
    """YAML reads a key of at most 1,024 characters on its line: it said 'this line has no ':'
    after its key' of a line that has one (hostile35)."""
    long = "長" * 2000
    deck = (f"name: 役職\nlayout: card-poker\npieces: {{file: cards.csv, columns: {{カード名: title, {long}: text}}}}\n"
            if flow else f"name: 役職\nlayout: card-poker\npieces:\n  file: cards.csv\n  columns:\n    {long}: text\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=GAME)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    where = "cards.yaml:3:50:" if flow else "cards.yaml:6:5:"
    assert f"{where} YAML syntax error: this key is 2,000 characters long, and YAML reads a key of at most 1,024 on " \
        "its line (expected the key shortened" in err, err


def test_a_header_of_two_lines_is_mapped_and_told_on_one_line(tmp_path, capsys):
    """A header cell written on two lines (枚<Alt+Enter>数) is mapped as YAML writes a line break,
    "枚\\n数": count; its mistakes are one line each, the break shown as \\n (they ran over two
    lines, the header's and the hint's; hostile35)."""
    rows = [["カード名", "枚\n数"], ["騎士", "三"]]
    ws = _sheet_ws(tmp_path, rows=rows, fmt="csv", columns='{カード名: title, "枚\\n数": count}')
    csv = ws / "data" / "test" / "decks" / "cards.csv"
    csv.write_text('カード名,"枚\n数"\n騎士,三\n', encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    # told at the file's line 3, where the row starts (the header's cell spans lines 1-2)
    assert err.count("\n") == 1 and "cards.csv:3:2: 枚\\n数 (column B): count '三' is written in kanji" in err, err
    assert "(expected 3 in the 枚\\n数 column" in err, err
    csv.write_text('カード名,"枚\n数"\n騎士,3\n', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0, capsys.readouterr().err
    assert len(PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages) == 6  # 枚\n数: 3 copies, front and back


@pytest.mark.parametrize("key, said", [
    ("~", "cards.yaml:3:61: pieces.columns: YAML reads the key ~ as no value (null), not as a name (expected "
     "the key in quotes: \"~\": …)"),
    ("1.50", "cards.yaml:3:61: pieces.columns.1.5: YAML reads this key as the number 1.5, and no column of cards.csv is "
     "headed so (row 1: カード名, 枚数, 1.50) (expected the header in quotes as the sheet writes it: \"1.50\": text)"),
])
def test_a_header_yaml_reads_as_no_value_or_another_number_is_told_to_quote_it(tmp_path, capsys, key, said):
    """A header the mapping writes unquoted that YAML reads otherwise (1.50 as 1.5, ~ as no value):
    told at the columns: line, 'did you mean 1.50?' offering the same 1.50 again (hostile35)."""
    ws = _sheet_ws(tmp_path, rows=[["カード名", "枚数", key], ["騎士", 3, "剣"]], fmt="csv",
                   columns=f"{{カード名: title, 枚数: count, {key}: text}}")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err
