"""What the quick reference (早見表) says, read from the parsed draft and never invented: the turn
sequence (the numbered steps; without steps, the sub-headings of the sections that have them),
the end trigger, the scoring and victory sentences, and the setup's counts per player count.

Each line keeps the tree node it came from (a ``Section``, ``Step`` or ``Subheading``), so the
book prints the page where that node is explained. A part the draft is silent on is an empty list:
the book says so (「草案に記載なし」) rather than guess.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from pnpgen.rulebook.tree import Aside, Block, Bullet, DraftParagraph, Item, Note, Section, Step, Subheading

Anchor = Section | Step | Subheading

# Japanese and English, each pattern tried on one sentence
_END = re.compile(r"ゲーム(?:が|は|を)?終了(?!時|する(?:まで|時))|ゲームの勝敗を決定|ゲームが終わ(?!るまで)"
                  r"|ゲームは[^。、]{1,12}?で終わ(?!るまで)"  # 「ゲームは１２ターンで終わります」: a length, as wargames give it
                  r"|\bgame ends\b|\bgame is over\b|\bends the game\b|\bgame lasts\b", re.I)
# (勝利点 and victory points are what is counted, not who wins: 「勝利点を２０点得たらゲームが終了」 ends it)
_WIN = re.compile(r"勝利(?!点|ポイント)|勝者|勝ち(?:ます|です|とな|にな|とす)|\bwins?\b|\bwinner\b", re.I)
# (もっとも in kana as children's rules write it; 「もっとも、」 is "however", no most)
_MOST = re.compile(r"最も|もっとも(?!、)|一番|いちばん|最多|\bmost\b|\bhighest\b", re.I)
_NOT_SCORING = re.compile(r"戦争|攻撃側|防御側|判定|\bbattle\b|\bfight\b", re.I)
# (tried only on a sentence right after the one naming the winner: "In a tie, …", "Ties are broken by …")
_TIE = re.compile(r"^(?:複数いれば|複数いる場合|それも同じ|タイの場合)|同値|同点|引き分け|\bti(?:e|es|ed)\b|\btie-?breakers?\b",
                  re.I)
# a winner's sentence that goes on from the one before it (「そして、…勝利します」)
_THEN = re.compile(r"^(?:そして|それから|その上で|then\b|and then\b)", re.I)
_SCORING_TITLE = re.compile(r"得点|決算|スコア|勝利|終了|scoring|victory|end of the game|game end", re.I)
# a section that says how the game ends (■　ゲームの終了): its first sentence is the end trigger when no
# sentence of the draft says 「ゲームが終了」 (「{火}を５つ置いたら終わり。」)
_END_TITLE = re.compile(r"終了|終わり|\bend of the game\b|\bgame end\b", re.I)
# what happens that decides the game, said with the winner (the wolves win when …, 全滅したら勝利)
# (a race, "The first player to collect 3 stars wins.", 「先に★を３つ集めた人の勝ちです。」, is won when it happens)
_WHEN = re.compile(r"たら|れば|時点で|先に|\bwhen\b|\bas soon as\b|\bonce\b|\bif\b"
                   r"|\bthe first (?:player|team|side|person|one)\b[^.]*?\bto\b", re.I)
# a wargame's section on the turn, its phases its rule cases (## 4.0 Sequence of Play)
_SEQUENCE_TITLE = re.compile(r"\bsequence of play\b|\bturn sequence\b|\bsequence of (?:the )?turn\b", re.I)
_SETUP_TITLE = re.compile(r"準備|セットアップ|\bsetup\b|\bset-up\b|preparation", re.I)
# a player count in English, in digits or spelt out as English style spells small numbers ("With five players")
_COUNT = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
_PER_PLAYERS = re.compile(r"^[０-９0-9]{1,2}人(?:プレイ)?$|^" + _COUNT + r" players?$", re.I)
_PLAYERS_IN = re.compile(r"[０-９0-9]{1,2}人(?:プレイ|の時|の場合|なら)|人数(?:[×xX✕＊*]|に応じ|分)|\b" + _COUNT
                         + r"[- ]player\b|\bwith " + _COUNT + r" players\b", re.I)
# the starting hand: 手札 (hand) with a number, or cards dealt out so many each (５枚ずつ配ります, deal 5 cards to
# each, deal each player 5 Starter cards, deal five random cards): up to two words that say which cards, none of
# them a word that makes the number something else's (deal 2 damage to cards, deal 3 of the cards)
_WHICH = r"(?: (?!(?:to|of|from|into|onto|on|in|at|for|with|and|or|the|a|an|each|every|per|damage|points?)\b)[a-z][\w'-]*){0,2}"
_HAND = re.compile(r"(?:手札|\bhand\b).*?[０-９0-9]|[０-９0-9].*?(?:手札|\bhand\b)|[０-９0-9]+枚ずつ(?:配|引)"
                   r"|\bdeals? (?:(?:each|every) player )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
                   + _WHICH + r" cards?\b", re.I)
# a turn's first action, said before its phases
_FIRST = re.compile(r"^(?:まず|最初に|はじめに|始めに)|^(?:first|on (?:your|their|a player's) turn),?\s", re.I)
# a sentence that only announces what follows (「以下の手順に従って…」, "carry out the following procedure"):
# no action of its own, and nothing follows it on the quick reference
_ANNOUNCES = re.compile(r"以下の|次の(?:手順|とおり|通り)|\bthe following\b|\bas follows\b|\bbelow\b|[：:]$", re.I)
# a word that only ties a sentence to the one before it (「次に、」 "Next,"): the quick reference, which
# prints the sentence alone, leaves it out (「ただし、」 "However," qualify the rule: they stay)
_TIE_ON = re.compile(r"^(?:(?:そして|それから|その後|続いて|また|さらに|最終的に)、|(?:次に|最後に)、?)(?=.)"
                     r"|^(?:next|then|finally|lastly|also|and|after that|at last),\s+(?=\w)", re.I)
# a section of questions and answers (■　よくある質問, ## FAQ): its answers repeat rules the book states where they
# belong, and an answer read as a rule printed 「Ａ：その時点でゲームが終了します」 as the end trigger
_QUESTIONS_TITLE = re.compile(r"よくある質問|質問と回答|質疑応答|[QＱ][&＆]?[AＡ]\b|\bFAQs?\b|\bquestions\b", re.I)
MAX_SETUP = 6
MAX_SCORING = 4


@dataclass
class Line:
    """One line of the quick reference (早見表), with the heading it comes from: the page that explains it is printed
    beside it."""

    text: str
    anchor: Anchor  # the heading it comes under
    block: Block | None = None  # the paragraph or item it was read from: its page is printed (else the anchor's)


@dataclass
class StepList:
    """A section's numbered steps as the quick reference lists them."""

    section: Section
    lines: list[Line] = field(default_factory=list)


@dataclass
class QuickReference:
    """What the quick reference (早見表) says, read from the draft and never invented: the turn, the end, the scoring
    and the setup."""

    steps: list[StepList]  # the turn's
    end: list[Line]
    scoring: list[Line]
    setup: list[Line]
    setup_steps: list[StepList] = field(default_factory=list)  # a setup section's own numbered steps


def _sentences(text: str, latin: bool) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+", text) if latin else re.findall(r"[^。]+。?", text)
    return [p.strip("　 ") for p in parts if p.strip("　 ")]


def _texts(blocks: list, anchor: Anchor) -> Iterator[tuple[Block, str, Anchor]]:
    for b in blocks:
        if isinstance(b, (DraftParagraph, Note)):
            yield b, b.text, anchor
        elif isinstance(b, Item):
            yield b, b.text, anchor
        elif isinstance(b, Bullet):  # a) （１） ① lines: read as the lines of text they were; a ・ item
            yield b, marked(b) if b.mark else b.text, anchor  # (read for the setup's counts alone, below)
        elif isinstance(b, Subheading):
            yield from _texts(b.children, b)
        elif isinstance(b, Aside) and b.kind != "example":  # a caution's text, under what it stands in (an
            yield from _texts(b.children, anchor)  # example's plays a rule out, 「アキさん…３人で遊ぶ場合」: no rule)


def marked(b: Bullet) -> str:
    """A marked list item's line as the draft wrote it: ``（１）取る``, and a Latin one's word space
    after its mark, ``7.1 The German player wins…`` (it printed ``7.1The``)."""
    latin = b.mark[-1:].isascii() and b.text[:1].isascii()
    return f"{b.mark}{' ' if latin else ''}{b.text}"


def _section_texts(s: Section) -> Iterator[tuple[Block, str, Anchor]]:
    for c in s.children:
        if isinstance(c, Step):
            yield from _texts(c.children, c)
        elif isinstance(c, (DraftParagraph, Note, Item, Bullet, Subheading, Aside)):
            yield from _texts([c], s)


def _steps(rules: list[Section], latin: bool) -> list[StepList]:
    with_steps = [StepList(s, [Line(c.title, c) for c in s.children if isinstance(c, Step)]) for s in rules]
    out = [s for s in with_steps if s.lines]
    if out:
        return out
    # no numbered steps: a wargame's sequence of play, its rule cases (4.11 Event phase: …) but the
    # one that announces them (4.1 Each turn has these phases, in this order:)
    for s in rules:
        if _SEQUENCE_TITLE.search(s.title) and (cases := _cases(s)):
            # and the setup's cases, as a draft's numbered setup steps are listed with the setup
            return [StepList(t, _cases(t)) for t in rules if _SETUP_TITLE.search(t.title) and _cases(t)] \
                + [StepList(s, cases)]
    # else the sub-headings of the sections that have them (the turn's phases)
    for s in rules:
        if s.is_components or _SETUP_TITLE.search(s.title):
            continue
        subs = [Line(c.text, c) for c in s.children if isinstance(c, Subheading)]
        if subs:
            out.append(StepList(s, _first_action(s, latin) + subs))
    return out


def _cases(s: Section) -> list[Line]:
    """A section's rule cases (``4.11 Event phase: …``) but one that only announces the rest
    (``4.1 Each turn has these phases, in this order:``)."""
    return [Line(marked(c), s, c) for c in s.children
            if isinstance(c, Bullet) and c.mark[:1].isdigit() and not _ANNOUNCES.search(c.text)]


def _first_action(s: Section, latin: bool) -> list[Line]:
    """The sentence before a section's phases that says what a turn starts with (「まず、山から１枚
    引いて…」): the phases alone (●ホールド後の処理) leave out the turn's own action; not one that
    announces them ("On your turn, carry out the following procedure.")."""
    for c in s.children:
        if isinstance(c, Subheading):
            break
        if isinstance(c, DraftParagraph):
            for sentence in _sentences(c.text, latin):
                if _FIRST.match(sentence) and not _ANNOUNCES.search(sentence):
                    return [Line(sentence, s, c)]
    return []


def quick_reference(rules: list[Section], latin: bool) -> QuickReference:
    """The quick reference of the draft's rules sections (``Document.rules``), but a spoiler section's and a
    section of questions and answers (■　よくある質問); an example box's text is none of it."""
    rules = [s for s in rules if not s.is_spoiler and not _QUESTIONS_TITLE.search(s.title)]
    end: list[Line] = []
    end_and_winner: list[Line] = []  # 「…集めたら、ゲームは終了し、そのプレイヤーが勝利します」
    scoring: list[Line] = []
    setup: list[Line] = []
    for s in rules:
        if s.is_components:
            continue
        in_setup = bool(_SETUP_TITLE.search(s.title))
        previous_scored = counting = False
        last: Line | None = None  # the section's sentence before this one
        for block, text, anchor in _section_texts(s):
            if isinstance(block, Bullet) and not block.mark and not in_setup:
                continue  # (a ・ item of the setup says its counts, 「・３人の時は、…１枚取り除きます」)
            head = block.term if isinstance(block, Item) else re.split(r"[：:]", text, maxsplit=1)[0]
            if in_setup and head and _PER_PLAYERS.match(head.strip()) and head != text:
                if not counting and last is not None and last.anchor is anchor \
                        and last.text not in [line.text for line in setup]:
                    setup.append(last)  # what the counts are: 「以下の枚数を…取り除いてください」
                setup.append(Line(text.strip("　 "), anchor, block))  # 「３人：２４枚」
                counting = True
                continue
            counting = False
            for sentence in _sentences(text, latin):
                before = last if last is not None and last.block is block else None  # in the same paragraph
                last = Line(sentence, anchor, block)
                if in_setup:
                    if _PLAYERS_IN.search(sentence) or _HAND.search(sentence):
                        setup.append(Line(sentence, anchor, block))
                    elif _END.search(sentence) and not _WIN.search(sentence):
                        end.append(Line(sentence, anchor, block))  # a wargame's length, given with its setup
                    continue
                ends = bool(_END.search(sentence) and not _WIN.search(sentence))
                if ends:
                    end.append(Line(sentence, anchor, block))
                elif _END.search(sentence):
                    end_and_winner.append(Line(sentence, anchor, block))
                won = bool(_WIN.search(sentence) and _MOST.search(sentence) and not _NOT_SCORING.search(sentence))
                if won and before is not None and _THEN.match(sentence) \
                        and before.text not in [x.text for x in end + scoring]:
                    scoring.append(before)  # 「…合計しＶＰとします。そして、…最もＶＰの多いプレイヤーが勝利」
                tie = previous_scored and bool(_TIE.search(sentence))
                if won or tie:
                    scoring.append(Line(sentence, anchor, block))
                elif _SCORING_TITLE.search(s.title) and not ends and not scoring_from(s, scoring) \
                        and not _ANNOUNCES.search(sentence):  # (「役と点数は以下のとおりです。」 points at a table the page has not)
                    scoring.append(Line(sentence, anchor, block))  # the first sentence of ■　得点計算
                    won = bool(_WIN.search(sentence))  # (「…そのプレイヤーが勝利します」: its tie-break follows)
                previous_scored = won or tie
    if not end and not end_and_winner:
        first = _first_end(rules, latin)
        if first is not None:
            end.append(first)
            if not _WIN.search(first.text):  # (a side winning when it happens ends the game and names the winner: both)
                scoring = [line for line in scoring if line.text != first.text or line.block is not first.block]
    steps = _steps(rules, latin)
    turn = [s for s in steps if not _SETUP_TITLE.search(s.section.title)]
    setup_steps = [s for s in steps if s not in turn]
    if not turn:  # numbered steps in the setup alone: listed with the setup, the turn read from the other
        # rules as a draft without numbered steps gives it (trial55: an English skirmish game's five setup
        # steps printed as its turn sequence, and its setup said 'The draft does not say.')
        turn = _steps([s for s in rules if not _SETUP_TITLE.search(s.title)], latin)
    listed = {id(line.anchor): line.text for s in setup_steps for line in s.lines}
    setup = [line for line in setup if not _restates(listed.get(id(line.anchor)), line.text)]
    # a draft whose one end sentence also names the winner gives it for both
    return QuickReference(turn, _said_once(end or end_and_winner)[:2], scoring[-MAX_SCORING:], setup[:MAX_SETUP],
                          setup_steps)


def _restates(title: str | None, sentence: str) -> bool:
    """Whether a setup sentence says no more than the step it stands under, which the quick reference
    lists already (trial80: 「3.3 Deal 3 action cards」 then 「Deal 3 action cards to each player.」): each
    of its numbers and each word of the title in it. One that gives the step's count (「3.3 Deal the hands」,
    「Deal 3 action cards to each player.」) says more, and stays."""
    if not title:
        return False
    t, s = unicodedata.normalize("NFKC", title).lower(), unicodedata.normalize("NFKC", sentence).lower()
    return set(re.findall(r"\d+", s)) <= set(re.findall(r"\d+", t)) and set(_WORDS.findall(t)) <= set(_WORDS.findall(s))


def _said_once(lines: list[Line]) -> list[Line]:
    """The end sentences but one that says what an earlier one said (populous: 「そして、１２ラウンド
    目が終わるとゲーム終了となります。」 where the turn is explained, 「以上を繰り返し、１２ラウンドが終わればゲーム
    終了となります。」 after the last phase): the first, where the rules first state it. One that says
    more is another (medallions' 「１０ラウンドが終わり山が尽きるとゲーム終了」 after 「１０ラウンドが終わると
    ゲームが終了」 adds the deck)."""
    kept: list[Line] = []
    for line in lines:
        if not any(_same_end(old.text, line.text) for old in kept):
            kept.append(line)
    return kept


def _same_end(a: str, b: str) -> bool:
    """The same numbers, and the same words (runs of kanji, of katakana, of letters) but for one
    of a single character (１２ラウンド目／１２ラウンド), from the first number on or, without one,
    from the clause that ends the game: what comes before (「以上を繰り返し、」) only leads in; 山札
    and 手札 are two triggers."""
    a, b = unicodedata.normalize("NFKC", a), unicodedata.normalize("NFKC", b)
    if re.findall(r"\d+", a) != re.findall(r"\d+", b):
        return False
    differ = set(_WORDS.findall(_core(a).lower())) ^ set(_WORDS.findall(_core(b).lower()))
    return len(differ) <= 1 and all(len(w) == 1 for w in differ)


_WORDS = re.compile(r"[\u4e00-\u9fff々]+|[\u30a1-\u30ffー]+|[A-Za-z]+")


def _core(sentence: str) -> str:
    number = re.search(r"\d", sentence)
    if number:
        return sentence[number.start():]
    end = _END.search(sentence)
    head = sentence[:end.start()] if end else sentence
    return sentence[max(head.rfind("、"), head.rfind(",")) + 1:]


def standing_alone(sentence: str) -> str:
    """A sentence of the rules as the quick reference prints it, away from the sentence before:
    without a leading 「次に、」「そして、」 "Next," that points back to it (a Latin sentence keeps
    its capital: "Next, deal five cards." → "Deal five cards.")."""
    rest = _TIE_ON.sub("", sentence, count=1)
    if rest == sentence or not rest:
        return sentence
    return rest[0].upper() + rest[1:] if rest[0].isascii() and sentence[0].isascii() else rest


def printed(lines: list[Line]) -> list[str]:
    """The lines of a part of the quick reference as printed: each ``standing_alone`` unless the
    line above it is the sentence it goes on from (「…ＶＰとします。」 then 「そして、…勝利します。」)."""
    out = []
    for k, line in enumerate(lines):
        above = lines[k - 1] if k else None
        follows = above is not None and above.block is not None and above.block is line.block and \
            any(above.text + gap + line.text in getattr(line.block, "text", "") for gap in ("", " ", "　"))
        out.append(line.text if follows else standing_alone(line.text))
    return out


def _first_end(rules: list[Section], latin: bool) -> Line | None:
    """The first sentence of the first section titled as the game's end, unless it names the winner
    by a count (the most points) rather than by what happens (「…たら勝利」, "the village wins when
    every Werewolf is out": the game ends then)."""
    for s in rules:
        if s.is_components or not _END_TITLE.search(s.title):
            continue
        for block, text, anchor in _section_texts(s):
            if isinstance(block, Bullet) and not block.mark:
                continue
            for sentence in _sentences(text, latin):
                won = _WIN.search(sentence)
                return None if won and (_MOST.search(sentence) or not _WHEN.search(sentence)) else \
                    Line(sentence, anchor, block)
    return None


def scoring_from(s: Section, lines: list[Line]) -> bool:
    """Whether ``lines`` already holds a sentence of ``s`` (a scoring section gives its first)."""
    nodes = [s] + _nodes(s)
    return any(any(line.anchor is n for n in nodes) for line in lines)


def _nodes(s: Section) -> list:
    out: list = []
    stack = list(s.children)
    while stack:
        c = stack.pop()
        out.append(c)
        if isinstance(c, (Step, Subheading, Aside)):
            stack.extend(c.children)
    return out
