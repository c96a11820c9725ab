"""The build cache under ``build/.cache/``: what the last good build of each game read and wrote,
and converted faces, so a rebuild redoes only what an edit changed.

- A game's *inputs fingerprint* covers every file the build can read (its data folder, its own and
  the shared templates and icons, the fonts, pnpgen itself) plus the options. Unchanged → the
  game is up to date and nothing is loaded, drawn or written.
- Each output document has a *plan key* (the hash of its page plan and of the faces it places).
  Unchanged → the file on disk is reused as it is (checked against its recorded hash).
- Converted faces are stored by the hash of their SVG (and of any art they embed).

Every record is checked (format version, pnpgen version, hashes) before it is trusted; a corrupt
or foreign cache is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import pnpgen

FORMAT = 1
BIG_FILE = 1 << 20  # files larger than this (fonts, art) are fingerprinted by size and mtime


def _digest(parts: Iterable[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def fingerprint(folders: Iterable[Path], options: Any) -> str:
    """Hash of every file under ``folders`` (name, then content or size+mtime for big files),
    pnpgen's own code and version, and ``options`` (its repr)."""
    parts: list[bytes] = [f"pnpgen {pnpgen.__version__} cache {FORMAT}".encode(), repr(options).encode()]
    parts.extend(_code())
    for folder in folders:
        parts.extend(_file_parts(folder))
    return _digest(parts)


@lru_cache(maxsize=1)
def _code() -> tuple[bytes, ...]:
    """pnpgen's own files, once per process (the code running is the code loaded at its start)."""
    return tuple(_file_parts(Path(pnpgen.__file__).parent))


def _file_parts(folder: Path) -> list[bytes]:
    parts: list[bytes] = []
    for path in _files(folder):
        st = path.stat()
        parts.append(str(path).encode())
        if path.suffix == ".py" or st.st_size > BIG_FILE:
            parts.append(f"{st.st_size}:{st.st_mtime_ns}".encode())
        else:
            parts.append(path.read_bytes())
    return parts


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class GameState:
    """What the last good build of a game was made from and wrote."""

    inputs: str
    documents: dict[str, dict[str, str]] = field(default_factory=dict)  # path → {"plan": key, "sha": hash}
    files: dict[str, str] = field(default_factory=dict)  # every file written (rel path) → sha256
    report: dict[str, Any] = field(default_factory=dict)  # deck records, for the next change report

    def to_json(self) -> bytes:
        body = {"format": FORMAT, "pnpgen": pnpgen.__version__, "inputs": self.inputs,
                "documents": self.documents, "files": self.files, "report": self.report}
        text = json.dumps(body, ensure_ascii=False, sort_keys=True)
        return json.dumps({"check": sha(text.encode()), "body": body}, ensure_ascii=False,
                          sort_keys=True).encode()

    @classmethod
    def from_json(cls, data: bytes) -> "GameState | None":
        """The state, or None when the record is damaged, foreign or from another version."""
        try:
            outer = json.loads(data)
            body = outer["body"]
            text = json.dumps(body, ensure_ascii=False, sort_keys=True)
            if outer["check"] != sha(text.encode()) or body["format"] != FORMAT \
                    or body["pnpgen"] != pnpgen.__version__:
                return None
            state = cls(str(body["inputs"]), dict(body["documents"]), dict(body["files"]), dict(body["report"]))
            if not all(isinstance(v, dict) and {"plan", "sha"} <= v.keys() for v in state.documents.values()):
                return None
            return state
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


class Cache:
    """``<out>/.cache``: one state file per game, one file per converted face."""

    def __init__(self, out_root: Path):
        self.root = out_root / ".cache"

    def state_path(self, slug: str) -> Path:
        return self.root / f"{slug}.json"

    def state(self, slug: str) -> GameState | None:
        try:
            return GameState.from_json(self.state_path(slug).read_bytes())
        except OSError:
            return None

    def up_to_date(self, slug: str, inputs: str, out_dir: Path) -> GameState | None:
        """The last state if the game's inputs are unchanged and every file it wrote is still there
        as written (same size and content hash); else None."""
        state = self.state(slug)
        if state is None or state.inputs != inputs or not state.files:
            return None
        for rel, digest in state.files.items():
            if not _same(out_dir / rel, digest):
                return None
        return state

    def reuse(self, state: GameState | None, rel: str, plan_key: str, out_dir: Path) -> bytes | None:
        """The bytes of an output whose plan did not change since the last good build."""
        if state is None:
            return None
        doc = state.documents.get(rel)
        if doc is None or doc["plan"] != plan_key:
            return None
        try:
            data = (out_dir / rel).read_bytes()
        except OSError:
            return None
        return data if sha(data) == doc["sha"] else None

    # -------------------------------------------------------------- small records (nesting)

    def records(self, kind: str) -> dict[str, Any]:
        """Every intact record of ``kind`` (key → value); damaged ones are skipped."""
        out: dict[str, Any] = {}
        folder = self.root / kind
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                outer = json.loads(path.read_bytes())
                body = outer["body"]
                if outer["check"] == sha(json.dumps(body, sort_keys=True).encode()) \
                        and body["pnpgen"] == pnpgen.__version__ and path.stem == sha(body["key"].encode())[:32]:
                    out[body["key"]] = body["value"]
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
        return out

    def record(self, kind: str, key: str, value: Any) -> tuple[Path, bytes]:
        """The file that stores one record, and its bytes."""
        body = {"pnpgen": pnpgen.__version__, "key": key, "value": value}
        data = json.dumps({"check": sha(json.dumps(body, sort_keys=True).encode()), "body": body}, sort_keys=True)
        return self.root / kind / f"{sha(key.encode())[:32]}.json", data.encode()

    # -------------------------------------------------------------- faces

    def face_path(self, key: str) -> Path:
        return self.root / "faces" / key[:2] / f"{key}.json"

    def face(self, key: str, from_json) -> Any | None:
        """A converted face, or None when absent, damaged or not what its name says."""
        try:
            outer = json.loads(self.face_path(key).read_bytes())
            body = outer["art"]
            if outer.get("key") != key or outer.get("pnpgen") != pnpgen.__version__ \
                    or outer.get("check") != sha(json.dumps(body, sort_keys=True).encode()):
                return None
            return from_json(body)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def face_bytes(self, key: str, art_json: Any) -> bytes:
        return json.dumps({"key": key, "pnpgen": pnpgen.__version__, "art": art_json,
                           "check": sha(json.dumps(art_json, sort_keys=True).encode())},
                          sort_keys=True).encode()


def _same(path: Path, digest: str) -> bool:
    try:
        return sha(path.read_bytes()) == digest
    except OSError:
        return False


def plan_key(doc, faces: dict[str, str]) -> str:
    """Hash of a document's page plan and of the faces it places (their SVG keys plus the art
    digest of faces that embed images)."""
    return _digest([repr(doc).encode(), *(f"{k}={faces.get(k, '')}".encode() for k in doc.faces())])
