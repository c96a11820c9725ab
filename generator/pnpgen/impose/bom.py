"""The bill of materials (engine/bom.py ``bill_of_materials``) laid out as the all-in-one file's
last pages: ops in millimetres, y down, its tables running on from page to page."""

from __future__ import annotations

from collections.abc import Callable

from pnpgen.data.formats import paper_title
from pnpgen.data.model import PLACEHOLDER_COLOUR, Game, is_placeholder
from pnpgen.impose.plan import RGB, LineOp, RectOp, TextOp
from pnpgen.messages import msg
from pnpgen.shapes import Straight
from pnpgen.text import break_lines

_R, _G, _B = (int(PLACEHOLDER_COLOUR[i:i + 2], 16) / 255 for i in (1, 3, 5))
PLACEHOLDER_RGB: RGB = (_R, _G, _B)  # 未定 entries


def _term(group: str, name: str, lang: str) -> str:
    """A kind or shape in the reader's words (the YAML name when the catalogue has none)."""
    try:
        return msg(f"{group}.{name}", lang)
    except KeyError:
        return name


GREY = (0.45, 0.45, 0.45)
RULE = (0.7, 0.7, 0.7)
HEAD_FILL = (0.92, 0.92, 0.92)


def _ellipsize(text: str, font: str, size: float, width: float, measure: Callable[[str, str, float], float]) -> str:
    """Shorten ``text`` with an ellipsis until it fits ``width`` mm."""
    if measure(text, font, size) <= width:
        return text
    while text and measure(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _wrap(text: str, font: str, size: float, width: float, measure, max_lines: int, lang: str) -> list[str]:
    """Lines by the typesetter's rules (JLREQ, Latin words whole), at most ``max_lines``: the
    last one holds the rest, shortened to fit, as is a line of one word wider than the column (a
    stock's name of 400 letters without a space ran over the next columns and off the page)."""
    lines = break_lines(text, width, lambda c: measure(c, font, size), lang=lang) or [""]
    if len(lines) > max_lines:
        rest = text[len("".join(ln.rstrip("-") for ln in lines[:max_lines - 1])):].lstrip(" ")
        lines = lines[:max_lines - 1] + [rest]
    return [_ellipsize(line, font, size, width, measure) for line in lines]


def bom_pages(game: Game, bom: dict, paper: tuple[float, float], margin: float, fonts: dict[str, str],
              measure: Callable[[str, str, float], float], lang: str = "ja") -> list[list]:
    """The bill of materials as one or more pages of ops (mm, y down), labelled in ``lang``."""
    pw, ph = paper
    x0, x1 = margin + 10, pw - margin - 10
    regular, bold = fonts["gothic"], fonts["bold"]
    row_h = 6.0
    pages: list[list] = []
    ops: list = []
    y = 0.0

    def start_page(cont: bool) -> None:
        nonlocal ops, y
        ops = []
        pages.append(ops)
        y = margin + 14
        title = msg("bom.title", lang, title=game.title) + (msg("bom.continued", lang) if cont else "")
        ops.append(TextOp(x0, y, title, bold, min(14.0, 14.0 * (x1 - x0) / measure(title, bold, 14.0))))  # a long title shrinks
        y += 6
        paper_name = (" + ".join(p.upper() for p in bom["totals"].get("sheets_by_paper", {}))
                      or (bom["printed"][0]["paper"].upper() if bom["printed"] else ""))
        solo = str(game.players).strip() == "1"  # "1 player", as reprint.copy says "1 copy"
        subtitle = "bom.subtitle.open" if is_placeholder(game.players) else "bom.subtitle.one" if solo else "bom.subtitle"
        ops.append(TextOp(x0, y, msg(subtitle, lang, draft=game.draft,  # 未定 is said as it stands, not "未定 players"
                                     players=game.players, paper=paper_name),
                          regular, 8, GREY))
        y += 8

    def need(h: float) -> bool:
        """Start a new page unless ``h`` mm more fit on this one (True when it did)."""
        if y + h > ph - margin - 12:
            start_page(True)
            return True
        return False

    def table(head: list[tuple[str, float, str]], rows: list[list[str]], after: float = 0.0) -> None:
        """The rows under their head, which each page the table runs on to repeats (its columns
        are named on every page); the last row keeps ``after`` mm below it on its page (a total)."""
        nonlocal y

        def heading() -> None:
            nonlocal y
            ops.append(RectOp(x0, y, x1 - x0, row_h, fill=HEAD_FILL, stroke=None))
            cx = x0
            for label, width, anchor in head:
                tx = cx + 1.5 if anchor == "start" else cx + width - 1.5
                ops.append(TextOp(tx, y + 4.2, label, bold, 8, anchor=anchor))
                cx += width
            y += row_h

        need(row_h * 2)
        heading()
        for n, row in enumerate(rows, 1):
            cells = [_wrap(cell, regular, 8, width - 3, measure, 3, lang) for (_, width, _), cell in zip(head, row)]
            height = row_h + 3.6 * (max(len(c) for c in cells) - 1)
            if need(height + (after if n == len(rows) else 0.0)):
                heading()
            cx = x0
            for (_label, width, anchor), lines in zip(head, cells):
                tx = cx + 1.5 if anchor == "start" else cx + width - 1.5
                colour = PLACEHOLDER_RGB if is_placeholder(lines[0]) else (0.0, 0.0, 0.0)
                for k, line in enumerate(lines):
                    ops.append(TextOp(tx, y + 4.2 + 3.6 * k, line, regular, 8, colour, anchor))
                cx += width
            y += height
            ops.append(LineOp(Straight(x0, y, x1, y), RULE, 0.3))

    start_page(False)
    width = x1 - x0
    ops.append(TextOp(x0, y, msg("bom.printed", lang), bold, 10))
    y += 3
    by_paper = bom["totals"].get("sheets_by_paper")  # decks on papers of their own: each row names its paper
    wide = 0.06 if by_paper else 0.0  # (its paper column wider by that: "A3 2 枚 / 4 ページ")
    head = [(msg("bom.col.part", lang), width * (0.34 - wide), "start"), (msg("bom.col.kind", lang), width * 0.2, "start"),
            (msg("bom.col.size", lang), width * 0.16, "start"), (msg("bom.col.count", lang), width * 0.1, "end"),
            (msg("bom.col.sides", lang), width * 0.08, "start"), (msg("bom.col.paper", lang), width * (0.12 + wide), "end")]
    rows = []
    for p in bom["printed"]:
        mixed = f"{p['paper'].upper()} " if by_paper else ""
        kind = msg("bom.kind_shape", lang, kind=_term("kind", p["kind"], lang), shape=_term("shape", p["shape"], lang))
        size = "×".join(f"{round(v, 1):g}" for v in p["trim_mm"])
        rows.append([f"{p['name']} ({p['deck']})", kind, size, str(p["count"]),
                     msg(f"bom.print.{p.get('print') or ('duplex-long' if p['double_sided'] else 'one-sided')}", lang),
                     mixed + msg("bom.sheets_pages", lang, sheets=p["sheets"], pages=p["pages"])])
    table(head, rows, after=row_h)
    t = bom["totals"]
    need(row_h)
    total = "bom.total.one" if t["printed_pieces"] == 1 else "bom.total"
    ops.append(TextOp(x1 - 1.5, y + 4.5, msg(total, lang, pieces=t["printed_pieces"], sheets=t["sheets"],
                                             pages=t["pages"]), bold, 8, anchor="end"))
    y += row_h

    def say(words: str, most: int = 3) -> None:
        """A line under the table (wrapped, ``most`` lines at most), running on to the next page
        where the page ends."""
        nonlocal y
        lines = _wrap(words, regular, 8, width - 3, measure, most, lang)
        need(row_h + 3.6 * (min(len(lines), 3) - 1))  # three lines kept together
        for k, line in enumerate(lines):
            if k:
                y += 3.6
                need(row_h)
            ops.append(TextOp(x0 + 1.5, y + 4.2, line, regular, 8))
        y += row_h

    if by_paper:
        say(msg("bom.papers", lang, papers=", ".join(f"{k.upper()} {n}" for k, n in by_paper.items())))
    if bom.get("rulebook"):  # not a piece, so not in the total: the book the box holds beside them
        say(msg("bom.rulebook_two_pass" if bom["rulebook"].get("two_pass") else "bom.rulebook", lang, paper=paper_title(bom["rulebook"]["booklet_paper"])))
        if bom["rulebook"].get("rule_sheet"):  # the rules on one sheet for the table, beside the book
            book = bom["rulebook"]
            landscape = book.get("rule_sheet_orientation", "landscape") == "landscape"
            say(msg("bom.rule_sheet_folded" if book.get("rule_sheet_folded") else "bom.rule_sheet", lang, file=book["rule_sheet"],
                    paper=paper_title(book.get("rule_sheet_paper", book["booklet_paper"])),
                    orientation=msg("bom.landscape" if landscape else "bom.portrait", lang),
                    edge=msg("bom.edge_short" if landscape else "bom.edge_long", lang)))
    for s in bom.get("shared_sheets", []):  # which sheets of <game>-all.pdf hold which decks
        span = f"{s['pages'][0]}–{s['pages'][1]}" if s["pages"][1] > s["pages"][0] else str(s["pages"][0])
        say(msg("bom.shared", lang, file=f"{game.slug}-all.pdf", pages=span, sheets=s["sheets"],
                alone=s["alone"], decks=("、" if lang == "ja" else ", ").join(s["decks"])),
            most=len(s["decks"]) + 1)  # every deck named, however many: where else is it said where they are
    y += 6
    need(row_h * 3)
    ops.append(TextOp(x0, y, msg("bom.sourced", lang), bold, 10))
    y += 3
    stock = [[s["name"], str(s["sheets"]), msg("bom.stock_note", lang, decks="、".join(s["decks"]) if lang == "ja"
                                               else ", ".join(s["decks"]), sheet=s["sheet_layout"])]
             for s in bom.get("stock", [])]
    if bom["sourced"] or stock:
        head = [(msg("bom.col.part", lang), width * 0.36, "start"), (msg("bom.col.qty", lang), width * 0.08, "end"),
                (msg("bom.col.note", lang), width * 0.56, "start")]
        table(head, [[s["name"], str(s["count"]), s["note"]] for s in bom["sourced"]] + stock)
    else:
        y += 5
        ops.append(TextOp(x0 + 1.5, y, msg("bom.none", lang), regular, 8, GREY))
    for n, page in enumerate(pages, 1):
        page.append(TextOp(pw - margin - 10, ph - margin - 4, msg("bom.footer", lang, slug=game.slug, page=n,
                                                                   pages=len(pages)), regular, 6, GREY, "end"))
    return pages
