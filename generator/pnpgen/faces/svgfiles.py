"""The rendered SVG of each face as files a template author opens (``pnpgen check --svg``): the
SVG a template made (after Jinja, before conversion), named by deck, piece and side, its pictures
addressed from where the file is written."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from pnpgen.patterns import later

# what a file's name may not hold on any system pnpgen runs on, and what shows nothing
_UNSAFE = later(r'[\x00-\x1f\x7f/\\:*?"<>|\s]+')
NAME_LIMIT = 40  # characters of a piece's name in its file's name


class Pictures(Protocol):
    def viewable(self, svg: str, folder: Path) -> str: ...


def file_name(index: int, label: str, side: str, copy: int = 1) -> str:
    """``007-騎士.front.svg``: the piece's number in its deck, its name made safe for a file's, the
    side; a copy but the first, ``007-騎士-copy2.front.svg`` (a template reading ``piece.copy``)."""
    name = _UNSAFE.sub("-", label).strip("-.")[:NAME_LIMIT].strip("-.")
    return (f"{index:03d}" + (f"-{name}" if name and name != f"#{index}" else "")
            + (f"-copy{copy}" if copy > 1 else "") + f".{side}.svg")


def face_files(drawn: Iterable[tuple[Any, Any, str, str, int]], svgs: dict[str, str], pictures: Pictures,
               folder: Path) -> dict[str, bytes]:
    """Each distinct face of ``drawn`` ((deck, piece, side, face key, copy), in the decks' order) once
    per deck, as ``<deck>/<file_name>`` → its SVG's bytes, named after the first piece and copy that
    shows it (a back every card shares: under the first card's name; a face a template reading
    ``piece.copy`` draws its own way for some copies: under each such copy, the first's alone
    when every copy is alike). ``folder``: where the files go."""
    out: dict[str, bytes] = {}
    seen: set[tuple[str, str]] = set()
    for deck, piece, side, key, copy in drawn:
        if (deck.id, key) in seen:
            continue
        seen.add((deck.id, key))
        svg = pictures.viewable(svgs[key], folder / deck.id)
        out[f"{deck.id}/{file_name(piece.index, piece.label, side, copy)}"] = svg.encode("utf-8")
    return out
