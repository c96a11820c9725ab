"""Files too big to read on every run (fonts, large art) are known by a stamp, not their bytes. A
same-size file put in place of one with its modification time restored (``cp -p``, ``touch -r``,
an unzip) kept size and time, and the build said ``up to date`` over the old font's output; the
stamp holds the change time and inode too, which no tool puts back."""

from __future__ import annotations

import os
import random
import shutil

from conftest import REPO, run


def test_a_big_file_replaced_at_the_same_size_and_time_is_seen(built_workspace, capsys):
    fonts = built_workspace / "fonts"
    fonts.unlink()
    fonts.mkdir()
    for name in ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"):
        shutil.copy(REPO / "fonts" / name, fonts / name)
    spare = fonts / "Spare.ttf"  # a font the game does not name: its inputs all the same
    spare.write_bytes(random.Random(1).randbytes(1_500_000))
    args = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
    assert run(built_workspace, *args) == 0
    assert run(built_workspace, *args) == 0
    assert "test: up to date" in capsys.readouterr().out  # (it is up to date when nothing changed)
    st = spare.stat()
    other = fonts / "other.tmp"
    other.write_bytes(random.Random(2).randbytes(1_500_000))
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    other.replace(spare)
    assert (spare.stat().st_size, spare.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    assert run(built_workspace, *args) == 0
    assert "up to date" not in capsys.readouterr().out
