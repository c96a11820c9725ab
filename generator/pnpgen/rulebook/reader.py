"""Read a designer's draft: detect its encoding, repair what Shift_JIS lost, recover its lines.

Three things go wrong with real drafts, and each is repaired here and reported, never hidden:

* the encoding: UTF-8, UTF-8 with a BOM, UTF-16 with a BOM, or CP932 (Windows Shift_JIS);
* circled digits that lost their CP932 lead byte 0x87: ① is 0x87 0x40, so a broken conversion
  leaves U+FFFD followed by ``@`` (①), ``A`` (②) … ``S`` (⑳);
* newlines flattened into single ASCII spaces (every line of the draft joined into one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.data.textfile import MAX_DRAFT_BYTES, decode
from pnpgen.errors import InputError
from pnpgen.rulebook.tables import cells
from pnpgen.safetext import CONTROL, REPLACEMENT, control_char, written_in_cjk
from pnpgen.terms import is_latin

GETA = "〓"  # the Japanese typesetter's mark for a character that cannot be set

# CP932 row 0x87: 0x8740..0x8753 are ①..⑳; the trail byte read alone is '@', 'A', … 'S'.
_CIRCLED = {chr(0x40 + i): chr(0x2460 + i) for i in range(20)}
_BROKEN_CIRCLED = re.compile(REPLACEMENT + "([@-S])")

# A line of a flattened draft starts with one of these (after the joining space).
_LINE_STARTS = "　■◇〇○◎・"
_STEP_START = re.compile(r"[０-９0-9]+[：）]")
# a note's mark at a line's start (※, ＊, 注：, ※２): a space typed after it is the mark's, no line's end
_NOTE_MARK_BEFORE = re.compile(r"(?:^|[ \n　])(?:[※＊][0-9０-９]?|注[0-9０-９]?[：:])$")


_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_SECTION = re.compile(r"^■", re.M)  # a Japanese draft's section heading


def detect_language(text: str, declared: str) -> str:
    """The language to set a draft in: ``declared`` (the game's), unless that is Japanese (or
    another CJK language) and the draft holds no kana, kanji or hangul at all: then English; or
    that is a Latin-script language and the draft is written in Japanese (kana make a fifth of
    its letters or more, or its sections are ■ headings): then Japanese (a game switched to
    ``languages: [en]`` whose draft is still the Japanese one)."""
    if not is_latin(declared):
        return "en" if not written_in_cjk(text) else declared
    letters = sum(1 for c in text if c.isalpha())
    kana = len(_KANA.findall(text))
    return "ja" if letters and (kana * 5 >= letters or _SECTION.search(text) and kana) else declared


@dataclass
class Draft:
    """The draft as lines of text, ready for the parser, and what was done to get there."""

    path: Path
    text: str
    encoding: str
    lang: str = "ja"  # the language it is written in (``rulebook.draft_for``)
    repaired_digits: int = 0
    unrepaired: int = 0  # U+FFFD left after repair (replaced by 〓)
    flattened: bool = False
    report: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # the readings set in parentheses (``ruby_in_parentheses``): each as printed, 騎士（きし）, its
    # base and its reading, for the body text to set above its word (rulebook/bookruby.py); a
    # jukugo ruby's readings, 東京（とうきょう）, kept apart by ``PART`` (とう|きょう)
    rubies: tuple[tuple[str, str, str], ...] = ()

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def repair_circled_digits(text: str) -> tuple[str, int]:
    """U+FFFD + '@'/'A'/… → ①/②/…; returns the text and how many were repaired."""
    count = 0

    def fix(m: re.Match) -> str:
        nonlocal count
        count += 1
        return _CIRCLED[m.group(1)]

    return _BROKEN_CIRCLED.sub(fix, text), count


PART = "|"  # between a jukugo ruby's readings, one a base character, as the reader keeps them (``Draft.rubies``)

# Ruby as a draft writes it: Aozora Bunko's ``｜鏡《かがみ》`` (or ``|``), ``魔法陣《まほうじん》`` (the
# kanji right before the reading in kana), the cards' ``{騎士|きし}`` (either bar; a jukugo ruby's
# readings, ``{東京|とう|きょう}``, run together), and a 【term】's
# reading after its bracket, ``【台札】《だいふだ》`` (the term kept whole for the index)
_RUBY = re.compile(r"[｜|]([^｜|《》\n]+)《([^《》\n]+)》(?!》)"
                   r"|(?<!《)([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆ヶ]+)《([\u3041-\u309f\u30a1-\u30ffー]+)》(?!》)"
                   r"|\{([^{}|｜\n]+)[|｜]([^{}|｜\n]+(?:[|｜][^{}|｜\n]+)*)\}"
                   r"|(【[^【】《》\n]+】)《([\u3041-\u309f\u30a1-\u30ffー]+)》(?!》)")


# ruby marks no reading comes of, printed as written: a base parted by the end of its line
# (``{東\n京|とうきょう}``, ``｜東\n京《とうきょう》``: an editor's wrap, or a line broken by hand) and a
# reading left empty (``{騎士|}``, ``｜騎士《》``)
_BROKEN_RUBY = (
    (re.compile(r"\{([^{}|｜\n]+)\n([^{}|｜\n]*)[|｜]([^{}\n]*)\}"),
     "its word is parted by the end of the line", "{{{0}{1}|{2}}} on one line"),
    (re.compile(r"[｜|]([^｜|《》\n]+)\n([^｜|《》\n]*)《([^《》\n]*)》"),
     "its word is parted by the end of the line", "｜{0}{1}《{2}》 on one line"),
    (re.compile(r"\{([^{}|｜\n]+)[|｜]\}"), "it gives no reading", "{{{0}|よみがな}}, the reading after the bar"),
    (re.compile(r"[｜|]([^｜|《》\n]+)《》"), "it gives no reading", "｜{0}《よみがな》, the reading in 《》"),
)


def broken_rubies(text: str, path: Path) -> list[str]:
    """The ruby marks of the draft that set no reading (``_BROKEN_RUBY``), each at its line with the
    ruby written whole: the book printed their braces and bars as text, unwarned (book47)."""
    out = []
    for pattern, why, expected in _BROKEN_RUBY:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            written = m.group(0).replace("\n", "⏎")
            out.append((line, f"{path}:{line}: a ruby the rulebook cannot set, 「{written}」: {why}, so its "
                        f"marks print as written (expected {expected.format(*m.groups())}, "
                        f"or the word alone)"))
    return [said for _, said in sorted(out)]


# a column gap of an aligned table after a ruby: two or more spaces, then the next column
_GAP_AFTER = re.compile(r"[ 　]{2,}(?=[^ 　\n])")


def ruby_in_parentheses(text: str) -> tuple[str, int, str]:
    """``text`` with each ruby reading set in parentheses after its word (``readings_in_parentheses``);
    how many, and the first as written."""
    said, found, _ = readings_in_parentheses(text)
    return said, len(found), found[0] if found else ""


def readings_in_parentheses(text: str) -> tuple[str, list[str], tuple[tuple[str, str, str], ...]]:
    """``text`` with each ruby reading set in parentheses after its word, 鏡（かがみ）, as a book
    without ruby prints one (the book's body sets them above their words again, rulebook/bookruby.py;
    the rest of the book keeps them so); each ruby as written, and each as printed with its base and
    reading. A ruby followed by an aligned table's column
    gap keeps the next column where the draft put it: the gap takes up what the parentheses take
    more or less than the marks (``｜五光《ごこう》`` is a cell wider than 五光（ごこう）, ``{五光|ごこう}`` one
    narrower), so a table aligned as written stays one table (trial43's 役 table broke into pieces)."""
    found: list[str] = []
    shown_as: dict[str, tuple[str, str, str]] = {}
    out: list[str] = []
    at = 0
    for m in _RUBY.finditer(text):
        if m.start() < at:  # (inside the gap rewritten after the previous ruby)
            continue
        found.append(m.group())
        base, reading = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5, 7) if m.group(k))
        parted = re.sub("[|｜]", PART, reading)  # (a jukugo ruby's readings kept apart for the body text)
        reading = parted.replace(PART, "")
        shown = f"{base}（{reading}）"
        shown_as.setdefault(shown, (shown, base, parted))
        out += [text[at:m.start()], shown]
        at = m.end()
        gap = _GAP_AFTER.match(text, at)
        if gap:
            out.append(_gap_of(sum(map(cells, gap.group())) + sum(map(cells, m.group())) - sum(map(cells, shown))))
            at = gap.end()
    out.append(text[at:])
    return "".join(out), found, tuple(shown_as.values())


def _gap_of(width: int) -> str:
    """Spaces ``width`` half-width cells wide, two of them at least (a column gap): full-width ones and a
    half-width one for an odd cell."""
    width = max(width, 2)
    return " " * width if width < 4 else "　" * (width // 2) + " " * (width % 2)


def is_flattened(text: str) -> bool:
    """A draft whose newlines became spaces: one long line that still shows line starts."""
    body = text.strip("\n")
    return "\n" not in body and (" 　" in body or " ■" in body)


def unflatten(text: str) -> str:
    """Turn the joining spaces of a flattened draft back into newlines.

    A space becomes a newline when the next character starts a line (full-width indent, a
    heading mark, a numbered step) or when both neighbours are Japanese text, where a
    real space never stands. A space touching Latin text (``Alicematic 刻印抄``) stays, and so
    does one typed after a note's mark at a line's start (``※ ただし…``, the IME in half-width
    mode: a draft of one sentence a line read it as a line of its own, the ※ alone on it).
    """
    out = []
    n = len(text)
    for i, ch in enumerate(text):
        if ch != " ":
            out.append(ch)
            continue
        before = text[i - 1] if i > 0 else "\n"
        after = text[i + 1] if i + 1 < n else "\n"
        rest = text[i + 1 : i + 6]
        starts_line = after in _LINE_STARTS or rest.startswith("（!--") or bool(_STEP_START.match(rest))
        latin = (before.isascii() and not before.isspace()) or (after.isascii() and not after.isspace())
        note = not starts_line and bool(_NOTE_MARK_BEFORE.search(text, max(i - 4, 0), i))
        out.append("\n" if starts_line or not (latin or note) else " ")
    return "".join(out)


def read_text(data: bytes, path: Path) -> Draft:
    text, encoding = decode(data, path)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:  # (a file of NUL bytes read as a draft with no rules, an empty book, and a warning)
        raise InputError("the draft holds NUL characters, which no text holds: a file of another kind saved or "
                         "renamed as the draft (a word processor's document, a picture)?", path=path,
                         line=text.count("\n", 0, text.index("\x00")) + 1,
                         expected="the draft saved as plain text, UTF-8 or Shift_JIS (Word: Save As, Plain Text)")
    bad = CONTROL.search(text)
    if bad is not None:  # (as in the data's texts: an escape pasted from a terminal printed an empty box, warned as a glyph)
        line = text.count("\n", 0, bad.start()) + 1
        raise InputError(f"{control_char(bad.group())} in the draft: no character a book prints (pasted from a terminal "
                         "or a program's output?)", path=path, line=line, column=bad.start() - text.rfind("\n", 0, bad.start()),
                         expected="the character deleted: an editor that shows control characters shows it at this column")
    report = [f"draft {path.name}: encoding {encoding}"]
    warnings: list[str] = []
    text, repaired = repair_circled_digits(text)
    if repaired:
        report.append(f"draft {path.name}: repaired {repaired} circled digits (U+FFFD + '@'… → ①…)")
    unrepaired = text.count(REPLACEMENT)
    if unrepaired:
        first = text.index(REPLACEMENT)
        line = text.count("\n", 0, first) + 1
        warnings.append(
            f"{path}:{line}: {unrepaired} undecodable character{'s' * (unrepaired != 1)} (U+FFFD) that are no broken circled "
            f"digit; printed as {GETA}"
        )
        text = text.replace(REPLACEMENT, GETA)
    warnings += broken_rubies(text, path)  # (before the readings are read: 阪《おおさか》 of 「｜大⏎阪《おおさか》」 is one)
    text, found, rubies = readings_in_parentheses(text)
    if found:
        report.append(f"draft {path.name}: {len(found)} ruby reading{'s' * (len(found) != 1)} ({found[0]}…) set above their "
                      "words in the text, in parentheses after them in headings, tables and the index")
    flattened = is_flattened(text)
    if flattened:
        text = unflatten(text.strip("\n"))
        report.append(f"draft {path.name}: newlines were flattened into spaces; recovered {text.count(chr(10)) + 1} lines")
    return Draft(path, text, encoding, "ja", repaired, unrepaired, flattened, report, warnings, rubies)


def read_draft(path: Path) -> Draft:
    """Read and repair the draft file; a missing or unreadable file raises InputError."""
    path = Path(path)
    if not path.is_file():
        raise InputError(
            "draft file not found" if not path.exists() else "draft path is not a file",
            path=path,
            key="draft_file",
            expected="the designer's draft text (game.yaml draft_file, default draft.txt)",
        )
    if path.stat().st_size > MAX_DRAFT_BYTES:
        raise InputError(f"the draft is larger than {MAX_DRAFT_BYTES:,} bytes", path=path,
                         expected=f"a rule draft (the longest here is 23 kB); at most {MAX_DRAFT_BYTES:,} bytes")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read the draft: {e.strerror}", path=path) from None
    if not data.strip():
        raise InputError("draft file is empty", path=path, expected="the designer's draft text")
    return read_text(data, path)
