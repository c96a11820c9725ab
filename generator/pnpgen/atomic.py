"""Writing one file so that a reader (or a killed run) never finds it half-written: the bytes go
to a temporary file beside it, which then replaces it. The one place the temporary files' suffix
is named: the engine removes files with it that a killed run left (engine/output.py)."""

from __future__ import annotations

import os
from pathlib import Path

TMP_SUFFIX = ".pnpgen-tmp"


def store(path: Path, data: bytes) -> bool:
    """``data`` written to ``path`` atomically; False when the folder cannot take it (nothing
    is left behind then)."""
    tmp = path.with_name(path.name + TMP_SUFFIX)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return False
