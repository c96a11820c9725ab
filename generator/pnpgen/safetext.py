"""Text that crosses into a terminal or a spreadsheet: control characters found and escaped,
spreadsheet cells neutralised, a quoted text in its script's marks. Used by every stage; imports
nothing of pnpgen's."""

from __future__ import annotations

import re
from typing import Any

# C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional overrides and isolates
# (U+202A–U+202E, U+2066–U+2069), which reorder what a reader sees ("Trojan Source").
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# OWASP's CSV injection rule: a cell starting with one of these is a formula to Excel, LibreOffice
# and Google Sheets; a leading ' makes it text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def control_char(text: str) -> str | None:
    """The first control character in ``text`` as U+XXXX, or None."""
    m = CONTROL.search(text)
    return f"U+{ord(m.group()):04X}" if m else None


def name_control_char(name: str) -> str | None:
    """The first control character in a file or folder name as U+XXXX — a tab and a line feed
    too, which a text may hold but a name never should —, or None."""
    m = NAME_CONTROL.search(name)
    return f"U+{ord(m.group()):04X}" if m else None


NAME_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def shown_name(name: str) -> str:
    """A file or folder name for a message, on one line: each control character escaped (\\n too)."""
    return NAME_CONTROL.sub(_escaped, name)


def shown(text: str) -> str:
    """``text`` safe to print on a terminal: each control character as an escape (\\x1b, \\u202e)."""
    return CONTROL.sub(_escaped, text)


def _escaped(m: re.Match) -> str:
    return repr(m.group())[1:-1] if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"


def csv_cell(value: Any) -> Any:
    """A value for a CSV cell a spreadsheet cannot run: text starting with =, +, -, @, tab or CR
    gets a leading ' (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(cell: str) -> str:
    """A CSV cell as written before ``csv_cell`` neutralised it (a spreadsheet pnpgen wrote reads
    back to the same pieces)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_START):
        return cell[1:]
    return cell


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff66-\uff9f]")


def written_in_cjk(text: str) -> bool:
    """Whether ``text`` holds kana, kanji or hangul (a word of a Japanese draft, not an English one)."""
    return bool(_CJK.search(text))


def quoted(text: str) -> str:
    """``text`` in the quotation marks of its own script, for a message: 「ゲームの準備」, “Setup”."""
    return f"「{text}」" if written_in_cjk(text) else f"“{text}”"
