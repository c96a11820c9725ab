"""A section of answers read after the game (an escape room's solution, a mystery's culprit): a section
titled with 「ネタバレ」 or "spoiler(s)" starts a page of its own, and the quick reference, read during
play, repeats none of it."""

from __future__ import annotations

from conftest import DRAFT, make_workspace, run
from pdfprobe import texts
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.quickref import quick_reference

ANSWER = "犯人は時計職人です"


def _pages(tmp_path, title: str) -> list[str]:
    ws = make_workspace(tmp_path / title, draft=True)
    draft = DRAFT + f"\n■　{title}\n\n１：答え合わせ\n　{ANSWER}。\n"
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / title / "out")) == 0
    return texts((tmp_path / title / "out" / "test" / "rulebook.pdf").read_bytes())


def test_a_spoiler_section_starts_its_own_page_and_stays_out_of_the_quick_reference(tmp_path):
    pages = _pages(tmp_path, "解答編（ネタバレ注意）")
    answer = [n for n, text in enumerate(pages) if ANSWER in text]
    assert len(answer) == 1, answer  # the answer once: not repeated in the quick reference
    assert "カードを１枚出す" not in pages[answer[0]]  # the rules' last step is on the page before
    assert any("カードを１枚出す" in text for text in pages[:answer[0]])
    quick = next(text for text in pages if "早見表" in text and "カードを１枚引く" in text)
    assert "答え合わせ" not in quick
    # the same section without the word: set under the rules, on their page, and in the quick reference
    plain = _pages(tmp_path, "解答編")
    shared = [text for text in plain if ANSWER in text and "カードを１枚出す" in text]
    assert shared, plain
    assert any("早見表" in text and "答え合わせ" in text for text in plain)


def test_a_spoiler_section_first_in_the_book_follows_the_contents_without_a_blank_page(tmp_path):
    """The rules start on the page after the contents: a spoiler section first broke the page again
    there, and the book had an empty page between the contents and its first section."""
    ws = make_workspace(tmp_path, draft=True)
    draft = DRAFT.replace("■　概要", f"■　解答編（ネタバレ）\n\n　{ANSWER}。\n\n■　概要")
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    pages = texts((tmp_path / "out" / "test" / "rulebook.pdf").read_bytes())
    contents = next(n for n, text in enumerate(pages) if "目次" in text)
    assert ANSWER in pages[contents + 1], pages[contents + 1]  # (an empty page there, its number alone)


def test_an_english_drafts_spoilers_section_is_one():
    draft = ("# Clock Tower\n\n## Playing\n\n1. Draw a card.\n2. Play a card.\n\n## Solution (spoilers)\n\n"
             "1. Check the answer.\n\n## Spoilt for choice\n\nNot a spoiler section.\n")
    doc = parse(draft, "en")
    assert [(s.title, s.is_spoiler) for s in doc.rules] == [
        ("Playing", False), ("Solution (spoilers)", True), ("Spoilt for choice", False)]
    sections = [steps.section.title for steps in quick_reference(doc.rules, latin=True).steps]
    assert sections == ["Playing"]
