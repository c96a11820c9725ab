"""ReportLab's process-wide settings, set here and nowhere else.

ReportLab keeps how it writes and what a drawing starts from in module globals of its own
(``rl_config``, ``reportlab.graphics.shapes.STATE_DEFAULTS``). pnpgen changes them only through
these functions, which the code that writes PDFs calls:

- :func:`flate_only`: streams are compressed with Flate only, for every PDF pnpgen makes (sheets,
  shop files, rulebooks). ReportLab's default adds ASCII85 on top, which makes each stream it
  encodes a quarter larger (the four games' files, 5 % larger in all) and slower to write and to
  read, for 7-bit mail transports no print shop uses.
- :func:`default_font`: ReportLab's graphics (svglib's drawings of faces outside the converter's
  subset) start from an embedded font instead of Helvetica, so no page references a font that
  is not embedded.
- :func:`ascii85_streams` (while an inline image is written) and :func:`cmyk_black_defaults`
  (while svglib's drawing is drawn in a CMYK document): changed for one call, then restored.
- :func:`dated_as_pnpgen_dates`: while a document is made, ReportLab does not date it from the
  environment's ``SOURCE_DATE_EPOCH``.
- :func:`compressed_by`: while a document is made, its Flate streams are compressed through a
  ``Compressions`` kept by a long-running process (the rulebook's, in ``watch``): a stream whose
  content the last document had too is not compressed again.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

# ReportLab is imported by the functions that change its settings, which only run where ReportLab
# draws: reportlab.graphics.shapes (STATE_DEFAULTS) loads platypus, a third of a second, and even
# rl_config loads Pillow (some 30 ms with the font modules a build of cached faces never needs).


@contextmanager
def dated_as_pnpgen_dates() -> Iterator[None]:
    """ReportLab dates a document (its CreationDate and ModDate) from ``SOURCE_DATE_EPOCH`` when
    the environment sets it (build servers, Nix, Debian's reproducible builds), even with
    ``invariant=1``; pnpgen dates every file 2000-01-01 whatever the environment: a rulebook made
    with it set differed from the same book made without, and which one a build wrote depended
    on the cache (its book, kept by its inputs, was taken either way)."""
    kept = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        yield
    finally:
        if kept is not None:
            os.environ["SOURCE_DATE_EPOCH"] = kept


def flate_only() -> None:
    """Write every stream with Flate alone (no ASCII85): call before a document is saved."""
    from reportlab import rl_config

    rl_config.useA85 = 0


def default_font(name: str) -> None:
    """Make ReportLab's graphics state start from the embedded font ``name``, not Helvetica."""
    from reportlab.graphics.shapes import STATE_DEFAULTS

    STATE_DEFAULTS["fontName"] = name


def canvas_font() -> str:
    """The font a canvas made without ``initialFontName`` starts with (ReportLab's default)."""
    from reportlab import rl_config

    return str(rl_config.canvas_basefontname)


@contextmanager
def ascii85_streams() -> Iterator[None]:
    """ASCII85 on while the block runs: ReportLab writes inline image data as text only in
    ASCII85; with Flate-only streams it would put bytes among the page's text and fail."""
    from reportlab import rl_config

    before, rl_config.useA85 = rl_config.useA85, 1
    try:
        yield
    finally:
        rl_config.useA85 = before


@contextmanager
def cmyk_black_defaults() -> Iterator[None]:
    """ReportLab's drawings start from CMYK black while the block runs (renderPDF starts from its
    default RGB black, which a CMYK file must not hold)."""
    from reportlab.graphics.shapes import STATE_DEFAULTS
    from reportlab.lib.colors import CMYKColor

    saved = {k: STATE_DEFAULTS[k] for k in ("fillColor", "strokeColor")}
    STATE_DEFAULTS.update(fillColor=CMYKColor(0, 0, 0, 1), strokeColor=CMYKColor(0, 0, 0, 1))
    try:
        yield
    finally:
        STATE_DEFAULTS.update(saved)


class Compressions:
    """Flate streams compressed, by their content, kept from one document to the next by a
    long-running process (the rulebook's process in ``watch``: engine/typeset.py ``Setting``). A
    save sets the book again with most of its streams as they were (the fonts' subsets, some
    385 kB for populous's book, the faces' forms, the pages before the first one changed): those
    are taken as compressed before, the same bytes zlib gives them (``zlib.compress`` at its
    default level, as ReportLab's Flate filter). Keeps what the last document used, no more."""

    def __init__(self) -> None:
        self._kept: dict[bytes, bytes] = {}
        self._used: dict[bytes, bytes] = {}
        self.reused = 0  # streams taken as compressed before (for tests and the bench)

    def turn(self) -> None:
        """A new document: what the last one used is kept for it, the rest let go of."""
        self._kept, self._used = self._used, {}

    def compress(self, data: bytes | str) -> bytes:
        """``data`` Flate-compressed as ReportLab's filter compresses it (text as UTF-8)."""
        if isinstance(data, str):
            data = data.encode("utf8")
        out = self._used.get(data)
        if out is None:
            out = self._kept.get(data)
            if out is None:
                out = zlib.compress(data)
            else:
                self.reused += 1
            self._used[data] = out
        return out


@contextmanager
def compressed_by(kept: Compressions | None) -> Iterator[None]:
    """While the block runs, ReportLab's Flate filter compresses through ``kept`` (None: as it
    does). ReportLab's streams hold its one filter object (``pdfdoc.PDFZCompress``, the font
    subsets' streams made as the document is saved too), so its method is shadowed on that object
    for the block and given back after."""
    if kept is None:
        yield
        return
    from reportlab.pdfbase import pdfdoc

    kept.turn()
    pdfdoc.PDFZCompress.encode = kept.compress  # type: ignore[method-assign]
    try:
        yield
    finally:
        del pdfdoc.PDFZCompress.encode
