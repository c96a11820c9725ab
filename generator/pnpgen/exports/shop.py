"""A print shop's upload for one deck, by the preset's file layout, and its order.csv rows.

- ``png-faces``: one PNG per distinct front at the format's exact pixel size, one per back (or one
  for the deck when every back is the same and the preset shares backs).
- ``pdf-copies``: one PDF per deck, a page for every printed copy, each back before or after its front.
- ``pdf-faces``: one PDF per deck, each distinct front once followed by its back; copies in order.csv.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from PIL import Image

from pnpgen.exports.bleedfill import READ_PX_PER_MM, bare_bleed_warning, bare_sides
from pnpgen.exports.counters import counter_pages, counters_of
from pnpgen.exports.faces import BLANK, PageStyle, PngFiles, UniqueFace, die_pdf, face_images, face_pdf, has_cut_line
from pnpgen.exports.order import OrderRow
from pnpgen.exports.presets import Preset
from pnpgen.faces.grouped import SHOWN
from pnpgen.impose.sheets import face_label, face_labels
from pnpgen.messages import counted, msg
from pnpgen.pdf.black import K100, k_only
from pnpgen.pdf.colour import HeavyPicture, over_limit, pictures_over_limit
from pnpgen.pdf.imagestream import ImageStream
from pnpgen.pdf.outline import outline_text
from pnpgen.pdf.overprint import MixedInks, Overprinted, knock_out_over, mixed_inks
from pnpgen.pdf.overprint import over_limit as overprint_over_limit
from pnpgen.pdf.pdfx import OutputCondition, kept_cmyk, make_x1a, pictures_to_cmyk
from pnpgen.pdf.pixels import rendered
from pnpgen.units import MM_PER_PT


def page_numbers(numbers: list[int]) -> str:
    """``2``, ``1-6``, or every other page as ``1-5 odd`` (the backs of a deck of copies)."""
    first, last = numbers[0], numbers[-1]
    if len(numbers) == 1:
        return str(first)
    steps = {b - a for a, b in zip(numbers, numbers[1:])}
    if steps == {1}:
        return f"{first}-{last}"
    if steps == {2}:
        return f"{first}-{last} {'odd' if first % 2 else 'even'}"
    return ",".join(map(str, numbers))


@dataclass(frozen=True)
class Finish:
    """What is done to a shop PDF once drawn: PDF/X-1a for a printing condition (None: plain)."""

    pdfx: OutputCondition | None = None
    date: str = ""  # the game's date: the PDF/X creation date
    outline_text: bool = False  # every glyph drawn as a path (アウトライン化)
    edition: str = "2003"  # PDF/X-1a:2003 (PDF 1.4), or 2001 (PDF 1.3)
    # CMYK pictures placed as they are (pdf/pdfx.py kept_cmyk): by the SHA-256 of their RGB pixels
    cmyk_originals: Mapping[str, ImageStream] = field(default_factory=dict)
    # their art files (``art/xyz.jpg``) by the SHA-256 of their streams, for an ink warning to name
    cmyk_files: Mapping[str, str] = field(default_factory=dict)
    # the art files each piece places as pictures, by deck, piece label and pixel size: a picture
    # converted from RGB is named by the one file of its size its page's piece places
    placed: Mapping[tuple[str, str, int, int], frozenset[str]] = field(default_factory=dict)
    # the game's language: a cut-line file's title in it, as the book's title is (「箱 — カットライン」, not
    # 「箱 — cut line」 in a Japanese game's box-die.pdf: a trial of session 47)
    lang: str = "en"


def deck_files(preset: Preset, style: PageStyle, faces: list[UniqueFace],
               files: dict[str, bytes], warnings: list[str], finish: Finish = Finish(),
               notes: list[str] | None = None, pngs: PngFiles | None = None) -> list[OrderRow]:
    """Add the deck's upload files to ``files`` (images encoded by ``pngs``, else one by one);
    return its order rows. What was made K-only black goes to ``notes``."""
    notes = [] if notes is None else notes
    if preset.files == "png-faces":
        return _png_faces(preset, style, faces, files, pngs or PngFiles(1), warnings)
    deck = style.deck
    name = f"{deck.id}.pdf"
    rows: list[OrderRow] = []
    page_sides: list[str] = []  # page → front or back
    where: list[str] = []  # page → what it shows, for the ink warnings
    templates: list[str] = []  # page → the template that drew it ("" for a blank back)
    keys: list[str] = []  # page → the face it shows ("": several, or a blank back), whose words a warning quotes
    title = f"{deck.name} ({preset.name})"
    grid = counters_of(style, preset.counter_sheet_mm)
    if grid is not None:  # tokens ganged on counter sheets, every copy once, each cut along its path
        on_page = preset.cut_line == "page"
        die_name = "" if on_page else f"{deck.id}-die.pdf"
        cut_title = msg("shop.cut_line", finish.lang, title=title)
        sheets = counter_pages(style, grid, faces, title, on_page, cut_title, finish.lang)
        pdf, where, page_sides = sheets.pdf, sheets.where, sheets.sides
        templates = [_template(deck, side) for side in page_sides]
        keys = [""] * len(page_sides)
        on_sheet: list[set[str]] = [set() for _ in page_sides]  # page → the labels of the pieces on it
        for face, (fronts, backs) in zip(faces, sheets.face_pages):
            for page in fronts + backs:
                on_sheet[page - 1].add(face.piece.label)
        labels = [frozenset(found) for found in on_sheet]
        note = f"on counter sheets ({grid.per_sheet} a sheet): every copy is on the pages, print each page once"
        rows = [OrderRow(name, page_numbers(fronts), page_numbers(backs) if backs else "", deck.id, face.piece.index,
                         face.name, face.copies, note, die_name)
                for face, (fronts, backs) in zip(faces, sheets.face_pages)]
        # the bleed read as a shop reads it, each distinct face on a page of its own (not on the sheet)
        shown = list({key: (f"{name} ({face.said} of deck {deck.id!r}, {side})", side) for face in faces
                      for side, key in (("front", face.front), ("back", face.back)) if key}.items())
        alone = face_pdf([key for key, _ in shown], style, title, sides=[side for _, (_, side) in shown])
        warnings.extend(_bare(style, [(at, side, image, READ_PX_PER_MM) for (_, (at, side)), image
                                      in zip(shown, rendered(alone, list(range(len(shown))), READ_PX_PER_MM))]))
        if die_name:
            files[die_name] = make_x1a(sheets.die, finish.pdfx, cut_title, finish.date,
                                       finish.edition) if finish.pdfx else sheets.die
    else:
        pdf = _face_pages(preset, style, faces, files, warnings, finish, title, rows, page_sides, where, templates, keys)
        labels = _labels_shown(faces, keys)
    measured: dict[str, HeavyPicture | None] = {}  # the pictures converted to CMYK, measured as they were made
    still: list[Overprinted] | None = None  # what overprints past the limit, read as the black was knocked out
    if style.cmyk:
        pdf, mapped = k_only(pdf, preset.overprint_black, preset.black)
        notes.extend(mapped.lines(name))
        pdf = kept_cmyk(pdf, finish.cmyk_originals)  # a CMYK picture's own inks, not a conversion's
        pdf = pictures_to_cmyk(pdf, preset.ink_limit, measured)  # with or without PDF/X: a CMYK file holds no RGB picture
        pdf, knocked, still = knock_out_black(name, pdf, preset)
        notes.extend(knocked)
        mixed = _mixed(pdf, preset)  # read while the text is text (--outline-text makes it paths)
    if finish.outline_text:
        pdf, left = outline_text(pdf)
        warnings.extend(f"{deck.where()}: {name}: {what}" for what in left)
    if finish.pdfx is not None:
        pdf = make_x1a(pdf, finish.pdfx, title, finish.date, finish.edition)
    if style.cmyk:  # each page's warning started, as the build's are, with the deck file's line of its side
        starts = [f"{deck.where(side)}: " for side in page_sides]
        pictured = Pictured(finish.cmyk_files, deck.id, finish.placed, labels)
        warnings.extend(ink_warnings(name, pdf, preset, where, templates, measured, still, starts, pictured))
        words = [_text_words(style, key) for key in keys]
        warnings.extend(_mixed_warnings(name, mixed, where, templates, preset, starts, words))
    files[name] = pdf
    return rows


def _face_pages(preset: Preset, style: PageStyle, faces: list[UniqueFace], files: dict[str, bytes],
                warnings: list[str], finish: Finish, title: str, rows: list[OrderRow], page_sides: list[str],
                where: list[str], templates: list[str], keys: list[str]) -> bytes:
    """A page per face (per copy with ``pdf-copies``), its order rows, and what each page shows;
    the deck's cut line beside them (a die-cut piece at an any-size format)."""
    deck = style.deck
    name = f"{deck.id}.pdf"
    pages: list[str] = []
    labels: list[str | None] = []  # pdf-faces: the piece's name and quantity on each page
    bases = face_labels([(face.piece.label, face.copies) for face in faces])
    # A file of every copy is read two pages a card (a back, a front): a card without a back gets
    # a blank one, or the shop would take every other card for the one before's back.
    blank_backs = preset.files == "pdf-copies" and any(face.back is None for face in faces)
    on_page = has_cut_line(style) and preset.cut_line == "page"
    die_name = f"{deck.id}-die.pdf" if has_cut_line(style) and not on_page else ""  # the cut line beside the pages
    if blank_backs:
        at = deck.where_about(deck.template_where.get("back") or deck.name_where)
        warnings.append(f"{at}: {name}: deck '{deck.id}' has cards without a back; {preset.name} reads two pages a card "
                        f"({preset.page_order.replace('-', ' then ')}), so each is given a blank (white) back page")
    for face, base in zip(faces, bases):
        first = len(pages) + 1
        backs: list[int] = []
        copies = face.copies if preset.files == "pdf-copies" else 1
        back = BLANK if face.back is None and blank_backs else face.back
        for _ in range(copies):
            sides = [("front", face.front)] + ([("back", back)] if back is not None else [])
            if preset.page_order == "back-front":
                sides.reverse()
            for side, key in sides:
                pages.append(key)
                page_sides.append(side)
                labels.append(face_label(base, side, finish.lang) if preset.files == "pdf-faces" else None)
                where.append(f"{face.said} of deck {deck.id!r}, {side}")
                templates.append(_template(deck, side) if key != BLANK else "")
                keys.append(key if key != BLANK else "")
                if side == "back":
                    backs.append(len(pages))
        rows.append(OrderRow(name, page_numbers(list(range(first, len(pages) + 1))),
                             page_numbers(backs) if backs else "", deck.id, face.piece.index, face.name,
                             face.copies, die=die_name))
    pdf = face_pdf(pages, style, title, labels, page_sides, cut_line=on_page)
    firsts = {key: i for i, key in reversed(list(enumerate(pages))) if key != BLANK}  # each face's first page
    shown = sorted(firsts.values())
    warnings.extend(_bare(style, [(f"{name} page {i + 1} ({where[i]})", page_sides[i], image, READ_PX_PER_MM)
                                  for i, image in zip(shown, rendered(pdf, shown, READ_PX_PER_MM))]))
    if die_name:
        # the cut line beside the print pages, which a printer that prints every spot colour never prints
        die_title = msg("shop.cut_line", finish.lang, title=deck.name) + f" ({preset.name})"
        die = die_pdf(style, die_title, ["front", "back"] if any(face.back is not None for face in faces) else ["front"],
                      finish.lang)
        files[die_name] = make_x1a(die, finish.pdfx, die_title, finish.date, finish.edition) if finish.pdfx else die
    return pdf


_NAMED = {"text": ("text object", "text objects"), "lines": ("line", "lines"), "areas": ("small fill", "small fills")}


def knock_out_black(name: str, pdf: bytes, preset: Preset) -> tuple[bytes, list[str], list[Overprinted] | None]:
    """The 100 % K black that would overprint a ground to more than the preset's ink limit
    knocking out there instead (pdf/overprint.py, knock_out_over), a line per kind saying so, and
    what still overprints past the limit (None: not read, the preset's black knocks out anyway)."""
    if not preset.overprint_black:
        return pdf, [], None
    made = knock_out_over(pdf, preset.ink_limit)
    return made.pdf, [f"{name}: {counted(n, *_NAMED[kind])} printed 100 % K knocking out the ground, where "
                      f"overprinting it passed {preset.name}'s {preset.ink_limit:g} % total ink"
                      for kind, n in sorted(made.counts.items())], made.left


@dataclass(frozen=True)
class Pictured:
    """What an ink warning names a picture by, the page's label having named its piece and deck:
    its art file — a CMYK JPEG placed as it is by the SHA-256 of its stream, one converted from
    RGB by its pixel size among the files its page's pieces place (``placed``, by deck, piece
    label and size; ``labels``: per page, its pieces' labels)."""

    files: Mapping[str, str]
    deck: str
    placed: Mapping[tuple[str, str, int, int], frozenset[str]] = field(default_factory=dict)
    labels: list[frozenset[str]] = field(default_factory=list)

    def said(self, heavy: HeavyPicture) -> str:
        """``art/xyz.jpg``, or "a picture" when its file is not known for certain (two files of
        its size on the page's pieces, or the faces resized it)."""
        file = self.files.get(heavy.stream) if not heavy.held else self._converted(heavy)
        return "a picture" if file is None else file

    def _converted(self, heavy: HeavyPicture) -> str | None:
        """The one art file of the picture's size (either way up: a JPEG turned by its EXIF
        orientation) that the pieces on its first page place, else None."""
        page = heavy.pages[0]
        width, height = heavy.pixels
        found = {file for label in (self.labels[page] if page < len(self.labels) else ())
                 for size in {(width, height), (height, width)}
                 for file in self.placed.get((self.deck, label, *size), ())}
        return next(iter(found)) if len(found) == 1 else None


def _labels_shown(faces: list[UniqueFace], keys: list[str]) -> list[frozenset[str]]:
    """Per page (by its face key), the labels of the pieces it shows (a shared back: all of theirs)."""
    by_key: dict[str, set[str]] = {}
    for face in faces:
        for key in (face.front, face.back):
            if key:
                by_key.setdefault(key, set()).add(face.piece.label)
    return [frozenset(by_key.get(key, ())) for key in keys]


def ink_warnings(name: str, pdf: bytes, preset: Preset, where: list[str], templates: list[str],
                 measured: Mapping[str, HeavyPicture | None] | None = None,
                 overprinted: list[Overprinted] | None = None, starts: list[str] | None = None,
                 pictured: Pictured | None = None) -> list[str]:
    """A CMYK shop file's total ink over the preset's limit: its colours, its pictures, and where
    an overprinting black and the ground under it add up (the rulebook's pages as the cards').
    ``where`` and ``templates``: per page, what it shows and what drew it ("" for none);
    ``starts``: per page, the ``file:line: `` a warning about it starts with (a deck's line);
    ``pictured``: the art file and piece a CMYK JPEG over the limit is named by."""
    starts = starts or [""] * len(where)
    # to a hundredth of a per cent, as the other warnings name inks (a gradient's stop converted
    # from #000080 is 49.8039…, said 49.8)
    out = [f"{starts[page]}{name} page {page + 1}{_at(where[page])}: CMYK {'/'.join(f'{round(v * 100, 2):g}' for v in colour)} is "
           f"{round(ink, 2):g} % total ink, over {preset.name}'s {preset.ink_limit:g} %; choose a lighter "
           f"colour there, at most {preset.ink_limit:g} % C+M+Y+K"
           for page, colour, ink in over_limit(pdf, preset.ink_limit)]
    heavies = pictures_over_limit(pdf, preset.ink_limit, measured)
    held = [heavy for heavy in heavies if heavy.held]
    # held pictures print within the limit (the file passes): more than SHOWN + 1 are named by
    # the heaviest SHOWN and one line counting the rest, as a deck's pictures below --min-dpi are
    # (faces/grouped.py; trial60: 67 lines of 240 illustrated cards buried the 24 CMYK JPEGs a
    # shop turns away)
    named = sorted(held, key=lambda heavy: -heavy.ink)[:SHOWN] if len(held) > SHOWN + 1 else held
    told = {id(heavy) for heavy in named}
    for heavy in heavies:
        if heavy.held and id(heavy) not in told:
            continue
        first = heavy.pages[0]
        more = f" and {counted(len(heavy.pages) - 1, 'more page')}" if len(heavy.pages) > 1 else ""
        picture = "a picture" if pictured is None else pictured.said(heavy)
        reach = (f"{starts[first]}{name} page {first + 1}{_at(where[first])}{more}: {picture} "
                 f"{'converted from RGB reached' if heavy.held else 'reaches'} CMYK "
                 f"{'/'.join(f'{v * 100:g}' for v in heavy.colour)}, {heavy.ink:g} % total ink; "
                 f"{_share(heavy.share)} of its pixels {'were' if heavy.held else 'are'} over "
                 f"{preset.name}'s {preset.ink_limit:g} %")
        out.append(reach + (" and print held to it (their C, M and Y lightened together, K kept: a little "
                            "duller than the art; a picture saved in CMYK within the limit prints as it is)"
                            if heavy.held else
                            "; save it in CMYK within the limit (a black ground as K100 or a rich black, C40 M40 "
                            "Y40 K100, never 100/100/100/100), or in RGB, which the export converts within it"))
    rest = [heavy for heavy in held if id(heavy) not in told]
    if rest:
        first, last = min(heavy.pages[0] for heavy in rest), max(heavy.pages[-1] for heavy in rest)
        low, high = min(heavy.ink for heavy in rest), max(heavy.ink for heavy in rest)
        inks = f"{low:g}" if low == high else f"{low:g}–{high:g}"
        pages = f"page {first + 1}" if first == last else f"pages {first + 1}–{last + 1}"
        out.append(f"{starts[first]}{name}: {counted(len(rest), 'more picture')} converted from RGB "
                   f"reached {inks} % total ink, over {preset.name}'s {preset.ink_limit:g} %, and "
                   f"print held to it as above ({pages}; the file is within the limit)")
    if overprinted is None:  # not read as the black was knocked out of what it passed (knock_out_black)
        overprinted = overprint_over_limit(pdf, preset.ink_limit)
    out.extend(_overprint_warnings(name, overprinted, where, templates, preset, starts))
    return out


def _at(*what: str) -> str:
    """`` (what a page shows, what drew it)`` as a warning names the page, or nothing."""
    said = "".join(what)
    return f" ({said})" if said else ""


def _share(percent: float) -> str:
    """A share of pixels to 0.1 %; a few pixels over the limit are "under 0.1 %", never "0 %"
    (which would contradict the heaviest pixel named just before it)."""
    return f"{round(percent, 1):g} %" if percent >= 0.05 else "under 0.1 %"


def _template(deck, side: str) -> str:
    """What drew a deck's side: its template, or its layout."""
    if deck.layout is not None and (side == "front" or deck.layout.back is not None):  # (a list's own back: a file)
        return f"layout {deck.layout.name}"
    return (deck.front if side == "front" else deck.back) or ""


_KINDS = {"text": "text", "lines": "a line", "areas": "an area"}


def _overprint_warnings(name: str, found: list[Overprinted], where: list[str], templates: list[str],
                        preset: Preset, starts: list[str]) -> list[str]:
    """One line per template and finding (what overprints, in which colour): the first page and face
    showing it and how many more pages do, the ground and total, the limit, and how much ground the
    object leaves room for. Several grounds (black text over each clan's colour) are one line naming
    each ground with its total, its first page and face and how many more pages show it."""
    groups: dict[tuple, dict[tuple, list[Overprinted]]] = {}
    for hit in found:
        groups.setdefault((templates[hit.page], hit.kind, hit.colour), {}).setdefault((hit.under, hit.ink), []).append(hit)
    out = []
    for by_ground in groups.values():
        hits = [hit for ground_hits in by_ground.values() for hit in ground_hits]
        hit = hits[0]
        pages = sorted({h.page for h in hits})
        more = f" and {counted(len(pages) - 1, 'more page')}" if len(pages) > 1 else ""
        template = f"{', ' if where[hit.page] else ''}template {templates[hit.page]}" if templates[hit.page] else ""
        c, m, y, k = hit.colour
        colour = f"{k * 100:g} % K" if max(c, m, y) <= 0 else "CMYK " + "/".join(f"{v * 100:g}" for v in hit.colour)
        ground = "+".join(ink for ink, v in zip("CMYK", hit.colour) if v <= 0)
        room = preset.ink_limit - 100 * sum(hit.colour)
        if len(by_ground) == 1:
            lies = f"lies on CMYK {'/'.join(f'{v * 100:g}' for v in hit.under)}: {hit.ink:g} % total ink where they meet"
        else:  # each ground, its total and where it is first
            lies = f"lies on {len(by_ground)} grounds (" + "; ".join(
                f"CMYK {'/'.join(f'{v * 100:g}' for v in under)}, {ink:g} % total ink where they meet: page "
                f"{ground_hits[0].page + 1}{_at(where[ground_hits[0].page])}"
                + (f" and {counted(len(ground_hits) - 1, 'more page')}" if len(ground_hits) > 1 else "")
                for (under, ink), ground_hits in by_ground.items()) + ")"
        out.append(f"{starts[hit.page]}{name} page {hit.page + 1}{_at(where[hit.page], template)}{more}: "
                   f"{_KINDS[hit.kind]} printed {colour} with overprint {lies}, over {preset.name}'s "
                   f"{preset.ink_limit:g} %; lighten the ground{'s' if len(by_ground) > 1 else ''} under it to at most "
                   f"{room:g} % {ground}"
                   + (", or knock the black out of it (overprint_black: false in the preset; where the plates "
                      "shift, a hairline of paper may then show round it)" if hit.colour == K100 else ""))
    return out


def _mixed(pdf: bytes, preset: Preset) -> list[MixedInks]:
    """The thin lines and small text in the preset's mixed inks (the 未定 mark prints in magenta
    alone: pdf/colour.py)."""
    lines_pt = preset.min_mixed_line_mm / MM_PER_PT if preset.min_mixed_line_mm is not None else None
    if lines_pt is None and preset.min_mixed_text_pt is None:
        return []
    return mixed_inks(pdf, lines_pt, preset.min_mixed_text_pt, preset.mixed_inks, knocked_out=True)


def _text_words(style: PageStyle, key: str) -> list[tuple[float, str]]:
    """The words a face prints with their size in points (the print lint's marks): what a warning
    about small text on that page quotes when they are one (a title's ruby, 「ひょうりゅう」, at half
    the title's size)."""
    art = style.arts.get(key) if key else None
    return [(mark[2], mark[7]) for mark in (art.marks if art is not None else ()) if mark[0] == "text" and mark[7].strip()]


def _sized(words: list[tuple[float, str]], size_pt: float) -> list[str]:
    """The distinct words of ``words`` printed at ``size_pt`` (a face fitted to a shop's card
    within 3 %: DriveThruCards' ×1.01)."""
    return list(dict.fromkeys(chars for size, chars in words if abs(size - size_pt) <= 0.03 * size_pt))


def _mixed_warnings(name: str, found: list[MixedInks], where: list[str], templates: list[str],
                    preset: Preset, starts: list[str], words: list[list[tuple[float, str]]] | None = None) -> list[str]:
    """One line per template and kind (a line, text), and for white knocked out of a ground, per its
    colour: the first page and face showing it, how many more pages do, its thinnest width or
    smallest size (text: its words, as the face prints them at that size), and the fixes. What
    repeats per colour or ground (a wargame's 5 pt white text on each clan's colour: trial69's
    twelve near-identical lines) is one line naming each colour or ground, with the first page and
    face showing it and how many more pages do."""
    groups: dict[tuple, dict[tuple, list[MixedInks]]] = {}
    for hit in found:
        knocked = hit.ground is not None
        by = groups.setdefault((templates[hit.page], hit.kind, hit.colour if knocked else None, knocked), {})
        by.setdefault(hit.ground if hit.ground is not None else hit.colour, []).append(hit)
    out = []
    for by_value in groups.values():
        hits = [hit for value_hits in by_value.values() for hit in value_hits]
        first = hits[0]
        least = min(hit.size_pt for hit in hits)
        pages = sorted({hit.page for hit in hits})
        more = f" and {counted(len(pages) - 1, 'more page')}" if len(pages) > 1 else ""
        template = f", template {templates[first.page]}" if templates[first.page] else ""
        said = _sized((words or [[]] * len(where))[first.page], first.size_pt) if first.kind == "text" else []
        # which text, when the face prints one alone at that size (a title's ruby: no box of its own names it)
        quoted = f" 「{said[0]}」" if len(said) == 1 else ""
        head = f"{starts[first.page]}{name} page {first.page + 1} ({where[first.page]}{template}){more}: "
        # each colour (or ground) it is found in, when more than one: where first, how many more pages, its least
        each = None if len(by_value) == 1 else "; ".join(
            f"{_colour_said(value_hits[0])}: page {value_hits[0].page + 1} ({where[value_hits[0].page]})"
            + (f" and {counted(len(value_hits) - 1, 'more page')}" if len(value_hits) > 1 else "")
            + _size_said(min(h.size_pt for h in value_hits), least, first.kind)
            for value_hits in by_value.values())
        if first.ground is not None:
            out.append(head + _knocked_out(first, least, preset, quoted, each, len(by_value)))
            continue
        colour = f"in {_INKS[first.inks]} inks, CMYK {'/'.join(f'{v * 100:g}' for v in first.colour)}" \
            if each is None else f"in several inks, {len(by_value)} colours ({each})"
        if first.kind == "lines":
            assert preset.min_mixed_line_mm is not None
            wanted = preset.min_mixed_line_mm
            what = f"a line {least:g} pt ({least * MM_PER_PT:.2f} mm) wide printed {colour}"
            fix = f"draw it at least {wanted:g} mm ({wanted / MM_PER_PT:.2f} pt) wide, or in one ink (a dark line in K only)"
            figure = f"min_mixed_line of {preset.name}: {wanted:g} mm"
        else:
            assert preset.min_mixed_text_pt is not None
            wanted = preset.min_mixed_text_pt
            what = f"text{quoted} {round(least, 1):g} pt printed {colour}"
            fix = f"set it at least {wanted:g} pt, or in one ink (dark text in K only)"
            figure = f"min_mixed_text of {preset.name}: {wanted:g} pt"
        such = "a line this thin" if first.kind == "lines" else "text this small"
        out.append(f"{head}{what}: the plates of a "
                   f"press never register exactly, so {such} in several inks prints blurred or fringed with colour; "
                   f"{fix} ({figure}, {preset.mixed_inks} inks or more)")
    return out


def _size_said(size: float, least: float, kind: str) -> str:
    """A colour's own smallest size or thinnest width in a grouped warning, when it is not the
    group's (which the warning gives); else nothing."""
    if size == least:
        return ""
    return f", {round(size, 1):g} pt" if kind == "text" else f", {size:g} pt"


def _colour_said(hit: MixedInks) -> str:
    """A finding's colour as a grouped warning lists it: the ground a white one is knocked out of,
    else its own colour, with its inks."""
    if hit.ground is not None:
        return f"CMYK {'/'.join(f'{round(v * 100, 2):g}' for v in hit.ground)}, {_INKS[hit.inks]} inks"
    return f"CMYK {'/'.join(f'{v * 100:g}' for v in hit.colour)}, {_INKS[hit.inks]} inks"


_INKS = {2: "two", 3: "three", 4: "four"}


def _knocked_out(hit: MixedInks, least: float, preset: Preset, quoted: str = "", grounds: str | None = None,
                 count: int = 1) -> str:
    """White text or a white line reversed out of a ground of several inks: what, on what (``grounds``:
    ``count`` grounds, each said with where it is first), the fix."""
    assert hit.ground is not None
    ground = _colour_said(hit) if grounds is None else f"{count} grounds: {grounds}"
    of = "a ground" if grounds is None else "grounds"
    # a paper colour (a cream under 10 % of every ink) prints as good as white: named with its inks
    white = "white" if max(hit.colour) <= 0 else f"near-white (CMYK {'/'.join(f'{round(v * 100, 2):g}' for v in hit.colour)})"
    if hit.kind == "lines":
        assert preset.min_mixed_line_mm is not None
        wanted = f"{preset.min_mixed_line_mm:g} mm"
        what = f"a {white} line {least:g} pt ({least * MM_PER_PT:.2f} mm) wide"
        fix = f"draw it at least {wanted} ({preset.min_mixed_line_mm / MM_PER_PT:.2f} pt) wide"
        figure = f"min_mixed_line of {preset.name}: {wanted}"
    else:
        assert preset.min_mixed_text_pt is not None
        wanted = f"{preset.min_mixed_text_pt:g} pt"
        what, fix = f"{white} text{quoted} {round(least, 1):g} pt", f"set it at least {wanted}"
        figure = f"min_mixed_text of {preset.name}: {wanted}"
    return (f"{what} knocked out of {of} in several inks ({ground}): where the plates shift, each ink "
            f"of the ground creeps into the white and fills it in; {fix}, or make the ground under it of "
            f"fewer inks (a neutral grey or black prints K only) ({figure}, a ground of {preset.mixed_inks} "
            f"inks or more)")


def _png_faces(preset: Preset, style: PageStyle, faces: list[UniqueFace], files: dict[str, bytes],
               pngs: PngFiles, warnings: list[str]) -> list[OrderRow]:
    deck = style.deck
    backs = [f.back for f in faces if f.back is not None]
    shared = preset.backs == "shared" and len(set(backs)) == 1
    pages, names, sides, rows = [], [], [], []
    for face in faces:
        quantity = f"-x{face.copies}" if preset.quantity == "name" else ""
        front = f"{face.stem}-front{quantity}.png"
        pages.append(face.front)
        names.append(front)
        sides.append("front")
        back = ""
        if face.back is not None:
            back = f"{deck.id}-back.png" if shared else f"{face.stem}-back{quantity}.png"
            if not shared:
                pages.append(face.back)
                names.append(back)
                sides.append("back")
        rows.append(OrderRow(front, "", back, deck.id, face.piece.index, face.name, face.copies))
    if shared:
        pages.append(backs[0])
        names.append(f"{deck.id}-back.png")
        sides.append("back")
    size = style.fitted.pixels(preset.dpi)
    px_per_mm = size[0] / style.page_mm[0]
    read = []
    for at in range(0, len(pages), RUN):  # a run of faces drawn at a time: never every face's pixels at once
        for name, side, image in zip(names[at:at + RUN], sides[at:at + RUN], face_images(pages[at:at + RUN], style, size, sides[at:at + RUN])):
            read += _bare(style, [(name, side, image, px_per_mm)], alone=True)
            pngs.add(files, name, image, preset.dpi)
    warnings.extend(_grouped(read, style))
    return rows


def _bare(style: PageStyle, faces: list[tuple[str, str, Image.Image, float]], alone: bool = False) -> list:
    """The faces (where, side, rendered page, its px a mm) whose art leaves the bleed bare: the
    file's one warning, or with ``alone`` each face's (where, side, sides), for grouping later."""
    found = [(where, side, _as_drawn(sides, style, side)) for where, side, image, scale in faces
             if (sides := bare_sides(image, scale, style.trim_box_mm[:2], style.fitted.trim,
                                     style.fitted.format.bleed, style.deck.shape, style.deck.options, side))]
    return found if alone else _grouped(found, style)


# A landscape card turned a quarter clockwise onto a portrait format: the page's side → the card's
TURNED_SIDES = {"right": "top", "bottom": "right", "left": "bottom", "top": "left"}
# its back turned a quarter counter-clockwise (exports/faces.py _piece_to_page)
TURNED_BACK_SIDES = {"left": "top", "top": "right", "right": "bottom", "bottom": "left"}


def _as_drawn(sides: list[str], style: PageStyle, side: str = "front") -> list[str]:
    """The sides as the template draws them (a turned card's top lies on the page's right, its
    back's on the page's left)."""
    if not style.fitted.turned:
        return sides
    turned = TURNED_BACK_SIDES if side == "back" else TURNED_SIDES
    drawn = {turned.get(edge, edge) for edge in sides}
    return [side for side in ("top", "right", "bottom", "left") if side in drawn]


def _grouped(found: list, style: PageStyle) -> list[str]:
    if not found:
        return []
    where, side, sides = found[0]  # started, as the build's warning is, with the deck file's line
    return [bare_bleed_warning(f"{style.deck.where(side)}: {where}", len(found) - 1, sides, style.fitted.format.bleed)]


RUN = 32  # faces rasterised from one document (at 300 dpi a poker card is 2.8 MB of pixels)
