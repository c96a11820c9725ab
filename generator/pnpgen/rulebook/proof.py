"""The proofing report: what an editor would query before the book goes to playtesters.

- near-duplicate terms: two spellings one character apart (【創生エリア】 once, 【創世エリア】
  fourteen times; 事務所 / 事業所; the actions 増築 / 増設 a few lines apart), with the draft lines of each;
- numbers that disagree: the same phrase with another number (倉庫 「最大３個まで」 /
  「最大４個まで」), with the change-log lines that mention both numbers;
- draft↔data count mismatches (from the components list, and a count memo that disagrees);
- the counts printed 「（仮）」: stand-ins of the data the draft gives no count for;
- placeholders still open (未定 values in the data, the player count; 未定, 要検討, TODO, TBD or
  ?? left in the rules of the draft);
- slips of the pen in a Japanese draft, found with a morphological analyser (``grammar``):
  配置しいる, ら抜き, をを, 1方, ”…”, です／である mixed, one word spelt two ways;
- a 【term】 of the rules also written without its 【】 in the rules (係争マス beside 【係争マス】);
- the 【terms】 on the cards spelt otherwise in the book, or never used in it;
- the deck and piece names the cards' texts use (祝福カード, エリアボード) spelt otherwise in the
  components list, or never mentioned on the components pages;
- a figure the rules refer to (図１, 下図) in a section that has none; steps numbered 1, 1, 2;
- a case number set twice (two 「３．２．１」), with both draft lines;
- a cross reference to a case the draft numbers nowhere (「→６．５参照」 in a draft whose cases stop at ６．４).

Each kind has its finder in a module of its own (proofwords: spellings; proofnumbers: numbers and
counts; proofopen: open values; proofcards: the cards' words; prooflayout: figures, tables and
unbreakable runs; proofnumbering: steps, sections, a case numbered twice and references; proofslips: slips of the
pen), sharing proofbase's ``Finding`` and draft lines; ``FINDERS`` lists them in the report's order.

A finding the designer means (an intended spelling) is dropped by ``rulebook.proof.ignore`` in
game.yaml: a list of the words the finding quotes.

Each finding is a ``Finding`` with a short kind, a text for the book (no file names) and a text
for proof.txt (with paths and lines), worded from the message catalogue (``proof.*``) in the
report's language: English when the book's labels or the draft are in a Latin-script language.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from pnpgen.data.model import Game
from pnpgen.messages import msg
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.proofbase import Finding
from pnpgen.rulebook.proofcards import card_names, card_terms, latin_widths, quoted_cards
from pnpgen.rulebook.prooflayout import askew_tables, figure_references, one_space_rows, unbreakable_runs
from pnpgen.rulebook.proofnumbering import case_numbers, references, section_numbers, step_numbers
from pnpgen.rulebook.proofnumbers import (
    count_mismatches,
    disagreeing_numbers,
    memo_counts,
    provisional_counts,
    provisional_names,
    unlisted_decks,
)
from pnpgen.rulebook.proofopen import open_in_draft, placeholders
from pnpgen.rulebook.proofslips import slips
from pnpgen.rulebook.proofwords import bare_terms, near_duplicates
from pnpgen.rulebook.tree import Document
from pnpgen.safetext import shown
from pnpgen.terms import is_latin

__all__ = ["Finding", "proof", "proof_text", "report_lang"]


def report_lang(lang: str, draft_lang: str) -> str:
    """The language the report is worded in: the labels' (``--lang``), unless only the draft is
    in a Latin-script language (an English draft of a game kept in Japanese)."""
    return draft_lang if is_latin(draft_lang) and not is_latin(lang) else lang


@dataclass(frozen=True)
class Proofing:
    """What the finders read: the draft (its tree and text, at ``path``, in ``draft_lang``), the
    game's data and its components rows, the report's language, the ``after:`` titles of
    game.yaml's figures, and the names the draft and data give the game and its parts."""

    doc: Document
    text: str
    game: Game
    rows: list[ComponentRow]
    path: Path | str
    lang: str
    draft_lang: str
    figures: Collection[str]
    names: list[str]


# Every finder, in the order proof.txt and the book list their findings
FINDERS: tuple[Callable[[Proofing], list[Finding]], ...] = (
    lambda p: near_duplicates(p.doc, p.text, p.path, p.lang, [*p.names, *(s.name for s in p.game.sourced)]),
    lambda p: bare_terms(p.doc, p.text, p.path, p.lang),
    lambda p: disagreeing_numbers(p.doc, p.text, p.path, p.lang),
    lambda p: count_mismatches(p.rows, p.doc, p.path, p.lang),
    lambda p: memo_counts(p.doc, p.game, p.path, p.lang),
    lambda p: unlisted_decks(p.rows, p.doc, p.path, p.lang),
    lambda p: open_in_draft(p.doc, p.text, p.path, p.lang),
    lambda p: placeholders(p.game, p.lang, provisional_names(p.rows)),
    lambda p: provisional_counts(p.rows, p.lang),
    lambda p: card_terms(p.game, p.text, p.lang, p.draft_lang),
    lambda p: card_names(p.game, p.rows, p.lang),
    lambda p: quoted_cards(p.doc, p.game, p.path, p.lang),
    lambda p: latin_widths(p.game, p.text, p.path, p.lang),
    lambda p: figure_references(p.doc, p.text, p.path, p.lang, p.figures),
    lambda p: step_numbers(p.doc, p.path, p.lang),
    lambda p: section_numbers(p.doc, p.path, p.lang),
    lambda p: case_numbers(p.doc, p.path, p.lang),
    lambda p: references(p.doc, p.text, p.path, p.lang),
    lambda p: askew_tables(p.doc, p.path, p.lang),
    lambda p: [] if is_latin(p.draft_lang) else one_space_rows(p.doc, p.text, p.path, p.lang),
    lambda p: unbreakable_runs(p.text, p.path, p.lang, p.draft_lang),
    lambda p: slips(p.doc, p.text, p.path, p.lang, latin=is_latin(p.draft_lang), names=p.names),
)


def proof(doc: Document, text: str, game: Game, rows: list[ComponentRow], draft_path: Path | str,
          lang: str, *, draft_lang: str = "ja", ignore: Collection[str] = (),
          figures: Collection[str] = ()) -> list[Finding]:
    """Every finding of ``FINDERS``, worded in ``lang`` (see :func:`report_lang`), but those whose
    words ``ignore`` names; the draft is also read for slips of the pen (``slips``: a Japanese one
    by the analyser, an English one by ``englishproof``). ``figures``: the ``after:`` titles of
    game.yaml's figures."""
    names = [game.title, *(d.name for d in game.decks),  # and as the draft names them (an English
             doc.title, *(name for c in doc.components for name in c.names)]  # edition's names are English)
    proofing = Proofing(doc, text, game, rows, draft_path, lang, draft_lang, figures, names)
    found = [f for finder in FINDERS for f in finder(proofing)]
    return [f for f in found if not set(f.subject) & set(ignore)]


def proof_text(game: Game, draft_path, findings: list[Finding], lang: str, flattened: bool = False) -> str:
    """proof.txt: one finding a line, kind first, with paths and line numbers (of the lines
    recovered, when the draft's newlines had been flattened: the file itself is one line)."""
    head = [msg("proof.head", lang, title=game.title, draft=draft_path)]
    head += [msg("proof.flattened", lang), ""] if flattened else [""]
    if not findings:
        return "\n".join(head + [msg("proof.none", lang)]) + "\n"
    # (a draft's control characters as escapes, as the terminal's lines show them: \x1b]0;…\x07 in a
    # quoted line retitled the terminal that showed proof.txt, \u202e turned the line round)
    return "\n".join(head + [f"{f.kind}\t{shown(f.file)}" for f in findings]) + "\n"
