"""The proofing report's card checks: the 【terms】 and the piece names the cards' texts print,
against the book's."""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from pathlib import Path

from pnpgen.data.model import Game
from pnpgen.messages import msg
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.flowables import terms
from pnpgen.rulebook.proofbase import Finding, book_lines, file_lines, numbered_lines, one_apart
from pnpgen.rulebook.tree import Document, Item
from pnpgen.safetext import written_in_cjk
from pnpgen.terms import is_latin


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
            near = sorted(b for b in book if one_apart(b, term))
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
            near = sorted(n for n in listed if len(n) > 2 and (one_apart(n, name) or (
                abs(len(n) - len(name)) <= 1 and SequenceMatcher(None, n, name).ratio() >= 0.85)))
            out.append(_card_finding("proof.card_name", "spelt" if near else "missing", name, lang, deck=deck.name, piece=piece.label,
                                     name=name, where=piece.where, listed=near[0] if near else ""))
    return out


# a word of Latin letters, half- or full-width (VP, ＶＰ): the draft and the data may write it in two widths
_LATIN_WORD = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ]{2,}")


def latin_widths(game: Game, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """A Latin word the pieces print in one width only and the draft writes in the other (the
    draft's 「ＶＰ」 where the cards' names and texts write 「VP」): a 表記ゆれ between the draft and
    the data, at the draft's first line with it, with how often and where, and what the data
    writes (its deck, piece and file:line). A word the data writes both ways is none."""
    data: dict[str, tuple[set[str], tuple]] = {}
    for deck, piece, item in _piece_texts(game):
        for word in _LATIN_WORD.findall(item):
            forms, _ = data.setdefault(unicodedata.normalize("NFKC", word), (set(), (deck, piece)))
            forms.add(word)
    drafted: dict[str, list[int]] = {}
    for n, line in numbered_lines(text):
        for word in _LATIN_WORD.findall(line):
            known = data.get(unicodedata.normalize("NFKC", word))
            if known and len(known[0]) == 1 and word not in known[0]:
                drafted.setdefault(word, []).append(n)
    out = []
    for word, at in drafted.items():
        forms, (deck, piece) = data[unicodedata.normalize("NFKC", word)]
        said = dict(word=word, data=next(iter(forms)), count=len(at), deck=deck.name, piece=piece.label,
                    where=piece.where, path=draft_path, line=at[0])
        out.append(Finding(msg("proof.kind.spelling", lang),
                           msg("proof.latin_width.book", lang, **said, at=book_lines(at, lang)),
                           msg("proof.latin_width.file", lang, **said, lines=file_lines(at, lang)), (word,)))
    return out


# a card's name and its number in parentheses, as a draft lists the cards it quotes: 「傲慢のメダリオン（３）」
_QUOTED_NAME = re.compile(r"^(.+?)(?:[（(]([0-9０-９]{1,3})[）)])?$")
_QUOTES = str.maketrans({c: '"' for c in "“”〝〟＂″"})


def _same_words(quote: str, card: str) -> bool:
    """A draft's quote of a card's text alike but for width, quotation marks, spaces and a closing
    full stop (a draft's ”…” the data has set right as “…” is the same text), each ``{icon}`` of
    the card's text said in a word or two (「ＶＰを得る」 of 「{vp}を得る」)."""
    def plain(t: str) -> str:
        return re.sub(r"\s|[。.]$", "", unicodedata.normalize("NFKC", t).translate(_QUOTES))
    pattern = ".{1,6}?".join(re.escape(part) for part in re.split(r"\{[A-Za-z0-9_-]+\}", plain(card)))
    return re.fullmatch(pattern, plain(quote), re.S) is not None


def quoted_cards(doc: Document, game: Game, draft_path: Path | str, lang: str) -> list[Finding]:
    """A card the rules quote as a ``Term: Text`` line named for it, 「傲慢のメダリオン（３）：手札を…」
    (medallions' draft lists its seven medallions so), whose text or number the card no longer
    prints: the quote went stale when the card was edited (book47). Said at the draft's line, with
    the card's text and its file and line; a quote the card prints (any of its texts, alike but for
    width and quotation marks) is none, nor a line naming no piece."""
    by_name = {piece.label: (deck, piece) for deck in game.decks for piece in deck.pieces if piece.label}
    out = []
    for section in doc.rules:
        for b in _items(section):
            m = _QUOTED_NAME.match((b.term or "").strip())
            found = by_name.get(m.group(1).strip()) if m else None
            if found is None or m is None:
                continue
            deck, piece = found
            texts = [v for k, v in piece.values.items() if isinstance(v, str) and v != piece.label and len(v) >= 4]
            numbers = [v for v in piece.values.values() if type(v) is int]
            body = b.body.strip()
            said_number = int(unicodedata.normalize("NFKC", m.group(2))) if m.group(2) else None
            stale_number = said_number is not None and numbers and said_number not in numbers
            if not texts or (any(_same_words(body, t) for t in texts) and not stale_number):
                continue
            card = max(texts, key=lambda t: SequenceMatcher(None, body, t).ratio())
            if not stale_number and SequenceMatcher(None, body, card).ratio() < 0.4:
                continue  # (words of its own about the card, no quote of its text)
            said = dict(draft=str(draft_path), line=str(b.line), deck=deck.name, piece=piece.label, quote=body,
                        text=card if not stale_number else f"{card}（{'/'.join(map(str, numbers))}）", where=piece.where)
            out.append(Finding(msg("proof.kind.query", lang), msg("proof.card_quote_book", lang, **said),
                               msg("proof.card_quote_file", lang, **said), (piece.label,)))
    return out


def _items(node) -> list[Item]:
    out: list[Item] = []
    for c in getattr(node, "children", []):
        out += [c] if isinstance(c, Item) else _items(c)
    return out
