"""Bill of materials: what a game prints (with sheet counts) and what must be sourced.

``bill_of_materials`` builds the manifest entry from the deck records the build made;
impose/bom.py lays it out as pages of the all-in-one file.
"""

from __future__ import annotations

from pnpgen.data.formats import booklet_paper_for
from pnpgen.data.gamefiles import rule_sheet_paper
from pnpgen.data.model import Game, is_placeholder
from pnpgen.engine.bookkey import RULE_SHEET
from pnpgen.engine.manifest import DeckRecord


def bill_of_materials(game: Game, decks: list[DeckRecord], paper: str = "a4", rulebook: bool = True,
                      shared: list[dict] | None = None, two_pass: bool = False, duplex: str = "long") -> dict:
    """The manifest's ``bill_of_materials``: printed decks (from the build's deck records), the
    rulebook when the game has a draft and the build makes it (a prototype's box holds one; its
    booklet is on ``paper``, the home sheets' paper: Letter, else A4; a ``--no-rulebook`` build
    lists none, as it makes none; ``two_pass``: a build without duplex prints it in two passes; ``rule_sheet``:
    rule-sheet.pdf too, when game.yaml asks for it) and sourced components (from game.yaml ``sourced:``); with
    game.yaml ``share_sheets: true``, ``shared``: the decks that share sheets in <game>-all.pdf,
    its pages and how many sheets they take there and each in its own file. Each printed deck's
    ``print`` says how its file is printed (``printed_as``, the build's ``duplex``); its ``sheets``
    are sheets of paper: with its backs on paper of their own (``--duplex none``), its pages."""
    printed = []
    by_paper: dict[str, int] = {}  # the sheets of each paper, when decks give papers of their own (paper:, sheet:)
    for d in decks:
        how = printed_as(d, duplex)
        sheets = d.pages if how == "backs-apart" else d.sheets
        by_paper[d.paper] = by_paper.get(d.paper, 0) + sheets
        printed.append({
            "deck": d.id,
            "name": d.name,
            "kind": d.kind,
            "shape": d.shape,
            "trim_mm": d.trim_mm,
            "count": d.count,
            "double_sided": d.double_sided,
            "print": how,
            "sheets": sheets,
            "pages": d.pages,
            "paper": d.paper,
            "file": d.files[0] if d.files else None,  # none for a deck whose pieces are all parked (count: 0)
        })
    sourced = [{"name": s.name, "count": s.count, "note": s.note, "placeholder": is_placeholder(s.note)}
               for s in game.sourced]
    sheet = rule_sheet_paper(game)
    book = {"files": ["rulebook-booklet.pdf", "rulebook.pdf"], "copies": 1,
            "booklet_paper": booklet_paper_for(paper), **({"two_pass": True} if two_pass else {}),
            # the rules on one sheet, beside the book: known from game.yaml before the rulebook's
            # process sets it (its paper and orientation, not yet its sides), so the printed page
            # and the manifest say the same
            **({"rule_sheet": RULE_SHEET, "rule_sheet_paper": sheet[0] or booklet_paper_for(paper),
                "rule_sheet_orientation": "landscape" if sheet[1] else "portrait",
                **({"rule_sheet_folded": True} if sheet[2] else {})} if sheet else {})} \
        if rulebook and game.draft_file.is_file() else None
    return {
        "printed": printed,
        **({"rulebook": book} if book else {}),
        **({"shared_sheets": shared} if shared else {}),
        "sourced": sourced,
        "stock": card_stock(decks),
        "totals": {
            "printed_pieces": sum(p["count"] for p in printed),
            "sheets": sum(p["sheets"] for p in printed),
            # each deck's paper named when it is not the game's alone (an A4 game's only deck on A3 too)
            **({"sheets_by_paper": by_paper} if set(by_paper) - {paper} else {}),
            "pages": sum(p["pages"] for p in printed),
            "sourced_items": sum(s["count"] for s in sourced),
        },
    }


def printed_as(d: DeckRecord, duplex: str) -> str:
    """How a deck's file is printed, for its line of the bill of materials: ``duplex-long`` or
    ``duplex-short`` (each back behind its front), ``one-sided`` (no backs), ``fold-over`` (front and
    back side by side on one side, folded: --layout fold), ``fronts-only`` (sleeve inserts before a
    backer card: --layout sleeve), ``backs-apart`` (``--duplex none``: the backs on paper of their
    own). A two-sided deck a fold-over build prints as usual (too large to fold) is duplex."""
    if not d.double_sided:
        return "one-sided"
    layout = d.layout.get("layout")
    if layout == "fold":
        return "fold-over"
    if layout == "sleeve":
        return "fronts-only"
    return "backs-apart" if duplex == "none" else f"duplex-{duplex}"


def card_stock(decks: list[DeckRecord]) -> list[dict]:
    """The card stock to buy: each sheet layout the home sheets print on (``sheet:``), with the
    sheets its decks take and which decks, in deck order. Plain paper is not listed, nor a layout
    that says it is (``stock: false``: counters laid out to be cut in strips)."""
    stocks: dict[str, dict] = {}
    for d in decks:
        stock = d.layout.get("sheet_layout")
        if stock is None or not d.sheets or stock.get("stock") is False:
            continue
        entry = stocks.setdefault(stock["id"], {"sheet_layout": stock["id"], "name": stock["name"],
                                                "paper": stock["paper"], "sheets": 0, "decks": []})
        entry["sheets"] += d.sheets
        entry["decks"].append(d.name)
    return list(stocks.values())
