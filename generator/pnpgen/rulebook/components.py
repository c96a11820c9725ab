"""The components list: the draft's ◇ entries matched with the data's decks and sourced items.

Counts printed in the rulebook come from the data. Where the draft states another count
(「エピックカード（８０枚）」 against the epic deck's total) a warning names both numbers and the
row carries a marker for the book. A deck printed as a stand-in for a sourced part (the
``ワーカー`` tokens for the ``ワーカーポーン``: its name begins the part's name and its count is the
part's count) shares the part's row instead of getting a second one.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnpgen.data.model import Game
from pnpgen.errors import suggest
from pnpgen.messages import counted, msg
from pnpgen.rulebook.tree import Block, Component, Document, DraftParagraph

COMPARABLE_UNITS = {"枚", "個", "本", "台", "体", ""}  # セット, 組, 種 are no piece counts


@dataclass
class DataItem:
    """One component as the data counts it (a deck or a bought part): what the rulebook's component list prints and
    checks the draft's counts against."""

    name: str
    count: int
    note: str
    ref: str  # "deck epic" | "sourced"
    unit: str
    deck_id: str | None = None
    aliases: tuple[str, ...] = ()  # its names in the draft's language, when the build is in another
    stand_in_count: bool = False  # the data's count may be a stand-in: a 未定 count note, or a bought part
    where: str = ""  # the data's file (and line) that holds the count or its note
    kind: str = ""  # the deck's kind (card, tile, board, token); "" for a sourced part
    packaging: bool = False  # a tuck box: listed when the draft names it, never as その他の内容物

    @property
    def draft_name(self) -> str:
        """Its name in the draft's language: what a warning about the draft calls it."""
        return (self.aliases or (self.name,))[0]

    def describe(self) -> str:
        """``deck epic 'エピックカード' = 80``: named as the draft names it, one edition a sentence."""
        return f"{self.ref} {self.draft_name!r} = {self.count}"


@dataclass
class ComponentRow:
    """One line of the rulebook's components list."""

    name: str
    parts: list[tuple[str, list[DataItem]]]  # per draft name, the data items that make it
    description: list[Block] = field(default_factory=list)
    stated: str | None = None  # the draft's heading, when it states counts
    units: list[str] = field(default_factory=list)  # per part: 枚, 個 …
    stand_in: DataItem | None = None  # a printed deck that may replace the sourced part
    mismatches: list[tuple[str, str]] = field(default_factory=list)  # (part, the draft's count)
    sep: str = "／"  # between the counts of several parts (" / " in a Latin book)
    provisional: bool = False  # the draft gives no count and the data's is a stand-in: printed 「5枚（仮）」
    unlisted: bool = False  # in the data only: the draft's components list does not name it (その他の内容物)
    total: bool = False  # a total over its parts ("36 Tiles: 20 Square tiles and 16 L tiles"): one count, the sum

    @property
    def deck_ids(self) -> list[str]:
        """The decks whose faces picture this row (the stand-in's for a sourced part)."""
        ids = [d.deck_id for d in self.items if d.deck_id]
        return ids + ([self.stand_in.deck_id] if self.stand_in and self.stand_in.deck_id else [])

    def count_text(self, english: bool = False) -> str | None:
        """``80枚``; ``1枚／4個`` for an entry of several parts; None without data. ``english``:
        a Japanese draft's counters said in English words (``80 cards``, ``1 board / 4 tokens``),
        for an English proofing report; an English draft's bare counts stay bare (``80``)."""
        if not self.items:
            return None
        if self.total:  # the parts' sum under the total's name; each part's count in the entry's table
            return str(self.count)
        if english and any(self.units):
            return " / ".join(counted(sum(d.count for d in ds), _english_word(ds)) for _, ds in self.parts if ds)
        texts = [f"{sum(d.count for d in ds)}{u}" for (_, ds), u in zip(self.parts, self.units) if ds]
        return self.sep.join(texts)

    def count_text_of(self, part: str, english: bool = False) -> str | None:
        """The data's count of one part of the row (``25枚`` for 「Starter cards」 of 「24 Starter
        cards and 36 Market cards」), the row's own for a part it does not name; ``english`` as
        for ``count_text``."""
        for (name, ds), unit in zip(self.parts, self.units):
            if name == part and ds and len(self.parts) > 1:
                if english and unit:
                    return counted(sum(d.count for d in ds), _english_word(ds))
                return f"{sum(d.count for d in ds)}{unit}"
        return self.count_text(english)

    @property
    def items(self) -> list[DataItem]:
        return [d for _, ds in self.parts for d in ds]

    @property
    def count(self) -> int | None:
        items = self.items
        return sum(d.count for d in items) if items else None


# the draft is the designer's own text (pnpgen new wrote its first lines from the decks it made;
# a deck renamed since leaves them naming the old one): pnpgen never edits it
EDIT_DRAFT = " (the draft is yours to edit: pnpgen never changes it)"

def norm(name: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", name))


def base(name: str) -> str:
    """The name without a trailing parenthesis: 荷物キューブ（梅・Ｌ） → 荷物キューブ."""
    return re.sub(r"\([^()]*\)$", "", norm(name))


def latin_key(name: str) -> str:
    """An English name for matching: case and plural left out (``Epic cards`` = ``epic card``,
    ``Tide dice`` = ``Tide die``, ``Supply boxes`` = ``supply box``, ``Armies`` = ``army``)."""
    words = re.findall(r"\w+", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(_singular(w) for w in words)


# plurals a components list writes that no rule of endings gives (trial80: “1 Tide dice” for the deck “Tide die”)
IRREGULAR_PLURALS = {"dice": "die", "men": "man", "women": "woman", "children": "child", "people": "person",
                     "leaves": "leaf", "halves": "half", "knives": "knife", "wolves": "wolf", "mice": "mouse"}


def _singular(word: str) -> str:
    """An English word as a components list's singular and plural both give it, for matching only:
    its plural's s, then an e and a y's i as the plural spells them (box/boxes → box, army/armies →
    armi, zombie/zombies → zombi), irregular plurals by name first."""
    word = IRREGULAR_PLURALS.get(word, word)
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word[:-1] + "i" if len(word) > 3 and word.endswith("y") else word


# the words an English components list writes after a deck's name for its kind: a wargame's tokens
# are its counters (“Unit counters” for the token deck “Units”)
KIND_WORDS = {"token": ("token", "counter")}


def data_items(game: Game, aliases: dict[str, str] | None = None, latin: bool = False) -> list[DataItem]:
    """The decks and sourced items; ``aliases`` names them in the draft's language (by deck id,
    ``sourced.<n>``); a Latin book prints no 枚/個 after a count."""
    aliases = aliases or {}
    unit_by_kind = {} if latin else {"card": "枚", "tile": "枚", "board": "枚", "token": "個"}
    also = lambda key: (aliases[key],) if key in aliases else ()  # noqa: E731
    def count_note(d) -> str:
        return next((str(w) for w, fld, _ in d.placeholders if "count" in fld.rsplit(".", 1)[-1]), "")

    items = [DataItem(d.name, d.count, "", f"deck {d.id}", unit_by_kind.get(d.kind, ""), d.id, also(d.id),
                      bool(count_note(d)), count_note(d) or str(d.source), d.kind, d.shape == "tuckbox")
             for d in game.decks]
    items += [DataItem(s.name, s.count, s.note, "sourced", "" if latin else "個", aliases=also(f"sourced.{i}"),
                       stand_in_count=True, where=s.where or str(Path(game.root) / "game.yaml"))
              for i, s in enumerate(game.sourced)]
    return items


def _match(name: str, items: list[DataItem]) -> list[DataItem]:
    """The data items of a draft's name: by the name as written, then without a trailing
    parenthesis, then (English) without case and plural, then with the deck's kind after its
    name (the draft's “Market cards” for the card deck named “Market”; “Unit counters” for the
    token deck “Units”, as a wargame calls its tokens: ``KIND_WORDS``)."""
    names = lambda d: (d.name, *d.aliases)  # noqa: E731
    exact = [d for d in items if any(norm(n) == norm(name) for n in names(d))]
    return exact or [d for d in items if any(base(n) == norm(name) for n in names(d))] \
        or [d for d in items if latin_key(name) and any(latin_key(n) == latin_key(name) for n in names(d))] \
        or [d for d in items if latin_key(name) and d.kind and any(
            latin_key(f"{n} {word}") == latin_key(name) for n in names(d) for word in KIND_WORDS.get(d.kind, (d.kind,)))]


def _named_with_note(comp: Component, items: list[DataItem], used: set[int]) -> Component:
    """``1 Order of Battle (Red)``: a parenthesis after a count written first is a note under the
    entry (``(double-sided)``), unless the name with it is the name of a deck or sourced item not
    yet listed: then it is part of the name (else both Orders of Battle were read as one)."""
    if not comp.note or len(comp.names) != 1:
        return comp
    named = f"{comp.names[0]} ({comp.note})"
    if not any(norm(n) == norm(named) for d in items if id(d) not in used for n in (d.name, *d.aliases)):
        return comp
    return replace(comp, names=[named], heading=f"{comp.heading} ({comp.note})", children=comp.children[1:], note="")


def _named_whole(comp: Component, items: list[DataItem], used: set[int]) -> Component:
    """``24 Fish and spice``: an English entry is split at "and", "&" and commas into the decks it
    lists (``1 Board and 4 Markers``), unless the name unsplit is the name of a deck or sourced item
    not yet listed: then it is that one entry (else a deck named "Fish and spice" matched nothing)."""
    if not comp.whole or len(comp.names) < 2:
        return comp
    if not any(norm(n) == norm(comp.whole) for d in items if id(d) not in used for n in (d.name, *d.aliases)):
        return comp
    return replace(comp, names=[comp.whole], units=comp.units[:1] or [""] * len(comp.counts))


def _named_total(comp: Component, items: list[DataItem], used: set[int]) -> Component:
    """``37 Sea tiles: 8 Marsh, 8 Dune and 21 Reef``: a total and its parts are the decks the parts
    name (a legacy game's packs), unless no part names one and the total names a deck or sourced item
    not yet listed: then it is that one entry, the parts its description (what the deck holds), as
    a Japanese draft's ◇ entry and the lines under it (else "Marsh, Dune, Reef" matched no deck and
    the tiles were told missing from the list)."""
    if not comp.total or any(id(d) not in used for name in comp.names for d in _match(name, items)):
        return comp
    if not any(id(d) not in used for d in _match(comp.total, items)):
        return comp
    told = sum(comp.counts)
    return replace(comp, names=[comp.total], counts=[told], count_text=str(told), units=[""], total="",
                   heading=f"{told} {comp.total}", parts_off=[], whole="",
                   children=[DraftParagraph(comp.heading, False, False, comp.line), *comp.children])


def _units(comp: Component, parts: list[tuple[str, list[DataItem]]]) -> list[str]:
    """The unit to print per part: the draft's (枚, 個) when it gives one per part, else the data's."""
    draft = [u for u in comp.units if u in COMPARABLE_UNITS and u]
    out = []
    for i, (_, ds) in enumerate(parts):
        if len(draft) == len(parts):
            out.append(draft[i])
        elif len(parts) == 1 and draft:
            out.append(draft[0])
        else:
            out.append(ds[0].unit if ds else "")
    return out


def _english_word(items: list[DataItem]) -> str:
    """What a part's count counts, in English: its decks' kind (card, tile…), else piece."""
    kinds = {d.kind for d in items}
    return kinds.pop() if len(kinds) == 1 and "" not in kinds else "piece"


def _fmt(counts: list[int]) -> str:
    return "／".join(str(c) for c in counts)


def component_rows(doc: Document, game: Game, draft_path: Path | str, aliases: dict[str, str] | None = None,
                   latin: bool = False) -> tuple[list[ComponentRow], list[str], list[str]]:
    """Rows for the rulebook, warnings (count mismatches, missing data) and report lines.
    ``aliases`` and ``latin`` as for ``data_items``."""
    items = data_items(game, aliases, latin)
    sep = " / " if latin else "／"

    def quote(text: str) -> str:  # the draft's own marks: “Player mats” in an English draft, 「…」 in Japanese
        return f"“{text}”" if latin else f"「{text}」"

    used: set[int] = set()
    rows: list[ComponentRow] = []
    warnings: list[str] = []
    report: list[str] = []
    have_data = bool(items)
    if not have_data and doc.components:  # (a book of its own, a scenario book, lists none: nothing to tell)
        first = doc.components[0]
        warnings.append(f"{draft_path}:{first.line}: the draft lists {len(doc.components)} component"
                        f"{'' if len(doc.components) == 1 else 's'} ({quote(first.name)}…), but the data has no decks "
                        "and no sourced items to check them against; the components list shows the draft's own "
                        "counts (decks in data/" + game.slug + "/decks/, or bought parts in game.yaml's sourced:)")
    unnamed: list[int] = []  # the warnings of draft entries matching no item, nothing near
    for comp in doc.components:
        comp = _named_total(_named_whole(_named_with_note(comp, items, used), items, used), items, used)
        parts = []
        for name in comp.names:
            found = [d for d in _match(name, items) if id(d) not in used]
            used.update(id(d) for d in found)
            parts.append((name, found))
        row = ComponentRow(comp.total or comp.name, parts, comp.children, comp.heading if comp.counts else None,
                           _units(comp, parts), sep=sep, total=bool(comp.total))
        row.provisional = not comp.counts and any(d.stand_in_count for _, ds in parts for d in ds)
        rows.append(row)
        where = f"{draft_path}:{comp.line}"
        missing = [name for name, ds in parts if not ds]
        if missing and have_data:
            near = "".join(dict.fromkeys(suggest(name, [d.draft_name for d in items]) for name in missing))  # (once a name)
            near += EDIT_DRAFT if near else ""
            if comp.parts_off:  # "54 cards: 40 Market cards and 10 Starter cards"
                near += (f"; the parts its text lists add up to {sum(comp.parts_off)} "
                         f"({' + '.join(map(str, comp.parts_off))}), not {comp.counts[0]}: with the total "
                         "their sum, the parts are the entries")
            if not near:  # a part bought rather than printed: where the data names one (trial: a rules sheet, cubes)
                near = f"; a part bought, not printed, goes in game.yaml's sourced: list ({{name: {missing[0]}, count: …}})"
                unnamed.append(len(warnings))  # (or a deck renamed since: told once every entry is matched)
            warnings.append(f"{where}: component {quote(', '.join(missing) if latin else '、'.join(missing))} of "
                            f"the draft has no deck or sourced item of that name in the data{near}")
        for label, draft_n, data in _compare(comp, parts):
            stated = quote(comp.memo or comp.heading)
            warnings.append(f"{where}: count of {label} differs: the draft states {draft_n} ({stated}), "
                            f"the data has {data}")
            row.mismatches.append((label, draft_n))
    for d in items:
        if id(d) in used or d.deck_id is None:
            continue
        host = _stands_in(d, rows)
        if host:
            host.stand_in = d
            used.add(id(d))
            report.append(f"components: deck {d.deck_id} is a printed stand-in for 「{host.name}」")
    for d in items:  # the other way round: the draft names the printed deck, the part bought is its wooden twin
        if id(d) in used or d.ref != "sourced":
            continue
        host = _bought_for(d, rows)
        if host:
            used.add(id(d))
            report.append(f"components: sourced 「{d.name}」 is the bought twin of 「{host.name}」")
    rest = [d for d in items if id(d) not in used and not d.packaging  # (a deck's box is not a game piece,
            and not (d.deck_id is not None and d.count == 0)]  # nor a deck that prints nothing: a figure's picture)
    renamed = [d for d in rest if d.deck_id is not None]
    for k in unnamed if renamed else ():  # a deck renamed since the draft's line was written (pnpgen new wrote it)
        names = ", ".join(f"{quote(d.draft_name)} ({d.deck_id})" for d in renamed[:3]) + (", …" if len(renamed) > 3 else "")
        warnings[k] += (f"; or, if it is the data's {'deck' if len(renamed) == 1 else 'decks'} {names}, on no line "
                        f"of the draft, write {'its' if len(renamed) == 1 else 'that'} name on this line{EDIT_DRAFT}")
    told = [d for d in rest if (unnamed and d in renamed[:3])  # (a deck a draft entry's warning already offers)
            or any(f"did you mean {d.draft_name}?" in w for w in warnings)]
    warnings += _unnamed_decks(doc, draft_path, [d for d in rest if d.deck_id is not None and d not in told],
                               quote, latin)
    for d in rest:  # only in the data: the draft gives no count
        rows.append(ComponentRow(d.name, [(d.name, [d])], [], None, [d.unit], sep=sep, provisional=d.stand_in_count,
                                 unlisted=True))
    report.append(f"components: {len(doc.components)} in the draft, {len(items)} data items, "
                  f"{len(rest)} only in the data")
    return rows, warnings, report


def _unnamed_decks(doc: Document, draft_path: Path | str, decks: list[DataItem], quote, latin: bool) -> list[str]:
    """One warning, at the draft's components heading, for the printed decks its list never
    names: the book lists them under その他の内容物 with the data's count, which the draft never
    stated (a deck added to the game and not to the draft's box contents)."""
    line = next((s.line for s in doc.sections if s.is_components), 0)
    if not decks or not doc.components or not line:
        return []
    names = ", ".join(f"{quote(d.draft_name)} ({d.deck_id}, {d.count}{d.unit})" for d in decks)
    them = "it" if len(decks) == 1 else "them"
    return [f"{draft_path}:{line}: the draft's components list does not name the printed "
            f"deck{'' if len(decks) == 1 else 's'} {names}; the book lists {them} under "
            f"{quote(msg('rulebook.other_components', 'en' if latin else 'ja'))} "
            f"with the data's count; add {them} to the list under this heading, with the count the box holds{EDIT_DRAFT}"]


def _stands_in(deck: DataItem, rows: list[ComponentRow]) -> ComponentRow | None:
    for row in rows:
        items = row.items
        if items and row.stand_in is None and all(d.ref == "sourced" for d in items) \
                and all(base(d.name).startswith(norm(deck.name)) for d in items) and row.count == deck.count:
            return row
    return None


def _bought_for(part: DataItem, rows: list[ComponentRow]) -> ComponentRow | None:
    """The draft's entry of the printed deck a sourced part is the bought form of: the deck's name
    begins the part's and their counts agree (◇得点キューブ（４０個）, the deck 得点キューブ, the part
    得点キューブ（木製） 40 — listed again under その他の内容物 as 「40個（仮）」, trial43)."""
    for row in rows:
        decks = row.items
        if decks and all(d.deck_id is not None for d in decks) and row.count == part.count \
                and any(base(part.name).startswith(norm(d.name)) for d in decks):
            return row
    return None


def _compare(comp: Component, parts: list[tuple[str, list[DataItem]]]) -> list[tuple[str, str, str]]:
    """(part, the draft's count, the data's count with its sources) for each count that differs."""
    if not comp.counts or not all(u in COMPARABLE_UNITS for u in comp.units):
        return []
    counts = comp.counts
    if comp.each:
        counts = counts[:1] * len(parts)
    out = []

    def differ(label: str, draft_n: str, data: list[DataItem], data_n: str | None = None) -> None:
        total = data_n or str(sum(d.count for d in data))
        out.append((label, draft_n, f"{total} ({', '.join(d.describe() for d in data)})"))

    if len(parts) > 1 and len(counts) == len(parts):
        for (name, data), n in zip(parts, counts):
            if data and sum(d.count for d in data) != n:
                differ(name, str(n), data)
    elif len(parts) == 1 and parts[0][1]:
        name, data = parts[0]
        if len(counts) > 1 and len(data) == len(counts):
            if sorted(d.count for d in data) != sorted(counts):
                differ(name, _fmt(counts), data, _fmt([d.count for d in data]))
        elif sum(d.count for d in data) != sum(counts):
            differ(name, str(sum(counts)) if len(counts) == 1 else f"{sum(counts)} ({_fmt(counts)})", data)
    elif len(counts) == 1 and any(ds for _, ds in parts):
        data = [d for _, ds in parts for d in ds]
        if sum(d.count for d in data) != counts[0]:
            differ(comp.name, str(counts[0]), data)
    return out
