"""A deck's YAML text cut into its pieces, so that an edit of one card reads that card's text
again, not the whole deck's (data/yamlsrc.py keeps each piece read, by its text).

The cut is made only where it is sure to read as the whole file reads: a top-level ``pieces:``
line (nothing after the colon) followed by a block list whose items start at one indentation,
each item's lines (and the blank and comment lines after it) one piece; the list ends at a line
written at the first column. Anything else — tabs, a byte-order mark or another line break than
``\\n`` / ``\\r\\n`` in the text, a document marker (``---``, ``...``) or directive (``%``), a line
indented less than the items but not at the first column, no such ``pieces:`` or two — and
there is no cut: the file is read whole. What the cut cannot see from the lines (an item's
multi-line quoted text or flow list running on into the next item, anchors and aliases across
pieces) the reading of each piece finds: a piece read alone that does not end where it should, or
that anchors or aliases anything, means the whole file is read (yamlsrc.py)."""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.patterns import later

KEY = "pieces"
# what the cut does not take on: tabs, a byte-order mark, line breaks YAML 1.1 knows besides \n
# (a lone \r is told apart from \r\n below), characters Python's splitlines breaks at and YAML not
UNSURE = later("[\t\ufeff\x85\u2028\u2029\x0b\x0c\x1c\x1d\x1e]")
HEAD = f"{KEY}:"


@dataclass(frozen=True)
class Cut:
    """The file's text as its head (every line but the items', those replaced by empty lines, so
    every line keeps its number) and its items, each with the index of its first line."""

    head: str
    items: tuple[tuple[int, str], ...]
    line: int  # the index of the ``pieces:`` line
    indent: int  # the items' column of their '-'


def cut(text: str) -> Cut | None:
    """The text cut into its head and its pieces' items, or None when unsure (read it whole)."""
    if UNSURE.search(text) is not None or text.count("\r") != text.count("\r\n"):
        return None
    lines = text.splitlines(keepends=True)
    head_at = None
    for i, line in enumerate(lines):
        if line.startswith(("---", "...", "%")):
            return None
        if line.startswith(HEAD) and line[len(HEAD):].strip(" \r\n") == "":
            if head_at is not None:
                return None
            head_at = i
    if head_at is None:
        return None
    items: list[tuple[int, int]] = []  # each item's first line and the line after its last
    indent = None
    end = len(lines)
    for i in range(head_at + 1, len(lines)):
        line = lines[i]
        body = line.lstrip(" ")
        if body.strip("\r\n") == "" or body.startswith("#"):
            continue  # blank or a comment: with the item before it (or the head, before the first)
        column = len(line) - len(body)
        starts = body.startswith("- ") or body.rstrip("\r\n") == "-"
        if indent is None:
            if not starts:
                return None  # (pieces: a mapping, a flow list, a value on its own line)
            indent = column
        if starts and column == indent:
            if items:
                items[-1] = (items[-1][0], i)
            items.append((i, len(lines)))
        elif column > indent:
            continue
        elif column == 0:
            end = i
            break
        else:
            return None
    if not items:
        return None
    first = items[0][0]
    items[-1] = (items[-1][0], end)
    pieces = tuple((start, "".join(lines[start:stop])) for start, stop in items)
    head = "".join(lines[:first]) + "\n" * (end - first) + "".join(lines[end:])
    return Cut(head, pieces, head_at, indent if indent is not None else 0)
