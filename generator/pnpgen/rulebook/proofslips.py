"""The proofing report's slips of the pen: the analyser's findings (``grammar``; an English
draft's, ``englishproof``), bounded a line and in all."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from pathlib import Path

from pnpgen.messages import msg
from pnpgen.rulebook import englishproof, grammar
from pnpgen.rulebook.grammar import Slip
from pnpgen.rulebook.parse import is_changelog_mark
from pnpgen.rulebook.proofbase import Finding, numbered_lines, rules_lines, section_end
from pnpgen.rulebook.tree import Document, Preformatted

_SLIP_KIND = {"style": "proof.kind.style", "variant": "proof.kind.spelling", "width": "proof.kind.spelling",
              "halfwidth": "proof.kind.spelling", "ascii": "proof.kind.spelling", "nakaguro": "proof.kind.spelling", "widecase": "proof.kind.spelling"}


def slips(doc: Document, text: str, draft_path: Path | str, lang: str, names: Collection[str] = (),
          latin: bool = False) -> list[Finding]:
    """The analyser's findings (``grammar``; of an English draft, ``latin``, ``englishproof``'s)
    in every line but the brainstorm's; the style and
    spelling rules read the rules sections only, and a spelling inside one of ``names`` (the
    game's title, its decks' names, as the data and the draft write them) as the name's own."""
    skip = [(s.line, section_end(doc.sections, s)) for s in doc.of_kind("brainstorm")]
    lines = [(n, line) for n, line in numbered_lines(text) if not any(a <= n < b for a, b in skip) and not is_changelog_mark(line)]
    out = []
    read = englishproof.slips if latin else grammar.slips
    cells = {b.line + k for b in doc.blocks() if isinstance(b, Preformatted) for k in range(len(b.lines))}  # a table's or a map's rows
    found = [s for s in read(lines, {n for n, _ in rules_lines(doc, text)}, names)
             if not (s.rule == "stop" and s.line in cells)]  # a cell is no sentence wanting its 。
    for s, more in _bounded(found):
        said = dict(found=s.found, suggest=s.suggest, why=msg(f"proof.slip.{s.rule}", lang), line=s.line,
                    context=s.context, path=draft_path)
        out.append(Finding(msg(_SLIP_KIND.get(s.rule, "proof.kind.typo"), lang),
                           msg("proof.slip.book", lang, **said) + (msg("proof.open.more_book", lang, n=more) if more else ""),
                           msg("proof.slip.file", lang, **said) + (msg("proof.open.more_file", lang, n=more) if more else ""),
                           (s.found,)))
    return out


SLIPS_A_LINE = 3  # of one rule on one draft line, each listed
SLIPS_LISTED = 300  # in all: a draft of 40,000 unclosed （ made as many notes, the appendix thousands of pages


def _bounded(found: Sequence[Slip]) -> list[tuple[Slip, int]]:
    """The slips to list, each with how many like it are left out after it: at most
    ``SLIPS_A_LINE`` of a rule on a line, ``SLIPS_LISTED`` in all (the last says how many more)."""
    kept: list[list] = []  # [slip, how many left out after it]
    last: dict[tuple[str, int], list] = {}
    listed: dict[tuple[str, int], int] = defaultdict(int)
    for s in found:
        key = (s.rule, s.line)
        if listed[key] == SLIPS_A_LINE:
            last[key][1] += 1
            continue
        listed[key] += 1
        last[key] = [s, 0]
        kept.append(last[key])
    if len(kept) > SLIPS_LISTED:
        kept[SLIPS_LISTED - 1][1] += sum(1 + more for _, more in kept[SLIPS_LISTED:])
        kept = kept[:SLIPS_LISTED]
    return [(s, more) for s, more in kept]
