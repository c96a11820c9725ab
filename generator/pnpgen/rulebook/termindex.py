"""The index of 【terms】: each term's reading (五十音順, JIS X 4061), its kana row, and the
index's table of terms and the pages they appear on."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from reportlab.platypus import Flowable, Paragraph, Table, TableStyle
from reportlab.platypus.doctemplate import IndexingFlowable

from pnpgen import usercache
from pnpgen.memo import Memo
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.styles import RULE

_ROWS = "あかさたなはまやらわ"
_ROW_STARTS = "あかさたなはまやらわん"


@lru_cache(maxsize=1)
def _kakasi():
    import pykakasi

    return pykakasi.kakasi()


READINGS_KIND = "readings"  # index terms' readings in the machine's cache (usercache.py)


@lru_cache(maxsize=1)
def _dictionary() -> bytes:
    """What a reading depends on besides the term: the reader and its dictionary as installed."""
    return b"pnpgen-reading 2 " + usercache.installed("pykakasi")


def reading(term: str, memo: Memo[str] | None = None) -> str:
    """The term's reading in hiragana (for 五十音順). A term in kana alone is read without the
    dictionary (katakana is hiragana shifted), as the dictionary reads it. ``memo``: readings
    by term, shared with later builds through the build cache (loading the dictionary costs
    0.8 CPU-s, and a term's reading never changes); a reading looked up here is learned into it.
    A term the memo lacks is looked for in the machine's cache before the dictionary is loaded:
    a new build folder (``--out``, a fresh checkout) of a book whose terms were read before on
    this machine loads no dictionary."""
    text = unicodedata.normalize("NFKC", term)
    if all("ぁ" <= c <= "ゖ" or "ァ" <= c <= "ヶ" or c == "ー" for c in text):
        return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)
    known = memo.get(term) if memo is not None else None
    if isinstance(known, str):
        return known
    entry = usercache.key(_dictionary(), text.encode("utf-8"))
    kept = usercache.get(READINGS_KIND, entry)
    if isinstance(kept, str):
        found = kept
    else:
        found = "".join(part["hira"] for part in _kakasi().convert(text))
        usercache.put(READINGS_KIND, entry, found)
    return memo.learn(term, found) if memo is not None else found


_VOWELS = {ch: "あいうえお"[i % 5] for row in ("あいうえお", "かきくけこ", "さしすせそ", "たちつてと", "なにぬねの",
                                               "はひふへほ", "まみむめも", "らりるれろ", "ぁぃぅぇぉ")
           for i, ch in enumerate(row)}
_VOWELS.update({"や": "あ", "ゆ": "う", "よ": "お", "ゃ": "あ", "ゅ": "う", "ょ": "お", "わ": "あ", "を": "お", "ん": "ん",
                "っ": "う", "ゐ": "い", "ゑ": "え"})


def sort_reading(text: str) -> str:
    """A reading as JIS X 4061 sorts it at its first level: the long-vowel mark ー as the vowel
    of the kana before it (カード = かあど), voiced and small kana as their plain ones."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            continue  # が → か
        if ch == "ー" and out:
            ch = _VOWELS.get(out[-1], "ー")
        out.append({"ぁ": "あ", "ぃ": "い", "ぅ": "う", "ぇ": "え", "ぉ": "お", "ゃ": "や", "ゅ": "ゆ", "ょ": "よ",
                    "っ": "つ", "ゎ": "わ"}.get(ch, ch))
    return "".join(out)


def kana_row(term: str, memo: Memo[str] | None = None) -> str:
    """The 五十音 row heading a term is listed under (あ か さ …), ``英数`` for the rest."""
    r = reading(term, memo)[:1]
    plain = unicodedata.normalize("NFD", r)[:1]  # が → か
    if not ("ぁ" <= plain <= "ん"):
        return "英数"
    for i, start in enumerate(_ROW_STARTS[1:]):
        if plain < start:
            return _ROWS[i]
    return "わ"


def _one_apart(a: str, b: str) -> bool:
    return len(a) == len(b) > 2 and sum(x != y for x, y in zip(a, b)) == 1


def page_destination(page: int) -> str:
    """The name a body page is bookmarked under (``RulebookDoc``): the index's numbers link there,
    so a reader on screen goes to the page a term is on, as the contents' entries do."""
    return f"page{page}"


class TermIndex(IndexingFlowable):
    """The index of 【terms】 in 五十音順 (alphabetically, under their first letter, in a Latin
    draft) with the pages they appear on. The document notifies ``IndexTerm`` (term, page) for
    every paragraph drawn; like the contents, it shows the previous pass's entries
    (``multiBuild`` repeats until they stop changing)."""

    def __init__(self, styles: dict, font: str, latin: bool = False, other: str = "英数",
                 readings: Memo[str] | None = None):
        super().__init__()
        self.readings = readings  # the terms' readings (``reading``)
        self.styles, self.font = styles, font
        self.latin, self.other = latin, other  # other: the heading of terms under no letter or kana row
        self._entries: dict[str, set[int]] = {}
        self._last: dict[str, set[int]] = {}
        self._uses: dict[str, int] = {}  # how often each term is printed: a variant merges into the commoner
        self._uses_last: dict[str, int] = {}
        self._built: tuple[float, Table] | None = None  # this pass's table and the width it was built at

    def isSatisfied(self):
        return self._entries == self._last and self._uses == self._uses_last

    def beforeBuild(self):
        self._last, self._uses_last = self._entries, self._uses
        self._entries, self._uses = {}, {}
        self._built = None

    def notify(self, kind, stuff):
        if kind == "IndexTerm":
            term, page = stuff
            self._entries.setdefault(term, set()).add(page)
            self._uses[term] = self._uses.get(term, 0) + 1

    def entries(self) -> list[tuple[str, list[int]]]:
        """The terms with their pages; a term one character apart from a commoner one
        (【創生エリア】 once beside 【創世エリア】 fourteen times: the proofing report lists it) is
        listed under the commoner spelling; kana in 五十音順, ー read as its vowel (JIS X 4061); Latin
        letters without their accents (Élan among the E's, not after Z)."""
        key = (lambda t: (sort_reading(t.casefold()), t)) if self.latin else (lambda t: (sort_reading(reading(t, self.readings)), reading(t, self.readings), t))
        merged = {t: set(p) for t, p in self._last.items()}
        uses = self._uses_last
        for rare in sorted(merged, key=lambda t: (uses.get(t, 0), t)):
            common = [t for t in merged if t != rare and _one_apart(t, rare) and uses.get(t, 0) > 2 * uses.get(rare, 0)]
            if common and rare in merged:
                merged[max(common, key=lambda t: (uses.get(t, 0), t))] |= merged.pop(rare)
        return sorted(((t, sorted(p)) for t, p in merged.items()), key=lambda e: key(e[0]))

    def _row(self, term: str) -> str:
        if not self.latin:
            return kana_row(term, self.readings)
        first = unicodedata.normalize("NFD", term)[:1].upper()
        return first if first.isalpha() else self.other

    def _table(self, aw) -> Table:
        st = self.styles
        rows: list[list[Flowable | str]] = []
        style: list[tuple[object, ...]] = []
        row = None
        for term, pages in self.entries() or [("", [])]:
            head = self._row(term) if term else None
            if head and head != row:
                row = head
                style.append(("LINEBELOW", (0, len(rows)), (-1, len(rows)), 0.4, RULE))
                style.append(("TOPPADDING", (0, len(rows)), (-1, len(rows)), 5))
                rows.append([Paragraph(f'<font name="{self.font}" color="#2f4f6f">{glyphs.markup(head, self.font)}</font>',
                                       st["index"]), ""])
            # the term as a Japanese index prints it, without the 【】 that mark it in the text (an
            # opening bracket's half-em set each entry in from its kana row's heading)
            rows.append([Paragraph(glyphs.markup(term, st["index"].fontName) if term else "", st["index"]),
                         Paragraph((", " if self.latin else "、").join(f'<a href="#{page_destination(p)}">{p}</a>' for p in pages),
                                   st["index_page"])])
        # the pages' column takes what the terms leave: a term's seven pages on its line (at 30 % of
        # the width, 【創世エリア】 9、10、…、14、 left its 15 on a line of its own)
        t = Table(rows, colWidths=[aw * 0.5, aw * 0.5])
        t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), self.font, 8), ("VALIGN", (0, 0), (-1, -1), "TOP"),  # else Helvetica
                               ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5),
                               *style]))
        return t

    def _this_pass(self, aw) -> Table:
        """The table of the previous pass's entries, built once a pass (the frame wraps it, then
        splits it where the page ends: each built it anew, three times a pass)."""
        if self._built is None or self._built[0] != aw:
            self._built = (aw, self._table(aw))
        return self._built[1]

    def wrap(self, aw, ah):
        self._flow = self._this_pass(aw)
        return self._flow.wrap(aw, ah)

    def split(self, aw, ah):
        self._flow = self._this_pass(aw)
        return self._flow.splitOn(self.canv, aw, ah)

    def drawOn(self, canvas, x, y, _sW=0):
        self._flow.drawOn(canvas, x, y, _sW)
