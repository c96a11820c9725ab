"""``pnpgen export``'s files written: the export made in memory (exports/export.py), then written
with the record of what it wrote as one transaction over the output folder
(engine/transaction.py), removing what the last export of the preset wrote and this one did not."""

from __future__ import annotations

import json
from pathlib import Path

from pnpgen.engine.output import build_lock, inside, mark
from pnpgen.engine.transaction import commit, recover
from pnpgen.exports.export import RECORD, ExportResult


def write_export(result: ExportResult) -> list[Path]:
    """Write every file and the record of them, and remove what the last export wrote and this
    one did not, as one transaction over the output folder (engine/transaction.py)."""
    out = result.out_dir
    root = out.parent.parent
    record = out / RECORD
    left_out = [{"deck": o.deck.id, "name": o.deck.name, "why": o.why, "taken_by": list(o.takers)}
                for o in result.left_out]
    text = json.dumps({"game": result.game.slug, "files": sorted(result.files), "warnings": result.warnings,
                       "left_out": left_out, "black": result.black}, ensure_ascii=False, indent=2) + "\n"
    files = {out / rel: data for rel, data in sorted(result.files.items())}
    files[record] = text.encode("utf-8")
    with build_lock(root):
        recover(root)
        before: list[str] = []
        if record.is_file():
            try:
                before = json.loads(record.read_text(encoding="utf-8")).get("files", [])
            except (ValueError, AttributeError):
                before = []
        stale = [path for name in before if isinstance(name, str) and name not in result.files
                 and "/" not in name and name != RECORD and (path := inside(out, name)) is not None]
        commit(root, files | mark(root), stale)
    return sorted(files)
