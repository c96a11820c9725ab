"""The proofing report's open values: 未定 in the data and the player count, 未定／要検討／TODO left
in the rules of the draft."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection
from pathlib import Path

from pnpgen.data.model import Game, OpenValue, is_placeholder, open_value_said, open_values_once
from pnpgen.messages import counted, msg
from pnpgen.rulebook import grammar
from pnpgen.rulebook.proofbase import Finding, rules_lines
from pnpgen.rulebook.tree import Document


def placeholders(game: Game, lang: str, printed_provisional: Collection[str] = ()) -> list[Finding]:
    """The 未定 values of game.yaml and the data, each field of the decks that print it once with how
    many more (a sheet's row several decks print counted once: ``open_values_once``); but a deck's
    count the book prints 「（仮）」 (``printed_provisional``: the decks' names), which
    ``provisional_counts`` lists: 種族ボード's 未定 count note and its 「5枚（仮）」 were two notes."""
    kind = msg("proof.kind.open", lang)
    out = []
    # a player count left empty is open in a game of pieces; a book of no decks (a scenario book, a
    # handout, one player's) plays no count of its own, its game's rules say it (``players: 未定`` is still open)
    if is_placeholder(game.players) or (not str(game.players).strip() and game.decks):
        out.append(Finding(kind, msg("proof.players.book", lang, players=game.players or msg("proof.players.empty", lang)),
                           msg("proof.players.file", lang, path=game.options.get("players_at") or game.root / "game.yaml",
                               players=repr(game.players))))  # (game.yaml's players: line, as the build's warning)
    # each value once with the decks that print it (a shared sheet's row), then each field of those decks once
    by_field: dict[tuple[tuple[str, ...], str], list[OpenValue]] = defaultdict(list)
    for found in open_values_once(game.decks):
        by_field[tuple(d.id for d in found.decks), re.sub(r"\[\d+\]$", "", found.fields[0].rsplit(".", 1)[-1])].append(found)
    for (_, key), opens in by_field.items():
        names = dict.fromkeys(d.name for d in opens[0].decks)  # (two decks may share a name)
        if "count" in key and all(name in printed_provisional for name in names):
            continue
        # first: the piece and field ("Fog Bank.art") proof.txt names, so the designer finds it; the
        # book says the deck only, so a piece renamed sets no page again
        deck, value = "、".join(names) if lang == "ja" else ", ".join(names), open_value_said(opens[0].text, lang, game.lang)
        more = sum(len(found.fields) for found in opens) - 1
        out.append(Finding(
            kind, msg("proof.open.book", lang, deck=deck, value=value,
                      more=msg("proof.open.more_book", lang, n=more) if more else ""),
            msg("proof.open.file", lang, where=opens[0].where, deck=deck, field=opens[0].fields[0], value=value,
                more=msg("proof.open.more_file", lang, n=more) if more else "")))
    for s in game.sourced:
        if is_placeholder(s.note):  # (kept: a bought part's note says more than its count)
            out.append(Finding(kind, msg("proof.sourced.book", lang, name=s.name, note=s.note),
                               msg("proof.sourced.file", lang, path=s.where or game.root / "game.yaml", name=s.name, note=s.note)))
    return out


# what a designer writes for something still to decide: 未定, 要検討, TODO in a Japanese draft;
# TBD, TODO, ?? in an English one (either in either)
_OPEN_IN_DRAFT = re.compile(r"未定|要検討|(?<![A-Za-z])(?:TBD|TODO)(?![A-Za-z])|[?？]{2,}")
OPEN_LISTED = 50  # draft lines with a 未定, each listed; the last says how many more


def draft_open_lines(doc: Document, text: str) -> list[tuple[int, str, str]]:
    """未定／要検討／TODO (TBD, ??) the rules still hold, each line with the first as (line, the
    word, its context): the book would print them. Not the designer's notes, brainstorm or change
    log, which are open questions by nature and never printed. All of them (``open_in_draft``
    lists the first OPEN_LISTED; ``pnpgen check`` counts them all)."""
    found = []
    for n, line in rules_lines(doc, text):
        m = _OPEN_IN_DRAFT.search(line)
        if m:
            found.append((n, m.group(0), grammar.context(line, m.start(), m.end(), width=20)))
    return found


def open_in_draft(doc: Document, text: str, draft_path: Path | str, lang: str,
                  found: list[tuple[int, str, str]] | None = None) -> list[Finding]:
    """The findings of ``draft_open_lines`` (``found``, when read already), the first OPEN_LISTED
    each listed, the last saying how many more."""
    if found is None:
        found = draft_open_lines(doc, text)
    kind, out = msg("proof.kind.open", lang), []
    for k, (n, word, context) in enumerate(found[:OPEN_LISTED]):
        more = len(found) - OPEN_LISTED if k == OPEN_LISTED - 1 else 0
        said = dict(found=word, line=n, context=context, path=draft_path)
        out.append(Finding(kind, msg("proof.draft_open.book", lang, **said)
                           + (msg("proof.open.more_book", lang, n=more) if more > 0 else ""),
                           msg("proof.draft_open.file", lang, **said)
                           + (msg("proof.open.more_file", lang, n=more) if more > 0 else ""), (word,)))
    return out


def open_printed(doc: Document, text: str, draft_path: Path | str) -> list[str]:
    """The book to hand out (``--rules-only``, the doujin-book export) still prints a 未定 (要検討,
    TODO) left in the draft's rules: said once, at the first one's line, with how many lines more,
    as a print-shop export warns of a deck that still prints 未定 (trial72: 「イラスト：未定」 went
    into the 同人印刷所's file unsaid)."""
    found = draft_open_lines(doc, text)
    if not found:
        return []
    n, word, context = found[0]
    more = f", and {counted(len(found) - 1, 'more line')}" if len(found) > 1 else ""
    return [f"{draft_path}:{n}: the book to hand out still prints “{word}” left in the draft's rules: {context}{more} "
            f"(pnpgen check lists them; settle them in the draft before the book goes to print)"]
