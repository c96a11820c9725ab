"""The 【】 that mark a term: a Japanese edition prints them, one set in Latin script drops them,
in the rulebook (where the term keeps the accent colour) and on the pieces alike — lenticular
brackets are no English punctuation."""

from __future__ import annotations

CJK_LANGUAGES = ("ja", "zh", "ko")  # set by the JLREQ rules; every other language is set as Latin script


def is_latin(lang: str) -> bool:
    """A language set with Latin rules (words, hyphenation, word spacing)."""
    return lang.replace("_", "-").split("-")[0].lower() not in CJK_LANGUAGES


def unbracket(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` without the 【】 that mark its terms, and each term's span in the text returned.
    A bracket left unclosed, or a 】 never opened, is the writer's own and stays."""
    pairs: dict[int, int] = {}
    opened: list[int] = []
    for i, ch in enumerate(text):
        if ch == "【":
            opened.append(i)
        elif ch == "】" and opened:
            pairs[opened.pop()] = i
    if not pairs:
        return text, []
    drop = set(pairs) | set(pairs.values())
    out: list[str] = []
    where: dict[int, int] = {}  # where: a kept character's index in the text → its index in ``out``
    for i, ch in enumerate(text):
        where[i] = len(out)
        if i not in drop:
            out.append(ch)
    outer = [(o, c) for o, c in sorted(pairs.items()) if not any(a < o and c < b for a, b in pairs.items())]
    return "".join(out), [(where[o], where[c]) for o, c in outer if c > o + 1]
