"""Decks kept in spreadsheets: ``pieces: {file: cards.csv}`` (also .xlsx and .ods).

One row per piece under a header row naming the fields; a ``count`` column; an empty cell takes
the deck's default. The rows become the same piece mappings a YAML deck holds, so the loader
checks them with the very same field checks; :class:`SheetDoc` answers its ``where``/``error``
questions with ``cards.csv:row:column`` and the column's header instead of a YAML position.

The reverse, a loaded deck's pieces as CSV or XLSX, is data/sheetexport.py.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import os
import re
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.data import numberformat
from pnpgen.data.textfile import decode
from pnpgen.data.yamlsrc import Located, load_value
from pnpgen.errors import InputError, Where, contained, not_a_file, suggest, written_alike
from pnpgen.patterns import later
from pnpgen.safetext import INVISIBLE, control_char, csv_text, name_invisible_char, shown_invisible

SUFFIXES = (".csv", ".xlsx", ".ods")
# Cells of these field types are taken as written; any other cell is read as a YAML value, so
# `3`, `2.5`, `true`, `[a, b]` and `{k: v}` mean what they mean in a YAML deck.
VERBATIM = ("text", "colour", "image")
# Text an office program saved in a legacy encoding lost its Japanese: each character became "?"
# (LibreOffice's and Excel's CSV without UTF-8) or U+FFFD (a decoder's replacement).
_QUESTION_RUN = later(r"\?{2,}")
# What a formula that failed leaves as its saved value: Excel's error values (kept as such in an
# .xlsx, as text in its CSV) and LibreOffice's (#REF!, or Err:502 for the errors Excel has no name for).
_FORMULA_ERROR = later(r"#(?:REF!|DIV/0!|VALUE!|N/A|NAME\?|NUM!|NULL!|SPILL!|CALC!|FIELD!|BLOCKED!|"
                            r"CONNECT!|BUSY!|UNKNOWN!|GETTING_DATA)|Err:\d{3}")
# why each of Excel's commonest errors comes about, for the message
_ERROR_CAUSE = {"#REF!": "a reference to a cell, row or sheet that was deleted",
                "#DIV/0!": "a division by zero or by an empty cell", "#VALUE!": "text where a number is wanted",
                "#NAME?": "a misspelt function or name", "#N/A": "a lookup that found nothing"}


@functools.cache
def _cjk() -> re.Pattern[str]:
    """Japanese or Chinese text (compiled when a spreadsheet is read: 2 ms at every start otherwise)."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff9f]")


def column_letter(n: int) -> str:
    """1 → A, 27 → AA: how a spreadsheet names its columns."""
    letters = ""
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


@dataclass
class SheetDoc:
    """A spreadsheet of pieces, with the spreadsheet's row and column of every value."""

    path: Path
    headers: list[str]
    rows: list[int] = field(default_factory=list)  # the sheet row of each piece
    header_row: int = 1
    hidden: list[int] = field(default_factory=list)  # the rows of pieces hidden in the office program
    sheet: str | None = None  # the worksheet the deck names (one workbook may hold every deck)
    worksheet: str | None = None  # the worksheet read (named, or the first shown); None: a CSV
    # the column a translated field's value was read from, by piece and field (``text.en`` in an
    # English edition, data/i18n.py resolve_rows): its mistakes are told at that cell
    read_from: dict[tuple[int, str], str] = field(default_factory=dict)

    def _place(self, keypath: tuple, key: bool) -> tuple[int | None, int | None, str | None]:
        if len(keypath) < 2:
            return None, None, None
        row = self.header_row if key else self.rows[keypath[1]]
        if len(keypath) < 3:
            return row, None, None
        # a field read only from its <field>.<lang> columns (data/i18n.py) is named by the first
        column = self.read_from.get((keypath[1], keypath[2])) or next(
            (h for h in self.headers if h == keypath[2]), None) or next(
            (h for h in self.headers if h.rsplit(".", 1)[0] == keypath[2]), None)
        if column is None:
            return row, None, None
        col = self.headers.index(column) + 1
        return row, col, f"{column} (column {column_letter(col)})"

    def where(self, keypath: tuple, key: bool = False) -> Where:
        row, col, _ = self._place(tuple(keypath), key)
        return Where(self.path, row, col, self.sheet)

    def key_of(self, keypath: tuple) -> str | None:
        """How a message names a cell's field: ``text.en (column G)``, as a value error does."""
        return in_worksheet(self._place(tuple(keypath), False)[2], self.sheet)

    def error(self, keypath: tuple, message: str, expected: str | None = None, key: bool = False) -> InputError:
        row, col, header = self._place(tuple(keypath), key)
        return InputError(message, path=self.path, line=row, column=col, key=in_worksheet(header, self.sheet),
                          expected=expected)


def in_worksheet(key: str | None, sheet: str | None) -> str | None:
    """A message's key with the worksheet it is on (``count (column E) in worksheet スペル``): the
    row and column alone do not say which of a workbook's sheets, each a deck's, to open."""
    if sheet is None:
        return key
    return f"{key} in worksheet {sheet}" if key else f"worksheet {sheet}"


SHEET_KEYS = ("file", "sheet")  # pieces: {file: cards.csv, sheet: name}


def _elsewhere(game_root: Path, path: Path) -> Path | None:
    """A file of ``path``'s name in the game's folder or one of its own folders (no link followed
    out of it), relative to it: where ``export-sheet --out`` was told to put it."""
    folders = [game_root, *sorted(d for d in game_root.iterdir() if d.is_dir() and not d.is_symlink())]
    found = [d / path.name for d in folders if (d / path.name).is_file() and not (d / path.name).is_symlink()
             and d / path.name != path]
    return found[0].relative_to(game_root) if found else None


def read_pieces(doc: Located, deck_file: Path, game_root: Path, fields: dict[str, str]) -> tuple[SheetDoc, list[dict]]:
    """The deck's ``pieces: {file: …}`` → (where-answering sheet, one mapping per row)."""
    spec = doc.data["pieces"]
    for key in spec:
        if key not in SHEET_KEYS:
            raise doc.error(("pieces", key), "unknown key in pieces", "file: cards.csv (and sheet: name for .xlsx/.ods)",
                            key=True)
    name = spec.get("file")
    if not isinstance(name, str) or Path(name.strip()).suffix.lower() not in SUFFIXES:  # ('cards.csv ': told not found)
        raise doc.error(("pieces", "file"), f"{name!r} is not a spreadsheet file name",
                        "a .csv, .xlsx or .ods file beside the deck file, e.g. 'file: cards.csv'")
    rel = deck_file.parent.resolve().relative_to(game_root.resolve()) / name
    path = contained(rel, game_root, "pieces.file", doc.where(("pieces", "file")))
    alike = None if path.is_file() else written_alike(rel.as_posix(), [game_root])
    if alike is not None:  # カード.csv in the deck, the file's name decomposed as macOS writes names
        path = contained(alike, game_root, "pieces.file", doc.where(("pieces", "file")))
    if not path.is_file():
        what = not_a_file(deck_file.parent / name)
        if what is not None:  # (not "not found; did you mean cards.xlsx?": the very name)
            raise doc.error(("pieces", "file"), f"spreadsheet {name!r} is {what}, not a file",
                            f"a spreadsheet file {deck_file.parent / name}")
        slashed = name.replace("\\", "/")
        if slashed != name and ".." not in Path(slashed).parts and not Path(slashed).is_absolute() \
                and (deck_file.parent / slashed).is_file():  # sheets\cards.csv, as Windows writes a path
            raise doc.error(("pieces", "file"), f"spreadsheet '{name}' not found: a backslash separates folders on "
                            "Windows only", f"file: {slashed}, with / between the folders (read on every system)")
        there = sorted(p.name for p in path.parent.iterdir()
                       if Path(p.name.strip()).suffix.lower() in SUFFIXES) if path.parent.is_dir() else []
        spaced = [n for n in there if n != name and n.strip() == name.strip()]  # a space at an end of either name
        if spaced:
            raise doc.error(("pieces", "file"), f"spreadsheet {name!r} not found", f"{spaced[0]!r}, the name of the file "
                            "that is there" + ("" if spaced[0] == spaced[0].strip() else
                                               ": a name that begins or ends with a space; rename the file without it"))
        elsewhere = _elsewhere(game_root, path)
        if elsewhere is not None:  # export-sheet --out put it in the game's folder, say: where it is, how to name it
            moved = os.path.relpath(game_root / elsewhere, deck_file.parent).replace(os.sep, "/")
            raise doc.error(("pieces", "file"), f"spreadsheet {name!r} is not beside the deck file, but "
                            f"{(game_root / elsewhere).as_posix()} is", f"the file moved to {path}, or file: {moved}")
        raise doc.error(("pieces", "file"), f"spreadsheet {name!r} not found{suggest(name, there)}", f"a file {path}")
    shown = deck_file.parent / name
    sheet = spec.get("sheet")
    if sheet is not None and (not isinstance(sheet, str) or path.suffix.lower() == ".csv"):
        raise doc.error(("pieces", "sheet"), "sheet names a worksheet of an .xlsx or .ods file",
                        "the worksheet's name as text (a CSV has only one)")
    hidden_char = name_invisible_char(sheet or "")  # two decks' worksheets that look one: as a deck file's name
    if hidden_char is not None and isinstance(sheet, str):
        raise doc.error(("pieces", "sheet"), f"the worksheet's name holds {hidden_char}", _unseen(sheet))
    try:
        rows, hidden, worksheet = _read_rows(path, shown, sheet)
    except InputError as e:
        if e.key != "sheet" or e.line is not None:
            e.key = in_worksheet(e.key, sheet) if e.path == shown else e.key
            raise
        raise doc.error(("pieces", "sheet"), f"{e.message} in {name}", e.expected) from None  # at the deck's sheet:
    try:
        sdoc, pieces = _pieces(rows, path, shown, sheet, fields, hidden)
        sdoc.worksheet = worksheet
        return sdoc, pieces
    except InputError as e:
        if e.path == shown and sheet is not None and "worksheet" not in (e.key or ""):
            e.key = in_worksheet(e.key, sheet)
        raise


# what a designer's sheet may call a field pnpgen names otherwise: the copies of a piece, its name,
# and (told only where a layout's box reads the field) its text, cost, flavour and picture; in
# English and in the words a Japanese designer's list heads its columns with (枚数, カード名, 効果…)
SYNONYMS = {
    "count": ({"qty", "quantity", "quantities", "copies", "# copies", "#", "amount", "how many", "nr", "no. of copies",
               "枚数", "部数", "個数", "数量", "数", "印刷枚数", "枚"}, "the number of copies to print"),
    "title": ({"name", "card name", "card title", "cardname", "名前", "名称", "カード名", "カード名称", "タイトル"},
              "the field that names the piece"),
    "text": ({"effect", "effects", "rules", "rules text", "card text", "ability", "description",
              "効果", "テキスト", "本文", "効果テキスト", "能力"}, "the card's rules text"),
    "cost": ({"price", "コスト"}, "the card's cost"),
    "flavour": ({"flavor", "flavor text", "flavour text", "フレーバー", "フレーバーテキスト"}, "the flavour line"),
    "art": ({"画像", "イラスト", "絵", "picture", "illustration", "image", "artwork", "art file"}, "the card's picture"),
}
TITLE_ROWS = 5  # title rows (a merged heading, a note) looked past for the header row


def _names_a_field(cells: list[Any], fields: dict[str, str]) -> bool:
    """Whether a row is the header row: a cell names a field, or two say fields in a sheet's own
    words (a Japanese list headed カード名, 効果, 枚数), which the header's check then tells the
    names of; one such word alone may be a piece's value (a card called 本文)."""
    names = [_field_named(str(v).strip(), fields) for v in cells if _filled(v)]
    return any(h == "count" or h in fields or h.rsplit(".", 1)[0] in fields for h in names) \
        or len({said_for(h, fields, names) for h in names} - {None}) >= 2


def said_for(header: str, fields: Mapping[str, Any] | list[str], headers: Iterable[Any] = ()) -> str | None:
    """The field (of ``fields``, or count) a header says in a sheet's own words: 枚数 is count; 種類
    as :func:`said_kind` reads it beside the row's other ``headers``."""
    word = header.strip().lower().rstrip(".:")
    found = next((f for f, (words, _) in SYNONYMS.items() if word in words and (f == "count" or f in fields)), None)
    kind = said_kind(header, fields, headers) if found is None else None
    return kind[0] if kind else found


# A sheet's 種類 (kind, type) column: in a list with no column naming the pieces, what names each
# (a tile list headed 種類, 枚数, 効果: 森, 草原, 山 — the drafts' 「森・草原・山の３種類」); beside a
# カード名 column, the card's type (アクション, 祝福), which docs/data-format.md's layouts print as
# the footer (a card's type has no box of its own). 種類 never names a field of its own.
KIND_WORDS = frozenset({"種類", "種別", "カード種類", "カードの種類", "タイプ", "カードタイプ"})


def said_kind(header: str, fields: Mapping[str, Any] | list[str], headers: Iterable[Any] = ()) -> tuple[str, str] | None:
    """(the field, why) a 種類 column is meant as: ``title`` when no other of ``headers`` names the
    pieces, else ``footer`` where the layout has one; None when ``fields`` has neither."""
    if header.strip().lower().rstrip(".:") not in KIND_WORDS:
        return None
    named = any(str(h).strip().lower() == "title" or said_for(str(h), ["title"]) == "title"
                for h in headers if str(h).strip() != header.strip())
    if "title" in fields and not named:
        return "title", "the field that names the piece: a kind names it, as 森 names a forest tile"
    if "footer" in fields:
        return "footer", "the card's type, which the layout prints at its foot"
    return None


_TRANSLATED_HEADER = later(r"(?P<base>.+)\.(?P<lang>[A-Za-z]{2}(?:-[A-Za-z0-9]+)*)")  # カード名.en, Effect.EN


def said_translated(header: str, fields: Mapping[str, Any] | list[str],
                    headers: Iterable[Any] = ()) -> tuple[str, str] | None:
    """The field and language of a translation column headed in a sheet's own words (カード名.en is
    title in en), as said_for tells the column it translates."""
    m = _TRANSLATED_HEADER.fullmatch(header.strip())
    field = said_for(m["base"], fields, [str(h).rsplit(".", 1)[0] for h in headers]) if m else None
    return (field, m["lang"].lower()) if m and field and field != "count" else None


def more_renames(key: Any, allowed, given) -> str:
    """The header row's other columns in a sheet's own words, told in the same line, so a list
    headed カード名, コスト, 効果, 枚数 is renamed in one go, not one column per build."""
    others = [f"{k} → {f}" for k in given if k != key and k not in allowed
              and (f := said_for(str(k), [a for a in allowed if a not in given], given)
                   or ".".join(said_translated(str(k), allowed, given) or ()) or None) is not None]
    return f"; rename the others too: {', '.join(others)}" if others else ""


def _pieces(rows: list[tuple[int, list[Any]]], path: Path, shown: Path, sheet: str | None,
            fields: dict[str, str], hidden: set[int] | frozenset[int] = frozenset()) -> tuple[SheetDoc, list[dict]]:
    """The rows under the header row as piece mappings. Rows above the header that name no field
    (a title merged across the sheet, a note: what a Japanese Excel list often starts with) are
    passed over, up to TITLE_ROWS of them."""
    while rows and not any(_filled(v) for v in rows[0][1]):
        rows.pop(0)
    if not rows:
        raise InputError("the spreadsheet is empty", path=shown,
                         expected="a header row naming the fields (and count), then one row per piece")
    if fields and not _names_a_field(rows[0][1], fields):
        titled = next((i for i, (_, cells) in enumerate(rows[:TITLE_ROWS + 1]) if _names_a_field(cells, fields)), 0)
        rows = rows[titled:]
    header_row, header_cells = rows[0]
    headers = [_field_named(str(v).strip(), fields) if _filled(v) else "" for v in header_cells]
    separator = next((c for c in ";\t" if len(headers) == 1 and c in headers[0]), None)
    if separator is not None and path.suffix.lower() == ".csv":  # a field name never holds one
        said = "tabs" if separator == "\t" else "semicolons"
        raise InputError(f"the CSV's values are separated by {said}, not commas", path=shown, line=header_row,
                         expected="a CSV saved with commas between the values (LibreOffice: field delimiter ','; "
                         "Excel: CSV UTF-8 (comma delimited))")
    sdoc = SheetDoc(shown, headers, header_row=header_row, sheet=sheet)
    if fields and not _names_a_field(headers, fields):
        cells = [repr(h if len(h) <= 20 else h[:19] + "…") for h in headers if h]
        shown_row = ", ".join(cells[:4]) + (", …" if len(cells) > 4 else "")
        raise InputError(f"row {header_row} is not a header row: none of its cells ({shown_row}) names a field",
                         path=shown, line=header_row, expected="a first row naming the fields, e.g. "
                         + ", ".join([*fields][:6] + ["count"]) + ", with the pieces in the rows below it")
    for col, name_ in enumerate(headers, 1):
        if name_ and name_ in headers[: col - 1]:
            first = headers.index(name_) + 1
            merged = " (a header cell merged across both columns names both)" \
                if first == col - 1 and path.suffix.lower() != ".csv" else ""
            raise InputError(f"the same header twice: {column_letter(col)}{header_row} repeats "
                             f"{column_letter(first)}{header_row}{merged}", path=shown, line=header_row, column=col,
                             key=name_, expected="each field in one column, headed in a cell of its own")
    _check_encoding(rows[1:], headers, shown, path.suffix.lower() == ".csv")
    pieces = []
    for row, cells in rows[1:]:
        raw = {}
        for col, value in enumerate(cells, 1):
            if not _filled(value):
                continue
            header = headers[col - 1] if col <= len(headers) else ""
            if isinstance(value, str) and _FORMULA_ERROR.fullmatch(value.strip()):
                raise _formula_error(shown, row, col, header, value.strip())
            if isinstance(value, str):
                value = value.replace("\r\n", "\n")
                bad = control_char(value)
                if bad is not None:
                    raise InputError(f"{bad} in the text", path=shown, line=row, column=col,
                                     key=header or None, expected="printable text; control characters removed")
            if not header and col > len(headers) and path.suffix.lower() == ".csv":
                raise _comma_split(shown, row, cells, len(headers), header_row)
            if not header:
                raise InputError(f"a value ({_as_shown(value)!r}) in a column without a header", path=shown, line=row,
                                 column=col, expected=f"a field name in row {header_row} of column {column_letter(col)}")
            raw[header] = _cell(value, fields.get(header, fields.get(header.rsplit(".", 1)[0])))  # name.en: as name
        if raw:
            sdoc.rows.append(row)
            pieces.append(raw)
    if not pieces:
        raise InputError("no pieces below the header row", path=shown, line=header_row,
                         expected="one row per piece under the header")
    sdoc.hidden = [r for r in sdoc.rows if r in hidden]
    return sdoc, pieces


def _field_named(header: str, fields: dict[str, str]) -> str:
    """A header as the field it names, read without regard to case as a spreadsheet's headers are
    often capitalised (``Title``, ``Count``, ``Title.en`` are title, count, title.en); as written
    when it names no field, or two that differ only in case."""
    name, dot, lang = header.partition(".")
    if name in fields or name == "count":
        return header
    same = [f for f in [*fields, "count"] if f.lower() == name.lower()]
    return same[0] + dot + lang if len(same) == 1 else header


def _comma_split(shown: Path, row: int, cells: list, headed: int, header_row: int) -> InputError:
    """A CSV row of more cells than its header: a text edited by hand with a comma in it
    (``[vp, gem]``, ``Sell, then buy``) and no quotes round it, which CSV reads as two cells."""
    texts = [c if isinstance(c, str) else "" for c in cells]
    at = next((i for i, t in enumerate(texts) if t.lstrip().startswith("[") and "]" not in t), None)
    end = next((j for j in range(at + 1, len(texts)) if "]" in texts[j]), None) if at is not None else None
    meant = ",".join(texts[at:end + 1]) if at is not None and end is not None else ""
    said = f"a comma inside the cell {meant!r} split it" if meant else "a comma inside a text split its cell"
    return InputError(f"row {row} has {len(cells)} cells and the header row {headed}: {said}", path=shown, line=row,
                      column=(at + 1) if meant and at is not None else None,
                      expected=(f'the cell in double quotes, as a spreadsheet saves it: "{meant}"' if meant else
                                "a text holding a comma in double quotes, as a spreadsheet saves it: \"Sell, then buy\"")
                      + f" (or a field name in row {header_row} for a column of its own)")


def _check_encoding(rows: list[tuple[int, list[Any]]], headers: list[str], shown: Path, csv_file: bool) -> None:
    """A cell holding U+FFFD, or a run of "?" where its column holds Japanese elsewhere (or the
    cell is mostly "?") and none itself, is text that lost its characters: an error naming it."""
    cjk_columns = {col for _, cells in rows for col, v in enumerate(cells) if isinstance(v, str) and _cjk().search(v)}
    for row, cells in rows:
        for col, value in enumerate(cells):
            if not isinstance(value, str):
                continue
            lost = "\ufffd" in value
            if not lost and _QUESTION_RUN.search(value) and not _cjk().search(value):
                others = sum(1 for c in value if not c.isspace())
                lost = col in cjk_columns or value.count("?") * 2 >= others
            if lost:
                saved = ("saved without UTF-8: save it again as CSV with the character set "
                         "Unicode (UTF-8)") if csv_file else "its text was converted from a file saved without UTF-8"
                header = headers[col] if col < len(headers) else ""
                raise InputError(f"cell {column_letter(col + 1)}{row} holds {value!r}: its characters were lost, "
                                 f"probably because the file was {saved}", path=shown, line=row, column=col + 1,
                                 key=f"{header} (column {column_letter(col + 1)})" if header else None,
                                 expected="the text as written, e.g. 祝福")


def _as_shown(value: Any) -> str:
    """A cell's value as its cell shows it, for a message: ``12/1/2026``, not ``ShownDateTime(2026, 12, 1, 0, 0)``."""
    text = getattr(value, "shown", None)
    if isinstance(text, str):
        return text
    return value.isoformat() if isinstance(value, (dt.date, dt.time)) else str(value)


def _filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _cell(value: Any, ftype: str | None) -> Any:
    """A cell as the YAML deck would have held it (see VERBATIM). A bool field takes 1 and 0 (how
    office programs keep TRUE() and FALSE() results); a date reads the same from every format:
    ``2026-01-02`` (a time only when it has one), unless a text field takes it as shown."""
    if ftype == "text" and isinstance(getattr(value, "shown", None), str):
        return value.shown  # a number or date in a text field, as its cell shows it (001, 50%, 12月1日)
    if ftype == "bool" and not isinstance(value, bool) and isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, dt.datetime) and value.time() == dt.time(0):
        value = value.date()
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        value = value.isoformat()
    if not isinstance(value, str):
        return value
    if ftype in VERBATIM:  # less the spaces a sheet's cell keeps unseen around it, as YAML drops them: 'Vote '
        return value.strip() if ftype != "text" else value.strip(" \t\u00a0")  # (a text keeps its line breaks, 　)
    try:
        return load_value(value)
    except ValueError:
        return value.strip()  # the field check says what the cell should hold


MAX_FILE_BYTES = 20_000_000
MAX_ROWS = 10_001  # the header and 10,000 pieces
MAX_COLUMNS = 200


def _too_large(shown: Path, what: str, limit: int) -> InputError:
    return InputError(f"the spreadsheet has more than {limit:,} {what}", path=shown,
                      expected=f"a deck of at most {MAX_ROWS - 1:,} pieces and {MAX_COLUMNS} fields; delete the "
                      "rows and columns beyond the last piece and field (a cell far down or right, even if only formatted, counts)")


def _read_rows(path: Path, shown: Path, sheet: str | None) -> tuple[list[tuple[int, list[Any]]], set[int], str | None]:
    """(sheet row number, cell values) for each row; the numbers of the rows the office program
    hides (none in a CSV); and the name of the worksheet read (None for a CSV). Cells are text
    from a CSV, typed otherwise. Bounded by MAX_FILE_BYTES, MAX_ROWS and MAX_COLUMNS before the
    cells are read."""
    suffix = path.suffix.lower()
    if path.stat().st_size > MAX_FILE_BYTES:
        raise _too_large(shown, "bytes", MAX_FILE_BYTES)
    try:
        if suffix == ".csv":
            text, _ = decode(path.read_bytes(), shown)
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
                    rows.append((i, [csv_text(c) for c in row]))
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
        _a_zip(path, shown, suffix)
        _check_unzipped(path, shown)  # .xlsx and .ods are zip files: a 640 kB bomb expands to gigabytes
        if suffix == ".xlsx":
            formulas = _check_xlsx_ranges(path, shown)  # before openpyxl makes a cell for each cell they cover
            return _xlsx_rows(path, shown, sheet, formulas)
        with zipfile.ZipFile(path) as z:  # odfpy makes an object of each element: counted before it reads them
            xml = [z.read(part) for part in z.namelist() if part.endswith(".xml")]
        elements = sum(_elements(x) + sum(int(n[:12]) for n in _ODS_SPACES.findall(x)) for x in xml)
        if elements > MAX_ODS_ELEMENTS:
            raise InputError(f"the spreadsheet holds {elements:,} XML elements (cells, their texts and styles)", path=shown,
                             expected=f"at most {MAX_ODS_ELEMENTS:,} in an .ods (the limit for spreadsheets): the rows and "
                             "columns beyond the last piece and field deleted, or the sheet saved as .xlsx or CSV")
        return _ods_rows(path, shown, sheet)
    except InputError:
        raise
    except csv.Error as e:
        raise InputError(f"cannot read the CSV: {_one_line(e)}", path=shown, expected="comma-separated values") from None
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError, TypeError, IndexError) as e:  # SyntaxError:
        # XML's ParseError; openpyxl's TypeError, IndexError: a merged range "3:5", a cell's style s="99999"
        raise InputError(f"cannot read the spreadsheet: {_one_line(e)}", path=shown,
                         expected=f"a {suffix} file saved by a spreadsheet program") from None


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


def _a_zip(path: Path, shown: Path, suffix: str) -> None:
    """A .xlsx or .ods is a zip file; one that is not says what it is instead (a CSV or an
    Excel 97–2003 workbook given the new name: 'File is not a zip file' named neither)."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return
    program = "Excel" if suffix == ".xlsx" else "LibreOffice Calc"
    if head.startswith(b"\xd0\xcf\x11\xe0") and "EncryptedPackage".encode("utf-16-le") in path.read_bytes():
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


def _check_unzipped(path: Path, shown: Path) -> None:
    """The sizes a zipped spreadsheet declares for its parts, before any is unpacked (Python's
    zipfile never unpacks more than a part declares)."""
    with zipfile.ZipFile(path) as z:
        parts = z.infolist()
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


def _check_xlsx_ranges(path: Path, shown: Path) -> bool:
    """The merged and linked ranges of every worksheet checked (``_check_covered``), its cells counted
    with its other parts' elements (11 MB of empty cells: openpyxl took 3 min and 2.4 GB); whether any
    worksheet holds a formula (else its formulas need not be read: a second whole read of the
    workbook, some 12 µs a cell — 24 s for a sheet of the limits' 9,000 × 200 cells)."""
    from openpyxl.utils.cell import range_boundaries

    formulas, cells = False, 0
    with zipfile.ZipFile(path) as z:
        for part in z.namelist():
            if not part.startswith("xl/worksheets/") and part.endswith(".xml"):  # shared strings, styles…
                cells += _elements(z.read(part))  # (5 million shared strings, 211 kB zipped, took 2 minutes)
            elif part.endswith(".xml"):
                data = z.read(part)
                ranges = []
                for ref in _XLSX_RANGE.findall(data):
                    left, top, right, bottom = range_boundaries(ref.decode("ascii", "replace").replace("$", ""))
                    ranges.append((top or 1, left or 1, bottom or top or 1, right or left or 1))
                _check_covered(ranges, shown)
                formulas = formulas or _XLSX_FORMULA.search(data) is not None
                cells += sum(data.count(b"%sc%s" % (head, tail)) for head in (b"<", b":") for tail in (b" ", b">", b"/"))
    if cells > MAX_COVERED:  # openpyxl makes an object of every cell of every sheet before its size is known
        raise InputError(f"the spreadsheet holds {cells:,} cells (with its texts and styles)", path=shown,
                         expected=f"at most {MAX_COVERED:,} (the limit for spreadsheets): the rows and columns beyond "
                         "the last piece and field deleted (a cell only formatted counts)")
    return formulas


def _unseen(sheet: str) -> str:
    """What to do about a worksheet's name holding an invisible character."""
    return (f"a worksheet name without invisible characters: rename worksheet {shown_invisible(sheet)} to "
            f"{INVISIBLE.sub('', sheet) or 'a name of letters'} in the workbook, and name it so in sheet:")


def _pick(names: list[str], sheet: str | None, shown: Path, hidden: frozenset[int] = frozenset()) -> int:
    """The worksheet named ``sheet``, else the first one the office program shows: a sheet hidden
    (``hidden``: their indexes; an old version kept out of sight, a list of lookups) is never read
    in place of the one the designer sees first, though it is when named."""
    if sheet is None:
        return next((i for i in range(len(names)) if i not in hidden), 0)
    unseen = [n for n in names if n != sheet and INVISIBLE.sub("", n) == sheet]
    if unseen:  # スペル named, the workbook's スペル + U+200B: "no worksheet 'スペル', one of スペル"
        raise InputError(f"no worksheet {sheet!r}, but a worksheet {shown_invisible(unseen[0])} (its name holds "
                         f"{name_invisible_char(unseen[0])})", path=shown, key="sheet", expected=_unseen(unseen[0]))
    if sheet not in names:
        raise InputError(f"no worksheet {sheet!r}", path=shown, key="sheet", expected="one of " + ", ".join(names))
    return names.index(sheet)


def _xlsx_rows(path: Path, shown: Path, sheet: str | None, formulas: bool = True) -> tuple[list[tuple[int, list[Any]]], set[int], str]:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        book = openpyxl.load_workbook(path, data_only=True)
    except InvalidFileException as e:
        raise InputError(f"cannot read the spreadsheet: {e}", path=shown, expected="an .xlsx workbook") from None
    index = _pick(book.sheetnames, sheet, shown,
                  frozenset(i for i, w in enumerate(book.worksheets) if w.sheet_state != "visible"))
    ws = book.worksheets[index]
    if ws.max_row > MAX_ROWS:
        raise _too_large(shown, "rows", MAX_ROWS)
    if ws.max_column > MAX_COLUMNS:
        raise _too_large(shown, "columns", MAX_COLUMNS)
    rows = [[_xlsx_value(cell) for cell in row] for row in ws.iter_rows(min_row=1, min_col=1)]
    # A formula keeps its result only once an office program has calculated and saved it.
    if formulas:
        written = openpyxl.load_workbook(path).worksheets[index]
        for r, row in enumerate(rows, 1):
            for c, value in enumerate(row, 1):
                if value is None and written.cell(r, c).data_type == "f":
                    raise _unsaved_formula(shown, r, c)
    _fill(rows, [(m.min_row, m.min_col, m.max_row, m.max_col) for m in ws.merged_cells.ranges])
    return list(enumerate(rows, 1)), {r for r, d in ws.row_dimensions.items() if d.hidden}, ws.title


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


def _formula_error(shown: Path, row: int, col: int, header: str, value: str) -> InputError:
    cause = _ERROR_CAUSE.get(value)
    return InputError(f"cell {column_letter(col)}{row} holds {value}, the error of a formula that failed"
                      + (f" ({cause})" if cause else ""), path=shown, line=row, column=col,
                      key=f"{header} (column {column_letter(col)})" if header else None,
                      expected="the value the piece should have: mend the formula in the office program and save the file")


def _fill(rows: list[list[Any]], merges: list[tuple[int, int, int, int]]) -> None:
    """Merged ranges (top, left, bottom, right; 1-based, inclusive): every cell one covers holds
    its top-left cell's value, but in a row left blank (a category merged down past a blank row
    between its pieces gives that row no piece: a blank row is skipped)."""
    blank = {r for r, row in enumerate(rows, 1) if not any(_filled(x) for x in row)}
    for top, left, bottom, right in merges:
        value = rows[top - 1][left - 1] if top <= len(rows) and left <= len(rows[top - 1]) else None
        for r in range(top, min(bottom, MAX_ROWS) + 1):
            if r in blank or r > len(rows):
                continue
            row = rows[r - 1]
            row.extend([None] * (min(right, MAX_COLUMNS) - len(row)))
            for c in range(left, min(right, MAX_COLUMNS) + 1):
                row[c - 1] = value


def _ods_rows(path: Path, shown: Path, sheet: str | None) -> tuple[list[tuple[int, list[Any]]], set[int], str]:
    from odf.namespaces import TABLENS
    from odf.opendocument import load
    from odf.style import Style, TableProperties
    from odf.table import Table, TableRow

    doc = load(str(path))
    tables = doc.spreadsheet.getElementsByType(Table)
    if not tables:
        raise InputError("the spreadsheet has no worksheet", path=shown)
    hidden_styles = {style.getAttribute("name") for style in doc.automaticstyles.getElementsByType(Style)
                     if any(p.getAttribute("display") == "false" for p in style.getElementsByType(TableProperties))}
    hidden = frozenset(i for i, t in enumerate(tables) if t.getAttribute("stylename") in hidden_styles)
    table = tables[_pick([t.getAttribute("name") for t in tables], sheet, shown, hidden)]
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
            if cell.qname[1] == "table-cell" and not cell.getAttribute("valuetype") and cell.getAttribute("formula"):
                raise _unsaved_formula(shown, number + 1, col)
            spans = (_times(cell.attributes.get((TABLENS, "number-rows-spanned"))),
                     _times(cell.attributes.get((TABLENS, "number-columns-spanned"))))
            if spans != (1, 1) and _filled(value):
                merges.append((number + 1, col, number + spans[0], col + spans[1] - 1))
            if not _filled(value):
                pending += n
                continue
            if len(cells) + pending + n > MAX_COLUMNS:
                raise _too_large(shown, "columns", MAX_COLUMNS)
            cells.extend([None] * pending + [value] * n)
            pending = 0
        if cells:
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
