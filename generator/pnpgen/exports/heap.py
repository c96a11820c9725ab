"""Large pictures' memory given back when freed, for an export that makes them (Tabletop Simulator's
sheets, 4090×4011 px, 66 MB each as Pillow holds them).

glibc's malloc serves a block of at least its mmap threshold (128 KB at first) from a map of its
own, unmapped when freed; but each such block freed raises the threshold to its size (up to 32 MB),
so after the first sheet Pillow's 16 MB blocks come from the heap, where freed memory stays with the
process: a 5,000-card export ended with 232 MB free in glibc's arenas (docs/speed-rounds.md, mem1). A
threshold set once (``mallopt(M_MMAP_THRESHOLD)``, what the variable ``MALLOC_MMAP_THRESHOLD_``
sets) is fixed: every block that size or more keeps its own map. It is a setting of the whole
process, so only the export command sets it (commands.py), in its own process, before it starts;
the build, the rulebook, watch and serve keep glibc's default. Elsewhere than glibc (macOS, musl)
it does nothing.
"""

from __future__ import annotations

import ctypes
import sys

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
# A block this size or more gets a map of its own: Pillow's image blocks (16 MB), not Python's
# small objects. A 5,000-card Tabletop Simulator export's peak (docs/speed-rounds.md, fixesF): glibc's
# default 721 MB (system time 7.4 s), 128 KB 565 MB (18.6 s: a map for every block of a sheet's
# rows), 1 MB 617 MB (10.9 s), 4 MB 614 MB (11.2 s); the same PNG bytes each way.
MMAP_THRESHOLD = 1 << 20


def _glibc(name: str):
    """glibc's function ``name`` (ctypes), or None where malloc is not glibc's (macOS, musl: whose
    ``mallopt`` is a stub) or has no such function."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 (glibc's own: asked only to tell glibc from musl)
        return getattr(libc, name)
    except (OSError, AttributeError):
        return None


def large_blocks_mapped(threshold: int = MMAP_THRESHOLD) -> bool:
    """Fix glibc's mmap threshold at ``threshold`` bytes for this process; whether it was set
    (False where malloc is not glibc's, or takes no such setting)."""
    mallopt = _glibc("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, threshold) == 1


def given_back() -> bool:
    """Give the heap's free memory back to the system (glibc's ``malloc_trim``): what converting
    the faces freed (the print-ready pictures kept among it: 325 → 233 MB at 3,000 illustrated
    cards, docs/speed.md exports51) stayed with the process, where a sheet's blocks, each mapped of its
    own (``large_blocks_mapped``), never reuse it. Whether it was given (False where malloc is not glibc's)."""
    trim = _glibc("malloc_trim")
    if trim is None:
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim(0) == 1
