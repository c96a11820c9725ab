"""The proofing report's layout queries: a figure referred to where none stands, a table's row
that does not line up, a row set as a paragraph for one space, a run JLREQ allows no break in
longer than a line of the book."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from functools import lru_cache
from pathlib import Path

from reportlab.lib.pagesizes import A5

from pnpgen.messages import msg
from pnpgen.rulebook.figures import anchor
from pnpgen.rulebook.proofbase import Finding, numbered_lines, section_end, tables_under
from pnpgen.rulebook.styles import BODY_SIZE, MARGIN_INNER, MARGIN_OUTER
from pnpgen.rulebook.tables import COLUMN_GAP, askew_rows, one_space_row
from pnpgen.rulebook.tree import Document, Preformatted
from pnpgen.text import linebreak as lb

# 「図１を参照」「下図のように」「図のとおり」: the text points at a figure; not the 図 of a word that
# names no figure (地図 a map, 合図, 意図, 海図, 構図…), nor a count of them (「地図４枚」, 「図２枚」)
_FIGURE_REF = re.compile(r"(?<![地合意海構企指略版])(?:図[０-９0-9]+(?![０-９0-9]*[個枚回人点番本部])"
                         r"|[上下次左右]図|図の(?:よう|通り|とおり))")


LINE_EMS = (A5[0] - MARGIN_INNER - MARGIN_OUTER) / BODY_SIZE - 2
RUN_SHOWN = 12  # characters of a long run quoted in its note


def _ems(ch: str) -> float:
    return 1.0 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 0.5


def unbreakable_runs(text: str, draft_path: Path | str, lang: str, draft_lang: str = "ja") -> list[Finding]:
    """Each draft line holding a run JLREQ allows no break in (a long ……, ーーーー, 。。。) longer
    than a line of the book: the book breaks it at the line's edge, against the rule, rather than
    run it off the page (text/linebreak.py), and the note asks for a shorter one."""
    out = []
    for n, line in numbered_lines(text):
        if len(line) <= LINE_EMS:
            continue  # (too short to hold one: most lines are not looked at)
        run = _unbreakable(line, draft_lang)
        if run is not None:
            shown = run if len(run) <= RUN_SHOWN else run[:RUN_SHOWN] + "…"
            said = dict(run=shown, n=len(run), line=n, path=draft_path)
            out.append(Finding(msg("proof.kind.query", lang), msg("proof.unbreakable.book", lang, **said),
                               msg("proof.unbreakable.file", lang, **said)))
    return out


@lru_cache(maxsize=4096)
def _unbreakable(line: str, draft_lang: str) -> str | None:
    """The first run of ``line`` JLREQ allows no break in that is longer than a line of the book,
    or None. Kept by the line's text: the warm rulebook process (``watch``, ``serve``) proofs the
    draft again at every save, its lines mostly unchanged (their classes: 16 ms of populous's)."""
    classes = lb.break_classes(list(line), phrases=False, lang=draft_lang, hyphenate=False)
    start = 0
    for i in range(1, len(line) + 1):
        if i < len(line) and classes[i] == lb.KINSOKU:
            continue
        run = line[start:i]
        if sum(_ems(c) for c in run) > LINE_EMS:
            return run
        start = i
    return None


def _titles_and_diagrams(node: object) -> tuple[set[str], bool]:
    """The headings under a section (steps, sub-headings) and whether a diagram stands among them."""
    titles: set[str] = set()
    diagram = False
    for c in getattr(node, "children", []):
        diagram = diagram or isinstance(c, Preformatted)
        own = getattr(c, "title", None) or (getattr(c, "text", None) if hasattr(c, "level") else None)
        if own:
            titles.add(own)
        t, d = _titles_and_diagrams(c)
        titles |= t
        diagram = diagram or d
    return titles, diagram


def figure_references(doc: Document, text: str, draft_path: Path | str, lang: str,
                      figures: Collection[str] = ()) -> list[Finding]:
    """「図１を参照」「下図のように」 in a rules section that has no figure: neither a diagram of
    the draft nor a figure of game.yaml placed after its title or one of its headings."""
    out = []
    for s in doc.rules:
        titles, diagram = _titles_and_diagrams(s)
        if diagram or {anchor(t) for t in titles | {s.title}} & {anchor(f) for f in figures}:
            continue
        for n, line in numbered_lines(text):
            if not s.line <= n < section_end(doc.sections, s):
                continue
            for m in _FIGURE_REF.finditer(line):
                said = dict(ref=m.group(0), section=s.title, line=n, path=draft_path)
                out.append(Finding(msg("proof.kind.figure", lang), msg("proof.figure.book", lang, **said),
                                   msg("proof.figure.file", lang, **said), (m.group(0),)))
    return out


def askew_tables(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """A table's row whose columns do not line up with the others': the book sets the rows as
    written, so it prints askew."""
    out = []
    for s in doc.rules:
        for table in tables_under(s):
            for k in askew_rows(table.lines):
                row = COLUMN_GAP.split(table.lines[k].strip(" 　"))[0]
                said = dict(row=row, line=table.line + k, path=draft_path)
                out.append(Finding(msg("proof.kind.table", lang), msg("proof.table.book", lang, **said),
                                   msg("proof.table.file", lang, **said), (row,)))
    return out


def one_space_rows(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A line beside a table that is its row but for one space before a column (set as a paragraph)."""
    lines, out, seen = text.split("\n"), [], set()
    for s in doc.rules:
        for table in tables_under(s):
            for n in (table.line - 1, table.line + len(table.lines)):
                row = one_space_row(lines[n - 1], table.lines) if 0 < n <= len(lines) and n not in seen else None
                if row:
                    seen.add(n)
                    said = dict(row=row, line=n, path=draft_path)
                    out.append(Finding(msg("proof.kind.table", lang), msg("proof.tablegap.book", lang, **said),
                                       msg("proof.tablegap.file", lang, **said), (row,)))
    return out
