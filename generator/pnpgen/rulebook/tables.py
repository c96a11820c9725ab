"""Aligned tables and maps in a draft: rows whose columns, parted by two or more spaces, start at
the same place (「　人数　　手札」 over 「　３人　　５枚」, ``Terrain      Points`` over ``Forest       1 per
tile``), read alike in a Japanese draft (``parse``) and an English one (``latin``)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from pnpgen.data.markup import ICON_TOKEN

MAP_GLYPHS = set("□■◆◇○●△▲▽▼☆★") | {chr(c) for c in range(0x2460, 0x2474)}


def is_map_line(s: str) -> bool:
    body = s.strip(" 　")
    return bool(body) and all(ch in MAP_GLYPHS or ch in " 　" for ch in body) and any(
        ch in "□◆■◇" for ch in body
    )


# the widest row a diagram sets on an A5 page, in half-width cells (9.5 pt cells in 118 mm, its box's padding)
ROW_CELLS = 64


def cells(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WFA" else 1


def column_starts(s: str) -> set[int]:
    """The cells where a column starts after a gap of two or more spaces (the indent is no gap):
    where an aligned table's rows start their second and later columns."""
    starts, col, gap, seen = set(), 0, 0, False
    for ch in s:
        if ch in " 　":
            gap += 1
        else:
            if seen and gap >= 2:
                starts.add(col)
            seen, gap = True, 0
        col += cells(ch)
    return starts


def table_row(s: str, neighbour: str) -> bool:
    """``s`` is a row of the aligned table ``neighbour`` belongs to: a column starts where one of the
    neighbour's does, and the row fits the page (a row too long for the 24 characters of a layout
    line, 「【飛行】　　　【飛行】を持たないユニットにブロックされない」, was set as a paragraph between
    two halves of its table), or its last column leaves room to wrap its text in (``wrap_row``:
    trial43's 「カス…カス札１０枚（以降１枚ごとに＋１点）」 was printed under its table as text)."""
    body = ICON_TOKEN.sub("　", s.lstrip(" 　"))  # an icon prints in one full-width cell, whatever its name's length
    width = sum(cells(ch) for ch in body)
    fits = width <= ROW_CELLS or wrapping_column(s) is not None
    return fits and bool(column_starts(s) & column_starts(neighbour))


FIGURES = re.compile(r"[0-9０-９①-⑳]")


BARE_NUMBER = re.compile(r"[0-9０-９]+")
COLUMN_GAP = re.compile(r"[ 　]{2,}")


def bare_number_cell(row: str) -> bool:
    """A cell of ``row`` is a number alone (「１」, not 「５人」)."""
    return any(BARE_NUMBER.fullmatch(cell) for cell in COLUMN_GAP.split(row.strip(" 　")))


def counts_head(row: str) -> bool:
    """``row`` heads columns of counts: a cell of words (「役職」), the rest words or numbers that
    count something (「５人」), none a number alone."""
    cells = COLUMN_GAP.split(row.strip(" 　"))
    return any(not FIGURES.search(cell) for cell in cells) and not bare_number_cell(row)


def heads_a_table(rows: list[str]) -> bool:
    """The first of ``rows`` is a table's header: words without a number over two or more rows
    of numbers (「人数　　手札」 over 「３人　　５枚」) — or a word and numbers that count something, no
    cell a number alone, over rows that each hold a number alone (a player-count table,
    「役職　　５人　　６人」 over 「市民　　１　　２」) —, its columns lined up with the row under it,
    no blank line between them, and no row a map's. A header is set off by a rule under it, as
    an editor marks a table's head; a list of figures (「〜２枚：０」) has none."""
    if len(rows) < 3 or not rows[1].strip() or any(is_map_line(r) for r in rows):
        return False
    body = [r for r in rows[1:] if r.strip()]
    words = not FIGURES.search(rows[0]) and all(FIGURES.search(r) for r in body)
    counted = counts_head(rows[0]) and all(bare_number_cell(r) for r in body)
    return (words or counted) and bool(column_starts(rows[0])) and table_row(rows[0], rows[1])


def askew_rows(rows: list[str]) -> list[int]:
    """The rows (by index) of an aligned table whose columns start off the table's: a column where
    no other row has one, and one of the table's missing (a role renamed 記録係 → 書記 in the draft
    shifted its row two cells left, and the book printed it askew). The table's columns are those
    most of its rows start; a row with a cell left empty (fewer columns) or a note after the last
    (one more) is no such row."""
    body = [(k, r) for k, r in enumerate(rows) if r.strip()]
    if len(body) < 3 or any(is_map_line(r) for _, r in body):
        return []
    starts = {k: column_starts(r) for k, r in body}
    counts = Counter(c for st in starts.values() for c in st)
    table = {c for c, n in counts.items() if n * 2 > len(body)}
    if len(table) < 2:
        return []
    return [k for k, _ in body if starts[k] - table and table - starts[k]]


def one_space_row(s: str, table: list[str]) -> str | None:
    """``s``, a line of text beside the aligned table ``table``, is one of its rows but for the
    gap: its text goes on after one space (full-width, or half-width beside Japanese) at a cell
    where the table's rows start a column (「　アクション＋１　このターンに…」 under 「　用語　　　　　　意味」,
    its term one character longer than the others): the book sets it as a paragraph between the
    table's halves. Its first cell, else None."""
    starts = set().union(*(column_starts(r) for r in table if r.strip()))
    col, seen = 0, False
    for k, ch in enumerate(s):
        if seen and ch in " 　" and k + 1 < len(s) and s[k + 1] not in " 　" and s[k - 1] not in " 　" \
                and col + cells(ch) in starts and (ch == "　" or not s[k - 1].isascii() or not s[k + 1].isascii()):
            return s[:k].strip(" 　")
        seen = seen or ch not in " 　"
        col += cells(ch)
    return None


# the least a long row's last column keeps to wrap its text in, in half-width cells (8 full-width
# characters): a row whose last column starts further right is no table's row
WRAP_CELLS = 16


def wrapping_column(s: str, room: int = ROW_CELLS) -> int | None:
    """The half-width cell (of ``s`` as written) where a row wider than ``room`` cells wraps its
    text: its last column's start, when that leaves ``WRAP_CELLS`` or more; None for a row that
    fits, or one with no column to wrap in."""
    lead = len(s) - len(s.lstrip(" 　"))
    indent = sum(cells(ch) for ch in s[:lead])
    body = ICON_TOKEN.sub("　", s[lead:])
    if sum(cells(ch) for ch in body) <= room:
        return None
    starts = [c for c in column_starts(s) if c - indent <= room - WRAP_CELLS]
    return max(starts) if starts else None
