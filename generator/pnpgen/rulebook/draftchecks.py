"""The draft's own warnings, found before a page is set (``book.read_rulebook`` gathers them):
steps and sections numbered out of turn or twice, Markdown and the cards' ``**bold**`` that print
as written, lines numbered ``１．``, ``{name}``s no icon has, characters the fonts lack, and the
draft's title, draft number and player count against the data's. Each is said at the draft's
line of the first, with how many more."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from pnpgen.data.model import Game, is_placeholder
from pnpgen.messages import counted
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.numbering import misnumbered_steps, section_numbering, twice_numbered_cases
from pnpgen.rulebook.tree import Document, Item, Step, to_ascii_digits
from pnpgen.safetext import quoted, shown_invisible
from pnpgen.text import wide_icon_names

PLAYERS_RANGE = "[-–〜~～－]"  # 3-5, 3〜5, and 3～5 or 3－5 as a Japanese input method types them


def consistency(doc: Document, game: Game, path: Path, title: str) -> list[str]:
    """Title, draft number and player count: the data against the draft's own statement.
    ``title``: the game's title in the draft's language (the Japanese one for a Japanese draft
    set in an ``--lang en`` build)."""
    out = []
    norm = lambda s: re.sub(r"[\W_]+", "", to_ascii_digits(str(s)).casefold())  # noqa: E731
    if doc.title and norm(doc.title) != norm(title):
        out.append(f"{path}:1: title differs: the draft says {quoted(doc.title)}, the data says {quoted(title)}")
    if doc.draft_number is not None and str(game.draft).strip() and norm(game.draft) != str(doc.draft_number):
        out.append(f"{path}:1: draft number differs: the draft says {doc.draft_label} ({doc.draft_number}), "
                   f"the data says {game.draft}")
    stated = doc.stated_players()
    if stated and not is_placeholder(game.players):
        m = re.fullmatch(rf"(\d+)\s*(?:{PLAYERS_RANGE}\s*(\d+))?", str(game.players).strip())
        data = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else None
        if data != stated:
            said = f"{stated[0]} to {stated[1]} players" if stated[0] != stated[1] else counted(stated[0], "player")
            out.append(f"{path}:{doc.players_line()}: player count differs: the draft says {said}, "
                       f"the data says {game.players!r}")
    return out


def step_numbering(doc: Document, path: Path, latin: bool) -> list[str]:
    """A rules section whose numbered steps do not run 1, 2, 3…: a step skipped, repeated, or
    read as a paragraph (a line the parser could not take for a step), at the first step out of
    sequence; with the step marks of the draft's script (a Japanese draft's are １： and １）)."""
    marks = "`1.`, `1)` or `Step 1:`" if latin else "`１：` or `１）` at the start of the line"
    return [f"{path}:{step.line}: the steps of {quoted(s.title)} are numbered {', '.join(map(str, numbers))}; "
            f"expected 1 to {len(numbers)} (a step line that is not read as a step becomes a paragraph: "
            f"one step a line, {marks})" for s, numbers, step in misnumbered_steps(doc)]


def section_numbers(doc: Document, path: Path) -> list[str]:
    """Sections the draft numbers alike (「■　２．０」 twice), each told at its line; and a draft
    that numbers some sections and not others, told once with the unnumbered ones (they keep the
    book's count: 「■　ゲームの終了」 after 「■　５．０　移動」 prints 5 as well, or another section's
    number)."""
    twice, plain = section_numbering(doc)
    out = [f"{path}:{s.line}: section {quoted(s.title)} is numbered {number} as {quoted(sections[0].title)} "
           f"(line {sections[0].line}) is: the book prints both as {number}; number each section once"
           for number, sections in twice for s in sections[1:]]
    if plain:
        names = ", ".join(f"{quoted(s.title)} (line {s.line})" for s in plain[:5])
        more = f" and {len(plain) - 5} more" if len(plain) > 5 else ""
        numbered = next(s for s in doc.rules if s not in plain)
        out.append(f"{path}:{plain[0].line}: some sections carry their own number ({quoted(numbered.title)}) and "
                   f"{len(plain)} {'does' if len(plain) == 1 else 'do'} not: {names}{more}; these print the "
                   f"book's count, which can repeat or skip the numbered ones' numbers: number all sections or none")
    return out


CASES_TOLD = 5  # cases numbered twice each told at its line; the rest in one line (proof.txt lists each)


def case_numbering(doc: Document, path: Path) -> list[str]:
    """A rule case numbered as an earlier one is (two 「３．２．１」), at its line with the first's; past
    ``CASES_TOLD`` the rest in one line at the first of them (a draft pasted twice said 5,000 warnings)."""
    twice = twice_numbered_cases(doc)
    out = [f"{path}:{again.line}: case {again.number} is numbered as the case on line {first.line} is: the book "
           f"prints both as {again.number} and a reference to {again.number} goes to the first; number each case once"
           for first, again in twice[:CASES_TOLD]]
    rest = [again for _, again in twice[CASES_TOLD:]]
    if rest:
        lines = ", ".join(str(again.line) for again in rest[:CASES_TOLD]) + (", …" if len(rest) > CASES_TOLD else "")
        out.append(f"{path}:{rest[0].line}: and {counted(len(rest), 'more case')} numbered as an earlier case is "
                   f"(lines {lines}); the build's proof.txt lists each; number each case once")
    return out


# what a Markdown draft marks that the book does not read: **bold**, __bold__, *italics*, _italics_,
# `code`, [a link](address); and a line that is a table's row, a rule (---) or a block quote (> …)
_MARKDOWN = re.compile(r"\*\*[^*\s][^*]*\*\*|__[^_\s][^_]*__|(?<![\w*])\*[^*\s][^*]*(?<!\s)\*(?![\w*])"
                       r"|(?<![\w_])_[^_\s][^_]*(?<!\s)_(?![\w_])|`[^`]+`|\[[^\]]+\]\([^)\s]+\)"
                       r"|^\|.*\|[ \t]*$|^(?:-{3,}|\*{3,}|_{3,})[ \t]*$|^>[ \t]", re.M)


def first_found(doc: Document, pattern: re.Pattern[str]) -> tuple[int, str, str] | None:
    """The draft line of the first match of ``pattern`` in the text the book prints (sections' and
    steps' titles, a one-sentence step's sentence, then the blocks), the match, and how many more there are (`` and 2 more``)."""
    texts = [(s.line, 0, s.title) for s in doc.sections]
    texts += [(c.line, 0, c.sentence or c.title) for s in doc.sections for c in s.children if isinstance(c, Step)]
    texts += [(b.line, 1, getattr(b, "text", "") or "") for b in doc.blocks()]  # (a step's title before its text)
    found = sorted((line, order, m.start(), m.group()) for line, order, text in texts for m in pattern.finditer(text))
    if not found:
        return None
    line, _, _, first = found[0]
    return line, first, f" and {len(found) - 1} more" if len(found) > 1 else ""


SHOWN_MARKS = 60  # characters of the marks quoted in the warning
_CARD_BOLD = re.compile(r"\*\*[^*\s][^*]*\*\*")  # the cards' **bold**, copied into a Japanese draft


def markdown_marks(doc: Document, path: Path, latin: bool) -> list[str]:
    """An English draft written in Markdown: its emphasis, code and link marks, tables, rules and
    quotes print as they stand (the book sets no bold or italics from a draft), said once, at the
    first of them. A Japanese draft is told of the cards' ``**bold**`` alone (a card's
    「**+1アクション**」 quoted in the rules printed its asterisks without a word)."""
    found = first_found(doc, _MARKDOWN if latin else _CARD_BOLD)
    if found is None:
        return []
    line, first, more = found
    if len(first) > SHOWN_MARKS:  # (a rule of 5,000 hyphens was quoted whole)
        first = first[:SHOWN_MARKS - 1] + "…"
    if not latin:
        return [f"{path}:{line}: the cards' bold markup prints as written in the rulebook: {quoted(first)}{more} "
                "(the rulebook sets no bold from the draft; write the words plain, or 【term】 for an index term, "
                "set in the accent colour)"]
    return [f"{path}:{line}: Markdown marks print as written: {quoted(first)}{more} (the rulebook sets no bold, "
            "italics, code, links, tables, rules or quotes from the draft; write the words plain, or 【term】 for "
            "an index term, set in the accent colour, and a table as `Term: Text` lines or as rows in aligned columns)"]


_DOT_NUMBERED = re.compile(r"^[０-９0-9]{1,2}(?:．|\.(?![0-9]))")  # １．カードを引く。 (not 1.5倍)


def dot_numbered(doc: Document, path: Path, latin: bool) -> list[str]:
    """A Japanese draft's lines numbered ``１．``: read as lines of text, not steps (``１：``,
    ``１）``), so the quick reference found no turn and said 「草案に記載なし」. Said once, at the first."""
    lines = [b for b in doc.blocks() if isinstance(b, Item) and _DOT_NUMBERED.match(b.text)] if not latin else []
    if not lines:
        return []
    first = lines[0].text
    more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
    number = re.match(r"[０-９0-9]+", first)
    n = number.group() if number else "１"
    return [f"{path}:{lines[0].line}: {quoted(first[:20])}{more} is numbered with a full stop, which the book reads as a "
            f"line of text, not a step: it is in no contents and the quick reference (早見表) lists no such step "
            f"(expected {n}：{first[len(n) + 1:][:12]} or {n}）, as steps are written)"]


def unknown_icons(doc: Document, path: Path, slug: str, names: list[str]) -> list[str]:
    """A ``{name}`` of the draft no icon has prints as written (``inline``): said once, at the
    first, with how many more."""
    found = first_found(doc, re.compile("|".join(re.escape("{" + n + "}") for n in names))) if names else None
    if found is None:
        return []
    line, first, more = found
    return [f"{path}:{line}: {quoted(first)}{more} names no icon (an SVG in templates/{slug}/icons/ or "
            "templates/common/icons/, as on the cards), so the rulebook prints it as written"]


def wide_icons(doc: Document, path: Path, text: str, has: Callable[[str], bool]) -> list[str]:
    """An icon's name in the full-width braces a Japanese input method types (``｛coin｝``) prints
    as written: said once, at the first, with how many more (an icon that exists only: a ｛note｝ is text)."""
    names = {said: name for said, name in wide_icon_names(text).items() if has(name)}
    found = first_found(doc, re.compile("|".join(re.escape(said) for said in names))) if names else None
    if found is None:
        return []
    line, first, more = found
    return [f"{path}:{line}: {quoted(first)}{more} is an icon's name in full-width braces, so the rulebook prints it "
            f"as written (expected {{{names[first]}}}, in half-width braces)"]


def missing_glyphs(doc: Document, fonts, names: list[str], path: Path) -> list[str]:
    """Characters of the draft (and of the components' names from the data) neither the body
    font nor its fallbacks have, at the draft's line of the first (a control character or a
    bidi mark pasted in prints as an empty box: said where it is), each shown as an escape when
    it shows as nothing."""
    text = "".join(getattr(b, "text", "") or "\n".join(getattr(b, "lines", [])) for b in doc.blocks())
    text += "".join(names)
    missing = sorted(ch for ch in set(text) if glyphs.lacks(ch, fonts.body))
    if not missing:
        return []
    found = first_found(doc, re.compile("[" + "".join(re.escape(ch) for ch in missing) + "]"))
    shown = " ".join(f"{shown_invisible(ch)} (U+{ord(ch):04X})" for ch in missing[:12])
    return [f"{path}{f':{found[0]}' if found else ''}: body font {fonts.body} and its fallbacks lack "
            f"{counted(len(missing), 'character')} of the draft, printed as empty boxes: {shown} (expected "
            "the characters taken out, or a font that has them in game.yaml's fallback_fonts)"]
