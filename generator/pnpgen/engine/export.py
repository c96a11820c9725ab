"""``pnpgen export``'s files written: the export made in memory (exports/export.py), then on
disk all-or-nothing, with the record of what it wrote."""

from __future__ import annotations

import json
from pathlib import Path

from pnpgen.engine.output import atomic_write_bytes
from pnpgen.exports.export import RECORD, ExportResult


def write_export(result: ExportResult) -> list[Path]:
    """Write every file atomically, then the record of them; remove what the last export wrote
    and this one did not."""
    out = result.out_dir
    record = out / RECORD
    before: list[str] = []
    if record.is_file():
        try:
            before = json.loads(record.read_text(encoding="utf-8")).get("files", [])
        except (ValueError, AttributeError):
            before = []
    written = []
    for rel, data in sorted(result.files.items()):
        atomic_write_bytes(out / rel, data)
        written.append(out / rel)
    stale = [name for name in before if name not in result.files and "/" not in name and name != RECORD]
    for name in stale:
        (out / name).unlink(missing_ok=True)
    left_out = [{"deck": o.deck.id, "name": o.deck.name, "why": o.why, "taken_by": list(o.takers)}
                for o in result.left_out]
    text = json.dumps({"game": result.game.slug, "files": sorted(result.files), "warnings": result.warnings,
                       "left_out": left_out, "black": result.black}, ensure_ascii=False, indent=2) + "\n"
    atomic_write_bytes(record, text.encode("utf-8"))
    return written + [record]
