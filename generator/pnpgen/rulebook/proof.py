"""The proofing report: what an editor would query before the book goes to playtesters.

- near-duplicate terms: two spellings one character apart (【創生エリア】 once, 【創世エリア】
  fourteen times; 事務所 / 事業所; the actions 増築 / 増設 a few lines apart), with the draft lines of each;
- numbers that disagree: the same phrase with another number (倉庫 「最大３個まで」 /
  「最大４個まで」), with the change-log lines that mention both numbers;
- draft↔data count mismatches (from the components list, and a count memo that disagrees);
- the counts printed 「（仮）」: stand-ins of the data the draft gives no count for;
- placeholders still open (未定 values in the data, the player count; 未定, 要検討, TODO, TBD or
  ?? left in the rules of the draft);
- slips of the pen in a Japanese draft, found with a morphological analyser (``grammar``):
  配置しいる, ら抜き, をを, 1方, ”…”, です／である mixed, one word spelt two ways;
- a 【term】 of the rules also written without its 【】 in the rules (係争マス beside 【係争マス】);
- the 【terms】 on the cards spelt otherwise in the book, or never used in it;
- the deck and piece names the cards' texts use (祝福カード, エリアボード) spelt otherwise in the
  components list, or never mentioned on the components pages;
- a figure the rules refer to (図１, 下図) in a section that has none; steps numbered 1, 1, 2;
- a cross reference to a case the draft numbers nowhere (「→６．５参照」 in a draft whose cases stop at ６．４).

A finding the designer means (an intended spelling) is dropped by ``rulebook.proof.ignore`` in
game.yaml: a list of the words the finding quotes.

Each finding is a ``Finding`` with a short kind, a text for the book (no file names) and a text
for proof.txt (with paths and lines), worded from the message catalogue (``proof.*``) in the
report's language: English when the book's labels or the draft are in a Latin-script language.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from reportlab.lib.pagesizes import A5

from pnpgen.data.markup import ICON_TOKEN
from pnpgen.data.model import Game, is_placeholder, open_value_said
from pnpgen.messages import msg
from pnpgen.rulebook import englishproof, grammar
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.figures import anchor
from pnpgen.rulebook.flowables import terms
from pnpgen.rulebook.grammar import Slip
from pnpgen.rulebook.numbering import misnumbered_steps, section_numbering
from pnpgen.rulebook.parse import is_changelog_mark
from pnpgen.rulebook.styles import BODY_SIZE, MARGIN_INNER, MARGIN_OUTER
from pnpgen.rulebook.tables import COLUMN_GAP, askew_rows, one_space_row
from pnpgen.rulebook.tree import Document, Preformatted, Section, Step, Subheading, own_section_number
from pnpgen.rulebook.xrefs import dangling_references
from pnpgen.safetext import written_in_cjk
from pnpgen.terms import is_latin
from pnpgen.text import linebreak as lb

_KANJI_RUN = re.compile(r"[\u4e00-\u9fff々]{3,}")
_COUNTERS = set("個枚回人点番本")
# kanji that say whose or which before a noun (敵部隊, 各部隊, 自部隊, 全部隊): two such words are two words
_PREFIX = set("敵自各全他両同別次前後毎諸初最当該旧新隣味我彼")
# 「図１を参照」「下図のように」「図のとおり」: the text points at a figure; not the 図 of a word that
# names no figure (地図 a map, 合図, 意図, 海図, 構図…), nor a count of them (「地図４枚」, 「図２枚」)
_FIGURE_REF = re.compile(r"(?<![地合意海構企指略版])(?:図[０-９0-9]+(?![０-９0-9]*[個枚回人点番本部])"
                         r"|[上下次左右]図|図の(?:よう|通り|とおり))")
_NUMBER = re.compile(r"([０-９0-9]+)(個|枚|人|点|回|マス|ラウンド|ＶＰ|VP)")


@dataclass
class Finding:
    """One thing the proof reports about the draft (a spelling variant, a count that disagrees with the data, an
    open question), with where it is."""

    # proof.kind.*: 表記ゆれ | 数の不一致 | 要確認 | 個数 | 未定 | 誤記 | 文体 | 用語 | 内容物 | 図 | 見出し番号 | 参照
    # (Spelling | Numbers | Query | Count | Open | Typo | Style | Term | Components | Figure | Steps | Reference)
    kind: str
    book: str
    file: str
    subject: tuple[str, ...] = ()  # the words it quotes: an entry of rulebook.proof.ignore naming one drops it


def report_lang(lang: str, draft_lang: str) -> str:
    """The language the report is worded in: the labels' (``--lang``), unless only the draft is
    in a Latin-script language (an English draft of a game kept in Japanese)."""
    return draft_lang if is_latin(draft_lang) and not is_latin(lang) else lang


def _lines(text: str) -> list[tuple[int, str]]:
    return [(i, line) for i, line in enumerate(text.split("\n"), start=1)]


def _one_apart(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def _rules_lines(doc: Document, text: str) -> list[tuple[int, str]]:
    """The draft lines of the rules sections (not the designer's notes, brainstorm or change log)."""
    keep = [(s.line, _end(doc.sections, s)) for s in doc.rules]
    return [(n, line) for n, line in _lines(text) if any(a <= n < b for a, b in keep)]


def _end(sections: list[Section], s: Section) -> int:
    later = [t.line for t in sections if t.line > s.line]
    return min(later) if later else 10 ** 9


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
    rules = {n for n, _ in _rules_lines(doc, text)}
    skip = [(s.line, _end(doc.sections, s)) for s in doc.of_kind("brainstorm")]
    two: dict[str, list[int]] = defaultdict(list)  # two-kanji words of the rules: their lines
    for n, line in _lines(text):
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
            if not _one_apart(a, b) or (kinds[a] == "【】") != (kinds[b] == "【】") or len(a) < 3:
                continue  # two characters one apart are two words: 【山札】 【場札】 【手札】 (trial43)
            if kinds[a] != "【】" and a[-1] != b[-1] and a[:-1] == b[:-1]:
                continue  # 一番上 / 一番多(い): a verb stem or another word after a shared prefix
            if kinds[a] != "【】" and a[1:] == b[1:] and {a[0], b[0]} <= _PREFIX:
                continue  # 敵部隊 / 各部隊 / 自部隊: a word after a prefix that says whose or which
            if set(seen[a]) & set(seen[b]) or not rules & set(seen[a] + seen[b]) or {a, b} <= named:
                continue
            pairs.append((a, b, seen[a], seen[b]))
    pairs += _action_pairs(two)
    out = []
    for a, b, at_a, at_b in pairs:
        pair = dict(a=a, b=b, count_a=len(at_a), count_b=len(at_b))
        out.append(Finding(msg("proof.kind.spelling", lang),
                           msg("proof.spelling.book", lang, **pair, at_a=_at(at_a, lang), at_b=_at(at_b, lang)),
                           msg("proof.spelling.file", lang, **pair, lines_a=_nums(at_a, lang),
                               lines_b=_nums(at_b, lang), path=draft_path, line=min(at_a + at_b)), (a, b)))
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
    is its definition and written plain afterwards by ordinary Japanese house style (【台札】 then
    台札): only a plain use before it is queried, the reader meeting the word before it is defined."""
    components = [(s.line, _end(doc.sections, s)) for s in doc.rules if s.is_components]
    lines = [(n, line) for n, line in _rules_lines(doc, text)
             if not any(a <= n < b for a, b in components) and not _HEADING_LINE.match(line.strip("　 "))]
    marked: dict[str, list[int]] = defaultdict(list)
    for n, line in lines:
        for t in terms(line):
            marked[t].append(n)
    out: list[tuple[int, str, Finding]] = []
    for term, at in marked.items():
        bare: list[tuple[int, str]] = []
        for n, line in lines:
            plain = re.sub(r"【[^】]*】", lambda m: "\u3000" * len(m.group(0)), line)  # (positions kept)
            plain = ICON_TOKEN.sub(lambda m: "\u3000" * len(m.group(0)), plain)  # {star}: an icon, not the word
            if doc.title.strip():  # the game's own name holds the term
                plain = plain.replace(doc.title.strip(), "\u3000" * len(doc.title.strip()))
            for m in re.finditer(rf"(?<!\w){re.escape(term)}(?!\w)" if term.isascii() else re.escape(term), plain):
                before, after = plain[m.start() - 1:m.start()], plain[m.end():m.end() + 1]
                if not (_WORD_CHAR.match(before) or _WORD_CHAR.match(after)):
                    bare.append((n, _around(line, m.start(), m.end(), whole_words=term.isascii())))
        if len(at) == 1 and not term.isascii():  # 【台札】 once, then 台札 plain: house style; not before it
            bare = [(n, quote) for n, quote in bare if n < at[0]]
        if not bare:
            continue
        said = dict(term=term, count=len(at), bare=len(bare), context=bare[0][1])
        out.append((bare[0][0], term, Finding(msg("proof.kind.spelling", lang),
                           msg("proof.bare_term.book", lang, **said, at=_at([n for n, _ in bare], lang)),
                           msg("proof.bare_term.file", lang, **said, path=draft_path, line=bare[0][0],
                               lines=_nums(at, lang), bare_lines=_nums([n for n, _ in bare], lang)), (term,))))
    return [f for _, _, f in sorted(out, key=lambda found: found[:2])]


def _around(line: str, start: int, end: int, whole_words: bool) -> str:
    """Ten characters of ``line`` either side of ``start:end``, as a finding quotes a use; in
    Latin text out to whole words (a game trial quoted “Place one terrain tile next to y”)."""
    a, b = max(0, start - 10), end + 10
    while whole_words and 0 < a > start - 30 and line[a - 1].isalnum():
        a -= 1
    while whole_words and b < min(len(line), end + 30) and line[b].isalnum():
        b += 1
    return line[a:b].strip("　 ")


def _nums(lines: list[int], lang: str) -> str:
    """The draft lines of a finding (the first six), as the report's language says them: 「4, 6行」,
    "line 4", "lines 4, 6"."""
    shown = ", ".join(str(n) for n in sorted(set(lines))[:6]) + ("…" if len(set(lines)) > 6 else "")
    return msg("proof.lines_one" if len(set(lines)) == 1 else "proof.lines", lang, lines=shown)


def _at(lines: list[int], lang: str) -> str:
    """The first four draft lines, for the book (「12行、40行ほか」, "12, 40 and more")."""
    shown = msg("proof.sep", lang).join(msg("proof.at_line", lang, n=n) for n in sorted(set(lines))[:4])
    return shown + (msg("proof.more", lang) if len(set(lines)) > 4 else "")


def _sentences(line: str) -> list[str]:
    return [t for t in re.split(r"(?<=。)", line.strip("　 ")) if t]


@lru_cache(maxsize=16384)
def _alike(a: str, b: str) -> bool:
    """Nine tenths of the two sentences match (the cheap upper bounds first: the lengths alone are
    difflib's ``real_quick_ratio``). Kept by the pair (bounded): a warm rulebook process compares
    the same sentences on every save."""
    total = len(a) + len(b)
    if total and 2.0 * min(len(a), len(b)) / total < 0.9:
        return False
    m = SequenceMatcher(None, a, b, autojunk=False)
    return m.real_quick_ratio() >= 0.9 and m.quick_ratio() >= 0.9 and m.ratio() >= 0.9


def _heading_of(doc: Document) -> Callable[[int], str]:
    """The title of the heading (section, step or sub-heading) a draft line comes under."""
    heads = sorted([(s.line, s.title) for s in doc.sections]
                   + [(c.line, c.title) for s in doc.sections for c in s.children if isinstance(c, Step)]
                   + [(b.line, b.text) for b in doc.blocks() if isinstance(b, Subheading)])
    lines = [n for n, _ in heads]
    return lambda n: heads[i - 1][1] if (i := bisect_right(lines, n)) else ""


def disagreeing_numbers(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """The same rule stated twice with another number: two sentences of the rules that read
    alike once their numbers are masked (examples, 「例えば…」, and two rows of one table left out), with the change-log
    lines that mention both numbers (never two ◇ entries of the components list, whose counts
    are the data's to check: 資源トークン（小）（４０個） and 資源トークン（大）（１６個）). Two such
    sentences under headings of their own and no
    change-log line about them are a query, not a slip: the rules of two occasions may well
    differ (〇決算 scores 「２ＶＰ」 a set, 〇最終決算 「１ＶＰ」)."""
    heading = _heading_of(doc)
    entries = {c.line for c in doc.components}  # ◇ entries: their counts are checked against the data
    # the rows of one table or diagram: each row states its own numbers (a scoring table's 五光 １５点
    # 光の札５枚 over 四光 １０点 光の札４枚 is no rule stated twice, trial43)
    table_of = {t.line + k: id(t) for s in doc.rules for t in _tables(s) for k in range(len(t.lines))}
    found: list[tuple[str, int, str]] = []  # (sentence, line, masked)
    for n, line in _rules_lines(doc, text):
        if n in entries:
            continue
        for sentence in _sentences(line):
            if _NUMBER.search(sentence) and len(sentence) >= 15 and not sentence.startswith("例えば"):
                found.append((sentence, n, _NUMBER.sub(lambda m: "#" + m.group(2), sentence)))
    changelog = [(n, line.strip("　・ ")) for s in doc.of_kind("changelog") for n, line in _lines(text)
                 if s.line < n < _end(doc.sections, s)]
    out, done = [], set()
    for i, (a, na, ma) in enumerate(found):
        for b, nb, mb in found[i + 1:]:
            if a == b or (a, b) in done or not _alike(ma, mb) or table_of.get(na, 0) == table_of.get(nb, 1):
                continue
            nums_a = [m.group(0) for m in _NUMBER.finditer(a)]
            nums_b = [m.group(0) for m in _NUMBER.finditer(b)]
            differ = [(x, y) for x, y in zip(nums_a, nums_b) if x != y]
            if not differ:
                continue
            done.add((a, b))
            digits = {re.sub(r"\D", "", v) for pair in differ for v in pair}
            related = [(n, line) for n, line in changelog if sum(d in line for d in digits) >= 2]
            pairs = msg("proof.sep", lang).join(msg("proof.numbers.pair", lang, a=x, b=y) for x, y in differ)
            head_a, head_b = heading(na), heading(nb)
            if head_a != head_b and not related:  # two occasions' rules, each under its heading
                said = dict(pairs=pairs, a=a, b=b, line_a=na, line_b=nb, head_a=head_a, head_b=head_b, path=draft_path)
                out.append(Finding(msg("proof.kind.query", lang), msg("proof.numbers.query_book", lang, **said),
                                   msg("proof.numbers.query_file", lang, **said)))
                continue
            book = msg("proof.numbers.book", lang, pairs=pairs, a=a, b=b, line_a=na, line_b=nb)
            file = msg("proof.numbers.file", lang, pairs=pairs, a=a, b=b, line_a=na, line_b=nb, path=draft_path)
            if related:
                book += msg("proof.numbers.log_book", lang, lines=msg("proof.sep", lang).join(
                    msg("proof.numbers.log_line_book", lang, n=n, text=line) for n, line in related))
                file += msg("proof.numbers.log_file", lang, lines="; ".join(
                    msg("proof.numbers.log_line_file", lang, n=n, text=line) for n, line in related))
            out.append(Finding(msg("proof.kind.numbers", lang), book, file))
    return out


def count_mismatches(rows: list[ComponentRow], doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """The components whose draft count differs from the data's, at ``draft_path:line``."""
    lines = {c.total or c.name: c.line for c in doc.components}  # (a total over its parts: its row is named by it)
    out = []
    for row in rows:
        for label, draft_n in row.mismatches:
            n = lines.get(row.name, 0)
            said = dict(label=label, draft=draft_n, data=row.count_text_of(label, english=is_latin(lang)) or "", line=n, path=draft_path)
            out.append(Finding(msg("proof.kind.count", lang), msg("proof.count.book", lang, **said),
                               msg("proof.count.file", lang, **said)))
    return out


def unlisted_decks(rows: list[ComponentRow], doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """The printed decks the draft's components list does not name: the book lists them under
    その他の内容物 with the data's count; the designer may want them in the draft (said at the
    components section's line)."""
    kind, other = msg("proof.kind.components", lang), msg("rulebook.other_components", lang)
    line = next((s.line for s in doc.sections if s.is_components), 0)
    at = f"{draft_path}:{line}" if line else str(draft_path)
    english = is_latin(lang)
    return [Finding(kind, msg("proof.unlisted.book", lang, name=r.name, count=r.count_text(english) or "", other=other),
                    msg("proof.unlisted.file", lang, path=at, name=r.name, count=r.count_text(english) or "",
                        deck=", ".join(r.deck_ids), other=other), (r.name,))
            for r in rows if r.unlisted and r.deck_ids]


def provisional_counts(rows: list[ComponentRow], lang: str) -> list[Finding]:
    """The counts the book prints marked 「（仮）」: the draft gives none, the data's is a stand-in."""
    kind = msg("proof.kind.open", lang)
    return [Finding(kind, msg("proof.provisional.book", lang, name=r.name, count=r.count_text()),
                    msg("proof.provisional.file", lang, name=r.name, count=r.count_text(),
                        where=next((d.where for d in r.items if d.stand_in_count), "")), (r.name,))
            for r in rows if r.provisional and r.count_text()]


def _provisional_names(rows: list[ComponentRow]) -> set[str]:
    """The decks and sourced parts whose stand-in count the book prints 「（仮）」."""
    return {d.name for r in rows if r.provisional and r.count_text() for d in r.items if d.stand_in_count}


_MEMO_COUNT = re.compile(r"([^＋+（）()、\s]+)[（(]([^（）()]*?[＝=]\s*([０-９0-9]+)\s*[？?]?)[）)]")


def memo_counts(doc: Document, game: Game, draft_path: Path | str, lang: str) -> list[Finding]:
    """A count memo of the components section that disagrees with the data:
    「ウッドキューブ（３色×４＝１２？）」 against the four colours of five cubes in ``sourced:``."""
    names = [(s.name, s.count) for s in game.sourced] + [(d.name, d.count) for d in game.decks]
    out = []
    for s in doc.rules:
        for memo in s.memos:
            for m in _MEMO_COUNT.finditer(memo.text):
                head = m.group(1)
                data = [(name, n) for name, n in names if name.startswith(head)]
                total = sum(n for _, n in data)
                said = int(m.group(3).translate(str.maketrans("０１２３４５６７８９", "0123456789")))
                if data and total != said:
                    parts = dict(name=head, memo=m.group(0), draft=said, data=total, kinds=len(data), line=memo.line,
                                 path=draft_path)
                    out.append(Finding(msg("proof.kind.count", lang), msg("proof.memo.book", lang, **parts),
                                       msg("proof.memo.file", lang, **parts), (head,)))
    return out


def placeholders(game: Game, lang: str, printed_provisional: Collection[str] = ()) -> list[Finding]:
    """The 未定 values of game.yaml and the data, each field once with how many more; but a deck's
    count the book prints 「（仮）」 (``printed_provisional``: the decks' names), which
    ``provisional_counts`` lists: 種族ボード's 未定 count note and its 「5枚（仮）」 were two notes."""
    kind = msg("proof.kind.open", lang)
    out = []
    if is_placeholder(game.players) or not str(game.players).strip():
        out.append(Finding(kind, msg("proof.players.book", lang, players=game.players or msg("proof.players.empty", lang)),
                           msg("proof.players.file", lang, path=game.options.get("players_at") or game.root / "game.yaml",
                               players=repr(game.players))))  # (game.yaml's players: line, as the build's warning)
    for deck in game.decks:
        by_field: dict[str, list[tuple]] = defaultdict(list)
        for where, fld, value in deck.placeholders:
            by_field[re.sub(r"\[\d+\]$", "", fld.rsplit(".", 1)[-1])].append((where, fld, value))
        for key, found in by_field.items():
            if "count" in key and deck.name in printed_provisional:
                continue
            # first: the piece and field ("Fog Bank.art") proof.txt names, so the designer finds it; the
            # book says the deck only, so a piece renamed sets no page again
            where, first, value = found[0]
            value = open_value_said(value, lang, game.lang)
            more = len(found) - 1
            out.append(Finding(
                kind, msg("proof.open.book", lang, deck=deck.name, value=value,
                          more=msg("proof.open.more_book", lang, n=more) if more else ""),
                msg("proof.open.file", lang, where=where, deck=deck.name, field=first, value=value,
                    more=msg("proof.open.more_file", lang, n=more) if more else "")))
    for s in game.sourced:
        if is_placeholder(s.note):  # (kept: a bought part's note says more than its count)
            out.append(Finding(kind, msg("proof.sourced.book", lang, name=s.name, note=s.note),
                               msg("proof.sourced.file", lang, path=game.root / "game.yaml", name=s.name, note=s.note)))
    return out


# what a designer writes for something still to decide: 未定, 要検討, TODO in a Japanese draft;
# TBD, TODO, ?? in an English one (either in either)
_OPEN_IN_DRAFT = re.compile(r"未定|要検討|(?<![A-Za-z])(?:TBD|TODO)(?![A-Za-z])|[?？]{2,}")
OPEN_LISTED = 50  # draft lines with a 未定, each listed; the last says how many more


def open_in_draft(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """未定／要検討／TODO (TBD, ??) the rules still hold, each line with the first: the book would
    print them. Not the designer's notes, brainstorm or change log, which are open questions by
    nature and never printed."""
    found = []
    for n, line in _rules_lines(doc, text):
        m = _OPEN_IN_DRAFT.search(line)
        if m:
            found.append((n, m.group(0), grammar.context(line, m.start(), m.end(), width=20)))
    kind, out = msg("proof.kind.open", lang), []
    for k, (n, word, context) in enumerate(found[:OPEN_LISTED]):
        more = len(found) - OPEN_LISTED if k == OPEN_LISTED - 1 else 0
        said = dict(found=word, line=n, context=context, path=draft_path)
        out.append(Finding(kind, msg("proof.draft_open.book", lang, **said)
                           + (msg("proof.open.more_book", lang, n=more) if more > 0 else ""),
                           msg("proof.draft_open.file", lang, **said)
                           + (msg("proof.open.more_file", lang, n=more) if more > 0 else ""), (word,)))
    return out


# The ems of the book's narrowest body line: the A5 text column less a step's hanging number (2 em)
LINE_EMS = (A5[0] - MARGIN_INNER - MARGIN_OUTER) / BODY_SIZE - 2
RUN_SHOWN = 12  # characters of a long run quoted in its note


def _ems(ch: str) -> float:
    return 1.0 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 0.5


def unbreakable_runs(text: str, draft_path: Path | str, lang: str, draft_lang: str = "ja") -> list[Finding]:
    """Each draft line holding a run JLREQ allows no break in (a long ……, ーーーー, 。。。) longer
    than a line of the book: the book breaks it at the line's edge, against the rule, rather than
    run it off the page (text/linebreak.py), and the note asks for a shorter one."""
    out = []
    for n, line in _lines(text):
        if len(line) <= LINE_EMS:
            continue  # (too short to hold one: most lines are not looked at)
        classes = lb.break_classes(list(line), phrases=False, lang=draft_lang, hyphenate=False)
        start = 0
        for i in range(1, len(line) + 1):
            if i < len(line) and classes[i] == lb.KINSOKU:
                continue
            run = line[start:i]
            if sum(_ems(c) for c in run) > LINE_EMS:
                shown = run if len(run) <= RUN_SHOWN else run[:RUN_SHOWN] + "…"
                said = dict(run=shown, n=len(run), line=n, path=draft_path)
                out.append(Finding(msg("proof.kind.query", lang), msg("proof.unbreakable.book", lang, **said),
                                   msg("proof.unbreakable.file", lang, **said)))
                break
            start = i
    return out


_SLIP_KIND = {"style": "proof.kind.style", "variant": "proof.kind.spelling", "width": "proof.kind.spelling",
              "halfwidth": "proof.kind.spelling"}


def slips(doc: Document, text: str, draft_path: Path | str, lang: str, names: Collection[str] = (),
          latin: bool = False) -> list[Finding]:
    """The analyser's findings (``grammar``; of an English draft, ``latin``, ``englishproof``'s)
    in every line but the brainstorm's; the style and
    spelling rules read the rules sections only, and a spelling inside one of ``names`` (the
    game's title, its decks' names, as the data and the draft write them) as the name's own."""
    skip = [(s.line, _end(doc.sections, s)) for s in doc.of_kind("brainstorm")]
    lines = [(n, line) for n, line in _lines(text) if not any(a <= n < b for a, b in skip) and not is_changelog_mark(line)]
    out = []
    read = englishproof.slips if latin else grammar.slips
    found = read(lines, {n for n, _ in _rules_lines(doc, text)}, names)
    for s, more in _bounded(found):
        said = dict(found=s.found, suggest=s.suggest, why=msg(f"proof.slip.{s.rule}", lang), line=s.line,
                    context=s.context, path=draft_path)
        out.append(Finding(msg(_SLIP_KIND.get(s.rule, "proof.kind.typo"), lang),
                           msg("proof.slip.book", lang, **said) + (msg("proof.open.more_book", lang, n=more) if more else ""),
                           msg("proof.slip.file", lang, **said) + (msg("proof.open.more_file", lang, n=more) if more else ""),
                           (s.found,)))
    return out


SLIPS_A_LINE = 3  # of one rule on one draft line, each listed
SLIPS_LISTED = 300  # in all: a draft of 40,000 unclosed （ made as many notes, the appendix thousands of pages


def _bounded(found: Sequence[Slip]) -> list[tuple[Slip, int]]:
    """The slips to list, each with how many like it are left out after it: at most
    ``SLIPS_A_LINE`` of a rule on a line, ``SLIPS_LISTED`` in all (the last says how many more)."""
    kept: list[list] = []  # [slip, how many left out after it]
    last: dict[tuple[str, int], list] = {}
    listed: dict[tuple[str, int], int] = defaultdict(int)
    for s in found:
        key = (s.rule, s.line)
        if listed[key] == SLIPS_A_LINE:
            last[key][1] += 1
            continue
        listed[key] += 1
        last[key] = [s, 0]
        kept.append(last[key])
    if len(kept) > SLIPS_LISTED:
        kept[SLIPS_LISTED - 1][1] += sum(1 + more for _, more in kept[SLIPS_LISTED:])
        kept = kept[:SLIPS_LISTED]
    return [(s, more) for s, more in kept]


def _piece_texts(game: Game):
    """Every text printed on a piece (each field's value, each entry of a list field), with its
    deck and piece: what the card checks read."""
    for deck in game.decks:
        for piece in deck.pieces:
            for value in piece.values.values():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, str):
                        yield deck, piece, item


def card_terms(game: Game, text: str, lang: str, draft_lang: str = "ja") -> list[Finding]:
    """The 【terms】 printed on the pieces (any text of a deck's pieces) against the draft's: one
    spelt differently from a term of the book (a character apart), one the book writes only
    without 【】 (「森・草原・山の３種類」), or one the book never uses. Each term once, at the
    first piece that prints it. An edition whose cards are in another script than the draft
    (English cards, the Japanese draft set for want of a draft.en.txt) compares only the terms
    written in the draft's script (an untranslated 【森】): 【Charge】 is no term of a Japanese book."""
    book = set(terms(text))
    plain = re.sub(r"【[^】]*】", "", text)  # the draft's words outside its 【terms】
    other_script = is_latin(game.lang) != is_latin(draft_lang)
    seen: set[str] = set()
    out = []
    for deck, piece, item in _piece_texts(game):
        for term in terms(item):
            if term in book or term in seen or (other_script and written_in_cjk(term) == is_latin(draft_lang)):
                continue
            seen.add(term)
            near = sorted(b for b in book if _one_apart(b, term))
            how = "spelt" if near else "unmarked" if term in plain else "missing"
            out.append(_card_finding("proof.card_term", how, term, lang, deck=deck.name, piece=piece.label,
                                     term=term, where=piece.where, book_term=near[0] if near else ""))
    return out


def _card_finding(key: str, how: str, word: str, lang: str, **said: str) -> Finding:
    """A card's word that the book spells otherwise (``how``: "spelt"), writes only without 【】
    ("unmarked") or never uses ("missing"): the line for the book's report and the one for the
    file, from the messages ``key``.spelt / .unmarked / .missing."""
    spelt = how == "spelt"
    key += f".{how}"
    return Finding(msg("proof.kind.spelling" if spelt else "proof.kind.term", lang),
                   msg(f"{key}_book", lang, **said), msg(f"{key}_file", lang, **said), (word,))


# A name of a piece in a card's text: a run of katakana and kanji ending in a kind of piece
_KINDS = ("カード", "トークン", "タイル", "ボード", "キューブ", "マーカー", "コマ", "駒", "チット", "ポーン", "ダイス", "サイコロ",
          "トラック")  # none a prefix or a suffix of another
_PIECE_KINDS = "(?:" + "|".join(_KINDS) + ")"
_PIECE_NAME = re.compile(r"[\u30a1-\u30ff\u4e00-\u9fff々]*?[\u30a1-\u30ff\u4e00-\u9fff々]" + _PIECE_KINDS)
_NOT_A_NAME = set("各全他同次前新旧元手山")  # 各カード, 全カード: a card, not a card's name
_WORD = re.compile(r"[\u30a1-\u30ff\u4e00-\u9fff々]{1,12}")  # a piece's value that may name a kind of card: its type


def _piece_names(text: str) -> list[str]:
    """The names of pieces a card's text uses: 「ベースカード」, 種族ボード上 → 種族ボード; 各カード
    (each card) is none."""
    out = []
    for run in re.findall(r"[\u30a1-\u30ff\u4e00-\u9fff々]+", text):
        # the run up to its last kind of piece, found by rfind: a search for '.*カード' tried every
        # start of the run to its end (a card text of 19,000 katakana: 5 s of the rulebook's time)
        kinds = [(run.rfind(kind), kind) for kind in _KINDS if kind in run]
        if not kinds:
            continue
        at, kind = max(kinds)
        name = run[:at + len(kind)]
        lead = 0  # 各, 全 … in front, while a name is left before the kind
        while lead < len(name) - len(kind) - 1 and name[lead] in _NOT_A_NAME:
            lead += 1
        name = name[lead:]
        if _PIECE_NAME.fullmatch(name) and name[0] not in _NOT_A_NAME:
            out.append(name)
    return out


def card_names(game: Game, rows: list[ComponentRow], lang: str) -> list[Finding]:
    """The deck and piece names the pieces' texts use, against the book's components list: a name
    one character or so from a component's name (ベースカード / ベ一スカード) is spelt
    otherwise; a name the components pages never mention (neither a component, a part, nor their
    descriptions) is a query. Each name once, at the first piece that prints it."""
    listed: set[str] = set()
    for r in rows:
        for name in [r.name] + [n for n, _ in r.parts] + [d.name for _, ds in r.parts for d in ds]:
            listed.add(name)
            listed.update(p for p in re.split(r"[（）()、／/・\s]+", name) if p)
    pages = "\n".join(listed) + "\n".join(getattr(b, "text", "") for r in rows for b in r.description)
    pages += "\n".join(d.name for d in game.decks)
    # 「草原タイル」 is the piece 草原 of the 地形タイル: a piece's name with its deck's kind; so is
    # a value a piece gives with it, 「アクションカード」 of cards whose type reads アクション
    kinded = {word + kind for d in game.decks for kind in _KINDS if d.name.endswith(kind) for p in d.pieces
              for word in [p.label, *(str(v) for v in p.values.values() if isinstance(v, str) and _WORD.fullmatch(v))]}
    seen: set[str] = set()
    out = []
    for deck, piece, item in _piece_texts(game):
        if item == piece.label:
            continue  # the piece's own name (a unit 生駒足軽, its clan's 駒 no kind of piece) names no other piece
        for name in _piece_names(item):
            if name in seen or name in pages or name in kinded:
                continue
            seen.add(name)
            near = sorted(n for n in listed if len(n) > 2 and (_one_apart(n, name) or (
                abs(len(n) - len(name)) <= 1 and SequenceMatcher(None, n, name).ratio() >= 0.85)))
            out.append(_card_finding("proof.card_name", "spelt" if near else "missing", name, lang, deck=deck.name, piece=piece.label,
                                     name=name, where=piece.where, listed=near[0] if near else ""))
    return out


def _titles_and_diagrams(node: object) -> tuple[set[str], bool]:
    """The headings under a section (steps, sub-headings) and whether a diagram stands among them."""
    titles: set[str] = set()
    diagram = False
    for c in getattr(node, "children", []):
        diagram = diagram or isinstance(c, Preformatted)
        own = getattr(c, "title", None) or (getattr(c, "text", None) if hasattr(c, "level") else None)
        if own:
            titles.add(own)
        t, d = _titles_and_diagrams(c)
        titles |= t
        diagram = diagram or d
    return titles, diagram


def figure_references(doc: Document, text: str, draft_path: Path | str, lang: str,
                      figures: Collection[str] = ()) -> list[Finding]:
    """「図１を参照」「下図のように」 in a rules section that has no figure: neither a diagram of
    the draft nor a figure of game.yaml placed after its title or one of its headings."""
    out = []
    for s in doc.rules:
        titles, diagram = _titles_and_diagrams(s)
        if diagram or {anchor(t) for t in titles | {s.title}} & {anchor(f) for f in figures}:
            continue
        for n, line in _lines(text):
            if not s.line <= n < _end(doc.sections, s):
                continue
            for m in _FIGURE_REF.finditer(line):
                said = dict(ref=m.group(0), section=s.title, line=n, path=draft_path)
                out.append(Finding(msg("proof.kind.figure", lang), msg("proof.figure.book", lang, **said),
                                   msg("proof.figure.file", lang, **said), (m.group(0),)))
    return out


def _tables(node: object) -> list[Preformatted]:
    out: list[Preformatted] = []
    for c in getattr(node, "children", []):
        out += [c] if isinstance(c, Preformatted) else _tables(c)
    return out


def askew_tables(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """A table's row whose columns do not line up with the others': the book sets the rows as
    written, so it prints askew."""
    out = []
    for s in doc.rules:
        for table in _tables(s):
            for k in askew_rows(table.lines):
                row = COLUMN_GAP.split(table.lines[k].strip(" 　"))[0]
                said = dict(row=row, line=table.line + k, path=draft_path)
                out.append(Finding(msg("proof.kind.table", lang), msg("proof.table.book", lang, **said),
                                   msg("proof.table.file", lang, **said), (row,)))
    return out


def one_space_rows(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A line beside a table that is its row but for one space before a column (set as a paragraph)."""
    lines, out, seen = text.split("\n"), [], set()
    for s in doc.rules:
        for table in _tables(s):
            for n in (table.line - 1, table.line + len(table.lines)):
                row = one_space_row(lines[n - 1], table.lines) if 0 < n <= len(lines) and n not in seen else None
                if row:
                    seen.add(n)
                    said = dict(row=row, line=n, path=draft_path)
                    out.append(Finding(msg("proof.kind.table", lang), msg("proof.tablegap.book", lang, **said),
                                       msg("proof.tablegap.file", lang, **said), (row,)))
    return out


def step_numbers(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """Steps numbered 1, 1, 2 (a heading number repeated or skipped): the book prints them so."""
    out = []
    for s, numbers, step in misnumbered_steps(doc):
        said = dict(section=s.title, step=step.title, numbers=", ".join(map(str, numbers)), count=len(numbers),
                    line=step.line, path=draft_path)
        out.append(Finding(msg("proof.kind.steps", lang), msg("proof.steps.book", lang, **said),
                           msg("proof.steps.file", lang, **said), (step.title,)))
    return out


def section_numbers(doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """Two sections the draft numbers alike (「■　２．０」 twice): the book prints the number twice,
    and a reference to it (→２．３参照) cannot tell them apart."""
    out = []
    for number, sections in section_numbering(doc)[0]:
        for s in sections[1:]:
            said = dict(section=s.title, first=sections[0].title, number=number, line=s.line,
                        first_line=sections[0].line, path=draft_path)
            out.append(Finding(msg("proof.kind.steps", lang), msg("proof.sections.book", lang, **said),
                               msg("proof.sections.file", lang, **said), (s.title,)))
    return out


def references(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A cross reference of the rules (「→６．４参照」, "see 6.4") to a case the draft numbers nowhere."""
    out = []
    printed = [f"{own}.{child.number}" for s in doc.rules if (own := own_section_number(s.title)) is not None
               for child in s.children if isinstance(child, Step) and not child.sentence]
    for line, ref, number in dangling_references(_rules_lines(doc, text), printed):
        said = dict(ref=ref, number=number, line=line, path=draft_path)
        out.append(Finding(msg("proof.kind.reference", lang), msg("proof.reference.book", lang, **said),
                           msg("proof.reference.file", lang, **said), (ref,)))
    return out


def proof(doc: Document, text: str, game: Game, rows: list[ComponentRow], draft_path: Path | str,
          lang: str, *, draft_lang: str = "ja", ignore: Collection[str] = (),
          figures: Collection[str] = ()) -> list[Finding]:
    """Every finding, worded in ``lang`` (see :func:`report_lang`), but those whose words
    ``ignore`` names; the draft is also read for slips of the pen (``slips``: a Japanese one by
    the analyser, an English one by ``englishproof``). ``figures``: the
    ``after:`` titles of game.yaml's figures."""
    names = [game.title, *(d.name for d in game.decks),  # and as the draft names them (an English
             doc.title, *(name for c in doc.components for name in c.names)]  # edition's names are English)
    found = (near_duplicates(doc, text, draft_path, lang, [*names, *(s.name for s in game.sourced)]) + bare_terms(doc, text, draft_path, lang)
             + disagreeing_numbers(doc, text, draft_path, lang)
             + count_mismatches(rows, doc, draft_path, lang) + memo_counts(doc, game, draft_path, lang)
             + unlisted_decks(rows, doc, draft_path, lang)
             + open_in_draft(doc, text, draft_path, lang)
             + placeholders(game, lang, _provisional_names(rows)) + provisional_counts(rows, lang) + card_terms(game, text, lang, draft_lang)
             + card_names(game, rows, lang) + figure_references(doc, text, draft_path, lang, figures)
             + step_numbers(doc, draft_path, lang) + section_numbers(doc, draft_path, lang)
             + references(doc, text, draft_path, lang)
             + askew_tables(doc, draft_path, lang)
             + (one_space_rows(doc, text, draft_path, lang) if not is_latin(draft_lang) else [])
             + unbreakable_runs(text, draft_path, lang, draft_lang)
             + slips(doc, text, draft_path, lang, latin=is_latin(draft_lang), names=names))
    return [f for f in found if not set(f.subject) & set(ignore)]


def proof_text(game: Game, draft_path, findings: list[Finding], lang: str, flattened: bool = False) -> str:
    """proof.txt: one finding a line, kind first, with paths and line numbers (of the lines
    recovered, when the draft's newlines had been flattened: the file itself is one line)."""
    head = [msg("proof.head", lang, title=game.title, draft=draft_path)]
    head += [msg("proof.flattened", lang), ""] if flattened else [""]
    if not findings:
        return "\n".join(head + [msg("proof.none", lang)]) + "\n"
    return "\n".join(head + [f"{f.kind}\t{f.file}" for f in findings]) + "\n"
