"""Slips of the pen in a Japanese draft, found with a morphological analyser (MeCab through
fugashi, with the UniDic-lite dictionary): what a publisher's editor marks before anything else.

Each rule reads the analyser's words (surface, part of speech, conjugation type and form, lemma),
not the raw characters, so 「建築してください」 is never taken for 「建築しください」:

- ``te``: a verb's 連用形 directly followed by いる／いた／ください without て
  (配置しいる → 配置している, 建築しください → 建築してください), and 〜れたいた (配置されたいた →
  配置されていた);
- ``ra``: ら抜き言葉 (見れる → 見られる, 食べれる → 食べられる, 来れる → 来られる);
- ``re``: れ足す言葉, a potential verb given one れ more (出せれます → 出せます, 選べれる → 選べる,
  持てれます → 持てます), never told ら抜き (持てられ is no word);
- ``particle``: the same particle twice (をを, にに, がが …);
- ``tsuki``: 「につい」 directly before a number (１個につい１戦力 → １個につき１戦力);
- ``hajimete``: 「始めて」 as the adverb after a comma or a て-form (→ 初めて);
- ``go``: a noun + 後 directly followed by する (移動後する → 移動後にする);
- ``ippo``: the numeral 1 for the 一 of 一方 (1方 → 一方);
- ``tatoe``: the adverb たとえ written 例え (例え戦争状態でも → たとえ; 例えば and the noun 例え are
  the analyser's other words);
- ``no``: a count's or an ordinal's 「の」 before a verb's plain form (２回目の消費する → ２回目に
  消費する; never a subject's の, プレイヤーの配置するワーカー);
- ``wo``: a noun and its count run into the verb without を (アリス１つ選び → アリスを１つ選び; never
  a time's count, 毎ターン１枚引く);
- ``quotes``: ”…” with the closing mark opening the quotation (→ “…” or 〝…〟);
- ``style``: です／ます and だ／である sentence endings mixed in the rules (the fewer are listed);
- ``variant``: one noun or adverb spelt two ways in the rules (フェイズ／フェーズ, すべて／全て),
  by the dictionary's lemma (同じ様に／同じように too); the rarer spelling is listed; a word written
  part in kana (手ふだ, read as 手＋札) where the rules spell the whole word in kanji (手札) too; a
  verb written in kana where the rules write it in kanji (縦置きでおいて beside 置いて; never a
  helping verb after て, 除けておく, nor おく of an interval, ひと呼吸おいて); a noun of one kanji
  written in kana (よこ beside 横; not a noun of time or place, 時／とき, nor a 形式名詞, 事／こと).

And rules on the characters alone (no analyser):

- ``bracket``: a 「（『【［〔 the line never closes, or a 」）』】］〕 it never opened (a list's
  number １） or a) is no bracket);
- ``halfwidth``: half-width katakana (ｽﾀｰﾄ → スタート);
- ``choon``: a dash or hyphen typed for the long-vowel mark ー after katakana, before katakana or a
  particle (カ－ド, カ-ド, プレイヤ―が → カード, プレイヤーが; a doubled dash ―― is a dash);
- ``leader``: a 三点リーダー or a ダッシュ set alone, or dots typed for it, where Japanese text
  doubles them (JIS Z 8301's and every house style's 「……」「――」): 少ない…調整 → ……, 待つ・・・ →
  ……, 青―赤 → ――, a dash beside Latin letters (``Alice — Draft``) left alone;
- ``width``: digits, ！ or ？, or one Latin word (ＶＰ／VP, ＯＫ／OK), written both full- and
  half-width in the rules: the rarer width (a tie: the half-width) is listed;
- ``ascii``: a half-width stop, comma, colon, semicolon or pair of brackets in Japanese text
  (捨てます. → 捨てます。, 札,山 → 札、山, (時計回り) → （時計回り）; between two digits ．and ，:
  １.５ → １．５); never in Latin text (``e.g.``, ``ver.2``, ``(see 3)``);
- ``nakaguro``: a katakana compound written with 中黒 between its words in one place of the rules
  and run together in another (スタート・プレイヤー／スタートプレイヤー): the rarer listed;
- ``nesting``: a 「…」 inside a 「…」 (「王は「勝つ」と言った」 → 「王は『勝つ』と言った」: JIS Z 8301
  and every house style nest 『』 in 「」);
- ``stop``: a paragraph of the rules (not a 　・ bullet) ending ます／です／ください without its 。.

Every slip keeps its draft line, the words as written, a suggestion and the rule's name; the
proofing report (``proof``) words them. False positives are kept rare on purpose: each rule
needs the exact sequence above, and a designer marks an intended one with ``rulebook.proof.ignore``
in game.yaml.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import astuple, dataclass
from functools import lru_cache
from typing import Any

import fugashi

from pnpgen import resources, usercache

_PARTICLES = set("をがにはのへでとも")
_FULLWIDTH_ONE = ("1", "１")
_WRONG_QUOTES = re.compile(r"”([^“”\n]{1,40})”")
_POLITE = ("です", "ます")
_BRACKETS = {"「": "」", "『": "』", "（": "）", "【": "】", "［": "］", "〔": "〕", "(": ")"}
_CLOSERS = {v: k for k, v in _BRACKETS.items()}
# １）蓬旦の作成, 「次の順に：１）引く、２）出す」, a) b): a list's number, not a bracket
_LIST_NUMBER = re.compile(r"(?:^|(?<=[\s　、。，,]))[0-9０-９]{1,2}[）)]|(?:^|(?<=[\s　]))[a-zａ-ｚ][）)]")
_HALFWIDTH_KANA = re.compile(r"[\uff65-\uff9f]+")
# a dash or hyphen where ー belongs: after katakana and before katakana or a particle
_CHOON = re.compile(r"[ァ-ヴ][－\-‐‑―—–](?=[ァ-ヴ]|[がをにはのへでとやも])")
# digits, ! and ? in Japanese text: full-width and half-width spellings of each
# a step's or list item's number at a line's start (１：, １）, （１）, ５．２．１　), which the book
# numbers itself: its width is the marker's, never the rules' digits
_STEP_NUMBER = re.compile(r"[ 　]*[（(]?[0-9０-９]+(?:[．.][0-9０-９]+)*[：:）)．.]?")
_WIDTHS = {"digits": (re.compile(r"[０-９]+"), re.compile(r"(?<![A-Za-z0-9./:_ -])[0-9]+(?![A-Za-z0-9./:_ -])")),
           "!": (re.compile("！"), re.compile(r"(?<=[^\x00-\x7f])!")),
           "?": (re.compile("？"), re.compile(r"(?<=[^\x00-\x7f])\?"))}
# a Latin word in full width (ＶＰ) and in half width (VP), the same once normalised
_LATIN_WORDS = (re.compile(r"(?<![Ａ-Ｚａ-ｚ])[Ａ-Ｚａ-ｚ]+(?![Ａ-Ｚａ-ｚ])"), re.compile(r"(?<![A-Za-z])[A-Za-z]+(?![A-Za-z])"))
# a leader or dash alone (…, ‥, ―, —) or dots typed for a leader (・・・), in Japanese text
_LEADER = re.compile(r"(?<![…‥])[…‥](?![…‥])|・{2,}|(?<=[^\x00-\x7f\s])\.{2,}")
_DASH = re.compile(r"(?<![―—])[―—](?![―—])")
_NO_STOP = re.compile(r"^　(?![　・]).*(?:ます|です|ください|ません|ました|でした|である)$")
_PLAIN = ("だ", "である")


@dataclass(frozen=True)
class Slip:
    """A writing slip in the draft (a wrong particle, a mixed style, a half-width mark): the line, what was written
    and what would be right, for the proof."""

    rule: str  # te | ra | particle | tsuki | hajimete | go | ippo | tatoe | no | wo | quotes | style | variant | bracket | halfwidth | ascii | nakaguro | nesting | choon | leader | width | stop (and englishproof: doubled | its | widecase)
    line: int  # the draft's line
    found: str  # the words as written
    suggest: str  # what would be right
    context: str  # the draft line around them
    at: int = 0  # where they start in the line (the report's order)


@dataclass(frozen=True)
class Word:
    """One word of a draft line as the morphological dictionary reads it: what the proof's grammar checks look
    at."""

    surface: str
    pos: str  # 動詞, 助詞, 名詞 …
    pos2: str  # 非自立可能, 格助詞, 数詞 …
    ctype: str  # 下一段-ラ行 … or *
    cform: str  # 連用形-一般 … or *
    lemma: str
    base: str  # the dictionary form as written (orthBase)
    start: int  # offset in the line
    pos3: str = ""  # サ変可能 (建築: 建築する), 一般 … or ""


@lru_cache(maxsize=1)
def _tagger() -> Any:
    return fugashi.Tagger()


def words(line: str) -> list[Word]:
    """The analyser's words of one line, with their offsets."""
    return list(_words(line))


# A warm rulebook process (``pnpgen watch``) reads the same draft lines on every save: each
# line's words are the analyser's answer for that text alone, kept by the text (bounded).
@lru_cache(maxsize=4096)
def _words(line: str) -> tuple[Word, ...]:
    out, pos = [], 0
    for w in _tagger()(line):
        f = w.feature
        start = line.find(w.surface, pos)
        start = pos if start < 0 else start
        pos = start + len(w.surface)
        out.append(Word(w.surface, f.pos1 or "", f.pos2 or "", f.cType or "*", f.cForm or "*",
                        f.lemma or w.surface, f.orthBase or w.surface, start, f.pos3 or ""))
    return tuple(out)


def is_action_noun(word: str) -> bool:
    """Whether the analyser reads ``word`` alone as one noun that takes する (建築, 増設: a
    player's action), not an ordinary noun (手札, 以上) nor two words. The word alone, not its
    line: a draft of 10,000 lines has as many words to ask of, and the line's reading took 15 s."""
    found = words(word)
    return len(found) == 1 and found[0].pos == "名詞" and found[0].pos3 == "サ変可能"


# two spaces or more, full- or half-width: a table's or a diagram's column gap (「カス　　　１点」)
_COLUMN_GAP = re.compile(r"[ \u3000]{2,}")


def without_column_gaps(line: str, start: int, end: int) -> tuple[str, int, int]:
    """``line`` with each run of spaces that aligns a column (``_COLUMN_GAP``) one space, a
    full-width one when the run holds one, and ``start:end`` where they are then: a report quotes
    the words of a table's row, not the draft's alignment (「カス　１点　カス札１０枚」, not the
    row's own 「　　　」 gaps, trial59)."""
    kept: list[tuple[int, str]] = []  # (where in ``line``, the character quoted)
    pos = 0
    for m in _COLUMN_GAP.finditer(line):
        kept += [(i, line[i]) for i in range(pos, m.start())]
        kept.append((m.start(), "\u3000" if "\u3000" in m.group() else " "))
        pos = m.end()
    kept += [(i, line[i]) for i in range(pos, len(line))]
    if len(kept) == len(line):
        return line, start, end
    at = [i for i, _ in kept]
    return "".join(ch for _, ch in kept), bisect_left(at, start), bisect_left(at, end)


def context(line: str, start: int, end: int, width: int = 14) -> str:
    """The words around ``line[start:end]``, for a report (「…を配置しいる全ての…」), its column gaps
    one space each (``without_column_gaps``)."""
    line, start, end = without_column_gaps(line, start, end)
    a, b = max(0, start - width), min(len(line), end + width)
    return ("…" if a else "") + line[a:b].strip("　 ") + ("…" if b < len(line) else "")


def _slip(rule: str, n: int, line: str, start: int, end: int, suggest: str) -> Slip:
    return Slip(rule, n, line[start:end], suggest, context(line, start, end), start)


def _verb_forms(n: int, line: str, ws: list[Word]) -> Iterable[Slip]:
    for i, w in enumerate(ws[:-1]):
        nxt = ws[i + 1]
        end = nxt.start + len(nxt.surface)
        if w.pos == "動詞" and w.cform.startswith("連用形") and nxt.pos == "動詞" and \
                nxt.lemma in ("居る", "下さる") and nxt.surface[:1] in "いく":
            yield _slip("te", n, line, w.start, end, w.surface + "て" + nxt.surface)
        if w.lemma == "たい" and w.surface == "たい" and nxt.lemma == "た" and i and ws[i - 1].lemma in ("れる", "られる"):
            prev = ws[i - 1]
            yield _slip("te", n, line, prev.start, end, prev.surface + "ていた")
        if w.pos == "動詞" and w.ctype.startswith(("上一段", "下一段")) and nxt.pos == "助動詞" and \
                nxt.lemma == "れる" and not w.ctype.endswith("ラ行"):
            if _potential(w):  # 選べれる: a potential verb given a れ more (れ足す), not a ら taken away
                yield _slip("re", n, line, w.start, end, w.surface + nxt.surface[1:])
            else:
                yield _slip("ra", n, line, w.start, end, w.surface + "ら" + nxt.surface)
        elif w.pos == "動詞" and nxt.pos == "助動詞" and nxt.lemma == "れる" and nxt.surface.startswith("れ") and \
                w.ctype.startswith("五段") and w.cform.startswith("命令形"):  # 持てれます, read as 持て + れ
            yield _slip("re", n, line, w.start, end, w.surface + nxt.surface[1:])
        elif w.pos == "動詞" and w.ctype.startswith("下一段") and w.cform.startswith("仮定形") and \
                w.surface.endswith("れ") and nxt.lemma == "ます" and _potential(w):  # 出せれます, read as 出せれ + ます
            yield _slip("re", n, line, w.start, w.start + len(w.surface), w.surface[:-1])
    for w in ws:
        if w.pos == "動詞" and w.lemma.endswith("る") and w.base.endswith("れる") and \
                w.base == w.lemma[:-1] + "れる" and w.lemma != w.base:
            yield _slip("ra", n, line, w.start, w.start + len(w.surface),
                        w.surface[: len(w.lemma) - 1] + "られ" + w.surface[len(w.lemma):])


def _potential(w: Word) -> bool:
    """Is ``w`` the potential verb of a 五段 verb (出せる of 出す, 選べる of 選ぶ, 取れる of 取る), whose
    lemma the dictionary gives as that verb's: one more れ after it is れ足す言葉 (出せれる → 出せる),
    where after a 一段 verb's stem a れ alone is ら抜き (見れる → 見られる)."""
    lemma = w.lemma.split("-")[0]
    if lemma == w.base or not w.base.endswith("る"):
        return False
    return lemma[-1:] in "うくぐすつぬぶむ" or (lemma.endswith("る") and lemma[:-1] == w.base[:-2])


def _small_slips(n: int, line: str, ws: list[Word]) -> Iterable[Slip]:
    for i, w in enumerate(ws[:-1]):
        nxt = ws[i + 1]
        end = nxt.start + len(nxt.surface)
        if w.pos == "助詞" and nxt.pos == "助詞" and w.surface == nxt.surface and w.surface in _PARTICLES \
                and nxt.start == w.start + 1:
            yield _slip("particle", n, line, w.start, end, w.surface)
        if w.surface == "つい" and i and ws[i - 1].surface == "に" and nxt.pos2 == "数詞":
            yield _slip("tsuki", n, line, ws[i - 1].start, w.start + 2, "につき")
        if w.surface == "始め" and w.lemma == "始める" and nxt.surface == "て" and i and \
                (ws[i - 1].pos2 == "読点" or ws[i - 1].surface in ("て", "で")) and i + 2 < len(ws) and \
                ws[i + 2].pos2 != "読点":
            yield _slip("hajimete", n, line, w.start, end, "初めて")
        if w.surface == "後" and nxt.lemma == "為る" and nxt.surface == "する" and i and ws[i - 1].pos == "名詞":
            yield _slip("go", n, line, ws[i - 1].start, end, ws[i - 1].surface + "後にする")
        if w.surface in _FULLWIDTH_ONE and nxt.surface == "方" and not (i and ws[i - 1].pos2 == "数詞"):
            yield _slip("ippo", n, line, w.start, end, "一方")
    for w in ws:
        if w.surface == "例え" and w.pos == "副詞" and w.lemma == "仮令":
            yield _slip("tatoe", n, line, w.start, w.start + len(w.surface), "たとえ")


# a count or an ordinal (２回目, ３枚, 最初): no verb's subject, so 「２回目の消費する」 is a
# 「の」 for 「に」 (or a する too many), where 「プレイヤーの配置するワーカー」 is a subject's の
_COUNTED = ("数詞", "助数詞", "助数詞可能")


def _counted(ws: list[Word], i: int) -> bool:
    """Whether the words up to ``ws[i]`` end in a count or an ordinal (２回目, ３枚, １つ)."""
    k = i
    while k > 0 and ws[k].pos == "接尾辞" and ws[k].surface in ("目", "分", "毎"):
        k -= 1
    return k > 0 and ws[k - 1].pos2 == "数詞" and (ws[k].pos2 in _COUNTED or ws[k].pos3 in _COUNTED)


def _no_before_verb(n: int, line: str, ws: list[Word]) -> Iterable[Slip]:
    """``no``: a count's or an ordinal's 「の」 before a verb's plain form, 「２回目の消費する」:
    a noun-modifying の takes a noun (２回目の消費), a verb a case particle (２回目に消費する)."""
    for i in range(1, len(ws) - 2):
        w, verb, then = ws[i], ws[i + 1], ws[i + 2]
        if w.surface == "の" and w.pos2 == "格助詞" and verb.pos == "名詞" and verb.pos3 == "サ変可能" \
                and then.lemma == "為る" and then.surface == "する" and then.cform.startswith(("連体形", "終止形")) \
                and then.start == verb.start + len(verb.surface) and _counted(ws, i - 1):
            start = ws[i - 1].start
            while start and line[start - 1].isdigit():
                start -= 1
            for k in range(i - 1, -1, -1):
                if ws[k].pos2 == "数詞":
                    start = ws[k].start
                    break
            end = then.start + len(then.surface)
            yield _slip("no", n, line, start, end, line[start:w.start] + "に" + line[verb.start:end])


# time and turn words a count may follow without a particle (毎ターン１枚引く: each turn, one)
_TIME_NOUNS = frozenset({"ターン", "ラウンド", "手番", "フェイズ", "フェーズ", "回", "年", "月", "日", "時", "シーズン"})


def _no_particle_before_count(n: int, line: str, ws: list[Word]) -> Iterable[Slip]:
    """``wo``: a noun and its count run into the verb with no particle, 「アリス１つ選び」 (→ アリスを
    １つ選び): the object takes を before the count (「アリスを１つ」) or after it (「アリス１つを」)."""
    for i in range(1, len(ws) - 2):
        noun, num, counter, verb = ws[i - 1], ws[i], ws[i + 1], ws[i + 2]
        if num.pos2 == "数詞" and noun.pos == "名詞" and noun.pos2 != "数詞" and noun.pos3 != "副詞可能" \
                and noun.surface not in _TIME_NOUNS and counter.pos == "接尾辞" and counter.pos3 == "助数詞" \
                and verb.pos == "動詞" and verb.pos2 == "一般" \
                and num.start == noun.start + len(noun.surface) and verb.start == counter.start + len(counter.surface) \
                and not (i >= 2 and ws[i - 2].pos == "接頭辞"):  # 各ラウンド２枚: each round
            end = verb.start + len(verb.surface)
            yield _slip("wo", n, line, noun.start, end, noun.surface + "を" + line[num.start:end])


def _quotes(n: int, line: str) -> Iterable[Slip]:
    for m in _WRONG_QUOTES.finditer(line):
        yield _slip("quotes", n, line, m.start(), m.end(), f"“{m.group(1)}”")


def _brackets(n: int, line: str) -> Iterable[Slip]:
    """Brackets the line never closes, or closes without opening (the draft's own line: a
    paragraph)."""
    open_: list[int] = []
    still_open = dict.fromkeys(_BRACKETS, 0)  # of each kind: a closer none is open for is told at once,
    numbers = {m.end() - 1 for m in _LIST_NUMBER.finditer(line)}  # never looked for in every open one
    for i, ch in enumerate(line):
        if ch in _BRACKETS:
            open_.append(i)
            still_open[ch] += 1
        elif ch in _CLOSERS and (i not in numbers or still_open[_CLOSERS[ch]]):  # (「(see 3)」: it closes)
            match = next((k for k in range(len(open_) - 1, -1, -1) if line[open_[k]] == _CLOSERS[ch]), None) \
                if still_open[_CLOSERS[ch]] else None
            if match is None:
                yield _slip("bracket", n, line, max(0, i - 8), i + 1, f"{_CLOSERS[ch]}…{ch}")
            else:
                for k in open_[match:]:
                    still_open[line[k]] -= 1
                del open_[match:]
    for i in open_:
        text = line[i:].rstrip()
        shown = text if len(text) <= 24 else text[:12] + "…"
        yield _slip("bracket", n, line, i, i + min(len(text), 12 if len(text) > 24 else len(text)),
                    shown + _BRACKETS[line[i]])


# a half-width stop, comma, colon or semicolon with Japanese before it (not a file's extension,
# 草案.txt), or after it and nothing half-width before it; a pair of half-width brackets holding Japanese
_ASCII_MARK = re.compile(r"(?<=[^\x00-\x7f\s])[.,:;](?![A-Za-z])|(?<![\x00-\x7f])[.,:;](?=[^\x00-\x7f\s])")
_ASCII_PAIR = re.compile(r"\(([^()\n]*[^\x00-\x7f\s][^()\n]*)\)")
_WIDE_MARK = {".": "。", ",": "、", ":": "：", ";": "；"}
_DIGIT = re.compile(r"[0-9０-９]")


def _ascii_marks(n: int, line: str) -> Iterable[Slip]:
    """Half-width punctuation in Japanese text, with its full-width form (``ascii``)."""
    for m in _ASCII_MARK.finditer(line):
        i, ch = m.start(), m.group(0)
        if line[i - 1:i] in ("…", "‥") or line[i + 1:i + 2] == ch or line[i - 1:i] == ch:
            continue  # dots typed for a leader: the leader rule's
        between = _DIGIT.fullmatch(line[i - 1:i] or "x") and _DIGIT.fullmatch(line[i + 1:i + 2] or "x")
        wide = chr(ord(ch) + 0xFEE0) if between or ch in ":;" else _WIDE_MARK[ch]
        yield _slip("ascii", n, line, max(0, i - 6), i + 1, line[max(0, i - 6):i] + wide)
    for m in _ASCII_PAIR.finditer(line):
        yield _slip("ascii", n, line, m.start(), m.end(), f"（{m.group(1)}）")


# katakana words joined by 中黒 (スタート・プレイヤー), and a run of katakana not beside a 中黒
_KANA_DOTTED = re.compile(r"(?<![ァ-ヺー・])[ァ-ヺー]+(?:・[ァ-ヺー]+)+(?![ァ-ヺー・])")
_KANA_RUN = re.compile(r"(?<![ァ-ヺー・])[ァ-ヺー]{4,}(?![ァ-ヺー・])")


def _nakaguro(lines: list[tuple[int, str]]) -> list[Slip]:
    """A katakana compound both with 中黒 between its words and without in the rules: each use
    of the rarer spelling (a tie: the dotted), suggested as the other."""
    found: dict[str, list[list]] = defaultdict(lambda: [[], []])
    for n, line in lines:
        for m in _KANA_DOTTED.finditer(line):
            found[m.group(0).replace("・", "")][0].append((n, line, m))
        for m in _KANA_RUN.finditer(line):
            found[m.group(0)][1].append((n, line, m))
    out = []
    for word, (dotted, plain) in found.items():
        if dotted and plain:
            rare, other = (dotted, word) if len(dotted) <= len(plain) else (plain, dotted[0][2].group(0))
            out += [_slip("nakaguro", n, line, m.start(), m.end(), other) for n, line, m in rare]
    return out


def _nesting(n: int, line: str) -> Iterable[Slip]:
    """A 「…」 opened inside another (``nesting``), with 『』 suggested."""
    open_: list[int] = []
    for i, ch in enumerate(line):
        if ch == "「":
            open_.append(i)
        elif ch == "」" and open_:
            start = open_.pop()
            if open_:
                yield _slip("nesting", n, line, start, i + 1, f"『{line[start + 1:i]}』")


def _halfwidth(n: int, line: str) -> Iterable[Slip]:
    for m in _HALFWIDTH_KANA.finditer(line):
        yield _slip("halfwidth", n, line, m.start(), m.end(), unicodedata.normalize("NFKC", m.group(0)))


def _choon(n: int, line: str) -> Iterable[Slip]:
    for m in _CHOON.finditer(line):
        yield _slip("choon", n, line, m.start(), m.end(), m.group(0)[0] + "ー")


def _japanese(ch: str) -> bool:
    return bool(ch) and not ch.isascii() and not ch.isspace()


def _leaders(n: int, line: str) -> Iterable[Slip]:
    for m in _LEADER.finditer(line):
        yield _slip("leader", n, line, m.start(), m.end(), "……")
    for m in _DASH.finditer(line):
        i = m.start()
        if i and _CHOON.match(line, i - 1):
            continue  # カ―ド: the long-vowel slip, told by choon
        if _japanese(line[i - 1:i]) or _japanese(line[i + 1:i + 2]):
            yield _slip("leader", n, line, i, i + 1, "――")


def _no_stop(n: int, line: str) -> Iterable[Slip]:
    text = line.rstrip()
    if _NO_STOP.match(text):
        start = max(len(text) - 6, 1)
        yield _slip("stop", n, line, start, len(text), text[start:] + "。")


def _widths(lines: list[tuple[int, str]]) -> list[Slip]:
    """Digits, ! and ? written in both widths in the rules, and a Latin word (ＶＰ／VP, ＯＫ／OK):
    each use of the rarer width."""
    out = []
    for kind, (wide, narrow) in _WIDTHS.items():
        found = [[(n, line, m) for n, line in lines for m in pattern.finditer(line)
                  if kind != "digits" or m.start() >= _step_number_end(line)] for pattern in (wide, narrow)]
        out += _rarer_width(found)
    letters: dict[str, list[list]] = defaultdict(lambda: [[], []])
    for k, pattern in enumerate(_LATIN_WORDS):
        for n, line in lines:
            for m in pattern.finditer(line):
                letters[unicodedata.normalize("NFKC", m.group(0))][k].append((n, line, m))
    for found in letters.values():
        out += _rarer_width(found)
    return out


def _step_number_end(line: str) -> int:
    """Where a step's number at the line's start ends (0: none): the book sets its own number."""
    m = _STEP_NUMBER.match(line)
    if not m:
        return 0
    marker, after = m.group(0), line[m.end():m.end() + 1]
    return m.end() if marker[-1] in "：:）)" or after in (" ", "　") else 0


def _rarer_width(found: list[list]) -> list[Slip]:
    """Of the uses in full width and in half width (``found``), each of the rarer (a tie: the
    half-width), none when one width is never used."""
    if not found[0] or not found[1]:
        return []
    rare = 0 if len(found[0]) < len(found[1]) else 1
    out = []
    for n, line, m in found[rare]:
        shown = m.group(0)
        other = unicodedata.normalize("NFKC", shown) if rare == 0 else shown.translate(_FULL)
        out.append(_slip("width", n, line, m.start(), m.end(), other))
    return out


_FULL = {c: c + 0xFEE0 for c in range(0x21, 0x7F)}


def _ending(ws: list[Word]) -> tuple[str, int] | None:
    """The sentence's last polite or plain copula/auxiliary before 。 (brackets and 終助詞 skipped)."""
    for k in range(len(ws) - 1, -1, -1):
        w = ws[k]
        if w.pos in ("補助記号", "助詞") and w.pos2 != "句点":
            continue
        if w.pos == "助動詞" and w.lemma in _POLITE:
            return "polite", w.start
        if w.pos == "助動詞" and w.lemma == "だ" and w.surface == "だ":
            return "plain", w.start
        if w.lemma == "有る" and k and ws[k - 1].lemma == "だ" and ws[k - 1].surface == "で":
            return "plain", ws[k - 1].start
        return None
    return None


def _style(lines: list[tuple[int, str]]) -> list[Slip]:
    """Sentences in the minority style, when the rules mix です／ます with だ／である."""
    seen: dict[str, list[tuple[int, str, int, int]]] = defaultdict(list)
    for n, line in lines:
        # up to the last 。 only: past it, the search tried every start to the line's end (a
        # 100,000-character paragraph with no 。 took seconds a line)
        for m in re.finditer(r"[^。]+。", line[:line.rfind("。") + 1]):
            sentence = m.group(0)
            if sentence.lstrip("　 ").startswith("（"):
                continue  # an aside in parentheses
            found = _ending(words(sentence[:-1]))
            if found:
                seen[found[0]].append((n, line, m.start() + found[1], m.end() - 1))
    if not seen["polite"] or not seen["plain"]:
        return []
    minority = "plain" if len(seen["plain"]) <= len(seen["polite"]) else "polite"
    suggest = "です／ます" if minority == "plain" else "だ／である"
    return [_slip("style", n, line, a, b, suggest) for n, line, a, b in seen[minority]]


# words, not verbs: a verb's potential form (選べる) shares the lemma of the verb (選ぶ)
_VARIANT_POS = ("名詞", "副詞", "形状詞")


def _named_spans(line: str, names: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where the line writes one of the names (the game's title, a deck's name)."""
    spans = []
    for name in names:
        at = line.find(name)
        while at >= 0:
            spans.append((at, at + len(name)))
            at = line.find(name, at + 1)
    return spans


def _variants(lines: list[tuple[int, str, list[Word]]], names: tuple[str, ...] = ()) -> list[Slip]:
    """One lemma written two ways (すべて／全て, プレイヤー／プレーヤー): the rarer way, each line. A word
    inside one of ``names`` is the name's spelling, chosen (ことば of ことばリンク beside 言葉): not counted."""
    forms: dict[str, dict[str, list[tuple[int, str, int, int]]]] = defaultdict(lambda: defaultdict(list))
    for n, line, ws in lines:
        named = _named_spans(line, names)
        for i, w in enumerate(ws):
            if any(a <= w.start and w.start + len(w.surface) <= b for a, b in named):
                continue
            if w.pos in _VARIANT_POS and w.pos2 not in ("数詞", "固有名詞", "非自立可能") and \
                    (len(w.base) >= 2 or w.pos2 == "助動詞語幹" or _one_kanji_noun(ws, i)):  # (様／よう: one kanji)
                forms[w.lemma][w.base].append((n, line, w.start, w.start + len(w.surface)))
    out = []
    for spelt in forms.values():
        if len(spelt) < 2:
            continue
        ranked = sorted(spelt, key=lambda s: (-len(spelt[s]), s))
        usual = ranked[0]
        for other in ranked[1:]:
            for n, line, a, b in spelt[other]:
                out.append(_slip("variant", n, line, a, b, f"{usual}（{len(spelt[usual])}回）"))
    return out + _part_kana(lines) + _kana_verbs(lines)


_KANJI = re.compile(r"[\u4e00-\u9fff々]+")
# a reading in parentheses after its kanji, 月見酒（つきみざけ）, as the book prints the draft's ruby
# ({月見酒|つきみざけ}): the word's own reading, no second spelling of it (つきみ beside 月見, trial43)
_GLOSS = re.compile(r"(?<=[\u4e00-\u9fff々〆ヶ】])（[\u3041-\u3096\u30a1-\u30faー]+）")
_HIRAGANA = re.compile(r"[\u3041-\u3096]")


# the nouns a sentence uses for its grammar (形式名詞: 事／こと, 物／もの, 方／ほう …), written either way
# in one draft by the sense (「引くことができる」, 「その事」): no word spelt two ways
_FORMAL_NOUNS = frozenset("事物方為所訳筈内度旨")


def _one_kanji_noun(ws: list[Word], i: int) -> bool:
    """A noun of one kanji standing alone, spelt in kana elsewhere (横／よこ, 隣／となり: one word
    two ways, trial46's miss): counted as the longer nouns are; not 時／とき, 上／うえ, 後／あと (the
    analyser's 副詞可能, nouns of time and place that house styles write either way), nor a 形式名詞,
    nor one part of a compound (札 of 台札, ふだ of 台ふだ: ``_part_kana`` reads those whole)."""
    w = ws[i]
    if not (w.pos == "名詞" and w.pos3 == "一般" and len(w.base) == 1 and _KANJI.fullmatch(w.base)
            and w.lemma not in _FORMAL_NOUNS):
        return False
    joined = [n for n in (ws[i - 1] if i else None, ws[i + 1] if i + 1 < len(ws) else None)
              if n is not None and n.pos == "名詞" and (n.start + len(n.surface) == w.start or w.start + len(w.surface) == n.start)]
    return not joined


def _part_kana(lines: list[tuple[int, str, list[Word]]]) -> list[Slip]:
    """Two nouns written part in kana whose lemmas spell a word the rules write in kanji (手ふだ,
    read as 手＋札, beside 手札): each such spelling."""
    text = "\n".join(line for _, line, _ in lines)
    out = []
    for n, line, ws in lines:
        for w, nxt in zip(ws, ws[1:]):
            if w.pos != "名詞" or nxt.pos != "名詞" or nxt.start != w.start + len(w.surface):
                continue
            kanji, written = w.lemma + nxt.lemma, w.surface + nxt.surface
            if _KANJI.fullmatch(kanji) and _HIRAGANA.search(written) and kanji in text:
                out.append(_slip("variant", n, line, w.start, nxt.start + len(nxt.surface),
                                 f"{kanji}（{text.count(kanji)}回）"))
    return out


def _kana_verbs(lines: list[tuple[int, str, list[Word]]]) -> list[Slip]:
    """A verb written in kana (おいて) where the rules write the same verb in kanji (置いて), or the
    other way round, whichever is rarer (a tie: the kana): each such spelling. A verb after the
    て／で of a て-form is a helping verb (除けておく, 引いてください), in kana by rule: left out; so is
    the quotative いう after と or って (「…という言葉」, 「…っていうのは」: 公用文作成の考え方, 2022,
    writes 「という」 in kana), no spelling of the verb 言う a draft says in kanji (「言います」)."""
    spelt: dict[str, dict[bool, list[tuple[int, str, Word]]]] = defaultdict(lambda: defaultdict(list))
    for n, line, ws in lines:
        for i, w in enumerate(ws):
            if w.pos != "動詞" or not _KANJI.search(w.lemma) or (i and ws[i - 1].pos2 == "接続助詞"):
                continue
            if w.lemma == "言う" and i and ws[i - 1].surface in ("と", "って") and ws[i - 1].pos == "助詞" and \
                    not _KANJI.search(w.surface):
                continue
            if w.lemma == "置く" and _after_an_interval(ws, i) and not _KANJI.search(w.surface):
                continue
            in_kanji = bool(_KANJI.search(w.base))
            if in_kanji or all(_HIRAGANA.fullmatch(c) for c in w.base):
                spelt[w.lemma][in_kanji].append((n, line, w))
    out = []
    for ways in spelt.values():
        if len(ways) < 2:
            continue
        rare = ways[True] if len(ways[True]) < len(ways[False]) else ways[False]
        usual = ways[False] if rare is ways[True] else ways[True]
        base = usual[0][2].base
        out += [_slip("variant", n, line, w.start, w.start + len(w.surface), f"{_respelt(w, base)}（{len(usual)}回）")
                for n, line, w in rare]
    return out


# what 「おく」 leaves between two things when it places nothing: ひと呼吸おいて, 間をおく, 一日おいて
_INTERVALS = frozenset({"呼吸", "間", "拍", "一拍", "時間", "日", "晩", "息", "一息", "距離"})


def _after_an_interval(ws: list[Word], i: int) -> bool:
    """Whether the verb ``ws[i]`` (おく) follows a span of time or distance, with or without を
    (「ひと呼吸おいて」): おく of an interval, which house styles write in kana beside 置く of a
    piece put down (「カードを置いて」) — no spelling of the same word (book47)."""
    j = i - 1 if i and ws[i - 1].surface == "を" else i
    return bool(j) and ws[j - 1].lemma in _INTERVALS


def _respelt(word: Word, base: str) -> str:
    """``word`` as the other spelling of its verb writes it, in the word's own form: おい (おく) is
    置い where the rules write 置く, so 「おい」→「置い」 (「置く」 read as a replacement gave 置くて).
    The base itself when the two spellings share no ending to go by."""
    shared = len(os.path.commonprefix([word.base[::-1], base[::-1]]))
    head = word.base[:len(word.base) - shared]
    if not shared or not head or not word.surface.startswith(head):
        return base
    return base[:len(base) - shared] + word.surface[len(head):]


def slips(lines: list[tuple[int, str]], rules: set[int], names: Iterable[str] = ()) -> list[Slip]:
    """The slips of the given draft lines (number, text), in line order; the style and variant
    rules read only the ``rules`` lines (not the designer's notes). The same lines give the same
    slips: a warm rulebook process answers an unchanged draft from memory, and any process on
    this machine from the machine's cache (usercache.py), by the lines, these rules' code and
    the analyser's dictionary (the analyser took 0.13 CPU-s a book of the shipped games)."""
    return list(_slips(tuple(lines), frozenset(rules), tuple(sorted({n for n in names if n}))))


SLIPS_KIND = "slips"


@lru_cache(maxsize=1)
def _reader() -> bytes:
    """What the slips depend on besides the lines: this module's rules, the analyser and its
    dictionary."""
    rules = resources.folder("pnpgen.rulebook") / "grammar.py"
    return b"\0".join((hashlib.sha256(rules.read_bytes()).digest(), usercache.installed("fugashi", "unidic_lite")))


@lru_cache(maxsize=16)
def _slips(lines: tuple[tuple[int, str], ...], rules: frozenset[int], names: tuple[str, ...] = ()) -> tuple[Slip, ...]:
    entry = usercache.key(_reader(), repr((lines, sorted(rules), names)).encode("utf-8"))
    kept = usercache.get(SLIPS_KIND, entry)
    if isinstance(kept, tuple):
        try:
            return tuple(Slip(*fields) for fields in kept)
        except TypeError:  # another shape: worked out again below
            pass
    found = _analysed_slips(lines, rules, names)
    usercache.put(SLIPS_KIND, entry, tuple(astuple(s) for s in found))
    return found


def _analysed_slips(lines: tuple[tuple[int, str], ...], rules: frozenset[int],
                    names: tuple[str, ...] = ()) -> tuple[Slip, ...]:
    out: list[Slip] = []
    analysed = []
    for n, line in lines:
        if not line.strip():
            continue
        ws = words(line)
        out += _verb_forms(n, line, ws)
        out += _small_slips(n, line, ws)
        out += _no_before_verb(n, line, ws)
        out += _no_particle_before_count(n, line, ws)
        out += _quotes(n, line)
        out += _brackets(n, line)
        out += _halfwidth(n, line)
        out += _ascii_marks(n, line)
        out += _nesting(n, line)
        out += _choon(n, line)
        out += _leaders(n, line)
        if n in rules:
            glosses = [m.span() for m in _GLOSS.finditer(line)]
            analysed.append((n, line, [w for w in ws if not any(a <= w.start < b for a, b in glosses)]))
            out += _no_stop(n, line)
    out += _style([(n, line) for n, line, _ in analysed])
    out += _widths([(n, line) for n, line, _ in analysed])
    out += _nakaguro([(n, line) for n, line, _ in analysed])
    out += _variants(analysed, names)
    return tuple(sorted(set(out), key=lambda s: (s.line, s.at, s.rule, s.found, s.suggest)))
