"""The words a side of a piece prints, read back from its converted art: what a two-sided
tile's one Description says of each side on the Tabletop Simulator table (exports/tts.py), and
the fields a face shows, which a card's says; the name each piece, and a back, goes by there."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping

from pnpgen import fonts as fontreg
from pnpgen.data.i18n import japanese
from pnpgen.data.markup import plain, without_icons
from pnpgen.data.model import Deck, Layout, Piece, is_placeholder
from pnpgen.data.telling import names_told_apart, plain_values, shortest_telling_fields, told_by_values
from pnpgen.exports.faces import PageStyle, UniqueFace
from pnpgen.patterns import later
from pnpgen.svg.artwork import Art
from pnpgen.terms import is_latin
from pnpgen.text.cells import RUBY_SCALE
from pnpgen.text.layout import ASCENT
from pnpgen.text.linebreak import HYPHEN_CHAR

_SPACES = later(r"[^\S\n]+")  # the spaces a line's words are read without (a line break kept: a paragraph's)


def printed_words(art: Art | None, values: Iterable[str] = (), top_down: bool = False) -> str:
    """The words a side prints, in the order its template draws them, a line each (runs set on
    one baseline are one line; a line broken only to fit its box, of one of ``values``, read on
    into the next as a sentence: ``_paragraphs``): what a two-sided piece's Description says of
    each side, as the table shows one text whichever side is up. An icon or a picture is no word.
    ``top_down``: each text's lines (those its first run starts) read from the highest text to the
    lowest, level ones in the order drawn, so both sides of a piece read alike whatever order each
    template draws them in (a counter's front "4-3-8 / 1/US", its back "1/US / 2-1-8")."""
    values = tuple(values)  # (read twice: the paragraphs, the open values)
    lines: list[str] = []
    starts: list[tuple[int, float]] = []  # each line's text item and baseline
    last = None
    texts = [item for item in art.items if item[0] == "text"] if art is not None else []
    readings = _ruby_readings(texts)
    glued = False  # the words after a ruby go on from its base (a text item of their own, after the reading's)
    end = -math.inf  # where the line's last run ends
    for k, item in enumerate(texts):
        for i, (x, y, chars) in enumerate(item[3]):
            if (k, i) in readings:
                glued = True
                continue
            if lines and y == last:
                # a run set straight after the last (a **bold** word in a Japanese line) goes on from it
                # with no space; a run of another box further along the baseline is a word apart
                close = abs(x - end) < 0.25 * item[2] and _unspaced(lines[-1][-1:] + chars[:1])
                lines[-1] += chars if i or glued or close else " " + chars
            else:
                lines.append(chars)
                starts.append((k, y))
            last, glued = y, False
            end = x + fontreg.string_width(chars, item[1], item[2])
    if top_down:
        lines = _top_down(lines, starts)
    words = _paragraphs([" ".join(line.split()) for line in lines if line.strip()], values)
    # a line that is one of the piece's open values (未定, TBD) tells a player nothing: the face
    # prints the mark (a two-sided counter's Description said 「未定」 of its front)
    open_values = {" ".join(v.split()) for v in values if is_placeholder(v)}
    return "\n".join(line for line in words if line not in open_values)


def _top_down(lines: list[str], starts: list[tuple[int, float]]) -> list[str]:
    """``lines`` with each text item's run of lines moved as one, the highest first (its first
    line's baseline, to a tenth of a unit; ties keep the order drawn)."""
    blocks: list[tuple[float, int, list[str]]] = []  # (first baseline, text item, its lines)
    for line, (k, y) in zip(lines, starts, strict=True):
        if blocks and k == blocks[-1][1]:
            blocks[-1][2].append(line)
        else:
            blocks.append((round(y, 1), k, [line]))
    return [line for block in sorted(blocks, key=lambda b: b[0]) for line in block[2]]


# The fields that hold a piece's rules text, the first a piece has taken: ``text`` (the built-in
# layouts' rules text, and what a spreadsheet's Effect, Rules Text or 効果 column is read as), then
# the names designers give it in their own templates
RULES_FIELDS = ("text", "effect", "effects", "rules", "ability", "skill", "action", "description",
                "効果", "テキスト", "本文", "能力")


def rules_text(piece: Piece) -> str:
    """A piece's rules text as plain text, its markup read as the card prints it (an icon as its
    name, ruby as its base, no bold or colour tags); empty when the piece has none, or it is still
    open (``未定``: the face prints the mark)."""
    key = _rules_field(piece)
    return plain(piece.values[key]).strip() if key and not is_placeholder(piece.values[key]) else ""


def _rules_field(piece: Piece) -> str | None:
    return next((key for key in RULES_FIELDS if isinstance(piece.values.get(key), str) and piece.values[key].strip()),
                None)


def shown_fields(piece: Piece, art: Art | None, layout: Layout | None, lang: str,
                 headers: Mapping[str, str] | None = None) -> str:
    """What a piece's face tells on the table (a card's ``Description``): each of its fields the
    face ``art`` shows but the one naming it (its ``Nickname`` says that), in the order the face
    reads, a line each (a layout's boxes top to bottom, then left to right; a template's fields in
    the order it draws them): a text as the card prints it (``rules_text``'s plain text), a number
    as written; labelled as the deck's layout labels it (a text box's ``label:`` before it and
    its ``unit:`` after, ``体力 3``, ``3枚``), else by the header of the sheet the deck reads, where its
    ``columns:`` maps one to the field (``headers``: ``Victory Points: 3``; not one in Japanese on the
    table of a Latin-script edition, ``lang``), else by the field's name (``vp: 3``), but the rules text, which stands alone; a labelled field's lines (two keywords a line
    each in one cell) are one line a space apart, each line of the Description its label's. A field shows when its words are among those the face prints
    (``printed_words``): a template reads fields it prints nowhere (a colour, a picture's file, a
    number it draws as a symbol), and they are left out; the rules text never is (last, when the
    face does not print its words as written). A list of texts the face prints (a karuta verse,
    a column a line) is its lines a space apart; other lists and mappings are left out. A value
    still open (``未定``, ``TBD``: the face prints the mark, which tells a player nothing) is left
    out, the rules text's too (a picture's field, ``art: 未定``, among them: its file's name is no
    word the face prints). Without the face's art, the rules text alone."""
    if art is None:
        return rules_text(piece)
    texts = [v for v in piece.values.values() if isinstance(v, str)]
    printed = "".join(printed_words(art, texts).split())
    boxes: dict[str, dict] = {}  # a field → the options of the first text box of this edition that shows it
    for drawn in layout.front.boxes if layout is not None else ():
        if drawn.type == "text" and drawn.get("field") and (not drawn.get("lang") or lang in drawn.get("lang")):
            boxes.setdefault(drawn.get("field"), dict(drawn.options))
    rules, named = _rules_field(piece), piece.name_field
    found = []
    for order, (key, value) in enumerate(piece.values.items()):
        if is_placeholder(value):
            continue
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            value = " ".join(item.strip() for item in value)  # a verse's lines (a karuta card's vertical columns)
        if isinstance(value, str) and key != rules:  # (its lines on one line, under its label)
            value = " ".join(line.strip() for line in value.splitlines() if line.strip())
        if key == named or isinstance(value, bool) or not isinstance(value, (str, int, float)):
            continue
        said = plain(value).strip() if isinstance(value, str) else str(value) if isinstance(value, int) else f"{value:g}"
        words = "".join(plain(without_icons(value)).split()) if isinstance(value, str) else said
        at = printed.find(words) if words else -1
        if at < 0 and key == rules:  # (the rules text always: last, when the face prints it otherwise or not)
            at = len(printed)
        elif at < 0:
            continue
        box = boxes.get(key, {})
        label, unit = (plain(box[k]).strip() if box.get(k) else "" for k in ("label", "unit"))
        said += unit
        # read top to bottom as the card reads: a layout's field by where its box stands (a box of your own
        # added after the built-in ones, a keyword line over the rules text, before that text), a
        # template's by the order it draws them; the rules text it does not print as written, last
        stands = (box["y"], box["x"]) if box and at < len(printed) else (math.inf, math.inf) if boxes else (0, 0)
        said_as = (headers or {}).get(key, key)  # the sheet's own header, where columns: maps it
        if is_latin(lang) and japanese().search(said_as):  # コスト on an English table: the field's name (trial79)
            said_as = key
        found.append((stands, at, order, f"{label} {said}" if label else said if key == rules else f"{said_as}: {said}"))
    return "\n".join(line for *_, line in sorted(found))


def _paragraphs(lines: list[str], values: Iterable[str]) -> list[str]:
    """``lines`` with a line broken only to fit its box joined to the next: a break where one of
    ``values`` (the piece's texts, as written) runs on from the one line into the next, with no
    line break of its own between (a paragraph's break, a line break in the text, stays); in Japanese with
    nothing between, in Latin script with a space, a word hyphenated at the break whole again. A
    line no text runs on from (another box's, a template's own words) keeps its break."""
    said = [_SPACES.sub("", plain(without_icons(t))) for t in values]  # as the box prints it: no icon, no markup

    def runs_on(last: str, now: str) -> bool:  # (a line hyphenated itself runs on without its hyphen)
        return any(last + now.removesuffix(HYPHEN_CHAR) in t for t in said)

    out: list[str] = []
    for line in lines:
        if out:
            last, now = "".join(out[-1].split()), "".join(line.split())
            if runs_on(last, now):  # (after a hyphen of the text's own, well- / known, no space)
                gap = "" if last.endswith(HYPHEN_CHAR) or _unspaced(out[-1][-1] + line[0]) else " "
                out[-1] += gap + line
                continue
            if last.endswith(HYPHEN_CHAR) and runs_on(last[:-1], now):  # a word hyphenated to fit: whole
                out[-1] = out[-1][:-1] + line
                continue
        out.append(line)
    return out


def _unspaced(pair: str) -> bool:
    """Whether two characters side by side take no space between them: either is Japanese or
    Chinese (a kana, kanji or full-width form), as a Japanese line has no word spaces."""
    return any(unicodedata.east_asian_width(c) in "WF" for c in pair)


def _ruby_readings(texts: list) -> set[tuple[int, int]]:
    """The runs of ``texts`` (text items: by item and run) that are a ruby's reading, not words of
    their own: at RUBY_SCALE of a run's size, set as text/svg.py sets a reading over its base (its
    em box on the base's: the baseline ASCENT of the base's em and the rest of its own above) and
    over it; or, in vertical text (the m.tate() macro: a character a run), a character beside a
    character of the base, right of it and within a base character up or down, in a column (a
    character of its size just above or below it: a token's small letter beside its big one is no
    ruby). A piece is named by the base (``plain``), as everywhere else in pnpgen."""
    runs = [(k, i, item[2], x, y, chars) for k, item in enumerate(texts) for i, (x, y, chars) in enumerate(item[3])]
    singles = [(size, x, y) for _, _, size, x, y, chars in runs if len(chars) == 1]

    def in_column(size: float, x: float, y: float) -> bool:
        return any(abs(s - size) < 1e-3 and abs(sx - x) < 0.3 * size and 0 < abs(sy - y) < 1.6 * size
                   for s, sx, sy in singles)

    return {(k, i) for k, i, size, x, y, chars in runs
            if any(abs(b_size * RUBY_SCALE - size) < 1e-3
                   and (abs(b_y - y - ASCENT * b_size - (1 - ASCENT) * size) < 1e-2
                        and abs(b_x - x) <= b_size * max(len(b_chars), len(chars))
                        or len(chars) == len(b_chars) == 1 and 0.3 * b_size < x - b_x < 1.2 * b_size
                        and abs(b_y - y) < 1.5 * b_size and in_column(b_size, b_x, b_y))
                   for _, _, b_size, b_x, b_y, b_chars in runs)}


def table_names(deck: Deck, lang: str) -> dict[int, str]:
    """Each piece's name on the table, by its number: its name as order.csv and the build call it;
    a name several pieces share with the values that tell it from the others of its name, as the
    change report and reprint.txt call it (``コイン［5］``, ``Coin [5]``: a place in the deck file,
    ``#2``, is nothing the printed piece shows), with its number only where no value tells them
    apart (``得点 #2``). A piece with no naming field is its deck's name (on the table nothing else
    says which deck it came from), with the values that tell it from the deck's other nameless
    pieces when it has some, as the change report tells them (a player colour's four tokens,
    ``ワーカー［purple］``, not ``ワーカー #1`` … ``#4``: a place in the deck file), else its number
    (``#2``). The copies of one piece share its name, as a card's copies do: a die's two copies are not ``#1``."""
    named = names_told_apart(deck.pieces, lang)
    if len(deck.pieces) == 1:
        return {p.index: named.get(p.index) or deck.name for p in deck.pieces}
    nameless = [p for p in deck.pieces if p.index not in named]
    values = {p.index: plain_values(p.values) for p in nameless}
    telling = shortest_telling_fields([list(values.values())], set())
    return {p.index: named.get(p.index) or told_by_values(deck.name, values[p.index], telling, lang)
            or f"{deck.name} #{p.index}" for p in deck.pieces}


def described(face: UniqueFace, style: PageStyle, lang: str) -> str:
    """A piece's ``Description`` on the table: the fields its front shows (``shown_fields``)."""
    return shown_fields(face.piece, style.arts.get(face.front), face.deck.layout, lang, face.deck.sheet_headers)


def name_of_back(face: UniqueFace, name: str, style: PageStyle) -> str:
    """What a piece's back goes by on the table (a tile's one name, whichever side is up; a
    token's back state): the piece's name when its back prints that name too (a counter's unit on
    both sides), else its deck's name — a vote token's back, 反対, is not called 賛成 after its
    front, nor a face-down tile after the front it hides."""
    if not face.piece.own_name.split() or back_names_it(face, style):
        return name  # (a piece with no name of its own is called by its deck's already)
    return face.deck.name


def back_names_it(face: UniqueFace, style: PageStyle) -> bool:
    """Does the piece's back print the piece's own name (a counter's unit on both sides)?"""
    art = style.arts.get(face.back or "")
    shown = "".join(m[7] for m in art.marks if m[0] == "text") if art is not None else ""
    own = "".join(face.piece.own_name.split())
    return bool(own) and own in "".join(shown.split())
