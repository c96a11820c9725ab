"""One error type for bad input, so the CLI can print it plainly and exit 2."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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
        where = ""
        if self.path is not None:
            where = str(self.path)
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        key = f"{self.key}: " if self.key else ""
        hint = f" (expected {self.expected})" if self.expected else ""
        return f"{where}{key}{self.message}{hint}"
