"""The change report: what differs from the last good build, deck by deck, so the designer
knows exactly which sheets to reprint and why
(``epic: 80 → 82 (+2 祝福); reprint epic.pdf: sheet 9 (pages 17–18)``)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pnpgen.data.deckfile import SHAPE_KEYS
from pnpgen.data.i18n import MARKED
from pnpgen.data.model import is_placeholder
from pnpgen.data.printers import Printer
from pnpgen.data.telling import plain_values, shortest_telling_fields, told_by_values
from pnpgen.data.validate import spelt
from pnpgen.engine.piecematch import DeckMatch, in_deck_order, label_name, match_pieces, nameless
from pnpgen.errors import place
from pnpgen.messages import counted, msg
from pnpgen.safetext import clipped

if TYPE_CHECKING:
    from pnpgen.data.model import Game, Piece
    from pnpgen.engine.game import BuildResult


SAID_VALUE = 40  # characters of an option's value the change line quotes


def translated_texts(piece: Piece, langs: list[str], base: dict[str, Any]) -> dict[str, Any]:
    """A piece's texts in the game's other editions (``langs``) where they differ from its own
    (``base``: its values, ``plain_values``), each field named with its language
    (``{"title.en": "Fire"}``): a translation's change is a change of the card, which ``pnpgen
    diff``, ``log`` and the build's change line name in the default edition too (trial68). The
    data stage read them with the default edition's (``Piece.editions``). A text not translated
    (printed 〔ja〕 marked) or a value still open is none."""
    out: dict[str, Any] = {}
    for lang in langs:
        for f, v in plain_values(piece.editions.get(lang, {})).items():
            if v != base.get(f) and not (isinstance(v, str) and (MARKED.match(v) or is_placeholder(v))):
                out[f"{f}.{lang}"] = v
    return out


def translated_languages(game: Game) -> list[str]:
    """The other editions whose texts a build of the game's default language keeps (none in
    another language's build: its own texts are its fields); one whose value does not read is
    left out (its own build says what is wrong)."""
    tr = game.translations
    return [lang for lang in tr.other_editions if lang not in tr.unread] if tr is not None else []


def translation_unrecorded(old: dict[str, Any], new: dict[str, Any]) -> Callable[[str], bool]:
    """Whether a field (``title.en``) is a translation's text that only one of two records of a
    deck holds (one recorded before translations were: every card's title.en would read as added);
    compared only where both recorded its language."""
    both = set(old.get("translated") or ()) & set(new.get("translated") or ())
    others = {*(old.get("translated") or ()), *(new.get("translated") or ())}
    return lambda f: "." in f and f.rsplit(".", 1)[1] in others and f.rsplit(".", 1)[1] not in both


def snapshot(result: BuildResult) -> dict[str, Any]:
    """What the next build (and the history) compares against, per deck: its count, sheets, home
    file and the signature of each of its pages, and per piece its count, face hashes (fronts,
    backs), the hash of the pictures its faces show and field values; the distinct front/back
    pairs printed and how many copies of each (with their pictures' hash). A face is known by its
    SVG, which names an art file, not its pixels: the pictures' hashes (``art_tag``) are what
    tell a repainted picture from the same one, on a piece, a pair and a home page. A default-language
    build's values hold the other languages' texts (``translated_texts``)."""
    assert result.rendered is not None
    langs = translated_languages(result.game)
    arts = result.face_arts
    printer = printed_for(result.manifest.get("printer"))
    out: dict[str, Any] = {}
    fonts = game_fonts(result.game)
    tiled = {deck.id for deck, on in zip(result.game.decks, result.on_paper, strict=False) if on.tiles is not None}
    for record, df in zip(result.records, result.rendered.decks, strict=True):
        pieces, values, files, grounds, places = {}, {}, {}, {}, {}
        for p in df.deck.pieces:
            label = f"{p.index}:{p.label}"
            places[label] = piece_place(p.where)
            pieces[label] = [p.count, df.digests[p.index], *df.sides[p.index],
                             art_tag(arts, df.piece_keys.get(p.index, ()))]
            values[label] = plain_values(p.values)
            if p.editions and langs:
                values[label] |= translated_texts(p, langs, values[label])
            shown = {name: h for k in df.piece_keys.get(p.index, ()) for name, h in result.face_files.get(k, {}).items()}
            if shown:  # the art files its faces show: a repainted piece told by the file replaced
                files[label] = shown
            grounded = sorted({h for k in df.piece_keys.get(p.index, ()) for h in result.face_grounds.get(k, ())})
            if grounded:  # its see-through pictures flattened onto the colour beneath (``regrounded``)
                grounds[label] = grounded
        out[record.id] = {
            "name": record.name, "count": record.count, "sheets": record.sheets,
            "size": [round(v, 2) for v in df.deck.trim_mm],  # (a tuck box's net follows its deck's count)
            "bleed": round(result.rendered.bleed_of(df.deck), 2),  # (every face redrawn with another bleed)
            "file": record.files[0] if record.files else None,
            "pages": result.home_pages.get(record.id, []),
            "page_art": [art_tag(arts, faces) for faces in result.home_faces.get(record.id, [])],
            "pieces": pieces, "values": values, "printer": printer, "art": files, "kind": df.deck.kind,
            "places": places,  # each piece's file and line, as pnpgen diff names one nothing else tells apart
            **({"grounds": grounds} if grounds else {}),  # (none: a record as before grounds were kept)
            **({"tiled": True} if df.deck.id in tiled else {}),  # (its pages kept in the history: reprint --since's tiles)
            # the deck file's options: (not its shape keys, which the size or faces tell): an edit told by name
            "options": plain_values({k: x for k, x in df.deck.options.items() if k not in SHAPE_KEYS}),
            "fonts": fonts,  # the card text's fonts (game.yaml fonts:): a font changed told by name, not as faces edited
            **({"translated": langs} if langs else {}),  # (a version recorded before holds none of their texts)
            # the sheet's own headers of its fields (columns: 攻撃: atk), as the changelog names them
            **({"headers": edition_headers(df.deck.sheet_headers, result.game)} if df.deck.sheet_headers else {}),
            **({"follows": [list(df.deck.follows[0]), df.deck.follows[1]]} if df.deck.follows else {}),
            "pairs": [[pair.front, pair.back, pair.count, f"{pair.piece.index}:{pair.piece.label}",
                       art_tag(arts, [pair.front, pair.back])] for pair in df.pairs],
        }
    return out


def edition_headers(headers: dict[str, str], game: Game) -> dict[str, str]:
    """A deck's fields by the headers the designer edits for the edition built: in another
    language's edition a field's text is its translation's, named by that column's or worksheet's
    header (``text`` → ``Effect``, from ``text.en``), not the card sheet's (``効果``)."""
    tr = game.translations
    if tr is None or game.lang == tr.default:
        return dict(headers)
    own = f".{game.lang}"
    return {**headers, **{f[:-len(own)]: h for f, h in headers.items() if f.endswith(own)}}


def game_fonts(game) -> dict[str, Any]:
    """The fonts a game's card text is set in, as the snapshot records them: each role's font and
    the fallbacks (``fallback_fonts``)."""
    return {**(game.text_fonts or game.fonts), "fallback_fonts": list(game.text_fallback_fonts or game.fallback_fonts)}


def font_changes(old: Any, new: Any) -> list[str]:
    """game.yaml's ``fonts:`` (or ``fallback_fonts:``) changed, role by role, ``gothic
    BIZUDPGothic-Regular → KiwiMaru-Medium``; none where either build recorded none (a version
    recorded before they were)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []

    def said(value: Any) -> str:
        return "／".join(map(str, value)) if isinstance(value, list) else "none" if value is None else str(value)
    return [f"{role} {said(old.get(role))} → {said(new.get(role))}"
            for role in [*new, *(r for r in old if r not in new)] if old.get(role) != new.get(role)]


def option_changes(old: Any, new: Any) -> list[tuple[str, Any, Any]]:
    """A deck's ``options:`` edited, option by option, as ``pnpgen diff`` tells a field: each
    (place, old, new), a mapping inside one by its keys (``terrain.forest``), a list whole; none
    where either build recorded no options (a version recorded before they were)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []

    def walk(place: str, was: Any, now: Any) -> list[tuple[str, Any, Any]]:
        if isinstance(was, dict) and isinstance(now, dict):
            return [change for key in [*now, *(k for k in was if k not in now)] if was.get(key) != now.get(key)
                    for change in walk(f"{place}.{key}" if place else str(key), was.get(key), now.get(key))]
        return [(place, was, now)]
    return walk("", old, new) if old != new else []


def option_said(value: Any) -> str:
    """An option's value as the change line quotes it: a text as written, anything else in YAML's
    flow words as the deck file writes it (``{colour: red}``, ``true``; never JSON's ``{"colour": "red"}``), cut short."""
    return clipped(value if isinstance(value, str) else spelt(value), SAID_VALUE)


def printed_for(record: Any) -> dict[str, Any] | None:
    """The printer profile the home sheets were drawn for, as the report and the history keep it:
    its name, back offset and scale (not where it was read: a line added above it moves nothing)."""
    if not isinstance(record, dict):
        return None
    return {k: record.get(k) for k in ("name", "back_offset_mm", "scale")}


def art_tag(arts: dict[str, str], faces: Any) -> str:
    """The hash of the pictures ``faces`` (face keys) show, in order; "" when none shows one."""
    shown = [arts.get(k, "") if k else "" for k in faces]
    if not any(shown):
        return ""
    return hashlib.sha256(" ".join(shown).encode()).hexdigest()[:12]


def change_report(before: dict[str, Any] | None, now: dict[str, Any],
                  matches: dict[str, DeckMatch] | None = None) -> tuple[list[str], dict[str, Any]]:
    """One line per deck that changed since ``before`` (None: the first build), and per deck what
    to reprint: the home file, its sheets and pages that differ, and why. ``before`` may be a
    history version's decks (the build cache's record gone: ``pnpgen clean``), which record no
    sheets or pages: the line then names the changes and reprint.txt, not sheets. ``matches``, when
    given, gets each deck's pieces as matched (``DeckMatch``), for the reprint files to take."""
    if before is None:
        return [], {}
    lines: list[str] = printer_changed(before, now)
    reprint: dict[str, Any] = {}
    was = renamed(before, now)
    for deck_id, new in now.items():
        old = before.get(deck_id) or before.get(was.get(deck_id, ""))
        if old is None:
            lines.append(f"{deck_id}: new deck, {counted(new['count'], 'piece')}, {counted(new['sheets'], 'sheet')}")
            if new["file"] and new["pages"]:  # every sheet of it is to print, as reprint.pdf holds it
                pages = list(range(1, len(new["pages"]) + 1))
                sheets = sorted({(p - 1) // _per_sheet(new) + 1 for p in pages})
                reprint[deck_id] = {"file": new["file"], "sheets": sheets, "pages": pages, "why": ["new deck"]}
            continue
        match = match_pieces(old, new)
        if matches is not None:
            matches[deck_id] = match
        details = reasons(old, new, match)
        known = "pages" in old  # a history version records no sheets (compared with one after pnpgen clean)
        pages = changed_pages(old.get("pages"), new["pages"], old.get("page_art"), new.get("page_art"),
                              _per_sheet(new)) if known else []
        moved_only = not details and rearranged_only(old, new)
        if not details and not pages and not (moved_only and not known):
            if deck_id in was:  # a deck file renamed, nothing in it changed
                lines.append(f"{deck_id}: the deck {was[deck_id]} renamed, nothing to reprint")
            continue
        if not details:
            details = ["order changed" if moved_only else "sheets changed"]
        shown = details if len(details) <= SHOWN else [*details[:SHOWN], f"and {len(details) - SHOWN} more: pnpgen diff lists them all"]
        line = f"{deck_id}{f' (was {was[deck_id]})' if deck_id in was else ''}: {old['count']} → {new['count']} ({', '.join(shown)})"
        if new["sheets"] != old.get("sheets", new["sheets"]):
            line += f", sheets {old['sheets']} → {new['sheets']}"
        sheets = sorted({(p - 1) // _per_sheet(new) + 1 for p in pages})
        if not known and moved_only:
            line += "; nothing to reprint"
        elif not known:  # which sheets changed is not known: the copies are
            line += "; what to reprint and pull out: reprint.txt"
        elif new["file"] and pages and copies_taken_out_only(old, new):  # cards moved up where one was taken out
            line += (f"; nothing to reprint, pieces to pull out only ({new['file']}: "
                     f"{numbered('sheet', sheets)} ({numbered('page', pages)}) rearranged)")
        elif new["file"] and pages and moved_only:  # the same copies in another order: none to print
            line += f"; nothing to reprint ({new['file']}: {numbered('sheet', sheets)} ({numbered('page', pages)}) rearranged)"
        elif new["file"] and pages:
            line += f"; reprint {new['file']}: {numbered('sheet', sheets)} ({numbered('page', pages)})"
        elif new["file"]:
            line += f"; {new['file']}: no sheet to reprint (pieces to pull out only)"
        lines.append(line)
        reprint[deck_id] = {"file": new["file"], "sheets": sheets, "pages": pages, "why": details}
    lines += [f"{deck_id}: deck removed" for deck_id in before if deck_id not in now and deck_id not in was.values()]
    return lines, reprint


PRINTER_CHANGED = "every home sheet changed: printer profile "


def printer_changed(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """One line when the home sheets were drawn for another printer profile than the last build's
    (``build --printer X`` after ``--printer Y``, or one given or dropped): every home page is
    drawn anew for its back offset and scale, though no deck's pieces or sheets changed. None
    against a record that does not say (a history version, an earlier pnpgen's)."""
    then = [d["printer"] for d in before.values() if isinstance(d, dict) and "printer" in d]
    homes = [d for d in now.values() if d.get("file")]
    if not then or not homes or then[0] == homes[0].get("printer"):
        return []
    was, new = (_profile(then[0]), _profile(homes[0].get("printer")))
    drawn = "with no back offset or scale corrected" if new == "none" else "for its back offset and scale"
    return [f"{PRINTER_CHANGED}{was} → {new}: every page drawn again {drawn} (the pieces on them are the same: "
            "print them again only to print on that printer)"]


def _profile(record: Any) -> str:
    """A printer profile as the slug names it (``steady (back +0.3/-0.2 mm, 100/100 %)``), or none."""
    if not isinstance(record, dict) or not isinstance(record.get("name"), str):
        return "none"
    try:
        dx, dy = (float(v) for v in record["back_offset_mm"])
        sx, sy = (float(v) for v in record["scale"])
    except (KeyError, TypeError, ValueError):
        return repr(record["name"])
    return Printer(record["name"], "", back_offset_mm=(dx, dy), scale=(sx, sy)).words("long")


def renamed(before: dict[str, Any], now: dict[str, Any]) -> dict[str, str]:
    """A deck new since ``before`` → the deck gone since then that it is, its file renamed
    (tiles.yaml to terrain.yaml): the one whose printed faces (``pairs``) it shares most."""
    gone = {d: {(p[0], p[1]) for p in rec.get("pairs", [])} for d, rec in before.items()
            if d not in now and isinstance(rec, dict)}
    out: dict[str, str] = {}
    for deck_id, rec in now.items():
        if deck_id in before:
            continue
        faces = {(p[0], p[1]) for p in rec.get("pairs", [])}
        shared = {d: len(faces & pairs) for d, pairs in gone.items() if d not in out.values()}
        best = max(shared, key=lambda d: (shared[d], d), default=None)
        if best is not None and shared[best]:
            out[deck_id] = best
    return out


def copies_taken_out_only(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Are the deck's changes copies taken out and nothing else: no front/back pair (with its
    pictures, where both builds recorded them) printed more times than before, and one fewer?
    Then a sheet whose cards only moved up holds nothing to print again (a deck moved onto
    other paper or stock, its copies the same, is printed again)."""
    painted = all(len(p) > 4 for p in [*old.get("pairs", []), *new.get("pairs", [])])
    before: Counter[tuple] = Counter()
    for front, back, n, _label, *art in old.get("pairs", []):
        before[(front, back, *art) if painted else (front, back)] += n
    now: Counter[tuple] = Counter()
    for front, back, n, _label, *art in new.get("pairs", []):
        now[(front, back, *art) if painted else (front, back)] += n
    return not (now - before) and bool(before - now)


def rearranged_only(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Are the deck's copies the very ones printed before, only in another order (pieces moved in
    the deck file)? Then no sheet holds a card to print again. The same copies in the same order
    on other sheets (another paper or stock) are printed again."""
    def printed(deck: dict[str, Any]) -> list[tuple]:
        return [(front, back, n, *art) for front, back, n, _label, *art in deck.get("pairs", [])]

    before, now = printed(old), printed(new)
    return bool(before) and Counter(before) == Counter(now) and before != now


SHOWN = 10  # reasons named on the build's line; manifest.json's reprint.<deck>.why holds them all


def _per_sheet(deck: dict[str, Any]) -> int:
    """Pages per sheet of a deck's home file: 2 (fronts, backs) when it has more pages than sheets."""
    return 2 if deck["sheets"] and len(deck["pages"]) >= 2 * deck["sheets"] else 1


def changed_pages(old: list[str] | None, new: list[str], old_art: list[str] | None = None,
                  new_art: list[str] | None = None, per_sheet: int = 1) -> list[int]:
    """Page numbers (1-based) of the new home file whose sheet differs from the old one's same
    sheet: in the pieces a page prints, or in the pictures its faces show (when both builds
    recorded them). Every page of such a sheet: a sheet printed duplex is printed again whole."""
    old = old or []
    changed = {n for n, sig in enumerate(new, 1) if n > len(old) or old[n - 1] != sig}
    if old_art is not None and new_art is not None and len(old_art) == len(old) and len(new_art) == len(new):
        changed.update(n for n, art in enumerate(new_art, 1) if n <= len(old) and old_art[n - 1] != art)
    out: set[int] = set()
    for n in changed:
        first = (n - 1) // per_sheet * per_sheet + 1
        out.update(range(first, min(first + per_sheet, len(new) + 1)))
    return sorted(out)


def numbered(word: str, numbers: list[int]) -> str:
    """``sheet 9``, ``sheets 1–3``, ``pages 17–18``: the numbers after their word, plural for more than one."""
    return f"{word}{'s' * (len(numbers) > 1)} {spans(numbers)}"


def spans(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` → ``1–3, 7``."""
    out: list[str] = []
    for n in numbers:
        if out and int(out[-1].split("–")[-1]) == n - 1:
            out[-1] = f"{out[-1].split('–')[0]}–{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def reasons(old: dict[str, Any], new: dict[str, Any], match: DeckMatch | None = None) -> list[str]:
    """Why a deck's sheets changed, in a designer's words: ``+2 祝福``, ``降臨: text``,
    ``back changed`` (once, when every piece's back changed: a new back design), ``bleed 3 → 2 mm``
    (the faces redrawn with another bleed: not a back or face edit, which it would otherwise read as)."""
    details: list[str] = []
    rebled = old.get("bleed") is not None and new.get("bleed") is not None and old["bleed"] != new["bleed"]
    old_pieces, new_pieces = old.get("pieces", {}), new["pieces"]
    old_values, new_values = old.get("values", {}), new.get("values", {})
    headers = new.get("headers") or {}  # a spreadsheet's fields by its own headers (columns: 攻撃: atk)
    names = Counter(map(label_name, old_pieces)) | Counter(map(label_name, new_pieces))  # pieces of a name, in either build
    # a piece whose name others share told by its values, as reprint.txt tells it (one of a deck
    # without names keeps its number here: ``#4: text``, the line kept short)
    match = match if match is not None and match.old is old and match.new is new else match_pieces(old, new)
    was, recounted = match.was, match.recounted  # new label → old label; the pieces only recounted
    # (one no value tells apart by its deck file and line, cards.yaml:41, as pnpgen diff names it; one of a
    # deck without names that values tell apart by its number alone)
    at = deck_places(old), deck_places(new)
    told_before, told_now = ({label: said for label, said in told.items() if not nameless(label) or said == places.get(label)}
                             for told, places in zip(told_apart(old_values, new_values, "en", was, at), at, strict=True))

    def name_of(label: str, told: dict[str, str] = told_now) -> str:
        return told.get(label) or numbered_name(label, names)
    unrecorded = translation_unrecorded(old, new)
    backs = [label for label, o in was.items() if len(new_pieces[label]) > 3 and len(old_pieces[o]) > 3
             and new_pieces[label][3] and new_pieces[label][3] != old_pieces[o][3] and label not in recounted]
    back_design = bool(backs) and len(backs) == len([b for b in was if new_pieces[b][3:4] != [""]])
    # the game's fonts changed, where the deck's faces changed: the fonts say why, not "back changed",
    # "every face edited" ("its template, layout, art or an icon" in pnpgen diff)
    fonts = font_changes(old.get("fonts"), new.get("fonts")) if any(
        new_pieces[label][1:] != old_pieces[o][1:] for label, o in was.items()) else []
    if rebled:  # every face and back redrawn: the bleed says why (a field or count changed is still told)
        details.append(f"bleed {old['bleed']:g} → {new['bleed']:g} mm")
    elif fonts:
        details.append("fonts: " + ", ".join(fonts))
    elif back_design:
        details.append("back changed")
    resized = bool(old.get("size") and new.get("size") and old["size"] != new["size"])
    if resized:  # (a tuck box's net follows its deck's count: that count says why)
        held = followed(old, new)
        details.append("size {} → {} mm".format(*("×".join(f"{v:g}" for v in s) for s in (old["size"], new["size"])))
                       + (", following {} {}' count {} → {}".format(
                           "deck" if len(held[0]) == 1 else "decks", ", ".join(held[0]), *held[1:]) if held else ""))
    options = option_changes(old.get("options"), new.get("options"))
    if options:  # every face an option draws redrawn: the options say why (a field or count changed is still told)
        details.append("options: " + ", ".join(f"{place} {option_said(was)} → {option_said(now)}"
                                               for place, was, now in options))
    redrawn: list[str] = []  # pieces whose face alone changed (template, layout, art)
    replaced: dict[str, list[tuple[str, int]]] = {}  # an art file replaced → the pieces showing it, their copies
    parked = {label for label in was if new_pieces[label][0] == 0}  # (count: 0 prints none: no face to reprint)
    unprinted = parked_throughout(old_pieces, new_pieces, was)
    # a field every piece edited alike (the deck's defaults: edited): one reason, not one a piece
    alike = edited_alike({k: o for k, o in was.items() if k not in unprinted}, old_values, new_values, unrecorded)
    if alike:
        details.append(f"all {len(was) - len(unprinted)} pieces: " + ", ".join(headers.get(f, f) for f, *_ in alike))
    # a field several pieces edited alike (a suit recoloured): one reason naming the pieces, not one a piece
    some = edited_alike_on({k: o for k, o in was.items() if k not in unprinted}, old_values, new_values, unrecorded)
    details += [f"{len(on)} pieces: {headers.get(f, f)} {option_said(o)} → {option_said(n)} ({few_named([name_of(x) for x in on])})"
                for f, o, n, on in some]
    said_alike = [*alike, *((f, o, n) for f, o, n, _ in some)]
    grouped = {label for *_, on in some for label in on}
    for label, (count, digest, *sides) in new_pieces.items():
        if label not in was:
            if count:  # (one added parked prints nothing)
                details.append(f"+{count} {name_of(label)} (new)")
            continue
        if label in unprinted:  # parked before and now: an edit of it is nothing printed
            continue
        old_count, old_digest, *old_sides = old_pieces[was[label]]
        if count != old_count:  # (one set to 0 is parked, still in the data: not "removed")
            details.append(f"{name_of(label)}: {parked_said(old_count)}" if count == 0 and old_count else
                           f"{count - old_count:+d} {name_of(label)}")
        # the pictures' hash covers the faces of both sides: a repaint only where the faces are the
        # same ones (a back added to illustrated fronts is the back's change, not the fronts')
        repainted = len(sides) > 2 and len(old_sides) > 2 and sides[2] != old_sides[2] and sides[:2] == old_sides[:2]
        if (digest == old_digest and not repainted) or label in recounted:
            continue
        front_changed = not sides or not old_sides or sides[0] != old_sides[0] or repainted
        now_values, old_vals = new_values.get(label, {}), old_values.get(was[label], {})
        what = [headers.get(f, f) for f in sorted({*now_values, *old_vals})  # (by the sheet's header: 攻撃, not atk)
                if now_values.get(f) != old_vals.get(f) and not unrecorded(f)
                and (f, old_vals.get(f), now_values.get(f)) not in said_alike]
        if label in backs and not back_design and not rebled and not what:  # (a field that changed says why its back did)
            what.append("back")
        # a picture its faces show replaced, on the same faces or on faces changed otherwise too (its
        # text or its template edited and its picture painted over: both told, not the edit alone)
        files = replaced_files(old, new, label, was[label])
        if what:
            details.append(f"{name_of(label)}: {', '.join(what)}")
        if files and label not in parked and not rebled:
            for name in files:
                replaced.setdefault(name, []).append((name_of(label), count))
        if front_changed and not what and not (repainted and files) and not any(map(is_icon, files)) \
                and not (files and regrounded(old, new, label, was[label])) and label not in parked and not rebled and not resized and not options and not alike \
                and label not in grouped \
                and not fonts:
            # (the size or options say why; a picture replaced on the same faces, its file; an icon redrawn, its file;
            # a field every piece edited alike, told once)
            redrawn.append(f"{name_of(label)} edited")
    taken = set(was.values())
    details += [f"-{count} {name_of(label, told_before)} (removed)" for label, (count, *_) in in_deck_order(old_pieces).items()
                if label not in taken and count]  # in the deck's order, not as the state read back sorts them
    # every piece of both builds redrawn (a layout's font size): one reason, after the others
    every = len(redrawn) > 1 and len(redrawn) == len(was) - len(parked)
    kind = new.get("kind") or "piece"
    details += [f"{file_said(name)}: {pieces_shown(shown, kind)}" for name, shown in replaced.items()]
    return details + ([f"every face edited ({len(redrawn)} pieces)"] if every else redrawn)


def pieces_shown(shown: list[tuple[str, int]], kind: str) -> str:
    """The pieces a replaced file shows, as the change line tells them: one by its name (``竜``), more
    by their number and, where it differs, their copies (``4 copies of 2 tiles``: reprint.txt counts
    copies, trial82 read the two as disagreeing)."""
    if len(shown) == 1:
        return shown[0][0]
    copies = sum(count for _, count in shown)
    return (f"{copies} copies of " if copies != len(shown) else "") + counted(len(shown), kind)


ALIKE_FROM = 4  # pieces edited alike told as one edit from this many (three are named as briefly)


def edited_alike(was: dict[str, str], old_values: dict[str, Any], new_values: dict[str, Any],
                 unrecorded: Callable[[str], bool]) -> list[tuple[str, Any, Any]]:
    """The field edits, each (field, old value, new value), that every piece of both builds made
    alike (``was``: new label → old label, the pieces compared), when they are ``ALIKE_FROM`` or
    more: a deck's ``defaults:`` edited is one edit, told once, ``all 37 pieces: back_art``
    (trial73: a new back picture for a memory game's 37 pairs was told ``Frog: back_art, Duck:
    back_art, …`` on the change line and as 37 lines of ``pnpgen diff``)."""
    if len(was) < ALIKE_FROM:
        return []
    edits = []
    for label, old_label in was.items():
        edit = field_edits(old_values.get(old_label) or {}, new_values.get(label) or {}, unrecorded)
        if not edit:  # a piece not edited: no edit made by every piece (a one-card edit stops at the first other)
            return []
        edits.append(edit)
    first, *rest = edits
    return [edit for edit in first if all(edit in other for other in rest)]


ALIKE_NAMED = 3  # pieces a change made alike names before counting the rest ("and 3 more")


def edited_alike_on(was: dict[str, str], old_values: dict[str, Any], new_values: dict[str, Any],
                    unrecorded: Callable[[str], bool]) -> list[tuple[str, Any, Any, list[str]]]:
    """The field edits, each (field, old value, new value, the new labels of the pieces that made
    it), that ``ALIKE_FROM`` or more pieces of a deck made alike but not every one (``edited_alike``
    tells those): a suit recoloured, 15 of 66 cards, is one change, ``15 pieces: colour #c00 → #06c
    (兎［1］, 兎［2］, 兎［3］ and 12 more)``, not 15 lines cut off after ten (trial85). In the deck's order."""
    if len(was) < ALIKE_FROM:
        return []
    made: dict[tuple[str, str, str], tuple[str, Any, Any, list[str]]] = {}
    for label, old_label in was.items():
        for f, o, n in field_edits(old_values.get(old_label) or {}, new_values.get(label) or {}, unrecorded):
            key = (f, json.dumps(o, sort_keys=True, default=str), json.dumps(n, sort_keys=True, default=str))
            made.setdefault(key, (f, o, n, []))[3].append(label)
    return [(f, o, n, list(in_deck_order(dict.fromkeys(on)))) for f, o, n, on in made.values()
            if ALIKE_FROM <= len(on) < len(was)]


def few_named(names: list[str], lang: str = "en") -> str:
    """Pieces a change made alike as its line names them: the first ``ALIKE_NAMED`` and a count of
    the rest (``兎［1］, 兎［2］, 兎［3］ and 3 more``), the same in the build's change line, the
    changelog and the preview page."""
    shown = msg("diff.list.sep", lang).join(names[:ALIKE_NAMED])
    return shown if len(names) <= ALIKE_NAMED else msg("piece.few_named", lang, names=shown, more=len(names) - ALIKE_NAMED)


def field_edits(old: dict[str, Any], new: dict[str, Any],
                unrecorded: Callable[[str], bool] | None = None) -> list[tuple[str, Any, Any]]:
    """A piece's field edits, each (field, old value, new value), in the fields' order (its new
    ones first); none where ``unrecorded`` says a field is a translation only one record holds.
    Its values equal as a whole are no edit, compared at once, not field by field: a one-card
    edit of a 3,000-card deck walks that card's fields, not the deck's (report51)."""
    if old == new:
        return []
    return [(f, old.get(f), new.get(f)) for f in dict.fromkeys([*new, *old])
            if old.get(f) != new.get(f) and (unrecorded is None or not unrecorded(f))]


def parked_said(old: int, lang: str = "en") -> str:
    """A piece whose count went from ``old`` to 0 (parked: still in the data, printing none), as
    the change line, ``reprint.txt`` and ``pnpgen diff`` alike say it: ``count 3 → 0, prints none``
    (``removed`` is a piece gone from the data)."""
    return msg("piece.parked_now", lang, old=old)


def parked_throughout(old_pieces: dict[str, Any], new_pieces: dict[str, Any], was: dict[str, str]) -> set[str]:
    """The pieces (new labels; ``was``: new label → old label) parked, ``count: 0``, in both builds:
    they print nothing, so their fields edited are no change to print or to tell, as a piece added
    or removed parked is none (four starter decks reading one card sheet, each through its own
    count column, park the sheet's other cards: an edit of one card is not every deck's)."""
    return {label for label, o in was.items() if new_pieces[label][0] == 0 and old_pieces[o][0] == 0}


def followed(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[str], int, int] | None:
    """A tuck box whose figures follow the decks it holds (``box: {deck: cards}``), their count
    changed: those decks, their copies before and now; None otherwise."""
    was, now = old.get("follows"), new.get("follows")
    if not (was and now) or was[0] != now[0] or was[1] == now[1]:
        return None
    return list(now[0]), was[1], now[1]


def is_icon(name: str) -> bool:
    """Whether a file a face shows, as the snapshot names it, is an icon it draws (``icons/fish.svg``)."""
    return name.startswith("icons/")


def file_said(name: str) -> str:
    """A file a face shows saved anew: ``icon fish.svg redrawn``, ``art/dragon.png replaced``."""
    return f"icon {name.removeprefix('icons/')} redrawn" if is_icon(name) else f"{name} replaced"


def regrounded(old: dict[str, Any], new: dict[str, Any], label: str, old_label: str) -> bool:
    """Whether piece ``label``'s faces flatten other pictures onto their ground than before (a
    picture saved again with see-through pixels, or without: its face changed by that alone, so
    the file replaced is the one reason, not "Crab edited" beside it). A deck that grounds none
    records none (a version recorded before grounds were reads as grounding none)."""
    was, now = old.get("grounds"), new.get("grounds")
    return (was.get(old_label) if isinstance(was, dict) else None) != (now.get(label) if isinstance(now, dict) else None)


def replaced_files(old: dict[str, Any], new: dict[str, Any], label: str, old_label: str) -> list[str]:
    """The art files piece ``label`` (``old_label`` in ``old``) shows in both builds whose content
    changed (``art/dragon.png``), as the snapshots record them; none from a record made before
    they were (its repaint is then told as the piece edited)."""
    was, now = old.get("art", {}).get(old_label), new.get("art", {}).get(label)
    if not isinstance(was, dict) or not isinstance(now, dict):
        return []
    return [name for name, h in now.items() if name in was and was[name] != h]


def told_apart(before: dict[str, Any], now: dict[str, Any], lang: str, was: dict[str, str] | None = None,
               places: tuple[dict[str, str], dict[str, str]] = ({}, {})) -> tuple[dict[str, str], dict[str, str]]:
    """The pieces no name of their own tells apart, before and now, each with the values that tell
    it from the others of its kind at the table (their numbers are places in the deck file, which
    no printed piece shows): one of a deck without names among those, ``#11［green・2・6］``; one
    whose name others share among those of its name, ``Round［5］`` (``Round #4`` when no value
    tells it apart): the fewest fields whose values tell them apart and did not change between the
    builds (``was``: new label → old label, the pieces compared; else those of one label in
    both), readable words first (``shortest_telling_fields``; its old copies with their old values).
    ``places``: each side's pieces' files and lines (``numbered_name``), where the history holds them."""
    names = Counter(map(label_name, before)) | Counter(map(label_name, now))  # pieces of a name, in either build
    kinds_of: dict[str, str] = {}  # (each label's kind worked out once: asked twice a side, 3,000 pieces a side)

    def kind(label: str) -> str:
        found = kinds_of.get(label)
        if found is None:
            found = kinds_of[label] = "#" if nameless(label) else label_name(label) if names[label_name(label)] > 1 else ""
        return found

    # each build's pieces of a kind apart: a field that tells none of them apart in either build
    # (a suit's colour, changed for all thirteen 兎 alike) is no field to name them by, where the
    # two builds' values together named each 兎 [#2f9e6e, 7] (trial71)
    sides: list[defaultdict[str, list[dict[str, Any]]]] = []
    for side in (now, before):
        kinds: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
        for label, v in side.items():
            if kind(label) and isinstance(v, dict):
                kinds[kind(label)].append(v)
        sides.append(kinds)
    compared = was.items() if was is not None else ((label, label) for label in now if label in before)
    changed = {f for n, o in compared if isinstance(now.get(n), dict) and isinstance(before.get(o), dict)
               for f, *_ in field_edits(before[o], now[n])}
    fields = {k: shortest_telling_fields([sides[0].get(k, []), sides[1].get(k, [])], changed)
              for k in {*sides[0], *sides[1]}}

    def said(label: str, v: dict[str, Any], at: dict[str, str]) -> str:
        return told_by_values(label_name(label), v, fields[kind(label)], lang) or numbered_name(label, names, at.get(label))

    def each(side: dict[str, Any], at: dict[str, str]) -> dict[str, str]:
        told = {label: (kind(label), told_by_values("", v, fields[kind(label)], lang))
                for label, v in side.items() if kind(label) and isinstance(v, dict)}
        alike = Counter(told.values())
        # pieces alike in the values that tell them (twins: #1［hit］ and #3［hit］) each by its
        # deck file and line, which the designer finds: cards.yaml:9［hit］, Goblin［hit］ (cards.yaml:13)
        return {label: placed(label, side[label], at[label]) if by[1] and alike[by] > 1 and at.get(label)
                else said(label, side[label], at) for label, by in told.items()}

    def placed(label: str, v: dict[str, Any], place: str) -> str:
        if nameless(label):
            return told_by_values(place, v, fields[kind(label)], lang) or place
        return f"{told_by_values(label_name(label), v, fields[kind(label)], lang)} ({place})"

    return each(before, places[0]), each(now, places[1])


def numbered_name(label: str, names: Counter[str], place: str | None = None) -> str:
    """A name several pieces share gets its piece number: ``タウン #3`` (``label`` is ``3:タウン``,
    ``names`` counts the pieces of each name), so the change line, reprint.txt and the changelog
    tell apart two cards the designer gave one name. With the piece's ``place`` (its deck file
    and line, ``cards.yaml:41``: the changelog's), that instead of the number, which the designer
    would count to: ``タウン (cards.yaml:41)``, and a piece of a deck without names ``cards.yaml:41``."""
    name = label_name(label)
    if place and nameless(label):
        return place
    if names[name] <= 1:
        return name
    return f"{name} ({place})" if place else f"{name} #{label.split(':', 1)[0]}"


def deck_places(deck: Any) -> dict[str, str]:
    """A deck record's pieces' files and lines, label → ``cards.yaml:41`` (``snapshot``'s; a history
    version's decks hold them as ``placed_decks`` gives them): {} for a record made before they were kept."""
    places = deck.get("places") if isinstance(deck, dict) else None
    return places if isinstance(places, dict) else {}


def placed_decks(body: dict[str, Any]) -> dict[str, Any]:
    """A history version's decks, each with its pieces' places, which the version keeps apart from
    its decks (outside its hash): a build compared with it, or ``reprint --since``, names a piece
    nothing tells apart by its deck file and line, as ``pnpgen diff`` and the build's own record do."""
    places = body.get("places")
    if not isinstance(places, dict):
        return body["decks"]
    return {d: {**v, "places": places[d]} if isinstance(v, dict) and isinstance(places.get(d), dict) else v
            for d, v in body["decks"].items()}


def piece_place(where: Any) -> str:
    """A piece's deck file (its name) and line, as the history records it: ``cards.yaml:41``,
    ``cards.xlsx:12 in worksheet 英雄`` (a workbook's row)."""
    return place(where.path.name, where.line) + (f" in worksheet {where.sheet}" if where.sheet else "")


