"""The memo of faces rendered by earlier builds: each face's key (everything its render reads) and
whether the art files a remembered render looked at are still what they were."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.data.art import ArtFolder, Sizes
from pnpgen.data.model import Deck, Piece
from pnpgen.errors import InputError
from pnpgen.faces.face import Face
from pnpgen.memo import Memo, Stamps


@dataclass(eq=False)
class RenderMemo(Memo[dict]):
    """Faces rendered by earlier builds, by a key of everything a render reads: ``inputs`` (the
    hash of the templates, icons, fonts, art, game.yaml and pnpgen itself, made by the build)
    and the face's own deck, piece and side. The counts are not in the key: a face whose
    template read the deck's total remembers the total it was drawn with (``deck_count``), one
    that read its piece's count that count (``count``), so a count edit renders again only the
    faces that show the total or the count changed (faces/templates.py ``Renderer.replays``). Nor
    is where the piece is written (``place``): a render that warned remembers it, its warnings
    replayed only there. Nor is the piece's index (``twin`` stands for it): one that read
    ``piece.n`` remembers the index (``n``), and a replayed picture's placement is listed for the
    piece that shows it now."""

    inputs: str = ""
    # The hash of an art file's content (the build's, kept by stamps; else read here): a face
    # remembers the files its template looked at (sizes, existence) by their hashes, so a
    # repainted picture renders again only the faces that looked at it.
    digest: Callable[[Path], str] | None = None
    stamps: Stamps | None = None  # the build's stats of files (the digest's): its templates' art found by them
    # the art files' sizes by their content as the deck's loading found them (engine/run.py
    # ``art_sizes``): a face's image() measures its picture without opening it (nor importing Pillow)
    sizes: Sizes | None = None
    _decks: dict[int, tuple[Deck, str]] = field(default_factory=dict, repr=False)  # _deck_key's, by deck
    _pieces: dict[int, tuple[Piece, str]] = field(default_factory=dict, repr=False)  # _piece_key's, by piece
    _places: dict[int, tuple[Piece, str]] = field(default_factory=dict, repr=False)  # place's, by piece
    # each piece's ``twin``: how many pieces before it in its deck have the same values (by deck)
    _twins: dict[int, tuple[Deck, dict[int, int]]] = field(default_factory=dict, repr=False)
    # Faces another process is rendering (engine/prerender.py), by key: a call that waits for them
    # and learns them, made when the face stage first asks for one.
    arriving: dict[str, Callable[[], None]] = field(default_factory=dict, repr=False)
    # each face's key and each remembered render's freshness, worked out once per build: the
    # prerender (engine/prerender.py) asks both before the face stage asks them again
    _keys: dict[tuple, tuple[Face, str]] = field(default_factory=dict, repr=False)
    _fresh: dict[tuple[int, int], tuple[Any, ArtFolder, bool]] = field(default_factory=dict, repr=False)

    def get(self, key: str) -> dict | None:
        wait = self.arriving.pop(key, None)
        if wait is not None:
            wait()
        return super().get(key)

    def art_of(self, folder: ArtFolder, trail: list[tuple[str, bool]]) -> list[list]:
        """[name, in_templates, hash] of each art file a render found (each once)."""
        seen = dict.fromkeys(trail)
        return [[rel, in_templates, self._hash(folder.find(rel, in_templates=in_templates))]
                for rel, in_templates in seen]

    def fresh(self, known: Any, folder: ArtFolder) -> bool:
        """Are the art files a remembered render looked at still what they were? (Asked once per
        build: the art's hashes are the build's, by its stamps.)"""
        seen = self._fresh.get((id(known), id(folder)))
        if seen is not None and seen[0] is known and seen[1] is folder:
            return seen[2]
        try:
            verdict = all(self._hash(folder.find(rel, in_templates=bool(t))) == digest
                          for rel, t, digest in known.get("art", ()))
        except (InputError, OSError, ValueError, TypeError):
            verdict = False
        self._fresh[(id(known), id(folder))] = (known, folder, verdict)
        return verdict

    def _hash(self, path: Path) -> str:
        return self.digest(path) if self.digest is not None else hashlib.sha256(path.read_bytes()).hexdigest()

    def key(self, face: Face, bleed_mm: float) -> str:
        """(Worked out once per face and build: the prerender asks it before the face stage.)"""
        kept = self._keys.get((id(face.deck), id(face.piece), face.side, face.copy, bleed_mm))
        if kept is not None and kept[0].deck is face.deck and kept[0].piece is face.piece:
            return kept[1]
        seen = (self.inputs, self._deck_key(face.deck), face.side, face.copy, bleed_mm, self._piece_key(face.piece),
                self.twin(face.deck, face.piece))
        key = hashlib.sha256(repr(seen).encode()).hexdigest()
        self._keys[(id(face.deck), id(face.piece), face.side, face.copy, bleed_mm)] = (face, key)
        return key

    def _piece_key(self, piece: Piece) -> str:
        """What a face's render reads of its piece but its count and its place in the deck, hashed
        once per piece: its fields written out once for its front, its back and each copy, not once
        for each. (Its index is not in it: a card inserted, deleted or moved above a piece moves
        it, and each of their faces was drawn again by Jinja; a render that read ``piece.n``
        remembers the index it was drawn with, ``Renderer.replays``.)"""
        kept = self._pieces.get(id(piece))
        if kept is None or kept[0] is not piece:
            seen = sorted(piece.values.items(), key=lambda kv: str(kv[0]))
            kept = self._pieces[id(piece)] = (piece, hashlib.sha256(repr(seen).encode()).hexdigest())
        return kept[1]

    def twin(self, deck: Deck, piece: Piece) -> int:
        """How many pieces before ``piece`` in its deck have the same values (0 for most): the
        key's stand-in for the index, so that a deck's identical entries keep a render each (each
        warned at its own line: one render for both was drawn again for each, at every build),
        while a card inserted or deleted elsewhere changes none of theirs. Worked out once per deck."""
        kept = self._twins.get(id(deck))
        if kept is None or kept[0] is not deck:
            seen: dict[str, int] = {}
            twins: dict[int, int] = {}
            for p in deck.pieces:
                values = self._piece_key(p)
                twins[id(p)] = seen.get(values, 0)
                seen[values] = twins[id(p)] + 1
            kept = self._twins[id(deck)] = (deck, twins)
        return kept[1].get(id(piece), 0)

    def place(self, piece: Piece) -> str:
        """Where the piece is written — its index in its deck, its file:line, each field's line and
        column, how a message names its fields, its count and itself — hashed once per piece. No
        part of the key: a line added above a card (a comment, a rule written over two lines)
        moved every card below it, and each of their faces was drawn again by Jinja (3,000 cards:
        2.5 CPU-s → 6.5). Only a render's warnings name it, so a render that warned remembers it (``at``) and is replayed only where
        its piece still is (faces/templates.py ``Renderer.replays``)."""
        kept = self._places.get(id(piece))
        if kept is None or kept[0] is not piece:
            seen = (piece.index, str(piece.where), sorted(piece.field_lines.items()), sorted(piece.field_keys.items()),
                    str(piece.count_where), piece.label_field, piece.deck_label)
            kept = self._places[id(piece)] = (piece, hashlib.sha256(repr(seen).encode()).hexdigest())
        return kept[1]

    def _deck_key(self, deck: Deck) -> str:
        """What a face's render reads of its deck, hashed once per deck: its layout and options
        written out for each of 10,000 faces took 6 of a build's 25 s."""
        kept = self._decks.get(id(deck))
        if kept is None or kept[0] is not deck:
            seen = (deck.id, deck.name, deck.kind, deck.shape, deck.format, deck.trim_mm, deck.options, deck.front,
                    deck.back, deck.layout)
            kept = self._decks[id(deck)] = (deck, hashlib.sha256(repr(seen).encode()).hexdigest())
        return kept[1]
