"""An English editor's pass over the rulebook (session 34, book4): a step ending inside its closing
quote, a parenthesised note among block paragraphs, and the hyphens a paragraph ends its lines
with, measured in the book's PDF (or in the lines the book sets)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from test_rulebook_english import english_workspace

from pdfprobe import glyphs as pdf_glyphs
from pdfprobe import texts as pdf_texts
from pnpgen import fonts as fontreg
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.paralines import hyphenated, set_lines
from pnpgen.rulebook.styles import MAX_HYPHENS_IN_A_ROW

FONTS = Path(__file__).resolve().parents[2] / "fonts"

DRAFT = """\
# Test Game — Draft 3

## Overview

A small game for two to four players.

## Components

- 11 Test cards

## Setup

1. Shuffle the cards.
2. Deal each player 3 cards.
3. The player who most recently sailed a boat is the "first player."

With 2 players, remove the purple cards.

## Playing the game

Take turns until the cards run out. A turn is short, and a player who cannot play passes.

(Note: a ship's "home" harbour is the one it started in, not the one it is docked at, whatever the card says.)
"""


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    ws = english_workspace(tmp_path_factory.mktemp("editor"), draft_en=DRAFT)
    result = build_rulebook(load_game(Workspace(ws), "test", lang="en"), ws / "fonts")
    pdf = result.files["rulebook.pdf"]
    return pdf_texts(pdf), pdf_glyphs(pdf)


def _line_starting(glyphs, pages, words: str):
    """The glyphs of the printed line that starts with ``words`` (page, glyphs of the line)."""
    for n, page in enumerate(pages):
        at = page.find(words)
        if at >= 0 and n > 1:
            first = next(g for g in glyphs[n] if "".join(h.char for h in glyphs[n][glyphs[n].index(g):]).startswith(words))
            return n, [g for g in glyphs[n] if abs(g.y - first.y) < 0.3]
    raise AssertionError(words)


def test_a_step_ending_inside_its_closing_quote_is_an_instruction_not_a_heading(book):
    """``3. The player … is the "first player."`` ends its sentence inside the quote, as American
    punctuation puts it (CMOS 6.9); it was read as a title: heading 3.3 in the text, the contents
    and the quick reference. It is a numbered line, as steps 1 and 2, and listed without its full stop."""
    pages, glyphs = book
    contents = pages[1]
    assert "first player" not in contents and "3.3" not in contents, contents
    n, line = _line_starting(glyphs, pages, "3.")
    text = "".join(g.char for g in line)
    assert text.startswith("3.") and "the “first player.”" in text, text
    number = line[0]
    assert number.font.endswith("Bold") and not line[-1].font.endswith("Bold"), "a numbered line of the text"
    one = _line_starting(glyphs, pages, "1.")[1][0]
    assert abs(number.x - one.x) < 0.1 and number.size == one.size, "set as step 1 is"
    quick = next(p for p in pages if p.lstrip().startswith("Quick reference"))
    assert re.search(r"3\.\u2002The player who most recently sailed a boat is the “first player”\s*p\. \d", quick), quick


def test_a_parenthesised_note_among_block_paragraphs_starts_flush(book):
    """A Latin book parts its paragraphs with space and indents none; a note in parentheses was
    set with a one-em first-line indent (the Japanese 字下げ) and its next line flush, an indent
    no other paragraph has (Bringhurst 2.3.2: space or an indent, not both)."""
    pages, glyphs = book
    _, note = _line_starting(glyphs, pages, "(Note:")
    _, text = _line_starting(glyphs, pages, "Take turns")
    assert abs(note[0].x - text[0].x) < 0.1, (note[0].x, text[0].x)
    n, _ = _line_starting(glyphs, pages, "(Note:")
    after = [g for g in glyphs[n] if g.y > note[0].y + 1]
    assert after and abs(min(g.x for g in after if g.y < note[0].y + 6) - text[0].x) < 0.1, "its wrapped line is flush too"


@pytest.fixture(scope="module")
def serif():
    font = fontreg.register("NotoSerif-Regular", FONTS)
    return lambda c: pdfmetrics.stringWidth(c, font, 9)


LONG_WORDS = ("Harbourmasters' extraordinarily uncharacteristic, counterrevolutionary and unquestionably "
              "internationalised considerations notwithstanding, interdisciplinary institutionalisation "
              "characteristically misrepresents electroencephalographic recordings.")


@pytest.mark.parametrize("chars", [23, 27, 32, 44])
def test_no_more_than_three_lines_in_a_row_end_with_a_hyphen_the_setter_chose(serif, chars):
    """A loose line takes part of the next word with a hyphen, but not after three lines in a row
    that end so (Bringhurst 2.4.4: a ladder of hyphens); at these widths eight, six and four lines
    in a row ended with one. The lines still fit, and a word is split only at its hyphenation points."""
    width = serif("n") * chars
    ranges = set_lines(LONG_WORDS, width, serif, 0.0, 9, "en")
    assert "".join(LONG_WORDS[s:e] for s, e in ranges) == LONG_WORDS
    ends = [hyphenated(LONG_WORDS, e) for _, e in ranges]
    run = longest = 0
    for end in ends:
        run = run + 1 if end else 0
        longest = max(longest, run)
    assert longest == MAX_HYPHENS_IN_A_ROW == 3, ends
    for s, e in ranges:
        line = LONG_WORDS[s:e].rstrip(" ") + ("-" if hyphenated(LONG_WORDS, e) else "")
        assert sum(map(serif, line)) <= width + 1e-6, line


def test_a_british_travel_beside_travelled_and_a_name_said_twice_are_no_slips(tmp_path):
    """proof.txt queried a British draft's ``travelled`` as the American spelling of ``travel``
    (→ “travel”), and ``Bora Bora`` as a word written twice; both are right as written. An
    American ``traveled`` in the same rules, and a real ``the the``, are still queried."""
    from pnpgen.rulebook.book import read_rulebook

    draft = DRAFT.replace("Take turns until the cards run out.",
                          "A ship may travel to Bora Bora. A ship that travelled is cancelled; cancel the the move.")
    ws = english_workspace(tmp_path, draft_en=draft)
    notes = [f.file for f in read_rulebook(load_game(Workspace(ws), "test", lang="en"), FONTS).findings if "→" in f.file]
    assert [n.split(" (")[0].split("draft.en.txt:")[1] for n in notes] == ["21: “the the” → “the”"], notes
    ws = english_workspace(tmp_path / "us", draft_en=draft.replace("cancel the the", "a ship traveled, cancel the"))
    notes = [f.file for f in read_rulebook(load_game(Workspace(ws), "test", lang="en"), FONTS).findings if "→" in f.file]
    assert [n.split(" (")[0].split("draft.en.txt:")[1] for n in notes] == ["21: “traveled” → “travelled"], notes


def test_a_paragraph_after_numbered_instructions_and_a_blank_line_is_set_apart(book):
    """``With 2 players, …`` after the setup's one-sentence steps and a blank line went on the
    line under step 3 with no space, as if one more line of the list; the blank line parts it from
    the list as it parts any paragraph of an English book."""
    pages, glyphs = book
    _, one = _line_starting(glyphs, pages, "1.")
    _, two = _line_starting(glyphs, pages, "2.")
    _, three = _line_starting(glyphs, pages, "3.")
    _, after = _line_starting(glyphs, pages, "With 2 players")
    leading = two[0].y - one[0].y
    assert abs(three[0].y - two[0].y - leading) < 0.05
    assert after[0].y - three[0].y >= leading + 1.3, (after[0].y - three[0].y, leading)  # 4 pt more
