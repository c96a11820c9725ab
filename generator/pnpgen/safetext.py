"""Text that crosses into a terminal or a spreadsheet: control characters found and escaped,
spreadsheet cells neutralised, a quoted text in its script's marks, names Windows cannot hold. Used by every stage; imports
nothing of pnpgen's."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pnpgen.patterns import later

# C0 controls but tab and line feed, DEL, C1 controls, the bidirectional overrides and isolates
# (U+202A–U+202E, U+2066–U+2069), which reorder what a reader sees ("Trojan Source"), and lone
# surrogates (U+D800–U+DFFF: half of a character, which no file can hold as UTF-8 — a YAML escape
# "\ud800", or a file name's bytes that are not UTF-8, as Python reads them).
CONTROL = later("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# What a decoder puts for the characters it could not read: a text holding it lost them on the way
# (pasted from a file read in the wrong encoding); printed, it is a box or a question mark.
REPLACEMENT = "\ufffd"
LOST_TEXT = ("U+FFFD (\ufffd, the mark a program leaves for a character it could not read) in the text: its "
             "characters were lost, probably copied from a file saved or read without UTF-8")
# OWASP's CSV injection rule: a cell starting with one of these is a formula to Excel, LibreOffice
# and Google Sheets; a leading ' makes it text. Their full-width forms too (＝ ＋ － ＠, what a
# Japanese input method types): Japanese Excel reads ＝SUM(A1) as =SUM(A1).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


# Names Windows keeps for its devices, whatever follows a dot (NUL.txt, nul.tar.gz are NUL), and
# the characters its file names cannot hold: a deck aux.yaml built on Linux or macOS made aux.pdf,
# which a zip of the build, a USB stick or a shared drive cannot give a Windows player.
WINDOWS_DEVICES = frozenset(["con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)),
                             *(f"lpt{i}" for i in range(1, 10))])
WINDOWS_FORBIDDEN = '<>:"|?*\\'


def same_file(name: str) -> str:
    """``name`` as Windows and macOS compare file names: letter case aside, and a character
    written composed or decomposed (``ガ``, ``カ`` + ``゛``) the same. ``Cards.pdf`` and ``cards.pdf``
    are one file there: built on Linux onto a USB stick or a shared drive, one replaced the other."""
    return unicodedata.normalize("NFC", name).casefold()


def windows_trouble(name: str, folder: bool = False) -> str | None:
    """Why Windows cannot hold a file named ``name`` (a device name, a character it refuses), or
    None; a ``folder`` name (nothing after it) ending in a dot or a space, which Windows drops."""
    device = name.split(".")[0].rstrip(" ").casefold()
    if device in WINDOWS_DEVICES:
        return f"is the name of a Windows device ({device.upper()})"
    bad = next((c for c in name if c in WINDOWS_FORBIDDEN), None)
    if bad is not None:
        return f"holds {bad!r}, which Windows file names cannot hold"
    if folder and name.endswith((".", " ")):
        return f"ends in {name[-1]!r}, which Windows drops from a folder's name"
    return None


def control_char(text: str) -> str | None:
    """The first control character in ``text`` said as a message says it (``control character
    U+001B``, ``lone surrogate U+D800``), or None."""
    m = CONTROL.search(text)
    return _said(m.group()) if m else None


def name_control_char(name: str) -> str | None:
    """The first control character in a file or folder name (a tab and a line feed too, which a
    text may hold but a name never should), said as ``control_char`` says it; a name whose bytes
    are not UTF-8 (a zip made on Windows, its Japanese names in Shift_JIS) said so. None if none."""
    m = NAME_CONTROL.search(name)
    if m is None:
        return None
    if not_utf8(m.group()):
        return "bytes that are not UTF-8 (a name from another system, such as Shift_JIS from a zip made on Windows)"
    return "the " + _said(m.group())


# characters a name shows as nothing, or as a plain space: two deck files ``cards`` and ``cards``
# + U+200B build as two decks whose files look the same. (ZWJ and ZWNJ, U+200C/U+200D, are left:
# they join an emoji or shape an Indic word, inside it.)
INVISIBLE = re.compile("[\u00a0\u00ad\u180e\u2000-\u200b\u200e\u200f\u202f\u205f-\u2064\u3164\ufeff]")


def name_invisible_char(name: str) -> str | None:
    """The first character in a file name that shows as nothing or as a plain space, said with its
    Unicode name and its place (``the invisible character U+200B (ZERO WIDTH SPACE), character
    6``), or None."""
    m = INVISIBLE.search(name)
    return None if m is None else _odd_said(m)


# characters that show as another a name is typed with: a hyphen or dash a word processor or a web
# page gave for the hyphen-minus (poker‐double: U+2010 HYPHEN, the same on the screen as poker-double)
LOOKALIKE = {"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-", "\ufe63": "-"}
_ODD = re.compile("[" + "".join(LOOKALIKE) + "]|" + INVISIBLE.pattern)


def odd_char(text: str) -> str | None:
    """The first character of ``text`` that shows as nothing, as a plain space, or as another
    (``LOOKALIKE``), said with its Unicode name and its place (``the invisible character U+200B
    (ZERO WIDTH SPACE), character 3``, ``the character U+2010 (HYPHEN), character 6, which looks
    like -``), or None: what a hint quoting a key or value names, where the quote looks right."""
    m = _ODD.search(text)
    return None if m is None else _odd_said(m)


def _odd_said(m: re.Match) -> str:
    char = m.group()
    said = f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')}), character {m.start() + 1}"
    return f"the character {said}, which looks like {LOOKALIKE[char]}" if char in LOOKALIKE \
        else f"the invisible character {said}"


def shown_invisible(name: str) -> str:
    """A name for a message with its invisible characters written as escapes (``cards\\u200b.yaml``)."""
    return INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", shown_name(name))


def not_utf8(name: str) -> bool:
    """Whether a name as Python read it from the disk holds bytes that are not UTF-8 (each such
    byte stands in it as U+DC80–U+DCFF)."""
    return any("\udc80" <= c <= "\udcff" for c in name)


def _said(char: str) -> str:
    kind = ("lone surrogate" if "\ud800" <= char <= "\udfff" else "line separator" if char in "\u2028\u2029"
            else "control character")
    return f"{kind} U+{ord(char):04X}"


# (U+2028 and U+2029 too: line breaks to YAML, to Python's splitlines and to JavaScript)
NAME_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# What ends a line in a text pnpgen writes or reads back: YAML's line breaks (str.splitlines' too)
LINE_BREAKS = re.compile("[\n\r\x85\u2028\u2029]")


def shown_name(name: str) -> str:
    """A file or folder name for a message, on one line: each control character escaped (\\n too)."""
    return NAME_CONTROL.sub(escaped_char, name)


def shown(text: str) -> str:
    """``text`` safe to print on a terminal: each control character as an escape (\\x1b, \\u202e)."""
    return CONTROL.sub(escaped_char, text)


def one_line(text: str) -> str:
    """A message on one line, as an editor links it: a line break the data brings (a sheet's header
    cell of two lines, 枚<Alt+Enter>数) shown as ``\\n``. The rule of errors and warnings alike."""
    return LINE_BREAKS.sub(escaped_char, text)


def warning_line(text: str) -> str:
    """A warning as the terminal shows it: ``pnpgen: warning: …``, on one line, escaped (``one_line``, ``shown``)."""
    return f"pnpgen: warning: {shown(one_line(cut_middle(text, SAID_LINE)))}"


def escaped_char(m: re.Match) -> str:
    """A matched control character as its escape (\\n, \\x1b, \\u202e)."""
    return repr(m.group())[1:-1] if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"


def csv_cell(value: Any) -> Any:
    """A value for a CSV cell a spreadsheet cannot run: text starting with =, +, -, @, tab or CR
    (or full-width ＝ ＋ － ＠) gets a leading ' (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(cell: str) -> str:
    """A CSV cell as written before ``csv_cell`` neutralised it (a spreadsheet pnpgen wrote reads
    back to the same pieces)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_START):
        return cell[1:]
    return cell


_CJK = later(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff66-\uff9f]")


def written_in_cjk(text: str) -> bool:
    """Whether ``text`` holds kana, kanji or hangul (a word of a Japanese draft, not an English one)."""
    return bool(_CJK.search(text))


def quoted(text: str) -> str:
    """``text`` in the quotation marks of its own script, for a message: 「ゲームの準備」, “Setup”."""
    return f"「{text}」" if written_in_cjk(text) else f"“{text}”"


SAID = 60  # characters of a name from the data a message says it by (a piece's label, a sheet's column)


SAID_MESSAGE = 1_500  # characters of an error's message or hint: the rest of a value it quotes left out
SAID_LINE = 3_000  # characters of a warning or a line of check's: the same


def cut_middle(text: str, most: int = SAID_MESSAGE) -> str:
    """``text`` of at most about ``most`` characters: a longer one keeps its start (what is wrong,
    where) and its end (the quote closed), the middle said as left out (an SVG's transform of
    10,000 numbers, quoted whole, made its error one line of 20 KB)."""
    if len(text) <= most:
        return text
    head, tail = most * 2 // 3, most // 6
    return f"{text[:head]}… ({len(text) - head - tail:,} characters left out) …{text[-tail:]}"


def clipped(text: str, most: int = SAID) -> str:
    """``text`` as a message names it: at most ``most`` characters, the last an ellipsis when cut (a
    paragraph pasted into a title, or a note into a sheet's header cell, made each message 15–96 KB)."""
    return text if len(text) <= most else text[:most - 1] + "…"
