"""A YAML syntax error in the designer's words: what is wrong on the line and what to write.

PyYAML says "mapping values are not allowed here" or "expected <block end>, but found
'<scalar>'"; a designer needs "put the text in quotes: effect: "…"" or "this line is indented
differently from the one above". ``explain`` reads the line PyYAML stopped on, finds the
``key: value`` the error falls in, and says what went wrong there. The line it names is the one
holding the mistake where that can be told (an unclosed ``{`` or quote: where it opened; a line
without its ':'), else PyYAML's, with "on this line or the one above" where an indentation
mistake may be either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnpgen.patterns import later

if TYPE_CHECKING:
    import yaml

# A character YAML reads as syntax at the start of a value, and what it reads it as.
STARTERS = {
    "*": "a reference to an anchor (*name)",
    "&": "an anchor (&name)",
    "[": "the start of a list",
    "{": "the start of a mapping",
    "!": "a tag (!name)",
    "|": "the start of a block of lines",
    ">": "the start of a block of lines",
    "%": "a directive",
    "@": "a reserved character",
    "`": "a reserved character",
}
FLOW = "{}[]"  # inside a {…} piece these are structure, as is ', '
GENERIC = ("valid YAML: 'key: value' pairs indented with spaces, the keys of one mapping in one column, "
           "and in quotes any text holding ': ', ' #' or markup such as **bold**, [red]…[/red], {vp}")
SHOWN = 80  # characters of a value repeated in the hint


@dataclass
class Hint:
    """A YAML syntax error said as a designer can fix it: the line and column it is on, the key it falls in, and
    what to write instead."""

    message: str
    line: int | None  # 1-based
    column: int | None
    key: str | None
    expected: str


@dataclass
class _Pair:
    """A ``key: value`` read from one line of a YAML file PyYAML refused, with where each part starts: what the hint
    points at."""

    key: str
    key_col: int  # 0-based
    value_col: int
    value: str
    in_flow: bool  # inside a {…} written on this line


_KEY = later(r"(?:^[ ]*(?:-[ ]+)*|(?<=[{,])[ ]*)(?P<key>[^\s,:{}\[\]#\"'][^,:{}\[\]#]*?)[ ]*:(?=[ ]|$)")


def _pairs(line: str) -> list[_Pair]:
    """The ``key: value`` pairs written on one line, block or flow style (``{a: 1, b: 2}``)."""
    found = list(_KEY.finditer(line))
    pairs = []
    for i, m in enumerate(found):
        start = m.end()
        end = found[i + 1].start() - 1 if i + 1 < len(found) else len(line)  # before the ',' or '{'
        before = line[:m.start("key")]
        opened = before.count("{") - before.count("}")
        value = line[start:end].strip()
        if opened > 0 and i + 1 == len(found):  # the closing '}' of the piece is no part of the text
            for _ in range(opened):
                value = value[:-1].rstrip() if value.endswith("}") else value
        pairs.append(_Pair(m.group("key"), m.start("key"), start + len(line[start:]) - len(line[start:].lstrip()),
                           value, opened > 0))
    return pairs


def quoted(text: str) -> str:
    """``text`` as a YAML quoted value: double quotes, or single ones when it holds a backslash
    (pnpgen's ``\\*`` would be a YAML escape) or a double quote."""
    if len(text) > SHOWN:
        text = text[:SHOWN - 1] + "…"
    if "\\" in text or '"' in text:
        return "'" + text.replace("'", "''") + "'"
    return f'"{text}"'


def flow(text: str) -> str:
    """``text`` as a YAML flow mapping's key or value: as it stands when plain (letters, digits,
    . - _ and spaces inside), else double-quoted (``sheet: "a, b"``, ``"カード名（英語）": title.en``)."""
    return text if re.fullmatch(r"[^\W_][\w.\- ]*(?<! )", text) else json.dumps(text, ensure_ascii=False)


def _quote_hint(pair: _Pair, line: int, why: str) -> Hint:
    return Hint(f"YAML syntax error: this text needs quotes, as {why}", line, pair.value_col + 1, pair.key,
                f"the text in quotes: {pair.key}: {quoted(pair.value)}")


def _written_keys(text: str) -> set[str]:
    """The keys a YAML file writes (``count``, a piece's fields), to tell a ',' left out of a
    {…} piece from a text holding ': '."""
    return set(re.findall(r"(?:^|[{,\s])([A-Za-z_][\w.-]*):(?=\s)", text, re.M)) | {"count"}


def _missing_comma(pair: _Pair, line: int, keys: Collection[str]) -> Hint | None:
    """``{title: 炎, value: 5 count: 10}``: the ',' before a key the file writes elsewhere left out.
    Put in quotes, as the plain ': ' hint said, the piece printed '5 count: 10' and one copy."""
    m = re.match(r"^(.*?\S)[ ]+([A-Za-z_][\w.-]*): ", pair.value)
    if not pair.in_flow or m is None or m.group(2) not in keys or m.group(2) == pair.key:
        return None
    return Hint(f"YAML syntax error: a ',' is missing before {m.group(2)}: (YAML reads the ': ' in "
                f"{quoted(pair.value)} as the start of another key)", line, pair.value_col + 1, pair.key,
                f"{pair.key}: {m.group(1)}, {pair.value[m.start(2):]}; or, when all of it is the text of "
                f"{pair.key}, the text in quotes: {pair.key}: {quoted(pair.value)}")


def _text_hint(pair: _Pair, line: int, keys: Collection[str] = ()) -> Hint | None:
    """Text that YAML reads as syntax: a value starting with * & [ { ! | > % @, a ': ' inside
    it, or {…}, [ ] or ', ' inside a {…} piece written on one line."""
    value = pair.value
    if not value:
        return None
    if value[0] in STARTERS:
        return _quote_hint(pair, line, f"YAML reads a '{value[0]}' at its start as {STARTERS[value[0]]}")
    if value[0] in "\"'" and not value.endswith(value[0]):
        return Hint("YAML syntax error: text goes on after its closing quote", line, pair.value_col + 1, pair.key,
                    f"the whole text in quotes: {pair.key}: {quoted(value)}")
    if pair.in_flow:
        inside = [c for c in FLOW if c in value] + ([", "] if ", " in value else [])
        if inside:
            marks = " and ".join(f"'{c}'" for c in inside)
            return _quote_hint(pair, line, f"inside a {{…}} piece YAML reads {marks} in it as the piece's own "
                                           f"structure")
    if ": " in value:
        return _missing_comma(pair, line, keys) or _quote_hint(
            pair, line, "YAML reads the ': ' in it as the start of another key")
    return None


def _first_token(text: str, column: int) -> bool:
    """Whether ``column`` (0-based) is the first thing written on its line (after '- ' marks)."""
    return re.fullmatch(r"[ ]*(?:-[ ]+)*", text[:column]) is not None


def _indentation(lines: list[str], line: int, column: int, problem: str) -> Hint:
    """Keys that do not line up; or a '-' without its space on this line or the one above."""
    for row in (line - 1, line - 2):
        if 0 <= row < len(lines) and re.match(r"[ ]*-[^\s-]", lines[row]):
            dash = lines[row].index("-")
            return Hint("YAML syntax error: a '-' starting a list entry needs a space after it", row + 1, dash + 1,
                        None, f"a space after the '-': - {lines[row][dash + 1:].strip()}")
    return Hint(f"YAML syntax error: this line does not line up with the lines above it ({problem}); "
                "the mistake is on this line or the one above", line, column, None,
                "the keys of one mapping, and the '- ' entries of one list, starting in the same column, "
                "indented with spaces")


_CLOSE = {"[": "]", "{": "}"}


def _unclosed(lines: list[str], row: int, col: int) -> tuple[int, int, str] | None:
    """The innermost ``[`` or ``{`` opened before (row, col) and not closed by then: (row, column,
    the bracket), reading past quoted text and comments; None when every one is closed."""
    stack: list[tuple[int, int, str]] = []
    for r, line in enumerate(lines[:row + 1]):
        end = col if r == row else len(line)
        c, quote = 0, ""
        while c < min(end, len(line)):
            ch = line[c]
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "'\"" and (c == 0 or line[c - 1] in " \t[{,:"):
                quote = ch
            elif ch == "#" and (c == 0 or line[c - 1] in " \t"):
                break
            elif ch in _CLOSE:
                stack.append((r, c, ch))
            elif ch in "]}" and stack:
                stack.pop()
            c += 1
    return stack[-1] if stack else None


_COMMENTED = later(r"(?P<key>[^\s,:{}\[\]#\"'][^,:{}\[\]#]*?)[ ]*:[ ]+(?P<value>#[^,}]*)")


def _open_quote(line: str, start: int) -> int | None:
    """The column of a quote opening a value in the flow piece that starts at ``start`` of
    ``line`` and not closed on the line (``text: "…, art: x}``: a designer's trial, trial77,
    was told the '}' at its end was missing), or None."""
    quote, opened, prev = "", 0, "x"
    i = start
    while i < len(line):
        ch = line[i]
        if quote == '"' and ch == "\\":
            i += 2
            continue
        if quote and ch == quote:
            if quote == "'" and line[i + 1:i + 2] == "'":  # '' inside single quotes: one apostrophe
                i += 2
                continue
            quote, prev = "", ch
        elif not quote and ch in "\"'" and prev in ":,{[":
            quote, opened = ch, i
        elif not quote and ch == "#" and line[i - 1:i] in (" ", "\t"):
            break  # a comment: no quote opens in it
        elif not quote and not ch.isspace():
            prev = ch
        i += 1
    return opened if quote else None


def _comment_hint(line: str, row: int) -> Hint | None:
    """A value starting with '#' (``mood: #777777``) inside a {…} piece: YAML reads it and the rest
    of the line as a comment, so the piece is never closed and PyYAML stops on a later line."""
    m = _COMMENTED.search(line)
    if m is None:
        return None
    value = m.group("value").strip()
    return Hint("YAML syntax error: YAML reads the '#' here and the rest of the line as a comment, so the {…} "
                "piece is never closed", row, m.start("value") + 1, m.group("key"),
                f"the text in quotes: {m.group('key')}: {quoted(value)}")


_WIDE_KEY = later(r"(?P<lead>[ ]*(?:-[ ]+)*)(?P<key>[^\s:：#'\"{}\[\],]+)[ ]*：[ ]*(?P<value>.*)")


def _ime_slip(lines: list[str], colon: bool, *rows: int) -> Hint | None:
    """What a Japanese input method types in YAML's place, on the lines the error points at or the
    one above: a full-width space (全角スペース) in the indentation, a full-width '：' after a key
    (``colon``: where YAML missed a key's ':', as it does on such a line in a mapping)."""
    for row in sorted({r for at in rows for r in (at - 1, at) if 0 <= r < len(lines)}):
        line = lines[row]
        lead = len(line) - len(line.lstrip(" \u3000"))
        rest = line[lead:]
        structure = rest.startswith("- ") or re.match(r"[^\s:#'\"]+:( |$)", rest) is not None  # not a paragraph's 字下げ
        if "\u3000" in line[:lead] and structure:
            return Hint("YAML syntax error: a full-width space (全角スペース) in the indentation; YAML indents "
                        "with half-width spaces only", row + 1, line.index("\u3000") + 1, None,
                        "half-width spaces instead of the full-width one")
        m = _WIDE_KEY.fullmatch(line)
        if m is not None and colon:
            return Hint("YAML syntax error: a full-width '：' after the key; YAML reads a key only before a "
                        "half-width ':' and a space", row + 1, m.end("key") + 1, m.group("key"),
                        f"{m.group('key')}: {m.group('value')}".rstrip())
    return None


def _document_end(lines: list[str], row: int) -> int | None:
    """The row of the last ``...`` (YAML's end of a document) above ``row``, if any."""
    return next((r for r in range(min(row, len(lines)) - 1, -1, -1) if re.fullmatch(r"\.\.\.(\s*(#.*)?)?", lines[r])),
                None)


_KEY_BEFORE = later(r"^\s*(?:-\s+)?(?P<key>[^\s:#'\"{}\[\],][^:#{}\[\],]*?)\s*:\s*$")


def _apostrophe(line: str, column: int) -> str:
    """An English text that starts with an apostrophe ('Tis, '90s), which YAML takes for a
    single quote never closed: the text to write, in double quotes."""
    text = line[column:].rstrip()
    key = _KEY_BEFORE.match(line[:column])
    if not text.startswith("'") or len(text) < 2 or not text[1].isalnum() or key is None:
        return ""
    return f"; a text starting with an apostrophe goes in quotes of the other kind: {key.group('key')}: {quoted(text)}"


def _long_key(lines: list[str], row: int, col: int) -> int:
    """The length of a key past YAML's 1,024 characters that starts at ``col`` of ``row`` and ends
    in ': ' on its line (a pasted paragraph as a sheet's header), else 0."""
    line = lines[row] if row < len(lines) else ""
    end = line.find(": ", col + 1024)
    end = end if end >= 0 else (len(line) - 1 if line.endswith(":") else -1)
    return end - col if end - col > 1024 else 0


def _flow_key(line: str, col: int) -> tuple[int, int]:
    """A key past YAML's 1,024 characters, its ':' at ``col`` (in a ``{…}`` mapping, or a line's
    own key): its length and column, else (0, 0)."""
    start = max(line.rfind(",", 0, col), line.rfind("{", 0, col)) + 1
    start += len(line[start:col]) - len(line[start:col].lstrip())
    return (col - start, start) if col - start > 1024 else (0, 0)


def _undefined_alias(lines: list[str], row: int, col: int, name: str) -> Hint:
    """``*name`` (a merge's ``<<: *name`` above all) naming no anchor set before it: where the anchor
    is, if it is set below (YAML reads an alias only after its anchor), else what sets one. A plain
    value may have been text starting with '*': its quotes offered too."""
    below = next((i for i in range(row + 1, len(lines)) if re.search(rf"&{re.escape(name)}(?![\w-])", lines[i])), None)
    where = (f"its anchor &{name} is set on line {below + 1}, below it, and YAML reads an alias only after its anchor"
             if below is not None else f"no anchor &{name} is set above it")
    pair = next((p for p in _pairs(lines[row] if row < len(lines) else "") if p.value_col <= col), None)
    expected = (f"&{name} on the mapping to copy, above this line (- &{name} {{cost: 1, kind: 攻撃}}, then - <<: *{name})")
    if pair is not None and pair.key != "<<":
        expected += f"; or, if '*{name}' is text, in quotes: {pair.key}: {quoted(pair.value)}"
    return Hint(f"YAML syntax error: *{name} copies an anchor, but {where}", row + 1, col + 1,
                pair.key if pair is not None else None, expected)


def explain(text: str, e: yaml.MarkedYAMLError) -> Hint:
    """What is wrong, where, and what to write instead, for a YAML syntax error in ``text``."""
    lines = text.split("\n")
    mark = e.problem_mark or e.context_mark
    problem = e.problem or ""
    if mark is None:
        return Hint(f"YAML syntax error: {problem}", None, None, None, GENERIC)
    row, col = mark.line, mark.column
    line_text = lines[row] if row < len(lines) else ""
    ctx = e.context_mark
    long, at = 0, (row, col)  # a key past YAML's 1,024 characters (a paragraph pasted as a sheet's header)
    if "could not find expected ':'" in problem and ctx is not None:
        long, at = _long_key(lines, ctx.line, ctx.column), (ctx.line, ctx.column)
    elif "but got ':'" in problem or "mapping values are not allowed" in problem:
        long, start = _flow_key(line_text, col)
        at = (row, start)
    if long:
        return Hint(f"YAML syntax error: this key is {long:,} characters long, and YAML reads a key of at most 1,024 "
                    "on its line", at[0] + 1, at[1] + 1, None,
                    "the key shortened (a sheet's header too, as columns: maps it), or written as a long key: "
                    "'? <key>' on its line and ': <value>' under it")
    alias = re.match(r"found undefined alias '(.*)'$", problem)
    if alias:  # read as meant: a copy of an anchored mapping (<<: *base), not text that wanted quotes
        return _undefined_alias(lines, row, col, alias.group(1))
    ime = _ime_slip(lines, "':'" in problem or "mapping" in problem or "simple key" in problem,
                    row, ctx.line if ctx is not None else row)
    if ime is not None:
        return ime
    if "'\\t'" in problem:
        return Hint("YAML syntax error: a tab character; YAML indents with spaces only", row + 1, col + 1, None,
                    "spaces instead of the tab")
    if "another document" in problem:  # a '---' below the deck (two files pasted into one)
        return Hint("YAML syntax error: a second YAML document starts here; a file holds one", row + 1, col + 1,
                    None, "this '---' line and what follows deleted, or moved to a file of its own")
    if "<document start>" in problem and (ended := _document_end(lines, row)) is not None:
        return Hint(f"YAML syntax error: this '...' line ends the YAML document, yet line {row + 1} follows it",
                    ended + 1, 1, None, "this line deleted if what follows belongs to the file, else what follows")
    if "could not find expected ':'" in problem and ctx is not None:
        return Hint("YAML syntax error: this line has no ':' after its key", ctx.line + 1, ctx.column + 1, None,
                    "'key: value'; a text running over several lines goes in quotes")
    if "end of stream" in problem and e.context and "quoted scalar" in e.context and ctx is not None:
        return Hint("YAML syntax error: the quote opened here is never closed", ctx.line + 1, ctx.column + 1, None,
                    "the same quote mark at the end of the text" + _apostrophe(lines[ctx.line], ctx.column))
    opened = _unclosed(lines, row, col)
    commented = _comment_hint(lines[opened[0]], opened[0] + 1) if opened is not None else None
    if commented is not None:
        return commented
    if opened is not None and ("<stream end>" in problem or "end of stream" in problem):
        o_row, o_col, bracket = opened
        return Hint(f"YAML syntax error: the {bracket}…{_CLOSE[bracket]} opened here is never closed", o_row + 1,
                    o_col + 1, None,
                    f"a '{_CLOSE[bracket]}' after its last entry, and text holding {{, }}, [, ] or ', ' in quotes")
    wrong = re.match(r"expected ',' or '([}\]])', but got '([}\]])'", problem)
    if opened is not None and wrong and wrong.group(1) != wrong.group(2):
        o_row, o_col, bracket = opened
        return Hint(f"YAML syntax error: the {bracket}…{_CLOSE[bracket]} opened here is closed by a '{wrong.group(2)}'", o_row + 1,
                    o_col + 1, None, f"a '{_CLOSE[bracket]}' to close it first (icons: [vp, star]), and text "
                                     "holding {, }, [, ] or ', ' in quotes")
    if ctx is not None and ctx.line != row and re.match(r"expected ',' or '[}\]]'", problem):
        pair_shown = "{…}" if "mapping" in (e.context or "") else "[…]"
        quote = _open_quote(lines[ctx.line], ctx.column)
        if quote is not None:  # its closing bracket read as more of the text in quotes
            quote_mark = lines[ctx.line][quote]
            return Hint("YAML syntax error: the quote opened here is not closed on its line, so the "
                        f"'{pair_shown[-1]}' after it is read as more of the text", ctx.line + 1, quote + 1, None,
                        f"the same quote mark, {quote_mark}, at the end of the text, before the ',' or "
                        f"'{pair_shown[-1]}' that follows it")
        return Hint(f"YAML syntax error: the {pair_shown} opened here is not closed on its line", ctx.line + 1,
                    ctx.column + 1, None, f"a '{pair_shown[-1]}' at the end of line {ctx.line + 1}, and text holding "
                                          "{, }, [, ] or ', ' in quotes")
    pairs = [p for p in _pairs(line_text) if p.key_col <= col]
    pair = pairs[-1] if pairs else None
    if problem.startswith("mapping values are not allowed"):
        if pair is not None and col >= pair.value_col:
            return _missing_comma(pair, row + 1, _written_keys(text)) or _quote_hint(
                pair, row + 1, "YAML reads the ': ' in it as the start of another key")
        return _indentation(lines, row + 1, len(line_text) - len(line_text.lstrip()) + 1,
                            "YAML reads it as more of the text above")
    if pair is not None and not _first_token(line_text, col):
        hint = _text_hint(pair, row + 1, _written_keys(text))
        if hint is not None:
            return hint
    if problem.startswith("expected <block end>") and _first_token(line_text, col):
        return _indentation(lines, row + 1, col + 1, "its indentation fits no key above")
    if pair is None and ctx is not None and ctx.line != row:  # e.g. a value starting with '*' on the line above
        pairs = _pairs(lines[ctx.line])
        hint = _text_hint(pairs[-1], ctx.line + 1, _written_keys(text)) if pairs else None
        if hint is not None:
            return hint
    context = f" ({e.context} started at line {ctx.line + 1})" if e.context and ctx is not None else \
        f" ({e.context})" if e.context else ""
    return Hint(f"YAML syntax error: {problem}{context}", row + 1, col + 1, None, GENERIC)


def cut_text(doc: Any, mapping: dict, keypath: tuple, key: Any) -> tuple[str, str] | None:
    """In ``{title: 港, effect: 売る, 買う}`` YAML ends the text at ', ' and reads 買う as a key
    without a value: the text and key before it on the same line, and the text as meant. ``doc``:
    a YAML file's ``Located`` (its keys' places); anything else (a spreadsheet's rows) has none."""
    marks = getattr(doc, "key_marks", None)
    if not isinstance(marks, dict) or mapping[key] is not None:
        return None
    keys = list(mapping)
    at = keys.index(key)
    line = marks.get(keypath + (key,), (None,))[0]
    first = at
    while first > 0 and mapping[keys[first - 1]] is None:
        first -= 1
    if first == 0 or marks.get(keypath + (keys[first - 1],), (None,))[0] != line:
        return None
    text = mapping[keys[first - 1]]
    if not isinstance(text, (str, int, float)) or isinstance(text, bool):
        return None
    tail = [str(k) for k in keys[first:] if mapping[k] is None
            and marks.get(keypath + (k,), (None,))[0] == line]
    return str(keys[first - 1]), ", ".join([str(text), *tail])
