"""A workbook shared by several decks, for the loading figures of docs/speed-rounds.md (sheets1): N distinct cards
in one ``cards.xlsx`` (or ``.ods``) of three worksheets, Units, Spells and Items, each the deck a
deck file's ``pieces: {file: cards.xlsx, sheet: …}`` names; a merged title row above each header,
a picture column naming small PNGs made here (no downloads).

    python bench/shared_workbook.py N DIR [xlsx|ods]   # writes a workspace into DIR (data/, fonts/)
    cd DIR && pnpgen check --game trial

``edit(root, row, fmt)`` changes one cell (the rule text of Units' card ``row``), as a designer's
save in the office program does.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SLUG = "trial"
SHEETS = ("Units", "Spells", "Items")
PICTURES = 12  # the picture column names one of these
HEADER = ("title", "cost", "text", "flavour", "art", "count")
GAME = "title: 共有ブック\ndraft: 1\nplayers: 2-4\ndate: 2026-12-01\n"
DECK = "name: {name}\nlayout: card-poker\npieces: {{file: cards.{fmt}, sheet: {sheet}}}\n"
KANA = "あかさたなはまやらわいきしちにひみりうくすつぬふむゆる"


def rows(sheet: int, n: int, edited: int | None = None) -> list[tuple]:
    """The pieces of worksheet ``sheet`` (of n cards over the three)."""
    out = []
    for i in range(sheet, n, len(SHEETS)):
        text = f"カードを{i % 3 + 1}枚引く。" + ("(改)" if sheet == 0 and i // len(SHEETS) + 1 == edited else "")
        out.append((f"{KANA[i % len(KANA)]}{KANA[(i // len(KANA)) % len(KANA)]}の{SHEETS[sheet]}{i}", i % 5 + 1,
                     text, "風が吹く。" if i % 4 == 0 else None, f"pic-{i % PICTURES:02d}.png", i % 3 + 1))
    return out


def write_book(path: Path, n: int, fmt: str, edited: int | None = None) -> None:
    """The workbook: per sheet a title merged over the columns in row 1, the header in row 2."""
    tables = [(name, rows(s, n, edited)) for s, name in enumerate(SHEETS)]
    if fmt == "xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        book.remove(book.active)
        for name, body in tables:
            ws = book.create_sheet(name)
            ws.append([f"{name} カード一覧"])
            ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=len(HEADER))
            ws.append(list(HEADER))
            for row in body:
                ws.append(list(row))
        book.save(path)
        return
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    for name, body in tables:
        table = Table(name=name)
        title = TableRow()
        cell = TableCell(valuetype="string", numbercolumnsspanned=len(HEADER))
        cell.addElement(P(text=f"{name} カード一覧"))
        title.addElement(cell)
        table.addElement(title)
        for values in [HEADER, *body]:
            tr = TableRow()
            for value in values:
                if value is None:
                    tr.addElement(TableCell())
                elif isinstance(value, int):
                    c = TableCell(valuetype="float", value=value)
                    c.addElement(P(text=str(value)))
                    tr.addElement(c)
                else:
                    c = TableCell(valuetype="string")
                    c.addElement(P(text=value))
                    tr.addElement(c)
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))


def workspace(n: int, root: Path, fmt: str = "xlsx") -> None:
    from PIL import Image

    game = root / "data" / SLUG
    (game / "decks").mkdir(parents=True, exist_ok=True)
    (game / "art").mkdir(exist_ok=True)
    (root / "templates").mkdir(exist_ok=True)
    if not (root / "fonts").exists():
        (root / "fonts").symlink_to(REPO / "fonts")
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    for name in SHEETS:
        (game / "decks" / f"{name.lower()}.yaml").write_text(DECK.format(name=name, fmt=fmt, sheet=name), encoding="utf-8")
    for i in range(PICTURES):
        Image.new("RGB", (700, 980), (40 + 17 * i, 90, 200 - 11 * i)).save(game / "art" / f"pic-{i:02d}.png")
    write_book(game / "decks" / f"cards.{fmt}", n, fmt)


def edit(root: Path, n: int, edited: int | None, fmt: str = "xlsx") -> None:
    write_book(root / "data" / SLUG / "decks" / f"cards.{fmt}", n, fmt, edited)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: python bench/shared_workbook.py N DIR [xlsx|ods]")
    workspace(int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] if len(sys.argv) == 4 else "xlsx")
