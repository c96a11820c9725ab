"""A PDF opened with pikepdf and changed by one of pdf/'s passes (colours made CMYK, black mapped,
fonts retagged or outlined, thin lines widened, pages placed on sheets), written back as bytes.
Every pass writes alike, so the same document gives the same bytes whichever pass wrote it last."""

from __future__ import annotations

import io
from typing import Any


def pdf_bytes(doc: Any, version: str | None = None) -> bytes:
    """``doc``'s bytes: a file ID made from its content (``deterministic_id``), streams compressed,
    no object streams; ``version`` forces the header's version (a PDF/X edition's)."""
    import pikepdf

    out = io.BytesIO()
    more = {} if version is None else {"force_version": version}
    doc.save(out, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.disable, **more)
    return out.getvalue()
