"""The reprint file: after a build that changed pieces, ``reprint.pdf`` holds exactly the copies
whose face is new or changed since an earlier build (with their backs, laid out like the home
sheets), and ``reprint.txt`` says what to do at the table: which copies to add, which to pull
out and throw away (removed copies, and the old versions of changed ones), deck by deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnpgen import fonts as fontreg
from pnpgen.data.formats import paper_title
from pnpgen.data.names import REPRINT_SINCE
from pnpgen.engine.changes import (
    art_tag,
    changed_pages,
    deck_places,
    numbered_name,
    parked_said,
    piece_place,
    placed_decks,
    plain_values,
    renamed,
    told_apart,
)
from pnpgen.engine.imposition import fit_to_printer, folded_or_sleeved, sheet_fonts, version_stamp
from pnpgen.engine.options import REPRINT_FILES, BuildOptions
from pnpgen.engine.piecematch import DeckMatch, copies_only, in_deck_order, matched
from pnpgen.impose.onpaper import deck_sheet, on_deck_paper, paper_printed_on
from pnpgen.impose.plan import Page, PagePlan
from pnpgen.impose.sheets import DeckSheets, board_tiles, duplex_ready, home_sheets
from pnpgen.impose.slots import SlotLayout
from pnpgen.messages import msg
from pnpgen.pdf.writer import write_document

if TYPE_CHECKING:
    from pnpgen.data.model import Piece
    from pnpgen.engine.game import BuildResult
    from pnpgen.faces.faceset import DeckFaces


@dataclass
class DeckReprint:
    """One deck's part of the reprint: the copies to print (face keys in print order) and the
    lines of what to add and pull out."""

    id: str
    name: str
    fronts: list[str] = field(default_factory=list)
    backs: list[str] | None = None
    add: dict[str, int] = field(default_factory=dict)  # piece name → copies to add
    pull: dict[str, int] = field(default_factory=dict)  # piece name (and why) → copies to throw away


def deck_reprints(result: BuildResult, before: dict[str, Any], now: dict[str, Any] | None = None,
                  matches: dict[str, DeckMatch] | None = None) -> list[DeckReprint]:
    """Per deck, what changed since ``before`` (a change-report snapshot: per deck its pairs);
    ``now``, this build's snapshot when made (engine/changes.py ``snapshot``): its pieces' values
    and its pairs' pictures' hashes taken from it, not made again. Each piece's label is made once
    (a property read five times a piece before), and the name said of a pair only for the copies
    to add (3,000 cards, one edited: one pair, not 3,000; docs/speed.md edit3k). ``matches``: the
    change report's match of each deck's pieces (``change_report``), taken where it matched these
    very records (``before``'s and ``now``'s), not made again."""
    assert result.rendered is not None
    lang = result.game.lang
    arts = result.face_arts
    tags: dict[tuple[str, str | None], str] = {}

    def tag(front: str, back: str | None) -> str:  # a pair's pictures' hash, once per pair (not per copy and use)
        found = tags.get((front, back))
        if found is None:
            found = tags[front, back] = art_tag(arts, [front, back])
        return found

    out = []
    deleted = {d: rec for d, rec in before.items() if isinstance(rec, dict)
               and d not in {df.deck.id for df in result.rendered.decks}}
    moved = renamed(before, {df.deck.id: {"pairs": [[p.front, p.back] for p in df.pairs]} for df in result.rendered.decks})
    snapshot = now
    for df in result.rendered.decks:
        record = before.get(df.deck.id) or deleted.get(moved.get(df.deck.id, ""), {})
        shown = snapshot.get(df.deck.id) if snapshot is not None else None
        shown_pairs = shown.get("pairs") if isinstance(shown, dict) else None
        from_snapshot = isinstance(shown_pairs, list) and len(shown_pairs) == len(df.pairs)
        if from_snapshot and isinstance(shown_pairs, list):  # (made by ``snapshot``, pair for pair)
            for face_pair, entry in zip(df.pairs, shown_pairs, strict=True):
                tags.setdefault((face_pair.front, face_pair.back), entry[4])
        named = [(p, p.label) for p in df.deck.pieces]  # (a property: its name field found, its markup taken out)
        labels = {id(p): f"{p.index}:{name}" for p, name in named}

        def label_of(piece: Piece, labels: dict[int, str] = labels) -> str:  # ``index:label``, made once a piece
            return labels.get(id(piece)) or f"{piece.index}:{piece.label}"
        pairs_before = record.get("pairs", [])
        # a pair is known by its faces and, when the earlier build recorded them, the pictures they
        # show: a repainted picture makes its copies new (an older record compares faces alone)
        painted = bool(pairs_before) and all(len(p) > 4 for p in pairs_before)

        def known(front: str, back: str | None, art: str = "", painted: bool = painted) -> tuple:
            return (front, back, art) if painted else (front, back)

        old: dict[tuple, int] = {}
        old_names: dict[tuple, str] = {}
        for f, b, n, label, *art in pairs_before:
            old[known(f, b, *art)] = old.get(known(f, b, *art), 0) + n
            old_names.setdefault(known(f, b, *art), label)
        new = {known(p.front, p.back, tag(p.front, p.back)): p.count for p in df.pairs}
        # pieces of a name, in either build: counted in each, a piece moved to another place is one
        shared = (Counter(name for _p, name in named)
                  | Counter(label.split(":", 1)[-1] for label in set(old_names.values())))
        values = shown.get("values") if isinstance(shown, dict) else None
        if values is None:
            values = {label_of(p): plain_values(p.values) for p in df.deck.pieces}
        match = (matches or {}).get(df.deck.id)
        if match is not None and not (match.old is record and match.new is shown and from_snapshot
                                      and values is shown.get("values")):
            match = None  # (the same two records only: the snapshot's pieces are these, its pairs the ones printed)
        was = match.was if match is not None else matched(  # new label → old
            record.get("pieces", {}), {label_of(p): [p.count] for p in df.deck.pieces}, record.get("values", {}), values)
        # (pieces told apart by values that did not change, as the change line and ``pnpgen diff`` tell them)
        # (one no value tells apart by its deck file and line, cards.yaml:41, as the change line and ``pnpgen diff`` name it)
        at = (deck_places(record), deck_places(shown) or {label_of(p): piece_place(p.where) for p in df.deck.pieces})
        told = told_apart(record.get("values", {}), values, lang, was, at)
        pair_labels = {known(p.front, p.back, tag(p.front, p.back)): label_of(p.piece) for p in df.pairs}
        labels_now = {label_of(p) for p in df.deck.pieces if p.count > 0}
        parked_now = {label_of(p) for p in df.deck.pieces if p.count == 0}  # a count set to 0: parked
        trimmed: set[str] = set()  # old labels of pieces only taking copies out, their faces drawn one by one
        if any(pair not in new for pair in old):  # gone, renamed, or moved up (#4 of a nameless deck is #3 now)
            if match is not None:
                recounted = match.recounted
            else:
                printed = {"pairs": [[p.front, p.back, p.count, label_of(p.piece), tag(p.front, p.back)]
                                     for p in df.pairs]}
                recounted = copies_only(record, printed, was)
            labels_now = {o for n, o in was.items() if n in labels_now}
            parked_now = {o for n, o in was.items() if n in parked_now}
            trimmed = {was[n] for n in recounted}
        dr = DeckReprint(df.deck.id, df.deck.name, backs=[] if df.backs is not None else None)
        twins = _Twins(df, record.get("pieces", {}), was, arts, label_of)
        extra = {pair: n - old.get(pair, 0) for pair, n in new.items() if n > old.get(pair, 0)}
        copies = [known(front, df.backs[i] if df.backs is not None else None,
                        tag(front, df.backs[i] if df.backs is not None else None)) for i, front in enumerate(df.fronts)]
        owners = _copy_owners(df.deck.pieces, len(copies))
        # a pair printed by twins (pieces of the same faces): each copy named by its own piece, the
        # copies new to its piece first (one twin's count raised names that twin, not the first)
        chosen = _added_copies(copies, extra, owners, twins.own_new)
        for i in chosen:
            back = df.backs[i] if df.backs is not None else None
            dr.fronts.append(df.fronts[i])
            if dr.backs is not None and back is not None:
                dr.backs.append(back)
            label = label_of(owners[i]) if owners is not None else pair_labels[copies[i]]
            name = told[1][label] if label in told[1] else numbered_name(label, shared, at[1].get(label))
            dr.add[name] = dr.add.get(name, 0) + 1
        for pair, n in old.items():
            gone = n - new.get(pair, 0)
            if gone <= 0:
                continue
            # the copies of twins (pieces printed alike) each taken out as its own piece's
            for label, taken in _twin_shares(old_names[pair], gone, twins.before(), twins.own_gone):
                # the same faces, fewer copies: surplus; other faces of a piece still there: its old
                # version; a piece its count set to 0: parked; a piece no longer in the deck: removed
                why = "surplus" if pair in new or label in trimmed else "old" if label in labels_now else \
                    "parked" if label in parked_now else "removed"
                piece = told[0].get(label, numbered_name(label, shared, at[0].get(label)))
                old_count = (record.get("pieces", {}).get(label) or [taken])[0]  # (the parked piece's count before)
                name = msg(f"reprint.pull.{why}", lang, piece=piece, why=parked_said(old_count, lang) if why == "parked" else "")
                dr.pull[name] = dr.pull.get(name, 0) + taken
        if dr.add or dr.pull:
            out.append(dr)
    for d, rec in deleted.items():  # a deck file deleted: every copy of it comes out of the box
        if d in moved.values():
            continue
        dr = DeckReprint(d, str(rec.get("name", d)))
        for _f, _b, n, label, *_art in rec.get("pairs", []):
            name = msg("reprint.pull.removed", lang, piece=str(label).split(":", 1)[-1])
            dr.pull[name] = dr.pull.get(name, 0) + n
        if dr.pull:
            out.append(dr)
    return out


def reprint_files(result: BuildResult, options: BuildOptions, before: dict[str, Any], name: str = "reprint",
                  since: str = "", hint: str = "", now: dict[str, Any] | None = None,
                  said: list[str] | None = None, matches: dict[str, DeckMatch] | None = None) -> dict[str, bytes]:
    """``<name>.pdf`` (when there are copies to add) and ``<name>.txt``, ``hint`` its last line;
    empty when no copy was added, changed or removed since ``before`` (``now``: this build's
    snapshot, when made). Pages on a paper other than the game's (a deck's A3 ``paper:`` or sheet
    layout) are a file of their own, ``<name>-a3.pdf`` (many printer drivers print a file of mixed
    papers all on one), named under reprint.txt's head and in ``said`` (the build's summary)."""
    decks = deck_reprints(result, before, now, matches)
    if not decks:
        return {}
    options = result.options or options  # the game's: game.yaml's paper: and printer: as its home sheets have them
    game = result.game
    font, bold = sheet_fonts(game, options)  # the home sheets' faces (an English game's slug was BIZ UDP Gothic here: trial58)
    sheet = options.sheet
    sheet = sheet.cut_by_hand()  # a print-and-cut build's reprint: トンボ, no registration marks, slug on top
    rendered = result.rendered
    placed = {deck.id: (deck, p) for deck, p in zip(game.decks, result.on_paper, strict=True)}  # as the home sheets
    lang = game.lang
    printed: list[tuple[DeckReprint, list[Page], bool]] = []  # a deck, its pages, whether they have backs pages
    papers: dict[str, str] = {}  # deck id → the paper its pages are on
    for dr in decks:
        deck_pages: list[Page] = []
        backs_pages = dr.backs is not None
        if dr.fronts:
            deck, on = placed[dr.id]
            ds = DeckSheets(dr.id, msg("sheet.reprint", game.lang, deck=dr.name), on.spec, tuple(dr.fronts),
                            tuple(dr.backs) if dr.backs is not None else None,
                            rendered.bleed_of(deck) if rendered else options.bleed_mm, version_stamp(game), game.lang,
                            result.face_arts)
            one_sided = None if isinstance(on.layout, SlotLayout) or on.tiles is not None else \
                folded_or_sleeved(ds, deck.kind, deck_sheet(deck, sheet), font)  # --layout fold, sleeve: as the home sheets
            own = on_deck_paper(deck, sheet)  # on the deck's own paper: when it gives one, as its home sheets
            papers[dr.id] = paper_printed_on(on, own)
            if on.tiles is not None:
                deck_pages = board_tiles(ds, on.tiles, own, font, bold, fontreg.string_width_mm)
                deck_pages = _changed_tiles(deck_pages, (before.get(dr.id) or {}).get("pages"),
                                            result.home_pages.get(dr.id, []), dr.backs is not None)
            elif one_sided is not None:
                deck_pages, backs_pages = one_sided[0], False
            else:
                deck_pages = home_sheets(ds, on.layout, own, font, fontreg.string_width_mm)
            fit_to_printer(deck_pages, options)  # as the home sheets: the slug names the profile
        printed.append((dr, deck_pages, backs_pages))
    # one file a paper: the game's paper's pages in <name>.pdf, a deck's own (A3) in <name>-a3.pdf
    # (one file of mixed papers, many printer drivers print all on one)
    by_paper: dict[str, list[tuple[DeckReprint, list[Page], bool]]] = {sheet.paper: []}
    for entry in printed:
        by_paper.setdefault(papers.get(entry[0].id, sheet.paper) if entry[1] else sheet.paper, []).append(entry)
    lines = [msg("reprint.head", lang, title=game.title, since=since or msg("reprint.since_last", lang)), ""]

    def kind_of(dr: DeckReprint) -> str:  # (a deck whose file was deleted: counted as cards)
        return placed[dr.id][0].kind if dr.id in placed else "card"

    files: dict[str, bytes] = {}
    apart: list[str] = []  # the files of a paper not the game's
    for paper, entries in by_paper.items():
        file = reprint_file_name(name, paper, sheet.paper)
        # printed duplex: with two-sided sheets in it, a one-sided deck's sheets each get a blank
        # back, as in <game>-all.pdf, or the next deck's backs would land behind the wrong fronts
        two_sided = any(backs_pages and deck_pages for _dr, deck_pages, backs_pages in entries)
        pages: list[Page] = []
        for dr, deck_pages, backs_pages in entries:
            first, sheets = len(pages) + 1, len(deck_pages)
            if two_sided and not backs_pages:
                deck_pages = duplex_ready(deck_pages, False, sheet, font, lang)
            pages += deck_pages
            last = len(pages) - (1 if len(deck_pages) > sheets else 0)  # its last sheet, not the blank after it
            lines.append(f"{dr.id} ({dr.name})")
            if dr.fronts:
                pages_shown = f"{first}" + (f"–{last}" if last > first else "")
                key = "reprint.add.pages" if last > first else "reprint.add"  # "pages 1–10", "page 3"
                lines.append("  " + msg(key, lang, copies=_copies(len(dr.fronts), kind_of(dr), lang), file=file,
                                        pages=pages_shown))
                lines += [f"    {n} × {piece}" for piece, n in dr.add.items()]
            if dr.pull:
                lines.append("  " + msg("reprint.pull", lang, copies=_copies(sum(dr.pull.values()), kind_of(dr), lang)))
                lines += [f"    {n} × {piece}" for piece, n in dr.pull.items()]
            lines.append("")
        if pages:
            files[file] = write_document(PagePlan(msg("doc.reprint", lang, title=game.title), pages), result.arts, font,
                                         images=result.images)
            if paper != sheet.paper:
                apart.append(file)
    if apart:  # under the head, and in the build's summary (in English, as its other lines)
        main = reprint_file_name(name, sheet.paper, sheet.paper)
        lines[2:2] = [*_papers_said(apart, by_paper, main if main in files else "", sheet.paper, name, lang), ""]
        if said is not None:
            said += _papers_said(apart, by_paper, main if main in files else "", sheet.paper, name, "en")
    if hint:
        lines += [hint, ""]
    return {f"{name}.txt": "\n".join(lines).encode(), **files}


def is_reprint_file(rel: str) -> bool:
    """One of the reprint's files: ``REPRINT_FILES``, or the pages on a paper not the game's,
    ``reprint-a3.pdf`` (``reprint_file_name``; not pnpgen reprint's reprint-since-V)."""
    return rel in REPRINT_FILES or (rel.startswith("reprint-") and rel.endswith(".pdf") and "/" not in rel
                                    and not rel.startswith(REPRINT_SINCE))


def reprint_file_name(name: str, paper: str, game_paper: str) -> str:
    """The reprint's file of one paper: ``reprint.pdf`` for the game's paper, ``reprint-a3.pdf`` for
    a deck's own A3 (``name``: ``reprint``, or pnpgen reprint's ``reprint-since-v3``)."""
    return f"{name}.pdf" if paper == game_paper else f"{name}-{paper.lower()}.pdf"


def _papers_said(apart: list[str], by_paper: dict[str, list], main: str, paper: str, name: str,
                 lang: str) -> list[str]:
    """The reprint's files on papers other than the game's ``paper``, a line a file
    (``reprint-a3.pdf is A3, reprint.pdf A4: …``); ``main``: the game's paper's file ("" for none)."""
    out = []
    for on in by_paper:
        file = reprint_file_name(name, on, paper)
        if file not in apart:
            continue
        if main:
            out.append(msg("reprint.papers", lang, file=file, paper=paper_title(on), main=main, other=paper_title(paper)))
        else:
            out.append(msg("reprint.papers.all", lang, file=file, paper=paper_title(on), other=paper_title(paper)))
    return out


def since_decks(body: dict[str, Any]) -> dict[str, Any]:
    """A history version's decks as ``reprint --since`` compares against them: a tiled board's with
    the pages it recorded (``tile_pages``), so only the tiles whose part of the board changed are
    reprinted, as the build's change report names them (a trial of session 47: a 15-tile map
    edited on tiles 1, 4 and 7 reprinted all 15); a version recorded before holds none (every tile)."""
    pages = body.get("tile_pages")
    decks = placed_decks(body)
    if not isinstance(pages, dict):
        return decks
    return {d: {**v, "pages": pages[d]} if isinstance(v, dict) and isinstance(pages.get(d), list)
            and all(isinstance(p, str) for p in pages[d]) else v for d, v in decks.items()}


def _changed_tiles(pages: list[Page], old: list[str] | None, new: list[str], backs: bool) -> list[Page]:
    """A tiled board's tiles to print again: those whose part of the board changed
    (pdf/tilesig.py), when ``pages`` are the home sheets' own (every copy reprinted) and the
    last build recorded its sheets; else every tile (a history version records none)."""
    if not old or len(old) != len(new) or len(pages) != len(new):
        return pages
    keep = set(changed_pages(old, new, per_sheet=2 if backs else 1))
    return [page for n, page in enumerate(pages, 1) if n in keep] if keep else pages


class _Twins:
    """A deck's twins, pieces printed alike (the same faces and pictures), between the last build's
    record (``old``: its pieces) and this build's (``df``; ``was``: new label → old): how many of a
    piece's copies are new to it, or gone from it, so a copy added or pulled out is named by its
    own piece, not the first that prints those faces."""

    def __init__(self, df: DeckFaces, old: dict[str, Any], was: dict[str, str], arts: dict[str, str],
                 label_of: Callable[[Piece], str]):
        self.df, self.old, self.was, self.arts, self.label_of = df, old, was, arts, label_of
        self.now = {label_of(p): p for p in df.deck.pieces}
        self.back_to = {o: n for n, o in was.items()}  # old label → new
        self.groups: dict[str, list[str]] = {}

    def _alike(self, piece: Piece, old_label: str | None) -> bool:
        """Whether ``piece`` prints the faces (and pictures) ``old_label`` printed."""
        rec = self.old.get(old_label) if old_label is not None else None
        if not isinstance(rec, list) or len(rec) < 2 or rec[1] != self.df.digests.get(piece.index):
            return False
        return len(rec) < 5 or rec[4] == art_tag(self.arts, self.df.piece_keys.get(piece.index, ()))

    def own_new(self, piece: Piece) -> int:
        """A piece's copies not printed before."""
        old_label = self.was.get(self.label_of(piece))
        return max(0, piece.count - self.old[old_label][0]) if old_label and self._alike(piece, old_label) else piece.count

    def own_gone(self, label: str) -> int:
        """An old piece's copies not printed now."""
        count = (self.old.get(label) or [0])[0]
        piece = self.now.get(self.back_to.get(label, ""))
        return max(0, count - piece.count) if piece is not None and self._alike(piece, label) else count

    def before(self) -> dict[str, list[str]]:
        """Each old label → the old pieces printed alike with it, in deck order (worked out once asked)."""
        if not self.groups:
            alike: dict[tuple, list[str]] = {}
            for label, rec in in_deck_order(self.old).items():
                if isinstance(rec, list) and len(rec) > 1 and rec[0]:
                    alike.setdefault((rec[1], *rec[4:5]), []).append(label)
            self.groups.update((label, group) for group in alike.values() for label in group)
        return self.groups


def _copy_owners(pieces: list[Piece], copies: int) -> list[Piece] | None:
    """Each printed copy's piece, in print order (a piece's copies follow one another); None when
    they do not add up to the deck's copies."""
    owners = [p for p in pieces for _ in range(p.count)]
    return owners if len(owners) == copies else None


def _added_copies(copies: list[tuple], extra: dict[tuple, int], owners: list[Piece] | None,
                  own_new: Callable[[Piece], int]) -> list[int]:
    """The copies to print again (indices in print order): of each pair (``copies``: each copy's)
    the ``extra`` copies it prints more than before; of a pair several pieces print (twins), those
    of the pieces with copies new to them (``own_new``) first, then the first in print order."""
    first = [i for i, pair in enumerate(copies) if extra.get(pair, 0) > 0]
    if owners is None:
        return _first_of_each(first, copies, extra)
    holders: dict[tuple, set[int]] = {}
    for i in first:
        holders.setdefault(copies[i], set()).add(id(owners[i]))
    if all(len(h) == 1 for h in holders.values()):  # (no twins: the first copies, as ever)
        return _first_of_each(first, copies, extra)
    left = dict(extra)
    new_left = {id(p): own_new(p) for p in {id(owners[i]): owners[i] for i in first}.values()}
    chosen: set[int] = set()
    for i in first:  # a twin's own new copies first
        if left[copies[i]] > 0 and new_left[id(owners[i])] > 0:
            new_left[id(owners[i])] -= 1
            left[copies[i]] -= 1
            chosen.add(i)
    chosen.update(_first_of_each([i for i in first if i not in chosen], copies, left))
    return sorted(chosen)


def _first_of_each(indices: list[int], copies: list[tuple], extra: dict[tuple, int]) -> list[int]:
    """The first ``extra[pair]`` of ``indices`` of each pair, in order."""
    left = dict(extra)
    out = []
    for i in indices:
        if left.get(copies[i], 0) > 0:
            left[copies[i]] -= 1
            out.append(i)
    return out


def _twin_shares(label: str, gone: int, twins: dict[str, list[str]],
                 own_gone: Callable[[str], int]) -> list[tuple[str, int]]:
    """The ``gone`` copies of a pair ``label`` (its first piece) printed, shared among its twins
    (the pieces printed alike: ``twins``), each (label, copies): those each lost first
    (``own_gone``), the rest in deck order; the pair's own label alone when it has no twins."""
    group = twins.get(label, [label])
    if len(group) < 2:
        return [(label, gone)]
    shares = dict.fromkeys(group, 0)
    for twin in group:
        shares[twin] = min(own_gone(twin), gone - sum(shares.values()))
    for twin in group:  # (copies lost otherwise: the first twins')
        shares[twin] += max(0, gone - sum(shares.values()))
    return [(twin, n) for twin, n in shares.items() if n > 0]


def _copies(n: int, kind: str, lang: str) -> str:
    """``3枚`` of cards, tiles and boards, ``3個`` of tokens, as the rulebook's components list counts them."""
    return msg(("reprint.copy" if n == 1 else "reprint.copies") + (".token" if kind == "token" else ""), lang, n=n)
