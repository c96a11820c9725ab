"""A line of vertical writing (縦書き) cut into what ``m.tate()`` places in its column, as JLREQ
(W3C, Requirements for Japanese Text Layout) sets vertical text: kana and kanji upright a cell each;
brackets, ー, dashes and leaders turned a quarter clockwise; 、。 and small kana moved within their
cell (2.1.2: a small kana's face right of the cell's centre, at its middle); a two-digit number
set across in one cell, tate-chu-yoko (3.2.5); a longer run of Latin letters or digits turned a
quarter clockwise as one word, reading downwards (3.2.3); a single letter or digit upright."""

from __future__ import annotations

from typing import NamedTuple

from pnpgen.patterns import later

TURNED = frozenset("「」『』（）［］【】〔〕〈〉《》｛｝ー－―—…‥〜～：；＝→←")
STOPS = frozenset("、。，．")
SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
# Latin letters and digits, with the spaces and marks inside a word or phrase (Game Over, 2-3, 50%)
_LATIN = later(r"[A-Za-z0-9]+(?:[ .,'’&:/+%-]+[A-Za-z0-9]+)*[.!?%]?")
_TWO_DIGITS = later(r"[0-9]{2}")
LATIN_ADVANCE = 0.5  # em: a Latin letter's width in the fixed-width gothic (half of a kana's)
LATIN_SPACE = 0.25  # em: the quarter-em JLREQ puts between Japanese and Latin text, each side


class Mark(NamedTuple):
    kind: str  # upright | turned | stop | small | across (tate-chu-yoko) | latin (a run turned) | space
    text: str
    top: float  # mm from the column's top
    length: float  # mm down the column


def marks(text: str, size: float, pitch: float = 1.1) -> list[Mark]:
    """The column's marks for ``text`` at ``size`` pt, a kana every ``size`` × ``pitch``."""
    em = size * 25.4 / 72
    cell = em * pitch
    out: list[Mark] = []
    top, at = 0.0, 0
    while at < len(text):
        run = _LATIN.match(text, at)
        if run and len(run.group(0)) > 1 and not _TWO_DIGITS.fullmatch(run.group(0)):
            word = run.group(0)
            gap = em * LATIN_SPACE
            before = gap if out else 0.0
            length = len(word) * em * LATIN_ADVANCE
            out.append(Mark("latin", word, top + before, length))
            top += before + length + (gap if run.end() < len(text) else 0.0)
            at = run.end()
            continue
        if run and _TWO_DIGITS.fullmatch(run.group(0)):
            out.append(Mark("across", run.group(0), top, cell))
            top += cell
            at = run.end()
            continue
        ch = text[at]
        out.append(Mark(_kind(ch), ch, top, cell))
        top += cell
        at += 1
    return out


def _kind(ch: str) -> str:
    if not ch.strip():
        return "space"
    if ch in TURNED:
        return "turned"
    if ch in STOPS:
        return "stop"
    return "small" if ch in SMALL_KANA else "upright"
