"""One error type for bad input, so the CLI can print it plainly and exit 2."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


def place(path: Path | str, line: int | None = None, column: int | None = None) -> str:
    """``path:line:column`` as editors and terminals link it; line and column when known."""
    s = str(path)
    if line is not None:
        s += f":{line}"
        if column is not None:
            s += f":{column}"
    return s


@dataclass
class InputError(Exception):
    """Bad designer input: where it is, what is wrong, and what would be right."""

    message: str
    path: Path | str | None = None
    line: int | None = None
    column: int | None = None
    key: str | None = None
    expected: str | None = None

    def __str__(self) -> str:
        where = f"{place(self.path, self.line, self.column)}: " if self.path is not None else ""
        key = f"{self.key}: " if self.key else ""
        hint = f" (expected {self.expected})" if self.expected else ""
        return f"{where}{key}{self.message}{hint}"


def suggest(word: str, choices: Iterable[str]) -> str:
    """``; did you mean X?`` for a near miss of one of ``choices`` (difflib, case-insensitive),
    else nothing: for a mistyped command, option, game or deck."""
    import difflib

    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f"; did you mean {by_lower[close[0]]}?" if close else ""
