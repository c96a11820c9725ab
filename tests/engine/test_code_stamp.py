"""pnpgen's own stamp (``engine/fingerprint.code``: its version and a hash of its files), which every
cache record carries: kept in the machine's cache by the files' names, sizes, times and inodes,
so a command does not read every file of pnpgen when it starts; any edit of a file gives a new
stamp, the same one a run without the machine's cache works out."""

from __future__ import annotations

import os

from pnpgen.engine import fingerprint


def _stamp(monkeypatch, folder, machine) -> str:
    monkeypatch.setattr(fingerprint.resources, "folder", lambda package, *inside: folder)
    monkeypatch.setenv("PNPGEN_CACHE", machine)
    fingerprint.code.cache_clear()
    try:
        return fingerprint.code()
    finally:
        fingerprint.code.cache_clear()


def test_the_stamp_is_kept_and_made_again_after_an_edit(tmp_path, monkeypatch):
    pkg = tmp_path / "pnpgen"
    (pkg / "faces").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "faces" / "t.svg.j2").write_text("<svg/>\n")
    machine = str(tmp_path / "machine")
    first = _stamp(monkeypatch, pkg, machine)
    assert first == _stamp(monkeypatch, pkg, "off")  # the same as worked out from the bytes
    assert len(os.listdir(tmp_path / "machine" / "code")) == 1  # kept
    reads = []
    real = type(pkg).read_bytes
    monkeypatch.setattr(type(pkg), "read_bytes", lambda self: reads.append(self) or real(self))
    assert _stamp(monkeypatch, pkg, machine) == first
    assert not [p for p in reads if pkg in p.parents]  # taken from the machine's cache: no file of pnpgen read
    before = (pkg / "a.py").stat().st_mtime_ns
    (pkg / "a.py").write_text("x = 2\n")  # the same size
    os.utime(pkg / "a.py", ns=(before + 10**9, before + 10**9))  # a later time (as an editor saves it)
    edited = _stamp(monkeypatch, pkg, machine)
    assert edited != first and edited == _stamp(monkeypatch, pkg, "off")
