"""What every finder of the proofing report (rulebook/proof.py) shares: the ``Finding``, the draft's
numbered lines and those of its rules sections, and the draft lines a finding names (in proof.txt
and in the book)."""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.messages import msg
from pnpgen.rulebook.tree import Document, Preformatted, Section


@dataclass
class Finding:
    """One thing the proof reports about the draft (a spelling variant, a count that disagrees with the data, an
    open question), with where it is."""

    # proof.kind.*: 表記ゆれ | 数の不一致 | 要確認 | 個数 | 未定 | 誤記 | 文体 | 用語 | 内容物 | 図 | 見出し番号 | 参照
    # (Spelling | Numbers | Query | Count | Open | Typo | Style | Term | Components | Figure | Steps | Reference)
    kind: str
    book: str
    file: str
    subject: tuple[str, ...] = ()  # the words it quotes: an entry of rulebook.proof.ignore naming one drops it


def numbered_lines(text: str) -> list[tuple[int, str]]:
    return [(i, line) for i, line in enumerate(text.split("\n"), start=1)]


def one_apart(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def rules_lines(doc: Document, text: str) -> list[tuple[int, str]]:
    """The draft lines of the rules sections (not the designer's notes, brainstorm or change log)."""
    keep = [(s.line, section_end(doc.sections, s)) for s in doc.rules]
    return [(n, line) for n, line in numbered_lines(text) if any(a <= n < b for a, b in keep)]


def section_end(sections: list[Section], s: Section) -> int:
    later = [t.line for t in sections if t.line > s.line]
    return min(later) if later else 10 ** 9


def file_lines(lines: list[int], lang: str) -> str:
    """The draft lines of a finding (the first six), as the report's language says them: 「4, 6行」,
    "line 4", "lines 4, 6"."""
    shown = ", ".join(str(n) for n in sorted(set(lines))[:6]) + ("…" if len(set(lines)) > 6 else "")
    return msg("proof.lines_one" if len(set(lines)) == 1 else "proof.lines", lang, lines=shown)


def book_lines(lines: list[int], lang: str) -> str:
    """The first four draft lines, for the book (「12行、40行ほか」, "12, 40 and more")."""
    shown = msg("proof.sep", lang).join(msg("proof.at_line", lang, n=n) for n in sorted(set(lines))[:4])
    return shown + (msg("proof.more", lang) if len(set(lines)) > 4 else "")


def tables_under(node: object) -> list[Preformatted]:
    out: list[Preformatted] = []
    for c in getattr(node, "children", []):
        out += [c] if isinstance(c, Preformatted) else tables_under(c)
    return out
