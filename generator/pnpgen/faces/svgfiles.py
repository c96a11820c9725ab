"""The rendered SVG of each face as files a template author opens (``pnpgen check --svg``): the
SVG a template made (after Jinja, before conversion), named by deck, piece and side, its pictures
addressed from where the file is written."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.data.artlinks import viewable
from pnpgen.patterns import later

if TYPE_CHECKING:
    from pnpgen.data.art import ArtFolder

# what a file's name may not hold on any system pnpgen runs on, and what shows nothing
_UNSAFE = later(r'[\x00-\x1f\x7f/\\:*?"<>|\s]+')
NAME_LIMIT = 40  # characters of a piece's name in its file's name


def file_name(index: int, label: str, side: str) -> str:
    """``007-騎士.front.svg``: the piece's number in its deck, its name made safe for a file's, the side."""
    name = _UNSAFE.sub("-", label).strip("-.")[:NAME_LIMIT].strip("-.")
    return f"{index:03d}" + (f"-{name}" if name and name != f"#{index}" else "") + f".{side}.svg"


def face_files(drawn: Iterable[tuple[Any, Any, str, str]], svgs: dict[str, str], pictures: ArtFolder,
               folder: Path) -> dict[str, bytes]:
    """Each distinct face of ``drawn`` ((deck, piece, side, face key), in the decks' order) once per
    deck, as ``<deck>/<file_name>`` → its SVG's bytes, named after the first piece that shows it
    (a back every card shares: under the first card's name). ``folder``: where the files go."""
    out: dict[str, bytes] = {}
    seen: set[tuple[str, str]] = set()
    for deck, piece, side, key in drawn:
        if (deck.id, key) in seen:
            continue
        seen.add((deck.id, key))
        svg = viewable(pictures, svgs[key], folder / deck.id)
        out[f"{deck.id}/{file_name(piece.index, piece.label, side)}"] = svg.encode("utf-8")
    return out
