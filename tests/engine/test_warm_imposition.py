"""A long-running command (watch, serve) keeps each deck's imposition between saves
(engine/imposition.py ``Impositions``): a save imposes again only the decks it changed, and writes
the bytes a one-off build writes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from conftest import DECK_YAML, make_workspace
from pnpgen.data.workspace import Workspace
from pnpgen.engine import imposition
from pnpgen.engine import run as build_run
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.warm import Warm

TOKENS = DECK_YAML.replace("name: テストカード", "name: トークン").replace("format: poker", "format: mini-euro") + \
    "".join(f"  - {{name: 駒{i}, text: 駒の本文{i}, count: 2}}\n" for i in range(1, 6))


SINCE_LAST = ("reprint.pdf", "reprint.txt", "manifest.json")  # what changed since the last build: a one-off build has none


def _files(folder: Path) -> dict[str, str]:
    """Every output file below ``folder`` (its cache and history aside, and what says what changed
    since the last build) by its hash; the manifest without its changes."""
    out = {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
           for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in SINCE_LAST
           and not any(part.startswith(".") for part in p.parts)}
    manifest = json.loads((folder / "manifest.json").read_bytes())
    out["manifest.json"] = json.dumps({k: v for k, v in manifest.items() if k not in ("changes", "reprint", "files")},
                                      sort_keys=True)
    return out


def test_a_save_imposes_again_only_the_deck_it_changed_and_writes_a_one_off_builds_bytes(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "ws")
    (root / "data" / "test" / "decks" / "tokens.yaml").write_text(TOKENS, encoding="utf-8")
    cards = root / "data" / "test" / "decks" / "cards.yaml"
    tokens = root / "data" / "test" / "decks" / "tokens.yaml"
    imposed: list[str] = []
    real = imposition.impose_deck

    def counted(ds, *a, **k):
        imposed.append(ds.id)
        return real(ds, *a, **k)

    monkeypatch.setattr(imposition, "impose_deck", counted)
    ws = Workspace(root)
    edits = [
        (cards, "本文カード3", "本文カード3を書き直した", ["cards"]),  # a text: one deck
        (tokens, "count: 2}", "count: 3}", ["tokens"]),  # a count: the other
        (cards, "本文カード3を書き直した", "本文カード3", ["cards"]),  # undone: imposed again (its last pages were let go of)
        (tokens, "count: 3}", "count: 2}", ["tokens"]),
    ]
    with Warm() as warm:
        build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
        assert sorted(imposed) == ["cards", "tokens"]
        for n, (path, old, new, again) in enumerate(edits):
            path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
            imposed.clear()
            build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
            assert imposed == again, (n, imposed)
            alone = tmp_path / f"alone-{n}"  # a one-off build of the same data
            build_run.run_build(ws, ["test"], BuildOptions(jobs=1), alone, None)
            assert _files(root / "build" / "test") == _files(alone / "test"), n
