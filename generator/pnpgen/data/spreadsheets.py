"""Decks kept in spreadsheets: ``pieces: {file: cards.csv}`` (also .xlsx and .ods).

One row per piece under a header row naming the fields; a ``count`` column; an empty cell takes
the deck's default. The rows become the same piece mappings a YAML deck holds, so the loader
checks them with the very same field checks; :class:`SheetDoc` answers its ``where``/``error``
questions with ``cards.csv:row:column`` and the column's header instead of a YAML position.

The reverse, a loaded deck's pieces as CSV or XLSX, is data/sheetexport.py.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.data.sheetcolumns import Columns, columns_line, columns_of, flow_name
from pnpgen.data.workbooks import FormulaBlank, Workbooks, column_letter, filled, read_rows, unseen
from pnpgen.data.yamlsrc import Located, load_value
from pnpgen.errors import InputError, Where, contained, not_a_file, suggest, windows_path_name, written_alike
from pnpgen.patterns import later
from pnpgen.safetext import REPLACEMENT, clipped, control_char, name_invisible_char

SUFFIXES = (".csv", ".xlsx", ".ods")
OLD_EXCEL = {".xls": "an Excel 97-2003 workbook (.xls)", ".xlsb": "an Excel binary workbook (.xlsb)"}  # told to save as .xlsx
# Cells of these field types are taken as written; any other cell is read as a YAML value, so
# `3`, `2.5`, `true`, `[a, b]` and `{k: v}` mean what they mean in a YAML deck.
VERBATIM = ("text", "colour", "image")
# Text an office program saved in a legacy encoding lost its Japanese: each character became "?"
# (LibreOffice's and Excel's CSV without UTF-8) or U+FFFD (a decoder's replacement).
_QUESTION_RUN = later(r"\?{2,}")
# one "?" between Japanese characters (動物を?で): a mark the CSV's encoding cannot hold (♥, ♡, an emoji),
# which Japanese Excel's "CSV" (CP932) saves as "?"; Japanese text writes its question mark ？
_LONE_QUESTION = later(r"(?<=[\u3040-\u30ff\u3400-\u9fff])\?(?=[\u3040-\u30ff\u3400-\u9fff])")
# What a formula that failed leaves as its saved value: Excel's error values (kept as such in an
# .xlsx, as text in its CSV) and LibreOffice's (#REF!, or Err:502 for the errors Excel has no name for).
_FORMULA_ERROR = later(r"#(?:REF!|DIV/0!|VALUE!|N/A|NAME\?|NUM!|NULL!|SPILL!|CALC!|FIELD!|BLOCKED!|"
                            r"CONNECT!|BUSY!|UNKNOWN!|GETTING_DATA)|Err:\d{3}")
# what a spreadsheet shows for a number or date its column is too narrow to show, and Excel saves so in a
# CSV (read as YAML, "#" starts a comment: the cell was told empty)
_NARROW = later(r"#+")
# why each of Excel's commonest errors comes about, for the message
_ERROR_CAUSE = {"#REF!": "a reference to a cell, row or sheet that was deleted",
                "#DIV/0!": "a division by zero or by an empty cell", "#VALUE!": "text where a number is wanted",
                "#NAME?": "a misspelt function or name", "#N/A": "a lookup that found nothing"}


@functools.cache
def _cjk() -> re.Pattern[str]:
    """Japanese or Chinese text (compiled when a spreadsheet is read: 2 ms at every start otherwise)."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff9f]")


@dataclass
class OtherColumn:
    """A translation's column on a worksheet of its own (data/translationsheets.py): where each
    piece's cell of it is, for the messages about it."""

    sheet: str
    header_row: int
    column: int
    label: str  # its header as the worksheet writes it
    rows: dict[int, int]  # piece index → the worksheet's row translating it


@dataclass
class SheetDoc:
    """A spreadsheet of pieces, with the spreadsheet's row and column of every value."""

    path: Path
    headers: list[str]
    rows: list[int] = field(default_factory=list)  # the sheet row of each piece
    header_row: int = 1
    hidden: list[int] = field(default_factory=list)  # the rows of pieces hidden in the office program
    # a CSV's cells holding one "?" between Japanese characters, (row, column letter, the text round it)
    lone_questions: list[tuple[int, str, str]] = field(default_factory=list)
    # the count cells (row, column letter) whose formula gave the empty text: 1 copy printed, as for an empty count
    blank_counts: list[tuple[int, str]] = field(default_factory=list)
    sheet: str | None = None  # the worksheet the deck names (one workbook may hold every deck)
    worksheet: str | None = None  # the worksheet read (named, or the first shown); None: a CSV
    # the column a translated field's value was read from, by piece and field (``text.en`` in an
    # English edition, data/i18n.py resolve_rows): its mistakes are told at that cell
    read_from: dict[tuple[int, str], str] = field(default_factory=dict)
    # a column the deck's ``columns:`` maps, or one naming its field in other letters' case (``Cost``):
    # its field (or title.en) → the header the sheet writes, as every message about its cells names it
    # (``枚数 (column C)``), export-sheet heads it and a Tabletop Simulator card's Description labels it
    labels: dict[str, str] = field(default_factory=dict)
    spec: dict = field(default_factory=dict)  # the deck's pieces: {file: …, sheet: …, columns: …}
    mapped: dict[str, str] = field(default_factory=dict)  # its columns: (header → field)
    pieces_at: Where | None = None  # the deck file's pieces: line (a deck list's list:)
    columns: Columns = field(default_factory=Columns)  # the deck's columns:, where its mistakes are told
    # a <field>.<lang> read from a translation worksheet of its own (pieces: {translations: …}) → where it is
    elsewhere: dict[str, OtherColumn] = field(default_factory=dict)
    source: Path | None = None  # the file read (path names it as the designer does)

    def mapping_error(self, target: str, message: str, expected: str) -> InputError | None:
        """An error at the deck file's ``columns:`` line that maps a header to ``target`` (``名:
        title.fr``): the slip is there, not in the sheet's header cell; None where none does."""
        header = next((h for h, f in self.columns.fields.items() if f == target), None)
        return self.columns.at(header, message, expected) if header is not None else None

    def columns_where(self) -> Where | None:
        """The deck file's ``columns:`` line, None without one."""
        return self.columns.doc.where((self.columns.key, "columns"), key=True) if self.columns.doc is not None else None

    def label(self, header: str) -> str:
        """A column's header as the sheet writes it (its field's name where it is not mapped)."""
        return self.labels.get(header, header)

    def columns_said(self, said: Mapping[str, str]) -> str:
        """The deck file's ``pieces:`` line mapping the headers ``said`` (in a sheet's own words), to
        paste: the sheet keeps its headers (a hint beside the renames a header row is told)."""
        if not said or self.pieces_at is None:
            return ""
        return (f"; or keep the sheet's headers and write the deck file's {self.columns.key}: line ({self.pieces_at}) as "
                f"{columns_line(self.spec, self.mapped, said, self.columns.key)}")

    def _place(self, keypath: tuple, key: bool) -> tuple[int | None, int | None, str | None, str | None]:
        """(row, column, the column as a message names it, worksheet) of a key path's cell."""
        if len(keypath) < 2:
            return None, None, None, self.sheet
        row = self.header_row if key else self.rows[keypath[1]]
        if len(keypath) < 3:
            return row, None, None, self.sheet
        # a field read only from its <field>.<lang> columns (data/i18n.py) is named by the first
        column = self.read_from.get((keypath[1], keypath[2])) or next(
            (h for h in self.headers if h == keypath[2]), None) or next(
            (h for h in self.headers if h.rsplit(".", 1)[0] == keypath[2]), None)
        other = self.elsewhere.get(column) if column is not None else None
        if other is not None:  # on its translation worksheet: the piece's row there (none: the card sheet's row)
            there = other.header_row if key else other.rows.get(keypath[1])
            if there is None:
                return row, None, None, self.sheet
            return there, other.column, f"{clipped(other.label)} (column {column_letter(other.column)})", other.sheet
        if column is None:
            return row, None, None, self.sheet
        col = self.headers.index(column) + 1
        # (a note of 16,000 characters: cut)
        return row, col, f"{clipped(self.label(column))} (column {column_letter(col)})", self.sheet

    def where(self, keypath: tuple, key: bool = False) -> Where:
        row, col, _, sheet = self._place(tuple(keypath), key)
        return Where(self.path, row, col, sheet)

    def key_of(self, keypath: tuple) -> str | None:
        """How a message names a cell's field: ``text.en (column G)``, as a value error does."""
        _, _, header, sheet = self._place(tuple(keypath), False)
        return in_worksheet(header, sheet)

    def error(self, keypath: tuple, message: str, expected: str | None = None, key: bool = False) -> InputError:
        row, col, header, sheet = self._place(tuple(keypath), key)
        return InputError(message, path=self.path, line=row, column=col, key=in_worksheet(header, sheet),
                          expected=expected)


def in_worksheet(key: str | None, sheet: str | None) -> str | None:
    """A message's key with the worksheet it is on (``count (column E) in worksheet スペル``): the
    row and column alone do not say which of a workbook's sheets, each a deck's, to open."""
    if sheet is None:
        return key
    return f"{key} in worksheet {sheet}" if key else f"worksheet {sheet}"


SHEET_KEYS = ("file", "sheet", "columns", "translations")  # pieces: {file: cards.csv, sheet: name, columns: {カード名: title}}


def _elsewhere(game_root: Path, path: Path) -> Path | None:
    """A file of ``path``'s name in the game's folder or one of its own folders (no link followed
    out of it), relative to it: where ``export-sheet --out`` was told to put it."""
    folders = [game_root, *sorted(d for d in game_root.iterdir() if d.is_dir() and not d.is_symlink())]
    found = [d / path.name for d in folders if (d / path.name).is_file() and not (d / path.name).is_symlink()
             and d / path.name != path]
    return found[0].relative_to(game_root) if found else None


def read_pieces(doc: Located, deck_file: Path, game_root: Path, fields: dict[str, str],
                books: Workbooks | None = None, key: str = "pieces") -> tuple[SheetDoc, list[dict]]:
    """The deck's ``pieces: {file: …}`` → (where-answering sheet, one mapping per row); ``books``:
    the workbooks the game's other decks opened (one workbook, a worksheet per deck, is read once);
    ``key``: the deck file's key that names the sheet (a deck list's ``list:``, data/decklist.py,
    which checks its own keys)."""
    spec = doc.data[key]
    for name in spec:
        if name not in SHEET_KEYS or name == "translations" and key != "pieces":
            raise doc.error((key, name), "unknown key in pieces", "file: cards.csv (and sheet: name for .xlsx/.ods; "
                            "columns: {カード名: title, …} for headers in the sheet's own words)", key=True)
    columns = columns_of(doc, fields, key) if "columns" in spec else Columns(key=key)
    name = spec.get("file")
    if isinstance(name, str) and Path(name.strip()).suffix.lower() in OLD_EXCEL:  # cards.xls: Excel 97–2003's own format
        raise doc.error((key, "file"), f"{name!r} is {OLD_EXCEL[Path(name.strip()).suffix.lower()]}, which pnpgen does not read",
                        f"the workbook saved as .xlsx (Excel: File > Save As > Excel Workbook (*.xlsx); "
                        f"ファイル > 名前を付けて保存 > Excel ブック), then 'file: {Path(name.strip()).stem}.xlsx'")
    if not isinstance(name, str) or Path(name.strip()).suffix.lower() not in SUFFIXES:  # ('cards.csv ': told not found)
        raise doc.error((key, "file"), f"{name!r} is not a spreadsheet file name",
                        "a .csv, .xlsx or .ods file beside the deck file, e.g. 'file: cards.csv'")
    left = windows_path_name(name.strip())
    if left is not None:  # C:\Users\…\cards.csv: a sheet left on the designer's computer
        raise doc.error((key, "file"), f"spreadsheet '{name}' is a path on a Windows computer, not in the game",
                        f"the file copied beside the deck file, into {deck_file.parent}/, and named there: file: {left}")
    rel = deck_file.parent.resolve().relative_to(game_root.resolve()) / name
    path = contained(rel, game_root, f"{key}.file", doc.where((key, "file")))
    alike = None if path.is_file() else written_alike(rel.as_posix(), [game_root])
    if alike is not None:  # カード.csv in the deck, the file's name decomposed as macOS writes names
        path = contained(alike, game_root, f"{key}.file", doc.where((key, "file")))
    if not path.is_file():
        what = not_a_file(deck_file.parent / name)
        if what is not None:  # (not "not found; did you mean cards.xlsx?": the very name)
            raise doc.error((key, "file"), f"spreadsheet {name!r} is {what}, not a file",
                            f"a spreadsheet file {deck_file.parent / name}")
        slashed = name.replace("\\", "/")
        if slashed != name and ".." not in Path(slashed).parts and not Path(slashed).is_absolute() \
                and (deck_file.parent / slashed).is_file():  # sheets\cards.csv, as Windows writes a path
            raise doc.error((key, "file"), f"spreadsheet '{name}' not found: a backslash separates folders on "
                            "Windows only", f"file: {slashed}, with / between the folders (read on every system)")
        there = sorted(p.name for p in path.parent.iterdir()
                       if Path(p.name.strip()).suffix.lower() in SUFFIXES) if path.parent.is_dir() else []
        spaced = [n for n in there if n != name and n.strip() == name.strip()]  # a space at an end of either name
        if spaced:
            raise doc.error((key, "file"), f"spreadsheet {name!r} not found", f"{spaced[0]!r}, the name of the file "
                            "that is there" + ("" if spaced[0] == spaced[0].strip() else
                                               ": a name that begins or ends with a space; rename the file without it"))
        elsewhere = _elsewhere(game_root, path)
        if elsewhere is not None:  # export-sheet --out put it in the game's folder, say: where it is, how to name it
            moved = os.path.relpath(game_root / elsewhere, deck_file.parent).replace(os.sep, "/")
            raise doc.error((key, "file"), f"spreadsheet {name!r} is not beside the deck file, but "
                            f"{(game_root / elsewhere).as_posix()} is", f"the file moved to {path}, or file: {moved}")
        raise doc.error((key, "file"), f"spreadsheet {name!r} not found{suggest(name, there)}", f"a file {path}")
    shown = deck_file.parent / name
    sheet = spec.get("sheet")
    if sheet is not None and (not isinstance(sheet, str) or path.suffix.lower() == ".csv"):
        raise doc.error((key, "sheet"), "sheet names a worksheet of an .xlsx or .ods file",
                        "the worksheet's name as text (a CSV has only one)")
    hidden_char = name_invisible_char(sheet or "")  # two decks' worksheets that look one: as a deck file's name
    if hidden_char is not None and isinstance(sheet, str):
        raise doc.error((key, "sheet"), f"the worksheet's name holds {hidden_char}", unseen(sheet))
    try:
        rows, hidden, worksheet = read_rows(path, shown, sheet, books)
    except InputError as e:
        if e.key != "sheet" or e.line is not None:
            e.key = in_worksheet(e.key, sheet) if e.path == shown else e.key
            raise
        raise doc.error((key, "sheet"), f"{e.message} in {name}", e.expected) from None  # at the deck's sheet:
    try:
        sdoc, pieces = _pieces(rows, path, shown, sheet, fields, hidden, columns)
        sdoc.worksheet, sdoc.spec, sdoc.pieces_at, sdoc.source = worksheet, dict(spec), doc.where((key,)), path
        return sdoc, pieces
    except InputError as e:
        if e.path == shown and sheet is not None and "worksheet" not in (e.key or ""):
            e.key = in_worksheet(e.key, sheet)
        raise


def sheet_pieces(doc: Located, cards: SheetDoc, sheet: str, fields: dict[str, str], books: Workbooks | None,
                 columns: Columns | None) -> tuple[SheetDoc, list[dict]]:
    """Another worksheet of the workbook ``cards`` was read from (a translation sheet), its rows as
    pieces; a worksheet not there is told at ``doc``'s ``pieces.sheet``."""
    assert cards.source is not None
    try:
        rows, hidden, worksheet = read_rows(cards.source, cards.path, sheet, books)
    except InputError as e:
        if e.key != "sheet" or e.line is not None:
            raise
        raise doc.error(("pieces", "sheet"), f"{e.message} in {cards.path.name}", e.expected) from None
    try:
        sdoc, pieces = _pieces(rows, cards.source, cards.path, sheet, fields, hidden, columns)
    except InputError as e:
        if e.path == cards.path and "worksheet" not in (e.key or ""):
            e.key = in_worksheet(e.key, sheet)
        raise
    sdoc.worksheet, sdoc.source = worksheet, cards.source
    return sdoc, pieces


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
    "icons": ({"icon", "symbols", "アイコン", "シンボル", "マーク"}, "the row of icons"),
    "art": ({"画像", "イラスト", "絵", "picture", "illustration", "image", "artwork", "art file"}, "the card's picture"),
}
TITLE_ROWS = 5  # title rows (a merged heading, a note) looked past for the header row


def _names_a_field(cells: list[Any], fields: dict[str, str], columns: Columns | None = None) -> bool:
    """Whether a row is the header row: a cell names a field or a header the deck's ``columns:``
    maps, or two say fields in a sheet's own words (a Japanese list headed カード名, 効果, 枚数),
    which the header's check then tells the names of; one such word alone may be a piece's value
    (a card called 本文)."""
    if columns is not None and any(filled(v) and columns.mapped(v) for v in cells):
        return True
    names = [_field_named(str(v).strip(), fields) for v in cells if filled(v)]
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


# a translation column headed as a Japanese sheet often heads it, its language in brackets after the
# header it translates: カード名（英語）, 効果(English), Card name (EN) — by a code or the language's name
_BRACKETED_HEADER = later(r"(?P<base>.+?)\s*[(（\[［]\s*(?P<lang>[^()（）\[\]［］]+?)\s*[)）\]］]")
LANGUAGE_NAMES = {"英語": "en", "英文": "en", "english": "en", "日本語": "ja", "japanese": "ja", "中国語": "zh",
                  "chinese": "zh", "韓国語": "ko", "korean": "ko", "フランス語": "fr", "french": "fr",
                  "ドイツ語": "de", "german": "de", "スペイン語": "es", "spanish": "es", "イタリア語": "it",
                  "italian": "it"}


def said_translated(header: str, fields: Mapping[str, Any] | list[str],
                    headers: Iterable[Any] = ()) -> tuple[str, str] | None:
    """The field and language of a translation column headed in a sheet's own words (カード名.en is
    title in en, and so is カード名（英語）), as said_for tells the column it translates."""
    m = _TRANSLATED_HEADER.fullmatch(header.strip())
    if m:
        base, lang = m["base"], m["lang"].lower()
    else:
        b = _BRACKETED_HEADER.fullmatch(header.strip())
        word = b["lang"].strip().lower() if b else ""
        lang = LANGUAGE_NAMES.get(word) or (word if re.fullmatch(r"[a-z]{2}", word) else "")
        base = b["base"] if b and lang else ""
    field = said_for(base, fields, [str(h).rsplit(".", 1)[0] for h in headers]) if base else None
    return (field, lang) if field and field != "count" else None


def said_columns(allowed, given) -> dict[str, str]:
    """The header row's columns in a sheet's own words, each with the field it says (枚数: count)."""
    return {str(k): f for k in given if k not in allowed
            and (f := said_for(str(k), [a for a in allowed if a not in given], given)
                 or ".".join(said_translated(str(k), allowed, given) or ()) or None) is not None}


def more_renames(key: Any, allowed, given) -> str:
    """The header row's other columns in a sheet's own words, told in the same line, so a list
    headed カード名, コスト, 効果, 枚数 is renamed in one go, not one column per build."""
    others = [f"{k} → {f}" for k, f in said_columns(allowed, given).items() if k != key]
    return f"; rename the others too: {', '.join(others)}" if others else ""


def _pieces(rows: list[tuple[int, list[Any]]], path: Path, shown: Path, sheet: str | None,
            fields: dict[str, str], hidden: set[int] | frozenset[int] = frozenset(),
            columns: Columns | None = None) -> tuple[SheetDoc, list[dict]]:
    """The rows under the header row as piece mappings, each header the deck's ``columns:`` maps
    read as its field. Rows above the header that name no field (a title merged across the sheet,
    a note: what a Japanese Excel list often starts with) are passed over, up to TITLE_ROWS of them."""
    columns = columns or Columns()
    while rows and not any(filled(v) for v in rows[0][1]):
        rows.pop(0)
    if not rows:
        raise InputError("the spreadsheet is empty", path=shown,
                         expected="a header row naming the fields (and count), then one row per piece")
    if fields and not _names_a_field(rows[0][1], fields, columns):
        titled = next((i for i, (_, cells) in enumerate(rows[:TITLE_ROWS + 1]) if _names_a_field(cells, fields, columns)),
                      None)
        if titled is None and columns.fields:  # no header mapped nor field named: told at the first mapping, of the
            titled = max(range(min(len(rows), TITLE_ROWS + 1)),  # row most like a header (the fullest, the first)
                         key=lambda i: (sum(1 for v in rows[i][1] if filled(v)), -i))
        rows = rows[titled or 0:]
    header_row, header_cells = rows[0]
    headers = [(columns.mapped(v) or _field_named(str(v).strip(), fields)) if filled(v) else "" for v in header_cells]
    # the headers as the sheet writes them: those columns: maps, and one that names its field in other
    # letters' case (Cost for cost), as the designer reads it (a TTS card's Description, messages, export-sheet)
    labels = {h: str(v).strip() for h, v in zip(headers, header_cells)
              if filled(v) and (columns.mapped(v) or (h and str(v).strip() != h))}
    _mapped_found(columns, header_cells, headers, header_row, shown)
    separator = next((c for c in ";\t，、" if len(headers) == 1 and c in headers[0]), None)
    if separator is not None and path.suffix.lower() == ".csv":  # a field name never holds one
        said = {"\t": "tabs", ";": "semicolons"}.get(separator, f"full-width '{separator}' (typed in 全角)")
        raise InputError(f"the CSV's values are separated by {said}, not commas", path=shown, line=header_row,
                         expected=f"half-width commas between the values, as in {headers[0].replace(separator, ',')!r}"
                         if separator in "，、" else "a CSV saved with commas between the values (LibreOffice: "
                         "field delimiter ','; Excel: CSV UTF-8 (comma delimited))")
    sdoc = SheetDoc(shown, headers, header_row=header_row, sheet=sheet, labels=labels, mapped=dict(columns.fields),
                    columns=columns)
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
                             key=sdoc.label(name_), expected="each field in one column, headed in a cell of its own")
    shown_headers = [sdoc.label(h) for h in headers]  # a cell's mistake named by the sheet's header (枚数 (column C))
    _check_encoding(rows[1:], shown_headers, shown, path.suffix.lower() == ".csv")
    pieces = []
    for row, cells in rows[1:]:
        raw = {}
        blank_count = None  # the count cell whose formula gave nothing: a row of a piece, told (deckfile)
        for col, value in enumerate(cells, 1):
            if not filled(value):
                if isinstance(value, FormulaBlank) and col <= len(headers) and headers[col - 1] == "count":
                    blank_count = (row, column_letter(col))
                continue
            header = headers[col - 1] if col <= len(headers) else ""
            if isinstance(value, str) and _FORMULA_ERROR.fullmatch(value.strip()):
                raise _formula_error(shown, row, col, sdoc.label(header), value.strip())
            if isinstance(value, str) and _NARROW.fullmatch(value.strip()) and \
                    fields.get(header, fields.get(header.rsplit(".", 1)[0])) not in VERBATIM:
                raise _narrow_column(shown, row, col, sdoc.label(header), value.strip())
            if isinstance(value, str):
                value = value.replace("\r\n", "\n")
                bad = control_char(value)
                if bad is not None:
                    raise InputError(f"{bad} in the text", path=shown, line=row, column=col,
                                     key=sdoc.label(header) or None, expected="printable text; control characters removed")
            if not header and col > len(headers) and path.suffix.lower() == ".csv":
                raise _comma_split(shown, row, cells, len(headers), header_row)
            if not header:
                raise InputError(f"a value ({_as_shown(value)!r}) in a column without a header", path=shown, line=row,
                                 column=col, expected=f"a field name in row {header_row} of column {column_letter(col)}")
            raw[header] = _cell(value, fields.get(header, fields.get(header.rsplit(".", 1)[0])))  # name.en: as name
        if raw:
            sdoc.rows.append(row)
            pieces.append(raw)
            sdoc.blank_counts += [blank_count] if blank_count else []
    if not pieces:
        raise InputError("no pieces below the header row", path=shown, line=header_row,
                         expected="one row per piece under the header")
    sdoc.hidden = [r for r in sdoc.rows if r in hidden]
    if path.suffix.lower() == ".csv":
        sdoc.lone_questions = _lone_questions(rows[1:])
    return sdoc, pieces


def _lone_questions(rows: list[tuple[int, list[Any]]]) -> list[tuple[int, str, str]]:
    """Each cell holding a "?" between Japanese characters: a ♥ or ♡ that Excel's CP932 CSV lost
    (a single one, which no run of "??" shows), to be warned of, as it may be meant."""
    out = []
    for row, cells in rows:
        for col, value in enumerate(cells):
            m = _LONE_QUESTION.search(value) if isinstance(value, str) else None
            if m:
                out.append((row, column_letter(col + 1), value[max(m.start() - 4, 0):m.end() + 4]))
    return out


def _mapped_found(columns: Columns, cells: list[Any], headers: list[str], header_row: int, shown: Path) -> None:
    """Each header the deck's ``columns:`` maps is in the header row, and no field is read from two
    columns (one mapped to it, one headed with its name): else told at the mapping's line of the
    deck file, with the headers the sheet has and the one nearest."""
    found = [str(v).strip() for v in cells if filled(v)]
    for header, target in columns.fields.items():
        if not any(columns.mapped(v) == target for v in cells if filled(v)):
            near = suggest(header, found, cutoff=0.5)
            meant = near[len("; did you mean "):-1] if near else found[0] if found else header
            near = f"; did you mean {clipped(meant)}?" if near else ""
            listed = ", ".join(clipped(h, 24) for h in found[:12]) + (", …" if len(found) > 12 else "")
            if header in columns.read_as_numbers:  # (1.50: YAML read the number 1.5; 012: 12)
                raise columns.at(header, f"YAML reads this key as the number {header}, and no column of {shown.name} is "
                                 f"headed so (row {header_row}: {listed})", "the header in quotes as the sheet writes it: "
                                 f"\"{clipped(meant if near else header)}\": {target}")
            raise columns.at(header, f"no column headed {clipped(header)!r} in {shown.name}'s header row "
                             f"(row {header_row}: {listed}){near}",
                             f"the header as the sheet writes it: {flow_name(meant)}: {target}")
        direct = [i for i, (h, v) in enumerate(zip(headers, cells)) if h == target and filled(v) and not columns.mapped(v)]
        if direct:
            col = column_letter(direct[0] + 1)
            raise columns.at(header, f"{target} is read from column {col} of {shown.name} already, headed "
                             f"{clipped(str(cells[direct[0]]).strip())!r}, and {clipped(header)!r} is mapped to it too",
                             f"one column per field: the mapping left out, or column {col} renamed or removed")


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
            lost = REPLACEMENT in value
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


def _narrow_column(shown: Path, row: int, col: int, header: str, value: str) -> InputError:
    return InputError(f"cell {column_letter(col)}{row} holds {value}, what a spreadsheet shows when its column is "
                      "too narrow for the number or date in it, and the file was saved so",
                      path=shown, line=row, column=col, key=f"{header} (column {column_letter(col)})" if header else None,
                      expected="the column widened in the office program, so the cell shows its value, and the file "
                               "saved again")


def _formula_error(shown: Path, row: int, col: int, header: str, value: str) -> InputError:
    cause = _ERROR_CAUSE.get(value)
    return InputError(f"cell {column_letter(col)}{row} holds {value}, the error of a formula that failed"
                      + (f" ({cause})" if cause else ""), path=shown, line=row, column=col,
                      key=f"{header} (column {column_letter(col)})" if header else None,
                      expected="the value the piece should have: mend the formula in the office program and save the file")
