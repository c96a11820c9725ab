"""The proofing report's spellings: near-duplicate terms and actions (【創生エリア】／【創世エリア】,
増築／増設), and a 【term】 of the rules also written without its 【】."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection
from pathlib import Path

from pnpgen.data.markup import ICON_TOKEN
from pnpgen.messages import msg
from pnpgen.rulebook import grammar
from pnpgen.rulebook.flowables import terms
from pnpgen.rulebook.proofbase import (
    Finding,
    book_lines,
    file_lines,
    numbered_lines,
    one_apart,
    rules_lines,
    section_end,
)
from pnpgen.rulebook.tree import Document, Step, Subheading

_KANJI_RUN = re.compile(r"[\u4e00-\u9fff々]{3,}")
_COUNTERS = set("個枚回人点番本")
# kanji that say whose or which before a noun (敵部隊, 各部隊, 自部隊, 全部隊): two such words are two words
_PREFIX = set("敵自各全他両同別次前後毎諸初最当該旧新隣味我彼")
# two kanji that name the two sides of a contrast: words differing in them alone are two words, not one
# spelt twice (東軍移動／西軍移動, a wargame's two players' phases; 表面／裏面; 上段／下段)
_OPPOSITES = {frozenset(pair) for pair in ("東西", "南北", "左右", "上下", "表裏", "内外", "昼夜", "攻守", "天地",
                                           "大小", "前後", "先後", "新旧", "勝敗", "敵味", "自他", "陰陽", "明暗")}


def _contrasted(a: str, b: str) -> bool:
    """Whether two words of one length differ in one character only, the two sides of a contrast."""
    unlike = [frozenset((x, y)) for x, y in zip(a, b, strict=False) if x != y]
    return len(a) == len(b) and len(unlike) == 1 and unlike[0] in _OPPOSITES


def near_duplicates(doc: Document, text: str, draft_path: Path | str, lang: str,
                    names: Collection[str] = ()) -> list[Finding]:
    """Terms in 【】 of three or more characters and runs of three or more kanji that differ in one character, at least one
    of them in the rules (the other may be in the designer's notes or change log); never two
    words set side by side on one line (「左内地」「右内地」 contrast on purpose), nor two of
    ``names`` (the decks and components: 師団駒 and 軍団駒 are two pieces, not one spelt twice).
    Then the two-kanji actions of :func:`_action_pairs` (増築／増設)."""
    named = set(names)
    seen: dict[str, list[int]] = defaultdict(list)
    kinds: dict[str, str] = {}
    rules = {n for n, _ in rules_lines(doc, text)}
    skip = [(s.line, section_end(doc.sections, s)) for s in doc.of_kind("brainstorm")]
    two: dict[str, list[int]] = defaultdict(list)  # two-kanji words of the rules: their lines
    for n, line in numbered_lines(text):
        if any(a <= n < b for a, b in skip):
            continue
        for t in terms(line):
            seen[t].append(n)
            kinds[t] = "【】"
        for m in _KANJI_RUN.finditer(line):
            word = m.group(0)
            if word[0] in _COUNTERS:
                continue  # ３個配置: a count, not a word
            seen[word].append(n)
            kinds.setdefault(word, "")
        if n in rules:
            for m in _TWO_KANJI.finditer(line):
                two[m.group(0)].append(n)
    words = sorted(seen, key=lambda w: (-len(seen[w]), w))
    pairs = []
    for i, a in enumerate(words):
        for b in words[i + 1:]:
            if not one_apart(a, b) or (kinds[a] == "【】") != (kinds[b] == "【】") or len(a) < 3:
                continue  # two characters one apart are two words: 【山札】 【場札】 【手札】 (trial43)
            if kinds[a] != "【】" and a[-1] != b[-1] and a[:-1] == b[:-1]:
                continue  # 一番上 / 一番多(い): a verb stem or another word after a shared prefix
            if kinds[a] != "【】" and a[1:] == b[1:] and {a[0], b[0]} <= _PREFIX:
                continue  # 敵部隊 / 各部隊 / 自部隊: a word after a prefix that says whose or which
            if _contrasted(a, b):
                continue  # 東軍戦闘 / 西軍戦闘: the two sides of a contrast (trial69)
            if set(seen[a]) & set(seen[b]) or not rules & set(seen[a] + seen[b]) or {a, b} <= named:
                continue
            pairs.append((a, b, seen[a], seen[b]))
    pairs += _action_pairs(two)
    out = []
    for a, b, at_a, at_b in pairs:
        pair = dict(a=a, b=b, count_a=len(at_a), count_b=len(at_b))
        out.append(Finding(msg("proof.kind.spelling", lang),
                           msg("proof.spelling.book", lang, **pair, at_a=book_lines(at_a, lang), at_b=book_lines(at_b, lang)),
                           msg("proof.spelling.file", lang, **pair, lines_a=file_lines(at_a, lang),
                               lines_b=file_lines(at_b, lang), path=draft_path, line=min(at_a + at_b)), (a, b)))
    return out


# a word of exactly two kanji (増築, 建設), not a part of a longer run
_TWO_KANJI = re.compile(r"(?<![\u4e00-\u9fff々])[\u4e00-\u9fff][\u4e00-\u9fff々](?![\u4e00-\u9fff々])")
ACTION_NEAR = 10  # draft lines: 増築 (l. 128) and the heading ○増設 (l. 134) of one step


def _action_pairs(two: dict[str, list[int]]) -> list[tuple[str, str, list[int], list[int]]]:
    """Two actions of the rules spelt with the same first kanji and another second (増築／増設,
    建築／建設: eiketsuden's 建築フェイズ names one action both ways), within ``ACTION_NEAR``
    lines of each other and never on one line: most such pairs are two words (手札／手番,
    以上／以外), so both must be nouns that take する in the analyser's reading (「塔を増築する」).
    On the four shipped drafts this keeps only eiketsuden's two pairs. Each word is compared
    only with those of its first kanji in the lines around it (a draft of 10,000 lines compares
    no more than a short one a line)."""
    actions = [w for w in two if grammar.is_action_noun(w)]
    rank = {w: k for k, w in enumerate(sorted(actions, key=lambda w: (-len(two[w]), w)))}
    lines = {w: set(two[w]) for w in actions}
    heads: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for word in actions:
        heads[word[0]].extend((n, word) for n in lines[word])
    near: set[tuple[str, str]] = set()
    for found in heads.values():
        found.sort()
        first = 0
        for i, (n, word) in enumerate(found):
            while found[first][0] < n - ACTION_NEAR:
                first += 1
            for _, other in found[first:i]:
                if other != word:
                    near.add((word, other) if rank[word] < rank[other] else (other, word))
    out = []
    for a, b in sorted(near, key=lambda pair: (rank[pair[0]], rank[pair[1]])):
        if not lines[a] & lines[b]:
            out.append((a, b, two[a], two[b]))
    return out


# a line of the draft that is a heading (■ section, ◇〇◎ sub-heading, １： step), not text
_HEADING_LINE = re.compile(r"^(?:[■◇◎〇○●◆]|[０-９0-9]+[：）:)])")
_WORD_CHAR = re.compile(r"[\u30a1-\u30ff\u4e00-\u9fff々]")


def bare_terms(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A 【term】 of the rules written elsewhere in the rules' text without its 【】 (【係争マス】
    nine times, 「係争マス」 once): the reader looks the term up in the index, which lists only the
    marked places. Not in the components list, which names the pieces before the rules mark their
    parts, nor in headings, nor as an icon's name (``On a {star}, take a 【star】``); a bare use inside a longer word (倉庫置き場 beside 【倉庫】) is another word,
    and so is the game's title (「星詠みの決闘は…」 beside the keyword 【星詠み】). A term marked once
    is its definition and written plain afterwards by ordinary house style, Japanese (【台札】 then
    台札) and English alike (a key term set apart where it is defined, roman after it: The Chicago
    Manual of Style, 17th ed., 7.58): only a plain use before it is queried, the reader meeting the
    word before it is defined.
    Nor a use that names a heading in 「」 (「以下の「神の怒り」の処理」 before 〇神の怒り（Wrath of God）):
    the quotation marks it as the heading's name, as a rulebook cites its sections."""
    headings = {_TITLE_NOTE.sub("", t).strip("　 ") for t in _heading_titles(doc)}
    components = [(s.line, section_end(doc.sections, s)) for s in doc.rules if s.is_components]
    lines = [(n, line) for n, line in rules_lines(doc, text)
             if not any(a <= n < b for a, b in components) and not _HEADING_LINE.match(line.strip("　 "))]
    marked: dict[str, list[int]] = defaultdict(list)
    for n, line in lines:
        for t in terms(line):
            marked[t].append(n)
    title = doc.title.strip()
    plains = []  # each line with its 【terms】, icons and the game's title blanked, positions kept (once, not per term)
    for n, line in lines:
        plain = re.sub(r"【[^】]*】", lambda m: "\u3000" * len(m.group(0)), line)
        plain = ICON_TOKEN.sub(lambda m: "\u3000" * len(m.group(0)), plain)  # {star}: an icon, not the word
        plains.append((n, line, plain.replace(title, "\u3000" * len(title)) if title else plain))  # (the game's name holds the term)
    out: list[tuple[int, str, Finding]] = []
    for term, at in marked.items():
        bare: list[tuple[int, str]] = []
        use = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)" if term.isascii() else re.escape(term))
        for n, line, plain in plains:
            for m in use.finditer(plain):
                before, after = plain[m.start() - 1:m.start()], plain[m.end():m.end() + 1]
                if before + after == "「」" and term in headings:
                    continue  # 「神の怒り」: the heading's name cited
                if not (_WORD_CHAR.match(before) or _WORD_CHAR.match(after)):
                    bare.append((n, _around(line, m.start(), m.end(), whole_words=term.isascii())))
        if len(at) == 1:  # 【台札】 once, then 台札 plain (【trick】, then trick): house style; not before it
            bare = [(n, quote) for n, quote in bare if n < at[0]]
        if not bare:
            continue
        said = dict(term=term, count=len(at), bare=len(bare), context=bare[0][1])
        out.append((bare[0][0], term, Finding(msg("proof.kind.spelling", lang),
                           msg("proof.bare_term.book", lang, **said, at=book_lines([n for n, _ in bare], lang)),
                           msg("proof.bare_term.file", lang, **said, path=draft_path, line=bare[0][0],
                               lines=file_lines(at, lang), bare_lines=file_lines([n for n, _ in bare], lang)), (term,))))
    return [f for _, _, f in sorted(out, key=lambda found: found[:2])]


# a heading's closing parenthesis, 「神の怒り（Wrath of God）」's
_TITLE_NOTE = re.compile(r"[（(][^（）()]*[）)]$")


def _heading_titles(doc: Document) -> list[str]:
    """The titles of the draft's headings: the rules' sections and steps, and every sub-heading."""
    return ([s.title for s in doc.rules] + [c.title for s in doc.rules for c in s.children if isinstance(c, Step)]
            + [b.text for b in doc.blocks() if isinstance(b, Subheading)])


def _around(line: str, start: int, end: int, whole_words: bool) -> str:
    """Ten characters of ``line`` either side of ``start:end``, as a finding quotes a use; in
    Latin text out to whole words (a game trial quoted “Place one terrain tile next to y”); a
    table's column gaps one space each (``grammar.without_column_gaps``)."""
    line, start, end = grammar.without_column_gaps(line, start, end)
    a, b = max(0, start - 10), end + 10
    while whole_words and 0 < a > start - 30 and line[a - 1].isalnum():
        a -= 1
    while whole_words and b < min(len(line), end + 30) and line[b].isalnum():
        b += 1
    return line[a:b].strip("　 ")
