"""The proofing report's numbering: steps numbered 1, 1, 2, two sections numbered alike, a cross
reference to a case the draft numbers nowhere."""

from __future__ import annotations

from pathlib import Path

from pnpgen.messages import msg
from pnpgen.rulebook.numbering import misnumbered_steps, section_numbering
from pnpgen.rulebook.proofbase import Finding, rules_lines
from pnpgen.rulebook.tree import Document, Step, own_section_number
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


def references(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A cross reference of the rules (「→６．４参照」, "see 6.4") to a case the draft numbers nowhere."""
    out = []
    printed = [f"{own}.{child.number}" for s in doc.rules if (own := own_section_number(s.title)) is not None
               for child in s.children if isinstance(child, Step) and not child.sentence]
    for line, ref, number in dangling_references(rules_lines(doc, text), printed):
        said = dict(ref=ref, number=number, line=line, path=draft_path)
        out.append(Finding(msg("proof.kind.reference", lang), msg("proof.reference.book", lang, **said),
                           msg("proof.reference.file", lang, **said), (ref,)))
    return out
