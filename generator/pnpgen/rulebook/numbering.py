"""How the draft numbers its steps and sections, read as the book prints them: steps that do not
run 1, 2, 3… and sections numbered alike or some numbered and some not — for the proofing
report (rulebook/proof.py) and the build's warnings (rulebook/book.py)."""

from __future__ import annotations

from pnpgen.rulebook.tree import Document, Section, Step, own_section_number


def misnumbered_steps(doc: Document) -> list[tuple[Section, list[int], Step]]:
    """Each rules section whose numbered steps do not run 1, 2, 3…, with the numbers and the first
    step out of sequence (skipped, repeated, or a step read as a paragraph before it)."""
    out = []
    for s in doc.rules:
        steps = [c for c in s.children if isinstance(c, Step)]
        numbers = [c.number for c in steps]
        wrong = [c for k, c in enumerate(steps, start=1) if c.number != k]
        if wrong:
            out.append((s, numbers, wrong[0]))
    return out


def section_numbering(doc: Document) -> tuple[list[tuple[str, list[Section]]], list[Section]]:
    """The draft's own section numbers (「■　２．０　準備」) read as the book prints them: each number
    two sections or more carry ((number, the sections), the book printing both as 2), and, when
    some sections are numbered and some are not, the unnumbered ones (they keep the book's count,
    which need not be the number the numbered ones imply: number all or none)."""
    own = [(s, own_section_number(s.title)) for s in doc.rules]
    by_number: dict[str, list[Section]] = {}
    for s, number in own:
        if number is not None:
            by_number.setdefault(number, []).append(s)
    twice = [(number, sections) for number, sections in by_number.items() if len(sections) > 1]
    plain = [s for s, number in own if number is None] if by_number else []
    return twice, plain
