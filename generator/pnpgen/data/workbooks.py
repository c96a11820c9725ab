"""A spreadsheet file's cells: a CSV's rows, an ``.xlsx``'s or ``.ods``'s worksheet's, each row's
cells typed as the office program keeps them, bounded before they are read (data/spreadsheets.py
reads the pieces from them)."""

from __future__ import annotations

import csv
import datetime as dt
import functools
import hashlib
import html
import io
import re
import warnings
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen import resources, usercache
from pnpgen.data import numberformat
from pnpgen.data.textfile import decode
from pnpgen.errors import InputError
from pnpgen.safetext import INVISIBLE, clipped, csv_text, name_invisible_char, shown_invisible


def column_letter(n: int) -> str:
    """1 → A, 27 → AA: how a spreadsheet names its columns."""
    letters = ""
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


MAX_FILE_BYTES = 20_000_000
MAX_ROWS = 10_001  # the header and 10,000 pieces
MAX_COLUMNS = 200


def _too_large(shown: Path, what: str, limit: int) -> InputError:
    return InputError(f"the spreadsheet has more than {limit:,} {what}", path=shown,
                      expected=f"a deck of at most {MAX_ROWS - 1:,} pieces and {MAX_COLUMNS} fields; delete the "
                      "rows and columns beyond the last piece and field (a cell far down or right, even if only formatted, counts)")


Rows = tuple[list[tuple[int, list[Any]]], set[int], str | None]


class FormulaBlank(str):
    """A cell whose formula's saved result is the empty text (``=IF(A3="x",2,"")`` for a row no
    branch gives a value): empty as a cell left empty is, but told where the empty value is a
    promise of something (an empty count prints 1 copy: data/spreadsheets.py)."""


class Workbooks:
    """The workbooks one loading of a game has opened, by their content: a workbook whose worksheets
    are several decks' (``sheet:``) is unpacked and parsed once, each deck's worksheet read from it
    (600 cards over three worksheets were parsed three times, once per deck)."""

    def __init__(self) -> None:
        self.opened: dict[tuple[str, str], _Opened] = {}


@dataclass
class _Opened:
    """A workbook unpacked and parsed (openpyxl's values, or the .ods's tables), its bounds checked."""

    data: bytes  # the file as read (an .xlsx's formulas are read from it when a worksheet has a cell without a value)
    book: Any
    formulas: bool = False  # an .xlsx: whether a worksheet holds a formula
    written: Any = None  # an .xlsx with its formulas, once asked for
    hidden: frozenset[int] = frozenset()  # the worksheets (indexes) the office program hides
    names: list[str] = field(default_factory=list)  # an .xlsx's worksheets as the workbook names them (``_written_names``)


def read_rows(path: Path, shown: Path, sheet: str | None, books: Workbooks | None = None) -> Rows:
    """(sheet row number, cell values) for each row; the numbers of the rows the office program
    hides (none in a CSV); and the name of the worksheet read (None for a CSV). Cells are text
    from a CSV, typed otherwise. Bounded by MAX_FILE_BYTES, MAX_ROWS and MAX_COLUMNS before the
    cells are read. A worksheet read before (this very workbook's content, any workspace) comes
    back from the machine's cache, as a YAML text does (data/yamlsrc.py): a ``check`` after a
    build parses no workbook; one not read before is read from ``books``' workbook of the same
    content when another deck's worksheet opened it."""
    suffix = path.suffix.lower()
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _too_large(shown, "bytes", MAX_FILE_BYTES)
    try:
        if suffix == ".csv":
            return _csv_rows(path, shown)
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        entry = usercache.key(_reader(), suffix.encode(), digest.encode(), b"first" if sheet is None else b"sheet " + sheet.encode())
        kept = unpacked(usercache.get(CACHE_KIND, entry))
        if kept is not None:
            return kept
        opened = books.opened.get((suffix, digest)) if books is not None else None
        if opened is None:
            opened = _open_xlsx(data, shown) if suffix == ".xlsx" else _open_ods(data, shown)
            if books is not None:
                books.opened[(suffix, digest)] = opened
        rows = _xlsx_rows(opened, shown, sheet) if suffix == ".xlsx" else _ods_rows(opened, shown, sheet)
        packed_rows = packed(rows)
        if packed_rows is not None:
            usercache.put(CACHE_KIND, entry, packed_rows)
        return rows
    except InputError:
        raise
    except csv.Error as e:
        raise InputError(f"cannot read the CSV: {_one_line(e)}", path=shown, expected="comma-separated values") from None
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError, TypeError, IndexError) as e:  # SyntaxError:
        # XML's ParseError; openpyxl's TypeError, IndexError: a merged range "3:5", a cell's style s="99999"
        raise InputError(f"cannot read the spreadsheet: {_one_line(e)}", path=shown,
                         expected=f"a {suffix} file saved by a spreadsheet program") from None


def _csv_rows(path: Path, shown: Path) -> Rows:
    data = path.read_bytes()
    _refuse_workbook_as_text(data, shown)
    text, _ = decode(data, shown)
    # strict: an unterminated quote is an error, not every later row swallowed into one cell
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows = []
    read_to = 0  # the last line of the last row read
    try:
        for i, row in enumerate(reader, 1):
            if i > MAX_ROWS:  # stopped here: 15 MB of empty lines held 2.6 GB of rows once read to the end
                raise _too_large(shown, "rows", MAX_ROWS)
            if len(row) > MAX_COLUMNS:
                raise _too_large(shown, "columns", MAX_COLUMNS)
            # numbered by the file's line where the row starts (an editor's line; a cell holding a
            # line break makes a row span lines, so the row's index would point above it)
            rows.append((read_to + 1, [csv_text(c) for c in row]))
            read_to = reader.line_num
    except csv.Error as e:  # said at the line where the row it could not read starts
        line = read_to + 1
        if "field larger than field limit" in str(e):  # it said "(131072)", in Python's words
            raise InputError(f"a cell of this row holds more than {csv.field_size_limit():,} characters",
                             path=shown, line=line, expected="cells of a card's text, a few hundred characters; "
                             "or a closing \" for a quote opened in this row") from None
        quote = "unexpected end of data" in str(e) or "EOF" in str(e)
        raise InputError("a quoted cell opened in this row is never closed" if quote else
                         f"cannot read the CSV: {_one_line(e)}", path=shown, line=line,
                         expected="a closing \" for every opening one (a \" inside a quoted cell written \"\")"
                         if quote else "comma-separated values") from None
    return rows, set(), None


CACHE_KIND = "sheet-rows"  # a worksheet's rows as read, by the workbook's content and this reader's code


@functools.cache
def _reader() -> bytes:
    """What reads a workbook: this code, the number formats' and the libraries' installed copies
    (a worksheet read again with the same reader gives the same rows)."""
    return b"".join([*(resources.folder("pnpgen").joinpath("data", name).read_bytes()
                       for name in ("workbooks.py", "numberformat.py")), usercache.installed("openpyxl", "odf")])


# A typed cell as plain values the machine's cache keeps (marshal: no class of ours), by its kind:
# a number carrying the text its cell shows (ShownInt, ShownFloat), a moment with or without it
_MOMENTS: dict[str, Any] = {"datetime": dt.datetime, "date": dt.date, "time": dt.time}


def _packed_cell(value: Any) -> Any:
    if isinstance(value, FormulaBlank):
        return ("formula-blank",)
    if value is None or type(value) in (str, int, float, bool):
        return value
    shown = getattr(value, "shown", None)
    if isinstance(value, (int, float)) and isinstance(shown, str):
        return ("number", int(value) if isinstance(value, int) else float(value), shown)
    if isinstance(value, dt.timedelta):
        return ("timedelta", value.days, value.seconds, value.microseconds, shown)
    if isinstance(value, (dt.date, dt.time)) and getattr(value, "tzinfo", None) is None:
        kind = "datetime" if isinstance(value, dt.datetime) else "date" if isinstance(value, dt.date) else "time"
        return (kind, value.isoformat(), shown)
    raise TypeError(f"a cell of type {type(value).__name__}")  # (not kept: read again next time)


def _unpacked_cell(value: Any) -> Any:
    if not isinstance(value, tuple):
        return value
    kind, *rest = value
    if kind == "formula-blank":
        return FormulaBlank()
    if kind == "number":
        number, shown = rest
        return numberformat.with_shown(number, shown)
    if kind == "timedelta":
        moment: Any = dt.timedelta(rest[0], rest[1], rest[2])
    else:
        moment = _MOMENTS[kind].fromisoformat(rest[0])
    return moment if rest[-1] is None else numberformat.with_shown(moment, rest[-1])


def packed(rows: Rows) -> tuple | None:
    """A worksheet's rows as the machine's cache keeps them; None for a cell it cannot keep."""
    try:
        return ([(n, [_packed_cell(v) for v in cells]) for n, cells in rows[0]], sorted(rows[1]), rows[2])
    except TypeError:
        return None


def unpacked(kept: Any) -> Rows | None:
    """The rows ``packed`` kept; None for an entry not so made (damaged, or another reader's)."""
    try:
        body, hidden, title = kept
        return [(int(n), [_unpacked_cell(v) for v in cells]) for n, cells in body], set(hidden), title
    except (TypeError, ValueError, KeyError, AttributeError):
        return None


def _one_line(e: Exception) -> str:
    """An exception's words on one line and short, without its class name."""
    text = " ".join(str(e).split())
    return text[:200] + ("…" if len(text) > 200 else "")


MAX_UNZIPPED = 100_000_000  # an .xlsx or .ods, every part of it unpacked; real ones hold a few MB
MAX_PARTS = 10_000
# XML elements of an .ods: odfpy builds a DOM of all, some 100 µs and 1 kB each (200 kB zipped of empty
# cells, 3 million, ran for over five minutes, gigabytes). 10,000 pieces of 24 fields are about 500,000.
MAX_ODS_ELEMENTS = 500_000
_ODS_SPACES = re.compile(rb'<(?:\w+:)?s\b[^>]*?\bc="(\d+)"')  # <text:s text:c="N"/>: N spaces, each one counted (10⁹: 1 GB)
DOCTYPE_HEAD = 4096  # bytes of each XML part read for a DOCTYPE before it is parsed


def _a_zip(data: bytes, shown: Path, suffix: str) -> None:
    """A .xlsx or .ods is a zip file; one that is not says what it is instead (a CSV or an
    Excel 97–2003 workbook given the new name: 'File is not a zip file' named neither)."""
    head = data[:4096]
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return
    program = "Excel" if suffix == ".xlsx" else "LibreOffice Calc"
    if head.startswith(b"\xd0\xcf\x11\xe0") and "EncryptedPackage".encode("utf-16-le") in data:
        raise InputError(f"{shown.name} is a workbook saved with a password (it is kept encrypted)", path=shown,
                         expected="the workbook saved without a password (Excel: File ▸ Info ▸ Protect Workbook ▸ "
                         "Encrypt with Password, emptied), or its sheet saved as CSV UTF-8")
    if head.startswith(b"\xd0\xcf\x11\xe0"):  # OLE2: .xls, the format before 2007
        raise InputError(f"{shown.name} is an Excel 97–2003 workbook (.xls) with a {suffix} name", path=shown,
                         expected=f"the sheet saved from {program} as {'Excel Workbook (.xlsx)' if suffix == '.xlsx' else 'ODF Spreadsheet (.ods)'}")
    text = head.replace(b"\r", b"")
    if head and b"\x00" not in head and (b"," in text or b"\t" in text or b";" in text):
        sep = "tab-separated" if text.count(b"\t") > text.count(b",") else "comma-separated"
        raise InputError(f"{shown.name} is {sep} text with a {suffix} name, not a workbook", path=shown,
                         expected=f"the file renamed to {shown.stem}.csv (and the deck's file: named so), "
                         f"or the sheet saved from {program} as a {suffix} file")
    raise InputError(f"{shown.name} is not a {suffix} file (a {suffix} file is a zip archive; this one is not)",
                     path=shown, expected=f"a {suffix} file saved by a spreadsheet program, or a CSV named .csv")


# The zipped office files a workbook is mistaken for, by the parts they hold: ECMA-376's main parts
# (xl/workbook.xml, word/document.xml, ppt/presentation.xml) and OpenDocument's mimetype part (ODF 1.2
# Part 3, 3.3: its first part, the document's media type, uncompressed)
_OOXML_MAIN = {"xl/workbook.xml": ".xlsx", "word/document.xml": ".docx", "ppt/presentation.xml": ".pptx"}
_ODF_TYPES = {b"application/vnd.oasis.opendocument.spreadsheet": ".ods", b"application/vnd.oasis.opendocument.text": ".odt",
              b"application/vnd.oasis.opendocument.presentation": ".odp",
              b"application/vnd.oasis.opendocument.graphics": ".odg"}
_KIND_WORDS = {".xlsx": "an Excel workbook (.xlsx)", ".ods": "an ODF spreadsheet (.ods)",
               ".docx": "a Word document (.docx)", ".pptx": "a PowerPoint presentation (.pptx)",
               ".odt": "a LibreOffice Writer document (.odt)", ".odp": "a LibreOffice Impress presentation (.odp)",
               ".odg": "a LibreOffice Draw drawing (.odg)"}


def _zipped_kind(z: zipfile.ZipFile) -> str | None:
    """The ending a zipped office file's parts say it has (.xlsx, .ods, .docx, .odt…), or None when
    they say none pnpgen knows."""
    names = set(z.namelist())
    found = next((kind for part, kind in _OOXML_MAIN.items() if part in names), None)
    if found is None and "mimetype" in names and z.getinfo("mimetype").file_size < 200:
        found = _ODF_TYPES.get(z.read("mimetype").strip())
    return found


def _refuse_another_kind(z: zipfile.ZipFile, shown: Path, suffix: str) -> None:
    """A zipped office file that is not the kind its name says (an .ods renamed .xlsx, a Writer
    document named .ods), said as what it is, and one kept encrypted (a password to open it) said
    so: openpyxl said "There is no item named '[Content_Types].xml' in the archive", odfpy stopped
    with a traceback ('NoneType' object has no attribute 'getElementsByType') or read encrypted
    bytes as UTF-8."""
    kind = _zipped_kind(z)
    if kind is not None and kind != suffix:
        readable = kind in (".xlsx", ".ods")
        raise InputError(f"{shown.name} is {_KIND_WORDS[kind]} with a {suffix} name", path=shown,
                         expected=f"the file renamed to {shown.stem}{kind} and the deck's file: named so" if readable
                         else f"the pieces' table saved from a spreadsheet program as a {suffix} file (or CSV UTF-8)")
    if "META-INF/manifest.xml" in z.namelist() and b"encryption-data" in z.read("META-INF/manifest.xml")[:1_000_000]:
        raise InputError(f"{shown.name} is a spreadsheet saved with a password (it is kept encrypted)", path=shown,
                         expected="the spreadsheet saved without a password (LibreOffice: File ▸ Save As, "
                         "Save with password unticked), or its sheet saved as CSV UTF-8")


def _refuse_workbook_as_text(data: bytes, shown: Path) -> None:
    """A workbook named .csv (an .xlsx renamed, not saved as CSV) said as what it is: it read as
    text whose byte 0xef at offset 10 was "invalid as UTF-8 or CP932", naming no workbook."""
    kind = None
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                kind = _zipped_kind(z)
        except (zipfile.BadZipFile, OSError, KeyError, ValueError):
            kind = None
    elif data.startswith(b"\xd0\xcf\x11\xe0"):  # OLE2: .xls, the format before 2007
        kind = ".xls"
    if kind is None:
        return
    what = _KIND_WORDS.get(kind, "an Excel 97–2003 workbook (.xls)")
    raise InputError(f"{shown.name} is {what} with a .csv name, not comma-separated text", path=shown,
                     expected=f"the file renamed to {shown.stem}{kind} and the deck's file: named so" if kind in (".xlsx", ".ods")
                     else "the sheet saved from the office program as CSV UTF-8 (File ▸ Save As)")


def _check_unzipped(data: bytes, shown: Path, suffix: str) -> None:
    """The sizes a zipped spreadsheet declares for its parts, before any is unpacked (Python's
    zipfile never unpacks more than a part declares); a part held twice refused (zipfile reads
    the last copy, the office program may show the first: the sheet read silently differed)."""
    _a_zip(data, shown, suffix)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        parts = z.infolist()
        seen: set[str] = set()
        for part in parts:
            if part.filename in seen:
                raise InputError(f"{shown.name} is damaged: it holds its part {part.filename} twice, and which copy "
                                 "a program reads differs", path=shown, expected=f"the file saved again from the "
                                 f"spreadsheet program as a {suffix} file (File ▸ Save As), or its sheet as CSV UTF-8")
            seen.add(part.filename)
        if len(parts) > MAX_PARTS:
            raise InputError(f"the spreadsheet holds {len(parts):,} parts", path=shown,
                             expected=f"at most {MAX_PARTS:,} (the limit for spreadsheets)")
        total = sum(p.file_size for p in parts)
        if total > MAX_UNZIPPED:
            raise InputError(f"the spreadsheet unpacks to {total:,} bytes", path=shown,
                             expected=f"at most {MAX_UNZIPPED:,} bytes unpacked (the limit for spreadsheets); "
                             "save it again without the extra rows, pictures or sheets")
        for part in parts:  # a DOCTYPE comes before the first element, so a part's head holds it
            if part.filename.endswith((".xml", ".rels")) and b"<!DOCTYPE" in z.open(part).read(DOCTYPE_HEAD):
                raise InputError(f"its part {part.filename} declares XML entities (a DOCTYPE), which no spreadsheet "
                                 "program writes", path=shown, expected="the file saved again by a spreadsheet "
                                 "program (entities are how a crafted file reads other files or expands to gigabytes)")
        _refuse_another_kind(z, shown, suffix)


def _elements(xml: bytes) -> int:  # every tag but an end tag, a declaration or a comment
    return xml.count(b"<") - xml.count(b"</") - xml.count(b"<?") - xml.count(b"<!")


MAX_COVERED = MAX_ROWS * MAX_COLUMNS  # cells one sheet's merged (and linked) ranges cover together
# <mergeCell ref="A1:C2"/> and <hyperlink ref="A1:C2" …/>: openpyxl makes a cell object for every
# cell such a range covers, so a 5 kB workbook merging A3:XFD1048576 took 3 GB and 40 s
_XLSX_RANGE = re.compile(rb'<(?:\w+:)?(?:mergeCell|hyperlink)\b[^>]*?\bref="([^"]*)"')


def _check_covered(ranges: list[tuple[int, int, int, int]], shown: Path) -> None:
    """Merged ranges (top, left, bottom, right; 1-based) that cover more cells together than a
    sheet within the limits holds: refused before any is filled. A range written backwards
    (``A1048576:XFD1``, a span of -10⁹ rows) covers as many cells as written forwards: counted
    negative, it cancelled the others (a 5 kB .xlsx ran for minutes and took gigabytes)."""
    covered = sum((abs(bottom - top) + 1) * (abs(right - left) + 1) for top, left, bottom, right in ranges)
    if covered > MAX_COVERED:
        raise InputError(f"the spreadsheet's merged cells cover {covered:,} cells", path=shown,
                         expected=f"at most {MAX_COVERED:,} (the limit for spreadsheets): unmerge the cells "
                         "beyond the last piece and field")


_XLSX_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")  # a cell's <f> (its formula)


def _check_xlsx_ranges(data: bytes, shown: Path) -> bool:
    """The merged and linked ranges of every worksheet checked (``_check_covered``), its cells counted
    with its other parts' elements (11 MB of empty cells: openpyxl took 3 min and 2.4 GB); whether any
    worksheet holds a formula (else its formulas need not be read: a second whole read of the
    workbook, some 12 µs a cell — 24 s for a sheet of the limits' 9,000 × 200 cells)."""
    from openpyxl.utils.cell import range_boundaries

    formulas, cells = False, 0
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for part in z.namelist():
            if not part.startswith("xl/worksheets/") and part.endswith(".xml"):  # shared strings, styles…
                cells += _elements(z.read(part))  # (5 million shared strings, 211 kB zipped, took 2 minutes)
            elif part.endswith(".xml"):
                xml = z.read(part)
                ranges = []
                for ref in _XLSX_RANGE.findall(xml):
                    left, top, right, bottom = range_boundaries(ref.decode("ascii", "replace").replace("$", ""))
                    ranges.append((top or 1, left or 1, bottom or top or 1, right or left or 1))
                _check_covered(ranges, shown)
                formulas = formulas or _XLSX_FORMULA.search(xml) is not None
                cells += sum(xml.count(b"%sc%s" % (head, tail)) for head in (b"<", b":") for tail in (b" ", b">", b"/"))
    if cells > MAX_COVERED:  # openpyxl makes an object of every cell of every sheet before its size is known
        raise InputError(f"the spreadsheet holds {cells:,} cells (with its texts and styles)", path=shown,
                         expected=f"at most {MAX_COVERED:,} (the limit for spreadsheets): the rows and columns beyond "
                         "the last piece and field deleted (a cell only formatted counts)")
    return formulas


def unseen(sheet: str) -> str:
    """What to do about a worksheet's name holding an invisible character."""
    return (f"a worksheet name without invisible characters: rename worksheet {shown_invisible(sheet)} to "
            f"{INVISIBLE.sub('', sheet) or 'a name of letters'} in the workbook, and name it so in sheet:")


LISTED = 30  # worksheets an error names (a workbook of 300 made the line 5 KB)


def _pick(names: list[str], sheet: str | None, shown: Path, hidden: frozenset[int] = frozenset()) -> int:
    """The worksheet named ``sheet``, else the first one the office program shows: a sheet hidden
    (``hidden``: their indexes; an old version kept out of sight, a list of lookups) is never read
    in place of the one the designer sees first, though it is when named."""
    if sheet is None:
        return next((i for i in range(len(names)) if i not in hidden), 0)
    alike = [n for n in names if n != sheet and INVISIBLE.sub("", n) == sheet]
    if alike:  # スペル named, the workbook's スペル + U+200B: "no worksheet 'スペル', one of スペル"
        raise InputError(f"no worksheet {sheet!r}, but a worksheet {shown_invisible(alike[0])} (its name holds "
                         f"{name_invisible_char(alike[0])})", path=shown, key="sheet", expected=unseen(alike[0]))
    if sheet not in names:
        listed = [shown_invisible(clipped(n)) for n in names[:LISTED]]  # (a name as the workbook holds it: on one line)
        more = f", and {len(names) - LISTED:,} more" if len(names) > LISTED else ""
        raise InputError(f"no worksheet {sheet!r}", path=shown, key="sheet", expected="one of " + ", ".join(listed) + more)
    return names.index(sheet)


def _open_xlsx(data: bytes, shown: Path) -> _Opened:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    _check_unzipped(data, shown, ".xlsx")  # .xlsx and .ods are zip files: a 640 kB bomb expands to gigabytes
    formulas = _check_xlsx_ranges(data, shown)  # before openpyxl makes a cell for each cell they cover
    _check_sheet_names(data, shown)
    try:
        with warnings.catch_warnings():  # openpyxl's own words on parts it leaves out: not the designer's to mend
            warnings.simplefilter("ignore", UserWarning)
            book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    except InvalidFileException as e:
        raise InputError(f"cannot read the spreadsheet: {e}", path=shown, expected="an .xlsx workbook") from None
    return _Opened(data, book, formulas,
                   hidden=frozenset(i for i, w in enumerate(book.worksheets) if w.sheet_state != "visible"),
                   names=_written_names(data, [w.title for w in book.worksheets]))


# A worksheet's name as workbook.xml writes it; the characters no worksheet's name holds (Excel refuses
# them as a sheet is renamed: ECMA-376 Part 1, 18.2.19 sheet; openpyxl's INVALID_TITLE_REGEX), which a
# file another program wrote may hold all the same ('../x')
_SHEET_NAME = re.compile(rb'<(?:\w+:)?sheet\b[^>]*?\bname="([^"]*)"')
_NOT_IN_A_SHEET_NAME = re.compile(r"[\\*?:/\[\]]")


def _check_sheet_names(data: bytes, shown: Path) -> None:
    """A worksheet named with a character no worksheet's name holds is said by name (openpyxl refused
    the whole workbook: 'could not read worksheets from None … invalid XML')."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        try:
            xml = z.read("xl/workbook.xml")[:1_000_000]
        except KeyError:
            return
    for written in _SHEET_NAME.findall(xml):
        name = html.unescape(written.decode("utf-8", "replace"))
        bad = _NOT_IN_A_SHEET_NAME.search(name)
        if bad is not None:
            raise InputError(f"its worksheet '{shown_invisible(clipped(name))}' is named with {bad.group()!r}, which no "
                             "worksheet's name may hold (a file another program wrote)", path=shown,
                             expected="the worksheet renamed without \\ / ? * [ ] : in the office program (or the "
                             "sheet saved as CSV), and sheet: naming it so")


def _written_names(data: bytes, names: list[str]) -> list[str]:
    """The worksheets' names as the workbook writes them. openpyxl gives a worksheet whose name
    another's differs from in letter case alone (``roles`` beside ``Roles``, which Excel takes for
    one name and another program wrote) a number, ``roles1`` (``avoid_duplicate_name``, as its
    title is set); read-only, it sets each title as written. Asked only where a name could be so
    numbered: one the workbook does not hold would otherwise be looked up and listed."""
    import openpyxl

    lower = [n.lower() for n in names]  # (as openpyxl compares them)
    if not any(n[:k].lower() in lower[:i] for i, n in enumerate(names) for k in range(1, len(n))
               if n[k:].isascii() and n[k:].isdigit()):
        return names
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        written = [w.title for w in book.worksheets]  # (worksheets alone, as the caller's: no chart sheet)
    finally:
        book.close()
    return written if len(written) == len(names) else names


def _xlsx_rows(opened: _Opened, shown: Path, sheet: str | None) -> Rows:
    import openpyxl

    book = opened.book
    # indexes into the worksheets: a chart sheet, which book.sheetnames also lists, holds no cells
    names = opened.names or [w.title for w in book.worksheets]
    if not names:  # chart sheets alone, or its worksheets' parts missing (a part named outside the file: ../../etc/x)
        raise InputError("the spreadsheet has no worksheet pnpgen can read (chart sheets alone, or a worksheet "
                         "whose part the file does not hold)", path=shown,
                         expected="a workbook with its cards on a worksheet, saved by a spreadsheet program")
    if sheet is not None and sheet not in names and sheet in [c.title for c in book.chartsheets]:
        raise InputError(f"{sheet!r} is a chart sheet (a chart with no cells)", path=shown, key="sheet",
                         expected="the worksheet holding the pieces, one of " + ", ".join(
                             shown_invisible(clipped(n)) for n in names[:LISTED]))
    index = _pick(names, sheet, shown, opened.hidden)
    ws = book.worksheets[index]
    if ws.max_row > MAX_ROWS:
        raise _too_large(shown, "rows", MAX_ROWS)
    if ws.max_column > MAX_COLUMNS:
        raise _too_large(shown, "columns", MAX_COLUMNS)
    rows: list[list[Any]] = []
    linked: list[tuple[int, int]] = []  # the cells with a value and a hyperlink
    for r, row in enumerate(ws.iter_rows(min_row=1, min_col=1), 1):
        rows.append([_xlsx_value(cell) for cell in row])
        linked.extend((r, c) for c, cell in enumerate(row, 1) if cell.hyperlink is not None and rows[-1][c - 1] is not None)
    if linked:
        _unlink_empty_cells(opened, index, rows, linked)
    # A formula keeps its result only once an office program has calculated and saved it.
    if opened.formulas:
        if opened.written is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                opened.written = openpyxl.load_workbook(io.BytesIO(opened.data))
        written = opened.written.worksheets[index]
        for r, row in enumerate(rows, 1):
            for c, value in enumerate(row, 1):
                if (value is None or value == "") and written.cell(r, c).data_type == "f":
                    if value is None and ws.cell(r, c).data_type != "str":  # (a text result kept empty: <v></v>
                        raise _unsaved_formula(shown, r, c)                 # with t="str", as Excel saves "")
                    row[c - 1] = FormulaBlank()
    _fill(rows, [(m.min_row, m.min_col, m.max_row, m.max_col) for m in ws.merged_cells.ranges])
    return list(enumerate(rows, 1)), {r for r, d in ws.row_dimensions.items() if d.hidden}, names[index]


def _unlink_empty_cells(opened: _Opened, index: int, rows: list[list[Any]], linked: list[tuple[int, int]]) -> None:
    """A cell holding no value but a hyperlink (Excel's Delete key empties a cell and keeps its
    link; a link over a range reaches cells left empty) is empty: openpyxl gives such a cell its
    link's address for a value (its Cell.hyperlink setter, 3.1), which printed on the card
    (https://… in a text left empty) and made a blank row under a linked range a piece. Its own
    value is read from the workbook loaded without links, and only when a cell with a link has one."""
    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        plain = openpyxl.load_workbook(io.BytesIO(opened.data), read_only=True, data_only=True)
    try:
        values = [list(row) for row in plain.worksheets[index].iter_rows(min_row=1, max_row=max(r for r, _ in linked),
                                                                           values_only=True)]
    finally:
        plain.close()
    for r, c in linked:
        if r > len(values) or c > len(values[r - 1]) or values[r - 1][c - 1] is None:
            rows[r - 1][c - 1] = None


def _xlsx_value(cell: Any) -> Any:
    """A cell's value; a number or a date in a cell with a number format also carries the text
    Excel shows for it (``numberformat``), which a text field prints (a card number 1 formatted
    000: 001; a date formatted m"月"d"日": 12月1日). A date in the computer's own short format
    (Excel's when a date is typed) carries none: it reads 2026-01-02."""
    value = cell.value
    fmt = getattr(cell, "number_format", "") or ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        text = numberformat.shown(value, fmt)
        return numberformat.with_shown(value, text) if text is not None else value
    if isinstance(value, (dt.datetime, dt.date, dt.time, dt.timedelta)) and fmt not in numberformat.LOCALE_DATES:
        text = numberformat.shown_moment(value, fmt)
        return numberformat.with_shown(value, text) if text is not None else value
    return value


def _unsaved_formula(shown: Path, row: int, col: int) -> InputError:
    return InputError(f"cell {column_letter(col)}{row} is a formula with no saved value", path=shown, line=row,
                      column=col, expected="its result: open the file in the office program and save it, which saves every formula's result")


def _fill(rows: list[list[Any]], merges: list[tuple[int, int, int, int]]) -> None:
    """Merged ranges (top, left, bottom, right; 1-based, inclusive): every cell one covers holds
    its top-left cell's value, but in a row left blank (a category merged down past a blank row
    between its pieces gives that row no piece: a blank row is skipped)."""
    blank = {r for r, row in enumerate(rows, 1) if not any(filled(x) for x in row)}
    for top, left, bottom, right in merges:
        value = rows[top - 1][left - 1] if top <= len(rows) and left <= len(rows[top - 1]) else None
        for r in range(top, min(bottom, MAX_ROWS) + 1):
            if r in blank or r > len(rows):
                continue
            row = rows[r - 1]
            row.extend([None] * (min(right, MAX_COLUMNS) - len(row)))
            for c in range(left, min(right, MAX_COLUMNS) + 1):
                row[c - 1] = value


def _open_ods(data: bytes, shown: Path) -> _Opened:
    from odf.opendocument import load
    from odf.style import Style, TableProperties
    from odf.table import Table

    _check_unzipped(data, shown, ".ods")  # .xlsx and .ods are zip files: a 640 kB bomb expands to gigabytes
    with zipfile.ZipFile(io.BytesIO(data)) as z:  # odfpy makes an object of each element: counted before it reads them
        xml = [z.read(part) for part in z.namelist() if part.endswith(".xml")]
    elements = sum(_elements(x) + sum(int(n[:12]) for n in _ODS_SPACES.findall(x)) for x in xml)
    if elements > MAX_ODS_ELEMENTS:
        raise InputError(f"the spreadsheet holds {elements:,} XML elements (cells, their texts and styles)", path=shown,
                         expected=f"at most {MAX_ODS_ELEMENTS:,} in an .ods (the limit for spreadsheets): the rows and "
                         "columns beyond the last piece and field deleted, or the sheet saved as .xlsx or CSV")
    doc = load(io.BytesIO(data))
    body = getattr(doc, "spreadsheet", None)  # (none: a file with no content.xml)
    tables = body.getElementsByType(Table) if body is not None else []
    if not tables:
        raise InputError("the spreadsheet has no worksheet", path=shown,
                         expected="a spreadsheet with its pieces on a worksheet, saved by a spreadsheet program")
    hidden_styles = {style.getAttribute("name") for style in doc.automaticstyles.getElementsByType(Style)
                     if any(p.getAttribute("display") == "false" for p in style.getElementsByType(TableProperties))}
    return _Opened(data, tables, hidden=frozenset(i for i, t in enumerate(tables)
                                                  if t.getAttribute("stylename") in hidden_styles))


def _ods_rows(opened: _Opened, shown: Path, sheet: str | None) -> Rows:
    from odf.namespaces import TABLENS
    from odf.table import TableRow

    tables = opened.book
    table = tables[_pick([t.getAttribute("name") for t in tables], sheet, shown, opened.hidden)]
    rows: list[tuple[int, list[Any]]] = []
    merges: list[tuple[int, int, int, int]] = []  # (top, left, bottom, right), 1-based
    hidden_rows: set[int] = set()
    number = 0
    for row in table.getElementsByType(TableRow):
        repeat = _times(row.getAttribute("numberrowsrepeated"))
        cells: list[Any] = []
        pending = 0  # empty cells kept only if a filled one follows (rows end in huge repeats)
        for cell in row.childNodes:
            if cell.qname[1] not in ("table-cell", "covered-table-cell"):
                continue
            n = _times(cell.getAttribute("numbercolumnsrepeated"))
            value = _ods_value(cell) if cell.qname[1] == "table-cell" else None  # covered: merged away
            col = len(cells) + pending + 1
            if cell.qname[1] == "table-cell" and cell.getAttribute("formula"):
                if not cell.getAttribute("valuetype"):
                    raise _unsaved_formula(shown, number + 1, col)
                if value in ("", None) and cell.getAttribute("valuetype") == "string":  # its result: the empty text
                    value = FormulaBlank()
            spans = (_times(cell.attributes.get((TABLENS, "number-rows-spanned"))),
                     _times(cell.attributes.get((TABLENS, "number-columns-spanned"))))
            if spans != (1, 1) and filled(value):
                merges.append((number + 1, col, number + spans[0], col + spans[1] - 1))
            if not filled(value) and not (isinstance(value, FormulaBlank) and n == 1):  # (a run across the
                pending += n                                                              # sheet: left empty)
                continue
            if len(cells) + pending + n > MAX_COLUMNS:
                raise _too_large(shown, "columns", MAX_COLUMNS)
            cells.extend([None] * pending + [value] * n)
            pending = 0
        if any(filled(c) for c in cells):  # (a row of formulas that gave nothing, filled down the sheet: none)
            if len(rows) + repeat > MAX_ROWS:
                raise _too_large(shown, "rows", MAX_ROWS)
            for _ in range(repeat):
                number += 1
                rows.append((number, cells))
                if row.getAttribute("visibility") in ("collapse", "filter"):  # hidden, filtered out
                    hidden_rows.add(number)
        else:
            number += repeat
    _check_covered(merges, shown)
    if merges:
        table_rows: list[list[Any]] = [[] for _ in range(rows[-1][0] if rows else 0)]
        for n_, cells in rows:
            table_rows[n_ - 1] = list(cells)
        _fill(table_rows, merges)
        rows = [(i, cells) for i, cells in enumerate(table_rows, 1) if cells]
    return rows, hidden_rows, table.getAttribute("name")


def _times(written: str | None) -> int:
    """An .ods count (rows or columns repeated or spanned): at least 1, as spreadsheet programs write
    it (else ValueError). Less made row numbers run backwards and merged ranges of negative size."""
    n = int(written or 1)
    if n < 1:
        raise ValueError(f"a count of rows or columns of {n} (at least 1 in a saved spreadsheet)")
    return n


def _ods_value(cell) -> Any:
    from odf import teletype
    from odf.text import P

    kind = cell.getAttribute("valuetype")
    if any(k[1] == "value-type" and v == "error" for k, v in cell.attributes.items()):  # LibreOffice's calcext:
        return "\n".join(teletype.extractText(p) for p in cell.getElementsByType(P))  # as shown: #REF!, Err:502
    if kind in ("float", "percentage", "currency"):
        text = cell.getAttribute("value")
        number = float(text)
        value = int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
        shown = "\n".join(teletype.extractText(p) for p in cell.getElementsByType(P))  # as the cell shows it: 001, 50 %
        return numberformat.with_shown(value, shown)
    if kind == "boolean":
        return cell.getAttribute("booleanvalue") == "true"
    if kind == "date":
        text = cell.getAttribute("datevalue")
        shown = "\n".join(teletype.extractText(p) for p in cell.getElementsByType(P))  # 2026年1月2日, 1/2
        try:  # as a date, like an .xlsx date cell (2026-01-02, or with its time); a text field: as shown
            return numberformat.with_shown(dt.datetime.fromisoformat(text) if "T" in text
                                           else dt.date.fromisoformat(text), shown)
        except ValueError:
            return text
    paragraphs = cell.getElementsByType(P)
    return "\n".join(teletype.extractText(p) for p in paragraphs) if paragraphs else None
