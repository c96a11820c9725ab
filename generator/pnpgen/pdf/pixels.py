"""A drawn PDF's pages read back as pixels (PDFium): what a page prints, for the readers that
look at the art itself (bare bleed, a tile's signature, the ink saver's toner coverage) rather than
at the plan that placed it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow loads when a page is read: a build that reads none never imports it
    from PIL import Image


def rendered(pdf: bytes, pages: Sequence[int], px_per_mm: float) -> list[Image.Image]:
    """Pages (0-based) of ``pdf`` rendered at ``px_per_mm`` (pdfium), for reading the art."""
    import pypdfium2  # (some 40 ms to import: a build with no face to read never does)

    doc = pypdfium2.PdfDocument(pdf)
    try:
        out = []
        for i in pages:
            page = doc[i]
            out.append(page.render(scale=px_per_mm * 25.4 / 72).to_pil().convert("RGB"))
            page.close()
        return out
    finally:
        doc.close()


def page_coverage(pdf: bytes, dpi: float) -> list[float]:
    """Toner coverage (0 white … 1 black) of each page of ``pdf`` read at ``dpi``: the mean of
    1 − luminance over its pixels (Rec. 709 weights, as ``pnpgen.svg.ink.luminance``)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            bitmap = page.render(scale=dpi / 72)
            px = bitmap.to_numpy()[..., :3].astype("float64") / 255.0
            lum = px[..., 0] * 0.2126 + px[..., 1] * 0.7152 + px[..., 2] * 0.0722
            out.append(float(1.0 - lum.mean()) if lum.size else 0.0)
            bitmap.close()
            page.close()
    finally:
        doc.close()
    return out
