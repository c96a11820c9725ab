"""A picture's image dictionary (ISO 32000-1 §8.9.5), as the writer puts it before the picture's
stream: what pictures of one kind share (bits, colour space, filters, decoding) is written once
per build, each picture's size and length into it; a build of 3,000 cards met 3,000 pictures,
each of whose dictionaries was written value by value on every build."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpgen.pdf.objects import Name, Shape, pdf
from pnpgen.pdf.raster import Placed


def picture_shape(placed: Placed, once: Callable[[tuple, Callable[[], Any]], Any]) -> Shape:
    """A picture's image dictionary (it names no other object); ``once``: the build's memo
    (``FaceStreams.once``)."""
    s = placed.stream
    parms = tuple(sorted(s.parms.items())) if s.parms is not None else None
    kind = once(("picture kind", s.bits, s.colour_space, s.filters, s.decode, parms),
                lambda: picture_kind(s.bits, s.colour_space, s.filters, s.decode, parms))
    return Shape.written(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d %s /Length %d >>"
                         % (s.width, s.height, kind, placed.size))


def picture_kind(bits: int, colour_space: str, filters: tuple[str, ...], decode: tuple[int, ...] | None,
                 parms: tuple | None) -> bytes:
    """The entries of an image dictionary between its size and its length, in PDF syntax."""
    head: dict = {"BitsPerComponent": bits, "ColorSpace": Name(colour_space), "Filter": [Name(v) for v in filters]}
    if decode is not None:
        head["Decode"] = list(decode)
    if parms is not None:
        head["DecodeParms"] = [dict(parms)]  # one per filter
    return pdf(head)[3:-3]  # (without the dictionary's << and >>)
