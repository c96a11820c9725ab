"""The change report: what differs from the last good build, deck by deck, so the designer
knows which sheets to reprint (``epic: 80 → 82 (+2 祝福)``)."""

from __future__ import annotations

from functools import partial
from typing import Any

from pnpgen.engine.manifest import DeckRecord


def snapshot(records: list[DeckRecord]) -> dict[str, Any]:
    """What the next build compares against: per deck its count, sheets and pieces."""
    return {r.id: {"name": r.name, "count": r.count, "sheets": r.sheets, "pieces": r.pieces} for r in records}


def change_report(before: dict[str, Any] | None, records: list[DeckRecord]) -> list[str]:
    """One line per deck that changed since ``before`` (None: the first build)."""
    if before is None:
        return []
    now = snapshot(records)
    lines = []
    for deck_id, new in now.items():
        old = before.get(deck_id)
        if old is None:
            lines.append(f"{deck_id}: new deck, {new['count']} pieces, {new['sheets']} sheet(s)")
            continue
        details = []
        old_pieces, new_pieces = old.get("pieces", {}), new["pieces"]
        names = [_name(label) for label in {**old_pieces, **new_pieces}]
        _name_of = partial(_numbered, names=names)

        for label, (count, digest) in new_pieces.items():
            if label not in old_pieces:
                details.append(f"+{count} {_name_of(label)} (new)")
                continue
            old_count, old_digest = old_pieces[label]
            if count != old_count:
                details.append(f"{count - old_count:+d} {_name_of(label)}")
            elif digest != old_digest:
                details.append(f"{_name_of(label)} edited")
        details += [f"-{count} {_name_of(label)} (removed)" for label, (count, _) in old_pieces.items()
                    if label not in new_pieces]
        if not details:
            continue
        line = f"{deck_id}: {old['count']} → {new['count']} ({', '.join(details)})"
        if new["sheets"] != old["sheets"]:
            line += f", sheets {old['sheets']} → {new['sheets']}"
        else:
            line += f", {new['sheets']} sheet(s) to reprint"
        lines.append(line)
    lines += [f"{deck_id}: deck removed" for deck_id in before if deck_id not in now]
    return lines


def _numbered(label: str, names: list[str]) -> str:
    """A name several pieces share gets its piece number: ``タウン #3``."""
    name = _name(label)
    return f"{name} #{label.split(':', 1)[0]}" if names.count(name) > 1 else name


def _name(label: str) -> str:
    """``3:祝福`` → ``祝福``: the piece's number keeps labels unique, the name is what the designer reads."""
    return label.split(":", 1)[1] if ":" in label else label
