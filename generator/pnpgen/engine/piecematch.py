"""Pieces of a deck matched between two builds: which card of the last build each card of this one
is (the same number and name, renamed, moved, renamed and edited, only recounted), so the change
report, the reprint and ``pnpgen diff`` speak of one card, not of one added and another removed."""

from __future__ import annotations

import json
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from typing import Any

from pnpgen.data.i18n import is_language


def in_deck_order(pieces: dict[str, Any]) -> dict[str, Any]:
    """A deck's pieces by their number in the deck (a label is ``<number>:<name>``), not as a
    state or history entry read back keeps its keys (1, 10, 100, 101, …, 2)."""
    def number(label: str) -> tuple[int, str]:
        head = label.split(":", 1)[0]
        return (int(head) if head.isdigit() and len(head) < 10 else 1 << 40, label)

    return dict(sorted(pieces.items(), key=lambda item: number(item[0])))


NEAREST_AMONG = 200  # pieces without names left over, above which they pair in order (each compared with each)



def matched(old: dict[str, Any], new: dict[str, Any], old_values: dict[str, Any] | None = None,
            new_values: dict[str, Any] | None = None) -> dict[str, str]:
    """Each new piece's label → the label of the old piece it is: the same number and name, else
    the next old piece of its name left over, so a piece deleted or added in the middle of a deck
    does not make every piece after it "new" and "removed" (its number moved, not the piece);
    else, given the pieces' field values, the old piece left over at its number when its name is
    all that changed, in any of its languages (a typo fixed in a title, or in title and title.en, is
    that piece edited, not one piece removed and another added; a new piece in a removed one's
    place, other text and count, stays new). The
    pieces without names, and those of a name several share, pair by their values (``_nearest``)."""
    old, new = in_deck_order(old), in_deck_order(new)  # a state read back holds them as JSON sorts them
    # a piece named by its place alone (``#6``: no name field), or by a name others share (six
    # ラウンド tokens), is that piece only while it holds its values: the one after a deleted one
    # takes its number, not its place in the deck
    kind_of = {label: label_kind(label) for label in (*old, *new)}
    by_values = _told_by_values(old, new, kind_of)
    moved = {label for label in new if kind_of[label] in by_values and old_values is not None and new_values is not None
             and old_values.get(label) != new_values.get(label)}
    out = {label: label for label in new if label in old and label not in moved}
    left: defaultdict[str, deque[str]] = defaultdict(deque)
    paired = set(out.values())
    for label in old:
        if label not in paired:
            left[kind_of[label]].append(label)
    if old_values is not None and new_values is not None:
        # of the old pieces of its name left over, the one holding its values, if one does (the
        # second 月 of a word deck whose first was deleted is that one, not the first, edited);
        # found by the values' text, not each compared with each (3,000 cards without names)
        holding: defaultdict[tuple[str, str], deque[str]] = defaultdict(deque)
        for kind, labels in left.items():
            for o in labels:
                holding[kind, _values_key(old_values.get(o))].append(o)
        for label in new:
            same = holding.get((kind_of[label], _values_key(new_values.get(label)))) if label not in out else None
            if same:
                out[label] = same.popleft()
        paired = set(out.values())
        for kind in left:
            left[kind] = deque(o for o in left[kind] if o not in paired)
    nearest: set[str] = set()
    unpaired: defaultdict[str, list[str]] = defaultdict(list)  # the new pieces left, by kind
    for label in new:
        if label not in out:
            unpaired[kind_of[label]].append(label)
    for kind in by_values if old_values is not None and new_values is not None else ():
        if not 0 < len(left[kind]) <= NEAREST_AMONG:
            continue
        # the pieces without names (or of a shared name) left over pair by their values, the
        # nearest first (a card deleted and a later one edited in one save: that one edited, not
        # the deleted one in its place); one with no value in common with any is new
        nearest.add(kind)
        paired_now = _nearest(unpaired[kind], list(left[kind]), old_values or {}, new_values or {})
        out.update(paired_now)
        left[kind] = deque(o for o in left[kind] if o not in set(paired_now.values()))
    for label in new:
        if label not in out and left[kind_of[label]] and kind_of[label] not in nearest:
            out[label] = left[kind_of[label]].popleft()
    if old_values is None or new_values is None:
        return out
    taken = set(out.values())
    at = {label_number(label): label for label in old if label not in taken}
    for label in new:
        was = at.get(label_number(label))
        if label in out or was is None:
            continue
        ov, nv = old_values.get(was) or {}, new_values.get(label) or {}
        differ = [f for f in {*ov, *nv} if ov.get(f) != nv.get(f)]
        if (one_field(differ) and old[was][:1] == new[label][:1]) or (not differ and (nameless(was) or nameless(label))):
            # the name's field alone (at the same count), in any of the game's languages; or no
            # field at all: a deck's sole piece without a name, named after its deck, is the #1 it
            # was (and is #1 once another is added)
            out[label] = at.pop(label_number(label))
    out.update(_renamed_elsewhere(old, new, old_values, new_values, out))
    out.update(_renamed_and_edited(old, new, old_values, new_values, out))
    return out



EDITED_FIELDS = 2  # fields besides each other, at most, a piece renamed and edited at once differs in



def _renamed_and_edited(old: dict[str, Any], new: dict[str, Any], old_values: dict[str, Any],
                        new_values: dict[str, Any], out: dict[str, str]) -> dict[str, str]:
    """The one named piece left over of each build, one piece renamed and edited in one version (a
    trial of session 47: a card renamed and its cost changed read as one card added and another
    removed): paired when they are at the same place in the deck and count, differ in at most
    ``EDITED_FIELDS`` fields (a field and its other languages one) and agree in at least as many,
    two or more. Two pieces left on either side, or a deck of names and texts alone (a card
    deleted and another added in its place, both fields new), pair none: merely alike."""
    taken = set(out.values())
    left_old = [o for o in old if o not in taken and not nameless(o)]
    left_new = [n for n in new if n not in out and not nameless(n)]
    if len(left_old) != 1 or len(left_new) != 1:
        return {}
    (was,), (label,) = left_old, left_new
    if label_number(was) != label_number(label) or old[was][:1] != new[label][:1]:
        return {}
    ov, nv = old_values.get(was) or {}, new_values.get(label) or {}
    fields = {_base_field(f) for f in {*ov, *nv}}
    differ = {_base_field(f) for f in {*ov, *nv} if ov.get(f) != nv.get(f)}
    same = {f for f in fields - differ if ov.get(f) not in (None, "", [], {})}
    return {label: was} if differ and len(differ) <= EDITED_FIELDS and len(same) >= max(2, len(differ)) else {}



def _base_field(field: str) -> str:
    """``title.en`` → ``title``: a field's text in another language is that field."""
    base, _, lang = field.rpartition(".")
    return base if base and is_language(lang) else field



def _renamed_elsewhere(old: dict[str, Any], new: dict[str, Any], old_values: dict[str, Any],
                       new_values: dict[str, Any], out: dict[str, str]) -> dict[str, str]:
    """The named pieces left over that are one piece renamed at another number: a card renamed in
    one version and a card added above it in a later one (``pnpgen diff`` and ``reprint --since``
    across both: trial75's suit 油揚 renamed 稲荷, then 雨の十 inserted, told nine 稲荷 cards added and
    nine 油揚 cards removed). An old and a new piece pair when each is the other's only one holding
    all its other values, at least one, alike (one field differing, its languages with it, at the
    same count): a deck of names alone, or of cards alike but for their names, pairs none."""
    taken = set(out.values())
    left_old = [o for o in old if o not in taken and not nameless(o)]
    left_new = [n for n in new if n not in out and not nameless(n)]
    if not left_old or not left_new:
        return {}
    holding: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
    for o in left_old:
        for key in _all_but_one(old_values.get(o) or {}):
            holding[key].append(o)
    claims: dict[str, set[str]] = {}
    claimed: Counter[str] = Counter()
    for label in left_new:
        found = {o for key in _all_but_one(new_values.get(label) or {}) for o in holding.get(key, ())}
        claims[label] = found
        claimed.update(found)
    paired: dict[str, str] = {}
    for label, found in claims.items():
        if len(found) != 1:
            continue
        (was,) = found
        ov, nv = old_values.get(was) or {}, new_values.get(label) or {}
        differ = [f for f in {*ov, *nv} if ov.get(f) != nv.get(f)]
        if claimed[was] == 1 and one_field(differ) and old[was][:1] == new[label][:1]:
            paired[label] = was
    return paired



def _all_but_one(values: dict[str, Any]) -> list[tuple[str, str]]:
    """A piece's values with one field left out (and its texts in other languages), for each of its
    fields: what two pieces that differ in that field alone share; none left, no key."""
    keys = []
    for field in values:
        if "." in field and is_language(field.rsplit(".", 1)[1]):
            continue
        rest = {f: v for f, v in values.items() if f != field and not (f.startswith(field + ".") and is_language(f[len(field) + 1:]))}
        if any(v not in (None, "", [], {}) for v in rest.values()):
            keys.append((field, _values_key(rest)))
    return keys



def one_field(fields: list[str]) -> bool:
    """Are ``fields`` one field, with its texts in the game's other languages (``title`` and
    ``title.en``: a card renamed in both languages of its game is that card renamed)?"""
    if not fields:
        return False
    field = min(fields, key=len)
    return all(f == field or (f.startswith(field + ".") and is_language(f[len(field) + 1:])) for f in fields)



def _told_by_values(old: dict[str, Any], new: dict[str, Any], kind_of: dict[str, str]) -> set[str]:
    """The kinds of piece whose number and name do not tell one piece: the nameless ("#") and
    each name more than one piece holds, in either build (``kind_of``: each label's ``label_kind``)."""
    shared = Counter(kind_of[label] for label in old) | Counter(kind_of[label] for label in new)
    return {"#"} | {kind for kind, n in shared.items() if n > 1}



def _nearest(new: list[str], old: list[str], old_values: dict[str, Any], new_values: dict[str, Any]) -> dict[str, str]:
    """Each of ``new`` → the one of ``old`` its values are nearest, the nearest pairs first (of
    equals, the nearest in the deck); none for one with no value in common with any left."""
    near = sorted((unlike, abs(int(label_number(label)) - int(label_number(o))), i, j)
                  for i, label in enumerate(new) for j, o in enumerate(old)
                  for unlike, fields in [_unlike(old_values.get(o, {}), new_values.get(label, {}))] if unlike < fields)
    out: dict[str, str] = {}
    taken: set[str] = set()
    for _unlike_count, _apart, i, j in near:
        if new[i] not in out and old[j] not in taken:
            out[new[i]] = old[j]
            taken.add(old[j])
    return out



def _values_key(values: Any) -> str:
    """A piece's values as one text, to find the pieces holding the same ones."""
    return json.dumps(values, sort_keys=True, ensure_ascii=False, default=str)



def _unlike(was: dict[str, Any], now: dict[str, Any]) -> tuple[int, int]:
    """How many of two pieces' fields differ, of how many."""
    fields = {*was, *now}
    return sum(was.get(f) != now.get(f) for f in fields), len(fields)



@dataclass
class DeckMatch:
    """A deck's pieces matched between two records (``old``, ``new``: the objects matched): each new
    label's old one (``was``, ``matched``) and the pieces whose copies were only added or taken out
    (``recounted``, new labels, ``copies_only``). Made once for the change report and kept for the
    reprint files, which match the same two records (each matched them again: 0.04 CPU-s of a
    3,000-card edit, docs3k)."""

    old: dict[str, Any]
    new: dict[str, Any]
    was: dict[str, str]
    recounted: set[str]



def match_pieces(old: dict[str, Any], new: dict[str, Any]) -> DeckMatch:
    """``old`` and ``new`` (a deck's change-report records) matched piece by piece."""
    was = matched(old.get("pieces", {}), new["pieces"], old.get("values", {}), new.get("values", {}))  # new label → old label
    return DeckMatch(old, new, was, copies_only(old, new, was))



def copies_only(old: dict[str, Any], new: dict[str, Any], was: dict[str, str]) -> set[str]:
    """The pieces (new labels; ``was``: new label → old) whose copies were only added or taken
    out, each other copy's faces as they were: a template that numbers its copies draws each
    apart, and one fewer is no face edited. A piece whose copies are all as they were is not one
    (the changelog's 'every face changed' counts it among the pieces whose faces stayed)."""
    old_copies, new_copies = _copies(old), _copies(new)
    out: set[str] = set()
    for label, o in was.items():
        was_copies, now_copies = old_copies.get(o), new_copies.get(label)
        if not was_copies or not now_copies or was_copies == now_copies:  # (most pieces: one compare, no count made)
            continue
        before, now = Counter(was_copies), Counter(now_copies)
        if before != now and (not now - before or not before - now):
            out.add(label)
    return out



def _copies(deck: dict[str, Any]) -> dict[str, dict[tuple, int]]:
    """Per piece, its copies by the faces (and pictures) they print: plain dicts, a ``Counter``
    made only for a piece whose copies differ (3,000 pieces a side: 6,000 ``Counter``s before)."""
    out: defaultdict[str, dict[tuple, int]] = defaultdict(dict)
    for front, back, n, label, *art in deck.get("pairs", []):
        copies = out[label]
        key = (front, back, *art)
        copies[key] = copies.get(key, 0) + n
    return out



def label_number(label: str) -> str:
    """``3:祝福`` → ``3``: the piece's place in its deck."""
    return label.split(":", 1)[0]



def nameless(label: str) -> bool:
    """``6:#6``: a piece of a deck without a name field, named by its place in the deck."""
    number, _, name = label.partition(":")
    return number.isdigit() and len(number) < 10 and name == f"#{number}"



def label_kind(label: str) -> str:
    """What pairs an old piece with a new one before their values do: its name; the pieces named
    by their place alone are one kind (``#6`` of the last build may be ``#5`` now)."""
    return "#" if nameless(label) else label_name(label)



def label_name(label: str) -> str:
    """``3:祝福`` → ``祝福``: the piece's number keeps labels unique, the name is what the designer reads."""
    return label.split(":", 1)[1] if ":" in label else label

