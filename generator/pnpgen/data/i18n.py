"""Translations in the data: the one place where a build's language is chosen.

Any text in game.yaml or a deck file may be a mapping by language, ``title: {ja: 祝福, en:
Blessing}``. game.yaml names the game's ``languages`` (default ``[ja]``) and its
``default_language`` (default the first). ``Translations.resolve`` replaces every such mapping in
a loaded YAML document by the selected language's text, before anything else reads it, so the rest
of loading, the templates and the rulebook only ever see plain text.

A mapping without the selected language prints the default language's text after a magenta
``〔ja〕`` marker (the marker is markup pnpgen writes, in front of the designer's text, never
inside it) and is recorded with its file:line. A deck file with no translation at all, built in
another language than the default, is recorded once (its text prints as written, unmarked).

In a spreadsheet deck, a column headed ``<field>.<lang>`` (``name.en``) holds that field's
translation; the plain ``<field>`` column is the default language (``resolve_rows``).

A placeholder's mark (未定 or TBD, data/model.py) is said here in the selected language's word,
in every file and sheet: a Japanese game's 未定 prints TBD in its English edition.

``fonts:`` in game.yaml may hold a mapping per language (``fonts: {en: {gothic: …}}``): the
selected language's roles override the plain ones for the card text (``Game.text_fonts``); sheet
labels and the rulebook keep the plain roles (``Game.fonts``), which set Japanese.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.data.markup import MISSING_COLOUR, without_icons
from pnpgen.data.model import LATIN_GAP, PLACEHOLDER_COLOUR, UNSHOWN_FIELD, placeholder_said
from pnpgen.data.optionvalues import LANGUAGE_EXPECTED
from pnpgen.data.validate import show
from pnpgen.data.yamlhint import cut_text, flow, quoted
from pnpgen.data.yamlsrc import Located, keyname, load_yaml
from pnpgen.errors import InputError, Where
from pnpgen.fonts import LATIN_FONTS, locate
from pnpgen.patterns import later
from pnpgen.safetext import shown_invisible
from pnpgen.terms import is_latin

# A language code as pnpgen reads one: ISO 639-1 (two letters, lower case), optionally a script
# (zh-Hant) and a region (en-GB, es-419), as BCP 47 writes them. It names the build's folder, the
# key of each translation mapping and the <field>.<lang> spreadsheet column, so one spelling only.
LANGUAGE_CODE = re.compile(r"[a-z]{2}(-[A-Z][a-z]{3})?(-(?:[A-Z]{2}|[0-9]{3}))?")
# Every ISO 639-1 code: a game's languages are these, so a misspelt one (jp for ja) is refused at
# its line instead of making an edition no translation mapping ever names.
ISO_639_1 = frozenset("""aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de
    dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is
    it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na
    nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr
    ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu""".split())
_ISO_639_2 = {"eng": "en", "jpn": "ja", "fra": "fr", "fre": "fr", "deu": "de", "ger": "de", "zho": "zh",
              "chi": "zh", "kor": "ko", "spa": "es", "ita": "it", "por": "pt",  # the three-letter codes met
              "jp": "ja", "kr": "ko", "cn": "zh",  # the country's code for its language's
              # and the languages' English names, as typed for a code (--lang english)
              "english": "en", "japanese": "ja", "french": "fr", "german": "de", "chinese": "zh",
              "korean": "ko", "spanish": "es", "italian": "it", "portuguese": "pt"}


# game.yaml's settings an edition may give for itself (paper: {ja: a4, en: letter}); one given for
# other editions only is not set in this one, never printed as a text marked 〔ja〕
EDITION_SETTINGS = frozenset({("paper",), ("printer",)})


def is_language(code: str) -> bool:
    """A language code pnpgen reads that names a language: ``ja``, ``en-GB``; not ``jp``."""
    return bool(LANGUAGE_CODE.fullmatch(code)) and code[:2] in ISO_639_1


def edition_asked(game_yaml: Path, lang: str | None) -> str | None:
    """``--lang`` as the edition to make: None when it names the game's default language, which a
    plain build makes, so that ``--lang ja`` in a Japanese game writes, records and compares where a
    build without it does (build/<game>/, not build/<game>/ja/). A game.yaml that cannot be read
    leaves it as given: the load says what is wrong."""
    if lang is None:
        return None
    try:
        data = load_yaml(game_yaml).data
    except InputError:
        return lang
    if not isinstance(data, dict):
        return lang
    languages = data.get("languages")
    default = data.get("default_language", languages[0] if isinstance(languages, list) and languages else "ja")
    return None if lang == default else lang


def other_editions(game_yaml: Path) -> list[str]:
    """The languages a game lists besides its default one, as game.yaml writes them: the editions a
    Tabletop Simulator export keeps apart from the default's (exports/ttsids.py). A game.yaml that
    cannot be read has none: its own commands say what is wrong."""
    try:
        data = load_yaml(game_yaml).data
    except InputError:
        return []
    languages = data.get("languages") if isinstance(data, dict) else None
    if not isinstance(languages, list) or not all(isinstance(x, str) for x in languages) or not languages:
        return []
    default = data.get("default_language", languages[0])
    return [lang for lang in languages if lang != default]


def language_code_meant(code: str, among: list[str] | None = None) -> str | None:
    """The code meant by one written another way: ``eng`` (ISO 639-2) → en, ``EN`` → en,
    ``en_us`` → en-US (and, given ``among``, only one of those); else None."""
    parts = re.split(r"[-_]", code.strip())
    first = _ISO_639_2.get(parts[0].lower(), parts[0].lower())
    fixed = "-".join([first, *(p.title() if len(p) == 4 else p.upper() for p in parts[1:])])
    known = is_language(fixed) and (among is None or fixed in among)
    return fixed if fixed != code and known else None


def language_code_hint(code: str, among: list[str] | None = None) -> str:
    """``; did you mean en?`` for a code written another way (:func:`language_code_meant`), else nothing."""
    meant = language_code_meant(code, among)
    return f"; did you mean {meant}?" if meant else ""


@dataclass
class Missing:
    """A text the selected language has no translation for."""

    where: Where
    key: str  # "pieces.3.title" (the third piece's), or "" for a whole untranslated file
    shown: str  # the default language's text printed instead
    marked: bool = True  # printed after the 〔ja〕 marker (a mapping without the language); False: a plain text
    shown_lang: str = ""  # the language of ``shown`` (the default's, or another when the default's is missing)
    cells: int = 0  # a spreadsheet column left plain: how many of its cells are (``where`` the first)
    field: str = ""  # … its field, where the sheet heads it in its own words (``key`` 効果, mapped by columns: to text)


MARKED = later(rf"\[{MISSING_COLOUR}\]〔[^〕]*〕\[/{MISSING_COLOUR}\]")  # ``marker``'s, at a text's start
# a translation column headed with its language in brackets, as a sheet often says it: Title (EN), text（en）
_BRACKETED_LANG = later(r"(.+?)\s*[(（\[［]\s*([^()（）\[\]［］]+?)\s*[)）\]］]")
_SCRIPT_LANGS = ("ja", "zh", "ko")  # languages written in CJK script: a build in one reads kanji as its own


@functools.cache
def japanese() -> re.Pattern[str]:
    """Kana or kanji (compiled when a translation is checked: 2 ms at every start otherwise)."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


@dataclass
class Translations:
    """A game's languages as game.yaml lists them, the one being built, and what that language still lacks: the
    build warns of a missing translation rather than print the other language unseen."""

    lang: str  # the language being built
    default: str
    languages: list[str]
    latin_gap: float = LATIN_GAP
    missing: list[Missing] = field(default_factory=list)
    fonts: dict[str, str] = field(default_factory=dict)  # role → font for the selected language only
    other_fonts: dict[str, dict[str, str]] = field(default_factory=dict)  # the other languages' (checked, unused)
    translated: set = field(default_factory=set)  # the files (paths) with a translation mapping in them
    languages_at: Where | None = None  # game.yaml's languages: line (no line number: game.yaml has none)
    # the other editions a value of which does not read (a number translated into a word): their
    # texts not kept on the pieces (``Piece.editions``), as that edition's own build stops at it
    unread: set[str] = field(default_factory=set, metadata=UNSHOWN_FIELD)  # (no edition's text the rulebook shows)

    @classmethod
    def from_game(cls, doc: Located, lang: str | None) -> Translations:
        """Read game.yaml's language keys, check ``lang`` against them and resolve game.yaml."""
        data = doc.data if isinstance(doc.data, dict) else {}
        languages = data.get("languages", None)
        listed = languages is not None
        if languages is None:
            languages = [str(data.get("default_language", "ja"))]
        if not isinstance(languages, list) or not languages or not all(isinstance(code, str) for code in languages):
            raise doc.error(("languages",), f"languages must be a list of language codes, got {show(languages)}",
                            "e.g. 'languages: [ja, en]'")
        for i, code in enumerate(languages):
            if not is_language(code):
                what = "an ISO 639-1 language" if LANGUAGE_CODE.fullmatch(code) else "a language code pnpgen reads"
                raise doc.error(("languages", i) if listed else ("default_language",),
                                f"{code!r} is not {what}{language_code_hint(code)}", LANGUAGE_EXPECTED)
        twice = sorted({code for code in languages if languages.count(code) > 1})
        if twice:
            raise doc.error(("languages",), f"languages lists {', '.join(twice)} more than once",
                            "each language code once, e.g. 'languages: [ja, en]'")
        default = data.get("default_language", languages[0])
        if default not in languages:
            raise doc.error(("default_language",), f"default language {default!r} is not in languages"
                            + language_code_hint(str(default), languages),
                            "one of " + ", ".join(languages))
        chosen = default if lang is None else lang
        if chosen not in languages:
            raise doc.error(("languages",), f"this game has no language {chosen!r} (--lang){language_code_hint(chosen, languages)}",
                            "one of " + ", ".join(languages) + " (add it to languages: in game.yaml)")
        gap = data.get("latin_gap", LATIN_GAP)
        if isinstance(gap, bool) or not isinstance(gap, (int, float)) or not 0 <= gap <= 1:
            raise doc.error(("latin_gap",), f"latin_gap {show(gap)} is not a number of em from 0 to 1",
                            "e.g. 'latin_gap: 0.25' (a quarter em), 0 for none")
        tr = cls(chosen, default, list(languages), float(gap))
        tr.languages_at = doc.where(("languages",), key=True) if listed else Where(doc.path)
        fonts = data.get("fonts")
        if isinstance(fonts, dict):
            data["fonts"] = tr._fonts(doc, fonts)
        if data.get("palette") is None:  # a game may name no colours
            data["palette"] = {}
        if isinstance(data.get("palette"), dict):
            data["palette"].setdefault(MISSING_COLOUR, PLACEHOLDER_COLOUR)  # magenta, like a 未定 value
        tr.resolve(doc)
        return tr

    def _fonts(self, doc: Located, fonts: dict) -> dict:
        """The plain roles (for everything pnpgen sets itself); the selected language's roles are
        kept for its card text (``text_fonts``), other languages' dropped."""
        for k, v in fonts.items():
            if isinstance(v, dict) and k not in self.languages:
                raise doc.error(("fonts", k), f"fonts.{k} is a mapping but {k!r} is not one of the game's languages",
                                "role: font, or a language from languages: with role: font under it")
        by_lang = {k: {str(role): str(name) for role, name in v.items()} for k, v in fonts.items() if isinstance(v, dict)}
        self.fonts = by_lang.pop(self.lang, {})
        self.other_fonts = by_lang
        return {k: v for k, v in fonts.items() if not isinstance(v, dict)}

    def text_fonts(self, doc: Located, roles: dict[str, str], fallbacks: list[str],
                   font_dir, named: frozenset[str] = frozenset()) -> tuple[dict[str, str], list[str]]:
        """Font roles and fallbacks for the card text of the selected language: its own roles over
        the plain ones, and each font it replaces as a fallback, so text left in the default
        language (and the 〔ja〕 marker) still finds its glyphs. A language in Latin letters sets a
        role game.yaml names nowhere (``named``: the plain roles it names) in the Latin face pnpgen
        ships (Noto), as the rulebook does, not in BIZ UD's Latin letters."""
        text_roles = dict(roles)
        text_fallbacks = list(fallbacks)
        for lang, lang_roles in self.other_fonts.items():  # a misspelt font of the English edition is
            for role, name in lang_roles.items():           # told by 'check' and a Japanese build too
                locate(name, font_dir, where=doc.where(("fonts", lang, role)), key=f"fonts.{lang}.{role}")
        own = dict(self.fonts)
        if is_latin(self.lang):
            own.update({role: name for role, name in LATIN_FONTS.items() if role not in named and role not in own})
        for role, name in own.items():
            where = doc.where(("fonts", self.lang, role)) if role in self.fonts else Where(doc.path)
            name = locate(name, font_dir, where=where, key=f"fonts.{self.lang}.{role}" if role in self.fonts else "fonts")
            if role in self.fonts:  # (written as its file, X.ttf: the font's name)
                self.fonts[role] = name
            replaced = text_roles.get(role)
            if replaced and replaced != name and replaced not in text_fallbacks:
                text_fallbacks.append(replaced)
            text_roles[role] = name
        return text_roles, text_fallbacks

    @property
    def other_editions(self) -> list[str]:
        """The game's other languages whose texts a build of its default language keeps on each
        piece (``Piece.editions``), read with its own: the change report, ``pnpgen diff`` and
        ``log`` tell a translation's edit as an edit of the card (trial68). None in another
        language's build: its own texts are its fields."""
        return [code for code in self.languages if code != self.default] if self.lang == self.default else []

    def resolve(self, doc: Located) -> Any:
        """Replace every translation mapping in ``doc`` by the selected language's text. Returns
        the document as written, every language's texts in it, where the build keeps the other
        editions' (``other_editions``, ``in_edition``); else None."""
        found = [0]
        written = doc.data if self.other_editions else None
        doc.data = self._walk(doc, doc.data, (), found)
        if found[0]:
            self.translated.add(doc.path)
        from_sheet = isinstance(doc.data, dict) and isinstance(doc.data.get("pieces"), dict)  # said by resolve_rows
        if not found[0] and self.lang != self.default and doc.path.name != "game.yaml" and not from_sheet:
            self.missing.append(Missing(Where(doc.path), "", f"nothing in this file is translated into "
                                                            f"{self.lang}; printed in {self.default} as written"))
        return written

    def in_edition(self, written: Any, lang: str) -> Any:
        """A value as written (translation mappings in it) as the ``lang`` edition's build reads
        it (``resolve`` in that build): each mapping's ``lang`` text, else the default's marked
        〔ja〕; each placeholder in its word. Nothing recorded: that edition's build warns of its own."""
        if isinstance(written, str):
            return placeholder_said(written, lang)
        if not isinstance(written, (dict, list)):
            return written
        if isinstance(written, dict) and self._is_translation(written):
            return placeholder_said(self._text_in(written, lang)[0], lang)
        if isinstance(written, dict):
            return {k: self.in_edition(v, lang) for k, v in written.items()}
        return [self.in_edition(v, lang) for v in written]

    def resolve_rows(self, sheet: Any, pieces: list[dict], fields: Any = ()) -> tuple[list[dict], list[dict[str, dict[str, Any]]]]:
        """Spreadsheet rows with ``<field>.<lang>`` columns folded into the chosen language's text,
        and each row's translated fields as the other editions read them (language → field →
        text; ``other_editions``: none kept, none). ``sheet`` answers ``where(keypath)``
        (data/spreadsheets.py SheetDoc); ``fields``: the deck's, a column headed by one of them (a
        name with a dot in it) is no translation."""
        for h in getattr(sheet, "headers", []):
            self._undotted_column(sheet, h, fields)
        columns = {h: h.rsplit(".", 1) for h in getattr(sheet, "headers", []) if "." in h}
        for h, (f, lang) in columns.items():
            if lang not in self.languages and h not in fields:
                self._other_language_column(sheet, h, f, lang)
        columns = {h: (f, lang) for h, (f, lang) in columns.items() if lang in self.languages}
        if not columns:
            if self.lang != self.default:
                self.missing.append(Missing(Where(sheet.path, None, None, getattr(sheet, "sheet", None)), "",
                                            f"no {self.lang} column in this sheet; printed in {self.default} as "
                                            f"written (a translation is a column beside its text, title.{self.lang} "
                                            f"beside title; or, kept on a worksheet of their own, named in the "
                                            f"deck file: pieces: {{…, translations: {{{self.lang}: {{sheet: …}}}}}})"))
            return [self._said(raw) if isinstance(raw, dict) else raw for raw in pieces], []
        translated = {f for f, _ in columns.values()}
        self._plain_columns(sheet, pieces, [h for h in getattr(sheet, "headers", []) if h and h not in columns
                                            and h not in translated and dict(fields or {}).get(h) == "text"])
        out = []
        others = self.other_editions
        in_others: list[dict[str, dict[str, Any]]] = []
        for i, raw in enumerate(pieces):
            row = {k: v for k, v in raw.items() if k not in columns}
            elsewhere: dict[str, dict[str, Any]] = {lang: {} for lang in others}
            for f in sorted(translated):
                texts = {lang: raw[h] for h, (g, lang) in columns.items() if g == f and h in raw}
                if f in raw:
                    texts.setdefault(self.default, raw[f])
                picture = dict(fields or {}).get(f) == "image"
                for lang in others if texts else ():  # (as that edition's build reads the row: ``_said`` its word)
                    text = texts[self.default] if self._same_picture(texts, lang, picture) else self._text_in(texts, lang)[0]
                    elsewhere[lang][f] = placeholder_said(text, lang) if isinstance(text, str) else text
                if self._same_picture(texts, self.lang, picture):
                    row[f] = texts[self.default]  # a picture not translated is the same picture, its file name unmarked
                elif texts:  # a missing translation is told at the cell to fill: its <field>.<lang> column's
                    at = f"{f}.{self.lang}" if f"{f}.{self.lang}" in columns else f
                    row[f] = self._pick(sheet, texts, ("pieces", i, at), {("pieces",)})
                if texts and hasattr(sheet, "read_from"):  # a mistake in the text is told at the cell it came from
                    shown = self.lang if self.lang in texts else self.default if self.default in texts else next(iter(texts))
                    sheet.read_from[(i, f)] = next((h for h, (g, lang) in columns.items() if g == f and lang == shown), f)
            out.append(self._said(row))
            in_others.append(elsewhere)
        return out, in_others

    def _same_picture(self, texts: dict, lang: str, picture: bool) -> bool:
        """A picture's cell not translated into ``lang``: the same picture in that edition, its file name unmarked."""
        return picture and lang not in texts and self.default in texts

    def _plain_columns(self, sheet: Any, pieces: list[dict], headers: list[str]) -> None:
        """Text columns with no ``<field>.<lang>`` column beside them, in a sheet that translates
        others, built in a Latin-script language: their Japanese cells print as written, unmarked
        (a flavour column whose flavour.en was forgotten). One line per column, at its first such cell."""
        if self.lang == self.default or self.lang.split("-")[0] in _SCRIPT_LANGS:
            return
        for h in headers:
            rows = [i for i, raw in enumerate(pieces) if isinstance(raw, dict) and isinstance(raw.get(h), str)
                    and japanese().search(without_icons(raw[h]))]
            if rows:
                first = rows[0]
                label = sheet.label(h) if hasattr(sheet, "label") else h  # the sheet's header: 効果, mapped to text
                self.missing.append(Missing(sheet.where(("pieces", first, h)), label, pieces[first][h], marked=False,
                                            cells=len(rows), field=h if label != h else ""))

    def _said(self, row: dict) -> dict:
        """A row's placeholders in the edition's word (未定 ↔ TBD), as ``_walk`` says a YAML file's."""
        return {k: placeholder_said(v, self.lang) if isinstance(v, str) else v for k, v in row.items()}

    def _undotted_column(self, sheet: Any, header: str, fields: Any) -> None:
        """A translation column headed as a sheet often writes it, ``title_en``, ``Title (EN)``,
        ``text-en``: told the ``title.en`` it means, not "did you mean title?", which would give
        the sheet two title columns."""
        if not isinstance(header, str) or "." in header or header in (fields or ()):
            return
        bracketed = _BRACKETED_LANG.fullmatch(header.strip())
        splits = [bracketed.groups()] if bracketed else [header.rsplit(sep, 1) for sep in "_- :/" if sep in header]
        names = {str(f).lower(): str(f) for f in (fields or ())}
        for name, lang in splits:
            field_meant, code = names.get(name.strip().lower()), lang.strip()
            if field_meant is None or not code:
                continue
            meant = code.lower() if code.lower() in self.languages else language_code_meant(code, self.languages)
            if meant in self.languages:
                raise sheet.error(("pieces", 0, header),
                                  f"a field's translation is headed <field>.<language>, parted by a full stop: "
                                  f"{header!r} names no field", f"a column headed {field_meant}.{meant}", key=True)

    def _other_language_column(self, sheet: Any, header: str, name: str, lang: str) -> None:
        """A ``<field>.<lang>`` column of a language the game does not list: said as that (where
        the languages are listed, and what to add), not as an unknown field. A header whose tail
        is no language code is left to the field check."""
        meant = language_code_meant(lang, self.languages)
        added = language_code_meant(lang) or lang  # a code written another way (FR): the one to add, fr
        if not (LANGUAGE_CODE.fullmatch(lang) or meant or added != lang):
            return
        listed = ", ".join(self.languages)
        code = self.languages[0] if len(self.languages) == 1 else f"<one of {listed}>"
        # a header the deck's columns: maps to title.fr: said as that mapping, at its line of the deck file
        written = next((h for h, f in getattr(sheet, "mapped", {}).items() if f == header), None)
        column = f"{flow(written)}: {name}.{code}" if written is not None else f"a column headed {name}.{code}"
        at = self.languages_at
        if meant:
            message, expected = f"{lang!r} is not one of the game's languages; did you mean {name}.{meant}?", column
        elif at is None or at.line is None:  # no languages: line, the game is kept in its default language
            message = (f"{lang!r} is not one of the game's languages ({at.path if at else 'game.yaml'} "
                       f"has no languages: line, so {listed} only)")
            expected = f"'languages: [{listed}, {added}]' in game.yaml to translate into {added}; else {column}"
        else:
            message = f"{lang!r} is not one of the game's languages ({at}: languages: [{listed}])"
            expected = f"{added} added there, 'languages: [{listed}, {added}]', to translate into it; else {column}"
        mapped = sheet.mapping_error(header, message, expected) if written is not None else None
        raise mapped or sheet.error(("pieces", 0, header), message, expected, key=True)

    def _is_translation(self, value: Any) -> bool:
        return (isinstance(value, dict) and bool(value) and all(k in self.languages for k in value)
                and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value.values()))

    def _walk(self, doc: Located, value: Any, keypath: tuple, found: list[int]) -> Any:
        if keypath == ("rulebook",) and doc.path.name == "game.yaml":
            return value  # its figures' texts per language are the rulebook's to pick and warn of (rulebook/figures.py)
        if keypath == ("pieces", "translations"):
            return value  # a worksheet per language ({en: English}), no text (data/translationsheets.py)
        if not isinstance(value, (dict, list)):  # a text or a number (a thousand cards' values): no translation in it
            return placeholder_said(value, self.lang) if isinstance(value, str) else value
        if isinstance(value, dict) and self._is_translation(value):
            if keypath in EDITION_SETTINGS and doc.path.name == "game.yaml" and self.lang not in value:
                return None  # a setting given for other editions only (printer: {en: us-inkjet}): not set here
            found[0] += 1
            return placeholder_said(self._pick(doc, value, keypath, doc.lists), self.lang)
        self._other_language_key(doc, value, keypath)
        self._comma_cut(doc, value, keypath)
        if isinstance(value, dict):
            return {k: self._walk(doc, v, keypath + (k,), found) for k, v in value.items()}
        return [self._walk(doc, v, keypath + (i,), found) for i, v in enumerate(value)]

    def _comma_cut(self, doc: Located, value: Any, keypath: tuple) -> None:
        """``{ja: 置く。, en: Place them on the wharf, market and shipyard.}``: YAML ends the English
        text at ', ' and reads ``market and shipyard.`` as a key with no value, which made the text
        "not a valid text" (trial82): said as that, with the text in quotes to write."""
        if not (isinstance(value, dict) and any(k in self.languages for k in value)):
            return
        for key in value:
            cut = cut_text(doc, value, keypath, key) if key not in self.languages else None
            if cut is not None:
                raise doc.error(keypath + (key,), f"{str(key)!r} is not one of the game's languages: the ', ' "
                                f"before it ended the text of {cut[0]!r}", f"the text in quotes: {cut[0]}: {quoted(cut[1])}",
                                key=True)

    def _other_language_key(self, doc: Located, value: Any, keypath: tuple) -> None:
        """A text given in one of the game's languages and in another it does not list
        (``title: {en: Harbor Lights, ja: 港の灯}`` in a game of ``languages: [en]``): said as that,
        naming the languages line, not as "a mapping where text was expected"."""
        if not (isinstance(value, dict) and any(k in self.languages for k in value)
                and all(isinstance(k, str) and LANGUAGE_CODE.fullmatch(k) for k in value)
                and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value.values())):
            return
        other = next(k for k in value if k not in self.languages)
        listed = ", ".join(self.languages)
        at = self.languages_at
        where = f"{at}: languages: [{listed}]" if at is not None and at.line is not None else \
            f"{doc.path.name} has no languages: line, so {listed} only"
        raise doc.error(keypath + (other,), f"{other!r} is not one of the game's languages ({where})",
                        f"{other} added there, 'languages: [{listed}, {other}]', to keep this text in {other}; "
                        f"else the {other} text left out", key=True)

    def _pick(self, doc: Located, value: dict, keypath: tuple, lists: set[tuple]) -> str:
        text, shown_lang = self._text_in(value, self.lang)
        if shown_lang:
            self.missing.append(Missing(doc.where(keypath), keyname(keypath, lists) or "", str(value[shown_lang]),
                                        shown_lang=shown_lang))
        return text

    def _text_in(self, value: dict, lang: str) -> tuple[str, str]:
        """A translation's text in ``lang``; without one, the default language's (else the first
        given) after its 〔ja〕 marker, and that language ("" when ``lang``'s own is there)."""
        if lang in value:
            return str(value[lang]), ""
        shown_lang = self.default if self.default in value else next(iter(value))
        if nothing_to_translate(value[shown_lang]):  # (a card's rank, 7, beside an empty rank.en cell)
            return str(value[shown_lang]), ""
        return marker(shown_lang) + str(value[shown_lang]), shown_lang

    def shared_picture(self, value: str, where: Callable[[], Where]) -> str:
        """An image field's value without the 〔ja〕 marker a mapping that lacks this language gave
        it (``art: {ja: king.png}``): a picture is the same picture in every edition, its file name
        no text to mark (the marked name was "not found"), so it is no missing translation either.
        ``where``: where the value is, asked only of a marked one (a thousand cards' pictures)."""
        marked = MARKED.match(value)
        if marked is None:
            return value
        at = where()
        self.missing = [m for m in self.missing if m.where != at]
        return value[marked.end():]

    def plain_texts(self, path, texts) -> None:
        """Texts written plainly in Japanese (kana or kanji), in a file that translates others,
        built in a Latin-script language: most likely a translation forgotten, printed as written
        and unmarked (a plain text is the same in every language). ``texts``: (where, key, text)
        of the file's text values. Recorded to warn; never changed."""
        if self.lang == self.default or self.lang.split("-")[0] in _SCRIPT_LANGS or path not in self.translated:
            return
        for where, key, text in texts:
            if isinstance(text, str) and MISSING_COLOUR not in text and japanese().search(without_icons(text)):
                self.missing.append(Missing(where, key, text, marked=False))

    @staticmethod
    def list_texts(value: Any, at: tuple[int, ...] = ()):
        """A ``list`` field's texts with their places in it (a chart's rows: ``[[平地, 1], …]``), each
        a text that ``plain_texts`` reads as a ``text`` field's."""
        for n, item in enumerate(value if isinstance(value, list) else ()):
            if isinstance(item, list):
                yield from Translations.list_texts(item, at + (n,))
            elif isinstance(item, str):
                yield at + (n,), item

    @property
    def warnings(self) -> list[str]:
        """One line per missing translation, for the build's warnings."""
        return [self._line(m) for m in self.missing]

    def _line(self, m: Missing) -> str:
        if not m.key:  # a whole file
            return f"{m.where}: {m.shown}"
        key = shown_invisible(m.key)  # (a key holding U+200B said with it escaped, as an error says it)
        if m.marked:  # (a cell of the default language left empty prints another language's text)
            shown = m.shown_lang or self.default
            what = "text" if self.lang == self.default else "translation"
            return f"{m.where}: {key}: no {self.lang} {what}; printed in {shown} marked 〔{shown}〕"
        if m.cells:
            more = f" and {m.cells - 1} more cells of the column" if m.cells > 1 else ""
            return (f"{m.where}: {key}: {m.shown[:40]!r}{more}: plain {self.default} text in a sheet that "
                    f"translates other columns into {self.lang}; printed as written, unmarked (a translation "
                    + (f"forgotten? add a column {key}.{self.lang} beside it)" if not m.field else
                       f"forgotten? add a column beside it, mapped to {m.field}.{self.lang} in the deck's columns:)"))
        return (f"{m.where}: {key}: {m.shown[:40]!r} is plain {self.default} text in a file that translates "
                f"others into {self.lang}; printed as written, unmarked (a translation forgotten? write it as "
                f"{{{self.default}: …, {self.lang}: …}})")


# the line of a text printed marked 〔ja〕 (``Translations._line``), naming the file it is missing in
MISSING_LINE = later(r"^(?P<file>.+?):\d+(?::\d+)?: (?P<key>\S+): no (?P<lang>\S+) (?P<what>text|translation); "
                          r"printed in (?P<shown>\S+) marked 〔(?P=shown)〕$")


# the line of a Japanese text printed unmarked in a file that translates others (``Translations._line``)
PLAIN_LINE = later(r"^(?P<file>.+?):\d+(?::\d+)?: (?P<key>\S+): (?:'.*'|\".*\") is plain (?P<default>\S+) text in a file "
                        r"that translates others into (?P<lang>\S+); printed as written, unmarked ")


def more_plain(file: str, rest: list[re.Match]) -> str:
    """The line counting a file's texts left plain in the default language not named one by one."""
    m = rest[0]
    return (f"{file}: {len(rest)} more texts plain {m['default']} in a file that translates others into "
            f"{m['lang']}, printed as written, unmarked (pnpgen check --lang {m['lang']} lists each)")


def more_missing(file: str, rest: list[re.Match]) -> str:
    """The line counting a file's missing translations not named one by one."""
    m = rest[0]
    return (f"{file}: {len(rest)} more texts with no {m['lang']} {m['what']}, printed in {m['shown']} marked "
            f"〔{m['shown']}〕 (pnpgen check --lang {m['lang']} lists each)")


# a colour's tags, [red] and [/red]: markup, no word of the text
_COLOUR_TAG = later(r"\[/?[A-Za-z_][\w-]*\]")


def nothing_to_translate(value: Any) -> bool:
    """A value with no word in it — a number (a playing card's rank, 7, written in a translated
    column whose other cells are words: 月 → M), signs, an icon alone (``2{vp}``): the same in
    every edition, so an empty translation beside it is none missing and is printed unmarked (the
    rank 1 of 52 suit cards printed 〔ja〕1 in the English edition, each warned: trial71)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    if not isinstance(value, str) or not value.strip():
        return False
    return not any(ch.isalpha() for ch in _COLOUR_TAG.sub("", without_icons(value)))


def marker(lang: str) -> str:
    """The magenta 〔lang〕 put before a text printed in another language than the build's."""
    return f"[{MISSING_COLOUR}]〔{lang}〕[/{MISSING_COLOUR}]"
