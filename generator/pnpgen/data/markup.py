"""The data format's inline markup in YAML text → paragraphs of styled spans (the text
stage typesets them; ``plain`` gives the words alone for names and messages).

Markup (everything else is literal text, never SVG/HTML):

- ``**bold**``
- ``[red]…[/red]`` — a colour span; the name must be in the game's palette
- ``{food}``, ``{火}`` — an icon token (resolved later, by name): a name starting with a letter of
  any script (a Japanese designer's icons are 火.svg, 水.svg), never a digit or a space
- ``{漢字|かんじ}`` — ruby: the reading is set above the base at half size (the bar half- or
  full-width, ``{漢字｜かんじ}``, as a Japanese input method types it); ``{東京|とう|きょう}``, a
  reading a base character, is jukugo ruby (``ruby_spans``)
- a newline — an explicit line break (a new paragraph for line breaking)
- ``\\*``, ``\\[``, ``\\]``, ``\\{``, ``\\}``, ``\\\\``, ``\\|``, ``\\｜`` — the character itself, literally
  (a ruby's bar escaped: a layout's ``label:`` or ``unit:`` may print one, data/boxoptions.py)

Unmatched ``**`` or ``[name]`` print literally, and so does ``{{ … }}`` (template-looking braces
in data are data). A ``[name]…[/name]`` pair whose name is not in the palette is an error: the
designer clearly meant a colour.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from pnpgen.errors import suggest
from pnpgen.patterns import later
from pnpgen.safetext import clipped

MISSING_COLOUR = "missing-translation"  # palette name pnpgen adds for its 〔ja〕 marker (data/i18n.py)


def colour_names(palette: Mapping[str, str]) -> list[str]:
    """The palette's names as the designer wrote them, for messages: without the marker colour
    pnpgen adds itself."""
    return [name for name in palette if name != MISSING_COLOUR]


TEXT, ICON, RUBY = "text", "icon", "ruby"


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch of one kind and one style."""

    kind: str  # TEXT | ICON | RUBY
    text: str  # the characters; the icon name; the ruby base
    bold: bool = False
    colour: str | None = None  # palette name, or None for the box's fill
    reading: str = ""  # ruby only


class MarkupError(ValueError):
    """Markup that cannot mean anything else: reported by the caller with where it was used."""


_ICON_NAME = r"[^\W\d_][\w-]*"  # a letter of any script first ({火}, {vp}), never a digit, a space or _
_ESCAPED = r"\\[\\*\[\]{}|｜]"
# a ruby's base or reading: its escapes read as outside one ({漢字|かんじ\}} has a brace in its
# reading, and {漢字|かんじ\} is no ruby at all), a backslash before anything else the backslash itself
RUBY_PART = r"(?:" + _ESCAPED + r"|\\(?![\\*\[\]{}|｜])|[^{}|｜\n\\])"
RUBY_MARK = r"\{" + RUBY_PART + r"+(?:[|｜]" + RUBY_PART + r"+)+\}"
_AS_ICON = re.compile(r"(?<!\{)\{(" + _ICON_NAME + r")\}(?!\})")  # text that would read as an icon token
_UNESCAPE = later(r"\\([\\*\[\]{}|｜])")
_TOKEN = re.compile(
    r"\\(?P<esc>[\\*\[\]{}|｜])"
    r"|(?P<bold>\*\*)"
    r"|\[(?P<close>/?)(?P<colour>[A-Za-z][\w-]*)\]"
    r"|(?<!\{)\{(?P<base>" + RUBY_PART + r"+)[|｜](?P<reading>" + RUBY_PART + r"+(?:[|｜]" + RUBY_PART + r"+)*)\}(?!\})"
    r"|(?<!\{)\{(?P<icon>" + _ICON_NAME + r")\}(?!\})"
    r"|(?P<nl>\n)"
)


def parse(text: str, palette: Mapping[str, str]) -> list[list[Span]]:
    """Paragraphs (split at newlines) of spans. Bold and colour carry across newlines.
    Empty text has no paragraphs (and sets no line)."""
    if not text:
        return []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tokens = list(_TOKEN.finditer(text))
    literal = _unmatched(tokens, palette)

    paragraphs: list[list[Span]] = [[]]
    bold = False
    colours: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            _append(paragraphs[-1], Span(TEXT, "".join(buf), bold, colours[-1] if colours else None))
            buf.clear()

    pos = 0
    for i, m in enumerate(tokens):
        buf.append(text[pos:m.start()])
        pos = m.end()
        if i in literal:
            buf.append(m.group(0))
        elif m.group("esc"):
            buf.append(m.group("esc"))
        elif m.group("bold"):
            flush()
            bold = not bold
        elif m.group("colour"):
            flush()
            if m.group("close"):
                colours.pop()
            else:
                colours.append(m.group("colour"))
        elif m.group("base"):
            rubies = ruby_spans(m, bold, colours[-1] if colours else None)
            if rubies is None:  # a reading a character, not as many as its characters: as written (loose_marks)
                buf.append(m.group(0))
                continue
            flush()
            for ruby in rubies:
                _append(paragraphs[-1], ruby)
        elif m.group("icon"):
            flush()
            _append(paragraphs[-1], Span(ICON, m.group("icon"), bold, colours[-1] if colours else None))
        else:  # newline
            flush()
            paragraphs.append([])
    buf.append(text[pos:])
    flush()
    return paragraphs


JUKUGO_FITS = 2  # ruby characters a base character's reading may hold to be set on it alone (JLREQ F.1)
_READING_UNIT = later(RUBY_PART + r"|[|｜]")


def readings(said: str) -> list[str]:
    """A ruby's reading as written after its base's bar (``とう|きょう``): each piece between
    unescaped bars, unescaped (``\\|`` is a bar inside a reading)."""
    pieces = [""]
    for unit in _READING_UNIT.findall(said):
        if unit in ("|", "｜"):
            pieces.append("")
        else:
            pieces[-1] += unit
    return [_UNESCAPE.sub(r"\1", piece) for piece in pieces]


def ruby_spans(m: re.Match, bold: bool, colour: str | None) -> list[Span] | None:
    """The ruby spans a ``{base|reading}`` token sets. A reading for each base character,
    ``{東京|とう|きょう}``, is jukugo ruby (JLREQ 3.3.7, Appendix F): where each reading fits its
    character, two ruby characters or fewer (F.1), a mono ruby each, so a line may break between
    the characters; where one does not, the word is one group ruby of the readings run together
    (W3C "Rules for Simple Placement of Japanese Ruby" 3.4), reaching over the kana beside it as
    any group ruby does. None: not one reading a character (printed as written, ``loose_marks``)."""
    base = _UNESCAPE.sub(r"\1", m.group("base"))
    pieces = readings(m.group("reading"))
    if len(pieces) == 1:
        return [Span(RUBY, base, bold, colour, pieces[0])]
    if len(pieces) != len(base):
        return None
    if all(len(piece) <= JUKUGO_FITS for piece in pieces):
        return [Span(RUBY, ch, bold, colour, piece) for ch, piece in zip(base, pieces)]
    return [Span(RUBY, base, bold, colour, "".join(pieces))]


def loose_marks(text: str, palette: Mapping[str, str]) -> list[str]:
    """The markup in ``text`` that prints as it is because it has no partner, in the designer's
    words: a lone ``**``, a palette colour opened and never closed, a closing tag that closes
    nothing (``[/corall]`` after ``[coral]``). A ``[word]`` that names no palette colour is
    text, not a mistake (``[A]``, ``[1]``)."""
    if not any(mark in text for mark in ("*", "[", "|", "｜", "＊＊", "［")):
        return []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    wide = list(dict.fromkeys([f"＊＊{m.group(1)}＊＊ in full-width asterisks" for m in _WIDE_BOLD.finditer(text)]
                              + [f"［{m.group(1)}{m.group(2)}］ in full-width brackets" for m in _WIDE_COLOUR.finditer(text)
                                 if m.group(2) in palette]))
    tokens = list(_TOKEN.finditer(text))
    found: list[str] = list(dict.fromkeys(  # (each once: '{|}' 300 times was said 300 times, hostile39)
        f"a ruby {clipped(m.group(0))} without its {'reading' if m.group('base').strip() else 'base'}"
        for m in _HALF_RUBY.finditer(text) if not (m.group("base").strip()
                                                   and all(piece.strip() for piece in readings(m.group("reading"))))))
    found += [_jukugo_count(m) for m in tokens if m.group("base") and ruby_spans(m, False, None) is None]
    found += _unpaired_ruby_braces(_HALF_RUBY.sub("\0", _TOKEN.sub(_held, text)))
    for i in sorted(_unmatched(tokens, palette)):
        m = tokens[i]
        name = m.group("colour")
        if m.group("bold"):
            said = "a '**' without its partner"
        elif name and m.group("close"):
            said = f"[/{name}] closes no [{name}]"
        elif name in palette:
            said = f"[{name}] is never closed by [/{name}]"
        else:
            continue
        if said not in found:
            found.append(said)
    return found + wide


def _held(m: re.Match) -> str:
    """A markup token as ``_unpaired_ruby_braces`` reads the text: a NUL, an escaped opening brace
    SOH (``\\{a|}`` prints {a|}, a brace the designer wrote, not one forgotten)."""
    return "\x01" if m.group("esc") == "{" else "\0"


def _unpaired_ruby_braces(rest: str) -> list[str]:
    """A ruby whose brace is forgotten, in ``rest`` (the text with its markup tokens a NUL, an
    escaped opening brace SOH: ``_held``): ``{星|ほし`` never closed (up to a line's end or the next
    markup), ``星|ほし}`` never opened (from the line's start or the last brace or markup). A bar
    outside braces (``HP|MP``) is text."""
    said = [f"a ruby {clipped(m.group(0))} never closed by }}" for m in _OPEN_RUBY.finditer(rest)]
    said += [f"a ruby {clipped(m.group(0))} without its opening {{" for m in _SHUT_RUBY.finditer(rest)]
    return list(dict.fromkeys(said))


def _jukugo_count(m: re.Match) -> str:
    """What is wrong with a jukugo ruby whose readings are not one a base character, and what
    would be right."""
    base, pieces = _UNESCAPE.sub(r"\1", m.group("base")), readings(m.group("reading"))
    return (f"a ruby {clipped(m.group(0))} gives {len(pieces)} readings to the {len(base)} characters of {base}: "
            f"a compound word's ruby gives one to each character ({{{base}|{'|'.join(['…'] * len(base))}}}), "
            f"or one to the whole word ({clipped('{' + base + '|' + ''.join(pieces)) + '}'})")  # (1,000 readings: a 2.5 kB line)


# bold and a colour typed with the input method on (＊＊強＊＊, ［red］…［/red］): printed as written
_WIDE_BOLD = later(r"＊＊([^＊\n]+)＊＊")
_WIDE_COLOUR = later(r"［(/?)([A-Za-z][\w-]*)］")
_HALF_RUBY = later(r"(?<![\\{])\{(?P<base>" + RUBY_PART + r"*)[|｜](?P<reading>" + RUBY_PART + r"*(?:[|｜]" + RUBY_PART + r"*)*)\}(?!\})")  # {鏡|}, {|かがみ}


_OPEN_RUBY = later(r"\{[^{}\n\0|｜]+[|｜][^{}\n\0]*(?=[{\n\0]|$)")
_SHUT_RUBY = later(r"(?:(?<=[}\n\0])|^)[^{}\n\0\x01|｜]+[|｜][^{}\n\0]*\}", re.MULTILINE)


class _EveryColour(dict):
    """A palette that holds every name: ``plain`` reads ``[name]…[/name]`` as colour markup
    without knowing the game's palette."""

    def __contains__(self, name: object) -> bool:
        return True


_MARKUP_CHARACTERS = later(r"([\\*\[\]{}])")


def literal(text: object) -> str:
    """``text`` as it stands in print: its markup characters escaped (``\\{``), so a name shown
    as text — a game's title, a deck's name — is never read as an icon, a colour or bold
    (``Dice {Beta}`` named an icon 'Beta' and stopped the build). A text that remembers its
    field (model.FieldText) still does, for the errors that name it."""
    said = _MARKUP_CHARACTERS.sub(r"\\\1", str(text))
    field = getattr(text, "field", "")
    return type(text)(said, field) if field and isinstance(text, str) else said  # type: ignore[call-arg, call-overload]


ICON_TOKEN = re.compile(r"(?<!\{)\{" + _ICON_NAME + r"\}(?!\})")


# an icon written with a value after a colon, as other card tools write one (``{mana:2}``):
# pnpgen's icons take none, so it would print as text, braces and all (text/box.py says so)
ICON_WITH_VALUE = later(r"(?<![\\{])\{(?P<name>" + _ICON_NAME + r")[ \t]*[:：][ \t]*(?P<value>[^{}|｜\n]{1,40})\}(?!\})")


def without_icons(text: str) -> str:
    """``text`` with its ``{name}`` icons left out: an icon named in Japanese (``{火}``) is no
    Japanese text to translate."""
    return ICON_TOKEN.sub("", text)


# the characters every token of _TOKEN begins with (an escape, bold, a colour, a ruby or icon, a
# newline), and the carriage return parse turns into one: a text holding none is plain already
_MAY_HOLD_MARKUP = later(r"[\\*\[{\n\r]")


# punctuation an icon's name is set against, as a word is (``Pay 1 {coin}.`` reads ``Pay 1 coin.``, never
# ``coin .``; ``（{coin}）`` reads ``（coin）``): English and Japanese closing and opening marks
_CLOSING = frozenset(".,;:!?)]}'\"…%、。，．：；！？）〕］｝〉》」』】〙〗’”・")
_OPENING = frozenset("([{'\"（〔［｛〈《「『【〘〖‘“")


def plain(text: str, palette: Mapping[str, str] | None = None, icons: bool = False) -> str:
    """The text with markup removed, as a list of names reads it (order.csv, reprint.txt, the
    change report): an icon as its name, a word set apart by spaces (``{star}の騎士`` → ``star
    の騎士``) but set against punctuation (``Pay 1 {coin}.`` → ``Pay 1 coin.``), ruby as its base;
    without a palette every ``[name]…[/name]`` pair counts as a colour.
    ``icons``: an icon kept as its token, as written (``{star}の騎士``: ``pnpgen diff``, where ``star
    の騎士`` read as a word of the text), and text that would read as one escaped as written (``\\{star\\}``)."""
    if not _MAY_HOLD_MARKUP.search(text):  # (no token can begin: the text is its one span, as parse reads it;
        return str(text)                   # a piece's FieldText as the plain str the spans' join makes)
    out = []
    for para in parse(text, _EveryColour() if palette is None else palette):
        line = ""
        for i, span in enumerate(para):
            if span.kind != ICON:  # (icons kept: a text's escaped \{vp\} stays escaped, told from the icon {vp})
                line += _AS_ICON.sub(r"\\{\1\\}", span.text) if icons else span.text
                continue
            if icons:
                line += "{" + span.text + "}"
                continue
            before = " " if line and not line[-1].isspace() and line[-1] not in _OPENING else ""
            follows = para[i + 1].text[:1] if i + 1 < len(para) else ""
            after = " " if follows and not follows.isspace() and follows not in _CLOSING else ""
            line += before + span.text + after
        out.append(line)
    return "\n".join(out)


def _append(spans: list[Span], span: Span) -> None:
    if span.kind == TEXT and not span.text:
        return
    if spans and span.kind == TEXT and spans[-1].kind == TEXT and spans[-1].bold == span.bold \
            and spans[-1].colour == span.colour:
        spans[-1] = Span(TEXT, spans[-1].text + span.text, span.bold, span.colour)
    else:
        spans.append(span)


def _unmatched(tokens: list[re.Match], palette: Mapping[str, str]) -> set[int]:
    """Indexes of bold and colour tokens without a partner: they print literally."""
    literal: set[int] = set()
    bolds = [i for i, m in enumerate(tokens) if m.group("bold")]
    if len(bolds) % 2:
        literal.add(bolds[-1])
    stack: list[tuple[int, str]] = []
    closes = {m.group("colour") for m in tokens if m.group("colour") and m.group("close")}
    for i, m in enumerate(tokens):
        name = m.group("colour")
        if not name:
            continue
        if not m.group("close"):
            if name not in palette:
                if name in closes:
                    raise MarkupError(
                        f"unknown colour [{name}]{suggest(name, colour_names(palette))} "
                        f"(palette has: {', '.join(colour_names(palette)) or 'nothing'})")
                literal.add(i)
            else:
                stack.append((i, name))
            continue
        # a closing tag: match the nearest open tag of the same name
        for k in range(len(stack) - 1, -1, -1):
            if stack[k][1] == name:
                literal.update(j for j, _ in stack[k + 1:])  # crossed tags inside print literally
                del stack[k:]
                break
        else:
            literal.add(i)
    literal.update(j for j, _ in stack)
    return literal
