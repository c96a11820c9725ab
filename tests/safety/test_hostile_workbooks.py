"""Workbooks another program wrote, or a stranger crafted: a worksheet named like a path, a name
longer than Excel's 31 characters (LibreOffice's), an external link, a DDE formula, a defined name
naming another file, a very hidden worksheet. Each is read from the workbook's own cells, or
refused in one line naming the worksheet; nothing outside the workbook is opened (hostile36)."""

from __future__ import annotations

import io
import re
import warnings
import zipfile

import pytest

from conftest import make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from workbooks import ods_bytes, xlsx_bytes

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


def test_a_cell_left_empty_with_its_hyperlink_is_empty_and_a_linked_text_is_its_text(tmp_path):
    """hostile47: Excel's Delete key empties a cell and keeps its hyperlink; openpyxl gives such a
    cell its link's address for a value, so the card printed https://… where its text was left
    empty, and a link over a range of rows left blank under the pieces made each a piece of that
    address. A cell empty in the file is empty; a text linked to its own address (Excel links a URL
    typed in a cell) is that text."""
    rows = [["title", "count", "text"], ["騎士", 2, "剣"], ["弓兵", 1, None], ["槍兵", 1, "https://example.com/r"]]
    data = _patched(xlsx_bytes(rows), {"xl/worksheets/sheet1.xml": [(b"</sheetData>", (
        f'</sheetData><hyperlinks><hyperlink xmlns:r="{RELS}" ref="C3" r:id="rId7"/><hyperlink xmlns:r="{RELS}" '
        f'ref="C4" r:id="rId7"/><hyperlink xmlns:r="{RELS}" ref="A6:C7" r:id="rId7"/></hyperlinks>').encode())]},
        {"xl/worksheets/_rels/sheet1.xml.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
            f'Id="rId7" Type="{RELS}/hyperlink" Target="https://example.com/r" TargetMode="External"/></Relationships>').encode()})
    pieces = load_game(Workspace(_workspace(tmp_path, data)), "test").decks[0].pieces
    assert [(p.label, p.values["text"]) for p in pieces] == [("騎士", "剣"), ("弓兵", None), ("槍兵", "https://example.com/r")], \
        [(p.label, p.values["text"]) for p in pieces]


def test_a_worksheet_part_named_outside_the_file_is_no_worksheet(tmp_path, capsys):
    """The workbook's worksheet part named by a path out of the file (../../../etc/passwd): openpyxl
    reads only the file's own parts and so found no worksheet, said as 'list index out of range'."""
    rels = {"xl/_rels/workbook.xml.rels": [(b'Target="/xl/worksheets/sheet1.xml"', b'Target="/../../../etc/passwd"')]}
    ws = _workspace(tmp_path, _patched(xlsx_bytes(ROWS), rels))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx: the spreadsheet has no worksheet pnpgen can read" in err, err


def _odf(data: bytes, mimetype: bytes | None = None, manifest: bool = False, content: bool = True) -> bytes:
    """An .ods of ``data`` with its mimetype part replaced, its content.xml kept encrypted (as
    LibreOffice's Save with password writes it: the manifest's encryption-data, the part's bytes
    unreadable), or its content.xml left out."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for item in zin.infolist():
            body = zin.read(item.filename)
            if item.filename == "mimetype" and mimetype is not None:
                body = mimetype
            if item.filename == "META-INF/manifest.xml" and manifest:
                body = re.sub(rb'(<manifest:file-entry [^>]*"content.xml"[^>]*)/>', rb'\1><manifest:encryption-data '
                              rb'manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm '
                              rb'manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/>'
                              rb'</manifest:encryption-data></manifest:file-entry>', body)
                assert b"encryption-data" in body
            if item.filename == "content.xml" and manifest:
                body = bytes(range(256)) * (len(body) // 256 + 1)
            if item.filename == "content.xml" and not content:
                continue
            zout.writestr(item, body)
    return out.getvalue()


# Each file made in the test (a zip's times differ from process to process: not a parameter's id)
KINDS = {
    "odt-named-ods": ("cards.ods", lambda: _odf(ods_bytes(ROWS), mimetype=b"application/vnd.oasis.opendocument.text"),
                      "cards.ods is a LibreOffice Writer document (.odt) with a .ods name (expected the pieces' table "
                      "saved from a spreadsheet program as a .ods file (or CSV UTF-8))"),
    "ods-without-content": ("cards.ods", lambda: _odf(ods_bytes(ROWS), content=False),
                            "the spreadsheet has no worksheet (expected"),
    "ods-with-password": ("cards.ods", lambda: _odf(ods_bytes(ROWS), manifest=True),
                          "cards.ods is a spreadsheet saved with a password (it is kept encrypted) (expected the "
                          "spreadsheet saved without a password"),
    "xlsx-named-ods": ("cards.ods", lambda: xlsx_bytes(ROWS), "cards.ods is an Excel workbook (.xlsx) with a .ods name "
                       "(expected the file renamed to cards.xlsx and the deck's file: named so)"),
    "ods-named-xlsx": ("cards.xlsx", lambda: ods_bytes(ROWS), "cards.xlsx is an ODF spreadsheet (.ods) with a .xlsx name "
                       "(expected the file renamed to cards.ods and the deck's file: named so)"),
    "xlsx-named-csv": ("cards.csv", lambda: xlsx_bytes(ROWS), "cards.csv is an Excel workbook (.xlsx) with a .csv name, "
                       "not comma-separated text (expected the file renamed to cards.xlsx"),
    "ods-named-csv": ("cards.csv", lambda: ods_bytes(ROWS), "cards.csv is an ODF spreadsheet (.ods) with a .csv name"),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_office_file_of_another_kind_is_said_as_what_it_is(tmp_path, capsys, kind):
    """hostile47: a Writer document (.odt) renamed .ods, and an .ods without its content.xml, stopped
    with odfpy's AttributeError, a traceback; one saved with a password read its encrypted bytes as
    UTF-8 ("'utf-8' codec can't decode byte 0x8e"); an .xlsx renamed .ods (or the other way) said
    "There is no item named 'META-INF/manifest.xml' in the archive", and one renamed .csv "byte 0xef
    at offset 10 is invalid as UTF-8 or CP932". Each is one line naming the file and what it is."""
    name, made, said = KINDS[kind]
    ws = make_workspace(tmp_path / "ws", deck=DECK.replace("cards.xlsx", name))
    (ws / "data" / "test" / "decks" / name).write_bytes(made())
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"data/test/decks/{name}: {said}" in err and "Traceback" not in err, err
