"""An English draft's typewriter marks as a Latin book prints them: curled quotes, em and en
dashes, the ellipsis, a number kept on the line of its unit."""

from __future__ import annotations

import re

# a typewriter's marks for the printer's: "--" (or "---") between words is an em dash, closed up
# (CMOS 6.85); a hyphen between two numbers alone is an en dash (a range, CMOS 6.78), not one in a
# chain (2026-11-30, 555-12-34); three full stops are the ellipsis, kept on one line
_EM_DASH = re.compile(r"(?<=\S)(?: -{2,3} |-{2,3})(?=\S)")
_RANGE = re.compile(r"(?<![\w.,-])(\d+)-(\d+)(?![\w-]|[.,]\d)")
# '90s, '24, rock 'n' roll: the apostrophe of left-out digits or letters (CMOS 7.29, 7.30), not a quote
_ELIDED = re.compile(r"(?<!\w)'(?=\d\d(?:s\b|\b)|n'(?!\w))")
# a number and its unit, a "p." and its page: one line, never "300 |g." nor "p. |5" (a no-break space)
_UNIT = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?) (mm|cm|m|km|g|kg|ml|min|sec|s|h|hrs?|VP|°C|°F|%)(?![\w°])")
_PAGE = re.compile(r"\b(pp?|[Ff]ig|[Nn]o|[Cc]h|[Ss]ec)\. (?=\d)")


def latin_typography(text: str) -> str:
    """The draft's typewriter marks as an English book prints them: quotes curled, ``--`` an em
    dash, ``2-4`` an en dash, ``...`` an ellipsis; ``300 g``, ``3 VP`` and ``p. 5`` kept on one line."""
    text = _RANGE.sub("\\1–\\2", _EM_DASH.sub("—", text)).replace("...", "…")
    text = _PAGE.sub("\\1.\u00a0", _UNIT.sub("\\1\u00a0\\2", text))
    return curly_quotes(_ELIDED.sub("’", text))


def curly_quotes(text: str) -> str:
    """``"Hold"`` → “Hold”, ``player's`` → player’s, ``'a'`` → ‘a’: a quote after a space, an
    opening bracket or a dash (or at the start) opens, any other closes (an apostrophe). After a
    digit, with no quote of its kind open, it is a prime: ``5'11"`` → 5′11″ (feet and inches,
    CMOS 6.115), but ``1990's`` keeps its apostrophe and ``"Take 5"`` its closing quote."""
    out = []
    open_double = open_single = False
    for i, ch in enumerate(text):
        if ch in "\"'":
            before, after = text[i - 1] if i else "", text[i + 1:i + 2]
            opens = i == 0 or before.isspace() or before in "([{“‘—–-/"
            if before.isdigit() and ch == '"' and not open_double:
                ch = "″"
            elif before.isdigit() and ch == "'" and not open_single and not after.isalpha():
                ch = "′"
            elif ch == '"':
                ch, open_double = ("“", True) if opens else ("”", False)
            else:
                ch = "‘" if opens else "’"
                if opens or not (before.isalpha() and after.isalpha()):  # (an apostrophe in a word: no quote)
                    open_single = opens
        out.append(ch)
    return "".join(out)
