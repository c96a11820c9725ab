"""A face's SVG with its pictures' ``href``s made to open outside pnpgen: ``viewable`` as files
beside it (``check --svg``), ``inlined`` as ``data:`` URIs (the live preview's link to a face's
SVG, ``pnpgen serve``). The pictures are those ``ArtFolder.pictures`` finds, as a build finds them."""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from pnpgen.data.art import MAX_ART_BYTES, ArtFolder
from pnpgen.errors import InputError, Where

# the files of art.SUFFIXES, as a data: URI names them
MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
               ".svg": "image/svg+xml"}


def viewable(art: ArtFolder, svg: str, folder: Path) -> str:
    """The face's SVG as a browser opens it from ``folder`` (``check --svg``): each picture's ``href`` the
    file's address from there, without ``#bg=``; one naming no file here, ``#id`` or ``data:``, as written."""
    def address(rel: str, path: Path) -> str:
        place = art.root / rel if (art.root / rel).is_file() or art.templates is None else art.templates / rel
        return quote(Path(os.path.relpath(place, folder)).as_posix(), safe="/")
    return _addressed(art, svg, address)


def inlined(art: ArtFolder, svg: str, where: Where | None = None, budget: int | None = None) -> str:
    """The face's SVG as a browser shows it from any address (the preview's link to a face's
    SVG, ``pnpgen serve``): each picture ``art`` finds, a ``data:`` URI of its file's bytes as
    they are, without ``#bg=``; one naming no file there, ``#id`` or ``data:``, as written.
    An InputError, said at ``where`` (the piece's line), when the pictures' files, counted each
    time the face shows one, pass ``budget`` bytes (MAX_ART_BYTES, the most a build reads of one
    picture): the SVG holds a picture each time it is shown, where a build holds it once (a 4 MB
    picture drawn on a track's 100 spaces took 2.3 GB to send)."""
    uris: dict[Path, tuple[str, int]] = {}  # a file → its URI and size (each read and encoded once)
    held, most = 0, MAX_ART_BYTES if budget is None else budget

    def uri(rel: str, path: Path) -> str:
        nonlocal held
        if path not in uris:
            data = path.read_bytes()
            uris[path] = (f"data:{MEDIA_TYPES.get(path.suffix.lower(), 'application/octet-stream')};base64,"
                          + base64.b64encode(data).decode("ascii"), len(data))
        held += uris[path][1]
        if held > most:
            raise InputError(f"the face's SVG would hold {held:,}+ bytes of pictures, each written every time it "
                             f"is shown ({rel} among them)", path=where.path if where else None,
                             line=where.line if where else None, column=where.column if where else None,
                             expected=f"at most {most:,} bytes of pictures in one face to show it here: "
                             "'pnpgen check --svg' writes its SVG with links to the picture files")
        return uris[path][0]
    return _addressed(art, svg, uri)


def _addressed(art: ArtFolder, svg: str, address: Callable[[str, Path], str]) -> str:
    """``svg`` with each picture ``art`` finds given ``address(its path in art/, its file)``."""
    out, at = [], 0
    for m, rel, path in art.pictures(svg):
        if path is None:
            continue
        out.append(svg[at:m.start(2)] + html.escape(address(rel, path)))
        at = m.end(2)
    return "".join(out) + svg[at:]
