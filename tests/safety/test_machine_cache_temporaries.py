"""A write to the machine's cache (usercache.py) killed midway leaves its temporary,
``.<entry>.<pid>``: a run that writes there (the first in an hour) removes it once it can prove the write dead
(its process gone, or the file older than hours), never a running process's, nothing else."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from conftest import FEW_CARDS, REPO, make_workspace, run

ENTRY = "0123456789abcdef0123456789abcdef01234567"  # an entry's name: usercache.key's 40 hex digits

# A process killed (SIGKILL: no handler, no finally) halfway through writing an entry, as put writes one.
KILLED_WRITE = f"""\
import os, signal, sys
sys.path.insert(0, {str(REPO / "generator")!r})
from pnpgen import usercache
where = usercache.folder("yaml")
where.mkdir(parents=True, exist_ok=True)
with open(where / f".{ENTRY}.{{os.getpid()}}", "wb") as f:
    f.write(b"half an entry")
    f.flush()
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_temporaries_of_killed_writes_are_removed_and_a_running_writers_kept(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("PNPGEN_CACHE", str(cache))
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE], env=dict(os.environ, PNPGEN_CACHE=str(cache)),
                            timeout=60)
    assert killed.returncode == -9
    yaml = cache / "yaml"
    [dead] = yaml.iterdir()  # what the kill left
    writer = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        running = yaml / f".{ENTRY[::-1]}.{writer.pid}"  # a write still going on
        running.write_bytes(b"being written")
        old = yaml / f".{ENTRY[1:]}0.{writer.pid}"  # its pid is running, but the file is seven hours old:
        old.write_bytes(b"left long ago")  # written by a dead process whose pid another one has now
        seven_hours_ago = time.time() - 7 * 3600
        os.utime(old, (seven_hours_ago, seven_hours_ago))
        secret = cache / f".secret.{dead.name.rsplit('.', 1)[1]}"  # the machine key's, by the same dead process
        secret.write_bytes(b"half a key")
        from pnpgen import usercache

        (cache / usercache.TAG).write_bytes(usercache.TAG_TEXT)  # pnpgen's own (its first write marks it): files
        # put in it since do not make it a stranger's
        mine = [yaml / f".{ENTRY}.notes", yaml / "notes.txt", cache / ".secret.txt"]  # not pnpgen's temporaries
        for path in mine:
            path.write_bytes(b"mine")
        ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # reads the deck: writes in yaml/
        assert not dead.exists() and not old.exists() and not secret.exists()
        assert running.read_bytes() == b"being written"
        assert all(path.read_bytes() == b"mine" for path in mine)
    finally:
        writer.communicate(b"")


def test_a_machine_cache_below_a_file_is_no_cache_not_a_traceback(tmp_path, monkeypatch, capsys):
    """XDG_CACHE_HOME (or PNPGEN_CACHE) naming a file: the machine key's temporary could not be
    removed (NotADirectoryError) and every command ended in a traceback. It builds without a
    machine cache, as README says of a machine cache that cannot be written."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (tmp_path / "a-file").write_bytes(b"not a folder")
    for variable in ("XDG_CACHE_HOME", "PNPGEN_CACHE"):
        monkeypatch.delenv("PNPGEN_CACHE", raising=False)
        monkeypatch.setenv(variable, str(tmp_path / "a-file"))
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / variable)) == 0, \
            capsys.readouterr().err
        assert (tmp_path / variable / "test" / "cards.pdf").is_file()
    assert (tmp_path / "a-file").read_bytes() == b"not a folder"


def test_a_kinds_folder_is_listed_for_dead_writes_once_an_hour_not_by_every_run(tmp_path, monkeypatch):
    """A kind's folder holds an entry for every text read since (20,000 on a designer's machine
    after months of edits): each run listed it whole to find dead writes' temporaries. It is
    listed when its stamp says no run did within the hour; a dead write's temporary goes then."""
    from pnpgen import usercache

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(usercache, "_SWEPT", set())
    usercache.put("yaml", ENTRY, [1])  # the first run: swept, stamped
    yaml = tmp_path / "cache" / "yaml"
    assert (yaml.parent / f"{usercache.SWEPT}-yaml").is_file() and (yaml.parent / usercache.SWEPT).is_file()
    assert sorted(p.name for p in yaml.iterdir()) == [ENTRY]  # (the folder holds its entries alone)
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = yaml / f".{ENTRY[::-1]}.{int(ended.stdout)}"  # a write whose process is gone
    dead.write_bytes(b"half an entry")
    listed = []
    scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: listed.append(path) or scandir(path))
    monkeypatch.setattr(usercache, "_SWEPT", set())  # another run, within the hour
    usercache.put("yaml", ENTRY[1:] + "0", [2])
    assert listed == [] and dead.exists()
    two_hours_ago = time.time() - 2 * 3600
    for stamp in (f"{usercache.SWEPT}-yaml", usercache.SWEPT):
        os.utime(yaml.parent / stamp, (two_hours_ago, two_hours_ago))
    monkeypatch.setattr(usercache, "_SWEPT", set())  # a run an hour later
    usercache.put("yaml", ENTRY[2:] + "00", [3])
    assert not dead.exists() and len(listed) == 2
    assert usercache.get("yaml", ENTRY[2:] + "00") == [3]


def test_an_entry_no_run_has_read_for_months_goes_one_read_stays(tmp_path, monkeypatch):
    """The machine cache only grew: an entry for every deck text ever read (379 MB, 19,543 YAML
    entries after a day of big-deck edits). A sweep removes entries no run has read for
    UNUSED_SECONDS; ``get`` marks an entry it reads (once a day), so what is in use stays; the
    calibration sheets' record (what pnpgen wrote, not made again) is never forgotten."""
    from pnpgen import usercache

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(usercache, "_SWEPT", set())
    old, used, fresh = ENTRY, ENTRY[1:] + "0", ENTRY[2:] + "00"
    for kind in ("yaml", "calibration"):
        for name in (old, used):
            usercache.put(kind, name, [name])
    months_ago = time.time() - usercache.UNUSED_SECONDS - 86400
    cache = tmp_path / "cache"
    for kind in ("yaml", "calibration"):
        for name in (old, used):
            os.utime(cache / kind / name, (months_ago, months_ago))
    assert usercache.get("yaml", used) == [used]  # read: marked used
    assert (cache / "yaml" / used).stat().st_mtime > months_ago + 86400
    for stamp in (f"{usercache.SWEPT}-yaml", f"{usercache.SWEPT}-calibration", usercache.SWEPT):
        os.utime(cache / stamp, (months_ago, months_ago))
    monkeypatch.setattr(usercache, "_SWEPT", set())  # a later run that writes: sweeps
    usercache.put("yaml", fresh, [3])
    usercache.put("calibration", fresh, [3])
    assert sorted(p.name for p in (cache / "yaml").iterdir()) == sorted([used, fresh])
    assert sorted(p.name for p in (cache / "calibration").iterdir()) == sorted([old, used, fresh])
    assert usercache.get("yaml", old) is None and usercache.get("yaml", used) == [used]


def test_a_write_stopped_by_a_signal_leaves_no_temporary(tmp_path, monkeypatch):
    """Ctrl-C or SIGTERM (a KeyboardInterrupt, cli.py) as an entry is renamed into place: its
    temporary stayed until a sweep an hour later proved its process gone; it goes at once, as on
    a full disk."""
    from pnpgen import usercache

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))

    def stopped(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(usercache.os, "replace", stopped)
    try:
        usercache.put("yaml", ENTRY, {"a": 1})
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the signal was swallowed")
    assert [p.name for p in (tmp_path / "cache" / "yaml").iterdir()] == []
