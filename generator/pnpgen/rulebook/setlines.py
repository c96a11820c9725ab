"""The lines of a book's paragraphs and the cells of its lines (``paralines.paragraph_lines``,
``paralines.line_cells``) as the last setting of the same book worked them out, kept in the
machine's cache (usercache.py) and read back by the next: a build in a new process (the command
line, after a count or a card edited) sets the book without working them out again — some 0.15 s
of a 0.45 s setting of populous's book, on the path every such build waits for.

Both are functions of their arguments, the code that sets lines and the fonts' files alone, so
the entry's name holds those (``recall``): what it gives is what working them out gives. Only
the entries a setting used are kept, so an entry holds one book's lines, not every book's ever
set. A warm process (``watch``) has them in memory already (the functions' own lru caches)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnpgen import fonts as fontreg
from pnpgen import resources, usercache

KIND = "lines"
FORMAT = b"pnpgen-set-lines 1"


class SetLines:
    """What ``recall`` read for one book, and what its setting used (``kept``): one per setting,
    made by ``build_rulebook`` and handed to the story's paragraphs (``flowables.JPara``)."""

    def __init__(self) -> None:
        self.name: str | None = None  # the machine cache's entry of the book being set
        self.known: dict[tuple, Any] = {}
        self.used: dict[tuple, Any] = {}

    def __deepcopy__(self, memo: dict) -> SetLines:
        """The same setting: a paragraph copied to be measured (rulebook/story.py, a description
        beside its pictures) sets its lines in the book's one setting; copying the book's lines
        with it cost a watch save 0.1 s."""
        return self

    def recall(self, book: str, fonts: Iterable[str], last: dict | None = None) -> None:
        """Start setting ``book`` (its game, language and workspace, as text) in ``fonts``: the
        entries its last setting used, when the code and the font files are the ones it used.
        ``last``: what ``keep`` left there after this process's last setting (a warm process:
        ``watch``): the entries it used, when it set the same book, without reading the file back."""
        self.name = usercache.key(FORMAT, _code(), book.encode(), _font_files(fonts))
        if last is not None and last.get("name") == self.name:
            self.known = last["used"]
        else:
            kept = usercache.get(KIND, self.name)
            self.known = kept if isinstance(kept, dict) else {}
        self.used = {}

    def get(self, key: tuple, work_out: Callable[[], Any]) -> Any:
        """The value of ``key``: as recalled, else worked out (and used either way)."""
        value = self.known.get(key)
        if value is None:
            value = work_out()
        if self.name is not None:  # (between settings nothing is kept)
            self.used[key] = value
        return value

    def keep(self, last: dict | None = None) -> None:
        """Keep the entries this setting used, for the next (written only when they differ), and
        in ``last`` for this process's next setting (``recall``)."""
        if self.name is not None and self.used != self.known:
            usercache.put(KIND, self.name, self.used)
        if last is not None and self.name is not None:
            last.clear()
            last.update(name=self.name, used=self.used)
        self.name, self.known, self.used = None, {}, {}


def _font_files(names: Iterable[str]) -> bytes:
    """Each font by its file: its place, size, times and inode (another file under a name, another
    key, even one of the same size with its modification time set back: its change time and
    inode still differ)."""
    out = []
    for name in sorted(set(names)):
        try:
            path = fontreg.path_of(name)
            st = path.stat()
            out.append(f"{name}\t{path}\t" + "\t".join(map(str, usercache.file_stamp(st))))
        except (KeyError, OSError):
            out.append(f"{name}\t-")
    return "\n".join(out).encode()


@lru_cache(maxsize=1)
def _code() -> bytes:
    """The code that sets lines (the rulebook's and the text layout's modules) and the libraries
    it measures and hyphenates with, as installed: hashed once per process."""
    h = hashlib.sha256()
    for package in ("pnpgen.rulebook", "pnpgen.text"):
        for path in sorted(Path(resources.folder(package)).glob("*.py")):
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    h.update(usercache.installed("reportlab", "pyphen", "budoux"))
    return h.digest()

