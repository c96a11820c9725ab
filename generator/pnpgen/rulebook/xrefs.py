"""Cross references of a draft whose rules are numbered cases, as a wargame's are: 「（→６．４参照）」,
"(see 6.4)", and of a draft that leaves the numbering to the book, to the numbers the book prints
(「（→４．１）」 for the step the book sets as 4.1, 「（→５）」 for its section 5). A reference to a case
neither numbers (a case renumbered, deleted or mistyped) sends the reader nowhere: the proofing
report names it (rulebook/proof.py). Plain text in, plain tuples out."""

from __future__ import annotations

import re
from collections.abc import Iterable

_N = r"[0-9０-９]{1,3}"
_CASE = rf"{_N}(?:[.．]{_N}){{1,3}}"
# a case the draft numbers: a line (or a ■ section title) opening with its number and a space
_DEFINED = re.compile(rf"^[ 　]*(?:■[ 　]*|#+[ 　]*)?({_CASE})[ 　]")
# a reference: →６．４, ６．４参照 (６．４を参照), see 6.4, cf. 6.4 (see rule 6.4, see case 6.4), and a
# section's number alone only in its own parentheses, 「（→５）」 (「３枚→４枚」 is a change of count)
# (its numbers read whole, however long: 「→４．１０００００」 was told as a reference to 4.100, and
# 「→１２３４．１」 was no reference at all, where each sends the reader nowhere; and of any depth:
# "(see 4.1.1.1.1.1.1)" was quoted "see 4.1.1.1")
_RN = r"(?<![0-9０-９])[0-9０-９]+"
_REF_CASE = rf"{_RN}(?:[.．][0-9０-９]+)+(?![0-9０-９])"
_REFERENCE = re.compile(rf"[→⇒][ 　]*({_REF_CASE})|({_REF_CASE})[ 　]*(?:を)?参照"
                        rf"|\b(?:see|cf\.)[ ]+(?:rule[ ]+|case[ ]+|section[ ]+)?({_REF_CASE})(?![0-9])"
                        rf"|(?<=[（(])[→⇒][ 　]*({_RN})(?=[ 　]*(?:を?参照)?[）)])", re.I)
# a case's own number as the parser keeps it (a list item's mark, 「５．２．１」)
CASE_NUMBER = re.compile(_CASE)
_WIDE = str.maketrans("０１２３４５６７８９．", "0123456789.")


def case_number(text: str) -> str:
    """A case number as one spelling: 「６．４」 and 6.4 are 6.4."""
    return text.translate(_WIDE)


# a case number opening an English draft's line typed full-width (an IME left in Japanese mode:
# 「５．１　Movement」), then its space or the line's end
_WIDE_CASE = re.compile(rf"^([ \t]*)({_CASE})([ 　\t]|$)")


def wide_case(line: str) -> tuple[int, str] | None:
    """Where the case number ``line`` opens with is typed full-width or part so (「５．１」, 「5．1」), and
    the number as written; None for a line that opens with none, or with one in half-width."""
    m = _WIDE_CASE.match(line)
    return (m.start(2), m.group(2)) if m and not m.group(2).isascii() else None


def half_width_case(line: str) -> str:
    """``line`` with a full-width case number it opens with (``wide_case``) and the space after it
    half-width, as an English draft's parser reads its cases (「５．１　Movement」: 5.1 Movement)."""
    m = _WIDE_CASE.match(line)
    if not m or m.group(2).isascii():
        return line
    return m.group(1) + case_number(m.group(2)) + m.group(3).replace("　", " ") + line[m.end():]


def defined_case(text: str) -> str | None:
    """The case number ``text`` opens with, a sub-heading's 「５．１　攻撃」 or "5.1 Movement", in
    one spelling (5.1); None for any other text."""
    m = _DEFINED.match(text)
    return case_number(m.group(1)) if m else None


def references_in(text: str) -> list[tuple[int, int, str]]:
    """(start, end, case number) of each cross reference of ``text`` (「→６．４参照」's →６．４,
    "see 6.4"): the span a reader clicks to go to the case (rulebook/flowables.py links it)."""
    out = []
    for m in _REFERENCE.finditer(text):
        k = next(k for k in (1, 2, 3, 4) if m.group(k))
        out.append((m.start(), m.end(), case_number(m.group(k))))
    return out


def destination(number: str) -> str:
    """The PDF's name of the place case ``number`` is set (a named destination, PDF 32000-1,
    12.3.2.3): the same in every build of the book."""
    return f"case-{number}"


def dangling_references(lines: Iterable[tuple[int, str]], printed: Iterable[str] = ()) -> list[tuple[int, str, str]]:
    """(line, the reference as written, its case number) of each reference in ``lines`` (the rules'
    draft lines, numbered) to a case no line of them numbers, nor the book (``printed``: the steps
    of a section the draft numbers, 「■　５．０　移動」's １： printed 5.1, and the sections and steps
    the book numbers itself, 4 and 4.1); none when neither numbers a case."""
    lines = list(lines)
    defined = {case_number(m.group(1)) for _, line in lines if (m := _DEFINED.match(line))} | set(printed)
    if not defined:
        return []
    # 5.0 is the section 5 (「■　５．０　移動」): a reference to 5 or to 5.0 finds it either way
    defined |= {n[:-2] for n in defined if n.endswith(".0")} | {n + ".0" for n in defined if "." not in n}
    out = []
    for n, line in lines:
        for m in _REFERENCE.finditer(line):
            number = case_number(next(g for g in m.groups() if g))
            if number not in defined:
                out.append((n, m.group(0), number))
    return out
