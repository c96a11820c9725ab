"""The changelog between two versions of the history (``pnpgen diff``): what changed, deck by
deck and in the rulebook's sections, as JSON and as Markdown for playtesters in the game's
language."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from pnpgen.data.i18n import LANGUAGE_CODE
from pnpgen.data.markup import plain
from pnpgen.data.telling import as_text
from pnpgen.engine.changes import (
    edited_alike,
    edited_alike_on,
    few_named,
    followed,
    font_changes,
    is_icon,
    numbered_name,
    option_changes,
    parked_said,
    parked_throughout,
    rearranged_only,
    regrounded,
    renamed,
    replaced_files,
    told_apart,
    translation_unrecorded,
)
from pnpgen.engine.history import Version, is_tag_name
from pnpgen.engine.piecematch import copies_only, in_deck_order, matched
from pnpgen.engine.recording import PREAMBLE, SETTINGS, compared
from pnpgen.messages import FALLBACK, msg
from pnpgen.safetext import quoted


def diff(a: Version, b: Version, named: dict[str, int] | None = None) -> dict[str, Any]:
    """What changed from ``a`` to ``b``, deck by deck: counts old → new, each changed field old →
    new, pieces added and removed; and the rulebook sections changed. ``named``: the tags (name →
    version number), each version's told with it, as the playtesters know the set printed."""
    named = named or {}
    decks: dict[str, Any] = {}
    lang = b.body.get("lang")  # the game's language, for the changelog's words (a version recorded before: English)
    if not (isinstance(lang, str) and LANGUAGE_CODE.fullmatch(lang)):  # an entry's, as a game.yaml's would be
        lang = FALLBACK
    was_deck = renamed(a.body["decks"], b.body["decks"])  # a deck file renamed: the deck it was
    for deck_id in [*b.body["decks"], *(d for d in a.body["decks"] if d not in b.body["decks"]
                                        and d not in was_deck.values())]:
        old = a.body["decks"].get(deck_id) or a.body["decks"].get(was_deck.get(deck_id, ""),
                                                                  {"count": 0, "pieces": {}, "values": {}})
        new = b.body["decks"].get(deck_id, {"count": 0, "pieces": {}, "values": {}, "name": old.get("name")})
        # in the deck's order (an entry keeps them in its keys' order: 1, 10, 100, 101, …, 2)
        old, new = {**old, "pieces": in_deck_order(old["pieces"])}, {**new, "pieces": in_deck_order(new["pieces"])}
        order = [*new.get("field_order", []), *old.get("field_order", [])]  # (none in an entry recorded before)
        old, new = {**old, "values": _in_field_order(old["values"], order)}, \
            {**new, "values": _in_field_order(new.get("values", {}), order)}
        # a field by the sheet's own header (攻撃 for atk), the newer version's, else the older's
        headers = {**(a.body.get("headers") or {}).get(deck_id, {}), **(b.body.get("headers") or {}).get(deck_id, {})}
        entry: dict[str, Any] = {"name": new.get("name") or old.get("name"), "count": [old["count"], new["count"]],
                                 "added": [], "removed": [], "counts": [], "fields": []}
        # the deck's options: edited (recorded since they are: none told against a version before)
        entry["options"] = [{"option": place, "old": was_, "new": now} for place, was_, now in option_changes(
            (a.body.get("options") or {}).get(was_deck.get(deck_id, deck_id)), (b.body.get("options") or {}).get(deck_id))]
        if deck_id in was_deck:
            entry["renamed_from"] = was_deck[deck_id]
        fonts = font_changes(a.body.get("fonts"), b.body.get("fonts"))  # (told where the deck's faces changed, below)
        # the pieces' size, recorded since it is (a tuck box resized by its deck's count, a new format)
        if old.get("size") and new.get("size") and old["size"] != new["size"] and old["pieces"] and new["pieces"]:
            entry["size"] = [old["size"], new["size"]]
            held = followed(old, new)  # a tuck box's net after its decks' count: which, and that count
            if held:
                entry["follows"] = {"decks": held[0], "old": held[1], "new": held[2]}
        was = matched(old["pieces"], new["pieces"], old["values"], new.get("values", {}))  # new label → old label
        shared = Counter(map(_name, old["pieces"])) | Counter(map(_name, new["pieces"]))  # pieces of a name, in either
        # two pieces of one name told apart: 彗星 #1, 彗星 #111; one of a deck without names by its
        # values (#11［green・2・6］), as reprint.txt names it
        # (each piece's file and line, where the versions record them: the one no value tells apart is named by it)
        at_before, at_now = ((v.body.get("places") or {}).get(deck) or {} for v, deck in
                             ((a, was_deck.get(deck_id, deck_id)), (b, deck_id)))
        told_before, told_now = told_apart(old["values"], new.get("values", {}), lang, was, (at_before, at_now))

        def name_of(label: str, told: dict[str, str] = told_now, names: Counter[str] = shared,
                    at: dict[str, str] = at_now) -> str:
            return told.get(label) or numbered_name(label, names, at.get(label))
        unrecorded = translation_unrecorded(old, new)
        unprinted = parked_throughout(old["pieces"], new["pieces"], was)  # (as the build's change line: none told)
        for label, (count, *_) in new["pieces"].items():
            if label not in was:
                if count:
                    entry["added"].append({"piece": name_of(label), "count": count})
                continue
            if label in unprinted:
                continue
            if old["pieces"][was[label]][0] != count:
                entry["counts"].append({"piece": name_of(label), "old": old["pieces"][was[label]][0], "new": count})
            ov, nv = old["values"].get(was[label], {}), new["values"].get(label, {})
            for f in [*nv, *(k for k in ov if k not in nv)]:
                if ov.get(f) != nv.get(f) and not unrecorded(f):
                    entry["fields"].append({"piece": name_of(label), "field": f, "old": ov.get(f), "new": nv.get(f),
                                            **({"header": headers[f]} if f in headers else {})})
        # a field every piece edited alike (the deck's defaults: edited): one line (the fields list each)
        printed = {label: o for label, o in was.items() if label not in unprinted}
        entry["every_piece"] = [{"field": f, "old": o, "new": n, "pieces": len(printed),
                                 **({"header": headers[f]} if f in headers else {})}
                                for f, o, n in edited_alike(printed, old["values"], new.get("values", {}), unrecorded)]
        # a field several pieces edited alike (a suit recoloured): one line naming them (the fields list each)
        entry["alike"] = [{"field": f, "old": o, "new": n, "pieces": [name_of(label) for label in on],
                           **({"header": headers[f]} if f in headers else {})}
                          for f, o, n, on in edited_alike_on(printed, old["values"], new.get("values", {}), unrecorded)]
        taken = set(was.values())
        entry["removed"] = [{"piece": name_of(label, told_before, at=at_before), "count": c} for label, (c, *_) in old["pieces"].items()
                            if label not in taken and c]
        recounted = copies_only(old, new, was)  # (a template numbering its copies: one fewer is no face changed)
        sides = {label: (old["pieces"][was[label]][2:4], new["pieces"][label][2:4]) for label in new["pieces"]
                 if label in was and label not in recounted and label not in unprinted}
        # the pictures its faces show (recorded since they are known: an older version has none),
        # a repaint only where the faces are the same ones (see changes.reasons)
        painted = {label for label, o in was.items() if label in sides and len(old["pieces"][o]) > 4 and len(new["pieces"][label]) > 4
                   and old["pieces"][o][4] != new["pieces"][label][4] and sides[label][0] == sides[label][1]}
        backs = [label for label, (o, n) in sides.items() if len(n) > 1 and n[1] and o[1:] != n[1:]]
        entry["back_changed"] = bool(backs) and len(backs) == len([b for b in was if new["pieces"][b][3:4] != [""]])
        redrawn = any(o != n for o, n in sides.values())
        entry["fonts"] = fonts if redrawn else []  # the fonts say why its faces and backs changed
        if entry["fonts"]:
            entry["back_changed"] = False
        edited = {f["piece"] for f in entry["fields"]}
        pictures: dict[str, list[str]] = {}  # an art file replaced → the pieces whose faces show it
        # (a piece whose fields or template changed too, its faces then not the same: its text or
        # template edited and its picture painted over, both told)
        for label in sides:
            for file in replaced_files(old, new, label, was[label]):
                pictures.setdefault(file, []).append(name_of(label))
        told = ({name_of(label) for label in painted | {label for label in sides if regrounded(old, new, label, was[label])}}
                & {name for shown in pictures.values() for name in shown}
                | {name for file, shown in pictures.items() if is_icon(file) for name in shown})  # (its icon redrawn says why)
        entry["pictures"] = [{"file": file, "pieces": shown} for file, shown in pictures.items()]
        entry["faces"] = [name_of(label) for label, (o, n) in sides.items()  # (a face at another size: the size says it)
                          if name_of(label) not in edited and name_of(label) not in told and "size" not in entry
                          and not entry["options"] and not entry["fonts"]
                          and (o[:1] != n[:1] or label in painted or (label in backs and not entry["back_changed"]))]
        # every piece of both versions redrawn (a font size of the layout): one line, not one a piece
        entry["every_face_changed"] = len(entry["faces"]) > 1 and len(entry["faces"]) == len(sides)
        # the same copies in another order (pieces moved in the deck file): the build says "order
        # changed; nothing to reprint", and so does the changelog (engine/changes.py)
        entry["order_changed"] = rearranged_only(old, new)
        if any(entry.get(k) for k in ("added", "removed", "counts", "fields", "faces", "pictures", "back_changed", "size",
                                      "renamed_from", "order_changed", "options", "fonts")) \
                or old["count"] != new["count"]:
            decks[deck_id] = entry
    ra, rb = a.body.get("rulebook", {}), b.body.get("rulebook", {})
    return {"game": b.body["game"], "lang": lang, "from": _about(a, named),
            "to": _about(b, named), "decks": decks,
            "rulebook": dict(zip(("changed", "added", "removed"), compared(ra, rb), strict=True))}


def _in_field_order(values: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """Each piece's values in the deck's order of its fields, as reprint.txt shows them (an entry
    stores them sorted: diff said an unnamed piece's #3［2・green］ for reprint's #3［green・2］); a
    field the order does not know after those it does, as stored."""
    rank = {f: i for i, f in enumerate(dict.fromkeys(order))}
    return {label: {f: v[f] for f in sorted(v, key=lambda f: rank.get(f, len(rank)))} if isinstance(v, dict) else v
            for label, v in values.items()}


def _about(v: Version, named: dict[str, int]) -> dict[str, Any]:
    return {"version": v.name, "tags": sorted(t for t, n in named.items() if n == v.number and is_tag_name(t)),
            "time": v.body["time"],
            "draft": v.body["draft"], "hash": v.hash, "written_here": v.here}


def _name(label: str) -> str:
    return label.split(":", 1)[1] if ":" in label else label


def markdown(d: dict[str, Any]) -> str:
    """The changelog for playtesters, in Markdown, in the game's language (messages/, ``diff.*``)."""
    lang = str(d.get("lang") or FALLBACK)

    def say(key: str, **args: object) -> str:
        return msg(f"diff.{key}", lang, **args)

    a, b = d["from"], d["to"]

    def named(v: dict[str, Any]) -> str:  # a tag the playtesters know the printed set by: playtest-1 (v3)
        return f"{', '.join(map(_md, v['tags']))} ({_md(v['version'])})" if v.get("tags") else _md(v["version"])
    out = [f"# {_md(d['game'])}: {named(a)} → {named(b)}", "",
           say("versions", a=_md(a["version"]), a_time=_md(a["time"]), a_draft=_md(a["draft"] or "-"),
               b=_md(b["version"]), b_time=_md(b["time"]), b_draft=_md(b["draft"] or "-")), ""]
    if not d["decks"] and not any(d["rulebook"].values()):
        out.append(say("nothing"))
    for deck_id, e in d["decks"].items():
        out += [f"## {_md(e['name'])} ({_md(deck_id)}): {e['count'][0]} → {e['count'][1]}", ""]
        out += _capped([*([say("renamed", old=_md(e["renamed_from"]), new=_md(deck_id))] if e.get("renamed_from") else []),
                        *([_resized(e, d["decks"], say)] if e.get("size") else []),
                        *(say("count", piece=_md(c["piece"]), old=c["old"], new=c["new"]) if c["new"] or not c["old"] else
                          say("parked", piece=_md(c["piece"]), why=parked_said(c["old"], lang)) for c in e["counts"]),
                        *(say("every_piece_list", n=f["pieces"], field=_md(place), edit=edit) if edit else
                          say("every_piece", n=f["pieces"], field=_md(place), old=_md(shown[0]), new=_md(shown[1]))
                          for f in e.get("every_piece", [])
                          for place, old, new in _places({**f, "field": f.get("header") or f["field"]})
                          for edit in [_list_edit(old, new, lang)] for shown in [_shown(old, new, lang)]),
                        *(say("alike_list", n=len(f["pieces"]), field=_md(place), edit=edit, pieces=_md(few_named(f["pieces"], lang)))
                          if edit else say("alike", n=len(f["pieces"]), field=_md(place), old=_md(shown[0]), new=_md(shown[1]),
                                           pieces=_md(few_named(f["pieces"], lang)))
                          for f in e.get("alike", [])
                          for place, old, new in _places({**f, "field": f.get("header") or f["field"]})
                          for edit in [_list_edit(old, new, lang)] for shown in [_shown(old, new, lang)]),
                        *(say("field_list", piece=_md(f["piece"]), field=_md(place), edit=edit) if edit else
                          say("field", piece=_md(f["piece"]), field=_md(place), old=_md(shown[0]), new=_md(shown[1]))
                          for f in e["fields"] if not _alike(f, [*e.get("every_piece", []), *e.get("alike", [])])
                          for place, old, new in _places({**f, "field": f.get("header") or f["field"]})
                          for edit in [_list_edit(old, new, lang)] for shown in [_shown(old, new, lang)]),
                        *(say("option", option=_md(o["option"]), old=_md(shown[0]), new=_md(shown[1]))
                          for o in e.get("options", []) for shown in [_shown(o["old"], o["new"], lang)]),
                        *([say("fonts", fonts=_md(", ".join(e["fonts"])))] if e.get("fonts") else []),
                        *([say("back")] if e["back_changed"] else []),
                        *(say("added", piece=_md(p["piece"]), count=p["count"]) for p in e["added"]),
                        *(say("removed", piece=_md(p["piece"]), count=p["count"]) for p in e["removed"]),
                        *(say("icon" if is_icon(p["file"]) else "picture", file=_md(p["file"].removeprefix("icons/")),
                              pieces=", ".join(map(_md, p["pieces"]))) for p in e.get("pictures", [])),
                        *([say("every_face", n=len(e["faces"]))] if e.get("every_face_changed") else
                          (say("face", piece=_md(name)) for name in e["faces"])),
                        *([say("order")] if e.get("order_changed") else [])],
                       _md(deck_id), lang)
        out.append("")
    book = d["rulebook"]
    if any(book.values()):
        out += [say("rulebook"), ""]
        def section(s: str) -> str:
            return say("preamble") if s == PREAMBLE else say("settings") if s == SETTINGS else _md(s)

        out += _capped([*(say("section_changed", section=section(s)) for s in book["changed"]),
                        *(say("section_added", section=section(s)) for s in book["added"]),
                        *(say("section_removed", section=section(s)) for s in book["removed"])],
                       say("the_rulebook"), lang)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _alike(change: dict[str, Any], every_piece: list[dict[str, Any]]) -> bool:
    """Whether a piece's field change is one every piece made alike (told once, on its own line)."""
    return any((change["field"], change["old"], change["new"]) == (a["field"], a["old"], a["new"]) for a in every_piece)


def _resized(e: dict[str, Any], decks: dict[str, Any], say: Callable[..., str]) -> str:
    """The size line: old → new, and for a tuck box after its decks' count, whose and how many."""
    old, new = _mm(e["size"][0]), _mm(e["size"][1])
    held = e.get("follows")
    if not held:
        return say("size", old=old, new=new)
    names = ", ".join(_md(decks.get(d, {}).get("name") or d) for d in held["decks"])
    return say("size_follows", old=old, new=new, decks=names, a=held["old"], b=held["new"])


def _places(change: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """A table's change (a list of rows, a mapping) as the rows or keys that changed (``rows[3]``,
    counted from 1 as a table is read; ``stats.hp``), each old → new: a combat results table with
    one cell edited was its 60 cells quoted twice. A list of plain items (a row, a card's lines),
    and a list that grew or shrank, is quoted whole."""
    def walk(place: str, old: Any, new: Any):
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) \
                and any(isinstance(x, (list, dict)) for x in (*old, *new)):
            for i, (a, b) in enumerate(zip(old, new), 1):
                if a != b:
                    yield from walk(f"{place}[{i}]", a, b)
        elif isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
            for key in old:
                if old[key] != new[key]:
                    yield from walk(f"{place}.{key}", old[key], new[key])
        else:
            yield place, old, new
    return list(walk(change["field"], change["old"], change["new"])) or [(change["field"], change["old"], change["new"])]


def _mm(size: list[float]) -> str:
    return "×".join(f"{v:g}" for v in size)


SHOWN = 50  # lines of changes the changelog gives a deck (or the rulebook); the JSON lists them all


def _capped(lines: list[str], where: str, lang: str) -> list[str]:
    """A deck's lines of changes, the first ``SHOWN`` and one line saying how many more: a deck
    of 1,000 cards recounted is a changelog a playtester reads, not 1,000 lines."""
    if len(lines) <= SHOWN:
        return lines
    more = len(lines) - SHOWN
    return [*lines[:SHOWN], msg("diff.more_one" if more == 1 else "diff.more", lang, n=more, where=where)]


WHOLE_LIST = 60  # characters of a list's items, above which its change is told as items added and removed


def _list_edit(old: Any, new: Any, lang: str) -> str:
    """A list's change as its items added and removed, ``+0101 forest, −0102 clear`` (a trial of
    session 47: a map's terrain list of 36 hexes, one hex edited, was quoted whole before and
    after); "" where the whole reads as well: a short list, or one keeping no item of the other."""
    if not (isinstance(old, list) and isinstance(new, list)) or not (set(map(_key, old)) & set(map(_key, new))) \
            or max(len(as_text(old, lang)), len(as_text(new, lang))) <= WHOLE_LIST:
        return ""
    was, now = Counter(map(_key, old)), Counter(map(_key, new))
    added, removed = now - was, was - now
    if not added and not removed:
        return ""  # (the same items in another order: the whole says it)

    def items(values: list[Any], which: Counter[str], sign: str) -> list[str]:
        left = Counter(which)
        out = []
        for v in values:
            if left[_key(v)] > 0:
                left[_key(v)] -= 1
                out.append(sign + _md(plain(as_text(v, lang)) if isinstance(v, (str, list)) else as_text(v, lang)))
        return out
    return msg("diff.list.sep", lang).join([*items(new, added, "+"), *items(old, removed, "−")])


def _key(item: Any) -> str:
    """A list's item as the list edit compares it: a text as written, anything else as JSON (its keys
    sorted: a mapping's order is no edit)."""
    return item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, sort_keys=True)


def _shown(old: Any, new: Any, lang: str) -> tuple[str, str]:
    """A field's old and new values as the changelog quotes them, as a playtester reads the card
    (``_show``); where that reads the same (only its markup changed: ``**2**`` → ``2``), as written."""
    shown = _show(old, lang), _show(new, lang)
    return shown if shown[0] != shown[1] else (_show(old, lang, True), _show(new, lang, True))


def _show(value: Any, lang: str, as_written: bool = False) -> str:
    """A field's value as the changelog quotes it: a Japanese text in 「」, any other in “”
    (an English card's text in 「」 read oddly to an English playtester); its markup left out
    (``data.markup.plain``: ``**2{vp}**を得る`` reads ``2{vp}を得る``, an icon kept as written: ``vp``
    alone read as a word of the text, ``surge :``), unless ``as_written``."""
    if value is None:
        return msg("diff.none", lang)
    if isinstance(value, (list, tuple)):
        value = as_text(value, lang)
    elif not isinstance(value, str):  # a mapping, a number, true: in YAML's words, as written ({hp: 1}, never JSON's {"hp": 1})
        return as_text(value, lang)
    return quoted(value if as_written else plain(value, icons=True))


def unescaped(markdown: str) -> str:
    """``_md``'s escapes undone (``\\<b\\>`` → ``<b>``): the changelog as the designer wrote its
    texts, for a page that shows it as text (polish47a: the preview's panel read ``\\<b\\>``)."""
    return re.sub(r"\\([\\`*_\[\]<>#|&~])", r"\1", markdown)


def _md(text: Any) -> str:
    """Text from the data as Markdown text, never markup: also ``&amp;`` (an entity, shown as &)
    and ``~~…~~`` (struck through on GitHub and Discord). Braces are no Markdown, and a card's
    ``{coin}`` read ``\\{coin\\}`` to a playtester reading the file as it is."""
    return re.sub(r"([\\`*_\[\]<>#|&~])", r"\\\1", str(text)).replace("\n", " ")
