"""A workspace's build folder can come from elsewhere (a zip, a shared drive): nothing in its
``.cache/`` is ever run. Compiled templates are code (Jinja's bytecode, checked only by a
checksum of the template's source, which anyone can compute), so pnpgen keeps them in the
machine's own cache, never in ``build/.cache/``."""

from __future__ import annotations

import hashlib
import marshal
import pickle
from pathlib import Path

from conftest import FEW_CARDS, make_workspace, run


def _planted(ws: Path, marker: Path) -> None:
    """Code that writes ``marker``, as Jinja's bytecode for each template of the game, under
    every name the workspace cache's compiled templates were ever kept by."""
    from jinja2.bccache import bc_magic

    from pnpgen.faces.compiled import CompiledTemplates

    code = compile(f"open({str(marker)!r}, 'w').close()\n", "<planted>", "exec")
    folder = ws / "build" / ".cache" / "jinja"
    folder.mkdir(parents=True, exist_ok=True)
    for template in (ws / "templates" / "test").glob("*.j2"):
        checksum = hashlib.sha1(template.read_text(encoding="utf-8").encode()).hexdigest()
        entry = bc_magic + pickle.dumps(checksum, 2) + marshal.dumps(code)
        name = f"test/{template.name}"
        for filename in {str(template), str(template.resolve()), None}:
            key = hashlib.sha1(f"{CompiledTemplates.GENERATION}\0{name}".encode())
            if filename is not None:
                key.update(f"|{filename}".encode())
            (folder / f"{key.hexdigest()}.jbc").write_bytes(entry)


def test_compiled_code_planted_in_the_build_folders_cache_never_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})  # as a new process, after the folder came in a zip
    marker = tmp_path / "ran"
    _planted(ws, marker)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "本文カード一"), encoding="utf-8")  # a face to draw
    (tmp_path / "machine-cache").rename(tmp_path / "machine-cache-before")  # nothing compiled on this machine
    code = run(ws, "build", "--game", "test", "--no-rulebook")
    assert not marker.exists()
    assert code == 0
    assert (ws / "build" / "test" / "cards.pdf").is_file()
    assert not list((ws / "build" / ".cache").glob("jinja/*.jbc"))  # and the planted entries were pruned
