"""Rulebooks from English drafts (issue 14, item 5): the Latin draft reader, Latin line setting
with hyphenation, the draft per language and pnpgen's own labels in English."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from conftest import DECK_YAML, DRAFT, GAME_YAML, make_workspace
from pdfprobe import glyphs as pdf_glyphs
from pdfprobe import texts as pdf_texts
from pnpgen import fonts as fontreg
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.faces.builtin import icon_dirs
from pnpgen.rulebook import build_rulebook, load_document, pictures_from_game, rulebook_warnings
from pnpgen.rulebook.book import read_rulebook
from pnpgen.rulebook.latin import parse_entry
from pnpgen.rulebook.paralines import hyphenated, set_lines
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.tree import Bullet, DraftParagraph, Item, Note, Preformatted, Subheading
from pnpgen.text.linebreak import hyphen_positions

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "fonts"
TWO = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ndefault_language: ja\n"
                        "title: {ja: テストゲーム, en: Test Game}")
DECK = DECK_YAML.replace("name: テストカード", "name: {ja: テストカード, en: Test cards}") + "".join(
    f"  - {{name: {{ja: 札{i}, en: Card {i}}}, text: {{ja: 本文, en: Text}}}}\n" for i in range(11))

MARKDOWN = """\
# Test Game — Draft 3

(A test draft.)

## Overview

A small game for testing, played by two to four players. Every line of this paragraph is
wrapped by hand, as plain-text drafts are, and the reader joins the lines back into one
paragraph, since three or more of them break off in the middle of a sentence.

## Components

2-4 players

- 11 Test cards
  Cards with a name and a text.
- VP board, VP markers (1 / 4)
- Cubes (5 each)

## Playing the game

1) Draw a card
Take the top card of the pile.

2) Play a card
- Put it face up in front of you.
* Or keep it.

### Scoring
Score: 1 point per card.

Step 3: End of the turn
The next player in clockwise order takes a turn.

## Open issues

Is eleven cards enough?
"""


def classes_of(doc):
    return [(s.title, s.kind) for s in doc.sections]


def test_an_english_draft_yields_its_title_sections_steps_and_bullets():
    doc = parse(MARKDOWN, "en")
    assert (doc.title, doc.draft_label, doc.draft_number) == ("Test Game", "Draft 3", 3)
    assert classes_of(doc) == [("Overview", "rules"), ("Components", "rules"), ("Playing the game", "rules"),
                               ("Open issues", "notes")]
    assert isinstance(doc.preamble[0], Note)
    overview = doc.sections[0].children
    assert len(overview) == 1 and isinstance(overview[0], DraftParagraph)
    assert overview[0].text.startswith("A small game") and overview[0].text.endswith("middle of a sentence.")
    assert "\n" not in overview[0].text and "  " not in overview[0].text
    steps = doc.steps
    assert [(s.number, s.title) for s in steps] == [(1, "Draw a card"), (2, "Play a card"), (3, "End of the turn")]
    assert [type(b) for b in steps[0].children] == [DraftParagraph]
    assert [(type(b), b.text) for b in steps[1].children[:2]] == [(Bullet, "Put it face up in front of you."),
                                                                 (Bullet, "Or keep it.")]
    sub = steps[1].children[2]
    assert isinstance(sub, Subheading) and sub.text == "Scoring" and sub.level == 1
    assert isinstance(sub.children[0], Item) and sub.children[0].term == "Score"
    assert doc.stated_players() == (2, 4)


def test_components_entries_with_counts_before_or_after_the_name():
    doc = parse(MARKDOWN, "en")
    assert [(c.names, c.counts) for c in doc.components] == [
        (["Test cards"], [11]), (["VP board", "VP markers"], [1, 4]), (["Cubes"], [5])]
    assert doc.components[2].each and not doc.components[0].each
    assert [b.text for b in doc.components[0].children] == ["Cards with a name and a text."]
    assert (parse_entry("1 VP board and 4 VP markers").names, parse_entry("1 VP board and 4 VP markers").counts) \
        == (["VP board", "VP markers"], [1, 4])
    assert parse_entry("Epic cards ×80").counts == [80]


@pytest.mark.parametrize("entry, names, counts", [
    ("Four player mats", ["player mats"], [4]), ("A cloth bag", ["cloth bag"], [1]),
    ("An hourglass and twenty Coins", ["hourglass", "Coins"], [1, 20]), ("Forty wooden cubes", ["wooden cubes"], [40]),
    ("Fourteen Goal cards", ["Goal cards"], [14]), ("Oneshot tokens", ["Oneshot tokens"], []),
])
def test_a_components_count_written_as_a_word(entry, names, counts):
    """English trial: "- Four Player mats" was a component named "Four Player mats" that matched
    no deck, "- A Main board" one named "A Main board"; a count in words is a count."""
    got = parse_entry(entry)
    assert (got.names, got.counts) == (names, counts)


@pytest.mark.parametrize("draft", [
    "TEST GAME\n\nOVERVIEW\nA game.\n\nSETUP\n1. Shuffle the cards.\n2. Deal five cards each.\n",
    "Test Game\n\nChapter 1: Overview\nA game.\n\nChapter 2 — Setup\n1. Shuffle the cards.\n2. Deal five cards each.\n",
    "Test Game\n\n1. Overview\nA game.\n\n2. Setup\n1) Shuffle the cards.\n2) Deal five cards each.\n",
])
def test_headings_by_capitals_chapters_and_numbers(draft):
    """Sections by ALL CAPS lines, by ``Chapter n`` and by numbering (``1.`` is then a section,
    since the draft has no other section mark and the numbers do not restart)."""
    doc = parse(draft, "en")
    assert [s.title.casefold() for s in doc.sections] == ["overview", "setup"]
    assert [(s.number, s.title) for s in doc.steps] == [(1, "Shuffle the cards"), (2, "Deal five cards each")]
    assert doc.title.casefold() == "test game"


def test_a_draft_with_one_paragraph_per_line_keeps_its_lines_apart():
    doc = parse("# Rules\n\n## Setup\n" + "Shuffle the cards and deal five of them to every player at the table.\n"
                "Put the rest face down as a pile in the middle of the table where everyone can reach it.\n", "en")
    assert [b.text[:7] for b in doc.sections[0].children] == ["Shuffle", "Put the"]


# ---------------------------------------------------------------- line setting


@pytest.fixture(scope="module")
def serif():
    font = fontreg.register("NotoSerif-Regular", FONTS)
    return font, (lambda c: pdfmetrics.stringWidth(c, font, 9))


def breaks_inside_words(text: str, ranges) -> list[tuple[str, int]]:
    """(word, offset) for every line end that splits a word."""
    out = []
    for _, e in ranges[:-1]:
        if hyphenated(text, e):
            start = max(re.sub(r"[^A-Za-z]", " ", text[:e]).rfind(" ") + 1, 0)
            m = re.match(r"[A-Za-z]+", text[start:])
            out.append((m.group(0), e - start))
    return out


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_long_word_breaks_only_at_a_hyphenation_point(serif, lang):
    """A word longer than the line (in an English paragraph, or a Latin word in a Japanese one)
    is split at pyphen's points and nowhere else, each split line ending in a hyphen that fits."""
    _, measure = serif
    text = ("The Counterintelligenceoperations track is long. " * 3) if lang == "en" else \
        "この【Counterintelligenceoperations】は長い単語です。" * 3
    width = sum(map(measure, "Counterintelligence"))
    ranges = set_lines(text, width, measure, 0.0, 9, lang)
    assert "".join(text[s:e] for s, e in ranges) == text
    splits = breaks_inside_words(text, ranges)
    assert splits
    for word, at in splits:
        assert at in hyphen_positions(word, "en"), (word, at)
    for s, e in ranges:
        line = text[s:e].rstrip(" ") + ("-" if hyphenated(text, e) else "")
        assert sum(map(measure, line)) <= width + 1e-6


def test_a_loose_line_takes_part_of_the_next_word(serif):
    """Justified English: a line that would end with wide word spaces hyphenates the next word."""
    _, measure = serif
    text = "A game of extraordinary unpredictability and considerable sophistication for everybody."
    width = sum(map(measure, "A game of extraordinary unpre"))
    ranges = set_lines(text, width, measure, 0.0, 9, "en")
    first = text[ranges[0][0]:ranges[0][1]]
    assert hyphenated(text, ranges[0][1]) and first.startswith("A game of extraordinary un")
    assert [text[s:e].count(" ") for s, e in ranges[1:]] and all(not text[s:e].startswith(" ") for s, e in ranges)



def test_a_web_address_breaks_at_its_slashes_never_with_an_added_hyphen(serif):
    """An address in a line too narrow for it breaks after ``//`` or before a slash, full stop or
    hyphen (CMOS 14.18), never at a hyphenation point with a hyphen drawn (``ht-tps://`` was
    printed) nor after the address's own hyphen (``errata-`` | ``and``)."""
    _, measure = serif
    url = "https://example.com/harbour-masters/rules/v2/errata-and-clarifications.html"
    text = f"Errata are listed online, and you may visit {url} for errata."
    for chars in (30, 38, 46, 52):
        width = sum(map(measure, text[:chars]))
        ranges = set_lines(text, width, measure, 0.0, 9, "en")
        assert "".join(text[s:e] for s, e in ranges) == text
        for _, e in ranges[:-1]:
            if text.find(url) < e < text.find(url) + len(url):
                assert not hyphenated(text, e) and text[e - 1] != "-", (chars, text[:e])
                assert text[e] in "/.-_?#%~=&" or text[e - 2:e] == "//", (chars, text[:e])


def test_typewriter_marks_are_printed_as_a_typesetter_sets_them():
    """``--`` an em dash closed up (CMOS 6.85), a range's hyphen an en dash (6.78) but not a date's,
    ``'90s`` with an apostrophe, not an opening quote (7.29), ``...`` the ellipsis."""
    from pnpgen.rulebook.typography import latin_typography

    assert latin_typography("the '90s boom -- you don't own ships--you rent them...") == \
        "the ’90s boom—you don’t own ships—you rent them…"
    assert latin_typography('For 2-4 players, 30-45 minutes; "1-3: Miss"') == "For 2–4 players, 30–45 minutes; “1–3: Miss”"
    assert latin_typography("On 2026-11-30, rock-paper-scissors, x --verbose, 1.5-2 laps") == \
        "On 2026-11-30, rock-paper-scissors, x --verbose, 1.5-2 laps"
    assert latin_typography("'Go', she said in '24.") == "‘Go’, she said in ’24."
    assert latin_typography("rock 'n' roll, 'n' and 'nice'") == "rock ’n’ roll, ’n’ and ‘nice’"


def test_a_line_ending_in_e_g_goes_on_on_the_next_line():
    """A draft of one paragraph per line, wrapped after ``(e.g.`` or ``vs.``: the next line is more
    of that sentence, not a paragraph of its own (the quick reference gave ``cargo, passengers and
    mail) and the player with the most points wins.`` as the winning rule)."""
    draft = ("Ships\n\nOVERVIEW\n\nA long line of text that is a whole paragraph on its own, as it was written.\n"
             "Players compete for contracts (e.g.\ncargo and mail) and the player with the most points wins.\n"
             "A ship moving 3 spaces vs.\n2 spaces costs 1 coin more.\nSay no.\nThen stop.\n")
    texts = [b.text for b in parse(draft, "en").sections[0].children]
    assert texts == ["A long line of text that is a whole paragraph on its own, as it was written.",
                     "Players compete for contracts (e.g. cargo and mail) and the player with the most points wins.",
                     "A ship moving 3 spaces vs. 2 spaces costs 1 coin more.", "Say no.", "Then stop."]


# ---------------------------------------------------------------- whole books


def english_workspace(tmp_path: Path, draft_en: str | None = MARKDOWN) -> Path:
    game = TWO + "fonts:\n  en:\n    gothic: NotoSans-Regular\n    bold: NotoSans-Bold\n    mincho: NotoSerif-Regular\n"
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=game, draft=True)
    if draft_en is not None:
        (ws / "data" / "test" / "draft.en.txt").write_text(draft_en, encoding="utf-8")
    return ws


def texts(result, name="rulebook.pdf") -> list[str]:
    return pdf_texts(result.files[name])


@pytest.fixture(scope="module")
def english_book(tmp_path_factory):
    ws = english_workspace(tmp_path_factory.mktemp("en"))
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    return game, result, texts(result)


def test_english_book_cover_contents_and_labels(english_book):
    game, result, pages = english_book
    assert "Rulebook" in pages[0] and "Test Game" in pages[0] and "Draft 3" in pages[0]
    assert "Players: 2–4" in pages[0] and "30 November 2026" in pages[0]
    assert pages[1].split("\n")[0].strip() == "Contents"
    body = "\n".join(pages)
    for section in ("1 Overview", "2 Components", "3 Playing the game", "3.1 Draw a card", "Designer notes",
                    "Open issues (for the designer)"):
        assert section in body
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", body), "no Japanese label in an English book"
    # a game trial: the appendix's heading read "Appendix Designer notes", as one name
    assert re.search(r"^Appendix: Designer notes\s*\.", pages[1], re.M), pages[1]
    appendix = next(p for p in pages[2:] if "Open issues (for the designer)" in p)
    assert "Appendix: Designer notes" in appendix and "Appendix Designer" not in body
    assert "words and hyphenation" in "\n".join(result.report)
    assert [w.split(": ", 1)[1] for w in result.warnings] == [
        "component “VP board, VP markers” of the draft has no deck or sourced item of that name in the data; "
        "a part bought, not printed, goes in game.yaml's sourced: list ({name: VP board, count: …})",
        "component “Cubes” of the draft has no deck or sourced item of that name in the data; "
        "a part bought, not printed, goes in game.yaml's sourced: list ({name: Cubes, count: …})"]  # English marks


def test_english_book_components_counted_from_the_data(english_book):
    _, result, pages = english_book
    start = next(i for i, p in enumerate(pages) if i >= 2 and "2 Components" in p)
    comp = "".join(pages[start:start + 2])  # the pictures at 1/2 take the list onto a second page
    assert re.search(r"Test cards\s*11", comp)
    assert "(no data)" in comp  # the VP board and markers and the cubes are not in the data


def test_english_book_is_set_in_the_languages_fonts(english_book):
    _, result, _ = english_book
    reader = PdfReader(io.BytesIO(result.files["rulebook.pdf"]))
    fonts = {str(f["/BaseFont"]).split("+")[-1] for page in reader.pages
             for f in (page["/Resources"].get("/Font") or {}).values()}
    assert {"NotoSerif-Regular", "NotoSans-Bold"} <= fonts


def test_an_english_book_of_a_game_naming_no_english_fonts_is_set_in_latin_faces(tmp_path):
    """fixesO: without ``fonts: {en: …}`` an English edition of a Japanese game set its body in
    BIZ UDP明朝's Latin letters, its justified word spaces gaping; it takes the Noto faces pnpgen
    ships, and Japanese left in it still finds BIZ UD."""
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO, draft=True)
    (ws / "data" / "test" / "draft.en.txt").write_text(MARKDOWN + "\nテストカード\n", encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts")
    pages = pdf_glyphs(result.files["rulebook.pdf"])
    text_fonts = {g.font for page in pages for g in page if g.char.strip()}
    assert {"NotoSerif-Regular", "NotoSans-Regular", "NotoSans-Bold"} <= text_fonts
    body = next(page for page in pages if "A small game" in "".join(g.char for g in page))
    text = "".join(g.char for g in body)
    start = text.index("A small game")
    assert {g.font for g in body[start:start + 12] if g.char.strip()} == {"NotoSerif-Regular"}
    japanese = [g.font for page in pages for g in page if g.char in "テストカード"]
    assert japanese and all(f.startswith("BIZUD") for f in japanese)


def test_a_japanese_draft_in_an_english_build_matches_the_japanese_deck_names(tmp_path):
    ws = english_workspace(tmp_path, draft_en=None)
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts")
    assert not [w for w in result.warnings if "no deck" in w]
    assert not [w for w in result.warnings if "title differs" in w]  # the Japanese draft against the Japanese title
    assert any("no en draft" in w and "draft.en.txt beside it for the en rulebook" in w for w in result.warnings)
    pages = texts(result)
    assert "Rulebook" in pages[0] and "Contents" in pages[1] and "目次" not in "".join(pages)
    assert "テストカード" in "".join(pages)  # the draft's own text stays as written


def test_an_english_edition_of_a_japanese_draft_sets_its_own_notes_in_the_latin_body_font(tmp_path):
    """fixesK: "Pictures are at 1/2 of actual size." came out in the Japanese book's fixed-width
    明朝 (BIZ UD明朝), letters spaced as a typewriter's; it is set in the body font the English
    book has (game.yaml's ``fonts: {en: {mincho: NotoSerif-Regular}}``), the draft's text as before."""
    ws = english_workspace(tmp_path, draft_en=None)
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    pages = pdf_glyphs(result.files["rulebook.pdf"])
    note = next(page for page in pages if "Pictures are at" in "".join(g.char for g in page))
    text = "".join(g.char for g in note)
    start = text.index("Pictures are at")
    assert {g.font for g in note[start:start + len("Pictures are at")] if g.char.strip()} == {"NotoSerif-Regular"}
    body = text.index("テストカード")
    assert note[body].font.startswith("BIZUD")  # the Japanese draft's own text in its Japanese faces


def test_the_english_draft_stays_inside_the_game_folder(tmp_path):
    ws = english_workspace(tmp_path, draft_en=None)
    outside = tmp_path / "elsewhere.txt"
    outside.write_text(MARKDOWN, encoding="utf-8")
    (ws / "data" / "test" / "draft.en.txt").symlink_to(outside)
    with pytest.raises(InputError, match="outside"):
        load_document(load_game(Workspace(ws), "test", lang="en"))


def test_an_english_draft_in_a_japanese_only_game_is_detected(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "draft.txt").write_text(MARKDOWN, encoding="utf-8")
    draft, doc = load_document(load_game(Workspace(ws), "test"))
    assert draft.lang == "en" and [s.title for s in doc.rules][:2] == ["Overview", "Components"]


def test_the_sample_english_rulebook_of_alicematic_medallions():
    """The real game's English sample draft (draft.en.txt) in an ``--lang en`` build: its sections,
    its components counted from the data (English deck names), no warning, English labels, and
    pictures of the English faces (no Japanese アリス ribbon on the cards)."""
    ws = Workspace(ROOT)
    game = load_game(ws, "alicematic-medallions", lang="en")
    result = build_rulebook(game, FONTS, pictures=pictures_from_game(game, ws.templates))
    _, doc = load_document(game)
    assert [s.title for s in doc.rules] == ["Overview", "Components", "Game setup", "Playing the game"]
    assert [s.title for s in doc.of_kind("notes")] == ["Open issues"]
    assert result.warnings == []
    pages = texts(result)
    assert "Rulebook" in pages[0] and "Contents" in pages[1]
    start = next(i for i, p in enumerate(pages) if i >= 2 and "2 Components" in p)
    comp = "".join(pages[start:start + 2])  # the pictures at 1/2 take the list onto a second page
    assert re.search(r"Alice cards\s*53", comp) and re.search(r"Medallion cards\s*7", comp)
    body = "".join(pages)
    assert "アリス" not in body and "Alice" in comp  # the pictures are the English faces: their ribbon says Alice
    assert not [label for label in ("目次", "その他", "データなし", "付録", "デザイナーノート", "草案", "組版", "人")
                if label in body]
    quick = next(p for p in pages if p.lstrip().startswith("Quick reference"))
    assert "• After holding" in quick and "•After" not in quick  # the turn's phases: a bullet, a space
    # its components in a run, each count after a colon (it read “Alice cards 53; Medallion cards 7”)
    assert "Alice cards: 53; Medallion cards: 7" in " ".join(quick.split())
    assert "• First, draw one card" in quick and "following procedure" not in quick  # the turn's action


STEPS_DRAFT = """Test Game

OVERVIEW

A game.

PLAYING THE GAME

On your turn, do these in order:
{steps}

END OF THE GAME

The game ends after ten rounds.
"""
STEP_TEXTS = ["Draw a card from the pile.",
              "Play one card from your hand to the table in front of you and resolve its effect.",
              "Discard down to five cards. Then the player on your left takes a turn."]


@pytest.mark.parametrize("style", ["{n}. {t}", "{n}) {t}", "Step {n}: {t}", "{n}: {t}"])
@pytest.mark.parametrize("between", ["\n", "\n\n"])
def test_one_sentence_steps_parse_as_steps_in_four_numbering_styles(style, between):
    steps = between.join(style.format(n=n, t=t) for n, t in enumerate(STEP_TEXTS, start=1))
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    assert [(s.number, s.title) for s in doc.steps] == [
        (1, "Draw a card from the pile"),
        (2, "Play one card from your hand to the table in front of you and resolve its effect"),
        (3, "Discard down to five cards")]
    # among one-sentence steps, numbered lines, a step of two sentences is one too (whole)
    assert [s.sentence for s in doc.steps] == STEP_TEXTS and doc.steps[2].children == []


def test_a_step_of_two_sentences_among_one_sentence_steps_is_no_heading_of_its_own():
    """A wargame's setup, ``1. Spread out the map.`` then ``2. Place the counters on the map. The
    Axis sets up first.``, printed a numbered line 1. above a heading 3.2 (no 3.1): the second
    step is a numbered line too. Where no step is a sentence, it stays a heading with its body;
    so does one with text under it, or titled before a colon."""
    steps = ("1. Spread out the map.\n2. Place the counters on the map. The Axis sets up first.\n"
             "3. Buy: Spend your coins. Then draw.\n4. Draw a tile\nTake the top one. Show it to all.")
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    assert [(s.sentence, [c.text for c in s.children]) for s in doc.steps] == [
        ("Spread out the map.", []),
        ("Place the counters on the map. The Axis sets up first.", []),
        ("", ["Spend your coins. Then draw."]),
        ("", ["Take the top one. Show it to all."])]
    alone = parse(STEPS_DRAFT.format(steps="1. Place the map. Then deal.\n2. Draw a tile"), "en")
    assert [(s.title, s.sentence) for s in alone.steps] == [("Place the map", ""), ("Draw a tile", "")]


def test_the_last_step_of_two_sentences_keeps_the_paragraph_after_it_out_of_its_step():
    """A euro's setup (trial70): five one-sentence steps, then ``6. Each player takes 5 coins. The
    youngest player is the first player.`` and, after a blank line, ``With five players, lay out 7
    buildings.``: step 6 was a heading 3.6 (in the contents and the quick reference as 3.6) over
    both. It is a numbered line as its section's other steps are, and the paragraph after the
    blank line the section's text; without the blank line it is still the step's body."""
    steps = ("1. Spread out the map.\n2. Each player takes 5 coins. The youngest player is the first player.\n\n"
             "With five players, lay out 7 buildings.")
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    assert [(s.sentence, s.children) for s in doc.steps] == [
        ("Spread out the map.", []),
        ("Each player takes 5 coins. The youngest player is the first player.", [])]
    (section,) = [s for s in doc.sections if doc.steps[1] in s.children]
    after = section.children[section.children.index(doc.steps[1]) + 1:]
    assert [p.text for p in after if isinstance(p, DraftParagraph)] == ["With five players, lay out 7 buildings."]
    joined = parse(STEPS_DRAFT.format(steps=steps.replace("\n\nWith", "\nWith")), "en")
    assert joined.steps[1].sentence == "" and len(joined.steps[1].children) == 2, joined.steps[1]


@pytest.mark.parametrize("indent", ["   ", ""])
def test_a_step_titled_on_its_line_takes_the_lines_under_it_as_its_body(indent):
    """``1. Place the board`` with its text under it (indented or not): the heading is the
    step's line, the sentence under it its body (a designer's draft had them run together as one
    heading, its full stop lost); a short step of two sentences is split after the first; an
    indented line going on with the title's words stays in the title."""
    steps = (f"1) Place the board\n{indent}Put the score board in the middle of the table.\n"
             "2) Draw a tile. Take the top tile of the stack.\n"
             "3) Give every player a score marker and\n   two resource markers")  # (no sentence: see below)
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    assert [(s.number, s.title) for s in doc.steps] == [
        (1, "Place the board"), (2, "Draw a tile"), (3, "Give every player a score marker and two resource markers")]
    assert [[c.text for c in s.children] for s in doc.steps] == [
        ["Put the score board in the middle of the table."], ["Take the top tile of the stack."], []]


def test_steps_numbered_as_a_japanese_draft_numbers_them_are_steps_in_its_english_edition():
    """trial82: a Japanese designer's draft.en.txt wrote its steps as its draft.txt does, ``1: Placement``
    (「１：配置」) with the text under it; each was read as a ``Term: text`` item, so the book had no
    step 3.1 in its contents and its quick reference said the turn sequence was not in the draft,
    with no warning. ``1: Title`` is a step; a time, ``10:30 the market opens.``, is none (the last
    step's paragraph, as a titled step keeps the paragraphs under it)."""
    steps = ("1: Placement\nPlace one merchant at a time on a free space.\n- Wharf: gain 1 fish.\n"
             "2: Income\nEach player uses their buildings.\n3: Tidy up\nTake your merchants back.\n\n"
             "10:30 the market opens.")
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    assert [(s.number, s.title, s.sentence) for s in doc.steps] == [
        (1, "Placement", ""), (2, "Income", ""), (3, "Tidy up", "")]
    assert [[getattr(c, "text", None) for c in s.children] for s in doc.steps] == [
        ["Place one merchant at a time on a free space.", "Wharf: gain 1 fish."],
        ["Each player uses their buildings."], ["Take your merchants back.", "10:30 the market opens."]]


def test_a_one_sentence_step_listing_what_it_deals_after_a_colon_is_an_instruction():
    """A game trial: ``3. Deal each player 10 Starter cards: 6 Copper Pennies, 3 Deckhands and 1
    Rowboat.`` among one-sentence setup steps became heading 3.3 with the list as its text, the
    setup's other steps numbered lines: a colon before a number, after a clause (more than three
    words, or a number of its own), goes on with its sentence. A colon after a title still ends it
    (``Buy: Spend your coins.``, ``Setup: 2 players use 20 cards.``)."""
    steps = ("1. Shuffle the deck.\n2. Deal each player 10 Starter cards: 6 Copper Pennies, 3 Deckhands"
             " and 1 Rowboat.\n3. Buy: Spend your coins. Bought cards go to your discard pile.\n"
             "4. Setup: 2 players use 20 cards.\n5. Deal 10 cards: 6 Pennies and 4 Ships.")
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    assert [(s.number, s.title, s.sentence) for s in doc.steps] == [
        (1, "Shuffle the deck", "Shuffle the deck."),
        (2, "Deal each player 10 Starter cards: 6 Copper Pennies, 3 Deckhands and 1 Rowboat",
         "Deal each player 10 Starter cards: 6 Copper Pennies, 3 Deckhands and 1 Rowboat."),
        (3, "Buy", ""), (4, "Setup", ""),
        (5, "Deal 10 cards: 6 Pennies and 4 Ships", "Deal 10 cards: 6 Pennies and 4 Ships.")]
    assert [[c.text for c in s.children] for s in doc.steps] == [
        [], [], ["Spend your coins. Bought cards go to your discard pile."], ["2 players use 20 cards."], []]


def test_a_paragraph_after_one_sentence_steps_and_a_blank_line_is_the_sections_not_the_last_steps(tmp_path):
    """A trick-taking game's setup: three one-sentence steps, a blank line, then ``With 3 players,
    remove the purple suit.``: the paragraph was taken as the last step's own text and set indented
    under ``3.``, as if it said more of choosing the leader. It is the section's, set flush left; a
    step titled on its line (``1) Bid``) keeps its text, blank lines and all."""
    steps = ("1. Shuffle the cards.\n2. Deal 7 cards to each player.\n\nWith 3 players, remove the purple suit.\n"
             "\nFINISHING\n\n1) Bid\nChoose a bid card.\n\nThen place it face up.\n2) Count\nCount your tricks.")
    doc = parse(STEPS_DRAFT.format(steps=steps), "en")
    playing = doc.sections[1]
    assert [type(c).__name__ for c in playing.children] == ["DraftParagraph", "Step", "Step", "DraftParagraph"]
    assert playing.children[-1].text == "With 3 players, remove the purple suit."
    bid = doc.sections[2].children[0]
    assert [c.text for c in bid.children] == ["Choose a bid card.", "Then place it face up."]
    ws = english_workspace(tmp_path, draft_en=STEPS_DRAFT.format(steps=steps))
    result = build_rulebook(load_game(Workspace(ws), "test", lang="en"), ws / "fonts")
    pages, glyphs = texts(result), pdf_glyphs(result.files["rulebook.pdf"])
    page = next(i for i, p in enumerate(pages) if "With 3 players" in p)
    start = pages[page].index("With 3 players")
    line = glyphs[page][start]  # (pdfium's text and glyphs count the same characters)
    first = next(g for g in glyphs[page] if g.char == "A" and pages[page][glyphs[page].index(g):].startswith("A game."))
    assert line.char == "W" and abs(line.x - first.x) < 0.5, (line.x, first.x)  # flush with the section's text


def test_a_components_total_followed_by_its_parts_reads_the_parts(tmp_path):
    """A game trial: ``- 60 cards: 24 Starter cards and 36 Market cards`` was the component
    “cards” (no such deck) with its parts as its text, both decks listed again as “Other
    contents”. A total whose text lists parts adding up to it is read as those parts; the
    proofing note of a part's count gives that part's count, not every part's (``25 / 37``)."""
    entry = parse_entry("60 cards: 24 Starter cards and 36 Market cards")
    assert (entry.names, entry.counts) == (["Starter cards", "Market cards"], [24, 36])
    entry = parse_entry("60 cards: 24 Starter cards and 30 Market cards")  # 54: not its parts
    assert (entry.names, entry.counts) == (["cards"], [60])
    assert [c.text for c in entry.children] == ["24 Starter cards and 30 Market cards"]
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO + "sourced:\n  - {name: Dice, count: 3}\n", draft=True)
    draft = ("Test Game\n\n## Components\n\n- 15 pieces: 12 Test cards and 3 Dice\n\n"
             "## Setup\n\n1. Shuffle the deck.\n")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts")
    proof = result.files["proof.txt"].decode("utf-8")
    assert re.search(r"draft\.en\.txt:5: Test cards: the draft says 12, the data has 11$", proof, re.M), proof
    assert "Dice: the draft says" not in proof and "Other contents" not in "".join(texts(result))
    assert not any("no deck or sourced item" in w for w in rulebook_warnings(game, FONTS))



def test_a_components_total_heads_its_parts(tmp_path):
    """A designer's trial: ``- 36 Polyomino tiles: 4 Mono tiles, …`` (fourteen decks, a shape each)
    was headed by the fourteen parts' names and ``4 / 4 / 3 / …``, the total's name and 36 nowhere:
    the entry is headed by the total (its first letter upper case) and the parts' sum, each part
    with its count in the entry's table, and the quick reference counts the total."""
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO + "sourced:\n  - {name: Dice, count: 3}\n", draft=True)
    draft = ("Test Game\n\n## Components\n\n- 14 pieces: 11 Test cards and 3 Dice\n\n"
             "## Setup\n\n1. Shuffle the deck.\n")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    book = "\n".join(texts(build_rulebook(game, ws / "fonts"))).replace("\r", "")
    assert re.search(r"^Pieces\s*14$", book, re.M), book
    assert re.search(r"^Test cards\s*11$", book, re.M) and re.search(r"^Dice\s*3$", book, re.M), book
    assert "Test cards, Dice" not in book and "11 / 3" not in book, book
    assert re.search(r"^Pieces:\s14$", book, re.M), book  # the quick reference

def test_a_components_total_that_is_not_its_parts_sum_says_so(tmp_path):
    """An English designer's trial: '- 54 cards: 40 Market cards and 10 Starter cards' (a total
    mistyped) was only 'component “cards” … has no deck': the warning says the parts add up to 50."""
    assert parse_entry("54 cards: 40 Starter cards and 10 Market cards").parts_off == [40, 10]
    assert parse_entry("50 cards: 40 Starter cards and 10 Market cards").parts_off == []
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO, draft=True)
    draft = "Test Game\n\n## Components\n\n- 13 pieces: 11 Test cards and 3 Dice\n\n## Setup\n\n1. Shuffle the deck.\n"
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    said = [w for w in rulebook_warnings(game, FONTS) if "no deck or sourced item" in w]
    assert len(said) == 1 and said[0].endswith(
        "“pieces” of the draft has no deck or sourced item of that name in the data; the parts its text lists "
        "add up to 14 (11 + 3), not 13: with the total their sum, the parts are the entries"), said


def test_a_components_total_of_one_deck_followed_by_what_it_holds_is_that_deck(tmp_path):
    """English trial (trial80): ``- 37 Sea tiles: 8 Marsh, 8 Dune, …`` (one deck of tiles, its kinds
    told) was read as the components Marsh, Dune, … — no deck — and the tiles, the line's own total,
    were told missing from the list. Where no part names a deck and the total does, the total is the
    entry and its parts the text under it; parts that name decks are still the entries (above)."""
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO, draft=True)
    draft = ("Test Game\n\n## Components\n\n- 11 Test cards: 6 Red cards and 5 Blue cards\n\n"
             "## Setup\n\n1. Shuffle the deck.\n")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    assert not [w for w in rulebook_warnings(game, FONTS) if "no deck or sourced item" in w or "does not name" in w]
    result = build_rulebook(game, ws / "fonts")
    book = "\n".join(texts(result)).replace("\r", "")
    assert re.search(r"^Test cards\s*11$", book, re.M) and "6 Red cards and 5 Blue cards" in book, book
    assert "Other contents" not in book and "Red cards, Blue cards" not in book, book
    assert "Components" not in result.files["proof.txt"].decode("utf-8")
    # parts that are no deck under a total that is none either: each slip told, a name meant once
    (ws / "data" / "test" / "draft.en.txt").write_text(draft.replace("11 Test cards:", "11 Toast cards:").replace("Red cards", "Rest cards").replace("Blue cards", "Tent cards"), encoding="utf-8")
    [said] = [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "no deck" in w]
    assert said.count("did you mean Test cards?") == 1, said


def test_a_components_entry_naming_a_deck_with_its_kind_after_it_is_that_deck(tmp_path):
    """An English designer's trial: the card deck named “Market”, listed in the draft as
    “- 12 Market cards”, was “no deck or sourced item of that name” and the deck was listed again
    under “Other contents”; the kind after a deck's name is that deck, and its count is compared."""
    deck = DECK.replace("en: Test cards", "en: Market")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO, draft=True)
    draft = "Test Game\n\n## Components\n\n- 12 Market cards\n\n## Setup\n\n1. Shuffle the deck.\n"
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts")
    proof = result.files["proof.txt"].decode("utf-8")
    assert re.search(r"draft\.en\.txt:5: Market cards: the draft says 12, the data has 11$", proof, re.M), proof
    assert "Other contents" not in "".join(texts(result))
    assert not any("no deck or sourced item" in w for w in rulebook_warnings(game, FONTS))


@pytest.mark.parametrize("draft_name, deck_name, kind, matched", [
    ("Unit counters", "Units", "token", True),
    ("HQ counters", "HQ", "token", True),
    ("Marker counters", "Markers", "token", True),
    ("Coin tokens", "Coin", "token", True),
    ("Unit counters", "Units", "card", False),  # a card deck's cards are no counters
])
def test_a_wargames_counters_are_its_token_decks(draft_name, deck_name, kind, matched):
    """A wargame trial: '- 232 Unit counters' over the token deck “Units” was “no deck or sourced
    item of that name” (and '- 48 Marker counters' “did you mean Markers?”): a wargame lists its
    tokens as counters, so the word after a token deck's name may be either."""
    from pnpgen.rulebook.components import DataItem, _match
    deck = DataItem(deck_name, 232, "", "deck units", "", "units", kind=kind)
    assert _match(draft_name, [deck]) == ([deck] if matched else [])


@pytest.mark.parametrize("draft_name, deck_name, matched", [
    ("Tide dice", "Tide die", True),  # trial80: “1 Tide dice” was no deck (did you mean Tide die?)
    ("Supply boxes", "Supply box", True),
    ("Armies", "Army", True),
    ("Zombies", "Zombie", True),
    ("Bosses", "Boss", True),
    ("Prizes", "Prize", True),
    ("Epic cards", "Epic card", True),
    ("Tide dice", "Tile", False),
    ("Boss", "Bus", False),
])
def test_an_english_components_entry_matches_its_deck_in_the_singular_or_plural(draft_name, deck_name, matched):
    from pnpgen.rulebook.components import DataItem, _match
    deck = DataItem(deck_name, 1, "", "deck d", "", "d", kind="card")
    assert _match(draft_name, [deck]) == ([deck] if matched else [])


@pytest.mark.parametrize("entry, names, counts, note", [
    ("4 Player mats (double-sided)", ["Player mats"], [4], "(double-sided)"),
    ("28 Coin tokens (20 worth 1, 8 worth 5)", ["Coin tokens"], [28], "(20 worth 1, 8 worth 5)"),
    ("Four Player mats (one per player)", ["Player mats"], [4], "(one per player)"),
    ("Alice cards (53)", ["Alice cards"], [53], None),
])
def test_a_parenthesis_after_a_count_written_first_is_a_note_not_the_name(entry, names, counts, note):
    """An English designer's trial: '- 4 Player mats (double-sided)' was the component “Player
    mats (double-sided)”, '- 28 Coin tokens (20 worth 1, 8 worth 5)' one named “28 Coin tokens”
    counting 20, 1, 8, 5: neither matched its deck, which was listed again under Other contents."""
    got = parse_entry(entry)
    assert (got.names, got.counts) == (names, counts)
    assert [b.text for b in got.children] == ([note] if note else [])


def test_an_english_drafts_example_of_play_and_caution_are_boxed_as_a_japanese_drafts_are():
    """A wargame trial: 'Example: The 3/US armour unit in hex 1207 attacks…' under rule 8.2 was set as
    a term, “Example” in bold before its text, where a Japanese draft's 【例】 is a box on a tint
    (and out of the quick reference): ``Example:``, ``Example of play:`` and ``Caution:`` open one."""
    from pnpgen.rulebook.tree import Aside
    draft = ("Test Game\n\n## 8.0 Combat\n\n8.2 Odds\n\n8.2.1 Divide the attack by the defence.\n\n"
             "Example of play: The 3/US armour in hex 1207 attacks at 2-1 odds (see 8.2).\n"
             "- The die roll is a 4: DR.\n\nA paragraph after it.\n\n"
             "Caution: A unit retreats only once.\n\nExample: none.\n")
    section = parse(draft, "en").sections[0]
    sub = section.children[0]
    boxes = [b for b in sub.children if isinstance(b, Aside)]
    assert [(b.kind, b.label, [type(c).__name__ for c in b.children]) for b in boxes] == [
        ("example", "Example of play", ["DraftParagraph", "Bullet"]),
        ("caution", "Caution", ["DraftParagraph"]),
        ("example", "Example", ["DraftParagraph"])]
    assert boxes[0].children[0].text.startswith("The 3/US armour")
    assert not any(isinstance(b, Aside) for b in parse(draft.replace("Example", "Sample").replace(
        "Caution", "Warning"), "en").sections[0].children[0].children)


def test_a_run_of_term_lines_is_a_list_of_terms_whatever_case_their_text_starts_in():
    """A game trial: a glossary, ``Lit lighthouse: a lighthouse space with a Lamp on it.`` and two
    more such lines, was set as plain paragraphs (a term's text in lower case read as a sentence,
    as ``That is: the…`` alone is); two or more such lines in a row are items, their terms bold."""
    draft = ("Test Game\n\n## Glossary\n\nLit lighthouse: a lighthouse space with a Lamp on it.\n"
             "Market: the row of 5 face-up cards.\nTrash: remove a card from the game.\n\n"
             "## Rules\n\nThat is: the whole rule, a sentence.\n\nPlay on.\n")
    doc = parse(draft, "en")
    glossary, rules = doc.sections
    assert [(type(b).__name__, getattr(b, "term", None)) for b in glossary.children] == [
        ("Item", "Lit lighthouse"), ("Item", "Market"), ("Item", "Trash")]
    assert glossary.children[0].body == "a lighthouse space with a Lamp on it."
    assert [type(b).__name__ for b in rules.children] == ["DraftParagraph", "DraftParagraph"]


def test_markdown_marks_in_an_english_draft_are_a_warning_at_their_line(tmp_path):
    """A game trial: a draft written in Markdown (``Discard your **hand** … _played_ … [the
    market](#market)``) printed its asterisks, underscores and link as they stand, without a word;
    the check says so once, at the first, with how many more. Plain text, a product 2 * 3 and a
    word_with_underscores are no marks."""
    ws = make_workspace(tmp_path / "ws", game=TWO, deck=DECK)
    draft = STEPS_DRAFT.format(steps="1) Draw a card.\n2) Play 2 * 3 cards from your_hand.\n"
                                     "3) Discard your **hand** and every card you _played_. See [the market](#market).")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    warnings = [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "Markdown" in w]
    assert len(warnings) == 1, warnings
    assert re.search(r"draft\.en\.txt:12: Markdown marks print as written: “\*\*hand\*\*” and 2 more \(", warnings[0]), warnings
    (ws / "data" / "test" / "draft.en.txt").write_text(STEPS_DRAFT.format(steps="1) Play 2 * 3 cards from your_hand."),
                                                         encoding="utf-8")
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "Markdown" in w]


def test_the_cards_bold_markup_in_a_japanese_draft_is_a_warning_at_its_line(tmp_path):
    """Trial 17: a Japanese draft quoting a card's 「**+1アクション**」 printed its asterisks in the
    rulebook without a word (only an English draft was told of Markdown marks); it is said once, at
    the first, with how many more. A lone ＊ or * (注＊, 2 * 3) is no mark."""
    ws = make_workspace(tmp_path / "ws")
    draft = DRAFT.replace("２：カードを１枚出す。", "２：カードを１枚出す。\n　効果に**+1アクション**とあれば、"
                          "もう１枚出す。**購入**は１回。注＊：2 * 3 枚まで。")
    assert draft != DRAFT
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    said = [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "bold" in w]
    assert len(said) == 1 and re.search(r"draft\.txt:\d+: the cards' bold markup prints as written in the rulebook: "
                                        r"「\*\*\+1アクション\*\*」 and 1 more \(", said[0]), said
    (ws / "data" / "test" / "draft.txt").write_text(draft.replace("**", ""), encoding="utf-8")
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "bold" in w]


def test_steps_numbered_out_of_order_are_a_check_warning(tmp_path):
    ws = make_workspace(tmp_path / "ws", game=TWO, deck=DECK)
    steps = "\n".join(f"{n}) {t}" for n, t in zip((1, 2, 4), STEP_TEXTS))
    (ws / "data" / "test" / "draft.en.txt").write_text(STEPS_DRAFT.format(steps=steps), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    warnings = rulebook_warnings(game, FONTS)
    assert any("draft.en.txt:" in w and "numbered 1, 2, 4; expected 1 to 3" in w for w in warnings), warnings
    (said,) = [w for w in warnings if "draft.en.txt:" in w and "numbered" in w]
    assert "`1.`, `1)` or `Step 1:`" in said, said
    # a game trial: an English draft's titles were quoted 「PLAYING THE GAME」 (and the build's
    # report, in manifest.json, listed its sections 「…」 and joined by 、)
    assert "the steps of “PLAYING THE GAME” are numbered" in said, said
    (parsed,) = [line for line in read_rulebook(game, FONTS).report if line.startswith("parsed:")]
    assert parsed.startswith("parsed: title “Test Game”") and "(OVERVIEW, PLAYING THE GAME, END OF THE GAME)" in parsed, parsed
    assert "「" not in parsed and "、" not in parsed


def test_a_japanese_drafts_misnumbered_steps_are_told_with_its_own_step_marks(tmp_path):
    """A game trial: a Japanese draft's steps 1：, 2：, 4） got the English draft's hint
    (`1.`, `1)` or `Step 1:`), which a Japanese draft does not read as steps."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(
        "■■　テストゲーム　草案３\n\n■　ゲームの準備\n\n１：山を作る\n　混ぜます。\n２：配る\n　配ります。\n"
        "４：始める\n　始めます。\n", encoding="utf-8")
    (said,) = [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "numbered" in w]
    assert "numbered 1, 2, 4; expected 1 to 3" in said and "`１：` or `１）`" in said and "Step 1" not in said, said


def test_figure_after_and_caption_per_language_and_curly_quotes(tmp_path):
    figure = ("rulebook:\n  figures:\n    - after: {ja: ゲームの準備, en: Setup}\n"
              "      caption: {ja: 準備の例, en: \"A player's start\"}\n      size: [100, 100]\n"
              "      pieces:\n        - {deck: cards, piece: 1, x: 50, y: 50}\n")
    ws = make_workspace(tmp_path / "ws", game=TWO + figure, deck=DECK)
    draft = 'Test Game\n\n# Setup\n\nSay "Go" and take the player\'s cards.\n\n# Playing\n\n1) Draw a card -- or say "pass".\n'
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, FONTS, pictures=pictures_from_game(game, ws / "templates"))
    text = "".join(pdf_texts(result.files["rulebook.pdf"]))
    assert "Figure" in text and "A player’s start" in text and "{" not in text
    assert "“Go”" in text and "player’s cards" in text and '"' not in text.split("Proofing")[0]
    quick = next(t for t in pdf_texts(result.files["rulebook.pdf"]) if "Quick reference" in t and "p. " in t)
    assert "card—or say “pass”" in quick.replace("\n", " ") and '"' not in quick, quick  # its lines too
    assert not [w for w in result.warnings if "figure after" in w]


def test_a_caption_the_english_book_prints_in_japanese_is_warned_at_its_line(tmp_path):
    """A game trial: ``caption: 開始時の配置例`` printed 「Figure: 開始時の配置例」 in the English book,
    unwarned by check and build, where a deck's plain Japanese text is warned; the Japanese book
    and an English caption are not warned."""
    figure = ("rulebook:\n  figures:\n    - after: {ja: ゲームの準備, en: Setup}\n"
              "      caption: 準備の例\n      size: [100, 100]\n"
              "      pieces:\n        - {deck: cards, piece: 1, x: 50, y: 50}\n")
    ws = make_workspace(tmp_path / "ws", game=TWO + figure, deck=DECK)
    (ws / "data" / "test" / "draft.en.txt").write_text("Test Game\n\n# Setup\n\nDeal the cards.\n", encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    line = (TWO + figure).splitlines().index("      caption: 準備の例") + 1
    said = [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "figure caption" in w]
    assert len(said) == 1 and said[0].endswith(
        f"data/test/game.yaml:{line}:16: rulebook figure caption 「準備の例」 is plain ja text; the en rulebook prints "
        "it as written (a translation forgotten? write it as caption: {ja: …, en: …})"), said
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "figure caption" in w]
    (ws / "data" / "test" / "game.yaml").write_text(TWO + figure.replace("準備の例", "A start"), encoding="utf-8")
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "figure caption" in w]
    # given per language without en, it was warned as "printed in ja marked 〔ja〕", which the book never marks
    (ws / "data" / "test" / "game.yaml").write_text(TWO + figure.replace("準備の例", "{ja: 準備の例}"), encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    said = [w for w in rulebook_warnings(game, FONTS) + game.translations.warnings if "caption" in w.split("game.yaml")[-1]]
    assert len(said) == 1 and said[0].endswith(
        "rulebook figure caption 「準備の例」 has no en text; the en rulebook prints it as written (a translation "
        "forgotten? write it as caption: {ja: …, en: …})"), said
    (ws / "data" / "test" / "game.yaml").write_text(TWO + figure.replace("準備の例", "{ja: 準備の例, fr: Départ}"),
                                                    encoding="utf-8")
    with pytest.raises(InputError, match=r"caption\.fr: 'fr' is not one of the game's languages \(ja, en\)"):
        rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS)


def test_a_cover_line_or_edition_the_english_book_prints_in_japanese_is_warned_at_its_line(tmp_path):
    """trial72: ``cover: ルールブック`` printed 「ルールブック」 over “Stone Garden” on the English
    cover, unwarned, where a plain Japanese caption is warned; ``edition: 初版`` likewise in the
    book to hand out. Given per language, or built in Japanese, neither is warned."""
    book = "rulebook:\n  edition: 初版\n  cover: ルールブック\n"
    ws = make_workspace(tmp_path / "ws", game=TWO + book, deck=DECK)
    (ws / "data" / "test" / "draft.en.txt").write_text("Test Game\n\n# Setup\n\nDeal the cards.\n", encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    lines = (TWO + book).splitlines()
    said = [w[w.index("data/test/"):] for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS)
            if "rulebook cover" in w or "rulebook edition" in w]
    assert sorted(said) == sorted([
        f"data/test/game.yaml:{lines.index('  cover: ルールブック') + 1}:10: rulebook cover 「ルールブック」 is plain ja "
        "text; the en rulebook prints it as written (a translation forgotten? write it as cover: {ja: …, en: …})",
        f"data/test/game.yaml:{lines.index('  edition: 初版') + 1}:12: rulebook edition 「初版」 is plain ja text; the en "
        "rulebook prints it as written (a translation forgotten? write it as edition: {ja: …, en: …})"]), said
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "rulebook cover" in w]
    (ws / "data" / "test" / "game.yaml").write_text(
        TWO + "rulebook:\n  edition: {ja: 初版, en: First edition}\n  cover: {ja: ルールブック, en: Rulebook}\n",
        encoding="utf-8")
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS)
                if "rulebook cover" in w or "rulebook edition" in w]


def test_the_quick_reference_gives_the_tie_break_after_the_winner_and_the_end_once():
    """"In a tie, …" after the sentence naming the winner is its tie-break (the English book left it
    out, the Japanese one had 同点の場合は…); a section titled "End of the game" gives its ending
    sentence once, under the end, not again under scoring."""
    from pnpgen.rulebook.quickref import quick_reference

    draft = ("Tiles\n\nPLAYING\n\n1) Draw a tile. Put it next to another.\n\nEND OF THE GAME\n\n"
             "The game ends when the stack is empty. The player with the most points wins. "
             "In a tie, the player with more resource markers wins.\n")
    quick = quick_reference(parse(draft, "en").rules, latin=True)
    assert [line.text for line in quick.end] == ["The game ends when the stack is empty."]
    assert [line.text for line in quick.scoring] == [
        "The player with the most points wins.", "In a tie, the player with more resource markers wins."]


def test_the_quick_reference_finds_cards_dealt_each_and_every_tie_break():
    """「各プレイヤーに５枚ずつ配ります」 is the starting hand (the quick reference said 草案に記載なし,
    looking only for 手札 and a number); 「それでも同点の場合…」 is a second tie-break after the first."""
    from pnpgen.rulebook.quickref import quick_reference

    draft = ("■■　工房　草案１\n\n■　ゲームの準備\n　建物カードを混ぜて山札とし、各プレイヤーに５枚ずつ配ります。\n\n"
             "■　ゲームの流れ\n１：配置\n　ワーカーを置きます。\n\n■　得点計算\n　得点を合計します。\n"
             "　最も得点の高いプレイヤーの勝利です。同点の場合、資源の多いプレイヤーの勝利です。"
             "それでも同点の場合、勝利を分かち合います。\n")
    quick = quick_reference(parse(draft, "ja").rules, latin=False)
    assert [line.text for line in quick.setup] == ["建物カードを混ぜて山札とし、各プレイヤーに５枚ずつ配ります。"]
    assert [line.text for line in quick.scoring][-3:] == [
        "最も得点の高いプレイヤーの勝利です。", "同点の場合、資源の多いプレイヤーの勝利です。", "それでも同点の場合、勝利を分かち合います。"]


def test_a_misspelt_component_of_an_english_draft_is_quoted_in_english_with_the_name_meant(tmp_path):
    """A designer's “Lanten tokens” was said as 「Lanten tokens」 with no hint of the deck meant."""
    ws = english_workspace(tmp_path / "en")
    draft = ws / "data" / "test" / "draft.en.txt"
    text = draft.read_text(encoding="utf-8")
    name = load_game(Workspace(ws), "test", lang="en").decks[0].name
    assert name in text, text
    draft.write_text(text.replace(name, name[:-2] + name[-1], 1), encoding="utf-8")  # one letter dropped
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    said = [w for w in result.warnings if "has no deck or sourced item" in w and (name[:-2] + name[-1]) in w]
    assert said and said[0].endswith(f"in the data; did you mean {name}? (the draft is yours to edit: pnpgen never changes it)"), \
        result.warnings
    assert f"“{name[:-2] + name[-1]}”" in said[0] and "「" not in said[0]


SETUP_DRAFT = """Test Game

OVERVIEW

A small game about 【tiles】 and cards. A longer sentence follows so that the paragraph runs
onto a second line, and the 【hand limit】 term stands in the middle of it, far from its start.

SETUP

1. Shuffle the deck.
2. Deal five cards to each player.

PLAYING THE GAME

1) Draw a 【tile】
Take the top card of the pile and add it to your 【hand】.
"""


@pytest.fixture(scope="module")
def setup_book(tmp_path_factory):
    ws = english_workspace(tmp_path_factory.mktemp("setup"), draft_en=SETUP_DRAFT)
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts")
    return result, texts(result), pdf_glyphs(result.files["rulebook.pdf"])


def test_a_one_sentence_step_is_a_numbered_line_of_the_text_not_a_heading_of_the_contents(setup_book):
    """``1. Shuffle the deck.`` in SETUP was set as heading 2.1 and listed in the contents, one
    heading per instruction; it is a line of the text with its number hanging before it. A step
    titled on its line (``1) Draw a tile`` with its body under it) stays a heading."""
    doc = parse(SETUP_DRAFT, "en")
    assert [(s.number, s.title, s.sentence) for s in doc.steps] == [
        (1, "Shuffle the deck", "Shuffle the deck."), (2, "Deal five cards to each player", "Deal five cards to each player."),
        (1, "Draw a 【tile】", "")]
    result, pages, glyphs = setup_book
    contents = pages[1]
    assert "3.1" in contents and "Draw a tile" in contents
    assert "Shuffle" not in contents and "2.1" not in contents and "Deal five" not in contents
    body = next(i for i, p in enumerate(pages) if "Shuffle the deck." in p and i > 1)
    line = [g for g in glyphs[body] if abs(g.y - next(h.y for h in glyphs[body] if h.char == "S" and
                                                      pages[body][glyphs[body].index(h):].startswith("Shuffle")))
            < 0.3]
    text = "".join(g.char for g in line)
    assert text.startswith("1.") and "Shuffle the deck." in text, text
    number, word = line[0], next(g for g in line if g.char == "S")
    assert word.x - number.x > 4, "the number hangs left of the step's text"
    assert number.font.endswith("Bold") and "2.1" not in pages[body]
    quick = next(p for p in pages if p.lstrip().startswith("Quick reference"))
    assert re.search(r"1\.\u2002Shuffle the deck\s*p\. 3", quick), quick  # listed with its page, numbered as printed
    assert "2.1" not in quick and "3.1\u2002Draw a tile" in quick


def test_index_terms_of_an_english_book_print_without_their_lenticular_brackets(setup_book):
    """【】 mark an index term; an English book printed them as they stand (CJK brackets from the
    fallback font in a Latin line). The term is printed alone, in the accent colour, in text,
    headings, contents and quick reference alike, and the index still lists it with its page."""
    result, pages, glyphs = setup_book
    rules = "".join(pages[:next(i for i, p in enumerate(pages) if p.lstrip().startswith("Index"))])
    assert "【" not in rules and "】" not in rules
    assert "A small game about tiles and cards." in rules.replace("\r\n", " ").replace("\n", " ")
    assert "3.1 Draw a tile" in pages[1].replace("\u2002", " ")
    index = next(p for p in pages if p.lstrip().startswith("Index"))
    for term in ("tiles", "hand limit", "tile", "hand"):
        assert re.search(rf"^{term}\s*\d+\s*$", index, re.M), index
    body = next(i for i, p in enumerate(pages) if "A small game" in p and i > 1)
    colours = fill_colours(result.files["rulebook.pdf"], body)
    start = pages[body].index("about tiles")
    ink, accent = colours[start], (0x2f, 0x4f, 0x6f)
    assert ink != accent and colours[start:start + 11] == [ink] * 5 + [colours[start + 5]] + [accent] * 5
    assert colours[pages[body].index(" and cards")+1] == ink, "the term alone in the accent colour"


def fill_colours(pdf: bytes, page: int) -> list[tuple[int, int, int]]:
    """The fill colour of each character of a page, in the order of its text (pdfium)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    tp = pdfium.PdfDocument(pdf)[page].get_textpage()
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    out = []
    for i in range(tp.count_chars()):
        raw.FPDFText_GetFillColor(tp, i, r, g, b, a)
        out.append((r.value, g.value, b.value))
    return out


FILLERS = 41  # lines of text before the lead-in that bring it to the last line of page 4


def _lead_in_draft(lang: str, end: str, lead: str = "各プレイヤーは次のものを受け取ります") -> str:
    """A setup section of FILLERS one-line paragraphs, then a paragraph ending with ``end``
    (a colon: a lead-in) and the bulleted list after it; ``lead``: the Japanese paragraph's words."""
    if lang == "en":
        fill = "\n".join(f"Filler line number {i} of the setup." for i in range(FILLERS))
        return ("# Test Game — Draft 3\n\n## Overview\n\nA small game for testing.\n\n## Components\n\n"
                f"- 11 Test cards\n\n## Setup\n\n{fill}\n\nEach player takes the following{end}\n"
                "- Alpha item first\n- Beta item second\n\nThen the game begins.\n")
    fill = "\n".join(f"　準備の文その{i}です。" for i in range(FILLERS))
    return ("■■　テストゲーム　草案３\n\n■　概要\n\n　テスト用の小さなゲームです。\n\n■　コンポーネント\n\n"
            "◇テストカード（１１枚）\n　名前と本文が書かれたカードです。\n\n■　ゲームの準備\n\n"
            f"{fill}\n　{lead}{end}\n・甲の項目\n・乙の項目\n　それからゲームを始めます。\n")


def _pages_of(tmp_path: Path, lang: str, end: str, lead: str = "各プレイヤーは次のものを受け取ります") -> tuple[int, int]:
    """The pages (0-based) of the lead-in and of the list's first item, read back from the PDF."""
    ws = english_workspace(tmp_path / f"{lang}{end}", draft_en=_lead_in_draft(lang, end) if lang == "en" else None)
    if lang == "ja":
        (ws / "data" / "test" / "draft.txt").write_text(_lead_in_draft(lang, end, lead), encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang=lang)
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    pages = [re.sub(r"\s", "", p) for p in texts(result)]
    lead, first = (("Eachplayertakesthefollowing", "Alphaitemfirst") if lang == "en"
                   else (lead, "甲の項目"))
    at = next(i for i, p in enumerate(pages) if lead in p)
    return at, next(i for i, p in enumerate(pages) if first in p and i >= at)


@pytest.mark.parametrize("lang, colon", [("en", ":"), ("ja", "：")])
def test_a_lead_in_never_stays_alone_at_a_pages_foot_without_its_list(tmp_path, lang, colon):
    """A paragraph ending with a colon introduces the list after it: where it would be the last
    line of a page, it goes over with the list. The same paragraph ending with a full stop is no
    lead-in and stays at the foot (which shows it stands there at FILLERS)."""
    full_stop = "." if lang == "en" else "。"
    at, first = _pages_of(tmp_path, lang, full_stop)
    assert first == at + 1, "the draft no longer brings the paragraph to a page's foot: change FILLERS"
    at, first = _pages_of(tmp_path, lang, colon)
    assert first == at, f"the lead-in on page {at + 1}, its list from page {first + 1}"


def test_a_japanese_lead_in_pointing_at_what_follows_keeps_with_its_list_though_it_ends_with_a_full_stop(tmp_path):
    """「…以下のものを受け取ります。」 introduces the list after it as a colon does (book48:
    アジアンデリバリー's 「施設には以下の種類があります。」 stood alone at page 13's foot, its list of
    施設 on page 14); the same paragraph with 次のもの stands at the foot (the test above)."""
    at, first = _pages_of(tmp_path, "ja", "。", lead="各プレイヤーは以下のものを受け取ります")
    assert first == at, f"the lead-in on page {at + 1}, its list from page {first + 1}"


def test_markdown_tables_rules_quotes_and_card_icons_in_a_draft_are_warnings(tmp_path):
    """The skirmish trial: a draft's Markdown table (``| Roll | Result |``), its ``---`` rule, a
    ``> Tip`` quote and a card icon in the rules (``roll one die per {sword}``) printed as they
    stand, pipes and braces and all, without a word (only bold, italics, code and links were told).
    Each is now told once, at the first, with how many more; a ruby {漢字|かんじ} and a plain
    hyphenated line are neither."""
    ws = make_workspace(tmp_path / "ws", game=TWO, deck=DECK)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")

    def told(steps: str) -> list[str]:
        (ws / "data" / "test" / "draft.en.txt").write_text(STEPS_DRAFT.format(steps=steps), encoding="utf-8")
        return [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS,
                                             icon_dirs(ws / "templates", "test"))
                if "Markdown" in w or "names no icon" in w]

    said = told("1) Draw a card.\n2) Roll one die per {sword}.\n\n---\n\n> Tip: keep back.\n\n"
                "| Roll | Result |\n|------|--------|\n| 1-3  | Miss   |\n")
    assert len(said) == 2, said
    assert re.search(r"draft\.en\.txt:\d+: Markdown marks print as written: “---” and 4 more \(", said[0]), said
    assert re.search(r"draft\.en\.txt:\d+: “\{sword\}” names no icon \(an SVG in templates/test/icons/", said[1]), said
    assert told("1) Draw a {漢字|かんじ} card.\n2) Play a well-known card - or two.") == []
    [rule] = told("1) Draw a card.\n\n" + "-" * 5000 + "\n")  # a rule of 5,000 hyphens: quoted clipped, not whole
    assert "print as written: “" + "-" * 59 + "…” (" in rule and len(rule) < 600, rule


def test_a_blank_line_after_a_step_with_its_text_on_its_line_parts_the_next_paragraph():
    """``3. Repair: Fix a tower. …`` then a blank line: the paragraph after it is set apart (it ran
    on right under the step's text, two paragraphs reading as one); the blank line under a step
    that is only a title adds no space."""
    draft = ("Game\n\nPLAYING\n\n1. Repair: Fix a tower. It costs oil.\n\nMore text here.\n\n"
             "2. Buy\n\nSpend coins.\n\n3. Play a card.\nThen draw.\n")
    steps = parse(draft, "en").sections[0].children
    assert [[(c.text, c.gap_before) for c in s.children] for s in steps] == [
        [("Fix a tower. It costs oil.", False), ("More text here.", True)], [("Spend coins.", False)], [("Then draw.", False)]]


def test_an_english_drafts_slips_of_the_pen_are_proofing_notes(tmp_path):
    """``the the``, ``Its not``, ``color`` in rules that write ``colour`` twice: each a note of
    proof.txt with its draft line (an English draft had none: the analyser reads Japanese only);
    ``had had``, ``its own`` and a spelling the game's own name uses are none."""
    from pnpgen.rulebook.englishproof import slips

    draft = ("Test Game\n\n# Setup\n\nTake the the top card. Its not yours. It had had its own colour.\n\n"
             "# Playing\n\n1) Draw a card. Each colour counts.\n\n2) Play a card. The color of a card does not count.\n")
    ws = make_workspace(tmp_path / "ws", game=TWO, deck=DECK)
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    notes = [f.file for f in read_rulebook(load_game(Workspace(ws), "test", lang="en"), FONTS).findings]
    slipped = [n.split("draft.en.txt:")[1] for n in notes if "→" in n]
    assert [n.split(" (")[0] for n in slipped] == ["5: “the the” → “the”", "5: “Its” → “It’s”", "11: “color” → “colour"], notes
    assert not slips([(1, "The Harbor colour; Harbor Masters.")], {1}, ["Harbor Masters"])
    # an English designer's trial: "before its too late" was passed over
    assert [(s.found, s.suggest) for s in slips([(1, "Find them before its too late. Its your turn. Its own turn.")], set())] \
        == [("its", "it’s"), ("Its", "It’s")]


def test_a_number_keeps_its_unit_and_a_page_its_p_on_one_line(serif):
    """``300 g``, ``3 VP``, ``p. 5``: a line never ends with the number (or ``p.``) and starts the
    next with the unit (or the page): the space between is a no-break one (``300 |g.`` was set)."""
    from pnpgen.rulebook.typography import latin_typography

    _, measure = serif
    text = latin_typography("The board is 420 mm wide and weighs 300 g. See p. 5 for details; it scores 3 VP each turn.")
    assert "300\u00a0g." in text and "p.\u00a05" in text and "3\u00a0VP" in text
    assert latin_typography("Take 2 moves, then 3 more.") == "Take 2 moves, then 3 more."
    for chars in range(16, 60):
        ranges = set_lines(text, sum(map(measure, text[:chars])), measure, 0.0, 9, "en")
        assert not [text[s:e] for s, e in ranges[1:] if text[s:e].startswith(("mm", "g.", "5 ", "VP"))], chars


def test_a_figure_follows_a_one_sentence_step_written_as_the_draft_writes_it(tmp_path):
    """``after: Place the board in the middle.``, the step's line as the draft has it (with its full
    stop; its 【board】 as the book prints it): the figure follows that step. It was 'not shown;
    did you mean Place the 【board】 in the middle?', the suggestion differing by a full stop."""
    figure = ("rulebook:\n  figures:\n    - after: {ja: ゲームの準備, en: Place the board in the middle.}\n"
              "      size: [100, 100]\n      pieces:\n        - {deck: cards, piece: 1, x: 50, y: 50}\n")
    ws = make_workspace(tmp_path / "ws", game=TWO + figure, deck=DECK)
    draft = "Test Game\n\n# Setup\n\n1. Place the 【board】 in the middle.\n2. Deal two cards.\n\n# Playing\n\n1) Draw a card.\n"
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    said = rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS)
    assert not [w for w in said if "figure after" in w], said


def test_the_index_sorts_an_accented_term_among_its_letters():
    """【Élan】 is listed among the E's (accents ignored in alphabetizing, CMOS 16.62), not after
    【Zephyr】 under a second E at the end, as it was; capitals sort with their small letters."""
    from pnpgen.rulebook.termindex import TermIndex

    index = TermIndex({}, "Helvetica", latin=True)
    for term, page in (("Zephyr", 9), ("Élan", 3), ("ice", 4), ("Iceberg", 5), ("anchor", 2), ("eel", 6), ("Ship", 7)):
        index.notify("IndexTerm", (term, page))
    index.beforeBuild()
    assert [t for t, _ in index.entries()] == ["anchor", "eel", "Élan", "ice", "Iceberg", "Ship", "Zephyr"]


def test_a_title_in_capitals_above_numbered_sections_is_the_title():
    """``HARBOUR MASTERS`` then ``1. Overview``, ``2. Components``…: the capitals are the title and
    the numbered lines the sections (the capitals made one section of the whole book, its
    sections steps under it: no components list, the quick reference's turn the contents); a
    first line in capitals naming a section (``OVERVIEW``, ``SETUP``) stays that section."""
    draft = "HARBOUR MASTERS\n\n1. Overview\n\nA short game.\n\n2. Components\n\n- 4 Cards\n\n3. Setup\n\n1) Shuffle.\n"
    doc = parse(draft, "en")
    assert doc.title == "HARBOUR MASTERS"
    assert [s.title for s in doc.sections] == ["Overview", "Components", "Setup"] and doc.sections[1].is_components
    # a first line in capitals naming a section is that section (OVERVIEW was taken as the title, its text lost its heading)
    assert [s.title for s in parse("OVERVIEW\n\nText.\n\nSETUP\n\n1. Shuffle the cards.\n", "en").sections] == ["OVERVIEW", "SETUP"]
    setup = parse("SETUP\n\n1. Draw cards\n\n2. Play cards\n", "en")
    assert setup.title == "" and [s.title for s in setup.sections] == ["SETUP"] and len(setup.sections[0].children) == 2


def test_draft_n_on_the_line_under_the_title_is_the_draft_number():
    """``HARBOUR MASTERS`` / ``Draft 3``: the draft number, as in ``Ships (Draft 3)``; it was a
    paragraph printed above the first section, and the cover gave the data's number unchecked."""
    doc = parse("HARBOUR MASTERS\nDraft 3\n\n1. Overview\n\nA short game.\n\n2. Setup\n\nText.\n", "en")
    assert (doc.title, doc.draft_label, doc.draft_number, doc.preamble) == ("HARBOUR MASTERS", "Draft 3", 3, [])
    assert parse("# Ships (Draft 4)\n\nDraft 2\n\n## Overview\n\nA.\n", "en").draft_number == 4


def test_a_first_heading_saying_its_draft_is_the_title_when_every_heading_is_marked_alike():
    """A designer's trial (trial71): ``# Moon-Viewing Feast — draft 1`` over ``# Overview``,
    ``# Setup``… (every heading one ``#``, as Markdown marks them) printed a section 1 named
    "Moon-Viewing Feast — draft 1" on the rule sheet and in the book, and the draft's number was
    not read. A first heading that says its draft is the title; a first one that does not stays a
    section (``# Overview`` over ``# Setup``)."""
    doc = parse("# Moon-Viewing Feast — draft 1\n\n# Overview\n\nWin tricks.\n\n# Setup\n\n1. Deal.\n", "en")
    assert (doc.title, doc.draft_number) == ("Moon-Viewing Feast", 1)
    assert [s.title for s in doc.sections] == ["Overview", "Setup"]
    plain = parse("# Overview\n\nWin tricks.\n\n# Setup\n\n1. Deal.\n", "en")
    assert plain.title == "" and [s.title for s in plain.sections] == ["Overview", "Setup"]



_WORDS = ("a of the is to self-explanatory decision-making hand-management well-established "
          "counter-intelligence round-by-round end-of-game resource-collecting").split()
COMPOUNDS = ("## Playing the game\n\n" + "".join(
    " ".join(_WORDS[(k * 7 + j * j) % len(_WORDS)] for j in range(28)).capitalize() + ".\n\n" for k in range(12))
    + "The Giant is 5'11\" tall on a 12\" board, as in the 1990's \"Take 5\" game.\n")


def test_a_compound_breaks_only_at_its_hyphen_and_feet_and_inches_are_primes(tmp_path):
    """A compound written with its hyphen breaks there alone (CMOS 7.42): a loose line took
    ``re-`` of ``resource-collecting`` (``de-`` | ``cision-making``), two hyphens of one kind in
    one word. ``5'11"`` is printed with primes (5′11″), not as closing quotes (5’11”); the
    apostrophe of ``1990's`` and the quotes of ``"Take 5"`` stay."""
    ws = english_workspace(tmp_path, MARKDOWN.split("## Playing the game")[0] + COMPOUNDS)
    game = load_game(Workspace(ws), "test", lang="en")
    pdf = build_rulebook(game, ws / "fonts", rules_only=True).files["rulebook.pdf"]
    pages = pdf_glyphs(pdf)
    lines: dict[tuple[int, float], list] = {}
    for n, page in enumerate(pages):
        for g in page:
            if g.obj is not None and 20 < g.y < 190:  # the body, not the running head or folio
                lines.setdefault((n, round(g.y, 1)), []).append(g)
    ends = ["".join(g.char for g in sorted(gs, key=lambda g: g.x)).replace("\ufffe", "-").rstrip()  # (pdfium: a
            for _, gs in sorted(lines.items())]  # line-end hyphen is U+FFFE)
    broken = [re.search(r"[A-Za-z]+-$", e).group() for e in ends if re.search(r"[A-Za-z]-$", e)]
    assert len(broken) > 3, ends
    # each a compound's own hyphen: the letters before it end with a word the draft writes with its
    # hyphen (pdfium gives a justified line's words without spaces between them: ``roundresource-``)
    assert all(any(re.search(rf"\b{b[k:]}", COMPOUNDS) for k in range(len(b) - 1)) for b in broken), broken
    text = "".join(g.char for page in pages for g in page)
    assert "5′11″" in text and "12″" in text and "1990’s" in text and "“Take 5”" in text and "’11" not in text
    primes = [g for page in pages for g in page if g.char in "′″"]
    assert len(primes) == 3 and all(fontreg.has_glyph(g.font, g.char) for g in primes), [(g.char, g.font) for g in primes]


def test_a_tie_of_two_spellings_goes_to_the_names_then_to_the_first_written():
    """An American game of Harbor tokens whose draft wrote harbors once and harbours once: the
    British harbours won every tie ('as written first', though it was not), so the note asked
    the designer to write harbours. The names' spelling decides a tie, else the one written first."""
    from pnpgen.rulebook.englishproof import slips

    lines = [(5, "Trade at harbors."), (9, "1. Count your harbours."), (12, "Score colour; the color bonus.")]
    said = [(s.line, s.found, s.suggest) for s in slips(lines, {5, 9, 12}, ["Harbor tokens"])]
    assert said == [(9, "harbours", "harbors (1×)"), (12, "color", "colour (1×)")], said
    said = [(s.line, s.found) for s in slips([(3, "Color first."), (4, "Then colour.")], {3, 4})]
    assert said == [(4, "colour")], said  # no name: the one written first
    said = [(s.line, s.found) for s in slips([(3, "Harbours, harbours."), (4, "Two harbors.")], {3, 4}, ["Harbor"])]
    assert said == [(4, "harbors")], said  # a clear majority still wins over the names' spelling


def test_the_quick_references_setup_heading_reads_as_english(tmp_path):
    """An American trial: the setup's steps stood under "Setup counts" (the Japanese heading is
    準備（人数と枚数）, setup with its counts): the English heading is "Setup"."""
    ws = make_workspace(tmp_path / "ws", game=TWO, deck=DECK)
    draft = "Test Game\n\n# Setup\n\n1. Shuffle the deck.\n2. Deal 5 cards to each player.\n\n# Playing\n\n1) Draw a card.\n"
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, FONTS, pictures=pictures_from_game(game, ws / "templates"))
    quick = next(t for t in pdf_texts(result.files["rulebook.pdf"]) if "Quick reference" in t and "p. " in t)
    assert re.search(r"\nSetup\s*\n", quick) and "Setup counts" not in quick and "Shuffle the deck" in quick, quick


def test_the_quick_references_heads_carry_no_bullet_and_its_items_do(english_book):
    """The English quick reference set • before its parts' heads and before their items alike
    (the Japanese sets ● and ・): a head is its bold title flush left, its items (a step's number,
    an item's •) indented under it."""
    _, result, _ = english_book
    pages = pdf_glyphs(result.files["rulebook.pdf"])
    page = next(p for p in pages if "Turnsequence" in "".join(g.char for g in p if g.char.strip()))
    rows: dict[float, list] = {}
    for g in page:
        if g.on_page and g.char.strip():
            rows.setdefault(round(g.y, 1), []).append(g)
    lines = [sorted(r, key=lambda g: g.x) for _, r in sorted(rows.items())]
    text = ["".join(g.char for g in line) for line in lines]
    first = text.index("Turnsequence")
    heads = [t for line, t in zip(lines[first:], text[first:]) if "Bold" in line[0].font]
    items = [line for line, t in zip(lines[first:], text[first:]) if "Bold" not in line[0].font and not t.startswith("p.")]
    assert {"Turnsequence", "Setup", "Components"} <= set(heads), heads  # (“•Turnsequence” before)
    assert len(items) > 3 and min(i[0].x for i in items) - lines[first][0].x > 2  # indented under the heads



LONG_RUNS = ("Errata live at https://example.com/errataandclarifications" + "foreverythingwrittenhere" * 4 +
             " and a Xyzzyplugh" + "xyzzyplugh" * 8 + " is a word with no break.")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_run_wider_than_the_line_breaks_at_its_edge(serif, lang):
    """A web address's long part or a word with no hyphenation point that fits, wider than the
    line, is broken at the line's edge (a word with a hyphen, an address without), not run off it."""
    _, measure = serif
    width = sum(map(measure, "Errata live at https://example.com/errata"))
    ranges = set_lines(LONG_RUNS, width, measure, 0.0, 9, lang)
    assert "".join(LONG_RUNS[s:e] for s, e in ranges) == LONG_RUNS
    for s, e in ranges:
        line = LONG_RUNS[s:e].rstrip(" ") + ("-" if hyphenated(LONG_RUNS, e) else "")
        assert sum(map(measure, line)) <= width + 1e-6, line
    cut = [LONG_RUNS[s:e] for s, e in ranges if "errataand" in LONG_RUNS[s:e]][0]
    assert cut.startswith("/errataand") and not cut.endswith(".html")
    in_address = [e for _, e in ranges if LONG_RUNS.index("/errataand") < e < LONG_RUNS.index(" and a")]
    assert in_address and not any(hyphenated(LONG_RUNS, e) for e in in_address)
    in_word = [e for _, e in ranges if LONG_RUNS.index("Xyzzy") < e < LONG_RUNS.index(" is a")]
    assert in_word and all(hyphenated(LONG_RUNS, e) for e in in_word)


def test_a_long_address_in_the_book_stays_inside_the_page(tmp_path):
    """The A5 book's text block holds every character of a paragraph with a long address and
    a long word: nothing is printed past the page's right margin."""
    ws = english_workspace(tmp_path, MARKDOWN.replace("Is eleven cards enough?", "Is eleven cards enough?\n\n" + LONG_RUNS))
    result = build_rulebook(load_game(Workspace(ws), "test", lang="en"), ws / "fonts")
    page = [p for p in pdf_glyphs(result.files["rulebook.pdf"]) if "Xyzzy" in "".join(g.char for g in p)][0]
    assert max(g.x for g in page) < 148 - 10, max(g.x for g in page)


TABLE_DRAFT = """\
# Frontier Reach (Draft 1)

## Scoring

At the end of each round, score as this table says:

  Terrain      Points
  Forest       1 per connected tile
  Lake         2 per tile

When you pass 50 points, take a token.  Then start again from 0.
Draw a card.  Then play one.
"""


def test_an_aligned_table_in_an_english_draft_is_a_table_not_one_paragraph(tmp_path):
    """A newcomer's scoring table, columns parted by spaces as a Japanese draft's are: the English
    reader joined its rows as a paragraph's lines, printing "Terrain Points Forest 1 per connected
    tile Lake 2 per tile" with no word. It is set as its rows stand, its header ruled off; two
    spaces after a full stop, as typists set them, make no table."""
    doc = parse(TABLE_DRAFT, "en")
    blocks = doc.sections[0].children
    table = next(b for b in blocks if isinstance(b, Preformatted))
    assert table.lines == ["  Terrain      Points", "  Forest       1 per connected tile", "  Lake         2 per tile"]
    assert table.header and table.line == 7
    assert [b.text for b in blocks if isinstance(b, DraftParagraph)][-2:] == [
        "When you pass 50 points, take a token.  Then start again from 0.", "Draw a card.  Then play one."]
    ws = english_workspace(tmp_path, TABLE_DRAFT)
    result = build_rulebook(load_game(Workspace(ws), "test", lang="en"), ws / "fonts")
    page = next(p for p in texts(result) if "Terrain" in p)
    rows = [line.split() for line in page.splitlines() if line.split()[:1] in (["Terrain"], ["Forest"], ["Lake"])]
    assert rows == [["Terrain", "Points"], ["Forest", "1", "per", "connected", "tile"], ["Lake", "2", "per", "tile"]], page


CRT_DRAFT = """# Test Game

## Combat

Roll one die and read the table.

Roll  1:2  1:1  2:1
1     AE   AR   DR
2     NE   EX   DE

A unit that takes a step loss is flipped.

## END OF THE GAME

The game ends after turn 12.
"""


def test_a_results_table_in_capitals_is_a_table_not_sections():
    """A wargame's combat results table, its results in capitals (AE, DR) under a die roll: each
    row, short and all in capitals, was read as an ALL CAPS section heading, and the book printed
    "5 1 AE AR DR" … as sections, the table gone (trial76). A row of cells parted by column gaps
    is a table's row; an ALL CAPS heading of words still heads a section."""
    doc = parse(CRT_DRAFT, "en")
    assert [s.title for s in doc.sections] == ["Combat", "END OF THE GAME"]
    table = next(b for b in doc.sections[0].children if isinstance(b, Preformatted))
    assert table.lines == ["Roll  1:2  1:1  2:1", "1     AE   AR   DR", "2     NE   EX   DE"]
    assert table.header


def test_a_figure_after_a_japanese_title_in_the_english_book_says_to_give_it_per_language(tmp_path):
    """A tile game's figure ``after: 手番`` in a ja + en game with draft.en.txt: the English book's
    check said only that no title 「手番」 is in the draft; it now says how to place the figure in
    each language, and the per-language ``after:`` it shows places it."""
    figure = ("rulebook:\n  figures:\n    - after: ゲームの進行\n      size: [100, 100]\n"
              "      pieces:\n        - {deck: cards, piece: 1, x: 50, y: 50}\n")
    ws = make_workspace(tmp_path / "ws", game=TWO + figure, deck=DECK)
    (ws / "data" / "test" / "draft.en.txt").write_text("Test Game\n\n# Setup\n\nDeal the cards.\n", encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    (said,) = [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "figure after" in w]
    assert said.endswith("so it is not shown (the en draft's titles are en: give the figure's place in each "
                         "language, after: {ja: ゲームの進行, en: …})"), said
    (ws / "data" / "test" / "game.yaml").write_text(
        TWO + figure.replace("after: ゲームの進行", "after: {ja: ゲームの進行, en: Setup}"), encoding="utf-8")
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS) if "figure after" in w]
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "figure after" in w]


def test_a_figure_may_follow_the_components_section(tmp_path):
    """A wargame trial: a figure of the counters ``after: 2.0 Components`` was “no step, sub-heading
    or section of that title in the draft … did you mean 6.0 Movement?”, and not shown: the
    components section, set apart from the rules sections, never offered its title to a figure."""
    figure = ("rulebook:\n  figures:\n    - after: {ja: 準備, en: 2.0 Components}\n      size: [100, 100]\n"
              "      pieces:\n        - {deck: cards, piece: 1, x: 50, y: 50}\n")
    ws = make_workspace(tmp_path / "ws", game=TWO + figure, deck=DECK)
    (ws / "data" / "test" / "draft.en.txt").write_text(
        "Test Game\n\n## 1.0 Overview\n\nA test.\n\n## 2.0 Components\n\n- 11 Test cards\n\n"
        "## 3.0 Setup\n\nDeal the cards.\n", encoding="utf-8")
    said = rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS)
    assert not [w for w in said if "figure after" in w], said


def test_a_components_parenthesis_that_names_a_deck_is_part_of_its_name(tmp_path):
    """A wargame trial: ``- 11 Order of Battle (Red)`` and ``- 1 Order of Battle (Blue)``, two decks
    so named, were both “Order of Battle” with a note (Red) or (Blue): the first entry took both
    decks (“the draft states 11, the data has 12”), the second matched none. A parenthesis that
    completes the name of a deck or sourced item is part of the name; any other stays a note."""
    deck = DECK.replace("en: Test cards", "en: Order of Battle (Red)")
    game = TWO + "sourced:\n  - {name: {ja: 青の編成表, en: Order of Battle (Blue)}, count: 1}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game, draft=True)
    draft = ("Test Game\n\n## Components\n\n- 11 Order of Battle (Red)\n- 1 Order of Battle (Blue)\n"
             "- 4 Player mats (double-sided)\n\n## Setup\n\n1. Shuffle the deck.\n")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game_ = load_game(Workspace(ws), "test", lang="en")
    said = rulebook_warnings(game_, FONTS)
    assert not any("Order of Battle" in w for w in said), said
    assert any("“Player mats” of the draft has no deck" in w for w in said), said  # (double-sided): still a note
    text = "".join(texts(build_rulebook(game_, ws / "fonts")))
    assert "Order of Battle (Red)" in text and "Order of Battle (Blue)" in text
    assert "Other contents" not in text


def test_a_components_entry_whose_deck_name_holds_and_is_that_deck(tmp_path):
    """A euro trial (Harbour Guilds): ``- 24 Fish and spice``, the draft naming the deck “Fish and
    spice” as written, was split at “and” into “Fish” and “spice”: “component “Fish, spice” of the
    draft has no deck … did you mean Fish and spice?”, and the deck listed under Other contents.
    A name that, unsplit, is a deck's (or a sourced item's, ``Pen & paper``) is that one entry;
    ``1 Board and 4 Markers`` still lists two."""
    deck = DECK.replace("en: Test cards", "en: Fish and spice")
    game = TWO + "sourced:\n  - {name: {ja: 筆記用具, en: Pen & paper}, count: 4}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game, draft=True)
    draft = ("Test Game\n\n## Components\n\n- 11 Fish and spice\n- Pen & paper (4)\n"
             "- 1 Board and 4 Markers\n\n## Setup\n\n1. Shuffle the deck.\n")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    said = rulebook_warnings(load_game(Workspace(ws), "test", lang="en"), FONTS)
    assert not any("Fish" in w or "Pen" in w for w in said), said
    assert any("“Board, Markers” of the draft has no deck" in w for w in said), said
    assert parse_entry("24 Fish and spice").whole == "Fish and spice"
    assert parse_entry("Pen & paper (4)").whole == "Pen & paper"
    assert parse_entry("1 Board and 4 Markers").whole == ""


def test_a_rule_cases_number_is_kept_in_its_sub_heading(tmp_path):
    """A wargame trial: ``5.1 Movement Points`` was set as the sub-heading “Movement Points”, its
    number gone, while the cases under it kept theirs (``5.1.1 A unit may…``) and the text cites
    “see 5.1”. The heading keeps the draft's number; a figure's ``after:`` finds it with or without."""
    figure = ("rulebook:\n  figures:\n    - {after: {ja: 準備, en: Movement Points}, caption: {ja: 図, en: Moves},"
              " size: [100, 100], pieces: [{deck: cards, piece: 1, x: 50, y: 50}]}\n")
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO + figure, draft=True)
    draft = ("Test Game\n\n## Components\n\n- 11 Test cards\n\n## Movement\n\n5.1 Movement Points\n"
             "5.1.1 A unit may move up to its movement points (see 5.1).\n\n5.2 Zones of Control\n"
             "5.2.1 A unit entering an enemy's zone stops there.\n")
    (ws / "data" / "test" / "draft.en.txt").write_text(draft, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    _, doc = load_document(game)
    subs = [b.text for b in doc.blocks() if isinstance(b, Subheading)]
    assert subs == ["5.1 Movement Points", "5.2 Zones of Control"], subs
    assert not any("after" in w for w in rulebook_warnings(game, FONTS))
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"))
    text = "".join(texts(result)).replace("\u2002", " ")
    assert "5.1 Movement Points" in text and "5.2 Zones of Control" in text and "Moves" in text


@pytest.mark.parametrize("binding", ["left", "right"])
def test_an_english_letter_booklets_fold_marks_and_note_print(tmp_path, binding):
    """The English note is the longest (Letter's sheet the narrowest; right-bound longer still, set
    smaller): it too ends short of the fold and starts inside the printable area, and the fold marks
    print (preflight3)."""
    from test_rulebook_build import assert_fold_marks_print

    ws = english_workspace(tmp_path)
    game = load_game(Workspace(ws), "test", lang="en")
    result = build_rulebook(game, ws / "fonts", pictures=pictures_from_game(game, ws / "templates"), paper="letter",
                            binding=binding)
    assert "print Letter double-sided" in " ".join(texts(result, "rulebook-booklet.pdf"))
    assert_fold_marks_print(result.files["rulebook-booklet.pdf"], 279.4, 215.9)


def test_an_english_answer_after_a_blank_line_keeps_to_its_question(tmp_path):
    """review41: an English draft's blank line between 'Q:' and 'A:' (a paragraph's space in a
    Latin book) is no gap inside a pair: the answer on the line under its question, the pairs
    parted by a blank line's space above each question after an answer."""
    draft = MARKDOWN.replace("## Playing the game", "## Questions\n\nQ: Can I pass?\n\nA: Yes, once.\n\n"
                             "Q: Can I pass twice?\nA: No.\n\n## Playing the game")
    ws = english_workspace(tmp_path, draft)
    book = build_rulebook(load_game(Workspace(ws), "test", lang="en"), ws / "fonts", rules_only=True)
    [page] = [p for p in pdfium.PdfDocument(book.files["rulebook.pdf"]) if "Can I pass" in p.get_textpage().get_text_range()]
    text = page.get_textpage()
    ys = [text.get_charbox(text.get_text_range().find(s))[1] for s in ("Can I pass?", "Yes, once", "Can I pass twice", "No.")]
    line = ys[2] - ys[3]
    assert ys[0] - ys[1] == pytest.approx(line, abs=0.1) and ys[1] - ys[2] > 1.5 * line, ys
