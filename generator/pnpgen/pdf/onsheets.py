"""Pages of one PDF placed on the pages of another, each at its trim: the rulebook's A5 pages on
a print shop's pages (A5 + 塗り足し + room for トンボ, the marks and boxes drawn by pdf/writer.py),
through pikepdf's public API.

Each source page becomes a Form XObject (``Page.as_form_xobject``: its content and resources as
they are, clipped to its MediaBox) drawn under the sheet's own content, its lower-left corner on
the sheet's TrimBox's. Only what the page draws is carried: its links, bookmarks and page labels
(a screen's) are not, so a print file holds no annotation inside its BleedBox (PDF/X).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from pnpgen.pdf.resave import pdf_bytes


def page_count(pdf: bytes) -> int:
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return len(doc.pages)


def place_on_sheets(pages_pdf: bytes, sheets_pdf: bytes, at: Sequence[int]) -> bytes:
    """``sheets_pdf`` with page n of ``pages_pdf`` under its page ``at[n]`` (0-based), at the
    sheet's TrimBox (the same size as the page's MediaBox: ValueError if not); a sheet no page is
    placed on stays as it is (a blank page that makes up a printer's page count). The same input
    gives the same bytes."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pages_pdf)) as src, pikepdf.open(io.BytesIO(sheets_pdf)) as out:
        if len(at) != len(src.pages) or len(set(at)) != len(at) or not all(0 <= i < len(out.pages) for i in at):
            raise ValueError(f"{len(src.pages)} pages placed at sheets {list(at)} of {len(out.pages)}")
        for n, (page, i) in enumerate(zip(src.pages, at)):
            sheet = out.pages[i]
            box = pikepdf.Rectangle(sheet.trimbox)
            media = pikepdf.Rectangle(page.mediabox)
            if abs(box.width - media.width) > 0.01 or abs(box.height - media.height) > 0.01:
                raise ValueError(f"page {n + 1} is {media.width:g}×{media.height:g} pt, its sheet's trim "
                                 f"{box.width:g}×{box.height:g} pt")
            form = out.copy_foreign(page.as_form_xobject())
            name = sheet.add_resource(form, pikepdf.Name.XObject, pikepdf.Name("/PnpPage"))  # (named: same bytes)
            sheet.contents_add(sheet.calc_form_xobject_placement(form, name, box, allow_shrink=False,
                                                                 allow_expand=False), prepend=True)
            sheet.contents_coalesce()
        return pdf_bytes(out)
