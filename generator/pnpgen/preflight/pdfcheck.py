"""The checks of one PDF read as a shop reads it: its page boxes and page count, what its pages
paint (lines, text, pictures), the glyphs in the safe zone (pdfium), the order file's backs, and
the inks (inks.py, when Ghostscript is there)."""

from __future__ import annotations

import csv
from pathlib import Path

import pikepdf

from pnpgen.messages import counted
from pnpgen.preflight.content import INK_PRESENT, Paint, boxes, by_colour, describe, inks, size_mm, walk
from pnpgen.preflight.inks import check_ink_and_bleed
from pnpgen.preflight.shop import MM, RUBY_SCALE, Finding, Shop, Unreadable, length_pt

MIXED_TEXT_PT = 8.0  # "Color type should be 8 pt minimum when printing in two or more colors" (Lakeside)


def check_geometry(name: str, pdf: pikepdf.Pdf, shop: Shop, found: list[Finding], book: bool) -> None:
    first = boxes(pdf.pages[0])
    sheets = 0
    for i, page in enumerate(pdf.pages, 1):
        b = boxes(page)
        if b != first:
            trim = size_mm(b["TrimBox"])
            found.append(Finding(name, i, "geometry", "note",
                                 f"page boxes differ from page 1's ({trim[0]:.2f}×{trim[1]:.2f} mm trim against "
                                 f"{size_mm(first['TrimBox'])[0]:.2f}×{size_mm(first['TrimBox'])[1]:.2f})"))
            sheets += 1
        t, bl, me = b["TrimBox"], b["BleedBox"], b["MediaBox"]
        if not (me[0] <= bl[0] <= t[0] and me[1] <= bl[1] <= t[1] and t[2] <= bl[2] <= me[2] and t[3] <= bl[3] <= me[3]):
            found.append(Finding(name, i, "geometry", "error", f"boxes not nested: {b}"))
    trim = size_mm(first["TrimBox"])
    bleed = [(first["TrimBox"][k] - first["BleedBox"][k]) / MM * (1 if k < 2 else -1) for k in range(4)]
    fits = []
    for fname, fmt in shop.formats.items():
        if fmt.get("trim") == "any":
            fits.append((fname, length_pt(fmt.get("bleed", 0), "mm") / MM))
            continue
        w, h = (length_pt(v, "mm") / MM for v in fmt["trim"])
        if {round(w, 1), round(h, 1)} == {round(trim[0], 1), round(trim[1], 1)} or (
            abs(w - trim[0]) < 0.06 and abs(h - trim[1]) < 0.06) or (abs(h - trim[0]) < 0.06 and abs(w - trim[1]) < 0.06):
            fits.insert(0, (fname, length_pt(fmt.get("bleed", 0), "mm") / MM))
    if shop.formats and not book:
        if not fits:
            found.append(Finding(name, 0, "geometry", "error",
                                 f"trim {trim[0]:.2f}×{trim[1]:.2f} mm is none of the preset's formats"))
        else:
            want = fits[0][1]
            if any(abs(b - want) > 0.05 for b in bleed) and not sheets:
                found.append(Finding(name, 0, "geometry", "error",
                                     f"bleed {', '.join(f'{b:.2f}' for b in bleed)} mm, the format '{fits[0][0]}' asks {want:.2f} mm"))
    n = len(pdf.pages)
    # a card a page with its back (pdf-copies: DriveThruCards reads two pages a card); the distinct
    # faces of pdf-faces may be one-sided (a counter sheet, a board), so any count goes there
    multiple = shop.page_multiple if book else (2 if shop.files == "pdf-copies" else 1)
    if n % multiple:
        found.append(Finding(name, 0, "geometry", "error", f"{n} pages, not a multiple of {multiple}"))



def ruby_readings(texts: list[Paint], under: float) -> set[int]:
    """The text runs (by id) that are a ruby's reading: at half the size of a run whose baseline lies
    about its em below (pnpgen's text sets a reading's em box on its base's, the reading's baseline
    0.88 of the base's em and 0.12 of its own above the base's), starting no further left than an em of
    the base before it; only runs smaller than ``under`` are asked. What a shop reads as ruby, not as
    text of its own."""
    out = set()
    for r in (t for t in texts if t.width < under - 0.05):
        for b in texts:
            if b is r or abs(b.width * RUBY_SCALE - r.width) > 0.03 * r.width:
                continue
            rise = r.box[1] - b.box[1]
            if abs(rise - (0.88 * b.width + 0.12 * r.width)) <= 0.15 * b.width and r.box[0] >= b.box[0] - b.width:
                out.add(id(r))
                break
    return out


def check_paints(name: str, pdf: pikepdf.Pdf, shop: Shop, found: list[Finding], report: dict,
                 cmyk: bool) -> list[Paint]:
    """Lines, text and pictures as printed; returns the white text under 8 pt, whose ground the
    ink check reads."""
    white: list[Paint] = []
    thin: dict[tuple, list[int]] = {}
    marks_in: list[int] = []
    small_text: dict[tuple, list[int]] = {}
    widths: list[float] = []
    sizes: list[float] = []
    ppis: list[tuple[float, int, tuple]] = []
    rgb_images = 0
    for i, page in enumerate(pdf.pages, 1):
        b = boxes(page)
        bleed = b["BleedBox"]
        paints = walk(page, i)
        readings = ruby_readings([p for p in paints if p.kind == "text"], shop.min_text_pt)
        for p in paints:
            if p.kind == "stroke":
                is_mark = p.colour[:1] == ("sep",) and p.colour[1][0] == "All"
                if is_mark:
                    x0, y0, x1, y1 = p.box
                    if x0 < bleed[2] - 0.01 and x1 > bleed[0] + 0.01 and y0 < bleed[3] - 0.01 and y1 > bleed[1] + 0.01:
                        marks_in.append(i)
                    report.setdefault("mark_width_pt", round(p.width, 3))
                    continue
                widths.append(p.width)
                if p.width < shop.min_line_pt - 0.005:
                    thin.setdefault((round(p.width, 3), describe(p.colour)), []).append(i)
            elif p.kind == "text":
                sizes.append(p.width)
                c = inks(p.colour)
                kinds = []
                if id(p) in readings:  # a ruby reading: held to min_ruby, as the build's lint holds it
                    if p.width < shop.min_ruby_pt - 0.05:
                        kinds.append("small ruby")
                elif p.width < shop.min_text_pt - 0.05:
                    kinds.append("small")
                if c is not None:
                    n = sum(v >= INK_PRESENT for v in c)
                    if n >= 3 and p.width < MIXED_TEXT_PT - 0.05:
                        kinds.append("mixed-ink text under 8 pt")
                    if max(c) < INK_PRESENT and p.width < MIXED_TEXT_PT - 0.05:
                        white.append(p)
                    if c[0] == c[1] == c[2] == 0 and c[3] >= 0.999 and not p.overprint:
                        kinds.append("100 % K text knocking out")
                for kind in kinds:
                    small_text.setdefault((kind, round(p.width, 1), describe(p.colour)), []).append(i)
            elif p.kind == "image":
                ppis.append((p.ppi, i, p.pixels))
                if cmyk and "RGB" in p.image_space:
                    rgb_images += 1
    report["thinnest_line_pt"] = round(min(widths), 3) if widths else None
    report["smallest_text_pt"] = round(min(sizes), 2) if sizes else None
    report["lowest_ppi"] = round(min(ppis)[0]) if ppis else None
    for (w,), colour, pages in by_colour(thin):  # (each colour of a width in one line)
        what = "a 0-width line (the device's thinnest)" if w == 0 else f"a {w:.3f} pt ({w / MM:.3f} mm) line"
        found.append(Finding(name, pages[0], "hairline", "error" if w < 0.25 or w == 0 else "note",
                             f"{what} in {colour}, under {shop.min_line_pt:.3f} pt ({shop.min_line_pt / MM:.2f} mm)"
                             f", ×{len(pages)} on {len(set(pages))} pages"))
    for (kind, size), colour, pages in by_colour(small_text):
        found.append(Finding(name, pages[0], "text", "note",
                             f"{kind}: {size} pt in {colour}, ×{len(pages)} on {len(set(pages))} pages"))
    if marks_in:
        found.append(Finding(name, marks_in[0], "marks", "error",
                             f"registration-colour strokes inside the BleedBox on {len(set(marks_in))} pages"))
    low = [(ppi, pg, px) for ppi, pg, px in ppis if ppi < shop.min_ppi - 0.5]
    if low:
        ppi, pg, px = min(low)
        found.append(Finding(name, pg, "resolution", "error",
                             f"{counted(len(low), 'placed picture')} under {shop.min_ppi:g} ppi, the lowest {ppi:.0f} ppi "
                             f"({px[0]}×{px[1]} px)"))
    if rgb_images:
        found.append(Finding(name, 0, "resolution", "error", f"{counted(rgb_images, 'RGB picture')} in a CMYK file"))
    return white


def check_safe(name: str, path: Path, shop: Shop, found: list[Finding]) -> None:
    """Text whose glyph boxes (pdfium) cross the trim into the bleed, where the cut takes them off
    (an error), or come nearer the trim than the format's safe zone (a note)."""
    import pypdfium2 as pdfium

    safe = [length_pt(f.get("safe", 0), "mm") for f in shop.formats.values() if f.get("safe")]
    zone = min(safe) if safe else 0.0
    try:
        doc = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as e:  # (a file cut short that pikepdf recovered and pdfium does not)
        raise Unreadable(str(e)) from None
    hits: list[tuple[float, int, str]] = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            trim = page.get_trimbox()
            media = page.get_mediabox()
            if trim == media:
                continue
            text = page.get_textpage()
            for k in range(text.count_chars()):
                ch = text.get_text_range(k, 1)
                if not ch.strip():
                    continue
                left, bottom, right, top = text.get_charbox(k)
                d = min(left - trim[0], bottom - trim[1], trim[2] - right, trim[3] - top)
                if d < max(zone - 0.3 * MM, -0.1 * MM):
                    hits.append((d, i + 1, ch))
    finally:
        doc.close()
    cut = [hit for hit in hits if hit[0] < -0.1 * MM]  # (0.1 mm: a glyph's box, not its ink, may touch the trim)
    if cut:
        d, pg, ch = min(cut)
        found.append(Finding(name, pg, "safe", "error",
                             f"{counted(len(cut), 'glyph')} past the trim, in the bleed the cut takes off, the farthest "
                             f"「{ch}」 {-d / MM:.2f} mm past it, on {counted(len({hit[1] for hit in cut}), 'page')}"))
    near = [hit for hit in hits if hit[0] >= -0.1 * MM]
    if near:
        d, pg, ch = min(near)
        found.append(Finding(name, pg, "safe", "note",
                             f"{counted(len(near), 'glyph')} inside the {zone / MM:.2f} mm safe zone, the nearest 「{ch}」 "
                             f"{d / MM:.2f} mm from the trim"))


def check_order(name: str, folder: Path, shop: Shop, found: list[Finding]) -> None:
    order = folder / "order.csv"
    if not order.is_file() or shop.files != "pdf-copies":
        return
    try:
        with order.open(encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except (UnicodeDecodeError, csv.Error) as e:  # (each PDF reads it: said once)
        unread = Finding(f"{folder.name}/order.csv", 0, "file", "error", f"not a readable CSV: {e}")
        if unread not in found:
            found.append(unread)
        return
    for row in rows:
        if row.get("file") != name or not row.get("back"):
            continue
        odd = row["back"].endswith("odd") or (row["back"].isdigit() and int(row["back"]) % 2)
        if (shop.page_order == "back-front") != bool(odd):
            found.append(Finding(name, 0, "geometry", "error",
                                 f"order.csv puts the backs of piece {row.get('piece') or '?'} on pages {row['back']}, "
                                 f"the preset's page order is {shop.page_order}"))
            return


def check_pdf(path: Path, folder: Path, shop: Shop, found: list[Finding], work: Path, gs: str | None) -> dict:
    """One PDF's checks; ``gs`` the Ghostscript command the ink and bleed checks draw the
    separations with (None: not on this machine, those two checks not made, the file's figures
    saying so)."""
    name = str(path.relative_to(folder.parent))
    report: dict = {"file": name}
    try:
        opened = pikepdf.open(path)
    except pikepdf.PasswordError:
        raise Unreadable("it is encrypted, opened only with a password, which a shop does not have "
                         "(save it without a password)") from None
    with opened as pdf:
        report["pages"] = len(pdf.pages)
        if pdf.is_encrypted:  # (opened with no password: a permissions password only)
            found.append(Finding(name, 0, "file", "error", "it is encrypted with a permissions password"
                                 + ("" if pdf.allow.print_highres else ", printing not allowed at full resolution")
                                 + ": PDF/X takes no encryption and a shop's RIP may refuse it (save it without "
                                 "security)"))
        if not pdf.pages:
            found.append(Finding(name, 0, "geometry", "error", "no pages"))
            return report
        b = boxes(pdf.pages[0])
        report["trim_mm"] = [round(v, 2) for v in size_mm(b["TrimBox"])]
        report["bleed_box_mm"] = [round(v, 2) for v in size_mm(b["BleedBox"])]
        die = path.stem.endswith("-die")
        cmyk = shop.colour == "cmyk" or "/OutputIntents" in pdf.Root
        book = shop.files == "rulebook"
        if not die:
            check_geometry(name, pdf, shop, found, book)
        white = check_paints(name, pdf, shop, found, report, bool(cmyk))
        if cmyk and not die:
            if gs is None:
                report["ink"] = "not checked (no Ghostscript)"
            else:
                check_ink_and_bleed(gs, name, path, pdf, shop, found, work, report, white)
    if not die and not book:
        check_safe(name, path, shop, found)
    check_order(path.name, folder, shop, found)
    return report
