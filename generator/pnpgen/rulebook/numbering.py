"""How the draft numbers its steps, sections and rule cases, read as the book prints them: steps
that do not run 1, 2, 3…, sections numbered alike or some numbered and some not, a case number
set twice — for the proofing report (rulebook/proofnumbering.py) and the build's warnings
(rulebook/book.py)."""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.rulebook.tree import Bullet, Component, Document, Section, Step, Subheading, own_section_number, walk
from pnpgen.rulebook.xrefs import CASE_NUMBER, case_number, defined_case, references_in


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
    own = [(s, own_section_number(s.title)) for s in doc.rules if not unnumbered_summary(doc, s)]
    by_number: dict[str, list[Section]] = {}
    for s, number in own:
        if number is not None:
            by_number.setdefault(number, []).append(s)
    twice = [(number, sections) for number, sections in by_number.items() if len(sections) > 1]
    plain = [s for s, number in own if number is None] if by_number else []
    return twice, plain


def unnumbered_summary(doc: Document, s: Section) -> bool:
    """The draft's own 早見表 (■　早見表) in a draft that numbers its sections itself (■　１．０　序論): it
    prints with no number, as the book's own 早見表 page does, and is no section the numbering
    rule asks a number of (the book's count printed it 「8 早見表」 after 「7.0 勝利条件」)."""
    return s.is_quick_reference and own_section_number(s.title) is None \
        and any(own_section_number(other.title) is not None for other in doc.rules)


def printed_step_cases(doc: Document) -> list[tuple[str, Step]]:
    """The case each numbered step of a section with its own number is printed as (「■　５．０　移動」's
    １： is 5.1), with the step; a one-sentence step prints no number."""
    return [(f"{own}.{child.number}", child) for s in doc.rules if (own := own_section_number(s.title)) is not None
            for child in s.children if isinstance(child, Step) and not child.sentence]


def book_numbers(doc: Document) -> list[str]:
    """The numbers the book itself gives the rules (a draft's sections it leaves unnumbered, the
    n-th 「■　ゲームの進行」 set as n, and their steps n.1, n.2; a one-sentence step prints none):
    what a reference 「（→４．１）」 of a draft that numbers nothing goes to."""
    out = []
    for n, s in enumerate(doc.rules, start=1):
        if own_section_number(s.title) is None and not unnumbered_summary(doc, s):
            out.append(str(n))
            out += [f"{n}.{c.number}" for c in s.children if isinstance(c, Step) and not c.sentence]
    return out


def numbered_titles(doc: Document) -> dict[str, str]:
    """Each number the book prints a section or step with (``book_numbers``, ``printed_step_cases``) → its title."""
    out = {case: c.title for case, c in printed_step_cases(doc)}
    for n, s in enumerate(doc.rules, start=1):
        if own_section_number(s.title) is None and not unnumbered_summary(doc, s):
            out[str(n)] = s.title
            out |= {f"{n}.{c.number}": c.title for c in s.children if isinstance(c, Step) and not c.sentence}
    return out


def renumbered(number: str, titles: dict[str, str]) -> tuple[str, str] | None:
    """The number, and its title, a reference to ``number`` set nowhere likely meant before a section was
    added above it (3.2 is now 4.2) or taken out (now 2.2): the same step of the next section, else of
    the one before; None when neither is set. The proofing report asks, naming the title: the draft
    alone cannot tell a section added from a step deleted."""
    first, _, rest = number.partition(".")
    if not first.isdigit():
        return None
    for moved in (int(first) + 1, int(first) - 1):
        candidate = f"{moved}.{rest}" if rest else str(moved)
        if moved > 0 and candidate in titles:
            return candidate, titles[candidate]
    return None


def refers(doc: Document) -> bool:
    """Whether the draft's rules hold a cross reference (「（→４．１）」, "see 6.3") anywhere: the book then
    marks the places its own numbers are set, for the references to link to."""
    for b in doc.blocks():
        texts = [getattr(b, "text", ""), getattr(b, "body", ""), *getattr(b, "lines", [])]
        if any(isinstance(t, str) and references_in(t) for t in texts):
            return True
    return any(references_in(c.title) for s in doc.rules for c in s.children if isinstance(c, Step))


@dataclass(frozen=True)
class Case:
    """A rule case the book sets with its number: the number in one spelling (5.2.1), the draft's
    text (without the number) and line, and the section it stands in."""

    number: str
    text: str
    line: int
    section: Section


def twice_numbered_cases(doc: Document) -> list[tuple[Case, Case]]:
    """Each rule case whose number an earlier case of the rules already has (two 「３．２．１」),
    paired with the first: the book prints the number twice and a reference to it (→３．２．１参照)
    links to the first only. Read from the list items numbered as cases (「３．２．１　…」), the
    sub-headings that open with a case number ("5.1 Movement") and the steps a numbered section
    prints as cases (１： under 「■　５．０」, 5.1); a step number repeated (１：, １：) is the
    steps' own finding (``misnumbered_steps``), a section's number (５．０) the sections' — and so
    are the cases the steps of a section numbered as an earlier one print as (its １： is 5.1 twice
    because ５．０ is: one fault, said once, at the section)."""
    again = {id(c) for _, sections in section_numbering(doc)[0] for s in sections[1:] for c in s.children}
    steps = {id(step): number for number, step in printed_step_cases(doc) if id(step) not in again}
    first: dict[str, Case] = {}
    out: list[tuple[Case, Case]] = []
    for s in doc.rules:
        in_section: set[str] = set()
        for child in s.children:
            found: list[Case] = []
            if isinstance(child, Step):
                number = steps.get(id(child))
                if number is not None and number not in in_section:  # (１： twice: the steps' finding)
                    in_section.add(number)
                    found.append(Case(number, child.title, child.line, s))
            for b in walk(child.children if isinstance(child, (Step, Component)) else [child]):
                if isinstance(b, Bullet) and CASE_NUMBER.fullmatch(b.mark):
                    found.append(Case(case_number(b.mark), b.text, b.line, s))
                elif isinstance(b, Subheading) and (number := defined_case(b.text)) is not None:
                    found.append(Case(number, b.text.split(maxsplit=1)[-1], b.line, s))  # (the title after its number)
            for case in found:
                if case.number in first:
                    out.append((first[case.number], case))
                else:
                    first[case.number] = case
    return out
