"""The change report: what differs from the last good build, deck by deck, so the designer
knows exactly which sheets to reprint and why
(``epic: 80 → 82 (+2 祝福); reprint epic.pdf: sheets 9 (pages 17–18)``)."""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnpgen.engine.game import BuildResult


def snapshot(result: BuildResult) -> dict[str, Any]:
    """What the next build (and the history) compares against, per deck: its count, sheets, home
    file and the signature of each of its pages, and per piece its count, face hashes (fronts,
    backs) and field values; the distinct front/back pairs printed and how many copies of each."""
    assert result.rendered is not None
    out: dict[str, Any] = {}
    for record, df in zip(result.records, result.rendered.decks, strict=True):
        pieces, values = {}, {}
        for p in df.deck.pieces:
            label = f"{p.index}:{p.label}"
            pieces[label] = [p.count, df.digests[p.index], *df.sides[p.index]]
            values[label] = plain_values(p.values)
        out[record.id] = {
            "name": record.name, "count": record.count, "sheets": record.sheets,
            "file": record.files[0] if record.files else None,
            "pages": result.home_pages.get(record.id, []),
            "pieces": pieces, "values": values,
            "pairs": [[pair.front, pair.back, pair.count, f"{pair.piece.index}:{pair.piece.label}"] for pair in df.pairs],
        }
    return out


def plain_values(values: dict[str, Any]) -> dict[str, Any]:
    """A piece's fields as JSON values (anything else as its text), for comparing builds."""
    return json.loads(json.dumps(values, ensure_ascii=False, default=str))


def change_report(before: dict[str, Any] | None, now: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """One line per deck that changed since ``before`` (None: the first build), and per deck what
    to reprint: the home file, its sheets and pages that differ, and why."""
    if before is None:
        return [], {}
    lines: list[str] = []
    reprint: dict[str, Any] = {}
    for deck_id, new in now.items():
        old = before.get(deck_id)
        if old is None:
            lines.append(f"{deck_id}: new deck, {new['count']} pieces, {new['sheets']} sheet(s)")
            continue
        details = reasons(old, new)
        pages = changed_pages(old.get("pages"), new["pages"])
        if not details and not pages:
            continue
        if not details:
            details = ["sheets changed"]
        line = f"{deck_id}: {old['count']} → {new['count']} ({', '.join(details)})"
        if new["sheets"] != old["sheets"]:
            line += f", sheets {old['sheets']} → {new['sheets']}"
        sheets = sorted({(p - 1) // _per_sheet(new) + 1 for p in pages})
        if new["file"] and pages:
            line += f"; reprint {new['file']}: sheets {spans(sheets)} (pages {spans(pages)})"
        elif new["file"]:
            line += f"; {new['file']}: no sheet to reprint (pieces to pull out only)"
        lines.append(line)
        reprint[deck_id] = {"file": new["file"], "sheets": sheets, "pages": pages, "why": details}
    lines += [f"{deck_id}: deck removed" for deck_id in before if deck_id not in now]
    return lines, reprint


def _per_sheet(deck: dict[str, Any]) -> int:
    """Pages per sheet of a deck's home file: 2 (fronts, backs) when it has more pages than sheets."""
    return 2 if deck["sheets"] and len(deck["pages"]) >= 2 * deck["sheets"] else 1


def changed_pages(old: list[str] | None, new: list[str]) -> list[int]:
    """Page numbers (1-based) of the new home file that differ from the old one's same page."""
    old = old or []
    return [n for n, sig in enumerate(new, 1) if n > len(old) or old[n - 1] != sig]


def spans(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` → ``1–3, 7``."""
    out: list[str] = []
    for n in numbers:
        if out and int(out[-1].split("–")[-1]) == n - 1:
            out[-1] = f"{out[-1].split('–')[0]}–{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def reasons(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Why a deck's sheets changed, in a designer's words: ``+2 祝福``, ``降臨: text``,
    ``back changed`` (once, when every piece's back changed: a new back design)."""
    details: list[str] = []
    old_pieces, new_pieces = old.get("pieces", {}), new["pieces"]
    old_values, new_values = old.get("values", {}), new.get("values", {})
    names = [_name(label) for label in {**old_pieces, **new_pieces}]
    name_of = partial(_numbered, names=names)
    both = [label for label in new_pieces if label in old_pieces]
    backs = [label for label in both if len(new_pieces[label]) > 3 and len(old_pieces[label]) > 3
             and new_pieces[label][3] and new_pieces[label][3] != old_pieces[label][3]]
    back_design = bool(backs) and len(backs) == len([b for b in both if new_pieces[b][3:4] != [""]])
    if back_design:
        details.append("back changed")
    for label, (count, digest, *sides) in new_pieces.items():
        if label not in old_pieces:
            details.append(f"+{count} {name_of(label)} (new)")
            continue
        old_count, old_digest, *old_sides = old_pieces[label]
        if count != old_count:
            details.append(f"{count - old_count:+d} {name_of(label)}")
        if digest == old_digest:
            continue
        front_changed = not sides or not old_sides or sides[0] != old_sides[0]
        what = [f for f in sorted({*new_values.get(label, {}), *old_values.get(label, {})})
                if new_values.get(label, {}).get(f) != old_values.get(label, {}).get(f)]
        if label in backs and not back_design:
            what.append("back")
        if what:
            details.append(f"{name_of(label)}: {', '.join(what)}")
        elif front_changed:
            details.append(f"{name_of(label)} edited")
    details += [f"-{count} {name_of(label)} (removed)" for label, (count, *_) in old_pieces.items()
                if label not in new_pieces]
    return details


def _numbered(label: str, names: list[str]) -> str:
    """A name several pieces share gets its piece number: ``タウン #3``."""
    name = _name(label)
    return f"{name} #{label.split(':', 1)[0]}" if names.count(name) > 1 else name


def _name(label: str) -> str:
    """``3:祝福`` → ``祝福``: the piece's number keeps labels unique, the name is what the designer reads."""
    return label.split(":", 1)[1] if ":" in label else label
