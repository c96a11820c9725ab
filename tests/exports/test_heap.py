"""exports/heap.py: the export command fixes glibc's mmap threshold, so a large picture's memory
is a map of its own, given back when freed, however many were freed before (glibc's own rule
raises the threshold past Pillow's 16 MB blocks after the first, and keeps the rest in its heap)."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import ctypes, sys
from pnpgen.exports.heap import large_blocks_mapped
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
said = large_blocks_mapped() if sys.argv[1] == "set" else None
SIZE = 16 << 20  # one of Pillow's image blocks
libc.free(libc.malloc(SIZE))  # a first picture freed: glibc raises its threshold past it
block = libc.malloc(SIZE)
mapped = libc.mallinfo2().hblkhd
libc.free(block)
print(said, mapped >= SIZE, libc.mallinfo2().fordblks < SIZE)
"""


def _probe(how: str) -> str:
    return subprocess.run([sys.executable, "-c", PROBE, how], capture_output=True, text=True, check=True).stdout.split()


@pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(__import__("os"), "confstr")
                    or "glibc" not in (__import__("os").confstr("CS_GNU_LIBC_VERSION") or ""), reason="glibc's malloc")
def test_a_large_block_after_one_freed_is_a_map_of_its_own_given_back():
    assert _probe("default") == ["None", "False", "False"]  # from the heap, kept there once freed
    assert _probe("set") == ["True", "True", "True"]
