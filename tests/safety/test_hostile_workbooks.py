"""Workbooks another program wrote, or a stranger crafted: a worksheet named like a path, a name
longer than Excel's 31 characters (LibreOffice's), an external link, a DDE formula, a defined name
naming another file, a very hidden worksheet. Each is read from the workbook's own cells, or
refused in one line naming the worksheet; nothing outside the workbook is opened (hostile36)."""

from __future__ import annotations

import io
import warnings
import zipfile

from conftest import make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from workbooks import xlsx_bytes

DECK = "name: カード\nlayout: card-poker\npieces: {file: cards.xlsx}\n"
ROWS = [["title", "count", "text"], ["騎士", 2, "剣"], ["弓兵", 1, "弓"]]
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _workbook(rows: list[list], second: str | None = None) -> bytes:
    """``rows`` as the first worksheet 'Sheet', then a worksheet named ``second`` (a line of its own)."""
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(xlsx_bytes(rows)))
    if second is not None:
        book.create_sheet("second").append(["title", "count", "text"])
        book["second"].append(["隠し", 1, "x"])
    buf = io.BytesIO()
    book.save(buf)
    data = buf.getvalue()
    return _patched(data, {"xl/workbook.xml": [(b'name="second"', f'name="{second}"'.encode())]}) if second else data


def _patched(data: bytes, edits: dict[str, list[tuple[bytes, bytes]]], extra: dict[str, bytes] | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for item in zin.infolist():
            body = zin.read(item.filename)
            for old, new in edits.get(item.filename, []):
                assert old in body, (item.filename, old)
                body = body.replace(old, new, 1)
            zout.writestr(item, body)
        for name, body in (extra or {}).items():
            zout.writestr(name, body)
    return out.getvalue()


def _workspace(tmp_path, data: bytes):
    ws = make_workspace(tmp_path / "ws", deck=DECK)
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(data)
    return ws


def test_a_worksheet_named_like_a_path_is_said_by_its_name(tmp_path, capsys):
    """'../x' (a character Excel refuses in a worksheet's name, which a crafted file holds): openpyxl
    refused the workbook, 'could not read worksheets from None … contain some invalid XML'."""
    ws = _workspace(tmp_path, _workbook(ROWS, "../x"))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx: its worksheet '../x' is named with '/', which no worksheet's name " \
        "may hold" in err and "None" not in err, err


def test_a_long_worksheet_name_reads_without_the_librarys_warning(tmp_path):
    """A worksheet name past Excel's 31 characters (LibreOffice saves one) made every check and build
    print openpyxl's 'UserWarning: Title is more than 31 characters' with its source line."""
    ws = _workspace(tmp_path, _workbook(ROWS, "長" * 40))
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        game = load_game(Workspace(ws), "test")
    assert [p.label for p in game.decks[0].pieces] == ["騎士", "弓兵"]
    assert [str(w.message) for w in said] == []


def test_links_dde_and_names_of_other_files_give_the_saved_values_and_a_very_hidden_sheet_is_passed_over(tmp_path):
    """A cell linked to another workbook (its link leading to /etc/passwd), a DDE formula, a defined
    name in another file: the values the workbook saved, as text, and no error; a very hidden
    worksheet before the one shown is not read in its place."""
    data = _workbook([["title", "count", "text"], ["騎士", 2, "剣"], ["弓兵", 1, "弓"], ["槍兵", 1, "槍"]], "Cards")
    own = ('<c r="C3" t="inlineStr"><is><t>&#24339;</t></is></c>', '<c r="C4" t="inlineStr"><is><t>&#27085;</t></is></c>')
    data = _patched(data, {
        "xl/worksheets/sheet1.xml": [(own[0].encode(), b'<c r="C3" t="str"><f>[1]Sheet1!A1</f><v>linked</v></c>'),
                                     (own[1].encode(), b"<c r=\"C4\" t=\"str\"><f>cmd|' /C calc'!A0</f><v>=cmd|' /C calc'!A0</v></c>")],
        "xl/workbook.xml": [(b'state="visible"', b'state="veryHidden"'),
                            (b"<definedNames/>", b"<definedNames><definedName name=\"ext\">'file:///etc/passwd'#$A$1"
                             b"</definedName><definedName name=\"other\">'[C:\\x.xlsx]Sheet1'!$A$1</definedName></definedNames>"),
                            (b"</sheets>", f'</sheets><externalReferences><externalReference xmlns:r="{RELS}" '
                             'r:id="rId99"/></externalReferences>'.encode())],
        "xl/_rels/workbook.xml.rels": [(b"</Relationships>", f'<Relationship Id="rId99" Type="{RELS}/externalLink" '
                                        'Target="externalLinks/externalLink1.xml"/></Relationships>'.encode())],
    }, {"xl/externalLinks/externalLink1.xml": (
        '<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="' + RELS + '">'
        '<externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/></sheetNames></externalBook></externalLink>').encode(),
        "xl/externalLinks/_rels/externalLink1.xml.rels": (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
        f'Type="{RELS}/externalLinkPath" Target="file:///etc/passwd" TargetMode="External"/></Relationships>').encode()})
    ws = _workspace(tmp_path, data)
    assert [p.label for p in load_game(Workspace(ws), "test").decks[0].pieces] == ["隠し"]
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(DECK.replace("}", ", sheet: Sheet}"), encoding="utf-8")
    pieces = load_game(Workspace(ws), "test").decks[0].pieces
    assert [(p.label, p.values["text"]) for p in pieces] == [("騎士", "剣"), ("弓兵", "linked"), ("槍兵", "=cmd|' /C calc'!A0")]


def test_a_worksheet_part_named_outside_the_file_is_no_worksheet(tmp_path, capsys):
    """The workbook's worksheet part named by a path out of the file (../../../etc/passwd): openpyxl
    reads only the file's own parts and so found no worksheet, said as 'list index out of range'."""
    rels = {"xl/_rels/workbook.xml.rels": [(b'Target="/xl/worksheets/sheet1.xml"', b'Target="/../../../etc/passwd"')]}
    ws = _workspace(tmp_path, _patched(xlsx_bytes(ROWS), rels))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx: the spreadsheet has no worksheet pnpgen can read" in err, err
