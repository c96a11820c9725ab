"""Print-shop presets: what a shop takes, per format (trim, bleed, safe zone, pixels at its dpi),
as YAML data. pnpgen ships some in this folder; a game (data/<game>/presets/) or the workspace
(presets/) may add its own or replace one of the same name."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from pnpgen import resources
from pnpgen.data import validate
from pnpgen.data.model import Deck
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, contained, not_a_file, suggest, too_long
from pnpgen.impose.booklet import A5
from pnpgen.pdf.black import RULE, BlackRule
from pnpgen.pdf.pdfx import OutputCondition
from pnpgen.units import MM_PER_INCH, mm_to_pt, mm_to_px

SHIPPED = resources.folder("pnpgen.exports", "presets")
LAYOUTS = ("png-faces", "pdf-copies", "pdf-faces", "tts", "rulebook")
PDF_LAYOUTS = ("pdf-copies", "pdf-faces", "rulebook")  # the layouts a shop takes as PDF
PRESET_KEYS = {
    "name": "the shop's name, or its names by language: {ja: …, en: …}", "about": "where its figures come from", "dpi": "dots per inch, e.g. 300",
    "colour": "rgb | cmyk", "ink_limit": "total ink in %, e.g. 300", "files": " | ".join(LAYOUTS),
    "quantity": "csv | name", "backs": "each | shared", "page_order": "front-back | back-front",
    "marks": "none | jp | western",
    "page_multiple": "files: rulebook: the page count made a multiple of this with blank pages before the last, "
                     "e.g. 4 for a saddle stitch (中綴じ; the default: 1, none added)",
    "min_line": "the thinnest line the shop prints, e.g. 0.1mm (thinner ones warned; default: none)",
    "min_mixed_line": "the thinnest line in mixed_inks or more inks a CMYK export leaves unwarned, e.g. 0.1mm "
                      "(the default), or off",
    "min_mixed_text": "the smallest text in mixed_inks or more inks a CMYK export leaves unwarned, e.g. 8pt "
                      "(the default), or off",
    "mixed_inks": "how many process inks make a line or text mixed (min_mixed_line, min_mixed_text), 2 to 4 "
                  "(default 3)",
    "counter_sheet": "the sheet a deck of tokens at an any-size format is ganged on, [width, height], e.g. "
                     "[257mm, 364mm] for B4 (default [210mm, 297mm], A4)",
    "cut_line": "file | page: a die-cut piece's cut path at an any-size format, in <deck>-die.pdf or on its pages",
    "pdfx": "x1a | x1a-2001 | none (default of --pdfx)",
    "outline_text": "true | false: every glyph drawn as a path (default of --outline-text)",
    "overprint_black": "true | false: CMYK black text and thin lines overprint (スミノセ, the default) or knock out",
    "black_text_max": "CMYK: black text up to this size prints 100 % K, larger keeps its rich black, e.g. 36pt "
                      "(the default), 12pt, or 1000pt for all text",
    "grey_text_k": "CMYK: text in a grey of K alone from this K % on prints 100 % K, e.g. 85 (the default), or off",
    "black_hue": "CMYK: a small dark shape prints 100 % K when its C, M and Y are at most this many % apart, "
                 "e.g. 40 (the default), or 0 for neutral mixes only",
    "unverified": "what of the preset is not checked against the shop's own template (warned on every export)",
    "output_condition": "{identifier: CGATS TR 001, condition: …, info: …} (the PDF/X printing condition)",
    "formats": "name: {trim: [w, h], bleed: …, safe: …, pixels: [w, h]}",
}
FORMAT_KEYS = ("trim", "bleed", "safe", "pixels")
# How far (mm a side) --fit may move a deck's trim to a format's; further is another format.
FIT_LIMIT_OF_BLEED = 0.5
SAME_SIZE_MM = 0.05
PDFX = ("x1a", "x1a-2001", "none")  # PDF/X-1a:2003, PDF/X-1a:2001 (PDF 1.3), or plain PDF
FITS = ("scale", "bleed")  # the ways --fit adapts a deck's art to a format
# A line thinner, or text smaller, than these printed in three or four inks blurs where the plates
# do not register (docs/exports.md#mixed-lines); a preset's min_mixed_line, min_mixed_text and
# mixed_inks set their own.
MIN_MIXED_LINE_MM = 0.1
MIN_MIXED_TEXT_PT = 8.0
MIXED_INKS = 3
COUNTER_SHEET_MM = (210.0, 297.0)  # counters' sheet by default: A4, what 同人 printers' 入稿 takes as a rule
# Shapes a card format takes; a hex, circle, trihex or polygon piece is no card, whatever its box.
CARD_SHAPES = ("rect", "rounded")


@dataclass(frozen=True)
class Format:
    """One size a shop prints: trim, bleed and safe zone in mm; pixels of trim + bleed at the dpi."""

    name: str
    trim: tuple[float, float] | None  # None: any trim (virtual tables)
    bleed: float
    safe: float
    pixels: tuple[int, int] | None

    def page_mm(self, trim: tuple[float, float]) -> tuple[float, float]:
        return trim[0] + 2 * self.bleed, trim[1] + 2 * self.bleed

    def describe(self) -> str:
        if self.trim is None:
            return f"{self.name} (any size)"
        return f"{self.name} {self.trim[0]:g}×{self.trim[1]:g} mm"


@dataclass(frozen=True)
class Preset:
    """A print shop's requirements (a file in presets/): resolution, colour, page order, marks and the formats it
    cuts, so an export meets its preflight."""

    slug: str
    name: str  # in the game's language once ``in_language`` has chosen it
    source: Path
    dpi: int
    colour: str
    ink_limit: float
    files: str
    quantity: str
    backs: str
    page_order: str
    marks: str
    formats: tuple[Format, ...]
    pdfx: str = "none"  # x1a | x1a-2001 | none: the default of --pdfx
    output_condition: OutputCondition | None = None  # the PDF/X output intent's printing condition
    outline_text: bool = False  # PDF layouts: glyphs as paths (アウトライン化)
    overprint_black: bool = True  # CMYK: K100 text and thin lines overprint the ground (False: knock it out)
    unverified: str = ""  # figures not checked against the shop's own template: warned on every export
    cut_line: str = "file"  # a die-cut piece at an any-size format: its cut path in <deck>-die.pdf | on its pages
    min_line_mm: float | None = None  # the thinnest line the shop prints; a thinner stroke on a face is warned
    counter_sheet_mm: tuple[float, float] = COUNTER_SHEET_MM  # the sheet tokens are ganged on (exports/counters.py)
    names: tuple[tuple[str, str], ...] = ()  # (language, name): a name given per language

    def in_language(self, lang: str) -> Preset:
        """The preset named in ``lang`` (a Japanese printer's 同人印刷所 in English for an English
        game): its name in that language, else in English, else the first given."""
        named = dict(self.names)
        name = named.get(lang) or named.get("en") or self.name
        return self if name == self.name else replace(self, name=name)
    # CMYK: a line thinner than this in ``mixed_inks`` or more process inks is warned (misregistration)
    min_mixed_line_mm: float | None = MIN_MIXED_LINE_MM
    min_mixed_text_pt: float | None = MIN_MIXED_TEXT_PT  # CMYK: smaller text in ``mixed_inks`` or more inks is warned
    mixed_inks: int = MIXED_INKS
    page_multiple: int = 1  # files: rulebook: the page count made a multiple of this (中綴じ: 4)
    black: BlackRule = RULE  # CMYK: which text and small shapes print 100 % K (black_text_max, grey_text_k, black_hue)


@dataclass(frozen=True)
class Fitted:
    """A deck matched to a format: the trim it prints at, and how the art is adapted to it."""

    format: Format
    trim: tuple[float, float]  # the format's trim (the deck's own for an any-size format)
    scale: float  # art scale (1 unless --fit scale)
    art_bleed: float  # bleed to render the art with, so it covers the format's bleed
    turned: bool = False  # the deck is the format turned (a landscape card): drawn a quarter turn clockwise

    @property
    def page_mm(self) -> tuple[float, float]:
        return self.format.page_mm(self.trim)

    def pixels(self, dpi: int) -> tuple[int, int]:
        if self.format.pixels is not None:
            return self.format.pixels
        w, h = self.page_mm
        return round(mm_to_px(w, dpi)), round(mm_to_px(h, dpi))


def preset_dirs(ws: Workspace, slug: str) -> list[Path]:
    """Where presets are looked up, the first found winning: the game's, the workspace's, pnpgen's."""
    return [ws.game_dir(slug) / "presets", ws.root / "presets", SHIPPED]


def available(ws: Workspace, game: str) -> list[str]:
    """The names ``--preset`` takes: not a hidden file's (``.x.yaml``, ``..yaml``), which it refuses."""
    return sorted({p.stem for d in preset_dirs(ws, game) for p in d.glob("*.yaml") if not p.name.startswith(".")})


def load_preset(ws: Workspace, game: str, name: str) -> Preset:
    if not name or "/" in name or "\\" in name or name.startswith(".") or "\0" in name or too_long(f"{name}.yaml"):
        raise InputError(f"{name!r} is not a preset name", key="--preset",
                         expected="one of " + ", ".join(available(ws, game)))
    for folder in preset_dirs(ws, game):
        path = folder / f"{name}.yaml"
        if path.is_file():
            if folder != SHIPPED:  # the designer's: a link out of the workspace is never read
                contained(path.relative_to(ws.root), ws.root, "--preset", path)
            return _parse(load_yaml(path), name)
        what = not_a_file(path)
        if what is not None:  # (not "unknown preset 'x'; did you mean x?": the very name)
            shown = path.relative_to(ws.root) if path.is_relative_to(ws.root) else path
            raise InputError(f"preset {name!r} is {what}, not a file", path=shown, key="--preset",
                             expected=f"{shown.as_posix()}, a YAML file of the preset (docs/exports.md, Presets)")
    known = available(ws, game)
    near = suggest(name, known) or (f"; did you mean {SHORT_NAMES[name.lower()]}?"
                                    if SHORT_NAMES.get(name.lower()) in known else "")
    raise InputError(f"unknown preset {name!r}{near}", key="--preset", expected="one of " + ", ".join(known))


# what designers call a shipped preset for short (Tabletop Simulator's own community says TTS)
SHORT_NAMES = {"tts": "tabletopsimulator", "tgc": "thegamecrafter", "mpc": "makeplayingcards",
               "dtc": "drivethrucards", "drivethru": "drivethrucards", "同人": "doujin"}


def _choice(doc: Located, key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = str(doc.data.get(key, default))
    if value not in allowed:
        raise doc.error((key,), f"{value!r} is not a choice", " | ".join(allowed))
    return value


MAX_MIN_LINE_MM = 1.0  # a shop's thinnest line: a fraction of a millimetre (``_min_line``)


def _length(doc: Located, keypath: tuple, value) -> float:
    try:
        return validate.length(value, 0.0, validate.SIZE_MM[1])
    except validate.Invalid as e:
        raise doc.error(keypath, e.message, e.expected) from None


def _parse(doc: Located, slug: str) -> Preset:
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error((), "a preset must be a mapping", "key: value pairs")
    for key in data:
        if key not in PRESET_KEYS:
            raise doc.error((key,), "unknown key in a preset", "one of " + ", ".join(PRESET_KEYS), key=True)
    dpi = data.get("dpi", 300)
    if not isinstance(dpi, int) or not 36 <= dpi <= 2400:
        raise doc.error(("dpi",), f"{dpi!r} is not a resolution", "a whole number of dpi, e.g. 300")
    ink = data.get("ink_limit", 300)
    if not isinstance(ink, (int, float)) or not 100 <= ink <= 400:
        raise doc.error(("ink_limit",), f"{ink!r} is not an ink limit", "a percentage between 100 and 400")
    raw = data.get("formats")
    if not isinstance(raw, dict) or not raw:
        raise doc.error(("formats",), "a preset needs at least one format", PRESET_KEYS["formats"])
    formats = tuple(_format(doc, name, spec, dpi) for name, spec in raw.items())
    pdfx = _choice(doc, "pdfx", "none", PDFX)
    condition = _condition(doc)
    files = _choice(doc, "files", "png-faces", LAYOUTS)
    if files == "rulebook" and (len(formats) != 1 or formats[0].trim is None):
        raise doc.error(("formats",), "a rulebook preset has one format: the book's page",
                        "formats: {a5: {trim: [148mm, 210mm], bleed: 3mm}}")
    if files == "rulebook" and any(abs(a - b) > SAME_SIZE_MM for a, b in zip(formats[0].trim or (), A5)):
        trim = formats[0].trim or A5
        raise doc.error(("formats", formats[0].name, "trim"), f"{trim[0]:g}×{trim[1]:g} mm is not the rulebook's "
                        f"page: it is set on A5 ({A5[0]:g}×{A5[1]:g} mm)", "trim: [148mm, 210mm]")
    # (blank pages for a binding: a book's, not the pieces'; the default, 1, adds none and is no slip)
    if files != "rulebook" and _page_multiple(doc) != 1:
        raise doc.error(("page_multiple",), f"page_multiple makes up a rulebook's page count, and this preset "
                        f"prints {files}", "files: rulebook with page_multiple, or no page_multiple", key=True)
    if pdfx != "none" and condition is None:
        raise doc.error(("pdfx",), f"pdfx: {pdfx} needs the printing condition", PRESET_KEYS["output_condition"])
    names = _names(doc, data.get("name", slug))
    return Preset(
        slug=slug, name=names[0][1], names=names, source=doc.path, dpi=dpi,
        colour=_choice(doc, "colour", "rgb", ("rgb", "cmyk")), ink_limit=float(ink),
        files=files, quantity=_choice(doc, "quantity", "csv", ("csv", "name")),
        backs=_choice(doc, "backs", "each", ("each", "shared")),
        page_order=_choice(doc, "page_order", "front-back", ("front-back", "back-front")),
        marks=_choice(doc, "marks", "none", ("none", "jp", "western")), formats=formats,
        pdfx=pdfx, output_condition=condition,
        unverified=_said(doc, ("unverified",), str(data.get("unverified") or "")),
        outline_text=_flag(doc, "outline_text"), overprint_black=_flag(doc, "overprint_black", True),
        cut_line=_choice(doc, "cut_line", "file", ("file", "page")),
        min_line_mm=_min_line(doc),
        min_mixed_line_mm=_or_off(doc, "min_mixed_line", MIN_MIXED_LINE_MM),
        min_mixed_text_pt=_text_pt(_or_off(doc, "min_mixed_text", MIN_MIXED_TEXT_PT, "pt")),
        mixed_inks=_mixed_inks(doc), page_multiple=_page_multiple(doc), black=_black(doc),
        counter_sheet_mm=_counter_sheet(doc),
    )


def _counter_sheet(doc: Located) -> tuple[float, float]:
    """The preset's counter sheet, [width, height] in mm (a bare number: mm), A4 by default."""
    value = doc.data.get("counter_sheet")
    if value is None:
        return COUNTER_SHEET_MM
    if not isinstance(value, list) or len(value) != 2:
        raise doc.error(("counter_sheet",), f"{value!r} is not a sheet size", PRESET_KEYS["counter_sheet"])
    w, h = (_length(doc, ("counter_sheet", i), v) for i, v in enumerate(value))
    if w <= 0 or h <= 0:
        raise doc.error(("counter_sheet",), f"{w:g}×{h:g} mm is not a sheet", PRESET_KEYS["counter_sheet"])
    return w, h


def _black(doc: Located) -> BlackRule:
    """A preset's figures for black that prints black (pdf/black.py), the defaults where it has none."""
    text = _text_pt(_or_off(doc, "black_text_max", RULE.text_pt, "pt"))
    if text is None or text <= 0:
        raise doc.error(("black_text_max",), f"{doc.data['black_text_max']!r} is not a text size",
                        PRESET_KEYS["black_text_max"])
    grey = _percent(doc, "grey_text_k", RULE.grey_k, 50, True)
    hue = _percent(doc, "black_hue", RULE.hue, 0, False)
    assert hue is not None
    return BlackRule(text_pt=text, grey_k=grey, hue=hue)


def _percent(doc: Located, key: str, default: float | None, least: float, off: bool) -> float | None:
    """A percentage of the preset from ``least`` to 100, as a fraction (``off``: None, where allowed)."""
    value = doc.data.get(key)
    if value is None:
        return default
    if off and (value is False or (isinstance(value, str) and value.strip().lower() in ("off", "none"))):
        return None
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            value = float(value.strip()[:-1])
        except ValueError:
            pass
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not least <= value <= 100:
        shown = repr(("off", "on")[value]) if isinstance(value, bool) else repr(value)  # (YAML reads off as false)
        raise doc.error((key,), f"{shown} is not a percentage from {least} to 100", PRESET_KEYS[key])
    return value / 100


def _page_multiple(doc: Located) -> int:
    value = doc.data.get("page_multiple", 1)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 64:
        raise doc.error(("page_multiple",), f"{value!r} is not a number of pages", PRESET_KEYS["page_multiple"])
    return value


def _or_off(doc: Located, key: str, default: float, unit: str = "mm") -> float | None:
    """A length of the preset in mm (a bare number in ``unit``: a text size in pt), or None for ``off``."""
    value = doc.data.get(key, default)
    if value is False or (isinstance(value, str) and value.strip().lower() in ("off", "none")):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = f"{value}{unit}"
    return _length(doc, (key,), value)


def _min_line(doc: Located) -> float | None:
    """The preset's ``min_line`` in mm: a shop's thinnest line, a fraction of a millimetre (0.1 mm the
    同人 printers'); more than ``MAX_MIN_LINE_MM`` is a slip (5cm for 0.5mm) that would draw every line
    of a shop's book that wide (pdf/minline.py)."""
    if "min_line" not in doc.data:
        return None
    mm = _length(doc, ("min_line",), doc.data["min_line"])
    if mm > MAX_MIN_LINE_MM:
        raise doc.error(("min_line",), f"{mm:g} mm is thicker than any shop's thinnest line (every line "
                        "of its book would be drawn that wide)", f"a length up to {MAX_MIN_LINE_MM:g}mm, e.g. 0.1mm")
    return mm


def _text_pt(mm: float | None) -> float | None:
    return round(mm_to_pt(mm), 6) if mm is not None else None


def _mixed_inks(doc: Located) -> int:
    value = doc.data.get("mixed_inks", MIXED_INKS)
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 4:
        raise doc.error(("mixed_inks",), f"{value!r} is not a number of inks", PRESET_KEYS["mixed_inks"])
    return value


def _flag(doc: Located, key: str, default: bool = False) -> bool:
    value = doc.data.get(key, default)
    if not isinstance(value, bool):
        raise doc.error((key,), f"{value!r} is not true or false", "true | false")
    return value


def _condition(doc: Located) -> OutputCondition | None:
    raw = doc.data.get("output_condition")
    if raw is None:
        return None
    keys = ("identifier", "condition", "info")
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k, ""), str) for k in keys) or not raw.get("identifier"):
        raise doc.error(("output_condition",), "an output condition is a mapping of text with an identifier",
                        PRESET_KEYS["output_condition"])
    for key in raw:
        if key not in keys:
            raise doc.error(("output_condition", key), "unknown key in output_condition", "one of " + ", ".join(keys),
                            key=True)
    for key in keys:
        _said(doc, ("output_condition", key), raw.get(key, ""))
    return OutputCondition(raw["identifier"], raw.get("condition") or raw["identifier"], raw.get("info", ""))


NOTE_CHARS = 1000  # a preset's texts said on every export or written into every PDF/X file: a paragraph


def _said(doc: Located, at: tuple[str, ...], text: str) -> str:
    """A preset's text that every export prints (``unverified``) or writes into its files (the
    printing condition): a paragraph at most — a stranger's 3 MB one was printed on each export."""
    if len(text) > NOTE_CHARS:
        raise doc.error(at, f"this text is {len(text):,} characters long", f"a note of at most {NOTE_CHARS} characters")
    return text


def _names(doc: Located, value) -> tuple[tuple[str, str], ...]:
    """A preset's name, or its names by language (``name: {ja: 同人印刷所（…）, en: doujin printer
    (…)}``): (language, name) pairs, the first the name of any other language."""
    if isinstance(value, dict) and value and all(isinstance(k, str) and isinstance(n, str) and n.strip()
                                                 for k, n in value.items()):
        names = tuple((str(k), str(n)) for k, n in value.items())
    elif isinstance(value, (dict, list)) or not str(value).strip():
        raise doc.error(("name",), f"{value!r} is not a preset's name", PRESET_KEYS["name"])
    else:
        names = (("", str(value)),)
    for lang, name in names:  # printed on every contact sheet and message: a title's length (a million
        if len(name) > validate.LABEL_CHARS:  # characters was the picture library's ValueError traceback)
            at = ("name", lang) if lang else ("name",)
            raise doc.error(at, f"the preset's name is {len(name):,} characters long",
                            f"a shop's name of at most {validate.LABEL_CHARS} characters")
    return names


def _format(doc: Located, name: str, spec, dpi: int) -> Format:
    at = ("formats", name)
    if not isinstance(spec, dict):
        raise doc.error(at, "a format must be a mapping", PRESET_KEYS["formats"])
    for key in spec:
        if key not in FORMAT_KEYS:
            raise doc.error(at + (key,), "unknown key in a format", "one of " + ", ".join(FORMAT_KEYS), key=True)
    bleed = _length(doc, at + ("bleed",), spec.get("bleed", 0))
    safe = _length(doc, at + ("safe",), spec.get("safe", 3))
    trim = None
    if spec.get("trim", "any") != "any":
        raw = spec["trim"]
        if not isinstance(raw, list) or len(raw) != 2:
            raise doc.error(at + ("trim",), "a trim is [width, height]", "e.g. [2.5in, 3.5in], or any")
        trim = (_length(doc, at + ("trim", 0), raw[0]), _length(doc, at + ("trim", 1), raw[1]))
    pixels = None
    if "pixels" in spec:
        raw = spec["pixels"]
        if trim is None or not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(v, int) for v in raw):
            raise doc.error(at + ("pixels",), "pixels are [width, height] of trim + bleed, for a fixed trim",
                            "e.g. [825, 1125]")
        pixels = (raw[0], raw[1])
        for i, px in enumerate(pixels):
            want = mm_to_px(trim[i] + 2 * bleed, dpi)
            if abs(px - want) > 1.0:
                raise doc.error(at + ("pixels", i), f"{px} px is not trim + 2 × bleed at {dpi} dpi ({want:.1f} px)",
                                "the pixel size of trim plus bleed")
    return Format(str(name), trim, bleed, safe, pixels)


@dataclass
class NotTaken(InputError):
    """A deck the preset has no format for (and ``--fit`` cannot adapt): the export leaves it out
    unless the designer named it with ``--deck``. ``resize``: the ``size:`` that prints it at the
    shop's nearest format as it is, when ``--fit`` would take it too ("" otherwise)."""

    resize: str = ""


def fit_deck(preset: Preset, deck: Deck, fit: str | None) -> Fitted:
    """The format a deck prints at. Same size: as it is; the same size turned (a landscape
    88×63 card, a portrait 63×88 format): turned a quarter onto the format's page, as a shop
    prints landscape cards on its one stock. Any other deck, at an any-size format when the preset
    has one (a card of a named format's size prints at that format's bleed, not at ``any``'s,
    wherever the preset lists it). A rectangle near a format, either way round:
    ``fit`` adapts the art to it (``scale`` scales it to cover the format's trim, ``bleed`` keeps
    it at size and lets its bleed make up the difference), either only within half the format's
    bleed a side. Anything else raises NotTaken, which suggests ``--fit`` only when it would
    succeed."""
    w, h = deck.trim_mm
    fixed = [f for f in preset.formats if f.trim is not None]
    sizes = ", ".join(f.describe() for f in fixed)
    trims = {f.name: f.trim for f in fixed if f.trim is not None}
    ways = ((False, (w, h)), (True, (h, w)))  # as it is, then turned
    for turned, (dw, dh) in ways if deck.shape in CARD_SHAPES else ():
        for f in fixed:
            fw, fh = trims[f.name]
            if abs(fw - dw) <= SAME_SIZE_MM and abs(fh - dh) <= SAME_SIZE_MM:
                return Fitted(f, (fw, fh), 1.0, f.bleed, turned)
    for f in preset.formats:  # any other piece: a format of its own size, when the preset has one
        if f.trim is None:
            return Fitted(f, (w, h), 1.0, f.bleed)
    if deck.shape not in CARD_SHAPES:  # a 70 mm circle is no 70×70 card, though its box is
        raise NotTaken(
            f"deck {deck.id!r} is a {deck.shape} {deck.kind} ({w:g}×{h:g} mm); {preset.name} prints "
            f"rectangular cards of its sizes only, and --fit does not make a {deck.shape} piece a card",
            path=deck.source, key="shape", expected=f"a rect or rounded deck of one of {sizes}")

    def off(way: tuple[bool, tuple[float, float]], f: Format) -> float:
        return max(abs(trims[f.name][0] - way[1][0]), abs(trims[f.name][1] - way[1][1]))

    (turned, size), nearest = min(((way, f) for way in ways for f in fixed), key=lambda pair: off(*pair))
    limit = FIT_LIMIT_OF_BLEED * nearest.bleed
    adapted = {mode: _adapt(nearest, size, mode, turned) for mode in FITS}
    works = [mode for mode in FITS if adapted[mode][1] <= limit + 1e-9]
    at = deck.size_at  # the deck's size: (else the file whose layout sizes it)
    if fit is None:
        if works:
            fw, fh = trims[nearest.name]
            resize = f"size: {_written_size(*((fh, fw) if turned else (fw, fh)))}"
            raise NotTaken(
                f"deck {deck.id!r} is {w:g}×{h:g} mm; {preset.name} has no format of that size, the nearest is "
                f"{nearest.describe()}", path=at.path, line=at.line, column=at.column, key="size",
                expected=f"{resize} in the deck file for its {nearest.name} (or a size of one of {sizes}), or "
                f"--fit {'|'.join(works)} to adapt it", resize=resize)
        raise NotTaken(
            f"deck {deck.id!r} is {w:g}×{h:g} mm, not a card {preset.name} prints: its nearest format, "
            f"{nearest.describe()}, is {min(m for _, m in adapted.values()):.2f} mm off a side, more than "
            f"--fit adapts ({limit:.2f} mm)", path=at.path, line=at.line, column=at.column, key="size",
            expected=f"a size of one of {sizes}")
    fitted, moved = adapted[fit]
    if moved > limit + 1e-9:
        raise NotTaken(
            f"deck {deck.id!r} is {w:g}×{h:g} mm; --fit {fit} to {preset.name}'s nearest format, "
            f"{nearest.describe()}, would move its edges {moved:.2f} mm (at most {limit:.2f} mm)",
            path=deck.source, key="size",
            expected=f"--fit {works[0]}" if works else "a deck size close to one of the preset's formats")
    return fitted


def _written_size(w: float, h: float) -> str:
    """A deck's ``size:`` as a designer writes it: in inches where both are whole sixteenths (an
    inch shop's 2.5 × 3.5 in), else in mm."""
    inches = [v / MM_PER_INCH for v in (w, h)]
    if all(abs(v * 16 - round(v * 16)) < 1e-6 for v in inches):
        return f"[{inches[0]:g}in, {inches[1]:g}in]"
    return f"[{w:g}, {h:g}]"


def _adapt(nearest: Format, size: tuple[float, float], fit: str, turned: bool = False) -> tuple[Fitted, float]:
    """The deck (``size`` as it lies on the format: turned when ``turned``) fitted to ``nearest``
    by ``fit``, and how far that moves its edges (mm a side): the trim's move to the format's, and
    with ``scale`` also the art pushed past the format's trim (scaling a board down to a card
    moves its edges by the whole difference, never by nothing)."""
    w, h = size
    W, H = nearest.trim or size
    moved = max(abs(W - w), abs(H - h)) / 2
    if fit == "scale":
        s = max(W / w, H / h)
        lost = max(s * w - W, s * h - H) / 2  # art beyond the format's trim, a side
        return Fitted(nearest, (W, H), s, nearest.bleed / s, turned), max(moved, lost)
    return Fitted(nearest, (W, H), 1.0, nearest.bleed + max(0.0, (W - w) / 2, (H - h) / 2), turned), moved
