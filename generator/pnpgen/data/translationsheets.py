"""A deck's translations kept on a worksheet of their own, as a designer keeps an English sheet
beside the Japanese one: ``pieces: {file: market.xlsx, sheet: 市場, translations: {en: {sheet:
English, columns: {番号: number, Name: title, Effect: text}}}}``.

The translation sheet's first column names each row's piece by a field the card sheet holds too (a
card number); its other columns are that piece's texts in the language, folded into the rows as the
``<field>.<lang>`` cells a translation column beside the text gives (data/i18n.py reads them so). A
mistake in one of them is told at its own cell, in its own worksheet (``SheetDoc.elsewhere``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.data.sheetcolumns import columns_of
from pnpgen.data.spreadsheets import OtherColumn, SheetDoc, sheet_pieces
from pnpgen.data.workbooks import Workbooks, column_letter
from pnpgen.data.yamlsrc import Located, keyname
from pnpgen.errors import InputError
from pnpgen.safetext import clipped, written_in_cjk

EXAMPLE = "translations: {en: {sheet: English}}"


@dataclass
class _Under(Located):
    """The deck file seen from ``pieces.translations.<lang>`` as a ``pieces:`` of its own, so its
    ``sheet:`` and ``columns:`` are checked by the card sheet's code, each mistake told at its own
    line under its own name (``pieces.translations.en.columns.Name``)."""

    base: tuple = ()

    def error(self, keypath: tuple, message: str, expected: str | None = None, key: bool = False) -> InputError:
        said = super().error(keypath, message, expected, key)
        said.key = keyname(self.base + tuple(keypath[1:]), set())
        return said


def _under(doc: Located, lang: str, spec: dict) -> _Under:
    base = ("pieces", "translations", lang)

    def moved(marks: dict) -> dict:
        return {("pieces", *kp[3:]): m for kp, m in marks.items() if kp[:3] == base}

    return _Under(doc.path, {"pieces": spec}, moved(doc.value_marks),
                  moved(doc.key_marks), base=base)


def add_translations(doc: Located, sdoc: SheetDoc, pieces: list[dict], fields: dict[str, str],
                     languages: list[str], default: str, books: Workbooks | None) -> None:
    """Each ``translations:`` worksheet's texts put into ``pieces`` as ``<field>.<lang>`` cells,
    and their places into ``sdoc``. Told at the deck file's line: a language the game does not
    list, a worksheet not named; at the translation sheet's cell: a row naming no piece of the card
    sheet, or one named twice, a ``count`` column (a count is one number in every language)."""
    spec = doc.data["pieces"]["translations"]
    if not isinstance(spec, dict) or not spec:
        raise doc.error(("pieces", "translations"), "translations names each language's worksheet",
                        f"{EXAMPLE}, the worksheet of the English texts")
    if sdoc.worksheet is None:
        raise doc.error(("pieces", "translations"), "translations are worksheets of a workbook, and a CSV has one sheet",
                        "the translations in columns beside the texts (title.en beside title), or the cards kept "
                        "in an .xlsx or .ods workbook with a worksheet per language")
    for lang, tspec in spec.items():
        at = ("pieces", "translations", lang)
        if lang not in languages or lang == default:
            listed = ", ".join(languages)
            raise doc.error(at, f"{clipped(str(lang))!r} is not one of the game's languages besides {default} "
                            f"(languages: [{listed}])", f"a language game.yaml's languages: lists besides {default}, "
                            f"its texts translated there, e.g. {EXAMPLE} (languages: [{default}, en])", key=True)
        if isinstance(tspec, str):  # en: English, the worksheet alone (its headers the fields' names)
            tspec = {"sheet": tspec}
        if not isinstance(tspec, dict) or not isinstance(tspec.get("sheet"), str):
            raise doc.error(at, f"translations.{lang} names the worksheet of its texts", EXAMPLE)
        unknown = next((k for k in tspec if k not in ("sheet", "columns")), None)
        if unknown is not None:
            raise doc.error(at + (unknown,), f"unknown key in translations.{lang}",
                            "sheet: (the worksheet) and columns: (its headers in the sheet's own words)", key=True)
        sub = _under(doc, lang, tspec)
        columns = columns_of(sub, fields) if "columns" in tspec else None
        rows, found = sheet_pieces(sub, sdoc, tspec["sheet"], fields, books, columns)
        _fold(rows, found, lang, sdoc, pieces)


def _names_each(pieces: list[dict], field: str) -> bool:
    """Whether every piece has its own value of ``field``, written in no script a translation
    changes (a card number, ``M01``): what a translation sheet's first column can name it by."""
    values = [str(p.get(field, "")).strip() for p in pieces]
    return all(values) and len(set(values)) == len(values) and not any(written_in_cjk(v) for v in values)


def _fold(rows: SheetDoc, found: list[dict], lang: str, sdoc: SheetDoc, pieces: list[dict]) -> None:
    """The translation sheet's rows into the card sheet's pieces, each matched by its first column."""
    key = rows.headers[0]
    where = f"worksheet {rows.sheet}"
    if not key or key == "count" or key not in sdoc.headers:
        shown = ", ".join(sdoc.label(h) for h in sdoc.headers if h and h != "count")
        raise InputError(f"the first column ({rows.label(key) or 'empty'}) names no column of worksheet {sdoc.sheet or sdoc.worksheet}, so "
                         "its rows name no card", path=rows.path, line=rows.header_row, column=1, key=where,
                         expected=f"a first column holding what names each card in both sheets, one of {shown} "
                         "(a card number is best: it is never translated)")
    by_key: dict[str, int] = {}
    for i, piece in enumerate(pieces):
        value = str(piece.get(key, "")).strip()
        if not value:
            continue  # (a card not numbered yet: no row names it, not even one whose number is not typed either)
        if value in by_key:
            raise sdoc.error(("pieces", i, key), f"{value!r} is in rows {sdoc.rows[by_key[value]]} and {sdoc.rows[i]}, "
                             f"so the translations of worksheet {rows.sheet} cannot tell which it translates",
                             "each card named once in its first column's field (a card number)")
        by_key[value] = i
    if "count" in rows.headers:
        col = rows.headers.index("count") + 1
        raise InputError("a count in a translation worksheet: a count is one number in every language",
                         path=rows.path, line=rows.header_row, column=col, key=f"{rows.label('count')} (column "
                         f"{column_letter(col)}) in {where}", expected=f"the count kept in worksheet {sdoc.sheet or sdoc.worksheet} alone")
    placed: dict[str, OtherColumn] = {}
    for col, header in enumerate(rows.headers[1:], 2):
        if not header:
            continue
        name = f"{header}.{lang}"
        if name in sdoc.headers:
            raise InputError(f"{header} is translated into {lang} twice: here and in column {name} of worksheet "
                             f"{sdoc.sheet or sdoc.worksheet}", path=rows.path, line=rows.header_row, column=col,
                             key=f"{rows.label(header)} (column {column_letter(col)}) in {where}",
                             expected="each text's translation in one place")
        placed[name] = OtherColumn(rows.sheet or "", rows.header_row, col, rows.label(header), {})
        sdoc.headers.append(name)
        if rows.label(header) != header:  # (pnpgen diff names a changed text.en by its header there: Effect)
            sdoc.labels[name] = rows.label(header)
    if found and not any(str(row.get(key, "")).strip() in by_key for row in found):  # Name first: a translated text
        other = next((sdoc.label(h) for h in sdoc.headers if h and h != "count" and "." not in h
                      and _names_each(pieces, h)), None) or "number"
        raise InputError(f"no value of its first column, {rows.label(key)}, names a card of worksheet "
                         f"{sdoc.sheet or sdoc.worksheet}: the first column says which card each row translates, by "
                         "a value the same in both sheets", path=rows.path, line=rows.header_row, column=1,
                         key=f"{rows.label(key)} (column A) in {where}",
                         expected=f"a first column holding each card's {other}, as worksheet "
                         f"{sdoc.sheet or sdoc.worksheet} does (a card number is best: it is never translated)")
    done: dict[int, int] = {}
    for t, row in enumerate(found):
        value = str(row.get(key, "")).strip()
        if value not in by_key:
            raise rows.error(("pieces", t, key), f"{value!r} names no card of worksheet {sdoc.sheet or sdoc.worksheet}"
                             if value else "the row names no card", f"one of the {sdoc.label(key)} values of worksheet "
                             f"{sdoc.sheet or sdoc.worksheet}, the card this row translates")
        i = by_key[value]
        if i in done:
            raise rows.error(("pieces", t, key), f"{value!r} is translated twice, in rows {done[i]} and {rows.rows[t]}",
                             "one row per card")
        done[i] = rows.rows[t]
        for header, text in row.items():
            if header != key:
                pieces[i][f"{header}.{lang}"] = text
        for column in placed.values():
            column.rows[i] = rows.rows[t]
    sdoc.elsewhere.update(placed)

