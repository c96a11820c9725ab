"""A game's state in the build cache: what its last good build read and wrote (its inputs'
fingerprint, its documents' plan keys, every file's hash, the deck records the next change report
compares with, the cache entries it used), sealed with this machine's key (``usercache.seal``),
and whether a file it wrote is still as it wrote it. ``engine/cache.py`` keeps the records."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.engine.fingerprint import FORMAT, FileHashes, code, sha
from pnpgen.engine.output import inside
from pnpgen.pdf.assemble import PdfFile, Stored, file_digest
from pnpgen.usercache import seal


def safe_rel(rel: object) -> bool:
    """A path read from a record: relative, without '..', '.', empty parts, backslashes or NUL."""
    return isinstance(rel, str) and bool(rel) and not rel.startswith("/") and "\\" not in rel \
        and "\0" not in rel and all(part not in ("", ".", "..") for part in rel.split("/"))


def recorded(data: bytes | PdfFile) -> str:
    """What a game's state records of a file it wrote: the SHA-256 of its bytes, or of a
    document's segments (``PdfFile.digest``: a big deck's documents are not read to be recorded)."""
    return data.digest()[0] if isinstance(data, PdfFile) else hashlib.sha256(data).hexdigest()


def document_record(plan: str, data: bytes | PdfFile, known: dict[Stored, bytes] | None = None) -> dict[str, Any]:
    """A document as a state keeps it: its plan's key, what it records of the file (``recorded``)
    and, for a digest by segments, their lengths (the layout ``file_digest`` checks a file by)."""
    digest, layout = data.digest(known) if isinstance(data, PdfFile) else (sha(data), None)
    return {"plan": plan, "sha": digest, **({"layout": list(layout)} if layout is not None else {})}


def layout_of(doc: Any) -> tuple[int, ...] | None:
    """The layout a state's document record gives (None: a plain SHA-256)."""
    layout = doc.get("layout") if isinstance(doc, dict) else None
    return tuple(layout) if isinstance(layout, list) else None


_BODY, _CHECK = b'{"body": ', b', "check": "'  # a state's record: its body's text, then its seal


def _sealed_body(data: bytes) -> str | None:
    """The seal of the body's text in a state's record as ``GameState.to_json`` writes it (its
    bytes between ``_BODY`` and ``_CHECK``), not of the body written out again; None for a record
    not laid out so (then no seal matches)."""
    if not data.startswith(_BODY) or not data.endswith(b'"}') or len(data) < len(_BODY) + len(_CHECK) + 66:
        return None
    text, check = data[len(_BODY):-(len(_CHECK) + 66)], data[-(len(_CHECK) + 66):]
    return seal(text) if check.startswith(_CHECK) else None


@dataclass
class GameState:
    """What the last good build of a game was made from and wrote."""

    inputs: str
    documents: dict[str, dict[str, str]] = field(default_factory=dict)  # path → {"plan": key, "sha": hash}
    files: dict[str, str] = field(default_factory=dict)  # every file written (rel path) → sha256
    report: dict[str, Any] = field(default_factory=dict)  # deck records, for the next change report
    uses: list[str] = field(default_factory=list)  # cache entries the build used (paths in .cache/)
    warnings: list[str] = field(default_factory=list)  # said again when the game is up to date
    game: str = ""  # the game (and edition) it is of, as its record is named: another's, moved here, is none

    def to_json(self) -> bytes:
        """``{"body": …, "check": …}`` as ``json.dumps(…, ensure_ascii=False, sort_keys=True)``
        writes it, the body's text (the one sealed) written once and put in as it is."""
        body = {"format": FORMAT, "pnpgen": code(), "inputs": self.inputs, "documents": self.documents,
                "files": self.files, "report": self.report, "uses": self.uses, "warnings": self.warnings,
                "game": self.game}
        text = json.dumps(body, ensure_ascii=False, sort_keys=True).encode()
        return _BODY + text + _CHECK + seal(text).encode() + b'"}'

    @classmethod
    def from_json(cls, data: bytes) -> GameState | None:
        """The state, or None when the record is damaged, foreign or of another format. One another
        pnpgen wrote (an upgrade) is taken for what the last build wrote and reported — the files it
        made (what this build no longer makes is removed) and its decks (the change report compares
        with them) — and for nothing else: never up to date, no document reused, no cache entry."""
        try:
            outer = json.loads(data)
            body = outer["body"]
            if outer["check"] != _sealed_body(data) or body["format"] != FORMAT:
                return None
            same = body["pnpgen"] == code()
            warnings = body.get("warnings", [])
            state = cls(str(body["inputs"]) if same else "", dict(body["documents"]) if same else {},
                        dict(body["files"]), dict(body["report"]), list(body["uses"]) if same else [],
                        [w for w in warnings if isinstance(w, str)] if isinstance(warnings, list) and same else [],
                        str(body.get("game", "")))  # (none: a record written before the records named it)
            if not all(isinstance(v, dict) and {"plan", "sha"} <= v.keys() and _layout_ok(v.get("layout", []))
                       for v in state.documents.values()) \
                    or not all(isinstance(u, str) for u in state.uses) \
                    or not all(safe_rel(rel) for rel in [*state.files, *state.documents]):
                return None
            return state
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


def _layout_ok(layout: Any) -> bool:
    return isinstance(layout, list) and all(type(n) is int and n >= 0 for n in layout)


States = dict[Path, tuple[bytes, GameState | None]]  # a state file → its bytes as read, and what they say


def plain_file(folder: Path, rel: str) -> tuple[Path, os.stat_result] | None:
    """``folder/rel`` and its stat when it is a regular file reached without a link (a link beside
    the outputs could lead anywhere: to a FIFO, whose reading never ends); else None."""
    path = inside(folder, rel)
    try:
        st = path.lstat() if path is not None else None
    except OSError:
        return None
    return (path, st) if path is not None and st is not None and stat.S_ISREG(st.st_mode) else None


def as_written(out_dir: Path, rel: str, digest: str, known: FileHashes | None = None,
               layout: tuple[int, ...] | None = None) -> bool:
    """Whether ``out_dir/rel`` is still the file pnpgen wrote (a plain file of that SHA-256, or of
    that digest by segments of ``layout``: a big document's, ``recorded``)."""
    return _same(out_dir, rel, digest, known, layout)


def _same(out_dir: Path, rel: str, digest: str, known: FileHashes | None = None,
          layout: tuple[int, ...] | None = None) -> bool:
    found = plain_file(out_dir, rel)
    return found is not None and (stamped_as(found, digest, known) or hashed_to(found, digest, layout, known))


def stamped_as(found: tuple[Path, os.stat_result], digest: str, known: FileHashes | None) -> bool:
    """Is the file known by its stamp (size, times) to hold ``digest``, as pnpgen wrote it?"""
    try:
        return known is not None and known.get(*found) == digest
    except OSError:
        return False


def hashed_to(found: tuple[Path, os.stat_result], digest: str, layout: tuple[int, ...] | None,
               known: FileHashes | None) -> bool:
    """Does the file, read and hashed, hold ``digest``? (Learned by its stamp for the next time.)"""
    path, st = found
    try:
        actual = file_digest(path, layout)
        if known is not None:
            known.learn(path, st, actual)
        return actual == digest
    except OSError:
        return False
