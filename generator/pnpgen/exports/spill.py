"""An export's big encoded files out of memory as they are made: a big export's files (a 3,000-card
Tabletop Simulator export's 44 deck sheets and 7 contact sheets, 396 MB of PNG) were all held in
memory until its commit writes them together (all or nothing: engine/export.py), so its peak held
every byte of them beside the faces (1,031 MB). Past ``SPILL_AFTER`` bytes held, each file of at
least ``SPILL_SMALLEST`` is written, as soon as it is encoded, into a folder of this process's own
in the system's temporary folder, and held as a ``PdfFile`` of its stored bytes, which the commit
copies into its staging folder as it does a build's documents (engine/transaction.py). The files
are the same bytes; a small export (the four games' sheets) never writes one. The folder goes when
the export has committed or failed (``close``), or, left by an export killed outright, with the
next one's (scratch.py: marked pnpgen's and its process's); where it cannot be made, the files stay in memory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile

from pnpgen.pdf.assemble import PdfFile, Stored, stat_stamp
from pnpgen.scratch import own_folder

# bytes of encoded files held in memory before the next big one is written out: 8 MB, above the four
# games' exports (1–7 MB), which never write one (32 MB held took a 3,000-card export's sheets' stage
# from 345 to 394 MB)
SPILL_AFTER = 8 << 20
SPILL_SMALLEST = 256 << 10  # a file smaller than this stays in memory (a card's PNG, the JSON)


class Spill:
    """The export's files past ``after`` bytes held, each written out as made (``keep``)."""

    def __init__(self, after: int = SPILL_AFTER, smallest: int = SPILL_SMALLEST) -> None:
        self.after, self.smallest = after, smallest
        self.held = 0  # bytes of files kept in memory so far
        self.written = 0  # files written out
        self._folder: str | None = None
        self._refused = False  # no folder could be made: every file stays in memory

    def keep(self, data: bytes) -> bytes | PdfFile:
        """``data``, an encoded file, as the export holds it: itself, or its bytes written out."""
        if len(data) < self.smallest or self.held + len(data) <= self.after or self._refused:
            self.held += len(data)
            return data
        try:
            if self._folder is None:
                self._folder = str(own_folder("pnpgen-export-"))
            fd, path = tempfile.mkstemp(dir=self._folder)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                stamp = stat_stamp(os.fstat(f.fileno()))
        except OSError:  # (no temporary folder to write to: held, as every file was before)
            self._refused = True
            self.held += len(data)
            return data
        self.written += 1
        digest = hashlib.sha256(data).hexdigest()
        return PdfFile((Stored(path, len(data), 0, stamp, digest),), _sha=digest)

    def close(self) -> None:
        """Remove the folder and the files written out (once committed, or the export failed)."""
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
