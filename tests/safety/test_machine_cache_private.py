"""The machine's cache (usercache.py) holds code a build runs (templates' bytecode) behind checks
anyone computes: its folders and entries are its user's alone whatever the umask, and an entry in
a folder others may write to is never read."""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run
from pnpgen import usercache


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "machine" / "pnpgen"
    monkeypatch.setenv("PNPGEN_CACHE", str(folder))
    return folder


def test_a_build_under_umask_000_leaves_no_cache_entry_others_may_write(tmp_path, cache):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    old = os.umask(0)
    try:
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    finally:
        os.umask(old)
    found = [cache, *cache.rglob("*")]
    assert len([p for p in found if p.is_file()]) >= 2  # the key and entries (templates: maybe held in memory)
    writable = [p for p in found if p.stat().st_mode & (stat.S_IWGRP | stat.S_IWOTH)]
    assert not writable, writable  # were 0o666 files, 0o777 folders
    assert stat.S_IMODE((cache / "secret").stat().st_mode) == 0o600


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folder owners: POSIX")
def test_an_entry_in_a_folder_others_may_write_is_not_read(cache):
    """An entry planted, as anyone may, in a folder made writable to others (umask 000 made it so
    before; another hand since): not read, until pnpgen's next write makes the folder private."""
    (cache / "yaml").mkdir(parents=True)
    (cache / "yaml").chmod(0o777)
    body = marshal.dumps({"planted": True})
    (cache / "yaml" / ("a" * 40)).write_bytes(hashlib.sha256(body).digest() + body)
    assert usercache.get("yaml", "a" * 40) is None
    usercache.put("yaml", "b" * 40, 1)
    assert stat.S_IMODE((cache / "yaml").stat().st_mode) == 0o700
    assert usercache.get("yaml", "b" * 40) == 1


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folder owners: POSIX")
def test_a_cache_folder_named_that_others_may_write_is_left_as_it_is_and_unused(tmp_path, monkeypatch):
    """PNPGEN_CACHE=/tmp: made private, it would have locked every other user out of /tmp."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("PNPGEN_CACHE", str(shared))
    usercache.put("yaml", "c" * 40, 1)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert usercache.get("yaml", "c" * 40) is None and not list(shared.rglob("c" * 40))
    assert usercache.secret() is None  # a key others could replace seals nothing: the process's own then


@pytest.mark.parametrize("variable", ["XDG_CACHE_HOME", "PNPGEN_CACHE", "HOME"])
def test_a_relative_cache_folder_is_no_cache_so_a_workspace_cannot_plant_compiled_code(tmp_path, monkeypatch, variable):
    """XDG_CACHE_HOME=cache (relative, which the XDG spec says to ignore), PNPGEN_CACHE=cache or
    HOME=. put the machine's cache in the folder pnpgen runs in: a stranger's workspace could ship
    it, its compiled templates (code the build runs outside the sandbox) and its key (sealing
    the workspace's planted build/.cache). Nothing is kept there, nor read from there."""
    import jinja2

    from conftest import FRONT
    from pdfprobe import texts
    from pnpgen.faces import compiled

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    name, source = "test/card-front.svg.j2", FRONT
    sandbox = jinja2.sandbox.SandboxedEnvironment()
    bucket = jinja2.bccache.Bucket(sandbox, "", compiled.CompiledTemplates().get_source_checksum(source))
    bucket.code = sandbox.compile('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
                                  'viewBox="0 0 63 88"><text x="5" y="9" font-family="BIZUDGothic-Regular" '
                                  'font-size="5">PLANTED</text></svg>', name)
    entry = usercache.key(compiled.CompiledTemplates.GENERATION.encode(), jinja2.__version__.encode(),
                          name.encode(), bucket.checksum.encode())
    base = {"XDG_CACHE_HOME": ws / "cache" / "pnpgen", "PNPGEN_CACHE": ws / "cache",
            "HOME": ws / ".cache" / "pnpgen"}[variable]
    body = marshal.dumps(bucket.bytecode_to_string())
    (base / compiled.COMPILED_KIND).mkdir(mode=0o700, parents=True)
    os.chmod(base, 0o700)
    os.chmod(base.parent, 0o700)
    (base / compiled.COMPILED_KIND / entry).write_bytes(hashlib.sha256(body).digest() + body)
    (base / "secret").write_bytes(b"k" * usercache.SECRET_BYTES)
    monkeypatch.delenv("PNPGEN_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv(variable, {"XDG_CACHE_HOME": "cache", "PNPGEN_CACHE": "cache", "HOME": "."}[variable])
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    before = sorted(base.rglob("*"))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert not any("PLANTED" in t for t in texts(ws / "build" / "test" / "cards.pdf"))
    assert usercache.secret() != b"k" * usercache.SECRET_BYTES
    assert sorted(base.rglob("*")) == before  # nothing written there either
