"""README.md as this pnpgen has it (``pnpgen docs readme``). Apart from resources.py because a
wheel's copy is read from the package's metadata, and ``importlib.metadata`` (with the email
package it parses that with: some 7 ms) is what no other command needs: only ``docs`` imports
this module."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from pnpgen import resources


def readme() -> tuple[Path | None, str]:
    """README.md — its file in a source checkout; in a wheel, which carries it only as the
    package's description (its METADATA), no file and its text from there."""
    checkout = resources.checkout()
    page = checkout / "README.md"
    if page.is_file() and (checkout / "generator" / "pnpgen").is_dir():
        return page, page.read_text(encoding="utf-8")
    return None, str(metadata.metadata("pnpgen").json.get("description", ""))
