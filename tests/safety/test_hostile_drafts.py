"""A rule draft written carelessly or with intent: a diagram wider than the page's text printed
its first 46 cells and lost the rest past the sheet's edge without a word; characters no font has
(control characters, bidi marks pasted in) printed as empty boxes with a warning that named no
line and showed an invisible mark as nothing. A diagram too wide is one error at its draft line
(the build and check alike), the missing characters a warning at the line of the first."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from conftest import DRAFT, make_workspace, run

MM = 25.4 / 72  # mm a point
WIDE_MAP = "\n".join(["　□□□", "　" + "□" * 40, "　□□□"])  # the second row 40 full-width cells: the text holds 33


def _drafted(tmp_path, draft: str):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"], draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    return ws


def test_a_diagram_wider_than_the_page_is_one_error_at_its_line(tmp_path, capsys):
    ws = _drafted(tmp_path, DRAFT.replace("２〜４人で遊びます。\n", "２〜４人で遊びます。\n\n" + WIDE_MAP + "\n"))
    for command in ("check", "rulebook"):
        assert run(ws, command, "--game", "test") == 2, command
        said = capsys.readouterr()
        err = said.out + said.err  # (check lists its problems on stdout)
        wanted = ("draft.txt:7: a diagram's row 2 is 40 full-width characters wide, wider than the page's text (33) "
                  "(expected rows of at most 33 full-width characters")
        assert wanted in err and "Traceback" not in err, err
    assert not (ws / "build" / "test" / "rulebook.pdf").exists()
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("２〜４人で遊びます。\n", "２〜４人で遊びます。\n\n"
                                                                  + WIDE_MAP.replace("□" * 40, "□" * 33) + "\n"),
                                                    encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test") == 0, capsys.readouterr().err  # 33 fit


def test_characters_no_font_has_are_warned_at_their_line_shown_as_escapes(tmp_path, capsys):
    ws = _drafted(tmp_path, DRAFT.replace("２〜４人で遊びます。", "２〜４人で\u200f遊び\u0628ます。"))
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr()
    err = said.out + said.err
    assert ("draft.txt:5: body font BIZUDMincho-Regular and its fallbacks lack 2 characters of the draft, printed as "
            "empty boxes: ب (U+0628) \\u200f (U+200F) (expected the characters taken out") in err, err
    assert "\u200f" not in err


def test_a_draft_of_nul_bytes_is_no_draft(tmp_path, capsys):
    """A file of another kind saved as draft.txt (NUL bytes, valid UTF-8): read as a draft with no
    rules, it built a rulebook of a cover and a contents page, with a warning. One error, its line."""
    ws = _drafted(tmp_path, DRAFT)
    (ws / "data" / "test" / "draft.txt").write_bytes(DRAFT.encode() + b"\x00" * 64)
    assert run(ws, "rulebook", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "draft.txt:16: the draft holds NUL characters" in err, err
    assert "(expected the draft saved as plain text" in err and not (ws / "build" / "test" / "rulebook.pdf").exists()


def test_a_diagram_under_a_sub_headings_indent_is_checked_at_that_indent(tmp_path, capsys):
    """A diagram under ◎ and 〇 sub-headings is set at their indent, one em each (hostile23 tested
    only the unindented case): 33 full-width cells fit the page's text, but not under two levels;
    the error names the room left there, and a row of that width builds."""
    def nested(cells: int) -> str:
        return DRAFT.replace("２〜４人で遊びます。\n", "２〜４人で遊びます。\n\n◎配置\n\n〇盤面\n\n"
                             + WIDE_MAP.replace("□" * 40, "□" * cells) + "\n")

    ws = _drafted(tmp_path, nested(33))
    assert run(ws, "rulebook", "--game", "test") == 2
    err = capsys.readouterr().err
    room = re.search(r"draft\.txt:11: a diagram's row 2 is 33 full-width characters wide, wider than the page's text "
                     r"\((\d+)\) \(expected rows of at most \1 full-width characters", err)
    assert room is not None and "Traceback" not in err, err
    assert 28 <= int(room.group(1)) < 33 and not (ws / "build" / "test" / "rulebook.pdf").exists()
    (ws / "data" / "test" / "draft.txt").write_text(nested(int(room.group(1))), encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test") == 0, capsys.readouterr().err  # the room it named fits
    doc = pdfium.PdfDocument(ws / "build" / "test" / "rulebook.pdf")
    boxes = []
    for page in doc:
        text = page.get_textpage()
        boxes += [text.get_charbox(k) for k in range(text.count_chars()) if text.get_text_range(k, 1) == "□"]
    doc.close()
    assert len(boxes) == 6 + int(room.group(1))  # every cell of the map printed, inside the text's 15–133 mm
    assert 15 + 9.5 / 72 * 25.4 < min(b[0] for b in boxes) * MM and max(b[2] for b in boxes) * MM <= 148 - 15


@pytest.mark.parametrize("pasted, said", [("\x1b[31m", "U+001B"), ("\x07", "U+0007"), ("\u202eEVIL", "U+202E"),
                                          ("\x0c", "U+000C"), ("\x85", "U+0085")])
def test_a_control_character_in_the_draft_is_an_error_at_its_line_and_column(tmp_path, capsys, pasted, said):
    """A terminal's escape, a bell or a bidi override pasted into the draft (``\\x1b[31m``, U+202E)
    printed an empty box, only warned as a character the font lacks (it went into the bookmarks
    and proof.txt, escaped there): an error at its line and column naming the code point, as the
    same character in the data's text is (data/yamlsrc.py), in check and the build alike."""
    ws = _drafted(tmp_path, DRAFT.replace("■　ゲームの進行", "■　ゲーム" + pasted + "の進行"))
    for command in ("check", "rulebook"):
        assert run(ws, command, "--game", "test") == 2, command
        said_ = capsys.readouterr()
        err = said_.out + said_.err
        assert f"draft.txt:12:6: control character {said} in the draft" in err, err
        assert "(expected the character deleted" in err and "Traceback" not in err, err
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", err), err
    assert not (ws / "build" / "test" / "rulebook.pdf").exists() and not (ws / "build" / "test" / "proof.txt").exists()


def test_a_count_is_read_from_the_first_digit_of_its_run_only():
    """The proofing's numbers (「３枚」) were looked for from every digit of a run: a draft line of
    90,000 digits with no 枚 after them (under the 300 kB draft limit) read the rest of the run
    from each, 80 CPU-s of the rulebook's. Read from a run's first digit, each run is read once;
    the counts found are the same."""
    from pnpgen.rulebook.proofnumbers import _NUMBER

    assert [m.group(0) for m in _NUMBER.finditer("手札を１２枚、山札から3回、9999")] == ["１２枚", "3回"]
    assert _NUMBER.search("１２３枚", 1) is None  # (inside the run: no start of a count)
