"""The proofing report's numbering: steps numbered 1, 1, 2, two sections numbered alike, a case
number set twice, a cross reference to a case the draft numbers nowhere."""

from __future__ import annotations

from pathlib import Path

from pnpgen.messages import msg
from pnpgen.rulebook.grammar import without_column_gaps
from pnpgen.rulebook.numbering import (
    book_numbers,
    misnumbered_steps,
    numbered_titles,
    printed_step_cases,
    renumbered,
    section_numbering,
    twice_numbered_cases,
)
from pnpgen.rulebook.proofbase import Finding, rules_lines
from pnpgen.rulebook.tree import Document
from pnpgen.rulebook.xrefs import dangling_references


def step_numbers(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """Steps numbered 1, 1, 2 (a heading number repeated or skipped): the book prints them so."""
    out = []
    for s, numbers, step in misnumbered_steps(doc):
        said = dict(section=s.title, step=step.title, numbers=", ".join(map(str, numbers)), count=len(numbers),
                    line=step.line, path=draft_path)
        out.append(Finding(msg("proof.kind.steps", lang), msg("proof.steps.book", lang, **said),
                           msg("proof.steps.file", lang, **said), (step.title,)))
    return out


def section_numbers(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """Two sections the draft numbers alike (「■　２．０」 twice): the book prints the number twice,
    and a reference to it (→２．３参照) cannot tell them apart."""
    out = []
    for number, sections in section_numbering(doc)[0]:
        for s in sections[1:]:
            said = dict(section=s.title, first=sections[0].title, number=number, line=s.line,
                        first_line=sections[0].line, path=draft_path)
            out.append(Finding(msg("proof.kind.steps", lang), msg("proof.sections.book", lang, **said),
                               msg("proof.sections.file", lang, **said), (s.title,)))
    return out


CASE_QUOTED = 20  # characters of a case's text a finding quotes


def case_numbers(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """A case number set twice in the rules (two 「３．２．１」): the book prints both, and a reference
    to it (→３．２．１参照) goes to the first; at the second's line, with the first's."""
    out = []
    for first, again in twice_numbered_cases(doc):
        said = dict(number=again.number, case=_quoted(again.text), first=_quoted(first.text), line=again.line,
                    first_line=first.line, path=draft_path)
        out.append(Finding(msg("proof.kind.steps", lang), msg("proof.cases.book", lang, **said),
                           msg("proof.cases.file", lang, **said), (again.number,)))
    return out


def _quoted(text: str) -> str:
    text = without_column_gaps(text, 0, 0)[0]
    return text if len(text) <= CASE_QUOTED else text[:CASE_QUOTED] + "…"


def references(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A cross reference of the rules (「→６．４参照」, "see 6.4") to a case the draft numbers nowhere."""
    out = []
    printed = [number for number, _ in printed_step_cases(doc)] + book_numbers(doc)
    titles = numbered_titles(doc)
    for line, ref, number in dangling_references(rules_lines(doc, text), printed):
        said = dict(ref=ref, number=number, line=line, path=draft_path)
        moved = renumbered(number, titles)
        hint = msg("proof.reference.renumbered", lang, title=moved[1], number=moved[0],
                   written=_written_as(ref, number, moved[0])) if moved else ""
        out.append(Finding(msg("proof.kind.reference", lang), msg("proof.reference.book", lang, **said) + hint,
                           msg("proof.reference.file", lang, **said) + hint, (ref,)))
    return out


def _written_as(ref: str, number: str, moved: str) -> str:
    """``ref`` (「→３．２」) with ``moved`` in place of its number, in the digits the draft wrote it in."""
    wide = any("０" <= ch <= "９" for ch in ref)
    spelt = moved.translate(str.maketrans("0123456789.", "０１２３４５６７８９．")) if wide else moved
    for old in (number, number.translate(str.maketrans("0123456789.", "０１２３４５６７８９．"))):
        if old in ref:
            return ref.replace(old, spelt, 1)
    return spelt
